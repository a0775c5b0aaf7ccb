//! Receiver-driven LEDBAT in the harness: a loss-based sender (NewReno) that fills a
//! bloated bottleneck on its own is held near the receiver's delay target when the
//! receiver runs rLEDBAT, and still fills the link.

use ledbat_core::{ControllerConfig, Duration};
use ledbat_utp::harness::{run_flows, LinkConfig, Net};
use ledbat_utp::rledbat::RledbatConfig;
use ledbat_utp::{ConnectionConfig, EndpointConfig};

/// A backlogged NewReno sender through 10 Mbit/s with a 300 ms drop-tail FIFO, 5 ms each
/// way; the receiver with or without rLEDBAT. Mean queueing delay (ms) and goodput
/// (Mbit/s) over 20..40 s.
fn newreno_through_a_bloated_link(rledbat: Option<RledbatConfig>) -> (f64, f64) {
    let rate = 10_000_000u64;
    let cfg = ConnectionConfig::default()
        .controller(ControllerConfig::from_name("newreno").unwrap())
        .rledbat(rledbat);
    let mut net = Net::new(
        EndpointConfig::default().connection(cfg),
        LinkConfig::bottleneck(Duration::from_millis(5), rate, 375_000),
        LinkConfig::bottleneck(Duration::from_millis(5), 0, 0),
        3,
    );
    let start = net.now;
    let (from, to) = (
        start + Duration::from_secs(20),
        start + Duration::from_secs(40),
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
    let mbit = (got - got_from.unwrap()) as f64 * 8.0 / 20.0 / 1e6;
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
