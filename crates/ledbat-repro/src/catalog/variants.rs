//! Other metrics for claims whose metric departs from the paper's where the verdict could
//! depend on it (a setup row of the coverage map with `risk = "yes"` naming the departure,
//! e.g. seed 001's "averaging": the paper marks means, the claims read medians). The runner
//! applies each to the claim's own runs and reports the verdict it would give; a claim
//! whose verdict flips is fragile.

use super::extract::{completion_times, delay_estimates_from, finish};
use super::Extract;
use crate::stats::mean;
use ledbat_sim::RunResult;

/// A claim's metric computed the paper's way.
pub struct MetricVariant {
    /// The claim.
    pub claim: &'static str,
    /// The setup row it answers (its `name` in `docs/repro/coverage/`).
    pub param: &'static str,
    /// What changes (shown in the report).
    pub what: &'static str,
    /// The metric, on the claim's runs in its order.
    pub extract: Extract,
}

/// Mean `web` train transfer time beside LEDBAT (second run) / alone (first).
fn train_mean_ratio(r: &[&RunResult]) -> Result<f64, String> {
    Ok(mean(&completion_times(r[1], "web")?) / mean(&completion_times(r[0], "web")?))
}

/// Mean of flow 0's own per-epoch delay estimate d (its `qdelay_ms` series, sampled every
/// 100 ms) from 20 s: what seed 004's Fig. 4(a) plots.
fn controller_delay_mean(r: &[&RunResult]) -> Result<f64, String> {
    Ok(mean(&delay_estimates_from(r[0], 0, 20.0)?))
}

/// Every metric variant of the catalog.
pub fn metric_variants() -> Vec<MetricVariant> {
    const AVG: &str = "averaging";
    const MEANS: &str = "ratio of means instead of medians";
    vec![
        MetricVariant {
            claim: "s001-web-upstream-shift",
            param: AVG,
            what: MEANS,
            extract: train_mean_ratio,
        },
        MetricVariant {
            claim: "s001-web-upstream-shift-rtt100",
            param: AVG,
            what: MEANS,
            extract: train_mean_ratio,
        },
        MetricVariant {
            claim: "s001-web-downstream-shift",
            param: AVG,
            what: MEANS,
            extract: train_mean_ratio,
        },
        MetricVariant {
            claim: "s001-web-rtt25-harms-more",
            param: AVG,
            what: MEANS,
            extract: |r| Ok(train_mean_ratio(&r[..2])? - train_mean_ratio(&r[2..])?),
        },
        MetricVariant {
            claim: "s002-linear-latecomer-finishes-first",
            param: "completion times",
            what: "the paper's 106 s read as the latecomer's own completion time (it ends at \
                121 s, a gap of 50 s), judged at ±20 % of 50 s: the gap mapped onto the claim's \
                band as 65 + 1.3 x (gap - 50), so that 40-60 s lands on its 52-78 s",
            extract: |r| {
                Ok(65.0 + 1.3 * (finish(r[0], "first")? - finish(r[0], "latecomer")? - 50.0))
            },
        },
        MetricVariant {
            claim: "s004-hybrid-queue-delay",
            param: "queueing delay read",
            what: "the mean of the controller's per-epoch estimate d (the paper's delta_avg, \
                Fig. 4(a)) from 20 s, instead of the bottleneck's per-packet delay",
            extract: controller_delay_mean,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::{Map, Risk};

    #[test]
    fn every_metric_variant_answers_a_setup_row_of_its_claims_files() {
        let map = Map::load().unwrap();
        let claims = super::super::all();
        for v in metric_variants() {
            let c = claims
                .iter()
                .find(|c| c.id == v.claim)
                .unwrap_or_else(|| panic!("{}: no such claim", v.claim));
            let ok = map.setups().any(|(_, t)| {
                t.params.iter().any(|p| {
                    p.name == v.param
                        && p.risk == Some(Risk::Yes)
                        && c.scenarios.iter().any(|s| {
                            let files = if p.only.is_empty() { &t.files } else { &p.only };
                            files.iter().any(|f| f == s.file)
                        })
                })
            });
            assert!(
                ok,
                "{}: no setup row `{}` with risk = yes on its files",
                v.claim, v.param
            );
        }
    }
}
