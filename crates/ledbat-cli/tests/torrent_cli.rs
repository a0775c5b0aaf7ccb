//! `ledbat torrent` end to end through the binary, over loopback TCP (the BitTorrent layer;
//! the uTP runs are in `interop/`).

mod common;
use common::{s, tmpdir, Kid, BIN};

use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ledbat(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn payload(path: &Path, len: usize) -> Vec<u8> {
    let data: Vec<u8> = (0..len).map(|i| (i * 31 + i / 7) as u8).collect();
    std::fs::write(path, &data).unwrap();
    data
}

/// Seeds `src` over `transport` and downloads it with a second process; returns the
/// downloader's JSON summary and its `--trace` file's lines.
fn round_trip(
    tag: &str,
    transport: &str,
    len: usize,
) -> (serde_json::Value, Vec<serde_json::Value>) {
    let d = tmpdir("torrent", tag);
    let src = d.path().join("data.bin");
    let data = payload(&src, len);
    let torrent = d.path().join("data.torrent");
    let o = ledbat(&[
        "torrent",
        "create",
        s(&src),
        "-o",
        s(&torrent),
        "--piece-kib",
        "64",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pieces = len.div_ceil(65536);
    let line = String::from_utf8_lossy(&o.stdout);
    assert!(
        line.contains(&format!("{pieces} pieces of 64 KiB")),
        "{line}"
    );
    let port = match transport {
        "tcp" => free_port(),
        _ => std::net::UdpSocket::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port(),
    };
    let listen = format!("127.0.0.1:{port}");
    let _seed = Kid(Command::new(BIN)
        .args([
            "torrent",
            "seed",
            s(&torrent),
            "--data",
            s(&src),
            "--listen",
            &listen,
        ])
        .args(["--transport", transport, "--quiet", "--max-seconds", "60"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap());
    let out = d.path().join("out");
    let trace = d.path().join("get-trace.jsonl");
    let o = ledbat(&[
        "torrent",
        "get",
        s(&torrent),
        "--peer",
        &listen,
        "--out",
        s(&out),
        "--transport",
        transport,
        "--json",
        "--quiet",
        "--timeout",
        "60",
        "--trace",
        s(&trace),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(out.join("data.bin")).unwrap(), data);
    assert!(!out.join("data.bin.part").exists());
    let lines = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (serde_json::from_slice(&o.stdout).unwrap(), lines)
}

#[test]
fn create_seed_get_round_trip_over_tcp() {
    let (j, trace) = round_trip("tcp", "tcp", 3_000_000);
    assert_eq!(j["transport"], "tcp");
    assert!(trace.is_empty(), "no uTP connection, nothing to trace");
    assert_eq!(j["complete"], true);
    assert_eq!(j["counters"]["pieces_verified"], 46);
    assert!(j["peers"][0]["utp"].is_null());
}

#[test]
fn create_seed_get_round_trip_over_utp() {
    let (j, trace) = round_trip("utp", "utp", 2_000_000);
    assert_eq!(j["transport"], "utp");
    // The downloader's trace: one line per 100 ms of the connection, naming the peer.
    let first = trace.first().expect("at least one trace line");
    assert!(
        first["peer"].as_str().unwrap().starts_with("127.0.0.1:"),
        "{first}"
    );
    assert!(first["cwnd"].as_u64().unwrap() > 0, "{first}");
    // Its controller is scavenger, whose competitor detection counts its tests in every line.
    assert!(
        trace.iter().all(|l| l["competitor_tests"].is_u64()),
        "{first}"
    );
    let t: Vec<f64> = trace.iter().map(|l| l["t"].as_f64().unwrap()).collect();
    assert!(t.windows(2).all(|w| w[0] <= w[1]), "{t:?}");
    assert_eq!(j["counters"]["pieces_verified"], 31);
    let utp = &j["peers"][0]["utp"];
    assert!(
        utp["bytes_received"].as_u64().unwrap() >= 2_000_000,
        "{utp}"
    );
    // The transfer commands' default controller.
    assert_eq!(utp["controller"], "scavenger");
}

#[test]
fn get_that_cannot_finish_fails_and_keeps_only_the_part_for_resume() {
    let d = tmpdir("torrent", "fail");
    let src = d.path().join("x.bin");
    payload(&src, 100_000);
    let torrent = d.path().join("x.torrent");
    assert!(ledbat(&["torrent", "create", s(&src), "-o", s(&torrent)])
        .status
        .success());
    // Nobody listens on this port.
    let listen = format!("127.0.0.1:{}", free_port());
    let out = d.path().join("out");
    let t0 = Instant::now();
    let o = ledbat(&[
        "torrent",
        "get",
        s(&torrent),
        "--peer",
        &listen,
        "--out",
        s(&out),
        "--transport",
        "tcp",
        "--quiet",
        "--connect-timeout",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(t0.elapsed() < Duration::from_secs(10));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("incomplete: 0 of 1 pieces"), "{err}");
    assert!(
        err.contains("kept in") && err.contains("x.bin.part"),
        "{err}"
    );
    assert!(!out.join("x.bin").exists());
    assert!(out.join("x.bin.part").exists());
}

#[test]
fn seeding_the_wrong_data_is_refused() {
    let d = tmpdir("torrent", "wrong");
    let src = d.path().join("a.bin");
    payload(&src, 50_000);
    let torrent = d.path().join("a.torrent");
    assert!(ledbat(&["torrent", "create", s(&src), "-o", s(&torrent)])
        .status
        .success());
    std::fs::write(&src, vec![0u8; 50_000]).unwrap();
    let o = ledbat(&[
        "torrent",
        "seed",
        s(&torrent),
        "--data",
        s(&src),
        "--listen",
        "127.0.0.1:0",
        "--transport",
        "tcp",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no piece matches"));
}

#[test]
fn a_broken_torrent_file_is_named_in_the_error() {
    let d = tmpdir("torrent", "broken");
    let torrent = d.path().join("bad.torrent");
    std::fs::write(&torrent, b"d4:infod4:name1:xee").unwrap();
    let o = ledbat(&[
        "torrent",
        "get",
        s(&torrent),
        "--peer",
        "127.0.0.1:1",
        "--out",
        s(d.path()),
        "--transport",
        "tcp",
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.torrent") && err.contains("piece length"),
        "{err}"
    );
}

#[test]
fn unknown_controller_is_refused_before_anything_starts() {
    let d = tmpdir("torrent", "cc");
    let src = d.path().join("a.bin");
    payload(&src, 20_000);
    let torrent = d.path().join("a.torrent");
    assert!(ledbat(&["torrent", "create", s(&src), "-o", s(&torrent)])
        .status
        .success());
    let o = ledbat(&[
        "torrent",
        "seed",
        s(&torrent),
        "--data",
        s(&src),
        "--listen",
        "127.0.0.1:0",
        "--cc",
        "no-such-cc",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-cc"));
}
