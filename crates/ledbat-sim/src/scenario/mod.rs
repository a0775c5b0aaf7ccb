//! Scenario files: the schema (see `SCENARIOS.md` for the user-facing description), TOML
//! parsing with `--set key=value` overrides, and validation.
//!
//! Every table uses `deny_unknown_fields`: a misspelt key is an error naming it and its
//! line. Defaults reproduce the reference scenario of seed 003 chapter 3: a 10 Mb/s
//! dumbbell, RTT 50 ms (20 ms bottleneck + 5 ms access each way), DropTail 100 packets,
//! 1500-byte packets.
//!
//! - this module: the schema types and loading ([`Scenario::from_toml_with`]);
//! - `overrides`: [`ScenarioError`], `--set key=value` overrides and error lines;
//! - [`swarm`]: the `[swarm]` section (BitTorrent swarms instead of flows);
//! - `validate`: the semantic checks, each error naming its dotted key.

mod overrides;
pub mod swarm;
mod validate;

use overrides::invalid;
pub use overrides::{apply_override, locate_key, split_override, ScenarioError};

use crate::units::Rate;
use ledbat_core::{ControllerConfig, Duration};
use serde::{Deserialize, Serialize};

/// A whole simulation: network, flows, duration, measurement settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// Short name used in reports. Default: empty (the file stem is used by the CLI).
    pub name: String,
    /// Free text.
    pub description: String,
    /// Simulated time. Default 60 s.
    pub duration: Duration,
    /// Metrics (throughput, Jain, queue, cwnd statistics) ignore everything before this.
    /// Default 0.
    pub warmup: Duration,
    /// Seed used when the command line gives none. Default 1.
    pub seed: u64,
    /// Packet size on the wire, bytes, for every data packet. Default 1500 (seeds 000-003).
    pub mss: u32,
    /// Size of an ACK on the wire, bytes. Default 40 (ns-2's TCP ACK).
    pub ack_size: u32,
    /// Period of the time series (cwnd, queue, throughput) and of the cwnd statistics.
    /// Default 100 ms.
    pub sample_interval: Duration,
    /// Keep the time series in the result (turn off for large sweeps). Default true.
    pub series: bool,
    /// The network.
    pub topology: Topology,
    /// Transport defaults for every flow that does not set its own.
    pub transport: TransportConfig,
    /// The flows, as `[[flow]]` tables.
    #[serde(rename = "flow")]
    pub flows: Vec<FlowSpec>,
    /// A BitTorrent swarm instead of flows (`[swarm]`, [`swarm`]): its
    /// peers are star hosts, created as they arrive. Default: none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swarm: Option<swarm::SwarmConfig>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: String::new(),
            description: String::new(),
            duration: Duration::from_secs(60),
            warmup: Duration::ZERO,
            seed: 1,
            mss: 1500,
            ack_size: 40,
            sample_interval: Duration::from_millis(100),
            series: true,
            topology: Topology::default(),
            transport: TransportConfig::default(),
            flows: Vec::new(),
            swarm: None,
        }
    }
}

/// The network shape, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Topology {
    /// N senders through one shared bottleneck (both directions).
    Dumbbell(Dumbbell),
    /// Every host behind its own asymmetric access link; an infinite core.
    Star(Star),
}

impl Default for Topology {
    fn default() -> Self {
        Topology::Dumbbell(Dumbbell::default())
    }
}

/// A dumbbell: every flow crosses its own access link (with its own delay) and the shared
/// bottleneck. Forward flows send data left to right; reverse flows right to left, so their
/// data queues with the forward flows' ACKs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Dumbbell {
    /// Bottleneck rate, forward direction. Default 10 Mb/s (seed 003 ch. 3).
    pub rate: Rate,
    /// Bottleneck rate, reverse direction. Default: same as `rate`.
    pub reverse_rate: Option<Rate>,
    /// Bottleneck one-way propagation delay. Default 20 ms (with the 5 ms default access
    /// delay: RTT 50 ms, seed 003 ch. 3).
    pub delay: Duration,
    /// Forward bottleneck queue. Default DropTail 100 packets (seed 003 ch. 4).
    pub queue: QueueConfig,
    /// Reverse bottleneck queue. Default: same as `queue`.
    pub reverse_queue: Option<QueueConfig>,
    /// Random loss probability per packet on the forward bottleneck. Default 0.
    pub loss: f64,
    /// Random loss probability per packet on the reverse bottleneck. Default 0.
    pub reverse_loss: f64,
    /// Per-packet propagation jitter, uniform in [0, jitter], order-preserving. Default 0.
    pub jitter: Duration,
    /// Access link rate (each flow has its own). Default `inf` (no serialisation).
    pub access_rate: Rate,
    /// Access link queue. Default DropTail 1000 packets.
    pub access_queue: QueueConfig,
    /// A token bucket of this many bytes in front of the forward bottleneck's queue, as
    /// Linux's `tbf` shapes the test bed's (`burst`; the bed's default is 15360): up to that
    /// many bytes pass an idle link at once, the rest wait for credit earned at `rate`
    /// (`queue::TokenBucket`). At least `mss`; not with CoDel. Default none: a packet takes
    /// its serialisation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst: Option<u32>,
}

impl Default for Dumbbell {
    fn default() -> Self {
        Dumbbell {
            rate: Rate::mbps(10),
            reverse_rate: None,
            delay: Duration::from_millis(20),
            queue: QueueConfig::default(),
            reverse_queue: None,
            loss: 0.0,
            reverse_loss: 0.0,
            jitter: Duration::ZERO,
            access_rate: Rate::INFINITE,
            access_queue: QueueConfig::DropTail(DropTail {
                packets: Some(1000),
                bytes: None,
            }),
            burst: None,
        }
    }
}

/// Access star for peer-to-peer scenarios: host `i` reaches the core through its own up
/// link (host to core) and down link (core to host), each with its own queue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Star {
    /// One-way delay across the (infinite-capacity) core. Default 0.
    pub core_delay: Duration,
    /// Host groups, as `[[topology.host]]` tables; hosts are numbered in order from 0.
    #[serde(rename = "host")]
    pub hosts: Vec<HostSpec>,
}

impl Default for Star {
    fn default() -> Self {
        Star {
            core_delay: Duration::ZERO,
            hosts: Vec::new(),
        }
    }
}

/// A group of `count` identical hosts of an access star.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HostSpec {
    /// How many hosts this table describes. Default 1.
    pub count: u32,
    /// Up-link rate. Default 1 Mb/s (seed 003 section 4.7 ADSL).
    pub up: Rate,
    /// Down-link rate. Default 8 Mb/s (seed 003 section 4.7 ADSL).
    pub down: Rate,
    /// One-way propagation delay of the access link, each direction. Default 12.5 ms.
    pub delay: Duration,
    /// Up-link queue. Default DropTail 100 packets (seed 003 section 4.7).
    pub up_queue: QueueConfig,
    /// Down-link queue. Default DropTail 100 packets.
    pub down_queue: QueueConfig,
    /// Random loss probability on the up link. Default 0.
    pub loss: f64,
    /// The host's clock.
    pub clock: ClockConfig,
}

impl Default for HostSpec {
    fn default() -> Self {
        HostSpec {
            count: 1,
            up: Rate::mbps(1),
            down: Rate::mbps(8),
            delay: Duration::from_micros(12_500),
            up_queue: QueueConfig::default(),
            down_queue: QueueConfig::default(),
            loss: 0.0,
            clock: ClockConfig::default(),
        }
    }
}

/// A host clock: the wire timestamp is `(t + t * drift_ppm / 1e6)`, rounded down to a
/// multiple of `resolution`, plus `offset`, in microseconds modulo 2^32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockConfig {
    /// Constant offset. Default 0.
    pub offset: Duration,
    /// Drift in parts per million (positive: runs fast). Default 0.
    pub drift_ppm: f64,
    /// Tick of the clock: timestamps are multiples of it (seed 002's Linux timestamps have
    /// 1 ms, section 4). Default 0: the wire format's microsecond.
    pub resolution: Duration,
}

/// A queue discipline, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum QueueConfig {
    /// Tail drop.
    #[serde(rename = "droptail")]
    DropTail(DropTail),
    /// Random Early Detection (Floyd and Jacobson 1993; presets in [`RedPreset`]).
    Red(Box<Red>),
    /// CoDel (RFC 8289).
    Codel(Codel),
}

impl Default for QueueConfig {
    fn default() -> Self {
        QueueConfig::DropTail(DropTail::default())
    }
}

impl QueueConfig {
    /// The hard limit in packets, if any.
    pub fn packet_limit(&self) -> Option<u32> {
        match self {
            QueueConfig::DropTail(d) => d.packets,
            QueueConfig::Red(r) => Some(r.limit()),
            QueueConfig::Codel(c) => Some(c.packets),
        }
    }
}

/// DropTail limits; a packet is dropped when admitting it would exceed either limit. The
/// packet being serialised does not count (ns-2 convention).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DropTail {
    /// Limit in packets. Default 100 (seed 003 ch. 4) when `bytes` is not set.
    pub packets: Option<u32>,
    /// Limit in bytes. Default none.
    pub bytes: Option<u64>,
}

impl Default for DropTail {
    fn default() -> Self {
        DropTail {
            packets: Some(100),
            bytes: None,
        }
    }
}

/// Which rules and default values a RED queue follows; every parameter given explicitly
/// overrides the preset's value. The rules themselves are in `crate::queue`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RedPreset {
    /// This simulator's historical set, the default: Floyd and Jacobson's 1993 thresholds
    /// and weight (min_th 5, max_th 15 packets, w_q 0.002) with max_p 0.1 and gentle RED,
    /// Floyd and Jacobson's drop spacing `p_b / (1 - count p_b)`, the average in packets,
    /// idle decay in units of one MSS's transmission time. These are ns-2's `Queue/RED`
    /// values between April and December 2001, but with Floyd and Jacobson's spacing where
    /// ns-2 used `wait_`; not ns-2's defaults since 2001.
    #[default]
    #[serde(rename = "classic")]
    Classic,
    /// Floyd and Jacobson 1993 as published (section 6's simulations): min_th 5, max_th 15
    /// packets, w_q 0.002, max_p 1/50, no gentle region, spacing `p_b / (1 - count p_b)`,
    /// the average in packets.
    #[serde(rename = "floyd-jacobson-1993")]
    FloydJacobson1993,
    /// ns-2.35's `Queue/RED` with its default settings (`tcl/lib/ns-default.tcl`), including
    /// its automatic configuration from the link: thresholds from `target_delay` and the
    /// link rate, max_th = 3 min_th, w_q from the link rate and delay, `wait_` drop spacing,
    /// byte mode with 500-byte mean packets, idle decay in mean packets, max_p 0.1, gentle.
    #[serde(rename = "ns2-auto")]
    Ns2Auto,
}

/// RED parameters. `preset` chooses the rules and the defaults of every unset key (see
/// [`RedPreset`]); an explicit key overrides it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Red {
    /// Rules and defaults. Default `classic`.
    pub preset: RedPreset,
    /// Hard limit, packets (ns2-auto in byte mode: `packets x mean_pktsize` bytes, as
    /// ns-2's `limit_`). Default 100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packets: Option<u32>,
    /// Minimum threshold on the average queue, packets (ns2-auto: packets of
    /// `mean_pktsize` bytes, ns-2's `thresh_`). Default: the preset's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_th: Option<f64>,
    /// Maximum threshold, same unit as `min_th`. Default: the preset's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_th: Option<f64>,
    /// Drop probability at `max_th`. Default: the preset's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_p: Option<f64>,
    /// EWMA weight of the average queue. Default: the preset's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub w_q: Option<f64>,
    /// Gentle RED: probability rises from `max_p` to 1 between `max_th` and `2 max_th`
    /// instead of jumping to 1. Default: the preset's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gentle: Option<bool>,
    /// ns2-auto only: ns-2's `wait_` drop spacing. Default true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait: Option<bool>,
    /// ns2-auto only: byte mode (ns-2's `bytes_` and `queue_in_bytes_`). Default true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<bool>,
    /// ns2-auto only: ns-2's `mean_pktsize_`, bytes. Default 500.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_pktsize: Option<u32>,
    /// ns2-auto only: ns-2's `targetdelay_`, from which unset thresholds follow. Default 5 ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_delay: Option<Duration>,
}

impl Red {
    /// The hard limit in packets.
    pub fn limit(&self) -> u32 {
        self.packets.unwrap_or(100)
    }
}

/// CoDel parameters (RFC 8289 section 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Codel {
    /// Hard limit, packets. Default 1000.
    pub packets: u32,
    /// Acceptable standing queue delay. Default 5 ms (RFC 8289 section 4.4).
    pub target: Duration,
    /// Sliding window for the minimum delay. Default 100 ms (RFC 8289 section 4.3).
    pub interval: Duration,
}

impl Default for Codel {
    fn default() -> Self {
        Codel {
            packets: 1000,
            target: Duration::from_millis(5),
            interval: Duration::from_millis(100),
        }
    }
}

/// Transport parameters of a flow (TCP-like reliable transport used by every controller).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TransportConfig {
    /// Delayed ACKs: acknowledge every second in-order packet or after `delack_timeout`.
    /// Default off (seed 003 uses none; seed 002 discusses them).
    pub delayed_ack: bool,
    /// Delayed-ACK timer. Default 100 ms (ns-2 `delack_interval_`).
    pub delack_timeout: Duration,
    /// Minimum RTO. Default 200 ms (ns-2 and Linux; RFC 6298 says 1 s).
    pub min_rto: Duration,
    /// Maximum RTO after backoff. Default 60 s (RFC 6298 section 2.5).
    pub max_rto: Duration,
    /// Clock granularity G of RFC 6298. Default 1 ms.
    pub granularity: Duration,
    /// Duplicate threshold for fast retransmit. Default 3 (RFC 5681).
    pub dupthresh: u32,
    /// The receiver's advertised window, packets: at most this many unacknowledged packets
    /// (seed 003, section 2.3: Windows XP's default 17520 bytes is 12 full segments).
    /// Default none: unlimited.
    pub receive_window: Option<u32>,
    /// Restart from the controller's idle state (RFC 5681 section 4.1: the window back to
    /// the restart window) when the connection has sent nothing for an RTO. Default on, as
    /// Linux's `tcp_slow_start_after_idle` and ns-2's; off keeps the window across idle
    /// periods.
    pub idle_restart: bool,
    /// How a retransmission timeout found spurious is undone. Default `none`: ns-2's TCP
    /// agents (the papers' simulators) have no detection, every timeout stands.
    pub spurious_rto: SpuriousRto,
}

/// Detection of a spurious retransmission timeout (one that fired while the data was only
/// delayed), after which the sender restores its congestion state from before the timeout
/// and stops retransmitting what was not lost (module `transport`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpuriousRto {
    /// No detection: every timeout stands (ns-2's TCP agents).
    #[default]
    None,
    /// F-RTO, RFC 5682 section 3 (the SACK-enhanced algorithm Linux implements): after the
    /// first ACK following the timeout, send new data; an ACK of data sent before the
    /// timeout and never retransmitted proves it spurious.
    Frto,
    /// The timestamp test (Eifel detection, RFC 3522, as Linux's undo after a timeout):
    /// an ACK advancing the window whose echoed timestamp is older than the first
    /// retransmission was triggered by an original transmission, so the timeout was
    /// spurious.
    Eifel,
    /// Both, as Linux by default (`net.ipv4.tcp_frto = 2`, timestamps on).
    Linux,
}

impl SpuriousRto {
    /// Whether F-RTO runs.
    pub fn frto(self) -> bool {
        matches!(self, SpuriousRto::Frto | SpuriousRto::Linux)
    }
    /// Whether the timestamp test runs.
    pub fn eifel(self) -> bool {
        matches!(self, SpuriousRto::Eifel | SpuriousRto::Linux)
    }
}

impl Default for TransportConfig {
    fn default() -> Self {
        TransportConfig {
            delayed_ack: false,
            delack_timeout: Duration::from_millis(100),
            min_rto: Duration::from_millis(200),
            max_rto: Duration::from_secs(60),
            granularity: Duration::from_millis(1),
            dupthresh: 3,
            receive_window: None,
            idle_restart: true,
            spurious_rto: SpuriousRto::None,
        }
    }
}

/// Direction of a dumbbell flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Left to right through the forward bottleneck.
    #[default]
    Forward,
    /// Right to left: data through the reverse bottleneck.
    Reverse,
}

/// Default of [`FlowSpec::start_jitter`].
pub const DEFAULT_START_JITTER: Duration = Duration::from_millis(100);

/// One `[[flow]]` table (or `count` identical flows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlowSpec {
    /// Name in reports. Default `flow<i>` (with `.<k>` for copies).
    pub name: String,
    /// Number of identical flows this table describes. Default 1.
    pub count: u32,
    /// Congestion controller (`{ name = "ledbat", target = "25ms" }`). Required except for
    /// `cbr` traffic, which is unresponsive.
    pub cc: Option<ControllerConfig>,
    /// What the application offers. Default backlogged.
    pub traffic: Traffic,
    /// Start time. Default 0.
    pub start: Duration,
    /// Extra start delay between the copies of a `count > 1` table. Default 0.
    pub start_spacing: Duration,
    /// Each copy starts an extra uniform `[0, start_jitter]` later, drawn from the run's
    /// seed, so that flows meant to start together do not start in lockstep and seeds
    /// differ (ns-2 studies randomise start times for the same reason). Default 100 ms:
    /// longer than the base RTT of every paper's setup (25-110 ms), so the copies start at
    /// independent phases of each other's ACK clocks, and short against every start gap
    /// the papers state (2 s and more). `0s` gives the exact start times.
    pub start_jitter: Duration,
    /// Stop time (no new transmissions after it). Default: end of the run.
    pub stop: Option<Duration>,
    /// Dumbbell only: which way the data goes. Default forward.
    pub direction: Direction,
    /// Dumbbell only: one-way delay of this flow's access link. Default 5 ms.
    pub access_delay: Duration,
    /// Dumbbell only: the sender's clock.
    pub sender_clock: ClockConfig,
    /// Dumbbell only: the receiver's clock.
    pub receiver_clock: ClockConfig,
    /// Star only: sending host index. Default 0.
    pub from: u32,
    /// Star only: receiving host index. Default 1.
    pub to: u32,
    /// Transport parameters; default: the scenario's `[transport]`.
    pub transport: Option<TransportConfig>,
    /// Sender jitter: each packet leaves after an extra uniform [0, send_jitter] delay,
    /// order-preserving (seed 001). Default 0.
    pub send_jitter: Duration,
    /// Transmission interruptions (seed 001). Default none.
    pub interruptions: Option<Interruptions>,
}

impl Default for FlowSpec {
    fn default() -> Self {
        FlowSpec {
            name: String::new(),
            count: 1,
            cc: None,
            traffic: Traffic::default(),
            start: Duration::ZERO,
            start_spacing: Duration::ZERO,
            start_jitter: DEFAULT_START_JITTER,
            stop: None,
            direction: Direction::Forward,
            access_delay: Duration::from_millis(5),
            sender_clock: ClockConfig::default(),
            receiver_clock: ClockConfig::default(),
            from: 0,
            to: 1,
            transport: None,
            send_jitter: Duration::ZERO,
            interruptions: None,
        }
    }
}

/// Periodic sending interruptions: every `U[every]` the sender stops for `U[length]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Interruptions {
    /// Time between interruption starts, uniform in `[lo, hi]`. Default [5 s, 15 s] (seed 001).
    pub every: [Duration; 2],
    /// Length of one interruption, uniform in `[lo, hi]`. Default [0, 50 ms] (seed 001).
    pub length: [Duration; 2],
}

impl Default for Interruptions {
    fn default() -> Self {
        Interruptions {
            every: [Duration::from_secs(5), Duration::from_secs(15)],
            length: [Duration::ZERO, Duration::from_millis(50)],
        }
    }
}

/// What the application offers to the transport, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Traffic {
    /// Always has data.
    Backlogged(Backlogged),
    /// One transfer of `bytes`; its completion time is reported.
    Transfer(Transfer),
    /// Chunk after chunk (seed 003 sections 4.5 and 4.7).
    Chunks(Chunks),
    /// Unresponsive constant bit rate, UDP-like, no ACKs (seed 000's CBR).
    Cbr(Cbr),
    /// Bursts of packets written into a bounded sender buffer (seed 004).
    Bursty(Bursty),
    /// Trains of chunks separated by think times, each train a new connection (seed 001's
    /// short TCP files and web-like traffic).
    Sessions(Sessions),
}

impl Default for Traffic {
    fn default() -> Self {
        Traffic::Backlogged(Backlogged {})
    }
}

/// Backlogged source (no parameters).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Backlogged {}

/// A finite transfer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Transfer {
    /// Bytes to send. Default 10 MB.
    pub bytes: u64,
}

impl Default for Transfer {
    fn default() -> Self {
        Transfer { bytes: 10_000_000 }
    }
}

/// Chunk-by-chunk transfer: when a chunk is fully acknowledged, with probability
/// `persistence` (PP) the next chunk goes to the same peer keeping the window; otherwise to
/// another peer from `peers` (star) with a fresh controller (seed 003 section 4.7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Chunks {
    /// Chunk size in bytes. Default 250 kB (seed 003 section 4.5.1).
    pub size: u64,
    /// Persistence probability PP. Default 1 (always the same peer, seed 003 section 4.5).
    pub persistence: f64,
    /// Star only: candidate receiving hosts; empty means keep the path and only reset the
    /// controller on a switch. Default empty.
    pub peers: Vec<u32>,
}

impl Default for Chunks {
    fn default() -> Self {
        Chunks {
            size: 250_000,
            persistence: 1.0,
            peers: Vec::new(),
        }
    }
}

/// Constant bit rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cbr {
    /// Rate. Default 750 kb/s (seed 000).
    pub rate: Rate,
    /// Packet size, bytes. Default 500 (seed 000).
    pub size: u32,
}

impl Default for Cbr {
    fn default() -> Self {
        Cbr {
            rate: Rate::kbps(750),
            size: 500,
        }
    }
}

/// Bursty source: `packets` every `period` written into a `buffer`-packet sender buffer that
/// holds each packet until it is cumulatively acknowledged (seed 004, section III); what
/// does not fit is discarded and counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bursty {
    /// Packets per burst. Default 15 (seed 004).
    pub packets: u32,
    /// Time between bursts. Default 100 ms (seed 004).
    pub period: Duration,
    /// Sender buffer, packets written and not yet cumulatively acknowledged. Default 32
    /// (seed 004).
    pub buffer: u32,
}

impl Default for Bursty {
    fn default() -> Self {
        Bursty {
            packets: 15,
            period: Duration::from_millis(100),
            buffer: 32,
        }
    }
}

/// Sessions: a train of `chunks` chunks of `U[chunk_packets]` packets written `U[gap]`
/// apart; when the train is fully acknowledged, a think time `U[think]`, then a new
/// connection (fresh controller) for the next train, or (`persistent`) the same connection
/// on. `chunks = 1`, `chunk_packets = [n, n]` and `gap = 0` gives seed 001's short TCP files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sessions {
    /// Chunks per train. Default 10 (seed 001 web-like traffic).
    pub chunks: u32,
    /// Packets per chunk, uniform integer in `[lo, hi]`. Default [8, 12] (seed 001).
    pub chunk_packets: [u32; 2],
    /// Gap between chunk writes, uniform. Default [0, 5 ms] (seed 001).
    pub gap: [Duration; 2],
    /// Think time between trains, uniform. Default [5 s, 15 s] (seed 001).
    pub think: [Duration; 2],
    /// Every train on the one connection (controller, window and RTT estimate kept across
    /// the think times; the transport's `idle_restart` decides the window after them)
    /// instead of a new connection per train. Default false. Seed 001 section II-C sends
    /// its files over one connection ("a TCP connection that ... transferring over a long
    /// time a series of files").
    pub persistent: bool,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions {
            chunks: 10,
            chunk_packets: [8, 12],
            gap: [Duration::ZERO, Duration::from_millis(5)],
            think: [Duration::from_secs(5), Duration::from_secs(15)],
            persistent: false,
        }
    }
}

impl Scenario {
    /// Parses a scenario from TOML text and validates it. Errors name the key and line.
    pub fn from_toml(text: &str) -> Result<Scenario, ScenarioError> {
        Self::from_toml_with::<&str>(text, &[])
    }

    /// Parses, applies `key=value` overrides (in order), and validates.
    pub fn from_toml_with<S: AsRef<str>>(
        text: &str,
        overrides: &[S],
    ) -> Result<Scenario, ScenarioError> {
        // First pass on the text itself so that schema errors carry line numbers.
        let sc: Scenario = toml::from_str(text).map_err(|e| ScenarioError::Parse(e.to_string()))?;
        if overrides.is_empty() {
            sc.validate().map_err(|e| match e {
                ScenarioError::Invalid { key, reason } => match locate_key(text, &key) {
                    Some(line) => ScenarioError::Invalid {
                        key,
                        reason: format!("{reason} (line {line})"),
                    },
                    None => ScenarioError::Invalid { key, reason },
                },
                other => other,
            })?;
            return Ok(sc);
        }
        // Overrides apply to the scenario with every default spelled out, so that
        // `topology.queue.packets=40` works even when the file relies on the default queue.
        let mut doc =
            toml::Value::try_from(&sc).map_err(|e| ScenarioError::Parse(e.to_string()))?;
        let mut keys = Vec::new();
        for o in overrides {
            let (k, v) = split_override(o.as_ref())?;
            apply_override(&mut doc, k, v)?;
            keys.push(k.to_string());
        }
        let sc: Scenario = Scenario::deserialize(doc).map_err(|e| ScenarioError::Override {
            key: keys.join(", "),
            reason: e.to_string().trim().to_string(),
        })?;
        sc.validate()?;
        Ok(sc)
    }

    /// The scenario as TOML text (round-trips through [`Scenario::from_toml`]).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Number of hosts of a star topology (0 for a dumbbell).
    pub fn star_hosts(&self) -> u32 {
        match &self.topology {
            Topology::Star(s) => s.hosts.iter().map(|h| h.count).sum(),
            Topology::Dumbbell(_) => 0,
        }
    }

    /// Total number of flows after expanding `count`.
    pub fn flow_count(&self) -> u64 {
        self.flows.iter().map(|f| f.count as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
duration = "10s"
[[flow]]
cc = { name = "ledbat", target = "25ms" }
"#;

    #[test]
    fn minimal_scenario_takes_documented_defaults() {
        let s = Scenario::from_toml(MINIMAL).unwrap();
        assert_eq!(s.duration, Duration::from_secs(10));
        assert_eq!(s.mss, 1500);
        let Topology::Dumbbell(d) = &s.topology else {
            panic!()
        };
        assert_eq!(d.rate, Rate::mbps(10));
        assert_eq!(
            d.queue,
            QueueConfig::DropTail(DropTail {
                packets: Some(100),
                bytes: None
            })
        );
        assert_eq!(s.flows[0].access_delay, Duration::from_millis(5));
    }

    #[test]
    fn unknown_key_is_an_error_naming_key_and_line() {
        let text = "duration = \"10s\"\n[[flow]]\ncc = { name = \"ledbat\" }\nstrat = \"1s\"\n";
        let e = Scenario::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("strat"), "{e}");
        assert!(e.contains("line 4"), "{e}");
    }

    #[test]
    fn bad_value_error_names_the_line() {
        let text = "duration = \"10 parsecs\"\n[[flow]]\ncc = { name = \"ledbat\" }\n";
        let e = Scenario::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        assert!(e.contains("parsecs"), "{e}");
    }

    #[test]
    fn semantic_errors_in_files_carry_the_line() {
        let text = "duration = \"10s\"\n[[flow]]\ncc = { name = \"ledbat\" }\n[[flow]]\ncount = 2\ncc = { name = \"ledbat\", gain = -1.0 }\n";
        let e = Scenario::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("flow.1.cc.gain") && e.contains("line 6"), "{e}");
        let text =
            "[topology]\nkind = \"dumbbell\"\nloss = 3.0\n[[flow]]\ncc = { name = \"ledbat\" }\n";
        let e = Scenario::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("topology.loss") && e.contains("line 3"), "{e}");
        assert_eq!(locate_key("a = 1\n", "nowhere.to.be.found"), None);
    }

    #[test]
    fn unknown_controller_parameter_is_rejected() {
        let text = "[[flow]]\ncc = { name = \"ledbat\", tagret = \"25ms\" }\n";
        let e = Scenario::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("tagret"), "{e}");
    }

    #[test]
    fn overrides_reach_nested_keys_and_array_elements() {
        let s = Scenario::from_toml_with(
            MINIMAL,
            &[
                "flow.0.cc.target=100ms",
                "topology.queue.packets=40",
                "duration=5s",
                "flow.0.start=1s",
            ],
        )
        .unwrap();
        let Some(ControllerConfig::Ledbat(c)) = &s.flows[0].cc else {
            panic!()
        };
        assert_eq!(c.target, Duration::from_millis(100));
        let Topology::Dumbbell(d) = &s.topology else {
            panic!()
        };
        assert_eq!(d.queue.packet_limit(), Some(40));
        assert_eq!(s.duration, Duration::from_secs(5));
        assert_eq!(s.flows[0].start, Duration::from_secs(1));
    }

    #[test]
    fn override_errors_name_the_key() {
        let e = Scenario::from_toml_with(MINIMAL, &["flow.3.start=1s"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("flow.3.start"), "{e}");
        let e = Scenario::from_toml_with(MINIMAL, &["topology.qeueu=1"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("qeueu"), "{e}");
        let e = Scenario::from_toml_with(MINIMAL, &["nonsense"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("nonsense"), "{e}");
    }

    #[test]
    fn semantic_errors_name_the_dotted_key() {
        let e = Scenario::from_toml_with(MINIMAL, &["flow.0.cc.gain=-1"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("flow.0.cc.gain"), "{e}");
        let e = Scenario::from_toml_with(MINIMAL, &["topology.loss=2"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("topology.loss"), "{e}");
        let e = Scenario::from_toml("[[flow]]\ntraffic = { kind = \"backlogged\" }\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("flow.0.cc"), "{e}");
    }

    #[test]
    fn a_bucket_smaller_than_a_packet_or_before_codel_is_refused_by_name() {
        let e = Scenario::from_toml_with(MINIMAL, &["topology.burst=1499"])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("topology.burst") && e.contains("mss 1500"),
            "{e}"
        );
        let codel = ["topology.burst=3000", "topology.queue={ kind = \"codel\" }"];
        let e = Scenario::from_toml_with(MINIMAL, &codel)
            .unwrap_err()
            .to_string();
        assert!(e.contains("topology.burst"), "{e}");
        let s = Scenario::from_toml_with(MINIMAL, &["topology.burst=15360"]).unwrap();
        assert!(s.to_toml().contains("burst = 15360"));
        // Without a bucket the scenario's text has no `burst` (cache keys unchanged).
        assert!(!Scenario::from_toml(MINIMAL)
            .unwrap()
            .to_toml()
            .contains("burst"));
    }

    #[test]
    fn scenario_round_trips_through_toml() {
        let s = Scenario::from_toml(MINIMAL).unwrap();
        let back = Scenario::from_toml(&s.to_toml()).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn star_topology_parses_host_groups() {
        let text = r#"
[topology]
kind = "star"
[[topology.host]]
count = 3
up = "1Mbps"
down = "8Mbps"
up_queue = { kind = "red", packets = 50 }
[[flow]]
cc = { name = "ledbat" }
from = 0
to = 2
traffic = { kind = "chunks", persistence = 0.5, peers = [1, 2] }
"#;
        let s = Scenario::from_toml(text).unwrap();
        assert_eq!(s.star_hosts(), 3);
        assert_eq!(
            Scenario::from_toml(&s.to_toml()).unwrap(),
            s,
            "{}",
            s.to_toml()
        );
        let e = Scenario::from_toml_with(text, &["flow.0.to=3"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("flow.0.to"), "{e}");
    }
}
