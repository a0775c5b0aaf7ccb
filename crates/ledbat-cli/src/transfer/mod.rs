//! `ledbat send` and `ledbat recv`: one file over one uTP connection.
//!
//! The byte stream (see [`frame`]) is a header (magic, size, name), the
//! file, and its SHA-256; the receiver answers with one status byte after checking the
//! digest. The receiver writes to a temporary name next to the output and renames it only
//! when the file is complete and verified; on any failure it removes the temporary file
//! and exits non-zero, so nothing ever appears under the final name unverified.

pub mod frame;

use crate::support::outln;
use crate::support::{runtime, status_spinner, transfer_bar, TempPath};
use crate::utp_opts::{
    connection_config, positive_secs, signed_delay_ms, RledbatArgs, Tracer, DEFAULT_CC,
};
use anyhow::{bail, Context, Result};
use frame::{Header, Status, DIGEST_LEN};
use indicatif::ProgressBar;
use ledbat_utp::{
    ConnectionConfig, ConnectionStats, EndpointConfig, StatsHandle, UtpSocket, UtpStream,
};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Instant as WallClock;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Arguments of `ledbat send`.
#[derive(clap::Args, Debug)]
pub struct SendArgs {
    /// File to send.
    pub path: PathBuf,
    /// Receiver address (`host:port`).
    pub addr: SocketAddr,
    /// Congestion controller (`ledbat controllers` lists them).
    #[arg(long, default_value = DEFAULT_CC)]
    pub cc: String,
    /// Controller parameter `key=value` (repeatable), e.g. `--cc-param gain=0.5`.
    #[arg(long = "cc-param", value_name = "KEY=VALUE")]
    pub cc_params: Vec<String>,
    /// Queuing-delay target in milliseconds (shorthand for `--cc-param target=<N>ms`).
    #[arg(long)]
    pub target_ms: Option<u64>,
    /// uTP packet size in bytes, header included (150..=1472).
    #[arg(long, default_value_t = 1400)]
    pub packet_size: u16,
    /// Search the path MTU: packets start at 548 bytes and grow, through probes, up to
    /// --packet-size (for paths whose MTU is below the packet size and that send no ICMP).
    #[arg(long)]
    pub probe_mtu: bool,
    /// Local address to bind.
    #[arg(long, default_value = "0.0.0.0:0")]
    pub bind: SocketAddr,
    /// Print the final summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Give up when no byte is acknowledged for this many seconds.
    #[arg(long, default_value_t = 60)]
    pub idle_timeout: u64,
    /// Give up connecting after this many seconds without an answer (a refusal, reported
    /// by ICMP, fails at once).
    #[arg(long, default_value_t = 30.0, value_parser = positive_secs)]
    pub connect_timeout: f64,
    /// Append the connection's state (cwnd, queuing delay, RTT, counters) as one JSON line
    /// every 100 ms to this file.
    #[arg(long)]
    pub trace: Option<PathBuf>,
}

/// Arguments of `ledbat recv`.
#[derive(clap::Args, Debug)]
pub struct RecvArgs {
    /// Address to listen on (`host:port`).
    #[arg(long)]
    pub listen: SocketAddr,
    /// Where to write the file (created only once complete and verified).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace `--out` if it already exists.
    #[arg(long)]
    pub force: bool,
    /// Print the final summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Give up when no byte arrives for this many seconds (0: wait forever for the sender
    /// to connect, then apply 60 s).
    #[arg(long, default_value_t = 60)]
    pub idle_timeout: u64,
    /// Append the connection's state as one JSON line every 100 ms to this file.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub rledbat: RledbatArgs,
}

/// The final report of either side.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// `send` or `recv`.
    pub role: &'static str,
    /// File sent or written.
    pub file: String,
    /// The peer's address.
    pub peer: String,
    /// File bytes carried (framing excluded).
    pub payload_bytes: u64,
    /// Seconds from connection start to verified completion.
    pub duration_s: f64,
    /// Payload rate, Mbit/s.
    pub rate_mbit_s: f64,
    /// DATA/FIN packets sent again.
    pub retransmissions: u64,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    /// Whether the receiver verified the digest.
    pub verified: bool,
    /// The base (minimum) one-way delay the controller saw, ms: the peer's
    /// `timestamp_difference`, read as a signed 32-bit microsecond difference (uTP clocks
    /// wrap), so a peer whose clock is behind ours gives a negative figure, not
    /// 4 294 967 ms. The true one-way delay when both ends stamp with the same clock
    /// (ours and libutp use CLOCK_MONOTONIC: any two processes on one host); across hosts
    /// it includes their clock offset. `None` without samples.
    pub base_delay_ms: Option<f64>,
    /// This side's connection counters and final congestion-controller metrics.
    pub connection: ConnectionStats,
}

/// How long the closing exchange (verdict, FINs) may take once the file is settled.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

fn stats_message(s: &ConnectionStats) -> String {
    let qd = s
        .metrics
        .queuing_delay
        .map_or("-".to_string(), |d| format!("{:.1}ms", d.as_millis_f64()));
    let rtt = s
        .srtt
        .map_or("-".to_string(), |d| format!("{:.1}ms", d.as_millis_f64()));
    let rledbat = match (s.rledbat_window, s.rledbat_queuing_delay) {
        (Some(w), qd) => format!(
            "  rledbat {} KiB at {}",
            w / 1024,
            qd.map_or("-".to_string(), |d| format!("{:.1}ms", d.as_millis_f64()))
        ),
        _ => String::new(),
    };
    format!(
        "cwnd {} KiB  qdelay {qd}  rtt {rtt}  retx {}{rledbat}",
        s.cwnd / 1024,
        s.retransmissions
    )
}

/// Refreshes the progress bar's message every 100 ms and, with `--trace`, appends one JSON
/// line per tick.
fn spawn_stats_ticker(
    pb: ProgressBar,
    stats: StatsHandle,
    trace: Option<std::sync::Arc<Tracer>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(100));
        let mut refresh = true;
        loop {
            tick.tick().await;
            let Some(s) = stats.get() else { break };
            // The bar's message every other tick (200 ms) is enough for a human.
            if refresh {
                pb.set_message(stats_message(&s));
            }
            refresh = !refresh;
            if let Some(t) = trace.as_ref() {
                t.record(stats.elapsed(), None, &s);
            }
        }
    })
}

fn print_summary(s: &Summary, json: bool) -> Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(s)?);
    } else {
        let c = &s.connection;
        outln!(
            "{}: {} bytes in {:.3} s = {:.2} Mbit/s; {} retransmissions, {} timeouts; cwnd {} B; qdelay {}; base delay {}; sha256 {} {}",
            s.role,
            s.payload_bytes,
            s.duration_s,
            s.rate_mbit_s,
            c.retransmissions,
            c.timeouts,
            c.cwnd,
            c.metrics.queuing_delay.map_or("-".into(), |d| d.to_string()),
            s.base_delay_ms.map_or("-".into(), |d| format!("{d:.3}ms")),
            s.sha256,
            if s.verified { "verified" } else { "NOT verified" }
        );
    }
    Ok(())
}

/// `ledbat send PATH ADDR`.
pub fn run_send(a: SendArgs) -> Result<()> {
    let cfg =
        connection_config(&a.cc, &a.cc_params, a.target_ms, a.packet_size)?.mtu_probe(a.probe_mtu);
    runtime()?.block_on(send(a, cfg))
}

async fn send(a: SendArgs, cfg: ConnectionConfig) -> Result<()> {
    let mut file = tokio::fs::File::open(&a.path)
        .await
        .with_context(|| format!("opening {}", a.path.display()))?;
    let size = file
        .metadata()
        .await
        .with_context(|| format!("reading {}", a.path.display()))?
        .len();
    let name = a
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let idle = std::time::Duration::from_secs(a.idle_timeout.max(1));

    let sock = UtpSocket::bind(a.bind, EndpointConfig::default().connection(cfg))
        .await
        .with_context(|| format!("binding {}", a.bind))?;
    let start = WallClock::now();
    let wait = std::time::Duration::from_secs_f64(a.connect_timeout);
    let status = status_spinner(format!("connecting to {}", a.addr), a.quiet || a.json);
    let connected = tokio::time::timeout(wait, sock.connect(a.addr)).await;
    status.finish_and_clear();
    let stream = connected
        .map_err(|_| anyhow::anyhow!("connecting to {}: no answer within {wait:?}", a.addr))?
        .with_context(|| format!("connecting to {}", a.addr))?;
    let mut stream = stream;
    let pb = transfer_bar(Some(size), a.quiet || a.json);
    let ticker = spawn_stats_ticker(pb.clone(), stream.stats_handle(), Tracer::open(&a.trace)?);

    let result = async {
        let s = &mut stream;
        let header = Header {
            size,
            name: name.clone(),
        }
        .encode();
        s.write_all(&header).await.context("sending the header")?;
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; 256 * 1024];
        let mut sent = 0u64;
        while sent < size {
            let n = file
                .read(&mut buf)
                .await
                .with_context(|| format!("reading {}", a.path.display()))?;
            if n == 0 {
                bail!(
                    "{} shrank while being sent ({} of {} bytes)",
                    a.path.display(),
                    sent,
                    size
                );
            }
            let n = n.min((size - sent) as usize);
            hasher.update(&buf[..n]);
            tokio::time::timeout(idle, s.write_all(&buf[..n]))
                .await
                .map_err(|_| anyhow::anyhow!("no progress for {idle:?}"))?
                .context("sending")?;
            sent += n as u64;
            pb.set_position(sent);
        }
        let digest = hasher.finalize();
        s.write_all(&digest).await.context("sending the digest")?;
        tokio::time::timeout(idle * 4, s.shutdown())
            .await
            .map_err(|_| anyhow::anyhow!("the receiver did not acknowledge the end of the file"))?
            .context("finishing")?;
        let mut status = [0u8; 1];
        tokio::time::timeout(idle, s.read_exact(&mut status))
            .await
            .map_err(|_| anyhow::anyhow!("no verdict from the receiver within {idle:?}"))?
            .context("reading the receiver's verdict")?;
        let stats = s.stats().unwrap_or_default();
        let elapsed = start.elapsed().as_secs_f64();
        // The receiver closes after its verdict: take its FIN so that it is acknowledged
        // before we exit (bounded: the verdict is what matters).
        let mut rest = [0u8; 64];
        let _ = tokio::time::timeout(CLOSE_GRACE, async {
            while let Ok(n) = s.read(&mut rest).await {
                if n == 0 {
                    break;
                }
            }
        })
        .await;
        Ok::<_, anyhow::Error>((Status::from_byte(status[0]), hex(&digest), stats, elapsed))
    }
    .await;
    ticker.abort();
    pb.finish_and_clear();
    let (status, digest, stats, elapsed) = result?;
    let summary = Summary {
        role: "send",
        file: a.path.display().to_string(),
        peer: a.addr.to_string(),
        payload_bytes: size,
        duration_s: elapsed,
        rate_mbit_s: size as f64 * 8.0 / elapsed.max(1e-9) / 1e6,
        retransmissions: stats.retransmissions,
        sha256: digest,
        verified: status == Some(Status::Verified),
        base_delay_ms: stats.metrics.base_delay.map(signed_delay_ms),
        connection: stats,
    };
    print_summary(&summary, a.json)?;
    match status {
        Some(Status::Verified) => Ok(()),
        Some(s) => bail!("the receiver rejected the file: {s}"),
        None => bail!("the receiver sent an unknown verdict"),
    }
}

/// `ledbat recv --listen ADDR --out PATH`.
pub fn run_recv(a: RecvArgs) -> Result<()> {
    if a.out.exists() && !a.force {
        bail!(
            "{} already exists (pass --force to replace it)",
            a.out.display()
        );
    }
    if a.out.is_dir() {
        bail!("{} is a directory", a.out.display());
    }
    runtime()?.block_on(recv(a))
}

/// The receiver's connection settings: the default controller (the receiver sends only ACKs
/// and the final status byte; its controller is the default all the same, so that both ends
/// of a transfer report the same one), and rLEDBAT as `--rledbat` and `--rledbat-param` ask.
fn recv_config(a: &RecvArgs) -> Result<ConnectionConfig> {
    Ok(connection_config(
        DEFAULT_CC,
        &[],
        None,
        ConnectionConfig::default().packet_size,
    )?
    .rledbat(a.rledbat.config()?))
}

async fn recv(a: RecvArgs) -> Result<()> {
    let cfg = recv_config(&a)?;
    let sock = UtpSocket::bind(
        a.listen,
        EndpointConfig::default().connection(cfg).listen(true),
    )
    .await
    .with_context(|| format!("listening on {}", a.listen))?;
    if !a.quiet && !a.json {
        eprintln!("listening on {}", sock.local_addr());
    }
    let stream = if a.idle_timeout == 0 {
        sock.accept().await
    } else {
        let t = std::time::Duration::from_secs(a.idle_timeout);
        tokio::time::timeout(t, sock.accept())
            .await
            .map_err(|_| anyhow::anyhow!("no sender connected within {t:?}"))?
    }
    .context("accepting")?;
    let idle = std::time::Duration::from_secs(if a.idle_timeout == 0 {
        60
    } else {
        a.idle_timeout
    });
    let peer = stream.peer_addr();
    let start = WallClock::now();
    let mut stream = stream;
    let tmp = TempPath::beside(&a.out)?;
    let trace = Tracer::open(&a.trace)?;

    let outcome = receive_file(&mut stream, tmp.path(), idle, a.quiet || a.json, trace).await;
    let s = &mut stream;
    let (size, digest, status, err) = match outcome {
        Ok((size, digest, ok)) => (
            size,
            digest,
            if ok {
                Status::Verified
            } else {
                Status::DigestMismatch
            },
            None,
        ),
        Err(e) => (0, String::new(), Status::Failed, Some(e)),
    };
    let (status, err) = if status == Status::Verified {
        match tmp.persist(&a.out) {
            Ok(()) => (status, err),
            Err(e) => (Status::Failed, Some(e)),
        }
    } else {
        (status, err)
    };
    let elapsed = start.elapsed().as_secs_f64();
    // Tell the sender, close, and wait (bounded) for our FIN to be acknowledged.
    let _ = tokio::time::timeout(CLOSE_GRACE, async {
        s.write_all(&[status.byte()]).await?;
        s.shutdown().await
    })
    .await;
    let stats = s.stats().unwrap_or_default();
    if let Some(e) = err {
        return Err(e);
    }
    let summary = Summary {
        role: "recv",
        file: a.out.display().to_string(),
        peer: peer.to_string(),
        payload_bytes: size,
        duration_s: elapsed,
        rate_mbit_s: size as f64 * 8.0 / elapsed.max(1e-9) / 1e6,
        retransmissions: stats.retransmissions,
        sha256: digest,
        verified: status == Status::Verified,
        base_delay_ms: stats.metrics.base_delay.map(signed_delay_ms),
        connection: stats,
    };
    print_summary(&summary, a.json)?;
    if status != Status::Verified {
        bail!(
            "SHA-256 mismatch: the file was corrupted in transit; nothing written to {}",
            a.out.display()
        );
    }
    Ok(())
}

/// Reads header, file and digest into `tmp`; returns (size, hex digest, digest matches).
async fn receive_file(
    s: &mut UtpStream,
    tmp: &Path,
    idle: std::time::Duration,
    quiet: bool,
    trace: Option<std::sync::Arc<Tracer>>,
) -> Result<(u64, String, bool)> {
    let stall = || anyhow::anyhow!("no data for {idle:?}");
    let header = tokio::time::timeout(idle, Header::read(&mut *s))
        .await
        .map_err(|_| stall())??;
    let mut out = tokio::fs::File::create(tmp)
        .await
        .with_context(|| format!("creating {}", tmp.display()))?;
    let pb = transfer_bar(Some(header.size), quiet);
    let ticker = spawn_stats_ticker(pb.clone(), s.stats_handle(), trace);
    let result = async {
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; 256 * 1024];
        let mut got = 0u64;
        while got < header.size {
            let want = buf.len().min((header.size - got) as usize);
            let n = tokio::time::timeout(idle, s.read(&mut buf[..want]))
                .await
                .map_err(|_| stall())??;
            if n == 0 {
                bail!("the sender closed after {got} of {} bytes", header.size);
            }
            hasher.update(&buf[..n]);
            out.write_all(&buf[..n])
                .await
                .with_context(|| format!("writing {}", tmp.display()))?;
            got += n as u64;
            pb.set_position(got);
        }
        let mut theirs = [0u8; DIGEST_LEN];
        tokio::time::timeout(idle, s.read_exact(&mut theirs))
            .await
            .map_err(|_| stall())?
            .context("reading the digest")?;
        out.flush().await?;
        out.sync_all()
            .await
            .with_context(|| format!("syncing {}", tmp.display()))?;
        let ours = hasher.finalize();
        Ok((header.size, hex(&ours), ours[..] == theirs[..]))
    }
    .await;
    ticker.abort();
    pb.finish_and_clear();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recv_args(listen: SocketAddr, out: PathBuf) -> RecvArgs {
        RecvArgs {
            listen,
            out,
            force: false,
            json: true,
            quiet: true,
            idle_timeout: 10,
            trace: None,
            rledbat: RledbatArgs::default(),
        }
    }

    /// `send PATH ADDR` with the defaults, quiet, JSON summary, from loopback.
    fn send_args(path: PathBuf, addr: SocketAddr) -> SendArgs {
        SendArgs {
            path,
            addr,
            cc: "ledbat".into(),
            cc_params: vec![],
            target_ms: None,
            packet_size: 1400,
            probe_mtu: false,
            bind: "127.0.0.1:0".parse().unwrap(),
            json: true,
            quiet: true,
            idle_timeout: 10,
            connect_timeout: 30.0,
            trace: None,
        }
    }

    fn free_port() -> SocketAddr {
        let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        s.local_addr().unwrap()
    }

    /// A misbehaving sender: header, `body`, then `digest`, then reads the verdict.
    async fn raw_sender(
        addr: SocketAddr,
        size: u64,
        body: &[u8],
        digest: Option<[u8; 32]>,
    ) -> Option<u8> {
        let sock = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), EndpointConfig::default())
            .await
            .unwrap();
        let mut s = sock.connect(addr).await.unwrap();
        s.write_all(
            &Header {
                size,
                name: "x".into(),
            }
            .encode(),
        )
        .await
        .unwrap();
        s.write_all(body).await.unwrap();
        if let Some(d) = digest {
            s.write_all(&d).await.unwrap();
        }
        s.shutdown().await.unwrap();
        let mut v = [0u8; 1];
        match s.read_exact(&mut v).await {
            Ok(_) => Some(v[0]),
            Err(_) => None,
        }
    }

    async fn retry_sender(
        addr: SocketAddr,
        size: u64,
        body: &[u8],
        digest: Option<[u8; 32]>,
    ) -> Option<u8> {
        // The receiver binds asynchronously; give it a moment.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        raw_sender(addr, size, body, digest).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn good_transfer_lands_under_the_final_name() {
        let tmp = crate::tmpdir("transfer-good");
        let dir = tmp.path();
        let src = dir.join("src.bin");
        let data: Vec<u8> = (0..300_000u32).map(|i| (i * 31 % 256) as u8).collect();
        std::fs::write(&src, &data).unwrap();
        let addr = free_port();
        let out = dir.join("out.bin");
        let r = tokio::spawn(recv(recv_args(addr, out.clone())));
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        // With the path-MTU search: probes padded to other sizes than the data packets
        // around them, in GSO batches, over real sockets.
        let a = SendArgs {
            cc: "ledbat".into(),
            target_ms: Some(25),
            packet_size: 1000,
            probe_mtu: true,
            trace: Some(dir.join("trace.jsonl")),
            ..send_args(src, addr)
        };
        let cfg = connection_config(&a.cc, &a.cc_params, a.target_ms, a.packet_size)
            .unwrap()
            .mtu_probe(a.probe_mtu);
        send(a, cfg).await.unwrap();
        r.await.unwrap().unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), data);
        let trace = std::fs::read_to_string(dir.join("trace.jsonl")).unwrap();
        for line in trace.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(v["cwnd"].as_u64().unwrap() > 0, "{line}");
        }
        assert_eq!(
            std::fs::read_dir(dir).unwrap().count(),
            3,
            "src, out and trace: no temporary file left"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_receiver_with_rledbat_gets_the_file_exact() {
        let tmp = crate::tmpdir("transfer-rledbat");
        let dir = tmp.path();
        let src = dir.join("src.bin");
        let data: Vec<u8> = (0..2_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&src, &data).unwrap();
        let addr = free_port();
        let out = dir.join("out.bin");
        let mut ra = recv_args(addr, out.clone());
        // the options by --rledbat-param alone (it implies --rledbat), the trace on
        ra.rledbat.rledbat_params = ["slowdown_backoff=8", "competitor.enabled=true"]
            .map(String::from)
            .to_vec();
        ra.trace = Some(dir.join("recv.jsonl"));
        let r = tokio::spawn(recv(ra));
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let a = SendArgs {
            cc: "cubic".into(),
            ..send_args(src, addr)
        };
        let cfg = connection_config(&a.cc, &a.cc_params, a.target_ms, a.packet_size).unwrap();
        send(a, cfg).await.unwrap();
        r.await.unwrap().unwrap();
        assert!(std::fs::read(&out).unwrap() == data);
        let trace = std::fs::read_to_string(dir.join("recv.jsonl")).unwrap();
        let windows = trace
            .lines()
            .filter(|l| l.contains("\"rledbat_window\":"))
            .count();
        assert!(windows > 0, "the receiver's window is traced: {trace}");
    }

    #[test]
    fn the_receivers_rledbat_flags_reach_its_connection() {
        let mut a = recv_args("127.0.0.1:1".parse().unwrap(), PathBuf::from("x"));
        assert_eq!(recv_config(&a).unwrap().rledbat, None);
        a.rledbat.rledbat_params = ["slowdown_backoff=8", "window_validation=true"]
            .map(String::from)
            .to_vec();
        let r = recv_config(&a)
            .unwrap()
            .rledbat
            .expect("implied by a parameter");
        assert_eq!((r.slowdown_backoff, r.window_validation), (8, true));
        assert_eq!(r.target, ledbat_core::Duration::from_millis(60));
        a.rledbat.rledbat_params.push("competitor.share=3".into());
        let e = recv_config(&a).unwrap_err().to_string();
        assert!(e.contains("competitor.share"), "{e}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn digest_mismatch_fails_both_sides_and_writes_nothing() {
        let tmp = crate::tmpdir("transfer-bad");
        let dir = tmp.path();
        let addr = free_port();
        let out = dir.join("out.bin");
        let r = tokio::spawn(recv(recv_args(addr, out.clone())));
        let verdict = retry_sender(addr, 5, b"hello", Some([0u8; 32])).await;
        assert_eq!(verdict, Some(Status::DigestMismatch.byte()));
        let e = r.await.unwrap().unwrap_err();
        assert!(e.to_string().contains("mismatch"), "{e}");
        assert!(!out.exists());
        assert_eq!(
            std::fs::read_dir(dir).unwrap().count(),
            0,
            "temporary file removed"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn truncated_stream_fails_and_writes_nothing() {
        let tmp = crate::tmpdir("transfer-short");
        let dir = tmp.path();
        let addr = free_port();
        let out = dir.join("out.bin");
        let r = tokio::spawn(recv(recv_args(addr, out.clone())));
        let _ = retry_sender(addr, 1_000_000, &[1u8; 5000], None).await;
        let e = r.await.unwrap().unwrap_err();
        assert!(e.to_string().contains("closed after 5000"), "{e}");
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
    }

    #[test]
    fn the_transfer_commands_default_to_the_scavenger_preset() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            send: SendArgs,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(["send", "f", "127.0.0.1:1"]).unwrap();
        assert_eq!(cli.send.cc, "scavenger");
        let cfg = connection_config(&cli.send.cc, &[], None, 1400).unwrap();
        assert_eq!(cfg.controller.name(), "scavenger");
        // RFC 6817 LEDBAT stays one --cc away, with its own defaults.
        let cfg = connection_config("ledbat", &[], None, 1400).unwrap();
        assert_eq!(
            cfg.controller,
            ledbat_core::ControllerConfig::from_name("ledbat").unwrap()
        );
    }

    #[test]
    fn bad_controller_parameters_are_named() {
        let e = connection_config("ledbat", &["tagret=5ms".into()], None, 1400).unwrap_err();
        assert!(format!("{e:#}").contains("tagret"), "{e:#}");
        let e = connection_config("nope", &[], None, 1400).unwrap_err();
        assert!(format!("{e:#}").contains("nope"), "{e:#}");
        let e = connection_config("ledbat", &[], None, 9000).unwrap_err();
        assert!(format!("{e:#}").contains("packet_size"), "{e:#}");
    }
}
