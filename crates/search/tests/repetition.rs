//! Repetitions and contempt in alpha-beta, on a small game made for it: at `A` the first
//! player may cycle (`A` → `B` → `A`, a draw on the third `A`, as in boop. and ZÈRTZ) or
//! leave for a long line the evaluation calls slightly (or badly) worse for him. The cycle
//! looks good statically (`A` is worth +300 to him), so only a search that sees the
//! repetition as the draw it is scores it right. The same game without the rule (`Endless`,
//! a cycle that goes on for ever, as GIPF's can) checks "no progress"
//! (`AlphaBeta::with_no_progress`). A second game, `Return`, checks that futility skips a
//! quiet move that may come back to a position only where that draw could not count.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ply_core::{Evaluate, Evaluator, Game, MoveError, Outcome, Player, VariantError};
use ply_search::{AlphaBeta, Limits, Searcher};

/// The positions of a small test game and its moves between them.
trait Graph: Copy + Eq + std::fmt::Debug + Send + Sync + 'static {
    const START: Self;
    /// Each move's name, by its number.
    const MOVE_NAMES: &'static [&'static str];
    fn moves(self) -> &'static [u8];
    fn after(self, mv: u8) -> Self;
    /// A number of its own (for the hash).
    fn code(self) -> u64;
}

/// A game that walks over the positions of `N`. `RULE`: whether the third time a position
/// comes back draws (the game's `REPETITION_DRAWS`).
#[derive(Clone, Debug)]
struct Walk<N, const RULE: bool> {
    /// Every position so far, the current one last.
    line: Vec<(N, Player)>,
}

impl<N: Graph, const RULE: bool> Walk<N, RULE> {
    fn start() -> Self {
        Walk { line: vec![(N::START, Player::P1)] }
    }
    fn here(&self) -> (N, Player) {
        *self.line.last().unwrap()
    }
}

impl<N: Graph, const RULE: bool> Game for Walk<N, RULE> {
    type Move = u8;
    const NAME: &'static str = "walk";
    const DISPLAY_NAME: &'static str = "walk";
    const REPETITION_DRAWS: bool = RULE;
    fn variants() -> &'static [&'static str] {
        &["walk"]
    }
    fn new(_: &str) -> Result<Self, VariantError> {
        Ok(Walk::start())
    }
    fn variant(&self) -> &'static str {
        "walk"
    }
    fn to_move(&self) -> Player {
        self.here().1
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.outcome().is_none() {
            out.extend_from_slice(self.here().0.moves());
        }
    }
    fn play(&mut self, mv: u8) {
        let (node, mover) = self.here();
        self.line.push((node.after(mv), mover.other()));
    }
    fn undo(&mut self) {
        self.line.pop();
    }
    fn turns_played(&self) -> usize {
        self.line.len() - 1
    }
    fn outcome(&self) -> Option<Outcome> {
        let here = self.here();
        let seen = self.line.iter().filter(|&&p| p == here).count();
        (RULE && seen >= 3).then_some(Outcome::Draw)
    }
    fn hash(&self) -> u64 {
        let (node, mover) = self.here();
        node.code().wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ mover as u64
    }
    fn compute_hash(&self) -> u64 {
        self.hash()
    }
    fn format_move(&self, mv: u8) -> String {
        N::MOVE_NAMES[usize::from(mv)].into()
    }
    fn parse_move(&self, s: &str) -> Result<u8, MoveError> {
        let named = N::MOVE_NAMES.iter().position(|&name| name == s);
        named.map(|mv| mv as u8).ok_or_else(|| MoveError::Syntax(s.into()))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    A,
    B,
    /// The line after leaving, `k` turns into it.
    Tail(u32),
}

const CYCLE: u8 = 0;
const LEAVE: u8 = 1;

impl Graph for Node {
    const START: Node = Node::A;
    const MOVE_NAMES: &'static [&'static str] = &["cycle", "leave"];
    fn moves(self) -> &'static [u8] {
        if self == Node::A { &[CYCLE, LEAVE] } else { &[CYCLE] }
    }
    fn after(self, mv: u8) -> Node {
        match (self, mv) {
            (Node::A, LEAVE) => Node::Tail(0),
            (Node::A, _) => Node::B,
            (Node::B, _) => Node::A,
            (Node::Tail(k), _) => Node::Tail(k + 1),
        }
    }
    fn code(self) -> u64 {
        match self {
            Node::A => 1,
            Node::B => 2,
            Node::Tail(k) => 3 + u64::from(k),
        }
    }
}

/// The cycle game, a position seen three times a draw.
type Cycle = Walk<Node, true>;

/// The cycle without a rule against it.
type Endless = Walk<Node, false>;

/// The cycle's evaluation: `A` and `B` are worth +300 to the first player, the line after
/// leaving `tail_value` (slightly or badly worse).
#[derive(Clone, Copy, Debug)]
struct CycleEval {
    tail_value: i32,
}

/// The tail's value in most of these tests: a little worse for the first player than the
/// draw.
const SLIGHTLY_WORSE: i32 = -10;

impl Default for CycleEval {
    fn default() -> Self {
        CycleEval { tail_value: SLIGHTLY_WORSE }
    }
}

impl<const RULE: bool> Evaluate for Walk<Node, RULE> {
    type Evaluator = CycleEval;
}

impl<const RULE: bool> Evaluator<Walk<Node, RULE>> for CycleEval {
    fn evaluate(&self, game: &Walk<Node, RULE>) -> i32 {
        let for_p1 = match game.here().0 {
            Node::A | Node::B => 300,
            Node::Tail(_) => self.tail_value,
        };
        if game.to_move() == Player::P1 { for_p1 } else { -for_p1 }
    }
    fn material(&self, _: &Walk<Node, RULE>) -> i32 {
        0
    }
}

/// The choice in a cycle game whose tail is worth `tail_value` to the first player, with
/// "no progress" on or off.
fn choice<const RULE: bool>(
    game: &Walk<Node, RULE>,
    tail_value: i32,
    depth: u32,
    contempt: i32,
    no_progress: bool,
) -> (String, i32) {
    let eval = CycleEval { tail_value };
    let mut search = AlphaBeta::<Walk<Node, RULE>, _>::with_evaluator(eval, 1, 1)
        .with_contempt(contempt)
        .with_no_progress(no_progress);
    let r = search.search(game, &Limits::depth(depth), &Arc::new(AtomicBool::new(false)));
    (game.format_move(r.best.unwrap()), r.score.0)
}

#[test]
fn a_repetition_in_the_line_is_the_draw_it_will_be() {
    // Depth 2 reaches A again, not yet the third time: statically +300, really a draw.
    let game = Cycle::start();
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 2, 0, false), ("cycle".to_string(), 0));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 2, 50, false), ("leave".to_string(), -10));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 6, 50, false), ("leave".to_string(), -10));
}

#[test]
fn contempt_decides_between_a_draw_and_a_slightly_worse_position() {
    let mut game = Cycle::start();
    // A has been seen twice already: cycling now draws by the rules at once.
    game.play(CYCLE);
    game.play(CYCLE);
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 4, 0, false), ("cycle".to_string(), 0));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 4, 5, false), ("cycle".to_string(), -5));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 4, 20, false), ("leave".to_string(), -10));
    // Losing badly, the engine takes the draw even with some contempt.
    assert_eq!(choice(&Cycle::start(), -500, 4, 100, false), ("cycle".to_string(), -100));
    // Negative contempt: a draw is welcome even against a good position.
    assert_eq!(choice(&Cycle::start(), 40, 4, -50, false), ("cycle".to_string(), 50));
    assert_eq!(choice(&Cycle::start(), 40, 4, 0, false), ("leave".to_string(), 40));
}

#[test]
fn without_a_rule_a_cycle_is_scored_as_its_positions_unless_no_progress_is_asked() {
    let game = Endless::start();
    // No rule and no switch: the cycle keeps the +300 of its positions at every depth.
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 2, 50, false), ("cycle".to_string(), 300));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 6, 50, false), ("cycle".to_string(), 300));
    // No progress: coming back to A is a draw worth the contempt.
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 2, 0, true), ("cycle".to_string(), 0));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 2, 50, true), ("leave".to_string(), -10));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 6, 50, true), ("leave".to_string(), -10));
    // Losing badly, the engine still takes the cycle.
    assert_eq!(choice(&Endless::start(), -500, 4, 100, true), ("cycle".to_string(), -100));
}

#[test]
fn no_progress_counts_the_positions_before_the_root() {
    // A, B, A: at depth 1 the line never comes back to a position of its own, but cycling
    // leads to B, which the game has seen.
    let mut game = Endless::start();
    game.play(CYCLE);
    game.play(CYCLE);
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 1, 50, false), ("cycle".to_string(), 300));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 1, 50, true), ("leave".to_string(), -10));
    assert_eq!(choice(&game, SLIGHTLY_WORSE, 1, 0, true), ("cycle".to_string(), 0));
    // The switch changes nothing where the rules draw repetitions: the line was enough
    // there, and positions before the root are the rules' own business (depth 1 sees B as
    // +300; the draw only comes on the third A).
    let mut ruled = Cycle::start();
    ruled.play(CYCLE);
    ruled.play(CYCLE);
    assert_eq!(choice(&ruled, SLIGHTLY_WORSE, 1, 50, true), ("cycle".to_string(), 300));
}

/// A game for futility next to a repetition: at `R` the first player may go on to `X` or
/// sit in a lost line. At `X` the second player may leave for a line the evaluation calls
/// worse for him than the draw (tried first), or come back to `R`: a quiet move (in the
/// sense of [`Evaluator::is_quiet`]) that repeats the root, statically the worst for him,
/// really the draw.
type Return = Walk<Spot, true>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    R,
    X,
    /// The line after leaving `X`, `k` turns into it.
    Left(u32),
    /// The line after sitting at `R`.
    Sat(u32),
}

const GO: u8 = 0;
const SIT: u8 = 1;
const BACK: u8 = 2;
const LEAVE_X: u8 = 3;
const ON: u8 = 4;

impl Graph for Spot {
    const START: Spot = Spot::R;
    const MOVE_NAMES: &'static [&'static str] = &["go", "sit", "back", "leave", "on"];
    fn moves(self) -> &'static [u8] {
        match self {
            Spot::R => &[GO, SIT],
            Spot::X => &[BACK, LEAVE_X],
            Spot::Left(_) | Spot::Sat(_) => &[ON],
        }
    }
    fn after(self, mv: u8) -> Spot {
        match (self, mv) {
            (Spot::R, GO) => Spot::X,
            (Spot::R, _) => Spot::Sat(0),
            (Spot::X, BACK) => Spot::R,
            (Spot::X, _) => Spot::Left(0),
            (Spot::Left(k), _) => Spot::Left(k + 1),
            (Spot::Sat(k), _) => Spot::Sat(k + 1),
        }
    }
    fn code(self) -> u64 {
        match self {
            Spot::R => 1,
            Spot::X => 2,
            Spot::Left(k) => 1000 + u64::from(k),
            Spot::Sat(k) => 2000 + u64::from(k),
        }
    }
}

/// The evaluation of [`Return`], without futility.
#[derive(Clone, Copy, Debug, Default)]
struct ReturnValues;

impl Evaluate for Return {
    type Evaluator = ReturnValues;
}

impl Evaluator<Return> for ReturnValues {
    fn evaluate(&self, game: &Return) -> i32 {
        let for_p1 = match game.here().0 {
            Spot::R => 300,
            Spot::X => 0,
            Spot::Left(_) => 100,
            Spot::Sat(_) => -1000,
        };
        if game.to_move() == Player::P1 { for_p1 } else { -for_p1 }
    }
    fn material(&self, _: &Return) -> i32 {
        0
    }
    fn move_prior(&self, _: &Return, mv: u8) -> i32 {
        i32::from(mv == LEAVE_X)
    }
}

/// [`ReturnValues`] with futility: coming back from `X` is quiet and may repeat a position,
/// and `X`'s bound is exactly what the evaluation makes of `R`. `LIES`: the evaluator
/// promises that no quiet move repeats a position.
#[derive(Clone, Copy, Debug, Default)]
struct ReturnEval<const LIES: bool>;

impl<const LIES: bool> Evaluator<Return> for ReturnEval<LIES> {
    fn evaluate(&self, game: &Return) -> i32 {
        ReturnValues.evaluate(game)
    }
    fn material(&self, _: &Return) -> i32 {
        0
    }
    fn move_prior(&self, game: &Return, mv: u8) -> i32 {
        ReturnValues.move_prior(game, mv)
    }
    fn quiet_bound(&self, game: &Return) -> Option<i32> {
        (game.here().0 == Spot::X).then(|| {
            let mut back = game.clone();
            back.play(BACK);
            -self.evaluate(&back)
        })
    }
    fn is_quiet(&self, _: &Return, mv: u8) -> bool {
        mv == BACK
    }
    fn quiet_may_repeat(&self, _: &Return, _: u8) -> bool {
        !LIES
    }
}

/// Score of `Return`'s start with futility skipping only what the evaluator allows.
fn return_score<E: Evaluator<Return>>(eval: E, depth: u32, contempt: i32) -> i32 {
    let game = Return::start();
    let mut search = AlphaBeta::<Return, E>::with_evaluator(eval, 1, 1).with_contempt(contempt);
    search.search(&game, &Limits::depth(depth), &Arc::new(AtomicBool::new(false))).score.0
}

/// A quiet move that may repeat a position is skipped only where the draw it may be worth
/// cannot raise alpha either, or where it is found to repeat nothing: the search with
/// futility scores the start as the one without at every depth and contempt. Skipping it on
/// the bound alone (an evaluator promising, falsely, that quiet moves repeat nothing) loses
/// the second player's way back to the draw.
#[test]
fn quiet_moves_that_may_repeat_are_skipped_only_where_no_draw_could_count() {
    let mut lied_wrong = 0;
    for contempt in [-200, -50, 0, 50] {
        for depth in 1..=5 {
            let expected = return_score(ReturnValues, depth, contempt);
            let at = format!("contempt {contempt}, depth {depth}");
            assert_eq!(return_score(ReturnEval::<false>, depth, contempt), expected, "{at}");
            lied_wrong +=
                usize::from(return_score(ReturnEval::<true>, depth, contempt) != expected);
        }
    }
    assert!(lied_wrong > 0, "the false promise changed no score");
}
