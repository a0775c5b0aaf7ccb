//! HTTP trackers (BEP 3, compact peer lists of BEP 23): the announce request, the parsing of
//! the answer, and when to announce, sans-IO; plus [`announce_over`], one HTTP/1.0
//! exchange over any byte stream the caller opened.
//!
//! Request: `GET <path>?info_hash=..&peer_id=..&port=..&uploaded=..&downloaded=..&left=..
//! &compact=1&numwant=..[&event=started|completed|stopped]`, the two 20-byte ids
//! percent-encoded byte by byte. Answer: a bencoded dictionary with either
//! `failure reason`, or `interval` (seconds between announces), optional `min interval`,
//! and `peers`, either a string of 6-byte entries (4-byte IPv4 address, 2-byte port, both
//! big-endian; BEP 23) or a list of dictionaries with `ip` and `port` (BEP 3); `peers6`
//! holds 18-byte IPv6 entries (BEP 7).
//!
//! Schedule ([`Announcer`]): `started` first; then every `interval` (never below
//! `min interval`; both cut to a day); `completed` at once when the download completes;
//! `stopped` when leaving.
//! A failed announce is retried after 15 s, doubling up to 30 min (libtorrent's back-off
//! starts at 15 s as well). Untrusted input never panics: every malformed answer is an
//! error naming the field.

use bt_bencode::Value;
use ledbat_bt_proto::wire::Sha1Digest;
use ledbat_core::{Duration, Instant};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Largest HTTP answer read from a tracker (headers and body).
pub const MAX_RESPONSE: usize = 256 * 1024;
/// Longest `interval` or `min interval` taken from a tracker, in seconds (one day); a
/// longer one is cut to it. Trackers ask for 30 min (opentracker) to 1 h; a value near
/// 2^64 s overflowed the conversion to nanoseconds (found by the fuzz target `tracker`).
pub const MAX_INTERVAL_S: u64 = 24 * 3600;

/// The `event` of an announce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    /// The first announce.
    Started,
    /// The download just completed.
    Completed,
    /// We are leaving.
    Stopped,
    /// A regular re-announce (no `event` parameter).
    Periodic,
}

impl Event {
    fn param(self) -> Option<&'static str> {
        match self {
            Event::Started => Some("started"),
            Event::Completed => Some("completed"),
            Event::Stopped => Some("stopped"),
            Event::Periodic => None,
        }
    }
}

/// Why an announce failed.
#[derive(Debug, thiserror::Error)]
pub enum TrackerError {
    /// The URL is not one we can use.
    #[error("tracker URL `{url}`: {reason}")]
    Url {
        /// The URL.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// The tracker refused (`failure reason`).
    #[error("tracker refused: {0}")]
    Failure(String),
    /// The HTTP layer was wrong.
    #[error("tracker answered badly: {0}")]
    Http(String),
    /// The bencoded answer was wrong.
    #[error("tracker answer: field `{field}`: {reason}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// Network failure.
    #[error("tracker unreachable: {0}")]
    Io(#[from] std::io::Error),
}

fn bad(field: &'static str, reason: impl Into<String>) -> TrackerError {
    TrackerError::Field {
        field,
        reason: reason.into(),
    }
}

/// An `http://` tracker URL split for the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackerUrl {
    /// Host name or address, as written.
    pub host: String,
    /// Port (80 when absent).
    pub port: u16,
    /// Path and query, starting with `/`.
    pub path: String,
}

impl TrackerUrl {
    /// Parses `http://HOST[:PORT][/PATH[?QUERY]]` (an IPv6 host in brackets); other
    /// schemes, user names and fragments are refused.
    pub fn parse(s: &str) -> Result<Self, TrackerError> {
        let err = |reason: &str| TrackerError::Url {
            url: s.to_owned(),
            reason: reason.to_owned(),
        };
        let u = url::Url::parse(s).map_err(|e| err(&e.to_string()))?;
        if u.scheme() != "http" {
            return Err(err(
                "only http:// trackers are supported (not udp:// or https://)",
            ));
        }
        if !u.username().is_empty() || u.password().is_some() {
            return Err(err("a user name in a tracker URL is not supported"));
        }
        if u.fragment().is_some() {
            return Err(err("a fragment (#...) has no place in a tracker URL"));
        }
        let host = match u.host() {
            Some(url::Host::Domain(d)) if !d.is_empty() => d.to_owned(),
            Some(url::Host::Ipv4(a)) => a.to_string(),
            Some(url::Host::Ipv6(a)) => a.to_string(),
            _ => return Err(err("no host")),
        };
        let mut path = u.path().to_owned();
        if let Some(q) = u.query() {
            path.push('?');
            path.push_str(q);
        }
        Ok(Self {
            host,
            port: u.port_or_known_default().unwrap_or(80),
            path,
        })
    }
}

/// What we tell the tracker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Announce {
    /// The torrent.
    pub info_hash: Sha1Digest,
    /// Our peer id.
    pub peer_id: [u8; 20],
    /// Our listening port.
    pub port: u16,
    /// Payload bytes sent so far.
    pub uploaded: u64,
    /// Payload bytes received so far.
    pub downloaded: u64,
    /// Bytes still missing.
    pub left: u64,
    /// Why we announce.
    pub event: Event,
    /// How many peers we would like.
    pub numwant: u32,
}

fn percent_encode(b: &[u8], out: &mut String) {
    for &c in b {
        if c.is_ascii_alphanumeric() || b"-._~".contains(&c) {
            out.push(c as char);
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
}

impl Announce {
    /// The request target (path and query) for `url`.
    pub fn target(&self, url: &TrackerUrl) -> String {
        let mut s = url.path.clone();
        s.push(if s.contains('?') { '&' } else { '?' });
        s.push_str("info_hash=");
        percent_encode(&self.info_hash, &mut s);
        s.push_str("&peer_id=");
        percent_encode(&self.peer_id, &mut s);
        s.push_str(&format!(
            "&port={}&uploaded={}&downloaded={}&left={}&compact=1&numwant={}",
            self.port, self.uploaded, self.downloaded, self.left, self.numwant
        ));
        if let Some(e) = self.event.param() {
            s.push_str("&event=");
            s.push_str(e);
        }
        s
    }
}

/// A successful answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnounceReply {
    /// Seconds until the next regular announce.
    pub interval: Duration,
    /// Never announce more often than this.
    pub min_interval: Option<Duration>,
    /// Peers (ours may be among them; the caller skips it).
    pub peers: Vec<SocketAddr>,
    /// Seeds in the swarm, if told.
    pub complete: Option<u64>,
    /// Leechers in the swarm, if told.
    pub incomplete: Option<u64>,
    /// `warning message`, if any.
    pub warning: Option<String>,
}

fn dict_get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_dict().and_then(|d| d.get(key.as_bytes()))
}

fn opt_u64(v: &Value, key: &'static str) -> Result<Option<u64>, TrackerError> {
    match dict_get(v, key) {
        None => Ok(None),
        Some(x) => x
            .as_u64()
            .map(Some)
            .ok_or_else(|| bad(key, "not a non-negative integer")),
    }
}

/// Parses a tracker's bencoded answer body.
pub fn parse_reply(body: &[u8]) -> Result<AnnounceReply, TrackerError> {
    let v: Value = ledbat_bt_proto::bencode::from_slice(body).map_err(|e| {
        let head = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
        TrackerError::Http(format!("body is not bencode ({e}): {head:?}"))
    })?;
    if v.as_dict().is_none() {
        return Err(bad("(top level)", "not a dictionary"));
    }
    if let Some(f) = dict_get(&v, "failure reason") {
        let msg = f
            .as_byte_str()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_else(|| "(not a string)".into());
        return Err(TrackerError::Failure(msg));
    }
    let interval = opt_u64(&v, "interval")?.ok_or_else(|| bad("interval", "missing"))?;
    if interval == 0 {
        return Err(bad("interval", "zero"));
    }
    let min_interval = opt_u64(&v, "min interval")?;
    let mut peers = Vec::new();
    match dict_get(&v, "peers") {
        None => {}
        Some(Value::ByteStr(b)) => {
            if b.len() % 6 != 0 {
                return Err(bad(
                    "peers",
                    format!("{} bytes is not a multiple of 6", b.len()),
                ));
            }
            for c in b.chunks_exact(6) {
                let ip = Ipv4Addr::new(c[0], c[1], c[2], c[3]);
                peers.push(SocketAddr::new(
                    IpAddr::V4(ip),
                    u16::from_be_bytes([c[4], c[5]]),
                ));
            }
        }
        Some(Value::List(list)) => {
            for p in list {
                let ip = dict_get(p, "ip")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("peers", "an entry has no `ip` string"))?;
                let ip: IpAddr = ip
                    .parse()
                    .map_err(|_| bad("peers", format!("`{ip}` is not an IP address")))?;
                let port = dict_get(p, "port")
                    .and_then(Value::as_u64)
                    .and_then(|p| u16::try_from(p).ok())
                    .ok_or_else(|| bad("peers", "an entry has no valid `port`"))?;
                peers.push(SocketAddr::new(ip, port));
            }
        }
        Some(_) => return Err(bad("peers", "neither a string nor a list")),
    }
    if let Some(p6) = dict_get(&v, "peers6") {
        let b = p6
            .as_byte_str()
            .ok_or_else(|| bad("peers6", "not a string"))?;
        if b.len() % 18 != 0 {
            return Err(bad(
                "peers6",
                format!("{} bytes is not a multiple of 18", b.len()),
            ));
        }
        for c in b.chunks_exact(18) {
            let ip: [u8; 16] = c[..16].try_into().expect("16 bytes");
            let port = u16::from_be_bytes([c[16], c[17]]);
            peers.push(SocketAddr::new(IpAddr::V6(Ipv6Addr::from(ip)), port));
        }
    }
    peers.retain(|p| p.port() != 0);
    Ok(AnnounceReply {
        interval: Duration::from_secs(interval.min(MAX_INTERVAL_S)),
        min_interval: min_interval.map(|m| Duration::from_secs(m.min(MAX_INTERVAL_S))),
        peers,
        complete: opt_u64(&v, "complete")?,
        incomplete: opt_u64(&v, "incomplete")?,
        warning: dict_get(&v, "warning message")
            .and_then(Value::as_byte_str)
            .map(|b| String::from_utf8_lossy(b).into_owned()),
    })
}

/// Splits an HTTP/1.x response into its status and body; only 200 is a success. Supports
/// `Content-Length`, `Transfer-Encoding: chunked` and a body running to the end.
pub fn parse_http(raw: &[u8]) -> Result<&[u8], TrackerError> {
    let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Err(TrackerError::Http("no end of headers".into()));
    };
    let head = std::str::from_utf8(&raw[..end])
        .map_err(|_| TrackerError::Http("headers are not text".into()))?;
    let body = &raw[end + 4..];
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap_or("");
    let mut parts = status.split_whitespace();
    let version = parts.next().unwrap_or("");
    let code = parts.next().unwrap_or("");
    if !version.starts_with("HTTP/1.") {
        return Err(TrackerError::Http(format!(
            "not an HTTP answer: {status:?}"
        )));
    }
    if code != "200" {
        return Err(TrackerError::Http(format!("HTTP status {status:?}")));
    }
    let mut length = None;
    let mut chunked = false;
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
        if k == "content-length" {
            length = Some(
                v.parse::<usize>()
                    .map_err(|_| TrackerError::Http(format!("bad Content-Length {v:?}")))?,
            );
        } else if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
            chunked = true;
        }
    }
    if chunked {
        return Err(TrackerError::Http(
            "chunked answer to an HTTP/1.0 request".into(),
        ));
    }
    match length {
        Some(n) if n > body.len() => Err(TrackerError::Http(format!(
            "body cut short: {} of {n} bytes",
            body.len()
        ))),
        Some(n) => Ok(&body[..n]),
        None => Ok(body),
    }
}

/// One announce over `stream` (already connected to the tracker): the HTTP/1.0 request,
/// the whole answer (at most [`MAX_RESPONSE`] bytes), the parsed reply.
pub async fn announce_over<S>(
    mut stream: S,
    url: &TrackerUrl,
    a: &Announce,
) -> Result<AnnounceReply, TrackerError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let host = if url.host.contains(':') {
        format!("[{}]", url.host)
    } else {
        url.host.clone()
    };
    let req = format!(
        "GET {} HTTP/1.0\r\nHost: {host}:{}\r\nUser-Agent: ledbat/{}\r\nConnection: close\r\n\r\n",
        a.target(url),
        url.port,
        env!("CARGO_PKG_VERSION")
    );
    stream.write_all(req.as_bytes()).await?;
    stream.flush().await?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        if raw.len() + n > MAX_RESPONSE {
            return Err(TrackerError::Http(format!(
                "answer longer than {MAX_RESPONSE} bytes"
            )));
        }
        raw.extend_from_slice(&buf[..n]);
    }
    parse_reply(parse_http(&raw)?)
}

/// When to announce, and with which event.
#[derive(Clone, Debug)]
pub struct Announcer {
    next: Instant,
    pending: Option<Event>,
    started: bool,
    failures: u32,
    interval: Duration,
    min_interval: Duration,
    in_flight: bool,
    last_ok: Option<Instant>,
}

/// First retry delay after a failed announce.
pub const RETRY_FIRST: Duration = Duration::from_secs(15);
/// Longest retry delay.
pub const RETRY_MAX: Duration = Duration::from_secs(30 * 60);

impl Announcer {
    /// An announcer whose first announce (`started`) is due at `now`.
    pub fn new(now: Instant) -> Self {
        Self {
            next: now,
            pending: Some(Event::Started),
            started: false,
            failures: 0,
            interval: Duration::from_secs(1800),
            min_interval: Duration::ZERO,
            in_flight: false,
            last_ok: None,
        }
    }

    /// When the next announce is due (None while one is in flight).
    pub fn next_at(&self) -> Option<Instant> {
        (!self.in_flight).then_some(self.next)
    }

    /// The announce to make now, if one is due; marks it in flight.
    pub fn poll(&mut self, now: Instant) -> Option<Event> {
        if self.in_flight || now < self.next {
            return None;
        }
        self.in_flight = true;
        Some(self.pending.unwrap_or(Event::Periodic))
    }

    /// The download completed: announce `completed` as soon as allowed.
    pub fn completed(&mut self, now: Instant) {
        if !self.started {
            // `started` has not gone through yet; it will say left=0 itself.
            return;
        }
        self.pending = Some(Event::Completed);
        let earliest = self
            .last_ok
            .map_or(now, |t| (t + self.min_interval).max(now));
        if earliest < self.next {
            self.next = earliest;
        }
    }

    /// The announce made at `now` succeeded, with the tracker's intervals.
    pub fn on_success(&mut self, now: Instant, reply: &AnnounceReply) {
        self.in_flight = false;
        self.started = true;
        self.pending = None;
        self.failures = 0;
        self.last_ok = Some(now);
        self.min_interval = reply.min_interval.unwrap_or(Duration::ZERO);
        self.interval = reply
            .interval
            .max(self.min_interval)
            .max(Duration::from_secs(1));
        self.next = now + self.interval;
    }

    /// The announce made at `now` failed: retry later, same event. Returns the delay.
    pub fn on_failure(&mut self, now: Instant) -> Duration {
        self.in_flight = false;
        let shift = self.failures.min(16);
        self.failures += 1;
        let d =
            Duration::from_nanos(RETRY_FIRST.as_nanos().saturating_mul(1 << shift)).min(RETRY_MAX);
        self.next = now + d;
        d
    }

    /// Whether `started` went through (only then is a `stopped` worth sending).
    pub fn has_started(&self) -> bool {
        self.started
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(interval: u64) -> AnnounceReply {
        AnnounceReply {
            interval: Duration::from_secs(interval),
            min_interval: None,
            peers: Vec::new(),
            complete: None,
            incomplete: None,
            warning: None,
        }
    }

    #[test]
    fn url_parts() {
        let u = TrackerUrl::parse("http://10.0.0.1:6969/announce").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("10.0.0.1", 6969, "/announce")
        );
        let u = TrackerUrl::parse("http://tr.example/a?key=1").unwrap();
        assert_eq!((u.port, u.path.as_str()), (80, "/a?key=1"));
        let u = TrackerUrl::parse("http://[::1]:8080/x").unwrap();
        assert_eq!((u.host.as_str(), u.port), ("::1", 8080));
        assert!(TrackerUrl::parse("udp://x:1/").is_err());
        assert!(TrackerUrl::parse("http://:1/").is_err());
        assert!(TrackerUrl::parse("http://x:99999/").is_err());
    }

    #[test]
    fn ipv6_literals_without_a_port_take_port_80() {
        let u = TrackerUrl::parse("http://[::1]/announce").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("::1", 80, "/announce")
        );
        let u = TrackerUrl::parse("http://[2001:db8::7]:6969").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("2001:db8::7", 6969, "/")
        );
    }

    #[test]
    fn unusable_urls_are_refused_with_the_reason() {
        let reason = |s: &str| TrackerUrl::parse(s).unwrap_err().to_string();
        assert!(reason("https://t.example/a").contains("only http://"));
        assert!(reason("http://user:pw@t.example/a").contains("user name"));
        assert!(reason("http://t.example/a#x").contains("fragment"));
        assert!(
            reason("http://[::1/a").contains("http://[::1/a"),
            "{}",
            reason("http://[::1/a")
        );
        assert!(reason("not a url").contains("not a url"));
    }

    #[test]
    fn target_encodes_binary_ids_and_appends_to_a_query() {
        let a = Announce {
            info_hash: [0xab; 20],
            peer_id: *b"-LB0100-abcdefghij.~",
            port: 6881,
            uploaded: 1,
            downloaded: 2,
            left: 3,
            event: Event::Started,
            numwant: 50,
        };
        let u = TrackerUrl::parse("http://h/ann?k=v").unwrap();
        let t = a.target(&u);
        assert!(t.starts_with("/ann?k=v&info_hash=%AB%AB"), "{t}");
        assert!(t.contains("&peer_id=-LB0100-abcdefghij.~&port=6881&uploaded=1&downloaded=2&left=3&compact=1&numwant=50&event=started"), "{t}");
        let p = Announce {
            event: Event::Periodic,
            ..a
        };
        assert!(!p.target(&u).contains("event="));
    }

    #[test]
    fn compact_and_dictionary_peer_lists() {
        let body = b"d8:intervali900e12:min intervali60e5:peers12:\x0a\x00\x00\x01\x1a\xe1\x0a\x00\x00\x02\x00\x50e";
        let r = parse_reply(body).unwrap();
        assert_eq!(r.interval, Duration::from_secs(900));
        assert_eq!(r.min_interval, Some(Duration::from_secs(60)));
        assert_eq!(
            r.peers,
            vec![
                "10.0.0.1:6881".parse().unwrap(),
                "10.0.0.2:80".parse().unwrap()
            ]
        );
        let body = b"d8:intervali30e5:peersld2:ip8:10.0.0.74:porti7eeee";
        assert_eq!(
            parse_reply(body).unwrap().peers,
            vec!["10.0.0.7:7".parse().unwrap()]
        );
    }

    #[test]
    fn failures_and_garbage_name_what_is_wrong() {
        let e = parse_reply(b"d14:failure reason9:not knowne").unwrap_err();
        assert_eq!(e.to_string(), "tracker refused: not known");
        let e = parse_reply(b"d8:intervali9e5:peers5:abcdee").unwrap_err();
        assert!(
            e.to_string()
                .contains("`peers`: 5 bytes is not a multiple of 6"),
            "{e}"
        );
        let e = parse_reply(b"d5:peers0:e").unwrap_err();
        assert!(e.to_string().contains("`interval`: missing"), "{e}");
        let e = parse_reply(b"<html>oops</html>").unwrap_err();
        assert!(e.to_string().contains("not bencode"), "{e}");
    }

    #[test]
    fn http_status_and_length_are_checked() {
        assert_eq!(
            parse_http(b"HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabcdef").unwrap(),
            b"abc"
        );
        assert_eq!(parse_http(b"HTTP/1.1 200 OK\r\n\r\nxyz").unwrap(), b"xyz");
        let e = parse_http(b"HTTP/1.0 404 Not Found\r\n\r\n").unwrap_err();
        assert!(e.to_string().contains("404"), "{e}");
        assert!(parse_http(b"HTTP/1.0 200 OK\r\nContent-Length: 9\r\n\r\nab").is_err());
        assert!(parse_http(b"SSH-2.0-x\r\n\r\n").is_err());
        assert!(parse_http(b"HTTP/1.0 200 OK\r\n").is_err());
    }

    /// Found by the fuzz target `tracker`: an interval of about 8 x 10^18 s overflowed.
    #[test]
    fn huge_intervals_are_cut_to_a_day() {
        let r = parse_reply(
            b"d8:intervali8198552921648689607e12:min intervali18446744073709551615e5:peers0:e",
        )
        .unwrap();
        assert_eq!(r.interval, Duration::from_secs(MAX_INTERVAL_S));
        assert_eq!(r.min_interval, Some(Duration::from_secs(MAX_INTERVAL_S)));
    }

    #[test]
    fn schedule_started_then_interval_then_completed() {
        let t = Instant::from_secs;
        let mut a = Announcer::new(t(0));
        assert_eq!(a.poll(t(0)), Some(Event::Started));
        assert_eq!(a.poll(t(0)), None, "one in flight at a time");
        a.on_success(t(1), &reply(900));
        assert_eq!(a.next_at(), Some(t(901)));
        assert_eq!(a.poll(t(900)), None);
        a.completed(t(100));
        assert_eq!(a.poll(t(100)), Some(Event::Completed));
        a.on_success(t(100), &reply(900));
        assert_eq!(a.poll(t(1000)), Some(Event::Periodic));
    }

    #[test]
    fn failures_back_off_from_15_s_doubling_to_30_min() {
        let t = Instant::from_secs;
        let mut a = Announcer::new(t(0));
        let mut delays = Vec::new();
        for _ in 0..10 {
            let now = a.next_at().unwrap();
            assert_eq!(a.poll(now), Some(Event::Started), "the event is kept");
            delays.push(a.on_failure(now).as_secs_f64() as u64);
        }
        assert_eq!(delays, [15, 30, 60, 120, 240, 480, 960, 1800, 1800, 1800]);
    }

    #[test]
    fn min_interval_is_respected() {
        let t = Instant::from_secs;
        let mut a = Announcer::new(t(0));
        a.poll(t(0));
        let mut r = reply(10);
        r.min_interval = Some(Duration::from_secs(120));
        a.on_success(t(0), &r);
        assert_eq!(a.next_at(), Some(t(120)));
    }

    proptest::proptest! {
        /// The fuzz target's body (`fuzz/fuzz_targets/tracker.rs`) on stable.
        #[test]
        fn tracker_answers_never_panic(
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            prefix in proptest::prop_oneof![
                proptest::strategy::Just(&b""[..]),
                proptest::strategy::Just(&b"HTTP/1.0 200 OK\r\n\r\n"[..]),
                proptest::strategy::Just(&b"d8:intervali5e5:peers"[..]),
            ],
        ) {
            let mut raw = prefix.to_vec();
            raw.extend_from_slice(&data);
            let body = parse_http(&raw).unwrap_or(&raw);
            if let Ok(r) = parse_reply(body) {
                proptest::prop_assert!(!r.interval.is_zero());
                proptest::prop_assert!(r.peers.iter().all(|p| p.port() != 0));
            }
        }
    }

    #[tokio::test]
    async fn one_exchange_over_a_pipe() {
        let (mut srv, cli) = tokio::io::duplex(4096);
        let server = tokio::spawn(async move {
            let mut req = vec![0u8; 1024];
            let n = srv.read(&mut req).await.unwrap();
            let req = String::from_utf8_lossy(&req[..n]).into_owned();
            srv.write_all(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nd8:intervali60e5:peers6:\x7f\x00\x00\x01\x00\x07e")
                .await
                .unwrap();
            drop(srv);
            req
        });
        let u = TrackerUrl::parse("http://127.0.0.1:6969/announce").unwrap();
        let a = Announce {
            info_hash: [1; 20],
            peer_id: [b'a'; 20],
            port: 1,
            uploaded: 0,
            downloaded: 0,
            left: 10,
            event: Event::Started,
            numwant: 50,
        };
        let r = announce_over(cli, &u, &a).await.unwrap();
        assert_eq!(r.peers, vec!["127.0.0.1:7".parse().unwrap()]);
        let req = server.await.unwrap();
        assert!(req.starts_with("GET /announce?info_hash=%01"), "{req}");
        assert!(req.contains("Host: 127.0.0.1:6969\r\n"), "{req}");
    }
}
