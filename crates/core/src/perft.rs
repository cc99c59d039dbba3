use crate::Game;

/// The number of leaf turns `depth` turns deep from `game`. Play stops at finished games, so
/// a finished position contributes nothing below it.
///
/// Uses make/unmake and one move buffer per level, so it allocates only `depth` buffers.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    perft_inner(game, depth, &mut buffers)
}

fn perft_inner<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    let (moves, deeper) = buffers.split_first_mut().expect("one buffer per level");
    game.legal_moves(moves);
    if depth == 1 {
        // Bulk counting: the leaves are the moves themselves.
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        game.play(mv);
        nodes += perft_inner(game, depth - 1, deeper);
        game.undo();
    }
    nodes
}

/// Perft split by first move: each legal move in canonical notation with its count at
/// `depth - 1` below it, sorted by notation. The standard tool for bisecting a generator bug.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut out: Vec<(String, u64)> = moves
        .into_iter()
        .map(|mv| {
            let name = game.format_move(mv);
            game.play(mv);
            let n = perft(game, depth.saturating_sub(1));
            game.undo();
            (name, n)
        })
        .collect();
    out.sort();
    out
}
