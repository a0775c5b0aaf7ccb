//! Seed 003 (Testa), chapter 4 beyond the first catalog round: the other latecomer cases of
//! Fig. 4.1, Fig. 4.4's two traffic models, and the sensitivity of fLEDBAT to zeta against
//! TCP, against LEDBAT and for N flows (Figs. 4.5-4.6).

use super::extract::*;
use super::plots::*;
use super::{Claim, Form, ScenarioRef};
use crate::stats::jain;
use ledbat_sim::RunResult;

/// zeta values of the Fig. 4.5 sweeps (the thesis's axis spans 1e-4 to 10).
const ZETA_TCP: [f64; 6] = [1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0];
const ZETA_LEDBAT: [f64; 7] = [1e-4, 1e-3, 1e-2, 0.1, 1.0, 5.0, 10.0];
/// The shaded zone of Fig. 4.5 (c) tried for N flows (Fig. 4.6), and the N.
const ZETA_ZONE: [f64; 4] = [0.01, 0.1, 0.2, 0.5];
const FLOWS_N: [u32; 3] = [2, 5, 10];

fn zeta_sweep(file: &'static str, zetas: &[f64]) -> Vec<ScenarioRef> {
    zetas
        .iter()
        .map(|z| ScenarioRef::with(file, &[format!("flow.0.cc.zeta={z}")]))
        .collect()
}

/// Fig. 4.6's runs: each N, each zeta of the zone (all flows share the one table).
fn n_points() -> Vec<ScenarioRef> {
    FLOWS_N
        .iter()
        .flat_map(|n| {
            ZETA_ZONE.iter().map(move |z| {
                ScenarioRef::with(
                    "seed003/chunks-fledbat-n.toml",
                    &[format!("flow.0.count={n}"), format!("flow.0.cc.zeta={z}")],
                )
            })
        })
        .collect()
}

/// Jain's index of the flows' mean rates over `[from, to)` s (from the time series).
fn jain_between(r: &RunResult, from: f64, to: f64) -> Result<f64, String> {
    let n = series(r)?.flows.len();
    let x: Vec<f64> = (0..n)
        .map(|i| rate_between(r, i, from, to))
        .collect::<Result<_, _>>()?;
    jain(&x).ok_or_else(|| format!("{}: no throughput in [{from}, {to}) s", r.scenario))
}

/// The flow `name`'s share of the throughput.
fn share(r: &RunResult, name: &str) -> Result<f64, String> {
    Ok(tput(r, name)? / total_tput(r))
}

/// log10 of the zeta where LEDBAT's share first reaches 1/2 along `ZETA_LEDBAT`
/// (interpolated in log zeta), or an error when it never does.
fn crossover(r: &[&RunResult]) -> Result<f64, String> {
    let s: Vec<f64> = r
        .iter()
        .map(|x| share(x, "ledbat"))
        .collect::<Result<_, _>>()?;
    for k in 1..s.len() {
        if s[k - 1] < 0.5 && s[k] >= 0.5 {
            let (a, b) = (ZETA_LEDBAT[k - 1].log10(), ZETA_LEDBAT[k].log10());
            return Ok(a + (b - a) * (0.5 - s[k - 1]) / (s[k] - s[k - 1]));
        }
    }
    Err("LEDBAT's share never crosses one half".into())
}

pub(super) fn claims() -> Vec<Claim> {
    let mut v = latecomer_claims();
    v.extend(zeta_claims());
    v
}

/// Fig. 4.1 and section 4.2.1; Fig. 4.4 and section 4.5.
fn latecomer_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let tcp_first = "flow.0.cc={ name = \"newreno\", slow_start = false }";
    vec![
        Claim {
            figure: "section 4.2.1",
            statement: "A LEDBAT latecomer against TCP has a negligible effect: the first TCP \
                halving drains the queue and LEDBAT corrects its base delay.",
            paper_value: "negligible",
            unit: "share difference",
            metric: "|LEDBAT's share joining 10 s after TCP - joining with it|, 30-80 s, B = 100",
            scenarios: vec![
                ScenarioRef::with("seed003/latecomer-ledbat.toml", &[tcp_first, "warmup=30s"]),
                ScenarioRef::with(
                    "seed003/latecomer-ledbat.toml",
                    &[tcp_first, "warmup=30s", "flow.1.start=0s"],
                ),
            ],
            extract: |r| Ok((share(r[0], "latecomer")? - share(r[1], "latecomer")?).abs()),
            tolerance: AtMost { bound: 0.05 },
            direction: AtMost { bound: 0.2 },
            tolerance_note: "negligible = within 5 points of the share; direction: 20 points",
            form: Form::Alike { null: 0.0 },
            ..Claim::base("s003-latecomer-vs-tcp-negligible")
        },
        Claim {
            figure: "Fig. 4.1(a) top, section 4.2.1",
            statement: "With a 2-s gap and B = 40 both flows measure the same base delay and the \
                first keeps the larger share.",
            paper_value: "first ahead",
            unit: "share difference",
            metric: "first flow's share minus the latecomer's, 20-80 s, gap 2 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["flow.1.start=2s", "topology.queue.packets=40"],
            )],
            extract: |r| Ok(share(r[0], "first")? - share(r[0], "latecomer")?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the first flow keeping the larger share); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s003-latecomer-gap2-first-ahead")
        },
        Claim {
            figure: "Fig. 4.1(a) middle, section 4.2.1",
            statement: "With a 10-s gap and B = 40 the latecomer's doubled target drives the \
                first flow to its minimum just after 20 s.",
            paper_value: "just after 20 s",
            unit: "s",
            metric: "time the first flow's window first falls to 1.5 packets or less after 10 s, \
                gap 10 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["topology.queue.packets=40", "warmup=0s"],
            )],
            extract: |r| {
                flow_points(r[0], 0, |f| &f.cwnd_pkts)?
                    .into_iter()
                    .find(|(t, w)| *t >= 10.0 && *w <= 1.5)
                    .map(|p| p.0)
                    .ok_or_else(|| "the first flow never reached its floor".to_string())
            },
            draw: Some(|r| plots([cwnd_plot("latecomer 10 s later, B = 40: windows", r[0])])),
            tolerance: Between { lo: 16.0, hi: 26.4 },
            direction: AtMost { bound: 40.0 },
            tolerance_note: "20-22 s ±20 %; wider because \"just after 20 s\" is a range read off a figure, widened at both ends; direction: well before the end",
            form: Form::Value,
            ..Claim::base("s003-latecomer-gap10-b40-first-floor")
        },
        Claim {
            figure: "Fig. 4.1(a) middle, section 4.2.1",
            statement: "With a 10-s gap and B = 40 a loss near 25 s resets the latecomer and the \
                sharing becomes fairer.",
            paper_value: "fairer after the loss",
            unit: "Jain difference",
            metric: "Jain's index of the rates over 40-80 s minus over 12-25 s, gap 10 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["topology.queue.packets=40", "warmup=0s"],
            )],
            extract: |r| Ok(jain_between(r[0], 40.0, 80.0)? - jain_between(r[0], 12.0, 25.0)?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the sharing fairer after the loss than before); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "The mechanism is there but the metric's early window is wrong for it. As the \
                thesis describes, the first flow is at its floor from 22.5 s (1 packet against \
                the latecomer's 77-82 at 23-25 s), a loss near 26 s halves the latecomer once \
                and the first flow climbs back to about 11 packets against 55 (seed 1, `ledbat \
                sim scenarios/seed003/latecomer-ledbat.toml --set topology.queue.packets=40 \
                --set warmup=0s`): fairer than just before the loss. But the 12-25 s window \
                also holds the moment the two windows cross (about 15 s), so its mean rates \
                are closer to equal than the 40-80 s ones; the window was fixed before running \
                and is kept.",
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s003-latecomer-gap10-b40-fairer-later")
        },
        Claim {
            figure: "Fig. 4.1(b), section 4.2.1",
            statement: "With five LEDBAT flows starting 4 s apart the last one takes all the \
                capacity.",
            paper_value: "all",
            unit: "share",
            metric: "the last flow's share of the throughput, 30-80 s",
            scenarios: vec![ScenarioRef::file("seed003/latecomer-five.toml")],
            extract: |r| Ok(r[0].flows[4].throughput_bps / total_tput(r[0])),
            draw: Some(|r| plots([rate_plot("five LEDBAT flows 4 s apart: rates", r[0])])),
            tolerance: AtLeast { bound: 0.8 },
            direction: AtLeast { bound: 0.4 },
            tolerance_note: "all = at least 80 %; direction: by far the largest (twice the fair \
                fifth)",
            form: Form::Value,
            ..Claim::base("s003-latecomer-five-last-takes-all")
        },
        Claim {
            figure: "Fig. 4.4(a), section 4.5.1",
            statement: "In chunk mode with zeta = 0.01 the firstcomer's multiplicative decrease \
                lets the latecomer correct its base delay, and the shares converge to equal.",
            paper_value: "equal",
            unit: "Jain index",
            metric: "long-term Jain index, two fLEDBAT flows 10 s apart, chunk mode, zeta 0.01, \
                20-120 s",
            scenarios: vec![ScenarioRef::with(
                "seed003/chunks-fledbat.toml",
                &["flow.0.cc.zeta=0.01", "flow.1.cc.zeta=0.01"],
            )],
            extract: first_jain_long,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "equal = F >= 0.95",
            form: Form::Value,
            ..Claim::base("s003-chunks-zeta001-equal")
        },
        Claim {
            figure: "Fig. 4.4(b), section 4.5.2",
            statement: "Backlogged with zeta = 5 the queue often empties and fairness returns.",
            paper_value: "fair",
            unit: "Jain index",
            metric: "long-term Jain index, two backlogged fLEDBAT flows 2 s apart, zeta 5, 20-60 s",
            scenarios: vec![ScenarioRef::with(
                "seed003/fledbat-fluid.toml",
                &["flow.0.cc.zeta=5", "flow.1.cc.zeta=5"],
            )],
            extract: first_jain_long,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F >= 0.9",
            form: Form::Value,
            ..Claim::base("s003-backlogged-zeta5-fair")
        },
        Claim {
            figure: "Fig. 4.4(b), section 4.5.2",
            statement: "Backlogged with zeta = 5 the efficiency drops a little (the queue \
                flushes), and the fluid model over-estimates the queue.",
            paper_value: "less efficient; queue below the model",
            unit: "packets",
            metric: "the model's Q* = C tau + N alpha tau / (zeta R) = 21.0 packets minus the \
                measured mean queue (time average), zeta 5",
            scenarios: vec![ScenarioRef::with(
                "seed003/fledbat-fluid.toml",
                &["flow.0.cc.zeta=5", "flow.1.cc.zeta=5"],
            )],
            extract: |r| {
                let q_star = 10e6 / 12000.0 * 0.025 + 2.0 * 0.025 / (5.0 * 0.05);
                Ok(q_star - bottleneck(r[0])?.queue_mean_time_pkts)
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the fluid model's queue above the simulated one); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s003-backlogged-zeta5-model-over")
        },
        Claim {
            figure: "section 4.5.2",
            statement: "Backlogged, with too small a zeta the latecomer advantage persists.",
            paper_value: "latecomer ahead",
            unit: "share",
            metric: "the latecomer's share, two backlogged fLEDBAT flows 10 s apart, zeta 0.01, \
                20-60 s",
            scenarios: vec![ScenarioRef::with(
                "seed003/fledbat-fluid.toml",
                &[
                    "flow.0.cc.zeta=0.01",
                    "flow.1.cc.zeta=0.01",
                    "flow.1.start=10s",
                ],
            )],
            extract: |r| share(r[0], "second"),
            tolerance: AtLeast { bound: 0.7 },
            direction: AtLeast { bound: 0.5 },
            tolerance_note: "persists = the latecomer takes at least 70 %; direction: more \
                than half",
            form: Form::Value,
            ..Claim::base("s003-backlogged-small-zeta-latecomer")
        },
    ]
}

/// Figs. 4.5-4.6: zeta against TCP, against LEDBAT, and for N flows.
fn zeta_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Against TCP, fLEDBAT's share goes to 0 % (fairness to 1/N) for every \
                zeta above 1e-3.",
            paper_value: "≈ 0 %",
            unit: "share",
            metric: "largest fLEDBAT share beside one NewReno over zeta = 1e-3, 1e-2, 0.1, 1, \
                10 (chunk mode)",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| {
                r[1..]
                    .iter()
                    .map(|x| share(x, "fledbat"))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            draw: Some(|r| {
                let pts = ZETA_TCP
                    .iter()
                    .zip(r)
                    .filter_map(|(z, x)| share(x, "fledbat").ok().map(|s| (z.log10(), s)));
                sweep_plot(
                    "fLEDBAT beside TCP: fLEDBAT's share against zeta",
                    ("log10 zeta", "fLEDBAT share"),
                    pts.collect(),
                    true,
                    vec![],
                )
            }),
            tolerance: AtMost { bound: 0.1 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "≈ 0 % = at most 10 %; direction: less than half",
            explanation:
                "Root cause: under eq. 4.5 the thesis's own threshold for low priority is about \
                0.1, not 1e-3. Beside a TCP that holds the queue delta above the target, a \
                fLEDBAT window settles where the increase alpha per RTT equals the decrease \
                zeta (delta / tau) W, at W* = alpha tau / (zeta delta); with the 100-packet \
                buffer delta reaches 95 ms, so W* = 263 packets at zeta = 1e-3, 26 at 1e-2 (a \
                fair share) and 2.6 at 0.1. Backlogged (`ledbat sim \
                scenarios/seed003/chunks-fledbat-tcp.toml` with both flows' traffic \
                backlogged, seed 1) fLEDBAT keeps 42, 35, 4 and 1 % at zeta = 1e-3, 1e-2, 0.1, \
                1, as that predicts; in chunk mode TCP also idles about an RTT per chunk, \
                which fLEDBAT fills (18 % at zeta 0.1). The thesis's figure, low priority from \
                1e-3, does not follow from its stated update law.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            ..Claim::base("s003-fledbat-vs-tcp-low-priority")
        },
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Against TCP the efficiency stays high for every zeta (fLEDBAT pushes \
                bytes TCP leaves).",
            paper_value: "high",
            unit: "efficiency",
            metric: "lowest efficiency over zeta = 1e-4 .. 10",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| min_over(r, |x| Ok(x.aggregate.efficiency)),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "high = at least 95 %",
            explanation:
                "Our TCP in chunk mode idles for about an RTT after each 250-kB chunk: alone it \
                uses 0.785 of the link (seed 1, `ledbat sim \
                scenarios/seed003/chunks-fledbat-tcp.toml --set flow.0.start=200s`), and a \
                low-priority fLEDBAT (large zeta) leaves most of that idle time unused, so the \
                efficiency is lowest where fLEDBAT yields most. The thesis's TCP evidently \
                lost less per chunk; how its chunks were scheduled is not stated beyond 'not \
                pipelined'.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            hinge: Some(super::Hinge { choice: "TCP's chunks sent back to back (backlogged) instead of one at a time", alt: &["flow.1.traffic={ kind = \"backlogged\" }"], files: &[], unstated: true }),
            form: Form::Value,
            ..Claim::base("s003-fledbat-vs-tcp-efficient")
        },
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Only for zeta below 1e-3 does fLEDBAT lose its low priority against TCP.",
            paper_value: "higher share at zeta < 1e-3",
            unit: "share difference",
            metric: "fLEDBAT's share at zeta = 1e-4 minus its largest at zeta = 1e-2 .. 10",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| {
                let rest = r[2..]
                    .iter()
                    .map(|x| share(x, "fledbat"))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))?;
                Ok(share(r[0], "fledbat")? - rest)
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (fLEDBAT's share at zeta below 1e-3 above its share at every larger zeta); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            explanation: "Judged per seed (catalog rule 2): the former rule averaged the signed \
                differences, where a few seeds with a large margin carried the mean; the value \
                is now the share of seeds in which fLEDBAT's share at zeta = 1e-4 exceeds its \
                share at every larger zeta.",
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s003-fledbat-vs-tcp-tiny-zeta-aggressive")
        },
        Claim {
            figure: "Fig. 4.5(b), section 4.6.2",
            statement: "Against LEDBAT (random starts in [0, 10] s), LEDBAT gets less than 20 % \
                of the bottleneck for zeta below 1e-2.",
            paper_value: "< 20 %",
            unit: "share",
            metric: "LEDBAT's largest share at zeta = 1e-4 and 1e-3 (chunk mode)",
            scenarios: zeta_sweep("seed003/chunks-fledbat-ledbat.toml", &ZETA_LEDBAT),
            extract: |r| Ok(share(r[0], "ledbat")?.max(share(r[1], "ledbat")?)),
            draw: Some(|r| {
                let pts = ZETA_LEDBAT
                    .iter()
                    .zip(r)
                    .filter_map(|(z, x)| share(x, "ledbat").ok().map(|s| (z.log10(), s)));
                sweep_plot(
                    "fLEDBAT beside LEDBAT: LEDBAT's share against zeta",
                    ("log10 zeta", "LEDBAT share"),
                    pts.collect(),
                    true,
                    band("one half", 0.5, 0.5),
                )
            }),
            tolerance: AtMost { bound: 0.2 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "the thesis's bound; direction: less than half",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            ..Claim::base("s003-fledbat-vs-ledbat-small-zeta")
        },
        Claim {
            figure: "Fig. 4.5(b), section 4.6.2",
            statement: "The crossover is near zeta = 5, beyond which fLEDBAT is lower priority \
                than LEDBAT.",
            paper_value: "≈ 5",
            unit: "log10 zeta",
            metric: "log10 of the zeta where LEDBAT's share first reaches one half (interpolated \
                over zeta = 1e-3 .. 10)",
            scenarios: zeta_sweep("seed003/chunks-fledbat-ledbat.toml", &ZETA_LEDBAT),
            extract: crossover,
            tolerance: Near {
                value: 5f64.log10(),
                tol: 0.3,
            },
            direction: Between { lo: -1.0, hi: 2.0 },
            tolerance_note: "a factor of two around 5 (the axis is logarithmic); wider because zeta is swept in coarse steps (1, 5, 10) and \"near 5\" resolves only to a factor of two; direction: within the swept range beyond 0.1",
            explanation: "Ours crosses much earlier, at zeta of about 0.17: by the law of \
                s003-fledbat-vs-tcp-low-priority, fLEDBAT's decrease overtakes its increase \
                once zeta (delta / tau) W exceeds alpha, and beside LEDBAT's standing queue \
                that happens at zeta near 0.1, not 5. The thesis's crossover at 5 would need a \
                much smaller queue offset or window than this setup gives; what it was is not \
                established.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            ..Claim::base("s003-fledbat-vs-ledbat-crossover")
        },
        Claim {
            figure: "Fig. 4.5(b), section 4.6.2",
            statement: "The fLEDBAT-LEDBAT share is never fair.",
            paper_value: "never fair",
            unit: "Jain index",
            metric: "highest long-term Jain index over zeta = 1e-4 .. 10",
            scenarios: zeta_sweep("seed003/chunks-fledbat-ledbat.toml", &ZETA_LEDBAT),
            extract: |r| {
                r.iter()
                    .map(|x| jain_long(x))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            tolerance: AtMost { bound: 0.9 },
            direction: AtMost { bound: 0.95 },
            tolerance_note: "never fair = always below the catalog's 0.9 for fair",
            explanation:
                "Near the crossover (zeta 0.1-1) our two flows share almost evenly in a run (F \
                up to about 0.94): with random start times in [0, 10] s the latecomer \
                advantage often does not develop in chunk mode. The thesis's 'never fair' \
                describes runs where one flow starves the other; its mean breakdown near 50 % \
                at the crossover is then an average over runs, which our per-run index does \
                not reproduce.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            ..Claim::base("s003-fledbat-vs-ledbat-never-fair")
        },
        Claim {
            figure: "Fig. 4.6, section 4.6.4",
            statement: "For N = 2..10 fLEDBAT flows some zeta in {0.01, 0.1, 0.2, 0.5} keeps them \
                fair.",
            paper_value: "fair for some zeta",
            unit: "Jain index",
            metric: "the smallest, over N = 2, 5, 10, of the best long-term Jain index over the \
                four zetas",
            scenarios: n_points(),
            extract: |r| {
                let z = ZETA_ZONE.len();
                (0..FLOWS_N.len())
                    .map(|n| {
                        r[n * z..(n + 1) * z]
                            .iter()
                            .map(|x| jain_long(x))
                            .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
                    })
                    .try_fold(f64::INFINITY, |m, v| v.map(|v| m.min(v)))
            },
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F >= 0.9",
            form: Form::Value,
            ..Claim::base("s003-fledbat-n-flows-fair")
        },
    ]
}
