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
	build_status_sink *status; /* what the user reads passes through it */
	build_plan plan;
	cli_strings plan_notes;    /* folders reached again through a link (-v) */
	cli_strings takeovers_said; /* outputs a save found another build wrote too */
	manifest old;              /* what the last run wrote (empty when none) */
	bool has_old;
	build_hash options_key;    /* build_key_options() of this run */
	/* What every key of this run shares: options_key and the skeleton
	 * model's hash.  Each manifest entry records the one it was made
	 * under: an entry made under other options is never up to date. */
	build_hash run_key;
	bool has_skeleton_state;
	build_dep skeleton;        /* the --skeleton model: path, state, hash */
	/* The model's bytes when skeleton_state read them to hash them (its
	 * state changed), for prepare_compile to key and load: read once. */
	uint8_t *skeleton_bytes;
	size_t skeleton_size;
	bool has_skeleton_bytes;
	/* The --mgcb project's files, which every item depends on, read and
	 * hashed once before the first compile (those that could be read). */
	build_dep *project_deps;
	size_t project_dep_count;
	animc_skeleton skeleton_model;
	bool skeleton_loaded;
	/* The files loading the model read beside it, and those it looked
	 * for there and did not find: every source depends on them. */
	cli_strings skeleton_reads, skeleton_absent;
	XXH3_state_t *key_prefix;  /* build_key_prefix(), for workers to copy */
	double start_wall_s;       /* CLOCK_REALTIME at start, for racy mtimes */
	volatile int *stop_signal; /* set by SIGINT/SIGTERM/SIGHUP handlers */
	int lock_fd;               /* OUTDIR/.animc/lock, held shared for the run; -1 */
	/* OUTDIR/.animc, opened without following a symbolic link in its
	 * place, when has_state_dir: each state file (the lock, the markers,
	 * the journal, the manifest) is made, read, renamed and removed in
	 * it through this descriptor (build_state_at), so that a link put
	 * in the folder's place after a check leads nowhere. */
	int state_fd;
	bool has_state_dir;
	bool left_temps;           /* a worker died, or a file could not be removed: a
				    * temporary file may be left, to sweep */
	/* Why the run ends before its jobs are done, a signal aside (a string
	 * literal: "reading the workers' results"); NULL: it does not.  Once
	 * set, nothing more is committed and the build fails, saying so. */
	const char *run_failure;
	bool is_out_of_memory;     /* run_failure is where this process ran out of memory */
	/* A --report, --junit or --depfile file the walk found to be a source
	 * (an importer claims it): the run stops, writing nothing over it. */
	const char *report_over_source;
	bool has_saved;            /* `saved` is the hash of what this run last wrote */
	build_hash saved;
	/* What this run last wrote took in other builds' entries, which its own
	 * view (commit.next) does not hold: the next save merges again. */
	bool saved_merged;
	/* This run said it waits for another build saving the manifest (said
	 * once a run, as the wait for OUTDIR's lock is). */
	bool said_save_wait;
	/* The shared cache, a stage in front of the runner; NULL when none. */
	build_cache_stage *cache;
	/* Told which importer a compile uses, once it is known (workers pass
	 * it on, for the messages about a worker that crashed). */
	void (*on_probe)(void *user, const char *importer);
	void *on_probe_user;
	/* Told that the import returned: what runs now is animc's passes. */
	void (*on_imported)(void *user);
	/* Told that the compile is done, before --warnings-as-errors judges
	 * it: a worker adds what the importer printed, as warnings. */
	void (*on_compiled)(void *user, build_result *r);
};

/* What a run is given, after ninja's Builder: who compiles, and who
 * prints.  Zeroed, or NULL: the runner of build_engine_runner and the
 * status sink the options and command ask for (status.h). */
typedef struct build_engine_deps {
	build_runner *(*make_runner)(void *user, build_ctx *ctx, size_t count, const build_run_hooks *hooks);
	void *user;
	build_status_sink *status;
} build_engine_deps;

/* Run `command` with the options parsed from its argv (owned by the
 * caller): lock OUTDIR, plan, compile, commit, report.  Returns the exit
 * status (ANIMC_EXIT_*), or, stopped by a signal, raises it again. */
int build_engine_run(build_command command, build_options *o);
/* The run cannot go on (`what` went wrong, a string literal): it ends,
 * failed (ctx->run_failure; the first reason is kept).  _out_of_memory:
 * this process ran out of memory doing `what`. */
void build_run_fail(build_ctx *ctx, const char *what);
/* What the run grows the tables that grow with it through (the claims of
 * outputs, the buffers of the workers' results): realloc, unless a test
 * has it fail, as it does when this process is out of memory. */
extern void *(*build_run_realloc)(void *ptr, size_t size);
void build_run_out_of_memory(build_ctx *ctx, const char *what);
int build_engine_run_with(build_command command, build_options *o, const build_engine_deps *deps);
/* Who holds the lock on the file open at fd alone, from /proc/locks:
 * "process N (command)" into `who`; empty when it cannot be told. */
void build_lock_holder(int fd, char *who, size_t size);
/* The index of an input of o that is not there and holds the output
 * folder, as the system reaches the two (`-o art/out art` with no `art`):
 * making OUTDIR would make the input again.  -1 when none, when OUTDIR is
 * there, or with --base (whose inputs may name deleted files). */
long build_gone_input_holding_out_dir(const build_options *o);
/* Before the first compile: the --mgcb project's files read and hashed
 * into ctx->project_deps, once for all its items.  build_project_dep: the
 * record (path, state, hash) taken of `path`, or NULL when `path` is no
 * project file or could not be read. */
void build_take_project_deps(build_ctx *ctx);
const build_dep *build_project_dep(const build_ctx *ctx, const char *path);
/* The runner a run uses for its `count` jobs: in this process for a single
 * source animc's own readers read, else the worker pool (behind the
 * cache's fork guard). */
build_runner *build_engine_runner(void *user, build_ctx *ctx, size_t count, const build_run_hooks *hooks);
/* Where the state file `path` (OUTDIR/.animc/NAME) is reached: the
 * folder's descriptor, with *name its NAME, once the run opened it
 * (ctx->has_state_dir); else AT_FDCWD, with *name `path`.  For the *at()
 * calls: openat(build_state_at(ctx, path, &name), name, ...). */
int build_state_at(const build_ctx *ctx, const char *path, const char **name);

#endif
