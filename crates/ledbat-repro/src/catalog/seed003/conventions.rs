//! The project conventions the directions of seed 003's chapter 2, 3, 4 and 7 claims use
//! where the thesis gives a qualitative statement and no number (module doc of `catalog`,
//! rule 14): each written once, with what it encodes, and named by the claims that use it
//! (`thresholds`). The catalog-wide ones ([`FAIR_JAIN`], [`MOST`]) are in `catalog`, and
//! `catalog::CONVENTIONS` lists these with them (the report prints that list, and the rules
//! test that no two of its entries say the same thing).

use crate::catalog::Threshold::{self, Convention as By};
use crate::catalog::{Convention, ALIKE_RATIO_HI, ALIKE_RATIO_LO, ALIKE_SPREAD, FAIR_JAIN, MOST};

/// A share clearly larger than the other side's.
pub(in crate::catalog) const CLEAR_MAJORITY: Convention = Convention {
    name: "clearly the larger part: at least 60 %",
    value: 0.6,
    why: "a 60 : 40 split gives one side one and a half times the other's: a priority no run \
          noise (a few points between seeds) can produce from an even split",
};

/// Two values of the same size within a factor of two: the direction of statements that two
/// quantities of different mechanisms are comparable ("about as many losses", "perform very
/// closely", "nearly the same" growth) whose tolerance is already 25 % either way.
///
/// Not the catalog's `ALIKE_RATIO_*` (1.25): those are the direction of statements of no
/// difference, whose tolerance is 5 to 10 %; here 1.25 is the tolerance itself, and a
/// direction must be wider than its tolerance (catalog module doc): the next line a reader
/// draws is "more than double".
pub(in crate::catalog) const FACTOR_TWO_LO: Convention = Convention {
    name: "comparable in size (about as many, very close), as a direction on a ratio: within \
           a factor of two (lower end)",
    value: 0.5,
    why: "'about as many', 'very close', 'nearly the same' with a tolerance of 25 % either \
          way: the direction must hold that tolerance, and a ratio beyond two means one value \
          is more than double the other, which no reading of 'comparable' allows",
};

/// See [`FACTOR_TWO_LO`].
pub(in crate::catalog) const FACTOR_TWO_HI: Convention = Convention {
    name: "comparable in size (about as many, very close), as a direction on a ratio: within \
           a factor of two (upper end)",
    value: 2.0,
    why: "see the lower end: the same factor of two either way",
};

/// High efficiency.
pub(in crate::catalog) const EFFICIENT: Convention = Convention {
    name: "efficient: at least 85 % of the link",
    value: 0.85,
    why: "'close to 1', 'fully', 'perfectly efficient': the tolerance is 95 %; a link idle \
          more than 15 % of the time, three times that margin, is not used fully by any \
          reading",
};

/// A trend over a sweep, as Kendall's tau.
pub(in crate::catalog) const TREND_UP: Convention = Convention {
    name: "rises on balance: Kendall's tau at least 0.2",
    value: 0.2,
    why: "tau 0.2 is 60 % of the pairs of sweep points in order against 40 % out of it; \
          below it the sweep shows no trend that one point moved could not undo",
};

/// See [`TREND_UP`].
pub(in crate::catalog) const TREND_DOWN: Convention = Convention {
    name: "falls on balance: Kendall's tau at most -0.2",
    value: -0.2,
    why: "the mirror of rising on balance (tau 0.2): 60 % of the pairs in falling order",
};

/// Two flows not far from even, or clearly apart, as Jain's index.
pub(in crate::catalog) const JAIN_ONE_TO_THREE: Convention = Convention {
    name: "two flows within 1 : 3: Jain's index 0.8",
    value: 0.8,
    why: "two flows whose rates are 1 : 3 have Jain's index (1 + 3)^2 / (2 (1 + 9)) = 0.8: \
          beyond it one flow has more than three times the other's rate, which no reading of \
          'fair' or 'equal' allows; 'unfair' directions use the same line from the other side",
};

/// Two flows not far from even, looser.
pub(in crate::catalog) const JAIN_THREE_QUARTERS: Convention = Convention {
    name: "fair on balance: Jain's index 0.75",
    value: 0.75,
    why: "an index of 0.75 is two flows at 1 : 3.7 (r^2 - 4 r + 1 = 0) or N flows of which a \
          quarter get nothing: the weakest reading of 'fair' that still excludes starvation \
          of a flow in two",
};

/// Below the fair share of eleven flows.
pub(in crate::catalog) const BELOW_ELEVENTH: Convention = Convention {
    name: "lower than best effort beside ten others: under 3/4 of 1/11",
    value: 0.75 / 11.0,
    why: "eleven equal TCP flows each sit just under 1/11 of the link, so a bound at 1/11 \
          could not tell low priority from fair sharing; three quarters of it can",
};

/// Two parties' shares near even, as the share of one of them: the 1 : 3 line of
/// [`JAIN_ONE_TO_THREE`], lower end.
pub(in crate::catalog) const EVEN_SPLIT_LO: Convention = Convention {
    name: "near even: one of two parties' share at least 1/4",
    value: 0.25,
    why: "the share form of the 1 : 3 line (JAIN_ONE_TO_THREE): two parties at 1 : 3 hold \
          1/4 and 3/4 of the link; past it one has more than three times the other's share, \
          which no reading of 'near even' or 'comparable' allows",
};

/// See [`EVEN_SPLIT_LO`].
pub(in crate::catalog) const EVEN_SPLIT_HI: Convention = Convention {
    name: "near even: one of two parties' share at most 3/4",
    value: 0.75,
    why: "see the lower end: the same 1 : 3 line from the other side",
};

/// A queue held under the LEDBAT flows' own target.
pub(in crate::catalog) const UNDER_TARGET: Convention = Convention {
    name: "a short queue: under LEDBAT's 25-ms target",
    value: 25.0,
    why: "25 ms is the TARGET the thesis's LEDBAT flows run with (the draft's mandatory value, \
          section 3.2.5.1); a queue an AQM keeps under it is shorter than the one LEDBAT alone \
          would hold, the least 'successfully limited' can mean beside a DropTail buffer of \
          half a second, and a queue above it would give LEDBAT back its signal to yield",
};

/// The one-number lists the claims name: "more (or less) than half" is the catalog's
/// [`MOST`].
pub(in crate::catalog) const T_MOST: &[Threshold] = &[By(&MOST)];
/// See [`CLEAR_MAJORITY`].
pub(in crate::catalog) const T_CLEAR_MAJORITY: &[Threshold] = &[By(&CLEAR_MAJORITY)];
/// See [`FACTOR_TWO_LO`].
pub(in crate::catalog) const T_FACTOR_TWO: &[Threshold] = &[By(&FACTOR_TWO_LO), By(&FACTOR_TWO_HI)];
/// See [`EFFICIENT`].
pub(in crate::catalog) const T_EFFICIENT: &[Threshold] = &[By(&EFFICIENT)];
/// See [`TREND_UP`].
pub(in crate::catalog) const T_TREND_UP: &[Threshold] = &[By(&TREND_UP)];
/// See [`TREND_DOWN`].
pub(in crate::catalog) const T_TREND_DOWN: &[Threshold] = &[By(&TREND_DOWN)];
/// See [`JAIN_ONE_TO_THREE`].
pub(in crate::catalog) const T_JAIN_ONE_TO_THREE: &[Threshold] = &[By(&JAIN_ONE_TO_THREE)];
/// See [`JAIN_THREE_QUARTERS`].
pub(in crate::catalog) const T_JAIN_THREE_QUARTERS: &[Threshold] = &[By(&JAIN_THREE_QUARTERS)];
/// See [`BELOW_ELEVENTH`].
pub(in crate::catalog) const T_BELOW_ELEVENTH: &[Threshold] = &[By(&BELOW_ELEVENTH)];
/// See [`EVEN_SPLIT_LO`].
pub(in crate::catalog) const T_EVEN_SPLIT: &[Threshold] = &[By(&EVEN_SPLIT_LO), By(&EVEN_SPLIT_HI)];
/// See [`UNDER_TARGET`].
pub(in crate::catalog) const T_UNDER_TARGET: &[Threshold] = &[By(&UNDER_TARGET)];
/// More than twice: the upper end of [`FACTOR_TWO_HI`], read from the other side.
pub(in crate::catalog) const T_MORE_THAN_TWICE: &[Threshold] = &[By(&FACTOR_TWO_HI)];
/// "As ... as", on a ratio: the catalog's [`ALIKE_RATIO_LO`] and [`ALIKE_RATIO_HI`].
pub(in crate::catalog) const T_ALIKE_RATIO: &[Threshold] =
    &[By(&ALIKE_RATIO_LO), By(&ALIKE_RATIO_HI)];
/// A relative spread: the catalog's [`ALIKE_SPREAD`].
pub(in crate::catalog) const T_ALIKE_SPREAD: &[Threshold] = &[By(&ALIKE_SPREAD)];
/// The catalog's "fair" (Jain's index 0.9), for "fair" and "not fair" directions.
pub(in crate::catalog) const T_FAIR: &[Threshold] = &[By(&FAIR_JAIN)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_lines_are_the_ratios_they_name() {
        let jain = |r: f64| (1.0 + r).powi(2) / (2.0 * (1.0 + r * r));
        assert!((jain(3.0) - JAIN_ONE_TO_THREE.value).abs() < 1e-12);
        let r = 2.0 + 3f64.sqrt();
        assert!((jain(r) - JAIN_THREE_QUARTERS.value).abs() < 1e-12);
    }

    #[test]
    fn the_even_split_is_the_one_to_three_line_as_shares() {
        // Shares 1/4 and 3/4 are rates in ratio 3, Jain's index 0.8.
        assert_eq!(EVEN_SPLIT_HI.value / EVEN_SPLIT_LO.value, 3.0);
        assert_eq!(EVEN_SPLIT_LO.value + EVEN_SPLIT_HI.value, 1.0);
        let jain = |r: f64| (1.0 + r).powi(2) / (2.0 * (1.0 + r * r));
        assert!((jain(3.0) - JAIN_ONE_TO_THREE.value).abs() < 1e-12);
    }

    #[test]
    fn a_tau_of_a_fifth_is_three_pairs_in_five_in_order() {
        // tau = (concordant - discordant) / pairs: 0.6 - 0.4.
        assert!((0.6 - 0.4 - TREND_UP.value).abs() < 1e-12);
        assert_eq!(TREND_DOWN.value, -TREND_UP.value);
    }
}
