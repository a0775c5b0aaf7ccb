//! Bencode from strangers: the one way it is decoded (extended handshakes here; torrents
//! and tracker answers in `ledbat-bt`).
//!
//! `bt_bencode` (0.8.2) does the decoding, but two inputs break it, both found by the fuzz
//! targets `metainfo` and `ext_handshake` (docs/fuzzing.md): a byte string whose length
//! prefix is close to `usize::MAX` (`18446744073709551615:`) overflows its read offset
//! (a panic; in a build without overflow checks, a slice index panic), and lists or
//! dictionaries nested a few thousand deep recurse until the stack overflows (a
//! segmentation fault that takes the whole process down: 8,000 levels fit in the 16 KiB an
//! extended handshake may hold, and exceed a tokio worker's 2 MiB stack). So every input is
//! first walked by [`check`], iteratively and in bounded memory: each byte-string length
//! must fit in what remains, and nesting must stay within [`MAX_DEPTH`]. Whatever else is
//! wrong is left to `bt_bencode`, which reports it.

/// Deepest nesting of lists and dictionaries accepted. Real torrents nest 4 levels
/// (`info.files[i].path[j]`), tracker answers 3, extended handshakes 2.
pub const MAX_DEPTH: usize = 64;

/// Why bytes were refused before decoding.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BencodeError {
    /// A byte string claims more bytes than follow.
    #[error("byte string at byte {offset} claims {claimed} bytes; {left} follow")]
    StringTooLong {
        /// Where its length prefix starts.
        offset: usize,
        /// The length it claims (saturated at `u64::MAX`).
        claimed: u64,
        /// Bytes after its `:`.
        left: usize,
    },
    /// Lists and dictionaries nested deeper than [`MAX_DEPTH`].
    #[error("lists and dictionaries nested more than {MAX_DEPTH} deep at byte {0}")]
    TooDeep(usize),
    /// `bt_bencode` refused it.
    #[error("{0}")]
    Decode(String),
}

/// Walks `b` and refuses the two inputs `bt_bencode` cannot survive (module documentation).
/// Stops quietly at the first byte that is not bencode: the decoder reports that one.
pub fn check(b: &[u8]) -> Result<(), BencodeError> {
    let mut depth = 0usize;
    let mut i = 0usize;
    while i < b.len() {
        match b[i] {
            b'l' | b'd' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(BencodeError::TooDeep(i));
                }
                i += 1;
            }
            b'e' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'i' => match b[i..].iter().position(|&c| c == b'e') {
                Some(k) => i += k + 1,
                None => return Ok(()),
            },
            b'0'..=b'9' => {
                let start = i;
                let mut len: u64 = 0;
                while i < b.len() && b[i].is_ascii_digit() {
                    len = len
                        .saturating_mul(10)
                        .saturating_add(u64::from(b[i] - b'0'));
                    i += 1;
                }
                if i >= b.len() || b[i] != b':' {
                    return Ok(());
                }
                i += 1;
                let left = b.len() - i;
                if len > left as u64 {
                    return Err(BencodeError::StringTooLong {
                        offset: start,
                        claimed: len,
                        left,
                    });
                }
                i += len as usize;
            }
            _ => return Ok(()),
        }
    }
    Ok(())
}

/// Decodes untrusted bencode into `T`, after [`check`].
pub fn from_slice<'a, T: serde::Deserialize<'a>>(b: &'a [u8]) -> Result<T, BencodeError> {
    check(b)?;
    bt_bencode::from_slice(b).map_err(|e| BencodeError::Decode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt_bencode::Value;

    #[test]
    fn a_string_longer_than_the_input_is_refused_before_decoding() {
        // The fuzz target `ext_handshake`'s crash: the length overflowed bt_bencode's offset.
        let b = b"d1:v18446744073709551615:xxxxe";
        assert_eq!(
            from_slice::<Value>(b).unwrap_err(),
            BencodeError::StringTooLong {
                offset: 4,
                claimed: u64::MAX,
                left: 5
            }
        );
        // Beyond u64 the length saturates instead of wrapping.
        assert!(matches!(
            check(b"99999999999999999999999:x"),
            Err(BencodeError::StringTooLong {
                claimed: u64::MAX,
                ..
            })
        ));
        assert!(matches!(
            check(b"4:abc"),
            Err(BencodeError::StringTooLong {
                claimed: 4,
                left: 3,
                ..
            })
        ));
    }

    #[test]
    fn nesting_past_the_limit_is_refused_and_at_it_decodes() {
        // The fuzz target `metainfo`'s crash: deep nesting overflowed the stack.
        let deep = |n: usize| [vec![b'l'; n], vec![b'e'; n]].concat();
        assert_eq!(
            from_slice::<Value>(&deep(8000)).unwrap_err(),
            BencodeError::TooDeep(MAX_DEPTH)
        );
        assert!(from_slice::<Value>(&deep(MAX_DEPTH)).is_ok());
        // Strings and integers inside do not count as nesting, and a string may hold
        // brackets.
        assert!(check(b"d3:key5:lllllli-3ee").is_ok());
    }

    #[test]
    fn ordinary_bencode_passes_and_other_faults_are_the_decoders() {
        let v: Value = from_slice(b"d1:md11:ut_metadatai2ee1:pi6881ee").unwrap();
        assert!(v.as_dict().is_some());
        assert!(matches!(
            from_slice::<Value>(b"d1:p"),
            Err(BencodeError::Decode(_))
        ));
        assert!(matches!(
            from_slice::<Value>(b"x"),
            Err(BencodeError::Decode(_))
        ));
    }

    proptest::proptest! {
        #[test]
        fn check_never_panics(b in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let _ = check(&b);
        }
    }
}
