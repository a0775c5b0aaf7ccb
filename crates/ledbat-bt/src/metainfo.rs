//! v1 metainfo (`.torrent`) files, BEP 3: parsing and creation.
//!
//! The info-hash is the SHA-1 of the `info` value exactly as it appears in the file (its
//! raw bencoded bytes, not a re-encoding). `pieces` concatenates the 20-byte SHA-1 of every
//! piece; all pieces are `piece length` bytes except the last. A single-file torrent has
//! `length`; a multi-file torrent has `files`, each with `length` and `path` (a list of
//! components), laid end to end in list order. BEP 47 pad files and v2 (BEP 52) metadata are
//! refused with a clear error: this peer speaks v1 only.
//!
//! Names and path components come from untrusted files, so each must be a plain component
//! (no `/`, `\`, NUL, `.` or `..`, not empty) before it is ever joined to a directory.

use bt_bencode::value::Number;
use bt_bencode::{ByteString, Value};
use ledbat_bt_proto::wire::Sha1Digest;
use sha1::{Digest, Sha1};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Smallest piece length accepted, one block (BEP 3 block size).
pub const MIN_PIECE_LEN: u32 = ledbat_bt_proto::BLOCK_LEN;
/// Largest piece length accepted (64 MiB; libtorrent's `create_torrent` stops at 16 MiB
/// by default, larger pieces only cost memory here).
pub const MAX_PIECE_LEN: u32 = 64 * 1024 * 1024;

/// One file of the torrent, in piece order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEntry {
    /// Path components below the torrent's `name` (empty for a single-file torrent).
    pub path: Vec<String>,
    /// Length in bytes.
    pub length: u64,
}

/// A parsed v1 torrent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metainfo {
    /// SHA-1 of the raw `info` dictionary.
    pub info_hash: Sha1Digest,
    /// Suggested file or directory name.
    pub name: String,
    /// Bytes per piece (all but the last).
    pub piece_length: u32,
    /// SHA-1 of every piece.
    pub pieces: Vec<Sha1Digest>,
    /// The files, in the order their bytes are laid out.
    pub files: Vec<FileEntry>,
    /// Whether the torrent is single-file (`length`) rather than multi-file (`files`).
    pub single_file: bool,
    /// Sum of file lengths.
    pub total_length: u64,
    /// Tracker URLs, in the order to try them: `announce-list` flattened tier by tier
    /// (BEP 12) when present, else `announce`; empty for a trackerless torrent.
    pub trackers: Vec<String>,
}

/// Why a metainfo file was refused or could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MetainfoError {
    /// Not bencode.
    #[error("not a bencoded torrent: {0}")]
    Bencode(String),
    /// A field is missing or wrong.
    #[error("field `{field}`: {reason}")]
    Field {
        /// Dotted field name, for example `info.piece length`.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// Reading the data to hash failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

fn field(field: impl Into<String>, reason: impl Into<String>) -> MetainfoError {
    MetainfoError::Field {
        field: field.into(),
        reason: reason.into(),
    }
}

/// Checks that `s` is safe to use as one path component.
fn check_component(name: &str, s: &str) -> Result<(), MetainfoError> {
    if s.is_empty() || s == "." || s == ".." || s.contains(['/', '\\', '\0']) {
        return Err(field(
            name,
            format!("`{s}` is not a plain file name component"),
        ));
    }
    Ok(())
}

fn get<'a>(d: &'a BTreeMap<ByteString, Value>, key: &str) -> Option<&'a Value> {
    d.get(key.as_bytes())
}

fn get_u64(d: &BTreeMap<ByteString, Value>, key: &str, name: &str) -> Result<u64, MetainfoError> {
    get(d, key)
        .ok_or_else(|| field(name, "missing"))?
        .as_u64()
        .ok_or_else(|| field(name, "not a non-negative integer"))
}

fn get_str(
    d: &BTreeMap<ByteString, Value>,
    key: &str,
    name: &str,
) -> Result<String, MetainfoError> {
    // BEP 3 strings are UTF-8; `name.utf-8` style alternates are not consulted.
    get(d, key)
        .ok_or_else(|| field(name, "missing"))?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| field(name, "not a UTF-8 string"))
}

impl Metainfo {
    /// Parses a `.torrent` file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, MetainfoError> {
        #[derive(serde::Deserialize)]
        struct Outer {
            info: ByteString,
            announce: Option<ByteString>,
            #[serde(rename = "announce-list")]
            announce_list: Option<Vec<Vec<ByteString>>>,
        }
        let outer: Outer = ledbat_bt_proto::bencode::from_slice(bytes)
            .map_err(|e| MetainfoError::Bencode(e.to_string()))?;
        let utf8 = |b: ByteString, name: &str| {
            String::from_utf8(b.into_vec()).map_err(|_| field(name, "not a UTF-8 string"))
        };
        let trackers = match (outer.announce_list, outer.announce) {
            (Some(tiers), _) if tiers.iter().any(|t| !t.is_empty()) => tiers
                .into_iter()
                .flatten()
                .map(|u| utf8(u, "announce-list"))
                .collect::<Result<Vec<_>, _>>()?,
            (_, Some(u)) => vec![utf8(u, "announce")?],
            _ => Vec::new(),
        };
        let raw_info = outer.info.into_vec();
        let info_hash: Sha1Digest = Sha1::digest(&raw_info).into();
        let info: Value = ledbat_bt_proto::bencode::from_slice(&raw_info)
            .map_err(|e| field("info", format!("not bencode: {e}")))?;
        let d = info
            .as_dict()
            .ok_or_else(|| field("info", "not a dictionary"))?;

        let name = get_str(d, "name", "info.name")?;
        check_component("info.name", &name)?;
        let piece_length = get_u64(d, "piece length", "info.piece length")?;
        if !(MIN_PIECE_LEN as u64..=MAX_PIECE_LEN as u64).contains(&piece_length) {
            return Err(field(
                "info.piece length",
                format!("{piece_length} is outside {MIN_PIECE_LEN}..={MAX_PIECE_LEN}"),
            ));
        }
        let piece_length = piece_length as u32;
        let Some(pieces) = get(d, "pieces") else {
            if get(d, "file tree").is_some() {
                return Err(field(
                    "info.pieces",
                    "missing: this is a v2-only torrent (BEP 52); only v1 is supported",
                ));
            }
            return Err(field("info.pieces", "missing"));
        };
        let pieces = pieces
            .as_byte_str()
            .ok_or_else(|| field("info.pieces", "not a byte string"))?;
        if pieces.len() % 20 != 0 {
            return Err(field(
                "info.pieces",
                format!("{} bytes is not a multiple of 20", pieces.len()),
            ));
        }
        let pieces: Vec<Sha1Digest> = pieces
            .chunks_exact(20)
            .map(|c| c.try_into().expect("chunks of 20"))
            .collect();

        let (files, single_file) = match (get(d, "length"), get(d, "files")) {
            (Some(_), Some(_)) => {
                return Err(field("info", "has both `length` and `files`"));
            }
            (Some(_), None) => (
                vec![FileEntry {
                    path: Vec::new(),
                    length: get_u64(d, "length", "info.length")?,
                }],
                true,
            ),
            (None, Some(list)) => {
                let list = list
                    .as_list()
                    .ok_or_else(|| field("info.files", "not a list"))?;
                if list.is_empty() {
                    return Err(field("info.files", "empty"));
                }
                let mut files = Vec::with_capacity(list.len());
                for (i, f) in list.iter().enumerate() {
                    let at = format!("info.files[{i}]");
                    let fd = f.as_dict().ok_or_else(|| field(&at, "not a dictionary"))?;
                    if let Some(attr) = get(fd, "attr").and_then(Value::as_byte_str) {
                        if attr.contains(&b'p') {
                            return Err(field(
                                format!("{at}.attr"),
                                "BEP 47 pad files are not supported (make a v1-only torrent)",
                            ));
                        }
                    }
                    let length = get_u64(fd, "length", &format!("{at}.length"))?;
                    let comps = get(fd, "path")
                        .ok_or_else(|| field(format!("{at}.path"), "missing"))?
                        .as_list()
                        .ok_or_else(|| field(format!("{at}.path"), "not a list"))?;
                    if comps.is_empty() {
                        return Err(field(format!("{at}.path"), "empty"));
                    }
                    let mut path = Vec::with_capacity(comps.len());
                    for c in comps {
                        let s = c
                            .as_str()
                            .ok_or_else(|| field(format!("{at}.path"), "not a UTF-8 string"))?;
                        check_component(&format!("{at}.path"), s)?;
                        path.push(s.to_owned());
                    }
                    files.push(FileEntry { path, length });
                }
                (files, false)
            }
            (None, None) => return Err(field("info", "has neither `length` nor `files`")),
        };
        let mut total_length: u64 = 0;
        for f in &files {
            total_length = total_length
                .checked_add(f.length)
                .ok_or_else(|| field("info", "total length overflows"))?;
        }
        let expected = total_length.div_ceil(piece_length as u64);
        if total_length == 0 {
            return Err(field("info", "total length is zero"));
        }
        if expected != pieces.len() as u64 {
            return Err(field(
                "info.pieces",
                format!(
                    "{} hashes for {total_length} bytes in pieces of {piece_length} (expected {expected})",
                    pieces.len()
                ),
            ));
        }
        if expected > u32::MAX as u64 {
            return Err(field("info.pieces", "more than 2^32 pieces"));
        }
        Ok(Self {
            info_hash,
            name,
            piece_length,
            pieces,
            files,
            single_file,
            total_length,
            trackers,
        })
    }

    /// The torrent's pieces and 16 KiB blocks.
    pub fn layout(&self) -> ledbat_bt_proto::Layout {
        ledbat_bt_proto::Layout::with_standard_blocks(self.total_length, self.piece_length)
            .expect("a parsed torrent has a positive length and piece length")
    }

    /// Number of pieces.
    pub fn num_pieces(&self) -> u32 {
        self.pieces.len() as u32
    }

    /// Length of piece `index` (the last one may be short).
    pub fn piece_len(&self, index: u32) -> u32 {
        let start = index as u64 * self.piece_length as u64;
        (self.total_length - start).min(self.piece_length as u64) as u32
    }

    /// The info-hash as 40 lowercase hex digits.
    pub fn info_hash_hex(&self) -> String {
        hex(&self.info_hash)
    }
}

/// Lowercase hex of bytes.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Lists the regular files under `root` in a deterministic order (sorted byte-wise by
/// path), returning each with its path components relative to `root`.
fn walk(root: &Path) -> Result<Vec<(PathBuf, Vec<String>)>, MetainfoError> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_path_buf(), Vec::<String>::new())];
    while let Some((dir, comps)) = stack.pop() {
        let rd = std::fs::read_dir(&dir).map_err(|source| MetainfoError::Io {
            path: dir.clone(),
            source,
        })?;
        for entry in rd {
            let entry = entry.map_err(|source| MetainfoError::Io {
                path: dir.clone(),
                source,
            })?;
            let path = entry.path();
            let name = entry.file_name().into_string().map_err(|_| {
                field(
                    "info.files",
                    format!("{}: file name is not UTF-8", path.display()),
                )
            })?;
            let meta = std::fs::metadata(&path).map_err(|source| MetainfoError::Io {
                path: path.clone(),
                source,
            })?;
            let mut c = comps.clone();
            c.push(name);
            if meta.is_dir() {
                stack.push((path, c));
            } else if meta.is_file() {
                out.push((path, c));
            }
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(out)
}

/// Builds a v1 `.torrent` for the file or directory at `path`, with pieces of
/// `piece_length` bytes (a power of two, 16 KiB .. 64 MiB). Trackerless (no `announce`)
/// unless `announce` names a tracker URL. Deterministic: no creation date, files in sorted
/// order. Returns the bencoded bytes.
pub fn create(
    path: &Path,
    piece_length: u32,
    announce: Option<&str>,
) -> Result<Vec<u8>, MetainfoError> {
    if !piece_length.is_power_of_two() || !(MIN_PIECE_LEN..=MAX_PIECE_LEN).contains(&piece_length) {
        return Err(field(
            "info.piece length",
            format!("{piece_length} is not a power of two in {MIN_PIECE_LEN}..={MAX_PIECE_LEN}"),
        ));
    }
    let meta = std::fs::metadata(path).map_err(|source| MetainfoError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| {
            field(
                "info.name",
                format!("{}: no UTF-8 file name", path.display()),
            )
        })?
        .to_owned();
    check_component("info.name", &name)?;
    let list: Vec<(PathBuf, Vec<String>)> = if meta.is_dir() {
        walk(path)?
    } else {
        vec![(path.to_path_buf(), Vec::new())]
    };

    let mut hasher = PieceHasher::new(piece_length);
    let mut files = Vec::new();
    let mut buf = vec![0u8; 1 << 20];
    for (p, comps) in &list {
        let io = |source| MetainfoError::Io {
            path: p.clone(),
            source,
        };
        let mut f = File::open(p).map_err(io)?;
        let mut length = 0u64;
        loop {
            let n = f.read(&mut buf).map_err(io)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            length += n as u64;
        }
        files.push((comps.clone(), length));
    }
    let total: u64 = files.iter().map(|f| f.1).sum();
    if total == 0 {
        return Err(field(
            "info",
            format!("{}: nothing to share (zero bytes)", path.display()),
        ));
    }
    let pieces = hasher.finish();

    let bytes = |s: &str| Value::ByteStr(ByteString::from(s));
    let mut info = BTreeMap::new();
    info.insert(ByteString::from("name"), bytes(&name));
    info.insert(
        ByteString::from("piece length"),
        Value::Int(Number::from(piece_length)),
    );
    info.insert(
        ByteString::from("pieces"),
        Value::ByteStr(ByteString::from(pieces.concat())),
    );
    if meta.is_dir() {
        let list = files
            .into_iter()
            .map(|(comps, length)| {
                let mut fd = BTreeMap::new();
                fd.insert(ByteString::from("length"), Value::Int(Number::from(length)));
                fd.insert(
                    ByteString::from("path"),
                    Value::List(comps.iter().map(|c| bytes(c)).collect()),
                );
                Value::Dict(fd)
            })
            .collect();
        info.insert(ByteString::from("files"), Value::List(list));
    } else {
        info.insert(ByteString::from("length"), Value::Int(Number::from(total)));
    }
    let mut top = BTreeMap::new();
    if let Some(url) = announce {
        top.insert(ByteString::from("announce"), bytes(url));
    }
    top.insert(
        ByteString::from("created by"),
        bytes(concat!("ledbat ", env!("CARGO_PKG_VERSION"))),
    );
    top.insert(ByteString::from("info"), Value::Dict(info));
    bt_bencode::to_vec(&Value::Dict(top)).map_err(|e| MetainfoError::Bencode(e.to_string()))
}

/// Hashes a byte stream into fixed-size pieces.
struct PieceHasher {
    piece_length: u32,
    in_piece: u32,
    sha: Sha1,
    out: Vec<Sha1Digest>,
}

impl PieceHasher {
    fn new(piece_length: u32) -> Self {
        Self {
            piece_length,
            in_piece: 0,
            sha: Sha1::new(),
            out: Vec::new(),
        }
    }

    fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = ((self.piece_length - self.in_piece) as usize).min(data.len());
            self.sha.update(&data[..take]);
            self.in_piece += take as u32;
            data = &data[take..];
            if self.in_piece == self.piece_length {
                self.out
                    .push(std::mem::take(&mut self.sha).finalize().into());
                self.in_piece = 0;
            }
        }
    }

    fn finish(mut self) -> Vec<Sha1Digest> {
        if self.in_piece > 0 {
            self.out.push(self.sha.finalize().into());
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_file_round_trip_has_correct_pieces_and_hash() {
        let tmp = crate::tmpdir("single");
        let d = tmp.path();
        let data: Vec<u8> = (0..40_000u32).map(|i| (i % 251) as u8).collect();
        let f = d.join("payload.bin");
        std::fs::write(&f, &data).unwrap();
        let bytes = create(&f, 16384, None).unwrap();
        let m = Metainfo::from_bytes(&bytes).unwrap();
        assert_eq!(m.name, "payload.bin");
        assert!(m.single_file);
        assert_eq!(m.total_length, 40_000);
        assert_eq!(m.num_pieces(), 3);
        assert_eq!(m.piece_len(2), 40_000 - 2 * 16384);
        let want: Sha1Digest = Sha1::digest(&data[16384..32768]).into();
        assert_eq!(m.pieces[1], want);
        // The info-hash is the SHA-1 of the raw info value inside the file.
        let start = bytes.windows(6).position(|w| w == b"4:info").unwrap() + 6;
        let raw = &bytes[start..bytes.len() - 1];
        assert_eq!(m.info_hash, <Sha1Digest>::from(Sha1::digest(raw)));
    }

    #[test]
    fn directory_becomes_sorted_multi_file_torrent() {
        let tmp = crate::tmpdir("multi");
        let d = tmp.path();
        let root = d.join("set");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("b.txt"), vec![1u8; 20_000]).unwrap();
        std::fs::write(root.join("a.txt"), vec![2u8; 10]).unwrap();
        std::fs::write(root.join("sub").join("c"), vec![3u8; 5]).unwrap();
        let m = Metainfo::from_bytes(&create(&root, 16384, None).unwrap()).unwrap();
        assert!(!m.single_file);
        let paths: Vec<_> = m.files.iter().map(|f| f.path.join("/")).collect();
        assert_eq!(paths, ["a.txt", "b.txt", "sub/c"]);
        assert_eq!(m.total_length, 20_015);
        // Piece 0 spans a.txt then the start of b.txt.
        let mut first = vec![2u8; 10];
        first.extend(vec![1u8; 16384 - 10]);
        assert_eq!(m.pieces[0], <Sha1Digest>::from(Sha1::digest(&first)));
    }

    #[test]
    fn creation_is_deterministic() {
        let tmp = crate::tmpdir("det");
        let d = tmp.path();
        let f = d.join("x");
        std::fs::write(&f, vec![9u8; 70_000]).unwrap();
        assert_eq!(
            create(&f, 32768, None).unwrap(),
            create(&f, 32768, None).unwrap()
        );
    }

    #[test]
    fn piece_length_must_be_a_power_of_two() {
        let tmp = crate::tmpdir("pl");
        let d = tmp.path();
        let f = d.join("x");
        std::fs::write(&f, b"abc").unwrap();
        let e = create(&f, 20000, None).unwrap_err().to_string();
        assert!(e.contains("piece length"), "{e}");
    }

    #[test]
    fn path_traversal_is_refused() {
        let info = "d5:filesld6:lengthi3e4:pathl2:..6:passwdeee4:name1:x12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaae";
        let t = format!("d4:info{info}e");
        let e = Metainfo::from_bytes(t.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("info.files[0].path"), "{e}");
    }

    /// Found by the fuzz target `metainfo`: a torrent whose `info` nests lists 200,000
    /// deep crashed the process (stack overflow), one with a string length of 2^64 - 1
    /// panicked. Both are errors naming where.
    #[test]
    fn hostile_nesting_and_string_lengths_are_errors() {
        let deep = [&b"d4:info"[..], &vec![b'l'; 200_000], &vec![b'e'; 200_001]].concat();
        let e = Metainfo::from_bytes(&deep).unwrap_err().to_string();
        assert!(e.contains("nested more than 64 deep at byte"), "{e}");
        let long = b"d8:announce18446744073709551615:ae";
        let e = Metainfo::from_bytes(long).unwrap_err().to_string();
        assert!(e.contains("byte string at byte 11 claims"), "{e}");
    }

    #[test]
    fn wrong_piece_count_names_the_field() {
        let t = b"d4:infod6:lengthi40000e4:name1:x12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee";
        let e = Metainfo::from_bytes(t).unwrap_err().to_string();
        assert!(e.contains("info.pieces") && e.contains("expected 3"), "{e}");
    }

    #[test]
    fn announce_url_is_written_and_read_back() {
        let tmp = crate::tmpdir("announce");
        let d = tmp.path();
        let f = d.join("x");
        std::fs::write(&f, b"abc").unwrap();
        let m = Metainfo::from_bytes(
            &create(&f, 16384, Some("http://10.0.0.1:6969/announce")).unwrap(),
        )
        .unwrap();
        assert_eq!(m.trackers, vec!["http://10.0.0.1:6969/announce"]);
        let bare = Metainfo::from_bytes(&create(&f, 16384, None).unwrap()).unwrap();
        assert!(bare.trackers.is_empty());
        assert_eq!(
            m.info_hash, bare.info_hash,
            "the tracker is outside the info-hash"
        );
    }

    #[test]
    fn announce_list_tiers_come_before_announce() {
        let t = b"d8:announce5:http:13:announce-listll8:http://ael8:http://b8:http://cee4:infod6:lengthi3e4:name1:x12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee";
        let m = Metainfo::from_bytes(t).unwrap();
        assert_eq!(m.trackers, vec!["http://a", "http://b", "http://c"]);
    }

    #[test]
    fn garbage_is_not_a_torrent() {
        assert!(matches!(
            Metainfo::from_bytes(b"hello"),
            Err(MetainfoError::Bencode(_))
        ));
    }

    #[test]
    fn pad_files_are_refused() {
        let t = b"d4:infod5:filesld4:attr1:p6:lengthi3e4:pathl1:xeee4:name1:x12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee";
        let e = Metainfo::from_bytes(t).unwrap_err().to_string();
        assert!(e.contains("BEP 47"), "{e}");
    }
}
