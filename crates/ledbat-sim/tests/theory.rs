//! The simulator against theory: link filling, LEDBAT's standing queue, conservation,
//! determinism, and a golden output.

use ledbat_sim::{run, RunResult, Scenario};

fn sim(text: &str, seed: u64) -> RunResult {
    let sc = Scenario::from_toml(text).unwrap();
    let r = run(&sc, seed).unwrap();
    assert!(
        r.conservation.holds,
        "conservation violated: {:?}",
        r.conservation
    );
    r
}

#[test]
fn single_newreno_flow_fills_the_link() {
    let r = sim(
        r#"
duration = "60s"
warmup = "10s"
[[flow]]
cc = { name = "newreno" }
"#,
        1,
    );
    assert!(
        r.aggregate.efficiency > 0.97,
        "efficiency {}",
        r.aggregate.efficiency
    );
    assert!(r.aggregate.efficiency <= 1.0 + 1e-3);
    // B = 100 > BDP (41.7 packets): the queue never empties after slow start.
    assert!(r.links[0].utilisation > 0.97);
}

#[test]
fn single_ledbat_flow_holds_target_times_capacity_in_the_queue() {
    // TARGET 25 ms at 10 Mb/s with 1500-byte packets: 25 ms / 1.2 ms = 20.8 packets.
    let r = sim(
        r#"
duration = "60s"
warmup = "20s"
[[flow]]
cc = { name = "ledbat", target = "25ms" }
"#,
        1,
    );
    let q = &r.links[0];
    assert!(
        (q.queue_mean_time_pkts - 20.8).abs() < 2.0,
        "time-mean queue {}",
        q.queue_mean_time_pkts
    );
    assert!(
        (q.queue_mean_arrival_pkts - 20.8).abs() < 2.0,
        "arrival-mean queue {}",
        q.queue_mean_arrival_pkts
    );
    assert!(
        (q.qdelay_mean_ms - 25.0).abs() < 2.5,
        "queueing delay {}",
        q.qdelay_mean_ms
    );
    assert!(r.aggregate.efficiency > 0.99);
    assert_eq!(q.queue_drops, 0);
}

#[test]
fn ledbat_target_100ms_holds_a_proportionally_longer_queue() {
    let r = sim(
        r#"
duration = "60s"
warmup = "30s"
topology = { kind = "dumbbell", queue = { kind = "droptail", packets = 200 } }
[[flow]]
cc = { name = "ledbat", target = "100ms" }
"#,
        1,
    );
    let q = r.links[0].queue_mean_time_pkts;
    assert!((q - 83.3).abs() < 4.0, "queue {q}");
}

const MIXED: &str = r#"
duration = "20s"
warmup = "2s"
[topology]
kind = "dumbbell"
queue = { kind = "red", packets = 60 }
loss = 0.001
reverse_loss = 0.001
jitter = "1ms"
access_rate = "100Mbps"
[[flow]]
cc = { name = "ledbat", target = "25ms" }
count = 2
start_spacing = "3s"
send_jitter = "2ms"
interruptions = { every = ["1s", "3s"], length = ["0ms", "50ms"] }
sender_clock = { offset = "3600s", drift_ppm = 50.0 }
[[flow]]
cc = { name = "ledbat" }
direction = "reverse"
transport = { delayed_ack = true }
traffic = { kind = "chunks", size = 100000, persistence = 0.5 }
[[flow]]
traffic = { kind = "cbr", rate = "750kbps", size = 500 }
start = "5s"
stop = "15s"
[[flow]]
cc = { name = "ledbat" }
traffic = { kind = "bursty" }
[[flow]]
cc = { name = "ledbat" }
traffic = { kind = "sessions", think = ["200ms", "500ms"] }
[[flow]]
cc = { name = "ledbat" }
traffic = { kind = "transfer", bytes = 300000 }
"#;

#[test]
fn packets_are_conserved_in_every_element_and_traffic_kind() {
    for seed in 1..=4 {
        let r = sim(MIXED, seed);
        assert!(
            r.conservation.dropped > 0,
            "random loss must drop something"
        );
        assert!(r.flows[6].completions.len() == 1, "the transfer completes");
        assert!(!r.flows[5].completions.is_empty(), "sessions complete");
        assert!(!r.flows[2].completions.is_empty(), "chunks complete");
        assert!(r.flows[3].delivered_bytes > 0, "cbr delivers");
    }
}

#[test]
fn codel_and_byte_limited_queues_conserve_packets_and_bound_delay() {
    let r = sim(
        r#"
duration = "30s"
warmup = "10s"
topology = { kind = "dumbbell", queue = { kind = "codel" } }
[[flow]]
cc = { name = "ledbat", target = "100ms" }
"#,
        3,
    );
    // CoDel keeps the standing queue near its 5 ms target, well below LEDBAT's 100 ms.
    assert!(
        r.links[0].qdelay_mean_ms < 20.0,
        "{}",
        r.links[0].qdelay_mean_ms
    );
    assert!(r.links[0].queue_drops > 0);
    let r = sim(
        r#"
duration = "10s"
topology = { kind = "dumbbell", queue = { kind = "droptail", bytes = 30000 } }
[[flow]]
cc = { name = "ledbat", target = "100ms" }
"#,
        3,
    );
    assert!(r.links[0].queue_max_pkts <= 20);
}

#[test]
fn star_topology_runs_peer_to_peer_chunks() {
    let r = sim(
        r#"
duration = "20s"
[topology]
kind = "star"
[[topology.host]]
count = 4
up = "1Mbps"
down = "8Mbps"
[[flow]]
cc = { name = "ledbat", target = "25ms" }
from = 0
to = 1
traffic = { kind = "chunks", persistence = 0.3, peers = [1, 2, 3] }
[[flow]]
cc = { name = "ledbat", target = "25ms" }
from = 1
to = 0
"#,
        5,
    );
    assert_eq!(r.links.len(), 8);
    assert!(r.aggregate.efficiency > 0.8, "{}", r.aggregate.efficiency);
    assert!(r.flows[0].completions.len() > 3);
}

#[test]
fn same_seed_gives_identical_output_and_seeds_differ() {
    let a = serde_json::to_string(&sim(MIXED, 7)).unwrap();
    let b = serde_json::to_string(&sim(MIXED, 7)).unwrap();
    assert_eq!(a, b);
    let c = serde_json::to_string(&sim(MIXED, 8)).unwrap();
    assert_ne!(a, c);
}

#[test]
fn run_is_callable_from_many_threads() {
    let sc = Scenario::from_toml(MIXED).unwrap();
    let want = serde_json::to_string(&run(&sc, 2).unwrap()).unwrap();
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| serde_json::to_string(&run(&sc, 2).unwrap()).unwrap()))
            .collect();
        for h in hs {
            assert_eq!(h.join().unwrap(), want);
        }
    });
}

/// Pins the whole result of one seeded scenario. Regenerate with
/// `UPDATE_GOLDEN=1 cargo test -p ledbat-sim --test theory golden` after an intended change.
#[test]
fn golden_output_of_a_seeded_scenario() {
    let mut r = sim(MIXED, 42);
    r.series = None;
    let got = serde_json::to_string_pretty(&r).unwrap() + "\n";
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/mixed-seed42.json"
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
        std::fs::write(path, &got).unwrap();
    }
    let want =
        std::fs::read_to_string(path).expect("golden file missing: run with UPDATE_GOLDEN=1");
    assert!(got == want, "output differs from {path}");
}

#[test]
fn every_registered_controller_runs_under_the_driver_contract() {
    for info in ledbat_core::CATALOG {
        let text = format!(
            "duration = \"15s\"\nwarmup = \"5s\"\n[[flow]]\ncc = {{ name = \"{}\" }}\n[[flow]]\ncc = {{ name = \"{}\" }}\nstart = \"2s\"\n",
            info.name, info.name
        );
        // Conservation is checked by `sim`; every flow must make progress. (How much is
        // the controller's business: NICE and TCP-LP, whose thresholds sit between the
        // smallest and largest delay seen, back off from one packet's serialisation.)
        let r = sim(&text, 1);
        for f in &r.flows {
            assert!(
                f.delivered_bytes > 100 * 1500,
                "{}: {} delivered only {} bytes",
                info.name,
                f.name,
                f.delivered_bytes
            );
        }
    }
}

#[test]
fn clock_offset_between_hosts_does_not_change_ledbat() {
    let base = "duration = \"30s\"\nwarmup = \"10s\"\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\n";
    let a = sim(base, 1);
    let sc = Scenario::from_toml_with(
        base,
        &[
            "flow.0.receiver_clock.offset=10000s",
            "flow.0.sender_clock.offset=123.456789s",
        ],
    )
    .unwrap();
    let b = run(&sc, 1).unwrap();
    assert_eq!(
        a.links[0].queue_mean_time_pkts,
        b.links[0].queue_mean_time_pkts
    );
    assert_eq!(a.flows[0].delivered_bytes, b.flows[0].delivered_bytes);
}

#[test]
fn receiver_clock_drift_biases_the_one_way_delay_estimate() {
    // A receiver clock running 1000 ppm fast makes every later delay sample look larger by
    // 1 ms per second: LEDBAT reads it as queueing and drains the real queue below target.
    let base = "duration = \"30s\"\nwarmup = \"10s\"\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\n";
    let sc = Scenario::from_toml_with(base, &["flow.0.receiver_clock.drift_ppm=1000"]).unwrap();
    let r = run(&sc, 1).unwrap();
    assert!(
        r.links[0].queue_mean_time_pkts < 15.0,
        "{}",
        r.links[0].queue_mean_time_pkts
    );
}

#[test]
fn delayed_acks_halve_the_ack_count() {
    let base = "duration = \"20s\"\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\n";
    let plain = sim(base, 1);
    let sc = Scenario::from_toml_with(base, &["transport.delayed_ack=true"]).unwrap();
    let del = run(&sc, 1).unwrap();
    let ratio = |r: &RunResult| r.links[1].departures as f64 / r.links[0].departures as f64;
    assert!((ratio(&plain) - 1.0).abs() < 0.01, "{}", ratio(&plain));
    assert!((ratio(&del) - 0.5).abs() < 0.05, "{}", ratio(&del));
}

#[test]
fn fast_retransmit_repairs_exactly_the_dropped_packets() {
    // DropTail losses only, ACKs never lost: with the SACK scoreboard every drop is
    // detected by three later packets and retransmitted once, without timeouts.
    let r = sim(
        "duration = \"60s\"\ntopology = { kind = \"dumbbell\", queue = { kind = \"droptail\", packets = 20 } }\n[[flow]]\ncc = { name = \"newreno\" }\n",
        1,
    );
    let f = &r.flows[0];
    assert!(f.dropped_packets > 10);
    assert_eq!(f.timeouts, 0);
    assert_eq!(f.retransmits, f.dropped_packets);
}

#[test]
fn heavy_random_loss_triggers_timeouts_with_backoff_and_still_progresses() {
    let r = sim(
        "duration = \"60s\"\ntopology = { kind = \"dumbbell\", loss = 0.2 }\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\n",
        1,
    );
    let f = &r.flows[0];
    assert!(f.timeouts > 0, "{f:?}");
    assert!(f.delivered_bytes > 100_000, "{f:?}");
    assert!(f.retransmits >= f.dropped_packets / 2);
}

#[test]
fn cbr_source_delivers_its_rate_and_ignores_congestion() {
    let r = sim(
        "duration = \"20s\"\nwarmup = \"1s\"\n[[flow]]\ntraffic = { kind = \"cbr\", rate = \"750kbps\", size = 500 }\n",
        1,
    );
    assert!(
        (r.flows[0].throughput_bps - 750_000.0).abs() < 2_000.0,
        "{}",
        r.flows[0].throughput_bps
    );
    assert_eq!(r.flows[0].controller, "udp");
}

#[test]
fn time_to_steady_state_reflects_convergence() {
    // LEDBAT alone without slow start grows by about one packet per RTT: from 2 to the
    // ~42-packet BDP takes roughly 40 RTTs (~2-3 s), then the rate is flat.
    let r = sim(
        "duration = \"30s\"\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\n",
        1,
    );
    let t = r.flows[0].time_to_steady_s.expect("reaches steady state");
    assert!((1.0..=8.0).contains(&t), "{t}");
    // A latecomer that starts at 10 s is measured from its own start.
    let r = sim(
        "duration = \"60s\"\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\nstart = \"10s\"\n",
        1,
    );
    let t = r.flows[1].time_to_steady_s.expect("latecomer settles");
    assert!(t < 40.0, "{t}");
}
