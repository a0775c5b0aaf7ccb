//! Controller events as both sides of a comparison see them, and the replay of a kernel
//! trace through ledbat-core.
//!
//! [`Event`] is one call a driver makes on a controller ([`apply`] makes it on ledbat-core's).
//! [`Record`] is one event as the kernel build traced it (`csrc/lbcc_trace.h`): the inputs it
//! gave its controller and the window that resulted. [`check`] replays each traced connection
//! from its `init` through ledbat-core and compares the windows after every event, so the
//! arithmetic the kernel ran (the BPF object as loaded and JIT-compiled) is checked against
//! the core on real traffic, as the differential test checks its host build on model traffic.

use crate::params::TcpController;
use ledbat_core::{Ack, AnyController, Controller, DelaySample, Duration, Instant, Loss, Timeout};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One call a driver makes on a controller, with at most one delay sample per ACK (as the
/// kernel has).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "ev", rename_all = "lowercase")]
pub enum Event {
    /// An acknowledgement (ledbat-core's `Ack`).
    Ack {
        /// ns
        now: u64,
        /// Bytes newly acknowledged.
        bytes: u64,
        /// Packets newly acknowledged.
        packets: u32,
        /// Bytes in flight before the ACK.
        flight: u64,
        /// Send time of the newest packet acknowledged, ns.
        newest_sent: u64,
        /// RTT sample, ns.
        rtt: Option<u64>,
        /// One-way delay sample, microseconds (wrapping).
        delay: Option<u32>,
    },
    /// A packet sent at `sent_at` was declared lost.
    Loss {
        /// ns
        now: u64,
        /// ns
        sent_at: u64,
        /// Bytes in flight.
        in_flight: u64,
        /// Bytes of the lost packet.
        bytes: u64,
    },
    /// A retransmission timeout (`rto`) or an idle restart.
    Timeout {
        /// ns
        now: u64,
        /// Retransmission timeout rather than idle restart.
        rto: bool,
    },
    /// A packet left.
    Sent {
        /// ns
        now: u64,
        /// Its bytes.
        bytes: u64,
        /// Bytes in flight, it included.
        in_flight: u64,
    },
    /// The controller's timer.
    Tick {
        /// ns
        now: u64,
    },
    /// The delay samples that follow are on another scale: the kernel build fell back from
    /// one-way delays to RTTs (the peer's timestamp clock matched no rate), or learnt the
    /// peer's clock rate (`rescaled`); the controller forgot the old samples
    /// (`Controller::on_delay_source_change`, csrc/lbcc_signal.h).
    DelaySource {
        /// ns
        now: u64,
        /// The peer's clock rate was learnt (else: RTTs from now on).
        rescaled: bool,
    },
}

impl Event {
    /// When it happened, ns.
    pub fn now(&self) -> u64 {
        match *self {
            Event::Ack { now, .. }
            | Event::Loss { now, .. }
            | Event::Timeout { now, .. }
            | Event::Sent { now, .. }
            | Event::Tick { now }
            | Event::DelaySource { now, .. } => now,
        }
    }
}

/// Makes the event's call on a core controller.
pub fn apply(c: &mut AnyController, e: &Event) {
    match *e {
        Event::Ack {
            now,
            bytes,
            packets,
            flight,
            newest_sent,
            rtt,
            delay,
        } => {
            let samples = delay.map(DelaySample);
            let ack = Ack {
                bytes_acked: bytes,
                packets_acked: packets,
                flight_before: flight,
                delay_samples: samples.as_slice(),
                rtt: rtt.map(Duration::from_nanos),
                reverse_delay: None,
                newest_sent: Instant::from_nanos(newest_sent),
            };
            c.on_ack(Instant::from_nanos(now), &ack);
        }
        Event::Loss {
            now,
            sent_at,
            in_flight,
            bytes,
        } => c.on_loss(
            Instant::from_nanos(now),
            &Loss {
                bytes,
                sent_at: Instant::from_nanos(sent_at),
                in_flight,
            },
        ),
        Event::Timeout { now, rto } => c.on_timeout(
            Instant::from_nanos(now),
            if rto {
                Timeout::Retransmission
            } else {
                Timeout::Idle
            },
        ),
        Event::Sent {
            now,
            bytes,
            in_flight,
        } => c.on_sent(Instant::from_nanos(now), bytes, in_flight),
        Event::Tick { now } => c.on_tick(Instant::from_nanos(now)),
        Event::DelaySource { now, .. } => c.on_delay_source_change(Instant::from_nanos(now)),
    }
}

/// The core controller's window in bytes, fractional (what the kernel build keeps in 32.32
/// fixed point); `None` for a controller without a kernel build.
pub fn core_cwnd(c: &AnyController) -> Option<f64> {
    Some(match c {
        AnyController::Ledbat(x) => x.state().cwnd,
        AnyController::LinearMin(x) => x.state().cwnd,
        AnyController::Md(x) => x.state().cwnd,
        AnyController::MdVar(x) => x.state().cwnd,
        AnyController::LedbatPp(x) | AnyController::Scavenger(x) => x.state().cwnd,
        AnyController::TcpLp(x) => x.reno().cwnd,
        _ => return None,
    })
}

/// `LB_TRACE_EVENT_SIZE`.
pub const RECORD_SIZE: usize = 88;

/// One event the kernel build traced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Local port of the connection.
    pub lport: u16,
    /// Remote port.
    pub rport: u16,
    /// Per-connection sequence number from 0 at init (a gap is an event lost).
    pub seq: u64,
    /// `init`, `undo` or the event.
    pub what: Traced,
    /// The kernel controller's window after the event, 32.32 fixed-point bytes.
    pub cwnd_q32: u64,
}

/// What a [`Record`] holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Traced {
    /// A new connection with this MSS.
    Init {
        /// ns
        now: u64,
        /// bytes
        mss: u64,
    },
    /// The kernel undid a reduction (spurious loss): not an event of the core's.
    Undo {
        /// ns
        now: u64,
    },
    /// An event the core has.
    Event(Event),
}

fn w(b: &[u8], i: usize) -> u64 {
    u64::from_ne_bytes(b[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes(b[off..off + 4].try_into().expect("4 bytes"))
}

impl Record {
    /// Decodes one ring-buffer entry; `None` if its size or kind is not the object's.
    pub fn decode(b: &[u8]) -> Option<Record> {
        if b.len() < RECORD_SIZE {
            return None;
        }
        // offsets as csrc/lbcc_trace.h asserts them
        let (now, cwnd_q32, seq) = (w(b, 0), w(b, 1), w(b, 2));
        let (a, bb, c, d, e, f) = (w(b, 3), w(b, 4), w(b, 5), w(b, 6), w(b, 7), w(b, 8));
        let kind = u32_at(b, 72);
        let flags = u32_at(b, 76);
        let lport = u16::from_ne_bytes([b[80], b[81]]);
        let rport = u16::from_ne_bytes([b[82], b[83]]);
        let what = match kind {
            1 => Traced::Init { now, mss: a },
            2 => Traced::Event(Event::Ack {
                now,
                bytes: a,
                flight: bb,
                newest_sent: c,
                rtt: (flags & 1 != 0).then_some(d),
                delay: (flags & 2 != 0).then_some(e as u32),
                packets: f as u32,
            }),
            3 => Traced::Event(Event::Loss {
                now,
                sent_at: a,
                in_flight: bb,
                bytes: 0,
            }),
            4 => Traced::Event(Event::Timeout {
                now,
                rto: flags & 1 != 0,
            }),
            5 => Traced::Event(Event::Sent {
                now,
                bytes: 0,
                in_flight: a,
            }),
            6 => Traced::Undo { now },
            7 => Traced::Event(Event::DelaySource {
                now,
                rescaled: flags & 2 != 0,
            }),
            _ => return None,
        };
        Some(Record {
            lport,
            rport,
            seq,
            what,
            cwnd_q32,
        })
    }
}

/// The first line of a trace file (`ledbat tcp trace`): the instance traced and its
/// configuration, which the replay needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceHeader {
    /// The kernel name of the instance.
    pub instance: String,
    /// Its controller and parameters.
    pub controller: TcpController,
}

/// Why a trace file's text is not a trace.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// No header line.
    #[error("empty trace")]
    Empty,
    /// A line that does not parse.
    #[error("line {line} is not {what}: {source}")]
    Line {
        /// 1-based.
        line: usize,
        /// What the line should have been.
        what: &'static str,
        /// The JSON error.
        source: serde_json::Error,
    },
}

/// Parses a trace file's text: the header line, then one [`Record`] per line.
pub fn parse(text: &str) -> Result<(TraceHeader, Vec<Record>), TraceError> {
    let mut lines = text.lines();
    let head = lines.next().ok_or(TraceError::Empty)?;
    let head: TraceHeader = serde_json::from_str(head).map_err(|source| TraceError::Line {
        line: 1,
        what: "a trace header",
        source,
    })?;
    let records = lines
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|source| TraceError::Line {
                line: i + 2,
                what: "a traced event",
                source,
            })
        })
        .collect::<Result<Vec<Record>, _>>()?;
    Ok((head, records))
}

/// How one traced connection compared with the core.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ConnCheck {
    /// Local and remote port.
    pub ports: (u16, u16),
    /// Events replayed and compared.
    pub events: u64,
    /// Largest difference of the fractional windows, bytes.
    pub max_diff: f64,
    /// Events whose whole-byte windows differ by more than the straddle of one byte.
    pub mismatches: u64,
    /// The first mismatch, described.
    pub first_mismatch: Option<String>,
    /// Why the comparison stopped before the end (a lost event, an undo), if it did.
    pub stopped: Option<String>,
}

/// Whether an event's values are ones a kernel can write: times within 146 years of boot
/// (2^62 ns), an RTT under 18 minutes (2^40 ns; the kernel caps RTO back-off far below),
/// byte counts under 1 TiB (2^40) and packet counts under 2^24. A trace file is replayed
/// only up to the first event that is not (a corrupt or hand-made file), so that the core's
/// arithmetic, sized for real connections, never sees what no connection produces.
fn plausible(e: &Event) -> bool {
    const T: u64 = 1 << 62;
    const RTT: u64 = 1 << 40;
    const BYTES: u64 = 1 << 40;
    match *e {
        Event::Ack {
            now,
            bytes,
            packets,
            flight,
            newest_sent,
            rtt,
            ..
        } => {
            now < T
                && newest_sent < T
                && bytes < BYTES
                && flight < BYTES
                && packets < 1 << 24
                && rtt.is_none_or(|r| r < RTT)
        }
        Event::Loss {
            now,
            sent_at,
            in_flight,
            bytes,
        } => now < T && sent_at < T && in_flight < BYTES && bytes < BYTES,
        Event::Timeout { now, .. } | Event::Tick { now } | Event::DelaySource { now, .. } => {
            now < T
        }
        Event::Sent {
            now,
            bytes,
            in_flight,
        } => now < T && bytes < BYTES && in_flight < BYTES,
    }
}

/// Each connection of `records` (by local and remote port, in port order) with its records
/// from its last `init` on, the one its replay starts from; a connection whose `init` is not
/// in the trace is left out.
pub fn connections(records: &[Record]) -> Vec<((u16, u16), Vec<&Record>)> {
    let mut conns: BTreeMap<(u16, u16), Vec<&Record>> = BTreeMap::new();
    for r in records {
        conns.entry((r.lport, r.rport)).or_default().push(r);
    }
    conns
        .into_iter()
        .filter_map(|(ports, mut recs)| {
            let start = recs
                .iter()
                .rposition(|r| matches!(r.what, Traced::Init { .. }))?;
            Some((ports, recs.split_off(start)))
        })
        .collect()
}

/// Replays every connection of `records` that starts with its `init` through ledbat-core's
/// controller of `c` and compares the windows after each event (the differential test's
/// rule: fractional windows within `tol` bytes, whole-byte windows equal but for a one-byte
/// straddle). Connections whose start is not in the trace are skipped. At the kernel's undo
/// of a reduction, which the core has no event for, the comparison stops after checking the
/// window the glue restored: the one before the last loss, if that is larger (a mismatch
/// otherwise).
pub fn check(c: &TcpController, records: &[Record], tol: f64) -> Vec<ConnCheck> {
    let mut out = Vec::new();
    for (ports, recs) in connections(records) {
        let Traced::Init { mss, .. } = recs[0].what else {
            unreachable!("an init record")
        };
        let mut res = ConnCheck {
            ports,
            ..ConnCheck::default()
        };
        // an MSS no TCP has (IPv4's and IPv6's limits fit in 16 bits) is a corrupt record
        let Some(mut core) = u32::try_from(mss)
            .ok()
            .filter(|m| (1..=u32::from(u16::MAX)).contains(m))
            .and_then(|mss| c.config.build(mss).ok())
        else {
            res.stopped = Some(format!("the core refused the configuration at MSS {mss}"));
            out.push(res);
            continue;
        };
        let first = recs[0].seq;
        // the kernel's window before the last loss, Q32 (what an undo restores)
        let mut prior: Option<u64> = None;
        for (k, r) in recs[1..].iter().enumerate() {
            let expect = first.checked_add(k as u64 + 1);
            if expect != Some(r.seq) {
                res.stopped = Some(match expect {
                    Some(e) => format!("event {e} was lost (ring buffer full)"),
                    None => "the sequence numbers overflowed".into(),
                });
                break;
            }
            let ev = match &r.what {
                Traced::Event(e) if !plausible(e) => {
                    res.stopped = Some(format!(
                        "event {} holds a value no kernel writes (corrupt trace)",
                        r.seq
                    ));
                    break;
                }
                Traced::Event(e) => {
                    if matches!(e, Event::Loss { .. }) {
                        prior = Some(recs[k].cwnd_q32);
                    }
                    e
                }
                Traced::Undo { .. } => {
                    // the glue's rule (ledbat_undo_cwnd): the window before the last loss
                    // comes back if it is larger; checked here, as the core has no undo
                    let before = recs[k].cwnd_q32;
                    let want = prior.unwrap_or(0).max(before);
                    if r.cwnd_q32 != want {
                        res.mismatches += 1;
                        if res.first_mismatch.is_none() {
                            res.first_mismatch = Some(format!(
                                "event {}: undo: kernel {:.6} bytes, the window before the \
                                 last loss (or the one before the undo) {:.6}",
                                r.seq,
                                r.cwnd_q32 as f64 / 4_294_967_296.0,
                                want as f64 / 4_294_967_296.0
                            ));
                        }
                    }
                    res.stopped = Some(format!(
                        "the kernel undid a reduction at event {} (the window it restored \
                         checked; the core has no undo)",
                        r.seq
                    ));
                    break;
                }
                Traced::Init { .. } => break,
            };
            apply(&mut core, ev);
            res.events += 1;
            let kernel = r.cwnd_q32 as f64 / 4_294_967_296.0;
            let ours = core_cwnd(&core).unwrap_or(f64::NAN);
            let diff = (kernel - ours).abs();
            res.max_diff = res.max_diff.max(diff);
            // the trace records the controller's window (`lb_cc.cwnd`), not what LEDBAT++'s
            // competitor detection makes of it while pushing or yielding (the
            // differential test compares those), so both sides are whole bytes of it
            let whole = r.cwnd_q32 >> 32;
            let core_whole = ours as u64;
            let straddle = whole.abs_diff(core_whole) == 1 && kernel.floor() != ours.floor();
            if diff > tol || (whole != core_whole && !straddle) {
                res.mismatches += 1;
                if res.first_mismatch.is_none() {
                    res.first_mismatch = Some(format!(
                        "event {}: {ev:?}: kernel {kernel:.6} bytes, core {ours:.6}",
                        r.seq
                    ));
                }
            }
        }
        out.push(res);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(kind: u32, flags: u32, words: [u64; 9]) -> Vec<u8> {
        let mut b = Vec::new();
        for x in words {
            b.extend_from_slice(&x.to_ne_bytes());
        }
        b.extend_from_slice(&kind.to_ne_bytes());
        b.extend_from_slice(&flags.to_ne_bytes());
        b.extend_from_slice(&40000u16.to_ne_bytes());
        b.extend_from_slice(&5201u16.to_ne_bytes());
        b.extend_from_slice(&0u32.to_ne_bytes());
        b
    }

    #[test]
    fn decodes_each_kind_of_record() {
        let r = Record::decode(&rec(1, 0, [5, 2 << 32, 0, 1448, 0, 0, 0, 0, 0])).unwrap();
        assert_eq!(r.what, Traced::Init { now: 5, mss: 1448 });
        assert_eq!((r.lport, r.rport, r.seq), (40000, 5201, 0));
        let r = Record::decode(&rec(2, 1, [9, 0, 1, 2896, 5792, 7, 20_000, 3, 2])).unwrap();
        assert_eq!(
            r.what,
            Traced::Event(Event::Ack {
                now: 9,
                bytes: 2896,
                packets: 2,
                flight: 5792,
                newest_sent: 7,
                rtt: Some(20_000),
                delay: None,
            })
        );
        let r = Record::decode(&rec(4, 2, [9, 0, 2, 0, 0, 0, 0, 0, 0])).unwrap();
        assert_eq!(r.what, Traced::Event(Event::Timeout { now: 9, rto: false }));
        let r = Record::decode(&rec(7, 1, [9, 0, 3, 0, 0, 0, 0, 0, 0])).unwrap();
        assert_eq!(
            r.what,
            Traced::Event(Event::DelaySource {
                now: 9,
                rescaled: false
            })
        );
        let r = Record::decode(&rec(7, 2, [9, 0, 3, 0, 0, 0, 0, 0, 0])).unwrap();
        assert_eq!(
            r.what,
            Traced::Event(Event::DelaySource {
                now: 9,
                rescaled: true
            })
        );
        assert!(Record::decode(&rec(9, 0, [0; 9])).is_none());
        assert!(Record::decode(&[0u8; 40]).is_none());
    }

    fn trace_of(c: &TcpController, events: &[Event]) -> Vec<Record> {
        let mut core = c.config.build(1448).unwrap();
        let mut v = vec![Record {
            lport: 1,
            rport: 2,
            seq: 0,
            what: Traced::Init { now: 0, mss: 1448 },
            cwnd_q32: 0,
        }];
        for (i, e) in events.iter().enumerate() {
            apply(&mut core, e);
            let cwnd = core_cwnd(&core).unwrap();
            v.push(Record {
                lport: 1,
                rport: 2,
                seq: i as u64 + 1,
                what: Traced::Event(e.clone()),
                cwnd_q32: (cwnd * 4_294_967_296.0).round() as u64,
            });
        }
        v
    }

    fn acks(n: u64) -> Vec<Event> {
        (1..=n)
            .map(|i| Event::Ack {
                now: i * 1_000_000,
                bytes: 1448,
                packets: 1,
                flight: 20 * 1448,
                newest_sent: i * 1_000_000 - 500_000,
                rtt: Some(20_000_000 + i * 1000),
                delay: Some(10_000 + (i as u32 % 7) * 1000),
            })
            .collect()
    }

    #[test]
    fn a_trace_the_core_wrote_checks_clean_and_a_changed_window_is_caught() {
        let c = TcpController::parse("ledbat", ["target=25ms"]).unwrap();
        let mut t = trace_of(&c, &acks(50));
        let r = check(&c, &t, 1e-3);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].events, r[0].mismatches), (50, 0));
        t[30].cwnd_q32 += 3 << 32;
        let r = check(&c, &t, 1e-3);
        assert_eq!(r[0].mismatches, 1);
        assert!(r[0]
            .first_mismatch
            .as_ref()
            .unwrap()
            .starts_with("event 30"));
    }

    #[test]
    fn a_lost_event_or_an_undo_stops_the_comparison() {
        let c = TcpController::parse("scavenger", std::iter::empty()).unwrap();
        let mut t = trace_of(&c, &acks(20));
        t.remove(10);
        let r = check(&c, &t, 1e-3);
        assert_eq!(r[0].events, 9);
        assert!(r[0].stopped.as_ref().unwrap().contains("lost"));
        let mut t = trace_of(&c, &acks(20));
        t[5].what = Traced::Undo { now: 5 };
        t[5].cwnd_q32 = t[4].cwnd_q32;
        let r = check(&c, &t, 1e-3);
        assert_eq!((r[0].events, r[0].mismatches), (4, 0));
        assert!(r[0].stopped.as_ref().unwrap().contains("undid"));
    }

    #[test]
    fn an_undo_must_restore_the_window_before_the_last_loss() {
        // RFC ledbat: ten ACKs, a loss that halves the window, two ACKs, then the kernel's
        // undo, which brings back the window the loss found (record 10's)
        let c = TcpController::parse("ledbat", ["target=25ms"]).unwrap();
        let mut evs = acks(10);
        evs.push(Event::Loss {
            now: 10_500_000,
            sent_at: 10_000_000,
            in_flight: 20 * 1448,
            bytes: 0,
        });
        evs.extend(acks(13).into_iter().skip(11));
        let mut t = trace_of(&c, &evs);
        let before_loss = t[10].cwnd_q32;
        assert!(t[11].cwnd_q32 < before_loss, "the loss reduced the window");
        t.push(Record {
            lport: 1,
            rport: 2,
            seq: 14,
            what: Traced::Undo { now: 13_500_000 },
            cwnd_q32: before_loss,
        });
        let r = check(&c, &t, 1e-3);
        assert_eq!((r[0].events, r[0].mismatches), (13, 0), "{:?}", r[0]);
        assert!(r[0].stopped.as_ref().unwrap().contains("restored"));
        // an undo that kept the reduced window breaks the rule
        t[14].cwnd_q32 = t[13].cwnd_q32;
        let r = check(&c, &t, 1e-3);
        assert_eq!(r[0].mismatches, 1);
        assert!(r[0].first_mismatch.as_ref().unwrap().contains("undo"));
    }

    #[test]
    fn a_trace_file_parses_and_a_bad_line_is_named() {
        let c = TcpController::parse("scavenger", std::iter::empty()).unwrap();
        let head = TraceHeader {
            instance: "scav".into(),
            controller: c.clone(),
        };
        let t = trace_of(&c, &acks(3));
        let mut text = serde_json::to_string(&head).unwrap() + "\n";
        for r in &t {
            text += &(serde_json::to_string(r).unwrap() + "\n");
        }
        let (h, recs) = parse(&text).unwrap();
        assert_eq!((h, recs), (head, t));
        assert!(matches!(parse(""), Err(TraceError::Empty)));
        let e = parse("{}").unwrap_err();
        assert!(matches!(e, TraceError::Line { line: 1, .. }), "{e}");
        let bad = text.replacen("\"seq\":2", "\"seq\":\"two\"", 1);
        let e = parse(&bad).unwrap_err().to_string();
        assert!(e.starts_with("line 4 is not a traced event"), "{e}");
    }

    proptest::proptest! {
        // the body of the `tcp_trace` fuzz target: records the kernel might never write
        // (events out of order in time, zero sizes, absurd delays) replay without a panic
        #[test]
        fn arbitrary_records_never_break_the_check(
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4096),
            kinds in proptest::collection::vec(1u32..=7, 0..48),
        ) {
            // the bytes as records, with a valid kind stamped on each so most decode
            let mut data = data;
            for (chunk, k) in data.chunks_mut(RECORD_SIZE).zip(&kinds) {
                if chunk.len() == RECORD_SIZE {
                    chunk[72..76].copy_from_slice(&k.to_ne_bytes());
                    chunk[80..84].copy_from_slice(&[1, 0, 2, 0]);
                }
            }
            let records: Vec<Record> = data.chunks(RECORD_SIZE).filter_map(Record::decode).collect();
            for name in ["scavenger", "ledbat", "tcp-lp"] {
                let c = TcpController::parse(name, std::iter::empty()).unwrap();
                for r in check(&c, &records, 1e-3) {
                    proptest::prop_assert!(r.events < records.len() as u64);
                }
            }
        }
    }

    #[test]
    fn corrupt_records_stop_the_replay_instead_of_panicking() {
        // what the tcp_trace fuzz target found: a sequence number at u64::MAX (the next
        // overflowed) and an RTT of 2^63 ns (the core's smoothing overflowed)
        let c = TcpController::parse("scavenger", std::iter::empty()).unwrap();
        let mut t = trace_of(&c, &acks(3));
        for r in t.iter_mut() {
            r.seq = r.seq.wrapping_add(u64::MAX);
        }
        let r = check(&c, &t, 1e-3);
        assert_eq!(r[0].events, 0);
        assert_eq!(
            r[0].stopped.as_deref(),
            Some("the sequence numbers overflowed")
        );
        let mut t = trace_of(&c, &acks(5));
        if let Traced::Event(Event::Ack { rtt, .. }) = &mut t[3].what {
            *rtt = Some(1 << 63);
        }
        let r = check(&c, &t, 1e-3);
        assert_eq!(r[0].events, 2);
        assert!(r[0].stopped.as_ref().unwrap().contains("corrupt trace"));
        let mut t = trace_of(&c, &acks(2));
        t[0].what = Traced::Init { now: 0, mss: 0 };
        let r = check(&c, &t, 1e-3);
        assert!(r[0].stopped.as_ref().unwrap().contains("MSS 0"));
    }
}
