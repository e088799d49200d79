/*
 * report.h - the files for tools, made from the results: the JSON report,
 * JUnit XML, depfiles; and the totals of a run (report.c).
 */
#ifndef ANIMC_BUILD_REPORT_H
#define ANIMC_BUILD_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

typedef struct build_ctx build_ctx;

typedef struct build_totals {
	unsigned sources, compiled, up_to_date, skipped, failed, cached;
	unsigned clips, warnings, errors;
	unsigned run_warnings;     /* of warnings, the run's own (not a source's) */
	unsigned run_errors;       /* the run's own errors (a build stopped before it built) */
	unsigned cached_clips;     /* of clips, those fetched from the cache */
	unsigned reports_failed;   /* --report, --junit, --depfile files not written */
	unsigned pruned;           /* outputs --prune removed (set by the engine) */
	uint64_t output_bytes;
} build_totals;

/* Whether `d` is a warning of a kind --allow names: not said, not
 * counted, failing nothing. */
bool build_diag_is_allowed(const build_options *o, const build_diag *d);
/* The warnings of a result that count: those --allow does not name. */
unsigned build_result_warnings_said(const build_options *o, const build_result *r);

/* The sources' counts, and the warnings of the run's own said so far. */
void build_totals_count(const build_ctx *ctx, build_totals *t);

bool build_report_json(const build_ctx *ctx, const char *path, cli_error *err);
bool build_report_junit(const build_ctx *ctx, const char *path, cli_error *err);
bool build_report_depfile(const build_ctx *ctx, const char *path, cli_error *err);

/* True when reports carry no times (SOURCE_DATE_EPOCH is set). */
bool build_reproducible(void);

#endif
