//! Pictures of a boop position: the text diagram, the SVG board with stable ids, click paths
//! for the generic browser UI, and the JSON view.

use std::fmt::Write;

use ply_core::{Game, Outcome, Player, View};
use serde_json::{Value, json};

use crate::geometry::{Cell, Line, Segment};
use crate::rules::Boop;
use crate::types::{self as labels, decode};
use crate::types::{GhostOnBed, Graduation, Kind, Move, Variant};

const CELL: i32 = 60;
const LEFT: i32 = 40;
/// Top of the bed; P2's pool is drawn above it and P1's below, each on his own side.
const TOP: i32 = 100;
const WIDTH: i32 = LEFT * 2 + CELL * 6;
const HEIGHT: i32 = TOP * 2 + CELL * 6;

fn symbol(player: Player, kind: Kind) -> char {
    match (player, kind) {
        (Player::P1, Kind::Kitten) => 'x',
        (Player::P1, Kind::Cat) => 'X',
        (Player::P2, Kind::Kitten) => 'o',
        (Player::P2, Kind::Cat) => 'O',
    }
}

fn player_id(player: Player) -> &'static str {
    match player {
        Player::P1 => "p1",
        Player::P2 => "p2",
    }
}

fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Kitten => "kitten",
        Kind::Cat => "cat",
    }
}

/// The element id of a piece: `p1-k3` is P1's kitten number 3, `p2-c0` P2's first cat.
fn piece_id(label: u8) -> String {
    let (player, kind, number) = decode(label);
    let k = if kind == Kind::Kitten { 'k' } else { 'c' };
    format!("{}-{k}{number}", player_id(player))
}

/// The id of a player's pool slot for a kind: `pool-p1-kitten`.
fn pool_slot_id(player: Player, kind: Kind) -> String {
    format!("pool-{}-{}", player_id(player), kind_word(kind))
}

fn ghost_pool_id(player: Player) -> String {
    format!("pool-{}-ghost", player_id(player))
}

/// Centre of a cell in SVG coordinates (row 6 at the top).
fn centre(cell: Cell) -> (i32, i32) {
    (LEFT + cell.column() as i32 * CELL + CELL / 2, TOP + (5 - cell.row() as i32) * CELL + CELL / 2)
}

/// The two ends of a segment's stitching.
fn segment_ends(seg: Segment) -> ((i32, i32), (i32, i32)) {
    let [(a, _), (b, _)] = seg.sides();
    let (ax, ay) = centre(a);
    let (bx, by) = centre(b);
    let (mx, my) = ((ax + bx) / 2, (ay + by) / 2);
    if seg.line() < 5 {
        ((mx, my - CELL / 2), (mx, my + CELL / 2))
    } else {
        ((mx - CELL / 2, my), (mx + CELL / 2, my))
    }
}

fn segment_mid(seg: Segment) -> (i32, i32) {
    let ((x1, y1), (x2, y2)) = segment_ends(seg);
    ((x1 + x2) / 2, (y1 + y2) / 2)
}

fn pool_y(player: Player) -> i32 {
    match player {
        Player::P1 => TOP + CELL * 6 + 50,
        Player::P2 => TOP - 50,
    }
}

/// Where a pool slot is drawn: kittens on the left, cats in the middle, the ghost right.
fn pool_slot_x(kind: Option<Kind>) -> i32 {
    match kind {
        Some(Kind::Kitten) => LEFT,
        Some(Kind::Cat) => LEFT + 150,
        None => LEFT + 300,
    }
}

/// A kitten or cat: `class` is `piece` on the bed and `pool-piece` in a pool (only what
/// stands on the bed is a piece for the marks of the last turn).
#[allow(clippy::too_many_arguments)]
fn piece_svg(
    out: &mut String,
    id: &str,
    class: &str,
    player: Player,
    kind: Kind,
    x: i32,
    y: i32,
    scale: f32,
) {
    let class = format!("{class} {} {}", player_id(player), kind_word(kind));
    let _ = write!(
        out,
        r#"<g id="{id}" class="{class}" transform="translate({x} {y}) scale({scale})" pointer-events="none">"#
    );
    let fill = if player == Player::P1 { "#e8903a" } else { "#8a8f9c" };
    match kind {
        Kind::Kitten => {
            let _ = write!(
                out,
                r##"<circle r="15" fill="{fill}" stroke="#3b2a1a" stroke-width="2"/><path d="M-12 -8 L-9 -19 L-3 -13 Z M12 -8 L9 -19 L3 -13 Z" fill="{fill}" stroke="#3b2a1a" stroke-width="1.5"/>"##
            );
        }
        Kind::Cat => {
            let _ = write!(
                out,
                r##"<circle r="22" fill="{fill}" stroke="#3b2a1a" stroke-width="3"/><path d="M-19 -10 L-15 -29 L-6 -19 Z M19 -10 L15 -29 L6 -19 Z" fill="{fill}" stroke="#3b2a1a" stroke-width="2"/><circle cx="-7" cy="-3" r="2.5" fill="#3b2a1a"/><circle cx="7" cy="-3" r="2.5" fill="#3b2a1a"/>"##
            );
        }
    }
    out.push_str("</g>");
}

/// The outline of a ghost cat, centred on the origin.
const GHOST_PATH: &str = "M-13 14 L-13 -4 A13 13 0 0 1 13 -4 L13 14 L8 9 L4 14 L0 9 L-4 14 L-8 9 Z";

/// The radius and fill of a piece on the bed.
fn piece_paint(player: Player, kind: Kind) -> (i32, &'static str) {
    let r = if kind == Kind::Kitten { 15 } else { 22 };
    (r, if player == Player::P1 { "#e8903a" } else { "#8a8f9c" })
}

fn ghost_svg(out: &mut String, player: Player, x: i32, y: i32, on_bed: bool) {
    let stroke = if player == Player::P1 { "#e8903a" } else { "#8a8f9c" };
    let _ = write!(
        out,
        r##"<g id="{}-ghost" class="ghost {}{}" transform="translate({x} {y})" pointer-events="none"><path d="M-13 14 L-13 -4 A13 13 0 0 1 13 -4 L13 14 L8 9 L4 14 L0 9 L-4 14 L-8 9 Z" fill="#ffffff" fill-opacity="0.85" stroke="{stroke}" stroke-width="3"/><circle cx="-5" cy="-3" r="2" fill="#222"/><circle cx="5" cy="-3" r="2" fill="#222"/></g>"##,
        player_id(player),
        player_id(player),
        if on_bed { " piece" } else { "" }
    );
}

impl View for Boop {
    const TEXTS: [&'static str; 3] = crate::text::TEXTS;
    const RULES: [&'static str; 3] = crate::text::RULES;

    fn diagram(&self) -> String {
        let mut s = String::new();
        for row in (0..6).rev() {
            let _ = write!(s, "{}  ", row + 1);
            for col in 0..6 {
                let cell = Cell::new(col, row).expect("on bed");
                let ch = self.piece_at(cell).map_or('.', |p| symbol(p.player, p.kind));
                s.push(ch);
                if col < 5 {
                    s.push(' ');
                }
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f\n");
        for player in Player::BOTH {
            let pool = self.pool(player);
            let _ = write!(
                s,
                "{player} ({}/{}) pool: {} kittens, {} cats",
                symbol(player, Kind::Kitten),
                symbol(player, Kind::Cat),
                pool.kittens,
                pool.cats
            );
            if self.variant_kind() == Variant::Boooop {
                match self.ghost(player) {
                    None => s.push_str("; ghost in pool"),
                    Some(g) => {
                        let _ = write!(
                            s,
                            "; ghost on {} travelling {}",
                            g.segment,
                            g.travel.compass(g.segment.line())
                        );
                    }
                }
            }
            s.push('\n');
        }
        s
    }

    fn svg(&self) -> String {
        let mut s = String::with_capacity(16 * 1024);
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" class="board boop" data-game="boop" data-variant="{}" data-to-move="{}">"#,
            self.variant(),
            player_id(self.to_move())
        );
        let _ =
            write!(s, r##"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f7efe2"/>"##);
        // The bed and its cells.
        s.push_str(r#"<g class="cells">"#);
        for cell in Cell::all() {
            let (cx, cy) = centre(cell);
            let shade = if (cell.column() + cell.row()) % 2 == 0 { "#cfe3c6" } else { "#bdd8b2" };
            let _ = write!(
                s,
                r##"<rect id="{cell}" class="cell target" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{shade}" stroke="#7a9a6e" stroke-width="1"/>"##,
                cx - CELL / 2,
                cy - CELL / 2
            );
        }
        s.push_str("</g>");
        // Coordinates.
        s.push_str(r##"<g class="coords" font-family="sans-serif" font-size="13" fill="#6b5b4a" text-anchor="middle" pointer-events="none">"##);
        for col in 0..6 {
            let x = LEFT + col * CELL + CELL / 2;
            let _ = write!(
                s,
                r#"<text x="{x}" y="{}">{}</text>"#,
                TOP + CELL * 6 + 16,
                (b'a' + col as u8) as char
            );
        }
        for row in 0..6 {
            let y = TOP + (5 - row) * CELL + CELL / 2 + 5;
            let _ = write!(s, r#"<text x="{}" y="{y}">{}</text>"#, LEFT - 14, row + 1);
        }
        s.push_str("</g>");
        // Stitching and entry segments (boooop).
        if self.variant_kind() == Variant::Boooop {
            s.push_str(r##"<g class="stitches" stroke="#8c7a5b" stroke-width="1.5" stroke-dasharray="4 3" pointer-events="none">"##);
            for i in 1..6 {
                let x = LEFT + i * CELL;
                let y = TOP + i * CELL;
                let _ =
                    write!(s, r#"<line x1="{x}" y1="{TOP}" x2="{x}" y2="{}"/>"#, TOP + 6 * CELL);
                let _ =
                    write!(s, r#"<line x1="{LEFT}" y1="{y}" x2="{}" y2="{y}"/>"#, LEFT + 6 * CELL);
            }
            s.push_str("</g>");
            s.push_str(r#"<g class="entries">"#);
            for seg in Segment::entries() {
                let ((x1, y1), (x2, y2)) = segment_ends(seg);
                let _ = write!(
                    s,
                    r##"<line id="{seg}" class="segment entry target" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8c7a5b" stroke-opacity="0.35" stroke-width="12" stroke-linecap="round"/>"##
                );
            }
            s.push_str("</g>");
        }
        // Pool slots, the clickable sources of a placement.
        s.push_str(r##"<g class="pools" font-family="sans-serif" font-size="14" fill="#3b2a1a">"##);
        for player in Player::BOTH {
            let y = pool_y(player);
            let pool = self.pool(player);
            for kind in [Kind::Kitten, Kind::Cat] {
                let x = pool_slot_x(Some(kind));
                let n = pool.count(kind);
                let (label, text) = match (kind, n) {
                    (Kind::Kitten, 1) => ("label-kittens", "1 kitten".to_string()),
                    (Kind::Kitten, _) => ("label-kittens", format!("{n} kittens")),
                    (Kind::Cat, 1) => ("label-cats", "1 cat".to_string()),
                    (Kind::Cat, _) => ("label-cats", format!("{n} cats")),
                };
                let _ = write!(
                    s,
                    r##"<rect id="{}" class="pool-slot target {}" x="{x}" y="{}" width="140" height="44" rx="8" fill="#efe3cf" stroke="#b59c78"/><text data-label="{label}" data-arg-n="{n}" x="{}" y="{}" pointer-events="none">{text}</text>"##,
                    pool_slot_id(player, kind),
                    player_id(player),
                    y - 22,
                    x + 6,
                    y + 36,
                );
            }
            if self.variant_kind() == Variant::Boooop {
                let x = pool_slot_x(None);
                let _ = write!(
                    s,
                    r##"<rect id="{}" class="pool-slot target {}" x="{x}" y="{}" width="60" height="44" rx="8" fill="#efe3cf" stroke="#b59c78"/>"##,
                    ghost_pool_id(player),
                    player_id(player),
                    y - 22
                );
            }
            let n = player.index() + 1;
            let (label, text) = match self.outcome() {
                None if self.to_move() == player => ("label-player-to-move", " to move"),
                Some(Outcome::Win(w)) if w == player => ("label-player-wins", " wins"),
                _ => ("label-player", ""),
            };
            let _ = write!(
                s,
                r#"<text id="name-{}" data-label="{label}" data-arg-player="{n}" x="{}" y="{}" text-anchor="end" pointer-events="none">Player {n}{text}</text>"#,
                player_id(player),
                WIDTH - 4,
                y + 36,
            );
        }
        s.push_str("</g>");
        // Pieces: on the bed, then in the pools (stacked in their slots), all in one layer so
        // a client can move any of them by id.
        s.push_str(r#"<g class="pieces">"#);
        let labels = self.labels();
        for cell in Cell::all() {
            let l = labels[cell.index()];
            if l != 0 {
                let (player, kind, _) = decode(l);
                let (x, y) = centre(cell);
                piece_svg(&mut s, &piece_id(l), "piece", player, kind, x, y, 1.0);
            }
        }
        let state = self.state();
        for player in Player::BOTH {
            for kind in [Kind::Kitten, Kind::Cat] {
                let numbers =
                    labels::pool_numbers(labels, state.kittens_alive[player.index()], player, kind);
                for (i, n) in numbers.into_iter().enumerate() {
                    let x = pool_slot_x(Some(kind)) + 16 + i as i32 * 15;
                    let y = pool_y(player);
                    let l = labels::label(player, kind, n);
                    piece_svg(&mut s, &piece_id(l), "pool-piece", player, kind, x, y, 0.6);
                }
            }
        }
        s.push_str("</g>");
        if self.variant_kind() == Variant::Boooop {
            s.push_str(r#"<g class="ghosts">"#);
            for player in Player::BOTH {
                let (x, y) = match self.ghost(player) {
                    Some(GhostOnBed { segment, .. }) => segment_mid(segment),
                    None => (pool_slot_x(None) + 30, pool_y(player)),
                };
                ghost_svg(&mut s, player, x, y, self.ghost(player).is_some());
                if let Some(GhostOnBed { segment, travel }) = self.ghost(player) {
                    let arrow = match travel.compass(segment.line()) {
                        "N" => "↑",
                        "S" => "↓",
                        "E" => "→",
                        _ => "←",
                    };
                    let _ = write!(
                        s,
                        r##"<text class="ghost-travel" x="{}" y="{}" font-size="14" text-anchor="middle" fill="#3b2a1a" pointer-events="none">{arrow}</text>"##,
                        x,
                        y - 18
                    );
                }
            }
            s.push_str("</g>");
        }
        s.push_str("</svg>");
        s
    }

    fn click_path(&self, mv: Move) -> Vec<String> {
        let me = self.to_move();
        let mut path = Vec::with_capacity(6);
        // The optional ghost placement comes first, so a turn without it is never a prefix
        // of the same turn with it.
        if let Some(seg) = mv.ghost {
            path.push(ghost_pool_id(me));
            path.push(seg.to_string());
        }
        path.push(pool_slot_id(me, mv.kind));
        path.push(mv.cell.to_string());
        match mv.graduation {
            None => {}
            Some(Graduation::Line(line)) => path.extend(line.cells().iter().map(Cell::to_string)),
            // A single piece is chosen by clicking it twice, so it never prefixes a line
            // that starts on the same cell.
            Some(Graduation::Single(cell, _)) => {
                path.push(cell.to_string());
                path.push(cell.to_string());
            }
        }
        path
    }

    fn click_steps(&self, mv: Move) -> Vec<&'static str> {
        let me = self.to_move();
        let ghost_open = self.variant_kind() == Variant::Boooop && self.ghost(me).is_none();
        let first = if ghost_open { "step-piece-or-ghost" } else { "step-choose-piece" };
        let mut steps = vec![first];
        if mv.ghost.is_some() {
            steps.extend(["step-choose-edge", "step-choose-piece"]);
        }
        steps.push("step-place-piece");
        if let Some(g) = mv.graduation {
            // What the graduation clicks can be depends on the placement only.
            let options = self.graduation_options(mv.kind, mv.cell).unwrap_or_default();
            let lines = options.iter().any(|o| matches!(o, Graduation::Line(_)));
            let singles = options.iter().any(|o| matches!(o, Graduation::Single(..)));
            let step = match (lines, singles) {
                (true, false) => "step-graduate-line",
                (false, true) => "step-graduate-single",
                _ => "step-graduate",
            };
            let clicks = match g {
                Graduation::Line(_) => 3,
                Graduation::Single(..) => 2,
            };
            steps.extend(std::iter::repeat_n(step, clicks));
        }
        steps
    }

    fn preview(&self, prefix: &[String], moves: &[Move]) -> String {
        let Some(&mv) = moves.first() else { return String::new() };
        let me = self.to_move();
        let mut o = String::new();
        let chosen = |o: &mut String, x: i32, y: i32, w: i32| {
            let _ = write!(
                o,
                r##"<rect class="chosen" x="{}" y="{}" width="{}" height="48" rx="10" fill="none" stroke="#d2691e" stroke-width="3"/>"##,
                x - 2,
                y - 24,
                w + 4
            );
        };
        // The ghost: its pool slot once chosen, then the ghost on its edge.
        let mut at = 0;
        if let Some(seg) = mv.ghost {
            if prefix.len() == 1 {
                chosen(&mut o, pool_slot_x(None), pool_y(me), 60);
            } else {
                let (x, y) = segment_mid(seg);
                let _ = write!(
                    o,
                    r##"<path class="ghost" transform="translate({x} {y})" d="{GHOST_PATH}" fill="#ffffff" fill-opacity="0.6" stroke="#d2691e" stroke-width="3" stroke-dasharray="4 3"/>"##
                );
            }
            at = 2;
        }
        if prefix.len() == at + 1 {
            chosen(&mut o, pool_slot_x(Some(mv.kind)), pool_y(me), 140);
        } else if prefix.len() > at + 1 {
            // The piece placed and the pieces it boops (or the ghost scares), in their new
            // places; those that leave the bed are marked.
            let mut after = self.clone();
            after.play(Move { graduation: None, ..mv });
            let (before, now) = (self.labels(), after.labels());
            let cell_of = |labels: &[u8; 36], l: u8| labels.iter().position(|&m| m == l);
            for cell in Cell::all() {
                let l = now[cell.index()];
                if l == 0 {
                    continue;
                }
                let (player, kind, _) = decode(l);
                let (x, y) = centre(cell);
                let from = cell_of(before, l);
                if from == Some(cell.index()) {
                    continue;
                }
                if let Some(from) = from {
                    let (fx, fy) = centre(Cell::from_index(from));
                    let _ = write!(
                        o,
                        r##"<line class="boop" x1="{fx}" y1="{fy}" x2="{x}" y2="{y}" stroke="#d2691e" stroke-width="3" stroke-opacity="0.7"/>"##
                    );
                }
                let (r, fill) = piece_paint(player, kind);
                let _ = write!(
                    o,
                    r##"<circle class="ghost {} {}" cx="{x}" cy="{y}" r="{r}" fill="{fill}" fill-opacity="0.6" stroke="#3b2a1a" stroke-width="2" stroke-dasharray="4 3"/>"##,
                    player_id(player),
                    kind_word(kind)
                );
            }
            for cell in Cell::all() {
                let l = before[cell.index()];
                if l != 0 && cell_of(now, l).is_none() {
                    let (x, y) = centre(cell);
                    let _ = write!(
                        o,
                        r##"<circle class="capture" cx="{x}" cy="{y}" r="25" fill="none" stroke="#c0392b" stroke-width="3" stroke-dasharray="5 3"/>"##
                    );
                }
            }
            if let (Some(old), Some(new)) = (self.ghost(me), after.ghost(me))
                && old != new
            {
                let (x, y) = segment_mid(new.segment);
                let _ = write!(
                    o,
                    r##"<path class="ghost" transform="translate({x} {y})" d="{GHOST_PATH}" fill="#ffffff" fill-opacity="0.6" stroke="#d2691e" stroke-width="3" stroke-dasharray="4 3"/>"##
                );
            }
            // Pieces chosen to graduate so far.
            for id in &prefix[at + 2..] {
                if let Some(cell) = Cell::parse(id.as_bytes()) {
                    let (x, y) = centre(cell);
                    let _ = write!(
                        o,
                        r##"<circle class="graduate" cx="{x}" cy="{y}" r="27" fill="none" stroke="#e0b000" stroke-width="4"/>"##
                    );
                }
            }
        }
        if o.is_empty() {
            return o;
        }
        format!(r#"<g class="preview" pointer-events="none">{o}</g>"#)
    }

    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome()? {
            Outcome::Draw => Some("end-repetition"),
            Outcome::Win(w) => {
                let cats: u64 = self.cells_of(w, Kind::Cat).map(Cell::bit).sum();
                if Line::all().any(|l| l.mask() & cats == l.mask()) {
                    Some("end-three-cats")
                } else {
                    Some("end-eight-cats")
                }
            }
        }
    }

    fn state_json(&self) -> Value {
        let board: Vec<String> = (0..6)
            .rev()
            .map(|row| {
                (0..6)
                    .map(|col| {
                        let cell = Cell::new(col, row).expect("on bed");
                        self.piece_at(cell).map_or('.', |p| symbol(p.player, p.kind))
                    })
                    .collect()
            })
            .collect();
        let labels = self.labels();
        let pieces: Vec<Value> = Cell::all()
            .filter(|c| labels[c.index()] != 0)
            .map(|c| {
                let (player, kind, _) = decode(labels[c.index()]);
                json!({ "cell": c.to_string(), "player": player.as_str(), "kind": kind_word(kind), "id": piece_id(labels[c.index()]) })
            })
            .collect();
        let mut pools = serde_json::Map::new();
        for player in Player::BOTH {
            let pool = self.pool(player);
            let mut entry = json!({ "kittens": pool.kittens, "cats": pool.cats });
            if self.variant_kind() == Variant::Boooop {
                entry["ghost"] = json!(self.ghost(player).is_none());
            }
            pools.insert(player.as_str().to_string(), entry);
        }
        let mut value = json!({ "board": board, "pieces": pieces, "pools": pools });
        if self.variant_kind() == Variant::Boooop {
            let mut ghosts = serde_json::Map::new();
            for player in Player::BOTH {
                let g = match self.ghost(player) {
                    None => json!("pool"),
                    Some(g) => json!({
                        "segment": g.segment.to_string(),
                        "travel": g.travel.compass(g.segment.line()),
                    }),
                };
                ghosts.insert(player.as_str().to_string(), g);
            }
            value["ghosts"] = Value::Object(ghosts);
        }
        value
    }
}
