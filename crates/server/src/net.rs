//! The server's sockets: accepting connections up to a cap below the file limit, timing out
//! requests whose headers never finish, and stopping gracefully on SIGTERM or Ctrl-C.
//!
//! axum's own `serve` has no header timeout and no connection cap, so a few thousand sockets
//! that never finish their headers (slowloris) would exhaust the file descriptors; this loop
//! is hyper-util's connection builder with those limits, as in axum's "serve with hyper"
//! example.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt as _;

use crate::AppState;

/// How the server treats its sockets.
#[derive(Clone, Copy, Debug)]
pub struct NetSettings {
    /// Connections (HTTP and WebSocket) open at once; more wait in the listen queue.
    pub max_connections: usize,
    /// A request whose headers are not complete after this long is dropped (and an idle
    /// keep-alive connection closed).
    pub header_timeout: Duration,
    /// On SIGTERM or Ctrl-C: how long requests in flight may take to finish.
    pub grace: Duration,
}

impl NetSettings {
    /// Settings for this process: the open-file limit is raised as far as allowed, and the
    /// connection cap stays well below it (the database and the engines need files too).
    #[must_use]
    pub fn for_this_process() -> NetSettings {
        let limit = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
        let cap = usize::try_from(limit).unwrap_or(1024).saturating_sub(128).max(64) * 9 / 10;
        NetSettings {
            max_connections: cap,
            header_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(10),
        }
    }
}

impl Default for NetSettings {
    fn default() -> NetSettings {
        NetSettings {
            max_connections: 900,
            header_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(10),
        }
    }
}

/// A future that ends on SIGTERM or Ctrl-C (SIGINT). The handlers are installed now, not
/// when the future is first polled, so a signal that comes early is not missed.
///
/// # Panics
/// Outside a tokio runtime.
pub fn stop_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).ok();
        let mut int = signal(SignalKind::interrupt()).ok();
        async move {
            tokio::select! {
                () = next_signal(term.as_mut()) => {}
                () = next_signal(int.as_mut()) => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(unix)]
async fn next_signal(signal: Option<&mut tokio::signal::unix::Signal>) {
    match signal {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending::<()>().await,
    }
}

/// Serves `app` on `listener` until `stop` ends, then stops gracefully: no new connections,
/// WebSocket clients told to reconnect (close code 1012), requests in flight finished within
/// `settings.grace`, and every change confirmed to a client written.
///
/// # Errors
/// Never for a single connection's failure; only when the listener itself fails for good.
pub async fn run(
    listener: TcpListener,
    state: AppState,
    app: Router,
    settings: NetSettings,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    // A serving node also ends games on time.
    state.watch_clocks();
    // And archives the games that end (and those a stopped node left unarchived).
    state.archive_games();
    crate::lobby::purge_now_and_then(&state);
    let permits = state.connections.clone();
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut stop => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was taken:
                    // wait a moment rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            app.clone().oneshot(request)
        });
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(settings.header_timeout)
            .keep_alive(true);
        builder.http2().timer(TokioTimer::new()).keep_alive_interval(Some(Duration::from_secs(30)));
        let connection = graceful.watch(
            builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned(),
        );
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    // Tell the WebSocket clients to go (and come back), then wait for what is in flight.
    state.begin_stopping();
    let all = u32::try_from(permits_total(&state)).unwrap_or(u32::MAX);
    let drained = async {
        graceful.shutdown().await;
        // Every WebSocket task holds a permit until it ends.
        let _ = permits.acquire_many(all).await;
    };
    if tokio::time::timeout(settings.grace, drained).await.is_err() {
        tracing::warn!("stopping: connections still open after {:?}; closing them", settings.grace);
    }
    // Changes already handed to the store are written before the process ends.
    state.store().flush().await;
    Ok(())
}

fn permits_total(state: &AppState) -> usize {
    state.max_connections
}

/// Binds nothing; the permits of `max` connections.
#[must_use]
pub fn connection_permits(max: usize) -> Arc<Semaphore> {
    Arc::new(Semaphore::new(max.max(1)))
}
