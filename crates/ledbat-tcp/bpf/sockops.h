/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The UAPI of sock_ops programs that select.bpf.c and rledbat.bpf.c use, declared here
 * (after bpf/kernel.h's integer types) so that the objects build without the system's
 * linux/bpf.h: `struct bpf_sock_ops` is the program's context, a stable ABI whose fields
 * the verifier checks by offset (only fields up to `sk` are declared; later ones are
 * appended by newer kernels and not used), and the callback numbers and flags are the
 * UAPI's enum values.
 */
#ifndef LEDBAT_SOCKOPS_H
#define LEDBAT_SOCKOPS_H

#define __lb_md_ptr(type, name) \
	union { type name; __u64 :64; } __attribute__((aligned(8)))

struct bpf_sock;

struct bpf_sock_ops {
	__u32 op;
	union {
		__u32 args[4];
		__u32 reply;
		__u32 replylong[4];
	};
	__u32 family;
	__u32 remote_ip4;
	__u32 local_ip4;
	__u32 remote_ip6[4];
	__u32 local_ip6[4];
	__u32 remote_port;
	__u32 local_port;
	__u32 is_fullsock;
	__u32 snd_cwnd;
	__u32 srtt_us;
	__u32 bpf_sock_ops_cb_flags;
	__u32 state;
	__u32 rtt_min;
	__u32 snd_ssthresh;
	__u32 rcv_nxt;
	__u32 snd_nxt;
	__u32 snd_una;
	__u32 mss_cache;
	__u32 ecn_flags;
	__u32 rate_delivered;
	__u32 rate_interval_us;
	__u32 packets_out;
	__u32 retrans_out;
	__u32 total_retrans;
	__u32 segs_in;
	__u32 data_segs_in;
	__u32 segs_out;
	__u32 data_segs_out;
	__u32 lost_out;
	__u32 sacked_out;
	__u32 sk_txhash;
	__u64 bytes_received;
	__u64 bytes_acked;
	__lb_md_ptr(struct bpf_sock *, sk);
};

/* enum of the UAPI's BPF_SOCK_OPS_* callbacks (op) */
enum {
	BPF_SOCK_OPS_TCP_CONNECT_CB = 3,
	BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB = 4,
	BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB = 5,
	BPF_SOCK_OPS_STATE_CB = 10,
	BPF_SOCK_OPS_HDR_OPT_LEN_CB = 14,
};

/* bpf_sock_ops_cb_flags */
enum {
	BPF_SOCK_OPS_STATE_CB_FLAG = 1 << 2,
	BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG = 1 << 6,
};

/* setsockopt levels and names (linux/tcp.h, linux/socket.h) */
enum {
	SOL_TCP = 6,
	TCP_WINDOW_CLAMP = 10,
	TCP_CONGESTION = 13,
};

/* TCP states (BPF_TCP_*) */
enum {
	LB_TCP_ESTABLISHED = 1,
	LB_TCP_CLOSE = 7,
};

#endif
