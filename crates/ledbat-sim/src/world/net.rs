//! Links, routes and the packet pool.
//!
//! A link has a rate, a propagation delay, optional per-packet jitter (uniform in
//! `[0, jitter]`, never reordering: a packet leaves no earlier than its predecessor),
//! optional random loss, and an output [`Queue`]. A packet being serialised is not in the
//! queue (ns-2 convention). Infinite-rate links only delay. Packets live in preallocated
//! pool slots, so steady state allocates nothing per packet.

use super::World;
use crate::engine::Ev;
use crate::queue::{Dequeue, QEntry, Queue, TokenBucket};
use crate::scenario::QueueConfig;
use crate::stats::{DequeueStats, LogHistogram};
use crate::units::Rate;
use ledbat_core::{Duration, Instant};
use rand::Rng;

/// What a packet is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Kind {
    /// Transport data, acknowledged.
    #[default]
    Data,
    /// Transport acknowledgement.
    Ack,
    /// Unacknowledged datagram (CBR).
    Udp,
}

/// A packet in flight: a few words, copied freely. It carries its route (a copy, 20
/// bytes), so that each hop reads the packet's line and not also a route's, and a slot is
/// one cache line (`align(64)`: 64 bytes, where 48 bytes put every other slot across two).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
pub(super) struct Packet {
    /// Data: sequence. ACK: the SACKed sequence.
    pub seq: u64,
    /// ACK: cumulative next-expected sequence.
    pub cum: u64,
    pub flow: u32,
    pub size: u32,
    /// Sender's 32-bit microsecond wire timestamp.
    pub ts: u32,
    /// ACK: the one-way-delay sample echoed back.
    pub echo: u32,
    /// ACK: the echoed timestamp (RFC 7323 TSecr).
    pub tsecr: u32,
    pub route: Route,
    /// Index of the next link on the route.
    pub hop: u8,
    pub kind: Kind,
}

#[derive(Debug, Default)]
pub(super) struct Pool {
    pub pkts: Vec<Packet>,
    free: Vec<u32>,
    pub live: u64,
    pub peak: u64,
}

impl Pool {
    #[inline]
    pub fn alloc(&mut self, p: Packet) -> u32 {
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
    pub fn release(&mut self, i: u32) {
        self.live -= 1;
        self.free.push(i);
    }
}

/// Up to four links, traversed in order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Route {
    pub links: [u32; 4],
    pub len: u8,
    /// Bit `i` set: link `links[i]` only delays (infinite rate, no loss, no jitter, not
    /// monitored), so that a packet crosses it in the event that brings it there
    /// (`World::propagate_at`). A link's properties are fixed before a route uses it.
    delay_only: u8,
}

/// Measurement counters of a monitored link (integer nanoseconds and packet counts, added
/// per packet).
#[derive(Debug)]
pub(super) struct LinkStats {
    pub arrivals: u64,
    pub departures: u64,
    pub queue_drops: u64,
    pub random_drops: u64,
    pub occ_sum: u64,
    pub occ_n: u64,
    /// Time-weighted queue length, packet-nanoseconds.
    pub area: u128,
    pub last_change: u64,
    pub busy_ns: u64,
    pub max_q: u64,
    pub hist: Vec<u64>,
    /// Queueing-delay sum, sum of squares (ns, ns^2) and count: integer adds per packet.
    qd_sum: u128,
    qd_sq: u128,
    qd_n: u64,
    pub qd_hist: LogHistogram,
    /// The queue each dequeue whose packet entered service in the window left behind.
    pub deq: DequeueStats,
    /// Whether the arrival count, the occupancy histogram and mean, the time-weighted
    /// queue and the queueing-delay histogram are kept; false for a swarm's uplinks, whose
    /// report reads none of them ([`Link::swarm_uplink`]).
    pub full: bool,
}

impl LinkStats {
    fn new(hist_len: usize) -> Self {
        LinkStats {
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
            deq: DequeueStats::default(),
            full: true,
        }
    }
    /// Counts dequeue `d` of a link of `rate_bps` if it happened in `[warmup, end]` (ns).
    #[inline]
    pub fn add_dequeue(&mut self, d: Dequeue, rate_bps: u64, warmup: u64, end: u64) {
        if warmup <= d.at && d.at <= end {
            self.deq.add(d, rate_bps);
        }
    }
    #[inline]
    fn add_qdelay(&mut self, qd: u64) {
        self.qd_sum += qd as u128;
        self.qd_sq += qd as u128 * qd as u128;
        self.qd_n += 1;
        if self.full {
            self.qd_hist.add(qd / 1000);
        }
    }
    pub fn qdelay_mean_sd(&self) -> (f64, f64) {
        if self.qd_n == 0 {
            return (0.0, 0.0);
        }
        let n = self.qd_n as f64;
        let mean = self.qd_sum as f64 / n;
        let var = (self.qd_sq as f64 / n - mean * mean).max(0.0);
        (mean, var.sqrt())
    }
    /// Adds `len` packets over `[last_change, now]`, clipped to after `warmup`.
    pub fn update_area(&mut self, len: usize, now: u64, warmup: u64) {
        if now > warmup {
            let from = self.last_change.max(warmup);
            self.area += len as u128 * (now - from) as u128;
        }
        self.last_change = now;
    }
}

const OCC_HIST_MAX: usize = 4096;

/// A link. A swarm has some 150 links taking turns, so a packet finds its link's lines
/// cold: what a packet reads comes first (`repr(C)`, `align(64)`), the scalars on the first
/// cache line and the [`Queue`] (64 bytes) on the second, the name and the rest after.
#[derive(Debug)]
#[repr(C, align(64))]
pub(super) struct Link {
    pub stats: Option<Box<LinkStats>>,
    pub rate: Rate,
    pub delay: Duration,
    pub jitter: Duration,
    pub loss: f64,
    /// Serialisation time of one MSS packet, ns (queue disciplines' unit).
    typical_tx: u64,
    pub total_departures: u64,
    in_tx: u32,
    busy: bool,
    pub queue: Queue,
    last_out: Instant,
    pub limit: Option<u32>,
    /// A token bucket in front of the queue (`tbf`'s; drop-tail and RED links only).
    pub bucket: Option<TokenBucket>,
    pub name: String,
}

impl Link {
    pub fn new(
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
            stats: monitor.then(|| Box::new(LinkStats::new(hist_len))),
            rate,
            delay,
            jitter: Duration::ZERO,
            loss,
            typical_tx: rate.tx_time_ns(mss),
            total_departures: 0,
            in_tx: 0,
            busy: false,
            queue: Queue::for_link(q, prealloc, Some(rate.0), delay.as_nanos()),
            last_out: Instant::ZERO,
            limit: q.packet_limit(),
            bucket: None,
            name,
        }
    }

    /// The link monitored as a swarm's uplink: the figures the swarm report reads (busy
    /// time, drops, departures, the largest queue, the mean queueing delay, the dequeues)
    /// and not the per-packet histograms and counts of a scenario's links, which it does
    /// not.
    pub fn swarm_uplink(mut self) -> Link {
        let mut s = LinkStats::new(0);
        s.full = false;
        self.stats = Some(Box::new(s));
        self
    }
}

impl World<'_> {
    pub(super) fn add_route(&mut self, links: &[u32]) -> u32 {
        let mut r = Route {
            links: [0; 4],
            len: links.len() as u8,
            delay_only: 0,
        };
        r.links[..links.len()].copy_from_slice(links);
        for (i, &l) in links.iter().enumerate() {
            let l = &self.links[l as usize];
            if l.rate.is_infinite() && l.loss == 0.0 && l.jitter.is_zero() && l.stats.is_none() {
                r.delay_only |= 1 << i;
            }
        }
        self.routes.push(r);
        (self.routes.len() - 1) as u32
    }

    /// Star: (data route a -> b, ACK route b -> a), created once per pair.
    pub(super) fn star_routes(&mut self, a: u32, b: u32) -> (u32, u32) {
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

    fn drop_packet(&mut self, pkt: u32) {
        let p = self.pool.pkts[pkt as usize];
        if p.kind != Kind::Ack && self.measuring() {
            self.flows[p.flow as usize].stats.dropped += 1;
        }
        self.dropped += 1;
        self.pool.release(pkt);
    }

    #[inline]
    pub(super) fn arrive(&mut self, pkt: u32) {
        let p = &self.pool.pkts[pkt as usize];
        if p.hop < p.route.len {
            self.link_arrive(p.route.links[p.hop as usize] as usize, pkt);
        } else {
            self.deliver(pkt);
        }
    }

    fn link_arrive(&mut self, l: usize, pkt: u32) {
        let measuring = self.measuring();
        let (now, warmup, end) = (
            self.now.as_nanos(),
            self.warmup.as_nanos(),
            self.end.as_nanos(),
        );
        let link = &mut self.links[l];
        if let Some(s) = link.stats.as_mut() {
            if measuring && s.full {
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
            let rate = link.rate.0;
            let stats = &mut link.stats;
            let shaped = link.bucket.is_some();
            let (q, res) = link.queue.offer_fifo(
                now,
                size,
                tx,
                link.typical_tx,
                link.bucket.as_mut(),
                &mut self.rng,
                &mut |d| {
                    if let Some(s) = stats.as_mut() {
                        s.add_dequeue(d, rate, warmup, end);
                    }
                },
            );
            if let Some(s) = link.stats.as_mut() {
                if measuring {
                    if s.full {
                        s.occ_sum += q as u64;
                        s.occ_n += 1;
                        let last = s.hist.len() - 1;
                        s.hist[q.min(last)] += 1;
                    }
                    s.max_q = s.max_q.max(q as u64 + res.is_some() as u64);
                    match res {
                        None => s.queue_drops += 1,
                        Some((start, _)) => {
                            s.add_qdelay(start - now);
                            s.departures += 1;
                        }
                    }
                }
                if let Some((start, end_tx)) = res {
                    // Time-weighted queue: each packet waits from `now` to `start`; the
                    // link is busy from `start` to `end_tx`. Both clipped to the window.
                    // Behind a bucket a packet leaves at once; the link counts busy for
                    // the packet's time at the rate before it leaves.
                    let clip = |a: u64, b: u64| b.min(end).saturating_sub(a.max(warmup));
                    if s.full {
                        s.area += clip(now, start) as u128;
                    }
                    let busy_from = if shaped {
                        end_tx.saturating_sub(tx)
                    } else {
                        start
                    };
                    s.busy_ns += clip(busy_from, end_tx);
                }
            }
            match res {
                None => self.drop_packet(pkt),
                Some((_, out)) => {
                    link.total_departures += 1;
                    self.propagate_at(l, pkt, Instant::from_nanos(out));
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
                if s.full {
                    s.occ_sum += q as u64;
                    s.occ_n += 1;
                    let last = s.hist.len() - 1;
                    s.hist[q.min(last)] += 1;
                }
                s.max_q = s.max_q.max(q as u64 + admitted as u64);
                if !admitted {
                    s.queue_drops += 1;
                }
            }
            if admitted {
                s.update_area(q, now, warmup);
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
        let measuring = self.measuring();
        let (now, warmup, end) = (
            self.now.as_nanos(),
            self.warmup.as_nanos(),
            self.end.as_nanos(),
        );
        let mut scratch = std::mem::take(&mut self.scratch);
        let link = &mut self.links[l];
        let before = link.queue.len();
        let e = link.queue.dequeue(now, self.mss, |d| scratch.push(d.pkt));
        if let Some(s) = link.stats.as_mut() {
            if before > 0 {
                s.update_area(before, now, warmup);
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
                    let left = Dequeue {
                        at: now,
                        pkts: link.queue.len(),
                        bytes: link.queue.bytes(),
                    };
                    s.add_dequeue(left, link.rate.0, warmup, end);
                    s.busy_ns += (now + tx).min(end).saturating_sub(now.max(warmup));
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

    pub(super) fn tx_done(&mut self, l: usize) {
        let measuring = self.measuring();
        let link = &mut self.links[l];
        let pkt = link.in_tx;
        link.total_departures += 1;
        if let Some(s) = link.stats.as_mut() {
            if measuring {
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
    fn propagate_at(&mut self, l: usize, pkt: u32, out: Instant) {
        let link = &mut self.links[l];
        let mut t = out + link.delay;
        if !link.jitter.is_zero() {
            t += Duration::from_nanos(self.rng.gen_range(0..=link.jitter.as_nanos()));
            t = t.max(link.last_out);
            link.last_out = t;
        }
        let p = &mut self.pool.pkts[pkt as usize];
        p.hop += 1;
        let r = &p.route;
        while p.hop < r.len && r.delay_only & (1 << p.hop) != 0 {
            t += self.links[r.links[p.hop as usize] as usize].delay;
            p.hop += 1;
        }
        self.ev.push_via(l as u32, t.as_nanos(), Ev::Arrive(pkt));
    }

    /// Counts the dequeues of every monitored analytic queue that happened by `end` and
    /// were not yet settled (the end of a run).
    pub(super) fn settle_dequeues(&mut self, end: Instant) {
        let (end, warmup) = (end.as_nanos(), self.warmup.as_nanos());
        for link in &mut self.links {
            let rate = link.rate.0;
            let Some(s) = link.stats.as_mut() else {
                continue;
            };
            if link.queue.is_fifo_analytic() {
                link.queue
                    .settle_fifo(end, &mut |d| s.add_dequeue(d, rate, warmup, end));
            }
        }
    }

    /// A flow's host puts `pkt` on the wire (after the flow's send jitter, if any).
    pub(super) fn inject(&mut self, pkt: u32, fi: usize) {
        self.sent += 1;
        let f = &mut self.flows[fi];
        if !f.send_jitter.is_zero() && self.pool.pkts[pkt as usize].kind != Kind::Ack {
            let j = Duration::from_nanos(self.rng.gen_range(0..=f.send_jitter.as_nanos()));
            let t = (self.now + j).max(f.jitter_last);
            f.jitter_last = t;
            self.at(t, Ev::Arrive(pkt));
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
            Kind::Data => self.receive_data(fi, &p),
            Kind::Ack => self.receive_ack(fi, &p),
            Kind::Udp => self.count_delivered(fi, p.size as u64),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{run, Scenario};

    /// Bursts of ten 1500-byte packets every 100 ms through a 10 Mbit/s bottleneck,
    /// otherwise idle: the link's mean queueing delay, ms, and its utilisation.
    fn bursts_through(burst: Option<u32>) -> (f64, f64) {
        let sc = Scenario::from_toml_with(
            "duration = \"20s\"\nwarmup = \"5s\"\n[topology]\nkind = \"dumbbell\"\n\
             [[flow]]\ncc = { name = \"newreno\" }\n\
             traffic = { kind = \"bursty\", packets = 10, period = \"100ms\", buffer = 100 }\n",
            &burst
                .map(|b| format!("topology.burst={b}"))
                .into_iter()
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let r = run(&sc, 1).unwrap();
        let l = &r.links[0];
        (l.qdelay_mean_ms, l.utilisation)
    }

    #[test]
    fn a_bucket_of_a_burst_lets_it_pass_without_queueing() {
        // A serialising link: the k-th packet of a burst waits k x 1.2 ms, k = 0..9: a mean
        // of 5.4 ms. A bucket of ten packets passes each burst at once (it refills in 12 ms
        // of the 100 ms between bursts); a bucket of two passes two and queues the rest one
        // 1.2 ms apart behind them: (0 + 0 + 1.2 + 2.4 + ... + 9.6) / 10 = 4.32 ms. The same
        // 1.2 Mbit/s crosses the link in each case: utilisation 0.12.
        let (plain, u_plain) = bursts_through(None);
        let (ten, u_ten) = bursts_through(Some(15_000));
        let (two, u_two) = bursts_through(Some(3_000));
        assert!((plain - 5.4).abs() < 0.05, "{plain}");
        assert!(ten < 0.01, "{ten}");
        assert!((two - 4.32).abs() < 0.05, "{two}");
        for u in [u_plain, u_ten, u_two] {
            assert!((u - 0.12).abs() < 0.005, "{u}");
        }
    }
}
