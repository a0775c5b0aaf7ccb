//! What a swarm run measured: per peer, per class and for the whole swarm, with the
//! completion-time statistics of seed 003 chapter 5 (section 5.1: the first `discard`
//! completions are the transient; the next `measure` are the sample).
//!
//! The *measurement window* runs from the `discard`-th leecher completion (t = 0 when
//! `discard` is 0) to the end of the run (the `discard + measure`-th completion, or the
//! scenario's duration). Queue samples, block latencies, byte shares, drops and link
//! utilisation count inside the window only; completion and byte counters of a peer cover
//! its whole life.

use crate::stats::{mean, quantile, DequeueStats, LogHistogram};
use serde::{Deserialize, Serialize};

/// One peer of a swarm run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PeerResult {
    /// Its id (order of creation).
    pub id: u32,
    /// Its class's name.
    pub class: String,
    /// One of the initial seeds.
    pub initial_seed: bool,
    /// When it joined, s.
    pub joined_s: f64,
    /// When it had the whole file, s.
    pub completed_s: Option<f64>,
    /// When it left, s.
    pub left_s: Option<f64>,
    /// Download time (completion minus join), s.
    pub download_s: Option<f64>,
    /// Rank of its completion among the leechers' (1 = first), if it completed.
    pub completion_rank: Option<u32>,
    /// Its completion is one of the measured ones.
    pub measured: bool,
    /// File bytes received for the first time.
    pub downloaded: u64,
    /// Bytes of blocks received again (endgame copies and copies crossing a CHOKE).
    pub duplicate: u64,
    /// The part of `duplicate` requested in endgame mode.
    pub endgame_duplicate: u64,
    /// Block bytes it uploaded over uTP (handed to the transport).
    pub uploaded_utp: u64,
    /// Block bytes it uploaded over TCP.
    pub uploaded_tcp: u64,
    /// Most connections it had at once.
    pub max_connections: u32,
    /// Queue samples of its uplink in the window.
    pub queue_samples: u64,
    /// Mean sampled uplink queue in the window, packets waiting.
    pub uplink_queue_pkts: Option<f64>,
    /// Mean sampled uplink queueing delay in the window (the wait of a packet arriving at
    /// the sample instant), ms.
    pub uplink_queue_ms: Option<f64>,
    /// Largest uplink queue seen by an arriving packet in the window, packets.
    pub uplink_max_queue_pkts: u64,
    /// Packets its uplink dropped in the window.
    pub uplink_drops: u64,
    /// Fraction of its time in the window that its uplink was serialising.
    pub uplink_utilisation: Option<f64>,
    /// Mean queueing delay of the packets its uplink sent in the window, ms: the queue
    /// seen per packet, so idle time does not count (seed 003 section 6.2.1 logged the
    /// queue after every dequeue).
    pub uplink_queue_ms_per_packet: Option<f64>,
    /// Packets its uplink put into service in the window (dequeues).
    pub uplink_dequeues: u64,
    /// Fraction of those dequeues that left its uplink queue non-empty (seed 003 section
    /// 6.2.2 reads "after a dequeue operation the queue is non-empty" off its logs).
    pub uplink_dequeue_nonempty: Option<f64>,
    /// Mean packets a dequeue left waiting.
    pub uplink_dequeue_queue_pkts: Option<f64>,
    /// Mean bytes a dequeue left waiting, as the time the uplink needs to send them, ms
    /// (the thesis's E\[Q\] in ms).
    pub uplink_dequeue_queue_ms: Option<f64>,
    /// Packets of its outgoing flows declared lost by duplicate acknowledgements.
    pub upload_lost_pkts: u64,
    /// ACKs that declared such losses (loss-recovery episodes without the timer).
    pub upload_loss_acks: u64,
    /// Retransmission timeouts of its outgoing flows (every expiry, back-offs included).
    pub upload_rtos: u64,
    /// First timeouts (not back-offs) of those flows that fired with the oldest
    /// unacknowledged packet already at the receiver: spurious, its ACK late or lost.
    pub upload_rtos_head_delivered: u64,
    /// Timeouts of those flows found spurious and undone (`transport.spurious_rto`).
    pub upload_rtos_undone: u64,
    /// Queue samples with its uplink idle and nothing outstanding on its outgoing flows.
    pub idle_no_data: u64,
    /// Idle samples while one of its flows had data outstanding that an ACK then moved
    /// (the flow silent longest is the one charged).
    pub idle_awaiting_ack: u64,
    /// Idle samples while that flow waited for its retransmission timer.
    pub idle_awaiting_rto: u64,
    /// Idle samples with data written to one of its outgoing flows and not sent (that
    /// flow's window full; counted besides the three above).
    pub idle_window_full: u64,
    /// Mean time from queuing a request to receiving the block, in the window, ms.
    pub block_latency_ms: Option<f64>,
    /// Requests refused because they crossed our CHOKE.
    pub late_requests: u64,
    /// Requests for a block already queued (a re-request overtaking our UNCHOKE).
    pub duplicate_requests: u64,
    /// Peer input dropped as malformed or out of place (0 in a sound run).
    pub ignored: u64,
}

/// What the network model accumulates per class in the measurement window: sample
/// histograms and byte counters that per-peer means cannot give back.
#[derive(Clone, Debug, Default)]
pub struct ClassSamples {
    /// Entry `k`: uplink samples with `k` packets waiting.
    pub queue_pkts: Vec<u64>,
    /// Entry `k`: uplink samples with a queueing delay in `[k, k + 1)` ms.
    pub queue_ms: Vec<u64>,
    /// Request-to-block latencies, µs.
    pub latency_us: LogHistogram,
    /// Their sum, µs (the histogram's buckets would bias the mean).
    pub latency_sum_us: u64,
    /// Block bytes delivered to peers of the class, by the uploader's transport.
    pub received_utp: u64,
    /// See `received_utp`.
    pub received_tcp: u64,
    /// The queue every dequeue of the class's uplinks left, pooled over its peers.
    pub dequeue: DequeueStats,
}

fn bump(h: &mut Vec<u64>, k: usize) {
    if h.len() <= k {
        h.resize(k + 1, 0);
    }
    h[k] += 1;
}

impl ClassSamples {
    /// One uplink sample: `pkts` waiting, a wait of `ms` milliseconds.
    pub fn add_queue(&mut self, pkts: usize, ms: f64) {
        bump(&mut self.queue_pkts, pkts);
        bump(&mut self.queue_ms, ms.max(0.0) as usize);
    }

    /// One request-to-block latency.
    pub fn add_latency(&mut self, us: u64) {
        self.latency_us.add(us);
        self.latency_sum_us += us;
    }
}

/// A complementary distribution read off a histogram: `(x, P(X > x))` at every `x` where
/// it changes, from 0.
pub fn ccdf(hist: &[u64]) -> Vec<(f64, f64)> {
    let total: u64 = hist.iter().sum();
    if total == 0 {
        return Vec::new();
    }
    let mut above = total;
    let mut out = Vec::new();
    for (k, &n) in hist.iter().enumerate() {
        above -= n;
        if n > 0 || k == 0 {
            out.push((k as f64, above as f64 / total as f64));
        }
    }
    out
}

/// `P(X > x)` of a histogram with unit bins.
pub fn fraction_above(hist: &[u64], x: usize) -> Option<f64> {
    let total: u64 = hist.iter().sum();
    (total > 0).then(|| hist.iter().skip(x + 1).sum::<u64>() as f64 / total as f64)
}

/// Mean of a histogram with unit bins (bin `k` stands for `k`).
fn hist_mean(hist: &[u64]) -> Option<f64> {
    let total: u64 = hist.iter().sum();
    (total > 0).then(|| {
        hist.iter()
            .enumerate()
            .map(|(k, &n)| k as f64 * n as f64)
            .sum::<f64>()
            / total as f64
    })
}

/// Completion-time statistics of a set of download times, s.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeStats {
    /// Number of times.
    pub n: u32,
    /// Mean.
    pub mean: Option<f64>,
    /// Population standard deviation.
    pub sd: Option<f64>,
    /// First quartile.
    pub q1: Option<f64>,
    /// Median.
    pub median: Option<f64>,
    /// Third quartile.
    pub q3: Option<f64>,
}

impl TimeStats {
    /// The statistics of `v`.
    pub fn of(v: &[f64]) -> Self {
        let m = mean(v);
        TimeStats {
            n: v.len() as u32,
            mean: m,
            sd: m.map(|m| {
                (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt()
            }),
            q1: quantile(v, 0.25),
            median: quantile(v, 0.5),
            q3: quantile(v, 0.75),
        }
    }
}

/// One class of peers over a swarm run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassResult {
    /// The class's name.
    pub name: String,
    /// Peers of the class that joined.
    pub peers: u32,
    /// Download times of its measured completions, s.
    pub download: TimeStats,
    /// Mean of its uplink queue samples in the window, packets.
    pub queue_mean_pkts: Option<f64>,
    /// Mean of its uplink queue samples in the window, ms.
    pub queue_mean_ms: Option<f64>,
    /// Fraction of its uplink samples with more than 100 packets waiting (seed 003
    /// section 5.2.1 reads this off Fig. 5.2).
    pub queue_over_100_pkts: Option<f64>,
    /// Dequeues of its peers' uplinks in the window, pooled (seed 003 section 6.2.1 logs
    /// the queue after every dequeue).
    pub dequeues: u64,
    /// Fraction of those dequeues that left a non-empty queue.
    pub dequeue_nonempty: Option<f64>,
    /// Mean packets a dequeue left waiting.
    pub dequeue_queue_mean_pkts: Option<f64>,
    /// Mean bytes a dequeue left waiting, as serialisation time, ms (the thesis's E\[Q\]).
    pub dequeue_queue_mean_ms: Option<f64>,
    /// Entry `k`: samples with `k` packets waiting (for the CCDF; trailing zeros cut).
    pub queue_hist_pkts: Vec<u64>,
    /// Entry `k`: samples with a wait in `[k, k + 1)` ms.
    pub queue_hist_ms: Vec<u64>,
    /// Mean over its peers of their uplink utilisation in the window.
    pub uplink_utilisation: Option<f64>,
    /// Request-to-block latency (the signalling delay seed 003 section 5.2.1 blames), ms.
    pub block_latency_mean_ms: Option<f64>,
    /// Its median, ms.
    pub block_latency_p50_ms: Option<f64>,
    /// Its 95th percentile, ms.
    pub block_latency_p95_ms: Option<f64>,
    /// Block bytes its peers uploaded over uTP and TCP (whole run).
    pub uploaded_utp: u64,
    /// See `uploaded_utp`.
    pub uploaded_tcp: u64,
    /// Block bytes its peers received in the window by the uploader's transport.
    pub received_utp: u64,
    /// See `received_utp`.
    pub received_tcp: u64,
}

/// One leecher completion, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompletionRow {
    /// 1 = first leecher completion.
    pub rank: u32,
    /// When, s.
    pub at_s: f64,
    /// The peer.
    pub peer: u32,
    /// Its class.
    pub class: String,
    /// Its download time, s.
    pub download_s: f64,
    /// Part of the measured sample.
    pub measured: bool,
}

/// A swarm run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwarmResult {
    /// Every peer that joined, by id.
    pub peers: Vec<PeerResult>,
    /// Per class, in configuration order.
    pub classes: Vec<ClassResult>,
    /// Every leecher completion, in order.
    pub completions: Vec<CompletionRow>,
    /// Measured completions (at most `measure`).
    pub measured: u32,
    /// Download times of the measured completions: the thesis's metric.
    pub download: TimeStats,
    /// Whether `measure` completions were reached before the scenario's duration.
    pub complete: bool,
    /// Start of the measurement window, s (`None`: the transient never ended).
    pub window_start_s: Option<f64>,
    /// When the run stopped, s.
    pub ended_s: f64,
    /// Block bytes delivered in the window over TCP and over uTP.
    pub data_tcp_bytes: u64,
    /// See `data_tcp_bytes`.
    pub data_utp_bytes: u64,
    /// Byte-wise share of the window's block data carried by TCP (seed 003 section 6.2.2's
    /// "X/Y" share).
    pub tcp_byte_share: Option<f64>,
    /// Mean of every uplink queue sample in the window, ms.
    pub queue_mean_ms: Option<f64>,
    /// Mean of every uplink queue sample in the window, packets.
    pub queue_mean_pkts: Option<f64>,
    /// Fraction of every uplink dequeue in the window that left a non-empty queue.
    pub dequeue_nonempty: Option<f64>,
    /// Mean queue every uplink dequeue in the window left, as serialisation time, ms.
    pub dequeue_queue_mean_ms: Option<f64>,
    /// Block bytes in flight on connections closed by a departure.
    pub lost_bytes: u64,
    /// Block bytes handed to open connections and not yet delivered when the run stopped.
    /// Conservation: the peers' uploads equal their receipts (`downloaded + duplicate`)
    /// plus `lost_bytes` plus this.
    pub in_flight_bytes: u64,
}

fn trimmed(mut h: Vec<u64>) -> Vec<u64> {
    while h.last() == Some(&0) {
        h.pop();
    }
    h
}

impl SwarmResult {
    /// Builds the class and swarm summaries from the per-peer results and the per-class
    /// samples (one per name of `class_names`, same order).
    pub fn summarise(
        class_names: &[String],
        peers: Vec<PeerResult>,
        samples: Vec<ClassSamples>,
        completions: Vec<CompletionRow>,
        window: (Option<f64>, f64, bool),
        (lost_bytes, in_flight_bytes): (u64, u64),
    ) -> Self {
        let (window_start_s, ended_s, complete) = window;
        let times = |f: &dyn Fn(&PeerResult) -> bool| -> Vec<f64> {
            peers
                .iter()
                .filter(|p| p.measured && f(p))
                .filter_map(|p| p.download_s)
                .collect()
        };
        let mut all_deq = DequeueStats::default();
        let mut all_pkts: Vec<u64> = Vec::new();
        let mut all_ms: Vec<u64> = Vec::new();
        let (mut tcp, mut utp) = (0, 0);
        let classes: Vec<ClassResult> = class_names
            .iter()
            .zip(samples)
            .map(|(name, s)| {
                let members: Vec<&PeerResult> = peers.iter().filter(|p| &p.class == name).collect();
                let util: Vec<f64> = members
                    .iter()
                    .filter_map(|p| p.uplink_utilisation)
                    .collect();
                for (k, &n) in s.queue_pkts.iter().enumerate() {
                    if all_pkts.len() <= k {
                        all_pkts.resize(k + 1, 0);
                    }
                    all_pkts[k] += n;
                }
                for (k, &n) in s.queue_ms.iter().enumerate() {
                    if all_ms.len() <= k {
                        all_ms.resize(k + 1, 0);
                    }
                    all_ms[k] += n;
                }
                tcp += s.received_tcp;
                utp += s.received_utp;
                all_deq.merge(&s.dequeue);
                let lat = &s.latency_us;
                ClassResult {
                    name: name.clone(),
                    peers: members.len() as u32,
                    download: TimeStats::of(&times(&|p| &p.class == name)),
                    queue_mean_pkts: hist_mean(&s.queue_pkts),
                    queue_mean_ms: hist_mean(&s.queue_ms).map(|m| m + 0.5),
                    queue_over_100_pkts: fraction_above(&s.queue_pkts, 100),
                    dequeues: s.dequeue.n,
                    dequeue_nonempty: s.dequeue.nonempty_fraction(),
                    dequeue_queue_mean_pkts: s.dequeue.mean_pkts(),
                    dequeue_queue_mean_ms: s.dequeue.mean_ms(),
                    uplink_utilisation: mean(&util),
                    block_latency_mean_ms: (lat.count() > 0)
                        .then(|| s.latency_sum_us as f64 / lat.count() as f64 * 1e-3),
                    block_latency_p50_ms: lat.quantile(0.5).map(|us| us * 1e-3),
                    block_latency_p95_ms: lat.quantile(0.95).map(|us| us * 1e-3),
                    uploaded_utp: members.iter().map(|p| p.uploaded_utp).sum(),
                    uploaded_tcp: members.iter().map(|p| p.uploaded_tcp).sum(),
                    received_utp: s.received_utp,
                    received_tcp: s.received_tcp,
                    queue_hist_pkts: trimmed(s.queue_pkts),
                    queue_hist_ms: trimmed(s.queue_ms),
                }
            })
            .collect();
        let all = times(&|_| true);
        SwarmResult {
            classes,
            completions,
            measured: all.len() as u32,
            download: TimeStats::of(&all),
            complete,
            window_start_s,
            ended_s,
            data_tcp_bytes: tcp,
            data_utp_bytes: utp,
            tcp_byte_share: (tcp + utp > 0).then(|| tcp as f64 / (tcp + utp) as f64),
            queue_mean_ms: hist_mean(&all_ms).map(|m| m + 0.5),
            queue_mean_pkts: hist_mean(&all_pkts),
            dequeue_nonempty: all_deq.nonempty_fraction(),
            dequeue_queue_mean_ms: all_deq.mean_ms(),
            lost_bytes,
            in_flight_bytes,
            peers,
        }
    }

    /// The class named `name`.
    pub fn class(&self, name: &str) -> Option<&ClassResult> {
        self.classes.iter().find(|c| c.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(id: u32, class: &str, download: Option<f64>, measured: bool) -> PeerResult {
        PeerResult {
            id,
            class: class.into(),
            initial_seed: false,
            joined_s: 0.0,
            completed_s: download,
            left_s: None,
            download_s: download,
            completion_rank: None,
            measured,
            downloaded: 0,
            duplicate: 0,
            endgame_duplicate: 0,
            uploaded_utp: 10,
            uploaded_tcp: 1,
            max_connections: 0,
            queue_samples: 0,
            uplink_queue_pkts: None,
            uplink_queue_ms: None,
            uplink_max_queue_pkts: 0,
            uplink_drops: 0,
            uplink_utilisation: Some(id as f64 / 10.0),
            uplink_queue_ms_per_packet: None,
            uplink_dequeues: 0,
            uplink_dequeue_nonempty: None,
            uplink_dequeue_queue_pkts: None,
            uplink_dequeue_queue_ms: None,
            upload_lost_pkts: 0,
            upload_loss_acks: 0,
            upload_rtos: 0,
            upload_rtos_head_delivered: 0,
            upload_rtos_undone: 0,
            idle_no_data: 0,
            idle_awaiting_ack: 0,
            idle_awaiting_rto: 0,
            idle_window_full: 0,
            block_latency_ms: None,
            late_requests: 0,
            duplicate_requests: 0,
            ignored: 0,
        }
    }

    #[test]
    fn only_measured_completions_enter_the_download_time() {
        let peers = vec![
            peer(0, "a", Some(100.0), false), // transient
            peer(1, "a", Some(200.0), true),
            peer(2, "b", Some(400.0), true),
            peer(3, "b", None, false), // never completed
        ];
        let r = SwarmResult::summarise(
            &["a".into(), "b".into()],
            peers,
            vec![ClassSamples::default(), ClassSamples::default()],
            Vec::new(),
            (Some(50.0), 900.0, false),
            (0, 0),
        );
        assert_eq!(r.measured, 2);
        assert_eq!(r.download.mean, Some(300.0));
        assert_eq!(r.download.sd, Some(100.0));
        assert_eq!(r.classes[0].download.mean, Some(200.0));
        assert_eq!(r.classes[0].peers, 2);
        assert_eq!(r.classes[1].download.n, 1);
        // Utilisation is averaged over every member, measured or not: (0.2 + 0.3) / 2.
        assert_eq!(r.classes[1].uplink_utilisation, Some(0.25));
        assert_eq!(r.classes[1].uploaded_utp, 20);
        assert_eq!(r.tcp_byte_share, None, "no block delivered in the window");
    }

    #[test]
    fn dequeues_are_pooled_per_class_and_over_the_swarm() {
        use crate::queue::Dequeue;
        let d = |pkts, bytes| Dequeue { at: 0, pkts, bytes };
        // Class a: three dequeues at 1 Mb/s leaving 0, 1 and 2 packets (0, 1500 and 3000
        // bytes: 0, 12 and 24 ms); class b: one at 2 Mb/s leaving 1500 bytes (6 ms).
        let mut a = ClassSamples::default();
        for (p, b) in [(0, 0), (1, 1500), (2, 3000)] {
            a.dequeue.add(d(p, b), 1_000_000);
        }
        let mut b = ClassSamples::default();
        b.dequeue.add(d(1, 1500), 2_000_000);
        let r = SwarmResult::summarise(
            &["a".into(), "b".into()],
            Vec::new(),
            vec![a, b],
            Vec::new(),
            (Some(0.0), 10.0, true),
            (0, 0),
        );
        let ca = &r.classes[0];
        assert_eq!(ca.dequeues, 3);
        assert!((ca.dequeue_nonempty.unwrap() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(ca.dequeue_queue_mean_pkts, Some(1.0));
        assert!((ca.dequeue_queue_mean_ms.unwrap() - 12.0).abs() < 1e-9);
        // The swarm pools all four: 3 of 4 non-empty, (0 + 12 + 24 + 6) / 4 ms.
        assert_eq!(r.dequeue_nonempty, Some(0.75));
        assert!((r.dequeue_queue_mean_ms.unwrap() - 10.5).abs() < 1e-9);
    }

    #[test]
    fn queue_samples_give_means_ccdf_and_the_share_above_100_packets() {
        let mut a = ClassSamples::default();
        // Four samples: 0, 0, 150 and 250 packets; 0.2, 0.7, 1800.4 and 3000.9 ms.
        a.add_queue(0, 0.2);
        a.add_queue(0, 0.7);
        a.add_queue(150, 1800.4);
        a.add_queue(250, 3000.9);
        a.received_tcp = 300;
        let mut b = ClassSamples::default();
        b.add_queue(10, 120.0);
        b.received_utp = 100;
        let r = SwarmResult::summarise(
            &["a".into(), "b".into()],
            Vec::new(),
            vec![a, b],
            Vec::new(),
            (Some(0.0), 10.0, true),
            (0, 0),
        );
        let ca = &r.classes[0];
        assert_eq!(ca.queue_mean_pkts, Some(100.0));
        assert_eq!(ca.queue_over_100_pkts, Some(0.5));
        // Bins 0, 0, 1800, 3000 ms, each read at its middle: 4800 / 4 + 0.5.
        assert_eq!(ca.queue_mean_ms, Some(1200.5));
        assert_eq!(ca.queue_hist_pkts.len(), 251);
        assert_eq!(
            ccdf(&ca.queue_hist_pkts),
            vec![(0.0, 0.5), (150.0, 0.25), (250.0, 0.0)]
        );
        // Five samples over both classes: (0 + 0 + 150 + 250 + 10) / 5.
        assert_eq!(r.queue_mean_pkts, Some(82.0));
        // No dequeue counted: the per-dequeue figures are absent, not zero.
        assert_eq!((ca.dequeues, ca.dequeue_nonempty), (0, None));
        assert_eq!(r.dequeue_queue_mean_ms, None);
        assert_eq!(r.tcp_byte_share, Some(0.75));
        assert_eq!(fraction_above(&[], 3), None);
    }
}
