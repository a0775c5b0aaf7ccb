//! Loopback throughput of one uTP connection without a bottleneck, and CPU cost.
//!
//! `cargo bench -p ledbat-utp --bench loopback` sends `LEDBAT_BENCH_MB` MiB (default 1024)
//! from one `UtpSocket` to another over 127.0.0.1, both in this process, and prints:
//!
//! - throughput: payload bits over wall time from `connect` to the sender's FIN being
//!   acknowledged (every byte delivered and acknowledged);
//! - CPU seconds per GB (10^9 payload bytes): user + system CPU time of the whole process
//!   (sender *and* receiver, both directions of syscalls) over the same interval, read
//!   from /proc/self/stat, divided by the gigabytes carried.
//!
//! Environment: `LEDBAT_BENCH_MB`, `LEDBAT_BENCH_CC` (controller, default `ledbat`),
//! `LEDBAT_BENCH_PACKET` (packet size, default 1400), `LEDBAT_BENCH_RUNS` (default 3),
//! `LEDBAT_BENCH_LAYOUT` (`shared`: both endpoints on one runtime; `split`: a thread and
//! current-thread runtime each, as two `ledbat` processes would run; default `both`),
//! `LEDBAT_BENCH_THREADS` (workers of the shared runtime, default 1),
//! `LEDBAT_BENCH_TRACE` (print the sender's state every 16 MiB).

use ledbat_core::ControllerConfig;
use ledbat_utp::{ConnectionConfig, EndpointConfig, UtpSocket};
use std::time::Instant as Wall;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn env_or<T: std::str::FromStr>(k: &str, d: T) -> T {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// Process CPU time (user + system) in seconds, from /proc/self/stat fields 14 and 15.
fn cpu_seconds(ticks_per_sec: f64) -> f64 {
    let s =
        std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat is readable (Linux)");
    // The command name (field 2) may contain spaces; fields are counted after its ')'.
    let rest = &s[s.rfind(')').expect("stat has a command field") + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f[11].parse().expect("utime");
    let stime: f64 = f[12].parse().expect("stime");
    (utime + stime) / ticks_per_sec
}

fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

fn current_thread() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// One transfer. With `split`, the receiver runs on its own thread and current-thread
/// runtime, as two `ledbat` processes would; otherwise both share `rt`.
fn one_run(
    rt: &tokio::runtime::Runtime,
    split: bool,
    bytes: u64,
    cfg: ConnectionConfig,
) -> (f64, ledbat_utp::ConnectionStats) {
    let scfg = EndpointConfig::default()
        .connection(cfg.clone())
        .listen(true);
    let (addr_tx, addr_rx) = tokio::sync::oneshot::channel();
    let receiver = async move {
        let server = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), scfg)
            .await
            .unwrap();
        addr_tx.send(server.local_addr()).unwrap();
        let mut s = server.accept().await.unwrap();
        let mut buf = vec![0u8; 256 * 1024];
        let mut got = 0u64;
        loop {
            let n = s.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            got += n as u64;
        }
        s.shutdown().await.unwrap();
        got
    };
    let (srv_thread, srv_task) = if split {
        (
            Some(std::thread::spawn(move || {
                current_thread().block_on(receiver)
            })),
            None,
        )
    } else {
        (None, Some(rt.spawn(receiver)))
    };
    let (wall, stats) = rt.block_on(async move {
        let addr = addr_rx.await.unwrap();
        let client = UtpSocket::bind(
            "127.0.0.1:0".parse().unwrap(),
            EndpointConfig::default().connection(cfg),
        )
        .await
        .unwrap();
        let chunk = vec![0x5au8; 256 * 1024];
        let start = Wall::now();
        let mut c = client.connect(addr).await.unwrap();
        let mut sent = 0u64;
        while sent < bytes {
            let n = chunk.len().min((bytes - sent) as usize);
            c.write_all(&chunk[..n]).await.unwrap();
            sent += n as u64;
            if std::env::var_os("LEDBAT_BENCH_TRACE").is_some() && (sent & ((16 << 20) - 1)) == 0 {
                let s = c.stats().unwrap();
                eprintln!(
                    "{:>8} MiB cwnd {} in_flight {} peer_wnd {} srtt {:?} qd {:?} losses {}",
                    sent >> 20,
                    s.cwnd,
                    s.in_flight,
                    s.peer_window,
                    s.srtt,
                    s.metrics.queuing_delay,
                    s.fast_losses
                );
            }
        }
        c.shutdown().await.unwrap();
        let wall = start.elapsed().as_secs_f64();
        let stats = c.stats().unwrap();
        // Take the receiver's FIN so that its shutdown completes.
        let mut rest = [0u8; 16];
        while c.read(&mut rest).await.unwrap() > 0 {}
        (wall, stats)
    });
    let got = match (srv_thread, srv_task) {
        (Some(t), _) => t.join().unwrap(),
        (_, Some(t)) => rt.block_on(t).unwrap(),
        _ => unreachable!(),
    };
    assert_eq!(got, bytes, "receiver got every byte");
    (wall, stats)
}

fn main() {
    let mb: u64 = env_or("LEDBAT_BENCH_MB", 1024);
    let runs: u32 = env_or("LEDBAT_BENCH_RUNS", 3);
    let cc: String = env_or("LEDBAT_BENCH_CC", "ledbat".to_string());
    let packet: u16 = env_or("LEDBAT_BENCH_PACKET", 1400);
    let bytes = mb * 1024 * 1024;
    let cfg = ConnectionConfig::default()
        .controller(ControllerConfig::from_name(&cc).expect("known controller"))
        .packet_size(packet);
    let layouts: Vec<bool> = match env_or("LEDBAT_BENCH_LAYOUT", "both".to_string()).as_str() {
        "shared" => vec![false],
        "split" => vec![true],
        _ => vec![false, true],
    };
    let threads: usize = env_or("LEDBAT_BENCH_THREADS", 1);
    let rt = if threads <= 1 {
        current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
            .unwrap()
    };
    let tck = clock_ticks();
    for split in layouts {
        let layout = if split {
            "split: sender and receiver on a thread and current-thread runtime each".to_string()
        } else {
            format!("shared: sender and receiver on one runtime of {threads} thread(s)")
        };
        println!("loopback uTP, 1 connection, {mb} MiB, controller {cc}, packet {packet} B, {runs} runs, {layout}");
        run_layout(&rt, split, runs, bytes, &cfg, tck);
    }
}

fn run_layout(
    rt: &tokio::runtime::Runtime,
    split: bool,
    runs: u32,
    bytes: u64,
    cfg: &ConnectionConfig,
    tck: f64,
) {
    for run in 1..=runs {
        let cpu0 = cpu_seconds(tck);
        let (wall, st) = one_run(rt, split, bytes, cfg.clone());
        let cpu = cpu_seconds(tck) - cpu0;
        let gbps = bytes as f64 * 8.0 / wall / 1e9;
        let cpu_per_gb = cpu / (bytes as f64 / 1e9);
        println!(
            "run {run}: {wall:.3} s, {gbps:.3} Gbit/s, CPU {cpu:.2} s = {cpu_per_gb:.2} CPU s/GB (sender+receiver); \
             {} datagrams out, {} in, retransmissions {}, timeouts {}, final cwnd {} B, srtt {:?}",
            st.packets_sent,
            st.packets_received,
            st.retransmissions,
            st.timeouts,
            st.cwnd,
            st.srtt.map(|d| d.to_string())
        );
    }
}
