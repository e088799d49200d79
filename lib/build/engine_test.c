/*
 * engine_test.c - the engine in one process, after ninja's build_test.cc:
 * plan, commit, manifest and the incremental logic run for real, while a
 * fake runner makes up each job's result (its outputs' bytes name the
 * source) and finishes jobs in an order the test picks.  A recording status
 * sink tells what a user would read.  Process-level behaviour (signals,
 * crashes, memory caps, the worker pool) is cmd/tests/build_test.c's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"
#include "build.h"
#include "key.h"

/* ------------------------------------------------------------ the fake */

typedef struct fake_runner {
	build_runner base;       /* first */
	size_t *pending;         /* started, not finished */
	size_t pending_count;
	bool is_lifo;            /* finish the last started first */
	unsigned per_wait;       /* jobs finished per wait (0: all) */
	const char *fail_match;  /* a source path holding this fails */
	const char *edit_match;  /* a source path holding this is saved anew as its compile starts */
} fake_runner;

typedef struct fake_setup {
	bool is_lifo;
	unsigned per_wait;
	const char *fail_match;
	const char *edit_match;
} fake_setup;

/* A result as a compile would make it: the source's state and hash, a key
 * from the run's prefix and the source's bytes, one output named after the
 * source whose bytes say which source made it. */
static void fake_result(fake_runner *f, size_t i)
{
	build_ctx *ctx = f->base.ctx;
	build_job *j = &ctx->plan.jobs[i];
	build_result *r = &j->result;
	XXH3_state_t *key = XXH3_createState();
	size_t size;
	uint8_t *data = test_read_file(j->path, &size);
	struct stat st;
	char *text = test_format("fake output of %s\n", j->path);

	if (f->edit_match && strstr(j->path, f->edit_match)) {
		free(data);
		assert_true(test_write_file(j->path, "<clip saved again/>\n", 20));
		data = test_read_file(j->path, &size);
	}
	memset(r, 0, sizeof *r);
	assert_int_equal(stat(j->path, &st), 0);
	build_file_state_from(&st, &r->source_state);
	build_file_state_distrust_recent(&r->source_state);
	r->has_source = true;
	build_hash_bytes(data, size, &r->source_hash);
	XXH3_copyState(key, ctx->key_prefix);
	build_key_file("source", cli_basename(j->path), data, size, build_key_emit_xxh3, key);
	build_key_end(build_key_emit_xxh3, key);
	build_hash_from_state(key, &r->key);
	XXH3_freeState(key);
	free(data);
	snprintf(r->importer, sizeof r->importer, "fake");
	if (f->fail_match && strstr(j->path, f->fail_match)) {
		r->status = BUILD_FAILED;
		build_result_diag(r, ANIMC_ERROR, 3, 4, -1, "made up to fail");
		free(text);
		return;
	}
	r->status = BUILD_COMPILED;
	r->outputs = calloc(1, sizeof *r->outputs);
	r->output_count = 1;
	r->outputs[0].name = test_format("%s.xnb", j->out_base);
	r->outputs[0].clip = strdup("");
	r->outputs[0].bytes = (uint8_t *)text;
	r->outputs[0].size = strlen(text);
	r->outputs[0].bones = 1;
	build_hash_bytes(text, strlen(text), &r->outputs[0].hash);
}

static void fake_start(build_runner *r, size_t job)
{
	fake_runner *f = (fake_runner *)r;

	f->pending[f->pending_count++] = job;
}

static bool fake_is_free(build_runner *r)
{
	(void)r;
	return true;
}

static size_t fake_pending(build_runner *r)
{
	return ((fake_runner *)r)->pending_count;
}

static bool fake_wait(build_runner *r, double wait_s, int wake_fd, bool is_all_started)
{
	fake_runner *f = (fake_runner *)r;
	unsigned n = f->per_wait ? f->per_wait : (unsigned)f->pending_count;

	(void)wait_s, (void)wake_fd, (void)is_all_started;
	while (n-- && f->pending_count) {
		size_t job;

		if (f->is_lifo) {
			job = f->pending[--f->pending_count];
		} else {
			job = f->pending[0];
			memmove(f->pending, f->pending + 1, --f->pending_count * sizeof *f->pending);
		}
		fake_result(f, job);
		if (r->ctx->command == CMD_BUILD)
			build_stage_outputs(r->ctx, &r->ctx->plan.jobs[job], &r->ctx->plan.jobs[job].result);
		build_runner_done(r, job);
	}
	return true;
}

static void fake_warm(build_runner *r, unsigned count)
{
	(void)r, (void)count;
}

static void fake_note_at_hand(build_runner *r)
{
	(void)r;
}

static void fake_destroy(build_runner *r, bool is_stopped)
{
	fake_runner *f = (fake_runner *)r;

	(void)is_stopped;
	free(f->pending);
	free(f);
}

static const build_runner_ops fake_ops = {
	fake_start, fake_is_free, fake_pending, fake_wait, fake_warm, fake_note_at_hand, fake_destroy,
};

static build_runner *make_fake(void *user, build_ctx *ctx, size_t count, const build_run_hooks *hooks)
{
	fake_setup *setup = user;
	fake_runner *f = calloc(1, sizeof *f);

	f->base = (build_runner){ &fake_ops, ctx, hooks };
	f->pending = calloc(count, sizeof *f->pending);
	f->is_lifo = setup->is_lifo;
	f->per_wait = setup->per_wait;
	f->fail_match = setup->fail_match;
	f->edit_match = setup->edit_match;
	return &f->base;
}

/* -------------------------------------------------------- the status sink */

typedef struct recorder {
	build_status_sink base;  /* first */
	size_t committed[64];
	build_status statuses[64];
	size_t committed_count;
	size_t done_count;       /* results that came: the fake's compiles */
	build_totals totals;
	bool has_summary;
	char notes[1024];
	char diags[1024];        /* the run's own diagnostics, a line each */
} recorder;

static void rec_job_done(build_status_sink *s, size_t job)
{
	(void)job;
	((recorder *)s)->done_count++;
}

static void rec_tick(build_status_sink *s)
{
	(void)s;
}

static void rec_job_committed(build_status_sink *s, size_t job)
{
	recorder *rec = (recorder *)s;

	rec->statuses[rec->committed_count] = s->ctx->plan.jobs[job].result.status;
	rec->committed[rec->committed_count++] = job;
}

static void rec_note(build_status_sink *s, const char *line)
{
	recorder *rec = (recorder *)s;

	strncat(rec->notes, line, sizeof rec->notes - strlen(rec->notes) - 2);
	strcat(rec->notes, "\n");
}

static void rec_summary(build_status_sink *s, const build_totals *t, unsigned stale)
{
	recorder *rec = (recorder *)s;

	(void)stale;
	rec->totals = *t;
	rec->has_summary = true;
}

static void rec_clear(build_status_sink *s)
{
	(void)s;
}

static void rec_diag(build_status_sink *s, const animc_diag *d)
{
	recorder *rec = (recorder *)s;
	size_t n = strlen(rec->diags);

	snprintf(rec->diags + n, sizeof rec->diags - n, "%s: %s\n", d->severity == ANIMC_ERROR ? "error" : "warning",
		 d->message);
}

static const build_status_ops rec_ops = {
	rec_job_done, rec_tick, rec_job_committed, rec_note, rec_summary, rec_clear, rec_diag,
};

/* ------------------------------------------------------------- a run */

typedef struct run {
	int status;
	recorder rec;
} run;

/* Run `command` in this process with the fake runner over argv (NULL
 * terminated, after the command name). */
static run run_engine(build_command command, fake_setup *setup, ...)
{
	char *argv[16] = { "build" };
	int argc = 1;
	build_options o;
	build_engine_deps deps = { make_fake, setup, NULL };
	run result;
	va_list ap;

	memset(&result, 0, sizeof result);
	va_start(ap, setup);
	for (char *a; (a = va_arg(ap, char *)) && argc < 15;)
		argv[argc++] = a;
	va_end(ap);
	result.rec.base.ops = &rec_ops;
	deps.status = &result.rec.base;
	assert_int_equal(build_options_parse(&o, command, argc, argv), 0);
	result.status = build_engine_run_with(command, &o, &deps);
	build_options_release(&o);
	return result;
}

static char *make_sources(const char *name, unsigned count)
{
	char *dir = test_tmpdir(name);
	char *src = test_format("%s/src", dir);

	mkdir(src, 0777);
	for (unsigned i = 0; i < count; i++) {
		char *path = test_format("%s/clip%u.Animation", src, i);
		char *text = test_format("<clip %u/>\n", i);

		assert_true(test_write_file(path, text, strlen(text)));
		/* An artist saved it a while ago: the fast path trusts its state. */
		{
			struct timespec times[2] = { { 1600000000, 0 }, { 1600000000, 0 } };

			utimensat(AT_FDCWD, path, times, 0);
		}
		free(path);
		free(text);
	}
	free(src);
	return dir;
}

/* ------------------------------------------------------------- tests */

static void results_out_of_order_are_committed_in_job_order(void **state)
{
	char *dir = make_sources("engine_order", 5);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	fake_setup setup = { .is_lifo = true, .per_wait = 1 };
	run r;

	(void)state;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.done_count, 5);
	assert_int_equal(r.rec.committed_count, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(r.rec.committed[i], i);
		assert_int_equal(r.rec.statuses[i], BUILD_COMPILED);
	}
	assert_true(r.rec.has_summary);
	assert_int_equal(r.rec.totals.compiled, 5);
	assert_int_equal(r.rec.totals.clips, 5);
	for (unsigned i = 0; i < 5; i++) {
		char *path = test_format("%s/clip%u.xnb", out, i);
		char *want = test_format("fake output of %s/clip%u.Animation\n", src, i);
		size_t size;
		uint8_t *got = test_read_file(path, &size);

		assert_int_equal(size, strlen(want));
		assert_memory_equal(got, want, size);
		free(got);
		free(want);
		free(path);
	}
	free(out);
	free(src);
	free(dir);
}

static void a_second_run_compiles_only_what_changed(void **state)
{
	char *dir = make_sources("engine_incremental", 4);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *edited = test_format("%s/clip2.Animation", src);
	fake_setup setup = { 0 };
	run r;

	(void)state;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.done_count, 4);
	/* Nothing changed: nothing reaches the runner. */
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.done_count, 0);
	assert_int_equal(r.rec.totals.up_to_date, 4);
	assert_int_equal(r.rec.totals.compiled, 0);
	/* One source edited: that one alone. */
	assert_true(test_write_file(edited, "<clip edited/>\n", 15));
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.rec.done_count, 1);
	assert_int_equal(r.rec.totals.compiled, 1);
	assert_int_equal(r.rec.totals.up_to_date, 3);
	assert_int_equal(r.rec.statuses[2], BUILD_COMPILED);
	assert_int_equal(r.rec.statuses[1], BUILD_UP_TO_DATE);
	/* --rebuild: all of them again. */
	r = run_engine(CMD_BUILD, &setup, "--rebuild", "-o", out, src, NULL);
	assert_int_equal(r.rec.done_count, 4);
	free(edited);
	free(out);
	free(src);
	free(dir);
}

static void an_output_deleted_by_hand_is_written_again(void **state)
{
	char *dir = make_sources("engine_deleted", 3);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *gone = test_format("%s/clip1.xnb", out);
	fake_setup setup = { 0 };
	run r;

	(void)state;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.rec.done_count, 3);
	assert_int_equal(unlink(gone), 0);
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.rec.done_count, 1);
	assert_int_equal(r.rec.statuses[1], BUILD_COMPILED);
	assert_true(test_file_exists(gone));
	free(gone);
	free(out);
	free(src);
	free(dir);
}

static void the_manifest_records_each_source_and_output(void **state)
{
	char *dir = make_sources("engine_manifest", 3);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *path = test_format("%s/" MANIFEST_FILE, out);
	char *source = test_format("%s/clip0.Animation", src);
	fake_setup setup = { 0 };
	manifest m = { 0 };
	manifest_entry *e;
	cli_error err;
	run r;

	(void)state;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(manifest_load(&m, path, &err), MANIFEST_LOADED);
	assert_int_equal(m.count, 3);
	e = manifest_find(&m, source);
	assert_non_null(e);
	assert_int_equal(e->status, BUILD_COMPILED);
	assert_string_equal(e->importer, "fake");
	assert_string_equal(e->out_base, "clip0");
	assert_int_equal(e->output_count, 1);
	assert_string_equal(e->outputs[0].path, "clip0.xnb");
	assert_int_equal(e->outputs[0].size, strlen("fake output of ") + strlen(source) + 1);
	manifest_release(&m);
	free(source);
	free(path);
	free(out);
	free(src);
	free(dir);
}

static void a_failed_source_writes_nothing_and_is_retried(void **state)
{
	char *dir = make_sources("engine_failed", 3);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *failed = test_format("%s/clip1.xnb", out), *kept = test_format("%s/clip2.xnb", out);
	fake_setup setup = { .fail_match = "clip1" };
	run r;

	(void)state;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_FAILED);
	assert_int_equal(r.rec.totals.failed, 1);
	assert_int_equal(r.rec.totals.compiled, 2);
	assert_int_equal(r.rec.statuses[1], BUILD_FAILED);
	assert_false(test_file_exists(failed));
	assert_true(test_file_exists(kept));
	/* A failed source is compiled again; the others are up to date. */
	setup.fail_match = NULL;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.done_count, 1);
	assert_true(test_file_exists(failed));
	free(failed);
	free(kept);
	free(out);
	free(src);
	free(dir);
}

/* A source's state from the last two seconds is not trusted: FAT (a USB
 * stick, an SD card) keeps mtime, and ctime with it, to 2 s, so a save
 * 1.5 s after the one a build recorded can keep both, and that edit (of
 * the same size) was taken for up to date, its output left as it was. */
static void a_state_from_the_last_two_seconds_is_not_trusted(void **state)
{
	struct timespec now;
	build_file_state s = { .size = 10, .ino = 1, .dev = 1 };
	int64_t now_ns;

	(void)state;
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	s.mtime_ns = now_ns - 1500000000;
	build_file_state_distrust_recent(&s);
	assert_true(s.mtime_ns == 0);
	s.mtime_ns = now_ns - 3000000000;
	build_file_state_distrust_recent(&s);
	assert_true(s.mtime_ns == now_ns - 3000000000);
}

/* The columns of the terminal on standard output, as the console sink
 * takes them (a pseudo-terminal `columns` wide stands in for it). */
static int console_columns(build_ctx *ctx, unsigned short columns)
{
	struct winsize ws = { .ws_row = 24, .ws_col = columns };
	int master = posix_openpt(O_RDWR | O_NOCTTY), saved = dup(STDOUT_FILENO), slave;
	build_status_sink s;

	assert_true(master >= 0 && saved >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	assert_true(slave >= 0 && ioctl(slave, TIOCSWINSZ, &ws) == 0);
	fflush(stdout);
	dup2(slave, STDOUT_FILENO);
	build_status_console_init(&s, ctx);
	dup2(saved, STDOUT_FILENO);
	close(saved), close(slave), close(master);
	return s.columns;
}

/* The status line keeps the tail of the name of a source at work for a
 * second, and fits the terminal, cut between characters: at 50 columns it
 * began with the last byte of an 'İ', which a terminal shows as U+FFFD;
 * on a terminal of 20 columns or fewer it was drawn 80 wide, and wrapped,
 * so that each redraw left a row behind. */
static void the_status_line_fits_the_terminal_between_characters(void **state)
{
	build_options options;
	build_job job;
	build_ctx ctx;
	build_status_sink s;
	char line[1024];

	(void)state;
	memset(&options, 0, sizeof options), memset(&job, 0, sizeof job), memset(&ctx, 0, sizeof ctx);
	memset(&s, 0, sizeof s);
	job.path = (char *)(uintptr_t)"slow/big_\u65e5\u672c\u8a9e_\u00cd\u0130\u0131I_walk.bvh";
	job.needs_compile = true;
	job.started_s = 98;
	snprintf(job.importer_at_work, sizeof job.importer_at_work, "assimp");
	ctx.options = &options;
	ctx.plan.jobs = &job, ctx.plan.count = 1;
	s.ctx = &ctx, s.total = 1, s.start_s = 98, s.columns = 50;
	build_status_line(&s, 100, line, sizeof line);
	assert_string_equal(line, "[0/1] assimp: \u0131I_walk.bvh (2 s)");
	s.columns = 20;
	build_status_line(&s, 100, line, sizeof line);
	assert_string_equal(line, "[0/1] assimp: walk.");
	job.path = (char *)(uintptr_t)"slow/\u65e5\u672c\u8a9e.bvh";
	s.columns = 17;
	build_status_line(&s, 100, line, sizeof line);
	assert_string_equal(line, "[0/1] assimp: ");
	assert_int_equal(console_columns(&ctx, 20), 20);
	assert_int_equal(console_columns(&ctx, 120), 120);
}

/* A terminal resized during a build (SIGWINCH) gets lines of its new
 * width from the next update: the width was read once, so a terminal made
 * narrower wrapped each line, leaving a row behind each redraw, and one
 * made wider had the name cut as before. */
static void the_status_line_follows_a_resized_terminal(void **state)
{
	struct winsize narrow = { .ws_row = 24, .ws_col = 30 }, wide = { .ws_row = 24, .ws_col = 100 };
	int master = posix_openpt(O_RDWR | O_NOCTTY), saved = dup(STDOUT_FILENO), slave;
	build_options options;
	build_job job;
	build_ctx ctx;
	build_status_sink s;
	char drawn[4096];
	ssize_t n;

	(void)state;
	memset(&options, 0, sizeof options), memset(&job, 0, sizeof job), memset(&ctx, 0, sizeof ctx);
	options.progress = PROGRESS_ALWAYS;
	job.path = (char *)(uintptr_t)"slow/a_source_of_a_name_long_enough_to_be_cut_walk.bvh";
	job.needs_compile = true;
	job.started_s = build_now_s() - 5;
	snprintf(job.importer_at_work, sizeof job.importer_at_work, "assimp");
	ctx.options = &options;
	ctx.plan.jobs = &job, ctx.plan.count = 1;
	assert_true(master >= 0 && saved >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	assert_true(slave >= 0 && ioctl(slave, TIOCSWINSZ, &narrow) == 0);
	fflush(stdout);
	dup2(slave, STDOUT_FILENO);
	build_status_console_init(&s, &ctx);
	s.total = 1;
	s.last_draw_s = -10;
	/* The terminal a user resizes: the kernel sends SIGWINCH to its
	 * foreground process group; here, raised. */
	assert_true(ioctl(slave, TIOCSWINSZ, &wide) == 0);
	raise(SIGWINCH);
	s.ops->tick(&s);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	n = read(master, drawn, sizeof drawn - 1);
	close(saved), close(slave), close(master);
	signal(SIGWINCH, SIG_DFL);
	assert_true(n > 0);
	drawn[n] = '\0';
	assert_int_equal(s.columns, 100);
	assert_non_null(strstr(drawn, "[0/1] assimp: slow/a_source_of_a_name_long_enough_to_be_cut_walk.bvh (5 s)"));
}

/* The status line's estimate: none before a source is done or after the
 * last, nor under a second (30 ms into a build of 2 sources of 3, it said
 * "1 s left"); from a second, rounded. */
static void the_time_left_is_said_from_a_second(void **state)
{
	static const struct {
		size_t done, done_before, total;
		double elapsed;
		const char *want;
	} cases[] = {
		{ 2, 0, 3, 0.030, "" },
		{ 1, 0, 3, 0.499, "" },
		{ 1, 0, 3, 0.5, ", 1 s left" },
		{ 1, 0, 2, 2.6, ", 3 s left" },
		{ 3, 1, 5, 10, ", 10 s left" },
		{ 1, 1, 5, 10, "" },
		{ 5, 0, 5, 10, "" },
	};
	build_status_sink s;
	char eta[48];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&s, 0, sizeof s);
		s.done = cases[i].done, s.done_before = cases[i].done_before, s.total = cases[i].total;
		s.start_s = 100;
		build_status_eta(&s, 100 + cases[i].elapsed, eta, sizeof eta);
		assert_string_equal(eta, cases[i].want);
	}
}

static void outputs_claims_and_writes_nothing(void **state)
{
	char *dir = make_sources("engine_outputs", 2);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *first = test_format("%s/clip0.xnb", out);
	fake_setup setup = { 0 };
	run r;

	(void)state;
	r = run_engine(CMD_OUTPUTS, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.committed_count, 2);
	assert_false(r.rec.has_summary);
	assert_false(test_file_exists(first));
	assert_false(test_file_exists(out));
	free(first);
	free(out);
	free(src);
	free(dir);
}

static void a_removed_source_leaves_a_stale_output_until_pruned(void **state)
{
	char *dir = make_sources("engine_prune", 3);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *source = test_format("%s/clip0.Animation", src), *output = test_format("%s/clip0.xnb", out);
	fake_setup setup = { 0 };
	run r;

	(void)state;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(unlink(source), 0);
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.totals.sources, 2);
	assert_true(test_file_exists(output));
	r = run_engine(CMD_BUILD, &setup, "--prune", "-v", "-o", out, src, NULL);
	assert_false(test_file_exists(output));
	assert_int_equal(r.rec.totals.pruned, 1);
	free(source);
	free(output);
	free(out);
	free(src);
	free(dir);
}

static void a_damaged_manifest_is_said_and_every_source_compiles(void **state)
{
	char *dir = make_sources("engine_damaged", 2);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *path = test_format("%s/" MANIFEST_FILE, out);
	fake_setup setup = { 0 };
	run r;

	(void)state;
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_string_equal(r.rec.diags, "");
	assert_true(test_write_file(path, "animc-manifest 1\ngarbage\n", 25));
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.done_count, 2);
	assert_non_null(strstr(r.rec.diags, "warning: "));
	assert_non_null(strstr(r.rec.diags, "; compiling every source\n"));
	free(path);
	free(out);
	free(src);
	free(dir);
}

/* A compiled source named `source`, built to `out_base` (recorded by this
 * run when `ours`), with no output yet. */
static manifest_entry source_entry(const char *source, const char *out_base, bool ours)
{
	manifest_entry e;

	memset(&e, 0, sizeof e);
	e.source = strdup(source);
	e.out_base = strdup(out_base);
	e.status = BUILD_COMPILED;
	strcpy(e.importer, "robotgame");
	e.is_ours = ours;
	return e;
}

/* A recorded source named `source` built to `out_base`. */
static void add_source_at(manifest *m, const char *source, const char *out_base, bool ours)
{
	manifest_entry e = source_entry(source, out_base, ours);

	assert_non_null(manifest_add(m, &e));
}

/* A recorded source named `source` (recorded by this run when `ours`). */
static void add_source(manifest *m, const char *source, bool ours)
{
	add_source_at(m, source, source, ours);
}

/* Builds into one folder at once: a long build's checkpoint takes in what
 * a short one saved meanwhile, and its last save keeps it, though its own
 * view never held it (it merges again, not "nobody saved since"). */
static void a_long_build_keeps_what_others_saved_during_it(void **state)
{
	char *dir = test_tmpdir("engine-merge"), *path = test_format("%s/manifest", dir);
	build_ctx ctx;
	cli_strings pruned = { 0 };
	manifest first = { 0 }, other = { 0 }, ours = { 0 }, last = { 0 };
	cli_error err;

	(void)state;
	memset(&ctx, 0, sizeof ctx);
	/* The folder's manifest as the long build reads it at its start. */
	add_source(&first, "a", false);
	assert_true(manifest_save(&first, path, NULL, &err));
	assert_int_equal(manifest_load(&ctx.old, path, &err), MANIFEST_LOADED);
	/* A short build saves its source meanwhile. */
	add_source(&other, "a", false);
	add_source(&other, "short", true);
	assert_true(manifest_save(&other, path, NULL, &err));
	/* The long build's checkpoint, then its end with one more source. */
	add_source(&ours, "a", false);
	add_source(&ours, "long1", true);
	assert_true(build_manifest_save(&ctx, &ours, &pruned, path, &err));
	add_source(&ours, "long2", true);
	assert_true(build_manifest_save(&ctx, &ours, &pruned, path, &err));
	assert_int_equal(manifest_load(&last, path, &err), MANIFEST_LOADED);
	assert_non_null(manifest_find(&last, "a"));
	assert_non_null(manifest_find(&last, "long1"));
	assert_non_null(manifest_find(&last, "long2"));
	assert_non_null(manifest_find(&last, "short"));
	assert_int_equal(last.count, 4);
	manifest_release(&last);
	manifest_release(&ours);
	manifest_release(&other);
	manifest_release(&first);
	manifest_release(&ctx.old);
	free(path);
	free(dir);
}

/* Two shards at once of a project that builds one source to two
 * destinations, one in each shard: the second to save merged the first's
 * record of the other destination into its own, by the source's path
 * alone, and dropped it (its output then an orphan, which --prune
 * removes).  Both records stay. */
static void shards_at_once_keep_both_destinations(void **state)
{
	char *dir = test_tmpdir("engine-merge-two"), *path = test_format("%s/manifest", dir);
	build_ctx ctx;
	cli_strings pruned = { 0 };
	manifest first = { 0 }, other = { 0 }, ours = { 0 }, last = { 0 };
	cli_error err;

	(void)state;
	memset(&ctx, 0, sizeof ctx);
	add_source_at(&first, "s", "A", false);
	add_source_at(&first, "s", "B", false);
	assert_true(manifest_save(&first, path, NULL, &err));
	assert_int_equal(manifest_load(&ctx.old, path, &err), MANIFEST_LOADED);
	/* The other shard builds s to A and saves meanwhile. */
	add_source_at(&other, "s", "A", true);
	add_source_at(&other, "s", "B", false);
	add_source_at(&other, "x", "x", true);
	assert_true(manifest_save(&other, path, NULL, &err));
	/* This shard builds s to B. */
	add_source_at(&ours, "s", "B", true);
	add_source_at(&ours, "s", "A", false);
	assert_true(build_manifest_save(&ctx, &ours, &pruned, path, &err));
	assert_int_equal(manifest_load(&last, path, &err), MANIFEST_LOADED);
	assert_non_null(manifest_find_output(&last, "s", "A"));
	assert_non_null(manifest_find_output(&last, "s", "B"));
	assert_non_null(manifest_find(&last, "x"));
	assert_int_equal(last.count, 3);
	manifest_release(&last);
	manifest_release(&ours);
	manifest_release(&other);
	manifest_release(&first);
	manifest_release(&ctx.old);
	free(path);
	free(dir);
}

/* A recorded source with one output, `path`, of hash `hash`. */
static void add_source_writing(manifest *m, const char *source, bool ours, const char *path, const build_hash *hash)
{
	manifest_entry e = source_entry(source, source, ours);

	e.outputs = calloc(1, sizeof *e.outputs);
	assert_non_null(e.outputs);
	e.outputs[0].path = strdup(path);
	e.outputs[0].clip = strdup("");
	e.outputs[0].size = 4;
	e.outputs[0].hash = *hash;
	e.output_count = 1;
	assert_non_null(manifest_add(m, &e));
}

/* Two builds at once whose sources write one output name: the second to
 * save finds the other's record of it, and the merge keeps one owner, the
 * source whose recorded hash is the file's on disk (this run's, or the
 * other build's when that wrote last), and says the takeover once. */
static unsigned errors_said;

static void count_errors(build_status_sink *s, const animc_diag *d)
{
	(void)s;
	errors_said += d->severity == ANIMC_ERROR;
}

/* Two builds at once into ctx's folder: another build records b/x writing
 * x.xnb after ctx read the manifest at `path`, the file on disk holds
 * `on_disk`, and ctx saves `ours`, where a/x writes x.xnb too. */
static void save_beside_another_owner(build_ctx *ctx, const char *path, const char *on_disk, manifest *ours)
{
	char *xnb = test_format("%s/x.xnb", ctx->options->out_dir);
	manifest first = { 0 }, other = { 0 };
	cli_strings pruned = { 0 };
	build_hash mine, theirs;
	cli_error err;

	build_hash_bytes((const uint8_t *)"mine", 4, &mine);
	build_hash_bytes((const uint8_t *)"them", 4, &theirs);
	assert_true(manifest_save(&first, path, NULL, &err));
	assert_int_equal(manifest_load(&ctx->old, path, &err), MANIFEST_LOADED);
	ctx->has_old = true;
	add_source_writing(&other, "b/x", true, "x.xnb", &theirs);
	assert_true(manifest_save(&other, path, NULL, &err));
	assert_true(test_write_file(xnb, on_disk, strlen(on_disk)));
	add_source_writing(ours, "a/x", true, "x.xnb", &mine);
	assert_true(build_manifest_save(ctx, ours, &pruned, path, &err));
	manifest_release(&other);
	manifest_release(&first);
	free(xnb);
}

/* Under --warnings-as-errors the takeover a save finds is an error of the
 * run (its exit status 1): run one after the other, the second build
 * would have failed; allowed, a warning. */
static void a_takeover_at_the_save_fails_a_strict_run(void **state)
{
	static const build_status_ops ops = { .diag = count_errors };
	char *dir = test_tmpdir("engine-merge-strict"), *path = test_format("%s/manifest", dir);

	(void)state;
	for (int allowed = 0; allowed < 2; allowed++) {
		build_options o = { 0 };
		build_status_sink sink = { .ops = &ops };
		build_ctx ctx;
		manifest ours = { 0 };

		memset(&ctx, 0, sizeof ctx);
		o.out_dir = dir;
		o.warnings_as_errors = true;
		o.allowed[ANIMC_WARN_OUTPUT_TAKEN_OVER] = allowed;
		ctx.options = &o;
		ctx.status = &sink;
		sink.ctx = &ctx;
		errors_said = 0;
		save_beside_another_owner(&ctx, path, "mine", &ours);
		assert_int_equal(errors_said, allowed ? 0 : 1);
		assert_int_equal(sink.said.count, allowed ? 0 : 1);   /* allowed: a note */
		build_said_release(&sink.said);
		manifest_release(&ours);
		manifest_release(&ctx.old);
		cli_strings_release(&ctx.takeovers_said);
	}
	free(path), free(dir);
}

static void builds_at_once_leave_one_owner_an_output(void **state)
{
	char *dir = test_tmpdir("engine-merge-owner"), *path = test_format("%s/manifest", dir);
	cli_error err;

	(void)state;
	for (int they_wrote_last = 0; they_wrote_last < 2; they_wrote_last++) {
		build_options o = { 0 };
		build_ctx ctx;
		cli_strings pruned = { 0 };
		manifest ours = { 0 }, last = { 0 };

		memset(&ctx, 0, sizeof ctx);
		o.out_dir = dir;
		ctx.options = &o;
		save_beside_another_owner(&ctx, path, they_wrote_last ? "them" : "mine", &ours);
		/* A second save (the end after a checkpoint) says nothing again. */
		assert_true(build_manifest_save(&ctx, &ours, &pruned, path, &err));
		assert_int_equal(ctx.takeovers_said.count, 1);
		assert_int_equal(manifest_load(&last, path, &err), MANIFEST_LOADED);
		const manifest_entry *a = manifest_find(&last, "a/x"), *b = manifest_find(&last, "b/x");
		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(a->output_count, they_wrote_last ? 0 : 1);
		assert_int_equal(b->output_count, they_wrote_last ? 1 : 0);
		manifest_release(&last);
		manifest_release(&ours);
		manifest_release(&ctx.old);
		cli_strings_release(&ctx.takeovers_said);
	}
	free(path), free(dir);
}

/* A message too long for a cli_error (a path of 4 KB) keeps its start and
 * its end, the reason, and leaves out the middle (it stopped mid-path). */
static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A file an import read, replaced while it ran by a copy that keeps an
 * older mtime (cp -p, rsync -a, tar x): written meanwhile all the same,
 * by its ctime.  By its mtime alone, the build recorded the new bytes'
 * hash beside an output made from the old ones. */
static void a_copy_keeping_its_mtime_was_written_meanwhile(void **state)
{
	char *dir = test_tmpdir("written-between"), *path = test_format("%s/wag.bin", dir);
	const struct timespec old_times[2] = { { 946684800, 0 }, { 946684800, 0 } };   /* 2000-01-01 */
	struct stat st;
	int64_t start;

	(void)state;
	assert_true(test_write_file(path, "old", 3));
	assert_int_equal(utimensat(AT_FDCWD, path, old_times, 0), 0);
	nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	start = now_ns();
	assert_int_equal(stat(path, &st), 0);
	assert_false(build_file_written_between(&st, start, now_ns()));   /* untouched since */
	/* Replaced in place, its mtime put back as cp -p does. */
	assert_true(test_write_file(path, "new", 3));
	assert_int_equal(utimensat(AT_FDCWD, path, old_times, 0), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_mtim.tv_sec == 946684800);
	assert_true(build_file_written_between(&st, start, now_ns()));
	free(path), free(dir);
}

static void long_messages_keep_their_reason(void **state)
{
	char path[4096];
	cli_error err;

	(void)state;
	memset(path, 'd', sizeof path - 1);
	path[sizeof path - 1] = '\0';
	assert_false(cli_error_set(&err, "'%s/T.xnb' is too long", path));
	assert_true(strlen(err.message) < sizeof err.message);
	assert_true(strncmp(err.message, "'dddd", 5) == 0);
	assert_non_null(strstr(err.message, " ... "));
	size_t n = strlen(err.message);
	assert_string_equal(err.message + n - strlen("d/T.xnb' is too long"), "d/T.xnb' is too long");
	assert_false(cli_error_errno(&err, ENOENT, "cannot open '%s'", path));
	n = strlen(err.message);
	assert_string_equal(err.message + n - strlen(": No such file or directory"), ": No such file or directory");
	assert_false(cli_error_set(&err, "short %d", 1));
	assert_string_equal(err.message, "short 1");
}

/* A source saved again between its cache lookup and its compile: its
 * outputs were stored under the key of the bytes looked up, and every
 * build holding those bytes then warned "made from another source".  They
 * are not stored: such a build misses, quietly, and compiles. */
static void a_source_saved_during_its_compile_is_not_stored_under_its_old_key(void **state)
{
	char *dir = make_sources("engine_cache_edit", 3);
	char *src = test_format("%s/src", dir), *old = test_format("%s/old", dir);
	char *cache = test_format("%s/cache", dir), *out = test_format("%s/out", dir), *again = test_format("%s/again", dir);
	fake_setup setup = { .edit_match = "clip1" };
	test_run cp = test_exec("cp", "-r", src, old, NULL);
	run r;

	(void)state;
	assert_int_equal(cp.status, 0);
	test_run_release(&cp);
	r = run_engine(CMD_BUILD, &setup, "--cache-dir", cache, "--cache-min-size", "0", "--cache-wait", "-o", out, src,
		       NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.totals.compiled, 3);
	setup.edit_match = NULL;
	r = run_engine(CMD_BUILD, &setup, "--cache-dir", cache, "--cache-min-size", "0", "--cache-wait", "-o", again,
		       old, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.totals.cached, 2);
	assert_int_equal(r.rec.totals.compiled, 1);
	assert_int_equal(r.rec.totals.warnings, 0);
	free(again), free(out), free(cache), free(old), free(src), free(dir);
}

/* A file its folder listed that is gone when the plan's check reads its
 * state (sed -i's sedXXXXXX, renamed away a moment after it was made) was
 * not there: it is left out without a word, not skipped as unreadable (a
 * warning, and a failed source under --warnings-as-errors).  One gone when
 * its compile opens it was a failed source ("cannot open"): it is skipped,
 * without a word. */
static void a_file_gone_after_its_folder_listed_it_is_left_out(void **state)
{
	char *dir = make_sources("engine_gone", 3);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *gone = test_format("%s/clip1.Animation", src);
	char *argv[] = { "build", "--warnings-as-errors", "-o", out, src, NULL };
	build_options o;
	build_ctx ctx;

	(void)state;
	assert_int_equal(build_options_parse(&o, CMD_BUILD, 5, argv), 0);
	memset(&ctx, 0, sizeof ctx);
	ctx.options = &o;
	ctx.command = CMD_BUILD;
	assert_true(build_plan_make(&ctx));
	assert_int_equal(ctx.plan.count, 3);
	assert_int_equal(unlink(gone), 0);
	build_plan_check(&ctx);
	assert_int_equal(ctx.plan.count, 2);
	for (size_t i = 0; i < ctx.plan.count; i++) {
		const build_job *j = &ctx.plan.jobs[i];

		assert_string_not_equal(j->path, gone);
		assert_true(j->needs_compile);
		assert_int_equal(j->result.diag_count, 0);
	}
	/* Gone after the check, before its compile opens it: no error. */
	build_result r;

	assert_int_equal(unlink(ctx.plan.jobs[1].path), 0);
	build_compile(&ctx, &ctx.plan.jobs[1], &r);
	assert_int_equal(r.status, BUILD_SKIPPED);
	assert_int_equal(r.diag_count, 0);
	build_result_release(&r);
	build_plan_release(&ctx.plan);
	cli_strings_release(&ctx.plan_notes);
	build_options_release(&o);
	free(gone), free(src), free(out), free(dir);
}

/* The project's files are read and hashed once a run, not by each item's
 * compile: every item records them as they were taken, even when the
 * project is written again meanwhile. */
static void items_share_the_project_read_once(void **state)
{
	char *dir = make_sources("engine_project", 2);
	char *out = test_format("%s/out", dir), *project = test_format("%s/src/Content.mgcb", dir);
	const char *text = "/build:clip0.Animation\n/build:clip1.Animation\n";
	char *argv[] = { "build", "-o", out, "--mgcb", project, NULL };
	build_options o;
	build_ctx ctx;
	build_hash taken;

	(void)state;
	assert_true(test_write_file(project, text, strlen(text)));
	build_hash_bytes(text, strlen(text), &taken);
	assert_int_equal(build_options_parse(&o, CMD_BUILD, 5, argv), 0);
	memset(&ctx, 0, sizeof ctx);
	ctx.options = &o;
	ctx.command = CMD_BUILD;
	assert_true(build_plan_make(&ctx));
	assert_int_equal(ctx.plan.count, 2);
	build_take_project_deps(&ctx);
	assert_true(test_write_file(project, "# edited\n", 9));
	ctx.key_prefix = XXH3_createState();
	XXH3_128bits_reset(ctx.key_prefix);
	for (size_t i = 0; i < ctx.plan.count; i++) {
		build_result r;
		bool has_project = false;

		build_compile(&ctx, &ctx.plan.jobs[i], &r);
		for (uint32_t k = 0; k < r.dep_count; k++)
			if (strcmp(r.deps[k].path, project) == 0) {
				has_project = true;
				assert_true(build_hash_equal(&r.deps[k].hash, &taken));
			}
		assert_true(has_project);
		build_result_release(&r);
	}
	XXH3_freeState(ctx.key_prefix);
	for (size_t i = 0; i < ctx.project_dep_count; i++)
		free(ctx.project_deps[i].path);
	free(ctx.project_deps);
	build_plan_release(&ctx.plan);
	cli_strings_release(&ctx.plan_notes);
	build_options_release(&o);
	free(project), free(out), free(dir);
}

/* realloc as it is once memory has run out. */
static void *no_memory(void *ptr, size_t size)
{
	(void)ptr, (void)size;
	errno = ENOMEM;
	return NULL;
}

/* Memory running out while the outputs of a source are claimed is said as
 * that, and ends the build: it is no clash with another source. */
static void memory_running_out_while_claiming_outputs_is_no_clash(void **state)
{
	char *dir = make_sources("engine_claim_memory", 3);
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *report = test_format("%s/report.json", dir);
	fake_setup setup = { 0 };
	char *text;
	run r;

	(void)state;
	build_run_realloc = no_memory;
	r = run_engine(CMD_BUILD, &setup, "--report", report, "-o", out, src, NULL);
	build_run_realloc = realloc;
	assert_int_equal(r.status, ANIMC_EXIT_FAILED);
	assert_non_null(strstr(r.rec.diags, "error: the build ran out of memory recording the outputs of the sources"));
	assert_null(strstr(r.rec.diags, "another source"));
	assert_int_equal(r.rec.committed_count, 1);
	assert_int_equal(r.rec.statuses[0], BUILD_FAILED);
	for (unsigned i = 0; i < 3; i++) {
		char *path = test_format("%s/clip%u.xnb", out, i);

		assert_false(test_file_exists(path));
		free(path);
	}
	text = (char *)test_read_file(report, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "out of memory recording its outputs; nothing written"));
	assert_null(strstr(text, "another source"));
	/* With memory, the next build does them all. */
	r = run_engine(CMD_BUILD, &setup, "-o", out, src, NULL);
	assert_int_equal(r.status, ANIMC_EXIT_OK);
	assert_int_equal(r.rec.totals.compiled, 3);
	free(text), free(report), free(out), free(src), free(dir);
}

/* What a listing of each path's folder says it is, whatever the order of
 * the paths: folders whose names start alike ("d" and "d1") and paths of
 * one folder spread among those of others are each told; a folder of few
 * paths is not listed (each is stat()ed instead). */
static void listings_tell_the_kind_of_each_path(void **state)
{
	char *dir = test_tmpdir("engine-kinds");
	const char *folders[] = { "d", "d1", "d10" };
	char *paths[3 * 10 + 2];
	unsigned char kinds[3 * 10 + 2];
	size_t n = 0;

	(void)state;
	test_sh("cd '%s' && mkdir -p d/sub d1 d10 few && for f in d d1 d10; do for i in 0 1 2 3 4 5 6 7; do "
		": > $f/t$i; done; done && : > few/t0", dir);
	for (int i = 0; i < 10; i++)
		for (int f = 0; f < 3; f++)
			paths[n++] = i < 8 ? test_format("%s/%s/t%d", dir, folders[f], i) :
				     i == 8 ? test_format("%s/%s/gone", dir, folders[f]) : test_format("%s/d/sub", dir);
	paths[n++] = test_format("%s/few/t0", dir);
	paths[n++] = test_format("%s/few/gone", dir);
	cli_kinds_by_listing((const char *const *)paths, n, kinds);
	for (size_t i = 0; i < n; i++) {
		int want = strstr(paths[i], "/few/") || strstr(paths[i], "/gone") ? DT_UNKNOWN :
			   strstr(paths[i], "/sub") ? DT_DIR : DT_REG;

		if (kinds[i] != want)
			fail_msg("%s: kind %d, not %d", paths[i], kinds[i], want);
		free(paths[i]);
	}
	free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(long_messages_keep_their_reason),
	cmocka_unit_test(a_file_gone_after_its_folder_listed_it_is_left_out),
	cmocka_unit_test(items_share_the_project_read_once),
	cmocka_unit_test(a_copy_keeping_its_mtime_was_written_meanwhile),
	cmocka_unit_test(a_long_build_keeps_what_others_saved_during_it),
	cmocka_unit_test(shards_at_once_keep_both_destinations),
	cmocka_unit_test(builds_at_once_leave_one_owner_an_output),
	cmocka_unit_test(a_takeover_at_the_save_fails_a_strict_run),
	cmocka_unit_test(results_out_of_order_are_committed_in_job_order),
	cmocka_unit_test(a_second_run_compiles_only_what_changed),
	cmocka_unit_test(an_output_deleted_by_hand_is_written_again),
	cmocka_unit_test(the_manifest_records_each_source_and_output),
	cmocka_unit_test(a_failed_source_writes_nothing_and_is_retried),
	cmocka_unit_test(the_time_left_is_said_from_a_second),
	cmocka_unit_test(the_status_line_fits_the_terminal_between_characters),
	cmocka_unit_test(the_status_line_follows_a_resized_terminal),
	cmocka_unit_test(a_state_from_the_last_two_seconds_is_not_trusted),
	cmocka_unit_test(outputs_claims_and_writes_nothing),
	cmocka_unit_test(a_removed_source_leaves_a_stale_output_until_pruned),
	cmocka_unit_test(a_damaged_manifest_is_said_and_every_source_compiles),
	cmocka_unit_test(a_source_saved_during_its_compile_is_not_stored_under_its_old_key),
	cmocka_unit_test(memory_running_out_while_claiming_outputs_is_no_clash),
	cmocka_unit_test(listings_tell_the_kind_of_each_path),
};

ANIMC_TEST_GROUP(tests);
