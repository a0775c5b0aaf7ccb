/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The replay tool of the differential test (crates/ledbat-tcp/tests/differential/): the
 * controller arithmetic of the BPF object, compiled for the host, driven by a trace on
 * standard input, one event per line; after each controller event it prints the state the
 * test compares with ledbat-core's. Built by build.rs; not installed.
 *
 *   params W0 W1 ... W52        the lb_params words (decimal), once, first
 *   lpstate                     from now on, TCP-LP's state lines end with its delay state
 *                               (below); no output of its own
 *   init MSS                    a new connection
 *   ack NOW BYTES PACKETS FLIGHT NEWEST_SENT RTT_NS|- DELAY_US|-
 *   loss NOW SENT_AT IN_FLIGHT  (the controller is saved first, as the glue's ssthresh does)
 *   undo NOW                    the kernel's undo of the last loss (the glue's undo_cwnd,
 *                               lbcc_glue.h lb_glue_undo)
 *   timeout NOW rto|idle
 *   sent NOW IN_FLIGHT
 *   tick NOW
 *   source NOW                  the delay samples change source (lb_on_delay_source_change)
 *   owd NOW TSVAL TSECR OUR_US_PER_TICK   (the glue's timestamp conversion alone)
 *   sigack NOW TSTAMP_OK SAW_TSTAMP UNA_ADVANCED TSVAL TSECR OUR_US_PER_TICK RTT_US|-
 *                               the glue's choice of the delay sample (lbcc_signal.h) and
 *                               the reset it asks for, then an ACK of one MSS with ten in
 *                               flight, sent one RTT (else 1 ms) before NOW
 *
 *   kss NOW CLAMP               the glue's snd_ssthresh decision (lbcc_glue.h) on the
 *                               state now, with the phase the last `kss` saw (0 after
 *                               init, as the kernel starts in slow start, and after
 *                               `undo`, lb_glue_undo): prints
 *                               "kss PHASE SND_CWND SSTHRESH|-" (- nothing written)
 *
 * Commands that need no params (each prints one line of its own, no state):
 *   reno_ca CWND CNT SSTHRESH CLAMP MAX_PACKETS_OUT CWND_LIMITED ACKED
 *                               the glue's reno fallback without socket storage
 *                               (lbcc_reno.h): prints "CWND CNT" after the ACK
 *   reno_ssthresh CWND          prints reno's ssthresh
 *   reno_undo CWND PRIOR_CWND   prints reno's undo window
 *   flight NOW IN_FLIGHT DELIVERED MAX_PACKETS_OUT CWND_LIMITED SND_CWND SRTT_US8
 *                               the glue's flightsize (lbcc_glue.h), its held maximum
 *                               kept from one `flight` to the next: prints "FLIGHT PEAK_NS"
 *
 * An ACK's `delivered` (the competitor detection's rate samples) is the sum of the bytes the
 * ACKs so far acknowledged, as the core's DeliveryRate counts them; no ACK is app-limited.
 *
 * Output per event: "CWND_Q32 WINDOW PHASE QD_NS|- SLOWDOWNS NEXT_TICK|- BASE_NS|-
 * STAGE DETECTIONS TESTS PATH_RATE PACING|-" (STAGE the competitor detection's stage in
 * avoidance, else 0; PATH_RATE 0 with the detection off), for
 * `owd`: "SAMPLE|- RESCALED STATE", for `sigack`: "RESULT SAMPLE|- " and then the state.
 * After `lpstate`, with TCP-LP's parameters, six more fields: " ORIGIN_US|- SMOOTHED_Q16|-
 * D_MIN_Q16|- D_MAX_Q16|- D_MAX_RSV_Q16|- LOWEST_Q16|-" (the relative delays in microseconds,
 * 48.16 signed fixed point; "-" before a sample set them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbcc.h"
#include "lbcc_signal.h"
#include "lbcc_reno.h"
#include "lbcc_glue.h"
/* not used here: included so that every build checks their layout asserts, which pin the
 * offsets ledbat_tcp::stats and ::trace decode */
#include "lbcc_stats.h"
#include "lbcc_trace.h"

static int parse_opt(const char *s, __u64 *v)
{
	if (strcmp(s, "-") == 0)
		return 0;
	*v = strtoull(s, NULL, 10);
	return 1;
}

/* `lpstate`: TCP-LP's delay state after each state line. */
static int lp_fields;

static void print_opt_s64(int has, __s64 v)
{
	if (has)
		printf(" %lld", (long long)v);
	else
		printf(" -");
}

static void print_state(const struct lb_cc *c, lb_params_t *p)
{
	__u64 qd, at, base;

	printf("%llu %llu %u ", (unsigned long long)c->cwnd,
	       (unsigned long long)lb_window(c, p), lb_phase(c, p));
	if (lb_queuing_delay(&c->delay, p, &qd) && p->algo != LB_ALGO_TCP_LP)
		printf("%llu ", (unsigned long long)qd);
	else
		printf("- ");
	printf("%llu ", (unsigned long long)c->sd.count);
	if (lb_next_tick(c, p, &at))
		printf("%llu ", (unsigned long long)at);
	else
		printf("- ");
	if (p->algo != LB_ALGO_TCP_LP && lb_base_delay(&c->delay, &base))
		printf("%llu ", (unsigned long long)base);
	else
		printf("- ");
	printf("%d %llu %llu %llu ",
	       p->comp.enabled && lb_phase(c, p) == LB_PP_AVOIDANCE ?
		       lb_comp_stage(&c->comp, c->now_ns) : 0,
	       (unsigned long long)c->comp.detections, (unsigned long long)c->comp.tests,
	       p->comp.enabled ? (unsigned long long)lb_comp_path_rate(&c->comp) : 0ULL);
	if (lb_pacing_rate(c, p, &at))
		printf("%llu", (unsigned long long)at);
	else
		printf("-");
	if (lp_fields && p->algo == LB_ALGO_TCP_LP) {
		const struct lb_lp *l = &c->lp;

		print_opt_s64(l->has_origin, l->origin_us);
		print_opt_s64(l->has_smoothed, l->smoothed_q16);
		print_opt_s64(l->has_range, l->d_min_q16);
		print_opt_s64(l->has_range, l->d_max_q16);
		print_opt_s64(l->has_rsv, l->d_max_rsv_q16);
		print_opt_s64(l->has_lowest, l->lowest_q16);
	}
	printf("\n");
}

int main(void)
{
	static char line[4096];
	static struct lb_params p;
	static struct lb_cc c;
	static struct lb_owd o;
	static struct lb_sig sig;
	static struct lb_undo undo;
	static __u64 delivered;
	static __u32 kphase;
	static __u32 flight_peak;
	static __u64 flight_peak_ns;
	int have_params = 0;

	while (fgets(line, sizeof(line), stdin)) {
		char *argv[64];
		int argc = 0;
		char *tok = strtok(line, " \t\r\n");

		while (tok && argc < 64) {
			argv[argc++] = tok;
			tok = strtok(NULL, " \t\r\n");
		}
		if (argc == 0)
			continue;
		if (strcmp(argv[0], "params") == 0) {
			__u64 *w = (__u64 *)&p;
			int i;

			if (argc != LB_PARAMS_WORDS + 1) {
				fprintf(stderr, "replay: params needs %d words, got %d\n",
					LB_PARAMS_WORDS, argc - 1);
				return 2;
			}
			for (i = 0; i < LB_PARAMS_WORDS; i++)
				w[i] = strtoull(argv[i + 1], NULL, 10);
			if (p.magic != LB_PARAMS_MAGIC || p.version != LB_PARAMS_VERSION) {
				fprintf(stderr, "replay: bad params magic or version\n");
				return 2;
			}
			have_params = 1;
			continue;
		}
		if (strcmp(argv[0], "lpstate") == 0 && argc == 1) {
			lp_fields = 1;
			continue;
		}
		if (strcmp(argv[0], "owd") == 0 && argc == 5) {
			__u32 sample = 0;
			int rescaled = 0;
			int ok = lb_owd_sample(&o, strtoull(argv[1], NULL, 10),
					       (__u32)strtoul(argv[2], NULL, 10),
					       (__u32)strtoul(argv[3], NULL, 10),
					       (__u32)strtoul(argv[4], NULL, 10), &sample, &rescaled);
			if (ok)
				printf("%u %d %u\n", sample, rescaled, o.state);
			else
				printf("- %d %u\n", rescaled, o.state);
			continue;
		}
		/* the reno fallback (lbcc_reno.h), on plain tcp_sock values */
		if (strcmp(argv[0], "reno_ca") == 0 && argc == 8) {
			struct lb_reno r;

			memset(&r, 0, sizeof(r));
			r.cwnd = (__u32)strtoul(argv[1], NULL, 10);
			r.cnt = (__u32)strtoul(argv[2], NULL, 10);
			r.ssthresh = (__u32)strtoul(argv[3], NULL, 10);
			r.clamp = (__u32)strtoul(argv[4], NULL, 10);
			r.max_packets_out = (__u32)strtoul(argv[5], NULL, 10);
			r.cwnd_limited = (__u8)atoi(argv[6]);
			lb_reno_cong_avoid(&r, (__u32)strtoul(argv[7], NULL, 10));
			printf("%u %u\n", r.cwnd, r.cnt);
			continue;
		}
		if (strcmp(argv[0], "reno_ssthresh") == 0 && argc == 2) {
			printf("%u\n", lb_reno_ssthresh((__u32)strtoul(argv[1], NULL, 10)));
			continue;
		}
		if (strcmp(argv[0], "reno_undo") == 0 && argc == 3) {
			printf("%u\n", lb_reno_undo((__u32)strtoul(argv[1], NULL, 10),
						    (__u32)strtoul(argv[2], NULL, 10)));
			continue;
		}
		/* the glue's flightsize (lbcc_glue.h), on plain tcp_sock values */
		if (strcmp(argv[0], "flight") == 0 && argc == 8) {
			struct lb_flight_in in;
			__u32 f;

			memset(&in, 0, sizeof(in));
			in.in_flight = (__u32)strtoul(argv[2], NULL, 10);
			in.delivered = (__u32)strtoul(argv[3], NULL, 10);
			in.max_packets_out = (__u32)strtoul(argv[4], NULL, 10);
			in.cwnd_limited = (__u8)atoi(argv[5]);
			in.snd_cwnd = (__u32)strtoul(argv[6], NULL, 10);
			in.srtt_us8 = (__u32)strtoul(argv[7], NULL, 10);
			f = lb_glue_flightsize(&flight_peak, &flight_peak_ns, &in,
					       strtoull(argv[1], NULL, 10));
			printf("%u %llu\n", f, (unsigned long long)flight_peak_ns);
			continue;
		}
		if (!have_params) {
			fprintf(stderr, "replay: %s before params\n", argv[0]);
			return 2;
		}
		/* the glue's snd_ssthresh decision (lbcc_glue.h) */
		if (strcmp(argv[0], "kss") == 0 && argc == 3) {
			__u64 now = strtoull(argv[1], NULL, 10);
			__u32 phase = lb_phase(&c, &p);
			__u32 cwnd = lb_glue_cwnd_target(&c, &p, now,
							 (__u32)strtoul(argv[2], NULL, 10));
			__u32 v = lb_glue_ssthresh(&c, &p, kphase, phase, cwnd);

			kphase = phase;
			if (v)
				printf("kss %u %u %u\n", phase, cwnd, v);
			else
				printf("kss %u %u -\n", phase, cwnd);
			continue;
		}
		if (strcmp(argv[0], "init") == 0 && argc == 2) {
			memset(&c, 0, sizeof(c));
			memset(&sig, 0, sizeof(sig));
			memset(&undo, 0, sizeof(undo));
			delivered = 0;
			kphase = LB_PHASE_SLOW_START;
			lb_init(&c, &p, strtoull(argv[1], NULL, 10));
		} else if (strcmp(argv[0], "ack") == 0 && argc == 8) {
			struct lb_ack a;
			__u64 v;

			memset(&a, 0, sizeof(a));
			a.bytes_acked = strtoull(argv[2], NULL, 10);
			a.packets_acked = (__u32)strtoul(argv[3], NULL, 10);
			a.flight_before = strtoull(argv[4], NULL, 10);
			a.newest_sent_ns = strtoull(argv[5], NULL, 10);
			a.has_rtt = (__u8)parse_opt(argv[6], &a.rtt_ns);
			delivered += a.bytes_acked;
			a.delivered = delivered;
			if (parse_opt(argv[7], &v)) {
				a.has_delay = 1;
				a.delay_us = (__u32)v;
			}
			lb_on_ack(&c, &p, strtoull(argv[1], NULL, 10), &a);
		} else if (strcmp(argv[0], "loss") == 0 && argc == 4) {
			lb_undo_save(&c, &undo);
			lb_on_loss(&c, &p, strtoull(argv[1], NULL, 10), strtoull(argv[2], NULL, 10),
				   strtoull(argv[3], NULL, 10));
		} else if (strcmp(argv[0], "timeout") == 0 && argc == 3) {
			lb_on_timeout(&c, &p, strtoull(argv[1], NULL, 10),
				      strcmp(argv[2], "rto") == 0 ? LB_TIMEOUT_RTO : LB_TIMEOUT_IDLE);
		} else if (strcmp(argv[0], "sent") == 0 && argc == 3) {
			lb_on_sent(&c, &p, strtoull(argv[1], NULL, 10), strtoull(argv[2], NULL, 10));
		} else if (strcmp(argv[0], "undo") == 0 && argc == 2) {
			lb_glue_undo(&c, &p, &undo, &kphase);
		} else if (strcmp(argv[0], "tick") == 0 && argc == 2) {
			lb_on_tick(&c, &p, strtoull(argv[1], NULL, 10));
		} else if (strcmp(argv[0], "source") == 0 && argc == 2) {
			lb_on_delay_source_change(&c, &p);
		} else if (strcmp(argv[0], "sigack") == 0 && argc == 9) {
			struct lb_sig_in in;
			struct lb_ack a;
			__u64 now = strtoull(argv[1], NULL, 10), rtt;
			__u32 sample = 0;
			int r;

			memset(&in, 0, sizeof(in));
			memset(&a, 0, sizeof(a));
			in.tstamp_ok = (__u8)atoi(argv[2]);
			in.saw_tstamp = (__u8)atoi(argv[3]);
			in.una_advanced = (__u8)atoi(argv[4]);
			in.tsval = (__u32)strtoul(argv[5], NULL, 10);
			in.tsecr = (__u32)strtoul(argv[6], NULL, 10);
			in.ours = (__u32)strtoul(argv[7], NULL, 10);
			in.rtt_us = parse_opt(argv[8], &rtt) ? (__s32)rtt : -1;
			r = lb_signal_of_ack(&sig, &p, now, &in, &sample);
			if (r & LB_SIG_CHANGED)
				lb_on_delay_source_change(&c, &p);
			a.bytes_acked = c.mss;
			a.packets_acked = 1;
			a.flight_before = 10 * c.mss;
			if (in.rtt_us > 0) {
				a.has_rtt = 1;
				a.rtt_ns = (__u64)in.rtt_us * LB_NS_PER_US;
			}
			a.newest_sent_ns = lb_sat_sub(now, a.has_rtt ? a.rtt_ns : LB_NS_PER_MS);
			delivered += a.bytes_acked;
			a.delivered = delivered;
			a.has_delay = (r & LB_SIG_SAMPLE) != 0;
			a.delay_us = sample;
			lb_on_ack(&c, &p, now, &a);
			if (r & LB_SIG_SAMPLE)
				printf("%d %u ", r, sample);
			else
				printf("%d - ", r);
		} else {
			fprintf(stderr, "replay: cannot read event '%s' with %d fields\n", argv[0],
				argc);
			return 2;
		}
		print_state(&c, &p);
	}
	return 0;
}
