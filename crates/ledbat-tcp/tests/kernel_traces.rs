//! Traces the kernel recorded (`ledbat tcp trace`) on the bed's scenarios that force each
//! path of the BPF glue (`testbed/tcpglue.py`, docs/tcp/README.md "Each path of the glue on
//! a running kernel"), replayed through ledbat-core by the check `ledbat tcp check` runs
//! (`ledbat_tcp::trace::check`, its default tolerance), so CI checks them without a bed.
//! Each trace must compare clean and must hold the events of its path: a re-recorded trace
//! that no longer exercises it fails here. The same traces' events also go through the
//! host build of the C arithmetic in the differential test (tests/differential/main.rs).

use ledbat_tcp::trace::{check, parse, Event, Record, TraceHeader, Traced};

/// The `ledbat tcp check` default.
const TOL: f64 = 1e-3;

/// Reads `tests/traces/NAME.jsonl`.
fn load(name: &str) -> (TraceHeader, Vec<Record>) {
    let path = format!("{}/tests/traces/{name}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Checks the trace against the core; returns its one connection's records and the
/// events compared.
fn checked(name: &str, controller: &str) -> (Vec<Record>, u64) {
    let (head, recs) = load(name);
    assert_eq!(head.controller.name(), controller, "{name}");
    let res = check(&head.controller, &recs, TOL);
    assert_eq!(res.len(), 1, "{name}: one connection");
    let r = &res[0];
    assert_eq!(r.mismatches, 0, "{name}: {:?}", r.first_mismatch);
    assert!(r.events > 50, "{name}: only {} events compared", r.events);
    (recs, r.events)
}

fn count(recs: &[Record], f: impl Fn(&Traced) -> bool) -> usize {
    recs.iter().filter(|r| f(&r.what)).count()
}

fn index_of(recs: &[Record], f: impl Fn(&Traced) -> bool) -> u64 {
    recs.iter()
        .find(|r| f(&r.what))
        .expect("the path's event")
        .seq
}

fn is_loss(t: &Traced) -> bool {
    matches!(t, Traced::Event(Event::Loss { .. }))
}

fn is_rto(t: &Traced) -> bool {
    matches!(t, Traced::Event(Event::Timeout { rto: true, .. }))
}

fn is_undo(t: &Traced) -> bool {
    matches!(t, Traced::Undo { .. })
}

#[test]
fn loopback_acks_of_several_32k_segments_check_clean() {
    // the trace of the once-saturated RFC step: ACKs whose bytes * MSS reach 2^32
    let (recs, _) = checked("loopback-ledbat", "ledbat");
    let Traced::Init { mss, .. } = recs[0].what else {
        panic!("starts with init")
    };
    assert_eq!(mss, 32_741);
    let wide = count(
        &recs,
        |t| matches!(t, Traced::Event(Event::Ack { bytes, .. }) if bytes * mss >= 1 << 32),
    );
    assert!(wide >= 5, "{wide} wide ACKs");
}

#[test]
fn tail_drops_check_clean() {
    let (recs, _) = checked("drops-ledbat", "ledbat");
    assert!(count(&recs, is_loss) >= 5);
}

#[test]
fn a_retransmission_timeout_checks_clean() {
    // the kernel calls ssthresh (a loss) and then CA_EVENT_LOSS (the timeout)
    let (recs, events) = checked("rto-scavenger", "scavenger");
    let rto = index_of(&recs, is_rto);
    assert!(count(&recs, is_rto) >= 1);
    assert!(
        rto <= events,
        "the timeout (event {rto}) is among those compared"
    );
}

#[test]
fn an_undone_reduction_restores_the_window_before_the_loss() {
    // the delay line held the path for 1.2 s: an RTO the kernel then found spurious
    let (recs, events) = checked("undo-ledbat", "ledbat");
    let undo = index_of(&recs, is_undo);
    assert_eq!(undo, events + 1, "the comparison ran up to the undo");
    let loss = index_of(&recs, is_loss);
    let before_loss = recs
        .iter()
        .find(|r| r.seq == loss - 1)
        .expect("record")
        .cwnd_q32;
    let restored = recs
        .iter()
        .find(|r| r.seq == undo)
        .expect("record")
        .cwnd_q32;
    assert_eq!(restored, before_loss);
}

#[test]
fn a_spurious_fast_retransmit_is_undone_with_the_window_before_it() {
    // the delay line held every 50th data frame 12 ms longer: reordering the kernel took
    // for a loss (fast retransmit, ssthresh) and then undid on the retransmissions' DSACKs,
    // with no timeout: the undo of a fast-retransmit reduction, not of an RTO
    let (recs, events) = checked("reorder-ledbat", "ledbat");
    let undo = index_of(&recs, is_undo);
    assert_eq!(undo, events + 1, "the comparison ran up to the undo");
    let before: Vec<&Record> = recs.iter().filter(|r| r.seq < undo).collect();
    assert_eq!(before.iter().filter(|r| is_rto(&r.what)).count(), 0);
    let loss = before
        .iter()
        .rev()
        .find(|r| is_loss(&r.what))
        .expect("a loss before the undo")
        .seq;
    let at = |seq: u64| recs.iter().find(|r| r.seq == seq).expect("record").cwnd_q32;
    assert!(at(loss) < at(loss - 1), "the loss reduced the window");
    assert_eq!(at(undo), at(loss - 1).max(at(undo - 1)));
}

#[test]
fn an_idle_restart_checks_clean() {
    let (recs, events) = checked("idle-ledbat", "ledbat");
    let idle = index_of(&recs, |t| {
        matches!(t, Traced::Event(Event::Timeout { rto: false, .. }))
    });
    assert!(idle <= events);
}

#[test]
fn an_application_limited_sender_checks_clean() {
    // a 1 Mbit/s writer on a 4 Mbit/s link: transmission starts from an empty flight
    // (CA_EVENT_TX_START) and ACKs that leave the window at the flight plus one MSS
    for (name, controller) in [
        ("applimited-ledbat", "ledbat"),
        ("applimited-scavenger", "scavenger"),
    ] {
        let (recs, _) = checked(name, controller);
        let starts = count(&recs, |t| matches!(t, Traced::Event(Event::Sent { .. })));
        assert!(starts >= 5, "{name}: {starts} transmission starts");
        let capped = recs
            .iter()
            .filter(|r| match r.what {
                Traced::Event(Event::Ack { flight, .. }) => {
                    (r.cwnd_q32 as f64 / 4_294_967_296.0 - (flight + 1448) as f64).abs() < 1e-3
                }
                _ => false,
            })
            .count();
        assert!(capped >= 20, "{name}: {capped} ACKs at the flightsize cap");
    }
}
