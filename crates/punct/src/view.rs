//! Pictures: text diagram, SVG with stable ids, click paths and JSON.
//!
//! SVG ids: every board point is a `circle` with its cell name as id (`g3`, class `target`);
//! every piece is a `g` with id `piece-<PÜNCT point>-<level>` (unique: the dots over one point
//! have different levels); each player's supply of each kind is a `g` with id `p1-hand-T` …
//! `p2-hand-R` (class `target`); the pass button has id `pass`.
//!
//! Click paths: a placement `Tg3:g4,h4` is `[p1-hand-T, g3, g4, h4]` (the mover's hand), a
//! shift `g3-g8:g9,h9` is `[g3, g8, g9, h9]`, a rotation in place `g3-g3:h3,h4` is
//! `[g3, g3, h3, h4]` (the second click on the same point says "stay here"), and `pass` is
//! `[pass]`. Every placement and shift path has four items and names its move completely, and
//! placement paths start with a hand id while shift paths start with a point, so no path is a
//! prefix of another.

use std::fmt::Write as _;

use ply_core::{Game, Motion, Player, View};
use serde_json::{Value, json};

use crate::geometry::{COORD, N_POINTS};
use crate::geometry::{Kind, Point};
use crate::rules::Position;
use crate::types::{Move, PieceInfo};

const S: f64 = 34.0;
const MARGIN: f64 = 30.0;
const LEVEL_LIFT: f64 = 6.0;

fn xy(p: Point) -> (f64, f64) {
    let (c, r) = COORD[p.index()];
    let (c, r) = (f64::from(c), f64::from(r));
    (MARGIN + (c - 1.0) * S * 0.866, MARGIN + (12.0 - (r - c / 2.0)) * S)
}

/// The polyline points of a piece with its PÜNCT dot on `punct` in orientation `orient`,
/// lifted by `lift`: through the middle dot for straight and angled pieces, round the
/// triangle for a T.
fn shape_path(punct: Point, orient: crate::geometry::Orient, lift: f64) -> String {
    let Some(pts) = crate::geometry::shape_points(punct, orient) else { return String::new() };
    let order = match orient.middle() {
        None => vec![pts[0], pts[1], pts[2], pts[0]],
        Some(0) => vec![pts[1], pts[0], pts[2]],
        Some(_) => pts.to_vec(),
    };
    let path: Vec<String> = order
        .iter()
        .map(|&p| {
            let (x, y) = xy(p);
            format!("{x:.1},{:.1}", y - lift)
        })
        .collect();
    path.join(" ")
}

/// The left edge of the supplies.
fn hand_x() -> f64 {
    MARGIN * 2.0 + 16.0 * S * 0.866 + 10.0
}

fn colour_name(p: Player) -> &'static str {
    match p {
        Player::P1 => "p1",
        Player::P2 => "p2",
    }
}

fn hand_id(p: Player, k: Kind) -> String {
    format!("{}-hand-{}", colour_name(p), k.letter())
}

impl Position {
    /// For each piece, whether each of its dots `[PÜNCT, plain, plain]` has a dot directly
    /// below it (one level lower) or lies on the board.
    fn supported_dots(&self, pieces: &[PieceInfo], pc: &PieceInfo) -> [bool; 3] {
        let pts = [pc.punct, pc.plain[0], pc.plain[1]];
        pts.map(|p| {
            pc.level == 1
                || pieces
                    .iter()
                    .any(|o| o.level + 1 == pc.level && (o.punct == p || o.plain.contains(&p)))
        })
    }
}

impl View for Position {
    const TEXTS: [&'static str; 3] = crate::text::TEXTS;
    const RULES: [&'static str; 3] = crate::text::RULES;

    fn diagram(&self) -> String {
        let pieces = self.pieces();
        // Line L = 24 − 2r + c of the layout of §2.3, four characters per column.
        let mut lines = vec![vec![b' '; 17 * 4 + 2]; 31];
        for p in Point::all() {
            let (c, r) = COORD[p.index()];
            let line = (24 + i32::from(c) - 2 * i32::from(r)) as usize;
            let col = (usize::from(c) - 1) * 4;
            let h = self.height(p);
            let text = match self.visible(p) {
                None => ".".to_string(),
                Some(owner) => {
                    let top = pieces
                        .iter()
                        .find(|pc| pc.level == h && (pc.punct == p || pc.plain.contains(&p)));
                    let punct = top.is_some_and(|pc| pc.punct == p);
                    let letter = match (owner, punct) {
                        (Player::P1, true) => 'W',
                        (Player::P1, false) => 'w',
                        (Player::P2, true) => 'B',
                        (Player::P2, false) => 'b',
                    };
                    if h > 1 { format!("{letter}{h}") } else { letter.to_string() }
                }
            };
            lines[line][col..col + text.len()].copy_from_slice(text.as_bytes());
        }
        let mut out = String::new();
        for l in lines {
            let s = String::from_utf8(l).expect("ascii");
            out.push_str(s.trim_end());
            out.push('\n');
        }
        for (player, name) in [(Player::P1, "White"), (Player::P2, "Black")] {
            let _ = write!(out, "{name} supply:");
            for k in Kind::ALL {
                let _ = write!(out, " {}{}", k.letter(), self.supply(player, k));
            }
            out.push('\n');
        }
        for pc in &pieces {
            let _ = writeln!(
                out,
                "{} {} {}:{},{} L{}{}",
                if pc.owner == Player::P1 { 'W' } else { 'B' },
                pc.kind.letter(),
                pc.punct,
                pc.plain[0],
                pc.plain[1],
                pc.level,
                if pc.covered { " covered" } else { "" }
            );
        }
        out
    }

    fn svg(&self) -> String {
        let width = MARGIN * 2.0 + 16.0 * S * 0.866 + 150.0;
        let height = MARGIN * 2.0 + 15.0 * S;
        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="punct" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}">"#
        );
        s.push_str(
            "<style>.point{fill:#c9b58a;stroke:#7a6a48;stroke-width:1}.point.central{fill:#e0a85c}\
             .piece .body{fill:none;stroke-linecap:round;stroke-linejoin:round;stroke-width:8}\
             .p1 .body{stroke:#f4f1e8}.p2 .body{stroke:#2b2b2b}\
             .piece .outline{fill:none;stroke:#555;stroke-width:11;stroke-linecap:round;stroke-linejoin:round}\
             .level-2 .outline,.level-2 .dot{stroke:#c08a00}.level-3 .outline,.level-3 .dot{stroke:#c0392b}\
             .level-high .outline,.level-high .dot{stroke:#8e44ad}.piece .dot{stroke-width:2}\
             .p1 .dot{fill:#fbfaf5;stroke:#555}.p2 .dot{fill:#222;stroke:#999}\
             .dot.span{stroke-dasharray:3 2}.punct-mark{fill:#d33}\
             .level{font:bold 9px sans-serif;text-anchor:middle;fill:#fff}\
             .hand text,.pass text{font:12px sans-serif}</style>",
        );
        s.push_str(r##"<rect x="0" y="0" width="100%" height="100%" fill="#efe4c8"/>"##);
        // Points first: they are the click targets; pieces do not take pointer events.
        s.push_str(r#"<g class="points">"#);
        for p in Point::all() {
            let (x, y) = xy(p);
            let central = if p.is_central() { " central" } else { "" };
            let _ = write!(
                s,
                r#"<circle id="{p}" class="target point{central}" cx="{x:.1}" cy="{y:.1}" r="5"><title>{p}</title></circle>"#
            );
        }
        s.push_str("</g>");
        // Coordinates: each column's letter under its lowest point, each row's number beside
        // its leftmost point (left of column a, up the upper left edge above it, down the
        // lower left edge below it).
        s.push_str(r##"<g class="coords" font-family="sans-serif" font-size="9" fill="#8a7a5a" text-anchor="middle" pointer-events="none">"##);
        for c in 1..=17 {
            let r = (1..=17).find(|&r| Point::from_coords(c, r).is_some()).expect("a point");
            let (x, y) = xy(Point::from_coords(c, r).expect("on the board"));
            let _ = write!(
                s,
                r#"<text x="{x:.1}" y="{:.1}">{}</text>"#,
                y + 19.0,
                char::from(b'a' + c as u8 - 1)
            );
        }
        for r in 1..=17 {
            let c = (1..=17).find(|&c| Point::from_coords(c, r).is_some()).expect("a point");
            let (x, y) = xy(Point::from_coords(c, r).expect("on the board"));
            let (dx, dy) = match (c, r) {
                (1, _) => (-17.0, 3.0),
                (_, 1) => (-14.0, 12.0),
                _ => (-13.0, -8.0),
            };
            let _ = write!(s, r#"<text x="{:.1}" y="{:.1}">{r}</text>"#, x + dx, y + dy);
        }
        s.push_str("</g>");
        // Pieces from the lowest level up, each lifted a little per level.
        let pieces = self.pieces();
        s.push_str(r#"<g class="pieces" pointer-events="none">"#);
        for pc in &pieces {
            let lift = f64::from(pc.level - 1) * LEVEL_LIFT;
            let pts = [pc.punct, pc.plain[0], pc.plain[1]];
            let path = shape_path(pc.punct, pc.orient, lift);
            let _ = write!(
                s,
                r#"<g id="piece-{}-{}" class="piece {} kind-{} level-{}{}" data-level="{}">"#,
                pc.punct,
                pc.level,
                colour_name(pc.owner),
                pc.kind.letter(),
                if pc.level >= 4 { "high".to_string() } else { pc.level.to_string() },
                if pc.covered { " covered" } else { "" },
                pc.level
            );
            let _ = write!(
                s,
                r#"<polyline class="outline" points="{0}"/><polyline class="body" points="{0}"/>"#,
                path
            );
            let supported = self.supported_dots(&pieces, pc);
            for (k, &p) in pts.iter().enumerate() {
                let (x, y) = xy(p);
                let span = if supported[k] { "" } else { " span" };
                let _ = write!(
                    s,
                    r#"<circle class="dot{span}" cx="{x:.1}" cy="{:.1}" r="8"/>"#,
                    y - lift
                );
            }
            let (x, y) = xy(pc.punct);
            let _ = write!(
                s,
                r#"<circle class="punct-mark" cx="{x:.1}" cy="{:.1}" r="3.5"/>"#,
                y - lift
            );
            if pc.level > 1 {
                let _ = write!(
                    s,
                    r#"<text class="level" x="{:.1}" y="{:.1}">{}</text>"#,
                    x + 7.0,
                    y - lift - 6.0,
                    pc.level
                );
            }
            s.push_str("</g>");
        }
        s.push_str("</g>");
        // The supplies.
        let hx = hand_x();
        for (row0, player, name) in [(1.0, Player::P2, "Black"), (9.0, Player::P1, "White")] {
            let word = name.to_ascii_lowercase();
            let (label, text) = match self.outcome() {
                None if self.to_move() == player => (format!("label-{word}-to-move"), " to move"),
                Some(ply_core::Outcome::Win(w)) if w == player => {
                    (format!("label-{word}-wins"), " wins")
                }
                _ => (format!("label-{word}"), ""),
            };
            let _ = write!(
                s,
                r#"<text id="name-{}" data-label="{label}" x="{hx:.0}" y="{:.0}" font-family="sans-serif" font-size="13">{name}{text}</text>"#,
                colour_name(player),
                row0 * S
            );
            for (i, k) in Kind::ALL.into_iter().enumerate() {
                let y = (row0 + 0.4 + i as f64 * 0.9) * S;
                let n = self.supply(player, k);
                let _ = write!(
                    s,
                    r##"<g id="{}" class="target hand {}" data-count="{n}"><rect x="{hx:.0}" y="{y:.0}" width="90" height="22" rx="4" fill="{}" stroke="#555"/><text x="{:.0}" y="{:.0}" fill="{}">{} × {n}</text></g>"##,
                    hand_id(player, k),
                    colour_name(player),
                    if player == Player::P1 { "#fbfaf5" } else { "#222" },
                    hx + 8.0,
                    y + 15.0,
                    if player == Player::P1 { "#222" } else { "#fbfaf5" },
                    k.letter()
                );
            }
        }
        let _ = write!(
            s,
            r##"<g id="pass" class="target pass"><rect x="{hx:.0}" y="{:.0}" width="90" height="22" rx="4" fill="#ddd" stroke="#555"/><text data-label="label-pass" x="{:.0}" y="{:.0}" text-anchor="middle">pass</text></g>"##,
            height - MARGIN - 22.0,
            hx + 45.0,
            height - MARGIN - 6.0
        );
        s.push_str("</svg>");
        s
    }

    fn click_path(&self, mv: Move) -> Vec<String> {
        let Some([q, a, b]) = mv.points() else {
            return vec!["pass".to_string()];
        };
        let first = match mv {
            Move::Place { orient, .. } => hand_id(self.to_move(), orient.kind()),
            Move::Shift { from, .. } => from.to_string(),
            Move::Pass => unreachable!("pass has no points"),
        };
        vec![first, q.to_string(), a.to_string(), b.to_string()]
    }

    fn click_steps(&self, mv: Move) -> Vec<&'static str> {
        let (Move::Place { .. } | Move::Shift { .. }) = mv else { return vec!["step-pass"] };
        // The first click: what the mover has to choose from (the same for every turn).
        let me = self.to_move();
        let in_supply = Kind::ALL.into_iter().any(|k| self.supply(me, k) > 0);
        let on_board = self.pieces().iter().any(|pc| pc.owner == me);
        let first = match (in_supply, on_board) {
            (true, true) => "step-place-or-move",
            (true, false) => "step-choose-piece",
            (false, _) => "step-choose-move",
        };
        let second = match mv {
            Move::Place { .. } => "step-choose-point",
            _ => "step-choose-destination",
        };
        vec![first, second, "step-choose-orientation", "step-finish-piece"]
    }

    fn preview(&self, prefix: &[String], moves: &[Move]) -> String {
        let Some(&mv) = moves.first() else { return String::new() };
        let me = self.to_move();
        let body = if me == Player::P1 { "#f4f1e8" } else { "#2b2b2b" };
        let mut o = String::new();
        let origin = match mv {
            Move::Shift { from, .. } => {
                self.pieces().into_iter().filter(|pc| pc.punct == from).max_by_key(|pc| pc.level)
            }
            _ => None,
        };
        // The piece chosen: its supply, or the piece on the board that moves.
        if let Some(pc) = origin {
            let lift = f64::from(pc.level - 1) * LEVEL_LIFT;
            let _ = write!(
                o,
                r##"<polyline class="chosen" points="{}" fill="none" stroke="#e67e22" stroke-width="14" stroke-opacity="0.5" stroke-linecap="round" stroke-linejoin="round" stroke-dasharray="6 4"/>"##,
                shape_path(pc.punct, pc.orient, lift)
            );
        } else if let Move::Place { orient, .. } = mv
            && prefix.len() == 1
        {
            let i = orient.kind() as usize;
            let row0 = if me == Player::P1 { 9.0 } else { 1.0 };
            let _ = write!(
                o,
                r##"<rect class="chosen" x="{:.0}" y="{:.0}" width="94" height="26" rx="5" fill="none" stroke="#e67e22" stroke-width="3"/>"##,
                hand_x() - 2.0,
                (row0 + 0.4 + i as f64 * 0.9) * S - 2.0
            );
        }
        if prefix.len() >= 2 {
            // The piece on its point: every orientation still open, faint while there are
            // several, and the PÜNCT dot.
            let mut shapes: Vec<(Point, crate::geometry::Orient)> = Vec::new();
            for m in moves {
                let shape = match *m {
                    Move::Place { at, orient } | Move::Shift { to: at, orient, .. } => (at, orient),
                    Move::Pass => continue,
                };
                if !shapes.contains(&shape) {
                    shapes.push(shape);
                }
            }
            for &(at, orient) in &shapes {
                let Some(pts) = crate::geometry::shape_points(at, orient) else { continue };
                let below = pts.iter().map(|&p| self.height(p)).max().unwrap_or(0);
                let lift = f64::from(below) * LEVEL_LIFT;
                let path = shape_path(at, orient, lift);
                if shapes.len() == 1 {
                    let _ = write!(
                        o,
                        r##"<g class="ghost {}" opacity="0.75"><polyline points="{path}" fill="none" stroke="#555" stroke-width="11" stroke-linecap="round" stroke-linejoin="round"/><polyline points="{path}" fill="none" stroke="{body}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/></g>"##,
                        colour_name(me)
                    );
                } else {
                    let _ = write!(
                        o,
                        r##"<polyline class="ghost {}" points="{path}" fill="none" stroke="{body}" stroke-opacity="0.45" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>"##,
                        colour_name(me)
                    );
                }
            }
            if let Some(&(at, _)) = shapes.first() {
                let (x, y) = xy(at);
                let _ = write!(
                    o,
                    r##"<circle class="punct-mark" cx="{x:.1}" cy="{y:.1}" r="4" fill="#d33"/>"##
                );
            }
        }
        if o.is_empty() {
            return o;
        }
        format!(r#"<g class="preview" pointer-events="none">{o}</g>"#)
    }

    fn end_reason(&self) -> Option<&'static str> {
        let outcome = self.outcome()?;
        if let ply_core::Outcome::Win(w) = outcome {
            return Some(if self.is_connected(w) { "end-connection" } else { "end-central" });
        }
        let passed_twice =
            self.state.last_pass && self.history.last().is_some_and(|prev| prev.last_pass);
        let last_mover = self.to_move().other();
        let out_of_pieces = Kind::ALL.into_iter().all(|k| self.supply(last_mover, k) == 0);
        Some(if passed_twice {
            "end-passes"
        } else if out_of_pieces && !self.state.last_pass {
            match self.variant_kind() {
                crate::types::Variant::Basic => "end-pieces-out",
                crate::types::Variant::Standard => "end-central-tie",
            }
        } else {
            "end-repetition"
        })
    }

    fn motions(&self, mv: Move) -> Vec<Motion> {
        // Only the moving piece travels; it ends on top at its new PÜNCT point.
        let top_at = |pos: &Position, at: Point| {
            pos.pieces()
                .into_iter()
                .filter(|pc| pc.punct == at)
                .max_by_key(|pc| pc.level)
                .map(|pc| format!("piece-{}-{}", pc.punct, pc.level))
        };
        let (to, from) = match mv {
            Move::Pass => return Vec::new(),
            Move::Place { at, orient } => (at, Some(hand_id(self.to_move(), orient.kind()))),
            Move::Shift { from, to, .. } => (to, top_at(self, from)),
        };
        let mut after = self.clone();
        after.play(mv);
        match (top_at(&after, to), from) {
            (Some(piece), Some(from)) if piece != from => vec![Motion::new(piece, from)],
            _ => Vec::new(),
        }
    }

    fn state_json(&self) -> Value {
        let board: Vec<Value> = self
            .pieces()
            .iter()
            .map(|pc| {
                json!({
                    "owner": pc.owner.as_str(),
                    "kind": pc.kind.letter().to_string(),
                    "punct": pc.punct.to_string(),
                    "plain": [pc.plain[0].to_string(), pc.plain[1].to_string()],
                    "level": pc.level,
                    "covered": pc.covered,
                })
            })
            .collect();
        let supply = |p: Player| {
            let mut m = serde_json::Map::new();
            for k in Kind::ALL {
                m.insert(k.letter().to_string(), json!(self.supply(p, k)));
            }
            Value::Object(m)
        };
        let mut heights = serde_json::Map::new();
        let mut visible = serde_json::Map::new();
        for i in 0..N_POINTS {
            let p = Point::from_index(i).expect("index in range");
            if self.height(p) > 0 {
                heights.insert(p.to_string(), json!(self.height(p)));
                if let Some(owner) = self.visible(p) {
                    visible.insert(p.to_string(), json!(owner.as_str()));
                }
            }
        }
        let central =
            |who| Point::all().filter(|p| p.is_central() && self.visible(*p) == Some(who)).count();
        json!({
            "board": board,
            "heights": heights,
            "visible": visible,
            "supply": { "P1": supply(Player::P1), "P2": supply(Player::P2) },
            "central": { "P1": central(Player::P1), "P2": central(Player::P2) },
        })
    }
}
