/*
 * runner.h - who compiles the jobs of a plan, and in what order.
 *
 * The scheduler (scheduler.c) decides what runs: the jobs that need a
 * compile, in dispatch order, each first through an optional gate (a stage
 * in front of the runner that may settle a job itself, or hold it back a
 * while: the shared cache is one, build_cache.h).  It hands jobs to a
 * runner and hears back, through build_run_hooks, which are done.  It knows
 * no cache, no terminal and no process.
 *
 * A runner compiles the jobs it is given (build_compile, then, for
 * `animc build`, build_stage_outputs) into their results and marks them
 * done.  Three exist:
 *   - the worker-process pool (workers.c): long-lived forked workers, for
 *     readers that may crash, loop or run out of memory;
 *   - in-process (runner_local.c): one job at a time in this process, for a
 *     single source that animc's own readers read;
 *   - the tests' fake (lib/build/engine_test.c): results made up on demand.
 */
#ifndef ANIMC_BUILD_RUNNER_H
#define ANIMC_BUILD_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct build_ctx build_ctx;

/* What a runner and the scheduler tell the engine: on_done once per job
 * whose result is in place (in no particular order), on_tick now and then
 * (for progress). */
typedef struct build_run_hooks {
	void (*on_done)(void *user, size_t job);
	void (*on_tick)(void *user);
	void *user;
} build_run_hooks;

typedef struct build_runner build_runner;

typedef struct build_runner_ops {
	/* Take job `job`: it compiles now or once a worker is free.  A runner
	 * may compile it at once and call on_done before returning. */
	void (*start)(build_runner *r, size_t job);
	/* Whether a job started now would find a worker free. */
	bool (*is_free)(build_runner *r);
	/* Jobs started and not yet done. */
	size_t (*pending)(build_runner *r);
	/* Get the jobs started going, then wait up to `wait_s` for results
	 * (or for `wake_fd` to become readable; -1: none), passing each done
	 * job to on_done.  `is_all_started`: no more jobs come, results may
	 * be taken in batches.  False when waiting failed (the run ends). */
	bool (*wait)(build_runner *r, double wait_s, int wake_fd, bool is_all_started);
	/* Before jobs that no gate holds back: have `count` workers ready. */
	void (*warm)(build_runner *r, unsigned count);
	/* For the progress line: when each job at hand started, and with what. */
	void (*note_at_hand)(build_runner *r);
	/* End: stop what runs (is_stopped: a signal came) or let the workers
	 * finish, and free the runner. */
	void (*destroy)(build_runner *r, bool is_stopped);
} build_runner_ops;

struct build_runner {
	const build_runner_ops *ops;
	build_ctx *ctx;
	const build_run_hooks *hooks;
};

/* Mark job `job` done (its result in place) and tell the hooks. */
void build_runner_done(build_runner *r, size_t job);

/* Called around fork() by the pool: a thread that must not be inside a
 * lock when the process forks is parked there (the cache's). */
typedef struct build_fork_guard {
	void (*before)(void *user);
	void (*after)(void *user);
	void *user;
} build_fork_guard;

/* The worker-process pool: `workers` processes (at most `jobs` of them),
 * forked as jobs come; NULL when its shared memory cannot be made.
 * `guard` may be NULL. */
build_runner *build_pool_runner_create(build_ctx *ctx, unsigned workers, size_t jobs,
				       const build_fork_guard *guard, const build_run_hooks *hooks);
/* Compiles each job in this process as it is started. */
build_runner *build_local_runner_create(build_ctx *ctx, const build_run_hooks *hooks);
/* Whether a job's importer needs no process of its own (animc's readers):
 * may read the first bytes of its source. */
bool build_job_is_safe_in_process(build_ctx *ctx, size_t job);

/* ---------------------------------------------------------- the scheduler */

typedef enum build_gate_verdict {
	BUILD_GATE_RUN,    /* give it to the runner */
	BUILD_GATE_DONE,   /* settled by the gate: its result is in place */
	BUILD_GATE_WAIT    /* ask again within *wait_s */
} build_gate_verdict;

/* A stage in front of the runner, with its own state. */
typedef struct build_gate {
	/* The jobs of order[0..count) from `next` on are coming: ask ahead. */
	void (*ahead)(void *state, const size_t *order, size_t count, size_t next);
	/* Before job `job` goes to the runner.  `is_runner_free`: a worker
	 * would take it at once (so waiting costs one). */
	build_gate_verdict (*check)(void *state, size_t job, bool is_runner_free, double *wait_s);
	/* Readable when a check may have a new answer (-1: none). */
	int (*fd)(void *state);
	/* Whether the gate lets job `job` through without asking anything. */
	bool (*is_bypassed)(void *state, size_t job);
	void *state;
} build_gate;

/* The jobs the scheduler will dispatch: those needing a compile, not done. */
size_t build_schedule_count(const build_ctx *ctx);

/* Compile every job with needs_compile through `gate` (may be NULL) and
 * `runner`.  Jobs that took long last time, or are large, go first.
 * Returns false when a signal stopped it (*ctx->stop_signal) or the run
 * cannot go on (ctx->run_failure: memory ran out, a wait failed). */
bool build_schedule(build_ctx *ctx, build_runner *runner, const build_gate *gate,
		    const build_run_hooks *hooks);

#endif
