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
 *
 * The kernel's undo of a reduction it found spurious (lb_glue_undo) puts back its own
 * snd_ssthresh after undo_cwnd returns (tcp_undo_cwnd_reduction: prior_ssthresh where it
 * is the larger, which is the larger of snd_ssthresh and 3/4 snd_cwnd before the
 * reduction): TCP_INFINITE_SSTHRESH again when that reduction ended the controller's slow
 * start, and a DSACK can undo it after Recovery ended and the glue already wrote the
 * avoidance phase. The controller's undo does not
 * start slow start again (lb_undo), so the glue takes the phase before the undo as slow
 * start, the kernel's possible view: the next decision outside the kernel's reductions
 * writes the controller's phase again (snd_cwnd in avoidance, the ramp's goal in a
 * slowdown), and nothing when the controller is in slow start itself.
 *
 * The flightsize of an ACK (lb_glue_flightsize; RFC 6817's cap on the window is
 * allowed_increase x flightsize, departed from on purpose): what was outstanding before it
 * (in flight now plus the packets it delivered), at least the window when the kernel saw
 * the sender limited by it in this round (tcp_sock.is_cwnd_limited), else at least the
 * round's most (max_packets_out, RFC 7661's measure of the window in use); and the most of
 * these over the last smoothed RTT, but at least 10 ms: a larger or equal flight is held
 * from its ACK, a smaller one replaces it only once the held one is older than that span.
 * At a round trip of microseconds (loopback, a LAN) rounds last less than the application
 * takes to be woken up, the flight an ACK finds is whatever the application last wrote,
 * and the kernel sizes the send buffer from the window: capping the window at that flight
 * made the two shrink each other (on a veth pair: docs/tcp/measured.md, "Cost"). Where the
 * round trip exceeds 10 ms this is the round's flight, as the RFC has it; an application
 * that stops writing still takes the window down with it within 10 ms.
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

/* The kernel's undo (the glue's undo_cwnd): the controller takes back the congestion event
 * `u` saved (lb_undo), and `kphase`, the phase lb_glue_ssthresh is next asked to compare
 * with, becomes slow start, so that the phase is written again over the snd_ssthresh the
 * kernel puts back (above). */
LB_INLINE void lb_glue_undo(struct lb_cc *c, lb_params_t *p, struct lb_undo *u, __u32 *kphase)
{
	lb_undo(c, p, u);
	*kphase = LB_PHASE_SLOW_START;
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

/* Whether LEDBAT++ measures the queue through a window of about one packet: yielding to a
 * competitor outside a probe (the detection's one packet, paced at yield_share of the
 * path's rate), or holding a slowdown (`slowdown_hold_packets`, 1 in the scavenger preset).
 * The glue then sends the window as a pair of segments (lb_glue_cwnd_target, and a TSO
 * burst of two from min_tso_segs); while yielding the pair is paced at the same rate, so a
 * pair leaves every two packets' time.
 *
 * Why: a TCP receiver delays the ACK of a lone segment (Linux: its delayed-ACK timer, at
 * least TCP_DELACK_MIN = 40 ms; others up to 200 ms) and acknowledges at once only the
 * second full segment. With one packet in flight every RTT sample carries that delay as
 * queuing delay. Beside a competitor the lone packets of the yield then read more queue
 * than a probe's packets, acknowledged in pairs: a probe's queue at its start (the last
 * of the yield's samples) looked high, the probe's aftermath fell below it by about the
 * delayed-ACK time, and two such probes in a row read as a flow of our kind that backs
 * off, so the flow resumed into the competitor again and again. The first slowdown of a
 * flow alone (a hold of one packet) read the delayed-ACK time as queue on an empty path:
 * a positive hold test from nothing (the figures of the bed, beside kernel bbr:
 * docs/tcp/measured.md, "The yield's delayed ACKs and departure stamps"). The uTP
 * receiver and the simulator acknowledge every packet; a pair is the TCP way to the same
 * samples (a pair left in the queue is below a hold test's `test_packets`, 3). The
 * controller's own window (the core's, what the trace records and the differential test
 * compares) is unchanged. */
LB_INLINE int lb_glue_pair(const struct lb_cc *c, lb_params_t *p)
{
	if (p->algo != LB_ALGO_LEDBAT_PP)
		return 0;
	if (p->comp.enabled && c->comp.yielding)
		return !lb_comp_probing(&c->comp, c->now_ns);
	return c->sd.phase == LB_SD_HOLD;
}

/* The segments sent at once where lb_glue_pair holds. */
#define LB_PAIR_SEGS 2

/* What the glue writes to snd_cwnd: lb_glue_cwnd_pkts, one while LEDBAT++ is paused, and at
 * least a pair where lb_glue_pair holds. */
LB_INLINE __u32 lb_glue_cwnd_target(const struct lb_cc *c, lb_params_t *p, __u64 now,
				    __u32 clamp)
{
	__u32 pkts;

	if (p->algo == LB_ALGO_LEDBAT_PP && lb_pp_paused(c, now))
		return 1;
	pkts = lb_glue_cwnd_pkts(c, p, clamp);
	if (lb_glue_pair(c, p) && pkts < LB_PAIR_SEGS &&
	    (!clamp || clamp >= LB_PAIR_SEGS))
		pkts = LB_PAIR_SEGS;
	return pkts;
}

/* The shortest span a flight is held for (scheduling noise of a busy host). */
#define LB_FLIGHT_SPAN_MIN_NS (10ULL * LB_NS_PER_MS)

/* The tcp_sock values the flightsize is made of. */
struct lb_flight_in {
	__u32 in_flight;       /* packets_out - (sacked_out + lost_out) + retrans_out */
	__u32 delivered;       /* packets this ACK delivered */
	__u32 max_packets_out; /* the most outstanding in the last round */
	__u32 snd_cwnd;
	__u32 srtt_us8;        /* tcp_sock.srtt_us: microseconds << 3 */
	__u8 cwnd_limited;     /* tcp_sock.is_cwnd_limited */
};

/* The flightsize in packets at `now`; `peak`/`peak_ns` hold the flight and its time
 * between ACKs (zero before the first). */
LB_INLINE __u32 lb_glue_flightsize(__u32 *peak, __u64 *peak_ns, const struct lb_flight_in *in,
				   __u64 now)
{
	__u32 f = in->in_flight + in->delivered;
	__u32 used = in->max_packets_out;
	__u64 span = (__u64)in->srtt_us8 / 8 * LB_NS_PER_US;

	if (in->cwnd_limited && in->snd_cwnd > used)
		used = in->snd_cwnd;
	if (used > f)
		f = used;
	if (span < LB_FLIGHT_SPAN_MIN_NS)
		span = LB_FLIGHT_SPAN_MIN_NS;
	if (f >= *peak || lb_since(now, *peak_ns) > span) {
		*peak = f;
		*peak_ns = now;
	}
	return *peak;
}

#endif
