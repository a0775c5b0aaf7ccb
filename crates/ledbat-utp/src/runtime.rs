//! Tokio glue: one UDP socket serving many connections, a listener, and streams
//! implementing [`AsyncRead`] and [`AsyncWrite`].
//!
//! No protocol logic lives here. A driver task owns the socket: it reads every datagram
//! that is ready (`recvmmsg`, GRO: see `udp`), hands each to the sans-IO [`Endpoint`],
//! runs due timers, writes every datagram the endpoint has due (grouped per peer into GSO
//! sends: see `gso`), and sleeps until the next datagram, timer or application call. The monotonic clock is read here only, and converted to
//! [`ledbat_core::Instant`] once per event: nanoseconds of CLOCK_MONOTONIC (read once at
//! bind, then advanced by std's monotonic clock), so wire timestamps count like libutp's
//! and one-way delays between endpoints on one host are real.
//!
//! Streams share the endpoint with the driver behind a mutex that is never held across an
//! `.await`. Acknowledgements go out after a batch of received datagrams has been handled,
//! so under load one STATE acknowledges several packets (libutp defers acks the same way).

use crate::endpoint::{ConnHandle, Endpoint, EndpointConfig};
use crate::gso::{Batch, Batcher};
use crate::stats::{ConnectionStats, EndpointStats};
use crate::udp::{RecvBufs, Udp};
use crate::{ConnectionError, StreamError};
use ledbat_core::Instant;
use std::collections::HashMap;
use std::future::poll_fn;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
use tokio::net::UdpSocket;
use tokio::sync::Notify;

/// Linux's errno for a datagram larger than the path MTU: with IP_RECVERR a router's
/// "fragmentation needed" report arrives as this error, news about one peer's path.
const EMSGSIZE: i32 = 90;

/// Datagrams received in one batch before acknowledgements and timers run (a few
/// `recvmmsg` calls; with GRO one call may bring hundreds).
const RECV_BATCH: usize = 256;
/// Datagrams sent per turn of the driver before it looks at the socket again.
const SEND_BATCH: usize = 128;

/// What a task parked on the write side waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum WriteWait {
    /// Send-buffer space.
    #[default]
    Space,
    /// The end of the handshake.
    Connect,
    /// Our FIN acknowledged.
    Shutdown,
}

#[derive(Default)]
struct Wakers {
    read: Option<Waker>,
    write: Option<Waker>,
    write_wait: WriteWait,
}

fn write_ready(c: &crate::Connection, w: WriteWait) -> bool {
    c.error().is_some()
        || match w {
            WriteWait::Space => c.writable() > 0,
            WriteWait::Connect => c.state() != crate::State::SynSent,
            WriteWait::Shutdown => c.is_write_closed(),
        }
}

impl Inner {
    fn park_writer(&mut self, h: ConnHandle, wait: WriteWait, waker: &Waker) {
        let w = self.wakers.entry(h).or_default();
        w.write = Some(waker.clone());
        w.write_wait = wait;
    }
}

struct Inner {
    ep: Endpoint,
    wakers: HashMap<ConnHandle, Wakers>,
    /// Scratch list of [`Endpoint::take_changed`].
    changed: Vec<ConnHandle>,
    accept: Option<Waker>,
    socket_dropped: bool,
    io_error: Option<String>,
}

struct Shared {
    inner: Mutex<Inner>,
    notify: Notify,
    epoch: std::time::Instant,
    /// CLOCK_MONOTONIC at `epoch`, nanoseconds.
    epoch_mono: u64,
}

/// CLOCK_MONOTONIC in nanoseconds: the clock libutp stamps uTP packets with (in
/// microseconds). Every process on one host, in any network namespace, shares it, so a
/// peer's `timestamp_difference` between two of our endpoints on one host is the true
/// one-way delay rather than the difference of their start times.
#[cfg(unix)]
fn monotonic_nanos() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    (t.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(t.tv_nsec as u64)
}

/// Elsewhere: nanoseconds since the socket was bound.
#[cfg(not(unix))]
fn monotonic_nanos() -> u64 {
    0
}

impl Shared {
    fn now(&self) -> Instant {
        Instant::from_nanos(self.epoch_mono + self.epoch.elapsed().as_nanos() as u64)
    }
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn to_tokio(&self, t: Instant) -> tokio::time::Instant {
        let since = t.as_nanos().saturating_sub(self.epoch_mono);
        tokio::time::Instant::from_std(self.epoch + std::time::Duration::from_nanos(since))
    }
}

fn io_error(e: ConnectionError) -> io::Error {
    let kind = match e {
        ConnectionError::Reset => io::ErrorKind::ConnectionReset,
        ConnectionError::TimedOut => io::ErrorKind::TimedOut,
        ConnectionError::Aborted => io::ErrorKind::ConnectionAborted,
        ConnectionError::Refused => io::ErrorKind::ConnectionRefused,
        ConnectionError::Unreachable(crate::Unreachable::Network) => {
            io::ErrorKind::NetworkUnreachable
        }
        ConnectionError::Unreachable(_) => io::ErrorKind::HostUnreachable,
    };
    io::Error::new(kind, e)
}

/// A uTP endpoint on one UDP socket.
pub struct UtpSocket {
    shared: Arc<Shared>,
    local: SocketAddr,
}

impl std::fmt::Debug for UtpSocket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UtpSocket")
            .field("local", &self.local)
            .finish()
    }
}

impl UtpSocket {
    /// Binds `addr` and starts the driver task on the current tokio runtime. Connection
    /// ids and initial sequence numbers are seeded from the OS (through std's random hash
    /// keys).
    pub async fn bind(addr: SocketAddr, cfg: EndpointConfig) -> io::Result<Self> {
        let seed = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        let ep =
            Endpoint::new(cfg, seed).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let sock = UdpSocket::bind(addr).await?;
        let local = sock.local_addr()?;
        let (udp, rx) = Udp::new(sock)?;
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner {
                ep,
                wakers: HashMap::new(),
                changed: Vec::new(),
                accept: None,
                socket_dropped: false,
                io_error: None,
            }),
            notify: Notify::new(),
            epoch: std::time::Instant::now(),
            epoch_mono: monotonic_nanos(),
        });
        tokio::spawn(drive(shared.clone(), udp, rx));
        Ok(UtpSocket { shared, local })
    }

    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// Endpoint-wide counters (malformed datagrams, RESETs, refused SYNs).
    pub fn stats(&self) -> EndpointStats {
        self.shared.lock().ep.stats().clone()
    }

    /// Opens a connection to `addr` and waits until the handshake completes.
    pub async fn connect(&self, addr: SocketAddr) -> io::Result<UtpStream> {
        let h = {
            let mut g = self.shared.lock();
            let now = self.shared.now();
            g.ep.connect(now, addr)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?
        };
        self.shared.notify.notify_one();
        let stream = UtpStream {
            shared: self.shared.clone(),
            handle: h,
            peer: addr,
        };
        poll_fn(|cx| {
            let mut g = self.shared.lock();
            if let Some(e) = &g.io_error {
                return Poll::Ready(Err(io::Error::other(e.clone())));
            }
            let Some(c) = g.ep.connection(h) else {
                return Poll::Ready(Err(io::ErrorKind::NotConnected.into()));
            };
            if let Some(e) = c.error() {
                return Poll::Ready(Err(io_error(e)));
            }
            if c.state() == crate::State::Connected {
                return Poll::Ready(Ok(()));
            }
            g.park_writer(h, WriteWait::Connect, cx.waker());
            Poll::Pending
        })
        .await?;
        Ok(stream)
    }

    /// Waits for the next incoming connection (the endpoint must be configured to listen).
    pub async fn accept(&self) -> io::Result<UtpStream> {
        let (h, peer) = poll_fn(|cx| {
            let mut g = self.shared.lock();
            if let Some(e) = &g.io_error {
                return Poll::Ready(Err(io::Error::other(e.clone())));
            }
            if let Some(h) = g.ep.accept() {
                let peer = g.ep.peer_addr(h).expect("accepted connection exists");
                return Poll::Ready(Ok((h, peer)));
            }
            g.accept = Some(cx.waker().clone());
            Poll::Pending
        })
        .await?;
        Ok(UtpStream {
            shared: self.shared.clone(),
            handle: h,
            peer,
        })
    }
}

impl Drop for UtpSocket {
    fn drop(&mut self) {
        self.shared.lock().socket_dropped = true;
        self.shared.notify.notify_one();
    }
}

/// One uTP connection as a byte stream.
pub struct UtpStream {
    shared: Arc<Shared>,
    handle: ConnHandle,
    peer: SocketAddr,
}

impl std::fmt::Debug for UtpStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UtpStream")
            .field("peer", &self.peer)
            .field("handle", &self.handle)
            .finish()
    }
}

impl UtpStream {
    /// The peer's address.
    pub fn peer_addr(&self) -> SocketAddr {
        self.peer
    }

    /// The connection's counters and congestion state, while it exists.
    pub fn stats(&self) -> Option<ConnectionStats> {
        self.shared
            .lock()
            .ep
            .connection(self.handle)
            .map(|c| c.stats())
    }

    /// A cloneable view of this connection's counters, usable while the stream itself is
    /// busy in a read or write (progress bars, traces).
    pub fn stats_handle(&self) -> StatsHandle {
        StatsHandle {
            shared: self.shared.clone(),
            handle: self.handle,
        }
    }

    /// Aborts the connection with a RESET.
    pub fn abort(&self) {
        let now = self.shared.now();
        if let Some(c) = self.shared.lock().ep.connection_mut(self.handle) {
            c.abort(now);
        }
        self.shared.notify.notify_one();
    }
}

/// Reads one connection's counters from anywhere (see [`UtpStream::stats_handle`]).
#[derive(Clone)]
pub struct StatsHandle {
    shared: Arc<Shared>,
    handle: ConnHandle,
}

impl std::fmt::Debug for StatsHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatsHandle")
            .field("handle", &self.handle)
            .finish()
    }
}

impl StatsHandle {
    /// The connection's counters and congestion state, while it exists.
    pub fn get(&self) -> Option<ConnectionStats> {
        self.shared
            .lock()
            .ep
            .connection(self.handle)
            .map(|c| c.stats())
    }
    /// Seconds since the socket was bound (the clock the connection runs on).
    pub fn elapsed(&self) -> f64 {
        self.shared.epoch.elapsed().as_secs_f64()
    }
}

impl AsyncRead for UtpStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let mut g = this.shared.lock();
        let Some(c) = g.ep.connection_mut(this.handle) else {
            return Poll::Ready(Err(io::ErrorKind::NotConnected.into()));
        };
        match c.read(buf.initialize_unfilled()) {
            Ok(n) => {
                buf.advance(n);
                // Reading may have opened the window: let the driver send the update.
                let kick = c.wants_transmit();
                drop(g);
                if kick {
                    this.shared.notify.notify_one();
                }
                Poll::Ready(Ok(()))
            }
            Err(StreamError::WouldBlock) => {
                g.wakers.entry(this.handle).or_default().read = Some(cx.waker().clone());
                Poll::Pending
            }
            Err(StreamError::Connection(e)) => Poll::Ready(Err(io_error(e))),
            Err(StreamError::WriteClosed) => Poll::Ready(Err(io::ErrorKind::BrokenPipe.into())),
        }
    }
}

impl AsyncWrite for UtpStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let mut g = this.shared.lock();
        let Some(c) = g.ep.connection_mut(this.handle) else {
            return Poll::Ready(Err(io::ErrorKind::NotConnected.into()));
        };
        // With unsent data already queued the driver is waiting for ACKs (or pacing),
        // which will wake it; only a connection that had nothing to send needs a kick.
        let idle = !c.has_unsent();
        match c.write(data) {
            Ok(n) => {
                drop(g);
                if idle {
                    this.shared.notify.notify_one();
                }
                Poll::Ready(Ok(n))
            }
            Err(StreamError::WouldBlock) => {
                g.park_writer(this.handle, WriteWait::Space, cx.waker());
                Poll::Pending
            }
            Err(StreamError::WriteClosed) => Poll::Ready(Err(io::ErrorKind::BrokenPipe.into())),
            Err(StreamError::Connection(e)) => Poll::Ready(Err(io_error(e))),
        }
    }

    /// Data written is already in the connection's send buffer; nothing to flush.
    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    /// Sends FIN after the data written and completes when the peer has acknowledged
    /// everything, FIN included.
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let mut g = this.shared.lock();
        let Some(c) = g.ep.connection_mut(this.handle) else {
            return Poll::Ready(Err(io::ErrorKind::NotConnected.into()));
        };
        if let Some(e) = c.error() {
            return Poll::Ready(Err(io_error(e)));
        }
        if c.is_write_closed() {
            return Poll::Ready(Ok(()));
        }
        c.close();
        g.park_writer(this.handle, WriteWait::Shutdown, cx.waker());
        drop(g);
        this.shared.notify.notify_one();
        Poll::Pending
    }
}

impl Drop for UtpStream {
    fn drop(&mut self) {
        let mut g = self.shared.lock();
        g.ep.release(self.handle);
        g.wakers.remove(&self.handle);
        drop(g);
        self.shared.notify.notify_one();
    }
}

/// Whether a socket error is news about one peer (an ICMP report surfacing through a send
/// or a receive) rather than a failure of the socket itself.
fn is_peer_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
            | io::ErrorKind::HostUnreachable
            | io::ErrorKind::NetworkUnreachable
    ) || e.raw_os_error() == Some(EMSGSIZE)
}

/// Hands every ICMP report queued by IP_RECVERR to the endpoint, which fails the
/// connections they concern. Called when tokio sees the socket's error readiness and
/// whenever a send or receive returns a peer error (the kernel reports the same error
/// through the next socket call, which can consume the wake-up). Ends by clearing tokio's
/// error readiness, which a later report sets again.
fn take_reports(sock: &UdpSocket, ep: &mut Endpoint, now: Instant) {
    while let Ok(report) = crate::icmp::recv_report(sock) {
        if let Some((addr, kind)) = report {
            ep.handle_unreachable(now, addr, kind);
        }
    }
    let _ = sock.try_io(Interest::ERROR, || -> io::Result<()> {
        Err(io::ErrorKind::WouldBlock.into())
    });
}

async fn drive(shared: Arc<Shared>, udp: Udp, mut rx: RecvBufs) {
    let mut batcher = Batcher::default();
    let mut sending: Vec<Batch> = Vec::new();
    let mut dgram = Vec::with_capacity(2048);
    loop {
        let deadline;
        let more;
        {
            let mut g = shared.lock();
            let now = shared.now();
            if g.ep.poll_timeout().is_some_and(|t| t <= now) {
                g.ep.handle_timeout(now);
            }
            let max_segments = udp.max_segments();
            while batcher.datagrams() < SEND_BATCH {
                match g.ep.poll_transmit(now, &mut dgram) {
                    Some(a) => batcher.push(a, &dgram, max_segments),
                    None => break,
                }
            }
            more = batcher.datagrams() >= SEND_BATCH;
            batcher.take(&mut sending);
            deadline = g.ep.poll_timeout();
            // Wake only the tasks of connections that had an event and can make progress;
            // the others stay registered.
            let Inner {
                ep,
                wakers,
                changed,
                ..
            } = &mut *g;
            changed.clear();
            ep.take_changed(changed);
            for h in changed.iter() {
                let Some(w) = wakers.get_mut(h) else {
                    continue;
                };
                let (readable, writable) = match ep.connection(*h) {
                    Some(c) => (c.is_readable(), write_ready(c, w.write_wait)),
                    None => (true, true),
                };
                if readable {
                    if let Some(w) = w.read.take() {
                        w.wake();
                    }
                }
                if writable {
                    if let Some(w) = w.write.take() {
                        w.wake();
                    }
                }
            }
            if let Some(w) = g.accept.take() {
                w.wake();
            }
            if g.socket_dropped && g.ep.is_empty() {
                return;
            }
        }
        for b in sending.drain(..) {
            // A send error toward one peer (unreachable, refused) is the network
            // dropping the datagrams; an ICMP report behind it is on the error queue.
            if udp.send(&b).await.as_ref().is_err_and(is_peer_error) {
                take_reports(&udp.sock, &mut shared.lock().ep, shared.now());
            }
            batcher.recycle(b.buf);
        }
        if more {
            tokio::task::yield_now().await;
            continue;
        }
        let sleep = async {
            match deadline {
                Some(t) => tokio::time::sleep_until(shared.to_tokio(t)).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            r = udp.sock.readable() => {
                if r.is_ok() {
                    receive(&shared, &udp, &mut rx);
                }
            }
            r = udp.sock.ready(Interest::ERROR) => {
                if r.is_ok() {
                    let mut g = shared.lock();
                    take_reports(&udp.sock, &mut g.ep, shared.now());
                }
            }
            _ = sleep => {}
            _ = shared.notify.notified() => {}
        }
    }
}

/// Hands up to [`RECV_BATCH`] queued datagrams to the endpoint, one `recvmmsg` at a time,
/// all stamped with one `now`.
fn receive(shared: &Shared, udp: &Udp, rx: &mut RecvBufs) {
    let mut g = shared.lock();
    let now = shared.now();
    let mut got = 0;
    // Bounded also in calls: a peer error consumes a call without a datagram.
    for _ in 0..RECV_BATCH {
        match udp.try_recv(rx, |from, d| {
            g.ep.handle(now, from, d);
        }) {
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            // ICMP errors about one peer surface here (with IP_RECVERR, and on some
            // platforms without it): not fatal to the socket. The error queue says which
            // peer they concern.
            Err(e) if is_peer_error(&e) => take_reports(&udp.sock, &mut g.ep, now),
            Err(e) => {
                g.io_error = Some(e.to_string());
                break;
            }
        }
        if got >= RECV_BATCH {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A listening socket and a client socket on loopback.
    async fn listener_and_client() -> (UtpSocket, UtpSocket) {
        let on = |listen| async move {
            let cfg = EndpointConfig::default().listen(listen);
            UtpSocket::bind("127.0.0.1:0".parse().unwrap(), cfg)
                .await
                .unwrap()
        };
        (on(true).await, on(false).await)
    }

    #[tokio::test]
    async fn loopback_stream_round_trip() {
        let (server, client) = listener_and_client().await;
        let addr = server.local_addr();
        let data: Vec<u8> = (0..3_000_000u32).map(|i| (i % 253) as u8).collect();
        let expect = data.clone();
        let srv = tokio::spawn(async move {
            let mut s = server.accept().await.unwrap();
            let mut got = Vec::new();
            s.read_to_end(&mut got).await.unwrap();
            s.write_all(b"ok").await.unwrap();
            s.shutdown().await.unwrap();
            got
        });
        let mut c = client.connect(addr).await.unwrap();
        c.write_all(&data).await.unwrap();
        c.shutdown().await.unwrap();
        let mut reply = Vec::new();
        c.read_to_end(&mut reply).await.unwrap();
        assert_eq!(reply, b"ok");
        let got = srv.await.unwrap();
        assert!(got == expect, "received {} bytes", got.len());
        let st = c.stats().unwrap();
        assert_eq!(st.bytes_acked, 3_000_000);
    }

    #[tokio::test]
    async fn one_way_delay_is_real_between_sockets_bound_at_different_times() {
        // Wire timestamps count CLOCK_MONOTONIC, not time since bind: sockets bound
        // 300 ms apart still see a loopback one-way delay near zero both ways (with
        // bind-relative clocks one side saw about 300 ms, the other a 32-bit wrap).
        let server = UtpSocket::bind(
            "127.0.0.1:0".parse().unwrap(),
            EndpointConfig::default().listen(true),
        )
        .await
        .unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let client = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), EndpointConfig::default())
            .await
            .unwrap();
        let addr = server.local_addr();
        let srv = tokio::spawn(async move {
            let mut s = server.accept().await.unwrap();
            s.write_all(&[7u8; 50_000]).await.unwrap();
            let mut got = Vec::new();
            s.read_to_end(&mut got).await.unwrap();
            s.shutdown().await.unwrap();
            (got.len(), s.stats().unwrap())
        });
        let mut c = client.connect(addr).await.unwrap();
        let mut got = vec![0u8; 50_000];
        c.read_exact(&mut got).await.unwrap();
        c.write_all(&[9u8; 50_000]).await.unwrap();
        c.shutdown().await.unwrap();
        let mut rest = Vec::new();
        c.read_to_end(&mut rest).await.unwrap();
        let (n, server_stats) = srv.await.unwrap();
        assert_eq!(n, 50_000);
        for (side, st) in [("client", c.stats().unwrap()), ("server", server_stats)] {
            let base = st.metrics.base_delay.expect("delay samples");
            assert!(
                base < ledbat_core::Duration::from_millis(100),
                "{side}: base one-way delay {base:?} on loopback"
            );
        }
    }

    /// A loopback UDP port that nothing listens on (bound, read, then closed).
    fn dead_port() -> SocketAddr {
        let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        s.local_addr().unwrap()
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn connect_to_a_port_nobody_listens_on_is_refused_at_once() {
        let client = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), EndpointConfig::default())
            .await
            .unwrap();
        let t0 = std::time::Instant::now();
        let e = client.connect(dead_port()).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionRefused, "{e}");
        assert!(e.to_string().contains("refused"), "{e}");
        // The SYN's first retransmission timeout is 1 s or more: an answer well before it
        // came from the ICMP report, not from a timer.
        assert!(
            t0.elapsed() < std::time::Duration::from_millis(500),
            "{:?}",
            t0.elapsed()
        );
        assert_eq!(client.stats().unreachable_failed, 1);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_refused_address_does_not_disturb_a_live_connection() {
        let (server, client) = listener_and_client().await;
        let (live, accepted) = tokio::join!(client.connect(server.local_addr()), server.accept());
        let (mut live, mut accepted) = (live.unwrap(), accepted.unwrap());
        let e = client.connect(dead_port()).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionRefused);
        live.write_all(b"still here").await.unwrap();
        let mut buf = [0u8; 10];
        accepted.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"still here");
    }

    #[tokio::test]
    async fn connect_to_a_closed_port_fails_with_reset_or_timeout() {
        // A listening endpoint that refuses: not listening answers SYN with RESET.
        let other = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), EndpointConfig::default())
            .await
            .unwrap();
        let client = UtpSocket::bind("127.0.0.1:0".parse().unwrap(), EndpointConfig::default())
            .await
            .unwrap();
        let e = client.connect(other.local_addr()).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionReset);
        assert_eq!(other.stats().syns_refused, 1);
    }
}
