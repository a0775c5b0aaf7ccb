//! The state of one connection as the peer keeps it.

use super::{CloseReason, ConnInfo, ConnStats};
use crate::bitfield::Bitfield;
use crate::wire::{BlockRequest, Frame};
use crate::ConnId;
use ledbat_core::Instant;
use std::collections::VecDeque;

/// Where a connection is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Our handshake is queued; the peer's must arrive by `deadline` (if timed).
    Handshaking {
        /// When the handshake timeout closes the connection.
        deadline: Option<Instant>,
    },
    /// Messages flow; the connection takes part in choking and picking.
    Open,
}

/// One connection (BEP 3's four flags, the peer's pieces, requests both ways, counters).
#[derive(Clone, Debug)]
pub(super) struct Conn<D> {
    pub id: ConnId,
    pub info: ConnInfo,
    pub phase: Phase,
    /// The peer id of its handshake, once accepted.
    pub peer_id: Option<[u8; 20]>,
    /// Both sides announced the Fast Extension.
    pub fast: bool,
    /// Both sides announced the Extension Protocol.
    pub extended: bool,
    /// No message but keep-alives and extended handshakes received yet.
    pub first_message: bool,
    /// The peer's pieces.
    pub bitfield: Bitfield,
    pub am_choking: bool,
    pub am_interested: bool,
    pub peer_choking: bool,
    pub peer_interested: bool,
    /// When it opened (the optimistic draw favours newcomers).
    pub connected_at: Instant,
    /// Payload received this choke round (tit-for-tat while leeching).
    pub down_round: u64,
    /// Payload sent this choke round (a seed's upload-rate policy).
    pub up_round: u64,
    /// Anti-snubbing counts from here ([`crate::SnubClock`]).
    pub snub_since: Instant,
    /// The request timeout counts from here: the last block, or when requests started
    /// from none outstanding.
    pub request_clock: Instant,
    pub last_recv: Instant,
    pub last_sent: Instant,
    /// Requests accepted for upload, in arrival order.
    pub uploads: VecDeque<BlockRequest>,
    /// Frames to send, in order.
    pub out: VecDeque<Frame<D>>,
    /// Listed in the peer's dirty queue.
    pub dirty: bool,
    /// Payload bytes per second it delivers (average over seconds).
    pub rate: f64,
    /// `stats.downloaded` at the last rate update.
    pub rate_mark: u64,
    pub stats: ConnStats,
    pub closing: Option<CloseReason>,
}

impl<D> Conn<D> {
    pub fn new(
        id: ConnId,
        info: ConnInfo,
        pieces: u32,
        now: Instant,
        deadline: Option<Instant>,
    ) -> Self {
        Conn {
            id,
            info,
            phase: Phase::Handshaking { deadline },
            peer_id: None,
            fast: false,
            extended: false,
            first_message: true,
            bitfield: Bitfield::new(pieces),
            am_choking: true,
            am_interested: false,
            peer_choking: true,
            peer_interested: false,
            connected_at: now,
            down_round: 0,
            up_round: 0,
            snub_since: now,
            request_clock: now,
            last_recv: now,
            last_sent: now,
            uploads: VecDeque::new(),
            out: VecDeque::new(),
            dirty: false,
            rate: 0.0,
            rate_mark: 0,
            stats: ConnStats::default(),
            closing: None,
        }
    }
}

/// A peer's connections by id: the ids in a sorted vector beside the connections in the
/// same order, so that a lookup is a binary search over a few hundred contiguous bytes
/// (a `BTreeMap` follows node pointers and scans each node) and iteration is in id order,
/// as a `BTreeMap`'s. Inserting or removing shifts the entries after it: connections open
/// and close rarely next to the lookups every message makes.
#[derive(Clone, Debug)]
pub(super) struct ConnMap<D> {
    ids: Vec<ConnId>,
    conns: Vec<Conn<D>>,
}

impl<D> Default for ConnMap<D> {
    fn default() -> Self {
        ConnMap {
            ids: Vec::new(),
            conns: Vec::new(),
        }
    }
}

impl<D> ConnMap<D> {
    #[inline]
    fn find(&self, id: ConnId) -> Result<usize, usize> {
        self.ids.binary_search(&id)
    }
    /// The connection `id`.
    #[inline]
    pub fn get(&self, id: &ConnId) -> Option<&Conn<D>> {
        self.find(*id).ok().map(|i| &self.conns[i])
    }
    /// The connection `id`, mutable.
    #[inline]
    pub fn get_mut(&mut self, id: &ConnId) -> Option<&mut Conn<D>> {
        self.find(*id).ok().map(|i| &mut self.conns[i])
    }
    /// Whether connection `id` is present.
    pub fn contains_key(&self, id: &ConnId) -> bool {
        self.find(*id).is_ok()
    }
    /// Adds connection `id`, returning the one it replaces.
    pub fn insert(&mut self, id: ConnId, c: Conn<D>) -> Option<Conn<D>> {
        match self.find(id) {
            Ok(i) => Some(std::mem::replace(&mut self.conns[i], c)),
            Err(i) => {
                self.ids.insert(i, id);
                self.conns.insert(i, c);
                None
            }
        }
    }
    /// Removes connection `id`.
    pub fn remove(&mut self, id: &ConnId) -> Option<Conn<D>> {
        let i = self.find(*id).ok()?;
        self.ids.remove(i);
        Some(self.conns.remove(i))
    }
    /// Ids in increasing order.
    pub fn keys(&self) -> impl Iterator<Item = &ConnId> + '_ {
        self.ids.iter()
    }
    /// Connections in id order.
    pub fn values(&self) -> impl Iterator<Item = &Conn<D>> + '_ {
        self.conns.iter()
    }
    /// Connections in id order, mutable.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Conn<D>> + '_ {
        self.conns.iter_mut()
    }
    /// (id, connection) in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&ConnId, &Conn<D>)> + '_ {
        self.ids.iter().zip(self.conns.iter())
    }
}

impl<D> std::ops::Index<&ConnId> for ConnMap<D> {
    type Output = Conn<D>;
    /// Panics when `id` is absent, as a `BTreeMap`'s index does.
    fn index(&self, id: &ConnId) -> &Conn<D> {
        self.get(id).expect("no connection with this id")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peer::ConnInfo;

    fn conn(id: ConnId) -> Conn<()> {
        let info = ConnInfo {
            transport: None,
            outgoing: true,
        };
        Conn::new(id, info, 8, Instant::ZERO, None)
    }

    #[test]
    fn conn_map_iterates_in_id_order_whatever_the_insertion_order() {
        let mut m = ConnMap::default();
        for id in [40, 7, 19, 3] {
            assert!(m.insert(id, conn(id)).is_none());
        }
        let ids: Vec<ConnId> = m.keys().copied().collect();
        assert_eq!(ids, vec![3, 7, 19, 40]);
        let from_values: Vec<ConnId> = m.values().map(|c| c.id).collect();
        assert_eq!(from_values, ids);
        assert!(m.iter().all(|(&id, c)| c.id == id));
        assert_eq!(m[&19].id, 19);
        assert!(m.get(&8).is_none() && !m.contains_key(&8));
    }

    #[test]
    fn conn_map_replaces_and_removes_like_a_map() {
        let mut m = ConnMap::default();
        m.insert(5, conn(5));
        m.insert(2, conn(2));
        if let Some(c) = m.get_mut(&5) {
            c.dirty = true;
        }
        let old = m.insert(5, conn(5)).expect("replaced");
        assert!(old.dirty, "the replaced connection comes back");
        assert!(!m[&5].dirty);
        assert_eq!(m.remove(&2).map(|c| c.id), Some(2));
        assert!(m.remove(&2).is_none());
        let ids: Vec<ConnId> = m.keys().copied().collect();
        assert_eq!(ids, vec![5]);
    }
}
