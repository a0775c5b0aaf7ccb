//! `ledbat torrent`: BitTorrent over our uTP. `create` makes a v1 `.torrent`, `seed` serves
//! data to peers, `get` downloads from given peers. No tracker and no DHT: peers are given
//! as addresses. Progress goes to stderr once a second (unless `--quiet`); the summary goes
//! to stdout when the command ends (`--json` for one JSON object).

#[path = "torrent_net.rs"]
mod torrent_net;

use anyhow::{bail, Context, Result};
use ledbat_bt::{
    create_torrent, new_peer_id, run_peer, Bitfield, Metainfo, OutputPaths, PeerConfig,
    PeerOptions, PeerSummary, Storage, Torrent,
};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};
use torrent_net::{BoxStream, CcChoice, Listener, Transport};

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
    #[arg(long, default_value = "ledbat")]
    cc: String,
    /// Queueing-delay target in milliseconds for delay-based controllers.
    #[arg(long = "target-ms")]
    target_ms: Option<u64>,
    /// Transport carrying the peer connections.
    #[arg(long, value_enum, default_value_t = Transport::Utp)]
    transport: Transport,
    /// Keep retrying an outgoing connection for this many seconds (the peer may still be
    /// starting).
    #[arg(long = "connect-timeout", default_value_t = 10.0)]
    connect_timeout: f64,
    /// Outstanding 16 KiB block requests per peer.
    #[arg(long, default_value_t = PeerConfig::default().pipeline)]
    pipeline: usize,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
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

fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
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
    // Write beside the target and rename, so a failure leaves nothing half-written.
    let tmp = a.output.with_extension("torrent.tmp");
    std::fs::write(&tmp, &bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &a.output)
        .with_context(|| format!("cannot write {}", a.output.display()))?;
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
    c.validate()?;
    Ok(c)
}

/// One finished connection.
struct Ended {
    addr: SocketAddr,
    result: std::result::Result<PeerSummary, String>,
}

fn spawn_peer(
    stream: BoxStream,
    addr: SocketAddr,
    torrent: Torrent,
    config: PeerConfig,
    stop: watch::Receiver<bool>,
    done: mpsc::UnboundedSender<Ended>,
) {
    tokio::spawn(async move {
        let opts = PeerOptions {
            config,
            peer_id: new_peer_id(),
            stop: Some(stop),
        };
        let result = run_peer(stream, torrent, opts)
            .await
            .map_err(|e| e.to_string());
        let _ = done.send(Ended { addr, result });
    });
}

/// Connects to `peer`, retrying every 0.5 s for up to `net.connect_timeout` seconds.
async fn dial(
    listener: Option<&Listener>,
    net: &NetArgs,
    bind: SocketAddr,
    peer: SocketAddr,
    cc: &CcChoice,
) -> Result<BoxStream> {
    let transport = net.transport;
    let deadline = Instant::now() + Duration::from_secs_f64(net.connect_timeout.max(0.0));
    loop {
        let r = match listener {
            Some(l) => l.connect(peer).await,
            None => torrent_net::connect(transport, bind, peer, cc).await,
        };
        match r {
            Ok(s) => return Ok(s),
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

fn report_peer(e: &Ended, quiet: bool) -> serde_json::Value {
    match &e.result {
        Ok(s) => {
            if !quiet {
                eprintln!(
                    "peer {} ({}): {} B down, {} B up, ended: {:?}",
                    e.addr, s.peer_id, s.downloaded, s.uploaded, s.reason
                );
            }
            serde_json::json!({ "addr": e.addr.to_string(), "summary": s })
        }
        Err(msg) => {
            if !quiet {
                eprintln!("peer {}: refused or failed: {msg}", e.addr);
            }
            serde_json::json!({ "addr": e.addr.to_string(), "error": msg })
        }
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => return std::future::pending().await,
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

async fn seed(a: SeedArgs) -> Result<()> {
    let cc = CcChoice::from_args(&a.net.cc, a.net.target_ms)?;
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
    if !have.is_full() && !a.net.quiet {
        eprintln!(
            "warning: only {} of {} pieces verified; seeding those",
            have.count(),
            meta.num_pieces()
        );
    }
    let name = meta.name.clone();
    let hash = meta.info_hash_hex();
    let torrent = Torrent::new(meta, storage, have);
    let listener = Listener::bind(a.net.transport, a.listen, &cc).await?;
    let local = listener.local_addr()?;
    if !a.net.quiet {
        eprintln!(
            "seeding {name} (info-hash {hash}) on {:?} {local}",
            a.net.transport
        );
    }
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    for &p in &a.peer {
        match dial(Some(&listener), &a.net, a.listen, p, &cc).await {
            Ok(s) => spawn_peer(
                s,
                p,
                torrent.clone(),
                config.clone(),
                stop_rx.clone(),
                done_tx.clone(),
            ),
            Err(e) => eprintln!("peer {p}: {e:#}"),
        }
    }
    let t0 = Instant::now();
    let deadline = a.max_seconds.map(|s| t0 + Duration::from_secs_f64(s));
    let mut peers = Vec::new();
    let mut live = a.peer.len();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let stopped_by = loop {
        tokio::select! {
            acc = listener.accept() => match acc {
                Ok((s, addr)) => {
                    live += 1;
                    spawn_peer(s, addr, torrent.clone(), config.clone(), stop_rx.clone(), done_tx.clone());
                }
                Err(e) => eprintln!("accept: {e:#}"),
            },
            Some(e) = done_rx.recv() => {
                live -= 1;
                peers.push(report_peer(&e, a.net.quiet));
            }
            _ = shutdown_signal() => break "signal",
            _ = async { match deadline { Some(d) => tokio::time::sleep_until(d.into()).await, None => std::future::pending().await } } => break "max-seconds",
            _ = tick.tick() => if !a.net.quiet {
                let c = torrent.counters();
                let t = t0.elapsed().as_secs_f64();
                eprintln!("[seed {t:7.1}s] up {} B ({:.2} Mbit/s avg), peers {live}", c.uploaded, mbit(c.uploaded, t));
            },
        }
    };
    stop_tx.send_replace(true);
    let grace = tokio::time::sleep(Duration::from_secs(3));
    tokio::pin!(grace);
    while live > 0 {
        tokio::select! {
            Some(e) = done_rx.recv() => { live -= 1; peers.push(report_peer(&e, a.net.quiet)); }
            _ = &mut grace => break,
        }
    }
    let c = torrent.counters();
    let secs = t0.elapsed().as_secs_f64();
    if a.net.json {
        println!(
            "{}",
            serde_json::json!({
                "command": "torrent seed", "name": name, "info_hash": hash,
                "transport": format!("{:?}", a.net.transport).to_lowercase(),
                "cc": cc.config.name(), "seconds": secs, "uploaded": c.uploaded,
                "stopped_by": stopped_by, "peers": peers,
            })
        );
    } else {
        println!(
            "torrent seed: {name} (info-hash {hash}): {} B uploaded to {} peer connection(s) in {secs:.2} s; stopped by {stopped_by}",
            c.uploaded,
            peers.len()
        );
    }
    Ok(())
}

async fn get(a: GetArgs) -> Result<()> {
    let cc = CcChoice::from_args(&a.net.cc, a.net.target_ms)?;
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
    let result = fetch(&a, &cc, config, &torrent, total).await;
    match result {
        Ok((secs, peers)) => {
            out.publish()?;
            let c = torrent.counters();
            if a.net.json {
                println!(
                    "{}",
                    serde_json::json!({
                        "command": "torrent get", "name": name, "info_hash": hash,
                        "path": out.final_path, "complete": true,
                        "transport": format!("{:?}", a.net.transport).to_lowercase(),
                        "cc": cc.config.name(), "bytes": total, "pieces": n, "seconds": secs,
                        "mbit_per_s": mbit(total, secs), "counters": c, "peers": peers,
                    })
                );
            } else {
                println!(
                    "torrent get: {} complete: {total} B in {n} pieces, {secs:.2} s, {:.2} Mbit/s; {} hash failures, {} wasted blocks",
                    out.final_path.display(),
                    mbit(total, secs),
                    c.hash_failures,
                    c.wasted_blocks
                );
            }
            Ok(())
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
    cc: &CcChoice,
    config: PeerConfig,
    torrent: &Torrent,
    total: u64,
) -> Result<(f64, Vec<serde_json::Value>)> {
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs_f64(a.timeout);
    let mut live = 0usize;
    let mut dial_errors = Vec::new();
    for &p in &a.peer {
        match dial(None, &a.net, a.bind, p, cc).await {
            Ok(s) => {
                live += 1;
                spawn_peer(
                    s,
                    p,
                    torrent.clone(),
                    config.clone(),
                    stop_rx.clone(),
                    done_tx.clone(),
                );
            }
            Err(e) => {
                if !a.net.quiet {
                    eprintln!("peer {p}: {e:#}");
                }
                dial_errors.push(format!("{p}: {e:#}"));
            }
        }
    }
    let mut changes = torrent.subscribe();
    let mut peers = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
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
            Some(e) = done_rx.recv() => { live -= 1; peers.push(report_peer(&e, a.net.quiet)); }
            _ = tokio::time::sleep_until(deadline.into()) => break Err(anyhow::anyhow!("timed out after {} s", a.timeout)),
            _ = shutdown_signal() => break Err(anyhow::anyhow!("interrupted")),
            _ = tick.tick() => if !a.net.quiet {
                let c = torrent.counters();
                let t = t0.elapsed().as_secs_f64();
                eprintln!(
                    "[get {t:7.1}s] {} / {total} B ({:.1} %), {:.2} Mbit/s avg, pieces {}, peers {live}",
                    c.downloaded, 100.0 * c.downloaded as f64 / total as f64, mbit(c.downloaded, t), c.pieces_verified
                );
            },
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    stop_tx.send_replace(true);
    let grace = tokio::time::sleep(Duration::from_secs(3));
    tokio::pin!(grace);
    while live > 0 {
        tokio::select! {
            Some(e) = done_rx.recv() => { live -= 1; peers.push(report_peer(&e, a.net.quiet)); }
            _ = &mut grace => break,
        }
    }
    outcome.map(|()| (secs, peers))
}
