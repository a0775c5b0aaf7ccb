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
 *       9 times the last one's duration (hold and climb) after the climb ends
 *   rcwnd >= 2 packets; the RTT is the last sample (100 ms before the first), the base RTT
 *   the smallest.
 *   restart (cfg->empty_queue_restart, off by default; our extension, the uTP receiver's):
 *       in avoidance, once qd <= eta = clamp(base_rtt / 8, 4 ms, 16 ms) (4 ms before an
 *       RTT sample) has held for one RTT, slow start again (rcwnd += GAIN b, from the
 *       segment that finds it due) until qd > 3/4 TARGET or a loss, then avoidance with
 *       the slowdown scheduled before; the clock runs only in avoidance (a slowdown's hold
 *       and climb back empty the queue on purpose) and while rcwnd is below half the
 *       largest window avoidance has had (a window a competitor pushed down; beside a bbr
 *       sender, which keeps the queue under eta by itself, a restart only overshoots)
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

#define RL_INITIAL_PACKETS 10ULL
#define RL_MIN_PACKETS 2ULL
#define RL_MAX_GAIN_DIVISOR 16ULL
/* The RTT the per-RTT rules use before the first sample. */
#define RL_DEFAULT_ROUND_NS (100ULL * LB_NS_PER_MS)
/* RTT samples outside (0, 10 s) are ignored (a clock stepping). */
#define RL_MAX_RTT_NS (10000ULL * LB_NS_PER_MS)

enum rl_phase { RL_SLOW_START = 0, RL_AVOIDANCE = 1, RL_SLOWDOWN = 2, RL_RESTART = 3 };

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
	X(__u64, empty_queue_restart) /* 0/1, default 0 */

struct rl_cfg {
	RL_CFG_FIELDS(LB_DECLARE_FIELD)
};

#define RL_CFG_WORDS 5
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
	__u64 largest;        /* Q32 bytes, the largest rcwnd of avoidance */
	__u64 empty_since;    /* ns, since when the queue has been empty in avoidance */
	__u8 phase;
	__u8 has_limit;
	__u8 has_slowdown_at;
	__u8 has_halving;
	__u8 has_rtt;
	__u8 has_empty_since;
	__u8 _pad[2];
};

LB_INLINE void rl_init(struct rl *r, __u64 mss)
{
	__builtin_memset(r, 0, sizeof(*r));
	r->mss = mss ? mss : 1;
	r->rcwnd = (RL_INITIAL_PACKETS * r->mss) << 32;
	r->phase = RL_SLOW_START;
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

/* In avoidance at queuing delay `qd`: whether one RTT of empty queue has passed (the
 * restart is then due; ledbat-core's SlowStart::restart_due). */
LB_INLINE int rl_restart_due(struct rl *r, const volatile struct rl_cfg *cfg, __u64 now,
			     __u64 qd)
{
	if (!cfg->empty_queue_restart || qd > rl_eta(r) || r->rcwnd >= r->largest / 2) {
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
	r->phase = RL_AVOIDANCE;
	r->has_slowdown_at = cfg->slowdowns != 0;
	if (r->has_slowdown_at)
		r->slowdown_at = r->last_slowdown == 0 ? now + 2 * rl_round(r)
						       : now + 9 * r->last_slowdown;
}

/* The avoidance step for a segment of `bytes` at queuing delay `qd`, applied to rcwnd. */
LB_INLINE void rl_avoidance_step(struct rl *r, const volatile struct rl_cfg *cfg, __u64 qd,
				 __u64 bytes)
{
	__u64 inc = (r->mss << 32) / rl_gain_divisor(r, cfg); /* GAIN packets, Q32 bytes */
	__u64 t = cfg->target_ns ? cfg->target_ns : 1;
	__u64 b32 = bytes << 32;

	if (qd <= t) {
		r->rcwnd += lb_muldiv(inc, b32, r->rcwnd);
		return;
	}
	{
		__u64 excess = qd - t < t ? qd - t : t;
		__u64 dec = lb_muldiv(r->rcwnd, excess, t);
		__u64 half = r->rcwnd / 2;

		if (dec <= inc) {
			r->rcwnd += lb_muldiv(inc - dec, b32, r->rcwnd);
		} else {
			__u64 neg = dec - inc;

			if (neg > half)
				neg = half;
			r->rcwnd = lb_sat_sub(r->rcwnd, lb_muldiv(neg, b32, r->rcwnd));
		}
	}
}

/*
 * A segment of `bytes` payload bytes received at `now` (ns): `sample_us` is the delay
 * signal's sample (microseconds, wrapping: its offset cancels in the base), `rtt_ns` an RTT
 * sample or 0. `bytes` must be below 2^32 (the glue caps it).
 */
LB_INLINE void rl_on_data(struct rl *r, const volatile struct rl_cfg *cfg, lb_params_t *dp,
			  __u64 now, __u64 bytes, __u32 sample_us, __u64 rtt_ns)
{
	__u64 qd;

	lb_delay_sample(&r->delay, dp, now, sample_us);
	if (rtt_ns > 0 && rtt_ns < RL_MAX_RTT_NS) {
		r->rtt_ns = rtt_ns;
		r->base_rtt_ns = r->has_rtt && r->base_rtt_ns < rtt_ns ? r->base_rtt_ns : rtt_ns;
		r->has_rtt = 1;
	}
	if (!lb_queuing_delay(&r->delay, dp, &qd))
		return;
	if (r->phase != RL_AVOIDANCE)
		r->has_empty_since = 0;
	if (r->phase == RL_SLOW_START) {
		if (qd * 4 > cfg->target_ns * 3 ||
		    (r->has_limit && lb_reached(r->rcwnd, r->ss_limit << 32)))
			rl_enter_avoidance(r, cfg, now);
		else
			r->rcwnd += (bytes << 32) / rl_gain_divisor(r, cfg);
	} else if (r->phase == RL_AVOIDANCE) {
		if (r->has_slowdown_at && now >= r->slowdown_at) {
			r->phase = RL_SLOWDOWN;
			r->sd_started = now;
			r->sd_until = now + 2 * rl_round(r);
			r->sd_resume = rl_window(r);
			r->rcwnd = rl_min_window(r);
			r->slowdowns++;
			r->has_empty_since = 0;
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
		if (r->rcwnd > r->largest)
			r->largest = r->rcwnd;
	} else if (r->phase == RL_RESTART) {
		if (qd * 4 > cfg->target_ns * 3)
			r->phase = RL_AVOIDANCE;
		else
			r->rcwnd += (bytes << 32) / rl_gain_divisor(r, cfg);
	} else {
		if (now >= r->sd_until) {
			r->phase = RL_SLOW_START;
			r->has_limit = 1;
			r->ss_limit = r->sd_resume;
		}
	}
	if (r->rcwnd < rl_min_window(r))
		r->rcwnd = rl_min_window(r);
}

/* A segment was lost on the way to us (a gap opened): halve, once per RTT. */
LB_INLINE void rl_on_loss(struct rl *r, const volatile struct rl_cfg *cfg, __u64 now)
{
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
 * smallest clamp, and two segments), at most cfg->max_window when set.
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
