//! The BitTorrent peer wire protocol (BEP 3) and the Fast Extension messages (BEP 6).
//!
//! Handshake: `19 | "BitTorrent protocol" | 8 reserved bytes | 20-byte info-hash | 20-byte
//! peer id` (68 bytes). Every later message is `length: u32 big-endian | id: u8 | payload`,
//! and a zero length is a keep-alive. The Fast Extension is negotiated by bit `0x04` of
//! reserved byte 7 on both sides; it adds `have all`, `have none`, `reject request`,
//! `suggest piece` and `allowed fast`. The Extension Protocol (BEP 10) is negotiated by bit
//! `0x10` of reserved byte 5: message id 20 carries an extended message whose first byte is
//! its extended id, 0 being the extended handshake, a bencoded dictionary; this peer
//! declares no extended message (`m` empty) and uses the handshake only for `p`, the
//! sender's listening port, so that a peer that connected to us can be dialled back over
//! the transports we prefer (BEP 10: "p: Local TCP listen port").
//!
//! Decoding is pure and total: any byte string yields a message or a [`WireError`], never a
//! panic. The frame length is checked against a limit before anything is allocated.

/// Protocol string of the BEP 3 handshake.
pub const PROTOCOL: &[u8; 19] = b"BitTorrent protocol";
/// Length of the handshake in bytes.
pub const HANDSHAKE_LEN: usize = 68;
/// Block size every deployed client requests (BEP 3: "all current implementations use
/// 2^14 (16 kiB), and close connections which request an amount greater than that").
pub const BLOCK_LEN: u32 = 16 * 1024;
/// Reserved byte 7 bit announcing the Fast Extension (BEP 6).
pub const FAST_EXTENSION_BIT: u8 = 0x04;
/// Reserved byte 5 bit announcing the Extension Protocol (BEP 10).
pub const EXTENSION_PROTOCOL_BIT: u8 = 0x10;
/// Largest extended handshake accepted, in bytes.
pub const MAX_EXT_HANDSHAKE: usize = 16 * 1024;

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
    /// Our handshake: Fast Extension and Extension Protocol announced.
    pub fn new(info_hash: Sha1Digest, peer_id: [u8; 20]) -> Self {
        let mut reserved = [0u8; 8];
        reserved[7] |= FAST_EXTENSION_BIT;
        reserved[5] |= EXTENSION_PROTOCOL_BIT;
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

/// One block request (also the payload of `cancel` and `reject request`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockRef {
    /// Piece index.
    pub index: u32,
    /// Byte offset inside the piece.
    pub begin: u32,
    /// Length in bytes.
    pub length: u32,
}

/// A peer wire message after the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Zero-length frame.
    KeepAlive,
    /// id 0.
    Choke,
    /// id 1.
    Unchoke,
    /// id 2.
    Interested,
    /// id 3.
    NotInterested,
    /// id 4: the sender now has this piece.
    Have(u32),
    /// id 5: the sender's pieces, raw wire bytes (validated against the piece count by
    /// [`crate::Bitfield::from_wire`]).
    Bitfield(Vec<u8>),
    /// id 6.
    Request(BlockRef),
    /// id 7: a block of data.
    Piece {
        /// Piece index.
        index: u32,
        /// Byte offset inside the piece.
        begin: u32,
        /// The data.
        data: Vec<u8>,
    },
    /// id 8.
    Cancel(BlockRef),
    /// id 9 (DHT port; ignored by this peer).
    Port(u16),
    /// id 13 (BEP 6).
    SuggestPiece(u32),
    /// id 14 (BEP 6).
    HaveAll,
    /// id 15 (BEP 6).
    HaveNone,
    /// id 16 (BEP 6).
    RejectRequest(BlockRef),
    /// id 17 (BEP 6).
    AllowedFast(u32),
    /// id 20 (BEP 10): an extended message, its extended id and payload.
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

impl Message {
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

    /// Appends the framed wire form (length prefix included) to `out`.
    /// [`Message::Unknown`] encodes as nothing: this peer never sends one.
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
                out.extend_from_slice(data);
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
        let block = || BlockRef {
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

/// What this peer reads from a BEP 10 extended handshake.
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

/// Largest frame body this peer accepts for a torrent of `pieces` pieces: a full bitfield
/// or a 16 KiB block with its 9-byte header, whichever is larger. Anything longer is
/// refused as oversized before being read.
pub fn max_frame_len(pieces: u32) -> u32 {
    let bitfield = 1 + crate::Bitfield::byte_len(pieces) as u32;
    bitfield.max(1 + 8 + BLOCK_LEN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn handshake_layout_matches_bep3() {
        let h = Handshake::new([1; 20], [2; 20]);
        let b = h.encode();
        assert_eq!(b[0], 19);
        assert_eq!(&b[1..20], b"BitTorrent protocol");
        assert_eq!(b[27], 0x04);
        assert_eq!(&b[28..48], &[1; 20]);
        assert_eq!(Handshake::decode(&b).unwrap(), h);
        assert!(h.fast());
    }

    #[test]
    fn other_protocol_string_is_refused() {
        let mut b = Handshake::new([1; 20], [2; 20]).encode();
        b[5] = b'x';
        assert_eq!(Handshake::decode(&b), Err(WireError::NotBitTorrent));
    }

    #[test]
    fn request_frame_is_17_bytes() {
        let m = Message::Request(BlockRef {
            index: 1,
            begin: 16384,
            length: 16384,
        });
        let b = m.encode();
        assert_eq!(b.len(), 17);
        assert_eq!(&b[..5], &[0, 0, 0, 13, 6]);
        assert_eq!(Message::decode(&b[4..]).unwrap(), m);
    }

    #[test]
    fn keep_alive_is_a_zero_length_frame() {
        assert_eq!(Message::KeepAlive.encode(), vec![0, 0, 0, 0]);
        assert_eq!(Message::decode(&[]).unwrap(), Message::KeepAlive);
    }

    #[test]
    fn wrong_payload_size_is_an_error() {
        assert!(matches!(
            Message::decode(&[4, 0, 0]),
            Err(WireError::BadLength { id: 4, .. })
        ));
        assert!(matches!(
            Message::decode(&[7, 0, 0, 0]),
            Err(WireError::BadLength { id: 7, .. })
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
    fn extended_handshake_round_trip_and_its_bit() {
        let h = Handshake::new([1; 20], [2; 20]);
        assert_eq!(h.encode()[25], 0x10);
        assert!(h.extended());
        let m = Message::Extended {
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
    /// decoder, and nesting that overflowed a worker thread's stack (a crash of the whole
    /// client from one message). Both are refused now.
    #[test]
    fn hostile_extended_handshakes_are_refused_not_fatal() {
        assert_eq!(
            parse_ext_handshake(b"d1:v18446744073709551615:xxxxe"),
            Err(WireError::BadExtHandshake)
        );
        let deep = [vec![b'l'; 8000], vec![b'e'; 8000]].concat();
        assert_eq!(parse_ext_handshake(&deep), Err(WireError::BadExtHandshake));
    }

    #[test]
    fn frame_limit_admits_a_block_and_a_big_bitfield() {
        assert_eq!(max_frame_len(10), 16393);
        assert_eq!(max_frame_len(1_000_000), 125_001);
    }

    fn any_message() -> impl Strategy<Value = Message> {
        let block = (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(i, b, l)| BlockRef {
            index: i,
            begin: b,
            length: l,
        });
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
            let len = u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize;
            prop_assert_eq!(len, b.len() - 4);
            prop_assert_eq!(Message::decode(&b[4..]).unwrap(), m);
        }

        /// The body of the fuzz target `fuzz/fuzz_targets/wire.rs` on stable.
        #[test]
        fn decode_never_panics(body in proptest::collection::vec(any::<u8>(), 0..64)) {
            if let Ok(Message::Extended { id: 0, payload }) = Message::decode(&body) {
                let _ = parse_ext_handshake(&payload);
            }
            let _ = parse_ext_handshake(&body);
        }
    }
}
