/*
 * engine.c - runs `animc build`, `animc outputs` and `animc clean` once
 * their options are parsed: takes the lock on OUTDIR, reads the manifest,
 * and runs the stages of engine.h (plan, compile, commit in job order,
 * report).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"

static volatile int stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

typedef struct run_state {
	build_ctx *ctx;
	build_commit commit;
	build_status_line status;
	char *manifest_path;
	double last_save_s;
	bool is_outputs;
} run_state;

/* Save what is known so far: the jobs committed, and for the others what
 * the last run recorded (still true: nothing of theirs was written yet).
 * A build killed after this rebuilds only what it had not committed. */
static void save_checkpoint(run_state *rs)
{
	build_ctx *ctx = rs->ctx;
	manifest view = rs->commit.next;
	manifest_entry *entries;
	size_t n = rs->commit.next.count;
	char *data, why[512];
	size_t size;

	entries = malloc((rs->commit.next.count + ctx->old.count + 1) * sizeof *entries);
	if (!entries)
		return;
	memcpy(entries, rs->commit.next.entries, n * sizeof *entries);
	for (size_t i = 0; i < ctx->old.count; i++)
		if (!manifest_find(&rs->commit.next, ctx->old.entries[i].source))
			entries[n++] = ctx->old.entries[i];
	view.entries = entries;
	view.count = n;
	view.orphans = ctx->old.orphans;
	view.orphan_count = ctx->old.orphan_count;
	(void)data, (void)size;
	view.index = NULL;
	view.index_size = 0;
	view.loaded_hash_known = false;
	/* Found by source when merging with a build running beside this one. */
	{
		manifest lookup = { 0 };

		for (size_t i = 0; i < n && lookup.count == i; i++)
			if (!manifest_add(&lookup, &entries[i]))
				break;
		if (lookup.count == n) {
			view.index = lookup.index;
			view.index_size = lookup.index_size;
		}
		build_manifest_save(ctx, &view, &rs->commit.pruned_sources, rs->manifest_path, why, sizeof why);
		free(lookup.entries);
		free(lookup.index);
	}
	free(entries);
}

/* Commit every job that is done, in order, printing as each goes. */
static void commit_ready(run_state *rs)
{
	build_plan *plan = &rs->ctx->plan;

	while (rs->commit.committed < plan->count && plan->jobs[rs->commit.committed].is_done) {
		size_t i = rs->commit.committed;

		build_commit_job(&rs->commit, i);
		if (rs->is_outputs) {
			const build_job *j = &plan->jobs[i];

			for (uint32_t d = 0; d < j->result.diag_count; d++)
				if (j->result.diags[d].severity != ANIMC_NOTE || rs->ctx->options->verbose) {
					const build_diag *bd = &j->result.diags[d];
					animc_diag diag = { bd->severity, j->path, bd->line, bd->column,
							    bd->byte_offset, bd->message };

					cli_print_diag(&rs->ctx->printer, &diag);
				}
			for (uint32_t k = 0; k < j->result.output_count; k++) {
				const build_output *o = &j->result.outputs[k];
				char *path;

				if (o->is_refused)
					continue;
				path = build_output_path(rs->ctx, j, o);
				if (path) {
					fputs(path, stdout);
					fputc('\n', stdout);
				}
				free(path);
			}
		} else {
			build_status_print_job(&rs->status, i);
		}
	}
	if (!rs->is_outputs && rs->commit.committed && build_now_s() - rs->last_save_s > 2.0) {
		save_checkpoint(rs);
		rs->last_save_s = build_now_s();
	}
}

static void hook_done(void *user, size_t job)
{
	run_state *rs = user;

	/* Before commit renames its staged outputs. */
	build_cache_store(rs->ctx, job);
	build_status_job_done(&rs->status);
	commit_ready(rs);
}

static void hook_tick(void *user)
{
	run_state *rs = user;

	build_status_tick(&rs->status);
}

/*
 * OUTDIR/.animc/lock: every build holds it shared for its whole run, so
 * builds (per-file make and ninja rules) run side by side; `clean` needs it
 * alone, and so does removing what killed runs left (a build that finds
 * itself alone does that first).  Each build marks itself running with
 * .animc/running.<pid> until it ends cleanly.  Returns the descriptor, or
 * -1 (said); *alone says whether no other build runs.
 */
static int take_lock(const char *out_dir, bool for_clean, bool *alone)
{
	char *dir = cli_path_join(out_dir, MANIFEST_DIR, NULL);
	char *path = cli_path_join(out_dir, MANIFEST_DIR "/lock", NULL);
	char why[512];
	int fd = -1;

	*alone = false;
	if (!dir || !path || !cli_mkdir_p(dir, why, sizeof why)) {
		fprintf(stderr, "%s: error: %s\n", dir ? dir : out_dir, dir && path ? why : "out of memory");
	} else if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0) {
		fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
	} else if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		*alone = true;
	} else if (for_clean) {
		fprintf(stderr, "%s: error: a build is writing this folder; clean it when it ends\n", out_dir);
		close(fd);
		fd = -1;
	} else {
		while (flock(fd, LOCK_SH) != 0 && errno == EINTR)
			;
	}
	free(dir);
	free(path);
	return fd;
}

/* With the lock alone: the markers of runs that did not end cleanly mean
 * temporary files may be left; remove those and the markers. */
static void sweep_if_interrupted(const char *out_dir, bool verbose)
{
	char *dir = cli_path_join(out_dir, MANIFEST_DIR, NULL);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	bool any = false;

	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, "running", 7) == 0) {
			char *marker = cli_path_join(dir, e->d_name, NULL);

			if (marker)
				unlink(marker);
			free(marker);
			any = true;
		}
	if (d)
		closedir(d);
	free(dir);
	if (any) {
		unsigned swept = build_sweep_temps(out_dir);

		if (swept && verbose)
			printf("removed %u temporary file%s of an interrupted build\n", swept,
			       swept == 1 ? "" : "s");
	}
}

/* Sweep after this run's own losses (a worker killed mid-write), when no
 * other build runs; otherwise leave the marker for the next one alone. */
static bool sweep_own(int lock_fd, const char *out_dir)
{
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0)
		return false;
	build_sweep_temps(out_dir);
	flock(lock_fd, LOCK_SH);
	return true;
}

/* The manifest is read and parsed on a thread of its own while the plan
 * walks the inputs: neither needs the other until the check. */
typedef struct manifest_loader {
	manifest *m;
	const char *path;
	manifest_load_status status;
	char why[512];
	pthread_t thread;
	bool is_threaded;
} manifest_loader;

static void *load_manifest(void *arg)
{
	manifest_loader *l = arg;

	l->status = manifest_load(l->m, l->path, l->why, sizeof l->why);
	return NULL;
}

static void manifest_loader_start(manifest_loader *l, manifest *m, const char *path)
{
	l->m = m;
	l->path = path;
	l->is_threaded = pthread_create(&l->thread, NULL, load_manifest, l) == 0;
	if (!l->is_threaded)
		load_manifest(l);
}

static manifest_load_status manifest_loader_finish(manifest_loader *l)
{
	if (l->is_threaded)
		pthread_join(l->thread, NULL);
	l->is_threaded = false;
	return l->status;
}

static void options_key(const build_options *o, build_hash *out)
{
	XXH3_state_t *state = XXH3_createState();

	memset(out, 0, sizeof *out);
	if (!state)
		return;
	XXH3_128bits_reset(state);
	build_key_options(o, build_key_emit_xxh3, state);
	build_hash_from_state(state, out);
	XXH3_freeState(state);
}

/* The --skeleton model's state and hash (the manifest's, when the file is
 * unchanged).  False (said) when it cannot be read. */
static bool skeleton_state(build_ctx *ctx)
{
	const char *path = ctx->options->skeleton_path;
	struct stat st;
	char why[512];

	ctx->skeleton.path = strdup(path);
	if (!ctx->skeleton.path || stat(path, &st) != 0) {
		fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
		return false;
	}
	build_file_state_from(&st, &ctx->skeleton.state);
	if (ctx->has_old && ctx->old.has_skeleton && strcmp(ctx->old.skeleton.path, path) == 0 &&
	    build_file_state_equal(&ctx->old.skeleton.state, &ctx->skeleton.state)) {
		ctx->skeleton.hash = ctx->old.skeleton.hash;
	} else if (!build_hash_file(path, &ctx->skeleton.hash, why, sizeof why)) {
		fprintf(stderr, "%s: error: %s\n", path, why);
		return false;
	}
	build_file_state_distrust_recent(&ctx->skeleton.state);
	ctx->has_skeleton_state = true;
	return true;
}

/* Before the first compile: the model loaded, the key's shared part hashed. */
static bool prepare_compile(build_ctx *ctx)
{
	const build_options *o = ctx->options;
	uint8_t *model = NULL;
	size_t model_size = 0;
	char why[512];

	if (o->skeleton_path) {
		animc_diag_sink sink = { cli_print_diag, &ctx->printer, o->skeleton_path, 0, 0 };

		if (!cli_read_file(o->skeleton_path, &model, &model_size, why, sizeof why)) {
			fprintf(stderr, "%s: error: %s\n", o->skeleton_path, why);
			return false;
		}
		if (animc_skeleton_load(o->skeleton_path, &ctx->skeleton_model, &sink) != ANIMC_OK) {
			free(model);
			return false;
		}
		ctx->skeleton_loaded = true;
		ctx->options->import.skeleton = &ctx->skeleton_model;
		/* The lossy passes measure the error on the model's shell. */
		ctx->options->process.reduce.skeleton = &ctx->skeleton_model;
	}
	ctx->key_prefix = XXH3_createState();
	if (!ctx->key_prefix) {
		free(model);
		return false;
	}
	XXH3_128bits_reset(ctx->key_prefix);
	build_key_prefix(o, model, model_size, build_key_emit_xxh3, ctx->key_prefix);
	if (ctx->command == CMD_BUILD && !build_cache_open(ctx, model, model_size)) {
		free(model);
		return false;
	}
	free(model);
	return true;
}

static void release_ctx(build_ctx *ctx)
{
	build_cache_close(ctx, 0);
	build_plan_release(&ctx->plan);
	cli_strings_release(&ctx->plan_notes);
	if (ctx->has_old)
		manifest_release(&ctx->old);
	free(ctx->skeleton.path);
	animc_skeleton_release(&ctx->skeleton_model);
	if (ctx->key_prefix)
		XXH3_freeState(ctx->key_prefix);
	if (ctx->lock_fd >= 0)
		close(ctx->lock_fd);
}

int build_engine_run(build_command command, build_options *o)
{
	build_ctx ctx;
	run_state rs;
	char why[512], *running = NULL;
	bool marked_running = false;
	build_totals totals;
	size_t to_compile = 0;
	int status = ANIMC_EXIT_OK;
	manifest_loader loader = { 0 };
	bool completed, plan_ok;

	memset(&ctx, 0, sizeof ctx);
	memset(&rs, 0, sizeof rs);
	ctx.options = o;
	ctx.command = command;
	ctx.printer.out = stderr;
	ctx.printer.show_notes = o->verbose;
	ctx.lock_fd = -1;
	ctx.stop_signal = &stop_signal;
	rs.ctx = &ctx;
	rs.is_outputs = command == CMD_OUTPUTS;
	rs.manifest_path = cli_path_join(o->out_dir, MANIFEST_FILE, NULL);
	{
		char name[64];

		snprintf(name, sizeof name, MANIFEST_DIR "/running.%ld", (long)getpid());
		running = cli_path_join(o->out_dir, name, NULL);
	}
	if (!rs.manifest_path || !running) {
		status = ANIMC_EXIT_FAILED;
		goto out;
	}
	if (command == CMD_CLEAN) {
		struct stat st;

		if (stat(o->out_dir, &st) != 0) {
			fprintf(stderr, "%s: warning: no such folder; nothing to clean\n", o->out_dir);
			goto out;
		}
		bool alone;

		ctx.lock_fd = take_lock(o->out_dir, true, &alone);
		status = ctx.lock_fd < 0 ? ANIMC_EXIT_FAILED : build_clean(&ctx);
		goto out;
	}
	if (command == CMD_BUILD) {
		/* First: a cache URL or folder that cannot be used is said
		 * before any work. */
		if (!build_cache_start(&ctx)) {
			status = ANIMC_EXIT_FAILED;
			goto out;
		}
		if (!cli_mkdir_p(o->out_dir, why, sizeof why)) {
			fprintf(stderr, "%s: error: %s\n", o->out_dir, why);
			status = ANIMC_EXIT_FAILED;
			goto out;
		}
		bool alone;

		ctx.lock_fd = take_lock(o->out_dir, false, &alone);
		if (ctx.lock_fd < 0) {
			status = ANIMC_EXIT_FAILED;
			goto out;
		}
		if (alone) {
			sweep_if_interrupted(o->out_dir, o->verbose);
			flock(ctx.lock_fd, LOCK_SH);
		}
		{
			int fd = open(running, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

			if (fd >= 0)
				close(fd);
			marked_running = fd >= 0;
		}
	}
	/* Loaded with --rebuild too: what earlier runs wrote stays tracked. */
	manifest_loader_start(&loader, &ctx.old, rs.manifest_path);
	options_key(o, &ctx.options_key);
	plan_ok = build_plan_make(&ctx);
	switch (manifest_loader_finish(&loader)) {
	case MANIFEST_LOADED:
		ctx.has_old = true;
		break;
	case MANIFEST_ABSENT:
		break;
	default:
		fprintf(stderr, "%s: warning: %s; compiling every source\n", rs.manifest_path, loader.why);
		break;
	}
	if (!plan_ok) {
		status = ANIMC_EXIT_FAILED;
		goto out;
	}
	if (o->skeleton_path && !skeleton_state(&ctx)) {
		status = ANIMC_EXIT_FAILED;
		goto out;
	}
	{
		uint8_t shared[33];

		memcpy(shared, ctx.options_key.bytes, 16);
		memcpy(shared + 16, ctx.skeleton.hash.bytes, 16);
		shared[32] = o->skeleton_path != NULL;
		build_hash_bytes(shared, sizeof shared, &ctx.run_key);
	}
	for (size_t i = 0; i < ctx.plan_notes.count; i++) {
		fputs("skipped folder ", stdout);
		cli_print_escaped(stdout, ctx.plan_notes.items[i], 0);
		fputs(" (walked already through another path)\n", stdout);
	}
	build_plan_shard(&ctx);
	build_plan_check(&ctx);
	for (size_t i = 0; i < ctx.plan.count; i++)
		to_compile += ctx.plan.jobs[i].needs_compile;
	if (to_compile && !prepare_compile(&ctx)) {
		status = ANIMC_EXIT_FAILED;
		goto out;
	}
	if (command == CMD_BUILD) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_stop;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}
	if (!build_commit_init(&rs.commit, &ctx, command == CMD_OUTPUTS)) {
		status = ANIMC_EXIT_FAILED;
		goto out;
	}
	build_status_init(&rs.status, &ctx, to_compile);
	rs.last_save_s = build_now_s();
	commit_ready(&rs);
	{
		build_run_hooks hooks = { hook_done, hook_tick, &rs };

		completed = build_run(&ctx, o->jobs, &hooks);
	}
	commit_ready(&rs);
	build_cache_close(&ctx, build_now_s() - rs.status.start_s);
	if (!completed || stop_signal) {
		int sig = stop_signal ? stop_signal : SIGTERM;

		build_status_clear(&rs.status);
		if (command == CMD_BUILD) {
			/* Nothing half-done stays: staged files of results not
			 * committed, and what the stopped workers were writing. */
			build_unstage(&ctx, rs.commit.committed);
			save_checkpoint(&rs);
			if (sweep_own(ctx.lock_fd, o->out_dir))
				unlink(running);
		}
		build_commit_release(&rs.commit);
		release_ctx(&ctx);
		free(rs.manifest_path);
		free(running);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	build_commit_finish(&rs.commit);
	if (command == CMD_BUILD) {
		unsigned stale = rs.commit.stale;

		if (rs.commit.dirty &&
		    !build_manifest_save(&ctx, &rs.commit.next, &rs.commit.pruned_sources, rs.manifest_path,
					 why, sizeof why))
			fprintf(stderr, "%s: warning: %s; the next build compiles every source\n",
				rs.manifest_path, why);
		build_totals_count(&ctx.plan, &totals);
		if (o->report_path && !build_report_json(&ctx, o->report_path, why, sizeof why)) {
			fprintf(stderr, "%s: error: %s\n", o->report_path, why);
			totals.failed++;
		}
		if (o->junit_path && !build_report_junit(&ctx, o->junit_path, why, sizeof why)) {
			fprintf(stderr, "%s: error: %s\n", o->junit_path, why);
			totals.failed++;
		}
		if (o->depfile_path && !build_report_depfile(&ctx, o->depfile_path, why, sizeof why)) {
			fprintf(stderr, "%s: error: %s\n", o->depfile_path, why);
			totals.failed++;
		}
		if (!o->quiet || totals.failed)
			build_status_summary(&rs.status, &totals, stale);
		else
			build_status_clear(&rs.status);
		if (ctx.lost_workers && !sweep_own(ctx.lock_fd, o->out_dir))
			marked_running = false;   /* left for the next build alone here */
		if (rs.commit.pruned && o->verbose)
			printf("pruned %u output%s\n", rs.commit.pruned, rs.commit.pruned == 1 ? "" : "s");
	} else {
		build_totals_count(&ctx.plan, &totals);
	}
	status = totals.failed ? ANIMC_EXIT_FAILED : ANIMC_EXIT_OK;
	build_commit_release(&rs.commit);
out:
	fflush(stdout);
	/* Ending here, the run left no temporary file behind. */
	if (marked_running)
		unlink(running);
	release_ctx(&ctx);
	free(rs.manifest_path);
	free(running);
	return status;
}
