/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * TCP-LP (Kuzmanovic & Knightly, INFOCOM 2003; seed 003 section 3.1.4), as ledbat-core's
 * `tcp_lp` module computes it over `reno::RenoWindow` (RFC 5681 with RFC 3465's L = 2):
 *
 *   D~ = (1 - alpha) D~ + alpha D                   smoothed one-way delay, alpha = 1/8
 *   early congestion:  D~ > d_min + (d_max - d_min) delta,  delta = 0.15
 *   then cwnd = cwnd / 2 (1 MSS inside the inference period), ssthresh = max(cwnd, 2 MSS),
 *   an inference period of inference_rtts * srtt without growth, and the delay range reset
 *   to d_min = D~, d_max = 2 D~ (D~ made absolute as in the core's module comment).
 *   Otherwise Reno: slow start by min(bytes, 2 MSS) up to ssthresh, then one MSS per window.
 *
 * Delays are kept relative to the first sample (microseconds, 48.16 fixed point here, f64
 * in the core), so the clock offset cancels.
 */
#ifndef LBCC_LP_H
#define LBCC_LP_H

#include "lbcc_ledbat.h"

/* k * x for a signed x and a Q32 factor k: exact but for the final floor of the magnitude. */
LB_INLINE __s64 lb_mul_q32_signed(__s64 x, __u64 k_q32)
{
	__u64 m = x < 0 ? (__u64)(-x) : (__u64)x;
	__u64 r = lb_muldiv(m, k_q32, LB_ONE_Q32);

	return x < 0 ? -(__s64)r : (__s64)r;
}

LB_INLINE void lb_lp_init(struct lb_cc *c, lb_params_t *p, __u64 mss)
{
	if (mss == 0)
		mss = 1;
	c->mss = mss;
	c->lp.init_cwnd = lb_pkts_to_bytes_q32(p->init_cwnd_q32, mss);
	c->cwnd = c->lp.init_cwnd;
	c->lp.ssthresh = p->slow_start ? LB_U64_MAX : c->lp.init_cwnd;
}

/* ---- RenoWindow ---- */

LB_INLINE void lb_reno_on_ack(struct lb_cc *c, const struct lb_ack *a)
{
	c->lp.flight = lb_sat_sub(a->flight_before, a->bytes_acked);
	c->lp.rto_backoff = 0;
	c->lp.recovering = c->has_last_reduction && a->newest_sent_ns < c->last_reduction_ns;
}

LB_INLINE void lb_reno_avoidance(struct lb_cc *c, __u64 bytes_q32)
{
	__u64 w = lb_max_u64(c->cwnd, c->mss << 32);

	c->lp.acked = lb_sat_add(c->lp.acked, bytes_q32);
	if (c->lp.acked >= w) {
		c->lp.acked -= w;
		c->cwnd = lb_sat_add(c->cwnd, c->mss << 32);
		c->lp.acked = lb_min_u64(c->lp.acked, c->cwnd);
	}
}

LB_INLINE void lb_reno_grow(struct lb_cc *c, __u64 bytes)
{
	__u64 rest = bytes << 32;

	if (c->lp.recovering)
		return;
	if (c->cwnd < c->lp.ssthresh) {
		__u64 step = lb_min_u64(bytes << 32, (2 * c->mss) << 32);
		__u64 room = c->lp.ssthresh - c->cwnd;

		if (step <= room) {
			c->cwnd += step;
			rest = 0;
		} else {
			c->cwnd = c->lp.ssthresh;
			rest = step - room;
		}
	}
	if (rest > 0)
		lb_reno_avoidance(c, rest);
}

/* max(flight / 2, 2 MSS), Q32 bytes. */
LB_INLINE __u64 lb_reno_half_flight(const struct lb_cc *c, __u64 flight)
{
	return lb_max_u64((flight << 32) / 2, (2 * c->mss) << 32);
}

LB_INLINE void lb_reno_loss(struct lb_cc *c, __u64 now, __u64 sent_at, __u64 in_flight)
{
	if (c->has_last_reduction && sent_at <= c->last_reduction_ns)
		return;
	c->last_reduction_ns = now;
	c->has_last_reduction = 1;
	c->lp.ssthresh = lb_reno_half_flight(c, in_flight);
	c->cwnd = c->lp.ssthresh;
	c->lp.acked = 0;
}

LB_INLINE void lb_reno_timeout(struct lb_cc *c, __u64 now, int kind)
{
	if (kind == LB_TIMEOUT_RTO) {
		if (!c->lp.rto_backoff)
			c->lp.ssthresh = lb_reno_half_flight(c, c->lp.flight);
		c->lp.rto_backoff = 1;
		c->cwnd = c->mss << 32;
		c->lp.acked = 0;
		c->last_reduction_ns = now;
		c->has_last_reduction = 1;
	} else {
		c->cwnd = lb_min_u64(c->cwnd, c->lp.init_cwnd);
	}
}

/* ---- TCP-LP ---- */

LB_INLINE __u64 lb_lp_inference_ns(const struct lb_cc *c, lb_params_t *p)
{
	return c->rtt.has ? lb_scale_q16(c->rtt.srtt_ns, p->lp_inference_rtts_q16) : 0;
}

LB_INLINE int lb_lp_in_inference(const struct lb_cc *c, lb_params_t *p, __u64 now)
{
	return c->lp.has_last_drop && lb_since(now, c->lp.last_drop_ns) < lb_lp_inference_ns(c, p);
}

LB_INLINE int lb_lp_early_congestion(const struct lb_cc *c, lb_params_t *p)
{
	__s64 range;

	if (!c->lp.has_smoothed || !c->lp.has_range || c->lp.d_max_q16 <= c->lp.d_min_q16)
		return 0;
	range = c->lp.d_max_q16 - c->lp.d_min_q16;
	return c->lp.smoothed_q16 > c->lp.d_min_q16 + lb_mul_q32_signed(range, p->lp_delta_q32);
}

/* One relative delay sample v (Q16 microseconds). */
LB_INLINE void lb_lp_on_delay(struct lb_cc *c, lb_params_t *p, __s64 v)
{
	struct lb_lp *l = &c->lp;

	if (!l->has_lowest || v < l->lowest_q16) {
		l->lowest_q16 = v;
		l->has_lowest = 1;
	}
	if (!l->has_range) {
		/* d_min = +inf, d_max = -inf: the first sample sets both, the record too */
		l->d_min_q16 = v;
		l->d_max_q16 = v;
		l->d_max_rsv_q16 = v;
		l->has_rsv = 1;
		l->has_range = 1;
	} else {
		if (v < l->d_min_q16)
			l->d_min_q16 = v;
		if (v > l->d_max_q16) {
			/* "always forget the max of the max" (Linux tcp_lp) */
			if (l->has_rsv && v <= l->d_max_rsv_q16) {
				l->d_max_q16 = v;
			} else if (l->has_rsv) {
				l->d_max_q16 = l->d_max_rsv_q16;
				l->d_max_rsv_q16 = v;
			} else {
				l->d_max_q16 = v;
				l->d_max_rsv_q16 = v;
				l->has_rsv = 1;
			}
		}
	}
	if (!l->has_smoothed) {
		l->smoothed_q16 = v;
		l->has_smoothed = 1;
	} else {
		l->smoothed_q16 += lb_mul_q32_signed(v - l->smoothed_q16, p->lp_alpha_q32);
	}
}

LB_INLINE void lb_lp_reset_range(struct lb_cc *c, __s64 s)
{
	struct lb_lp *l = &c->lp;
	/* the base one-way delay: half the minimum RTT, in Q16 microseconds */
	__s64 base = c->rtt.has ? (__s64)lb_muldiv(c->rtt.min_ns, LB_ONE_Q16, 2 * LB_NS_PER_US) : 0;
	__s64 above = s - l->lowest_q16;
	__s64 absolute = (above > 0 ? above : 0) + base;

	l->d_min_q16 = s;
	l->d_max_q16 = s + absolute;
	l->d_max_rsv_q16 = l->d_max_q16;
	l->has_rsv = 1;
}

LB_INLINE void lb_lp_ack(struct lb_cc *c, lb_params_t *p, __u64 now,
			 const struct lb_ack *a)
{
	lb_reno_on_ack(c, a);
	if (a->has_rtt)
		lb_rtt_sample(&c->rtt, a->rtt_ns);
	if (a->has_delay) {
		struct lb_delay *d = &c->delay;
		__s64 raw = d->has_last ? d->last_v + (__s64)(__s32)(a->delay_us - d->last_raw) :
					  (__s64)a->delay_us;

		d->last_raw = a->delay_us;
		d->last_v = raw;
		d->has_last = 1;
		if (!c->lp.has_origin) {
			c->lp.origin_us = raw;
			c->lp.has_origin = 1;
		}
		lb_lp_on_delay(c, p, (raw - c->lp.origin_us) * (__s64)LB_ONE_Q16);
	}
	if (lb_lp_early_congestion(c, p)) {
		__u64 mss = c->mss << 32;

		c->cwnd = lb_lp_in_inference(c, p, now) ? mss : lb_max_u64(c->cwnd / 2, mss);
		c->lp.ssthresh = lb_max_u64(c->cwnd, 2 * mss);
		c->last_reduction_ns = now;
		c->has_last_reduction = 1;
		c->lp.acked = 0;
		c->lp.last_drop_ns = now;
		c->lp.has_last_drop = 1;
		c->lp.inference = 1;
		lb_lp_reset_range(c, c->lp.smoothed_q16);
		return;
	}
	if (lb_lp_in_inference(c, p, now)) {
		c->lp.inference = 1;
	} else {
		c->lp.inference = 0;
		lb_reno_grow(c, a->bytes_acked);
	}
}

/* TCP-LP's share of lb_on_delay_source_change: the unwrapper, the origin, the smoothed delay
 * and the delay range start again from the next sample (the window and the inference
 * period are kept). */
LB_INLINE void lb_lp_reset_signal(struct lb_cc *c)
{
	c->delay.has_last = 0;
	c->lp.has_origin = 0;
	c->lp.has_smoothed = 0;
	c->lp.has_range = 0;
	c->lp.has_rsv = 0;
	c->lp.has_lowest = 0;
}

#endif
