//! One-way delay estimation shared by every delay-based controller.
//!
//! RFC 6817 section 2.4 (with its pseudo-code in section 2.4.2):
//!
//! ```text
//! base_delay    = min(base_history)              # BASE_HISTORY buckets, one per minute
//! current_delay = FILTER(current_history)        # min of the last CURRENT_FILTER, or EWMA
//! queuing_delay = current_delay - base_delay
//! ```
//!
//! A new bucket is opened when `now` is at least one bucket interval past the opening of the
//! last one; the oldest bucket is dropped once there are BASE_HISTORY of them. Samples arrive
//! as wrapping 32-bit [`DelaySample`]s and are unwrapped onto a continuous line first, so
//! every comparison below is plain integer arithmetic.
//!
//! Options beyond the RFC, each off by default:
//! - clamp the queuing delay to the minimum RTT seen (libutp: a one-way queue cannot exceed
//!   the round trip);
//! - clock-drift correction (libutp): when the base of the *reverse* direction (delays the
//!   peer's packets see, measured by us) falls by `x`, the peer's clock is gaining on ours,
//!   and our forward samples will creep up by `x`; raise our base by `min(x, 10 ms)`.

use crate::controller::config_setters;
use crate::error::ConfigError;
use crate::time::{Duration, Instant};
use crate::wire::{DelaySample, Unwrapper};
use serde::{Deserialize, Serialize};

/// How the current delay is filtered from the latest samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum CurrentFilter {
    /// Minimum of the last `len` samples (RFC 6817 section 3.4.2 suggests a small `len`).
    Min {
        /// Number of samples kept (CURRENT_FILTER).
        len: usize,
    },
    /// Exponentially weighted moving average with weight `alpha` for the new sample.
    Ewma {
        /// Weight of the newest sample, in (0, 1].
        alpha: f64,
    },
}

/// Delay-estimation parameters, shared by every delay-based controller.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DelayConfig {
    /// Number of base-delay buckets kept. Default 10 (RFC 6817 section 3.4.2, BASE_HISTORY).
    pub base_history: usize,
    /// Length of one base-delay bucket. Default 1 minute (RFC 6817 section 3.4.2).
    pub base_interval: Duration,
    /// Current-delay filter. Default minimum of 4 samples (RFC 6817 section 3.4.2 "4 is a
    /// common CURRENT_FILTER").
    pub filter: CurrentFilter,
    /// Clamp the queuing delay to the minimum RTT seen. Default off (libutp does it).
    pub clamp_to_min_rtt: bool,
    /// Raise the base when the reverse direction's base falls (libutp's clock-drift
    /// handling, capped at 10 ms per step). Default off.
    pub drift_correction: bool,
}

impl Default for DelayConfig {
    fn default() -> Self {
        DelayConfig {
            base_history: 10,
            base_interval: Duration::from_secs(60),
            filter: CurrentFilter::Min { len: 4 },
            clamp_to_min_rtt: false,
            drift_correction: false,
        }
    }
}

config_setters!(DelayConfig {
    base_history: usize,
    base_interval: Duration,
    filter: CurrentFilter,
    clamp_to_min_rtt: bool,
    drift_correction: bool,
});

/// Longest kept current-filter window; longer ones are rejected by validation.
pub const MAX_CURRENT_FILTER: usize = 64;
/// Longest kept base history; longer ones are rejected by validation.
pub const MAX_BASE_HISTORY: usize = 1024;
/// Cap on one drift-correction step (libutp's 10 ms).
pub const DRIFT_STEP_CAP_US: i64 = 10_000;

impl DelayConfig {
    /// Checks every field; `controller` names the owner in the error.
    pub fn validate(&self, controller: &'static str) -> Result<(), ConfigError> {
        if self.base_history == 0 || self.base_history > MAX_BASE_HISTORY {
            return Err(ConfigError::new(
                controller,
                "delay.base_history",
                format!(
                    "must be between 1 and {MAX_BASE_HISTORY}, got {}",
                    self.base_history
                ),
            ));
        }
        if self.base_interval.is_zero() {
            return Err(ConfigError::new(
                controller,
                "delay.base_interval",
                "must be positive",
            ));
        }
        match self.filter {
            CurrentFilter::Min { len } if len == 0 || len > MAX_CURRENT_FILTER => {
                Err(ConfigError::new(
                    controller,
                    "delay.filter.len",
                    format!("must be between 1 and {MAX_CURRENT_FILTER}, got {len}"),
                ))
            }
            CurrentFilter::Ewma { alpha } if !(alpha > 0.0 && alpha <= 1.0) => {
                Err(ConfigError::new(
                    controller,
                    "delay.filter.alpha",
                    format!("must be in (0, 1], got {alpha}"),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// Base- and current-delay state for one direction of one connection.
///
/// All storage is allocated at construction; [`DelayEstimator::on_sample`] never allocates.
/// With the default history (10 buckets, a filter of 4) both buffers are inline (up to 16
/// slots together), so that an estimator is one block of memory.
#[derive(Clone, Debug)]
pub struct DelayEstimator {
    config: DelayConfig,
    unwrap: Unwrapper,
    /// Base buckets as a ring: `base[(base_head + i) % cap]` for `i < base_len`, and the
    /// current filter's samples.
    hist: History,
    base_head: usize,
    base_len: usize,
    base_min: i64,
    last_rollover: Option<Instant>,
    /// Last raw sample, to report absolute values back in wire units.
    anchor: Option<(u32, i64)>,
    current_head: usize,
    current_len: usize,
    ewma: Option<f64>,
    min_rtt: Option<Duration>,
    reverse: Option<ReverseBase>,
    samples: u64,
}

/// Base buckets and current-filter slots beyond which the two buffers share one
/// allocation instead of sitting inline in the estimator.
pub(crate) const INLINE_SLOTS: usize = 16;

/// The base buckets (`[0, base_cap)`) and the current filter's slots (`[base_cap,
/// base_cap + cur_cap)`) in one buffer: inline when they fit in `INLINE_SLOTS`, else in
/// `spill`.
#[derive(Clone, Debug)]
struct History {
    inline: [i64; INLINE_SLOTS],
    spill: Box<[i64]>,
    base_cap: usize,
    cur_cap: usize,
}

impl History {
    fn new(base_cap: usize, cur_cap: usize) -> Self {
        let n = base_cap + cur_cap;
        History {
            inline: [0; INLINE_SLOTS],
            spill: if n <= INLINE_SLOTS {
                Box::default()
            } else {
                vec![0; n].into_boxed_slice()
            },
            base_cap,
            cur_cap,
        }
    }

    #[inline]
    fn slots(&self) -> &[i64] {
        if self.spill.is_empty() {
            &self.inline
        } else {
            &self.spill
        }
    }

    #[inline]
    fn slots_mut(&mut self) -> &mut [i64] {
        if self.spill.is_empty() {
            &mut self.inline
        } else {
            &mut self.spill
        }
    }

    #[inline]
    fn base(&self) -> &[i64] {
        &self.slots()[..self.base_cap]
    }

    #[inline]
    fn base_mut(&mut self) -> &mut [i64] {
        let n = self.base_cap;
        &mut self.slots_mut()[..n]
    }

    #[inline]
    fn current(&self) -> &[i64] {
        &self.slots()[self.base_cap..self.base_cap + self.cur_cap]
    }

    #[inline]
    fn current_mut(&mut self) -> &mut [i64] {
        let (a, n) = (self.base_cap, self.cur_cap);
        &mut self.slots_mut()[a..a + n]
    }
}

#[derive(Clone, Debug)]
struct ReverseBase {
    unwrap: Unwrapper,
    min: Option<i64>,
}

impl DelayEstimator {
    /// A new estimator. The config must already be validated.
    pub fn new(config: DelayConfig) -> Self {
        let cur = match config.filter {
            CurrentFilter::Min { len } => len.max(1),
            CurrentFilter::Ewma { .. } => 1,
        };
        DelayEstimator {
            config,
            unwrap: Unwrapper::default(),
            hist: History::new(config.base_history.max(1), cur),
            base_head: 0,
            base_len: 0,
            base_min: i64::MAX,
            last_rollover: None,
            anchor: None,
            current_head: 0,
            current_len: 0,
            ewma: None,
            min_rtt: None,
            reverse: config.drift_correction.then(|| ReverseBase {
                unwrap: Unwrapper::default(),
                min: None,
            }),
            samples: 0,
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &DelayConfig {
        &self.config
    }

    /// Feeds one forward one-way-delay sample taken at `now`.
    pub fn on_sample(&mut self, now: Instant, sample: DelaySample) {
        let v = self.unwrap.unwrap(sample.0);
        self.anchor = Some((sample.0, v));
        self.samples += 1;
        // Base history (RFC 6817 update_base_delay).
        let cap = self.hist.base_cap;
        let roll = match self.last_rollover {
            None => true,
            Some(t) => now.saturating_since(t) >= self.config.base_interval,
        };
        if roll {
            self.last_rollover = Some(now);
            if self.base_len == cap {
                self.base_head = (self.base_head + 1) % cap;
                self.base_len -= 1;
            }
            let idx = (self.base_head + self.base_len) % cap;
            let base = self.hist.base_mut();
            base[idx] = v;
            self.base_len += 1;
            let head = self.base_head;
            self.base_min = (0..self.base_len)
                .map(|i| base[(head + i) % cap])
                .min()
                .unwrap_or(v);
        } else {
            let tail = (self.base_head + self.base_len - 1) % cap;
            let base = self.hist.base_mut();
            if v < base[tail] {
                base[tail] = v;
            }
            if v < self.base_min {
                self.base_min = v;
            }
        }
        // Current filter (RFC 6817 update_current_delay).
        match self.config.filter {
            CurrentFilter::Min { .. } => {
                let n = self.hist.cur_cap;
                self.hist.current_mut()[self.current_head] = v;
                self.current_head = (self.current_head + 1) % n;
                self.current_len = (self.current_len + 1).min(n);
            }
            CurrentFilter::Ewma { alpha } => {
                let e = match self.ewma {
                    None => v as f64,
                    Some(e) => e + alpha * (v as f64 - e),
                };
                self.ewma = Some(e);
            }
        }
    }

    /// Feeds a reverse-direction sample (the delay of the peer's packets as we measure
    /// it); used only for drift correction.
    pub fn on_reverse_sample(&mut self, sample: DelaySample) {
        let Some(rev) = self.reverse.as_mut() else {
            return;
        };
        let v = rev.unwrap.unwrap(sample.0);
        match rev.min {
            None => rev.min = Some(v),
            Some(m) if v < m => {
                let step = (m - v).min(DRIFT_STEP_CAP_US);
                rev.min = Some(v);
                if self.base_len > 0 {
                    // Raise every bucket (and so the base) by the drift step.
                    let cap = self.hist.base_cap;
                    let base = self.hist.base_mut();
                    for i in 0..self.base_len {
                        base[(self.base_head + i) % cap] += step;
                    }
                    self.base_min += step;
                }
            }
            Some(_) => {}
        }
    }

    /// Feeds an RTT sample (for the optional clamp).
    pub fn on_rtt(&mut self, rtt: Duration) {
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    /// Number of forward samples seen.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// The base delay on the continuous line, if any sample was seen.
    pub fn base_unwrapped(&self) -> Option<i64> {
        (self.base_len > 0).then_some(self.base_min)
    }

    /// The filtered current delay on the continuous line.
    pub fn current_unwrapped(&self) -> Option<i64> {
        match self.config.filter {
            CurrentFilter::Min { .. } => self.hist.current()[..self.current_len]
                .iter()
                .copied()
                .min(),
            CurrentFilter::Ewma { .. } => self.ewma.map(|e| e.round() as i64),
        }
    }

    /// Estimated queuing delay: filtered current delay minus base delay, never negative,
    /// clamped to the minimum RTT when so configured. `None` before the first sample.
    pub fn queuing_delay(&self) -> Option<Duration> {
        let q = self.current_unwrapped()? - self.base_unwrapped()?;
        let mut d = Duration::from_micros(q.max(0) as u64);
        if self.config.clamp_to_min_rtt {
            if let Some(r) = self.min_rtt {
                d = d.min(r);
            }
        }
        Some(d)
    }

    /// The base delay in wire units: the raw 32-bit value of the minimum sample. With
    /// synchronised clocks (simulator, namespaces on one host) it is the true one-way delay.
    pub fn base_delay(&self) -> Option<Duration> {
        let (raw, v) = self.anchor?;
        let base = self.base_unwrapped()?;
        let wire = raw.wrapping_sub((v - base) as u32);
        Some(Duration::from_micros(wire as u64))
    }

    /// The minimum RTT seen so far.
    pub fn min_rtt(&self) -> Option<Duration> {
        self.min_rtt
    }

    /// The base buckets, oldest first, on the continuous line (for tests and tracing).
    pub fn base_buckets(&self) -> impl Iterator<Item = i64> + '_ {
        let cap = self.hist.base_cap;
        let base = self.hist.base();
        (0..self.base_len).map(move |i| base[(self.base_head + i) % cap])
    }

    /// Forgets the base history (used by the `ledbat-pause` mitigation is *not* this: it
    /// drains the queue instead). Kept for drivers that know the path changed.
    pub fn reset_base(&mut self) {
        self.base_len = 0;
        self.base_min = i64::MAX;
        self.last_rollover = None;
    }

    /// Forgets every forward sample (base history, current filter, unwrapper) and the
    /// reverse minimum: the samples that follow are on another scale
    /// ([`crate::Controller::on_delay_source_change`]). The minimum RTT and the sample count
    /// are kept.
    pub fn reset_signal(&mut self) {
        self.reset_base();
        self.unwrap = Unwrapper::default();
        self.anchor = None;
        self.current_head = 0;
        self.current_len = 0;
        self.ewma = None;
        if let Some(r) = self.reverse.as_mut() {
            r.unwrap = Unwrapper::default();
            r.min = None;
        }
    }

    /// When the next base bucket will open (the next base-delay refresh), if known.
    pub fn next_rollover(&self) -> Option<Instant> {
        self.last_rollover.map(|t| t + self.config.base_interval)
    }

    /// Whether the oldest bucket will be dropped at the next rollover (the history is full):
    /// only then can the base delay rise.
    pub fn history_full(&self) -> bool {
        self.base_len == self.hist.base_cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(cfg: DelayConfig) -> DelayEstimator {
        cfg.validate("test").unwrap();
        DelayEstimator::new(cfg)
    }

    #[test]
    fn queuing_delay_is_current_min_minus_base() {
        let mut e = est(DelayConfig::default());
        let t = Instant::from_secs(1);
        for s in [50_000u32, 60_000, 70_000, 80_000, 90_000] {
            e.on_sample(t, DelaySample(s));
        }
        // base 50 ms, current = min of last 4 = 60 ms.
        assert_eq!(e.queuing_delay(), Some(Duration::from_millis(10)));
    }

    #[test]
    fn a_source_change_forgets_the_old_scale() {
        // One-way samples just below the 32-bit wrap, then RTTs of 20-23 ms. On one line the
        // 20 ms sample unwraps to 20_000 + 2^32 - 4_293_967_000 = 1_020_296 us above the old
        // base (4_293_967_000): a second of queue. After the reset it is the new base.
        let t = Instant::from_secs(1);
        let old = [4_293_967_000u32, 4_293_968_000, 4_293_969_000];
        let mut kept = est(DelayConfig::default());
        let mut reset = est(DelayConfig::default());
        for s in old {
            kept.on_sample(t, DelaySample(s));
            reset.on_sample(t, DelaySample(s));
        }
        reset.reset_signal();
        assert_eq!(reset.queuing_delay(), None);
        assert_eq!(reset.base_delay(), None);
        for s in [21_000u32, 20_000, 22_000, 23_000] {
            kept.on_sample(t, DelaySample(s));
            reset.on_sample(t, DelaySample(s));
        }
        assert_eq!(kept.queuing_delay(), Some(Duration::from_micros(1_020_296)));
        // the filter holds 21, 20, 22 and 23 ms: its minimum is the base
        assert_eq!(reset.queuing_delay(), Some(Duration::ZERO));
        assert_eq!(reset.base_delay(), Some(Duration::from_millis(20)));
        assert_eq!(reset.samples, 7);
    }

    #[test]
    fn base_rises_only_when_the_bucket_holding_the_minimum_expires() {
        let cfg = DelayConfig::default()
            .base_history(2)
            .base_interval(Duration::from_secs(60));
        let mut e = est(cfg);
        e.on_sample(Instant::from_secs(0), DelaySample(10_000));
        e.on_sample(Instant::from_secs(60), DelaySample(30_000));
        assert_eq!(e.base_unwrapped(), Some(10_000));
        e.on_sample(Instant::from_secs(120), DelaySample(40_000));
        assert_eq!(e.base_unwrapped(), Some(30_000));
    }

    #[test]
    fn a_history_too_long_to_sit_inline_works_the_same() {
        // 20 buckets and a filter of 8: 28 slots, more than INLINE_SLOTS.
        let cfg = DelayConfig::default()
            .base_history(20)
            .base_interval(Duration::from_secs(1))
            .filter(CurrentFilter::Min { len: 8 });
        let mut e = est(cfg);
        const { assert!(20 + 8 > INLINE_SLOTS) };
        e.on_sample(Instant::from_secs(0), DelaySample(30_000));
        for t in 1..20 {
            e.on_sample(Instant::from_secs(t), DelaySample(50_000));
        }
        // 20 buckets, the oldest holding 30 ms; the last 8 samples are 50 ms.
        assert!(e.history_full());
        assert_eq!(e.base_buckets().count(), 20);
        assert_eq!(e.queuing_delay(), Some(Duration::from_millis(20)));
        // A 21st bucket drops the 30-ms one.
        e.on_sample(Instant::from_secs(20), DelaySample(50_000));
        assert_eq!(e.base_unwrapped(), Some(50_000));
        assert_eq!(e.queuing_delay(), Some(Duration::ZERO));
    }

    #[test]
    fn offset_cancels_across_the_32_bit_wrap() {
        let mut e = est(DelayConfig::default());
        let base = u32::MAX - 5_000; // 5 ms before the wrap
        e.on_sample(Instant::ZERO, DelaySample(base));
        for i in 1..=4u32 {
            e.on_sample(
                Instant::from_millis(i as u64),
                DelaySample(base.wrapping_add(20_000)),
            );
        }
        assert_eq!(e.queuing_delay(), Some(Duration::from_millis(20)));
        assert_eq!(e.base_delay(), Some(Duration::from_micros(base as u64)));
    }

    #[test]
    fn ewma_filter_moves_by_alpha() {
        let mut e = est(DelayConfig::default().filter(CurrentFilter::Ewma { alpha: 0.5 }));
        e.on_sample(Instant::ZERO, DelaySample(0));
        e.on_sample(Instant::ZERO, DelaySample(10_000));
        assert_eq!(e.queuing_delay(), Some(Duration::from_millis(5)));
    }

    #[test]
    fn clamp_limits_queuing_delay_to_min_rtt() {
        let mut e = est(DelayConfig::default().clamp_to_min_rtt(true));
        e.on_rtt(Duration::from_millis(3));
        e.on_sample(Instant::ZERO, DelaySample(0));
        for _ in 0..4 {
            e.on_sample(Instant::ZERO, DelaySample(50_000));
        }
        assert_eq!(e.queuing_delay(), Some(Duration::from_millis(3)));
    }

    #[test]
    fn drift_correction_raises_base_when_reverse_base_falls() {
        let mut e = est(DelayConfig::default().drift_correction(true));
        e.on_sample(Instant::ZERO, DelaySample(40_000));
        e.on_reverse_sample(DelaySample(100_000));
        e.on_reverse_sample(DelaySample(97_000)); // peer clock gained 3 ms
        assert_eq!(e.base_unwrapped(), Some(43_000));
        e.on_reverse_sample(DelaySample(50_000)); // large fall: capped at 10 ms
        assert_eq!(e.base_unwrapped(), Some(53_000));
    }

    #[test]
    fn validation_names_the_field() {
        let e = DelayConfig::default()
            .base_history(0)
            .validate("ledbat")
            .unwrap_err();
        assert!(e.to_string().contains("delay.base_history"), "{e}");
        let e = DelayConfig::default()
            .filter(CurrentFilter::Min { len: 0 })
            .validate("ledbat")
            .unwrap_err();
        assert!(e.to_string().contains("delay.filter.len"), "{e}");
        let e = DelayConfig::default()
            .filter(CurrentFilter::Ewma { alpha: f64::NAN })
            .validate("ledbat")
            .unwrap_err();
        assert!(e.to_string().contains("delay.filter.alpha"), "{e}");
    }
}
