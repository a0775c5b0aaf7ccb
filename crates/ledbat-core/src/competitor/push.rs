//! The push test (module documentation of [`crate::competitor`]): near TARGET, the window
//! grows by `extra = C max(push_share TARGET, (1 + push_share) TARGET - qd)` for an RTT;
//! over the two RTTs after the next one the others' queue, `qd + (flight at the start -
//! flight now) / C`, shows whether they backed off (negative: a flow of our kind), stayed
//! (positive) or pushed at once (void).

use super::{Competitor, Observation, TestKind, TestOutcome, Verdict, DOUBLE_PUSH};
use crate::time::{Duration, Instant};

/// A push test: the window grows by `extra` for an RTT; then the queue shows whether the
/// other traffic backed off, counting out what this flow's own flight changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Push {
    /// Queuing delay and flight (bytes) when it began.
    pub(super) q0: Duration,
    pub(super) f0: f64,
    /// The path's rate then, bytes/s.
    pub(super) c: f64,
    pub(super) extra: f64,
    pub(super) push_until: Instant,
    pub(super) observe_from: Instant,
    pub(super) until: Instant,
    /// Smallest queuing delay from `observe_from` to `until`, plus the queue this flow's
    /// flight had then dropped below `f0` (seconds).
    pub(super) after: Option<f64>,
    /// Largest queuing delay until `until` (seconds).
    pub(super) peak: f64,
    /// The flow's share of the path's rate when it began.
    pub(super) share: f64,
}

impl Competitor {
    /// During a push test's push: the bytes the window grows by.
    pub fn push_window(&self, now: Instant) -> Option<f64> {
        self.push.filter(|p| now < p.push_until).map(|p| p.extra)
    }

    /// Whether a push test is in progress (the owner starts no slowdown meanwhile).
    pub fn pushing(&self) -> bool {
        self.push.is_some()
    }

    /// The fall, in TARGETs, that makes a push test by a flow holding `share` of the path's
    /// rate negative: `push_drop x f`, where `f = 2 (1 - share)` clamped to at most 1 with
    /// `push_drop_scaled` alone, to at least 1 with `push_drop_raised` alone, not clamped
    /// with both, and 1 with neither.
    pub(super) fn push_threshold(&self, share: f64) -> f64 {
        let f = 2.0 * (1.0 - share.clamp(0.0, 1.0));
        let f = match (self.cfg.push_drop_scaled, self.cfg.push_drop_raised) {
            (false, false) => 1.0,
            (true, false) => f.min(1.0),
            (false, true) => f.max(1.0),
            (true, true) => f,
        };
        self.cfg.push_drop * f
    }

    /// Ends a push test that is due at `now`.
    pub(super) fn poll_push(&mut self, now: Instant, target: Duration) {
        let Some(p) = self.push else { return };
        if now < p.until {
            return;
        }
        self.push = None;
        let q0 = p.q0.as_secs_f64();
        let t = target.as_secs_f64();
        let drop = q0 - p.after.unwrap_or(q0);
        let rise = if p.c > 0.0 && p.extra > 0.0 {
            (p.peak - q0) / (p.extra / p.c)
        } else {
            0.0
        };
        let verdict = if rise > DOUBLE_PUSH {
            // The queue rose well beyond what this push added: another flow pushed at the
            // same time (another of our kind testing), and neither could back off. No
            // verdict; the next suspicion waits a different random time.
            Verdict::Collision
        } else if drop >= self.push_threshold(p.share) * t {
            Verdict::Negative
        } else {
            Verdict::Positive
        };
        let kind = TestKind::Push {
            drop: if t > 0.0 { drop / t } else { 0.0 },
            rise,
        };
        if verdict == Verdict::Collision {
            self.push_collisions += 1;
            self.last_test = Some(TestOutcome {
                at: now,
                kind,
                share: p.share,
                suspected: true,
                verdict,
                positives: 0,
                yielded: false,
            });
            if self.collision_quiets {
                self.collided(now);
            }
        } else {
            self.verdict(now, kind, p.share, verdict, true);
        }
    }

    /// With [`Competitor::collision_quiets`], after a collision at `now`: as after a
    /// negative test the suspicion asked for, the positives are forgotten and the flow is
    /// quiet for `quiet x 2^k`.
    fn collided(&mut self, now: Instant) {
        if matches!(self.state, super::State::Watching { .. }) {
            self.startup_at = None;
            self.kin_found(now);
        }
    }

    /// While a push test runs: records the queue this ACK shows (its peak, and from
    /// `observe_from` the others' part of it). True when a push test is under way (the ACK
    /// is then the test's only).
    pub(super) fn observe_push(&mut self, now: Instant, o: &Observation) -> bool {
        let Some(p) = &mut self.push else {
            return false;
        };
        p.peak = p.peak.max(o.qd.as_secs_f64());
        if now >= p.observe_from && p.c > 0.0 {
            // The queue the others hold: this flow's flight below f0 took its part away.
            let other = o.qd.as_secs_f64() + (p.f0 - o.flight) / p.c;
            p.after = Some(p.after.map_or(other, |m| m.min(other)));
        }
        true
    }

    /// Starts a push test at `now` from the observation `o`, the path's rate being `c`.
    pub(super) fn start_push(&mut self, now: Instant, o: &Observation, c: f64) {
        let rtt = o.rtt;
        let push_until = now + rtt;
        let observe_from = push_until + rtt;
        self.push = Some(Push {
            q0: o.qd,
            f0: o.flight,
            c,
            // Up to (1 + push_share) TARGET, and at least push_share TARGET more.
            extra: c
                * (self.cfg.push_share * o.target.as_secs_f64())
                    .max((1.0 + self.cfg.push_share) * o.target.as_secs_f64() - o.qd.as_secs_f64()),
            push_until,
            observe_from,
            until: observe_from + rtt * 2,
            after: None,
            peak: o.qd.as_secs_f64(),
            share: self.share,
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::competitor::test_util::*;
    use crate::competitor::*;

    /// A flow near TARGET with 50 % of C, suspect from 1 s: a push test starts 4 RTTs
    /// (400 ms) and a random 0-4 RTTs later, with the queue at 60 ms and 50 packets in
    /// flight. Returns the detection and the push's start (ms).
    fn pushed() -> (Competitor, u64) {
        pushed_by(on(), 0.5)
    }

    /// `c` suspects at `share` of the path's rate and pushes (as `pushed`).
    fn pushed_by(mut c: Competitor, share: f64) -> (Competitor, u64) {
        learn_rate(&mut c, 0);
        let mut t = 1000;
        while !c.pushing() {
            let a = c.on_ack(
                at(t),
                &obs(60, FlowPhase::Avoidance, Some(share * C), at(t)),
            );
            assert_eq!(a, Action::None);
            t += 100;
        }
        let t = t - 100;
        assert!((1400..=1800).contains(&t), "push at {t} ms");
        // The window grows by C x max(0.3 x 60 ms, 1.3 x 60 ms - 60 ms) = 22 500 B for an RTT.
        let extra = c.push_window(at(t + 50)).unwrap();
        assert!((extra - 22_500.0).abs() < 1e-6, "{extra}");
        assert_eq!(c.push_window(at(t + 100)), None);
        (c, t)
    }

    #[test]
    fn a_push_the_others_back_off_from_is_negative_and_quiets_the_tests() {
        let (mut c, t) = pushed();
        // Observed from 2 to 4 RTTs after it began: the queue falls to 45 ms with our flight
        // as before, 15 ms below where it was (>= 0.15 x 60 = 9 ms): the others backed off.
        for d in [250, 300, 350] {
            c.on_ack(at(t + d), &obs(45, FlowPhase::Avoidance, None, at(t + d)));
        }
        c.poll(at(t + 400), ms(45), ms(100));
        assert!(!c.pushing());
        assert_eq!(c.tests(), 1);
        assert!(!c.confirming());
        // Quiet for 2 s: no suspicion meanwhile.
        for k in 1..=19 {
            let now = t + 400 + 100 * k;
            let a = c.on_ack(
                at(now),
                &obs(60, FlowPhase::Avoidance, Some(0.5 * C), at(now)),
            );
            assert_eq!(a, Action::None);
        }
        assert!(!c.pushing());
    }

    /// A push whose queue is `qd` ms (our flight as at the start) from 2 to 4 RTTs after
    /// it began; returns the outcome.
    fn push_met_by(qd: u64) -> (Competitor, TestOutcome) {
        push_at_share_met_by(on(), 0.5, qd)
    }

    /// As `push_met_by`, `c` pushing at `share` of the path's rate.
    fn push_at_share_met_by(c: Competitor, share: f64, qd: u64) -> (Competitor, TestOutcome) {
        let (mut c, t) = pushed_by(c, share);
        for d in [250, 300, 350] {
            c.on_ack(at(t + d), &obs(qd, FlowPhase::Avoidance, None, at(t + d)));
        }
        c.poll(at(t + 400), ms(qd), ms(100));
        assert!(!c.pushing());
        let o = c.last_test().expect("the push ended");
        assert_eq!(o.at, at(t + 400));
        (c, o)
    }

    /// A push test's figures (drop, rise).
    fn push_figures(o: &TestOutcome) -> (f64, f64) {
        match o.kind {
            TestKind::Push { drop, rise } => (drop, rise),
            k => panic!("not a push test: {k:?}"),
        }
    }

    #[test]
    fn a_push_test_records_its_figures_for_traces() {
        // 60 -> 56 ms, our flight as at the start: the others' queue fell 4 ms = 0.067
        // TARGET, short of push_drop x TARGET = 9 ms: positive. A flow of our kind with a
        // small share backs off by about that much in two RTTs at a base RTT near zero;
        // docs/sidebyside/push-backoff.md tells why the threshold stays.
        let (c, o) = push_met_by(56);
        assert_eq!(o.verdict, Verdict::Positive);
        let (drop, rise) = push_figures(&o);
        assert!((drop - 4.0 / 60.0).abs() < 1e-9, "{drop}");
        assert!((o.share - 0.5).abs() < 1e-9, "{}", o.share);
        // The queue never rose above 60 ms: 0 of the push's 18 ms.
        assert_eq!(rise, 0.0);
        assert!(o.suspected);
        assert_eq!((o.positives, o.yielded), (1, false));
        assert_eq!(c.tests(), 1);
        assert!(c.confirming(), "one positive");
        // 60 -> 50 ms: 10 ms >= 9 ms, negative.
        let (c, o) = push_met_by(50);
        assert_eq!(o.verdict, Verdict::Negative);
        assert!((push_figures(&o).0 - 10.0 / 60.0).abs() < 1e-9, "{o:?}");
        assert_eq!(o.positives, 0);
        assert!(!c.confirming());
    }

    #[test]
    fn a_scaled_push_threshold_falls_with_the_others_share_above_half() {
        let scaled = || {
            Competitor::new(CompetitorConfig {
                enabled: true,
                push_drop_scaled: true,
                ..CompetitorConfig::default()
            })
        };
        // push_drop x min(1, 2 (1 - share)): 0.15 up to a share of 0.5, 0.15 x 0.6 = 0.09 at
        // 0.7, 0 at 1; unscaled 0.15 whatever the share.
        let c = scaled();
        for (share, want) in [(0.3, 0.15), (0.5, 0.15), (0.7, 0.09), (1.0, 0.0)] {
            assert!((c.push_threshold(share) - want).abs() < 1e-12, "{share}");
            assert!((on().push_threshold(share) - 0.15).abs() < 1e-12, "{share}");
        }
        // Pushing at 0.7 of C, the queue falls 60 -> 54 ms: 6 ms = 0.1 TARGET, above 0.09
        // x 60 = 5.4 ms (negative) and short of the unscaled 9 ms (positive).
        let (_, o) = push_at_share_met_by(scaled(), 0.7, 54);
        assert!((o.share - 0.7).abs() < 1e-9, "{}", o.share);
        assert_eq!(o.verdict, Verdict::Negative);
        assert_eq!(
            push_at_share_met_by(on(), 0.7, 54).1.verdict,
            Verdict::Positive
        );
        // 60 -> 55 ms: 5 ms < 5.4 ms, positive either way.
        assert_eq!(
            push_at_share_met_by(scaled(), 0.7, 55).1.verdict,
            Verdict::Positive
        );
        // At half the link the scaled threshold is the unscaled one: 6 ms is short of 9.
        assert_eq!(
            push_at_share_met_by(scaled(), 0.5, 54).1.verdict,
            Verdict::Positive
        );
    }

    #[test]
    fn a_raised_push_threshold_grows_as_the_pushers_share_falls_below_half() {
        let with = |scaled, raised| {
            Competitor::new(CompetitorConfig {
                enabled: true,
                push_drop_scaled: scaled,
                push_drop_raised: raised,
                ..CompetitorConfig::default()
            })
        };
        // push_drop x max(1, 2 (1 - share)): 0.15 x 2 = 0.30 at a share of 0, 0.15 x 1.4 =
        // 0.21 at 0.3, 0.15 from half the link up; with push_drop_scaled too, 0.15 x 2 (1 -
        // share) at every share (0.09 at 0.7, 0 at 1).
        for (share, raised, both) in [
            (0.0, 0.30, 0.30),
            (0.3, 0.21, 0.21),
            (0.5, 0.15, 0.15),
            (0.7, 0.15, 0.09),
            (1.0, 0.15, 0.0),
        ] {
            let r = with(false, true).push_threshold(share);
            let b = with(true, true).push_threshold(share);
            assert!((r - raised).abs() < 1e-12, "{share}: {r}");
            assert!((b - both).abs() < 1e-12, "{share}: {b}");
        }
        // Pushing at 0.3 of C, the queue falls 60 -> 49 ms: 11 ms = 0.183 TARGET, past the
        // unscaled 9 ms (negative) and short of 0.21 x 60 = 12.6 ms (positive).
        let (_, o) = push_at_share_met_by(with(false, true), 0.3, 49);
        assert!((o.share - 0.3).abs() < 1e-9, "{}", o.share);
        assert_eq!(o.verdict, Verdict::Positive);
        assert_eq!(
            push_at_share_met_by(on(), 0.3, 49).1.verdict,
            Verdict::Negative
        );
        // 60 -> 47 ms: 13 ms >= 12.6 ms, negative either way.
        assert_eq!(
            push_at_share_met_by(with(false, true), 0.3, 47).1.verdict,
            Verdict::Negative
        );
    }

    #[test]
    fn a_push_whose_queue_stays_is_positive() {
        let (mut c, t) = pushed();
        // The queue stays at 60 ms although our flight is 5 packets (6 ms at C) smaller than
        // at the start: the others' queue grew to 66 ms.
        for d in [250, 300, 350] {
            let mut o = obs(60, FlowPhase::Avoidance, None, at(t + d));
            o.flight = 45.0 * MSS;
            c.on_ack(at(t + d), &o);
        }
        c.poll(at(t + 400), ms(60), ms(100));
        assert!(!c.pushing());
        assert!(c.confirming(), "one positive");
    }

    #[test]
    fn a_push_that_meets_another_push_is_void() {
        let (mut c, t) = pushed();
        // Ours adds 22 500 B = 18 ms; the queue reaches 60 + 36 ms: another flow pushed too.
        c.on_ack(
            at(t + 100),
            &obs(96, FlowPhase::Avoidance, None, at(t + 50)),
        );
        for d in [250, 300, 350] {
            c.on_ack(at(t + d), &obs(60, FlowPhase::Avoidance, None, at(t + d)));
        }
        c.poll(at(t + 400), ms(60), ms(100));
        assert!(!c.pushing());
        assert_eq!((c.tests(), c.push_collisions()), (0, 1));
        assert!(!c.confirming());
        // Risen 36 ms, twice the push's 18 ms.
        let o = c.last_test().unwrap();
        assert_eq!(o.verdict, Verdict::Collision);
        assert!((push_figures(&o).1 - 2.0).abs() < 1e-9, "{o:?}");
    }

    /// `c` after a positive push from 1.4-1.8 s and a second push that met another (the
    /// queue 36 ms above the start during it); the time the second ended (ms).
    fn positive_then_collision(c: Competitor) -> (Competitor, u64) {
        let (mut c, t) = pushed_by(c, 0.5);
        for d in [250, 300, 350] {
            let mut o = obs(60, FlowPhase::Avoidance, None, at(t + d));
            o.flight = 45.0 * MSS;
            c.on_ack(at(t + d), &o);
        }
        c.poll(at(t + 400), ms(60), ms(100));
        assert!(c.confirming(), "one positive");
        let mut now = t + 400;
        while !c.pushing() {
            now += 100;
            assert!(now < t + 5000, "no second push");
            c.on_ack(
                at(now),
                &obs(60, FlowPhase::Avoidance, Some(0.5 * C), at(now)),
            );
        }
        c.on_ack(
            at(now + 100),
            &obs(96, FlowPhase::Avoidance, None, at(now + 50)),
        );
        for d in [250, 300, 350] {
            c.on_ack(
                at(now + d),
                &obs(60, FlowPhase::Avoidance, None, at(now + d)),
            );
        }
        c.poll(at(now + 400), ms(60), ms(100));
        assert_eq!(c.push_collisions(), 1);
        (c, now + 400)
    }

    /// Whether a push starts within `ms` after `from`, suspicious samples every 100 ms.
    fn pushes_within(c: &mut Competitor, from: u64, ms: u64) -> bool {
        (1..=ms / 100).any(|k| {
            let now = from + 100 * k;
            c.on_ack(
                at(now),
                &obs(60, FlowPhase::Avoidance, Some(0.5 * C), at(now)),
            );
            c.pushing()
        })
    }

    #[test]
    fn with_collision_quiets_a_collision_forgets_the_positives_and_quiets_the_tests() {
        // The sender's rule: the positive stands after the collision, and the suspicion
        // asks for the next push at once (within 4 + 4 RTTs of 100 ms).
        let (mut c, end) = positive_then_collision(on());
        assert!(c.confirming());
        assert!(pushes_within(&mut c, end, 1000));
        // The receivers': the positive is forgotten, and no push for the quiet time (2 s).
        let (mut c, end) = positive_then_collision(on().collision_quiets());
        assert!(!c.confirming());
        assert_eq!(c.tests(), 1, "the collision is not a test");
        assert!(!pushes_within(&mut c, end, 1900));
        assert!(pushes_within(&mut c, end + 1900, 1000));
    }

    #[test]
    fn the_stage_names_the_suspicion_and_the_push_for_traces() {
        let mut c = on();
        learn_rate(&mut c, 0);
        assert_eq!(c.stage(at(0)), Stage::Watching);
        // Half of C with the queue at TARGET: suspect from the first such sample...
        c.on_ack(
            at(1000),
            &obs(60, FlowPhase::Avoidance, Some(0.5 * C), at(1000)),
        );
        assert_eq!(c.stage(at(1000)), Stage::Suspect);
        // ... and, once it has lasted, a push test (the suspicion is over then).
        let (c, t) = pushed();
        assert_eq!(c.stage(at(t)), Stage::PushTest);
    }
}
