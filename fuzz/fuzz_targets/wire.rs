//! A peer's byte stream as a connection reads it: the 68-byte BEP 3 handshake, then
//! length-prefixed frames (BEP 3, BEP 6, BEP 10) bounded by the frame limit
//! (`ledbat_bt_proto::wire::fuzz_decode`, also a property test). Decoding never panics; a
//! handshake or a message that decodes re-encodes to the same bytes or value; a bitfield
//! that is accepted round-trips; an extended handshake is read whatever it holds.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ledbat_bt_proto::wire::fuzz_decode(data);
});
