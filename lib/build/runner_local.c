/*
 * runner_local.c - the in-process runner (runner.h): each job compiles in
 * this process as it is started.  For a single source that animc's own
 * readers read: a per-file make rule over an XML source then starts no
 * process.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "runner.h"
#include "engine.h"

void build_runner_done(build_runner *r, size_t job)
{
	r->ctx->plan.jobs[job].is_done = true;
	if (r->hooks && r->hooks->on_done)
		r->hooks->on_done(r->hooks->user, job);
}

bool build_job_is_safe_in_process(build_ctx *ctx, size_t job)
{
	const build_job *j = &ctx->plan.jobs[job];
	const animc_importer *importer;
	cli_source src;

	if (!cli_source_open(&src, j->path, NULL))
		return true;   /* the compile says why, as a worker would */
	importer = animc_importer_find(j->path, src.head, src.head_size);
	cli_source_close(&src);
	return !importer || !importer->needs_isolation;
}

static void local_start(build_runner *r, size_t index)
{
	build_job *j = &r->ctx->plan.jobs[index];

	j->started_s = build_now_s();
	build_compile(r->ctx, j, &j->result);
	if (r->ctx->command == CMD_BUILD)
		build_stage_outputs(r->ctx, j, &j->result);
	build_runner_done(r, index);
}

static bool local_is_free(build_runner *r)
{
	(void)r;
	return true;
}

static size_t local_pending(build_runner *r)
{
	(void)r;
	return 0;
}

/* Nothing runs between two starts: only the gate's answer is waited for
 * (poll() ignores a negative descriptor, and then sleeps). */
static bool local_wait(build_runner *r, double wait_s, int wake_fd, bool is_all_started)
{
	struct pollfd fd = { wake_fd, POLLIN, 0 };

	(void)r, (void)is_all_started;
	return poll(&fd, 1, (int)(wait_s * 1000) + 1) >= 0 || errno == EINTR;
}

static void local_warm(build_runner *r, unsigned count)
{
	(void)r, (void)count;
}

static void local_note_at_hand(build_runner *r)
{
	(void)r;
}

static void local_destroy(build_runner *r, bool is_stopped)
{
	(void)is_stopped;
	free(r);
}

static const build_runner_ops local_ops = {
	.start = local_start,
	.is_free = local_is_free,
	.pending = local_pending,
	.wait = local_wait,
	.warm = local_warm,
	.note_at_hand = local_note_at_hand,
	.destroy = local_destroy,
};

build_runner *build_local_runner_create(build_ctx *ctx, const build_run_hooks *hooks)
{
	build_runner *r = malloc(sizeof *r);

	if (r)
		*r = (build_runner){ &local_ops, ctx, hooks };
	return r;
}
