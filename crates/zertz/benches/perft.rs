//! Perft throughput of ZÈRTZ.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use ply_core::{Game, perft};
use ply_zertz::{Position, Variant};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("zertz-perft");
    group.measurement_time(Duration::from_secs(5)).sample_size(10);
    group.bench_function("37 start perft(2) = 3,277,260", |b| {
        b.iter(|| assert_eq!(perft(black_box(&mut Position::start(Variant::V37)), 2), 3_277_260));
    });
    group.bench_function("61 start perft(2) = 17,000,496", |b| {
        b.iter(|| assert_eq!(perft(black_box(&mut Position::start(Variant::V61)), 2), 17_000_496));
    });
    let mut opened = Position::start(Variant::V37);
    for m in ["Wd4,a1", "Gc3,a2"] {
        let mv = opened.parse_move(m).unwrap();
        opened.play(mv);
    }
    group.bench_function("37 after Wd4,a1 Gc3,a2 perft(3) = 3,879,774", |b| {
        b.iter(|| assert_eq!(perft(black_box(&mut opened.clone()), 3), 3_879_774));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
