/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * LEDBAT++ (draft-irtf-iccrg-ledbat-plus-plus-01) and this project's extensions, as
 * ledbat-core's `ledbat_pp`, `slowdown` and `slow_start` modules compute them (their module
 * comments give the formulas and the reasons; docs/algorithms.md section 7 the draft):
 *
 *   delay signal   the RTT, through the RFC 6817 base history and minimum filter
 *   GAIN           1 / min(max_gain_divisor, ceil(2 TARGET / base))
 *   slow start     cwnd += GAIN * bytes  until qd > 3/4 TARGET
 *   avoidance      per RTT  qd <= TARGET: +GAIN;  else max(GAIN - W (qd/TARGET - 1), -W/2)
 *   slowdown       2 RTTs after slow start: ssthresh = W, W = hold window for hold_rtts,
 *                  slow start back to ssthresh, the next one interval x its duration later
 *   join           a flow that sees another's slowdown drain the queue starts its own;
 *                  with join_recent the flight a dip is judged by is the largest of the
 *                  last one or two RTT-long windows, an explained drop keeps the rule armed
 *                  one RTT, and the restart waits its RTT while a dip is pending
 *   slow starts    RFC 9406's quarter growth above eta, RFC 3742's limit, restart after an
 *                  RTT of empty queue
 *
 * Timers are deadlines checked on every event (the core's `poll`); the kernel has no timer
 * for a congestion control, so a deadline fires at the first ACK after it.
 *
 * With competitor.enabled (`LedbatPp` with `competitor::Competitor`, lbcc_competitor.h):
 *   rate samples   bytes delivered over spans of max(200 ms, srtt) (lb_span_on_ack)
 *   a test         the detection's Test in avoidance: a slowdown now, held test_hold_rtts
 *   a positive     the ramp's goal (ssthresh) halved
 *   a detection    the ramp given up, one packet, paced at yield_share of the path's rate
 *                  (a probe's window and rate while probing), no slowdowns
 *   the resume     slow start, quarter growth only beyond the path's BDP, the next slowdown
 *                  first_slowdown_rtts later at the earliest
 *   a push test    the window grows by the push's bytes for an RTT
 */
#ifndef LBCC_PP_H
#define LBCC_PP_H

#include "lbcc_ledbat.h"

/* slow_start.rs: CSS's growth divisor (RFC 9406), RFC 3742's max_ssthresh (eta: lbcc_math.h). */
#define LB_CSS_GROWTH_DIVISOR 4ULL
#define LB_MAX_SSTHRESH_PACKETS 100ULL
/* slowdown.rs: RTTs of rest before a join, RTTs of drained queue a pausing join waits for. */
#define LB_JOIN_REST_RTTS_Q16 (4ULL << 16)
#define LB_JOIN_DIP_RTTS_Q16 (1ULL << 15)
/* competitor::RATE_SPAN: the shortest span of a rate sample. */
#define LB_COMP_RATE_SPAN_NS (200ULL * LB_NS_PER_MS)

/* ---- the slowdown cycle (slowdown.rs) ---- */

LB_INLINE void lb_sd_reset_join(struct lb_slowdowns *s)
{
	s->has_above = 0;
	s->above_since_ns = 0;
	s->peak_flight = 0;
	s->peak_qd_ns = 0;
	s->armed = 0;
	s->has_dip = 0;
	s->dip_since_ns = 0;
	s->has_window_start = 0;
	s->window_start_ns = 0;
	s->window_prev = 0;
	s->window_cur = 0;
	s->has_falling = 0;
	s->falling_since_ns = 0;
}

LB_INLINE void lb_sd_schedule_first(struct lb_slowdowns *s, lb_params_t *p,
				    __u64 now, __u64 rtt)
{
	if (s->first_scheduled)
		return;
	s->first_scheduled = 1;
	s->at_ns = now + lb_scale_q16(rtt, p->first_slowdown_rtts_q16);
	s->has_at = 1;
}

/* The join rule's inputs (slowdown::JoinInput). */
struct lb_join_input {
	__u64 qd;
	__u64 rtt;
	__u64 flight;
	__u64 min_flight;
	__u64 min_dip;
};

LB_INLINE void lb_sd_observe(struct lb_slowdowns *s, lb_params_t *p, __u64 now,
			     const struct lb_join_input *in)
{
	__u64 cut_explained, observed, peak;
	int rested;

	if (!p->join || s->phase != LB_SD_IDLE || !s->has_at)
		return;
	if (in->qd > p->join_gt_ns) {
		s->has_dip = 0;
		s->has_falling = 0;
		if (!s->has_above) {
			s->has_above = 1;
			s->above_since_ns = now;
		}
		s->peak_flight = lb_max_u64(s->peak_flight, in->flight);
		if (!s->has_window_start || lb_since(now, s->window_start_ns) >= in->rtt) {
			s->window_prev = s->window_cur;
			s->window_cur = in->flight;
			s->window_start_ns = now;
			s->has_window_start = 1;
		} else {
			s->window_cur = lb_max_u64(s->window_cur, in->flight);
		}
		s->peak_qd_ns = lb_max_u64(s->peak_qd_ns, in->qd);
		if (lb_since(now, s->above_since_ns) >= in->rtt && s->peak_flight > in->min_flight)
			s->armed = 1;
		return;
	}
	if (!s->armed) {
		lb_sd_reset_join(s);
		return;
	}
	rested = !s->has_end || lb_since(now, s->end_ns) >= lb_scale_q16(in->rtt,
									   LB_JOIN_REST_RTTS_Q16);
	/* explained = round(rtt * (peak - flight) / peak): the queue the flow's own cut removed;
	 * peak the largest flight since the queue rose, or with join_recent of the last one or
	 * two RTT-long windows (0 when no flight was seen: the core's 0/0 scales to 0) */
	peak = p->join_recent ? lb_max_u64(lb_max_u64(s->window_prev, s->window_cur), in->flight)
			      : s->peak_flight;
	cut_explained = peak ? lb_muldiv_round(in->rtt, lb_sat_sub(peak, in->flight), peak) : 0;
	observed = lb_sat_sub(s->peak_qd_ns, in->qd);
	if (!(rested && s->at_ns > now && cut_explained * 2 < observed)) {
		if (p->join_recent && rested && s->at_ns > now) {
			/* the queue may still be falling: judge the deeper samples of the next RTT */
			if (!s->has_falling) {
				s->has_falling = 1;
				s->falling_since_ns = now;
			}
			if (lb_since(now, s->falling_since_ns) <= in->rtt) {
				s->has_dip = 0;
				return;
			}
		}
		lb_sd_reset_join(s);
		return;
	}
	if (!s->has_dip) {
		s->has_dip = 1;
		s->dip_since_ns = now;
	}
	if (lb_since(now, s->dip_since_ns) >= in->min_dip) {
		lb_sd_reset_join(s);
		s->at_ns = now;
		s->join_pending = 1;
	}
}

/* Fires what is due; returns 1 when a slowdown started (`Slowdowns::poll`). */
LB_INLINE int lb_sd_poll(struct lb_slowdowns *s, lb_params_t *p, __u64 now,
			 __u64 *cwnd, __u64 hold_window, __u64 rtt)
{
	int started = 0;

	if (s->phase == LB_SD_IDLE && s->has_at && now >= s->at_ns) {
		s->ssthresh = *cwnd;
		s->has_ssthresh = 1;
		*cwnd = hold_window;
		s->start_ns = now;
		s->has_start = 1;
		s->has_at = 0;
		s->count++;
		s->joined = s->join_pending;
		s->join_pending = 0;
		lb_sd_reset_join(s);
		s->phase = LB_SD_HOLD;
		s->until_ns = now + lb_scale_q16(rtt, s->has_hold_rtts ? s->hold_rtts_q16 :
							  p->slowdown_hold_rtts_q16);
		s->has_hold_rtts = 0;
		started = 1;
	}
	if (s->phase == LB_SD_HOLD && now >= s->until_ns)
		s->phase = LB_SD_RAMP;
	return started;
}

LB_INLINE void lb_sd_end_ramp(struct lb_slowdowns *s, lb_params_t *p, __u64 now)
{
	__u64 start, k;

	if (s->phase == LB_SD_IDLE)
		return;
	start = s->has_start ? s->start_ns : now;
	k = s->early ? p->slowdown_interval_q16 / 2 : p->slowdown_interval_q16;
	k *= s->backoff ? s->backoff : 1;
	s->early = 0;
	s->at_ns = now + lb_scale_q16(lb_since(now, start), k);
	s->has_at = 1;
	s->end_ns = now;
	s->has_end = 1;
	s->has_ssthresh = 0;
	s->phase = LB_SD_IDLE;
}

/* `Slowdowns::start_now`: a slowdown now unless one is in progress, held `hold_rtts_q16`. */
LB_INLINE void lb_sd_start_now(struct lb_slowdowns *s, __u64 now, __u64 hold_rtts_q16)
{
	if (s->phase != LB_SD_IDLE)
		return;
	s->at_ns = now;
	s->has_at = 1;
	s->hold_rtts_q16 = hold_rtts_q16;
	s->has_hold_rtts = 1;
}

/* `Slowdowns::defer`: the next slowdown at `at` at the earliest. */
LB_INLINE void lb_sd_defer(struct lb_slowdowns *s, __u64 at)
{
	if (s->phase != LB_SD_IDLE)
		return;
	s->at_ns = s->has_at ? lb_max_u64(s->at_ns, at) : at;
	s->has_at = 1;
}

/* What the flow's last own hold saw (`Slowdowns::found_base`): the base where it was, which
 * doubles the interval's factor up to slowdown_max_backoff; else the factor is 1 again. */
LB_INLINE void lb_sd_found_base(struct lb_slowdowns *s, lb_params_t *p, int same)
{
	__u64 b = s->backoff ? s->backoff : 1;
	__u64 most = p->slowdown_max_backoff ? p->slowdown_max_backoff : 1;

	s->backoff = same ? lb_min_u64(2 * b, most) : 1;
}

/* ---- LEDBAT++ (ledbat_pp.rs) ---- */

enum lb_pp_phase { LB_PP_SLOW_START = 0, LB_PP_AVOIDANCE = 1, LB_PP_HOLD = 2, LB_PP_RAMP = 3,
		  LB_PP_YIELD = 5 };

LB_INLINE int lb_pp_phase(const struct lb_cc *c)
{
	if (c->pp_slow_start)
		return LB_PP_SLOW_START;
	if (c->comp.yielding)
		return LB_PP_YIELD;
	if (c->sd.phase == LB_SD_HOLD)
		return LB_PP_HOLD;
	if (c->sd.phase == LB_SD_RAMP)
		return LB_PP_RAMP;
	return LB_PP_AVOIDANCE;
}

LB_INLINE __u64 lb_srtt_or_target(const struct lb_cc *c, lb_params_t *p)
{
	return c->rtt.has ? c->rtt.srtt_ns : p->target_ns;
}

/* The gain's divisor: min(max_gain_divisor, ceil(2 TARGET / base)), at least 1. */
LB_INLINE __u64 lb_pp_gain_divisor(const struct lb_cc *c, lb_params_t *p)
{
	__u64 base = 0, d;

	lb_base_delay(&c->delay, &base);
	if (base == 0)
		return p->max_gain_divisor;
	d = (2 * p->target_ns + base - 1) / base;
	if (d < 1)
		d = 1;
	return d < p->max_gain_divisor ? d : p->max_gain_divisor;
}

LB_INLINE void lb_pp_init(struct lb_cc *c, lb_params_t *p, __u64 mss)
{
	lb_ledbat_init(c, p, mss);
	lb_comp_clear(&c->comp);
	c->pp_slow_start = (__u8)p->slow_start;
}

LB_INLINE void lb_pp_schedule_first(struct lb_cc *c, lb_params_t *p, __u64 now)
{
	if (p->periodic_slowdown)
		lb_sd_schedule_first(&c->sd, p, now, lb_srtt_or_target(c, p));
}

/* slow_start.rs `SlowStart::ended`. */
LB_INLINE void lb_ss_ended(struct lb_cc *c)
{
	c->restarted = 0;
	c->has_regrow = 0;
}

LB_INLINE void lb_pp_end_slow_start(struct lb_cc *c, lb_params_t *p, __u64 now)
{
	lb_ss_ended(c);
	if (c->pp_slow_start) {
		c->pp_slow_start = 0;
		lb_pp_schedule_first(c, p, now);
	} else {
		lb_sd_end_ramp(&c->sd, p, now);
	}
}

/* cwnd * base / max(base + qd, 1 ns): the part of the window in flight rather than queued. */
LB_INLINE int lb_pp_in_flight_at(const struct lb_cc *c, __u64 qd, __u64 *out)
{
	__u64 base;

	if (!lb_base_delay(&c->delay, &base))
		return 0;
	*out = lb_muldiv(c->cwnd, base, lb_max_u64(base + qd, 1));
	return 1;
}

LB_INLINE int lb_pp_join_would_pause(const struct lb_cc *c, lb_params_t *p)
{
	__u64 w;

	return p->join_pause && lb_pp_in_flight_at(c, p->target_ns, &w) && w < (c->mss << 32);
}

LB_INLINE __u64 lb_pp_hold_window(const struct lb_cc *c, lb_params_t *p)
{
	__u64 floor = lb_pkts_to_bytes_q32(p->hold_packets_q32, c->mss);
	__u64 qd, bdp;

	if (p->hold_bdp_q32 > 0 && c->sd.count > 0 && lb_queuing_delay(&c->delay, p, &qd) &&
	    lb_pp_in_flight_at(c, qd, &bdp))
		return lb_max_u64(floor, lb_muldiv(p->hold_bdp_q32, bdp, LB_ONE_Q32));
	return floor;
}

LB_INLINE __u64 lb_pp_eta(const struct lb_cc *c)
{
	__u64 base = 0;

	lb_base_delay(&c->delay, &base);
	return lb_empty_queue_eta(base);
}

/* A hold ended (`LedbatPp::hold_ended` with the competitor detection off): after one of the
 * flow's own, the backoff learns whether the queue drained (below eta from one RTT into the
 * hold) and the base stayed where it was. */
LB_INLINE void lb_pp_hold_ended(struct lb_cc *c, lb_params_t *p, __u64 now)
{
	struct lb_slowdowns *s = &c->sd;
	int was;

	if (s->has_hold_base) {
		__u64 base = 0;
		int drained = s->has_hold_min && s->hold_min_ns <= lb_pp_eta(c);
		int same = lb_base_delay(&c->delay, &base) && base == s->hold_base_ns;

		s->has_hold_base = 0;
		lb_sd_found_base(s, p, drained && same);
	}
	s->has_hold_start = 0;
	if (!p->comp.enabled)
		return;
	/* the competitor detection evaluates the hold as a test: a detection gives the ramp
	 * up and yields, a positive test halves the ramp's goal */
	was = c->comp.yielding;
	lb_comp_hold_ended(&c->comp, &p->comp, now, lb_pp_eta(c), c->mss);
	if (c->comp.yielding && !was) {
		lb_sd_end_ramp(s, p, now);
		lb_ss_ended(c);
		c->cwnd = c->mss << 32;
	} else if (lb_comp_confirming(&c->comp) && s->has_ssthresh) {
		s->ssthresh >>= 1;
	}
}

LB_INLINE void lb_pp_poll(struct lb_cc *c, lb_params_t *p, __u64 now)
{
	__u64 w, rtt;
	int pause, was_hold;

	c->now_ns = lb_max_u64(c->now_ns, now);
	rtt = lb_srtt_or_target(c, p);
	if (p->comp.enabled) {
		__u64 qd = 0;

		lb_queuing_delay(&c->delay, p, &qd);
		lb_comp_poll(&c->comp, &p->comp, now, qd, rtt);
	}
	if (c->pp_slow_start || c->comp.yielding || c->comp.has_push)
		return;
	w = lb_pp_hold_window(c, p);
	pause = lb_pp_join_would_pause(c, p);
	was_hold = c->sd.phase == LB_SD_HOLD;
	if (lb_sd_poll(&c->sd, p, now, &c->cwnd, w, rtt)) {
		c->ramp_from_bdp = w > lb_pkts_to_bytes_q32(p->hold_packets_q32, c->mss);
		c->pause = c->sd.joined && pause;
		if (c->pause && c->sd.phase != LB_SD_IDLE)
			c->sd.early = 1;
		if (!c->sd.joined) {
			c->sd.hold_start_ns = now;
			c->sd.hold_rtt_ns = rtt;
			c->sd.has_hold_start = 1;
			c->sd.has_hold_min = 0;
			c->sd.has_hold_base = (__u8)lb_base_delay(&c->delay, &c->sd.hold_base_ns);
			if (p->comp.enabled)
				lb_comp_hold_started(&c->comp, now, rtt);
		}
	}
	if (was_hold && c->sd.phase != LB_SD_HOLD)
		lb_pp_hold_ended(c, p, now);
}

/* The smallest queuing delay of the flow's own hold, from one RTT into it. */
LB_INLINE void lb_pp_hold_sample(struct lb_cc *c, __u64 now, __u64 qd)
{
	struct lb_slowdowns *s = &c->sd;

	if (lb_pp_phase(c) != LB_PP_HOLD || s->joined || !s->has_hold_start ||
	    lb_since(now, s->hold_start_ns) < s->hold_rtt_ns)
		return;
	s->hold_min_ns = s->has_hold_min ? lb_min_u64(s->hold_min_ns, qd) : qd;
	s->has_hold_min = 1;
}

/* `SlowStart::restart_due` behind `LedbatPp::restart_if_empty`. */
LB_INLINE void lb_pp_restart_if_empty(struct lb_cc *c, lb_params_t *p, __u64 now,
				      __u64 qd)
{
	__u64 eta, rtt, since;
	int stalled;

	if (lb_pp_phase(c) != LB_PP_AVOIDANCE) {
		c->has_empty = 0;
		return;
	}
	eta = lb_pp_eta(c);
	rtt = lb_srtt_or_target(c, p);
	if (!p->empty_queue_restart || qd > eta) {
		c->has_empty = 0;
		return;
	}
	if (!c->has_empty) {
		c->has_empty = 1;
		c->empty_since_ns = now;
	}
	since = c->empty_since_ns;
	/* with join_recent, a dip the flight does not explain (another flow's slowdown,
	 * perhaps) makes even a cut window wait its RTT (`SlowStart::restart_due_after_rtt`) */
	stalled = !(p->join_recent && c->sd.has_dip) && c->has_regrow &&
		  c->regrow_to > lb_sat_add(c->cwnd, c->mss << 32);
	if (stalled || lb_since(now, since) >= rtt) {
		c->has_empty = 0;
		c->restarted = 1;
		c->pp_slow_start = 1;
	}
}

/* The flightsize cap; in avoidance a cut is remembered for a restart to regrow. */
LB_INLINE void lb_pp_cap(struct lb_cc *c, lb_params_t *p, __u64 flight_before)
{
	__u64 before = c->cwnd;

	lb_cap_and_floor(c, flight_before);
	if (lb_pp_phase(c) == LB_PP_AVOIDANCE && p->empty_queue_restart && c->cwnd < before) {
		c->regrow_to = c->has_regrow ? lb_max_u64(c->regrow_to, before) : before;
		c->has_regrow = 1;
	}
}

/* One slow-start ACK's growth (`SlowStart::step`), Q32 bytes. */
LB_INLINE __u64 lb_pp_ss_step(const struct lb_cc *c, lb_params_t *p, __u64 bytes,
			      __u64 qd, int ramp_from_bdp)
{
	__u64 step = (bytes << 32) / lb_pp_gain_divisor(c, p);
	int beyond_regrow = c->restarted && (!c->has_regrow || lb_reached(c->cwnd, c->regrow_to));

	if (p->conservative_slow_start) {
		__u64 max_ss = (LB_MAX_SSTHRESH_PACKETS * c->mss) << 32;

		if (c->cwnd > max_ss)
			step = lb_muldiv(step, max_ss / 2, c->cwnd);
		if (qd > lb_pp_eta(c) || ramp_from_bdp)
			step /= LB_CSS_GROWTH_DIVISOR;
	}
	if (beyond_regrow)
		step /= LB_CSS_GROWTH_DIVISOR;
	return step;
}

/* Congestion avoidance, Q32 bytes for `bytes` acknowledged: below TARGET
 * bytes * MSS / (d * cwnd); above it bytes * MSS / (d * cwnd) - bytes * (qd - T) / T, never
 * below -bytes / 2 (the per-RTT bound -W/2). */
LB_INLINE void lb_pp_avoidance(struct lb_cc *c, lb_params_t *p, __u64 qd,
			       __u64 bytes)
{
	struct lb_u128 num;
	__u64 up, down, floor_down;

	/* up = bytes * MSS / (d * W) bytes = bytes * MSS * 2^64 / (d * cwnd_q32) in Q32 */
	num.hi = bytes * c->mss;
	num.lo = 0;
	up = lb_div128(num, c->cwnd) / lb_pp_gain_divisor(c, p);
	if (qd <= p->target_ns) {
		c->cwnd = lb_sat_add(c->cwnd, up);
		return;
	}
	down = lb_muldiv(bytes << 32, qd - p->target_ns, p->target_ns);
	floor_down = (bytes << 32) / 2;
	if (down <= up)
		c->cwnd = lb_sat_add(c->cwnd, up - down);
	else
		c->cwnd = lb_sat_sub(c->cwnd, lb_min_u64(down - up, floor_down));
}

/* The competitor detection's part of an ACK with a queuing delay `qd` (after the slowdowns'
 * poll): its observation, and what the flow does with its action. Returns 1 while yielding
 * (the window is the detection's; nothing else happens). */
LB_INLINE int lb_pp_competitor(struct lb_cc *c, lb_params_t *p, __u64 now, __u64 qd,
			       const struct lb_ack *a, struct lb_comp_obs *o)
{
	__u64 resume = 0;
	int phase = lb_pp_phase(c), act;

	o->qd_ns = qd;
	o->target_ns = p->target_ns;
	o->rtt_ns = lb_srtt_or_target(c, p);
	o->base_rtt_ns = c->delay.has_min_rtt ? c->delay.min_rtt_ns : 0;
	o->eta_ns = lb_pp_eta(c);
	o->mss = c->mss;
	o->newest_sent_ns = a->newest_sent_ns;
	o->flight = a->flight_before;
	o->phase = phase == LB_PP_AVOIDANCE		? LB_COMP_AVOIDANCE :
		   phase == LB_PP_HOLD && !c->sd.joined ? LB_COMP_OWN_HOLD :
		   phase == LB_PP_RAMP			? LB_COMP_RAMP :
							  LB_COMP_OTHER;
	act = lb_comp_on_ack(&c->comp, &p->comp, now, o, &resume);
	if (act == LB_COMP_TEST && phase == LB_PP_AVOIDANCE) {
		lb_sd_start_now(&c->sd, now, p->comp_test_hold_rtts_q16);
		lb_pp_poll(c, p, now);
	} else if (act == LB_COMP_RESUME) {
		/* the competitor left: slow start, at full speed up to the path's BDP */
		c->pp_slow_start = 1;
		c->has_empty = 0;
		c->restarted = 1;
		c->regrow_to = resume << 32;
		c->has_regrow = 1;
		lb_sd_defer(&c->sd, now + lb_scale_q16(lb_srtt_or_target(c, p),
							p->first_slowdown_rtts_q16));
	}
	return c->comp.yielding;
}

LB_INLINE void lb_pp_ack(struct lb_cc *c, lb_params_t *p, __u64 now,
			 const struct lb_ack *a)
{
	__u64 qd = 0;
	int has_qd = lb_absorb_rtt(c, p, now, a, &qd);
	__u64 bytes = a->bytes_acked;
	int phase;
	struct lb_comp_obs o = {};

	if (p->comp.enabled) {
		__u64 span = c->rtt.has ? lb_max_u64(c->rtt.srtt_ns, LB_COMP_RATE_SPAN_NS)
					: LB_COMP_RATE_SPAN_NS;
		int limited = 0;

		o.has_rate = (__u8)lb_span_on_ack(&c->span, now, a->delivered, a->app_limited,
						  span, &o.rate, &limited);
		o.app_limited = (__u8)limited;
	}
	if (!c->pp_slow_start && !c->comp.yielding) {
		if (a->has_rtt)
			lb_pp_schedule_first(c, p, now);
		if (has_qd) {
			struct lb_join_input in;
			__u64 sdw = lb_max_u64(2 * (c->mss << 32), c->min_cwnd);

			in.qd = qd;
			in.rtt = lb_srtt_or_target(c, p);
			in.flight = a->flight_before;
			in.min_flight = (2 * sdw) >> 32;
			in.min_dip = lb_pp_join_would_pause(c, p) ?
				     lb_scale_q16(in.rtt, LB_JOIN_DIP_RTTS_Q16) : 0;
			lb_sd_observe(&c->sd, p, now, &in);
		}
	}
	lb_pp_poll(c, p, now);
	if (!has_qd)
		return;
	c->last_qd_ns = qd;
	c->has_qd = 1;
	lb_pp_hold_sample(c, now, qd);
	if (p->comp.enabled && lb_pp_competitor(c, p, now, qd, a, &o))
		return;
	lb_pp_restart_if_empty(c, p, now, qd);
	phase = lb_pp_phase(c);
	if (phase == LB_PP_SLOW_START || phase == LB_PP_RAMP) {
		int delay_exit = phase == LB_PP_SLOW_START || p->ramp_delay_exit;

		if (delay_exit && qd > p->ss_exit_gt_ns) {
			lb_pp_end_slow_start(c, p, now);
		} else {
			c->cwnd = lb_sat_add(c->cwnd,
					     lb_pp_ss_step(c, p, bytes, qd,
							   phase == LB_PP_RAMP && c->ramp_from_bdp));
			if (phase == LB_PP_RAMP && c->sd.has_ssthresh &&
			    lb_reached(c->cwnd, c->sd.ssthresh)) {
				c->cwnd = c->sd.ssthresh;
				lb_pp_end_slow_start(c, p, now);
			}
			if (c->has_regrow && lb_reached(c->cwnd, c->regrow_to))
				c->has_regrow = 0;
			lb_pp_cap(c, p, a->flight_before);
			return;
		}
	}
	phase = lb_pp_phase(c);
	if (phase == LB_PP_HOLD)
		return;
	if (phase == LB_PP_AVOIDANCE)
		lb_pp_avoidance(c, p, qd, bytes);
	lb_pp_cap(c, p, a->flight_before);
}

LB_INLINE void lb_pp_loss(struct lb_cc *c, lb_params_t *p, __u64 now,
			  __u64 sent_at)
{
	lb_pp_poll(c, p, now);
	if (!lb_halve_on_loss(c, now, sent_at))
		return;
	lb_ss_ended(c);
	if (lb_pp_phase(c) != LB_PP_AVOIDANCE)
		lb_pp_end_slow_start(c, p, now);
}

LB_INLINE void lb_pp_timeout(struct lb_cc *c, lb_params_t *p, __u64 now, int kind)
{
	lb_pp_poll(c, p, now);
	if (kind == LB_TIMEOUT_RTO) {
		lb_ss_ended(c);
		if (lb_pp_phase(c) != LB_PP_AVOIDANCE)
			lb_pp_end_slow_start(c, p, now);
	}
	lb_ledbat_timeout(c, now, kind);
}

/* While yielding, the detection's pacing rate (bytes/s) and window (bytes): one packet, or a
 * probe's (`LedbatPp::yield_limits`). */
LB_INLINE int lb_pp_yield_limits(const struct lb_cc *c, lb_params_t *p, __u64 *rate,
				 __u64 *win)
{
	if (!p->comp.enabled)
		return 0;
	return lb_comp_limits(&c->comp, &p->comp, c->now_ns, c->mss, lb_srtt_or_target(c, p),
			      rate, win);
}

/* The window in whole bytes (`LedbatPp::window`): the detection's while yielding, the
 * push's extra bytes added during a push test. */
LB_INLINE __u64 lb_pp_window(const struct lb_cc *c, lb_params_t *p)
{
	__u64 rate, win;

	if (lb_pp_yield_limits(c, p, &rate, &win))
		return win;
	return (c->cwnd >> 32) + (p->comp.enabled ? lb_comp_push_window(&c->comp, c->now_ns) : 0);
}

/* Whether the joined slowdown in progress pauses sending (`pause_until`). */
LB_INLINE int lb_pp_paused(const struct lb_cc *c, __u64 now)
{
	return c->pause && c->sd.phase == LB_SD_HOLD && now < c->sd.until_ns;
}

#endif
