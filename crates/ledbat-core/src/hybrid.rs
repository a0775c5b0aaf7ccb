//! Hybrid window-and-rate control (Mehrotra, Li, Sengupta, Jain, Sen, "Hybrid window and
//! rate based congestion control for delay sensitive applications", seed 004, section II;
//! algorithms.md section 8).
//!
//! The sender adjusts a transmission rate `R` (bits/s) once per *epoch* of length `L`, the
//! minimum RTT seen so far, and derives a window from it:
//!
//! ```text
//! d      = mean(OWD - OWD_min) over the packets acknowledged in the epoch   # II-A
//! trend  = one-way-delay trend of the epoch (increasing or not)            # II-A, via [5]
//! zone 1: trend not increasing and d <= d1
//! zone 2: trend not increasing, no loss, d1 < d <= d2
//! zone 3: trend increasing, or d > d2, or a loss with d > d1
//! R      = R + alpha                       in zone 1                       # eq. (2)
//! R      = R (1 - beta)                    in zones 2 and 3
//! alpha  = alpha_max                                            if d <= d0  # eq. (3)
//!        = alpha_max alpha_min (d1 - d0)
//!          / (alpha_max (d - d0) + alpha_min (d1 - d))          otherwise (hyperbola
//!                                              through alpha_max at d0 and alpha_min at d1)
//! beta   = beta_min + (beta_mid - beta_min)(d - d1)/(d2 - d1)   zone 2       # eq. (4)
//!        = beta_mid + (beta_max - beta_mid)(d - d2)/(d3 - d2)   zone 3, trend not
//!                                                               increasing, d <= d3
//!        = beta_min + (beta_max - beta_min) d / d3              trend increasing, d <= d3
//!        = beta_max                                             d > d3, or a loss with d > d1
//! W      = R L                                                                # II-C
//! ```
//!
//! The driver sends when the flight is below `W` and at least `gamma P / R` after the previous
//! packet: [`Controller::pacing_rate`] returns `R / (8 gamma)` bytes/s (none when gamma = 0,
//! pure window control). Losses without a delay rise (d <= d1) are ignored.
//!
//! Readings of the paper, stated:
//! - Eq. (3) and the zone-3 line of eq. (4) are garbled in the published text; the forms
//!   above are the ones the prose describes ("alpha = alpha_max for d <= d0 and decays to
//!   alpha_min by the Zone 1 boundary d1", TCP-Illinois's hyperbola; "beta goes from
//!   beta_min to beta_mid during Zone 2, and then up to beta_max in Zone 3"), so beta is
//!   continuous at d2.
//! - The trend test is reference \[5\] (Jain & Dovrolis, pathload): K OWD samples are split
//!   into G = floor(sqrt(K)) consecutive groups, each represented by its median D_1..D_G;
//!   `PCT = #{k: D_k > D_(k-1)} / (G - 1)`, `PDT = (D_G - D_1) / sum |D_k - D_(k-1)|`. PCT
//!   says increasing above 0.66 and not increasing below 0.54; PDT above 0.55 and below
//!   0.45; otherwise a metric is ambiguous. The trend is increasing when one metric says so
//!   and the other does not contradict it. The paper does not say which samples it tests;
//!   here, at each epoch end, the last `trend_samples` OWD samples (default K = 100, G = 10,
//!   pathload's stream length), a window that spans several epochs at low rates; no verdict
//!   (not increasing) until that many samples were seen. The paper says only "we use the
//!   method developed in \[5\]", with no sample count or thresholds, so these constants are
//!   \[5\]'s own. Testing each epoch alone (about 12 samples at 1 Mb/s and 100 ms) would
//!   flag every sub-packet queue build-up of a paced flow and keep the queue near empty.
//! - OWD_min is the minimum over the whole connection (the paper's default; it mentions a
//!   windowed minimum against clock drift as an option, not implemented).
//! - The paper gives no start-up rule: before the first RTT sample the window is
//!   `init_window` packets without pacing; then `R = init_window P / L`.
//! - An epoch without any delay sample leaves R unchanged (nothing was measured). R never
//!   falls below `min_window` packets per epoch.
//! - The paper is silent on retransmission timeouts. By default a timeout is treated as
//!   any other loss: it enters the zone test of its epoch and cuts R only together with a
//!   delay rise (a dead path still sends at most one window per backed-off RTO). With
//!   `cut_on_timeout` a timeout also applies beta_max at once, at most once per epoch.
//!
//! The zone rules follow section II-A line by line. With beta_min applied as soon as
//! d > d1 and alpha shrinking to alpha_min near d1, the time-average queueing delay sits
//! below d1 by construction (the paper's Fig. 4 plots the per-epoch d). How the flow
//! compares with the paper's figures, with the commands: `docs/controllers-notes.md`,
//! "hybrid".

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, RttEstimator, Timeout,
};
use crate::error::{in_range, ConfigError};
use crate::time::{Duration, Instant};
use crate::wire::Unwrapper;
use serde::{Deserialize, Serialize};

/// Hybrid window-and-rate parameters (defaults: seed 004 section III, "For the protocol, we
/// use alpha_min = 800 bps, alpha_max = 40 Kbps, beta_min = 0.25, beta_mid = 0.33,
/// beta_max = 0.5, d0 = 0, d1 = 12 ms, d2 = 24 ms, d3 = 48 ms, and gamma = 1.0").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HybridConfig {
    /// Smallest additive increase, bits/s per epoch (at d = d1). Default 800.
    pub alpha_min: f64,
    /// Largest additive increase, bits/s per epoch (at d <= d0). Default 40 000.
    pub alpha_max: f64,
    /// Decrease factor at the zone 1/2 boundary. Default 0.25.
    pub beta_min: f64,
    /// Decrease factor at the zone 2/3 boundary. Default 0.33.
    pub beta_mid: f64,
    /// Largest decrease factor (d >= d3, or loss with a delay rise). Default 0.5.
    pub beta_max: f64,
    /// Queuing delay below which alpha is alpha_max. Default 0.
    pub d0: Duration,
    /// Zone 1/2 boundary. Default 12 ms.
    pub d1: Duration,
    /// Zone 2/3 boundary. Default 24 ms.
    pub d2: Duration,
    /// Delay at which beta reaches beta_max. Default 48 ms.
    pub d3: Duration,
    /// Pacing factor in [0, 1]: packets leave `gamma P / R` apart. Default 1 (fully paced).
    pub gamma: f64,
    /// Use the one-way-delay trend test. Default on (seed 004 section II-A).
    pub trend_test: bool,
    /// Number of latest OWD samples the trend test examines at each epoch end. Default 100
    /// (pathload's stream length, Jain & Dovrolis; the paper does not say).
    pub trend_samples: usize,
    /// Window before the first RTT sample, packets; the first rate is this window per
    /// epoch. Default 2 (as RFC 6817's INIT_CWND; the paper gives no start-up rule).
    pub init_window: f64,
    /// Smallest rate, packets per epoch. Default 1.
    pub min_window: f64,
    /// Cut R by beta_max on a retransmission timeout, at most once per epoch. Default off
    /// (the paper ignores losses without a delay rise and says nothing of timeouts).
    pub cut_on_timeout: bool,
}

impl Default for HybridConfig {
    fn default() -> Self {
        HybridConfig {
            alpha_min: 800.0,
            alpha_max: 40_000.0,
            beta_min: 0.25,
            beta_mid: 0.33,
            beta_max: 0.5,
            d0: Duration::ZERO,
            d1: Duration::from_millis(12),
            d2: Duration::from_millis(24),
            d3: Duration::from_millis(48),
            gamma: 1.0,
            trend_test: true,
            trend_samples: 100,
            init_window: 2.0,
            min_window: 1.0,
            cut_on_timeout: false,
        }
    }
}

config_setters!(HybridConfig {
    alpha_min: f64,
    alpha_max: f64,
    beta_min: f64,
    beta_mid: f64,
    beta_max: f64,
    d0: Duration,
    d1: Duration,
    d2: Duration,
    d3: Duration,
    gamma: f64,
    trend_test: bool,
    trend_samples: usize,
    init_window: f64,
    min_window: f64,
    cut_on_timeout: bool,
});

impl ControllerFactory for HybridConfig {
    type Controller = Hybrid;
    const NAME: &'static str = Hybrid::NAME;
    fn validate(&self) -> Result<(), ConfigError> {
        let n = Self::NAME;
        in_range(n, "alpha_min", self.alpha_min, 1e-3, 1e12)?;
        in_range(n, "alpha_max", self.alpha_max, self.alpha_min, 1e12)?;
        in_range(n, "beta_min", self.beta_min, 0.0, 1.0 - 1e-9)?;
        in_range(n, "beta_mid", self.beta_mid, self.beta_min, 1.0 - 1e-9)?;
        in_range(n, "beta_max", self.beta_max, self.beta_mid, 1.0 - 1e-9)?;
        let order = [
            ("d1", self.d0, self.d1),
            ("d2", self.d1, self.d2),
            ("d3", self.d2, self.d3),
        ];
        for (field, lo, d) in order {
            if d <= lo {
                return Err(ConfigError::new(
                    n,
                    field,
                    format!("must exceed the previous threshold ({lo}), got {d}"),
                ));
            }
        }
        in_range(n, "gamma", self.gamma, 0.0, 1.0)?;
        if !(4..=MAX_TREND_SAMPLES).contains(&self.trend_samples) {
            return Err(ConfigError::new(
                n,
                "trend_samples",
                format!(
                    "must be between 4 (two groups of two) and {MAX_TREND_SAMPLES}, got {}",
                    self.trend_samples
                ),
            ));
        }
        in_range(n, "init_window", self.init_window, 1.0, 1e6)?;
        in_range(n, "min_window", self.min_window, 0.01, self.init_window)
    }

    fn build(&self, mss: u32) -> Result<Hybrid, ConfigError> {
        Hybrid::new(*self, mss)
    }
}

/// Congestion level of one epoch (seed 004 section II-A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// Little queuing, delay not rising: increase.
    One,
    /// Tolerable queuing: gentle decrease.
    Two,
    /// Rising delay, large queuing, or loss with queuing: stronger decrease.
    Three,
}

impl Zone {
    /// `zone-1`, `zone-2`, `zone-3`.
    pub fn name(self) -> &'static str {
        match self {
            Zone::One => "zone-1",
            Zone::Two => "zone-2",
            Zone::Three => "zone-3",
        }
    }
}

/// Pathload's verdict from one metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Increasing,
    NotIncreasing,
    Ambiguous,
}

/// Whether `owd` (in arrival order) shows an increasing trend by the pairwise comparison
/// and pairwise difference tests of Jain & Dovrolis (see the module documentation).
/// `None` when there are fewer than four samples (fewer than two groups of two).
pub fn owd_trend_increasing(owd: &[i64]) -> Option<bool> {
    let k = owd.len();
    let g = (k as f64).sqrt().floor() as usize;
    if g < 2 {
        return None;
    }
    let mut medians = Vec::with_capacity(g);
    let mut scratch: Vec<i64> = Vec::with_capacity(k / g + 1);
    for i in 0..g {
        scratch.clear();
        scratch.extend_from_slice(&owd[i * k / g..(i + 1) * k / g]);
        scratch.sort_unstable();
        let n = scratch.len();
        let m = if n % 2 == 1 {
            scratch[n / 2] as f64
        } else {
            (scratch[n / 2 - 1] + scratch[n / 2]) as f64 / 2.0
        };
        medians.push(m);
    }
    let ups = medians.windows(2).filter(|w| w[1] > w[0]).count();
    let pct = ups as f64 / (g - 1) as f64;
    let total: f64 = medians.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
    let pdt = if total > 0.0 {
        (medians[g - 1] - medians[0]) / total
    } else {
        0.0
    };
    let v_pct = if pct > 0.66 {
        Verdict::Increasing
    } else if pct < 0.54 {
        Verdict::NotIncreasing
    } else {
        Verdict::Ambiguous
    };
    let v_pdt = if pdt > 0.55 {
        Verdict::Increasing
    } else if pdt < 0.45 {
        Verdict::NotIncreasing
    } else {
        Verdict::Ambiguous
    };
    use Verdict::*;
    Some(matches!(
        (v_pct, v_pdt),
        (Increasing, Increasing) | (Increasing, Ambiguous) | (Ambiguous, Increasing)
    ))
}

/// Largest accepted [`HybridConfig::trend_samples`].
pub const MAX_TREND_SAMPLES: usize = 10_000;

/// The hybrid window-and-rate controller of seed 004.
#[derive(Clone, Debug)]
pub struct Hybrid {
    cfg: HybridConfig,
    mss: f64,
    /// Transmission rate, bits/s (`None` before the first RTT sample).
    rate: Option<f64>,
    /// Epoch length (minimum RTT) in force.
    epoch_len: Option<Duration>,
    epoch_start: Instant,
    rtt: RttEstimator,
    unwrap: Unwrapper,
    owd_min: Option<(i64, u32)>,
    /// This epoch: sum and count of OWD - OWD_min (us), OWD samples for the trend.
    sum_rowd: f64,
    count: u64,
    /// The latest OWD samples (unwrapped), at most `trend_samples`.
    owds: std::collections::VecDeque<i64>,
    loss: bool,
    timeout_cut: bool,
    zone: Option<Zone>,
    last_d: Option<Duration>,
}

impl Hybrid {
    /// Registry name.
    pub const NAME: &'static str = "hybrid";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: HybridConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Hybrid {
            cfg,
            mss: mss.max(1) as f64,
            rate: None,
            epoch_len: None,
            epoch_start: Instant::ZERO,
            rtt: RttEstimator::default(),
            unwrap: Unwrapper::default(),
            owd_min: None,
            sum_rowd: 0.0,
            count: 0,
            owds: std::collections::VecDeque::with_capacity(cfg.trend_samples),
            loss: false,
            timeout_cut: false,
            zone: None,
            last_d: None,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &HybridConfig {
        &self.cfg
    }

    /// Transmission rate R in bits/s, once the first epoch has begun.
    pub fn rate_bps(&self) -> Option<f64> {
        self.rate
    }

    /// Epoch length L (the minimum RTT), once known.
    pub fn epoch_len(&self) -> Option<Duration> {
        self.epoch_len
    }

    /// The zone of the last finished epoch.
    pub fn zone(&self) -> Option<Zone> {
        self.zone
    }

    /// The additive increase alpha(d) in bits/s, eq. (3), for a queuing delay `d`.
    pub fn alpha(&self, d: Duration) -> f64 {
        let c = &self.cfg;
        let (d, d0, d1) = (d.as_secs_f64(), c.d0.as_secs_f64(), c.d1.as_secs_f64());
        if d <= d0 {
            return c.alpha_max;
        }
        let d = d.min(d1);
        c.alpha_max * c.alpha_min * (d1 - d0) / (c.alpha_max * (d - d0) + c.alpha_min * (d1 - d))
    }

    /// The zone of an epoch with mean queuing delay `d`, trend and loss flags (section II-A).
    pub fn classify(&self, d: Duration, increasing: bool, loss: bool) -> Zone {
        let c = &self.cfg;
        if increasing || d > c.d2 || (loss && d > c.d1) {
            Zone::Three
        } else if d <= c.d1 {
            Zone::One
        } else {
            Zone::Two
        }
    }

    /// The decrease factor beta, eq. (4), for a zone 2 or 3 epoch.
    pub fn beta(&self, d: Duration, increasing: bool, loss: bool) -> f64 {
        let c = &self.cfg;
        let s = |x: Duration| x.as_secs_f64();
        let dd = s(d);
        if d > c.d3 || (loss && d > c.d1) {
            return c.beta_max;
        }
        if increasing {
            return c.beta_min + (c.beta_max - c.beta_min) * dd / s(c.d3);
        }
        if d <= c.d2 {
            let x = ((dd - s(c.d1)) / (s(c.d2) - s(c.d1))).max(0.0);
            c.beta_min + (c.beta_mid - c.beta_min) * x
        } else {
            c.beta_mid + (c.beta_max - c.beta_mid) * (dd - s(c.d2)) / (s(c.d3) - s(c.d2))
        }
    }

    /// Window W = R L in bytes (the initial window before the first epoch).
    fn window_bytes(&self) -> f64 {
        match (self.rate, self.epoch_len) {
            (Some(r), Some(l)) => r / 8.0 * l.as_secs_f64(),
            _ => self.cfg.init_window * self.mss,
        }
    }

    fn min_rate(&self, l: Duration) -> f64 {
        self.cfg.min_window * self.mss * 8.0 / l.as_secs_f64().max(1e-6)
    }

    fn reset_epoch(&mut self, now: Instant) {
        self.epoch_start = now;
        self.sum_rowd = 0.0;
        self.count = 0;
        self.loss = false;
        self.timeout_cut = false;
    }

    /// Closes the epoch if it has run for L; updates L, the zone and R.
    fn maybe_close_epoch(&mut self, now: Instant) {
        let (Some(l), Some(r)) = (self.epoch_len, self.rate) else {
            return;
        };
        if now.saturating_since(self.epoch_start) < l {
            return;
        }
        let l = self.rtt.min().unwrap_or(l);
        self.epoch_len = Some(l);
        if self.count > 0 {
            let d = Duration::from_micros((self.sum_rowd / self.count as f64).max(0.0) as u64);
            let increasing = self.cfg.trend_test
                && self.owds.len() >= self.cfg.trend_samples
                && owd_trend_increasing(self.owds.make_contiguous()).unwrap_or(false);
            let zone = self.classify(d, increasing, self.loss);
            let new = match zone {
                Zone::One => r + self.alpha(d),
                _ => r * (1.0 - self.beta(d, increasing, self.loss)),
            };
            self.rate = Some(new.max(self.min_rate(l)));
            self.zone = Some(zone);
            self.last_d = Some(d);
        }
        self.reset_epoch(now);
    }
}

impl Controller for Hybrid {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, _now: Instant, _bytes: u64, _in_flight: u64) {}

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        if let Some(r) = ack.rtt {
            self.rtt.on_sample(r);
            if self.rate.is_none() {
                // First RTT sample: L = RTT, R = init_window per epoch.
                let l = r.max(Duration::from_micros(1));
                self.epoch_len = Some(l);
                self.rate = Some(self.cfg.init_window * self.mss * 8.0 / l.as_secs_f64());
                self.reset_epoch(now);
            }
        }
        self.maybe_close_epoch(now);
        for s in ack.delay_samples {
            let v = self.unwrap.unwrap(s.0);
            let min = match self.owd_min {
                Some((m, _)) if m <= v => m,
                _ => {
                    self.owd_min = Some((v, s.0));
                    v
                }
            };
            self.sum_rowd += (v - min) as f64;
            self.count += 1;
            if self.owds.len() == self.cfg.trend_samples {
                self.owds.pop_front();
            }
            self.owds.push_back(v);
        }
    }

    fn on_loss(&mut self, now: Instant, _loss: &Loss) {
        self.maybe_close_epoch(now);
        self.loss = true;
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.maybe_close_epoch(now);
        if kind != Timeout::Retransmission {
            return;
        }
        self.loss = true;
        if self.cfg.cut_on_timeout && !self.timeout_cut {
            if let (Some(r), Some(l)) = (self.rate, self.epoch_len) {
                self.rate = Some((r * (1.0 - self.cfg.beta_max)).max(self.min_rate(l)));
                self.timeout_cut = true;
            }
        }
    }

    fn window(&self) -> u64 {
        self.window_bytes().max(self.mss) as u64
    }

    fn pacing_rate(&self) -> Option<u64> {
        if self.cfg.gamma <= 0.0 {
            return None;
        }
        self.rate
            .map(|r| ((r / 8.0 / self.cfg.gamma) as u64).max(1))
    }

    fn next_tick(&self) -> Option<Instant> {
        self.epoch_len.map(|l| self.epoch_start + l)
    }

    fn on_tick(&mut self, now: Instant) {
        self.maybe_close_epoch(now);
    }

    fn metrics(&self) -> Metrics {
        Metrics {
            cwnd: self.window(),
            ssthresh: None,
            queuing_delay: self.last_d,
            base_delay: self
                .owd_min
                .map(|(_, raw)| Duration::from_micros(raw as u64)),
            pacing_rate: self.pacing_rate(),
            state: self.zone.map_or("startup", Zone::name),
            gain: 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::DelaySample;

    const MSS: u32 = 1500;
    const L: Duration = Duration::from_millis(100);
    const fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    fn hybrid() -> Hybrid {
        Hybrid::new(HybridConfig::default(), MSS).unwrap()
    }

    /// An ACK with RTT `L` carrying one OWD sample.
    fn ack_owd(c: &mut Hybrid, now: Instant, owd_us: u32) {
        let s = [DelaySample(owd_us)];
        c.on_ack(
            now,
            &Ack {
                bytes_acked: MSS as u64,
                packets_acked: 1,
                flight_before: 1 << 20,
                delay_samples: &s,
                rtt: Some(L),
                reverse_delay: None,
                newest_sent: now - L,
            },
        );
    }

    /// Starts the controller at 1 s (base OWD 50 ms) with R set to `rate` and an empty epoch.
    fn started(rate: f64) -> Hybrid {
        started_with(HybridConfig::default(), rate)
    }

    fn started_with(cfg: HybridConfig, rate: f64) -> Hybrid {
        let mut c = Hybrid::new(cfg, MSS).unwrap();
        ack_owd(&mut c, Instant::from_secs(1), 50_000);
        c.rate = Some(rate);
        c.reset_epoch(c.epoch_start);
        c
    }

    /// Feeds one epoch of `n` samples with queuing delays from `qd_us` and closes it.
    fn epoch(c: &mut Hybrid, qd_us: &[u32]) -> Instant {
        let start = c.epoch_start;
        let step = L / (qd_us.len() as u64 + 1);
        for (i, q) in qd_us.iter().enumerate() {
            ack_owd(c, start + step * (i as u64 + 1), 50_000 + q);
        }
        let end = start + L;
        c.on_tick(end);
        end
    }

    #[test]
    fn alpha_hyperbola_runs_from_alpha_max_at_d0_to_alpha_min_at_d1() {
        let c = hybrid();
        assert_eq!(c.alpha(Duration::ZERO), 40_000.0);
        assert!((c.alpha(ms(12)) - 800.0).abs() < 1e-9);
        // Halfway: 40000 * 800 * 12 / (40000 * 6 + 800 * 6) = 1568.6 b/s (convex: far
        // below the linear midpoint 20 400).
        let mid = c.alpha(ms(6));
        assert!((mid - 40_000.0 * 800.0 * 12.0 / (40_000.0 * 6.0 + 800.0 * 6.0)).abs() < 1e-6);
        assert!((1568.0..1569.0).contains(&mid), "{mid}");
    }

    #[test]
    fn zones_follow_delay_trend_and_loss() {
        let c = hybrid();
        assert_eq!(c.classify(ms(5), false, false), Zone::One);
        assert_eq!(c.classify(ms(12), false, false), Zone::One);
        assert_eq!(c.classify(ms(13), false, false), Zone::Two);
        assert_eq!(c.classify(ms(24), false, false), Zone::Two);
        assert_eq!(c.classify(ms(25), false, false), Zone::Three);
        assert_eq!(c.classify(ms(5), true, false), Zone::Three);
        // Loss without a delay rise is ignored; with one it is zone 3.
        assert_eq!(c.classify(ms(5), false, true), Zone::One);
        assert_eq!(c.classify(ms(13), false, true), Zone::Three);
    }

    #[test]
    fn beta_interpolates_between_the_thresholds() {
        let c = hybrid();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(c.beta(ms(12), false, false), 0.25));
        assert!(close(c.beta(ms(18), false, false), 0.29));
        assert!(close(c.beta(ms(24), false, false), 0.33));
        assert!(close(c.beta(ms(36), false, false), 0.415));
        assert!(close(c.beta(ms(48), false, false), 0.5));
        assert!(close(c.beta(ms(100), false, false), 0.5));
        // Increasing trend: linear from beta_min at 0 to beta_max at d3.
        assert!(close(c.beta(ms(0), true, false), 0.25));
        assert!(close(c.beta(ms(24), true, false), 0.375));
        // Loss with a delay rise: beta_max.
        assert!(close(c.beta(ms(13), false, true), 0.5));
    }

    #[test]
    fn window_is_rate_times_min_rtt_and_pacing_is_the_rate() {
        let mut c = hybrid();
        // Before any RTT sample: the initial window, no pacing.
        assert_eq!(c.window(), 3000);
        assert_eq!(c.pacing_rate(), None);
        ack_owd(&mut c, Instant::from_secs(1), 50_000);
        // R = 2 packets per 100 ms = 240 kb/s; W = R L = 3000 bytes.
        assert!((c.rate_bps().unwrap() - 240_000.0).abs() < 1e-6);
        assert_eq!(c.window(), 3000);
        assert_eq!(c.pacing_rate(), Some(30_000));
        c.rate = Some(1_000_000.0);
        assert_eq!(c.window(), 12_500);
        assert_eq!(c.pacing_rate(), Some(125_000));
        let half = Hybrid::new(HybridConfig::default().gamma(0.5), MSS).unwrap();
        let mut half = half;
        ack_owd(&mut half, Instant::from_secs(1), 50_000);
        half.rate = Some(1_000_000.0);
        assert_eq!(half.pacing_rate(), Some(250_000));
        assert_eq!(c.metrics().pacing_rate, Some(125_000));
    }

    #[test]
    fn zone_one_epoch_adds_alpha_and_zone_two_cuts_by_beta() {
        let mut c = started(800_000.0);
        epoch(&mut c, &[0; 8]);
        assert_eq!(c.zone(), Some(Zone::One));
        assert!((c.rate_bps().unwrap() - 840_000.0).abs() < 1e-6);
        assert_eq!(c.metrics().state, "zone-1");
        // Flat 18 ms of queuing: zone 2, beta = 0.29.
        epoch(&mut c, &[18_000; 8]);
        assert_eq!(c.zone(), Some(Zone::Two));
        assert!((c.rate_bps().unwrap() - 840_000.0 * 0.71).abs() < 1e-6);
        assert_eq!(c.metrics().queuing_delay, Some(ms(18)));
    }

    #[test]
    fn rising_delay_is_zone_three_even_below_d1() {
        let mut c = started_with(HybridConfig::default().trend_samples(9), 800_000.0);
        let q: Vec<u32> = (0..9).map(|i| i * 1000).collect(); // 0..8 ms, mean 4 ms
        epoch(&mut c, &q);
        assert_eq!(c.zone(), Some(Zone::Three));
        // beta = 0.25 + 0.25 * 4 / 48
        let beta = 0.25 + 0.25 * 4.0 / 48.0;
        assert!((c.rate_bps().unwrap() - 800_000.0 * (1.0 - beta)).abs() < 1e-6);
    }

    #[test]
    fn the_trend_window_spans_epochs() {
        // Default: the last 100 samples. Four epochs of 25 samples rising 40 us each.
        let mut c = started(800_000.0);
        let mut owd = 0u32;
        for i in 0..4 {
            let q: Vec<u32> = (0..25).map(|k| owd + 40 * k).collect();
            owd += 1000;
            epoch(&mut c, &q);
            // No verdict before 100 samples; then a sustained rise over all of them.
            let want = if i < 3 { Zone::One } else { Zone::Three };
            assert_eq!(c.zone(), Some(want), "epoch {i}");
        }
        // A rise confined to the newest epoch after three flat ones is not a trend.
        let mut c = started(800_000.0);
        for _ in 0..3 {
            epoch(&mut c, &[1000; 25]);
        }
        let q: Vec<u32> = (0..25).map(|k| 1000 + 40 * k).collect();
        epoch(&mut c, &q);
        assert_eq!(c.zone(), Some(Zone::One));
    }

    #[test]
    fn loss_without_delay_rise_is_ignored() {
        let mut c = started(800_000.0);
        let t = c.epoch_start + ms(10);
        let l = Loss {
            bytes: 1500,
            sent_at: t - L,
            in_flight: 10_000,
        };
        c.on_loss(t, &l);
        epoch(&mut c, &[2_000; 8]);
        assert_eq!(c.zone(), Some(Zone::One));
        assert!(c.rate_bps().unwrap() > 800_000.0);
        // The same loss with 15 ms of queuing: zone 3 with beta_max.
        let r = c.rate_bps().unwrap();
        c.on_loss(c.epoch_start + ms(10), &l);
        epoch(&mut c, &[15_000; 8]);
        assert_eq!(c.zone(), Some(Zone::Three));
        assert!((c.rate_bps().unwrap() - r * 0.5).abs() < 1e-6);
    }

    #[test]
    fn timeouts_count_as_losses_and_cut_at_once_only_when_configured() {
        let mut c = started(800_000.0);
        c.on_timeout(c.epoch_start + ms(10), Timeout::Retransmission);
        assert_eq!(c.rate_bps(), Some(800_000.0));
        epoch(&mut c, &[15_000; 8]);
        assert_eq!(c.zone(), Some(Zone::Three));
        assert!((c.rate_bps().unwrap() - 400_000.0).abs() < 1e-6);

        let mut c = Hybrid::new(HybridConfig::default().cut_on_timeout(true), MSS).unwrap();
        ack_owd(&mut c, Instant::from_secs(1), 50_000);
        c.rate = Some(800_000.0);
        c.reset_epoch(c.epoch_start);
        c.on_timeout(c.epoch_start + ms(10), Timeout::Retransmission);
        c.on_timeout(c.epoch_start + ms(20), Timeout::Retransmission);
        assert_eq!(c.rate_bps(), Some(400_000.0));
    }

    #[test]
    fn epoch_length_tracks_the_minimum_rtt() {
        let mut c = started(800_000.0);
        assert_eq!(c.epoch_len(), Some(L));
        let t = c.epoch_start + ms(20);
        c.on_ack(
            t,
            &Ack {
                rtt: Some(ms(60)),
                ..Ack::bare(1500, 1, 1 << 20, t - ms(60))
            },
        );
        c.on_tick(c.next_tick().unwrap());
        assert_eq!(c.epoch_len(), Some(ms(60)));
        assert_eq!(c.next_tick(), Some(c.epoch_start + ms(60)));
    }

    #[test]
    fn trend_test_separates_rising_from_flat_and_noisy_delays() {
        let rising: Vec<i64> = (0..16).map(|i| i * 100).collect();
        assert_eq!(owd_trend_increasing(&rising), Some(true));
        assert_eq!(owd_trend_increasing(&[5; 16]), Some(false));
        let falling: Vec<i64> = (0..16).map(|i| 1600 - i * 100).collect();
        assert_eq!(owd_trend_increasing(&falling), Some(false));
        // Group medians 0, 9, 0, 9: PCT = 2/3 says increasing, PDT = 9/27 says not: the
        // metrics contradict each other, so no increasing trend.
        let zigzag = [0, 0, 0, 0, 9, 9, 9, 9, 0, 0, 0, 0, 9, 9, 9, 9];
        assert_eq!(owd_trend_increasing(&zigzag), Some(false));
        assert_eq!(owd_trend_increasing(&[1, 2, 3]), None);
    }

    #[test]
    fn rate_never_falls_below_one_packet_per_epoch() {
        let mut c = started(200_000.0);
        for _ in 0..50 {
            epoch(&mut c, &[100_000; 8]);
        }
        assert!((c.rate_bps().unwrap() - 120_000.0).abs() < 1e-6);
        assert_eq!(c.window(), 1500);
    }

    #[test]
    fn owd_arithmetic_survives_the_32_bit_wrap() {
        let mut c = hybrid();
        let base = u32::MAX - 1000;
        ack_owd(&mut c, Instant::from_secs(1), base);
        c.rate = Some(800_000.0);
        c.reset_epoch(c.epoch_start);
        let start = c.epoch_start;
        for i in 1..=8u64 {
            let s = [DelaySample(base.wrapping_add(18_000))];
            c.on_ack(
                start + ms(10 * i),
                &Ack {
                    delay_samples: &s,
                    ..Ack::bare(1500, 1, 1 << 20, start)
                },
            );
        }
        c.on_tick(start + L);
        assert_eq!(c.metrics().queuing_delay, Some(ms(18)));
        assert_eq!(c.zone(), Some(Zone::Two));
    }

    proptest::proptest! {
        #[test]
        fn alpha_falls_and_beta_rises_with_delay_within_their_bounds(
            a_us in 0u64..100_000,
            b_us in 0u64..100_000,
            increasing in proptest::bool::ANY,
            loss in proptest::bool::ANY,
        ) {
            let c = hybrid();
            let (lo, hi) = (a_us.min(b_us), a_us.max(b_us));
            let (lo, hi) = (Duration::from_micros(lo), Duration::from_micros(hi));
            let (al, ah) = (c.alpha(lo), c.alpha(hi));
            proptest::prop_assert!(al >= ah - 1e-9, "alpha({lo}) = {al} < alpha({hi}) = {ah}");
            proptest::prop_assert!((800.0 - 1e-9..=40_000.0 + 1e-9).contains(&ah));
            let (bl, bh) = (c.beta(lo, increasing, loss), c.beta(hi, increasing, loss));
            proptest::prop_assert!(bl <= bh + 1e-12, "beta({lo}) = {bl} > beta({hi}) = {bh}");
            proptest::prop_assert!((0.25 - 1e-12..=0.5 + 1e-12).contains(&bl));
            // Zones are ordered in delay too: more delay never means a milder zone.
            let rank = |z: Zone| z as u8;
            proptest::prop_assert!(rank(c.classify(lo, increasing, loss)) <= rank(c.classify(hi, increasing, loss)));
        }
    }

    #[test]
    fn config_errors_name_the_field() {
        let cases = [
            (HybridConfig::default().d2(ms(10)), "d2"),
            (HybridConfig::default().beta_max(0.1), "beta_max"),
            (HybridConfig::default().alpha_max(10.0), "alpha_max"),
            (HybridConfig::default().gamma(1.5), "gamma"),
            (HybridConfig::default().trend_samples(2), "trend_samples"),
        ];
        for (cfg, field) in cases {
            assert_eq!(Hybrid::new(cfg, MSS).unwrap_err().field, field);
        }
    }
}
