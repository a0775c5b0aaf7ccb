//! Seed 003 chapter 4: fLEDBAT's zeta against TCP, against LEDBAT and for N flows (Figs.
//! 4.5-4.6, section 4.6).

use super::*;

/// Figs. 4.5-4.6: zeta against TCP, against LEDBAT, and for N flows.
pub(super) fn claims() -> Vec<Claim> {
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
                buffer delta reaches several times tau, so W* is hundreds of packets at zeta = \
                1e-3, about a fair share at 1e-2 and a few packets at 0.1. Backlogged (`ledbat sim \
                scenarios/seed003/chunks-fledbat-tcp.toml` with both flows' traffic \
                backlogged, seed 1) fLEDBAT keeps 42, 35, 4 and 1 % at zeta = 1e-3, 1e-2, 0.1, \
                1, as that predicts; in chunk mode TCP also idles about an RTT per chunk, \
                which fLEDBAT fills (18 % at zeta 0.1). The thesis's figure, low priority from \
                1e-3, does not follow from its stated update law.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT replaced by NewReno: two TCP flows share the link",
                fledbat_tcp_as_newreno(),
            ),
            siblings: crate::catalog::seed003::relations::FLEDBAT_TCP_LOW,
            thresholds: crate::catalog::seed003::conventions::T_MOST,
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
                pipelined'. The hinge: the thesis states chunk mode for every flow (section \
                4.6.1) and chunks not pipelined (section 4.5), which the scenario follows; what \
                it leaves open is how long TCP idles between chunks, and the backlogged run is \
                that idle time's lower bound, zero.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            hinge: Some(crate::catalog::Hinge { choice: "TCP's chunks sent back to back (backlogged) instead of one at a time", alt: &["flow.1.traffic={ kind = \"backlogged\" }"], files: &[], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT absent (it starts after the run): TCP alone leaves its per-chunk idle \
                time unused",
                vec![
                    ScenarioRef::with("seed003/chunks-fledbat-tcp.toml", &["flow.0.start=200s"]);
                    ZETA_TCP.len()
                ],
            ),
            thresholds: crate::catalog::seed003::conventions::T_EFFICIENT,
            ..Claim::base("s003-fledbat-vs-tcp-efficient")
        },
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Against TCP the fairness index goes to 1/N, 0.5 for fLEDBAT and one \
                TCP flow, for every zeta above 1e-3.",
            paper_value: "F → 1/N = 0.5",
            unit: "Jain index",
            metric: "highest long-term Jain index of fLEDBAT and one NewReno over zeta = 1e-3, \
                1e-2, 0.1, 1, 10 (chunk mode)",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| {
                r[1..]
                    .iter()
                    .map(|x| jain_long(x))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            tolerance: Near {
                value: 0.5,
                tol: 0.1,
            },
            direction: AtMost { bound: 0.9 },
            tolerance_note: "1/N for N = 2 ±20 % (two flows' index is at least 1/2, so the band \
                reads at most 0.6: one flow near starved) at every zeta; direction: below the \
                catalog's 0.9 for fair at every zeta",
            explanation: "The index reads the same runs as s003-fledbat-vs-tcp-low-priority \
                ({=s003-fledbat-vs-tcp-low-priority}), whose explanation gives the cause: \
                where fLEDBAT keeps a large share at the small zetas the two flows share nearly \
                evenly and the index is far from 1/N.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT replaced by NewReno: two TCP flows share the link fairly",
                fledbat_tcp_as_newreno(),
            ),
            siblings: &[
                crate::catalog::Sibling::Independent {
                    other: "s003-fledbat-vs-tcp-low-priority",
                    why: "two flows' index is symmetric in them: at most 0.6 puts fLEDBAT's \
                          share under 0.09 or above 0.91, which bounds the share claim's value \
                          on neither side; that claim's band (at most 0.1) bounds this index \
                          only by 0.61, outside this band",
                },
                crate::catalog::Sibling::Independent {
                    other: "s003-fledbat-vs-tcp-efficient",
                    why: "the index is the split of the two rates, the efficiency their sum",
                },
                crate::catalog::Sibling::Independent {
                    other: "s003-fledbat-vs-tcp-tiny-zeta-aggressive",
                    why: "the order reads fLEDBAT's share at 1e-4 against the others; the index \
                          over 1e-3 .. 10 is symmetric in the two flows and leaves out 1e-4",
                },
            ],
            thresholds: crate::catalog::seed003::conventions::T_FAIR,
            ..Claim::base("s003-fledbat-vs-tcp-fairness-one-over-n")
        },
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Only for zeta below 1e-3 does fLEDBAT lose its low priority against TCP.",
            paper_value: "higher share only at zeta < 1e-3",
            unit: "share difference",
            metric: "the smaller of fLEDBAT's share at zeta = 1e-4 minus its largest at zeta = \
                1e-3 .. 10 (aggressive below 1e-3) and 0.1 minus that largest (low priority, \
                at most 10 % as s003-fledbat-vs-tcp-low-priority, from 1e-3 on): both halves \
                in each seed",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| {
                let rest = r[1..]
                    .iter()
                    .map(|x| share(x, "fledbat"))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))?;
                Ok((share(r[0], "fledbat")? - rest).min(0.1 - rest))
            },
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (fLEDBAT's share at zeta below 1e-3 above its share at every larger zeta, and at most 10 % there); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            explanation: "The 'only' half decides it: fLEDBAT is not low priority at zeta = \
                1e-3 and 1e-2 (s003-fledbat-vs-tcp-low-priority, root cause there), so the \
                exception is not confined to zeta below 1e-3. The claim read the trend alone \
                (the share at 1e-4 above the share at every zeta from 1e-2) until a review \
                found it reported reproduced on the runs that refute the statement.",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "fLEDBAT replaced by NewReno: it takes its half at every zeta, low priority at \
                none",
                fledbat_tcp_as_newreno(),
            ),
            siblings: crate::catalog::seed003::relations::FLEDBAT_TCP_TINY,
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
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "zeta = 10, beyond the crossover: fLEDBAT yields and LEDBAT takes the larger \
                part",
                vec![
                    ScenarioRef::with(
                        "seed003/chunks-fledbat-ledbat.toml",
                        &[format!("flow.0.cc.zeta={}", 10.0)]
                    );
                    2
                ],
            ),
            siblings: crate::catalog::seed003::relations::FLEDBAT_LEDBAT_SMALL,
            thresholds: crate::catalog::seed003::conventions::T_MOST,
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
            direction: AtLeast { bound: -2.0 },
            tolerance_note: "a factor of two around 5 (the axis is logarithmic); wider because zeta is swept in coarse steps (1, 5, 10) and \"near 5\" resolves only to a factor of two; direction: beyond zeta = 1e-2, below which the thesis finds LEDBAT under 20 %",
            thresholds: &[crate::catalog::Threshold::Quote {
                value: -2.0,
                written: "−2",
                quote: "less than 20% of the bottleneck is occupied by LEDBAT when ζ < 10−2",
            }],
            explanation: "Ours crosses much earlier, at log10 zeta = {=s003-fledbat-vs-ledbat-crossover}: by the law of \
                s003-fledbat-vs-tcp-low-priority, fLEDBAT's decrease overtakes its increase \
                once zeta (delta / tau) W exceeds alpha, and beside LEDBAT's standing queue \
                that happens at zeta near 0.1, not 5. The thesis's crossover at 5 would need a \
                much smaller queue offset or window than this setup gives; what it was is not \
                established.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::run(
                "LEDBAT replaced by fLEDBAT with zeta = 0.01: the two are alike where the zetas \
                are equal, so the crossover moves to 0.01",
                &["flow.1.cc={ name = \"fledbat\", target = \"25ms\", alpha = 1.0, zeta = 0.01, min_cwnd = 1.0, allowed_increase = 1000.0 }"],
            ),
            siblings: crate::catalog::seed003::relations::FLEDBAT_LEDBAT_CROSS,
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
            direction: AtMost { bound: 0.9 },
            tolerance_note: "never fair = below the catalog's 0.9 for fair at every zeta; \
                direction: the same line, since a run fair by the catalog's own convention at \
                some zeta refutes 'in no case' and leaves no weaker reading",
            explanation:
                "Near the crossover (zeta 0.1-1) our two flows share evenly in most seeds \
                (highest index {=s003-fledbat-vs-ledbat-never-fair}; seed 1 \
                {=s003-fledbat-vs-ledbat-never-fair@seed1}, seed 4 \
                {=s003-fledbat-vs-ledbat-never-fair@seed4}): with random start times in [0, \
                10] s the latecomer advantage often does not develop in chunk mode, and the \
                index reaches that of two fLEDBAT flows with one zeta \
                ({=s003-fledbat-vs-ledbat-never-fair:null}), the intra-protocol case the \
                thesis calls fair (Fig. 4.5(c)). The direction was looser than the tolerance until a \
                full run found the claim and its null both 'differs' in the gap: that gap \
                called a fair share (by the catalog's 0.9) consistent with 'never fair', so \
                the claim could not tell fLEDBAT-LEDBAT from fLEDBAT-fLEDBAT; the direction is \
                now the catalog's fair line, and a run fair at some zeta contradicts the \
                statement. The thesis's 'never fair' may describe an average over runs, some \
                of which starve one flow; a per-run index at the fairest zeta does not \
                reproduce it.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "LEDBAT replaced by a second fLEDBAT, both with zeta = 0.1 (the zone of Fig. \
                4.5(c)): the two share fairly",
                vec![
                    ScenarioRef::with(
                        "seed003/chunks-fledbat-ledbat.toml",
                        &["flow.1.cc={ name = \"fledbat\", target = \"25ms\", alpha = 1.0, zeta = 0.1, min_cwnd = 1.0, allowed_increase = 1000.0 }"]
                    );
                    ZETA_LEDBAT.len()
                ],
            ),
            thresholds: crate::catalog::seed003::conventions::T_FAIR,
            ..Claim::base("s003-fledbat-vs-ledbat-never-fair")
        },
        Claim {
            figure: "Fig. 4.5(b), section 4.6.2",
            statement: "When LEDBAT starts first and saturates the bottleneck, a fLEDBAT \
                latecomer with a small zeta measures an incorrect base delay and, as LEDBAT \
                decreases only linearly, never corrects it: it can starve the LEDBAT flow.",
            paper_value: "LEDBAT starved",
            unit: "share",
            metric: "LEDBAT's largest share of the throughput at zeta = 1e-4 and 1e-3 (chunk \
                mode), LEDBAT starting at 0 s and fLEDBAT at 10 s",
            scenarios: latecomer_fledbat(&[1e-4, 1e-3]),
            extract: |r| Ok(share(r[0], "ledbat")?.max(share(r[1], "ledbat")?)),
            tolerance: AtMost { bound: 0.1 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "starved = at most 10 % (as s003-fledbat-vs-tcp-low-priority's ≈ 0 \
                %), at both small zetas; direction: less than half",
            explanation: "The null moves the latecomer's zeta past the crossover of Fig. \
                4.5(b), where the thesis finds fLEDBAT lower priority than LEDBAT: its \
                multiplicative decrease then drains the queue, and LEDBAT keeps most of the \
                link. An earlier null, a first-comer fLEDBAT with zeta = 0.1 in LEDBAT's \
                place, left that first-comer near the 10 % line, too close to tell the \
                mechanism apart. What the claim does not isolate is the start order: with \
                the order swapped (fLEDBAT first at the same small zetas, LEDBAT 10 s later: \
                `ledbat sim scenarios/seed003/chunks-fledbat-ledbat.toml --set \
                flow.0.cc.zeta=0.0001 --set flow.1.start=10s --set flow.0.start_jitter=0s \
                --set flow.1.start_jitter=0s`) LEDBAT is starved just as much, so in our runs \
                the small zeta alone starves LEDBAT and the latecomer's base-delay error is \
                not what the share shows.",
            form: Form::Value,
            null: Null::scenarios(
                "the latecomer's zeta moved to 10, past the crossover of Fig. 4.5(b) (beyond \
                it fLEDBAT is lower priority than LEDBAT): its multiplicative decrease drains \
                the queue and LEDBAT is not starved",
                latecomer_fledbat(&[10.0, 10.0]),
            ),
            thresholds: crate::catalog::seed003::conventions::T_MOST,
            ..Claim::base("s003-fledbat-latecomer-starves-ledbat")
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
            null: Null::scenarios(
                "fLEDBAT replaced by LEDBAT (same chunks, same 2-s spacing): without the \
                multiplicative decrease the latecomers keep their advantage",
                FLOWS_N
                    .iter()
                    .flat_map(|n| {
                        std::iter::repeat_n(
                            ScenarioRef::with(
                                "seed003/chunks-fledbat-n.toml",
                                &[format!("flow.0.count={n}"), LEDBAT_CC_0.into()],
                            ),
                            ZETA_ZONE.len(),
                        )
                    })
                    .collect(),
            ),
            thresholds: crate::catalog::seed003::conventions::T_JAIN_THREE_QUARTERS,
            sweep: Some(N_RANGE),
            ..Claim::base("s003-fledbat-n-flows-fair")
        },
    ]
}

/// Fig. 4.5(b)'s file with fixed starts: LEDBAT (flow 1) at 0 s, the fLEDBAT latecomer
/// (flow 0) at 10 s, for each zeta of `zetas`.
fn latecomer_fledbat(zetas: &[f64]) -> Vec<ScenarioRef> {
    zetas
        .iter()
        .map(|z| {
            let set = [
                format!("flow.0.cc.zeta={z}"),
                "flow.0.start=10s".to_string(),
                "flow.0.start_jitter=0s".to_string(),
                "flow.1.start_jitter=0s".to_string(),
            ];
            ScenarioRef::with("seed003/chunks-fledbat-ledbat.toml", &set)
        })
        .collect()
}
