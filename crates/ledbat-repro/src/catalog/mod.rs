//! The claims of the five seed papers, each with its scenario(s), metric, tolerance and
//! direction, fixed before looking at our numbers.
//!
//! Tolerance policy (applied uniformly, stated per claim):
//! - a value the paper states in its text as "about X" or reads off its own figure: X ± 20 %
//!   (figure-reading precision and seed-to-seed spread in a different simulator);
//! - a qualitative statement ("yields", "shares equally"): the band encodes the statement
//!   with a threshold stated before running (e.g. Jain ≥ 0.9 for "fair");
//! - the direction is the weakest reading of the claim that would still make the paper's
//!   point (e.g. "TCP carries more than LEDBAT").
//!
//! Every claim has a [`Form`], the kind of statement it tests, which fixes what its bands
//! may hold. The rules below apply to every claim; `tests/claim_rules.rs` checks each one
//! over the whole catalog where a test can decide it (the test's name is given), and the
//! others are kept by review, claim by claim:
//!
//! 1. **A direction excludes the null result** (`effects_reject_their_null_result`). A claim
//!    that states an effect ([`Form::Effect`]: more, less, rises, falls, yields) names the
//!    value that means no effect, 1 for a ratio and 0 for a difference or a rank
//!    correlation; neither band holds it (strict bands, `Band::Above`, where the paper gives
//!    no magnitude). A claim that states there is no effect ([`Form::Alike`]) holds it in its
//!    tolerance.
//! 2. **An order is decided in each seed** (`orders_are_judged_on_the_share_of_seeds`;
//!    the runner's `an_order_counts_seeds_not_margins`). "X finishes first", "A before B",
//!    "sooner", "ahead" ([`Form::Order`]): each seed's value says whether that seed shows the
//!    order; the claim's value is the share of seeds that do, with its Wilson interval, and
//!    its bands are [`ORDER_TOLERANCE`] and [`ORDER_DIRECTION`] on that share. Averaging
//!    signed differences would let one seed outweigh nine.
//! 3. **One quantity, one set of bands** (`one_quantity_has_one_set_of_bands`). Claims that
//!    read the same runs for the same metric have the same bands; a claim that reads the same
//!    runs for a quantity computed from another claim's ([`Claim::derived`], a Jain index
//!    from a throughput ratio) has that claim's bands mapped through the same function, so
//!    two claims cannot give contradictory verdicts on one quantity.
//! 4. **A bound the paper states is used as stated** (`stated_bounds_are_used_as_stated`).
//!    "Under 1 packet", "between 12 and 24 ms" ([`Form::Bound`]): the tolerance is that
//!    bound, with no second loosening on top of it (and the metric is the quantity the paper
//!    bounds, not a percentile of it).
//! 5. **A direction encodes the paper's point** (review). "Far worse than the hybrid" is
//!    tested against the hybrid's value in the same setup, not against a bound borrowed
//!    from another protocol's claim; the direction is the statement's own reading.
//! 6. **The paper's clock and acknowledgements are modelled, or their absence explained**
//!    (`stacks_are_modelled_or_explained`). [`STACKS`] says, per scenario family, how the
//!    paper's experiments timestamped packets (1 ms Linux timestamps at 1000 Hz) and whether
//!    their receivers delayed ACKs; every scenario a claim reads matches it, or the claim's
//!    [`Claim::hinge`] runs it the paper's way as well, so the report shows what it changes,
//!    or the family's `Stack::departs` says why not and what it changes (seed 002's 1-ms
//!    clock, not yet modelled).
//! 7. **A sweep covers the paper's range** (`sweeps_cover_the_papers_range`). A claim over
//!    three or more values of one parameter declares the paper's range ([`Claim::sweep`]);
//!    its values reach both ends (where the paper says the effect is largest, there too),
//!    or the declaration says which points are left out and why (run time).
//! 8. **A result that hinges on an unstated choice is fragile** (`hinges_are_run_both_ways`).
//!    A claim whose own explanation says its result depends on something the paper leaves
//!    open declares it ([`Claim::hinge`]): the report marks it fragile and shows the verdict
//!    the other choice gives (its `alt` overrides are run for every seed).
//! 9. **A coverage row is checked only where a claim tests the statement as written**, every
//!    half of it ("X, or restart after Y finished" has two halves); the coverage map's rules
//!    (`crate::coverage`) state and test the rest.
//! 10. **A tolerance is its family's** (`tolerances_are_no_wider_than_their_familys`).
//!     Each family's tolerance is written once ([`Family`]: [`FIGURE_VALUE`] ± 20 %,
//!     [`NO_DIFFERENCE`], [`STATED_BOUND`], [`ORDER_SHARE`], [`INTERMEDIATE`]); a claim's
//!     family is its form's ([`Claim::family`]) unless it declares one; a tolerance wider than
//!     its family's says why in its `tolerance_note` ("wider because ...").
//! 11. **No verdict is fixed by construction** (review, and `untestable_claims_say_why`).
//!     Where the model fixes the value whatever the run (a rule of the model decides it), the
//!     claim is [`Claim::untestable`] with the reason: it still runs and shows its value, and
//!     its verdict is "not testable in this model", counted apart.
//!
//! 12. **Every claim can be proven wrong** (`every_claim_has_a_null`, and
//!     `tests/quick_repro.rs` in quick mode). A claim names its [`Null`]: the run in which the
//!     effect its statement asserts is absent (the mechanism switched off, the two flows'
//!     roles swapped, the controller replaced by the one it is compared with, the parameter
//!     moved to where the paper says the effect vanishes), judged by the claim's own bands;
//!     its verdict there must not be "reproduced", nor the claim's own verdict where that
//!     holds the direction (`NullOutcome::discriminates`), unless the claim lists the
//!     exception with its reason ([`Claim::null_same`]). A plain number with a band names
//!     instead another model's value that its tolerance excludes, or says in one line why
//!     neither exists; the report lists those, and the listed exceptions.
//! 13. **Claims on the same runs declare their relation** (`siblings_declare_their_relation`).
//!     Two claims that read the same scenario instances for other metrics either declare
//!     how one value bounds the other ([`Sibling::Implies`], "utilisation ≥ 0.95 implies a
//!     CBR share of at least 0.65": this claim's tolerance, mapped, must lie inside the
//!     sibling's direction, so no outcome is reproduced for one and contradicted for the
//!     other), or that they do not constrain each other ([`Sibling::Independent`], why), or
//!     one is [`Claim::derived`] from the other (rule 3).
//! 14. **A direction's threshold comes from the claim's own statement**
//!     (`direction_thresholds_come_from_the_statement`). Every number of a direction is the
//!     form's value of no effect, or is declared in [`Claim::thresholds`]: with the quote it
//!     is read from (a quote of a coverage row that names the claim, holding the number as
//!     written), or as a named project [`Convention`] written once ([`FAIR_JAIN`]).
//! 15. **"The scenario cannot show it" is its own verdict** (`preconditions_can_fail`). A
//!     claim whose effect needs a condition of the run ("the queue reaches TARGET")
//!     declares it ([`Precondition`]: a quantity of the same runs and its band); where the
//!     mean over seeds misses it the verdict is "inconclusive", decided by that check and
//!     not by hand, reported and counted apart, never as "not reproduced".
//! 16. **Numbers in explanations come from the run** (`explanations_type_no_figure_of_a_run`).
//!     An explanation quotes a claim's mean as `{=id}`, its null run's as `{=id:null}` and
//!     one seed's value as `{=id@seedN}` (`claims::fill_quotes`); a figure it types is a
//!     number of the paper (the statement, its value, the claim's bands, the coverage map's
//!     quotes and setup rows for its runs), one in a sentence giving the command of the run
//!     it comes from, a reference (section, figure, seed) or a count up to 10.
//!
//! Rules 13, 14 and 16 came after most of the catalog: the claims that do not obey them
//! yet are listed by name in `tests/claim_rules/pending.rs`, and those tests fail on any
//! other claim and on a listed one that obeys now, so the lists only shrink.
//!
//! Older rules, still kept: a direction can fail (some value contradicts it); the tolerance
//! band lies inside the direction band, so that a "reproduced" value never contradicts the
//! claim's own direction.
//!
//! Sweeps are expressed as `--set` overrides of one scenario file, so one file serves a whole
//! gain or target sweep.
//!
//! Layout: this module holds the claim type and the scenario-building helpers; `bounds`
//! where the numbers of a claim's bands come from (conventions, thresholds, tolerance
//! families, sibling relations); one module per paper (`seed000` .. `seed004`) lists that
//! paper's claims; [`extract`] holds the value extractors shared by several claims and
//! [`plots`] the plots drawn from a run.

mod bounds;
pub mod extract;
pub mod plots;
mod seed000;
mod seed001;
mod seed002;
mod seed003;
mod seed003_ch2;
mod seed003_ch3;
mod seed003_ch4;
mod seed003_flash;
mod seed003_p2p;
mod seed003_swarm;
mod seed004;
pub mod variants;

pub use bounds::{
    Convention, Family, Sibling, Threshold, ALIKE_RATIO_HI, ALIKE_RATIO_LO, ALIKE_SPREAD,
    CONVENTIONS, FAIR_JAIN, FAMILIES, FIGURE_VALUE, FULL, INTERMEDIATE, MOST, NO_DIFFERENCE,
    NO_LOSS, ORDER_MAJORITY, ORDER_SHARE, STATED_BOUND,
};
pub use extract::kendall_tau;

use ledbat_sim::RunResult;

/// One scenario instance: a file under `scenarios/` and overrides.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScenarioRef {
    /// Path relative to the scenarios directory.
    pub file: &'static str,
    /// `key=value` overrides (sweep point).
    pub set: Vec<String>,
}

impl ScenarioRef {
    /// The scenario as is.
    pub fn file(file: &'static str) -> Self {
        ScenarioRef {
            file,
            set: Vec::new(),
        }
    }
    /// The scenario with overrides (`key=value` strings).
    pub fn with<S: AsRef<str>>(file: &'static str, set: &[S]) -> Self {
        ScenarioRef {
            file,
            set: set.iter().map(|s| s.as_ref().to_string()).collect(),
        }
    }
    /// Display form: `file [k=v, ...]`.
    pub fn label(&self) -> String {
        if self.set.is_empty() {
            self.file.to_string()
        } else {
            format!("{} [{}]", self.file, self.set.join(", "))
        }
    }
}

/// The same scenario file with `key` set to each of `values` in turn (one sweep point each).
pub fn sweep(file: &'static str, key: &str, values: &[f64]) -> Vec<ScenarioRef> {
    values
        .iter()
        .map(|v| ScenarioRef::with(file, &[format!("{key}={v}")]))
        .collect()
}

/// Several scenario files, each as is (the order the claim's extractor expects).
pub fn files(files: &[&'static str]) -> Vec<ScenarioRef> {
    files.iter().map(|f| ScenarioRef::file(f)).collect()
}

/// Extracts one number from one seed's runs (in the claim's scenario order).
pub type Extract = fn(&[&RunResult]) -> Result<f64, String>;

/// The kind of statement a claim tests (module doc, rules 1, 2 and 4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Form {
    /// The placeholder of [`Claim::base`]; a catalog test rejects it.
    Unset,
    /// A value the paper gives ("about 27 ms"): a tolerance around it.
    Value,
    /// A bound the paper states ("under 1 packet": `hi`; "between 12 and 24 ms": both): the
    /// tolerance is exactly that bound.
    Bound {
        /// Lower bound, if stated.
        lo: Option<f64>,
        /// Upper bound, if stated.
        hi: Option<f64>,
    },
    /// An effect in one direction; `null` means no effect, and neither band holds it.
    Effect {
        /// The value of no effect (1 for a ratio, 0 for a difference or a correlation).
        null: f64,
    },
    /// No effect ("alike", "no difference"): the tolerance holds `null`.
    Alike {
        /// The value of no difference.
        null: f64,
    },
    /// An order, decided in each seed: a seed shows it when its value lies above `null`
    /// (`above`) or below it; the claim's value is the share of seeds that show it.
    Order {
        /// The value at which neither order holds (0 for a difference, 1 for a ratio).
        null: f64,
        /// Whether the order is shown by values above `null`.
        above: bool,
    },
}

/// The bands of an order's share of seeds (rule 2): reproduced when at least 8 seeds in 10
/// show it; the direction holds when more than half do (the null share, 0.5, is excluded).
pub const ORDER_TOLERANCE: crate::claims::Band = crate::claims::Band::AtLeast { bound: 0.8 };
/// See [`ORDER_TOLERANCE`].
pub const ORDER_DIRECTION: crate::claims::Band = crate::claims::Band::Above { bound: 0.5 };

impl Form {
    /// Whether `value` (one seed's) shows an order; `None` for a form that is not one.
    pub fn shows_order(&self, value: f64) -> Option<bool> {
        match *self {
            Form::Order { null, above } => Some(if above { value > null } else { value < null }),
            _ => None,
        }
    }
}

/// An unstated choice (or a departure of the setup) that a claim's result hinges on
/// (module doc, rules 6 and 8): the claim is also run with `alt`, and the report shows the
/// verdict that gives beside its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hinge {
    /// The choice, as the report names it (`current-delay filter length`).
    pub choice: &'static str,
    /// Overrides giving the other choice, appended to the claim's scenarios.
    pub alt: &'static [&'static str],
    /// The scenario files `alt` applies to; empty: all of the claim's.
    pub files: &'static [&'static str],
    /// Whether the paper leaves the choice open (rule 8: the claim is fragile whatever the
    /// other choice gives); `false` for a departure from what the paper states (rule 6:
    /// fragile only where the other choice flips the verdict).
    pub unstated: bool,
}

/// The counterfactual that would prove a claim wrong (module doc, rule 12): a run in which
/// the effect the statement asserts is absent, and so whose verdict must not be the claim's
/// own; or, for a plain number with a band, another model's value that the band must
/// exclude; or why neither exists.
#[derive(Clone, Debug, PartialEq)]
pub enum Null {
    /// The placeholder of [`Claim::base`]; a catalog test rejects it.
    Unset,
    /// A null run: the claim's scenarios with `set` appended to those whose file is in
    /// `files` (all of them when `files` is empty), judged by the claim's own bands.
    Run {
        /// What the null run changes and why the effect vanishes there (one line).
        setup: &'static str,
        /// Overrides giving the null setup.
        set: &'static [&'static str],
        /// The scenario files `set` applies to; empty: all of the claim's.
        files: &'static [&'static str],
    },
    /// A null run on other scenario instances: as many as the claim's own, in its order
    /// (where a null needs different overrides per sweep point, or another file); fewer,
    /// file for file, where the extractor reads only the first ones, or another sampling
    /// of a one-file curve (`every_claim_has_a_null`).
    Scenarios {
        /// What the null run changes and why the effect vanishes there (one line).
        setup: &'static str,
        /// The null's scenario instances, in the order the claim's extractor expects.
        scenarios: Vec<ScenarioRef>,
    },
    /// No meaningful null run (a plain number with a band): another model's value, which
    /// the claim's tolerance band must exclude.
    Excludes {
        /// The alternative model's value, in the claim's unit.
        value: f64,
        /// The model that gives it, and where from (one line).
        model: &'static str,
    },
    /// Neither a null run nor an alternative value exists: why, in one line.
    None {
        /// The reason.
        reason: &'static str,
    },
}

impl Null {
    /// A null run with `set` appended to every scenario of the claim.
    pub fn run(setup: &'static str, set: &'static [&'static str]) -> Null {
        Null::Run {
            setup,
            set,
            files: &[],
        }
    }
    /// A null run with `set` appended to the claim's scenarios whose file is in `files`.
    pub fn run_on(
        setup: &'static str,
        files: &'static [&'static str],
        set: &'static [&'static str],
    ) -> Null {
        Null::Run { setup, set, files }
    }
    /// A null run on other scenario instances (as many as the claim's, in its order).
    pub fn scenarios(setup: &'static str, scenarios: Vec<ScenarioRef>) -> Null {
        Null::Scenarios { setup, scenarios }
    }
    /// An alternative model's value the claim's tolerance band must exclude.
    pub fn excludes(value: f64, model: &'static str) -> Null {
        Null::Excludes { value, model }
    }
    /// Why the claim has neither a null run nor an alternative value.
    pub fn none(reason: &'static str) -> Null {
        Null::None { reason }
    }
}

/// What a claim's runs must show for its scenario to show the effect at all (module doc,
/// rule 15): a quantity of the same runs and the band it must lie in ("the queue reaches
/// TARGET": the mean queueing delay at least 25 ms). When the mean over seeds lies outside,
/// the verdict is "inconclusive", whatever the claim's own value.
#[derive(Clone, Debug)]
pub struct Precondition {
    /// What must hold, in words.
    pub what: &'static str,
    /// The quantity, from one seed's runs (in the claim's scenario order).
    pub extract: Extract,
    /// The band it must lie in.
    pub band: crate::claims::Band,
}

/// The paper's range of a swept parameter (module doc, rule 7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepRange {
    /// The swept key (`flow.0.cc.gain`).
    pub key: &'static str,
    /// The paper's lowest and highest values, in the units the key's values are written in.
    pub paper: (f64, f64),
    /// Which of the paper's points are left out and why; empty when none are.
    pub left_out: &'static str,
}

/// A quantity computed from another claim's on the same runs (module doc, rule 3).
#[derive(Clone, Copy, Debug)]
pub struct Derived {
    /// The claim it is computed from.
    pub from: &'static str,
    /// The function from that claim's value to this one's (monotone).
    pub map: fn(f64) -> f64,
}

/// How one family of scenarios' paper timestamped packets and acknowledged them (module
/// doc, rule 6).
#[derive(Clone, Copy, Debug)]
pub struct Stack {
    /// Scenario files this applies to: a path prefix under `scenarios/`.
    pub files: &'static str,
    /// The paper's setup, and where it says so.
    pub paper: &'static str,
    /// Tick of the timestamps (0: not quantised, as ns-2's clock or a microsecond stamp).
    pub timestamp_tick: ledbat_core::Duration,
    /// Whether the receivers delayed their ACKs.
    pub delayed_ack: bool,
    /// Where the family's scenarios depart from this stack: why, and what it changes (rule
    /// 6's "or the claim says why not"); empty where they match it.
    pub departs: &'static str,
}

/// Why seed 002's scenarios do not stamp at 1 ms (rule 6).
const SEED002_CLOCK: &str = "the scenarios keep exact timestamps by default. The two-flow, \
    five-flow and Fig. 5 files (scenarios/seed002/two-flows-*.toml, five-flows-mdvar.toml, \
    fig5-*.toml) are also run the paper's way, stamped at 1 ms on both hosts: the `timestamp \
    resolution` rows of docs/repro/coverage/seed002.toml are hinges, so every claim on those \
    files shows in the report the verdict the 1-ms clock gives beside its own, and is marked \
    fragile where it flips (some two-flow fairness and finishing-order verdicts do). The \
    tcp-20mbps files are run with exact stamps only, and what the 1-ms clock changes there \
    is not measured. Which difference between the simulator's 1-ms clock and the paper's \
    Linux stack makes the 1-ms runs depart from the paper is not established, so the exact \
    clock stays the default.";

/// The papers' stacks (rule 6), most specific prefix first.
pub const STACKS: &[Stack] = &[
    Stack {
        files: "seed002/tcp-20mbps",
        paper: "seed 002 section 5.4: the same Linux stack with 1 ms timestamps, and \"in \
                both of these scenarios delayed ACKs are not deactivated\"",
        timestamp_tick: ledbat_core::Duration::from_millis(1),
        delayed_ack: true,
        departs: SEED002_CLOCK,
    },
    Stack {
        files: "seed002/",
        paper: "seed 002 section 4: Linux kernel TCP (through the Network Simulation Cradle \
                in IKR SimLib), the kernel timer at 1000 Hz for 1 ms timestamps, delayed \
                ACKs patched out for the simulations",
        timestamp_tick: ledbat_core::Duration::from_millis(1),
        delayed_ack: false,
        departs: SEED002_CLOCK,
    },
    Stack {
        files: "seed003/swarm-flashcrowd",
        paper: "seed 003 section 6.2.1: uTorrent 3.0 on Linux; its TCP is the kernel's \
                (CUBIC, delayed ACKs on, as Linux by default), its uTP stamps microseconds",
        timestamp_tick: ledbat_core::Duration::ZERO,
        delayed_ack: true,
        departs: "",
    },
    Stack {
        files: "seed003/table21",
        paper: "seed 003 section 2.3: real clients; the TCP flows are Linux NewReno, whose \
                receivers delay ACKs by default, uTorrent's uTP stamps microseconds",
        timestamp_tick: ledbat_core::Duration::ZERO,
        delayed_ack: true,
        departs: "",
    },
    Stack {
        files: "seed001/",
        paper: "seed 001 section II: ns-2 with TCP-Linux; the paper states neither a \
                timestamp resolution nor delayed ACKs, and ns-2's sinks acknowledge every \
                packet unless a delayed-ACK sink is chosen",
        timestamp_tick: ledbat_core::Duration::ZERO,
        delayed_ack: false,
        departs: "",
    },
    Stack {
        files: "seed000/",
        paper: "seed 000 section III: ns-2.34, TCP timestamp option on ns-2's clock, other \
                parameters at ns-2's defaults (no delayed ACKs)",
        timestamp_tick: ledbat_core::Duration::ZERO,
        delayed_ack: false,
        departs: "",
    },
    Stack {
        files: "seed003/",
        paper: "seed 003 chapters 3-5 and 7: ns-2 with the thesis's own LEDBAT module, ns-2's \
                clock and TCP sink (no delayed ACKs)",
        timestamp_tick: ledbat_core::Duration::ZERO,
        delayed_ack: false,
        departs: "",
    },
    Stack {
        files: "seed004/",
        paper: "seed 004 section IV: ns-2, its clock and TCP sink (no delayed ACKs)",
        timestamp_tick: ledbat_core::Duration::ZERO,
        delayed_ack: false,
        departs: "",
    },
];

/// The stack of the paper a scenario file belongs to (rule 6).
pub fn stack_of(file: &str) -> Option<&'static Stack> {
    STACKS.iter().find(|s| file.starts_with(s.files))
}
/// Draws plots from the first seed's runs.
pub type Draw = fn(&[&RunResult]) -> Vec<crate::plot::Plot>;

/// A claim of a paper.
#[derive(Clone)]
pub struct Claim {
    /// Stable identifier (`s003-ledbat-newreno-jain`).
    pub id: &'static str,
    /// Seed paper short name.
    pub paper: &'static str,
    /// Figure, table or section.
    pub figure: &'static str,
    /// The paper's statement.
    pub statement: &'static str,
    /// The paper's value as stated.
    pub paper_value: &'static str,
    /// Unit of the metric.
    pub unit: &'static str,
    /// What exactly is measured.
    pub metric: &'static str,
    /// Scenarios, in the order the extractor expects.
    pub scenarios: Vec<ScenarioRef>,
    /// The extractor.
    pub extract: Extract,
    /// Optional plots.
    pub draw: Option<Draw>,
    /// Tolerance band (reproduced).
    pub tolerance: crate::claims::Band,
    /// Direction band (differs vs not reproduced).
    pub direction: crate::claims::Band,
    /// Why this tolerance.
    pub tolerance_note: &'static str,
    /// Explanation when it does not reproduce (filled after investigation), or a setup note.
    pub explanation: &'static str,
    /// The kind of statement (module doc, rules 1, 2 and 4).
    pub form: Form,
    /// Why the model cannot decide the statement (rule 11); `None` for a testable claim.
    pub untestable: Option<&'static str>,
    /// An unstated choice or a setup departure the result hinges on (rules 6 and 8).
    pub hinge: Option<Hinge>,
    /// The paper's range of the parameter the claim sweeps (rule 7).
    pub sweep: Option<SweepRange>,
    /// The claim whose value this one is computed from, on the same runs (rule 3).
    pub derived: Option<Derived>,
    /// The counterfactual that would prove the claim wrong (rule 12).
    pub null: Null,
    /// Why the claim's verdict may be the same under its null run (rule 12's listed
    /// exceptions, printed by the report); `None`: it may not, and `tests/quick_repro.rs`
    /// fails when it is.
    pub null_same: Option<&'static str>,
    /// What the runs must show for the scenario to show the effect at all (rule 15); when
    /// it fails the verdict is "inconclusive".
    pub precondition: Option<Precondition>,
    /// Where the numbers of the claim's direction come from (rule 14): each with the quote
    /// of the paper it is read from, or a named convention.
    pub thresholds: &'static [Threshold],
    /// How the claim relates to the other claims that read the same runs for another metric
    /// (rule 13).
    pub siblings: &'static [Sibling],
    /// The family whose tolerance the claim's is (rule 10); `None`: its form's
    /// ([`Claim::family`]).
    pub family: Option<&'static Family>,
}

impl Claim {
    /// A claim with only its id and paper filled in (the paper from the id's `s00N-`
    /// prefix); every other field is a placeholder the caller replaces with struct-update
    /// syntax, `Claim { statement: .., ..Claim::base("s000-x") }`. A catalog test checks
    /// that no placeholder is left.
    pub fn base(id: &'static str) -> Claim {
        use crate::claims::Band;
        let paper = match id.get(..5) {
            Some("s000-") => "seed000",
            Some("s001-") => "seed001",
            Some("s002-") => "seed002",
            Some("s003-") => "seed003",
            Some("s004-") => "seed004",
            _ => "",
        };
        Claim {
            id,
            paper,
            figure: "",
            statement: "",
            paper_value: "",
            unit: "",
            metric: "",
            scenarios: Vec::new(),
            extract: |_| Err("no extractor".into()),
            draw: None,
            tolerance: Band::AtLeast {
                bound: f64::INFINITY,
            },
            direction: Band::AtLeast {
                bound: f64::INFINITY,
            },
            tolerance_note: "",
            explanation: "",
            form: Form::Unset,
            untestable: None,
            hinge: None,
            sweep: None,
            derived: None,
            null: Null::Unset,
            null_same: None,
            precondition: None,
            thresholds: &[],
            siblings: &[],
            family: None,
        }
    }

    /// The claim's tolerance family (rule 10): the one it declares, else its form's.
    pub fn family(&self) -> &'static Family {
        if let Some(f) = self.family {
            return f;
        }
        match self.form {
            Form::Order { .. } => &ORDER_SHARE,
            Form::Bound { .. } => &STATED_BOUND,
            Form::Alike { .. } => &NO_DIFFERENCE,
            Form::Value | Form::Effect { .. } | Form::Unset => &FIGURE_VALUE,
        }
    }

    /// The null run's scenarios ([`Null::Run`] applied to the claim's, or
    /// [`Null::Scenarios`]'s own); `None` for a null without a run.
    pub fn null_scenarios(&self) -> Option<Vec<ScenarioRef>> {
        match &self.null {
            Null::Run { set, files, .. } => Some(
                self.scenarios
                    .iter()
                    .map(|s| {
                        let mut s = s.clone();
                        if files.is_empty() || files.contains(&s.file) {
                            s.set.extend(set.iter().map(|a| a.to_string()));
                        }
                        s
                    })
                    .collect(),
            ),
            Null::Scenarios { scenarios, .. } => Some(scenarios.clone()),
            _ => None,
        }
    }

    /// The hinge's scenarios: the claim's, each with the hinge's `alt` appended.
    pub fn hinge_scenarios(&self) -> Option<Vec<ScenarioRef>> {
        let h = self.hinge?;
        Some(
            self.scenarios
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    if h.files.is_empty() || h.files.contains(&s.file) {
                        s.set.extend(h.alt.iter().map(|a| a.to_string()));
                    }
                    s
                })
                .collect(),
        )
    }
}

/// Reduced variants of long scenarios for `--quick`: (file, overrides, what changes).
pub const QUICK: &[(&str, &[&str], &str)] = &[
    (
        "seed001/base-growth.toml",
        &["duration=25min", "flow.0.cc.delay.base_interval=30s"],
        "base-delay buckets of 30 s instead of 1 min (BASE_HISTORY still 10), 25 min simulated: \
         the growth period becomes 5 min instead of 10, loss expected near 15 min instead of 30",
    ),
    (
        "seed001/base-growth-jitter.toml",
        &["duration=12min", "flow.0.cc.delay.base_interval=30s"],
        "base-delay buckets of 30 s, 12 min simulated (two growth periods)",
    ),
    (
        "seed001/short-tcp-alone.toml",
        &["duration=300s"],
        "240 s of transfers instead of 600 s",
    ),
    (
        "seed001/short-tcp-ledbat.toml",
        &["duration=300s"],
        "240 s of transfers instead of 600 s",
    ),
    (
        "seed001/web-up-alone.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed001/web-up-ledbat.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed001/web-down-alone.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed001/web-down-ledbat.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed000/dynamic-gain-cbr.toml",
        &["duration=60s"],
        "60 s instead of 180 s",
    ),
    (
        "seed000/fixed-gain-cbr.toml",
        &["duration=60s"],
        "60 s instead of 180 s",
    ),
    (
        "seed003/target-sweep.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/lbe10-ledbat.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/lbe10-nice.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/lbe10-tcp-lp.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/aqm-droptail.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/aqm-red.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/chunks-ledbat.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/chunks-fledbat.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/swarm.toml",
        &[
            "swarm.leechers=40",
            "swarm.discard=10",
            "swarm.measure=20",
            "swarm.file_size=\"4MiB\"",
        ],
        "40 leechers instead of 100, 10 completions discarded and 20 measured instead of 50 \
         and 50, a 4 MiB file instead of 10 MiB",
    ),
    (
        "seed003/swarm-target.toml",
        &[
            "swarm.leechers=40",
            "swarm.discard=10",
            "swarm.measure=20",
            "swarm.file_size=\"4MiB\"",
        ],
        "40 leechers instead of 100, 10 + 20 completions instead of 50 + 50, a 4 MiB file",
    ),
    (
        "seed003/swarm-flashcrowd.toml",
        &[
            "swarm.leechers=20",
            "swarm.measure=20",
            "swarm.file_size=\"4MiB\"",
            "swarm.piece_size=\"64KiB\"",
        ],
        "20 leechers instead of 75, a 4 MiB file in 64-KiB pieces instead of 100 MB in 1-MiB \
         pieces",
    ),
    (
        "seed004/hybrid-five.toml",
        &["duration=460s", "warmup=410s"],
        "flows measured over 410-460 s (all five present) instead of 420-600 s",
    ),
];

/// Every claim, in report order.
pub fn all() -> Vec<Claim> {
    let mut v = seed000::claims();
    v.extend(seed001::claims());
    v.extend(seed002::claims());
    v.extend(seed003::claims());
    v.extend(seed003_ch2::claims());
    v.extend(seed003_ch3::claims());
    v.extend(seed003_ch4::claims());
    v.extend(seed003_p2p::claims());
    v.extend(seed003_swarm::claims());
    v.extend(seed003_flash::claims());
    v.extend(seed004::claims());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn scenarios_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
    }

    #[test]
    fn claim_ids_are_unique_and_prefixed_by_their_paper() {
        let mut seen = HashSet::new();
        for c in all() {
            assert!(seen.insert(c.id), "duplicate id {}", c.id);
            assert!(
                c.id.starts_with(&format!("s{}", &c.paper[4..])),
                "{} vs {}",
                c.id,
                c.paper
            );
            assert!(!c.scenarios.is_empty(), "{} has no scenario", c.id);
            assert!(!c.tolerance_note.is_empty());
        }
    }

    #[test]
    fn no_claim_keeps_a_placeholder_of_claim_base() {
        for c in all() {
            assert!(!c.paper.is_empty(), "{}: paper", c.id);
            for (what, v) in [
                ("figure", c.figure),
                ("statement", c.statement),
                ("paper_value", c.paper_value),
                ("unit", c.unit),
                ("metric", c.metric),
            ] {
                assert!(!v.is_empty(), "{}: empty {what}", c.id);
            }
            for b in [&c.tolerance, &c.direction] {
                let (lo, hi) = b.interval();
                assert!(
                    lo.is_finite() || hi.is_finite(),
                    "{}: placeholder band",
                    c.id
                );
                assert!(!(lo == f64::INFINITY), "{}: placeholder band", c.id);
            }
        }
    }

    #[test]
    fn every_scenario_instance_parses_and_validates() {
        for c in all() {
            for s in &c.scenarios {
                let text = std::fs::read_to_string(scenarios_dir().join(s.file))
                    .unwrap_or_else(|e| panic!("{}: {e}", s.file));
                assert!(
                    text.starts_with("# Seed 00"),
                    "{} must open with a comment citing its figure",
                    s.file
                );
                ledbat_sim::Scenario::from_toml_with(&text, &s.set)
                    .unwrap_or_else(|e| panic!("{}: {e}", s.label()));
            }
        }
    }

    #[test]
    fn explanations_quote_only_existing_claims() {
        let ids: HashSet<&str> = all().iter().map(|c| c.id).collect();
        for c in all() {
            for q in crate::claims::quoted_claims(c.explanation) {
                assert!(ids.contains(q), "{} quotes unknown claim {q}", c.id);
            }
        }
    }

    /// Rule 12: every claim names a null that can be checked.
    #[test]
    fn every_claim_has_a_null() {
        let mut bad = Vec::new();
        for c in all() {
            let loads = |s: &ScenarioRef| {
                std::fs::read_to_string(scenarios_dir().join(s.file))
                    .map_err(|e| e.to_string())
                    .and_then(|t| {
                        ledbat_sim::Scenario::from_toml_with(&t, &s.set).map_err(|e| e.to_string())
                    })
            };
            match &c.null {
                Null::Unset => bad.push(format!("{}: names no null", c.id)),
                Null::Run { setup, set, files } => {
                    if setup.trim().is_empty() || set.is_empty() {
                        bad.push(format!(
                            "{}: a null run needs its setup and overrides",
                            c.id
                        ));
                    }
                    for f in *files {
                        if !c.scenarios.iter().any(|s| s.file == *f) {
                            bad.push(format!("{}: the null's file {f} is not the claim's", c.id));
                        }
                    }
                }
                Null::Scenarios { setup, scenarios } => {
                    if setup.trim().is_empty() {
                        bad.push(format!("{}: a null run needs its setup", c.id));
                    }
                    // A sweep of one file is a curve its extractor reads at any length
                    // (a rank correlation, a knee): the null may sample it elsewhere, and
                    // `tests/quick_repro.rs` fails if that gives no value.
                    let one_file = |v: &[ScenarioRef]| v.iter().all(|s| s.file == v[0].file);
                    let curve = c.scenarios.len() >= 3
                        && scenarios.len() >= 3
                        && one_file(&c.scenarios)
                        && one_file(scenarios);
                    // An extractor that reads only the first instances (the two smallest
                    // zetas of a sweep) may be given just those, file for file.
                    let prefix = scenarios.len() < c.scenarios.len()
                        && scenarios
                            .iter()
                            .zip(&c.scenarios)
                            .all(|(n, o)| n.file == o.file);
                    if scenarios.len() != c.scenarios.len() && !curve && !prefix {
                        bad.push(format!(
                            "{}: the null has {} scenario instances, the claim {}",
                            c.id,
                            scenarios.len(),
                            c.scenarios.len()
                        ));
                    }
                }
                Null::Excludes { value, model } => {
                    if !value.is_finite() || c.tolerance.holds(*value) {
                        bad.push(format!(
                            "{}: the alternative value {value} lies in the tolerance {}",
                            c.id,
                            c.tolerance.describe()
                        ));
                    }
                    if model.trim().is_empty() {
                        bad.push(format!("{}: an alternative value needs its model", c.id));
                    }
                }
                Null::None { reason } => {
                    if reason.trim().is_empty() {
                        bad.push(format!("{}: no null without a reason", c.id));
                    }
                }
            }
            for s in c.null_scenarios().unwrap_or_default() {
                if let Err(e) = loads(&s) {
                    bad.push(format!(
                        "{}: the null's {} does not load: {e}",
                        c.id,
                        s.label()
                    ));
                }
            }
            if let Some(why) = c.null_same {
                if why.trim().is_empty() || c.null_scenarios().is_none() {
                    bad.push(format!(
                        "{}: null_same is the reason a null run may give the claim's own verdict",
                        c.id
                    ));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "{} problems:\n{}",
            bad.len(),
            bad.join("\n")
        );
    }

    #[test]
    fn quick_overrides_apply_to_existing_files() {
        for (file, set, note) in QUICK {
            let text = std::fs::read_to_string(scenarios_dir().join(file)).unwrap();
            ledbat_sim::Scenario::from_toml_with(&text, set)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(!note.is_empty());
        }
    }

    #[test]
    fn sweep_sets_one_key_per_point_in_order() {
        let s = sweep("seed000/fixed-gain.toml", "flow.0.cc.gain", &[0.125, 10.0]);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].set, vec!["flow.0.cc.gain=0.125".to_string()]);
        assert_eq!(s[1].set, vec!["flow.0.cc.gain=10".to_string()]);
        assert_eq!(s[1].label(), "seed000/fixed-gain.toml [flow.0.cc.gain=10]");
    }

    #[test]
    fn claims_are_listed_paper_by_paper_in_report_order() {
        let papers: Vec<&str> = all().iter().map(|c| c.paper).collect();
        let mut sorted = papers.clone();
        sorted.sort();
        assert_eq!(papers, sorted);
        assert_eq!(papers.first(), Some(&"seed000"));
        assert_eq!(papers.last(), Some(&"seed004"));
    }
}
