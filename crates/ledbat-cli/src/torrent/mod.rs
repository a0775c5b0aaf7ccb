//! `ledbat torrent`: BitTorrent over our uTP and TCP. `create` makes a v1 `.torrent`;
//! `run` joins a swarm (tracker, both transports, choking, rarest first, serving while
//! downloading, resume); `seed` and `get` are its point-to-point presets (peers given by
//! hand, no tracker, one transport). A progress line on stderr (unless `--quiet`), and a
//! summary on stdout when the command ends (`--json` for a JSON object).

mod net;
mod swarm;

use crate::support::outln;
use crate::support::{runtime, write_file_atomically};
use crate::utp_opts::connection_config;
use crate::utp_opts::Tracer;
use anyhow::{bail, Context, Result};
use ledbat_bt::proto::{ChokerConfig, SeedChoking};
use ledbat_bt::{
    create_torrent, new_peer_id, Bitfield, Disposition, Limits, Metainfo, OutputPaths, PeerConfig,
    Storage, Torrent, TorrentConfig,
};
use ledbat_utp::ConnectionConfig;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use swarm::{mbit, run_swarm, Outcome, Plan, Progress, StopRule};

/// Arguments of `ledbat torrent`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand, Debug)]
enum Cmd {
    /// Make a v1 .torrent for a file or directory (trackerless unless --announce).
    Create(CreateArgs),
    /// Join a swarm: download and upload at once, peers from the tracker and --peer.
    Run(RunArgs),
    /// Serve a torrent's data to given peers until interrupted (no tracker).
    Seed(SeedArgs),
    /// Download a torrent from the given peers (no tracker).
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
    /// HTTP tracker URL to put in the torrent (`announce`).
    #[arg(long)]
    announce: Option<String>,
}

/// The transport of the point-to-point presets.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum OneTransport {
    /// uTP (BEP 29) over UDP, with the chosen congestion controller.
    Utp,
    /// Kernel TCP (controller options do not apply).
    Tcp,
}

impl OneTransport {
    fn name(self) -> &'static str {
        match self {
            OneTransport::Utp => "utp",
            OneTransport::Tcp => "tcp",
        }
    }
    /// The disposition that dials (and, when `accept`, accepts) only this transport.
    fn disposition(self, accept: bool) -> Disposition {
        let bits = match self {
            OneTransport::Utp => {
                Disposition::OUT_UTP | if accept { Disposition::IN_UTP } else { 0 }
            }
            OneTransport::Tcp => {
                Disposition::OUT_TCP | if accept { Disposition::IN_TCP } else { 0 }
            }
        };
        Disposition::new(bits as u32).expect("a valid mask")
    }
}

#[derive(clap::Args, Debug)]
struct NetArgs {
    /// Congestion controller for uTP connections (see `ledbat controllers`).
    #[arg(long, default_value = crate::utp_opts::DEFAULT_CC)]
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
    /// Search the path MTU from 548 bytes up to --packet-size.
    #[arg(long)]
    probe_mtu: bool,
    /// Give up an outgoing connection after this many seconds: a peer that does not answer
    /// fails then, one that refuses (ICMP port unreachable) is retried every 0.5 s until
    /// then, since it may still be starting.
    #[arg(long = "connect-timeout", default_value_t = 10.0, value_parser = crate::utp_opts::positive_secs)]
    connect_timeout: f64,
    /// Most outstanding 16 KiB block requests per peer (1..=4096); fewer are kept when 3 s
    /// of the peer's rate need fewer.
    #[arg(long, default_value_t = PeerConfig::default().pipeline.max_blocks())]
    pipeline: u32,
    /// Most connections waiting for the peer's BitTorrent handshake; more are closed at
    /// once (each waits at most the 10 s handshake timeout).
    #[arg(long, default_value_t = Limits::default().max_half_open)]
    max_half_open: usize,
    /// Most requests of one peer queued for upload; more are refused (REJECT under BEP 6).
    #[arg(long, default_value_t = PeerConfig::default().max_queued_requests)]
    max_requests: usize,
    /// Most KiB encoded for one connection and not yet taken by its transport; a peer that
    /// does not read is disconnected past it.
    #[arg(long, default_value_t = Limits::default().max_buffered / 1024)]
    max_buffered_kib: usize,
    /// Ban an address after this many pieces that failed their hash with it as their only
    /// sender (its connections refused, never dialled again).
    #[arg(long, default_value_t = Limits::default().ban_after)]
    ban_after: u32,
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
    #[command(flatten)]
    rledbat: crate::utp_opts::RledbatArgs,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The .torrent file.
    torrent: PathBuf,
    /// Directory holding the torrent's file or directory NAME: complete data there is
    /// seeded; otherwise the download goes to NAME.part (resumed if present, its pieces
    /// re-checked) and is renamed to NAME when every piece is verified.
    #[arg(long)]
    data: PathBuf,
    /// Address of the uTP socket and the TCP listener (one port for both; port 0 picks
    /// one, printed as "listening on"). Outgoing TCP leaves from its address and an
    /// ephemeral port.
    #[arg(long, default_value = "0.0.0.0:6881")]
    listen: SocketAddr,
    /// Also dial this peer (repeatable).
    #[arg(long)]
    peer: Vec<SocketAddr>,
    /// µTorrent's bt.transp_disposition: 1 dial TCP, 2 dial uTP, 4 accept TCP, 8 accept
    /// uTP (16 ignored); 31 = everything (uTP preferred), 5 = TCP only, 10 = uTP only,
    /// 13 = dial TCP and accept both, 14 = dial uTP and accept both.
    #[arg(long, default_value_t = Disposition::DEFAULT)]
    disposition: Disposition,
    /// Do not announce to the torrent's trackers (peers only from --peer and incoming).
    #[arg(long)]
    no_tracker: bool,
    /// Peers to ask the tracker for.
    #[arg(long, default_value_t = 50)]
    numwant: u32,
    /// After the download completes, seed this many seconds more, then leave (0: leave at
    /// once). Default: seed until interrupted or --max-seconds.
    #[arg(long)]
    seed_seconds: Option<f64>,
    /// Leave after this many seconds in any case.
    #[arg(long)]
    max_seconds: Option<f64>,
    #[command(flatten)]
    swarm: SwarmArgs,
    #[command(flatten)]
    net: NetArgs,
}

#[derive(clap::Args, Debug)]
struct SwarmArgs {
    /// Most connections at once.
    #[arg(long, default_value_t = default_max_peers())]
    max_peers: usize,
    /// Regular (tit-for-tat) upload slots.
    #[arg(long, default_value_t = ChokerConfig::default().regular)]
    unchoke_slots: u32,
    /// Optimistic unchoke slots (redrawn every 30 s).
    #[arg(long, default_value_t = ChokerConfig::default().optimistic)]
    optimistic_slots: u32,
    /// How a seed chooses whom to upload to: `upload-rate` or `round-robin`.
    #[arg(long, default_value = "upload-rate")]
    seed_choking: SeedChoking,
    /// Seed of the random draws (first piece, rarest-first ties, optimistic unchokes);
    /// default: from the peer id.
    #[arg(long)]
    rng_seed: Option<u64>,
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
    /// Transport carrying the peer connections.
    #[arg(long, value_enum, default_value_t = OneTransport::Utp)]
    transport: OneTransport,
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
    /// Directory to write into; the result is OUT/NAME (OUT/NAME.part until complete,
    /// kept on failure and resumed by the next run).
    #[arg(long)]
    out: PathBuf,
    /// Local address to connect from.
    #[arg(long, default_value = "0.0.0.0:0")]
    bind: SocketAddr,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 600.0)]
    timeout: f64,
    /// Transport carrying the peer connections.
    #[arg(long, value_enum, default_value_t = OneTransport::Utp)]
    transport: OneTransport,
    #[command(flatten)]
    net: NetArgs,
}

/// Runs `ledbat torrent ...`.
pub fn run(a: Args) -> Result<()> {
    match a.cmd {
        Cmd::Create(c) => create(c),
        Cmd::Run(r) => runtime()?.block_on(run_cmd(r)),
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
    if let Some(u) = &a.announce {
        ledbat_bt::tracker::TrackerUrl::parse(u).context("--announce")?;
    }
    let bytes = create_torrent(&a.path, piece, a.announce.as_deref())
        .context("cannot create the torrent")?;
    let meta = Metainfo::from_bytes(&bytes).context("created torrent does not parse")?;
    write_file_atomically(&a.output, &bytes)?;
    outln!(
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

/// The client's connection limit.
fn default_max_peers() -> usize {
    PeerConfig::default()
        .max_connections
        .expect("the client limits its connections")
}

/// The protocol settings of a transfer: the client's defaults, our peer id, the request
/// pipeline asked for, the connection limit; the random draws seeded from the peer id
/// unless a seed is given.
fn torrent_config(
    net: &NetArgs,
    peer_id: [u8; 20],
    max_peers: usize,
    choker: ChokerConfig,
    seed: Option<u64>,
) -> Result<TorrentConfig> {
    let base = PeerConfig::default();
    let peer = PeerConfig {
        peer_id,
        pipeline: base.pipeline.with_max(net.pipeline),
        max_connections: Some(max_peers),
        max_queued_requests: net.max_requests,
        choker,
        ..base
    };
    peer.validate().context("peer settings")?;
    let limits = Limits {
        max_half_open: net.max_half_open,
        max_buffered: net.max_buffered_kib.saturating_mul(1024),
        ban_after: net.ban_after,
    };
    if limits.max_half_open == 0 || limits.max_buffered == 0 || limits.ban_after == 0 {
        bail!("--max-half-open, --max-buffered-kib and --ban-after must be at least 1");
    }
    Ok(TorrentConfig {
        peer,
        limits,
        seed: seed.unwrap_or_else(|| rng_seed(&peer_id)),
    })
}

fn utp_config(net: &NetArgs) -> Result<ConnectionConfig> {
    let c = connection_config(&net.cc, &net.cc_params, net.target_ms, net.packet_size)?;
    Ok(c.rledbat(net.rledbat.config()?).mtu_probe(net.probe_mtu))
}

fn print_json(v: serde_json::Value) -> Result<()> {
    outln!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}

/// The data of a download: complete data under its final name (seeded), or the `.part`
/// to download into (resumed when present).
struct Placement {
    storage: Storage,
    have: Bitfield,
    /// None when the data is already complete under its final name.
    out: Option<OutputPaths>,
}

fn place(meta: &Metainfo, dir: &Path, final_may_exist: bool, pb: &Progress) -> Result<Placement> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let final_path = dir.join(&meta.name);
    if final_path.exists() {
        if !final_may_exist {
            bail!(
                "{}: already exists (refusing to overwrite)",
                final_path.display()
            );
        }
        let storage = Storage::open_existing(meta, &final_path)?;
        let have = storage.verify_all(meta)?;
        if !have.is_full() {
            bail!(
                "{}: exists but only {} of {} pieces match the torrent; refusing to download over it (move it away, or `ledbat torrent seed` it to share what matches)",
                final_path.display(),
                have.count(),
                meta.num_pieces()
            );
        }
        return Ok(Placement {
            storage,
            have,
            out: None,
        });
    }
    let out = OutputPaths::new(meta, dir)?;
    let (storage, have) = if out.temp.exists() {
        let s = Storage::open_resume(meta, &out.temp)?;
        let have = s.verify_all(meta)?;
        pb.note(format!(
            "resuming {}: {} of {} pieces verified",
            out.temp.display(),
            have.count(),
            meta.num_pieces()
        ));
        (s, have)
    } else {
        (
            Storage::create(meta, &out.temp)?,
            Bitfield::new(meta.num_pieces()),
        )
    };
    Ok(Placement {
        storage,
        have,
        out: Some(out),
    })
}

/// The error of a run that ended without every piece.
fn incomplete(
    meta: &Metainfo,
    torrent: &Torrent,
    out: &Option<OutputPaths>,
    why: Option<anyhow::Error>,
) -> anyhow::Error {
    let kept = out
        .as_ref()
        .map(|o| {
            format!(
                "; the verified pieces are kept in {} (run again to resume)",
                o.temp.display()
            )
        })
        .unwrap_or_default();
    let msg = format!(
        "download of {} incomplete: {} of {} pieces verified{kept}",
        meta.name,
        torrent.have().count(),
        meta.num_pieces()
    );
    match why {
        Some(e) => e.context(msg),
        None => anyhow::anyhow!(msg),
    }
}

fn rng_seed(peer_id: &[u8; 20]) -> u64 {
    peer_id.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

async fn run_cmd(a: RunArgs) -> Result<()> {
    let ucfg = utp_config(&a.net)?;
    let meta = load(&a.torrent)?;
    let pb = Progress::new(Some(meta.total_length), a.net.quiet);
    let Placement { storage, have, out } = place(&meta, &a.data, true, &pb)?;
    let peer_id = new_peer_id();
    let choker = ChokerConfig {
        regular: a.swarm.unchoke_slots,
        optimistic: a.swarm.optimistic_slots,
        seed_choking: a.swarm.seed_choking,
        ..ChokerConfig::default()
    };
    let cfg = torrent_config(&a.net, peer_id, a.swarm.max_peers, choker, a.swarm.rng_seed)?;
    let (name, hash) = (meta.name.clone(), meta.info_hash_hex());
    let trackers = if a.no_tracker {
        Vec::new()
    } else {
        meta.trackers.clone()
    };
    if trackers.is_empty()
        && a.peer.is_empty()
        && !a.disposition.accepts(ledbat_bt::Transport::Utp)
        && !a.disposition.accepts(ledbat_bt::Transport::Tcp)
    {
        bail!(
            "no way to find peers: no tracker, no --peer, and disposition {} accepts nothing",
            a.disposition
        );
    }
    let torrent = Torrent::with_config(meta.clone(), storage, have, cfg);
    let plan = Plan {
        disposition: a.disposition,
        listen: a.listen,
        peers: a.peer.clone(),
        trackers,
        connect_timeout: a.net.connect_timeout,
        redial_after: Duration::from_secs(60),
        numwant: a.numwant,
        max_peers: a.swarm.max_peers,
        dial_back: true,
        stop: StopRule {
            seed_seconds: a.seed_seconds,
            max_seconds: a.max_seconds,
            give_up_without_peers: false,
        },
        trace: Tracer::open(&a.net.trace)?,
    };
    pb.note(format!(
        "{name} (info-hash {hash}): {} of {} pieces, disposition {}, {} tracker(s)",
        torrent.have().count(),
        meta.num_pieces(),
        a.disposition,
        plan.trackers.len()
    ));
    let o = run_swarm(&torrent, &ucfg, &plan, &pb, || match &out {
        Some(o) => o.publish().map_err(Into::into),
        None => Ok(()),
    })
    .await?;
    pb.pb.finish_and_clear();
    let c = torrent.counters();
    let complete = torrent.is_complete();
    let path = out
        .as_ref()
        .map_or(a.data.join(&meta.name), |o| o.final_path.clone());
    if a.net.json {
        print_json(serde_json::json!({
            "role": "torrent run", "name": name, "info_hash": hash,
            "peer_id": String::from_utf8_lossy(&peer_id), "disposition": a.disposition.bits(),
            "cc": ucfg.controller.name(), "listen": o.local.to_string(),
            "path": path, "complete": complete, "seconds": o.seconds,
            "completed_after": o.completed_after, "stopped_by": o.stopped_by,
            "bytes": meta.total_length, "pieces": meta.num_pieces(), "counters": c,
            "limits": torrent.limits(), "tracker": o.tracker, "peers": o.peers,
            "peers_unreported": o.peers_unreported,
        }))?;
    } else {
        outln!(
            "torrent run: {name}: {} after {:.2} s ({}), {} B down, {} B up (utp {}/{}, tcp {}/{} down/up); stopped by {}",
            if complete { "complete" } else { "incomplete" },
            o.seconds,
            o.completed_after.map_or("never complete".into(), |t| format!("complete at {t:.2} s")),
            c.downloaded, c.uploaded, c.utp.downloaded, c.utp.uploaded, c.tcp.downloaded, c.tcp.uploaded,
            o.stopped_by
        );
    }
    if let Some(e) = o.error {
        return Err(if complete {
            e
        } else {
            incomplete(&meta, &torrent, &out, Some(e))
        });
    }
    if !complete {
        return Err(incomplete(&meta, &torrent, &out, None));
    }
    Ok(())
}

fn single_plan(
    disposition: Disposition,
    listen: SocketAddr,
    peers: Vec<SocketAddr>,
    net: &NetArgs,
    stop: StopRule,
) -> Result<Plan> {
    Ok(Plan {
        disposition,
        listen,
        peers,
        trackers: Vec::new(),
        connect_timeout: net.connect_timeout,
        redial_after: Duration::from_secs(3600),
        numwant: 0,
        max_peers: default_max_peers(),
        // Point to point: the peers given are the only ones; no second connection to them.
        dial_back: false,
        stop,
        trace: Tracer::open(&net.trace)?,
    })
}

fn outcome_error(o: &mut Outcome) -> Option<anyhow::Error> {
    o.error.take()
}

async fn seed(a: SeedArgs) -> Result<()> {
    let ucfg = utp_config(&a.net)?;
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
    let pb = Progress::new(None, a.net.quiet);
    if !have.is_full() {
        pb.note(format!(
            "warning: only {} of {} pieces verified; seeding those",
            have.count(),
            meta.num_pieces()
        ));
    }
    let (name, hash) = (meta.name.clone(), meta.info_hash_hex());
    let plan = single_plan(
        a.transport.disposition(true),
        a.listen,
        a.peer.clone(),
        &a.net,
        StopRule {
            seed_seconds: None,
            max_seconds: a.max_seconds,
            give_up_without_peers: false,
        },
    )?;
    let cfg = torrent_config(
        &a.net,
        new_peer_id(),
        default_max_peers(),
        ChokerConfig::default(),
        None,
    )?;
    let torrent = Torrent::with_config(meta, storage, have, cfg);
    let tname = a.transport.name();
    pb.note(format!(
        "seeding {name} (info-hash {hash}) on {tname} {}",
        a.listen
    ));
    let mut o = run_swarm(&torrent, &ucfg, &plan, &pb, || Ok(())).await?;
    pb.pb.finish_and_clear();
    if let Some(e) = outcome_error(&mut o) {
        return Err(e);
    }
    let c = torrent.counters();
    if a.net.json {
        print_json(serde_json::json!({
            "role": "torrent seed", "name": name, "info_hash": hash,
            "transport": tname, "cc": ucfg.controller.name(),
            "listen": o.local.to_string(), "seconds": o.seconds, "uploaded": c.uploaded,
            "stopped_by": o.stopped_by, "limits": torrent.limits(), "peers": o.peers,
            "peers_unreported": o.peers_unreported,
        }))
    } else {
        outln!(
            "torrent seed: {name} (info-hash {hash}): {} B uploaded to {} peer connection(s) in {:.2} s over {tname}; stopped by {}",
            c.uploaded,
            o.peers.len(),
            o.seconds,
            o.stopped_by
        );
        Ok(())
    }
}

async fn get(a: GetArgs) -> Result<()> {
    let ucfg = utp_config(&a.net)?;
    let meta = load(&a.torrent)?;
    let pb = Progress::new(Some(meta.total_length), a.net.quiet);
    let Placement { storage, have, out } = place(&meta, &a.out, false, &pb)?;
    let plan = single_plan(
        a.transport.disposition(false),
        a.bind,
        a.peer.clone(),
        &a.net,
        StopRule {
            seed_seconds: Some(0.0),
            max_seconds: Some(a.timeout),
            give_up_without_peers: true,
        },
    )?;
    let (n, total) = (meta.num_pieces(), meta.total_length);
    let (name, hash) = (meta.name.clone(), meta.info_hash_hex());
    let cfg = torrent_config(
        &a.net,
        new_peer_id(),
        default_max_peers(),
        ChokerConfig::default(),
        None,
    )?;
    let torrent = Torrent::with_config(meta.clone(), storage, have, cfg);
    let mut o = run_swarm(&torrent, &ucfg, &plan, &pb, || match &out {
        Some(o) => o.publish().map_err(Into::into),
        None => Ok(()),
    })
    .await?;
    pb.pb.finish_and_clear();
    let err = outcome_error(&mut o);
    if !torrent.is_complete() {
        let why = err.or_else(|| {
            (o.stopped_by == "max-seconds")
                .then(|| anyhow::anyhow!("timed out after {} s", a.timeout))
        });
        return Err(incomplete(&meta, &torrent, &out, why));
    }
    if let Some(e) = err {
        return Err(e);
    }
    let c = torrent.counters();
    let secs = o.completed_after.unwrap_or(o.seconds);
    let path = out
        .as_ref()
        .map_or(a.out.join(&name), |o| o.final_path.clone());
    let tname = a.transport.name();
    if a.net.json {
        print_json(serde_json::json!({
            "role": "torrent get", "name": name, "info_hash": hash,
            "path": path, "complete": true, "verified": true,
            "transport": tname, "cc": ucfg.controller.name(),
            "bytes": total, "pieces": n, "seconds": secs,
            "rate_mbit_s": mbit(total, secs), "counters": c, "limits": torrent.limits(),
            "peers": o.peers,
        }))
    } else {
        outln!(
            "torrent get: {} complete: {total} B in {n} pieces (all SHA-1 verified), {secs:.2} s = {:.2} Mbit/s over {tname}; {} hash failures, {} wasted blocks",
            path.display(),
            mbit(total, secs),
            c.hash_failures,
            c.wasted_blocks
        );
        Ok(())
    }
}
