//! The piece bitfield of BEP 3: bit `i` (most significant bit of byte 0 first) is set when
//! the peer has piece `i`; spare bits at the end of the last byte must be zero.

/// A fixed-size set of piece indices, stored in the BEP 3 wire layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitfield {
    bytes: Vec<u8>,
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
    /// An empty set for `len` pieces.
    pub fn new(len: u32) -> Self {
        Self {
            bytes: vec![0; Self::byte_len(len)],
            len,
            count: 0,
        }
    }

    /// The full set for `len` pieces (a seed's bitfield; BEP 6 `have all`).
    pub fn full(len: u32) -> Self {
        let mut b = Self::new(len);
        for i in 0..len {
            b.set(i);
        }
        b
    }

    /// Bytes needed on the wire for `len` pieces.
    pub fn byte_len(len: u32) -> usize {
        (len as usize).div_ceil(8)
    }

    /// Parses a received bitfield for a torrent of `len` pieces, refusing a wrong length
    /// or set spare bits (BEP 3: "Clients should drop the connection if they receive
    /// bitfields that are not of the correct size, or if the bitfield has any of the spare
    /// bits set").
    pub fn from_wire(bytes: &[u8], len: u32) -> Result<Self, BitfieldError> {
        let expected = Self::byte_len(len);
        if bytes.len() != expected {
            return Err(BitfieldError::Length {
                got: bytes.len(),
                expected,
                pieces: len,
            });
        }
        let spare = (expected * 8) as u32 - len;
        if spare > 0 {
            let mask = (1u8 << spare) - 1;
            if bytes[expected - 1] & mask != 0 {
                return Err(BitfieldError::SpareBits { pieces: len });
            }
        }
        let count = bytes.iter().map(|b| b.count_ones()).sum();
        Ok(Self {
            bytes: bytes.to_vec(),
            len,
            count,
        })
    }

    /// Number of pieces this set ranges over.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the set ranges over zero pieces.
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

    /// Whether piece `i` is present (false when out of range).
    pub fn get(&self, i: u32) -> bool {
        i < self.len && self.bytes[(i / 8) as usize] & (0x80 >> (i % 8)) != 0
    }

    /// Marks piece `i` present; returns false if it already was or is out of range.
    pub fn set(&mut self, i: u32) -> bool {
        if i >= self.len || self.get(i) {
            return false;
        }
        self.bytes[(i / 8) as usize] |= 0x80 >> (i % 8);
        self.count += 1;
        true
    }

    /// The wire bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Indices present, ascending.
    pub fn iter_set(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len).filter(|&i| self.get(i))
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
        assert_eq!(b.as_bytes(), &[0x80, 0x40]);
        assert_eq!(b.count(), 2);
    }

    #[test]
    fn wrong_length_is_refused() {
        assert!(matches!(
            Bitfield::from_wire(&[0xff], 10),
            Err(BitfieldError::Length { .. })
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
    fn setting_twice_counts_once() {
        let mut b = Bitfield::new(3);
        assert!(b.set(1));
        assert!(!b.set(1));
        assert!(!b.set(3));
        assert_eq!(b.count(), 1);
    }

    proptest! {
        #[test]
        fn wire_round_trip(len in 0u32..200, picks in proptest::collection::vec(0u32..200, 0..50)) {
            let mut b = Bitfield::new(len);
            for p in picks { b.set(p); }
            let back = Bitfield::from_wire(b.as_bytes(), len).unwrap();
            prop_assert_eq!(&back, &b);
            prop_assert_eq!(back.iter_set().count() as u32, b.count());
        }
    }
}
