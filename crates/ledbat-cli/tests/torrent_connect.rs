//! `ledbat torrent get` connecting to peers over uTP: a refusal is shown at once, a silent
//! peer fails after `--connect-timeout`, not after the SYN retries' 31 s.

mod common;

use std::net::UdpSocket;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{s, tmpdir, TempDir, BIN};

/// A directory holding a one-piece torrent of 50 kB.
fn torrent(tag: &str) -> (TempDir, PathBuf) {
    let d = tmpdir("torrent-connect", tag);
    let src = d.path().join("x.bin");
    std::fs::write(&src, vec![7u8; 50_000]).unwrap();
    let t = d.path().join("x.torrent");
    let o = Command::new(BIN)
        .args(["torrent", "create", s(&src), "-o", s(&t)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    (d, t)
}

/// `torrent get` from `peer` over uTP with `--connect-timeout secs`: time taken, exit code,
/// stderr.
fn get(dir: &TempDir, t: &Path, peer: std::net::SocketAddr, secs: &str) -> (Duration, i32, String) {
    let t0 = Instant::now();
    let o = Command::new(BIN)
        .args(["torrent", "get", s(t), "--peer", &peer.to_string(), "--out"])
        .arg(dir.path().join("out"))
        .args([
            "--bind",
            "127.0.0.1:0",
            &format!("--connect-timeout={secs}"),
        ])
        .output()
        .unwrap();
    (
        t0.elapsed(),
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn a_refusing_peer_is_reported_at_once_and_retried_until_the_timeout() {
    let (dir, t) = torrent("refused");
    // Bound, then closed: the kernel answers ICMP port unreachable.
    let to = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let (took, code, err) = get(&dir, &t, to, "2");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "peer {to}: cannot connect to utp {to}: connection refused"
        )),
        "the first refusal is shown: {err}"
    );
    assert!(err.contains("gave up after"), "{err}");
    assert!(
        took >= Duration::from_millis(1500) && took < Duration::from_secs(6),
        "retried until --connect-timeout 2: {took:?}"
    );
    assert!(!dir.path().join("out").join("x.bin").exists());
}

#[test]
fn a_silent_peer_fails_after_the_connect_timeout_not_the_syn_retries() {
    let (dir, t) = torrent("silent");
    // Bound and kept open but never read: SYNs vanish without an answer.
    let silent = UdpSocket::bind("127.0.0.1:0").unwrap();
    let to = silent.local_addr().unwrap();
    let (took, code, err) = get(&dir, &t, to, "1.5");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("no answer") && err.contains(&to.to_string()),
        "{err}"
    );
    assert!(
        took >= Duration::from_millis(1400) && took < Duration::from_secs(6),
        "{took:?} (the SYN retries alone take 31 s)"
    );
}

#[test]
fn a_connect_timeout_that_is_not_a_positive_number_is_refused() {
    let (dir, t) = torrent("bad");
    for bad in ["0", "-3", "never"] {
        let (_, code, err) = get(&dir, &t, "127.0.0.1:9".parse().unwrap(), bad);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("not a positive number of seconds"), "{err}");
    }
}
