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

/// How many ports `Net::bind` tries when asked for any port.
const PORT_TRIES: usize = 16;

/// Why one attempt at binding failed.
enum Bind {
    /// The TCP side of the port the uTP socket got is taken.
    TcpInUse(anyhow::Error),
    Other(anyhow::Error),
}

/// Runs `attempt` until it succeeds, fails otherwise than by a taken TCP port, or has been
/// tried `PORT_TRIES` times; only once when `addr` names its port.
async fn retry_any_port<T, F, Fut>(addr: SocketAddr, mut attempt: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = std::result::Result<T, Bind>>,
{
    let mut tries = 1;
    loop {
        match attempt().await {
            Ok(t) => return Ok(t),
            Err(Bind::TcpInUse(_)) if addr.port() == 0 && tries < PORT_TRIES => tries += 1,
            Err(Bind::TcpInUse(e) | Bind::Other(e)) => return Err(e),
        }
    }
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
    /// socket picks the port and TCP takes the same one; when that port's TCP side is
    /// already in use (the kernel picked the UDP port without looking at TCP, so another
    /// program's connection may hold it), both are bound again on a new port, up to
    /// `PORT_TRIES` times.
    pub async fn bind(disp: Disposition, addr: SocketAddr, cfg: &ConnectionConfig) -> Result<Self> {
        retry_any_port(addr, || Self::bind_once(disp, addr, cfg)).await
    }

    async fn bind_once(
        disp: Disposition,
        addr: SocketAddr,
        cfg: &ConnectionConfig,
    ) -> std::result::Result<Self, Bind> {
        let mut local = addr;
        let utp = if disp.uses(Transport::Utp) {
            let ep = EndpointConfig::default()
                .connection(cfg.clone())
                .listen(disp.accepts(Transport::Utp));
            let s = UtpSocket::bind(addr, ep)
                .await
                .with_context(|| format!("cannot bind udp {addr}"))
                .map_err(Bind::Other)?;
            local = s.local_addr();
            Some(s)
        } else {
            None
        };
        let tcp = if disp.accepts(Transport::Tcp) {
            let l = match tokio::net::TcpListener::bind(local).await {
                Ok(l) => l,
                Err(e) => {
                    let in_use = e.kind() == std::io::ErrorKind::AddrInUse;
                    let e = anyhow::Error::from(e).context(format!("cannot listen on tcp {local}"));
                    return Err(if in_use {
                        Bind::TcpInUse(e)
                    } else {
                        Bind::Other(e)
                    });
                }
            };
            local = l.local_addr().map_err(|e| Bind::Other(e.into()))?;
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

    fn in_use() -> Bind {
        Bind::TcpInUse(anyhow::anyhow!("in use"))
    }

    /// Asked for any port, a port whose TCP side is taken is given up for another; the
    /// attempts stop at the first success.
    #[tokio::test]
    async fn a_taken_tcp_port_is_traded_for_another_when_any_port_will_do() {
        let mut n = 0;
        let got = retry_any_port("127.0.0.1:0".parse().unwrap(), || {
            n += 1;
            let r = if n < 3 { Err(in_use()) } else { Ok(n) };
            async move { r }
        })
        .await
        .unwrap();
        assert_eq!(got, 3);
    }

    /// A port the user named is tried once; other failures are not retried; the tries end
    /// after `PORT_TRIES`.
    #[tokio::test]
    async fn binding_gives_up_on_a_named_port_another_error_or_too_many_tries() {
        let count = |addr: &str, err: fn() -> Bind| {
            let addr: SocketAddr = addr.parse().unwrap();
            async move {
                let mut n = 0;
                let r: Result<()> = retry_any_port(addr, || {
                    n += 1;
                    std::future::ready(Err(err()))
                })
                .await;
                assert!(r.is_err());
                n
            }
        };
        assert_eq!(count("127.0.0.1:6881", in_use).await, 1);
        assert_eq!(
            count("127.0.0.1:0", || Bind::Other(anyhow::anyhow!("x"))).await,
            1
        );
        assert_eq!(count("127.0.0.1:0", in_use).await, PORT_TRIES);
    }
}
