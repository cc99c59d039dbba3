//! The live protocol's bytes, over random games of every game and variant, through the real
//! rooms: a spectator's event stays within 2 KB (PÜNCT 4 KB), what the player to move
//! receives for one turn (its choices, the continuations it asks for along the path of the
//! move it makes, and the event) within 16 KB, and a `hello` state within 64 KB. Every event
//! also turns the spectator's picture into exactly the server's (the patches are exact).
//!
//! `PLY_SIZE_GAMES=N` plays N games per variant (default 2); the figures are printed for
//! `docs/benchmarks.md` (`cargo test --release -p ply-server --test integration protocol_sizes
//! -- --nocapture`).

use std::sync::Arc;

use ply_server::choices::{Decoded, decode};
use ply_server::protocol::{Choices, ServerMsg};
use ply_server::{Action, AppState, MoveSpec, RoomSettings};
use ply_store::Store;
use serde_json::json;
use tokio::sync::mpsc;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[derive(Default)]
struct Sizes {
    spectator: Vec<usize>,
    mover: Vec<usize>,
    hello: Vec<usize>,
    /// Each `preview` answer along the clicks of a turn (the help and the turn drawn so far).
    preview: Vec<usize>,
}

fn stats(v: &mut [usize]) -> (usize, usize) {
    v.sort_unstable();
    (v.get(v.len() / 2).copied().unwrap_or(0), v.last().copied().unwrap_or(0))
}

/// Everything queued now.
fn drain(q: &mut mpsc::Receiver<Arc<str>>) -> Vec<Arc<str>> {
    let mut out = Vec::new();
    while let Ok(m) = q.try_recv() {
        out.push(m);
    }
    out
}

fn parse(text: &str) -> ServerMsg {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Picks a move the way a person clicks: one item after another among the continuations,
/// asking for the ones that were cut off. Returns the path and the bytes of the answers.
async fn pick(
    state: &AppState,
    id: &str,
    token: &str,
    root: &Choices,
    rng: &mut Rng,
    previews: &mut Vec<usize>,
) -> (Vec<String>, usize) {
    let mut nodes: Vec<Decoded> = decode(root).expect("the choices decode");
    let mut asked = 0;
    let mut prefix: Vec<String> = Vec::new();
    loop {
        let complete_here = nodes.iter().any(|n| n.path == prefix && n.complete);
        let going_on =
            nodes.iter().any(|n| n.path.len() > prefix.len() && n.path.starts_with(&prefix));
        if going_on {
            let text = state
                .rooms
                .preview(id, Some(token.to_string()), root.version, prefix.clone())
                .await
                .expect("a preview of a prefix that goes on");
            previews.push(text.len());
        }
        let next: Vec<Decoded> = nodes
            .iter()
            .filter(|n| n.path.len() == prefix.len() + 1 && n.path.starts_with(&prefix))
            .cloned()
            .collect();
        if complete_here && (next.is_empty() || rng.below(3) == 0) {
            return (prefix, asked);
        }
        assert!(!next.is_empty(), "a dead end at {prefix:?}");
        let chosen = next[rng.below(next.len())].clone();
        prefix = chosen.path.clone();
        let has_children =
            nodes.iter().any(|n| n.path.len() > prefix.len() && n.path.starts_with(&prefix));
        if chosen.cut {
            let text = state
                .rooms
                .choices(id, Some(token.to_string()), root.version, prefix.clone())
                .await
                .expect("continuations of a cut node");
            asked += text.len();
            let ServerMsg::Choices(sub) = parse(&text) else { panic!("{text}") };
            assert_eq!(sub.prefix, prefix);
            nodes.retain(|n| n.path != prefix);
            nodes.extend(decode(&sub).expect("the continuations decode"));
            if !nodes.iter().any(|n| n.path == prefix) {
                nodes.push(Decoded { path: prefix.clone(), complete: false, cut: false });
            }
        } else if chosen.complete && !has_children {
            return (prefix, asked);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_messages_stay_small_in_every_game() {
    let games: usize =
        std::env::var("PLY_SIZE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let store = Store::open(Some(&url)).await.unwrap();
    let state = AppState::with(store, RoomSettings::default());
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let registry = ply_games::registry();
    let mut report = Vec::new();
    for entry in registry.entries() {
        let mut sizes = Sizes::default();
        for variant in entry.variants {
            for _ in 0..games {
                let created = state
                    .create(
                        serde_json::from_value(json!({"game": entry.name, "variant": variant,
                                                      "opponent": "hotseat"}))
                        .unwrap(),
                    )
                    .await
                    .unwrap();
                let id = created["id"].as_str().unwrap().to_string();
                let token = created["token"].as_str().unwrap().to_string();
                let (ptx, mut player) = mpsc::channel(64);
                let (stx, mut spectator) = mpsc::channel(64);
                state.rooms.subscribe(&id, Some(token.clone()), None, &ptx).await.unwrap();
                state.rooms.subscribe(&id, None, None, &stx).await.unwrap();
                let mut root = None;
                for m in drain(&mut player) {
                    if let ServerMsg::Choices(c) = parse(&m) {
                        root = Some((*c, m.len()));
                    }
                }
                let mut picture = String::new();
                for m in drain(&mut spectator) {
                    match parse(&m) {
                        ServerMsg::State { view } => {
                            sizes.hello.push(m.len());
                            picture = view.svg;
                        }
                        ServerMsg::Choices(_) => panic!("a spectator got choices"),
                        _ => {}
                    }
                }
                for turn in 0..400 {
                    let Some((choices, bytes)) = root.take() else { break };
                    let (path, asked) =
                        pick(&state, &id, &token, &choices, &mut rng, &mut sizes.preview).await;
                    let mut for_the_mover = bytes + asked;
                    state
                        .rooms
                        .act(&id, Some(token.clone()), Action::Move(MoveSpec::Path(path)), None)
                        .await
                        .expect("a move made of a path from the choices");
                    for m in drain(&mut player) {
                        match parse(&m) {
                            ServerMsg::Event(_) => for_the_mover += m.len(),
                            ServerMsg::Choices(c) => root = Some((*c, m.len())),
                            _ => {}
                        }
                    }
                    sizes.mover.push(for_the_mover);
                    for m in drain(&mut spectator) {
                        let ServerMsg::Event(ev) = parse(&m) else { continue };
                        sizes.spectator.push(m.len());
                        if std::env::var("PLY_SIZE_DUMP").is_ok() && m.len() > 1800 {
                            eprintln!("BIG {}", m);
                        }
                        let board = ev.board.expect("a move changes the board");
                        picture = ply_server::patch::apply(&picture, &board.patch)
                            .expect("the patch fits the picture");
                    }
                    // The spectator's picture is the server's, byte for byte.
                    let view = state.rooms.view(&id, None).await.unwrap();
                    assert_eq!(picture, view.view.svg, "{} turn {turn}", entry.name);
                    if turn % 7 == 0 {
                        let (htx, mut hello) = mpsc::channel(64);
                        let sub = state.rooms.subscribe(&id, None, None, &htx).await.unwrap();
                        for m in drain(&mut hello) {
                            if m.contains("\"type\":\"state\"") {
                                sizes.hello.push(m.len());
                            }
                        }
                        state.rooms.leave(&id, sub);
                    }
                }
            }
        }
        let (sm, sx) = stats(&mut sizes.spectator);
        let (mm, mx) = stats(&mut sizes.mover);
        let (hm, hx) = stats(&mut sizes.hello);
        let (pm, px) = stats(&mut sizes.preview);
        let spectator_limit = if entry.name == "punct" { 4096 } else { 2048 };
        report.push(format!(
            "{:6} turns {:5}  spectator event median {sm:5} max {sx:5}  mover per turn median {mm:5} max {mx:5}  hello state median {hm:6} max {hx:6}  preview median {pm:5} max {px:5}",
            entry.name,
            sizes.mover.len(),
        ));
        assert!(sx <= spectator_limit, "{}: a spectator event of {sx} bytes", entry.name);
        assert!(mx <= 16 * 1024, "{}: {mx} bytes to the mover for one turn", entry.name);
        assert!(hx <= 64 * 1024, "{}: a hello state of {hx} bytes", entry.name);
        assert!(px <= 4096, "{}: a preview of {px} bytes", entry.name);
    }
    for line in report {
        eprintln!("{line}");
    }
}
