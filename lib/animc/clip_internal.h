/*
 * clip_internal.h - helpers shared by the pipeline's own sources: message
 * prefixes naming clip and bone, float classification, quaternion maths.
 * Not installed.
 */
#ifndef ANIMC_CLIP_INTERNAL_H
#define ANIMC_CLIP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>

/* "NaN", "infinite" or "-infinite" for a non-finite float, "finite" otherwise. */
const char *animc_float_class(float f);

/* Shortest-arc spherical interpolation of unit quaternions (x y z w), as the
 * original runtime did, in double precision; out may alias neither input. */
void animc_quat_slerp(const float a[4], const float b[4], double u, float out[4]);
void animc_vec_lerp(const float *a, const float *b, unsigned width, double u, float *out);

/* n >= 2 times from 0, evenly spaced within float precision (a few ulps
 * of i times the interval): the uniform pass's rule (passes.c); the
 * interval in *interval. */
bool animc_times_evenly_spaced(const float *t, uint32_t n, float *interval);

/* A copy of channel `from` into *to whose key arrays are its own (in the
 * clip's arena); ANIMC_ERR_NOMEM when the arena is out of room. */
animc_status animc_channel_copy(animc_clip *clip, const animc_channel *from, animc_channel *to);

/* animc_pass_compact, trying only the grids the caller may want: with
 * most_bytes 0, the keys' own grid, and not even that when it holds more
 * than twice the samples of the channel of most keys; otherwise those
 * whose payload can take at most `most_bytes` (every grid with a
 * skeleton's shell, whose bounds differ per bone).  Past them,
 * ANIMC_ERR_UNSUPPORTED with nothing reported and *untried the first grid
 * not tried (2^*untried times finer than the keys' spacing); *untried -1
 * otherwise. */
animc_status animc_compact_encode(animc_clip *clip, const animc_reduce_options *options, uint64_t most_bytes,
				  int *untried, animc_diag_sink *sink, animc_pass_stats *stats);

/* How many points the compact encoder's span tests have measured on the
 * calling thread so far: the work of its searches for keys, which the
 * tests bound. */
uint64_t animc_compact_span_points(void);

/* The lossy passes' bounds, each a number from 0 to ANIMC_TOLERANCE_MAX:
 * ANIMC_OK; else an error naming the bound (`options` NULL: ANIMC_OK). */
#define ANIMC_TOLERANCE_MAX 1e30
animc_status animc_tolerance_check(const animc_reduce_options *options, animc_diag_sink *sink);

#endif
