/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The host build of csrc/rledbat.h for its differential test against the uTP receiver
 * (crates/ledbat-tcp/tests/rledbat.rs): one event per line on standard input,
 *
 *   cfg TARGET_NS SLOWDOWNS BASE_HISTORY BASE_INTERVAL_NS FILTER_LEN
 *       [RESTART [VALIDATION [PROBE_SUM [BACKOFF [STANDING_RTTS_Q32 [RTT_FALL]]]]]]
 *                                         once, first (BACKOFF 1, STANDING_RTTS_Q32 and
 *                                         RTT_FALL 0 if absent)
 *   comp W0 ... W16 HOLD_Q16              the competitor detection's words (lb_comp_params)
 *                                         and comp_test_hold_rtts_q16, after cfg
 *   init MSS                              a new connection
 *   data NOW BYTES SAMPLE_US RTT_NS       a segment (RTT_NS 0: no RTT sample)
 *   loss NOW                              a gap in the sequence
 *   owd NOW TSVAL OUR_US_PER_TICK         the one-way sample alone (rl_owd_sample)
 *
 * and after each `init`, `data` and `loss`: "RCWND_Q32 WINDOW PHASE QD_NS|- SLOWDOWNS
 * RESTARTS ADVERTISED YIELDING DETECTIONS TESTS LT_AT LT_KIND LT_POSITIVE LT_Q0 LT_Q1
 * PROBES LP_AT LP_FLAGS LP_FROM LP_PEAK LP_AFTER LP_FALLS" (ADVERTISED: rl_adv_window; LT_*
 * and LP_*: the detection's last verdict and last probe, struct rl's lt_* and lp_*);
 * after `owd`: "SAMPLE|- RESCALED STATE". Built by build.rs; not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rledbat.h"

static void print_state(const struct rl *r, const struct rl_cfg *cfg, lb_params_t *dp)
{
	__u64 qd;

	printf("%llu %llu %u ", (unsigned long long)r->rcwnd, (unsigned long long)rl_window(r),
	       r->phase);
	if (lb_queuing_delay(&r->delay, dp, &qd))
		printf("%llu ", (unsigned long long)qd);
	else
		printf("- ");
	printf("%llu %llu %llu %u %llu %llu ", (unsigned long long)r->slowdowns,
	       (unsigned long long)r->restarts, (unsigned long long)rl_adv_window(r, cfg),
	       r->comp.yielding, (unsigned long long)r->comp.detections,
	       (unsigned long long)r->comp.tests);
	printf("%llu %u %u %llu %lld ", (unsigned long long)r->lt_at, r->lt_kind,
	       r->lt_positive, (unsigned long long)r->lt_q0, (long long)r->lt_q1);
	printf("%llu %llu %u %llu %llu %llu %u\n", (unsigned long long)r->probes,
	       (unsigned long long)r->lp_at, r->lp_flags, (unsigned long long)r->lp_from,
	       (unsigned long long)r->lp_peak, (unsigned long long)r->lp_after, r->lp_falls);
}

int main(void)
{
	static char line[1024];
	static struct lb_params p;
	static struct rl_cfg cfg;
	static struct rl r;
	static struct lb_owd o;
	unsigned long long a, b, c, d, e, f, g, h, k, m, q;
	int n;

	while (fgets(line, sizeof(line), stdin)) {
		f = 0;
		g = 0;
		h = 0;
		k = 1;
		m = 0;
		q = 0;
		n = sscanf(line, "cfg %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &a,
			   &b, &c, &d, &e, &f, &g, &h, &k, &m, &q);
		if (n >= 5 && n <= 11) {
			memset(&p, 0, sizeof(p));
			memset(&cfg, 0, sizeof(cfg));
			p.magic = LB_PARAMS_MAGIC;
			p.version = LB_PARAMS_VERSION;
			p.base_history = c;
			p.base_interval_ns = d;
			p.filter_len = e;
			cfg.target_ns = a;
			cfg.slowdowns = b;
			cfg.signal = RL_SIGNAL_OWD;
			cfg.empty_queue_restart = f;
			cfg.window_validation = g;
			cfg.standing_probe_sum = h;
			cfg.slowdown_backoff = k;
			cfg.standing_probe_rtts_q32 = m;
			cfg.rtt_fall = q;
		} else if (strncmp(line, "comp ", 5) == 0) {
			__u64 *w = (__u64 *)&cfg.comp;
			char *tok = strtok(line + 5, " \t\r\n");
			int i;

			for (i = 0; i < LB_COMP_PARAMS_WORDS + 1 && tok; i++) {
				if (i < LB_COMP_PARAMS_WORDS)
					w[i] = strtoull(tok, NULL, 10);
				else
					cfg.comp_test_hold_rtts_q16 = strtoull(tok, NULL, 10);
				tok = strtok(NULL, " \t\r\n");
			}
			if (i != LB_COMP_PARAMS_WORDS + 1 || tok) {
				fprintf(stderr, "rl_replay: comp needs %d words\n",
					LB_COMP_PARAMS_WORDS + 1);
				return 2;
			}
		} else if (sscanf(line, "init %llu", &a) == 1) {
			rl_init(&r, a, &cfg);
			memset(&o, 0, sizeof(o));
			print_state(&r, &cfg, &p);
		} else if (sscanf(line, "data %llu %llu %llu %llu", &a, &b, &c, &d) == 4) {
			rl_on_data(&r, &cfg, &p, a, b, (__u32)c, d);
			print_state(&r, &cfg, &p);
		} else if (sscanf(line, "loss %llu", &a) == 1) {
			rl_on_loss(&r, &cfg, a);
			print_state(&r, &cfg, &p);
		} else if (sscanf(line, "owd %llu %llu %llu", &a, &b, &c) == 3) {
			__u32 s;
			int resc = 0;

			if (rl_owd_sample(&o, a, (__u32)b, (__u32)c, &s, &resc))
				printf("%u %d %u\n", s, resc, o.state);
			else
				printf("- %d %u\n", resc, o.state);
		} else if (line[0] != '\n' && line[0] != '#') {
			fprintf(stderr, "rl_replay: bad line: %s", line);
			return 2;
		}
	}
	return 0;
}
