//! The catalog's claims that do not yet obey a rule of `claim_rules.rs` (rules 13, 14 and
//! 16), by name: the rule's test fails on any claim that breaks it and is not listed here,
//! and on a listed one that no longer breaks it (so each list only shrinks). Each test
//! prints the list that would make it pass, to be pasted here only after review.

/// Rule 13: pairs of claims that read the same scenario instances for other metrics and
/// declare neither a relation nor their independence.
pub const SIBLINGS: &[(&str, &str)] = &[];

/// Rule 14: claims with a direction number that no threshold accounts for.
pub const THRESHOLDS: &[&str] = &[];

/// Rule 16: claims whose explanation types a figure that is neither a template nor an
/// allowed kind.
pub const FIGURES: &[&str] = &[];

/// Rule 7, grids (two or more keys varying independently, each seen as its own sweep since
/// the rule's test learnt to read them): claims that sweep a grid without the paper's range.
pub const SWEEPS: &[&str] = &[];
