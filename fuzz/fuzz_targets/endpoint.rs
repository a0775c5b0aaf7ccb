//! A uTP endpoint fed datagram sequences from up to four peers, with time passing and the
//! application accepting, reading, writing and releasing (`ledbat_utp::replay`, whose seed
//! corpus is captures of libtorrent, Transmission and qBittorrent rebased onto our ids):
//! never a panic, and every connection's invariants hold after every step.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ledbat_utp::replay::replay(data);
});
