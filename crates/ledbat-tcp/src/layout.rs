//! The layouts the loader writes into the BPF objects' read-only data, declared once on
//! each side and compared field by field by name.
//!
//! The C declares each of them from one list of its fields, `X(type, name)` in order (an
//! X-macro: `LB_PARAMS_FIELDS`, `LB_COMP_PARAMS_FIELDS` in csrc/lbcc_params.h,
//! `RL_CFG_FIELDS` in csrc/rledbat.h), and the enums the same way (`LB_ALGOS`, `LB_SIGNALS`,
//! `RL_SIGNALS`). csrc/layout.c, compiled for the host by build.rs and never into a BPF
//! object, prints from the same lists every field's name with the offset and size the C
//! compiler gives it, and every enum constant's value.
//!
//! The Rust side is a `#[repr(C)]` struct of `u64` words (and arrays of them) whose fields
//! are named once more in [`words_layout!`]: the macro writes and reads each field at its
//! `offset_of!` (so the words the loader writes are the struct's own layout) and does not
//! compile unless its list names every field of the struct. The names are the C names, with
//! no mapping. Unit tests (`the_c_and_rust_layouts_agree_field_by_field` in params.rs and
//! rledbat.rs) compare the two with [`compare`]: every field of one side present in the
//! other, in the same order, at the same offset, with the same size.

/// A field of a struct of words: a `u64` or an array of them.
pub(crate) trait Words: Sized {
    /// Writes `self` at the start of `w`.
    fn put(&self, w: &mut [u64]);
    /// Reads a value from the start of `w`.
    fn get(w: &[u64]) -> Self;
}

impl Words for u64 {
    fn put(&self, w: &mut [u64]) {
        w[0] = *self;
    }

    fn get(w: &[u64]) -> Self {
        w[0]
    }
}

impl<const N: usize> Words for [u64; N] {
    fn put(&self, w: &mut [u64]) {
        w[..N].copy_from_slice(self);
    }

    fn get(w: &[u64]) -> Self {
        w[..N].try_into().expect("N words")
    }
}

/// `words_layout!(T, N, { field, ... })`: `T::to_words`, `T::from_words` and, in tests,
/// `T::fields()` for a `#[repr(C)]` struct `T` of `N` words whose fields the list names, all
/// of them (else the destructuring in `to_words` and the struct expression in `from_words`
/// do not compile). A field is written at `offset_of!(T, field) / 8`.
macro_rules! words_layout {
    ($t:ident, $n:expr, { $($f:ident),+ $(,)? }) => {
        const _: () = assert!(
            std::mem::size_of::<$t>() == $n * 8,
            concat!(stringify!($t), " is not ", stringify!($n), " words")
        );

        impl $t {
            /// The words of the C struct: each field at its offset in this one.
            pub fn to_words(&self) -> [u64; $n] {
                let $t { $($f),+ } = self;
                let mut w = [0u64; $n];
                $($crate::layout::Words::put($f, &mut w[std::mem::offset_of!($t, $f) / 8..]);)+
                w
            }

            /// The inverse of `to_words`.
            pub fn from_words(w: &[u64; $n]) -> Self {
                $t {
                    $($f: $crate::layout::Words::get(&w[std::mem::offset_of!($t, $f) / 8..]),)+
                }
            }

            /// Each field's name, byte offset and size, as `offset_of!` and `size_of` give
            /// them, in declaration order.
            #[cfg(test)]
            pub(crate) fn fields() -> Vec<(&'static str, usize, usize)> {
                let z = Self::from_words(&[0; $n]);
                let mut v = vec![
                    $((stringify!($f), std::mem::offset_of!($t, $f), std::mem::size_of_val(&z.$f)),)+
                ];
                v.sort_by_key(|&(_, off, _)| off);
                v
            }
        }
    };
}
pub(crate) use words_layout;

/// csrc/layout.c's output (the path build.rs gives in `LBCC_LAYOUT`).
#[cfg(test)]
fn c_table() -> String {
    let out = std::process::Command::new(env!("LBCC_LAYOUT"))
        .output()
        .expect("runs the layout tool build.rs compiled");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).expect("ASCII")
}

/// The C compiler's `sizeof(struct NAME)` and the struct's fields `(name, offset, size)` in
/// declaration order.
#[cfg(test)]
pub(crate) fn c_struct(name: &str) -> (usize, Vec<(String, usize, usize)>) {
    let table = c_table();
    let mut size = None;
    let mut fields = Vec::new();
    for line in table.lines() {
        let w: Vec<&str> = line.split(' ').collect();
        match w[..] {
            ["struct", s, n] if s == name => size = n.parse().ok(),
            ["field", s, f, off, n] if s == name => fields.push((
                f.to_string(),
                off.parse().expect("offset"),
                n.parse().expect("size"),
            )),
            _ => {}
        }
    }
    (
        size.unwrap_or_else(|| panic!("no struct {name} in csrc/layout.c")),
        fields,
    )
}

/// The constants of C's `enum NAME`, `(name, value)` in declaration order.
#[cfg(test)]
pub(crate) fn c_enum(name: &str) -> Vec<(String, u64)> {
    let v: Vec<(String, u64)> = c_table()
        .lines()
        .filter_map(|line| match line.split(' ').collect::<Vec<_>>()[..] {
            ["const", e, c, v] if e == name => Some((c.to_string(), v.parse().expect("value"))),
            _ => None,
        })
        .collect();
    assert!(!v.is_empty(), "no enum {name} in csrc/layout.c");
    v
}

/// Every difference between C's `struct name` and a Rust struct of `size` bytes with
/// `fields` (from `T::fields()`), one line each; empty when they agree.
#[cfg(test)]
pub(crate) fn compare(name: &str, size: usize, fields: &[(&str, usize, usize)]) -> Vec<String> {
    let (c_size, c_fields) = c_struct(name);
    let mut diff = Vec::new();
    if c_size != size {
        diff.push(format!("size: C {c_size}, Rust {size}"));
    }
    for (f, off, n) in &c_fields {
        match fields.iter().find(|(r, _, _)| r == f) {
            None => diff.push(format!("{f}: in C only (offset {off})")),
            Some((_, r_off, r_n)) if (r_off, r_n) != (off, n) => diff.push(format!(
                "{f}: C offset {off} size {n}, Rust offset {r_off} size {r_n}"
            )),
            Some(_) => {}
        }
    }
    for (f, off, _) in fields {
        if !c_fields.iter().any(|(c, _, _)| c == f) {
            diff.push(format!("{f}: in Rust only (offset {off})"));
        }
    }
    let c_order = c_fields.iter().map(|(f, _, _)| f.as_str());
    let r_order = fields.iter().map(|(f, _, _)| *f);
    if let Some((i, (c, r))) = c_order.zip(r_order).enumerate().find(|(_, (c, r))| c != r) {
        diff.push(format!("order: field {i} is {c} in C, {r} in Rust"));
    }
    diff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_table_lists_the_parameters_in_declaration_order() {
        // the first words and the nested block as the C header declares them, by hand
        let (size, fields) = c_struct("lb_params");
        assert_eq!(size, 55 * 8);
        assert_eq!(fields[0], ("magic".to_string(), 0, 8));
        assert_eq!(fields[3], ("signal".to_string(), 24, 8));
        assert_eq!(fields[36], ("comp".to_string(), 288, 17 * 8));
        assert_eq!(fields.len(), 39);
        assert_eq!(fields[38], ("join_recent".to_string(), 54 * 8, 8));
        assert_eq!(c_enum("lb_algo")[4], ("LB_ALGO_LEDBAT_PP".to_string(), 5));
    }

    #[test]
    fn compare_names_each_difference() {
        let c: Vec<(&str, usize, usize)> = vec![("target_ns", 0, 8), ("slowdowns", 8, 8)];
        // rl_cfg has 28 words; this two-word stand-in differs in size, ten missing
        // fields and the order
        let diff = compare("rl_cfg", 16, &c);
        assert!(diff[0].starts_with("size: C 224, Rust 16"), "{diff:?}");
        assert!(
            diff.iter().any(|d| d == "signal: in C only (offset 16)"),
            "{diff:?}"
        );
        let swapped = vec![("slowdowns", 0, 8), ("target_ns", 8, 8)];
        let diff = compare("rl_cfg", 16, &swapped);
        assert!(
            diff.iter()
                .any(|d| d == "target_ns: C offset 0 size 8, Rust offset 8 size 8"),
            "{diff:?}"
        );
        assert!(
            diff.iter()
                .any(|d| d == "order: field 0 is target_ns in C, slowdowns in Rust"),
            "{diff:?}"
        );
        let extra = vec![("target_ns", 0, 8), ("slowdowns", 8, 8), ("spare", 16, 8)];
        let diff = compare("rl_cfg", 24, &extra);
        assert!(
            diff.iter().any(|d| d == "spare: in Rust only (offset 16)"),
            "{diff:?}"
        );
    }
}
