//! The competitor detection's differential test: ledbat-core's `Competitor` and its C
//! mirror (csrc/lbcc_competitor.h, compiled for the host as csrc/comp_replay.c) are given
//! the same calls (`poll`, `hold_started`, `hold_ended`, `on_ack`) and compared after each.
//!
//! Equal means: the action (and a resume's window within a byte), yielding, the stage, the
//! path's rate, the counts of tests, detections and voided pushes, confirming, pushing,
//! probing, the next timer and the hold's minimum exactly; the pacing rate and window while
//! yielding and a push's extra window within two bytes (the core's `f64` products are
//! truncated by the owner, the C's are exact floors). Rates are whole bytes/s, as the kernel
//! glue's would be.
//!
//! The calls come from (a) the model traces of main.rs (each ACK's queuing delay and phase
//! from the core's scavenger, delivery-rate samples over 200 ms spans of its ACKs) and (b) a
//! small closed-loop world whose owner does what the core's `LedbatPp` does with the
//! detection's actions (hold on a test, one packet while yielding, a probe's window) beside
//! a competitor that does not yield: BBR at a low queue (rate falls, delay stays below
//! TARGET), CUBIC with a standing queue above it, and another LEDBAT++ flow that backs off
//! from a push; (c) random call sequences.

use crate::model;
use crate::replay::Ev;
use crate::{build, controller, MS, S};
use ledbat_core::competitor::{
    Action, Competitor, CompetitorConfig, FlowPhase, Observation, Stage,
};
use ledbat_core::{Duration, Instant};
use ledbat_tcp::params::{competitor_words, q32};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// What both sides report after a call (csrc/comp_replay.c's line).
#[derive(Clone, Debug, PartialEq)]
pub struct Out {
    action: u64,
    resume: u64,
    yielding: u64,
    stage: u64,
    path_rate: u64,
    tests: u64,
    detections: u64,
    collisions: u64,
    confirming: u64,
    pushing: u64,
    probing: u64,
    next_tick: Option<u64>,
    hold_min: Option<u64>,
    limit_rate: Option<u64>,
    limit_window: Option<u64>,
    push_window: u64,
    /// `Competitor::pushing_probe`, ns.
    pushing_probe: Option<u64>,
}

fn parse(line: &str) -> Out {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 17, "comp-replay line `{line}`");
    let n = |s: &str| s.parse::<u64>().expect("number");
    let o = |s: &str| (s != "-").then(|| n(s));
    Out {
        action: n(f[0]),
        resume: n(f[1]),
        yielding: n(f[2]),
        stage: n(f[3]),
        path_rate: n(f[4]),
        tests: n(f[5]),
        detections: n(f[6]),
        collisions: n(f[7]),
        confirming: n(f[8]),
        pushing: n(f[9]),
        probing: n(f[10]),
        next_tick: o(f[11]),
        hold_min: o(f[12]),
        limit_rate: o(f[13]),
        limit_window: o(f[14]),
        push_window: n(f[15]),
        pushing_probe: o(f[16]),
    }
}

/// The core's detection, every call written down for the C and its outputs kept.
pub struct Drive {
    pub core: Competitor,
    cfg: CompetitorConfig,
    lines: String,
    outs: Vec<Out>,
    mss: u64,
    rtt: u64,
    /// The owner's base RTT given with each ACK, ns (40 ms unless set).
    pub base_rtt: u64,
    /// The receiver's owner options (none: the sender's defaults).
    owner: Option<Owner>,
    /// With `end_at_tie`, the first call whose rate sample is an exact tie with a share of
    /// the path's rate (`Competitor::at_threshold`): the comparison ends before it. Random
    /// sequences hit such ties (and their shrinking seeks them out); the worlds and traces
    /// do not get the pass.
    tie: Option<usize>,
    end_at_tie: bool,
}

/// The owner options [`Drive::check`] writes as the C tool's `owner` line.
#[derive(Clone, Copy)]
struct Owner {
    probe_rtts: f64,
    quiets: bool,
    standing_rtts: f64,
    rtt_fall: bool,
}

impl Owner {
    /// `owner BUSY_ABOVE_ETA PROBE_RTTS QUIETS STANDING_RTTS RTT_FALL`, the two RTT counts
    /// as the kernel's Q32 words.
    fn line(&self) -> String {
        format!(
            "owner 1 {} {} {} {}\n",
            q32(self.probe_rtts),
            u8::from(self.quiets),
            q32(self.standing_rtts),
            u8::from(self.rtt_fall)
        )
    }
}

fn at(ns: u64) -> Instant {
    Instant::from_nanos(ns)
}

fn d(ns: u64) -> Duration {
    Duration::from_nanos(ns)
}

impl Drive {
    pub fn new(cfg: CompetitorConfig) -> Self {
        Drive {
            core: Competitor::new(cfg),
            cfg,
            lines: String::new(),
            outs: Vec::new(),
            mss: 1500,
            rtt: 0,
            base_rtt: 40_000_000,
            owner: None,
            tie: None,
            end_at_tie: false,
        }
    }

    /// As [`Drive::new`], with the receiver's owner options (`busy_above_eta`, a probe of at
    /// least `probe_rtts` RTTs, `collision_quiets`) on both sides.
    pub fn receiver(cfg: CompetitorConfig, probe_rtts: f64) -> Self {
        Drive::with_owner(cfg, probe_rtts, true, 0.0)
    }

    /// As [`Drive::receiver`], `collision_quiets` on both sides only when `quiets`, and a
    /// probe from a standing queue of at least `standing_rtts` RTTs.
    pub fn with_owner(
        cfg: CompetitorConfig,
        probe_rtts: f64,
        quiets: bool,
        standing_rtts: f64,
    ) -> Self {
        let mut d = Drive::new(cfg);
        let core = Competitor::new(cfg)
            .busy_above_eta()
            .probe_rtts(probe_rtts)
            .standing_probe_rtts(standing_rtts);
        d.core = if quiets {
            core.collision_quiets()
        } else {
            core
        };
        d.owner = Some(Owner {
            probe_rtts,
            quiets,
            standing_rtts,
            rtt_fall: false,
        });
        d
    }

    /// With `rtt_fall` on both sides (after [`Drive::with_owner`] or [`Drive::receiver`]).
    pub fn rtt_fall(mut self) -> Self {
        self.core = self.core.rtt_fall(true);
        self.owner
            .as_mut()
            .expect("owner options of with_owner")
            .rtt_fall = true;
        self
    }

    fn record(&mut self, now: u64, action: Action) {
        let (action, resume) = match action {
            Action::None => (0, 0),
            Action::Test => (1, 0),
            Action::Resume(w) => (2, w),
        };
        let c = &self.core;
        let t = at(now);
        let limits = c.limits(t, self.mss as f64, d(self.rtt));
        let rate = c.path_rate();
        assert_eq!(rate.fract(), 0.0, "whole rates only");
        self.outs.push(Out {
            action,
            resume,
            yielding: c.yielding() as u64,
            stage: match c.stage(t) {
                Stage::Watching => 0,
                Stage::Suspect => 1,
                Stage::PushTest => 2,
                Stage::Quiet => 3,
            },
            path_rate: rate as u64,
            tests: c.tests(),
            detections: c.detections(),
            collisions: c.push_collisions(),
            confirming: c.confirming() as u64,
            pushing: c.pushing() as u64,
            probing: c.probing(t) as u64,
            next_tick: c.next_tick().map(|i| i.as_nanos()),
            hold_min: c.hold_min().map(|m| m.as_nanos()),
            limit_rate: limits.map(|(r, _)| r as u64),
            limit_window: limits.map(|(_, w)| w as u64),
            push_window: c.push_window(t).map_or(0, |w| w as u64),
            pushing_probe: c.pushing_probe(t).map(|l| l.as_nanos()),
        });
    }

    pub fn poll(&mut self, now: u64, qd: u64, rtt: u64) {
        self.rtt = rtt;
        self.core.poll(at(now), d(qd), d(rtt));
        let _ = writeln!(self.lines, "poll {now} {qd} {rtt}");
        self.record(now, Action::None);
    }

    pub fn hold_started(&mut self, now: u64, rtt: u64) {
        self.core.hold_started(at(now), d(rtt));
        let _ = writeln!(self.lines, "hs {now} {rtt}");
        self.record(now, Action::None);
    }

    pub fn hold_ended(&mut self, now: u64, eta: u64, mss: u64) {
        self.mss = mss;
        self.core.hold_ended(at(now), d(eta), mss as f64);
        let _ = writeln!(self.lines, "he {now} {eta} {mss}");
        self.record(now, Action::None);
    }

    /// One ACK: `rate` (bytes/s, app-limited) when the ACK closes a rate sample.
    #[allow(clippy::too_many_arguments)]
    pub fn ack(
        &mut self,
        now: u64,
        qd: u64,
        target: u64,
        rtt: u64,
        eta: u64,
        phase: FlowPhase,
        rate: Option<(u64, bool)>,
        newest_sent: u64,
        flight: u64,
    ) -> Action {
        self.rtt = rtt;
        let o = Observation {
            qd: d(qd),
            target: d(target),
            rtt: d(rtt),
            base_rtt: d(self.base_rtt),
            eta: d(eta),
            mss: self.mss as f64,
            phase,
            rate: rate.map(|(r, a)| (r as f64, a)),
            newest_sent: at(newest_sent),
            flight: flight as f64,
        };
        let a = self.core.on_ack(at(now), &o);
        if rate.is_some() && self.tie.is_none() && self.core.at_threshold() {
            self.tie = Some(self.outs.len());
        }
        let ph = match phase {
            FlowPhase::Avoidance => 0,
            FlowPhase::OwnHold => 1,
            FlowPhase::Other => 2,
            FlowPhase::Ramp => 3,
        };
        let (r, app) = rate.map_or(("-".to_string(), 0), |(r, a)| (r.to_string(), a as u8));
        let _ = writeln!(
            self.lines,
            "ack {now} {qd} {target} {rtt} {} {eta} {} {ph} {r} {app} {newest_sent} {flight}",
            self.base_rtt, self.mss
        );
        self.record(now, a);
        a
    }

    /// Runs the C on the same calls and compares after each; returns the calls compared.
    pub fn check(&self, label: &str) -> usize {
        let words = competitor_words(&self.cfg).expect("kernel words");
        let mut input = String::from("params");
        for w in words {
            let _ = write!(input, " {w}");
        }
        input.push('\n');
        if let Some(owner) = &self.owner {
            input.push_str(&owner.line());
        }
        input.push_str(&self.lines);
        let text = run_tool(input);
        let got: Vec<Out> = text.lines().map(parse).collect();
        assert_eq!(got.len(), self.outs.len(), "{label}: one line per call");
        let last = self.outs.last().cloned();
        eprintln!(
            "{label}: {} calls, tests/detections/voided {:?}",
            got.len(),
            last.map(|o| (o.tests, o.detections, o.collisions))
        );
        let calls: Vec<&str> = self.lines.lines().collect();
        let upto = match self.tie {
            Some(i) if self.end_at_tie => i,
            _ => got.len(),
        };
        for (i, (core, c)) in self.outs.iter().zip(&got).take(upto).enumerate() {
            let ctx = || {
                format!(
                    "{label}: call {i} `{}`\n core {core:?}\n c    {c:?}",
                    calls[i]
                )
            };
            let near = |a: Option<u64>, b: Option<u64>, tol: u64| match (a, b) {
                (Some(x), Some(y)) => x.abs_diff(y) <= tol,
                (x, y) => x == y,
            };
            assert!(
                near(Some(core.resume), Some(c.resume), 1),
                "resume: {}",
                ctx()
            );
            assert!(near(core.limit_rate, c.limit_rate, 2), "rate: {}", ctx());
            assert!(
                near(core.limit_window, c.limit_window, 2),
                "window: {}",
                ctx()
            );
            assert!(
                core.push_window.abs_diff(c.push_window) <= 2,
                "push: {}",
                ctx()
            );
            let exact = |o: &Out| Out {
                resume: 0,
                limit_rate: o.limit_rate.map(|_| 0),
                limit_window: o.limit_window.map(|_| 0),
                push_window: 0,
                ..o.clone()
            };
            assert_eq!(exact(core), exact(c), "{}", ctx());
        }
        got.len()
    }
}

/// Runs csrc/comp_replay.c on `input`; returns its standard output.
fn run_tool(input: String) -> String {
    let mut child = Command::new(ledbat_tcp::COMP_REPLAY_TOOL)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the competitor replay tool runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("comp-replay output");
    writer.join().expect("writer").expect("write calls");
    assert!(
        out.status.success(),
        "comp-replay failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The detection on: the scavenger's defaults otherwise.
pub fn on() -> CompetitorConfig {
    CompetitorConfig {
        enabled: true,
        ..CompetitorConfig::default()
    }
}

/// Feeds a model trace of the core's scavenger to the detection: each ACK's queuing delay
/// and phase as the core had them, a rate sample when 200 ms of ACKs have passed, a hold of
/// the flow's own on each slowdown phase, a poll on each timer.
fn drive_trace(events: &[(Ev, crate::replay::Step)], target: u64, cfg: CompetitorConfig) -> Drive {
    let mut dr = Drive::new(cfg);
    dr.base_rtt = 0; // the smallest RTT sample, 0 before the first (as the core's owner)
    let eta = 2 * MS;
    let (mut delivered, mut span_from, mut span_bytes) = (0u64, None::<u64>, 0u64);
    let mut in_hold = false;
    let mut srtt = target;
    for (ev, st) in events {
        match *ev {
            Ev::Ack {
                now,
                bytes,
                flight,
                newest_sent,
                rtt,
                ..
            } => {
                if let Some(r) = rtt {
                    srtt = (7 * srtt + r) / 8;
                    dr.base_rtt = if dr.base_rtt == 0 {
                        r
                    } else {
                        dr.base_rtt.min(r)
                    };
                }
                let hold = st.phase == 2;
                if hold && !in_hold {
                    dr.hold_started(now, srtt);
                } else if !hold && in_hold {
                    dr.hold_ended(now, eta, 1500);
                }
                in_hold = hold;
                delivered += bytes;
                let from = *span_from.get_or_insert(now);
                let rate = if now - from >= 200 * MS {
                    let r = (delivered - span_bytes) * 1_000_000_000 / (now - from);
                    span_from = Some(now);
                    span_bytes = delivered;
                    Some((r, false))
                } else {
                    None
                };
                let Some(qd) = st.qd else { continue };
                let phase = match st.phase {
                    1 => FlowPhase::Avoidance,
                    2 => FlowPhase::OwnHold,
                    3 => FlowPhase::Ramp,
                    _ => FlowPhase::Other,
                };
                dr.ack(now, qd, target, srtt, eta, phase, rate, newest_sent, flight);
            }
            Ev::Tick { now } => dr.poll(now, st.qd.unwrap_or(0), srtt),
            _ => {}
        }
    }
    dr
}

#[test]
fn the_c_detection_matches_the_core_on_the_model_traces() {
    // the traces of the plain preset (its own detection off), fed to the detection alone
    let c = controller(
        "scavenger",
        &["competitor.enabled=false", "slowdown_backoff=1"],
    );
    let ledbat_core::ControllerConfig::Scavenger(sc_cfg) = &c.config else {
        panic!("the scavenger's configuration")
    };
    let target = sc_cfg.0.target.as_nanos();
    let mut total = 0;
    for (label, sc) in crate::scenarios() {
        let events = model::run(&sc, build(&c, sc.mss), c.signal);
        let dr = drive_trace(&events, target, on());
        total += dr.check(label);
        // TARGET 10 ms: the same queues are far above it, the suspicion and hold tests run
        let dr = drive_trace(&events, 10 * MS, on());
        total += dr.check(&format!("{label}, TARGET 10 ms"));
    }
    eprintln!("{total} calls compared");
}

/// What shares the bottleneck with the owner in [`World`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Other {
    /// Nobody.
    None,
    /// BBR: a queue below TARGET (a share of it), most of the link.
    Bbr,
    /// CUBIC: a queue standing above TARGET, most of the link.
    Cubic,
    /// Another LEDBAT++ flow: half the link, backs off from a push (its queue falls).
    Kin,
    /// Another LEDBAT++ flow that came while the owner was yielding: its queue below TARGET
    /// drains after each of the owner's probes.
    KinLate,
    /// Another LEDBAT++ flow that pushes whenever the owner does: the queue rises 1.4 times
    /// what the owner's push adds.
    Twin,
}

/// A closed loop around the detection: a 10 Mbit/s link, base RTT `base`, ACKs every 5 ms,
/// the competitor `other(t)`; the owner holds on a test (and every 8 s on its own, as a
/// periodic slowdown), keeps one packet while yielding, and sends a probe's or a push's
/// window. Returns the drive and the detection's state over time (s, yielding).
pub fn world(
    cfg: CompetitorConfig,
    base: u64,
    target: u64,
    secs: u64,
    other: impl Fn(u64) -> Other,
) -> Drive {
    world_of(Drive::new(cfg), base, target, secs, other)
}

/// [`world`] around a given drive (the receiver's owner options).
pub fn world_of(
    mut dr: Drive,
    base: u64,
    target: u64,
    secs: u64,
    other: impl Fn(u64) -> Other,
) -> Drive {
    const C: u64 = 1_250_000;
    dr.base_rtt = base;
    let (mut was_probing, mut probe_end) = (false, None::<u64>);
    let (eta, mss, step) = (2 * MS, 1500u64, 5 * MS);
    let mut hold_until: Option<u64> = None;
    let mut next_slowdown = 8 * S;
    let mut slow_start_until = 0u64;
    let mut delivered = 0u64;
    let mut span = (0u64, 0u64);
    let mut pushed_until = 0u64;
    let mut t = 0u64;
    while t < secs * S {
        t += step;
        let o = other(t);
        let yielding = dr.core.yielding();
        let probing = dr.core.probing(at(t));
        if was_probing && !probing {
            probe_end = Some(t);
        }
        was_probing = probing;
        let holding = hold_until.is_some();
        // the queue: the competitor's, plus what the owner's push or probe adds
        let mut qd = match o {
            Other::None => 0,
            Other::Bbr => target * 6 / 10,
            Other::Cubic => target * 13 / 10,
            Other::Kin | Other::Twin if holding => 0,
            Other::Kin | Other::Twin => target * 8 / 10,
            Other::KinLate if probe_end.is_some_and(|e| t > e + base && t < e + 300 * MS) => 0,
            Other::KinLate => target * 6 / 10,
        };
        if let Some(w) = dr.core.push_window(at(t)) {
            pushed_until = t + 2 * (base + qd);
            let added = (w as u64) * 1_000_000_000 / C;
            qd += if o == Other::Twin {
                added * 14 / 10
            } else {
                added / 2
            };
        } else if t < pushed_until {
            qd += target / 4;
        } else if o == Other::Kin && t < pushed_until + 3 * (base + qd) {
            // the other LEDBAT++ flow backs off from the queue the push left
            qd = target / 4;
        }
        if probing && o != Other::None {
            qd += target / 5;
        }
        // the owner's share of the link
        let share = match (o, yielding, holding) {
            (_, true, _) => 3,
            (_, _, true) => 2,
            (Other::None, ..) => 100,
            (Other::Kin | Other::KinLate | Other::Twin, ..) => 50,
            (Other::Bbr, ..) => 35,
            (Other::Cubic, ..) => 30,
        };
        let rtt = base + qd;
        delivered += C * share / 100 * step / S;
        let rate = if t - span.0 >= 200 * MS {
            let r = (delivered - span.1) * S / (t - span.0);
            span = (t, delivered);
            Some((r, false))
        } else {
            None
        };
        let phase = if yielding || t < slow_start_until {
            FlowPhase::Other
        } else if holding {
            FlowPhase::OwnHold
        } else {
            FlowPhase::Avoidance
        };
        let flight = C * share / 100 * rtt / S;
        match dr.ack(t, qd, target, rtt, eta, phase, rate, t - rtt, flight) {
            Action::Test if hold_until.is_none() => {
                dr.hold_started(t, rtt);
                hold_until = Some(t + 4 * rtt);
            }
            Action::Resume(_) => slow_start_until = t + 2 * rtt,
            _ => {}
        }
        if let Some(h) = hold_until {
            if t >= h {
                hold_until = None;
                dr.hold_ended(t, eta, mss);
                next_slowdown = t + 8 * S;
            }
        } else if t >= next_slowdown && !dr.core.yielding() && !dr.core.pushing() {
            dr.hold_started(t, rtt);
            hold_until = Some(t + 2 * rtt);
        }
        if let Some(at_) = dr.core.next_tick() {
            if at_.as_nanos() <= t {
                dr.poll(t, qd, rtt);
            }
        }
    }
    dr
}

#[test]
fn bbr_at_a_low_queue_is_detected_and_left_alike_in_both_builds() {
    // The measured case: base RTT 10 ms, BBR's queue below TARGET, its rate most of the
    // link. The owner must suspect, push, find the queue stays, yield, and resume when
    // BBR leaves at 40 s.
    let dr = world(on(), 10 * MS, 100 * MS, 60, |t| {
        if (2 * S..40 * S).contains(&t) {
            Other::Bbr
        } else {
            Other::None
        }
    });
    let n = dr.check("bbr at 10 ms");
    let last = dr.outs.last().unwrap();
    assert!(last.detections >= 1, "{last:?}");
    assert!(
        dr.outs.iter().any(|o| o.action == 2),
        "resumed after BBR left"
    );
    assert_eq!(last.yielding, 0, "not yielding at the end: {last:?}");
    eprintln!("{n} calls compared");
}

#[test]
fn the_receivers_options_busy_from_eta_and_six_rtt_probes_alike_in_both_builds() {
    // The bbr world with the receiver's options (csrc/rledbat.h): its probes last 6 RTTs
    // (60 ms at 10 ms, past PROBE_LEN's 30), which the limits' window and the next tick
    // show after every call.
    let dr = world_of(Drive::receiver(on(), 6.0), 10 * MS, 100 * MS, 60, |t| {
        if (2 * S..40 * S).contains(&t) {
            Other::Bbr
        } else {
            Other::None
        }
    });
    dr.check("bbr at 10 ms, receiver's options");
    let last = dr.outs.last().unwrap();
    assert!(last.detections >= 1, "{last:?}");
    assert!(dr.outs.iter().any(|o| o.probing == 1), "a probe ran");
}

#[test]
fn a_standing_queue_is_found_by_hold_tests_alike_in_both_builds() {
    let dr = world(on(), 40 * MS, 100 * MS, 30, |t| {
        if t >= 2 * S {
            Other::Cubic
        } else {
            Other::None
        }
    });
    dr.check("cubic");
    let last = dr.outs.last().unwrap();
    assert!(last.detections >= 1 && last.yielding == 1, "{last:?}");
    assert!(
        dr.outs.iter().any(|o| o.action == 1),
        "a hold test asked for"
    );
}

#[test]
fn a_flow_of_our_kind_backs_off_from_the_push_alike_in_both_builds() {
    let dr = world(on(), 20 * MS, 100 * MS, 40, |t| {
        if t >= 2 * S {
            Other::Kin
        } else {
            Other::None
        }
    });
    dr.check("kin");
    let last = dr.outs.last().unwrap();
    assert_eq!(last.detections, 0, "{last:?}");
    assert!(
        dr.outs.iter().any(|o| o.stage == 3),
        "quiet after a negative push"
    );
}

#[test]
fn a_latecomer_of_our_kind_found_while_yielding_is_shared_with_alike_in_both_builds() {
    // Yielding to a standing queue, then another LEDBAT++ flow whose queue drains after each
    // probe: twice in a row, at most KIN_CONFIRM (5 s) apart, and the owner resumes sharing
    // (Resume(0)). Probes 4.5 s apart put the two findings between 4 and 5 s apart.
    let cfg = CompetitorConfig {
        probe_interval: Duration::from_millis(4_500),
        ..on()
    };
    let dr = world(cfg, 20 * MS, 100 * MS, 40, |t| {
        if t < 2 * S {
            Other::None
        } else if t < 12 * S {
            Other::Cubic
        } else {
            Other::KinLate
        }
    });
    dr.check("kin while yielding");
    assert!(
        dr.outs.iter().any(|o| o.action == 2 && o.resume == 0),
        "resumed sharing with our kind"
    );
}

/// While yielding (TARGET 100 ms, RTT 100 ms, eta 2 ms): a probe that starts at `t` (the
/// queue `from`), whose ACKs show `peak`, its aftermath `after`; returns when the probe was
/// evaluated and the action then.
fn scripted_probe(dr: &mut Drive, t: u64, from: u64, peak: u64, after: u64) -> (u64, Action) {
    let (target, rtt, eta) = (100 * MS, 100 * MS, 2 * MS);
    let ack = |dr: &mut Drive, now: u64, qd: u64, sent: u64| {
        dr.ack(
            now,
            qd,
            target,
            rtt,
            eta,
            FlowPhase::Other,
            None,
            sent,
            3_000,
        )
    };
    ack(dr, t, from, t - rtt);
    assert!(dr.core.probing(Instant::from_nanos(t)), "a probe at {t}");
    let end = dr.core.next_tick().unwrap().as_nanos();
    ack(dr, t + rtt, peak, t + MS);
    ack(dr, end + rtt, after, end);
    ack(dr, end + 2 * rtt, after, end + rtt);
    let a = ack(dr, end + 3 * rtt, after, end + 2 * rtt);
    (end + 3 * rtt, a)
}

/// One ACK while yielding without a probe's packets (TARGET 100 ms, RTT 100 ms, eta 2 ms):
/// the queue at `qd`.
fn yielding_ack(dr: &mut Drive, now: u64, qd: u64) {
    dr.ack(
        now,
        qd,
        100 * MS,
        100 * MS,
        2 * MS,
        FlowPhase::Other,
        None,
        now - 100 * MS,
        3_000,
    );
}

/// A flow yielding to cubic (from 2 s), fed cubic's queue (130 ms) until a probe has just
/// been evaluated: none runs, the next is due 1 s later (ACKs 7 ms apart: never at a 30-ms
/// probe's end, whose give-up is 1 s on).
fn yielding_to_cubic() -> Drive {
    yielding_to_cubic_as(Drive::new(on()))
}

/// [`yielding_to_cubic`] for a given drive (the receiver's options).
fn yielding_to_cubic_as(dr: Drive) -> Drive {
    let mut dr = world_of(dr, 20 * MS, 100 * MS, 30, |t| {
        if t >= 2 * S {
            Other::Cubic
        } else {
            Other::None
        }
    });
    assert!(dr.core.yielding());
    let mut t = 30 * S;
    loop {
        t += 7 * MS;
        dr.ack(
            t,
            130 * MS,
            100 * MS,
            150 * MS,
            2 * MS,
            FlowPhase::Other,
            None,
            t - 150 * MS,
            3_000,
        );
        if !dr.core.probing(Instant::from_nanos(t))
            && dr.core.next_tick().map(|i| i.as_nanos()) == Some(t + S)
        {
            return dr;
        }
        assert!(t < 40 * S, "no probe evaluated");
    }
}

/// An ACK at `done` + 5 ms finds the queue empty, which asks for a probe at once; that
/// probe, from the empty queue, cannot tell (below TARGET / 4) and changes nothing.
fn empty_then_probe(dr: &mut Drive, done: u64) {
    dr.ack(
        done + 5 * MS,
        0,
        100 * MS,
        100 * MS,
        2 * MS,
        FlowPhase::Other,
        None,
        done,
        3_000,
    );
    let (_, a) = scripted_probe(dr, done + 10 * MS, 0, 20 * MS, 0);
    assert_eq!(a, Action::None);
}

#[test]
fn a_receivers_probe_near_target_after_a_high_queue_alike_in_both_builds() {
    // Yielding with the receiver's options (TARGET 100 ms, eta 2 ms): the queue stands at
    // 130 ms (above 1.2 TARGET) half a second before a probe is due at 60 ms (near
    // TARGET): that one and the next four are not run, the sixth (5.5 s after, HIGH_MEMORY
    // being 5 s) runs. Then 130 ms again, a drain to 1 ms (a probe due at once) and 60 ms
    // at the next ACK: it runs. Both from 60 ms, above eta, keep the sender's length, until
    // the queue would reach 1.3 TARGET at half of C: (130 - 60) / 0.5 = 140 ms; a last
    // one from the drained queue lasts probe_rtts 6 x 100 ms.
    let mut dr = yielding_to_cubic_as(Drive::receiver(on(), 6.0));
    // scripted_probe returns 3 RTTs after the probe's end.
    let len = |start: u64, done: u64| done - 300 * MS - start;
    let t = dr.core.next_tick().unwrap().as_nanos();
    yielding_ack(&mut dr, t - 500 * MS, 130 * MS);
    for k in 0..5 {
        yielding_ack(&mut dr, t + k * S, 60 * MS);
        assert!(!dr.core.probing(Instant::from_nanos(t + k * S)), "{k}");
        assert_eq!(
            dr.core.next_tick().map(|i| i.as_nanos()),
            Some(t + (k + 1) * S)
        );
    }
    let (done, _) = scripted_probe(&mut dr, t + 5 * S, 60 * MS, 70 * MS, 60 * MS);
    assert_eq!(len(t + 5 * S, done), 140 * MS);
    yielding_ack(&mut dr, done + 100 * MS, 130 * MS);
    yielding_ack(&mut dr, done + 200 * MS, MS);
    let (again, _) = scripted_probe(&mut dr, done + 300 * MS, 60 * MS, 70 * MS, 60 * MS);
    assert_eq!(len(done + 300 * MS, again), 140 * MS);
    let t = dr.core.next_tick().unwrap().as_nanos();
    let (last, _) = scripted_probe(&mut dr, t, MS, 2 * MS, MS);
    assert_eq!(len(t, last), 600 * MS);
    dr.check("a probe near TARGET after a high queue");
}

#[test]
fn a_receivers_standing_probe_lasts_its_rtts_with_its_push_length_alike_in_both_builds() {
    // As above with standing_probe_rtts 4: the probe from 60 ms (above eta) pushes for the
    // sender's 140 ms (pushing_probe, which sizes the receiver's window) but lasts
    // 4 x 100 ms; the one from the drained queue keeps probe_rtts' 600 ms and no push.
    let mut dr = yielding_to_cubic_as(Drive::with_owner(on(), 6.0, true, 4.0));
    let len = |start: u64, done: u64| done - 300 * MS - start;
    let t = dr.core.next_tick().unwrap().as_nanos();
    yielding_ack(&mut dr, t - 500 * MS, 130 * MS);
    let t = t + 5 * S;
    for k in 0..5 {
        yielding_ack(&mut dr, t - (5 - k) * S, 60 * MS);
    }
    let (done, _) = scripted_probe(&mut dr, t, 60 * MS, 70 * MS, 60 * MS);
    assert_eq!(len(t, done), 400 * MS);
    let pushes: Vec<_> = dr.outs.iter().filter_map(|o| o.pushing_probe).collect();
    assert!(
        !pushes.is_empty() && pushes.iter().all(|&l| l == 140 * MS),
        "{pushes:?}"
    );
    // Its successor is due 1 s x 400 / 140 = 2.86 s after the ACK that judged it, bounded
    // by KIN_CONFIRM / 2: 2.5 s.
    assert_eq!(
        dr.core.next_tick().map(|i| i.as_nanos()),
        Some(done + 2_500 * MS)
    );
    yielding_ack(&mut dr, done + 100 * MS, MS);
    let t = dr.core.next_tick().unwrap().as_nanos();
    let n = dr.outs.len();
    let (last, _) = scripted_probe(&mut dr, t, MS, 2 * MS, MS);
    assert_eq!(len(t, last), 600 * MS);
    assert!(dr.outs[n..].iter().all(|o| o.pushing_probe.is_none()));
    dr.check("a standing probe of 4 RTTs");
}

#[test]
fn a_receivers_rtt_fall_finds_our_kind_alike_in_both_builds() {
    // Yielding with the receiver's options (TARGET 100 ms, RTT 100 ms, base RTT 40 ms): two
    // probes from 30 ms of queue, peaking at 45 ms, after which it falls to 18 ms. 12 ms is
    // under push_drop x TARGET = 15 ms, so no finding by the sender's rule; with rtt_fall
    // over push_drop x (40 + 30) ms = 10.5 ms: our kind on the second fall, and the yield
    // ends. With rtt_fall the aftermath lasts 2 RTTs + (45 - 30) ms = 215 ms from its first
    // ACK (one RTT after the probe's end): the ACK 300 ms after that end is too early, the
    // one 100 ms later judges.
    for fall in [false, true] {
        let dr = Drive::receiver(on(), 6.0);
        let mut dr = yielding_to_cubic_as(if fall { dr.rtt_fall() } else { dr });
        // cubic's 130 ms stand half a second before the next probe is due, then HIGH_MEMORY
        // (5 s) at 30 ms, the probes due meanwhile skipped
        let t = dr.core.next_tick().unwrap().as_nanos();
        yielding_ack(&mut dr, t - 500 * MS, 130 * MS);
        let mut t = t + 5 * S;
        for k in 0..5 {
            yielding_ack(&mut dr, t - (5 - k) * S, 30 * MS);
        }
        for probe in 0..2 {
            let (done, a) = scripted_probe(&mut dr, t, 30 * MS, 45 * MS, 18 * MS);
            assert_eq!(a, Action::None, "{fall}: {probe}");
            yielding_ack(&mut dr, done + 100 * MS, 18 * MS);
            if probe == 0 {
                t = dr.core.next_tick().unwrap().as_nanos();
            }
        }
        assert_eq!(dr.core.yielding(), !fall, "{fall}");
        // with rtt_fall the yield ended at the ACK after the probe's, not before
        let last = dr.outs.last().unwrap();
        assert_eq!(last.action == 2 && last.resume == 0, fall, "{last:?}");
        dr.check(if fall { "rtt_fall" } else { "no rtt_fall" });
    }
}

#[test]
fn a_receivers_probes_on_a_standing_queue_alike_in_both_builds() {
    // Yielding with the receiver's options (TARGET 100 ms, eta 2 ms): a probe due at 10 ms
    // of queue is not run (the next a second later); one due at 30 ms (near TARGET: it
    // runs, once HIGH_MEMORY has passed) that adds 1 ms finds no room, while the sender's rule finds room twice and
    // resumes; from the drained queue the receiver finds room too, and resumes.
    for (dr, resumes) in [
        (Drive::receiver(on(), 6.0), false),
        (Drive::new(on()), true),
    ] {
        let mut dr = yielding_to_cubic_as(dr);
        let receiver = !resumes;
        if receiver {
            let t = dr.core.next_tick().unwrap().as_nanos();
            yielding_ack(&mut dr, t, 10 * MS);
            assert!(!dr.core.probing(Instant::from_nanos(t)));
            assert_eq!(dr.core.next_tick().map(|i| i.as_nanos()), Some(t + S));
        }
        // Nor, cubic's 130 ms having stood until the yield's last probe, one near TARGET
        // for HIGH_MEMORY (5 s) after: some are skipped before one at 30 ms runs.
        let mut first = None;
        let mut skipped = 0;
        while receiver && first.is_none() {
            let t = dr.core.next_tick().unwrap().as_nanos();
            yielding_ack(&mut dr, t, 30 * MS);
            if dr.core.probing(Instant::from_nanos(t)) {
                first = Some(t);
            } else {
                skipped += 1;
                assert!(skipped < 6, "no probe 6 s after the high queue");
            }
        }
        assert_eq!(skipped > 0, receiver);
        let mut resumed = false;
        for _ in 0..3 {
            let t = first
                .take()
                .unwrap_or_else(|| dr.core.next_tick().unwrap().as_nanos());
            let (_, a) = scripted_probe(&mut dr, t, 30 * MS, 31 * MS, 30 * MS);
            resumed |= matches!(a, Action::Resume(_));
            if resumed {
                break;
            }
        }
        assert_eq!(resumed, resumes);
        if receiver {
            for _ in 0..2 {
                let t = dr.core.next_tick().unwrap().as_nanos();
                let (_, a) = scripted_probe(&mut dr, t, MS, 2 * MS, MS);
                resumed |= matches!(a, Action::Resume(_));
            }
            assert!(resumed, "room from a drained queue");
        }
        dr.check("probes on a standing queue");
    }
}

#[test]
fn a_probertt_that_drains_then_settles_is_not_our_kind_alike_in_both_builds() {
    // Yielding to cubic, then the bed's trace beside bbr (docs/sidebyside/default.md): a
    // probe from 66 ms whose aftermath drains (bbr's ProbeRTT), a probe at once from the
    // empty queue, one from 42 ms after which bbr's queue settles 15 ms lower (>= push_drop
    // x TARGET), one from 27 ms after which it stands. Neither build takes it for our kind.
    let mut dr = yielding_to_cubic();
    let t = dr.core.next_tick().unwrap().as_nanos();
    let (done, a) = scripted_probe(&mut dr, t, 66 * MS, 80 * MS, 0);
    assert_eq!(a, Action::None);
    empty_then_probe(&mut dr, done);
    let t = dr.core.next_tick().unwrap().as_nanos();
    let (done, a) = scripted_probe(&mut dr, t, 42 * MS, 70 * MS, 27 * MS);
    assert_eq!(
        a,
        Action::None,
        "two falls, the first a drain: not yet our kind"
    );
    let t = dr.core.next_tick().unwrap().as_nanos();
    assert!(t > done);
    let (_, a) = scripted_probe(&mut dr, t, 27 * MS, 50 * MS, 27 * MS);
    assert_eq!(a, Action::None);
    assert!(dr.core.yielding());
    dr.check("probertt drain and settle");
}

#[test]
fn two_falls_with_the_queue_emptied_between_them_are_our_kind_alike_in_both_builds() {
    // Yielding to cubic, then a flow of our kind: its queue falls 15 ms after a probe from
    // 60 ms, drains between probes (its periodic slowdown), and falls again after the next
    // probe from 60 ms. Neither fall drained: both builds resume sharing at the second.
    let mut dr = yielding_to_cubic();
    let t = dr.core.next_tick().unwrap().as_nanos();
    let (done, a) = scripted_probe(&mut dr, t, 60 * MS, 75 * MS, 45 * MS);
    assert_eq!(a, Action::None);
    empty_then_probe(&mut dr, done);
    let t = dr.core.next_tick().unwrap().as_nanos();
    let (_, a) = scripted_probe(&mut dr, t, 60 * MS, 75 * MS, 45 * MS);
    assert_eq!(a, Action::Resume(0), "two falls, neither a drain: our kind");
    assert!(!dr.core.yielding());
    dr.check("two falls around a slowdown");
}

#[test]
fn a_push_met_by_another_push_is_void_alike_in_both_builds() {
    // The queue rises 1.4 times what the push added, more than DOUBLE_PUSH (1.25): no verdict.
    let dr = world(on(), 20 * MS, 100 * MS, 30, |t| {
        if t >= 2 * S {
            Other::Twin
        } else {
            Other::None
        }
    });
    dr.check("twin pushes");
    let last = dr.outs.last().unwrap();
    assert!(last.collisions >= 1 && last.detections == 0, "{last:?}");
}

#[test]
fn a_receivers_collision_quiets_it_alike_in_both_builds() {
    // The same twin pushes with the receiver's owner options: each collision also quiets
    // the tests (collision_quiets), which both builds must do at the same instants.
    let twin = |dr| {
        world_of(dr, 20 * MS, 100 * MS, 30, |t| {
            if t >= 2 * S {
                Other::Twin
            } else {
                Other::None
            }
        })
    };
    let dr = twin(Drive::receiver(on(), 6.0));
    dr.check("twin pushes, the receiver's options");
    let last = dr.outs.last().unwrap();
    assert!(last.collisions >= 1 && last.detections == 0, "{last:?}");
    // Quiet after each collision: fewer pushes, hence fewer collisions and tests, than
    // with the sender's rule.
    let other = twin(Drive::with_owner(on(), 6.0, false, 0.0));
    other.check("twin pushes, the receiver's options but collision_quiets");
    let o = other.outs.last().unwrap();
    assert!(
        last.collisions + last.tests < o.collisions + o.tests,
        "quiet: {last:?}; not: {o:?}"
    );
}

/// A push test at TARGET 60 ms, RTT 100 ms, the flow at half of C = 1.25 MB/s and the queue
/// at 60 ms, whose queue is `after` (ns) from 2 to 4 RTTs after it began; returns the
/// detection after the test ended.
fn push_met_by(after: u64) -> Drive {
    let (target, rtt, eta) = (60 * MS, 100 * MS, 2 * MS);
    let mut dr = Drive::new(on());
    let avoid = |dr: &mut Drive, now: u64, qd: u64, rate: Option<(u64, bool)>| {
        dr.ack(
            now,
            qd,
            target,
            rtt,
            eta,
            FlowPhase::Avoidance,
            rate,
            now,
            75_000,
        )
    };
    avoid(&mut dr, 0, 0, Some((1_250_000, false)));
    let mut t = S;
    while !dr.core.pushing() {
        avoid(&mut dr, t, 60 * MS, Some((625_000, false)));
        t += 100 * MS;
    }
    let t = t - 100 * MS;
    for k in [250, 300, 350] {
        avoid(&mut dr, t + k * MS, after, None);
    }
    dr.poll(t + 400 * MS, after, rtt);
    assert!(!dr.core.pushing());
    dr
}

#[test]
fn a_push_the_others_back_off_from_by_more_than_push_drop_is_negative_alike_in_both_builds() {
    // 60 -> 50 ms: 10 ms >= push_drop (0.15) x 60 ms = 9 ms, negative; 60 -> 53 ms: 7 ms,
    // positive.
    let dr = push_met_by(50 * MS);
    dr.check("a push met by a 10-ms fall");
    assert_eq!(dr.core.tests(), 1);
    assert!(!dr.core.confirming(), "negative");
    let dr = push_met_by(53 * MS);
    dr.check("a push met by a 7-ms fall");
    assert!(dr.core.confirming(), "positive");
}

/// A newcomer's start-up in the owner's ramp (TARGET 60 ms, RTT 60 ms): the queue at 100
/// ms at 0.5 s (or as given); then suspicions at 50 ms of queue (below 1.1 TARGET) and 30 %
/// of C, and the holds they ask for.
struct Startup {
    dr: Drive,
    t: u64,
}

impl Startup {
    const RTT: u64 = 60 * MS;

    fn new() -> Self {
        Self::with_ramp(100 * MS)
    }

    /// The ramp's queue `qd` (ns) instead of 100 ms.
    fn with_ramp(qd: u64) -> Self {
        Self::with(qd, 40 * MS)
    }

    /// The ramp's queue `qd` on a path of base RTT `base` (ns; 40 ms in the others).
    fn with(qd: u64, base: u64) -> Self {
        let mut s = Startup {
            dr: Drive::new(on()),
            t: 0,
        };
        s.dr.base_rtt = base;
        s.ack(0, FlowPhase::Avoidance, Some(1_250_000));
        s.t = 500 * MS;
        s.ack(qd, FlowPhase::Ramp, None);
        s
    }

    fn ack(&mut self, qd: u64, phase: FlowPhase, rate: Option<u64>) -> Action {
        let t = self.t;
        self.dr.ack(
            t,
            qd,
            60 * MS,
            Self::RTT,
            2 * MS,
            phase,
            rate.map(|r| (r, false)),
            t - Self::RTT,
            45_000,
        )
    }

    /// Suspects from `from` (ns) until a test: when (ns), and whether a hold (else a push).
    fn suspect(&mut self, from: u64) -> (u64, bool) {
        self.t = from;
        loop {
            if self.ack(50 * MS, FlowPhase::Avoidance, Some(375_000)) == Action::Test {
                return (self.t, true);
            }
            if self.dr.core.pushing() {
                return (self.t, false);
            }
            self.t += Self::RTT;
            assert!(self.t < from + 2 * S, "no test from {from}");
        }
    }

    /// A test's hold of 4 RTTs from now, the queue at `qd` after its first RTT.
    fn hold(&mut self, qd: u64) {
        self.dr.hold_started(self.t, Self::RTT);
        for _ in 0..4 {
            self.t += Self::RTT;
            self.ack(qd, FlowPhase::OwnHold, None);
        }
        self.dr.hold_ended(self.t, 2 * MS, 1500);
    }
}

#[test]
fn a_start_up_in_the_ramp_makes_the_tests_holds_alike_in_both_builds() {
    // Two positive holds (20 ms of queue left): the flow yields; the second comes after the
    // start-up's memory (5 s), held because the first was positive.
    let mut s = Startup::new();
    assert!(s.suspect(S).1, "a hold, not a push");
    s.hold(20 * MS);
    assert!(s.dr.core.confirming());
    assert!(s.suspect(6 * S).1, "held again after 5 s: confirming");
    s.hold(20 * MS);
    assert!(s.dr.core.yielding());
    // A negative hold (the queue drained: our kind joined it) ends the rule: after the quiet
    // time (2 s) a suspicion from 4 s, inside the start-up's 5 s, pushes.
    let mut s2 = Startup::new();
    assert!(s2.suspect(S).1, "a hold");
    s2.hold(0);
    assert!(!s2.dr.core.confirming());
    assert!(!s2.suspect(4 * S).1, "a push after a negative hold");
    s.dr.check("a start-up, two holds");
    s2.dr.check("a start-up, a negative hold, a push");
    // The edges: 90 ms is not above 1.5 TARGET; a test due less than 5 s after the
    // start-up holds, one due later pushes (suspicions from 4.6 to 5.3 s, 20 ms apart: the
    // tests come 4 to 8 RTTs after, on a 20-ms grid around the edge at 5.5 s).
    let mut s3 = Startup::with_ramp(90 * MS);
    assert!(!s3.suspect(S).1, "90 ms: a push");
    s3.dr.check("a ramp at 1.5 TARGET");
    // Under the bound on the base RTT (30 ms) the same start-up is not noted: a push at
    // 29 ms, a hold at 30 ms.
    let mut s4 = Startup::with(100 * MS, 29 * MS);
    assert!(!s4.suspect(S).1, "base 29 ms: a push");
    s4.dr.check("a start-up at a base RTT of 29 ms");
    let mut s5 = Startup::with(100 * MS, 30 * MS);
    assert!(s5.suspect(S).1, "base 30 ms: a hold");
    s5.dr.check("a start-up at a base RTT of 30 ms");
    let (mut held, mut pushed) = (0, 0);
    for from in (4_600..=5_300).step_by(20) {
        let mut s = Startup::new();
        let (t, hold) = s.suspect(from * MS);
        assert_eq!(hold, t < 5_500 * MS, "from {from} ms: a test at {t} ns");
        held += hold as u32;
        pushed += !hold as u32;
        s.dr.check(&format!("a suspicion from {from} ms"));
    }
    assert!(held > 0 && pushed > 0, "{held} held, {pushed} pushed");
}

#[test]
fn the_detection_off_only_measures() {
    let mut dr = Drive::new(CompetitorConfig::default());
    for k in 1..200u64 {
        let rate = (k % 5 == 0).then_some((1_000_000 + k, false));
        dr.ack(
            k * 10 * MS,
            70 * MS,
            100 * MS,
            110 * MS,
            2 * MS,
            FlowPhase::Avoidance,
            rate,
            k * MS,
            60_000,
        );
    }
    dr.check("off");
    assert!(dr.outs.iter().all(|o| o.action == 0 && o.stage == 0));
    assert!(dr.outs.last().unwrap().path_rate > 0);
}

pub mod random {
    //! Random call sequences (proptest): what no world produces.
    use super::*;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    pub enum Call {
        Poll(u64, u64),
        Hold(u64),
        HoldEnd(u64),
        Ack(u64, u64, u8, Option<(u64, bool)>, u64, u64),
    }

    pub fn arb_calls() -> impl Strategy<Value = Vec<Call>> {
        let call = prop_oneof![
            (1..300u64, 0..200u64).prop_map(|(dt, q)| Call::Poll(dt, q)),
            (1..300u64).prop_map(Call::Hold),
            (1..300u64).prop_map(Call::HoldEnd),
            (
                1..300u64,
                0..200u64,
                0..4u8,
                prop::option::of((1_000u64..3_000_000, any::<bool>())),
                0..400u64,
                0..100u64
            )
                .prop_map(|(dt, q, ph, r, back, fl)| Call::Ack(dt, q, ph, r, back, fl)),
        ];
        prop::collection::vec(call, 1..400)
    }

    pub fn run(calls: &[Call], cfg: CompetitorConfig) {
        drive(Drive::new(cfg), calls);
    }

    /// With the receiver's owner options (csrc/rledbat.h's: busy from eta, 6-RTT probes),
    /// probes from a standing queue of at least `standing_rtts` RTTs, and `rtt_fall` when
    /// asked.
    pub fn run_receiver(calls: &[Call], cfg: CompetitorConfig, standing_rtts: f64, fall: bool) {
        let dr = Drive::with_owner(cfg, 6.0, true, standing_rtts);
        drive(if fall { dr.rtt_fall() } else { dr }, calls);
    }

    /// Compared up to the first exact tie of a rate with a share (`Competitor::at_threshold`).
    fn drive(mut dr: Drive, calls: &[Call]) {
        dr.end_at_tie = true;
        let mut t = 0;
        let rtt = 50 * MS;
        // the base RTT on either side of the start-up rule's bound, a second of each
        for c in calls {
            match *c {
                Call::Poll(dt, q) => {
                    t += dt * MS;
                    dr.poll(t, q * MS, rtt);
                }
                Call::Hold(dt) => {
                    t += dt * MS;
                    dr.hold_started(t, rtt);
                }
                Call::HoldEnd(dt) => {
                    t += dt * MS;
                    dr.hold_ended(t, 2 * MS, 1500);
                }
                Call::Ack(dt, q, ph, r, back, fl) => {
                    t += dt * MS;
                    dr.base_rtt = if (t / S).is_multiple_of(2) {
                        40 * MS
                    } else {
                        20 * MS
                    };
                    let phase = [
                        FlowPhase::Avoidance,
                        FlowPhase::OwnHold,
                        FlowPhase::Other,
                        FlowPhase::Ramp,
                    ][ph as usize];
                    dr.ack(
                        t,
                        q * MS,
                        60 * MS,
                        rtt + q * MS,
                        2 * MS,
                        phase,
                        r,
                        t.saturating_sub(back * MS),
                        fl * 1500,
                    );
                }
            }
        }
        dr.check("random");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    #[test]
    fn rate_samples_agree(acks in proptest::collection::vec((0..120u64, 0..40_000u64, proptest::bool::weighted(0.1)), 1..300), short in proptest::bool::ANY) {
        // SpanRate: the C's sample is the floor of the core's f64 (within its rounding)
        let min_span = if short { 50 * MS } else { 200 * MS };
        let mut core = ledbat_core::delivery::SpanRate::new();
        let mut input = format!("params{}\n", " 0".repeat(ledbat_tcp::params::COMP_WORDS));
        let (mut t, mut delivered) = (0, 0);
        let mut want = Vec::new();
        for &(dt, bytes, app) in &acks {
            t += dt * MS;
            delivered += bytes;
            let _ = writeln!(input, "span {t} {delivered} {} {min_span}", app as u8);
            want.push(core.on_ack(at(t), delivered, app, d(min_span)));
        }
        let text = run_tool(input);
        let got: Vec<&str> = text.lines().collect();
        proptest::prop_assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let f: Vec<&str> = g.split(' ').collect();
            match w {
                None => proptest::prop_assert_eq!(f[0], "-", "ACK {}", i),
                Some((r, lim)) => {
                    let c: f64 = f[0].parse().expect("rate");
                    proptest::prop_assert!(c <= r + 1e-6 * r && r - c < 1.0 + 1e-9 * r, "ACK {}: core {} c {}", i, r, c);
                    proptest::prop_assert_eq!(f[1] == "1", *lim, "ACK {}", i);
                }
            }
        }
    }

    #[test]
    fn random_calls_agree(calls in random::arb_calls()) {
        random::run(&calls, on());
        random::run(&calls, CompetitorConfig {
            min_share: 0.0,
            tests: 1,
            test_gap: Duration::ZERO,
            ..on()
        });
        random::run(&calls, CompetitorConfig {
            periodic_positive: true,
            ..on()
        });
        random::run_receiver(&calls, on(), 0.0, false);
        random::run_receiver(&calls, on(), 3.0, false);
        random::run_receiver(&calls, on(), 3.0, true);
    }
}
