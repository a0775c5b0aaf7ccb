//! A `.torrent` file (BEP 3 metainfo) on arbitrary bytes: parsing never panics, and a
//! torrent that parses is self-consistent: its files add up to its length, its pieces
//! cover that length exactly, and every name is a plain path component.
#![no_main]

use ledbat_bt::Metainfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = Metainfo::from_bytes(data) else {
        return;
    };
    let total: u64 = m.files.iter().map(|f| f.length).sum();
    assert_eq!(total, m.total_length);
    let n = m.num_pieces();
    assert!(n >= 1);
    let last = m.piece_len(n - 1);
    assert!(last >= 1 && last <= m.piece_length);
    assert_eq!(
        (n as u64 - 1) * m.piece_length as u64 + last as u64,
        m.total_length
    );
    let plain = |s: &str| !s.is_empty() && s != "." && s != ".." && !s.contains(['/', '\\', '\0']);
    assert!(plain(&m.name));
    assert!(m.files.iter().all(|f| f.path.iter().all(|c| plain(c))));
});
