//! Path-MTU search of one connection (packetization-layer discovery, RFC 4821, as libutp
//! and libtorrent do it for uTP).
//!
//! Ordinary packets are at most `floor` bytes, a size known to cross the path: at first
//! [`MIN_PACKET`] (an IPv4 datagram of 576 bytes, which every IPv4 path carries, minus the
//! IP and UDP headers). A probe is one DATA packet whose payload is an ordinary one and
//! which padding extensions (skipped by every receiver) bring to the size tried; the
//! socket sets DF, so a probe too big for some link is dropped, not fragmented. The first
//! probe tries the ceiling (the configured packet size, at most an Ethernet MTU's), then a
//! binary search: an acknowledged probe raises `floor` to its size, a lost one lowers
//! `ceiling` below it (remembered: that size is not tried again). The search ends when
//! fewer than [`DONE_GAP`] bytes separate the two. One probe is outstanding at a time; a
//! lost probe is not a congestion signal (its retransmission goes without padding, so the
//! data always arrives).

/// Smallest packet size, header included: 576 - 20 (IPv4) - 8 (UDP).
pub const MIN_PACKET: u16 = 548;
/// The search stops when `ceiling - floor` is below this.
pub const DONE_GAP: u16 = 16;

/// The search state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pmtu {
    floor: u16,
    ceiling: u16,
    outstanding: Option<u16>,
    tried_ceiling: bool,
}

impl Pmtu {
    /// A search between `floor` (known good) and `ceiling` (largest to try).
    pub(crate) fn new(floor: u16, ceiling: u16) -> Self {
        Pmtu {
            floor: floor.min(ceiling),
            ceiling,
            outstanding: None,
            tried_ceiling: false,
        }
    }

    /// Largest ordinary packet, header included.
    pub(crate) fn packet_size(&self) -> u16 {
        self.floor
    }

    /// The confirmed floor and the ceiling (what a cache keeps).
    pub(crate) fn bounds(&self) -> (u16, u16) {
        (self.floor, self.ceiling)
    }

    /// Whether the search is over.
    pub(crate) fn is_done(&self) -> bool {
        self.ceiling.saturating_sub(self.floor) < DONE_GAP
    }

    /// The size of the next probe, if one is due.
    pub(crate) fn next_probe(&self) -> Option<u16> {
        if self.outstanding.is_some() || self.is_done() {
            return None;
        }
        Some(if self.tried_ceiling {
            self.floor + (self.ceiling - self.floor).div_ceil(2)
        } else {
            self.ceiling
        })
    }

    /// A probe of `size` bytes left.
    pub(crate) fn on_probe_sent(&mut self, size: u16) {
        self.outstanding = Some(size);
        self.tried_ceiling = true;
    }

    /// A probe of `size` bytes was acknowledged.
    pub(crate) fn on_probe_acked(&mut self, size: u16) {
        self.floor = self.floor.max(size).min(self.ceiling);
        self.outstanding = None;
    }

    /// A probe of `size` bytes was lost.
    pub(crate) fn on_probe_lost(&mut self, size: u16) {
        self.ceiling = self.ceiling.min(size.saturating_sub(1)).max(self.floor);
        self.outstanding = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ceiling_is_tried_first_and_taken_when_it_passes() {
        let mut p = Pmtu::new(MIN_PACKET, 1472);
        assert_eq!(p.packet_size(), 548);
        assert_eq!(p.next_probe(), Some(1472));
        p.on_probe_sent(1472);
        assert_eq!(p.next_probe(), None, "one probe at a time");
        p.on_probe_acked(1472);
        assert_eq!(p.packet_size(), 1472);
        assert!(p.is_done());
        assert_eq!(p.next_probe(), None);
    }

    #[test]
    fn a_binary_search_converges_below_a_silent_limit() {
        // The path drops packets above 1000 bytes.
        let mut p = Pmtu::new(MIN_PACKET, 1472);
        let mut tried = Vec::new();
        while let Some(s) = p.next_probe() {
            tried.push(s);
            p.on_probe_sent(s);
            if s <= 1000 {
                p.on_probe_acked(s);
            } else {
                p.on_probe_lost(s);
            }
        }
        // 1472 lost; then midpoints of [548, 1471]: 1010 lost, [548, 1009]: 779 ok,
        // [779, 1009]: 894 ok, [894, 1009]: 952 ok, [952, 1009]: 981 ok, [981, 1009]:
        // 995 ok, [995, 1009]: gap 14 < 16, done.
        assert_eq!(tried, vec![1472, 1010, 779, 894, 952, 981, 995]);
        assert_eq!(p.bounds(), (995, 1009));
        assert!(p.packet_size() <= 1000);
    }

    #[test]
    fn a_floor_above_the_ceiling_is_clamped() {
        let p = Pmtu::new(1400, 1000);
        assert_eq!(p.bounds(), (1000, 1000));
        assert!(p.is_done());
    }
}
