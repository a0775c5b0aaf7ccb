//! The transport every simulated flow uses, as two components with a narrow API: a
//! [`Sender`] and a [`Receiver`]. Neither knows about links, events or other flows: each
//! entry point takes `now` and returns what to send and which deadline to (re)arm, and the
//! host (the world's event loop) turns that into packets and timer events.
//!
//! **Model.** Packets carry sequence numbers. The receiver acknowledges every packet (or
//! every second in-order packet with delayed ACKs, RFC 5681 section 4.2) with the cumulative
//! next-expected sequence, the sequence of the packet that triggered the ACK (one SACK entry,
//! like the first block of RFC 2018), and the one-way-delay sample
//! `receiver clock - sender timestamp` of that packet (RFC 6817 section 3.1). Out-of-order
//! arrivals are acknowledged at once. The sender declares a packet lost when `dupthresh`
//! packets transmitted after it have been acknowledged (the transmission-order form of
//! "3 duplicate ACKs", which also covers lost retransmissions), and on a retransmission
//! timeout (RFC 6298: `RTO = SRTT + max(G, 4 RTTVAR)`, floor `min_rto`, doubled per
//! back-off, capped at `max_rto`; RTT samples only from packets never retransmitted, Karn;
//! the timer restarts on an ACK that advances the window and, as in Linux, when the oldest
//! unacknowledged packet is retransmitted) every unacknowledged packet not SACKed. Lost packets are retransmitted first, under the same window,
//! pacing and pause rules as new data (the driver contract of `ledbat_core::controller`).

mod receiver;
mod sender;

pub use receiver::{Received, Receiver};
pub use sender::{AckIn, AckOutcome, Next, Segment, Sender, SenderConfig, Undo};

use ledbat_core::DelaySample;

/// The fields of one ACK: what the receiver tells the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckFields {
    /// Cumulative: the next sequence the receiver expects.
    pub cum: u64,
    /// The sequence of the packet that triggered this ACK (one SACK entry).
    pub sack: u64,
    /// One-way-delay sample of that packet (receiver clock minus sender timestamp).
    pub delay: DelaySample,
    /// The echoed timestamp (RFC 7323's TSecr): the sender's wire timestamp of the packet
    /// that last set the receiver's TS.Recent.
    pub tsecr: u32,
}
