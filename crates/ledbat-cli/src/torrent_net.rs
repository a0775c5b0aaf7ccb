//! The transport under `ledbat torrent`: uTP (the point of the command, on `ledbat-utp`)
//! or TCP (to check the BitTorrent layer on its own). This is the only place that knows
//! how streams are made; the peer protocol takes any `AsyncRead + AsyncWrite` stream.
//!
//! With uTP, one UDP socket carries every connection, incoming and outgoing, as
//! BitTorrent clients do: a peer that dials out does so from its listening port.

use anyhow::{Context, Result};
use ledbat_utp::{ConnectionConfig, ConnectionStats, EndpointConfig, StatsHandle, UtpSocket};
use std::net::SocketAddr;
use tokio::io::{AsyncRead, AsyncWrite};

/// Any byte stream a peer connection can run over.
pub trait PeerStream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> PeerStream for T {}

/// A boxed peer stream.
pub type BoxStream = Box<dyn PeerStream>;

/// Which transport carries the peer connections.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// uTP (BEP 29) over UDP, with the chosen congestion controller.
    Utp,
    /// Kernel TCP (controller options do not apply).
    Tcp,
}

/// Builds the uTP connection settings from the command line, the way `send` does.
pub use crate::transfer_cmd::connection_config;

/// A new connection and, for uTP, a view of its counters.
pub struct NewConn {
    /// The stream.
    pub stream: BoxStream,
    /// The peer's address.
    pub peer: SocketAddr,
    /// uTP counters (None for TCP).
    pub stats: Option<StatsHandle>,
}

/// Where connections come from: a uTP socket or TCP.
pub enum Net {
    /// One UDP socket for every uTP connection.
    Utp(UtpSocket),
    /// TCP: a listener when accepting, else the local address to connect from.
    Tcp(Option<tokio::net::TcpListener>, SocketAddr),
}

impl Net {
    /// Binds `addr`; accepts incoming connections when `listen`.
    pub async fn bind(
        transport: Transport,
        addr: SocketAddr,
        listen: bool,
        cfg: &ConnectionConfig,
    ) -> Result<Self> {
        match transport {
            Transport::Utp => {
                let ep = EndpointConfig::default()
                    .connection(cfg.clone())
                    .listen(listen);
                let s = UtpSocket::bind(addr, ep)
                    .await
                    .with_context(|| format!("cannot bind udp {addr}"))?;
                Ok(Net::Utp(s))
            }
            Transport::Tcp if listen => Ok(Net::Tcp(
                Some(
                    tokio::net::TcpListener::bind(addr)
                        .await
                        .with_context(|| format!("cannot listen on tcp {addr}"))?,
                ),
                addr,
            )),
            Transport::Tcp => Ok(Net::Tcp(None, addr)),
        }
    }

    /// The bound address (None for TCP without a listener).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        match self {
            Net::Utp(s) => Some(s.local_addr()),
            Net::Tcp(l, _) => l.as_ref().and_then(|l| l.local_addr().ok()),
        }
    }

    /// The next incoming connection (never resolves when not listening).
    pub async fn accept(&self) -> Result<NewConn> {
        match self {
            Net::Utp(s) => {
                let st = s.accept().await?;
                let peer = st.peer_addr();
                let stats = Some(st.stats_handle());
                Ok(NewConn {
                    stream: Box::new(st),
                    peer,
                    stats,
                })
            }
            Net::Tcp(Some(l), _) => {
                let (s, peer) = l.accept().await?;
                s.set_nodelay(true)?;
                Ok(NewConn {
                    stream: Box::new(s),
                    peer,
                    stats: None,
                })
            }
            Net::Tcp(None, _) => std::future::pending().await,
        }
    }

    /// Opens an outgoing connection to `peer`.
    pub async fn connect(&self, peer: SocketAddr) -> Result<NewConn> {
        match self {
            Net::Utp(s) => {
                let st = s
                    .connect(peer)
                    .await
                    .with_context(|| format!("cannot connect to utp {peer}"))?;
                let stats = Some(st.stats_handle());
                Ok(NewConn {
                    stream: Box::new(st),
                    peer,
                    stats,
                })
            }
            Net::Tcp(listener, bind) => {
                // Dial from the given address; a listener's port is not reused for TCP.
                let from = match listener {
                    Some(_) => SocketAddr::new(bind.ip(), 0),
                    None => *bind,
                };
                let sock = if peer.is_ipv4() {
                    tokio::net::TcpSocket::new_v4()?
                } else {
                    tokio::net::TcpSocket::new_v6()?
                };
                if !from.ip().is_unspecified() || from.port() != 0 {
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
