//! Seed 001 (Ros & Welzl, base-delay growth): the standing queue growing every BASE_HISTORY,
//! sender jitter, short TCP transfers and web-like trains beside LEDBAT.

use super::extract::*;
use super::plots::*;
use super::{files, Claim, ScenarioRef};

const PAPER: &str = "seed001";

pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            id: "s001-base-delay-growth-step",
            paper: PAPER,
            figure: "Fig. 1",
            statement:
                "When the queue never drains, the standing queue grows by about TARGET (100 \
                ms) every BASE_HISTORY (10) minutes.",
            paper_value: "+100 ms per 10 min",
            unit: "ms",
            metric: "mean bottleneck queueing delay in the second growth period minus the first \
                (middle 60 % of each period)",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: growth_step,
            draw: Some(|r| {
                plots([queue_plot(
                    "base-delay growth: queueing delay",
                    r[0],
                    1500.0,
                )])
            }),
            tolerance: Near {
                value: 100.0,
                tol: 20.0,
            },
            direction: AtLeast { bound: 50.0 },
            tolerance_note: "TARGET ±20 %",
            explanation: "",
        },
        Claim {
            id: "s001-base-delay-growth-loss-time",
            paper: PAPER,
            figure: "Fig. 1",
            statement: "The growth continues until the 32-packet (384 ms) buffer overflows, at \
                about t = 30 min in the paper's setup.",
            paper_value: "≈ 30 min (3 periods)",
            unit: "growth periods",
            metric: "time the bottleneck queue first reaches the buffer limit, in growth periods \
                (BASE_HISTORY x bucket length)",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: |r| Ok(first_full_buffer(r[0])? / growth_period(r[0])),
            draw: None,
            tolerance: Near {
                value: 3.0,
                tol: 0.6,
            },
            direction: AtMost { bound: 4.0 },
            tolerance_note: "±20 %; direction: the buffer does fill within the run",
            explanation: "",
        },
        Claim {
            id: "s001-jitter-below-target-still-grows",
            paper: PAPER,
            figure: "Fig. 2",
            statement: "Sender jitter with dmax/2 < TARGET (here dmax = 96 ms) plus interruptions \
                does not stop the base-delay growth.",
            paper_value: "growth persists",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods, dmax = 96 ms",
            scenarios: vec![ScenarioRef::file("seed001/base-growth-jitter.toml")],
            extract: growth_step,
            draw: Some(|r| plots([queue_plot("jitter 96 ms: queueing delay", r[0], 1500.0)])),
            tolerance: AtLeast { bound: 50.0 },
            direction: AtLeast { bound: 20.0 },
            tolerance_note: "growth = a step of at least half of TARGET",
            explanation: "",
        },
        Claim {
            id: "s001-jitter-above-target-prevents",
            paper: PAPER,
            figure: "Fig. 2",
            statement:
                "Only when dmax/2 >= TARGET (here dmax = 240 ms) does jitter let the sender \
                see the true base delay and stop the growth.",
            paper_value: "no growth",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods, dmax = 240 ms",
            scenarios: vec![ScenarioRef::with(
                "seed001/base-growth-jitter.toml",
                &["flow.0.send_jitter=240ms"],
            )],
            extract: growth_step,
            draw: Some(|r| plots([queue_plot("jitter 240 ms: queueing delay", r[0], 1500.0)])),
            tolerance: AtMost { bound: 20.0 },
            direction: AtMost { bound: 50.0 },
            tolerance_note: "no growth = step under 20 % of TARGET",
            explanation: "",
        },
        Claim {
            id: "s001-short-tcp-alone",
            paper: PAPER,
            figure: "Fig. 4(a), text",
            statement: "A 10-packet TCP transfer (RTT 25 ms) over the idle 1 Mb/s uplink takes \
                about 152 ms on average.",
            paper_value: "152 ms",
            unit: "ms",
            metric: "mean transfer time of the 10-packet files (first packet sent to last ACK)",
            scenarios: vec![ScenarioRef::file("seed001/short-tcp-alone.toml")],
            extract: mean_file_time_ms,
            draw: None,
            tolerance: Near {
                value: 152.0,
                tol: 30.4,
            },
            direction: AtMost { bound: 300.0 },
            tolerance_note: "text value ±20 % (initial window and ACK details of TCP-Linux differ)",
            explanation: "",
        },
        Claim {
            id: "s001-short-tcp-beside-ledbat",
            paper: PAPER,
            figure: "Fig. 4(a), text",
            statement: "Beside a long LEDBAT upload the same 10-packet \
                transfer takes about 566 ms.",
            paper_value: "566 ms",
            unit: "ms",
            metric: "mean transfer time of the 10-packet files beside LEDBAT",
            scenarios: vec![ScenarioRef::file("seed001/short-tcp-ledbat.toml")],
            extract: mean_file_time_ms,
            draw: None,
            tolerance: Near {
                value: 566.0,
                tol: 113.2,
            },
            direction: AtLeast { bound: 250.0 },
            tolerance_note: "text value ±20 %; direction: well above the idle-link time",
            explanation: "",
        },
        Claim {
            id: "s001-web-upstream-shift",
            paper: PAPER,
            figure: "Fig. 5(a)",
            statement: "The transfer-time distribution of web-like upstream trains \
                shifts right beside LEDBAT.",
            paper_value: "shift right",
            unit: "ratio of medians",
            metric: "median train transfer time beside LEDBAT / alone",
            scenarios: files(&["seed001/web-up-alone.toml", "seed001/web-up-ledbat.toml"]),
            extract: train_ratio,
            draw: Some(|r| cdf_plot("web-like trains upstream", r, "web")),
            tolerance: AtLeast { bound: 1.2 },
            direction: AtLeast { bound: 1.05 },
            tolerance_note: "a visible shift = median at least 20 % later (fixed before running)",
            explanation: "",
        },
        Claim {
            id: "s001-web-downstream-shift",
            paper: PAPER,
            figure: "Fig. 6(a)",
            statement:
                "Downstream trains (sharing the uplink with LEDBAT only through their ACKs) \
                are also noticeably slower beside LEDBAT.",
            paper_value: "shift right",
            unit: "ratio of medians",
            metric: "median train transfer time beside LEDBAT / alone",
            scenarios: files(&[
                "seed001/web-down-alone.toml",
                "seed001/web-down-ledbat.toml",
            ]),
            extract: train_ratio,
            draw: Some(|r| cdf_plot("web-like trains downstream", r, "web")),
            tolerance: AtLeast { bound: 1.2 },
            direction: AtLeast { bound: 1.05 },
            tolerance_note: "same threshold as upstream",
            explanation: "",
        },
    ]
}
