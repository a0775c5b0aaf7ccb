//! `bbr` (BBRv1, `ledbat_core::bbr`) in the simulator: alone it fills the link with a small
//! queue and enters ProbeRTT every 10 s; beside CUBIC its share falls as the buffer grows.
//! The scenario files are `scenarios/testbed/bbr-*.toml`; figures and the comparison with
//! kernel bbr: docs/controllers-notes.md, "bbr".

use ledbat_sim::{run, RunResult, Scenario};

fn testbed(file: &str, overrides: &[&str]) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/testbed")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let sc = Scenario::from_toml_with(&text, &overrides).unwrap();
    let r = run(&sc, 1).unwrap();
    assert!(r.conservation.holds, "{file}: {:?}", r.conservation);
    r
}

#[test]
fn bbr_alone_fills_the_link_with_a_small_queue() {
    // 10 Mbit/s, base RTT 40 ms + 1.2 ms of serialisation: BDP 34.3 packets. BBR paces at
    // 0.99 of the delivery rate it measured (the link's), so the queue drains in the phases of
    // gain 1; only the 5/4 phase adds to it, at most 1/4 BDP (8.6 packets) over an RTprop,
    // which the 3/4 phase takes away. A window of 2 BDP caps the queue at a BDP: never a drop.
    // Pacing 1 % below the link between probes and ProbeRTT (about 4 packets per RTT for
    // 200 ms + an RTT of every 10.2 s: 2 %) leave it about 0.97 busy.
    let r = testbed("bbr-alone.toml", &[]);
    let l = &r.links[0];
    assert!(l.utilisation > 0.95, "utilisation {}", l.utilisation);
    assert!(
        l.queue_mean_time_pkts < 8.6,
        "time-mean queue {} packets",
        l.queue_mean_time_pkts
    );
    let full = testbed("bbr-alone.toml", &["warmup=0s"]);
    assert!(
        full.links[0].queue_max_pkts < 100,
        "Startup's queue reached the FIFO's 100 packets"
    );
}

#[test]
fn bbr_alone_enters_probe_rtt_every_ten_seconds() {
    // RTprop is set in the first round and, alone, no smaller sample comes again: ProbeRTT
    // 10 s after it, and 10 s after each ProbeRTT's end (>= 200 ms + a round later). The
    // 100 ms samples of the window show each as a run of samples at 4 packets.
    let r = testbed("bbr-alone.toml", &["warmup=0s"]);
    let s = r.series.as_ref().unwrap();
    let cwnd = &s.flows[0].cwnd_pkts;
    let mut starts = Vec::new();
    for i in 1..cwnd.len() {
        if cwnd[i] <= 4.0 && cwnd[i - 1] > 4.0 {
            starts.push(s.t_s[i]);
        }
    }
    // 40 s: ProbeRTT near 10, 20.3 and 30.6 s.
    assert_eq!(starts.len(), 3, "ProbeRTT entries at {starts:?}");
    assert!((10.0..10.4).contains(&starts[0]), "{starts:?}");
    for w in starts.windows(2) {
        let gap = w[1] - w[0];
        assert!((10.1..10.6).contains(&gap), "{starts:?}");
    }
}

/// BBR's share of what both flows delivered beside CUBIC with a FIFO of `packets`.
fn bbr_share(packets: u32) -> f64 {
    let q = format!("topology.queue={{ kind = \"droptail\", packets = {packets} }}");
    let r = testbed("bbr-beside-cubic.toml", &[&q]);
    let (b, c) = (r.flows[0].throughput_bps, r.flows[1].throughput_bps);
    b / (b + c)
}

#[test]
fn bbr_beside_cubic_takes_most_of_a_shallow_buffer_and_less_of_a_deep_one() {
    // BBRv1 ignores losses (it only conserves packets for a round) and caps its flight at
    // 2 BtlBw x RTprop. In a FIFO of half a BDP (17 packets) CUBIC's losses come every few
    // RTTs and BBR's window never binds: BBR takes most of the link (Hock et al., ICNP 2017;
    // Ware et al., IMC 2019). In a FIFO of 8 BDP (275 packets) CUBIC fills it, RTprop
    // is only measured when CUBIC happens to drain in BBR's ProbeRTT, and BBR is
    // window-limited at 2 BDP of a path whose RTT is 1 + 8 BDP long: CUBIC takes more.
    let shallow = bbr_share(17);
    let deep = bbr_share(275);
    assert!(shallow > 0.7, "bbr's share with 17 packets {shallow}");
    assert!(deep < 0.5, "bbr's share with 275 packets {deep}");
}
