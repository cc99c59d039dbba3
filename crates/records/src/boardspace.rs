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
//!
//! This module knows only the format and the notation; the rules come in through
//! [`ply_core::Registry`] (the game `zertz`), so it depends on nothing but `ply-core`.

use std::fmt;

use ply_core::{AnyGame, Outcome, Player, Registry};

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

/// Reads the SGF game tree: its nodes, each a list of properties.
///
/// # Errors
/// [`Damaged`] when the text is not an SGF game tree.
pub fn parse_sgf(text: &str) -> Result<Vec<Vec<Property>>, Damaged> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let err = |line: usize, reason: &str| Damaged {
        index: None,
        line,
        action: String::new(),
        reason: reason.to_string(),
    };
    let mut nodes: Vec<Vec<Property>> = Vec::new();
    let mut depth = 0usize;
    let mut started = false;
    let mut ended = false;
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
        if ended {
            return Err(err(line, "text after the end of the game tree (a second game?)"));
        }
        match c {
            '(' => {
                if started {
                    return Err(err(
                        line,
                        "the record has variations; boardspace writes one line of play",
                    ));
                }
                started = true;
                depth += 1;
                i += 1;
            }
            ')' => {
                if depth == 0 {
                    return Err(err(line, "unbalanced ')'"));
                }
                depth -= 1;
                ended = depth == 0;
                i += 1;
            }
            ';' => {
                if !started {
                    return Err(err(line, "a node before '('"));
                }
                nodes.push(Vec::new());
                i += 1;
            }
            c if c.is_ascii_uppercase() => {
                let Some(node) = nodes.last_mut() else {
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
    if !started {
        return Err(err(line, "not an SGF file: no game tree '(;'"));
    }
    if depth != 0 {
        return Err(err(line, "the game tree is not closed with ')'"));
    }
    Ok(nodes)
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
    /// The actions of a last turn that was never confirmed with `Done` (left out).
    pub uncommitted: Option<String>,
    pub turns: Vec<Turn>,
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

/// The player the `RE` text names, given the two names (boardspace numbering).
fn winner_in(re: &str, names: &[String; 2]) -> Option<usize> {
    let found: Vec<usize> =
        (0..2).filter(|&i| !names[i].is_empty() && re.contains(names[i].as_str())).collect();
    match found.as_slice() {
        [one] => Some(*one),
        [a, b] => {
            // One name inside the other ("Bob" and "Bobby"): the longer one is meant unless
            // the shorter one also stands alone elsewhere.
            let (short, long) = if names[*a].len() < names[*b].len() { (*a, *b) } else { (*b, *a) };
            if names[long].contains(names[short].as_str()) {
                let rest = re.replace(names[long].as_str(), "");
                if rest.contains(names[short].as_str()) { None } else { Some(long) }
            } else {
                None
            }
        }
        _ => None,
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

    fn note(&mut self, a: &Action) {
        if self.actions.is_empty() {
            self.index = a.index;
            self.line = a.line;
        }
        self.actions.push(a.text.clone());
    }
}

/// Reads a boardspace ZÈRTZ record and converts its turns to ply's notation.
///
/// # Errors
/// [`Damaged`] for a record that cannot be read as a sequence of whole turns (two placements
/// in one turn, a chain that does not continue, an unknown action…), naming the action.
pub fn convert(text: &str) -> Result<Conversion, Damaged> {
    let nodes = parse_sgf(text)?;
    let Some(root) = nodes.first() else {
        return Err(Damaged {
            index: None,
            line: 1,
            action: String::new(),
            reason: "empty game tree".into(),
        });
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

    // Who moved first: `Start Pn`, or the first player to act.
    let mut first = None;
    for a in &actions {
        if a.op == "start" {
            let who = a.args.first().map(|s| s.to_ascii_uppercase());
            first = match who.as_deref() {
                Some("P0" | "0") => Some(0),
                Some("P1" | "1") => Some(1),
                _ => return Err(a.damaged("Start names no player")),
            };
            break;
        }
        if a.player != NOBODY
            && !NO_OPS.contains(&a.op.as_str())
            && !matches!(a.op.as_str(), "done" | "reset" | "undo" | "rtor")
        {
            first = Some(a.player);
            break;
        }
    }
    let first = first.unwrap_or(0);
    let ours = |bs: usize| if bs == first { Player::P1 } else { Player::P2 };

    let mut turns: Vec<Turn> = Vec::new();
    let mut pending = Pending::default();
    let mut ending: Option<(Ending, usize)> = None;
    let mut placed_any = false;
    // Records with `Done` confirm every turn; in older ones a turn ends when the other player
    // acts, and nothing marks the last one as complete.
    let uses_done = actions.iter().any(|a| a.op == "done");
    for a in &actions {
        if ending.is_some()
            && !NO_OPS.contains(&a.op.as_str())
            && !matches!(a.op.as_str(), "done" | "reset" | "undo")
        {
            return Err(a.damaged("an action after the end of the game"));
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
                // These discard an unconfirmed turn; without `Done` in the record, the turn
                // may have been complete, and is kept as possibly unfinished.
                if uses_done {
                    pending = Pending::default();
                } else if !pending.is_empty() {
                    flush(&mut pending, &mut turns, &ours)?;
                    if let Some(last) = turns.last_mut() {
                        last.finished = false;
                    }
                }
                let e = match a.op.as_str() {
                    "resign" => Ending::Resigned(ours(a.player)),
                    "winontime" => Ending::OnTime(ours(a.player)),
                    _ => Ending::DrawAgreed,
                };
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
                if pending.place.is_some() || pending.remove.is_some() {
                    return Err(a.damaged("a jump and a placement in one turn"));
                }
                if let Some((_, last)) = pending.jumps.last()
                    && *last != from
                {
                    return Err(a.damaged(format!(
                        "the jump starts on {from}, but the chain of this turn ended on {last}"
                    )));
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
    let mut uncommitted = None;
    if !pending.is_empty() {
        if uses_done {
            // Never confirmed: not part of the game.
            uncommitted = Some(pending.actions.join("; "));
        } else {
            flush(&mut pending, &mut turns, &ours)?;
            // The last turn ended neither with Done nor with the other player acting.
            if let Some(last) = turns.last_mut() {
                last.finished = false;
            }
        }
    }

    let result_text = get("RE");
    let claim = match &result_text {
        Some(re) => match winner_in(re, &names) {
            Some(bs) => Claim::Win(ours(bs)),
            None if re.to_ascii_lowercase().contains("draw") => Claim::Draw,
            None => Claim::Unknown,
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
        uncommitted,
        turns,
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
    /// Every turn legal and the result consistent: the final position's outcome, and how
    /// many turns were played (all of them, or all but an unfinished last one).
    Passed { outcome: Option<Outcome>, turns: usize },
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
    for (k, turn) in game.turns.iter().enumerate() {
        let fail = |reason: String| {
            Check::Failed(Failure {
                turn: k + 1,
                index: turn.index,
                moves: format!("'{}' = {}", turn.actions, turn.token),
                reason,
            })
        };
        if let Some(outcome) = pos.outcome() {
            if outcome == Outcome::Draw {
                return Check::Skipped(format!(
                    "{REPETITION}; it was reached before turn {}",
                    k + 1
                ));
            }
            return fail(format!("the game was already over ({outcome}) and the record goes on"));
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
                return Check::Passed { outcome: pos.outcome(), turns: k };
            }
            return fail(e.to_string());
        }
    }
    let outcome = pos.outcome();
    match (outcome, game.claim) {
        (Some(Outcome::Draw), Claim::Win(_)) => {
            Check::Skipped(format!("{REPETITION}; the game ended on the board as a draw"))
        }
        (Some(Outcome::Win(p)), Claim::Win(q)) if p != q => Check::Failed(Failure {
            turn: game.turns.len(),
            index: game.turns.last().and_then(|t| t.index),
            moves: game
                .turns
                .last()
                .map(|t| format!("'{}' = {}", t.actions, t.token))
                .unwrap_or_default(),
            reason: format!(
                "the record says {q} ({}) won, but the game ended on the board with {p} winning",
                game.players[q.index()]
            ),
        }),
        (Some(Outcome::Win(p)), Claim::Draw) => Check::Failed(Failure {
            turn: game.turns.len(),
            index: None,
            moves: String::new(),
            reason: format!(
                "the record says draw, but the game ended on the board with {p} winning"
            ),
        }),
        _ => Check::Passed { outcome, turns: game.turns.len() },
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
        assert_eq!(winner_in("Game won by annette", &names), Some(1));
        assert_eq!(winner_in("Game won by ann", &names), Some(0));
        assert_eq!(winner_in("Игру выиграл(а) ann.", &names), Some(0));
        assert_eq!(winner_in("annette hat gewonnen", &names), Some(1));
        assert_eq!(winner_in("abandoned", &names), None);
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
        let d = damaged("; P0[1 Resign]\n; P1[2 RtoB 2 0 D 4]\n");
        assert!(d.reason.contains("after the end"), "{d}");
        let d = damaged("; P0[1 Frobnicate]\n");
        assert!(d.reason.contains("unknown action"), "{d}");
        let d = damaged("; P0[1 RtoB 2 7 D 4]\n");
        assert!(d.reason.contains("colour 7"), "{d}");
        assert!(convert("not sgf").is_err());
        assert!(convert("(;SU[Zertz];P0[1 Done]").is_err());
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
        assert_eq!(check(&g, &registry), Check::Passed { outcome: None, turns: 1 });
        // A record with Done that ends with an unconfirmed turn: not part of the game.
        let g = game("; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 RtoB 2 0 D 5]\n");
        assert_eq!(g.turns.len(), 1);
        assert_eq!(g.uncommitted.as_deref(), Some("RtoB 2 0 D 5"));
        // An old record (no Done) that stops in the middle of a turn: the unfinished turn
        // is left out.
        let g = game("; P0[RtoB 2 0 D 4]\n; P0[R- A 1]\n; P1[RtoB 2 0 D 5]\n");
        assert!(!g.turns[1].finished);
        assert_eq!(check(&g, &registry), Check::Passed { outcome: None, turns: 1 });
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
        // An agreed draw.
        let g = game(
            "; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 OfferDraw]\n; P0[5 AcceptDraw]\n",
        );
        assert_eq!(g.claim, Claim::Draw);
        assert_eq!(check(&g, &registry), Check::Passed { outcome: None, turns: 1 });
    }
}
