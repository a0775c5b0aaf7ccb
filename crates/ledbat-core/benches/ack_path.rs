//! Cost of one ACK through each built-in controller (`on_sent` + `on_ack` + `window`), in
//! steady state: a full window in flight, one-way delay samples oscillating around a 25 ms
//! queue over a 10 ms base, time advancing 100 us per ACK.
//!
//! Run: `cargo bench -p ledbat-core --bench ack_path`. Target for `ledbat`: <= 50 ns.

// criterion_group! expands to an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ledbat_core::{Ack, Controller, ControllerConfig, DelaySample, Duration, Instant, CATALOG};

const MSS: u64 = 1452;

fn ack_path(c: &mut Criterion) {
    let mut group = c.benchmark_group("ack_path");
    for info in CATALOG {
        let mut cc = ControllerConfig::from_name(info.name)
            .unwrap()
            .build(MSS as u32)
            .unwrap();
        let mut now = Instant::from_secs(1);
        let mut i: u32 = 0;
        let mut step = |cc: &mut ledbat_core::AnyController| {
            now += Duration::from_micros(100);
            i = i.wrapping_add(1);
            let flight = cc.window().max(MSS);
            cc.on_sent(now, MSS, flight);
            // Delay: 10 ms base + 20..30 ms queue, so delay-based controllers sit near target.
            let d = [DelaySample(30_000 + (i % 64) * 160)];
            let ack = Ack {
                bytes_acked: MSS,
                packets_acked: 1,
                flight_before: flight,
                delay_samples: &d,
                rtt: Some(Duration::from_micros(50_000 + (i as u64 % 64) * 160)),
                reverse_delay: None,
                newest_sent: now - Duration::from_millis(50),
            };
            cc.on_ack(now, black_box(&ack));
            black_box(cc.window())
        };
        // Warm up into steady state (two simulated minutes of ACKs).
        for _ in 0..1_200_000 {
            step(&mut cc);
        }
        group.bench_function(info.name, |b| b.iter(|| step(&mut cc)));
    }
    group.finish();
}

criterion_group!(benches, ack_path);
criterion_main!(benches);
