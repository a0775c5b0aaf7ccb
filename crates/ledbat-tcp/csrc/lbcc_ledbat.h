/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * RFC 6817 LEDBAT and seed 002's decrease schemes, as ledbat-core's `ledbat`, `linear_min`,
 * `md` and `mdvar` modules compute them; the window in bytes, 32.32 fixed point.
 *
 * On every ACK newly acknowledging `bytes` (RFC 6817 section 2.4.2):
 *
 *   off_target = (TARGET - qd) / TARGET
 *   linear      cwnd += GAIN * off_target * bytes * MSS / cwnd
 *   linear-min  the same, but a decrease is at least min_decrease packets per RTT
 *   md          off_target < 0:  cwnd = beta * cwnd,                    once per RTT
 *   mdvar       off_target < 0:  cwnd = (1 - TARGET / rtt) cwnd - 3 MSS, once per RTT
 *   then        cwnd = min(cwnd, flightsize + ALLOWED_INCREASE * MSS), cwnd >= MIN_CWND
 *
 * "Once per RTT" (seed 002 section 3.2) waits for an ACK of a packet sent after the last
 * reduction. A loss halves the window once per RTT (a loss of a packet sent before the last
 * reduction is the same event); a retransmission timeout sets it to one MSS. The optional
 * slow start adds the bytes acknowledged until qd reaches slow_start_exit * TARGET.
 *
 * `struct lb_cc` also holds what LEDBAT++ and TCP-LP add (lbcc_pp.h, lbcc_lp.h): one state
 * for every algorithm, so that the kernel glue has one socket-storage layout.
 */
#ifndef LBCC_LEDBAT_H
#define LBCC_LEDBAT_H

#include "lbcc_competitor.h"
#include "lbcc_delay.h"
#include "lbcc_math.h"

/* What one ACK tells the controller (ledbat-core's `Ack`, with at most one delay sample). */
struct lb_ack {
	__u64 bytes_acked;
	__u64 flight_before;     /* bytes in flight before the ACK, those it acknowledges included */
	__u64 newest_sent_ns;    /* send time of the newest packet acknowledged */
	__u64 rtt_ns;            /* valid when has_rtt (Karn's rule) */
	/* bytes delivered so far, this ACK's included, and whether delivery is marked
	 * application-limited (the competitor detection's rate samples; DeliveryRate) */
	__u64 delivered;
	__u32 delay_us;          /* one-way sample, valid when has_delay */
	__u32 packets_acked;
	__u8 has_rtt;
	__u8 has_delay;
	__u8 app_limited;
	__u8 _pad[5];
};

enum lb_timeout {
	LB_TIMEOUT_RTO = 1,      /* retransmission timeout (RFC 6817's CTO) */
	LB_TIMEOUT_IDLE = 2,     /* data again after an idle RTO */
};

/* LEDBAT++ slowdown cycle (lbcc_pp.h). */
enum lb_sd_phase { LB_SD_IDLE = 0, LB_SD_HOLD = 1, LB_SD_RAMP = 2 };

struct lb_slowdowns {
	__u64 until_ns;          /* end of the hold */
	__u64 at_ns;             /* next slowdown, when has_at */
	__u64 start_ns;
	__u64 end_ns;
	__u64 ssthresh;          /* Q32 bytes, when has_ssthresh */
	__u64 count;
	/* the join rule's evidence */
	__u64 above_since_ns;
	__u64 peak_flight;       /* bytes */
	__u64 peak_qd_ns;
	__u64 dip_since_ns;
	/* join_recent: the largest flight (bytes) of the current and the previous RTT-long
	 * window above the threshold and when the current one opened; when the queue first
	 * fell with a drop the flight explained (the flow stays armed one RTT) */
	__u64 window_start_ns;
	__u64 window_prev;
	__u64 window_cur;
	__u64 falling_since_ns;
	/* slowdown_backoff: the interval's factor (0 read as 1), and what the last hold of the
	 * flow's own saw (`competitor::Competitor`'s hold measurement, `LedbatPp::hold_base`) */
	__u64 backoff;
	__u64 hold_start_ns;
	__u64 hold_rtt_ns;
	__u64 hold_min_ns;       /* smallest queuing delay from one RTT into the hold */
	__u64 hold_base_ns;      /* the base delay when the hold began */
	__u64 hold_rtts_q16;     /* the next hold's length, when has_hold_rtts (a test's) */
	__u8 phase;
	__u8 has_at, has_start, has_end, has_ssthresh;
	__u8 first_scheduled, join_pending, joined;
	__u8 early, has_above, armed, has_dip;
	__u8 has_hold_start, has_hold_min, has_hold_base;
	__u8 has_hold_rtts, has_window_start, has_falling;
};

/* TCP-LP's Reno window and delay range (lbcc_lp.h), 32.32 fixed point. */
struct lb_lp {
	__u64 ssthresh;          /* Q32 bytes, U64_MAX until the first reduction */
	__u64 init_cwnd;         /* Q32 bytes */
	__u64 acked;             /* Q32 bytes acknowledged in avoidance */
	__u64 flight;            /* bytes */
	__s64 origin_us;
	__s64 smoothed_q16;      /* EWMA of the relative delay, microseconds Q16 */
	__s64 d_min_q16, d_max_q16, d_max_rsv_q16, lowest_q16; /* microseconds Q16 */
	__u64 last_drop_ns;
	__u8 has_origin, has_smoothed, has_range, has_rsv, has_lowest, has_last_drop;
	__u8 rto_backoff, recovering, inference;
	__u8 _pad[7];
};

struct lb_cc {
	__u64 mss;               /* bytes */
	__u64 cwnd;              /* Q32 bytes */
	__u64 min_cwnd;          /* Q32 bytes */
	__u64 allowed_increase;  /* Q32 bytes */
	__u64 last_reduction_ns;
	struct lb_delay delay;
	struct lb_rtt rtt;
	struct lb_slowdowns sd;
	struct lb_lp lp;
	/* LEDBAT++ slow starts (slow_start.rs) */
	__u64 regrow_to;         /* Q32 bytes, when has_regrow */
	__u64 empty_since_ns;
	__u8 has_last_reduction;
	__u8 slow_start;         /* RFC family's optional slow start */
	__u8 pp_slow_start;      /* LEDBAT++: initial slow start or a restart */
	__u8 ramp_from_bdp, pause, restarted, has_regrow, has_empty;
	/* for stats: the last queuing delay seen */
	__u64 last_qd_ns;
	__u8 has_qd;
	__u8 _pad[7];
	/* LEDBAT++ competitor detection (competitor.enabled): the latest event's time (a
	 * probe's limits depend on it), the rate samples' span, the detection */
	__u64 now_ns;
	struct lb_span span;
	struct lb_comp comp;
};

/* Packets (Q32) times MSS: bytes in Q32. */
LB_INLINE __u64 lb_pkts_to_bytes_q32(__u64 pkts_q32, __u64 mss)
{
	return lb_muldiv(pkts_q32, mss, 1);
}

LB_INLINE void lb_ledbat_init(struct lb_cc *c, lb_params_t *p, __u64 mss)
{
	if (mss == 0)
		mss = 1;
	c->mss = mss;
	c->cwnd = lb_pkts_to_bytes_q32(p->init_cwnd_q32, mss);
	c->min_cwnd = lb_pkts_to_bytes_q32(p->min_cwnd_q32, mss);
	c->allowed_increase = lb_pkts_to_bytes_q32(p->allowed_increase_q32, mss);
	c->slow_start = p->algo == LB_ALGO_LEDBAT || p->algo == LB_ALGO_LINEAR_MIN ?
			(__u8)p->slow_start : 0;
	c->delay.base_min = 0x7fffffffffffffffLL;
}

/* Feeds the ACK's delay and RTT samples (`LedbatState::absorb`); returns the queuing delay. */
LB_INLINE int lb_absorb(struct lb_cc *c, lb_params_t *p, __u64 now,
			const struct lb_ack *a, __u64 *qd)
{
	if (a->has_delay)
		lb_delay_sample(&c->delay, p, now, a->delay_us);
	if (a->has_rtt) {
		lb_rtt_sample(&c->rtt, a->rtt_ns);
		lb_delay_rtt(&c->delay, a->rtt_ns);
	}
	return lb_queuing_delay(&c->delay, p, qd);
}

/* The RTT as the delay signal (`LedbatState::absorb_rtt`, LEDBAT++). */
LB_INLINE int lb_absorb_rtt(struct lb_cc *c, lb_params_t *p, __u64 now,
			    const struct lb_ack *a, __u64 *qd)
{
	if (a->has_rtt) {
		__u64 us = a->rtt_ns / LB_NS_PER_US;

		lb_rtt_sample(&c->rtt, a->rtt_ns);
		lb_delay_rtt(&c->delay, a->rtt_ns);
		lb_delay_sample(&c->delay, p, now, (__u32)lb_min_u64(us, 0x7fffffffULL));
	}
	return lb_queuing_delay(&c->delay, p, qd);
}

LB_INLINE void lb_clamp_min(struct lb_cc *c)
{
	if (c->cwnd < c->min_cwnd)
		c->cwnd = c->min_cwnd;
}

/* RFC 6817's cap at flightsize + ALLOWED_INCREASE * MSS, and the MIN_CWND floor. A flight of
 * 2^31 bytes or more cannot cap a Q32 window. */
LB_INLINE void lb_cap_and_floor(struct lb_cc *c, __u64 flight_before)
{
	if (flight_before < (1ULL << 31)) {
		__u64 max_allowed = lb_sat_add(flight_before << 32, c->allowed_increase);

		if (c->cwnd > max_allowed)
			c->cwnd = max_allowed;
	}
	lb_clamp_min(c);
}

LB_INLINE int lb_acks_after_reduction(const struct lb_cc *c, __u64 newest_sent)
{
	return !c->has_last_reduction || newest_sent > c->last_reduction_ns;
}

/* `LedbatState::new_congestion_event`. */
LB_INLINE int lb_new_congestion_event(struct lb_cc *c, __u64 now, __u64 sent_at)
{
	if (c->has_last_reduction && sent_at <= c->last_reduction_ns)
		return 0;
	c->last_reduction_ns = now;
	c->has_last_reduction = 1;
	c->slow_start = 0;
	return 1;
}

LB_INLINE int lb_halve_on_loss(struct lb_cc *c, __u64 now, __u64 sent_at)
{
	if (!lb_new_congestion_event(c, now, sent_at))
		return 0;
	c->cwnd = lb_max_u64(c->cwnd / 2, c->min_cwnd);
	return 1;
}

LB_INLINE void lb_ledbat_timeout(struct lb_cc *c, __u64 now, int kind)
{
	if (kind == LB_TIMEOUT_RTO) {
		c->cwnd = c->mss << 32;
		c->slow_start = 0;
		c->last_reduction_ns = now;
		c->has_last_reduction = 1;
	}
}

/* cwnd += (sign) r_q32 packets per RTT applied to `bytes` acknowledged:
 * r * bytes * MSS / cwnd, in Q32 bytes. A decrease never takes the window below zero
 * (the floor comes after). */
LB_INLINE void lb_apply_per_rtt(struct lb_cc *c, __u64 r_q32, int negative, __u64 bytes)
{
	struct lb_u128 prod, num;
	__u64 step;

	if (c->cwnd == 0)
		return;
	/* r_q32 * bytes * mss * 2^32 / cwnd_q32: the 128-bit product r_q32 * (bytes * mss)
	 * (bytes * mss < 2^56 for any TCP: bytes < 2^40, an MSS < 2^16), shifted 32 bits left,
	 * over cwnd. The product exceeds 64 bits as soon as off_target * bytes * MSS >= 2^32:
	 * four 32 KB segments in one ACK on loopback, where saturating it once cut the step to
	 * 2^64 / cwnd_q32 (docs/tcp/README.md, "The same check on a running kernel"). A
	 * product of 2^96 or more (a step beyond 2^64) saturates the step. */
	prod = lb_mul128(r_q32, bytes * c->mss);
	if (prod.hi >> 32) {
		step = LB_U64_MAX;
	} else {
		num.hi = (prod.hi << 32) | (prod.lo >> 32);
		num.lo = prod.lo << 32;
		step = lb_div128(num, c->cwnd);
	}
	if (negative)
		c->cwnd = lb_sat_sub(c->cwnd, step);
	else
		c->cwnd = lb_sat_add(c->cwnd, step);
}

/* |TARGET - qd| / TARGET * gain, Q32; *negative when qd > TARGET. */
LB_INLINE __u64 lb_off_target_gain(lb_params_t *p, __u64 qd, int *negative)
{
	__u64 t = p->target_ns;
	__u64 diff;

	*negative = qd > t;
	diff = *negative ? qd - t : t - qd;
	return lb_muldiv(p->gain_q32, diff, t);
}

/* RFC family's slow start (`LedbatState::slow_start_step`): true if it took the ACK. */
LB_INLINE int lb_slow_start_step(struct lb_cc *c, lb_params_t *p, __u64 qd,
				 __u64 bytes)
{
	if (!c->slow_start)
		return 0;
	if (qd >= p->ss_exit_ge_ns) {
		c->slow_start = 0;
		return 0;
	}
	c->cwnd = lb_sat_add(c->cwnd, bytes << 32);
	return 1;
}

LB_INLINE void lb_ledbat_ack(struct lb_cc *c, lb_params_t *p, __u64 now,
			     const struct lb_ack *a)
{
	__u64 qd, r;
	int neg;

	if (!lb_absorb(c, p, now, a, &qd))
		return;
	c->last_qd_ns = qd;
	c->has_qd = 1;
	switch (p->algo) {
	case LB_ALGO_LEDBAT:
	case LB_ALGO_LINEAR_MIN:
		if (lb_slow_start_step(c, p, qd, a->bytes_acked))
			break;
		r = lb_off_target_gain(p, qd, &neg);
		if (neg && p->algo == LB_ALGO_LINEAR_MIN && r < p->min_decrease_q32)
			r = p->min_decrease_q32;
		lb_apply_per_rtt(c, r, neg, a->bytes_acked);
		break;
	case LB_ALGO_MD:
		r = lb_off_target_gain(p, qd, &neg);
		if (!neg) {
			lb_apply_per_rtt(c, r, 0, a->bytes_acked);
		} else if (a->bytes_acked > 0 && lb_acks_after_reduction(c, a->newest_sent_ns)) {
			c->cwnd = lb_muldiv(c->cwnd, p->beta_q32, LB_ONE_Q32);
			c->last_reduction_ns = now;
			c->has_last_reduction = 1;
		}
		break;
	case LB_ALGO_MDVAR:
		r = lb_off_target_gain(p, qd, &neg);
		if (!neg) {
			lb_apply_per_rtt(c, r, 0, a->bytes_acked);
		} else if (a->bytes_acked > 0 && lb_acks_after_reduction(c, a->newest_sent_ns) &&
			   c->rtt.has && c->rtt.latest_ns > 0) {
			/* (1 - TARGET / rtt) * cwnd - extra * MSS, beta never negative */
			__u64 rtt = c->rtt.latest_ns;
			__u64 kept = rtt > p->target_ns ?
				     lb_muldiv(c->cwnd, rtt - p->target_ns, rtt) : 0;

			c->cwnd = lb_sat_sub(kept, lb_pkts_to_bytes_q32(p->extra_decrease_q32,
									c->mss));
			c->last_reduction_ns = now;
			c->has_last_reduction = 1;
		}
		break;
	default:
		break;
	}
	lb_cap_and_floor(c, a->flight_before);
}

#endif
