//! The catalog's claims that do not yet obey a rule of `claim_rules.rs` (rules 13, 14 and
//! 16), by name: the rule's test fails on any claim that breaks it and is not listed here,
//! and on a listed one that no longer breaks it (so each list only shrinks). Each test
//! prints the list that would make it pass, to be pasted here only after review.

/// Rule 13: pairs of claims that read the same scenario instances for other metrics and
/// declare neither a relation nor their independence.
pub const SIBLINGS: &[(&str, &str)] = &[];

/// Rule 14: claims with a direction number that no threshold accounts for.
pub const THRESHOLDS: &[&str] = &[
    "s003-flashcrowd-all-tcp-queue-400",
    "s003-flashcrowd-byte-share-follows-peers",
    "s003-fledbat-vs-ledbat-crossover",
    "s003-swarm-ledbat-queue-near-target",
    "s003-swarm-mixed-queue-intermediate",
    "s003-swarm-random-stay-heterogeneous-differs",
    "s003-swarm-target-delay-630",
    "s003-swarm-tcp-queue-over-100-leave-at-once",
    "s003-swarm-tcp-queue-over-100-random-stay",
];

/// Rule 16: claims whose explanation types a figure that is neither a template nor an
/// allowed kind.
pub const FIGURES: &[&str] = &[];
