/*
 * bench_util.h - what the sampling benches (bench_sample.c, bench_compact.c)
 * share: the clock they time with, their random times, and the sort behind
 * their medians.
 */
#ifndef ANIMC_BENCH_UTIL_H
#define ANIMC_BENCH_UTIL_H

#include <stdint.h>
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

#endif
