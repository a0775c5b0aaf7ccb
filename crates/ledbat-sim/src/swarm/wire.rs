//! The BitTorrent peer wire messages (BEP 3) as simulator values, with the number of bytes
//! each one occupies on the wire so that the network model can charge it to the right
//! connection.
//!
//! Sizes (BEP 3): the handshake is `1 + 19 + 8 + 20 + 20 = 68` bytes (pstrlen, the string
//! "BitTorrent protocol", reserved bytes, info-hash, peer id); every other message is a
//! 4-byte length prefix, a 1-byte id and its payload: choke, unchoke, interested and not
//! interested have no payload (5 bytes), `have` carries a 4-byte index (9), `bitfield` one
//! bit per piece rounded up to whole bytes (`5 + ceil(pieces / 8)`), `request` and `cancel`
//! carry index, begin and length (17), `piece` carries index and begin before the block
//! (`13 + block length`). A keep-alive is the bare length prefix (4).
//!
//! Only the block's *length* travels in a [`Message::Piece`]: the simulator moves no
//! payload bytes, and a receiver knows which block it is from `block`.

use super::bitfield::Bitfield;
use super::torrent::BlockRef;

/// Handshake length in bytes (BEP 3).
pub const HANDSHAKE_BYTES: u32 = 68;
/// Length prefix plus message id.
pub const HEADER_BYTES: u32 = 5;

/// One peer wire message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// The 68-byte handshake that opens a connection.
    Handshake,
    /// The sender's pieces, sent right after the handshake.
    Bitfield(Bitfield),
    /// The sender will not answer requests.
    Choke,
    /// The sender will answer requests.
    Unchoke,
    /// The sender wants a piece the receiver has.
    Interested,
    /// The sender wants nothing the receiver has.
    NotInterested,
    /// The sender completed (and verified) a piece.
    Have(u32),
    /// Please send this block (`len` bytes).
    Request {
        /// The block.
        block: BlockRef,
        /// Its length in bytes.
        len: u32,
    },
    /// A block of data (`len` bytes of payload).
    Piece {
        /// The block.
        block: BlockRef,
        /// Its length in bytes.
        len: u32,
    },
    /// Withdraws an earlier request.
    Cancel {
        /// The block.
        block: BlockRef,
        /// Its length in bytes.
        len: u32,
    },
    /// Keeps an idle connection open.
    KeepAlive,
}

impl Message {
    /// Bytes on the wire (BEP 3), as in the module comment.
    pub fn wire_bytes(&self) -> u32 {
        match self {
            Message::Handshake => HANDSHAKE_BYTES,
            Message::KeepAlive => 4,
            Message::Choke | Message::Unchoke | Message::Interested | Message::NotInterested => {
                HEADER_BYTES
            }
            Message::Have(_) => HEADER_BYTES + 4,
            Message::Bitfield(b) => HEADER_BYTES + b.wire_bytes(),
            Message::Request { .. } | Message::Cancel { .. } => HEADER_BYTES + 12,
            Message::Piece { len, .. } => HEADER_BYTES + 8 + len,
        }
    }

    /// Payload bytes of file data carried (the block length of a piece, else 0).
    pub fn data_bytes(&self) -> u32 {
        match self {
            Message::Piece { len, .. } => *len,
            _ => 0,
        }
    }

    /// Short name for traces.
    pub fn name(&self) -> &'static str {
        match self {
            Message::Handshake => "handshake",
            Message::Bitfield(_) => "bitfield",
            Message::Choke => "choke",
            Message::Unchoke => "unchoke",
            Message::Interested => "interested",
            Message::NotInterested => "not-interested",
            Message::Have(_) => "have",
            Message::Request { .. } => "request",
            Message::Piece { .. } => "piece",
            Message::Cancel { .. } => "cancel",
            Message::KeepAlive => "keep-alive",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_bep3() {
        let b = BlockRef::new(3, 1);
        assert_eq!(Message::Handshake.wire_bytes(), 68);
        assert_eq!(Message::KeepAlive.wire_bytes(), 4);
        assert_eq!(Message::Choke.wire_bytes(), 5);
        assert_eq!(Message::Unchoke.wire_bytes(), 5);
        assert_eq!(Message::Interested.wire_bytes(), 5);
        assert_eq!(Message::NotInterested.wire_bytes(), 5);
        assert_eq!(Message::Have(7).wire_bytes(), 9);
        assert_eq!(
            Message::Request {
                block: b,
                len: 16_384
            }
            .wire_bytes(),
            17
        );
        assert_eq!(
            Message::Cancel {
                block: b,
                len: 16_384
            }
            .wire_bytes(),
            17
        );
        assert_eq!(
            Message::Piece {
                block: b,
                len: 16_384
            }
            .wire_bytes(),
            16_397
        );
        // 40 pieces: 5 bytes of bits.
        assert_eq!(Message::Bitfield(Bitfield::new(40)).wire_bytes(), 10);
        assert_eq!(Message::Bitfield(Bitfield::new(41)).wire_bytes(), 11);
    }

    #[test]
    fn only_pieces_carry_file_data() {
        let b = BlockRef::new(0, 0);
        assert_eq!(Message::Piece { block: b, len: 100 }.data_bytes(), 100);
        assert_eq!(Message::Request { block: b, len: 100 }.data_bytes(), 0);
        assert_eq!(Message::Have(1).data_bytes(), 0);
    }
}
