use super::*;
use crate::bitfield::BitfieldError;
use crate::choker::{ChokerConfig, SeedChoking};
use crate::config::Timers;
use crate::layout::BLOCK_LEN;
use crate::picker::{Endgame, PickerConfig};
use crate::wire::Len;

const B: u32 = BLOCK_LEN;

/// Four pieces of two blocks.
fn layout() -> Layout {
    Layout::new(8 * B as u64, 2 * B, B).unwrap()
}

fn t(ms: u64) -> Instant {
    Instant::from_millis(ms)
}

fn id(n: u8) -> [u8; 20] {
    [n; 20]
}

/// The simulator's settings: seed 003's ns-2 module (pipeline 5, opening at once, no
/// timers, no extensions), endgame on.
fn sim_cfg(me: u8) -> PeerConfig {
    PeerConfig {
        peer_id: id(me),
        picker: PickerConfig {
            random_first: true,
            rarest_first: true,
            endgame: Endgame::All,
        },
        choker: ChokerConfig {
            snub_after: None,
            ..ChokerConfig::default()
        },
        snub_clock: SnubClock::SinceBlockOrConnect,
        pipeline: Pipeline::Fixed(5),
        fast_extension: false,
        extension_protocol: false,
        opening: Opening::AtOnce,
        verification: Verification::Trusted,
        close_seed_pairs: false,
        max_connections: None,
        timers: Timers::OFF,
        ..PeerConfig::default()
    }
}

/// The client's settings with the given peer id.
fn client_cfg(me: u8) -> PeerConfig {
    PeerConfig {
        peer_id: id(me),
        ..PeerConfig::default()
    }
}

type SimPeer = Peer<Len>;

fn sim_peer(me: u8, seed: bool) -> SimPeer {
    let have = if seed {
        Bitfield::full(4)
    } else {
        Bitfield::new(4)
    };
    Peer::new(sim_cfg(me), layout(), have, t(0), me as u64)
}

const INFO: ConnInfo = ConnInfo {
    transport: None,
    outgoing: false,
};

fn frames<D: BlockData>(p: &mut Peer<D>, conn: ConnId) -> Vec<Frame<D>> {
    std::iter::from_fn(|| p.poll_transmit(Instant::ZERO, conn)).collect()
}

fn msgs<D: BlockData>(p: &mut Peer<D>, conn: ConnId) -> Vec<Message<D>> {
    frames(p, conn)
        .into_iter()
        .filter_map(|f| match f {
            Frame::Message(m) => Some(m),
            Frame::Handshake(_) => None,
        })
        .collect()
}

fn events<D: BlockData>(p: &mut Peer<D>) -> Vec<Event> {
    std::iter::from_fn(|| p.poll_event()).collect()
}

/// Delivers every frame `from` has for `to` (its connection `to_conn` there, named
/// `from_conn` at `to`) at `now`.
fn deliver<D: BlockData + Clone>(
    from: &mut Peer<D>,
    to_conn: ConnId,
    to: &mut Peer<D>,
    from_conn: ConnId,
    now: Instant,
) -> Vec<Received<D>> {
    let mut out = Vec::new();
    for f in frames(from, to_conn) {
        match f {
            Frame::Handshake(h) => to.handle_handshake(now, from_conn, &h),
            Frame::Message(m) => out.push(to.handle_message(now, from_conn, m)),
        }
    }
    out
}

/// Seed 0 and leecher 1 (connection ids: the other's number), connected, bitfield and
/// interest exchanged.
fn pair() -> (SimPeer, SimPeer) {
    let (mut s, mut l) = (sim_peer(0, true), sim_peer(1, false));
    s.handle_connected(t(0), 1, INFO);
    l.handle_connected(t(0), 0, INFO);
    deliver(&mut s, 1, &mut l, 0, t(1));
    deliver(&mut l, 0, &mut s, 1, t(2));
    (s, l)
}

fn requests<D: BlockData>(m: &[Message<D>]) -> Vec<BlockRequest> {
    m.iter()
        .filter_map(|m| match m {
            Message::Request(r) => Some(*r),
            _ => None,
        })
        .collect()
}

#[test]
fn connect_sends_handshake_and_bitfield_only_when_holding_pieces() {
    let (mut s, mut l) = (sim_peer(0, true), sim_peer(1, false));
    s.handle_connected(t(0), 1, INFO);
    l.handle_connected(t(0), 0, INFO);
    let f = frames(&mut s, 1);
    assert_eq!(f.len(), 2);
    let Frame::Handshake(h) = &f[0] else {
        panic!("{f:?}")
    };
    assert_eq!((h.peer_id, h.fast(), h.extended()), (id(0), false, false));
    assert_eq!(f[1], Frame::Message(Message::Bitfield(vec![0xf0])));
    assert_eq!(f[1].encoded_len(), 6);
    assert_eq!(
        frames(&mut l, 0).len(),
        1,
        "a leecher with nothing sends no bitfield"
    );
    assert_eq!((s.poll_dirty(), s.poll_dirty()), (Some(1), None));
}

#[test]
fn interest_is_answered_by_an_unchoke_when_a_slot_is_free() {
    let (mut s, mut l) = pair();
    assert!(l.is_interested_in(0));
    assert!(!s.is_choking(1), "a free slot unchokes at once");
    assert_eq!(msgs(&mut s, 1), vec![Message::Unchoke]);
    l.handle_message(t(3), 0, Message::Unchoke);
    let reqs = requests(&msgs(&mut l, 0));
    // Pipeline of 5: a random first piece (2 blocks), then, still with no piece complete,
    // two more random pieces, the last one started.
    assert_eq!(reqs.len(), 5);
    assert!(reqs.iter().all(|r| r.length == B));
    assert_eq!(reqs[0].index, reqs[1].index);
    assert_eq!((reqs[0].begin, reqs[1].begin), (0, B));
    let mut uniq = reqs.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(uniq.len(), 5);
}

#[test]
fn requested_blocks_flow_as_data_and_complete_pieces() {
    let (mut s, mut l) = pair();
    msgs(&mut s, 1);
    l.handle_message(t(3), 0, Message::Unchoke);
    deliver(&mut l, 0, &mut s, 1, t(4));
    assert_eq!(events(&mut s), vec![Event::DataReady { conn: 1 }]);
    assert_eq!(s.queued_uploads(1), 5);
    let ups: Vec<BlockRequest> = std::iter::from_fn(|| s.poll_upload(t(5), 1)).collect();
    assert_eq!(ups.len(), 5);
    assert_eq!(s.stats().uploaded, 5 * B as u64);
    let first = ups[0].index;
    events(&mut l);
    let piece = |r: BlockRequest| Message::Piece {
        index: r.index,
        begin: r.begin,
        data: Len(r.length),
    };
    l.handle_message(t(50), 0, piece(ups[0]));
    l.handle_message(t(60), 0, piece(ups[1]));
    let ev = events(&mut l);
    assert_eq!(
        ev[0],
        Event::Block {
            conn: 0,
            block: Block::new(first, 0),
            bytes: B,
            duplicate: false,
            latency: Some(Duration::from_millis(47)),
        }
    );
    assert!(ev.contains(&Event::PieceCompleted { piece: first }));
    let out = msgs(&mut l, 0);
    assert!(out.contains(&Message::Have(first)), "{out:?}");
    // Each arrival refills the pipeline by one request.
    assert_eq!(requests(&out).len(), 2);
    assert_eq!(l.stats().downloaded, 2 * B as u64);
    assert_eq!(l.left(), 6 * B as u64);
}

#[test]
fn choke_empties_the_queue_and_releases_requests() {
    let (mut s, mut l) = pair();
    msgs(&mut s, 1);
    l.handle_message(t(3), 0, Message::Unchoke);
    deliver(&mut l, 0, &mut s, 1, t(4));
    assert_eq!(l.picker().outstanding_len(0), 5);
    s.handle_message(t(5), 1, Message::NotInterested);
    assert_eq!(msgs(&mut s, 1), vec![Message::Choke]);
    assert_eq!(s.queued_uploads(1), 0);
    assert_eq!(s.poll_upload(t(5), 1), None);
    l.handle_message(t(6), 0, Message::Choke);
    assert_eq!(l.picker().outstanding_len(0), 0);
    assert!(msgs(&mut l, 0).is_empty(), "no request while choked");
}

#[test]
fn a_new_piece_at_an_idle_uploader_is_requested_at_once() {
    // Leecher 1 is unchoked by leecher 2, which has nothing it lacks until 2 announces
    // piece 3: the request must follow the HAVE, not wait for another event.
    let mut l = sim_peer(1, false);
    l.handle_connected(t(0), 2, INFO);
    l.handle_message(t(1), 2, Message::Unchoke);
    frames(&mut l, 2);
    assert!(!l.is_interested_in(2));
    l.handle_message(t(2), 2, Message::Have(3));
    let r = |begin| BlockRequest {
        index: 3,
        begin,
        length: B,
    };
    assert_eq!(
        msgs(&mut l, 2),
        vec![
            Message::Interested,
            Message::Request(r(0)),
            Message::Request(r(B)),
        ]
    );
}

#[test]
fn cancel_removes_a_queued_block() {
    let (mut s, mut l) = pair();
    msgs(&mut s, 1);
    l.handle_message(t(3), 0, Message::Unchoke);
    let reqs = requests(&msgs(&mut l, 0));
    for &r in &reqs {
        s.handle_message(t(4), 1, Message::Request(r));
    }
    s.handle_message(t(5), 1, Message::Cancel(reqs[2]));
    assert_eq!(s.queued_uploads(1), 4);
    assert!(
        msgs(&mut s, 1).is_empty(),
        "no reject without the Fast Extension"
    );
}

#[test]
fn a_request_already_queued_is_served_once_and_counted_apart() {
    let (mut s, mut l) = pair();
    msgs(&mut s, 1);
    l.handle_message(t(3), 0, Message::Unchoke);
    let reqs = requests(&msgs(&mut l, 0));
    for &r in &reqs {
        s.handle_message(t(4), 1, Message::Request(r));
    }
    // The same request again (re-sent after a CHOKE, overtaking our UNCHOKE).
    s.handle_message(t(5), 1, Message::Request(reqs[0]));
    assert_eq!(s.queued_uploads(1), 5);
    let st = s.stats();
    assert_eq!((st.duplicate_requests, st.ignored), (1, 0));
}

#[test]
fn requests_we_cannot_serve_are_dropped_and_counted() {
    let (mut s, mut l) = pair();
    // A request to a peer that chokes us.
    s.handle_message(t(9), 1, Message::NotInterested);
    let r0 = BlockRequest {
        index: 0,
        begin: 0,
        length: B,
    };
    s.handle_message(t(9), 1, Message::Request(r0));
    assert_eq!(s.queued_uploads(1), 0);
    assert_eq!(s.stats().late_requests, 1);
    // A request for a piece we lack, and one past the torrent's end.
    l.handle_message(t(9), 0, Message::Request(r0));
    l.handle_message(
        t(9),
        0,
        Message::Request(BlockRequest {
            index: 4,
            begin: 0,
            length: 1,
        }),
    );
    assert_eq!(l.queued_uploads(0), 0);
    assert_eq!(l.stats().ignored, 2);
    assert_eq!(s.stats().ignored, 0);
    // Messages for a connection we do not know.
    l.handle_message(t(9), 7, Message::Unchoke);
    assert_eq!(l.stats().ignored, 3);
}

#[test]
fn blocks_that_are_not_ours_are_counted_not_kept() {
    let (_, mut l) = pair();
    let piece = |index, begin, n| Message::Piece {
        index,
        begin,
        data: Len(n),
    };
    l.handle_message(t(9), 0, piece(0, 0, 3));
    l.handle_message(t(9), 0, piece(0, 100, B));
    l.handle_message(t(9), 0, piece(9, 0, B));
    assert_eq!(l.stats().invalid_blocks, 3);
    assert_eq!(l.stats().downloaded, 0);
    assert!(l.closing(0).is_none());
}

#[test]
fn protocol_violations_close_the_connection_with_the_reason() {
    let cases: [(Message<Len>, Violation); 4] = [
        (
            Message::Bitfield(vec![0xf8]),
            Violation::Bitfield(BitfieldError::SpareBits { pieces: 4 }),
        ),
        (
            Message::Have(4),
            Violation::HaveOutOfRange {
                index: 4,
                pieces: 4,
            },
        ),
        (Message::HaveAll, Violation::NotFast("have all")),
        (
            Message::Request(BlockRequest {
                index: 0,
                begin: 0,
                length: B + 1,
            }),
            Violation::RequestTooLong {
                length: B + 1,
                max: B,
            },
        ),
    ];
    for (m, v) in cases {
        let mut s = sim_peer(0, true);
        s.handle_connected(t(0), 1, INFO);
        s.handle_message(t(9), 1, m);
        let reason = CloseReason::Protocol(v);
        assert_eq!(s.closing(1), Some(&reason));
        assert_eq!(events(&mut s), vec![Event::Close { conn: 1, reason }]);
        assert_eq!(s.stats().violations, 1);
        // Nothing more is taken from it.
        s.handle_message(t(10), 1, Message::Interested);
        assert!(s.is_choking(1));
    }
    // A bitfield that is not the first message.
    let (_, mut l) = pair();
    l.handle_message(t(9), 0, Message::Bitfield(vec![0xf0]));
    assert_eq!(
        l.closing(0),
        Some(&CloseReason::Protocol(Violation::LateBitfield("bitfield")))
    );
}

#[test]
fn a_closed_connection_releases_its_requests_to_the_others() {
    // Leecher 9 with two seeds 0 and 1, both unchoking: closing 0 moves its blocks to 1.
    let mut cfg = sim_cfg(9);
    cfg.picker.endgame = Endgame::Off;
    let mut l: SimPeer = Peer::new(cfg, layout(), Bitfield::new(4), t(0), 9);
    for s in [0, 1] {
        l.handle_connected(t(0), s, INFO);
        l.handle_message(t(1), s, Message::Bitfield(vec![0xf0]));
    }
    l.handle_message(t(2), 0, Message::Unchoke);
    let at0 = requests(&msgs(&mut l, 0));
    assert_eq!(at0.len(), 5);
    msgs(&mut l, 1);
    l.handle_message(t(3), 1, Message::Unchoke);
    // Piece 0..3 are 8 blocks; 5 requested at 0, the other 3 at 1.
    assert_eq!(requests(&msgs(&mut l, 1)).len(), 3);
    assert_eq!(l.picker().availability(0), 2);
    l.handle_closed(t(4), 0);
    assert_eq!(l.picker().availability(0), 1);
    // Connection 1's pipeline (5) takes 2 of the 5 released blocks.
    let again = requests(&msgs(&mut l, 1));
    assert_eq!(again.len(), 2);
    assert!(again.iter().all(|r| at0.contains(r)));
    assert_eq!(l.conn_ids().collect::<Vec<_>>(), [1]);
}

#[test]
fn choke_rounds_rotate_a_round_robin_seed() {
    let mut cfg = sim_cfg(0);
    cfg.choker = ChokerConfig {
        regular: 1,
        optimistic: 0,
        seed_choking: SeedChoking::RoundRobin,
        ..cfg.choker
    };
    let mut s: SimPeer = Peer::new(cfg, layout(), Bitfield::full(4), t(0), 1);
    for r in 1..=3 {
        s.handle_connected(t(0), r, INFO);
        s.handle_message(t(1), r, Message::Interested);
    }
    let firsts: Vec<Vec<Message<Len>>> = (1..=3).map(|r| msgs(&mut s, r)).collect();
    assert_eq!(firsts[0].last(), Some(&Message::Unchoke), "one free slot");
    assert_eq!(firsts[1].len(), 1, "bitfield only");
    while s.poll_dirty().is_some() {}
    assert_eq!(s.poll_timeout(), t(10_000));
    s.handle_timeout(t(9_999));
    assert!(s.poll_dirty().is_none(), "no round before 10 s");
    s.handle_timeout(t(10_000));
    assert!(
        s.poll_dirty().is_none(),
        "round 1: connection 1 keeps its turn"
    );
    s.handle_timeout(t(20_000));
    assert_eq!(
        (msgs(&mut s, 1), msgs(&mut s, 2)),
        (vec![Message::Choke], vec![Message::Unchoke])
    );
    s.handle_timeout(t(30_000));
    assert_eq!(
        (msgs(&mut s, 2), msgs(&mut s, 3)),
        (vec![Message::Choke], vec![Message::Unchoke])
    );
    assert_eq!(s.poll_timeout(), t(40_000));
}

#[test]
fn dirty_connections_come_in_the_order_they_first_got_frames() {
    let mut s = sim_peer(0, true);
    for r in [5, 3, 4] {
        s.handle_connected(t(0), r, INFO);
    }
    assert_eq!(
        std::iter::from_fn(|| s.poll_dirty()).collect::<Vec<_>>(),
        [5, 3, 4]
    );
    s.handle_message(t(1), 4, Message::Interested);
    s.handle_message(t(1), 3, Message::Interested);
    s.handle_message(t(1), 4, Message::NotInterested);
    assert_eq!(
        std::iter::from_fn(|| s.poll_dirty()).collect::<Vec<_>>(),
        [4, 3]
    );
}

// ----- the client's configuration -----

type ClientPeer = Peer<Vec<u8>>;

const UTP_OUT: ConnInfo = ConnInfo {
    transport: Some(Transport::Utp),
    outgoing: true,
};

fn client(me: u8, have: Bitfield) -> ClientPeer {
    Peer::new(client_cfg(me), layout(), have, t(0), 7)
}

fn hs(peer: u8) -> Handshake {
    Handshake::new([0; 20], id(peer), true, true)
}

/// A client connection `conn` to `peer`'s peer, handshakes done; the frames we sent are
/// returned.
fn open(p: &mut ClientPeer, conn: ConnId, peer: u8, info: ConnInfo) -> Vec<Frame<Vec<u8>>> {
    p.handle_connected(t(0), conn, info);
    p.handle_handshake(t(0), conn, &hs(peer));
    frames(p, conn)
}

fn block_data(r: BlockRequest) -> Vec<u8> {
    let off = r.index as usize * 2 * B as usize + r.begin as usize;
    (off..off + r.length as usize)
        .map(|i| (i * 7 % 251) as u8)
        .collect()
}

#[test]
fn the_opening_waits_for_the_peers_handshake_and_uses_bep6_short_forms() {
    let mut p = client(1, Bitfield::full(4));
    p.handle_connected(t(0), 1, UTP_OUT);
    let f = frames(&mut p, 1);
    assert_eq!(f.len(), 1, "our handshake only: {f:?}");
    p.handle_handshake(t(1), 1, &hs(2));
    let m = msgs(&mut p, 1);
    assert_eq!(m[0], Message::HaveAll);
    let Message::Extended { id: 0, payload } = &m[1] else {
        panic!("{m:?}")
    };
    assert_eq!(
        crate::wire::parse_ext_handshake(payload).unwrap().port,
        None
    );
    assert!(p.is_fast(1));
    let mut q = client(3, Bitfield::new(4));
    open(&mut q, 1, 2, UTP_OUT);
    let mut r = client(3, Bitfield::new(4));
    let f = open(&mut r, 1, 2, UTP_OUT);
    assert_eq!(f.len(), 3, "handshake, have none, extended handshake");
    assert_eq!(f[1], Frame::Message(Message::HaveNone));
    // Without the peer's Fast Extension bit: a plain bitfield, or nothing.
    let mut plain = client(3, Bitfield::full(4));
    plain.handle_connected(t(0), 1, UTP_OUT);
    plain.handle_handshake(t(0), 1, &Handshake::new([0; 20], id(2), false, false));
    assert_eq!(msgs(&mut plain, 1), vec![Message::Bitfield(vec![0xf0])]);
}

#[test]
fn handshakes_for_another_torrent_or_from_ourselves_are_refused() {
    let mut p = client(1, Bitfield::new(4));
    p.handle_connected(t(0), 1, UTP_OUT);
    p.handle_handshake(t(0), 1, &Handshake::new([9; 20], id(2), true, true));
    assert_eq!(p.closing(1), Some(&CloseReason::WrongInfoHash));
    p.handle_connected(t(0), 2, UTP_OUT);
    p.handle_handshake(t(0), 2, &hs(1));
    assert_eq!(p.closing(2), Some(&CloseReason::SelfConnection));
    assert!(
        events(&mut p).is_empty(),
        "refusals are answered to the caller"
    );
}

#[test]
fn utp_replaces_tcp_to_the_same_peer_and_a_third_is_refused() {
    let mut p = client(1, Bitfield::new(4));
    let tcp = ConnInfo {
        transport: Some(Transport::Tcp),
        outgoing: true,
    };
    open(&mut p, 1, 9, tcp);
    open(
        &mut p,
        2,
        9,
        ConnInfo {
            transport: Some(Transport::Utp),
            outgoing: false,
        },
    );
    assert_eq!(
        events(&mut p),
        vec![Event::Close {
            conn: 1,
            reason: CloseReason::Replaced
        }]
    );
    assert_eq!(p.closing(2), None);
    open(
        &mut p,
        3,
        9,
        ConnInfo {
            transport: Some(Transport::Tcp),
            outgoing: false,
        },
    );
    assert_eq!(p.closing(3), Some(&CloseReason::Duplicate));
}

#[test]
fn connections_beyond_the_limit_are_refused() {
    let mut cfg = client_cfg(1);
    cfg.max_connections = Some(2);
    let mut p: ClientPeer = Peer::new(cfg, layout(), Bitfield::new(4), t(0), 1);
    for c in 1..=3 {
        open(&mut p, c, 10 + c as u8, UTP_OUT);
    }
    assert_eq!(p.closing(3), Some(&CloseReason::Full(2)));
    p.handle_closed(t(1), 1);
    open(&mut p, 4, 20, UTP_OUT);
    assert_eq!(p.closing(4), None);
}

#[test]
fn good_pieces_are_announced_and_bad_ones_close_their_contributors() {
    // Connections 1 and 2 to seeds; piece 1's second block comes corrupted from 2.
    let mut p = client(1, Bitfield::new(4));
    for (c, peer) in [(1, 2), (2, 3)] {
        open(&mut p, c, peer, UTP_OUT);
        p.handle_message(t(1), c, Message::HaveAll);
        p.handle_message(t(1), c, Message::Unchoke);
    }
    let at1 = requests(&msgs(&mut p, 1));
    let at2 = requests(&msgs(&mut p, 2));
    assert_eq!(
        (at1.len(), at2.len()),
        (4, 4),
        "4 blocks each: the pipeline floor"
    );
    let mut got = Vec::new();
    for (c, r) in at1
        .iter()
        .map(|&r| (1, r))
        .chain(at2.iter().map(|&r| (2, r)))
    {
        let data = block_data(r);
        let rec = p.handle_message(
            t(5),
            c,
            Message::Piece {
                index: r.index,
                begin: r.begin,
                data: data.clone(),
            },
        );
        let Received::Block {
            block,
            data: back,
            piece_done,
        } = rec
        else {
            panic!("{rec:?}")
        };
        assert_eq!(
            (block, back),
            (
                p.layout().block_at(r.index, r.begin, r.length).unwrap(),
                data
            )
        );
        if piece_done {
            got.push((c, r.index));
        }
    }
    assert_eq!(got.len(), 4, "every piece has all its blocks: {got:?}");
    assert_eq!(p.stats().downloaded, 8 * B as u64);
    assert!(p.have().count() == 0, "nothing is ours before the check");
    events(&mut p);
    // Piece of the first block from conn 1 verifies; the first piece of conn 2 fails.
    let good = at1[0].index;
    let bad = at2[0].index;
    p.handle_piece_verified(t(6), good);
    assert!(p.have().get(good));
    assert!(msgs(&mut p, 1).contains(&Message::Have(good)));
    p.handle_piece_failed(t(6), bad);
    assert!(!p.have().get(bad));
    assert_eq!(p.stats().hash_failures, 1);
    assert_eq!(p.stats().downloaded, 6 * B as u64);
    assert_eq!(p.stats().utp.downloaded, 6 * B as u64);
    let ev = events(&mut p);
    assert!(ev.contains(&Event::PieceCompleted { piece: good }));
    assert!(ev.contains(&Event::Close {
        conn: 2,
        reason: CloseReason::HashFailed(bad)
    }));
    // The failed piece is asked for again on the connection left.
    assert!(requests(&msgs(&mut p, 1)).iter().any(|r| r.index == bad));
}

#[test]
fn the_fast_extension_rejects_what_we_will_not_serve() {
    let mut s = client(1, Bitfield::full(4));
    open(&mut s, 1, 2, UTP_OUT);
    s.handle_message(t(1), 1, Message::HaveNone);
    let r0 = BlockRequest {
        index: 0,
        begin: 0,
        length: B,
    };
    // Choked: rejected.
    s.handle_message(t(2), 1, Message::Request(r0));
    assert_eq!(msgs(&mut s, 1), vec![Message::RejectRequest(r0)]);
    s.handle_message(t(3), 1, Message::Interested);
    assert_eq!(msgs(&mut s, 1), vec![Message::Unchoke]);
    let r1 = BlockRequest { begin: B, ..r0 };
    s.handle_message(t(4), 1, Message::Request(r0));
    s.handle_message(t(4), 1, Message::Request(r1));
    // A CANCEL is answered by a reject; a CHOKE rejects every queued request.
    s.handle_message(t(5), 1, Message::Cancel(r0));
    assert_eq!(msgs(&mut s, 1), vec![Message::RejectRequest(r0)]);
    s.handle_message(t(6), 1, Message::NotInterested);
    assert_eq!(
        msgs(&mut s, 1),
        vec![Message::Choke, Message::RejectRequest(r1)]
    );
    // The connection's counters: three requests, the one sent while choked refused (a
    // cancelled or choked-away request was accepted first), one unchoke.
    let c = s.conn_stats(1).unwrap();
    assert_eq!(
        (c.requests_received, c.requests_refused, c.unchokes),
        (3, 1, 1)
    );
}

#[test]
fn a_reject_frees_the_block_for_the_next_pick() {
    let mut p = client(1, Bitfield::new(4));
    open(&mut p, 1, 2, UTP_OUT);
    p.handle_message(t(1), 1, Message::HaveAll);
    p.handle_message(t(1), 1, Message::Unchoke);
    let reqs = requests(&msgs(&mut p, 1));
    p.handle_message(t(2), 1, Message::RejectRequest(reqs[0]));
    assert_eq!(p.picker().outstanding_len(1), 4, "re-picked at once");
    assert_eq!(requests(&msgs(&mut p, 1)), vec![reqs[0]]);
}

#[test]
fn endgame_copy_is_cancelled_on_the_slower_connection() {
    // One piece of one block; conns 1 and 2 to seeds: with Endgame::Idle, conn 2 (idle)
    // gets a copy of the block conn 1 has outstanding.
    let l = Layout::new(B as u64, B, B).unwrap();
    let mut p: ClientPeer = Peer::new(client_cfg(1), l, Bitfield::new(1), t(0), 1);
    for (c, peer) in [(1, 2), (2, 3)] {
        open(&mut p, c, peer, UTP_OUT);
        p.handle_message(t(1), c, Message::HaveAll);
    }
    p.handle_message(t(2), 1, Message::Unchoke);
    let r = requests(&msgs(&mut p, 1));
    p.handle_message(t(2), 2, Message::Unchoke);
    assert_eq!(
        requests(&msgs(&mut p, 2)),
        r,
        "endgame: the same block again"
    );
    p.handle_message(
        t(3),
        2,
        Message::Piece {
            index: 0,
            begin: 0,
            data: vec![0; B as usize],
        },
    );
    assert_eq!(msgs(&mut p, 1), vec![Message::Cancel(r[0])]);
}

#[test]
fn interested_peers_fill_free_slots_at_once_and_wait_beyond() {
    let mut p = client(1, Bitfield::full(4));
    for c in 1..=7 {
        open(&mut p, c, 10 + c as u8, UTP_OUT);
        p.handle_message(t(1), c, Message::Interested);
    }
    // 4 regular + 1 optimistic slots.
    let unchoked: Vec<bool> = (1..=7).map(|c| !p.is_choking(c)).collect();
    assert_eq!(unchoked, [true, true, true, true, true, false, false]);
    p.handle_message(t(2), 1, Message::NotInterested);
    assert!(p.is_choking(1));
    p.handle_message(t(2), 6, Message::Interested);
    assert!(!p.is_choking(6), "the slot freed by 1");
    p.handle_message(t(2), 7, Message::Interested);
    assert!(p.is_choking(7), "no slot left: waits for a round");
}

#[test]
fn rechoke_rewards_the_peers_that_sent_the_most() {
    // 7 seeds we leech from (and that are interested in us, for the sake of the test).
    let l = Layout::new(7 * 2 * B as u64, 2 * B, B).unwrap();
    let mut p: ClientPeer = Peer::new(client_cfg(1), l, Bitfield::new(7), t(0), 1);
    for c in 1..=7 {
        open(&mut p, c, 10 + c as u8, UTP_OUT);
        p.handle_message(t(1), c, Message::HaveAll);
        p.handle_message(t(1), c, Message::Interested);
        p.handle_message(t(1), c, Message::Unchoke);
    }
    // Connections 3..=6 each deliver one block; the others nothing.
    for c in 3..=6 {
        let r = requests(&msgs(&mut p, c))[0];
        p.handle_message(
            t(2),
            c,
            Message::Piece {
                index: r.index,
                begin: r.begin,
                data: block_data(r),
            },
        );
    }
    p.handle_timeout(t(10_000));
    for c in 3..=6 {
        assert!(!p.is_choking(c), "{c}");
    }
    let others = [1, 2, 7].iter().filter(|&&c| !p.is_choking(c)).count();
    assert_eq!(others, 1, "one optimistic");
}

#[test]
fn a_peer_that_sends_nothing_for_sixty_seconds_is_snubbed() {
    // Regular slot 1, no optimistic: the snubbing peer loses it to the other.
    let mut cfg = client_cfg(1);
    cfg.choker.regular = 1;
    cfg.choker.optimistic = 0;
    let mut p: ClientPeer = Peer::new(cfg, layout(), Bitfield::new(4), t(0), 1);
    open(&mut p, 1, 11, UTP_OUT);
    open(&mut p, 2, 12, UTP_OUT);
    p.handle_message(t(0), 1, Message::HaveNone);
    p.handle_message(t(0), 2, Message::HaveAll);
    for c in 1..=2 {
        p.handle_message(t(0), c, Message::Interested);
    }
    // We become interested in 2 at once, in 1 at 30 s; neither sends a block.
    p.handle_message(t(30_000), 1, Message::Have(0));
    for s in 1..=6 {
        p.handle_timeout(t(s * 10_000));
    }
    // At 60 s conn 2 snubs (60 s interested, no block), conn 1 not (30 s).
    assert!(!p.is_choking(1) && p.is_choking(2));
}

#[test]
fn both_seeds_close_and_the_completion_is_announced() {
    let l = Layout::new(B as u64, B, B).unwrap();
    let mut p: ClientPeer = Peer::new(client_cfg(1), l, Bitfield::new(1), t(0), 1);
    open(&mut p, 1, 2, UTP_OUT);
    open(&mut p, 2, 3, UTP_OUT);
    p.handle_message(t(1), 1, Message::HaveAll);
    p.handle_message(t(1), 2, Message::HaveNone);
    p.handle_message(t(1), 1, Message::Unchoke);
    p.handle_message(
        t(2),
        1,
        Message::Piece {
            index: 0,
            begin: 0,
            data: vec![1; B as usize],
        },
    );
    events(&mut p);
    p.handle_piece_verified(t(3), 0);
    assert_eq!(
        events(&mut p),
        vec![
            Event::PieceCompleted { piece: 0 },
            Event::Completed,
            Event::Close {
                conn: 1,
                reason: CloseReason::BothSeeds
            }
        ]
    );
    assert_eq!(p.completed_at(), Some(t(3)));
    assert!(msgs(&mut p, 2).contains(&Message::Have(0)));
}

#[test]
fn the_extended_handshake_gives_the_peers_port() {
    let mut p = client(1, Bitfield::new(4));
    open(&mut p, 1, 2, UTP_OUT);
    let payload = b"d1:md6:ut_pexi1ee1:pi6881ee".to_vec();
    p.handle_message(t(1), 1, Message::Extended { id: 0, payload });
    // It does not count as the first message: a bitfield may still follow.
    p.handle_message(t(1), 1, Message::Bitfield(vec![0x80]));
    assert_eq!(
        events(&mut p),
        vec![Event::ListenPort {
            conn: 1,
            port: 6881
        }]
    );
    assert_eq!(p.closing(1), None);
    assert_eq!(p.remote_have(1).unwrap().count(), 1);
}

#[test]
fn timers_close_silent_peers_and_keep_quiet_connections_alive() {
    let mut p = client(1, Bitfield::new(4));
    p.handle_connected(t(0), 1, UTP_OUT);
    frames(&mut p, 1);
    // The handshake is due within 10 s (the rate estimate ticks every second).
    assert_eq!(p.poll_timeout(), t(1_000));
    p.handle_timeout(t(10_000));
    assert_eq!(
        events(&mut p),
        vec![Event::Close {
            conn: 1,
            reason: CloseReason::HandshakeTimeout(Duration::from_secs(10))
        }]
    );
    // An open connection: keep-alive after 60 s without sending, closed after 150 s
    // without receiving.
    open(&mut p, 2, 3, UTP_OUT);
    p.handle_timeout(t(60_000));
    assert_eq!(msgs(&mut p, 2), vec![Message::KeepAlive]);
    p.handle_message(t(100_000), 2, Message::KeepAlive);
    p.handle_timeout(t(249_999));
    assert_eq!(p.closing(2), None);
    p.handle_timeout(t(250_000));
    assert_eq!(
        p.closing(2),
        Some(&CloseReason::IdleTimeout(Duration::from_secs(150)))
    );
}

#[test]
fn unanswered_requests_are_cancelled_in_order_and_picked_again() {
    let mut p = client(1, Bitfield::new(4));
    open(&mut p, 1, 2, UTP_OUT);
    p.handle_message(t(1_000), 1, Message::HaveAll);
    p.handle_message(t(1_000), 1, Message::Unchoke);
    let reqs = requests(&msgs(&mut p, 1));
    assert_eq!(reqs.len(), 4);
    // Keep the connection alive without blocks; the request timeout runs from 1 s.
    p.handle_message(t(30_000), 1, Message::KeepAlive);
    p.handle_timeout(t(60_999));
    assert_eq!(p.conn_stats(1).unwrap().request_timeouts, 0);
    p.handle_timeout(t(61_000));
    let out: Vec<_> = msgs(&mut p, 1)
        .into_iter()
        .filter(|m| *m != Message::KeepAlive)
        .collect();
    let cancels: Vec<Message<Vec<u8>>> = reqs.iter().map(|&r| Message::Cancel(r)).collect();
    assert_eq!(out[..4], cancels[..], "in request order");
    assert_eq!(requests(&out).len(), 4, "picked again");
    assert_eq!(p.conn_stats(1).unwrap().request_timeouts, 1);
}

#[test]
fn the_pipeline_follows_the_rate_the_peer_delivers() {
    // 64 pieces of 16 blocks; one seed delivering 1 MB/s fills 3 s with 183 blocks,
    // capped at 64.
    let l = Layout::new(64 * 16 * B as u64, 16 * B, B).unwrap();
    let mut p: ClientPeer = Peer::new(client_cfg(1), l, Bitfield::new(64), t(0), 1);
    open(&mut p, 1, 2, UTP_OUT);
    p.handle_message(t(0), 1, Message::HaveAll);
    p.handle_message(t(0), 1, Message::Unchoke);
    assert_eq!(
        requests(&msgs(&mut p, 1)).len(),
        4,
        "no rate yet: the floor"
    );
    // 8 blocks (128 KiB) in the first second: rate = 0.5 * 131072 = 65536 B/s; 3 s of
    // it is 196,608 bytes = 12 blocks.
    let mut reqs = p.picker().outstanding(1).collect::<Vec<_>>();
    for k in 0..8 {
        let b = reqs[k % reqs.len()];
        let r = l.request(b);
        p.handle_message(
            t(100 * k as u64),
            1,
            Message::Piece {
                index: r.index,
                begin: r.begin,
                data: vec![0; r.length as usize],
            },
        );
        reqs = p.picker().outstanding(1).collect();
    }
    assert_eq!(p.picker().outstanding_len(1), 4);
    p.handle_timeout(t(1_000));
    assert_eq!(p.picker().outstanding_len(1), 12);
}

fn any_message() -> impl proptest::strategy::Strategy<Value = Message<Vec<u8>>> {
    use proptest::prelude::*;
    let req =
        (0u32..6, 0u32..4, prop_oneof![Just(B), 0u32..70_000]).prop_map(|(index, k, length)| {
            BlockRequest {
                index,
                begin: k * B,
                length,
            }
        });
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..3).prop_map(Message::Bitfield),
        Just(Message::Choke),
        Just(Message::Unchoke),
        Just(Message::Interested),
        Just(Message::NotInterested),
        Just(Message::HaveAll),
        Just(Message::HaveNone),
        (0u32..8).prop_map(Message::Have),
        req.clone().prop_map(Message::Request),
        req.clone().prop_map(Message::Cancel),
        req.clone().prop_map(Message::RejectRequest),
        req.prop_map(|r| Message::Piece {
            index: r.index,
            begin: r.begin,
            data: vec![0; (r.length % 20_000) as usize],
        }),
        Just(Message::KeepAlive),
        proptest::collection::vec(any::<u8>(), 0..20)
            .prop_map(|payload| Message::Extended { id: 0, payload }),
    ]
}

proptest::proptest! {
    /// Arbitrary, possibly malformed input on known and unknown connections, with time
    /// steps, closes, handshakes and upload pulls in between, under either driver's
    /// settings, never panics, never queues uploads to a choked connection, never counts
    /// more new bytes than the torrent holds, and keeps the picker's bookkeeping right.
    #[test]
    fn arbitrary_input_never_panics(
        client in proptest::bool::ANY,
        seed_peer in proptest::bool::ANY,
        ops in proptest::collection::vec((0u64..5, any_message(), 0u8..24), 1..200),
    ) {
        let mut cfg = if client { client_cfg(0) } else { sim_cfg(0) };
        cfg.verification = Verification::External;
        let have = if seed_peer { Bitfield::full(4) } else { Bitfield::new(4) };
        let mut p: ClientPeer = Peer::new(cfg, layout(), have, t(0), 3);
        for c in 1..4 {
            p.handle_connected(t(0), c, UTP_OUT);
            p.handle_handshake(t(0), c, &hs(c as u8 + 1));
        }
        let mut now = 0;
        for (conn, msg, action) in ops {
            now += 700;
            match action {
                0 => p.handle_timeout(t(now)),
                1 => p.handle_closed(t(now), conn),
                2 => {
                    p.handle_connected(t(now), conn, UTP_OUT);
                    p.handle_handshake(t(now), conn, &hs(conn as u8 + 1));
                }
                3 => {
                    p.poll_upload(t(now), conn);
                }
                4 => p.close(t(now), conn),
                5 => {
                    if let Some(&piece) = p.pending.keys().next() {
                        if now % 3 == 0 { p.handle_piece_failed(t(now), piece); } else { p.handle_piece_verified(t(now), piece) }
                    }
                }
                _ => {
                    p.handle_message(t(now), conn, msg);
                }
            }
            while p.poll_event().is_some() {}
            while let Some(c) = p.poll_dirty() {
                while p.poll_transmit(t(now), c).is_some() {}
            }
            for c in p.conn_ids().collect::<Vec<_>>() {
                proptest::prop_assert!(!p.is_choking(c) || p.queued_uploads(c) == 0);
            }
            proptest::prop_assert!(p.stats().downloaded <= layout().total_length());
            if let Err(e) = p.check_invariants() {
                return Err(proptest::test_runner::TestCaseError::fail(e));
            }
        }
    }
}
