//! The transports under `ledbat torrent`: uTP (on `ledbat-utp`) and kernel TCP, on one
//! port. This is the only place that knows how streams are made; the peer protocol takes
//! any `AsyncRead + AsyncWrite` stream.
//!
//! Which transports are bound follows the disposition (`ledbat_bt::disposition`): a UDP
//! socket when uTP is attempted or accepted (one socket carries every uTP connection,
//! incoming and outgoing, as BitTorrent clients do: a peer that dials out does so from its
//! listening port), a TCP listener on the same port number when TCP is accepted. Outgoing
//! TCP connections leave from an ephemeral port of the same address.

use anyhow::{Context, Result};
use ledbat_bt::{Disposition, Transport};
use ledbat_utp::{ConnectionConfig, ConnectionStats, EndpointConfig, StatsHandle, UtpSocket};
use std::net::SocketAddr;
use tokio::io::{AsyncRead, AsyncWrite};

/// Any byte stream a peer connection can run over.
pub trait PeerStream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> PeerStream for T {}

/// A boxed peer stream.
pub type BoxStream = Box<dyn PeerStream>;

/// A new connection and, for uTP, a view of its counters.
pub struct NewConn {
    /// The stream.
    pub stream: BoxStream,
    /// The peer's address.
    pub peer: SocketAddr,
    /// Its transport.
    pub transport: Transport,
    /// We dialled it.
    pub outgoing: bool,
    /// uTP counters (None for TCP).
    pub stats: Option<StatsHandle>,
}

/// The sockets of one torrent command.
pub struct Net {
    utp: Option<UtpSocket>,
    tcp: Option<tokio::net::TcpListener>,
    local: SocketAddr,
}

impl Net {
    /// Binds what `disp` needs on `addr`: a uTP socket (accepting when `disp` accepts uTP)
    /// and a TCP listener on the same port (when `disp` accepts TCP). With port 0 the uTP
    /// socket picks the port and TCP takes the same one.
    pub async fn bind(disp: Disposition, addr: SocketAddr, cfg: &ConnectionConfig) -> Result<Self> {
        let mut local = addr;
        let utp = if disp.uses(Transport::Utp) {
            let ep = EndpointConfig::default()
                .connection(cfg.clone())
                .listen(disp.accepts(Transport::Utp));
            let s = UtpSocket::bind(addr, ep)
                .await
                .with_context(|| format!("cannot bind udp {addr}"))?;
            local = s.local_addr();
            Some(s)
        } else {
            None
        };
        let tcp = if disp.accepts(Transport::Tcp) {
            let l = tokio::net::TcpListener::bind(local)
                .await
                .with_context(|| format!("cannot listen on tcp {local}"))?;
            local = l.local_addr()?;
            Some(l)
        } else {
            None
        };
        Ok(Self { utp, tcp, local })
    }

    /// The bound address (uTP and TCP share the port).
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The next incoming connection on either transport (never resolves when accepting
    /// nothing).
    pub async fn accept(&self) -> Result<NewConn> {
        let utp = async {
            match &self.utp {
                Some(s) => s.accept().await.map_err(anyhow::Error::from),
                None => std::future::pending().await,
            }
        };
        let tcp = async {
            match &self.tcp {
                Some(l) => l.accept().await.map_err(anyhow::Error::from),
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            st = utp => {
                let st = st?;
                Ok(NewConn {
                    peer: st.peer_addr(),
                    stats: Some(st.stats_handle()),
                    stream: Box::new(st),
                    transport: Transport::Utp,
                    outgoing: false,
                })
            }
            s = tcp => {
                let (s, peer) = s?;
                s.set_nodelay(true)?;
                Ok(NewConn {
                    stream: Box::new(s),
                    peer,
                    transport: Transport::Tcp,
                    outgoing: false,
                    stats: None,
                })
            }
        }
    }

    /// Opens an outgoing connection to `peer` over `transport`.
    pub async fn connect(&self, peer: SocketAddr, transport: Transport) -> Result<NewConn> {
        match transport {
            Transport::Utp => {
                let s = self
                    .utp
                    .as_ref()
                    .context("uTP is not enabled by the disposition")?;
                let st = s
                    .connect(peer)
                    .await
                    .with_context(|| format!("cannot connect to utp {peer}"))?;
                Ok(NewConn {
                    stats: Some(st.stats_handle()),
                    stream: Box::new(st),
                    peer,
                    transport,
                    outgoing: true,
                })
            }
            Transport::Tcp => {
                // From the bound address but an ephemeral port, listener or not: a fixed
                // port would let one connection at a time leave, and none while another
                // program (another client on 6881) listens there.
                let from = SocketAddr::new(self.local.ip(), 0);
                let sock = if peer.is_ipv4() {
                    tokio::net::TcpSocket::new_v4()?
                } else {
                    tokio::net::TcpSocket::new_v6()?
                };
                if !from.ip().is_unspecified() {
                    sock.bind(from)
                        .with_context(|| format!("cannot bind tcp {from}"))?;
                }
                let s = sock
                    .connect(peer)
                    .await
                    .with_context(|| format!("cannot connect to tcp {peer}"))?;
                s.set_nodelay(true)?;
                Ok(NewConn {
                    stream: Box::new(s),
                    peer,
                    transport,
                    outgoing: true,
                    stats: None,
                })
            }
        }
    }
}

/// The last counters a uTP connection showed (sampled while it ran).
#[derive(Default)]
pub struct LastStats(pub Option<ConnectionStats>);

impl LastStats {
    /// Refreshes from the handle if the connection still exists; returns the fresh sample.
    pub fn sample(&mut self, h: &Option<StatsHandle>) -> Option<&ConnectionStats> {
        let s = h.as_ref().and_then(StatsHandle::get)?;
        Some(self.0.insert(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disposition that only dials TCP leaves from ephemeral ports: two connections at
    /// once, while another socket listens on the port it was given.
    #[tokio::test]
    async fn a_dial_only_tcp_peer_leaves_from_ephemeral_ports() {
        let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let taken = other.local_addr().unwrap();
        let peer = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let to = peer.local_addr().unwrap();
        let net = Net::bind(
            Disposition::new(1).unwrap(),
            taken,
            &ConnectionConfig::default(),
        )
        .await
        .unwrap();
        let a = net.connect(to, Transport::Tcp).await.unwrap();
        let b = net.connect(to, Transport::Tcp).await.unwrap();
        assert!(a.outgoing && b.outgoing);
        let (ca, from_a) = peer.accept().await.unwrap();
        let (_cb, from_b) = peer.accept().await.unwrap();
        assert_eq!(from_a.ip(), taken.ip());
        assert_ne!(from_a.port(), taken.port());
        assert_ne!(from_a.port(), from_b.port());
        drop(ca);
    }
}
