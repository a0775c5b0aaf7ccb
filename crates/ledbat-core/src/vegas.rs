//! TCP Vegas (Brakmo & Peterson, IEEE JSAC 13(8), 1995), the delay-based foreground TCP
//! of seed 003 (section 3.1: "Vegas was proposed as a high-priority delay-based congestion
//! control alternative"; NICE is built on it, see [`crate::nice`]).
//!
//! Once per round trip, with `base_rtt` the minimum RTT seen and `rtt` the minimum RTT
//! sample of the round that just ended (the Linux `tcp_vegas` choice, which filters
//! delayed-ACK noise), cwnd in packets:
//!
//! ```text
//! expected = cwnd / base_rtt;  actual = cwnd / rtt
//! diff     = (expected - actual) * base_rtt = cwnd (rtt - base_rtt) / rtt    # packets queued
//! avoidance:   diff < alpha: cwnd += 1;  diff > beta: cwnd -= 1;  otherwise hold
//! slow start:  diff > gamma: leave slow start, cwnd = min(cwnd, cwnd base_rtt / rtt + 1)
//!              otherwise grow exponentially, but only every other round trip
//! ```
//!
//! cwnd never falls below 2 packets through these rules (Linux `tcp_vegas`); a round without
//! any RTT sample (all ACKs for retransmissions, Karn's rule) grows like Reno, one packet.
//! Losses and timeouts are Reno's (see [`crate::reno`]); rounds that end during loss
//! recovery change nothing. Slow start can be Vegas's own
//! (every other RTT, the paper's "modified slow start") or Reno's every-RTT doubling
//! ([`VegasConfig::vegas_slow_start`] false, what Linux does).

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::error::{in_range, ConfigError};
use crate::reno::{RenoWindow, RoundTracker};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Vegas parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VegasConfig {
    /// Lower bound on the packets kept queued: below it cwnd grows by one per RTT. Default 2
    /// (Linux `tcp_vegas` module parameter `alpha`; Brakmo & Peterson evaluate 1 and 3, as
    /// do ns-2's `v_alpha_`/`v_beta_` defaults 1/3; seed 003 does not state its values).
    pub alpha: f64,
    /// Upper bound on the packets kept queued: above it cwnd shrinks by one per RTT.
    /// Default 4 (Linux `tcp_vegas` `beta`).
    pub beta: f64,
    /// Slow-start exit threshold, packets queued. Default 1 (Linux `tcp_vegas` `gamma`,
    /// ns-2 `v_gamma_`).
    pub gamma: f64,
    /// Vegas's slow start (grow every other RTT) instead of Reno's. Default on (Brakmo &
    /// Peterson section 3.3).
    pub vegas_slow_start: bool,
    /// Initial window, packets. Default 2 (ns-2 `windowInit_`, as for NewReno).
    pub init_cwnd: f64,
    /// Slow start at the start of the connection. Default on; seed 003 section 3.2.3 turns
    /// it off.
    pub slow_start: bool,
}

impl Default for VegasConfig {
    fn default() -> Self {
        VegasConfig {
            alpha: 2.0,
            beta: 4.0,
            gamma: 1.0,
            vegas_slow_start: true,
            init_cwnd: 2.0,
            slow_start: true,
        }
    }
}

config_setters!(VegasConfig {
    alpha: f64,
    beta: f64,
    gamma: f64,
    vegas_slow_start: bool,
    init_cwnd: f64,
    slow_start: bool,
});

impl VegasConfig {
    /// Checks every field, naming `controller` in the error (NICE embeds this config).
    pub fn validate_as(&self, controller: &'static str) -> Result<(), ConfigError> {
        in_range(controller, "alpha", self.alpha, 0.0, 1e6)?;
        in_range(controller, "beta", self.beta, 0.0, 1e6)?;
        if self.beta < self.alpha {
            return Err(ConfigError::new(
                controller,
                "beta",
                format!("must be at least alpha ({}), got {}", self.alpha, self.beta),
            ));
        }
        in_range(controller, "gamma", self.gamma, 0.0, 1e6)?;
        in_range(controller, "init_cwnd", self.init_cwnd, 1.0, 1e6)
    }
}

impl ControllerFactory for VegasConfig {
    type Controller = Vegas;
    const NAME: &'static str = Vegas::NAME;
    fn validate(&self) -> Result<(), ConfigError> {
        self.validate_as(Self::NAME)
    }

    fn build(&self, mss: u32) -> Result<Vegas, ConfigError> {
        Vegas::new(*self, mss)
    }
}

/// What one finished round trip measured.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundEnd {
    /// Minimum RTT sample of the round, `None` when it had none.
    pub min_rtt: Option<Duration>,
    /// The round ended during loss recovery: no delay-based change (Linux applies the
    /// Vegas rule only outside recovery).
    pub in_recovery: bool,
}

/// Vegas's state, shared with NICE.
#[derive(Clone, Debug)]
pub(crate) struct VegasCore {
    pub cfg: VegasConfig,
    pub w: RenoWindow,
    /// Floor of the Vegas rules, bytes.
    pub min_cwnd: f64,
    pub base_rtt: Option<Duration>,
    pub srtt: crate::controller::RttEstimator,
    round: RoundTracker,
    round_min: Option<Duration>,
    /// Whether slow start grows during this round (Vegas: every other round).
    grow_round: bool,
    /// Queued packets measured at the last round end.
    pub last_diff: Option<f64>,
    /// Latest round's minimum RTT.
    pub last_rtt: Option<Duration>,
}

impl VegasCore {
    pub fn new(cfg: VegasConfig, mss: u32, min_cwnd_packets: f64) -> Self {
        let ssthresh = (!cfg.slow_start).then_some(cfg.init_cwnd);
        let w = RenoWindow::new(mss, cfg.init_cwnd, ssthresh);
        VegasCore {
            min_cwnd: min_cwnd_packets * w.mss,
            w,
            cfg,
            base_rtt: None,
            srtt: Default::default(),
            round: RoundTracker::default(),
            round_min: None,
            grow_round: true,
            last_diff: None,
            last_rtt: None,
        }
    }

    pub fn on_sent(&mut self, now: Instant, in_flight: u64) {
        self.w.on_sent(in_flight);
        self.round.on_sent(now);
    }

    /// Per-ACK bookkeeping and slow-start growth; returns the finished round, if this ACK
    /// closed one (the caller then applies [`VegasCore::vegas_update`] or its own rule).
    pub fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) -> Option<RoundEnd> {
        self.w.on_ack(ack);
        if let Some(r) = ack.rtt {
            self.srtt.on_sample(r);
            self.base_rtt = Some(self.base_rtt.map_or(r, |b| b.min(r)));
            self.round_min = Some(self.round_min.map_or(r, |m| m.min(r)));
        }
        if self.w.in_slow_start()
            && !self.w.in_recovery()
            && (self.grow_round || !self.cfg.vegas_slow_start)
        {
            self.w.slow_start(ack.bytes_acked as f64);
        }
        if !self.round.on_ack(now, ack.newest_sent) {
            return None;
        }
        let end = RoundEnd {
            min_rtt: self.round_min.take(),
            in_recovery: self.w.in_recovery(),
        };
        self.last_rtt = end.min_rtt.or(self.last_rtt);
        Some(end)
    }

    /// Vegas's once-per-RTT rule for a finished round.
    pub fn vegas_update(&mut self, end: RoundEnd) {
        if end.in_recovery {
            return;
        }
        let mss = self.w.mss;
        let (Some(rtt), Some(base)) = (end.min_rtt, self.base_rtt) else {
            // No RTT sample this round: Reno's one packet.
            if !self.w.in_slow_start() {
                self.w.cwnd += mss;
            }
            return;
        };
        let rtt_s = rtt.as_secs_f64().max(1e-9);
        let base_s = base.as_secs_f64();
        let cwnd = self.w.cwnd / mss;
        let diff = cwnd * (rtt_s - base_s) / rtt_s;
        self.last_diff = Some(diff);
        if self.w.in_slow_start() {
            if diff > self.cfg.gamma {
                let target = cwnd * base_s / rtt_s;
                self.w.cwnd = self.w.cwnd.min((target + 1.0) * mss);
                self.w.ssthresh = (self.w.cwnd - mss).max(self.min_cwnd).min(self.w.ssthresh);
                self.grow_round = true;
            } else {
                self.grow_round = !self.grow_round;
            }
        } else if diff > self.cfg.beta {
            self.w.cwnd -= mss;
            self.w.ssthresh = self.w.ssthresh.min((self.w.cwnd - mss).max(self.min_cwnd));
        } else if diff < self.cfg.alpha {
            self.w.cwnd += mss;
        }
        self.clamp();
    }

    pub fn clamp(&mut self) {
        // f64::max also replaces a NaN.
        self.w.cwnd = self.w.cwnd.max(self.min_cwnd);
    }

    pub fn metrics(&self, state: &'static str, window: u64) -> Metrics {
        let queuing = match (self.last_rtt, self.base_rtt) {
            (Some(r), Some(b)) => Some(r.saturating_sub(b)),
            _ => None,
        };
        Metrics {
            cwnd: window,
            ssthresh: self.w.ssthresh_bytes(),
            queuing_delay: queuing,
            state,
            gain: 1.0,
            ..Metrics::default()
        }
    }
}

/// TCP Vegas.
#[derive(Clone, Debug)]
pub struct Vegas {
    core: VegasCore,
}

/// Vegas's window floor, packets (Linux `tcp_vegas`).
pub const VEGAS_MIN_CWND: f64 = 2.0;

impl Vegas {
    /// Registry name.
    pub const NAME: &'static str = "vegas";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: VegasConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Vegas {
            core: VegasCore::new(cfg, mss, VEGAS_MIN_CWND),
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &VegasConfig {
        &self.core.cfg
    }

    /// Packets queued at the bottleneck as measured at the last round end
    /// (`(expected - actual) * base_rtt`).
    pub fn diff(&self) -> Option<f64> {
        self.core.last_diff
    }

    /// Minimum RTT seen.
    pub fn base_rtt(&self) -> Option<Duration> {
        self.core.base_rtt
    }
}

impl Controller for Vegas {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, now: Instant, _bytes: u64, in_flight: u64) {
        self.core.on_sent(now, in_flight);
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        if let Some(end) = self.core.on_ack(now, ack) {
            self.core.vegas_update(end);
        }
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        self.core.w.on_loss(now, loss);
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.core.w.on_timeout(now, kind);
    }

    fn window(&self) -> u64 {
        self.core.w.window_at_least(self.core.w.mss)
    }

    fn metrics(&self) -> Metrics {
        self.core.metrics(self.core.w.phase(), self.window())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::newreno::testutil::*;

    const BASE: Duration = Duration::from_millis(100);

    /// `n` round trips at `rtt`, returning the time after the last.
    fn rounds(c: &mut Vegas, mut t: Instant, rtt: Duration, n: usize) -> Instant {
        for _ in 0..n {
            t = round(c, t, rtt);
        }
        t
    }

    fn avoidance(init: f64) -> Vegas {
        Vegas::new(
            VegasConfig::default().slow_start(false).init_cwnd(init),
            MSS,
        )
        .unwrap()
    }

    #[test]
    fn grows_one_packet_per_rtt_below_alpha() {
        let mut c = avoidance(20.0);
        let t = rounds(&mut c, Instant::ZERO, BASE, 2);
        let w0 = pkts(&c);
        rounds(&mut c, t, BASE, 3);
        assert_eq!(pkts(&c), w0 + 3.0);
        assert_eq!(c.diff(), Some(0.0));
    }

    #[test]
    fn holds_between_alpha_and_beta() {
        let mut c = avoidance(20.0);
        let t = rounds(&mut c, Instant::ZERO, BASE, 1);
        // RTT 120 ms over a 100 ms base: diff = W / 6 lies in [alpha, beta] = [2, 4] for
        // W in [12, 24]. The first round at the new RTT still holds samples of the old one.
        let rtt = Duration::from_millis(120);
        let t = rounds(&mut c, t, rtt, 1);
        let w1 = pkts(&c);
        rounds(&mut c, t, rtt, 5);
        assert_eq!(pkts(&c), w1);
        let d = c.diff().unwrap();
        assert!(
            (d - w1 / 6.0).abs() < 1e-9 && (2.0..=4.0).contains(&d),
            "diff {d}"
        );
    }

    #[test]
    fn shrinks_one_packet_per_rtt_above_beta() {
        let mut c = avoidance(20.0);
        let t = rounds(&mut c, Instant::ZERO, BASE, 1);
        let t = rounds(&mut c, t, BASE * 2, 1);
        let w1 = pkts(&c);
        // RTT 200 ms: diff = W / 2 > 4, one packet less per round.
        rounds(&mut c, t, BASE * 2, 3);
        assert_eq!(pkts(&c), w1 - 3.0);
        assert_eq!(c.diff(), Some((w1 - 2.0) / 2.0));
    }

    #[test]
    fn vegas_slow_start_doubles_every_other_rtt_and_exits_on_gamma() {
        let mut c = Vegas::new(VegasConfig::default().init_cwnd(2.0), MSS).unwrap();
        let mut t = Instant::ZERO;
        let mut seen = Vec::new();
        for _ in 0..6 {
            t = round(&mut c, t, BASE);
            seen.push(pkts(&c));
        }
        // A round ends at the first ACK of the next flight, so growth rounds and hold rounds
        // alternate with a one-ACK offset: the window doubles (less one) every two RTTs.
        assert_eq!(seen, vec![3.0, 5.0, 6.0, 11.0, 12.0, 23.0], "{seen:?}");
        assert_eq!(c.metrics().state, "slow-start");
        // RTT 120 ms. The first round still carries 100 ms samples and grows to 24; the
        // next measures diff = 24 * 20 / 120 = 4 > gamma: cwnd = min(24, 24 * 100/120 + 1).
        t = round(&mut c, t, Duration::from_millis(120));
        assert_eq!(c.metrics().state, "slow-start");
        round(&mut c, t, Duration::from_millis(120));
        assert_eq!(c.metrics().state, "avoidance");
        assert_eq!(pkts(&c), 21.0);
    }

    #[test]
    fn loss_is_reno() {
        let mut c = avoidance(20.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - Duration::from_millis(10), 20 * 1500));
        assert_eq!(pkts(&c), 10.0);
        c.on_loss(t0, &loss(t0 - Duration::from_millis(5), 19 * 1500));
        assert_eq!(pkts(&c), 10.0);
    }

    #[test]
    fn rounds_ending_in_recovery_leave_the_window_alone() {
        let mut c = avoidance(20.0);
        // The current round began at `t` (first ACK of the second flight).
        let t = rounds(&mut c, Instant::ZERO, BASE, 2);
        let t_loss = t + Duration::from_millis(5);
        c.on_loss(t_loss, &loss(t - Duration::from_millis(10), 22 * 1500));
        let w = pkts(&c);
        // This ACK closes the round (its packet left at `t`) but acknowledges data sent
        // before the loss: recovery, so no Vegas +1 although diff = 0 < alpha.
        c.on_ack(t + BASE, &ack_rtt(t, Some(BASE), 1500));
        assert_eq!(pkts(&c), w);
        assert_eq!(c.diff(), Some(0.0), "the previous round's diff, untouched");
        // The next round, on data sent after the loss, applies the rule again.
        c.on_sent(t + BASE, 1500, 1500);
        c.on_ack(t + BASE * 2, &ack_rtt(t + BASE, Some(BASE), 1500));
        assert_eq!(pkts(&c), w + 1.0);
    }

    #[test]
    fn never_below_two_packets_by_delay() {
        // alpha = beta = 0: any queueing takes one packet per round.
        let cfg = VegasConfig::default()
            .slow_start(false)
            .init_cwnd(6.0)
            .alpha(0.0)
            .beta(0.0);
        let mut c = Vegas::new(cfg, MSS).unwrap();
        let t = rounds(&mut c, Instant::ZERO, BASE, 1);
        rounds(&mut c, t, Duration::from_secs(5), 10);
        assert_eq!(pkts(&c), 2.0);
    }

    #[test]
    fn config_errors_name_the_field() {
        let e = Vegas::new(VegasConfig::default().alpha(5.0), MSS).unwrap_err();
        assert_eq!(e.field, "beta");
        let e = Vegas::new(VegasConfig::default().gamma(-1.0), MSS).unwrap_err();
        assert_eq!(e.field, "gamma");
    }
}
