//! `ledbat send` fails fast and clearly when nobody answers, and `ledbat recv` refuses a bad
//! rLEDBAT parameter before it listens: through the binary, over loopback only.

mod common;

use std::net::UdpSocket;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{tmpdir, TempDir, BIN};

/// A scratch directory holding `f.bin` of 10 kB, and that file's path.
fn file(tag: &str) -> (TempDir, std::path::PathBuf) {
    let d = tmpdir("send", tag);
    let p = d.path().join("f.bin");
    std::fs::write(&p, vec![7u8; 10_000]).unwrap();
    (d, p)
}

fn send(
    path: &std::path::Path,
    to: std::net::SocketAddr,
    extra: &[&str],
) -> (Duration, i32, String) {
    let t0 = Instant::now();
    let out = Command::new(BIN)
        .arg("send")
        .arg(path)
        .arg(to.to_string())
        .args(["--quiet"])
        .args(extra)
        .output()
        .unwrap();
    (
        t0.elapsed(),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn send_to_a_port_nobody_listens_on_is_refused_in_well_under_a_second() {
    let (_dir, path) = file("refused");
    // Bound, then closed: nothing listens, and the kernel answers ICMP port unreachable.
    let to = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let (took, code, err) = send(&path, to, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("refused") && err.contains(&to.to_string()),
        "{err}"
    );
    // Linux rate-limits ICMP replies per destination (icmp_ratelimit, 1 s): a report lost
    // to the limit is answered by the SYN's first retry, about 1 s later. Both are far
    // from the 31 s of SYN retries that the error used to take.
    assert!(took < Duration::from_millis(2500), "{took:?}");
}

#[test]
fn connect_timeout_bounds_the_wait_for_a_silent_peer_and_names_it() {
    let (_dir, path) = file("silent");
    // Bound and kept open but never read: datagrams vanish without an answer.
    let silent = UdpSocket::bind("127.0.0.1:0").unwrap();
    let to = silent.local_addr().unwrap();
    let (took, code, err) = send(&path, to, &["--connect-timeout", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&to.to_string()) && err.contains("no answer within 1s"),
        "{err}"
    );
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(5),
        "{took:?}"
    );
}

#[test]
fn a_connect_timeout_that_is_not_a_positive_number_is_refused() {
    let (_dir, path) = file("badtimeout");
    let to = "127.0.0.1:9".parse().unwrap();
    for bad in ["0", "-1", "soon", "inf"] {
        let (_, code, err) = send(&path, to, &[&format!("--connect-timeout={bad}")]);
        assert_eq!(code, 2, "clap's usage error for {bad}: {err}");
        assert!(err.contains("not a positive number of seconds"), "{err}");
    }
}

#[test]
fn recv_names_a_bad_rledbat_parameter_and_writes_nothing() {
    let dir = tmpdir("send", "recv-param");
    let out_path = dir.path().join("got");
    for (param, says) in [
        (
            "slowdown_backoff=0",
            "`slowdown_backoff=0`: a whole number from 1 (the draft) to 64",
        ),
        // the kernel receiver's own key
        ("signal=rtt", "no parameter `signal`"),
    ] {
        let t0 = Instant::now();
        let out = Command::new(BIN)
            .args(["recv", "--listen", "127.0.0.1:0", "--out"])
            .arg(&out_path)
            .args(["--rledbat-param", param])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{param}: {err}");
        assert!(err.contains(says), "{param}: {err}");
        // refused before it listens: no wait for a sender
        assert!(t0.elapsed() < Duration::from_secs(10), "{param}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
