//! Rules every claim of the catalog obeys, so that a verdict can come out otherwise than it
//! did. The rules, numbered, are in the catalog's module doc
//! (`crates/ledbat-repro/src/catalog/mod.rs`); each test here names the rule it checks over
//! the whole catalog.

use ledbat_repro::catalog::{self, Claim, Form, ScenarioRef, ORDER_DIRECTION, ORDER_TOLERANCE};
use ledbat_repro::claims::{Band, Verdict};
use std::collections::{BTreeMap, BTreeSet};

fn scenarios_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

fn load(s: &ScenarioRef) -> ledbat_sim::Scenario {
    let text = std::fs::read_to_string(scenarios_dir().join(s.file)).unwrap();
    ledbat_sim::Scenario::from_toml_with(&text, &s.set).unwrap_or_else(|e| panic!("{e}"))
}

/// Fails listing every message, one per line.
fn none(bad: Vec<String>) {
    assert!(
        bad.is_empty(),
        "{} claims break the rule:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// A value the band rejects, if there is one.
fn outside(b: &Band) -> Option<f64> {
    let (lo, hi) = b.interval();
    [lo - 1.0, hi + 1.0, lo - lo.abs() - 1.0, hi + hi.abs() + 1.0]
        .into_iter()
        .find(|x| x.is_finite() && !b.holds(*x))
}

#[test]
fn every_direction_kind_fails_on_a_value_that_contradicts_it() {
    // Hand-built failing cases, one per band kind a direction may use.
    let cases = [
        (Band::AtLeast { bound: 0.0 }, -0.1),
        (Band::AtMost { bound: 0.9 }, 0.95),
        (
            Band::Between {
                lo: 100.0,
                hi: 200.0,
            },
            99.0,
        ),
        (
            Band::Near {
                value: 1.0,
                tol: 0.2,
            },
            1.3,
        ),
    ];
    for (band, x) in cases {
        assert!(!band.holds(x), "{band:?} must reject {x}");
        let tolerance = Band::Near {
            value: 1e9,
            tol: 0.0,
        };
        assert_eq!(Verdict::judge(x, &tolerance, &band), Verdict::NotReproduced);
    }
}

#[test]
fn every_claim_direction_can_fail() {
    for c in catalog::all() {
        assert!(
            outside(&c.direction).is_some(),
            "{}: the direction {:?} accepts every value",
            c.id,
            c.direction
        );
    }
}

#[test]
fn every_tolerance_band_lies_inside_its_direction() {
    // A value inside the tolerance but outside the direction would be "reproduced" while the
    // claim's own direction fails: the two bands of one claim would contradict each other.
    let bad: Vec<String> = catalog::all()
        .iter()
        .filter(|c| !c.direction.contains(&c.tolerance))
        .map(|c| {
            format!(
                "{}: tolerance {} is not inside direction {}",
                c.id,
                c.tolerance.describe(),
                c.direction.describe()
            )
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_claim_says_what_kind_of_statement_it_tests() {
    none(
        catalog::all()
            .iter()
            .filter(|c| c.form == Form::Unset)
            .map(|c| format!("{}: no form", c.id))
            .collect(),
    );
}

/// Rule 1.
#[test]
fn effects_reject_their_null_result() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        match c.form {
            Form::Effect { null } => {
                for (what, b) in [("tolerance", &c.tolerance), ("direction", &c.direction)] {
                    if b.holds(null) {
                        bad.push(format!(
                            "{}: its {what} {} holds {null}, the value of no effect",
                            c.id,
                            b.describe()
                        ));
                    }
                }
            }
            Form::Alike { null } if !c.tolerance.holds(null) => bad.push(format!(
                "{}: 'alike', but its tolerance {} rejects {null}, no difference",
                c.id,
                c.tolerance.describe()
            )),
            _ => {}
        }
    }
    none(bad);
}

/// Rule 2.
#[test]
fn orders_are_judged_on_the_share_of_seeds() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        if let Form::Order { .. } = c.form {
            if !ORDER_TOLERANCE.contains(&c.tolerance) || !ORDER_DIRECTION.contains(&c.direction) {
                bad.push(format!(
                    "{}: an order's bands are on the share of seeds: tolerance within {}, \
                     direction within {} (got {} and {})",
                    c.id,
                    ORDER_TOLERANCE.describe(),
                    ORDER_DIRECTION.describe(),
                    c.tolerance.describe(),
                    c.direction.describe()
                ));
            }
            if c.direction.holds(0.5) {
                bad.push(format!("{}: half the seeds is no order", c.id));
            }
        }
    }
    none(bad);
}

fn same_bands(a: &Band, b: &Band) -> bool {
    let (al, ah) = a.interval();
    let (bl, bh) = b.interval();
    let close = |x: f64, y: f64| x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs());
    close(al, bl) && close(ah, bh) && a.holds(al) == b.holds(bl) && a.holds(ah) == b.holds(bh)
}

/// Rule 3.
#[test]
fn one_quantity_has_one_set_of_bands() {
    let all = catalog::all();
    let mut bad = Vec::new();
    let mut groups: BTreeMap<(Vec<ScenarioRef>, &str), Vec<&Claim>> = BTreeMap::new();
    for c in &all {
        let mut s = c.scenarios.clone();
        s.sort();
        groups.entry((s, c.metric)).or_default().push(c);
    }
    for g in groups.values().filter(|g| g.len() > 1) {
        for c in &g[1..] {
            if !same_bands(&c.tolerance, &g[0].tolerance)
                || !same_bands(&c.direction, &g[0].direction)
            {
                bad.push(format!(
                    "{} and {} read the same runs for the same metric with other bands",
                    g[0].id, c.id
                ));
            }
        }
    }
    for c in &all {
        let Some(d) = c.derived else { continue };
        let Some(f) = all.iter().find(|x| x.id == d.from) else {
            bad.push(format!("{}: derived from unknown {}", c.id, d.from));
            continue;
        };
        let set = |v: &[ScenarioRef]| v.iter().cloned().collect::<BTreeSet<_>>();
        if set(&c.scenarios) != set(&f.scenarios) {
            bad.push(format!(
                "{}: derived from {} but reads other runs",
                c.id, f.id
            ));
        }
        for (what, mine, theirs) in [
            ("tolerance", &c.tolerance, &f.tolerance),
            ("direction", &c.direction, &f.direction),
        ] {
            let (lo, hi) = theirs.interval();
            let mut ends: Vec<f64> = [lo, hi]
                .into_iter()
                .filter(|x| x.is_finite())
                .map(d.map)
                .collect();
            ends.sort_by(f64::total_cmp);
            let (ml, mh) = mine.interval();
            let mut own: Vec<f64> = [ml, mh].into_iter().filter(|x| x.is_finite()).collect();
            own.sort_by(f64::total_cmp);
            let close = ends.len() == own.len()
                && ends
                    .iter()
                    .zip(&own)
                    .all(|(a, b)| (a - b).abs() <= 1e-9 * a.abs().max(1.0));
            if !close {
                bad.push(format!(
                    "{}: its {what} {} is not {}'s {} mapped ({ends:?})",
                    c.id,
                    mine.describe(),
                    f.id,
                    theirs.describe()
                ));
            }
        }
    }
    none(bad);
}

/// Rule 4.
#[test]
fn stated_bounds_are_used_as_stated() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        if let Form::Bound { lo, hi } = c.form {
            let (tl, th) = c.tolerance.interval();
            let want = (lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY));
            if (tl, th) != want {
                bad.push(format!(
                    "{}: the paper's bound is [{}, {}], the tolerance {}",
                    c.id,
                    want.0,
                    want.1,
                    c.tolerance.describe()
                ));
            }
        }
    }
    none(bad);
}

/// Rule 6.
#[test]
fn stacks_are_modelled_or_explained() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        // A departure run the paper's way as well is the claim saying what it changes.
        if c.hinge.is_some_and(|h| !h.unstated) {
            continue;
        }
        for s in &c.scenarios {
            let Some(st) = catalog::stack_of(s.file) else {
                bad.push(format!("{}: no stack for {}", c.id, s.file));
                continue;
            };
            // A family that departs says why and what it changes.
            if !st.departs.is_empty() {
                if st.departs.len() < 80 {
                    bad.push(format!(
                        "{}: the departure needs its why and effect",
                        st.files
                    ));
                }
                continue;
            }
            let sc = load(s);
            let mut delayed = vec![sc.transport.delayed_ack];
            let mut ticks = Vec::new();
            for f in &sc.flows {
                delayed.push(
                    f.transport
                        .as_ref()
                        .map_or(sc.transport.delayed_ack, |t| t.delayed_ack),
                );
                ticks.push(f.sender_clock.resolution);
                ticks.push(f.receiver_clock.resolution);
            }
            // A swarm has no flows of its own; its hosts' clocks are the wire's microsecond.
            if sc.swarm.is_some() {
                delayed.truncate(1);
                ticks.push(ledbat_core::Duration::ZERO);
            }
            // A statement about delayed ACKs compares runs with and without them.
            let about_delack = c.statement.contains("delayed ACK");
            if !about_delack && delayed.iter().any(|d| *d != st.delayed_ack) {
                bad.push(format!(
                    "{}: {} has delayed ACKs {:?}, the paper {} ({})",
                    c.id,
                    s.label(),
                    delayed,
                    st.delayed_ack,
                    st.paper
                ));
            }
            if ticks.iter().any(|t| *t != st.timestamp_tick) {
                bad.push(format!(
                    "{}: {} stamps at {:?}, the paper at {:?} ({})",
                    c.id,
                    s.label(),
                    ticks,
                    st.timestamp_tick,
                    st.paper
                ));
            }
        }
    }
    bad.dedup();
    none(bad);
}

/// The leading number of an override's value (`10`, `"100ms"` -> 100); a list of one
/// number repeated (`[200, 200]`, a range fixed to one value) is that number.
fn number(v: &str) -> Option<f64> {
    let t = v.trim().trim_matches('"');
    if let Some(inner) = t.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        let items = inner.split(',').map(number).collect::<Option<Vec<f64>>>()?;
        let first = *items.first()?;
        return items.iter().all(|x| *x == first).then_some(first);
    }
    let end = t
        .find(|ch: char| !(ch.is_ascii_digit() || ch == '.' || ch == '-' || ch == 'e'))
        .unwrap_or(t.len());
    t[..end].parse().ok()
}

/// The value of `key` (`swarm.class.0.buffer`, a dotted path with array indices) in the
/// scenario `s` loads to, as its TOML text.
fn file_value(s: &ScenarioRef, key: &str) -> Option<String> {
    let mut v = toml::Value::try_from(load(s)).ok()?;
    for part in key.split('.') {
        v = match part.parse::<usize>() {
            Ok(i) => v.as_array()?.get(i)?.clone(),
            Err(_) => v.get(part)?.clone(),
        };
    }
    Some(v.to_string())
}

/// The keys a claim sweeps: those whose values change across three or more instances of
/// one file, all together (two class buffers set to the same B are one sweep); or, where
/// they do not move together (a grid, Fig. 5's flow count x transfer size), each key of the
/// grid that takes three or more numbers, with its own values, in key order (a run length
/// set per point, `duration` or `warmup`, is not one).
fn swept(c: &Claim) -> Option<(Vec<String>, Vec<f64>)> {
    swept_all(c).0.into_iter().next()
}

/// Every sweep [`swept`] sees in a claim: one group of keys moving together, or each key of
/// a grid with three or more values (then `true`).
type Sweep = (Vec<String>, Vec<f64>);
fn swept_all(c: &Claim) -> (Vec<Sweep>, bool) {
    let mut by_file: BTreeMap<&str, Vec<&ScenarioRef>> = BTreeMap::new();
    for s in &c.scenarios {
        by_file.entry(s.file).or_default().push(s);
    }
    for refs in by_file.values().filter(|r| r.len() >= 3) {
        let kv = |s: &ScenarioRef| -> BTreeMap<String, String> {
            s.set
                .iter()
                .filter_map(|x| x.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let mut maps: Vec<_> = refs.iter().map(|s| kv(s)).collect();
        // A key an instance leaves out has the file's own value.
        let keys: BTreeSet<String> = maps.iter().flat_map(|m| m.keys().cloned()).collect();
        for (m, s) in maps.iter_mut().zip(refs) {
            for k in &keys {
                if !m.contains_key(k) {
                    if let Some(v) = file_value(s, k) {
                        m.insert(k.clone(), v);
                    }
                }
            }
        }
        let keys: BTreeSet<&String> = maps.iter().flat_map(|m| m.keys()).collect();
        let varying: Vec<&str> = keys
            .iter()
            .filter(|k| {
                let vals: BTreeSet<Option<&String>> = maps.iter().map(|m| m.get(**k)).collect();
                vals.len() > 1
            })
            .map(|k| k.as_str())
            .collect();
        if varying.is_empty() {
            continue;
        }
        // Together: every map gives the varying keys one and the same number.
        let mut values = Vec::new();
        let mut together = true;
        for m in &maps {
            let nums: BTreeSet<String> = varying
                .iter()
                .map(|k| {
                    m.get(*k)
                        .and_then(|v| number(v))
                        .map_or("-".into(), |x| x.to_string())
                })
                .collect();
            together &= nums.len() == 1;
            if let Some(x) = varying
                .first()
                .and_then(|k| m.get(*k))
                .and_then(|v| number(v))
            {
                values.push(x);
            }
        }
        if together && values.len() >= 3 {
            return (
                vec![(varying.iter().map(|k| k.to_string()).collect(), values)],
                false,
            );
        }
        if !together {
            // A run's length set per point (to hold its transfers) is no parameter swept.
            let grid: Vec<Sweep> = varying
                .iter()
                .filter(|k| !matches!(**k, "duration" | "warmup"))
                .filter_map(|k| {
                    let vals: Vec<f64> = maps
                        .iter()
                        .filter_map(|m| m.get(*k).and_then(|v| number(v)))
                        .collect();
                    let distinct: BTreeSet<String> = vals.iter().map(|x| x.to_string()).collect();
                    (distinct.len() >= 3).then(|| (vec![k.to_string()], vals))
                })
                .collect();
            if !grid.is_empty() {
                return (grid, true);
            }
        }
    }
    (Vec::new(), false)
}

#[test]
fn a_list_of_one_repeated_number_is_that_number() {
    assert_eq!(number("[200, 200]"), Some(200.0));
    assert_eq!(number("[5,5]"), Some(5.0));
    assert_eq!(number("\"100ms\""), Some(100.0));
    // A real range has no single value, and an empty list none at all.
    assert_eq!(number("[8, 12]"), None);
    assert_eq!(number("[]"), None);
}

#[test]
fn a_file_size_sweep_written_as_lists_is_a_sweep() {
    // The literal rule 7 once could not read: `flow.0.traffic.chunk_packets=[n, n]`.
    let c = catalog::all()
        .into_iter()
        .find(|c| c.id == "s001-small-flows-3-4x")
        .unwrap();
    assert!(c.scenarios.iter().any(|s| s
        .set
        .iter()
        .any(|x| x == "flow.0.traffic.chunk_packets=[200, 200]")));
    let (keys, values) = swept(&c).expect("the size sweep is seen");
    assert_eq!(keys, vec!["flow.0.traffic.chunk_packets".to_string()]);
    assert_eq!(values.first(), Some(&5.0));
    assert_eq!(values.iter().copied().fold(0.0, f64::max), 200.0);
}

#[test]
fn a_grid_of_two_keys_is_seen_as_one_sweep_per_key() {
    // Fig. 5 of seed 002: the flow count and the transfer size vary independently, so they
    // do not move together; each is a sweep of its own, with its own values.
    let c = catalog::all()
        .into_iter()
        .find(|c| c.id == "s002-fig5-gap-grows-with-size")
        .unwrap();
    let (sweeps, grid) = swept_all(&c);
    assert!(grid);
    let keys: Vec<&str> = sweeps.iter().map(|(k, _)| k[0].as_str()).collect();
    assert_eq!(keys, vec!["flow.0.count", "flow.0.traffic.bytes"]);
    let bytes = &sweeps[1].1;
    // Two schemes x four counts x six sizes, one value per instance of each file.
    assert_eq!(bytes.len(), 24);
    assert_eq!(bytes.iter().copied().fold(f64::INFINITY, f64::min), 30e6);
    assert_eq!(bytes.iter().copied().fold(0.0, f64::max), 1000e6);
    let counts = &sweeps[0].1;
    assert_eq!(counts.iter().copied().fold(0.0, f64::max), 5.0);
    // A grid key with two values is no sweep (rule 7 needs three).
    let two = Claim {
        scenarios: ["2", "5"]
            .iter()
            .flat_map(|n| {
                ["30000000", "100000000", "300000000"].map(|b| {
                    ScenarioRef::with(
                        "seed002/fig5-linear.toml",
                        &[
                            format!("flow.0.count={n}"),
                            format!("flow.0.traffic.bytes={b}"),
                        ],
                    )
                })
            })
            .collect(),
        ..Claim::base("s002-grid-test")
    };
    let (sweeps, _) = swept_all(&two);
    assert_eq!(sweeps.len(), 1);
    assert_eq!(sweeps[0].0, vec!["flow.0.traffic.bytes".to_string()]);
}

/// Rule 7.
#[test]
fn sweeps_cover_the_papers_range() {
    let mut bad = Vec::new();
    let mut found = BTreeMap::new();
    for c in catalog::all() {
        let (sweeps, grid) = swept_all(&c);
        if sweeps.is_empty() {
            continue;
        }
        if grid && c.sweep.is_none() {
            // Grids came after most of the catalog: pending.rs lists those undeclared.
            found.insert(
                c.id,
                format!(
                    "{}: sweeps the grid {:?} without the paper's range",
                    c.id,
                    sweeps.iter().map(|(k, _)| &k[0]).collect::<Vec<_>>()
                ),
            );
            continue;
        }
        // A grid's axes are separate sweeps: the declared one is checked (a claim declares
        // one range).
        let (keys, values) = c
            .sweep
            .and_then(|r| sweeps.iter().find(|(k, _)| k.iter().any(|k| k == r.key)))
            .unwrap_or(&sweeps[0])
            .clone();
        let Some(r) = c.sweep else {
            bad.push(format!(
                "{}: sweeps {keys:?} over {values:?} without the paper's range",
                c.id
            ));
            continue;
        };
        if !keys.iter().any(|k| k == r.key) {
            bad.push(format!("{}: declares {} but sweeps {keys:?}", c.id, r.key));
            continue;
        }
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if (lo > r.paper.0 || hi < r.paper.1) && r.left_out.trim().is_empty() {
            bad.push(format!(
                "{}: sweeps {lo}..{hi} of the paper's {}..{} without saying what is left out",
                c.id, r.paper.0, r.paper.1
            ));
        }
    }
    none(bad);
    against_pending("7", found, pending::SWEEPS);
}

/// Words by which an explanation says its result depends on something the paper leaves
/// open (rule 8).
const UNSTATED: [&str; 6] = [
    "does not state",
    "not stated",
    "leaves open",
    "does not give",
    "unstated",
    "hinges on",
];

/// Rule 8 (and 6: a departure run the paper's way).
#[test]
fn hinges_are_run_both_ways() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        let says = UNSTATED
            .iter()
            .any(|w| c.explanation.to_lowercase().contains(w));
        match (says, c.hinge) {
            (true, None) => bad.push(format!(
                "{}: its explanation says the result depends on what the paper leaves open; \
                 declare the hinge (and its other choice) or say why the verdict does not",
                c.id
            )),
            (_, Some(h)) => {
                if h.alt.is_empty() || h.choice.trim().is_empty() {
                    bad.push(format!("{}: a hinge without its other choice", c.id));
                }
                for s in c.hinge_scenarios().unwrap() {
                    let text = std::fs::read_to_string(scenarios_dir().join(s.file)).unwrap();
                    if let Err(e) = ledbat_sim::Scenario::from_toml_with(&text, &s.set) {
                        bad.push(format!(
                            "{}: the hinge's other choice does not load: {e}",
                            c.id
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    none(bad);
}

/// Rule 10: a claim's tolerance is no wider than its family's (written once, in the
/// catalog's `Family` constants) unless its note says why.
#[test]
fn tolerances_are_no_wider_than_their_familys() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        let fam = c.family();
        let Some(rel) = fam.rel else { continue };
        let (centre, half) = match c.tolerance {
            Band::Near { value, tol } => (value, tol),
            // A ratio band symmetric on a log scale (0.8 to 1.25): its lower side.
            Band::Between { lo, hi } if lo > 0.0 && (lo * hi - 1.0).abs() < 1e-9 => (1.0, 1.0 - lo),
            Band::Between { lo, hi } => ((lo + hi) / 2.0, (hi - lo) / 2.0),
            _ => continue,
        };
        if centre != 0.0
            && half / centre.abs() > rel + 1e-9
            && !c.tolerance_note.contains("wider because")
        {
            bad.push(format!(
                "{}: ± {:.0} %, wider than its family's ({}: ± {:.0} %) without 'wider \
                 because' in its tolerance note",
                c.id,
                100.0 * half / centre.abs(),
                fam.name,
                100.0 * rel
            ));
        }
    }
    none(bad);
}

#[test]
fn every_family_and_convention_is_written_once() {
    let names: BTreeSet<&str> = catalog::FAMILIES.iter().map(|f| f.name).collect();
    assert_eq!(names.len(), catalog::FAMILIES.len());
    for c in catalog::all() {
        assert!(
            catalog::FAMILIES
                .iter()
                .any(|f| std::ptr::eq(*f, c.family()) || **f == *c.family()),
            "{}: family {} is not in FAMILIES",
            c.id,
            c.family().name
        );
    }
    let conv: BTreeSet<&str> = catalog::CONVENTIONS.iter().map(|c| c.name).collect();
    assert_eq!(conv.len(), catalog::CONVENTIONS.len());
    // "Fair" at Jain 0.9: two flows sharing 1 : 2 (Jain's index (1 + 2)^2 / (2 (1 + 4))).
    assert!((9.0f64 / 10.0 - catalog::FAIR_JAIN.value).abs() < 1e-12);
}

/// The words that carry a convention's meaning: those of four letters or more in its name,
/// less the connectives every name uses (with "least" and "most" of "at least"/"at most",
/// which say on which side a bound lies, not what it measures).
fn meaning_words(c: &catalog::Convention) -> BTreeSet<String> {
    const CONNECTIVES: [&str; 8] = [
        "than",
        "with",
        "within",
        "from",
        "that",
        "direction",
        "least",
        "most",
    ];
    c.name
        .split(|ch: char| !ch.is_alphabetic())
        .map(str::to_lowercase)
        .filter(|w| w.len() >= 4 && !CONNECTIVES.contains(&w.as_str()))
        .collect()
}

/// Two conventions say the same thing when they hold the same number and their names share
/// a word of meaning: one of them should serve both.
fn say_the_same(a: &catalog::Convention, b: &catalog::Convention) -> bool {
    (a.value - b.value).abs() <= 1e-12 * a.value.abs().max(1.0)
        && !meaning_words(a).is_disjoint(&meaning_words(b))
}

/// Rule 14's conventions are written once: no two entries of `CONVENTIONS` say the same
/// thing, and every convention a claim names is one of them.
#[test]
fn conventions_are_distinct_and_listed() {
    // The pair this check was written for: seed 003's former "more (or less) than one half"
    // beside the catalog's "most", both 0.5.
    let half = catalog::Convention {
        name: "the larger part: more (or less) than one half",
        value: 0.5,
        why: "",
    };
    assert!(say_the_same(&half, &catalog::MOST));
    let mut bad = Vec::new();
    let all = catalog::CONVENTIONS;
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if say_the_same(a, b) {
                bad.push(format!(
                    "{:?} and {:?} hold the same number ({}) for the same meaning: keep one",
                    a.name, b.name, a.value
                ));
            }
        }
    }
    for c in catalog::all() {
        for t in c.thresholds {
            if let catalog::Threshold::Convention(conv) = t {
                if !all.contains(conv) {
                    bad.push(format!(
                        "{}: convention {:?} is not in catalog::CONVENTIONS",
                        c.id, conv.name
                    ));
                }
            }
        }
    }
    none(bad);
}

/// Rule 11.
#[test]
fn untestable_claims_say_why() {
    none(
        catalog::all()
            .iter()
            .filter(|c| c.untestable.is_some_and(|r| r.trim().len() < 40))
            .map(|c| format!("{}: 'not testable' needs its reason", c.id))
            .collect(),
    );
}

#[path = "claim_rules/pending.rs"]
mod pending;

/// Checks a list of violations against its pending list (`tests/claim_rules/pending.rs`):
/// fails on a violation not listed and on a listed one that is gone, printing the list that
/// would pass.
fn against_pending<T: Ord + Clone + std::fmt::Debug>(
    rule: &str,
    found: BTreeMap<T, String>,
    pending: &[T],
) {
    let listed: BTreeSet<T> = pending.iter().cloned().collect();
    let mut bad: Vec<String> = found
        .iter()
        .filter(|(k, _)| !listed.contains(*k))
        .map(|(_, m)| m.clone())
        .collect();
    for k in &listed {
        if !found.contains_key(k) {
            bad.push(format!(
                "{k:?} obeys rule {rule} now: remove it from pending.rs"
            ));
        }
    }
    if !bad.is_empty() {
        let keys: Vec<String> = found.keys().map(|k| format!("    {k:?},")).collect();
        panic!(
            "{} breaks of rule {rule}:\n{}\n\nThe list that would pass (review before pasting):\n{}",
            bad.len(),
            bad.join("\n"),
            keys.join("\n")
        );
    }
}

/// Whether a relation between two claims could let one be reproduced while the other's
/// direction fails: `this`'s tolerance, mapped, must lie inside `other`'s direction.
fn relation_contradiction(
    this: &Claim,
    map: fn((f64, f64)) -> (f64, f64),
    other: &Claim,
) -> Option<String> {
    let (lo, hi) = map(this.tolerance.interval());
    let implied = Band::Between {
        lo: lo.min(hi),
        hi: lo.max(hi),
    };
    (!other.direction.contains(&implied)).then(|| {
        format!(
            "{} reproduced ({}) implies {} in [{}, {}], which its direction {} does not hold",
            this.id,
            this.tolerance.describe(),
            other.id,
            implied.interval().0,
            implied.interval().1,
            other.direction.describe()
        )
    })
}

#[test]
fn a_contradictory_relation_is_caught() {
    let util = Claim {
        tolerance: Band::AtLeast { bound: 0.95 },
        direction: Band::AtLeast { bound: 0.85 },
        ..Claim::base("s000-util")
    };
    let share = |bound| Claim {
        tolerance: Band::AtLeast { bound: 0.7 },
        direction: Band::AtLeast { bound },
        ..Claim::base("s000-share")
    };
    // Utilisation u with a 0.5 CBR load: the LEDBAT share of the link is u - 0.5, at least
    // 0.45 when u >= 0.95 (and at most 0.5).
    let map: fn((f64, f64)) -> (f64, f64) = |(lo, hi)| (lo - 0.5, hi.min(1.0) - 0.5);
    assert!(relation_contradiction(&util, map, &share(0.4)).is_none());
    let msg = relation_contradiction(&util, map, &share(0.5)).unwrap();
    assert!(msg.contains("s000-util reproduced"), "{msg}");
}

/// Rule 13: claims that read the same scenario instances for other metrics declare how
/// their values relate (and the relation cannot contradict their bands), or that they do
/// not.
#[test]
fn siblings_declare_their_relation() {
    let all = catalog::all();
    let by_id: BTreeMap<&str, &Claim> = all.iter().map(|c| (c.id, c)).collect();
    let mut bad = Vec::new();
    let mut found = BTreeMap::new();
    for c in &all {
        for s in c.siblings {
            let Some(o) = by_id.get(s.other()) else {
                bad.push(format!("{}: sibling {} is no claim", c.id, s.other()));
                continue;
            };
            let set = |v: &[ScenarioRef]| v.iter().cloned().collect::<BTreeSet<_>>();
            if set(&c.scenarios) != set(&o.scenarios) {
                bad.push(format!("{}: sibling {} reads other runs", c.id, o.id));
            }
            match s {
                catalog::Sibling::Implies { map, why, .. } => {
                    if why.trim().is_empty() {
                        bad.push(format!("{}: the relation to {} needs its why", c.id, o.id));
                    }
                    bad.extend(relation_contradiction(c, *map, o));
                }
                catalog::Sibling::Independent { why, .. } if why.trim().len() < 20 => {
                    bad.push(format!("{}: independent of {} needs its why", c.id, o.id))
                }
                _ => {}
            }
        }
    }
    none(bad);
    let mut groups: BTreeMap<BTreeSet<ScenarioRef>, Vec<&Claim>> = BTreeMap::new();
    for c in &all {
        groups
            .entry(c.scenarios.iter().cloned().collect())
            .or_default()
            .push(c);
    }
    let declared = |a: &Claim, b: &Claim| {
        a.siblings.iter().any(|s| s.other() == b.id) || a.derived.is_some_and(|d| d.from == b.id)
    };
    for g in groups.values() {
        for (i, a) in g.iter().enumerate() {
            for b in &g[i + 1..] {
                if a.metric == b.metric || declared(a, b) || declared(b, a) {
                    continue;
                }
                found.insert(
                    (a.id, b.id),
                    format!(
                        "{} and {} read the same runs ({} instances) and declare no relation \
                         nor independence",
                        a.id,
                        b.id,
                        a.scenarios.len()
                    ),
                );
            }
        }
    }
    against_pending("13", found, pending::SIBLINGS);
}

/// The numbers written in `text`, as values (`0.95`, `25`, `1.5`, `-2`): the leading number
/// of each word that starts with a digit (`1.5Mb/s` is 1.5), negative where a minus sign
/// (`-` or `−`) stands right before its first digit (`10−2` is 10 and -2, the exponent of a
/// logarithmic unit); a word that starts with a letter is an identifier (`s003-x2`,
/// `flow.0.cc`), not a figure.
fn numbers_in(text: &str) -> Vec<f64> {
    let word_char = |c: char| c.is_alphanumeric() || "._-/".contains(c);
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (start, word_char(c) && i < text.len()) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                let minus_before = text[..s].ends_with('\u{2212}');
                out.extend(leading_number(&text[s..i], minus_before));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The number `w` starts with, if it starts with a digit or a minus sign and a digit;
/// negative after a minus sign, in `w` or (`minus_before`) just before it.
fn leading_number(w: &str, minus_before: bool) -> Option<f64> {
    let (negative, w) = match w.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (minus_before, w),
    };
    if !w.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let end = w
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.' && w[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
        })
        .map_or(w.len(), |(i, _)| i);
    let x: f64 = w[..end].parse().ok()?;
    Some(if negative { -x } else { x })
}

/// `text` cut into sentences: at a full stop followed by a space and a capital letter (so
/// "Fig. 12" stays whole).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in text.match_indices(". ") {
        if text[i + 2..].starts_with(|c: char| c.is_uppercase()) {
            out.push(&text[start..i]);
            start = i + 2;
        }
    }
    out.push(&text[start..]);
    out
}

#[test]
fn numbers_are_read_as_written() {
    assert_eq!(
        numbers_in("about 27 ms, 0.95 of 1.5Mb/s"),
        vec![27.0, 0.95, 1.5]
    );
    assert_eq!(numbers_in("s003-x2 and flow_2x"), Vec::<f64>::new());
}

#[test]
fn numbers_keep_their_sign() {
    // A log10 unit's thresholds are negative: "ζ < 10−2" holds 10 and the exponent -2.
    assert_eq!(
        numbers_in("when ζ < 10−2 and tau -0.2"),
        vec![10.0, -2.0, -0.2]
    );
    assert_eq!(numbers_in("−1 decade"), vec![-1.0]);
    // A hyphen inside a word is no sign: a range, an identifier.
    assert_eq!(numbers_in("10-20 ms, s003-x2"), vec![10.0]);
}

/// Rule 14: every number of a claim's direction is the value of no effect of its form, or
/// comes with the quote it is read from (a quote of a coverage row the claim tests, holding
/// the number as written) or a named convention.
#[test]
fn direction_thresholds_come_from_the_statement() {
    let map = ledbat_repro::coverage::Map::load().unwrap();
    let norm = ledbat_repro::coverage::normalise;
    let mut bad = Vec::new();
    let mut found = BTreeMap::new();
    for c in catalog::all() {
        for t in c.thresholds {
            if let catalog::Threshold::Quote {
                value,
                written,
                quote,
            } = t
            {
                let n = numbers_in(written);
                let as_written = n.first().is_some_and(|x| {
                    (x - value).abs() <= 1e-9 * value.abs().max(1.0)
                        || written.contains('%') && (x / 100.0 - value).abs() <= 1e-9
                });
                if !as_written || !norm(quote).contains(&norm(written)) {
                    bad.push(format!(
                        "{}: threshold {value} is not written as {written:?} in its quote",
                        c.id
                    ));
                }
                let in_row = map.rows_of(c.id).any(|r| {
                    ledbat_repro::coverage::split_quote(&r.quote)
                        .any(|p| norm(p).contains(&norm(quote)))
                });
                if !in_row {
                    bad.push(format!(
                        "{}: the threshold's quote {quote:?} is in no quote of a coverage row \
                         that names the claim",
                        c.id
                    ));
                }
            }
        }
        let form_null = match c.form {
            Form::Effect { null } | Form::Alike { null } | Form::Order { null, .. } => Some(null),
            _ => None,
        };
        let (lo, hi) = c.direction.interval();
        let unaccounted: Vec<f64> = [lo, hi]
            .into_iter()
            .filter(|x| x.is_finite())
            .filter(|x| Some(*x) != form_null)
            .filter(|x| !(matches!(c.form, Form::Order { .. }) && *x == 0.5))
            .filter(|x| {
                !c.thresholds
                    .iter()
                    .any(|t| (t.value() - x).abs() <= 1e-9 * x.abs().max(1.0))
            })
            .collect();
        if !unaccounted.is_empty() {
            found.insert(
                c.id,
                format!(
                    "{}: the direction {}'s {unaccounted:?} comes from no quote nor convention",
                    c.id,
                    c.direction.describe()
                ),
            );
        }
    }
    none(bad);
    against_pending("14", found, pending::THRESHOLDS);
}

/// Rule 15: a precondition says what it checks and can fail.
#[test]
fn preconditions_can_fail() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        let Some(p) = &c.precondition else { continue };
        if p.what.trim().len() < 10 {
            bad.push(format!("{}: a precondition says what must hold", c.id));
        }
        if outside(&p.band).is_none() {
            bad.push(format!(
                "{}: its precondition {} cannot fail",
                c.id,
                p.band.describe()
            ));
        }
    }
    none(bad);
}

/// Words after which a number names a part of a paper or a seed, not a figure of a run.
const REFERENCES: [&str; 12] = [
    "fig.", "figure", "table", "section", "sections", "eq.", "equation", "seed", "seeds", "rfc",
    "chapter", "rule",
];

/// The figures an explanation types that are neither a template, nor in a span of code,
/// nor a number of the paper's (its statement, value, the claim's bands, the quotes and
/// setup rows of the coverage map for its runs), nor in a sentence that gives the command
/// of the other run they come from, nor a small count (at most 10), nor a reference.
fn typed_figures(c: &Claim, map: &ledbat_repro::coverage::Map) -> Vec<String> {
    let mut known = String::new();
    for t in [
        c.statement,
        c.paper_value,
        c.figure,
        c.metric,
        c.tolerance_note,
    ] {
        known.push_str(t);
        known.push(' ');
    }
    known.push_str(&c.tolerance.describe());
    known.push(' ');
    known.push_str(&c.direction.describe());
    for s in &c.scenarios {
        known.push(' ');
        known.push_str(&s.label());
    }
    for r in map.rows_of(c.id) {
        known.push_str(&format!(" {} {}", r.quote, r.says));
    }
    for (_, t) in map.setups() {
        if c.scenarios
            .iter()
            .any(|s| t.files.iter().any(|f| f == s.file))
        {
            for p in &t.params {
                known.push_str(&format!(" {} {} {}", p.quote, p.paper, p.ours));
            }
        }
    }
    // Magnitudes: a sign is not what rule 16 tells apart.
    let known: Vec<f64> = numbers_in(&known).into_iter().map(f64::abs).collect();
    // Drop templates, then code spans (commands, ids, keys).
    let mut text = String::new();
    let mut rest = c.explanation;
    while let Some(i) = rest.find("{=") {
        text.push_str(&rest[..i]);
        text.push('#');
        rest = rest[i..].find('}').map_or("", |j| &rest[i + j + 1..]);
    }
    text.push_str(rest);
    let mut out = Vec::new();
    for sentence in sentences(&text) {
        let commanded = sentence.contains("`ledbat ")
            || sentence.contains("`cargo ")
            || sentence.contains("`python");
        if commanded {
            continue;
        }
        let plain: String = sentence
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, p)| p)
            .collect::<Vec<_>>()
            .join(" ");
        let lower = plain.to_lowercase();
        for x in numbers_in(&plain).into_iter().map(f64::abs) {
            if (x.fract() == 0.0 && x <= 10.0) || known.contains(&x) {
                continue;
            }
            let w = crate_fmt(x);
            let referenced = lower.match_indices(&w).any(|(i, _)| {
                let before = lower[..i].trim_end();
                REFERENCES.iter().any(|r| before.ends_with(r))
            });
            if !referenced {
                out.push(w);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A number as an explanation would write it (`0.95`, `25`).
fn crate_fmt(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

#[test]
fn a_typed_figure_is_found_and_a_template_is_not() {
    let map = ledbat_repro::coverage::Map::load().unwrap();
    let c = |e: &'static str| Claim {
        statement: "about 27 ms",
        explanation: e,
        ..Claim::base("s000-x")
    };
    assert_eq!(typed_figures(&c("ours is 31.5 ms"), &map), vec!["31.5"]);
    assert!(typed_figures(&c("ours is {=s000-x} against 27 ms, see Fig. 12"), &map).is_empty());
    assert!(typed_figures(&c("31.5 ms with `ledbat repro s000 --seeds 2`. Then"), &map).is_empty());
    assert!(typed_figures(&c("key `flow.0.cc.gain=320` and 3 seeds"), &map).is_empty());
}

/// Rule 16: an explanation types no figure of a run; it quotes them (`{=id}`,
/// `{=id:null}`, `{=id@seedN}`), and a quoted null is a null run.
#[test]
fn explanations_type_no_figure_of_a_run() {
    let map = ledbat_repro::coverage::Map::load().unwrap();
    let all = catalog::all();
    let by_id: BTreeMap<&str, &Claim> = all.iter().map(|c| (c.id, c)).collect();
    let mut bad = Vec::new();
    let mut found = BTreeMap::new();
    for c in &all {
        for t in ledbat_repro::claims::quoted_templates(c.explanation) {
            match ledbat_repro::claims::parse_quote(t) {
                None => bad.push(format!("{}: template {{={t}}} is malformed", c.id)),
                Some((id, q)) => match by_id.get(id) {
                    None => bad.push(format!("{}: template {{={t}}} names no claim", c.id)),
                    Some(o)
                        if q == ledbat_repro::claims::Quoted::Null
                            && o.null_scenarios().is_none() =>
                    {
                        bad.push(format!("{}: {{={t}}}: {id} has no null run", c.id))
                    }
                    _ => {}
                },
            }
        }
        let figs = typed_figures(c, &map);
        if !figs.is_empty() {
            found.insert(c.id, format!("{}: its explanation types {figs:?}", c.id));
        }
    }
    none(bad);
    against_pending("16", found, pending::FIGURES);
}
