/*
 * clock.h - CLOCK_MONOTONIC, for durations and deadlines (never written
 * into an output: the same input gives the same bytes).
 */
#ifndef ANIMC_BUILD_CLOCK_H
#define ANIMC_BUILD_CLOCK_H

#include <stdint.h>

/* Nanoseconds on the monotonic clock (comparable across processes). */
int64_t build_now_ns(void);
/* Seconds on the monotonic clock. */
double build_now_s(void);

/* Count the times the process is continued after a stop (SIGCONT: Ctrl-Z
 * then fg), from now on.  The monotonic clock runs on while a build is
 * stopped, and a deadline set before the stop would fail a compile that
 * was stopped rather than slow: a deadline starts again when this count
 * moves. */
void build_clock_watch_stops(void);
/* How many times the process was continued since build_clock_watch_stops. */
unsigned build_clock_resumes(void);

#endif
