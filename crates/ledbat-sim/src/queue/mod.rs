//! Queue disciplines of a link's output buffer.
//!
//! - **DropTail**: admit while the waiting packets stay within the packet and byte limits
//!   (the packet being serialised does not count, as in ns-2).
//! - **RED** (Floyd and Jacobson 1993, or ns-2.35's `Queue/RED` with its automatic
//!   configuration): decided at enqueue from an average queue; rules and presets in
//!   `queue/red.rs`.
//! - **CoDel** (RFC 8289 sections 3-5): at dequeue, once the sojourn time has stayed above
//!   TARGET for INTERVAL, drop and enter the dropping state; drop the next packet at
//!   `t + INTERVAL / sqrt(count)`; leave when the sojourn falls below TARGET. Re-entering
//!   soon after leaving resumes from the previous drop count.
//!
//! Storage is a ring of small entries that grows to the largest occupancy seen and is
//! never shrunk: no allocation per packet in steady state.

mod bucket;
mod red;

pub use bucket::TokenBucket;

use crate::scenario::QueueConfig;
use ledbat_bt_proto::deque;
use rand_chacha::ChaCha8Rng;
pub use red::red_thresholds_without_link;
use red::RedState;
use std::collections::VecDeque;

/// A queued packet.
#[derive(Clone, Copy, Debug)]
pub struct QEntry {
    /// Packet id in the simulator's pool.
    pub pkt: u32,
    /// Size on the wire, bytes.
    pub size: u32,
    /// When it was enqueued, ns.
    pub enq_at: u64,
}

#[derive(Clone, Debug)]
struct CodelState {
    limit: u32,
    target: u64,
    interval: u64,
    first_above_time: u64,
    drop_next: u64,
    count: u32,
    lastcount: u32,
    dropping: bool,
}

/// 16 bytes: the DropTail limits inline (`u32::MAX`, `u64::MAX`: none), the larger states
/// of RED and CoDel behind a pointer, so that a [`Queue`] is one cache line.
#[derive(Clone, Debug)]
enum Disc {
    DropTail { packets: u32, bytes: u64 },
    Red(Box<RedState>),
    Codel(Box<CodelState>),
}

/// Whether DropTail with limits `packets` and `bytes` admits `size` bytes to `q` packets of
/// `q_bytes` bytes waiting.
#[inline]
fn droptail_admits(packets: u32, bytes: u64, q: usize, q_bytes: u64, size: u32) -> bool {
    (q as u64) < packets as u64 && q_bytes + size as u64 <= bytes
}

/// What one dequeue leaves behind: the packet entering service at `at` (ns) leaves `pkts`
/// packets of `bytes` bytes waiting. Seed 003 section 6.2.1 logged exactly this, the queue
/// after every dequeue operation, in its Grid'5000 kernel; a link that is idle has no
/// dequeue, so idle time does not count (unlike a sample taken at fixed times).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dequeue {
    /// When the packet entered service, ns.
    pub at: u64,
    /// Packets left waiting.
    pub pkts: usize,
    /// Bytes left waiting.
    pub bytes: u64,
}

/// A link's output queue: 64 bytes (`repr(C)`: the ring, the counts, the discipline), one
/// cache line inside a link's record.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Queue {
    ring: VecDeque<QEntry>,
    bytes: u64,
    disc: Disc,
    busy_until: u64,
}

impl Queue {
    /// An empty queue for `cfg`.
    pub fn new(cfg: &QueueConfig) -> Queue {
        Self::with_capacity(cfg, cfg.packet_limit().unwrap_or(64).min(4096) as usize)
    }

    /// An empty queue for `cfg` with room for `cap` packets before its ring grows, outside
    /// any link (ns-2's automatic RED parameters then take their link-free fallbacks).
    pub fn with_capacity(cfg: &QueueConfig, cap: usize) -> Queue {
        Self::for_link(cfg, cap, None, 0)
    }

    /// An empty queue for `cfg` on a link of `rate_bps` bits/s and propagation delay
    /// `delay_ns` (ns-2's RED derives its automatic parameters from both).
    pub fn for_link(cfg: &QueueConfig, cap: usize, rate_bps: Option<u64>, delay_ns: u64) -> Queue {
        let disc = match cfg {
            QueueConfig::DropTail(d) => Disc::DropTail {
                packets: d.packets.unwrap_or(u32::MAX),
                bytes: d.bytes.unwrap_or(u64::MAX),
            },
            QueueConfig::Red(r) => {
                Disc::Red(Box::new(RedState::new(red::resolve(r, rate_bps, delay_ns))))
            }
            QueueConfig::Codel(c) => Disc::Codel(Box::new(CodelState {
                limit: c.packets,
                target: c.target.as_nanos(),
                interval: c.interval.as_nanos(),
                first_above_time: 0,
                drop_next: 0,
                count: 0,
                lastcount: 0,
                dropping: false,
            })),
        };
        Queue {
            ring: VecDeque::with_capacity(cap),
            bytes: 0,
            disc,
            busy_until: 0,
        }
    }

    /// Waiting packets.
    #[inline]
    pub fn len(&self) -> usize {
        self.ring.len()
    }
    /// Whether nothing waits.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }
    /// Waiting bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether the discipline decides at enqueue only (DropTail, RED), so that the queue
    /// can be served analytically by [`Queue::offer_fifo`].
    pub fn is_fifo_analytic(&self) -> bool {
        !matches!(self.disc, Disc::Codel(_))
    }

    /// Analytic FIFO service for enqueue-time disciplines: the departure of every admitted
    /// packet is known at its arrival (`start = max(now, busy_until)`, `end = start + tx`),
    /// so no dequeue event is needed. The ring then holds the *waiting* packets' service
    /// start times. Returns the number of packets the arrival found waiting and `(start, end)`
    /// of the admitted packet, or `None` when dropped.
    /// The waiting count a packet sees excludes the one in service (ns-2 convention).
    ///
    /// Every dequeue that happened by `now` is passed to `dequeued` first (in service order),
    /// then the admitted packet's own if it enters service at once (nothing left waiting).
    /// A waiting packet's dequeue is known only once its start time has passed: the packets
    /// behind it in the ring then are exactly those that arrived before it started (a later
    /// arrival would have found it started and removed it), so what it leaves is the ring
    /// after its removal. An arrival at the very instant a packet starts counts as after it.
    ///
    /// Behind a token bucket ([`TokenBucket`]) a packet waits in the queue until the bucket
    /// lets it go and then leaves at once: its `start` and `end` are that instant.
    #[allow(clippy::too_many_arguments)]
    pub fn offer_fifo(
        &mut self,
        now: u64,
        size: u32,
        tx_ns: u64,
        typical_tx_ns: u64,
        bucket: Option<&mut TokenBucket>,
        rng: &mut ChaCha8Rng,
        dequeued: &mut impl FnMut(Dequeue),
    ) -> (usize, Option<(u64, u64)>) {
        self.settle_fifo(now, dequeued);
        if self.ring.is_empty() && self.busy_until <= now {
            if let Disc::Red(r) = &mut self.disc {
                if r.idle_since.is_none() {
                    r.idle_since = Some(self.busy_until);
                }
            }
        }
        let q = self.ring.len();
        let admit = match &mut self.disc {
            Disc::DropTail { packets, bytes } => {
                droptail_admits(*packets, *bytes, q, self.bytes, size)
            }
            Disc::Red(r) => r.admit(q, self.bytes, size, now, typical_tx_ns, rng),
            Disc::Codel(_) => unreachable!("CoDel decides at dequeue"),
        };
        if !admit {
            return (q, None);
        }
        let ready = self.busy_until.max(now);
        let (start, end) = match bucket {
            None => (ready, ready + tx_ns),
            Some(b) => {
                let leave = b.depart(ready, tx_ns);
                (leave, leave)
            }
        };
        self.busy_until = end;
        if start > now {
            self.bytes += size as u64;
            self.ring.push_back(QEntry {
                pkt: 0,
                size,
                enq_at: start,
            });
        } else {
            dequeued(Dequeue {
                at: now,
                pkts: 0,
                bytes: 0,
            });
        }
        (q, Some((start, end)))
    }

    /// For a queue served by [`Queue::offer_fifo`]: removes the packets that entered service
    /// by `now` and passes each one's [`Dequeue`] to `dequeued`, in service order (the end
    /// of a run calls it so that the last dequeues count too).
    pub fn settle_fifo(&mut self, now: u64, dequeued: &mut impl FnMut(Dequeue)) {
        while let Some(e) = self.ring.front() {
            if e.enq_at > now {
                break;
            }
            let (at, size) = (e.enq_at, e.size as u64);
            deque::pop_front(&mut self.ring);
            self.bytes -= size;
            dequeued(Dequeue {
                at,
                pkts: self.ring.len(),
                bytes: self.bytes,
            });
        }
    }

    /// Packets waiting (not in service) at `now`, for a queue served by
    /// [`Queue::offer_fifo`].
    pub fn waiting_at(&self, now: u64) -> usize {
        // Service start times increase along the ring.
        self.ring.len() - self.ring.partition_point(|e| e.enq_at <= now)
    }

    /// Time until the link is free at `now`, ns: the wait of a packet arriving now, for a
    /// queue served by [`Queue::offer_fifo`].
    pub fn backlog_ns(&self, now: u64) -> u64 {
        self.busy_until.saturating_sub(now)
    }

    /// Offers a packet arriving at `now`; returns false if the discipline drops it.
    /// `typical_tx_ns` is the serialisation time of a full-size packet (RED's idle decay).
    pub fn enqueue(&mut self, e: QEntry, typical_tx_ns: u64, rng: &mut ChaCha8Rng) -> bool {
        let q = self.ring.len();
        let admit = match &mut self.disc {
            Disc::DropTail { packets, bytes } => {
                droptail_admits(*packets, *bytes, q, self.bytes, e.size)
            }
            Disc::Codel(c) => (q as u64) < c.limit as u64,
            Disc::Red(r) => r.admit(q, self.bytes, e.size, e.enq_at, typical_tx_ns, rng),
        };
        if admit {
            self.bytes += e.size as u64;
            self.ring.push_back(e);
        }
        admit
    }

    /// Takes the next packet to serialise at `now`; packets CoDel drops on the way are
    /// passed to `dropped`.
    pub fn dequeue(
        &mut self,
        now: u64,
        mtu: u32,
        mut dropped: impl FnMut(QEntry),
    ) -> Option<QEntry> {
        let out = match &mut self.disc {
            Disc::Codel(_) => self.codel_dequeue(now, mtu, &mut dropped),
            _ => self.pop(),
        };
        if self.ring.is_empty() {
            if let Disc::Red(r) = &mut self.disc {
                if r.idle_since.is_none() {
                    r.idle_since = Some(now);
                }
            }
        }
        out
    }

    fn pop(&mut self) -> Option<QEntry> {
        let e = deque::pop_front(&mut self.ring)?;
        self.bytes -= e.size as u64;
        Some(e)
    }

    /// RFC 8289 `dodequeue`: the packet and whether it is OK to drop it.
    fn codel_do_dequeue(&mut self, now: u64, mtu: u32) -> (Option<QEntry>, bool) {
        let Some(e) = self.pop() else {
            if let Disc::Codel(c) = &mut self.disc {
                c.first_above_time = 0;
            }
            return (None, false);
        };
        let Disc::Codel(c) = &mut self.disc else {
            unreachable!()
        };
        let sojourn = now.saturating_sub(e.enq_at);
        let mut ok = false;
        if sojourn < c.target || self.bytes <= mtu as u64 {
            c.first_above_time = 0;
        } else if c.first_above_time == 0 {
            c.first_above_time = now + c.interval;
        } else if now >= c.first_above_time {
            ok = true;
        }
        (Some(e), ok)
    }

    fn codel_dequeue(
        &mut self,
        now: u64,
        mtu: u32,
        dropped: &mut impl FnMut(QEntry),
    ) -> Option<QEntry> {
        let (mut p, ok) = self.codel_do_dequeue(now, mtu);
        let interval = match &self.disc {
            Disc::Codel(c) => c.interval,
            _ => unreachable!(),
        };
        let law = |t: u64, count: u32| t + (interval as f64 / (count.max(1) as f64).sqrt()) as u64;
        if p.is_none() {
            if let Disc::Codel(c) = &mut self.disc {
                c.dropping = false;
            }
            return None;
        }
        let (dropping, drop_next) = match &self.disc {
            Disc::Codel(c) => (c.dropping, c.drop_next),
            _ => unreachable!(),
        };
        if dropping {
            if !ok {
                if let Disc::Codel(c) = &mut self.disc {
                    c.dropping = false;
                }
            } else if now >= drop_next {
                // Drop until the next drop time is in the future or we leave the state.
                loop {
                    let Disc::Codel(c) = &self.disc else {
                        unreachable!()
                    };
                    if !(c.dropping && now >= c.drop_next) {
                        break;
                    }
                    if let Some(e) = p.take() {
                        dropped(e);
                    }
                    if let Disc::Codel(c) = &mut self.disc {
                        c.count += 1;
                    }
                    let (np, nok) = self.codel_do_dequeue(now, mtu);
                    p = np;
                    let Disc::Codel(c) = &mut self.disc else {
                        unreachable!()
                    };
                    if !nok || p.is_none() {
                        c.dropping = false;
                    } else {
                        c.drop_next = law(c.drop_next, c.count);
                    }
                }
            }
        } else if ok {
            if let Some(e) = p.take() {
                dropped(e);
            }
            let (np, _) = self.codel_do_dequeue(now, mtu);
            p = np;
            let Disc::Codel(c) = &mut self.disc else {
                unreachable!()
            };
            c.dropping = true;
            let delta = c.count.saturating_sub(c.lastcount);
            c.count = if delta > 1 && now.saturating_sub(c.drop_next) < 16 * c.interval {
                delta
            } else {
                1
            };
            c.drop_next = law(now, c.count);
            c.lastcount = c.count;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Codel, DropTail, Red};
    use ledbat_core::Duration;
    use rand::SeedableRng;

    fn e(pkt: u32, at: u64) -> QEntry {
        QEntry {
            pkt,
            size: 1500,
            enq_at: at,
        }
    }

    #[test]
    fn droptail_admits_up_to_the_packet_limit() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut q = Queue::new(&QueueConfig::DropTail(DropTail {
            packets: Some(3),
            bytes: None,
        }));
        let admitted: Vec<bool> = (0..5).map(|i| q.enqueue(e(i, 0), 0, &mut rng)).collect();
        assert_eq!(admitted, [true, true, true, false, false]);
        assert_eq!(q.dequeue(0, 1500, |_| {}).unwrap().pkt, 0);
        assert!(q.enqueue(e(9, 0), 0, &mut rng));
    }

    #[test]
    fn droptail_byte_limit_counts_bytes() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut q = Queue::new(&QueueConfig::DropTail(DropTail {
            packets: None,
            bytes: Some(3100),
        }));
        assert!(q.enqueue(e(0, 0), 0, &mut rng));
        assert!(q.enqueue(e(1, 0), 0, &mut rng));
        assert!(!q.enqueue(e(2, 0), 0, &mut rng));
        assert!(q.enqueue(
            QEntry {
                pkt: 3,
                size: 40,
                enq_at: 0
            },
            0,
            &mut rng
        ));
    }

    /// Offers one packet of `size` bytes taking `tx` ns to `q` at `now`; the dequeues it
    /// settles are appended to `log`. Returns whether it was admitted.
    fn offer(q: &mut Queue, now: u64, size: u32, tx: u64, log: &mut Vec<Dequeue>) -> bool {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        q.offer_fifo(now, size, tx, tx, None, &mut rng, &mut |d| log.push(d))
            .1
            .is_some()
    }

    fn deq(at: u64, pkts: usize, bytes: u64) -> Dequeue {
        Dequeue { at, pkts, bytes }
    }

    #[test]
    fn behind_a_bucket_the_burst_leaves_at_once_and_the_rest_waits_in_the_queue() {
        // A drop-tail of 2 packets behind a bucket of 2 packets of 10 ns: five packets at
        // t = 100. Two leave at once (nothing waits), the third and fourth wait for credit
        // (at 110 and 120) and count in the queue, the fifth finds two waiting: dropped.
        let mut q = Queue::new(&QueueConfig::DropTail(DropTail {
            packets: Some(2),
            bytes: None,
        }));
        let mut b = TokenBucket::new(20);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut log = Vec::new();
        let mut offer = |q: &mut Queue, b: &mut TokenBucket| {
            q.offer_fifo(100, 1000, 10, 10, Some(b), &mut rng, &mut |d| log.push(d))
        };
        assert_eq!(offer(&mut q, &mut b), (0, Some((100, 100))));
        assert_eq!(offer(&mut q, &mut b), (0, Some((100, 100))));
        assert_eq!(offer(&mut q, &mut b), (0, Some((110, 110))));
        assert_eq!(offer(&mut q, &mut b), (1, Some((120, 120))));
        assert_eq!(offer(&mut q, &mut b), (2, None));
        assert_eq!(q.waiting_at(115), 1);
        q.settle_fifo(200, &mut |d| log.push(d));
        assert_eq!(
            log,
            [
                deq(100, 0, 0),
                deq(100, 0, 0),
                deq(110, 1, 1000),
                deq(120, 0, 0)
            ]
        );
    }

    #[test]
    fn the_fifo_reports_the_queue_each_dequeue_leaves() {
        let mut q = Queue::new(&QueueConfig::DropTail(DropTail {
            packets: None,
            bytes: None,
        }));
        let mut log = Vec::new();
        // 1000-byte packets of 10 ns. A at 0 starts at once, leaving nothing; B (1) and C
        // (2) wait for 10 and 20.
        for (t, size) in [(0, 1000), (1, 1000), (2, 600)] {
            assert!(offer(&mut q, t, size, 10, &mut log));
        }
        assert_eq!(log, [deq(0, 0, 0)]);
        // D at 12: B started at 10 while C waited behind it (600 bytes); D waits for 30.
        assert!(offer(&mut q, 12, 1000, 10, &mut log));
        assert_eq!(log[1..], [deq(10, 1, 600)]);
        // E at 35: C started at 20 with D behind it (D arrived at 12); D started at 30 with
        // nothing behind it (E came later). E waits for the end of D's service, 40.
        assert!(offer(&mut q, 35, 1000, 10, &mut log));
        assert_eq!(log[2..], [deq(20, 1, 1000), deq(30, 0, 0)]);
        // The run ends at 100: E's dequeue at 40 is settled, leaving nothing.
        q.settle_fifo(100, &mut |d| log.push(d));
        assert_eq!(log[4..], [deq(40, 0, 0)]);
        assert!(q.is_empty() && q.bytes() == 0);
        // Two of the five dequeues left a non-empty queue.
        assert_eq!(log.iter().filter(|d| d.pkts > 0).count(), 2);
    }

    #[test]
    fn an_arrival_at_the_instant_a_packet_starts_comes_after_its_dequeue() {
        let mut q = Queue::new(&QueueConfig::DropTail(DropTail {
            packets: None,
            bytes: None,
        }));
        let mut log = Vec::new();
        offer(&mut q, 0, 1000, 10, &mut log);
        offer(&mut q, 5, 1000, 10, &mut log); // starts at 10
        offer(&mut q, 10, 1000, 10, &mut log); // arrives as it starts: starts at 20
        q.settle_fifo(30, &mut |d| log.push(d));
        assert_eq!(log, [deq(0, 0, 0), deq(10, 0, 0), deq(20, 0, 0)]);
    }

    #[test]
    fn a_byte_buffer_admits_acks_where_a_packet_buffer_would_not() {
        // Seed 003 section 6.2.1: B / C = 1 s of bytes. A 1500-byte packet in service does
        // not count; the limit is on the bytes waiting.
        let mut log = Vec::new();
        let mut bytes = Queue::new(&QueueConfig::DropTail(DropTail {
            packets: None,
            bytes: Some(3100),
        }));
        // Data A served at once; B and C wait (3000 bytes); D would make 4500: dropped.
        let data: Vec<bool> = (0..4)
            .map(|i| offer(&mut bytes, i, 1500, 12_000, &mut log))
            .collect();
        assert_eq!(data, [true, true, true, false]);
        // 40-byte ACKs: 3040 and 3080 fit, 3120 does not.
        let acks: Vec<bool> = (4..7)
            .map(|i| offer(&mut bytes, i, 40, 320, &mut log))
            .collect();
        assert_eq!(acks, [true, true, false]);
        assert_eq!((bytes.len(), bytes.bytes()), (4, 3080));
        // The same two waiting data packets in a 3-packet buffer: the first ACK takes the
        // last place, the second is dropped although it is 40 bytes.
        let mut pkts = Queue::new(&QueueConfig::DropTail(DropTail {
            packets: Some(3),
            bytes: None,
        }));
        for i in 0..3 {
            assert!(offer(&mut pkts, i, 1500, 12_000, &mut log));
        }
        let acks: Vec<bool> = (4..6)
            .map(|i| offer(&mut pkts, i, 40, 320, &mut log))
            .collect();
        assert_eq!(acks, [true, false]);
    }

    #[test]
    fn red_never_drops_below_min_th_and_always_above_twice_max_th() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let cfg = Red {
            w_q: Some(1.0),
            ..Red::default()
        };
        let mut q = Queue::new(&QueueConfig::Red(Box::new(cfg)));
        for i in 0..5 {
            assert!(q.enqueue(e(i, 1), 1_200_000, &mut rng), "{i}");
        }
        // Fill well past 2 * max_th = 30 without dequeuing: with w_q = 1 the average is
        // the instantaneous queue, so arrivals at q >= 30 are always dropped.
        let mut admitted_above = 0;
        for i in 5..200 {
            let before = q.len();
            if q.enqueue(e(i, 1), 1_200_000, &mut rng) && before >= 30 {
                admitted_above += 1;
            }
        }
        assert_eq!(admitted_above, 0);
        assert!(q.len() < 30);
    }

    #[test]
    fn codel_drops_only_after_sojourn_exceeds_target_for_an_interval() {
        let cfg = Codel {
            packets: 1000,
            target: Duration::from_millis(5),
            interval: Duration::from_millis(100),
        };
        let mut q = Queue::new(&QueueConfig::Codel(cfg));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let ms = 1_000_000u64;
        // A standing queue: enqueue 50 packets at t=0, dequeue one per ms from t=20ms.
        let mut drops = 0;
        let mut served = 0;
        let mut next = 0u32;
        for _ in 0..50 {
            q.enqueue(e(next, 0), 0, &mut rng);
            next += 1;
        }
        let mut first_drop_at = None;
        for k in 0..400u64 {
            let now = (20 + k) * ms;
            // Keep the queue standing: one arrival per dequeue.
            q.enqueue(e(next, now), 0, &mut rng);
            next += 1;
            let mut d = 0;
            if q.dequeue(now, 1500, |_| d += 1).is_some() {
                served += 1;
            }
            if d > 0 && first_drop_at.is_none() {
                first_drop_at = Some(now);
            }
            drops += d;
        }
        let first = first_drop_at.expect("CoDel must drop a standing queue");
        assert!(first >= 120 * ms, "dropped too early at {first}");
        assert!(drops > 1 && served > 300);
    }
}
