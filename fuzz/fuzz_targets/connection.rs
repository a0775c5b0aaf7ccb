//! The connection state machine fed arbitrary datagrams (some patched to carry live
//! connection ids) interleaved with time steps, writes and reads: never a panic, and the
//! bookkeeping invariants hold after every operation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ledbat_utp::harness::fuzz_exchange(data);
});
