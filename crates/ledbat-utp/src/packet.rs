//! The BEP 29 packet codec: 20-byte header, extension chain, selective-ACK bitmask.
//!
//! ```text
//! 0       4       8               16              24              32
//! +-------+-------+---------------+---------------+---------------+
//! | type  | ver   | extension     | connection_id                 |
//! +-------+-------+---------------+---------------+---------------+
//! | timestamp_microseconds                                        |
//! +---------------+---------------+---------------+---------------+
//! | timestamp_difference_microseconds                             |
//! +---------------+---------------+---------------+---------------+
//! | wnd_size                                                      |
//! +---------------+---------------+---------------+---------------+
//! | seq_nr                        | ack_nr                        |
//! +---------------+---------------+---------------+---------------+
//! ```
//!
//! All fields are big-endian. Each extension is `next_type (8) | len (8) | len bytes`; the
//! chain ends with `next_type = 0`. Type 1 is the selective ACK: bit `i` of the bitmask
//! (least significant bit of byte 0 first) says that packet `ack_nr + 2 + i` was received.
//! BEP 29 requires a bitmask length that is a multiple of 4; we emit only such lengths and,
//! like libtorrent, accept any non-zero length on receipt. Unknown extension types are
//! skipped (libutp and libtorrent send type 2, an extension-bits field, on some SYNs).
//!
//! Decoding borrows from the datagram and never panics: every malformed input is a
//! [`DecodeError`] that names what is wrong and at which byte.

/// Length of the fixed header.
pub const HEADER_LEN: usize = 20;
/// The only protocol version (BEP 29).
pub const VERSION: u8 = 1;
/// Extension type of the selective ACK (BEP 29).
pub const EXT_SELECTIVE_ACK: u8 = 1;

/// The five BEP 29 packet types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PacketType {
    /// `ST_DATA` (0): payload, consumes a sequence number.
    Data = 0,
    /// `ST_FIN` (1): end of the sender's stream, consumes a sequence number.
    Fin = 1,
    /// `ST_STATE` (2): acknowledgement only; carries the *next* sequence number unconsumed.
    State = 2,
    /// `ST_RESET` (3): abort the connection.
    Reset = 3,
    /// `ST_SYN` (4): open a connection, consumes a sequence number.
    Syn = 4,
}

impl PacketType {
    /// The type of wire value `v`, if it is one.
    pub fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            0 => PacketType::Data,
            1 => PacketType::Fin,
            2 => PacketType::State,
            3 => PacketType::Reset,
            4 => PacketType::Syn,
            _ => return None,
        })
    }
}

/// The fixed 20-byte header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Packet type.
    pub ty: PacketType,
    /// Connection id as carried (the receiving side's `recv_id`; for SYN the initiator's).
    pub conn_id: u16,
    /// Sender's clock at send, microseconds modulo 2^32.
    pub timestamp: u32,
    /// Sender's clock at the last receipt minus that packet's timestamp, modulo 2^32.
    pub timestamp_diff: u32,
    /// Bytes the sender of this packet can still receive.
    pub wnd_size: u32,
    /// Sequence number.
    pub seq_nr: u16,
    /// Last in-order sequence number received.
    pub ack_nr: u16,
}

/// A decoded packet, borrowing the datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet<'a> {
    /// Fixed header.
    pub header: Header,
    /// Selective-ACK bitmask, when the packet carries one (the first, if several).
    pub sack: Option<SelectiveAck<'a>>,
    /// Extensions of other types that were skipped.
    pub unknown_extensions: u8,
    /// Payload after the extension chain.
    pub payload: &'a [u8],
}

/// Why a datagram is not a uTP packet. Offsets are byte positions in the datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Shorter than the 20-byte header.
    #[error("datagram of {0} bytes is shorter than the 20-byte uTP header")]
    TooShort(usize),
    /// Version nibble is not 1.
    #[error("byte 0: version {0}, expected 1")]
    BadVersion(u8),
    /// Type nibble is not 0..=4.
    #[error("byte 0: packet type {0} is not one of DATA, FIN, STATE, RESET, SYN")]
    BadType(u8),
    /// An extension header or body runs past the end of the datagram.
    #[error("extension at byte {offset} runs past the end of the {len}-byte datagram")]
    TruncatedExtension {
        /// Where the extension header starts.
        offset: usize,
        /// Datagram length.
        len: usize,
    },
    /// A selective ACK with an empty bitmask.
    #[error("selective ACK at byte {0} has an empty bitmask")]
    EmptySelectiveAck(usize),
}

/// A selective-ACK bitmask as carried on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectiveAck<'a>(pub &'a [u8]);

impl<'a> SelectiveAck<'a> {
    /// Number of packets the bitmask covers (8 per byte).
    pub fn bits(&self) -> usize {
        self.0.len() * 8
    }
    /// Whether bit `i` (packet `ack_nr + 2 + i`) is set.
    pub fn get(&self, i: usize) -> bool {
        self.0.get(i / 8).is_some_and(|b| b & (1 << (i % 8)) != 0)
    }
    /// Indices of the set bits, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + 'a {
        let bytes = self.0;
        bytes.iter().enumerate().flat_map(|(i, &b)| {
            (0..8)
                .filter(move |k| b & (1 << k) != 0)
                .map(move |k| i * 8 + k)
        })
    }
}

/// Builds a selective-ACK bitmask from "received" flags, bit `i` for packet `ack_nr + 2 + i`,
/// padded to a multiple of 4 bytes (BEP 29) and cut at `max_bytes` (itself rounded down to
/// a multiple of 4, at least 4). Returns an empty vector when no flag is set.
pub fn build_sack(received: impl Iterator<Item = bool>, max_bytes: usize) -> Vec<u8> {
    let max_bytes = (max_bytes / 4).max(1) * 4;
    let mut out: Vec<u8> = Vec::new();
    let mut last_set = None;
    for (i, r) in received.enumerate().take(max_bytes * 8) {
        if r {
            if out.len() <= i / 8 {
                out.resize(i / 8 + 1, 0);
            }
            out[i / 8] |= 1 << (i % 8);
            last_set = Some(i);
        }
    }
    match last_set {
        None => Vec::new(),
        Some(i) => {
            let bytes = (i / 8 + 1).div_ceil(4) * 4;
            out.resize(bytes, 0);
            out
        }
    }
}

/// Decodes one datagram.
pub fn decode(buf: &[u8]) -> Result<Packet<'_>, DecodeError> {
    if buf.len() < HEADER_LEN {
        return Err(DecodeError::TooShort(buf.len()));
    }
    let version = buf[0] & 0x0f;
    if version != VERSION {
        return Err(DecodeError::BadVersion(version));
    }
    let ty = PacketType::from_u8(buf[0] >> 4).ok_or(DecodeError::BadType(buf[0] >> 4))?;
    let u16_at = |i: usize| u16::from_be_bytes([buf[i], buf[i + 1]]);
    let u32_at = |i: usize| u32::from_be_bytes([buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]);
    let header = Header {
        ty,
        conn_id: u16_at(2),
        timestamp: u32_at(4),
        timestamp_diff: u32_at(8),
        wnd_size: u32_at(12),
        seq_nr: u16_at(16),
        ack_nr: u16_at(18),
    };
    let mut ext = buf[1];
    let mut pos = HEADER_LEN;
    let mut sack = None;
    let mut unknown_extensions = 0u8;
    while ext != 0 {
        let truncated = DecodeError::TruncatedExtension {
            offset: pos,
            len: buf.len(),
        };
        let (next, len) = match buf.get(pos..pos + 2) {
            Some(h) => (h[0], h[1] as usize),
            None => return Err(truncated),
        };
        let body = buf.get(pos + 2..pos + 2 + len).ok_or(truncated)?;
        if ext == EXT_SELECTIVE_ACK {
            if len == 0 {
                return Err(DecodeError::EmptySelectiveAck(pos));
            }
            if sack.is_none() {
                sack = Some(SelectiveAck(body));
            }
        } else {
            unknown_extensions = unknown_extensions.saturating_add(1);
        }
        pos += 2 + len;
        ext = next;
    }
    Ok(Packet {
        header,
        sack,
        unknown_extensions,
        payload: &buf[pos..],
    })
}

/// Appends the encoding of a packet to `out` (which is not cleared). `sack` must be empty
/// (no extension) or at most 255 bytes long.
pub fn encode(header: &Header, sack: &[u8], payload: &[u8], out: &mut Vec<u8>) {
    debug_assert!(sack.len() <= 255);
    let sack = &sack[..sack.len().min(255)];
    out.reserve(HEADER_LEN + payload.len() + if sack.is_empty() { 0 } else { 2 + sack.len() });
    out.push(((header.ty as u8) << 4) | VERSION);
    out.push(if sack.is_empty() {
        0
    } else {
        EXT_SELECTIVE_ACK
    });
    out.extend_from_slice(&header.conn_id.to_be_bytes());
    out.extend_from_slice(&header.timestamp.to_be_bytes());
    out.extend_from_slice(&header.timestamp_diff.to_be_bytes());
    out.extend_from_slice(&header.wnd_size.to_be_bytes());
    out.extend_from_slice(&header.seq_nr.to_be_bytes());
    out.extend_from_slice(&header.ack_nr.to_be_bytes());
    if !sack.is_empty() {
        out.push(0);
        out.push(sack.len() as u8);
        out.extend_from_slice(sack);
    }
    out.extend_from_slice(payload);
}

/// Extension type of the padding on path-MTU probes: bytes a receiver skips (libutp and
/// libtorrent skip every extension type they do not know; BEP 29 defines only 1 and
/// implementations use 2).
pub const EXT_PADDING: u8 = 0x50;

/// Appends a packet of `header` and `payload` (no selective ACK) brought to exactly `size`
/// bytes by a chain of [`EXT_PADDING`] extensions, or unpadded when `size` leaves less
/// than the 2 bytes of one extension header.
pub fn encode_padded(header: &Header, payload: &[u8], size: usize, out: &mut Vec<u8>) {
    let pad = size.saturating_sub(HEADER_LEN + payload.len());
    if pad < 2 {
        encode(header, &[], payload, out);
        return;
    }
    // Each extension takes 2..=257 bytes (header plus a body of at most 255).
    let n = pad.div_ceil(257);
    let start = out.len();
    encode(header, &[], &[], out);
    out[start + 1] = EXT_PADDING;
    for i in 0..n {
        let total = pad / n + usize::from(i < pad % n);
        out.push(if i + 1 < n { EXT_PADDING } else { 0 });
        out.push((total - 2) as u8);
        out.resize(out.len() + total - 2, 0);
    }
    out.extend_from_slice(payload);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn padded_packets_have_the_asked_size_and_decode_to_their_payload() {
        let h = hdr(PacketType::Data);
        for size in [20 + 5 + 2, 300, 1000, 1472] {
            let mut out = Vec::new();
            encode_padded(&h, b"hello", size, &mut out);
            assert_eq!(out.len(), size);
            let p = decode(&out).unwrap();
            assert_eq!(p.payload, b"hello");
            assert!(p.sack.is_none());
            // 1472 - 25 = 1447 bytes of padding: 6 extensions of at most 257 bytes.
            if size == 1472 {
                assert_eq!(p.unknown_extensions, 6);
            }
        }
        // Too small to pad: the plain packet.
        let mut out = Vec::new();
        encode_padded(&h, b"hello", 26, &mut out);
        assert_eq!(out.len(), 25);
    }

    fn hdr(ty: PacketType) -> Header {
        Header {
            ty,
            conn_id: 0x1234,
            timestamp: 0x0102_0304,
            timestamp_diff: 0x0506_0708,
            wnd_size: 0x0010_0000,
            seq_nr: 0xfffe,
            ack_nr: 0x0001,
        }
    }

    #[test]
    fn syn_header_encodes_to_hand_built_bytes() {
        let mut out = Vec::new();
        encode(&hdr(PacketType::Syn), &[], &[], &mut out);
        let expected: [u8; 20] = [
            0x41, 0x00, 0x12, 0x34, // SYN, v1, no extension, conn id
            0x01, 0x02, 0x03, 0x04, // timestamp
            0x05, 0x06, 0x07, 0x08, // timestamp difference
            0x00, 0x10, 0x00, 0x00, // wnd_size
            0xff, 0xfe, 0x00, 0x01, // seq_nr, ack_nr
        ];
        assert_eq!(out, expected);
        let p = decode(&out).unwrap();
        assert_eq!(p.header, hdr(PacketType::Syn));
        assert!(p.sack.is_none());
        assert!(p.payload.is_empty());
    }

    #[test]
    fn state_with_selective_ack_encodes_to_hand_built_bytes() {
        let mut out = Vec::new();
        encode(
            &hdr(PacketType::State),
            &[0b0000_0101, 0, 0, 0x80],
            &[],
            &mut out,
        );
        assert_eq!(out[0], 0x21);
        assert_eq!(out[1], 1, "first extension is the selective ACK");
        assert_eq!(&out[20..], &[0, 4, 0x05, 0, 0, 0x80]);
        let p = decode(&out).unwrap();
        let s = p.sack.unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 2, 31]);
        assert!(s.get(0) && !s.get(1) && s.get(2) && s.get(31) && !s.get(32));
    }

    #[test]
    fn every_type_round_trips_and_data_keeps_payload() {
        for ty in [
            PacketType::Data,
            PacketType::Fin,
            PacketType::State,
            PacketType::Reset,
            PacketType::Syn,
        ] {
            let mut out = Vec::new();
            encode(&hdr(ty), &[], b"hello", &mut out);
            assert_eq!(out[0] >> 4, ty as u8);
            let p = decode(&out).unwrap();
            assert_eq!(p.header.ty, ty);
            assert_eq!(p.payload, b"hello");
        }
    }

    #[test]
    fn unknown_extensions_are_skipped() {
        // libtorrent-style SYN with an extension-bits extension (type 2, 8 bytes) followed
        // by a selective ACK, then payload.
        let mut b = vec![
            0x01, 2, 0, 7, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 9, 0, 8,
        ];
        b.extend_from_slice(&[1, 8, 0, 0, 0, 0, 0, 0, 0, 0]); // type 2 -> next 1, 8 bytes
        b.extend_from_slice(&[0, 4, 0xff, 0, 0, 0]); // sack -> end
        b.extend_from_slice(b"xy");
        let p = decode(&b).unwrap();
        assert_eq!(p.header.ty, PacketType::Data);
        assert_eq!(p.header.conn_id, 7);
        assert_eq!(p.header.seq_nr, 9);
        assert_eq!(p.header.ack_nr, 8);
        assert_eq!(p.unknown_extensions, 1);
        assert_eq!(p.sack.unwrap().iter().count(), 8);
        assert_eq!(p.payload, b"xy");
    }

    #[test]
    fn malformed_datagrams_are_errors_naming_the_problem() {
        assert_eq!(decode(&[0x41; 19]), Err(DecodeError::TooShort(19)));
        let mut b = [0u8; 20];
        b[0] = 0x42;
        assert_eq!(decode(&b), Err(DecodeError::BadVersion(2)));
        b[0] = 0x51;
        assert_eq!(decode(&b), Err(DecodeError::BadType(5)));
        b[0] = 0x21;
        b[1] = 1;
        assert_eq!(
            decode(&b),
            Err(DecodeError::TruncatedExtension {
                offset: 20,
                len: 20
            })
        );
        let mut c = b.to_vec();
        c.extend_from_slice(&[0, 8, 1, 2]);
        assert_eq!(
            decode(&c),
            Err(DecodeError::TruncatedExtension {
                offset: 20,
                len: 24
            })
        );
        let mut d = b.to_vec();
        d.extend_from_slice(&[0, 0]);
        assert_eq!(decode(&d), Err(DecodeError::EmptySelectiveAck(20)));
    }

    #[test]
    fn build_sack_pads_to_four_bytes_and_caps() {
        assert!(build_sack([false, false].into_iter(), 32).is_empty());
        assert_eq!(
            build_sack([true, false, true].into_iter(), 32),
            vec![5, 0, 0, 0]
        );
        let mut flags = vec![false; 40];
        flags[33] = true;
        assert_eq!(
            build_sack(flags.into_iter(), 32),
            vec![0, 0, 0, 0, 2, 0, 0, 0]
        );
        // Capped at 4 bytes: bit 33 is beyond the cap.
        let mut flags = vec![false; 40];
        flags[1] = true;
        flags[33] = true;
        assert_eq!(build_sack(flags.into_iter(), 4), vec![2, 0, 0, 0]);
    }

    proptest! {
        #[test]
        fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode(&bytes);
        }

        #[test]
        fn encode_decode_round_trip(
            ty in 0u8..5, conn_id: u16, ts: u32, td: u32, wnd: u32, seq: u16, ack: u16,
            sack_words in 0usize..8, payload in proptest::collection::vec(any::<u8>(), 0..64),
            fill: u8,
        ) {
            let h = Header { ty: PacketType::from_u8(ty).unwrap(), conn_id, timestamp: ts,
                timestamp_diff: td, wnd_size: wnd, seq_nr: seq, ack_nr: ack };
            let sack = vec![fill; sack_words * 4];
            let mut out = Vec::new();
            encode(&h, &sack, &payload, &mut out);
            let p = decode(&out).unwrap();
            prop_assert_eq!(p.header, h);
            prop_assert_eq!(p.sack.map(|s| s.0.to_vec()), if sack.is_empty() { None } else { Some(sack) });
            prop_assert_eq!(p.payload, &payload[..]);
        }
    }
}
