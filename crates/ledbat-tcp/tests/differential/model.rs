//! A small closed-loop path that drives a core controller the way a TCP sender would and
//! records every call it makes, so that the replay tool can be given the same calls: one
//! FIFO bottleneck (rate, buffer in packets, constant-rate cross traffic, outages), a
//! receiver with optional delayed ACKs (RFC 7323's echo of the first segment of a pair),
//! one-way delays from millisecond timestamps with a clock offset near the 32-bit wrap,
//! SACK-style loss detection at three packets, an RTO with back-off, application stalls and
//! idle restarts, and the controller's own timer (`next_tick`). It is not a TCP; it only
//! needs to produce the event sequences a TCP produces (slow start, steady state, losses,
//! timeouts, base-delay rollover, clock wrap).

use super::replay::{apply, snapshot, Ev, Step};
use ledbat_core::{AnyController, Controller, Instant};
use ledbat_tcp::params::Signal;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

const MS: u64 = 1_000_000;

/// A constant-rate flow sharing the bottleneck between two instants.
#[derive(Clone, Copy, Debug)]
pub struct Cbr {
    pub from: u64,
    pub to: u64,
    pub rate_bps: u64,
}

/// The path and what happens on it.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub rate_bps: u64,
    pub owd_fwd: u64,
    pub owd_rev: u64,
    pub buffer_pkts: usize,
    /// Extra forward delay, uniform in [0, jitter], per packet (order kept).
    pub jitter: u64,
    pub delayed_ack: bool,
    /// Receiver clock minus sender clock, microseconds (wrapping).
    pub clock_offset_us: u32,
    /// Timestamps tick in milliseconds (Linux) rather than microseconds.
    pub ms_timestamps: bool,
    pub cross: Vec<Cbr>,
    /// (from, to, packets): between the two instants another sender keeps the queue at
    /// least this long, whatever the others do (a BBR-like competitor's standing queue
    /// below TARGET, with a `cross` entry for its rate).
    pub floors: Vec<(u64, u64, usize)>,
    /// The link drops everything between these instants.
    pub outages: Vec<(u64, u64)>,
    /// The application has nothing to send between these instants.
    pub stalls: Vec<(u64, u64)>,
    /// The forward delay grows by `.1` from `.0` on (a route change).
    pub owd_step: Option<(u64, u64)>,
    pub duration: u64,
    pub mss: u32,
    pub seed: u64,
}

impl Scenario {
    /// 10 Mbit/s, 10 ms each way, a 100-packet buffer, 1500-byte packets.
    pub fn new(duration_s: u64, seed: u64) -> Self {
        Scenario {
            rate_bps: 10_000_000,
            owd_fwd: 10 * MS,
            owd_rev: 10 * MS,
            buffer_pkts: 100,
            jitter: 0,
            delayed_ack: false,
            clock_offset_us: 12_345_678,
            ms_timestamps: false,
            cross: Vec::new(),
            floors: Vec::new(),
            outages: Vec::new(),
            stalls: Vec::new(),
            owd_step: None,
            duration: duration_s * 1_000 * MS,
            mss: 1500,
            seed,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// A data packet reaches the receiver.
    Arrive {
        seq: u64,
        sent_at: u64,
    },
    /// An ACK reaches the sender.
    AckIn {
        cum: u64,
        sacked: u64,
        echo_sent_at: u64,
        rcv_time: u64,
    },
    /// The receiver's delayed-ACK timer.
    DelAck {
        gen: u64,
    },
    Rto {
        gen: u64,
    },
    Tick,
    /// The application has data again, or new data is due.
    Wake,
}

struct Pkt {
    sent_at: u64,
    retx: bool,
    lost: bool,
}

/// xorshift64*: deterministic jitter without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Runs the scenario with `ctl` and returns every controller call with the core's state
/// after it.
pub fn run(sc: &Scenario, mut ctl: AnyController, signal: Signal) -> Vec<(Ev, Step)> {
    let mss = sc.mss as u64;
    let tx = mss * 8 * 1_000_000_000 / sc.rate_bps;
    let mut rng = Rng(sc.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut heap: BinaryHeap<Reverse<(u64, u64, Kind)>> = BinaryHeap::new();
    let mut order = 0u64;
    let mut push = |heap: &mut BinaryHeap<_>, t: u64, k: Kind| {
        order += 1;
        heap.push(Reverse((t, order, k)));
    };
    let mut out: Vec<(Ev, Step)> = Vec::new();
    let record = |ctl: &mut AnyController, e: Ev, out: &mut Vec<(Ev, Step)>| {
        apply(ctl, &e);
        out.push((e, snapshot(ctl)));
    };

    // bottleneck: departure times of the packets in the queue (data and cross traffic)
    let mut queue: VecDeque<u64> = VecDeque::new();
    let mut last_dep = 0u64;
    let mut last_arrival = 0u64;
    let mut cross_next: Vec<u64> = sc.cross.iter().map(|c| c.from).collect();
    // sender
    let mut next_seq = 0u64;
    let mut outstanding: BTreeMap<u64, Pkt> = BTreeMap::new();
    let mut retx_queue: VecDeque<u64> = VecDeque::new();
    let mut highest_sacked: Option<u64> = None;
    let mut srtt: Option<u64> = None;
    let mut rttvar = 0u64;
    let mut backoff = 1u64;
    let mut rto_gen = 0u64;
    let mut rto_armed = false;
    let mut idle_since: Option<u64> = None;
    let mut tick_at: Option<u64> = None;
    // pacing (a controller that asks for it: LEDBAT++ yielding to a competitor)
    let mut next_pace = 0u64;
    let mut pace_wake: Option<u64> = None;
    // receiver
    let mut rcv_next = 0u64;
    let mut rcv_ooo: BTreeMap<u64, u64> = BTreeMap::new();
    let mut delack_pending: Option<(u64, u64)> = None; // (seq, sent_at) of the first unacked
    let mut delack_gen = 0u64;

    let stalled = |t: u64| sc.stalls.iter().any(|&(a, b)| t >= a && t < b);
    let outage = |t: u64| sc.outages.iter().any(|&(a, b)| t >= a && t < b);
    let rto_of = |srtt: Option<u64>, rttvar: u64, backoff: u64| {
        srtt.map_or(1_000 * MS, |s| (s + 4 * rttvar).max(200 * MS)) * backoff
    };
    let clock_us = |t: u64, receiver: bool| -> u32 {
        let us = t / 1_000;
        let us = if sc.ms_timestamps {
            us / 1_000 * 1_000
        } else {
            us
        };
        let off = if receiver { sc.clock_offset_us } else { 0 };
        (us as u32).wrapping_add(off)
    };

    push(&mut heap, 0, Kind::Wake);
    for s in &sc.stalls {
        push(&mut heap, s.1, Kind::Wake);
    }
    while let Some(Reverse((now, _, kind))) = heap.pop() {
        if now > sc.duration {
            break;
        }
        // cross traffic up to now
        for (i, c) in sc.cross.iter().enumerate() {
            let gap = mss * 8 * 1_000_000_000 / c.rate_bps;
            while cross_next[i] < c.to && cross_next[i] <= now {
                let t = cross_next[i];
                while queue.front().is_some_and(|&d| d <= t) {
                    queue.pop_front();
                }
                if queue.len() < sc.buffer_pkts && !outage(t) {
                    last_dep = last_dep.max(t) + tx;
                    queue.push_back(last_dep);
                }
                cross_next[i] += gap;
            }
        }
        for &(a, b, n) in &sc.floors {
            if now >= a && now < b && !outage(now) {
                while queue.front().is_some_and(|&d| d <= now) {
                    queue.pop_front();
                }
                while queue.len() < n.min(sc.buffer_pkts) {
                    last_dep = last_dep.max(now) + tx;
                    queue.push_back(last_dep);
                }
            }
        }
        match kind {
            Kind::Arrive { seq, sent_at } => {
                if seq < rcv_next || rcv_ooo.contains_key(&seq) {
                    continue;
                }
                let in_order = seq == rcv_next;
                rcv_ooo.insert(seq, sent_at);
                while rcv_ooo.contains_key(&rcv_next) {
                    rcv_ooo.remove(&rcv_next);
                    rcv_next += 1;
                }
                // RFC 7323: the echo is the first segment not yet acknowledged
                let echo = match delack_pending {
                    Some((_, first)) => first,
                    None => sent_at,
                };
                if sc.delayed_ack && in_order && delack_pending.is_none() {
                    delack_pending = Some((seq, sent_at));
                    delack_gen += 1;
                    push(&mut heap, now + 40 * MS, Kind::DelAck { gen: delack_gen });
                    continue;
                }
                delack_pending = None;
                push(
                    &mut heap,
                    now + sc.owd_rev,
                    Kind::AckIn {
                        cum: rcv_next,
                        sacked: seq,
                        echo_sent_at: echo,
                        rcv_time: now,
                    },
                );
            }
            Kind::DelAck { gen } => {
                if gen != delack_gen {
                    continue;
                }
                if let Some((seq, first)) = delack_pending.take() {
                    push(
                        &mut heap,
                        now + sc.owd_rev,
                        Kind::AckIn {
                            cum: rcv_next,
                            sacked: seq,
                            echo_sent_at: first,
                            rcv_time: now,
                        },
                    );
                }
            }
            Kind::AckIn {
                cum,
                sacked,
                echo_sent_at,
                rcv_time,
            } => {
                let flight_before: u64 =
                    outstanding.values().filter(|p| !p.lost).count() as u64 * mss;
                let mut acked: Vec<u64> = outstanding.range(..cum).map(|(s, _)| *s).collect();
                if sacked >= cum && outstanding.contains_key(&sacked) {
                    acked.push(sacked);
                }
                if acked.is_empty() {
                    continue;
                }
                let newest = *acked.iter().max_by_key(|s| outstanding[s].sent_at).unwrap();
                let newest_pkt = &outstanding[&newest];
                let newest_sent = newest_pkt.sent_at;
                let rtt = (!newest_pkt.retx).then(|| now - newest_sent);
                let bytes = acked.len() as u64 * mss;
                for s in &acked {
                    outstanding.remove(s);
                }
                retx_queue.retain(|s| outstanding.contains_key(s));
                highest_sacked = Some(highest_sacked.map_or(sacked, |h: u64| h.max(sacked)));
                if let Some(r) = rtt {
                    match srtt {
                        None => {
                            srtt = Some(r);
                            rttvar = r / 2;
                        }
                        Some(s) => {
                            rttvar = (3 * rttvar + s.abs_diff(r)) / 4;
                            srtt = Some((7 * s + r) / 8);
                        }
                    }
                }
                backoff = 1;
                let owd = clock_us(rcv_time, true).wrapping_sub(clock_us(echo_sent_at, false));
                let delay = match signal {
                    Signal::Owd => Some(owd),
                    Signal::Rtt => rtt.map(|r| (r / 1_000).min(u32::MAX as u64 / 2) as u32),
                };
                record(
                    &mut ctl,
                    Ev::Ack {
                        now,
                        bytes,
                        packets: acked.len() as u32,
                        flight: flight_before,
                        newest_sent,
                        rtt,
                        delay,
                    },
                    &mut out,
                );
                // three packets beyond an unacknowledged one: lost
                if let Some(h) = highest_sacked {
                    let lost: Vec<u64> = outstanding
                        .iter()
                        .filter(|(s, p)| **s + 3 <= h && !p.lost)
                        .map(|(s, _)| *s)
                        .collect();
                    for s in lost {
                        let in_flight =
                            outstanding.values().filter(|p| !p.lost).count() as u64 * mss;
                        let p = outstanding.get_mut(&s).unwrap();
                        p.lost = true;
                        let sent_at = p.sent_at;
                        retx_queue.push_back(s);
                        record(
                            &mut ctl,
                            Ev::Loss {
                                now,
                                sent_at,
                                in_flight,
                                bytes: mss,
                            },
                            &mut out,
                        );
                    }
                }
                rto_gen += 1;
                rto_armed = false;
            }
            Kind::Rto { gen } => {
                if gen != rto_gen || outstanding.is_empty() {
                    continue;
                }
                rto_armed = false;
                record(&mut ctl, Ev::Timeout { now, rto: true }, &mut out);
                backoff = (backoff * 2).min(64);
                retx_queue.clear();
                for (s, p) in outstanding.iter_mut() {
                    p.lost = true;
                    retx_queue.push_back(*s);
                }
            }
            Kind::Tick => {
                if tick_at == Some(now) {
                    tick_at = None;
                    record(&mut ctl, Ev::Tick { now }, &mut out);
                }
            }
            Kind::Wake => {}
        }

        // send what the window allows
        let has_data = |retx: &VecDeque<u64>, t: u64| !retx.is_empty() || !stalled(t);
        if has_data(&retx_queue, now) {
            if let Some(since) = idle_since.take() {
                if now - since >= rto_of(srtt, rttvar, 1) {
                    record(&mut ctl, Ev::Timeout { now, rto: false }, &mut out);
                }
            }
        }
        loop {
            let in_flight = outstanding.values().filter(|p| !p.lost).count() as u64 * mss;
            let paused = ctl
                .pause_until()
                .is_some_and(|t| Instant::from_nanos(now) < t);
            if !has_data(&retx_queue, now)
                || paused
                || (in_flight > 0 && in_flight + mss > ctl.window())
            {
                break;
            }
            let pacing = ctl.pacing_rate();
            if pacing.is_some() && now < next_pace {
                if pace_wake.is_none_or(|w| w <= now || w > next_pace) {
                    pace_wake = Some(next_pace);
                    push(&mut heap, next_pace, Kind::Wake);
                }
                break;
            }
            if let Some(r) = pacing {
                next_pace = now + mss * 1_000_000_000 / r.max(1);
            }
            let (seq, retx) = match retx_queue.pop_front() {
                Some(s) => (s, true),
                None => {
                    next_seq += 1;
                    (next_seq - 1, false)
                }
            };
            outstanding.insert(
                seq,
                Pkt {
                    sent_at: now,
                    retx,
                    lost: false,
                },
            );
            record(
                &mut ctl,
                Ev::Sent {
                    now,
                    bytes: mss,
                    in_flight: in_flight + mss,
                },
                &mut out,
            );
            // the bottleneck
            while queue.front().is_some_and(|&d| d <= now) {
                queue.pop_front();
            }
            if queue.len() < sc.buffer_pkts && !outage(now) {
                last_dep = last_dep.max(now) + tx;
                queue.push_back(last_dep);
                let step = sc.owd_step.filter(|s| now >= s.0).map_or(0, |s| s.1);
                let j = if sc.jitter > 0 {
                    rng.next() % (sc.jitter + 1)
                } else {
                    0
                };
                last_arrival = last_arrival.max(last_dep + sc.owd_fwd + step + j);
                push(&mut heap, last_arrival, Kind::Arrive { seq, sent_at: now });
            }
        }
        if outstanding.is_empty() && !has_data(&retx_queue, now) && idle_since.is_none() {
            idle_since = Some(now);
        }
        if !outstanding.is_empty() && !rto_armed {
            rto_armed = true;
            rto_gen += 1;
            push(
                &mut heap,
                now + rto_of(srtt, rttvar, backoff),
                Kind::Rto { gen: rto_gen },
            );
        }
        if let Some(t) = ctl.next_tick().map(|t| t.as_nanos().max(now)) {
            // an overdue deadline the controller did not act on is not polled again at once
            let overdue_again = matches!(kind, Kind::Tick) && t == now;
            if tick_at != Some(t) && !overdue_again {
                tick_at = Some(t);
                push(&mut heap, t, Kind::Tick);
            }
        }
        if let Some(t) = ctl.pause_until().map(|t| t.as_nanos()) {
            if t > now {
                push(&mut heap, t, Kind::Wake);
            }
        }
    }
    out
}
