//! Receiver-side LEDBAT for kernel TCP (draft-irtf-iccrg-rledbat): the receive window of
//! every TCP connection of a cgroup clamped so that the remote sender, whatever its
//! congestion control, keeps the queue of the downlink near TARGET (`ledbat tcp run
//! --rledbat`, `ledbat tcp attach --rledbat`).
//!
//! The arithmetic is `csrc/rledbat.h`, the uTP receiver's (`ledbat_utp::rledbat`: LEDBAT++
//! with its per-RTT rules spread over the segments of one window) in 32.32 fixed point,
//! checked against it by `tests/rledbat.rs`; the kernel side is `bpf/rledbat.bpf.c`, a
//! sock_ops program that runs at every ACK the receiver sends and writes the window as
//! `TCP_WINDOW_CLAMP`. The two delay signals of the draft:
//!
//! - `signal=owd` (default): the sender's TCP timestamp against our clock at receipt, its
//!   clock rate learnt (`csrc/lbcc_owd.h`); only the downlink's queue counts, and a peer
//!   without timestamps or with an unusable clock falls back to the RTT;
//! - `signal=rtt`: the receiver's own RTT estimate (the kernel's `rcv_rtt_est`), which also
//!   counts the queue of our uplink (our own uploads make the downloads yield).
//!
//! Parameters (`--rledbat-param KEY=VALUE`): `target` (default 60 ms, LEDBAT++'s, which the
//! draft adopts), `slowdowns` (periodic slowdowns, default true), `signal`, `max_window`
//! (bytes; a cap on the clamp, default none), `empty_queue_restart` (slow start again after
//! one RTT of empty queue in avoidance, the uTP receiver's rule; default false, the
//! draft's), `window_validation` (slow start ends and avoidance stops growing at 8 times
//! the most received in one round, so that a sender the window does not limit, bbr, does
//! not leave it growing without bound; default false, the draft's), `standing_probe_span`
//! (`max` or `sum`: a probe from a standing queue opens `probe_share C` times `max(RTT,
//! length)` or `RTT + length`; default `max`, the uTP receiver's), `standing_probe_rtts`
//! (such a probe lasts at least this many RTTs, its window unchanged, so that the kernel's
//! window has time to open toward it; default [`STANDING_PROBE_RTTS`] here, where the uTP
//! receiver's is 0), and `competitor.KEY`
//! (ledbat-core's competitor detection as the uTP receiver runs it, `competitor.enabled=true`
//! to turn it on; default off, the draft's; the other keys and their defaults are
//! ledbat-core's `CompetitorConfig`'s).

use ledbat_utp::rledbat::{split_param, RledbatConfig};
use serde::Serialize;

use crate::layout::words_layout;

/// `enum rl_signal` of csrc/rledbat.h.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RlSignal {
    /// One-way delay from the sender's TSval (default).
    #[default]
    Owd = 1,
    /// The receiver's RTT estimate.
    Rtt = 2,
}

/// What a probe from a standing queue opens (`standing_probe_span`).
pub use ledbat_utp::rledbat::ProbeSpan as RlProbeSpan;
/// Why an rLEDBAT parameter was refused: the uTP receiver's parser's errors.
pub use ledbat_utp::rledbat::RledbatParamError as RlParamError;
/// The largest `slowdown_backoff`: `RL_MAX_SLOWDOWN_BACKOFF` of csrc/rledbat.h.
pub use ledbat_utp::rledbat::MAX_SLOWDOWN_BACKOFF;

/// `RL_CFG_WORDS` of csrc/rledbat.h.
pub const CFG_WORDS: usize = 28;

/// The words of `struct rl_cfg` (csrc/rledbat.h), in its order, named as there
/// ([`RlConfig::words`]).
#[allow(missing_docs)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RlCfg {
    pub target_ns: u64,
    pub slowdowns: u64,
    /// `enum rl_signal`.
    pub signal: u64,
    /// Bytes, 0 for none.
    pub max_window: u64,
    pub empty_queue_restart: u64,
    /// `struct lb_comp_params` (`crate::params::competitor_words`).
    pub comp: [u64; crate::params::COMP_WORDS],
    pub comp_test_hold_rtts_q16: u64,
    pub window_validation: u64,
    pub standing_probe_sum: u64,
    pub slowdown_backoff: u64,
    pub standing_probe_rtts_q32: u64,
    pub rtt_fall: u64,
}

words_layout!(RlCfg, CFG_WORDS, {
    target_ns,
    slowdowns,
    signal,
    max_window,
    empty_queue_restart,
    comp,
    comp_test_hold_rtts_q16,
    window_validation,
    standing_probe_sum,
    slowdown_backoff,
    standing_probe_rtts_q32,
    rtt_fall,
});

/// `standing_probe_rtts` by default for the kernel receiver: 8 RTTs (the uTP receiver's
/// default is 0, the push's length). The setting acts only while the competitor detection
/// (off by default) yields. After a yield's one-packet clamp the kernel's receive window
/// grows toward a raised clamp only as segments arrive, about threefold a round, so a probe
/// shorter than about four RTTs ends before its window is open; kept open for eight, the
/// probe lifts the queue past TARGET, where another receiver of ours backs off as the kin
/// rule wants. The uTP receiver, whose window opens at once, would only pay for it in a
/// slower yield. The wait before the next probe grows by the same factor as the probe (the
/// core's `Competitor::standing_probe_rtts`), so the longer probes do not take more of a
/// competitor's link. What it changes on the test bed, and why eight: docs/tcp/README.md,
/// "Eight RTTs", "The kernel's default" and "A long probe's successor waits as long".
pub const STANDING_PROBE_RTTS: f64 = 8.0;

/// `rtt_fall` by default for the kernel receiver: on (the uTP receiver's default is off).
/// Like [`STANDING_PROBE_RTTS`] it acts only while the competitor detection (off by
/// default) yields. Two kernel receivers at a short base RTT hold the queue low, where the
/// other's cut after a probe is a small share of a short RTT and shows only once the
/// probe's own queue has drained, which the sender's rule does not wait for. What it
/// changes on the test bed, traced per segment: docs/tcp/README.md, "A fall in the RTT's
/// terms".
pub const RTT_FALL: bool = true;

/// rLEDBAT's parameters for the kernel: the uTP receiver's, whose keys and parser these
/// share (with [`STANDING_PROBE_RTTS`] for `standing_probe_rtts` and [`RTT_FALL`] for
/// `rtt_fall` by default), and the kernel's delay signal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RlConfig {
    /// The window's rules: TARGET, slowdowns and their backoff, restart, validation, the
    /// competitor detection and the probes' span.
    #[serde(flatten)]
    pub receiver: RledbatConfig,
    /// The delay signal.
    pub signal: RlSignal,
    /// Largest clamp written, bytes (0: none).
    pub max_window: u64,
    /// How often a connection's published statistics (`ledbat tcp rstats`) are refreshed,
    /// ms; 0: at every segment the receiver sends, for a trace of the window through a
    /// probe (`rstats --watch` with a short interval reads them).
    pub publish_interval_ms: u64,
}

/// [`RlConfig::publish_interval_ms`] by default.
pub const PUBLISH_INTERVAL_MS: u64 = 100;

impl Default for RlConfig {
    fn default() -> Self {
        RlConfig {
            receiver: RledbatConfig {
                standing_probe_rtts: STANDING_PROBE_RTTS,
                rtt_fall: RTT_FALL,
                ..RledbatConfig::default()
            },
            signal: RlSignal::default(),
            max_window: 0,
            publish_interval_ms: PUBLISH_INTERVAL_MS,
        }
    }
}

/// The parameters' keys, for the errors: the uTP receiver's and the kernel's own.
const KEYS: &str = "signal, max_window, publish_interval_ms, target, slowdowns, \
                    slowdown_backoff, empty_queue_restart, window_validation, \
                    standing_probe_span, standing_probe_rtts, rtt_fall, competitor.*";

impl RlConfig {
    /// The defaults with `key=value` overrides.
    pub fn parse<'a>(kvs: impl IntoIterator<Item = &'a str>) -> Result<Self, RlParamError> {
        let mut c = RlConfig::default();
        for kv in kvs {
            let (k, v) = split_param(kv)?;
            let bad = |why: &str| RlParamError::Value(kv.to_string(), why.to_string());
            match k {
                "signal" => {
                    c.signal = match v.trim() {
                        "owd" => RlSignal::Owd,
                        "rtt" => RlSignal::Rtt,
                        _ => return Err(bad("owd or rtt")),
                    }
                }
                "max_window" => {
                    c.max_window = v.trim().parse().map_err(|_| bad("a number of bytes"))?;
                    if c.max_window != 0 && c.max_window < 2048 {
                        return Err(bad("at least 2048 bytes (or 0: none)"));
                    }
                }
                "publish_interval_ms" => {
                    c.publish_interval_ms = v
                        .trim()
                        .parse()
                        .ok()
                        .filter(|ms| *ms <= 1000)
                        .ok_or_else(|| bad("0 to 1000 ms (0: at every segment sent)"))?;
                }
                _ => c.receiver.set(k, v).map_err(|e| match e {
                    RlParamError::Unknown { key, .. } => RlParamError::Unknown { key, keys: KEYS },
                    e => e,
                })?,
            }
        }
        c.receiver.check()?;
        crate::params::competitor_words(&c.receiver.competitor)
            .map_err(|e| RlParamError::Value(e.field, e.reason))?;
        Ok(c)
    }

    /// The words of `struct rl_cfg` ([`RlCfg`]).
    pub fn words(&self) -> [u64; CFG_WORDS] {
        let r = &self.receiver;
        RlCfg {
            target_ns: r.target.as_nanos(),
            slowdowns: r.slowdowns as u64,
            signal: self.signal as u64,
            max_window: self.max_window,
            empty_queue_restart: r.empty_queue_restart as u64,
            comp: crate::params::competitor_words(&r.competitor)
                .expect("parse checked the competitor's kernel words"),
            comp_test_hold_rtts_q16: crate::params::q16(r.competitor.test_hold_rtts),
            window_validation: r.window_validation as u64,
            standing_probe_sum: (r.standing_probe_span == RlProbeSpan::Sum) as u64,
            slowdown_backoff: r.slowdown_backoff,
            standing_probe_rtts_q32: crate::params::q32(r.standing_probe_rtts),
            rtt_fall: r.rtt_fall as u64,
        }
        .to_words()
    }

    /// `key=value` pairs for display.
    pub fn describe(&self) -> String {
        format!(
            "signal={} max_window={} publish_interval_ms={} {}",
            match self.signal {
                RlSignal::Owd => "owd",
                RlSignal::Rtt => "rtt",
            },
            self.max_window,
            self.publish_interval_ms,
            self.receiver.describe()
        )
    }
}

/// The delay estimator's words (`struct lb_params`, only the delay fields read): ledbat-core's
/// `DelayConfig::default()`, as the uTP receiver uses it.
pub fn delay_params() -> crate::params::LbParams {
    let mut p = crate::params::TcpController::parse("ledbat", std::iter::empty())
        .and_then(|c| c.params())
        .expect("the RFC controller's defaults have a kernel build");
    let d = ledbat_core::DelayConfig::default();
    p.base_history = d.base_history as u64;
    p.base_interval_ns = d.base_interval.as_nanos();
    p.filter_len = match d.filter {
        ledbat_core::CurrentFilter::Min { len } => len as u64,
        _ => 4,
    };
    p.clamp_to_min_rtt = 0;
    p
}

/// The bytes of the object's `struct rl_ro` (the delay words, then `struct rl_cfg`, then the
/// publication interval in ns).
pub fn ro_bytes(c: &RlConfig) -> Vec<u8> {
    let mut b = delay_params().to_bytes();
    for w in c.words() {
        b.extend_from_slice(&w.to_ne_bytes());
    }
    b.extend_from_slice(&(c.publish_interval_ms * 1_000_000).to_ne_bytes());
    b
}

/// One connection as the kernel program last published it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RlFlow {
    /// Local address and port.
    pub local: std::net::SocketAddr,
    /// Remote address and port.
    pub remote: std::net::SocketAddr,
    /// When the program published it (every 100 ms at most), ns of CLOCK_MONOTONIC.
    pub updated_ns: u64,
    /// `rcwnd`, bytes.
    pub window: u64,
    /// The clamp written, bytes.
    pub clamp: u64,
    /// Queuing delay, ns.
    pub qd_ns: u64,
    /// RTT (receiver's estimate), ns.
    pub rtt_ns: u64,
    /// Smallest RTT, ns.
    pub base_rtt_ns: u64,
    /// Bytes received since the program saw the connection.
    pub bytes: u64,
    /// Losses seen (new out-of-order segments).
    pub losses: u64,
    /// Slowdowns.
    pub slowdowns: u64,
    /// Restarts (`empty_queue_restart`: slow starts after one RTT of empty queue).
    pub restarts: u64,
    /// 0 slow start, 1 avoidance, 2 slowdown, 3 restart (`empty_queue_restart`), 4
    /// yielding (`competitor.enabled`).
    pub phase: u32,
    /// The signal in use.
    pub signal: RlSignal,
    /// The competitor detection's detections (times it began to yield) and tests.
    pub detections: u64,
    /// Tests the detection made (its verdicts, hold and push tests).
    pub tests: u64,
    /// Holds the detection asked for, a hold test each (the rest of `tests` are push tests;
    /// a hold that ends while the verdict is pending counts here and not yet there).
    pub test_holds: u64,
    /// Push tests voided because another flow pushed at the same time (not in `tests`).
    pub push_collisions: u64,
    /// The detection's last verdict (or voided push), `None` before the first.
    pub last_test: Option<RlTest>,
    /// Probes the detection ended while yielding (judged or given up).
    pub probes: u64,
    /// The last of them, `None` before the first.
    pub last_probe: Option<RlProbe>,
}

/// The detection's last probe while yielding, as the kernel receiver measured it (csrc/
/// rledbat.h, `rl_note_probe`): why a yield ended, or did not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RlProbe {
    /// When it ended, ns on the connection's clock (CLOCK_MONOTONIC).
    pub at_ns: u64,
    /// The queue when it began, ns.
    pub from_ns: u64,
    /// The queue its own segments met at the highest, ns (`None`: not measured).
    pub peak_ns: Option<u64>,
    /// The least queue after it, ns (`None`: given up before its aftermath).
    pub after_ns: Option<u64>,
    /// Falls in a row after probes, this one's included (two resume: our kind).
    pub falls: u32,
    /// It began in the range its fall is judged in (a quarter of TARGET to 1.2 TARGET).
    pub in_range: bool,
    /// The queue fell after it (by push_drop TARGET, or below eta).
    pub fell: bool,
    /// It found room (twice `confirm` apart resumes).
    pub room: bool,
    /// The yield ended with it.
    pub resumed: bool,
}

/// The kind of an [`RlTest`] (`enum rl_test_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RlTestKind {
    /// A push test: the window grew for an RTT and the others' queue was watched.
    Push,
    /// A hold test: the window held at 2 packets and the queue watched.
    Hold,
    /// A push voided: the queue rose more than the push (another flow pushed at once).
    Void,
}

/// One verdict of the competitor detection, as the kernel receiver measured it (csrc/
/// rledbat.h, `rl_note_test`): what explains a yield, or its absence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RlTest {
    /// When, ns on the connection's clock (CLOCK_MONOTONIC: `tcp_mstamp`).
    pub at_ns: u64,
    /// Push, hold or void.
    pub kind: RlTestKind,
    /// Positive (a competitor that does not back off); false for a void.
    pub positive: bool,
    /// A push's queue at its start, ns (0 for a hold).
    pub q0_ns: u64,
    /// A push's others' queue at its lowest after it (may be below 0), a hold's least
    /// queue, a void's peak queue; ns.
    pub q1_ns: i64,
}

/// Size of `struct rl_flow_key` and `struct rl_flow_stats`.
pub const KEY_SIZE: usize = 40;
/// Size of `struct rl_flow_stats`.
pub const STATS_SIZE: usize = 200;

impl RlFlow {
    /// Decodes a map entry; `None` for a size or family that does not match.
    pub fn decode(key: &[u8], val: &[u8]) -> Option<RlFlow> {
        use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
        if key.len() != KEY_SIZE || val.len() != STATS_SIZE {
            return None;
        }
        let u32at = |b: &[u8], i: usize| u32::from_ne_bytes(b[i..i + 4].try_into().expect("4"));
        let u16at = |b: &[u8], i: usize| u16::from_ne_bytes(b[i..i + 2].try_into().expect("2"));
        let u64at = |i: usize| u64::from_ne_bytes(val[i..i + 8].try_into().expect("8"));
        let family = u32at(key, 0);
        let addr = |off: usize| -> Option<IpAddr> {
            match family {
                2 => Some(IpAddr::V4(Ipv4Addr::from(
                    key[off..off + 4].try_into().ok().map(u32::from_be_bytes)?,
                ))),
                10 => {
                    let mut a = [0u8; 16];
                    a.copy_from_slice(&key[off..off + 16]);
                    Some(IpAddr::V6(Ipv6Addr::from(a)))
                }
                _ => None,
            }
        };
        Some(RlFlow {
            local: SocketAddr::new(addr(8)?, u16at(key, 4)),
            remote: SocketAddr::new(addr(24)?, u16at(key, 6)),
            updated_ns: u64at(0),
            window: u64at(8),
            clamp: u64at(16),
            qd_ns: u64at(24),
            rtt_ns: u64at(32),
            base_rtt_ns: u64at(40),
            bytes: u64at(48),
            losses: u64at(56),
            slowdowns: u64at(64),
            restarts: u64at(72),
            phase: u32at(val, 80),
            signal: if u32at(val, 84) == 2 {
                RlSignal::Rtt
            } else {
                RlSignal::Owd
            },
            detections: u64at(88),
            tests: u64at(96),
            test_holds: u64at(104),
            push_collisions: u64at(112),
            last_test: (u64at(120) != 0)
                .then(|| {
                    let kind = match u32at(val, 144) {
                        1 => RlTestKind::Push,
                        2 => RlTestKind::Hold,
                        3 => RlTestKind::Void,
                        _ => return None,
                    };
                    Some(RlTest {
                        at_ns: u64at(120),
                        kind,
                        positive: u32at(val, 148) != 0,
                        q0_ns: u64at(128),
                        q1_ns: u64at(136) as i64,
                    })
                })
                .flatten(),
            probes: u64at(184),
            last_probe: (u64at(152) != 0).then(|| {
                let f = u32at(val, 196);
                RlProbe {
                    at_ns: u64at(152),
                    from_ns: u64at(160),
                    peak_ns: (f & 32 != 0).then(|| u64at(168)),
                    after_ns: (f & 16 != 0).then(|| u64at(176)),
                    falls: u32at(val, 192),
                    in_range: f & 8 != 0,
                    fell: f & 4 != 0,
                    room: f & 2 != 0,
                    resumed: f & 1 != 0,
                }
            }),
        })
    }
}

#[cfg(feature = "bpf")]
pub use kernel::*;

#[cfg(feature = "bpf")]
mod kernel {
    use super::*;
    use crate::cgroup::CgroupError;
    use libbpf_rs::query::MapInfoIter;
    use libbpf_rs::{Link, MapCore, MapFlags, MapHandle, Object, ObjectBuilder};
    use std::os::fd::AsRawFd;
    use std::path::Path;

    /// The rLEDBAT object, compiled from bpf/rledbat.bpf.c by build.rs.
    pub const RLEDBAT_OBJECT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rledbat.bpf.o"));

    const SHRINK: &str = "/proc/sys/net/ipv4/tcp_shrink_window";

    fn bpf(what: String) -> impl FnOnce(libbpf_rs::Error) -> CgroupError {
        move |source| CgroupError::Bpf { what, source }
    }

    /// Loads the program with `cfg` and attaches it to the cgroup open as `cg` (`dir` for
    /// messages). Refused when the kernel may shrink windows (`tcp_shrink_window=1`).
    pub fn attach(
        cg: &std::fs::File,
        dir: &Path,
        cfg: &RlConfig,
    ) -> Result<(Object, Link), CgroupError> {
        if std::fs::read_to_string(SHRINK).is_ok_and(|s| s.trim() == "1") {
            return Err(CgroupError::Shrink);
        }
        let ro = ro_bytes(cfg);
        let mut open = ObjectBuilder::default()
            .open_memory(RLEDBAT_OBJECT)
            .map_err(bpf("opening the rledbat object".into()))?;
        let mut wrote = false;
        for mut m in open.maps_mut() {
            if !m.name().to_string_lossy().contains("rlparam") {
                continue;
            }
            if let Some(v) = m.initial_value_mut() {
                assert!(v.len() >= ro.len(), "the rledbat object's parameters fit");
                v[..ro.len()].copy_from_slice(&ro);
                wrote = true;
            }
        }
        assert!(
            wrote,
            "the built-in rledbat object has its parameter section"
        );
        let obj = open
            .load()
            .map_err(bpf("loading the rledbat program".into()))?;
        let link = obj
            .progs_mut()
            .find(|p| p.name() == "ledbat_rledbat")
            .expect("the rledbat object has its program")
            .attach_cgroup(cg.as_raw_fd())
            .map_err(bpf(format!(
                "attaching the rledbat program to {}",
                dir.display()
            )))?;
        Ok((obj, link))
    }

    /// Every connection every loaded rLEDBAT program publishes now.
    pub fn flows() -> Vec<RlFlow> {
        let mut out = Vec::new();
        for info in MapInfoIter::default() {
            if info.name.to_string_lossy() != "rl_stats" {
                continue;
            }
            let Ok(map) = MapHandle::from_map_id(info.id) else {
                continue;
            };
            for k in map.keys() {
                if let Ok(Some(v)) = map.lookup(&k, MapFlags::ANY) {
                    if let Some(f) = RlFlow::decode(&k, &v) {
                        out.push(f);
                    }
                }
            }
        }
        out.sort_by_key(|f| (f.local, f.remote));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_drafts_and_the_utp_receivers_but_for_the_probes() {
        let c = RlConfig::default();
        // the uTP receiver's parameters, but a probe from a standing queue open 8 RTTs and
        // its fall judged in the RTT's terms
        assert_eq!(
            c.receiver,
            RledbatConfig {
                standing_probe_rtts: 8.0,
                rtt_fall: true,
                ..RledbatConfig::default()
            }
        );
        assert_eq!(
            RlCfg::from_words(&c.words()).standing_probe_rtts_q32,
            8 << 32
        );
        assert_eq!(RlCfg::from_words(&c.words()).rtt_fall, 1);
        assert_eq!(
            RlConfig::parse(["standing_probe_rtts=0", "rtt_fall=false"])
                .unwrap()
                .receiver,
            RledbatConfig::default()
        );
        assert_eq!(c.words()[..5], [60_000_000, 1, 1, 0, 0]);
        // the detection's words: off, the rest ledbat-core's defaults (test hold 4 RTTs)
        let w = RlCfg::from_words(&c.words());
        assert_eq!(w.comp[0], 0);
        assert_eq!(
            w.comp,
            crate::params::competitor_words(&ledbat_core::competitor::CompetitorConfig::default())
                .unwrap()
        );
        assert_eq!(w.comp_test_hold_rtts_q16, 4 << 16);
        assert_eq!(RlConfig::parse([]).unwrap(), c);
        let d = delay_params();
        assert_eq!(
            (d.base_history, d.base_interval_ns, d.filter_len),
            (10, 60_000_000_000, 4)
        );
        // the delay words, the rl_cfg words (the restart's the fifth), the publication
        // interval: 100 ms
        let b = ro_bytes(&c);
        let at = crate::params::WORDS * 8 + 4 * 8;
        assert_eq!(b.len(), (crate::params::WORDS + CFG_WORDS + 1) * 8);
        assert_eq!(b[b.len() - 8..], 100_000_000u64.to_ne_bytes());
        // the slowdowns' spacing the draft's: a factor of at most 1
        assert_eq!(w.slowdown_backoff, 1);
        let on = RlConfig::parse(["empty_queue_restart=true"]).unwrap();
        let b_on = ro_bytes(&on);
        assert_eq!(b_on[..at], b[..at]);
        assert_eq!(b_on[at..at + 8], 1u64.to_ne_bytes());
        assert_eq!(b_on[at + 8..], b[at + 8..]);
    }

    #[test]
    fn the_words_are_as_many_as_the_headers_rl_cfg_has() {
        // csrc/rledbat.h asserts sizeof(struct rl_cfg) == RL_CFG_WORDS * 8
        let h = include_str!("../csrc/rledbat.h");
        let n: usize = h
            .lines()
            .find_map(|l| l.strip_prefix("#define RL_CFG_WORDS "))
            .expect("RL_CFG_WORDS")
            .trim()
            .parse()
            .expect("a number");
        assert_eq!(n, RlConfig::default().words().len());
    }

    /// The publication interval reaches the object's last word in ns; 0 (every segment) and
    /// 1000 ms are the bounds; anything else is refused with the range.
    #[test]
    fn the_publication_interval_is_the_last_word_and_bounded() {
        let at = |kv: &str| {
            let b = ro_bytes(&RlConfig::parse([kv]).unwrap());
            u64::from_ne_bytes(b[b.len() - 8..].try_into().unwrap())
        };
        assert_eq!(at("publish_interval_ms=0"), 0);
        assert_eq!(at("publish_interval_ms=5"), 5_000_000);
        assert_eq!(at("publish_interval_ms=1000"), 1_000_000_000);
        for bad in [
            "publish_interval_ms=1001",
            "publish_interval_ms=-1",
            "publish_interval_ms=0.5",
        ] {
            let e = RlConfig::parse([bad]).unwrap_err();
            assert!(e.to_string().contains("0 to 1000 ms"), "{e}");
        }
        let c = RlConfig::parse(["publish_interval_ms=2"]).unwrap();
        assert!(c.describe().contains("publish_interval_ms=2"));
        // the window's rules do not see it
        assert_eq!(c.words(), RlConfig::default().words());
    }

    #[test]
    fn parameters_parse_and_bad_ones_are_named() {
        let c = RlConfig::parse([
            "target=25ms",
            "signal=rtt",
            "slowdowns=false",
            "max_window=65536",
            "empty_queue_restart=true",
            "window_validation=true",
            "standing_probe_span=sum",
            "slowdown_backoff=8",
            "standing_probe_rtts=1.5",
            "rtt_fall=true",
        ])
        .unwrap();
        assert_eq!(c.words()[..5], [25_000_000, 0, 2, 65_536, 1]);
        assert_eq!(c.words()[23..], [1, 1, 8, 3 << 31, 1]);
        assert_eq!(RlConfig::parse(["rtt_fall=false"]).unwrap().words()[27], 0);
        assert!(c.describe().contains("rtt_fall=true"));
        assert_eq!(RlConfig::default().words()[26], 8 << 32);
        assert_eq!(RlConfig::default().words()[24], 0);
        assert!(c.describe().contains("slowdown_backoff=8"));
        for bad in [
            "slowdown_backoff=0",
            "slowdown_backoff=65",
            "slowdown_backoff=1.5",
        ] {
            let e = RlConfig::parse([bad]).unwrap_err();
            assert!(e.to_string().contains("from 1 (the draft) to 64"), "{e}");
        }
        assert_eq!(
            RlConfig::parse(["slowdown_backoff=64"])
                .unwrap()
                .receiver
                .slowdown_backoff,
            64
        );
        assert_eq!(
            MAX_SLOWDOWN_BACKOFF,
            ledbat_utp::rledbat::MAX_SLOWDOWN_BACKOFF
        );
        let h = include_str!("../csrc/rledbat.h");
        assert!(h.contains(&format!(
            "#define RL_MAX_SLOWDOWN_BACKOFF {MAX_SLOWDOWN_BACKOFF}ULL"
        )));
        assert!(RlConfig::parse(["window_validation=1"]).is_err());
        assert!(c.describe().contains("standing_probe_span=sum"));
        assert!(matches!(
            RlConfig::parse(["standing_probe_span=rtt"]),
            Err(RlParamError::Value(..))
        ));
        assert!(c.describe().contains("empty_queue_restart=true"));
        assert!(matches!(
            RlConfig::parse(["empty_queue_restart=yes"]),
            Err(RlParamError::Value(..))
        ));
        // An unknown key is named, with the kernel's keys among those listed.
        let e = RlConfig::parse(["gain=2"]).unwrap_err();
        assert!(matches!(&e, RlParamError::Unknown { key, .. } if key == "gain"));
        assert!(
            e.to_string()
                .contains("keys: signal, max_window, publish_interval_ms, target,"),
            "{e}"
        );
        assert!(matches!(
            RlConfig::parse(["target"]),
            Err(RlParamError::Syntax(_))
        ));
        assert!(matches!(
            RlConfig::parse(["signal=both"]),
            Err(RlParamError::Value(..))
        ));
        assert!(matches!(
            RlConfig::parse(["target=0ms"]),
            Err(RlParamError::Value(..))
        ));
        assert!(matches!(
            RlConfig::parse(["max_window=100"]),
            Err(RlParamError::Value(..))
        ));
    }

    #[test]
    fn competitor_parameters_reach_the_words_and_bad_ones_are_named() {
        let c = RlConfig::parse([
            "competitor.enabled=true",
            "competitor.probe_interval=2s",
            "competitor.test_hold_rtts=3",
        ])
        .unwrap();
        assert!(c.receiver.competitor.enabled);
        let w = RlCfg::from_words(&c.words());
        // enabled, then probe_interval_ns the twelfth word of struct lb_comp_params
        assert_eq!((w.comp[0], w.comp[11]), (1, 2_000_000_000));
        assert_eq!(w.comp_test_hold_rtts_q16, 3 << 16);
        assert!(c.describe().ends_with("competitor.enabled=true"));
        let e = RlConfig::parse(["competitor.nope=1"]).unwrap_err();
        assert!(e.to_string().contains("competitor.nope"), "{e}");
        // Worded as `--param competitor.nope` is by ledbat-core's registry, and the keys it
        // lists are the core's `competitor.*` keys.
        let core = ledbat_core::ControllerConfig::with_params("scavenger", ["competitor.nope=1"])
            .unwrap_err()
            .to_string();
        let known = |s: &str| -> Vec<String> {
            let list = s.split_once("no such parameter (known: ").expect(s).1;
            list.trim_end_matches(')')
                .split(", ")
                .map(String::from)
                .collect()
        };
        let ours = known(&e.to_string());
        let cores: Vec<String> = known(&core)
            .into_iter()
            .filter_map(|k| k.strip_prefix("competitor.").map(String::from))
            .collect();
        assert!(ours.contains(&"probe_interval".to_string()), "{ours:?}");
        assert_eq!(ours, cores);
        let e = RlConfig::parse(["competitor.share=2"]).unwrap_err();
        assert!(e.to_string().contains("competitor.share"), "{e}");
        // the kernel build's limits: no clean spans, a rate window of at most 60 s
        assert!(RlConfig::parse(["competitor.clean_spans=true"]).is_err());
        let e = RlConfig::parse(["competitor.rate_window=90s"]).unwrap_err();
        assert!(e.to_string().contains("rate_window"), "{e}");
    }

    #[test]
    fn a_published_entry_decodes_with_its_addresses_and_ports() {
        let mut key = vec![0u8; KEY_SIZE];
        key[0..4].copy_from_slice(&2u32.to_ne_bytes());
        key[4..6].copy_from_slice(&5201u16.to_ne_bytes());
        key[6..8].copy_from_slice(&40000u16.to_ne_bytes());
        key[8..12].copy_from_slice(&[10, 0, 0, 2]);
        key[24..28].copy_from_slice(&[10, 0, 0, 1]);
        let mut val = vec![0u8; STATS_SIZE];
        for (i, w) in [
            1u64, 30_000, 32_768, 12_000_000, 52_000_000, 40_000_000, 9, 1, 2, 3,
        ]
        .iter()
        .enumerate()
        {
            val[i * 8..i * 8 + 8].copy_from_slice(&w.to_ne_bytes());
        }
        val[80..84].copy_from_slice(&1u32.to_ne_bytes());
        val[84..88].copy_from_slice(&2u32.to_ne_bytes());
        val[88..96].copy_from_slice(&4u64.to_ne_bytes());
        val[96..104].copy_from_slice(&7u64.to_ne_bytes());
        val[104..112].copy_from_slice(&5u64.to_ne_bytes());
        val[112..120].copy_from_slice(&6u64.to_ne_bytes());
        let f = RlFlow::decode(&key, &val).unwrap();
        assert_eq!((f.last_test, f.probes, f.last_probe), (None, 0, None));
        val[152..160].copy_from_slice(&6_000_000_000u64.to_ne_bytes());
        val[160..168].copy_from_slice(&40_000_000u64.to_ne_bytes());
        val[168..176].copy_from_slice(&55_000_000u64.to_ne_bytes());
        val[176..184].copy_from_slice(&38_000_000u64.to_ne_bytes());
        val[184..192].copy_from_slice(&9u64.to_ne_bytes());
        val[192..196].copy_from_slice(&1u32.to_ne_bytes());
        // in range, measured after but not at its peak, no fall, no room
        val[196..200].copy_from_slice(&(8u32 | 16).to_ne_bytes());
        val[120..128].copy_from_slice(&5_000_000_000u64.to_ne_bytes());
        val[128..136].copy_from_slice(&70_000_000u64.to_ne_bytes());
        val[136..144].copy_from_slice(&(-3_000_000i64).to_ne_bytes());
        val[144..148].copy_from_slice(&1u32.to_ne_bytes());
        val[148..152].copy_from_slice(&1u32.to_ne_bytes());
        let f = RlFlow::decode(&key, &val).unwrap();
        assert_eq!(
            f.last_test,
            Some(RlTest {
                at_ns: 5_000_000_000,
                kind: RlTestKind::Push,
                positive: true,
                q0_ns: 70_000_000,
                q1_ns: -3_000_000,
            })
        );
        assert_eq!(f.local.to_string(), "10.0.0.2:5201");
        assert_eq!(f.remote.to_string(), "10.0.0.1:40000");
        assert_eq!(
            (f.updated_ns, f.window, f.clamp, f.qd_ns),
            (1, 30_000, 32_768, 12_000_000)
        );
        assert_eq!(
            (f.losses, f.slowdowns, f.restarts, f.phase, f.signal),
            (1, 2, 3, 1, RlSignal::Rtt)
        );
        assert_eq!(
            (f.detections, f.tests, f.test_holds, f.push_collisions),
            (4, 7, 5, 6)
        );
        assert_eq!(
            (f.probes, f.last_probe),
            (
                9,
                Some(RlProbe {
                    at_ns: 6_000_000_000,
                    from_ns: 40_000_000,
                    peak_ns: None,
                    after_ns: Some(38_000_000),
                    falls: 1,
                    in_range: true,
                    fell: false,
                    room: false,
                    resumed: false,
                })
            )
        );
        assert_eq!(RlFlow::decode(&key[..8], &val), None);
    }

    #[test]
    fn the_c_and_rust_layouts_agree_field_by_field() {
        let diff = crate::layout::compare("rl_cfg", std::mem::size_of::<RlCfg>(), &RlCfg::fields());
        assert!(diff.is_empty(), "struct rl_cfg:\n{}", diff.join("\n"));
        // the C name: RL_SIGNAL_ and the variant in capitals
        let c_name = |s: RlSignal| match s {
            RlSignal::Owd => "RL_SIGNAL_OWD",
            RlSignal::Rtt => "RL_SIGNAL_RTT",
        };
        let rust: Vec<(String, u64)> = [RlSignal::Owd, RlSignal::Rtt]
            .iter()
            .map(|&s| (c_name(s).to_string(), s as u64))
            .collect();
        assert_eq!(crate::layout::c_enum("rl_signal"), rust);
    }
}
