//! Where the numbers of a claim's bands come from: the project's conventions for thresholds
//! the papers give no number for (rule 14 of [`super`]), a direction's threshold with its
//! source, the tolerance families (rule 10) and the relations between claims that read the
//! same runs (rule 13).

use super::{seed002, seed003, seed003_ch3, seed003_ch4, seed003_swarm, seed004};

/// A project convention for a threshold the papers use without a number ("fair"), written
/// once here and named by the claims that use it (rule 14 of [`super`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Convention {
    /// Its name, as the report and the tests cite it.
    pub name: &'static str,
    /// The threshold.
    pub value: f64,
    /// What it encodes and why this number.
    pub why: &'static str,
}

/// "Fair", "shares equally": Jain's index at least 0.9.
pub const FAIR_JAIN: Convention = Convention {
    name: "fair: Jain's index at least 0.9",
    value: 0.9,
    why: "two flows at a 0.9 Jain index share as 1 : 2 at worst; below, one flow has more \
          than twice the other's throughput, which no reading of \"fair\" allows",
};

/// An order holds when more than half the seeds show it
/// ([`ORDER_DIRECTION`](super::ORDER_DIRECTION)): "most" of the seeds, the one convention
/// for "more than half" ([`MOST`]), not a second one.
pub const ORDER_MAJORITY: Convention = MOST;

/// "No loss", as a direction: under one packet lost in a thousand.
pub const NO_LOSS: Convention = Convention {
    name: "no loss: under one packet in a thousand lost",
    value: 0.001,
    why: "a statement of zero loss is its tolerance; as a direction, a rate a thousand times \
          smaller than the losses a loss-based flow takes to fill a buffer (a packet per \
          sawtooth of tens of packets) still reads as none",
};

/// "Most", "the larger part", "priority": more than half (and, read from the other side,
/// "less than half"), of a link, of a sweep's points or of the seeds of an order
/// ([`ORDER_MAJORITY`]).
pub const MOST: Convention = Convention {
    name: "most: more than half (the larger part; from the other side, less than half)",
    value: 0.5,
    why: "the word's own meaning: half is the even split of two parties (two flows, two \
          protocols, the points of a sweep that show a relation and those that do not, the \
          seeds that show an order and those that do not); past it one side has the larger \
          part, the least any statement of priority or of 'most' says; half is not most",
};

/// "Indistinguishable", as a direction on a relative spread (max - min) / min: within a
/// quarter. For statements of no difference ([`Form::Alike`](super::Form::Alike): "no
/// difference", "alike", "cannot be distinguished", "practically the same") whose tolerance
/// is the no-difference family's, 5 to 10 %.
pub const ALIKE_SPREAD: Convention = Convention {
    name: "indistinguishable (no difference stated), as a direction: a relative spread within 25 %",
    value: 0.25,
    why: "the tolerance of a statement of no difference is 5 to 10 % (the no-difference \
          family's 20 % at most); a spread past a quarter is a difference a figure shows at a \
          glance, which 'no difference' excludes",
};

/// "Indistinguishable", as a direction on a ratio: its lower end, 1 / 1.25.
pub const ALIKE_RATIO_LO: Convention = Convention {
    name: "indistinguishable (no difference stated), as a direction on a ratio: at least 0.8",
    value: 0.8,
    why: "the ratio form of ALIKE_SPREAD, symmetric on a log scale: 1 / 1.25",
};

/// "Indistinguishable", as a direction on a ratio: its upper end, 1.25.
pub const ALIKE_RATIO_HI: Convention = Convention {
    name: "indistinguishable (no difference stated), as a direction on a ratio: at most 1.25",
    value: 1.25,
    why: "the ratio form of ALIKE_SPREAD: one side 25 % above the other",
};

/// "Full", of a link: at least 0.95 of its rate.
pub const FULL: Convention = Convention {
    name: "full: at least 0.95 of the link's rate",
    value: 0.95,
    why: "a figure's 100 % is read to about 5 points, and the start-up and the edges of the \
          measurement window cost a flow that keeps the link busy a few per cent; below 0.95 \
          the link is idle often enough to show on a figure",
};

/// The conventions, for the report and the tests: the catalog-wide ones above and those
/// of seed 003's conventions module, each once (`tests/claim_rules.rs` checks that no two
/// say the same thing, and that every convention a claim names is here).
pub const CONVENTIONS: &[&Convention] = &[
    &FAIR_JAIN,
    &NO_LOSS,
    &MOST,
    &ALIKE_SPREAD,
    &ALIKE_RATIO_LO,
    &ALIKE_RATIO_HI,
    &FULL,
    &seed003::conventions::CLEAR_MAJORITY,
    &seed003::conventions::FACTOR_TWO_LO,
    &seed003::conventions::FACTOR_TWO_HI,
    &seed003::conventions::EFFICIENT,
    &seed003::conventions::TREND_UP,
    &seed003::conventions::TREND_DOWN,
    &seed003::conventions::JAIN_ONE_TO_THREE,
    &seed003::conventions::JAIN_THREE_QUARTERS,
    &seed003::conventions::BELOW_ELEVENTH,
    &seed003::conventions::EVEN_SPLIT_LO,
    &seed003::conventions::EVEN_SPLIT_HI,
    &seed003::conventions::UNDER_TARGET,
    &seed003_ch3::FLAT_IN_UNIT,
    &seed003_ch3::NEAR_LOWER_BOUND_11,
    &seed003_ch3::NEARER_ONE_TARGET,
    &seed003_ch3::EVEN_THIRD,
    &seed003_ch4::NEGLIGIBLE_SHIFT,
    &seed003_swarm::FAR_END,
    &seed003_swarm::AFFECTED,
    &seed003_swarm::SECONDS,
    &seed002::YIELDED,
    &seed002::VISIBLY_SLOWER,
    &seed004::MOST_OF_BUFFER,
    &seed004::MOST_OF_REMAINING,
];

/// Where a number of a claim's direction comes from (rule 14 of [`super`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    /// Read from the paper: `value`, as `written` in `quote` (verbatim, and a quote of a
    /// coverage-map statement the claim tests; `written` is the number as the quote writes
    /// it, `95%` for 0.95).
    Quote {
        /// The direction's number, in the claim's unit.
        value: f64,
        /// The number as the quote writes it.
        written: &'static str,
        /// The paper's words.
        quote: &'static str,
    },
    /// A project convention.
    Convention(&'static Convention),
}

impl Threshold {
    /// The direction's number.
    pub fn value(&self) -> f64 {
        match self {
            Threshold::Quote { value, .. } => *value,
            Threshold::Convention(c) => c.value,
        }
    }
}

/// How a claim relates to a sibling: another claim that reads the same scenario instances
/// for another metric (rule 13 of [`super`]).
#[derive(Clone, Copy, Debug)]
pub enum Sibling {
    /// Values of this claim in an interval imply the sibling's value lies in `map` of it
    /// (`utilisation >= 0.95` implies a CBR share of at least 0.65): the test checks that
    /// this claim's tolerance, mapped, lies inside the sibling's direction, so that no
    /// outcome is reproduced here and contradicted there.
    Implies {
        /// The sibling's id.
        other: &'static str,
        /// From an interval `(lo, hi)` of this claim's values to the interval the sibling's
        /// value must then lie in.
        map: fn((f64, f64)) -> (f64, f64),
        /// Why (the arithmetic).
        why: &'static str,
    },
    /// The two metrics do not constrain each other: why.
    Independent {
        /// The sibling's id.
        other: &'static str,
        /// Why neither value bounds the other.
        why: &'static str,
    },
}

impl Sibling {
    /// The sibling's id.
    pub fn other(&self) -> &'static str {
        match self {
            Sibling::Implies { other, .. } | Sibling::Independent { other, .. } => other,
        }
    }
}

/// A family of claims whose tolerance is written once (rule 10 of [`super`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Family {
    /// Its name.
    pub name: &'static str,
    /// The widest relative half-width of a two-sided tolerance (`Near`, `Between`) around
    /// its centre; `None`: the family fixes no width (the band is the paper's bound, or a
    /// one-sided band cut at the null result).
    pub rel: Option<f64>,
    /// Why this tolerance.
    pub why: &'static str,
}

/// A value the paper states ("about X") or reads off its own figure, and the magnitude of
/// an effect: ± 20 %.
pub const FIGURE_VALUE: Family = Family {
    name: "a value stated or read off a figure",
    rel: Some(0.2),
    why: "figure-reading precision and the seed-to-seed spread in a different simulator",
};

/// A bound the paper states: the bound itself (rule 4).
pub const STATED_BOUND: Family = Family {
    name: "a bound the paper states",
    rel: None,
    why: "the paper's bound is the test; no second loosening on top of it",
};

/// No difference: the tolerance holds the null, ± 20 % of the compared value at most (for a
/// ratio band symmetric on a log scale, `lo × hi = 1`, its lower side: 0.8 to 1.25).
pub const NO_DIFFERENCE: Family = Family {
    name: "no difference",
    rel: Some(0.2),
    why: "alike within the precision a figure can be read to",
};

/// An order's share of seeds: [`ORDER_TOLERANCE`](super::ORDER_TOLERANCE) (rule 2).
pub const ORDER_SHARE: Family = Family {
    name: "an order's share of seeds",
    rel: None,
    why: "at least 8 seeds in 10 show the order",
};

/// A value the paper calls intermediate between two ends it names: the band is the part of
/// the gap clear of both ends, not a tolerance around a value.
pub const INTERMEDIATE: Family = Family {
    name: "intermediate between two ends",
    rel: None,
    why: "the statement gives the two ends, not a value; the band keeps clear of each",
};

/// The families, for the report and the tests.
pub const FAMILIES: &[&Family] = &[
    &FIGURE_VALUE,
    &STATED_BOUND,
    &NO_DIFFERENCE,
    &ORDER_SHARE,
    &INTERMEDIATE,
];
