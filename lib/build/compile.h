/*
 * compile.h - one job -> one result: the outputs' bytes and stats and the
 * diagnostics.  It never prints, counts or writes (compile.c).
 */
#ifndef ANIMC_BUILD_COMPILE_H
#define ANIMC_BUILD_COMPILE_H

#include <stdint.h>

#include "plan.h"
#include "result.h"

typedef struct build_ctx build_ctx;

/* Compile one job into `r` (zeroed first).  Pure with respect to the run:
 * reads the source (and what its import reads), prints nothing, writes
 * nothing. */
void build_compile(const build_ctx *ctx, const build_job *job, build_result *r);

/* A name for an output file: `name` (a stem or a clip name) made safe
 * (FORMAT.md section 5) into a new string; `index` names an empty clip.
 * NULL when out of memory. */
char *build_safe_name(const char *name, uint32_t index);

#endif
