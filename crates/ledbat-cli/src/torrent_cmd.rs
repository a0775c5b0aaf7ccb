//! `ledbat torrent`: BitTorrent over our uTP. `create` makes a v1 `.torrent`, `seed` serves
//! data to peers, `get` downloads from given peers. No tracker and no DHT: peers are given
//! as addresses. As with `send` / `recv`: a progress bar on stderr (unless `--quiet`), and
//! a summary on stdout when the command ends (`--json` for a JSON object).

#[path = "torrent_net.rs"]
mod torrent_net;

use crate::support::{runtime, transfer_bar, write_file_atomically};
use crate::transfer_cmd::Tracer;
use anyhow::{bail, Context, Result};
use indicatif::ProgressBar;
use ledbat_bt::{
    create_torrent, new_peer_id, run_peer, Bitfield, Metainfo, OutputPaths, PeerConfig,
    PeerOptions, PeerSummary, Storage, Torrent,
};
use ledbat_utp::{ConnectionConfig, ConnectionStats, StatsHandle};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};
use torrent_net::{connection_config, LastStats, Net, NewConn, Transport};

/// Arguments of `ledbat torrent`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand, Debug)]
enum Cmd {
    /// Make a v1 .torrent (trackerless) for a file or directory.
    Create(CreateArgs),
    /// Serve a torrent's data to peers until interrupted (Ctrl-C or SIGTERM).
    Seed(SeedArgs),
    /// Download a torrent from the given peers.
    Get(GetArgs),
}

#[derive(clap::Args, Debug)]
struct CreateArgs {
    /// File or directory to share.
    path: PathBuf,
    /// Where to write the .torrent.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// Piece size in KiB (a power of two, 16..=65536).
    #[arg(long = "piece-kib", default_value_t = 256)]
    piece_kib: u32,
}

#[derive(clap::Args, Debug)]
struct NetArgs {
    /// Congestion controller for uTP connections (see `ledbat controllers`).
    #[arg(long, default_value = crate::transfer_cmd::DEFAULT_CC)]
    cc: String,
    /// Controller parameter `key=value` (repeatable), e.g. `--cc-param gain=0.5`.
    #[arg(long = "cc-param", value_name = "KEY=VALUE")]
    cc_params: Vec<String>,
    /// Queuing-delay target in milliseconds (shorthand for `--cc-param target=<N>ms`).
    #[arg(long = "target-ms")]
    target_ms: Option<u64>,
    /// uTP packet size in bytes, header included (150..=1472).
    #[arg(long, default_value_t = 1400)]
    packet_size: u16,
    /// Transport carrying the peer connections.
    #[arg(long, value_enum, default_value_t = Transport::Utp)]
    transport: Transport,
    /// Keep retrying an outgoing connection for this many seconds (the peer may still be
    /// starting).
    #[arg(long = "connect-timeout", default_value_t = 10.0)]
    connect_timeout: f64,
    /// Outstanding 16 KiB block requests per peer (1..=4096).
    #[arg(long, default_value_t = PeerConfig::default().pipeline)]
    pipeline: usize,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Append every uTP connection's state (peer, cwnd, queuing and base delay, RTT,
    /// counters) as one JSON line every 100 ms to this file.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(clap::Args, Debug)]
struct SeedArgs {
    /// The .torrent file.
    torrent: PathBuf,
    /// The file (single-file torrent) or directory (multi-file torrent) to serve.
    #[arg(long)]
    data: PathBuf,
    /// Address to accept peers on.
    #[arg(long)]
    listen: SocketAddr,
    /// Also connect out to this peer (repeatable); for peers that do not dial out.
    #[arg(long)]
    peer: Vec<SocketAddr>,
    /// Stop after this many seconds (default: run until interrupted).
    #[arg(long = "max-seconds")]
    max_seconds: Option<f64>,
    #[command(flatten)]
    net: NetArgs,
}

#[derive(clap::Args, Debug)]
struct GetArgs {
    /// The .torrent file.
    torrent: PathBuf,
    /// Peer to download from (repeatable).
    #[arg(long, required = true)]
    peer: Vec<SocketAddr>,
    /// Directory to write into; the result is OUT/NAME.
    #[arg(long)]
    out: PathBuf,
    /// Local address to connect from.
    #[arg(long, default_value = "0.0.0.0:0")]
    bind: SocketAddr,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 600.0)]
    timeout: f64,
    #[command(flatten)]
    net: NetArgs,
}

/// Runs `ledbat torrent ...`.
pub fn run(a: Args) -> Result<()> {
    match a.cmd {
        Cmd::Create(c) => create(c),
        Cmd::Seed(s) => runtime()?.block_on(seed(s)),
        Cmd::Get(g) => runtime()?.block_on(get(g)),
    }
}

fn load(path: &Path) -> Result<Metainfo> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Metainfo::from_bytes(&bytes).with_context(|| format!("{}", path.display()))
}

fn create(a: CreateArgs) -> Result<()> {
    let piece = a
        .piece_kib
        .checked_mul(1024)
        .context("--piece-kib is too large")?;
    let bytes = create_torrent(&a.path, piece).context("cannot create the torrent")?;
    let meta = Metainfo::from_bytes(&bytes).context("created torrent does not parse")?;
    write_file_atomically(&a.output, &bytes)?;
    println!(
        "{}: {} ({} bytes, {} file{}, {} pieces of {} KiB), info-hash {}",
        a.output.display(),
        meta.name,
        meta.total_length,
        meta.files.len(),
        if meta.files.len() == 1 { "" } else { "s" },
        meta.num_pieces(),
        meta.piece_length / 1024,
        meta.info_hash_hex()
    );
    Ok(())
}

fn peer_config(net: &NetArgs) -> Result<PeerConfig> {
    let c = PeerConfig::default().pipeline(net.pipeline);
    c.validate().context("peer settings")?;
    Ok(c)
}

fn utp_config(net: &NetArgs) -> Result<ConnectionConfig> {
    connection_config(&net.cc, &net.cc_params, net.target_ms, net.packet_size)
}

fn transport_name(net: &NetArgs) -> &'static str {
    match net.transport {
        Transport::Utp => "utp",
        Transport::Tcp => "tcp",
    }
}

/// One finished connection.
struct Ended {
    addr: SocketAddr,
    result: std::result::Result<PeerSummary, String>,
    utp: Option<ConnectionStats>,
}

/// What every peer task of one command shares besides the torrent.
#[derive(Clone)]
struct PeerEnv {
    config: PeerConfig,
    stop: watch::Receiver<bool>,
    done: mpsc::UnboundedSender<Ended>,
    trace: Option<Arc<Tracer>>,
}

fn spawn_peer(c: NewConn, torrent: Torrent, env: PeerEnv) {
    let PeerEnv {
        config,
        stop,
        done,
        trace,
    } = env;
    tokio::spawn(async move {
        let opts = PeerOptions {
            config,
            peer_id: new_peer_id(),
            stop: Some(stop),
        };
        let stats: Option<StatsHandle> = c.stats;
        let mut last = LastStats::default();
        let fut = run_peer(c.stream, torrent, opts);
        tokio::pin!(fut);
        let mut every = tokio::time::interval(Duration::from_millis(100));
        let result = loop {
            tokio::select! {
                r = &mut fut => break r,
                _ = every.tick() => {
                    // Only fresh samples are traced: none once the connection is gone.
                    if let (Some(s), Some(t), Some(h)) = (last.sample(&stats), &trace, &stats) {
                        t.record(h.elapsed(), Some(c.peer), s);
                    }
                }
            }
        };
        last.sample(&stats);
        let _ = done.send(Ended {
            addr: c.peer,
            result: result.map_err(|e| e.to_string()),
            utp: last.0,
        });
    });
}

/// Connects to `peer`, retrying every 0.5 s for up to `--connect-timeout` seconds.
async fn dial(net: &Net, args: &NetArgs, peer: SocketAddr) -> Result<NewConn> {
    let deadline = Instant::now() + Duration::from_secs_f64(args.connect_timeout.max(0.0));
    loop {
        match net.connect(peer).await {
            Ok(c) => return Ok(c),
            Err(e) if Instant::now() >= deadline => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
        }
    }
}

fn mbit(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 * 8.0 / secs / 1e6
    } else {
        0.0
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
    match &e.result {
        Ok(s) => {
            pb.note(format!(
                "peer {} ({}): {} B down, {} B up, ended: {:?}{utp}",
                e.addr, s.peer_id, s.downloaded, s.uploaded, s.reason
            ));
            serde_json::json!({ "addr": e.addr.to_string(), "summary": s, "utp": e.utp })
        }
        Err(msg) => {
            pb.note(format!("peer {}: refused or failed: {msg}{utp}", e.addr));
            serde_json::json!({ "addr": e.addr.to_string(), "error": msg, "utp": e.utp })
        }
    }
}

/// The progress bar and the lines printed around it.
struct Progress {
    pb: ProgressBar,
    quiet: bool,
}

impl Progress {
    /// A line on stderr: above the bar when one is drawn, plain otherwise (indicatif draws
    /// nothing when stderr is not a terminal); nothing with `--quiet`.
    fn note(&self, msg: String) {
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

fn progress(total: Option<u64>, quiet: bool) -> Progress {
    Progress {
        pb: transfer_bar(total, quiet),
        quiet,
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Tells every connection to close, then collects their reports for up to 3 s.
async fn wind_down(
    stop: &watch::Sender<bool>,
    done: &mut mpsc::UnboundedReceiver<Ended>,
    live: &mut usize,
    peers: &mut Vec<serde_json::Value>,
    pb: &Progress,
) {
    stop.send_replace(true);
    let grace = tokio::time::sleep(Duration::from_secs(3));
    tokio::pin!(grace);
    while *live > 0 {
        tokio::select! {
            Some(e) = done.recv() => { *live -= 1; peers.push(report_peer(&e, pb)); }
            _ = &mut grace => break,
        }
    }
}

fn print_json(v: serde_json::Value) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}

async fn seed(a: SeedArgs) -> Result<()> {
    let ucfg = utp_config(&a.net)?;
    let config = peer_config(&a.net)?;
    let meta = load(&a.torrent)?;
    let storage = Storage::open_existing(&meta, &a.data)?;
    let have = storage.verify_all(&meta)?;
    if have.count() == 0 {
        bail!(
            "{}: no piece matches {} (wrong data?)",
            a.data.display(),
            a.torrent.display()
        );
    }
    let pb = progress(None, a.net.quiet);
    if !have.is_full() {
        pb.note(format!(
            "warning: only {} of {} pieces verified; seeding those",
            have.count(),
            meta.num_pieces()
        ));
    }
    let name = meta.name.clone();
    let hash = meta.info_hash_hex();
    let torrent = Torrent::new(meta, storage, have);
    let net = Net::bind(a.net.transport, a.listen, true, &ucfg).await?;
    let local = net.local_addr().unwrap_or(a.listen);
    pb.note(format!(
        "seeding {name} (info-hash {hash}) on {} {local}",
        transport_name(&a.net)
    ));
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let env = PeerEnv {
        config,
        stop: stop_rx,
        done: done_tx,
        trace: Tracer::open(&a.net.trace)?,
    };
    let mut live = 0usize;
    for &p in &a.peer {
        match dial(&net, &a.net, p).await {
            Ok(c) => {
                live += 1;
                spawn_peer(c, torrent.clone(), env.clone());
            }
            Err(e) => pb.note(format!("peer {p}: {e:#}")),
        }
    }
    let t0 = Instant::now();
    let deadline = a
        .max_seconds
        .map(|s| t0 + Duration::from_secs_f64(s.max(0.0)));
    let mut peers = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    let stopped_by = loop {
        tokio::select! {
            acc = net.accept() => match acc {
                Ok(c) => {
                    live += 1;
                    spawn_peer(c, torrent.clone(), env.clone());
                }
                Err(e) => pb.note(format!("accept: {e:#}")),
            },
            Some(e) = done_rx.recv() => {
                live -= 1;
                peers.push(report_peer(&e, &pb));
            }
            _ = shutdown_signal() => break "signal",
            _ = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d.into()).await,
                    None => std::future::pending().await,
                }
            } => break "max-seconds",
            _ = tick.tick() => {
                pb.pb.set_position(torrent.counters().uploaded);
                pb.pb.set_message(format!("peers {live}"));
            }
        }
    };
    wind_down(&stop_tx, &mut done_rx, &mut live, &mut peers, &pb).await;
    pb.pb.finish_and_clear();
    let c = torrent.counters();
    let secs = t0.elapsed().as_secs_f64();
    if a.net.json {
        print_json(serde_json::json!({
            "role": "torrent seed", "name": name, "info_hash": hash,
            "transport": transport_name(&a.net), "cc": ucfg.controller.name(),
            "listen": local.to_string(), "seconds": secs, "uploaded": c.uploaded,
            "stopped_by": stopped_by, "peers": peers,
        }))
    } else {
        println!(
            "torrent seed: {name} (info-hash {hash}): {} B uploaded to {} peer connection(s) in {secs:.2} s over {}; stopped by {stopped_by}",
            c.uploaded,
            peers.len(),
            transport_name(&a.net)
        );
        Ok(())
    }
}

async fn get(a: GetArgs) -> Result<()> {
    let ucfg = utp_config(&a.net)?;
    let config = peer_config(&a.net)?;
    let meta = load(&a.torrent)?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let out = OutputPaths::new(&meta, &a.out)?;
    out.clear_temp()?;
    let storage = Storage::create(&meta, &out.temp)?;
    let n = meta.num_pieces();
    let total = meta.total_length;
    let name = meta.name.clone();
    let hash = meta.info_hash_hex();
    let torrent = Torrent::new(meta, storage, Bitfield::new(n));
    let pb = progress(Some(total), a.net.quiet);
    let result = fetch(&a, &ucfg, config, &torrent, &pb).await;
    pb.pb.finish_and_clear();
    match result {
        Ok((secs, peers)) => {
            out.publish()?;
            let c = torrent.counters();
            if a.net.json {
                print_json(serde_json::json!({
                    "role": "torrent get", "name": name, "info_hash": hash,
                    "path": out.final_path, "complete": true, "verified": true,
                    "transport": transport_name(&a.net), "cc": ucfg.controller.name(),
                    "bytes": total, "pieces": n, "seconds": secs,
                    "rate_mbit_s": mbit(total, secs), "counters": c, "peers": peers,
                }))
            } else {
                println!(
                    "torrent get: {} complete: {total} B in {n} pieces (all SHA-1 verified), {secs:.2} s = {:.2} Mbit/s over {}; {} hash failures, {} wasted blocks",
                    out.final_path.display(),
                    mbit(total, secs),
                    transport_name(&a.net),
                    c.hash_failures,
                    c.wasted_blocks
                );
                Ok(())
            }
        }
        Err(e) => {
            let have = torrent.have().count();
            out.clear_temp()?;
            Err(e.context(format!(
                "download of {name} incomplete: {have} of {n} pieces verified; nothing kept"
            )))
        }
    }
}

async fn fetch(
    a: &GetArgs,
    ucfg: &ConnectionConfig,
    config: PeerConfig,
    torrent: &Torrent,
    pb: &Progress,
) -> Result<(f64, Vec<serde_json::Value>)> {
    let net = Net::bind(a.net.transport, a.bind, false, ucfg).await?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let env = PeerEnv {
        config,
        stop: stop_rx,
        done: done_tx,
        trace: Tracer::open(&a.net.trace)?,
    };
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs_f64(a.timeout.max(0.0));
    let mut live = 0usize;
    let mut dial_errors = Vec::new();
    for &p in &a.peer {
        match dial(&net, &a.net, p).await {
            Ok(c) => {
                live += 1;
                spawn_peer(c, torrent.clone(), env.clone());
            }
            Err(e) => {
                pb.note(format!("peer {p}: {e:#}"));
                dial_errors.push(format!("{p}: {e:#}"));
            }
        }
    }
    let mut changes = torrent.subscribe();
    let mut peers = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    let outcome: Result<()> = loop {
        if torrent.is_complete() {
            break Ok(());
        }
        if live == 0 {
            break Err(anyhow::anyhow!(
                "no peer left to download from{}",
                if dial_errors.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", dial_errors.join("; "))
                }
            ));
        }
        tokio::select! {
            _ = changes.changed() => {}
            Some(e) = done_rx.recv() => { live -= 1; peers.push(report_peer(&e, pb)); }
            _ = tokio::time::sleep_until(deadline.into()) => {
                break Err(anyhow::anyhow!("timed out after {} s", a.timeout));
            }
            _ = shutdown_signal() => break Err(anyhow::anyhow!("interrupted")),
            _ = tick.tick() => {
                let c = torrent.counters();
                pb.pb.set_position(c.downloaded);
                pb.pb.set_message(format!("pieces {}/{}, peers {live}", c.pieces_verified, torrent.meta().num_pieces()));
            }
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    wind_down(&stop_tx, &mut done_rx, &mut live, &mut peers, pb).await;
    outcome.map(|()| (secs, peers))
}
