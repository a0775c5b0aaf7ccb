//! Rules every claim of the catalog obeys, so that a verdict can come out otherwise than it
//! did (the rules are in the catalog's module doc, `crates/ledbat-repro/src/catalog/mod.rs`).

use ledbat_repro::catalog;
use ledbat_repro::claims::{Band, Verdict};

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
        .filter(|c| {
            let (tl, th) = c.tolerance.interval();
            let (dl, dh) = c.direction.interval();
            !(dl <= tl && th <= dh)
        })
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
