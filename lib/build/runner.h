/*
 * runner.h - runs the compiles of a plan (workers.c).
 */
#ifndef ANIMC_BUILD_RUNNER_H
#define ANIMC_BUILD_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct build_ctx build_ctx;

/* Compile every job with needs_compile in `workers` processes, calling
 * on_done in no particular order as results arrive, and on_tick now and
 * then (for progress).  Returns false when it was stopped by a signal. */
typedef struct build_run_hooks {
	void (*on_done)(void *user, size_t job);
	void (*on_tick)(void *user);
	void *user;
} build_run_hooks;

bool build_run(build_ctx *ctx, unsigned workers, const build_run_hooks *hooks);

#endif
