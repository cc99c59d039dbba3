//! Property tests over random games of both variants, and a differential test of the move
//! generator against a deliberately naive, independently written one.

use std::collections::{HashMap, HashSet};

use ply_core::testkit::{RandomGame, check_views, random_game};
use ply_core::zobrist::splitmix64;
use ply_core::{Game, Motion, Outcome, Player, View};
use ply_punct::{Kind, Move, PieceInfo, Point, Position, Setup, Variant};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// An independent geometry: shapes classified from coordinates, not from the engine's tables.

fn coords(p: Point) -> (i32, i32) {
    (i32::from(p.column()), i32::from(p.row()))
}

fn dist(a: Point, b: Point) -> i32 {
    let ((ac, ar), (bc, br)) = (coords(a), coords(b));
    let (dc, dr) = (bc - ac, br - ar);
    dc.abs().max(dr.abs()).max((dc - dr).abs())
}

/// Euclidean embedding with y upwards (rows increase upwards, §1.2).
fn euclid(p: Point) -> (f64, f64) {
    let (c, r) = coords(p);
    (f64::from(c) * 3f64.sqrt() / 2.0, f64::from(r) - f64::from(c) / 2.0)
}

/// The kind and the middle point (None for a triangle) of PÜNCT point `q` with plain dots
/// `a`, `b`, from geometry alone.
fn classify(q: Point, a: Point, b: Point) -> Option<(Kind, Option<Point>)> {
    let adj = |x: Point, y: Point| dist(x, y) == 1;
    if adj(q, a) && adj(q, b) && adj(a, b) {
        return Some((Kind::T, None));
    }
    // Middle dot: adjacent to both others, the ends at distance 2.
    let (mid, e1, e2) = if adj(q, a) && adj(q, b) && dist(a, b) == 2 {
        (q, a, b)
    } else if adj(a, q) && adj(a, b) && dist(q, b) == 2 {
        (a, q, b)
    } else if adj(b, q) && adj(b, a) && dist(q, a) == 2 {
        (b, q, a)
    } else {
        return None;
    };
    let (mc, mr) = coords(mid);
    let (c1, r1) = coords(e1);
    let (c2, r2) = coords(e2);
    let straight = c1 + c2 == 2 * mc && r1 + r2 == 2 * mr;
    let kind = if mid == q {
        if straight { Kind::C } else { Kind::M }
    } else if straight {
        Kind::E
    } else {
        // From the PÜNCT dot through the bend: clockwise is a negative cross product.
        let far = if e1 == q { e2 } else { e1 };
        let (p0, p1, p2) = (euclid(q), euclid(mid), euclid(far));
        let v1 = (p1.0 - p0.0, p1.1 - p0.1);
        let v2 = (p2.0 - p1.0, p2.1 - p1.1);
        if v1.0 * v2.1 - v1.1 * v2.0 < 0.0 { Kind::L } else { Kind::R }
    };
    Some((kind, Some(mid)))
}

/// Every (kind, PÜNCT point, plain pair ascending, middle) on the board.
fn all_shapes() -> Vec<(Kind, Point, Point, Point, Option<Point>)> {
    let mut out = Vec::new();
    for q in Point::all() {
        let near: Vec<Point> = Point::all().filter(|&x| x != q && dist(q, x) <= 2).collect();
        for (i, &a) in near.iter().enumerate() {
            for &b in &near[i + 1..] {
                if let Some((kind, mid)) = classify(q, a, b) {
                    out.push((kind, q, a.min(b), a.max(b), mid));
                }
            }
        }
    }
    out
}

fn letter(k: Kind) -> char {
    k.letter()
}

/// Dots over every point: (level, owner, index of the piece in `pieces`).
fn dots(pieces: &[PieceInfo]) -> HashMap<Point, Vec<(u8, Player, usize)>> {
    let mut map: HashMap<Point, Vec<(u8, Player, usize)>> = HashMap::new();
    for (i, pc) in pieces.iter().enumerate() {
        for p in [pc.punct, pc.plain[0], pc.plain[1]] {
            map.entry(p).or_default().push((pc.level, pc.owner, i));
        }
    }
    map
}

/// The naive generator: every legal placement and shift as canonical text.
fn naive_moves(
    pos: &Position,
    shapes: &[(Kind, Point, Point, Point, Option<Point>)],
) -> Vec<String> {
    let me = pos.to_move();
    let pieces = pos.pieces();
    let dots = dots(&pieces);
    let restricted = match pos.variant_kind() {
        Variant::Standard => true,
        Variant::Basic => pieces.is_empty(),
    };
    let mut out = Vec::new();
    for &(kind, q, a, b, _) in shapes {
        if pos.supply(me, kind) == 0 {
            continue;
        }
        let pts = [q, a, b];
        if pts.iter().any(|p| dots.contains_key(p)) {
            continue;
        }
        if restricted && pts.iter().any(|p| p.is_central()) {
            continue;
        }
        out.push(format!("{}{q}:{a},{b}", letter(kind)));
    }
    for (i, pc) in pieces.iter().enumerate() {
        let own = [pc.punct, pc.plain[0], pc.plain[1]];
        let free = own.iter().all(|p| dots[p].iter().all(|&(l, _, j)| j == i || l < pc.level));
        if pc.owner != me || !free {
            continue;
        }
        // H′ and top owner without this piece.
        let under = |p: Point| -> (u8, Option<Player>) {
            dots.get(&p)
                .into_iter()
                .flatten()
                .filter(|&&(_, _, j)| j != i)
                .max_by_key(|&&(l, _, _)| l)
                .map_or((0, None), |&(l, o, _)| (l, Some(o)))
        };
        let (fc, fr) = coords(pc.punct);
        for &(kind, q, a, b, mid) in shapes {
            if kind != pc.kind {
                continue;
            }
            let (qc, qr) = coords(q);
            if qc != fc && qr != fr && qc - qr != fc - fr {
                continue;
            }
            if q == pc.punct && [a, b] == pc.plain {
                continue;
            }
            let h = match mid {
                None => {
                    let hs = [under(q).0, under(a).0, under(b).0];
                    if hs[0] != hs[1] || hs[1] != hs[2] {
                        continue;
                    }
                    hs[0]
                }
                Some(m) => {
                    let ends: Vec<Point> = [q, a, b].into_iter().filter(|&x| x != m).collect();
                    let (h1, h2) = (under(ends[0]).0, under(ends[1]).0);
                    if h1 != h2 || under(m).0 > h1 {
                        continue;
                    }
                    h1
                }
            };
            if h >= 1 {
                let (hq, oq) = under(q);
                if hq == 0 || oq != Some(me) {
                    continue;
                }
            }
            out.push(format!("{}-{q}:{a},{b}", pc.punct));
        }
    }
    out.sort();
    out
}

/// Every piece rests exactly as the landing rule allows (an independent check).
fn check_support(pos: &Position) {
    let pieces = pos.pieces();
    let dots = dots(&pieces);
    for (p, list) in &dots {
        let mut levels: Vec<u8> = list.iter().map(|d| d.0).collect();
        levels.sort_unstable();
        levels.dedup();
        assert_eq!(levels.len(), list.len(), "two dots at one level over {p}");
        assert_eq!(pos.height(*p), *levels.last().unwrap(), "height of {p}");
    }
    for (i, pc) in pieces.iter().enumerate() {
        let below = |p: Point| -> (u8, Option<Player>) {
            dots[&p]
                .iter()
                .filter(|&&(l, _, j)| j != i && l < pc.level)
                .max_by_key(|d| d.0)
                .map_or((0, None), |&(l, o, _)| (l, Some(o)))
        };
        let (kind, mid) = classify(pc.punct, pc.plain[0], pc.plain[1]).expect("a shape");
        assert_eq!(kind, pc.kind);
        let h = pc.level - 1;
        let pts = [pc.punct, pc.plain[0], pc.plain[1]];
        for &p in &pts {
            let (l, _) = below(p);
            if Some(p) == mid {
                assert!(l <= h, "middle of {pc:?}");
            } else {
                assert_eq!(l, h, "{pc:?} floats or sinks at {p}");
            }
        }
        if h >= 1 {
            let (l, o) = below(pc.punct);
            assert!(l >= 1 && o == Some(pc.owner), "PÜNCT dot of {pc:?} not on own colour");
        }
    }
}

fn check_conservation(pos: &Position) {
    let pieces = pos.pieces();
    for player in Player::BOTH {
        for (k, kind) in Kind::ALL.into_iter().enumerate() {
            let on = pieces.iter().filter(|p| p.owner == player && p.kind == kind).count();
            assert_eq!(on + usize::from(pos.supply(player, kind)), usize::from(Kind::COUNT[k]));
        }
    }
}

fn svg_ids(svg: &str) -> HashSet<String> {
    svg.split(" id=\"").skip(1).map(|s| s[..s.find('"').unwrap()].to_string()).collect()
}

fn check_click_paths(pos: &Position) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let ids = svg_ids(&pos.svg());
    let paths: Vec<Vec<String>> = moves.iter().map(|&m| pos.click_path(m)).collect();
    let set: HashSet<&Vec<String>> = paths.iter().collect();
    assert_eq!(set.len(), paths.len(), "two moves share a click path");
    // Prefix-free: all placement/shift paths have four items; a pass path stands alone.
    for (m, path) in moves.iter().zip(&paths) {
        match m {
            Move::Pass => assert_eq!(moves.len(), 1),
            _ => assert_eq!(path.len(), 4),
        }
        for id in path {
            assert!(ids.contains(id), "{id} is not in the SVG");
        }
    }
    let prefixes: HashSet<&[String]> =
        paths.iter().flat_map(|p| (1..p.len()).map(move |n| &p[..n])).collect();
    for p in &paths {
        assert!(!prefixes.contains(p.as_slice()), "{p:?} is a prefix of another path");
    }
}

/// Plays a game that prefers shifts, and climbing shifts, so that stacks and bridges appear.
fn shift_heavy_game(variant: &str, seed: u64, turns: usize) -> RandomGame<Position> {
    let mut pos = Position::new(variant).unwrap();
    let mut state = seed;
    let mut out = vec![pos.clone()];
    let mut played = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..turns {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let (s, r) = splitmix64(state);
        state = s;
        let shifts: Vec<Move> =
            moves.iter().copied().filter(|m| matches!(m, Move::Shift { .. })).collect();
        let climbs: Vec<Move> = shifts
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Shift { to, .. } if pos.height(*to) >= 1))
            .collect();
        let pick = match r % 4 {
            0 | 1 if !climbs.is_empty() => climbs[(r >> 8) as usize % climbs.len()],
            2 if !shifts.is_empty() => shifts[(r >> 8) as usize % shifts.len()],
            _ => moves[(r >> 8) as usize % moves.len()],
        };
        pos.play(pick);
        played.push(pick);
        out.push(pos.clone());
    }
    RandomGame { positions: out, moves: played }
}

#[test]
fn generator_matches_naive_generator_on_stacked_positions() {
    let shapes = all_shapes();
    assert_eq!(shapes.len(), 5931);
    let mut max_level = 0;
    let mut checked = 0;
    for (variant, seed) in [("standard", 1u64), ("basic", 2), ("standard", 3), ("basic", 4)] {
        for pos in shift_heavy_game(variant, seed, 60).positions.iter().step_by(3) {
            if pos.outcome().is_some() {
                continue;
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let mut engine: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
            engine.sort();
            if engine == ["pass"] {
                continue;
            }
            assert_eq!(engine, naive_moves(pos, &shapes), "{}", pos.diagram());
            max_level = max_level.max(pos.pieces().iter().map(|p| p.level).max().unwrap_or(0));
            checked += 1;
            check_support(pos);
        }
    }
    assert!(checked > 40);
    assert!(max_level >= 3, "the games should build stacks (max level {max_level})");
}

#[test]
fn example_positions_match_naive_generator() {
    let shapes = all_shapes();
    for (text, to_move) in [
        ("W E i3:i4,i5 L1; B T i8:i9,j9 L1; B E h11:i11,j11 L1", Player::P1),
        ("W E e7:e8,e9 L1; B E f7:f8,f9 L1; W T c8:c9,d9 L1", Player::P1),
        ("W E c3:c4,c5 L1; B E c7:c8,c9 L1; W E f5:g5,h5 L1", Player::P1),
        (
            "W E e4:e5,e6 L1; W E d3:d4,d5 L1; B E f6:f7,f8 L1; W T e4:d3,d4 L2; \
             W T e6:f6,f7 L2; W C j5:j4,j6 L1",
            Player::P1,
        ),
    ] {
        let pos =
            Position::from_setup(&Setup::parse(text, to_move).unwrap(), Variant::Standard).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut engine: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
        engine.sort();
        assert_eq!(engine, naive_moves(&pos, &shapes));
    }
}

#[test]
fn click_paths_are_unique_and_prefix_free() {
    for (variant, seed) in [("standard", 11u64), ("basic", 12)] {
        let game = shift_heavy_game(variant, seed, 50);
        check_views(&game);
        for pos in game.positions.iter().step_by(5) {
            check_click_paths(pos);
        }
    }
}

#[test]
fn rotation_in_place_click_path() {
    let pos = Position::from_setup(
        &Setup::parse("W E i3:i4,i5 L1", Player::P1).unwrap(),
        Variant::Standard,
    )
    .unwrap();
    let mv = pos.parse_move("i3-i3:j3,k3").unwrap();
    assert_eq!(pos.click_path(mv), ["i3", "i3", "j3", "k3"]);
    assert_eq!(pos.motions(mv), [], "a turn in place travels nowhere");
    let shift = pos.parse_move("i3-g3:g4,g5").unwrap();
    assert_eq!(pos.motions(shift), [Motion::new("piece-g3-1", "piece-i3-1")]);
    let place = pos.parse_move("Tg3:g4,h4").unwrap();
    assert_eq!(pos.click_path(place), ["p1-hand-T", "g3", "g4", "h4"]);
    assert_eq!(pos.motions(place), [Motion::new("piece-g3-1", "p1-hand-T")]);
}

#[test]
fn threefold_repetition_is_a_draw() {
    let setup = Setup::parse("W E c3:c4,c5; B E o13:o14,o15", Player::P1).unwrap();
    let mut pos = Position::from_setup(&setup, Variant::Standard).unwrap();
    let cycle = ["c3-d3:d4,d5", "o13-n13:n14,n15", "d3-c3:c4,c5", "n13-o13:o14,o15"];
    for round in 0..2 {
        for (i, text) in cycle.iter().enumerate() {
            assert_eq!(pos.outcome(), None, "round {round} move {i}");
            let mv = pos.parse_move(text).unwrap();
            pos.play(mv);
        }
    }
    // The start position has now occurred for the third time.
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    // What the search is told: a repetition in its line is that draw.
    const { assert!(<Position as Game>::REPETITION_DRAWS) };
    assert!(pos.parse_move("Tg3:g4,h4").is_err());
    pos.undo();
    assert_eq!(pos.outcome(), None);
}

#[test]
fn interchangeable_pieces_repeat_a_position() {
    // White's two triangles swap places in three moves while Black's E goes round a triangle
    // of points: after six turns the position is the start again with the triangles swapped,
    // which counts as the same position ([E5], pieces compared as multisets). So the third
    // occurrence comes after twelve turns.
    let setup = Setup::parse("W T c6:c7,d7; W T k6:k7,l7; B E o13:o14,o15", Player::P1).unwrap();
    let start = Position::from_setup(&setup, Variant::Standard).unwrap();
    let mut pos = start.clone();
    let cycle = [
        "c6-f6:f7,g7",
        "o13-n13:n14,n15",
        "k6-c6:c7,d7",
        "n13-m13:m14,m15",
        "f6-k6:k7,l7",
        "m13-o13:o14,o15",
    ];
    for round in 0..2 {
        for text in cycle {
            assert_eq!(pos.outcome(), None, "{round} {text}");
            let mv = pos.parse_move(text).unwrap();
            pos.play(mv);
        }
        assert_eq!(pos.hash(), start.hash());
    }
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

/// [C1]–[C2] from coordinates: sides by the formulas of §2.4.
fn naive_connected(pos: &Position, who: Player) -> bool {
    let sides = |p: Point| {
        let (c, r) = coords(p);
        [c == 1, c == 17, r == 1, r == 17, c - r == -8, c - r == 8]
    };
    let mut seen = HashSet::new();
    for start in Point::all() {
        if pos.visible(start) != Some(who) || !seen.insert(start) {
            continue;
        }
        let mut touched = [false; 6];
        let mut todo = vec![start];
        while let Some(p) = todo.pop() {
            for (t, s) in touched.iter_mut().zip(sides(p)) {
                *t |= s;
            }
            for q in Point::all() {
                if dist(p, q) == 1 && pos.visible(q) == Some(who) && seen.insert(q) {
                    todo.push(q);
                }
            }
        }
        if (touched[0] && touched[1]) || (touched[2] && touched[3]) || (touched[4] && touched[5]) {
            return true;
        }
    }
    false
}

fn check_outcome(pos: &Position) {
    let white = naive_connected(pos, Player::P1);
    let black = naive_connected(pos, Player::P2);
    assert_eq!(white, pos.is_connected(Player::P1));
    assert_eq!(black, pos.is_connected(Player::P2));
    // The player who just acted; `to_move` has already passed on.
    let mover = pos.to_move().other();
    match (white, black) {
        (true, true) => assert_eq!(pos.outcome(), Some(Outcome::Win(mover))),
        (true, false) => assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1))),
        (false, true) => assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P2))),
        (false, false) => {}
    }
}

fn run_random(variant: &str, seed: u64) {
    let start = Position::new(variant).unwrap();
    let game = random_game(&start, seed, 150, |pos: &Position| {
        check_conservation(pos);
        check_support(pos);
        check_outcome(pos);
        if pos.outcome().is_none() {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "a game that goes on has moves");
        }
    });
    check_views(&game);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_standard_games(seed in any::<u64>()) {
        run_random("standard", seed);
    }

    #[test]
    fn random_basic_games(seed in any::<u64>()) {
        run_random("basic", seed);
    }
}

// ---------------------------------------------------------------------------------------------
// The evaluator's promises to MCTS: where it says no turn (or this turn) can win at once, none
// does, and for a placement its answer is exact. Checked by playing every legal turn of every
// position of random games.

#[test]
fn no_turn_wins_where_the_evaluator_says_none_can() {
    use ply_core::{Evaluate, Evaluator};
    let eval = Position::evaluator();
    let (mut positions, mut ruled_out, mut wins, mut turns_skipped) = (0, 0, 0, 0u64);
    let mut placements_allowed = 0u64;
    for seed in 0..24u64 {
        let variant = if seed % 2 == 0 { "standard" } else { "basic" };
        let mut game = Position::new(variant).unwrap();
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut moves = Vec::new();
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            let mover = game.to_move();
            let any = eval.may_win_at_once(&game);
            positions += 1;
            ruled_out += usize::from(!any);
            let mut at_once = Vec::new();
            eval.moves_that_may_win(&game, &moves, &mut at_once);
            let one_by_one: Vec<u32> = (0..moves.len() as u32)
                .filter(|&i| any && eval.may_win_with(&game, moves[i as usize]))
                .collect();
            assert_eq!(at_once, one_by_one, "the moves that may win, at once and one by one");
            for &mv in &moves {
                let allowed = any && eval.may_win_with(&game, mv);
                turns_skipped += u64::from(!allowed);
                let mut after = game.clone();
                after.play(mv);
                let won = after.outcome() == Some(Outcome::Win(mover));
                if won {
                    wins += 1;
                    assert!(allowed, "{mv} wins in {game:?}, but was ruled out (any: {any})");
                }
                if matches!(mv, Move::Place { .. }) && allowed {
                    placements_allowed += 1;
                    assert!(
                        won,
                        "seed {seed}, turn {}: {mv} was said to win, but does not",
                        game.turns_played()
                    );
                }
            }
            let (next, r) = splitmix64(state);
            state = next;
            game.play(moves[(r % moves.len() as u64) as usize]);
        }
    }
    // The check has teeth: positions where some turn wins, and positions ruled out whole.
    assert!(wins > 20 && ruled_out > positions / 2, "{wins} wins, {ruled_out} of {positions}");
    assert!(turns_skipped > 0);
    assert!(placements_allowed > 0);
}

/// The rules decide a connection from the groups of the points a turn changed (nobody was
/// connected before it): after every turn of games played to their end, shift-heavy ones
/// included, the outcome is the one the whole board's groups give.
#[test]
fn every_connection_is_seen_where_it_is_made() {
    let mut connections = 0;
    let mut games: Vec<RandomGame<Position>> = Vec::new();
    for seed in 0..40u64 {
        let variant = if seed % 2 == 0 { "standard" } else { "basic" };
        if seed < 8 {
            games.push(shift_heavy_game(variant, seed, 60));
        }
        games.push(connecting_game(variant, seed + 100));
    }
    let mut by_shift = 0;
    for game in &games {
        for (before, (after, &mv)) in
            game.positions.iter().zip(game.positions[1..].iter().zip(&game.moves))
        {
            let mover = before.to_move();
            let white = after.is_connected(Player::P1);
            let black = after.is_connected(Player::P2);
            let expected = match (white, black) {
                (true, true) => Some(Outcome::Win(mover)),
                (true, false) => Some(Outcome::Win(Player::P1)),
                (false, true) => Some(Outcome::Win(Player::P2)),
                (false, false) => None,
            };
            if expected.is_some() {
                connections += 1;
                by_shift += usize::from(matches!(mv, Move::Shift { .. }));
                assert_eq!(after.outcome(), expected, "{}", before.format_move(mv));
            } else if let Some(Outcome::Win(_)) = after.outcome() {
                // Only the last placement's centre count ([E3]) wins without a connection.
                let placed = matches!(mv, Move::Place { .. });
                let left: u32 = Kind::ALL.iter().map(|&k| u32::from(after.supply(mover, k))).sum();
                assert!(
                    placed && left == 0,
                    "a win without a connection: {}",
                    before.format_move(mv)
                );
            }
        }
    }
    assert!(connections >= 15 && by_shift >= 3, "{connections} connections, {by_shift} by shifts");
}

/// A game to its end in which each player mostly takes one of the turns the move prior likes
/// best (it favours his shortest connection), so that games end by connections, and one of
/// the shifts it likes best a fifth of the time, so that shifts make some of them.
fn connecting_game(variant: &str, seed: u64) -> RandomGame<Position> {
    use ply_core::Evaluator;
    let eval = ply_punct::Eval::default();
    let mut pos = Position::new(variant).unwrap();
    let mut state = seed;
    let mut out = vec![pos.clone()];
    let mut played = Vec::new();
    let (mut moves, mut priors) = (Vec::new(), Vec::new());
    while pos.outcome().is_none() && played.len() < 300 {
        pos.legal_moves(&mut moves);
        eval.move_priors(&pos, &moves, &mut priors);
        let (s, r) = splitmix64(state);
        state = s;
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(priors[i]));
        let shifts: Vec<usize> =
            order.iter().copied().filter(|&i| matches!(moves[i], Move::Shift { .. })).collect();
        let pick = if r % 5 == 0 {
            moves[(r >> 8) as usize % moves.len()]
        } else if r % 5 == 1 && !shifts.is_empty() {
            moves[shifts[(r >> 8) as usize % shifts.len().min(4)]]
        } else {
            moves[order[(r >> 8) as usize % order.len().min(4)]]
        };
        pos.play(pick);
        played.push(pick);
        out.push(pos.clone());
    }
    RandomGame { positions: out, moves: played }
}
