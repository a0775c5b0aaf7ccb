//! HyStart++ (RFC 9406): a slow start that leaves early on an RTT increase, for the
//! loss-based controllers (`cubic` with `hystart = true`).
//!
//! Rounds: a round ends with the ACK of the first packet sent after it began (RFC 9406's
//! `windowEnd = SND.NXT`, here a send time, [`RoundTracker`]); that ACK opens the next.
//! Per ACK carrying an RTT sample `rtt` (Karn's rule):
//!
//! ```text
//! at a round's start:   lastRoundMinRTT = currentRoundMinRTT
//!                       currentRoundMinRTT = inf, rttSampleCount = 0
//! every sample:         currentRoundMinRTT = min(currentRoundMinRTT, rtt); rttSampleCount += 1
//! slow start:           cwnd += min(N, L * SMSS)                              section 4.2
//!   once rttSampleCount >= N_RTT_SAMPLE and both minima are known:
//!     RttThresh = clamp(lastRoundMinRTT / MIN_RTT_DIVISOR, MIN_RTT_THRESH, MAX_RTT_THRESH)
//!     currentRoundMinRTT >= lastRoundMinRTT + RttThresh:
//!         cssBaselineMinRtt = currentRoundMinRTT; enter CSS
//! conservative slow start (CSS):
//!                       cwnd += min(N, L * SMSS) / CSS_GROWTH_DIVISOR
//!   once rttSampleCount >= N_RTT_SAMPLE: currentRoundMinRTT < cssBaselineMinRtt:
//!         back to slow start (a spurious exit: the delay increase was jitter)
//!   CSS_ROUNDS rounds in CSS: ssthresh = cwnd, congestion avoidance
//! loss or timeout in either:   the controller's own reaction; HyStart++ is done
//! ```
//!
//! MIN_RTT_THRESH 4 ms, MAX_RTT_THRESH 16 ms, MIN_RTT_DIVISOR 8, N_RTT_SAMPLE 8,
//! CSS_GROWTH_DIVISOR 4, CSS_ROUNDS 5 (section 4.3; the first four are shared with
//! [`crate::slow_start`]). L = 8 for a sender that does not pace (section 4.3; the simulator's
//! TCP does not), where RFC 3465's slow start uses 2. HyStart++ runs in the initial slow start
//! only (section 4.3): after a congestion event the discovered ssthresh bounds later slow
//! starts. The round in which CSS begins counts as its first.
//!
//! **Linux's HyStart** (`hystart = "linux"`): Linux's CUBIC (`tcp_cubic.c`, `hystart = 1`,
//! `hystart_detect = 3`) runs the older HyStart, which differs where it matters beside a flow
//! that keeps a standing queue:
//!
//! ```text
//! every RTT sample:   delay_min = min(delay_min, rtt)               # the connection's minimum
//! from cwnd >= 16 segments (hystart_low_window), in slow start, per ACK with a sample:
//!   a new round (as above): round_start = last_ack = now, curr_rtt = inf, sample_cnt = 0
//!   ACK train: if now - last_ack <= 2 ms: last_ack = now
//!                if now - round_start > (delay_min + 1 ms) / 2: exit
//!   delay:     curr_rtt = min(curr_rtt, rtt)
//!              after 8 samples in the round: curr_rtt > delay_min + clamp(delay_min / 8,
//!                                                                    4 ms, 16 ms): exit
//! exit:        ssthresh = cwnd (no CSS)
//! ```
//!
//! (1) The delay test compares with the connection's minimum RTT, not the previous round's:
//! a queue that grows by less than the threshold per round (a scavenger yielding while the
//! new flow doubles) adds up to an exit here and not in RFC 9406. (2) No CSS: CUBIC then
//! starts at W_max = cwnd, K = 0, its slow convex region. (3) The ACK train ends slow start
//! when ACKs, each within 2 ms of the previous, span half the minimum RTT (plus Linux's ACK
//! delay allowance, 1 ms below about 2 Gbit/s, halved for a sender that does not pace): about
//! when cwnd reaches half the delivery rate times the minimum RTT. At 10 Mbit/s a full-size
//! frame takes 1.2 ms, so a train breaks as soon as the flow's ACKs are spaced by two frames
//! (every other ACK, or the link shared). (4) A retransmission timeout restarts it (Linux resets
//! HyStart in the loss state). Slow start itself keeps RFC 3465's L = 2 here, where Linux
//! adds every acknowledged segment; the simulator's ACKs rarely cover more than two.

use crate::reno::RoundTracker;
use crate::slow_start::{empty_queue_threshold, CSS_GROWTH_DIVISOR};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// N_RTT_SAMPLE: RTT samples a round needs before its minimum is compared.
pub const N_RTT_SAMPLE: u32 = 8;
/// CSS_ROUNDS: rounds of conservative slow start before congestion avoidance.
pub const CSS_ROUNDS: u32 = 5;
/// L for a sender that does not pace, segments per ACK (RFC 9406 section 4.3).
pub const NON_PACED_L: f64 = 8.0;
/// Linux's `hystart_low_window`: no HyStart below this window, segments.
pub const LINUX_LOW_WINDOW: f64 = 16.0;
/// Linux's `hystart_ack_delta_us`: ACKs at most this far apart form a train.
pub const LINUX_ACK_DELTA: Duration = Duration::from_millis(2);
/// Linux's `hystart_ack_delay()` for a pacing rate below about 2 Gbit/s.
pub const LINUX_ACK_DELAY: Duration = Duration::from_millis(1);

/// Which slow-start exit a loss-based controller runs besides loss (config value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HyStartKind {
    /// None: RFC 5681 slow start until loss or ssthresh.
    #[default]
    Off,
    /// HyStart++ (RFC 9406).
    Rfc9406,
    /// Linux CUBIC's HyStart (ACK train and delay against the connection's minimum RTT).
    Linux,
}

impl HyStartKind {
    /// The state machine for this kind (`None` for [`HyStartKind::Off`]).
    pub fn build(self) -> Option<HyStart> {
        match self {
            HyStartKind::Off => None,
            HyStartKind::Rfc9406 => Some(HyStart::Rfc9406(HyStartPp::default())),
            HyStartKind::Linux => Some(HyStart::Linux(LinuxHyStart::default())),
        }
    }
}

/// A running slow-start exit.
#[derive(Clone, Debug)]
pub enum HyStart {
    /// RFC 9406.
    Rfc9406(HyStartPp),
    /// Linux's.
    Linux(LinuxHyStart),
}

impl HyStart {
    /// The phase in force.
    pub fn phase(&self) -> Phase {
        match self {
            HyStart::Rfc9406(h) => h.phase(),
            HyStart::Linux(h) => h.phase(),
        }
    }

    /// A data packet left at `now`.
    pub fn on_sent(&mut self, now: Instant) {
        match self {
            HyStart::Rfc9406(h) => h.on_sent(now),
            HyStart::Linux(h) => h.round.on_sent(now),
        }
    }

    /// An ACK in slow start (see [`HyStartPp::on_ack`]); `cwnd` in segments.
    pub fn on_ack(
        &mut self,
        now: Instant,
        newest_sent: Instant,
        rtt: Option<Duration>,
        cwnd: f64,
    ) -> Phase {
        match self {
            HyStart::Rfc9406(h) => h.on_ack(now, newest_sent, rtt),
            HyStart::Linux(h) => h.on_ack(now, newest_sent, rtt, cwnd),
        }
    }

    /// An RTT sample outside slow start (Linux keeps its minimum RTT current).
    pub fn on_rtt(&mut self, rtt: Duration) {
        if let HyStart::Linux(h) = self {
            h.delay_min = Some(h.delay_min.map_or(rtt, |m| m.min(rtt)));
        }
    }

    /// A congestion event; `timeout` for a retransmission timeout. RFC 9406 stops for
    /// good; Linux starts afresh after a timeout.
    pub fn on_congestion(&mut self, timeout: bool) {
        match self {
            HyStart::Rfc9406(h) => h.stop(),
            HyStart::Linux(h) if timeout => *h = LinuxHyStart::default(),
            HyStart::Linux(h) => h.found = true,
        }
    }
}

/// Where HyStart++ stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Standard slow start: `cwnd += min(N, L * SMSS)`.
    SlowStart,
    /// Conservative slow start: a [`CSS_GROWTH_DIVISOR`]th of that.
    Css,
    /// Done: congestion avoidance (set ssthresh = cwnd) or a congestion event came first.
    Done,
}

impl Phase {
    /// How much of slow start's growth applies: 1 in slow start, 1/4 in CSS, 0 when done.
    pub fn growth_factor(self) -> f64 {
        match self {
            Phase::SlowStart => 1.0,
            Phase::Css => 1.0 / CSS_GROWTH_DIVISOR,
            Phase::Done => 0.0,
        }
    }
}

/// HyStart++'s state across the initial slow start.
#[derive(Clone, Debug)]
pub struct HyStartPp {
    phase: Phase,
    round: RoundTracker,
    last_round_min: Option<Duration>,
    current_round_min: Option<Duration>,
    samples: u32,
    css_baseline: Option<Duration>,
    /// Rounds begun in CSS (the one CSS began in counts as the first).
    css_rounds: u32,
}

impl Default for HyStartPp {
    fn default() -> Self {
        HyStartPp {
            phase: Phase::SlowStart,
            round: RoundTracker::default(),
            last_round_min: None,
            current_round_min: None,
            samples: 0,
            css_baseline: None,
            css_rounds: 0,
        }
    }
}

impl HyStartPp {
    /// The phase in force.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// A data packet left at `now` (opens the first round).
    pub fn on_sent(&mut self, now: Instant) {
        self.round.on_sent(now);
    }

    /// A congestion event (loss, timeout): HyStart++ is over for this connection.
    pub fn stop(&mut self) {
        self.phase = Phase::Done;
    }

    /// An ACK at `now` of data whose newest packet left at `newest_sent`, with RTT sample
    /// `rtt`. Returns the phase for this ACK's growth; [`Phase::Done`] the first time means
    /// "set ssthresh = cwnd".
    pub fn on_ack(&mut self, now: Instant, newest_sent: Instant, rtt: Option<Duration>) -> Phase {
        if self.phase == Phase::Done {
            return Phase::Done;
        }
        if self.round.on_ack(now, newest_sent) {
            self.last_round_min = self.current_round_min;
            self.current_round_min = None;
            self.samples = 0;
            if self.phase == Phase::Css {
                if self.css_rounds >= CSS_ROUNDS {
                    self.phase = Phase::Done;
                    return Phase::Done;
                }
                self.css_rounds += 1;
            }
        }
        let Some(r) = rtt else { return self.phase };
        let cur = self.current_round_min.map_or(r, |m| m.min(r));
        self.current_round_min = Some(cur);
        self.samples += 1;
        if self.samples < N_RTT_SAMPLE {
            return self.phase;
        }
        match self.phase {
            Phase::SlowStart => {
                if let Some(last) = self.last_round_min {
                    if cur >= last + empty_queue_threshold(Some(last)) {
                        self.css_baseline = Some(cur);
                        self.css_rounds = 1;
                        self.phase = Phase::Css;
                    }
                }
            }
            Phase::Css => {
                if self.css_baseline.is_some_and(|b| cur < b) {
                    self.css_baseline = None;
                    self.css_rounds = 0;
                    self.phase = Phase::SlowStart;
                }
            }
            Phase::Done => {}
        }
        self.phase
    }
}

/// Linux CUBIC's HyStart state (see the module comment).
#[derive(Clone, Debug, Default)]
pub struct LinuxHyStart {
    round: RoundTracker,
    delay_min: Option<Duration>,
    round_start: Option<Instant>,
    last_ack: Option<Instant>,
    curr_rtt: Option<Duration>,
    sample_cnt: u32,
    found: bool,
}

impl LinuxHyStart {
    /// [`Phase::Done`] once an exit was found, else [`Phase::SlowStart`].
    pub fn phase(&self) -> Phase {
        if self.found {
            Phase::Done
        } else {
            Phase::SlowStart
        }
    }

    /// An ACK in slow start with window `cwnd` segments; [`Phase::Done`] the first time
    /// means "set ssthresh = cwnd".
    pub fn on_ack(
        &mut self,
        now: Instant,
        newest_sent: Instant,
        rtt: Option<Duration>,
        cwnd: f64,
    ) -> Phase {
        let Some(r) = rtt else { return self.phase() };
        let min = self.delay_min.map_or(r, |m| m.min(r));
        self.delay_min = Some(min);
        if self.found || cwnd < LINUX_LOW_WINDOW {
            return self.phase();
        }
        if self.round.on_ack(now, newest_sent) || self.round_start.is_none() {
            self.round_start = Some(now);
            self.last_ack = Some(now);
            self.curr_rtt = None;
            self.sample_cnt = 0;
        }
        if let (Some(start), Some(last)) = (self.round_start, self.last_ack) {
            if now.saturating_since(last) <= LINUX_ACK_DELTA {
                self.last_ack = Some(now);
                if now.saturating_since(start) > (min + LINUX_ACK_DELAY) / 2 {
                    self.found = true;
                }
            }
        }
        let cur = self.curr_rtt.map_or(r, |c| c.min(r));
        self.curr_rtt = Some(cur);
        if self.sample_cnt < N_RTT_SAMPLE {
            self.sample_cnt += 1;
        } else if cur > min + empty_queue_threshold(Some(min)) {
            self.found = true;
        }
        self.phase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    fn at(x: u64) -> Instant {
        Instant::ZERO + ms(x)
    }

    /// One round: `n` packets sent at `start`, acknowledged at `start + rtt` with RTT sample
    /// `rtt`. Returns the phase after the last ACK and the round's end.
    fn round(h: &mut HyStartPp, start: u64, n: u32, rtt: u64) -> (Phase, u64) {
        for _ in 0..n {
            h.on_sent(at(start));
        }
        let end = start + rtt;
        let mut p = h.phase();
        for _ in 0..n {
            p = h.on_ack(at(end), at(start), Some(ms(rtt)));
        }
        (p, end)
    }

    /// The phase after each round of 10 packets at the given RTTs (ms), and the last
    /// round's end.
    fn rounds(h: &mut HyStartPp, rtts: &[u64]) -> (Vec<Phase>, u64) {
        let mut t = 0;
        let phases = rtts
            .iter()
            .map(|&rtt| {
                let (p, end) = round(h, t, 10, rtt);
                t = end;
                p
            })
            .collect();
        (phases, t)
    }

    const SS: Phase = Phase::SlowStart;
    const CSS: Phase = Phase::Css;

    #[test]
    fn an_rtt_increase_past_the_threshold_enters_css() {
        // Round 1 at 100 ms; round 2 at 112 ms < 100 + RttThresh (100 / 8 = 12.5 ms); round 3
        // at 125 ms < 112 + 14; round 4 at 142 ms >= 125 + 15.625: CSS.
        let mut h = HyStartPp::default();
        let (phases, _) = rounds(&mut h, &[100, 112, 125, 142]);
        assert_eq!(phases, [SS, SS, SS, CSS]);
        assert_eq!(h.css_baseline, Some(ms(142)));
    }

    #[test]
    fn the_threshold_is_at_least_4_ms_and_at_most_16_ms() {
        // 10 ms base: threshold 4 ms (not 1.25): 13 ms < 10 + 4 stays; 17 >= 13 + 4 enters.
        let (phases, _) = rounds(&mut HyStartPp::default(), &[10, 13, 17]);
        assert_eq!(phases, [SS, SS, CSS]);
        // 400 ms base: threshold 16 ms (not 50): 415 stays, 431 >= 415 + 16 enters.
        let (phases, _) = rounds(&mut HyStartPp::default(), &[400, 415, 431]);
        assert_eq!(phases, [SS, SS, CSS]);
    }

    #[test]
    fn no_exit_before_eight_samples_in_the_round() {
        let mut h = HyStartPp::default();
        let (_, t) = round(&mut h, 0, 10, 100);
        // Seven samples of a 200 ms RTT: not enough to judge.
        let (p, t) = round(&mut h, t, 7, 200);
        assert_eq!(p, Phase::SlowStart);
        // The next round compares with those 200 ms (threshold 16 ms), its count starting
        // afresh: seven samples of 300 ms keep slow start, the eighth leaves it.
        for _ in 0..8 {
            h.on_sent(at(t));
        }
        let mut phases = vec![];
        for _ in 0..8 {
            phases.push(h.on_ack(at(t + 300), at(t), Some(ms(300))));
        }
        assert_eq!(phases[..7], [Phase::SlowStart; 7]);
        assert_eq!(phases[7], Phase::Css);
    }

    #[test]
    fn a_falling_rtt_in_css_resumes_slow_start() {
        // Round 3's minimum 119 ms < the 120 ms baseline: a spurious exit.
        let (phases, _) = rounds(&mut HyStartPp::default(), &[100, 120, 119]);
        assert_eq!(phases, [SS, CSS, SS]);
    }

    #[test]
    fn css_ends_in_avoidance_after_five_rounds() {
        // CSS began in round 2 (its first round); rounds 3-6 are its second to fifth.
        let mut h = HyStartPp::default();
        let (phases, t) = rounds(&mut h, &[100, 120, 120, 120, 120, 120]);
        assert_eq!(phases, [SS, CSS, CSS, CSS, CSS, CSS]);
        // The ACK that would open a sixth CSS round ends CSS, whatever its sample.
        h.on_sent(at(t));
        assert_eq!(h.on_ack(at(t + 120), at(t), Some(ms(120))), Phase::Done);
        assert_eq!(h.on_ack(at(t + 121), at(t), Some(ms(90))), Phase::Done);
    }

    #[test]
    fn a_congestion_event_ends_hystart() {
        let mut h = HyStartPp::default();
        h.on_sent(at(0));
        h.stop();
        assert_eq!(h.on_ack(at(100), at(0), Some(ms(100))), Phase::Done);
    }

    /// Phases after each ACK of one round of `n` packets sent at `start` and acknowledged
    /// from `start + rtt`, `gap` ms apart (each packet sent `gap` after the previous).
    fn linux_round(h: &mut LinuxHyStart, start: f64, n: u32, rtt: u64, gap: f64) -> Vec<Phase> {
        let us = |x: f64| Instant::ZERO + Duration::from_micros((x * 1000.0) as u64);
        (0..n)
            .map(|k| {
                let sent = start + gap * k as f64;
                h.round.on_sent(us(sent));
                h.on_ack(us(sent + rtt as f64), us(sent), Some(ms(rtt)), 20.0)
            })
            .collect()
    }

    #[test]
    fn linux_compares_with_the_connections_minimum_rtt() {
        // Round minima 100, 108, 116 ms: each round only 8 ms above the last (RFC 9406's
        // threshold is 12.5 ms and more), but 116 > 100 + 12.5: Linux exits at the ninth
        // sample of the third round, the first one it checks.
        let mut linux = LinuxHyStart::default();
        let mut rfc = HyStartPp::default();
        let mut t = 0;
        for (i, rtt) in [100, 108, 116].into_iter().enumerate() {
            let phases = linux_round(&mut linux, t as f64, 10, rtt, 0.0);
            let (p, end) = round(&mut rfc, t, 10, rtt);
            assert_eq!(p, Phase::SlowStart);
            if i < 2 {
                assert_eq!(phases, [Phase::SlowStart; 10]);
            } else {
                assert_eq!(phases[..8], [Phase::SlowStart; 8]);
                assert_eq!(phases[8..], [Phase::Done; 2]);
            }
            t = end;
        }
    }

    #[test]
    fn linux_ack_train_ends_slow_start_at_half_the_minimum_rtt() {
        // Minimum RTT 100 ms: a train of ACKs 1.2 ms apart exits once it spans more than
        // (100 + 1) / 2 = 50.5 ms: at the ACK 43 * 1.2 = 51.6 ms after the round's first.
        let mut h = LinuxHyStart::default();
        linux_round(&mut h, 0.0, 16, 100, 0.0);
        let phases = linux_round(&mut h, 100.0, 60, 100, 1.2);
        assert_eq!(phases[..43], [Phase::SlowStart; 43]);
        assert_eq!(phases[43], Phase::Done);
        // ACKs 2.4 ms apart (every other frame at 10 Mbit/s) never form a train.
        let mut h = LinuxHyStart::default();
        linux_round(&mut h, 0.0, 16, 100, 0.0);
        let phases = linux_round(&mut h, 100.0, 60, 100, 2.4);
        assert_eq!(phases, [Phase::SlowStart; 60]);
    }

    #[test]
    fn linux_waits_for_16_segments_and_restarts_after_a_timeout() {
        let mut h = LinuxHyStart::default();
        let at_us = |x| Instant::ZERO + Duration::from_millis(x);
        h.round.on_sent(at_us(0));
        for _ in 0..10 {
            h.on_ack(at_us(100), at_us(0), Some(ms(100)), 8.0);
        }
        // Three times the RTT at a window of 15 segments: no check.
        for _ in 0..10 {
            assert_eq!(
                h.on_ack(at_us(400), at_us(100), Some(ms(300)), 15.0),
                Phase::SlowStart
            );
        }
        let mut any = HyStart::Linux(h);
        any.on_congestion(false);
        assert_eq!(any.phase(), Phase::Done);
        any.on_congestion(true);
        assert_eq!(any.phase(), Phase::SlowStart);
    }

    #[test]
    fn growth_factors_follow_the_phase() {
        assert_eq!(Phase::SlowStart.growth_factor(), 1.0);
        assert_eq!(Phase::Css.growth_factor(), 0.25);
        assert_eq!(Phase::Done.growth_factor(), 0.0);
    }
}
