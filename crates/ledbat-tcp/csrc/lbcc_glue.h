/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Decisions of the BPF glue (bpf/ledbat.bpf.c) stated on plain values, so that the replay
 * tool runs them (csrc/replay.c: `kss`) and tests/differential/glue.rs checks them against
 * values computed by hand. The glue only reads the tcp_sock into these and writes back.
 *
 * The kernel's slow-start threshold (lb_glue_ssthresh). The controller keeps its own
 * phases; the kernel reads tcp_sock.snd_ssthresh to tell slow start from avoidance
 * (tcp_in_slow_start: snd_cwnd < snd_ssthresh): the pacing rate is 200 % of cwnd/srtt
 * below ssthresh / 2 and 120 % above (tcp_update_pacing_rate), and tcp_is_cwnd_limited,
 * tcp_cwnd_restart and tcp_end_cwnd_reduction read it. Left at TCP_INFINITE_SSTHRESH it
 * says "slow start" for ever. So when the controller's phase changes (lb_phase), outside
 * the kernel's own reductions (CWR, Recovery, Loss: there snd_ssthresh is the target the
 * kernel's PRR works towards, which the glue's ssthresh callback returned):
 *
 *   into avoidance, TCP-LP's inference or yielding   snd_ssthresh = snd_cwnd (at least 2):
 *                  out of slow start, as Vegas and bpf_cubic's HyStart exit write it
 *   into a LEDBAT++ slowdown (hold, ramp)            snd_ssthresh = the ramp's goal in
 *                  packets (the window before the slowdown, at least 2): the ramp is a
 *                  slow start back to it, as the kernel's view then says
 *   into a slow start                                nothing: the kernel keeps its value
 *                  (TCP_INFINITE_SSTHRESH before any reduction, else the last congestion
 *                  event's, a slow start up to it as the kernel's own after a loss)
 *
 * A connection starts in the kernel's view of slow start (the glue passes phase 0 as the
 * one before init), so the RFC family, which starts in avoidance unless slow_start is on,
 * writes snd_ssthresh = snd_cwnd at init.
 */
#ifndef LBCC_GLUE_H
#define LBCC_GLUE_H

#include "lbcc.h"

/* lb_phase's codes, as the kernel's slow start / not */
#define LB_PHASE_SLOW_START 0
#define LB_PHASE_HOLD 2
#define LB_PHASE_RAMP 3

/* The snd_ssthresh to write, in packets, when the phase went from `prev` to `phase` with
 * snd_cwnd = `cwnd_pkts`; 0: none to write. */
LB_INLINE __u32 lb_glue_ssthresh(const struct lb_cc *c, lb_params_t *p, __u32 prev,
				 __u32 phase, __u32 cwnd_pkts)
{
	__u64 v = cwnd_pkts;

	if (phase == prev || phase == LB_PHASE_SLOW_START)
		return 0;
	if (p->algo == LB_ALGO_LEDBAT_PP && (phase == LB_PHASE_HOLD || phase == LB_PHASE_RAMP)) {
		if (!c->sd.has_ssthresh)
			return 0;
		v = (c->sd.ssthresh >> 32) / (c->mss ? c->mss : 1);
	}
	if (v < 2)
		v = 2;
	if (v > 0x7fffffffULL) /* TCP_INFINITE_SSTHRESH */
		v = 0x7fffffffULL;
	return (__u32)v;
}

/* The window in packets for snd_cwnd: floor(window / MSS), 1 to `clamp` (snd_cwnd_clamp;
 * 0: none). */
LB_INLINE __u32 lb_glue_cwnd_pkts(const struct lb_cc *c, lb_params_t *p, __u32 clamp)
{
	__u64 pkts = lb_window(c, p) / (c->mss ? c->mss : 1);

	if (pkts < 1)
		pkts = 1;
	if (clamp && pkts > clamp)
		pkts = clamp;
	return (__u32)pkts;
}

/* What the glue writes to snd_cwnd: lb_glue_cwnd_pkts, or one while LEDBAT++ is paused. */
LB_INLINE __u32 lb_glue_cwnd_target(const struct lb_cc *c, lb_params_t *p, __u64 now,
				    __u32 clamp)
{
	if (p->algo == LB_ALGO_LEDBAT_PP && lb_pp_paused(c, now))
		return 1;
	return lb_glue_cwnd_pkts(c, p, clamp);
}

#endif
