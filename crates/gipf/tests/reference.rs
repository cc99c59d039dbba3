//! Differential test: a deliberately naive model of gipf.md, written from the text again
//! (column/row coordinates and the neighbour table of 2.3, vectors, strings; no bitboards and
//! no code shared with the engine), compared with the engine on random positions: the set of
//! legal turns in canonical notation and the position after each of them.

use crate::common;

use ply_core::zobrist::splitmix64;
use ply_core::{Game, Outcome, Player};
use ply_gipf::{EntryPhase, Piece, Point, Position, Setup, Variant};

const COLLEN: [i32; 9] = [5, 6, 7, 8, 9, 8, 7, 6, 5];

fn valid(c: i32, r: i32) -> bool {
    (0..9).contains(&c) && r >= 1 && r <= COLLEN[c as usize]
}

fn is_dot(c: i32, r: i32) -> bool {
    c == 0 || c == 8 || r == 1 || r == COLLEN[c as usize]
}

fn idx(c: i32, r: i32) -> usize {
    (COLLEN[..c as usize].iter().sum::<i32>() + r - 1) as usize
}

fn name(c: i32, r: i32) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r)
}

/// One step in direction `d` (N, NE, SE, S, SW, NW) by the table of gipf.md 2.3.
fn step(c: i32, r: i32, d: usize) -> Option<(i32, i32)> {
    let (nc, nr) = match d {
        0 => (c, r + 1),
        1 => (c + 1, if c < 4 { r + 1 } else { r }),
        2 => (c + 1, if c < 4 { r } else { r - 1 }),
        3 => (c, r - 1),
        4 => (c - 1, if c <= 4 { r - 1 } else { r }),
        _ => (c - 1, if c <= 4 { r } else { r + 1 }),
    };
    valid(nc, nr).then_some((nc, nr))
}

type Cell = Option<(usize, bool)>;

#[derive(Clone, Debug)]
struct R {
    cells: Vec<Cell>,
    reserve: [i32; 2],
    captured: [i32; 2],
    entry: [EntryPhase; 2],
    variant: Variant,
}

impl R {
    fn committed(&self, p: usize) -> bool {
        match self.variant {
            Variant::Basic => false,
            Variant::Standard => true,
            Variant::Tournament => self.entry[p] != EntryPhase::NotStarted,
        }
    }
    fn has_gipf(&self, p: usize) -> bool {
        self.cells.contains(&Some((p, true)))
    }
}

/// The 21 lines as lists of (c, r), in ascending order.
fn lines() -> Vec<Vec<(i32, i32)>> {
    let mut out = Vec::new();
    for d in 0..3 {
        for c in 0..9 {
            for r in 1..=COLLEN[c as usize] {
                if is_dot(c, r) {
                    continue;
                }
                let (bc, br) = step(c, r, d + 3).unwrap();
                if !is_dot(bc, br) {
                    continue;
                }
                let mut line = vec![];
                let (mut x, mut y) = (c, r);
                while !is_dot(x, y) {
                    line.push((x, y));
                    (x, y) = step(x, y, d).unwrap();
                }
                out.push(line);
            }
        }
    }
    assert_eq!(out.len(), 21);
    out
}

/// Rows of colour p: (run points in ascending order, mandatory).
fn rows(s: &R, p: usize, lines: &[Vec<(i32, i32)>]) -> Vec<Vec<usize>> {
    let mut out = vec![];
    for line in lines {
        let ids: Vec<usize> = line.iter().map(|&(c, r)| idx(c, r)).collect();
        let mut i = 0;
        while i < ids.len() {
            if matches!(s.cells[ids[i]], Some((q, _)) if q == p) {
                let mut j = i;
                while j + 1 < ids.len() && matches!(s.cells[ids[j + 1]], Some((q, _)) if q == p) {
                    j += 1;
                }
                if j - i + 1 >= 4 {
                    let mut lo = i;
                    while lo > 0 && s.cells[ids[lo - 1]].is_some() {
                        lo -= 1;
                    }
                    let mut hi = j;
                    while hi + 1 < ids.len() && s.cells[ids[hi + 1]].is_some() {
                        hi += 1;
                    }
                    out.push(ids[lo..=hi].to_vec());
                }
                i = j + 1;
            } else {
                i += 1;
            }
        }
    }
    out
}

fn point_name(i: usize) -> String {
    Point::from_index(i).unwrap().to_string()
}

/// Outcome of a branch: tokens so far, state, winner if the game ended.
type Branch = (Vec<String>, R, Option<usize>);

/// One step with every keep choice; returns (token, state, winner).
fn steps(s: &R, p: usize, run: &[usize]) -> Vec<(String, R, Option<usize>, Vec<usize>)> {
    let gipfs: Vec<usize> = run.iter().copied().filter(|&i| s.cells[i].unwrap().1).collect();
    let mut out = vec![];
    for mask in 0..(1u32 << gipfs.len()) {
        let kept: Vec<usize> =
            gipfs.iter().enumerate().filter(|(k, _)| mask >> k & 1 == 1).map(|(_, &i)| i).collect();
        if kept.len() == run.len() {
            continue;
        }
        let mut t = s.clone();
        for &i in run {
            if kept.contains(&i) {
                continue;
            }
            let (owner, g) = t.cells[i].unwrap();
            let chips = if g { 2 } else { 1 };
            if owner == p {
                t.reserve[p] += chips;
            } else {
                t.captured[p] += chips;
            }
            t.cells[i] = None;
        }
        let mut token = format!("x{}-{}", point_name(run[0]), point_name(*run.last().unwrap()));
        let mut k = kept.clone();
        k.sort();
        for i in &k {
            token.push('+');
            token.push_str(&point_name(*i));
        }
        let winner = if t.committed(p) && !t.has_gipf(p) {
            Some(1 - p)
        } else if t.committed(1 - p) && !t.has_gipf(1 - p) {
            Some(p)
        } else {
            None
        };
        out.push((token, t, winner, kept));
    }
    out
}

/// The removal phase of 4.6, literally.
fn phase(
    s: &R,
    p: usize,
    k: &[usize],
    lines: &[Vec<(i32, i32)>],
    out: &mut Vec<Branch>,
    toks: &mut Vec<String>,
) {
    let live: Vec<Vec<usize>> =
        rows(s, p, lines).into_iter().filter(|run| run.iter().any(|i| !k.contains(i))).collect();
    let overlaps = |a: &Vec<usize>, b: &Vec<usize>| a.iter().any(|i| b.contains(i));
    let mandatory = |run: &Vec<usize>| run.iter().any(|&i| !s.cells[i].unwrap().1);
    let ent: Vec<&Vec<usize>> = live
        .iter()
        .enumerate()
        .filter(|(i, a)| live.iter().enumerate().any(|(j, b)| *i != j && overlaps(a, b)))
        .map(|(_, a)| a)
        .collect();
    let mut sep: Vec<&Vec<usize>> = live.iter().filter(|a| !ent.contains(a)).collect();
    for row in &ent {
        for (token, t, winner, kept) in steps(s, p, row) {
            toks.push(token);
            if winner.is_some() {
                out.push((toks.clone(), t, winner));
            } else {
                let mut k2 = k.to_vec();
                k2.extend(kept);
                phase(&t, p, &k2, lines, out, toks);
            }
            toks.pop();
        }
    }
    if ent.iter().any(|r| mandatory(r)) {
        return;
    }
    sep.sort_by_key(|r| r[0]);
    batch(s, p, &sep, out, toks);
}

fn batch(s: &R, p: usize, rows: &[&Vec<usize>], out: &mut Vec<Branch>, toks: &mut Vec<String>) {
    let Some((row, rest)) = rows.split_first() else {
        out.push((toks.clone(), s.clone(), None));
        return;
    };
    if row.iter().all(|&i| s.cells[i].unwrap().1) {
        batch(s, p, rest, out, toks);
    }
    for (token, t, winner, _) in steps(s, p, row) {
        toks.push(token);
        if winner.is_some() {
            out.push((toks.clone(), t, winner));
        } else {
            batch(&t, p, rest, out, toks);
        }
        toks.pop();
    }
}

/// Every legal turn: its text, the state after it, and the winner if the game ended.
fn turns(s: &R, p: usize, lines: &[Vec<(i32, i32)>]) -> Vec<(String, R, Option<usize>)> {
    let mut pre = vec![];
    phase(s, p, &[], lines, &mut pre, &mut vec![]);
    let mut out = vec![];
    for (toks, st, winner) in pre {
        if winner.is_some() {
            out.push((toks.join(","), st, winner));
            continue;
        }
        if st.reserve[p] == 0 {
            if !toks.is_empty() {
                out.push((toks.join(","), st, Some(1 - p)));
            }
            continue;
        }
        let kinds: Vec<bool> = match (st.variant, st.entry[p]) {
            (Variant::Tournament, EntryPhase::NotStarted) => vec![true],
            (Variant::Tournament, EntryPhase::GipfPieces) if st.reserve[p] >= 2 => {
                vec![false, true]
            }
            _ => vec![false],
        };
        for c in 0..9 {
            for r in 1..=COLLEN[c as usize] {
                if !is_dot(c, r) {
                    continue;
                }
                for d in 0..6 {
                    let Some((fc, fr)) = step(c, r, d) else { continue };
                    if is_dot(fc, fr) {
                        continue;
                    }
                    let mut ray = vec![];
                    let (mut x, mut y) = (fc, fr);
                    while !is_dot(x, y) {
                        ray.push(idx(x, y));
                        (x, y) = step(x, y, d).unwrap();
                    }
                    let Some(e) = ray.iter().position(|&i| st.cells[i].is_none()) else {
                        continue;
                    };
                    for &g in &kinds {
                        let mut t = st.clone();
                        for k in (1..=e).rev() {
                            t.cells[ray[k]] = t.cells[ray[k - 1]];
                        }
                        t.cells[ray[0]] = Some((p, g));
                        t.reserve[p] -= if g { 2 } else { 1 };
                        if t.variant == Variant::Tournament {
                            t.entry[p] =
                                if g { EntryPhase::GipfPieces } else { EntryPhase::Singles };
                        }
                        let push =
                            format!("{}{}-{}", if g { "G" } else { "" }, name(c, r), name(fc, fr));
                        let mut post = vec![];
                        phase(&t, p, &[], lines, &mut post, &mut vec![]);
                        for (toks2, st2, winner2) in post {
                            let mut all = toks.clone();
                            all.push(push.clone());
                            all.extend(toks2);
                            let winner = winner2.or_else(|| {
                                (st2.reserve[1 - p] == 0 && rows(&st2, 1 - p, lines).is_empty())
                                    .then_some(p)
                            });
                            out.push((all.join(","), st2, winner));
                        }
                    }
                }
            }
        }
    }
    out
}

fn from_position(pos: &Position) -> R {
    let mut cells = vec![None; 61];
    for pt in Point::all() {
        if let Some(piece) = pos.piece_at(pt) {
            cells[pt.index()] = Some((piece.player.index(), piece.gipf));
        }
    }
    R {
        cells,
        reserve: [i32::from(pos.reserve(Player::P1)), i32::from(pos.reserve(Player::P2))],
        captured: [i32::from(pos.captured(Player::P1)), i32::from(pos.captured(Player::P2))],
        entry: [pos.entry_phase(Player::P1), pos.entry_phase(Player::P2)],
        variant: pos.variant_kind(),
    }
}

fn compare(pos: &Position, lines: &[Vec<(i32, i32)>]) {
    let p = pos.to_move().index();
    let mut want = turns(&from_position(pos), p, lines);
    want.sort_by(|a, b| a.0.cmp(&b.0));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut got: Vec<(String, ply_gipf::Move)> =
        moves.iter().map(|&m| (pos.format_move(m), m)).collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let got_names: Vec<&String> = got.iter().map(|t| &t.0).collect();
    let names: Vec<&String> = want.iter().map(|t| &t.0).collect();
    assert_eq!(got_names, names, "turns differ in {}", common::board(pos));
    for ((text, st, winner), (_, m)) in want.into_iter().zip(got) {
        let mut after = pos.clone();
        after.play(m);
        let r = from_position(&after);
        assert_eq!(r.cells, st.cells, "{text}");
        assert_eq!(r.reserve, st.reserve, "{text}");
        assert_eq!(r.captured, st.captured, "{text}");
        assert_eq!(r.entry, st.entry, "{text}");
        let outcome = winner.map(|w| Outcome::Win(Player::from_index(w)));
        assert_eq!(after.outcome(), outcome, "{text} in {}", common::board(pos));
    }
}

/// A random position rich in rows: a few lines filled with one colour, plus scattered pieces.
fn random_setup(variant: Variant, seed: u64) -> Option<Position> {
    let mut state = seed;
    let mut rnd = |n: u64| {
        let (next, r) = splitmix64(state);
        state = next;
        r % n
    };
    let lines = lines();
    let mut cells: Vec<Cell> = vec![None; 61];
    let max_gipf = match variant {
        Variant::Basic => 0,
        Variant::Standard => 3,
        Variant::Tournament => 9,
    };
    let mut gipfs = [0; 2];
    let mut chips = [0i32; 2];
    let total = i32::from(variant.chips());
    let mut place = |i: usize, p: usize, want_gipf: bool, cells: &mut Vec<Cell>| {
        if cells[i].is_some() {
            return;
        }
        let g = want_gipf && gipfs[p] < max_gipf && chips[p] + 2 < total;
        let cost = if g { 2 } else { 1 };
        if chips[p] + cost > total - 1 {
            return;
        }
        chips[p] += cost;
        if g {
            gipfs[p] += 1;
        }
        cells[i] = Some((p, g));
    };
    let gipf_bias = if variant == Variant::Tournament { 3 } else { 6 };
    for _ in 0..rnd(4) + 1 {
        let line = &lines[rnd(21) as usize];
        let p = rnd(2) as usize;
        let len = (4 + rnd(3) as usize).min(line.len());
        let start = rnd((line.len() - len + 1) as u64) as usize;
        for &(c, r) in &line[start..start + len] {
            let owner = if rnd(7) == 0 { 1 - p } else { p };
            place(idx(c, r), owner, rnd(gipf_bias) == 0, &mut cells);
        }
    }
    for _ in 0..rnd(12) {
        let pt = rnd(61) as usize;
        let pt = Point::from_index(pt).unwrap();
        if !pt.is_dot() {
            place(pt.index(), rnd(2) as usize, rnd(gipf_bias) == 0, &mut cells);
        }
    }
    let mut setup = Setup::from_lists(variant, "", "").unwrap();
    for (i, c) in cells.iter().enumerate() {
        if let Some((p, g)) = *c {
            setup.pieces.push((
                Point::from_index(i).unwrap(),
                Piece { player: Player::from_index(p), gipf: g },
            ));
        }
    }
    for (p, &used) in chips.iter().enumerate() {
        let spare = total - used;
        let cap = rnd(spare as u64 + 1) as i32;
        setup.captured[1 - p] = cap as u8;
        setup.reserve[p] = (spare - cap) as u8;
        // Small reserves now and then, to reach the reserve rules.
        if rnd(4) == 0 {
            setup.captured[1 - p] = (spare - rnd(2) as i32) as u8;
            setup.reserve[p] = (spare - i32::from(setup.captured[1 - p])) as u8;
        }
    }
    setup.to_move = Player::from_index(rnd(2) as usize);
    setup.entry = [
        if rnd(2) == 0 { EntryPhase::GipfPieces } else { EntryPhase::Singles },
        if rnd(2) == 0 { EntryPhase::GipfPieces } else { EntryPhase::Singles },
    ];
    let pos = Position::from_setup(&setup).ok()?;
    pos.outcome().is_none().then_some(pos)
}

#[test]
fn reference_model_agrees_on_random_positions() {
    let lines = lines();
    let mut checked = 0;
    let mut with_removals = 0;
    // Positions with: a removal-only turn, a kept GIPF piece, 3+ removals, turns with and
    // without removals side by side.
    let mut features = [0usize; 4];
    for variant in [Variant::Basic, Variant::Standard, Variant::Tournament] {
        for seed in 0..600u64 {
            let Some(mut pos) = random_setup(variant, seed * 3 + variant as u64) else { continue };
            // The setup itself, then a few random turns from it.
            let mut state = seed;
            for _ in 0..6 {
                if pos.outcome().is_some() {
                    break;
                }
                let t0 = std::time::Instant::now();
                compare(&pos, &lines);
                if t0.elapsed().as_millis() > 500 {
                    println!(
                        "slow: {variant:?} seed {seed}: {:?} {}",
                        t0.elapsed(),
                        common::board(&pos)
                    );
                }
                checked += 1;
                if common::legal(&pos).len() <= 400 {
                    common::check_click_paths(&pos);
                }
                let turns = common::legal(&pos);
                if turns.iter().any(|t| t.contains('x')) {
                    with_removals += 1;
                }
                let removal_only = |t: &String| t.split(',').all(|k| k.starts_with('x'));
                let kept = |t: &String| t.contains('+');
                let many = |t: &String| t.matches('x').count() >= 3;
                // Optional rows left standing: a turn with a removal and a bare push both exist.
                let optional = turns.iter().any(|t| t.contains('x'))
                    && turns.iter().any(|t| !t.contains('x'))
                    && !turns.iter().all(|t| t.contains('x') == turns[0].contains('x'));
                for (i, f) in [
                    removal_only(&turns[0]) || turns.iter().any(removal_only),
                    turns.iter().any(kept),
                    turns.iter().any(many),
                    optional,
                ]
                .into_iter()
                .enumerate()
                {
                    features[i] += usize::from(f);
                }
                let (next, r) = splitmix64(state);
                state = next;
                let t = &turns[(r % turns.len() as u64) as usize];
                common::play(&mut pos, t);
            }
        }
    }
    assert!(checked > 400, "{checked}");
    assert!(with_removals > 150, "{with_removals}");
    println!("{checked} positions, {with_removals} with removals, features {features:?}");
    assert!(features.iter().all(|&n| n >= 20), "{features:?}");
}

#[test]
fn reference_model_agrees_on_the_worked_examples() {
    let lines = lines();
    for pos in [common::gt1(), common::gt2(), common::gt3()] {
        compare(&pos, &lines);
    }
    for variant in ["basic", "standard", "tournament"] {
        compare(&Position::new(variant).unwrap(), &lines);
    }
}
