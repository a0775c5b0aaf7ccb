// SPDX-License-Identifier: MIT OR Apache-2.0
/*
 * The sender of tests/fallback.rs (C, since the workspace forbids unsafe Rust and neither
 * std nor rustix reads TCP_INFO):
 *
 *   send ADDR PORT CC SECONDS
 *
 * connects to ADDR:PORT with the congestion control CC set before connecting (and a send
 * buffer of 256 KB), writes as fast as the socket takes for SECONDS, then shuts its side
 * down and waits (at most 10 s) for the receiver to close. Every SAMPLE_US and once before the first byte it reads the
 * socket's tcp_info; at the end it prints one line per reading,
 *
 *   s CA_STATE SND_CWND SND_SSTHRESH DELIVERED TOTAL_RETRANS
 *
 * then `cc NAME` (the control the socket ran) and `sent BYTES`. Exits 1 on any error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SAMPLE_US 200
#define MAX_SAMPLES 200000

struct sample {
	uint8_t ca_state;
	uint32_t cwnd, ssthresh, delivered, total_retrans;
};

static struct sample samples[MAX_SAMPLES];

static void die(const char *what)
{
	fprintf(stderr, "send: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int64_t now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static void sample(int fd, size_t *n)
{
	struct tcp_info i;
	socklen_t len = sizeof(i);

	memset(&i, 0, sizeof(i));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &i, &len) != 0)
		die("TCP_INFO");
	if (len < offsetof(struct tcp_info, tcpi_delivered) + sizeof(i.tcpi_delivered)) {
		fprintf(stderr, "send: no tcpi_delivered (Linux 4.18)\n");
		exit(1);
	}
	if (*n == MAX_SAMPLES)
		return;
	samples[*n].ca_state = i.tcpi_ca_state;
	samples[*n].cwnd = i.tcpi_snd_cwnd;
	samples[*n].ssthresh = i.tcpi_snd_ssthresh;
	samples[*n].delivered = i.tcpi_delivered;
	samples[*n].total_retrans = i.tcpi_total_retrans;
	(*n)++;
}

int main(int argc, char **argv)
{
	static char chunk[1 << 16];
	struct sockaddr_in sa;
	char cc[16] = {0};
	socklen_t cc_len = sizeof(cc) - 1;
	unsigned long long sent = 0;
	int64_t start, end, next;
	size_t n = 0, k;
	int sndbuf = 256 << 10;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: send ADDR PORT CC SECONDS\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1) {
		fprintf(stderr, "send: bad address %s\n", argv[1]);
		return 2;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, argv[3], strlen(argv[3])) != 0)
		die("TCP_CONGESTION");
	/* always more queued than the window: without it the first round trips are limited by
	 * the initial send buffer (16 KB), not the window, and Reno does not grow then */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)) != 0)
		die("SO_SNDBUF");
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		die("connect");
	memset(chunk, 0x5a, sizeof(chunk));
	sample(fd, &n);
	start = now_us();
	end = start + (int64_t)(atof(argv[4]) * 1e6);
	next = start + SAMPLE_US;
	for (;;) {
		int64_t t = now_us();
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		struct timespec wait;
		int r;

		if (t >= end)
			break;
		if (t >= next) {
			sample(fd, &n);
			next += SAMPLE_US;
			if (next <= t)
				next = t + SAMPLE_US;
			continue;
		}
		wait.tv_sec = 0;
		wait.tv_nsec = (long)(next - t) * 1000;
		r = ppoll(&p, 1, &wait, NULL);
		if (r < 0 && errno != EINTR)
			die("ppoll");
		if (r > 0 && (p.revents & POLLOUT)) {
			ssize_t w = send(fd, chunk, sizeof(chunk), MSG_DONTWAIT | MSG_NOSIGNAL);

			if (w > 0)
				sent += (unsigned long long)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				die("send");
		}
	}
	sample(fd, &n);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &cc_len) != 0)
		die("TCP_CONGESTION (get)");
	if (shutdown(fd, SHUT_WR) != 0)
		die("shutdown");
	/* the receiver closes once it has read everything */
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, 10000);

		if (r == 0) {
			fprintf(stderr, "send: the receiver did not close within 10 s\n");
			return 1;
		}
		if (r < 0 && errno != EINTR)
			die("poll");
		if (r > 0 && recv(fd, chunk, sizeof(chunk), 0) <= 0)
			break;
	}
	for (k = 0; k < n; k++)
		printf("s %u %u %u %u %u\n", samples[k].ca_state, samples[k].cwnd,
		       samples[k].ssthresh, samples[k].delivered, samples[k].total_retrans);
	printf("cc %s\nsent %llu\n", cc, sent);
	return fclose(stdout) == 0 ? 0 : 1;
}
