//! The Reno fallback of bpf/ledbat.bpf.c on the running kernel: the BPF lines that copy a
//! connection's `tcp_sock` fields into csrc/lbcc_reno.h and its results back, which the
//! differential test cannot reach (it runs the C on the host).
//!
//! A connection gets the fallback when init cannot allocate its socket storage, which no
//! test can make the kernel do on demand. tests/fallback/nostate.bpf.c is ledbat.bpf.c
//! compiled with the storage's creation flag at 0 (the shipped objects stay as they are):
//! every connection is then one without state. The test compiles it with clang as build.rs
//! compiles the shipped objects, registers it under a name of its own
//! (`loader::load_object`), and sends for [`SEND_FOR`] from one network namespace to
//! another through a third, a router whose `tbf` is the bottleneck ([`RATE`], a FIFO of
//! [`FIFO_FRAMES`] full frames). The sender (tests/fallback/send.c, built with the same
//! clang) keeps more queued than the window and reads its socket's `tcp_info` every
//! 200 µs; the test checks, against Reno's rules (Linux's tcp_slow_start, tcp_cong_avoid_ai
//! and tcp_reno_ssthresh, as csrc/lbcc_reno.h restates them):
//!
//! 1. `lb_no_state` counts the connection, and [`loader::list`] (`ledbat tcp list`) shows it;
//! 2. slow start: the window starts at 10 packets and, in Open with ssthresh infinite, grows
//!    by one packet per packet delivered; avoidance: in Open between congestion events it
//!    grows by one packet per window delivered;
//! 3. every congestion event sets `snd_ssthresh` to `max(cwnd / 2, 2)` of the window it
//!    came at;
//! 4. undo: in one more transfer the router's `tbf` holds the path for longer than the RTO
//!    ([`STALL_AFTER`]); the kernel finds the timeout spurious (TcpExt TCPLossUndo counts
//!    it) and the first reading after Loss has at least the window before it, Reno's
//!    `max(cwnd, prior_cwnd)`, not what Loss left.
//!
//! Needs root, clang, `ip`, `tc`, `ethtool` and a kernel with BTF and BPF congestion
//! controls; skipped without them, unless `LEDBAT_KERNEL_TESTS=1` (as .ci/run's kernel step
//! sets), which makes a missing requirement a failure. Names (namespaces, the controller)
//! start with `LEDBAT_TEST_TAG` (default `lbt`) and this process's id; the namespaces and
//! the controller are removed when the test ends, whether it passes or fails.
#![cfg(all(target_os = "linux", feature = "bpf"))]

use ledbat_tcp::loader::{self, LoadError};
use ledbat_tcp::params::TcpController;
use std::io::Read;
use std::net::TcpListener;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the sender writes.
const SEND_FOR: Duration = Duration::from_secs(3);
/// The bottleneck's rate (tc's syntax), and its FIFO in full frames (1514 bytes each, as tbf
/// counts them): tail drops when the window passes about the FIFO.
const RATE: &str = "10mbit";
const FIFO_FRAMES: u32 = 20;
/// How many transfers of each kind (plain, stalled) may be made before the test fails:
/// the first that passes every check ends them. The copy under test is deterministic, so a
/// fault in it fails every transfer; but kernel 6.18.44 now and then sets a congestion
/// control's result to a value the BPF program cannot have returned (an `snd_ssthresh`
/// above 2^31 or hundreds of millions for a window of 40 packets; an undo's window of 1
/// where the program returns at least the 19 before the timeout): in 5 of about 180
/// transfers on this test's bed, and never with the kernel's own reno (docs/tcp/README.md,
/// "The Reno fallback on a running kernel"). Three tries make a failure of the test from
/// those alone about one run in 20,000.
const TRIES: u32 = 3;
/// TCP_INFINITE_SSTHRESH: the kernel's "no ssthresh yet" (slow start).
const INFINITE: u32 = 0x7fff_ffff;
/// TCP_INIT_CWND.
const INIT_CWND: u32 = 10;
/// `tcp_ca_state`.
const CA_OPEN: u8 = 0;
const CA_DISORDER: u8 = 1;
const CA_LOSS: u8 = 4;
/// The undo transfer's stall: from this long after the sender starts, the router's `tbf`
/// sends at [`STALL_RATE`] for [`STALL_FOR`], longer than any RTO the connection can have
/// by then (200 ms and the RTT), then at [`RATE`] again.
const STALL_AFTER: Duration = Duration::from_millis(1500);
const STALL_FOR: Duration = Duration::from_millis(800);
const STALL_RATE: &str = "8kbit";

const SND_ADDR: &str = "10.201.1.1";
const RTR_SND_ADDR: &str = "10.201.1.2";
const RTR_RCV_ADDR: &str = "10.201.2.1";
const RCV_ADDR: &str = "10.201.2.2";
const PORT: u16 = 5201;

/// What the checks read of one `tcp_info`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sample {
    ca_state: u8,
    cwnd: u32,
    ssthresh: u32,
    delivered: u32,
    total_retrans: u32,
}

impl Sample {
    /// A line `s CA_STATE SND_CWND SND_SSTHRESH DELIVERED TOTAL_RETRANS` of
    /// tests/fallback/send.c.
    fn parse(line: &str) -> Option<Sample> {
        let mut w = line.strip_prefix("s ")?.split(' ');
        let mut next = || w.next()?.parse::<u32>().ok();
        Some(Sample {
            ca_state: u8::try_from(next()?).ok()?,
            cwnd: next()?,
            ssthresh: next()?,
            delivered: next()?,
            total_retrans: next()?,
        })
    }

    fn open(&self) -> bool {
        self.ca_state == CA_OPEN
    }

    /// Not in a reduction of the kernel's (CWR, Recovery, Loss).
    fn unreduced(&self) -> bool {
        self.ca_state == CA_OPEN || self.ca_state == CA_DISORDER
    }
}

/// `tcp_reno_ssthresh`.
fn reno_ssthresh(cwnd: u32) -> u32 {
    (cwnd / 2).max(2)
}

/// What the checks found, for the test's output.
#[derive(Debug, Default, PartialEq)]
struct Found {
    /// The window when slow start ended (the last Open sample with ssthresh infinite).
    slow_start_to: u32,
    /// Per congestion event: the window range it came at, and the ssthresh set.
    events: Vec<(u32, u32, u32)>,
    /// Avoidance stretches: window from, window to, packets delivered meanwhile.
    avoidance: Vec<(u32, u32, u32)>,
}

/// Checks a connection's samples against Reno (see the module comment); the first
/// contradiction is the error.
fn check_reno(s: &[Sample]) -> Result<Found, String> {
    let mut found = Found::default();
    let first = s.first().ok_or("no samples")?;
    if first.cwnd != INIT_CWND || first.ssthresh < INFINITE {
        return Err(format!(
            "the connection started with cwnd {} ssthresh {}, not {INIT_CWND} and infinite",
            first.cwnd, first.ssthresh
        ));
    }
    // 2. slow start: one packet more per packet delivered, never more; Reno grows only
    // while the window limits the sender (tcp_is_cwnd_limited, which tcp_info does not
    // show), and now and then an ACK finds it not limited, so the growth over slow start is
    // required to be at least 3/4 of a packet per packet delivered, not all of it
    let reno = |d: u32| first.cwnd + d.wrapping_sub(first.delivered);
    let mut last = *first;
    for (i, x) in s.iter().enumerate() {
        if !x.open() || x.ssthresh < INFINITE || x.total_retrans != 0 {
            break;
        }
        if x.cwnd > reno(x.delivered) {
            return Err(format!(
                "slow start, sample {i}: cwnd {} after {} packets delivered, more than \
                 Reno's {}",
                x.cwnd,
                x.delivered.wrapping_sub(first.delivered),
                reno(x.delivered)
            ));
        }
        if x.cwnd < last.cwnd {
            return Err(format!(
                "slow start, sample {i}: the window fell from {} to {}",
                last.cwnd, x.cwnd
            ));
        }
        last = *x;
    }
    found.slow_start_to = last.cwnd;
    let (grew, delivered) = (
        last.cwnd - first.cwnd,
        last.delivered.wrapping_sub(first.delivered),
    );
    if u64::from(grew) * 4 < u64::from(delivered) * 3 {
        return Err(format!(
            "slow start: the window grew by {grew} packets over {delivered} delivered, less \
             than 3/4 of Reno's one per packet"
        ));
    }
    if found.slow_start_to < 2 * INIT_CWND {
        return Err(format!(
            "slow start ended at cwnd {}: too short to show growth",
            found.slow_start_to
        ));
    }
    // 3. each congestion event: ssthresh = max(cwnd / 2, 2) of the window it came at, which
    // lies between the last sample before it and that window grown by what was delivered
    // since (one per packet in slow start, one per window in avoidance)
    for (i, w) in s.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if !a.unreduced() || b.unreduced() {
            continue;
        }
        let delivered = b.delivered.wrapping_sub(a.delivered);
        let hi = if a.ssthresh >= INFINITE {
            a.cwnd + delivered
        } else {
            a.cwnd + delivered / a.cwnd.max(1) + 1
        };
        let (lo_s, hi_s) = (reno_ssthresh(a.cwnd), reno_ssthresh(hi));
        if b.ssthresh < lo_s || b.ssthresh > hi_s {
            return Err(format!(
                "congestion event at sample {}: ssthresh {} for a window of {}..={} packets, \
                 Reno's {lo_s}..={hi_s}",
                i + 1,
                b.ssthresh,
                a.cwnd,
                hi
            ));
        }
        found.events.push((a.cwnd, hi, b.ssthresh));
    }
    // 2. avoidance: stretches of Open samples with one ssthresh and no retransmission; from
    // window c0 to c1 Reno delivers sum(c0..c1) packets, give or take what snd_cwnd_cnt held
    // at either end (less than a window each; one more window after a reduction, where the
    // count may exceed the smaller window and add a packet at once), and up to one window
    // more at the start: right after a reduction the data in flight is below the window, and
    // the kernel grows no window that does not limit (tcp_is_cwnd_limited)
    let mut i = 0;
    while i < s.len() {
        let a = s[i];
        if !(a.open() && a.ssthresh < INFINITE && a.cwnd >= a.ssthresh) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j + 1 < s.len() {
            let n = s[j + 1];
            if !n.open() || n.ssthresh != a.ssthresh || n.total_retrans != a.total_retrans {
                break;
            }
            j += 1;
        }
        let b = s[j];
        let delivered = b.delivered.wrapping_sub(a.delivered);
        if b.cwnd < a.cwnd {
            return Err(format!(
                "avoidance, samples {i}..={j}: the window fell from {} to {} without a \
                 congestion event",
                a.cwnd, b.cwnd
            ));
        }
        let reno: u64 = (a.cwnd..b.cwnd).map(u64::from).sum();
        let (lo, hi) = (
            reno.saturating_sub(2 * u64::from(b.cwnd) + 2),
            reno + u64::from(b.cwnd) + u64::from(a.cwnd) + 2,
        );
        let d = u64::from(delivered);
        if d < lo || d > hi {
            return Err(format!(
                "avoidance, samples {i}..={j}: the window went from {} to {} over {d} packets \
                 delivered, Reno's {reno} (within {lo}..={hi})",
                a.cwnd, b.cwnd
            ));
        }
        found.avoidance.push((a.cwnd, b.cwnd, delivered));
        i = j + 1;
    }
    if found.events.len() < 2 {
        return Err(format!(
            "{} congestion events: none in avoidance to check",
            found.events.len()
        ));
    }
    if !found.avoidance.iter().any(|&(c0, c1, _)| c1 >= c0 + 3) {
        return Err(format!(
            "no avoidance stretch grew by 3 packets or more: {:?}",
            found.avoidance
        ));
    }
    Ok(found)
}

/// Checks the undo transfer's samples (see [`STALL_AFTER`]): the kernel found the RTO
/// spurious and set the window to what `undo_cwnd` returned, Reno's `max(cwnd,
/// prior_cwnd)`, at least the window before the reduction (the last reading in Open or
/// Disorder before the first in Loss; no ACK arrives in the stall to grow it). A window that
/// stays at what Loss left (slow start from one packet) fails. Returns the window before
/// and the first after Loss.
fn check_undo(s: &[Sample]) -> Result<(u32, u32), String> {
    let loss = s
        .iter()
        .position(|x| x.ca_state == CA_LOSS)
        .ok_or("no reading in Loss: the stall made no timeout")?;
    let before = s[..loss]
        .iter()
        .rev()
        .find(|x| x.unreduced())
        .ok_or("no reading in Open or Disorder before the timeout")?;
    let (i, after) = s[loss..]
        .iter()
        .enumerate()
        .find(|(_, x)| x.ca_state != CA_LOSS)
        .ok_or("the connection never left Loss")?;
    if after.cwnd < before.cwnd {
        return Err(format!(
            "undo: the window before the timeout was {}, the first reading after Loss \
             (sample {}, state {}) has {}, not Reno's max(cwnd, prior_cwnd)",
            before.cwnd,
            loss + i,
            after.ca_state,
            after.cwnd
        ));
    }
    Ok((before.cwnd, after.cwnd))
}

/// Why this machine cannot run the test, if it cannot.
fn missing() -> Option<String> {
    if !rustix::process::geteuid().is_root() {
        return Some("not root".into());
    }
    if !Path::new("/sys/kernel/btf/vmlinux").exists() {
        return Some("no kernel BTF".into());
    }
    for (tool, arg) in [
        (clang().as_str(), "--version"),
        ("ip", "-V"),
        ("tc", "-V"),
        ("ethtool", "--version"),
    ] {
        if !Command::new(tool)
            .arg(arg)
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(format!("`{tool}` does not run"));
        }
    }
    None
}

/// A missing requirement fails the test with `LEDBAT_KERNEL_TESTS=1`, else skips it.
fn skip(why: &str) {
    if std::env::var("LEDBAT_KERNEL_TESTS").is_ok_and(|v| v == "1") {
        panic!("LEDBAT_KERNEL_TESTS=1 but the kernel test cannot run: {why}");
    }
    eprintln!("skipped: {why}");
}

fn clang() -> String {
    std::env::var("CLANG").unwrap_or_else(|_| "clang".into())
}

fn compile(args: &[&std::ffi::OsStr], what: &str) {
    let o = Command::new(clang())
        .args(args)
        .output()
        .expect("clang runs");
    assert!(
        o.status.success(),
        "clang failed on {what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// tests/fallback/nostate.bpf.c compiled with build.rs's flags, and the sender
/// tests/fallback/send.c for this machine, into `dir`: the object's bytes and the sender's
/// path.
fn build(dir: &Path) -> (Vec<u8>, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fallback");
    let object = dir.join("nostate.bpf.o");
    let include = format!("-I{}", env!("LEDBAT_BPF_INCLUDE"));
    let mut args: Vec<&std::ffi::OsStr> = env!("LEDBAT_BPF_CLANG_FLAGS")
        .split(' ')
        .map(std::ffi::OsStr::new)
        .collect();
    let nostate = src.join("nostate.bpf.c");
    args.extend([
        include.as_ref(),
        "-c".as_ref(),
        nostate.as_os_str(),
        "-o".as_ref(),
        object.as_os_str(),
    ]);
    compile(&args, "tests/fallback/nostate.bpf.c");
    let sender = dir.join("send");
    let send_c = src.join("send.c");
    compile(
        &[
            "-O2".as_ref(),
            "-Wall".as_ref(),
            "-Wextra".as_ref(),
            "-Werror".as_ref(),
            send_c.as_os_str(),
            "-o".as_ref(),
            sender.as_os_str(),
        ],
        "tests/fallback/send.c",
    );
    (std::fs::read(&object).unwrap(), sender)
}

/// Runs a command, which must succeed; its standard output.
fn run(args: &[&str]) -> String {
    let o = Command::new(args[0]).args(&args[1..]).output().unwrap();
    assert!(
        o.status.success(),
        "{}: {}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The three namespaces (sender, router, receiver), their links and the router's
/// bottleneck, the registered controller, the sender process and a scratch directory: all
/// removed when dropped. The bottleneck is in a router of its own because a qdisc on the
/// sender's own interface is seen by TCP: its drops are local congestion (CWR, no loss),
/// and TCP Small Queues keeps about two packets in it, so that the window never limits.
struct Bed {
    snd: String,
    rtr: String,
    rcv: String,
    controller: Option<String>,
    sender: Option<Child>,
    dir: tempfile::TempDir,
}

impl Bed {
    fn new(tag: &str) -> Bed {
        let pid = std::process::id();
        let dir = tempfile::Builder::new()
            .prefix(&format!("{tag}-fallback-"))
            .tempdir()
            .unwrap();
        let bed = Bed {
            snd: format!("{tag}_fs{pid}"),
            rtr: format!("{tag}_fm{pid}"),
            rcv: format!("{tag}_fr{pid}"),
            controller: None,
            sender: None,
            dir,
        };
        let (s, m, r) = (bed.snd.as_str(), bed.rtr.as_str(), bed.rcv.as_str());
        for ns in [s, m, r] {
            run(&["ip", "netns", "add", ns]);
            run(&["ip", "-n", ns, "link", "set", "lo", "up"]);
        }
        run(&[
            "ip", "-n", s, "link", "add", "v0", "type", "veth", "peer", "name", "v1", "netns", m,
        ]);
        run(&[
            "ip", "-n", m, "link", "add", "v2", "type", "veth", "peer", "name", "v3", "netns", r,
        ]);
        for (ns, dev, addr) in [
            (s, "v0", format!("{SND_ADDR}/24")),
            (m, "v1", format!("{RTR_SND_ADDR}/24")),
            (m, "v2", format!("{RTR_RCV_ADDR}/24")),
            (r, "v3", format!("{RCV_ADDR}/24")),
        ] {
            run(&["ip", "-n", ns, "addr", "add", &addr, "dev", dev]);
            run(&["ip", "-n", ns, "link", "set", dev, "up"]);
            // wire-size frames, so that the FIFO counts packets
            run(&[
                "ip", "netns", "exec", ns, "ethtool", "-K", dev, "tso", "off", "gso", "off", "gro",
                "off",
            ]);
        }
        for (ns, via) in [(s, RTR_SND_ADDR), (r, RTR_RCV_ADDR)] {
            run(&["ip", "-n", ns, "route", "add", "default", "via", via]);
        }
        run(&[
            "ip",
            "netns",
            "exec",
            m,
            "sysctl",
            "-qw",
            "net.ipv4.ip_forward=1",
        ]);
        tbf(m, "replace", RATE);
        bed
    }
}

/// The router `rtr`'s bottleneck: a `tbf` of `rate` on its link to the receiver, a FIFO of
/// [`FIFO_FRAMES`] full frames; `verb` is tc's `replace` or `change` (which keeps the
/// packets queued).
fn tbf(rtr: &str, verb: &str, rate: &str) {
    let limit = (FIFO_FRAMES * 1514).to_string();
    run(&[
        "tc", "-n", rtr, "qdisc", verb, "dev", "v2", "root", "tbf", "rate", rate, "burst", "15k",
        "limit", &limit,
    ]);
}

/// The kernel's count of undone Loss states in the namespace `ns` (TcpExt TCPLossUndo of
/// /proc/net/netstat: tcp_try_undo_loss, which then sets the window from `undo_cwnd`).
fn loss_undos(ns: &str) -> u64 {
    let text = run(&["ip", "netns", "exec", ns, "cat", "/proc/net/netstat"]);
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(2)
        .filter(|p| p.len() == 2 && p[0].starts_with("TcpExt:"))
        .find_map(|p| {
            let names = p[0].split(' ');
            let values = p[1].split(' ');
            names
                .zip(values)
                .find(|(n, _)| *n == "TCPLossUndo")
                .and_then(|(_, v)| v.parse().ok())
        })
        .expect("TcpExt TCPLossUndo in /proc/net/netstat")
}

impl Drop for Bed {
    fn drop(&mut self) {
        if let Some(mut c) = self.sender.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(name) = &self.controller {
            let _ = loader::unload(name);
        }
        for ns in [&self.snd, &self.rtr, &self.rcv] {
            let _ = Command::new("ip").args(["netns", "del", ns]).output();
        }
    }
}

/// The receiver, in the namespace `ns`: accepts one connection within 10 s and reads it to
/// its end (each read within 5 s); the bytes received.
fn receive(ns: String, ready: mpsc::Sender<()>) -> u64 {
    let f = std::fs::File::open(format!("/run/netns/{ns}")).unwrap();
    rustix::thread::move_into_link_name_space(
        f.as_fd(),
        Some(rustix::thread::LinkNameSpaceType::Network),
    )
    .unwrap();
    let l = TcpListener::bind((RCV_ADDR, PORT)).unwrap();
    l.set_nonblocking(true).unwrap();
    ready.send(()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut c = loop {
        match l.accept() {
            Ok((c, _)) => break c,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(Instant::now() < deadline, "no connection within 10 s");
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => panic!("accept: {e}"),
        }
    };
    c.set_nonblocking(false).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        match c.read(&mut buf) {
            Ok(0) => return total,
            Ok(n) => total += n as u64,
            Err(e) => panic!("receiving after {total} bytes: {e}"),
        }
    }
}

/// Runs the sender in the bed's sender namespace with the control `cc`, waiting at most
/// [`SEND_FOR`] and 20 s, the path stalled meanwhile when `stall` ([`STALL_AFTER`]); its
/// samples, the control it ran and the bytes it sent.
fn send(bed: &mut Bed, sender: &Path, cc: &str, stall: bool) -> (Vec<Sample>, String, u64) {
    let child = Command::new("ip")
        .args(["netns", "exec", &bed.snd])
        .arg(sender)
        .args([RCV_ADDR, &PORT.to_string(), cc])
        .arg(SEND_FOR.as_secs_f64().to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let staller = stall.then(|| {
        let rtr = bed.rtr.clone();
        std::thread::spawn(move || {
            std::thread::sleep(STALL_AFTER);
            tbf(&rtr, "change", STALL_RATE);
            std::thread::sleep(STALL_FOR);
            tbf(&rtr, "change", RATE);
        })
    });
    let child = bed.sender.insert(child);
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + SEND_FOR + Duration::from_secs(20);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(
            Instant::now() < deadline,
            "the sender did not finish in time"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    bed.sender = None;
    if let Some(t) = staller {
        t.join().expect("the stall's tc commands ran");
    }
    let text = reader.join().unwrap();
    assert!(status.success(), "the sender failed ({status}): {err}");
    let samples: Vec<Sample> = text.lines().filter_map(Sample::parse).collect();
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("no `{key}` line: {text}"))
            .to_string()
    };
    let sent = field("sent ").parse().unwrap();
    (samples, field("cc "), sent)
}

fn without_state(name: &str) -> u64 {
    let all = loader::list().unwrap();
    let i = loader::find(&all, name).expect("`ledbat tcp list` shows the controller");
    i.without_state
}

#[test]
fn a_connection_without_socket_storage_runs_renos_window_on_the_kernel() {
    if let Some(why) = missing() {
        return skip(&why);
    }
    let tag = std::env::var("LEDBAT_TEST_TAG").unwrap_or_else(|_| "lbt".into());
    assert!(
        tag.len() <= 6
            && tag
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
        "LEDBAT_TEST_TAG: up to 6 of [a-z0-9]"
    );
    let mut bed = Bed::new(&tag);
    let (object, sender) = build(bed.dir.path());
    let name = format!("{tag}_ns{}", std::process::id() % 100_000);
    let c = TcpController::parse("ledbat", std::iter::empty::<&str>()).unwrap();
    match loader::load_object(&object, &c, &name, false) {
        Ok(_) => bed.controller = Some(name.clone()),
        Err(e @ (LoadError::NoTcpCa | LoadError::NoBtf)) => return skip(&e.to_string()),
        Err(e) => panic!("loading tests/fallback/nostate.bpf.c: {e}"),
    }
    assert_eq!(without_state(&name), 0);

    // Up to TRIES transfers, the first that passes every check ending it (see `TRIES`):
    // a fault of the copy fails every one.
    let mut transfers = 0;
    let (samples, (sent, found)) = first_passing("transfer", &name, || {
        transfers += 1;
        let (samples, sent) = transfer(&mut bed, &sender, &name, false);
        // 1. counted as a connection without state, and listed
        assert_eq!(without_state(&name), transfers);
        let checked = check_reno(&samples).map(|f| (sent, f));
        (samples, checked)
    });

    // 2. and 3.
    eprintln!(
        "{} samples, {sent} bytes: slow start 10 -> {}; congestion events (window, \
         ssthresh): {:?}; avoidance stretches (from, to, delivered): {:?}",
        samples.len(),
        found.slow_start_to,
        found
            .events
            .iter()
            .map(|&(lo, hi, s)| (
                if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{lo}..{hi}")
                },
                s
            ))
            .collect::<Vec<_>>(),
        found.avoidance
    );

    // 4. undo: one more transfer, its path stalled for longer than the RTO; the originals
    // then arrive, their ACKs echo timestamps from before the retransmission, and the
    // kernel undoes the Loss state with the window `undo_cwnd` returns. Up to TRIES, as
    // above.
    let mut stalled = 0;
    let (_, (undone, (before, after))) = first_passing("stalled transfer", &name, || {
        stalled += 1;
        let undos = loss_undos(&bed.snd);
        let (samples, _) = transfer(&mut bed, &sender, &name, true);
        assert_eq!(without_state(&name), transfers + stalled);
        let undone = loss_undos(&bed.snd) - undos;
        let checked = check_undo(&samples).and_then(|w| match undone {
            0 => Err("the kernel undid no Loss state: the stall made no spurious timeout".into()),
            n => Ok((n, w)),
        });
        (samples, checked)
    });
    eprintln!(
        "undo: {undone} Loss state(s) undone; the window {before} before the timeout, {after} after"
    );
    drop(bed);
}

/// One transfer from the sender to the receiver ([`send`]), every byte received and the
/// connection run by `name`: the sender's samples and the bytes sent.
fn transfer(bed: &mut Bed, sender: &Path, name: &str, stall: bool) -> (Vec<Sample>, u64) {
    let (ready_tx, ready) = mpsc::channel();
    let rcv_ns = bed.rcv.clone();
    let receiver = std::thread::spawn(move || receive(rcv_ns, ready_tx));
    ready.recv_timeout(Duration::from_secs(10)).unwrap();
    let (samples, cc_ran, sent) = send(bed, sender, name, stall);
    let received = receiver.join().unwrap();
    assert_eq!(received, sent);
    assert_eq!(cc_ran, name, "the connection ran the test build");
    (samples, sent)
}

/// Fails with `e`, the samples written where the message says.
fn fail_with_samples(name: &str, samples: &[Sample], e: &str) -> ! {
    let path = write_samples(name, samples);
    panic!("{e} (samples in {})", path.display());
}

/// Writes `samples` to `NAME.samples` in the test's scratch directory: its path.
fn write_samples(name: &str, samples: &[Sample]) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.samples"));
    let text: String = samples.iter().map(|s| format!("{s:?}\n")).collect();
    let _ = std::fs::write(&path, text);
    path
}

/// Up to [`TRIES`] runs of `attempt` (a transfer: its samples and their checks): the
/// samples and what the checks found of the first that passes. Each failure is printed and
/// its samples written (as [`fail_with_samples`] does); when every try fails, the test fails
/// with the last.
fn first_passing<T>(
    what: &str,
    name: &str,
    mut attempt: impl FnMut() -> (Vec<Sample>, Result<T, String>),
) -> (Vec<Sample>, T) {
    for k in 1..=TRIES {
        let (samples, checked) = attempt();
        match checked {
            Ok(found) => return (samples, found),
            Err(e) if k < TRIES => {
                let path = write_samples(&format!("{name}.{what}.{k}").replace(' ', "_"), &samples);
                eprintln!(
                    "{what} {k} of {TRIES} failed: {e} (samples in {})",
                    path.display()
                );
            }
            Err(e) => fail_with_samples(name, &samples, &e),
        }
    }
    unreachable!("TRIES is at least one")
}

// The checks on hand-made samples: they pass Reno and fail what a broken copy would give.

fn sample(ca_state: u8, cwnd: u32, ssthresh: u32, delivered: u32, retrans: u32) -> Sample {
    Sample {
        ca_state,
        cwnd,
        ssthresh,
        delivered,
        total_retrans: retrans,
    }
}

/// Asserts that the checks fail `s` with an error starting with `prefix`.
fn fails_with(s: &[Sample], prefix: &str) {
    let e = check_reno(s).unwrap_err();
    assert!(e.starts_with(prefix), "{e}");
}

/// Reno by hand: slow start 10 -> 30 over 20 packets, a loss at 30 (ssthresh 15, Recovery
/// state 3), then avoidance from 15: 15 + 16 + 17 = 48 packets take it to 18; a second loss
/// at 18 -> 9.
fn reno_by_hand() -> Vec<Sample> {
    vec![
        sample(0, 10, INFINITE, 1, 0),
        sample(0, 20, INFINITE, 11, 0),
        sample(0, 30, INFINITE, 21, 0),
        sample(3, 20, 15, 40, 5),
        sample(0, 15, 15, 60, 5),
        sample(0, 16, 15, 75, 5),
        sample(0, 18, 15, 108, 5),
        sample(3, 12, 9, 112, 8),
        sample(0, 9, 9, 130, 8),
    ]
}

#[test]
fn renos_slow_start_losses_and_avoidance_pass_the_checks() {
    let f = check_reno(&reno_by_hand()).unwrap();
    assert_eq!(f.slow_start_to, 30);
    assert_eq!(f.events, vec![(30, 49, 15), (18, 19, 9)]);
    assert_eq!(f.avoidance, vec![(15, 18, 48), (9, 9, 0)]);
}

#[test]
fn a_window_behind_renos_in_slow_start_passes_the_checks() {
    // one packet more delivered, the window not raised yet (a reading between an ACK's
    // count and its window, or an ACK that found the sender not limited by the window)
    let mut s = reno_by_hand();
    s.insert(2, sample(0, 20, INFINITE, 12, 0));
    assert_eq!(check_reno(&s).unwrap().slow_start_to, 30);
    // but the window never falls in slow start, nor passes Reno's
    s[2].cwnd = 19;
    fails_with(&s, "slow start, sample 2: the window fell from 20 to 19");
    s[2].cwnd = 22;
    fails_with(
        &s,
        "slow start, sample 2: cwnd 22 after 11 packets delivered, more than Reno's 21",
    );
}

#[test]
fn a_window_never_written_back_fails_the_checks() {
    // `tp->snd_cwnd = r.cwnd;` dropped: the window stays at 10
    let mut s = reno_by_hand();
    for x in &mut s[..3] {
        x.cwnd = 10;
    }
    fails_with(
        &s,
        "slow start: the window grew by 0 packets over 20 delivered, less than 3/4 of \
         Reno's one per packet",
    );
}

#[test]
fn a_count_never_written_back_fails_the_checks() {
    // `tp->snd_cwnd_cnt = r.cnt;` dropped: no avoidance step is ever reached
    let mut s = reno_by_hand();
    for x in &mut s[4..7] {
        x.cwnd = 15;
    }
    // the losses then halve the window it kept
    s[7].ssthresh = 7;
    s[8] = sample(0, 7, 7, 130, 8);
    fails_with(
        &s,
        "avoidance, samples 4..=6: the window went from 15 to 15",
    );
}

#[test]
fn avoidance_after_a_reduction_may_lag_renos_by_a_window_more_not_two() {
    // avoidance 15 -> 18: Reno's 15 + 16 + 17 = 48 packets; up to 18 (the count at the end)
    // + 15 (not limited by the window after the reduction) + 2 more pass
    let later = |extra: u32| {
        let mut s = reno_by_hand();
        for x in &mut s[6..] {
            x.delivered += extra;
        }
        s
    };
    assert_eq!(check_reno(&later(35)).unwrap().avoidance[0], (15, 18, 83));
    fails_with(
        &later(36),
        "avoidance, samples 4..=6: the window went from 15 to 18 over 84 packets delivered, \
         Reno's 48 (within 10..=83)",
    );
}

#[test]
fn an_ssthresh_other_than_half_the_window_fails_the_checks() {
    // cubic's 0.7 instead of Reno's half
    let mut s = reno_by_hand();
    s[7].ssthresh = 12;
    fails_with(&s, "congestion event at sample 7: ssthresh 12");
}

/// An RTO from Open at a window of 19 (the stall: no ACK, so no reading grows it), Loss
/// with the window at one packet and growing, then the kernel's undo to Reno's
/// max(cwnd, prior_cwnd) = 19, in Open.
fn undone_by_hand() -> Vec<Sample> {
    vec![
        sample(0, 19, 10, 300, 8),
        sample(0, 19, 10, 310, 8),
        sample(4, 1, 9, 310, 9),
        sample(4, 2, 9, 311, 10),
        sample(0, 19, 10, 330, 10),
        sample(0, 20, 10, 350, 10),
    ]
}

#[test]
fn an_undo_to_the_window_before_the_timeout_passes_the_checks() {
    assert_eq!(check_undo(&undone_by_hand()), Ok((19, 19)));
    // from Recovery the window before is the last one in Open or Disorder
    let mut s = undone_by_hand();
    s.insert(2, sample(3, 14, 9, 310, 9));
    assert_eq!(check_undo(&s), Ok((19, 19)));
}

#[test]
fn an_undo_that_keeps_the_loss_window_fails_the_checks() {
    // `undo_cwnd` returning `tp->snd_cwnd`: Loss's slow start goes on from its window
    let mut s = undone_by_hand();
    s[4].cwnd = 11;
    assert_eq!(
        check_undo(&s),
        Err(
            "undo: the window before the timeout was 19, the first reading after Loss \
             (sample 4, state 0) has 11, not Reno's max(cwnd, prior_cwnd)"
                .into()
        )
    );
    // and a transfer without a timeout shows nothing to check
    s.retain(|x| x.ca_state != CA_LOSS);
    assert_eq!(
        check_undo(&s),
        Err("no reading in Loss: the stall made no timeout".into())
    );
}

#[test]
fn the_senders_lines_parse_and_others_are_skipped() {
    assert_eq!(
        Sample::parse("s 3 20 15 40 5"),
        Some(sample(3, 20, 15, 40, 5))
    );
    assert_eq!(Sample::parse("sent 12"), None);
    assert_eq!(Sample::parse("s 3 20 15 40"), None);
}

#[test]
fn a_failing_try_is_followed_by_another_and_the_first_pass_is_taken() {
    let mut tries = 0;
    let (samples, found) = first_passing("try", "lbt_unit_pass", || {
        tries += 1;
        let checked = if tries < TRIES {
            Err("no".into())
        } else {
            Ok(tries)
        };
        (reno_by_hand(), checked)
    });
    assert_eq!((found, tries, samples.len()), (TRIES, TRIES, 9));
}

#[test]
#[should_panic(expected = "the last failure")]
fn the_test_fails_when_every_try_fails() {
    let mut tries = 0;
    first_passing::<()>("try", "lbt_unit_fail", || {
        tries += 1;
        let e = if tries == TRIES {
            "the last failure"
        } else {
            "an earlier failure"
        };
        (reno_by_hand(), Err(e.into()))
    });
}
