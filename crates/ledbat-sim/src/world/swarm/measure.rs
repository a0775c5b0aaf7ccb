//! What a swarm run measures (definitions in [`crate::swarm::report`]): per-peer records
//! that outlive a departure, the uplink queue samples (10 Hz by default), and the final
//! [`RunResult`] with its [`SwarmResult`].

use super::super::World;
use crate::engine::Ev;
use crate::result::{Aggregate, RunResult};
use crate::scenario::swarm::SwarmConfig;
use crate::swarm::population::PeerPlan;
use crate::swarm::report::{ClassSamples, CompletionRow, PeerResult, SwarmResult};
use crate::swarm::PeerId;
use ledbat_bt_proto::{PeerStats, Transport};
use ledbat_core::{Duration, Instant};
use std::collections::BTreeMap;

/// One peer's measurements, kept after it leaves.
#[derive(Debug, Default)]
struct Record {
    class: usize,
    initial_seed: bool,
    joined: Instant,
    completed: Option<Instant>,
    left: Option<Instant>,
    rank: Option<u32>,
    /// Its uplink's link index, once it joined.
    uplink: Option<u32>,
    uploaded_utp: u64,
    uploaded_tcp: u64,
    max_connections: u32,
    q_samples: u64,
    q_pkts_sum: u64,
    q_ms_sum: f64,
    latency_sum_us: u64,
    latency_n: u64,
    /// Samples at which its uplink was idle: nothing outstanding on any of its outgoing
    /// flows, or one waiting for an ACK, or one waiting for its retransmission timer.
    idle_no_data: u64,
    idle_ack: u64,
    idle_rto: u64,
    /// Idle samples at which one of its outgoing flows had data written and not sent (its
    /// window full).
    idle_unsent: u64,
    /// The peer's counters when it left (taken from the live peer otherwise).
    stats: Option<PeerStats>,
}

/// The swarm's measurement state.
#[derive(Debug)]
pub(in crate::world) struct SwarmMeasure {
    class_names: Vec<String>,
    records: Vec<Record>,
    samples: Vec<ClassSamples>,
    rows: Vec<(u32, Instant, PeerId)>,
    window_start: Option<Instant>,
    discard: u32,
    measure: u32,
    /// Block bytes in flight on connections closed by a departure.
    pub lost_bytes: u64,
}

impl SwarmMeasure {
    /// Empty measurements for the initial `plans`.
    pub fn new(cfg: &SwarmConfig, plans: &[PeerPlan]) -> Self {
        let mut m = SwarmMeasure {
            class_names: cfg.classes.iter().map(|c| c.name.clone()).collect(),
            records: Vec::with_capacity(plans.len() * 2),
            samples: vec![ClassSamples::default(); cfg.classes.len()],
            rows: Vec::new(),
            window_start: (cfg.discard == 0).then_some(Instant::ZERO),
            discard: cfg.discard,
            measure: cfg.measure,
            lost_bytes: 0,
        };
        for p in plans {
            m.on_planned(p);
        }
        m
    }

    /// A peer was added to the plan (initially or as a replacement).
    pub fn on_planned(&mut self, p: &PeerPlan) {
        debug_assert_eq!(p.id as usize, self.records.len());
        self.records.push(Record {
            class: p.class,
            initial_seed: p.seed,
            joined: p.arrival,
            ..Record::default()
        });
    }

    /// Peer `id` joined at `now` with uplink `uplink`.
    pub fn on_join(&mut self, id: PeerId, now: Instant, uplink: u32) {
        let r = &mut self.records[id as usize];
        r.joined = now;
        r.uplink = Some(uplink);
    }

    /// Peer `id` now has `n` connections.
    pub fn on_connections(&mut self, id: PeerId, n: u32) {
        let r = &mut self.records[id as usize];
        r.max_connections = r.max_connections.max(n);
    }

    /// Peer `id` handed a block of `len` bytes to its `t` data flow.
    pub fn on_upload(&mut self, id: PeerId, t: Transport, len: u32) {
        let r = &mut self.records[id as usize];
        match t {
            Transport::Utp => r.uploaded_utp += len as u64,
            Transport::Tcp => r.uploaded_tcp += len as u64,
        }
    }

    /// A peer `id` of class `class` received a block `latency` after requesting it.
    pub fn on_latency(&mut self, id: PeerId, class: usize, latency: Duration) {
        let us = latency.as_micros();
        self.samples[class].add_latency(us);
        let r = &mut self.records[id as usize];
        r.latency_sum_us += us;
        r.latency_n += 1;
    }

    /// A block of `len` bytes sent over `t` reached a peer of class `class`.
    pub fn on_received(&mut self, class: usize, t: Transport, len: u32) {
        let s = &mut self.samples[class];
        match t {
            Transport::Utp => s.received_utp += len as u64,
            Transport::Tcp => s.received_tcp += len as u64,
        }
    }

    /// Peer `id` completed at `now`: its rank among the leechers' completions.
    pub fn on_completed(
        &mut self,
        id: PeerId,
        _class: usize,
        _joined: Instant,
        now: Instant,
    ) -> u32 {
        let rank = self.rows.len() as u32 + 1;
        let r = &mut self.records[id as usize];
        r.completed = Some(now);
        r.rank = Some(rank);
        self.rows.push((rank, now, id));
        rank
    }

    /// The transient is over at `now`.
    pub fn open_window(&mut self, now: Instant) {
        self.window_start = Some(now);
    }

    /// Peer `id` left at `now` with these counters.
    pub fn on_leave(&mut self, id: PeerId, now: Instant, stats: PeerStats) {
        let r = &mut self.records[id as usize];
        r.left = Some(now);
        r.stats = Some(stats);
    }

    /// Leecher completions so far.
    pub fn completions(&self) -> u32 {
        self.rows.len() as u32
    }

    fn measured(&self, rank: u32) -> bool {
        rank > self.discard && rank <= self.discard + self.measure
    }
}

impl World<'_> {
    /// Samples every present peer's uplink queue (packets waiting and the wait of a packet
    /// arriving now) and schedules the next sample.
    pub(in crate::world) fn on_swarm_sample(&mut self) {
        let now = self.now;
        let every = self
            .sc
            .swarm
            .as_ref()
            .map_or(Duration::from_millis(100), |c| c.queue_sample);
        if self.measuring() {
            let ns = now.as_nanos();
            let sw = self.swarm.as_mut().expect("a swarm world");
            for &id in &sw.present {
                let r = &mut sw.measure.records[id as usize];
                let Some(up) = r.uplink else { continue };
                let q = &self.links[up as usize].queue;
                let pkts = q.waiting_at(ns);
                let backlog = q.backlog_ns(ns);
                let ms = backlog as f64 * 1e-6;
                if backlog == 0 {
                    // Idle: charge the sample to the outgoing flow with data outstanding that
                    // has been silent longest; what next moves that flow (its timer or an
                    // ACK) classifies it. None outstanding: nothing to send.
                    // The per-peer counts say whether any open flow has data unsent or
                    // outstanding; only in the second case are the flows visited.
                    let flows = &mut self.flows;
                    let brief = &self.brief;
                    let counts = self
                        .peer_brief
                        .get(id as usize)
                        .copied()
                        .unwrap_or_default();
                    let mut waiting = None;
                    if counts.outstanding > 0 {
                        let members = &sw.members;
                        for fi in members[id as usize].iter().flat_map(|m| m.out_flows()) {
                            let b = brief[fi as usize];
                            if b.live && b.outstanding {
                                let c = (b.last_activity, fi);
                                waiting = Some(waiting.map_or(c, |w: (Instant, u32)| w.min(c)));
                            }
                        }
                    }
                    r.idle_unsent += (counts.unsent > 0) as u64;
                    match waiting {
                        Some((_, fi)) => flows[fi as usize].stats.idle_pending += 1,
                        None => r.idle_no_data += 1,
                    }
                }
                r.q_samples += 1;
                r.q_pkts_sum += pkts as u64;
                r.q_ms_sum += ms;
                sw.measure.samples[r.class].add_queue(pkts, ms);
            }
        }
        let next = now + every;
        if next <= self.end {
            self.at(next, Ev::Sample);
        }
    }

    /// Flow `fi`'s wait has ended, by its retransmission timer (`rto`) or an ACK: the
    /// idle-uplink samples charged to it are classified accordingly.
    pub(in crate::world) fn settle_idle(&mut self, fi: usize, rto: bool) {
        let f = &mut self.flows[fi];
        let n = std::mem::take(&mut f.stats.idle_pending);
        let (Some(c), Some(sw)) = (f.conn(), self.swarm.as_mut()) else {
            return;
        };
        let r = &mut sw.measure.records[c.from as usize];
        if rto {
            r.idle_rto += n;
        } else {
            r.idle_ack += n;
        }
    }

    /// The result of a swarm run.
    pub(in crate::world) fn finish_swarm(mut self, seed: u64) -> RunResult {
        let end = self.now.min(self.end);
        self.settle_dequeues(end);
        let sw = self.swarm.take().expect("a swarm world");
        let mut m = sw.measure;
        let window_start = m.window_start;
        let win = |a: Instant, b: Instant| -> f64 {
            match window_start {
                Some(w) if b > a.max(w) => (b - a.max(w)).as_secs_f64(),
                _ => 0.0,
            }
        };
        // Loss recovery of each peer's outgoing flows: (packets lost by duplicate ACKs,
        // ACKs declaring losses, retransmission timeouts, first timeouts with the head
        // packet delivered).
        let mut recovery = vec![(0u64, 0u64, 0u64, 0u64, 0u64); m.records.len()];
        for f in &self.flows {
            if let Some(c) = f.conn() {
                let x = &mut recovery[c.from as usize];
                x.0 += f.stats.losses;
                x.1 += f.stats.loss_acks;
                x.2 += f.stats.timeouts;
                x.3 += f.stats.rto_head_delivered;
                x.4 += f.stats.rto_undone;
            }
        }
        let mut peers = Vec::with_capacity(m.records.len());
        let (mut busy_bits, mut cap_bits) = (0.0, 0.0);
        for (id, r) in m.records.iter().enumerate() {
            let Some(up) = r.uplink else {
                continue; // planned, never joined
            };
            let live = sw.members.get(id).and_then(|x| x.as_ref());
            let st = r.stats.or(live.map(|x| x.peer.stats())).unwrap_or_default();
            let link = &self.links[up as usize];
            let ls = link.stats.as_ref().expect("uplinks are monitored");
            let present = win(r.joined, r.left.unwrap_or(end));
            let busy = ls.busy_ns as f64 * 1e-9;
            if !link.rate.is_infinite() {
                busy_bits += busy * link.rate.0 as f64;
                cap_bits += present * link.rate.0 as f64;
            }
            let rank = r.rank;
            m.samples[r.class].dequeue.merge(&ls.deq);
            peers.push(PeerResult {
                id: id as u32,
                class: m.class_names[r.class].clone(),
                initial_seed: r.initial_seed,
                joined_s: r.joined.as_secs_f64(),
                completed_s: r.completed.map(|t| t.as_secs_f64()),
                left_s: r.left.map(|t| t.as_secs_f64()),
                download_s: r
                    .completed
                    .filter(|_| !r.initial_seed)
                    .map(|t| (t - r.joined).as_secs_f64()),
                completion_rank: rank,
                measured: rank.is_some_and(|k| m.measured(k)),
                downloaded: st.downloaded,
                duplicate: st.duplicate,
                endgame_duplicate: st.endgame_duplicate,
                uploaded_utp: r.uploaded_utp,
                uploaded_tcp: r.uploaded_tcp,
                max_connections: r.max_connections,
                queue_samples: r.q_samples,
                uplink_queue_pkts: (r.q_samples > 0)
                    .then(|| r.q_pkts_sum as f64 / r.q_samples as f64),
                uplink_queue_ms: (r.q_samples > 0).then(|| r.q_ms_sum / r.q_samples as f64),
                uplink_max_queue_pkts: ls.max_q,
                uplink_drops: ls.queue_drops,
                uplink_utilisation: (present > 0.0).then(|| (busy / present).min(1.0)),
                uplink_queue_ms_per_packet: (ls.departures > 0)
                    .then(|| ls.qdelay_mean_sd().0 * 1e-6),
                uplink_dequeues: ls.deq.n,
                uplink_dequeue_nonempty: ls.deq.nonempty_fraction(),
                uplink_dequeue_queue_pkts: ls.deq.mean_pkts(),
                uplink_dequeue_queue_ms: ls.deq.mean_ms(),
                upload_lost_pkts: recovery[id].0,
                upload_loss_acks: recovery[id].1,
                upload_rtos: recovery[id].2,
                upload_rtos_head_delivered: recovery[id].3,
                upload_rtos_undone: recovery[id].4,
                idle_no_data: r.idle_no_data,
                idle_awaiting_ack: r.idle_ack,
                idle_awaiting_rto: r.idle_rto,
                idle_window_full: r.idle_unsent,
                block_latency_ms: (r.latency_n > 0)
                    .then(|| r.latency_sum_us as f64 / r.latency_n as f64 * 1e-3),
                late_requests: st.late_requests,
                duplicate_requests: st.duplicate_requests,
                ignored: st.ignored + st.invalid_blocks + st.violations,
            });
        }
        let rows: Vec<CompletionRow> = m
            .rows
            .iter()
            .map(|&(rank, at, id)| {
                let r = &m.records[id as usize];
                CompletionRow {
                    rank,
                    at_s: at.as_secs_f64(),
                    peer: id,
                    class: m.class_names[r.class].clone(),
                    download_s: (at - r.joined).as_secs_f64(),
                    measured: m.measured(rank),
                }
            })
            .collect();
        let complete = m.rows.len() as u32 >= m.discard + m.measure;
        let in_flight: u64 = self
            .flows
            .iter()
            .filter(|f| f.active)
            .filter_map(|f| f.conn())
            .flat_map(|c| c.stream.pending())
            .map(|f| match f {
                ledbat_bt_proto::Frame::Message(m) => m.data_len() as u64,
                ledbat_bt_proto::Frame::Handshake(_) => 0,
            })
            .sum();
        let result = SwarmResult::summarise(
            &m.class_names,
            peers,
            m.samples,
            rows,
            (
                window_start.map(|t| t.as_secs_f64()),
                end.as_secs_f64(),
                complete,
            ),
            (m.lost_bytes, in_flight),
        );
        let window = window_start.map_or(0.0, |w| (end.max(w) - w).as_secs_f64());
        let data = (result.data_tcp_bytes + result.data_utp_bytes) as f64 * 8.0;
        let throughput = if window > 0.0 { data / window } else { 0.0 };
        let (mut sent, mut dropped) = (0u64, 0u64);
        for f in &self.flows {
            sent += f.stats.sent_pkts;
            dropped += f.stats.dropped;
        }
        let mut shares = BTreeMap::new();
        if let Some(t) = result.tcp_byte_share {
            shares.insert("tcp".to_string(), t);
            shares.insert("utp".to_string(), 1.0 - t);
        }
        let capacity = if window > 0.0 { cap_bits / window } else { 0.0 };
        let uplink_departures = self
            .star
            .iter()
            .map(|&(u, _, _)| self.links[u as usize].total_departures)
            .sum();
        RunResult {
            scenario: self.sc.name.clone(),
            seed,
            duration_s: end.as_secs_f64(),
            warmup_s: window_start.map_or(end, |w| w).as_secs_f64(),
            capacity_bps: capacity,
            aggregate: Aggregate {
                throughput_bps: throughput,
                efficiency: if cap_bits > 0.0 {
                    busy_bits / cap_bits
                } else {
                    0.0
                },
                jain_long: None,
                jain_short: None,
                tcp_share: result.tcp_byte_share.unwrap_or(0.0),
                protocol_share: shares,
                loss_rate: if sent > 0 {
                    dropped as f64 / sent as f64
                } else {
                    0.0
                },
                primary_link: None,
            },
            flows: Vec::new(),
            links: Vec::new(),
            conservation: self.conservation(),
            engine: self.engine_stats(uplink_departures),
            series: None,
            swarm: Some(result),
        }
    }
}
