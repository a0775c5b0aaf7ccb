/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Receiver-side LEDBAT (rLEDBAT, draft-irtf-iccrg-rledbat) for kernel TCP: the receive
 * window a receiver allows its sender, driven by the queuing delay of the data it receives,
 * so that the remote sender yields whatever its own congestion control. The arithmetic is
 * the uTP receiver's (crates/ledbat-utp/src/rledbat.rs), which follows LEDBAT++ as the draft
 * specifies, in 32.32 fixed point without floating point (BPF has none); the same header is
 * compiled into bpf/rledbat.bpf.c and, for the differential test against the uTP receiver,
 * into csrc/rl_replay.c.
 *
 *   GAIN = 1 / min(16, ceil(2 TARGET / base_rtt))
 *   slow start (from 10 packets):   rcwnd += GAIN b         until qd > 3/4 TARGET
 *   per RTT, spread over the window (a segment of b bytes applies b / rcwnd of the step):
 *       qd <= TARGET:  rcwnd += GAIN packets
 *       qd >  TARGET:  rcwnd += max(GAIN - W (qd / TARGET - 1), -W / 2) packets
 *   a loss (a gap in the sequence): rcwnd /= 2, at most once per RTT
 *   periodic slowdowns: 2 RTTs after slow start ends, rcwnd is held at 2 packets for
 *       2 RTTs, then slow start climbs back to the window before; the next slowdown comes
 *       9 k times the last one's duration (hold and climb) after the climb ends, k = 1
 *   backoff (cfg->slowdown_backoff, 1 by default: the draft; our extension, the uTP
 *       receiver's): a hold of ours (a slowdown's or a test's) whose least qd was at most
 *       eta and after which the base delay is where it was at its start doubles k, up to
 *       cfg->slowdown_backoff; any other hold puts k back to 1
 *   rcwnd >= 2 packets; the RTT is the last sample (100 ms before the first), the base RTT
 *   the smallest.
 *   restart (cfg->empty_queue_restart, off by default; our extension, the uTP receiver's):
 *       in avoidance, once qd <= eta = clamp(base_rtt / 8, 4 ms, 16 ms) (4 ms before an
 *       RTT sample) has held for one RTT, slow start again (rcwnd += GAIN b, from the
 *       segment that finds it due) until qd > 3/4 TARGET, a loss or rcwnd >= bound, then
 *       avoidance with the slowdown scheduled before; bound = max_rate x (base RTT + 3/4
 *       TARGET), max_rate the fastest rate sample (the detection's spans, below, taken
 *       when either is on); the clock runs only in avoidance (a slowdown's hold and climb
 *       back empty the queue on purpose) and while rcwnd < bound / 2 (a window a
 *       competitor pushed down; none before a rate sample)
 *   window validation (cfg->window_validation, off by default; our extension, the uTP
 *       receiver's): flight = the most payload received in one round (an RTT from its
 *       first segment) over the connection; once rcwnd >= RL_VALIDATION_FACTOR (8) x
 *       flight, slow start (and a restart) ends and avoidance does not grow (a sender the
 *       window does not limit, bbr, otherwise keeps the draft's slow start going for ever)
 *   competitor detection (cfg->comp.enabled, off by default; our extension, the uTP
 *       receiver's, whose module comment gives the rules and their reasons): the core's
 *       detection (lbcc_competitor.h) with the receiver's options (busy from eta, probes
 *       that may find room of at least RL_PROBE_RTTS RTTs, a collision quiets, and probes
 *       from a standing queue of at least cfg->standing_probe_rtts_q32 RTTs, 0 by
 *       default), fed payload bytes
 *       over spans of max(200 ms, RTT) as its rate samples, qd, the RTT, eta,
 *       newest_sent = now - RTT and flight = min(window, last rate sample x RTT); a
 *       test holds rcwnd at 2 packets for test_hold_rtts RTTs (the climb back after a
 *       positive one to half the window);
 *       a push adds its extra to the window for an RTT; yielding, the window is
 *       max(1 packet, yield_share C RTT), while a probe runs max(2 packets, probe_share
 *       C RTT); on resuming, slow start from 2 packets at one byte per byte up to the
 *       detection's C (RTT - qd), GAIN per byte above; a loss while yielding changes nothing
 *
 * In 32.32 bytes: slow start adds b 2^32 / div; the per-RTT step in bytes is mss / div, or
 * mss / div - rcwnd (qd - TARGET) / TARGET floored at -rcwnd / 2 (with qd - TARGET capped at
 * TARGET, past which the floor applies anyway since rcwnd >= 2 mss), and a segment applies
 * step * b / rcwnd, an exact 128-bit product and quotient (lbcc_math.h).
 *
 * The queuing delay is the delay estimator of lbcc_delay.h (ledbat-core's DelayEstimator:
 * base = minimum of 10 one-minute buckets, current = minimum of the last 4 samples), fed
 * with the delay signal the glue chooses: one-way (the sender's TSval against our clock at
 * receipt, the peer's clock rate learnt by lbcc_owd.h) or the receiver's RTT estimate.
 *
 * The window is never shrunk (RFC 7323 section 2.4; the draft's section 4): the glue only
 * lowers the kernel's window clamp, and the kernel's window selection then stops advancing
 * the right edge until the data in flight has been received, never retracting it (unless
 * net.ipv4.tcp_shrink_window=1, which the loader refuses).
 */
#ifndef RLEDBAT_H
#define RLEDBAT_H

#include "lbcc_math.h"
#include "lbcc_delay.h"
#include "lbcc_owd.h"
#include "lbcc_competitor.h"

#define RL_INITIAL_PACKETS 10ULL
#define RL_MIN_PACKETS 2ULL
/* The smallest window while yielding outside a probe, in packets: the sender's yield is
 * one packet too (twin of ledbat_utp::rledbat::YIELD_MIN_PACKETS). */
#define RL_YIELD_MIN_PACKETS 1ULL
#define RL_MAX_GAIN_DIVISOR 16ULL
/* The RTT the per-RTT rules use before the first sample. */
#define RL_DEFAULT_ROUND_NS (100ULL * LB_NS_PER_MS)
/* RTT samples outside (0, 10 s) are ignored (a clock stepping). */
#define RL_MAX_RTT_NS (10000ULL * LB_NS_PER_MS)
/* The detection's rate samples span at least this (competitor::RATE_SPAN) and an RTT. */
#define RL_RATE_SPAN_NS (200ULL * LB_NS_PER_MS)
/* A probe from eta or below lasts at least this many RTTs, 32.32
 * (ledbat_utp::rledbat::PROBE_RTTS = 6). */
#define RL_PROBE_RTTS_Q32 (6ULL << 32)
/* The largest slow start "one byte per byte" bound kept, bytes. */
#define RL_MAX_FULL_SPEED (1ULL << 31)
/* Window validation's bound in rounds' flights (ledbat_utp::rledbat::VALIDATION_FACTOR),
 * and the largest flight it keeps, bytes (the bound in 32.32 stays below 2^64). */
#define RL_VALIDATION_FACTOR 8ULL
#define RL_MAX_FLIGHT (1ULL << 28)
/* The largest restart bound kept, bytes (ledbat_utp::rledbat::MAX_RESTART_BOUND; the bound
 * in 32.32 stays below 2^64). */
#define RL_MAX_RESTART_BOUND (1ULL << 31)
/* The largest cfg->slowdown_backoff (the uTP receiver's MAX_SLOWDOWN_BACKOFF). */
#define RL_MAX_SLOWDOWN_BACKOFF 64ULL

enum rl_phase { RL_SLOW_START = 0, RL_AVOIDANCE = 1, RL_SLOWDOWN = 2, RL_RESTART = 3,
		RL_YIELD = 4 };

/* The kind of the detection's last verdict (struct rl's lt_*, published by rstats). */
enum rl_test_kind { RL_TEST_NONE = 0, RL_TEST_PUSH = 1, RL_TEST_HOLD = 2, RL_TEST_VOID = 3 };

/* What the detection's last probe while yielding found (struct rl's lp_flags). */
enum rl_probe_flag {
	RL_PROBE_RESUMED = 1,  /* the yield ended with it */
	RL_PROBE_ROOM = 2,     /* room found (twice `confirm` apart resumes) */
	RL_PROBE_FELL = 4,     /* the queue fell after it (twice in a row resumes: our kind) */
	RL_PROBE_IN_RANGE = 8, /* it began in the range the fall is judged in */
	RL_PROBE_AFTER = 16,   /* its aftermath was measured (else it was given up) */
	RL_PROBE_PEAK = 32,    /* its own segments' queue was measured */
};

#define RL_SIGNALS(X)       \
	X(RL_SIGNAL_OWD, 1) \
	X(RL_SIGNAL_RTT, 2)

enum rl_signal { RL_SIGNALS(LB_DECLARE_CONST) };

/* Configuration (the object's read-only data after the delay estimator's lb_params), one
 * list as lbcc_params.h's: ledbat_tcp::rledbat::RlCfg is checked against it by name. */
#define RL_CFG_FIELDS(X)                                                      \
	X(__u64, target_ns)           /* TARGET, default 60 ms */             \
	X(__u64, slowdowns)           /* 0/1, default 1 */                    \
	X(__u64, signal)              /* enum rl_signal */                    \
	/* bytes: the largest clamp written (0: no limit but the kernel's) */ \
	X(__u64, max_window)                                                  \
	X(__u64, empty_queue_restart) /* 0/1, default 0 */                    \
	/* the competitor detection: `competitor.*` (enabled 0 by default), */ \
	/* and a test's hold in RTTs (48.16) */                               \
	X(struct lb_comp_params, comp)                                        \
	X(__u64, comp_test_hold_rtts_q16)                                     \
	X(__u64, window_validation)   /* 0/1, default 0 */                    \
	/* a probe from a standing queue opens probe_share C (RTT + length), */ \
	/* not C max(RTT, length): 0/1, default 0 */                            \
	X(__u64, standing_probe_sum)                                            \
	/* the slowdowns' spacing grows up to this factor: 1 (the draft) to 64 */ \
	X(__u64, slowdown_backoff)                                              \
	/* a probe from a standing queue lasts at least this many RTTs, 32.32 */ \
	/* (0: its push's length, the default) */                               \
	X(__u64, standing_probe_rtts_q32)                                       \
	/* a probe's fall counts at push_drop of its RTT (rtt_fall): 0/1 */     \
	X(__u64, rtt_fall)

struct rl_cfg {
	RL_CFG_FIELDS(LB_DECLARE_FIELD)
};

#define RL_CFG_WORDS 28
_Static_assert(sizeof(struct rl_cfg) == RL_CFG_WORDS * 8, "rl_cfg is RlCfg");

struct rl {
	struct lb_delay delay;
	__u64 rcwnd;          /* Q32 bytes */
	__u64 mss;
	__u64 ss_limit;       /* bytes (slow start back after a slowdown, has_limit) */
	__u64 slowdown_at;    /* ns */
	__u64 sd_started;     /* ns */
	__u64 sd_until;       /* ns */
	__u64 sd_resume;      /* bytes */
	__u64 last_slowdown;  /* ns, the last slowdown's duration, hold and climb back */
	__u64 last_halving;   /* ns */
	__u64 rtt_ns;
	__u64 base_rtt_ns;
	__u64 slowdowns;      /* count */
	__u64 restarts;       /* count (empty_queue_restart) */
	__u64 test_holds;     /* count: the holds the competitor detection asked for */
	__u64 max_rate;       /* bytes/s, the fastest rate sample (the restart's bound) */
	__u64 empty_since;    /* ns, since when the queue has been empty in avoidance */
	/* the competitor detection (cfg->comp.enabled) */
	__u64 received;       /* payload bytes */
	__u64 last_rate;      /* bytes/s, the last rate sample (has_last_rate) */
	__u64 full_speed_to;  /* bytes: after a competitor left, slow start a byte per byte */
	__u64 now;            /* ns, the latest event's (the window depends on it) */
	/* window validation: the round running (start, payload so far), the most of one */
	__u64 round_start;    /* ns, has_round */
	__u64 round_bytes;
	__u64 max_flight;     /* bytes */
	/* the backoff (cfg->slowdown_backoff): its factor, and through a hold of ours the
	 * base at its start and its least qd so far (has_hold_min) */
	__u64 backoff;
	__s64 hold_base;
	__u64 hold_min;       /* ns */
	/* the detection's last verdict, for `ledbat tcp rstats` (read by nothing else): when,
	 * and what it measured: a push's queue at its start and the others' queue at its
	 * lowest after (signed; the verdict is positive when the fall is below push_drop
	 * TARGET), a hold's least queue (lt_q0 0), a voided push's start and peak */
	__u64 lt_at;          /* ns */
	__u64 lt_q0;          /* ns */
	__s64 lt_q1;          /* ns */
	/* the detection's last probe while yielding, also for rstats alone: when it ended,
	 * the queue at its start, at its peak and the least after, the falls in a row */
	__u64 lp_at;          /* ns */
	__u64 lp_from;        /* ns */
	__u64 lp_peak;        /* ns */
	__u64 lp_after;       /* ns */
	__u64 probes;         /* count: the probes ended (judged or given up) */
	__u32 lp_falls;
	__u8 lp_flags;        /* enum rl_probe_flag */
	__u8 lt_kind;         /* enum rl_test_kind */
	__u8 lt_positive;
	__u8 phase;
	__u8 has_limit;
	__u8 has_slowdown_at;
	__u8 has_halving;
	__u8 has_rtt;
	__u8 has_empty_since;
	__u8 sd_test;         /* the slowdown is a test's hold */
	__u8 has_last_rate;
	__u8 has_round;
	__u8 has_hold_min;
	struct lb_span span;
	struct lb_comp comp;  /* last: cleared word by word (lb_comp_clear) */
};

LB_INLINE void rl_init(struct rl *r, __u64 mss, const volatile struct rl_cfg *cfg)
{
	__builtin_memset(r, 0, __builtin_offsetof(struct rl, comp));
	lb_comp_init(&r->comp);
	lb_comp_owner(&r->comp, 1, RL_PROBE_RTTS_Q32, 1, cfg->standing_probe_rtts_q32,
		      (int)cfg->rtt_fall);
	r->mss = mss ? mss : 1;
	r->rcwnd = (RL_INITIAL_PACKETS * r->mss) << 32;
	r->phase = RL_SLOW_START;
	r->backoff = 1;
}

/* The window in whole bytes: the 32.32 window floored, counting a window within 2^-12 byte
 * below a whole number as reaching it (the fixed point's floors accumulate below the exact
 * value: three segments adding 1/3 of 1 000 bytes each make 10 999.9999999 of 11 000). */
LB_INLINE __u64 rl_window(const struct rl *r)
{
	return (r->rcwnd + LB_REACH_SLACK_Q32) >> 32;
}

LB_INLINE __u64 rl_min_window(const struct rl *r)
{
	return (RL_MIN_PACKETS * r->mss) << 32;
}

LB_INLINE __u64 rl_round(const struct rl *r)
{
	return r->has_rtt ? r->rtt_ns : RL_DEFAULT_ROUND_NS;
}

/* Window validation: a segment of `bytes` at `now` into the rounds. */
LB_INLINE void rl_count_round(struct rl *r, __u64 now, __u64 bytes)
{
	if (!r->has_round) {
		r->has_round = 1;
		r->round_start = now;
	} else if (lb_since(now, r->round_start) >= rl_round(r)) {
		r->max_flight = lb_min_u64(lb_max_u64(r->max_flight, r->round_bytes), RL_MAX_FLIGHT);
		r->round_start = now;
		r->round_bytes = 0;
	}
	r->round_bytes = lb_sat_add(r->round_bytes, bytes);
}

/* Window validation: whether rcwnd has reached its bound (never before a round closed). */
LB_INLINE int rl_validated_out(const struct rl *r, const volatile struct rl_cfg *cfg)
{
	return cfg->window_validation && r->max_flight > 0 &&
	       lb_reached(r->rcwnd, (RL_VALIDATION_FACTOR * r->max_flight) << 32);
}

/* The window to advertise at the latest event, bytes: rl_window plus a push test's extra;
 * while yielding, max(1 packet, yield_share C RTT), or max(2 packets, probe_share C RTT)
 * while a probe runs (max(RTT, its length) for one from a standing queue: it only pushes;
 * RTT + its length with standing_probe_sum). */
LB_INLINE __u64 rl_adv_window(const struct rl *r, const volatile struct rl_cfg *cfg)
{
	__u64 share, span, w, len = 0;
	int probing;

	if (!r->comp.yielding)
		return rl_window(r) + lb_comp_push_window(&r->comp, r->now);
	probing = lb_comp_probing(&r->comp, r->now);
	share = probing ? cfg->comp.probe_share_q32 : cfg->comp.yield_share_q32;
	/* a probe from a standing queue: its length, if longer than an RTT, or both */
	lb_comp_pushing_probe(&r->comp, r->now, &len);
	span = cfg->standing_probe_sum ? rl_round(r) + len : lb_max_u64(rl_round(r), len);
	w = lb_muldiv(lb_comp_path_rate(&r->comp), lb_scale_q32(span, share), LB_NS_PER_S);
	return lb_max_u64(w, (probing ? RL_MIN_PACKETS : RL_YIELD_MIN_PACKETS) * r->mss);
}

/* min(16, max(1, ceil(2 TARGET / base_rtt))). */
LB_INLINE __u64 rl_gain_divisor(const struct rl *r, const volatile struct rl_cfg *cfg)
{
	__u64 base = r->has_rtt ? r->base_rtt_ns : rl_round(r);
	__u64 two_t = 2 * cfg->target_ns;
	__u64 d;

	if (base == 0)
		base = 1;
	d = two_t / base + (two_t % base != 0);
	if (d < 1)
		d = 1;
	if (d > RL_MAX_GAIN_DIVISOR)
		d = RL_MAX_GAIN_DIVISOR;
	return d;
}

/* The restart's eta: clamp(base_rtt / 8, 4 ms, 16 ms), 4 ms before an RTT sample. */
LB_INLINE __u64 rl_eta(const struct rl *r)
{
	return lb_empty_queue_eta(r->has_rtt ? r->base_rtt_ns : 0);
}

/* The restart's bound, bytes: max_rate x (base RTT + 3/4 TARGET), floored, at most
 * RL_MAX_RESTART_BOUND (0 before a rate sample). */
LB_INLINE __u64 rl_restart_bound(const struct rl *r, const volatile struct rl_cfg *cfg)
{
	__u64 base = r->has_rtt ? r->base_rtt_ns : RL_DEFAULT_ROUND_NS;

	return lb_min_u64(lb_muldiv(r->max_rate, base + cfg->target_ns * 3 / 4, LB_NS_PER_S),
			  RL_MAX_RESTART_BOUND);
}

/* In avoidance at queuing delay `qd`: whether one RTT of empty queue has passed (the
 * restart is then due; ledbat-core's SlowStart::restart_due), with rcwnd below half the
 * restart's bound all the while. */
LB_INLINE int rl_restart_due(struct rl *r, const volatile struct rl_cfg *cfg, __u64 now,
			     __u64 qd)
{
	__u64 bound;

	/* the bound (a long division) only when the cheap checks leave it to decide */
	if (!cfg->empty_queue_restart || qd > rl_eta(r) ||
	    !(bound = rl_restart_bound(r, cfg)) || r->rcwnd >= bound << 31) {
		r->has_empty_since = 0;
		return 0;
	}
	if (!r->has_empty_since) {
		r->has_empty_since = 1;
		r->empty_since = now;
	}
	if (lb_since(now, r->empty_since) >= rl_round(r)) {
		r->has_empty_since = 0;
		return 1;
	}
	return 0;
}

LB_INLINE void rl_enter_avoidance(struct rl *r, const volatile struct rl_cfg *cfg, __u64 now)
{
	/* The end of a slowdown's slow start back: its duration runs from the hold's start. */
	if (r->has_limit) {
		r->last_slowdown = lb_since(now, r->sd_started);
		r->has_limit = 0;
	}
	r->full_speed_to = 0;
	r->phase = RL_AVOIDANCE;
	r->has_slowdown_at = cfg->slowdowns != 0;
	if (r->has_slowdown_at)
		r->slowdown_at = r->last_slowdown == 0 ? now + 2 * rl_round(r)
						       : now + 9 * r->backoff * r->last_slowdown;
}

/* The avoidance step for a segment of `bytes` at queuing delay `qd`, applied to rcwnd. */
LB_INLINE void rl_avoidance_step(struct rl *r, const volatile struct rl_cfg *cfg, __u64 qd,
				 __u64 bytes)
{
	__u64 inc = (r->mss << 32) / rl_gain_divisor(r, cfg); /* GAIN packets, Q32 bytes */
	__u64 t = cfg->target_ns ? cfg->target_ns : 1;
	__u64 b32 = bytes << 32;
	__u64 dec = 0;

	if (qd > t) {
		__u64 excess = qd - t < t ? qd - t : t;

		dec = lb_muldiv(r->rcwnd, excess, t);
	}
	if (dec <= inc) {
		/* growing (or still): only while the window is not validated out */
		if (!rl_validated_out(r, cfg))
			r->rcwnd += lb_muldiv(inc - dec, b32, r->rcwnd);
	} else {
		__u64 neg = dec - inc;
		__u64 half = r->rcwnd / 2;

		if (neg > half)
			neg = half;
		r->rcwnd = lb_sat_sub(r->rcwnd, lb_muldiv(neg, b32, r->rcwnd));
	}
}

/* A slowdown's hold starts at `now` for `len` ns (a test's when `test`): rcwnd at the
 * minimum, then slow start back to the window before. */
LB_INLINE void rl_hold(struct rl *r, __u64 now, __u64 len, int test)
{
	r->phase = RL_SLOWDOWN;
	r->sd_started = now;
	r->sd_until = now + len;
	r->sd_resume = rl_window(r);
	r->sd_test = (__u8)(test != 0);
	if (test)
		lb_comp_hold_started(&r->comp, now, rl_round(r));
	r->hold_base = r->delay.base_min;
	r->has_hold_min = 0;
	r->rcwnd = rl_min_window(r);
	r->has_empty_since = 0;
}

/* A hold of ours ended: the backoff's factor doubles (up to cfg->slowdown_backoff) when the
 * hold drained the queue to eta and found no lower base, else it is 1 again. (A hold
 * begins only with qd measured, so the base at its start is one.) */
LB_INLINE void rl_hold_ended(struct rl *r, const volatile struct rl_cfg *cfg)
{
	__u64 max = cfg->slowdown_backoff;

	if (max < 1)
		max = 1;
	if (max > RL_MAX_SLOWDOWN_BACKOFF)
		max = RL_MAX_SLOWDOWN_BACKOFF;
	if (r->has_hold_min && r->hold_min <= rl_eta(r) && r->delay.base_min == r->hold_base)
		r->backoff = lb_min_u64(2 * r->backoff, max);
	else
		r->backoff = 1;
	r->has_hold_min = 0;
}

/* Records the detection's verdict when one was given since its counts were `tests0` and
 * `void0` (positives `pos0`): a push's (or a voided push's) when `push`, else a hold's. */
LB_INLINE void rl_note_test(struct rl *r, __u64 now, __u64 tests0, __u64 void0, __u32 pos0,
			    int push)
{
	const struct lb_comp *c = &r->comp;

	if (push && c->push_collisions != void0) {
		r->lt_kind = RL_TEST_VOID;
		r->lt_q1 = (__s64)c->pu_peak;
	} else if (c->tests != tests0) {
		r->lt_kind = push ? RL_TEST_PUSH : RL_TEST_HOLD;
		if (push)
			r->lt_q1 = c->pu_has_after ? c->pu_after : (__s64)c->pu_q0;
		else
			r->lt_q1 = (__s64)c->hold_min;
	} else {
		return;
	}
	r->lt_at = now;
	r->lt_q0 = push ? c->pu_q0 : 0;
	/* a positive verdict counts one more positive (and one that yields keeps it) */
	r->lt_positive = (__u8)(c->positives > pos0);
}

/* Records the probe that ended at this segment, if one did: one ran before it (`had`,
 * begun at `start0`) and none runs now or a new one does. */
LB_INLINE void rl_note_probe(struct rl *r, __u64 now, int had, __u64 start0, __u64 target,
			     int action)
{
	const struct lb_comp *c = &r->comp;
	__u8 f = 0;

	if (!had || (c->has_probe && c->pr_start == start0))
		return;
	r->probes++;
	r->lp_at = now;
	r->lp_from = c->pr_from;
	r->lp_peak = c->pr_has_peak ? c->pr_peak : 0;
	r->lp_after = c->pr_has_after ? c->pr_after : 0;
	r->lp_falls = c->falls;
	if (action == LB_COMP_RESUME)
		f |= RL_PROBE_RESUMED;
	if (c->has_room)
		f |= RL_PROBE_ROOM;
	if (lb_comp_probe_range(c->pr_from, target)) {
		f |= RL_PROBE_IN_RANGE;
		if (c->has_backed && c->backed_at == now)
			f |= RL_PROBE_FELL;
	}
	if (c->pr_has_after)
		f |= RL_PROBE_AFTER;
	if (c->pr_has_peak)
		f |= RL_PROBE_PEAK;
	r->lp_flags = f;
}

/* The competitor detection on one segment (qd measured; a rate sample when has_rate):
 * returns whether the window rules are skipped (yielding, or a test's hold began). */
LB_INLINE int rl_detect(struct rl *r, const volatile struct rl_cfg *cfg, __u64 now, __u64 qd,
			int has_rate, __u64 rate)
{
	struct lb_comp_obs o;
	__u64 rtt = rl_round(r), resume = 0, w;
	__u64 tests0 = r->comp.tests, void0 = r->comp.push_collisions;
	__u64 probe0 = r->comp.pr_start;
	__u32 pos0 = r->comp.positives;
	int action, had_probe = r->comp.has_probe;

	__builtin_memset(&o, 0, sizeof(o));
	o.qd_ns = qd;
	o.target_ns = cfg->target_ns;
	o.rtt_ns = rtt;
	o.base_rtt_ns = r->has_rtt ? r->base_rtt_ns : 0;
	o.eta_ns = rl_eta(r);
	o.mss = r->mss;
	if (r->phase == RL_AVOIDANCE)
		o.phase = LB_COMP_AVOIDANCE;
	else if (r->phase == RL_SLOWDOWN && r->sd_test && now < r->sd_until)
		o.phase = LB_COMP_OWN_HOLD;
	else
		o.phase = LB_COMP_OTHER;
	o.has_rate = (__u8)(has_rate != 0);
	o.rate = rate;
	/* the data arriving now left under the window advertised an RTT ago */
	o.newest_sent_ns = lb_sat_sub(now, rtt);
	/* what the sender has in flight: the window, or an RTT of its delivery when less */
	w = rl_adv_window(r, cfg);
	o.flight = r->has_last_rate
			   ? lb_min_u64(w, lb_muldiv(r->last_rate, rtt, LB_NS_PER_S))
			   : w;
	action = lb_comp_on_ack(&r->comp, &cfg->comp, now, &o, &resume);
	rl_note_test(r, now, tests0, void0, pos0, 1); /* on_ack gives push verdicts only */
	rl_note_probe(r, now, had_probe, probe0, cfg->target_ns, action);
	if (action == LB_COMP_TEST && r->phase == RL_AVOIDANCE) {
		r->test_holds++;
		rl_hold(r, now, lb_muldiv_round(rtt, cfg->comp_test_hold_rtts_q16, 1ULL << 16), 1);
		return 1;
	}
	if (action == LB_COMP_RESUME) {
		/* the competitor left: slow start, at full speed up to the path's BDP */
		r->rcwnd = rl_min_window(r);
		r->full_speed_to = lb_min_u64(resume, RL_MAX_FULL_SPEED);
		r->has_limit = 0;
		r->phase = RL_SLOW_START;
	}
	if (r->comp.yielding && r->phase != RL_YIELD) {
		/* a push test's verdict */
		r->phase = RL_YIELD;
		r->rcwnd = rl_min_window(r);
	}
	return r->comp.yielding;
}

/*
 * A segment of `bytes` payload bytes received at `now` (ns): `sample_us` is the delay
 * signal's sample (microseconds, wrapping: its offset cancels in the base), `rtt_ns` an RTT
 * sample or 0. `bytes` must be below 2^32 (the glue caps it).
 */
LB_INLINE void rl_on_data(struct rl *r, const volatile struct rl_cfg *cfg, lb_params_t *dp,
			  __u64 now, __u64 bytes, __u32 sample_us, __u64 rtt_ns)
{
	__u64 qd, rate = 0;
	int has_rate = 0, limited = 0;

	r->now = lb_max_u64(r->now, now);
	lb_delay_sample(&r->delay, dp, now, sample_us);
	if (rtt_ns > 0 && rtt_ns < RL_MAX_RTT_NS) {
		r->rtt_ns = rtt_ns;
		r->base_rtt_ns = r->has_rtt && r->base_rtt_ns < rtt_ns ? r->base_rtt_ns : rtt_ns;
		r->has_rtt = 1;
	}
	if (cfg->window_validation)
		rl_count_round(r, now, bytes);
	if (cfg->comp.enabled || cfg->empty_queue_restart) {
		r->received += bytes;
		has_rate = lb_span_on_ack(&r->span, now, r->received, 0,
					  lb_max_u64(rl_round(r), RL_RATE_SPAN_NS), &rate, &limited);
		if (has_rate) {
			r->last_rate = rate;
			r->has_last_rate = 1;
			r->max_rate = lb_max_u64(r->max_rate, rate);
		}
	}
	if (!lb_queuing_delay(&r->delay, dp, &qd))
		return;
	if (cfg->comp.enabled && rl_detect(r, cfg, now, qd, has_rate, rate)) {
		r->has_empty_since = 0;
		return;
	}
	if (r->phase != RL_AVOIDANCE)
		r->has_empty_since = 0;
	if (r->phase == RL_SLOW_START) {
		if (qd * 4 > cfg->target_ns * 3 ||
		    (r->has_limit && lb_reached(r->rcwnd, r->ss_limit << 32)) ||
		    rl_validated_out(r, cfg))
			rl_enter_avoidance(r, cfg, now);
		else if (r->rcwnd < (r->full_speed_to << 32))
			r->rcwnd += bytes << 32;
		else
			r->rcwnd += (bytes << 32) / rl_gain_divisor(r, cfg);
	} else if (r->phase == RL_AVOIDANCE) {
		/* not during a push test: its verdict counts this flow's window */
		if (r->has_slowdown_at && now >= r->slowdown_at && !r->comp.has_push) {
			rl_hold(r, now, 2 * rl_round(r), 0);
			r->slowdowns++;
			return;
		}
		if (rl_restart_due(r, cfg, now, qd)) {
			/* the slowdown schedule (slowdown_at) is kept through the restart */
			r->phase = RL_RESTART;
			r->restarts++;
			r->rcwnd += (bytes << 32) / rl_gain_divisor(r, cfg);
			return;
		}
		rl_avoidance_step(r, cfg, qd, bytes);
	} else if (r->phase == RL_RESTART) {
		if (qd * 4 > cfg->target_ns * 3 || rl_validated_out(r, cfg) ||
		    lb_reached(r->rcwnd, rl_restart_bound(r, cfg) << 32))
			r->phase = RL_AVOIDANCE;
		else
			r->rcwnd += (bytes << 32) / rl_gain_divisor(r, cfg);
	} else if (r->phase == RL_SLOWDOWN) {
		if (now < r->sd_until) {
			if (!r->has_hold_min || qd < r->hold_min)
				r->hold_min = qd;
			r->has_hold_min = 1;
		} else {
			__u64 resume = r->sd_resume;

			rl_hold_ended(r, cfg);

			if (r->sd_test) {
				__u64 tests0 = r->comp.tests;
				__u32 pos0 = r->comp.positives;

				lb_comp_hold_ended(&r->comp, &cfg->comp, now, rl_eta(r), r->mss);
				rl_note_test(r, now, tests0, r->comp.push_collisions, pos0, 0);
				if (r->comp.yielding) {
					r->phase = RL_YIELD;
					r->rcwnd = rl_min_window(r);
					return;
				}
				/* a positive test: climb back to half the window, the other test's
				 * hold comes soon */
				if (lb_comp_confirming(&r->comp))
					resume /= 2;
			}
			r->phase = RL_SLOW_START;
			r->has_limit = 1;
			r->ss_limit = resume;
		}
	}
	if (r->rcwnd < rl_min_window(r))
		r->rcwnd = rl_min_window(r);
}

/* A segment was lost on the way to us (a gap opened): halve, once per RTT. */
LB_INLINE void rl_on_loss(struct rl *r, const volatile struct rl_cfg *cfg, __u64 now)
{
	r->now = lb_max_u64(r->now, now);
	if (r->comp.yielding) /* the detection's window, not rcwnd, is advertised */
		return;
	if (r->has_halving && lb_since(now, r->last_halving) < rl_round(r))
		return;
	r->has_halving = 1;
	r->last_halving = now;
	r->rcwnd /= 2;
	if (r->rcwnd < rl_min_window(r))
		r->rcwnd = rl_min_window(r);
	if (r->phase == RL_SLOW_START)
		rl_enter_avoidance(r, cfg, now);
	else if (r->phase == RL_RESTART)
		r->phase = RL_AVOIDANCE;
}

/*
 * The window clamp to write for a window of `window` bytes: at least `floor` (the kernel's
 * smallest clamp, and one segment), at most cfg->max_window when set.
 */
LB_INLINE __u32 rl_clamp(const volatile struct rl_cfg *cfg, __u64 window, __u64 floor)
{
	__u64 w = window;

	if (cfg->max_window && w > cfg->max_window)
		w = cfg->max_window;
	if (w < floor)
		w = floor;
	if (w > 0x7fffffffULL)
		w = 0x7fffffffULL;
	return (__u32)w;
}

/*
 * The one-way delay sample of a received segment whose TSval is `tsval`, at our time `now`
 * (ns), through the clock-rate learning of lbcc_owd.h: that header's sample is TSval
 * scaled minus our echoed clock (the sender's view); here "our clock" is `now` in our
 * timestamp ticks (`our_us_per_tick`: 1000, or 1 with tcp_usec_ts), and the sign is turned
 * round so that a growing queue gives a growing sample. Returns 0 while no sample can be
 * had (the peer's clock unusable).
 */
LB_INLINE int rl_owd_sample(struct lb_owd *o, __u64 now, __u32 tsval, __u32 our_us_per_tick,
			    __u32 *sample_us, int *rescaled)
{
	__u32 tick = our_us_per_tick ? our_us_per_tick : 1;
	__u32 ours = (__u32)(now / LB_NS_PER_US / tick);
	__u32 s;

	/* our clock as the "echo"; a zero would read as "no echo" */
	if (ours == 0)
		ours = 1;
	if (!lb_owd_sample(o, now, tsval, ours, tick, &s, rescaled))
		return 0;
	*sample_us = 0u - s;
	return 1;
}

#endif
