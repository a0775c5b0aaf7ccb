//! The two sides of the comparison: ledbat-core's controller, and the replay tool (the BPF
//! object's arithmetic compiled for the host), fed the same events.

use ledbat_core::{AnyController, Controller};
use ledbat_tcp::params::LbParams;
pub use ledbat_tcp::trace::{apply, Event as Ev};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// The replay tool's input line of an event (csrc/replay.c).
trait Line {
    fn line(&self, out: &mut String);
}

impl Line for Ev {
    fn line(&self, out: &mut String) {
        let opt = |v: Option<u64>| v.map_or("-".to_string(), |x| x.to_string());
        let _ = match *self {
            Ev::Ack {
                now,
                bytes,
                packets,
                flight,
                newest_sent,
                rtt,
                delay,
            } => writeln!(
                out,
                "ack {now} {bytes} {packets} {flight} {newest_sent} {} {}",
                opt(rtt),
                opt(delay.map(u64::from))
            ),
            Ev::Loss {
                now,
                sent_at,
                in_flight,
                ..
            } => writeln!(out, "loss {now} {sent_at} {in_flight}"),
            Ev::Timeout { now, rto } => {
                writeln!(out, "timeout {now} {}", if rto { "rto" } else { "idle" })
            }
            Ev::Sent { now, in_flight, .. } => writeln!(out, "sent {now} {in_flight}"),
            Ev::Tick { now } => writeln!(out, "tick {now}"),
            Ev::DelaySource { now, .. } => writeln!(out, "source {now}"),
        };
    }
}

/// The replay tool's input line of `e` (csrc/replay.c), newline included.
pub fn event_line(e: &Ev) -> String {
    let mut out = String::new();
    e.line(&mut out);
    out
}

/// What both sides report after an event.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Window in bytes, fractional (the replay tool's 32.32 value, or the core's f64).
    pub cwnd: f64,
    /// Whole bytes (`Controller::window`).
    pub window: u64,
    /// 0 slow start, 1 avoidance, 2 slowdown, 3 ramp, 4 TCP-LP inference, 5 yielding to a
    /// competitor, 6 yielding and probing.
    pub phase: u32,
    pub qd: Option<u64>,
    pub slowdowns: u64,
    pub next_tick: Option<u64>,
    pub base: Option<u64>,
    /// The competitor detection (0 with it off): its stage in avoidance (0 watching,
    /// 1 suspect, 2 push test, 3 quiet), detections, tests, the path's rate (bytes/s, the
    /// core's `f64`) and the pacing rate while yielding.
    pub stage: u32,
    pub detections: u64,
    pub tests: u64,
    pub path_rate: f64,
    pub pacing: Option<u64>,
    /// TCP-LP's delay state (`None` for the other controllers).
    pub lp: Option<LpState>,
}

/// TCP-LP's delays, microseconds relative to the first sample (the replay tool's 48.16
/// fixed point, or the core's `f64`), and that first sample (`origin`, exact on both sides):
/// the core's own record of them.
pub use ledbat_core::tcp_lp::LpDelays as LpState;

/// TCP-LP's five relative delays with their names, in order.
pub fn lp_delays(s: &LpState) -> [(&'static str, Option<f64>); 5] {
    [
        ("smoothed", s.smoothed),
        ("d_min", s.d_min),
        ("d_max", s.d_max),
        ("d_max_rsv", s.d_max_rsv),
        ("lowest", s.lowest),
    ]
}

/// Runs the replay tool on `events` and returns its state after each one.
pub fn replay(params: &LbParams, mss: u32, events: &[Ev]) -> Vec<Step> {
    let mut body = String::with_capacity(events.len() * 48);
    for e in events {
        e.line(&mut body);
    }
    let lines = replay_lines(params, mss, &body);
    let steps: Vec<Step> = lines.iter().map(|l| parse_step(l)).collect();
    // `init` prints a line too.
    assert_eq!(steps.len(), events.len() + 1, "one line per event");
    steps[1..].to_vec()
}

/// Runs the replay tool on the command lines `body` (csrc/replay.c) after `params` and
/// `init`; returns its output lines, `init`'s first.
pub fn replay_lines(params: &LbParams, mss: u32, body: &str) -> Vec<String> {
    let mut input = String::with_capacity(body.len() + 512);
    input.push_str("params");
    for w in params.to_words() {
        let _ = write!(input, " {w}");
    }
    // TCP-LP's state lines carry its delay state too (the other controllers' do not change)
    let _ = writeln!(input, "\nlpstate\ninit {mss}");
    input.push_str(body);
    run_tool(input)
}

/// Runs the replay tool (csrc/replay.c) on the command lines `input`; returns its output
/// lines. The input is written from a thread of its own, so that a long one cannot
/// deadlock against the tool's output.
pub fn run_tool(input: String) -> Vec<String> {
    let mut child = Command::new(ledbat_tcp::REPLAY_TOOL)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the replay tool runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("replay output");
    writer.join().expect("writer").expect("write trace");
    assert!(
        out.status.success(),
        "replay failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    text.lines().map(str::to_string).collect()
}

/// One state line of the replay tool.
pub fn parse_step(line: &str) -> Step {
    let f: Vec<&str> = line.split(' ').collect();
    assert!(f.len() == 12 || f.len() == 18, "replay line `{line}`");
    let opt = |s: &str| (s != "-").then(|| s.parse::<u64>().expect("number"));
    let signed = |s: &str| (s != "-").then(|| s.parse::<i64>().expect("number"));
    let q16 = |s: &str| signed(s).map(|v| v as f64 / 65_536.0);
    let lp = (f.len() == 18).then(|| LpState {
        origin: signed(f[12]),
        smoothed: q16(f[13]),
        d_min: q16(f[14]),
        d_max: q16(f[15]),
        d_max_rsv: q16(f[16]),
        lowest: q16(f[17]),
    });
    let q32: u64 = f[0].parse().expect("cwnd");
    Step {
        cwnd: q32 as f64 / 4_294_967_296.0,
        window: f[1].parse().expect("window"),
        phase: f[2].parse().expect("phase"),
        qd: opt(f[3]),
        slowdowns: f[4].parse().expect("slowdowns"),
        next_tick: opt(f[5]),
        base: opt(f[6]),
        stage: f[7].parse().expect("stage"),
        detections: f[8].parse().expect("detections"),
        tests: f[9].parse().expect("tests"),
        path_rate: f[10].parse::<u64>().expect("path rate") as f64,
        pacing: opt(f[11]),
        lp,
    }
}

/// The core's state in the replay tool's terms.
pub fn snapshot(c: &AnyController) -> Step {
    let m = c.metrics();
    let mut comp = (0, 0, 0.0);
    let lp_state = match c {
        AnyController::TcpLp(x) => Some(x.delays()),
        _ => None,
    };
    let (cwnd, slowdowns) = match c {
        AnyController::Ledbat(x) => (x.state().cwnd, 0),
        AnyController::LinearMin(x) => (x.state().cwnd, 0),
        AnyController::Md(x) => (x.state().cwnd, 0),
        AnyController::MdVar(x) => (x.state().cwnd, 0),
        AnyController::LedbatPp(x) | AnyController::Scavenger(x) => {
            let d = x.competitor();
            if d.enabled() {
                comp = (d.detections(), d.tests(), d.path_rate());
            }
            (x.state().cwnd, x.slowdowns())
        }
        AnyController::TcpLp(x) => (x.reno().cwnd, 0),
        other => panic!("{} has no kernel build", other.name()),
    };
    let (phase, stage) = match m.state {
        "slow-start" => (0, 0),
        "avoidance" => (1, 0),
        "avoidance-suspect" => (1, 1),
        "avoidance-push-test" => (1, 2),
        "avoidance-quiet" => (1, 3),
        "slowdown" => (2, 0),
        "slowdown-ramp" => (3, 0),
        "inference" => (4, 0),
        "yield" => (5, 0),
        "yield-probe" => (6, 0),
        other => panic!("unknown phase {other}"),
    };
    let lp = matches!(c, AnyController::TcpLp(_));
    Step {
        cwnd,
        window: c.window(),
        phase,
        qd: if lp {
            None
        } else {
            m.queuing_delay.map(|d| d.as_nanos())
        },
        slowdowns,
        next_tick: c.next_tick().map(|t| t.as_nanos()),
        base: if lp {
            None
        } else {
            m.base_delay.map(|d| d.as_nanos())
        },
        stage,
        detections: comp.0,
        tests: comp.1,
        path_rate: comp.2,
        pacing: c.pacing_rate(),
        lp: lp_state,
    }
}
