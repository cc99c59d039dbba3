//! Text diagram, SVG picture, click paths and JSON view.

use std::fmt::Write;

use ply_core::{Game, Motion, Player, View};
use serde_json::{Map, Value, json};

use crate::board::{Bits, NONE};
use crate::{Colour, Move, Position};

/// The id of a player's captures of one colour: `p1-cap-W`.
fn cap_id(p: Player, c: Colour) -> String {
    format!("p{}-cap-{}", p.index() + 1, c.letter())
}

impl Position {
    /// Height of ring `i` in half-steps (larger is higher).
    fn half_height(&self, i: u8) -> i32 {
        let l = self.layout();
        2 * i32::from(l.s[i as usize]) + i32::from(l.q[i as usize])
    }
}

impl View for Position {
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
        let dx = 26.0_f64;
        let dy = 15.0_f64;
        let cols = f64::from(l.col[l.n - 1]) + 1.0;
        let top = Bits(l.all).map(|i| self.half_height(i)).max().unwrap_or(0);
        let bottom = Bits(l.all).map(|i| self.half_height(i)).min().unwrap_or(0);
        let board_h = f64::from(top - bottom) * dy + 60.0;
        let width = (cols * dx + 40.0).max(300.0);
        let height = board_h + 110.0;
        let mut o = String::new();
        let _ = write!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" class="zertz board-{}">"#,
            self.variant_kind().id()
        );
        o.push_str(r##"<rect x="0" y="0" width="100%" height="100%" fill="#2f4f3f"/>"##);
        let fill = |c: Colour| match c {
            Colour::White => "#f4f4f0",
            Colour::Grey => "#8c8c8c",
            Colour::Black => "#161616",
        };
        let pos_of = |i: u8| {
            let x = 30.0 + f64::from(l.col[i as usize]) * dx;
            let y = 30.0 + f64::from(top - self.half_height(i)) * dy;
            (x, y)
        };
        o.push_str(r#"<g class="rings">"#);
        for i in Bits(s.rings) {
            let (x, y) = pos_of(i);
            let name = l.name(i);
            let _ = write!(
                o,
                r##"<circle id="{name}" class="target ring" cx="{x}" cy="{y}" r="12" fill="#c9b27c" stroke="#6d5a2c" stroke-width="3"><title>{name}</title></circle>"##
            );
        }
        o.push_str("</g><g class=\"marbles\">");
        for i in Bits(s.occupied()) {
            let (x, y) = pos_of(i);
            let c = s.colour_at(i).unwrap_or(Colour::White);
            let _ = write!(
                o,
                r##"<circle id="marble-{}" class="marble {}" cx="{x}" cy="{y}" r="9" fill="{}" stroke="#000" stroke-width="1" pointer-events="none"/>"##,
                l.name(i),
                c.letter(),
                fill(c)
            );
        }
        o.push_str("</g>");
        let rack = |o: &mut String, id: &str, label: &str, y: f64, counts: [u8; 3]| {
            let _ = write!(
                o,
                r##"<text x="10" y="{}" font-size="12" fill="#fff">{label}</text>"##,
                y + 4.0
            );
            for c in Colour::ALL {
                let x = 100.0 + 50.0 * c.index() as f64;
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
        rack(&mut o, "pool-", "pool", board_h + 15.0, s.pool);
        for p in Player::BOTH {
            let id = cap_id(p, Colour::White);
            let prefix = &id[..id.len() - 1];
            rack(
                &mut o,
                prefix,
                &format!("{p} captures"),
                board_h + 45.0 + 30.0 * p.index() as f64,
                s.captures[p.index()],
            );
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
