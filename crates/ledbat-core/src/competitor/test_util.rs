//! Helpers of the competitor detection's unit tests: a 10 Mbit/s path, TARGET 60 ms,
//! RTT 100 ms.

use super::{Competitor, CompetitorConfig, FlowPhase, Observation};
use crate::time::{Duration, Instant};

pub(super) const MSS: f64 = 1500.0;
/// 10 Mbit/s in bytes per second.
pub(super) const C: f64 = 1_250_000.0;

pub(super) fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

pub(super) fn at(v: u64) -> Instant {
    Instant::from_millis(v)
}

pub(super) fn on() -> Competitor {
    Competitor::new(CompetitorConfig {
        enabled: true,
        ..CompetitorConfig::default()
    })
}

/// Detection on, periodic holds counted when positive too.
pub(super) fn periodic_on() -> Competitor {
    Competitor::new(CompetitorConfig {
        enabled: true,
        periodic_positive: true,
        ..CompetitorConfig::default()
    })
}

/// An observation at TARGET 60 ms, RTT 100 ms, base RTT 40 ms, eta 2 ms.
pub(super) fn obs(
    qd: u64,
    phase: FlowPhase,
    rate: Option<f64>,
    newest_sent: Instant,
) -> Observation {
    Observation {
        qd: ms(qd),
        target: ms(60),
        rtt: ms(100),
        base_rtt: ms(40),
        eta: ms(2),
        mss: MSS,
        phase,
        rate: rate.map(|r| (r, false)),
        newest_sent,
        flight: 50.0 * MSS,
    }
}

/// Teaches `c` the path's rate C at `t` ms (a sample of a flow alone, queue empty).
pub(super) fn learn_rate(c: &mut Competitor, t: u64) {
    c.on_ack(at(t), &obs(0, FlowPhase::Avoidance, Some(C), at(t)));
}

/// One hold of the flow's own from `t` ms, 400 ms long, whose queue after its first RTT
/// (100 ms) is `qd` ms.
pub(super) fn hold(c: &mut Competitor, t: u64, qd: u64) {
    c.hold_started(at(t), ms(100));
    // Within the first RTT the queue of before the hold still shows: not counted.
    c.on_ack(at(t + 50), &obs(70, FlowPhase::OwnHold, None, at(t)));
    for k in 1..=3 {
        c.on_ack(at(t + 100 * k), &obs(qd, FlowPhase::OwnHold, None, at(t)));
    }
    c.hold_ended(at(t + 400), ms(2), MSS);
}
