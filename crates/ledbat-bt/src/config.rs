//! Peer configuration: pipeline depth, request-queue limit and the protocol timers.

use ledbat_core::{ConfigError, Duration};

const NAME: &str = "bt peer";

/// How a BitTorrent peer behaves on each connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerConfig {
    /// Most outstanding block requests per connection. Default 64 blocks (1 MiB), enough
    /// for 80 Mbit/s at a 100 ms RTT; libtorrent caps its own queue at 500
    /// (`max_out_request_queue`).
    pub pipeline: usize,
    /// Requests outstanding cover this long at the rate the peer delivers (at least 4
    /// blocks, at most `pipeline`). Default 3 s, libtorrent's `request_queue_time`: on a
    /// 1 Mbit/s uplink shared by 5 downloaders, 3 s are about 5 blocks, so blocks are not
    /// queued for half a minute at one slow peer while others sit idle.
    pub request_queue_time: Duration,
    /// Requests from a peer queued for upload before further ones are refused. Default
    /// 500, the `reqq` Transmission announces.
    pub max_queued_requests: usize,
    /// A keep-alive is sent after this long without sending anything. Default 60 s, half
    /// of the two minutes BEP 3 gives as the usual keep-alive period, so that peers using a
    /// 120 s inactivity timeout (libtorrent's `peer_timeout`) never drop us.
    pub keepalive_interval: Duration,
    /// The connection is dropped after this long without receiving anything. Default
    /// 150 s: more than the 120 s keep-alive period of BEP 3.
    pub idle_timeout: Duration,
    /// With requests outstanding and no block received for this long, the requests are
    /// cancelled and the blocks picked again. Default 60 s (libtorrent's
    /// `request_timeout`).
    pub request_timeout: Duration,
    /// The peer must complete the handshake within this. Default 10 s (libtorrent's
    /// `handshake_timeout`).
    pub handshake_timeout: Duration,
    /// On a clean close, how long to wait for the peer to close its side after ours.
    /// Default 2 s.
    pub close_grace: Duration,
}

impl Default for PeerConfig {
    fn default() -> Self {
        Self {
            pipeline: 64,
            request_queue_time: Duration::from_secs(3),
            max_queued_requests: 500,
            keepalive_interval: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(150),
            request_timeout: Duration::from_secs(60),
            handshake_timeout: Duration::from_secs(10),
            close_grace: Duration::from_secs(2),
        }
    }
}

impl PeerConfig {
    /// Sets [`PeerConfig::pipeline`].
    pub fn pipeline(mut self, n: usize) -> Self {
        self.pipeline = n;
        self
    }
    /// Sets [`PeerConfig::request_queue_time`].
    pub fn request_queue_time(mut self, d: Duration) -> Self {
        self.request_queue_time = d;
        self
    }
    /// Sets [`PeerConfig::max_queued_requests`].
    pub fn max_queued_requests(mut self, n: usize) -> Self {
        self.max_queued_requests = n;
        self
    }
    /// Sets [`PeerConfig::keepalive_interval`].
    pub fn keepalive_interval(mut self, d: Duration) -> Self {
        self.keepalive_interval = d;
        self
    }
    /// Sets [`PeerConfig::idle_timeout`].
    pub fn idle_timeout(mut self, d: Duration) -> Self {
        self.idle_timeout = d;
        self
    }
    /// Sets [`PeerConfig::request_timeout`].
    pub fn request_timeout(mut self, d: Duration) -> Self {
        self.request_timeout = d;
        self
    }
    /// Sets [`PeerConfig::handshake_timeout`].
    pub fn handshake_timeout(mut self, d: Duration) -> Self {
        self.handshake_timeout = d;
        self
    }
    /// Sets [`PeerConfig::close_grace`].
    pub fn close_grace(mut self, d: Duration) -> Self {
        self.close_grace = d;
        self
    }

    /// Refuses nonsense, naming the field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=4096).contains(&self.pipeline) {
            return Err(ConfigError::new(
                NAME,
                "pipeline",
                format!("must be in 1..=4096 blocks, got {}", self.pipeline),
            ));
        }
        if self.max_queued_requests == 0 {
            return Err(ConfigError::new(
                NAME,
                "max_queued_requests",
                "must be at least 1",
            ));
        }
        ledbat_core::error::nonzero(NAME, "keepalive_interval", self.keepalive_interval)?;
        ledbat_core::error::nonzero(NAME, "idle_timeout", self.idle_timeout)?;
        ledbat_core::error::nonzero(NAME, "handshake_timeout", self.handshake_timeout)?;
        ledbat_core::error::nonzero(NAME, "request_timeout", self.request_timeout)?;
        ledbat_core::error::nonzero(NAME, "request_queue_time", self.request_queue_time)?;
        if self.keepalive_interval >= self.idle_timeout {
            return Err(ConfigError::new(
                NAME,
                "keepalive_interval",
                "must be shorter than idle_timeout",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        PeerConfig::default().validate().unwrap();
    }

    #[test]
    fn zero_pipeline_names_the_field() {
        let e = PeerConfig::default().pipeline(0).validate().unwrap_err();
        assert_eq!(e.field, "pipeline");
    }

    #[test]
    fn keepalive_must_precede_idle_timeout() {
        let e = PeerConfig::default()
            .keepalive_interval(Duration::from_secs(200))
            .validate()
            .unwrap_err();
        assert_eq!(e.field, "keepalive_interval");
    }
}
