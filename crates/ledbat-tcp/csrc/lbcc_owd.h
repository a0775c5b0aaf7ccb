/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One-way delay from the TCP timestamp option (RFC 7323), seed 002 section 4:
 *
 *   OWD = TSrcv - TSsnd
 *
 * where TSrcv is the TSval of an ACK (the receiver's clock when it sent the ACK) and TSsnd
 * its TSecr (our own TSval, echoed). The two clocks have an arbitrary offset (Linux also
 * adds a random per-connection offset), which the base delay removes; but they may tick at
 * different rates: Linux uses 1 ms ticks, or 1 us with the `tcp_usec_ts` route feature
 * (Linux 6.7+), older kernels and other systems 1-10 ms. Seed 002 knew its rates and did
 * not handle this; here the peer's rate is learnt, as the paper suggests, "by monitoring
 * the first samples in relation to the own clock":
 *
 *   - for the first second, the peer is assumed to tick as we do (Linux to Linux);
 *   - then ticks / elapsed time is matched against 1 us, 1 ms, 4 ms and 10 ms per tick
 *     (within 15 %); a rate other than ours makes the glue forget the base history, built
 *     on the wrong scale; no match (a clock that is not a clock) makes the samples unusable,
 *     and the glue falls back to the RTT signal.
 *
 * Both timestamps are converted to microseconds before the difference, modulo 2^32: the
 * scaling commutes with the wrap, and the delay estimator unwraps the result.
 *
 * With 1 ms ticks a sample is quantised to 1 ms: a queuing delay is known to about +-1 ms
 * (4 % of a 25 ms TARGET), and the base, a minimum, takes the low end. A delayed ACK echoes
 * the first of the segments it acknowledges (RFC 7323 section 4.3), so its sample also holds
 * the gap until the second one arrived, or the delayed-ACK timer; the first is constant in a
 * steady transfer, the second is an outlier the minimum filter removes.
 */
#ifndef LBCC_OWD_H
#define LBCC_OWD_H

#include "lbcc_types.h"

#define LB_OWD_LEARN_NS (1000ULL * LB_NS_PER_MS)

enum lb_owd_state { LB_OWD_NEW = 0, LB_OWD_LEARNING = 1, LB_OWD_KNOWN = 2, LB_OWD_UNUSABLE = 3 };

struct lb_owd {
	__u64 t0_ns;             /* our time at the first TSval */
	__u32 tsval0;            /* the peer's first TSval */
	__u32 peer_us_per_tick;  /* learnt rate (KNOWN) */
	__u8 state;
	__u8 _pad[7];
};

/* Whether `ticks` in `elapsed_us` is r microseconds per tick, within 15 %:
 * |elapsed - r ticks| * 20 <= 3 r ticks. */
LB_INLINE int lb_owd_is_rate(__u64 ticks, __u64 elapsed_us, __u64 r)
{
	__u64 expect = ticks * r;
	__u64 diff = elapsed_us > expect ? elapsed_us - expect : expect - elapsed_us;

	return diff * 20 <= 3 * expect;
}

/* The peer's microseconds per tick matched from `ticks` in `elapsed_us`, or 0. */
LB_INLINE __u32 lb_owd_match_rate(__u64 ticks, __u64 elapsed_us)
{
	if (ticks == 0)
		return 0;
	if (lb_owd_is_rate(ticks, elapsed_us, 1))
		return 1;
	if (lb_owd_is_rate(ticks, elapsed_us, 1000))
		return 1000;
	if (lb_owd_is_rate(ticks, elapsed_us, 4000))
		return 4000;
	if (lb_owd_is_rate(ticks, elapsed_us, 10000))
		return 10000;
	return 0;
}

/*
 * One ACK's timestamps at `now`. Returns 1 with a sample in microseconds (wrapping), 0 when
 * there is none (no echo yet, or the peer's clock is unusable). *rescaled is set when the
 * rate just learnt differs from the assumed one: earlier samples were on another scale.
 */
LB_INLINE int lb_owd_sample(struct lb_owd *o, __u64 now, __u32 tsval, __u32 tsecr,
			    __u32 our_us_per_tick, __u32 *sample_us, int *rescaled)
{
	__u32 peer = our_us_per_tick;

	*rescaled = 0;
	if (tsecr == 0)
		return 0;
	if (o->state == LB_OWD_NEW) {
		o->state = LB_OWD_LEARNING;
		o->t0_ns = now;
		o->tsval0 = tsval;
	}
	/* a clock that did not tick in the learning second (the slowest rate known ticks
	 * every 10 ms) is not a clock: unusable, as a rate that matches none */
	if (o->state == LB_OWD_LEARNING && lb_since(now, o->t0_ns) >= LB_OWD_LEARN_NS &&
	    tsval == o->tsval0)
		o->state = LB_OWD_UNUSABLE;
	if (o->state == LB_OWD_LEARNING && lb_since(now, o->t0_ns) >= LB_OWD_LEARN_NS) {
		__u32 r = lb_owd_match_rate((__u32)(tsval - o->tsval0),
					    lb_since(now, o->t0_ns) / LB_NS_PER_US);

		if (r == 0) {
			o->state = LB_OWD_UNUSABLE;
		} else {
			o->state = LB_OWD_KNOWN;
			o->peer_us_per_tick = r;
			*rescaled = r != our_us_per_tick;
		}
	}
	if (o->state == LB_OWD_UNUSABLE)
		return 0;
	if (o->state == LB_OWD_KNOWN)
		peer = o->peer_us_per_tick;
	*sample_us = tsval * peer - tsecr * our_us_per_tick;
	return 1;
}

#endif
