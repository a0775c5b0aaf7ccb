//! What the uTP commands (`send`, `recv`, `torrent`) share: the default controller, the
//! connection settings built from `--cc`, `--cc-param`, `--target-ms` and
//! `--packet-size`, the receiver-driven LEDBAT flags, `--connect-timeout`'s parser, and the
//! `--trace` file of connection states.

use anyhow::{Context, Result};
use ledbat_core::ControllerConfig;
use ledbat_utp::rledbat::RledbatConfig;
use ledbat_utp::{ConnectionConfig, ConnectionStats};
use serde::Serialize;
use std::net::SocketAddr;
use std::path::PathBuf;

/// The controller of `ledbat send`, `recv` and `torrent` when `--cc` is not given: the one
/// the project recommends, the `scavenger` preset (`ledbat controllers scavenger`;
/// `crates/ledbat-core/src/scavenger.rs`). Every other controller, RFC 6817's `ledbat`
/// included, is one `--cc NAME` away.
pub const DEFAULT_CC: &str = ledbat_core::registry::RECOMMENDED;

/// Builds the uTP connection settings from the command line (`--cc`, `--cc-param`,
/// `--target-ms`, `--packet-size`), validated.
pub fn connection_config(
    cc: &str,
    params: &[String],
    target_ms: Option<u64>,
    packet_size: u16,
) -> Result<ConnectionConfig> {
    let mut all: Vec<String> = params.to_vec();
    if let Some(t) = target_ms {
        all.push(format!("target={t}ms"));
    }
    let ctrl = ControllerConfig::with_params(cc, all.iter().map(String::as_str))
        .with_context(|| format!("controller `{cc}`"))?;
    let cfg = ConnectionConfig::default()
        .controller(ctrl)
        .packet_size(packet_size);
    cfg.validate().context("connection settings")?;
    Ok(cfg)
}

/// Parses a positive, finite number of seconds (for `--connect-timeout`).
pub(crate) fn positive_secs(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

/// Receiver-driven LEDBAT on a receiving side (`recv`, `torrent get`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RledbatArgs {
    /// Receiver-driven LEDBAT: limit the window advertised to the sender by the queuing
    /// delay of the incoming data, so that any uTP sender (libtorrent, Transmission)
    /// yields to other traffic on this side's link.
    #[arg(long)]
    pub rledbat: bool,
    /// rLEDBAT's queuing-delay target in milliseconds (default 60; the same as
    /// `--rledbat-param target=Nms`; implies --rledbat).
    #[arg(long = "rledbat-target-ms", value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub rledbat_target_ms: Option<u64>,
    /// A receiver-driven LEDBAT parameter: target=60ms, slowdowns=true, slowdown_backoff=1
    /// (to 64), empty_queue_restart=false, window_validation=false,
    /// standing_probe_span=max|sum, standing_probe_rtts=0 (to 16), rtt_fall=false,
    /// competitor.enabled=false (and the other competitor.*
    /// keys of ledbat-core); the keys of `ledbat tcp run --rledbat-param` but the kernel's
    /// signal, max_window and publish_interval_ms; repeatable (implies --rledbat).
    #[arg(long = "rledbat-param", value_name = "KEY=VALUE")]
    pub rledbat_params: Vec<String>,
}

impl RledbatArgs {
    /// The rLEDBAT settings these flags ask for (`None`: off); a refused parameter is an
    /// error that names it.
    pub fn config(&self) -> Result<Option<RledbatConfig>> {
        if !self.rledbat && self.rledbat_target_ms.is_none() && self.rledbat_params.is_empty() {
            return Ok(None);
        }
        let target = self.rledbat_target_ms.map(|ms| format!("target={ms}ms"));
        let kvs = target
            .iter()
            .chain(&self.rledbat_params)
            .map(String::as_str);
        Ok(Some(RledbatConfig::parse(kvs)?))
    }
}

/// A 32-bit microsecond wire delay as a signed figure in ms (half the range each way).
pub(crate) fn signed_delay_ms(d: ledbat_core::Duration) -> f64 {
    let us = d.as_micros() & 0xffff_ffff;
    (us as u32 as i32) as f64 / 1000.0
}

/// One line of `--trace`: the connection's state at one instant.
#[derive(Debug, Serialize)]
struct TraceLine {
    /// Seconds since the socket was bound.
    t: f64,
    /// The remote address (torrent traces, which hold every peer's connection).
    #[serde(skip_serializing_if = "Option::is_none")]
    peer: Option<SocketAddr>,
    bytes_acked: u64,
    bytes_received: u64,
    cwnd: u64,
    in_flight: u64,
    peer_window: u64,
    queuing_delay_ms: Option<f64>,
    base_delay_ms: Option<f64>,
    srtt_ms: Option<f64>,
    retransmissions: u64,
    timeouts: u64,
    state: &'static str,
    /// Receiver-driven LEDBAT's window, queuing delay and the times its competitor
    /// detection began to yield, when it is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    rledbat_window: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rledbat_qdelay_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rledbat_detections: Option<u64>,
    /// The sender's competitor detection, when it is on: tests ended so far and the last
    /// one's verdict and figures (a test ended between two lines where the count grew).
    #[serde(skip_serializing_if = "Option::is_none")]
    competitor_tests: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_test: Option<String>,
}

/// `--trace FILE`: one JSON line per sample of a connection's state, shared by every
/// connection of a command. A write error closes the trace (the transfer goes on).
#[derive(Debug)]
pub struct Tracer {
    out: std::sync::Mutex<Option<std::io::BufWriter<std::fs::File>>>,
}

impl Tracer {
    /// Creates (truncates) `path`; `None` when no trace was asked for.
    pub fn open(path: &Option<PathBuf>) -> Result<Option<std::sync::Arc<Tracer>>> {
        path.as_ref()
            .map(|p| {
                let f = std::fs::File::create(p)
                    .with_context(|| format!("creating trace file {}", p.display()))?;
                Ok(std::sync::Arc::new(Tracer {
                    out: std::sync::Mutex::new(Some(std::io::BufWriter::new(f))),
                }))
            })
            .transpose()
    }

    /// Appends one line: the state `s` at `t` seconds, of the connection to `peer`.
    pub fn record(&self, t: f64, peer: Option<SocketAddr>, s: &ConnectionStats) {
        use std::io::Write;
        let line = TraceLine {
            t,
            peer,
            bytes_acked: s.bytes_acked,
            bytes_received: s.bytes_received,
            cwnd: s.cwnd,
            in_flight: s.in_flight,
            peer_window: s.peer_window,
            queuing_delay_ms: s.metrics.queuing_delay.map(|d| d.as_millis_f64()),
            base_delay_ms: s.metrics.base_delay.map(signed_delay_ms),
            srtt_ms: s.srtt.map(|d| d.as_millis_f64()),
            retransmissions: s.retransmissions,
            timeouts: s.timeouts,
            state: s.metrics.state,
            rledbat_window: s.rledbat_window,
            rledbat_qdelay_ms: s.rledbat_queuing_delay.map(|d| d.as_millis_f64()),
            rledbat_detections: s.rledbat_detections,
            competitor_tests: s.competitor_tests,
            last_test: s.competitor_last_test.map(|o| o.to_string()),
        };
        let mut guard = match self.out.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(w) = guard.as_mut() {
            if serde_json::to_writer(&mut *w, &line).is_err()
                || writeln!(w).and_then(|_| w.flush()).is_err()
            {
                *guard = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_delays_read_as_signed_32_bit_microseconds() {
        use ledbat_core::Duration;
        assert_eq!(signed_delay_ms(Duration::from_micros(1500)), 1.5);
        // 2^32 - 493 000 us: a peer clock 493 ms behind ours, not 4 294 474 ms.
        assert_eq!(
            signed_delay_ms(Duration::from_micros((1u64 << 32) - 493_000)),
            -493.0
        );
    }

    #[test]
    fn rledbat_flags_build_its_config() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            r: RledbatArgs,
        }
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
                .unwrap()
                .r
                .config()
        };
        assert_eq!(parse(&[]).unwrap(), None);
        assert_eq!(
            parse(&["--rledbat"]).unwrap(),
            Some(RledbatConfig::default())
        );
        let t = parse(&["--rledbat", "--rledbat-target-ms", "25"])
            .unwrap()
            .unwrap();
        assert_eq!(t.target, ledbat_core::Duration::from_millis(25));
        // A target alone turns rLEDBAT on; one out of range is refused.
        let t = parse(&["--rledbat-target-ms", "30"]).unwrap().unwrap();
        assert_eq!(t.target, ledbat_core::Duration::from_millis(30));
        assert!(Cli::try_parse_from(["x", "--rledbat", "--rledbat-target-ms", "0"]).is_err());
        // A parameter turns rLEDBAT on; parameters after the target flag win.
        let p = parse(&[
            "--rledbat-param",
            "slowdown_backoff=8",
            "--rledbat-param",
            "competitor.enabled=true",
        ])
        .unwrap()
        .unwrap();
        assert_eq!((p.slowdown_backoff, p.competitor.enabled), (8, true));
        assert_eq!(p.target, RledbatConfig::default().target);
        let both = parse(&[
            "--rledbat",
            "--rledbat-target-ms",
            "25",
            "--rledbat-param",
            "target=40ms",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(both.target, ledbat_core::Duration::from_millis(40));
        // A refused parameter is an error naming it; the kernel's own keys are not uTP's.
        let e = parse(&["--rledbat-param", "slowdown_backoff=0"]).unwrap_err();
        assert!(e.to_string().contains("slowdown_backoff=0"), "{e}");
        let e = parse(&["--rledbat-param", "signal=rtt"]).unwrap_err();
        assert!(e.to_string().contains("no parameter `signal`"), "{e}");
    }
}
