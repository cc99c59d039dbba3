//! Canonical notation of whole turns (gipf.md 5) and the parser with its abbreviations (5.4).

use ply_core::{Game, MoveError};

use crate::geometry::{ENTRIES, LINES, Point, cell_point, find_entry};
use crate::rules::keep_cells;
use crate::rules::{Position, State};
use crate::types::{EntryPhase, GIPF_BIT, Move, NO_PUSH, Variant};

/// A removal as written: its end points (smaller first) and its kept points (ascending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Removal {
    pub first: Point,
    pub last: Point,
    pub kept: Vec<Point>,
}

impl std::fmt::Display for Removal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "x{}-{}", self.first, self.last)?;
        for k in &self.kept {
            write!(f, "+{k}")?;
        }
        Ok(())
    }
}

/// One token of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    Removal(Removal),
    Push { dot: Point, first: Point, gipf: bool },
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Token::Removal(r) => r.fmt(f),
            Token::Push { dot, first, gipf } => {
                write!(f, "{}{dot}-{first}", if *gipf { "G" } else { "" })
            }
        }
    }
}

fn cells_to_points(mut cells: u64) -> Vec<Point> {
    let mut out = Vec::new();
    while cells != 0 {
        out.push(cell_point(cells.trailing_zeros()));
        cells &= cells - 1;
    }
    out
}

/// The tokens of a legal move, in order, replaying it on a copy of `state`. Each token comes
/// with the state just before it (for click paths and diagnostics).
pub(crate) fn replay(state: &State, mv: Move) -> Vec<(Token, State)> {
    let mut out = Vec::new();
    replay_while(state, mv, |token, st| {
        out.push((token, *st));
        true
    });
    out
}

/// Replays a legal move on a copy of `state`, giving each token with the state just before it
/// to `visit`, and stops as soon as `visit` returns false.
fn replay_while(state: &State, mv: Move, mut visit: impl FnMut(Token, &State) -> bool) {
    let mut st = *state;
    let p = st.to_move.index();
    let push = push_token(st.variant, mv);
    for i in 0..=mv.len as usize {
        if let Some(push) = push.as_ref().filter(|_| i == mv.pre as usize) {
            if !visit(push.clone(), &st) {
                return;
            }
            let gipf = mv.push & GIPF_BIT != 0;
            let entry = &ENTRIES[(mv.push & !GIPF_BIT) as usize];
            st.board = st.board.push(p, entry, gipf).expect("legal push");
            st.enter(p, gipf);
        }
        if i == mv.len as usize {
            break;
        }
        let step = mv.steps[i];
        let run = st.board.run_on_line(p, step.line as usize);
        let keep = keep_cells(step.line as usize, step.keep);
        let token = Token::Removal(Removal {
            first: cell_point(run.trailing_zeros()),
            last: cell_point(63 - run.leading_zeros()),
            kept: cells_to_points(keep),
        });
        if !visit(token, &st) {
            return;
        }
        st.remove(p, run, keep);
    }
}

/// The push token of a move, without replaying it; `None` for a turn without a push.
fn push_token(variant: Variant, mv: Move) -> Option<Token> {
    (mv.push != NO_PUSH).then(|| {
        let e = ENTRIES[(mv.push & !GIPF_BIT) as usize];
        Token::Push {
            dot: cell_or_point(e.dot),
            first: cell_or_point(e.first),
            gipf: mv.push & GIPF_BIT != 0 && variant == Variant::Tournament,
        }
    })
}

/// Whether the tokens of `mv` can be `input`, judged without replaying it: as many tokens,
/// and the same push at the same place (after the pre-push removals).
fn same_shape(variant: Variant, mv: Move, input: &[Token]) -> bool {
    match push_token(variant, mv) {
        None => {
            input.len() == mv.len as usize && input.iter().all(|t| matches!(t, Token::Removal(_)))
        }
        Some(push) => {
            input.len() == mv.len as usize + 1 && input.get(mv.pre as usize) == Some(&push)
        }
    }
}

fn cell_or_point(index: u8) -> Point {
    Point::from_index(index as usize).expect("point index")
}

/// The canonical tokens of a legal move.
pub(crate) fn tokens(state: &State, mv: Move) -> Vec<String> {
    replay(state, mv).into_iter().map(|(t, _)| t.to_string()).collect()
}

fn syntax(msg: String) -> MoveError {
    MoveError::Syntax(msg)
}

fn parse_point(text: &str, token: &str) -> Result<Point, MoveError> {
    Point::parse(text).map_err(|e| syntax(format!("in '{token}': {e}")))
}

/// Reads one token of a turn.
fn parse_token(token: &str) -> Result<Token, MoveError> {
    if token.is_empty() {
        return Err(syntax("empty token: tokens are joined by single commas".to_string()));
    }
    if let Some(rest) = token.strip_prefix('x') {
        let mut parts = rest.split('+');
        let ends = parts.next().unwrap_or("");
        let Some((a, b)) = ends.split_once('-') else {
            return Err(syntax(format!(
                "'{token}' is not a removal: write x, the two end points of the run joined by \
                 '-', then '+' and each kept GIPF piece, like xe2-e6+e4"
            )));
        };
        let a = parse_point(a, token)?;
        let b = parse_point(b, token)?;
        let (first, last) = if a <= b { (a, b) } else { (b, a) };
        let mut kept = Vec::new();
        for k in parts {
            let k = parse_point(k, token)?;
            if kept.contains(&k) {
                return Err(syntax(format!("in '{token}': kept point {k} is listed twice")));
            }
            kept.push(k);
        }
        kept.sort();
        return Ok(Token::Removal(Removal { first, last, kept }));
    }
    let (gipf, body) = match token.strip_prefix('G') {
        Some(body) => (true, body),
        None => (false, token),
    };
    let Some((a, b)) = body.split_once('-') else {
        return Err(syntax(format!(
            "'{token}' is neither a push (dot-point, like a1-b2) nor a removal (like xe2-e6)"
        )));
    };
    Ok(Token::Push { dot: parse_point(a, token)?, first: parse_point(b, token)?, gipf })
}

/// Reads a turn (5.2) and matches it against the legal turns (5.4).
pub(crate) fn parse(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(syntax("empty move".to_string()));
    }
    let mut input = Vec::new();
    for token in text.split(',') {
        input.push(parse_token(token)?);
    }
    let pushes = input.iter().filter(|t| matches!(t, Token::Push { .. })).count();
    if pushes > 1 {
        return Err(syntax(format!("'{text}' has {pushes} pushes; a turn has at most one")));
    }
    let state = pos.state();
    if let Some(w) = state.winner {
        return Err(MoveError::GameOver(format!("{w} has won")));
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // Turns are replayed into tokens only when their shape fits the input: a position can
    // have more than 10,000 turns (GIPF pieces kept or taken in overlapping rows), and reading
    // each of them must not replay all of them.

    // The bare push abbreviation (5.4.1).
    if let [push @ Token::Push { .. }] = input.as_slice() {
        let with_push: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| push_token(state.variant, m).as_ref() == Some(push))
            .collect();
        if let Some(&m) = with_push.iter().find(|m| m.len == 0) {
            return Ok(m);
        }
        match with_push.as_slice() {
            [m] => return Ok(*m),
            [] => {}
            many => {
                let names: Vec<String> = many.iter().map(|&m| pos.format_move(m)).collect();
                return Err(MoveError::Ambiguous(format!(
                    "{push} fits {} turns; write the whole turn: {}",
                    many.len(),
                    names.join(" ")
                )));
            }
        }
    }
    for &m in &moves {
        if same_shape(state.variant, m, &input)
            && replay(state, m).iter().map(|(t, _)| t).eq(input.iter())
        {
            return Ok(m);
        }
    }
    Err(diagnose(state, &moves, &input))
}

/// Says why `input` matches no legal turn.
///
/// Replays the legal turns one at a time, twice, each only as far as the message needs, and
/// keeps only what the message needs: a position can have more than a million turns
/// (overlapping rows through GIPF pieces, each kept or taken); holding all their replays at
/// once took most of a gigabyte.
fn diagnose(state: &State, moves: &[Move], input: &[Token]) -> MoveError {
    let illegal = MoveError::Illegal;
    let text: Vec<String> = input.iter().map(ToString::to_string).collect();
    // The longest prefix of the input that some legal turn starts with.
    let mut n = 0;
    for &m in moves {
        let mut k = 0;
        replay_while(state, m, |token, _| {
            let same = input.get(k) == Some(&token);
            k += usize::from(same);
            same
        });
        n = n.max(k);
    }
    let done = if n == 0 { String::new() } else { format!("after {}, ", text[..n].join(",")) };
    // What the turns that start with those n tokens do next.
    let mut options: Vec<Token> = Vec::new();
    let mut before: Option<State> = None;
    let mut some_end_without_push = false;
    let mut removes_that_run_later = false;
    let same_run = |token: &Token, r: &Removal| matches!(token, Token::Removal(o) if o.first == r.first && o.last == r.last);
    let wrong_removal = match input.get(n) {
        Some(Token::Removal(r)) => Some(r),
        _ => None,
    };
    for &m in moves {
        // Tokens seen, whether they all matched the input so far, and whether the wrong
        // removal's run comes at or after token n.
        let (mut k, mut prefix, mut later) = (0, true, false);
        replay_while(state, m, |token, st| {
            if k < n {
                prefix = token == input[k];
                k += 1;
                return prefix;
            }
            if k == n {
                before.get_or_insert(*st);
                later = wrong_removal.is_some_and(|r| same_run(&token, r));
                if !options.contains(&token) {
                    options.push(token);
                }
            } else {
                later = wrong_removal.is_some_and(|r| same_run(&token, r));
            }
            k += 1;
            // All that is left to learn is whether the wrong removal's run comes later.
            wrong_removal.is_some() && !later
        });
        if prefix && k >= n {
            some_end_without_push |= m.push == NO_PUSH;
            removes_that_run_later |= later;
        }
    }
    if n == input.len() {
        // The input is a strict prefix of legal turns.
        let mut next: Vec<String> = options.iter().map(ToString::to_string).collect();
        next.sort();
        return illegal(format!(
            "incomplete turn: {done}the rules require more (one of: {})",
            next.join(" ")
        ));
    }
    let wrong = &input[n];
    if options.is_empty() {
        let why = if some_end_without_push {
            "the game is over at that point"
        } else {
            "no row of yours is left to remove"
        };
        return illegal(format!("{done}the turn is complete: {wrong} cannot follow ({why})"));
    }
    // The state just before the wrong token, from any candidate.
    let before = before.unwrap_or(*state);
    let removals: Vec<String> = {
        let mut v: Vec<String> = options
            .iter()
            .filter(|t| matches!(t, Token::Removal(_)))
            .map(ToString::to_string)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let push_allowed = options.iter().any(|t| matches!(t, Token::Push { .. }));
    match wrong {
        Token::Push { .. } if !push_allowed => illegal(format!(
            "{done}rows of yours must be removed before you push (4.2, 4.6): {}",
            removals.join(" ")
        )),
        Token::Push { dot, first, gipf } => {
            illegal(format!("{done}{}", push_problem(&before, *dot, *first, *gipf)))
        }
        Token::Removal(r) => {
            if removals.is_empty() {
                return illegal(format!(
                    "{done}{r} is not possible: you have no row to remove here; push now"
                ));
            }
            let now = options.iter().any(|t| same_run(t, r));
            if !now && removes_that_run_later {
                return illegal(format!(
                    "{done}x{}-{} comes later: rows are removed in the order of 4.6 (rows that \
                     overlap others first, then the separate rows in ascending order of their \
                     first end points); now: {}",
                    r.first,
                    r.last,
                    removals.join(" ")
                ));
            }
            if !now {
                return illegal(format!(
                    "{done}x{}-{} is not the run of a row of yours that may be removed now \
                     (possible: {})",
                    r.first,
                    r.last,
                    removals.join(" ")
                ));
            }
            let gipf_points: Vec<String> = {
                let run = run_cells(r);
                cells_to_points(run & before.board.gipf).iter().map(ToString::to_string).collect()
            };
            if let Some(bad) = r.kept.iter().find(|k| !gipf_points.contains(&k.to_string())) {
                return illegal(format!(
                    "{done}{bad} is not a GIPF piece of the run {}-{}, so it cannot be kept \
                     (GIPF pieces there: {})",
                    r.first,
                    r.last,
                    if gipf_points.is_empty() { "none".to_string() } else { gipf_points.join(" ") }
                ));
            }
            illegal(format!(
                "{done}{r} must take at least one piece (4.4.3); possible: {}",
                removals.join(" ")
            ))
        }
    }
}

fn run_cells(r: &Removal) -> u64 {
    let (Some(a), Some(b)) = (r.first.cell(), r.last.cell()) else { return 0 };
    let want = (1u64 << a) | (1u64 << b);
    for line in &LINES {
        if line.mask & want == want {
            let lo = 1u64 << a;
            let hi = 1u64 << b;
            return line.mask & (hi | (hi - 1)) & !(lo - 1);
        }
    }
    0
}

/// Why a push is not legal in `state` (after the pre-push removals).
fn push_problem(state: &State, dot: Point, first: Point, gipf: bool) -> String {
    let p = state.to_move.index();
    let token = Token::Push { dot, first, gipf };
    if !dot.is_dot() {
        return format!("{token}: {dot} is not a dot; a push starts on one of the 24 edge dots");
    }
    let Some(e) = find_entry(dot, first) else {
        let mut firsts: Vec<String> = ENTRIES
            .iter()
            .filter(|e| e.dot as usize == dot.index())
            .map(|e| cell_or_point(e.first).to_string())
            .collect();
        firsts.sort();
        return format!(
            "{token}: from the dot {dot} a piece enters on {} only",
            firsts.join(" or ")
        );
    };
    if gipf && state.variant != Variant::Tournament {
        return format!(
            "{token}: G (entering a GIPF piece) exists only in the tournament game; in {} \
             every entry is a single piece",
            state.variant.id()
        );
    }
    if state.variant == Variant::Tournament {
        match (state.entry[p], gipf) {
            (EntryPhase::NotStarted, false) => {
                return format!(
                    "{token}: your first entry must be a GIPF piece (rule T1): write G{dot}-{first}"
                );
            }
            (EntryPhase::Singles, true) => {
                return format!(
                    "{token}: you have entered a single piece, so you may not enter GIPF pieces \
                     any more (rule T3)"
                );
            }
            (_, true) if state.board.reserve[p] < 2 => {
                return format!(
                    "{token}: a GIPF piece needs 2 chips and your reserve holds {} (rule T4)",
                    state.board.reserve[p]
                );
            }
            _ => {}
        }
    }
    if state.board.reserve[p] == 0 {
        return format!("{token}: your reserve is empty, so you cannot push (6.2)");
    }
    let entry = &ENTRIES[e];
    if entry.ray_mask & !state.board.occupied() == 0 {
        let far = cell_point(u32::from(entry.ray[entry.len as usize - 1]));
        return format!(
            "{token} is illegal: the line from {first} to {far} is full, and pieces are never \
             pushed onto a dot (4.3.3)"
        );
    }
    format!("{token} is not a legal turn here")
}
