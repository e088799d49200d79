/*
 * bench_util.h - what the sampling benches (bench_sample.c, bench_compact.c)
 * share: the clock they time with, their random times, and the sort behind
 * their medians.
 */
#ifndef ANIMC_BENCH_UTIL_H
#define ANIMC_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* The thread's CPU time: on a machine shared with other work, time spent
 * descheduled is not the code's. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64* in [0, 1): reproducible, no libc state. */
static inline double rng_unit(void)
{
	static uint64_t state = 0x9E3779B97F4A7C15u;

	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return (double)((state * 0x2545F4914F6CDD1Du) >> 11) / 9007199254740992.0;
}

static inline int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Runs of each contender behind a median. */
#define BENCH_RUNS 31

/*
 * Time pass(who, mode, rounds) for each of `contenders` contenders in two
 * modes (0 random times, 1 playback): first the rounds that make a pass of
 * about 10 ms, per contender and mode; then BENCH_RUNS runs of each,
 * contenders interleaved with a rotating start, in thread CPU time.  The
 * median of each, in ns per bone over `bones` bones a round, goes to
 * median[2 * who + mode].  Returns false when out of memory.
 */
static inline int bench_medians(void (*pass)(int who, int mode, size_t rounds), int contenders, size_t bones,
				double *median)
{
	double *ns = (double *)malloc(sizeof(double) * BENCH_RUNS * 2 * (size_t)contenders);
	size_t *rounds = (size_t *)malloc(sizeof(size_t) * 2 * (size_t)contenders);

	if (!ns || !rounds) {
		free(ns);
		free(rounds);
		return 0;
	}
	for (int i = 0; i < 2 * contenders; i++) {
		size_t r = 4;

		for (;;) {
			double t0 = now_s();

			pass(i / 2, i % 2, r);
			if (now_s() - t0 >= 0.005)
				break;
			r *= 2;
		}
		rounds[i] = r * 2;
	}
	for (int run = 0; run < BENCH_RUNS; run++)
		for (int m = 0; m < 2; m++)
			for (int j = 0; j < contenders; j++) {
				int i = 2 * ((j + run) % contenders) + m;
				double t0 = now_s();

				pass(i / 2, m, rounds[i]);
				ns[i * BENCH_RUNS + run] = (now_s() - t0) * 1e9 / ((double)rounds[i] * (double)bones);
			}
	for (int i = 0; i < 2 * contenders; i++) {
		qsort(ns + i * BENCH_RUNS, BENCH_RUNS, sizeof *ns, compare_doubles);
		median[i] = ns[i * BENCH_RUNS + BENCH_RUNS / 2];
	}
	free(ns);
	free(rounds);
	return 1;
}

#endif
