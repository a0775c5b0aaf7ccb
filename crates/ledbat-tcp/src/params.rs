//! From a ledbat-core configuration to the parameter words of the kernel build.
//!
//! `ledbat tcp load NAME --param k=v` takes the same names and keys as every other front end
//! ([`ControllerConfig::with_params`]: `target=25ms`, `delay.filter.min.len=1`), validated by
//! the core, plus one key of its own, `signal` (`owd` or `rtt`, the delay signal of the RFC
//! family and TCP-LP; LEDBAT++ and `scavenger` are RTT-based by definition). The result is
//! converted to [`LbParams`], the words `csrc/lbcc_params.h` declares, in the core's own
//! arithmetic where the C compares against a product (`qd > f * TARGET` becomes the integer
//! `floor(f * TARGET)`, computed here in `f64` exactly as the core computes it), so that a
//! comparison in the kernel decides as the core does. Fractions are carried in fixed point:
//! 32.32 (`_q32`) for gains, factors and packet counts, 48.16 (`_q16`) for the RTT
//! multipliers of the slowdown timers; both are exact for the values every preset uses (1,
//! 0.5, 2, 9, 0.6 is not: its product differs from the core's by under 2^-32 of the window).
//!
//! What the kernel build cannot do is refused here with the reason: the EWMA current filter
//! and libutp's drift correction (uTP only), more than [`MAX_BASE_HISTORY`] base buckets or
//! [`MAX_FILTER`] filter samples, a non-integer LEDBAT++ gain divisor.

use ledbat_core::competitor::CompetitorConfig;
use ledbat_core::delay::{CurrentFilter, DelayConfig};
use ledbat_core::ledbat_pp::LedbatPpConfig;
use ledbat_core::registry::ParamError;
use ledbat_core::{ControllerConfig, Duration};
use serde::{Deserialize, Serialize};

use crate::layout::words_layout;

/// `LB_PARAMS_MAGIC` of `csrc/lbcc_params.h` ("LBCC").
pub const MAGIC: u64 = 0x4c42_4343;
/// `LB_PARAMS_VERSION`: the layout of [`LbParams`].
pub const VERSION: u64 = 5;
/// `LB_PARAMS_WORDS`.
pub const WORDS: usize = 55;
/// `LB_MAX_BASE`: the most base-history buckets the kernel build keeps.
pub const MAX_BASE_HISTORY: usize = 32;
/// `LB_MAX_FILTER`: the most current-filter samples the kernel build keeps.
pub const MAX_FILTER: usize = 16;

/// The ledbat-core controllers that have a kernel build, with the name each registers under
/// by default (a kernel name has at most 15 characters).
pub const KERNEL_BUILDS: &[(&str, &str)] = &[
    ("ledbat", "ledbat"),
    ("ledbat-linear-min", "ledbat_linmin"),
    ("ledbat-md", "ledbat_md"),
    ("ledbat-mdvar", "ledbat_mdvar"),
    ("ledbat++", "ledbat_pp"),
    ("scavenger", "scavenger"),
    ("tcp-lp", "tcp_lp"),
];

/// `enum lb_algo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Algo {
    /// RFC 6817, linear decrease.
    Ledbat = 1,
    /// Seed 002's linear decrease with a minimum.
    LinearMin = 2,
    /// Seed 002's multiplicative decrease with a fixed beta.
    Md = 3,
    /// Seed 002's MDvar.
    MdVar = 4,
    /// LEDBAT++ and the scavenger preset.
    LedbatPp = 5,
    /// TCP-LP.
    TcpLp = 6,
}

/// The delay signal the kernel feeds the RFC family and TCP-LP (`enum lb_signal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Signal {
    /// One-way delay from the TCP timestamp option (seed 002, section 4).
    Owd,
    /// The round-trip time of the newest packet acknowledged.
    Rtt,
}

impl Signal {
    fn word(self) -> u64 {
        match self {
            Signal::Owd => 1,
            Signal::Rtt => 2,
        }
    }
}

/// What is wrong with a configuration for the kernel.
#[derive(Debug, thiserror::Error)]
pub enum ParamsError {
    /// The core refused a name, key or value.
    #[error(transparent)]
    Core(#[from] ParamError),
    /// A valid core configuration that the kernel build cannot run.
    #[error("{controller}: {field}: {reason}")]
    Unsupported {
        /// Controller name.
        controller: String,
        /// The parameter.
        field: String,
        /// Why, and what would work.
        reason: String,
    },
    /// A controller with no kernel build.
    #[error(
        "`{0}` has no kernel build (kernel builds: {list}; the kernel's own reno, cubic and bbr \
         need none)",
        list = KERNEL_BUILDS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
    )]
    NoKernelBuild(String),
}

/// A controller as `ledbat tcp` loads it: the core's validated configuration and the delay
/// signal the kernel glue feeds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TcpController {
    /// The core configuration (`{"name": "scavenger", ...}`).
    pub config: ControllerConfig,
    /// The delay signal.
    pub signal: Signal,
}

impl TcpController {
    /// `name` with `key=value` parameters: `signal=owd|rtt` here, every other key the core's.
    pub fn parse<'a>(
        name: &str,
        params: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, ParamsError> {
        let mut core = Vec::new();
        let mut signal = None;
        for p in params {
            match p.split_once('=') {
                Some((k, v)) if k.trim() == "signal" => {
                    signal = Some(match v.trim() {
                        "owd" => Signal::Owd,
                        "rtt" => Signal::Rtt,
                        other => {
                            return Err(ParamsError::Unsupported {
                                controller: name.to_string(),
                                field: "signal".into(),
                                reason: format!("must be `owd` or `rtt`, got `{other}`"),
                            })
                        }
                    })
                }
                _ => core.push(p),
            }
        }
        let config = ControllerConfig::with_params(name, core)?;
        let rtt_based = matches!(
            config,
            ControllerConfig::LedbatPp(_) | ControllerConfig::Scavenger(_)
        );
        let signal = match (signal, rtt_based) {
            (Some(Signal::Owd), true) => {
                return Err(ParamsError::Unsupported {
                    controller: name.to_string(),
                    field: "signal".into(),
                    reason: "LEDBAT++ measures the round trip by definition (draft -01); \
                             `owd` applies to the RFC 6817 family and tcp-lp"
                        .into(),
                })
            }
            (Some(s), _) => s,
            (None, true) => Signal::Rtt,
            (None, false) => Signal::Owd,
        };
        let c = TcpController { config, signal };
        c.params()?;
        Ok(c)
    }

    /// The core's registry name.
    pub fn name(&self) -> &'static str {
        self.config.name()
    }

    /// The name the kernel registers it under unless told otherwise.
    pub fn default_kernel_name(&self) -> &'static str {
        KERNEL_BUILDS
            .iter()
            .find(|(n, _)| *n == self.name())
            .map_or("ledbat_tcp", |(_, k)| k)
    }

    /// Every parameter as `key=value` text, the signal first.
    pub fn describe(&self) -> Vec<(String, String)> {
        let signal = match self.signal {
            Signal::Owd => "owd",
            Signal::Rtt => "rtt",
        };
        let mut v = vec![("signal".to_string(), signal.to_string())];
        v.extend(self.config.params());
        v
    }

    /// The parameter words of the kernel build.
    pub fn params(&self) -> Result<LbParams, ParamsError> {
        let name = self.name();
        let mut p = LbParams::empty(self.signal);
        match &self.config {
            ControllerConfig::Ledbat(c) => {
                p.algo = Algo::Ledbat as u64;
                p.common(
                    c.target,
                    c.gain,
                    c.allowed_increase,
                    c.min_cwnd,
                    c.init_cwnd,
                );
                p.slow_start = c.slow_start as u64;
                p.ss_exit_ge_ns = ceil_product(c.slow_start_exit, c.target);
                p.delay(name, &c.delay)?;
            }
            ControllerConfig::LinearMin(c) => {
                p.algo = Algo::LinearMin as u64;
                p.common(
                    c.target,
                    c.gain,
                    c.allowed_increase,
                    c.min_cwnd,
                    c.init_cwnd,
                );
                p.slow_start = c.slow_start as u64;
                p.ss_exit_ge_ns = ceil_product(c.slow_start_exit, c.target);
                p.min_decrease_q32 = q32(c.min_decrease);
                p.delay(name, &c.delay)?;
            }
            ControllerConfig::Md(c) => {
                p.algo = Algo::Md as u64;
                p.common(
                    c.target,
                    c.gain,
                    c.allowed_increase,
                    c.min_cwnd,
                    c.init_cwnd,
                );
                p.beta_q32 = q32(c.beta);
                p.delay(name, &c.delay)?;
            }
            ControllerConfig::MdVar(c) => {
                p.algo = Algo::MdVar as u64;
                p.common(
                    c.target,
                    c.gain,
                    c.allowed_increase,
                    c.min_cwnd,
                    c.init_cwnd,
                );
                p.extra_decrease_q32 = q32(c.extra_decrease);
                p.delay(name, &c.delay)?;
            }
            ControllerConfig::LedbatPp(c) => p.ledbat_pp(name, c)?,
            ControllerConfig::Scavenger(c) => p.ledbat_pp(name, &c.0)?,
            ControllerConfig::TcpLp(c) => {
                p.algo = Algo::TcpLp as u64;
                p.init_cwnd_q32 = q32(c.init_cwnd);
                p.slow_start = c.slow_start as u64;
                p.lp_alpha_q32 = q32(c.alpha);
                p.lp_delta_q32 = q32(c.delta);
                p.lp_inference_rtts_q16 = q16(c.inference_rtts);
            }
            _ => return Err(ParamsError::NoKernelBuild(name.to_string())),
        }
        Ok(p)
    }
}

/// The words of `struct lb_params` (csrc/lbcc_params.h), in its order: the field names are
/// the C names, and `the_c_and_rust_layouts_agree_field_by_field` checks them against the C
/// compiler's layout.
#[allow(missing_docs)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LbParams {
    pub magic: u64,
    pub version: u64,
    pub algo: u64,
    pub signal: u64,
    pub target_ns: u64,
    pub gain_q32: u64,
    pub allowed_increase_q32: u64,
    pub min_cwnd_q32: u64,
    pub init_cwnd_q32: u64,
    pub slow_start: u64,
    pub ss_exit_ge_ns: u64,
    pub ss_exit_gt_ns: u64,
    pub base_history: u64,
    pub base_interval_ns: u64,
    pub filter_len: u64,
    pub clamp_to_min_rtt: u64,
    pub min_decrease_q32: u64,
    pub beta_q32: u64,
    pub extra_decrease_q32: u64,
    pub max_gain_divisor: u64,
    pub periodic_slowdown: u64,
    pub first_slowdown_rtts_q16: u64,
    pub slowdown_hold_rtts_q16: u64,
    pub slowdown_interval_q16: u64,
    pub ramp_delay_exit: u64,
    pub join: u64,
    pub join_gt_ns: u64,
    pub hold_packets_q32: u64,
    pub hold_bdp_q32: u64,
    pub join_pause: u64,
    pub conservative_slow_start: u64,
    pub empty_queue_restart: u64,
    pub lp_alpha_q32: u64,
    pub lp_delta_q32: u64,
    pub lp_inference_rtts_q16: u64,
    pub slowdown_max_backoff: u64,
    /// `struct lb_comp_params` ([`CompParams`], [`competitor_words`]; all zero with the
    /// detection off).
    pub comp: [u64; COMP_WORDS],
    pub comp_test_hold_rtts_q16: u64,
    pub join_recent: u64,
}

words_layout!(LbParams, WORDS, {
    magic,
    version,
    algo,
    signal,
    target_ns,
    gain_q32,
    allowed_increase_q32,
    min_cwnd_q32,
    init_cwnd_q32,
    slow_start,
    ss_exit_ge_ns,
    ss_exit_gt_ns,
    base_history,
    base_interval_ns,
    filter_len,
    clamp_to_min_rtt,
    min_decrease_q32,
    beta_q32,
    extra_decrease_q32,
    max_gain_divisor,
    periodic_slowdown,
    first_slowdown_rtts_q16,
    slowdown_hold_rtts_q16,
    slowdown_interval_q16,
    ramp_delay_exit,
    join,
    join_gt_ns,
    hold_packets_q32,
    hold_bdp_q32,
    join_pause,
    conservative_slow_start,
    empty_queue_restart,
    lp_alpha_q32,
    lp_delta_q32,
    lp_inference_rtts_q16,
    slowdown_max_backoff,
    comp,
    comp_test_hold_rtts_q16,
    join_recent,
});

/// `x` in 32.32 fixed point, rounded to nearest.
pub fn q32(x: f64) -> u64 {
    (x * 4_294_967_296.0).round() as u64
}

/// `x` in 48.16 fixed point, rounded to nearest.
pub fn q16(x: f64) -> u64 {
    (x * 65_536.0).round() as u64
}

/// The integer `n` with `qd >= f * t  <=>  qd >= n` for every whole number of ns `qd`, the
/// product in the core's `f64`.
fn ceil_product(f: f64, t: Duration) -> u64 {
    (f * t.as_nanos() as f64).ceil() as u64
}

/// The integer `n` with `qd > f * t  <=>  qd > n` for every whole number of ns `qd`.
fn floor_product(f: f64, t: Duration) -> u64 {
    (f * t.as_nanos() as f64).floor() as u64
}

impl LbParams {
    fn empty(signal: Signal) -> Self {
        let mut w = [0u64; WORDS];
        w[0] = MAGIC;
        w[1] = VERSION;
        w[3] = signal.word();
        Self::from_words(&w)
    }

    fn common(&mut self, target: Duration, gain: f64, allowed: f64, min: f64, init: f64) {
        self.target_ns = target.as_nanos();
        self.gain_q32 = q32(gain);
        self.allowed_increase_q32 = q32(allowed);
        self.min_cwnd_q32 = q32(min);
        self.init_cwnd_q32 = q32(init);
    }

    fn delay(&mut self, name: &str, d: &DelayConfig) -> Result<(), ParamsError> {
        let unsupported = |field: &str, reason: String| ParamsError::Unsupported {
            controller: name.to_string(),
            field: field.to_string(),
            reason,
        };
        if d.base_history > MAX_BASE_HISTORY {
            return Err(unsupported(
                "delay.base_history",
                format!(
                    "the kernel build keeps at most {MAX_BASE_HISTORY} buckets, got {}",
                    d.base_history
                ),
            ));
        }
        let CurrentFilter::Min { len } = d.filter else {
            return Err(unsupported(
                "delay.filter",
                "the kernel build has the minimum filter only (`delay.filter.min.len=N`)".into(),
            ));
        };
        if len > MAX_FILTER {
            return Err(unsupported(
                "delay.filter.min.len",
                format!("the kernel build keeps at most {MAX_FILTER} samples, got {len}"),
            ));
        }
        if d.drift_correction {
            return Err(unsupported(
                "delay.drift_correction",
                "not run by the kernel build: libutp's rule takes a reverse queue that \
                 drains for clock drift and then under-reads the queue (docs/tcp/drift.md)"
                    .into(),
            ));
        }
        self.base_history = d.base_history as u64;
        self.base_interval_ns = d.base_interval.as_nanos();
        self.filter_len = len as u64;
        self.clamp_to_min_rtt = d.clamp_to_min_rtt as u64;
        Ok(())
    }

    fn ledbat_pp(&mut self, name: &str, c: &LedbatPpConfig) -> Result<(), ParamsError> {
        self.algo = Algo::LedbatPp as u64;
        self.common(c.target, 1.0, c.allowed_increase, c.min_cwnd, c.init_cwnd);
        if c.max_gain_divisor.fract() != 0.0 || c.max_gain_divisor > u32::MAX as f64 {
            return Err(ParamsError::Unsupported {
                controller: name.to_string(),
                field: "max_gain_divisor".into(),
                reason: format!(
                    "the kernel build takes a whole number, got {}",
                    c.max_gain_divisor
                ),
            });
        }
        // the core's extensions that the C does not mirror: refused, not ignored
        if c.competitor.enabled {
            self.comp = competitor_words(&c.competitor).map_err(|e| ParamsError::Unsupported {
                controller: name.to_string(),
                field: e.field,
                reason: e.reason,
            })?;
            self.comp_test_hold_rtts_q16 = q16(c.competitor.test_hold_rtts);
        }
        if c.slowdown_backoff.fract() != 0.0 {
            return Err(ParamsError::Unsupported {
                controller: name.to_string(),
                field: "slowdown_backoff".into(),
                reason: format!(
                    "the kernel build takes a whole number (its factors stay exact), got {}",
                    c.slowdown_backoff
                ),
            });
        }
        // validated by the core: 1 to 1000
        self.slowdown_max_backoff = c.slowdown_backoff as u64;
        self.max_gain_divisor = c.max_gain_divisor as u64;
        self.slow_start = c.slow_start as u64;
        self.ss_exit_gt_ns = floor_product(c.slow_start_exit, c.target);
        self.periodic_slowdown = c.periodic_slowdown as u64;
        self.first_slowdown_rtts_q16 = q16(c.first_slowdown_rtts);
        self.slowdown_hold_rtts_q16 = q16(c.slowdown_hold_rtts);
        self.slowdown_interval_q16 = q16(c.slowdown_interval);
        self.ramp_delay_exit = c.ramp_delay_exit as u64;
        self.join = (c.slowdown_join > 0.0) as u64;
        self.join_gt_ns = floor_product(c.slowdown_join, c.target);
        self.hold_packets_q32 = q32(c.slowdown_hold_packets);
        self.hold_bdp_q32 = q32(c.slowdown_hold_bdp);
        self.join_pause = c.slowdown_join_pause as u64;
        self.join_recent = c.slowdown_join_recent as u64;
        self.conservative_slow_start = c.conservative_slow_start as u64;
        self.empty_queue_restart = c.empty_queue_restart as u64;
        self.delay(name, &c.delay)
    }

    /// The bytes of `struct lb_params` on this machine (native byte order, as the BPF object
    /// reads them on the same machine).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_words()
            .iter()
            .flat_map(|w| w.to_ne_bytes())
            .collect()
    }

    /// The inverse of [`LbParams::to_bytes`]; `None` unless the size, magic and version match.
    pub fn from_bytes(b: &[u8]) -> Option<Self> {
        if b.len() < WORDS * 8 {
            return None;
        }
        let mut w = [0u64; WORDS];
        for (i, x) in w.iter_mut().enumerate() {
            *x = u64::from_ne_bytes(b[i * 8..i * 8 + 8].try_into().ok()?);
        }
        (w[0] == MAGIC && w[1] == VERSION).then(|| Self::from_words(&w))
    }
}

/// `LB_COMP_PARAMS_WORDS` of `csrc/lbcc_params.h`.
pub const COMP_WORDS: usize = 17;

/// The words of `struct lb_comp_params` (csrc/lbcc_params.h), in its order, named as there:
/// fractions in 32.32 fixed point, times in ns ([`competitor_words`]).
#[allow(missing_docs)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompParams {
    pub enabled: u64,
    pub share_q32: u64,
    pub min_share_q32: u64,
    pub suspect_rtts_q32: u64,
    pub tests: u64,
    pub test_gap_ns: u64,
    pub test_packets_q32: u64,
    pub push_share_q32: u64,
    pub push_drop_q32: u64,
    pub quiet_ns: u64,
    pub yield_share_q32: u64,
    pub probe_interval_ns: u64,
    pub probe_share_q32: u64,
    /// `1 / probe_share`.
    pub probe_inv_q32: u64,
    pub confirm_ns: u64,
    pub rate_window_ns: u64,
    pub periodic_positive: u64,
}

words_layout!(CompParams, COMP_WORDS, {
    enabled,
    share_q32,
    min_share_q32,
    suspect_rtts_q32,
    tests,
    test_gap_ns,
    test_packets_q32,
    push_share_q32,
    push_drop_q32,
    quiet_ns,
    yield_share_q32,
    probe_interval_ns,
    probe_share_q32,
    probe_inv_q32,
    confirm_ns,
    rate_window_ns,
    periodic_positive,
});
/// `LB_COMP_MAX_WINDOW_S`: the longest `competitor.rate_window` the C's ring of 1-s buckets
/// holds.
pub const COMP_MAX_RATE_WINDOW: Duration = Duration::from_secs(60);

/// A competitor setting the kernel build cannot run: the key (`competitor.…`) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct CompRefusal {
    /// The parameter, as `ledbat controllers` names it.
    pub field: String,
    /// Why, and what would work.
    pub reason: String,
}

/// The words of `struct lb_comp_params` for `c` ([`CompParams`]). Refuses by name a
/// `rate_window` longer than [`COMP_MAX_RATE_WINDOW`] and the simulator-only flags.
pub fn competitor_words(c: &CompetitorConfig) -> Result<[u64; COMP_WORDS], CompRefusal> {
    let simulator_only = [
        ("clean_spans", c.clean_spans),
        ("push_drop_scaled", c.push_drop_scaled),
        ("push_drop_raised", c.push_drop_raised),
        ("startup_exit", c.startup_exit),
    ];
    if let Some((key, _)) = simulator_only.iter().find(|(_, on)| *on) {
        return Err(CompRefusal {
            field: format!("competitor.{key}"),
            reason: "not in the kernel build (tried in the simulator only)".into(),
        });
    }
    if !c.startup_hold {
        return Err(CompRefusal {
            field: "competitor.startup_hold".into(),
            reason: "always on in the kernel build (off only for comparisons in the simulator)"
                .into(),
        });
    }
    if !c.low_share_keeps {
        return Err(CompRefusal {
            field: "competitor.low_share_keeps".into(),
            reason: "always on in the kernel build (off only for comparisons in the simulator)"
                .into(),
        });
    }
    if c.startup_min_base != ledbat_core::competitor::STARTUP_MIN_BASE {
        return Err(CompRefusal {
            field: "competitor.startup_min_base".into(),
            reason: format!(
                "fixed at {} in the kernel build (other values only for comparisons in the simulator)",
                ledbat_core::competitor::STARTUP_MIN_BASE
            ),
        });
    }
    if c.rate_window > COMP_MAX_RATE_WINDOW {
        return Err(CompRefusal {
            field: "competitor.rate_window".into(),
            reason: format!(
                "the kernel build keeps at most {COMP_MAX_RATE_WINDOW} of 1-s buckets, got {}",
                c.rate_window
            ),
        });
    }
    Ok(CompParams {
        enabled: c.enabled as u64,
        share_q32: q32(c.share),
        min_share_q32: q32(c.min_share),
        suspect_rtts_q32: q32(c.suspect_rtts),
        tests: c.tests as u64,
        test_gap_ns: c.test_gap.as_nanos(),
        test_packets_q32: q32(c.test_packets),
        push_share_q32: q32(c.push_share),
        push_drop_q32: q32(c.push_drop),
        quiet_ns: c.quiet.as_nanos(),
        yield_share_q32: q32(c.yield_share),
        probe_interval_ns: c.probe_interval.as_nanos(),
        probe_share_q32: q32(c.probe_share),
        probe_inv_q32: q32(1.0 / c.probe_share),
        confirm_ns: c.confirm.as_nanos(),
        rate_window_ns: c.rate_window.as_nanos(),
        periodic_positive: c.periodic_positive as u64,
    }
    .to_words())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, params: &[&str]) -> Result<TcpController, ParamsError> {
        TcpController::parse(name, params.iter().copied())
    }

    #[test]
    fn fixed_point_is_exact_for_the_presets_values() {
        assert_eq!(q32(1.0), 1 << 32);
        assert_eq!(q32(2.0), 2 << 32);
        assert_eq!(q32(0.5), 1 << 31);
        assert_eq!(q16(9.0), 9 << 16);
        assert_eq!(q16(4.5), 9 << 15);
        // 0.6 is not dyadic: the nearest 32.32 value, within half a unit.
        assert!((q32(0.6) as f64 / 4_294_967_296.0 - 0.6).abs() < 1.2e-10);
    }

    #[test]
    fn thresholds_decide_as_the_cores_floating_point_comparison() {
        // 0.75 * 60 ms = 45 ms exactly: qd > 45 ms  <=>  qd > 45_000_000.
        let t = Duration::from_millis(60);
        assert_eq!(floor_product(0.75, t), 45_000_000);
        // 0.9 * 100 ms = 90 ms in f64: qd >= 90 ms  <=>  qd >= 90_000_000.
        assert_eq!(ceil_product(0.9, Duration::from_millis(100)), 90_000_000);
        // A product with a fraction: 1/3 of 25 ms = 8_333_333.33 ns.
        assert_eq!(
            floor_product(1.0 / 3.0, Duration::from_millis(25)),
            8_333_333
        );
        assert_eq!(
            ceil_product(1.0 / 3.0, Duration::from_millis(25)),
            8_333_334
        );
    }

    #[test]
    fn scavenger_words_carry_the_presets_parameters() {
        let c = parse("scavenger", &[]).unwrap();
        assert_eq!(c.signal, Signal::Rtt);
        assert_eq!(c.default_kernel_name(), "scavenger");
        let p = c.params().unwrap();
        assert_eq!(p.algo, Algo::LedbatPp as u64);
        assert_eq!(p.target_ns, 60_000_000);
        assert_eq!(p.max_gain_divisor, 1);
        assert_eq!(p.ss_exit_gt_ns, 45_000_000);
        assert_eq!(p.join, 1);
        assert_eq!(p.join_gt_ns, 48_000_000); // 0.8 * 60 ms
        assert_eq!(p.join_recent, 0);
        let recent = parse("scavenger", &["slowdown_join_recent=true"]).unwrap();
        assert_eq!(recent.params().unwrap().join_recent, 1);
        assert_eq!(p.hold_packets_q32, 1 << 32);
        assert_eq!(p.slowdown_interval_q16, 9 << 16);
        assert_eq!(
            (
                p.join_pause,
                p.conservative_slow_start,
                p.empty_queue_restart
            ),
            (1, 1, 1)
        );
        assert_eq!((p.base_history, p.filter_len), (10, 4));
        // The preset's competitor set: the backoff of 8, as the core's default has it (the
        // kernel follows the core, no default of its own); its detection words:
        // competitor_detection_fills_the_layout_3_words.
        assert_eq!(p.slowdown_max_backoff, 8);
        assert_eq!(LbParams::from_bytes(&p.to_bytes()), Some(p));
    }

    #[test]
    fn the_rfc_family_defaults_to_one_way_delay_and_takes_the_cores_keys() {
        let c = parse("ledbat-md", &["target=40ms", "delay.filter.min.len=1"]).unwrap();
        assert_eq!(c.signal, Signal::Owd);
        let p = c.params().unwrap();
        assert_eq!((p.algo, p.target_ns, p.filter_len), (3, 40_000_000, 1));
        assert_eq!(p.beta_q32, q32(0.6));
        let c = parse("ledbat", &["signal=rtt"]).unwrap();
        assert_eq!(c.params().unwrap().signal, 2);
        assert_eq!(c.describe()[0], ("signal".into(), "rtt".into()));
    }

    #[test]
    fn what_the_kernel_cannot_do_is_refused_with_the_field() {
        let e = parse("ledbat", &["delay.base_history=40"]).unwrap_err();
        assert!(e.to_string().contains("delay.base_history"), "{e}");
        let e = parse("ledbat", &["delay.drift_correction=true"]).unwrap_err();
        assert!(e.to_string().contains("drift_correction"), "{e}");
        let e = parse("ledbat++", &["max_gain_divisor=2.5"]).unwrap_err();
        assert!(e.to_string().contains("whole number"), "{e}");
        let e = parse("scavenger", &["signal=owd"]).unwrap_err();
        assert!(e.to_string().contains("round trip"), "{e}");
        let e = parse("ledbat", &["signal=ping"]).unwrap_err();
        assert!(e.to_string().contains("`owd` or `rtt`"), "{e}");
        let e = parse("cubic", &[]).unwrap_err();
        assert!(e.to_string().contains("no kernel build"), "{e}");
        let e = parse("ledbat", &["tagret=25ms"]).unwrap_err();
        assert!(e.to_string().contains("tagret"), "{e}");
        let e = parse("nosuch", &[]).unwrap_err();
        assert!(e.to_string().contains("unknown controller"), "{e}");
    }

    #[test]
    fn from_bytes_refuses_other_layouts() {
        let p = parse("ledbat", &[]).unwrap().params().unwrap();
        let mut b = p.to_bytes();
        assert_eq!(b.len(), WORDS * 8);
        b[8] ^= 1; // version
        assert_eq!(LbParams::from_bytes(&b), None);
        assert_eq!(LbParams::from_bytes(&b[..16]), None);
    }

    #[test]
    fn the_cores_extensions_without_a_kernel_build_are_refused_by_name() {
        for (p, field) in [
            ("slowdown_backoff=2.5", "slowdown_backoff"),
            ("competitor.rate_window=61s", "competitor.rate_window"),
            ("competitor.clean_spans=true", "competitor.clean_spans"),
            (
                "competitor.push_drop_scaled=true",
                "competitor.push_drop_scaled",
            ),
            (
                "competitor.push_drop_raised=true",
                "competitor.push_drop_raised",
            ),
            ("competitor.startup_hold=false", "competitor.startup_hold"),
            (
                "competitor.low_share_keeps=false",
                "competitor.low_share_keeps",
            ),
            ("competitor.startup_exit=true", "competitor.startup_exit"),
            (
                "competitor.startup_min_base=0ms",
                "competitor.startup_min_base",
            ),
        ] {
            let e = TcpController::parse("scavenger", ["competitor.enabled=true", p])
                .and_then(|c| c.params().map(|_| c))
                .unwrap_err();
            // the error's field is the key refused, not another competitor key
            match &e {
                ParamsError::Unsupported { field: f, .. } => assert_eq!(f, field, "{p}: {e}"),
                other => panic!("{p}: {other}"),
            }
        }
        let c = TcpController::parse("scavenger", ["slowdown_backoff=1"]).unwrap();
        assert_eq!(c.params().unwrap().slowdown_max_backoff, 1);
        let c = TcpController::parse("scavenger", ["slowdown_backoff=8"]).unwrap();
        assert_eq!(c.params().unwrap().slowdown_max_backoff, 8);
    }

    #[test]
    fn competitor_detection_fills_the_layout_3_words() {
        let off = parse("scavenger", &ledbat_core::scavenger::PLAIN_PARAMS)
            .unwrap()
            .params()
            .unwrap();
        assert_eq!(
            (off.comp, off.comp_test_hold_rtts_q16),
            ([0; COMP_WORDS], 0)
        );
        assert_eq!(off.slowdown_max_backoff, 1);
        let c = parse("scavenger", &[]).unwrap();
        let p = c.params().unwrap();
        assert_eq!(p.version, 5);
        assert_eq!(
            p.comp,
            competitor_words(&CompetitorConfig {
                enabled: true,
                ..Default::default()
            })
            .unwrap()
        );
        assert_eq!(p.comp[0], 1);
        assert_eq!(p.comp_test_hold_rtts_q16, 4 << 16);
        let w = p.to_words();
        assert_eq!((w[36], w[53], w[WORDS - 1]), (1, 4 << 16, 0));
        assert_eq!(LbParams::from_bytes(&p.to_bytes()), Some(p));
    }

    #[test]
    fn the_competitor_words_are_the_defaults_in_fixed_point_and_a_long_window_is_refused() {
        let w = competitor_words(&CompetitorConfig::default()).unwrap();
        // 0.8 * 2^32 = 3,435,973,836.8; 4 RTTs; 1 s; 0.5 and its inverse 2; 60 s
        assert_eq!(w[0], 0);
        assert_eq!(w[1], 3_435_973_837);
        assert_eq!(w[3], 4 << 32);
        assert_eq!(w[5], 1_000_000_000);
        assert_eq!((w[12], w[13]), (1 << 31, 2 << 32));
        assert_eq!(w[15], 60_000_000_000);
        let long = CompetitorConfig {
            rate_window: Duration::from_secs(61),
            ..CompetitorConfig::default()
        };
        let e = competitor_words(&long).unwrap_err();
        assert_eq!(e.field, "competitor.rate_window");
        assert!(e.reason.contains("60s of 1-s buckets, got 61s"), "{e}");
    }

    #[test]
    fn the_c_and_rust_layouts_agree_field_by_field() {
        for (name, size, fields) in [
            (
                "lb_params",
                std::mem::size_of::<LbParams>(),
                LbParams::fields(),
            ),
            (
                "lb_comp_params",
                std::mem::size_of::<CompParams>(),
                CompParams::fields(),
            ),
        ] {
            let diff = crate::layout::compare(name, size, &fields);
            assert!(diff.is_empty(), "struct {name}:\n{}", diff.join("\n"));
        }
    }

    #[test]
    fn each_word_is_its_field_at_the_fields_offset() {
        // word i holds 100 + i: the fields in the header's order, by hand
        let w: [u64; WORDS] = std::array::from_fn(|i| 100 + i as u64);
        let p = LbParams::from_words(&w);
        assert_eq!((p.magic, p.signal, p.target_ns), (100, 103, 104));
        assert_eq!((p.join, p.slowdown_max_backoff), (125, 135));
        assert_eq!((p.comp[0], p.comp[16]), (136, 152));
        assert_eq!((p.comp_test_hold_rtts_q16, p.join_recent), (153, 154));
        assert_eq!(p.to_words(), w);
        let c = CompParams::from_words(&p.comp);
        assert_eq!(
            (
                c.enabled,
                c.probe_inv_q32,
                c.rate_window_ns,
                c.periodic_positive
            ),
            (136, 149, 151, 152)
        );
        assert_eq!(c.to_words(), p.comp);
    }

    #[test]
    fn the_enums_carry_the_c_constants() {
        // the C name: LB_ALGO_ and the variant's words in capitals, joined by `_` (MdVar
        // is MDVAR); a variant added here must be named in the match
        let c_name = |a: Algo| match a {
            Algo::Ledbat => "LB_ALGO_LEDBAT",
            Algo::LinearMin => "LB_ALGO_LINEAR_MIN",
            Algo::Md => "LB_ALGO_MD",
            Algo::MdVar => "LB_ALGO_MDVAR",
            Algo::LedbatPp => "LB_ALGO_LEDBAT_PP",
            Algo::TcpLp => "LB_ALGO_TCP_LP",
        };
        let all = [
            Algo::Ledbat,
            Algo::LinearMin,
            Algo::Md,
            Algo::MdVar,
            Algo::LedbatPp,
            Algo::TcpLp,
        ];
        let rust: Vec<(String, u64)> = all
            .iter()
            .map(|&a| (c_name(a).to_string(), a as u64))
            .collect();
        assert_eq!(crate::layout::c_enum("lb_algo"), rust);
        let c_name = |s: Signal| match s {
            Signal::Owd => "LB_SIGNAL_OWD",
            Signal::Rtt => "LB_SIGNAL_RTT",
        };
        let rust: Vec<(String, u64)> = [Signal::Owd, Signal::Rtt]
            .iter()
            .map(|&s| (c_name(s).to_string(), s.word()))
            .collect();
        assert_eq!(crate::layout::c_enum("lb_signal"), rust);
    }
}
