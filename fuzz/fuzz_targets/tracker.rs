//! A tracker's HTTP answer on arbitrary bytes: splitting status, headers and body, then
//! the bencoded announce reply, never panics; a reply that parses has a non-zero interval
//! and no peer on port 0.
#![no_main]

use ledbat_bt::tracker::{parse_http, parse_reply};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let body = parse_http(data).unwrap_or(data);
    if let Ok(r) = parse_reply(body) {
        assert!(!r.interval.is_zero());
        assert!(r.peers.iter().all(|p| p.port() != 0));
    }
});
