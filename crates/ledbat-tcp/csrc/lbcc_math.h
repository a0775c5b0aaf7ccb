/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Exact products and quotients of 64-bit integers without a 128-bit type (BPF has none):
 *
 *   lb_muldiv(a, b, c)       = floor(a * b / c)
 *   lb_muldiv_round(a, b, c) = floor((a * b + c / 2) / c)   (round half up)
 *
 * a * b is formed exactly in two 64-bit halves and divided by restoring long division, so
 * the only error is the final floor. A quotient that does not fit in 64 bits saturates at
 * 2^64 - 1, and so does a division by zero: callers treat both as "larger than anything".
 */
#ifndef LBCC_MATH_H
#define LBCC_MATH_H

#include "lbcc_types.h"

struct lb_u128 {
	__u64 hi;
	__u64 lo;
};

LB_INLINE struct lb_u128 lb_mul128(__u64 a, __u64 b)
{
	__u64 a_lo = a & 0xffffffffULL, a_hi = a >> 32;
	__u64 b_lo = b & 0xffffffffULL, b_hi = b >> 32;
	__u64 ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
	__u64 mid = (ll >> 32) + (lh & 0xffffffffULL) + (hl & 0xffffffffULL);
	struct lb_u128 r;

	r.lo = (mid << 32) | (ll & 0xffffffffULL);
	r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return r;
}

LB_INLINE struct lb_u128 lb_add128(struct lb_u128 x, __u64 y)
{
	__u64 lo = x.lo + y;

	x.hi += lo < x.lo;
	x.lo = lo;
	return x;
}

/* floor((hi * 2^64 + lo) / c), saturating. */
LB_SUBPROG __u64 lb_div128_hl(__u64 hi, __u64 lo, __u64 c)
{
	__u64 q = 0;
	int i;

	if (c == 0)
		return LB_U64_MAX;
	if (hi == 0)
		return lo / c;
	if (hi >= c)
		return LB_U64_MAX;
	/* hi < c: shift the 128-bit remainder left one bit at a time. */
	for (i = 0; i < 64; i++) {
		__u64 top = hi >> 63;

		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		q <<= 1;
		if (top || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
}

/* floor(x / c), saturating. */
LB_INLINE __u64 lb_div128(struct lb_u128 x, __u64 c)
{
	return lb_div128_hl(x.hi, x.lo, c);
}

LB_INLINE __u64 lb_muldiv(__u64 a, __u64 b, __u64 c)
{
	return lb_div128(lb_mul128(a, b), c);
}

LB_INLINE __u64 lb_muldiv_round(__u64 a, __u64 b, __u64 c)
{
	return lb_div128(lb_add128(lb_mul128(a, b), c / 2), c);
}

/* round(d * k) for a 48.16 fixed-point factor k, half up: the core's `scale(d, k)` exactly
 * when k is a multiple of 2^-16 (2, 9, 0.5, 4.5 ...). */
LB_INLINE __u64 lb_scale_q16(__u64 d, __u64 k_q16)
{
	return lb_muldiv_round(d, k_q16, LB_ONE_Q16);
}

/* Whether a window `x` (Q32 bytes) has reached `limit`: `x >= limit` as the core compares
 * its f64, with a slack of 2^-12 byte for the rounding this file's fixed point accumulates
 * (far more than the differential test's largest difference, docs/tcp/measured.md). Where
 * the core's window lands exactly on a limit (a ramp back to ssthresh, a regrowth target),
 * the fixed point may lie a hair below it; without the slack the two would leave the ramp
 * an ACK apart. */
#define LB_REACH_SLACK_Q32 (1ULL << 20)
LB_INLINE int lb_reached(__u64 x, __u64 limit)
{
	return x >= limit || limit - x <= LB_REACH_SLACK_Q32;
}

/* slow_start.rs's `empty_queue_threshold`: RFC 9406's eta, base / 8 within 4..16 ms (4 ms
 * before a base is known: pass 0). */
#define LB_ETA_MIN_NS (4ULL * LB_NS_PER_MS)
#define LB_ETA_MAX_NS (16ULL * LB_NS_PER_MS)
#define LB_ETA_DIVISOR 8ULL

LB_INLINE __u64 lb_empty_queue_eta(__u64 base_ns)
{
	__u64 eta = base_ns / LB_ETA_DIVISOR;

	if (eta < LB_ETA_MIN_NS)
		eta = LB_ETA_MIN_NS;
	if (eta > LB_ETA_MAX_NS)
		eta = LB_ETA_MAX_NS;
	return eta;
}

#endif
