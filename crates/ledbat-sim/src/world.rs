//! The simulated world: links, routes, flows and the event loop.
//!
//! **Links.** A link has a rate, a propagation delay, optional per-packet jitter (uniform
//! in `[0, jitter]`, never reordering: a packet leaves no earlier than its predecessor),
//! optional random loss, and an output [`Queue`]. A packet being serialised is not in the
//! queue (ns-2 convention). Infinite-rate links only delay.
//!
//! **Transport** (the same for every controller). Packets carry sequence numbers. The
//! receiver acknowledges every packet (or every second in-order packet with delayed ACKs,
//! RFC 5681 section 4.2) with the cumulative next-expected sequence, the sequence of the
//! packet that triggered the ACK (one SACK entry, like the first block of RFC 2018), and the
//! one-way-delay sample `receiver clock - sender timestamp` of that packet (RFC 6817
//! section 3.1, 32-bit microsecond wire clocks with per-host offset and drift). Out-of-order
//! arrivals are acknowledged at once. The sender declares a packet lost when `dupthresh`
//! packets transmitted after it have been acknowledged (the transmission-order form of
//! "3 duplicate ACKs", which also covers lost retransmissions), and on a retransmission
//! timeout (RFC 6298: `RTO = SRTT + max(G, 4 RTTVAR)`, floor `min_rto`, doubled per
//! back-off, RTT samples only from packets never retransmitted, Karn) every unacknowledged
//! packet. Lost packets are retransmitted first, under the same window, pacing and pause
//! rules as new data (the driver contract of `ledbat_core::controller`).

use crate::engine::{Ev, EventQueue};
use crate::queue::{QEntry, Queue};
use crate::result::*;
use crate::scenario::*;
use crate::stats::{jain, LogHistogram, Welford};
use crate::units::Rate;
use ledbat_core::{
    Ack, AnyController, Controller, ControllerConfig, DelaySample, Duration, Instant, Loss,
    RttEstimator, Timeout, Timestamp32,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, VecDeque};

const DATA: u8 = 0;
const ACK: u8 = 1;
const UDP: u8 = 2;

/// Controllers counted as "TCP" in the TCP share.
pub const TCP_CONTROLLERS: &[&str] = &["newreno", "cubic", "vegas"];

#[derive(Clone, Copy, Debug, Default)]
struct Packet {
    seq: u64,
    cum: u64,
    flow: u32,
    size: u32,
    ts: u32,
    echo: u32,
    route: u32,
    hop: u8,
    kind: u8,
}

#[derive(Debug, Default)]
struct Pool {
    pkts: Vec<Packet>,
    free: Vec<u32>,
    live: u64,
    peak: u64,
}

impl Pool {
    #[inline]
    fn alloc(&mut self, p: Packet) -> u32 {
        self.live += 1;
        self.peak = self.peak.max(self.live);
        match self.free.pop() {
            Some(i) => {
                self.pkts[i as usize] = p;
                i
            }
            None => {
                self.pkts.push(p);
                (self.pkts.len() - 1) as u32
            }
        }
    }
    #[inline]
    fn release(&mut self, i: u32) {
        self.live -= 1;
        self.free.push(i);
    }
}

#[derive(Clone, Copy, Debug)]
struct Route {
    links: [u32; 4],
    len: u8,
}

#[derive(Debug)]
struct LinkStats {
    arrivals: u64,
    departures: u64,
    queue_drops: u64,
    random_drops: u64,
    occ_sum: u64,
    occ_n: u64,
    area: u128,
    last_change: u64,
    busy_ns: u64,
    max_q: u64,
    hist: Vec<u64>,
    /// Queueing-delay sum, sum of squares (ns, ns^2) and count: integer adds per packet.
    qd_sum: u128,
    qd_sq: u128,
    qd_n: u64,
    qd_hist: LogHistogram,
}

impl LinkStats {
    #[inline]
    fn add_qdelay(&mut self, qd: u64) {
        self.qd_sum += qd as u128;
        self.qd_sq += qd as u128 * qd as u128;
        self.qd_n += 1;
        self.qd_hist.add(qd / 1000);
    }
    fn qdelay_mean_sd(&self) -> (f64, f64) {
        if self.qd_n == 0 {
            return (0.0, 0.0);
        }
        let n = self.qd_n as f64;
        let mean = self.qd_sum as f64 / n;
        let var = (self.qd_sq as f64 / n - mean * mean).max(0.0);
        (mean, var.sqrt())
    }
}

const OCC_HIST_MAX: usize = 4096;

#[derive(Debug)]
struct Link {
    name: String,
    rate: Rate,
    delay: u64,
    jitter: u64,
    loss: f64,
    limit: Option<u32>,
    queue: Queue,
    busy: bool,
    in_tx: u32,
    last_out: u64,
    typical_tx: u64,
    total_departures: u64,
    stats: Option<Box<LinkStats>>,
}

impl Link {
    fn new(
        name: String,
        rate: Rate,
        delay: Duration,
        q: &QueueConfig,
        loss: f64,
        monitor: bool,
        mss: u32,
    ) -> Link {
        let prealloc = if rate.is_infinite() {
            0
        } else {
            q.packet_limit().unwrap_or(64).min(64) as usize
        };
        let hist_len = q
            .packet_limit()
            .map_or(OCC_HIST_MAX, |l| (l as usize).min(OCC_HIST_MAX))
            + 1;
        Link {
            name,
            rate,
            delay: delay.as_nanos(),
            jitter: 0,
            loss,
            limit: q.packet_limit(),
            queue: Queue::with_capacity(q, prealloc),
            busy: false,
            in_tx: 0,
            last_out: 0,
            typical_tx: rate.tx_time_ns(mss),
            total_departures: 0,
            stats: monitor.then(|| {
                Box::new(LinkStats {
                    arrivals: 0,
                    departures: 0,
                    queue_drops: 0,
                    random_drops: 0,
                    occ_sum: 0,
                    occ_n: 0,
                    area: 0,
                    last_change: 0,
                    busy_ns: 0,
                    max_q: 0,
                    hist: vec![0; hist_len],
                    qd_sum: 0,
                    qd_sq: 0,
                    qd_n: 0,
                    qd_hist: LogHistogram::default(),
                })
            }),
        }
    }
}

const OUT: u8 = 1;
const SACKED: u8 = 2;
const LOST: u8 = 4;
const RETRANS: u8 = 8;

#[derive(Clone, Copy, Debug, Default)]
struct Seg {
    sent_at: u64,
    tx: u64,
    flags: u8,
}

impl Seg {
    #[inline]
    fn counted(&self) -> bool {
        self.flags & (OUT | SACKED | LOST) == OUT
    }
}

/// Per-sequence sender state for `[snd_una, snd_nxt)`, in a power-of-two ring that doubles
/// when the window outgrows it.
#[derive(Debug)]
struct SegRing {
    segs: Vec<Seg>,
    mask: u64,
}

impl SegRing {
    fn new() -> Self {
        SegRing {
            segs: vec![Seg::default(); 64],
            mask: 63,
        }
    }
    #[inline]
    fn get(&mut self, seq: u64) -> &mut Seg {
        &mut self.segs[(seq & self.mask) as usize]
    }
    fn make_room(&mut self, una: u64, nxt: u64) {
        if nxt - una < self.segs.len() as u64 {
            return;
        }
        let mut bigger = vec![Seg::default(); self.segs.len() * 2];
        let m = bigger.len() as u64 - 1;
        for s in una..nxt {
            bigger[(s & m) as usize] = self.segs[(s & self.mask) as usize];
        }
        self.segs = bigger;
        self.mask = m;
    }
}

/// Receiver's out-of-order set for `[rcv_nxt, rcv_nxt + capacity)`.
#[derive(Debug)]
struct SeqBits {
    bits: Vec<bool>,
    mask: u64,
}

impl SeqBits {
    fn new() -> Self {
        SeqBits {
            bits: vec![false; 64],
            mask: 63,
        }
    }
    fn set(&mut self, base: u64, seq: u64) {
        while seq - base >= self.bits.len() as u64 {
            let mut bigger = vec![false; self.bits.len() * 2];
            let m = bigger.len() as u64 - 1;
            for s in base..base + self.bits.len() as u64 {
                bigger[(s & m) as usize] = self.bits[(s & self.mask) as usize];
            }
            self.bits = bigger;
            self.mask = m;
        }
        self.bits[(seq & self.mask) as usize] = true;
    }
    fn test(&self, base: u64, seq: u64) -> bool {
        seq - base < self.bits.len() as u64 && self.bits[(seq & self.mask) as usize]
    }
    fn test_clear(&mut self, seq: u64) -> bool {
        let b = &mut self.bits[(seq & self.mask) as usize];
        std::mem::replace(b, false)
    }
}

#[derive(Clone, Debug)]
enum App {
    Backlogged,
    Transfer {
        pkts: u64,
    },
    Chunks {
        pkts: u64,
        pp: f64,
        peers: Vec<u32>,
    },
    Cbr {
        interval: u64,
        size: u32,
    },
    Bursty {
        packets: u64,
        period: u64,
        buffer: u64,
    },
    Sessions {
        chunks: u32,
        cp: [u32; 2],
        gap: [u64; 2],
        think: [u64; 2],
    },
}

#[derive(Debug)]
struct Flow {
    name: String,
    ctrl: String,
    cc_cfg: Option<ControllerConfig>,
    cc: Option<AnyController>,
    tp: TransportConfig,
    start: u64,
    stop: u64,
    active: bool,
    finished_at: Option<u64>,
    data_route: u32,
    ack_route: u32,
    from: u32,
    to: u32,
    snd_clock: ClockConfig,
    rcv_clock: ClockConfig,
    app: App,
    app_limit: u64,
    unit_active: bool,
    unit_start: u64,
    unit_start_seq: u64,
    chunks_written: u32,
    // sender
    snd_una: u64,
    snd_nxt: u64,
    board: SegRing,
    sent_list: VecDeque<(u64, u64)>,
    retx: VecDeque<u64>,
    tx_count: u64,
    h_tx: u64,
    in_flight: u64,
    rtt: RttEstimator,
    backoff: u32,
    rto_deadline: Option<u64>,
    rto_ev: Option<u64>,
    wake_at: Option<u64>,
    tick_at: Option<u64>,
    last_send: u64,
    last_activity: u64,
    interrupts: Option<Interruptions>,
    interrupted_until: u64,
    send_jitter: u64,
    jitter_last: u64,
    // receiver
    rcv_nxt: u64,
    ooo: SeqBits,
    ooo_count: u64,
    pending_acks: u32,
    delack_deadline: Option<u64>,
    last_echo: u32,
    // stats
    sent_pkts: u64,
    retx_pkts: u64,
    timeouts: u64,
    losses: u64,
    dropped: u64,
    delivered_win: u64,
    sample_bytes: u64,
    sec_bytes: u64,
    per_sec: Vec<f64>,
    cwnd_w: Welford,
    rtt_sum_ms: f64,
    rtt_n: u64,
    completions: Vec<Completion>,
    app_discarded: u64,
    s_cwnd: Vec<f64>,
    s_rate: Vec<f64>,
    s_qd: Vec<f64>,
}

fn wire_clock(c: &ClockConfig, now: u64) -> u32 {
    let t = if c.drift_ppm == 0.0 {
        now
    } else {
        (now as f64 * (1.0 + c.drift_ppm * 1e-6)).max(0.0) as u64
    };
    Timestamp32::from_instant(Instant::from_nanos(t), c.offset.as_micros()).0
}

fn uniform(rng: &mut ChaCha8Rng, r: [u64; 2]) -> u64 {
    if r[0] >= r[1] {
        r[0]
    } else {
        rng.gen_range(r[0]..=r[1])
    }
}

fn ns2(r: [Duration; 2]) -> [u64; 2] {
    [r[0].as_nanos(), r[1].as_nanos()]
}

/// Why a run could not start.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The scenario is invalid.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// A controller refused its configuration.
    #[error("flow {flow}: {source}")]
    Controller {
        /// Flow name.
        flow: String,
        /// The controller's error.
        source: ledbat_core::ConfigError,
    },
}

struct World<'a> {
    sc: &'a Scenario,
    now: u64,
    end: u64,
    warmup: u64,
    mss: u32,
    ack_size: u32,
    sample_ns: u64,
    ev: EventQueue,
    rng: ChaCha8Rng,
    pool: Pool,
    links: Vec<Link>,
    routes: Vec<Route>,
    route_cache: BTreeMap<(u32, u32), (u32, u32)>,
    star: Vec<(u32, u32, ClockConfig)>,
    flows: Vec<Flow>,
    monitored: Vec<usize>,
    primary: Option<usize>,
    capacity_bps: f64,
    sent: u64,
    delivered: u64,
    dropped: u64,
    scratch: Vec<u32>,
    series_t: Vec<f64>,
    series_links: Vec<Vec<u32>>,
    /// Number of time-series samples (0 without series): vectors are allocated exactly.
    series_len: usize,
}

/// Runs `scenario` with `seed`. Pure: the same inputs give the same result.
pub fn run(scenario: &Scenario, seed: u64) -> Result<RunResult, RunError> {
    run_with_progress(scenario, seed, &mut |_| {})
}

/// [`run`], calling `progress` with the simulated fraction done (0..=1) from time to time.
pub fn run_with_progress(
    scenario: &Scenario,
    seed: u64,
    progress: &mut dyn FnMut(f64),
) -> Result<RunResult, RunError> {
    scenario.validate()?;
    let mut w = World::build(scenario, seed)?;
    w.run_loop(progress);
    Ok(w.finish(seed))
}

impl<'a> World<'a> {
    fn build(sc: &'a Scenario, seed: u64) -> Result<World<'a>, RunError> {
        let mss = sc.mss;
        let mut w = World {
            sc,
            now: 0,
            end: sc.duration.as_nanos(),
            warmup: sc.warmup.as_nanos(),
            mss,
            ack_size: sc.ack_size,
            sample_ns: sc.sample_interval.as_nanos(),
            ev: EventQueue::with_capacity(1024),
            rng: ChaCha8Rng::seed_from_u64(seed),
            pool: Pool::default(),
            links: Vec::new(),
            routes: Vec::new(),
            route_cache: BTreeMap::new(),
            star: Vec::new(),
            flows: Vec::new(),
            monitored: Vec::new(),
            primary: None,
            capacity_bps: 0.0,
            sent: 0,
            delivered: 0,
            dropped: 0,
            scratch: Vec::new(),
            series_t: Vec::new(),
            series_links: Vec::new(),
            series_len: if sc.series {
                (sc.duration.as_nanos() / sc.sample_interval.as_nanos()) as usize
            } else {
                0
            },
        };
        w.series_t.reserve_exact(w.series_len);
        match &sc.topology {
            Topology::Dumbbell(d) => {
                let mut f = Link::new(
                    "bottleneck".into(),
                    d.rate,
                    d.delay,
                    &d.queue,
                    d.loss,
                    true,
                    mss,
                );
                f.jitter = d.jitter.as_nanos();
                let rq = d.reverse_queue.clone().unwrap_or_else(|| d.queue.clone());
                let rr = d.reverse_rate.unwrap_or(d.rate);
                let mut r = Link::new(
                    "bottleneck-rev".into(),
                    rr,
                    d.delay,
                    &rq,
                    d.reverse_loss,
                    true,
                    mss,
                );
                r.jitter = d.jitter.as_nanos();
                w.links.push(f);
                w.links.push(r);
                w.monitored = vec![0, 1];
                w.primary = Some(0);
                // Both directions count when some flow sends on the reverse path.
                let reverse = sc.flows.iter().any(|f| f.direction == Direction::Reverse);
                w.capacity_bps = d.rate.bits_per_sec() as f64
                    + if reverse {
                        rr.bits_per_sec() as f64
                    } else {
                        0.0
                    };
            }
            Topology::Star(s) => {
                let mut idx = 0u32;
                for h in &s.hosts {
                    for _ in 0..h.count {
                        let up = Link::new(
                            format!("up{idx}"),
                            h.up,
                            h.delay + s.core_delay,
                            &h.up_queue,
                            h.loss,
                            true,
                            mss,
                        );
                        let down = Link::new(
                            format!("down{idx}"),
                            h.down,
                            h.delay,
                            &h.down_queue,
                            0.0,
                            true,
                            mss,
                        );
                        w.links.push(up);
                        w.links.push(down);
                        w.star.push((
                            (w.links.len() - 2) as u32,
                            (w.links.len() - 1) as u32,
                            h.clock,
                        ));
                        idx += 1;
                    }
                }
                w.monitored = (0..w.links.len()).collect();
                let mut senders: Vec<u32> = sc.flows.iter().map(|f| f.from).collect();
                senders.sort_unstable();
                senders.dedup();
                w.capacity_bps = senders
                    .iter()
                    .map(|h| w.links[w.star[*h as usize].0 as usize].rate.0 as f64)
                    .sum();
            }
        }
        for (si, spec) in sc.flows.iter().enumerate() {
            for k in 0..spec.count {
                let name = if !spec.name.is_empty() {
                    if spec.count > 1 {
                        format!("{}.{k}", spec.name)
                    } else {
                        spec.name.clone()
                    }
                } else if spec.count > 1 {
                    format!("flow{si}.{k}")
                } else {
                    format!("flow{si}")
                };
                w.add_flow(spec, name, k)?;
            }
        }
        for _ in 0..w.links.len() {
            w.ev.add_pipe();
        }
        w.series_links = (0..w.monitored.len().min(8))
            .map(|_| Vec::with_capacity(w.series_len))
            .collect();
        Ok(w)
    }

    fn add_route(&mut self, links: &[u32]) -> u32 {
        let mut r = Route {
            links: [0; 4],
            len: links.len() as u8,
        };
        r.links[..links.len()].copy_from_slice(links);
        self.routes.push(r);
        (self.routes.len() - 1) as u32
    }

    /// Star: (data route a -> b, ACK route b -> a), created once per pair.
    fn star_routes(&mut self, a: u32, b: u32) -> (u32, u32) {
        if let Some(r) = self.route_cache.get(&(a, b)) {
            return *r;
        }
        let (ua, da, _) = self.star[a as usize];
        let (ub, db, _) = self.star[b as usize];
        let d = self.add_route(&[ua, db]);
        let r = self.add_route(&[ub, da]);
        self.route_cache.insert((a, b), (d, r));
        (d, r)
    }

    fn add_flow(&mut self, spec: &FlowSpec, name: String, copy: u32) -> Result<(), RunError> {
        let fi = self.flows.len() as u32;
        let mss = self.mss;
        let (data_route, ack_route, snd_clock, rcv_clock) = match &self.sc.topology {
            Topology::Dumbbell(d) => {
                let up = Link::new(
                    format!("{name}-up"),
                    d.access_rate,
                    spec.access_delay,
                    &d.access_queue,
                    0.0,
                    false,
                    mss,
                );
                let down = Link::new(
                    format!("{name}-down"),
                    d.access_rate,
                    spec.access_delay,
                    &d.access_queue,
                    0.0,
                    false,
                    mss,
                );
                self.links.push(up);
                self.links.push(down);
                let (u, dn) = ((self.links.len() - 2) as u32, (self.links.len() - 1) as u32);
                let (dr, ar) = match spec.direction {
                    Direction::Forward => (self.add_route(&[u, 0]), self.add_route(&[1, dn])),
                    Direction::Reverse => (self.add_route(&[1, dn]), self.add_route(&[u, 0])),
                };
                (dr, ar, spec.sender_clock, spec.receiver_clock)
            }
            Topology::Star(_) => {
                let (dr, ar) = self.star_routes(spec.from, spec.to);
                (
                    dr,
                    ar,
                    self.star[spec.from as usize].2,
                    self.star[spec.to as usize].2,
                )
            }
        };
        let cc = match &spec.cc {
            Some(cfg) if !matches!(spec.traffic, Traffic::Cbr(_)) => {
                Some(cfg.build(mss).map_err(|e| RunError::Controller {
                    flow: name.clone(),
                    source: e,
                })?)
            }
            _ => None,
        };
        let pkts_of = |bytes: u64| bytes.div_ceil(mss as u64).max(1);
        let app = match &spec.traffic {
            Traffic::Backlogged(_) => App::Backlogged,
            Traffic::Transfer(t) => App::Transfer {
                pkts: pkts_of(t.bytes),
            },
            Traffic::Chunks(c) => App::Chunks {
                pkts: pkts_of(c.size),
                pp: c.persistence,
                peers: c.peers.clone(),
            },
            Traffic::Cbr(c) => App::Cbr {
                interval: c.rate.tx_time_ns(c.size).max(1),
                size: c.size,
            },
            Traffic::Bursty(b) => App::Bursty {
                packets: b.packets as u64,
                period: b.period.as_nanos(),
                buffer: b.buffer as u64,
            },
            Traffic::Sessions(s) => App::Sessions {
                chunks: s.chunks,
                cp: s.chunk_packets,
                gap: ns2(s.gap),
                think: ns2(s.think),
            },
        };
        let ctrl = if cc.is_some() {
            spec.cc.as_ref().map_or("udp", |c| c.name()).to_string()
        } else {
            "udp".into()
        };
        let start = (spec.start + spec.start_spacing * copy as u64).as_nanos();
        let stop = spec.stop.map_or(u64::MAX, |s| s.as_nanos());
        let mut f = Flow {
            name,
            ctrl,
            cc_cfg: spec.cc.clone(),
            cc,
            tp: spec
                .transport
                .clone()
                .unwrap_or_else(|| self.sc.transport.clone()),
            start,
            stop,
            active: false,
            finished_at: None,
            data_route,
            ack_route,
            from: spec.from,
            to: spec.to,
            snd_clock,
            rcv_clock,
            app,
            app_limit: 0,
            unit_active: false,
            unit_start: 0,
            unit_start_seq: 0,
            chunks_written: 0,
            snd_una: 0,
            snd_nxt: 0,
            board: SegRing::new(),
            sent_list: VecDeque::with_capacity(64),
            retx: VecDeque::new(),
            tx_count: 0,
            h_tx: 0,
            in_flight: 0,
            rtt: RttEstimator::default(),
            backoff: 0,
            rto_deadline: None,
            rto_ev: None,
            wake_at: None,
            tick_at: None,
            last_send: 0,
            last_activity: 0,
            interrupts: spec.interruptions.clone(),
            interrupted_until: 0,
            send_jitter: spec.send_jitter.as_nanos(),
            jitter_last: 0,
            rcv_nxt: 0,
            ooo: SeqBits::new(),
            ooo_count: 0,
            pending_acks: 0,
            delack_deadline: None,
            last_echo: 0,
            sent_pkts: 0,
            retx_pkts: 0,
            timeouts: 0,
            losses: 0,
            dropped: 0,
            delivered_win: 0,
            sample_bytes: 0,
            sec_bytes: 0,
            per_sec: Vec::new(),
            cwnd_w: Welford::default(),
            rtt_sum_ms: 0.0,
            rtt_n: 0,
            completions: Vec::new(),
            app_discarded: 0,
            s_cwnd: Vec::with_capacity(self.series_len),
            s_rate: Vec::with_capacity(self.series_len),
            s_qd: Vec::with_capacity(self.series_len),
        };
        f.per_sec.reserve_exact((self.end / 1_000_000_000) as usize);
        if start <= self.end {
            self.ev.push(start, Ev::Start(fi));
        }
        if stop < self.end {
            self.ev.push(stop.max(start), Ev::Stop(fi));
        }
        self.flows.push(f);
        Ok(())
    }

    fn run_loop(&mut self, progress: &mut dyn FnMut(f64)) {
        if self.sample_ns <= self.end {
            self.ev.push(self.sample_ns, Ev::Sample);
        }
        let sec = 1_000_000_000;
        if sec <= self.end {
            self.ev.push(sec, Ev::Second);
        }
        let mut n: u64 = 0;
        while let Some((t, ev)) = self.ev.pop() {
            if t > self.end {
                break;
            }
            self.now = t;
            match ev {
                Ev::Arrive(p) => self.arrive(p),
                Ev::TxDone(l) => self.tx_done(l as usize),
                Ev::Wake(f) => self.on_wake(f as usize),
                Ev::Rto(f) => self.on_rto(f as usize),
                Ev::DelAck(f) => self.on_delack(f as usize),
                Ev::Tick(f) => self.on_tick(f as usize),
                Ev::App(f) => self.on_app(f as usize),
                Ev::Start(f) => self.on_start(f as usize),
                Ev::Stop(f) => self.on_stop(f as usize),
                Ev::Interrupt(f) => self.on_interrupt(f as usize),
                Ev::Sample => self.on_sample(),
                Ev::Second => self.on_second(),
            }
            n += 1;
            if n & 0xFFFF == 0 {
                progress(self.now as f64 / self.end.max(1) as f64);
            }
        }
        self.now = self.end;
        progress(1.0);
    }

    // ----- network -----

    fn drop_packet(&mut self, pkt: u32) {
        let p = self.pool.pkts[pkt as usize];
        if p.kind != ACK && self.now >= self.warmup {
            self.flows[p.flow as usize].dropped += 1;
        }
        self.dropped += 1;
        self.pool.release(pkt);
    }

    #[inline]
    fn arrive(&mut self, pkt: u32) {
        let p = self.pool.pkts[pkt as usize];
        let r = self.routes[p.route as usize];
        if p.hop < r.len {
            self.link_arrive(r.links[p.hop as usize] as usize, pkt);
        } else {
            self.deliver(pkt);
        }
    }

    fn update_area(stats: &mut LinkStats, len: usize, now: u64, warmup: u64) {
        if now > warmup {
            let from = stats.last_change.max(warmup);
            stats.area += len as u128 * (now - from) as u128;
        }
        stats.last_change = now;
    }

    fn link_arrive(&mut self, l: usize, pkt: u32) {
        let now = self.now;
        let measuring = now >= self.warmup;
        let link = &mut self.links[l];
        if let Some(s) = link.stats.as_mut() {
            if measuring {
                s.arrivals += 1;
            }
        }
        if link.loss > 0.0 && self.rng.gen::<f64>() < link.loss {
            if let Some(s) = link.stats.as_mut() {
                if measuring {
                    s.random_drops += 1;
                }
            }
            self.drop_packet(pkt);
            return;
        }
        if link.rate.is_infinite() {
            self.propagate(l, pkt);
            return;
        }
        let size = self.pool.pkts[pkt as usize].size;
        if link.queue.is_fifo_analytic() {
            let tx = link.rate.tx_time_ns(size);
            let (q, res) = link
                .queue
                .offer_fifo(now, size, tx, link.typical_tx, &mut self.rng);
            if let Some(s) = link.stats.as_mut() {
                if measuring {
                    s.occ_sum += q as u64;
                    s.occ_n += 1;
                    let last = s.hist.len() - 1;
                    s.hist[q.min(last)] += 1;
                    s.max_q = s.max_q.max(q as u64 + res.is_some() as u64);
                    match res {
                        None => s.queue_drops += 1,
                        Some((start, _)) => {
                            s.add_qdelay(start - now);
                            s.departures += 1;
                        }
                    }
                }
                if let Some((start, end)) = res {
                    // Time-weighted queue: each packet waits from `now` to `start`; the
                    // link is busy from `start` to `end`. Both clipped to the window.
                    let clip = |a: u64, b: u64| b.min(self.end).saturating_sub(a.max(self.warmup));
                    s.area += clip(now, start) as u128;
                    s.busy_ns += clip(start, end);
                }
            }
            match res {
                None => self.drop_packet(pkt),
                Some((_, end)) => {
                    link.total_departures += 1;
                    self.propagate_at(l, pkt, end);
                }
            }
            return;
        }
        let q = link.queue.len();
        let admitted = link.queue.enqueue(
            QEntry {
                pkt,
                size,
                enq_at: now,
            },
            link.typical_tx,
            &mut self.rng,
        );
        if let Some(s) = link.stats.as_mut() {
            if measuring {
                s.occ_sum += q as u64;
                s.occ_n += 1;
                let last = s.hist.len() - 1;
                s.hist[q.min(last)] += 1;
                s.max_q = s.max_q.max(q as u64 + admitted as u64);
                if !admitted {
                    s.queue_drops += 1;
                }
            }
            if admitted {
                Self::update_area(s, q, now, self.warmup);
            }
        }
        if !admitted {
            self.drop_packet(pkt);
            return;
        }
        if !link.busy {
            self.start_tx(l);
        }
    }

    fn start_tx(&mut self, l: usize) {
        let now = self.now;
        let measuring = now >= self.warmup;
        let mut scratch = std::mem::take(&mut self.scratch);
        let link = &mut self.links[l];
        let before = link.queue.len();
        let e = link.queue.dequeue(now, self.mss, |d| scratch.push(d.pkt));
        if let Some(s) = link.stats.as_mut() {
            if before > 0 {
                Self::update_area(s, before, now, self.warmup);
            }
            if measuring {
                s.queue_drops += scratch.len() as u64;
            }
        }
        match e {
            None => link.busy = false,
            Some(e) => {
                let tx = link.rate.tx_time_ns(e.size);
                if let Some(s) = link.stats.as_mut() {
                    if measuring {
                        s.add_qdelay(now - e.enq_at);
                    }
                    s.busy_ns += (now + tx)
                        .min(self.end)
                        .saturating_sub(now.max(self.warmup));
                }
                link.busy = true;
                link.in_tx = e.pkt;
                self.ev.push(now + tx, Ev::TxDone(l as u32));
            }
        }
        for d in scratch.drain(..) {
            self.drop_packet(d);
        }
        self.scratch = scratch;
    }

    fn tx_done(&mut self, l: usize) {
        let link = &mut self.links[l];
        let pkt = link.in_tx;
        link.total_departures += 1;
        if let Some(s) = link.stats.as_mut() {
            if self.now >= self.warmup {
                s.departures += 1;
            }
        }
        self.propagate(l, pkt);
        self.start_tx(l);
    }

    #[inline]
    fn propagate(&mut self, l: usize, pkt: u32) {
        self.propagate_at(l, pkt, self.now);
    }

    /// The packet leaves link `l` at `out`; it reaches the next hop one propagation delay
    /// later. Following hops that only delay (infinite rate, no loss, no jitter, not
    /// monitored) are folded into the same event.
    #[inline]
    fn propagate_at(&mut self, l: usize, pkt: u32, out: u64) {
        let link = &mut self.links[l];
        let mut t = out + link.delay;
        if link.jitter > 0 {
            t += self.rng.gen_range(0..=link.jitter);
            t = t.max(link.last_out);
            link.last_out = t;
        }
        let p = &mut self.pool.pkts[pkt as usize];
        p.hop += 1;
        let r = &self.routes[p.route as usize];
        while p.hop < r.len {
            let nl = &self.links[r.links[p.hop as usize] as usize];
            if nl.rate.is_infinite() && nl.loss == 0.0 && nl.jitter == 0 && nl.stats.is_none() {
                t += nl.delay;
                p.hop += 1;
            } else {
                break;
            }
        }
        self.ev.push_via(l as u32, t, Ev::Arrive(pkt));
    }

    fn inject(&mut self, pkt: u32, fi: usize) {
        self.sent += 1;
        let f = &mut self.flows[fi];
        if f.send_jitter > 0 && self.pool.pkts[pkt as usize].kind != ACK {
            let t = (self.now + self.rng.gen_range(0..=f.send_jitter)).max(f.jitter_last);
            f.jitter_last = t;
            self.ev.push(t, Ev::Arrive(pkt));
        } else {
            self.arrive(pkt);
        }
    }

    fn deliver(&mut self, pkt: u32) {
        self.delivered += 1;
        let p = self.pool.pkts[pkt as usize];
        self.pool.release(pkt);
        let fi = p.flow as usize;
        match p.kind {
            DATA => self.receive_data(fi, &p),
            ACK => self.receive_ack(fi, &p),
            _ => self.count_delivered(fi, p.size as u64),
        }
    }

    fn count_delivered(&mut self, fi: usize, bytes: u64) {
        let f = &mut self.flows[fi];
        if self.now >= self.warmup {
            f.delivered_win += bytes;
        }
        f.sec_bytes += bytes;
        f.sample_bytes += bytes;
    }

    // ----- receiver -----

    fn receive_data(&mut self, fi: usize, p: &Packet) {
        let now = self.now;
        let mss = self.mss as u64;
        let f = &mut self.flows[fi];
        f.last_echo = Timestamp32(wire_clock(&f.rcv_clock, now))
            .delay_since(Timestamp32(p.ts))
            .0;
        let seq = p.seq;
        if seq < f.rcv_nxt {
            self.send_ack(fi, seq);
            return;
        }
        if seq > f.rcv_nxt {
            if !f.ooo.test(f.rcv_nxt, seq) {
                f.ooo.set(f.rcv_nxt, seq);
                f.ooo_count += 1;
            }
            self.send_ack(fi, seq);
            return;
        }
        let had_ooo = f.ooo_count > 0;
        f.rcv_nxt += 1;
        let mut adv = 1;
        while f.ooo_count > 0 && f.ooo.test_clear(f.rcv_nxt) {
            f.rcv_nxt += 1;
            f.ooo_count -= 1;
            adv += 1;
        }
        let delayed = f.tp.delayed_ack && !had_ooo;
        self.count_delivered(fi, adv * mss);
        let f = &mut self.flows[fi];
        if !delayed {
            self.send_ack(fi, seq);
            return;
        }
        f.pending_acks += 1;
        if f.pending_acks >= 2 {
            self.send_ack(fi, seq);
        } else if f.delack_deadline.is_none() {
            let t = now + f.tp.delack_timeout.as_nanos();
            f.delack_deadline = Some(t);
            self.ev.push(t, Ev::DelAck(fi as u32));
        }
    }

    fn on_delack(&mut self, fi: usize) {
        let f = &self.flows[fi];
        if f.delack_deadline == Some(self.now) && f.pending_acks > 0 {
            let last = f.rcv_nxt.saturating_sub(1);
            self.send_ack(fi, last);
        }
    }

    fn send_ack(&mut self, fi: usize, sack: u64) {
        let now = self.now;
        let f = &mut self.flows[fi];
        f.pending_acks = 0;
        f.delack_deadline = None;
        let p = Packet {
            seq: sack,
            cum: f.rcv_nxt,
            flow: fi as u32,
            size: self.ack_size,
            ts: wire_clock(&f.rcv_clock, now),
            echo: f.last_echo,
            route: f.ack_route,
            hop: 0,
            kind: ACK,
        };
        let id = self.pool.alloc(p);
        self.inject(id, fi);
    }

    // ----- sender -----

    fn rto_value(f: &Flow) -> u64 {
        let base = f.rtt.rto(f.tp.granularity, f.tp.min_rto).as_nanos();
        base.saturating_mul(1u64 << f.backoff.min(20))
            .min(f.tp.max_rto.as_nanos())
    }

    fn arm_rto(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        let d = now + Self::rto_value(f);
        f.rto_deadline = Some(d);
        if f.rto_ev.is_none_or(|e| e > d) {
            f.rto_ev = Some(d);
            self.ev.push(d, Ev::Rto(fi as u32));
        }
    }

    fn schedule_wake(&mut self, fi: usize, t: u64) {
        let f = &mut self.flows[fi];
        if f.wake_at.is_none_or(|w| w > t || w < self.now) {
            f.wake_at = Some(t);
            self.ev.push(t, Ev::Wake(fi as u32));
        }
    }

    fn schedule_tick(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if let Some(t) = f.cc.as_ref().and_then(|c| c.next_tick()) {
            let t = t.as_nanos().max(now);
            if f.tick_at.is_none_or(|x| x > t || x < now) {
                f.tick_at = Some(t);
                self.ev.push(t, Ev::Tick(fi as u32));
            }
        }
    }

    fn on_wake(&mut self, fi: usize) {
        let f = &mut self.flows[fi];
        if f.wake_at.is_some_and(|w| w <= self.now) {
            f.wake_at = None;
        }
        self.try_send(fi);
    }

    fn on_tick(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if f.tick_at.is_some_and(|t| t <= now) {
            f.tick_at = None;
        }
        if let Some(cc) = f.cc.as_mut() {
            if cc.next_tick().is_some_and(|t| t.as_nanos() <= now) {
                cc.on_tick(Instant::from_nanos(now));
            }
        }
        self.try_send(fi);
        self.schedule_tick(fi);
    }

    fn try_send(&mut self, fi: usize) {
        let now = self.now;
        let mss = self.mss as u64;
        loop {
            let f = &mut self.flows[fi];
            if !f.active {
                return;
            }
            let Some(cc) = f.cc.as_ref() else { return };
            let mut gate = f.interrupted_until;
            if let Some(p) = cc.pause_until() {
                gate = gate.max(p.as_nanos());
            }
            if let Some(r) = cc.pacing_rate() {
                if r > 0 && f.tx_count > 0 {
                    gate = gate.max(f.last_send + mss * 1_000_000_000 / r);
                }
            }
            if gate > now {
                self.schedule_wake(fi, gate);
                return;
            }
            let f = &mut self.flows[fi];
            let mut retx = None;
            while let Some(&s) = f.retx.front() {
                if s >= f.snd_una && f.board.get(s).flags & (LOST | SACKED) == LOST {
                    retx = Some(s);
                    break;
                }
                f.retx.pop_front();
            }
            let seq = match retx {
                Some(s) => s,
                None if f.snd_nxt < f.app_limit => f.snd_nxt,
                None => return,
            };
            let idle_restart = retx.is_none()
                && f.in_flight == 0
                && f.snd_una == f.snd_nxt
                && f.tx_count > 0
                && now - f.last_activity >= Self::rto_value(f);
            let cc = f.cc.as_mut().expect("checked above");
            if f.in_flight > 0 && f.in_flight + mss > cc.window() {
                return;
            }
            if idle_restart {
                cc.on_timeout(Instant::from_nanos(now), Timeout::Idle);
            }
            self.transmit(fi, seq, retx.is_some());
        }
    }

    fn transmit(&mut self, fi: usize, seq: u64, is_retx: bool) {
        let now = self.now;
        let mss = self.mss as u64;
        let measuring = now >= self.warmup;
        let f = &mut self.flows[fi];
        f.tx_count += 1;
        if is_retx {
            f.retx.pop_front();
            f.retx_pkts += measuring as u64;
        } else {
            f.board.make_room(f.snd_una, f.snd_nxt + 1);
            *f.board.get(seq) = Seg::default();
            f.snd_nxt += 1;
        }
        let tx = f.tx_count;
        let seg = f.board.get(seq);
        seg.sent_at = now;
        seg.tx = tx;
        seg.flags = (seg.flags & !LOST) | OUT | if is_retx { RETRANS } else { 0 };
        f.in_flight += mss;
        f.sent_list.push_back((tx, seq));
        f.last_send = now;
        f.last_activity = now;
        f.sent_pkts += measuring as u64;
        let in_flight = f.in_flight;
        if let Some(cc) = f.cc.as_mut() {
            cc.on_sent(Instant::from_nanos(now), mss, in_flight);
        }
        let need_rto = f.rto_deadline.is_none();
        let p = Packet {
            seq,
            cum: 0,
            flow: fi as u32,
            size: self.mss,
            ts: wire_clock(&f.snd_clock, now),
            echo: 0,
            route: f.data_route,
            hop: 0,
            kind: DATA,
        };
        if need_rto {
            self.arm_rto(fi);
        }
        let id = self.pool.alloc(p);
        self.inject(id, fi);
    }

    fn receive_ack(&mut self, fi: usize, p: &Packet) {
        let now = self.now;
        let mss = self.mss as u64;
        let f = &mut self.flows[fi];
        if f.cc.is_none() {
            return;
        }
        let flight_before = f.in_flight;
        let mut bytes = 0u64;
        let mut pkts = 0u32;
        let mut rtt: Option<u64> = None;
        let mut newest_sent = 0u64;
        let mut acked_tx = 0u64;
        let cum = p.cum.min(f.snd_nxt);
        let mut advanced = false;
        if cum > f.snd_una {
            for s in f.snd_una..cum {
                let seg = *f.board.get(s);
                if seg.flags & SACKED == 0 {
                    if seg.counted() {
                        f.in_flight -= mss;
                    }
                    bytes += mss;
                    pkts += 1;
                    if s + 1 == cum && seg.flags & RETRANS == 0 {
                        rtt = Some(now - seg.sent_at);
                    }
                    newest_sent = newest_sent.max(seg.sent_at);
                }
                acked_tx = acked_tx.max(seg.tx);
            }
            f.snd_una = cum;
            f.backoff = 0;
            advanced = true;
        }
        let s = p.seq;
        if s >= f.snd_una && s < f.snd_nxt {
            let seg = f.board.get(s);
            if seg.flags & SACKED == 0 {
                if seg.counted() {
                    f.in_flight -= mss;
                }
                seg.flags |= SACKED;
                bytes += mss;
                pkts += 1;
                if seg.flags & RETRANS == 0 {
                    rtt = Some(now - seg.sent_at);
                }
                newest_sent = newest_sent.max(seg.sent_at);
            }
            acked_tx = acked_tx.max(seg.tx);
        }
        f.h_tx = f.h_tx.max(acked_tx);
        f.last_activity = now;
        if pkts > 0 {
            let samples = [DelaySample(p.echo)];
            let rev = Timestamp32(wire_clock(&f.snd_clock, now)).delay_since(Timestamp32(p.ts));
            let rtt = rtt.map(Duration::from_nanos);
            if let Some(r) = rtt {
                f.rtt.on_sample(r);
                if now >= self.warmup {
                    f.rtt_sum_ms += r.as_millis_f64();
                    f.rtt_n += 1;
                }
            }
            let ack = Ack {
                bytes_acked: bytes,
                packets_acked: pkts,
                flight_before,
                delay_samples: &samples,
                rtt,
                reverse_delay: Some(rev),
                newest_sent: Instant::from_nanos(newest_sent),
            };
            if let Some(cc) = f.cc.as_mut() {
                cc.on_ack(Instant::from_nanos(now), &ack);
            }
        }
        // Loss detection in transmission order.
        let thresh = f.tp.dupthresh as u64;
        while let Some(&(tx, s)) = f.sent_list.front() {
            if s < f.snd_una {
                f.sent_list.pop_front();
                continue;
            }
            let seg = f.board.get(s);
            if seg.tx != tx || seg.flags & (SACKED | LOST) != 0 {
                f.sent_list.pop_front();
                continue;
            }
            if tx + thresh > f.h_tx {
                break;
            }
            let in_flight_before = f.in_flight;
            if seg.counted() {
                f.in_flight -= mss;
            }
            seg.flags |= LOST;
            let loss = Loss {
                bytes: mss,
                sent_at: Instant::from_nanos(seg.sent_at),
                in_flight: in_flight_before,
            };
            f.retx.push_back(s);
            f.losses += (now >= self.warmup) as u64;
            f.sent_list.pop_front();
            if let Some(cc) = f.cc.as_mut() {
                cc.on_loss(Instant::from_nanos(now), &loss);
            }
        }
        if advanced {
            if f.snd_una < f.snd_nxt {
                self.arm_rto(fi);
            } else {
                self.flows[fi].rto_deadline = None;
            }
        }
        self.check_unit_done(fi);
        self.try_send(fi);
        self.schedule_tick(fi);
    }

    fn on_rto(&mut self, fi: usize) {
        let now = self.now;
        let mss = self.mss as u64;
        let f = &mut self.flows[fi];
        if f.rto_ev == Some(now) {
            f.rto_ev = None;
        }
        let Some(d) = f.rto_deadline else { return };
        if d > now {
            if f.rto_ev.is_none_or(|e| e > d) {
                f.rto_ev = Some(d);
                self.ev.push(d, Ev::Rto(fi as u32));
            }
            return;
        }
        if f.snd_una == f.snd_nxt || !f.active {
            f.rto_deadline = None;
            return;
        }
        f.timeouts += (now >= self.warmup) as u64;
        f.backoff = (f.backoff + 1).min(20);
        if let Some(cc) = f.cc.as_mut() {
            cc.on_timeout(Instant::from_nanos(now), Timeout::Retransmission);
        }
        f.retx.clear();
        f.sent_list.clear();
        for s in f.snd_una..f.snd_nxt {
            let seg = f.board.get(s);
            if seg.flags & SACKED == 0 {
                if seg.counted() {
                    f.in_flight -= mss;
                }
                seg.flags |= LOST;
                f.retx.push_back(s);
            }
        }
        self.arm_rto(fi);
        self.try_send(fi);
        self.schedule_tick(fi);
    }

    // ----- applications -----

    fn new_connection(&mut self, fi: usize) {
        let mss = self.mss;
        let f = &mut self.flows[fi];
        if let Some(cfg) = &f.cc_cfg {
            // Validated when the flow was built, so this cannot fail.
            if let Ok(c) = cfg.build(mss) {
                f.cc = Some(c);
            }
        }
        f.rtt = RttEstimator::default();
        f.backoff = 0;
    }

    fn start_unit(&mut self, fi: usize, pkts: u64) {
        let now = self.now;
        let f = &mut self.flows[fi];
        f.unit_active = true;
        f.unit_start = now;
        f.unit_start_seq = f.app_limit;
        f.app_limit += pkts;
    }

    fn check_unit_done(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if !f.unit_active || f.snd_una < f.app_limit {
            return;
        }
        if let App::Sessions { chunks, .. } = f.app {
            if f.chunks_written < chunks {
                return;
            }
        }
        f.unit_active = false;
        f.completions.push(Completion {
            start_s: f.unit_start as f64 * 1e-9,
            time_s: (now - f.unit_start) as f64 * 1e-9,
            packets: f.app_limit - f.unit_start_seq,
        });
        match f.app.clone() {
            App::Transfer { .. } => {
                f.active = false;
                f.finished_at = Some(now);
                f.rto_deadline = None;
            }
            App::Chunks { pkts, pp, peers } => {
                let stay = pp >= 1.0 || self.rng.gen::<f64>() < pp;
                if !stay {
                    self.new_connection(fi);
                    let f = &self.flows[fi];
                    let candidates: Vec<u32> =
                        peers.iter().copied().filter(|p| *p != f.to).collect();
                    if !candidates.is_empty() {
                        let to = candidates[self.rng.gen_range(0..candidates.len())];
                        let from = f.from;
                        let (d, a) = self.star_routes(from, to);
                        let clock = self.star[to as usize].2;
                        let f = &mut self.flows[fi];
                        f.to = to;
                        f.data_route = d;
                        f.ack_route = a;
                        f.rcv_clock = clock;
                    }
                }
                self.start_unit(fi, pkts);
            }
            App::Sessions { think, .. } => {
                let t = now + uniform(&mut self.rng, think);
                self.ev.push(t, Ev::App(fi as u32));
            }
            _ => {}
        }
    }

    fn on_start(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if now >= f.stop {
            return;
        }
        f.active = true;
        f.last_activity = now;
        if let Some(x) = &f.interrupts {
            let t = now + uniform(&mut self.rng, ns2(x.every));
            self.ev.push(t, Ev::Interrupt(fi as u32));
        }
        match self.flows[fi].app.clone() {
            App::Backlogged => self.flows[fi].app_limit = u64::MAX,
            App::Transfer { pkts } | App::Chunks { pkts, .. } => self.start_unit(fi, pkts),
            App::Cbr { .. } | App::Bursty { .. } | App::Sessions { .. } => {
                self.ev.push(now, Ev::App(fi as u32))
            }
        }
        self.try_send(fi);
        self.schedule_tick(fi);
    }

    fn on_stop(&mut self, fi: usize) {
        let f = &mut self.flows[fi];
        f.active = false;
        f.rto_deadline = None;
    }

    fn on_interrupt(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        let Some(x) = f.interrupts.clone() else {
            return;
        };
        if !f.active {
            return;
        }
        f.interrupted_until = now + uniform(&mut self.rng, ns2(x.length));
        let next = now + uniform(&mut self.rng, ns2(x.every)).max(1);
        self.ev.push(next, Ev::Interrupt(fi as u32));
        let until = self.flows[fi].interrupted_until;
        self.schedule_wake(fi, until);
    }

    fn on_app(&mut self, fi: usize) {
        let now = self.now;
        if !self.flows[fi].active {
            return;
        }
        match self.flows[fi].app.clone() {
            App::Cbr { interval, size } => {
                let f = &mut self.flows[fi];
                f.sent_pkts += (now >= self.warmup) as u64;
                let p = Packet {
                    seq: f.tx_count,
                    cum: 0,
                    flow: fi as u32,
                    size,
                    ts: wire_clock(&f.snd_clock, now),
                    echo: 0,
                    route: f.data_route,
                    hop: 0,
                    kind: UDP,
                };
                f.tx_count += 1;
                let id = self.pool.alloc(p);
                self.inject(id, fi);
                self.ev.push(now + interval, Ev::App(fi as u32));
            }
            App::Bursty {
                packets,
                period,
                buffer,
            } => {
                let f = &mut self.flows[fi];
                let queued = f.app_limit - f.snd_nxt;
                let room = buffer.saturating_sub(queued);
                let add = packets.min(room);
                f.app_limit += add;
                f.app_discarded += packets - add;
                self.ev.push(now + period, Ev::App(fi as u32));
                self.try_send(fi);
            }
            App::Sessions {
                chunks, cp, gap, ..
            } => {
                if !self.flows[fi].unit_active {
                    self.new_connection(fi);
                    self.start_unit(fi, 0);
                    self.flows[fi].chunks_written = 0;
                }
                let n = uniform(&mut self.rng, [cp[0] as u64, cp[1] as u64]);
                let f = &mut self.flows[fi];
                f.app_limit += n;
                f.chunks_written += 1;
                if f.chunks_written < chunks {
                    let t = now + uniform(&mut self.rng, gap);
                    self.ev.push(t, Ev::App(fi as u32));
                }
                self.try_send(fi);
            }
            _ => {}
        }
    }

    // ----- measurement -----

    fn on_sample(&mut self) {
        let now = self.now;
        let measuring = now >= self.warmup;
        let keep = self.sc.series;
        let mss = self.mss as f64;
        let secs = self.sample_ns as f64 * 1e-9;
        for f in &mut self.flows {
            let (cwnd, qd) = match (&f.cc, f.active) {
                (Some(cc), true) => {
                    let m = cc.metrics();
                    (
                        cc.window() as f64 / mss,
                        m.queuing_delay.map_or(f64::NAN, |d| d.as_millis_f64()),
                    )
                }
                _ => (0.0, f64::NAN),
            };
            if measuring && f.active && f.cc.is_some() {
                f.cwnd_w.add(cwnd);
            }
            if keep {
                f.s_cwnd.push(cwnd);
                f.s_rate.push(f.sample_bytes as f64 * 8.0 / secs / 1e6);
                f.s_qd.push(qd);
            }
            f.sample_bytes = 0;
        }
        if keep {
            self.series_t.push(now as f64 * 1e-9);
            for (k, &l) in self.monitored.iter().take(8).enumerate() {
                let q = &self.links[l].queue;
                let len = if q.is_fifo_analytic() {
                    q.waiting_at(now)
                } else {
                    q.len()
                };
                self.series_links[k].push(len as u32);
            }
        }
        if now + self.sample_ns <= self.end {
            self.ev.push(now + self.sample_ns, Ev::Sample);
        }
    }

    fn on_second(&mut self) {
        for f in &mut self.flows {
            f.per_sec.push(f.sec_bytes as f64 * 8.0);
            f.sec_bytes = 0;
        }
        let next = self.now + 1_000_000_000;
        if next <= self.end {
            self.ev.push(next, Ev::Second);
        }
    }

    fn finish(mut self, seed: u64) -> RunResult {
        let now = self.end;
        let window = (self.end - self.warmup).max(1) as f64 * 1e-9;
        // Close the time-weighted queue areas.
        for l in &mut self.links {
            let len = l.queue.len();
            if l.queue.is_fifo_analytic() {
                continue;
            }
            if let Some(s) = l.stats.as_mut() {
                Self::update_area(s, len, now, self.warmup);
            }
        }
        let mut flows = Vec::with_capacity(self.flows.len());
        let mut total = 0.0;
        let mut shares: BTreeMap<String, f64> = BTreeMap::new();
        let (mut sent, mut dropped) = (0u64, 0u64);
        for f in &self.flows {
            let thr = f.delivered_win as f64 * 8.0 / window;
            total += thr;
            *shares.entry(f.ctrl.clone()).or_default() += thr;
            sent += f.sent_pkts;
            dropped += f.dropped;
            flows.push(FlowResult {
                name: f.name.clone(),
                controller: f.ctrl.clone(),
                sent_packets: f.sent_pkts,
                retransmits: f.retx_pkts,
                timeouts: f.timeouts,
                losses_detected: f.losses,
                dropped_packets: f.dropped,
                loss_rate: if f.sent_pkts > 0 {
                    f.dropped as f64 / f.sent_pkts as f64
                } else {
                    0.0
                },
                delivered_bytes: f.delivered_win,
                throughput_bps: thr,
                cwnd_mean_pkts: f.cwnd_w.mean(),
                cwnd_sd_pkts: f.cwnd_w.sd(),
                rtt_mean_ms: (f.rtt_n > 0).then(|| f.rtt_sum_ms / f.rtt_n as f64),
                time_to_steady_s: self.steady_time(f),
                completions: f.completions.clone(),
                app_discarded: f.app_discarded,
            });
        }
        let tcp: f64 = flows
            .iter()
            .filter(|f| TCP_CONTROLLERS.contains(&f.controller.as_str()))
            .fold(0.0, |a, f| a + f.throughput_bps);
        for v in shares.values_mut() {
            *v = if total > 0.0 { *v / total } else { 0.0 };
        }
        let thr: Vec<f64> = flows.iter().map(|f| f.throughput_bps).collect();
        let aggregate = Aggregate {
            throughput_bps: total,
            efficiency: if self.capacity_bps > 0.0 {
                total / self.capacity_bps
            } else {
                0.0
            },
            jain_long: jain(&thr),
            jain_short: self.jain_short(),
            tcp_share: if total > 0.0 { tcp / total } else { 0.0 },
            protocol_share: shares,
            loss_rate: if sent > 0 {
                dropped as f64 / sent as f64
            } else {
                0.0
            },
            primary_link: self.primary,
        };
        let links = self
            .monitored
            .iter()
            .map(|&l| self.link_result(l, window))
            .collect();
        let series = self.sc.series.then(|| Series {
            t_s: std::mem::take(&mut self.series_t),
            flows: self
                .flows
                .iter_mut()
                .map(|f| FlowSeries {
                    name: f.name.clone(),
                    cwnd_pkts: std::mem::take(&mut f.s_cwnd),
                    rate_mbps: std::mem::take(&mut f.s_rate),
                    qdelay_ms: std::mem::take(&mut f.s_qd),
                })
                .collect(),
            links: self
                .monitored
                .iter()
                .take(8)
                .zip(std::mem::take(&mut self.series_links))
                .map(|(&l, q)| LinkSeries {
                    name: self.links[l].name.clone(),
                    queue_pkts: q,
                })
                .collect(),
        });
        let in_network = self.pool.live;
        let bottleneck_packets = match self.primary {
            Some(p) => self.links[p].total_departures,
            None => self
                .monitored
                .iter()
                .map(|&l| self.links[l].total_departures)
                .sum(),
        };
        RunResult {
            scenario: self.sc.name.clone(),
            seed,
            duration_s: self.sc.duration.as_secs_f64(),
            warmup_s: self.sc.warmup.as_secs_f64(),
            capacity_bps: self.capacity_bps,
            aggregate,
            flows,
            links,
            conservation: Conservation {
                sent: self.sent,
                delivered: self.delivered,
                dropped: self.dropped,
                in_network,
                holds: self.sent == self.delivered + self.dropped + in_network,
            },
            engine: EngineStats {
                events: self.ev.processed(),
                bottleneck_packets,
                peak_packets: self.pool.peak,
                peak_events: self.ev.peak() as u64,
            },
            series,
        }
    }

    fn link_result(&self, l: usize, window: f64) -> LinkResult {
        let link = &self.links[l];
        let s = link.stats.as_ref().expect("monitored links have stats");
        let mut hist = s.hist.clone();
        while hist.len() > 1 && hist.last() == Some(&0) {
            hist.pop();
        }
        let mean_arr = if s.occ_n > 0 {
            s.occ_sum as f64 / s.occ_n as f64
        } else {
            0.0
        };
        let ms = |ns: f64| ns * 1e-6;
        let (qd_mean, qd_sd) = s.qdelay_mean_sd();
        LinkResult {
            name: link.name.clone(),
            rate_bps: if link.rate.is_infinite() {
                f64::INFINITY
            } else {
                link.rate.0 as f64
            },
            buffer_pkts: link.limit,
            arrivals: s.arrivals,
            departures: s.departures,
            queue_drops: s.queue_drops,
            random_drops: s.random_drops,
            loss_rate: if s.arrivals > 0 {
                (s.queue_drops + s.random_drops) as f64 / s.arrivals as f64
            } else {
                0.0
            },
            utilisation: s.busy_ns as f64 * 1e-9 / window,
            queue_mean_arrival_pkts: mean_arr,
            queue_mean_time_pkts: s.area as f64 * 1e-9 / window,
            queue_mean_over_buffer: link.limit.map(|b| mean_arr / b as f64),
            queue_max_pkts: s.max_q,
            queue_hist: hist,
            qdelay_mean_ms: ms(qd_mean),
            qdelay_sd_ms: ms(qd_sd),
            qdelay_p95_ms: s.qd_hist.quantile(0.95).map(|us| us * 1e-3),
            qdelay_p99_ms: s.qd_hist.quantile(0.99).map(|us| us * 1e-3),
        }
    }

    /// Window `k` covers `[k s, (k+1) s)`; a flow is active in it when it ran throughout.
    fn window_active(&self, f: &Flow, k: usize) -> bool {
        let ws = k as u64 * 1_000_000_000;
        let we = ws + 1_000_000_000;
        f.start <= ws && f.stop >= we && f.finished_at.is_none_or(|t| t >= we)
    }

    fn jain_short(&self) -> Option<f64> {
        let n = self.flows.first().map_or(0, |f| f.per_sec.len());
        let mut acc = Welford::default();
        let mut xs = Vec::new();
        for k in 0..n {
            xs.clear();
            xs.extend(
                self.flows
                    .iter()
                    .filter(|f| k as u64 * 1_000_000_000 >= self.warmup && self.window_active(f, k))
                    .map(|f| f.per_sec[k]),
            );
            if let Some(j) = jain(&xs) {
                acc.add(j);
            }
        }
        (acc.count() > 0).then(|| acc.mean())
    }

    /// Start of the first 1 s window after which every window's throughput stays within
    /// 20 % of the mean over the second half of the flow's active windows.
    fn steady_time(&self, f: &Flow) -> Option<f64> {
        let ks: Vec<usize> = (0..f.per_sec.len())
            .filter(|&k| self.window_active(f, k))
            .collect();
        if ks.len() < 2 {
            return None;
        }
        let half = &ks[ks.len() / 2..];
        let m = half.iter().map(|&k| f.per_sec[k]).sum::<f64>() / half.len() as f64;
        if m <= 0.0 {
            return None;
        }
        let mut first = None;
        for &k in ks.iter().rev() {
            if (f.per_sec[k] - m).abs() <= 0.2 * m {
                first = Some(k);
            } else {
                break;
            }
        }
        first.map(|k| ((k as u64 * 1_000_000_000).saturating_sub(f.start)) as f64 * 1e-9)
    }
}
