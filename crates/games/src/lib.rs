//! Every game ply plays, by name. Adding a game is one dependency and one line here; nothing
//! above this crate names a game.

use ply_core::{GameEntry, Registry};

/// The registry of all games, in the order they are offered to people.
#[must_use]
pub fn registry() -> Registry {
    Registry::new(vec![
        GameEntry::of::<ply_gipf::Position>(),
        GameEntry::of::<ply_zertz::Position>(),
        GameEntry::of::<ply_boop::Boop>(),
        GameEntry::of::<ply_punct::Position>(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_starts_in_every_variant() {
        for entry in registry().entries() {
            for variant in entry.variants {
                let game = entry.new_game(Some(variant)).expect("known variant");
                assert_eq!(game.name(), entry.name);
                assert_eq!(game.variant(), *variant);
                assert!(game.outcome().is_none());
                assert!(game.legal_move_count() > 0);
            }
            assert!(entry.new_game(Some("no-such-variant")).is_err());
        }
        assert!(registry().get("chess").is_err());
    }
}
