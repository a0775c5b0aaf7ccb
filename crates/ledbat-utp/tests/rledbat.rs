//! Receiver-driven LEDBAT in the harness: a loss-based sender (NewReno) that fills a
//! bloated bottleneck on its own is held near the receiver's delay target when the
//! receiver runs rLEDBAT, and still fills the link; and what the periodic slowdowns cost
//! at each base RTT (docs/tcp/README.md, "Where the alone utilisation goes").

use ledbat_core::{ControllerConfig, Duration};
use ledbat_utp::harness::{run_flows, LinkConfig, Net};
use ledbat_utp::rledbat::RledbatConfig;
use ledbat_utp::{ConnectionConfig, EndpointConfig};

/// A backlogged NewReno sender through 10 Mbit/s with a 300 ms drop-tail FIFO, 5 ms each
/// way; the receiver with or without rLEDBAT. Mean queueing delay (ms) and goodput
/// (Mbit/s) over 20..40 s.
fn newreno_through_a_bloated_link(rledbat: Option<RledbatConfig>) -> (f64, f64) {
    newreno_through(rledbat, 5, 40)
}

/// The same with `d_ms` each way, measured over 20..`end_s` s.
fn newreno_through(rledbat: Option<RledbatConfig>, d_ms: u64, end_s: u64) -> (f64, f64) {
    let rate = 10_000_000u64;
    let cfg = ConnectionConfig::default()
        .controller(ControllerConfig::from_name("newreno").unwrap())
        .rledbat(rledbat);
    let mut net = Net::new(
        EndpointConfig::default().connection(cfg),
        LinkConfig::bottleneck(Duration::from_millis(d_ms), rate, 375_000),
        LinkConfig::bottleneck(Duration::from_millis(d_ms), 0, 0),
        3,
    );
    let start = net.now;
    let (from, to) = (
        start + Duration::from_secs(20),
        start + Duration::from_secs(end_s),
    );
    let mut got_from = None;
    let (_, got) = run_flows(
        &mut net,
        1,
        |_| None,
        to,
        |net, got| {
            if got_from.is_none() && net.now >= from {
                got_from = Some(got.values().map(Vec::len).sum::<usize>());
            }
        },
    );
    let got: usize = got.values().map(Vec::len).sum();
    let mbit = (got - got_from.unwrap()) as f64 * 8.0 / (end_s - 20) as f64 / 1e6;
    (net.mean_ab_queue_ms(from), mbit)
}

#[test]
fn rledbat_holds_a_newreno_sender_near_the_receivers_target() {
    let (q_off, rate_off) = newreno_through_a_bloated_link(None);
    let (q_on, rate_on) = newreno_through_a_bloated_link(Some(RledbatConfig::default()));
    eprintln!(
        "NewReno sender, 10 Mbit/s, 300 ms FIFO: without rLEDBAT {q_off:.1} ms queue, \
         {rate_off:.2} Mbit/s; with rLEDBAT (target 60 ms) {q_on:.1} ms, {rate_on:.2} Mbit/s"
    );
    assert!(q_off > 150.0, "NewReno alone fills the FIFO: {q_off:.1} ms");
    assert!(
        q_on < 90.0,
        "rLEDBAT holds the queue near 60 ms: {q_on:.1} ms"
    );
    assert!(
        rate_on > 8.5,
        "and the link stays full: {rate_on:.2} Mbit/s"
    );
}

/// Alone, without slowdowns the window settles at the BDP plus TARGET's queue and the link
/// stays full; the slowdowns (2 packets for 2 RTTs, then slow start back at GAIN per byte)
/// are the whole cost, and since the next one comes 9 times the last one's duration (hold
/// and climb) after it, they cost at most about a tenth of the link at every base RTT.
#[test]
fn slowdowns_cost_at_most_a_tenth_of_the_link_at_every_base_rtt() {
    let on = RledbatConfig::default();
    let off = RledbatConfig {
        slowdowns: false,
        ..on
    };
    for d in [0u64, 5, 10, 20, 30, 50] {
        let (q_plain, plain) = newreno_through(None, d, 60);
        let (q_off, r_off) = newreno_through(Some(off), d, 60);
        let (q_on, r_on) = newreno_through(Some(on), d, 60);
        eprintln!(
            "base RTT {:3} ms: plain {plain:.2} Mbit/s {q_plain:.0} ms; rLEDBAT without \
             slowdowns {r_off:.2} ({:.3}) {q_off:.0} ms; with {r_on:.2} ({:.3}) {q_on:.0} ms",
            2 * d,
            r_off / plain,
            r_on / plain
        );
        assert!(
            r_off > 0.98 * plain,
            "without slowdowns the link stays full"
        );
        assert!((q_off - 60.0).abs() < 6.0, "at TARGET: {q_off:.1} ms");
        assert!(
            r_on > 0.9 * r_off,
            "slowdowns cost {:.3}",
            1.0 - r_on / r_off
        );
    }
}
