//! A consistency harness every rules crate runs over random games (shakmaty's fuzz targets and
//! board-game's harness, done as a plain function so proptest can drive it with seeds).

use std::collections::HashSet;
use std::fmt::Debug;

use crate::{Game, Outcome, PositionString, View, perft, zobrist::splitmix64};

/// What one random game looked like, for further checks by the caller.
#[derive(Clone, Debug)]
pub struct RandomGame<G: Game> {
    /// The position after every turn, the start first.
    pub positions: Vec<G>,
    /// The turns played.
    pub moves: Vec<G::Move>,
}

/// Plays one random game of at most `max_turns` turns from `start`, choosing moves with a
/// generator seeded by `seed`, and checks every position as [`walk`] does.
///
/// `check` is called on every position for game-specific invariants (piece conservation…).
///
/// # Panics
/// On the first violation, with a message naming the turn number and the moves so far.
pub fn random_game<G, F>(start: &G, seed: u64, max_turns: usize, check: F) -> RandomGame<G>
where
    G: Game + PartialEq + Debug,
    F: FnMut(&G),
{
    let mut state = seed;
    let mut turns = 0;
    let pick = |count: usize| {
        if turns == max_turns {
            return None;
        }
        turns += 1;
        let (next, r) = splitmix64(state);
        state = next;
        Some((r % count as u64) as usize)
    };
    walk(start, pick, check)
}

/// Plays a game from `start` with the turns `pick` chooses and checks at every position:
///
/// * no move is generated twice, and moves exist exactly when the game is not over;
/// * every move formats and parses back to itself;
/// * the incremental hash equals the recomputed one, after `play` and after `undo`;
/// * `undo` restores the position exactly;
/// * `turns_played` counts up and down with `play` and `undo`;
/// * [`Game::legal_without_listing`] says legal only of legal moves, asked about this
///   position's moves and the two before's; where the game sets
///   [`Game::LEGALITY_WITHOUT_LISTING`], of every legal move or of none;
/// * `check`, the caller's game-specific invariants (piece conservation…).
///
/// `pick` is given the number of legal moves (at least one) and returns the index of the
/// move to play in [`Game::legal_moves`] order, or `None` to stop; the walk also stops when
/// the game ends. The fuzz targets drive it with the fuzzer's bytes, [`random_game`] with a
/// seeded generator.
///
/// # Panics
/// On the first violation, with a message naming the turn number and the moves so far, and
/// when `pick` returns an index that is not below the number of moves.
pub fn walk<G, P, F>(start: &G, mut pick: P, mut check: F) -> RandomGame<G>
where
    G: Game + PartialEq + Debug,
    P: FnMut(usize) -> Option<usize>,
    F: FnMut(&G),
{
    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut played: Vec<G::Move> = Vec::new();
    let mut positions = vec![game.clone()];
    let mut names: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    // The legal moves of the two positions before this one: moves of other positions, as the
    // search remembers them, to ask `legal_without_listing` about.
    let mut earlier: [Vec<G::Move>; 2] = [Vec::new(), Vec::new()];
    for turn in 0.. {
        check(&game);
        assert_eq!(game.hash(), game.compute_hash(), "hash drifted before turn {turn}: {names:?}");
        game.legal_moves(&mut moves);
        assert_eq!(
            moves.is_empty(),
            game.outcome().is_some(),
            "moves must exist exactly while the game is on (turn {turn}, {names:?})"
        );
        seen.clear();
        for &mv in &moves {
            assert!(seen.insert(mv), "move {mv:?} generated twice at turn {turn}: {names:?}");
            let text = game.format_move(mv);
            match game.parse_move(&text) {
                Ok(back) => assert_eq!(back, mv, "'{text}' parses to another move at turn {turn}"),
                Err(e) => panic!("'{text}' does not parse back at turn {turn}: {e} ({names:?})"),
            }
        }
        for &mv in earlier.iter().flatten() {
            assert!(
                !game.legal_without_listing(mv) || seen.contains(&mv),
                "{mv:?} is told legal without listing at turn {turn} but is not: {names:?}"
            );
        }
        let told_legal = moves.iter().filter(|&&mv| game.legal_without_listing(mv)).count();
        assert!(
            !G::LEGALITY_WITHOUT_LISTING || told_legal == 0 || told_legal == moves.len(),
            "{told_legal} of the {} legal moves told legal without listing at turn {turn}: \
             {names:?}",
            moves.len()
        );
        if moves.is_empty() {
            break;
        }
        earlier.swap(0, 1);
        earlier[1].clone_from(&moves);
        let Some(index) = pick(moves.len()) else { break };
        let mv = moves[index];
        names.push(game.format_move(mv));
        let before = game.clone();
        let count = game.turns_played();
        game.play(mv);
        assert_eq!(game.turns_played(), count + 1);
        assert_eq!(game.hash(), game.compute_hash(), "hash drifted after {names:?}");
        game.undo();
        assert_eq!(game, before, "undo did not restore the position after {names:?}");
        assert_eq!(game.hash(), before.hash());
        assert_eq!(game.turns_played(), count);
        game.play(mv);
        played.push(mv);
        positions.push(game.clone());
    }
    RandomGame { positions, moves: played }
}

/// The start of `variant` after the turns `moves` (in notation), each legal in turn: the
/// hand-made openings of the tests.
///
/// # Panics
/// On an unknown variant or a turn that is not legal then, naming it.
#[must_use]
pub fn after_moves<G: Game>(variant: &str, moves: &[&str]) -> G {
    let mut game = G::new(variant).unwrap_or_else(|e| panic!("{e}"));
    for m in moves {
        let mv = game.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        game.play(mv);
    }
    game
}

/// The legal turns of a position in notation, sorted.
fn notations<G: Game>(game: &G) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.into_iter().map(|m| game.format_move(m)).collect();
    out.sort();
    out
}

/// Checks the position strings of every position of a random game ([`PositionString`]):
///
/// * each position's string parses back to a position with the same hash, the same string,
///   the same legal turns and the same outcome, without history;
/// * from each of up to `cuts` positions (spread over the game), the game continued from the
///   parsed string with the same turns (read from their notation) goes on exactly as the
///   original: same strings, hashes, legal turns and outcomes after every turn. The one
///   allowed difference is the repetition rule, which counts from the parsed position: the
///   original may end in a draw where the copy goes on, and only when that position had
///   already occurred before the cut.
///
/// Returns how many continuations stopped at such a repetition.
///
/// # Panics
/// On the first violation, naming the turn and the string.
pub fn check_position_strings<G>(game: &RandomGame<G>, cuts: usize) -> usize
where
    G: PositionString,
{
    let strings: Vec<String> = game.positions.iter().map(PositionString::position_string).collect();
    for (turn, (pos, text)) in game.positions.iter().zip(&strings).enumerate() {
        assert!(!text.chars().any(char::is_whitespace), "whitespace in '{text}'");
        let back = G::from_position_string(text)
            .unwrap_or_else(|e| panic!("turn {turn}: '{text}' does not parse: {e}"));
        assert_eq!(back.position_string(), *text, "turn {turn}: string changed on a round trip");
        assert_eq!(
            back.hash(),
            pos.hash(),
            "turn {turn}: hash changed on a round trip of '{text}'"
        );
        assert_eq!(
            back.hash(),
            back.compute_hash(),
            "turn {turn}: parsed hash is not the computed one"
        );
        assert_eq!(back.outcome(), pos.outcome(), "turn {turn}: outcome of '{text}'");
        assert_eq!(back.to_move(), pos.to_move(), "turn {turn}: player to move of '{text}'");
        assert_eq!(back.turns_played(), 0);
        assert_eq!(notations(&back), notations(pos), "turn {turn}: legal turns of '{text}'");
    }
    let n = game.positions.len();
    let step = (n / cuts.max(1)).max(1);
    let mut repetitions = 0;
    for cut in (0..n).step_by(step) {
        let mut copy = G::from_position_string(&strings[cut]).expect("checked above");
        for k in cut..game.moves.len() {
            let original = &game.positions[k];
            let name = original.format_move(game.moves[k]);
            let mv = copy.parse_move(&name).unwrap_or_else(|e| {
                panic!("cut {cut}, turn {k}: '{name}' not legal in the copy: {e}")
            });
            copy.play(mv);
            let next = &game.positions[k + 1];
            if next.outcome() != copy.outcome() {
                assert!(
                    next.outcome() == Some(Outcome::Draw) && copy.outcome().is_none(),
                    "cut {cut}, turn {k}: outcome {:?} in the original, {:?} in the copy",
                    next.outcome(),
                    copy.outcome()
                );
                assert!(
                    strings[..cut].contains(&copy.position_string()),
                    "cut {cut}, turn {k}: a draw in the original that is no repetition of a \
                     position before the cut"
                );
                repetitions += 1;
                break;
            }
            assert_eq!(copy.position_string(), strings[k + 1], "cut {cut}, after turn {k}");
            assert_eq!(copy.hash(), next.hash(), "cut {cut}, after turn {k}: hash");
            assert_eq!(notations(&copy), notations(next), "cut {cut}, after turn {k}: legal turns");
        }
    }
    repetitions
}

/// [`check_position_strings`] on one random game of every variant of `G` (at most 300 turns,
/// three cuts each), from `seed`.
///
/// # Panics
/// As [`check_position_strings`].
pub fn check_position_strings_of_every_variant<G>(seed: u64)
where
    G: PositionString + PartialEq + Debug,
{
    for variant in G::variants() {
        let start = G::new(variant).expect("a listed variant");
        check_position_strings(&random_game(&start, seed, 300, |_| {}), 3);
    }
}

/// Reads a file of texts that are no position strings of `G` (`tests/data/position_errors.txt`
/// of each game): one case a line, `<text> | <words>`, where the error must name the words
/// (the field that is wrong, what is wrong with it). `#` starts a comment line; blank lines
/// are skipped; the text may be empty. Returns how many cases ran.
///
/// # Panics
/// When a text reads as a position or its error does not contain the words (after running
/// them all), or a line does not read.
pub fn check_position_errors<G: PositionString>(file: &str) -> usize {
    let mut ran = 0;
    let mut wrong = Vec::new();
    for (i, raw) in file.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (text, words) = line
            .rsplit_once('|')
            .unwrap_or_else(|| panic!("position errors line {}: no '|' in '{line}'", i + 1));
        let (text, words) = (text.trim(), words.trim());
        ran += 1;
        match G::from_position_string(text) {
            Ok(_) => wrong.push(format!("line {}: '{text}' reads as a position", i + 1)),
            Err(e) if !e.to_string().contains(words) => {
                wrong.push(format!("line {}: '{text}': \"{e}\" does not name {words}", i + 1));
            }
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "position errors differ:\n{}", wrong.join("\n"));
    ran
}

/// The position-string tests of a game crate (`tests/position_string.rs`): random positions
/// of every variant round-trip and play on ([`check_position_strings_of_every_variant`],
/// `cases` random seeds chosen by proptest), damaged strings are errors, not panics
/// ([`check_position_garbage`]), and the errors of a file of bad strings name what is wrong
/// ([`check_position_errors`]). The crate needs `proptest` among its dev-dependencies.
///
/// ```ignore
/// ply_core::position_string_tests!(ply_boop::Boop, cases: 16,
///     errors: include_str!("data/position_errors.txt"));
/// ```
#[macro_export]
macro_rules! position_string_tests {
    ($game:ty, cases: $cases:expr, errors: $errors:expr $(,)?) => {
        ::proptest::proptest! {
            #![proptest_config(::proptest::prelude::ProptestConfig::with_cases($cases))]

            #[test]
            fn random_positions_round_trip_and_play_on(seed in ::proptest::prelude::any::<u64>()) {
                $crate::testkit::check_position_strings_of_every_variant::<$game>(seed);
            }
        }

        #[test]
        fn garbage_is_an_error_not_a_panic() {
            $crate::testkit::check_position_garbage::<$game>();
        }

        #[test]
        fn errors_name_the_field() {
            let ran = $crate::testkit::check_position_errors::<$game>($errors);
            assert!(ran > 0, "no position errors");
        }
    };
}

/// Feeds `G`'s position-string reader damaged copies of its start string (every prefix,
/// fields cut or doubled, every character replaced by a few others): each is an error or a
/// position, never a panic, and whatever is accepted writes itself back and can be played.
///
/// # Panics
/// When an accepted string gives a position that does not round-trip or has moves after
/// its end (or none before it).
pub fn check_position_garbage<G: PositionString>() {
    let start = G::new(G::default_variant()).expect("the default variant").position_string();
    let mut texts =
        vec![String::new(), ";".repeat(40), G::NAME.to_string(), start.replace(';', ",")];
    // Every prefix, every field cut or doubled, and every byte replaced by a few others.
    for i in 0..=start.len() {
        if start.is_char_boundary(i) {
            texts.push(start[..i].to_string());
            texts.push(format!("{}{}", &start[..i], &start[i..]).replacen(';', ";;", 1));
        }
    }
    for (i, _) in start.char_indices() {
        for c in ['-', ',', '/', '@', '9', 'x', 'Z', ':', ';', '*'] {
            let mut t = start.clone();
            t.replace_range(i..=i, &c.to_string());
            texts.push(t);
        }
    }
    for t in texts {
        if let Ok(pos) = G::from_position_string(&t) {
            let again = G::from_position_string(&pos.position_string()).expect("written back");
            assert_eq!(again.hash(), pos.hash(), "{t}");
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            assert_eq!(moves.is_empty(), pos.outcome().is_some(), "{t}");
        }
    }
}

/// The ids of the elements of an SVG document (every `id="…"` attribute, in order).
#[must_use]
pub fn svg_ids(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find(" id=\"") {
        rest = &rest[at + 5..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}

/// Checks the picture contract ([`View`]) of every turn of a random game: each picture's
/// ids are unique; each turn's click path names elements of the picture before it; each
/// motion names a piece of the picture after the turn, starts from an element of the picture
/// before it, and no piece travels twice.
///
/// # Panics
/// On the first violation, naming the turn.
pub fn check_views<G>(game: &RandomGame<G>)
where
    G: Game + View,
{
    let pictures: Vec<HashSet<String>> = game
        .positions
        .iter()
        .enumerate()
        .map(|(turn, pos)| {
            let ids = svg_ids(&pos.svg());
            let unique: HashSet<String> = ids.iter().cloned().collect();
            assert_eq!(unique.len(), ids.len(), "duplicate ids in the picture before turn {turn}");
            unique
        })
        .collect();
    for (turn, (pos, &mv)) in game.positions.iter().zip(&game.moves).enumerate() {
        let name = pos.format_move(mv);
        let (before, after) = (&pictures[turn], &pictures[turn + 1]);
        for id in pos.click_path(mv) {
            assert!(before.contains(&id), "turn {turn} ({name}): click path item {id} not drawn");
        }
        let mut moved = HashSet::new();
        for m in pos.motions(mv) {
            assert!(after.contains(&m.piece), "turn {turn} ({name}): {m:?} ends on no piece");
            assert!(before.contains(&m.from), "turn {turn} ({name}): {m:?} starts nowhere");
            assert!(moved.insert(m.piece.clone()), "turn {turn} ({name}): {m:?} travels twice");
        }
    }
}

/// How long a line of a perft file takes, which says where it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftSpeed {
    /// Unmarked: every test run (the test profile).
    Quick,
    /// Marked `slow`: seconds to a minute optimised, an ignored test that CI runs in the test
    /// profile (`scripts/test-all`) and `scripts/test-release` in release.
    Slow,
    /// Marked `long`: minutes in release, an ignored test run by hand after a change of the
    /// rules (`scripts/test-release --long`).
    Long,
}

/// One line of a perft file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The line number in the file, from 1.
    pub line: usize,
    pub variant: String,
    pub depth: u32,
    pub count: u64,
    /// `start`, `moves: m1 m2 …` (turns from the variant's start) or `position: <string>`.
    pub start: String,
    pub speed: PerftSpeed,
}

/// Reads a perft file (`tests/data/perft.txt` of each game): one case a line,
///
/// ```text
/// <variant> | <depth> | <count> | start                 [| slow | long]
/// <variant> | <depth> | <count> | moves: <turn> <turn>… [| slow | long]
/// <variant> | <depth> | <count> | position: <string>   [| slow | long]
/// ```
///
/// `#` starts a comment line; blank lines are skipped; `_` may group digits in the count.
///
/// # Panics
/// On a line that does not read, naming it.
#[must_use]
pub fn perft_cases(text: &str) -> Vec<PerftCase> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let bad = || -> u64 { panic!("perft file line {}: cannot read '{line}'", i + 1) };
        let speed = match f.get(4).copied() {
            None => Some(PerftSpeed::Quick),
            Some("slow") => Some(PerftSpeed::Slow),
            Some("long") => Some(PerftSpeed::Long),
            Some(_) => None,
        };
        let Some(speed) = speed.filter(|_| (4..=5).contains(&f.len())) else {
            bad();
            continue;
        };
        out.push(PerftCase {
            line: i + 1,
            variant: f[0].to_string(),
            depth: f[1].parse().unwrap_or_else(|_| u32::try_from(bad()).unwrap_or_default()),
            count: f[2].replace('_', "").parse().unwrap_or_else(|_| bad()),
            start: f[3].to_string(),
            speed,
        });
    }
    out
}

/// The position a perft case starts from.
///
/// # Panics
/// When the variant, a turn or the position string is not the game's.
#[must_use]
pub fn perft_position<G: PositionString>(case: &PerftCase) -> G {
    fn at<T>(case: &PerftCase, e: &dyn std::fmt::Display) -> T {
        panic!("perft file line {}: {e}", case.line)
    }
    if let Some(text) = case.start.strip_prefix("position:") {
        let g = G::from_position_string(text.trim()).unwrap_or_else(|e| at(case, &e));
        assert_eq!(g.variant(), case.variant, "perft file line {}: variant", case.line);
        return g;
    }
    let mut g = G::new(&case.variant).unwrap_or_else(|e| at(case, &e));
    if let Some(turns) = case.start.strip_prefix("moves:") {
        for turn in turns.split_whitespace() {
            let mv = g.parse_move(turn).unwrap_or_else(|e| at(case, &format!("{turn}: {e}")));
            g.play(mv);
        }
    } else if case.start != "start" {
        at::<()>(case, &format!("'{}' is not start, moves: … or position: …", case.start));
    }
    g
}

/// Runs the cases of a perft file of the given speed and checks every count; a mismatch
/// names its line. Returns how many cases ran.
///
/// The cases run on every core, the largest counts first so that the longest case does not
/// start last: the slow ZÈRTZ lines are minutes of work each, and CI has two cores.
///
/// # Panics
/// When a count differs (after running them all) or a line does not read.
pub fn check_perft_file<G: PositionString + Send>(text: &str, speed: PerftSpeed) -> usize {
    let mut cases: Vec<PerftCase> =
        perft_cases(text).into_iter().filter(|case| case.speed == speed).collect();
    cases.sort_by_key(|case| std::cmp::Reverse(case.count));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let wrong = std::sync::Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(cases.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let mut g = perft_position::<G>(case);
                    let got = perft(&mut g, case.depth);
                    if got != case.count {
                        let mismatch = format!(
                            "line {}: {} {} depth {}: {got}, the file says {}",
                            case.line, case.variant, case.start, case.depth, case.count
                        );
                        wrong
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .push((case.line, mismatch));
                    }
                }
            });
        }
    });
    let mut wrong = wrong.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    wrong.sort();
    let wrong: Vec<String> = wrong.into_iter().map(|(_, mismatch)| mismatch).collect();
    assert!(wrong.is_empty(), "perft figures differ:\n{}", wrong.join("\n"));
    cases.len()
}

/// The three perft tests of a game crate (`tests/perft.rs`): its perft file's quick lines, and
/// its `slow` and its `long` lines as ignored tests (`scripts/test-release` runs the slow ones
/// in release, `scripts/test-release --long` both).
///
/// ```ignore
/// ply_core::perft_tests!(ply_boop::Boop, include_str!("data/perft.txt"));
/// ```
#[macro_export]
macro_rules! perft_tests {
    ($game:ty, $figures:expr) => {
        #[test]
        fn perft_figures() {
            let ran = $crate::testkit::check_perft_file::<$game>(
                $figures,
                $crate::testkit::PerftSpeed::Quick,
            );
            assert!(ran > 0, "no quick perft figures");
        }

        #[test]
        #[ignore = "seconds to a minute in release: scripts/test-release runs them"]
        fn perft_figures_slow() {
            $crate::testkit::check_perft_file::<$game>($figures, $crate::testkit::PerftSpeed::Slow);
        }

        #[test]
        #[ignore = "minutes in release: scripts/test-release --long runs them"]
        fn perft_figures_long() {
            $crate::testkit::check_perft_file::<$game>($figures, $crate::testkit::PerftSpeed::Long);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::{PerftSpeed, perft_cases};

    #[test]
    fn a_perft_line_is_quick_slow_or_long() {
        let cases = perft_cases(
            "# c\nx | 1 | 2 | start\nx | 2 | 1_000 | start | slow\nx | 3 | 9 | start | long\n",
        );
        let speeds: Vec<PerftSpeed> = cases.iter().map(|c| c.speed).collect();
        assert_eq!(speeds, [PerftSpeed::Quick, PerftSpeed::Slow, PerftSpeed::Long]);
        assert_eq!((cases[1].line, cases[1].count), (3, 1000));
    }

    #[test]
    #[should_panic(expected = "perft file line 1: cannot read")]
    fn an_unknown_speed_names_its_line() {
        let _ = perft_cases("x | 1 | 2 | start | fast\n");
    }

    #[test]
    fn svg_ids_lists_every_id_attribute() {
        let svg =
            r#"<svg id="b"><g id="piece-a1" class="x"><circle cx="1"/></g><rect id="a2"/></svg>"#;
        assert_eq!(super::svg_ids(svg), ["b", "piece-a1", "a2"]);
    }
}
