//! Which bytes of a BPF object a build embeds: the committed object or a fresh clang build.
//!
//! Shared by build.rs (which acts on the decision) and the crate's unit tests (which check
//! it), so it uses std only.
//!
//! Every `bpf/NAME.bpf.c` has a committed `bpf/NAME.bpf.o` and a stamp `bpf/NAME.bpf.stamp`
//! with two lines, `inputs <sha256>` and `object <sha256>`: the hash of what the object was
//! compiled from (the recipe, the program, every header it may include) and of the object
//! itself. A build without clang embeds the committed object when both still hold; a
//! changed source, or `LEDBAT_BPF_REBUILD=1`, asks for clang.

use std::fmt;

/// The two hashes of a stamp file, lowercase hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// sha256 of the recipe and the input files (see [`inputs_digest_text`]).
    pub inputs: String,
    /// sha256 of the object file.
    pub object: String,
}

impl Stamp {
    /// Parses `inputs HEX\nobject HEX\n`; `None` if either line is missing or malformed.
    pub fn parse(text: &str) -> Option<Stamp> {
        let mut inputs = None;
        let mut object = None;
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let (Some(key), Some(hex), None) = (words.next(), words.next(), words.next()) else {
                continue;
            };
            if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            match key {
                "inputs" => inputs = Some(hex.to_ascii_lowercase()),
                "object" => object = Some(hex.to_ascii_lowercase()),
                _ => {}
            }
        }
        Some(Stamp {
            inputs: inputs?,
            object: object?,
        })
    }
}

impl fmt::Display for Stamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "inputs {}", self.inputs)?;
        writeln!(f, "object {}", self.object)
    }
}

/// What the build found for one object.
#[derive(Clone, Debug)]
pub struct Found<'a> {
    /// The object's name (`ledbat` for bpf/ledbat.bpf.c).
    pub name: &'a str,
    /// `LEDBAT_BPF_REBUILD=1` is set.
    pub rebuild_asked: bool,
    /// The committed stamp, if present and well formed.
    pub stamp: Option<Stamp>,
    /// sha256 of the committed object, if present.
    pub object: Option<String>,
    /// sha256 of the current inputs.
    pub inputs: String,
    /// clang runs (`clang --version` succeeded).
    pub clang: bool,
}

/// The decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Embed the committed object.
    Committed,
    /// Compile with clang; `stale` says why when the committed object no longer fits
    /// (the build warns, so that the developer regenerates and commits it).
    Compile {
        /// Why the committed object cannot be used, if that is the reason.
        stale: Option<String>,
    },
    /// Stop the build with this message.
    Fail(String),
}

/// Decides for one object (see the module comment).
pub fn decide(f: &Found<'_>) -> Plan {
    let n = f.name;
    let stale = match (&f.stamp, &f.object) {
        _ if f.rebuild_asked => None,
        (None, _) | (_, None) => Some(format!(
            "bpf/{n}.bpf.o or its stamp bpf/{n}.bpf.stamp is missing"
        )),
        (Some(s), Some(o)) if s.object != *o => Some(format!(
            "bpf/{n}.bpf.o is not the object its stamp bpf/{n}.bpf.stamp names"
        )),
        (Some(s), _) if s.inputs != f.inputs => Some(format!(
            "bpf/{n}.bpf.c or a header it may include changed since bpf/{n}.bpf.o was built"
        )),
        _ => return Plan::Committed,
    };
    if f.clang {
        return Plan::Compile { stale };
    }
    Plan::Fail(match stale {
        None => format!(
            "LEDBAT_BPF_REBUILD=1 compiles bpf/{n}.bpf.c with clang, which could not be run; \
             install it (Debian: apt install clang) or set CLANG"
        ),
        Some(why) => format!(
            "{why}, so it must be compiled again with clang, which could not be run; install \
             it (Debian: apt install clang) or set CLANG, or restore the committed sources \
             (git checkout crates/ledbat-tcp)"
        ),
    })
}

/// The text hashed into a stamp's `inputs`: the recipe, then each file as its name, its
/// length and its bytes, in the order given (callers sort by name).
pub fn inputs_digest_text(recipe: &str, files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(b"recipe ");
    v.extend_from_slice(recipe.as_bytes());
    v.push(b'\n');
    for (name, bytes) in files {
        v.extend_from_slice(format!("file {name} {}\n", bytes.len()).as_bytes());
        v.extend_from_slice(bytes);
        v.push(b'\n');
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    const C: &str = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc";

    /// A committed object whose stamp matches: inputs A, object B.
    fn fresh(clang: bool) -> Found<'static> {
        Found {
            name: "ledbat",
            rebuild_asked: false,
            stamp: Some(Stamp {
                inputs: A.into(),
                object: B.into(),
            }),
            object: Some(B.into()),
            inputs: A.into(),
            clang,
        }
    }

    #[test]
    fn a_matching_stamp_embeds_the_committed_object_with_or_without_clang() {
        assert_eq!(decide(&fresh(false)), Plan::Committed);
        assert_eq!(decide(&fresh(true)), Plan::Committed);
    }

    #[test]
    fn rebuild_asked_compiles_and_fails_without_clang() {
        let f = Found {
            rebuild_asked: true,
            ..fresh(true)
        };
        assert_eq!(decide(&f), Plan::Compile { stale: None });
        let Plan::Fail(m) = decide(&Found { clang: false, ..f }) else {
            panic!("no clang, rebuild asked");
        };
        assert!(m.starts_with("LEDBAT_BPF_REBUILD=1 compiles bpf/ledbat.bpf.c with clang"));
    }

    #[test]
    fn a_changed_source_compiles_with_clang_and_fails_without() {
        let f = Found {
            inputs: C.into(),
            ..fresh(true)
        };
        let Plan::Compile { stale: Some(why) } = decide(&f) else {
            panic!("changed source with clang");
        };
        assert!(
            why.contains("changed since bpf/ledbat.bpf.o was built"),
            "{why}"
        );
        let Plan::Fail(m) = decide(&Found { clang: false, ..f }) else {
            panic!("changed source without clang");
        };
        assert!(m.contains("install it (Debian: apt install clang)"), "{m}");
    }

    #[test]
    fn an_object_that_is_not_the_stamped_one_is_not_embedded() {
        let f = Found {
            object: Some(C.into()),
            ..fresh(false)
        };
        let Plan::Fail(m) = decide(&f) else {
            panic!("hand-edited object");
        };
        assert!(
            m.starts_with("bpf/ledbat.bpf.o is not the object its stamp"),
            "{m}"
        );
    }

    #[test]
    fn a_missing_object_or_stamp_needs_clang() {
        for f in [
            Found {
                object: None,
                ..fresh(true)
            },
            Found {
                stamp: None,
                ..fresh(true)
            },
        ] {
            assert!(matches!(decide(&f), Plan::Compile { stale: Some(_) }));
            assert!(matches!(
                decide(&Found { clang: false, ..f }),
                Plan::Fail(_)
            ));
        }
    }

    #[test]
    fn stamps_round_trip_and_reject_malformed_hashes() {
        let s = Stamp {
            inputs: A.into(),
            object: B.into(),
        };
        assert_eq!(s.to_string(), format!("inputs {A}\nobject {B}\n"));
        assert_eq!(Stamp::parse(&s.to_string()), Some(s));
        assert_eq!(Stamp::parse(&format!("inputs {A}\n")), None);
        assert_eq!(Stamp::parse(&format!("inputs {A}\nobject 12\n")), None);
    }

    #[test]
    fn the_digest_text_separates_names_lengths_and_contents() {
        let one = inputs_digest_text("-O2", &[("a.h".into(), b"xy".to_vec())]);
        assert_eq!(one, b"recipe -O2\nfile a.h 2\nxy\n");
        // moving a byte from one file to the next changes the text
        let a = inputs_digest_text("", &[("a".into(), b"x".to_vec()), ("b".into(), vec![])]);
        let b = inputs_digest_text("", &[("a".into(), vec![]), ("b".into(), b"x".to_vec())]);
        assert_ne!(a, b);
    }
}
