//! RFC 6817 LEDBAT with seed 001's mitigation of base-delay growth: stop sending for at
//! least TARGET before a base-delay refresh (Ros & Welzl, seed 001, sections II.B and III;
//! algorithms.md section 5).
//!
//! Why the base creeps: the base delay is the minimum over BASE_HISTORY one-minute buckets.
//! A flow that starts on an empty path records the true one-way delay `B` in its first
//! bucket; from then on it keeps TARGET of queue standing, so every later bucket records
//! `B + TARGET`. When the first bucket expires (BASE_HISTORY minutes later) the base becomes
//! `B + TARGET`, the flow aims at TARGET above *that*, and the queue grows by TARGET every
//! BASE_HISTORY minutes until the buffer overflows (seed 001, Fig. 1).
//!
//! The mitigation, made precise here. A refresh can raise the base only when the history is
//! full (the oldest bucket is dropped at the next rollover) and the oldest bucket is
//! strictly below every other bucket (it holds the only low minimum). Before such a refresh
//! the sender pauses so that the *newest* bucket, the one still open, records a sample
//! taken on an empty queue; that bucket survives the refresh and carries the true minimum
//! for another BASE_HISTORY - 1 refreshes (so in steady state the flow pauses about once
//! every BASE_HISTORY - 1 bucket intervals, not every minute). With `rtt` the smoothed RTT
//! (1 s, RFC 6298's initial RTO, before any RTT sample):
//!
//! ```text
//! pause    = pause_targets * TARGET + margin_rtts * rtt      # defaults: TARGET + 1 RTT
//! lead     = lead_rtts * rtt                                 # default: 2 RTTs
//! start    = next_rollover - lead - pause                    # pause ends `lead` early
//! ```
//!
//! The pause must outlast the standing queue: when sending stops, the queue empties after
//! the queuing delay it holds (about TARGET, seed 001: "the sender has to stop sending for at
//! least TARGET ms to ensure that the queue drains"); one smoothed RTT more covers a queue
//! above TARGET (the smoothed RTT includes the current queuing delay) and the delay of the
//! last pre-pause packets reaching the bottleneck. The lead leaves time for the first
//! post-pause packets to be acknowledged, so their empty-queue delay samples arrive while
//! the newest bucket is still open (the rollover happens at the first sample at or after
//! [`DelayEstimator::next_rollover`](crate::delay::DelayEstimator::next_rollover)). If
//! the planned start has passed (late tick) the pause starts at once, still before the
//! refresh.
//!
//! During a pause, and for ACKs of packets sent before it ended, the window is frozen: those
//! ACKs describe the pre-pause queue, and RFC 6817's cap at `flightsize + ALLOWED_INCREASE`
//! would otherwise collapse the window as the flight drains to zero during the pause. The
//! driver learns of the pause through [`Controller::pause_until`] and is woken through
//! [`Controller::next_tick`] / [`Controller::on_tick`]; the pause also starts on any other
//! event at or after its planned start. A base history of one bucket is refused: the paused
//! bucket would itself be dropped at the refresh.
//!
//! Limitation: a pause drains only the queue this flow keeps. When several LEDBAT flows
//! share the bottleneck, the others' standing queue is still there during the pause, so the
//! mitigation is partial (the pausing flows' buckets are not aligned in time).

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::delay::DelayConfig;
use crate::error::{in_range, ConfigError};
use crate::ledbat::{LedbatConfig, LedbatState};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// RTT assumed before any RTT sample (RFC 6298 section 2.1's initial RTO).
pub const DEFAULT_RTT: Duration = Duration::from_secs(1);

/// Parameters of `ledbat-pause`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PauseConfig {
    /// Queuing-delay target. Default 100 ms (seed 001, section II.A: "LEDBAT is configured
    /// with TARGET = 100 ms"; RFC 6817 section 3.4.2's maximum).
    pub target: Duration,
    /// Window gain. Default 1 (RFC 6817 section 3.4.2).
    pub gain: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub init_cwnd: f64,
    /// Slow start at the start of a connection. Default off (RFC 6817 section 2.4.2).
    pub slow_start: bool,
    /// Slow start ends when the queuing delay reaches this fraction of TARGET. Default 0.9
    /// (libutp).
    pub slow_start_exit: f64,
    /// Delay estimation. Default RFC 6817 section 3.4.2 (10 one-minute buckets), as in
    /// seed 001 ("BASE_HISTORY = 10"); at least 2 buckets.
    pub delay: DelayConfig,
    /// Pause length in TARGETs, before the RTT margin. Default 1 (seed 001, section II.B:
    /// stop "for at least TARGET ms").
    pub pause_targets: f64,
    /// RTTs added to the pause so a queue above TARGET also drains. Default 1.
    pub margin_rtts: f64,
    /// RTTs between the end of the pause and the refresh, so post-pause samples land in
    /// the bucket that survives it. Default 2.
    pub lead_rtts: f64,
}

impl Default for PauseConfig {
    fn default() -> Self {
        PauseConfig {
            target: Duration::from_millis(100),
            gain: 1.0,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            slow_start: false,
            slow_start_exit: 0.9,
            delay: DelayConfig::default(),
            pause_targets: 1.0,
            margin_rtts: 1.0,
            lead_rtts: 2.0,
        }
    }
}

config_setters!(PauseConfig {
    target: Duration,
    gain: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    slow_start: bool,
    slow_start_exit: f64,
    delay: DelayConfig,
    pause_targets: f64,
    margin_rtts: f64,
    lead_rtts: f64,
});

impl PauseConfig {
    fn base(&self) -> LedbatConfig {
        LedbatConfig {
            target: self.target,
            gain: self.gain,
            allowed_increase: self.allowed_increase,
            min_cwnd: self.min_cwnd,
            init_cwnd: self.init_cwnd,
            slow_start: self.slow_start,
            slow_start_exit: self.slow_start_exit,
            delay: self.delay,
        }
    }
}

impl ControllerFactory for PauseConfig {
    type Controller = LedbatPause;
    const NAME: &'static str = LedbatPause::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.base().validate_as(Self::NAME)?;
        if self.delay.base_history < 2 {
            return Err(ConfigError::new(
                Self::NAME,
                "delay.base_history",
                format!(
                    "must be at least 2 for the pause to land in a bucket that survives the refresh, got {}",
                    self.delay.base_history
                ),
            ));
        }
        in_range(Self::NAME, "pause_targets", self.pause_targets, 0.0, 100.0)?;
        in_range(Self::NAME, "margin_rtts", self.margin_rtts, 0.0, 100.0)?;
        in_range(Self::NAME, "lead_rtts", self.lead_rtts, 0.0, 100.0)?;
        if self.pause_targets == 0.0 && self.margin_rtts == 0.0 {
            return Err(ConfigError::new(
                Self::NAME,
                "pause_targets",
                "pause_targets and margin_rtts cannot both be 0 (the pause would be empty)",
            ));
        }
        Ok(())
    }

    fn compliance_notes(&self) -> Vec<String> {
        let mut v = self.base().compliance_notes();
        if self.pause_targets < 1.0 {
            v.push(format!(
                "pause_targets {} is below seed 001's \"at least TARGET\"",
                self.pause_targets
            ));
        }
        v
    }

    fn build(&self, mss: u32) -> Result<LedbatPause, ConfigError> {
        LedbatPause::new(*self, mss)
    }
}

/// `ledbat-pause`: RFC 6817 LEDBAT that pauses before base-delay refreshes that could raise
/// the base, so the surviving bucket measures an empty queue (seed 001's mitigation).
#[derive(Clone, Debug)]
pub struct LedbatPause {
    cfg: PauseConfig,
    st: LedbatState,
    /// The pause in force or last taken: (start, end).
    pause: Option<(Instant, Instant)>,
    /// Whether `pause` is still in force (until an event at or after its end).
    pausing: bool,
    /// The refresh instant (`next_rollover`) the last pause was taken for.
    done_for: Option<Instant>,
    pauses: u64,
}

impl LedbatPause {
    /// Registry name.
    pub const NAME: &'static str = "ledbat-pause";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: PauseConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(LedbatPause {
            st: LedbatState::new(&cfg.base(), mss),
            cfg,
            pause: None,
            pausing: false,
            done_for: None,
            pauses: 0,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &PauseConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }

    /// Number of pauses taken so far.
    pub fn pauses(&self) -> u64 {
        self.pauses
    }

    /// The last pause taken, (start, end).
    pub fn last_pause(&self) -> Option<(Instant, Instant)> {
        self.pause
    }

    fn rtt_ref(&self) -> Duration {
        self.st.rtt.srtt().unwrap_or(DEFAULT_RTT)
    }

    /// The pause length if it started now: `pause_targets * TARGET + margin_rtts * rtt`.
    pub fn pause_length(&self) -> Duration {
        self.cfg.target.mul_f64(self.cfg.pause_targets)
            + self.rtt_ref().mul_f64(self.cfg.margin_rtts)
    }

    /// Whether the next base-delay refresh could raise the base: the history is full and
    /// its oldest bucket is strictly below all the others.
    pub fn refresh_could_raise_base(&self) -> bool {
        let d = &self.st.delay;
        if !d.history_full() {
            return false;
        }
        let mut it = d.base_buckets();
        let Some(oldest) = it.next() else {
            return false;
        };
        it.min().is_some_and(|rest| oldest < rest)
    }

    /// The planned pause start for the coming refresh, when one is needed and not yet
    /// taken.
    pub fn planned_start(&self) -> Option<Instant> {
        if self.pausing || !self.refresh_could_raise_base() {
            return None;
        }
        let refresh = self.st.delay.next_rollover()?;
        if self.done_for == Some(refresh) {
            return None;
        }
        let before = self.rtt_ref().mul_f64(self.cfg.lead_rtts) + self.pause_length();
        Some(Instant::from_nanos(
            refresh.as_nanos().saturating_sub(before.as_nanos()),
        ))
    }

    /// Ends a finished pause and starts a due one.
    fn poll(&mut self, now: Instant) {
        if self.pausing {
            if let Some((_, end)) = self.pause {
                if now >= end {
                    self.pausing = false;
                }
            }
        }
        if let Some(start) = self.planned_start() {
            if now >= start {
                let end = now + self.pause_length();
                self.pause = Some((now, end));
                self.pausing = true;
                self.done_for = self.st.delay.next_rollover();
                self.pauses += 1;
            }
        }
    }

    /// Whether an ACK of packets up to one sent at `newest_sent` belongs to a pause
    /// (in it, or acknowledging a packet sent before it ended).
    fn frozen(&self, newest_sent: Instant) -> bool {
        self.pausing || matches!(self.pause, Some((_, end)) if newest_sent < end)
    }
}

impl Controller for LedbatPause {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, now: Instant, _bytes: u64, _in_flight: u64) {
        self.poll(now);
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        let qd = self.st.absorb(now, ack);
        self.poll(now);
        let Some(qd) = qd else {
            return;
        };
        if self.frozen(ack.newest_sent) {
            return;
        }
        if !self.st.slow_start_step(qd, ack.bytes_acked) {
            let off = self.st.off_target(qd);
            self.st.cwnd +=
                self.cfg.gain * off * ack.bytes_acked as f64 * self.st.mss / self.st.cwnd;
        }
        self.st.cap_and_floor(ack.flight_before);
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        self.poll(now);
        self.st.halve_on_loss(now, loss);
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.poll(now);
        self.st.timeout(now, kind);
    }

    fn window(&self) -> u64 {
        self.st.window()
    }

    fn pause_until(&self) -> Option<Instant> {
        if self.pausing {
            self.pause.map(|(_, end)| end)
        } else {
            None
        }
    }

    fn next_tick(&self) -> Option<Instant> {
        if self.pausing {
            self.pause.map(|(_, end)| end)
        } else {
            self.planned_start()
        }
    }

    fn on_tick(&mut self, now: Instant) {
        self.poll(now);
    }

    fn metrics(&self) -> Metrics {
        let state = if self.pausing {
            "pause"
        } else {
            self.st.phase()
        };
        self.st.metrics(state, self.cfg.gain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledbat::testutil::MSS;
    use crate::wire::DelaySample;

    const B: u32 = 10_000; // true one-way delay, µs
    const Q: u32 = 100_000; // standing queue = TARGET

    fn cfg() -> PauseConfig {
        PauseConfig::default()
            .init_cwnd(20.0)
            .delay(DelayConfig::default().base_history(3))
    }

    fn ack_at(sent: Instant, rtt_ms: u64, s: &[DelaySample; 1]) -> Ack<'_> {
        Ack {
            bytes_acked: 1500,
            packets_acked: 1,
            flight_before: 20 * 1500,
            delay_samples: s,
            rtt: Some(Duration::from_millis(rtt_ms)),
            reverse_delay: None,
            newest_sent: sent,
        }
    }

    /// Feeds one ACK at `now` with one-way delay `d` µs and RTT 150 ms.
    fn feed(c: &mut LedbatPause, now: Instant, d: u32) {
        let s = [DelaySample(d)];
        c.on_ack(now, &ack_at(now - Duration::from_millis(150), 150, &s));
    }

    /// Three one-minute buckets: the first holds the true base, the others B + TARGET,
    /// as when the queue never drains (seed 001, Fig. 1).
    fn creeping() -> LedbatPause {
        let mut c = LedbatPause::new(cfg(), MSS).unwrap();
        feed(&mut c, Instant::ZERO, B);
        for s in [60u64, 120] {
            feed(&mut c, Instant::from_secs(s), B + Q);
        }
        c
    }

    #[test]
    fn pause_is_planned_to_end_two_rtts_before_the_refresh() {
        let c = creeping();
        assert!(c.state().delay.history_full());
        assert!(c.refresh_could_raise_base());
        assert_eq!(
            c.state().delay.next_rollover(),
            Some(Instant::from_secs(180))
        );
        // srtt 150 ms: pause = 100 ms + 150 ms; lead = 300 ms; start = 180 s - 550 ms.
        assert_eq!(c.pause_length(), Duration::from_millis(250));
        assert_eq!(c.next_tick(), Some(Instant::from_millis(179_450)));
        assert_eq!(c.pause_until(), None);
    }

    #[test]
    fn tick_starts_and_ends_the_pause_and_the_empty_queue_sample_keeps_the_base() {
        let mut c = creeping();
        let w = c.window();
        c.on_tick(Instant::from_millis(179_450));
        assert_eq!(c.pause_until(), Some(Instant::from_millis(179_700)));
        assert_eq!(c.next_tick(), Some(Instant::from_millis(179_700)));
        assert_eq!(c.metrics().state, "pause");
        // ACKs of pre-pause packets during the pause: window frozen, even with a tiny flight.
        let s = [DelaySample(B + Q + 20_000)];
        let mut a = ack_at(Instant::from_millis(179_440), 150, &s);
        a.flight_before = 1500;
        c.on_ack(Instant::from_millis(179_500), &a);
        assert_eq!(c.window(), w);
        c.on_tick(Instant::from_millis(179_700));
        assert_eq!(c.pause_until(), None);
        assert_eq!(c.pauses(), 1);
        // No second pause for the same refresh.
        assert_eq!(c.next_tick(), None);
        // The first packet after the pause sees the empty queue; its sample arrives before
        // the refresh and lands in the newest bucket, which survives it.
        feed(&mut c, Instant::from_millis(179_850), B);
        assert_eq!(c.state().delay.base_buckets().last(), Some(B as i64));
        feed(&mut c, Instant::from_secs(180), B + Q);
        assert_eq!(c.state().delay.base_unwrapped(), Some(B as i64));
        // Now the oldest bucket (60 s) is not the only low one: no pause planned.
        assert!(!c.refresh_could_raise_base());
        assert_eq!(c.next_tick(), None);
    }

    #[test]
    fn without_the_pause_the_refresh_raises_the_base_by_target() {
        // The failure the pause prevents (seed 001, Fig. 1), on the same estimator.
        let mut c = creeping();
        feed(&mut c, Instant::from_secs(180), B + Q);
        assert_eq!(c.state().delay.base_unwrapped(), Some((B + Q) as i64));
    }

    #[test]
    fn late_events_start_the_pause_at_once() {
        let mut c = creeping();
        // No tick; the next event is an ACK 100 ms after the planned start.
        feed(&mut c, Instant::from_millis(179_550), B + Q);
        assert_eq!(
            c.last_pause(),
            Some((Instant::from_millis(179_550), Instant::from_millis(179_800)))
        );
        assert_eq!(c.pause_until(), Some(Instant::from_millis(179_800)));
        // A send at or after the end lifts it.
        c.on_sent(Instant::from_millis(179_800), 1500, 1500);
        assert_eq!(c.pause_until(), None);
    }

    #[test]
    fn window_updates_resume_with_acks_of_post_pause_packets() {
        let mut c = creeping();
        c.on_tick(Instant::from_millis(179_450));
        c.on_tick(Instant::from_millis(179_700));
        let w = c.state().cwnd;
        // A packet sent at the end of the pause, acknowledged at the base delay (queue 0
        // once the filter holds it): RFC increase resumes.
        for i in 0..4u64 {
            let s = [DelaySample(B)];
            let now = Instant::from_millis(179_860 + i);
            c.on_ack(now, &ack_at(Instant::from_millis(179_710), 50, &s));
        }
        assert!(c.state().cwnd > w);
    }

    #[test]
    fn no_pause_before_the_history_is_full_or_when_the_base_cannot_rise() {
        let mut c = LedbatPause::new(cfg(), MSS).unwrap();
        feed(&mut c, Instant::ZERO, B);
        feed(&mut c, Instant::from_secs(60), B + Q);
        assert!(!c.state().delay.history_full());
        assert_eq!(c.next_tick(), None);
        // Full history, but the minimum is also in a later bucket: dropping the oldest
        // cannot raise the base.
        let mut c = LedbatPause::new(cfg(), MSS).unwrap();
        feed(&mut c, Instant::ZERO, B);
        feed(&mut c, Instant::from_secs(60), B);
        feed(&mut c, Instant::from_secs(120), B + Q);
        assert!(c.state().delay.history_full());
        assert!(!c.refresh_could_raise_base());
        assert_eq!(c.next_tick(), None);
        for t in (120_000..200_000).step_by(1000) {
            c.on_tick(Instant::from_millis(t));
        }
        assert_eq!(c.pauses(), 0);
    }

    #[test]
    fn before_any_rtt_sample_assumes_one_second() {
        let mut c = LedbatPause::new(cfg(), MSS).unwrap();
        for (t, d) in [(0u64, B), (60, B + Q), (120, B + Q)] {
            let s = [DelaySample(d)];
            let mut a = ack_at(Instant::from_secs(t), 1, &s);
            a.rtt = None;
            c.on_ack(Instant::from_secs(t), &a);
        }
        // pause = 100 ms + 1 s, lead 2 s: start at 180 s - 3.1 s.
        assert_eq!(c.next_tick(), Some(Instant::from_millis(176_900)));
    }

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(PauseConfig, &str); 6] = [
            (PauseConfig::default().target(Duration::ZERO), "target"),
            (
                PauseConfig::default().delay(DelayConfig::default().base_history(1)),
                "delay.base_history",
            ),
            (
                PauseConfig::default().pause_targets(f64::NAN),
                "pause_targets",
            ),
            (PauseConfig::default().margin_rtts(-1.0), "margin_rtts"),
            (PauseConfig::default().lead_rtts(f64::INFINITY), "lead_rtts"),
            (
                PauseConfig::default().pause_targets(0.0).margin_rtts(0.0),
                "pause_targets",
            ),
        ];
        for (cfg, field) in cases {
            let e = LedbatPause::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
        assert!(PauseConfig::default().compliance_notes().is_empty());
        assert_eq!(
            PauseConfig::default()
                .pause_targets(0.5)
                .compliance_notes()
                .len(),
            1
        );
    }

    proptest::proptest! {
        #[test]
        fn a_pause_taken_on_time_ends_lead_rtts_before_the_refresh(
            rtt_ms in 1u64..2000,
            target_ms in 1u64..180,
            history in 2usize..12,
        ) {
            let cfg = PauseConfig::default()
                .target(Duration::from_millis(target_ms))
                .delay(DelayConfig::default().base_history(history));
            let mut c = LedbatPause::new(cfg, MSS).unwrap();
            let rtt = Duration::from_millis(rtt_ms);
            for i in 0..history as u64 {
                let d = if i == 0 { B } else { B + Q };
                let s = [DelaySample(d)];
                let now = Instant::from_secs(60 * i);
                let mut a = ack_at(now, rtt_ms, &s);
                a.rtt = Some(rtt);
                c.on_ack(now, &a);
            }
            let refresh = Instant::from_secs(60 * history as u64);
            proptest::prop_assert_eq!(c.state().delay.next_rollover(), Some(refresh));
            let start = c.next_tick().unwrap();
            // Nothing happens before the planned start.
            c.on_tick(Instant::from_nanos(start.as_nanos() - 1));
            proptest::prop_assert_eq!(c.pause_until(), None);
            c.on_tick(start);
            let end = c.pause_until().unwrap();
            proptest::prop_assert_eq!(end, refresh - rtt * 2);
            proptest::prop_assert_eq!(
                end.saturating_since(start),
                Duration::from_millis(target_ms) + rtt
            );
        }
    }
}
