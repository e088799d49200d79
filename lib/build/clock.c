/*
 * clock.c - the one monotonic clock of the engine and the cache.
 */
#include <signal.h>
#include <string.h>
#include <time.h>

#include "clock.h"

int64_t build_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double build_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t resumes;

static void on_continue(int sig)
{
	(void)sig;
	resumes++;
}

void build_clock_watch_stops(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_continue;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCONT, &sa, NULL);
}

unsigned build_clock_resumes(void)
{
	return (unsigned)resumes;
}
