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
 * source (animc plot converts it alike).  The rotation turns the roots of
 * `model` (--skeleton), else of the source's own node tree
 * (importer->load_skeleton on `path`), and says which clips animate none.
 * `turn` names the rotation in messages ("--rotate", or a MonoGame item's
 * RotationX/Y/Z).  With root_bone (--root-motion), *is_motion_turned says whether the
 * rotation turns its travel (the bone is a root), motion_turn the
 * rotation.  The clips a rotation leaves unturned are said, all of them
 * or (warn_clip) the one of that name.  False (reported) when a rotation
 * has no tree to find its roots in, or --scale takes a translation past a
 * float's range. */
bool build_units_convert(const animc_units *units, const char *turn, const animc_importer *importer,
			 const char *path, const animc_skeleton *model, const char *root_bone, const char *warn_clip,
			 animc_clip_set *set, bool *is_motion_turned, double motion_turn[4], animc_diag_sink *sink);

#endif
