/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The parameters of one registered controller: what `ledbat tcp load` writes into the BPF
 * object's read-only data before loading it, and what the replay tool reads from a trace.
 * The Rust side (`ledbat_tcp::params`) builds them from ledbat-core's validated config of
 * the same controller, so that `--param target=25ms` means what it means to the core.
 *
 * Every field is a little 64-bit word, in this order, with no padding: the Rust side writes
 * the same words (`LbParams::to_bytes`); a unit test compares the layouts by field name.
 * Fractions are fixed point: `_q32` fields in 32.32, `_q16` fields in 48.16. Thresholds the
 * core compares in floating point (`qd > f * TARGET`) arrive as the integer the comparison
 * is equivalent to, computed by the Rust side in the core's own arithmetic.
 */
#ifndef LBCC_PARAMS_H
#define LBCC_PARAMS_H

#include "lbcc_types.h"

/* "LBCC" and the layout's version. */
#define LB_PARAMS_MAGIC 0x4c424343ULL
#define LB_PARAMS_VERSION 5ULL

/* Largest base history and current filter the kernel build keeps (ledbat-core allows more
 * and the loader refuses such configurations with a message). */
#define LB_MAX_BASE 32
#define LB_MAX_FILTER 16

/* A constant of an enum the loader writes, from its list of X(name, value). */
#define LB_DECLARE_CONST(name, value) name = value,

#define LB_ALGOS(X)                                                                                \
	X(LB_ALGO_LEDBAT, 1)     /* RFC 6817, linear decrease (ledbat-core `ledbat`) */            \
	X(LB_ALGO_LINEAR_MIN, 2) /* seed 002: linear, minimum decrease (`ledbat-linear-min`) */    \
	X(LB_ALGO_MD, 3)         /* seed 002: multiplicative, fixed beta (`ledbat-md`) */          \
	X(LB_ALGO_MDVAR, 4)      /* seed 002: MDvar (`ledbat-mdvar`) */                            \
	X(LB_ALGO_LEDBAT_PP, 5)  /* LEDBAT++ and the scavenger preset (`ledbat++`, `scavenger`) */ \
	X(LB_ALGO_TCP_LP, 6)     /* TCP-LP (`tcp-lp`) */

enum lb_algo { LB_ALGOS(LB_DECLARE_CONST) };

/* The delay signal the kernel glue feeds (the arithmetic itself takes a sample either way). */
#define LB_SIGNALS(X)                                                                     \
	X(LB_SIGNAL_OWD, 1) /* one-way delay from TCP timestamps (seed 002, section 4) */ \
	X(LB_SIGNAL_RTT, 2) /* the round-trip time of the newest packet acknowledged */

enum lb_signal { LB_SIGNALS(LB_DECLARE_CONST) };

/*
 * Each struct the loader writes is declared from one list, X(type, name) per field in order:
 * the struct below, and in the host build csrc/layout.c's table of every field's name,
 * offset and size, which a unit test of ledbat_tcp::params compares by name with the Rust
 * side's offset_of! and size_of (`the_c_and_rust_layouts_agree_field_by_field`). A field
 * added, removed, renamed or moved on one side fails that test.
 */
#define LB_DECLARE_FIELD(type, name) type name;

/* The competitor detection's parameters (ledbat-core `CompetitorConfig`, lbcc_competitor.h;
 * the loader's words: ledbat_tcp::params::CompParams). */
#define LB_COMP_PARAMS_FIELDS(X)                        \
	X(__u64, enabled)                               \
	X(__u64, share_q32)                             \
	X(__u64, min_share_q32)                         \
	X(__u64, suspect_rtts_q32)                      \
	X(__u64, tests)                                 \
	X(__u64, test_gap_ns)                           \
	X(__u64, test_packets_q32)                      \
	X(__u64, push_share_q32)                        \
	X(__u64, push_drop_q32)                         \
	X(__u64, quiet_ns)                              \
	X(__u64, yield_share_q32)                       \
	X(__u64, probe_interval_ns)                     \
	X(__u64, probe_share_q32)                       \
	X(__u64, probe_inv_q32)   /* 1 / probe_share */ \
	X(__u64, confirm_ns)                            \
	X(__u64, rate_window_ns)                        \
	X(__u64, periodic_positive)

struct lb_comp_params {
	LB_COMP_PARAMS_FIELDS(LB_DECLARE_FIELD)
};

#define LB_COMP_PARAMS_WORDS 17

/* Read through this, as lb_params_t (the BPF object's copy lives in read-only data). */
typedef const volatile struct lb_comp_params lb_comp_params_t;

#define LB_PARAMS_FIELDS(X)                                                                  \
	X(__u64, magic)                   /* LB_PARAMS_MAGIC */                              \
	X(__u64, version)                 /* LB_PARAMS_VERSION */                            \
	X(__u64, algo)                    /* enum lb_algo */                                 \
	X(__u64, signal)                  /* enum lb_signal */                               \
	/* LEDBAT family (RFC 6817 section 3.4.2 names) */                                   \
	X(__u64, target_ns)                                                                  \
	X(__u64, gain_q32)                /* GAIN (RFC family) */                            \
	X(__u64, allowed_increase_q32)    /* packets */                                      \
	X(__u64, min_cwnd_q32)            /* packets */                                      \
	X(__u64, init_cwnd_q32)           /* packets */                                      \
	/* 0/1: the RFC family's optional slow start, LEDBAT++'s initial one */              \
	X(__u64, slow_start)                                                                 \
	X(__u64, ss_exit_ge_ns)           /* RFC family leaves slow start when qd >= this */ \
	X(__u64, ss_exit_gt_ns)           /* LEDBAT++ leaves slow start when qd > this */    \
	X(__u64, base_history)            /* buckets, 1..=LB_MAX_BASE */                     \
	X(__u64, base_interval_ns)                                                           \
	X(__u64, filter_len)              /* 1..=LB_MAX_FILTER */                            \
	X(__u64, clamp_to_min_rtt)        /* 0/1 */                                          \
	/* seed 002 decrease schemes */                                                      \
	X(__u64, min_decrease_q32)        /* linear-min: packets per RTT */                  \
	X(__u64, beta_q32)                /* md */                                           \
	X(__u64, extra_decrease_q32)      /* mdvar: packets */                               \
	/* LEDBAT++ (draft -01) and this project's extensions */                             \
	X(__u64, max_gain_divisor)        /* whole number >= 1 */                            \
	X(__u64, periodic_slowdown)       /* 0/1 */                                          \
	X(__u64, first_slowdown_rtts_q16)                                                    \
	X(__u64, slowdown_hold_rtts_q16)                                                     \
	X(__u64, slowdown_interval_q16)                                                      \
	X(__u64, ramp_delay_exit)         /* 0/1 */                                          \
	X(__u64, join)                    /* 0/1: slowdown_join > 0 */                       \
	/* joins below: qd > this counts as "above the threshold" */                         \
	X(__u64, join_gt_ns)                                                                 \
	X(__u64, hold_packets_q32)                                                           \
	X(__u64, hold_bdp_q32)                                                               \
	X(__u64, join_pause)              /* 0/1 */                                          \
	X(__u64, conservative_slow_start) /* 0/1 */                                          \
	X(__u64, empty_queue_restart)     /* 0/1 */                                          \
	/* TCP-LP */                                                                         \
	X(__u64, lp_alpha_q32)                                                               \
	X(__u64, lp_delta_q32)                                                               \
	X(__u64, lp_inference_rtts_q16)                                                      \
	/* LEDBAT++: the slowdown interval's largest factor (`slowdown_backoff`, a whole     \
	 * number >= 1; 1 the draft's fixed interval) */                                     \
	X(__u64, slowdown_max_backoff)                                                       \
	/* LEDBAT++: competitor detection (layout 3): `competitor.*`, and the hold of a      \
	 * test in RTTs (`competitor.test_hold_rtts`, 48.16) */                              \
	X(struct lb_comp_params, comp)                                                       \
	X(__u64, comp_test_hold_rtts_q16)                                                    \
	/* LEDBAT++: the join rule judges a dip by the flight of the last RTTs and the       \
	 * restart waits while a join may come (`slowdown_join_recent`, layout 5; 0/1) */    \
	X(__u64, join_recent)

struct lb_params {
	LB_PARAMS_FIELDS(LB_DECLARE_FIELD)
};

#define LB_PARAMS_WORDS 55

/* Bytes after the parameters in the BPF object's read-only data for the loader's JSON
 * description of the configuration (`ledbat tcp list` reads it back from the kernel). */
#define LB_DESC_LEN 2048

/* The arithmetic reads parameters through this: in the BPF object they live in read-only
 * data that the loader writes before loading (`const volatile`, so that the compiler never
 * folds the zeros the object is built with). */
typedef const volatile struct lb_params lb_params_t;

#if defined(__bpf__) || defined(__STDC_VERSION__)
_Static_assert(sizeof(struct lb_params) == LB_PARAMS_WORDS * 8, "lb_params has padding");
#endif

#endif
