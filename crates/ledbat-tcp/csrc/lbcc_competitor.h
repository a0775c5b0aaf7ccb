/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The core's competitor detection (ledbat-core, competitor.rs, `Competitor`) in integer
 * arithmetic, for the kernel build: the same state machine, constants and order of tests,
 * clock-free (every entry point takes `now`). The module comment of competitor.rs gives
 * the rules and their reasons; in short:
 *
 *   path rate C  = max delivery-rate sample over rate_window of time not yielding, 1 s buckets
 *   watching:    in avoidance, on a busy link (qd >= TARGET / 2), every rate sample
 *                not application-limited and
 *                rate < share C and (qd > 1.1 TARGET or rate >= min_share C or a test was
 *                positive), for suspect_rtts RTTs (+ up to DESYNC_RTTS, splitmix64 of the
 *                instant the suspicion began, when not above 1.1 TARGET): then a test;
 *                a sample below min_share C (not above, not confirming) neither starts
 *                nor ends a suspicion (the core's `low_share_keeps`, always on here)
 *   hold test:   qd > 1.1 TARGET: the owner holds; min qd from one RTT in to the end
 *                > max(eta, test_packets MSS / C): positive (a periodic slowdown's hold:
 *                no test then, unless periodic_positive)
 *   push test:   the window grows by C max(push_share T, (1 + push_share) T - qd) for an
 *                RTT; the others' queue (qd + (flight at start - flight) / C) over the next
 *                two RTTs after one more falls by push_drop T: negative; the queue rising
 *                more than DOUBLE_PUSH times the push: void
 *   start-up:    the queue above 1.5 TARGET in the owner's ramp (LB_COMP_RAMP), the
 *                base RTT at least STARTUP_MIN_BASE (the core's `startup_min_base` at
 *                its default, fixed here): for
 *                STARTUP_MEMORY after, and while the last test is positive, a test the
 *                suspicion asks for near TARGET is a hold (at the push's time), until
 *                one is negative (the core's `startup_hold`, always on here)
 *   `tests` positives in a row, test_gap apart at least (a test after a positive one
 *   starts TEST_RTTS before that): yield (one packet, paced at
 *   yield_share C), probe every probe_interval at probe_share C, room twice `confirm`
 *   apart: resume; a queue that backs off after two probes in a row, KIN_CONFIRM apart at
 *   most: our kind (three when a drain was followed by a fall short of one).
 *
 * Units: times in ns, rates in bytes/s (whole; the core's f64 samples are whole numbers
 * when they come from here), fractions in 32.32 fixed point (`*_q32`), so that the core's
 * `scale(d, k)` = round(d k) is lb_scale_q32 up to 2^-32 of d. Where the core compares
 * floats (the push test's seconds, `rate < share * C`) this file compares exact integer
 * products; the two can differ only on a knife edge of the last bit, which the
 * differential test (tests/differential/competitor.rs) does not hug.
 *
 * Five owner options, which the sender leaves off (competitor.rs, `busy_above_eta`,
 * `probe_rtts`, `collision_quiets`, `standing_probe_rtts` and `rtt_fall`; csrc/rledbat.h's
 * receiver sets the first three, and the last two from its configuration): the link counts as busy from
 * `eta` rather than TARGET / 2 (and a probe that begins above eta finds it busy, and is not
 * run unless the queue is near TARGET), a probe from eta or below lasts at least
 * `probe_rtts` RTTs, a push voided by a collision is a finding of our own kind (the
 * positives forgotten, quiet as after a negative), and a probe from above eta lasts at
 * least `standing_probe_rtts` RTTs, its push's length kept for lb_comp_pushing_probe; a
 * fifth, `rtt_fall`, lets a probe's fall count at push_drop of the RTT it began at (base RTT
 * plus its queue) where that is less than TARGET.
 * They are set after lb_comp_init with lb_comp_owner and survive nothing else:
 * lb_comp_clear clears them.
 *
 * Loops: the path rate's ring of LB_COMP_BUCKETS, bounded by the constant.
 */
#ifndef LBCC_COMPETITOR_H
#define LBCC_COMPETITOR_H

#include "lbcc_math.h"
#include "lbcc_params.h"

#define LB_ONE_Q32_ (1ULL << 32)
#define LB_NS_PER_S 1000000000ULL
/* competitor::PROBE_LEN, PROBE_GIVE_UP, KIN_CONFIRM, HIGH_MEMORY, STARTUP_MEMORY,
 * STARTUP_MIN_BASE, RATE_BUCKET (STARTUP_QUEUE = 3 / 2, in lb_comp_on_ack) */
#define LB_COMP_PROBE_LEN_NS (30ULL * LB_NS_PER_MS)
#define LB_COMP_PROBE_GIVE_UP_NS LB_NS_PER_S
#define LB_COMP_KIN_CONFIRM_NS (5ULL * LB_NS_PER_S)
#define LB_COMP_HIGH_MEMORY_NS (5ULL * LB_NS_PER_S)
#define LB_COMP_STARTUP_MEMORY_NS (5ULL * LB_NS_PER_S)
#define LB_COMP_STARTUP_MIN_BASE_NS (30ULL * LB_NS_PER_MS)
#define LB_COMP_RATE_BUCKET_NS LB_NS_PER_S
/* competitor::AFTERMATH_RTTS = 2, DESYNC_RTTS = 4 and TEST_RTTS = 4 (whole numbers);
 * DOUBLE_PUSH = 5 / 4 */
#define LB_COMP_AFTERMATH_RTTS 2ULL
#define LB_COMP_DESYNC_RTTS 4ULL
#define LB_COMP_TEST_RTTS 4ULL
#define LB_COMP_DOUBLE_PUSH_NUM 5ULL
#define LB_COMP_DOUBLE_PUSH_DEN 4ULL
/* Buckets of the path rate: rate_window up to LB_COMP_MAX_WINDOW_S seconds (a bucket opens
 * at most once a second and goes after rate_window, so at most window + 2 are kept). */
#define LB_COMP_BUCKETS 64
#define LB_COMP_MAX_WINDOW_S 60ULL

/* `CompetitorConfig`: struct lb_comp_params, in lbcc_params.h (the loader's words). */

enum lb_comp_phase { LB_COMP_AVOIDANCE = 0, LB_COMP_OWN_HOLD = 1, LB_COMP_OTHER = 2,
		     LB_COMP_RAMP = 3 };
enum lb_comp_action { LB_COMP_NONE = 0, LB_COMP_TEST = 1, LB_COMP_RESUME = 2 };
enum lb_comp_stage { LB_COMP_WATCHING = 0, LB_COMP_SUSPECT = 1, LB_COMP_PUSH_TEST = 2,
		     LB_COMP_QUIET = 3 };

/* `Observation` */
struct lb_comp_obs {
	__u64 qd_ns, target_ns, rtt_ns, eta_ns, mss;
	__u64 base_rtt_ns;     /* the owner's smallest RTT sample, 0 before the first */
	__u64 rate;            /* bytes/s, when has_rate */
	__u64 newest_sent_ns;
	__u64 flight;          /* bytes in flight before the ACK */
	__u8 phase, has_rate, app_limited;
};

struct lb_comp {
	/* PathRate: clock (time not yielding), ring of (start on clock, largest sample) */
	__u64 clock_ns, last_ns;
	__u64 bucket_t[LB_COMP_BUCKETS];
	__u64 bucket_r[LB_COMP_BUCKETS];
	__u32 head, len;
	/* State::Watching */
	__u64 suspect_since, first_positive, quiet_until;
	__u32 positives;
	/* State::Yielding */
	__u64 next_probe, room_at, backed_at, high_at;
	__u32 falls;
	/* its Probe */
	__u64 pr_start, pr_end, pr_give_up, pr_from, pr_peak, pr_acked, pr_after;
	__u64 pr_push_len;     /* ns, `Probe::push_len` */
	/* hold measurement */
	__u64 hold_start, hold_rtt, hold_min;
	/* share = rate / C at the last sample and at the hold's start, as (rate, C) */
	__u64 share_r, share_c, hold_share_r, hold_share_c;
	__u32 kin;
	/* Push */
	__u64 pu_q0, pu_f0, pu_c, pu_extra_ns, pu_extra, pu_push_until, pu_observe_from,
		pu_until, pu_peak;
	__s64 pu_after;
	__u64 last_qd, push_target;
	/* when the queue last stood above 1.5 TARGET in the owner's ramp (has_startup) */
	__u64 startup_at;
	__u64 detections, tests, push_collisions;
	__u8 has_last, yielding;
	__u8 has_suspect, has_first, has_quiet;
	__u8 has_probe, has_room, has_backed, drained_last, has_high_at;
	__u8 pr_has_peak, pr_has_acked, pr_has_after, pr_standing;
	__u8 has_hold_start, has_hold_min, hold_suspected, test_pending;
	__u8 has_push, pu_has_after, has_last_qd, has_push_target;
	__u8 has_startup;
	/* the owner options (lb_comp_owner): a probe's least length in RTTs, 32.32 (0: none),
	 * that of one from a standing queue, busy from eta, a collision quiets, and a probe's
	 * fall counts at push_drop of its RTT */
	__u64 probe_rtts_q32;
	__u64 standing_probe_rtts_q32;
	__u64 last_eta;        /* ns, the last observation's eta (has_eta) */
	__u8 busy_above_eta;
	__u8 has_eta;
	__u8 collision_quiets;
	__u8 rtt_fall;
};

/* round(d * k) for a 32.32 factor, half up. */
LB_INLINE __u64 lb_scale_q32(__u64 d, __u64 k_q32)
{
	return lb_muldiv_round(d, k_q32, LB_ONE_Q32_);
}

/* a * b < c * d, exactly. */
LB_INLINE int lb_mul_lt(__u64 a, __u64 b, __u64 c, __u64 d)
{
	struct lb_u128 x = lb_mul128(a, b), y = lb_mul128(c, d);

	return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo);
}

/* bbr::splitmix64 */
LB_INLINE __u64 lb_splitmix64(__u64 x)
{
	__u64 z = x + 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* ---- PathRate ---- */

/* (returns 0: a global BPF function returns a scalar) */
LB_SUBPROG int lb_comp_path_tick(struct lb_comp *c, __u64 now, int frozen, __u64 window)
{
	int i;

	if (!c) /* a global BPF function's pointer may be NULL */
		return 0;
	if (c->has_last && !frozen)
		c->clock_ns = lb_sat_add(c->clock_ns, lb_since(now, c->last_ns));
	c->last_ns = now;
	c->has_last = 1;
	for (i = 0; i < LB_COMP_BUCKETS; i++) {
		__u32 h = LB_INDEX(c->head, LB_COMP_BUCKETS);

		if (c->len == 0 || lb_sat_sub(c->clock_ns, c->bucket_t[h]) <= window)
			break;
		c->head = LB_INDEX(c->head + 1, LB_COMP_BUCKETS);
		c->len--;
	}
	return 0;
}

LB_INLINE void lb_comp_path_sample(struct lb_comp *c, __u64 rate)
{
	__u32 back;

	if (c->len > 0) {
		back = LB_INDEX(c->head + c->len - 1, LB_COMP_BUCKETS);
		if (lb_sat_sub(c->clock_ns, c->bucket_t[back]) < LB_COMP_RATE_BUCKET_NS) {
			c->bucket_r[back] = lb_max_u64(c->bucket_r[back], rate);
			return;
		}
	}
	if (c->len >= LB_COMP_BUCKETS) { /* not reached with rate_window <= 60 s */
		c->head = LB_INDEX(c->head + 1, LB_COMP_BUCKETS);
		c->len--;
	}
	back = LB_INDEX(c->head + c->len, LB_COMP_BUCKETS);
	c->bucket_t[back] = c->clock_ns;
	c->bucket_r[back] = rate;
	c->len++;
}

/* The path's rate, bytes/s (0 before any sample). */
LB_SUBPROG __u64 lb_comp_path_rate(const struct lb_comp *c)
{
	__u64 m = 0;
	int i;

	if (!c)
		return 0;
	for (i = 0; i < LB_COMP_BUCKETS; i++) {
		if ((__u32)i >= c->len)
			break;
		m = lb_max_u64(m, c->bucket_r[LB_INDEX(c->head + i, LB_COMP_BUCKETS)]);
	}
	return m;
}

/* ---- SpanRate (delivery.rs): the rate samples the detection takes ----
 *
 * The bytes delivered between the first ACK of a span and the first ACK at least
 * min_span later (the core takes max(RATE_SPAN = 200 ms, srtt)), over the time between
 * them; the sample is app-limited when any ACK of the span was. The kernel's inputs would be
 * tcp_sock's bytes_acked and app_limited. The rate is the floor of the core's f64. */

struct lb_span {
	__u64 t0, d0;
	__u8 has, limited;
};

LB_INLINE int lb_span_on_ack(struct lb_span *s, __u64 now, __u64 delivered, int app_limited,
			     __u64 min_span, __u64 *rate, int *limited)
{
	__u64 span;

	if (!s->has) {
		s->has = 1;
		s->t0 = now;
		s->d0 = delivered;
		s->limited = (__u8)(app_limited != 0);
		return 0;
	}
	s->limited |= (__u8)(app_limited != 0);
	span = lb_since(now, s->t0);
	if (span < min_span || span == 0)
		return 0;
	*rate = lb_muldiv(lb_sat_sub(delivered, s->d0), LB_NS_PER_S, span);
	*limited = s->limited;
	s->t0 = now;
	s->d0 = delivered;
	s->limited = (__u8)(app_limited != 0);
	return 1;
}

/* ---- Competitor ---- */

/* Clears the state word by word (a memset of this size is beyond the BPF build's inline
 * memset; the socket storage of a connection that had the controller before); returns 0. */
LB_SUBPROG int lb_comp_clear(struct lb_comp *c)
{
	volatile __u64 *w = (volatile __u64 *)c; /* not turned into a memset */
	__u32 i;

	if (!c)
		return 0;
	for (i = 0; i < sizeof(*c) / 8; i++)
		w[i] = 0;
	return 0;
}

LB_INLINE void lb_comp_init(struct lb_comp *c)
{
	lb_comp_clear(c);
}

/* The owner options (`Competitor::busy_above_eta`, `Competitor::probe_rtts`,
 * `Competitor::collision_quiets`, `Competitor::standing_probe_rtts`,
 * `Competitor::rtt_fall`), after init. */
LB_INLINE void lb_comp_owner(struct lb_comp *c, int busy_above_eta, __u64 probe_rtts_q32,
			     int collision_quiets, __u64 standing_probe_rtts_q32, int rtt_fall)
{
	c->busy_above_eta = (__u8)(busy_above_eta != 0);
	c->probe_rtts_q32 = probe_rtts_q32;
	c->standing_probe_rtts_q32 = standing_probe_rtts_q32;
	c->collision_quiets = (__u8)(collision_quiets != 0);
	c->rtt_fall = (__u8)(rtt_fall != 0);
}

/* `probe_range`: a quarter of TARGET to 1.2 TARGET. */
LB_INLINE int lb_comp_probe_range(__u64 qd, __u64 t)
{
	return qd * 4 >= t && qd * 5 <= t * 6;
}

/* `quiet_for`: quiet * 2^min(kin, 3), and one more finding. */
LB_INLINE __u64 lb_comp_quiet_for(lb_comp_params_t *p, __u32 *kin)
{
	__u64 d = p->quiet_ns << (*kin < 3 ? *kin : 3);

	*kin += 1;
	return d;
}

/* A finding of our own kind (a collision with collision_quiets, a yield that ends on our
 * kind backing off): no suspicion, no positive, quiet for quiet x 2^k. */
LB_INLINE void lb_comp_quiet_kin(struct lb_comp *c, lb_comp_params_t *p, __u64 now)
{
	c->has_suspect = 0;
	c->positives = 0;
	c->has_first = 0;
	c->quiet_until = now + lb_comp_quiet_for(p, &c->kin);
	c->has_quiet = 1;
}

LB_INLINE int lb_comp_probing(const struct lb_comp *c, __u64 now)
{
	return c->yielding && c->has_probe && now < c->pr_end;
}

LB_INLINE int lb_comp_stage(const struct lb_comp *c, __u64 now)
{
	if (c->has_push)
		return LB_COMP_PUSH_TEST;
	if (c->yielding)
		return LB_COMP_WATCHING;
	if (c->has_quiet && now < c->quiet_until)
		return LB_COMP_QUIET;
	if (c->has_suspect)
		return LB_COMP_SUSPECT;
	return LB_COMP_WATCHING;
}

LB_INLINE int lb_comp_confirming(const struct lb_comp *c)
{
	return !c->yielding && c->positives > 0;
}

/* `pushing_probe`: whether the probe sending at `now` began from a standing queue (it only
 * pushes); *len its push's length. */
LB_INLINE int lb_comp_pushing_probe(const struct lb_comp *c, __u64 now, __u64 *len)
{
	if (!c->yielding || !c->has_probe || now >= c->pr_end || !c->pr_standing)
		return 0;
	*len = c->pr_push_len;
	return 1;
}

/* `limits`: while yielding, the pacing rate (bytes/s) and window (bytes). */
LB_INLINE int lb_comp_limits(const struct lb_comp *c, lb_comp_params_t *p,
			     __u64 now, __u64 mss, __u64 rtt, __u64 *rate, __u64 *win)
{
	__u64 cr;

	if (!c->yielding)
		return 0;
	cr = lb_max_u64(lb_comp_path_rate(c), mss);
	if (c->has_probe && now < c->pr_end) {
		__u64 len = lb_since(c->pr_end, c->pr_start);

		*rate = lb_muldiv(cr, p->probe_share_q32, LB_ONE_Q32_);
		*win = lb_max_u64(lb_muldiv(cr, lb_scale_q32(rtt + len, p->probe_share_q32),
					    LB_NS_PER_S),
				  2 * mss);
		return 1;
	}
	*rate = lb_muldiv(cr, p->yield_share_q32, LB_ONE_Q32_);
	*win = mss;
	return 1;
}

/* `next_tick` */
LB_INLINE int lb_comp_next_tick(const struct lb_comp *c, __u64 *at)
{
	if (c->has_push) {
		__u64 last = c->has_last ? c->last_ns : 0;

		*at = last < c->pu_push_until ? c->pu_push_until : c->pu_until;
		return 1;
	}
	if (!c->yielding)
		return 0;
	if (!c->has_probe)
		*at = c->next_probe;
	else if (!c->has_last || c->last_ns < c->pr_end)
		*at = c->pr_end;
	else
		*at = c->pr_give_up;
	return 1;
}

/* `push_window`: during a push, the bytes the window grows by. */
LB_INLINE __u64 lb_comp_push_window(const struct lb_comp *c, __u64 now)
{
	return c->has_push && now < c->pu_push_until ? c->pu_extra : 0;
}

/* `verdict` */
LB_INLINE void lb_comp_verdict(struct lb_comp *c, lb_comp_params_t *p, __u64 now,
			       int positive, int suspected)
{
	if (c->yielding)
		return;
	if (c->has_quiet && now < c->quiet_until)
		return;
	c->tests++;
	c->has_suspect = 0;
	if (!positive) {
		c->has_startup = 0;
		c->positives = 0;
		c->has_first = 0;
		if (suspected) {
			c->quiet_until = now + lb_comp_quiet_for(p, &c->kin);
			c->has_quiet = 1;
		}
		return;
	}
	c->kin = 0;
	c->positives++;
	if (!c->has_first) {
		c->first_positive = now;
		c->has_first = 1;
	}
	if (c->positives >= p->tests && lb_since(now, c->first_positive) >= p->test_gap_ns) {
		c->detections++;
		c->yielding = 1;
		c->next_probe = now + p->probe_interval_ns;
		c->has_probe = 0;
		c->has_room = 0;
		c->has_backed = 0;
		c->falls = 0;
		c->drained_last = 0;
		c->has_high_at = 0;
	}
}

/* `poll_push`: ends a push test due at `now`. */
LB_INLINE void lb_comp_poll_push(struct lb_comp *c, lb_comp_params_t *p, __u64 now,
				 __u64 target)
{
	__s64 drop;

	if (!c->has_push || now < c->pu_until)
		return;
	c->has_push = 0;
	if (c->pu_c > 0 && c->pu_peak > c->pu_q0 &&
	    (c->pu_peak - c->pu_q0) * LB_COMP_DOUBLE_PUSH_DEN >
		    c->pu_extra_ns * LB_COMP_DOUBLE_PUSH_NUM) {
		c->push_collisions++;
		if (c->collision_quiets && !c->yielding) {
			/* `collided`: as after a negative the suspicion asked for */
			c->has_startup = 0;
			lb_comp_quiet_kin(c, p, now);
		}
		return;
	}
	drop = c->pu_has_after ? (__s64)c->pu_q0 - c->pu_after : 0;
	lb_comp_verdict(c, p, now, !(drop >= (__s64)lb_scale_q32(target, p->push_drop_q32)), 1);
}

/* `poll`: time passes. */
LB_INLINE void lb_comp_poll(struct lb_comp *c, lb_comp_params_t *p, __u64 now,
			    __u64 qd, __u64 rtt)
{
	lb_comp_path_tick(c, now, c->yielding, p->rate_window_ns);
	if (c->has_push_target)
		lb_comp_poll_push(c, p, now, c->push_target);
	if (!c->yielding)
		return;
	if (!c->has_probe && now >= c->next_probe) {
		__u64 t = c->has_push_target ? c->push_target : 0;
		__u64 rise = lb_sat_sub(lb_scale_q32(t, LB_ONE_Q32_ + p->push_share_q32), qd);
		__u64 len = LB_COMP_PROBE_LEN_NS;
		/* busy_above_eta: a probe from above eta finds no room; run only near TARGET,
		 * and not when the queue stood above 1.2 TARGET in the last HIGH_MEMORY */
		int skip = !lb_comp_probe_range(qd, t) ||
			   (c->has_high_at && lb_since(now, c->high_at) < LB_COMP_HIGH_MEMORY_NS);
		int standing = c->busy_above_eta && c->has_eta && qd > c->last_eta;

		if (standing && skip) {
			c->next_probe = now + p->probe_interval_ns;
			c->has_room = 0;
			return;
		}
		if (lb_comp_probe_range(qd, t))
			len = lb_max_u64(len, lb_scale_q32(rise, p->probe_inv_q32));
		/* probe_rtts only for a probe that may find room */
		if (c->probe_rtts_q32 && !standing)
			len = lb_max_u64(len, lb_scale_q32(rtt, c->probe_rtts_q32));
		/* standing_probe_rtts: one from a standing queue lasts long enough for the
		 * owner's window to open, its push's length kept for the window's size */
		c->pr_push_len = len;
		if (c->standing_probe_rtts_q32 && standing)
			len = lb_max_u64(len, lb_scale_q32(rtt, c->standing_probe_rtts_q32));
		c->has_probe = 1;
		c->pr_start = now;
		c->pr_end = now + len;
		c->pr_give_up = c->pr_end + lb_max_u64(rtt * 4, LB_COMP_PROBE_GIVE_UP_NS);
		c->pr_from = qd;
		c->pr_standing = (__u8)standing;
		c->pr_has_peak = c->pr_has_acked = c->pr_has_after = 0;
	} else if (c->has_probe && now >= c->pr_give_up) {
		c->has_probe = 0;
		c->has_room = 0;
		c->next_probe = now + p->probe_interval_ns;
	}
}

/* `hold_started`: the flow's own hold began. */
LB_INLINE void lb_comp_hold_started(struct lb_comp *c, __u64 now, __u64 rtt)
{
	c->has_hold_start = 1;
	c->hold_start = now;
	c->hold_rtt = rtt;
	c->has_hold_min = 0;
	c->hold_suspected = c->test_pending;
	c->test_pending = 0;
	c->hold_share_r = c->share_r;
	c->hold_share_c = c->share_c;
}

/* `hold_ended`: evaluates the test. */
LB_INLINE void lb_comp_hold_ended(struct lb_comp *c, lb_comp_params_t *p, __u64 now,
				  __u64 eta, __u64 mss)
{
	__u64 cr, packets = 0;
	int low, positive;

	if (!c->has_hold_start)
		return;
	c->has_hold_start = 0;
	if (!c->has_hold_min)
		return;
	/* hold_share < min_share, hold_share = r / C (0 before C) */
	low = c->hold_share_c == 0 ? p->min_share_q32 > 0
				   : lb_mul_lt(c->hold_share_r, LB_ONE_Q32_, p->min_share_q32,
					       c->hold_share_c);
	if (!p->enabled || (!c->hold_suspected && low))
		return;
	cr = lb_comp_path_rate(c);
	if (cr > 0) /* Duration::from_secs_f64(test_packets * mss / C), rounded */
		packets = lb_sat_add(lb_muldiv_round(mss * p->test_packets_q32, LB_NS_PER_S, cr),
				     1ULL << 31) >> 32;
	positive = c->hold_min > lb_max_u64(eta, packets);
	/* A periodic hold is not a test when positive, unless periodic_positive. */
	if (positive && !c->hold_suspected && !p->periodic_positive)
		return;
	lb_comp_verdict(c, p, now, positive, c->hold_suspected);
}

/* `successor_gap`: the wait after a probe of length len whose push lasted push_len:
 * probe_interval when len <= push_len; else min(probe_interval len / push_len (floored),
 * max(probe_interval, KIN_CONFIRM / 2)): a probe standing_probe_rtts lengthened spaces its
 * successor by the same factor, the kin rule's two falls still within KIN_CONFIRM. */
LB_INLINE __u64 lb_comp_successor_gap(__u64 interval, __u64 len, __u64 push_len)
{
	if (len <= push_len || !push_len)
		return interval;
	return lb_min_u64(lb_muldiv(interval, len, push_len),
			  lb_max_u64(interval, LB_COMP_KIN_CONFIRM_NS / 2));
}

/* One ACK while yielding (`on_ack`'s Yielding arm); returns the action, *resume the window. */
LB_INLINE int lb_comp_ack_yielding(struct lb_comp *c, lb_comp_params_t *p, __u64 now,
				   const struct lb_comp_obs *o, __u64 cr, __u64 *resume)
{
	__u64 len, full, drop, after;
	int busy;

	if (!c->has_probe) {
		if (o->qd_ns <= o->eta_ns && c->has_last_qd && c->last_qd > o->eta_ns)
			c->next_probe = lb_min_u64(c->next_probe, now);
		if (o->qd_ns <= o->eta_ns) {
			c->has_high_at = 0;
		} else if (o->qd_ns * 5 > o->target_ns * 6) { /* above probe_range */
			c->high_at = now;
			c->has_high_at = 1;
		}
		c->last_qd = o->qd_ns;
		c->has_last_qd = 1;
		return LB_COMP_NONE;
	}
	if (o->newest_sent_ns >= c->pr_start && o->newest_sent_ns < c->pr_end) {
		c->pr_peak = c->pr_has_peak ? lb_max_u64(c->pr_peak, o->qd_ns) : o->qd_ns;
		c->pr_has_peak = 1;
		return LB_COMP_NONE;
	}
	if (o->newest_sent_ns < c->pr_end)
		return LB_COMP_NONE;
	if (!c->pr_has_acked) {
		c->pr_acked = now;
		c->pr_has_acked = 1;
	}
	c->pr_after = c->pr_has_after ? lb_min_u64(c->pr_after, o->qd_ns) : o->qd_ns;
	c->pr_has_after = 1;
	/* rtt_fall: also the time the probe's queue takes to drain at the link's rate */
	if (lb_since(now, c->pr_acked) <
	    o->rtt_ns * LB_COMP_AFTERMATH_RTTS +
		    (c->rtt_fall && c->pr_has_peak ? lb_sat_sub(c->pr_peak, c->pr_from) : 0))
		return LB_COMP_NONE;
	c->has_probe = 0;
	len = lb_since(c->pr_end, c->pr_start);
	c->next_probe = lb_sat_add(now, lb_comp_successor_gap(p->probe_interval_ns, len,
							      c->pr_push_len));
	full = lb_muldiv_round(len, p->probe_share_q32, 4 * LB_ONE_Q32_);
	after = c->pr_after; /* set just above */
	/* rtt_fall: push_drop of the RTT the probe began at when that is less */
	drop = lb_scale_q32(c->rtt_fall ? lb_min_u64(o->target_ns, o->base_rtt_ns + c->pr_from)
				       : o->target_ns,
			    p->push_drop_q32);
	if (lb_comp_probe_range(c->pr_from, o->target_ns)) {
		int drained = after <= o->eta_ns;
		int fell = drained || after + drop <= c->pr_from;
		int in_row = c->has_backed && lb_since(now, c->backed_at) <= LB_COMP_KIN_CONFIRM_NS;
		__u32 need;

		/* a drain, then a fall short of one: three falls (a ProbeRTT, then BBR's queue
		 * settling lower) */
		need = fell && in_row && c->drained_last && !drained ? 3 : 2;
		if (!fell)
			c->falls = 0;
		else if (in_row)
			c->falls++;
		else
			c->falls = 1;
		c->has_backed = (__u8)fell;
		c->backed_at = now;
		c->drained_last = (__u8)drained;
		if (c->falls >= need) {
			c->yielding = 0;
			lb_comp_quiet_kin(c, p, now);
			*resume = 0;
			return LB_COMP_RESUME;
		}
	}
	busy = c->pr_from * 2 >= o->target_ns ||
	       (c->busy_above_eta && c->pr_from > o->eta_ns) ||
	       !c->pr_has_peak || lb_sat_sub(c->pr_peak, c->pr_from) >= full;
	if (busy) {
		c->has_room = 0;
		return LB_COMP_NONE;
	}
	if (c->has_room && lb_since(now, c->room_at) >= p->confirm_ns) {
		c->yielding = 0;
		c->has_suspect = 0;
		c->positives = 0;
		c->has_first = 0;
		c->quiet_until = now + p->quiet_ns;
		c->has_quiet = 1;
		*resume = lb_muldiv(cr, lb_sat_sub(o->rtt_ns, o->qd_ns), LB_NS_PER_S);
		return LB_COMP_RESUME;
	}
	if (!c->has_room) {
		c->has_room = 1;
		c->room_at = now;
	}
	c->next_probe = now + p->confirm_ns;
	return LB_COMP_NONE;
}

/* `on_ack`: one ACK; returns the action (LB_COMP_RESUME with *resume the window, bytes). */
LB_INLINE int lb_comp_on_ack(struct lb_comp *c, lb_comp_params_t *p, __u64 now,
			     const struct lb_comp_obs *o, __u64 *resume)
{
	__u64 cr, due, k;
	int busy, above, below_share, small, confirming, startup;

	*resume = 0;
	c->last_eta = o->eta_ns;
	c->has_eta = 1;
	lb_comp_poll(c, p, now, o->qd_ns, o->rtt_ns);
	if (o->has_rate) {
		if (!c->yielding && (!o->app_limited || o->rate > lb_comp_path_rate(c)))
			lb_comp_path_sample(c, o->rate);
		c->share_r = o->rate;
		c->share_c = lb_comp_path_rate(c);
	}
	if (o->phase == LB_COMP_OWN_HOLD && c->has_hold_start &&
	    lb_since(now, c->hold_start) >= c->hold_rtt) {
		c->hold_min = c->has_hold_min ? lb_min_u64(c->hold_min, o->qd_ns) : o->qd_ns;
		c->has_hold_min = 1;
	}
	if (!p->enabled)
		return LB_COMP_NONE;
	c->push_target = o->target_ns;
	c->has_push_target = 1;
	/* a newcomer's start-up: qd > 1.5 TARGET in the ramp, on a path of 30 ms or more */
	if (o->phase == LB_COMP_RAMP && o->qd_ns * 2 > o->target_ns * 3 &&
	    o->base_rtt_ns >= LB_COMP_STARTUP_MIN_BASE_NS) {
		c->startup_at = now;
		c->has_startup = 1;
	}
	if (c->has_push) {
		c->pu_peak = lb_max_u64(c->pu_peak, o->qd_ns);
		if (now >= c->pu_observe_from && c->pu_c > 0) {
			/* other = qd + (f0 - flight) / C, in ns, signed */
			__s64 other;

			if (c->pu_f0 >= o->flight)
				other = (__s64)o->qd_ns +
					(__s64)lb_muldiv(c->pu_f0 - o->flight, LB_NS_PER_S, c->pu_c);
			else
				other = (__s64)o->qd_ns -
					(__s64)lb_muldiv(o->flight - c->pu_f0, LB_NS_PER_S, c->pu_c);
			c->pu_after = c->pu_has_after && c->pu_after < other ? c->pu_after : other;
			c->pu_has_after = 1;
		}
		return LB_COMP_NONE;
	}
	cr = lb_comp_path_rate(c);
	if (c->yielding)
		return lb_comp_ack_yielding(c, p, now, o, cr, resume);
	confirming = lb_comp_confirming(c);
	busy = c->busy_above_eta ? o->qd_ns > o->eta_ns : o->qd_ns * 2 >= o->target_ns;
	above = o->qd_ns * 10 > o->target_ns * 11;
	/* a sample the application held back shows nothing of the others */
	below_share = o->has_rate && !o->app_limited && cr > 0 &&
		      lb_mul_lt(o->rate, LB_ONE_Q32_, p->share_q32, cr);
	small = below_share &&
		(above || confirming || !lb_mul_lt(o->rate, LB_ONE_Q32_, p->min_share_q32, cr));
	if (o->phase != LB_COMP_AVOIDANCE || !busy || (c->has_quiet && now < c->quiet_until)) {
		c->has_suspect = 0;
		return LB_COMP_NONE;
	}
	if (!o->has_rate)
		return LB_COMP_NONE;
	if (!small) {
		/* below min_share C only: too little of the link to test now, no reason to
		 * forget a suspicion */
		if (!below_share || above || confirming)
			c->has_suspect = 0;
		return LB_COMP_NONE;
	}
	if (!c->has_suspect) {
		c->suspect_since = now;
		c->has_suspect = 1;
	}
	/* after a newcomer's start-up, hold: a push reads bbr's gain cycle as a backing off */
	startup = c->has_startup &&
		  (confirming || lb_since(now, c->startup_at) < LB_COMP_STARTUP_MEMORY_NS);
	/* suspect_rtts + (splitmix64(since) % 1024) / 1024 * DESYNC_RTTS, in Q32 */
	k = above ? 0 : (lb_splitmix64(c->suspect_since) % 1024) * LB_COMP_DESYNC_RTTS << 22;
	due = lb_scale_q32(o->rtt_ns, p->suspect_rtts_q32 + k);
	/* the next test's verdict, LB_COMP_TEST_RTTS after its start, test_gap after the first */
	if (lb_since(now, c->suspect_since) < due ||
	    (c->has_first &&
	     lb_since(now + o->rtt_ns * LB_COMP_TEST_RTTS, c->first_positive) < p->test_gap_ns))
		return LB_COMP_NONE;
	c->has_suspect = 0;
	if (above || startup) {
		c->test_pending = 1;
		return LB_COMP_TEST;
	}
	{
		__u64 t = o->target_ns, a = lb_scale_q32(t, p->push_share_q32);
		__u64 b = lb_sat_sub(t + a, o->qd_ns);

		c->has_push = 1;
		c->pu_q0 = o->qd_ns;
		c->pu_f0 = o->flight;
		c->pu_c = cr;
		c->pu_extra_ns = lb_max_u64(a, b);
		c->pu_extra = lb_muldiv(cr, c->pu_extra_ns, LB_NS_PER_S);
		c->pu_push_until = now + o->rtt_ns;
		c->pu_observe_from = c->pu_push_until + o->rtt_ns;
		c->pu_until = c->pu_observe_from + o->rtt_ns * 2;
		c->pu_has_after = 0;
		c->pu_peak = o->qd_ns;
	}
	return LB_COMP_NONE;
}

#endif
