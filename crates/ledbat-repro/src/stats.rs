//! Sample statistics for per-seed measurements: mean, sample standard deviation and the
//! two-sided 95 % confidence interval of the mean with Student's t distribution,
//! `mean +- t(0.975, n-1) * s / sqrt(n)`. The mean, quantiles, Jain's index and the t
//! quantiles are the simulator's ([`ledbat_sim::stats`]), so a claim and the report it
//! checks compute them alike.

use serde::Serialize;

pub use ledbat_sim::stats::{jain, quantile, t975};

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
        let (ci_lo, ci_hi) = wilson(hits, n, 1.959_963_985);
        let ind: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i < hits))).collect();
        Some(Summary {
            n,
            mean: hits as f64 / n as f64,
            sd: sample_sd(&ind),
            ci_lo,
            ci_hi,
        })
    }

    /// Half-width of the confidence interval.
    pub fn half_width(&self) -> f64 {
        (self.ci_hi - self.ci_lo) / 2.0
    }
}

/// Wilson's score interval of the share `hits / n` (`n > 0`) for the normal quantile `z`:
/// `(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`, clipped to [0, 1].
pub fn wilson(hits: usize, n: usize, z: f64) -> (f64, f64) {
    let (k, nf) = (hits as f64, n as f64);
    let p = k / nf;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / (1.0 + z2 / nf);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Arithmetic mean ([`ledbat_sim::stats::mean`]), NaN for an empty slice: a claim's
/// metric computed from no samples is NaN, which no verdict accepts.
pub fn mean(xs: &[f64]) -> f64 {
    ledbat_sim::stats::mean(xs).unwrap_or(f64::NAN)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    proptest! {
        #[test]
        fn mean_lies_inside_its_interval(xs in proptest::collection::vec(-1e6f64..1e6, 1..40)) {
            let s = Summary::of(&xs).unwrap();
            prop_assert!(s.ci_lo <= s.mean && s.mean <= s.ci_hi);
            let lo = xs.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            prop_assert!(s.mean >= lo - 1e-6 && s.mean <= hi + 1e-6);
        }
    }
}
