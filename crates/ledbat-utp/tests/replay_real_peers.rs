//! Captures of real peers (libtorrent 2.1.1, qBittorrent 4.5.2, Transmission 3.00; the
//! first ten datagrams each sent our client in an interop case, taken by `fuzz/seeds.py`)
//! replayed against our endpoint: rebased onto our connection id and sequence numbers,
//! each drives our state machine through the real handshake, and what it reads is the
//! peer's BitTorrent handshake. These are the `endpoint` fuzz target's seeds in small.

use ledbat_utp::replay::replay;

fn check(name: &str, input: &[u8]) {
    let out = replay(input);
    assert!(out.peer0_established, "{name}: never established");
    assert!(
        out.read_from_peer0.starts_with(b"\x13BitTorrent protocol"),
        "{name}: read {:?}",
        &out.read_from_peer0[..out.read_from_peer0.len().min(24)]
    );
}

#[test]
fn libtorrent_dialling_us_replays_to_its_bittorrent_handshake() {
    check("ours-to-lt", include_bytes!("data/replay-ours-to-lt.bin"));
}

#[test]
fn libtorrent_answering_our_dial_replays_to_its_bittorrent_handshake() {
    check("lt-to-ours", include_bytes!("data/replay-lt-to-ours.bin"));
}

#[test]
fn qbittorrent_both_ways_replays_to_its_bittorrent_handshake() {
    check("ours-to-qbt", include_bytes!("data/replay-ours-to-qbt.bin"));
    check("qbt-to-ours", include_bytes!("data/replay-qbt-to-ours.bin"));
}

#[test]
fn transmission_both_ways_replays_to_its_bittorrent_handshake() {
    check("ours-to-tr", include_bytes!("data/replay-ours-to-tr.bin"));
    check("tr-to-ours", include_bytes!("data/replay-tr-to-ours.bin"));
}
