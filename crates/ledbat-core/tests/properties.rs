//! Property tests over every built-in controller and over the delay estimator.
//!
//! Random sequences of sends, ACKs (with arbitrary delay and RTT samples), losses, timeouts,
//! ticks and time jumps must never make a controller panic, produce a window below one
//! packet (every controller's floor is at least that) or an absurd one, and the base delay
//! must never exceed any sample still in its history.

use ledbat_core::delay::{CurrentFilter, DelayConfig, DelayEstimator};
use ledbat_core::{
    Ack, Controller, ControllerConfig, DelaySample, Duration, Instant, Loss, Timeout, CATALOG,
};
use proptest::prelude::*;

const MSS: u32 = 1452;

#[derive(Clone, Debug)]
enum Event {
    Send(u8),
    Ack {
        packets: u8,
        delay_us: u32,
        rtt_ms: Option<u16>,
    },
    Loss,
    Timeout(bool),
    Advance(u32),
    Tick,
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        4 => (1u8..8).prop_map(Event::Send),
        6 => (1u8..4, 0u32..2_000_000, proptest::option::of(1u16..2000))
            .prop_map(|(packets, delay_us, rtt_ms)| Event::Ack { packets, delay_us, rtt_ms }),
        1 => Just(Event::Loss),
        1 => any::<bool>().prop_map(Event::Timeout),
        3 => (0u32..5_000_000).prop_map(Event::Advance),
        1 => Just(Event::Tick),
    ]
}

/// Drives `c` through `events` as a well-behaved driver would, checking invariants after
/// every step. `offset` is added (mod 2^32) to every delay sample.
fn drive(
    c: &mut impl Controller,
    events: &[Event],
    offset: u32,
) -> Result<Vec<u64>, TestCaseError> {
    let mss = MSS as u64;
    let mut now = Instant::from_secs(1);
    let mut in_flight: u64 = 0;
    let mut sent_times: std::collections::VecDeque<Instant> = Default::default();
    let mut windows = Vec::with_capacity(events.len());
    for ev in events {
        match *ev {
            Event::Send(n) => {
                for _ in 0..n {
                    in_flight += mss;
                    sent_times.push_back(now);
                    c.on_sent(now, mss, in_flight);
                }
            }
            Event::Ack {
                packets,
                delay_us,
                rtt_ms,
            } => {
                let packets = (packets as u64).min(in_flight / mss);
                if packets == 0 {
                    continue;
                }
                let newest = sent_times
                    .drain(..packets as usize)
                    .next_back()
                    .unwrap_or(now);
                let samples = [DelaySample(delay_us.wrapping_add(offset))];
                let ack = Ack {
                    bytes_acked: packets * mss,
                    packets_acked: packets as u32,
                    flight_before: in_flight,
                    delay_samples: &samples,
                    rtt: rtt_ms.map(|r| Duration::from_millis(r as u64)),
                    reverse_delay: None,
                    newest_sent: newest,
                };
                c.on_ack(now, &ack);
                in_flight -= packets * mss;
            }
            Event::Loss => {
                if let Some(sent_at) = sent_times.pop_front() {
                    c.on_loss(
                        now,
                        &Loss {
                            bytes: mss,
                            sent_at,
                            in_flight,
                        },
                    );
                    in_flight -= mss;
                }
            }
            Event::Timeout(retransmission) => {
                let kind = if retransmission {
                    Timeout::Retransmission
                } else {
                    Timeout::Idle
                };
                if retransmission {
                    in_flight = 0;
                    sent_times.clear();
                }
                c.on_timeout(now, kind);
            }
            Event::Advance(us) => now += Duration::from_micros(us as u64),
            Event::Tick => {
                if let Some(t) = c.next_tick() {
                    now = now.max(t);
                    c.on_tick(now);
                }
            }
        }
        let w = c.window();
        prop_assert!(
            w >= mss,
            "{}: window {w} below one packet after {ev:?}",
            c.name()
        );
        prop_assert!(
            w < (1u64 << 40),
            "{}: absurd window {w} after {ev:?}",
            c.name()
        );
        if let Some(r) = c.pacing_rate() {
            prop_assert!(r > 0, "{}: zero pacing rate", c.name());
        }
        let m = c.metrics();
        prop_assert_eq!(
            m.cwnd,
            w,
            "{}: metrics cwnd differs from window()",
            c.name()
        );
        prop_assert!(m.gain.is_finite(), "{}: gain {}", c.name(), m.gain);
        windows.push(w);
    }
    Ok(windows)
}

/// Every catalog controller at its defaults, plus configurations whose non-default code
/// paths the defaults never take (LEDBAT++ and fLEDBAT with this crate's extensions).
fn configs() -> Vec<(String, ControllerConfig)> {
    let mut v: Vec<(String, ControllerConfig)> = CATALOG
        .iter()
        .map(|i| {
            (
                i.name.to_string(),
                ControllerConfig::from_name(i.name).unwrap(),
            )
        })
        .collect();
    let ext = [
        "max_gain_divisor=1",
        "ramp_delay_exit=false",
        "slowdown_join=0.5",
    ];
    v.push((
        "ledbat++ (extended)".to_string(),
        ControllerConfig::with_params("ledbat++", ext).unwrap(),
    ));
    v.push((
        "scavenger (plain, without the competitor set)".to_string(),
        ControllerConfig::with_params("scavenger", ledbat_core::scavenger::PLAIN_PARAMS).unwrap(),
    ));
    v.push((
        "fledbat (slowdowns)".to_string(),
        ControllerConfig::with_params("fledbat", ["slowdowns=true", "slowdown_join=0.5"]).unwrap(),
    ));
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_controller_keeps_a_sane_window(events in proptest::collection::vec(event(), 1..400)) {
        for (_, cfg) in configs() {
            let mut c = cfg.build(MSS).unwrap();
            drive(&mut c, &events, 0)?;
        }
    }

    #[test]
    fn clock_offset_and_wrap_do_not_change_any_decision(
        events in proptest::collection::vec(event(), 1..300),
        offset in any::<u32>(),
    ) {
        for (name, cfg) in configs() {
            let mut a = cfg.build(MSS).unwrap();
            let mut b = cfg.build(MSS).unwrap();
            let wa = drive(&mut a, &events, 0)?;
            let wb = drive(&mut b, &events, offset)?;
            prop_assert_eq!(wa, wb, "{} depends on the clock offset", name);
        }
    }

    #[test]
    fn base_delay_never_exceeds_a_sample_in_its_history(
        samples in proptest::collection::vec((0u32..120_000_000, 0u32..3_000_000), 1..300),
        history in 1usize..24,
        offset in any::<u32>(),
        ewma in any::<bool>(),
    ) {
        let filter = if ewma { CurrentFilter::Ewma { alpha: 0.25 } } else { CurrentFilter::Min { len: 4 } };
        let cfg = DelayConfig::default().base_history(history).filter(filter);
        cfg.validate("prop").unwrap();
        let mut e = DelayEstimator::new(cfg);
        let mut now = Instant::ZERO;
        // Reference model: the samples of each retained one-minute bucket.
        let mut buckets: std::collections::VecDeque<(Instant, Vec<i64>)> = Default::default();
        let mut shift = None;
        for (step_us, d) in samples {
            now += Duration::from_micros(step_us as u64 / 100);
            e.on_sample(now, DelaySample(d.wrapping_add(offset)));
            match buckets.back_mut() {
                Some((opened, v)) if now - *opened < cfg.base_interval => v.push(d as i64),
                _ => {
                    if buckets.len() == history {
                        buckets.pop_front();
                    }
                    buckets.push_back((now, vec![d as i64]));
                }
            }
            // The estimator's line starts at the first raw (offset) value.
            let shift = *shift.get_or_insert((d.wrapping_add(offset)) as i64 - d as i64);
            let base = e.base_unwrapped().unwrap() - shift;
            let retained: Vec<i64> = buckets.iter().flat_map(|(_, v)| v.iter().copied()).collect();
            for &x in &retained {
                prop_assert!(base <= x, "base {base} above retained sample {x}");
            }
            prop_assert_eq!(base, *retained.iter().min().unwrap());
            prop_assert_eq!(e.base_buckets().count(), buckets.len());
        }
    }
}
