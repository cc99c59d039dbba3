//! Criterion benchmark of PÜNCT perft: depth 2 from a middle-game position with stacks and a
//! bridge (9 537 677 leaves, bulk-counted), and depth 1 from the start.

use criterion::{Criterion, criterion_group, criterion_main};
use ply_core::{Game, perft};
use ply_punct::{Position, Setup, Variant};

fn midgame() -> Position {
    let setup = Setup::parse(
        "W E e4:e5,e6 L1; W E d3:d4,d5 L1; B E f6:f7,f8 L1; W T e4:d3,d4 L2; \
         W T e6:f6,f7 L2; W C e5:e4,e6 L3; B E m10:m11,m12 L1; B E n11:n12,n13 L1; \
         B T m11:m12,n12 L2; W E k4:k5,k6 L1; B E m6:m7,m8 L1; W E k6:l7,m8 L2; \
         B M o14:n14,o13",
        ply_core::Player::P1,
    )
    .expect("valid setup");
    Position::from_setup(&setup, Variant::Standard).expect("valid position")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("punct-perft");
    group.sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    group.bench_function("start depth 1 (4986 leaves)", |b| {
        let mut pos = Position::new("standard").unwrap();
        b.iter(|| assert_eq!(perft(&mut pos, 1), 4986));
    });
    group.bench_function("midgame depth 2", |b| {
        let mut pos = midgame();
        b.iter(|| assert_eq!(perft(&mut pos, 2), 9_537_677));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
