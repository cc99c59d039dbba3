//! The real boardspace.net records of `../shared/corpus/zertz-boardspace/quirks/`: each shows
//! one way boardspace's interface wrote what the players did with the mouse rather than the
//! turns. Each must convert, replay through the rules, and say how it was read.

use std::path::PathBuf;

use ply_core::{Outcome, Player};
use ply_records::boardspace::{
    Check, Claim, Conversion, Damaged, Ending, Game, Normalisation, check, convert, parse_sgf,
};

fn quirks() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/zertz-boardspace/quirks"
    ))
}

fn text_of(file: &str) -> String {
    let path = quirks().join(file);
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("the shared corpus record {}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

fn game_of(text: &str) -> Game {
    match convert(text) {
        Ok(Conversion::Game(game)) => game,
        other => panic!("not a game: {other:?}"),
    }
}

/// A record that replays: the game, the outcome on the board, the turns played and the
/// normalisations reported.
struct Replayed {
    game: Game,
    outcome: Option<Outcome>,
    turns: usize,
    normalisations: Vec<Normalisation>,
}

impl Replayed {
    fn token(&self, turn: usize) -> &str {
        &self.game.turns[turn - 1].token
    }
}

fn replay(file: &str) -> Replayed {
    let game = game_of(&text_of(file));
    match check(&game, &ply_games::registry()) {
        Check::Passed { outcome, turns, normalisations } => {
            Replayed { game, outcome, turns, normalisations }
        }
        other => panic!("{file}: {other:?}"),
    }
}

fn damaged(text: &str) -> Damaged {
    match convert(text) {
        Err(damaged) => damaged,
        other => panic!("not damaged: {other:?}"),
    }
}

fn taken_back(turn: usize, from: &str, to: &str) -> Normalisation {
    Normalisation::JumpTakenBack { turn, from: from.into(), to: to.into() }
}

#[test]
fn a_jump_taken_back_undoes_that_jump_and_the_chain_goes_on_another_way() {
    let r = replay("T!Z11-ddyer-sebastian-2004-10-16-1851.sgf");
    assert_eq!(
        r.normalisations,
        [taken_back(19, "d6", "f4"), taken_back(19, "e5", "c6"), taken_back(19, "d6", "f4")]
    );
    assert_eq!(r.token(19), "e5xc6");
    assert_eq!(r.token(20), "Gb6,d4");
    assert_eq!((r.turns, r.outcome), (28, Some(Outcome::Win(Player::P2))));
}

#[test]
fn jumps_taken_back_in_a_row_among_marbles_put_back() {
    let r = replay("T!Z-malawiboy-ddyer-2004-10-23-1648.sgf");
    assert_eq!(r.normalisations, [taken_back(11, "c2", "a2"), taken_back(11, "e3", "c2")]);
    assert_eq!(r.token(11), "c4xe3xe5");
    assert_eq!((r.turns, r.outcome), (27, Some(Outcome::Win(Player::P1))));
}

#[test]
fn a_jump_back_over_an_earlier_jump_than_the_last_is_still_damage() {
    // The real record, with the first take-back (a2 to c2, reversing the last jump c2 to a2)
    // made to reverse the chain's first jump (c4 to e3) instead: no take-back explains it.
    let text = text_of("T!Z-malawiboy-ddyer-2004-10-23-1648.sgf");
    let altered = text.replace("P0[35 BtoB A 2 C 2]", "P0[35 BtoB E 3 C 4]");
    assert_ne!(altered, text);
    let d = damaged(&altered);
    assert_eq!((d.index, d.line, d.action.as_str()), (Some(35), 33, "BtoB E 3 C 4"));
    assert_eq!(
        d.reason,
        "goes back over the jump c4 to e3, which is not the last jump of this turn (c2 to a2): \
         no take-back explains it"
    );
}

#[test]
fn the_seat_that_steps_first_moves_first_whatever_start_says() {
    let r = replay("T!Z-malawiboy-ddyer-2004-10-23-1708.sgf");
    assert_eq!(
        r.normalisations,
        [Normalisation::StartMarkerOverruled { marker_seat: 1, first_seat: 0 }]
    );
    assert_eq!(r.game.players, ["malawiboy".to_string(), "ddyer".to_string()]);
    assert_eq!((r.game.turns[0].player, r.token(1)), (Player::P1, "Gf4,g2"));
    assert_eq!((r.turns, r.outcome), (22, Some(Outcome::Win(Player::P2))));
}

#[test]
fn a_placed_marble_dragged_on_is_placed_where_it_was_left() {
    let r = replay("T!Z-bluedog-Puddleglum-2005-07-31-1407.sgf");
    assert_eq!(
        r.normalisations,
        [Normalisation::MarbleDragged { turn: 28, from: "f3".into(), to: "f1".into() }]
    );
    assert_eq!(r.game.turns[27].actions, "RtoB 2 2 F 3; BtoB F 3 F 1; R- G 1");
    assert_eq!((r.token(28), r.token(29)), ("Bf1,g1", "f1xf3"));
    assert_eq!((r.turns, r.outcome), (31, Some(Outcome::Win(Player::P1))));
}

#[test]
fn a_second_game_tree_holds_the_editing_history_and_the_first_is_the_game() {
    let text = text_of("T!Z-Russ-ddyer-2018-12-22-2217.sgf");
    assert_eq!(parse_sgf(&text).expect("two well-formed game trees").len(), 2);
    let r = replay("T!Z-Russ-ddyer-2018-12-22-2217.sgf");
    assert_eq!(r.normalisations, [Normalisation::LaterGameTreesIgnored { count: 1 }]);
    assert_eq!(r.game.claim, Claim::Win(Player::P2));
    assert_eq!(r.token(28), "b3xd3");
    assert_eq!((r.turns, r.outcome), (28, Some(Outcome::Win(Player::P2))));
}

#[test]
fn a_ring_removal_left_alone_before_the_resignation_is_dropped() {
    let r = replay("U!Z-Dumbot-bluedog-2005-07-01-2235.sgf");
    assert_eq!(
        r.normalisations,
        [Normalisation::UnfinishedTurnDropped {
            turn: 8,
            actions: "R- A 4".into(),
            before: Some(Ending::Resigned(Player::P2)),
        }]
    );
    assert_eq!(r.game.claim, Claim::Win(Player::P1));
    assert_eq!(r.token(7), "a4xc6");
    assert_eq!((r.turns, r.outcome), (7, None));
}

#[test]
fn a_placement_not_confirmed_before_the_resignation_is_dropped_and_what_follows_ignored() {
    let r = replay("U!Z-guest-Dumbot-2005-12-10-1624.sgf");
    assert_eq!(
        r.normalisations,
        [
            Normalisation::UnfinishedTurnDropped {
                turn: 15,
                actions: "RtoB 2 2 F 2".into(),
                before: Some(Ending::Resigned(Player::P1)),
            },
            Normalisation::ActionsAfterEndingIgnored {
                ending: Ending::Resigned(Player::P1),
                count: 12,
                from_index: Some(42),
                from_line: 36,
            },
        ]
    );
    assert_eq!(r.game.ending.map(|(ending, _)| ending), Some(Ending::Resigned(Player::P1)));
    assert_eq!(r.game.claim, Claim::Win(Player::P2));
    assert_eq!(r.token(14), "f5xd5");
    assert_eq!((r.turns, r.outcome), (14, None));
}

#[test]
fn a_winner_named_guest_when_both_players_are_guests_is_not_checked() {
    let r = replay("U!Z-guest-guest-2015-12-31-1512.sgf");
    assert_eq!(
        r.normalisations,
        [Normalisation::WinnerNameAmbiguous { result: "Game won by guest1486".into() }]
    );
    assert_eq!(r.game.claim, Claim::Unknown);
    // The board says who won: the second guest.
    assert_eq!((r.turns, r.outcome), (30, Some(Outcome::Win(Player::P2))));
}

#[test]
fn captures_recorded_after_the_game_was_won_are_ignored() {
    let r = replay("T!Z11-eratos-minismurf-2004-06-04-1623.sgf");
    assert_eq!(
        r.normalisations,
        [Normalisation::CapturesAfterWinIgnored {
            winner: Player::P1,
            first_turn: 46,
            moves: vec!["f2xd4".into()],
        }]
    );
    assert_eq!(r.game.turns.len(), 46);
    assert_eq!(r.token(45), "c4xe3");
    assert_eq!((r.turns, r.outcome), (45, Some(Outcome::Win(Player::P1))));
}

#[test]
fn what_follows_a_win_must_be_captures_legal_had_play_gone_on() {
    let text = text_of("T!Z11-eratos-minismurf-2004-06-04-1623.sgf");
    // The record's last line (the loser's capture f2xd4) replaced.
    let with_last = |line: &str| {
        let at = text.rfind("; P1[BtoB F 2 D 4]").expect("the record's last capture");
        let mut altered = text.clone();
        altered.replace_range(at..at + "; P1[BtoB F 2 D 4]".len(), line);
        game_of(&altered)
    };
    let failure = |game: &Game| match check(game, &ply_games::registry()) {
        Check::Failed(failure) => failure.to_string(),
        other => panic!("{other:?}"),
    };
    // A capture over a removed ring.
    assert_eq!(
        failure(&with_last("; P1[BtoB F 2 F 4]")),
        "turn 46 'BtoB F 2 F 4' = f2xf4: the game was already over (P1 wins) and the record \
         goes on with a capture that would not have been legal either: ring f4 has been removed"
    );
    // A placement is no forced capture.
    assert_eq!(
        failure(&with_last("; P1[RtoB 2 2 D 2]")),
        "turn 46 'RtoB 2 2 D 2' = Bd2: the game was already over (P1 wins) and the record goes on"
    );
}
