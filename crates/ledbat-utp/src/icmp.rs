//! ICMP destination-unreachable reports for the tokio glue (Linux: `IP_RECVERR`).
//!
//! An unconnected UDP socket normally never hears of the ICMP errors its datagrams cause.
//! With `IP_RECVERR` (`IPV6_RECVERR` for IPv6) the kernel queues each one on the socket's
//! error queue, readable with `recvmsg(MSG_ERRQUEUE)`; there `msg_name` is the destination
//! the failed datagram was sent to (not the router that reported it) and the control message
//! carries a `sock_extended_err` whose `ee_errno` says what happened (ip(7), "IP_RECVERR").
//! The reports are handed to [`crate::Endpoint::handle_unreachable`]. Other platforms get no
//! reports and fall back on the protocol's timers.

use crate::Unreachable;
use std::io;
use std::net::SocketAddr;
use tokio::net::UdpSocket;

/// What `ee_errno` of an error-queue report means for the peer, if anything: only the
/// destination-unreachable family fails connections (a `EMSGSIZE` report, for example, is
/// path-MTU news, not unreachability).
pub(crate) fn classify(errno: i32) -> Option<Unreachable> {
    match errno {
        libc_errno::ECONNREFUSED => Some(Unreachable::Port),
        libc_errno::EHOSTUNREACH | libc_errno::EACCES => Some(Unreachable::Host),
        libc_errno::ENETUNREACH => Some(Unreachable::Network),
        _ => None,
    }
}

/// Linux errno values (asm-generic/errno.h), spelled here so that [`classify`] is
/// testable on every platform.
mod libc_errno {
    pub const EACCES: i32 = 13;
    pub const ENETUNREACH: i32 = 101;
    pub const ECONNREFUSED: i32 = 111;
    pub const EHOSTUNREACH: i32 = 113;
}

#[cfg(target_os = "linux")]
mod imp {
    use super::*;
    use nix::sys::socket::{
        recvmsg, setsockopt, sockopt, ControlMessageOwned, MsgFlags, SockaddrStorage,
    };
    use std::io::IoSliceMut;
    use std::os::fd::AsRawFd;

    /// Control-message buffer of one error-queue read, bytes.
    const CMSG_SPACE: usize = 512;

    /// Asks the kernel to queue ICMP errors on `sock`.
    pub fn enable(sock: &UdpSocket) -> io::Result<()> {
        let r = if sock.local_addr()?.is_ipv4() {
            setsockopt(sock, sockopt::Ipv4RecvErr, &true)
        } else {
            setsockopt(sock, sockopt::Ipv6RecvErr, &true)
        };
        r.map_err(io::Error::from)
    }

    /// Takes one report off the error queue: `Ok(None)` for a report that is not about
    /// unreachability, `Err(WouldBlock)` once the queue is empty.
    pub fn recv_report(sock: &UdpSocket) -> io::Result<Option<(SocketAddr, Unreachable)>> {
        let mut payload = [0u8; 64];
        let mut iov = [IoSliceMut::new(&mut payload)];
        // Room for the error report and the other control messages the socket asks for
        // (quinn-udp turns on receive timestamps, packet info and TOS): a truncated
        // control buffer fails the call with ENOBUFS and the report is never read.
        let mut cmsg = vec![0u8; CMSG_SPACE];
        let msg = recvmsg::<SockaddrStorage>(
            sock.as_raw_fd(),
            &mut iov,
            Some(&mut cmsg),
            MsgFlags::MSG_ERRQUEUE | MsgFlags::MSG_DONTWAIT,
        )
        .map_err(io::Error::from)?;
        let dest = msg.address.and_then(|a| {
            a.as_sockaddr_in()
                .map(|v4| SocketAddr::from(std::net::SocketAddrV4::from(*v4)))
                .or_else(|| {
                    a.as_sockaddr_in6()
                        .map(|v6| SocketAddr::from(std::net::SocketAddrV6::from(*v6)))
                })
        });
        let mut errno = None;
        for c in msg.cmsgs().map_err(io::Error::from)? {
            match c {
                ControlMessageOwned::Ipv4RecvErr(e, _) | ControlMessageOwned::Ipv6RecvErr(e, _) => {
                    errno = Some(e.ee_errno as i32);
                }
                _ => {}
            }
        }
        Ok(dest.zip(errno.and_then(classify)))
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::*;

    pub fn enable(_: &UdpSocket) -> io::Result<()> {
        Ok(())
    }

    pub fn recv_report(_: &UdpSocket) -> io::Result<Option<(SocketAddr, Unreachable)>> {
        Err(io::ErrorKind::WouldBlock.into())
    }
}

pub(crate) use imp::{enable, recv_report};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_unreachable_errnos_are_reports() {
        assert_eq!(classify(111), Some(Unreachable::Port));
        assert_eq!(classify(113), Some(Unreachable::Host));
        assert_eq!(classify(13), Some(Unreachable::Host));
        assert_eq!(classify(101), Some(Unreachable::Network));
        assert_eq!(classify(90), None, "EMSGSIZE is path-MTU news");
        assert_eq!(classify(0), None);
    }
}
