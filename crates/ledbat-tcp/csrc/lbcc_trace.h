/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The kernel build's event trace (`ledbat tcp trace`): while a reader has it switched on,
 * the glue writes every event it gives the controller, with the window that resulted, to a
 * ring buffer. Replaying a connection's events through ledbat-core (`ledbat tcp check`)
 * checks the arithmetic the kernel actually ran, JIT and all, against the core: the
 * differential test on real traffic. The Rust side (`ledbat_tcp::trace`) reads the same
 * words in the same order.
 */
#ifndef LBCC_TRACE_H
#define LBCC_TRACE_H

#include "lbcc_types.h"

enum lb_trace_kind {
	LB_EV_INIT = 1,          /* a = mss */
	LB_EV_ACK = 2,           /* a bytes, b flight, c newest_sent, d rtt_ns, e delay_us,
				  * f packets; flags 1 has_rtt, 2 has_delay */
	LB_EV_LOSS = 3,          /* a sent_at, b in_flight */
	LB_EV_TIMEOUT = 4,       /* flags 1 rto, 2 idle */
	LB_EV_SENT = 5,          /* a in_flight */
	LB_EV_UNDO = 6,          /* the kernel undid a reduction; the window was restored */
	LB_EV_SOURCE = 7,        /* the delay samples changed source or scale and the old ones
				  * were forgotten (lb_on_delay_source_change); flags 1 one-way
				  * delays gave way to RTTs, 2 the peer's clock rate was learnt */
};

struct lb_trace_event {
	__u64 now_ns;
	__u64 cwnd_q32;          /* the controller's window after the event */
	__u64 seq;               /* per connection, from 0 at init: a gap is a lost event */
	__u64 a, b, c, d, e, f;
	__u32 kind;
	__u32 flags;
	__u16 lport;
	__u16 rport;
	__u32 _pad;
};

#define LB_TRACE_EVENT_SIZE 88
#define LB_TRACE_RING_BYTES (1 << 22)

#if defined(__bpf__) || defined(__STDC_VERSION__)
_Static_assert(sizeof(struct lb_trace_event) == LB_TRACE_EVENT_SIZE, "lb_trace_event layout");
/* where ledbat_tcp::trace::Record::decode reads each field (literals there) */
#define LB_AT(f, off) _Static_assert(__builtin_offsetof(struct lb_trace_event, f) == (off), #f)
LB_AT(now_ns, 0);
LB_AT(cwnd_q32, 8);
LB_AT(seq, 16);
LB_AT(a, 24);
LB_AT(f, 64);
LB_AT(kind, 72);
LB_AT(flags, 76);
LB_AT(lport, 80);
LB_AT(rport, 82);
#undef LB_AT
#endif

#endif
