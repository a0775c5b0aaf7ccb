//! A small ordered map for the per-peer tables a swarm looks up on every message: a
//! peer's connections (in [`crate::peer`]) and, in the simulator, a peer's flows by
//! neighbour.
//!
//! The keys sit in a sorted vector of their own, beside the values in the same order, so
//! that a lookup is a binary search over a few hundred contiguous bytes of keys, whatever
//! the values' size (a `BTreeMap` follows node pointers and scans each node; a vector of
//! pairs strides over the values). Iteration is in increasing key order, as a
//! `BTreeMap`'s, which keeps the event order of a seeded run what it was. Inserting or
//! removing shifts the entries after it: these tables change when a connection opens or
//! closes, rarely beside the lookups.

/// An ordered map kept as two vectors, keys sorted (see the module comment).
#[derive(Clone, Debug)]
pub struct SortedMap<K, V> {
    keys: Vec<K>,
    values: Vec<V>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap {
            keys: Vec::new(),
            values: Vec::new(),
        }
    }
}

impl<K: Ord + Copy, V> SortedMap<K, V> {
    #[inline]
    fn find(&self, k: &K) -> Result<usize, usize> {
        self.keys.binary_search(k)
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// Whether the map holds no entry.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// The value of `k`.
    #[inline]
    pub fn get(&self, k: &K) -> Option<&V> {
        self.find(k).ok().map(|i| &self.values[i])
    }
    /// The value of `k`, mutable.
    #[inline]
    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.find(k).ok().map(|i| &mut self.values[i])
    }
    /// Whether `k` is present.
    pub fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_ok()
    }
    /// Adds `k`, returning the value it replaces.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.values[i], v)),
            Err(i) => {
                self.keys.insert(i, k);
                self.values.insert(i, v);
                None
            }
        }
    }
    /// Removes `k`, returning its value.
    pub fn remove(&mut self, k: &K) -> Option<V> {
        let i = self.find(k).ok()?;
        self.keys.remove(i);
        Some(self.values.remove(i))
    }
    /// Keys in increasing order.
    pub fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        self.keys.iter()
    }
    /// Values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.values.iter()
    }
    /// Values in key order, mutable.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> + '_ {
        self.values.iter_mut()
    }
    /// (key, value) in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> + '_ {
        self.keys.iter().zip(self.values.iter())
    }
}

impl<K: Ord + Copy, V> std::ops::Index<&K> for SortedMap<K, V> {
    type Output = V;
    /// Panics when `k` is absent, as a `BTreeMap`'s index does.
    fn index(&self, k: &K) -> &V {
        self.get(k).expect("no entry with this key")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn iterates_in_key_order_whatever_the_insertion_order() {
        let mut m = SortedMap::default();
        for k in [40u64, 7, 19, 3] {
            assert!(m.insert(k, k * 10).is_none());
        }
        let keys: Vec<u64> = m.keys().copied().collect();
        assert_eq!(keys, vec![3, 7, 19, 40]);
        let values: Vec<u64> = m.values().copied().collect();
        assert_eq!(values, vec![30, 70, 190, 400]);
        assert!(m.iter().all(|(&k, &v)| v == k * 10));
        assert_eq!(m[&19], 190);
        assert!(m.get(&8).is_none() && !m.contains_key(&8));
        assert_eq!((m.len(), m.is_empty()), (4, false));
    }

    #[test]
    fn replaces_and_removes_like_a_map() {
        let mut m = SortedMap::default();
        m.insert(5u32, "a");
        m.insert(2, "b");
        if let Some(v) = m.get_mut(&5) {
            *v = "c";
        }
        assert_eq!(m.insert(5, "d"), Some("c"), "the replaced value comes back");
        assert_eq!(m[&5], "d");
        assert_eq!(m.remove(&2), Some("b"));
        assert_eq!(m.remove(&2), None);
        for v in m.values_mut() {
            *v = "e";
        }
        let all: Vec<(u32, &str)> = m.iter().map(|(&k, &v)| (k, v)).collect();
        assert_eq!(all, vec![(5, "e")]);
    }

    proptest! {
        /// Any sequence of inserts and removes leaves the same entries, in the same order,
        /// as a `BTreeMap` given the same sequence.
        #[test]
        fn behaves_as_a_btree_map(ops in proptest::collection::vec((any::<bool>(), 0u8..32, any::<u16>()), 0..200)) {
            let mut m = SortedMap::default();
            let mut b = BTreeMap::new();
            for (insert, k, v) in ops {
                if insert {
                    prop_assert_eq!(m.insert(k, v), b.insert(k, v));
                } else {
                    prop_assert_eq!(m.remove(&k), b.remove(&k));
                }
            }
            let ours: Vec<(u8, u16)> = m.iter().map(|(&k, &v)| (k, v)).collect();
            let theirs: Vec<(u8, u16)> = b.into_iter().collect();
            prop_assert_eq!(ours, theirs);
        }
    }
}
