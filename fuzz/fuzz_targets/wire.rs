//! A peer's byte stream as a connection reads it: the 68-byte BEP 3 handshake, then
//! length-prefixed frames (BEP 3, BEP 6, BEP 10) bounded by the frame limit. Decoding never
//! panics; a handshake or a message that decodes re-encodes to the same bytes or value; a
//! bitfield that is accepted round-trips; an extended handshake is read whatever it holds.
#![no_main]

use ledbat_bt::wire::{max_frame_len, parse_ext_handshake, Handshake, Message, HANDSHAKE_LEN};
use ledbat_bt::Bitfield;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    if let Some((hs, tail)) = data.split_first_chunk::<HANDSHAKE_LEN>() {
        if let Ok(h) = Handshake::decode(hs) {
            assert_eq!(&h.encode(), hs);
            rest = tail;
        }
    }
    // A frame limit as a torrent of 2^16 pieces has it (a 16 KiB block and its header).
    let limit = max_frame_len(1 << 16) as usize;
    while let Some((len, tail)) = rest.split_first_chunk::<4>() {
        let len = u32::from_be_bytes(*len) as usize;
        if len > limit || len > tail.len() {
            break;
        }
        let (body, tail) = tail.split_at(len);
        rest = tail;
        let Ok(m) = Message::decode(body) else {
            continue;
        };
        if !matches!(m, Message::Unknown { .. }) {
            let b = m.encode();
            assert_eq!(Message::decode(&b[4..]).as_ref(), Ok(&m));
        }
        match &m {
            Message::Extended { id: 0, payload } => {
                let _ = parse_ext_handshake(payload);
            }
            Message::Bitfield(b) => {
                // A piece count that leaves 0..=7 spare bits in the last byte.
                let n = (b.len() * 8).saturating_sub(len % 8) as u32;
                if let Ok(f) = Bitfield::from_wire(b, n) {
                    assert_eq!(f.as_bytes(), &b[..]);
                    assert_eq!(f.len(), n);
                }
            }
            _ => {}
        }
    }
});
