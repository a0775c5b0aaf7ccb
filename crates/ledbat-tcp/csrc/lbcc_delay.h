/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Delay and RTT estimation, as ledbat-core's `delay::DelayEstimator` and
 * `controller::RttEstimator` compute them (RFC 6817 section 2.4, RFC 6298 section 2):
 *
 *   base_delay    = min(base_history)     BASE_HISTORY buckets, a new one per interval
 *   current_delay = min(last CURRENT_FILTER samples)
 *   queuing_delay = max(current_delay - base_delay, 0)   (optionally <= the minimum RTT)
 *   srtt = 7/8 srtt + 1/8 r,  rttvar = 3/4 rttvar + 1/4 |srtt - r|   (ns, integer)
 *
 * Samples are 32-bit microsecond values that wrap; each is placed on a continuous line by
 * adding the signed 32-bit difference to the previous one (`wire::Unwrapper`), so the
 * clock offset between the peers cancels and the wrap is invisible. Only the minimum
 * filter is built (the core's EWMA filter and libutp's drift correction, which needs
 * uTP's reverse samples, are refused by the loader).
 */
#ifndef LBCC_DELAY_H
#define LBCC_DELAY_H

#include "lbcc_params.h"

struct lb_delay {
	__s64 base[LB_MAX_BASE];
	__s64 cur[LB_MAX_FILTER];
	__s64 base_min;
	__s64 last_v;            /* the last sample on the continuous line */
	__u64 last_rollover_ns;
	__u64 min_rtt_ns;
	__u64 samples;
	__u32 last_raw;          /* the last sample as it came */
	__u32 base_head;
	__u32 base_len;
	__u32 cur_head;
	__u32 cur_len;
	__u8 has_last;
	__u8 has_rollover;
	__u8 has_min_rtt;
	__u8 _pad;
};

struct lb_rtt {
	__u64 srtt_ns;
	__u64 rttvar_ns;
	__u64 min_ns;
	__u64 latest_ns;
	__u8 has;
	__u8 _pad[7];
};

LB_INLINE void lb_rtt_sample(struct lb_rtt *r, __u64 rtt)
{
	r->latest_ns = rtt;
	if (!r->has) {
		r->has = 1;
		r->min_ns = rtt;
		r->srtt_ns = rtt;
		r->rttvar_ns = rtt / 2;
		return;
	}
	if (rtt < r->min_ns)
		r->min_ns = rtt;
	{
		__u64 s = r->srtt_ns;
		__u64 diff = s > rtt ? s - rtt : rtt - s;

		r->rttvar_ns = (3 * r->rttvar_ns + diff) / 4;
		r->srtt_ns = (7 * s + rtt) / 8;
	}
}

LB_INLINE __u32 lb_base_slot(__u32 head, __u32 i, __u32 cap)
{
	return LB_INDEX((head + i) % cap, LB_MAX_BASE);
}

/* The smallest of the base buckets (the history holds at least one). */
LB_SUBPROG __s64 lb_base_min_of(const struct lb_delay *d, __u32 cap)
{
	__s64 m = 0x7fffffffffffffffLL;
	__u32 i;

	if (!d || cap == 0 || cap > LB_MAX_BASE)
		return m;
	for (i = 0; i < LB_MAX_BASE; i++) {
		if (i >= d->base_len)
			break;
		m = lb_min_s64(m, d->base[lb_base_slot(d->base_head, i, cap)]);
	}
	return m;
}

/* The smallest of the current filter's samples; the filter holds at least one. */
LB_SUBPROG __s64 lb_filter_min(const struct lb_delay *d)
{
	__s64 m = 0x7fffffffffffffffLL;
	__u32 i;

	if (!d)
		return m;
	for (i = 0; i < LB_MAX_FILTER; i++) {
		if (i >= d->cur_len)
			break;
		m = lb_min_s64(m, d->cur[i]);
	}
	return m;
}

/* One forward sample `raw` (microseconds, wrapping) taken at `now`. */
LB_INLINE void lb_delay_sample(struct lb_delay *d, lb_params_t *p, __u64 now,
			       __u32 raw)
{
	__u32 cap = (__u32)p->base_history;
	__u32 n = (__u32)p->filter_len;
	__s64 v;
	int roll;

	if (cap == 0 || cap > LB_MAX_BASE || n == 0 || n > LB_MAX_FILTER)
		return;
	v = d->has_last ? d->last_v + (__s64)(__s32)(raw - d->last_raw) : (__s64)raw;
	d->last_raw = raw;
	d->last_v = v;
	d->has_last = 1;
	d->samples++;
	roll = !d->has_rollover || lb_since(now, d->last_rollover_ns) >= p->base_interval_ns;
	if (roll) {
		__s64 m;

		d->last_rollover_ns = now;
		d->has_rollover = 1;
		if (d->base_len >= cap) {
			d->base_head = (d->base_head + 1) % cap;
			d->base_len = cap - 1;
		}
		d->base[lb_base_slot(d->base_head, d->base_len, cap)] = v;
		d->base_len++;
		m = lb_base_min_of(d, cap);
		d->base_min = m;
	} else {
		__u32 tail = lb_base_slot(d->base_head, d->base_len - 1, cap);

		if (v < d->base[tail])
			d->base[tail] = v;
		if (v < d->base_min)
			d->base_min = v;
	}
	d->cur[LB_INDEX(d->cur_head, LB_MAX_FILTER)] = v;
	d->cur_head = (d->cur_head + 1) % n;
	if (d->cur_len < n)
		d->cur_len++;
}

LB_INLINE void lb_delay_rtt(struct lb_delay *d, __u64 rtt_ns)
{
	if (!d->has_min_rtt || rtt_ns < d->min_rtt_ns)
		d->min_rtt_ns = rtt_ns;
	d->has_min_rtt = 1;
}

/* Forgets the base history (the glue's clock-rate change; `DelayEstimator::reset_base`). */
LB_INLINE void lb_delay_reset_base(struct lb_delay *d)
{
	d->base_len = 0;
	d->base_min = 0x7fffffffffffffffLL;
	d->has_rollover = 0;
}

/*
 * Forgets every sample of the delay signal: the base history, the current filter and the
 * unwrapper's last sample (`DelayEstimator::reset_signal`). For a change of the signal's
 * source or scale (the glue's fallback from one-way delays to RTTs, a relearnt peer clock
 * rate): the continuous line is built from differences of consecutive samples, so a sample
 * of the new scale after one of the old would land at a random offset from the base (the
 * two sources' offsets differ by anything in +-2^31 us) and read as minutes of queue. The
 * minimum RTT and the sample count are kept.
 */
LB_INLINE void lb_delay_reset_signal(struct lb_delay *d)
{
	lb_delay_reset_base(d);
	d->cur_head = 0;
	d->cur_len = 0;
	d->has_last = 0;
}

LB_INLINE int lb_delay_current(const struct lb_delay *d, __s64 *out)
{
	if (d->cur_len == 0)
		return 0;
	*out = lb_filter_min(d);
	return 1;
}

/* The queuing delay in ns (whole microseconds), or 0 (none) before the first sample. */
LB_INLINE int lb_queuing_delay(const struct lb_delay *d, lb_params_t *p,
			       __u64 *qd_ns)
{
	__s64 cur, q;
	__u64 ns;

	if (d->base_len == 0 || !lb_delay_current(d, &cur))
		return 0;
	q = cur - d->base_min;
	ns = q > 0 ? (__u64)q * LB_NS_PER_US : 0;
	if (p->clamp_to_min_rtt && d->has_min_rtt && d->min_rtt_ns < ns)
		ns = d->min_rtt_ns;
	*qd_ns = ns;
	return 1;
}

/* The base delay in ns, as the wire value of the minimum sample (`base_delay()`). */
LB_INLINE int lb_base_delay(const struct lb_delay *d, __u64 *ns)
{
	__u32 wire;

	if (!d->has_last || d->base_len == 0)
		return 0;
	wire = d->last_raw - (__u32)(d->last_v - d->base_min);
	*ns = (__u64)wire * LB_NS_PER_US;
	return 1;
}

/* The current (filtered) delay in ns on the same scale as lb_base_delay. */
LB_INLINE int lb_current_delay(const struct lb_delay *d, __u64 *ns)
{
	__s64 cur;
	__u32 wire;

	if (!d->has_last || !lb_delay_current(d, &cur))
		return 0;
	wire = d->last_raw - (__u32)(d->last_v - cur);
	*ns = (__u64)wire * LB_NS_PER_US;
	return 1;
}

#endif
