//! Packets per second with many connections on one endpoint.
//!
//! `cargo bench -p ledbat-utp --bench connections` prints, for 10, 100 and 500
//! connections (`LEDBAT_BENCH_CONNS`, comma-separated, to choose others):
//!
//! - harness: the two sans-IO endpoints and the in-memory network of
//!   `ledbat_utp::harness`, every connection backlogged from A to B through a 1 Gbit/s
//!   drop-tail bottleneck (1 ms each way, 2 MB buffer) for 5 s of virtual time: datagrams
//!   delivered (DATA and acknowledgements) per second of wall time. No kernel: this is
//!   the protocol's own cost per packet (endpoint lookup, timers, transmit queue,
//!   connection), plus the harness's event queue.
//! - loopback: one listening `UtpSocket` and one client `UtpSocket` over 127.0.0.1 on one
//!   current-thread runtime, the N connections together sending `LEDBAT_BENCH_TOTAL_KIB`
//!   (default 256 MiB, split evenly) concurrently: datagrams sent and received by the
//!   receiving side's connections per second of wall time from the first connect to the
//!   last byte read, and the process's CPU seconds per GB.

use ledbat_core::{Duration, Instant};
use ledbat_utp::harness::{addr_b, LinkConfig, Net};
use ledbat_utp::{ConnHandle, EndpointConfig, UtpSocket};
use std::time::Instant as Wall;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn env_or<T: std::str::FromStr>(k: &str, d: T) -> T {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// Process CPU time (user + system), seconds, from /proc/self/stat (clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    let rest = &s[s.rfind(')').expect("command field") + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let t: f64 = f[11].parse::<f64>().expect("utime") + f[12].parse::<f64>().expect("stime");
    t / 100.0
}

fn harness(n: usize) {
    let mut net = Net::new(
        EndpointConfig::default().max_half_open(n),
        LinkConfig::bottleneck(Duration::from_millis(1), 1_000_000_000, 2_000_000),
        LinkConfig::bottleneck(Duration::from_millis(1), 0, 0),
        1,
    );
    let clients: Vec<ConnHandle> = (0..n)
        .map(|_| net.a.connect(net.now, addr_b()).unwrap())
        .collect();
    let until: Instant = net.now + Duration::from_secs(5);
    let chunk = vec![0u8; 16 * 1024];
    let mut buf = vec![0u8; 64 * 1024];
    let mut servers = 0usize;
    let mut bytes = 0u64;
    // As an event-driven application does (the runtime with its wakers): only the
    // connections that had an event are looked at, and touched only when they can write
    // or read.
    let (mut ca, mut cb) = (clients.clone(), Vec::new());
    let wall = Wall::now();
    loop {
        for &c in &ca {
            if net.a.connection(c).is_some_and(|x| x.writable() > 0) {
                let conn = net.a.connection_mut(c).expect("exists");
                while conn.write(&chunk).is_ok() {}
            }
        }
        while let Some(h) = net.b.accept() {
            servers += 1;
            cb.push(h);
        }
        for &h in &cb {
            if net.b.connection(h).is_some_and(|x| x.readable() > 0) {
                let conn = net.b.connection_mut(h).expect("exists");
                while let Ok(k) = conn.read(&mut buf) {
                    if k == 0 {
                        break;
                    }
                    bytes += k as u64;
                }
            }
        }
        if !net.step(until) {
            break;
        }
        ca.clear();
        cb.clear();
        net.a.take_changed(&mut ca);
        net.b.take_changed(&mut cb);
    }
    let secs = wall.elapsed().as_secs_f64();
    println!(
        "harness  {n:>4} connections: {:>9.0} datagrams/s ({} datagrams in {secs:.2} s wall for 5 s virtual; {:.0} Mbit/s virtual goodput, {} accepted)",
        net.delivered as f64 / secs,
        net.delivered,
        bytes as f64 * 8.0 / 5.0 / 1e6,
        servers
    );
}

fn loopback(n: usize, kib: usize) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let cfg = EndpointConfig::default().max_half_open(n);
        let server = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), cfg.clone().listen(true))
            .await
            .unwrap();
        let client = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), cfg)
            .await
            .unwrap();
        let addr = server.local_addr();
        let per = kib * 1024;
        let cpu0 = cpu_seconds();
        let wall = Wall::now();
        let readers = tokio::spawn(async move {
            let mut tasks = Vec::new();
            for _ in 0..n {
                let mut s = server.accept().await.unwrap();
                tasks.push(tokio::spawn(async move {
                    let mut buf = vec![0u8; 64 * 1024];
                    let mut got = 0usize;
                    loop {
                        let k = s.read(&mut buf).await.unwrap();
                        if k == 0 {
                            break;
                        }
                        got += k;
                    }
                    let st = s.stats().unwrap();
                    (got, st.packets_sent + st.packets_received)
                }));
            }
            let mut total = (0usize, 0u64);
            for t in tasks {
                let (g, p) = t.await.unwrap();
                total.0 += g;
                total.1 += p;
            }
            (total, server)
        });
        let mut writers = Vec::new();
        for _ in 0..n {
            let mut s = client.connect(addr).await.unwrap();
            writers.push(tokio::spawn(async move {
                let chunk = vec![0x5au8; 64 * 1024];
                let mut sent = 0;
                while sent < per {
                    let k = chunk.len().min(per - sent);
                    s.write_all(&chunk[..k]).await.unwrap();
                    sent += k;
                }
                s.shutdown().await.unwrap();
                s
            }));
        }
        let mut streams = Vec::new();
        for w in writers {
            streams.push(w.await.unwrap());
        }
        let ((got, packets), _server) = readers.await.unwrap();
        let secs = wall.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu0;
        assert_eq!(got, per * n, "every byte arrived");
        println!(
            "loopback {n:>4} connections: {:>9.0} datagrams/s ({packets} datagrams seen by the receiving side, {} KiB each, {secs:.2} s, {:.2} Gbit/s, {:.2} CPU s/GB)",
            packets as f64 / secs,
            kib,
            got as f64 * 8.0 / secs / 1e9,
            cpu / (got as f64 / 1e9)
        );
        drop(streams);
    });
}

fn main() {
    let counts: Vec<usize> = std::env::var("LEDBAT_BENCH_CONNS")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10, 100, 500]);
    let total_kib: usize = env_or("LEDBAT_BENCH_TOTAL_KIB", 256 * 1024);
    for &n in &counts {
        harness(n);
    }
    for &n in &counts {
        loopback(n, (total_kib / n).max(1));
    }
}
