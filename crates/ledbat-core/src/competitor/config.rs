//! The competitor detection's parameters (`competitor.*` of `ledbat++` and `scavenger`),
//! their defaults and their ranges.

use crate::error::{in_range, nonzero, ConfigError};
use crate::time::Duration;
use serde::{Deserialize, Serialize};

/// Parameters of the competitor detection (`competitor.*` of `ledbat++` and `scavenger`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompetitorConfig {
    /// Detect competitors and yield to them. Default false (`ledbat++` as drafted; `--cc-param
    /// competitor.enabled=true` turns it on); true in the `scavenger` preset.
    pub enabled: bool,
    /// Suspect a competitor while the flow delivers less than this share of the path's rate
    /// on a busy link. Default 0.8.
    pub share: f64,
    /// ... and at least this share: a flow with less cannot drain enough of the queue for
    /// another LEDBAT++ flow to join its slowdown (it joins at 0.8 TARGET), and already
    /// leaves most of the link to the others (not asked after a positive test, whose hold
    /// left the flow with little). Default 0.2.
    pub min_share: f64,
    /// ... for this many RTTs (smoothed). Default 4.
    pub suspect_rtts: f64,
    /// Positive tests in a row before yielding. Default 2.
    pub tests: u32,
    /// A test holds for this many RTTs: another LEDBAT++ flow sees the queue fall after one
    /// and its joined hold shows after another. Default 4.
    pub test_hold_rtts: f64,
    /// The last of them at least this long after the first. Default 1 s.
    pub test_gap: Duration,
    /// A hold test is positive when the queue left during the hold exceeds this many packets
    /// at the path's rate (and `eta`). Default 3.
    pub test_packets: f64,
    /// A push test raises the queue to (1 + this) TARGET for an RTT (by this share of TARGET
    /// at least). Default 0.3.
    pub push_share: f64,
    /// ... and is negative when the queue then falls this share of TARGET below where it
    /// was: the other traffic backed off. Default 0.15.
    pub push_drop: f64,
    /// No test for this long after a negative one (or after finding that the flow yielded
    /// to one of its own kind), doubled at each such finding in a row up to 8 times. Default
    /// 2 s.
    pub quiet: Duration,
    /// While yielding, pace at this share of the path's rate. Default 0.03.
    pub yield_share: f64,
    /// Time between probes while yielding. Default 1 s.
    pub probe_interval: Duration,
    /// A probe paces at this share of the path's rate. Default 0.5.
    pub probe_share: f64,
    /// Room must be found twice this far apart to stop yielding. Default 500 ms.
    pub confirm: Duration,
    /// The path's rate is the largest delivery rate over this much time spent not yielding.
    /// Default 60 s.
    pub rate_window: Duration,
    /// Take the path's rate only from rate samples whose every ACK saw a standing queue
    /// (above eta). A shaper's token bucket fills while the link idles and its burst adds
    /// to a sample that spans an idle spell (a 30 KiB bucket, 12 % to a 200-ms span at 10
    /// Mbit/s), and a rate taken too high makes a push test read our own kind as a
    /// competitor; under a standing queue the bucket is empty. Default false: tried in the
    /// simulator only (docs/sidebyside/bucket.md); the kernel build refuses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub clean_spans: bool,
    /// A hold of a periodic slowdown that finds a standing queue counts as a positive test
    /// (one that finds the queue drained counts as a negative either way). Default false:
    /// only the holds the suspicion asks for (`test_hold_rtts` long) can be positive. A
    /// periodic hold lasts the slowdown's 2 RTTs, and a flow of our kind that joins it
    /// late shows only after its end; with a shaper's token bucket that was most false
    /// detections between two of ours (docs/sidebyside/periodic.md).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub periodic_positive: bool,
    /// A push test's threshold scales with the others' share of the path's rate when the
    /// pushing flow holds more than half of it: the queue must fall
    /// `push_drop x min(1, 2 (1 - share))` TARGET. Another LEDBAT++ flow with the share
    /// `1 - share` falls about `0.39 (1 - share)` TARGET in an RTT after a push to 1.3
    /// TARGET, short of the unscaled 0.15 when it holds less than 0.38 of the link. Default
    /// false: tried in the simulator only, where it made two of ours at a base RTT of 0 ms
    /// less fair (docs/tcp/measured.md); the kernel build refuses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub push_drop_scaled: bool,
    /// The same scaling for a pushing flow that holds less than half of the path's rate:
    /// the queue must fall `push_drop x max(1, 2 (1 - share))` TARGET, up to twice
    /// `push_drop` for a flow with nothing. Another LEDBAT++ flow holding `1 - share` falls
    /// about `0.39 (1 - share)` TARGET, more than the unscaled 0.15 there, while bbr's cycle
    /// can take its queue down 0.15-0.3 TARGET under a push whatever the share. With
    /// `push_drop_scaled` too, the threshold is `push_drop x 2 (1 - share)` at every share.
    /// Default false: tried in the simulator only (docs/sidebyside/push-raised.md); the
    /// kernel build refuses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub push_drop_raised: bool,
    /// A queue above [`super::STARTUP_QUEUE`] TARGET during the flow's ramp back from a
    /// slowdown (a newcomer's start-up, which met the flow's slowdown) makes the tests the
    /// suspicion asks for near TARGET holds rather than pushes, for
    /// [`super::STARTUP_MEMORY`] after it and while the last test was positive, until one
    /// reads negative. Default true; false is the rule before it, for
    /// comparisons in the simulator (the kernel build refuses it;
    /// docs/sidebyside/arrival-phase.md). Serialised only when off.
    #[serde(skip_serializing_if = "is_true")]
    pub startup_hold: bool,
    /// The start-up rule applies only on paths whose base RTT is at least this. Default
    /// [`super::STARTUP_MIN_BASE`] (30 ms); 0 applies it at every base RTT, as before the
    /// bound (the kernel build refuses any other value; docs/sidebyside/arrival-phase.md).
    /// Serialised only when not the default.
    #[serde(skip_serializing_if = "is_startup_min_base")]
    pub startup_min_base: Duration,
    /// A rate sample below `min_share` of the path's rate (on a busy link, the queue not
    /// above 1.1 TARGET, no positive test yet) neither starts a suspicion nor ends one
    /// begun. A flow left with a fifth to a quarter of the link samples on both sides of
    /// `min_share` (one sample spans 200 ms or an RTT), and a suspicion that ended at each
    /// sample below it never lasted `suspect_rtts`. Default true; false is the rule before
    /// it, for comparisons in the simulator (the kernel build refuses it;
    /// docs/sidebyside/arrival-phase.md). Serialised only when off.
    #[serde(skip_serializing_if = "is_true")]
    pub low_share_keeps: bool,
    /// A queue above [`super::STARTUP_QUEUE`] TARGET in the flow's ramp (the start-up
    /// rule's sign, `startup_hold`) ends the ramp: the flow goes back to congestion
    /// avoidance, whose decrease brings it down, rather than growing to its window before
    /// the slowdown into a FIFO that a newcomer's start-up is filling. Default false:
    /// tried in the simulator, where it made loss-based newcomers met by the flow's
    /// slowdown yield sooner from base RTTs of 40 ms on, but bbr arriving at 40 ms never
    /// yielded to twice as often (docs/sidebyside/arrival-phase.md); the kernel build
    /// refuses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub startup_exit: bool,
}

/// For `skip_serializing_if`: `startup_min_base` at its default.
fn is_startup_min_base(d: &Duration) -> bool {
    *d == super::STARTUP_MIN_BASE
}

/// For `skip_serializing_if`: a flag at its default of true.
fn is_true(b: &bool) -> bool {
    *b
}

impl Default for CompetitorConfig {
    fn default() -> Self {
        CompetitorConfig {
            enabled: false,
            share: 0.8,
            min_share: 0.2,
            suspect_rtts: 4.0,
            tests: 2,
            test_hold_rtts: 4.0,
            test_gap: Duration::from_secs(1),
            test_packets: 3.0,
            push_share: 0.3,
            push_drop: 0.15,
            quiet: Duration::from_secs(2),
            yield_share: 0.03,
            probe_interval: Duration::from_secs(1),
            probe_share: 0.5,
            confirm: Duration::from_millis(500),
            rate_window: Duration::from_secs(60),
            clean_spans: false,
            periodic_positive: false,
            push_drop_scaled: false,
            push_drop_raised: false,
            startup_hold: true,
            startup_min_base: super::STARTUP_MIN_BASE,
            low_share_keeps: true,
            startup_exit: false,
        }
    }
}

impl CompetitorConfig {
    /// Rejects nonsense; `controller` names the owner.
    pub fn validate_as(&self, controller: &'static str) -> Result<(), ConfigError> {
        let c = controller;
        in_range(c, "competitor.share", self.share, 0.0, 1.0)?;
        in_range(c, "competitor.min_share", self.min_share, 0.0, 1.0)?;
        in_range(c, "competitor.suspect_rtts", self.suspect_rtts, 0.0, 1e4)?;
        in_range(c, "competitor.tests", self.tests as f64, 1.0, 100.0)?;
        in_range(
            c,
            "competitor.test_hold_rtts",
            self.test_hold_rtts,
            1.0,
            100.0,
        )?;
        in_range(c, "competitor.test_packets", self.test_packets, 0.0, 1e4)?;
        in_range(c, "competitor.push_share", self.push_share, 0.0, 10.0)?;
        in_range(c, "competitor.push_drop", self.push_drop, 0.0, 1.0)?;
        in_range(c, "competitor.yield_share", self.yield_share, 1e-4, 1.0)?;
        in_range(c, "competitor.probe_share", self.probe_share, 1e-3, 1.0)?;
        nonzero(c, "competitor.probe_interval", self.probe_interval)?;
        nonzero(c, "competitor.rate_window", self.rate_window)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_errors_name_the_field() {
        let bad = CompetitorConfig {
            share: 1.5,
            ..CompetitorConfig::default()
        };
        assert_eq!(
            bad.validate_as("scavenger").unwrap_err().field,
            "competitor.share"
        );
        let bad = CompetitorConfig {
            probe_interval: Duration::ZERO,
            ..CompetitorConfig::default()
        };
        let e = bad.validate_as("scavenger").unwrap_err();
        assert_eq!(e.field, "competitor.probe_interval");
        assert!(CompetitorConfig::default().validate_as("scavenger").is_ok());
    }
}
