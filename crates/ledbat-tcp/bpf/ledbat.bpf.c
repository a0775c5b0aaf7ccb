// SPDX-License-Identifier: MIT OR Apache-2.0 OR GPL-2.0-only
/*
 * The kernel side of `ledbat tcp`: a TCP congestion control (`struct tcp_congestion_ops`,
 * registered through BPF struct_ops) whose window is computed by the controller arithmetic
 * of csrc/lbcc.h, the same code the differential test checks against ledbat-core. This file
 * only translates the kernel's callbacks into the controller's events:
 *
 *   pkts_acked   every ACK: packets newly delivered (tcp_sock.delivered, cumulative and
 *                selective, counted in our MSS), the RTT of the
 *                newest packet acknowledged (for retransmitted data the kernel's TSecr
 *                RTT when timestamps are on, 1 ms granularity; else none), the
 *                delay sample of the configured signal, the flight before the ACK
 *                -> lb_on_ack; the window is written to snd_cwnd unless the kernel is
 *                reducing it itself (CWR, Recovery: PRR towards our ssthresh); when
 *                the controller's phase changed, snd_ssthresh too (lb_write_ssthresh)
 *   cong_avoid   writes the window again (the kernel calls it when it may raise cwnd)
 *   ssthresh     a congestion event (entering Recovery, an RTO, or CWR: an ECN echo or
 *                local congestion) -> lb_on_loss; returns the reduced window, which PRR
 *                reaches and recovery ends at
 *   cwnd_event   CA_EVENT_LOSS (RTO) -> lb_on_timeout(rto); CA_EVENT_CWND_RESTART (data
 *                after idle; the kernel then sets snd_cwnd itself, RFC 2861's restart
 *                window, until the next ACK, and `now` is the last ACK's time: no
 *                tcp_mstamp refresh on that path) -> lb_on_timeout(idle);
 *                CA_EVENT_TX_START -> lb_on_sent
 *   set_state    entering Loss without CA_EVENT_LOSS (an RTO during Recovery, which the
 *                kernel does not announce otherwise) -> lb_on_timeout(rto)
 *   undo_cwnd    the kernel found the reduction spurious (F-RTO, DSACK, Eifel): lb_undo
 *                takes back what the last congestion event changed (the window, Linux's
 *                max(cwnd, prior_cwnd); the once-per-RTT marker) and the window is returned
 *   min_tso_segs before packets leave (tcp_tso_segs): the competitor detection's pacing
 *                rate written again over the kernel's (lb_pace); returns the sysctl
 *   release      the statistics entry and the socket storage deleted
 *
 * What the kernel cannot do as the core's drivers do, and what is done instead:
 * - no timers for a congestion control: LEDBAT++'s slowdown deadlines fire at the first ACK
 *   (or transmission start) after them, at most an ACK interval late;
 * - the window cannot be zero: a joined slowdown that the core would spend paused (the
 *   scavenger's `slowdown_join_pause`) holds one packet;
 * - the kernel does not say which packet was lost: its send time is taken as one smoothed
 *   RTT before the loss was detected (for the once-per-RTT rule);
 * - snd_cwnd is in packets: floor(window / MSS), at least 1 (2 where LEDBAT++ sends a window of
 *   one packet as a pair, csrc/lbcc_glue.h lb_glue_pair), the MSS fixed at init.
 *
 * Per-connection state (struct lb_conn, about 2.4 KB with the competitor detection's) lives
 * in socket storage: it does not fit the 104 bytes of icsk_ca_priv. It is created in init
 * and deleted in release (the socket closing, or switching to another controller). A
 * connection init could not create it for (counted in lb_no_state) runs Linux's reno on the
 * tcp_sock's own fields instead (csrc/lbcc_reno.h): cong_avoid grows the window, ssthresh
 * halves it, undo_cwnd returns max(cwnd, prior_cwnd), the other callbacks do nothing.
 * Parameters are read-only data the loader writes before loading (csrc/lbcc_params.h).
 */
#include "kernel.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

#include "../csrc/lbcc.h"
#include "../csrc/lbcc_glue.h"
#include "../csrc/lbcc_reno.h"
#include "../csrc/lbcc_signal.h"
#include "../csrc/lbcc_stats.h"
#include "../csrc/lbcc_trace.h"

char _license[] SEC("license") = "Dual MIT/GPL";

/* Written by the loader before load: the parameter words (ledbat_tcp::params::LbParams)
 * and, for `ledbat tcp list`, the configuration they were made from as JSON. */
struct lb_ro {
	struct lb_params params;
	char desc[LB_DESC_LEN];
};

const volatile struct lb_ro lb_ro SEC(".rodata.lbparams") = {};
#define lb_params (lb_ro.params)

struct lb_conn {
	struct lb_cc cc;
	__u64 trace_seq;         /* events traced (or dropped) since init */
	/* the statistics key, taken while the connection has its ports (at release the local
	 * port may already be given back) */
	struct lb_flow_key key;
	struct lb_sig sig;       /* the delay signal's source (csrc/lbcc_signal.h) */
	struct lb_undo undo;     /* the controller before the last congestion event */
	__u64 last_stats_ns;
	__u32 reduction_snd_nxt; /* snd_nxt at the last loss or timeout */
	__u32 _pad0;
	__u64 losses, timeouts, undos;
	__u32 ca_state;
	__u32 loss_event;        /* CA_EVENT_LOSS came and the Loss state is yet to be set */
	__u32 delivered;         /* tcp_sock.delivered at the last ACK */
	__u32 last_una;          /* tcp_sock.snd_una at the last ACK */
	__u32 flight_peak;       /* the most outstanding lately (lb_flightsize), packets */
	__u64 flight_peak_ns;
	/* LEDBAT++'s competitor detection: bytes delivered so far (its rate samples), and the
	 * pacing status to restore once it stops pacing (lb_pace) */
	__u64 delivered_bytes;
	__u64 max_pacing_rate;   /* sk_max_pacing_rate found when pacing started */
	__u64 cap_written;       /* the SO_MAX_PACING_RATE written while pacing (0: none) */
	__u32 pacing_status;
	__u32 pacing_on;
	__u32 kphase;            /* lb_phase when snd_ssthresh was last decided (lb_write_ssthresh) */
	__u32 _pad1;
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lb_conn);
} lb_conns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, LB_STATS_MAX_FLOWS);
	__type(key, struct lb_flow_key);
	__type(value, struct lb_flow_stats);
} lb_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LB_TRACE_RING_BYTES);
} lb_trace SEC(".maps");

/* Connections the controller could not take on: socket storage allocation failed in init
 * (GFP_ATOMIC for passive opens). Such a connection runs as Linux's reno on the tcp_sock's
 * own fields (csrc/lbcc_reno.h, called where a callback finds no state), not the
 * controller; `ledbat tcp list` and `stats` show the count. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lb_no_state SEC(".maps");

/* Set by `ledbat tcp trace` while it reads the ring buffer (the object's .bss map). */
volatile __u32 lb_trace_on = 0;

static const struct lb_flow_stats lb_zero_stats;

static __always_inline struct tcp_sock *tcp_sk(struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline __u64 lb_now(struct tcp_sock *tp)
{
	return tp->tcp_mstamp * LB_NS_PER_US;
}

static __always_inline __u32 lb_in_flight_pkts(struct tcp_sock *tp)
{
	__u32 left = tp->sacked_out + tp->lost_out;
	__u32 out = tp->packets_out;

	return (out > left ? out - left : 0) + tp->retrans_out;
}

/* Whether the kernel found the sender limited by its window (tcp_sock.is_cwnd_limited; not
 * limited on a kernel without the field). The flightsize and the reno fallback read it. */
static __always_inline int lb_cwnd_limited(struct tcp_sock *tp)
{
	return bpf_core_field_exists(tp->is_cwnd_limited) &&
	       BPF_CORE_READ_BITFIELD(tp, is_cwnd_limited);
}

/* RFC 6817's flightsize for an ACK of `delivered` packets, in packets: decided by
 * csrc/lbcc_glue.h (lb_glue_flightsize, which says why it departs from the RFC) on the
 * tcp_sock's values. */
static __always_inline __u32 lb_flightsize(struct tcp_sock *tp, struct lb_conn *c,
					   __u32 delivered, __u64 now)
{
	struct lb_flight_in in = {};

	in.in_flight = lb_in_flight_pkts(tp);
	in.delivered = delivered;
	in.max_packets_out = tp->max_packets_out;
	in.snd_cwnd = tp->snd_cwnd;
	in.srtt_us8 = tp->srtt_us;
	in.cwnd_limited = lb_cwnd_limited(tp);
	return lb_glue_flightsize(&c->flight_peak, &c->flight_peak_ns, &in, now);
}

static __always_inline __u32 lb_mss(struct lb_conn *c)
{
	return c->cc.mss ? (__u32)c->cc.mss : 1;
}

/* The window in packets for snd_cwnd (csrc/lbcc_glue.h). */
static __always_inline __u32 lb_cwnd_pkts(struct tcp_sock *tp, struct lb_conn *c)
{
	return lb_glue_cwnd_pkts(&c->cc, &lb_params, tp->snd_cwnd_clamp);
}

/* What snd_cwnd should be: the window in packets, or one while LEDBAT++ is paused. */
static __always_inline __u32 lb_cwnd_target(struct tcp_sock *tp, struct lb_conn *c, __u64 now)
{
	return lb_glue_cwnd_target(&c->cc, &lb_params, now, tp->snd_cwnd_clamp);
}

static __always_inline void lb_write_cwnd(struct tcp_sock *tp, struct lb_conn *c, __u64 now)
{
	tp->snd_cwnd = lb_cwnd_target(tp, c, now);
}

/* snd_ssthresh when the controller's phase changed (csrc/lbcc_glue.h, lb_glue_ssthresh),
 * after snd_cwnd was written; not in CWR, Recovery or Loss, where it is the kernel's
 * target (the phase change is then written once the kernel is back in Open or Disorder). */
static __always_inline void lb_write_ssthresh(struct tcp_sock *tp, struct lb_conn *c)
{
	__u32 phase, v;

	if (c->ca_state >= TCP_CA_CWR)
		return;
	phase = lb_phase(&c->cc, &lb_params);
	v = lb_glue_ssthresh(&c->cc, &lb_params, c->kphase, phase, tp->snd_cwnd);
	if (v)
		tp->snd_ssthresh = v;
	c->kphase = phase;
}

/*
 * LEDBAT++ yielding to a competitor paces (`Controller::pacing_rate`; only with competitor
 * detection on, nothing otherwise): the kernel's own pacing is turned on (SK_PACING_NEEDED,
 * unless fq already paces) and sk_pacing_rate set; when it stops, the status it found is
 * put back. The kernel recomputes sk_pacing_rate from the window after every ACK
 * (tcp_update_pacing_rate, after cong_avoid), so the rate is written again at the last
 * points the controller runs before a packet leaves: min_tso_segs (ledbat_min_tso_segs)
 * and CA_EVENT_TX_START, and before an RTO's retransmission (CA_EVENT_LOSS, and entering
 * Loss in ledbat_set_state). Every packet of the yield (its pair) and of a probe then
 * leaves at the controller's rate.
 *
 * A tail loss probe that resends the last segment passes none of these (tcp_send_loss_probe
 * -> __tcp_retransmit_skb calls no hook of a congestion control), nor does the kernel's
 * recomputation after an ACK that has nothing new to send: there the rate last written is
 * the kernel's. So the rate is also the socket's SO_MAX_PACING_RATE while pacing (set with
 * bpf_setsockopt, only when it changes), which tcp_update_pacing_rate caps its own by:
 * whatever the kernel writes is then at most the controller's rate. The cap found when
 * pacing started is put back when it stops (an application's cap above 2^32 - 2 bytes/s,
 * which setsockopt's int cannot carry, comes back as none).
 */
static __always_inline void lb_cap_pacing(struct sock *sk, struct lb_conn *c, __u64 cap)
{
	int v;

	if (cap == c->cap_written)
		return;
	v = cap >= 0xffffffffULL ? -1 : (int)(__u32)cap;
	if (bpf_setsockopt(sk, LB_SOL_SOCKET, LB_SO_MAX_PACING_RATE, &v, sizeof(v)) == 0)
		c->cap_written = cap;
}

/* Whether this controller can pace at all (lb_pacing_rate is false otherwise): read from
 * the read-only parameters, so that the verifier drops the pacing code of the others
 * (ledbat_min_tso_segs looks the socket's storage up for LEDBAT++ only). */
static __always_inline int lb_may_pace(void)
{
	return lb_params.algo == LB_ALGO_LEDBAT_PP && lb_params.comp.enabled;
}

static __always_inline void lb_pace(struct sock *sk, struct lb_conn *c)
{
	__u64 rate;

	if (!lb_may_pace())
		return;
	if (lb_pacing_rate(&c->cc, &lb_params, &rate)) {
		if (!c->pacing_on) {
			c->pacing_on = 1;
			c->pacing_status = sk->sk_pacing_status;
			c->max_pacing_rate = sk->sk_max_pacing_rate;
			c->cap_written = c->max_pacing_rate;
		}
		if (rate > 0xfffffffeULL)
			rate = 0xfffffffeULL;
		lb_cap_pacing(sk, c, rate);
		if (sk->sk_pacing_status == SK_PACING_NONE)
			sk->sk_pacing_status = SK_PACING_NEEDED;
		sk->sk_pacing_rate = rate;
	} else if (c->pacing_on) {
		lb_cap_pacing(sk, c, c->max_pacing_rate);
		/* The kernel stamps each packet with its departure time (tcp_sock.tcp_wstamp_ns,
		 * advanced by the packet's length at the pacing rate) and sends it then; a packet
		 * sent with pacing off leaves at once but keeps the stamp, and its ACK's RTT is
		 * short by the difference. After yielding at yield_share of the path's rate the
		 * next departure is up to one pair's time away: the first packets of the
		 * resume's slow start read an RTT below the path's, the base delay (kept for
		 * base_history minutes) came out too low by the difference, every queue looked
		 * that much longer, and the hold tests of a flow alone came out positive (the
		 * figures of the bed: docs/tcp/measured.md, "The yield's delayed ACKs and
		 * departure stamps"). So the kernel's pacing (at its own rate, the cap put back)
		 * stays on until that time has passed: the first packet waits for it. */
		if (tcp_sk(sk)->tcp_wstamp_ns > bpf_ktime_get_ns())
			return;
		c->pacing_on = 0;
		sk->sk_pacing_status = c->pacing_status;
	}
}

static __always_inline void lb_flow_key(struct sock *sk, struct lb_flow_key *k)
{
	__builtin_memset(k, 0, sizeof(*k));
	k->family = sk->__sk_common.skc_family;
	k->lport = sk->__sk_common.skc_num;
	k->rport = bpf_ntohs(sk->__sk_common.skc_dport);
	/* the IPv6 fields exist only in kernels built with IPv6 */
	if (k->family == AF_INET6 && bpf_core_field_exists(sk->__sk_common.skc_v6_daddr)) {
		k->laddr[0] = sk->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[0];
		k->laddr[1] = sk->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[1];
		k->laddr[2] = sk->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[2];
		k->laddr[3] = sk->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[3];
		k->raddr[0] = sk->__sk_common.skc_v6_daddr.in6_u.u6_addr32[0];
		k->raddr[1] = sk->__sk_common.skc_v6_daddr.in6_u.u6_addr32[1];
		k->raddr[2] = sk->__sk_common.skc_v6_daddr.in6_u.u6_addr32[2];
		k->raddr[3] = sk->__sk_common.skc_v6_daddr.in6_u.u6_addr32[3];
	} else {
		k->laddr[0] = sk->__sk_common.skc_rcv_saddr;
		k->raddr[0] = sk->__sk_common.skc_daddr;
	}
}

static __always_inline void lb_publish(struct sock *sk, struct tcp_sock *tp, struct lb_conn *c,
				       __u64 now, int force)
{
	struct lb_flow_stats *s;
	__u64 v;
	__u32 flags = 0;

	if (!force && c->last_stats_ns && lb_since(now, c->last_stats_ns) < LB_STATS_INTERVAL_NS)
		return;
	c->last_stats_ns = now ? now : 1;
	if (c->key.family == 0)
		lb_flow_key(sk, &c->key);
	s = bpf_map_lookup_elem(&lb_stats, &c->key);
	if (!s) {
		bpf_map_update_elem(&lb_stats, &c->key, &lb_zero_stats, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&lb_stats, &c->key);
		if (!s)
			return;
	}
	s->updated_ns = now;
	s->cwnd_bytes = lb_window(&c->cc, &lb_params);
	s->snd_cwnd = tp->snd_cwnd;
	s->mss = c->cc.mss;
	s->qd_ns = 0;
	if (lb_params.algo != LB_ALGO_TCP_LP && lb_queuing_delay(&c->cc.delay, &lb_params, &v)) {
		s->qd_ns = v;
		flags |= LB_FLOW_HAS_QD;
	}
	s->base_ns = 0;
	s->current_ns = 0;
	if (lb_params.algo != LB_ALGO_TCP_LP && lb_base_delay(&c->cc.delay, &v)) {
		s->base_ns = v;
		flags |= LB_FLOW_HAS_BASE;
		if (lb_current_delay(&c->cc.delay, &v))
			s->current_ns = v;
	}
	s->srtt_ns = c->cc.rtt.srtt_ns;
	s->slowdowns = c->cc.sd.count;
	s->delay_samples = c->cc.delay.samples;
	s->owd_us_per_tick = c->sig.owd.state == LB_OWD_KNOWN ? c->sig.owd.peer_us_per_tick : 0;
	s->losses = c->losses;
	s->timeouts = c->timeouts;
	s->undos = c->undos;
	s->phase = lb_phase(&c->cc, &lb_params);
	if (c->sig.owd_unusable)
		flags |= LB_FLOW_OWD_UNUSABLE;
	if (c->sig.no_timestamps)
		flags |= LB_FLOW_NO_TIMESTAMPS;
	if (lb_params.algo == LB_ALGO_LEDBAT_PP && lb_pp_paused(&c->cc, now))
		flags |= LB_FLOW_PAUSED;
	s->flags = flags;
}

/* Writes one traced event (when tracing is on); a full ring loses it, which the sequence
 * number shows. */
static __always_inline void lb_emit(struct sock *sk, struct lb_conn *c, __u32 kind,
				    __u32 flags, __u64 now, __u64 a, __u64 b, __u64 cc, __u64 d,
				    __u64 e, __u64 f)
{
	struct lb_trace_event *ev;
	__u64 seq;

	if (!lb_trace_on)
		return;
	seq = c->trace_seq++;
	ev = bpf_ringbuf_reserve(&lb_trace, sizeof(*ev), 0);
	if (!ev)
		return;
	ev->now_ns = now;
	ev->cwnd_q32 = c->cc.cwnd;
	ev->seq = seq;
	ev->a = a;
	ev->b = b;
	ev->c = cc;
	ev->d = d;
	ev->e = e;
	ev->f = f;
	ev->kind = kind;
	ev->flags = flags;
	ev->lport = sk->__sk_common.skc_num;
	ev->rport = bpf_ntohs(sk->__sk_common.skc_dport);
	ev->_pad = 0;
	bpf_ringbuf_submit(ev, 0);
}

/* The reno fallback of a connection without socket storage (csrc/lbcc_reno.h). */
static __always_inline void lb_fallback_cong_avoid(struct tcp_sock *tp, __u32 acked)
{
	struct lb_reno r = {};

	r.cwnd = tp->snd_cwnd;
	r.cnt = tp->snd_cwnd_cnt;
	r.ssthresh = tp->snd_ssthresh;
	r.clamp = tp->snd_cwnd_clamp;
	r.max_packets_out = tp->max_packets_out;
	r.cwnd_limited = lb_cwnd_limited(tp);
	lb_reno_cong_avoid(&r, acked);
	tp->snd_cwnd = r.cwnd;
	tp->snd_cwnd_cnt = r.cnt;
}

static __always_inline struct lb_conn *lb_conn(struct sock *sk)
{
	return bpf_sk_storage_get(&lb_conns, sk, 0, 0);
}

static __always_inline void lb_conn_clear(struct lb_conn *c)
{
	volatile __u64 *w = (volatile __u64 *)c; /* not turned into a memset */
	__u32 i;

	for (i = 0; i < sizeof(*c) / 8; i++)
		w[i] = 0;
}

SEC("struct_ops/ledbat_init")
void BPF_PROG(ledbat_init, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lb_conn *c = bpf_sk_storage_get(&lb_conns, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);

	if (!c) {
		__u32 zero = 0;
		__u64 *n = bpf_map_lookup_elem(&lb_no_state, &zero);

		if (n)
			__sync_fetch_and_add(n, 1);
		return;
	}
	/* The controller may be set again on a socket that already had it: cleared word by
	 * word (the state is beyond the BPF build's inline memset). */
	lb_conn_clear(c);
	lb_init(&c->cc, &lb_params, tp->mss_cache);
	c->delivered = tp->delivered;
	c->last_una = tp->snd_una;
	lb_emit(sk, c, LB_EV_INIT, 0, lb_now(tp), tp->mss_cache, 0, 0, 0, 0, 0);
	tp->snd_cwnd = lb_cwnd_pkts(tp, c);
	/* the kernel starts in slow start (TCP_INFINITE_SSTHRESH): phase 0 before init */
	c->kphase = LB_PHASE_SLOW_START;
	lb_write_ssthresh(tp, c);
	lb_publish(sk, tp, c, lb_now(tp), 1);
}

SEC("struct_ops/ledbat_release")
void BPF_PROG(ledbat_release, struct sock *sk)
{
	struct lb_conn *c = lb_conn(sk);

	if (!c)
		return;
	if (c->key.family)
		bpf_map_delete_elem(&lb_stats, &c->key);
	/* a socket switched to another controller while ours paces gets its pacing status
	 * back (not its SO_MAX_PACING_RATE: release may not call bpf_setsockopt) */
	if (c->pacing_on)
		sk->sk_pacing_status = c->pacing_status;
	bpf_sk_storage_delete(&lb_conns, sk);
}

/* The delay sample of this ACK for the RFC family and TCP-LP (LEDBAT++ takes the RTT), as
 * csrc/lbcc_signal.h chooses it. When the samples change source or scale (the fallback
 * from one-way delays to RTTs, a relearnt peer clock rate) the controller forgets the old
 * ones first, and the trace records it. */
static __always_inline int lb_delay_of_ack(struct sock *sk, struct tcp_sock *tp,
					   struct lb_conn *c, __u64 now, __s32 rtt_us,
					   int una_advanced, __u32 *sample)
{
	struct lb_sig_in in = {};
	int r;

	in.tstamp_ok = BPF_CORE_READ_BITFIELD(tp, rx_opt.tstamp_ok);
	in.saw_tstamp = BPF_CORE_READ_BITFIELD(tp, rx_opt.saw_tstamp);
	in.una_advanced = una_advanced;
	in.tsval = tp->rx_opt.rcv_tsval;
	in.tsecr = tp->rx_opt.rcv_tsecr;
	in.ours = 1000;
	if (bpf_core_field_exists(tp->tcp_usec_ts) && BPF_CORE_READ_BITFIELD(tp, tcp_usec_ts))
		in.ours = 1;
	in.rtt_us = rtt_us;
	r = lb_signal_of_ack(&c->sig, &lb_params, now, &in, sample);
	if (r & LB_SIG_CHANGED) {
		lb_on_delay_source_change(&c->cc, &lb_params);
		lb_emit(sk, c, LB_EV_SOURCE, (r & LB_SIG_RESCALED) ? 2 : 1, now, 0, 0, 0, 0, 0, 0);
	}
	return r & LB_SIG_SAMPLE;
}

SEC("struct_ops/ledbat_pkts_acked")
void BPF_PROG(ledbat_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lb_conn *c = lb_conn(sk);
	struct lb_ack a = {};
	__u64 now = lb_now(tp);
	__u32 mss, delivered;
	__s32 rtt_us;
	int una_advanced;

	if (!c)
		return;
	mss = lb_mss(c);
	una_advanced = (__s32)(tp->snd_una - c->last_una) > 0;
	c->last_una = tp->snd_una;
	rtt_us = sample->rtt_us;
	/* packets newly delivered (cumulatively or selectively acknowledged) by this ACK */
	delivered = tp->delivered - c->delivered;
	c->delivered = tp->delivered;
	a.bytes_acked = (__u64)delivered * mss;
	a.packets_acked = delivered;
	c->delivered_bytes += a.bytes_acked;
	a.delivered = c->delivered_bytes;
	a.app_limited = tp->app_limited != 0;
	a.flight_before = (__u64)lb_flightsize(tp, c, delivered, now) * mss;
	if (rtt_us > 0) {
		a.has_rtt = 1;
		a.rtt_ns = (__u64)rtt_us * LB_NS_PER_US;
		a.newest_sent_ns = lb_sat_sub(now, a.rtt_ns);
	} else {
		/* no RTT (retransmitted data): after the last reduction iff snd_una passed the
		 * snd_nxt of that reduction */
		a.newest_sent_ns = (__s32)(tp->snd_una - c->reduction_snd_nxt) > 0 ? now : 0;
	}
	if (lb_params.algo != LB_ALGO_LEDBAT_PP)
		a.has_delay =
			(__u8)lb_delay_of_ack(sk, tp, c, now, rtt_us, una_advanced, &a.delay_us);
	lb_on_ack(&c->cc, &lb_params, now, &a);
	lb_emit(sk, c, LB_EV_ACK, a.has_rtt | (a.has_delay << 1), now, a.bytes_acked,
		a.flight_before, a.newest_sent_ns, a.rtt_ns, a.delay_us, a.packets_acked);
	if (c->ca_state != TCP_CA_CWR && c->ca_state != TCP_CA_Recovery)
		lb_write_cwnd(tp, c, now);
	lb_write_ssthresh(tp, c);
	lb_pace(sk, c);
	lb_publish(sk, tp, c, now, 0);
}

/* The kernel calls this on ACKs outside CWR and Recovery when it may raise the window
 * (tcp_may_raise_cwnd): among them the ACK that ends Recovery, where this write puts the
 * controller's window back after PRR's (pkts_acked ran before the state changed). */
SEC("struct_ops/ledbat_cong_avoid")
void BPF_PROG(ledbat_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lb_conn *c = lb_conn(sk);

	if (c) {
		lb_write_cwnd(tp, c, lb_now(tp));
		lb_write_ssthresh(tp, c);
	} else {
		lb_fallback_cong_avoid(tp, acked);
	}
}

SEC("struct_ops/ledbat_ssthresh")
__u32 BPF_PROG(ledbat_ssthresh, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lb_conn *c = lb_conn(sk);
	__u64 now = lb_now(tp), sent_at, in_flight;
	__u32 pkts;

	if (!c)
		return lb_reno_ssthresh(tp->snd_cwnd);
	lb_undo_save(&c->cc, &c->undo);
	c->losses++;
	sent_at = lb_sat_sub(now, (__u64)tp->srtt_us / 8 * LB_NS_PER_US);
	in_flight = (__u64)lb_in_flight_pkts(tp) * lb_mss(c);
	lb_on_loss(&c->cc, &lb_params, now, sent_at, in_flight);
	lb_emit(sk, c, LB_EV_LOSS, 0, now, sent_at, in_flight, 0, 0, 0, 0);
	c->reduction_snd_nxt = tp->snd_nxt;
	pkts = lb_cwnd_pkts(tp, c);
	lb_publish(sk, tp, c, now, 1);
	return pkts > 2 ? pkts : 2;
}

/* A retransmission timeout: RFC 6817's one-MSS window. */
static __always_inline void lb_rto(struct sock *sk, struct tcp_sock *tp, struct lb_conn *c,
				   __u64 now)
{
	c->timeouts++;
	lb_on_timeout(&c->cc, &lb_params, now, LB_TIMEOUT_RTO);
	lb_emit(sk, c, LB_EV_TIMEOUT, 1, now, 0, 0, 0, 0, 0, 0);
	c->reduction_snd_nxt = tp->snd_nxt;
	lb_publish(sk, tp, c, now, 1);
}

/*
 * tcp_enter_loss (an RTO) calls ssthresh and gives CA_EVENT_LOSS only when no reduction
 * was made in this window: an RTO that fires in Recovery (the losses that started it were
 * found by SACK or RACK, then the retransmissions were lost too, as in an outage) sets the
 * Loss state without either. The controller then never heard of the timeout and kept its
 * window through every backed-off retransmission (on the bed: docs/tcp/README.md, "An RTO
 * during Recovery never reached the controller"). Entering Loss without CA_EVENT_LOSS just
 * before is therefore the timeout too.
 */
SEC("struct_ops/ledbat_set_state")
void BPF_PROG(ledbat_set_state, struct sock *sk, __u8 new_state)
{
	struct lb_conn *c = lb_conn(sk);

	if (!c)
		return;
	if (new_state == TCP_CA_Loss && c->ca_state != TCP_CA_Loss && !c->loss_event) {
		struct tcp_sock *tp = tcp_sk(sk);

		lb_rto(sk, tp, c, lb_now(tp));
		lb_pace(sk, c);
	}
	c->loss_event = 0;
	c->ca_state = new_state;
}

SEC("struct_ops/ledbat_cwnd_event")
void BPF_PROG(ledbat_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lb_conn *c = lb_conn(sk);
	__u64 now = lb_now(tp);

	if (!c)
		return;
	switch (ev) {
	case CA_EVENT_LOSS:
		/* RTO; the kernel called ssthresh just before (counted there as a loss) and
		 * sets the Loss state next (ledbat_set_state) */
		lb_rto(sk, tp, c, now);
		lb_pace(sk, c);
		c->loss_event = 1;
		break;
	case CA_EVENT_CWND_RESTART:
		/* raised from sendmsg (tcp_skb_entail), where tcp_mstamp is the last ACK's
		 * time, possibly minutes old: the clock is read instead (tcp_mstamp is the same
		 * monotonic clock in microseconds, so the events stay in order) */
		now = lb_max_u64(now, bpf_ktime_get_ns() / LB_NS_PER_US * LB_NS_PER_US);
		lb_on_timeout(&c->cc, &lb_params, now, LB_TIMEOUT_IDLE);
		lb_emit(sk, c, LB_EV_TIMEOUT, 2, now, 0, 0, 0, 0, 0, 0);
		break;
	case CA_EVENT_TX_START:
		lb_on_sent(&c->cc, &lb_params, now, (__u64)lb_in_flight_pkts(tp) * lb_mss(c));
		lb_write_ssthresh(tp, c);
		lb_pace(sk, c);
		lb_emit(sk, c, LB_EV_SENT, 0, now, (__u64)lb_in_flight_pkts(tp) * lb_mss(c), 0, 0,
			0, 0, 0);
		break;
	default:
		break;
	}
}

/*
 * The kernel undoes a reduction it found spurious (tcp_undo_cwnd_reduction: DSACKs for
 * every retransmission of a fast-retransmit episode, the timestamps of the late originals,
 * F-RTO after an RTO) and sets snd_cwnd to what this returns; it is called at most once per
 * reduction (the kernel's undo_marker). ssthresh saved the controller's state before the
 * event (an RTO calls ssthresh before CA_EVENT_LOSS; an RTO during Recovery keeps the
 * Recovery's save, as the kernel keeps that undo marker); lb_undo (csrc/lbcc.h) takes it
 * back, and the window the controller then has is returned: Linux's reno and cubic return
 * max(cwnd, prior_cwnd), which lb_undo gives the controller's window. The kernel then
 * restores its snd_ssthresh itself, possibly TCP_INFINITE_SSTHRESH while the controller
 * stays out of slow start: lb_glue_undo (csrc/lbcc_glue.h) has lb_write_ssthresh write the
 * controller's phase again at its next call outside the kernel's reductions.
 */
SEC("struct_ops/ledbat_undo_cwnd")
__u32 BPF_PROG(ledbat_undo_cwnd, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lb_conn *c = lb_conn(sk);
	__u64 now = lb_now(tp);

	if (!c)
		return lb_reno_undo(tp->snd_cwnd, tp->prior_cwnd);
	c->undos++;
	lb_glue_undo(&c->cc, &lb_params, &c->undo, &c->kphase);
	lb_emit(sk, c, LB_EV_UNDO, 0, now, 0, 0, 0, 0, 0, 0);
	return lb_cwnd_target(tp, c, now);
}

/*
 * tcp_write_xmit and tcp_xmit_retransmit_queue ask for the smallest TSO burst
 * (tcp_tso_segs) before they send anything: after an ACK this is after
 * tcp_update_pacing_rate replaced the controller's pacing rate, and it runs too when the
 * pacing timer or TSQ sends. While the competitor detection paces,
 * lb_pace writes its rate again here, so that the packets of a probe leave at
 * `probe_share` of the path's rate and not at the kernel's 1.2 window / srtt. Without the
 * detection nothing is written. The burst returned is the kernel's own choice without the
 * callback, net.ipv4.tcp_min_tso_segs, but at least two where LEDBAT++ sends its window of
 * one packet as a pair (lbcc_glue.h, lb_glue_pair: yielding outside a probe, and a
 * slowdown's hold), so that the pair leaves as one burst and its ACK is not delayed.
 *
 * Implementing cong_control instead would also keep the kernel from recomputing the rate,
 * but then the kernel calls neither cong_avoid nor its PRR (tcp_cwnd_reduction, not a
 * kfunc), which the controller relies on in CWR and Recovery.
 */
SEC("struct_ops/ledbat_min_tso_segs")
__u32 BPF_PROG(ledbat_min_tso_segs, struct sock *sk)
{
	__u32 segs = sk->__sk_common.skc_net.net->ipv4.sysctl_tcp_min_tso_segs;

	if (lb_params.algo == LB_ALGO_LEDBAT_PP) {
		struct lb_conn *c = lb_conn(sk);

		if (c) {
			lb_pace(sk, c);
			/* a window of one packet leaves as a pair (lbcc_glue.h, lb_glue_pair) */
			if (lb_glue_pair(&c->cc, &lb_params) && segs < LB_PAIR_SEGS)
				segs = LB_PAIR_SEGS;
		}
	}
	return segs;
}

/*
 * The send buffer the kernel sizes from the window (tcp_sndbuf_expand: this many windows of
 * segments; 2 by default, 3 for BBR). A scavenger's window is often far below what the path
 * holds, and at a round trip of microseconds an application that can queue only two such
 * windows waits for a wake-up before every one: the window then caps itself at the flight
 * the application keeps up (RFC 6817's flightsize cap) and the transfer runs at the
 * application's wake-up rate. Eight windows keep data queued without holding more memory
 * than a window the path needs.
 */
SEC("struct_ops/ledbat_sndbuf_expand")
__u32 BPF_PROG(ledbat_sndbuf_expand, struct sock *sk)
{
	return 8;
}

SEC(".struct_ops")
struct tcp_congestion_ops ledbat_ops = {
	.init = (void *)ledbat_init,
	.release = (void *)ledbat_release,
	.ssthresh = (void *)ledbat_ssthresh,
	.cong_avoid = (void *)ledbat_cong_avoid,
	.set_state = (void *)ledbat_set_state,
	.cwnd_event = (void *)ledbat_cwnd_event,
	.pkts_acked = (void *)ledbat_pkts_acked,
	.min_tso_segs = (void *)ledbat_min_tso_segs,
	.undo_cwnd = (void *)ledbat_undo_cwnd,
	.sndbuf_expand = (void *)ledbat_sndbuf_expand,
	/* replaced by the loader with the name the instance is registered under */
	.name = "ledbat_tcp",
};
