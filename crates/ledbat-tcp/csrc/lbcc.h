/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The controllers of `ledbat tcp`, one arithmetic for the BPF object and for the host
 * replay tool of the differential test: every entry point takes `now` (ns) and the
 * parameters, and dispatches on `p->algo` to the module that mirrors the ledbat-core
 * controller of the same name (lbcc_ledbat.h, lbcc_pp.h, lbcc_lp.h). The window is bytes in
 * 32.32 fixed point; `lb_window` is the core's `Controller::window()`.
 */
#ifndef LBCC_H
#define LBCC_H

#include "lbcc_lp.h"
#include "lbcc_pp.h"

/* The state must start zeroed (socket storage is; the replay tool clears it). */
LB_INLINE void lb_init(struct lb_cc *c, lb_params_t *p, __u64 mss)
{
	switch (p->algo) {
	case LB_ALGO_LEDBAT_PP:
		lb_pp_init(c, p, mss);
		break;
	case LB_ALGO_TCP_LP:
		lb_lp_init(c, p, mss);
		break;
	default:
		lb_ledbat_init(c, p, mss);
		break;
	}
}

LB_INLINE void lb_on_ack(struct lb_cc *c, lb_params_t *p, __u64 now,
			 const struct lb_ack *a)
{
	switch (p->algo) {
	case LB_ALGO_LEDBAT_PP:
		lb_pp_ack(c, p, now, a);
		break;
	case LB_ALGO_TCP_LP:
		lb_lp_ack(c, p, now, a);
		break;
	default:
		lb_ledbat_ack(c, p, now, a);
		break;
	}
}

/* A packet sent at `sent_at` was declared lost with `in_flight` bytes in flight. */
LB_INLINE void lb_on_loss(struct lb_cc *c, lb_params_t *p, __u64 now,
			  __u64 sent_at, __u64 in_flight)
{
	switch (p->algo) {
	case LB_ALGO_LEDBAT_PP:
		lb_pp_loss(c, p, now, sent_at);
		break;
	case LB_ALGO_TCP_LP:
		lb_reno_loss(c, now, sent_at, in_flight);
		break;
	default:
		lb_halve_on_loss(c, now, sent_at);
		break;
	}
}

LB_INLINE void lb_on_timeout(struct lb_cc *c, lb_params_t *p, __u64 now, int kind)
{
	switch (p->algo) {
	case LB_ALGO_LEDBAT_PP:
		lb_pp_timeout(c, p, now, kind);
		break;
	case LB_ALGO_TCP_LP:
		lb_reno_timeout(c, now, kind);
		break;
	default:
		lb_ledbat_timeout(c, now, kind);
		break;
	}
}

LB_INLINE void lb_on_sent(struct lb_cc *c, lb_params_t *p, __u64 now,
			  __u64 in_flight)
{
	if (p->algo == LB_ALGO_LEDBAT_PP)
		lb_pp_poll(c, p, now);
	else if (p->algo == LB_ALGO_TCP_LP)
		c->lp.flight = in_flight;
}

LB_INLINE void lb_on_tick(struct lb_cc *c, lb_params_t *p, __u64 now)
{
	if (p->algo == LB_ALGO_LEDBAT_PP)
		lb_pp_poll(c, p, now);
}

/*
 * The delay samples that follow come from another source or on another scale (the glue fell
 * back from one-way delays to RTTs, or relearnt the peer's clock rate): forget every sample
 * of the old one (`Controller::on_delay_source_change`). LEDBAT++ always takes the RTT and
 * keeps its history.
 */
LB_INLINE void lb_on_delay_source_change(struct lb_cc *c, lb_params_t *p)
{
	if (p->algo == LB_ALGO_LEDBAT_PP)
		return;
	if (p->algo == LB_ALGO_TCP_LP)
		lb_lp_reset_signal(c);
	else
		lb_delay_reset_signal(&c->delay);
}

/*
 * The kernel's undo of a reduction it found spurious (DSACK, the timestamps of the late
 * originals, F-RTO): ledbat-core has no such event, so the rule is Linux's own, as reno and
 * cubic implement `undo_cwnd`: the window becomes max(the window now, the window before the
 * reduction). What the congestion event changed besides the window is taken back too, from
 * the snapshot `lb_undo_save` took just before it:
 * - the once-per-RTT marker (`last_reduction_ns`): a real loss within an RTT of the undone
 *   one is a new congestion event, not a repeat of an event that never was;
 * - TCP-LP's slow-start threshold, as the kernel's undo brings back snd_ssthresh: the
 *   larger of the two.
 * A LEDBAT++ flow's slow start, which the loss ended, is not started again (the kernel
 * restores ssthresh, not slow start), nor does the delay history change: the samples since
 * were real.
 */
struct lb_undo {
	__u64 cwnd;              /* Q32 bytes before the event */
	__u64 last_reduction_ns;
	__u64 lp_ssthresh;       /* Q32 bytes */
	__u8 has_last_reduction;
	__u8 valid;              /* a congestion event was saved since init */
	__u8 _pad[6];
};

LB_INLINE void lb_undo_save(const struct lb_cc *c, struct lb_undo *u)
{
	u->cwnd = c->cwnd;
	u->last_reduction_ns = c->last_reduction_ns;
	u->has_last_reduction = c->has_last_reduction;
	u->lp_ssthresh = c->lp.ssthresh;
	u->valid = 1;
}

/* Takes back the congestion event `u` saved; nothing without one. */
LB_INLINE void lb_undo(struct lb_cc *c, lb_params_t *p, struct lb_undo *u)
{
	if (!u->valid)
		return;
	if (u->cwnd > c->cwnd)
		c->cwnd = u->cwnd;
	c->last_reduction_ns = u->last_reduction_ns;
	c->has_last_reduction = u->has_last_reduction;
	if (p->algo == LB_ALGO_TCP_LP && u->lp_ssthresh > c->lp.ssthresh)
		c->lp.ssthresh = u->lp_ssthresh;
	/* one undo per saved event: the kernel's next undo follows a new reduction */
	u->valid = 0;
}

/* The window in whole bytes (`Controller::window`). */
LB_INLINE __u64 lb_window(const struct lb_cc *c, lb_params_t *p)
{
	if (p->algo == LB_ALGO_TCP_LP)
		return lb_max_u64(c->cwnd, c->mss << 32) >> 32;
	if (p->algo == LB_ALGO_LEDBAT_PP)
		return lb_pp_window(c, p);
	return c->cwnd >> 32;
}

/* The pacing rate in bytes/s, when the controller paces (`pacing_rate`): LEDBAT++ while
 * yielding to a competitor, at least 1. */
LB_INLINE int lb_pacing_rate(const struct lb_cc *c, lb_params_t *p, __u64 *rate)
{
	__u64 win;

	if (p->algo != LB_ALGO_LEDBAT_PP || !lb_pp_yield_limits(c, p, rate, &win))
		return 0;
	*rate = lb_max_u64(*rate, 1);
	return 1;
}

/* The next deadline a driver should wake the controller at (`next_tick`), if any. */
LB_INLINE int lb_next_tick(const struct lb_cc *c, lb_params_t *p, __u64 *at)
{
	__u64 sd = 0, comp = 0;
	int has_sd = 0, has_comp;

	if (p->algo != LB_ALGO_LEDBAT_PP)
		return 0;
	if (!c->pp_slow_start && p->periodic_slowdown && !c->comp.yielding && !c->comp.has_push) {
		if (c->sd.phase == LB_SD_HOLD) {
			sd = c->sd.until_ns;
			has_sd = 1;
		} else if (c->sd.phase == LB_SD_IDLE && c->sd.has_at) {
			sd = c->sd.at_ns;
			has_sd = 1;
		}
	}
	has_comp = p->comp.enabled && lb_comp_next_tick(&c->comp, &comp);
	if (has_sd && has_comp)
		*at = lb_min_u64(sd, comp);
	else if (has_sd || has_comp)
		*at = has_sd ? sd : comp;
	return has_sd || has_comp;
}

/* A phase code for stats and traces: 0 slow start, 1 avoidance, 2 slowdown hold,
 * 3 slowdown ramp, 4 TCP-LP inference, 5 yielding to a competitor, 6 yielding and probing. */
LB_INLINE __u32 lb_phase(const struct lb_cc *c, lb_params_t *p)
{
	if (p->algo == LB_ALGO_LEDBAT_PP) {
		int ph = lb_pp_phase(c);

		if (ph == LB_PP_YIELD && lb_comp_probing(&c->comp, c->now_ns))
			return 6;
		return (__u32)ph;
	}
	if (p->algo == LB_ALGO_TCP_LP)
		return c->lp.inference ? 4 : (c->cwnd < c->lp.ssthresh ? 0 : 1);
	return c->slow_start ? 0 : 1;
}

#endif
