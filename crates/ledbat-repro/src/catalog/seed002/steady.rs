//! Seed 002, sections 5.4 and 6: the linear decrease's full link in steady state (Fig. 1's
//! run) and how quickly the minimum decrease yields to TCP (Fig. 6's runs, the abstract's
//! "yield more quickly").

use super::*;

/// The link's utilisation while both flows of a two-flow run transfer: their mean rates
/// from 30 s (15 s after the latecomer's start) to the first completion, over the 10 Mb/s
/// link.
fn both_flows_utilisation(r: &RunResult) -> Result<f64, String> {
    let end = finish(r, "first")?.min(finish(r, "latecomer")?);
    if end <= 30.0 {
        return Err(format!("{}: a flow completed before 30 s", r.scenario));
    }
    let sum = rate_between(r, 0, 30.0, end)? + rate_between(r, 1, 30.0, end)?;
    Ok(sum * 1e6 / r.capacity_bps)
}

/// LEDBAT's share of the two flows' throughput in the 20 s after TCP joins (20-40 s).
fn share_after_join(r: &RunResult) -> Result<f64, String> {
    let l = rate_between(r, 0, 20.0, 40.0)?;
    let t = rate_between(r, 1, 20.0, 40.0)?;
    if l + t <= 0.0 {
        return Err(format!("{}: no throughput in 20-40 s", r.scenario));
    }
    Ok(l / (l + t))
}

pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "Fig. 1, section 6",
            statement: "The linear decrease always privileges the last flow but fully \
                utilises the link in stable state.",
            paper_value: "full link",
            unit: "fraction of capacity",
            metric: "the two flows' summed mean rate over the 10 Mb/s link while both transfer \
                (from 30 s to the first completion), linear decrease",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            extract: |r| both_flows_utilisation(r[0]),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.95 },
            tolerance_note: "fully utilised = at least 95 % of the link's rate (the FULL \
                convention), as tolerance and direction: the statement gives no looser reading",
            thresholds: &[crate::catalog::Threshold::Convention(&crate::catalog::FULL)],
            explanation: "Stable state is read as the period in which both flows transfer, \
                from 15 s after the latecomer's start (the latecomer's ramp-up excluded) to the \
                first completion; the privilege of the last flow is \
                s002-linear-latecomer-finishes-first on the same run.",
            form: Form::Value,
            null: Null::scenarios(
                "a multiplicative decrease with a too small beta (0.1, section 3.2) in the \
                    linear decrease's place, with 1 ms of delay noise that triggers its \
                    decreases: each decrease leaves the window far under the pipe",
                vec![ScenarioRef::with(
                    "seed002/two-flows-md-nf1.toml",
                    &[
                        "flow.0.cc.beta=0.1",
                        "flow.1.cc.beta=0.1",
                        "topology.jitter=1ms",
                    ],
                )],
            ),
            siblings: &[Sibling::Independent {
                other: "s002-linear-latecomer-finishes-first",
                why: "a full link can be shared in any proportion, so the utilisation bounds no \
                    gap between the completions; and a gap bounds no utilisation, since an idle \
                    link delays both flows alike",
            }],
            ..Claim::base("s002-linear-full-in-steady-state")
        },
        Claim {
            figure: "Fig. 6, section 5.4, abstract",
            statement: "The minimum decrease of one packet per RTT helps LEDBAT yield more \
                quickly to a joining TCP flow than the linear decrease (delayed ACKs on, as \
                in Fig. 6).",
            paper_value: "yields more quickly",
            unit: "ratio",
            metric: "LEDBAT's share of the throughput in the 20 s after TCP joins (20-40 s), \
                with the minimum decrease over with the linear decrease (20 Mb/s, 60-packet \
                queue, delayed ACKs on)",
            scenarios: files(&[
                "seed002/tcp-20mbps-linear-min.toml",
                "seed002/tcp-20mbps-linear.toml",
            ]),
            extract: |r| Ok(share_after_join(r[0])? / share_after_join(r[1])?),
            tolerance: Below { bound: 1.0 },
            direction: Below { bound: 1.0 },
            tolerance_note: "an effect without a size in the paper: a smaller share in the \
                first 20 s after TCP joins, strictly (a ratio of 1 is no effect)",
            explanation: "'More quickly' is read as the share LEDBAT keeps while TCP ramps up: \
                a flow that yields sooner leaves TCP more of the link in those seconds. The window \
                spans TCP's slow start and the first cycles after it: over its first half \
                alone the share depends on where TCP's slow-start losses fall, which varies \
                from seed to seed. Both \
                runs have delayed ACKs on, the paper's setup for Fig. 6, where our plain linear \
                decrease also yields in the end (s002-linear-does-not-yield-20mbps's root \
                cause); the claim asks whether the minimum decrease yields sooner there.",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the linear decrease in both runs: the same controller on both sides, no \
                    minimum decrease to yield sooner",
                files(&[
                    "seed002/tcp-20mbps-linear.toml",
                    "seed002/tcp-20mbps-linear.toml",
                ]),
            ),
            siblings: &[Sibling::Independent {
                other: "s002-delayed-ack-slows-linear-min",
                why: "the windows before TCP joins bound nothing of the shares after it: a \
                    flow that grew more slowly alone can keep any share once TCP's slow start \
                    has filled the queue, and the reverse",
            }],
            ..Claim::base("s002-linear-min-yields-sooner")
        },
    ]
}
