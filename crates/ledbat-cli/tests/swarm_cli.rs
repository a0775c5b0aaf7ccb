//! `ledbat torrent run` as a swarm member, end to end through the binary over loopback:
//! several processes find each other through an HTTP tracker (a small one written here,
//! answering BEP 23 compact lists), exchange pieces over uTP and TCP per their
//! dispositions, and serve while they download; resume, a tracker that is down or answers
//! garbage, and data that does not match.

mod common;
use common::{s, tmpdir, Kid, BIN};

use std::io::{BufRead, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};

fn payload(path: &Path, len: usize) -> Vec<u8> {
    let mut x: u32 = 0x9e37_79b9;
    let data: Vec<u8> = (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    std::fs::write(path, &data).unwrap();
    data
}

/// How the test tracker answers.
#[derive(Clone, Copy, PartialEq)]
enum Answer {
    /// Every other announced peer, compact, re-announce after 2 s.
    Peers,
    /// An HTML page with status 200.
    Garbage,
}

/// A tracker on 127.0.0.1 (a thread): remembers the port of every announce and answers
/// with the others as a compact list. Returns its URL and the announces seen (query
/// strings).
fn tracker(answer: Answer) -> (String, Arc<Mutex<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/announce", l.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        let mut ports: Vec<u16> = Vec::new();
        for c in l.incoming() {
            let Ok(mut c) = c else { continue };
            let mut buf = [0u8; 4096];
            let n = c.read(&mut buf).unwrap_or(0);
            let req = String::from_utf8_lossy(&buf[..n]).into_owned();
            let query = req
                .split_whitespace()
                .nth(1)
                .and_then(|t| t.split_once('?'))
                .map(|(_, q)| q.to_owned())
                .unwrap_or_default();
            log.lock().unwrap().push(query.clone());
            let port: u16 = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("port="))
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            let body: Vec<u8> = match answer {
                Answer::Garbage => b"<html>nope</html>".to_vec(),
                Answer::Peers => {
                    let mut peers = Vec::new();
                    for &p in ports.iter().filter(|&&p| p != port) {
                        peers.extend_from_slice(&[127, 0, 0, 1]);
                        peers.extend_from_slice(&p.to_be_bytes());
                    }
                    if !ports.contains(&port) && !query.contains("event=stopped") {
                        ports.push(port);
                    }
                    let mut b = format!("d8:intervali2e5:peers{}:", peers.len()).into_bytes();
                    b.extend_from_slice(&peers);
                    b.push(b'e');
                    b
                }
            };
            let _ = c.write_all(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n");
            let _ = c.write_all(&body);
        }
    });
    (url, seen)
}

fn create(src: &Path, torrent: &Path, announce: Option<&str>) {
    let mut args = vec![
        "torrent",
        "create",
        s(src),
        "-o",
        s(torrent),
        "--piece-kib",
        "64",
    ];
    if let Some(u) = announce {
        args.extend(["--announce", u]);
    }
    let o = Command::new(BIN).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A fresh directory (`tag`) with a seed's data `seed/f.bin` of `len` random bytes and its
/// torrent `f.torrent` (announcing to `announce`): the directory, the seed's directory, the
/// data and the torrent's path.
fn seeded(
    tag: &str,
    len: usize,
    announce: Option<&str>,
) -> (common::TempDir, PathBuf, Vec<u8>, PathBuf) {
    let d = tmpdir("swarm", tag);
    let seed_dir = d.path().join("seed");
    std::fs::create_dir_all(&seed_dir).unwrap();
    let data = payload(&seed_dir.join("f.bin"), len);
    let torrent = d.path().join("f.torrent");
    create(&seed_dir.join("f.bin"), &torrent, announce);
    (d, seed_dir, data, torrent)
}

fn run(torrent: &Path, data: &Path, extra: &[&str]) -> Child {
    Command::new(BIN)
        .args([
            "torrent",
            "run",
            s(torrent),
            "--data",
            s(data),
            "--listen",
            "127.0.0.1:0",
        ])
        .args(["--json", "--quiet"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Where a `torrent run` started with `--listen 127.0.0.1:0`, not `--quiet` and stderr piped
/// listens, from its "listening on" line; a thread reads the rest of its stderr (a full pipe
/// would stall it). If the peer exits first, the failure shows what it printed.
fn listening(child: &mut Child) -> String {
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut before = String::new();
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Some(rest) = line.strip_prefix("listening on ") {
                let addr = rest.split_whitespace().next().unwrap_or("").to_owned();
                let _ = tx.send(Ok(addr));
                before.clear();
            } else if before.len() < 4096 {
                before.push_str(&line);
                before.push('\n');
            }
        }
        let _ = tx.send(Err(before));
    });
    match rx.recv_timeout(std::time::Duration::from_secs(20)) {
        Ok(Ok(addr)) => addr,
        Ok(Err(printed)) => panic!("the peer exited before saying where it listens:\n{printed}"),
        Err(e) => panic!("the peer did not say where it listens: {e}"),
    }
}

/// A seed of `seed_dir` accepting TCP only (disposition 12: accepts both, dials nothing) on
/// a loopback port it picks itself; returns it and the address it reports on stderr. (A
/// port found free here and passed on could be taken by another test before the seed binds
/// it.)
fn tcp_seed(torrent: &Path, seed_dir: &Path, extra: &[&str]) -> (Kid, String) {
    let child = Command::new(BIN)
        .args([
            "torrent",
            "run",
            s(torrent),
            "--data",
            s(seed_dir),
            "--listen",
            "127.0.0.1:0",
        ])
        .args(["--disposition", "12", "--max-seconds", "60"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Owned first, so that the seed is killed if it never says where it listens.
    let mut kid = Kid(child);
    let listen = listening(&mut kid.0);
    (kid, listen)
}

/// A leecher dialling `seed` over TCP only (disposition 1), leaving `seed_seconds` after
/// it completes.
fn tcp_leech(torrent: &Path, out: &Path, seed: &str, seed_seconds: u32) -> Child {
    let stay = seed_seconds.to_string();
    run(
        torrent,
        out,
        &[
            "--peer",
            seed,
            "--disposition",
            "1",
            "--seed-seconds",
            &stay,
            "--max-seconds",
            "60",
        ],
    )
}

fn finish(c: Child) -> (Output, serde_json::Value) {
    let o = c.wait_with_output().unwrap();
    let j = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    (o, j)
}

/// One seed and three leechers of dispositions 14, 13 and 5 meet through the tracker. The
/// seed serves one peer at a time (one slot, no optimistic), so the others must get most
/// pieces from leechers: every leecher completes byte-exact, leechers upload to each
/// other, uTP carries the 13/14 pairs (uTP preferred), TCP what involves the 5.
/// A seed with one upload slot and three leechers (dispositions 14, 13, 5) meet through the
/// tracker: every leecher completes, the leechers upload to each other (pieces are traded,
/// not only taken from the seed), the 5 downloads nothing over uTP, and the 14 and the 13
/// keep a uTP connection between them (a connection: on loopback the 14 may have every piece
/// before it), and every peer announces.
#[test]
fn four_peers_trade_pieces_and_connect_as_their_dispositions_say() {
    let d = tmpdir("swarm", "four");
    let seed_dir = d.path().join("seed");
    std::fs::create_dir_all(&seed_dir).unwrap();
    let data = payload(&seed_dir.join("f.bin"), 3_000_000);
    let (url, seen) = tracker(Answer::Peers);
    let torrent = d.path().join("f.torrent");
    create(&seed_dir.join("f.bin"), &torrent, Some(&url));

    let seed = Kid(run(
        &torrent,
        &seed_dir,
        &[
            "--unchoke-slots",
            "1",
            "--optimistic-slots",
            "0",
            "--max-seconds",
            "60",
        ],
    ));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let disps = ["14", "13", "5"];
    let leechers: Vec<Child> = disps
        .iter()
        .enumerate()
        .map(|(i, disp)| {
            let dir = d.path().join(format!("l{i}"));
            run(
                &torrent,
                &dir,
                &[
                    "--disposition",
                    disp,
                    "--seed-seconds",
                    "4",
                    "--max-seconds",
                    "60",
                ],
            )
        })
        .collect();
    let results: Vec<(Output, serde_json::Value)> = leechers.into_iter().map(finish).collect();
    drop(seed);
    let mut leecher_upload = 0;
    for (i, (o, j)) in results.iter().enumerate() {
        assert!(
            o.status.success(),
            "leecher {i}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(j["complete"], true, "{j}");
        assert_eq!(
            std::fs::read(d.path().join(format!("l{i}")).join("f.bin")).unwrap(),
            data
        );
        assert!(!d.path().join(format!("l{i}")).join("f.bin.part").exists());
        leecher_upload += j["counters"]["uploaded"].as_u64().unwrap();
        assert!(j["tracker"]["ok"].as_u64().unwrap() >= 1, "{j}");
    }
    assert!(leecher_upload > 0, "leechers served each other");
    // Dispositions: the 5 speaks TCP only; the 14 and the 13 end on uTP between them. (Not
    // that pieces flowed over that connection: on loopback the 14 may have every piece from
    // the seed and the 5 over TCP within 30 ms, before the uTP handshake with the 13.)
    let (_, j5) = &results[2];
    assert_eq!(j5["counters"]["utp"]["downloaded"], 0, "{j5}");
    // Either end's report attests it: the end that sees the connection fail when the other
    // leaves (a reset rather than a clean close) reports an error without the peer's id.
    let (j14, j13) = (&results[0].1, &results[1].1);
    let utp_with = |j: &serde_json::Value, id: &serde_json::Value| {
        j["peers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["transport"] == "utp" && &p["summary"]["peer_id"] == id)
    };
    assert!(
        utp_with(j14, &j13["peer_id"]) || utp_with(j13, &j14["peer_id"]),
        "no uTP connection between the 14 and the 13: {j14} {j13}"
    );
    // Each announced started, then completed or stopped.
    let q = seen.lock().unwrap();
    assert!(
        q.iter().filter(|a| a.contains("event=started")).count() >= 4,
        "{q:?}"
    );
    assert!(q.iter().any(|a| a.contains("event=completed")), "{q:?}");
    assert!(q.iter().all(|a| a.contains("compact=1")));
}

/// Table 6.1, case 1, without a tracker: a 13 (dials TCP, accepts both) connects to a 31
/// seed over TCP; the seed learns its listening port from the extended handshake (BEP 10),
/// dials it back over uTP, and the uTP connection is the one kept.
#[test]
fn a_peer_that_dialled_in_over_tcp_is_dialled_back_over_utp() {
    let (d, seed_dir, data, torrent) = seeded("dialback", 4_000_000, None);
    let mut seed = Command::new(BIN)
        .args([
            "torrent",
            "run",
            s(&torrent),
            "--data",
            s(&seed_dir),
            "--listen",
            "127.0.0.1:0",
        ])
        .args(["--no-tracker", "--json", "--max-seconds", "8"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let seed_at = listening(&mut seed);
    let out = d.path().join("out");
    let (o, j) = finish(
        Command::new(BIN)
            .args([
                "torrent",
                "run",
                s(&torrent),
                "--data",
                s(&out),
                "--listen",
                "127.0.0.1:0",
            ])
            .args([
                "--peer",
                &seed_at,
                "--disposition",
                "13",
                "--no-tracker",
                "--json",
            ])
            .args(["--quiet", "--seed-seconds", "1", "--max-seconds", "30"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(out.join("f.bin")).unwrap(), data);
    assert!(
        j["counters"]["utp"]["downloaded"].as_u64().unwrap() > 0,
        "{j}"
    );
    let leech_at = j["listen"].as_str().unwrap();
    let (_, sj) = finish(seed);
    let back = sj["peers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["outgoing"] == true && p["transport"] == "utp" && p["addr"] == leech_at);
    assert!(back.is_some(), "the seed dialled back over uTP: {sj}");
}

/// A `.part` holding some good pieces is re-checked and only the rest is downloaded.
#[test]
fn a_partial_download_resumes_after_a_recheck() {
    let (d, seed_dir, data, torrent) = seeded("resume", 1_000_000, None);
    // The first 10 pieces of 64 KiB are there, one of them corrupted.
    let out = d.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut part = data[..10 * 65536].to_vec();
    part[3 * 65536 + 5] ^= 0xff;
    std::fs::write(out.join("f.bin.part"), &part).unwrap();

    let (_seed, listen) = tcp_seed(&torrent, &seed_dir, &[]);
    let (o, j) = finish(tcp_leech(&torrent, &out, &listen, 0));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(out.join("f.bin")).unwrap(), data);
    // 16 pieces (the last short) minus the 9 good ones.
    let want = (data.len() - 9 * 65536) as u64;
    assert_eq!(j["counters"]["downloaded"], want, "{j}");
    assert_eq!(j["counters"]["tcp"]["downloaded"], want, "{j}");
}

/// A peer that closes our first connection before its handshake (a busy peer: its cap on
/// connections waiting for a handshake) is dialled again a second later, not a minute: the
/// seed is reached through a proxy that closes the first connection it accepts.
#[test]
fn a_peer_that_closed_before_the_handshake_is_dialled_again_soon() {
    let (d, seed_dir, data, torrent) = seeded("early-close", 1_000_000, None);
    let (_seed, listen) = tcp_seed(&torrent, &seed_dir, &[]);
    let proxy = TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy_at = proxy.local_addr().unwrap().to_string();
    let accepted = Arc::new(Mutex::new(0));
    let count = accepted.clone();
    std::thread::spawn(move || {
        for (i, c) in proxy.incoming().enumerate() {
            let Ok(c) = c else { return };
            *count.lock().unwrap() += 1;
            if i == 0 {
                continue; // closed at once: the leecher reads the end before a handshake
            }
            let Ok(up) = std::net::TcpStream::connect(&listen) else {
                return;
            };
            for (mut from, mut to) in [(c.try_clone().unwrap(), up.try_clone().unwrap()), (up, c)] {
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from, &mut to);
                    let _ = to.shutdown(std::net::Shutdown::Write);
                });
            }
        }
    });
    let out = d.path().join("out");
    let leech = run(
        &torrent,
        &out,
        &[
            "--peer",
            &proxy_at,
            "--disposition",
            "1",
            "--seed-seconds",
            "0",
            "--max-seconds",
            "20",
        ],
    );
    let (o, j) = finish(leech);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(j["complete"], true, "{j}");
    assert_eq!(std::fs::read(out.join("f.bin")).unwrap(), data);
    assert!(*accepted.lock().unwrap() >= 2);
    // Complete well before a minute's redial (the first retry is due after a second).
    assert!(j["completed_after"].as_f64().unwrap() < 10.0, "{j}");
}

/// A tracker that is down, or answers garbage, is reported and retried; the download
/// still completes from a peer given by hand.
#[test]
fn a_tracker_down_or_answering_garbage_does_not_stop_the_download() {
    for (tag, answer) in [("down", None), ("garbage", Some(Answer::Garbage))] {
        let d = tmpdir("swarm", tag);
        let seed_dir = d.path().join("seed");
        std::fs::create_dir_all(&seed_dir).unwrap();
        let data = payload(&seed_dir.join("f.bin"), 200_000);
        let url = match answer {
            Some(a) => tracker(a).0,
            None => {
                let p = TcpListener::bind("127.0.0.1:0")
                    .unwrap()
                    .local_addr()
                    .unwrap()
                    .port();
                format!("http://127.0.0.1:{p}/announce")
            }
        };
        let torrent = d.path().join("f.torrent");
        create(&seed_dir.join("f.bin"), &torrent, Some(&url));
        let (_seed, listen) = tcp_seed(&torrent, &seed_dir, &["--no-tracker"]);
        let out = d.path().join("out");
        // Stays a little after completing: on loopback the download can be over before
        // the failed announce comes back.
        let (o, j) = finish(tcp_leech(&torrent, &out, &listen, 2));
        assert!(
            o.status.success(),
            "{tag}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(std::fs::read(out.join("f.bin")).unwrap(), data);
        assert!(j["tracker"]["failed"].as_u64().unwrap() >= 1, "{tag}: {j}");
        let err = j["tracker"]["last_error"].as_str().unwrap();
        let want = if answer.is_some() {
            "not bencode"
        } else {
            "refused"
        };
        assert!(err.contains(want), "{tag}: {err}");
    }
}

/// Data under the final name that does not match the torrent is neither seeded nor
/// overwritten.
#[test]
fn data_that_does_not_match_is_refused_and_left_alone() {
    let d = tmpdir("swarm", "mismatch");
    let src = d.path().join("f.bin");
    payload(&src, 300_000);
    let torrent = d.path().join("f.torrent");
    create(&src, &torrent, None);
    let other = d.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    let wrong = vec![7u8; 300_000];
    std::fs::write(other.join("f.bin"), &wrong).unwrap();
    let (o, _) = finish(run(
        &torrent,
        &other,
        &["--no-tracker", "--max-seconds", "5"],
    ));
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("only 0 of 5 pieces match"), "{err}");
    assert_eq!(std::fs::read(other.join("f.bin")).unwrap(), wrong);
    assert!(!other.join("f.bin.part").exists());
}

/// A disk that fills up: the download stops with an error naming the cause, nothing
/// appears under the final name, the `.part` with the verified pieces stays. Needs root
/// (a small tmpfs mounted in a private mount namespace with `unshare -m`); skipped
/// otherwise.
#[test]
fn a_full_disk_stops_the_download_and_keeps_the_part() {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n");
    let unshare = Command::new("unshare").arg("--version").output().is_ok();
    if !matches!(root, Ok(true)) || !unshare {
        eprintln!("skipped: needs root and unshare(1)");
        return;
    }
    let (d, seed_dir, _, torrent) = seeded("full", 2_000_000, None);
    let (_seed, listen) = tcp_seed(&torrent, &seed_dir, &[]);
    let out = d.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    // In a private mount namespace: a 1 MiB tmpfs on `out`, the download into it, then a
    // listing of what is left there (the mount disappears with the namespace).
    let script = format!(
        "mount -t tmpfs -o size=1m tmpfs {out} && {bin} torrent run {t} --data {out} --peer {listen} \
         --disposition 1 --seed-seconds 0 --max-seconds 60 >/dev/null; echo \"exit=$?\"; ls {out}",
        out = s(&out),
        bin = BIN,
        t = s(&torrent),
    );
    let o = Command::new("unshare")
        .args(["-m", "sh", "-c", &script])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stdout.contains("exit=1"), "{stdout}\n{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(
        stderr.contains("incomplete") && stderr.contains("kept in"),
        "{stderr}"
    );
    let left: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("exit=")).collect();
    assert_eq!(left, ["f.bin.part"], "{stdout}");
}
