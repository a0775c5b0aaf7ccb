//! The framing of `ledbat send` / `ledbat recv` on the uTP byte stream.
//!
//! ```text
//! sender -> receiver: "LEDBATF1" | size u64 BE | name_len u16 BE | name (UTF-8) | file | SHA-256 (32)
//! receiver -> sender: status (1 byte: 0 verified, 1 digest mismatch, 2 failed)
//! ```

use anyhow::{bail, Context, Result};
use tokio::io::{AsyncRead, AsyncReadExt};

/// Stream magic and version.
pub const MAGIC: &[u8; 8] = b"LEDBATF1";
/// SHA-256 length.
pub const DIGEST_LEN: usize = 32;
/// Longest file name carried.
pub const MAX_NAME: usize = 4096;

/// What precedes the file bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// File size in bytes.
    pub size: u64,
    /// File name (informational).
    pub name: String,
}

impl Header {
    /// Wire bytes.
    pub fn encode(&self) -> Vec<u8> {
        let name = &self.name.as_bytes()[..self.name.len().min(MAX_NAME)];
        let mut v = Vec::with_capacity(18 + name.len());
        v.extend_from_slice(MAGIC);
        v.extend_from_slice(&self.size.to_be_bytes());
        v.extend_from_slice(&(name.len() as u16).to_be_bytes());
        v.extend_from_slice(name);
        v
    }

    /// Reads and checks a header.
    pub async fn read<R: AsyncRead + Unpin>(r: &mut R) -> Result<Self> {
        let mut fixed = [0u8; 18];
        r.read_exact(&mut fixed)
            .await
            .context("reading the transfer header")?;
        if &fixed[..8] != MAGIC {
            bail!(
                "not a ledbat transfer: bad magic {:?}",
                String::from_utf8_lossy(&fixed[..8])
            );
        }
        let size = u64::from_be_bytes(fixed[8..16].try_into().expect("8 bytes"));
        let name_len = u16::from_be_bytes([fixed[16], fixed[17]]) as usize;
        if name_len > MAX_NAME {
            bail!("transfer header: file name of {name_len} bytes exceeds {MAX_NAME}");
        }
        let mut name = vec![0u8; name_len];
        r.read_exact(&mut name)
            .await
            .context("reading the file name")?;
        Ok(Header {
            size,
            name: String::from_utf8_lossy(&name).into_owned(),
        })
    }
}

/// The receiver's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Complete and the digest matched; the file is in place.
    Verified,
    /// The digest did not match; nothing was written.
    DigestMismatch,
    /// The receiver failed (disk, stream).
    Failed,
}

impl Status {
    /// Wire byte.
    pub fn byte(self) -> u8 {
        match self {
            Status::Verified => 0,
            Status::DigestMismatch => 1,
            Status::Failed => 2,
        }
    }
    /// From a wire byte.
    pub fn from_byte(b: u8) -> Option<Self> {
        Some(match b {
            0 => Status::Verified,
            1 => Status::DigestMismatch,
            2 => Status::Failed,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Verified => "verified",
            Status::DigestMismatch => "SHA-256 mismatch",
            Status::Failed => "receiver failure",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn header_round_trips_and_rejects_bad_magic() {
        let h = Header {
            size: 123_456_789_000,
            name: "ubuntu.iso".into(),
        };
        let b = h.encode();
        assert_eq!(&b[..8], b"LEDBATF1");
        assert_eq!(Header::read(&mut &b[..]).await.unwrap(), h);
        let mut bad = b.clone();
        bad[0] = b'X';
        let e = Header::read(&mut &bad[..]).await.unwrap_err();
        assert!(e.to_string().contains("magic"), "{e}");
        for s in [Status::Verified, Status::DigestMismatch, Status::Failed] {
            assert_eq!(Status::from_byte(s.byte()), Some(s));
        }
    }
}
