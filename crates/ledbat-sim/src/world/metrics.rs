//! Measurement: per-flow counters, periodic samples (time series, one-second windows) and
//! the final [`RunResult`].

use super::flow::Flow;
use super::{World, SECOND, TCP_CONTROLLERS};
use crate::engine::Ev;
use crate::result::*;
use crate::stats::{jain, Welford};
use ledbat_core::Controller;
use std::collections::BTreeMap;

/// A flow's statistics. Counters named "measured" count after the warm-up only.
///
/// In declaration order (`repr(C)`): the counters that packets update first, the series
/// and the per-sample state after them, so that a packet touches the fewest lines of its
/// flow ([`Flow`]'s comment).
#[derive(Debug, Default)]
#[repr(C)]
pub(super) struct FlowStats {
    /// Data packets (and datagrams) sent, measured.
    pub sent_pkts: u64,
    /// Retransmissions, measured.
    pub retx_pkts: u64,
    /// Packets declared lost, measured.
    pub losses: u64,
    /// ACKs that declared at least one packet lost (loss-recovery episodes started by
    /// duplicate acknowledgements rather than by the timer), measured.
    pub loss_acks: u64,
    /// Retransmission timeouts found spurious and undone (`transport.spurious_rto`),
    /// measured.
    pub rto_undone: u64,
    pub rtt_sum_ms: f64,
    pub rtt_n: u64,
    /// Swarm only: idle-uplink samples charged to this flow (it had data outstanding and
    /// had been silent longest), classified by what ends the wait: the retransmission
    /// timer or an acknowledgement ([`FlowStats::take_idle`]).
    pub idle_pending: u64,
    /// Bytes delivered in order, measured.
    pub delivered_win: u64,
    /// Bytes delivered since the last sample.
    pub sample_bytes: u64,
    /// Bytes delivered in the current one-second window.
    pub sec_bytes: u64,
    /// Data packets dropped in the network, measured.
    pub dropped: u64,
    /// Retransmission timeouts, measured.
    pub timeouts: u64,
    /// First retransmission timeouts (not back-offs) that fired although the receiver
    /// already had the oldest unacknowledged packet: its ACK was late or lost, so the
    /// timeout was spurious for that packet (a lower bound on spurious timeouts), measured.
    pub rto_head_delivered: u64,
    pub app_discarded: u64,
    /// Bits delivered per one-second window.
    pub per_sec: Vec<f64>,
    pub cwnd_w: Welford,
    pub completions: Vec<Completion>,
    pub s_cwnd: Vec<f64>,
    pub s_rate: Vec<f64>,
    pub s_qd: Vec<f64>,
    /// The controller's state name at each sample (`Metrics::state`; "" while inactive).
    pub s_state: Vec<&'static str>,
    /// Competitor tests (counted or collided) of this flow recorded so far.
    pub tests_seen: u64,
}

impl FlowStats {
    /// Empty statistics with room for `series_len` samples and `seconds` windows.
    pub fn new(series_len: usize, seconds: usize) -> Self {
        let mut s = FlowStats {
            s_cwnd: Vec::with_capacity(series_len),
            s_rate: Vec::with_capacity(series_len),
            s_qd: Vec::with_capacity(series_len),
            s_state: Vec::with_capacity(series_len),
            ..FlowStats::default()
        };
        s.per_sec.reserve_exact(seconds);
        s
    }
}

impl World<'_> {
    pub(super) fn on_sample(&mut self) {
        if self.swarm.is_some() {
            return self.on_swarm_sample();
        }
        let now = self.now;
        let measuring = self.measuring();
        let keep = self.sc.series;
        let mss = self.mss as f64;
        let secs = self.sample_every.as_secs_f64();
        for (i, f) in self.flows.iter_mut().enumerate() {
            let (cwnd, qd, state) = match (&f.sender, f.active) {
                (Some(s), true) => {
                    let cc = s.cc();
                    let m = cc.metrics();
                    (
                        cc.window() as f64 / mss,
                        m.queuing_delay.map_or(f64::NAN, |d| d.as_millis_f64()),
                        m.state,
                    )
                }
                _ => (0.0, f64::NAN, ""),
            };
            if keep {
                if let Some(s) = &f.sender {
                    record_test(&mut self.series_tests, i, s.cc(), &mut f.stats);
                }
            }
            let st = &mut f.stats;
            if measuring && f.active && f.sender.is_some() {
                st.cwnd_w.add(cwnd);
            }
            if keep {
                st.s_cwnd.push(cwnd);
                st.s_rate.push(st.sample_bytes as f64 * 8.0 / secs / 1e6);
                st.s_qd.push(qd);
                st.s_state.push(state);
            }
            st.sample_bytes = 0;
        }
        if keep {
            self.series_t.push(now.as_secs_f64());
            let ns = now.as_nanos();
            for (k, &l) in self.monitored.iter().take(8).enumerate() {
                let q = &self.links[l].queue;
                let len = if q.is_fifo_analytic() {
                    q.waiting_at(ns)
                } else {
                    q.len()
                };
                self.series_links[k].push(len as u32);
            }
        }
        let next = now + self.sample_every;
        if next <= self.end {
            self.at(next, Ev::Sample);
        }
    }

    pub(super) fn on_second(&mut self) {
        for f in &mut self.flows {
            f.stats.per_sec.push(f.stats.sec_bytes as f64 * 8.0);
            f.stats.sec_bytes = 0;
        }
        let next = self.now + SECOND;
        if next <= self.end {
            self.at(next, Ev::Second);
        }
    }

    pub(super) fn finish(mut self, seed: u64) -> RunResult {
        self.settle_dequeues(self.end);
        let (now, warmup) = (self.end.as_nanos(), self.warmup.as_nanos());
        let window = (self.end - self.warmup).as_nanos().max(1) as f64 * 1e-9;
        // Close the time-weighted queue areas.
        for l in &mut self.links {
            let len = l.queue.len();
            if l.queue.is_fifo_analytic() {
                continue;
            }
            if let Some(s) = l.stats.as_mut() {
                s.update_area(len, now, warmup);
            }
        }
        let mut flows = Vec::with_capacity(self.flows.len());
        let mut total = 0.0;
        let mut shares: BTreeMap<String, f64> = BTreeMap::new();
        let (mut sent, mut dropped) = (0u64, 0u64);
        for f in &self.flows {
            let s = &f.stats;
            let thr = s.delivered_win as f64 * 8.0 / window;
            total += thr;
            *shares.entry(f.meta.ctrl.clone()).or_default() += thr;
            sent += s.sent_pkts;
            dropped += s.dropped;
            flows.push(FlowResult {
                name: f.meta.name.clone(),
                controller: f.meta.ctrl.clone(),
                sent_packets: s.sent_pkts,
                retransmits: s.retx_pkts,
                timeouts: s.timeouts,
                timeouts_undone: s.rto_undone,
                losses_detected: s.losses,
                dropped_packets: s.dropped,
                loss_rate: if s.sent_pkts > 0 {
                    s.dropped as f64 / s.sent_pkts as f64
                } else {
                    0.0
                },
                delivered_bytes: s.delivered_win,
                throughput_bps: thr,
                cwnd_mean_pkts: s.cwnd_w.mean(),
                cwnd_sd_pkts: s.cwnd_w.sd(),
                rtt_mean_ms: (s.rtt_n > 0).then(|| s.rtt_sum_ms / s.rtt_n as f64),
                time_to_steady_s: self.steady_time(f),
                completions: s.completions.clone(),
                app_discarded: s.app_discarded,
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
            tests: std::mem::take(&mut self.series_tests),
            states: self
                .flows
                .iter_mut()
                .map(|f| std::mem::take(&mut f.stats.s_state))
                .collect(),
            flows: self
                .flows
                .iter_mut()
                .map(|f| FlowSeries {
                    name: f.meta.name.clone(),
                    cwnd_pkts: std::mem::take(&mut f.stats.s_cwnd),
                    rate_mbps: std::mem::take(&mut f.stats.s_rate),
                    qdelay_ms: std::mem::take(&mut f.stats.s_qd),
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
            conservation: self.conservation(),
            engine: self.engine_stats(bottleneck_packets),
            series,
            swarm: None,
        }
    }

    /// Packets sent = delivered + dropped + still in the network.
    pub(super) fn conservation(&self) -> Conservation {
        let in_network = self.pool.live;
        Conservation {
            sent: self.sent,
            delivered: self.delivered,
            dropped: self.dropped,
            in_network,
            holds: self.sent == self.delivered + self.dropped + in_network,
        }
    }

    /// The engine's counters, with the packets of the links that count as bottlenecks.
    pub(super) fn engine_stats(&self, bottleneck_packets: u64) -> EngineStats {
        EngineStats {
            events: self.ev.processed(),
            bottleneck_packets,
            peak_packets: self.pool.peak,
            peak_events: self.ev.peak() as u64,
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
            dequeues: s.deq.n,
            dequeue_nonempty: s.deq.nonempty_fraction(),
            dequeue_queue_mean_pkts: s.deq.mean_pkts(),
            dequeue_queue_mean_ms: s.deq.mean_ms(),
        }
    }

    /// Window `k` covers `[k s, (k+1) s)`; a flow is active in it when it ran throughout.
    fn window_active(f: &Flow, k: usize) -> bool {
        let ws = ledbat_core::Instant::ZERO + SECOND * k as u64;
        let we = ws + SECOND;
        f.meta.start <= ws && f.meta.stop >= we && f.meta.finished_at.is_none_or(|t| t >= we)
    }

    fn jain_short(&self) -> Option<f64> {
        let n = self.flows.first().map_or(0, |f| f.stats.per_sec.len());
        let mut acc = Welford::default();
        let mut xs = Vec::new();
        for k in 0..n {
            xs.clear();
            let ws = ledbat_core::Instant::ZERO + SECOND * k as u64;
            xs.extend(
                self.flows
                    .iter()
                    .filter(|f| ws >= self.warmup && Self::window_active(f, k))
                    .map(|f| f.stats.per_sec[k]),
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
        let per_sec = &f.stats.per_sec;
        let ks: Vec<usize> = (0..per_sec.len())
            .filter(|&k| Self::window_active(f, k))
            .collect();
        if ks.len() < 2 {
            return None;
        }
        let half = &ks[ks.len() / 2..];
        let m = half.iter().map(|&k| per_sec[k]).sum::<f64>() / half.len() as f64;
        if m <= 0.0 {
            return None;
        }
        let mut first = None;
        for &k in ks.iter().rev() {
            if (per_sec[k] - m).abs() <= 0.2 * m {
                first = Some(k);
            } else {
                break;
            }
        }
        first.map(|k| (ledbat_core::Instant::ZERO + SECOND * k as u64 - f.meta.start).as_secs_f64())
    }
}

/// Appends the last competitor test of `cc` (a LEDBAT++ or scavenger flow) when one ended
/// since the previous sample, with the number of others that ended in between.
fn record_test(
    out: &mut Vec<TestRecord>,
    flow: usize,
    cc: &ledbat_core::AnyController,
    st: &mut FlowStats,
) {
    let Some(comp) = cc.competitor() else {
        return;
    };
    let n = comp.tests() + comp.push_collisions();
    if n == st.tests_seen {
        return;
    }
    if let Some(outcome) = comp.last_test() {
        out.push(TestRecord {
            flow,
            outcome,
            unseen: n - st.tests_seen - 1,
        });
    }
    st.tests_seen = n;
}
