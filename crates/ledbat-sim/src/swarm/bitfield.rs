//! A compact set of piece indices (one bit per piece in `u64` words), with its population
//! count kept up to date so that "how many pieces does this peer have" is O(1).
//!
//! This is the simulator's in-memory form; its size on the wire (BEP 3: one bit per piece,
//! most significant bit of byte 0 first, padded to whole bytes) is
//! [`Bitfield::wire_bytes`].

/// A fixed-size set of piece indices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bitfield {
    words: Vec<u64>,
    len: u32,
    count: u32,
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

    /// The full set over `len` pieces (a seed's bitfield).
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

    /// Size of the bitfield's payload on the wire (BEP 3): one bit per piece, whole bytes.
    pub fn wire_bytes(&self) -> u32 {
        self.len.div_ceil(8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn full_set_has_every_piece_and_no_spare_bits() {
        let b = Bitfield::full(70);
        assert_eq!(b.count(), 70);
        assert!(b.is_full());
        assert!(b.get(69));
        assert!(!b.get(70));
        assert_eq!(b.iter().count(), 70);
        assert_eq!(b.words[1], (1u64 << 6) - 1);
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
    fn wire_size_rounds_up_to_whole_bytes() {
        assert_eq!(Bitfield::new(8).wire_bytes(), 1);
        assert_eq!(Bitfield::new(9).wire_bytes(), 2);
        assert_eq!(Bitfield::new(40).wire_bytes(), 5);
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
    }
}
