//! Directions that can fail, and sibling claims that cannot both pass on one value.
//!
//! A claim's direction separates "differs" from "not reproduced"; it is worth something only
//! if some value its scenario can produce falls outside it. This test gives every claim the
//! range its metric can take: the range the metric's definition allows (a share in [0, 1],
//! Kendall's τ in [−1, 1], a Jain index of n flows in [1/n, 1], a delay of at least zero),
//! narrowed where the scenario's physics does (a constant-rate competitor caps the share
//! left to the others; a transfer takes at least its size over the capacity; a DropTail
//! queue delays a packet at most its buffer over the rate). It fails where no value in that
//! range fails the direction, and where no value in it could be reproduced.
//!
//! Sibling claims read one sweep (a scenario file both read and one of them sweeps over a
//! key) for one figure or table of the paper, in the same unit;
//! where their statements differ ("keeps 50 %" and "falls to about 45 %") a value must not
//! reproduce both, so their tolerance bands must be disjoint. Pairs whose bands overlap
//! because they state the same thing, or measure different things in one unit, are listed
//! in `SIBLINGS_APART` with the reason.

use ledbat_repro::catalog::{self, Claim, Form};
use ledbat_repro::claims::Band;
use std::collections::BTreeMap;
use std::path::Path;

/// The range a metric's definition allows, by the claim's unit.
const BY_UNIT: &[(&str, f64, f64)] = &[
    ("ms", 0.0, f64::INFINITY),
    ("s", 0.0, f64::INFINITY),
    ("min", 0.0, f64::INFINITY),
    ("packets", 0.0, f64::INFINITY),
    ("Mb/s", 0.0, f64::INFINITY),
    ("retransmissions", 0.0, f64::INFINITY),
    ("timeouts per transfer", 0.0, f64::INFINITY),
    ("growth periods", 0.0, f64::INFINITY),
    ("x lower bound", 1.0, f64::INFINITY),
    ("% of the buffer", 0.0, 100.0),
    ("ratio", 0.0, f64::INFINITY),
    ("ratio of medians", 0.0, f64::INFINITY),
    ("ratio of means", 0.0, f64::INFINITY),
    ("TCP / LEDBAT", 0.0, f64::INFINITY),
    ("TCP bytes / LEDBAT bytes", 0.0, f64::INFINITY),
    ("max / min", 1.0, f64::INFINITY),
    ("T1 / T2", 0.0, f64::INFINITY),
    ("all-10 / all-31", 0.0, f64::INFINITY),
    // a download time over the time the downlink alone would need: at least 1
    ("× the downlink limit", 1.0, f64::INFINITY),
    ("coefficient of variation", 0.0, f64::INFINITY),
    ("relative spread", 0.0, f64::INFINITY),
    ("relative increase", -1.0, f64::INFINITY),
    ("Kendall τ", -1.0, 1.0),
    ("Pearson r", -1.0, 1.0),
    ("× the stated value", 0.0, f64::INFINITY),
    ("Kendall's tau", -1.0, 1.0),
    ("Kendall tau", -1.0, 1.0),
    ("Jain index", 0.0, 1.0),
    ("fraction of capacity", 0.0, 1.0),
    ("share", 0.0, 1.0),
    ("efficiency", 0.0, 1.0),
    ("utilisation", 0.0, 1.0),
    ("TCP share", 0.0, 1.0),
    ("LEDBAT share", 0.0, 1.0),
    ("TCP byte share", 0.0, 1.0),
    ("first flow's share", 0.0, 1.0),
    ("share of the link", 0.0, 1.0),
    ("share of throughput", 0.0, 1.0),
    ("Brk", 0.0, 1.0),
    ("loss rate", 0.0, 1.0),
    ("fraction", 0.0, 1.0),
    ("fraction of samples", 0.0, 1.0),
    ("fraction of k", 0.0, 1.0),
    ("fraction of N", 0.0, 1.0),
    ("fraction of arrivals", 0.0, 1.0),
    ("fraction of dequeues", 0.0, 1.0),
    ("queue / buffer", 0.0, 1.0),
    ("|ΔTCP share|", 0.0, 1.0),
    ("largest |Δ|", 0.0, 1.0),
    ("Jain difference", -1.0, 1.0),
    ("share difference", -1.0, 1.0),
    ("efficiency difference", -1.0, 1.0),
    ("efficiency points", -1.0, 1.0),
    ("TCP share at 40 % minus at 100 %", -1.0, 1.0),
    ("relative difference", f64::NEG_INFINITY, f64::INFINITY),
    // an error left over the error at the start: below 0 where the estimate overshoots
    ("fraction of the error", f64::NEG_INFINITY, f64::INFINITY),
    ("ratio difference", f64::NEG_INFINITY, f64::INFINITY),
    // one delay's spread less another's (ms): below zero when the second is the larger
    ("ms difference", f64::NEG_INFINITY, f64::INFINITY),
    ("log10 zeta", f64::NEG_INFINITY, f64::INFINITY),
    // the queue less the fluid model's C tau: below zero when the queue holds less
    ("packets above C tau", f64::NEG_INFINITY, f64::INFINITY),
    // a time in units of the thesis's 20 s
    ("x 20 s", 0.0, f64::INFINITY),
    // a time in units of the thesis's 25 s (Fig. 4.1(a)'s loss)
    ("x 25 s", 0.0, f64::INFINITY),
    // the slowest of the slots' rates over their mean: at most 1
    ("slowest slot / mean slot", 0.0, 1.0),
    ("points", -100.0, 100.0),
    // (a - b) / (c - b): where a lies against b and c, below 0 or above 1 when outside them
    ("position", f64::NEG_INFINITY, f64::INFINITY),
];

/// Claims whose scenario narrows the range its unit allows: (claim, lo, hi, why).
const BY_CLAIM: &[(&str, f64, f64, &str)] = &[
    (
        "s000-gain40-share-with-udp",
        0.0,
        0.5,
        "the 750 kb/s CBR keeps half of the 1.5 Mb/s whenever the 50-packet queue has room",
    ),
    (
        "s000-dynamic-utilisation-cbr",
        0.0,
        0.5,
        "the 750 kb/s CBR keeps half of the 1.5 Mb/s",
    ),
    (
        "s000-fixed-cbr-half-to-80",
        0.0,
        0.5,
        "the 750 kb/s CBR keeps half of the 1.5 Mb/s",
    ),
    (
        "s000-fixed-cbr-share-at-400",
        -50.0,
        50.0,
        "a fall in points of two shares the 750 kb/s CBR caps at half of the 1.5 Mb/s",
    ),
    (
        "s004-hybrid-yields-to-cbr",
        0.0,
        0.7,
        "the 300 kb/s CBR keeps its rate on the 1 Mb/s link while it loses nothing: 0.7 Mb/s is left",
    ),
    (
        "s002-last-finish-linear",
        160.0,
        f64::INFINITY,
        "two transfers of 100 MB at 10 Mb/s take at least 160 s",
    ),
    (
        "s001-short-tcp-alone",
        145.0,
        f64::INFINITY,
        "10 packets of 12 ms each at 1 Mb/s plus one 25-ms round trip",
    ),
    (
        "s001-short-tcp-beside-ledbat",
        145.0,
        f64::INFINITY,
        "10 packets of 12 ms each at 1 Mb/s plus one 25-ms round trip",
    ),
    (
        "s004-newreno-queue-delay",
        0.0,
        400.0,
        "50 packets of 8 ms at 1 Mb/s",
    ),
    (
        "s004-hybrid-queue-delay",
        0.0,
        400.0,
        "50 packets of 8 ms at 1 Mb/s",
    ),
    (
        "s003-droptail-queue",
        0.0,
        1.0,
        "500 packets of 1.2 ms at 10 Mb/s: the queue as a share of its 600 ms",
    ),
];

/// Sibling pairs whose tolerance bands may overlap: (claim, claim, why).
const SIBLINGS_APART: &[(&str, &str, &str)] = &[
    (
        "s003-tab21-tcpw-mix-fairness",
        "s003-tab21-tcp-retransmissions",
        "different quantities in one unit: the share of mixes whose Jain index matches the \
         table's, and the share of runs whose retransmission percentage does",
    ),
    (
        "s003-tab21-tcpl-mix-fairness",
        "s003-tab21-tcp-retransmissions",
        "different quantities in one unit: the share of mixes whose Jain index matches the \
         table's, and the share of runs whose retransmission percentage does",
    ),
    (
        "s003-fledbat-vs-ledbat-small-zeta",
        "s003-fledbat-latecomer-starves-ledbat",
        "different runs of one file: random starts in [0, 10] s, and LEDBAT first with the \
         fLEDBAT latecomer 10 s later; both statements bound LEDBAT's share from above",
    ),
    (
        "s003-lbe-n-efficiency-ranking",
        "s003-lbe-n-lbe-fill-capacity",
        "different quantities in one unit: the share of seeds in which LEDBAT and NICE fill \
         more than TCP-LP and TCP at every N, and LEDBAT's and NICE's lowest efficiency",
    ),
    (
        "s003-latecomer-vs-tcp-negligible",
        "s003-latecomer-ledbat-first-vs-tcp-negligible",
        "the two start orders against TCP, each against a simultaneous start: different runs \
         (LEDBAT late, LEDBAT first), so one value is never both claims'",
    ),
    (
        "s003-fledbat-n-flows-fair",
        "s003-fledbat-n5-any-zone-zeta-fair",
        "different quantities in one unit: the best zeta's index at the worst N, and the \
         worst zeta's index at N = 5",
    ),
    (
        "s000-fixed-cbr-share-at-400",
        "s000-fixed-cbr-falls-beyond-80",
        "different quantities: the share's fall from gain 40 to 400, and from 80 to 160",
    ),
    (
        "s001-jitter-sweep-still-grows",
        "s001-interruptions-alone-grow",
        "one statement (the growth persists) on two setups: sender jitter, interruptions alone",
    ),
    (
        "s001-smaller-target-less-harm",
        "s001-pause-less-harm",
        "one statement (less harm) for two controllers: a smaller TARGET, the pause",
    ),
    (
        "s002-fig5-linear-higher-sum-rate",
        "s002-fig5-gap-grows-with-size",
        "different quantities: the gap at 1000 MB, and how much it grows from 30 to 1000 MB",
    ),
    (
        "s003-tab21-four-tcpw-efficiency",
        "s003-tab21-tcpw-mix-efficiency",
        "two cells of Table 2.1: different flow mixes, each its own run",
    ),
    (
        "s003-tab21-four-tcpw-efficiency",
        "s003-tab21-tcpl-efficiency",
        "two cells of Table 2.1: different flow mixes, each its own run",
    ),
    (
        "s003-tab21-tcpw-mix-efficiency",
        "s003-tab21-tcpl-efficiency",
        "two cells of Table 2.1: different flow mixes, each its own run",
    ),
    (
        "s003-tab21-tcpw-mix-efficiency",
        "s003-tab21-four-ledbat-efficiency",
        "two cells of Table 2.1: different flow mixes, each its own run",
    ),
    (
        "s003-tab21-tcpl-efficiency",
        "s003-tab21-four-ledbat-efficiency",
        "two cells of Table 2.1: different flow mixes, each its own run",
    ),
    (
        "s003-tab21-four-ledbat-fair",
        "s003-tab21-four-tcp-fair",
        "one statement (F = 1.00) for different rows of Table 2.1: four LEDBAT, four TCP flows",
    ),
    (
        "s003-tab21-tcpw-mix-fairness",
        "s003-tab21-tcpl-mix-fairness",
        "the same count (mixes matching the table) over the two TCP flavours' rows",
    ),
    (
        "s003-tab21-ledbat-starved-by-tcpl",
        "s003-tab21-flavour-ranking",
        "different quantities: the largest LEDBAT share beside Linux-like TCP, and the difference of its shares beside the two TCP flavours",
    ),
    (
        "s003-target-ratio-unfair",
        "s003-target-ratio-6-unfair",
        "one statement (unfair) at ratios 1.5-3 and at ratio 6",
    ),
    (
        "s003-mix-reno-queue-two-thirds",
        "s003-mix-queue-needs-two-each",
        "different quantities: the all-TCP queue over the buffer, and the mix's queue at k = 2 minus at k = 1",
    ),
    (
        "s003-chunks-fledbat-fairer",
        "s003-chunks-fairness-gap-at-high-pp",
        "different quantities: fLEDBAT's smallest fairness gain, and how the gain grows with PP",
    ),
    (
        "s003-chunks-fledbat-efficient",
        "s003-chunks-mixed-rtt-wastes-more",
        "different quantities: fLEDBAT's efficiency against LEDBAT's, and equal against mixed RTTs",
    ),
    (
        "s003-swarm-ledbat-queue-alike-across-behaviours",
        "s003-swarm-ledbat-queue-alike-sampled",
        "one statement measured two ways: the queue each dequeue leaves, and the figure's 10 Hz samples",
    ),
    (
        "s003-swarm-buffer-ledbat-flat",
        "s003-swarm-buffer-ledbat-queue-bounded",
        "different quantities: the LEDBAT peers' completion time, and their uplink queue",
    ),
    (
        "s003-flashcrowd-tcp-peers-slightly-ahead",
        "s003-flashcrowd-little-tcp-helps",
        "two orders, each the share of seeds showing it: TCP-preferring peers ahead within the mixtures, and the 25/75 mixture ahead of all-10",
    ),
    (
        "s003-flashcrowd-ledbat-faster-signalling",
        "s003-flashcrowd-tcp-data-plane-efficient",
        "different quantities: request-to-block latency, and uplink utilisation",
    ),
];

/// The range `c`'s metric can take, and where it comes from.
fn reach(c: &Claim) -> Result<(f64, f64, String), String> {
    if let Form::Order { .. } = c.form {
        // an order's value is the share of seeds that show it, whatever one seed's unit
        return Ok((0.0, 1.0, "a share of seeds".into()));
    }
    if let Some((_, lo, hi, why)) = BY_CLAIM.iter().find(|(id, ..)| *id == c.id) {
        return Ok((*lo, *hi, (*why).to_string()));
    }
    let (_, lo, hi) = BY_UNIT
        .iter()
        .find(|(u, ..)| *u == c.unit)
        .ok_or_else(|| format!("{}: unit `{}` has no range here", c.id, c.unit))?;
    if is_difference(c.metric) {
        // a difference of two values in [lo, hi] lies in [lo - hi, hi - lo]
        return Ok((lo - hi, hi - lo, format!("a difference in `{}`", c.unit)));
    }
    if c.unit == "Jain index" {
        // n flows: the index is at least 1/n; the most flows any of the claim's runs has
        // (a swarm's peers are not flows of the scenario file: then only [0, 1] is known).
        let n = c
            .scenarios
            .iter()
            .map(|s| flows_of(s.file, &s.set))
            .max()
            .unwrap_or(0);
        if n == 0 {
            return Ok((0.0, 1.0, "a Jain index".into()));
        }
        return Ok((
            1.0 / n as f64,
            1.0,
            format!("a Jain index of at most {n} flows"),
        ));
    }
    Ok((*lo, *hi, format!("the unit `{}`", c.unit)))
}

/// Whether a metric is the difference of two values (a step between periods, one value
/// minus another): it can be negative whatever its unit.
fn is_difference(metric: &str) -> bool {
    metric.contains(" minus ")
        || metric.contains(") - ")
        || metric.contains(" step ")
        || metric.starts_with("step ")
}

fn flows_of(file: &str, set: &[String]) -> u64 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let sc =
        ledbat_sim::Scenario::from_toml_with(&text, set).unwrap_or_else(|e| panic!("{file}: {e}"));
    sc.flow_count()
}

/// A value in `[lo, hi]` that `b` rejects, if there is one (an end of the range counts: a
/// strict direction such as "above 0" rejects a count of 0).
fn failing_value(b: &Band, lo: f64, hi: f64) -> Option<f64> {
    if let Some(end) = [lo, hi].into_iter().find(|x| x.is_finite() && !b.holds(*x)) {
        return Some(end);
    }
    let (dl, dh) = b.interval();
    if lo < dl {
        Some(if lo.is_finite() { lo } else { dl - 1.0 })
    } else if hi > dh {
        Some(if hi.is_finite() { hi } else { dh + 1.0 })
    } else {
        None
    }
}

/// Whether `b` accepts some value in `[lo, hi]`.
fn meets(b: &Band, lo: f64, hi: f64) -> bool {
    let (bl, bh) = b.interval();
    bl.max(lo) <= bh.min(hi)
}

#[test]
fn every_direction_can_fail_within_what_its_scenario_allows() {
    let mut bad = Vec::new();
    // A claim the model cannot test reports "not testable" whatever its value (rule 11):
    // its direction decides nothing, so it is not asked to be able to fail.
    for c in catalog::all()
        .into_iter()
        .filter(|c| c.untestable.is_none())
    {
        match reach(&c) {
            Err(e) => bad.push(e),
            Ok((lo, hi, why)) => {
                if failing_value(&c.direction, lo, hi).is_none() {
                    bad.push(format!(
                        "{}: direction {} accepts every value the metric can take ([{lo}, {hi}]: {why})",
                        c.id,
                        c.direction.describe()
                    ));
                }
                if !meets(&c.tolerance, lo, hi) {
                    bad.push(format!(
                        "{}: tolerance {} lies outside what the metric can take ([{lo}, {hi}]: {why})",
                        c.id,
                        c.tolerance.describe()
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The files a claim sweeps: those it reads more than once with different overrides.
fn swept_files(c: &Claim) -> Vec<&'static str> {
    let mut n: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &c.scenarios {
        *n.entry(s.file).or_default() += 1;
    }
    n.into_iter()
        .filter(|(_, k)| *k > 1)
        .map(|(f, _)| f)
        .collect()
}

#[test]
fn sibling_claims_on_one_sweep_cannot_both_reproduce_on_one_value() {
    let all = catalog::all();
    let mut bad = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            // siblings: one figure (or table), one unit, different statements
            if a.unit != b.unit || a.figure != b.figure || a.statement == b.statement {
                continue;
            }
            // one sweep: a file that both read and at least one of them sweeps
            let (fa, fb) = (swept_files(a), swept_files(b));
            let shared = a
                .scenarios
                .iter()
                .map(|s| s.file)
                .filter(|f| b.scenarios.iter().any(|t| t.file == *f))
                .any(|f| fa.contains(&f) || fb.contains(&f));
            if !shared {
                continue;
            }
            let (lo, hi) = b.tolerance.interval();
            if !meets(&a.tolerance, lo, hi) {
                continue;
            }
            let apart = SIBLINGS_APART
                .iter()
                .any(|(x, y, _)| (*x == a.id && *y == b.id) || (*x == b.id && *y == a.id));
            if !apart {
                bad.push(format!(
                    "{} ({}) and {} ({}): one value reproduces both",
                    a.id,
                    a.tolerance.describe(),
                    b.id,
                    b.tolerance.describe()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_sibling_allowance_names_existing_claims_with_a_reason() {
    let ids: Vec<&str> = catalog::all().iter().map(|c| c.id).collect();
    for (a, b, why) in SIBLINGS_APART {
        assert!(
            ids.contains(a) && ids.contains(b),
            "{a} / {b}: no such claim"
        );
        assert!(!why.is_empty());
    }
    for (id, lo, hi, why) in BY_CLAIM {
        assert!(ids.contains(id), "{id}: no such claim");
        assert!(lo <= hi && !why.is_empty());
    }
}

#[test]
fn a_cap_the_competitor_sets_makes_an_upper_direction_unfailable() {
    // "LEDBAT's share with the CBR present is at most 0.5": the CBR already leaves it at
    // most 0.5, so no run can fail it; a lower bound can.
    let cap = Band::AtMost { bound: 0.5 };
    assert_eq!(failing_value(&cap, 0.0, 0.5), None);
    assert_eq!(
        failing_value(&Band::AtLeast { bound: 0.35 }, 0.0, 0.5),
        Some(0.0)
    );
    assert_eq!(
        failing_value(&Band::Between { lo: 0.35, hi: 0.6 }, 0.0, 0.5),
        Some(0.0)
    );
    // an unbounded metric fails a bounded band above it
    assert!(failing_value(&Band::AtMost { bound: 300.0 }, 145.0, f64::INFINITY).is_some());
    assert!(meets(
        &Band::Near {
            value: 0.45,
            tol: 0.045
        },
        0.0,
        0.5
    ));
    assert!(!meets(&Band::AtLeast { bound: 0.6 }, 0.0, 0.5));
}

#[test]
fn a_difference_can_take_either_sign() {
    assert!(is_difference(
        "completion time of the first flow minus that of the latecomer"
    ));
    assert!(is_difference(
        "queueing-delay step between the first two growth periods"
    ));
    assert!(is_difference(
        "min(LEDBAT's, NICE's efficiency) - max(TCP-LP's, all-TCP's)"
    ));
    assert!(!is_difference(
        "mean per-packet queueing delay at the bottleneck"
    ));
    assert!(!is_difference(
        "(largest - smallest) / mean of the time to TARGET"
    ));
    // a time is at least zero, a time difference is not; a share difference lies in [-1, 1]
    let claim = |unit, metric| Claim {
        unit,
        metric,
        ..Claim::base("s000-x")
    };
    let r = |c: Claim| reach(&c).map(|(lo, hi, _)| (lo, hi)).unwrap();
    assert_eq!(r(claim("s", "completion time")), (0.0, f64::INFINITY));
    assert_eq!(
        r(claim("s", "completion time of A minus that of B")),
        (f64::NEG_INFINITY, f64::INFINITY)
    );
    assert_eq!(
        r(claim("share", "share of A minus share of B")),
        (-1.0, 1.0)
    );
    // an order is judged on the share of seeds showing it, whatever one seed's unit
    let order = Claim {
        form: Form::Order {
            null: 0.0,
            above: true,
        },
        ..claim("s", "completion time of A minus that of B")
    };
    assert_eq!(r(order), (0.0, 1.0));
}
