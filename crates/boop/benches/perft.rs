//! Perft throughput of boop. Each benchmark asserts its node count, so it also checks the rules.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ply_boop::Boop;
use ply_core::{Game, perft};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("boop-perft");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for (variant, depth, nodes) in [("boop", 4, 1_421_952u64), ("boooop", 2, 530_460)] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{variant} depth {depth}"), |b| {
            let mut game = Boop::new(variant).unwrap();
            b.iter(|| assert_eq!(perft(black_box(&mut game), depth), nodes));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
