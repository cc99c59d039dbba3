use std::fmt::Debug;
use std::hash::Hash;

use crate::{MoveError, Outcome, Player, VariantError};

/// The rules of one game, implemented on its position type.
///
/// A position is a value: it knows the variant, the pieces, the player to move, and the
/// history it needs for repetition rules. Implementations keep move generation free of heap
/// allocation once the caller's buffer has grown.
///
/// Invariants every implementation upholds (and the generic property tests check):
/// * [`legal_moves`](Game::legal_moves) is empty exactly when [`outcome`](Game::outcome) is
///   `Some`; a finished game has no moves and a game with no moves is finished.
/// * [`hash`](Game::hash), kept incrementally by `play` and `undo`, always equals
///   [`compute_hash`](Game::compute_hash).
/// * `parse_move(format_move(m)) == Ok(m)` for every legal `m`.
/// * `undo` after `play(m)` restores the position exactly, hash included.
pub trait Game: Clone + Send + Sync + 'static {
    /// One whole turn. Small and `Copy`; its meaning may depend on the position it is played in.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The game's id on the wire and in records: `"boop"`, `"gipf"`, `"zertz"`, `"punct"`.
    const NAME: &'static str;
    /// The name people read: `"boop."`, `"GIPF"`, `"ZÈRTZ"`, `"PÜNCT"`.
    const DISPLAY_NAME: &'static str;
    /// Whether the game can end in a draw at all (by its rules or by repetition); games that
    /// cannot (GIPF) offer no draw by agreement either.
    const HAS_DRAWS: bool = true;
    /// Whether the rules end the game in a draw when a position comes back (boop., PÜNCT and
    /// ZÈRTZ: the third time). A search may then score a position that repeats one of its own line
    /// as that draw at once: whoever could avoid the cycle the first time can avoid it then.
    const REPETITION_DRAWS: bool = false;
    /// Whether [`legal_without_listing`](Game::legal_without_listing) tells, at every
    /// position, either every legal move or none (PÜNCT: all but a pass, which is legal only
    /// as the only move; ZÈRTZ: every placement and no capture, which leaves no placement
    /// legal). A search then tries the moves it remembers (the table's, the killers) before
    /// it lists a node's moves, and a node they cut off is never listed: worth it where a
    /// turn has hundreds or thousands of moves.
    const LEGALITY_WITHOUT_LISTING: bool = false;

    /// Every variant id, the default first.
    fn variants() -> &'static [&'static str];

    /// The default variant.
    fn default_variant() -> &'static str {
        Self::variants()[0]
    }

    /// The starting position of `variant`.
    ///
    /// # Errors
    /// [`VariantError`] when the game has no such variant.
    fn new(variant: &str) -> Result<Self, VariantError>;

    /// The variant id this position is played under.
    fn variant(&self) -> &'static str;

    /// The player who makes the next turn.
    fn to_move(&self) -> Player;

    /// Replaces the contents of `out` with every legal turn, each exactly once.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a turn. The caller guarantees it is one of [`legal_moves`](Game::legal_moves);
    /// anything else may leave the position meaningless (but never unsafe).
    fn play(&mut self, mv: Self::Move);

    /// Takes back the last turn played with [`play`](Game::play).
    ///
    /// # Panics
    /// When no turn has been played since the position was created.
    fn undo(&mut self);

    /// The number of turns played since the position was created (and not undone).
    fn turns_played(&self) -> usize;

    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The Zobrist hash of the position (not of its history), kept incrementally.
    fn hash(&self) -> u64;

    /// The same hash computed from scratch; for tests of the incremental one.
    fn compute_hash(&self) -> u64;

    /// The canonical notation of a legal move in this position.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a move in this position, accepting the abbreviations the game's notation allows.
    ///
    /// # Errors
    /// [`MoveError`] saying what is wrong: bad syntax, an illegal turn, an ambiguous
    /// abbreviation, or a finished game.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Whether `mv`, a move of this game but perhaps of another position, is legal here,
    /// told without listing the moves: `true` only for a legal move, `false` for an illegal
    /// one or one it cannot tell (see
    /// [`LEGALITY_WITHOUT_LISTING`](Game::LEGALITY_WITHOUT_LISTING)); by default always
    /// `false`.
    fn legal_without_listing(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }
}

/// How a game shows itself: a text diagram, an SVG picture and click paths for the generic
/// UI (DESIGN.md section 4), and a JSON view of the position.
pub trait View: Game {
    /// The game's texts (what [`texts`](View::texts) gives) in the languages of
    /// [`LANGUAGES`], in that order. Empty: the game has no texts.
    const TEXTS: [&'static str; 3] = [""; 3];

    /// The game's short rules (what [`rules`](View::rules) gives) in the languages of
    /// [`LANGUAGES`], in that order. Empty: the game has no rules page.
    const RULES: [&'static str; 3] = [""; 3];

    /// A text diagram of the board and both pools or reserves, without a status line.
    fn diagram(&self) -> String;

    /// The board as a standalone SVG document. Every clickable item and every piece carries
    /// a stable `id`; clickable items also carry the class `target`.
    fn svg(&self) -> String;

    /// The ids a person clicks, in order, to make `mv` (which must be legal here). Each id is
    /// an element of [`svg`](View::svg). No two legal moves share a path, and no path is a
    /// prefix of another.
    fn click_path(&self, mv: Self::Move) -> Vec<String>;

    /// The game-specific part of the position as JSON: at least `board`, and the pools,
    /// reserves or captures of each player.
    fn state_json(&self) -> serde_json::Value;

    /// The pieces that travel when `mv` (legal here) is played, so a picture can animate
    /// them. Pieces whose id is the same before and after need no entry (boop.'s cats keep
    /// their ids as they are booped); games whose piece ids name the point they stand on
    /// (GIPF's pushed chips, ZÈRTZ's jumping marbles) list every piece that changed point.
    fn motions(&self, mv: Self::Move) -> Vec<Motion> {
        let _ = mv;
        Vec::new()
    }

    /// What each click of `mv`'s path does, for the help line: one message id of the game's
    /// [`texts`](View::texts) per id of [`click_path`](View::click_path) (e.g.
    /// `step-place-marble`: "place the marble"). The id of the next click after a prefix is
    /// the help a person reads while building a turn.
    fn click_steps(&self, mv: Self::Move) -> Vec<&'static str> {
        vec![STEP_CHOOSE; self.click_path(mv).len()]
    }

    /// A picture of the turn being built, drawn over the board while a person clicks it: the
    /// clicks so far (`prefix`, a strict prefix of the click paths of `moves`) and the legal
    /// turns they can still become (at least one). An SVG fragment in the coordinates of
    /// [`svg`](View::svg): a `<g class="preview">` holding ghosts of what the clicks decided
    /// (a piece placed in its orientation, pushed pieces in their new places, rows about to
    /// be captured, a marble jumping). Empty when there is nothing to show.
    fn preview(&self, prefix: &[String], moves: &[Self::Move]) -> String {
        let _ = (prefix, moves);
        String::new()
    }

    /// Why the game ended by its rules, when it has: a message id of the game's
    /// [`texts`](View::texts) saying it from the winner's side (e.g. `end-three-in-row`:
    /// "three cats in a row", `end-no-reserve`: "no chips left in reserve"). `None` while the
    /// game goes on.
    fn end_reason(&self) -> Option<&'static str> {
        None
    }

    /// The game's texts in language `lang` (`en`, `ko`, `ru`; others get English): a Fluent
    /// resource (FTL) with the game's name, its variant names (`variant-<name>`), the labels
    /// its SVG draws (`<text data-label="id" data-arg-n="12">` in the picture takes message
    /// `id` with argument `n`), the help of its click steps and its reasons for a win. The
    /// default picks from [`TEXTS`](View::TEXTS) with [`in_language`].
    fn texts(lang: &str) -> &'static str {
        in_language(lang, &Self::TEXTS)
    }

    /// The game's short rules in language `lang` (others get English), for the rules page
    /// and the home page: an FTL resource with `rules-summary` (one paragraph), then numbered
    /// sections `rules-section-1`, `rules-section-2`, … (titles), each with its points
    /// `rules-section-N-1`, `rules-section-N-2`, … in order. Empty: the game has no rules
    /// page. The default picks from [`RULES`](View::RULES) with [`in_language`].
    fn rules(lang: &str) -> &'static str {
        in_language(lang, &Self::RULES)
    }
}

/// The languages the games' texts come in, in the order [`in_language`] takes them.
pub const LANGUAGES: [&str; 3] = ["en", "ko", "ru"];

/// The text of `lang` among `texts`, given in the order of [`LANGUAGES`]: a language tag's
/// first part picks (`ko-KR` is `ko`), and any other language gets English.
#[must_use]
pub fn in_language(lang: &str, texts: &[&'static str; 3]) -> &'static str {
    let code = lang.split(['-', '_']).next().unwrap_or("en");
    LANGUAGES.iter().position(|l| *l == code).map_or(texts[0], |i| texts[i])
}

/// The step id of a click that has no help of its own: "choose".
pub const STEP_CHOOSE: &str = "step-choose";

/// One piece travelling during a turn: `piece` is its id in the [`View::svg`] after the turn,
/// `from` the id of the element of the SVG before the turn where it starts (a piece, or the
/// pool, reserve or dot it comes from).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Motion {
    /// Id of the piece in the picture after the turn.
    pub piece: String,
    /// Id of the element in the picture before the turn it starts from.
    pub from: String,
}

impl Motion {
    /// A piece now `piece` that started at `from`.
    pub fn new(piece: impl Into<String>, from: impl Into<String>) -> Self {
        Motion { piece: piece.into(), from: from.into() }
    }
}
