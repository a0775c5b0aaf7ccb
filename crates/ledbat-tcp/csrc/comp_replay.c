/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The competitor detection's replay tool (tests/differential/competitor.rs): lbcc_competitor.h
 * compiled for the host, driven one call per line on standard input; after each call it
 * prints what the test compares with ledbat-core's `Competitor`. Built by build.rs.
 *
 *   params W0 ... W16            the lb_comp_params words (decimal), once, first
 *   owner BUSY_ABOVE_ETA PROBE_RTTS_Q32 COLLISION_QUIETS STANDING_PROBE_RTTS_Q32 RTT_FALL
 *                                the owner options (lb_comp_owner), after params
 *   poll NOW QD RTT
 *   hs NOW RTT                   hold_started
 *   he NOW ETA MSS               hold_ended
 *   ack NOW QD TARGET RTT ETA MSS PHASE RATE|- APP_LIMITED NEWEST_SENT FLIGHT
 *   span NOW DELIVERED APP_LIMITED MIN_SPAN   the rate samples (lb_span_on_ack) alone;
 *                                             prints "RATE|- LIMITED"
 *
 * Output per call, with the limits asked for at NOW with the last MSS and RTT given:
 *   "ACTION RESUME YIELDING STAGE PATH_RATE TESTS DETECTIONS COLLISIONS CONFIRMING PUSHING
 *    PROBING NEXT_TICK|- HOLD_MIN|- LIMIT_RATE|- LIMIT_WINDOW|- PUSH_WINDOW
 *    PUSHING_PROBE|-" (PUSHING_PROBE: lb_comp_pushing_probe's length)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbcc_competitor.h"

static __u64 num(const char *s)
{
	return strtoull(s, NULL, 10);
}

static void opt(int has, __u64 v)
{
	if (has)
		printf(" %llu", (unsigned long long)v);
	else
		printf(" -");
}

int main(void)
{
	static char line[4096];
	static struct lb_comp_params p;
	static struct lb_comp c;
	static struct lb_span sp;
	int have_params = 0;
	__u64 mss = 1500, rtt = 0;

	lb_comp_init(&c);
	while (fgets(line, sizeof(line), stdin)) {
		char *argv[40];
		int argc = 0, action = LB_COMP_NONE, has;
		__u64 now, resume = 0, v = 0, rate = 0, win = 0;
		char *tok = strtok(line, " \t\r\n");

		while (tok && argc < 40) {
			argv[argc++] = tok;
			tok = strtok(NULL, " \t\r\n");
		}
		if (argc == 0)
			continue;
		if (strcmp(argv[0], "params") == 0) {
			__u64 *w = (__u64 *)&p;
			int i;

			if (argc != LB_COMP_PARAMS_WORDS + 1) {
				fprintf(stderr, "comp-replay: params needs %d words, got %d\n",
					LB_COMP_PARAMS_WORDS, argc - 1);
				return 2;
			}
			for (i = 0; i < LB_COMP_PARAMS_WORDS; i++)
				w[i] = num(argv[i + 1]);
			have_params = 1;
			continue;
		}
		if (!have_params || argc < 2) {
			fprintf(stderr, "comp-replay: '%s' before params\n", argv[0]);
			return 2;
		}
		if (strcmp(argv[0], "owner") == 0 && argc == 6) {
			lb_comp_owner(&c, (int)num(argv[1]), num(argv[2]), (int)num(argv[3]),
				      num(argv[4]), (int)num(argv[5]));
			continue;
		}
		now = num(argv[1]);
		if (strcmp(argv[0], "span") == 0 && argc == 5) {
			int lim = 0;

			if (lb_span_on_ack(&sp, now, num(argv[2]), (int)num(argv[3]), num(argv[4]),
					   &rate, &lim))
				printf("%llu %d\n", (unsigned long long)rate, lim);
			else
				printf("- 0\n");
			continue;
		}
		if (strcmp(argv[0], "poll") == 0 && argc == 4) {
			rtt = num(argv[3]);
			lb_comp_poll(&c, &p, now, num(argv[2]), rtt);
		} else if (strcmp(argv[0], "hs") == 0 && argc == 3) {
			lb_comp_hold_started(&c, now, num(argv[2]));
		} else if (strcmp(argv[0], "he") == 0 && argc == 4) {
			mss = num(argv[3]);
			lb_comp_hold_ended(&c, &p, now, num(argv[2]), mss);
		} else if (strcmp(argv[0], "ack") == 0 && argc == 13) {
			struct lb_comp_obs o;

			memset(&o, 0, sizeof(o));
			o.qd_ns = num(argv[2]);
			o.target_ns = num(argv[3]);
			o.rtt_ns = rtt = num(argv[4]);
			o.base_rtt_ns = num(argv[5]);
			o.eta_ns = num(argv[6]);
			o.mss = mss = num(argv[7]);
			o.phase = (__u8)num(argv[8]);
			o.has_rate = strcmp(argv[9], "-") != 0;
			o.rate = o.has_rate ? num(argv[9]) : 0;
			o.app_limited = (__u8)num(argv[10]);
			o.newest_sent_ns = num(argv[11]);
			o.flight = num(argv[12]);
			action = lb_comp_on_ack(&c, &p, now, &o, &resume);
		} else {
			fprintf(stderr, "comp-replay: cannot read '%s' with %d fields\n", argv[0],
				argc);
			return 2;
		}
		printf("%d %llu %u %d %llu %llu %llu %llu %d %u %d", action,
		       (unsigned long long)resume, c.yielding, lb_comp_stage(&c, now),
		       (unsigned long long)lb_comp_path_rate(&c), (unsigned long long)c.tests,
		       (unsigned long long)c.detections, (unsigned long long)c.push_collisions,
		       lb_comp_confirming(&c), c.has_push, lb_comp_probing(&c, now));
		has = lb_comp_next_tick(&c, &v);
		opt(has, v);
		opt(c.has_hold_min, c.hold_min);
		has = lb_comp_limits(&c, &p, now, mss, rtt, &rate, &win);
		opt(has, rate);
		opt(has, win);
		printf(" %llu", (unsigned long long)lb_comp_push_window(&c, now));
		has = lb_comp_pushing_probe(&c, now, &v);
		opt(has, v);
		printf("\n");
	}
	return 0;
}
