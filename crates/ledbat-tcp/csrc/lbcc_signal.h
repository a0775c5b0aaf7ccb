/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Which delay sample an ACK gives the RFC family and TCP-LP (LEDBAT++ takes the RTT and does
 * not come here), and when the signal changes source or scale. The glue reads the inputs from
 * tcp_sock; the replay tool's `sigack` drives the same function, so the choice is tested.
 *
 *   signal=rtt                       the RTT of the newest packet acknowledged (Karn's rule)
 *   signal=owd, no timestamps        the RTT (the connection never had one-way samples)
 *   signal=owd, timestamps           the one-way sample of lbcc_owd.h, only from an ACK that
 *                                    advances snd_una (a duplicate or SACK-only ACK echoes
 *                                    the TSval of the segment before the hole, up to an RTT
 *                                    old); once the peer's clock is found unusable, the RTT
 *
 * Two changes put the samples that follow on another scale than those before:
 * - the fallback from one-way delays to RTTs: the one-way line carries both stacks' random
 *   timestamp offsets, so the first RTT sample would land anywhere in +-2^31 us of it; in
 *   half the cases far above the base, which then reads as seconds to minutes of queue and
 *   holds the window at its minimum until the whole base history has aged out (10 min);
 * - a peer clock rate learnt other than the one assumed for the first second.
 * Either one returns LB_SIG_CHANGED, and the caller makes the controller forget the old
 * samples (lb_on_delay_source_change) before it gives it the new one; the kernel's trace
 * records it, so that `ledbat tcp check` replays the same reset.
 */
#ifndef LBCC_SIGNAL_H
#define LBCC_SIGNAL_H

#include "lbcc_owd.h"
#include "lbcc_params.h"

/* What one ACK offers. */
struct lb_sig_in {
	__u32 tsval;             /* the peer's TSval (rx_opt.rcv_tsval) */
	__u32 tsecr;             /* our TSval echoed (rx_opt.rcv_tsecr) */
	__u32 ours;              /* our timestamp clock, microseconds per tick (1000, or 1) */
	__s32 rtt_us;            /* the RTT sample, <= 0 when none */
	__u8 tstamp_ok;          /* timestamps negotiated */
	__u8 saw_tstamp;         /* this ACK carries one */
	__u8 una_advanced;       /* this ACK advances snd_una */
	__u8 _pad[5];
};

struct lb_sig {
	struct lb_owd owd;
	__u8 owd_unusable;       /* the peer's clock matched no rate: RTT samples from then on */
	__u8 no_timestamps;      /* signal=owd on a connection without timestamps */
	__u8 _pad[6];
};

enum lb_sig_result {
	LB_SIG_SAMPLE = 1,       /* *sample holds this ACK's delay sample, microseconds */
	LB_SIG_CHANGED = 2,      /* the samples from this one on are on another scale */
	LB_SIG_RESCALED = 4,     /* ... because the peer's clock rate was learnt (else: RTTs) */
};

LB_INLINE int lb_signal_of_ack(struct lb_sig *s, lb_params_t *p, __u64 now,
			       const struct lb_sig_in *in, __u32 *sample)
{
	int r = 0;

	if (p->signal == LB_SIGNAL_OWD && !s->owd_unusable) {
		int rescaled = 0;

		if (!in->tstamp_ok) {
			s->no_timestamps = 1;
		} else {
			if (!in->una_advanced || !in->saw_tstamp)
				return 0;
			if (lb_owd_sample(&s->owd, now, in->tsval, in->tsecr, in->ours, sample,
					  &rescaled))
				return LB_SIG_SAMPLE |
				       (rescaled ? LB_SIG_CHANGED | LB_SIG_RESCALED : 0);
			if (s->owd.state != LB_OWD_UNUSABLE)
				return 0;
			/* learning has just failed: every sample so far was one-way (learning
			 * gives one from the first ACK on); the RTT takes over from this ACK */
			s->owd_unusable = 1;
			r = LB_SIG_CHANGED;
		}
	}
	if (in->rtt_us > 0) {
		*sample = (__u32)in->rtt_us;
		r |= LB_SIG_SAMPLE;
	}
	return r;
}

#endif
