//! The start-up rule (`competitor.startup_hold`, on by default; our extension): a newcomer
//! whose start-up met the flow's slowdown is tested by holds, not pushes.
//!
//! ```text
//! start-up seen:  in the flow's ramp back from a slowdown, qd > STARTUP_QUEUE TARGET,
//!                 on a path whose base RTT is at least startup_min_base (30 ms)
//! then:           the test the suspicion asks for near TARGET is a hold, not a push (at
//!                 the push's time, after its random wait), while
//!                   now - seen < STARTUP_MEMORY  or  the last test was positive
//! forgotten:      at a negative test
//! ```
//!
//! Why: a newcomer that starts in or just before the flow's slowdown finds the queue empty.
//! bbr then measures the path's base RTT, so beside a flow at TARGET it keeps little queue
//! of its own, and once the flow is back in avoidance the queue stands near TARGET: the
//! suspicion pushes, and bbr's gain cycle (a quarter of a BDP up and down every 8 base RTTs)
//! makes the push read its trough as a backing off, again and again, through the quiet
//! times (docs/sidebyside/arrival-phase.md). A hold sees the queue bbr keeps while the flow
//! is at its floor. The start-up shows in the ramp: the flow's own ramp brings the queue
//! back to about TARGET, a start-up beside it (bbr's, pacing at 2.89 times its bandwidth
//! estimate, which doubles its rate every round trip; a slow start) takes it far above. A
//! flow of our kind ramping beside this one can take it as high (the simulator's pairs
//! reach 2 TARGET); it joins the hold, which then reads negative, and the rule costs that
//! one hold.

use super::{Competitor, FlowPhase, Observation};
use crate::time::{Duration, Instant};

/// A queue above this many times TARGET in the flow's ramp is a newcomer's start-up. The
/// middle of the range that gave the same results in the simulator (1.3 to 1.6; 1.1 made
/// pairs of ours at a base RTT of 0 ms less fair, 1.9 missed one more of bbr's start-ups;
/// docs/sidebyside/arrival-phase.md). Compared exactly: `2 qd > 3 TARGET`.
pub const STARTUP_QUEUE: f64 = 1.5;
/// The default `competitor.startup_min_base`: the start-up rule applies only on paths
/// whose base RTT is at least this. Below it the pushes it replaces do better against bbr
/// in the simulator: of 20 seeds' newcomers timed to the flow's slowdown
/// (`netbed.simtimed`), more yielded late with the rule than without at base RTTs of 10 and
/// 20 ms, fewer at 40 ms (docs/sidebyside/arrival-phase.md).
pub const STARTUP_MIN_BASE: Duration = Duration::from_millis(30);
/// How long after the start-up's queue the suspicion's next test is still a hold: the
/// suspicion that follows takes a second or two (the newcomer's start-up and drain, then
/// `suspect_rtts` and the random wait before a push), as [`super::HIGH_MEMORY`].
pub const STARTUP_MEMORY: Duration = Duration::from_secs(5);

impl Competitor {
    /// One ACK: notes a newcomer's start-up (the queue above [`STARTUP_QUEUE`] TARGET in the
    /// flow's ramp, at a base RTT of `startup_min_base` or more).
    pub(super) fn note_startup(&mut self, now: Instant, o: &Observation) {
        if self.cfg.startup_hold
            && o.phase == FlowPhase::Ramp
            && o.base_rtt >= self.cfg.startup_min_base
            && o.qd.as_nanos() * 2 > o.target.as_nanos() * 3
        {
            self.startup_at = Some(now);
        }
    }

    /// Whether the ramp must end at this ACK (`startup_exit`): it saw a start-up at `now`.
    pub fn startup_ends_ramp(&self, now: Instant) -> bool {
        self.cfg.startup_exit && self.startup_at == Some(now)
    }

    /// Whether a test the suspicion asks for at `now` must hold; `confirming` as
    /// [`Competitor::confirming`].
    pub(super) fn startup_holds(&self, now: Instant, confirming: bool) -> bool {
        self.startup_at
            .is_some_and(|t| confirming || now.saturating_since(t) < STARTUP_MEMORY)
    }
}

#[cfg(test)]
mod tests {
    use crate::competitor::test_util::*;
    use crate::competitor::*;

    /// The detection on, the path's rate learnt at 0 ms, and one ACK of the flow's ramp
    /// with `qd` ms of queue at 500 ms.
    fn ramped(qd: u64) -> Competitor {
        ramped_over(on(), qd, 40)
    }

    /// As [`ramped`], from the detection `c`, on a path of base RTT `base` ms.
    fn ramped_over(mut c: Competitor, qd: u64, base: u64) -> Competitor {
        learn_rate(&mut c, 0);
        let o = Observation {
            base_rtt: ms(base),
            ..obs(qd, FlowPhase::Ramp, None, at(500))
        };
        c.on_ack(at(500), &o);
        c
    }

    /// ACKs every 100 ms from `t` ms, 50 ms of queue (busy, below 1.1 TARGET) and 30 % of
    /// C, until the suspicion asks for a hold (`Some(time)`) or starts a push (`None`):
    /// either after 4 RTTs (400 ms) and a random wait of up to 4 RTTs more, `splitmix64` of
    /// the suspicion's start in ns, modulo 1024, over 1024, times 400 ms (from 1.0 s: 243
    /// ms, so the first ACK at or after 1643 ms, 1.7 s).
    fn suspect_from(c: &mut Competitor, t: u64) -> Option<u64> {
        for k in 0..=8 {
            let now = t + 100 * k;
            let a = c.on_ack(
                at(now),
                &obs(50, FlowPhase::Avoidance, Some(0.3 * C), at(now)),
            );
            if a == Action::Test {
                return Some(now);
            }
            if c.pushing() {
                return None;
            }
        }
        panic!("no test from {t} ms");
    }

    #[test]
    fn a_queue_above_one_and_a_half_target_in_the_ramp_makes_the_next_test_a_hold() {
        // 91 ms > 1.5 x 60 ms: a start-up; the suspicion from 1 s holds where it would have
        // pushed
        let mut c = ramped(91);
        assert_eq!(suspect_from(&mut c, 1000), Some(1700));
        // 90 ms is not above 1.5 x 60 ms: a push
        let mut c = ramped(90);
        assert_eq!(suspect_from(&mut c, 1000), None);
    }

    #[test]
    fn a_start_up_on_a_path_under_startup_min_base_is_not_noted() {
        // the same 91 ms in the ramp at a base RTT of 29 ms (under the default 30 ms): the
        // suspicion pushes; at 30 ms it holds
        for (base, held) in [(29, None), (30, Some(1700))] {
            let mut c = ramped_over(on(), 91, base);
            assert_eq!(suspect_from(&mut c, 1000), held, "base {base} ms");
        }
        // with the bound at 0 the rule applies at a base RTT of 29 ms too
        let unbounded = Competitor::new(CompetitorConfig {
            enabled: true,
            startup_min_base: Duration::ZERO,
            ..CompetitorConfig::default()
        });
        let mut c = ramped_over(unbounded, 91, 29);
        assert_eq!(suspect_from(&mut c, 1000), Some(1700));
    }

    #[test]
    fn only_the_ramp_and_only_with_startup_hold_count() {
        for (phase, on_) in [
            (FlowPhase::Other, true),
            (FlowPhase::OwnHold, true),
            (FlowPhase::Ramp, false),
        ] {
            let mut c = Competitor::new(CompetitorConfig {
                enabled: true,
                startup_hold: on_,
                ..CompetitorConfig::default()
            });
            learn_rate(&mut c, 0);
            c.on_ack(at(500), &obs(120, phase, None, at(500)));
            assert_eq!(suspect_from(&mut c, 1000), None, "{phase:?}, {on_}");
        }
    }

    #[test]
    fn the_start_up_is_forgotten_after_startup_memory_unless_a_test_was_positive() {
        // seen at 0.5 s; a suspicion from 5.5 s (5 s after) pushes
        let mut c = ramped(100);
        assert_eq!(suspect_from(&mut c, 5500), None);
        // a suspicion from 4.7 s reaches its test at 5.5 s (a wait of 320 ms), 5 s after: a
        // push too
        let mut c = ramped(100);
        assert_eq!(suspect_from(&mut c, 4700), None);
        // ... and from 4.8 s at 5.3 s (a wait of 6 ms), a hold; it finds 20 ms of queue:
        // positive; the next suspicion, from 6.5 s, holds again (at 7.1 s)
        let mut c = ramped(100);
        assert_eq!(suspect_from(&mut c, 4800), Some(5300));
        hold(&mut c, 5300, 20);
        assert!(c.confirming());
        assert_eq!(suspect_from(&mut c, 6500), Some(7100));
    }

    #[test]
    fn a_negative_test_ends_the_rule() {
        // a negative hold (the queue drained: our kind joined it) ends at 2.1 s: the next
        // suspicion, after the quiet time of 2 s, pushes at 5.0 s, 4.5 s after the start-up
        let mut c = ramped(100);
        assert_eq!(suspect_from(&mut c, 1000), Some(1700));
        hold(&mut c, 1700, 0);
        assert!(!c.confirming());
        assert_eq!(suspect_from(&mut c, 4200), None);
        assert!(c.pushing());
    }
}
