//! Perft of GIPF from the start of each variant (bulk counting at the last ply).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use ply_core::{Game, perft};
use ply_gipf::{Position, Setup, Variant};

/// GT2 of gipf.md section 8: overlapping rows with GIPF choices pending.
fn gt2() -> Position {
    let s = Setup::from_lists(
        Variant::Standard,
        "b2 b5 c3 c5(G) d6 e2 e3(G) e7 f5 f6(G) f7 g5 h3 h4 h5",
        "b3 b4 c2 c4(G) c6 d2 d3 d4 d7 e6(G) e8 g2(G) g3 g6 h2",
    )
    .expect("GT2");
    Position::from_setup(&s).expect("GT2")
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("gipf-perft");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for (variant, depth, nodes) in
        [("standard", 4, 3_066_768), ("basic", 4, 3_066_768), ("tournament", 3, 148_176)]
    {
        group.bench_function(format!("{variant}-{depth}"), |b| {
            b.iter(|| {
                let mut pos = Position::new(variant).expect("variant");
                assert_eq!(perft(black_box(&mut pos), depth), nodes);
            });
        });
    }
    group.bench_function("gt2-4", |b| {
        b.iter(|| {
            let mut pos = gt2();
            assert_eq!(perft(black_box(&mut pos), 4), 2_469_991);
        });
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
