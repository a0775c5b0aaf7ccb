//! One endpoint serving hundreds of connections in the in-memory harness: every transfer
//! byte-exact, memory per connection within its bound, and equal flows sharing one
//! bottleneck fairly.

use ledbat_core::Duration;
use ledbat_utp::harness::{addr_b, run_flows, senders, LinkConfig, Net};
use ledbat_utp::{ConnHandle, EndpointConfig};
use std::collections::HashMap;

#[test]
fn five_hundred_concurrent_connections_on_one_endpoint_are_byte_exact_and_bounded() {
    let n = 500;
    // All 500 SYNs arrive at one instant: more than the default 64 half-open connections
    // (a SYN-flood bound) would be refused.
    let mut net = Net::new(
        EndpointConfig::default().max_half_open(n),
        LinkConfig::lossy(0.01),
        LinkConfig::lossy(0.01),
        500,
    );
    let payload = |i: usize| -> Vec<u8> {
        (0..8_000 + (i % 7) * 1_000)
            .map(|k| (k * 7 + i * 13) as u8)
            .collect()
    };
    let bound = EndpointConfig::default().connection.memory_bound();
    let (mut most_open, mut most_memory, mut peak_conn) = (0usize, 0usize, 0usize);
    let until = net.now + Duration::from_secs(600);
    let (servers, mut got) = run_flows(
        &mut net,
        n,
        |i| Some(payload(i)),
        until,
        |net, _| {
            if net.b.len() >= most_open {
                most_open = net.b.len();
                most_memory = most_memory.max(net.a.memory_bytes() + net.b.memory_bytes());
                for ep in [&net.a, &net.b] {
                    for h in ep.handles() {
                        peak_conn = peak_conn.max(ep.connection(h).unwrap().memory_bytes());
                    }
                }
            }
        },
    );
    assert_eq!(servers.len(), n, "every connection accepted");
    assert_eq!(most_open, n, "all {n} open on the server at once");
    let mut seen = senders(&servers, &mut got, n, payload);
    seen.dedup();
    assert_eq!(seen.len(), n, "each client's bytes arrived exactly once");
    assert!(
        peak_conn <= bound,
        "a connection held {peak_conn} B, bound {bound} B"
    );
    eprintln!(
        "{n} connections: peak memory of one connection {peak_conn} B (bound {bound} B), \
         of both endpoints {most_memory} B with {most_open} open"
    );
}

/// Jain's fairness index of `x`: (sum x)^2 / (n * sum x^2).
fn jain(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let q: f64 = x.iter().map(|v| v * v).sum();
    s * s / (x.len() as f64 * q)
}

#[test]
fn jain_index_of_a_hundred_equal_ledbat_flows_through_one_bottleneck() {
    assert!((jain(&[1.0, 1.0, 1.0]) - 1.0).abs() < 1e-12);
    assert!((jain(&[1.0, 0.0]) - 0.5).abs() < 1e-12);
    let n = 100;
    // 50 Mbit/s, 10 ms each way, a drop-tail FIFO of 1 MB (160 ms): the 100 flows' minimum
    // windows fit under LEDBAT's 100 ms target.
    let mut net = Net::new(
        EndpointConfig::default().max_half_open(n),
        LinkConfig::bottleneck(Duration::from_millis(10), 50_000_000, 1_000_000),
        LinkConfig::bottleneck(Duration::from_millis(10), 0, 0),
        100,
    );
    let start = net.now;
    let (from, to) = (
        start + Duration::from_secs(20),
        start + Duration::from_secs(40),
    );
    let mut at_from: Option<HashMap<ConnHandle, usize>> = None;
    let (servers, got) = run_flows(
        &mut net,
        n,
        |_| None,
        to,
        |net, got| {
            if at_from.is_none() && net.now >= from {
                at_from = Some(got.iter().map(|(h, v)| (*h, v.len())).collect());
            }
        },
    );
    assert_eq!(servers.len(), n);
    let at_from = at_from.expect("ran past the measurement start");
    let rates: Vec<f64> = servers
        .iter()
        .map(|h| {
            let total = got.get(h).map_or(0, Vec::len);
            (total - at_from.get(h).copied().unwrap_or(0)) as f64 * 8.0 / 20.0 / 1e6
        })
        .collect();
    let sum: f64 = rates.iter().sum();
    let j = jain(&rates);
    let (lo, hi) = rates
        .iter()
        .fold((f64::MAX, 0.0f64), |(l, h), &r| (l.min(r), h.max(r)));
    eprintln!(
        "100 flows, 20..40 s: {sum:.1} Mbit/s in all, per flow {lo:.3}..{hi:.3} Mbit/s, Jain {j:.4}"
    );
    assert!(sum > 40.0, "the flows fill the 50 Mbit/s link: {sum:.1}");
    assert!(j >= 0.95, "Jain {j:.4}");
}

#[test]
fn a_syn_flood_from_many_addresses_keeps_state_bounded_and_a_live_transfer_exact() {
    use ledbat_utp::harness::{addr_a, Side};
    use ledbat_utp::packet::{encode, Header, PacketType};
    let mut net = Net::new(
        EndpointConfig::default(),
        LinkConfig::lossy(0.02),
        LinkConfig::lossy(0.02),
        9,
    );
    let half_open = EndpointConfig::default().max_half_open;
    let data: Vec<u8> = (0..300_000u32).map(|k| (k % 251) as u8).collect();
    let c = net.a.connect(net.now, addr_b()).unwrap();
    let (mut written, mut got, mut server) = (0usize, Vec::new(), None);
    let mut buf = vec![0u8; 64 * 1024];
    let mut flood = 0u32;
    let limit = net.now + Duration::from_secs(120);
    loop {
        let conn = net.a.connection_mut(c).unwrap();
        if written < data.len() {
            written += conn.write(&data[written..]).unwrap_or(0);
        } else {
            conn.close();
        }
        // Once the transfer runs: 200 SYNs from new addresses at every step, 10 000 in all.
        if server.is_some() && flood < 10_000 {
            for _ in 0..200 {
                let h = Header {
                    ty: PacketType::Syn,
                    conn_id: flood as u16,
                    timestamp: 0,
                    timestamp_diff: 0,
                    wnd_size: 1 << 20,
                    seq_nr: 1,
                    ack_nr: 0,
                };
                let mut d = Vec::new();
                encode(&h, &[], &[], &mut d);
                let from =
                    std::net::SocketAddr::from(([172, 16, (flood >> 8) as u8, flood as u8], 6881));
                net.inject_raw(Side::B, from, &d);
                flood += 1;
            }
            assert!(net.b.len() <= half_open + 1, "{} connections", net.b.len());
        }
        // The flood's connections are accepted too; the application ignores them.
        while let Some(h) = net.b.accept() {
            if net.b.peer_addr(h) == Some(addr_a()) {
                server = Some(h);
            }
        }
        if let Some(h) = server {
            let conn = net.b.connection_mut(h).unwrap();
            while let Ok(k) = conn.read(&mut buf) {
                if k == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..k]);
            }
            if conn.is_read_closed() {
                break;
            }
        }
        if !net.step(limit) {
            break;
        }
    }
    assert_eq!(flood, 10_000, "the flood ran during the transfer");
    assert!(
        got == data,
        "the live transfer is byte-exact: {} of {} bytes",
        got.len(),
        data.len()
    );
    let st = net.b.stats().clone();
    // The live SYN and the flood's: at most the half-open bound of flood connections
    // (fewer while the live one was still half-open itself), the rest refused.
    assert_eq!(st.accepted + st.syns_refused, 10_001);
    assert!(st.accepted <= half_open as u64 + 1, "{st:?}");
    assert!(st.resets_sent + st.resets_suppressed >= st.syns_refused);
}
