//! The one interface every congestion controller implements, and the events drivers feed it.
//!
//! A *driver* (the simulator's transport model, the uTP connection) owns packets, sequence
//! numbers, loss detection and timers; a *controller* owns the window. The contract:
//!
//! - the driver calls [`Controller::on_sent`] for every data packet it transmits,
//!   [`Controller::on_ack`] once per acknowledgement that newly acknowledges data,
//!   [`Controller::on_loss`] once per packet it declares lost (the controller decides which
//!   losses form one congestion event: it owns the once-per-RTT logic, typically by ignoring
//!   losses of packets sent before its last reduction), and [`Controller::on_timeout`] when
//!   a retransmission timer fires or the connection comes back from idle;
//! - the driver may transmit a new packet of `size` bytes at `now` when
//!   `in_flight + size <= window()` (or nothing is in flight), `now >= pause_until()`, and,
//!   if [`Controller::pacing_rate`] is `Some(r)`, at least `size / r` after the previous
//!   packet left. Retransmissions obey the same rule. When it has nothing to send although
//!   the window would allow it, it calls [`Controller::on_app_limited`] (rate-based
//!   controllers must not take the application's pace for the path's).
//!
//! Every method takes `now`; no controller reads a clock.
//!
//! Each controller comes with a configuration type implementing [`ControllerFactory`]: it
//! carries the registry name, rejects nonsense ([`ControllerFactory::validate`]) and builds
//! the controller ([`ControllerFactory::build`]). Config types get their chainable setters
//! (`LedbatConfig::default().target(t).gain(g)`) from `config_setters!` (below); string and TOML
//! parameters go through serde, so a config needs nothing else for `--cc-param k=v` or
//! scenario files. `ARCHITECTURE.md` ("Adding a controller") lists the steps.

use crate::error::ConfigError;
use crate::time::{Duration, Instant};
use crate::wire::DelaySample;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What one acknowledgement tells the controller.
#[derive(Clone, Copy, Debug)]
pub struct Ack<'a> {
    /// Bytes newly acknowledged (cumulatively or selectively) by this ACK.
    pub bytes_acked: u64,
    /// Packets newly acknowledged by this ACK.
    pub packets_acked: u32,
    /// Bytes in flight when the ACK arrived, *including* those it acknowledges: RFC 6817's
    /// `flightsize` in `cwnd <= flightsize + ALLOWED_INCREASE * MSS`.
    pub flight_before: u64,
    /// One-way-delay samples carried by the ACK, oldest first (usually one; several when a
    /// driver batches). Receiver clock minus sender timestamp, modulo 2^32 microseconds.
    pub delay_samples: &'a [DelaySample],
    /// An RTT sample, when the ACK acknowledges a packet that was not retransmitted
    /// (Karn's rule).
    pub rtt: Option<Duration>,
    /// A reverse-direction delay sample (delay the peer's packets see, measured here), for
    /// optional clock-drift correction.
    pub reverse_delay: Option<DelaySample>,
    /// Send time of the newest packet this ACK acknowledges (for per-RTT bookkeeping).
    pub newest_sent: Instant,
}

impl Ack<'_> {
    /// An ACK of `bytes` in `packets` packets with no delay or RTT information.
    pub fn bare(
        bytes: u64,
        packets: u32,
        flight_before: u64,
        newest_sent: Instant,
    ) -> Ack<'static> {
        Ack {
            bytes_acked: bytes,
            packets_acked: packets,
            flight_before,
            delay_samples: &[],
            rtt: None,
            reverse_delay: None,
            newest_sent,
        }
    }
}

/// A packet the driver has declared lost (by duplicate/selective ACKs, not by timeout).
#[derive(Clone, Copy, Debug)]
pub struct Loss {
    /// Size of the lost packet.
    pub bytes: u64,
    /// When the lost packet was (last) sent. Controllers ignore losses of packets sent
    /// before their last window reduction: that makes one reduction per RTT.
    pub sent_at: Instant,
    /// Bytes in flight when the loss was detected (lost bytes included).
    pub in_flight: u64,
}

/// Which timer fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timeout {
    /// Retransmission timeout: no ACK within the RTO (RFC 6817 calls it the congestion
    /// timeout, CTO). The driver backs the timer off; the controller shrinks its window.
    Retransmission,
    /// The sender was idle (nothing to send) for at least one RTO and has data again. The
    /// controller may restart from a smaller window (RFC 5681 section 4.1).
    Idle,
}

/// A snapshot of controller state for tracing, plots and progress bars.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Slow-start threshold, bytes, where the controller has one.
    pub ssthresh: Option<u64>,
    /// Estimated queuing delay.
    pub queuing_delay: Option<Duration>,
    /// Base one-way delay (wire units; true OWD when clocks are synchronised).
    pub base_delay: Option<Duration>,
    /// Pacing rate in bytes per second, where the controller paces.
    pub pacing_rate: Option<u64>,
    /// Short state name (`slow-start`, `avoidance`, `recovery`, `pause`, zone names...).
    pub state: &'static str,
    /// The gain in force (RFC GAIN units for LEDBATs, 1 where meaningless).
    pub gain: f64,
}

/// A congestion controller. See the module documentation for the driver contract.
///
/// Object-safe: user-defined controllers can be driven as `Box<dyn Controller>`.
pub trait Controller: std::fmt::Debug + Send {
    /// Registry name (`ledbat`, `cubic`, ...).
    fn name(&self) -> &'static str;
    /// A data packet of `bytes` left at `now`; `in_flight` counts it.
    fn on_sent(&mut self, now: Instant, bytes: u64, in_flight: u64);
    /// An acknowledgement newly acknowledged data.
    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>);
    /// A packet was declared lost.
    fn on_loss(&mut self, now: Instant, loss: &Loss);
    /// A timer fired.
    fn on_timeout(&mut self, now: Instant, kind: Timeout);
    /// Congestion window in bytes.
    fn window(&self) -> u64;
    /// Pacing rate in bytes per second, when the controller paces.
    fn pacing_rate(&self) -> Option<u64> {
        None
    }
    /// The driver had nothing to send at `now` although the window allowed it (the
    /// application is the limit), with `in_flight` bytes outstanding. Controllers that
    /// estimate the path's rate from their own deliveries ([`crate::delivery`]) mark the
    /// samples of that time; the default ignores it.
    fn on_app_limited(&mut self, _now: Instant, _in_flight: u64) {}
    /// The driver must not start new transmissions before this instant (a sending pause).
    fn pause_until(&self) -> Option<Instant> {
        None
    }
    /// The earliest instant at which the controller wants to be told the time even if
    /// nothing happens (for pauses and periodic slowdowns); drivers poll with
    /// [`Controller::on_tick`].
    fn next_tick(&self) -> Option<Instant> {
        None
    }
    /// Called by drivers at or after [`Controller::next_tick`].
    fn on_tick(&mut self, _now: Instant) {}
    /// The one-way delay samples that follow come from another source or on another scale
    /// than those before (a driver that falls back from one-way delays to RTTs, or learns
    /// that the peer's timestamp clock ticks at another rate than it assumed): controllers
    /// that keep a delay history forget it, so that the two scales never meet in one
    /// minimum (the window and loss state are kept). The default ignores it.
    fn on_delay_source_change(&mut self, _now: Instant) {}
    /// State snapshot.
    fn metrics(&self) -> Metrics;
}

impl<C: Controller + ?Sized> Controller for Box<C> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn on_sent(&mut self, now: Instant, bytes: u64, in_flight: u64) {
        (**self).on_sent(now, bytes, in_flight)
    }
    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        (**self).on_ack(now, ack)
    }
    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        (**self).on_loss(now, loss)
    }
    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        (**self).on_timeout(now, kind)
    }
    fn window(&self) -> u64 {
        (**self).window()
    }
    fn pacing_rate(&self) -> Option<u64> {
        (**self).pacing_rate()
    }
    fn on_app_limited(&mut self, now: Instant, in_flight: u64) {
        (**self).on_app_limited(now, in_flight)
    }
    fn pause_until(&self) -> Option<Instant> {
        (**self).pause_until()
    }
    fn next_tick(&self) -> Option<Instant> {
        (**self).next_tick()
    }
    fn on_tick(&mut self, now: Instant) {
        (**self).on_tick(now)
    }
    fn on_delay_source_change(&mut self, now: Instant) {
        (**self).on_delay_source_change(now)
    }
    fn metrics(&self) -> Metrics {
        (**self).metrics()
    }
}

/// A controller's configuration: it names, validates and builds its controller.
///
/// Scenario files, `--cc-param k=v` and `ledbat controllers NAME --param k=v` all reach a
/// config through serde (defaults from [`Default`], unknown keys refused by
/// `#[serde(default, deny_unknown_fields)]`), then [`ControllerFactory::validate`].
pub trait ControllerFactory: Default + Clone + Serialize + DeserializeOwned {
    /// The controller this configuration builds.
    type Controller: Controller;
    /// Registry name of that controller (`ledbat`, `cubic`, ...).
    const NAME: &'static str;
    /// Rejects nonsense with an error naming the field.
    fn validate(&self) -> Result<(), ConfigError>;
    /// Departures from the source's recommended limits (allowed, but reported).
    fn compliance_notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The controller for packets of `mss` bytes; fails when [`ControllerFactory::validate`]
    /// does.
    fn build(&self, mss: u32) -> Result<Self::Controller, ConfigError>;
}

/// Chainable setters `pub fn field(mut self, v: T) -> Self` for a config struct, one per
/// listed field: `config_setters!(MdConfig { target: Duration, beta: f64 });` gives
/// `MdConfig::default().target(t).beta(0.5)`. Every config type gets its setters this way.
macro_rules! config_setters {
    ($ty:ident { $( $field:ident : $fty:ty ),* $(,)? }) => {
        impl $ty {
            $(
                #[doc = concat!("Sets [`", stringify!($ty), "::", stringify!($field), "`].")]
                pub fn $field(mut self, v: $fty) -> Self {
                    self.$field = v;
                    self
                }
            )*
        }
    };
}
pub(crate) use config_setters;

/// Smoothed RTT and RTO per RFC 6298, for controllers that need an RTT estimate.
#[derive(Clone, Copy, Debug, Default)]
pub struct RttEstimator {
    srtt: Option<Duration>,
    rttvar: Duration,
    min: Option<Duration>,
    latest: Option<Duration>,
}

impl RttEstimator {
    /// Feeds one sample (RFC 6298 section 2).
    pub fn on_sample(&mut self, r: Duration) {
        self.latest = Some(r);
        self.min = Some(self.min.map_or(r, |m| m.min(r)));
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(s) => {
                let diff = if s > r { s - r } else { r - s };
                // rttvar = 3/4 rttvar + 1/4 |srtt - r|; srtt = 7/8 srtt + 1/8 r
                self.rttvar =
                    Duration::from_nanos((3 * self.rttvar.as_nanos() + diff.as_nanos()) / 4);
                self.srtt = Some(Duration::from_nanos((7 * s.as_nanos() + r.as_nanos()) / 8));
            }
        }
    }
    /// Smoothed RTT.
    pub fn srtt(&self) -> Option<Duration> {
        self.srtt
    }
    /// Minimum RTT seen.
    pub fn min(&self) -> Option<Duration> {
        self.min
    }
    /// Latest sample.
    pub fn latest(&self) -> Option<Duration> {
        self.latest
    }
    /// RTT variation.
    pub fn rttvar(&self) -> Duration {
        self.rttvar
    }
    /// `srtt + max(G, 4 rttvar)` clamped below by `floor` (RFC 6298 section 2.3; the
    /// RFC's floor is 1 s, drivers choose), 1 s before any sample.
    pub fn rto(&self, granularity: Duration, floor: Duration) -> Duration {
        match self.srtt {
            None => Duration::from_secs(1).max(floor),
            Some(s) => (s + (self.rttvar * 4).max(granularity)).max(floor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rtt_estimator_follows_rfc6298() {
        let mut r = RttEstimator::default();
        r.on_sample(Duration::from_millis(100));
        assert_eq!(r.srtt(), Some(Duration::from_millis(100)));
        assert_eq!(r.rttvar(), Duration::from_millis(50));
        r.on_sample(Duration::from_millis(200));
        // rttvar = 0.75*50 + 0.25*100 = 62.5; srtt = 0.875*100 + 0.125*200 = 112.5
        assert_eq!(r.rttvar(), Duration::from_micros(62_500));
        assert_eq!(r.srtt(), Some(Duration::from_micros(112_500)));
        assert_eq!(
            r.rto(Duration::from_millis(1), Duration::ZERO),
            Duration::from_micros(112_500 + 250_000)
        );
        assert_eq!(r.min(), Some(Duration::from_millis(100)));
    }
}
