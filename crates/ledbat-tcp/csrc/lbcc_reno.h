/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Reno in packets, for a connection the glue could not give socket storage (its init found
 * none to allocate; bpf/ledbat.bpf.c counts them in lb_no_state). Such a connection has no
 * controller state, so it runs as the kernel's reno would on the tcp_sock's own fields,
 * rather than with a frozen window. The rules are Linux's (net/ipv4/tcp_cong.c), restated
 * on plain values so that the replay tool can run them (`reno_ca`, `reno_ssthresh`,
 * `reno_undo` in csrc/replay.c):
 *
 *   cong_avoid   nothing unless the sender is limited by the window (tcp_is_cwnd_limited:
 *                is_cwnd_limited, or in slow start cwnd < 2 max_packets_out); in slow
 *                start (cwnd < ssthresh) cwnd += acked up to ssthresh (tcp_slow_start),
 *                the rest of `acked` going on to avoidance; in avoidance one packet per
 *                cwnd packets acknowledged, counted in snd_cwnd_cnt (tcp_cong_avoid_ai
 *                with w = cwnd); cwnd at most snd_cwnd_clamp
 *   ssthresh     max(cwnd / 2, 2) (tcp_reno_ssthresh); the kernel halves the window
 *                towards it (PRR) and sets snd_ssthresh
 *   undo         max(cwnd, prior_cwnd) (tcp_reno_undo_cwnd)
 */
#ifndef LBCC_RENO_H
#define LBCC_RENO_H

#include "lbcc_types.h"

/* The tcp_sock fields reno reads and writes. */
struct lb_reno {
	__u32 cwnd;            /* snd_cwnd, packets */
	__u32 cnt;             /* snd_cwnd_cnt */
	__u32 ssthresh;        /* snd_ssthresh */
	__u32 clamp;           /* snd_cwnd_clamp (0: none) */
	__u32 max_packets_out; /* the most in flight in the last window */
	__u8 cwnd_limited;     /* tcp_sock.is_cwnd_limited */
};

LB_INLINE int lb_reno_in_slow_start(const struct lb_reno *r)
{
	return r->cwnd < r->ssthresh;
}

/* tcp_is_cwnd_limited */
LB_INLINE int lb_reno_cwnd_limited(const struct lb_reno *r)
{
	if (r->cwnd_limited)
		return 1;
	if (lb_reno_in_slow_start(r))
		return r->cwnd < 2 * r->max_packets_out;
	return 0;
}

LB_INLINE __u32 lb_reno_clamped(const struct lb_reno *r, __u32 cwnd)
{
	return r->clamp && cwnd > r->clamp ? r->clamp : cwnd;
}

/* tcp_reno_cong_avoid for an ACK of `acked` packets: updates cwnd and cnt. */
LB_INLINE void lb_reno_cong_avoid(struct lb_reno *r, __u32 acked)
{
	__u32 w;

	if (!lb_reno_cwnd_limited(r))
		return;
	if (lb_reno_in_slow_start(r)) {
		/* tcp_slow_start */
		__u32 to = r->cwnd + acked;

		if (to < r->cwnd || to > r->ssthresh) /* (overflow) or past ssthresh */
			to = r->ssthresh;
		acked -= to - r->cwnd;
		r->cwnd = lb_reno_clamped(r, to);
		if (!acked)
			return;
	}
	/* tcp_cong_avoid_ai(tp, cwnd, acked) */
	w = r->cwnd ? r->cwnd : 1;
	if (r->cnt >= w) {
		r->cnt = 0;
		r->cwnd++;
	}
	r->cnt += acked;
	if (r->cnt >= w) {
		__u32 delta = r->cnt / w;

		r->cnt -= delta * w;
		r->cwnd += delta;
	}
	r->cwnd = lb_reno_clamped(r, r->cwnd);
}

/* tcp_reno_ssthresh */
LB_INLINE __u32 lb_reno_ssthresh(__u32 cwnd)
{
	return cwnd / 2 > 2 ? cwnd / 2 : 2;
}

/* tcp_reno_undo_cwnd */
LB_INLINE __u32 lb_reno_undo(__u32 cwnd, __u32 prior_cwnd)
{
	return cwnd > prior_cwnd ? cwnd : prior_cwnd;
}

#endif
