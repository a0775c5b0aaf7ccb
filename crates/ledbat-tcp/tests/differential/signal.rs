//! The delay signal changing source or scale (csrc/lbcc_signal.h): the glue's fallback from
//! one-way delays to RTTs when the peer's timestamp clock matches no rate, and a relearnt
//! clock rate. The controller must forget the samples of the old scale, in both builds.

use crate::replay::{self, parse_step, replay_lines, Ev, Step};
use crate::{compare, controller, MS};

/// Peer TSval offsets: the first one-way sample 1_000_296 us below the 32-bit wrap
/// ((tsval - tsecr) * 1000 = 4_293_967_000 = 2^32 - 1_000_296), so that the RTTs after it
/// unwrap far above it; and at 610 ms, so that the last one-way samples (16 ms) lie below
/// the RTTs (20 ms) on a fresh line.
const TS_GAPS: [u32; 2] = [4_293_967, 610];

/// Our echoed TSval at `now_ms` (a 1 ms clock, an ACK 10 ms after the segment left).
fn tsecr(now_ms: u64) -> u32 {
    (1_000 + now_ms - 10) as u32
}

/// A peer whose timestamp clock ticks every `us_per_tick` (2500: no rate the glue knows).
fn tsval(now_ms: u64, us_per_tick: u64, gap: u32) -> u32 {
    tsecr(10)
        .wrapping_add(gap)
        .wrapping_add(((now_ms - 10) * 1000 / us_per_tick) as u32)
}

struct SigStep {
    result: u32,
    sample: Option<u32>,
    st: Step,
}

/// Drives `sigack` every 10 ms for `n` ACKs, with an RTT of 20 ms.
fn glue_run(name: &str, params: &[&str], us_per_tick: u64, gap: u32, n: u64) -> Vec<SigStep> {
    let c = controller(name, params);
    let mut body = String::new();
    for k in 1..=n {
        let ms = k * 10;
        body += &format!(
            "sigack {} 1 1 1 {} {} 1000 20000\n",
            ms * MS,
            tsval(ms, us_per_tick, gap),
            tsecr(ms)
        );
    }
    let lines = replay_lines(&c.params().expect("kernel params"), 1448, &body);
    lines[1..]
        .iter()
        .map(|l| {
            let (r, rest) = l.split_once(' ').expect("result");
            let (s, st) = rest.split_once(' ').expect("sample");
            SigStep {
                result: r.parse().expect("result"),
                sample: (s != "-").then(|| s.parse().expect("sample")),
                st: parse_step(st),
            }
        })
        .collect()
}

#[test]
fn the_fallback_to_rtts_starts_a_fresh_base_and_keeps_the_window() {
    // 2.5 ms per tick matches none of 1 us, 1 ms, 4 ms, 10 ms: at the ACK 1 s after the
    // first (the 101st), the glue gives up the one-way samples. Before it they fell by
    // 0.6 ms per ms (600 ms in the second) from 2^32 - 1_000_296 us: the first RTT sample,
    // 20_000 us, is 1.62 s above them on the continuous line, and without a reset that reads
    // as 1.62 s of queue and the window falls to its minimum; or from 610 ms to 16 ms: a base
    // kept from them would read 4 ms of queue in an RTT that does not change.
    for (name, gap) in ["ledbat", "ledbat-md", "ledbat-linear-min", "ledbat-mdvar"]
        .into_iter()
        .flat_map(|n| TS_GAPS.map(|g| (n, g)))
    {
        let run = glue_run(name, &[], 2500, gap, 300);
        assert_eq!(run[0].result, 1, "{name}: a one-way sample");
        assert_eq!(run[0].sample, Some(gap.wrapping_mul(1000)));
        for (i, s) in run.iter().enumerate().take(100) {
            assert_eq!(s.result, 1, "{name}: ACK {i} is one-way");
        }
        // LB_SIG_SAMPLE | LB_SIG_CHANGED, the RTT taken at once
        assert_eq!(run[100].result, 3, "{name}");
        assert_eq!(run[100].sample, Some(20_000));
        // the window stays where the flight caps it: ten packets in flight plus
        // ALLOWED_INCREASE of one, 11 * 1448 = 15928 bytes (not the minimum of two)
        assert_eq!(run[99].st.window, 15_928, "{name}");
        for s in &run[100..] {
            assert_eq!(s.st.qd, Some(0), "{name}: the queue after the fallback");
            assert_eq!(s.st.base, Some(20 * MS), "{name}: the base is the RTT");
            assert_eq!(s.st.window, 15_928, "{name}: the window after the fallback");
        }
    }
}

#[test]
fn a_peer_clock_that_never_ticks_falls_back_to_rtts() {
    // A TSval that stays put (a tick longer than the run: 10^12 us) matched no rate before
    // and stayed "learning" for ever, the samples falling 1 ms per ms with our clock: the
    // queue read nothing. At the ACK 1 s after the first it is unusable, as 2.5 ms is.
    let run = glue_run("ledbat", &[], 1_000_000_000_000, TS_GAPS[1], 300);
    assert!(run[..100].iter().all(|s| s.result == 1));
    assert_eq!(run[100].result, 3, "LB_SIG_SAMPLE | LB_SIG_CHANGED");
    assert_eq!(run[100].sample, Some(20_000));
    assert!(run[101..]
        .iter()
        .all(|s| s.result == 1 && s.sample == Some(20_000)));
}

#[test]
fn a_learnt_peer_clock_rate_starts_a_fresh_history() {
    // 4 ms per tick: learnt at the 101st ACK (250 ticks in 1000 ms), which rescales. The
    // samples before it assumed 1 ms per tick; from it on (tsval * 4000 - tsecr * 1000) they
    // are on the true scale, which the base must be built on alone.
    let run = glue_run("ledbat", &[], 4000, TS_GAPS[0], 300);
    assert_eq!(run[100].result, 1 | 2 | 4);
    let first = run[100].sample.expect("a one-way sample");
    assert_eq!(
        first,
        tsval(1010, 4000, TS_GAPS[0])
            .wrapping_mul(4000)
            .wrapping_sub(tsecr(1010).wrapping_mul(1000))
    );
    assert_eq!(run[100].st.base, Some(u64::from(first) * 1000));
    assert_eq!(run[100].st.qd, Some(0));
    // the tick quantises the true constant delay to within 4 ms: so is the queue
    for s in &run[100..] {
        assert!(s.st.qd.is_some_and(|q| q < 4 * MS), "{:?}", s.st);
    }
    // after the change no reset is asked for again
    assert!(run[101..].iter().all(|s| s.result == 1));
}

#[test]
fn without_timestamps_or_with_the_rtt_signal_nothing_changes_source() {
    let c = controller("ledbat", &[]);
    let p = c.params().expect("kernel params");
    // tstamp_ok = 0: RTTs from the first ACK, never a change
    let body: String = (1..=50)
        .map(|k| format!("sigack {} 0 0 1 0 0 1000 20000\n", k * 10 * MS))
        .collect();
    let lines = replay_lines(&p, 1448, &body);
    assert!(
        lines[1..].iter().all(|l| l.starts_with("1 20000 ")),
        "{lines:?}"
    );
    // a duplicate ACK (snd_una not advanced) gives no one-way sample
    let lines = replay_lines(&p, 1448, "sigack 10000000 1 1 0 5 6 1000 20000\n");
    assert!(lines[1].starts_with("0 - "), "{lines:?}");
    let c = controller("ledbat", &["signal=rtt"]);
    let body: String = (1..=150)
        .map(|k| {
            let ms = k * 10;
            let ts = tsval(ms, 2500, TS_GAPS[0]);
            format!("sigack {} 1 1 1 {ts} {} 1000 20000\n", ms * MS, tsecr(ms))
        })
        .collect();
    let lines = replay_lines(&c.params().expect("kernel params"), 1448, &body);
    assert!(lines[1..].iter().all(|l| l.starts_with("1 20000 ")));
}

/// One-way samples falling from `first` us by 6 ms per ACK, a source change, then RTT
/// samples: the core and the kernel build must forget the same state. `change` false shows
/// what the reset prevents.
fn scripted(change: bool, first: u64) -> Vec<Ev> {
    let mut v = Vec::new();
    let mut now = 100 * MS;
    for k in 0..100u64 {
        v.push(Ev::Ack {
            now,
            bytes: 1448,
            packets: 1,
            flight: 10 * 1448,
            newest_sent: now - 20 * MS,
            rtt: Some(20 * MS + (k % 5) * MS),
            delay: Some((first - k * 6_000 + (k % 3) * 2_000) as u32),
        });
        now += 10 * MS;
    }
    if change {
        v.push(Ev::DelaySource {
            now,
            rescaled: false,
        });
    }
    for k in 0..200u64 {
        let rtt = 20 * MS + (k % 7) * MS;
        v.push(Ev::Ack {
            now,
            bytes: 1448,
            packets: 1,
            flight: 10 * 1448,
            newest_sent: now - rtt,
            rtt: Some(rtt),
            delay: Some((rtt / 1000) as u32),
        });
        now += 10 * MS;
    }
    v
}

#[test]
fn both_builds_forget_the_old_scale_alike() {
    for (name, params) in [
        ("ledbat", &["target=25ms"][..]),
        ("ledbat", &["slow_start=true"]),
        ("ledbat-linear-min", &[]),
        ("ledbat-md", &[]),
        ("ledbat-mdvar", &["delay.clamp_to_min_rtt=true"]),
        ("tcp-lp", &[]),
    ] {
        let c = controller(name, params);
        // below the wrap (the RTTs unwrap far above), and ending at 7 ms (below the RTTs)
        for first in [4_293_967_000, 601_000] {
            let mut core = c.config.build(1448).expect("core controller");
            let events: Vec<(Ev, Step)> = scripted(true, first)
                .into_iter()
                .map(|e| {
                    replay::apply(&mut core, &e);
                    let st = replay::snapshot(&core);
                    (e, st)
                })
                .collect();
            compare(
                &format!("{name} {params:?} source change"),
                &c,
                &events,
                1448,
            );
            if name != "tcp-lp" {
                // after the change the queue is the RTT above its minimum since: 0-6 ms
                for (_, st) in &events[101..] {
                    assert!(st.qd.is_some_and(|q| q <= 6 * MS), "{name}: {st:?}");
                }
            }
        }
    }
}

#[test]
fn without_the_reset_the_two_scales_read_as_seconds_of_queue() {
    // What the test above guards against: the same samples with no change event.
    let c = controller("ledbat", &["target=25ms"]);
    let mut core = c.config.build(1448).expect("core controller");
    let mut worst = 0;
    for e in scripted(false, 4_293_967_000) {
        replay::apply(&mut core, &e);
        worst = worst.max(replay::snapshot(&core).qd.unwrap_or(0));
    }
    assert!(worst > 1_000 * MS, "largest queue {worst} ns");
}
