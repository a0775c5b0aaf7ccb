/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What the kernel glue publishes per connection for `ledbat tcp stats`: one entry of an LRU
 * hash map per connection, keyed by its addresses and ports, refreshed at most every
 * LB_STATS_INTERVAL_NS and deleted when the connection releases the controller. The Rust
 * side (`ledbat_tcp::stats`) reads the same words in the same order.
 */
#ifndef LBCC_STATS_H
#define LBCC_STATS_H

#include "lbcc_types.h"

#define LB_STATS_INTERVAL_NS (100ULL * LB_NS_PER_MS)
#define LB_STATS_MAX_FLOWS 4096

/* IPv4 addresses sit in the first word, the rest zero; ports in host order. */
struct lb_flow_key {
	__u32 family;
	__u16 lport;
	__u16 rport;
	__u32 laddr[4];
	__u32 raddr[4];
};

enum lb_flow_flags {
	LB_FLOW_HAS_QD = 1,
	LB_FLOW_HAS_BASE = 2,
	LB_FLOW_OWD_UNUSABLE = 4,  /* the peer's timestamp clock gave no usable rate */
	LB_FLOW_NO_TIMESTAMPS = 8, /* the connection has no timestamp option */
	LB_FLOW_PAUSED = 16,       /* a joined slowdown holds one packet (the core sends none) */
};

struct lb_flow_stats {
	__u64 updated_ns;        /* tcp clock, ns */
	__u64 cwnd_bytes;        /* the controller's window */
	__u64 snd_cwnd;          /* packets, as written to the socket */
	__u64 mss;
	__u64 base_ns;           /* base delay (wire value: one-way with clock offset, or RTT) */
	__u64 current_ns;        /* filtered current delay, same scale */
	__u64 qd_ns;             /* queuing delay estimate */
	__u64 srtt_ns;
	__u64 slowdowns;
	__u64 delay_samples;
	__u64 owd_us_per_tick;   /* the peer's timestamp rate, 0 until learnt */
	__u64 losses;            /* congestion events the kernel reported (ssthresh calls) */
	__u64 timeouts;          /* retransmission timeouts */
	__u64 undos;             /* spurious reductions the kernel undid */
	__u32 phase;             /* lb_phase() */
	__u32 flags;             /* enum lb_flow_flags */
};

#define LB_FLOW_KEY_SIZE 40
#define LB_FLOW_STATS_SIZE 120

#if defined(__bpf__) || defined(__STDC_VERSION__)
_Static_assert(sizeof(struct lb_flow_key) == LB_FLOW_KEY_SIZE, "lb_flow_key layout");
_Static_assert(sizeof(struct lb_flow_stats) == LB_FLOW_STATS_SIZE, "lb_flow_stats layout");
/* where ledbat_tcp::stats::FlowStats::decode reads each field (its word indices and byte
 * offsets are literals there): a change here must change it too */
#define LB_AT(t, f, off) _Static_assert(__builtin_offsetof(t, f) == (off), #t "." #f)
LB_AT(struct lb_flow_key, family, 0);
LB_AT(struct lb_flow_key, lport, 4);
LB_AT(struct lb_flow_key, rport, 6);
LB_AT(struct lb_flow_key, laddr, 8);
LB_AT(struct lb_flow_key, raddr, 24);
LB_AT(struct lb_flow_stats, updated_ns, 0 * 8);
LB_AT(struct lb_flow_stats, cwnd_bytes, 1 * 8);
LB_AT(struct lb_flow_stats, snd_cwnd, 2 * 8);
LB_AT(struct lb_flow_stats, mss, 3 * 8);
LB_AT(struct lb_flow_stats, base_ns, 4 * 8);
LB_AT(struct lb_flow_stats, current_ns, 5 * 8);
LB_AT(struct lb_flow_stats, qd_ns, 6 * 8);
LB_AT(struct lb_flow_stats, srtt_ns, 7 * 8);
LB_AT(struct lb_flow_stats, slowdowns, 8 * 8);
LB_AT(struct lb_flow_stats, delay_samples, 9 * 8);
LB_AT(struct lb_flow_stats, owd_us_per_tick, 10 * 8);
LB_AT(struct lb_flow_stats, losses, 11 * 8);
LB_AT(struct lb_flow_stats, timeouts, 12 * 8);
LB_AT(struct lb_flow_stats, undos, 13 * 8);
LB_AT(struct lb_flow_stats, phase, 112);
LB_AT(struct lb_flow_stats, flags, 116);
_Static_assert(LB_FLOW_HAS_QD == 1 && LB_FLOW_HAS_BASE == 2 && LB_FLOW_OWD_UNUSABLE == 4 &&
	       LB_FLOW_NO_TIMESTAMPS == 8 && LB_FLOW_PAUSED == 16, "stats.rs's flag bits");
#undef LB_AT
#endif

#endif
