//! The transport under `ledbat torrent`: uTP (the point of the command) or TCP (to check
//! the BitTorrent layer on its own). This is the only place that knows how streams are
//! made; the peer protocol takes any `AsyncRead + AsyncWrite` stream.

use anyhow::{bail, Context, Result};
use ledbat_core::ControllerConfig;
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

/// Congestion control for uTP connections.
#[derive(Clone, Debug)]
pub struct CcChoice {
    /// The controller configuration, with `--target-ms` applied.
    pub config: ControllerConfig,
}

impl CcChoice {
    /// Builds the choice from `--cc` and `--target-ms`, validating both.
    pub fn from_args(cc: &str, target_ms: Option<u64>) -> Result<Self> {
        let mut config = ControllerConfig::from_name(cc)?;
        if let Some(ms) = target_ms {
            config = config
                .set("target", &format!("{ms}ms"))
                .with_context(|| format!("--target-ms does not apply to controller `{cc}`"))?;
        }
        config.validate()?;
        Ok(Self { config })
    }
}

/// Accepts incoming peer connections.
pub enum Listener {
    /// TCP.
    Tcp(tokio::net::TcpListener),
}

impl Listener {
    /// Binds `addr` for `transport`.
    pub async fn bind(transport: Transport, addr: SocketAddr, cc: &CcChoice) -> Result<Self> {
        match transport {
            Transport::Tcp => Ok(Listener::Tcp(
                tokio::net::TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("cannot listen on tcp {addr}"))?,
            )),
            Transport::Utp => utp_unavailable(cc),
        }
    }

    /// The bound address.
    pub fn local_addr(&self) -> Result<SocketAddr> {
        match self {
            Listener::Tcp(l) => Ok(l.local_addr()?),
        }
    }

    /// The next incoming connection.
    pub async fn accept(&self) -> Result<(BoxStream, SocketAddr)> {
        match self {
            Listener::Tcp(l) => {
                let (s, a) = l.accept().await?;
                s.set_nodelay(true)?;
                Ok((Box::new(s), a))
            }
        }
    }

    /// Opens an outgoing connection from this listener's endpoint (for uTP the same UDP
    /// socket, as BitTorrent clients do; for TCP an ordinary connect).
    pub async fn connect(&self, peer: SocketAddr) -> Result<BoxStream> {
        match self {
            Listener::Tcp(_) => connect_tcp(peer).await,
        }
    }
}

async fn connect_tcp(peer: SocketAddr) -> Result<BoxStream> {
    let s = tokio::net::TcpStream::connect(peer)
        .await
        .with_context(|| format!("cannot connect to tcp {peer}"))?;
    s.set_nodelay(true)?;
    Ok(Box::new(s))
}

/// Opens an outgoing connection without a listener (`torrent get`), from `bind`.
pub async fn connect(
    transport: Transport,
    bind: SocketAddr,
    peer: SocketAddr,
    cc: &CcChoice,
) -> Result<BoxStream> {
    let _ = bind;
    match transport {
        Transport::Tcp => connect_tcp(peer).await,
        Transport::Utp => utp_unavailable(cc),
    }
}

/// The seam to `ledbat-utp`: its tokio listener and streams are not published yet.
fn utp_unavailable<T>(_cc: &CcChoice) -> Result<T> {
    bail!(
        "the uTP runtime of ledbat-utp (tokio listener and streams) is not available in this \
         build yet; use --transport tcp to run the BitTorrent layer over TCP"
    )
}
