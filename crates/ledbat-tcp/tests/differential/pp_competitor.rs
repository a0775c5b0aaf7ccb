//! The whole LEDBAT++ controller with competitor detection (`competitor.enabled=true`):
//! ledbat-core's `LedbatPp` and the replay tool (csrc/lbcc_pp.h driving
//! csrc/lbcc_competitor.h) on the model's closed loop beside a competitor that does not
//! yield, compared after every event as main.rs compares (the detection's stage, counts,
//! path rate, pacing rate and windows included).
//!
//! The competitor is BBR-like: a sender at 65 % of the link that also keeps the queue at
//! least 0.6 TARGET long (model.rs `floors`), from 3 s to 25 s of a 40-s run at a base RTT
//! of 10 ms. The scavenger, alone first, learns the path's rate; beside the competitor its
//! rate falls to about a third while the queue stays near TARGET: it suspects, pushes,
//! finds the queue stays, yields (one packet, paced), probes, and resumes once the
//! competitor has left.

use crate::model::{Cbr, Scenario};
use crate::replay::Step;
use crate::{build, check_events, controller, model, MS, S};

/// 10 Mbit/s, base RTT 10 ms, the BBR-like competitor from 3 s to 25 s.
pub(crate) fn bbr_like(seed: u64) -> Scenario {
    let mut s = Scenario::new(40, seed);
    s.owd_fwd = 5 * MS;
    s.owd_rev = 5 * MS;
    s.cross = vec![Cbr {
        from: 3 * S,
        to: 25 * S,
        rate_bps: 6_500_000,
    }];
    // 0.6 of the scavenger's TARGET (60 ms) at 1.2 ms a packet
    s.floors = vec![(3 * S, 25 * S, 30)];
    s
}

fn summary(steps: &[Step]) -> (u64, u64, bool, bool) {
    let last = steps.last().expect("steps");
    let yielded = steps.iter().any(|s| s.phase >= 5);
    let paced = steps.iter().any(|s| s.pacing.is_some());
    (last.detections, last.tests, yielded, paced)
}

#[test]
fn the_scavenger_yields_to_a_bbr_like_competitor_alike_in_both_builds() {
    // the preset's default: the competitor set on
    let c = controller("scavenger", &[]);
    for seed in [11, 12] {
        let mut sc = bbr_like(seed);
        if seed == 12 {
            sc.jitter = MS;
            sc.delayed_ack = true;
        }
        let (events, worst) = check_events(&c, &sc, &format!("bbr-like seed {seed}"));
        let steps: Vec<Step> = events.iter().map(|(_, s)| s.clone()).collect();
        let (detections, tests, yielded, paced) = summary(&steps);
        eprintln!(
            "seed {seed}: {} events, {tests} tests, {detections} detections, \
             largest window difference {worst:.3e} bytes",
            events.len()
        );
        assert!(
            detections >= 1 && yielded && paced,
            "the core yielded: {tests} tests"
        );
        let end = &steps.last().unwrap();
        assert!(end.phase < 5, "resumed after the competitor left: {end:?}");
    }
}

#[test]
fn with_the_detection_on_the_plain_paths_match_too() {
    // what the detection does on every other path of main.rs (alone, cross traffic that
    // comes and goes, losses, outages, stalls) is compared there (CONFIGS); here the two
    // presets' detection at the draft's TARGET on the BBR-like path
    let c = controller("ledbat++", &["competitor.enabled=true"]);
    let (events, _) = check_events(&c, &bbr_like(13), "ledbat++ bbr-like");
    assert!(events.len() > 1000);
}

#[test]
fn hold_tests_find_a_standing_queue_alike_in_both_builds() {
    // CUBIC-like: 70 % of the link and a queue kept at 1.3 TARGET (65 packets): the
    // suspicion is tested by holds (the queue is above 1.1 TARGET), held test_hold_rtts
    let c = controller(
        "scavenger",
        &["competitor.enabled=true", "competitor.test_hold_rtts=3"],
    );
    let mut sc = bbr_like(14);
    sc.cross[0].rate_bps = 7_000_000;
    sc.floors = vec![(3 * S, 25 * S, 65)];
    let (events, _) = check_events(&c, &sc, "cubic-like");
    let steps: Vec<Step> = events.iter().map(|(_, s)| s.clone()).collect();
    let (detections, tests, yielded, _) = summary(&steps);
    eprintln!(
        "cubic-like: {} events, {tests} tests, {detections} detections",
        events.len()
    );
    assert!(tests >= 2 && detections >= 1 && yielded, "{tests} tests");
}

#[test]
fn a_queue_that_empties_during_a_push_test_restarts_alike_in_both_builds() {
    // The preset on the BBR-like path at a base RTT of 100 ms, where its window (a third of
    // the link) is below the BDP: when does its first push test begin?
    let c = controller("scavenger", &[]);
    let mut sc = bbr_like(11);
    sc.owd_fwd = 50 * MS;
    sc.owd_rev = 50 * MS;
    let events = model::run(&sc, build(&c, sc.mss), c.signal);
    let push = events
        .iter()
        .find(|(_, s)| s.stage == 2)
        .map(|(e, _)| e.now())
        .expect("a push test");
    // The same run with the competitor gone a base RTT into that push: the queue drains
    // while the test runs and, after an RTT of empty queue, the flow slow starts again
    // before the test has ended (the restart is not held for a push test:
    // docs/tcp/measured.md, "No restart during a push test"). The random sequences and
    // the model's other paths never reach this one.
    let mut cut = sc.clone();
    cut.cross[0].to = push + 10 * MS;
    cut.floors[0].1 = push + 10 * MS;
    let (events, _) = check_events(&c, &cut, "competitor gone during a push");
    let in_test: Vec<&Step> = events
        .iter()
        .map(|(_, s)| s)
        .skip_while(|s| s.stage != 2)
        .take_while(|s| s.stage == 2 || s.phase == 0)
        .collect();
    assert!(in_test.iter().any(|s| s.qd == Some(0)), "the queue emptied");
    assert!(
        in_test.iter().any(|s| s.phase == 0),
        "a restart during the push test"
    );
}
