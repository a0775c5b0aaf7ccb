/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Integer types and helpers shared by the two builds of the controller arithmetic: the BPF
 * object (clang -target bpf, where the kernel's __u64 ... come from bpf/kernel.h) and the
 * host replay tool (gcc or clang, <stdint.h>) that the differential test drives.
 *
 * Rules the arithmetic keeps so that both builds compute the same bits:
 * - unsigned 64-bit division only (BPF before cpu v4 has no signed division);
 * - no floating point (BPF has none);
 * - no shift by 64 or more, no signed overflow;
 * - loops have a constant bound (the verifier proves termination).
 */
#ifndef LBCC_TYPES_H
#define LBCC_TYPES_H

#if defined(__bpf__)
/* bpf/kernel.h, included first, defines the __u8 ... __s64 family. */
#define LB_INLINE static __attribute__((always_inline)) inline
/* A global BPF function: the verifier checks it once, on its own, with its arguments as
 * unknown values, instead of once per path through every caller (the loops live in these,
 * so that the programs stay far below the verifier's complexity limit). Arguments are
 * scalars or pointers to structs, which may be NULL. */
#define LB_SUBPROG __attribute__((noinline))
#else
#define LB_SUBPROG static
#include <stdint.h>
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int32_t __s32;
typedef int64_t __s64;
#define LB_INLINE static inline
#endif

/*
 * x & (n - 1) for a power of two n, as an index into an array of n: an index the compiler
 * already knows to be in range (x % cap with cap <= n) would have its mask optimised away,
 * and the BPF verifier, which cannot follow the modulo, would refuse the access; the empty
 * asm hides the value from the compiler so that the mask stays.
 */
#if defined(__bpf__)
#define LB_INDEX(x, n) ({ __u32 __i = (__u32)(x); asm volatile("" : "+r"(__i)); __i & ((n) - 1); })
#else
#define LB_INDEX(x, n) ((__u32)(x) & ((n) - 1))
#endif

#define LB_U64_MAX (~0ULL)
/* One in 32.32 fixed point. */
#define LB_ONE_Q32 (1ULL << 32)
/* One in 48.16 fixed point. */
#define LB_ONE_Q16 (1ULL << 16)
#define LB_NS_PER_US 1000ULL
#define LB_NS_PER_MS 1000000ULL

LB_INLINE __u64 lb_min_u64(__u64 a, __u64 b) { return a < b ? a : b; }
LB_INLINE __u64 lb_max_u64(__u64 a, __u64 b) { return a > b ? a : b; }
LB_INLINE __s64 lb_min_s64(__s64 a, __s64 b) { return a < b ? a : b; }
/* `now - then`, 0 when `then` is later (Instant::saturating_since). */
LB_INLINE __u64 lb_since(__u64 now, __u64 then) { return now > then ? now - then : 0; }
LB_INLINE __u64 lb_sat_add(__u64 a, __u64 b) { return a > LB_U64_MAX - b ? LB_U64_MAX : a + b; }
LB_INLINE __u64 lb_sat_sub(__u64 a, __u64 b) { return a > b ? a - b : 0; }

#endif
