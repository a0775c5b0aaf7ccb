//! Integer time for a sans-IO core.
//!
//! [`Instant`] and [`Duration`] count nanoseconds in a `u64`, enough for 584 years of
//! simulated time. Nothing in the core reads a clock: every entry point takes `now`.
//! Wire clocks are different: uTP stamps packets with a 32-bit microsecond clock that wraps
//! every 71.6 minutes; those values live in [`crate::wire`], not here.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Sub, SubAssign};
use std::str::FromStr;

/// A point in time, in nanoseconds since an epoch chosen by the driver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(u64);

/// A span of time in nanoseconds. Subtraction saturates at zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(u64);

impl Instant {
    /// The driver's epoch.
    pub const ZERO: Instant = Instant(0);

    /// An instant `ns` nanoseconds after the epoch.
    pub const fn from_nanos(ns: u64) -> Self {
        Instant(ns)
    }
    /// An instant `us` microseconds after the epoch.
    pub const fn from_micros(us: u64) -> Self {
        Instant(us * 1_000)
    }
    /// An instant `ms` milliseconds after the epoch.
    pub const fn from_millis(ms: u64) -> Self {
        Instant(ms * 1_000_000)
    }
    /// An instant `s` seconds after the epoch.
    pub const fn from_secs(s: u64) -> Self {
        Instant(s * 1_000_000_000)
    }
    /// Nanoseconds since the epoch.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// Whole microseconds since the epoch.
    pub const fn as_micros(self) -> u64 {
        self.0 / 1_000
    }
    /// Seconds since the epoch as a float (for reports and plots only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// Time elapsed from `earlier` to `self`, or zero if `earlier` is later.
    pub const fn saturating_since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
    /// `self + d`, or `None` on overflow.
    pub const fn checked_add(self, d: Duration) -> Option<Instant> {
        match self.0.checked_add(d.0) {
            Some(v) => Some(Instant(v)),
            None => None,
        }
    }
}

impl Duration {
    /// No time at all.
    pub const ZERO: Duration = Duration(0);
    /// The longest representable span.
    pub const MAX: Duration = Duration(u64::MAX);

    /// `ns` nanoseconds.
    pub const fn from_nanos(ns: u64) -> Self {
        Duration(ns)
    }
    /// `us` microseconds.
    pub const fn from_micros(us: u64) -> Self {
        Duration(us * 1_000)
    }
    /// `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms * 1_000_000)
    }
    /// `s` seconds.
    pub const fn from_secs(s: u64) -> Self {
        Duration(s * 1_000_000_000)
    }
    /// Seconds as a float, rounded to the nearest nanosecond; negative or NaN gives zero.
    pub fn from_secs_f64(s: f64) -> Self {
        if s.is_nan() || s <= 0.0 {
            Duration(0)
        } else if s >= u64::MAX as f64 * 1e-9 {
            Duration::MAX
        } else {
            Duration((s * 1e9).round() as u64)
        }
    }
    /// Nanoseconds.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// Whole microseconds.
    pub const fn as_micros(self) -> u64 {
        self.0 / 1_000
    }
    /// Whole milliseconds.
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000_000
    }
    /// Seconds as a float.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// Milliseconds as a float.
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 * 1e-6
    }
    /// `self * k` for a non-negative float factor, saturating.
    pub fn mul_f64(self, k: f64) -> Duration {
        Duration::from_secs_f64(self.as_secs_f64() * k)
    }
    /// `self - other`, or zero.
    pub const fn saturating_sub(self, other: Duration) -> Duration {
        Duration(self.0.saturating_sub(other.0))
    }
    /// `self + other`, saturating at [`Duration::MAX`].
    pub const fn saturating_add(self, other: Duration) -> Duration {
        Duration(self.0.saturating_add(other.0))
    }
    /// Whether this is zero.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl Add<Duration> for Instant {
    type Output = Instant;
    fn add(self, d: Duration) -> Instant {
        Instant(self.0.saturating_add(d.0))
    }
}
impl AddAssign<Duration> for Instant {
    fn add_assign(&mut self, d: Duration) {
        *self = *self + d;
    }
}
impl Sub<Duration> for Instant {
    type Output = Instant;
    fn sub(self, d: Duration) -> Instant {
        Instant(self.0.saturating_sub(d.0))
    }
}
impl Sub<Instant> for Instant {
    type Output = Duration;
    /// Saturating: an earlier `self` gives zero.
    fn sub(self, earlier: Instant) -> Duration {
        self.saturating_since(earlier)
    }
}
impl Add for Duration {
    type Output = Duration;
    fn add(self, o: Duration) -> Duration {
        self.saturating_add(o)
    }
}
impl AddAssign for Duration {
    fn add_assign(&mut self, o: Duration) {
        *self = *self + o;
    }
}
impl Sub for Duration {
    type Output = Duration;
    fn sub(self, o: Duration) -> Duration {
        self.saturating_sub(o)
    }
}
impl SubAssign for Duration {
    fn sub_assign(&mut self, o: Duration) {
        *self = *self - o;
    }
}
impl Mul<u64> for Duration {
    type Output = Duration;
    fn mul(self, k: u64) -> Duration {
        Duration(self.0.saturating_mul(k))
    }
}
impl Div<u64> for Duration {
    type Output = Duration;
    fn div(self, k: u64) -> Duration {
        Duration(self.0 / k.max(1))
    }
}

impl From<std::time::Duration> for Duration {
    fn from(d: std::time::Duration) -> Self {
        Duration(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
    }
}
impl From<Duration> for std::time::Duration {
    fn from(d: Duration) -> Self {
        std::time::Duration::from_nanos(d.0)
    }
}

impl fmt::Display for Duration {
    /// Shortest exact form among `ns`, `us`, `ms` and `s`: `25ms`, `1.5s`, `100us`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.0;
        if ns == 0 {
            return write!(f, "0s");
        }
        for (unit, scale) in [("s", 1_000_000_000u64), ("ms", 1_000_000), ("us", 1_000)] {
            if ns < scale {
                continue;
            }
            let (whole, frac) = (ns / scale, ns % scale);
            if frac == 0 {
                return write!(f, "{whole}{unit}");
            }
            // Up to three decimals when they are exact, else try the next smaller unit.
            let milli = scale / 1_000;
            if frac % milli == 0 {
                let digits = format!("{:03}", frac / milli);
                return write!(f, "{whole}.{}{unit}", digits.trim_end_matches('0'));
            }
        }
        write!(f, "{ns}ns")
    }
}

/// Why a duration string did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid duration `{input}`: expected a number followed by ns, us, ms, s or min (for example `25ms`)")]
pub struct ParseDurationError {
    /// The text that failed to parse.
    pub input: String,
}

impl FromStr for Duration {
    type Err = ParseDurationError;
    /// Parses `<number><unit>` with unit one of `ns`, `us`, `ms`, `s`, `min`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseDurationError {
            input: s.to_string(),
        };
        let t = s.trim();
        let split = t.find(|c: char| c.is_ascii_alphabetic()).ok_or_else(err)?;
        let (num, unit) = t.split_at(split);
        let value: f64 = num.trim().parse().map_err(|_| err())?;
        if !value.is_finite() || value < 0.0 {
            return Err(err());
        }
        let scale = match unit.trim() {
            "ns" => 1e-9,
            "us" | "µs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "min" => 60.0,
            _ => return Err(err()),
        };
        Ok(Duration::from_secs_f64(value * scale))
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instant_arithmetic_saturates_instead_of_wrapping() {
        let a = Instant::from_millis(5);
        let b = Instant::from_millis(7);
        assert_eq!(b - a, Duration::from_millis(2));
        assert_eq!(a - b, Duration::ZERO);
        assert_eq!(a - Duration::from_secs(1), Instant::ZERO);
    }

    #[test]
    fn duration_parses_every_unit() {
        assert_eq!(
            "25ms".parse::<Duration>().unwrap(),
            Duration::from_millis(25)
        );
        assert_eq!(
            "1.5s".parse::<Duration>().unwrap(),
            Duration::from_millis(1500)
        );
        assert_eq!(
            "100us".parse::<Duration>().unwrap(),
            Duration::from_micros(100)
        );
        assert_eq!(
            "2min".parse::<Duration>().unwrap(),
            Duration::from_secs(120)
        );
        assert_eq!("7ns".parse::<Duration>().unwrap(), Duration::from_nanos(7));
    }

    #[test]
    fn duration_rejects_garbage_with_the_input_in_the_message() {
        for bad in ["", "ms", "12", "-3ms", "NaNs", "3 parsecs", "infs"] {
            let e = bad.parse::<Duration>().unwrap_err();
            assert!(e.to_string().contains(bad), "{e}");
        }
    }

    #[test]
    fn duration_display_round_trips() {
        for d in [
            Duration::from_millis(25),
            Duration::from_millis(1500),
            Duration::from_micros(100),
            Duration::from_nanos(12345),
            Duration::from_secs(60),
            Duration::ZERO,
        ] {
            let s = d.to_string();
            assert_eq!(s.parse::<Duration>().unwrap(), d, "{s}");
        }
        assert_eq!(Duration::from_millis(25).to_string(), "25ms");
        assert_eq!(Duration::from_millis(1500).to_string(), "1.5s");
    }
}
