//! A kernel-TCP trace (`ledbat tcp trace`'s file, and the ring-buffer records it is written
//! from) on arbitrary bytes: parsing never panics, and replaying whatever parses through
//! ledbat-core (`ledbat tcp check`) never panics either: every connection it reports
//! replayed no more events than the trace holds.
#![no_main]

use ledbat_tcp::params::TcpController;
use ledbat_tcp::trace::{check, parse, Record, RECORD_SIZE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // the file: a header line, then one JSON record per line
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok((head, records)) = parse(text) {
            for c in check(&head.controller, &records, 1e-3) {
                assert!(c.events < records.len() as u64);
            }
        }
    }
    // the ring buffer's binary records, replayed as the first controller would
    let records: Vec<Record> = data.chunks(RECORD_SIZE).filter_map(Record::decode).collect();
    let c = TcpController::parse("scavenger", std::iter::empty()).expect("the preset parses");
    for r in check(&c, &records, 1e-3) {
        assert!(r.events < records.len() as u64);
    }
});
