//! The thesis's Fig. 4.3: the fLEDBAT fluid model (numerical solution) beside the packet
//! simulation of `scenarios/seed003/fledbat-fluid.toml`, and the closed-form equilibrium
//! (eq. 4.10) checked against both.

use crate::claims::fmt_num;
use crate::fluid::{tail_means, FluidParams, FluidPoint};
use crate::plot::{HBand, Plot};
use crate::report::Section;
use ledbat_sim::RunResult;

/// Parameters matching the scenario file (10 Mb/s, 1500 B, RTT 50 ms, tau 25 ms, alpha 1,
/// zeta 0.1, starts 0 and 2 s).
pub fn thesis_params() -> FluidParams {
    FluidParams::default()
}

/// Solves the fluid model for the scenario's 60 s.
pub fn solve() -> Vec<FluidPoint> {
    thesis_params().solve(60.0, 0.05).unwrap_or_default()
}

fn pkts_to_mbps(pps: f64) -> f64 {
    pps * 1500.0 * 8.0 / 1e6
}

/// Plots: rates and queue, packet simulation (seed 1) against the fluid solution.
pub fn draw(r: &[&RunResult]) -> Vec<Plot> {
    let fluid = solve();
    let eq = thesis_params().equilibrium();
    let mut plots = Vec::new();
    if let Some(s) = r.first().and_then(|x| x.series.as_ref()) {
        let mut series: Vec<(String, Vec<(f64, f64)>)> = s
            .flows
            .iter()
            .map(|f| {
                (
                    format!("sim {}", f.name),
                    s.t_s
                        .iter()
                        .copied()
                        .zip(f.rate_mbps.iter().copied())
                        .collect(),
                )
            })
            .collect();
        for i in 0..2 {
            series.push((
                format!("fluid X{}", i + 1),
                fluid
                    .iter()
                    .map(|p| (p.t, pkts_to_mbps(p.rates[i])))
                    .collect(),
            ));
        }
        let mut p = Plot::lines(
            "Fig. 4.3(a): rates, packet simulation vs fluid model",
            "time (s)",
            "rate (Mb/s)",
            series,
        );
        p.bands.push(HBand {
            label: "C/2".into(),
            lo: 4.95,
            hi: 5.05,
        });
        plots.push(p);
        if let Some(l) = s.links.first() {
            let sim: Vec<(f64, f64)> = s
                .t_s
                .iter()
                .copied()
                .zip(l.queue_pkts.iter().map(|q| *q as f64))
                .collect();
            // moving average over 1 s, as the thesis plots beside the instantaneous queue
            let w = (1.0
                / (s.t_s.get(1).copied().unwrap_or(0.05) - s.t_s.first().copied().unwrap_or(0.0)))
            .round()
            .max(1.0) as usize;
            let avg: Vec<(f64, f64)> = sim
                .iter()
                .enumerate()
                .map(|(i, (t, _))| {
                    let lo = i.saturating_sub(w - 1);
                    (
                        *t,
                        sim[lo..=i].iter().map(|p| p.1).sum::<f64>() / (i - lo + 1) as f64,
                    )
                })
                .collect();
            let mut q = Plot::lines(
                "Fig. 4.3(b): queue, packet simulation vs fluid model",
                "time (s)",
                "queue (packets)",
                vec![
                    ("sim queue".into(), sim),
                    ("sim 1-s average".into(), avg),
                    (
                        "fluid Q".into(),
                        fluid.iter().map(|p| (p.t, p.queue)).collect(),
                    ),
                ],
            );
            q.bands.push(HBand {
                label: format!("Q* = {}", fmt_num(eq.queue_pkts)),
                lo: eq.queue_pkts - 0.3,
                hi: eq.queue_pkts + 0.3,
            });
            plots.push(q);
        }
    }
    plots
}

/// The report section: closed form vs fluid solution vs packet simulation (mean over seeds).
pub fn section(runs: &[&RunResult]) -> Section {
    let p = thesis_params();
    let eq = p.equilibrium();
    let fluid = solve();
    let mut text = vec![format!(
        "Fluid model of seed 003 section 4.3 (eqs. 4.8-4.9), integrated with fixed-step RK4 (step {} s): C = {} pkt/s, R = {} s, tau = {} s, alpha = {}, zeta = {}, flows starting at {:?} s. Closed-form equilibrium (eq. 4.10): X_i = C/N = {} pkt/s ({} Mb/s), Q* = C tau + N alpha tau / (zeta R) = {} packets (queueing delay {} ms).",
        p.step,
        fmt_num(p.capacity_pps),
        p.rtt,
        p.tau,
        p.alpha,
        p.zeta,
        p.starts,
        fmt_num(eq.rate_pps),
        fmt_num(pkts_to_mbps(eq.rate_pps)),
        fmt_num(eq.queue_pkts),
        fmt_num(eq.queue_delay * 1e3)
    )];
    if let Some((rates, q)) = tail_means(&fluid, 20.0) {
        text.push(format!(
            "Fluid solution, mean over 20-60 s: X1 = {} Mb/s, X2 = {} Mb/s, Q = {} packets ({:+.1} % from Q*).",
            fmt_num(pkts_to_mbps(rates[0])),
            fmt_num(pkts_to_mbps(rates[1])),
            fmt_num(q),
            (q / eq.queue_pkts - 1.0) * 100.0
        ));
    }
    if !runs.is_empty() {
        let q: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.links.first().map(|l| l.queue_mean_time_pkts))
            .collect();
        let x: Vec<(f64, f64)> = runs
            .iter()
            .filter(|r| r.flows.len() >= 2)
            .map(|r| {
                (
                    r.flows[0].throughput_bps / 1e6,
                    r.flows[1].throughput_bps / 1e6,
                )
            })
            .collect();
        let qm = crate::stats::mean(&q);
        text.push(format!(
            "Packet simulation (scenarios/seed003/fledbat-fluid.toml, {} seeds), mean over 20-60 s: X1 = {} Mb/s, X2 = {} Mb/s, queue = {} packets ({:+.1} % from Q*). The thesis notes the same kind of offset: the model assumes a perfect base-delay estimate and no packet quantisation (section 4.3.1).",
            runs.len(),
            fmt_num(crate::stats::mean(&x.iter().map(|p| p.0).collect::<Vec<_>>())),
            fmt_num(crate::stats::mean(&x.iter().map(|p| p.1).collect::<Vec<_>>())),
            fmt_num(qm),
            (qm / eq.queue_pkts - 1.0) * 100.0
        ));
    }
    Section {
        title: "fLEDBAT fluid model against the packet simulation (seed 003, Fig. 4.3)".into(),
        text,
        markdown: String::new(),
        plots: draw(runs.first().map(std::slice::from_ref).unwrap_or(&[])),
    }
}
