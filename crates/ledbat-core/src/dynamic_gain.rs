//! LEDBAT with a dynamic gain once in steady state (Abu & Gordon, seed 000, section V).
//!
//! Seed 000 writes LEDBAT per ACK as `cwnd += gain * (TARGET - qd) / cwnd` with delays in
//! seconds and `cwnd` in packets, so its `gain` is RFC 6817's GAIN divided by TARGET in
//! seconds (paper gain 40 with TARGET 25 ms is GAIN 1; the paper sweeps 5..400).
//!
//! Before steady state the configured `initial_gain` is used. Steady state begins the first
//! time the queuing delay reaches TARGET; from then on, before every window update (seed 000,
//! equation 2):
//!
//! ```text
//! gain = 10 ^ ceil(log10(cwnd_packets)) / cwnd_packets      # paper units, in (1, 10]
//! GAIN = gain * TARGET_seconds                               # RFC units
//! cwnd += GAIN * off_target * bytes_acked * MSS / cwnd       # RFC 6817 update
//! ```
//!
//! `10 ^ ceil(log10(x))` is computed exactly as the smallest power of ten `>= x` (so a window
//! of exactly 10 packets gives gain 1, 12 packets gives 100/12). Windows below one packet
//! cannot occur (MIN_CWND >= 1), so the gain never exceeds 10 paper units. Everything else
//! (delay estimation, flightsize cap, MIN_CWND, loss and timeout) is RFC 6817's
//! ([`LedbatState`]). Steady state, once reached, is kept for the life of the connection: the
//! paper defines no way back.

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::delay::DelayConfig;
use crate::error::{positive, ConfigError};
use crate::ledbat::{LedbatConfig, LedbatState, MAX_GAIN};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Parameters of `ledbat-dynamic-gain`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DynamicGainConfig {
    /// Queuing-delay target. Default 25 ms (seed 000, section II.C: "We use a delay target
    /// of 25ms throughout this work").
    pub target: Duration,
    /// Gain before steady state, in the paper's units (RFC GAIN divided by TARGET in
    /// seconds). Default 40 (seed 000, Table I default; GAIN 1 at TARGET 25 ms). The paper
    /// sweeps 5..400; RFC GAIN above 1 is allowed up to 10 and reported.
    pub initial_gain: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2; seed 000 used 1).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (RFC 6817 section 3.4.2; seed 000, section IV:
    /// "from 2 packets").
    pub init_cwnd: f64,
    /// Delay estimation. Default RFC 6817 section 3.4.2 (10 one-minute buckets, minimum
    /// of 4 samples).
    pub delay: DelayConfig,
}

impl Default for DynamicGainConfig {
    fn default() -> Self {
        DynamicGainConfig {
            target: Duration::from_millis(25),
            initial_gain: 40.0,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            delay: DelayConfig::default(),
        }
    }
}

config_setters!(DynamicGainConfig {
    target: Duration,
    initial_gain: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    delay: DelayConfig,
});

impl DynamicGainConfig {
    /// The initial gain in RFC 6817 units (`initial_gain * TARGET` in seconds).
    pub fn initial_rfc_gain(&self) -> f64 {
        self.initial_gain * self.target.as_secs_f64()
    }

    fn base(&self) -> LedbatConfig {
        LedbatConfig {
            target: self.target,
            gain: self.initial_rfc_gain(),
            allowed_increase: self.allowed_increase,
            min_cwnd: self.min_cwnd,
            init_cwnd: self.init_cwnd,
            slow_start: false,
            slow_start_exit: 1.0,
            delay: self.delay,
        }
    }
}

impl ControllerFactory for DynamicGainConfig {
    type Controller = DynamicGain;
    const NAME: &'static str = DynamicGain::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        positive(Self::NAME, "initial_gain", self.initial_gain)?;
        if !self.target.is_zero() && self.initial_rfc_gain() > MAX_GAIN {
            return Err(ConfigError::new(
                Self::NAME,
                "initial_gain",
                format!(
                    "is RFC GAIN {} at TARGET {}, more than {MAX_GAIN} (the largest the papers sweep)",
                    self.initial_rfc_gain(),
                    self.target
                ),
            ));
        }
        self.base().validate_as(Self::NAME)
    }

    fn compliance_notes(&self) -> Vec<String> {
        let mut v = self.base().compliance_notes();
        for n in &mut v {
            if n.starts_with("GAIN") {
                *n = format!(
                    "initial_gain {} (RFC GAIN {}) exceeds RFC 6817's GAIN 1 before steady state",
                    self.initial_gain,
                    self.initial_rfc_gain()
                );
            }
        }
        v
    }

    fn build(&self, mss: u32) -> Result<DynamicGain, ConfigError> {
        DynamicGain::new(*self, mss)
    }
}

/// Seed 000's dynamic gain: `10^ceil(log10(w)) / w` for a window of `w` packets (paper
/// units). `w` must be positive.
pub fn dynamic_gain(cwnd_packets: f64) -> f64 {
    let w = cwnd_packets.max(f64::MIN_POSITIVE);
    let mut p = 1.0f64;
    while p < w {
        p *= 10.0;
    }
    // For w < 1 the power of ten below w would be < 1; the window floor keeps w >= 1, but
    // stay bounded regardless.
    (p / w).min(1e6)
}

/// `ledbat-dynamic-gain`: RFC 6817 LEDBAT whose gain becomes `10^ceil(log10 cwnd) / cwnd`
/// once the queuing delay has reached TARGET (seed 000).
#[derive(Clone, Debug)]
pub struct DynamicGain {
    cfg: DynamicGainConfig,
    st: LedbatState,
    steady: bool,
    /// Gain in force, paper units.
    gain: f64,
}

impl DynamicGain {
    /// Registry name.
    pub const NAME: &'static str = "ledbat-dynamic-gain";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: DynamicGainConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(DynamicGain {
            st: LedbatState::new(&cfg.base(), mss),
            steady: false,
            gain: cfg.initial_gain,
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &DynamicGainConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }

    /// Whether steady state (queuing delay has reached TARGET once) has begun.
    pub fn in_steady_state(&self) -> bool {
        self.steady
    }

    /// The gain in force in the paper's units (used for the last update).
    pub fn paper_gain(&self) -> f64 {
        self.gain
    }

    /// The gain in force in RFC 6817 units (`paper_gain * TARGET` in seconds).
    pub fn rfc_gain(&self) -> f64 {
        self.gain * self.cfg.target.as_secs_f64()
    }
}

impl Controller for DynamicGain {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, _now: Instant, _bytes: u64, _in_flight: u64) {}

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        let Some(qd) = self.st.absorb(now, ack) else {
            return;
        };
        if !self.steady && qd >= self.cfg.target {
            self.steady = true;
        }
        if self.steady {
            self.gain = dynamic_gain(self.st.cwnd_packets());
        }
        let off = self.st.off_target(qd);
        self.st.cwnd += self.rfc_gain() * off * ack.bytes_acked as f64 * self.st.mss / self.st.cwnd;
        self.st.cap_and_floor(ack.flight_before);
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        self.st.halve_on_loss(now, loss);
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.st.timeout(now, kind);
    }

    fn window(&self) -> u64 {
        self.st.window()
    }

    fn metrics(&self) -> Metrics {
        let state = if self.steady { "steady" } else { "startup" };
        self.st.metrics(state, self.rfc_gain())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::Loss;
    use crate::ledbat::testutil::*;

    fn ctl(init_cwnd: f64, initial_gain: f64) -> DynamicGain {
        DynamicGain::new(
            DynamicGainConfig::default()
                .init_cwnd(init_cwnd)
                .initial_gain(initial_gain),
            MSS,
        )
        .unwrap()
    }

    #[test]
    fn gain_formula_matches_seed_000_equation_2() {
        assert_eq!(dynamic_gain(12.0), 100.0 / 12.0);
        assert_eq!(dynamic_gain(10.0), 1.0);
        assert_eq!(dynamic_gain(1.0), 1.0);
        assert_eq!(dynamic_gain(2.0), 5.0);
        assert_eq!(dynamic_gain(100.0), 1.0);
        assert_eq!(dynamic_gain(101.0), 1000.0 / 101.0);
        for w in [1.0, 1.5, 3.0, 9.99, 10.01, 57.0, 999.0, 12345.0] {
            let g = dynamic_gain(w);
            assert!((1.0..=10.0).contains(&g), "w={w} g={g}");
        }
    }

    #[test]
    fn paper_gain_40_at_25ms_is_rfc_gain_1() {
        let c = DynamicGainConfig::default();
        assert!((c.initial_rfc_gain() - 1.0).abs() < 1e-12);
        assert!(c.compliance_notes().is_empty());
    }

    #[test]
    fn uses_the_initial_gain_before_steady_state() {
        // GAIN 1 (paper 40) at zero queuing delay: +1 MSS per ACK-ed window, like RFC LEDBAT.
        let mut c = ctl(20.0, 40.0);
        settle(&mut c, Instant::ZERO, 10_000, 0);
        assert!(!c.in_steady_state());
        let s = [crate::wire::DelaySample(10_000)];
        c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
        // 20 MSS window: += 1 * 1 * 1500 * 1500 / 30000 = 75 bytes.
        assert_eq!(c.window(), 30_075);
        assert_eq!(c.metrics().state, "startup");
        assert!((c.metrics().gain - 1.0).abs() < 1e-12);
    }

    #[test]
    fn steady_state_gain_is_100_over_12_at_12_packets_and_1_at_10() {
        let mut c = ctl(12.0, 320.0);
        // Queuing delay reaches TARGET (25 ms): steady state from this update on.
        settle(&mut c, Instant::ZERO, 10_000, 25_000);
        assert!(c.in_steady_state());
        assert_eq!(c.metrics().state, "steady");
        // At the target the update is zero, so the window is still exactly 12 packets.
        assert_eq!(c.window(), 12 * 1500);
        assert_eq!(c.paper_gain(), 100.0 / 12.0);
        assert!((c.metrics().gain - 100.0 / 12.0 * 0.025).abs() < 1e-12);

        let mut c = ctl(10.0, 320.0);
        settle(&mut c, Instant::ZERO, 10_000, 25_000);
        assert_eq!(c.paper_gain(), 1.0);
        assert!((c.rfc_gain() - 0.025).abs() < 1e-15);
    }

    #[test]
    fn steady_state_update_uses_the_dynamic_gain() {
        let mut c = ctl(12.0, 320.0);
        settle(&mut c, Instant::ZERO, 10_000, 25_000);
        // Now queuing delay 0: off_target 1. GAIN = 100/12 * 0.025.
        let s = [crate::wire::DelaySample(10_000)];
        for _ in 0..4 {
            c.on_ack(Instant::ZERO, &ack(0, u64::MAX / 4, &s));
        }
        let w0 = c.state().cwnd;
        c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
        let expected = w0 + (100.0 / 12.0 * 0.025) * 1500.0 * 1500.0 / w0;
        assert!(
            (c.state().cwnd - expected).abs() < 1e-9,
            "{} vs {expected}",
            c.state().cwnd
        );
        // Steady state is kept even though the delay fell below the target.
        assert!(c.in_steady_state());
    }

    #[test]
    fn initial_gain_scales_the_startup_increase() {
        // Paper gain 320 at 25 ms is GAIN 8: two ACKs of a 2-MSS window at zero delay add
        // 8*1500*1500/3000 = 6000 and then 8*1500*1500/9000 = 2000 bytes.
        let mut a = ctl(2.0, 320.0);
        settle(&mut a, Instant::ZERO, 10_000, 0);
        assert_eq!(one_rtt(&mut a, Instant::ZERO, 10_000, 0), 11_000.0);
    }

    #[test]
    fn never_below_min_cwnd_and_halves_on_loss() {
        let mut c = ctl(2.0, 40.0);
        settle(&mut c, Instant::ZERO, 0, 1_000_000);
        for _ in 0..50 {
            one_rtt(&mut c, Instant::ZERO, 0, 1_000_000);
        }
        assert_eq!(c.window(), 2 * 1500);
        let mut c = ctl(20.0, 40.0);
        c.on_loss(
            Instant::from_secs(1),
            &Loss {
                bytes: 1500,
                sent_at: Instant::from_millis(900),
                in_flight: 30_000,
            },
        );
        assert_eq!(c.window(), 10 * 1500);
    }

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(DynamicGainConfig, &str); 5] = [
            (
                DynamicGainConfig::default().target(Duration::ZERO),
                "target",
            ),
            (
                DynamicGainConfig::default().initial_gain(f64::NAN),
                "initial_gain",
            ),
            (
                DynamicGainConfig::default().initial_gain(0.0),
                "initial_gain",
            ),
            // 500 at 25 ms is GAIN 12.5 > 10.
            (
                DynamicGainConfig::default().initial_gain(500.0),
                "initial_gain",
            ),
            (DynamicGainConfig::default().min_cwnd(4.0), "init_cwnd"),
        ];
        for (cfg, field) in cases {
            let e = DynamicGain::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
    }

    #[test]
    fn paper_sweep_is_allowed_but_reported() {
        let cfg = DynamicGainConfig::default().initial_gain(400.0);
        assert!(DynamicGain::new(cfg, MSS).is_ok());
        let notes = cfg.compliance_notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("initial_gain"), "{notes:?}");
    }

    proptest::proptest! {
        #[test]
        fn gain_times_window_is_the_smallest_power_of_ten_not_below_it(w in 1.0f64..1e9) {
            let g = dynamic_gain(w);
            proptest::prop_assert!((1.0..10.0).contains(&g), "w={} g={}", w, g);
            let p = g * w;
            let k = p.log10().round();
            proptest::prop_assert!((p / 10f64.powf(k) - 1.0).abs() < 1e-9, "w={} p={}", w, p);
            proptest::prop_assert!(p >= w * (1.0 - 1e-12) && p / 10.0 < w);
        }
    }
}
