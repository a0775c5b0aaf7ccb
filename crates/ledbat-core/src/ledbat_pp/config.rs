//! `ledbat++`'s parameters (`LedbatPpConfig`): their defaults (draft-irtf-iccrg-ledbat-plus-plus-01
//! and this crate's extensions, each off unless a preset turns it on), their ranges, and
//! how a configuration departs from the draft.

use super::LedbatPp;
use crate::competitor::CompetitorConfig;
use crate::controller::{config_setters, ControllerFactory};
use crate::delay::DelayConfig;
use crate::error::{in_range, ConfigError};
use crate::ledbat::LedbatConfig;
use crate::slowdown::SlowdownConfig;
use crate::time::Duration;
use serde::{Deserialize, Serialize};

/// Parameters of `ledbat++`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LedbatPpConfig {
    /// Round-trip queuing-delay target. Default 60 ms (draft-irtf-iccrg-ledbat-plus-plus-01).
    pub target: Duration,
    /// Largest gain divisor: `GAIN = 1 / min(max_gain_divisor, ceil(2 TARGET / base))`.
    /// Default 16 (draft -01).
    pub max_gain_divisor: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2; the slowdown window).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (draft -01: slow start from 2 packets).
    pub init_cwnd: f64,
    /// Initial (modified) slow start. Default on (draft -01).
    pub slow_start: bool,
    /// Slow start ends when the queuing delay exceeds this fraction of TARGET. Default 0.75
    /// (draft -01).
    pub slow_start_exit: f64,
    /// Periodic slowdowns. Default on (draft -01).
    pub periodic_slowdown: bool,
    /// RTTs between the end of the initial slow start and the first slowdown. Default 2
    /// (draft -01).
    pub first_slowdown_rtts: f64,
    /// RTTs the window is held at 2 packets in a slowdown. Default 2 (draft -01).
    pub slowdown_hold_rtts: f64,
    /// The next slowdown starts this many times the last slowdown's duration after it
    /// ended. Default 9 (draft -01).
    pub slowdown_interval: f64,
    /// Whether a slowdown's ramp back to `ssthresh` also ends when the queuing delay
    /// exceeds `slow_start_exit * TARGET`, like the initial slow start. Default true (our
    /// reading of draft -01, which ramps "with slow start"). With false the ramp always
    /// returns to the window held before the slowdown (unless a loss ends it): a flow whose
    /// slowdown does not empty the queue, because other flows keep it above 3/4 TARGET, then
    /// keeps its window instead of restarting its additive increase from 2 packets.
    pub ramp_delay_exit: bool,
    /// Joining other flows' slowdowns (our extension; 0 = off, the draft). When positive,
    /// a flow in congestion avoidance that sees another flow's slowdown drain the shared
    /// queue (its queuing delay falls to `slowdown_join * TARGET` from a queue that stood
    /// above it for an RTT, by more than the flow's own flight explains) starts its own
    /// slowdown at once, if its last one ended at least 4 RTTs ago ([`crate::slowdown`]
    /// gives the rule). Slowdowns then overlap, the queue empties, and a latecomer measures
    /// the true base delay instead of the one it found under the first flow's queue.
    pub slowdown_join: f64,
    /// Smallest window held in a slowdown, packets. Default 2 (draft -01).
    pub slowdown_hold_packets: f64,
    /// Hold a share of the window in a slowdown (our extension; 0 = off, the draft). When
    /// positive, from its second slowdown on a flow holds `max(slowdown_hold_packets,
    /// slowdown_hold_bdp * cwnd * base / (base + qd))`: that share of the part of its
    /// window that is in flight rather than queued, so that the queue drains while the link
    /// stays busy (see [`LedbatPp::hold_window`]).
    pub slowdown_hold_bdp: f64,
    /// A flow that joins another flow's slowdown sends nothing during its hold when less
    /// than one packet of its window is in flight rather than queued at a queue of TARGET
    /// (`cwnd * base / (base + TARGET) < 1 MSS`, a base RTT near zero), our extension;
    /// default false (the draft). Any
    /// packet it held would sit in the queue, and the flow that started the slowdown (a
    /// latecomer's first) would measure a base RTT one packet too high. Its next slowdown
    /// then comes after half the interval, so that it starts it and the others join: the
    /// roles alternate, and each flow measures the base in turn.
    pub slowdown_join_pause: bool,
    /// Conservative slow start (our extension, after RFC 9406 and RFC 3742; default false,
    /// the draft): every slow start grows a quarter as fast once the queuing delay exceeds
    /// a few ms, and at most 50 packets per RTT above 100 packets ([`crate::slow_start`]).
    pub conservative_slow_start: bool,
    /// Slow start again after an RTT of empty queue (our extension; default false, the
    /// draft): cross traffic has left, or a stall of the receiver cut the window; the
    /// draft's `+GAIN` per RTT would take about a BDP of RTTs to refill the link
    /// ([`crate::slow_start`]).
    pub empty_queue_restart: bool,
    /// Largest factor by which the time between slowdowns grows while they find the base
    /// where it was (our extension; default 1, the draft's fixed interval): each slowdown whose
    /// hold drained the queue without finding a lower base doubles the factor, any other
    /// puts it back to 1 ([`crate::slowdown::Slowdowns::found_base`]). The flow's own base is
    /// then known; a latecomer measures its own in its first slowdown, which this flow joins.
    pub slowdown_backoff: f64,
    /// Judge another flow's slowdown by the flight of the last RTTs, and keep the
    /// empty-queue restart from refilling the queue while a join may come (our extension;
    /// default false). Off in every preset; the kernel build mirrors it
    /// ([`crate::slowdown`], "recent"; docs/tcp/measured.md).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub slowdown_join_recent: bool,
    /// Competitor detection ([`crate::competitor`]; our extension, off by default, on in
    /// the `scavenger` preset).
    pub competitor: CompetitorConfig,
    /// Delay estimation, applied to RTT samples. Default RFC 6817 section 3.4.2.
    pub delay: DelayConfig,
}

impl Default for LedbatPpConfig {
    fn default() -> Self {
        LedbatPpConfig {
            target: Duration::from_millis(60),
            max_gain_divisor: 16.0,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            slow_start: true,
            slow_start_exit: 0.75,
            periodic_slowdown: true,
            first_slowdown_rtts: 2.0,
            slowdown_hold_rtts: 2.0,
            slowdown_interval: 9.0,
            ramp_delay_exit: true,
            slowdown_join: 0.0,
            slowdown_hold_packets: 2.0,
            slowdown_hold_bdp: 0.0,
            slowdown_join_pause: false,
            conservative_slow_start: false,
            empty_queue_restart: false,
            slowdown_backoff: 1.0,
            slowdown_join_recent: false,
            competitor: CompetitorConfig::default(),
            delay: DelayConfig::default(),
        }
    }
}

config_setters!(LedbatPpConfig {
    target: Duration,
    max_gain_divisor: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    slow_start: bool,
    slow_start_exit: f64,
    periodic_slowdown: bool,
    first_slowdown_rtts: f64,
    slowdown_hold_rtts: f64,
    slowdown_interval: f64,
    ramp_delay_exit: bool,
    slowdown_join: f64,
    slowdown_hold_packets: f64,
    slowdown_hold_bdp: f64,
    slowdown_join_pause: bool,
    conservative_slow_start: bool,
    empty_queue_restart: bool,
    slowdown_backoff: f64,
    slowdown_join_recent: bool,
    competitor: CompetitorConfig,
    delay: DelayConfig,
});

impl LedbatPpConfig {
    pub(super) fn base(&self) -> LedbatConfig {
        LedbatConfig {
            target: self.target,
            gain: 1.0,
            allowed_increase: self.allowed_increase,
            min_cwnd: self.min_cwnd,
            init_cwnd: self.init_cwnd,
            slow_start: false,
            slow_start_exit: self.slow_start_exit,
            delay: self.delay,
        }
    }

    /// The slowdown timing of this configuration.
    pub(super) fn slowdown_config(&self) -> SlowdownConfig {
        SlowdownConfig {
            first_rtts: self.first_slowdown_rtts,
            hold_rtts: self.slowdown_hold_rtts,
            interval: self.slowdown_interval,
            join: self.slowdown_join,
            max_backoff: self.slowdown_backoff,
            join_recent: self.slowdown_join_recent,
        }
    }

    /// `GAIN = 1 / min(max_gain_divisor, ceil(2 * TARGET / base_rtt))` (draft -01); a zero
    /// base gives the smallest gain.
    pub fn gain_for_base(&self, base_rtt: Duration) -> f64 {
        let b = base_rtt.as_nanos() as f64;
        let ratio = if b > 0.0 {
            (2.0 * self.target.as_nanos() as f64 / b).ceil()
        } else {
            f64::INFINITY
        };
        1.0 / ratio.clamp(1.0, self.max_gain_divisor)
    }
}

impl LedbatPpConfig {
    /// Rejects nonsense; `controller` names the owner in the error (`ledbat++`, or a
    /// preset built on this config).
    pub fn validate_as(&self, controller: &'static str) -> Result<(), ConfigError> {
        self.base().validate_as(controller)?;
        let ranges = [
            ("max_gain_divisor", self.max_gain_divisor, 1.0, 1e6),
            ("first_slowdown_rtts", self.first_slowdown_rtts, 0.0, 1e3),
            ("slowdown_hold_rtts", self.slowdown_hold_rtts, 0.0, 1e3),
            ("slowdown_interval", self.slowdown_interval, 0.0, 1e6),
            ("slowdown_join", self.slowdown_join, 0.0, 1.0),
            (
                "slowdown_hold_packets",
                self.slowdown_hold_packets,
                1.0,
                1e3,
            ),
            ("slowdown_hold_bdp", self.slowdown_hold_bdp, 0.0, 1.0),
            ("slowdown_backoff", self.slowdown_backoff, 1.0, 1e3),
        ];
        for (field, value, lo, hi) in ranges {
            in_range(controller, field, value, lo, hi)?;
        }
        self.competitor.validate_as(controller)
    }

    /// Ways in which this config departs from draft -01 (allowed, but reported).
    pub fn departures_from_draft(&self) -> Vec<String> {
        let mut v = self.base().compliance_notes();
        let d = LedbatPpConfig::default();
        let ext = "extension of this crate, not in draft -01";
        if self.target != d.target {
            v.push(format!(
                "TARGET {} differs from LEDBAT++'s 60 ms",
                self.target
            ));
        }
        if self.max_gain_divisor != d.max_gain_divisor {
            v.push(format!(
                "max_gain_divisor {} differs from LEDBAT++'s 16",
                self.max_gain_divisor
            ));
        }
        if !self.periodic_slowdown {
            v.push("periodic slowdown disabled (LEDBAT++ requires it)".to_string());
        }
        if !self.ramp_delay_exit {
            v.push(format!(
                "a slowdown's ramp ignores the queuing delay and returns to ssthresh ({ext})"
            ));
        }
        if self.slowdown_join > 0.0 {
            v.push(format!(
                "joins other flows' slowdowns below {} x TARGET ({ext})",
                self.slowdown_join
            ));
        }
        if self.slowdown_hold_packets != d.slowdown_hold_packets {
            v.push(format!(
                "a slowdown holds at least {} packets, not 2 ({ext})",
                self.slowdown_hold_packets
            ));
        }
        if self.slowdown_hold_bdp > 0.0 {
            v.push(format!(
                "a slowdown after the first holds {} of the window in flight ({ext})",
                self.slowdown_hold_bdp
            ));
        }
        if self.slowdown_join_pause {
            v.push(format!(
                "a flow joining another's slowdown pauses when under a packet of its window \
                 is in flight ({ext})"
            ));
        }
        if self.conservative_slow_start {
            v.push(format!(
                "slow start grows a quarter as fast above a few ms of queue, RFC 9406 and \
                 RFC 3742 ({ext})"
            ));
        }
        if self.empty_queue_restart {
            v.push(format!(
                "slow start again after an RTT of empty queue ({ext})"
            ));
        }
        if self.slowdown_backoff > 1.0 {
            v.push(format!(
                "slowdowns that find the base unchanged space the next up to {} times further \
                 ({ext})",
                self.slowdown_backoff
            ));
        }
        if self.competitor.enabled {
            v.push(format!(
                "detects competitors that do not yield and yields to them ({ext})"
            ));
        }
        v
    }
}

impl ControllerFactory for LedbatPpConfig {
    type Controller = LedbatPp;
    const NAME: &'static str = LedbatPp::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.validate_as(Self::NAME)
    }

    fn compliance_notes(&self) -> Vec<String> {
        self.departures_from_draft()
    }

    fn build(&self, mss: u32) -> Result<LedbatPp, ConfigError> {
        LedbatPp::new(*self, mss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(LedbatPpConfig, &str); 10] = [
            (
                LedbatPpConfig::default().slowdown_hold_bdp(1.1),
                "slowdown_hold_bdp",
            ),
            (
                LedbatPpConfig::default().slowdown_hold_packets(0.5),
                "slowdown_hold_packets",
            ),
            (
                LedbatPpConfig::default().slowdown_hold_packets(f64::NAN),
                "slowdown_hold_packets",
            ),
            (
                LedbatPpConfig::default().slowdown_join(1.5),
                "slowdown_join",
            ),
            (
                LedbatPpConfig::default().slowdown_join(-0.1),
                "slowdown_join",
            ),
            (LedbatPpConfig::default().target(Duration::ZERO), "target"),
            (
                LedbatPpConfig::default().max_gain_divisor(0.5),
                "max_gain_divisor",
            ),
            (
                LedbatPpConfig::default().slowdown_interval(f64::NAN),
                "slowdown_interval",
            ),
            (
                LedbatPpConfig::default().slowdown_hold_rtts(-1.0),
                "slowdown_hold_rtts",
            ),
            (
                LedbatPpConfig::default().first_slowdown_rtts(f64::INFINITY),
                "first_slowdown_rtts",
            ),
        ];
        for (cfg, field) in cases {
            let e = cfg.validate().unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
        assert!(LedbatPpConfig::default().compliance_notes().is_empty());
        let notes = LedbatPpConfig::default()
            .target(Duration::from_millis(100))
            .compliance_notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
    }
}
