//! Piece storage: the torrent's byte space (files laid end to end, BEP 3) mapped onto files
//! on disk, with positional reads and writes, and SHA-1 checks of whole pieces.
//!
//! A download is written under a temporary name (`NAME.part`, a file or a directory) next
//! to its final place and renamed to `NAME` only once every piece verified, so a reader
//! never sees a half-written result under the final name.

use crate::metainfo::Metainfo;
use ledbat_bt_proto::wire::Sha1Digest;
use ledbat_bt_proto::Bitfield;
use sha1::{Digest, Sha1};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Why storage could not be opened or used.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// An I/O error on a named file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A data file does not have the length the torrent says.
    #[error("{path}: is {actual} bytes, the torrent says {expected}")]
    Length {
        /// The file.
        path: PathBuf,
        /// Bytes on disk.
        actual: u64,
        /// Bytes in the torrent.
        expected: u64,
    },
    /// The final output already exists.
    #[error("{0}: already exists (refusing to overwrite)")]
    Exists(PathBuf),
}

struct Slot {
    path: PathBuf,
    offset: u64,
    length: u64,
    file: File,
}

/// The torrent's files, open.
pub struct Storage {
    slots: Vec<Slot>,
    total: u64,
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StorageError + '_ {
    move |source| StorageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The on-disk path of every file of `meta` when the torrent's root is `root` (the file
/// itself for a single-file torrent, the directory for a multi-file one).
fn file_paths(meta: &Metainfo, root: &Path) -> Vec<PathBuf> {
    meta.files
        .iter()
        .map(|f| {
            let mut p = root.to_path_buf();
            for c in &f.path {
                p.push(c);
            }
            p
        })
        .collect()
}

impl Storage {
    /// Opens existing data for seeding: `root` is the file (single-file torrent) or the
    /// directory (multi-file torrent) the torrent was made from. Lengths must match.
    pub fn open_existing(meta: &Metainfo, root: &Path) -> Result<Self, StorageError> {
        let mut slots = Vec::new();
        let mut offset = 0;
        for (entry, path) in meta.files.iter().zip(file_paths(meta, root)) {
            let file = File::open(&path).map_err(io_err(&path))?;
            let actual = file.metadata().map_err(io_err(&path))?.len();
            if actual != entry.length {
                return Err(StorageError::Length {
                    path,
                    actual,
                    expected: entry.length,
                });
            }
            slots.push(Slot {
                path,
                offset,
                length: entry.length,
                file,
            });
            offset += entry.length;
        }
        Ok(Self {
            slots,
            total: offset,
        })
    }

    /// Creates (truncating) every file under `root`, sized to the torrent.
    pub fn create(meta: &Metainfo, root: &Path) -> Result<Self, StorageError> {
        Self::open_rw(meta, root, true)
    }

    /// Opens every file under `root` for a download, keeping what is already there (to
    /// resume: [`Storage::verify_all`] then says which pieces are good); missing files are
    /// created, files of the wrong length are resized to the torrent's.
    pub fn open_resume(meta: &Metainfo, root: &Path) -> Result<Self, StorageError> {
        Self::open_rw(meta, root, false)
    }

    fn open_rw(meta: &Metainfo, root: &Path, truncate: bool) -> Result<Self, StorageError> {
        let mut slots = Vec::new();
        let mut offset = 0;
        for (entry, path) in meta.files.iter().zip(file_paths(meta, root)) {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(io_err(parent))?;
            }
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(truncate)
                .open(&path)
                .map_err(io_err(&path))?;
            if file.metadata().map_err(io_err(&path))?.len() != entry.length {
                file.set_len(entry.length).map_err(io_err(&path))?;
            }
            slots.push(Slot {
                path,
                offset,
                length: entry.length,
                file,
            });
            offset += entry.length;
        }
        Ok(Self {
            slots,
            total: offset,
        })
    }

    /// Calls `f(slot, offset in file, range in buf)` for each file overlapping
    /// `[offset, offset + len)`.
    fn spans(
        &self,
        offset: u64,
        len: usize,
        mut f: impl FnMut(&Slot, u64, std::ops::Range<usize>) -> Result<(), StorageError>,
    ) -> Result<(), StorageError> {
        let end = offset + len as u64;
        assert!(end <= self.total, "storage access past the end");
        let first = self
            .slots
            .partition_point(|s| s.offset + s.length <= offset);
        for s in &self.slots[first..] {
            if s.offset >= end {
                break;
            }
            let lo = offset.max(s.offset);
            let hi = end.min(s.offset + s.length);
            if hi > lo {
                f(
                    s,
                    lo - s.offset,
                    (lo - offset) as usize..(hi - offset) as usize,
                )?;
            }
        }
        Ok(())
    }

    /// Reads `buf.len()` bytes at torrent byte `offset`.
    pub fn read(&self, offset: u64, buf: &mut [u8]) -> Result<(), StorageError> {
        self.spans(offset, buf.len(), |s, at, r| {
            s.file
                .read_exact_at(&mut buf[r], at)
                .map_err(io_err(&s.path))
        })
    }

    /// Writes `data` at torrent byte `offset`.
    pub fn write(&self, offset: u64, data: &[u8]) -> Result<(), StorageError> {
        self.spans(offset, data.len(), |s, at, r| {
            s.file.write_all_at(&data[r], at).map_err(io_err(&s.path))
        })
    }

    /// Reads piece `index` whole.
    pub fn read_piece(&self, meta: &Metainfo, index: u32) -> Result<Vec<u8>, StorageError> {
        let mut buf = vec![0u8; meta.piece_len(index) as usize];
        self.read(index as u64 * meta.piece_length as u64, &mut buf)?;
        Ok(buf)
    }

    /// Hashes every piece on disk and returns the set that matches the torrent.
    pub fn verify_all(&self, meta: &Metainfo) -> Result<Bitfield, StorageError> {
        let mut have = Bitfield::new(meta.num_pieces());
        for i in 0..meta.num_pieces() {
            if piece_ok(meta, i, &self.read_piece(meta, i)?) {
                have.set(i);
            }
        }
        Ok(have)
    }

    /// Flushes every file to disk.
    pub fn sync(&self) -> Result<(), StorageError> {
        for s in &self.slots {
            s.file.sync_all().map_err(io_err(&s.path))?;
        }
        Ok(())
    }
}

/// Whether `data` is piece `index` of `meta` (right length, right SHA-1).
pub fn piece_ok(meta: &Metainfo, index: u32, data: &[u8]) -> bool {
    data.len() == meta.piece_len(index) as usize
        && <Sha1Digest>::from(Sha1::digest(data)) == meta.pieces[index as usize]
}

/// Where a download goes: written at `temp`, renamed to `final_path` when complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPaths {
    /// The final file or directory, `DIR/NAME`.
    pub final_path: PathBuf,
    /// The temporary one, `DIR/NAME.part`.
    pub temp: PathBuf,
}

impl OutputPaths {
    /// Output paths for `meta` under `dir`; refuses if the final path exists.
    pub fn new(meta: &Metainfo, dir: &Path) -> Result<Self, StorageError> {
        let final_path = dir.join(&meta.name);
        if final_path.exists() {
            return Err(StorageError::Exists(final_path));
        }
        Ok(Self {
            temp: dir.join(format!("{}.part", meta.name)),
            final_path,
        })
    }

    /// Removes whatever is at the temporary path.
    pub fn clear_temp(&self) -> Result<(), StorageError> {
        let r = if self.temp.is_dir() {
            std::fs::remove_dir_all(&self.temp)
        } else {
            std::fs::remove_file(&self.temp)
        };
        match r {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(StorageError::Io {
                path: self.temp.clone(),
                source: e,
            }),
            _ => Ok(()),
        }
    }

    /// Moves the completed download to its final name.
    pub fn publish(&self) -> Result<(), StorageError> {
        if self.final_path.exists() {
            return Err(StorageError::Exists(self.final_path.clone()));
        }
        std::fs::rename(&self.temp, &self.final_path).map_err(io_err(&self.final_path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metainfo::create;

    #[test]
    fn writes_spanning_files_land_in_each_file() {
        let tmp = crate::tmpdir("span");
        let d = tmp.path();
        let src = d.join("set");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("a"), vec![1u8; 10_000]).unwrap();
        std::fs::write(src.join("b"), vec![2u8; 30_000]).unwrap();
        let meta = Metainfo::from_bytes(&create(&src, 16384, None).unwrap()).unwrap();
        let seed = Storage::open_existing(&meta, &src).unwrap();
        assert!(seed.verify_all(&meta).unwrap().is_full());

        let out = d.join("out");
        let dst = Storage::create(&meta, &out).unwrap();
        assert_eq!(dst.verify_all(&meta).unwrap().count(), 0);
        for i in 0..meta.num_pieces() {
            let p = seed.read_piece(&meta, i).unwrap();
            assert!(piece_ok(&meta, i, &p));
            dst.write(i as u64 * 16384, &p).unwrap();
        }
        assert_eq!(std::fs::read(out.join("a")).unwrap(), vec![1u8; 10_000]);
        assert_eq!(std::fs::read(out.join("b")).unwrap(), vec![2u8; 30_000]);
    }

    #[test]
    fn wrong_length_data_is_refused_for_seeding() {
        let tmp = crate::tmpdir("len");
        let d = tmp.path();
        let f = d.join("x");
        std::fs::write(&f, vec![0u8; 20_000]).unwrap();
        let meta = Metainfo::from_bytes(&create(&f, 16384, None).unwrap()).unwrap();
        std::fs::write(&f, vec![0u8; 19_999]).unwrap();
        assert!(matches!(
            Storage::open_existing(&meta, &f),
            Err(StorageError::Length { actual: 19_999, .. })
        ));
    }

    #[test]
    fn corrupted_piece_is_not_counted() {
        let tmp = crate::tmpdir("bad");
        let d = tmp.path();
        let f = d.join("x");
        std::fs::write(&f, vec![5u8; 40_000]).unwrap();
        let meta = Metainfo::from_bytes(&create(&f, 16384, None).unwrap()).unwrap();
        let s = Storage::open_existing(&meta, &f).unwrap();
        drop(s);
        let mut data = vec![5u8; 40_000];
        data[20_000] = 6;
        std::fs::write(&f, &data).unwrap();
        let have = Storage::open_existing(&meta, &f)
            .unwrap()
            .verify_all(&meta)
            .unwrap();
        assert_eq!(have.iter().collect::<Vec<_>>(), vec![0, 2]);
    }

    #[test]
    fn resume_keeps_the_pieces_already_written() {
        let tmp = crate::tmpdir("resume");
        let d = tmp.path();
        let f = d.join("x");
        let data: Vec<u8> = (0..50_000u32).map(|i| (i % 253) as u8).collect();
        std::fs::write(&f, &data).unwrap();
        let meta = Metainfo::from_bytes(&create(&f, 16384, None).unwrap()).unwrap();
        let part = d.join("x.part");
        let s = Storage::create(&meta, &part).unwrap();
        s.write(16384, &data[16384..32768]).unwrap();
        drop(s);
        let again = Storage::open_resume(&meta, &part).unwrap();
        assert_eq!(
            again.verify_all(&meta).unwrap().iter().collect::<Vec<_>>(),
            vec![1]
        );
        // A truncated .part is grown back; the piece it still holds stays good.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&part)
            .unwrap()
            .set_len(40_000)
            .unwrap();
        let again = Storage::open_resume(&meta, &part).unwrap();
        assert_eq!(std::fs::metadata(&part).unwrap().len(), 50_000);
        assert_eq!(again.verify_all(&meta).unwrap().count(), 1);
    }

    #[test]
    fn output_refuses_an_existing_final_path() {
        let tmp = crate::tmpdir("out");
        let d = tmp.path();
        let f = d.join("x");
        std::fs::write(&f, b"abc").unwrap();
        let meta = Metainfo::from_bytes(&create(&f, 16384, None).unwrap()).unwrap();
        assert!(matches!(
            OutputPaths::new(&meta, d),
            Err(StorageError::Exists(_))
        ));
        let o = OutputPaths::new(&meta, &d.join("elsewhere")).unwrap();
        assert!(o.temp.ends_with("x.part"));
    }
}
