//! A torrent's geometry: a file of `F` bytes cut into pieces of `piece_size` bytes (the last
//! one shorter when `piece_size` does not divide `F`), each piece cut into blocks of
//! `block_size` bytes (16 KiB in every client; the last block of a piece shorter). Pieces
//! are the unit of availability (bitfield, HAVE), blocks the unit of REQUEST and PIECE
//! (BEP 3; seed 003 section 1.2: "chunks ... further divided into blocks of 16 KB").

use serde::{Deserialize, Serialize};

/// BEP 3 block size used by every client of the thesis's time: 16 KiB.
pub const BLOCK_SIZE: u32 = 16 * 1024;

/// One block: piece index and block index inside the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BlockRef {
    /// Piece index.
    pub piece: u32,
    /// Block index inside the piece (its byte offset is `block * block_size`).
    pub block: u32,
}

impl BlockRef {
    /// Block `block` of piece `piece`.
    pub const fn new(piece: u32, block: u32) -> Self {
        BlockRef { piece, block }
    }
}

/// Why a geometry was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TorrentError {
    /// A size is zero.
    #[error("{0} must be positive")]
    Zero(&'static str),
    /// The piece size is not a multiple of the block size.
    #[error("piece size {piece} is not a multiple of the block size {block}")]
    Unaligned {
        /// Piece size in bytes.
        piece: u32,
        /// Block size in bytes.
        block: u32,
    },
    /// More pieces than a 32-bit index can name.
    #[error("{0} pieces is too many")]
    TooManyPieces(u64),
}

/// The geometry of one torrent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Torrent {
    file_size: u64,
    piece_size: u32,
    block_size: u32,
    pieces: u32,
}

impl Torrent {
    /// A file of `file_size` bytes in pieces of `piece_size` and blocks of `block_size`.
    pub fn new(file_size: u64, piece_size: u32, block_size: u32) -> Result<Self, TorrentError> {
        if file_size == 0 {
            return Err(TorrentError::Zero("file size"));
        }
        if piece_size == 0 {
            return Err(TorrentError::Zero("piece size"));
        }
        if block_size == 0 {
            return Err(TorrentError::Zero("block size"));
        }
        if !piece_size.is_multiple_of(block_size) {
            return Err(TorrentError::Unaligned {
                piece: piece_size,
                block: block_size,
            });
        }
        let pieces = file_size.div_ceil(piece_size as u64);
        let pieces = u32::try_from(pieces).map_err(|_| TorrentError::TooManyPieces(pieces))?;
        Ok(Torrent {
            file_size,
            piece_size,
            block_size,
            pieces,
        })
    }

    /// File size in bytes.
    pub fn file_size(&self) -> u64 {
        self.file_size
    }
    /// Nominal piece size in bytes.
    pub fn piece_size(&self) -> u32 {
        self.piece_size
    }
    /// Nominal block size in bytes.
    pub fn block_size(&self) -> u32 {
        self.block_size
    }
    /// Number of pieces.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Length of piece `p` in bytes (0 when out of range).
    pub fn piece_len(&self, p: u32) -> u32 {
        if p >= self.pieces {
            return 0;
        }
        let start = p as u64 * self.piece_size as u64;
        (self.file_size - start).min(self.piece_size as u64) as u32
    }

    /// Number of blocks of piece `p` (0 when out of range).
    pub fn blocks_in(&self, p: u32) -> u32 {
        self.piece_len(p).div_ceil(self.block_size)
    }

    /// Length of a block in bytes (0 when it does not exist).
    pub fn block_len(&self, b: BlockRef) -> u32 {
        let plen = self.piece_len(b.piece);
        let start = b.block as u64 * self.block_size as u64;
        if start >= plen as u64 {
            return 0;
        }
        (plen as u64 - start).min(self.block_size as u64) as u32
    }

    /// Whether `b` names a block of this torrent.
    pub fn is_valid(&self, b: BlockRef) -> bool {
        self.block_len(b) > 0
    }

    /// Byte offset of a block inside its piece (BEP 3's `begin`).
    pub fn block_offset(&self, b: BlockRef) -> u32 {
        b.block * self.block_size
    }

    /// Total number of blocks in the torrent.
    pub fn total_blocks(&self) -> u64 {
        if self.pieces == 0 {
            return 0;
        }
        let full = (self.pieces - 1) as u64 * (self.piece_size / self.block_size) as u64;
        full + self.blocks_in(self.pieces - 1) as u64
    }

    /// Every block of piece `p` in order.
    pub fn blocks(&self, p: u32) -> impl Iterator<Item = BlockRef> {
        (0..self.blocks_in(p)).map(move |b| BlockRef::new(p, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn last_piece_and_last_block_are_shorter() {
        // 600,000 bytes in 256 KiB pieces: 262,144 + 262,144 + 75,712.
        let t = Torrent::new(600_000, 256 * 1024, BLOCK_SIZE).unwrap();
        assert_eq!(t.pieces(), 3);
        assert_eq!(t.piece_len(0), 262_144);
        assert_eq!(t.piece_len(2), 75_712);
        assert_eq!(t.piece_len(3), 0);
        // 75,712 = 4 * 16,384 + 10,176.
        assert_eq!(t.blocks_in(2), 5);
        assert_eq!(t.block_len(BlockRef::new(2, 4)), 10_176);
        assert_eq!(t.block_len(BlockRef::new(2, 5)), 0);
        assert_eq!(t.block_len(BlockRef::new(0, 15)), 16_384);
        assert_eq!(t.block_offset(BlockRef::new(2, 4)), 65_536);
        assert_eq!(t.total_blocks(), 16 + 16 + 5);
    }

    #[test]
    fn exact_multiple_has_no_short_piece() {
        let t = Torrent::new(4 * 32_768, 32_768, BLOCK_SIZE).unwrap();
        assert_eq!(t.pieces(), 4);
        assert_eq!(t.piece_len(3), 32_768);
        assert_eq!(t.total_blocks(), 8);
    }

    #[test]
    fn bad_geometry_is_refused() {
        assert_eq!(
            Torrent::new(0, 32_768, BLOCK_SIZE),
            Err(TorrentError::Zero("file size"))
        );
        assert!(matches!(
            Torrent::new(100, 20_000, BLOCK_SIZE),
            Err(TorrentError::Unaligned { .. })
        ));
    }

    proptest! {
        #[test]
        fn blocks_cover_the_file_exactly(file in 1u64..5_000_000, k in 1u32..9) {
            let t = Torrent::new(file, k * BLOCK_SIZE, BLOCK_SIZE).unwrap();
            let sum: u64 = (0..t.pieces())
                .flat_map(|p| t.blocks(p))
                .map(|b| t.block_len(b) as u64)
                .sum();
            prop_assert_eq!(sum, file);
            let count: u64 = (0..t.pieces()).map(|p| t.blocks_in(p) as u64).sum();
            prop_assert_eq!(count, t.total_blocks());
        }
    }
}
