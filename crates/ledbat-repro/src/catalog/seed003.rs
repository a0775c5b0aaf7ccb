//! Seed 003 (Testa's thesis, fLEDBAT and the LBE comparison): LEDBAT against NewReno, the
//! target sweep, ten LBE flows, latecomers, RTT heterogeneity, fLEDBAT against its fluid
//! model, chunk traffic, DropTail against RED.

use super::extract::*;
use super::plots::*;
use super::{files, Claim, Form, Null, ScenarioRef};

pub(super) mod conventions;
pub(super) mod relations;

const PAPER: &str = "seed003";

/// fLEDBAT's zeta values of the thesis's shaded zone (Fig. 4.6).
const ZETAS: [f64; 4] = [0.01, 0.1, 0.2, 0.5];

/// tau for a target expressed as a share of a 100-packet buffer at 10 Mb/s (1.2 ms/packet).
pub(super) fn tau_for_share(share: f64) -> String {
    format!(
        "flow.0.cc.target={}us",
        (share * 100.0 * 1200.0).round() as u64
    )
}

/// The target sweep of Fig. 3.4 (targets as shares of the 100-packet buffer).
pub(super) const TARGET_SHARES: [f64; 10] = [0.02, 0.1, 0.2, 0.4, 0.65, 0.8, 0.9, 1.0, 1.2, 1.5];

/// One scenario instance per point of `TARGET_SHARES`.
pub(super) fn target_points() -> Vec<ScenarioRef> {
    TARGET_SHARES
        .iter()
        .map(|s| ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(*s)]))
        .collect()
}

/// The gain points of Fig. 3.4's f(G) curve used by the catalog: G = 1 and G = 10.
pub(super) fn gain_points() -> Vec<ScenarioRef> {
    vec![
        ScenarioRef::with("seed003/target-sweep.toml", &["flow.0.cc.gain=1.0"]),
        ScenarioRef::with("seed003/target-sweep.toml", &["flow.0.cc.gain=10.0"]),
    ]
}

pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let fledbat_zeta_sweep: Vec<ScenarioRef> = ZETAS
        .iter()
        .map(|z| {
            ScenarioRef::with(
                "seed003/chunks-fledbat.toml",
                &[format!("flow.0.cc.zeta={z}"), format!("flow.1.cc.zeta={z}")],
            )
        })
        .collect();
    vec![
        Claim {
            id: "s003-ledbat-newreno-jain",
            paper: PAPER,
            figure: "Fig. 3.3(a), section 3.2.3",
            statement: "LEDBAT against NewReno (B = 40, both starting at 0, no slow start) \
                yields: Jain's index F = 0.65.",
            paper_value: "F = 0.65",
            unit: "Jain index",
            metric: "long-term Jain's index of the two flows, 0-100 s",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-newreno.toml")],
            extract: first_jain_long,
            draw: Some(|r| {
                plots([
                    cwnd_plot("LEDBAT vs NewReno, B = 40: windows", r[0]),
                    queue_plot("LEDBAT vs NewReno: queue", r[0], 1500.0),
                ])
            }),
            // Two flows with rates in ratio r have F = (1 + r)^2 / (2 (1 + r^2)): the band is
            // the image of s003-ledbat-newreno-data-ratio's 6 ± 1.2 (r = 7.2 gives 0.636,
            // r = 4.8 gives 0.700) and the direction the image of its r >= 2 (0.9), so the
            // two claims about one measurement cannot disagree.
            tolerance: Between {
                lo: 0.636,
                hi: 0.700,
            },
            direction: AtMost { bound: 0.9 },
            tolerance_note: "the Jain indices of TCP:LEDBAT ratios 4.8 to 7.2, the data-ratio \
                claim's band (the thesis's F = 0.65 is the index of a ratio of about 6); \
                direction: LEDBAT yields, the two do not share fairly (the catalog's fair line, \
                Jain 0.9: TCP carries at least twice LEDBAT's data)",
            explanation: "The same measurement as s003-ledbat-newreno-data-ratio, which explains \
                the difference (measurement window).",
            form: Form::Value,
            null: Null::run("LEDBAT replaced by the NewReno it is compared with: two equal TCP flows share evenly", &["flow.0.cc={name=\"newreno\",slow_start=false}"]),
            siblings: relations::NEWRENO_JAIN,
            thresholds: conventions::T_FAIR,
            ..Claim::base("s003-ledbat-newreno-jain")
        },
        Claim {
            id: "s003-ledbat-newreno-data-ratio",
            paper: PAPER,
            figure: "Fig. 3.3(a), section 3.2.3",
            statement: "TCP transfers about 6 times as much data as LEDBAT.",
            paper_value: "6x",
            unit: "TCP bytes / LEDBAT bytes",
            metric: "NewReno throughput / LEDBAT throughput, 0-100 s",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-newreno.toml")],
            extract: |r| Ok(tput(r[0], "tcp")? / tput(r[0], "ledbat")?),
            draw: None,
            tolerance: Near {
                value: 6.0,
                tol: 1.2,
            },
            direction: AtLeast { bound: 2.0 },
            tolerance_note: "text value ±20 %; direction: TCP carries clearly more, at least \
                twice LEDBAT's data (beyond the factor of two within which two values are \
                alike; the ratio at which Jain's index is the catalog's fair line 0.9)",
            explanation: "Not root-caused. Over the 100-s run TCP carries \
                {=s003-ledbat-newreno-data-ratio} times LEDBAT's data. An earlier explanation \
                read the thesis's 'during the same timeframe' as the first seconds of Fig. \
                3.3(a) (over the first 20 s the ratio is 6.59 and F = 0.648, `ledbat sim \
                scenarios/seed003/ledbat-newreno.toml --set duration=20s`, seed 1), but the \
                thesis runs these tests for 120 s (section 3.2.1), so that reading is not \
                the thesis's and the gap stands; 100 s against 120 s cannot explain it, the \
                TCP cycles being under 10 s. The candidate is the LEDBAT controller: the \
                scenario runs RFC 6817's (a 4-sample delay filter, the window capped at the \
                flight size) where the thesis's reacts to each ACK's raw delay (setup.md), \
                which changes how far LEDBAT regrows between TCP's halvings; it is not run \
                the thesis's way.",
            form: Form::Value,
            null: Null::run("LEDBAT replaced by the NewReno it is compared with: two equal TCP flows carry equal data", &["flow.0.cc={name=\"newreno\",slow_start=false}"]),
            siblings: relations::NEWRENO_DATA_RATIO,
            thresholds: conventions::T_MORE_THAN_TWICE,
            ..Claim::base("s003-ledbat-newreno-data-ratio")
        },
        Claim {
            id: "s003-ledbat-newreno-window-gain",
            paper: PAPER,
            figure: "Fig. 3.3(a), section 3.2.3",
            statement: "The sum of both sender windows (the thesis's estimate of link use) is \
                about 16 % above TCP alone.",
            paper_value: "+16 %",
            unit: "relative increase",
            metric: "(mean cwnd TCP + mean cwnd LEDBAT) / mean cwnd of NewReno alone - 1 (the \
                thesis's own quantity: sum of windows)",
            scenarios: files(&["seed003/ledbat-newreno.toml", "seed003/newreno-alone.toml"]),
            extract: |r| {
                let both: f64 = r[0].flows.iter().map(|f| f.cwnd_mean_pkts).sum();
                Ok(both / r[1].flows[0].cwnd_mean_pkts - 1.0)
            },
            draw: None,
            tolerance: Near {
                value: 0.16,
                tol: 0.032,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "text value ±20 %; direction: the statement's 'increases', the sum \
                above TCP alone",
            explanation: "Not root-caused, as s003-ledbat-newreno-data-ratio: the window sum is \
                {=s003-ledbat-newreno-window-gain} above NewReno alone. The measurement window \
                does not account for it: over the first 20 s the sum is 12.1 % above (seed 1, \
                `ledbat sim scenarios/seed003/ledbat-newreno.toml --set duration=20s` and the \
                same on newreno-alone.toml), still outside the band. The sum follows LEDBAT's \
                mean window, which is small for the reason the data ratio is large. Either way \
                the gain over TCP alone is small, as expected with B = 40 close to the pipe's size. \
                The direction reads the statement's 'increases' and cannot tell LEDBAT from any \
                second flow: a second NewReno in LEDBAT's place adds about 1 % as well (seed 1, \
                `ledbat sim scenarios/seed003/ledbat-newreno.toml --set \
                flow.0.cc.name=newreno`), two sawtooths summing a little above one.",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios("LEDBAT absent: TCP alone in both runs, the case the thesis compares with, adds nothing", files(&["seed003/newreno-alone.toml", "seed003/newreno-alone.toml"])),
            ..Claim::base("s003-ledbat-newreno-window-gain")
        },
        Claim {
            id: "s003-ledbat-ledbat-fair",
            paper: PAPER,
            figure: "Fig. 3.3(b), section 3.2.3",
            statement: "Two LEDBAT flows starting together share fairly: F > 0.99.",
            paper_value: "F > 0.99",
            unit: "Jain index",
            metric: "long-term Jain's index, 0-100 s",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-ledbat.toml")],
            extract: first_jain_long,
            draw: Some(|r| plots([cwnd_plot("LEDBAT vs LEDBAT, B = 40: windows", r[0])])),
            tolerance: AtLeast { bound: 0.99 },
            direction: AtLeast { bound: 0.9 },
            tolerance_note: "the paper's own bound",
            explanation: "",
            form: Form::Bound {
                lo: Some(0.99),
                hi: None,
            },
            null: Null::excludes(
                0.65,
                "the same thesis's Fig. 3.3(a) pair, LEDBAT against NewReno with the same B = 40: \
                 F = 0.65, two flows that do not share",
            ),
            siblings: relations::LEDBAT_LEDBAT_FAIR,
            thresholds: conventions::T_FAIR,
            ..Claim::base("s003-ledbat-ledbat-fair")
        },
        Claim {
            id: "s003-ledbat-ledbat-efficiency",
            paper: PAPER,
            figure: "Fig. 3.3(b), section 3.2.3",
            statement: "Two LEDBAT flows are as efficient as LEDBAT + TCP: efficiency only 0.7 % \
                lower.",
            paper_value: "0.993 (0.7 % lower)",
            unit: "ratio",
            metric: "efficiency(LEDBAT+LEDBAT) / efficiency(LEDBAT+NewReno)",
            scenarios: files(&["seed003/ledbat-ledbat.toml", "seed003/ledbat-newreno.toml"]),
            extract: |r| Ok(r[0].aggregate.efficiency / r[1].aggregate.efficiency),
            draw: None,
            tolerance: Between { lo: 0.98, hi: 1.0 },
            direction: Between { lo: 0.8, hi: 1.25 },
            tolerance_note: "lower, as the paper says, by at most 2 points (a 0.7 % difference of two efficiencies near 1 is within run-to-run noise, ±20 % of it would be 0.14 points); direction: as efficient, the catalog's 'alike' on a ratio (0.8 to 1.25)",
            explanation:
                "Ours: {=s003-ledbat-ledbat-efficiency}, the two mixes equally efficient to well \
                within run-to-run noise, with the opposite sign (two LEDBAT flows very slightly \
                more efficient). The thesis's 0.7 % is within the same noise, so the substance \
                (as efficient) holds; the sign does not.",
            form: Form::Alike { null: 1.0 },
            null: Null::none("a no-difference statement between two mixes that both keep the 40-packet buffer from emptying; no mechanism or model predicts a gap of more than 2 points here to run or exclude"),
            thresholds: conventions::T_ALIKE_RATIO,
            ..Claim::base("s003-ledbat-ledbat-efficiency")
        },
        Claim {
            id: "s003-target-region2-yields",
            paper: PAPER,
            figure: "Fig. 3.4(b), region T2",
            statement: "For a target of 20-65 % of the buffer LEDBAT completely yields to TCP \
                Reno (TCP% near 100 %).",
            paper_value: "TCP% ≈ 100 %",
            unit: "TCP share",
            metric: "lowest TCP share of throughput over T = 20, 40 and 65 % of the buffer (tau \
                = 24, 48 and 78 ms: the region's ends and middle), B = 100",
            scenarios: [0.2, 0.4, 0.65]
                .iter()
                .map(|s| ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(*s)]))
                .collect(),
            extract: |r| Ok(r.iter().map(|x| tcp_share(x)).fold(f64::INFINITY, f64::min)),
            draw: None,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "near 100 % = at least 90 %, at every point of the region",
            explanation: "The lowest share, {=s003-target-region2-yields}, is at the region's \
                upper end, T = 65 %. TCP's halved window leaves a standing queue (the halved \
                window less the pipe) that lies above the target at T = 20 %, so LEDBAT stays \
                at its floor there; below it at T = 40 and 65 %, so after each TCP loss LEDBAT \
                regrows by GAIN x off_target packets per RTT until TCP's growth lifts the queue \
                past the target. At 40 % that gap is small and short and LEDBAT gains little; \
                at 65 % it is wider and longer, and LEDBAT takes part of the link in every \
                cycle. The erosion the thesis places in region 3 starts within region 2 in our \
                runs.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.target", paper: (24000.0, 78000.0), left_out: "the region's other targets are not run: its two ends and its middle bound it, and TCP% is monotone in the target (s003-target-sweep-curve)" }),
            form: Form::Value,
            null: Null::scenarios("target at 150 % of the buffer (region 4), where the thesis says LEDBAT falls back to loss-based behaviour and stops yielding", vec![ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(1.5)]); 3]),
            thresholds: conventions::T_CLEAR_MAJORITY,
            ..Claim::base("s003-target-region2-yields")
        },
        Claim {
            id: "s003-target-region3-starves-tcp",
            paper: PAPER,
            figure: "Fig. 3.4(b), region T3",
            statement: "As the target approaches the whole buffer (T = 100 %), LEDBAT erodes TCP \
                until TCP starves (TCP% ≈ 0 %).",
            paper_value: "TCP% ≈ 0 %",
            unit: "TCP share",
            metric: "TCP share of throughput at T = 100 % (tau = 120 ms), B = 100",
            scenarios: vec![ScenarioRef::with(
                "seed003/target-sweep.toml",
                &[tau_for_share(1.0)],
            )],
            extract: first_tcp_share,
            draw: None,
            tolerance: AtMost { bound: 0.1 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "near 0 % = at most 10 %; direction: LEDBAT no longer lower priority",
            explanation: "Close to the thesis's starvation, and a phase effect of a \
                deterministic queue. The thesis gives chapter 3 no per-packet jitter and the \
                scenario has none; then every loss lands on TCP and none on LEDBAT, and TCP is \
                driven down to {=s003-target-region3-starves-tcp}. With section 4.4's U[0, 1] \
                ms jitter (the hinge, run for every seed) the drops spread over both flows, \
                LEDBAT halves like Reno, grows by at most GAIN x off_target packets per RTT, \
                slower than Reno near a full buffer, and TCP keeps most of the link (seed 1: \
                40 and 177 retransmissions and a TCP share of 0.779, against 0 and 301 without \
                jitter, `ledbat sim scenarios/seed003/target-sweep.toml --set \
                flow.0.cc.target=120ms --set topology.jitter=1ms`). So the thesis's region 3 \
                is a property of a synchronised queue, not of LEDBAT under randomised timing. \
                What keeps our TCP above zero without jitter is not established.",
            hinge: Some(super::Hinge { choice: "per-packet jitter: section 4.4's U[0, 1] ms instead of none", alt: &["topology.jitter=1ms"], files: &[], unstated: true }),
            form: Form::Value,
            null: Null::scenarios("target at 40 % of the buffer (region 2), where the thesis says LEDBAT yields completely", vec![ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(0.4)])]),
            thresholds: conventions::T_MOST,
            ..Claim::base("s003-target-region3-starves-tcp")
        },
        Claim {
            id: "s003-target-region4-half",
            paper: PAPER,
            figure: "Fig. 3.4(b), region T4",
            statement: "With a target beyond the buffer (T > 100 %) LEDBAT falls back to \
                loss-based behaviour and the breakdown is near even (TCP% ≈ 50 %).",
            paper_value: "TCP% ≈ 50 %",
            unit: "TCP share",
            metric: "of the TCP shares of throughput at T = 120 and 150 % of the buffer (tau = \
                144 and 180 ms), B = 100, the one farther from one half: near even at both",
            scenarios: [1.2, 1.5]
                .iter()
                .map(|s| ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(*s)]))
                .collect(),
            extract: |r| {
                Ok(r.iter().map(|x| tcp_share(x)).fold(0.5, |m, v| {
                    if (v - 0.5).abs() > (m - 0.5).abs() {
                        v
                    } else {
                        m
                    }
                }))
            },
            draw: None,
            tolerance: Near {
                value: 0.5,
                tol: 0.1,
            },
            direction: Between { lo: 0.25, hi: 0.75 },
            tolerance_note: "figure value ±10 points; direction: near even, neither side past 1 : 3 (shares 1/4 to 3/4)",
            explanation: "Same mechanism as s003-target-region3-starves-tcp: without per-packet \
                jitter (the thesis gives chapter 3 none) the split at T = 120 and 150 % is near \
                even; \
                with section 4.4's 1-ms jitter, the hinge, LEDBAT shares TCP's losses and TCP \
                keeps most of the link (seed 1: 0.718, `ledbat sim \
                scenarios/seed003/target-sweep.toml --set flow.0.cc.target=180ms --set \
                topology.jitter=1ms`).",
            hinge: Some(super::Hinge { choice: "per-packet jitter: section 4.4's U[0, 1] ms instead of none", alt: &["topology.jitter=1ms"], files: &[], unstated: true }),
            form: Form::Value,
            null: Null::scenarios("target at 40 % of the buffer (region 2): LEDBAT yields, no even split", vec![ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(0.4)]); 2]),
            thresholds: conventions::T_EVEN_SPLIT,
            ..Claim::base("s003-target-region4-half")
        },
        Claim {
            id: "s003-target-sweep-curve",
            paper: PAPER,
            figure: "Fig. 3.4(b)",
            statement: "TCP% as a function of the target (2..150 % of the buffer): high in 20-65 \
                %, falling to 0 at 100 %, back near 50 % beyond.",
            paper_value: "four regions",
            unit: "TCP share at 40 % minus at 100 %",
            metric: "TCP share at T = 40 % minus TCP share at T = 100 % (the fall between \
                regions 2 and 3); the whole curve is plotted",
            scenarios: target_points(),
            extract: |r| Ok(tcp_share(r[3]) - tcp_share(r[7])),
            draw: Some(|r| {
                let xs = [2.0, 10.0, 20.0, 40.0, 65.0, 80.0, 90.0, 100.0, 120.0, 150.0];
                sweep_plot(
                    "LEDBAT vs TCP: TCP% vs target (B = 100)",
                    ("target T (% of buffer)", "TCP share"),
                    xs.iter().zip(r).map(|(x, v)| (*x, tcp_share(v))).collect(),
                    false,
                    vec![],
                )
            }),
            tolerance: AtLeast { bound: 0.8 },
            direction: Above { bound: 0.0 },
            tolerance_note: "≈100 % to ≈0 % is a fall of ≈1; at least 0.8; direction: the share falls",
            explanation: "The four regions appear without per-packet jitter, the thesis's \
                chapter-3 setup (TCP share {=s003-target-region2-yields} at T = 40 %, \
                {=s003-target-region3-starves-tcp} at 100 %, {=s003-target-region4-half} beyond the buffer); with section 4.4's 1-ms jitter, the hinge, region 3 vanishes and TCP keeps \
                most of the link at T = 100 % (s003-target-region3-starves-tcp).",
            hinge: Some(super::Hinge { choice: "per-packet jitter: section 4.4's U[0, 1] ms instead of none", alt: &["topology.jitter=1ms"], files: &[], unstated: true }),
            sweep: Some(super::SweepRange { key: "flow.0.cc.target", paper: (2400.0, 180000.0), left_out: "" }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios("the target held at 40 % at every point: nothing changes along the sweep, so no fall", vec![ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(0.4)]); TARGET_SHARES.len()]),
            siblings: relations::TARGET_CURVE,
            ..Claim::base("s003-target-sweep-curve")
        },
        Claim {
            id: "s003-gain-flat",
            paper: PAPER,
            figure: "Fig. 3.4, f(G) curves",
            statement: "The gain (1..10) barely matters: the TCP% curve against LEDBAT is flat \
                in G.",
            paper_value: "flat",
            unit: "relative spread",
            metric: "(max - min) / min of the TCP share at G = 1 and G = 10, tau = 25 ms, B = 100",
            scenarios: gain_points(),
            extract: |r| {
                let (a, b) = (tcp_share(r[0]), tcp_share(r[1]));
                if a.min(b) <= 0.0 {
                    return Err("a TCP share of zero: no relative spread".into());
                }
                Ok((a - b).abs() / a.min(b))
            },
            draw: None,
            tolerance: AtMost { bound: 0.05 },
            direction: AtMost { bound: 0.25 },
            tolerance_note: "flat = within 5 %; direction: the catalog's 'alike' on a relative spread, within 25 %",
            explanation: "Nearly fixed by the thesis's setting, as s003-gain-flat-all-metrics \
                explains: with B = 100 the queue never falls below LEDBAT's target after the \
                warm-up, LEDBAT sits at its floor whatever G is, and the gain has nothing to \
                act on; the null shows a parameter that does move the share.",
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios("the target moved instead of the gain (25 ms to 120 ms, region 3): a parameter that does move the share", vec![gain_points().remove(0), ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(1.0)])]),
            thresholds: conventions::T_ALIKE_SPREAD,
            ..Claim::base("s003-gain-flat")
        },
        Claim {
            id: "s003-lbe10-ledbat-each",
            paper: PAPER,
            figure: "Fig. 3.6(b), section 3.2.5.1",
            statement: "With 10 LEDBAT flows + 1 NewReno, each LEDBAT flow gets a mere 1 % of \
                the capacity.",
            paper_value: "≈ 1 % each",
            unit: "fraction of capacity",
            metric: "mean LEDBAT flow throughput / capacity",
            scenarios: vec![ScenarioRef::file("seed003/lbe10-ledbat.toml")],
            extract: lbe_share_each,
            draw: None,
            tolerance: Between { lo: 0.0, hi: 0.02 },
            direction: AtMost { bound: 0.75 / 11.0 },
            tolerance_note: "\"about 1 %\" read from a figure: within 1 point; wider because 1 % of the link is one packet every 120 ms, and ±20 % (0.2 points) is below the spread of ten flows' shares; direction: clearly below the fair share 1/11, under three quarters of it (eleven equal TCP flows sit just under 1/11, so a bound at 1/11 could not tell low priority from fair sharing)",
            explanation: "Floor effect. Each of the 10 LEDBAT flows keeps at least one packet \
                per RTT, the thesis's floor, used here, and gets {=s003-lbe10-ledbat-each} of \
                the link: ten one-packet windows per RTT of about 85 ms (the base RTT plus \
                NewReno's standing queue) are about 1.4 % each, and RFC 6817's MIN_CWND of 2 \
                gives 3.3 % each (seed 1, `ledbat sim scenarios/seed003/lbe10-ledbat.toml --set \
                flow.0.cc.min_cwnd=2`). The thesis's 1 % is within half a point of the \
                one-packet bound.",
            form: Form::Value,
            null: Null::run("the ten LEDBAT flows replaced by NewReno: eleven equal TCP flows, 1/11 each", &["flow.0.cc={name=\"newreno\",slow_start=false}"]),
            thresholds: conventions::T_BELOW_ELEVENTH,
            ..Claim::base("s003-lbe10-ledbat-each")
        },
        Claim {
            id: "s003-lbe10-nice-each",
            paper: PAPER,
            figure: "Fig. 3.6(b), section 3.2.5.1",
            statement: "With 10 NICE flows + 1 NewReno, each NICE flow gets about 3 %.",
            paper_value: "≈ 3 % each",
            unit: "fraction of capacity",
            metric: "mean NICE flow throughput / capacity",
            scenarios: vec![ScenarioRef::file("seed003/lbe10-nice.toml")],
            extract: lbe_share_each,
            draw: None,
            tolerance: Between { lo: 0.02, hi: 0.04 },
            direction: Between {
                lo: 0.01,
                hi: 0.75 / 11.0,
            },
            tolerance_note: "within 1 point; wider because, as for s003-lbe10-ledbat-each, ±20 % of 3 % (0.6 points) is below the spread of ten flows' shares; direction: above LEDBAT's 1 % each, which the thesis sets NICE's 3 % against, and under three quarters of the fair share 1/11",
            explanation: "Setup difference found: the window floor. Our NICE may fall to 1/48 \
                packet per RTT (the NICE paper's prototype limit, nice.rs default) and then \
                starves against NewReno's standing queue. The same scenario with a floor of 1 \
                packet gives 1.7 % each, and with a floor of 2 packets (Linux's minimum window) \
                3.1 % each, the thesis's value (`ledbat sim scenarios/seed003/lbe10-nice.toml \
                --set flow.0.cc.min_cwnd=2`, seed 1: TCP share 0.690). So the thesis's ns-2 NICE \
                evidently never went below about 2 packets per RTT, although its text says cwnd \
                may drop below 1. The scenario keeps our implementation's documented default.",
            form: Form::Value,
            null: Null::run("the ten NICE flows replaced by NewReno: eleven equal TCP flows, 1/11 each", &["flow.0.cc={name=\"newreno\",slow_start=false}"]),
            thresholds: &[
                super::Threshold::Quote {
                    value: 0.01,
                    written: "1%",
                    quote: "a mere 1% of the capacity each",
                },
                super::Threshold::Convention(&conventions::BELOW_ELEVENTH),
            ],
            ..Claim::base("s003-lbe10-nice-each")
        },
        Claim {
            id: "s003-lbe10-tcplp-each",
            paper: PAPER,
            figure: "Fig. 3.6(b), section 3.2.5.1",
            statement: "With 10 TCP-LP flows + 1 NewReno, each TCP-LP flow gets about 5 %.",
            paper_value: "≈ 5 % each",
            unit: "fraction of capacity",
            metric: "mean TCP-LP flow throughput / capacity",
            scenarios: vec![ScenarioRef::file("seed003/lbe10-tcp-lp.toml")],
            extract: lbe_share_each,
            draw: None,
            tolerance: Between { lo: 0.04, hi: 0.06 },
            direction: AtMost { bound: 0.75 / 11.0 },
            tolerance_note: "within 1 point; direction: clearly below the fair share 1/11, under three quarters of it (eleven equal TCP flows sit just under 1/11, so a bound at 1/11 could not tell low priority from fair sharing)",
            explanation: "Root cause: TCP-LP's early-congestion threshold d_min + delta (d_max - \
                d_min). The thesis uses the TCP-LP paper's alpha = 1/8 and delta = 0.15 (section \
                3.1.4), as the scenario does; with them the threshold sits about 6 packets \
                above an empty queue, under NewReno's standing queue almost always, so TCP-LP \
                keeps halving and each flow gets {=s003-lbe10-tcplp-each}. In our model the \
                thesis's 5 % needs a threshold about twice as high: 5.2 % each with delta = 0.3 \
                and 9.0 % with 0.5 (seed 1, `ledbat sim scenarios/seed003/lbe10-tcp-lp.toml \
                --set flow.0.cc.delta=0.3`), while the smoothing weight, the inference time and \
                the jitter change it by half a point at most. What put the thesis's ns-2 TCP-LP \
                higher at the same delta (how it estimates d_min and d_max, which the thesis \
                does not describe) is not established. An earlier version ran the doubled delta \
                as an open choice of the thesis, which states 0.15: that run was dropped.",
            form: Form::Value,
            null: Null::run("the ten TCP-LP flows replaced by NewReno: eleven equal TCP flows, 1/11 each", &["flow.0.cc={name=\"newreno\",slow_start=false}"]),
            thresholds: conventions::T_BELOW_ELEVENTH,
            ..Claim::base("s003-lbe10-tcplp-each")
        },
        Claim {
            id: "s003-lbe10-ranking",
            paper: PAPER,
            figure: "Fig. 3.6(b), section 3.2.5.1",
            statement: "Against one NewReno flow, 10 LEDBAT flows take the least, 10 NICE flows \
                more and 10 TCP-LP flows the most: LEDBAT < NICE < TCP-LP.",
            paper_value: "LEDBAT < NICE < TCP-LP (1 %, 3 %, 5 % each)",
            unit: "Kendall's tau",
            metric: "Kendall's tau between the order LEDBAT, NICE, TCP-LP and the three \
                protocols' mean share each (1 = the thesis's order)",
            scenarios: files(&[
                "seed003/lbe10-ledbat.toml",
                "seed003/lbe10-nice.toml",
                "seed003/lbe10-tcp-lp.toml",
            ]),
            extract: |r| {
                let shares = r
                    .iter()
                    .map(|x| lbe_share_each(&[x]))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(kendall_tau(&[1.0, 2.0, 3.0], &shares))
            },
            draw: None,
            tolerance: AtLeast { bound: 1.0 },
            direction: Above { bound: 0.0 },
            tolerance_note: "the ranking is the statement: all three pairs in the thesis's \
                order; direction: more pairs in it than against it (with three protocols, two \
                of the three pairs)",
            explanation: "Our NICE flows fall to a window far below one packet per RTT (the NICE \
                prototype's documented limit, nice.rs) and starve beside NewReno's standing \
                queue, below LEDBAT's one-packet floor; see s003-lbe10-nice-each for the floor \
                that gives the thesis's share.",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios("the three protocols' runs in reverse order (TCP-LP, NICE, LEDBAT): the thesis's order reversed", files(&["seed003/lbe10-tcp-lp.toml", "seed003/lbe10-nice.toml", "seed003/lbe10-ledbat.toml"])),
            ..Claim::base("s003-lbe10-ranking")
        },
        Claim {
            id: "s003-latecomer-starves-first",
            paper: PAPER,
            figure: "Fig. 4.1(a) bottom, section 4.2.1",
            statement: "With B = 100 a LEDBAT latecomer arriving 10 s later over-estimates the \
                base delay and starves the first flow.",
            paper_value: "first flow starves",
            unit: "first flow's share",
            metric: "first flow's share of the throughput, 20-80 s",
            scenarios: vec![ScenarioRef::file("seed003/latecomer-ledbat.toml")],
            extract: |r| Ok(tput(r[0], "first")? / total_tput(r[0])),
            draw: Some(|r| plots([cwnd_plot("LEDBAT latecomer, B = 100: windows", r[0])])),
            tolerance: AtMost { bound: 0.1 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "starvation = at most 10 % of the link; direction: the smaller \
                part, less than the latecomer's",
            explanation: "",
            form: Form::Value,
            null: Null::run("both flows start together: no latecomer", &["flow.1.start=0s"]),
            thresholds: conventions::T_MOST,
            ..Claim::base("s003-latecomer-starves-first")
        },
        Claim {
            id: "s003-rtt-hetero-ledbat-unfair",
            paper: PAPER,
            figure: "Fig. 3.9 (left)",
            statement: "With RTT heterogeneity (ratio 4) LEDBAT is unfair: the short-RTT flow \
                reaches the target first and the other starves.",
            paper_value: "F near 0.5",
            unit: "Jain index",
            metric: "long-term Jain's index of the two LEDBAT flows, RTT 50 and 200 ms",
            scenarios: vec![ScenarioRef::file("seed003/rtt-hetero-ledbat.toml")],
            extract: first_jain_long,
            draw: Some(|r| plots([rate_plot("LEDBAT, RTT 50 vs 200 ms", r[0])])),
            tolerance: AtMost { bound: 0.7 },
            direction: AtMost { bound: 0.9 },
            tolerance_note: "\"totally unfair\" = F ≤ 0.7",
            explanation: "",
            form: Form::Value,
            null: Null::run("equal RTTs (both access delays 5 ms): no RTT heterogeneity", &["flow.1.access_delay=5ms"]),
            thresholds: conventions::T_FAIR,
            ..Claim::base("s003-rtt-hetero-ledbat-unfair")
        },
        Claim {
            id: "s003-rtt-hetero-ledbat-efficient",
            paper: PAPER,
            figure: "Fig. 3.9 (right)",
            statement: "With RTT heterogeneity LEDBAT stays perfectly efficient.",
            paper_value: "η ≈ 1",
            unit: "efficiency",
            metric: "lowest efficiency over RTT ratios 2, 4, 8, 10 (the short flow's RTT 50 ms)",
            scenarios: super::seed003_ch3::rtt_points(None),
            extract: |r| min_over(r, |x| Ok(x.aggregate.efficiency)),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "perfectly efficient = η ≥ 0.95",
            explanation: "",
            form: Form::Value,
            sweep: Some(super::SweepRange { key: "flow.1.access_delay", paper: (5.0, 230.0), left_out: "RTT1/RTT2 = 1 (5 ms) is two equal flows; the ratios run are 2, 4, 8 and 10" }),
            null: Null::none("backlogged window-based flows keep a 40-packet buffer busy whatever their RTTs; no model of this setup predicts an efficiency below 0.95 to run or exclude"),
            siblings: relations::RTT_HETERO_EFFICIENT,
            thresholds: conventions::T_EFFICIENT,
            ..Claim::base("s003-rtt-hetero-ledbat-efficient")
        },
        Claim {
            id: "s003-rtt-hetero-nice-fair",
            paper: PAPER,
            figure: "Fig. 3.9 (left)",
            statement: "Only NICE, by its Vegas inheritance, stays fair under RTT heterogeneity.",
            paper_value: "fair",
            unit: "Jain index",
            metric: "lowest long-term Jain's index of the two NICE flows over RTT ratios 2, 4, \
                8, 10 (the short flow's RTT 50 ms)",
            scenarios: super::seed003_ch3::rtt_points(Some("{ name = \"nice\", slow_start = false }")),
            extract: |r| min_over(r, jain_long),
            draw: None,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F ≥ 0.9",
            explanation: "Root cause: two NICE flows alone starve, so their Jain index measures \
                noise. Our NICE takes rtt_max as the largest RTT seen (the NICE paper's \
                definition, nice.rs); without a loss-based flow nothing fills the buffer, \
                rtt_max - rtt_min is a few packets, Vegas's own queue reads as congestion and \
                both windows halve to the sub-packet floor: the two flows carry almost nothing \
                (seed 1, `ledbat sim scenarios/seed003/rtt-hetero-nice.toml`: 0.70 Mb/s together \
                on the 10 Mb/s link, 0.82 Mb/s with a 2-packet floor) and the index of two \
                near-zero rates swings from seed to seed. NICE without its early detector, i.e. \
                Vegas, shares fairly in the same scenario (F 0.953-0.969 in seeds 1-6, `ledbat \
                sim scenarios/seed003/rtt-hetero-nice.toml --set 'flow.0.cc={ name = \"vegas\", \
                slow_start = false }' --set 'flow.1.cc={ name = \"vegas\", slow_start = false \
                }' --seed N`), the property the thesis attributes to NICE's Vegas \
                inheritance; so the thesis's NICE evidently did not trigger its detector here \
                (an rtt_max initialised from a full buffer would do that, and would be another \
                controller). The thesis's extra delay on the return path only, which our \
                symmetric access delay cannot express, does not enter: RTT- and OWD-based \
                estimates cancel the base delay either way.",
            form: Form::Value,
            sweep: Some(super::SweepRange { key: "flow.1.access_delay", paper: (5.0, 230.0), left_out: "RTT1/RTT2 = 1 (5 ms) is two equal flows; the ratios run are 2, 4, 8 and 10" }),
            null: Null::scenarios("LEDBAT in place of NICE, the same RTTs: LEDBAT's RTT unfairness (s003-rtt-hetero-ledbat-unfair-all)", super::seed003_ch3::rtt_points(None)),
            thresholds: conventions::T_JAIN_THREE_QUARTERS,
            ..Claim::base("s003-rtt-hetero-nice-fair")
        },
        Claim {
            id: "s003-fledbat-fluid-queue",
            paper: PAPER,
            figure: "Fig. 4.3, eq. 4.10",
            statement:
                "Two fLEDBAT flows (zeta 0.1) settle at the fluid equilibrium: queue Q* = C tau \
                + N alpha tau / (zeta R) = 30.8 packets.",
            paper_value: "Q* - C tau = 30.8 - 20.8 = 10.0 pkts",
            unit: "packets above C tau",
            metric: "time-weighted mean bottleneck queue, 20-60 s, packet simulation, minus C \
                tau = 10 Mb/s x 25 ms / 1500 B = 20.83 packets (the queue at the target alone)",
            scenarios: vec![ScenarioRef::file("seed003/fledbat-fluid.toml")],
            // C tau: 10 Mb/s x 25 ms / 1500 B, in packets.
            extract: |r| Ok(bottleneck(r[0])?.queue_mean_time_pkts - 10e6 * 0.025 / 12000.0),
            draw: Some(crate::fluid_compare::draw),
            tolerance: Between {
                lo: 10.0 - 0.2 * 30.83,
                hi: 10.0 + 0.2 * 30.83,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "closed form Q* ±20 % (24.7-37.0 packets), wider because the \
                model's error is one of Q* as a whole (it ignores the \
                base-delay estimation error and packet quantisation, section 4.3.1); \
                direction: above C tau, the N alpha tau / (zeta R) term present",
            explanation: "",
            form: Form::Effect { null: 0.0 },
            null: Null::excludes(0.0, "plain LEDBAT's equilibrium, the queue at its target alone: C tau = 10 Mb/s x 25 ms / 1500 B = 20.8 packets, 0 above C tau (eq. 4.10 without fLEDBAT's N alpha tau / (zeta R) term)"),
            siblings: relations::FLUID_QUEUE,
            ..Claim::base("s003-fledbat-fluid-queue")
        },
        Claim {
            id: "s003-fledbat-fluid-fair",
            paper: PAPER,
            figure: "Fig. 4.3(a)",
            statement: "After a transient the two fLEDBAT flows share the capacity fairly, X_i = \
                C/2.",
            paper_value: "X_i = C/2",
            unit: "Jain index",
            metric: "long-term Jain's index, 20-60 s",
            scenarios: vec![ScenarioRef::file("seed003/fledbat-fluid.toml")],
            extract: first_jain_long,
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "fair = F ≥ 0.95",
            explanation: "",
            form: Form::Value,
            null: Null::run("plain LEDBAT in place of fLEDBAT (no multiplicative decrease): the flow arriving 2 s later keeps its advantage", &["flow.0.cc={name=\"ledbat\",target=\"25ms\"}", "flow.1.cc={name=\"ledbat\",target=\"25ms\"}"]),
            thresholds: conventions::T_JAIN_ONE_TO_THREE,
            ..Claim::base("s003-fledbat-fluid-fair")
        },
        Claim {
            id: "s003-fledbat-latecomer-zeta-range",
            paper: PAPER,
            figure: "Fig. 4.5(c), 4.6, section 4.6.3-4.6.4",
            statement: "fLEDBAT shares fairly with a latecomer (10 s later) for every zeta of \
                the shaded zone {0.01, 0.1, 0.2, 0.5}.",
            paper_value: "fair for all",
            unit: "Jain index",
            metric: "lowest long-term Jain's index over the four zetas (chunk mode, B = 100, \
                20-120 s)",
            scenarios: fledbat_zeta_sweep,
            extract: |r| min_over(r, jain_long),
            draw: Some(|r| {
                let pts = ZETAS.iter().zip(r);
                let pts = pts.filter_map(|(z, x)| x.aggregate.jain_long.map(|j| (*z, j)));
                sweep_plot(
                    "fLEDBAT latecomer: Jain vs zeta",
                    ("zeta", "Jain index"),
                    pts.collect(),
                    true,
                    band("fair (≥ 0.9)", 0.9, 1.0),
                )
            }),
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F ≥ 0.9 at every zeta",
            explanation: "Root cause: a latecomer effect that zeta = 0.2 does not correct in \
                chunk mode, not a slow transient. Started together the two flows share fairly at \
                zeta 0.2 (F 0.99, seed 1, `ledbat sim scenarios/seed003/chunks-fledbat.toml \
                --set flow.0.cc.zeta=0.2 --set flow.1.cc.zeta=0.2 --set flow.1.start=0s`); with \
                the 10-s gap they settle within 20 s into an unequal steady state that lasts to \
                the end (windows 47 and 18 packets from 20 s to 120 s), and their queueing-delay \
                estimates of the one shared queue differ by 2.6 ms on average, although the \
                queue is empty in 11 % of the 5-ms samples after 10 s (`--set \
                sample_interval=5ms`); which of the two readings is off, and why it is not \
                corrected when the queue empties, is not established. The same pair backlogged \
                is the thesis's section 4.5.2 case of too small a zeta (the latecomer takes 9.55 \
                of 10 Mb/s, seed 1, `ledbat sim scenarios/seed003/fledbat-fluid.toml --set \
                flow.0.cc.zeta=0.2 --set flow.1.cc.zeta=0.2 --set flow.1.start=10s`). Neither the 1-ms jitter nor the delay filter changes the split \
                (runs with `--set topology.jitter=0ms` and `flow.N.cc.delay.filter.min.len=1`). \
                The thesis's shaded zone includes 0.2; in this setup the fair range is narrower.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.01, 0.5), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios("plain LEDBAT in place of fLEDBAT at every point (section 4.2's latecomer in chunk mode, no zeta)", vec![ScenarioRef::file("seed003/chunks-ledbat.toml"); ZETAS.len()]),
            thresholds: conventions::T_JAIN_THREE_QUARTERS,
            ..Claim::base("s003-fledbat-latecomer-zeta-range")
        },
        Claim {
            id: "s003-droptail-queue",
            paper: PAPER,
            figure: "Fig. 7.1 (DropTail), chapter 7",
            statement: "5 NewReno + 5 LEDBAT over a 600-ms DropTail buffer: queueing delay \
                approaches half a second.",
            paper_value: "≈ 0.5 s of a 600-ms buffer (0.83)",
            unit: "queue / buffer",
            metric: "time-averaged bottleneck queue in ms (packets waiting x 1.2 ms, the \
                thesis's E[Q]), 20-120 s, over the buffer's 600 ms",
            scenarios: vec![ScenarioRef::file("seed003/aqm-droptail.toml")],
            extract: |r| Ok(queue_ms_10mbps(r)? / 600.0),
            draw: Some(|r| plots([queue_plot("DropTail 600 ms: queue", r[0], 1500.0)])),
            tolerance: Near {
                value: 500.0 / 600.0,
                tol: 100.0 / 600.0,
            },
            direction: Above { bound: 0.5 },
            tolerance_note: "text value ±20 % (400 to 600 ms); direction: the larger part of \
                the buffer standing, more than half of it (300 ms)",
            explanation: "One seed stands apart, a TCP lock-out of the simulated NewReno: in seed 8 \
                one NewReno flow holds the buffer near full alone and the four others starve, \
                each retransmitting after one spurious timeout after another and never getting an \
                RTT sample, so the queue is longer than in the other seeds (`ledbat sim \
                scenarios/seed003/aqm-droptail.toml --seed 8`: tcp.0 at 9.34 Mb/s with no \
                retransmission, tcp.1-4 at 0.068 Mb/s with 187-224 timeouts each and no RTT \
                measured, mean queueing delay 490 ms against 409 ms in seed 7). Why their \
                retransmission timer stays under the half-second queue, and whether ns-2's TCP \
                would lock out the same way, is not established; the lock-out also moves \
                s003-red-utilisation-cost's DropTail side in that seed.",
            form: Form::Value,
            null: Null::scenarios(
                "RED (ns-2's defaults) in place of DropTail: early drops keep the queue short",
                vec![ScenarioRef::file("seed003/aqm-red.toml")],
            ),
            siblings: relations::DROPTAIL_QUEUE,
            thresholds: conventions::T_MOST,
            ..Claim::base("s003-droptail-queue")
        },
        Claim {
            id: "s003-droptail-ledbat-low-priority",
            paper: PAPER,
            figure: "Fig. 7.1 (DropTail)",
            statement: "Under DropTail LEDBAT stays low-priority: NewReno flows take most of the \
                capacity.",
            paper_value: "LEDBAT in LBE mode",
            unit: "TCP share",
            metric: "TCP (NewReno) share of throughput, DropTail",
            scenarios: vec![ScenarioRef::file("seed003/aqm-droptail.toml")],
            extract: first_tcp_share,
            draw: None,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "low priority = TCP ≥ 90 % (5 of 10 flows)",
            explanation: "",
            form: Form::Value,
            null: Null::scenarios(
                "RED (ns-2's defaults) in place of DropTail: the thesis's own contrast, priority reset",
                vec![ScenarioRef::file("seed003/aqm-red.toml")]),
            thresholds: conventions::T_CLEAR_MAJORITY,
            ..Claim::base("s003-droptail-ledbat-low-priority")
        },
        Claim {
            id: "s003-red-queue",
            paper: PAPER,
            figure: "Fig. 7.1 (RED)",
            statement: "RED cuts the queueing delay to about 4 ms.",
            paper_value: "4 ms",
            unit: "ms",
            metric: "time-averaged bottleneck queue in ms (packets waiting x 1.2 ms, the \
                thesis's E[Q]), 20-120 s, RED as ns-2 runs it by default",
            scenarios: vec![ScenarioRef::file("seed003/aqm-red.toml")],
            extract: queue_ms_10mbps,
            draw: None,
            tolerance: Near { value: 4.0, tol: 0.8 },
            direction: AtMost { bound: 25.0 },
            tolerance_note: "the thesis's 4 ms ±20 %; direction: a queue held under the LEDBAT \
                flows' own 25-ms target (gentle RED's hard ceiling, twice max_th, is 15 ms with \
                ns-2's automatic thresholds and 36 ms with the classic ones, so the bound can \
                fail)",
            explanation: "Which RED the thesis ran. The thesis gives no RED parameters, only \
                'ns2 simulation'. Every ns-2 release current when the thesis was written \
                configures Queue/RED automatically unless the script sets thresh_, maxthresh_ \
                and q_weight_: byte mode, thresholds at half and one and a half times the 5-ms \
                target delay, w_q 0.0004, wait_ spacing. Under persistent load RED holds its \
                average between the thresholds, so ns-2's defaults put the queue in the \
                thesis's range, while the set this catalog used before (the hinge: min_th 5, \
                max_th 15 packets, ns-2's values before its automatic configuration, about 6 \
                ms of queue and more) cannot reach 4 ms; the hinge shows it. The thesis's ns-2 \
                most likely ran RED with its defaults, which this scenario now does (preset \
                ns2-auto).",
            hinge: Some(super::Hinge { choice: "RED's parameters: the simulator's classic set (min_th 5, max_th 15 packets, w_q 0.002, packet mode, Floyd-Jacobson spacing; ns-2's values before 2002) instead of ns-2.35's defaults with automatic configuration", alt: &["topology.queue.preset=\"classic\""], files: &["seed003/aqm-red.toml"], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "DropTail in place of RED (same 600-ms buffer): no early drops, the buffer fills",
                vec![ScenarioRef::file("seed003/aqm-droptail.toml")],
            ),
            siblings: relations::RED_QUEUE,
            thresholds: conventions::T_UNDER_TARGET,
            ..Claim::base("s003-red-queue")
        },
        Claim {
            id: "s003-red-utilisation-cost",
            paper: PAPER,
            figure: "Fig. 7.1",
            statement: "RED costs about 3 % of link utilisation compared with DropTail.",
            paper_value: "-3 %",
            unit: "efficiency points",
            metric: "efficiency(DropTail) - efficiency(RED)",
            scenarios: files(&["seed003/aqm-droptail.toml", "seed003/aqm-red.toml"]),
            extract: |r| Ok(r[0].aggregate.efficiency - r[1].aggregate.efficiency),
            draw: None,
            tolerance: Near {
                value: 0.03,
                tol: 0.006,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "the thesis's 3 points ±20 %, the catalog's usual relative \
                tolerance; direction: RED costs something",
            explanation: "Root cause not established. With ns-2's default RED (the setting that \
                gives the thesis's queue, s003-red-queue: {=s003-red-queue} ms) the link idles \
                less often than the thesis reports; the classic set's cost is in the hinge. What \
                else of the thesis's setup (its RTT, run length, TARGET and slow start are not \
                stated, the scenario's are assumed) would add idle time is not known. The \
                DropTail side is near 1 in every seed but one, whose cause is not established \
                either.",
            hinge: Some(super::Hinge { choice: "RED's parameters: the simulator's classic set (min_th 5, max_th 15 packets, w_q 0.002, packet mode, Floyd-Jacobson spacing; ns-2's values before 2002) instead of ns-2.35's defaults with automatic configuration", alt: &["topology.queue.preset=\"classic\""], files: &["seed003/aqm-red.toml"], unstated: true }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "DropTail in both runs: no AQM, no cost",
                files(&["seed003/aqm-droptail.toml", "seed003/aqm-droptail.toml"]),
            ),
            ..Claim::base("s003-red-utilisation-cost")
        },
        Claim {
            id: "s003-red-removes-priority",
            paper: PAPER,
            figure: "Fig. 7.1 (RED)",
            statement: "Under RED the relative priority is reset: LEDBAT and NewReno get \
                comparable shares.",
            paper_value: "TCP% ≈ 50 %",
            unit: "TCP share",
            metric: "TCP (NewReno) share of throughput, RED",
            scenarios: vec![ScenarioRef::file("seed003/aqm-red.toml")],
            extract: first_tcp_share,
            draw: Some(|r| plots([rate_plot("RED: rates", r[0])])),
            tolerance: Near { value: 0.5, tol: 0.1 },
            direction: Between { lo: 0.25, hi: 0.75 },
            tolerance_note: "comparable shares: TCP 50 % ±20 %; direction: near even, neither side past 1 : 3 (TCP's share 1/4 to 3/4), the priority gone and not reversed",
            explanation: "",
            hinge: Some(super::Hinge { choice: "RED's parameters: the simulator's classic set (min_th 5, max_th 15 packets, w_q 0.002, packet mode, Floyd-Jacobson spacing; ns-2's values before 2002) instead of ns-2.35's defaults with automatic configuration", alt: &["topology.queue.preset=\"classic\""], files: &["seed003/aqm-red.toml"], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "DropTail in place of RED: LEDBAT's delay signal works again and it yields",
                vec![ScenarioRef::file("seed003/aqm-droptail.toml")],
            ),
            thresholds: conventions::T_EVEN_SPLIT,
            ..Claim::base("s003-red-removes-priority")
        },
        Claim {
            id: "s003-aqm-resets-every-scavenger",
            paper: PAPER,
            figure: "Section 7.2 (Fig. 7.1 generalised)",
            statement: "Current scavenging protocols keep their low priority only behind a \
                DropTail buffer: behind an AQM (RED, CoDel) LEDBAT, TCP-LP and NICE each get a \
                share comparable to NewReno's.",
            paper_value: "TCP% ≈ 50 % behind an AQM",
            unit: "TCP share",
            metric: "NewReno's share of throughput in the six runs of Fig. 7.1's setup with RED \
                or CoDel and LEDBAT, TCP-LP or NICE as the five scavenger flows: the share \
                farthest from one half (every run lies within that distance of it)",
            scenarios: aqm_scavenger_runs(AQMS),
            extract: |r| Ok(farthest_from_half(r)),
            tolerance: Near { value: 0.5, tol: 0.1 },
            direction: Between { lo: 0.25, hi: 0.75 },
            tolerance_note: "comparable shares, as s003-red-removes-priority (TCP 50 % ±20 %), in \
                every run; direction: near even in every run, neither side past 1 : 3",
            explanation: "The thesis ran LEDBAT behind RED only (Fig. 7.1); the claim runs its \
                sentence on the scavengers and AQMs the simulator has. TCP-LP and NICE infer \
                congestion from a delay threshold set between the smallest and largest delay \
                they have seen, not from a fixed target, so an AQM's short queue need not hide \
                their signal as it hides LEDBAT's 25-ms target. So it is here: NICE loses its \
                priority behind both AQMs, but TCP-LP keeps most of the link for NewReno behind \
                CoDel (seed 1, `ledbat sim scenarios/seed003/aqm-droptail.toml --set \
                'topology.queue={ kind = \"codel\", packets = 500 }' --set 'flow.1.cc={ name = \
                \"tcp-lp\" }' --set duration=60s`: NewReno's share 0.86) and part of it behind \
                RED; the value, {=s003-aqm-resets-every-scavenger}, is that run's. The thesis's \
                sentence generalises from LEDBAT, the one scavenger it ran behind an AQM \
                (s003-red-removes-priority).",
            hinge: Some(super::Hinge { choice: "RED's parameters: the simulator's classic set (min_th 5, max_th 15 packets, w_q 0.002, packet mode, Floyd-Jacobson spacing; ns-2's values before 2002) instead of ns-2.35's defaults with automatic configuration", alt: &["topology.queue.preset=\"classic\""], files: &["seed003/aqm-red.toml"], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "DropTail in place of each AQM: the scavengers' delay signals work and they yield",
                aqm_scavenger_runs([DROPTAIL, DROPTAIL]),
            ),
            thresholds: conventions::T_EVEN_SPLIT,
            ..Claim::base("s003-aqm-resets-every-scavenger")
        },
        Claim {
            id: "s003-droptail-keeps-every-scavenger-low",
            paper: PAPER,
            figure: "Section 7.2 (Fig. 7.1 generalised)",
            statement: "Behind a DropTail buffer current scavenging protocols (LEDBAT, TCP-LP, \
                NICE) realise a low-priority service beside NewReno.",
            paper_value: "LBE behind DropTail",
            unit: "TCP share",
            metric: "NewReno's smallest share of throughput over Fig. 7.1's DropTail setup with \
                LEDBAT, TCP-LP or NICE as the five scavenger flows",
            scenarios: aqm_scavenger_runs([DROPTAIL]),
            extract: |r| Ok(r.iter().map(|x| x.aggregate.tcp_share).fold(f64::INFINITY, f64::min)),
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "low priority = TCP ≥ 90 % (5 of 10 flows), as \
                s003-droptail-ledbat-low-priority, for each scavenger",
            explanation: "",
            form: Form::Value,
            null: Null::scenarios(
                "RED (ns-2's defaults) in place of DropTail: LEDBAT's delay signal is hidden \
                under its target and it competes",
                aqm_scavenger_runs([RED]),
            ),
            thresholds: conventions::T_CLEAR_MAJORITY,
            ..Claim::base("s003-droptail-keeps-every-scavenger-low")
        },
    ]
}

/// Fig. 7.1's queues as overrides of `seed003/aqm-droptail.toml` (RED is `aqm-red.toml`'s,
/// so that LEDBAT behind RED is the very instance of `s003-red-removes-priority`).
const DROPTAIL: (&str, &str) = ("seed003/aqm-droptail.toml", "");
const RED: (&str, &str) = ("seed003/aqm-red.toml", "");
const CODEL: (&str, &str) = (
    "seed003/aqm-droptail.toml",
    "topology.queue={ kind = \"codel\", packets = 500 }",
);
/// The AQMs the simulator has (RFC 8289's CoDel with its defaults, target 5 ms).
const AQMS: [(&str, &str); 2] = [RED, CODEL];

/// The five scavenger flows of Fig. 7.1's files as LEDBAT (as the files have them), TCP-LP
/// or NICE (their default configurations).
const SCAVENGERS: [&str; 3] = [
    "",
    "flow.1.cc={ name = \"tcp-lp\" }",
    "flow.1.cc={ name = \"nice\" }",
];

/// Each queue of `queues`, each scavenger of [`SCAVENGERS`] (queue-major).
fn aqm_scavenger_runs<const N: usize>(
    queues: [(&'static str, &'static str); N],
) -> Vec<ScenarioRef> {
    queues
        .iter()
        .flat_map(|&(file, queue)| {
            SCAVENGERS.iter().map(move |cc| {
                let set: Vec<&str> = [queue, cc].into_iter().filter(|s| !s.is_empty()).collect();
                ScenarioRef::with(file, &set)
            })
        })
        .collect()
}

/// Of the runs' TCP shares, the one farthest from one half.
fn farthest_from_half(r: &[&ledbat_sim::RunResult]) -> f64 {
    r.iter().map(|x| x.aggregate.tcp_share).fold(0.5, |m, x| {
        if (x - 0.5).abs() > (m - 0.5).abs() {
            x
        } else {
            m
        }
    })
}

/// Time-averaged queue of the first scenario's bottleneck in ms, for 1500-byte packets at
/// 10 Mb/s (1.2 ms each).
fn queue_ms_10mbps(r: &[&ledbat_sim::RunResult]) -> Result<f64, String> {
    Ok(bottleneck(r[0])?.queue_mean_time_pkts * 1.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_share_maps_to_tau() {
        assert_eq!(tau_for_share(1.0), "flow.0.cc.target=120000us");
        assert_eq!(tau_for_share(0.2), "flow.0.cc.target=24000us");
    }
}
