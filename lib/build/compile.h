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

/* --scale and --rotate on every clip of `set`, as animc build converts a
 * source (animc plot converts it alike): every bone and key as MonoGame's
 * ModelProcessor converts a model (animc_clip_apply_units).  With
 * root_bone (--root-motion) and a rotation, *is_motion_turned is set and
 * motion_turn is the rotation, which turns the travel's default up axis.
 * Warnings are said of every clip, or (warn_clip) of the one of that
 * name.  False (reported) when --scale takes a translation past a float's
 * range, said naming it as `scale_name` (NULL: "--scale"). */
bool build_units_convert(const animc_units *units, const char *scale_name, const char *root_bone,
			 const char *warn_clip, animc_clip_set *set, bool *is_motion_turned, double motion_turn[4],
			 animc_diag_sink *sink);

#endif
