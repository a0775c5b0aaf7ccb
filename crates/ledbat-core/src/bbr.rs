//! BBR version 1 (draft-cardwell-iccrg-bbr-congestion-control-00, algorithms.md section 10):
//! a rate-based controller that builds a model of the path, its bottleneck bandwidth and its
//! round-trip propagation time, and paces at the model's rate.
//!
//! ```text
//! per ACK (delivery-rate sample rs, crate::delivery):
//!   round:    a new round when rs.prior_delivered >= next_round_delivered
//!   BtlBw     = max of rs.rate over the last 10 rounds (app-limited samples only when larger)
//!   RTprop    = min RTT, renewed by a smaller sample, kept until 10 s old; then ProbeRTT
//!   pacing    = pacing_gain * BtlBw * (1 - 1 %)
//!   cwnd      = cwnd_gain * BtlBw * RTprop + extra_acked + 3 quanta (even, >= 4 packets)
//!               growing by the bytes acknowledged towards it
//! Startup:  pacing_gain = cwnd_gain = 2/ln 2; left when BtlBw grew by < 25 % in 3 rounds
//! Drain:    pacing_gain = ln 2 / 2;           left when in flight <= BtlBw * RTprop (+ quanta)
//! ProbeBW:  cwnd_gain 2; pacing_gain cycles 5/4, 3/4, 1, 1, 1, 1, 1, 1, one RTprop each,
//!           starting at a random phase other than 3/4; the 5/4 phase lasts until in flight
//!           reaches 5/4 BDP (or a loss), the 3/4 phase ends early when in flight <= BDP
//! ProbeRTT: cwnd 4 packets for max(200 ms, 1 round) once in flight is down to 4 packets;
//!           then RTprop's stamp is renewed and the window before it restored
//! loss:     packet conservation for one round (cwnd = in flight + acked), the window less
//!           the bytes lost; on leaving recovery the window before it is restored
//! timeout:  cwnd 1 packet; the window before it is restored when the flight is repaired
//! ```
//!
//! Where the draft leaves a choice, this follows Linux's `tcp_bbr.c` (BBRv1, the `bbr` of
//! every Linux kernel and of the test bed), so that the simulator's flows and the bed's kernel
//! flows compare: the 1 % pacing margin (`bbr_pacing_margin_percent`), the quantization
//! budget of three TSO-sized quanta (`max(2, pacing_rate * 1 ms / MSS)` packets, 1 below
//! 1.2 Mbit/s) rounded up to an even number of packets, plus two in the 5/4 phase; the
//! ACK-aggregation allowance (`extra_acked`: the largest excess of data acknowledged over
//! `BtlBw * elapsed` in an ACK epoch, over the last 5-10 rounds, at most 100 ms of BtlBw, added
//! to the window once the pipe is full; BBR's later drafts keep it, draft -00 does not; 0 turns
//! it off); ProbeBW's random start phase `1 + rand(7)` then one step. The random draw is a
//! hash of the time BBR enters ProbeBW, so a run stays deterministic. Not modelled: Linux's
//! long-term bandwidth (policer) estimate, TSO autosizing itself and the idle restart's pacing
//! details beyond pacing at BtlBw. Like Linux, only an RTT sample below RTprop renews its
//! 10 s stamp (the draft also renews it on an equal one), so a bulk flow enters ProbeRTT every
//! 10 s even on a path whose RTprop it sees again and again. BBRv3's loss and ECN bounds (`inflight_hi`, `inflight_lo`)
//! are not implemented: the bed's kernels run v1, so they could not be validated there.
//! Measured against kernel bbr: `docs/controllers-notes.md`, "bbr".

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, RttEstimator, Timeout,
};
use crate::delivery::{DeliveryRate, WindowedMax};
use crate::error::{in_range, nonzero, ConfigError};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Startup's gains, 2/ln 2 (draft section 4.3.1.1; Linux `bbr_high_gain` = 2885/1000).
pub const HIGH_GAIN: f64 = 2.885;
/// Drain's pacing gain, the inverse (Linux `bbr_drain_gain` = 1000/2885).
pub const DRAIN_GAIN: f64 = 1.0 / HIGH_GAIN;
/// ProbeBW's pacing gains, one RTprop each (draft section 4.3.3).
pub const GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// Startup ends when the bandwidth grew by less than this factor ...
pub const FULL_BW_GROWTH: f64 = 1.25;
/// ... for this many rounds in a row (draft section 4.3.2).
pub const FULL_BW_ROUNDS: u32 = 3;
/// ACK-aggregation epochs: the allowance is the larger of two buckets of this many rounds.
pub const EXTRA_ACKED_ROUNDS: u32 = 5;
/// The allowance is at most this much time at BtlBw (Linux `bbr_extra_acked_max_us`).
pub const EXTRA_ACKED_MAX: Duration = Duration::from_millis(100);
/// An ACK epoch is restarted after this many bytes (Linux's `bbr_ack_epoch_acked_reset_thresh`).
const ACK_EPOCH_RESET: f64 = (1u64 << 20) as f64;
/// Below this pacing rate (bytes/s) a quantum is one packet (Linux `bbr_min_tso_rate`,
/// 1.2 Mbit/s).
const MIN_TSO_RATE: f64 = 150_000.0;
/// Largest quantum, bytes (a 64 KB TSO burst).
const MAX_QUANTUM: f64 = 65_536.0;

/// BBR parameters. Defaults are the draft's and Linux's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BbrConfig {
    /// Initial window, packets. Default 10 (RFC 6928; Linux's `TCP_INIT_CWND`).
    pub init_cwnd: f64,
    /// ProbeBW's cwnd gain. Default 2 (draft section 4.3.3).
    pub cwnd_gain: f64,
    /// Rounds of the bandwidth filter. Default 10 (draft section 4.1.1; `bbr_bw_rtts`).
    pub bw_window_rounds: u32,
    /// Age at which RTprop expires and ProbeRTT starts. Default 10 s (draft section 4.1.2).
    pub min_rtt_window: Duration,
    /// Time ProbeRTT holds the window at `min_pipe_cwnd`. Default 200 ms (draft 4.3.4).
    pub probe_rtt_duration: Duration,
    /// Smallest window, and ProbeRTT's, packets. Default 4 (draft's `BBRMinPipeCwnd`).
    pub min_pipe_cwnd: f64,
    /// Pacing below the model's rate by this fraction. Default 0.01 (Linux
    /// `bbr_pacing_margin_percent`; the draft has none).
    pub pacing_margin: f64,
    /// Gain of the ACK-aggregation allowance. Default 1 (Linux `bbr_extra_acked_gain`);
    /// 0 = draft -00, which has none.
    pub extra_acked_gain: f64,
}

impl Default for BbrConfig {
    fn default() -> Self {
        BbrConfig {
            init_cwnd: 10.0,
            cwnd_gain: 2.0,
            bw_window_rounds: 10,
            min_rtt_window: Duration::from_secs(10),
            probe_rtt_duration: Duration::from_millis(200),
            min_pipe_cwnd: 4.0,
            pacing_margin: 0.01,
            extra_acked_gain: 1.0,
        }
    }
}

config_setters!(BbrConfig {
    init_cwnd: f64,
    cwnd_gain: f64,
    bw_window_rounds: u32,
    min_rtt_window: Duration,
    probe_rtt_duration: Duration,
    min_pipe_cwnd: f64,
    pacing_margin: f64,
    extra_acked_gain: f64,
});

impl ControllerFactory for BbrConfig {
    type Controller = Bbr;
    const NAME: &'static str = Bbr::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        let n = Self::NAME;
        in_range(n, "init_cwnd", self.init_cwnd, 1.0, 1e6)?;
        in_range(n, "cwnd_gain", self.cwnd_gain, 1.0, 100.0)?;
        in_range(
            n,
            "bw_window_rounds",
            self.bw_window_rounds as f64,
            1.0,
            1e4,
        )?;
        nonzero(n, "min_rtt_window", self.min_rtt_window)?;
        in_range(n, "min_pipe_cwnd", self.min_pipe_cwnd, 1.0, 1e3)?;
        in_range(n, "pacing_margin", self.pacing_margin, 0.0, 0.5)?;
        in_range(n, "extra_acked_gain", self.extra_acked_gain, 0.0, 10.0)?;
        Ok(())
    }

    fn compliance_notes(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.cwnd_gain != 2.0 {
            v.push(format!("cwnd_gain {} differs from BBR's 2", self.cwnd_gain));
        }
        if self.extra_acked_gain > 0.0 {
            v.push(format!(
                "ACK-aggregation allowance (gain {}) as Linux adds it; not in draft -00",
                self.extra_acked_gain
            ));
        }
        if self.pacing_margin > 0.0 {
            v.push(format!(
                "paces {} % below the model's rate as Linux does; not in draft -00",
                self.pacing_margin * 100.0
            ));
        }
        v
    }

    fn build(&self, mss: u32) -> Result<Bbr, ConfigError> {
        Bbr::new(*self, mss)
    }
}

/// BBR's state machine (draft section 4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Doubling the rate each round until the bandwidth stops growing.
    Startup,
    /// Draining the queue Startup built.
    Drain,
    /// Cycling the pacing gain around the bandwidth estimate.
    ProbeBw,
    /// Holding the window at 4 packets to measure RTprop.
    ProbeRtt,
}

/// `bbr`: BBRv1. See the module documentation.
#[derive(Clone, Debug)]
pub struct Bbr {
    cfg: BbrConfig,
    mss: f64,
    rate: DeliveryRate,
    rtt: RttEstimator,
    bw: WindowedMax,
    round: u64,
    next_round_delivered: u64,
    round_start: bool,
    min_rtt: Option<Duration>,
    min_rtt_stamp: Instant,
    mode: Mode,
    pacing_gain: f64,
    cwnd_gain: f64,
    cycle: usize,
    cycle_stamp: Instant,
    full_bw: f64,
    full_bw_rounds: u32,
    filled_pipe: bool,
    cwnd: f64,
    prior_cwnd: f64,
    pacing_rate: f64,
    /// The initial pacing rate was set from an RTT sample.
    has_seen_rtt: bool,
    probe_rtt_done: Option<Instant>,
    probe_rtt_round_done: bool,
    idle_restart: bool,
    in_flight: u64,
    /// Bytes the last ACK acknowledged (packet conservation on a loss found by it).
    last_acked: u64,
    /// In recovery (fast retransmit or timeout) until `delivered` reaches this mark.
    recovery_until: Option<u64>,
    /// Packet conservation: the first round of a recovery.
    conservation: bool,
    ack_epoch_start: Option<Instant>,
    ack_epoch_acked: f64,
    extra_acked: [f64; 2],
    extra_idx: usize,
    extra_rounds: u32,
}

impl Bbr {
    /// Registry name.
    pub const NAME: &'static str = "bbr";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: BbrConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let mss = mss as f64;
        let mut b = Bbr {
            cfg,
            mss,
            rate: DeliveryRate::new(),
            rtt: RttEstimator::default(),
            bw: WindowedMax::new(cfg.bw_window_rounds as u64),
            round: 0,
            next_round_delivered: 0,
            round_start: false,
            min_rtt: None,
            min_rtt_stamp: Instant::ZERO,
            mode: Mode::Startup,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            cycle: 0,
            cycle_stamp: Instant::ZERO,
            full_bw: 0.0,
            full_bw_rounds: 0,
            filled_pipe: false,
            cwnd: cfg.init_cwnd * mss,
            prior_cwnd: 0.0,
            pacing_rate: 0.0,
            has_seen_rtt: false,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            idle_restart: false,
            in_flight: 0,
            last_acked: 0,
            recovery_until: None,
            conservation: false,
            ack_epoch_start: None,
            ack_epoch_acked: 0.0,
            extra_acked: [0.0; 2],
            extra_idx: 0,
            extra_rounds: 0,
        };
        b.init_pacing_rate();
        Ok(b)
    }

    /// The configuration in force.
    pub fn config(&self) -> &BbrConfig {
        &self.cfg
    }

    /// The current state.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// BtlBw, bytes per second (0 before any sample).
    pub fn btl_bw(&self) -> f64 {
        self.bw.get()
    }

    /// RTprop, once an RTT sample came.
    pub fn min_rtt(&self) -> Option<Duration> {
        self.min_rtt
    }

    /// The pacing gain in force.
    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    /// The cwnd gain in force.
    pub fn cwnd_gain(&self) -> f64 {
        self.cwnd_gain
    }

    /// ProbeBW's phase, an index into [`GAIN_CYCLE`].
    pub fn cycle_index(&self) -> usize {
        self.cycle
    }

    /// Rounds counted so far.
    pub fn rounds(&self) -> u64 {
        self.round
    }

    /// Whether Startup found the pipe full.
    pub fn filled_pipe(&self) -> bool {
        self.filled_pipe
    }

    /// The ACK-aggregation allowance now added to the window, bytes.
    pub fn extra_acked(&self) -> f64 {
        if self.cfg.extra_acked_gain <= 0.0 || !self.filled_pipe {
            return 0.0;
        }
        let max = self.bw.get() * EXTRA_ACKED_MAX.as_secs_f64();
        (self.cfg.extra_acked_gain * self.extra_acked[0].max(self.extra_acked[1])).min(max)
    }

    /// Draft section 4.2.1: `high_gain * init_cwnd / (SRTT or 1 ms)`.
    fn init_pacing_rate(&mut self) {
        let rtt = self
            .rtt
            .srtt()
            .filter(|d| !d.is_zero())
            .unwrap_or(Duration::from_millis(1));
        let bw = self.cfg.init_cwnd * self.mss / rtt.as_secs_f64();
        self.pacing_rate = HIGH_GAIN * bw * (1.0 - self.cfg.pacing_margin);
    }

    /// Draft section 4.2.1 (`BBRSetPacingRateWithGain`): only upwards until the pipe is full;
    /// once, at the first RTT sample, the initial rate is set again from it (Linux
    /// `bbr_init_pacing_rate_from_rtt`: before it, the rate assumed an RTT of 1 ms).
    fn set_pacing_rate(&mut self) {
        if !self.has_seen_rtt && self.rtt.srtt().is_some() {
            self.has_seen_rtt = true;
            self.init_pacing_rate();
        }
        let bw = self.bw.get();
        if bw <= 0.0 {
            return;
        }
        let r = self.pacing_gain * bw * (1.0 - self.cfg.pacing_margin);
        if self.filled_pipe || r > self.pacing_rate {
            self.pacing_rate = r;
        }
    }

    /// Packets per quantum: Linux's TSO goal, `pacing_rate * 1 ms` (2^-10 s) in packets,
    /// at least 2 (1 below 1.2 Mbit/s), at most 64 KB.
    fn quantum_packets(&self) -> f64 {
        let min = if self.pacing_rate < MIN_TSO_RATE {
            1.0
        } else {
            2.0
        };
        let bytes = (self.pacing_rate / 1024.0).min(MAX_QUANTUM);
        (bytes / self.mss).floor().max(min)
    }

    /// `gain * BtlBw * RTprop`, bytes, rounded up to whole packets; the initial window
    /// while RTprop is unknown.
    fn bdp(&self, gain: f64) -> f64 {
        match self.min_rtt {
            None => self.cfg.init_cwnd * self.mss,
            Some(r) => {
                let b = gain * self.bw.get() * r.as_secs_f64();
                (b / self.mss).ceil() * self.mss
            }
        }
    }

    /// Linux's `bbr_quantization_budget`: three quanta, an even number of packets, two more
    /// in ProbeBW's 5/4 phase.
    fn quantization_budget(&self, cwnd: f64) -> f64 {
        let mut pkts = (cwnd / self.mss).ceil() + 3.0 * self.quantum_packets();
        pkts += pkts % 2.0;
        if self.mode == Mode::ProbeBw && self.cycle == 0 {
            pkts += 2.0;
        }
        pkts * self.mss
    }

    /// Draft `BBRInflight(gain)`: the flight the model allows at `gain`, bytes.
    pub fn inflight_at(&self, gain: f64) -> f64 {
        self.quantization_budget(self.bdp(gain))
    }

    fn enter_probe_bw(&mut self, now: Instant) {
        self.mode = Mode::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = self.cfg.cwnd_gain;
        // Linux: cycle_idx = CYCLE_LEN - 1 - rand(7), then one advance: never the 3/4 phase.
        let r = (splitmix64(now.as_nanos()) % 7) as usize;
        self.cycle = GAIN_CYCLE.len() - 1 - r;
        self.advance_cycle(now);
    }

    fn advance_cycle(&mut self, now: Instant) {
        self.cycle = (self.cycle + 1) % GAIN_CYCLE.len();
        self.cycle_stamp = now;
        self.pacing_gain = GAIN_CYCLE[self.cycle];
    }

    /// Draft section 4.3.4.3 (`BBRIsNextCyclePhase`), with the flight before the ACK.
    fn update_cycle(&mut self, now: Instant, prior_in_flight: f64, lost: bool) {
        if self.mode != Mode::ProbeBw {
            return;
        }
        let full_length = self
            .min_rtt
            .is_some_and(|r| now.saturating_since(self.cycle_stamp) > r);
        let next = if self.pacing_gain > 1.0 {
            full_length && (lost || prior_in_flight >= self.inflight_at(self.pacing_gain))
        } else if self.pacing_gain < 1.0 {
            full_length || prior_in_flight <= self.inflight_at(1.0)
        } else {
            full_length
        };
        if next {
            self.advance_cycle(now);
        }
    }

    /// Draft section 4.3.2 (`BBRCheckFullPipe`).
    fn check_full_pipe(&mut self, app_limited: bool) {
        if self.filled_pipe || !self.round_start || app_limited {
            return;
        }
        let bw = self.bw.get();
        if bw >= self.full_bw * FULL_BW_GROWTH {
            self.full_bw = bw;
            self.full_bw_rounds = 0;
            return;
        }
        self.full_bw_rounds += 1;
        if self.full_bw_rounds >= FULL_BW_ROUNDS {
            self.filled_pipe = true;
        }
    }

    /// Draft section 4.3.3 (`BBRCheckDrain`).
    fn check_drain(&mut self, now: Instant) {
        if self.mode == Mode::Startup && self.filled_pipe {
            self.mode = Mode::Drain;
            self.pacing_gain = DRAIN_GAIN;
            self.cwnd_gain = HIGH_GAIN;
        }
        if self.mode == Mode::Drain && self.in_flight as f64 <= self.inflight_at(1.0) {
            self.enter_probe_bw(now);
        }
    }

    /// The window to come back to after recovery or ProbeRTT (Linux `bbr_save_cwnd`).
    fn save_cwnd(&mut self) {
        self.prior_cwnd = if self.recovery_until.is_none() && self.mode != Mode::ProbeRtt {
            self.cwnd
        } else {
            self.prior_cwnd.max(self.cwnd)
        };
    }

    /// Draft section 4.3.4 (`BBRUpdateRTprop`, `BBRCheckProbeRTT`).
    fn update_min_rtt(&mut self, now: Instant, rtt: Option<Duration>) {
        let expired = now.saturating_since(self.min_rtt_stamp) > self.cfg.min_rtt_window
            && self.min_rtt.is_some();
        if let Some(r) = rtt {
            if self.min_rtt.is_none_or(|m| r < m) || expired {
                self.min_rtt = Some(r);
                self.min_rtt_stamp = now;
            }
        }
        if expired && !self.idle_restart && self.mode != Mode::ProbeRtt {
            self.save_cwnd();
            self.mode = Mode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.probe_rtt_done = None;
        }
        if self.mode == Mode::ProbeRtt {
            match self.probe_rtt_done {
                None if self.in_flight as f64 <= self.cfg.min_pipe_cwnd * self.mss => {
                    self.probe_rtt_done = Some(now + self.cfg.probe_rtt_duration);
                    self.probe_rtt_round_done = false;
                    self.next_round_delivered = self.rate.delivered();
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
                    if self.probe_rtt_round_done && now >= done {
                        self.min_rtt_stamp = now;
                        self.cwnd = self.cwnd.max(self.prior_cwnd);
                        if self.filled_pipe {
                            self.enter_probe_bw(now);
                        } else {
                            self.mode = Mode::Startup;
                            self.pacing_gain = HIGH_GAIN;
                            self.cwnd_gain = HIGH_GAIN;
                        }
                    }
                }
                None => {}
            }
        }
    }

    /// Linux's `bbr_update_ack_aggregation` (see the module documentation).
    fn update_ack_aggregation(&mut self, now: Instant, acked: f64) {
        if self.cfg.extra_acked_gain <= 0.0 || acked <= 0.0 {
            return;
        }
        if self.round_start {
            self.extra_rounds = (self.extra_rounds + 1).min(31);
            if self.extra_rounds >= EXTRA_ACKED_ROUNDS {
                self.extra_rounds = 0;
                self.extra_idx ^= 1;
                self.extra_acked[self.extra_idx] = 0.0;
            }
        }
        let start = *self.ack_epoch_start.get_or_insert(now);
        let mut expected = self.bw.get() * now.saturating_since(start).as_secs_f64();
        if self.ack_epoch_acked <= expected || self.ack_epoch_acked + acked >= ACK_EPOCH_RESET {
            self.ack_epoch_acked = 0.0;
            self.ack_epoch_start = Some(now);
            expected = 0.0;
        }
        self.ack_epoch_acked += acked;
        let extra = (self.ack_epoch_acked - expected).min(self.cwnd);
        if extra > self.extra_acked[self.extra_idx] {
            self.extra_acked[self.extra_idx] = extra;
        }
    }

    /// Linux's `bbr_set_cwnd` with `bbr_set_cwnd_to_recover_or_restore`.
    fn set_cwnd(&mut self, acked: f64) {
        let floor = self.cfg.min_pipe_cwnd * self.mss;
        if acked > 0.0 {
            if self.conservation {
                self.cwnd = self.cwnd.max(self.in_flight as f64 + acked);
            } else {
                let target =
                    self.quantization_budget(self.bdp(self.cwnd_gain) + self.extra_acked());
                if self.filled_pipe {
                    self.cwnd = (self.cwnd + acked).min(target);
                } else if self.cwnd < target
                    || (self.rate.delivered() as f64) < self.cfg.init_cwnd * self.mss
                {
                    self.cwnd += acked;
                }
                self.cwnd = self.cwnd.max(floor);
            }
        }
        if self.mode == Mode::ProbeRtt {
            self.cwnd = self.cwnd.min(floor);
        }
    }

    /// Leaves recovery once the flight it began with is delivered, restoring the window.
    fn check_recovery_end(&mut self) {
        if self
            .recovery_until
            .is_some_and(|m| self.rate.delivered() >= m)
        {
            self.recovery_until = None;
            self.conservation = false;
            self.cwnd = self.cwnd.max(self.prior_cwnd);
        }
    }
}

/// A 64-bit mix (SplitMix64's finaliser): BBR's random phase from a timestamp, and the
/// crate's other random draws that must stay deterministic.
pub(crate) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Controller for Bbr {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, now: Instant, bytes: u64, in_flight: u64) {
        self.rate.on_sent(now, bytes, in_flight);
        self.in_flight = in_flight;
    }

    fn on_app_limited(&mut self, _now: Instant, in_flight: u64) {
        self.rate.on_app_limited(in_flight);
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        if let Some(r) = ack.rtt {
            self.rtt.on_sample(r);
        }
        let rs = self.rate.on_ack(now, ack, self.min_rtt);
        let prior_in_flight = ack.flight_before as f64;
        self.in_flight = ack.flight_before.saturating_sub(ack.bytes_acked);
        let acked = ack.bytes_acked as f64;
        self.last_acked = ack.bytes_acked;
        // Round counting (draft section 4.1.1.3).
        self.round_start = false;
        if let Some(s) = rs {
            if s.prior_delivered >= self.next_round_delivered {
                self.next_round_delivered = self.rate.delivered();
                self.round += 1;
                self.round_start = true;
                self.conservation = false;
            }
        }
        self.bw.expire(self.round);
        if let Some(s) = rs {
            if !s.app_limited || s.rate >= self.bw.get() {
                self.bw.update(self.round, s.rate);
            }
            self.idle_restart = false;
        }
        self.check_recovery_end();
        self.update_ack_aggregation(now, acked);
        self.update_cycle(now, prior_in_flight, false);
        self.check_full_pipe(rs.is_some_and(|s| s.app_limited));
        self.check_drain(now);
        self.update_min_rtt(now, ack.rtt);
        self.set_pacing_rate();
        self.set_cwnd(acked);
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        let after = loss.in_flight.saturating_sub(loss.bytes);
        self.in_flight = after;
        if self.recovery_until.is_none() {
            self.save_cwnd();
            self.recovery_until = Some(self.rate.delivered() + loss.in_flight);
            self.conservation = true;
            self.next_round_delivered = self.rate.delivered();
            self.cwnd = (after + self.last_acked) as f64;
        } else {
            self.cwnd -= loss.bytes as f64;
        }
        self.cwnd = self.cwnd.max(self.mss);
        // A 5/4 phase ends at a loss (draft `BBRIsNextCyclePhase`).
        self.update_cycle(now, loss.in_flight as f64, true);
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        match kind {
            Timeout::Retransmission => {
                self.save_cwnd();
                self.recovery_until = Some(self.rate.delivered() + self.in_flight);
                self.conservation = false;
                self.cwnd = self.mss;
                self.in_flight = 0;
                self.full_bw = 0.0;
                self.full_bw_rounds = 0;
                self.rate.forget_in_flight();
            }
            Timeout::Idle => {
                // Linux's CA_EVENT_TX_START: no ProbeRTT on the restart, and in ProbeBW
                // pace at BtlBw.
                self.idle_restart = true;
                self.ack_epoch_start = Some(now);
                self.ack_epoch_acked = 0.0;
                if self.mode == Mode::ProbeBw && self.bw.get() > 0.0 {
                    self.pacing_rate = self.bw.get() * (1.0 - self.cfg.pacing_margin);
                }
            }
        }
    }

    fn window(&self) -> u64 {
        (self.cwnd.max(self.mss)) as u64
    }

    fn pacing_rate(&self) -> Option<u64> {
        Some((self.pacing_rate as u64).max(1))
    }

    fn metrics(&self) -> Metrics {
        let state = match self.mode {
            Mode::Startup => "startup",
            Mode::Drain => "drain",
            Mode::ProbeBw => "probe-bw",
            Mode::ProbeRtt => "probe-rtt",
        };
        Metrics {
            cwnd: self.window(),
            ssthresh: None,
            queuing_delay: self
                .rtt
                .latest()
                .zip(self.min_rtt)
                .map(|(l, m)| l.saturating_sub(m)),
            base_delay: self.min_rtt,
            pacing_rate: self.pacing_rate(),
            state,
            gain: self.pacing_gain,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    const MSS: u32 = 1500;
    const M: f64 = MSS as f64;

    fn bbr() -> Bbr {
        Bbr::new(BbrConfig::default(), MSS).unwrap()
    }

    /// A path of `rate` bytes/s behind an unlimited FIFO with `base` of propagation, driven as
    /// a driver must (window, pacing): a packet leaves the bottleneck `MSS / rate` after it
    /// reached it or after the previous one left, and its ACK comes `base` later.
    struct Path {
        now: Instant,
        ser: Duration,
        base: Duration,
        free_at: Instant,
        last_send: Option<Instant>,
        /// (sent, acknowledged at) of each packet in flight.
        flight: VecDeque<(Instant, Instant)>,
    }

    impl Path {
        fn new(rate: f64, base_ms: u64) -> Path {
            Path {
                now: Instant::ZERO,
                ser: Duration::from_secs_f64(M / rate),
                base: Duration::from_millis(base_ms),
                free_at: Instant::ZERO,
                last_send: None,
                flight: VecDeque::new(),
            }
        }

        fn in_flight(&self) -> u64 {
            self.flight.len() as u64 * MSS as u64
        }

        /// The next event: an ACK, or a send the window and the pacing rate allow.
        fn step(&mut self, c: &mut Bbr) {
            let send_at = (self.in_flight() + MSS as u64 <= c.window()).then(|| {
                let gap = Duration::from_secs_f64(M / c.pacing_rate().unwrap() as f64);
                self.last_send.map_or(self.now, |l| (l + gap).max(self.now))
            });
            let ack_at = self.flight.front().map(|f| f.1);
            match (ack_at, send_at) {
                (Some(a), s) if s.is_none_or(|s| a <= s) => {
                    let before = self.in_flight();
                    let (sent, at) = self.flight.pop_front().unwrap();
                    self.now = at;
                    let ack = Ack {
                        rtt: Some(at - sent),
                        ..Ack::bare(MSS as u64, 1, before, sent)
                    };
                    c.on_ack(at, &ack);
                }
                (_, Some(s)) => {
                    self.now = s;
                    let out = self.free_at.max(s) + self.ser;
                    self.free_at = out;
                    self.last_send = Some(s);
                    self.flight.push_back((s, out + self.base));
                    c.on_sent(s, MSS as u64, self.in_flight());
                }
                _ => unreachable!("nothing in flight and the window closed"),
            }
        }

        fn run_until(&mut self, c: &mut Bbr, until: Instant) {
            while self.now < until {
                self.step(c);
            }
        }

        fn run_while(&mut self, c: &mut Bbr, f: impl Fn(&Bbr) -> bool) {
            let start = self.now;
            while f(c) {
                self.step(c);
                assert!(self.now.saturating_since(start) < Duration::from_secs(60));
            }
        }
    }

    /// 10 Mbit/s (1.25 MB/s: 1.2 ms per packet) and 40 ms of propagation: RTprop 41.2 ms,
    /// BDP 51 500 B = 34.3 packets.
    fn path() -> Path {
        Path::new(1_250_000.0, 40)
    }

    #[test]
    fn startup_paces_at_high_gain_times_the_initial_window_over_the_rtt() {
        let mut c = bbr();
        // No RTT sample: 2.885 * 10 * 1500 B / 1 ms, less 1 %.
        let r0 = c.pacing_rate().unwrap() as f64;
        assert!((r0 - 2.885 * 15_000.0 / 0.001 * 0.99).abs() < 1.0, "{r0}");
        assert_eq!(c.window(), 15_000);
        c.on_sent(Instant::ZERO, 1500, 1500);
        let a = Ack {
            rtt: Some(Duration::from_millis(50)),
            ..Ack::bare(1500, 1, 1500, Instant::ZERO)
        };
        c.on_ack(Instant::from_millis(50), &a);
        assert_eq!(c.mode(), Mode::Startup);
        // The first RTT sample sets the initial rate again from it: 2.885 * 15 000 B / 50 ms,
        // less 1 % = 856 845 B/s. The delivery-rate sample, 1500 B / 50 ms = 30 kB/s, would
        // pace at 2.885 * 30 000 * 0.99, below it: Startup's rate only goes up.
        let r1 = c.pacing_rate().unwrap() as f64;
        // (pacing_rate() rounds down to whole bytes per second).
        assert!((r1 - 856_845.0).abs() <= 1.0, "{r1}");
        // Startup grows the window by every byte acknowledged.
        assert_eq!(c.window(), 16_500);
    }

    #[test]
    fn startup_fills_the_pipe_and_drain_empties_the_queue_it_built() {
        let mut c = bbr();
        let mut p = path();
        p.run_while(&mut c, |c| c.mode() == Mode::Startup);
        // The bandwidth is the bottleneck's, RTprop the empty path's.
        assert!((c.btl_bw() - 1_250_000.0).abs() < 1e-3, "{}", c.btl_bw());
        assert_eq!(c.min_rtt(), Some(Duration::from_micros(41_200)));
        assert!(c.filled_pipe());
        assert_eq!(c.mode(), Mode::Drain);
        assert!((c.pacing_gain() - 1.0 / 2.885).abs() < 1e-12);
        assert_eq!(c.cwnd_gain(), HIGH_GAIN);
        // Startup built a queue: more than a BDP is in flight.
        assert!(
            p.in_flight() as f64 > c.inflight_at(1.0),
            "{}",
            p.in_flight()
        );
        p.run_while(&mut c, |c| c.mode() == Mode::Drain);
        // Drain ends on the ACK that finds the flight at or below BDP + quanta: 35 + 3 * 2
        // packets, rounded up to 42.
        assert_eq!(c.mode(), Mode::ProbeBw);
        assert!(p.in_flight() <= 42 * MSS as u64, "{}", p.in_flight());
        assert_ne!(c.cycle_index(), 1, "ProbeBW never starts in the 3/4 phase");
    }

    #[test]
    fn probe_bw_window_is_twice_the_bdp_plus_the_quantization_budget() {
        let mut c = Bbr::new(BbrConfig::default().extra_acked_gain(0.0), MSS).unwrap();
        let mut p = path();
        p.run_until(&mut c, Instant::from_secs(3));
        assert_eq!(c.mode(), Mode::ProbeBw);
        // 2 * 1.25 MB/s * 41.2 ms = 103 000 B = 68.7 -> 69 packets, plus 3 quanta of 2 packets
        // (pacing at 1.24-1.55 MB/s, 1208-1510 B per ms, so the floor of 2) = 75 -> 76 (even),
        // plus 2 in the 5/4 phase.
        let phase0 = if c.cycle_index() == 0 { 2 } else { 0 };
        assert_eq!(c.inflight_at(2.0), ((76 + phase0) * MSS) as f64);
        assert_eq!(c.window(), ((76 + phase0) * MSS) as u64);
        // At gain 1: 35 + 6 = 41 -> 42.
        assert_eq!(c.inflight_at(1.0), ((42 + phase0) * MSS) as f64);
    }

    #[test]
    fn probe_bw_cycles_its_gains_one_rtprop_each() {
        let mut c = bbr();
        let mut p = path();
        p.run_until(&mut c, Instant::from_secs(2));
        assert_eq!(c.mode(), Mode::ProbeBw);
        // Record (phase, duration, flight when it ended) for two whole cycles.
        let mut phases: Vec<(usize, Duration, u64)> = Vec::new();
        let (mut idx, mut since) = (c.cycle_index(), p.now);
        while phases.len() < 18 {
            p.step(&mut c);
            if c.cycle_index() != idx {
                let flight = p.in_flight() / MSS as u64;
                phases.push((idx, p.now.saturating_since(since), flight));
                idx = c.cycle_index();
                since = p.now;
            }
        }
        let rtprop = Duration::from_micros(41_200);
        let ack = Duration::from_micros(1_200); // phases end on an ACK: at most one spacing late
        for w in phases.windows(2) {
            assert_eq!(w[1].0, (w[0].0 + 1) % 8, "phases in order: {phases:?}");
        }
        for &(i, d, flight) in &phases[1..] {
            match i {
                // 5/4: at least an RTprop, and until the flight before an ACK reaches 5/4 BDP
                // + quanta + 2: 42.9 -> 43 + 6 = 49 -> 50 (even) + 2 = 52 packets. The 1.0
                // phases leave about 40 in flight (the 3/4 phase stops draining at 42), and
                // pacing at 1.2375 x the bottleneck adds 0.198 packets per ms: about 60 ms.
                0 => {
                    assert!(d > rtprop && d < rtprop * 2, "{i}: {d}");
                    assert_eq!(flight, 51, "52 before the ACK that ended it");
                }
                // 3/4: ends once the flight is back at BDP + quanta (42 packets, above), at
                // most an RTprop.
                1 => assert!(d <= rtprop + ack && flight <= 42, "{i}: {d} {flight}"),
                // Gain 1: one RTprop, ended by the first ACK after it.
                _ => assert!(d > rtprop && d <= rtprop + ack, "{i}: {d}"),
            }
        }
        // In the 5/4 phase the pacing rate is 5/4 of BtlBw, less 1 %.
        p.run_while(&mut c, |c| c.cycle_index() != 0);
        let want = 1.25 * 1_250_000.0 * 0.99;
        assert!((c.pacing_rate().unwrap() as f64 - want).abs() < 1.0);
    }

    #[test]
    fn probe_rtt_holds_four_packets_for_200_ms_every_10_s() {
        let mut c = bbr();
        let mut p = path();
        p.run_while(&mut c, |c| c.mode() != Mode::ProbeRtt);
        // RTprop was set in the first round (the empty path: 41.2 ms) and only a smaller
        // sample renews its stamp (as in Linux): ProbeRTT 10 s after it.
        let entered = p.now;
        assert!(
            entered > Instant::from_secs(10) && entered < Instant::from_millis(10_100),
            "{entered:?}"
        );
        let before = c.prior_cwnd;
        assert_eq!(c.window(), 4 * MSS as u64);
        assert_eq!(c.pacing_gain(), 1.0);
        p.run_while(&mut c, |c| c.mode() == Mode::ProbeRtt);
        // 200 ms from the moment the flight was down to 4 packets, and at least a round.
        let held = p.now.saturating_since(entered);
        assert!(held >= Duration::from_millis(200), "{held}");
        assert!(held < Duration::from_millis(200) + Duration::from_micros(41_200 * 3));
        assert_eq!(c.mode(), Mode::ProbeBw);
        assert_eq!(c.window() as f64, before);
    }

    #[test]
    fn a_loss_conserves_packets_for_a_round_then_restores_the_window() {
        let mut c = Bbr::new(BbrConfig::default().extra_acked_gain(0.0), MSS).unwrap();
        let mut p = path();
        p.run_until(&mut c, Instant::from_secs(3));
        let w = c.window() as f64;
        // An ACK of one packet, then a loss found by it with 40 packets in flight.
        let now = p.now;
        c.on_ack(now, &Ack::bare(1500, 1, 41 * 1500, now));
        c.on_loss(
            now,
            &Loss {
                bytes: 1500,
                sent_at: now,
                in_flight: 40 * 1500,
            },
        );
        // cwnd = in flight after the loss + the bytes just acknowledged: 39 + 1 packets.
        assert_eq!(c.window(), 40 * 1500);
        // A second loss in the same recovery takes its bytes off.
        c.on_loss(
            now,
            &Loss {
                bytes: 1500,
                sent_at: now,
                in_flight: 39 * 1500,
            },
        );
        assert_eq!(c.window(), 39 * 1500);
        // Conservation: each ACK keeps the window at least at flight + acked.
        c.on_ack(now, &Ack::bare(1500, 1, 38 * 1500, now));
        assert_eq!(c.window(), 39 * 1500);
        // Once the 40 packets in flight at the loss are delivered, the window comes back.
        for _ in 0..39 {
            c.on_ack(now, &Ack::bare(1500, 1, 38 * 1500, now));
        }
        assert!(c.window() as f64 >= w, "{} < {w}", c.window());
    }

    #[test]
    fn a_timeout_cuts_to_one_packet_and_restores_when_the_flight_is_repaired() {
        let mut c = bbr();
        let mut p = path();
        p.run_until(&mut c, Instant::from_secs(3));
        let w = c.window();
        let flight = p.in_flight();
        c.on_timeout(p.now, Timeout::Retransmission);
        assert_eq!(c.window(), 1500);
        // The first ACK brings it to the floor of 4 packets (Linux does the same) ...
        c.on_sent(p.now, 1500, 1500);
        c.on_ack(p.now, &Ack::bare(1500, 1, 1500, p.now));
        assert_eq!(c.window(), 6000);
        // ... then it grows by the bytes acknowledged,
        c.on_ack(p.now, &Ack::bare(1500, 1, 1500, p.now));
        assert_eq!(c.window(), 7500);
        // ... until what was in flight at the timeout is delivered.
        let mut acked = 1500;
        while acked < flight {
            c.on_ack(p.now, &Ack::bare(1500, 1, 1500, p.now));
            acked += 1500;
        }
        assert!(c.window() >= w);
    }

    #[test]
    fn the_random_phase_is_a_function_of_the_time_only() {
        let phase = |t: u64| {
            let mut c = bbr();
            c.enter_probe_bw(Instant::from_nanos(t));
            c.cycle_index()
        };
        assert_eq!(phase(123_456_789), phase(123_456_789));
        let all: std::collections::BTreeSet<usize> = (0..200).map(|t| phase(t * 7919)).collect();
        assert_eq!(
            all.into_iter().collect::<Vec<_>>(),
            vec![0, 2, 3, 4, 5, 6, 7]
        );
    }

    #[test]
    fn config_errors_name_the_field() {
        let cases = [
            (BbrConfig::default().init_cwnd(0.0), "init_cwnd"),
            (BbrConfig::default().cwnd_gain(f64::NAN), "cwnd_gain"),
            (BbrConfig::default().bw_window_rounds(0), "bw_window_rounds"),
            (
                BbrConfig::default().min_rtt_window(Duration::ZERO),
                "min_rtt_window",
            ),
            (BbrConfig::default().pacing_margin(0.9), "pacing_margin"),
            (
                BbrConfig::default().extra_acked_gain(-1.0),
                "extra_acked_gain",
            ),
        ];
        for (cfg, field) in cases {
            let e = Bbr::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
        let draft = BbrConfig::default()
            .extra_acked_gain(0.0)
            .pacing_margin(0.0);
        assert!(draft.compliance_notes().is_empty());
        assert_eq!(BbrConfig::default().compliance_notes().len(), 2);
    }
}
