//! Text diagram, SVG picture, click paths and JSON view.
//!
//! Click paths (DESIGN.md section 4). A turn is clicked token by token:
//!
//! * a removal: its first end point, its other end point, then, only when the run holds GIPF
//!   pieces, the kept ones in ascending order and the item `done`;
//! * a push: the dot, then the first point. In `tournament`, while the mover may still enter
//!   GIPF pieces (entry phase not `Singles`), the push starts with `pool-gipf` or
//!   `pool-single` to say which kind enters;
//! * when a turn's path is a strict prefix of another legal turn's path (possible only when
//!   optional tournament rows may be left standing), it ends with the item `end`.
//!
//! Removals start on interior points, pushes on dots or pool items, a removal's end points fix
//! its run and `done` closes its kept list, so every token's path is self-delimiting; `end`
//! settles the remaining case. Pieces carry ids `piece-<point>`: chips are interchangeable and
//! are identified by the point they stand on.

use std::collections::HashSet;
use std::fmt::Write;

use ply_core::{Game, Motion, Player, View};
use serde_json::{Map, Value, json};

use crate::geometry::{CELL_POINT, ENTRIES, LINES, Point, point_xy};
use crate::notation::{Removal, Token, replay};
use crate::rules::{Position, State};
use crate::types::{EntryPhase, GIPF_BIT, Move, NO_PUSH, Step, Variant};

fn symbol(pos: &Position, p: Point) -> char {
    match pos.piece_at(p) {
        None if p.is_dot() => '*',
        None => '.',
        Some(piece) => match (piece.player, piece.gipf) {
            (Player::P1, false) => 'w',
            (Player::P1, true) => 'W',
            (Player::P2, false) => 'b',
            (Player::P2, true) => 'B',
        },
    }
}

fn cell_name(cell: usize) -> String {
    Point::from_index(CELL_POINT[cell] as usize).expect("interior cell").name()
}

fn entry_name(e: EntryPhase) -> &'static str {
    match e {
        EntryPhase::NotStarted => "not-started",
        EntryPhase::GipfPieces => "gipf-pieces",
        EntryPhase::Singles => "singles",
    }
}

/// What one click of a turn does; the help of a click is found from the kinds of every
/// legal turn's click at the same place (see [`step_id`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Click {
    /// `pool-gipf` or `pool-single`: the kind of piece to enter (tournament).
    Kind,
    /// The dot a piece enters from.
    Dot,
    /// The first point: the direction of the push.
    Push,
    /// One end of a row to remove.
    Row,
    /// The other end of the row.
    RowEnd,
    /// A GIPF piece of the row to keep.
    Keep,
    /// `done`: the kept pieces are chosen.
    Done,
    /// `end`: the turn ends without the optional rows.
    End,
}

/// The help for a click that can be any of `kinds` (a bit per [`Click`]).
fn step_id(kinds: u16) -> &'static str {
    let has = |c: Click| kinds & 1 << c as u16 != 0;
    if has(Click::Row) && (has(Click::Dot) || has(Click::Kind)) {
        "step-row-or-push"
    } else if has(Click::Row) && has(Click::End) {
        "step-row-or-end"
    } else if has(Click::Keep) {
        "step-keep-gipf"
    } else if has(Click::Done) {
        "step-done"
    } else if has(Click::Row) {
        "step-choose-row"
    } else if has(Click::RowEnd) {
        "step-choose-row-end"
    } else if has(Click::Kind) {
        "step-choose-kind"
    } else if has(Click::Dot) {
        "step-choose-dot"
    } else if has(Click::Push) {
        "step-choose-push"
    } else {
        "step-end-turn"
    }
}

/// Whether the run of a removal holds a GIPF piece (then its kept list is clicked).
fn run_has_gipf(r: &Removal, before: &State) -> bool {
    let (a, b) = (r.first.cell().unwrap_or(0), r.last.cell().unwrap_or(0));
    let line =
        LINES.iter().find(|l| l.mask >> a & 1 == 1 && l.mask >> b & 1 == 1).map_or(0, |l| l.mask);
    let hi = 1u64 << b;
    let run = line & (hi | (hi - 1)) & !((1u64 << a) - 1);
    run & before.board.gipf != 0
}

/// The clicks of one token.
fn token_clicks(token: &Token, before: &State) -> Vec<(String, Click)> {
    let mut out = Vec::new();
    match token {
        Token::Removal(r) => {
            out.push((r.first.name(), Click::Row));
            out.push((r.last.name(), Click::RowEnd));
            if run_has_gipf(r, before) {
                out.extend(r.kept.iter().map(|k| (k.name(), Click::Keep)));
                out.push(("done".to_string(), Click::Done));
            }
        }
        Token::Push { dot, first, gipf } => {
            let p = before.to_move.index();
            if before.variant == Variant::Tournament && before.entry[p] != EntryPhase::Singles {
                let kind = if *gipf { "pool-gipf" } else { "pool-single" };
                out.push((kind.to_string(), Click::Kind));
            }
            out.push((dot.name(), Click::Dot));
            out.push((first.name(), Click::Push));
        }
    }
    out
}

/// The clicks of a turn's tokens, without the final `end`.
fn raw_clicks(state: &State, mv: Move) -> Vec<(String, Click)> {
    replay(state, mv).iter().flat_map(|(token, before)| token_clicks(token, before)).collect()
}

fn raw_path(state: &State, mv: Move) -> Vec<String> {
    raw_clicks(state, mv).into_iter().map(|(id, _)| id).collect()
}

/// A turn's tokens as far as the rules go: the push (or none) after `pre` removal steps.
type TurnKey = (u8, u8, Vec<Step>);

fn turn_key(mv: &Move) -> TurnKey {
    (mv.push, mv.pre, mv.steps[..mv.len as usize].to_vec())
}

/// The keys of the turns that some turn of `moves` strictly extends (the same relation as
/// [`extends`], found for all turns at once).
fn extended_keys(moves: &[Move]) -> HashSet<TurnKey> {
    let mut out = HashSet::new();
    for m in moves {
        // Turns of removals only whose removals are the first of `m`'s pre-push ones.
        for k in 0..=m.pre.min(m.len) {
            if m.push != NO_PUSH || k < m.len {
                out.insert((NO_PUSH, k, m.steps[..k as usize].to_vec()));
            }
        }
        // Turns with the same push and fewer post-push removals.
        if m.push != NO_PUSH {
            for k in m.pre..m.len {
                out.insert((m.push, m.pre, m.steps[..k as usize].to_vec()));
            }
        }
    }
    out
}

/// Whether the tokens of `longer` strictly extend those of `mv` (same position).
fn extends(longer: Move, mv: Move) -> bool {
    let n = mv.len as usize;
    if longer == mv || longer.len < mv.len || longer.steps[..n] != mv.steps[..n] {
        return false;
    }
    if mv.push == NO_PUSH {
        // A turn of removals only: the other turn has the same removals first.
        longer.pre >= mv.len
    } else {
        longer.push == mv.push && longer.pre == mv.pre && longer.len > mv.len
    }
}

const U: f64 = 56.0;
const X0: f64 = 70.0;
const Y0: f64 = 310.0;

/// Where a point is drawn.
fn xy(p: Point) -> (f64, f64) {
    let (x, y) = point_xy(p);
    (X0 + x * U, Y0 + y * U)
}

/// A piece's colour words and paint: (class, fill, stroke).
fn paint(player: Player) -> (&'static str, &'static str, &'static str) {
    match player {
        Player::P1 => ("white", "#fafafa", "#222"),
        Player::P2 => ("black", "#222", "#aaa"),
    }
}

/// A translucent copy of a piece at (x, y), for previews.
fn ghost(out: &mut String, player: Player, gipf: bool, (x, y): (f64, f64)) {
    let (color, fill, stroke) = paint(player);
    let _ = write!(
        out,
        r#"<g class="ghost {color}" opacity="0.7" transform="translate({x:.1},{y:.1})"><circle r="20" fill="{fill}" stroke="{stroke}" stroke-width="3" stroke-dasharray="6 3"/>"#
    );
    if gipf {
        let _ = write!(out, r#"<circle r="11" fill="none" stroke="{stroke}" stroke-width="2"/>"#);
    }
    out.push_str("</g>");
}

/// A row outlined from end point `a` to end point `b`: `class` is `capture` for a row that
/// will or can be removed.
fn outline(out: &mut String, class: &str, a: Point, b: Point) {
    let ((x1, y1), (x2, y2)) = (xy(a), xy(b));
    let length = (x2 - x1).hypot(y2 - y1) + 52.0;
    let angle = (y2 - y1).atan2(x2 - x1).to_degrees();
    let _ = write!(
        out,
        r##"<rect class="{class}" x="{:.1}" y="-26" width="{length:.1}" height="52" rx="26" fill="#d9342b" fill-opacity="0.12" stroke="#d9342b" stroke-width="4" transform="translate({:.1},{:.1}) rotate({angle:.1})"/>"##,
        -length / 2.0,
        (x1 + x2) / 2.0,
        (y1 + y2) / 2.0
    );
}

impl Position {
    /// The state after the legal turn `mv`.
    fn after(&self, mv: Move) -> State {
        let mut next = self.clone();
        next.play(mv);
        *next.state()
    }
}

impl View for Position {
    const TEXTS: [&'static str; 3] = crate::text::TEXTS;
    const RULES: [&'static str; 3] = crate::text::RULES;

    fn diagram(&self) -> String {
        let mut grid = vec![vec![' '; 43]; 17];
        for p in Point::all() {
            let (x, y) = point_xy(p);
            let col = (x / (3f64.sqrt() / 2.0)).round() as usize * 5 + 1;
            let line = ((y + 4.0) * 2.0).round() as usize;
            grid[line][col] = symbol(self, p);
        }
        let mut out = String::new();
        for row in grid {
            let s: String = row.into_iter().collect();
            out.push_str(s.trim_end());
            out.push('\n');
        }
        out.push_str("w/b single piece, W/B GIPF piece, * dot\n");
        for (p, name) in [(Player::P1, "White"), (Player::P2, "Black")] {
            let _ = write!(
                out,
                "{name} ({p}): reserve {}, captured {}",
                self.reserve(p),
                self.captured(p)
            );
            if self.variant_kind() == Variant::Tournament {
                let _ = write!(out, ", entry {}", entry_name(self.entry_phase(p)));
            }
            out.push('\n');
        }
        out
    }

    fn svg(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 530 640" width="530" height="640" class="gipf">"##
        );
        s.push_str(r##"<rect x="0" y="0" width="530" height="640" fill="#e8dcc0"/>"##);
        // The outer hexagon through the corner dots, and the 21 lines from dot to dot.
        let corners = ["a1", "a5", "e9", "i5", "i1", "e1"];
        let pts: Vec<String> = corners
            .iter()
            .map(|c| {
                let (x, y) = xy(Point::parse(c).expect("corner"));
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = write!(
            s,
            r##"<polygon points="{}" fill="#f4ecd8" stroke="#6b5a3a" stroke-width="2"/>"##,
            pts.join(" ")
        );
        s.push_str(r##"<g class="lines" stroke="#6b5a3a" stroke-width="1.5">"##);
        for line in &LINES {
            let a = xy(Point::from_index(line.dots[0] as usize).expect("dot"));
            let b = xy(Point::from_index(line.dots[1] as usize).expect("dot"));
            let _ = write!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
                a.0, a.1, b.0, b.1
            );
        }
        s.push_str("</g>");
        // Clickable points: dots and interior points, id = the point's name.
        for p in Point::all() {
            let (x, y) = xy(p);
            let (class, r, fill) = if p.is_dot() {
                ("target dot", 7.0, "#6b5a3a")
            } else {
                ("target point", 10.0, "#f4ecd8")
            };
            let _ = write!(
                s,
                r##"<circle id="{p}" class="{class}" cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{fill}" stroke="#6b5a3a"/>"##
            );
        }
        // Pieces, id = piece-<point>. They let clicks through to the point below them, since
        // removals are clicked on occupied points.
        for p in Point::all() {
            let Some(piece) = self.piece_at(p) else { continue };
            let (x, y) = xy(p);
            let (color, fill, stroke) = match piece.player {
                Player::P1 => ("white", "#fafafa", "#222"),
                Player::P2 => ("black", "#222", "#aaa"),
            };
            let kind = if piece.gipf { "gipf" } else { "single" };
            let _ = write!(
                s,
                r#"<g id="piece-{p}" class="piece {color} {kind}" pointer-events="none" transform="translate({x:.1},{y:.1})">"#
            );
            if piece.gipf {
                let _ = write!(
                    s,
                    r#"<circle cx="3" cy="4" r="20" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#
                );
            }
            let _ = write!(
                s,
                r#"<circle cx="0" cy="0" r="20" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#
            );
            if piece.gipf {
                let _ = write!(
                    s,
                    r#"<circle cx="0" cy="0" r="11" fill="none" stroke="{stroke}" stroke-width="2"/>"#
                );
            }
            s.push_str("</g>");
        }
        // Coordinates: column letters under the lowest dot of each column, row numbers left
        // of column a (1-5) and up the upper left edge (6-9), clear of dots and pieces.
        s.push_str(r##"<g class="coords" font-family="sans-serif" font-size="13" fill="#8a7a5a" text-anchor="middle" pointer-events="none">"##);
        for col in 0..9u8 {
            let (x, y) = xy(Point::at(col, 1).expect("row 1"));
            let _ = write!(
                s,
                r#"<text x="{x:.1}" y="{:.1}">{}</text>"#,
                y + 25.0,
                (b'a' + col) as char
            );
        }
        for row in 1..=9u8 {
            let (p, dx, dy) = if row <= 5 {
                (Point::at(0, row), -21.0, 4.5)
            } else {
                (Point::at(row - 5, row), -10.5, -13.5)
            };
            let (x, y) = xy(p.expect("on the edge"));
            let _ = write!(s, r#"<text x="{:.1}" y="{:.1}">{row}</text>"#, x + dx, y + dy);
        }
        s.push_str("</g>");
        // Reserves and captures: Black at the top, White at the bottom; whose turn it is (or
        // who won) on the right of the same line; the tournament entry phase under it.
        let over = self.outcome().is_some();
        for (p, name, y, y2) in
            [(Player::P2, "black", 24.0, 44.0), (Player::P1, "white", 616.0, 596.0)]
        {
            let (reserve, captured) = (self.reserve(p), self.captured(p));
            let who = if p == Player::P1 { "White" } else { "Black" };
            let _ = write!(
                s,
                r#"<text id="info-{name}" data-label="label-{name}-info" data-arg-reserve="{reserve}" data-arg-captured="{captured}" x="12" y="{y}" font-family="sans-serif" font-size="15">{who}: reserve {reserve} · captured {captured}</text>"#
            );
            let status = match self.outcome() {
                None if self.to_move() == p => Some(("label-to-move", "to move")),
                Some(ply_core::Outcome::Win(w)) if w == p => Some(("label-winner", "wins")),
                _ => None,
            };
            if let Some((id, text)) = status {
                let _ = write!(
                    s,
                    r#"<text id="status-{name}" data-label="{id}" x="518" y="{y}" font-family="sans-serif" font-size="15" font-weight="bold" text-anchor="end">{text}</text>"#
                );
            }
            if self.variant_kind() == Variant::Tournament && !over {
                let (id, text) = match self.entry_phase(p) {
                    EntryPhase::NotStarted => ("label-entry-start", "must enter a GIPF piece"),
                    EntryPhase::GipfPieces => ("label-entry-gipf", "GIPF pieces or singles"),
                    EntryPhase::Singles => ("label-entry-singles", "singles only"),
                };
                let _ = write!(
                    s,
                    r##"<text id="entry-{name}" data-label="{id}" x="12" y="{y2}" font-family="sans-serif" font-size="13" fill="#6b5a3a">{text}</text>"##
                );
            }
            let _ = write!(
                s,
                r#"<g id="reserve-{name}" class="reserve {name}" data-chips="{reserve}"></g><g id="captured-{name}" class="captured {name}" data-chips="{captured}"></g>"#
            );
        }
        // Buttons: the kind of piece to enter (tournament), `done` (closes a removal's kept
        // list) and `end` (ends a turn that could go on with optional removals).
        let mut button = |id: &str, label: &str, text: &str, x: f64, y: f64| {
            let _ = write!(
                s,
                r##"<g id="{id}" class="target button"><rect x="{x}" y="{y}" width="80" height="26" rx="5" fill="#fff8e8" stroke="#6b5a3a"/><text data-label="{label}" x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="13" text-anchor="middle">{text}</text></g>"##,
                x + 40.0,
                y + 17.0
            );
        };
        if self.variant_kind() == Variant::Tournament {
            button("pool-gipf", "label-gipf-piece", "GIPF piece", 440.0, 40.0);
            button("pool-single", "label-single", "single", 440.0, 72.0);
        }
        button("done", "label-done", "done", 440.0, 540.0);
        button("end", "label-end-turn", "end turn", 440.0, 572.0);
        s.push_str("</svg>");
        s
    }

    fn click_path(&self, mv: Move) -> Vec<String> {
        let mut path = raw_path(self.state(), mv);
        // A turn's path is a prefix of another's exactly when its tokens are (each token's
        // path is self-delimiting), and that can only happen in `tournament`, where optional
        // rows may be left standing.
        if self.variant_kind() == Variant::Tournament {
            let mut moves = Vec::new();
            self.legal_moves(&mut moves);
            if moves.iter().any(|&other| extends(other, mv)) {
                path.push("end".to_string());
            }
        }
        path
    }

    fn click_steps(&self, mv: Move) -> Vec<&'static str> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let ends = if self.variant_kind() == Variant::Tournament {
            extended_keys(&moves)
        } else {
            HashSet::new()
        };
        let clicks = |m: Move| {
            let mut c = raw_clicks(self.state(), m);
            if ends.contains(&turn_key(&m)) {
                c.push(("end".to_string(), Click::End));
            }
            c
        };
        // The help for a click says what it can do in any turn that the clicks before it
        // still allow.
        let mine = clicks(mv);
        let mut kinds = vec![0u16; mine.len()];
        for &m in &moves {
            let other = clicks(m);
            let common = mine.iter().zip(&other).take_while(|(a, b)| a.0 == b.0).count();
            for (i, c) in other.iter().enumerate().take(common + 1).take(mine.len()) {
                kinds[i] |= 1 << c.1 as u16;
            }
        }
        kinds.into_iter().map(step_id).collect()
    }

    fn preview(&self, prefix: &[String], moves: &[Move]) -> String {
        let Some(&first) = moves.first() else { return String::new() };
        let start = self.state();
        let tokens = replay(start, first);
        // The tokens the clicks completed (the same in every turn of `moves`: tokens are
        // self-delimiting), and how far they went into the next one.
        let (mut t, mut used) = (0, 0);
        while let Some((token, before)) = tokens.get(t) {
            let n = token_clicks(token, before).len();
            if used + n > prefix.len() {
                break;
            }
            used += n;
            t += 1;
        }
        let partial = &prefix[used..];
        let board = tokens.get(t).map_or_else(|| self.after(first).board, |(_, st)| st.board);
        let mut out = String::new();
        // The rows the turn removes (or may remove) next, up to the push: every row that
        // some turn of `moves` takes from here.
        let mut rows: Vec<(Point, Point)> = Vec::new();
        for &m in moves {
            for (token, _) in replay(start, m).into_iter().skip(t) {
                let Token::Removal(r) = token else { break };
                if !rows.contains(&(r.first, r.last)) {
                    rows.push((r.first, r.last));
                }
            }
        }
        for (a, b) in rows {
            outline(&mut out, "capture", a, b);
        }
        // Pieces the completed removals take.
        let mut gone = start.board.occupied() & !board.occupied();
        while gone != 0 {
            let (x, y) = xy(crate::geometry::cell_point(gone.trailing_zeros()));
            gone &= gone - 1;
            let _ = write!(
                out,
                r##"<circle class="capture" cx="{x:.1}" cy="{y:.1}" r="22" fill="#d9342b" fill-opacity="0.35" stroke="#d9342b" stroke-width="3"/>"##
            );
        }
        // The push, once chosen: the run in its new places and the entering piece.
        for (k, (token, before)) in tokens.iter().enumerate() {
            let Token::Push { dot, .. } = token else { continue };
            if k >= t {
                // Being chosen: the entering piece on its dot once the dot is clicked.
                let gipf = first.push & GIPF_BIT != 0;
                if k == t && partial.last() == Some(&dot.name()) {
                    ghost(&mut out, start.to_move, gipf, xy(*dot));
                }
                break;
            }
            let entry = &ENTRIES[(first.push & !GIPF_BIT) as usize];
            let ray = &entry.ray[..entry.len as usize];
            let occupied = before.board.occupied();
            let run = ray.iter().take_while(|&&c| occupied >> c & 1 == 1).count();
            let cells = &ray[..=run.min(ray.len() - 1)];
            let (x1, y1) = xy(*dot);
            let (x2, y2) = xy(crate::geometry::cell_point(u32::from(cells[cells.len() - 1])));
            let _ = write!(
                out,
                r##"<line class="push" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#2a6fdb" stroke-opacity="0.5" stroke-width="6" stroke-linecap="round"/>"##
            );
            for &c in cells {
                let p = crate::geometry::cell_point(u32::from(c));
                if let Some(piece) = board.piece_at(p) {
                    let (x, y) = xy(p);
                    let _ =
                        write!(out, r##"<circle cx="{x:.1}" cy="{y:.1}" r="25" fill="#f4ecd8"/>"##);
                    ghost(&mut out, piece.player, piece.gipf, (x, y));
                }
            }
        }
        // GIPF pieces chosen to be kept.
        if matches!(tokens.get(t), Some((Token::Removal(_), _))) {
            for id in partial.iter().skip(2) {
                if let Ok(p) = Point::parse(id) {
                    let (x, y) = xy(p);
                    let _ = write!(
                        out,
                        r##"<circle class="keep" cx="{x:.1}" cy="{y:.1}" r="24" fill="none" stroke="#1e8c3a" stroke-width="4"/>"##
                    );
                }
            }
        }
        if out.is_empty() {
            return out;
        }
        format!(r#"<g class="preview" pointer-events="none">{out}</g>"#)
    }

    fn end_reason(&self) -> Option<&'static str> {
        let ply_core::Outcome::Win(winner) = self.outcome()? else { return None };
        let st = self.state();
        let loser = winner.other();
        let no_gipf = st.board.color[loser.index()] & st.board.gipf == 0;
        if st.variant != Variant::Basic && st.committed(loser) && no_gipf {
            Some("end-no-gipf")
        } else {
            Some("end-no-reserve")
        }
    }

    fn motions(&self, mv: Move) -> Vec<Motion> {
        // Where the piece now on each cell was drawn before the turn: a piece id, or the dot
        // it entered from. A push shifts the run in front of the entering piece by one cell.
        let mut origin: [Option<String>; 64] = std::array::from_fn(|_| None);
        let occupied = |st: &State| st.board.color[0] | st.board.color[1];
        let mut bits = occupied(self.state());
        while bits != 0 {
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            origin[cell] = Some(format!("piece-{}", cell_name(cell)));
        }
        let tokens = replay(self.state(), mv);
        let end = occupied(&self.after(mv));
        for (k, (token, before)) in tokens.iter().enumerate() {
            match token {
                Token::Removal(_) => {
                    let after = tokens.get(k + 1).map_or(end, |(_, next)| occupied(next));
                    let mut gone = occupied(before) & !after;
                    while gone != 0 {
                        origin[gone.trailing_zeros() as usize] = None;
                        gone &= gone - 1;
                    }
                }
                Token::Push { dot, .. } => {
                    let entry = &ENTRIES[(mv.push & !GIPF_BIT) as usize];
                    let ray = &entry.ray[..entry.len as usize];
                    let run = ray.iter().take_while(|&&c| occupied(before) >> c & 1 == 1).count();
                    for i in (1..=run.min(ray.len() - 1)).rev() {
                        origin[ray[i] as usize] = origin[ray[i - 1] as usize].take();
                    }
                    origin[ray[0] as usize] = Some(dot.name());
                }
            }
        }
        let mut out = Vec::new();
        let mut bits = end;
        while bits != 0 {
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let piece = format!("piece-{}", cell_name(cell));
            if let Some(from) = origin[cell].take().filter(|from| *from != piece) {
                out.push(Motion::new(piece, from));
            }
        }
        out
    }

    fn state_json(&self) -> Value {
        let mut board = Map::new();
        for p in Point::all() {
            if let Some(piece) = self.piece_at(p) {
                let c = if piece.player == Player::P1 { "W" } else { "B" };
                let v = if piece.gipf { c.repeat(2) } else { c.to_string() };
                board.insert(p.name(), Value::String(v));
            }
        }
        let mut v = json!({
            "board": board,
            "colors": { "P1": "white", "P2": "black" },
            "reserve": { "P1": self.reserve(Player::P1), "P2": self.reserve(Player::P2) },
            "captured": { "P1": self.captured(Player::P1), "P2": self.captured(Player::P2) },
            "chips_on_board": {
                "P1": self.chips_on_board(Player::P1),
                "P2": self.chips_on_board(Player::P2),
            },
        });
        if self.variant_kind() == Variant::Tournament {
            v["entry"] = json!({
                "P1": entry_name(self.entry_phase(Player::P1)),
                "P2": entry_name(self.entry_phase(Player::P2)),
            });
        }
        v
    }
}
