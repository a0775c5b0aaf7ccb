//! The BitTorrent peer wire protocol (BEP 3) with the Fast Extension (BEP 6) and the
//! Extension Protocol's handshake (BEP 10): messages, their encoding and decoding, and the
//! size of each on the wire.
//!
//! Handshake: `19 | "BitTorrent protocol" | 8 reserved bytes | 20-byte info-hash | 20-byte
//! peer id` (68 bytes). Every later message is `length: u32 big-endian | id: u8 | payload`,
//! and a zero length is a keep-alive; so choke, unchoke, interested and not interested take
//! 5 bytes, `have` 9, `bitfield` `5 + ceil(pieces / 8)`, `request`, `cancel` and `reject
//! request` 17, `piece` `13 + block length`. The Fast Extension is negotiated by bit `0x04`
//! of reserved byte 7 on both sides; it adds `have all`, `have none`, `reject request`,
//! `suggest piece` and `allowed fast`. The Extension Protocol is negotiated by bit `0x10`
//! of reserved byte 5: message id 20 carries an extended message whose first byte is its
//! extended id, 0 being the extended handshake, a bencoded dictionary; we declare no
//! extended message (`m` empty) and use the handshake only for `p`, the sender's listening
//! port, so that a peer that connected to us can be dialled back over the transports we
//! prefer (BEP 10: "p: Local TCP listen port").
//!
//! A `piece` message carries its block as any [`BlockData`]: bytes in a real client
//! (`Vec<u8>`), only a length in the simulator ([`Len`]); [`Message::encoded_len`] is the
//! same for both. Decoding is pure and total: any byte string yields a message or a
//! [`WireError`], never a panic; [`frame_len`] checks a frame's length against a limit
//! before anything is allocated.

/// Protocol string of the BEP 3 handshake.
pub const PROTOCOL: &[u8; 19] = b"BitTorrent protocol";
/// Length of the handshake in bytes.
pub const HANDSHAKE_LEN: usize = 68;
/// Reserved byte 7 bit announcing the Fast Extension (BEP 6).
pub const FAST_EXTENSION_BIT: u8 = 0x04;
/// Reserved byte 5 bit announcing the Extension Protocol (BEP 10).
pub const EXTENSION_PROTOCOL_BIT: u8 = 0x10;
/// Largest extended handshake accepted, in bytes.
pub const MAX_EXT_HANDSHAKE: usize = 16 * 1024;
/// Length prefix plus message id.
const HEADER_LEN: usize = 5;

/// A 20-byte SHA-1 digest: the v1 info-hash or a piece hash.
pub type Sha1Digest = [u8; 20];

/// The BEP 3 handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// Reserved bytes (extension bits).
    pub reserved: [u8; 8],
    /// v1 info-hash of the torrent.
    pub info_hash: Sha1Digest,
    /// The sender's peer id.
    pub peer_id: [u8; 20],
}

impl Handshake {
    /// A handshake announcing the Fast Extension if `fast` and the Extension Protocol if
    /// `extended`.
    pub fn new(info_hash: Sha1Digest, peer_id: [u8; 20], fast: bool, extended: bool) -> Self {
        let mut reserved = [0u8; 8];
        if fast {
            reserved[7] |= FAST_EXTENSION_BIT;
        }
        if extended {
            reserved[5] |= EXTENSION_PROTOCOL_BIT;
        }
        Self {
            reserved,
            info_hash,
            peer_id,
        }
    }

    /// Whether the sender announced the Fast Extension.
    pub fn fast(&self) -> bool {
        self.reserved[7] & FAST_EXTENSION_BIT != 0
    }

    /// Whether the sender announced the Extension Protocol (BEP 10).
    pub fn extended(&self) -> bool {
        self.reserved[5] & EXTENSION_PROTOCOL_BIT != 0
    }

    /// The 68 wire bytes.
    pub fn encode(&self) -> [u8; HANDSHAKE_LEN] {
        let mut b = [0u8; HANDSHAKE_LEN];
        b[0] = PROTOCOL.len() as u8;
        b[1..20].copy_from_slice(PROTOCOL);
        b[20..28].copy_from_slice(&self.reserved);
        b[28..48].copy_from_slice(&self.info_hash);
        b[48..68].copy_from_slice(&self.peer_id);
        b
    }

    /// Parses 68 wire bytes, refusing any other protocol string.
    pub fn decode(b: &[u8; HANDSHAKE_LEN]) -> Result<Self, WireError> {
        if b[0] as usize != PROTOCOL.len() || &b[1..20] != PROTOCOL {
            return Err(WireError::NotBitTorrent);
        }
        let mut h = Self {
            reserved: [0; 8],
            info_hash: [0; 20],
            peer_id: [0; 20],
        };
        h.reserved.copy_from_slice(&b[20..28]);
        h.info_hash.copy_from_slice(&b[28..48]);
        h.peer_id.copy_from_slice(&b[48..68]);
        Ok(h)
    }
}

/// A block as the wire names it: the payload of `request`, `cancel` and `reject request`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockRequest {
    /// Piece index.
    pub index: u32,
    /// Byte offset inside the piece.
    pub begin: u32,
    /// Length in bytes.
    pub length: u32,
}

/// What a `piece` message carries: the block's bytes, or only their number.
pub trait BlockData {
    /// Bytes of block data.
    fn data_len(&self) -> u32;
}

impl BlockData for Vec<u8> {
    fn data_len(&self) -> u32 {
        self.len() as u32
    }
}

/// A block of `n` bytes whose content is not carried (the simulator moves no payload).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Len(pub u32);

impl BlockData for Len {
    fn data_len(&self) -> u32 {
        self.0
    }
}

/// A peer wire message after the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message<D = Vec<u8>> {
    /// Zero-length frame.
    KeepAlive,
    /// id 0: the sender will not answer requests.
    Choke,
    /// id 1: the sender will answer requests.
    Unchoke,
    /// id 2: the sender wants a piece the receiver has.
    Interested,
    /// id 3: the sender wants nothing the receiver has.
    NotInterested,
    /// id 4: the sender now has this piece.
    Have(u32),
    /// id 5: the sender's pieces, in wire layout (validated against the piece count by
    /// [`crate::Bitfield::from_wire`]).
    Bitfield(Vec<u8>),
    /// id 6.
    Request(BlockRequest),
    /// id 7: a block of data.
    Piece {
        /// Piece index.
        index: u32,
        /// Byte offset inside the piece.
        begin: u32,
        /// The data.
        data: D,
    },
    /// id 8: withdraws an earlier request.
    Cancel(BlockRequest),
    /// id 9 (DHT port; ignored).
    Port(u16),
    /// id 13 (BEP 6).
    SuggestPiece(u32),
    /// id 14 (BEP 6).
    HaveAll,
    /// id 15 (BEP 6).
    HaveNone,
    /// id 16 (BEP 6): a request the sender will not serve.
    RejectRequest(BlockRequest),
    /// id 17 (BEP 6).
    AllowedFast(u32),
    /// id 20 (BEP 10).
    Extended {
        /// Extended message id (0: the extended handshake).
        id: u8,
        /// The rest of the message.
        payload: Vec<u8>,
    },
    /// Any other id: skipped.
    Unknown {
        /// Message id.
        id: u8,
        /// Payload length.
        len: usize,
    },
}

/// What travels on a connection: the handshake first, then messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame<D = Vec<u8>> {
    /// The 68-byte handshake (boxed: it is sent once, messages many times).
    Handshake(Box<Handshake>),
    /// A message.
    Message(Message<D>),
}

impl<D: BlockData> Frame<D> {
    /// Bytes on the wire.
    pub fn encoded_len(&self) -> usize {
        match self {
            Frame::Handshake(_) => HANDSHAKE_LEN,
            Frame::Message(m) => m.encoded_len(),
        }
    }
}

/// Malformed or refused peer input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// The handshake does not carry the BitTorrent protocol string.
    #[error("peer did not send a BitTorrent handshake")]
    NotBitTorrent,
    /// A frame longer than the limit.
    #[error("message of {len} bytes exceeds the limit of {limit} bytes")]
    Oversized {
        /// Announced length.
        len: u32,
        /// Limit in force.
        limit: u32,
    },
    /// An extended handshake that is not a bencoded dictionary.
    #[error("extended handshake (BEP 10) is not a bencoded dictionary")]
    BadExtHandshake,
    /// A known message with a payload of the wrong size.
    #[error("message id {id} has a {len}-byte payload, expected {expected}")]
    BadLength {
        /// Message id.
        id: u8,
        /// Payload bytes received.
        len: usize,
        /// What the message needs.
        expected: &'static str,
    },
}

impl<D> Message<D> {
    /// Wire id (None for keep-alive and unknown messages).
    pub fn id(&self) -> Option<u8> {
        Some(match self {
            Message::KeepAlive | Message::Unknown { .. } => return None,
            Message::Choke => 0,
            Message::Unchoke => 1,
            Message::Interested => 2,
            Message::NotInterested => 3,
            Message::Have(_) => 4,
            Message::Bitfield(_) => 5,
            Message::Request(_) => 6,
            Message::Piece { .. } => 7,
            Message::Cancel(_) => 8,
            Message::Port(_) => 9,
            Message::SuggestPiece(_) => 13,
            Message::HaveAll => 14,
            Message::HaveNone => 15,
            Message::RejectRequest(_) => 16,
            Message::AllowedFast(_) => 17,
            Message::Extended { .. } => 20,
        })
    }

    /// Short name, for traces and errors.
    pub fn name(&self) -> &'static str {
        match self {
            Message::KeepAlive => "keep-alive",
            Message::Choke => "choke",
            Message::Unchoke => "unchoke",
            Message::Interested => "interested",
            Message::NotInterested => "not-interested",
            Message::Have(_) => "have",
            Message::Bitfield(_) => "bitfield",
            Message::Request(_) => "request",
            Message::Piece { .. } => "piece",
            Message::Cancel(_) => "cancel",
            Message::Port(_) => "port",
            Message::SuggestPiece(_) => "suggest-piece",
            Message::HaveAll => "have-all",
            Message::HaveNone => "have-none",
            Message::RejectRequest(_) => "reject-request",
            Message::AllowedFast(_) => "allowed-fast",
            Message::Extended { .. } => "extended",
            Message::Unknown { .. } => "unknown",
        }
    }
}

impl<D: BlockData> Message<D> {
    /// Bytes on the wire, length prefix included (module comment).
    pub fn encoded_len(&self) -> usize {
        HEADER_LEN
            + match self {
                Message::KeepAlive => return 4,
                Message::Choke
                | Message::Unchoke
                | Message::Interested
                | Message::NotInterested
                | Message::HaveAll
                | Message::HaveNone => 0,
                Message::Have(_) | Message::SuggestPiece(_) | Message::AllowedFast(_) => 4,
                Message::Bitfield(b) => b.len(),
                Message::Request(_) | Message::Cancel(_) | Message::RejectRequest(_) => 12,
                Message::Piece { data, .. } => 8 + data.data_len() as usize,
                Message::Port(_) => 2,
                Message::Extended { payload, .. } => 1 + payload.len(),
                Message::Unknown { len, .. } => *len,
            }
    }

    /// Bytes of block data carried (a piece's block length, else 0).
    pub fn data_len(&self) -> u32 {
        match self {
            Message::Piece { data, .. } => data.data_len(),
            _ => 0,
        }
    }
}

impl<D: AsRef<[u8]>> Message<D> {
    /// Appends the framed wire form (length prefix included) to `out`.
    /// [`Message::Unknown`] encodes as nothing: we never send one.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let Some(id) = self.id() else {
            if matches!(self, Message::KeepAlive) {
                out.extend_from_slice(&0u32.to_be_bytes());
            }
            return;
        };
        let start = out.len();
        out.extend_from_slice(&[0, 0, 0, 0, id]);
        match self {
            Message::Have(i) | Message::SuggestPiece(i) | Message::AllowedFast(i) => {
                out.extend_from_slice(&i.to_be_bytes())
            }
            Message::Bitfield(b) => out.extend_from_slice(b),
            Message::Request(r) | Message::Cancel(r) | Message::RejectRequest(r) => {
                out.extend_from_slice(&r.index.to_be_bytes());
                out.extend_from_slice(&r.begin.to_be_bytes());
                out.extend_from_slice(&r.length.to_be_bytes());
            }
            Message::Piece { index, begin, data } => {
                out.extend_from_slice(&index.to_be_bytes());
                out.extend_from_slice(&begin.to_be_bytes());
                out.extend_from_slice(data.as_ref());
            }
            Message::Port(p) => out.extend_from_slice(&p.to_be_bytes()),
            Message::Extended { id, payload } => {
                out.push(*id);
                out.extend_from_slice(payload);
            }
            _ => {}
        }
        let len = (out.len() - start - 4) as u32;
        out[start..start + 4].copy_from_slice(&len.to_be_bytes());
    }

    /// The framed wire form.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode_into(&mut v);
        v
    }
}

impl Message<Vec<u8>> {
    /// Decodes one frame body (the bytes after the length prefix; empty = keep-alive).
    pub fn decode(body: &[u8]) -> Result<Self, WireError> {
        let Some((&id, p)) = body.split_first() else {
            return Ok(Message::KeepAlive);
        };
        let exact = |n: usize, what: &'static str| {
            if p.len() == n {
                Ok(())
            } else {
                Err(WireError::BadLength {
                    id,
                    len: p.len(),
                    expected: what,
                })
            }
        };
        let u32_at = |i: usize| u32::from_be_bytes([p[i], p[i + 1], p[i + 2], p[i + 3]]);
        let block = || BlockRequest {
            index: u32_at(0),
            begin: u32_at(4),
            length: u32_at(8),
        };
        Ok(match id {
            0..=3 | 14 | 15 => {
                exact(0, "0 bytes")?;
                match id {
                    0 => Message::Choke,
                    1 => Message::Unchoke,
                    2 => Message::Interested,
                    3 => Message::NotInterested,
                    14 => Message::HaveAll,
                    _ => Message::HaveNone,
                }
            }
            4 | 13 | 17 => {
                exact(4, "4 bytes")?;
                match id {
                    4 => Message::Have(u32_at(0)),
                    13 => Message::SuggestPiece(u32_at(0)),
                    _ => Message::AllowedFast(u32_at(0)),
                }
            }
            5 => Message::Bitfield(p.to_vec()),
            6 | 8 | 16 => {
                exact(12, "12 bytes")?;
                match id {
                    6 => Message::Request(block()),
                    8 => Message::Cancel(block()),
                    _ => Message::RejectRequest(block()),
                }
            }
            7 => {
                if p.len() < 8 {
                    return Err(WireError::BadLength {
                        id,
                        len: p.len(),
                        expected: "at least 8 bytes",
                    });
                }
                Message::Piece {
                    index: u32_at(0),
                    begin: u32_at(4),
                    data: p[8..].to_vec(),
                }
            }
            9 => {
                exact(2, "2 bytes")?;
                Message::Port(u16::from_be_bytes([p[0], p[1]]))
            }
            20 => {
                let Some((&ext, rest)) = p.split_first() else {
                    return Err(WireError::BadLength {
                        id,
                        len: 0,
                        expected: "at least 1 byte",
                    });
                };
                Message::Extended {
                    id: ext,
                    payload: rest.to_vec(),
                }
            }
            _ => Message::Unknown { id, len: p.len() },
        })
    }
}

/// The length of the frame at the start of `buf` (prefix included) once all of it is
/// there, `Ok(None)` while it is incomplete; an announced length over `limit` is an error
/// before anything is read or allocated.
pub fn frame_len(buf: &[u8], limit: u32) -> Result<Option<usize>, WireError> {
    let Some(prefix) = buf.get(..4) else {
        return Ok(None);
    };
    let len = u32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]);
    if len > limit {
        return Err(WireError::Oversized { len, limit });
    }
    let total = 4 + len as usize;
    Ok((buf.len() >= total).then_some(total))
}

/// Largest frame body accepted for a torrent of `pieces` pieces: a full bitfield or a
/// block of `max_block` bytes with its 9-byte header, whichever is larger.
pub fn max_frame_len(pieces: u32, max_block: u32) -> u32 {
    let bitfield = 1 + crate::Bitfield::wire_len(pieces) as u32;
    bitfield.max(1 + 8 + max_block)
}

/// What we read from a BEP 10 extended handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtHandshake {
    /// `p`: the sender's listening port.
    pub port: Option<u16>,
    /// `v`: the sender's client name and version.
    pub client: Option<String>,
}

/// Our extended handshake: no extended messages (`m` empty), our listening port `p` when
/// we accept connections, our name `v`.
pub fn ext_handshake(port: Option<u16>) -> Vec<u8> {
    use bt_bencode::{ByteString, Value};
    use std::collections::BTreeMap;
    let mut d = BTreeMap::new();
    d.insert(ByteString::from("m"), Value::Dict(BTreeMap::new()));
    if let Some(p) = port {
        d.insert(ByteString::from("p"), Value::Int(p.into()));
    }
    d.insert(
        ByteString::from("v"),
        Value::ByteStr(ByteString::from(concat!(
            "ledbat ",
            env!("CARGO_PKG_VERSION")
        ))),
    );
    bt_bencode::to_vec(&Value::Dict(d)).expect("a dictionary encodes")
}

/// Reads a peer's extended handshake (the payload after extended id 0). A port outside
/// 1..=65535 or a `v` that is not a string is ignored, as BEP 10 lets every key be absent.
pub fn parse_ext_handshake(payload: &[u8]) -> Result<ExtHandshake, WireError> {
    if payload.len() > MAX_EXT_HANDSHAKE {
        return Err(WireError::Oversized {
            len: payload.len() as u32,
            limit: MAX_EXT_HANDSHAKE as u32,
        });
    }
    let v: bt_bencode::Value =
        crate::bencode::from_slice(payload).map_err(|_| WireError::BadExtHandshake)?;
    let d = v.as_dict().ok_or(WireError::BadExtHandshake)?;
    let port = d
        .get(&b"p"[..])
        .and_then(bt_bencode::Value::as_u64)
        .and_then(|p| u16::try_from(p).ok())
        .filter(|&p| p != 0);
    let client = d
        .get(&b"v"[..])
        .and_then(bt_bencode::Value::as_byte_str)
        .map(|b| String::from_utf8_lossy(b).into_owned());
    Ok(ExtHandshake { port, client })
}

/// The body of the `wire` fuzz target (`fuzz/fuzz_targets/wire.rs`), also run as a
/// property test on stable. `data` is a peer's byte stream as a connection reads it: the
/// 68-byte handshake, then frames cut by [`frame_len`] under the limit of a torrent of
/// 2^16 pieces. Nothing panics; a handshake that decodes re-encodes to the same bytes; a
/// message that decodes re-encodes to the same message with the length
/// [`Message::encoded_len`] gives; a bitfield that is accepted round-trips; an extended
/// handshake is read whatever it holds.
pub fn fuzz_decode(data: &[u8]) {
    let mut rest = data;
    if let Some((hs, tail)) = data.split_first_chunk::<HANDSHAKE_LEN>() {
        if let Ok(h) = Handshake::decode(hs) {
            assert_eq!(&h.encode(), hs);
            rest = tail;
        }
    }
    let limit = max_frame_len(1 << 16, 16 * 1024);
    while let Ok(Some(n)) = frame_len(rest, limit) {
        let (frame, tail) = rest.split_at(n);
        rest = tail;
        let Ok(m) = Message::decode(&frame[4..]) else {
            continue;
        };
        if !matches!(m, Message::Unknown { .. }) {
            let b = m.encode();
            assert_eq!(b.len(), m.encoded_len());
            assert_eq!(Message::decode(&b[4..]).as_ref(), Ok(&m));
        }
        match &m {
            Message::Extended { id: 0, payload } => {
                let _ = parse_ext_handshake(payload);
            }
            Message::Bitfield(b) => {
                // A piece count leaving 0..=7 spare bits in the last byte.
                let pieces = (b.len() * 8).saturating_sub(n % 8) as u32;
                if let Ok(f) = crate::Bitfield::from_wire(b, pieces) {
                    assert_eq!(&f.to_wire(), b);
                    assert_eq!(f.len(), pieces);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn req(index: u32, begin: u32, length: u32) -> BlockRequest {
        BlockRequest {
            index,
            begin,
            length,
        }
    }

    #[test]
    fn handshake_layout_matches_bep3() {
        let h = Handshake::new([1; 20], [2; 20], true, true);
        let b = h.encode();
        assert_eq!(b[0], 19);
        assert_eq!(&b[1..20], b"BitTorrent protocol");
        assert_eq!(b[27], 0x04);
        assert_eq!(b[25], 0x10);
        assert_eq!(&b[28..48], &[1; 20]);
        assert_eq!(&b[48..68], &[2; 20]);
        assert_eq!(Handshake::decode(&b).unwrap(), h);
        assert!(h.fast() && h.extended());
        let plain = Handshake::new([1; 20], [2; 20], false, false);
        assert_eq!(plain.encode()[20..28], [0; 8]);
        assert!(!plain.fast() && !plain.extended());
    }

    #[test]
    fn other_protocol_string_is_refused() {
        let mut b = Handshake::new([1; 20], [2; 20], true, true).encode();
        b[5] = b'x';
        assert_eq!(Handshake::decode(&b), Err(WireError::NotBitTorrent));
    }

    #[test]
    fn request_frame_is_17_bytes() {
        let m: Message = Message::Request(req(1, 16384, 16384));
        let b = m.encode();
        assert_eq!(
            b,
            [0, 0, 0, 13, 6, 0, 0, 0, 1, 0, 0, 0x40, 0, 0, 0, 0x40, 0]
        );
        assert_eq!(Message::decode(&b[4..]).unwrap(), m);
    }

    #[test]
    fn piece_frame_carries_index_begin_and_data() {
        let m: Message = Message::Piece {
            index: 2,
            begin: 0x4000,
            data: vec![0xaa, 0xbb],
        };
        assert_eq!(
            m.encode(),
            [0, 0, 0, 11, 7, 0, 0, 0, 2, 0, 0, 0x40, 0, 0xaa, 0xbb]
        );
    }

    /// Sizes worked out from BEP 3's layouts, for bytes and for lengths alike.
    #[test]
    fn encoded_lengths_follow_bep3() {
        let r = req(3, 16_384, 16_384);
        let sizes: [(Message<Len>, usize); 14] = [
            (Message::KeepAlive, 4),
            (Message::Choke, 5),
            (Message::Unchoke, 5),
            (Message::Interested, 5),
            (Message::NotInterested, 5),
            (Message::HaveAll, 5),
            (Message::Have(7), 9),
            (Message::Request(r), 17),
            (Message::Cancel(r), 17),
            (Message::RejectRequest(r), 17),
            (
                Message::Piece {
                    index: 3,
                    begin: 16_384,
                    data: Len(16_384),
                },
                16_397,
            ),
            // 40 pieces: 5 bytes of bits; 41: 6.
            (Message::Bitfield(vec![0; 5]), 10),
            (Message::Bitfield(vec![0; 6]), 11),
            (Message::Port(6881), 7),
        ];
        for (m, n) in sizes {
            assert_eq!(m.encoded_len(), n, "{}", m.name());
        }
        let h: Frame<Len> =
            Frame::Handshake(Box::new(Handshake::new([0; 20], [0; 20], false, false)));
        assert_eq!(h.encoded_len(), 68);
        let p: Message<Len> = Message::Piece {
            index: 0,
            begin: 0,
            data: Len(100),
        };
        assert_eq!((p.data_len(), Message::<Len>::Have(1).data_len()), (100, 0));
    }

    #[test]
    fn keep_alive_is_a_zero_length_frame() {
        assert_eq!(Message::<Vec<u8>>::KeepAlive.encode(), vec![0, 0, 0, 0]);
        assert_eq!(Message::decode(&[]).unwrap(), Message::KeepAlive);
    }

    #[test]
    fn wrong_payload_size_is_an_error() {
        assert!(matches!(
            Message::decode(&[4, 0, 0]),
            Err(WireError::BadLength { id: 4, len: 2, .. })
        ));
        assert!(matches!(
            Message::decode(&[7, 0, 0, 0]),
            Err(WireError::BadLength { id: 7, .. })
        ));
        assert!(matches!(
            Message::decode(&[0, 1]),
            Err(WireError::BadLength { id: 0, .. })
        ));
    }

    #[test]
    fn unknown_ids_are_skipped_not_refused() {
        assert_eq!(
            Message::decode(&[21, 0, 1, 2]).unwrap(),
            Message::Unknown { id: 21, len: 3 }
        );
    }

    #[test]
    fn frame_length_is_checked_before_the_body_arrives() {
        assert_eq!(frame_len(&[0, 0, 0], 100), Ok(None));
        assert_eq!(frame_len(&[0, 0, 0, 5, 4, 0], 100), Ok(None));
        assert_eq!(frame_len(&[0, 0, 0, 1, 2, 9], 100), Ok(Some(5)));
        assert_eq!(
            frame_len(&[0, 0, 1, 0], 100),
            Err(WireError::Oversized {
                len: 256,
                limit: 100
            })
        );
    }

    #[test]
    fn frame_limit_admits_a_block_and_a_big_bitfield() {
        assert_eq!(max_frame_len(10, 16_384), 16_393);
        assert_eq!(max_frame_len(1_000_000, 16_384), 125_001);
    }

    #[test]
    fn extended_handshake_round_trip_and_its_bit() {
        let m: Message = Message::Extended {
            id: 0,
            payload: ext_handshake(Some(6881)),
        };
        let b = m.encode();
        assert_eq!(&b[4..6], &[20, 0]);
        let Message::Extended { id: 0, payload } = Message::decode(&b[4..]).unwrap() else {
            panic!("not extended");
        };
        let e = parse_ext_handshake(&payload).unwrap();
        assert_eq!(e.port, Some(6881));
        assert!(e.client.unwrap().starts_with("ledbat "));
        assert_eq!(
            parse_ext_handshake(&ext_handshake(None)).unwrap().port,
            None
        );
    }

    #[test]
    fn libtorrents_extended_handshake_gives_its_port() {
        // As libtorrent sends it (abridged): m with its extensions, p, v, reqq.
        let e = parse_ext_handshake(
            b"d1:md11:ut_metadatai2e6:ut_pexi1ee1:pi6881e4:reqqi500e1:v17:libtorrent 2.0.11e",
        )
        .unwrap();
        assert_eq!(e.port, Some(6881));
        assert_eq!(e.client.as_deref(), Some("libtorrent 2.0.11"));
    }

    #[test]
    fn bad_extended_handshakes_are_errors_or_ignored_keys() {
        assert_eq!(
            parse_ext_handshake(b"li1ee"),
            Err(WireError::BadExtHandshake)
        );
        assert_eq!(parse_ext_handshake(b"xyz"), Err(WireError::BadExtHandshake));
        assert_eq!(parse_ext_handshake(b"d1:pi70000ee").unwrap().port, None);
        assert_eq!(parse_ext_handshake(b"d1:pi0ee").unwrap().port, None);
        assert!(matches!(
            Message::decode(&[20]),
            Err(WireError::BadLength { id: 20, .. })
        ));
    }

    /// Found by the fuzz target `ext_handshake`: a string length that overflowed the
    /// decoder, and nesting that overflows a 2 MiB worker thread's stack. Both are refused now.
    #[test]
    fn hostile_extended_handshakes_are_refused_not_fatal() {
        assert_eq!(
            parse_ext_handshake(b"d1:v18446744073709551615:xxxxe"),
            Err(WireError::BadExtHandshake)
        );
        let deep = [vec![b'l'; 8000], vec![b'e'; 8000]].concat();
        assert_eq!(parse_ext_handshake(&deep), Err(WireError::BadExtHandshake));
    }

    fn any_message() -> impl Strategy<Value = Message> {
        let block = (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(i, b, l)| req(i, b, l));
        prop_oneof![
            Just(Message::KeepAlive),
            Just(Message::Choke),
            Just(Message::Unchoke),
            Just(Message::Interested),
            Just(Message::NotInterested),
            Just(Message::HaveAll),
            Just(Message::HaveNone),
            any::<u32>().prop_map(Message::Have),
            any::<u32>().prop_map(Message::SuggestPiece),
            any::<u32>().prop_map(Message::AllowedFast),
            any::<u16>().prop_map(Message::Port),
            proptest::collection::vec(any::<u8>(), 0..40).prop_map(Message::Bitfield),
            block.clone().prop_map(Message::Request),
            block.clone().prop_map(Message::Cancel),
            block.prop_map(Message::RejectRequest),
            (any::<u8>(), proptest::collection::vec(any::<u8>(), 0..40))
                .prop_map(|(id, payload)| Message::Extended { id, payload }),
            (
                any::<u32>(),
                any::<u32>(),
                proptest::collection::vec(any::<u8>(), 0..100)
            )
                .prop_map(|(index, begin, data)| Message::Piece { index, begin, data }),
        ]
    }

    proptest! {
        #[test]
        fn encode_decode_round_trip(m in any_message()) {
            let b = m.encode();
            prop_assert_eq!(b.len(), m.encoded_len());
            prop_assert_eq!(frame_len(&b, u32::MAX), Ok(Some(b.len())));
            prop_assert_eq!(Message::decode(&b[4..]).unwrap(), m);
        }

        /// The body of the fuzz target `fuzz/fuzz_targets/wire.rs` on stable.
        #[test]
        fn decode_never_panics(body in proptest::collection::vec(any::<u8>(), 0..64)) {
            fuzz_decode(&body);
        }
    }
}
