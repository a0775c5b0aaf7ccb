//! Small statistics helpers, the one copy the simulator, its swarm report and
//! `ledbat-repro` use: running mean and variance (Welford), a fixed-size log-linear
//! histogram for percentiles without per-sample storage, the queue left by each dequeue
//! ([`DequeueStats`]), the mean and interpolated quantiles of a sample, Jain's fairness
//! index, and Student-t confidence intervals.

use crate::queue::Dequeue;

/// Running mean and variance (Welford's algorithm).
#[derive(Clone, Copy, Debug, Default)]
pub struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    /// Adds one sample.
    #[inline]
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }
    /// Number of samples.
    pub fn count(&self) -> u64 {
        self.n
    }
    /// Mean (0 without samples).
    pub fn mean(&self) -> f64 {
        self.mean
    }
    /// Population standard deviation (0 with fewer than two samples).
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / self.n as f64).sqrt()
        }
    }
}

/// Log-linear histogram of non-negative integers: exact below 64, then 32 buckets per
/// power of two (relative error below 3.2 %). Fixed memory (1,216 counters).
#[derive(Clone, Debug)]
pub struct LogHistogram {
    counts: Vec<u64>,
    total: u64,
}

const SUB: u32 = 32;
const BUCKETS: usize = 64 + 36 * SUB as usize;

impl Default for LogHistogram {
    fn default() -> Self {
        LogHistogram {
            counts: vec![0; BUCKETS],
            total: 0,
        }
    }
}

impl LogHistogram {
    fn index(v: u64) -> usize {
        if v < 64 {
            return v as usize;
        }
        let bits = 63 - v.leading_zeros(); // >= 6
        let e = bits - 5; // shift so that the top 6 bits remain: 32..63
        let sub = (v >> e) as u32 - SUB;
        (64 + (e - 1) * SUB + sub).min(BUCKETS as u32 - 1) as usize
    }
    fn lower(i: usize) -> u64 {
        if i < 64 {
            return i as u64;
        }
        let k = (i - 64) as u32;
        let e = k / SUB + 1;
        let sub = (k % SUB + SUB) as u64;
        sub << e
    }
    /// Adds one value.
    #[inline]
    pub fn add(&mut self, v: u64) {
        self.counts[Self::index(v)] += 1;
        self.total += 1;
    }
    /// Number of values.
    pub fn count(&self) -> u64 {
        self.total
    }
    /// The `q`-quantile (0..=1), as the midpoint of its bucket; `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut acc = 0;
        for (i, c) in self.counts.iter().enumerate() {
            acc += c;
            if acc >= rank {
                let lo = Self::lower(i) as f64;
                let hi = if i + 1 < BUCKETS {
                    Self::lower(i + 1) as f64
                } else {
                    lo
                };
                return Some(if i < 64 { lo } else { (lo + hi) / 2.0 });
            }
        }
        None
    }
}

/// Arithmetic mean, if `xs` is not empty.
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Median (mean of the two middle values for an even count), if `xs` is not empty.
pub fn median(xs: &[f64]) -> Option<f64> {
    quantile(xs, 0.5)
}

/// The `q` quantile (0..=1) by linear interpolation between order statistics (position
/// `q (n - 1)` of the sorted sample), if `xs` is not empty.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (s.len() - 1) as f64;
    let (lo, frac) = (pos.floor() as usize, pos.fract());
    Some(if lo + 1 < s.len() {
        s[lo] + frac * (s[lo + 1] - s[lo])
    } else {
        s[lo]
    })
}

/// Jain's fairness index `(sum x)^2 / (n sum x^2)`: 1 for a perfectly even share, 1/n when
/// one has everything. `None` for an empty sample or all zero.
pub fn jain(xs: &[f64]) -> Option<f64> {
    let n = xs.len() as f64;
    let s: f64 = xs.iter().sum();
    let s2: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || s2 <= 0.0 {
        None
    } else {
        Some(s * s / (n * s2))
    }
}

/// Two-sided 97.5 % quantiles of Student's t for 1..=30 degrees of freedom (the standard
/// table).
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The 0.975 quantile of Student's t with `dof` degrees of freedom: the table up to 30,
/// beyond it the Cornish-Fisher expansion around the normal quantile z,
/// `z + (z^3 + z) / 4n + (5 z^5 + 16 z^3 + 3 z) / 96 n^2` (error below 1e-4). NaN for 0.
pub fn t975(dof: usize) -> f64 {
    match dof {
        0 => f64::NAN,
        d if d <= 30 => T975[d - 1],
        d => {
            let z = 1.959_963_985_f64;
            let n = d as f64;
            z + (z.powi(3) + z) / (4.0 * n)
                + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        }
    }
}

/// Mean and 95 % confidence half-width (Student t, sample standard deviation). The
/// half-width is `None` with fewer than two values.
pub fn mean_ci95(xs: &[f64]) -> (f64, Option<f64>) {
    let n = xs.len();
    let Some(m) = mean(xs) else {
        return (f64::NAN, None);
    };
    if n < 2 {
        return (m, None);
    }
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
    (m, Some(t975(n - 1) * (var / n as f64).sqrt()))
}

/// Longest queue, packets, that [`DequeueStats`] keeps a bin for; longer ones share the last.
pub const DEQUEUE_HIST_MAX: usize = 4096;

/// The queue each dequeue of a link left behind (seed 003 section 6.2.1 logged it "after
/// each dequeue operation"): how many dequeues, how many left a non-empty queue, the mean
/// left in packets and as the time the link needs to serialise it (bytes / rate, the
/// thesis's "ms" axis), and a histogram in packets. Integer sums, so that merging the
/// links of a class gives the same result in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DequeueStats {
    /// Dequeues counted.
    pub n: u64,
    /// Those that left at least one packet waiting.
    pub nonempty: u64,
    /// Sum of the packets left.
    pub pkts_sum: u64,
    /// Sum of the serialisation time of the bytes left, ns.
    pub wait_ns_sum: u128,
    /// Entry `k`: dequeues that left `k` packets (the last entry: that many or more;
    /// trailing zeros are not stored).
    pub hist_pkts: Vec<u64>,
}

impl DequeueStats {
    /// Counts `d`, a dequeue of a link of `rate_bps` bits per second.
    #[inline]
    pub fn add(&mut self, d: Dequeue, rate_bps: u64) {
        self.n += 1;
        self.nonempty += (d.pkts > 0) as u64;
        self.pkts_sum += d.pkts as u64;
        if rate_bps > 0 {
            self.wait_ns_sum += d.bytes as u128 * 8_000_000_000 / rate_bps as u128;
        }
        let k = d.pkts.min(DEQUEUE_HIST_MAX);
        if self.hist_pkts.len() <= k {
            self.hist_pkts.resize(k + 1, 0);
        }
        self.hist_pkts[k] += 1;
    }

    /// Adds another link's counts.
    pub fn merge(&mut self, o: &DequeueStats) {
        self.n += o.n;
        self.nonempty += o.nonempty;
        self.pkts_sum += o.pkts_sum;
        self.wait_ns_sum += o.wait_ns_sum;
        if self.hist_pkts.len() < o.hist_pkts.len() {
            self.hist_pkts.resize(o.hist_pkts.len(), 0);
        }
        for (a, b) in self.hist_pkts.iter_mut().zip(&o.hist_pkts) {
            *a += b;
        }
    }

    /// Fraction of the dequeues that left a non-empty queue (`None` without dequeues).
    pub fn nonempty_fraction(&self) -> Option<f64> {
        (self.n > 0).then(|| self.nonempty as f64 / self.n as f64)
    }

    /// Mean packets left.
    pub fn mean_pkts(&self) -> Option<f64> {
        (self.n > 0).then(|| self.pkts_sum as f64 / self.n as f64)
    }

    /// Mean queue left, as the time the link needs to send it, ms.
    pub fn mean_ms(&self) -> Option<f64> {
        (self.n > 0).then(|| self.wait_ns_sum as f64 / self.n as f64 * 1e-6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn welford_matches_the_two_pass_formula() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let mut w = Welford::default();
        xs.iter().for_each(|x| w.add(*x));
        assert_eq!(w.mean(), 5.0);
        assert!((w.sd() - 2.0).abs() < 1e-12);
    }

    #[test]
    fn jain_is_one_for_equal_shares_and_one_over_n_for_a_monopoly() {
        assert_eq!(jain(&[3.0, 3.0, 3.0]), Some(1.0));
        assert_eq!(jain(&[1.0, 0.0, 0.0, 0.0]), Some(0.25));
        assert_eq!(jain(&[0.0, 0.0]), None);
        assert_eq!(jain(&[]), None);
    }

    #[test]
    fn mean_of_a_sample_and_of_nothing() {
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(mean(&[]), None);
    }

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[]), None);
        // Positions 0.75 and 2.25 of [10, 20, 30, 40].
        assert_eq!(quantile(&[40.0, 10.0, 30.0, 20.0], 0.25), Some(17.5));
        assert_eq!(quantile(&[40.0, 10.0, 30.0, 20.0], 0.75), Some(32.5));
        assert_eq!(quantile(&[40.0, 10.0, 30.0, 20.0], 1.0), Some(40.0));
        assert_eq!(quantile(&[7.0], 0.75), Some(7.0));
    }

    #[test]
    fn t_quantiles_match_the_table_and_tend_to_the_normal() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(9), 2.262);
        assert_eq!(t975(30), 2.042);
        // Tables: t(0.975, 40) = 2.021, t(0.975, 120) = 1.980.
        assert!((t975(40) - 2.021).abs() < 1e-3);
        assert!((t975(120) - 1.980).abs() < 1e-3);
        assert!((t975(100_000) - 1.960).abs() < 1e-3);
        assert!(t975(0).is_nan());
    }

    #[test]
    fn dequeue_stats_count_what_each_dequeue_left() {
        let mut a = DequeueStats::default();
        // 1 Mb/s: a 1500-byte packet takes 12 ms, a 40-byte ACK 0.32 ms.
        for (pkts, bytes) in [(0, 0), (2, 1540), (1, 1500), (0, 0)] {
            a.add(Dequeue { at: 0, pkts, bytes }, 1_000_000);
        }
        assert_eq!((a.n, a.nonempty, a.pkts_sum), (4, 2, 3));
        assert_eq!(a.nonempty_fraction(), Some(0.5));
        assert_eq!(a.mean_pkts(), Some(0.75));
        // (12.32 + 12) / 4 ms.
        assert!((a.mean_ms().unwrap() - 6.08).abs() < 1e-9);
        assert_eq!(a.hist_pkts, [2, 1, 1]);
        // A 2 Mb/s link's dequeue leaving 3000 bytes: 12 ms.
        let mut b = DequeueStats::default();
        b.add(
            Dequeue {
                at: 0,
                pkts: 2,
                bytes: 3000,
            },
            2_000_000,
        );
        a.merge(&b);
        assert_eq!((a.n, a.nonempty), (5, 3));
        assert!((a.mean_ms().unwrap() - 36.32 / 5.0).abs() < 1e-9);
        assert_eq!(a.hist_pkts, [2, 1, 2]);
        assert_eq!(DequeueStats::default().nonempty_fraction(), None);
    }

    #[test]
    fn confidence_interval_uses_student_t() {
        let (m, h) = mean_ci95(&[1.0, 2.0, 3.0]);
        assert_eq!(m, 2.0);
        // s = 1, n = 3: 4.303 / sqrt(3)
        assert!((h.unwrap() - 4.303 / 3f64.sqrt()).abs() < 1e-9);
        assert_eq!(mean_ci95(&[5.0]).1, None);
    }

    proptest! {
        #[test]
        fn jain_is_between_one_over_n_and_one(xs in proptest::collection::vec(0.0f64..1e3, 1..20)) {
            if let Some(j) = jain(&xs) {
                prop_assert!(j <= 1.0 + 1e-9);
                prop_assert!(j >= 1.0 / xs.len() as f64 - 1e-9);
            }
        }

        #[test]
        fn histogram_quantiles_are_within_four_percent(xs in proptest::collection::vec(0u64..10_000_000_000, 1..300), q in 0.0f64..1.0) {
            let mut h = LogHistogram::default();
            let mut v = xs.clone();
            v.iter().for_each(|x| h.add(*x));
            v.sort();
            let rank = ((q * v.len() as f64).ceil() as usize).max(1);
            let exact = v[rank - 1] as f64;
            let got = h.quantile(q).unwrap();
            prop_assert!((got - exact).abs() <= exact * 0.04 + 1.0, "exact {} got {}", exact, got);
        }
    }
}
