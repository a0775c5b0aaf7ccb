// SPDX-License-Identifier: MIT OR Apache-2.0 OR GPL-2.0-only
/*
 * bpf/ledbat.bpf.c as it runs when no connection can be given socket storage: for
 * tests/fallback.rs only, never shipped (build.rs does not build it).
 *
 * ledbat_init asks bpf_sk_storage_get to create the connection's state with the flag
 * BPF_SK_STORAGE_GET_F_CREATE. Here the flag is 0, so the lookup finds nothing, as when the
 * kernel fails the allocation: init counts the connection in lb_no_state and every callback
 * takes the Reno fallback (csrc/lbcc_reno.h) through the very lines of ledbat.bpf.c that
 * copy the tcp_sock's fields in and out of it. The switch is made here, not in
 * ledbat.bpf.c: any edit there (a line more, a line's text) changes its BTF line
 * information and so the shipped object.
 *
 * kernel.h is included first so that its enum is declared before the macro replaces the
 * name; ledbat.bpf.c's own #include of it is then empty (its include guard).
 */
#include "../../bpf/kernel.h"
#define BPF_SK_STORAGE_GET_F_CREATE 0
#include "../../bpf/ledbat.bpf.c"
