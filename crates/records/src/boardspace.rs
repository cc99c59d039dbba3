//! boardspace.net ZÈRTZ records (`.sgf`): reading them, turning them into ply's canonical
//! ZÈRTZ turns (`Wd4,a1`, `Wd4`, `d4xf4xf6`), and replaying them through the rules.
//!
//! The format, as boardspace writes it (see `../shared/research/boardspace.md`, section 3.4):
//!
//! * An SGF game tree `(; root ; node ; node … )`. The root node holds `GM`, `VV`, `SU` (the
//!   set-up: `Zertz`, `Zertz+11`, `Zertz+24`, `Zertz+xx`, `Zertz+H`), `DT`, `GN`, `RE` (the
//!   result, in the language of the server's user) and `P0[id "name"]`, `P1[id "name"]`.
//! * Every later node holds one action of a player: `P0[12 RtoB 2 0 D 4]TM[…]`. The move index
//!   is missing in old records; so is `Done`, and a turn then ends when the other player acts.
//!   The last node usually holds `P0[time 0:03:38]` lines.
//! * Actions (operation names are matched without regard to case; old records write `rtob`):
//!   `Start P0`, `RtoB rack colour col row` (rack 2 = the pool, 0/1 = that player's
//!   captures; colour 0/1/2 = white/grey/black), `R- col row` (remove a ring), `BtoB fc fr tc tr`
//!   (one jump), `Done`, `Resign`, `Reset` (forget the unfinished turn), the undo steps
//!   `R+ col row` and `BtoR col row rack`, the picking steps `Pick` and `Pickb` (no effect on
//!   their own), `RtoR from colour to` (a handicap marble, or a no-op when from = to),
//!   `SetBoard name`, `Swap`, `Edit`.
//! * The interface wrote what the players did with the mouse, not only the turns: a jump taken
//!   back, a placed marble dragged on, steps never confirmed before a resignation, actions
//!   after the end, a second game tree with the editing history. [`convert`] and [`check`]
//!   read these as boardspace did and list each reading as a [`Normalisation`]; the turns
//!   they produce are still replayed through the rules (`docs/records.md` describes each case).
//!
//! This module knows only the format and the notation; the rules come in through
//! [`ply_core::Registry`] (the game `zertz`), so it depends on nothing but `ply-core`.

use std::fmt;

use ply_core::{AnyGame, GameEntry, Outcome, Player, Registry};

/// One SGF property value with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub key: String,
    pub value: String,
    pub line: usize,
}

/// A record that is not a usable boardspace SGF file, or whose turns cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// The boardspace move index of the action, when the record has one.
    pub index: Option<u32>,
    /// The line of the file.
    pub line: usize,
    /// The action as written (`BtoB B 2 D 2`), or empty.
    pub action: String,
    pub reason: String,
}

impl fmt::Display for Damaged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.action.is_empty() {
            write!(f, "line {}: {}", self.line, self.reason)
        } else {
            match self.index {
                Some(i) => {
                    write!(f, "move {i} '{}' (line {}): {}", self.action, self.line, self.reason)
                }
                None => write!(f, "'{}' (line {}): {}", self.action, self.line, self.reason),
            }
        }
    }
}

/// One SGF node: its properties in the order written.
pub type Node = Vec<Property>;

/// Reads the SGF collection: its game trees, each a list of nodes.
///
/// boardspace writes one tree per game; some files hold a second tree after it, a copy of the
/// game with the editing history (see [`Normalisation::LaterGameTreesIgnored`]).
///
/// # Errors
/// [`Damaged`] when the text is not a sequence of SGF game trees, or a tree has variations.
pub fn parse_sgf(text: &str) -> Result<Vec<Vec<Node>>, Damaged> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let err = |line: usize, reason: &str| Damaged {
        index: None,
        line,
        action: String::new(),
        reason: reason.to_string(),
    };
    let mut trees: Vec<Vec<Node>> = Vec::new();
    let mut depth = 0usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if depth == 0 && c != '(' {
            return Err(if trees.is_empty() {
                err(line, "not an SGF file: no game tree '(;'")
            } else {
                err(line, "text after the end of the game tree")
            });
        }
        match c {
            '(' => {
                if depth > 0 {
                    return Err(err(
                        line,
                        "the record has variations; boardspace writes one line of play",
                    ));
                }
                trees.push(Vec::new());
                depth += 1;
                i += 1;
            }
            ')' => {
                depth -= 1;
                i += 1;
            }
            ';' => {
                if let Some(tree) = trees.last_mut() {
                    tree.push(Vec::new());
                }
                i += 1;
            }
            c if c.is_ascii_uppercase() => {
                let Some(node) = trees.last_mut().and_then(|t| t.last_mut()) else {
                    return Err(err(line, "a property before the first ';'"));
                };
                let mut key = String::new();
                // boardspace also writes `P-1[0 Start P0]` (the action of no player).
                while i < chars.len()
                    && (chars[i].is_ascii_uppercase()
                        || chars[i].is_ascii_digit()
                        || chars[i] == '-')
                {
                    key.push(chars[i]);
                    i += 1;
                }
                let mut values = 0;
                loop {
                    while i < chars.len() && chars[i].is_whitespace() && chars[i] != '\n' {
                        i += 1;
                    }
                    if i >= chars.len() || chars[i] != '[' {
                        break;
                    }
                    let start_line = line;
                    i += 1;
                    let mut value = String::new();
                    loop {
                        let Some(&ch) = chars.get(i) else {
                            return Err(err(start_line, &format!("unclosed value of {key}[")));
                        };
                        i += 1;
                        match ch {
                            ']' => break,
                            '\\' => {
                                if let Some(&next) = chars.get(i) {
                                    if next == '\n' {
                                        line += 1;
                                    }
                                    value.push(next);
                                    i += 1;
                                }
                            }
                            '\n' => {
                                line += 1;
                                value.push('\n');
                            }
                            ch => value.push(ch),
                        }
                    }
                    node.push(Property { key: key.clone(), value, line: start_line });
                    values += 1;
                }
                if values == 0 {
                    return Err(err(line, &format!("property {key} has no value")));
                }
            }
            other => return Err(err(line, &format!("unexpected character '{other}'"))),
        }
    }
    if trees.is_empty() {
        return Err(err(line, "not an SGF file: no game tree '(;'"));
    }
    if depth != 0 {
        return Err(err(line, "the game tree is not closed with ')'"));
    }
    Ok(trees)
}

/// Where a placed marble came from, as the record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The shared pool (rack 2).
    Pool,
    /// The captures of this player (rack 0 or 1), in ply's numbering.
    Captures(Player),
}

/// One whole turn of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The player who made it, in ply's numbering (P1 moved first).
    pub player: Player,
    /// The boardspace move index of its first action, when the record has indexes.
    pub index: Option<u32>,
    /// The line of its first action.
    pub line: usize,
    /// Its actions as written, joined by `; `.
    pub actions: String,
    /// The canonical ply turn.
    pub token: String,
    /// For a placement, where the marble came from.
    pub source: Option<Source>,
    /// False for the record's last turn when nothing (no `Done`, no move of the other
    /// player) shows that it was complete: the game may have stopped in the middle of it.
    pub finished: bool,
}

/// An end of the game outside the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `Resign` by this player.
    Resigned(Player),
    /// `WinOnTime` sent by this player.
    OnTime(Player),
    /// `AcceptDraw`.
    DrawAgreed,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Resigned(p) => write!(f, "{p} resigned"),
            Ending::OnTime(p) => write!(f, "game over on time, claimed by {p}"),
            Ending::DrawAgreed => f.write_str("draw agreed"),
        }
    }
}

/// The result the record claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    Win(Player),
    Draw,
    Unknown,
}

/// A way in which a record says more, or other, than the turns of the game, and how it was
/// read: boardspace's interface wrote what the players did with the mouse, not the turns as
/// the rulebook states them. Every one is reported, so that nothing is changed silently.
///
/// Turn numbers are ply's (1-based, over the turns of the converted game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Normalisation {
    /// The file holds `count` more game trees after the first (boardspace's copy of the game
    /// with its editing history); the first tree is the game.
    LaterGameTreesIgnored { count: usize },
    /// `Start P<marker_seat>` names the seat that did not make the first step; the seat that
    /// stepped first (`first_seat`) moves first. Seats are boardspace's (0 or 1).
    StartMarkerOverruled { marker_seat: usize, first_seat: usize },
    /// In `turn`, a `BtoB` back from where the turn's last jump landed to where it started:
    /// that jump (`from` to `to`) and its capture were taken back.
    JumpTakenBack { turn: usize, from: String, to: String },
    /// In the placement `turn`, the marble just placed on `from` was dragged on to `to`
    /// before the turn ended: the placement is on `to`.
    MarbleDragged { turn: usize, from: String, to: String },
    /// The steps of `turn` (`actions`, as written) never made a whole, confirmed turn; they
    /// are left out. `before` is the end of the game they came before, `None` when the record
    /// simply stops there.
    UnfinishedTurnDropped { turn: usize, actions: String, before: Option<Ending> },
    /// `count` actions recorded after the game ended off the board (`ending`) are ignored:
    /// the record ends with the ending. They belong to no turn; the first of them is at
    /// boardspace move `from_index` (when the record numbers its moves), line `from_line`.
    ActionsAfterEndingIgnored {
        ending: Ending,
        count: usize,
        from_index: Option<u32>,
        from_line: usize,
    },
    /// The `RE` text names a player whose name fits both seats (two guests): the winner is
    /// not known from it, so the result is not checked against the board.
    WinnerNameAmbiguous { result: String },
    /// After `winner` won on the board, the record goes on with capture turns only (from
    /// `first_turn` on: `moves`), each legal had play gone on; they are ignored.
    CapturesAfterWinIgnored { winner: Player, first_turn: usize, moves: Vec<String> },
}

impl Normalisation {
    /// Where in the game it was met, to list a record's normalisations in order: those of the
    /// whole record first, then by turn, then what came after the game.
    fn place_in_game(&self) -> usize {
        match self {
            Normalisation::LaterGameTreesIgnored { .. }
            | Normalisation::StartMarkerOverruled { .. } => 0,
            Normalisation::JumpTakenBack { turn, .. }
            | Normalisation::MarbleDragged { turn, .. }
            | Normalisation::UnfinishedTurnDropped { turn, .. } => *turn,
            Normalisation::CapturesAfterWinIgnored { first_turn, .. } => *first_turn,
            Normalisation::ActionsAfterEndingIgnored { .. }
            | Normalisation::WinnerNameAmbiguous { .. } => usize::MAX,
        }
    }
}

/// A boardspace game in ply's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// ply's variant id: `37`, `48` or `61`.
    pub variant: &'static str,
    /// The players' names, P1 (who moved first) then P2.
    pub players: [String; 2],
    /// `YYYY.MM.DD`, when `DT` could be read.
    pub date: Option<String>,
    /// The game name (`GN`).
    pub name: Option<String>,
    /// The `RE` text.
    pub result_text: Option<String>,
    /// Who the record says won.
    pub claim: Claim,
    /// How the game ended off the board, if the record says so, after how many turns.
    pub ending: Option<(Ending, usize)>,
    pub turns: Vec<Turn>,
    /// How the reading departed from the record as written, in the order met.
    pub normalisations: Vec<Normalisation>,
}

/// What a record is, for ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// A game ply can replay.
    Game(Game),
    /// A record of something ply does not play (another set-up, handicaps, an edited
    /// position), with the reason.
    Skipped(String),
}

/// ply's variant of a boardspace set-up `SU`, or why there is none.
///
/// # Errors
/// The reason the set-up is not one of ply's ZÈRTZ variants.
pub fn variant_of_setup(su: &str) -> Result<&'static str, String> {
    match su.trim().to_ascii_lowercase().as_str() {
        "zertz" => Ok("37"),
        "zertz+11" => Ok("48"),
        "zertz+24" => Ok("61"),
        "zertz+h" => Err(format!("handicap set-up SU[{su}]")),
        "zertz+xx" => Err(format!("custom board set-up SU[{su}] (players lay out the rings)")),
        _ => Err(format!("set-up SU[{su}] is not a ZÈRTZ board ply knows")),
    }
}

/// `Sat Jun 11 05:22:47 CDT 2005` → `2005.06.11`.
#[must_use]
pub fn date_of(dt: &str) -> Option<String> {
    // ISO form first: 2021-11-05 or 2021/11/05.
    let first = dt.split_whitespace().next().unwrap_or("");
    let parts: Vec<&str> = first.split(['-', '/', '.']).collect();
    if let [y, m, d] = parts.as_slice()
        && y.len() == 4
        && let (Ok(y), Ok(m), Ok(d)) = (y.parse::<u32>(), m.parse::<u32>(), d.parse::<u32>())
        && (1..=12).contains(&m)
        && (1..=31).contains(&d)
    {
        return Some(format!("{y:04}.{m:02}.{d:02}"));
    }
    const MONTHS: [&str; 12] =
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    let words: Vec<&str> = dt.split_whitespace().collect();
    let month = words.iter().find_map(|w| {
        let l = w.to_ascii_lowercase();
        MONTHS.iter().position(|m| l.starts_with(m) && l.len() <= 9).map(|i| i + 1)
    })?;
    let mpos = words.iter().position(|w| {
        let l = w.to_ascii_lowercase();
        MONTHS.iter().any(|m| l.starts_with(m))
    })?;
    let day: u32 = words.get(mpos + 1)?.trim_end_matches(',').parse().ok()?;
    let year: u32 = words.iter().rev().find_map(|w| {
        (w.len() == 4 && w.chars().all(|c| c.is_ascii_digit())).then(|| w.parse().ok()).flatten()
    })?;
    (1..=31).contains(&day).then(|| format!("{year:04}.{month:02}.{day:02}"))
}

/// Whom the `RE` text names as the winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Named {
    /// This seat (boardspace numbering).
    Seat(usize),
    /// A name that fits both seats (two players called `guest`).
    Both,
    /// Neither player.
    Neither,
}

/// Whether `name` stands in `text` as a name: not inside a longer word. A guest's name may
/// be followed by the digits boardspace appends to it (`guest1487`).
fn names(text: &str, name: &str) -> bool {
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphabetic)
        })
}

/// The player the `RE` text names, given the two names (boardspace numbering).
fn winner_in(re: &str, players: &[String; 2]) -> Named {
    match (names(re, &players[0]), names(re, &players[1])) {
        (true, false) => Named::Seat(0),
        (false, true) => Named::Seat(1),
        (true, true) => Named::Both,
        (false, false) => Named::Neither,
    }
}

/// One action line.
struct Action {
    player: usize,
    index: Option<u32>,
    line: usize,
    text: String,
    op: String,
    args: Vec<String>,
}

impl Action {
    fn damaged(&self, reason: impl Into<String>) -> Damaged {
        Damaged {
            index: self.index,
            line: self.line,
            action: self.text.clone(),
            reason: reason.into(),
        }
    }

    fn int(&self, k: usize, what: &str) -> Result<u32, Damaged> {
        self.args
            .get(k)
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| self.damaged(format!("{what} missing or not a number")))
    }

    fn cell(&self, k: usize) -> Result<String, Damaged> {
        let col = self.args.get(k).map(|s| s.to_ascii_lowercase());
        let row = self.args.get(k + 1).and_then(|r| r.parse::<u32>().ok());
        match (col, row) {
            (Some(c), Some(r))
                if c.len() == 1
                    && c.as_bytes()[0].is_ascii_lowercase()
                    && (1..=99).contains(&r) =>
            {
                Ok(format!("{c}{r}"))
            }
            _ => Err(self.damaged("a cell must be a column letter and a row number")),
        }
    }

    fn expect_args(&self, n: usize) -> Result<(), Damaged> {
        if self.args.len() == n {
            Ok(())
        } else {
            Err(self.damaged(format!("{} takes {n} arguments, not {}", self.op, self.args.len())))
        }
    }
}

/// Actions without effect on the position: picking up (the drop is its own action), draw
/// offers, undo requests, and the search engine's null move.
const NO_OPS: [&str; 9] = [
    "pick",
    "pickb",
    "offerdraw",
    "declinedraw",
    "pleaseundo",
    "dontundo",
    "allowundo",
    "nullmove",
    "start",
];

/// The player of the server's own actions (`P-1`).
const NOBODY: usize = usize::MAX;

/// Informational values of `P0`/`P1` outside the root node (`time 0:03:38`).
const INFO: [&str; 4] = ["time", "id", "ranking", "title"];

/// The unfinished turn.
#[derive(Default)]
struct Pending {
    player: Option<usize>,
    index: Option<u32>,
    line: usize,
    actions: Vec<String>,
    /// rack, colour, cell, the action
    place: Option<(u32, u32, String)>,
    remove: Option<String>,
    jumps: Vec<(String, String)>,
}

impl Pending {
    fn is_empty(&self) -> bool {
        self.place.is_none() && self.remove.is_none() && self.jumps.is_empty()
    }

    /// A ring removal with neither a placement nor a jump: half of a placement turn.
    fn is_bare_removal(&self) -> bool {
        self.remove.is_some() && self.place.is_none() && self.jumps.is_empty()
    }

    fn note(&mut self, a: &Action) {
        if self.actions.is_empty() {
            self.index = a.index;
            self.line = a.line;
        }
        self.actions.push(a.text.clone());
    }
}

/// The operations that change the position: the steps of a turn.
const STEPS: [&str; 5] = ["rtob", "r-", "r+", "btob", "btor"];

/// Whether the action is a step of a player; `BtoB X X` (a marble picked up and put back
/// where it was) is none.
fn is_step(a: &Action) -> bool {
    let same_ring =
        a.args.len() == 4 && a.args[0].eq_ignore_ascii_case(&a.args[2]) && a.args[1] == a.args[3];
    a.player != NOBODY && STEPS.contains(&a.op.as_str()) && !(a.op == "btob" && same_ring)
}

/// Reads a boardspace ZÈRTZ record and converts its turns to ply's notation.
///
/// The record is read as boardspace's interface wrote it (see [`Normalisation`]): jumps taken
/// back, a placed marble dragged on, steps never confirmed, what came after the end of the
/// game. Each such reading is listed in [`Game::normalisations`].
///
/// # Errors
/// [`Damaged`] for a record that cannot be read as a sequence of whole turns (two placements
/// in one turn, a chain that does not continue, an unknown action…), naming the action.
pub fn convert(text: &str) -> Result<Conversion, Damaged> {
    let trees = parse_sgf(text)?;
    let mut normalisations = Vec::new();
    let empty = || Damaged {
        index: None,
        line: 1,
        action: String::new(),
        reason: "empty game tree".into(),
    };
    // The first tree is the game; what follows is boardspace's copy of it with the editing
    // history.
    let Some((nodes, later_trees)) = trees.split_first() else {
        return Err(empty());
    };
    if !later_trees.is_empty() {
        normalisations.push(Normalisation::LaterGameTreesIgnored { count: later_trees.len() });
    }
    let Some(root) = nodes.first() else {
        return Err(empty());
    };
    let get = |key: &str| root.iter().find(|p| p.key == key).map(|p| p.value.trim().to_string());
    let Some(su) = get("SU") else {
        return Ok(Conversion::Skipped("no set-up SU[...] in the record".into()));
    };
    let mut variant = match variant_of_setup(&su) {
        Ok(v) => v,
        Err(reason) => return Ok(Conversion::Skipped(reason)),
    };
    let mut names = [String::new(), String::new()];
    for p in root {
        if let Some(i) = ["P0", "P1"].iter().position(|k| *k == p.key) {
            let v = p.value.trim();
            if let Some(rest) = v.strip_prefix("id") {
                names[i] = rest.trim().trim_matches('"').to_string();
            }
        }
    }

    // The action lines.
    let mut actions = Vec::new();
    for node in &nodes[1..] {
        for p in node {
            let player = match p.key.as_str() {
                "P0" => 0,
                "P1" => 1,
                // `P-1[0 Start P0]`: the server's own action.
                "P-1" => NOBODY,
                _ => continue,
            };
            let mut words = p.value.split_whitespace().peekable();
            let index = match words.peek() {
                Some(w) if w.chars().all(|c| c.is_ascii_digit()) => {
                    let i = w.parse().ok();
                    words.next();
                    i
                }
                _ => None,
            };
            let Some(op) = words.next() else { continue };
            let op = op.to_ascii_lowercase();
            if INFO.contains(&op.as_str()) {
                continue;
            }
            let args: Vec<String> = words.map(str::to_string).collect();
            let text = std::iter::once(op.clone())
                .chain(args.iter().cloned())
                .collect::<Vec<_>>()
                .join(" ");
            actions.push(Action { player, index, line: p.line, text: display_op(&text), op, args });
        }
    }

    // Who moved first: the seat that made the first step. `Start Pn` names it too, but the
    // interface sometimes wrote the other seat there; the steps are what was played.
    let marker_seat = match actions.iter().find(|a| a.op == "start") {
        Some(a) => match a.args.first().map(|s| s.to_ascii_uppercase()).as_deref() {
            Some("P0" | "0") => Some(0),
            Some("P1" | "1") => Some(1),
            _ => return Err(a.damaged("Start names no player")),
        },
        None => None,
    };
    let first_seat = actions.iter().find(|a| is_step(a)).map(|a| a.player);
    let first = match (first_seat, marker_seat) {
        (Some(first_seat), Some(marker_seat)) => {
            if first_seat != marker_seat {
                normalisations
                    .push(Normalisation::StartMarkerOverruled { marker_seat, first_seat });
            }
            first_seat
        }
        (Some(seat), None) | (None, Some(seat)) => seat,
        (None, None) => 0,
    };
    let ours = |bs: usize| if bs == first { Player::P1 } else { Player::P2 };

    let mut turns: Vec<Turn> = Vec::new();
    let mut pending = Pending::default();
    let mut ending: Option<(Ending, usize)> = None;
    // How many actions came after the end of the game, and where the first one is.
    let mut ignored_after_ending: Option<(usize, Option<u32>, usize)> = None;
    let mut placed_any = false;
    // Records with `Done` confirm every turn; in older ones a turn ends when the other player
    // acts, and nothing marks the last one as complete.
    let uses_done = actions.iter().any(|a| a.op == "done");
    for a in &actions {
        if ending.is_some() {
            // The record ends with the end of the game; the interface sometimes went on
            // writing what was clicked after it, which was never part of the game.
            if a.player != NOBODY
                && !NO_OPS.contains(&a.op.as_str())
                && !matches!(a.op.as_str(), "done" | "reset" | "undo")
            {
                let (count, _, _) = ignored_after_ending.get_or_insert((0, a.index, a.line));
                *count += 1;
            }
            continue;
        }
        if a.player == NOBODY {
            if a.op == "start" {
                continue;
            }
            return Err(a.damaged("an action of no player (P-1)"));
        }
        if pending.player.is_some_and(|p| p != a.player) {
            flush(&mut pending, &mut turns, &ours)?;
        }
        if pending.player.is_none() {
            pending.player = Some(a.player);
        }
        // ply's number of the turn in progress.
        let turn = turns.len() + 1;
        match a.op.as_str() {
            "start" => {}
            "done" => {
                flush(&mut pending, &mut turns, &ours)?;
            }
            "reset" | "undo" => {
                // Forgets the unfinished turn.
                pending = Pending { player: Some(a.player), ..Pending::default() };
            }
            "resign" | "winontime" | "acceptdraw" => {
                let e = match a.op.as_str() {
                    "resign" => Ending::Resigned(ours(a.player)),
                    "winontime" => Ending::OnTime(ours(a.player)),
                    _ => Ending::DrawAgreed,
                };
                // Steps before it that never made a committed turn are dropped: in a record
                // with `Done`, any unconfirmed ones; without `Done`, where a whole turn
                // committed itself, a ring removal still waiting for its placement. Other
                // steps may have been a whole turn, and are kept as possibly unfinished.
                let never_committed =
                    if uses_done { !pending.is_empty() } else { pending.is_bare_removal() };
                if never_committed {
                    normalisations.push(Normalisation::UnfinishedTurnDropped {
                        turn,
                        actions: pending.actions.join("; "),
                        before: Some(e),
                    });
                } else if !pending.is_empty() {
                    flush(&mut pending, &mut turns, &ours)?;
                    if let Some(last) = turns.last_mut() {
                        last.finished = false;
                    }
                }
                pending = Pending::default();
                ending = Some((e, turns.len()));
            }
            "pass" => return Err(a.damaged("a pass, which ZÈRTZ does not have")),
            op if NO_OPS.contains(&op) => {}
            "rtob" => {
                a.expect_args(4)?;
                let rack = a.int(0, "rack")?;
                let colour = a.int(1, "colour")?;
                let cell = a.cell(2)?;
                if rack > 2 {
                    return Err(a.damaged(format!("rack {rack} does not exist (0, 1 or 2)")));
                }
                if colour > 2 {
                    return Err(a.damaged(format!("colour {colour} does not exist (0, 1 or 2)")));
                }
                if !pending.jumps.is_empty() {
                    return Err(a.damaged("a placement and a jump in one turn"));
                }
                if pending.place.is_some() {
                    return Err(a.damaged("two placements in one turn"));
                }
                pending.note(a);
                pending.place = Some((rack, colour, cell));
                placed_any = true;
            }
            "r-" => {
                a.expect_args(2)?;
                let cell = a.cell(0)?;
                if !pending.jumps.is_empty() {
                    return Err(a.damaged("a ring removal and a jump in one turn"));
                }
                if pending.remove.is_some() {
                    return Err(a.damaged("two ring removals in one turn"));
                }
                pending.note(a);
                pending.remove = Some(cell);
                placed_any = true;
            }
            "r+" => {
                a.expect_args(2)?;
                let cell = a.cell(0)?;
                if pending.remove.as_deref() != Some(cell.as_str()) {
                    return Err(a.damaged(format!(
                        "puts back ring {cell}, which this turn did not remove"
                    )));
                }
                pending.note(a);
                pending.remove = None;
            }
            "btor" => {
                a.expect_args(3)?;
                let cell = a.cell(0)?;
                if pending.place.as_ref().is_none_or(|p| p.2 != cell) {
                    return Err(a.damaged(format!(
                        "takes back a marble from {cell}, which this turn did not place"
                    )));
                }
                pending.note(a);
                pending.place = None;
            }
            "btob" => {
                a.expect_args(4)?;
                let from = a.cell(0)?;
                let to = a.cell(2)?;
                if from == to {
                    // A marble picked up and put back: no move.
                    continue;
                }
                if pending.place.as_ref().is_some_and(|p| p.2 == from) {
                    // The marble just placed, dragged on to another ring before the turn
                    // ended: the placement is on that ring.
                    pending.note(a);
                    if let Some(place) = pending.place.as_mut() {
                        place.2.clone_from(&to);
                    }
                    normalisations.push(Normalisation::MarbleDragged { turn, from, to });
                    continue;
                }
                if pending.place.is_some() || pending.remove.is_some() {
                    return Err(a.damaged("a jump and a placement in one turn"));
                }
                if let Some((last_from, last_to)) = pending.jumps.last() {
                    if *last_from == to && *last_to == from {
                        // Back from where the last jump landed to where it started: no jump
                        // can do that (its capture left nothing to jump over), so it is the
                        // interface taking that jump and its capture back.
                        pending.note(a);
                        pending.jumps.pop();
                        normalisations.push(Normalisation::JumpTakenBack {
                            turn,
                            from: to,
                            to: from,
                        });
                        continue;
                    }
                    if let Some((earlier_from, earlier_to)) =
                        pending.jumps.iter().find(|(f, t)| *f == to && *t == from)
                    {
                        return Err(a.damaged(format!(
                            "goes back over the jump {earlier_from} to {earlier_to}, which is not \
                             the last jump of this turn ({last_from} to {last_to}): no take-back \
                             explains it"
                        )));
                    }
                    if *last_to != from {
                        return Err(a.damaged(format!(
                            "the jump starts on {from}, but the chain of this turn ended on {last_to}"
                        )));
                    }
                }
                pending.note(a);
                pending.jumps.push((from, to));
                placed_any = true;
            }
            "rtor" => {
                a.expect_args(3)?;
                let from = a.int(0, "rack")?;
                let to = a.int(2, "rack")?;
                if from != to {
                    return Ok(Conversion::Skipped(format!(
                        "handicap: marbles moved between racks ({})",
                        a.text
                    )));
                }
            }
            "setboard" => {
                let name = a.args.join(" ");
                if placed_any {
                    return Err(a.damaged("the board is changed during the game"));
                }
                match variant_of_setup(&name) {
                    Ok(v) => variant = v,
                    Err(reason) => return Ok(Conversion::Skipped(reason)),
                }
            }
            "swap" => {
                return Ok(Conversion::Skipped("the players swapped sides (pie rule)".into()));
            }
            "edit" => {
                return Ok(Conversion::Skipped("the position was edited during the game".into()));
            }
            other => return Err(a.damaged(format!("unknown action '{other}'"))),
        }
    }
    if let (Some((ending, _)), Some((count, from_index, from_line))) =
        (ending, ignored_after_ending)
    {
        normalisations.push(Normalisation::ActionsAfterEndingIgnored {
            ending,
            count,
            from_index,
            from_line,
        });
    }
    if !pending.is_empty() {
        // The record stops in a turn: never confirmed with `Done`, or (without `Done`) a ring
        // removal still waiting for its placement, it is not part of the game. Other steps
        // may have been a whole turn, kept as possibly unfinished for the replay to decide.
        if uses_done || pending.is_bare_removal() {
            normalisations.push(Normalisation::UnfinishedTurnDropped {
                turn: turns.len() + 1,
                actions: pending.actions.join("; "),
                before: None,
            });
        } else {
            flush(&mut pending, &mut turns, &ours)?;
            if let Some(last) = turns.last_mut() {
                last.finished = false;
            }
        }
    }

    let result_text = get("RE");
    let claim = match &result_text {
        Some(re) => match winner_in(re, &names) {
            Named::Seat(bs) => Claim::Win(ours(bs)),
            Named::Both => {
                normalisations.push(Normalisation::WinnerNameAmbiguous { result: re.clone() });
                Claim::Unknown
            }
            Named::Neither if re.to_ascii_lowercase().contains("draw") => Claim::Draw,
            Named::Neither => Claim::Unknown,
        },
        None => Claim::Unknown,
    };
    let claim = match (claim, ending) {
        (Claim::Unknown, Some((Ending::Resigned(p), _))) => Claim::Win(p.other()),
        (Claim::Unknown, Some((Ending::DrawAgreed, _))) => Claim::Draw,
        (c, _) => c,
    };
    let players = if first == 0 { names } else { [names[1].clone(), names[0].clone()] };
    Ok(Conversion::Game(Game {
        variant,
        players,
        date: get("DT").and_then(|d| date_of(&d)),
        name: get("GN"),
        result_text,
        claim,
        ending,
        turns,
        normalisations,
    }))
}

/// `rtob 2 0 d 4` as boardspace writes it: `RtoB 2 0 D 4`.
fn display_op(text: &str) -> String {
    let mut words = text.split(' ');
    let op = words.next().unwrap_or("");
    let name = match op {
        "rtob" => "RtoB",
        "btob" => "BtoB",
        "btor" => "BtoR",
        "rtor" => "RtoR",
        "r-" => "R-",
        "r+" => "R+",
        "done" => "Done",
        "start" => "Start",
        "resign" => "Resign",
        "reset" => "Reset",
        "pick" => "Pick",
        "pickb" => "Pickb",
        "setboard" => "SetBoard",
        "swap" => "Swap",
        "edit" => "Edit",
        other => other,
    };
    std::iter::once(name.to_string())
        .chain(words.map(|w| if w.len() == 1 { w.to_ascii_uppercase() } else { w.to_string() }))
        .collect::<Vec<_>>()
        .join(" ")
}

fn flush(
    pending: &mut Pending,
    turns: &mut Vec<Turn>,
    ours: &dyn Fn(usize) -> Player,
) -> Result<(), Damaged> {
    let p = std::mem::take(pending);
    if p.is_empty() {
        return Ok(());
    }
    let player = ours(p.player.unwrap_or(0));
    let damaged = |reason: &str| Damaged {
        index: p.index,
        line: p.line,
        action: p.actions.join("; "),
        reason: reason.to_string(),
    };
    let (token, source) = if let Some((rack, colour, cell)) = &p.place {
        let letter = ['W', 'G', 'B'][*colour as usize];
        let mut t = format!("{letter}{cell}");
        if let Some(r) = &p.remove {
            t.push(',');
            t.push_str(r);
        }
        let source = if *rack == 2 { Source::Pool } else { Source::Captures(ours(*rack as usize)) };
        (t, Some(source))
    } else if let Some((start, _)) = p.jumps.first() {
        let mut t = start.clone();
        for (_, to) in &p.jumps {
            t.push('x');
            t.push_str(to);
        }
        (t, None)
    } else {
        return Err(damaged("a ring removal without a placement"));
    };
    turns.push(Turn {
        player,
        index: p.index,
        line: p.line,
        actions: p.actions.join("; "),
        token,
        source,
        finished: true,
    });
    Ok(())
}

/// How a replay through the rules went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Every turn legal and the result consistent: the final position's outcome, how many
    /// turns were played (all of them, or all but an unfinished last one or a tail recorded
    /// after the game was won), and every way the reading departed from the record as
    /// written (those of [`Game::normalisations`], then the replay's own).
    Passed { outcome: Option<Outcome>, turns: usize, normalisations: Vec<Normalisation> },
    /// Not a game ply can check, with the reason.
    Skipped(String),
    /// The first turn that fails, with the reason.
    Failed(Failure),
}

/// A turn of a record that the rules reject, or a result that contradicts the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// ply's turn number (1-based), 0 when the record could not be read into turns.
    pub turn: usize,
    /// The boardspace move index, when known.
    pub index: Option<u32>,
    /// The boardspace actions, and the ply turn they make when known.
    pub moves: String,
    pub reason: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.turn, self.index) {
            (0, Some(i)) => write!(f, "move {i}")?,
            (0, None) => f.write_str("record")?,
            (t, Some(i)) => write!(f, "turn {t} (move {i})")?,
            (t, None) => write!(f, "turn {t}")?,
        }
        if !self.moves.is_empty() {
            write!(f, " {}", self.moves)?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// Why a record that plays on after a threefold repetition is skipped.
pub const REPETITION: &str = "boardspace played on after the same position occurred a third time \
(a draw by repetition, zertz.md 4.8, which boardspace did not apply then)";

fn pool_is_empty(game: &dyn AnyGame) -> Option<bool> {
    // The JSON view of ply-zertz: "pool": {"W": n, "G": n, "B": n}.
    let state = game.state_json();
    let pool = state.get("pool")?;
    let mut sum = 0;
    for c in ["W", "G", "B"] {
        sum += pool.get(c)?.as_u64()?;
    }
    Some(sum == 0)
}

/// The position `won` with play going on: the captured marbles back in the pool, so that no
/// one holds a winning set, and the game not over. Jumps depend only on the board and the
/// player to move, so a capture legal here is one that would have been legal had the
/// players gone on. `None` when the game did not end by captures (a full board).
fn playing_on(entry: &GameEntry, won: &dyn AnyGame) -> Option<Box<dyn AnyGame>> {
    // zertz;<variant>;<removed rings>;<marbles>;<pool>;<P1 captures>;<P2 captures>;<to move>;<result>
    let text = won.position_string();
    let mut fields: Vec<String> = text.split(';').map(str::to_string).collect();
    if fields.len() != 9 {
        return None;
    }
    let counts = |field: &str| -> Option<Vec<u32>> {
        let counts: Vec<u32> = field.split(',').map(|n| n.parse().ok()).collect::<Option<_>>()?;
        (counts.len() == 3).then_some(counts)
    };
    let (pool, p1, p2) = (counts(&fields[4])?, counts(&fields[5])?, counts(&fields[6])?);
    let pool: Vec<String> = (0..3).map(|c| (pool[c] + p1[c] + p2[c]).to_string()).collect();
    fields[4] = pool.join(",");
    fields[5] = "0,0,0".into();
    fields[6] = "0,0,0".into();
    fields[8] = "*".into();
    entry.from_position(&fields.join(";")).ok()
}

/// The turns a record goes on with after the game was won on the board (the 2004 server
/// still wrote the loser's forced capture): their canonical tokens when they are captures
/// only, each legal had play gone on; otherwise the failure, at the first turn at fault.
fn captures_after_win(
    entry: &GameEntry,
    won: &dyn AnyGame,
    tail: &[Turn],
    first_turn: usize,
) -> Result<Vec<String>, Failure> {
    let outcome = won.outcome().map_or_else(String::new, |o| o.to_string());
    let over = |k: usize, detail: String| Failure {
        turn: first_turn + k,
        index: tail[k].index,
        moves: format!("'{}' = {}", tail[k].actions, tail[k].token),
        reason: format!("the game was already over ({outcome}) and the record goes on{detail}"),
    };
    if tail.iter().any(|t| t.source.is_some()) {
        return Err(over(0, String::new()));
    }
    let mut pos = won.box_clone();
    let mut moves = Vec::new();
    for (k, turn) in tail.iter().enumerate() {
        let Some(mut going_on) = playing_on(entry, pos.as_ref()) else {
            return Err(over(k, String::new()));
        };
        if going_on.to_move() != turn.player {
            return Err(over(
                k,
                format!(
                    " with a capture by {}, though {} would have been to move",
                    turn.player,
                    going_on.to_move()
                ),
            ));
        }
        if let Err(e) = going_on.play(&turn.token) {
            let unfinished_chain = k + 1 == tail.len()
                && !turn.finished
                && going_on.legal_moves().iter().any(|m| m.starts_with(turn.token.as_str()));
            if !unfinished_chain {
                return Err(over(
                    k,
                    format!(" with a capture that would not have been legal either: {e}"),
                ));
            }
        }
        moves.push(turn.token.clone());
        pos = going_on;
    }
    Ok(moves)
}

/// Replays a converted game through the rules of `zertz` from `registry`.
#[must_use]
pub fn check(game: &Game, registry: &Registry) -> Check {
    let entry = match registry.get("zertz") {
        Ok(e) => e,
        Err(e) => return Check::Skipped(e.to_string()),
    };
    let mut pos = match entry.new_game(Some(game.variant)) {
        Ok(p) => p,
        Err(e) => return Check::Skipped(e.to_string()),
    };
    let mut normalisations = game.normalisations.clone();
    let mut played = game.turns.len();
    for (k, turn) in game.turns.iter().enumerate() {
        let fail = |reason: String| {
            Check::Failed(Failure {
                turn: k + 1,
                index: turn.index,
                moves: format!("'{}' = {}", turn.actions, turn.token),
                reason,
            })
        };
        match pos.outcome() {
            Some(Outcome::Draw) => {
                return Check::Skipped(format!(
                    "{REPETITION}; it was reached before turn {}",
                    k + 1
                ));
            }
            Some(Outcome::Win(winner)) => {
                match captures_after_win(entry, pos.as_ref(), &game.turns[k..], k + 1) {
                    Ok(moves) => {
                        normalisations.push(Normalisation::CapturesAfterWinIgnored {
                            winner,
                            first_turn: k + 1,
                            moves,
                        });
                        played = k;
                        break;
                    }
                    Err(failure) => return Check::Failed(failure),
                }
            }
            None => {}
        }
        if pos.to_move() != turn.player {
            return fail(format!("played by {}, but {} is to move", turn.player, pos.to_move()));
        }
        if let Some(source) = turn.source {
            let empty = pool_is_empty(pos.as_ref());
            match (source, empty) {
                (Source::Pool, Some(true)) => {
                    return fail(
                        "the record takes the marble from the pool, which is empty".into(),
                    );
                }
                (Source::Captures(_), Some(false)) => {
                    return fail(
                        "the record places a captured marble while the pool still holds marbles (zertz.md 4.4.1)".into(),
                    );
                }
                (Source::Captures(owner), _) if owner != turn.player => {
                    return fail(format!("the record places a marble from {owner}'s captures"));
                }
                _ => {}
            }
        }
        if let Err(e) = pos.play(&turn.token) {
            // A game that stopped in the middle of a turn (a placement without its removal,
            // a chain that must go on): the turn was never completed, so it is not played.
            let last = k + 1 == game.turns.len();
            if last
                && !turn.finished
                && pos.legal_moves().iter().any(|m| m.starts_with(turn.token.as_str()))
            {
                normalisations.push(Normalisation::UnfinishedTurnDropped {
                    turn: k + 1,
                    actions: turn.actions.clone(),
                    before: game.ending.map(|(ending, _)| ending),
                });
                played = k;
                break;
            }
            return fail(e.to_string());
        }
    }
    let outcome = pos.outcome();
    let last_played = played.checked_sub(1).and_then(|k| game.turns.get(k));
    match (outcome, game.claim) {
        (Some(Outcome::Draw), Claim::Win(_)) => {
            Check::Skipped(format!("{REPETITION}; the game ended on the board as a draw"))
        }
        (Some(Outcome::Win(p)), Claim::Win(q)) if p != q => Check::Failed(Failure {
            turn: played,
            index: last_played.and_then(|t| t.index),
            moves: last_played
                .map(|t| format!("'{}' = {}", t.actions, t.token))
                .unwrap_or_default(),
            reason: format!(
                "the record says {q} ({}) won, but the game ended on the board with {p} winning",
                game.players[q.index()]
            ),
        }),
        (Some(Outcome::Win(p)), Claim::Draw) => Check::Failed(Failure {
            turn: played,
            index: None,
            moves: String::new(),
            reason: format!(
                "the record says draw, but the game ended on the board with {p} winning"
            ),
        }),
        _ => {
            normalisations.sort_by_key(Normalisation::place_in_game);
            Check::Passed { outcome, turns: played, normalisations }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "(;\nGM[22] VV[2]\nDT[Wed May 11 09:30:28 MSK 2022]\nGN[x]\nSU[Zertz]\nP0[id \"ann\"]\nP1[id \"annette\"]\n";

    fn game(body: &str) -> Game {
        match convert(&format!("{HEAD}{body})\n")) {
            Ok(Conversion::Game(g)) => g,
            other => panic!("{other:?}"),
        }
    }

    fn tokens(g: &Game) -> Vec<&str> {
        g.turns.iter().map(|t| t.token.as_str()).collect()
    }

    #[test]
    fn set_ups() {
        assert_eq!(variant_of_setup("Zertz"), Ok("37"));
        assert_eq!(variant_of_setup("Zertz+11"), Ok("48"));
        assert_eq!(variant_of_setup("Zertz+24"), Ok("61"));
        assert!(variant_of_setup("Zertz+H").unwrap_err().contains("handicap"));
        assert!(variant_of_setup("Zertz+xx").unwrap_err().contains("custom"));
        let skipped = convert(&format!("{})", HEAD.replace("SU[Zertz]", "SU[Zertz+H]"))).unwrap();
        assert!(matches!(skipped, Conversion::Skipped(r) if r.contains("handicap")));
        let g = game(
            "; P-1[0 Start P0]\n; P0[1 SetBoard Zertz+24]\n; P0[2 RtoB 2 0 E 5]\n; P0[3 R- A 1]\n",
        );
        assert_eq!(g.variant, "61");
    }

    #[test]
    fn dates_and_results() {
        assert_eq!(date_of("Sat Jun 11 05:22:47 CDT 2005").as_deref(), Some("2005.06.11"));
        assert_eq!(date_of("Wed May 19 22:33:32 CEST 2004").as_deref(), Some("2004.05.19"));
        assert_eq!(date_of("garbage"), None);
        assert_eq!(date_of("2021-11-05 20:17").as_deref(), Some("2021.11.05"));
        let names = ["ann".to_string(), "annette".to_string()];
        assert_eq!(winner_in("Game won by annette", &names), Named::Seat(1));
        assert_eq!(winner_in("Game won by ann", &names), Named::Seat(0));
        assert_eq!(winner_in("Игру выиграл(а) ann.", &names), Named::Seat(0));
        assert_eq!(winner_in("annette hat gewonnen", &names), Named::Seat(1));
        assert_eq!(winner_in("abandoned", &names), Named::Neither);
        let guests = ["guest".to_string(), "guest".to_string()];
        assert_eq!(winner_in("Game won by guest1486", &guests), Named::Both);
        let guest_and_robot = ["guest".to_string(), "Dumbot".to_string()];
        assert_eq!(winner_in("Game won by guest1487", &guest_and_robot), Named::Seat(0));
        // Short names inside the words of the text are not names.
        let short = ["a".to_string(), "b".to_string()];
        assert_eq!(winner_in("Game won by a", &short), Named::Seat(0));
        assert_eq!(winner_in("Partida ganada por b", &short), Named::Seat(1));
    }

    #[test]
    fn turns_with_and_without_done() {
        // Modern: indexes, Done, lower-case operations, remove-then-place, a put-back jump.
        let g = game(
            "; P0[0 Start P0]\n; P0[1 rtob 2 2 C 2]TM[1]\n; P0[2 r- E 7]\n; P0[3 done ]\n\
             ; P1[4 R- A 1]\n; P1[5 RtoB 2 1 D 2]\n; P1[6 Done]\n\
             ; P0[7 BtoB C 2 C 2]\n; P0[8 BtoB C 2 E 1]\n; P0[9 Done]\n;\nP0[time 0:00:18 ]\n",
        );
        assert_eq!(tokens(&g), ["Bc2,e7", "Gd2,a1", "c2xe1"]);
        assert_eq!(g.turns[1].index, Some(4));
        assert_eq!(g.turns[1].actions, "R- A 1; RtoB 2 1 D 2");
        assert_eq!(g.players, ["ann".to_string(), "annette".to_string()]);
        assert_eq!(g.date.as_deref(), Some("2022.05.11"));
        // Old: no index, no Done, a no-op RtoR, a two-jump chain on two lines.
        let g = game(
            "; P0[RtoB 2 0 E 4]\n; P0[R- A 3]\n; P1[RtoB 2 0 D 3]\n; P1[RtoR 2 2 2]\n; P1[R- A 4]\n\
             ; P0[BtoB B 4 D 4]\n; P0[BtoB D 4 D 2]\n; P1[RtoB 2 1 A 2]\n",
        );
        assert_eq!(tokens(&g), ["We4,a3", "Wd3,a4", "b4xd4xd2", "Ga2"]);
        assert_eq!(g.turns[3].player, Player::P2);
    }

    #[test]
    fn undo_steps_and_reset() {
        let g = game(
            "; P0[0 Start P0]\n; P0[1 RtoB 2 0 D 4]\n; P0[2 BtoR D 4 2]\n; P0[3 RtoB 2 1 D 5]\n\
             ; P0[4 R- A 1]\n; P0[5 R+ A 1]\n; P0[6 R- A 2]\n; P0[7 Done]\n\
             ; P1[8 RtoB 2 2 C 3]\n; P1[Undo]\n; P1[10 RtoB 2 2 C 4]\n; P1[11 R- A 3]\n; P1[12 Done]\n",
        );
        assert_eq!(tokens(&g), ["Gd5,a2", "Bc4,a3"]);
    }

    #[test]
    fn start_p1_makes_boardspace_p1_our_p1() {
        let g = game("; P0[0 Start P1]\n; P1[1 RtoB 2 0 D 4]\n; P1[2 R- A 1]\n; P1[3 Done]\n");
        assert_eq!(g.players, ["annette".to_string(), "ann".to_string()]);
        assert_eq!(g.turns[0].player, Player::P1);
    }

    #[test]
    fn damaged_records() {
        let damaged = |body: &str| match convert(&format!("{HEAD}{body})\n")) {
            Err(d) => d,
            other => panic!("{other:?}"),
        };
        let d = damaged("; P0[1 RtoB 2 0 D 4]\n; P0[2 RtoB 2 0 D 5]\n");
        assert_eq!((d.index, d.reason.as_str()), (Some(2), "two placements in one turn"));
        let d = damaged("; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 R- A 2]\n");
        assert_eq!(d.reason, "two ring removals in one turn");
        let d = damaged("; P0[1 BtoB B 4 D 4]\n; P0[2 BtoB E 4 E 6]\n");
        assert!(d.reason.contains("chain"), "{d}");
        let d = damaged("; P0[1 R- A 1]\n; P0[2 Done]\n");
        assert!(d.reason.contains("without a placement"), "{d}");
        let d = damaged("; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 Pass]\n");
        assert!(d.reason.contains("pass"), "{d}");
        // A jump back over an earlier jump of the turn, not its last: no take-back.
        let d = damaged(
            "; P0[1 BtoB B 4 D 4]\n; P0[2 BtoB D 4 D 2]\n; P0[3 BtoB D 4 B 4]\n; P0[4 Done]\n",
        );
        assert_eq!(d.index, Some(3));
        assert_eq!(
            d.reason,
            "goes back over the jump b4 to d4, which is not the last jump of this turn (d4 to d2): no take-back explains it"
        );
        let d = damaged("; P0[1 Frobnicate]\n");
        assert!(d.reason.contains("unknown action"), "{d}");
        let d = damaged("; P0[1 RtoB 2 7 D 4]\n");
        assert!(d.reason.contains("colour 7"), "{d}");
        assert!(convert("not sgf").is_err());
        assert!(convert("(;SU[Zertz];P0[1 Done]").is_err());
    }

    #[test]
    fn what_the_interface_wrote_is_read_as_the_turns_played() {
        // A jump taken back, then the chain goes on another way; a marble picked up and put
        // back on the way.
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P1[3 RtoB 2 0 D 5]\n; P1[4 R- A 2]\n\
             ; P0[5 BtoB D 4 D 6]\n; P0[6 BtoB D 6 D 6]\n; P0[7 BtoB D 6 D 4]\n; P0[8 BtoB D 5 D 3]\n",
        );
        assert_eq!(tokens(&g), ["Wd4,a1", "Wd5,a2", "d5xd3"]);
        assert_eq!(
            g.normalisations,
            [Normalisation::JumpTakenBack { turn: 3, from: "d4".into(), to: "d6".into() }]
        );
        // A placed marble dragged on, twice, before the removal and Done.
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 BtoB D 4 D 5]\n; P0[3 BtoB D 5 C 3]\n; P0[4 R- A 1]\n; P0[5 Done]\n",
        );
        assert_eq!(tokens(&g), ["Wc3,a1"]);
        assert_eq!(g.normalisations.len(), 2);
        assert_eq!(
            g.normalisations[1],
            Normalisation::MarbleDragged { turn: 1, from: "d5".into(), to: "c3".into() }
        );
        // `Start P1`, but P0 steps first: P0 moves first.
        let g = game("; P0[Start P1]\n; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n");
        assert_eq!(g.players, ["ann".to_string(), "annette".to_string()]);
        assert_eq!(
            g.normalisations,
            [Normalisation::StartMarkerOverruled { marker_seat: 1, first_seat: 0 }]
        );
        // What follows a resignation is not part of the game.
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 Resign]\n; P1[5 Resign]\n\
             ; P1[6 RtoB 2 0 D 5]\n; P1[7 Done]\n",
        );
        assert_eq!(tokens(&g), ["Wd4,a1"]);
        assert_eq!(
            g.normalisations,
            [Normalisation::ActionsAfterEndingIgnored {
                ending: Ending::Resigned(Player::P2),
                count: 2,
                from_index: Some(5),
                from_line: 12
            }]
        );
        // Without Done, a ring removal left alone before the resignation is dropped.
        let g = game("; P0[RtoB 2 0 D 4]\n; P0[R- A 1]\n; P1[R- A 2]\n; P1[Resign]\n");
        assert_eq!(tokens(&g), ["Wd4,a1"]);
        assert_eq!(
            g.normalisations,
            [Normalisation::UnfinishedTurnDropped {
                turn: 2,
                actions: "R- A 2".into(),
                before: Some(Ending::Resigned(Player::P2))
            }]
        );
        // A second game tree: the first is the game.
        let text =
            format!("{HEAD}; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n)\n{HEAD}; P0[1 Done]\n)\n");
        let Ok(Conversion::Game(g)) = convert(&text) else { panic!("{text}") };
        assert_eq!(tokens(&g), ["Wd4,a1"]);
        assert_eq!(g.normalisations, [Normalisation::LaterGameTreesIgnored { count: 1 }]);
        assert!(convert(&format!("{HEAD})\n(;x")).is_err());
    }

    #[test]
    fn checks_through_the_rules() {
        let registry = ply_games::registry();
        // The pool is full, so a captured marble may not be placed.
        let g = game("; P0[1 RtoB 0 0 D 4]\n; P0[2 R- A 1]\n");
        let Check::Failed(f) = check(&g, &registry) else { panic!() };
        assert!(f.reason.contains("pool still holds"), "{f}");
        // A jump over an empty ring.
        let g = game("; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P1[3 BtoB D 4 D 6]\n");
        let Check::Failed(f) = check(&g, &registry) else { panic!() };
        assert_eq!(f.turn, 2);
        assert!(f.to_string().contains("turn 2 (move 3) 'BtoB D 4 D 6' = d4xd6: no marble"), "{f}");
        // Two turns in a row by one player (old record, no Done, same player twice is one
        // turn, so write it with Done).
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P0[4 RtoB 2 0 D 2]\n; P0[5 R- A 2]\n; P0[6 Done]\n",
        );
        let Check::Failed(f) = check(&g, &registry) else { panic!() };
        assert!(f.reason.contains("P2 is to move"), "{f}");
        // A resignation: passes, the other player wins.
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 Resign]\n; P1[5 Done]\n",
        );
        assert_eq!(g.claim, Claim::Win(Player::P1));
        let passed = Check::Passed { outcome: None, turns: 1, normalisations: Vec::new() };
        assert_eq!(check(&g, &registry), passed);
        // A record with Done that ends with an unconfirmed turn: not part of the game.
        let g = game("; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 RtoB 2 0 D 5]\n");
        assert_eq!(g.turns.len(), 1);
        assert_eq!(
            g.normalisations,
            [Normalisation::UnfinishedTurnDropped {
                turn: 2,
                actions: "RtoB 2 0 D 5".into(),
                before: None
            }]
        );
        // An old record (no Done) that stops in the middle of a turn: the unfinished turn
        // is left out.
        let g = game("; P0[RtoB 2 0 D 4]\n; P0[R- A 1]\n; P1[RtoB 2 0 D 5]\n");
        assert!(!g.turns[1].finished);
        let dropped = Normalisation::UnfinishedTurnDropped {
            turn: 2,
            actions: "RtoB 2 0 D 5".into(),
            before: None,
        };
        assert_eq!(
            check(&g, &registry),
            Check::Passed { outcome: None, turns: 1, normalisations: vec![dropped] }
        );
        // But not an illegal one.
        let g = game("; P0[RtoB 2 0 D 4]\n; P0[R- A 1]\n; P1[RtoB 2 0 D 4]\n");
        assert!(matches!(check(&g, &registry), Check::Failed(_)));
        // Resign discards an unconfirmed placement.
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 RtoB 2 0 D 5]\n; P1[5 Resign]\n; P1[6 Done]\n",
        );
        assert_eq!(g.turns.len(), 1);
        assert_eq!(g.ending, Some((Ending::Resigned(Player::P2), 1)));
        assert_eq!(g.claim, Claim::Win(Player::P1));
        assert_eq!(
            g.normalisations,
            [Normalisation::UnfinishedTurnDropped {
                turn: 2,
                actions: "RtoB 2 0 D 5".into(),
                before: Some(Ending::Resigned(Player::P2))
            }]
        );
        // An agreed draw.
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 OfferDraw]\n; P0[5 AcceptDraw]\n",
        );
        assert_eq!(g.claim, Claim::Draw);
        assert_eq!(check(&g, &registry), passed);
    }
}
