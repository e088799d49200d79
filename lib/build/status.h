/*
 * status.h - every line a user reads about a run passes through a status
 * sink, after ninja's Status: the engine says what happened (a result came,
 * a job was committed, a note, the totals), the sink decides what to print.
 * Four sinks (status.c):
 *   terminal  a status line updated in place, then each job's lines (-v);
 *   plain     each job's lines, in job order;
 *   quiet     diagnostics only, and the summary when something failed;
 *   outputs   `animc outputs`: diagnostics, then the paths a build writes.
 * Diagnostics go to stderr, the rest to stdout.  Tests bring their own
 * (build_engine_deps): a run sets its ctx.
 */
#ifndef ANIMC_BUILD_STATUS_H
#define ANIMC_BUILD_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "said.h"

typedef struct build_ctx build_ctx;
typedef struct build_status_sink build_status_sink;

typedef struct build_status_ops {
	/* A job's result is in place (in any order). */
	void (*job_done)(build_status_sink *s, size_t job);
	/* Now and then while jobs run. */
	void (*tick)(build_status_sink *s);
	/* A job was committed (strictly in job order): its messages and lines. */
	void (*job_committed)(build_status_sink *s, size_t job);
	/* A line of the run's own (escaped already), such as "pruned 3 outputs". */
	void (*note)(build_status_sink *s, const char *line);
	/* The totals, at the end of a build. */
	void (*summary)(build_status_sink *s, const build_totals *t, unsigned stale);
	/* Take away what is drawn in place (before the run ends or stops). */
	void (*clear)(build_status_sink *s);
	/* A diagnostic of the run's own (the lock, the manifest, the cache,
	 * reports), not of a source's. */
	void (*diag)(build_status_sink *s, const animc_diag *d);
} build_status_ops;

struct build_status_sink {
	const build_status_ops *ops;
	build_ctx *ctx;
	/* The terminal's: one line updated in place. */
	bool line_shown;
	/* Of the plan's `total` sources, those done, and of them those done
	 * before compiling started (nothing to compile). */
	size_t done, done_before, total;
	double start_s, last_draw_s;
	int columns;
	/* Warnings of the run's own (the cache, the manifest) said so far:
	 * the summary counts them with the sources'. */
	unsigned run_warnings;
	/* Those warnings, and the run's errors, for the reports. */
	build_said_list said;
};

/* The sink the options ask for: terminal (a tty, or --progress always),
 * plain, or quiet. */
void build_status_console_init(build_status_sink *s, build_ctx *ctx);
/* Compiling starts: `to_compile` of the plan's jobs to compile (the
 * terminal counts the plan's jobs, the others done already; with none to
 * compile, it prints as plain does). */
void build_status_begin(build_status_sink *s, size_t to_compile);
/* The status line's estimate of the time left, ", N s left", into `eta`
 * (`size` bytes), judged by the sources done since compiling started; ""
 * before one is done, after the last, and under a second (a build of a
 * few milliseconds said "1 s left"). */
void build_status_eta(const build_status_sink *s, double now, char *eta, size_t size);
/* The status line at `now` into `line` (`size` bytes): "[3/9, 2 s left]",
 * then the source at work for a second or more, the tail of its name;
 * at most s->columns - 1 bytes (so columns), cut between characters. */
void build_status_line(const build_status_sink *s, double now, char *line, size_t size);
/* The sink of `animc outputs`. */
void build_status_outputs_init(build_status_sink *s, build_ctx *ctx);

/* Print a diagnostic of job j's result: an allowed warning (--allow) as
 * a note, which only -v prints. */
void build_print_job_diag(const build_ctx *ctx, const build_job *j, const build_diag *d);

/* Say a diagnostic of the run's own, "SUBJECT: SEVERITY: message" (subject
 * NULL: "animc"), through ctx->status, or cli_report before a run has one. */
void build_say(const build_ctx *ctx, animc_severity severity, const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same about a line of SUBJECT: "SUBJECT:LINE: SEVERITY: message". */
void build_say_at(const build_ctx *ctx, animc_severity severity, const char *subject, uint32_t line,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same for a warning of a kind (a name of animc_warning_kinds): one
 * --allow names is a note, which only -v prints, and is not counted. */
void build_say_kind(const build_ctx *ctx, animc_severity severity, const char *kind, const char *subject,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void build_say_at_kind(const build_ctx *ctx, animc_severity severity, const char *kind, const char *subject,
		       uint32_t line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
