//! Seeds where they decide something: the sequential rule of `ledbat repro --seeds auto`.
//!
//! A claim's verdict is a step function of the mean over seeds (`claims::Verdict::judge`:
//! tolerance band, then direction band; an order's share of seeds for `Form::Order`). Instead
//! of a fixed number of seeds, a claim's scenarios are run in rounds up to the *looks*
//! `n_1 < n_2 < .. < n_K` (by default 5, 10, 20, 30 seeds). At each look the claim gets a
//! confidence interval for every quantity its verdict reads (its value; also its
//! precondition's quantity when it declares one, `q = 2`, else `q = 1`), each at the
//! two-sided error
//!
//! ```text
//!     e = alpha / (K * q)        (alpha = 0.05, K = 4: e = 0.0125, or 0.00625 with a precondition)
//! ```
//!
//! - a mean: Student `mean +- t(1 - e/2, n-1) * s / sqrt(n)` ([`t_quantile`]);
//! - a share of seeds (an order): Wilson's score interval with `z = z(1 - e/2)`
//!   ([`z_quantile`], [`crate::stats::wilson`]).
//!
//! The claim is **decided** at the first look where its verdict is the same everywhere on
//! those intervals ([`settled`]: no band end lies inside where the verdict would change), and
//! its scenarios stop there; otherwise it goes on to the next look. At the last look it stops
//! whatever the intervals say, and is reported **open**: its verdict is the mean's at
//! `n_K` seeds, with no more guarantee than the fixed rule's. It also stops early, as
//! **futile**, at a look from 10 seeds on (so that an open claim never has fewer seeds than
//! the fixed default of 10) where the interval `n_K` seeds would give around the current mean
//! with the current spread (`mean +- t(1 - e/2, n_K - 1) s / sqrt(n_K)`; Wilson's at the
//! current share for an order) would still hold a band end: more seeds are unlikely to
//! decide it, and it keeps the mean's verdict at that look. This is a non-binding futility
//! stop: it never declares a verdict decided, so it leaves the error bound below as it is.
//!
//! Why the first look is at 5 seeds, not 3: on `ledbat repro --quick` a look at 3 decided
//! three claims whose metric is bimodal (e.g. a flow that finishes first in nine seeds of
//! ten and late in the tenth) on three seeds that happened to fall in one mode; the Student
//! interval's normal model cannot see a second mode it has not sampled (see below).
//!
//! Error rate. Let `mu` be a quantity's true mean (the mean over infinitely many seeds) and
//! call a decided verdict wrong when it differs from the verdict of the true means. A claim
//! computes at most `K * q` intervals, each missing its `mu` with probability at most `e`, so
//! by Bonferroni's inequality `P(some interval misses) <= K * q * e = alpha`. When none
//! misses, every `mu` lies in its interval, on which the verdict is constant, so a decided
//! verdict equals the true means' verdict. Hence, per claim,
//!
//! ```text
//!     P(decided and wrong) <= alpha = 0.05
//! ```
//!
//! whatever the stopping look. These are *repeated confidence intervals* (Jennison and
//! Turnbull, "Interim analyses: the repeated confidence interval approach", JRSS B 51
//! (1989) 305-361; also their book "Group Sequential Methods with Applications to Clinical
//! Trials", 2000, ch. 9) with the Bonferroni split of the error over the looks, which is
//! conservative next to Pocock's constant boundary (Pocock, "Group sequential methods in
//! the design and analysis of clinical trials", Biometrika 64 (1977) 191-199), which needs
//! the joint law of the looks; the split needs none. The bound is per claim: over `m`
//! decided claims the expected number of wrong ones is at most `alpha * m`.
//!
//! Assumptions, the same as the report's own intervals: a seed's values are independent of
//! another seed's (each seed draws its own start times), the Student interval treats them as
//! normal (approximate for the 3 and 5 seeds of the first looks, exact for normal data), and
//! Wilson's interval is the usual normal approximation for a share. A quantity equal in the
//! first 3 seeds has a zero-width interval and is decided at once: the normal model cannot
//! see a value that changes only in rare seeds.
//!
//! A claim that is not testable in this model is decided at the first look (its verdict does
//! not read its values); one that gave no value at all (not run) too. The claim's null and
//! setup variants run for the same seeds as the claim (1..=n where n is its stopping look);
//! a scenario instance shared by several claims runs while any of them is open, and each
//! claim reads only its own seeds, so a claim's verdict does not depend on the selection.

use serde::Serialize;

/// The looks of the standard rule (seeds at which a claim may stop).
pub const LOOKS: [u64; 4] = [5, 10, 20, 30];

/// The error the standard rule spends per claim (the report's confidence is 1 - alpha).
pub const ALPHA: f64 = 0.05;

/// The first look at which a claim may stop as futile: an open claim never gets fewer seeds
/// than the fixed default of 10 (a rule whose last look is 10 or fewer has no futility stop).
pub const FUTILE_FROM: u64 = 10;

/// A group-sequential rule: the looks and the error spent over them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rule {
    /// Seeds at which a claim may stop, increasing; the last is the limit.
    pub looks: Vec<u64>,
    /// The error spent per claim over all its looks and quantities.
    pub alpha: f64,
    /// The first look at which a claim may stop as futile (10: an open claim never gets
    /// fewer seeds than the fixed default).
    pub futile_from: u64,
}

impl Default for Rule {
    fn default() -> Self {
        Rule {
            looks: LOOKS.to_vec(),
            alpha: ALPHA,
            futile_from: FUTILE_FROM,
        }
    }
}

impl Rule {
    /// The standard rule's error and futility stop with other looks (`--seeds auto:5,10`);
    /// an error names what is wrong with them.
    pub fn with_looks(looks: Vec<u64>) -> Result<Rule, String> {
        let rule = Rule {
            looks,
            ..Rule::default()
        };
        rule.check()?;
        Ok(rule)
    }

    /// The rule in words, as the report states it: looks, error, intervals, futility stop.
    pub fn describe(&self) -> String {
        let looks: Vec<String> = self.looks.iter().map(u64::to_string).collect();
        let pct = |e: f64| trim_num(100.0 * (1.0 - e));
        let futile = match self.first_futile_look() {
            Some(l) => format!(
                "; from {l} seeds on it also stops, open, where the interval {} seeds would give \
                 with its current mean and spread would still straddle a band end",
                self.limit()
            ),
            None => String::new(),
        };
        format!(
            "Seeds by the sequential rule: each claim's scenarios run in rounds up to each look \
             ({} seeds); at each look every quantity the verdict reads (the mean, an order's \
             share of seeds, a precondition's mean) gets an interval at the error {} split \
             evenly over the looks and quantities (Bonferroni: {} % Student or Wilson \
             intervals, {} % with a precondition), and the claim stops at the first look where \
             its verdict is the same everywhere on them{futile}. Repeated confidence intervals: \
             the chance that a decided verdict differs from the one infinitely many seeds would \
             give is at most {} % per claim. A claim open when it stops keeps the verdict of its \
             mean, with no such bound. Its null and setup runs use the same seeds.",
            looks.join(", "),
            trim_num(self.alpha),
            pct(self.per_interval(1)),
            pct(self.per_interval(2)),
            trim_num(100.0 * self.alpha),
        )
    }

    /// The first look at which a claim may stop as futile: the first look from
    /// `futile_from` on that is not the last (a claim open at the last look stops there
    /// anyway). `None` when there is no such look (`auto:5,10`, `auto:3,5,20`).
    pub fn first_futile_look(&self) -> Option<u64> {
        let limit = self.limit();
        self.looks
            .iter()
            .copied()
            .find(|&l| l >= self.futile_from && l < limit)
    }

    /// The most seeds a claim can get (its last look).
    pub fn limit(&self) -> u64 {
        self.looks.last().copied().unwrap_or(0)
    }

    /// The two-sided error of each interval of a claim whose verdict reads `quantities`
    /// quantities: `alpha / (K * quantities)`.
    pub fn per_interval(&self, quantities: usize) -> f64 {
        self.alpha / (self.looks.len() * quantities.max(1)) as f64
    }

    /// What is wrong with the rule, if anything (looks not increasing from 2, alpha not in
    /// (0, 1)).
    pub fn check(&self) -> Result<(), String> {
        if self.looks.is_empty() || self.looks[0] < 2 {
            return Err(format!(
                "sequential looks {:?}: the first must be at least 2 seeds",
                self.looks
            ));
        }
        if self.looks.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("sequential looks {:?}: must increase", self.looks));
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(format!(
                "sequential alpha {}: must lie in (0, 1)",
                self.alpha
            ));
        }
        Ok(())
    }
}

/// How a claim's number of seeds was set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// The fixed count of `--seeds N`.
    Fixed,
    /// The sequential rule decided the verdict at this many seeds.
    Decided,
    /// Still open at the rule's last look: the mean's verdict at the limit.
    Open,
    /// Open, and stopped early: the interval the limit would give around the current mean
    /// with the current spread would still hold a band end (the mean's verdict here).
    Futile,
}

/// The seeds a claim's values come from (seeds `1..=n`) and why that many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Seeds {
    /// Seeds `1..=n`.
    pub n: u64,
    /// Why `n`.
    pub stop: Stop,
}

impl Seeds {
    /// Words for the report: `10 seeds (fixed)`, `5 seeds (decided)`, `30 seeds (still
    /// open at the limit)`.
    pub fn describe(&self) -> String {
        let why = match self.stop {
            Stop::Fixed => "fixed",
            Stop::Decided => "decided by the sequential rule",
            Stop::Open => "still open at the sequential rule's limit",
            Stop::Futile => "open, stopped: the limit's seeds would not decide it either",
        };
        format!("{} seeds ({why})", self.n)
    }
}

/// `P(|T| <= t)` for Student's t with `nu` degrees of freedom, in closed form
/// (Abramowitz and Stegun 26.7.3 for odd `nu`, 26.7.4 for even), `theta = atan(t/sqrt(nu))`:
/// odd: `2/pi * (theta + sin(theta) * (cos + 2/3 cos^3 + .. + (2*4..(nu-3))/(1*3..(nu-2)) cos^(nu-2)))`
/// (only `2 theta / pi` for `nu = 1`); even: `sin(theta) * (1 + 1/2 cos^2 + .. +
/// (1*3..(nu-3))/(2*4..(nu-2)) cos^(nu-2))`.
pub fn t_two_sided(t: f64, nu: usize) -> f64 {
    if nu == 0 || t.is_nan() {
        return f64::NAN;
    }
    let t = t.abs();
    let theta = (t / (nu as f64).sqrt()).atan();
    let (s, c) = theta.sin_cos();
    let c2 = c * c;
    if nu.is_multiple_of(2) {
        let (mut sum, mut term) = (1.0, 1.0);
        for k in 1..nu / 2 {
            term *= c2 * (2 * k - 1) as f64 / (2 * k) as f64;
            sum += term;
        }
        s * sum
    } else if nu == 1 {
        2.0 * theta / std::f64::consts::PI
    } else {
        let (mut sum, mut term) = (c, c);
        for k in 1..(nu - 1) / 2 {
            term *= c2 * (2 * k) as f64 / (2 * k + 1) as f64;
            sum += term;
        }
        2.0 / std::f64::consts::PI * (theta + s * sum)
    }
}

/// The value `x >= 0` where the increasing `f` reaches `target`, by bisection (to 1e-12
/// relative).
fn invert(f: impl Fn(f64) -> f64, target: f64) -> f64 {
    let mut hi = 1.0;
    while f(hi) < target && hi < 1e12 {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// Student's quantile `t(p, nu)` for `p` in (0.5, 1): `P(|T| <= t) = 2p - 1`.
pub fn t_quantile(p: f64, nu: usize) -> f64 {
    if nu == 0 || !(p > 0.5 && p < 1.0) {
        return f64::NAN;
    }
    invert(|t| t_two_sided(t, nu), 2.0 * p - 1.0)
}

/// `erf(x)` by its Maclaurin series `2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))`, exact
/// to about 1e-9 for `|x| <= 4.3` (the series loses `log10(e^(x^2))` digits to cancellation),
/// enough for the quantiles below (`z <= 6`).
pub fn erf(x: f64) -> f64 {
    let mut term = x; // (-1)^n x^(2n+1) / n!
    let mut sum = 0.0;
    for n in 0..400 {
        let add = term / (2 * n + 1) as f64;
        sum += add;
        if add.abs() < 1e-17 * sum.abs().max(1e-300) {
            break;
        }
        term *= -x * x / (n + 1) as f64;
    }
    (2.0 / std::f64::consts::PI.sqrt() * sum).clamp(-1.0, 1.0)
}

/// The normal quantile `z(p)` for `p` in (0.5, 1 - 1e-9): `P(|Z| <= z) = erf(z / sqrt 2) =
/// 2p - 1`.
pub fn z_quantile(p: f64) -> f64 {
    if !(p > 0.5 && p < 1.0 - 1e-9) {
        return f64::NAN;
    }
    invert(|z| erf(z / std::f64::consts::SQRT_2), 2.0 * p - 1.0).min(6.0)
}

/// The Student interval of the mean of `xs` with two-sided error `err`; `None` for fewer
/// than two values or a non-finite one.
pub fn mean_interval(xs: &[f64], err: f64) -> Option<(f64, f64)> {
    if xs.len() < 2 || xs.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let m = crate::stats::mean(xs);
    let half = t_quantile(1.0 - err / 2.0, xs.len() - 1) * crate::stats::sample_sd(xs)
        / (xs.len() as f64).sqrt();
    Some((m - half, m + half))
}

/// Wilson's interval of the share `hits / n` with two-sided error `err`; `None` for `n = 0`.
pub fn share_interval(hits: usize, n: usize, err: f64) -> Option<(f64, f64)> {
    (n > 0 && hits <= n).then(|| crate::stats::wilson(hits, n, z_quantile(1.0 - err / 2.0)))
}

/// Whether `f` (a step function changing only at the points `breaks`) takes one value on
/// the whole of `[lo, hi]`: it is compared at `lo`, `hi`, every break inside and a point
/// between each two neighbours of these, which covers every piece of the interval.
pub fn settled<V: PartialEq>(lo: f64, hi: f64, breaks: &[f64], f: impl Fn(f64) -> V) -> bool {
    if lo.is_nan() || hi.is_nan() || lo > hi {
        return false;
    }
    let mut pts: Vec<f64> = breaks
        .iter()
        .copied()
        .filter(|b| b.is_finite() && lo < *b && *b < hi)
        .collect();
    pts.push(lo);
    pts.push(hi);
    pts.sort_by(f64::total_cmp);
    pts.dedup();
    let first = f(lo);
    let mids = pts.windows(2).map(|w| 0.5 * (w[0] + w[1]));
    pts.iter().copied().chain(mids).all(|x| f(x) == first)
}

/// `x` with at most four decimals and no trailing zeros (`98.75`, `5`, `0.05`).
fn trim_num(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::{Band, Verdict};

    #[test]
    fn the_t_distribution_matches_the_tables() {
        // Student tables (e.g. Abramowitz and Stegun table 26.10): t(0.975, 9) = 2.262,
        // t(0.995, 2) = 9.925, t(0.995, 4) = 4.604, t(0.995, 9) = 3.250, t(0.995, 19) =
        // 2.861, t(0.995, 29) = 2.756, t(0.9975, 9) = 3.690, t(0.975, 1) = 12.706.
        for (p, nu, t) in [
            (0.975, 9, 2.262),
            (0.995, 2, 9.925),
            (0.995, 4, 4.604),
            (0.995, 9, 3.250),
            (0.995, 19, 2.861),
            (0.995, 29, 2.756),
            (0.9975, 9, 3.690),
            (0.975, 1, 12.706),
        ] {
            let q = t_quantile(p, nu);
            assert!((q - t).abs() < 1.5e-3, "t({p}, {nu}) = {q}, table {t}");
        }
        // nu = 2: P(|T| <= t) = t / sqrt(2 + t^2) exactly; at t = sqrt(2): 1/sqrt(2).
        assert!((t_two_sided(2f64.sqrt(), 2) - 0.5f64.sqrt()).abs() < 1e-12);
        // nu = 1 (Cauchy): P(|T| <= 1) = 2 atan(1) / pi = 1/2.
        assert!((t_two_sided(1.0, 1) - 0.5).abs() < 1e-12);
        // nu = 3 at t = sqrt(3): theta = atan(1) = pi/4, (2/pi)(pi/4 + sin cos) = 1/2 + 1/pi.
        let want = 0.5 + 1.0 / std::f64::consts::PI;
        assert!((t_two_sided(3f64.sqrt(), 3) - want).abs() < 1e-12);
        assert!(t_quantile(0.4, 3).is_nan() && t_quantile(0.9, 0).is_nan());
    }

    #[test]
    fn the_normal_quantiles_match_the_tables() {
        for (p, z) in [(0.975, 1.959_964), (0.995, 2.575_829), (0.9975, 2.807_034)] {
            assert!(
                (z_quantile(p) - z).abs() < 1e-5,
                "z({p}) = {}",
                z_quantile(p)
            );
        }
        assert!((erf(1.0) - 0.842_700_792_9).abs() < 1e-9);
        assert!(z_quantile(1.0).is_nan());
    }

    #[test]
    fn the_standard_rule_spends_an_eighty_th_per_look() {
        let r = Rule::default();
        assert_eq!(r.limit(), 30);
        assert!((r.per_interval(1) - 0.0125).abs() < 1e-15);
        assert!((r.per_interval(2) - 0.00625).abs() < 1e-15);
        assert!(r.check().is_ok());
        let bad = |looks: Vec<u64>, alpha| {
            Rule {
                looks,
                alpha,
                futile_from: 10,
            }
            .check()
            .is_err()
        };
        assert!(bad(vec![1, 5], 0.05));
        assert!(bad(vec![3, 3], 0.05));
        assert!(bad(vec![3, 5], 0.0));
        assert!(bad(vec![], 0.05));
    }

    #[test]
    fn other_looks_keep_the_standard_error_and_split_it_over_fewer_looks() {
        let r = Rule::with_looks(vec![5, 10]).unwrap();
        assert_eq!(
            (r.limit(), r.alpha, r.futile_from),
            (10, ALPHA, FUTILE_FROM)
        );
        // 0.05 over two looks: 0.025 per interval, 0.0125 with a precondition.
        assert!((r.per_interval(1) - 0.025).abs() < 1e-15);
        assert!((r.per_interval(2) - 0.0125).abs() < 1e-15);
        let e = Rule::with_looks(vec![10, 5]).unwrap_err();
        assert!(e.contains("[10, 5]") && e.contains("increase"), "{e}");
        assert!(Rule::with_looks(vec![1, 5])
            .unwrap_err()
            .contains("at least 2"));
    }

    #[test]
    fn the_rule_is_stated_with_its_own_looks_and_intervals() {
        let d = Rule::default().describe();
        // The standard rule's statement as reports made with `--seeds auto` give it.
        assert_eq!(
            d,
            "Seeds by the sequential rule: each claim's scenarios run in rounds up to each look \
            (5, 10, 20, 30 seeds); at each look every quantity the verdict reads (the mean, an \
            order's share of seeds, a precondition's mean) gets an interval at the error 0.05 \
            split evenly over the looks and quantities (Bonferroni: 98.75 % Student or Wilson \
            intervals, 99.375 % with a precondition), and the claim stops at the first look \
            where its verdict is the same everywhere on them; from 10 seeds on it also stops, \
            open, where the interval 30 seeds would give with its current mean and spread would \
            still straddle a band end. Repeated confidence intervals: the chance that a decided \
            verdict differs from the one infinitely many seeds would give is at most 5 % per \
            claim. A claim open when it stops keeps the verdict of its mean, with no such bound. \
            Its null and setup runs use the same seeds."
        );
        let short = Rule::with_looks(vec![5, 10]).unwrap().describe();
        assert!(short.contains("(5, 10 seeds)"), "{short}");
        assert!(short.contains("97.5 % Student or Wilson intervals, 98.75 % with"));
        // The last look is the futility look's: a claim open there stops anyway.
        assert!(!short.contains("also stops"), "{short}");
        assert!(short.contains("everywhere on them. Repeated"), "{short}");
        // A limit past 10 with no look in [10, limit): no look can stop a claim as futile.
        let gap = Rule::with_looks(vec![3, 5, 20]).unwrap();
        assert_eq!(gap.first_futile_look(), None);
        assert!(!gap.describe().contains("also stops"));
        // The first futile look is the first look from 10 on: 15 here, not 10.
        let late = Rule::with_looks(vec![5, 15, 30]).unwrap();
        assert_eq!(late.first_futile_look(), Some(15));
        assert!(late.describe().contains("from 15 seeds on it also stops"));
        assert_eq!(Rule::default().first_futile_look(), Some(10));
    }

    #[test]
    fn a_mean_interval_uses_the_split_error() {
        // 1, 2, 3: mean 2, s = 1, t(0.995, 2) = 9.925: 2 +- 9.925 / sqrt 3 = 2 +- 5.730.
        let (lo, hi) = mean_interval(&[1.0, 2.0, 3.0], 0.01).unwrap();
        assert!((lo - (2.0 - 5.730)).abs() < 2e-3 && (hi - (2.0 + 5.730)).abs() < 2e-3);
        // 1..=10: mean 5.5, s = 3.02765, t(0.995, 9) = 3.250: 5.5 +- 3.111.
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let (lo, hi) = mean_interval(&xs, 0.01).unwrap();
        assert!(
            (lo - 2.389).abs() < 2e-3 && (hi - 8.611).abs() < 2e-3,
            "{lo} {hi}"
        );
        assert_eq!(mean_interval(&[4.0, 4.0, 4.0], 0.01), Some((4.0, 4.0)));
        assert_eq!(mean_interval(&[1.0], 0.01), None);
    }

    #[test]
    fn a_share_interval_is_wilsons_at_the_split_z() {
        // 3 of 3 at z = 2.5758: z^2 = 6.6349; centre (1 + 6.6349/6) / (1 + 6.6349/3) =
        // 2.10582 / 3.21163 = 0.65569; half 2.5758 sqrt(6.6349/36) / 3.21163 = 0.34431:
        // [0.3114, 1].
        let (lo, hi) = share_interval(3, 3, 0.01).unwrap();
        assert!(
            (lo - 0.3114).abs() < 1e-3 && (hi - 1.0).abs() < 1e-12,
            "{lo} {hi}"
        );
        assert_eq!(share_interval(0, 0, 0.01), None);
    }

    #[test]
    fn a_verdict_is_settled_only_where_no_band_end_cuts_the_interval() {
        let tol = Band::Near {
            value: 10.0,
            tol: 2.0,
        };
        let dir = Band::AtMost { bound: 20.0 };
        let judge = |x: f64| Verdict::judge(x, &tol, &dir);
        let breaks = [8.0, 12.0, 20.0];
        assert!(settled(8.5, 11.5, &breaks, judge), "inside the band");
        assert!(settled(12.5, 19.0, &breaks, judge), "differs throughout");
        assert!(!settled(11.0, 13.0, &breaks, judge), "across 12");
        assert!(!settled(19.0, 21.0, &breaks, judge), "across 20");
        // A band's closed end: 12 itself is reproduced, just above is not.
        assert!(settled(8.0, 12.0, &breaks, judge));
        assert!(!settled(11.0, 12.000001, &breaks, judge));
        // Across two ends but the same verdict on both outer sides: [7, 13] holds
        // "differs", "reproduced", "differs": not settled.
        assert!(!settled(7.0, 13.0, &breaks, judge));
        // A point interval is settled.
        assert!(settled(20.0, 20.0, &breaks, judge));
        assert!(!settled(f64::NAN, 1.0, &breaks, judge));
    }

    #[test]
    fn seeds_say_why_that_many() {
        let s = Seeds {
            n: 5,
            stop: Stop::Decided,
        };
        assert_eq!(s.describe(), "5 seeds (decided by the sequential rule)");
        assert_eq!(
            serde_json::to_value(s).unwrap(),
            serde_json::json!({"n": 5, "stop": "decided"})
        );
    }
}
