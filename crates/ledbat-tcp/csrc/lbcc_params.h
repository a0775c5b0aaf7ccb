/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The parameters of one registered controller: what `ledbat tcp load` writes into the BPF
 * object's read-only data before loading it, and what the replay tool reads from a trace.
 * The Rust side (`ledbat_tcp::params`) builds them from ledbat-core's validated config of
 * the same controller, so that `--param target=25ms` means what it means to the core.
 *
 * Every field is a little 64-bit word, in this order, with no padding: the Rust side writes
 * the same words in the same order (`LbParams::to_bytes`), and both check the size.
 * Fractions are fixed point: `_q32` fields in 32.32, `_q16` fields in 48.16. Thresholds the
 * core compares in floating point (`qd > f * TARGET`) arrive as the integer the comparison
 * is equivalent to, computed by the Rust side in the core's own arithmetic.
 */
#ifndef LBCC_PARAMS_H
#define LBCC_PARAMS_H

#include "lbcc_types.h"

/* "LBCC" and the layout's version. */
#define LB_PARAMS_MAGIC 0x4c424343ULL
#define LB_PARAMS_VERSION 3ULL

/* Largest base history and current filter the kernel build keeps (ledbat-core allows more
 * and the loader refuses such configurations with a message). */
#define LB_MAX_BASE 32
#define LB_MAX_FILTER 16

enum lb_algo {
	LB_ALGO_LEDBAT = 1,      /* RFC 6817, linear decrease (ledbat-core `ledbat`) */
	LB_ALGO_LINEAR_MIN = 2,  /* seed 002: linear with a minimum decrease (`ledbat-linear-min`) */
	LB_ALGO_MD = 3,          /* seed 002: multiplicative, fixed beta (`ledbat-md`) */
	LB_ALGO_MDVAR = 4,       /* seed 002: MDvar (`ledbat-mdvar`) */
	LB_ALGO_LEDBAT_PP = 5,   /* LEDBAT++ and the scavenger preset (`ledbat++`, `scavenger`) */
	LB_ALGO_TCP_LP = 6,      /* TCP-LP (`tcp-lp`) */
};

/* The delay signal the kernel glue feeds (the arithmetic itself takes a sample either way). */
enum lb_signal {
	LB_SIGNAL_OWD = 1,       /* one-way delay from the TCP timestamp option (seed 002, section 4) */
	LB_SIGNAL_RTT = 2,       /* the round-trip time of the newest packet acknowledged */
};

/* The competitor detection's parameters (ledbat-core `CompetitorConfig`, lbcc_competitor.h;
 * the loader's words: ledbat_tcp::params::competitor_words). */
struct lb_comp_params {
	__u64 enabled;
	__u64 share_q32;
	__u64 min_share_q32;
	__u64 suspect_rtts_q32;
	__u64 tests;
	__u64 test_gap_ns;
	__u64 test_packets_q32;
	__u64 push_share_q32;
	__u64 push_drop_q32;
	__u64 quiet_ns;
	__u64 yield_share_q32;
	__u64 probe_interval_ns;
	__u64 probe_share_q32;
	__u64 probe_inv_q32;   /* 1 / probe_share */
	__u64 confirm_ns;
	__u64 rate_window_ns;
};

#define LB_COMP_PARAMS_WORDS 16

/* Read through this, as lb_params_t (the BPF object's copy lives in read-only data). */
typedef const volatile struct lb_comp_params lb_comp_params_t;

struct lb_params {
	__u64 magic;             /* LB_PARAMS_MAGIC */
	__u64 version;           /* LB_PARAMS_VERSION */
	__u64 algo;              /* enum lb_algo */
	__u64 signal;            /* enum lb_signal */
	/* LEDBAT family (RFC 6817 section 3.4.2 names) */
	__u64 target_ns;
	__u64 gain_q32;          /* GAIN (RFC family) */
	__u64 allowed_increase_q32; /* packets */
	__u64 min_cwnd_q32;      /* packets */
	__u64 init_cwnd_q32;     /* packets */
	__u64 slow_start;        /* 0/1: RFC family's optional slow start, LEDBAT++'s initial one */
	__u64 ss_exit_ge_ns;     /* RFC family leaves slow start when qd >= this */
	__u64 ss_exit_gt_ns;     /* LEDBAT++ leaves slow start when qd > this */
	__u64 base_history;      /* buckets, 1..=LB_MAX_BASE */
	__u64 base_interval_ns;
	__u64 filter_len;        /* 1..=LB_MAX_FILTER */
	__u64 clamp_to_min_rtt;  /* 0/1 */
	/* seed 002 decrease schemes */
	__u64 min_decrease_q32;  /* linear-min: packets per RTT */
	__u64 beta_q32;          /* md */
	__u64 extra_decrease_q32; /* mdvar: packets */
	/* LEDBAT++ (draft -01) and this project's extensions */
	__u64 max_gain_divisor;  /* whole number >= 1 */
	__u64 periodic_slowdown; /* 0/1 */
	__u64 first_slowdown_rtts_q16;
	__u64 slowdown_hold_rtts_q16;
	__u64 slowdown_interval_q16;
	__u64 ramp_delay_exit;   /* 0/1 */
	__u64 join;              /* 0/1: slowdown_join > 0 */
	__u64 join_gt_ns;        /* joins below: qd > this counts as "above the threshold" */
	__u64 hold_packets_q32;
	__u64 hold_bdp_q32;
	__u64 join_pause;        /* 0/1 */
	__u64 conservative_slow_start; /* 0/1 */
	__u64 empty_queue_restart; /* 0/1 */
	/* TCP-LP */
	__u64 lp_alpha_q32;
	__u64 lp_delta_q32;
	__u64 lp_inference_rtts_q16;
	/* LEDBAT++: the slowdown interval's largest factor (`slowdown_backoff`, a whole
	 * number >= 1; 1 the draft's fixed interval) */
	__u64 slowdown_max_backoff;
	/* LEDBAT++: competitor detection (layout 3): `competitor.*`, and the hold of a test in
	 * RTTs (`competitor.test_hold_rtts`, 48.16) */
	struct lb_comp_params comp;
	__u64 comp_test_hold_rtts_q16;
};

#define LB_PARAMS_WORDS 53

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
