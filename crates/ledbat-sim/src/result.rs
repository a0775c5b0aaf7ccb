//! What a run produces: serialisable metrics per flow, per monitored link and for the whole
//! run, plus time series. Field units are in the names (`_bps`, `_ms`, `_s`, `_pkts`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The result of one run of one scenario with one seed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunResult {
    /// Scenario name.
    pub scenario: String,
    /// Seed of the run.
    pub seed: u64,
    /// Simulated duration, s.
    pub duration_s: f64,
    /// Start of the measurement window, s.
    pub warmup_s: f64,
    /// Capacity the efficiency refers to, bits/s (dumbbell: the forward bottleneck, plus
    /// the reverse one when some flow sends on the reverse path; star: sum of the up links
    /// of hosts that send).
    pub capacity_bps: f64,
    /// Whole-run metrics.
    pub aggregate: Aggregate,
    /// One entry per flow, in scenario order (copies expanded).
    pub flows: Vec<FlowResult>,
    /// Monitored links (dumbbell: forward then reverse bottleneck; star: every host's up
    /// then down link).
    pub links: Vec<LinkResult>,
    /// Packet conservation check at the end of the run.
    pub conservation: Conservation,
    /// Engine counters.
    pub engine: EngineStats,
    /// Time series (absent when the scenario sets `series = false`, and for swarms).
    pub series: Option<Series>,
    /// A swarm run's per-peer and per-class results (absent for flow scenarios; then
    /// `flows` and `links` are empty and `aggregate` covers the swarm's uplinks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swarm: Option<crate::swarm::report::SwarmResult>,
}

/// Whole-run metrics over the measurement window.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Aggregate {
    /// Sum of flow throughputs, bits/s.
    pub throughput_bps: f64,
    /// eta = throughput / capacity.
    pub efficiency: f64,
    /// Jain's index of the flows' throughputs over the window.
    pub jain_long: Option<f64>,
    /// Mean of Jain's index over 1 s windows (flows active in the whole window).
    pub jain_short: Option<f64>,
    /// Share of the throughput carried by TCP controllers (newreno, cubic, vegas).
    pub tcp_share: f64,
    /// Throughput share per controller name (`udp` for CBR sources).
    pub protocol_share: BTreeMap<String, f64>,
    /// Data packets dropped / data packets sent, all flows.
    pub loss_rate: f64,
    /// Index into `links` of the primary bottleneck (dumbbell forward), if any.
    pub primary_link: Option<usize>,
}

/// One flow's metrics over the measurement window.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FlowResult {
    /// Flow name.
    pub name: String,
    /// Controller name (`udp` for CBR).
    pub controller: String,
    /// Data packets transmitted, retransmissions included.
    pub sent_packets: u64,
    /// Retransmissions.
    pub retransmits: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// Of those, timeouts found spurious and undone (`transport.spurious_rto`).
    pub timeouts_undone: u64,
    /// Packets declared lost by SACK/duplicate information.
    pub losses_detected: u64,
    /// Data packets of this flow dropped anywhere in the network.
    pub dropped_packets: u64,
    /// dropped / sent.
    pub loss_rate: f64,
    /// Bytes delivered in order to the receiver in the window.
    pub delivered_bytes: u64,
    /// Delivered bits per second of the window.
    pub throughput_bps: f64,
    /// Mean congestion window, packets (sampled every `sample_interval` while active).
    pub cwnd_mean_pkts: f64,
    /// Standard deviation of the congestion window, packets.
    pub cwnd_sd_pkts: f64,
    /// Mean RTT sample, ms.
    pub rtt_mean_ms: Option<f64>,
    /// Seconds from the flow's start to steady state (see SCENARIOS.md), if reached;
    /// computed over the whole run, warm-up included.
    pub time_to_steady_s: Option<f64>,
    /// Completed transfers, chunks or trains.
    pub completions: Vec<Completion>,
    /// Application packets discarded because the sender buffer was full (bursty).
    pub app_discarded: u64,
}

/// One completed unit of work.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Completion {
    /// When it started, s.
    pub start_s: f64,
    /// How long it took, s.
    pub time_s: f64,
    /// Its size, packets.
    pub packets: u64,
}

/// A monitored link.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LinkResult {
    /// Link name (`bottleneck`, `bottleneck-rev`, `up3`, `down3`).
    pub name: String,
    /// Rate, bits/s.
    pub rate_bps: f64,
    /// Packet limit of the queue, if any.
    pub buffer_pkts: Option<u32>,
    /// Packets that arrived at the link in the window.
    pub arrivals: u64,
    /// Packets serialised in the window.
    pub departures: u64,
    /// Packets the queue dropped (full, RED, CoDel).
    pub queue_drops: u64,
    /// Packets lost to the link's random loss.
    pub random_drops: u64,
    /// (queue + random drops) / arrivals.
    pub loss_rate: f64,
    /// Fraction of the window the link was serialising.
    pub utilisation: f64,
    /// Mean queue length seen by arriving packets (the thesis' "sampled at enqueue").
    pub queue_mean_arrival_pkts: f64,
    /// Time-weighted mean queue length.
    pub queue_mean_time_pkts: f64,
    /// `queue_mean_arrival_pkts / buffer_pkts`.
    pub queue_mean_over_buffer: Option<f64>,
    /// Largest queue length seen.
    pub queue_max_pkts: u64,
    /// Distribution of the queue length seen by arriving packets: entry `k` counts
    /// arrivals that found `k` packets waiting (trailing zeros trimmed; the last entry
    /// gathers everything longer than 4096).
    pub queue_hist: Vec<u64>,
    /// Mean per-packet queueing delay (wait before serialisation), ms.
    pub qdelay_mean_ms: f64,
    /// Its standard deviation, ms.
    pub qdelay_sd_ms: f64,
    /// 95th percentile, ms (log-linear histogram, <= 3.2 % error).
    pub qdelay_p95_ms: Option<f64>,
    /// 99th percentile, ms.
    pub qdelay_p99_ms: Option<f64>,
    /// Packets that entered service in the window (each one a dequeue).
    pub dequeues: u64,
    /// Fraction of those dequeues that left a non-empty queue (seed 003 section 6.2.2's
    /// "after a dequeue operation the queue is non-empty").
    pub dequeue_nonempty: Option<f64>,
    /// Mean packets left waiting by a dequeue.
    pub dequeue_queue_mean_pkts: Option<f64>,
    /// Mean bytes left waiting by a dequeue, as the time the link needs to send them, ms.
    pub dequeue_queue_mean_ms: Option<f64>,
}

/// Every packet a host sent is delivered, dropped, or still in the network.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Conservation {
    /// Packets (data and ACKs) hosts put on the network.
    pub sent: u64,
    /// Packets that reached their destination host.
    pub delivered: u64,
    /// Packets dropped by queues or random loss.
    pub dropped: u64,
    /// Packets still queued or propagating at the end.
    pub in_network: u64,
    /// `sent == delivered + dropped + in_network`.
    pub holds: bool,
}

/// Engine counters, for benchmarks.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct EngineStats {
    /// Events processed.
    pub events: u64,
    /// Packets serialised by the primary bottleneck (or by all monitored links for a star).
    pub bottleneck_packets: u64,
    /// Most packets in the network at once (the packet pool's size).
    pub peak_packets: u64,
    /// Most pending events at once.
    pub peak_events: u64,
}

/// Time series sampled every `sample_interval`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Series {
    /// Sample times, s.
    pub t_s: Vec<f64>,
    /// Per flow.
    pub flows: Vec<FlowSeries>,
    /// Per monitored link (at most 8).
    pub links: Vec<LinkSeries>,
    /// Per flow, the controller's state name at each sample (`states.csv`): what a
    /// scavenger's competitor detection was doing (`avoidance-push-test`, `yield`, ...).
    /// Not serialised: a run's summary and cached results are unchanged by it.
    #[serde(skip)]
    pub states: Vec<Vec<&'static str>>,
    /// The competitor detection's tests, in time order (`tests.csv`): what each scavenger's
    /// verdicts were taken from. Not serialised, as `states`.
    #[serde(skip)]
    pub tests: Vec<TestRecord>,
}

/// One test of a flow's competitor detection, seen at a sample.
#[derive(Clone, Debug, PartialEq)]
pub struct TestRecord {
    /// The flow's index.
    pub flow: usize,
    /// The test's figures and verdict.
    pub outcome: ledbat_core::competitor::TestOutcome,
    /// Tests of the flow that ended since the previous sample before this one: shown by
    /// count only (more than one test between two samples).
    pub unseen: u64,
}

/// One flow's series.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FlowSeries {
    /// Flow name.
    pub name: String,
    /// Congestion window, packets (0 while inactive or for CBR).
    pub cwnd_pkts: Vec<f64>,
    /// Delivered rate over the last interval, Mb/s.
    pub rate_mbps: Vec<f64>,
    /// The controller's queuing-delay estimate, ms (NaN when it has none).
    pub qdelay_ms: Vec<f64>,
}

/// One link's series.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LinkSeries {
    /// Link name.
    pub name: String,
    /// Waiting packets at the sample time.
    pub queue_pkts: Vec<u32>,
}
