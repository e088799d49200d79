/*
 * status.c - what a user reads while and after a build runs: a job's
 * messages and lines (in job order, so the same for any number of
 * workers), the status line that updates in place on a terminal, and the
 * summary.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "status.h"
#include "engine.h"

static void status_erase(build_status_sink *s)
{
	if (s->line_shown) {
		fputs("\r\033[K", stdout);
		s->line_shown = false;
	}
}

void build_status_eta(const build_status_sink *s, double now, char *eta, size_t size)
{
	double left;

	eta[0] = '\0';
	if (s->done <= s->done_before || s->done >= s->total)
		return;
	left = (now - s->start_s) / (double)(s->done - s->done_before) * (double)(s->total - s->done);
	if (left >= 1)
		snprintf(eta, size, ", %.0f s left", left);
}

/* The first character of `p` that starts at or after it (UTF-8). */
static const char *char_start(const char *p)
{
	while (((unsigned char)*p & 0xC0) == 0x80)
		p++;
	return p;
}

/* `line` cut to at most `max` bytes, not inside a character. */
static void cut_between_characters(char *line, size_t max)
{
	if (strlen(line) <= max)
		return;
	while (max > 0 && ((unsigned char)line[max] & 0xC0) == 0x80)
		max--;
	line[max] = '\0';
}

void build_status_line(const build_status_sink *s, double now, char *line, size_t size)
{
	const build_plan *plan = &s->ctx->plan;
	const build_job *slow = NULL;
	char eta[48] = "";
	size_t n;

	for (size_t i = 0; i < plan->count; i++) {
		const build_job *j = &plan->jobs[i];

		if (j->needs_compile && !j->is_done && j->started_s > 0 && now - j->started_s >= 1.0 &&
		    (!slow || j->started_s < slow->started_s))
			slow = j;
	}
	build_status_eta(s, now, eta, sizeof eta);
	n = (size_t)snprintf(line, size, "[%zu/%zu%s]", s->done, s->total, eta);
	if (slow && n < size) {
		/* The name's tail is what tells files apart; before it, what is
		 * at work: the importer, then animc's passes. */
		const char *name = slow->path;
		const char *stage = slow->is_imported ? "animc's passes" : slow->importer_at_work;
		size_t room = (size_t)s->columns > n + 32 ? (size_t)s->columns - n - 32 : 8;

		if (strlen(name) > room)
			name = char_start(name + strlen(name) - room);
		snprintf(line + n, size - n, " %s%s%s (%.0f s)", stage, stage[0] ? ": " : "", name,
			 now - slow->started_s);
	}
	cut_between_characters(line, s->columns > 0 ? (size_t)s->columns - 1 : 0);
}

/* Set by SIGWINCH: the terminal was resized, and the next line drawn
 * takes its new width (read here, not in the handler). */
static volatile sig_atomic_t resized;

static void on_resize(int sig)
{
	(void)sig;
	resized = 1;
}

/* The columns of the terminal on standard output; 80 when it says none. */
static int terminal_columns(void)
{
	struct winsize ws;

	return ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
}

static void status_draw(build_status_sink *s, double now)
{
	char line[1024];

	if (resized) {
		resized = 0;
		s->columns = terminal_columns();
	}
	build_status_line(s, now, line, sizeof line);
	fputs("\r\033[K", stdout);
	for (const unsigned char *p = (const unsigned char *)line; *p; p++)
		fputc(*p < 0x20 || *p == 0x7F ? '?' : *p, stdout);
	cli_stdout_sync();
	s->line_shown = true;
	s->last_draw_s = now;
}

static void terminal_job_done(build_status_sink *s, size_t job)
{
	double now = build_now_s();

	(void)job;
	s->done++;
	if (now - s->last_draw_s >= 0.1 || s->done == s->total)
		status_draw(s, now);
}

static void terminal_tick(build_status_sink *s)
{
	double now = build_now_s();

	if (now - s->last_draw_s >= 0.5)
		status_draw(s, now);
}

static void console_clear(build_status_sink *s)
{
	status_erase(s);
	cli_stdout_sync();
}

static void no_job_done(build_status_sink *s, size_t job)
{
	s->done++;
	(void)job;
}

static void no_tick(build_status_sink *s)
{
	(void)s;
}

/* A warning of a kind --allow names becomes a note (said with -v only,
 * counted nowhere), its kind "KIND, allowed" (in `kind`, 80 bytes). */
static void note_if_allowed(const build_options *o, animc_diag *diag, char *kind)
{
	if (diag->severity != ANIMC_WARNING || !diag->kind || !o || !build_options_allows(o, diag->kind))
		return;
	snprintf(kind, 80, "%s, allowed", diag->kind);
	diag->kind = kind;
	diag->severity = ANIMC_NOTE;
}

void build_print_job_diag(const build_ctx *ctx, const build_job *j, const build_diag *d)
{
	animc_diag diag = build_job_diag(j, d);
	cli_diag_printer printer = ctx->printer;
	char kind[80];

	note_if_allowed(ctx->options, &diag, kind);
	cli_print_diag(&printer, &diag);
}

/* "1 track made fixed", "2 tracks made fixed": `one` and `many` are the
 * noun in each number, `rest` what was done. */
static void report_count(char *line, size_t size, size_t *n, uint32_t count, const char *one, const char *many,
			 const char *rest)
{
	if (!count || *n >= size)
		return;
	*n += (size_t)snprintf(line + *n, size - *n, "%s%u %s%s", *n ? ", " : "", count, count == 1 ? one : many,
			       rest);
}

static void report_passes(const animc_pass_stats *s)
{
	char line[512];
	size_t n = 0;

	report_count(line, sizeof line, &n, s->channels_sorted, "sequence", "sequences", " sorted by time");
	report_count(line, sizeof line, &n, s->duplicate_keys_dropped, "duplicate key", "duplicate keys", " dropped");
	report_count(line, sizeof line, &n, s->channels_merged, "sequence's tracks", "sequences' tracks",
		     " merged onto one timeline");
	report_count(line, sizeof line, &n, s->rotations_flipped, "rotation", "rotations", " put on one hemisphere");
	report_count(line, sizeof line, &n, s->tracks_made_fixed, "track", "tracks", " made fixed");
	report_count(line, sizeof line, &n, s->channels_collapsed, "sequence", "sequences", " down to one key");
	report_count(line, sizeof line, &n, s->channels_made_uniform, "sequence", "sequences", " made uniform");
	report_count(line, sizeof line, &n, s->keys_trimmed, "key", "keys", " outside the clip dropped");
	report_count(line, sizeof line, &n, s->intervals_set, "one-key sequence", "one-key sequences",
		     " given a KeyInterval");
	report_count(line, sizeof line, &n, s->channels_given_times, "sequence", "sequences", " given times");
	report_count(line, sizeof line, &n, s->shared_times_split, "shared key time", "shared key times", " split");
	report_count(line, sizeof line, &n, s->durations_lengthened, "duration", "durations", " lengthened");
	if (s->declared_count_corrected && n < sizeof line)
		n += (size_t)snprintf(line + n, sizeof line - n, "%sKeyFrameSequenceCount corrected", n ? ", " : "");
	if (s->compact_declined && n < sizeof line)
		n += (size_t)snprintf(line + n, sizeof line - n, "%swritten in the original layout (the compact "
				      "layout cannot hold it, or only in more bytes)", n ? ", " : "");
	printf("    passes: %s\n", n ? line : "nothing to change");
	if (s->is_reduced) {
		cli_format_clip_error(&s->error, line, sizeof line);
		printf("    %s\n", line);
	}
}

/* A job's messages, and with `lines` what it wrote (what -v adds too). */
static void print_job(build_status_sink *s, size_t i, bool lines)
{
	const build_ctx *ctx = s->ctx;
	const build_options *o = ctx->options;
	const build_job *j = &ctx->plan.jobs[i];
	const build_result *r = &j->result;
	char progress[48] = "";

	if (ctx->plan.count > 1)
		snprintf(progress, sizeof progress, "[%zu/%zu] ", i + 1, ctx->plan.count);
	status_erase(s);
	cli_stdout_sync();
	for (uint32_t k = 0; k < r->diag_count; k++)
		build_print_job_diag(ctx, j, &r->diags[k]);
	fflush(stderr);
	if (!lines)
		return;
	if (r->status == BUILD_SKIPPED) {
		if (o->verbose) {
			fputs(progress, stdout);
			fputs("skipped ", stdout);
			cli_print_escaped(stdout, j->path, 0);
			printf(" (%s)\n", r->skip_reason ? r->skip_reason : "skipped");
		}
		return;
	}
	if (r->status == BUILD_UP_TO_DATE) {
		if (o->verbose) {
			fputs(progress, stdout);
			fputs("up to date ", stdout);
			cli_print_escaped(stdout, j->path, 0);
			fputc('\n', stdout);
		}
		return;
	}
	for (uint32_t k = 0; k < r->output_count; k++) {
		const build_output *out = &r->outputs[k];
		char *path;

		if (!out->is_written)
			continue;
		path = build_output_path(ctx, j, out);
		fputs(progress, stdout);
		fputs(r->status == BUILD_CACHED ? "cached " : "compiled ", stdout);
		cli_print_escaped(stdout, j->path, 0);
		if (out->clip[0]) {
			fputs(" [", stdout);
			cli_print_escaped(stdout, out->clip, 0);
			fputs("]", stdout);
		}
		fputs(" -> ", stdout);
		cli_print_escaped(stdout, path ? path : out->name, 0);
		printf(" (%u bone%s, %g s, %llu bytes)\n", out->bones, out->bones == 1 ? "" : "s",
		       (double)out->duration_s, (unsigned long long)out->size);
		free(path);
		if (o->verbose) {
			fputs("    clip", stdout);
			if (out->clip[0]) {
				fputs(" '", stdout);
				cli_print_escaped(stdout, out->clip, 0);
				fputs("'", stdout);
			}
			printf(": %g s, %u bone%s, %llu keys", (double)out->duration_s, out->bones,
			       out->bones == 1 ? "" : "s", (unsigned long long)out->keys);
			if (out->ticks_per_second > 0)
				printf(", %g ticks per second", out->ticks_per_second);
			if (out->is_motion)
				printf(", the root motion of bone '%s'%s", o->author.root_bone,
				       o->author.root_yaw ? " with its yaw" : "");
			else if (o->author.has_additive && o->author.additive == ANIMC_ADDITIVE_CLIP)
				printf(", additive (the difference from clip '%s' at 0)", o->author.additive_clip);
			else if (o->author.has_additive)
				printf(", additive (the difference from %s)",
				       o->author.additive == ANIMC_ADDITIVE_BIND ? "the --skeleton rest pose"
										  : "its first frame");
			printf("\n");
			report_passes(&out->passes);
		}
	}
}

static void terminal_job_committed(build_status_sink *s, size_t i)
{
	print_job(s, i, s->ctx->options->verbose);
}

static void plain_job_committed(build_status_sink *s, size_t i)
{
	print_job(s, i, true);
}

static void quiet_job_committed(build_status_sink *s, size_t i)
{
	print_job(s, i, false);
}

static void console_note(build_status_sink *s, const char *line)
{
	status_erase(s);
	fputs(line, stdout);
	fputc('\n', stdout);
}

static void console_summary(build_status_sink *s, const build_totals *t, unsigned stale)
{
	/* The clips of the sources compiled (and of failed ones, written);
	 * those fetched are counted with the sources cached. */
	unsigned compiled_clips = t->clips - t->cached_clips;

	status_erase(s);
	printf("compiled %u source%s (%u clip%s), %u failed, %u skipped, %u warning%s", t->compiled,
	       t->compiled == 1 ? "" : "s", compiled_clips, compiled_clips == 1 ? "" : "s", t->failed, t->skipped,
	       t->warnings, t->warnings == 1 ? "" : "s");
	if (t->up_to_date)
		printf(", %u up to date", t->up_to_date);
	if (t->cached)
		printf(", %u cached (%u clip%s)", t->cached, t->cached_clips, t->cached_clips == 1 ? "" : "s");
	if (s->ctx->options->shard.count)
		printf(" (shard %u/%u)", s->ctx->options->shard.index, s->ctx->options->shard.count);
	/* A --prune run counts those it could not remove (said each, with
	 * what to do): advising --prune there would send the user round. */
	if (t->pruned)
		printf(", %u output%s pruned", t->pruned, t->pruned == 1 ? "" : "s");
	if (stale && s->ctx->options->prune)
		printf(", %u stale output%s left", stale, stale == 1 ? "" : "s");
	else if (stale)
		printf(", %u stale output%s (--prune removes them)", stale, stale == 1 ? "" : "s");
	if (t->reports_failed)
		printf(", %u report%s not written", t->reports_failed, t->reports_failed == 1 ? "" : "s");
	else if (t->run_errors)
		printf(", %u run error%s", t->run_errors, t->run_errors == 1 ? "" : "s");
	printf("\n");
	cli_stdout_sync();
}

/* Quiet: the summary only when something failed. */
static void quiet_summary(build_status_sink *s, const build_totals *t, unsigned stale)
{
	if (t->failed || t->reports_failed || t->run_errors)
		console_summary(s, t, stale);
	else
		console_clear(s);
}

/* On stderr, below the status line (taken away first). */
static void console_diag(build_status_sink *s, const animc_diag *d)
{
	cli_diag_printer printer = s->ctx->printer;

	status_erase(s);
	cli_stdout_sync();
	cli_print_diag(&printer, d);
}

static const build_status_ops terminal_ops = {
	terminal_job_done, terminal_tick, terminal_job_committed, console_note, console_summary, console_clear,
	console_diag,
};
static const build_status_ops plain_ops = {
	no_job_done, no_tick, plain_job_committed, console_note, console_summary, console_clear, console_diag,
};
static const build_status_ops quiet_ops = {
	no_job_done, no_tick, quiet_job_committed, console_note, quiet_summary, console_clear, console_diag,
};

/* Whether --progress asks for the updating line.  auto wants a terminal
 * that can erase a line: TERM=dumb (Emacs' compile buffers, CI log viewers
 * on a pty) or no TERM shows "\033[K" as text, so there, as git, cargo and
 * ninja do, a line per source; always draws it anyway. */
static bool is_live(const build_options *o)
{
	const char *term = getenv("TERM");

	if (o->progress != PROGRESS_AUTO)
		return o->progress == PROGRESS_ALWAYS;
	return isatty(STDOUT_FILENO) && term && term[0] && strcmp(term, "dumb") != 0;
}

void build_status_console_init(build_status_sink *s, build_ctx *ctx)
{
	const build_options *o = ctx->options;

	memset(s, 0, sizeof *s);
	s->ops = o->quiet ? &quiet_ops : is_live(o) ? &terminal_ops : &plain_ops;
	s->ctx = ctx;
	s->start_s = build_now_s();
	/* A terminal of any width: a line wider than it wraps, and "\r\033[K"
	 * erases only its last row, so each redraw left a row behind.  So
	 * too after a resize during a long build: it is watched for. */
	s->columns = terminal_columns();
	if (s->ops == &terminal_ops) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_resize;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		resized = 0;
		sigaction(SIGWINCH, &sa, NULL);
	}
}

/* The status line counts the sources of the plan, as the lines of each
 * source number them ([3/9]): those with nothing to compile (up to date, a
 * clip-split sidecar) are done from the start, and the time left is
 * judged by the others. */
void build_status_begin(build_status_sink *s, size_t to_compile)
{
	size_t count = s->ctx->plan.count;

	s->total = count > to_compile ? count : to_compile;
	s->done = s->done_before = s->total - to_compile;
	s->start_s = build_now_s();
	/* Nothing to compile: no line to update. */
	if (s->ops == &terminal_ops && !to_compile)
		s->ops = &plain_ops;
}

/* ---------------------------------------------------------------- outputs */

/* The job's diagnostics, then the paths of the outputs it would write. */
static void outputs_job_committed(build_status_sink *s, size_t i)
{
	const build_ctx *ctx = s->ctx;
	const build_job *j = &ctx->plan.jobs[i];

	for (uint32_t d = 0; d < j->result.diag_count; d++)
		if (j->result.diags[d].severity != ANIMC_NOTE || ctx->options->verbose)
			build_print_job_diag(ctx, j, &j->result.diags[d]);
	for (uint32_t k = 0; k < j->result.output_count; k++) {
		const build_output *o = &j->result.outputs[k];
		char *path;

		/* An up-to-date record keeps the outputs of the clips a --clip
		 * run leaves out; this run writes none of them. */
		if (o->is_refused || build_options_leaves_out(ctx->options, o->clip, o->is_motion))
			continue;
		path = build_output_path(ctx, j, o);
		if (path) {
			/* Escaped as every name animc prints: one path a line,
			 * and no control character reaches the terminal. */
			cli_print_escaped(stdout, path, 0);
			fputc('\n', stdout);
		}
		free(path);
	}
}

static void outputs_note(build_status_sink *s, const char *line)
{
	(void)s;
	fputs(line, stdout);
	fputc('\n', stdout);
}

static void outputs_summary(build_status_sink *s, const build_totals *t, unsigned stale)
{
	(void)s, (void)t, (void)stale;
}

static void outputs_clear(build_status_sink *s)
{
	(void)s;
}

static const build_status_ops outputs_ops = {
	no_job_done, no_tick, outputs_job_committed, outputs_note, outputs_summary, outputs_clear, console_diag,
};

void build_status_outputs_init(build_status_sink *s, build_ctx *ctx)
{
	memset(s, 0, sizeof *s);
	s->ops = &outputs_ops;
	s->ctx = ctx;
	s->start_s = build_now_s();
}

static void say(const build_ctx *ctx, animc_severity severity, const char *kind, const char *subject,
		uint32_t line, const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

static void say(const build_ctx *ctx, animc_severity severity, const char *kind, const char *subject,
		uint32_t line, const char *fmt, va_list ap)
{
	animc_diag diag = { severity, subject, line, 0, -1, NULL, severity == ANIMC_WARNING ? kind : NULL };
	char *message, allowed[80];

	if (vasprintf(&message, fmt, ap) < 0)
		message = NULL;
	if (!ctx || !ctx->status) {
		if (line)
			cli_report(severity, subject, "line %u: %s", line, message ? message : "out of memory");
		else
			cli_report(severity, subject, "%s", message ? message : "out of memory");
	} else {
		diag.message = message ? message : "out of memory";
		note_if_allowed(ctx->options, &diag, allowed);
		if (diag.severity == ANIMC_WARNING)
			ctx->status->run_warnings++;
		if (diag.severity != ANIMC_NOTE)
			build_said_add(&ctx->status->said, diag.severity, diag.kind, subject, line, diag.message);
		ctx->status->ops->diag(ctx->status, &diag);
	}
	free(message);
}

void build_say(const build_ctx *ctx, animc_severity severity, const char *subject, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(ctx, severity, NULL, subject, 0, fmt, ap);
	va_end(ap);
}

void build_say_kind(const build_ctx *ctx, animc_severity severity, const char *kind, const char *subject,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(ctx, severity, kind, subject, 0, fmt, ap);
	va_end(ap);
}

void build_say_at(const build_ctx *ctx, animc_severity severity, const char *subject, uint32_t line,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(ctx, severity, NULL, subject, line, fmt, ap);
	va_end(ap);
}

void build_say_at_kind(const build_ctx *ctx, animc_severity severity, const char *kind, const char *subject,
		       uint32_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(ctx, severity, kind, subject, line, fmt, ap);
	va_end(ap);
}
