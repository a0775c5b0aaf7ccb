// SPDX-License-Identifier: MIT OR Apache-2.0 OR GPL-2.0-only
/*
 * Receiver-side LEDBAT for kernel TCP (`ledbat tcp run --rledbat`, `attach --rledbat`): a
 * sock_ops program, attached to a cgroup beside the selector, that clamps the receive window
 * of every TCP connection of the cgroup's processes so that the remote sender, whatever its
 * congestion control, keeps the downlink's queue near TARGET. The window arithmetic is
 * csrc/rledbat.h (the uTP receiver's, checked against it by tests/rledbat.rs); this file only
 * feeds it:
 *
 *   ACTIVE_/PASSIVE_ESTABLISHED   the connection's state is created in socket storage and
 *                                 BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG set, so that
 *   STATE_CB (to TCP_CLOSE)       the connection's statistics entry is deleted
 *   HDR_OPT_LEN_CB                runs for every segment this side sends, every ACK: the
 *                                 bytes received since the last one (tcp_sock.bytes_received),
 *                                 the delay sample of the newest segment, the receiver's RTT
 *                                 estimate, a new out-of-order segment as a loss
 *                                 (tcp_sock.rcv_ooopack) -> rl_on_data / rl_on_loss; then
 *                                 the window clamp (TCP_WINDOW_CLAMP) when it changed: the
 *                                 advertised window (rl_adv_window: rcwnd, or the
 *                                 competitor detection's when competitor.enabled).
 *
 * The delay signals (the draft's two):
 * - one-way (default): the sender's TSval of the newest segment (tcp_sock.rx_opt.rcv_tsval)
 *   against our clock when it arrived (tcp_sock.tcp_mstamp), the sender's clock rate learnt
 *   as lbcc_owd.h does for the sender side; a peer without timestamps, or whose clock is
 *   unusable, makes the connection fall back to the RTT signal (its base history forgotten);
 * - RTT: the receiver's own RTT estimate (tcp_sock.rcv_rtt_est, from the sender's echo of
 *   our TSval, or once per window without timestamps), whose queue includes our uplink's.
 * The RTT that paces the per-RTT rules and the gain is the receiver's estimate either way.
 *
 * PARSE_HDR_OPT_CB is not used: the kernel does not call it for segments on its fast path.
 * The window is never shrunk: a lower clamp only stops the right edge from advancing (the
 * kernel's window selection keeps the edge it advertised; see csrc/rledbat.h).
 */
#include "kernel.h"
#include "sockops.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

#include "../csrc/rledbat.h"

char _license[] SEC("license") = "Dual MIT/GPL";

/* Written by the loader: the delay estimator's parameters, then rLEDBAT's, then how often
 * a connection's statistics are refreshed (ns; 0: at every segment the receiver sends). */
struct rl_ro {
	struct lb_params delay;
	struct rl_cfg cfg;
	__u64 publish_ns;
};

const volatile struct rl_ro rl_ro SEC(".rodata.rlparams") = {};

/* The receive-side fields of struct tcp_sock beside those bpf/kernel.h declares
 * (CO-RE: the ___rl suffix is dropped when matching the kernel's type). */
struct tcp_sock___rl {
	__u64 bytes_received;
	__u32 rcv_ooopack;
	__u32 window_clamp;
	__u32 rcv_wnd;
	__u32 rcv_nxt;
	struct {
		__u32 rtt_us;
	} rcv_rtt_est;
} __attribute__((preserve_access_index));

struct rl_conn {
	struct rl rl;
	struct lb_owd owd;
	__u64 bytes_received;
	__u64 losses;
	__u64 published_ns;
	__u32 ooo;
	__u32 clamp;
	__u8 use_rtt;       /* the one-way signal is not available: RTT */
	__u8 _pad[7];
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct rl_conn);
} rl_conns SEC(".maps");

/* Per connection, for `ledbat tcp rstats`: ports and addresses as in csrc/lbcc_stats.h. */
struct rl_flow_key {
	__u32 family;
	__u16 lport;
	__u16 rport;
	__u32 laddr[4];
	__u32 raddr[4];
};

struct rl_flow_stats {
	__u64 updated_ns;
	__u64 window;      /* bytes, rcwnd */
	__u64 clamp;       /* bytes, the clamp written */
	__u64 qd_ns;       /* 0 before the first estimate */
	__u64 rtt_ns;
	__u64 base_rtt_ns;
	__u64 bytes;
	__u64 losses;
	__u64 slowdowns;
	__u64 restarts;    /* empty_queue_restart's slow starts */
	__u32 phase;
	__u32 signal;      /* enum rl_signal in use */
	__u64 detections;  /* the competitor detection's (competitor.enabled) */
	__u64 tests;       /* its verdicts, hold and push tests */
	__u64 test_holds;  /* the holds it asked for (a hold test each) */
	__u64 push_collisions; /* push tests voided: another flow pushed at once */
	/* the detection's last verdict (struct rl's lt_*; lt_at_ns 0: none yet) */
	__u64 lt_at_ns;
	__u64 lt_q0_ns;
	__s64 lt_q1_ns;
	__u32 lt_kind;     /* enum rl_test_kind */
	__u32 lt_positive;
	/* the detection's last probe while yielding (struct rl's lp_*; lp_at_ns 0: none) */
	__u64 lp_at_ns;
	__u64 lp_from_ns;
	__u64 lp_peak_ns;
	__u64 lp_after_ns;
	__u64 probes;
	__u32 lp_falls;
	__u32 lp_flags;    /* enum rl_probe_flag */
};

/* ledbat_tcp::rledbat::STATS_SIZE, which decodes it */
_Static_assert(sizeof(struct rl_flow_stats) == 200, "rl_flow_stats is RlFlow's 200 bytes");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct rl_flow_key);
	__type(value, struct rl_flow_stats);
} rl_stats SEC(".maps");

/* Connections seen, clamps written, refusals of the clamp (last error). */
__u64 rl_conns_seen = 0;
__u64 rl_clamps = 0;
__u64 rl_clamp_errors = 0;
__s64 rl_last_error = 0;

/* One segment (the yield's window; rl_window's rules keep two), and at least 2 KB: above the
 * kernel's smallest clamp, SOCK_MIN_RCVBUF / 2 (about 1.1 KB), which it would put in place of
 * a smaller one (the clamp would then differ from ours at every segment). */
static __always_inline __u64 rl_floor(struct rl_conn *c)
{
	__u64 f = c->rl.mss;

	return f < 2048 ? 2048 : f;
}

static __always_inline void rl_key(struct tcp_sock *tp, struct rl_flow_key *k)
{
	struct sock *sk = (struct sock *)tp;

	__builtin_memset(k, 0, sizeof(*k));
	k->family = sk->__sk_common.skc_family;
	k->lport = sk->__sk_common.skc_num;
	k->rport = bpf_ntohs(sk->__sk_common.skc_dport);
	if (k->family == AF_INET6) {
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

static const struct rl_flow_stats rl_zero_stats;

static __always_inline void rl_publish(struct tcp_sock *tp, struct rl_conn *c, __u64 now)
{
	struct rl_flow_key k;
	struct rl_flow_stats *s;
	__u64 qd = 0;

	if (c->published_ns && lb_since(now, c->published_ns) < rl_ro.publish_ns)
		return;
	c->published_ns = now;
	rl_key(tp, &k);
	s = bpf_map_lookup_elem(&rl_stats, &k);
	if (!s) {
		bpf_map_update_elem(&rl_stats, &k, &rl_zero_stats, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&rl_stats, &k);
		if (!s)
			return;
	}
	lb_queuing_delay(&c->rl.delay, &rl_ro.delay, &qd);
	s->updated_ns = now;
	s->window = rl_window(&c->rl);
	s->clamp = c->clamp;
	s->qd_ns = qd;
	s->rtt_ns = c->rl.rtt_ns;
	s->base_rtt_ns = c->rl.base_rtt_ns;
	s->bytes = c->bytes_received;
	s->losses = c->losses;
	s->slowdowns = c->rl.slowdowns;
	s->restarts = c->rl.restarts;
	s->phase = c->rl.phase;
	s->detections = c->rl.comp.detections;
	s->tests = c->rl.comp.tests;
	s->test_holds = c->rl.test_holds;
	s->push_collisions = c->rl.comp.push_collisions;
	s->lt_at_ns = c->rl.lt_at;
	s->lt_q0_ns = c->rl.lt_q0;
	s->lt_q1_ns = c->rl.lt_q1;
	s->lt_kind = c->rl.lt_kind;
	s->lt_positive = c->rl.lt_positive;
	s->lp_at_ns = c->rl.lp_at;
	s->lp_from_ns = c->rl.lp_from;
	s->lp_peak_ns = c->rl.lp_peak;
	s->lp_after_ns = c->rl.lp_after;
	s->probes = c->rl.probes;
	s->lp_falls = c->rl.lp_falls;
	s->lp_flags = c->rl.lp_flags;
	s->signal = c->use_rtt ? RL_SIGNAL_RTT : RL_SIGNAL_OWD;
}

static __always_inline int rl_start(struct bpf_sock_ops *skops)
{
	struct bpf_sock *bsk = skops->sk;
	struct tcp_sock *tp;
	struct tcp_sock___rl *rp;
	struct rl_conn *c;

	if (!bsk)
		return 1;
	tp = bpf_skc_to_tcp_sock(bsk);
	if (!tp)
		return 1;
	c = bpf_sk_storage_get(&rl_conns, tp, 0, BPF_SK_STORAGE_GET_F_CREATE);
	if (!c)
		return 1;
	rp = (struct tcp_sock___rl *)tp;
	rl_init(&c->rl, skops->mss_cache ? skops->mss_cache : 1448, &rl_ro.cfg);
	__builtin_memset(&c->owd, 0, sizeof(c->owd));
	c->bytes_received = rp->bytes_received;
	c->ooo = bpf_core_field_exists(rp->rcv_ooopack) ? rp->rcv_ooopack : 0;
	c->losses = 0;
	c->clamp = 0;
	c->published_ns = 0;
	c->use_rtt = rl_ro.cfg.signal == RL_SIGNAL_RTT;
	__sync_fetch_and_add(&rl_conns_seen, 1);
	bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags |
					 BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG |
					 BPF_SOCK_OPS_STATE_CB_FLAG);
	return 1;
}

/* The connection closes: its statistics go (the socket storage goes with the socket). */
static __always_inline int rl_state(struct bpf_sock_ops *skops)
{
	struct bpf_sock *bsk = skops->sk;
	struct rl_flow_key k;
	struct tcp_sock *tp;

	if (!bsk || skops->args[1] != LB_TCP_CLOSE)
		return 1;
	tp = bpf_skc_to_tcp_sock(bsk);
	if (!tp)
		return 1;
	rl_key(tp, &k);
	bpf_map_delete_elem(&rl_stats, &k);
	return 1;
}

static __always_inline int rl_ack(struct bpf_sock_ops *skops)
{
	struct bpf_sock *bsk = skops->sk;
	struct tcp_sock *tp;
	struct tcp_sock___rl *rp;
	struct rl_conn *c;
	__u64 now, got, rtt_ns;
	__u32 rtt8, sample = 0, clamp;
	int rescaled = 0;

	if (!bsk || skops->state != LB_TCP_ESTABLISHED)
		return 1;
	tp = bpf_skc_to_tcp_sock(bsk);
	if (!tp)
		return 1;
	c = bpf_sk_storage_get(&rl_conns, tp, 0, 0);
	if (!c)
		return 1;
	rp = (struct tcp_sock___rl *)tp;
	got = rp->bytes_received - c->bytes_received;
	if (got == 0)
		return 1; /* a segment of ours that acknowledges nothing new */
	c->bytes_received = rp->bytes_received;
	if (got > 0x7fffffffULL)
		got = 0x7fffffffULL;
	now = tp->tcp_mstamp * LB_NS_PER_US;
	rtt8 = rp->rcv_rtt_est.rtt_us;
	rtt_ns = (__u64)(rtt8 >> 3) * LB_NS_PER_US;
	if (bpf_core_field_exists(rp->rcv_ooopack) && rp->rcv_ooopack != c->ooo) {
		c->ooo = rp->rcv_ooopack;
		c->losses++;
		rl_on_loss(&c->rl, &rl_ro.cfg, now);
	}
	if (!c->use_rtt) {
		__u32 tick = 1000;

		if (!BPF_CORE_READ_BITFIELD(tp, rx_opt.saw_tstamp) ||
		    !BPF_CORE_READ_BITFIELD(tp, rx_opt.tstamp_ok)) {
			c->use_rtt = 1;
			lb_delay_reset_base(&c->rl.delay);
		} else {
			if (bpf_core_field_exists(tp->tcp_usec_ts) &&
			    BPF_CORE_READ_BITFIELD(tp, tcp_usec_ts))
				tick = 1;
			if (!rl_owd_sample(&c->owd, now, tp->rx_opt.rcv_tsval, tick, &sample,
					   &rescaled)) {
				c->use_rtt = 1;
				lb_delay_reset_base(&c->rl.delay);
			} else if (rescaled) {
				lb_delay_reset_base(&c->rl.delay);
			}
		}
	}
	if (c->use_rtt) {
		if (rtt_ns == 0)
			return 1; /* no RTT estimate yet: nothing to measure with */
		sample = (__u32)(rtt_ns / LB_NS_PER_US);
	}
	rl_on_data(&c->rl, &rl_ro.cfg, &rl_ro.delay, now, got, sample, rtt_ns);
	clamp = rl_clamp(&rl_ro.cfg, rl_adv_window(&c->rl, &rl_ro.cfg), rl_floor(c));
	if (clamp != c->clamp || rp->window_clamp != clamp) {
		long err = bpf_setsockopt(skops, SOL_TCP, TCP_WINDOW_CLAMP, &clamp, sizeof(clamp));

		if (err) {
			__sync_fetch_and_add(&rl_clamp_errors, 1);
			rl_last_error = err;
		} else {
			c->clamp = clamp;
			__sync_fetch_and_add(&rl_clamps, 1);
		}
	}
	rl_publish(tp, c, now);
	return 1;
}

SEC("sockops")
int ledbat_rledbat(struct bpf_sock_ops *skops)
{
	switch (skops->op) {
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		return rl_start(skops);
	case BPF_SOCK_OPS_HDR_OPT_LEN_CB:
		return rl_ack(skops);
	case BPF_SOCK_OPS_STATE_CB:
		return rl_state(skops);
	default:
		return 1;
	}
}
