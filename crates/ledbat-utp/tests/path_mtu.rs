//! Path-MTU search in the harness: a link that silently drops datagrams above 1000 bytes.

use ledbat_core::Duration;
use ledbat_utp::harness::{transfer, LinkConfig, Net};
use ledbat_utp::{ConnectionConfig, EndpointConfig};

/// 10 ms, dropping datagrams over 1000 bytes; with `p > 0` also `p` loss, duplication and
/// reordering and 2 ms of jitter, else nothing else.
fn capped(p: f64) -> LinkConfig {
    let base = if p > 0.0 {
        LinkConfig::lossy(p)
    } else {
        LinkConfig::default()
    };
    LinkConfig {
        max_datagram: 1000,
        ..base
    }
}

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|k| (k * 13 % 251) as u8).collect()
}

#[test]
fn without_probing_1400_byte_packets_never_cross_a_1000_byte_link() {
    let mut net = Net::new(EndpointConfig::default(), capped(0.0), capped(0.0), 1);
    let out = transfer(&mut net, &data(50_000), Duration::from_secs(120));
    assert!(
        !out.complete,
        "every DATA packet is dropped: {:?}",
        out.client
    );
    assert_eq!(out.client.bytes_acked, 0);
}

#[test]
fn probing_finds_the_limit_and_transfers_byte_exact() {
    let cfg = EndpointConfig::default().connection(ConnectionConfig::default().mtu_probe(true));
    for seed in 0..20 {
        let mut net = Net::new(cfg.clone(), capped(0.02), capped(0.02), seed);
        let d = data(300_000);
        let out = transfer(&mut net, &d, Duration::from_secs(600));
        assert!(
            out.complete && out.received == d,
            "seed {seed}: {:?}",
            out.client
        );
        let size = out.client.packet_size;
        // The search stops within 16 bytes of the largest size that crosses; a random
        // loss of a probe that would have crossed can stop it lower, never higher.
        assert!(size <= 1000, "seed {seed}: packets of {size} bytes");
        if seed < 5 {
            eprintln!(
                "seed {seed}: packet size {size}, {} probes, {} retransmissions",
                out.client.mtu_probes, out.client.retransmissions
            );
        }
    }
    // Without random loss, from 548 up to the 1400-byte packet size: 1400 lost, then the
    // midpoints 974 (passes), 1187, 1080, 1027 (lost), 1000 (passes), 1013 (lost); [1000,
    // 1012] is narrower than 16 bytes: 7 probes, packets of exactly the link's limit.
    let mut net = Net::new(cfg, capped(0.0), capped(0.0), 7);
    let out = transfer(&mut net, &data(300_000), Duration::from_secs(600));
    assert!(out.complete);
    assert_eq!((out.client.packet_size, out.client.mtu_probes), (1000, 7));
    // A lost probe is not congestion: no fast-loss count, the window is not cut for it.
    assert_eq!(out.client.fast_losses, 0, "{:?}", out.client);
}

#[test]
fn a_second_connection_to_the_same_peer_starts_from_what_the_first_learned() {
    let cfg = EndpointConfig::default().connection(ConnectionConfig::default().mtu_probe(true));
    let mut net = Net::new(cfg, capped(0.0), capped(0.0), 3);
    let first = transfer(&mut net, &data(200_000), Duration::from_secs(600));
    assert_eq!(first.client.packet_size, 1000);
    let second = transfer(&mut net, &data(200_000), Duration::from_secs(600));
    assert!(second.complete && second.received == data(200_000));
    assert_eq!(second.client.packet_size, 1000);
    // [1000, 1012] is already narrower than the search's 16-byte step: no probe at all.
    assert_eq!(second.client.mtu_probes, 0);
}
