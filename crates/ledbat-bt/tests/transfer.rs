//! End-to-end exchanges between our seeder and our downloader over in-memory pipes and
//! loopback TCP, and against hand-written misbehaving peers.

use ledbat_bt::proto::wire::{BlockRequest, Handshake, HANDSHAKE_LEN};
use ledbat_bt::proto::{CloseReason, Pipeline};
use ledbat_bt::{
    create_torrent, run_peer, Bitfield, Ending, Metainfo, OutputPaths, PeerConfig, PeerError,
    PeerOptions, Storage, Torrent, TorrentConfig,
};
use ledbat_core::Duration;

/// A message with its block as bytes.
type Message = ledbat_bt::proto::Message<Vec<u8>>;
use std::path::{Path, PathBuf};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A fresh directory, removed when dropped whether the test passes or fails.
fn tmpdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ledbat-bt-it-{tag}-"))
        .tempdir()
        .unwrap()
}

fn pattern(len: usize, salt: u8) -> Vec<u8> {
    let mut x: u32 = 0x1234_5678 ^ salt as u32;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// The client's protocol settings, with a fresh peer id.
fn config() -> PeerConfig {
    TorrentConfig::default().peer
}

/// At most `n` requests outstanding per connection.
fn pipeline(n: u32) -> PeerConfig {
    let mut c = config();
    c.pipeline = Pipeline::Rate {
        queue_time: ledbat_core::Duration::from_secs(3),
        min: 4,
        max: n,
    };
    c
}

fn torrent(meta: &Metainfo, st: Storage, have: Bitfield, peer: PeerConfig) -> Torrent {
    Torrent::with_config(
        meta.clone(),
        st,
        have,
        TorrentConfig {
            peer,
            seed: 1,
            ..TorrentConfig::default()
        },
    )
}

fn seeder_with(meta: &Metainfo, src: &Path, cfg: PeerConfig) -> Torrent {
    let st = Storage::open_existing(meta, src).unwrap();
    let have = st.verify_all(meta).unwrap();
    assert!(have.is_full());
    torrent(meta, st, have, cfg)
}

fn seeder(meta: &Metainfo, src: &Path) -> Torrent {
    seeder_with(meta, src, config())
}

fn leecher_with(meta: &Metainfo, out: &OutputPaths, cfg: PeerConfig) -> Torrent {
    let st = Storage::create(meta, &out.temp).unwrap();
    torrent(meta, st, Bitfield::new(meta.num_pieces()), cfg)
}

fn leecher(meta: &Metainfo, out: &OutputPaths) -> Torrent {
    leecher_with(meta, out, config())
}

fn opts() -> PeerOptions {
    PeerOptions::default()
}

fn make(d: &Path, len: usize, piece: u32) -> (Metainfo, PathBuf, Vec<u8>) {
    let data = pattern(len, 1);
    let src = d.join("payload.bin");
    std::fs::write(&src, &data).unwrap();
    let meta = Metainfo::from_bytes(&create_torrent(&src, piece, None).unwrap()).unwrap();
    (meta, src, data)
}

/// A peer that resets the connection before its handshake (closing it with ours unread)
/// ends it in the handshake, as a clean close would: the caller may retry a busy peer.
#[tokio::test]
async fn a_reset_before_the_peers_handshake_ends_in_the_handshake() {
    let d = tmpdir("reset");
    let (meta, _, _) = make(d.path(), 100_000, 32768);
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let l = leecher_with(&meta, &out, config());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let at = listener.local_addr().unwrap();
    let refuse = tokio::spawn(async move {
        let (c, _) = listener.accept().await.unwrap();
        // Wait for the leecher's handshake, leave it unread, reset.
        let mut probe = [0u8; 1];
        while c.peek(&mut probe).await.unwrap() == 0 {}
        // Deprecated for a linger that blocks on drop; a zero linger resets at once.
        #[allow(deprecated)]
        c.set_linger(Some(std::time::Duration::ZERO)).unwrap();
        drop(c);
    });
    let stream = tokio::net::TcpStream::connect(at).await.unwrap();
    let r = run_peer(stream, l, opts()).await;
    refuse.await.unwrap();
    assert!(matches!(r, Err(PeerError::ClosedInHandshake)), "{r:?}");
}

#[tokio::test]
async fn seeder_to_downloader_over_a_pipe() {
    let d = tmpdir("pipe");
    let (meta, src, data) = make(d.path(), 1_000_003, 32768);
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let s = seeder_with(&meta, &src, pipeline(8));
    let l = leecher_with(&meta, &out, pipeline(8));
    let (a, b) = tokio::io::duplex(64 * 1024);
    let (rs, rl) = tokio::join!(
        run_peer(a, s.clone(), opts()),
        run_peer(b, l.clone(), opts())
    );
    let (rs, rl) = (rs.unwrap(), rl.unwrap());
    assert_eq!(rl.reason, Ending::BothSeeds);
    assert!(rl.fast && rs.fast);
    assert_eq!(rl.downloaded, data.len() as u64);
    assert_eq!(rs.uploaded, data.len() as u64);
    assert!(l.is_complete());
    out.publish().unwrap();
    assert_eq!(std::fs::read(&out.final_path).unwrap(), data);
    assert_eq!(l.counters().pieces_verified, meta.num_pieces() as u64);
}

#[tokio::test]
async fn seeder_to_downloader_over_loopback_tcp_multi_file() {
    let d = tmpdir("tcp");
    let root = d.path().join("set");
    std::fs::create_dir_all(root.join("deep")).unwrap();
    let a = pattern(300_000, 2);
    let b = pattern(5, 3);
    let c = pattern(200_001, 4);
    std::fs::write(root.join("a"), &a).unwrap();
    std::fs::write(root.join("b"), &b).unwrap();
    std::fs::write(root.join("deep").join("c"), &c).unwrap();
    let meta = Metainfo::from_bytes(&create_torrent(&root, 65536, None).unwrap()).unwrap();
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let s = seeder(&meta, &root);
    let l = leecher(&meta, &out);

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let srv = tokio::spawn(async move {
        let (sock, _) = listener.accept().await.unwrap();
        run_peer(sock, s, opts()).await
    });
    let sock = tokio::net::TcpStream::connect(addr).await.unwrap();
    let rl = run_peer(sock, l.clone(), opts()).await.unwrap();
    let rs = srv.await.unwrap().unwrap();
    assert_eq!(rl.reason, Ending::BothSeeds);
    assert_eq!(rs.uploaded, 500_006);
    out.publish().unwrap();
    assert_eq!(std::fs::read(out.final_path.join("a")).unwrap(), a);
    assert_eq!(std::fs::read(out.final_path.join("b")).unwrap(), b);
    assert_eq!(
        std::fs::read(out.final_path.join("deep").join("c")).unwrap(),
        c
    );
}

/// A scripted fake peer: completes the handshake for `info_hash` and returns the stream.
async fn fake_handshake(
    s: &mut tokio::io::DuplexStream,
    info_hash: [u8; 20],
    fast: bool,
) -> Handshake {
    let h = Handshake::new(info_hash, *b"-XX0000-fakefakefake", fast, fast);
    s.write_all(&h.encode()).await.unwrap();
    let mut b = [0u8; HANDSHAKE_LEN];
    s.read_exact(&mut b).await.unwrap();
    Handshake::decode(&b).unwrap()
}

async fn read_msg(s: &mut tokio::io::DuplexStream) -> Option<Message> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).await.ok()?;
    let mut body = vec![0u8; u32::from_be_bytes(len) as usize];
    s.read_exact(&mut body).await.ok()?;
    Some(Message::decode(&body).unwrap())
}

#[tokio::test]
async fn wrong_info_hash_is_refused() {
    let d = tmpdir("hash");
    let (meta, src, _) = make(d.path(), 50_000, 16384);
    let s = seeder(&meta, &src);
    let (a, mut b) = tokio::io::duplex(4096);
    let peer = tokio::spawn(async move {
        let mut h = Handshake::new([0xee; 20], [1; 20], true, true).encode();
        b.write_all(&h).await.unwrap();
        let _ = b.read_exact(&mut h).await;
        // Our side must not send anything after its handshake: it closes.
        let mut rest = Vec::new();
        let _ = b.read_to_end(&mut rest).await;
        rest
    });
    let e = run_peer(a, s, opts()).await.unwrap_err();
    assert!(matches!(e, PeerError::WrongInfoHash { .. }), "{e}");
    assert!(e.to_string().contains(&"ee".repeat(20)));
    assert!(peer.await.unwrap().is_empty());
}

/// libtorrent's order: its extended handshake (BEP 10) first, then have all. Our
/// downloader must take the have all (it is still the first BEP 3 / BEP 6 message) and
/// ask for pieces, not refuse the peer.
#[tokio::test]
async fn extended_handshake_before_have_all_is_accepted() {
    let d = tmpdir("ext-first");
    let (meta, _src, _) = make(d.path(), 50_000, 16384);
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let l = leecher(&meta, &out);
    let ih = meta.info_hash;
    let (a, mut b) = tokio::io::duplex(1 << 20);
    let peer = tokio::spawn(async move {
        let theirs = fake_handshake(&mut b, ih, true).await;
        assert!(theirs.extended());
        let ext = Message::Extended {
            id: 0,
            payload: ledbat_bt::proto::wire::ext_handshake(Some(6881)),
        };
        b.write_all(&ext.encode()).await.unwrap();
        b.write_all(&Message::HaveAll.encode()).await.unwrap();
        // Ours: have none, its extended handshake, then interested.
        let mut seen = Vec::new();
        while let Some(m) = read_msg(&mut b).await {
            let done = m == Message::Interested;
            seen.push(m);
            if done {
                break;
            }
        }
        seen
    });
    let mut o = opts();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    o.stop = Some(stop_rx);
    let run = tokio::spawn(run_peer(a, l, o));
    let seen = peer.await.unwrap();
    assert!(seen.contains(&Message::Interested), "{seen:?}");
    stop_tx.send_replace(true);
    let r = run.await.unwrap();
    assert!(r.is_ok(), "{r:?}");
}

#[tokio::test]
async fn oversized_message_is_refused() {
    let d = tmpdir("big");
    let (meta, src, _) = make(d.path(), 50_000, 16384);
    let s = seeder(&meta, &src);
    let ih = meta.info_hash;
    let (a, mut b) = tokio::io::duplex(1 << 20);
    let peer = tokio::spawn(async move {
        fake_handshake(&mut b, ih, true).await;
        // A "piece" frame of 1 MiB: more than a 16 KiB block plus header.
        let mut frame = (1u32 << 20).to_be_bytes().to_vec();
        frame.push(7);
        b.write_all(&frame).await.unwrap();
        b
    });
    let e = run_peer(a, s, opts()).await.unwrap_err();
    assert!(e.to_string().contains("exceeds the limit"), "{e}");
    drop(peer.await.unwrap());
}

#[tokio::test]
async fn request_over_16k_is_refused() {
    let d = tmpdir("req");
    let (meta, src, _) = make(d.path(), 50_000, 32768);
    let s = seeder(&meta, &src);
    let ih = meta.info_hash;
    let (a, mut b) = tokio::io::duplex(1 << 20);
    let peer = tokio::spawn(async move {
        fake_handshake(&mut b, ih, true).await;
        b.write_all(&Message::Interested.encode()).await.unwrap();
        let r = BlockRequest {
            index: 0,
            begin: 0,
            length: 32768,
        };
        b.write_all(&Message::Request(r).encode()).await.unwrap();
        b
    });
    let e = run_peer(a, s, opts()).await.unwrap_err();
    assert!(
        matches!(
            e,
            PeerError::Closed(CloseReason::Protocol(
                ledbat_bt::proto::Violation::RequestTooLong {
                    length: 32768,
                    max: 16384
                }
            ))
        ),
        "{e}"
    );
    drop(peer.await.unwrap());
}

/// A peer that floods requests and never reads (the attacked swarm's `flood`): our
/// answers pile up unsent until the buffered limit closes the connection, counted;
/// memory never grows past it.
#[tokio::test]
async fn a_peer_that_never_reads_is_closed_at_the_buffered_limit() {
    let d = tmpdir("flood");
    let (meta, src, _) = make(d.path(), 200_000, 16384);
    let st = Storage::open_existing(&meta, &src).unwrap();
    let have = st.verify_all(&meta).unwrap();
    let mut cfg = TorrentConfig {
        peer: config(),
        seed: 1,
        ..TorrentConfig::default()
    };
    cfg.limits.max_buffered = 64 * 1024;
    let s = Torrent::with_config(meta.clone(), st, have, cfg);
    let ih = meta.info_hash;
    // A small pipe: what we write stays in our buffer once its 4 KiB are full.
    let (a, mut b) = tokio::io::duplex(4096);
    let peer = tokio::spawn(async move {
        let h = Handshake::new(ih, *b"-XX0000-fakefakefake", true, true);
        b.write_all(&h.encode()).await.unwrap();
        b.write_all(&Message::Interested.encode()).await.unwrap();
        let mut reqs = Vec::new();
        for i in 0..13u32 {
            let r = BlockRequest {
                index: i,
                begin: 0,
                length: 16384,
            };
            Message::Request(r).encode_into(&mut reqs);
        }
        // Never read; keep requesting until our side gives up.
        while b.write_all(&reqs).await.is_ok() {}
    });
    let e = run_peer(a, s.clone(), opts()).await.unwrap_err();
    assert!(matches!(e, PeerError::OverBuffered(_, 65536)), "{e}");
    assert_eq!(s.limits().exceeded.buffered, 1);
    peer.abort();
}

/// A seeder that corrupts every block of piece 1.
async fn lying_seeder(mut b: tokio::io::DuplexStream, meta: Metainfo, data: Vec<u8>) {
    fake_handshake(&mut b, meta.info_hash, false).await;
    b.write_all(&Message::Bitfield(Bitfield::full(meta.num_pieces()).to_wire()).encode())
        .await
        .unwrap();
    while let Some(m) = read_msg(&mut b).await {
        match m {
            Message::Interested => b.write_all(&Message::Unchoke.encode()).await.unwrap(),
            Message::Request(r) => {
                let off = r.index as usize * meta.piece_length as usize + r.begin as usize;
                let mut block = data[off..off + r.length as usize].to_vec();
                if r.index == 1 {
                    block[3] ^= 0xff;
                }
                let m = Message::Piece {
                    index: r.index,
                    begin: r.begin,
                    data: block,
                };
                if b.write_all(&m.encode()).await.is_err() {
                    return;
                }
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn piece_failing_its_hash_refuses_the_peer_and_the_download_goes_on() {
    let d = tmpdir("liar");
    let (meta, src, data) = make(d.path(), 100_000, 32768);
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let l = leecher_with(&meta, &out, pipeline(2));

    let (a, b) = tokio::io::duplex(1 << 20);
    let liar = tokio::spawn(lying_seeder(b, meta.clone(), data.clone()));
    let e = run_peer(a, l.clone(), opts()).await.unwrap_err();
    assert!(
        matches!(e, PeerError::Closed(CloseReason::HashFailed(1))),
        "{e}"
    );
    let _ = liar.await;
    assert!(!l.has(1));
    assert!(
        l.has(0),
        "the good piece received before the bad one is kept"
    );
    assert_eq!(l.counters().hash_failures, 1);

    // An honest seeder supplies the rest.
    let s = seeder_with(&meta, &src, pipeline(2));
    let (a, b) = tokio::io::duplex(1 << 20);
    let (rl, rs) = tokio::join!(run_peer(a, l.clone(), opts()), run_peer(b, s, opts()));
    rl.unwrap();
    rs.unwrap();
    assert!(l.is_complete());
    out.publish().unwrap();
    assert_eq!(std::fs::read(&out.final_path).unwrap(), data);
}

#[tokio::test]
async fn idle_connection_gets_keepalives_then_times_out() {
    let d = tmpdir("keep");
    let (meta, src, _) = make(d.path(), 20_000, 16384);
    let mut cfg = config();
    cfg.timers.keepalive = Some(Duration::from_millis(50));
    cfg.timers.idle = Some(Duration::from_millis(400));
    let s = seeder_with(&meta, &src, cfg);
    let ih = meta.info_hash;
    let (a, mut b) = tokio::io::duplex(1 << 16);
    let peer = tokio::spawn(async move {
        fake_handshake(&mut b, ih, false).await;
        let mut keepalives = 0;
        while let Some(m) = read_msg(&mut b).await {
            if m == Message::KeepAlive {
                keepalives += 1;
            }
        }
        keepalives
    });
    let e = run_peer(a, s, opts()).await.unwrap_err();
    assert!(
        matches!(e, PeerError::Closed(CloseReason::IdleTimeout(_))),
        "{e}"
    );
    let k = peer.await.unwrap();
    assert!((3..=9).contains(&k), "{k} keep-alives in 400 ms at 50 ms");
}

#[tokio::test]
async fn stop_closes_cleanly_mid_transfer() {
    let d = tmpdir("stop");
    let (meta, src, _) = make(d.path(), 2_000_000, 16384);
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let s = seeder(&meta, &src);
    let l = leecher(&meta, &out);
    let (tx, rx) = tokio::sync::watch::channel(false);
    let (a, b) = tokio::io::duplex(16 * 1024);
    let mut o = opts();
    o.stop = Some(rx);
    // Stop the seeder once the first piece has arrived (not after a fixed delay: a release
    // build can move the whole file before any timer fires). If the seeder has already
    // finished, the receiver is gone and the send fails; that case is checked below.
    let stopper = async {
        while l.have().count() == 0 {
            tokio::task::yield_now().await;
        }
        let _ = tx.send(true);
    };
    let (rs, rl, _) = tokio::join!(run_peer(a, s, o), run_peer(b, l.clone(), opts()), stopper);
    let (rs, rl) = (rs.unwrap(), rl.unwrap());
    if !l.is_complete() {
        assert_eq!(rs.reason, Ending::Stopped);
        assert_eq!(rl.reason, Ending::PeerClosed);
    }
    // Whatever arrived is verified data only.
    let have = l.have();
    let st = Storage::open_existing(&meta, &out.temp).unwrap();
    for i in have.iter() {
        let p = st.read_piece(&meta, i).unwrap();
        assert!(ledbat_bt::storage::piece_ok(&meta, i, &p));
    }
}

/// A seeder that sits on every request until it sees a `cancel`, then serves honestly.
async fn sleepy_seeder(mut b: tokio::io::DuplexStream, meta: Metainfo, data: Vec<u8>) {
    fake_handshake(&mut b, meta.info_hash, false).await;
    b.write_all(&Message::Bitfield(Bitfield::full(meta.num_pieces()).to_wire()).encode())
        .await
        .unwrap();
    let mut awake = false;
    while let Some(m) = read_msg(&mut b).await {
        match m {
            Message::Interested => b.write_all(&Message::Unchoke.encode()).await.unwrap(),
            Message::Cancel(_) => awake = true,
            Message::Request(r) if awake => {
                let off = r.index as usize * meta.piece_length as usize + r.begin as usize;
                let m = Message::Piece {
                    index: r.index,
                    begin: r.begin,
                    data: data[off..off + r.length as usize].to_vec(),
                };
                if b.write_all(&m.encode()).await.is_err() {
                    return;
                }
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn unanswered_requests_are_cancelled_and_asked_again() {
    let d = tmpdir("sleepy");
    let (meta, _src, data) = make(d.path(), 100_000, 32768);
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let mut cfg = config();
    cfg.timers.request = Some(Duration::from_millis(100));
    let l = leecher_with(&meta, &out, cfg);
    let (a, b) = tokio::io::duplex(1 << 20);
    let seeder = tokio::spawn(sleepy_seeder(b, meta.clone(), data.clone()));
    let r = run_peer(a, l.clone(), opts()).await.unwrap();
    assert_eq!(r.reason, Ending::BothSeeds);
    assert_eq!(r.request_timeouts, 1);
    assert!(l.is_complete());
    let _ = seeder.await;
    out.publish().unwrap();
    assert_eq!(std::fs::read(&out.final_path).unwrap(), data);
}

#[tokio::test]
async fn two_seeders_share_one_download() {
    let d = tmpdir("two");
    let (meta, src, data) = make(d.path(), 2_000_000, 32768);
    let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
    let l = leecher_with(&meta, &out, pipeline(4));
    let (s1, s2) = (
        seeder_with(&meta, &src, pipeline(4)),
        seeder_with(&meta, &src, pipeline(4)),
    );
    let (a1, b1) = tokio::io::duplex(64 * 1024);
    let (a2, b2) = tokio::io::duplex(64 * 1024);
    let (r1, r2, l1, l2) = tokio::join!(
        run_peer(a1, s1, opts()),
        run_peer(a2, s2, opts()),
        run_peer(b1, l.clone(), opts()),
        run_peer(b2, l.clone(), opts())
    );
    let (l1, l2) = (l1.unwrap(), l2.unwrap());
    r1.unwrap();
    r2.unwrap();
    assert!(l.is_complete());
    // Outside the endgame each block is requested from one connection at a time; in the
    // endgame the last blocks (at most one pipeline, 4 here) may come twice, and the
    // copies are not counted as downloaded.
    assert_eq!(l1.downloaded + l2.downloaded, data.len() as u64);
    assert!(l1.downloaded > 0 && l2.downloaded > 0, "{l1:?} {l2:?}");
    assert!(l.counters().wasted_blocks <= 4, "{:?}", l.counters());
    out.publish().unwrap();
    assert_eq!(std::fs::read(&out.final_path).unwrap(), data);
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    fn any_message(pieces: u32) -> impl Strategy<Value = Message> {
        let idx = prop_oneof![0..pieces + 2, any::<u32>()];
        let off = prop_oneof![Just(0u32), Just(16384), 0u32..70_000, any::<u32>()];
        let len = prop_oneof![Just(16384u32), 0u32..20_000, any::<u32>()];
        let block =
            (idx.clone(), off.clone(), len).prop_map(|(index, begin, length)| BlockRequest {
                index,
                begin,
                length,
            });
        prop_oneof![
            Just(Message::KeepAlive),
            Just(Message::Choke),
            Just(Message::Unchoke),
            Just(Message::Interested),
            Just(Message::NotInterested),
            Just(Message::HaveAll),
            Just(Message::HaveNone),
            idx.clone().prop_map(Message::Have),
            idx.clone().prop_map(Message::AllowedFast),
            proptest::collection::vec(any::<u8>(), 0..4).prop_map(Message::Bitfield),
            block.clone().prop_map(Message::Request),
            block.clone().prop_map(Message::Cancel),
            block.prop_map(Message::RejectRequest),
            (idx, off, proptest::collection::vec(any::<u8>(), 0..17_000))
                .prop_map(|(index, begin, data)| Message::Piece { index, begin, data }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Whatever well-framed messages a peer sends, our seeder and our downloader end
        /// with Ok or Err, never a panic, and the downloader keeps only verified pieces.
        #[test]
        fn arbitrary_peer_messages_never_panic(
            msgs in proptest::collection::vec(any_message(4), 0..40),
            fast in any::<bool>(),
        ) {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let d = tmpdir("hostile");
            let (meta, src, _) = make(d.path(), 100_000, 32768);
            let out = OutputPaths::new(&meta, &d.path().join("out")).unwrap();
            let targets = [(seeder(&meta, &src), src.clone()), (leecher(&meta, &out), out.temp.clone())];
            for (t, data_path) in targets {
                let msgs = msgs.clone();
                let ih = meta.info_hash;
                rt.block_on(async {
                    let (a, mut b) = tokio::io::duplex(1 << 20);
                    let evil = tokio::spawn(async move {
                        fake_handshake(&mut b, ih, fast).await;
                        for m in msgs {
                            if b.write_all(&m.encode()).await.is_err() {
                                break;
                            }
                        }
                        // Then hang up.
                    });
                    let mut o = opts();
                    o.close_grace = Duration::from_millis(10);
                    let _ = run_peer(a, t.clone(), o).await;
                    let _ = evil.await;
                });
                let st = Storage::open_existing(&meta, &data_path).unwrap();
                for i in t.have().iter() {
                    let p = st.read_piece(&meta, i).unwrap();
                    prop_assert!(ledbat_bt::storage::piece_ok(&meta, i, &p));
                }
            }
        }
    }
}
