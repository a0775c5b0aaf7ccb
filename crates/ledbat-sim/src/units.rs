//! Link rates as scenario files write them (`"10Mbps"`, `"1.5Mb/s"`, `"800kbps"`, `"inf"`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A rate in bits per second; [`Rate::INFINITE`] means no serialisation delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate(pub u64);

impl Rate {
    /// A link that serialises instantly.
    pub const INFINITE: Rate = Rate(u64::MAX);

    /// `n` bits per second.
    pub const fn bps(n: u64) -> Rate {
        Rate(n)
    }
    /// `n` megabits per second.
    pub const fn mbps(n: u64) -> Rate {
        Rate(n * 1_000_000)
    }
    /// `n` kilobits per second.
    pub const fn kbps(n: u64) -> Rate {
        Rate(n * 1_000)
    }
    /// Bits per second.
    pub const fn bits_per_sec(self) -> u64 {
        self.0
    }
    /// Whether this is [`Rate::INFINITE`].
    pub const fn is_infinite(self) -> bool {
        self.0 == u64::MAX
    }
    /// Time to serialise `bytes` bytes, in nanoseconds (0 on an infinite link).
    pub fn tx_time_ns(self, bytes: u32) -> u64 {
        if self.is_infinite() || self.0 == 0 {
            0
        } else {
            ((bytes as u128 * 8 * 1_000_000_000) / self.0 as u128) as u64
        }
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_infinite() {
            return write!(f, "inf");
        }
        for (unit, scale) in [
            ("Gbps", 1_000_000_000u64),
            ("Mbps", 1_000_000),
            ("kbps", 1_000),
        ] {
            if self.0 >= scale && self.0.is_multiple_of((scale / 1000).max(1)) {
                let v = self.0 as f64 / scale as f64;
                return write!(f, "{v}{unit}");
            }
        }
        write!(f, "{}bps", self.0)
    }
}

/// Why a rate string did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid rate `{0}`: expected a number and a unit among bps, kbps, Mbps, Gbps (also kb/s, Mb/s, Gb/s, Mbit/s), or `inf`")]
pub struct ParseRateError(pub String);

impl FromStr for Rate {
    type Err = ParseRateError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseRateError(s.to_string());
        let t = s.trim();
        if t == "inf" || t == "infinite" {
            return Ok(Rate::INFINITE);
        }
        let split = t.find(|c: char| c.is_ascii_alphabetic()).ok_or_else(err)?;
        let (num, unit) = t.split_at(split);
        let v: f64 = num.trim().parse().map_err(|_| err())?;
        if !v.is_finite() || v <= 0.0 {
            return Err(err());
        }
        let scale = match unit.trim() {
            "bps" | "b/s" | "bit/s" => 1.0,
            "kbps" | "kb/s" | "kbit/s" | "Kbps" => 1e3,
            "Mbps" | "Mb/s" | "Mbit/s" => 1e6,
            "Gbps" | "Gb/s" | "Gbit/s" => 1e9,
            _ => return Err(err()),
        };
        let bits = (v * scale).round();
        if bits < 1.0 || bits >= u64::MAX as f64 {
            return Err(err());
        }
        Ok(Rate(bits as u64))
    }
}

impl Serialize for Rate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_parses_common_spellings() {
        assert_eq!("10Mbps".parse::<Rate>().unwrap(), Rate::mbps(10));
        assert_eq!("1.5Mb/s".parse::<Rate>().unwrap(), Rate::kbps(1500));
        assert_eq!("800kbps".parse::<Rate>().unwrap(), Rate::kbps(800));
        assert_eq!("1Gbps".parse::<Rate>().unwrap(), Rate::mbps(1000));
        assert_eq!("inf".parse::<Rate>().unwrap(), Rate::INFINITE);
        for bad in ["", "10", "10 parsecs", "-1Mbps", "0Mbps"] {
            assert!(bad.parse::<Rate>().unwrap_err().to_string().contains(bad));
        }
    }

    #[test]
    fn rate_display_round_trips() {
        for r in [
            Rate::mbps(10),
            Rate::kbps(1500),
            Rate::kbps(800),
            Rate::bps(12345),
            Rate::INFINITE,
        ] {
            assert_eq!(r.to_string().parse::<Rate>().unwrap(), r, "{r}");
        }
    }

    #[test]
    fn serialisation_time_is_exact_for_round_rates() {
        assert_eq!(Rate::mbps(10).tx_time_ns(1500), 1_200_000);
        assert_eq!(Rate::mbps(1000).tx_time_ns(1500), 12_000);
        assert_eq!(Rate::INFINITE.tx_time_ns(1500), 0);
    }
}
