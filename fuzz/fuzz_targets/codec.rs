//! The BEP 29 codec on arbitrary bytes: decoding never panics, and whatever decodes
//! re-encodes (selective ACK kept, unknown extensions dropped) to a packet that decodes to
//! the same header, selective ACK and payload.
#![no_main]

use ledbat_utp::packet::{decode, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = decode(data) {
        let sack = p.sack.map(|s| s.0).unwrap_or(&[]);
        let mut out = Vec::new();
        encode(&p.header, sack, p.payload, &mut out);
        let q = decode(&out).expect("our own encoding decodes");
        assert_eq!(q.header, p.header);
        assert_eq!(q.sack, p.sack);
        assert_eq!(q.payload, p.payload);
    }
});
