//! Text diagram, SVG picture, click paths and JSON view.

use std::fmt::Write;

use ply_core::{Game, Motion, Outcome, Player, View};
use serde_json::{Map, Value, json};

use crate::geometry::{Bits, NONE};
use crate::rules::Position;
use crate::types::{Colour, Move};

/// The id of a player's captures of one colour: `p1-cap-W`.
fn cap_id(p: Player, c: Colour) -> String {
    format!("p{}-cap-{}", p.index() + 1, c.letter())
}

/// Where the racks' first marble is drawn.
const RACK_X: f64 = 140.0;

fn colour_fill(c: Colour) -> &'static str {
    match c {
        Colour::White => "#f4f4f0",
        Colour::Grey => "#8c8c8c",
        Colour::Black => "#161616",
    }
}

/// The picture's size and where each ring is drawn.
struct Geometry {
    width: f64,
    height: f64,
    /// Height of the board part, above the racks.
    board_h: f64,
    top: i32,
    half_height: [i32; 61],
    col: [u8; 61],
}

impl Geometry {
    const DX: f64 = 26.0;
    const DY: f64 = 15.0;

    fn pos(&self, i: u8) -> (f64, f64) {
        let x = 30.0 + f64::from(self.col[i as usize]) * Self::DX;
        let y = 30.0 + f64::from(self.top - self.half_height[i as usize]) * Self::DY;
        (x, y)
    }
}

impl Position {
    fn geometry(&self) -> Geometry {
        let l = self.layout();
        let cols = f64::from(l.col[l.n - 1]) + 1.0;
        let mut half_height = [0; 61];
        for i in Bits(l.all) {
            half_height[i as usize] = self.half_height(i);
        }
        let top = Bits(l.all).map(|i| half_height[i as usize]).max().unwrap_or(0);
        let bottom = Bits(l.all).map(|i| half_height[i as usize]).min().unwrap_or(0);
        let board_h = f64::from(top - bottom) * Geometry::DY + 60.0;
        Geometry {
            width: (cols * Geometry::DX + 40.0).max(360.0),
            height: board_h + 110.0,
            board_h,
            top,
            half_height,
            col: l.col,
        }
    }

    /// Height of ring `i` in half-steps (larger is higher).
    fn half_height(&self, i: u8) -> i32 {
        let l = self.layout();
        2 * i32::from(l.s[i as usize]) + i32::from(l.q[i as usize])
    }
}

impl View for Position {
    const TEXTS: [&'static str; 3] = crate::text::TEXTS;
    const RULES: [&'static str; 3] = crate::text::RULES;

    fn diagram(&self) -> String {
        let l = self.layout();
        let s = self.state();
        let all: Vec<u8> = Bits(l.all).collect();
        let top = all.iter().map(|&i| self.half_height(i)).max().unwrap_or(0);
        let bottom = all.iter().map(|&i| self.half_height(i)).min().unwrap_or(0);
        let width = 4 * (l.col[l.n - 1] as usize) + 4;
        let mut out = String::new();
        for y in (bottom..=top).rev() {
            let mut line = vec![b' '; width];
            for &i in &all {
                if self.half_height(i) != y || s.rings & (1u64 << i) == 0 {
                    continue;
                }
                let x = 4 * l.col[i as usize] as usize;
                let name = l.name(i);
                let cell = match s.colour_at(i) {
                    Some(c) => format!("{}{name}", c.letter()),
                    None => format!(" {name}"),
                };
                line[x..x + 3].copy_from_slice(cell.as_bytes());
            }
            let text = String::from_utf8_lossy(&line).trim_end().to_string();
            if !text.is_empty() {
                out.push_str(&text);
                out.push('\n');
            }
        }
        let count = |v: [u8; 3]| format!("W {} G {} B {}", v[0], v[1], v[2]);
        let _ = writeln!(out, "pool: {}", count(s.pool));
        for p in Player::BOTH {
            let _ = writeln!(out, "{p} captures: {}", count(s.captures[p.index()]));
        }
        out
    }

    fn svg(&self) -> String {
        let l = self.layout();
        let s = self.state();
        let g = self.geometry();
        let (width, height, board_h) = (g.width, g.height, g.board_h);
        let mut o = String::new();
        let _ = write!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" class="zertz board-{}">"#,
            self.variant_kind().id()
        );
        o.push_str(r##"<rect x="0" y="0" width="100%" height="100%" fill="#2f4f3f"/>"##);
        // Coordinates of every ring of the board, removed or not, so they never move: the
        // column letter under the column's lowest ring, the row number left of the row's
        // leftmost ring (up and left of it when that ring tops its column).
        o.push_str(r##"<g class="coords" font-family="sans-serif" font-size="10" fill="#a9c2b2" text-anchor="middle" pointer-events="none">"##);
        let mut lowest: [Option<u8>; 9] = [None; 9];
        let mut leftmost: [Option<u8>; 10] = [None; 10];
        for i in Bits(l.all) {
            let (c, r) = (l.col[i as usize] as usize, l.row[i as usize] as usize);
            if lowest[c].is_none_or(|j| l.row[j as usize] as usize > r) {
                lowest[c] = Some(i);
            }
            if leftmost[r].is_none_or(|j| l.col[j as usize] as usize > c) {
                leftmost[r] = Some(i);
            }
        }
        for i in lowest.into_iter().flatten() {
            let (x, y) = g.pos(i);
            let _ = write!(
                o,
                r#"<text x="{x}" y="{}">{}</text>"#,
                y + 26.0,
                (b'a' + l.col[i as usize]) as char
            );
        }
        for i in leftmost.into_iter().flatten() {
            let (x, y) = g.pos(i);
            let (c, r) = (l.col[i as usize], l.row[i as usize]);
            let tops_column = l.lookup(c, r + 1).is_none();
            let (x, y) =
                if c > 0 && tops_column { (x - 15.0, y - 13.0) } else { (x - 21.0, y + 3.5) };
            let _ = write!(o, r#"<text x="{x}" y="{y}">{r}</text>"#);
        }
        o.push_str("</g>");
        let fill = colour_fill;
        o.push_str(r#"<g class="rings">"#);
        for i in Bits(s.rings) {
            let (x, y) = g.pos(i);
            let name = l.name(i);
            let _ = write!(
                o,
                r##"<circle id="{name}" class="target ring piece" cx="{x}" cy="{y}" r="12" fill="#c9b27c" stroke="#6d5a2c" stroke-width="3"><title>{name}</title></circle>"##
            );
        }
        o.push_str("</g><g class=\"marbles\">");
        for i in Bits(s.occupied()) {
            let (x, y) = g.pos(i);
            let c = s.colour_at(i).unwrap_or(Colour::White);
            let _ = write!(
                o,
                r##"<circle id="marble-{}" class="marble piece {}" cx="{x}" cy="{y}" r="9" fill="{}" stroke="#000" stroke-width="1" pointer-events="none"/>"##,
                l.name(i),
                c.letter(),
                fill(c)
            );
        }
        o.push_str("</g>");
        // The pool and each player's captures: a rack of the three colours with counts, the
        // row's name on the left, whose turn it is (or who won) on the right.
        let rack = |o: &mut String,
                    id: &str,
                    (label, text): (&str, &str),
                    y: f64,
                    counts: [u8; 3]| {
            let _ = write!(
                o,
                r##"<text {label} x="10" y="{}" font-family="sans-serif" font-size="12" fill="#fff">{text}</text>"##,
                y + 4.0
            );
            for c in Colour::ALL {
                let x = RACK_X + 50.0 * c.index() as f64;
                let n = counts[c.index()];
                let _ = write!(
                    o,
                    r##"<g id="{id}{}" class="target rack {}"><circle cx="{x}" cy="{y}" r="9" fill="{}" stroke="#000"/><text x="{}" y="{}" font-size="12" fill="#fff">{n}</text></g>"##,
                    c.letter(),
                    c.letter(),
                    fill(c),
                    x + 13.0,
                    y + 4.0
                );
            }
        };
        rack(&mut o, "pool-", (r#"data-label="label-pool""#, "pool"), board_h + 15.0, s.pool);
        for p in Player::BOTH {
            let id = cap_id(p, Colour::White);
            let prefix = &id[..id.len() - 1];
            let y = board_h + 45.0 + 30.0 * p.index() as f64;
            let n = p.index() + 1;
            let label = format!(r#"data-label="label-captures" data-arg-player="{n}""#);
            let text = format!("Player {n} captured");
            rack(&mut o, prefix, (&label, &text), y, s.captures[p.index()]);
            let status = match s.outcome {
                None if s.to_move == p => Some(("label-to-move", "to move")),
                Some(Outcome::Win(w)) if w == p => Some(("label-winner", "wins")),
                _ => None,
            };
            if let Some((label, text)) = status {
                let _ = write!(
                    o,
                    r##"<text id="status-p{n}" data-label="{label}" x="{}" y="{}" font-family="sans-serif" font-size="12" font-weight="bold" fill="#ffd966" text-anchor="end">{text}</text>"##,
                    width - 8.0,
                    y + 4.0
                );
            }
        }
        o.push_str("</svg>");
        o
    }

    fn click_path(&self, mv: Move) -> Vec<String> {
        let l = self.layout();
        match mv {
            Move::Place { colour, ring, remove } => {
                let source = if self.pool_empty() {
                    cap_id(self.state().to_move, colour)
                } else {
                    format!("pool-{}", colour.letter())
                };
                let mut path = vec![source, l.name(ring)];
                if remove != NONE {
                    path.push(l.name(remove));
                }
                path
            }
            Move::Capture { start, len, dirs } => {
                let mut path = vec![l.name(start)];
                let mut at = start;
                for k in 0..len {
                    let d = Move::jump_direction(dirs, k);
                    at = l.nb[l.nb[at as usize][d] as usize][d];
                    path.push(l.name(at));
                }
                path
            }
        }
    }

    fn click_steps(&self, mv: Move) -> Vec<&'static str> {
        match mv {
            Move::Place { remove, .. } => {
                let mut steps = vec!["step-choose-colour", "step-place-marble"];
                if remove != NONE {
                    steps.push("step-remove-ring");
                }
                steps
            }
            Move::Capture { len, .. } => {
                let mut steps = vec!["step-choose-jumper"];
                steps.extend(std::iter::repeat_n("step-jump", len as usize));
                steps
            }
        }
    }

    fn preview(&self, prefix: &[String], moves: &[Move]) -> String {
        let Some(&mv) = moves.first() else { return String::new() };
        let l = self.layout();
        let g = self.geometry();
        let mut o = String::new();
        match mv {
            Move::Place { colour, ring, .. } => {
                if prefix.len() < 2 {
                    return String::new();
                }
                // The marble on its ring, and the rings that may be removed after it.
                let (x, y) = g.pos(ring);
                let _ = write!(
                    o,
                    r##"<circle class="ghost {}" cx="{x}" cy="{y}" r="9" fill="{}" fill-opacity="0.7" stroke="#ffd966" stroke-width="2" stroke-dasharray="3 2"/>"##,
                    colour.letter(),
                    colour_fill(colour)
                );
                let mut removable = 0u64;
                for m in moves {
                    if let Move::Place { remove, .. } = *m
                        && remove != NONE
                    {
                        removable |= 1 << remove;
                    }
                }
                for i in Bits(removable) {
                    let (x, y) = g.pos(i);
                    let _ = write!(
                        o,
                        r##"<circle class="removable" cx="{x}" cy="{y}" r="15" fill="none" stroke="#ff8a65" stroke-width="2" stroke-dasharray="4 3"/>"##
                    );
                }
            }
            Move::Capture { start, dirs, .. } => {
                let Some(jumper) = self.state().colour_at(start) else { return String::new() };
                let jumps = prefix.len().saturating_sub(1);
                let (sx, sy) = g.pos(start);
                if jumps == 0 {
                    let _ = write!(
                        o,
                        r##"<circle class="chosen" cx="{sx}" cy="{sy}" r="14" fill="none" stroke="#ffd966" stroke-width="3"/>"##
                    );
                }
                // The jumps made so far: the route, the marbles jumped (taken), the jumper at
                // its ring now.
                let mut at = start;
                let mut route = format!("{sx},{sy}");
                for k in 0..jumps {
                    let d = Move::jump_direction(dirs, k as u8);
                    let over = l.nb[at as usize][d];
                    at = l.nb[over as usize][d];
                    let (x, y) = g.pos(over);
                    let _ = write!(
                        o,
                        r##"<circle class="capture" cx="{x}" cy="{y}" r="11" fill="#d9342b" fill-opacity="0.45" stroke="#d9342b" stroke-width="2"/>"##
                    );
                    let (x, y) = g.pos(at);
                    let _ = write!(route, " {x},{y}");
                }
                if jumps > 0 {
                    let (x, y) = g.pos(at);
                    let _ = write!(
                        o,
                        r##"<polyline class="route" points="{route}" fill="none" stroke="#ffd966" stroke-width="3" stroke-opacity="0.8"/><circle cx="{sx}" cy="{sy}" r="10" fill="#c9b27c" fill-opacity="0.8"/><circle class="ghost {}" cx="{x}" cy="{y}" r="9" fill="{}" fill-opacity="0.8" stroke="#ffd966" stroke-width="2" stroke-dasharray="3 2"/>"##,
                        jumper.letter(),
                        colour_fill(jumper)
                    );
                }
            }
        }
        format!(r#"<g class="preview" pointer-events="none">{o}</g>"#)
    }

    fn end_reason(&self) -> Option<&'static str> {
        let s = self.state();
        let winner = match s.outcome? {
            Outcome::Draw => return Some("end-repetition"),
            Outcome::Win(w) => w,
        };
        if s.rings == 0 {
            return Some("end-full-board");
        }
        let caps = s.captures[winner.index()];
        let variant = self.variant_kind();
        if !variant.is_win(caps) {
            return Some("end-no-move");
        }
        let (single, each) = variant.win_thresholds();
        let blitz = variant == crate::types::Variant::Blitz;
        Some(if caps[0] >= single[0] {
            if blitz { "end-white-3" } else { "end-white-4" }
        } else if caps[1] >= single[1] {
            if blitz { "end-grey-4" } else { "end-grey-5" }
        } else if caps[2] >= single[2] {
            if blitz { "end-black-5" } else { "end-black-6" }
        } else if caps.iter().all(|&c| c >= each) {
            if blitz { "end-each-2" } else { "end-each-3" }
        } else {
            "end-no-move"
        })
    }

    fn motions(&self, mv: Move) -> Vec<Motion> {
        let l = self.layout();
        let (piece, from) = match mv {
            Move::Place { ring, .. } => {
                let path = self.click_path(mv);
                (ring, path.into_iter().next().expect("a placement's path starts at a rack"))
            }
            Move::Capture { start, len, dirs } => {
                let mut at = start;
                for k in 0..len {
                    let d = Move::jump_direction(dirs, k);
                    at = l.nb[l.nb[at as usize][d] as usize][d];
                }
                (at, format!("marble-{}", l.name(start)))
            }
        };
        // A placed marble can be taken at once with an isolated group: then nothing travels.
        let mut after = self.clone();
        after.play(mv);
        if after.state().occupied() >> piece & 1 == 0 {
            return Vec::new();
        }
        vec![Motion::new(format!("marble-{}", l.name(piece)), from)]
    }

    fn state_json(&self) -> Value {
        let l = self.layout();
        let s = self.state();
        let mut board = Map::new();
        for i in Bits(s.rings) {
            let v = s.colour_at(i).map_or(Value::Null, |c| json!(c.letter().to_string()));
            board.insert(l.name(i), v);
        }
        let counts = |v: [u8; 3]| json!({ "W": v[0], "G": v[1], "B": v[2] });
        json!({
            "board": board,
            "rings": s.rings.count_ones(),
            "free": Bits(self.free_rings()).map(|i| l.name(i)).collect::<Vec<_>>(),
            "pool": counts(s.pool),
            "captures": { "P1": counts(s.captures[0]), "P2": counts(s.captures[1]) },
            "pool_empty": self.pool_empty(),
            "turns": self.turns_played(),
        })
    }
}
