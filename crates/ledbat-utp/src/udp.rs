//! The UDP socket of the tokio glue, with batched I/O through `quinn-udp`.
//!
//! Sending: one `sendmsg` per [`Batch`] of datagrams to one peer, cut by the kernel (UDP
//! GSO, Linux 4.18+) when the batch holds several; where GSO is missing or the driver
//! refuses it, `quinn-udp` lowers its segment count to 1 and each datagram goes alone.
//! Receiving: `recvmmsg` of up to [`RECV_BUFFERS`] buffers per call, each holding one
//! datagram or, with UDP GRO (Linux 5.0+), a run of datagrams of one peer coalesced by the
//! kernel at a `stride`. Over loopback a GSO send reaches a GRO socket without ever being
//! cut, so 46 packets of 1400 bytes cost one system call on each side.
//!
//! `quinn-udp` also sets `IP_MTU_DISCOVER = IP_PMTUDISC_PROBE`: datagrams leave with DF
//! set and are never fragmented, which is what path-MTU probing needs. ICMP reports stay
//! with [`crate::icmp`], which knows the destination a failed datagram was sent to
//! (`quinn-udp`'s error queue reader returns the reporting router instead).

use crate::gso::Batch;
use quinn_udp::{RecvMeta, Transmit, UdpSocketState};
use std::io::{self, IoSliceMut};
use std::net::SocketAddr;
use tokio::io::Interest;
use tokio::net::UdpSocket;

/// Receive buffers per `recvmmsg`.
pub(crate) const RECV_BUFFERS: usize = 16;
/// Socket buffers asked for (the kernel caps them at `net.core.[rw]mem_max`): room for a
/// few GSO bursts, so that a receiver busy for a millisecond does not drop a window.
const SOCKET_BUFFER: usize = 4 << 20;

/// The socket and what `quinn-udp` learned about it.
pub(crate) struct Udp {
    pub(crate) sock: UdpSocket,
    state: UdpSocketState,
}

/// Buffers `recvmmsg` fills; separate from [`Udp`] so that waiting on the socket and
/// filling them do not borrow one value twice.
pub(crate) struct RecvBufs {
    bufs: Vec<Vec<u8>>,
    meta: Vec<RecvMeta>,
}

impl Udp {
    /// Wraps a bound socket: GRO, DF, larger socket buffers (best effort), and the error
    /// queue for ICMP reports.
    pub(crate) fn new(sock: UdpSocket) -> io::Result<(Self, RecvBufs)> {
        let state = UdpSocketState::new((&sock).into())?;
        let _ = state.set_recv_buffer_size((&sock).into(), SOCKET_BUFFER);
        let _ = state.set_send_buffer_size((&sock).into(), SOCKET_BUFFER);
        crate::icmp::enable(&sock)?;
        // One GRO buffer holds up to `gro_segments` datagrams of up to an Ethernet MTU's
        // payload; without GRO any datagram up to 64 KiB fits.
        let size = (state.gro_segments() * 1500).max(1 << 16);
        let bufs = RecvBufs {
            bufs: vec![vec![0u8; size]; RECV_BUFFERS],
            meta: vec![RecvMeta::default(); RECV_BUFFERS],
        };
        Ok((Udp { sock, state }, bufs))
    }

    /// Datagrams one send may carry (1 without GSO).
    pub(crate) fn max_segments(&self) -> usize {
        self.state.max_gso_segments()
    }

    /// Sends one batch, waiting while the socket buffer is full. Errors are the kernel's
    /// for this batch (a peer's ICMP report surfacing, EMSGSIZE, ...).
    pub(crate) async fn send(&self, b: &Batch) -> io::Result<()> {
        let t = Transmit {
            destination: b.to,
            ecn: None,
            contents: &b.buf,
            segment_size: (b.count > 1).then_some(b.segment),
            src_ip: None,
        };
        loop {
            match self.sock.try_io(Interest::WRITABLE, || {
                self.state.try_send((&self.sock).into(), &t)
            }) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.sock.writable().await?,
                r => return r,
            }
        }
    }

    /// One `recvmmsg` without waiting: calls `each(from, datagram)` for every datagram
    /// received and returns how many. `WouldBlock` when nothing is queued.
    pub(crate) fn try_recv(
        &self,
        rx: &mut RecvBufs,
        mut each: impl FnMut(SocketAddr, &[u8]),
    ) -> io::Result<usize> {
        let RecvBufs { bufs, meta } = rx;
        let n = self.sock.try_io(Interest::READABLE, || {
            let mut it = bufs.iter_mut();
            let mut iovs: [IoSliceMut<'_>; RECV_BUFFERS] =
                std::array::from_fn(|_| IoSliceMut::new(it.next().expect("RECV_BUFFERS buffers")));
            self.state.recv((&self.sock).into(), &mut iovs, meta)
        })?;
        let mut count = 0;
        for (m, buf) in meta.iter().zip(bufs.iter()).take(n) {
            let stride = m.stride.max(1);
            for d in buf[..m.len].chunks(stride) {
                each(m.addr, d);
                count += 1;
            }
        }
        Ok(count)
    }
}
