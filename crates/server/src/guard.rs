//! What keeps one client from hurting the site or its players: security headers on every
//! answer, JSON errors for malformed requests, per-address rate limits, and checks of where a
//! request comes from (the WebSocket `Origin`, JSON bodies only on the write endpoints, local
//! redirects only).

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};

/// The Content-Security-Policy of every answer: scripts and styles from this site only, no
/// inline script, no framing. The games' SVG pictures may carry a fixed `<style>` block; each
/// is allowed by its hash (found at start from every game's pictures), never by
/// `'unsafe-inline'`.
#[must_use]
pub fn content_security_policy() -> String {
    let mut hashes = Vec::new();
    for entry in ply_games::registry().entries() {
        for variant in entry.variants {
            let Ok(game) = entry.new_game(Some(variant)) else { continue };
            let svg = game.svg();
            let mut rest = svg.as_str();
            while let Some(start) = rest.find("<style>") {
                let body = &rest[start + 7..];
                let Some(end) = body.find("</style>") else { break };
                let digest = Sha256::digest(&body.as_bytes()[..end]);
                let hash = format!(
                    "'sha256-{}'",
                    base64::engine::general_purpose::STANDARD.encode(digest)
                );
                if !hashes.contains(&hash) {
                    hashes.push(hash);
                }
                rest = &body[end..];
            }
        }
    }
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' {}; img-src 'self' data:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'",
        hashes.join(" ")
    )
}

/// Adds the security headers to every answer, and turns the plain-text errors of malformed
/// requests (axum's rejections: a body that is not JSON, a path that does not parse, a wrong
/// method) into the documented `{"error": …}` JSON.
pub async fn headers(policy: Arc<HeaderValue>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let status = response.status();
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_none_or(|v| v.to_str().is_ok_and(|t| t.starts_with("text/plain")));
    let is_download = response.headers().contains_key(header::CONTENT_DISPOSITION);
    if (status.is_client_error() || status.is_server_error()) && plain && !is_download {
        let (mut parts, body) = response.into_parts();
        let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
        let mut message = String::from_utf8_lossy(&text).trim().to_string();
        if message.is_empty() {
            message = status.canonical_reason().unwrap_or("error").to_lowercase();
        }
        let json = serde_json::json!({ "error": message }).to_string();
        parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        parts.headers.remove(header::CONTENT_LENGTH);
        response = Response::from_parts(parts, Body::from(json));
    }
    let h = response.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, (*policy).clone());
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Invite links carry a seat's token: never send a page's address to another site.
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// Whether a WebSocket handshake comes from a page of this site: browsers send `Origin`, and
/// it must name the host the request was sent to. Programs that send no `Origin` are let in.
#[must_use]
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let Ok(origin) = origin.to_str() else { return false };
    let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    rest.eq_ignore_ascii_case(host)
}

/// Whether a write request's body may be read as JSON: it has none, or it says it is JSON
/// (a form of another site can post `text/plain` or form bodies without asking first; it
/// cannot post `application/json`).
#[must_use]
pub fn json_body(headers: &HeaderMap, body: &[u8]) -> bool {
    match headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) {
        None => body.iter().all(u8::is_ascii_whitespace),
        Some(t) => {
            let t = t.split(';').next().unwrap_or("").trim();
            t.eq_ignore_ascii_case("application/json")
        }
    }
}

/// How many requests of a kind one address may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Requests allowed at once before the rate applies.
    pub burst: u32,
    /// Requests per minute after that.
    pub per_minute: u32,
}

/// The rate limits of a server, per client address. `None`: no limit.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// New games.
    pub create: Option<Limit>,
    /// Game actions (moves, undos, draws, hints, continuations), over HTTP and WebSocket.
    pub act: Option<Limit>,
    /// New games against the computer at its strongest level, which search for a second each
    /// turn.
    pub strong: Option<Limit>,
}

impl Default for Limits {
    /// Generous for people, tight for scripts: 20 new games at once then 20 a minute; 60
    /// actions at once then 600 a minute; 4 level-10 games at once then 4 a minute.
    fn default() -> Limits {
        Limits {
            create: Some(Limit { burst: 20, per_minute: 20 }),
            act: Some(Limit { burst: 60, per_minute: 600 }),
            strong: Some(Limit { burst: 4, per_minute: 4 }),
        }
    }
}

impl Limits {
    /// No limits at all (load tests, the test suite).
    #[must_use]
    pub fn none() -> Limits {
        Limits { create: None, act: None, strong: None }
    }
}

type Keyed = DefaultKeyedRateLimiter<IpAddr>;

/// The rate limiters of a server.
#[derive(Clone)]
pub struct RateLimits {
    create: Option<Arc<Keyed>>,
    act: Option<Arc<Keyed>>,
    strong: Option<Arc<Keyed>>,
    login: Option<Arc<Keyed>>,
}

impl std::fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimits").finish_non_exhaustive()
    }
}

fn keyed(limit: Option<Limit>) -> Option<Arc<Keyed>> {
    let limit = limit?;
    let per_minute = NonZeroU32::new(limit.per_minute.max(1))?;
    let burst = NonZeroU32::new(limit.burst.max(1))?;
    Some(Arc::new(RateLimiter::keyed(Quota::per_minute(per_minute).allow_burst(burst))))
}

/// Which limit a request counts against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Create,
    Act,
    Strong,
    /// Logins and registrations (players.rs): [`LOGIN_LIMIT`] per address, on whenever new
    /// games are limited.
    Login,
}

/// Password attempts one address may make: 5 at once, then 5 a minute.
pub const LOGIN_LIMIT: Limit = Limit { burst: 5, per_minute: 5 };

impl RateLimits {
    #[must_use]
    pub fn new(limits: Limits) -> RateLimits {
        RateLimits {
            create: keyed(limits.create),
            act: keyed(limits.act),
            strong: keyed(limits.strong),
            login: keyed(limits.create.map(|_| LOGIN_LIMIT)),
        }
    }

    /// `Ok` when `addr` may make one more request of `kind`, else how long it must wait.
    ///
    /// # Errors
    /// The time until the next request of this kind is allowed.
    pub fn check(&self, kind: Kind, addr: Option<IpAddr>) -> Result<(), Duration> {
        let limiter = match kind {
            Kind::Create => &self.create,
            Kind::Act => &self.act,
            Kind::Strong => &self.strong,
            Kind::Login => &self.login,
        };
        let (Some(limiter), Some(addr)) = (limiter, addr) else { return Ok(()) };
        limiter.check_key(&addr).map_err(|not_until| {
            not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ))
        })
    }

    /// Forgets addresses that have been quiet (called now and then, so the maps stay small).
    pub fn forget_quiet(&self) {
        for limiter in [&self.create, &self.act, &self.strong, &self.login].into_iter().flatten() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// The 429 answer to a client over its limit, with `Retry-After`.
#[must_use]
pub fn too_many(wait: Duration) -> Response {
    let seconds = wait.as_secs() + 1;
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        axum::Json(serde_json::json!({
            "error": format!("too many requests from your address; try again in {seconds} s")
        })),
    )
        .into_response();
    response.headers_mut().insert(
        header::RETRY_AFTER,
        HeaderValue::from_str(&seconds.to_string()).unwrap_or(HeaderValue::from_static("60")),
    );
    response
}

/// The client's address of a request, when the server knows it.
#[must_use]
pub fn client(info: Option<&ConnectInfo<SocketAddr>>) -> Option<IpAddr> {
    info.map(|ConnectInfo(addr)| addr.ip())
}

pub use ply_protocol::local_path;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_the_games_styles_by_hash_only() {
        let csp = content_security_policy();
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"));
        assert!(csp.contains("'sha256-"), "PÜNCT's pictures carry a style block: {csp}");
    }

    #[test]
    fn a_limit_refuses_after_its_burst_and_names_the_wait() {
        let limits = RateLimits::new(Limits {
            create: Some(Limit { burst: 3, per_minute: 1 }),
            ..Limits::none()
        });
        let me = Some(IpAddr::from([10, 0, 0, 1]));
        let other = Some(IpAddr::from([10, 0, 0, 2]));
        for _ in 0..3 {
            assert_eq!(limits.check(Kind::Create, me), Ok(()));
        }
        let wait = limits.check(Kind::Create, me).unwrap_err();
        assert!(wait > Duration::from_secs(30), "{wait:?}");
        assert_eq!(limits.check(Kind::Create, other), Ok(()), "limits are per address");
        assert_eq!(limits.check(Kind::Act, me), Ok(()), "no act limit configured");
    }
}
