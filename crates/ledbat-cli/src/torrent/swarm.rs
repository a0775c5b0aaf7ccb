//! The swarm loop every `ledbat torrent` transfer runs (`run`, and `seed` / `get` as
//! presets of it): accept connections on uTP and TCP, dial the peers given by hand and
//! those the tracker returns over the transports the disposition attempts, announce to the
//! tracker, run the choke rounds, show progress, and stop when the stop rule says so.
//!
//! The protocol decisions are in `ledbat-bt` (sans-IO picker, choker, disposition,
//! announce schedule; `Torrent` composes them); this is the tokio glue around them.

use super::net::{LastStats, Net, NewConn};
use crate::utp_opts::Tracer;
use anyhow::{anyhow, Result};
use indicatif::ProgressBar;
use ledbat_bt::proto::CloseReason;
use ledbat_bt::tracker::{announce_over, Announce, AnnounceReply, Announcer, Event, TrackerUrl};
use ledbat_bt::{run_peer, Disposition, PeerError, PeerOptions, PeerSummary};
use ledbat_bt::{Torrent, Transport};
use ledbat_utp::{ConnectionConfig, ConnectionStats};
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// When to leave.
#[derive(Clone, Copy, Debug)]
pub struct StopRule {
    /// Seconds to keep seeding after the download completes (0: leave at once; None:
    /// until interrupted or `max_seconds`).
    pub seed_seconds: Option<f64>,
    /// Leave after this many seconds in any case.
    pub max_seconds: Option<f64>,
    /// Fail as soon as no connection is open and no dial is pending (a download from
    /// peers given by hand, with no tracker and not accepting).
    pub give_up_without_peers: bool,
}

/// What one swarm run does.
pub struct Plan {
    /// Transports attempted and accepted.
    pub disposition: Disposition,
    /// Address of the uTP socket and the TCP listener (or to dial from).
    pub listen: SocketAddr,
    /// Peers to dial from the start.
    pub peers: Vec<SocketAddr>,
    /// Tracker URLs to announce to (tried in order).
    pub trackers: Vec<String>,
    /// Keep retrying a dial for this many seconds.
    pub connect_timeout: f64,
    /// An address whose connections ended may be dialled again after this long.
    pub redial_after: Duration,
    /// Peers asked of the tracker.
    pub numwant: u32,
    /// At most this many connections (dials stop there; the torrent refuses more).
    pub max_peers: usize,
    /// Dial back peers that connected to us, at the listening port their extended
    /// handshake (BEP 10) gives, over the transports we attempt.
    pub dial_back: bool,
    /// When to leave.
    pub stop: StopRule,
    /// uTP connection traces.
    pub trace: Option<Arc<Tracer>>,
}

/// What one swarm run did.
pub struct Outcome {
    /// Wall-clock seconds from start to the end of the run.
    pub seconds: f64,
    /// Seconds from start until every piece was verified (0 for a seed).
    pub completed_after: Option<f64>,
    /// Why it stopped.
    pub stopped_by: &'static str,
    /// One JSON object per finished connection, in the order they ended: the first
    /// [`MAX_REPORTED_TRADED`] that moved payload, the first [`MAX_REPORTED_IDLE`] of those
    /// that completed the handshake without moving any, and as many of those that did not
    /// complete it.
    pub peers: Vec<serde_json::Value>,
    /// Connections that ended after those, counted only.
    pub peers_unreported: u64,
    /// Tracker announces.
    pub tracker: serde_json::Value,
    /// The address bound.
    pub local: SocketAddr,
    /// The run failed (no peer left, fatal storage error).
    pub error: Option<anyhow::Error>,
}

/// The progress bar and the lines printed around it.
#[derive(Clone)]
pub struct Progress {
    /// The bar (bytes of verified pieces).
    pub pb: ProgressBar,
    /// No output at all.
    pub quiet: bool,
}

impl Progress {
    /// A bar over `total` bytes (hidden with `quiet`).
    pub fn new(total: Option<u64>, quiet: bool) -> Self {
        Self {
            pb: crate::support::transfer_bar(total, quiet),
            quiet,
        }
    }

    /// A line on stderr: above the bar when one is drawn, plain otherwise; nothing with
    /// `--quiet`.
    pub fn note(&self, msg: String) {
        if self.quiet {
            return;
        }
        if self.pb.is_hidden() {
            eprintln!("{msg}");
        } else {
            self.pb.println(msg);
        }
    }
}

/// Peer addresses the dialer remembers, at most.
const MAX_KNOWN: usize = 2000;
/// Finished connections that moved payload (either way) reported one by one in the summary,
/// at most; the rest are counted.
const MAX_REPORTED_TRADED: usize = 500;
/// Finished connections that completed the BitTorrent handshake but moved no payload, and
/// those that did not complete it (refused, no handshake, a protocol error before it),
/// reported one by one, at most, each kind: under attack both number thousands (peers that
/// reconnect every second, slowloris), and a single cap shared with the others filled with
/// them and left out the peers that traded.
const MAX_REPORTED_IDLE: usize = 100;

/// One finished connection.
struct Ended {
    addr: SocketAddr,
    transport: Transport,
    outgoing: bool,
    /// Refused after the handshake because another connection to the peer is kept.
    duplicate: bool,
    /// Closed by the peer before its handshake came (refused, or busy).
    before_handshake: bool,
    result: std::result::Result<PeerSummary, String>,
    utp: Option<ConnectionStats>,
}

type Key = (SocketAddr, Transport);

/// A dial whose connection the peer closed before its BitTorrent handshake is tried again
/// after this long, twice as long after each such close in a row, up to `redial_after`.
/// Such a close is usually a busy peer (its cap on connections waiting for a handshake,
/// two per address, which every peer behind one NAT, or on one loopback, shares), not a
/// peer that does not want us; waiting `redial_after` (a minute) lost it for good in a
/// short swarm.
const EARLY_RETRY: Duration = Duration::from_secs(1);

/// Whom to dial: every address learned, over each transport the disposition attempts,
/// once; again after `redial_after` if the connection we opened ended (sooner, from
/// [`EARLY_RETRY`], if it ended before the peer's handshake), unless the peer refused it
/// as a duplicate (it has another connection with us, which is kept).
#[derive(Default)]
struct Dialer {
    known: Vec<SocketAddr>,
    dialing: HashSet<Key>,
    open: HashSet<Key>,
    last_try: HashMap<Key, Instant>,
    /// Dials closed before the handshake, and how long to wait before the next.
    backoff: HashMap<Key, Duration>,
    duplicate: HashSet<SocketAddr>,
}

impl Dialer {
    /// The dials to start now for `addr` (marked as started).
    fn wanted(
        &mut self,
        addr: SocketAddr,
        plan: &Plan,
        local: SocketAddr,
        live: usize,
        now: Instant,
    ) -> Vec<Key> {
        if !self.known.contains(&addr) {
            // Addresses come from trackers and from peers (BEP 10): bounded, the oldest
            // forgotten first.
            if self.known.len() >= MAX_KNOWN {
                let old = self.known.remove(0);
                for t in Transport::ALL {
                    self.last_try.remove(&(old, t));
                    self.backoff.remove(&(old, t));
                }
            }
            self.known.push(addr);
        }
        if addr == local || self.duplicate.contains(&addr) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for t in plan.disposition.dials() {
            let key = (addr, t);
            let wait = self.backoff.get(&key).copied().unwrap_or(plan.redial_after);
            let fresh = self
                .last_try
                .get(&key)
                .is_none_or(|&at| now.saturating_duration_since(at) >= wait);
            let room = live + self.dialing.len() < plan.max_peers;
            if room && fresh && !self.dialing.contains(&key) && !self.open.contains(&key) {
                self.dialing.insert(key);
                self.last_try.insert(key, now);
                out.push(key);
            }
        }
        out
    }

    /// A dial ended: connected (`ok`) or not. A dial that could not connect is no busy
    /// peer: it waits `redial_after` like any other, not the early back-off.
    fn dialed(&mut self, key: Key, ok: bool) {
        self.dialing.remove(&key);
        if ok {
            self.open.insert(key);
        } else {
            self.backoff.remove(&key);
        }
    }

    /// Whether a dial closed before the handshake will be tried again sooner than
    /// `redial_after`: a download from peers given by hand does not give up meanwhile.
    fn retry_pending(&self, redial_after: Duration) -> bool {
        self.backoff.values().any(|&d| d < redial_after)
    }

    /// A connection we opened ended at `now`: `before_handshake` when the peer closed it
    /// before its handshake came (see [`EARLY_RETRY`]).
    fn ended(
        &mut self,
        key: Key,
        duplicate: bool,
        before_handshake: bool,
        redial_after: Duration,
        now: Instant,
    ) {
        self.open.remove(&key);
        self.last_try.insert(key, now);
        if duplicate {
            self.duplicate.insert(key.0);
        }
        if before_handshake {
            let next = self
                .backoff
                .get(&key)
                .map_or(EARLY_RETRY, |&d| d.saturating_mul(2));
            self.backoff.insert(key, next.min(redial_after));
        } else {
            self.backoff.remove(&key);
        }
    }
}

/// What every peer task shares besides the torrent.
#[derive(Clone)]
struct PeerEnv {
    stop: watch::Receiver<bool>,
    done: mpsc::UnboundedSender<Ended>,
    trace: Option<Arc<Tracer>>,
}

fn spawn_peer(c: NewConn, torrent: Torrent, env: PeerEnv) {
    tokio::spawn(async move {
        let opts = PeerOptions {
            stop: Some(env.stop),
            addr: Some(c.peer),
            transport: Some(c.transport),
            outgoing: c.outgoing,
            ..PeerOptions::default()
        };
        let stats = c.stats;
        let mut last = LastStats::default();
        let fut = run_peer(c.stream, torrent, opts);
        tokio::pin!(fut);
        let mut every = tokio::time::interval(Duration::from_millis(100));
        let result = loop {
            tokio::select! {
                r = &mut fut => break r,
                _ = every.tick() => {
                    // Only fresh samples are traced: none once the connection is gone.
                    if let (Some(s), Some(t), Some(h)) = (last.sample(&stats), &env.trace, &stats) {
                        t.record(h.elapsed(), Some(c.peer), s);
                    }
                }
            }
        };
        last.sample(&stats);
        let duplicate = matches!(result, Err(PeerError::Closed(CloseReason::Duplicate)));
        let before_handshake = matches!(result, Err(PeerError::ClosedInHandshake));
        let _ = env.done.send(Ended {
            addr: c.peer,
            transport: c.transport,
            outgoing: c.outgoing,
            duplicate,
            before_handshake,
            result: result.map_err(|e| e.to_string()),
            utp: last.0,
        });
    });
}

/// What a finished connection did, for the summary's caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// It moved payload.
    Traded,
    /// It completed the handshake and moved none.
    Handshaken,
    /// It ended before the handshake or was refused.
    Failed,
}

/// The summary's reports of finished connections, each kind under its own cap.
#[derive(Default)]
struct Reports {
    list: Vec<serde_json::Value>,
    /// Listed connections of each kind: traded, handshaken, failed.
    listed: [usize; 3],
    /// Connections past their kind's cap, counted only.
    unreported: u64,
}

impl Reports {
    /// Lists `v` unless its kind's cap is reached; counts it then.
    fn add(&mut self, v: serde_json::Value, kind: Kind) {
        let (i, cap) = match kind {
            Kind::Traded => (0, MAX_REPORTED_TRADED),
            Kind::Handshaken => (1, MAX_REPORTED_IDLE),
            Kind::Failed => (2, MAX_REPORTED_IDLE),
        };
        if self.listed[i] < cap {
            self.listed[i] += 1;
            self.list.push(v);
        } else {
            self.unreported += 1;
        }
    }

    /// Reports `e`, which ended `at` seconds into the run (a line on stderr, an entry here).
    fn ended(&mut self, e: &Ended, at: f64, pb: &Progress) {
        let mut v = report_peer(e, pb);
        v["ended_s"] = ((at * 1000.0).round() / 1000.0).into();
        let kind = match &e.result {
            Ok(s) if s.downloaded + s.uploaded > 0 => Kind::Traded,
            Ok(_) => Kind::Handshaken,
            Err(_) => Kind::Failed,
        };
        self.add(v, kind);
    }
}

fn report_peer(e: &Ended, pb: &Progress) -> serde_json::Value {
    let utp = e.utp.as_ref().map(|u| {
        format!(
            "; utp: {} retransmissions, {} timeouts, srtt {}",
            u.retransmissions,
            u.timeouts,
            u.srtt.map_or("-".into(), |d| d.to_string())
        )
    });
    let utp = utp.unwrap_or_default();
    let dir = if e.outgoing { "out" } else { "in" };
    let base = serde_json::json!({
        "addr": e.addr.to_string(), "transport": e.transport, "outgoing": e.outgoing,
        "utp": e.utp,
    });
    let mut v = base;
    match &e.result {
        Ok(s) => {
            pb.note(format!(
                "peer {} {} {dir} ({}): {} B down, {} B up, {} requests ({} refused), \
                 unchoked {} times, ended: {:?}{utp}",
                e.addr,
                e.transport,
                s.peer_id,
                s.downloaded,
                s.uploaded,
                s.requests_received,
                s.requests_refused,
                s.unchokes,
                s.reason
            ));
            v["summary"] = serde_json::to_value(s).unwrap_or_default();
        }
        Err(msg) => {
            pb.note(format!(
                "peer {} {} {dir}: ended: {msg}{utp}",
                e.addr, e.transport
            ));
            v["error"] = msg.clone().into();
        }
    }
    v
}

async fn sleep_until_opt(t: Option<Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}

/// Connects to `peer` over `t` within `timeout` seconds in all. Each attempt is bounded by
/// the time left, so a silent peer (whose SYN retries alone take 31 s) fails on time; a
/// refusal (ICMP port unreachable for uTP, RST for TCP) comes back at once and is retried
/// every 0.5 s, since the peer may still be starting, the first one shown at once.
async fn dial(
    net: &Net,
    peer: SocketAddr,
    t: Transport,
    timeout: f64,
    pb: &Progress,
) -> Result<NewConn> {
    const RETRY: Duration = Duration::from_millis(500);
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs_f64(timeout.max(0.0));
    let mut attempts = 0u32;
    loop {
        attempts += 1;
        let left = deadline.saturating_duration_since(Instant::now());
        let err = match tokio::time::timeout(left, net.connect(peer, t)).await {
            Ok(Ok(c)) => return Ok(c),
            Ok(Err(e)) => e,
            Err(_) => anyhow!("cannot connect to {t} {peer}: no answer"),
        };
        if Instant::now() + RETRY >= deadline {
            return Err(err.context(format!(
                "gave up after {attempts} attempt(s) in {:.1} s (--connect-timeout {timeout})",
                t0.elapsed().as_secs_f64()
            )));
        }
        if attempts == 1 {
            pb.note(format!(
                "peer {peer}: {err:#}; retrying for up to {timeout} s"
            ));
        }
        tokio::time::sleep(RETRY).await;
    }
}

/// One announce to the first tracker that answers.
async fn announce(urls: &[TrackerUrl], a: Announce) -> Result<AnnounceReply> {
    let mut last = anyhow!("no tracker");
    for u in urls {
        let r = async {
            let addr = tokio::net::lookup_host((u.host.as_str(), u.port))
                .await?
                .next()
                .ok_or_else(|| anyhow!("{}: no address", u.host))?;
            let s = tokio::net::TcpStream::connect(addr).await?;
            Ok::<_, anyhow::Error>(announce_over(s, u, &a).await?)
        };
        match tokio::time::timeout(Duration::from_secs(15), r).await {
            Ok(Ok(reply)) => return Ok(reply),
            Ok(Err(e)) => last = e.context(format!("tracker {}:{}", u.host, u.port)),
            Err(_) => last = anyhow!("tracker {}:{}: no answer within 15 s", u.host, u.port),
        }
    }
    Err(last)
}

/// What we tell the tracker now.
fn announce_of(torrent: &Torrent, port: u16, event: Event, numwant: u32) -> Announce {
    let c = torrent.counters();
    Announce {
        info_hash: torrent.meta().info_hash,
        peer_id: torrent.config().peer_id,
        port,
        uploaded: c.uploaded,
        downloaded: c.downloaded,
        left: torrent.left(),
        event,
        numwant,
    }
}

/// Megabits per second of `bytes` over `secs`.
pub fn mbit(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 * 8.0 / secs / 1e6
    } else {
        0.0
    }
}

fn mb(b: u64) -> String {
    format!("{:.1} MB", b as f64 / 1e6)
}

/// Joins the swarm and runs until the stop rule. `on_complete` runs once when the last
/// piece is verified (it moves a download to its final name); its error ends the run.
pub async fn run_swarm(
    torrent: &Torrent,
    ucfg: &ConnectionConfig,
    plan: &Plan,
    pb: &Progress,
    mut on_complete: impl FnMut() -> Result<()>,
) -> Result<Outcome> {
    let trackers = plan
        .trackers
        .iter()
        .map(|u| TrackerUrl::parse(u))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let net = Arc::new(Net::bind(plan.disposition, plan.listen, ucfg).await?);
    let local = net.local_addr();
    let t0 = Instant::now();
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let (dial_tx, mut dial_rx) =
        mpsc::unbounded_channel::<(SocketAddr, Transport, Result<NewConn>)>();
    let (ann_tx, mut ann_rx) = mpsc::unbounded_channel::<(Event, Result<AnnounceReply>)>();
    let accepted: Vec<&str> = Transport::ALL
        .into_iter()
        .filter(|&t| plan.disposition.accepts(t))
        .map(Transport::name)
        .collect();
    torrent.set_listen_port((!accepted.is_empty()).then_some(local.port()));
    if !accepted.is_empty() {
        pb.note(format!("listening on {local} ({})", accepted.join(", ")));
    }
    let env = PeerEnv {
        stop: stop_rx,
        done: done_tx,
        trace: plan.trace.clone(),
    };
    let mut live = 0usize;
    let mut dialer = Dialer::default();
    let mut dial_errors: Vec<String> = Vec::new();
    let mut reports = Reports::default();
    let mut announcer = (!trackers.is_empty()).then(|| Announcer::new(torrent.now()));
    let mut tracker_log =
        serde_json::json!({ "ok": 0, "failed": 0, "last_error": null, "peers_received": 0 });
    let mut completed_after = torrent.is_complete().then_some(0.0);
    let mut seed_deadline = completed_after.and_then(|_| {
        plan.stop
            .seed_seconds
            .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)))
    });
    let deadline = plan
        .stop
        .max_seconds
        .map(|s| t0 + Duration::from_secs_f64(s.max(0.0)));
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    // As often as the first retry after an early close (EARLY_RETRY) may be due.
    let mut redial = tokio::time::interval(EARLY_RETRY);
    let mut changes = torrent.subscribe();
    let mut rate_mark = (Instant::now(), torrent.counters());
    let mut rates = (0.0, 0.0);

    let start_dials = |dialer: &mut Dialer, addr: SocketAddr, live: usize| {
        if torrent.is_banned(addr.ip()) {
            return;
        }
        for (addr, t) in dialer.wanted(addr, plan, local, live, Instant::now()) {
            let (net, tx, timeout) = (net.clone(), dial_tx.clone(), plan.connect_timeout);
            let pb = pb.clone();
            tokio::spawn(async move {
                let r = dial(&net, addr, t, timeout, &pb).await;
                let _ = tx.send((addr, t, r));
            });
        }
    };
    for &p in &plan.peers {
        start_dials(&mut dialer, p, live);
    }

    let mut error = None;
    let stopped_by = loop {
        if let Some(f) = torrent.fatal() {
            error = Some(anyhow!("storage: {f}"));
            break "error";
        }
        if completed_after.is_none() && torrent.is_complete() {
            completed_after = Some(t0.elapsed().as_secs_f64());
            if let Err(e) = on_complete() {
                error = Some(e);
                break "error";
            }
            pb.note(format!(
                "complete after {:.2} s",
                completed_after.unwrap_or(0.0)
            ));
            if let Some(a) = announcer.as_mut() {
                a.completed(torrent.now());
            }
            seed_deadline = plan
                .stop
                .seed_seconds
                .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
        }
        if seed_deadline.is_some_and(|d| Instant::now() >= d) {
            break "complete";
        }
        if plan.stop.give_up_without_peers
            && completed_after.is_none()
            && live == 0
            && dialer.dialing.is_empty()
            && !dialer.retry_pending(plan.redial_after)
        {
            let why = if dial_errors.is_empty() {
                String::new()
            } else {
                format!(" ({})", dial_errors.join("; "))
            };
            error = Some(anyhow!("no peer left to download from{why}"));
            break "no peers";
        }
        let next_announce = announcer.as_ref().and_then(|a| a.next_at()).map(|at| {
            let now = torrent.now();
            Instant::now() + Duration::from_nanos(at.as_nanos().saturating_sub(now.as_nanos()))
        });
        tokio::select! {
            acc = net.accept() => match acc {
                Ok(c) => {
                    live += 1;
                    spawn_peer(c, torrent.clone(), env.clone());
                }
                Err(e) => pb.note(format!("accept: {e:#}")),
            },
            Some((addr, t, r)) = dial_rx.recv() => {
                dialer.dialed((addr, t), r.is_ok());
                match r {
                    Ok(c) => {
                        live += 1;
                        spawn_peer(c, torrent.clone(), env.clone());
                    }
                    Err(e) => {
                        pb.note(format!("peer {addr} {t}: {e:#}"));
                        dial_errors.push(format!("{addr} {t}: {e:#}"));
                    }
                }
            }
            Some(e) = done_rx.recv() => {
                live -= 1;
                if e.outgoing {
                    let now = Instant::now();
                    dialer.ended((e.addr, e.transport), e.duplicate, e.before_handshake, plan.redial_after, now);
                }
                reports.ended(&e, t0.elapsed().as_secs_f64(), pb);
            }
            Some((event, r)) = ann_rx.recv() => {
                let now = torrent.now();
                let a = announcer.as_mut().expect("announcing");
                match r {
                    Ok(reply) => {
                        a.on_success(now, &reply);
                        tracker_log["ok"] = (tracker_log["ok"].as_u64().unwrap_or(0) + 1).into();
                        tracker_log["peers_received"] = (tracker_log["peers_received"].as_u64().unwrap_or(0) + reply.peers.len() as u64).into();
                        if let Some(w) = &reply.warning {
                            pb.note(format!("tracker warning: {w}"));
                        }
                        for p in reply.peers {
                            start_dials(&mut dialer, p, live);
                        }
                    }
                    Err(e) => {
                        let d = a.on_failure(now);
                        tracker_log["failed"] = (tracker_log["failed"].as_u64().unwrap_or(0) + 1).into();
                        tracker_log["last_error"] = format!("{e:#}").into();
                        pb.note(format!("tracker announce ({event:?}) failed: {e:#}; retrying in {:.0} s", d.as_secs_f64()));
                    }
                }
            }
            _ = sleep_until_opt(next_announce) => {
                let a = announcer.as_mut().expect("announcing");
                if let Some(event) = a.poll(torrent.now()) {
                    let req = announce_of(torrent, local.port(), event, plan.numwant);
                    let (urls, tx) = (trackers.clone(), ann_tx.clone());
                    tokio::spawn(async move {
                        let r = announce(&urls, req).await;
                        let _ = tx.send((event, r));
                    });
                }
            }
            _ = changes.changed() => {
                // Peers that connected to us and told their listening port (BEP 10): dial
                // them back over the transports we attempt (the duplicate rule keeps one).
                for addr in torrent.take_learned() {
                    if plan.dial_back {
                        start_dials(&mut dialer, addr, live);
                    }
                }
            }
            _ = redial.tick() => {
                for p in dialer.known.clone() {
                    start_dials(&mut dialer, p, live);
                }
            }
            _ = crate::support::shutdown_signal() => break "signal",
            _ = sleep_until_opt(deadline) => break "max-seconds",
            _ = sleep_until_opt(seed_deadline) => {}
            _ = tick.tick() => {
                let c = torrent.counters();
                let dt = rate_mark.0.elapsed().as_secs_f64();
                if dt >= 1.0 {
                    rates = (mbit(c.downloaded - rate_mark.1.downloaded, dt), mbit(c.uploaded - rate_mark.1.uploaded, dt));
                    rate_mark = (Instant::now(), c);
                }
                let by = torrent.transports();
                let n = |t| by.get(&Some(t)).copied().unwrap_or(0);
                pb.pb.set_position(torrent.meta().total_length - torrent.left());
                pb.pb.set_message(format!(
                    "pieces {}/{} | peers {} (utp {}, tcp {}) | down {:.2} up {:.2} Mbit/s | utp {}/{} tcp {}/{} down/up",
                    torrent.have().count(), torrent.meta().num_pieces(), live, n(Transport::Utp), n(Transport::Tcp),
                    rates.0, rates.1, mb(c.utp.downloaded), mb(c.utp.uploaded), mb(c.tcp.downloaded), mb(c.tcp.uploaded)
                ));
            }
        }
    };
    let seconds = t0.elapsed().as_secs_f64();
    // Leave: tell the tracker (briefly), close every connection, collect their reports.
    if let Some(a) = &announcer {
        if a.has_started() {
            let req = announce_of(torrent, local.port(), Event::Stopped, 0);
            let _ = tokio::time::timeout(Duration::from_secs(2), announce(&trackers, req)).await;
        }
    }
    stop_tx.send_replace(true);
    let grace = tokio::time::sleep(Duration::from_secs(3));
    tokio::pin!(grace);
    while live > 0 {
        tokio::select! {
            Some(e) = done_rx.recv() => {
                live -= 1;
                reports.ended(&e, t0.elapsed().as_secs_f64(), pb);
            }
            _ = &mut grace => break,
        }
    }
    Ok(Outcome {
        seconds,
        completed_after,
        stopped_by,
        peers: reports.list,
        peers_unreported: reports.unreported,
        tracker: tracker_log,
        local,
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A uTP-only plan that may dial again a minute after a connection ended.
    fn utp_plan() -> Plan {
        Plan {
            disposition: Disposition::UTP_ONLY,
            listen: "127.0.0.1:6881".parse().unwrap(),
            peers: Vec::new(),
            trackers: Vec::new(),
            connect_timeout: 5.0,
            redial_after: Duration::from_secs(60),
            numwant: 50,
            max_peers: 50,
            dial_back: true,
            stop: StopRule {
                seed_seconds: None,
                max_seconds: None,
                give_up_without_peers: false,
            },
            trace: None,
        }
    }

    /// Dials `addr` at `at` and says whether one was started.
    fn dials(d: &mut Dialer, plan: &Plan, addr: SocketAddr, at: Instant) -> bool {
        let local = plan.listen;
        !d.wanted(addr, plan, local, 0, at).is_empty()
    }

    #[test]
    fn a_dial_closed_before_the_handshake_is_retried_after_one_two_four_seconds() {
        let plan = utp_plan();
        let peer: SocketAddr = "127.0.0.1:7000".parse().unwrap();
        let key = (peer, Transport::Utp);
        let t0 = Instant::now();
        let mut d = Dialer::default();
        let mut at = t0;
        for wait in [1, 2, 4] {
            assert!(dials(&mut d, &plan, peer, at));
            d.dialed(key, true);
            d.ended(key, false, true, plan.redial_after, at);
            assert!(d.retry_pending(plan.redial_after));
            let wait = Duration::from_secs(wait);
            assert!(!dials(
                &mut d,
                &plan,
                peer,
                at + wait - Duration::from_millis(1)
            ));
            at += wait;
        }
        assert!(dials(&mut d, &plan, peer, at));
    }

    #[test]
    fn a_retry_that_cannot_connect_waits_redial_after_and_leaves_nothing_pending() {
        let plan = utp_plan();
        let peer: SocketAddr = "127.0.0.1:7000".parse().unwrap();
        let key = (peer, Transport::Utp);
        let t0 = Instant::now();
        let mut d = Dialer::default();
        assert!(dials(&mut d, &plan, peer, t0));
        d.dialed(key, true);
        d.ended(key, false, true, plan.redial_after, t0);
        let t1 = t0 + EARLY_RETRY;
        assert!(dials(&mut d, &plan, peer, t1));
        // The peer is gone: the retry does not connect.
        d.dialed(key, false);
        assert!(!d.retry_pending(plan.redial_after));
        assert!(!dials(&mut d, &plan, peer, t1 + Duration::from_secs(59)));
        assert!(dials(&mut d, &plan, peer, t1 + plan.redial_after));
    }

    #[test]
    fn early_closes_back_off_to_redial_after_and_a_handshake_resets_the_wait() {
        let plan = utp_plan();
        let peer: SocketAddr = "127.0.0.1:7000".parse().unwrap();
        let key = (peer, Transport::Utp);
        let mut d = Dialer::default();
        let t0 = Instant::now();
        for _ in 0..10 {
            d.ended(key, false, true, plan.redial_after, t0);
        }
        // 2^9 s would be 512 s: capped at the minute, and no retry counts as pending.
        assert_eq!(d.backoff[&key], plan.redial_after);
        assert!(!d.retry_pending(plan.redial_after));
        d.ended(key, false, false, plan.redial_after, t0);
        let s59 = t0 + Duration::from_secs(59);
        assert!(!dials(&mut d, &plan, peer, s59));
        assert!(dials(&mut d, &plan, peer, t0 + plan.redial_after));
        d.dialed(key, true);
        d.ended(key, false, true, plan.redial_after, t0 + plan.redial_after);
        let again = t0 + plan.redial_after + EARLY_RETRY;
        assert!(
            dials(&mut d, &plan, peer, again),
            "the back-off starts over"
        );
    }

    #[test]
    fn idle_and_refused_connections_do_not_crowd_out_the_peers_that_traded() {
        let mut r = Reports::default();
        for i in 0..MAX_REPORTED_IDLE + 50 {
            r.add(serde_json::json!({ "refused": i }), Kind::Failed);
            r.add(serde_json::json!({ "idle": i }), Kind::Handshaken);
        }
        r.add(serde_json::json!({ "traded": 0 }), Kind::Traded);
        assert_eq!(r.list.len(), 2 * MAX_REPORTED_IDLE + 1);
        assert_eq!(r.list.last().unwrap()["traded"], 0);
        assert_eq!(r.unreported, 100);
    }

    #[test]
    fn each_kind_is_listed_up_to_its_own_cap_in_the_order_they_ended() {
        let mut r = Reports::default();
        for i in 0..MAX_REPORTED_TRADED + 3 {
            r.add(serde_json::json!({ "i": i }), Kind::Traded);
        }
        r.add(serde_json::json!({ "failed": true }), Kind::Failed);
        assert_eq!(r.listed, [MAX_REPORTED_TRADED, 0, 1]);
        assert_eq!(r.unreported, 3);
        assert_eq!(r.list[0]["i"], 0);
        assert_eq!(
            r.list[MAX_REPORTED_TRADED - 1]["i"],
            MAX_REPORTED_TRADED - 1
        );
        assert_eq!(r.list[MAX_REPORTED_TRADED]["failed"], true);
    }
}
