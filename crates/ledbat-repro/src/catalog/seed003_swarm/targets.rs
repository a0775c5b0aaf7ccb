//! Seed 003 section 5.2.2, Figs. 5.4 and 5.5 (target heterogeneity), and the footnote of
//! section 5.1.

use super::*;

pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "Fig. 5.4(a), section 5.2.2",
            statement: "Between two LEDBAT flows, the one with the higher target takes the \
                link to the detriment of the other, even for a small difference.",
            paper_value: "Brk -> 1",
            unit: "Brk",
            metric: "x1 / (x1 + x2) with T1 = 2 T2 = 200 ms, chapter 5's 700-ms buffer",
            scenarios: vec![pair(2.0)],
            extract: |r| {
                let (a, b) = (
                    crate::catalog::extract::tput(r[0], "one")?,
                    crate::catalog::extract::tput(r[0], "two")?,
                );
                Ok(a / (a + b))
            },
            tolerance: AtLeast { bound: 0.9 },
            direction: Above { bound: 0.5 },
            tolerance_note: "'takes the link': at least 90 % of the data; direction: the \
                higher target gets more than half",
            explanation: "Setup: chapter 5's pair of LEDBAT flows on a 10 Mb/s link with a \
                buffer of 7 T2 = 700 ms, the setup of s003-ch5-target-ratio-1-2 and \
                s003-ch5-target-ratio-8 (seed003/ledbat-pair.toml).",
            form: Form::Effect { null: 0.5 },
            null: Null::scenarios(
                "equal targets, T1 = T2 = 100 ms: neither flow has the higher target",
                vec![pair(1.0)],
            ),
            ..Claim::base("s003-target-hetero-higher-takes-link")
        },
        Claim {
            figure: "Fig. 5.4(a), section 5.2.2",
            statement: "Both flows face packet drops from T1/T2 = 6, where the targets' sum \
                exceeds the buffer (the gray zone), and not below.",
            paper_value: "losses from T1/T2 = 6",
            unit: "seeds",
            metric: "1 when both flows retransmit at T1/T2 = 6 and 8 and the lower-target flow \
                does not at T1/T2 = 5, else 0 (T2 = 100 ms, 700-ms buffer)",
            scenarios: vec![pair(5.0), pair(6.0), pair(8.0)],
            extract: |r| {
                let retx = |x: &RunResult, name: &str| -> Result<f64, String> {
                    x.flows
                        .iter()
                        .find(|f| f.name == name)
                        .map(|f| f.retransmits as f64)
                        .ok_or_else(|| format!("{}: no flow `{name}`", x.scenario))
                };
                let both = |x: &RunResult| -> Result<bool, String> {
                    Ok(retx(x, "one")? > 0.0 && retx(x, "two")? > 0.0)
                };
                let onset = both(r[1])? && both(r[2])? && retx(r[0], "two")? == 0.0;
                Ok(f64::from(u8::from(onset)))
            },
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an onset, decided in each seed (no loss of the lower-target flow \
                at 5, both flows losing at 6 and 8); reproduced when 8 seeds in 10 show it, \
                the direction holds when more than half do",
            explanation: "Over the 100-s run (the thesis does not give its length) our \
                lower-target flow is pushed to its one-packet floor before the queue fills, \
                and a flow at its floor rarely meets the moments the buffer is full \
                (s003-target-ratio-6-both-lose finds the same in chapter 3's pair); the \
                report runs the claim over the hinge's longer run as well.",
            hinge: Some(crate::catalog::Hinge {
                choice: "run length: 300 s instead of 100 s",
                alt: &["duration=300s"],
                files: &[],
                unstated: true,
            }),
            sweep: Some(SweepRange {
                key: "flow.0.cc.target",
                paper: (100_000.0, 1_000_000.0),
                left_out: "the onset is judged on both sides of it, T1/T2 = 5, 6 and 8; the \
                    rest of the thesis's 1-10 is s003-ch5-target-ratio-1-2 and \
                    s003-ch5-target-ratio-8",
            }),
            form: Form::Order {
                null: 0.5,
                above: true,
            },
            null: Null::run(
                "a buffer of 1000 packets (1.2 s) instead of 700 ms: the targets' sum (at most \
                 900 ms) never exceeds it, no gray zone",
                &["topology.queue.packets=1000"],
            ),
            ..Claim::base("s003-ch5-target-ratio-both-lose-from-6")
        },
        Claim {
            figure: "Fig. 5.5(a), sections 5.2.2 and 5.3",
            statement: "In a swarm half at T2 = 100 ms and half at T1 > T2, the lower-target \
                peers finish earlier: they are more responsive in the control plane.",
            paper_value: "lower target faster",
            unit: "ratio",
            metric: "mean download time of the T1 peers over the T2 peers', T1 = 500 ms, \
                random stay",
            scenarios: vec![t1(500)],
            extract: |r| Ok(class_dl(r[0], "t1")? / class_dl(r[0], "t2")?),
            draw: Some(|r| class_cdfs("T1 = 500 ms, T2 = 100 ms: completion CDF", r[0])),
            tolerance: AtLeast { bound: 1.1 },
            direction: Above { bound: 1.0 },
            tolerance_note: "'finish earlier': the T1 peers take at least 10 % longer; \
                direction: longer",
            explanation: "Setup: section 5.1's swarm with half the peers at T1 \
                (scenarios/seed003/swarm-target.toml); the whole sweep is in docs/swarm-sim.md.",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the roles swapped: the t2 class at 500 ms, the t1 class at 100 ms",
                vec![t2(500)],
            ),
            ..Claim::base("s003-swarm-target-lower-faster")
        },
        Claim {
            figure: "Fig. 5.5(a), section 5.2.2",
            statement: "As the T1 value increases, the T1 peers become more and more \
                aggressive, slowing down the dissemination of content and requests: their \
                completion times grow with T1.",
            paper_value: "worse as T1 grows",
            unit: "Kendall τ",
            metric: "Kendall's tau between T1 (100 to 1000 ms) and the T1 peers' mean \
                download time over the T2 peers', random stay",
            scenarios: T1_MS.iter().map(|&t| t1(t)).collect(),
            extract: |r| {
                let x: Vec<f64> = T1_MS.iter().map(|&t| f64::from(t)).collect();
                let y: Result<Vec<f64>, String> = r
                    .iter()
                    .map(|x| Ok(class_dl(x, "t1")? / class_dl(x, "t2")?))
                    .collect();
                Ok(crate::catalog::extract::kendall_tau(&x, &y?))
            },
            draw: Some(|r| {
                let xs = T1_MS.map(f64::from);
                per_class(
                    "Fig. 5.5(a): mean download time against T1",
                    ("T1 (ms)", "mean download time (s)"),
                    &xs,
                    r,
                    &["t1", "t2"],
                    class_dl,
                )
            }),
            tolerance: AtLeast { bound: 0.6 },
            direction: Above { bound: 0.0 },
            tolerance_note: "'more and more': rank correlation 0.6 or more; direction: rising",
            explanation: "Setup as s003-swarm-target-lower-faster, T1 swept over the thesis's \
                T1/T2 from 1 to 10.",
            sweep: Some(SweepRange {
                key: "swarm.class.0.utp_cc.target",
                paper: (100.0, 1000.0),
                left_out: "",
            }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "the roles swapped: the t2 class's target swept, the t1 class at 100 ms, so the \
                 t1 peers grow no more aggressive",
                T1_MS.iter().map(|&t| t2(t)).collect(),
            ),
            ..Claim::base("s003-swarm-target-t1-trend")
        },
        Claim {
            figure: "Fig. 5.5(b), section 5.2.2",
            statement: "The average delay of the peers using T1 settles near 630 ms as T1 grows.",
            paper_value: "630 ms (ratio 1)",
            unit: "× the stated value",
            metric: "mean 10 Hz sampled uplink queueing delay of the T1 peers, T1 = 1000 ms, \
                over the thesis's 630 ms",
            scenarios: vec![t1(1000)],
            extract: |r| Ok(class_q(r[0], "t1")? / STATED_T1_DELAY_MS),
            tolerance: Near {
                value: 1.0,
                tol: 0.2,
            },
            direction: Between { lo: 0.5, hi: 2.0 },
            tolerance_note: "text value ±20 %; direction: within a factor of two of it (the \
                convention of a comparable value); that the T1 peers' delay is more than \
                double the T2 peers' is s003-swarm-target-delay-double",
            thresholds: T_FACTOR_TWO,
            explanation: "Root cause: how fast a connection grows its queue against how \
                long it lives. At GAIN 1 a T1 = 1 s connection adds about a packet per RTT \
                and rarely runs long enough to push an uplink's queue towards 1 s; a faster \
                ramp moves the T1 peers' mean to the thesis's value (seeds 1 / 2: 638 / 596 \
                ms at GAIN 10; `ledbat sim scenarios/seed003/swarm-target.toml --seed N --set \
                swarm.class.0.utp_cc.target=1000ms --set swarm.class.0.utp_cc.gain=10`). The \
                mean also counts idle samples. The thesis does not give its LEDBAT's gain, \
                the choice the value hinges on: the report runs the claim at GAIN 10 as well.",
            hinge: Some(crate::catalog::Hinge {
                choice: "LEDBAT's GAIN: 10 instead of RFC 6817's 1",
                alt: &[
                    "swarm.class.0.utp_cc.gain=10",
                    "swarm.class.1.utp_cc.gain=10",
                ],
                files: &[],
                unstated: true,
            }),
            form: Form::Value,
            null: Null::scenarios(
                "the roles swapped: the t1 class at 100 ms, the t2 class at 1000 ms",
                vec![t2(1000)],
            ),
            siblings: &[Sibling::Independent {
                other: "s003-swarm-target-delay-double",
                why: "the ratio also divides by the T2 peers' queue, which the 630-ms claim \
                        does not read",
            }],
            ..Claim::base("s003-swarm-target-delay-630")
        },
        Claim {
            figure: "Fig. 5.5(b), section 5.2.2",
            statement: "The T1 peers' average delay is more than double the T2 peers'.",
            paper_value: "> 2x",
            unit: "ratio",
            metric: "mean 10 Hz sampled uplink queueing delay of the T1 peers over the T2 \
                peers', T1 = 1000 ms",
            scenarios: vec![t1(1000)],
            extract: |r| Ok(class_q(r[0], "t1")? / class_q(r[0], "t2")?),
            tolerance: AtLeast { bound: 2.0 },
            direction: Above { bound: 1.0 },
            tolerance_note: "the text's 'more than the double'; direction: higher",
            explanation: "Setup: section 5.1's swarm with half the peers at T1 \
                (scenarios/seed003/swarm-target.toml); the whole sweep is in docs/swarm-sim.md.",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the roles swapped: the t1 class at 100 ms, the t2 class at 1000 ms",
                vec![t2(1000)],
            ),
            ..Claim::base("s003-swarm-target-delay-double")
        },
        Claim {
            figure: "Fig. 5.5, section 5.2.2",
            statement: "Peers with the lower target are more responsive in the control plane, \
                as they keep less data in their uplink buffer.",
            paper_value: "more responsive",
            unit: "ratio",
            metric: "mean request-to-block latency of the T1 peers' requests over the T2 \
                peers', T1 = 1000 ms, T2 = 100 ms (a request leaves through its sender's \
                uplink queue)",
            scenarios: vec![t1(1000)],
            extract: |r| {
                let lat = |n: &str| {
                    need(
                        class(r[0], n)?.block_latency_mean_ms,
                        &format!("block latency of {n}"),
                    )
                };
                Ok(lat("t1")? / lat("t2")?)
            },
            tolerance: AtLeast { bound: 1.2 },
            direction: Above { bound: 1.0 },
            tolerance_note: "'more responsive': the T1 peers' requests wait at least 20 % longer \
                for their blocks, as s003-flashcrowd-ledbat-faster-signalling reads 'timely'; \
                direction: longer",
            explanation: "The queue half of the sentence is s003-swarm-target-delay-double; \
                this claim reads the control plane: a request waits in its sender's uplink \
                queue, then the block in the uploader's, which both classes share.",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the roles swapped: the t1 class at 100 ms, the t2 class at 1000 ms, so the t1 \
                 peers keep the smaller queue",
                vec![t2(1000)],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s003-swarm-target-delay-double",
                    why: "a request's wait adds the uploader's queue, common to both classes, to \
                        its sender's: the ratio of the uplink queues bounds no ratio of the \
                        latencies",
                },
                Sibling::Independent {
                    other: "s003-swarm-target-delay-630",
                    why: "the T1 peers' queue alone says nothing of the T2 peers' requests, the \
                        ratio's denominator",
                },
            ],
            ..Claim::base("s003-swarm-target-lower-responsive")
        },
        Claim {
            figure: "section 5.1, footnote 1",
            statement: "An initial analysis with a target of 25 ms led to similar final \
                considerations: LEDBAT peers still download faster in the 50-50 random-stay \
                swarm.",
            paper_value: "similar",
            unit: "TCP / LEDBAT",
            metric: "mean download time of the TCP peers over the LEDBAT peers', 50-50, \
                random stay, TARGET 25 ms",
            scenarios: vec![at_25ms("random-stay")],
            extract: |r| tcp_over_ledbat(r[0]),
            tolerance: AtLeast { bound: 1.1 },
            direction: Above { bound: 1.0 },
            tolerance_note: "as s003-swarm-random-stay-ledbat-peers-faster's 'shorter': the \
                TCP peers take at least 10 % longer; direction: LEDBAT peers faster",
            explanation: SETUP,
            form: Form::Effect { null: 1.0 },
            null: Null::run(
                "the classes' roles swapped (peers of class ledbat initiate TCP, those of class \
                 tcp LEDBAT): the faster class must change sides",
                SWAP,
            ),
            ..Claim::base("s003-swarm-target-25ms-similar")
        },
        Claim {
            figure: "section 5.1, footnote 1",
            statement: "With a target of 25 ms the final considerations are similar: LEDBAT \
                peers download faster in the 50-50 swarm when seeds leave immediately too.",
            paper_value: "similar",
            unit: "TCP / LEDBAT",
            metric: "mean download time of the TCP peers over the LEDBAT peers', 50-50, \
                immediate leave, TARGET 25 ms",
            scenarios: vec![at_25ms("leave-at-once")],
            extract: |r| tcp_over_ledbat(r[0]),
            tolerance: AtLeast { bound: 1.1 },
            direction: Above { bound: 1.0 },
            tolerance_note: "as s003-swarm-target-25ms-similar",
            explanation: SETUP,
            form: Form::Effect { null: 1.0 },
            null: Null::run(
                "the classes' roles swapped (peers of class ledbat initiate TCP, those of class \
                 tcp LEDBAT): the faster class must change sides",
                SWAP,
            ),
            ..Claim::base("s003-swarm-target-25ms-leave-at-once-similar")
        },
        Claim {
            figure: "section 5.1, footnote 1; section 5.3",
            statement: "With a target of 25 ms the final considerations are similar: LEDBAT \
                bounds its peers' queueing delay, far below the TCP peers' (50-50, random \
                stay).",
            paper_value: "similar",
            unit: "TCP / LEDBAT",
            metric: "mean 10 Hz sampled uplink queueing delay of the TCP peers over the LEDBAT \
                peers', 50-50, random stay, TARGET 25 ms",
            scenarios: vec![at_25ms("random-stay")],
            extract: |r| Ok(class_q(r[0], "tcp")? / class_q(r[0], "ledbat")?),
            tolerance: AtLeast { bound: 2.0 },
            direction: Above { bound: 1.0 },
            tolerance_note: "'bounds the queuing delay' against TCP's self-congested uplinks: \
                the TCP peers' queue at least double the LEDBAT peers'; direction: longer",
            explanation: SETUP,
            form: Form::Effect { null: 1.0 },
            null: Null::run(
                "the classes' roles swapped (peers of class ledbat initiate TCP, those of class \
                 tcp LEDBAT): the longer queue must change sides",
                SWAP,
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s003-swarm-target-25ms-similar",
                    why: "the queue each class's uplinks hold is not the download time of its \
                        peers, which the other class's uplinks serve as well",
                },
                Sibling::Independent {
                    other: "s003-swarm-target-25ms-faster-signalling",
                    why: "a request waits in its sender's uplink and its block in the \
                        uploader's, of either class: the ratio of one class's queues bounds no \
                        ratio of the latencies",
                },
            ],
            ..Claim::base("s003-swarm-target-25ms-queue-bounded")
        },
        Claim {
            figure: "section 5.1, footnote 1; section 5.3",
            statement: "With a target of 25 ms the final considerations are similar: LEDBAT \
                assists its peers into faster signalling than TCP peers, whose control traffic \
                competes with a self-congested uplink (50-50, random stay).",
            paper_value: "similar",
            unit: "TCP / LEDBAT",
            metric: "mean request-to-block latency of the TCP peers' requests over the LEDBAT \
                peers', 50-50, random stay, TARGET 25 ms",
            scenarios: vec![at_25ms("random-stay")],
            extract: |r| {
                let lat = |n: &str| {
                    need(
                        class(r[0], n)?.block_latency_mean_ms,
                        &format!("block latency of {n}"),
                    )
                };
                Ok(lat("tcp")? / lat("ledbat")?)
            },
            tolerance: AtLeast { bound: 1.2 },
            direction: Above { bound: 1.0 },
            tolerance_note: "'faster signalling': the TCP peers' requests wait at least 20 % \
                longer for their blocks, as s003-flashcrowd-ledbat-faster-signalling reads \
                'timely'; direction: longer",
            explanation: SETUP,
            form: Form::Effect { null: 1.0 },
            null: Null::run(
                "the classes' roles swapped (peers of class ledbat initiate TCP, those of class \
                 tcp LEDBAT): the slower signalling must change sides",
                SWAP,
            ),
            siblings: &[Sibling::Independent {
                other: "s003-swarm-target-25ms-similar",
                why: "how long a request waits for its block is one part of a download's time; \
                    the number of peers unchoking a class sets the rest",
            }],
            ..Claim::base("s003-swarm-target-25ms-faster-signalling")
        },
    ]
}
