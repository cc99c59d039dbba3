//! Perft of GIPF from the start of each variant (bulk counting at the last ply).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use ply_core::{Game, perft};
use ply_gipf::Position;

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
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
