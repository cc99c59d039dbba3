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

use std::fmt::Write;

use ply_core::{Game, Motion, Player, View};
use serde_json::{Map, Value, json};

use crate::geometry::{CELL_POINT, ENTRIES, LINES, Point, point_xy};
use crate::notation::{Token, replay};
use crate::{EntryPhase, GIPF_BIT, Move, NO_PUSH, Position, State, Variant};

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

fn raw_path(state: &State, mv: Move) -> Vec<String> {
    let mut out = Vec::new();
    for (token, before) in replay(state, mv) {
        match token {
            Token::Removal(r) => {
                out.push(r.first.name());
                out.push(r.last.name());
                let run_has_gipf = {
                    let (a, b) = (r.first.cell().unwrap_or(0), r.last.cell().unwrap_or(0));
                    let line = LINES
                        .iter()
                        .find(|l| l.mask >> a & 1 == 1 && l.mask >> b & 1 == 1)
                        .map_or(0, |l| l.mask);
                    let hi = 1u64 << b;
                    let run = line & (hi | (hi - 1)) & !((1u64 << a) - 1);
                    run & before.board.gipf != 0
                };
                if run_has_gipf {
                    out.extend(r.kept.iter().map(|k| k.name()));
                    out.push("done".to_string());
                }
            }
            Token::Push { dot, first, gipf } => {
                let p = before.to_move.index();
                if before.variant == Variant::Tournament && before.entry[p] != EntryPhase::Singles {
                    out.push(if gipf { "pool-gipf" } else { "pool-single" }.to_string());
                }
                out.push(dot.name());
                out.push(first.name());
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

impl Position {
    /// The state after the legal turn `mv`.
    fn after(&self, mv: Move) -> State {
        let mut next = self.clone();
        next.play(mv);
        *next.state()
    }
}

impl View for Position {
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
        const U: f64 = 56.0;
        const X0: f64 = 70.0;
        const Y0: f64 = 310.0;
        let xy = |p: Point| {
            let (x, y) = point_xy(p);
            (X0 + x * U, Y0 + y * U)
        };
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
        // Reserves and captures: Black at the top, White at the bottom.
        for (p, name, y) in [(Player::P2, "black", 24.0), (Player::P1, "white", 616.0)] {
            let to_move =
                if self.to_move() == p && self.outcome().is_none() { " (to move)" } else { "" };
            let mut label = format!(
                "{}{to_move}: reserve {} · captured {}",
                if p == Player::P1 { "White" } else { "Black" },
                self.reserve(p),
                self.captured(p)
            );
            if self.variant_kind() == Variant::Tournament {
                let _ = write!(label, " · entry {}", entry_name(self.entry_phase(p)));
            }
            let _ = write!(
                s,
                r#"<text id="info-{name}" x="12" y="{y}" font-family="sans-serif" font-size="15">{label}</text>"#
            );
            let _ = write!(
                s,
                r#"<g id="reserve-{name}" class="reserve {name}" data-chips="{}"></g><g id="captured-{name}" class="captured {name}" data-chips="{}"></g>"#,
                self.reserve(p),
                self.captured(p)
            );
        }
        // Buttons: the kind of piece to enter (tournament), `done` (closes a removal's kept
        // list) and `end` (ends a turn that could go on with optional removals).
        let mut button = |id: &str, label: &str, x: f64, y: f64| {
            let _ = write!(
                s,
                r##"<g id="{id}" class="target button"><rect x="{x}" y="{y}" width="80" height="26" rx="5" fill="#fff8e8" stroke="#6b5a3a"/><text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="13" text-anchor="middle">{label}</text></g>"##,
                x + 40.0,
                y + 17.0
            );
        };
        if self.variant_kind() == Variant::Tournament {
            button("pool-gipf", "GIPF piece", 440.0, 40.0);
            button("pool-single", "single", 440.0, 72.0);
        }
        button("done", "done", 440.0, 540.0);
        button("end", "end turn", 440.0, 572.0);
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
