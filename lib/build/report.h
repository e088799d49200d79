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
	unsigned cached_clips;     /* of clips, those fetched from the cache */
	unsigned reports_failed;   /* --report, --junit, --depfile files not written */
	uint64_t output_bytes;
} build_totals;

/* The sources' counts, and the warnings of the run's own said so far. */
void build_totals_count(const build_ctx *ctx, build_totals *t);

bool build_report_json(const build_ctx *ctx, const char *path, cli_error *err);
bool build_report_junit(const build_ctx *ctx, const char *path, cli_error *err);
bool build_report_depfile(const build_ctx *ctx, const char *path, cli_error *err);

/* --rotate turns the root bones a clip animates.  A clip that animates
 * none is left as it is, which is right for a layer over one that turns
 * the root (its compile notes it); when no source of the build turned
 * anything, --rotate did nothing: the first source whose clips animate no
 * root, else NULL.  The engine says it once, under that source's path,
 * in these words (the bone: its result's unturned_node), and --junit
 * carries it too. */
const build_job *build_rotation_unused(const build_ctx *ctx);
#define BUILD_ROTATION_UNUSED_FORMAT                                                                   \
	"--rotate turned nothing: no clip of this build animates a root bone (this source's highest " \
	"animated bone is '%s'), and --rotate turns the roots alone; turn the model in the engine or " \
	"in the model instead"

/* True when reports carry no times (SOURCE_DATE_EPOCH is set). */
bool build_reproducible(void);

#endif
