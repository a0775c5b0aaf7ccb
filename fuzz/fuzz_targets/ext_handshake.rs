//! A BEP 10 extended handshake (the payload after extended id 0) on arbitrary bytes:
//! reading it never panics, and what it yields is in range (a port is never 0).
#![no_main]

use ledbat_bt_proto::wire::{parse_ext_handshake, MAX_EXT_HANDSHAKE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(h) = parse_ext_handshake(data) {
        assert!(data.len() <= MAX_EXT_HANDSHAKE);
        assert_ne!(h.port, Some(0));
    }
});
