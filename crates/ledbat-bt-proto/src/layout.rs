//! A torrent's geometry: `total_length` bytes cut into pieces of `piece_length` bytes (the
//! last one shorter when `piece_length` does not divide the total), each piece cut into
//! blocks of `block_length` bytes (the last block of a piece shorter). Pieces are the unit
//! of availability (bitfield, HAVE), blocks the unit of REQUEST and PIECE (BEP 3; seed 003
//! section 1.2: "chunks ... further divided into blocks of 16 KB").
//!
//! On the wire a block is `(index, begin, length)` ([`crate::wire::BlockRequest`]); inside
//! the protocol it is `(piece, block number)` ([`Block`]). [`Layout::block_at`] is the one
//! place that maps the first onto the second, refusing what is not one of our blocks.

use crate::wire::BlockRequest;

/// The block size every deployed client requests (BEP 3: "all current implementations use
/// 2^14 (16 kiB), and close connections which request an amount greater than that").
pub const BLOCK_LEN: u32 = 16 * 1024;

/// One block: piece index and block number inside the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Block {
    /// Piece index.
    pub piece: u32,
    /// Block number inside the piece (its byte offset is `block * block_length`).
    pub block: u32,
}

impl Block {
    /// Block `block` of piece `piece`.
    pub const fn new(piece: u32, block: u32) -> Self {
        Block { piece, block }
    }
}

/// Why a geometry was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// A size is zero.
    #[error("{0} must be positive")]
    Zero(&'static str),
    /// More pieces than a 32-bit index can name.
    #[error("{0} pieces is too many")]
    TooManyPieces(u64),
}

/// The geometry of one torrent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    total_length: u64,
    piece_length: u32,
    block_length: u32,
    pieces: u32,
}

impl Layout {
    /// `total_length` bytes in pieces of `piece_length` and blocks of `block_length`. Any
    /// positive sizes: when the block size does not divide the piece size, every piece
    /// ends with a short block (a metainfo file may carry any piece length).
    pub fn new(
        total_length: u64,
        piece_length: u32,
        block_length: u32,
    ) -> Result<Self, LayoutError> {
        if total_length == 0 {
            return Err(LayoutError::Zero("file size"));
        }
        if piece_length == 0 {
            return Err(LayoutError::Zero("piece size"));
        }
        if block_length == 0 {
            return Err(LayoutError::Zero("block size"));
        }
        let pieces = total_length.div_ceil(piece_length as u64);
        let pieces = u32::try_from(pieces).map_err(|_| LayoutError::TooManyPieces(pieces))?;
        Ok(Layout {
            total_length,
            piece_length,
            block_length,
            pieces,
        })
    }

    /// A torrent's layout with the 16 KiB blocks of every client.
    pub fn with_standard_blocks(total_length: u64, piece_length: u32) -> Result<Self, LayoutError> {
        Self::new(total_length, piece_length, BLOCK_LEN)
    }

    /// Total size in bytes.
    pub fn total_length(&self) -> u64 {
        self.total_length
    }
    /// Nominal piece size in bytes.
    pub fn piece_length(&self) -> u32 {
        self.piece_length
    }
    /// Nominal block size in bytes.
    pub fn block_length(&self) -> u32 {
        self.block_length
    }
    /// Number of pieces.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Byte offset of piece `p` in the torrent.
    pub fn piece_offset(&self, p: u32) -> u64 {
        p as u64 * self.piece_length as u64
    }

    /// Length of piece `p` in bytes (0 when out of range).
    pub fn piece_len(&self, p: u32) -> u32 {
        if p >= self.pieces {
            return 0;
        }
        (self.total_length - self.piece_offset(p)).min(self.piece_length as u64) as u32
    }

    /// Number of blocks of piece `p` (0 when out of range).
    pub fn blocks_in(&self, p: u32) -> u32 {
        self.piece_len(p).div_ceil(self.block_length)
    }

    /// Length of a block in bytes (0 when it does not exist).
    pub fn block_len(&self, b: Block) -> u32 {
        let plen = self.piece_len(b.piece) as u64;
        let start = b.block as u64 * self.block_length as u64;
        if start >= plen {
            return 0;
        }
        (plen - start).min(self.block_length as u64) as u32
    }

    /// Byte offset of a block inside its piece (BEP 3's `begin`).
    pub fn block_offset(&self, b: Block) -> u32 {
        b.block * self.block_length
    }

    /// The wire form of block `b` (which must exist).
    pub fn request(&self, b: Block) -> BlockRequest {
        BlockRequest {
            index: b.piece,
            begin: self.block_offset(b),
            length: self.block_len(b),
        }
    }

    /// The block a wire `(index, begin, length)` names: `None` unless it is exactly one of
    /// our blocks (in range, aligned, of the block's length).
    pub fn block_at(&self, index: u32, begin: u32, length: u32) -> Option<Block> {
        if !begin.is_multiple_of(self.block_length) {
            return None;
        }
        let b = Block::new(index, begin / self.block_length);
        (length > 0 && self.block_len(b) == length).then_some(b)
    }

    /// Whether a request for upload lies inside one piece and is 1..=`max` bytes long
    /// (peers may ask for any such range, not only our block grid).
    pub fn request_in_range(&self, r: BlockRequest, max: u32) -> bool {
        r.index < self.pieces
            && r.length > 0
            && r.length <= max
            && r.begin as u64 + r.length as u64 <= self.piece_len(r.index) as u64
    }

    /// Total number of blocks in the torrent.
    pub fn total_blocks(&self) -> u64 {
        if self.pieces == 0 {
            return 0;
        }
        let full = (self.pieces - 1) as u64 * self.blocks_in(0) as u64;
        full + self.blocks_in(self.pieces - 1) as u64
    }

    /// Every block of piece `p` in order.
    pub fn blocks(&self, p: u32) -> impl Iterator<Item = Block> {
        (0..self.blocks_in(p)).map(move |b| Block::new(p, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn last_piece_and_last_block_are_shorter() {
        // 600,000 bytes in 256 KiB pieces: 262,144 + 262,144 + 75,712.
        let t = Layout::new(600_000, 256 * 1024, BLOCK_LEN).unwrap();
        assert_eq!(t.pieces(), 3);
        assert_eq!(t.piece_len(0), 262_144);
        assert_eq!(t.piece_len(2), 75_712);
        assert_eq!(t.piece_len(3), 0);
        // 75,712 = 4 * 16,384 + 10,176.
        assert_eq!(t.blocks_in(2), 5);
        assert_eq!(t.block_len(Block::new(2, 4)), 10_176);
        assert_eq!(t.block_len(Block::new(2, 5)), 0);
        assert_eq!(t.block_len(Block::new(0, 15)), 16_384);
        assert_eq!(t.block_offset(Block::new(2, 4)), 65_536);
        assert_eq!(t.total_blocks(), 16 + 16 + 5);
    }

    #[test]
    fn exact_multiple_has_no_short_piece() {
        let t = Layout::new(4 * 32_768, 32_768, BLOCK_LEN).unwrap();
        assert_eq!(t.pieces(), 4);
        assert_eq!(t.piece_len(3), 32_768);
        assert_eq!(t.total_blocks(), 8);
    }

    #[test]
    fn bad_geometry_is_refused() {
        assert_eq!(
            Layout::new(0, 32_768, BLOCK_LEN),
            Err(LayoutError::Zero("file size"))
        );
        assert_eq!(
            Layout::new(100, 32_768, 0),
            Err(LayoutError::Zero("block size"))
        );
    }

    #[test]
    fn odd_piece_lengths_end_each_piece_with_a_short_block() {
        // 8 KiB pieces: one short block each; 20,000-byte pieces: 16,384 + 3,616.
        let t = Layout::with_standard_blocks(10_000, 8_192).unwrap();
        assert_eq!((t.pieces(), t.blocks_in(0)), (2, 1));
        assert_eq!(t.block_len(Block::new(0, 0)), 8_192);
        assert_eq!(t.block_len(Block::new(1, 0)), 1_808);
        let t = Layout::with_standard_blocks(50_000, 20_000).unwrap();
        assert_eq!((t.pieces(), t.blocks_in(0), t.blocks_in(2)), (3, 2, 1));
        assert_eq!(t.block_len(Block::new(0, 1)), 3_616);
        assert_eq!(t.block_at(0, 16_384, 3_616), Some(Block::new(0, 1)));
        assert_eq!(t.total_blocks(), 5);
    }

    #[test]
    fn wire_ranges_map_to_blocks_only_when_aligned_and_exact() {
        // 40,000 bytes in 32 KiB pieces: the last piece is 7,232 bytes, one short block.
        let t = Layout::new(40_000, 32_768, BLOCK_LEN).unwrap();
        assert_eq!(t.block_at(0, 16_384, 16_384), Some(Block::new(0, 1)));
        assert_eq!(t.block_at(0, 100, 16_384), None, "misaligned");
        assert_eq!(t.block_at(0, 0, 100), None, "short");
        assert_eq!(t.block_at(1, 0, 16_384), None, "past the last piece's end");
        assert_eq!(t.block_at(1, 0, 7_232), Some(Block::new(1, 0)));
        assert_eq!(t.block_at(2, 0, 1), None);
        assert_eq!(
            t.request(Block::new(1, 0)),
            BlockRequest {
                index: 1,
                begin: 0,
                length: 7_232
            }
        );
    }

    #[test]
    fn upload_requests_may_be_any_range_inside_a_piece() {
        let t = Layout::new(40_000, 32_768, BLOCK_LEN).unwrap();
        let r = |index, begin, length| BlockRequest {
            index,
            begin,
            length,
        };
        assert!(t.request_in_range(r(0, 16_384, 16_384), BLOCK_LEN));
        assert!(t.request_in_range(r(0, 100, 1_000), BLOCK_LEN));
        assert!(!t.request_in_range(r(0, 0, 16_385), BLOCK_LEN));
        assert!(!t.request_in_range(r(1, 0, 16_384), BLOCK_LEN));
        assert!(t.request_in_range(r(1, 0, 7_232), BLOCK_LEN));
        assert!(!t.request_in_range(r(2, 0, 1), BLOCK_LEN));
        assert!(!t.request_in_range(r(0, 0, 0), BLOCK_LEN));
        assert!(!t.request_in_range(r(0, u32::MAX, 16), BLOCK_LEN));
    }

    proptest! {
        #[test]
        fn blocks_cover_the_file_exactly(file in 1u64..5_000_000, k in 1u32..9) {
            let t = Layout::new(file, k * BLOCK_LEN, BLOCK_LEN).unwrap();
            let sum: u64 = (0..t.pieces())
                .flat_map(|p| t.blocks(p))
                .map(|b| t.block_len(b) as u64)
                .sum();
            prop_assert_eq!(sum, file);
            let count: u64 = (0..t.pieces()).map(|p| t.blocks_in(p) as u64).sum();
            prop_assert_eq!(count, t.total_blocks());
            for p in 0..t.pieces() {
                for b in t.blocks(p) {
                    let r = t.request(b);
                    prop_assert_eq!(t.block_at(r.index, r.begin, r.length), Some(b));
                }
            }
        }
    }
}
