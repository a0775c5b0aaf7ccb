//! A peer's message bodies on arbitrary bytes: BEP 3 / BEP 6 / BEP 10 decoding never
//! panics, what decodes re-encodes to the same message, and an extended handshake is
//! read without panicking whatever it holds.
#![no_main]

use ledbat_bt_proto::wire::{parse_ext_handshake, Message};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = Message::decode(data) {
        if !matches!(m, Message::Unknown { .. }) {
            let b = m.encode();
            assert_eq!(Message::decode(&b[4..]).as_ref(), Ok(&m));
        }
        if let Message::Extended { id: 0, payload } = &m {
            let _ = parse_ext_handshake(payload);
        }
    }
    let _ = parse_ext_handshake(data);
});
