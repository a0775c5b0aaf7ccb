// SPDX-License-Identifier: MIT OR Apache-2.0 OR GPL-2.0-only
/*
 * Per-application selection of a congestion control (`ledbat tcp run`, `ledbat tcp attach`):
 * a sock_ops program attached to a cgroup-v2 directory sets the congestion control `name`
 * (read-only data, written by the loader before load) on every TCP socket of the
 * processes in that cgroup and its descendants, with
 *
 *   bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, name, len)
 *
 * at three callbacks:
 *   TCP_CONNECT_CB           an active open, before the SYN is sent: the whole connection,
 *                            its handshake included, runs under the controller;
 *   PASSIVE_ESTABLISHED_CB   a passive open (a server of the cgroup accepted it), once the
 *                            handshake completes: the socket is the accepted child, which
 *                            sock_ops sees in the cgroup of the listener's process;
 *   ACTIVE_ESTABLISHED_CB    an active open again, when the handshake completes: a socket
 *                            whose SYN left before the program was attached, or whose
 *                            application chose another controller between connect() and
 *                            the handshake's end, gets it now (setting the controller a
 *                            socket has already is a no-op in the kernel).
 *
 * The cgroup's choice wins over the application's: an application that selects its own
 * controller before connect() (iperf3 -C) is overridden at TCP_CONNECT_CB.
 *
 * The kernel checks the name (an unknown one leaves the socket's controller as it is and
 * the helper returns -ENOENT) and needs no privilege from the socket's owner: the program
 * selects as CAP_NET_ADMIN would. A connect's failure is counted in `select_errors` (the
 * object's .bss) for `ledbat tcp run` to report.
 */
#include "kernel.h"
#include "sockops.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "Dual MIT/GPL";

#define LB_CC_NAME_LEN 16

/* Written by the loader: the congestion control to select, NUL-padded. */
const volatile char select_cc[LB_CC_NAME_LEN] = "ledbat_select";

/* Sockets given the controller, and refusals (the kernel's error, last one). */
__u64 select_done = 0;
__u64 select_errors = 0;
__s64 select_last_error = 0;

SEC("sockops")
int ledbat_select(struct bpf_sock_ops *skops)
{
	char name[LB_CC_NAME_LEN];
	long err;
	int i;

	switch (skops->op) {
	case BPF_SOCK_OPS_TCP_CONNECT_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
		break;
	default:
		return 1;
	}
	for (i = 0; i < LB_CC_NAME_LEN; i++)
		name[i] = select_cc[i];
	name[LB_CC_NAME_LEN - 1] = 0;
	err = bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, name, sizeof(name));
	if (err) {
		__sync_fetch_and_add(&select_errors, 1);
		select_last_error = err;
	} else {
		__sync_fetch_and_add(&select_done, 1);
	}
	return 1;
}
