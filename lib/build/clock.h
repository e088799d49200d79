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

#endif
