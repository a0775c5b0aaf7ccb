//! Sample statistics for per-seed measurements: mean, sample standard deviation and the
//! two-sided 95 % confidence interval of the mean with Student's t distribution,
//! `mean +- t(0.975, n-1) * s / sqrt(n)`.
//!
//! The t quantiles for 1..=30 degrees of freedom are the standard table values; beyond 30
//! the Cornish-Fisher expansion of the t quantile around the normal quantile is used
//! (error below 1e-4 for df > 30).

use serde::Serialize;

/// Two-sided 97.5 % quantiles of Student's t for df = 1..=30.
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The 0.975 quantile of Student's t with `df` degrees of freedom (`df >= 1`).
pub fn t975(df: usize) -> f64 {
    assert!(df >= 1, "Student t needs at least one degree of freedom");
    if df <= 30 {
        return T975[df - 1];
    }
    let z = 1.959_963_985_f64;
    let n = df as f64;
    z + (z.powi(3) + z) / (4.0 * n)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
}

/// Summary of one metric over seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Number of samples (seeds) that produced a value.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator); 0 for one sample.
    pub sd: f64,
    /// Lower end of the 95 % confidence interval of the mean (equal to `mean` for n = 1).
    pub ci_lo: f64,
    /// Upper end of the 95 % confidence interval of the mean.
    pub ci_hi: f64,
}

impl Summary {
    /// Summarises `xs`; `None` when `xs` is empty or holds a non-finite value.
    pub fn of(xs: &[f64]) -> Option<Summary> {
        if xs.is_empty() || xs.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let n = xs.len();
        let m = mean(xs);
        let sd = sample_sd(xs);
        let half = if n > 1 {
            t975(n - 1) * sd / (n as f64).sqrt()
        } else {
            0.0
        };
        Some(Summary {
            n,
            mean: m,
            sd,
            ci_lo: m - half,
            ci_hi: m + half,
        })
    }

    /// The share `hits / n` of seeds that show an order, with the Wilson score 95 %
    /// interval `(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`, z = 1.96 (which,
    /// unlike `p ± z sqrt(p(1-p)/n)`, neither collapses at 0 or 1 nor leaves [0, 1]);
    /// `sd` is the indicators' sample standard deviation. `None` for `n = 0`.
    pub fn share(hits: usize, n: usize) -> Option<Summary> {
        if n == 0 || hits > n {
            return None;
        }
        let (k, nf) = (hits as f64, n as f64);
        let p = k / nf;
        let z = 1.959_963_985_f64;
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
        let half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / (1.0 + z2 / nf);
        let ind: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i < hits))).collect();
        Some(Summary {
            n,
            mean: p,
            sd: sample_sd(&ind),
            ci_lo: (centre - half).max(0.0),
            ci_hi: (centre + half).min(1.0),
        })
    }

    /// Half-width of the confidence interval.
    pub fn half_width(&self) -> f64 {
        (self.ci_hi - self.ci_lo) / 2.0
    }
}

/// Arithmetic mean (NaN for an empty slice).
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample standard deviation with Bessel's correction; 0 for fewer than two samples.
pub fn sample_sd(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// Population standard deviation (n in the denominator), as seed 000 uses for sigma_cwnd.
pub fn population_sd(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let m = mean(xs);
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Jain's fairness index `(sum x)^2 / (n sum x^2)`; 1 for a perfectly even share, 1/n when
/// one flow has everything. `None` for no flows or all-zero throughput.
pub fn jain(xs: &[f64]) -> Option<f64> {
    let s: f64 = xs.iter().sum();
    let s2: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || s2 <= 0.0 {
        None
    } else {
        Some(s * s / (xs.len() as f64 * s2))
    }
}

/// The `q` quantile (0..=1) by linear interpolation between order statistics.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let pos = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Some(v[lo] + (v[hi] - v[lo]) * (pos - lo as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn t_quantiles_match_table_and_tend_to_normal() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(9), 2.262);
        assert!((t975(40) - 2.021).abs() < 1e-3);
        assert!((t975(120) - 1.980).abs() < 1e-3);
        assert!((t975(100_000) - 1.960).abs() < 1e-3);
    }

    #[test]
    fn summary_of_known_sample() {
        // 10 samples 1..=10: mean 5.5, s = 3.02765, half width 2.262 * s / sqrt(10).
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let s = Summary::of(&xs).unwrap();
        assert!((s.mean - 5.5).abs() < 1e-12);
        assert!((s.sd - 3.027_650_354).abs() < 1e-6);
        assert!((s.half_width() - 2.262 * 3.027_650_354 / 10f64.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn a_share_of_seeds_has_the_wilson_interval() {
        // 9 of 10: p = 0.9; centre (0.9 + 0.19207) / 1.38415 = 0.78902, half
        // 1.96 sqrt(0.009 + 0.0096040) / 1.38415 = 0.19314: [0.5959, 0.9822].
        let s = Summary::share(9, 10).unwrap();
        assert!((s.mean - 0.9).abs() < 1e-12);
        assert!((s.ci_lo - 0.5959).abs() < 1e-3, "{}", s.ci_lo);
        assert!((s.ci_hi - 0.9821).abs() < 1e-3, "{}", s.ci_hi);
        // 10 of 10 does not collapse to [1, 1]: [0.7225, 1].
        let s = Summary::share(10, 10).unwrap();
        assert!((s.ci_lo - 0.7225).abs() < 1e-3 && s.ci_hi == 1.0);
        assert_eq!(s.sd, 0.0);
        assert!(Summary::share(0, 0).is_none());
    }

    #[test]
    fn summary_of_one_sample_has_degenerate_interval() {
        let s = Summary::of(&[3.0]).unwrap();
        assert_eq!((s.ci_lo, s.mean, s.ci_hi, s.sd), (3.0, 3.0, 3.0, 0.0));
    }

    #[test]
    fn summary_rejects_empty_and_nan() {
        assert!(Summary::of(&[]).is_none());
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn jain_extremes() {
        assert!((jain(&[5.0, 5.0, 5.0]).unwrap() - 1.0).abs() < 1e-12);
        assert!((jain(&[1.0, 0.0, 0.0, 0.0]).unwrap() - 0.25).abs() < 1e-12);
        assert!(jain(&[0.0, 0.0]).is_none());
    }

    #[test]
    fn quantile_interpolates() {
        assert_eq!(quantile(&[4.0, 1.0, 3.0, 2.0], 0.5), Some(2.5));
        assert_eq!(quantile(&[4.0, 1.0, 3.0, 2.0], 1.0), Some(4.0));
    }

    proptest! {
        #[test]
        fn mean_lies_inside_its_interval(xs in proptest::collection::vec(-1e6f64..1e6, 1..40)) {
            let s = Summary::of(&xs).unwrap();
            prop_assert!(s.ci_lo <= s.mean && s.mean <= s.ci_hi);
            let lo = xs.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            prop_assert!(s.mean >= lo - 1e-6 && s.mean <= hi + 1e-6);
        }

        #[test]
        fn jain_is_between_one_over_n_and_one(xs in proptest::collection::vec(0.0f64..1e3, 1..20)) {
            if let Some(j) = jain(&xs) {
                prop_assert!(j <= 1.0 + 1e-9);
                prop_assert!(j >= 1.0 / xs.len() as f64 - 1e-9);
            }
        }
    }
}
