//! The glue's decisions that csrc/ states on plain tcp_sock values, through the replay tool,
//! against values computed by hand: the reno fallback of a connection without socket
//! storage (csrc/lbcc_reno.h, Linux's tcp_reno_cong_avoid, tcp_reno_ssthresh and
//! tcp_reno_undo_cwnd), and the snd_ssthresh written when the controller's phase changes
//! and again after the kernel's undo (csrc/lbcc_glue.h, `lb_glue_ssthresh`, `lb_glue_undo`;
//! expectations from the windows the same run printed, as tests/differential/undo.rs does).
//!
//! What this does not run: the BPF glue's reading of the tcp_sock into these values and its
//! writes back (bpf/ledbat.bpf.c), which only a kernel executes.

use crate::replay::{event_line, parse_step, replay_lines, Step};
use crate::MS;

/// The replay tool's output lines for `input` (commands that need no params).
fn tool(input: &str) -> Vec<String> {
    crate::replay::run_tool(input.to_string())
}

/// Linux's TCP_INFINITE_SSTHRESH, what snd_ssthresh holds before the first reduction.
const INF: u32 = 0x7fff_ffff;

/// reno's (cwnd, snd_cwnd_cnt) after one ACK of `acked` packets.
#[allow(clippy::too_many_arguments)]
fn reno_ca(
    cwnd: u32,
    cnt: u32,
    ssthresh: u32,
    clamp: u32,
    max_out: u32,
    limited: bool,
    acked: u32,
) -> (u32, u32) {
    let out = tool(&format!(
        "reno_ca {cwnd} {cnt} {ssthresh} {clamp} {max_out} {} {acked}\n",
        u8::from(limited)
    ));
    let f: Vec<u32> = out[0]
        .split(' ')
        .map(|v| v.parse().expect("number"))
        .collect();
    (f[0], f[1])
}

#[test]
fn the_fallback_slow_starts_by_the_packets_acknowledged() {
    // cwnd 10 below ssthresh, limited by the window: +2 for 2 packets
    assert_eq!(reno_ca(10, 0, INF, 10_000, 10, true, 2), (12, 0));
    // not flagged limited, but in slow start with cwnd < 2 max_packets_out (10 < 12)
    assert_eq!(reno_ca(10, 0, INF, 10_000, 6, false, 4), (14, 0));
}

#[test]
fn the_fallback_slow_start_stops_at_ssthresh_and_the_rest_counts_towards_avoidance() {
    // 3 acked at cwnd 10, ssthresh 11: 1 to reach 11, 2 into snd_cwnd_cnt (w = 11)
    assert_eq!(reno_ca(10, 0, 11, 10_000, 10, true, 3), (11, 2));
}

#[test]
fn the_fallback_adds_one_packet_per_window_in_avoidance() {
    // cwnd 20 above ssthresh 10: the 20th packet counted makes 21
    assert_eq!(reno_ca(20, 19, 10, 10_000, 20, true, 1), (21, 0));
    assert_eq!(reno_ca(20, 5, 10, 10_000, 20, true, 1), (20, 6));
    // a count left at or above the window (after a reduction) first gives its packet
    assert_eq!(reno_ca(20, 25, 10, 10_000, 20, true, 1), (21, 1));
    // a stretch ACK of 25 at cwnd 10: two packets, 5 left over
    assert_eq!(reno_ca(10, 0, 5, 10_000, 10, true, 25), (12, 5));
    // window by window from 4 (= ssthresh): 4 ACKs give 5, 5 more give 6, 6 more give 7
    let (mut cwnd, mut cnt) = (4, 0);
    for _ in 0..15 {
        (cwnd, cnt) = reno_ca(cwnd, cnt, 4, 10_000, cwnd, true, 1);
    }
    assert_eq!((cwnd, cnt), (7, 0));
}

#[test]
fn the_fallback_does_not_grow_a_window_it_does_not_use() {
    // avoidance, not limited by the window: nothing changes
    assert_eq!(reno_ca(20, 3, 10, 10_000, 100, false, 5), (20, 3));
    // slow start at cwnd = 2 max_packets_out (10 = 2 x 5), not flagged: nothing
    assert_eq!(reno_ca(10, 0, INF, 10_000, 5, false, 4), (10, 0));
}

#[test]
fn the_fallback_window_stays_within_the_clamp() {
    assert_eq!(reno_ca(10, 0, INF, 11, 10, true, 4), (11, 0));
    assert_eq!(reno_ca(11, 10, 5, 11, 11, true, 1), (11, 0));
}

#[test]
fn the_fallback_halves_on_a_loss_and_undoes_to_the_larger_window() {
    let out = tool(
        "reno_ssthresh 1\nreno_ssthresh 5\nreno_ssthresh 6\nreno_ssthresh 21\n\
         reno_ssthresh 100\nreno_undo 10 20\nreno_undo 30 20\n",
    );
    assert_eq!(out, ["2", "2", "3", "10", "50", "20", "30"]);
}

/// One `kss` line: the phase, the snd_cwnd the glue would write, the snd_ssthresh written.
#[derive(Debug, PartialEq)]
struct Kss {
    phase: u32,
    cwnd: u32,
    ssthresh: Option<u32>,
}

fn parse_kss(line: &str) -> Kss {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!((f.len(), f[0]), (4, "kss"), "kss line `{line}`");
    Kss {
        phase: f[1].parse().expect("phase"),
        cwnd: f[2].parse().expect("cwnd"),
        ssthresh: (f[3] != "-").then(|| f[3].parse().expect("ssthresh")),
    }
}

const MSS: u64 = 1448;

/// `n` ACKs of one MSS every 10 ms from 100 ms, ten packets in flight, at the RTT (ms)
/// `rtt(k)` for the k-th, each followed by `kss`; the state after each ACK with its `kss`.
fn acks_with_kss(name: &str, n: u64, rtt: impl Fn(u64) -> u64) -> (Kss, Vec<(Step, Kss)>) {
    let c = crate::controller(name, &[]);
    let mut body = String::from("kss 0 0\n");
    for k in 0..n {
        let now = (100 + 10 * k) * MS;
        let r = rtt(k) * MS;
        body += &format!(
            "ack {now} {MSS} 1 {} {} {r} -\nkss {now} 0\n",
            10 * MSS,
            now - r
        );
    }
    let lines = replay_lines(&c.params().expect("kernel params"), MSS as u32, &body);
    let first = parse_kss(&lines[1]);
    let pairs = lines[2..]
        .chunks(2)
        .map(|p| (parse_step(&p[0]), parse_kss(&p[1])))
        .collect();
    (first, pairs)
}

/// Packets in a window of `bytes`.
fn pkts(bytes: u64) -> u32 {
    (bytes / MSS) as u32
}

#[test]
fn ssthresh_is_written_when_ledbat_pp_leaves_slow_start_and_around_its_slowdowns() {
    // slow start at 20 ms; 200 ms of RTT at ACKs 30-35 end it; then no queue: the first
    // slowdown (2 RTTs after), its hold and ramp back to the window before it
    let (first, st) = acks_with_kss("ledbat++", 400, |k| {
        if (30..36).contains(&k) {
            200
        } else {
            20
        }
    });
    assert_eq!(
        (first.phase, first.ssthresh),
        (0, None),
        "starts in slow start"
    );
    // written exactly where the phase changes (never into slow start)
    let mut prev = 0;
    for (i, (_, k)) in st.iter().enumerate() {
        let changed = k.phase != prev && k.phase != 0;
        assert_eq!(
            k.ssthresh.is_some(),
            changed,
            "ACK {i}: {k:?} after phase {prev}"
        );
        prev = k.phase;
    }
    // leaving slow start: snd_ssthresh = snd_cwnd = floor(window / MSS)
    let exit = st
        .iter()
        .position(|(_, k)| k.phase == 1)
        .expect("slow start ends");
    let (s, k) = &st[exit];
    assert_eq!(k.ssthresh, Some(pkts(s.window)));
    assert_eq!(k.cwnd, pkts(s.window));
    // the slowdown: the ramp's goal, the window before it, in hold and ramp alike
    let hold = st
        .iter()
        .position(|(_, k)| k.phase == 2)
        .expect("a slowdown");
    let before = pkts(st[hold - 1].0.window);
    assert!(before > 2, "a goal above the hold window: {before}");
    assert_eq!(st[hold].1.ssthresh, Some(before), "hold");
    assert_eq!(st[hold].1.cwnd, 2, "the hold window");
    let ramp = hold
        + st[hold..]
            .iter()
            .position(|(_, k)| k.phase == 3)
            .expect("ramp");
    assert_eq!(st[ramp].1.ssthresh, Some(before), "ramp");
    // the ramp ends at its goal, back in avoidance: snd_cwnd again
    let end = ramp
        + st[ramp..]
            .iter()
            .position(|(_, k)| k.phase == 1)
            .expect("ramp ends");
    assert_eq!(st[end].1.ssthresh, Some(pkts(st[end].0.window)));
    assert_eq!(st[end].1.ssthresh, Some(before));
}

#[test]
fn ssthresh_is_written_at_init_for_a_controller_without_slow_start() {
    // RFC 6817 with slow start off (the default) starts in avoidance at 2 packets: the
    // kernel's TCP_INFINITE_SSTHRESH would say slow start
    let (first, st) = acks_with_kss("ledbat", 5, |_| 20);
    assert_eq!(
        first,
        Kss {
            phase: 1,
            cwnd: 2,
            ssthresh: Some(2)
        }
    );
    assert!(st.iter().all(|(_, k)| k.ssthresh.is_none()), "{st:?}");
}

#[test]
fn an_undo_has_the_glue_write_ssthresh_again_over_the_kernels_restored_one() {
    // LEDBAT++ slow-starts: 61 ACKs of one MSS at a 20 ms RTT without queue, 40 packets in
    // flight, each adding MSS / ceil(2 TARGET / base) = 1448 / 6 bytes to the 2 MSS it
    // starts at: 2896 + 61 x 1448 / 6 = 17,617.3 bytes, 12 packets. A loss ends its slow
    // start and halves that to 8,808.7 bytes, 6 packets; the first decision after Recovery
    // writes snd_ssthresh = 6. A DSACK then undoes the loss: the window is 12 packets
    // again and the kernel puts back its snd_ssthresh from before the loss,
    // TCP_INFINITE_SSTHRESH, while the controller stays in avoidance (lb_undo does not
    // restart slow start). The next decision writes the phase again, 12, and only once
    let c = crate::controller("ledbat++", &[]);
    let mut body = String::from("kss 0 0\n");
    for k in 0..61 {
        let now = (100 + 10 * k) * MS;
        body += &format!(
            "ack {now} {MSS} 1 {} {} {} -\n",
            40 * MSS,
            now - 20 * MS,
            20 * MS
        );
    }
    body += &format!("kss {} 0\n", 700 * MS);
    body += &format!("loss {} {} {}\n", 710 * MS, 690 * MS, 40 * MSS);
    body += &format!("kss {} 0\nkss {} 0\n", 710 * MS, 720 * MS);
    body += &format!("undo {}\n", 730 * MS);
    body += &format!("kss {} 0\nkss {} 0\n", 730 * MS, 740 * MS);
    let lines = replay_lines(&c.params().expect("kernel params"), MSS as u32, &body);
    // init, kss, 61 ACKs, kss, loss, kss, kss, undo, kss, kss
    assert_eq!(lines.len(), 70, "{lines:?}");
    let (before, lost, undone) = (
        parse_step(&lines[62]),
        parse_step(&lines[64]),
        parse_step(&lines[67]),
    );
    let k: Vec<Kss> = [1, 63, 65, 66, 68, 69]
        .iter()
        .map(|&i| parse_kss(&lines[i]))
        .collect();
    let kss = |phase, cwnd, ssthresh| Kss {
        phase,
        cwnd,
        ssthresh,
    };
    assert_eq!(k[0], kss(0, 2, None), "starts in slow start");
    assert_eq!((before.phase, before.window), (0, 17_617), "{before:?}");
    assert_eq!(k[1], kss(0, 12, None), "still in slow start");
    assert_eq!((lost.phase, lost.window), (1, 8_808), "{lost:?}");
    assert_eq!(k[2], kss(1, 6, Some(6)), "Recovery over: avoidance");
    assert_eq!(k[3], kss(1, 6, None), "no phase change");
    assert_eq!((undone.phase, undone.window), (1, 17_617), "{undone:?}");
    assert_eq!(k[4], kss(1, 12, Some(12)), "after the undo: written again");
    assert_eq!(k[5], kss(1, 12, None), "once");
}

/// One ACK's tcp_sock values for `flight`: (now ns, in flight, delivered, max_packets_out,
/// is_cwnd_limited, snd_cwnd, srtt_us << 3).
type FlightIn = (u64, u32, u32, u32, bool, u32, u32);

/// The flightsize and the held maximum's time after each ACK of one connection.
fn flights(acks: &[FlightIn]) -> Vec<(u32, u64)> {
    let input: String = acks
        .iter()
        .map(|&(now, inf, del, mpo, lim, cwnd, srtt)| {
            format!(
                "flight {now} {inf} {del} {mpo} {} {cwnd} {srtt}\n",
                u8::from(lim)
            )
        })
        .collect();
    tool(&input)
        .iter()
        .map(|l| {
            let (f, t) = l.split_once(' ').expect("two fields");
            (f.parse().expect("flight"), t.parse().expect("time"))
        })
        .collect()
}

/// A smoothed RTT of 1 ms, as tcp_sock.srtt_us holds it (below the 10 ms floor).
const SRTT_1MS: u32 = 1000 << 3;

#[test]
fn the_flightsize_is_the_flight_before_the_ack_or_the_window_in_use() {
    // each on a fresh connection: 8 in flight + 2 delivered; max_packets_out 12 above the
    // 3 + 1; limited by a window of 20 above max_packets_out; limited, but the window (10)
    // below max_packets_out (12)
    let cases: [(FlightIn, u32); 4] = [
        ((MS, 8, 2, 5, false, 20, SRTT_1MS), 10),
        ((MS, 3, 1, 12, false, 20, SRTT_1MS), 12),
        ((MS, 3, 1, 12, true, 20, SRTT_1MS), 20),
        ((MS, 3, 1, 12, true, 10, SRTT_1MS), 12),
    ];
    for (acks, want) in cases {
        assert_eq!(flights(&[acks]), [(want, MS)], "{acks:?}");
    }
}

#[test]
fn the_flightsize_holds_its_maximum_for_at_least_10_ms() {
    // srtt 1 ms: the 20 is held through 10 ms after its ACK, then a flight of 4 replaces it
    let f = flights(&[
        (MS, 18, 2, 0, false, 30, SRTT_1MS),
        (6 * MS, 3, 1, 0, false, 30, SRTT_1MS),
        (11 * MS, 3, 1, 0, false, 30, SRTT_1MS),
        (11 * MS + 1, 3, 1, 0, false, 30, SRTT_1MS),
    ]);
    assert_eq!(f, [(20, MS), (20, MS), (20, MS), (4, 11 * MS + 1)]);
}

#[test]
fn the_flightsize_holds_its_maximum_for_a_smoothed_rtt_above_10_ms() {
    // srtt 50 ms (400,000 = 50,000 us << 3): held 50 ms, not 10
    let srtt = 50_000 << 3;
    let f = flights(&[
        (0, 28, 2, 0, false, 40, srtt),
        (40 * MS, 4, 1, 0, false, 40, srtt),
        (50 * MS, 4, 1, 0, false, 40, srtt),
        (50 * MS + 1, 4, 1, 0, false, 40, srtt),
    ]);
    assert_eq!(f, [(30, 0), (30, 0), (30, 0), (5, 50 * MS + 1)]);
}

#[test]
fn an_equal_flight_renews_the_hold() {
    // 10 at 0 and again at 8 ms: the hold runs from 8 ms, so 2 at 15 ms is not yet taken
    // (7 ms), at 18 ms + 1 ns it is
    let f = flights(&[
        (0, 9, 1, 0, false, 40, SRTT_1MS),
        (8 * MS, 9, 1, 0, false, 40, SRTT_1MS),
        (15 * MS, 1, 1, 0, false, 40, SRTT_1MS),
        (18 * MS + 1, 1, 1, 0, false, 40, SRTT_1MS),
    ]);
    assert_eq!(f, [(10, 0), (10, 8 * MS), (10, 8 * MS), (2, 18 * MS + 1)]);
}

#[test]
fn a_window_of_one_packet_that_measures_the_queue_leaves_as_a_pair() {
    // the model's BBR-like competitor (pp_competitor.rs): the scavenger slows down (its
    // first hold is one packet), yields, probes and resumes; after every event, the
    // snd_cwnd the glue would write (no clamp). A receiver delays the ACK of a lone
    // segment: a pair is acknowledged at once (csrc/lbcc_glue.h, lb_glue_pair)
    let c = crate::controller("scavenger", &[]);
    let sc = crate::pp_competitor::bbr_like(11);
    let events = crate::model::run(&sc, crate::build(&c, sc.mss), c.signal);
    let mss = u64::from(sc.mss);
    let mut body = String::new();
    for (e, _) in &events {
        body += &event_line(e);
        // the event's own time: kss reads the state the event left
        body += &format!("kss {} 0\n", e.now());
    }
    let lines = replay_lines(&c.params().expect("kernel params"), sc.mss, &body);
    let (mut yielding, mut probing, mut one_packet_holds) = (0, 0, 0);
    for p in lines[1..].chunks(2) {
        let (s, k) = (parse_step(&p[0]), parse_kss(&p[1]));
        match s.phase {
            // the detection's window is one packet; two leave together, paced as one
            5 => {
                assert_eq!(s.window, mss, "the controller's window: {s:?}");
                assert_eq!(k.cwnd, 2, "a pair while yielding: {s:?}");
                yielding += 1;
            }
            // a hold: at least a pair
            2 => {
                let pkts = (s.window / mss) as u32;
                assert_eq!(k.cwnd, pkts.max(2), "a hold: {s:?}");
                one_packet_holds += u32::from(pkts == 1);
            }
            // a probe's window as it is
            6 => {
                assert_eq!(k.cwnd, ((s.window / mss) as u32).max(1), "{s:?}");
                probing += 1;
            }
            // elsewhere the window as it is (one packet while a joined slowdown pauses)
            _ => assert!(
                k.cwnd == ((s.window / mss) as u32).max(1) || k.cwnd == 1,
                "{s:?} {k:?}"
            ),
        }
    }
    assert!(
        yielding > 50 && probing > 5 && one_packet_holds > 0,
        "{yielding} yielding, {probing} probing, {one_packet_holds} in holds of one packet"
    );
}
