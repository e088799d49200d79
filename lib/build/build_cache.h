/*
 * build_cache.h - the shared cache in front of the compiles: looks sources
 * up before they go to a worker, and stores what compiled (build_cache.c).
 */
#ifndef ANIMC_BUILD_BUILD_CACHE_H
#define ANIMC_BUILD_BUILD_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "plan.h"

typedef struct build_ctx build_ctx;

typedef enum build_cache_verdict {
	CACHE_COMPILE,  /* compile it (a miss, no cache, or no answer in time) */
	CACHE_DONE,     /* a hit: its result is in place, nothing to compile */
	CACHE_WAIT      /* ask again within *wait_s */
} build_cache_verdict;

/* Open the cache of --cache-url/--cache-dir (none: nothing to do), as early
 * as can be: it loads libcurl meanwhile.  False (said) on failure. */
bool build_cache_start(build_ctx *ctx);
/* Before the first compile: the key's shared part (the --skeleton model's
 * bytes join it). */
bool build_cache_open(build_ctx *ctx, const uint8_t *model, size_t model_size);
/* Whether a source is cheaper to compile than to fetch: one of animc's own
 * readers (no isolated import) claims it, by its name or its content, and
 * it is smaller than --cache-min-size.  Such a source is neither looked up
 * nor stored.  May read the first bytes of the file; called by the plan's
 * check, on its threads, with a cache set up. */
bool build_cache_skips(const build_options *o, const build_job *j);
/* Look up the sources of order[] up to a little past `next`. */
void build_cache_ahead(build_ctx *ctx, const size_t *order, size_t count, size_t next);
/* Before job i goes to a worker.  While its lookup is under way: with a
 * worker free (`is_worker_free`), CACHE_WAIT for as long as patience
 * allows (*wait_s lowered), then CACHE_COMPILE; with none free, CACHE_WAIT
 * and patience not yet spent. */
build_cache_verdict build_cache_check(build_ctx *ctx, size_t i, bool is_worker_free, double *wait_s);
/* Readable when a lookup has come back (-1: no cache). */
int build_cache_fd(build_ctx *ctx);
/* After job i compiled: store its result. */
void build_cache_store(build_ctx *ctx, size_t i);
/* At the end: wait a little for stores, then stop (stats kept in ctx). */
void build_cache_close(build_ctx *ctx, double build_s);

#endif
