/*
 * build_cache.h - the shared cache as a stage in front of the runner
 * (build_cache.c): sources are looked up a little ahead of the workers, a
 * hit becomes the job's result with no import, and what compiled is
 * stored.  Its state is its own (build_cache_stage); the scheduler sees it
 * only as a gate (runner.h).
 */
#ifndef ANIMC_BUILD_BUILD_CACHE_H
#define ANIMC_BUILD_BUILD_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "plan.h"
#include "runner.h"

typedef struct build_ctx build_ctx;
typedef struct build_cache_stage build_cache_stage;

/* Open the cache of --cache-url/--cache-dir into ctx->cache (none: nothing
 * to do), as early as can be: it loads libcurl meanwhile.  False (said) on
 * failure. */
bool build_cache_start(build_ctx *ctx);
/* Before the first compile: the key's shared part (the --skeleton model's
 * bytes join it). */
bool build_cache_open(build_ctx *ctx, const uint8_t *model, size_t model_size);
/* Whether a file stays out of the cache: no importer claims it (the
 * compile skips it), or it is cheaper to compile than to fetch (one of
 * animc's own readers, no isolated import, claims it by its name or its
 * content, and it is smaller than --cache-min-size).  Such a file is
 * neither keyed, looked up nor stored.  May read the first bytes of the
 * file; called by the plan's check, on its threads, with a cache set up. */
bool build_cache_skips(const build_options *o, const build_job *j);
/* The stage as the scheduler's gate, and the guard the worker pool takes
 * around fork(); false (nothing filled) when there is no cache. */
bool build_cache_gate(build_ctx *ctx, build_gate *gate, build_fork_guard *guard);
/* After job i compiled: store its result. */
void build_cache_store(build_ctx *ctx, size_t i);
/* At the end: wait a little for stores, then stop; ctx->cache is NULL after. */
void build_cache_close(build_ctx *ctx, double build_s);

#endif
