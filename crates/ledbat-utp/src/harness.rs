//! Two endpoints over an in-memory network with a virtual clock.
//!
//! Each direction is a [`LinkConfig`]: a fixed delay, uniform jitter, and seeded loss,
//! duplication and reordering (a reordered datagram is held back by an extra delay). Events
//! are processed in time order; ties keep insertion order, so a run is a pure function of
//! its seed. [`transfer`] runs one client-to-server transfer and returns what arrived, for
//! byte-exact checks.

use crate::endpoint::{ConnHandle, Endpoint, EndpointConfig};
use ledbat_core::{Duration, Instant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha12Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::net::SocketAddr;

/// Impairments of one direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkConfig {
    /// Fixed one-way delay.
    pub delay: Duration,
    /// Extra delay drawn uniformly from `[0, jitter]` per datagram.
    pub jitter: Duration,
    /// Probability that a datagram is dropped.
    pub loss: f64,
    /// Probability that a datagram is delivered twice.
    pub duplicate: f64,
    /// Probability that a datagram is held back by `reorder_delay` (overtaken by later ones).
    pub reorder: f64,
    /// Extra delay of a reordered datagram.
    pub reorder_delay: Duration,
    /// Bottleneck rate in bits per second ahead of the delay (a drop-tail FIFO served at
    /// this rate); 0 is unlimited.
    pub rate_bps: u64,
    /// Bottleneck FIFO limit in bytes (datagrams that would exceed it are dropped).
    pub queue_bytes: u64,
    /// Datagrams longer than this are dropped without a word (a link whose MTU is below
    /// the sender's guess, and no ICMP); 0 is no limit.
    pub max_datagram: usize,
}

impl Default for LinkConfig {
    /// A clean 10 ms link.
    fn default() -> Self {
        LinkConfig {
            delay: Duration::from_millis(10),
            jitter: Duration::ZERO,
            loss: 0.0,
            duplicate: 0.0,
            reorder: 0.0,
            reorder_delay: Duration::from_millis(5),
            rate_bps: 0,
            queue_bytes: 0,
            max_datagram: 0,
        }
    }
}

impl LinkConfig {
    /// The impaired link of the acceptance test: `p` loss, `p` duplication, `p` reordering.
    pub fn lossy(p: f64) -> Self {
        LinkConfig {
            delay: Duration::from_millis(10),
            jitter: Duration::from_millis(2),
            loss: p,
            duplicate: p,
            reorder: p,
            reorder_delay: Duration::from_millis(8),
            rate_bps: 0,
            queue_bytes: 0,
            max_datagram: 0,
        }
    }

    /// A clean link with `delay` behind a drop-tail bottleneck of `rate_bps` holding
    /// `queue_bytes`.
    pub fn bottleneck(delay: Duration, rate_bps: u64, queue_bytes: u64) -> Self {
        LinkConfig {
            delay,
            rate_bps,
            queue_bytes,
            ..LinkConfig::default()
        }
    }
}

/// A datagram on the wire: arrival time, tie-break ticket, towards B, bytes.
type InFlight = (Instant, u64, bool, Vec<u8>);

/// Which endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The client (`A`, address 10.0.0.1:1000).
    A,
    /// The server (`B`, address 10.0.0.2:2000, listening).
    B,
}

/// Two endpoints joined by two impaired links.
#[derive(Debug)]
pub struct Net {
    /// Virtual time.
    pub now: Instant,
    /// The client endpoint.
    pub a: Endpoint,
    /// The server endpoint.
    pub b: Endpoint,
    /// Link from A to B.
    pub ab: LinkConfig,
    /// Link from B to A.
    pub ba: LinkConfig,
    rng: ChaCha12Rng,
    queue: BinaryHeap<Reverse<InFlight>>,
    ticket: u64,
    /// Datagrams delivered so far.
    pub delivered: u64,
    /// Datagrams dropped by the links.
    pub dropped: u64,
    /// The client handles arriving datagrams only at multiples of this interval, all due
    /// ones in one batch before it transmits (a runtime woken late, or reading a batch
    /// of datagrams per wake-up). Zero: each arrival is handled at its own instant.
    pub a_wake: Duration,
    /// The same for the server: a runtime reading its socket in batches (recvmmsg, GRO)
    /// before it transmits, so one acknowledgement covers the whole batch.
    pub b_wake: Duration,
    /// Queueing delay of every datagram entering the A-to-B bottleneck, with the time
    /// it entered (only when that link has a rate).
    pub ab_queue: Vec<(Instant, Duration)>,
    ab_free_at: Instant,
    buf: Vec<u8>,
}

/// The client's address.
pub fn addr_a() -> SocketAddr {
    SocketAddr::from(([10, 0, 0, 1], 1000))
}
/// The server's address.
pub fn addr_b() -> SocketAddr {
    SocketAddr::from(([10, 0, 0, 2], 2000))
}

impl Net {
    /// A network whose client and server use `cfg` (the server listens).
    pub fn new(cfg: EndpointConfig, ab: LinkConfig, ba: LinkConfig, seed: u64) -> Self {
        let mut rng = ChaCha12Rng::seed_from_u64(seed);
        let a = Endpoint::new(cfg.clone().listen(false), rng.gen()).expect("valid endpoint config");
        let b = Endpoint::new(cfg.listen(true), rng.gen()).expect("valid endpoint config");
        Net {
            now: Instant::from_secs(1),
            a,
            b,
            ab,
            ba,
            rng,
            queue: BinaryHeap::new(),
            ticket: 0,
            delivered: 0,
            dropped: 0,
            a_wake: Duration::ZERO,
            b_wake: Duration::ZERO,
            ab_queue: Vec::new(),
            ab_free_at: Instant::ZERO,
            buf: Vec::new(),
        }
    }

    /// Sends every datagram both endpoints have due now into the links.
    pub fn flush(&mut self) {
        for to_b in [true, false] {
            loop {
                let ep = if to_b { &mut self.a } else { &mut self.b };
                if ep.poll_transmit(self.now, &mut self.buf).is_none() {
                    break;
                }
                let link = if to_b { self.ab } else { self.ba };
                let d = std::mem::take(&mut self.buf);
                self.inject(to_b, d, link);
            }
        }
    }

    fn inject(&mut self, to_b: bool, d: Vec<u8>, link: LinkConfig) {
        if link.max_datagram > 0 && d.len() > link.max_datagram {
            self.dropped += 1;
            return;
        }
        if self.rng.gen_bool(link.loss.clamp(0.0, 1.0)) {
            self.dropped += 1;
            return;
        }
        let copies = if self.rng.gen_bool(link.duplicate.clamp(0.0, 1.0)) {
            2
        } else {
            1
        };
        let mut depart = self.now;
        if to_b && link.rate_bps > 0 {
            let free = self.ab_free_at.max(self.now);
            let queued = free.saturating_since(self.now);
            let backlog = queued.as_nanos() as u128 * link.rate_bps as u128 / 8_000_000_000;
            if backlog as u64 + d.len() as u64 > link.queue_bytes {
                self.dropped += 1;
                return;
            }
            self.ab_queue.push((self.now, queued));
            let tx = d.len() as u128 * 8_000_000_000 / link.rate_bps as u128;
            depart = free + Duration::from_nanos(tx as u64);
            self.ab_free_at = depart;
        }
        for _ in 0..copies {
            let mut at = depart + link.delay;
            if !link.jitter.is_zero() {
                at += Duration::from_nanos(self.rng.gen_range(0..=link.jitter.as_nanos()));
            }
            if self.rng.gen_bool(link.reorder.clamp(0.0, 1.0)) {
                at += link.reorder_delay;
            }
            let wake = if to_b { self.b_wake } else { self.a_wake };
            if !wake.is_zero() {
                let w = wake.as_nanos();
                at = Instant::from_nanos(at.as_nanos().div_ceil(w) * w);
            }
            self.ticket += 1;
            self.queue.push(Reverse((at, self.ticket, to_b, d.clone())));
        }
    }

    /// Mean queueing delay (ms) of the datagrams that entered the A-to-B bottleneck at or
    /// after `from` (NaN when none did).
    pub fn mean_ab_queue_ms(&self, from: Instant) -> f64 {
        let (sum, n) = self
            .ab_queue
            .iter()
            .filter(|(t, _)| *t >= from)
            .fold((0.0, 0u32), |(s, n), (_, d)| (s + d.as_millis_f64(), n + 1));
        sum / n as f64
    }

    /// Hands a datagram straight to one endpoint (for fuzzing and attack tests).
    pub fn inject_raw(
        &mut self,
        to: Side,
        from: SocketAddr,
        datagram: &[u8],
    ) -> Option<ConnHandle> {
        match to {
            Side::A => self.a.handle(self.now, from, datagram),
            Side::B => self.b.handle(self.now, from, datagram),
        }
    }

    /// The next instant anything happens, if anything will.
    pub fn next_event(&self) -> Option<Instant> {
        let q = self.queue.peek().map(|Reverse((t, ..))| *t);
        [q, self.a.poll_timeout(), self.b.poll_timeout()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Advances to the next event (not beyond `limit`) and processes everything due then.
    /// Returns false when nothing is scheduled before `limit`.
    pub fn step(&mut self, limit: Instant) -> bool {
        self.flush();
        let Some(t) = self.next_event() else {
            return false;
        };
        if t > limit {
            return false;
        }
        self.now = self.now.max(t);
        while let Some(Reverse((at, ..))) = self.queue.peek() {
            if *at > self.now {
                break;
            }
            let Some(Reverse((_, _, to_b, d))) = self.queue.pop() else {
                break;
            };
            self.delivered += 1;
            if to_b {
                self.b.handle(self.now, addr_a(), &d);
            } else {
                self.a.handle(self.now, addr_b(), &d);
            }
        }
        self.a.handle_timeout(self.now);
        self.b.handle_timeout(self.now);
        self.flush();
        true
    }
}

/// What a transfer produced.
#[derive(Clone, Debug)]
pub struct TransferOutcome {
    /// Bytes the server read, in order, until end of stream (or failure).
    pub received: Vec<u8>,
    /// Virtual time from connect to the client's FIN being acknowledged (or the limit).
    pub duration: Duration,
    /// Whether the client saw its FIN acknowledged and the server saw end of stream.
    pub complete: bool,
    /// The client connection's final counters.
    pub client: crate::stats::ConnectionStats,
    /// Datagrams dropped by the links.
    pub dropped: u64,
}

/// Sends `data` from A to B over `net`, reading at the server as fast as data arrives,
/// until the server sees end of stream and the client's FIN is acknowledged, or `limit` of
/// virtual time passes.
pub fn transfer(net: &mut Net, data: &[u8], limit: Duration) -> TransferOutcome {
    let start = net.now;
    let deadline = start + limit;
    let ca = net.a.connect(net.now, addr_b()).expect("valid config");
    let mut written = 0usize;
    let mut closed = false;
    let mut server: Option<ConnHandle> = None;
    let mut received = Vec::with_capacity(data.len());
    let mut buf = vec![0u8; 64 * 1024];
    let mut server_eof = false;
    let mut done_at = None;
    loop {
        if let Some(c) = net.a.connection_mut(ca) {
            if written < data.len() {
                if let Ok(n) = c.write(&data[written..]) {
                    written += n;
                }
            }
            if written == data.len() && !closed {
                c.close();
                closed = true;
            }
        }
        if server.is_none() {
            server = net.b.accept();
        }
        if let Some(s) = server {
            if let Some(c) = net.b.connection_mut(s) {
                loop {
                    match c.read(&mut buf) {
                        Ok(0) => {
                            if !server_eof {
                                server_eof = true;
                                c.close();
                            }
                            break;
                        }
                        Ok(n) => received.extend_from_slice(&buf[..n]),
                        Err(_) => break,
                    }
                }
            }
        }
        let client_done = net.a.connection(ca).is_some_and(|c| c.is_write_closed());
        let failed = match net.a.connection(ca) {
            Some(c) => c.error().is_some(),
            None => true,
        };
        if client_done && server_eof {
            done_at = Some(net.now);
            break;
        }
        if failed || !net.step(deadline) {
            break;
        }
    }
    let client = net.a.connection(ca).map(|c| c.stats()).unwrap_or_default();
    TransferOutcome {
        complete: done_at.is_some(),
        duration: done_at.unwrap_or(net.now).saturating_since(start),
        received,
        client,
        dropped: net.dropped,
    }
}

/// Drives `n` client connections from A to B until `until`: client `i` writes `data(i)`
/// (backlogged when it is `None`: writes as long as the send buffer takes bytes) and closes
/// after it; the server reads everything. Calls `sample(net, now)` at every step. Returns
/// the bytes each server-side connection read, by accept order.
pub fn run_flows(
    net: &mut Net,
    n: usize,
    data: impl Fn(usize) -> Option<Vec<u8>>,
    until: Instant,
    mut sample: impl FnMut(&Net, &std::collections::HashMap<ConnHandle, Vec<u8>>),
) -> (
    Vec<ConnHandle>,
    std::collections::HashMap<ConnHandle, Vec<u8>>,
) {
    let clients: Vec<ConnHandle> = (0..n)
        .map(|_| net.a.connect(net.now, addr_b()).unwrap())
        .collect();
    let payloads: Vec<Option<Vec<u8>>> = (0..n).map(&data).collect();
    let chunk = vec![0x5au8; 16 * 1024];
    let mut written = vec![0usize; n];
    let mut servers = Vec::new();
    let mut got: std::collections::HashMap<ConnHandle, Vec<u8>> = std::collections::HashMap::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        for (i, &c) in clients.iter().enumerate() {
            let Some(conn) = net.a.connection_mut(c) else {
                continue;
            };
            match &payloads[i] {
                Some(d) if written[i] < d.len() => {
                    written[i] += conn.write(&d[written[i]..]).unwrap_or(0)
                }
                Some(_) => conn.close(),
                None => while conn.write(&chunk).is_ok() {},
            }
        }
        while let Some(h) = net.b.accept() {
            servers.push(h);
        }
        for &h in &servers {
            let Some(conn) = net.b.connection_mut(h) else {
                continue;
            };
            while let Ok(k) = conn.read(&mut buf) {
                if k == 0 {
                    break;
                }
                got.entry(h).or_default().extend_from_slice(&buf[..k]);
            }
        }
        sample(net, &got);
        let done = servers.len() == n
            && servers
                .iter()
                .all(|&h| net.b.connection(h).is_some_and(|c| c.is_read_closed()));
        if done || !net.step(until) {
            break;
        }
    }
    (servers, got)
}

/// Which client each server-side stream came from: for each of `servers`, the `i` in
/// `0..n` whose `payload(i)` it received exactly (taken out of `got`), sorted. Panics when
/// a stream matches no payload.
pub fn senders(
    servers: &[ConnHandle],
    got: &mut std::collections::HashMap<ConnHandle, Vec<u8>>,
    n: usize,
    payload: impl Fn(usize) -> Vec<u8>,
) -> Vec<usize> {
    let mut seen: Vec<usize> = servers
        .iter()
        .map(|h| {
            let data = got.remove(h).unwrap_or_default();
            (0..n)
                .find(|&i| payload(i) == data)
                .expect("a client's exact payload")
        })
        .collect();
    seen.sort();
    seen
}

/// Stream buffers of [`fuzz_exchange`]'s connections, bytes.
const FUZZ_BUFFER: u32 = 64 * 1024;

/// Drives an established connection pair with adversarial input, for fuzzing: `input` is
/// read as a program of operations (inject a datagram built from the next bytes, optionally
/// patched to carry a live connection id and a valid type nibble; step the network; write;
/// read). Panics if a connection's bookkeeping breaks ([`crate::Connection::check_invariants`]);
/// any panic is a bug.
///
/// The stream buffers are 64 KiB each way (the default is 1 MiB): the same code with a
/// smaller bound, still more than the exchange's windows reach, so that an execution spends
/// its time in the exchange rather than in growing and copying megabyte buffers
/// (docs/fuzzing.md).
pub fn fuzz_exchange(input: &[u8]) {
    let conn = crate::ConnectionConfig::default()
        .send_buffer(FUZZ_BUFFER)
        .recv_buffer(FUZZ_BUFFER);
    let mut net = Net::new(
        EndpointConfig::default().connection(conn),
        LinkConfig::default(),
        LinkConfig::default(),
        0,
    );
    let ca = net.a.connect(net.now, addr_b()).expect("valid config");
    for _ in 0..4 {
        net.step(net.now + Duration::from_secs(1));
    }
    let cb = net.b.accept();
    let ids = |net: &Net| {
        (
            net.a.connection(ca).map(|c| c.recv_id()),
            cb.and_then(|h| net.b.connection(h)).map(|c| c.recv_id()),
        )
    };
    let data = [0xa5u8; 3000];
    let mut buf = vec![0u8; 8192];
    let mut i = 0;
    while i < input.len() {
        let op = input[i];
        i += 1;
        match op % 5 {
            0 | 1 => {
                let len = input.get(i).copied().unwrap_or(0) as usize;
                i = (i + 1).min(input.len());
                let end = (i + len).min(input.len());
                let mut d = input[i..end].to_vec();
                i = end;
                let to_b = op & 0x10 != 0;
                if op & 0x20 != 0 && d.len() >= 4 {
                    let (ia, ib) = ids(&net);
                    if let Some(id) = if to_b { ib } else { ia } {
                        d[0] = (((d[0] >> 4) % 5) << 4) | 1;
                        d[2..4].copy_from_slice(&id.to_be_bytes());
                    }
                }
                let side = if to_b { Side::B } else { Side::A };
                let from = if to_b { addr_a() } else { addr_b() };
                net.inject_raw(side, from, &d);
            }
            2 => {
                let ms = input.get(i).copied().unwrap_or(1) as u64;
                i += 1;
                let limit = net.now + Duration::from_millis(ms * 10);
                net.step(limit);
            }
            3 => {
                if let Some(c) = net.a.connection_mut(ca) {
                    let _ = c.write(&data);
                }
                if let Some(c) = cb.and_then(|h| net.b.connection_mut(h)) {
                    let _ = c.write(&data[..1000]);
                }
            }
            _ => {
                for h in [Some(ca), cb].into_iter().flatten() {
                    for ep in [&mut net.a, &mut net.b] {
                        if let Some(c) = ep.connection_mut(h) {
                            let _ = c.read(&mut buf);
                        }
                    }
                }
            }
        }
        for ep in [&net.a, &net.b] {
            for h in ep.handles() {
                if let Some(c) = ep.connection(h) {
                    if let Err(e) = c.check_invariants() {
                        panic!("invariant broken: {e}");
                    }
                }
            }
        }
    }
    // Let everything settle; timers must keep firing without panics.
    let limit = net.now + Duration::from_secs(300);
    while net.step(limit) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_link_transfer_is_exact() {
        let mut net = Net::new(
            EndpointConfig::default(),
            LinkConfig::default(),
            LinkConfig::default(),
            1,
        );
        let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let out = transfer(&mut net, &data, Duration::from_secs(120));
        assert!(out.complete);
        assert_eq!(out.received, data);
        assert_eq!(out.client.retransmissions, 0);
    }

    #[test]
    fn same_seed_same_run() {
        let run = |seed| {
            let mut net = Net::new(
                EndpointConfig::default(),
                LinkConfig::lossy(0.05),
                LinkConfig::lossy(0.05),
                seed,
            );
            let data = vec![3u8; 30_000];
            let o = transfer(&mut net, &data, Duration::from_secs(120));
            (o.duration, o.client.packets_sent, o.dropped)
        };
        assert_eq!(run(9), run(9));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn arbitrary_datagrams_never_break_a_connection(input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
            fuzz_exchange(&input);
        }
    }

    #[test]
    fn forged_in_window_datagrams_do_not_break_invariants() {
        // Valid-looking STATE/DATA/FIN with live ids and random fields.
        let mut input = Vec::new();
        for k in 0..200u32 {
            input.extend_from_slice(&[0x31, 24]);
            let ty = (k % 3) as u8; // DATA, FIN, STATE
            input.extend_from_slice(&[(ty << 4) | 1, if k % 7 == 0 { 1 } else { 0 }, 0, 0]);
            input.extend_from_slice(&k.wrapping_mul(2654435761).to_be_bytes());
            input.extend_from_slice(&[0; 4]);
            input.extend_from_slice(&(k * 1000).to_be_bytes());
            input.extend_from_slice(&(k as u16).to_be_bytes());
            input.extend_from_slice(&(k as u16 ^ 0x5555).to_be_bytes());
            input.extend_from_slice(&[0, 4, 0xff, 0xff]);
            input.extend_from_slice(&[2, 3, 3, 4]);
        }
        fuzz_exchange(&input);
    }

    #[test]
    fn one_endpoint_serves_many_connections() {
        let mut net = Net::new(
            EndpointConfig::default(),
            LinkConfig::lossy(0.03),
            LinkConfig::lossy(0.03),
            77,
        );
        let n = 6usize;
        let payload = |i: usize| -> Vec<u8> {
            (0..20_000 + i * 3_000)
                .map(|k| (k * (i + 3)) as u8)
                .collect()
        };
        let limit = net.now + Duration::from_secs(300);
        let (servers, mut got) = run_flows(&mut net, n, |i| Some(payload(i)), limit, |_, _| {});
        assert_eq!(servers.len(), n);
        // Each server-side stream holds exactly one client's payload.
        let seen = senders(&servers, &mut got, n, payload);
        assert_eq!(seen, (0..n).collect::<Vec<_>>());
    }

    #[test]
    fn heavy_loss_recovers_through_timeouts() {
        for seed in 0..30 {
            let mut net = Net::new(
                EndpointConfig::default(),
                LinkConfig::lossy(0.2),
                LinkConfig::lossy(0.2),
                seed,
            );
            let data: Vec<u8> = (0..30_000u32).map(|i| (i ^ seed as u32) as u8).collect();
            let out = transfer(&mut net, &data, Duration::from_secs(3600));
            assert!(out.complete, "seed {seed}: {:?}", out.client);
            assert!(out.received == data, "seed {seed}");
        }
    }

    #[test]
    fn empty_transfer_completes() {
        let mut net = Net::new(
            EndpointConfig::default(),
            LinkConfig::lossy(0.05),
            LinkConfig::lossy(0.05),
            4,
        );
        let out = transfer(&mut net, &[], Duration::from_secs(120));
        assert!(out.complete);
        assert!(out.received.is_empty());
    }

    /// A backlogged client behind a 10 Mbit/s drop-tail FIFO of 300 ms (the test bed's
    /// bottleneck), 1 ms each way: mean queueing delay over 20..40 s and the mean of
    /// `in_flight / cwnd` sampled every 10 ms over the same window.
    fn backlogged_ledbat(a_wake: Duration) -> (f64, f64) {
        let rate = 10_000_000u64;
        let mut net = Net::new(
            EndpointConfig::default(),
            LinkConfig::bottleneck(Duration::from_millis(1), rate, 375_000),
            LinkConfig::bottleneck(Duration::from_millis(1), 0, 0),
            7,
        );
        net.a_wake = a_wake;
        let ca = net.a.connect(net.now, addr_b()).unwrap();
        let start = net.now;
        let (from, to) = (
            start + Duration::from_secs(20),
            start + Duration::from_secs(40),
        );
        let chunk = vec![0u8; 64 * 1024];
        let mut buf = vec![0u8; 64 * 1024];
        let mut server = None;
        let mut next_sample = from;
        let (mut ratio_sum, mut ratio_n) = (0.0, 0u32);
        while net.now < to {
            let c = net.a.connection_mut(ca).expect("client alive");
            assert!(c.error().is_none(), "{:?}", c.error());
            while c.write(&chunk).is_ok() {}
            if net.now >= next_sample {
                let s = c.stats();
                ratio_sum += s.in_flight as f64 / s.cwnd as f64;
                ratio_n += 1;
                next_sample = net.now + Duration::from_millis(10);
            }
            server = server.or_else(|| net.b.accept());
            if let Some(c) = server.and_then(|h| net.b.connection_mut(h)) {
                while matches!(c.read(&mut buf), Ok(n) if n > 0) {}
            }
            if !net.step(to) {
                break;
            }
        }
        (net.mean_ab_queue_ms(from), ratio_sum / ratio_n as f64)
    }

    #[test]
    fn backlogged_ledbat_fills_its_window_and_the_queue_reaches_target() {
        // Immediate handling, and a client that sees ACKs in batches every 5 ms (about
        // four ACKs at 10 Mbit/s): the batch must not cut the window below what it was.
        for wake_ms in [0, 5] {
            let (queue_ms, fill) = backlogged_ledbat(Duration::from_millis(wake_ms));
            assert!(
                (75.0..=125.0).contains(&queue_ms),
                "wake {wake_ms} ms: mean queueing delay {queue_ms:.1} ms, TARGET 100 ms"
            );
            assert!(
                fill >= 0.8,
                "wake {wake_ms} ms: flight is {:.0} % of cwnd on average",
                fill * 100.0
            );
        }
    }
}
