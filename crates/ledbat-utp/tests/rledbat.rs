//! Receiver-driven LEDBAT in the harness: a loss-based sender (NewReno) that fills a
//! bloated bottleneck on its own is held near the receiver's delay target when the
//! receiver runs rLEDBAT, and still fills the link.

use ledbat_core::{ControllerConfig, Duration};
use ledbat_utp::harness::{addr_b, LinkConfig, Net};
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
    let c = net.a.connect(net.now, addr_b()).unwrap();
    let start = net.now;
    let (from, to) = (
        start + Duration::from_secs(20),
        start + Duration::from_secs(40),
    );
    let chunk = vec![0u8; 64 * 1024];
    let mut buf = vec![0u8; 64 * 1024];
    let (mut server, mut got, mut got_from) = (None, 0u64, None);
    while net.now < to {
        let conn = net.a.connection_mut(c).unwrap();
        assert!(conn.error().is_none());
        while conn.write(&chunk).is_ok() {}
        server = server.or_else(|| net.b.accept());
        if let Some(conn) = server.and_then(|h| net.b.connection_mut(h)) {
            while let Ok(n) = conn.read(&mut buf) {
                if n == 0 {
                    break;
                }
                got += n as u64;
            }
        }
        if got_from.is_none() && net.now >= from {
            got_from = Some(got);
        }
        if !net.step(to) {
            break;
        }
    }
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
