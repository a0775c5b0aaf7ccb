//! Wrap-safe arithmetic on the 32-bit microsecond clocks that carry one-way delay.
//!
//! RFC 6817 section 3.1 and BEP 29: the sender stamps each packet with its own clock,
//! `timestamp_microseconds` modulo 2^32; the receiver computes
//! `delay = local_clock - timestamp` modulo 2^32 and returns it. The two clocks are not
//! synchronised, so a sample is `true_delay + offset (+ drift)`; the offset cancels in
//! `current - base`, and that subtraction must be done modulo 2^32 because either clock may
//! wrap (every 71.6 minutes) between two samples.

use crate::time::Instant;

/// A 32-bit microsecond wire timestamp (wraps every 2^32 us, about 71.6 minutes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Timestamp32(pub u32);

/// One one-way-delay sample as carried by uTP: receiver clock minus sender timestamp,
/// modulo 2^32, in microseconds. Only differences between samples are meaningful.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DelaySample(pub u32);

impl Timestamp32 {
    /// The wire value of a local clock reading `now` whose microsecond counter is offset
    /// by `offset_us` (the simulator models per-host clock offset this way).
    pub fn from_instant(now: Instant, offset_us: u64) -> Self {
        Timestamp32(now.as_micros().wrapping_add(offset_us) as u32)
    }

    /// `self - earlier` modulo 2^32 as a signed difference: correct as long as the true
    /// difference lies within +/- 2^31 microseconds (35.8 minutes).
    pub fn diff(self, earlier: Timestamp32) -> i64 {
        self.0.wrapping_sub(earlier.0) as i32 as i64
    }

    /// The delay sample a receiver computes for a packet stamped `sent` and read at `self`.
    pub fn delay_since(self, sent: Timestamp32) -> DelaySample {
        DelaySample(self.0.wrapping_sub(sent.0))
    }
}

impl DelaySample {
    /// `self - other` in microseconds, wrap-safe (see [`Timestamp32::diff`]).
    pub fn diff(self, other: DelaySample) -> i64 {
        self.0.wrapping_sub(other.0) as i32 as i64
    }
}

/// Turns a stream of wrapping 32-bit samples into a continuous `i64` microsecond line.
///
/// Each sample is placed at `previous + (sample - previous_raw) mod 2^32` read as a signed
/// 32-bit step, so a sequence that crosses the wrap point keeps increasing. Consecutive
/// samples must differ by less than 2^31 us, which any delay that a congestion controller
/// could act on satisfies.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unwrapper {
    last: Option<(u32, i64)>,
}

impl Unwrapper {
    /// The continuous value of `raw`.
    pub fn unwrap(&mut self, raw: u32) -> i64 {
        let v = match self.last {
            None => raw as i64,
            Some((prev_raw, prev)) => prev + raw.wrapping_sub(prev_raw) as i32 as i64,
        };
        self.last = Some((raw, v));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamp_difference_survives_the_wrap() {
        let before = Timestamp32(u32::MAX - 10);
        let after = Timestamp32(5);
        assert_eq!(after.diff(before), 16);
        assert_eq!(before.diff(after), -16);
    }

    #[test]
    fn delay_sample_cancels_clock_offset() {
        // Same true delay (40 ms), receiver clock 3 hours ahead: both samples share the
        // offset and their difference is the change of true delay.
        let offset: u64 = 3 * 3600 * 1_000_000;
        let send1 = Instant::from_millis(1000);
        let send2 = Instant::from_millis(2000);
        let s1 = Timestamp32::from_instant(send1 + crate::Duration::from_millis(40), offset)
            .delay_since(Timestamp32::from_instant(send1, 0));
        let s2 = Timestamp32::from_instant(send2 + crate::Duration::from_millis(55), offset)
            .delay_since(Timestamp32::from_instant(send2, 0));
        assert_eq!(s2.diff(s1), 15_000);
    }

    #[test]
    fn unwrapper_is_continuous_across_the_wrap() {
        let mut u = Unwrapper::default();
        let a = u.unwrap(u32::MAX - 1);
        let b = u.unwrap(3);
        let c = u.unwrap(u32::MAX);
        assert_eq!(b - a, 5);
        assert_eq!(c - b, -4);
    }
}
