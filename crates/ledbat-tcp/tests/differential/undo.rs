//! The kernel's undo of a reduction it found spurious (the glue's `undo_cwnd`, csrc/lbcc.h's
//! `lb_undo`), through the replay tool: ledbat-core has no undo, so the expectations are
//! Linux's rule (reno and cubic: max(cwnd, prior_cwnd), the kernel putting back its
//! ssthresh) and the controller's own once-per-RTT rule, computed by hand from the windows
//! the same run printed before the loss.

use crate::replay::{parse_step, replay_lines, Step};
use crate::{controller, MS};

const MSS: u32 = 1448;

/// Runs `body` (replay tool commands) after `params` and `init`; the state after each.
fn run(name: &str, params: &[&str], body: &str) -> Vec<Step> {
    let c = controller(name, params);
    let lines = replay_lines(&c.params().expect("kernel params"), MSS, body);
    lines[1..].iter().map(|l| parse_step(l)).collect()
}

/// Q32 bytes of a step.
fn q32(s: &Step) -> u64 {
    (s.cwnd * 4_294_967_296.0).round() as u64
}

/// `n` ACKs of one MSS every 10 ms from `from_ms`, RTT 20 ms, one-way delay 5 ms (no
/// queue), ten packets in flight.
fn acks(from_ms: u64, n: u64) -> String {
    acks_at(from_ms, n, 5000)
}

/// As [`acks`], at a one-way delay of `delay_us`.
fn acks_at(from_ms: u64, n: u64, delay_us: u64) -> String {
    let mut s = String::new();
    for k in 0..n {
        let now = (from_ms + 10 * k) * MS;
        s += &format!(
            "ack {now} {MSS} 1 {} {} {} {delay_us}\n",
            10 * MSS,
            now - 20 * MS,
            20 * MS
        );
    }
    s
}

#[test]
fn an_undo_restores_the_window_the_loss_halved() {
    for name in ["ledbat", "ledbat-md", "ledbat++", "scavenger"] {
        // 40 ACKs (up to 390 ms), a loss at 400 ms of a packet sent at 380 ms, undone at
        // 410 ms
        let body = acks(0, 40) + "loss 400000000 380000000 14480\nundo 410000000\n";
        let st = run(name, &[], &body);
        let (before, lost, undone) = (&st[39], &st[40], &st[41]);
        assert_eq!(
            q32(lost),
            q32(before) / 2,
            "{name}: the loss halves the window"
        );
        assert_eq!(q32(undone), q32(before), "{name}: the undo brings it back");
    }
}

#[test]
fn an_undo_keeps_growth_made_since_the_loss() {
    // The window after the loss grows back past the one before it (200 ACKs at no queue):
    // the undo keeps the larger, max(cwnd, prior_cwnd).
    let body =
        acks(0, 10) + "loss 100000000 80000000 14480\n" + &acks(110, 400) + "undo 4200000000\n";
    let st = run("ledbat", &[], &body);
    let before = q32(&st[9]);
    let at_undo = q32(&st[410]);
    assert!(
        at_undo > before,
        "grew past the prior window: {at_undo} vs {before}"
    );
    assert_eq!(q32(&st[411]), at_undo);
}

#[test]
fn a_loss_right_after_an_undone_one_is_a_new_congestion_event() {
    // Loss at 400 ms (the reduction's time), undone at 410 ms; a loss at 420 ms of a packet
    // sent at 390 ms, before that reduction: without the undo the once-per-RTT rule reads
    // it as the same event and ignores it; after the undo it halves the window.
    let tail = "loss 400000000 380000000 14480\nundo 410000000\nloss 420000000 390000000 14480\n";
    let st = run("ledbat", &[], &(acks(0, 40) + tail));
    let before = q32(&st[39]);
    assert_eq!(q32(&st[41]), before);
    assert_eq!(
        q32(&st[42]),
        before / 2,
        "the second loss halves the restored window"
    );
    // the same second loss without the undo in between is ignored
    let plain = "loss 400000000 380000000 14480\nloss 420000000 390000000 14480\n";
    let st = run("ledbat", &[], &(acks(0, 40) + plain));
    assert_eq!(q32(&st[41]), before / 2, "one halving per event");
}

#[test]
fn an_undo_without_a_saved_loss_changes_nothing() {
    // Before any loss; and a second undo of a loss already undone, after the window fell
    // at a queuing delay of 200 ms (twice TARGET): it stays where the queue put it.
    let body = acks(0, 20)
        + "undo 200000000\nloss 210000000 190000000 14480\nundo 220000000\n"
        + &acks_at(230, 10, 205_000)
        + "undo 330000000\n";
    let st = run("ledbat", &[], &body);
    assert_eq!(q32(&st[20]), q32(&st[19]), "no loss to undo");
    assert_eq!(q32(&st[22]), q32(&st[19]), "the first undo of the loss");
    // (the current delay is the least of the last 4 samples: the queue shows from the 4th)
    assert!(
        q32(&st[32]) < q32(&st[22]),
        "the queue took the window down"
    );
    assert_eq!(
        q32(&st[33]),
        q32(&st[32]),
        "the second undo of it does nothing"
    );
}

#[test]
fn tcp_lp_gets_its_slow_start_threshold_back() {
    // TCP-LP starts in slow start (threshold infinite); the loss sets the threshold to half
    // the flight and leaves it in avoidance; the undo puts the threshold back, as the
    // kernel restores snd_ssthresh, so it is in slow start again (phase 0).
    let body = acks(0, 10) + "loss 100000000 80000000 14480\nundo 110000000\n";
    let st = run("tcp-lp", &[], &body);
    assert_eq!(st[9].phase, 0, "slow start before the loss");
    assert_eq!(st[10].phase, 1, "avoidance after it");
    assert_eq!(st[11].phase, 0, "slow start again after the undo");
    assert_eq!(q32(&st[11]), q32(&st[9]));
}
