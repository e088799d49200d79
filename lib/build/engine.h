/*
 * engine.h - the build engine behind `animc build`, `animc outputs` and
 * `animc clean`, in stages that each do one thing, each with its header:
 *   plan     inputs -> jobs (plan.h), checked against the manifest
 *            (manifest.h) by the source key (key.h);
 *   compile  one job -> one result (compile.h, result.h), run by a runner
 *            (runner.h) behind the shared cache (build_cache.h);
 *   commit   results in job order: output claims, atomic writes, the
 *            manifest (commit.h);
 *   report   what a user reads (status.h) and the files for tools (report.h).
 * build_ctx is the state a run shares between them; build_engine_run runs
 * a whole command (engine.c).
 */
#ifndef ANIMC_BUILD_ENGINE_H
#define ANIMC_BUILD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xxhash.h>

#include "build_cache.h"
#include "cache.h"
#include "cli.h"
#include "clock.h"
#include "commit.h"
#include "compile.h"
#include "key.h"
#include "manifest.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "result.h"
#include "runner.h"
#include "status.h"

/* The state a run shares between stages. */
struct build_ctx {
	build_options *options;
	build_command command;
	cli_diag_printer printer;
	build_plan plan;
	cli_strings plan_notes;    /* folders reached again through a link (-v) */
	manifest old;              /* what the last run wrote (empty when none) */
	bool has_old;
	build_hash options_key;    /* build_key_options() of this run */
	/* What every key of this run shares: options_key and the skeleton
	 * model's hash.  Each manifest entry records the one it was made
	 * under: an entry made under other options is never up to date. */
	build_hash run_key;
	bool has_skeleton_state;
	build_dep skeleton;        /* the --skeleton model: path, state, hash */
	animc_skeleton skeleton_model;
	bool skeleton_loaded;
	XXH3_state_t *key_prefix;  /* build_key_prefix(), for workers to copy */
	double start_wall_s;       /* CLOCK_REALTIME at start, for racy mtimes */
	volatile int *stop_signal; /* set by SIGINT/SIGTERM/SIGHUP handlers */
	int lock_fd;               /* OUTDIR/.animc/lock, held shared for the run; -1 */
	bool lost_workers;         /* a worker died: it may have left a temporary file */
	bool has_saved;            /* `saved` is the hash of what this run last wrote */
	build_hash saved;
	/* The shared cache (build_cache.c); NULL when none. */
	cli_cache *cache;
	uint8_t *cache_prefix;     /* the cache key's shared part */
	size_t cache_prefix_size;
	double *cache_asked_s;     /* per job: when its lookup went out; 0: none pending */
	size_t cache_ahead;        /* dispatch order: looked up so far */
	double compile_s_sum;      /* compiles of this run, for how long to wait */
	unsigned compile_count;
	unsigned cache_hits, cache_misses;  /* answers taken so far */
	double cache_first_s;      /* when the first lookup went out */
	size_t cache_waiting_job;  /* a free worker waits for its lookup ... */
	double cache_waiting_since_s;  /* ... since then (0: none) */
	cli_cache_stats cache_stats;
	/* Told which importer a compile uses, once it is known (workers pass
	 * it on, for the messages about a worker that crashed). */
	void (*on_probe)(void *user, const char *importer);
	void *on_probe_user;
};

/* Run `command` with the options parsed from its argv (owned by the
 * caller): lock OUTDIR, plan, compile, commit, report.  Returns the exit
 * status (ANIMC_EXIT_*), or, stopped by a signal, raises it again. */
int build_engine_run(build_command command, build_options *o);

#endif
