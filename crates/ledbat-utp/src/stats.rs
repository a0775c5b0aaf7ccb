//! Counters and state snapshots exposed to progress bars, summaries and test beds.

use ledbat_core::{Duration, Metrics};
use serde::Serialize;

/// Counters and state of one connection at one instant.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ConnectionStats {
    /// Datagrams sent (every type, retransmissions included).
    pub packets_sent: u64,
    /// Datagrams received and accepted for this connection.
    pub packets_received: u64,
    /// Payload bytes handed to the network, retransmissions included.
    pub bytes_sent: u64,
    /// Payload bytes acknowledged by the peer (each byte once).
    pub bytes_acked: u64,
    /// Payload bytes delivered in order to the reader's buffer.
    pub bytes_received: u64,
    /// DATA and FIN packets sent again (fast retransmits and timeouts).
    pub retransmissions: u64,
    /// Packets declared lost by duplicate or selective ACKs.
    pub fast_losses: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// DATA packets received twice.
    pub duplicate_packets: u64,
    /// DATA packets dropped: too far ahead, or past the buffer bound.
    pub dropped_out_of_window: u64,
    /// Malformed datagrams addressed to this connection, dropped.
    pub malformed_dropped: u64,
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Payload bytes in flight.
    pub in_flight: u64,
    /// Receive window last advertised by the peer, bytes.
    pub peer_window: u64,
    /// Smoothed RTT.
    pub srtt: Option<Duration>,
    /// Current retransmission timeout (backoff included).
    pub rto: Duration,
    /// Path-MTU probes sent.
    pub mtu_probes: u64,
    /// Largest packet sent now, header included (the confirmed path MTU when probing).
    pub packet_size: u16,
    /// Receiver-driven LEDBAT's window, bytes, when it is on (the advertised window is at
    /// most this).
    pub rledbat_window: Option<u64>,
    /// The queuing delay receiver-driven LEDBAT measures on the incoming data.
    pub rledbat_queuing_delay: Option<Duration>,
    /// Times receiver-driven LEDBAT's competitor detection began to yield, when rLEDBAT is
    /// on (0 with the detection off).
    pub rledbat_detections: Option<u64>,
    /// The sender's competitor detection (`ledbat++` or `scavenger` with
    /// `competitor.enabled`): tests ended so far, push tests voided by another flow's push
    /// included. `None` when the controller has none.
    pub competitor_tests: Option<u64>,
    /// ... and the figures of the last of them (traces print its one-line form).
    #[serde(skip)]
    pub competitor_last_test: Option<ledbat_core::competitor::TestOutcome>,
    /// Memory the connection holds, bytes (see [`crate::Connection::memory_bytes`]).
    pub memory_bytes: usize,
    /// Name of the congestion controller.
    pub controller: &'static str,
    /// The controller's own metrics (queuing-delay estimate, base delay, state, ...).
    pub metrics: Metrics,
}

/// Endpoint-wide counters (datagrams that belong to no connection).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EndpointStats {
    /// Datagrams handed to the endpoint.
    pub datagrams_received: u64,
    /// Datagrams that failed to decode, dropped.
    pub malformed_dropped: u64,
    /// Packets for no known connection.
    pub unknown_connection: u64,
    /// RESET packets sent in answer to unknown connections or refused SYNs.
    pub resets_sent: u64,
    /// RESET answers not sent because the answer queue was full.
    pub resets_suppressed: u64,
    /// SYNs refused (not listening, half-open bound, connection bound).
    pub syns_refused: u64,
    /// Connections accepted.
    pub accepted: u64,
    /// ICMP destination-unreachable reports handed to the endpoint.
    pub unreachable_reports: u64,
    /// Connections failed by such a report (the others were kept: see
    /// [`crate::Connection::on_unreachable`]).
    pub unreachable_failed: u64,
}
