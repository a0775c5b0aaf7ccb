//! The path's rate as the competitor detection estimates it: the largest delivery-rate
//! sample over `rate_window` of time spent not yielding, kept in one-second buckets
//! (`C = max rate sample over rate_window`, the module documentation of
//! [`crate::competitor`]).

use crate::time::{Duration, Instant};

/// Width of the path-rate estimate's buckets (the window is `rate_window`).
const RATE_BUCKET: Duration = Duration::from_secs(1);

/// The largest delivery rate over a window of time spent not yielding, in one-second
/// buckets (a competitor that stays does not make the flow forget the path's rate).
#[derive(Clone, Debug, Default)]
pub(super) struct PathRate {
    /// Time counted so far (not yielding).
    pub(super) clock: Duration,
    pub(super) last: Option<Instant>,
    /// (bucket start on `clock`, largest sample in it), oldest first.
    pub(super) buckets: std::collections::VecDeque<(Duration, f64)>,
}

impl PathRate {
    /// Advances the clock to `now` unless `frozen`.
    pub(super) fn tick(&mut self, now: Instant, frozen: bool, window: Duration) {
        if let Some(l) = self.last {
            if !frozen {
                self.clock += now.saturating_since(l);
            }
        }
        self.last = Some(now);
        while self
            .buckets
            .front()
            .is_some_and(|&(t, _)| self.clock.saturating_sub(t) > window)
        {
            self.buckets.pop_front();
        }
    }

    pub(super) fn sample(&mut self, rate: f64) {
        match self.buckets.back_mut() {
            Some((t, m)) if self.clock.saturating_sub(*t) < RATE_BUCKET => *m = m.max(rate),
            _ => self.buckets.push_back((self.clock, rate)),
        }
    }

    pub(super) fn get(&self) -> f64 {
        self.buckets.iter().fold(0.0, |m, &(_, r)| m.max(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitor::test_util::at;

    const WINDOW: Duration = Duration::from_secs(3);

    #[test]
    fn the_rate_is_the_largest_sample_still_inside_the_window() {
        let mut p = PathRate::default();
        p.tick(at(0), false, WINDOW);
        p.sample(100.0);
        p.tick(at(500), false, WINDOW);
        // Same bucket as the first (it began at 0 s): it keeps the larger.
        p.sample(300.0);
        p.tick(at(1_200), false, WINDOW);
        // 1.2 s after the first bucket began: a new one.
        p.sample(200.0);
        assert_eq!(p.buckets.len(), 2);
        assert_eq!(p.get(), 300.0);
        // At 3.1 s the first bucket is 3.1 s old, past the 3-s window; the second 1.9 s.
        p.tick(at(3_100), false, WINDOW);
        assert_eq!(p.get(), 200.0);
        // At 4.3 s the second is 3.1 s old too.
        p.tick(at(4_300), false, WINDOW);
        assert_eq!(p.get(), 0.0);
    }

    #[test]
    fn time_spent_frozen_does_not_age_the_samples() {
        let mut p = PathRate::default();
        p.tick(at(0), false, WINDOW);
        p.sample(500.0);
        p.tick(at(2_000), false, WINDOW);
        // Ten seconds yielding: the clock stays at 2 s.
        p.tick(at(12_000), true, WINDOW);
        assert_eq!(p.get(), 500.0);
        // 1.5 s more not yielding: the clock at 3.5 s, the sample 3.5 s old.
        p.tick(at(13_500), false, WINDOW);
        assert_eq!(p.get(), 0.0);
    }
}
