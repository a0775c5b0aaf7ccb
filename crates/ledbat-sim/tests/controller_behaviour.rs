//! Controllers against the papers' reference setups: regression tests for fidelity fixes
//! (each test names the source it checks and the numbers before the fix).

use ledbat_sim::{run, RunResult, Scenario};

fn sim(text: &str) -> RunResult {
    let sc = Scenario::from_toml(text).unwrap();
    let r = run(&sc, 1).unwrap();
    assert!(r.conservation.holds, "{:?}", r.conservation);
    r
}

/// Seed 003's reference link (10 Mb/s, RTT 50 ms, B = 40, 1 ms jitter) with one flow.
fn alone(cc: &str) -> String {
    format!(
        r#"
duration = "40s"
warmup = "10s"
[topology]
kind = "dumbbell"
rate = "10Mbps"
delay = "20ms"
queue = {{ kind = "droptail", packets = 40 }}
jitter = "1ms"
[[flow]]
cc = {{ name = "{cc}", slow_start = false }}
"#
    )
}

#[test]
fn tcp_lp_alone_is_not_stuck_at_one_packet_by_jitter() {
    // Linux tcp_lp's d_min/d_max bookkeeping (forget the newest max, reset on each
    // indication). With an all-time d_max the range was the 1 ms jitter and TCP-LP sat at
    // one packet: 0.23 Mb/s (eta 0.023); now about 6 Mb/s.
    let r = sim(&alone("tcp-lp"));
    assert!(
        r.aggregate.efficiency > 0.4,
        "eta {}",
        r.aggregate.efficiency
    );
    assert!(
        r.flows[0].cwnd_mean_pkts > 5.0,
        "{}",
        r.flows[0].cwnd_mean_pkts
    );
}

#[test]
fn newreno_under_five_percent_random_loss_sits_between_pftk_and_mathis() {
    // Seed 004's loss scenario (1 Mb/s, D = 50 ms each way, 1000-byte packets, 5 % loss),
    // backlogged: 0.29 Mb/s at seed 1. At p = 0.05 and RTT 0.11 s, Mathis'
    // MSS/RTT * 1.22/sqrt(p) = 0.39 Mb/s is an upper bound (no timeouts); Padhye et al.'s
    // formula with T0 = 0.3 s gives 0.31 Mb/s. The paper's 0.75 Mb/s for NewReno is above
    // any Reno-family TCP at this RTT and loss rate: the transport is not the cause.
    let r = sim(r#"
duration = "120s"
warmup = "20s"
mss = 1000
[topology]
kind = "dumbbell"
rate = "1Mbps"
delay = "50ms"
queue = { kind = "droptail", packets = 50 }
loss = 0.05
[[flow]]
cc = { name = "newreno" }
access_delay = "1ms"
"#);
    let x = r.flows[0].throughput_bps / 1e6;
    assert!((0.22..0.42).contains(&x), "throughput {x} Mb/s");
}

/// The namespace test bed's two-flow case in the simulator: 10 Mb/s, almost no propagation
/// delay (the queue is the whole RTT), a 100-packet FIFO (121 ms), the second flow 10 s
/// after the first, metrics over the last 15 s.
fn bed_latecomer(cc: &str) -> String {
    format!(
        r#"
duration = "40s"
warmup = "25s"
mss = 1500
[topology]
kind = "dumbbell"
rate = "10Mbps"
delay = "30us"
queue = {{ kind = "droptail", packets = 100 }}
[[flow]]
cc = {cc}
[[flow]]
cc = {cc}
start = "10s"
"#
    )
}

#[test]
fn ledbat_pp_as_drafted_starves_the_first_flow_at_zero_base_delay() {
    // GAIN = 1/min(16, ceil(2 TARGET / base)) is 1/16 when the base RTT is 0.06 ms: both
    // flows add 1/16 packet per RTT and the multiplicative decrease, the only force towards
    // fairness, acts only above TARGET, which the periodic slowdowns keep the queue from
    // reaching. Seed 1: 0.57 / 9.35 Mb/s (Jain 0.56); the real bed gives 0.45 / 9.45.
    let r = sim(&bed_latecomer(r#"{ name = "ledbat++" }"#));
    assert!(
        r.aggregate.jain_long.unwrap() < 0.7,
        "Jain {:?}",
        r.aggregate.jain_long
    );
}

#[test]
fn ledbat_pp_with_our_extensions_shares_with_a_latecomer_at_zero_base_delay() {
    // Gain 1, ramps back to the pre-slowdown window, joins other flows' slowdowns: Jain
    // 0.99 at seed 1 (the real bed: 0.991, `testbed/sidebyside.py`).
    let r = sim(&bed_latecomer(
        r#"{ name = "ledbat++", max_gain_divisor = 1.0, ramp_delay_exit = false, slowdown_join = 0.5 }"#,
    ));
    assert!(
        r.aggregate.jain_long.unwrap() > 0.95,
        "Jain {:?}",
        r.aggregate.jain_long
    );
    assert!(
        r.aggregate.efficiency > 0.95,
        "eta {}",
        r.aggregate.efficiency
    );
}

#[test]
fn fledbat_latecomer_keeps_its_wrong_base_without_slowdowns_and_shares_with_them() {
    // The latecomer takes the first flow's standing queue (about 32 ms) as base delay and
    // nothing ever empties the queue: 0.98 / 9.02 Mb/s at seed 1 (the real bed: 1.1 / 8.8).
    let plain = sim(&bed_latecomer(r#"{ name = "fledbat" }"#));
    assert!(
        plain.aggregate.jain_long.unwrap() < 0.7,
        "Jain {:?}",
        plain.aggregate.jain_long
    );
    // With LEDBAT++'s periodic slowdowns and the join rule the queue empties and both
    // flows measure the true base: Jain 1.000 at seed 1.
    let fixed = sim(&bed_latecomer(
        r#"{ name = "fledbat", slowdowns = true, slowdown_join = 0.5 }"#,
    ));
    assert!(
        fixed.aggregate.jain_long.unwrap() > 0.95,
        "Jain {:?}",
        fixed.aggregate.jain_long
    );
}

// The recommended preset on the test bed's link at real base RTTs (`docs/sidebyside/README.md`): the
// scenarios of `scenarios/testbed/scavenger-*.toml`, base RTTs from the bed's 0.06 ms to
// 200 ms. Figures for the old join rule are those of the parent commit's binary on the same
// scenarios (`docs/controllers-notes.md`, "scavenger", has the commands). The figures in the
// comments below were measured with the preset before the competitor set became its default
// (`ledbat_core::scavenger::PLAIN_PARAMS`); the tests run the preset's default, set on, and
// hold for both.

/// One-way delays giving base RTTs of 0.06, 20, 40, 100 and 200 ms (no access delay).
const BASE_RTTS: [&str; 5] = ["30us", "10ms", "20ms", "50ms", "100ms"];

/// `scenarios/testbed/<file>` with `overrides` (`--set` syntax), seed 1.
fn testbed(file: &str, overrides: &[String]) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/testbed")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let sc = Scenario::from_toml_with(&text, overrides).unwrap();
    let r = run(&sc, 1).unwrap();
    assert!(r.conservation.holds, "{file}: {:?}", r.conservation);
    r
}

fn at(delay: &str, more: &[&str]) -> Vec<String> {
    let mut v = vec![format!("topology.delay={delay}")];
    v.extend(more.iter().map(|s| s.to_string()));
    v
}

/// Mean of flow `f`'s delivered rate (Mb/s) over the samples in (a, b] seconds.
fn mean_rate(r: &RunResult, f: usize, a: f64, b: f64) -> f64 {
    let s = r.series.as_ref().unwrap();
    let v: Vec<f64> = s
        .t_s
        .iter()
        .zip(&s.flows[f].rate_mbps)
        .filter(|(t, _)| **t > a && **t <= b)
        .map(|(_, x)| *x)
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

#[test]
fn alone_the_join_rule_never_fires_even_when_the_receiver_stalls() {
    // Alone there is no other flow whose slowdown could be joined: a correct rule leaves the
    // run exactly as without it. The old rule (a dip below join x TARGET after any sample
    // above it) joined the tail of the flow's own ramp at a base RTT of 200 ms and the dips
    // of stalls: ledbat++ with the extensions alone at 200 ms had efficiency 0.44 instead of
    // 0.94, fledbat with slowdowns 0.26 instead of 0.70; with stalls the runs differed at
    // 0.06, 20, 40 and 200 ms (fledbat at 40 ms: 0.56 instead of 0.68).
    let controllers = [
        r#"{ name = "ledbat++", max_gain_divisor = 1.0, ramp_delay_exit = false, slowdown_join = JOIN }"#,
        r#"{ name = "fledbat", slowdowns = true, slowdown_join = JOIN }"#,
    ];
    for file in ["scavenger-alone.toml", "scavenger-stall.toml"] {
        for cc in controllers {
            for delay in BASE_RTTS {
                let with = cc.replace("JOIN", "0.5");
                let without = cc.replace("JOIN", "0.0");
                let a = testbed(file, &at(delay, &[&format!("flow.0.cc={with}")]));
                let b = testbed(file, &at(delay, &[&format!("flow.0.cc={without}")]));
                assert_eq!(
                    (a.flows[0].delivered_bytes, a.flows[0].cwnd_mean_pkts),
                    (b.flows[0].delivered_bytes, b.flows[0].cwnd_mean_pkts),
                    "{file} {cc} at {delay}"
                );
            }
        }
    }
}

#[test]
fn scavenger_alone_fills_the_link_without_a_tail_drop_at_every_base_rtt() {
    // From the start, slow start included: no drop on the 100-frame FIFO. LEDBAT++ as
    // drafted (slow start doubling to 3/4 TARGET) drops 12 packets at 40 ms and 22 at
    // 100 ms; with the draft's 2-packet holds its slowdowns cost 4-6 % of the link at
    // 20-200 ms (efficiency 0.94-0.96); the scavenger's cost about 1 %.
    for delay in BASE_RTTS {
        let full = testbed("scavenger-alone.toml", &at(delay, &["warmup=0s"]));
        assert_eq!(full.links[0].queue_drops, 0, "drops at {delay}");
        let r = testbed("scavenger-alone.toml", &at(delay, &[]));
        assert!(
            r.aggregate.efficiency > 0.985,
            "eta {} at {delay}",
            r.aggregate.efficiency
        );
        // The queue stays near TARGET (60 ms), below it on average because of slowdowns.
        let q = r.links[0].qdelay_mean_ms;
        assert!((45.0..66.0).contains(&q), "queue {q} ms at {delay}");
    }
}

#[test]
fn scavenger_stalls_cost_little_more_than_the_stalls_themselves() {
    // Stalls take about 7 % of the time. The draft's +1 packet per RTT after the flightsize
    // cap has cut the window gave ledbat++ with the extensions 0.66 / 0.19 / 0.05 of the
    // link at 40 / 100 / 200 ms; the scavenger regrows the window by slow start.
    for (delay, floor) in [("30us", 0.92), ("10ms", 0.9), ("20ms", 0.87), ("50ms", 0.8)] {
        let r = testbed("scavenger-stall.toml", &at(delay, &[]));
        assert!(
            r.aggregate.efficiency > floor,
            "eta {} at {delay}",
            r.aggregate.efficiency
        );
    }
}

#[test]
fn scavenger_yields_to_cubic_and_is_back_at_full_rate_3_s_after_it_leaves() {
    // CUBIC from 10 s to 40 s. Within 2 s the scavenger is below 20 % of the link; from
    // 3 s after CUBIC left it is back at the full rate. With +1 packet per RTT and the old
    // join rule, ledbat++ with the extensions got 9.41 Mb/s over 43-55 s at 40 ms and
    // 8.98 at 100 ms. (From 100 ms up the simulator's CUBIC, one SACK block per ACK, falls
    // into retransmission timeouts on this FIFO and leaves the link idle: 2.9 Mb/s of its
    // 5 possible at 100 ms alone. The bed's kernel CUBIC is the test there.)
    for delay in ["30us", "10ms", "20ms"] {
        let r = testbed(
            "scavenger-cross-leaves.toml",
            &at(delay, &["sample_interval=10ms"]),
        );
        let beside = mean_rate(&r, 0, 12.0, 40.0);
        assert!(beside < 1.0, "{beside} Mb/s beside cubic at {delay}");
        let after = mean_rate(&r, 0, 43.0, 60.0);
        assert!(
            after > 9.7,
            "{after} Mb/s from 3 s after cubic left at {delay}"
        );
    }
}

#[test]
fn scavenger_shares_with_a_latecomer_of_its_kind() {
    // Jain over 40-70 s, the latecomer starting 10, 17 or 23 s after the first flow. At a
    // base RTT of 0.06 ms the simulator's link serialises every packet, so a packet held by
    // any other flow in a slowdown sits in the queue and a latecomer's base stays a
    // packet's time high: with every flow holding one packet in joint slowdowns, 0.70-0.88
    // over seeds 1-6 (the draft's 2-packet holds 0.76). The joiner's pause
    // (slowdown_join_pause) and joining at 0.8 TARGET (a large flow then also joins a small
    // flow's slowdown; a flow that would pause waits until the queue has stayed drained for
    // half an RTT) give 0.945-1.000 over seeds 1-6 and the three starts (`ledbat sim
    // scenarios/testbed/scavenger-latecomer.toml --seed N --set topology.delay=30us --set
    // flow.1.start=17s`), and 0.95 over 600-900 s, after the first flow's base history has
    // rolled over (`--set duration=900s --set warmup=600s`; 0.91 with joining at 0.5).
    // From 10 ms up the holds empty the queue (0.990-1.000 over the same seeds and starts).
    // Holding more of the window in flight than 0.7 (slowdown_hold_bdp) saves link time
    // alone but leaves some start phases unfair (0.85: Jain 0.68 at 20 ms, latecomer 31 s
    // later).
    for (delay, floor) in [
        ("30us", 0.93),
        ("10ms", 0.95),
        ("20ms", 0.95),
        ("50ms", 0.95),
        ("100ms", 0.95),
    ] {
        for start in ["10s", "17s", "23s"] {
            let r = testbed(
                "scavenger-latecomer.toml",
                &at(delay, &[&format!("flow.1.start={start}")]),
            );
            let j = r.aggregate.jain_long.unwrap();
            assert!(j > floor, "Jain {j} at {delay}, latecomer at {start}");
            assert!(
                r.aggregate.efficiency > 0.97,
                "eta {}",
                r.aggregate.efficiency
            );
        }
    }
}

#[test]
fn with_join_recent_the_first_flow_joins_the_latecomers_first_slowdown_at_zero_base_rtt() {
    // The 0-ms pair with the detection off, seed 5 (docs/tcp/measured.md, "Why the queue
    // does not drain"): the latecomer's first slowdown holds from about 11.07 to 11.20 s.
    // Without `slowdown_join_recent` the first flow, cut to 2 packets by the latecomer's
    // slow start, takes the queue's fall for its own and restarts at once: the queue never
    // drains (3 packets at least). With it the first flow joins (pausing) and the queue
    // holds at most the latecomer's one packet.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/testbed/scavenger-latecomer.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let hold = |recent: bool| {
        let mut o = at(
            "30us",
            &[
                "topology.burst=15360",
                "sample_interval=2ms",
                "duration=12s",
                "warmup=1s",
            ],
        );
        for f in 0..2 {
            o.push(format!("flow.{f}.cc.competitor.enabled=false"));
            o.push(format!("flow.{f}.cc.slowdown_join_recent={recent}"));
        }
        let sc = Scenario::from_toml_with(&text, &o).unwrap();
        let r = run(&sc, 5).unwrap();
        let s = r.series.unwrap();
        let window: Vec<usize> = (0..s.t_s.len())
            .filter(|&i| s.t_s[i] > 11.10 && s.t_s[i] <= 11.20)
            .collect();
        assert!(window.iter().all(|&i| s.states[1][i] == "slowdown"));
        let min_queue = window.iter().map(|&i| s.links[0].queue_pkts[i]).min();
        let first_joined = window.iter().any(|&i| s.states[0][i] == "slowdown");
        (min_queue.unwrap(), first_joined)
    };
    let (queue, joined) = hold(false);
    assert!(
        queue >= 3 && !joined,
        "without: queue {queue}, joined {joined}"
    );
    let (queue, joined) = hold(true);
    assert!(queue <= 1 && joined, "with: queue {queue}, joined {joined}");
}
