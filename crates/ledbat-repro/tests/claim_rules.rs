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

/// The leading number of an override's value (`10`, `"100ms"` -> 100).
fn number(v: &str) -> Option<f64> {
    let t = v.trim().trim_matches('"');
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
/// one file, all together (two class buffers set to the same B are one sweep).
fn swept(c: &Claim) -> Option<(Vec<String>, Vec<f64>)> {
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
            return Some((varying.iter().map(|k| k.to_string()).collect(), values));
        }
    }
    None
}

/// Rule 7.
#[test]
fn sweeps_cover_the_papers_range() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        let Some((keys, values)) = swept(&c) else {
            continue;
        };
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

/// Rule 10.
#[test]
fn wide_tolerances_say_why() {
    let mut bad = Vec::new();
    for c in catalog::all() {
        if c.form != Form::Value {
            continue;
        }
        let (centre, half) = match c.tolerance {
            Band::Near { value, tol } => (value, tol),
            Band::Between { lo, hi } => ((lo + hi) / 2.0, (hi - lo) / 2.0),
            _ => continue,
        };
        if centre != 0.0
            && half / centre.abs() > 0.2 + 1e-9
            && !c.tolerance_note.contains("wider because")
        {
            bad.push(format!(
                "{}: ± {:.0} % without 'wider because' in its tolerance note",
                c.id,
                100.0 * half / centre.abs()
            ));
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
