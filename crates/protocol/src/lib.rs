//! The typed messages between ply's browser app and its clients, apart from the server that
//! answers them: every message of the game WebSocket both ways and the views of a game
//! ([`messages`], re-exported here), the bodies of the HTTP API ([`CreateRequest`]), the board
//! patches of live events ([`patch`]), the legal moves as a trie of click paths ([`choices`]),
//! why a request was refused ([`Reason`]) in the interface's languages ([`Lang`]), and where a
//! redirect may send a browser ([`local_path`]).
//!
//! A crate of its own so that what reads a client's input can be fuzzed, and a client written
//! in Rust can use it, without building the server (`docs/fuzzing.md`).

pub mod choices;
pub mod messages;
pub mod patch;
pub mod reason;

pub use messages::*;
pub use reason::{Reason, Rejection};

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Ko,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ko, Lang::Ru];

    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
            Lang::Ru => "ru",
        }
    }

    /// The language's own name.
    #[must_use]
    pub fn native(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ko => "한국어",
            Lang::Ru => "Русский",
        }
    }

    #[must_use]
    pub fn parse(code: &str) -> Option<Lang> {
        let code = code.trim().to_ascii_lowercase();
        let primary = code.split(['-', '_']).next().unwrap_or("");
        match primary {
            "en" => Some(Lang::En),
            "ko" => Some(Lang::Ko),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }
}

/// Where a `back` parameter may send a browser: a path of this site only (not `//host`,
/// `/\host`, nor anything with control characters), else the home page.
#[must_use]
pub fn local_path(back: Option<&str>) -> String {
    match back {
        Some(b)
            if b.starts_with('/')
                && !b.starts_with("//")
                && !b.starts_with("/\\")
                && b.bytes().all(|c| c.is_ascii_graphic() && c != b'\\') =>
        {
            b.to_string()
        }
        _ => "/".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_redirect_targets() {
        for good in ["/", "/games", "/game/abc?x=1", "/rules/boop#top"] {
            assert_eq!(local_path(Some(good)), good);
        }
        for bad in [
            "//evil.example/",
            "/\\evil.example/",
            "http://evil.example",
            "evil",
            "/a\r\nSet-Cookie: x",
            "/a\tb",
            "/a b",
            "",
        ] {
            assert_eq!(local_path(Some(bad)), "/", "{bad:?}");
        }
        // Percent-escapes stay escaped in the Location header: a path, not a host.
        assert_eq!(local_path(Some("/%5Cevil.example/")), "/%5Cevil.example/");
        assert_eq!(local_path(None), "/");
    }
}
