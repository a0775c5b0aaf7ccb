//! A set of piece indices: one bit per piece in `u64` words, with its population count kept
//! up to date, so "how many pieces does this peer have" is O(1) and "does it have a piece
//! we lack" is one pass over words.
//!
//! On the wire (BEP 3) bit `i` is the most significant bit of byte `i / 8` counted from
//! the most significant end, the set is padded to whole bytes and the spare bits must be
//! zero: [`Bitfield::to_wire`] and [`Bitfield::from_wire`] convert.

/// A fixed-size set of piece indices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bitfield {
    words: Vec<u64>,
    len: u32,
    count: u32,
}

/// Why a received bitfield was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BitfieldError {
    /// The byte length does not match the torrent's piece count.
    #[error("bitfield is {got} bytes, expected {expected} for {pieces} pieces")]
    Length {
        /// Bytes received.
        got: usize,
        /// Bytes expected.
        expected: usize,
        /// Piece count of the torrent.
        pieces: u32,
    },
    /// A spare bit past the last piece is set.
    #[error("bitfield has spare bits set past piece {pieces}")]
    SpareBits {
        /// Piece count of the torrent.
        pieces: u32,
    },
}

impl Bitfield {
    /// The empty set over `len` pieces.
    pub fn new(len: u32) -> Self {
        Bitfield {
            words: vec![0; (len as usize).div_ceil(64)],
            len,
            count: 0,
        }
    }

    /// The full set over `len` pieces (a seed's bitfield; BEP 6 `have all`).
    pub fn full(len: u32) -> Self {
        let mut b = Bitfield::new(len);
        for (i, w) in b.words.iter_mut().enumerate() {
            let bits = (len as usize - i * 64).min(64);
            *w = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
        }
        b.count = len;
        b
    }

    /// Bytes a bitfield of `len` pieces takes on the wire.
    pub fn wire_len(len: u32) -> usize {
        (len as usize).div_ceil(8)
    }

    /// Parses a received bitfield for a torrent of `len` pieces, refusing a wrong length
    /// or set spare bits (BEP 3: "Clients should drop the connection if they receive
    /// bitfields that are not of the correct size, or if the bitfield has any of the spare
    /// bits set").
    pub fn from_wire(bytes: &[u8], len: u32) -> Result<Self, BitfieldError> {
        let expected = Self::wire_len(len);
        if bytes.len() != expected {
            return Err(BitfieldError::Length {
                got: bytes.len(),
                expected,
                pieces: len,
            });
        }
        let spare = (expected * 8) as u32 - len;
        if spare > 0 && bytes[expected - 1] & ((1u8 << spare) - 1) != 0 {
            return Err(BitfieldError::SpareBits { pieces: len });
        }
        let mut b = Bitfield::new(len);
        for (k, &byte) in bytes.iter().enumerate() {
            let mut rest = byte;
            while rest != 0 {
                let bit = rest.leading_zeros();
                rest &= !(0x80 >> bit);
                b.set(k as u32 * 8 + bit);
            }
        }
        Ok(b)
    }

    /// The wire bytes (BEP 3 layout).
    pub fn to_wire(&self) -> Vec<u8> {
        let mut out = vec![0u8; Self::wire_len(self.len)];
        for i in self.iter() {
            out[(i / 8) as usize] |= 0x80 >> (i % 8);
        }
        out
    }

    /// Number of pieces the set ranges over.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the set ranges over no pieces at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of pieces present.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Whether every piece is present.
    pub fn is_full(&self) -> bool {
        self.count == self.len
    }

    /// Whether piece `i` is present (false when `i` is out of range).
    pub fn get(&self, i: u32) -> bool {
        i < self.len && self.words[(i / 64) as usize] & (1u64 << (i % 64)) != 0
    }

    /// Adds piece `i`; returns whether it was newly added (false if present or out of
    /// range).
    pub fn set(&mut self, i: u32) -> bool {
        if i >= self.len || self.get(i) {
            return false;
        }
        self.words[(i / 64) as usize] |= 1u64 << (i % 64);
        self.count += 1;
        true
    }

    /// Removes piece `i`; returns whether it was present.
    pub fn clear(&mut self, i: u32) -> bool {
        if !self.get(i) {
            return false;
        }
        self.words[(i / 64) as usize] &= !(1u64 << (i % 64));
        self.count -= 1;
        true
    }

    /// The present pieces in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                Some(wi as u32 * 64 + bit)
            })
        })
    }

    /// Whether `other` has a piece this set lacks (`other` ranges over the same pieces).
    pub fn lacks_any_of(&self, other: &Bitfield) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .any(|(mine, theirs)| theirs & !mine != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn msb_of_first_byte_is_piece_zero() {
        let mut b = Bitfield::new(10);
        b.set(0);
        b.set(9);
        assert_eq!(b.to_wire(), vec![0x80, 0x40]);
        assert_eq!(b.count(), 2);
        assert_eq!(Bitfield::wire_len(8), 1);
        assert_eq!(Bitfield::wire_len(9), 2);
        assert_eq!(Bitfield::wire_len(40), 5);
    }

    #[test]
    fn full_set_has_every_piece_and_no_spare_bits() {
        let b = Bitfield::full(70);
        assert_eq!(b.count(), 70);
        assert!(b.is_full());
        assert!(b.get(69));
        assert!(!b.get(70));
        assert_eq!(b.iter().count(), 70);
        assert_eq!(b.words[1], (1u64 << 6) - 1);
        // 70 pieces: 8 bytes of 0xff, then 6 bits: 0xfc.
        let w = b.to_wire();
        assert_eq!(w.len(), 9);
        assert_eq!(w[8], 0xfc);
    }

    #[test]
    fn wrong_length_is_refused() {
        assert!(matches!(
            Bitfield::from_wire(&[0xff], 10),
            Err(BitfieldError::Length {
                got: 1,
                expected: 2,
                pieces: 10
            })
        ));
    }

    #[test]
    fn spare_bits_are_refused() {
        assert_eq!(
            Bitfield::from_wire(&[0xff, 0xe0], 10),
            Err(BitfieldError::SpareBits { pieces: 10 })
        );
        assert!(Bitfield::from_wire(&[0xff, 0xc0], 10).unwrap().is_full());
    }

    #[test]
    fn set_and_clear_keep_the_count() {
        let mut b = Bitfield::new(10);
        assert!(b.set(3));
        assert!(!b.set(3));
        assert!(!b.set(10), "out of range is refused");
        assert!(b.set(9));
        assert_eq!(b.count(), 2);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 9]);
        assert!(b.clear(3));
        assert!(!b.clear(3));
        assert_eq!(b.count(), 1);
    }

    #[test]
    fn lacks_any_of_detects_a_missing_piece() {
        let mut mine = Bitfield::new(100);
        let mut theirs = Bitfield::new(100);
        assert!(!mine.lacks_any_of(&theirs));
        theirs.set(77);
        assert!(mine.lacks_any_of(&theirs));
        mine.set(77);
        assert!(!mine.lacks_any_of(&theirs));
    }

    proptest! {
        #[test]
        fn count_matches_iteration(len in 1u32..300, ops in proptest::collection::vec((0u32..320, any::<bool>()), 0..200)) {
            let mut b = Bitfield::new(len);
            let mut model = std::collections::BTreeSet::new();
            for (i, add) in ops {
                if add { b.set(i); if i < len { model.insert(i); } } else { b.clear(i); model.remove(&i); }
            }
            prop_assert_eq!(b.count() as usize, model.len());
            prop_assert_eq!(b.iter().collect::<Vec<_>>(), model.into_iter().collect::<Vec<_>>());
        }

        #[test]
        fn wire_round_trip(len in 0u32..200, picks in proptest::collection::vec(0u32..200, 0..50)) {
            let mut b = Bitfield::new(len);
            for p in picks { b.set(p); }
            let back = Bitfield::from_wire(&b.to_wire(), len).unwrap();
            prop_assert_eq!(&back, &b);
            prop_assert_eq!(back.iter().count() as u32, b.count());
        }

        #[test]
        fn any_bytes_parse_or_are_refused(len in 0u32..100, bytes in proptest::collection::vec(any::<u8>(), 0..16)) {
            if let Ok(b) = Bitfield::from_wire(&bytes, len) {
                prop_assert_eq!(b.to_wire(), bytes);
            }
        }
    }
}
