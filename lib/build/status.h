/*
 * status.h - what a user reads: per job (in order), the status line and
 * the summary (status.c).
 */
#ifndef ANIMC_BUILD_STATUS_H
#define ANIMC_BUILD_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

typedef struct build_ctx build_ctx;

/* What a user reads: per job (in order) and the status line. */
typedef struct build_status_line {
	build_ctx *ctx;
	bool is_live;       /* one line updated in place */
	bool line_shown;
	size_t done, total;
	double start_s, last_draw_s;
	int columns;
} build_status_line;

void build_status_init(build_status_line *s, build_ctx *ctx, size_t total);
void build_status_job_done(build_status_line *s);
void build_status_tick(build_status_line *s);
/* Print the messages and lines of a committed job. */
void build_status_print_job(build_status_line *s, size_t i);
void build_status_clear(build_status_line *s);
void build_status_summary(build_status_line *s, const build_totals *t, unsigned stale);

#endif
