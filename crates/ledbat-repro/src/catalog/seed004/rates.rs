//! Seed 004, Figs. 4(b), 5 and 6: the ends of the rate ranges the paper gives ("always
//! between 800Kbps and 1Mbps", "between 500Kbps and 1Mbps", "typically between 800-1000Kbps
//! as opposed to 500-1000Kbps"), read on the single-flow runs' 1-s delivered rates. The
//! lower ends of the "typically" ranges are `s004-app-bitrate-hybrid` and
//! `s004-app-bitrate-newreno` (5th percentiles); here the top of both ranges (95th
//! percentile) and the hybrid's "always" (the smallest second).

use super::*;

/// The smallest of flow 0's 1-s delivered rates from 20 s (Mb/s).
fn slowest_second(r: &RunResult) -> Result<f64, String> {
    second_rates(r, 0, 20.0)?
        .into_iter()
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))))
        .ok_or_else(|| format!("{}: no 1-s rate", r.scenario))
}

/// Rule 13: the smallest 1-s rate in `(lo, hi)` bounds every percentile of them and their
/// mean from below; none exceeds the 1 Mb/s link by more than a packet in a second.
fn at_least_the_slowest((lo, _): (f64, f64)) -> (f64, f64) {
    (lo, 1.01)
}

/// Why the slowest second bounds the others.
const WHY_SLOWEST: &str = "every 1-s rate is at least the smallest, so any percentile of them \
    and their mean are too (at least 0.8 Mb/s for the tolerance, inside the sibling's direction \
    above 0.5); none is above the 1 Mb/s link by more than one 1000-byte packet in a second";

/// A source that offers under half the link: 6 packets of 1000 bytes every 100 ms.
const SLOW_SOURCE: &[&str] = &["flow.0.traffic.packets=6"];

/// The top of the range: the 95th percentile of the 1-s rates reaches the link's 1 Mb/s.
fn top_claim(
    id: &'static str,
    figure: &'static str,
    statement: &'static str,
    who: &'static str,
    file: &'static str,
    siblings: &'static [Sibling],
) -> Claim {
    use crate::claims::Band::*;
    Claim {
        figure,
        statement,
        paper_value: "1000 kb/s (the top of the range)",
        unit: "Mb/s",
        metric: who,
        scenarios: vec![ScenarioRef::file(file)],
        extract: |r| Ok(rate_band(r[0])?.1),
        tolerance: Near {
            value: 1.0,
            tol: 0.2,
        },
        direction: Above { bound: 0.5 },
        tolerance_note: "the range's upper end, 1000 kb/s (1 Mb/s), ± 20 % (the figure-value \
            family); direction: the rate's top is above half the link (the MOST convention: \
            more than half of the 1 Mb/s bottleneck)",
        thresholds: &[crate::catalog::Threshold::Convention(&crate::catalog::MOST)],
        explanation: "The top of the range is the 95th percentile of the 1-s rates, as the \
            bottom is the 5th (the sibling claims on the lower ends): a range that reaches \
            the link's rate, not one that stops short of it. No second's rate can pass the \
            link's, so the test is that the flow reaches it.",
        form: Form::Value,
        null: Null::run(
            "a source offering under half the link (6 packets of 1000 bytes per 100 ms, 0.48 \
                Mb/s): the flow is application-limited and its rate never reaches the link's",
            SLOW_SOURCE,
        ),
        siblings,
        ..Claim::base(id)
    }
}

/// The smallest, over [`FIG7_PERIODS`], of the link's use by the flows present: their mean
/// rates summed over the period's last 50 s, over the 1 Mb/s link.
fn fig7_periods_min_use(r: &[&RunResult]) -> Result<f64, String> {
    let mut m = f64::INFINITY;
    for (_, to, n) in FIG7_PERIODS {
        let mut sum = 0.0;
        for i in 0..n {
            sum += window_mean(&flow_points(r[0], i, |f| &f.rate_mbps)?, to - 50.0, to)?;
        }
        m = m.min(sum * 1e6 / r[0].capacity_bps);
    }
    Ok(m)
}

pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "Fig. 4(b), section III-A",
            statement: "The hybrid's transmission rate is always between 800 kb/s and 1 Mb/s.",
            paper_value: "800-1000 kb/s, always",
            unit: "Mb/s",
            metric: "the smallest of the hybrid flow's 1-s delivered rates from 20 s (every \
                second, 'always')",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-alone.toml")],
            extract: |r| slowest_second(r[0]),
            tolerance: AtLeast { bound: 0.8 },
            direction: Above { bound: 0.5 },
            tolerance_note: "always at least 800 kb/s (0.8 Mb/s), the stated lower end, on \
                every second (no second loosening); direction: no second falls to half the \
                link (the MOST convention: more than half of the 1 Mb/s bottleneck). The upper \
                end, 1 Mb/s, is the link's rate, which no second's delivered rate passes; that \
                the rate reaches it is s004-hybrid-rate-top",
            thresholds: &[crate::catalog::Threshold::Convention(&crate::catalog::MOST)],
            explanation: "'Always' read on every second after the start-up (from 20 s, as the \
                other single-flow claims): the smallest 1-s rate, at or below the 5th percentile \
                that s004-app-bitrate-hybrid reads for Fig. 6's 'typically'.",
            form: Form::Bound {
                lo: Some(0.8),
                hi: None,
            },
            null: Null::excludes(
                0.5,
                "a loss-based AIMD sawtooth between C/2 and C, the paper's NewReno (Fig. 5): its \
                    slowest second is C/2 = 0.5 Mb/s",
            ),
            siblings: &[
                Sibling::Implies {
                    other: "s004-app-bitrate-hybrid",
                    map: at_least_the_slowest,
                    why: WHY_SLOWEST,
                },
                Sibling::Implies {
                    other: "s004-hybrid-rate",
                    map: at_least_the_slowest,
                    why: WHY_SLOWEST,
                },
                Sibling::Implies {
                    other: "s004-hybrid-rate-top",
                    map: at_least_the_slowest,
                    why: WHY_SLOWEST,
                },
                Sibling::Independent {
                    other: "s004-hybrid-queue-delay",
                    why: "a full link can be carried over any queue, and a short queue by any \
                        rate: the slowest second bounds no delay",
                },
                Sibling::Independent {
                    other: "s004-hybrid-no-loss",
                    why: "a flow can keep every second fast with or without losses: the slowest \
                        second bounds no loss rate",
                },
                Sibling::Independent {
                    other: "s004-zone2-most-epochs",
                    why: "where the delay sits between the thresholds bounds no rate: the link \
                        can be full with the delay in any zone",
                },
                Sibling::Independent {
                    other: "s004-hybrid-delay-peak",
                    why: "the largest delay bounds no rate, nor the slowest second a delay",
                },
            ],
            ..Claim::base("s004-hybrid-rate-always-above-800k")
        },
        top_claim(
            "s004-hybrid-rate-top",
            "Figs. 4(b), 6(a), section III-A",
            "The hybrid's rate reaches the top of its range, 1 Mb/s (800-1000 kb/s).",
            "95th percentile of the hybrid flow's 1-s delivered rates from 20 s",
            "seed004/hybrid-alone.toml",
            &[
                Sibling::Independent {
                    other: "s004-app-bitrate-hybrid",
                    why: "the top of the 1-s rates bounds their bottom from above only, and \
                        the sibling's bands are lower bounds; nor does the bottom bound the top \
                        beyond itself",
                },
                Sibling::Independent {
                    other: "s004-hybrid-rate",
                    why: "the 95th percentile of the 1-s rates bounds their mean from above \
                        only, and the sibling's bands are lower bounds",
                },
                Sibling::Independent {
                    other: "s004-hybrid-queue-delay",
                    why: "a rate that reaches the link can be carried over any queue: the top \
                        rate bounds no delay",
                },
                Sibling::Independent {
                    other: "s004-hybrid-no-loss",
                    why: "a flow can reach the link's rate with or without losses",
                },
                Sibling::Independent {
                    other: "s004-zone2-most-epochs",
                    why: "where the delay sits between the thresholds bounds no rate",
                },
                Sibling::Independent {
                    other: "s004-hybrid-delay-peak",
                    why: "the largest delay bounds no rate, nor the top rate a delay",
                },
            ],
        ),
        top_claim(
            "s004-newreno-rate-top",
            "Figs. 5, 6(b), section III-A",
            "NewReno's rate oscillates up to the top of its range, 1 Mb/s (500 kb/s - 1 Mb/s).",
            "95th percentile of NewReno's 1-s delivered rates from 20 s",
            "seed004/newreno-alone.toml",
            &[
                Sibling::Independent {
                    other: "s004-app-bitrate-newreno",
                    why: "the top of the 1-s rates bounds their bottom from above only: a \
                        95th percentile near 1 Mb/s allows a 5th percentile anywhere up to it",
                },
                Sibling::Independent {
                    other: "s004-newreno-queue-delay",
                    why: "a rate that reaches the link can be carried over any queue: the top \
                        rate bounds no delay",
                },
                Sibling::Independent {
                    other: "s004-newreno-loss",
                    why: "a flow can reach the link's rate with or without losses",
                },
            ],
        ),
        Claim {
            figure: "Fig. 7(b), section III-B",
            statement: "Whatever the number of flows present, as flows enter and as they \
                leave, they use close to the full link capacity.",
            paper_value: "close to full link capacity",
            unit: "fraction of capacity",
            metric: "the smallest, over the periods with 2, 3 and 4 flows present (100-400 s \
                as flows enter, 600-900 s as they leave), of the present flows' summed mean \
                rates over the period's last 50 s, over the 1 Mb/s link",
            scenarios: vec![five_with_departures()],
            extract: fig7_periods_min_use,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "close to full = at least 95 % (as s004-five-flows-link-use with \
                all five present); direction: the link used efficiently (the EFFICIENT \
                convention, 85 %)",
            thresholds: &[crate::catalog::Threshold::Convention(
                &crate::catalog::seed003::conventions::EFFICIENT,
            )],
            explanation: "The periods are those of s004-five-flows-enter-and-leave-fair on the \
                same run; the smallest period's use is the claim's value, so every period \
                with fewer than five flows must be close to full.",
            form: Form::Value,
            null: Null::excludes(
                0.75,
                "synchronised loss-based AIMD flows: their aggregate rate saws between C/2 and \
                    C, 0.75 of the link on average",
            ),
            siblings: &[Sibling::Independent {
                other: "s004-five-flows-enter-and-leave-fair",
                why: "a full link can be divided in any proportion and a fair division can \
                    leave the link idle: the smallest use bounds no Jain index, nor the reverse",
            }],
            ..Claim::base("s004-five-flows-periods-link-use")
        },
    ]
}
