/*
 * reduce.h - what the reduction pass (reduce.c) and the compact encoder
 * (compact.c) share: the source as the runtime samples it, the error of a
 * track, and the greedy key selection over candidate points.  Not installed.
 */
#ifndef ANIMC_REDUCE_H
#define ANIMC_REDUCE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <animc/animc.h>

#include "interp.h"

/* Part of the bound kept back for float rounding and, for slerp arcs, the
 * curvature between check points. */
#define REDUCE_MARGIN 0.02

/* The value of track `kind` of `ch` at local time t (already clamped or
 * wrapped), as libanimrt samples it: identity when absent. */
void animc_reduce_channel_value(const animc_channel *ch, animc_track_kind kind, float t, float *out);

/* animc_reduce_channel_value over an array of channels (ctx), at clip time t
 * clamped to the channel's duration: a shell_value_fn (shell.h). */
void animc_reduce_channels_value(const void *ctx, uint32_t channel, animc_track_kind kind, float t, float *out);

/* The bound of a track kind with the margin taken off. */
double animc_reduce_bound(const animc_tolerance *tolerance, animc_track_kind kind);

/* Raise e's worst error of track kind `kind` to err, when larger. */
void animc_reduce_note_error(animc_clip_error *e, animc_track_kind kind, double err);
/* Fold a channel's error into a clip's: the worst of each kind (the model-
 * space shell error too), keys added. */
void animc_reduce_merge_error(animc_clip_error *into, const animc_clip_error *e);

/* Between neighbouring candidates a rotation is also checked every this
 * many radians of the source's arc (a slerp arc and its reduced twin part
 * furthest inside long arcs); every interval gets at least its middle. */
#define REDUCE_ARC_STEP 0.05

/*
 * A track as candidate keys and check points, for the greedy selection.
 * Candidates i = 0..n-1 sit at positions pos[i] (grid samples or times,
 * increasing); value[i] is the source there, stored[i] what a kept key would
 * hold (quantised, or the value itself).  check_* are the further points
 * where the source is compared (animc_reduce_check_positions, and source keys off
 * the candidates), sorted by position.
 */
typedef struct reduce_curve {
	animc_track_kind kind;
	unsigned width;        /* floats per value: 3, or 4 for rotations */
	double bound;
	uint32_t n;
	const float *pos;
	const float *value;
	const float *stored;
	uint32_t check_count;
	const double *check_pos;   /* positions of the runtime's own precision */
	const float *check_value;
	/* A nudge (animc_reduce_span_nudged) leaves the first and last
	 * candidates as they are, and never moves a component (translation,
	 * scale) or turns about an axis (rotation) whose bit is in
	 * zero_axes (1 = x, 2 = y, 4 = z). */
	bool keep_ends;
	uint8_t zero_axes;
} reduce_curve;

/* Float steps of a track's largest component kept back from the bound of
 * its keys, where that is more than REDUCE_MARGIN (animc_reduce_keyed_bound). */
#define REDUCE_FLOAT_STEPS 1.5

/*
 * The bound a translation or scale curve c's keys are held to: c->bound, or
 * less where REDUCE_FLOAT_STEPS float steps of its largest component take
 * more off `full` (the tolerance without margin) and `more` (a further
 * margin of the caller's).  Between the points
 * measured the runtime's float time, decoding and lerp round by about a
 * step of the values, which REDUCE_MARGIN covers only up to about 1e5 times
 * the bound (0.00195 was measured near 1e4 units with a bound of 0.001).
 * A rotation's is c->bound.  May be 0 or less: no keys but the source's
 * hold it.  Into *most the largest component.
 */
double animc_reduce_keyed_bound(const reduce_curve *c, double full, double more, double *most);

/* How many check points animc_reduce_check_positions gives for c's candidates
 * (pos, value, n, kind). */
uint32_t animc_reduce_check_count(const reduce_curve *c);

/* The check points between c's candidates, in order: the middle of every
 * interval, and for rotations one every REDUCE_ARC_STEP of arc. */
void animc_reduce_check_positions(const reduce_curve *c, double *out);

/* The index of c's first check point at or after position p (check_count
 * when there is none). */
uint32_t animc_reduce_check_from(const reduce_curve *c, double p);

/* conj(a) * b in double precision, (x, y, z, w): the rotation from a to b,
 * whose half angle is atan2(|xyz|, |w|).  Inline: the encoders' error
 * tests run it for every point they check. */
static inline void reduce_conj_product(const float *a, const float *b, double out[4])
{
	double ax = a[0], ay = a[1], az = a[2], aw = a[3], bx = b[0], by = b[1], bz = b[2], bw = b[3];

	out[0] = aw * bx - ax * bw - ay * bz + az * by;
	out[1] = aw * by - ay * bw - az * bx + ax * bz;
	out[2] = aw * bz - az * bw - ax * by + ay * bx;
	out[3] = aw * bw + ax * bx + ay * by + az * bz;
}

/* The checks of c between positions lo and hi (inclusive): narrows
 * check_pos / check_value / check_count of *sub. */
void animc_reduce_checks_within(const reduce_curve *c, double lo, double hi, reduce_curve *sub);

/* The curve's value between kept keys a and b at position p, as the
 * runtime computes it. */
void animc_reduce_interpolate(const reduce_curve *c, uint32_t a, uint32_t b, double p, float *out);

/* The span between kept keys a and b of a curve, to be evaluated at many
 * positions (reduce_span_at): its keys and, for a rotation, their arc,
 * taken once.  Inline: the encoders' span tests run it for every point. */
typedef struct reduce_span {
	const float *va, *vb;
	float pa, pb;
	bool is_rotation;
	unsigned width;
	interp_arc arc;
} reduce_span;

static inline reduce_span reduce_span_of(const reduce_curve *c, uint32_t a, uint32_t b)
{
	reduce_span s;

	s.va = c->stored + (size_t)a * c->width;
	s.vb = c->stored + (size_t)b * c->width;
	s.pa = c->pos[a];
	s.pb = c->pos[b];
	s.width = c->width;
	s.is_rotation = c->kind == ANIMC_ROTATION;
	if (s.is_rotation)
		s.arc = interp_arc_of(interp_dot4(s.va, s.vb));
	return s;
}

/* animc_reduce_interpolate on a span from reduce_span_of: the same bits. */
static inline void reduce_span_at(const reduce_span *s, double p, float *out)
{
	float length = s->pb - s->pa;
	float u = length > 0 && p > s->pa ? (float)((p - s->pa) / length) : 0;

	if (p >= s->pb)
		memcpy(out, s->vb, s->width * sizeof *out);
	else if (!(u > 0))
		memcpy(out, s->va, s->width * sizeof *out);
	else if (s->is_rotation)
		interp_slerp_on(out, s->va, s->vb, &s->arc, u);
	else
		interp_lerp3(out, s->va, s->vb, u);
}

/* The worst error of the span between kept keys a < b against every check
 * point in [pos[a], pos[b]], or -1 as soon as one passes the bound (when
 * stop_early). */
double animc_reduce_span_error(const reduce_curve *c, uint32_t a, uint32_t b, bool stop_early);

/* How many points animc_reduce_span_error and animc_reduce_fewest_nudged's
 * span tests have measured on the calling thread so far: the work of the
 * searches for keys, which the tests bound. */
uint64_t animc_reduce_span_points(void);

/*
 * Keep the first and last candidate, every `forced` one (may be NULL), and
 * from each kept key the farthest next candidate such that every curve of
 * the `count` (one key set for all, as the original layout's channels need)
 * stays within its bound.  kept gets the indices (room for n); returns how
 * many, or 0 when even neighbouring candidates break a bound (the stored
 * values are too coarse).
 */
uint32_t animc_reduce_greedy(const reduce_curve *curves, uint32_t count, const uint8_t *forced, uint32_t *kept);

/*
 * animc_reduce_greedy where a kept key may move a little off the source (within
 * part of its bound, each component or axis by a fixed step) when that lets
 * the span to it reach further; stored[k] (n values of curve k, writable,
 * curves[k].stored pointing at it) gets the moved values of the kept keys.
 */
/* Does the span a < b of c hold its bound with b's value the source's or
 * one nudged off it (stored, writable, c->stored pointing at it, gets the
 * value that holds, or the source's)? */
bool animc_reduce_span_nudged(const reduce_curve *c, float *stored, uint32_t a, uint32_t b);

uint32_t animc_reduce_greedy_nudged(const reduce_curve *curves, float *const *stored, uint32_t count,
			      const uint8_t *forced, uint32_t *kept);

/*
 * The fewest keys that keep every curve within its bound, each kept key
 * at its source value or one nudged off it as animc_reduce_greedy_nudged moves
 * them (by dynamic programming, not greedily); the same arguments and
 * result as animc_reduce_greedy_nudged, and 0 also for a sequence too long for
 * its tables or its work (or no memory for them), or when it passes its
 * budget of points measured: the caller keeps the greedy's keys.
 */
uint32_t animc_reduce_fewest_nudged(const reduce_curve *curves, float *const *stored, uint32_t count,
			      const uint8_t *forced, uint32_t *kept);

/* Identity of a track kind: 0 0 0, 0 0 0 1, 1 1 1. */
const float *animc_reduce_identity(animc_track_kind kind);

/* A value to hold a track at: the component midrange (translation, scale),
 * or the normalised mean on the first point's hemisphere (rotation). */
void animc_reduce_constant_candidate(const reduce_curve *c, float *out);

/* The worst error of one value held over every point of the curve. */
double animc_reduce_constant_error(const reduce_curve *c, const float *value);

#endif
