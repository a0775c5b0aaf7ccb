/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The few kernel types the congestion control touches, declared with
 * preserve_access_index so that libbpf relocates every field access against the running
 * kernel's BTF (CO-RE): the object builds without kernel headers or a vmlinux.h and loads on
 * any kernel whose structures hold these fields, wherever they sit. Fields are listed by
 * name only; their order and the missing ones do not matter.
 */
#ifndef LEDBAT_KERNEL_H
#define LEDBAT_KERNEL_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

/* UAPI constants (stable ABI). */
enum {
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_RINGBUF = 27,
	BPF_MAP_TYPE_SK_STORAGE = 24,
	BPF_F_NO_PREALLOC = 1,
	BPF_SK_STORAGE_GET_F_CREATE = 1,
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	AF_INET = 2,
	AF_INET6 = 10,
};

enum tcp_ca_event {
	CA_EVENT_TX_START = 0,
	CA_EVENT_CWND_RESTART = 1,
	CA_EVENT_COMPLETE_CWR = 2,
	CA_EVENT_LOSS = 3,
	CA_EVENT_ECN_NO_CE = 4,
	CA_EVENT_ECN_IS_CE = 5,
};

enum tcp_ca_state {
	TCP_CA_Open = 0,
	TCP_CA_Disorder = 1,
	TCP_CA_CWR = 2,
	TCP_CA_Recovery = 3,
	TCP_CA_Loss = 4,
};

struct in6_addr {
	union {
		__u32 u6_addr32[4];
	} in6_u;
} __attribute__((preserve_access_index));

/* include/net/netns/ipv4.h, include/net/net_namespace.h: the one sysctl the object reads
 * (net.ipv4.tcp_min_tso_segs, a u8 in Linux 6.18) */
struct netns_ipv4 {
	__u8 sysctl_tcp_min_tso_segs;
} __attribute__((preserve_access_index));

struct net {
	struct netns_ipv4 ipv4;
} __attribute__((preserve_access_index));

typedef struct {
	struct net *net;
} __attribute__((preserve_access_index)) possible_net_t;

struct sock_common {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	possible_net_t skc_net;
	__be16 skc_dport;
	__u16 skc_num;
	unsigned short skc_family;
	struct in6_addr skc_v6_daddr;
	struct in6_addr skc_v6_rcv_saddr;
} __attribute__((preserve_access_index));

/* include/net/sock.h */
enum sk_pacing {
	SK_PACING_NONE = 0,
	SK_PACING_NEEDED = 1,
	SK_PACING_FQ = 2,
};

struct sock {
	struct sock_common __sk_common;
	__u32 sk_pacing_status;  /* enum sk_pacing; a BPF congestion control may write it */
	unsigned long sk_pacing_rate; /* bytes/s; a BPF congestion control may write it */
	unsigned long sk_max_pacing_rate; /* bytes/s, SO_MAX_PACING_RATE; read only */
} __attribute__((preserve_access_index));

/* bpf_setsockopt's SO_MAX_PACING_RATE (asm-generic/socket.h: x86-64, arm64, riscv; alpha,
 * mips, parisc and sparc number them otherwise) */
enum {
	LB_SOL_SOCKET = 1,
	LB_SO_MAX_PACING_RATE = 47,
};

struct tcp_options_received {
	__u32 rcv_tsval;
	__u32 rcv_tsecr;
	__u16 saw_tstamp : 1;
	__u16 tstamp_ok : 1;
} __attribute__((preserve_access_index));

struct tcp_sock {
	__u32 snd_cwnd;
	__u32 snd_cwnd_cnt;      /* reno's count towards the next packet (lbcc_reno.h) */
	__u32 snd_cwnd_clamp;
	__u32 snd_ssthresh;
	__u32 mss_cache;
	__u32 packets_out;
	__u32 sacked_out;
	__u32 lost_out;
	__u32 retrans_out;
	__u32 snd_nxt;
	__u32 snd_una;
	__u32 srtt_us;
	__u32 delivered;
	__u32 app_limited;       /* delivered count until which samples are app-limited, 0 none */
	__u32 max_packets_out;
	__u32 prior_cwnd;        /* snd_cwnd before the last reduction (reno's undo) */
	__u64 tcp_mstamp;
	__u64 tcp_wstamp_ns;     /* the next packet's departure time, CLOCK_MONOTONIC (EDT) */
	__u8 tcp_usec_ts : 1;
	__u8 is_cwnd_limited : 1;
	struct tcp_options_received rx_opt;
} __attribute__((preserve_access_index));

/* `in_flight` is not this ACK's delivery: it counts the packets delivered since the newest
 * acknowledged packet was sent (tcp_input.c); the glue counts deliveries from
 * tcp_sock.delivered instead. */
struct ack_sample {
	__u32 pkts_acked;
	__s32 rtt_us;
	__u32 in_flight;
} __attribute__((preserve_access_index));

struct tcp_congestion_ops {
	__u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, __u32 ack, __u32 acked);
	void (*set_state)(struct sock *sk, __u8 new_state);
	void (*cwnd_event)(struct sock *sk, enum tcp_ca_event ev);
	void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample);
	__u32 (*min_tso_segs)(struct sock *sk);
	__u32 (*undo_cwnd)(struct sock *sk);
	__u32 (*sndbuf_expand)(struct sock *sk);
	void (*init)(struct sock *sk);
	void (*release)(struct sock *sk);
	char name[16];
	__u32 flags;
} __attribute__((preserve_access_index));

#endif
