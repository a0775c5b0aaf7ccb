//! LEDBAT++ (draft-irtf-iccrg-ledbat-plus-plus; constants and rules of draft **-01**, as
//! restated in algorithms.md section 7).
//!
//! Differences from RFC 6817, all implemented here:
//!
//! 1. **Round-trip delay.** The delay signal is the RTT, not the one-way delay: each RTT
//!    sample the driver reports ([`Ack::rtt`], Karn's rule) goes through the same base
//!    history (BASE_HISTORY one-minute minima) and current filter (minimum of the last 4)
//!    as RFC 6817's one-way samples, so `queuing_delay = FILTER(rtts) - min(base rtts)`.
//!    One-way samples on the ACK are ignored (no clock offset or drift to handle).
//! 2. **TARGET 60 ms**, and a gain that shrinks on short paths:
//!    `GAIN = 1 / min(16, ceil(2 * TARGET / base_rtt))`.
//! 3. **Window update**, per RTT, applied per ACK in proportion to the bytes acknowledged
//!    (`* bytes_acked * MSS / cwnd`, so one window of ACKs applies it once), `W` in packets:
//!    ```text
//!    qd <= TARGET:  W += GAIN
//!    qd >  TARGET:  W += max(GAIN - W * (qd / TARGET - 1), -W / 2)
//!    ```
//!    The decrease is multiplicative in W and bounded by half the window per RTT.
//! 4. **Modified slow start** from 2 packets: `cwnd += GAIN * bytes_acked` per ACK, left when
//!    the queuing delay exceeds 3/4 TARGET (or on a loss or timeout).
//! 5. **Periodic slowdown.** Two RTTs after the initial slow start ends: `ssthresh = W`,
//!    `W = 2` packets, held for 2 RTTs, then slow start (as in 4) back up to `ssthresh`. The
//!    slowdown lasts from its start until slow start ends; the next one starts 9 times that
//!    duration after its end (so slowdowns take about 10 % of the time). This lets every
//!    flow, latecomers included, measure the true base delay.
//!
//! **Extensions of this crate** (all off by default, reported by `compliance_notes`; the
//! `scavenger` preset, [`crate::scavenger`], turns them all on). The first three fix what
//! the draft does on a path whose base RTT is far below TARGET, where the queue is the
//! whole RTT (the namespace test bed: 0.06 ms). There the gain is 1/16, both flows add 1/16
//! packet per RTT, and the multiplicative decrease, the only force towards fairness, acts
//! only above TARGET, which the slowdowns keep the queue from reaching; a latecomer also
//! keeps a base delay a few ms too high because one flow's slowdown leaves the other flows'
//! packets in the queue, and a latecomer can take almost the whole link.
//!
//! - `max_gain_divisor = 1`: GAIN 1 whatever the base (RFC 6817's ceiling).
//! - `ramp_delay_exit = false`: a slowdown's ramp always returns to `ssthresh`; otherwise a
//!   small flow whose slowdown cannot empty the queue restarts from 2 packets each time.
//! - `slowdown_join = f`: a flow that sees another flow's slowdown drain the queue to
//!   `f * TARGET` starts its own slowdown at once; slowdowns overlap, the queue empties,
//!   every flow measures the true base delay. [`crate::slowdown`] holds the slowdown cycle
//!   and the rule, which tells another flow's slowdown from the flow's own dips (the tail
//!   of its ramp, a stall of its receiver, cross traffic leaving).
//!
//! The others make the flow's own slowdowns and slow starts cheap at larger base RTTs,
//! where the draft's 2-packet hold idles the link for about two base RTTs per slowdown and
//! its slow start overshoots to the FIFO limit:
//!
//! - `slowdown_hold_packets = k`: the hold's floor (draft: 2). With a near-zero base RTT
//!   every packet held sits in the queue, so one per flow leaves the least error in a
//!   latecomer's base.
//! - `slowdown_hold_bdp = f`: from its second slowdown on a flow holds `max(k, f * cwnd *
//!   base / (base + qd))` ([`LedbatPp::hold_window`]), a share of what it has in flight
//!   rather than queued: its queue drains and the link stays busy.
//! - `slowdown_join_pause`: a flow that joins another's slowdown while
//!   `cwnd * base / (base + TARGET)` is under one packet (every packet it held would be
//!   queued) sends nothing during its hold ([`Controller::pause_until`]), so the flow that started the slowdown
//!   measures the empty queue; its next slowdown then comes after half the interval, so
//!   that it starts that one and the roles alternate.
//! - `conservative_slow_start` and `empty_queue_restart`: [`crate::slow_start`].
//! - `slowdown_join_recent` (off in every preset; in the simulator and the kernel build):
//!   the join rule judges a dip by the flight of the last RTTs, and the restart waits while
//!   a join may come ([`crate::slowdown`], "recent").
//!
//! With the first three, two flows share on the bed; costs and figures, in the simulator
//! and on the bed, with the commands: `docs/controllers-notes.md`, "ledbat++" and
//! "scavenger"; the regression cases: `ledbat-sim/tests/controller_behaviour.rs`.
//!
//! "RTT" for the slowdown timers is the smoothed RTT (RFC 6298) at the moment the timer is
//! set; the timers are time-driven, so the controller asks its driver to be woken through
//! [`Controller::next_tick`] / [`Controller::on_tick`] (any other event past the deadline
//! also fires them). The RFC 6817 flightsize cap, MIN_CWND and loss halving once per RTT are
//! kept ([`LedbatState`]); a retransmission timeout sets the window to one MSS.

use crate::competitor::{Action, Competitor, FlowPhase, Observation, Stage};
use crate::controller::{Ack, Controller, Loss, Metrics, Timeout};
use crate::delivery::{DeliveryRate, SpanRate};
use crate::error::ConfigError;
use crate::ledbat::LedbatState;
use crate::slow_start::{self, Growth, SlowStart, SlowStartRules};
use crate::slowdown::{self, JoinInput, SlowdownPhase, Slowdowns};
use crate::time::{Duration, Instant};

mod config;
pub use config::LedbatPpConfig;

/// Where a LEDBAT++ flow is in its life cycle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Phase {
    /// The initial modified slow start, or a restart (`empty_queue_restart`).
    SlowStart,
    /// Congestion avoidance (the delay-driven update).
    Avoidance,
    /// A slowdown: window held at the hold window (draft -01: 2 packets) until `until`.
    Hold {
        /// End of the hold.
        until: Instant,
    },
    /// A slowdown's slow start back to `ssthresh`.
    Ramp,
    /// Yielding to a competitor (`competitor.enabled`, [`crate::competitor`]).
    Yield,
}

/// `ledbat++`: RTT-based LEDBAT with a path-dependent gain, multiplicative decrease bounded
/// by W/2, modified slow start and periodic slowdowns (draft-irtf-iccrg-ledbat-plus-plus-01).
#[derive(Clone, Debug)]
pub struct LedbatPp {
    /// Registry name: `ledbat++`, or the preset it was built as.
    name: &'static str,
    cfg: LedbatPpConfig,
    st: LedbatState,
    /// In slow start: the initial one, or a restart (`empty_queue_restart`).
    slow_start: bool,
    slowdowns: Slowdowns,
    /// The slowdown in progress holds a share of the BDP (`slowdown_hold_bdp`).
    ramp_from_bdp: bool,
    /// The joined slowdown in progress sends nothing until its hold ends
    /// (`slowdown_join_pause`).
    pause: bool,
    /// This crate's slow-start rules and the restart state.
    ss: SlowStart,
    /// Competitor detection (`competitor.enabled`) and the hold measurements the backoff
    /// uses.
    comp: Competitor,
    /// Bytes delivered and the app-limited mark, for the detection's rate samples (kept
    /// only when it is enabled).
    rate: DeliveryRate,
    /// The competitor detection's rate samples (spans of at least `competitor::RATE_SPAN`).
    span: SpanRate,
    /// The last event's time (a probe's limits depend on it).
    now: Instant,
    /// Base delay when the current own hold began.
    hold_base: Option<Duration>,
}

impl LedbatPp {
    /// Registry name.
    pub const NAME: &'static str = "ledbat++";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: LedbatPpConfig, mss: u32) -> Result<Self, ConfigError> {
        Self::named(Self::NAME, cfg, mss)
    }

    /// The same controller under the registry name of a preset (`scavenger`).
    pub(crate) fn named(
        name: &'static str,
        cfg: LedbatPpConfig,
        mss: u32,
    ) -> Result<Self, ConfigError> {
        cfg.validate_as(name)?;
        Ok(LedbatPp {
            name,
            st: LedbatState::new(&cfg.base(), mss),
            slow_start: cfg.slow_start,
            slowdowns: Slowdowns::new(cfg.slowdown_config()),
            ramp_from_bdp: false,
            pause: false,
            ss: SlowStart::new(SlowStartRules {
                conservative: cfg.conservative_slow_start,
                restart: cfg.empty_queue_restart,
            }),
            comp: Competitor::new(cfg.competitor),
            rate: DeliveryRate::new(),
            span: SpanRate::new(),
            now: Instant::ZERO,
            hold_base: None,
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &LedbatPpConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        if self.slow_start {
            return Phase::SlowStart;
        }
        if self.comp.yielding() {
            return Phase::Yield;
        }
        match self.slowdowns.phase() {
            SlowdownPhase::Idle => Phase::Avoidance,
            SlowdownPhase::Hold { until } => Phase::Hold { until },
            SlowdownPhase::Ramp => Phase::Ramp,
        }
    }

    /// When the next slowdown is due, if scheduled.
    pub fn slowdown_at(&self) -> Option<Instant> {
        self.slowdowns.next_at()
    }

    /// Whether the slowdown in progress was joined: started because another flow's slowdown
    /// drained the queue, not by this flow's own timer or a competitor test (false when
    /// none is in progress).
    pub fn slowdown_joined(&self) -> bool {
        self.slowdowns.joined()
    }

    /// Number of slowdowns started.
    pub fn slowdowns(&self) -> u64 {
        self.slowdowns.count()
    }

    /// The gain in force: `1 / min(16, ceil(2 TARGET / base_rtt))`, the smallest before any
    /// RTT sample.
    pub fn gain(&self) -> f64 {
        self.cfg
            .gain_for_base(self.st.delay.base_delay().unwrap_or(Duration::ZERO))
    }

    /// Leaves a slow start at `now`: after the initial one, schedules the first slowdown;
    /// after a slowdown's, schedules the next one `slowdown_interval` durations later.
    fn end_slow_start(&mut self, now: Instant) {
        self.ss.ended();
        if self.slow_start {
            self.slow_start = false;
            self.schedule_first_slowdown(now);
        } else {
            self.slowdowns.end_ramp(now);
        }
    }

    /// Schedules the first slowdown `first_slowdown_rtts` after `now` (the end of the
    /// initial slow start, or the first RTT sample when slow start is disabled).
    fn schedule_first_slowdown(&mut self, now: Instant) {
        if self.cfg.periodic_slowdown {
            let rtt = self.st.srtt_or_target();
            self.slowdowns.schedule_first(now, rtt);
        }
    }

    /// Fires the time-driven transitions due at `now`: the competitor detection's probes,
    /// the slowdowns (not while yielding), and what the end of a hold of the flow's own
    /// tells ([`LedbatPp::hold_ended`]).
    fn poll(&mut self, now: Instant) {
        self.now = self.now.max(now);
        let rtt = self.st.srtt_or_target();
        let qd = self.st.delay.queuing_delay().unwrap_or(Duration::ZERO);
        self.comp.poll(now, qd, rtt);
        if self.slow_start || self.comp.yielding() || self.comp.pushing() {
            return;
        }
        let w = self.hold_window();
        let pause = self.join_would_pause();
        let was_hold = matches!(self.slowdowns.phase(), SlowdownPhase::Hold { .. });
        if self.slowdowns.poll(now, &mut self.st.cwnd, w, rtt) {
            self.ramp_from_bdp = w > self.cfg.slowdown_hold_packets * self.st.mss;
            self.pause = self.slowdowns.joined() && pause;
            if self.pause {
                self.slowdowns.come_back_early();
            }
            if !self.slowdowns.joined() {
                self.comp.hold_started(now, rtt);
                self.hold_base = self.st.delay.base_delay();
            }
        }
        if was_hold && !matches!(self.slowdowns.phase(), SlowdownPhase::Hold { .. }) {
            self.hold_ended(now);
        }
    }

    /// A hold ended. After one of the flow's own: the backoff learns whether it found the
    /// base where it was, and the competitor detection evaluates it as a test; a positive
    /// test halves the ramp's goal, a detection gives the ramp up and yields.
    fn hold_ended(&mut self, now: Instant) {
        let eta = self.empty_queue_threshold();
        if let Some(before) = self.hold_base.take() {
            let drained = self.comp.hold_min().is_some_and(|m| m <= eta);
            let same = self.st.delay.base_delay() == Some(before);
            self.slowdowns.found_base(drained && same);
        }
        let was = self.comp.yielding();
        self.comp.hold_ended(now, eta, self.st.mss);
        if self.comp.yielding() && !was {
            self.slowdowns.end_ramp(now);
            self.ss.ended();
            self.st.cwnd = self.st.mss;
        } else if self.comp.confirming() {
            self.slowdowns.scale_ssthresh(0.5);
        }
    }

    /// What the competitor detection needs to know of this ACK.
    fn observation(&self, qd: Duration, sample: Option<(f64, bool)>, ack: &Ack<'_>) -> Observation {
        let phase = match self.phase() {
            Phase::Avoidance => FlowPhase::Avoidance,
            Phase::Hold { .. } if !self.slowdowns.joined() => FlowPhase::OwnHold,
            Phase::Ramp => FlowPhase::Ramp,
            _ => FlowPhase::Other,
        };
        Observation {
            qd,
            target: self.cfg.target,
            rtt: self.st.srtt_or_target(),
            base_rtt: self.st.delay.min_rtt().unwrap_or(Duration::ZERO),
            eta: self.empty_queue_threshold(),
            mss: self.st.mss,
            phase,
            rate: sample,
            newest_sent: ack.newest_sent,
            flight: ack.flight_before as f64,
        }
    }

    /// Competitors detected so far ([`crate::competitor::Competitor::detections`]).
    pub fn detections(&self) -> u64 {
        self.comp.detections()
    }

    /// The competitor detection's state (read-only), for tests and tracing.
    pub fn competitor(&self) -> &Competitor {
        &self.comp
    }

    /// Whether a join would pause this flow (`slowdown_join_pause` and under a packet of its
    /// window in flight at a queue of TARGET). Such a flow also waits until the queue has
    /// stayed drained for half an RTT before it joins ([`slowdown::JOIN_DIP_RTTS`]): a false
    /// join would idle it for its whole hold.
    fn join_would_pause(&self) -> bool {
        // At TARGET, not the current queue: a join comes after the queue has drained, and
        // the current queuing delay would overstate the share.
        self.cfg.slowdown_join_pause
            && self
                .in_flight_at(self.cfg.target)
                .is_some_and(|b| b < self.st.mss)
    }

    /// The part of the window in flight rather than queued at a queuing delay `qd`,
    /// `cwnd * base / (base + qd)` (bytes), once the base is known. Public for tests that
    /// compare the controller with a build in other arithmetic, where the join's pause rule
    /// (this at TARGET below one packet) can be a tie.
    pub fn in_flight_at(&self, qd: Duration) -> Option<f64> {
        let b = self.st.delay.base_delay()?.as_nanos() as f64;
        Some(self.st.cwnd * b / (b + qd.as_nanos() as f64).max(1.0))
    }

    /// The window held in a slowdown: `slowdown_hold_packets` (draft -01: 2), or with
    /// `slowdown_hold_bdp = f > 0`, from the second slowdown on, the larger of that and
    /// `f * cwnd * base / (base + qd)`, the share of the window that is in flight rather
    /// than queued. The first slowdown always holds the floor: until a flow has seen the
    /// queue empty, its base may include another flow's standing queue (a latecomer's
    /// does), and its estimate of the share in flight is then too large to empty the queue.
    pub fn hold_window(&self) -> f64 {
        let floor = self.cfg.slowdown_hold_packets * self.st.mss;
        let f = self.cfg.slowdown_hold_bdp;
        match self
            .st
            .delay
            .queuing_delay()
            .and_then(|qd| self.in_flight_at(qd))
        {
            Some(bdp) if f > 0.0 && self.slowdowns.count() > 0 => floor.max(f * bdp),
            _ => floor,
        }
    }

    /// `eta` of [`slow_start::empty_queue_threshold`] for this flow's base RTT.
    pub fn empty_queue_threshold(&self) -> Duration {
        slow_start::empty_queue_threshold(self.st.delay.base_delay())
    }

    /// `empty_queue_restart`: in congestion avoidance, slow start again after one RTT of
    /// empty queue ([`crate::slow_start`]). A push test in progress does not stop the clock:
    /// in a pair at a long RTT the restart during its own test is how a flow that fell
    /// behind regains its share (`docs/tcp/measured.md`, "No restart during a push test").
    fn restart_if_empty(&mut self, now: Instant, qd: Duration) {
        if self.phase() != Phase::Avoidance {
            self.ss.not_avoiding();
            return;
        }
        let (eta, rtt) = (self.empty_queue_threshold(), self.st.srtt_or_target());
        let due = if self.cfg.slowdown_join_recent && self.slowdowns.join_dip_pending() {
            self.ss.restart_due_after_rtt(now, qd, eta, rtt)
        } else {
            self.ss
                .restart_due(now, qd, eta, rtt, self.st.cwnd, self.st.mss)
        };
        if due {
            self.slow_start = true;
        }
    }

    /// The flightsize cap (RFC 6817); in congestion avoidance a cut is remembered for a
    /// restart to regrow.
    fn cap(&mut self, flight_before: u64) {
        let before = self.st.cwnd;
        self.st.cap_and_floor(flight_before);
        if self.phase() == Phase::Avoidance {
            self.ss.capped(before, self.st.cwnd);
        }
    }

    /// While yielding: the pacing rate and window the competitor detection allows now.
    fn yield_limits(&self) -> Option<(f64, f64)> {
        self.comp
            .limits(self.now, self.st.mss, self.st.srtt_or_target())
    }

    /// Congestion-avoidance change in packets per RTT at queuing delay `qd`.
    pub fn avoidance_step(&self, qd: Duration) -> f64 {
        let gain = self.gain();
        let t = self.cfg.target.as_nanos() as f64;
        let q = qd.as_nanos() as f64;
        if q <= t {
            gain
        } else {
            let w = self.st.cwnd_packets();
            (gain - w * (q / t - 1.0)).max(-w / 2.0)
        }
    }
}

impl Controller for LedbatPp {
    fn name(&self) -> &'static str {
        self.name
    }

    fn on_sent(&mut self, now: Instant, _bytes: u64, _in_flight: u64) {
        self.poll(now);
    }

    fn on_app_limited(&mut self, _now: Instant, in_flight: u64) {
        if self.comp.enabled() {
            self.rate.on_app_limited(in_flight);
        }
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        let qd = self.st.absorb_rtt(now, ack);
        let sample = if self.comp.enabled() {
            // The estimator keeps only the delivered count and the app-limited mark (no
            // per-packet samples); the samples span at least RATE_SPAN and the smoothed
            // RTT, so that neither per-packet jitter nor a burst the path lets through at
            // once inflates the path's rate.
            if ack.bytes_acked > 0 {
                self.rate.on_delivered(now, ack.bytes_acked);
            }
            let span = self
                .st
                .rtt
                .srtt()
                .map_or(crate::competitor::RATE_SPAN, |r| {
                    r.max(crate::competitor::RATE_SPAN)
                });
            self.span
                .on_ack(now, self.rate.delivered(), self.rate.app_limited(), span)
        } else {
            None
        };
        if !self.slow_start && !self.comp.yielding() {
            if ack.rtt.is_some() {
                // Without an initial slow start, the first slowdown counts from the first
                // RTT sample (a no-op once scheduled).
                self.schedule_first_slowdown(now);
            }
            if let Some(q) = qd {
                let rtt = self.st.srtt_or_target();
                let min_flight = 2.0 * self.st.slowdown_window();
                let flight = ack.flight_before as f64;
                let min_dip = if self.join_would_pause() {
                    slowdown::scale(rtt, slowdown::JOIN_DIP_RTTS)
                } else {
                    Duration::ZERO
                };
                let seen = JoinInput {
                    qd: q,
                    target: self.cfg.target,
                    rtt,
                    flight,
                    min_flight,
                    min_dip,
                };
                self.slowdowns.observe(now, &seen);
            }
        }
        self.poll(now);
        let Some(qd) = qd else {
            return;
        };
        match self.comp.on_ack(now, &self.observation(qd, sample, ack)) {
            Action::Test if self.phase() == Phase::Avoidance => {
                self.slowdowns.start_now(now, self.comp.test_hold_rtts());
                self.poll(now);
            }
            Action::Resume(bdp) => {
                // The competitor left: slow start, at full speed up to the path's BDP.
                self.slow_start = true;
                self.ss.restart_to(bdp as f64);
                let rtt = self.st.srtt_or_target();
                self.slowdowns
                    .defer(now + slowdown::scale(rtt, self.cfg.first_slowdown_rtts));
            }
            _ => {}
        }
        if self.comp.yielding() {
            return;
        }
        if self.phase() == Phase::Ramp && self.comp.startup_ends_ramp(now) {
            self.end_slow_start(now);
        }
        self.restart_if_empty(now, qd);
        let bytes = ack.bytes_acked as f64;
        let phase = self.phase();
        if matches!(phase, Phase::SlowStart | Phase::Ramp) {
            let exit = self.cfg.slow_start_exit * self.cfg.target.as_nanos() as f64;
            let delay_exit = phase == Phase::SlowStart || self.cfg.ramp_delay_exit;
            if delay_exit && qd.as_nanos() as f64 > exit {
                self.end_slow_start(now);
            } else {
                self.st.cwnd += self.ss.step(Growth {
                    step: self.gain() * bytes,
                    cwnd: self.st.cwnd,
                    mss: self.st.mss,
                    qd,
                    eta: self.empty_queue_threshold(),
                    ramp_from_bdp: phase == Phase::Ramp && self.ramp_from_bdp,
                });
                if let (Phase::Ramp, Some(ss)) = (phase, self.slowdowns.ssthresh()) {
                    if self.st.cwnd >= ss {
                        self.st.cwnd = ss;
                        self.end_slow_start(now);
                    }
                }
                self.ss.grew(self.st.cwnd);
                self.cap(ack.flight_before);
                return;
            }
        }
        match self.phase() {
            Phase::Hold { .. } | Phase::Yield => return,
            Phase::Avoidance => {
                self.st.cwnd += self.avoidance_step(qd) * bytes * self.st.mss / self.st.cwnd;
            }
            Phase::SlowStart | Phase::Ramp => {}
        }
        self.cap(ack.flight_before);
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        self.poll(now);
        if !self.st.halve_on_loss(now, loss) {
            return;
        }
        self.ss.ended();
        if self.phase() != Phase::Avoidance {
            self.end_slow_start(now);
        }
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.poll(now);
        if kind == Timeout::Retransmission {
            self.ss.ended();
        }
        if kind == Timeout::Retransmission && self.phase() != Phase::Avoidance {
            self.end_slow_start(now);
        }
        self.st.timeout(now, kind);
    }

    /// While yielding, the competitor detection's window (one packet, or a probe's).
    fn window(&self) -> u64 {
        match self.yield_limits() {
            Some((_, w)) => w as u64,
            None => self.st.window() + self.comp.push_window(self.now).unwrap_or(0.0) as u64,
        }
    }

    /// Paces only while yielding ([`crate::competitor`]).
    fn pacing_rate(&self) -> Option<u64> {
        self.yield_limits().map(|(r, _)| (r as u64).max(1))
    }

    /// A joined slowdown's pause (`slowdown_join_pause`) lasts until its hold ends.
    fn pause_until(&self) -> Option<Instant> {
        match self.phase() {
            Phase::Hold { until } if self.pause => Some(until),
            _ => None,
        }
    }

    fn next_tick(&self) -> Option<Instant> {
        let slowdown = if self.slow_start
            || !self.cfg.periodic_slowdown
            || self.comp.yielding()
            || self.comp.pushing()
        {
            None
        } else {
            self.slowdowns.next_tick()
        };
        match (slowdown, self.comp.next_tick()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn on_tick(&mut self, now: Instant) {
        self.poll(now);
    }

    fn metrics(&self) -> Metrics {
        let state = match self.phase() {
            Phase::SlowStart => "slow-start",
            Phase::Avoidance if self.comp.enabled() => match self.comp.stage(self.now) {
                Stage::Suspect => "avoidance-suspect",
                Stage::PushTest => "avoidance-push-test",
                Stage::Quiet => "avoidance-quiet",
                Stage::Watching => "avoidance",
            },
            Phase::Avoidance => "avoidance",
            Phase::Hold { .. } => "slowdown",
            Phase::Ramp => "slowdown-ramp",
            Phase::Yield if self.comp.probing(self.now) => "yield-probe",
            Phase::Yield => "yield",
        };
        let mut m = self.st.metrics(state, self.gain());
        m.ssthresh = self.slowdowns.ssthresh().map(|s| s as u64);
        m.cwnd = self.window();
        m.pacing_rate = self.pacing_rate();
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::ControllerFactory;
    use crate::ledbat::testutil::MSS;

    fn ctl(cfg: LedbatPpConfig) -> LedbatPp {
        LedbatPp::new(cfg, MSS).unwrap()
    }

    /// An ACK of one packet carrying the RTT sample `rtt_us` microseconds.
    fn rtt_ack(rtt_us: u64) -> Ack<'static> {
        Ack {
            bytes_acked: 1500,
            packets_acked: 1,
            flight_before: u64::MAX / 4,
            delay_samples: &[],
            rtt: Some(Duration::from_micros(rtt_us)),
            reverse_delay: None,
            newest_sent: Instant::ZERO,
        }
    }

    fn zero_ack(rtt_us: u64) -> Ack<'static> {
        Ack {
            bytes_acked: 0,
            packets_acked: 0,
            ..rtt_ack(rtt_us)
        }
    }

    /// Sets the base RTT to `base_us` and fills the filter at `base_us + qd_us` without
    /// moving the window.
    fn settle(c: &mut LedbatPp, now: Instant, base_us: u64, qd_us: u64) {
        c.on_ack(now, &zero_ack(base_us));
        for _ in 0..4 {
            c.on_ack(now, &zero_ack(base_us + qd_us));
        }
    }

    #[test]
    fn gain_is_one_over_min_16_ceil_2_target_over_base() {
        let c = LedbatPpConfig::default();
        let g = |ms| c.gain_for_base(Duration::from_millis(ms));
        assert_eq!(g(20), 1.0 / 6.0); // ceil(120 / 20) = 6
        assert_eq!(g(50), 1.0 / 3.0); // ceil(2.4) = 3
        assert_eq!(g(100), 1.0 / 2.0); // ceil(1.2) = 2
        assert_eq!(g(120), 1.0); // ceil(1) = 1
        assert_eq!(g(500), 1.0); // ceil(0.24) = 1
        assert_eq!(g(5), 1.0 / 16.0); // ceil(24) capped at 16
        assert_eq!(c.gain_for_base(Duration::ZERO), 1.0 / 16.0);
    }

    #[test]
    fn controller_gain_follows_the_base_rtt_not_one_way_samples() {
        let mut c = ctl(LedbatPpConfig::default());
        settle(&mut c, Instant::ZERO, 20_000, 10_000);
        assert_eq!(c.gain(), 1.0 / 6.0);
        assert_eq!(
            c.state().delay.queuing_delay(),
            Some(Duration::from_millis(10))
        );
        assert_eq!(c.metrics().gain, 1.0 / 6.0);
    }

    #[test]
    fn slow_start_grows_by_gain_times_bytes_and_exits_above_three_quarters_target() {
        let mut c = ctl(LedbatPpConfig::default());
        settle(&mut c, Instant::ZERO, 50_000, 0);
        assert_eq!(c.phase(), Phase::SlowStart);
        c.on_ack(Instant::ZERO, &rtt_ack(50_000));
        // GAIN 1/3 at a 50 ms base: 3000 + 1500/3.
        assert_eq!(c.window(), 3500);
        // 45 ms of queue is exactly 3/4 TARGET: still slow start.
        settle(&mut c, Instant::ZERO, 50_000, 45_000);
        c.on_ack(Instant::ZERO, &rtt_ack(95_000));
        assert_eq!(c.phase(), Phase::SlowStart);
        assert_eq!(c.window(), 4000);
        // 46 ms: leaves slow start (on the sample that lifts the filter to 46 ms).
        let before = c.window();
        settle(&mut c, Instant::from_secs(1), 50_000, 46_000);
        assert_eq!(c.phase(), Phase::Avoidance);
        assert_eq!(c.window(), before);
        let srtt = c.state().rtt.srtt().unwrap();
        assert_eq!(c.slowdown_at(), Some(Instant::from_secs(1) + srtt * 2));
    }

    #[test]
    fn avoidance_adds_gain_per_rtt_below_target() {
        let mut c = ctl(LedbatPpConfig::default().slow_start(false).init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 20_000, 30_000);
        c.on_ack(Instant::ZERO, &rtt_ack(50_000));
        // +GAIN/W packets = (1/6) * 1500 * 1500 / 30000 bytes.
        assert!(
            (c.state().cwnd - (30_000.0 + 12.5)).abs() < 1e-9,
            "{}",
            c.state().cwnd
        );
    }

    #[test]
    fn decrease_above_target_is_gain_minus_w_times_excess() {
        // W 40, base 20 ms (GAIN 1/6), qd 66 ms: per RTT 1/6 - 40 * 0.1 packets.
        let mut c = ctl(LedbatPpConfig::default().slow_start(false).init_cwnd(40.0));
        settle(&mut c, Instant::ZERO, 20_000, 66_000);
        let step = c.avoidance_step(Duration::from_millis(66));
        assert!((step - (1.0 / 6.0 - 4.0)).abs() < 1e-12, "{step}");
        c.on_ack(Instant::ZERO, &rtt_ack(86_000));
        let expected = 60_000.0 + step * 1500.0 * 1500.0 / 60_000.0;
        assert!((c.state().cwnd - expected).abs() < 1e-9);
    }

    #[test]
    fn decrease_is_bounded_by_half_the_window_per_rtt() {
        let mut c = ctl(LedbatPpConfig::default().slow_start(false).init_cwnd(40.0));
        settle(&mut c, Instant::ZERO, 20_000, 1_000_000);
        assert_eq!(c.avoidance_step(Duration::from_secs(1)), -20.0);
        // Each ACK removes (W/2) * MSS * MSS / cwnd = MSS / 2: 40 ACKs halve the window.
        for _ in 0..40 {
            c.on_ack(Instant::ZERO, &rtt_ack(1_020_000));
        }
        assert!(
            (c.state().cwnd - 30_000.0).abs() < 1e-6,
            "{}",
            c.state().cwnd
        );
    }

    /// Runs the initial slow start to its exit at `t_exit` (base 50 ms, RTT samples 100 ms
    /// at the end: 50 ms of queue) and returns the controller.
    fn after_initial_slow_start(t_exit: Instant) -> LedbatPp {
        let mut c = ctl(LedbatPpConfig::default());
        settle(&mut c, Instant::ZERO, 50_000, 0);
        for _ in 0..30 {
            c.on_ack(Instant::ZERO, &rtt_ack(50_000));
        }
        assert_eq!(c.phase(), Phase::SlowStart);
        // The fourth sample at 100 ms lifts the filtered queuing delay to 50 ms > 45 ms.
        settle(&mut c, t_exit, 50_000, 50_000);
        assert_eq!(c.phase(), Phase::Avoidance);
        c
    }

    #[test]
    fn first_slowdown_comes_two_rtts_after_slow_start_and_holds_two_packets_for_two_rtts() {
        let t_exit = Instant::from_secs(3);
        let mut c = after_initial_slow_start(t_exit);
        let srtt = c.state().rtt.srtt().unwrap();
        let at = t_exit + srtt * 2;
        assert_eq!(c.slowdown_at(), Some(at));
        assert_eq!(c.next_tick(), Some(at));
        let w = c.state().cwnd;
        // Not yet.
        c.on_tick(at - Duration::from_nanos(1));
        assert_eq!(c.phase(), Phase::Avoidance);
        c.on_tick(at);
        let hold_end = at + srtt * 2;
        assert_eq!(c.phase(), Phase::Hold { until: hold_end });
        assert_eq!(c.window(), 3000);
        assert_eq!(c.metrics().ssthresh, Some(w as u64));
        assert_eq!(c.metrics().state, "slowdown");
        assert_eq!(c.next_tick(), Some(hold_end));
        // ACKs during the hold do not grow the window.
        c.on_ack(at + Duration::from_millis(1), &rtt_ack(50_000));
        assert_eq!(c.window(), 3000);
        c.on_tick(hold_end);
        assert_eq!(c.phase(), Phase::Ramp);
    }

    #[test]
    fn next_slowdown_is_nine_durations_after_the_last_one_ends() {
        let t_exit = Instant::from_secs(3);
        let mut c = after_initial_slow_start(t_exit);
        let ss = c.state().cwnd;
        let at = c.slowdown_at().unwrap();
        c.on_tick(at);
        let Phase::Hold { until } = c.phase() else {
            panic!("{:?}", c.phase())
        };
        c.on_tick(until);
        // Ramp at the base RTT (queue drained): +GAIN * 1500 per ACK until ssthresh.
        settle(&mut c, until, 50_000, 0);
        let mut t = until;
        let mut acks = 0;
        while c.phase() == Phase::Ramp {
            t += Duration::from_millis(10);
            c.on_ack(t, &rtt_ack(50_000));
            acks += 1;
            assert!(acks < 10_000);
        }
        assert_eq!(c.state().cwnd, ss, "ramp stops at ssthresh");
        let duration = t.saturating_since(at);
        assert_eq!(c.slowdown_at(), Some(t + duration * 9));
        assert_eq!(c.slowdowns(), 1);
        assert_eq!(c.metrics().ssthresh, None);
    }

    #[test]
    fn without_initial_slow_start_the_first_slowdown_counts_from_the_first_rtt_sample() {
        let mut c = ctl(LedbatPpConfig::default().slow_start(false));
        c.on_ack(Instant::from_secs(2), &zero_ack(50_000));
        assert_eq!(c.slowdown_at(), Some(Instant::from_millis(2_100)));
        // Later samples do not push it back.
        c.on_ack(Instant::from_millis(2_050), &zero_ack(50_000));
        assert_eq!(c.slowdown_at(), Some(Instant::from_millis(2_100)));
    }

    #[test]
    fn late_events_fire_the_slowdown() {
        let mut c = after_initial_slow_start(Instant::from_secs(3));
        let at = c.slowdown_at().unwrap();
        c.on_sent(at + Duration::from_millis(5), 1500, 1500);
        assert!(matches!(c.phase(), Phase::Hold { .. }));
    }

    #[test]
    fn without_periodic_slowdown_no_timer_is_requested() {
        let mut c = ctl(LedbatPpConfig::default().periodic_slowdown(false));
        settle(&mut c, Instant::ZERO, 50_000, 50_000);
        c.on_ack(Instant::from_secs(1), &rtt_ack(100_000));
        assert_eq!(c.phase(), Phase::Avoidance);
        assert_eq!(c.next_tick(), None);
        assert_eq!(c.config().compliance_notes().len(), 1);
    }

    #[test]
    fn loss_in_slow_start_halves_and_schedules_the_first_slowdown() {
        let mut c = ctl(LedbatPpConfig::default().init_cwnd(40.0));
        settle(&mut c, Instant::ZERO, 50_000, 0);
        let loss = Loss {
            bytes: 1500,
            sent_at: Instant::from_millis(900),
            in_flight: 60_000,
        };
        c.on_loss(Instant::from_secs(1), &loss);
        assert_eq!(c.window(), 30_000);
        assert_eq!(c.phase(), Phase::Avoidance);
        assert!(c.slowdown_at().is_some());
    }

    /// Four RTT samples of `rtt_us` at `now` without acknowledging data: the filter (minimum
    /// of the last 4) then reads exactly `rtt_us`.
    fn fill(c: &mut LedbatPp, now: Instant, rtt_us: u64) {
        for _ in 0..4 {
            c.on_ack(now, &zero_ack(rtt_us));
        }
    }

    /// Drives `c` through a slowdown that starts at `at` and into its ramp, with RTT samples
    /// of `base_us + qd_us`; returns the end of the hold.
    fn into_ramp(c: &mut LedbatPp, at: Instant) -> Instant {
        c.on_tick(at);
        let Phase::Hold { until } = c.phase() else {
            panic!("{:?}", c.phase())
        };
        c.on_tick(until);
        assert_eq!(c.phase(), Phase::Ramp);
        until
    }

    #[test]
    fn by_default_the_ramp_ends_when_the_queue_is_above_three_quarters_target() {
        let mut c = after_initial_slow_start(Instant::from_secs(3));
        let at = c.slowdown_at().unwrap();
        let until = into_ramp(&mut c, at);
        // Other flows keep 50 ms of queue (> 45 ms): the ramp ends at 2 packets (plus
        // this ACK's congestion-avoidance step).
        c.on_ack(until, &rtt_ack(100_000));
        assert_eq!(c.phase(), Phase::Avoidance);
        assert!(c.window() < 3000 + 1500, "{}", c.window());
    }

    #[test]
    fn without_ramp_delay_exit_the_ramp_returns_to_the_window_held_before() {
        let cfg = LedbatPpConfig::default().ramp_delay_exit(false);
        let mut c = ctl(cfg);
        settle(&mut c, Instant::ZERO, 50_000, 0);
        for _ in 0..30 {
            c.on_ack(Instant::ZERO, &rtt_ack(50_000));
        }
        settle(&mut c, Instant::from_secs(3), 50_000, 50_000);
        assert_eq!(
            c.phase(),
            Phase::Avoidance,
            "the initial slow start still exits"
        );
        let held = c.state().cwnd;
        let at = c.slowdown_at().unwrap();
        let until = into_ramp(&mut c, at);
        let mut t = until;
        let mut acks = 0;
        while c.phase() == Phase::Ramp {
            t += Duration::from_millis(10);
            c.on_ack(t, &rtt_ack(100_000)); // 50 ms of queue throughout
            acks += 1;
            assert!(acks < 10_000);
        }
        assert_eq!(c.state().cwnd, held);
        assert_eq!(c.config().compliance_notes().len(), 1);
    }

    #[test]
    fn with_startup_exit_a_start_up_in_the_ramp_ends_it() {
        // ramp_delay_exit off, as in the scavenger preset: only the start-up rule's queue,
        // above 1.5 TARGET (90 ms) on a base of 50 ms, ends the ramp
        let ramp_at_queue = |exit: bool, qd_us: u64| {
            let mut cfg = LedbatPpConfig::default().ramp_delay_exit(false);
            cfg.competitor.enabled = true;
            cfg.competitor.startup_exit = exit;
            let mut c = ctl(cfg);
            settle(&mut c, Instant::ZERO, 50_000, 0);
            for _ in 0..30 {
                c.on_ack(Instant::ZERO, &rtt_ack(50_000));
            }
            settle(&mut c, Instant::from_secs(3), 50_000, 50_000);
            let at = c.slowdown_at().unwrap();
            let until = into_ramp(&mut c, at);
            // RTT samples without data acknowledged: the ramp does not grow
            fill(&mut c, until, 50_000 + qd_us);
            c.phase()
        };
        assert_eq!(ramp_at_queue(true, 91_000), Phase::Avoidance);
        assert_eq!(
            ramp_at_queue(true, 90_000),
            Phase::Ramp,
            "not above 1.5 TARGET"
        );
        assert_eq!(ramp_at_queue(false, 91_000), Phase::Ramp, "off by default");
    }

    #[test]
    fn slowdown_join_starts_a_slowdown_when_another_flow_drains_the_queue() {
        let cfg = LedbatPpConfig::default()
            .slowdown_join(0.5)
            .first_slowdown_rtts(50.0);
        let mut c = ctl(cfg.slow_start(false).init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 50_000, 50_000);
        let due = c.slowdown_at().unwrap();
        assert!(due > Instant::from_millis(400));
        // 31 ms of queue (> 30 ms), standing for more than the smoothed RTT: armed.
        fill(&mut c, Instant::from_millis(10), 81_000);
        fill(&mut c, Instant::from_millis(300), 81_000);
        assert_eq!(c.phase(), Phase::Avoidance);
        assert_eq!(c.slowdown_at(), Some(due));
        // 29 ms with this flow's flight unchanged: another flow is draining the queue.
        fill(&mut c, Instant::from_millis(310), 79_000);
        assert!(matches!(c.phase(), Phase::Hold { .. }), "{:?}", c.phase());
        assert_eq!(c.slowdowns(), 1);
        assert_eq!(c.window(), 3000);
    }

    /// A flow with `cwnd_pkts` at base RTT `base_us` joins another flow's slowdown at
    /// 360 ms (as in the test above, thresholds 30 ms); returns it in its hold.
    fn joined_at_base(base_us: u64, cwnd_pkts: f64, pause: bool) -> LedbatPp {
        let cfg = LedbatPpConfig::default()
            .slowdown_join(0.5)
            .slowdown_join_pause(pause)
            .first_slowdown_rtts(1000.0); // the first RTT sample is the base: due at 1 s
        let mut c = ctl(cfg.slow_start(false).init_cwnd(cwnd_pkts));
        settle(&mut c, Instant::ZERO, base_us, 50_000);
        fill(&mut c, Instant::from_millis(10), base_us + 31_000);
        fill(&mut c, Instant::from_millis(300), base_us + 31_000);
        fill(&mut c, Instant::from_millis(310), base_us + 29_000);
        fill(&mut c, Instant::from_millis(360), base_us + 29_000);
        assert!(matches!(c.phase(), Phase::Hold { .. }), "{:?}", c.phase());
        c
    }

    #[test]
    fn a_joiner_pauses_its_hold_when_under_a_packet_would_be_in_flight() {
        // Base 1 ms, 20 packets: at a 60 ms queue 20 * 1 / 61 = 0.33 packet is in flight,
        // so any packet held would be queued: no transmission until the hold ends.
        let c = joined_at_base(1_000, 20.0, true);
        let Phase::Hold { until } = c.phase() else {
            unreachable!()
        };
        assert_eq!(c.pause_until(), Some(until));
        // Base 50 ms: 20 * 50 / 110 = 9.1 packets in flight; it holds, and keeps sending.
        assert_eq!(joined_at_base(50_000, 20.0, true).pause_until(), None);
        // The draft (no pause), and the same flow at base 1 ms.
        assert_eq!(joined_at_base(1_000, 20.0, false).pause_until(), None);
    }

    #[test]
    fn a_joined_slowdown_says_so_until_it_ends() {
        let mut c = joined_at_base(50_000, 20.0, false);
        assert!(c.slowdown_joined());
        let Phase::Hold { until } = c.phase() else {
            unreachable!()
        };
        c.on_tick(until);
        let mut t = until;
        while c.phase() == Phase::Ramp {
            assert!(c.slowdown_joined(), "the ramp is the joined slowdown's");
            t += Duration::from_millis(1);
            c.on_ack(t, &rtt_ack(50_000));
        }
        assert!(!c.slowdown_joined());
        // A flow's own slowdown, started by its timer, is not joined.
        let mut own = ctl(LedbatPpConfig::default().slow_start(false));
        settle(&mut own, Instant::ZERO, 50_000, 50_000);
        let due = own.slowdown_at().unwrap();
        own.on_tick(due);
        assert!(
            matches!(own.phase(), Phase::Hold { .. }),
            "{:?}",
            own.phase()
        );
        assert!(!own.slowdown_joined());
    }

    #[test]
    fn a_paused_joiner_starts_the_next_slowdown_after_half_the_interval() {
        let mut c = joined_at_base(1_000, 20.0, true);
        let Phase::Hold { until } = c.phase() else {
            unreachable!()
        };
        c.on_tick(until);
        assert_eq!(c.pause_until(), None, "the pause ends with the hold");
        let mut t = until;
        while c.phase() == Phase::Ramp {
            t += Duration::from_millis(1);
            c.on_ack(t, &rtt_ack(1_000));
        }
        // Slowdown from 360 ms to t: the next 4.5 durations after t, not 9.
        let d = t.saturating_since(Instant::from_millis(360));
        assert_eq!(c.slowdown_at(), Some(t + crate::slowdown::scale(d, 4.5)));
    }

    #[test]
    fn slowdown_join_ignores_a_drop_of_its_own_flight() {
        let cfg = LedbatPpConfig::default()
            .slowdown_join(0.5)
            .first_slowdown_rtts(50.0);
        let mut c = ctl(cfg.slow_start(false).init_cwnd(40.0));
        settle(&mut c, Instant::ZERO, 50_000, 50_000);
        let due = c.slowdown_at().unwrap();
        let with_flight = |rtt_us, flight| Ack {
            flight_before: flight,
            ..zero_ack(rtt_us)
        };
        for t in [10, 300] {
            for _ in 0..4 {
                c.on_ack(Instant::from_millis(t), &with_flight(100_000, 60_000));
            }
        }
        // The receiver stalled: 6 of 40 packets in flight when the queue reads 20 ms.
        for _ in 0..4 {
            c.on_ack(Instant::from_millis(310), &with_flight(70_000, 9_000));
        }
        assert_eq!(c.phase(), Phase::Avoidance);
        assert_eq!(c.slowdown_at(), Some(due));
    }

    #[test]
    fn slowdown_join_waits_four_rtts_after_its_own_slowdown() {
        let cfg = LedbatPpConfig::default()
            .slowdown_join(0.5)
            .slowdown_interval(100.0);
        let mut c = ctl(cfg.slow_start(false).init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 50_000, 0);
        let at = c.slowdown_at().unwrap();
        let until = into_ramp(&mut c, at);
        // The ramp, at an empty queue, back to 20 packets.
        let mut t = until;
        while c.phase() == Phase::Ramp {
            t += Duration::from_millis(1);
            c.on_ack(t, &rtt_ack(50_000));
        }
        let next = c.slowdown_at().unwrap();
        let ms = Duration::from_millis;
        // A 40 ms queue stands from 50 ms to 200 ms after the ramp ended, then drains at
        // 250 ms: within four smoothed RTTs (76 ms after eight samples of 90 ms), too soon.
        fill(&mut c, t + ms(50), 90_000);
        fill(&mut c, t + ms(200), 90_000);
        fill(&mut c, t + ms(250), 50_000);
        assert_eq!(c.phase(), Phase::Avoidance);
        assert_eq!(c.slowdown_at(), Some(next));
        // The same two seconds later: joined.
        fill(&mut c, t + ms(2_000), 90_000);
        fill(&mut c, t + ms(2_200), 90_000);
        fill(&mut c, t + ms(2_250), 50_000);
        fill(&mut c, t + ms(2_300), 50_000);
        assert!(matches!(c.phase(), Phase::Hold { .. }), "{:?}", c.phase());
    }

    #[test]
    fn without_slowdown_join_a_drained_queue_changes_nothing() {
        let mut c = ctl(LedbatPpConfig::default().slow_start(false).init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 50_000, 50_000);
        let due = c.slowdown_at().unwrap();
        fill(&mut c, Instant::from_millis(20), 50_000);
        assert_eq!(c.phase(), Phase::Avoidance);
        assert_eq!(c.slowdown_at(), Some(due));
    }

    #[test]
    fn hold_window_is_the_floor_first_then_a_share_of_the_window_in_flight() {
        let cfg = LedbatPpConfig::default()
            .slow_start(false)
            .init_cwnd(40.0)
            .slowdown_hold_packets(1.0)
            .slowdown_hold_bdp(0.5)
            .slowdown_interval(1.0);
        let mut c = ctl(cfg);
        // Base 50 ms, 50 ms of queue: half of the 40 packets are in flight.
        settle(&mut c, Instant::ZERO, 50_000, 50_000);
        // Before the first slowdown: the floor, 1 packet.
        assert_eq!(c.hold_window(), 1500.0);
        let at = c.slowdown_at().unwrap();
        c.on_tick(at);
        assert_eq!(c.window(), 1500);
        let Phase::Hold { until } = c.phase() else {
            panic!("{:?}", c.phase())
        };
        c.on_tick(until);
        // The ramp at 50 ms of queue returns to the 40 packets (ramp_delay_exit is on, but
        // 50 ms is the exit's 45 ms: it ends the ramp at once).
        c.on_ack(until, &rtt_ack(100_000));
        assert_eq!(c.phase(), Phase::Avoidance);
        c.st.cwnd = 60_000.0;
        // Second slowdown: 0.5 * 40 packets * 50 / (50 + 50) = 10 packets.
        assert_eq!(c.hold_window(), 15_000.0);
        let at = c.slowdown_at().unwrap();
        c.on_tick(at);
        assert_eq!(c.window(), 15_000);
        // Without slowdown_hold_bdp the draft's 2 packets.
        let mut d = ctl(LedbatPpConfig::default().slow_start(false).init_cwnd(40.0));
        settle(&mut d, Instant::ZERO, 50_000, 50_000);
        assert_eq!(d.hold_window(), 3000.0);
    }

    #[test]
    fn conservative_slow_start_grows_a_quarter_as_fast_above_eta() {
        let cfg = LedbatPpConfig::default()
            .max_gain_divisor(1.0)
            .conservative_slow_start(true);
        let mut c = ctl(cfg);
        // Base 40 ms: eta 5 ms. At 5 ms of queue a full MSS per ACK, at 6 ms a quarter.
        settle(&mut c, Instant::ZERO, 40_000, 5_000);
        c.on_ack(Instant::ZERO, &rtt_ack(45_000));
        assert_eq!(c.window(), 4500);
        settle(&mut c, Instant::ZERO, 40_000, 6_000);
        c.on_ack(Instant::ZERO, &rtt_ack(46_000));
        assert_eq!(c.window(), 4875);
        assert_eq!(c.phase(), Phase::SlowStart);
    }

    /// Gain 1, no initial slow start, `init` packets, no slowdown for a while, restarts on.
    fn restarting(init: f64) -> LedbatPp {
        ctl(LedbatPpConfig::default()
            .max_gain_divisor(1.0)
            .slow_start(false)
            .init_cwnd(init)
            .first_slowdown_rtts(100.0)
            .empty_queue_restart(true))
    }

    #[test]
    fn empty_queue_restart_slow_starts_again_after_an_rtt_of_empty_queue() {
        let mut c = restarting(10.0);
        settle(&mut c, Instant::ZERO, 40_000, 0);
        assert_eq!(c.phase(), Phase::Avoidance);
        let srtt = c.state().rtt.srtt().unwrap();
        c.on_ack(Instant::from_millis(1), &zero_ack(40_000));
        assert_eq!(c.phase(), Phase::Avoidance);
        c.on_ack(Instant::from_millis(1) + srtt, &zero_ack(40_000));
        assert_eq!(c.phase(), Phase::SlowStart);
        // A restart grows a quarter as fast: 15000 + 1500 / 4.
        c.on_ack(Instant::from_secs(1), &rtt_ack(40_000));
        assert_eq!(c.window(), 15_375);
        // It ends on delay like the initial one.
        settle(&mut c, Instant::from_secs(2), 40_000, 50_000);
        assert_eq!(c.phase(), Phase::Avoidance);
    }

    #[test]
    fn after_a_stall_a_restart_regrows_the_window_the_cap_took_at_full_speed() {
        let mut c = restarting(20.0);
        settle(&mut c, Instant::ZERO, 40_000, 20_000);
        let stalled = |flight| Ack {
            flight_before: flight,
            ..rtt_ack(60_000)
        };
        // The receiver stalls: the flight drains and the cap cuts the window to it.
        for k in (2..20u64).rev() {
            c.on_ack(Instant::from_millis(10), &stalled(k * 1500));
        }
        assert_eq!(c.window(), 4500);
        // The queue is empty when it resumes: the first sample restarts, at full speed.
        settle(&mut c, Instant::from_millis(100), 40_000, 0);
        assert_eq!(c.phase(), Phase::SlowStart);
        let w = c.window();
        c.on_ack(Instant::from_millis(100), &rtt_ack(40_000));
        assert_eq!(c.window(), w + 1500);
    }

    proptest::proptest! {
        #[test]
        fn avoidance_step_is_at_most_gain_and_never_below_minus_half_the_window(
            w in 2.0f64..2000.0,
            base_ms in 1u64..500,
            qd_ms in 0u64..5000,
        ) {
            let mut c = ctl(LedbatPpConfig::default().slow_start(false).init_cwnd(w));
            settle(&mut c, Instant::ZERO, base_ms * 1000, qd_ms * 1000);
            let step = c.avoidance_step(Duration::from_millis(qd_ms));
            let w = c.state().cwnd_packets();
            proptest::prop_assert!(step >= -w / 2.0 - 1e-9, "step {} w {}", step, w);
            proptest::prop_assert!(step <= c.gain() + 1e-12);
            proptest::prop_assert!(c.gain() >= 1.0 / 16.0 && c.gain() <= 1.0);
        }
    }
}
