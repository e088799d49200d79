/*
 * reduce.c - error-bounded key reduction: the source as the runtime samples
 * it, the error of a track, the greedy key selection both lossy passes use,
 * and the pass for the original layout (animc_pass_reduce).  Pure: clip in,
 * clip out, no clock, no global; new arrays come from the clip's arena.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>

#include "clip_internal.h"
#include "interp.h"
#include "reduce.h"
#include "shell.h"

bool animc_tolerance_is_set(const animc_tolerance *t)
{
	return t && (t->translation > 0 || t->rotation_deg > 0 || t->scale > 0);
}

/* A NaN bound compares false with every error: taken, it let the passes
 * drop any key, and a clip came out wrong with ANIMC_OK. */
animc_status animc_tolerance_check(const animc_reduce_options *options, animc_diag_sink *sink)
{
	if (!options)
		return ANIMC_OK;
	const float bounds[ANIMC_TRACK_COUNT] = { options->tolerance.translation, options->tolerance.rotation_deg,
						  options->tolerance.scale };

	for (int i = 0; i < ANIMC_TRACK_COUNT; i++)
		if (!(bounds[i] >= 0 && bounds[i] <= ANIMC_TOLERANCE_MAX)) {
			animc_diag_report(sink, ANIMC_ERROR, 0, 0,
					  "the %s tolerance %g is not a number from 0 to %g", animc_track_name[i],
					  (double)bounds[i], ANIMC_TOLERANCE_MAX);
			return ANIMC_ERR_ARGUMENT;
		}
	return ANIMC_OK;
}

/* ------------------------------------------------------------- the source */

static const float identity_value[ANIMC_TRACK_COUNT][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

const float *animc_reduce_identity(animc_track_kind kind)
{
	return identity_value[kind];
}

void animc_reduce_channel_value(const animc_channel *ch, animc_track_kind kind, float t, float *out)
{
	const animc_track *tr = &ch->tracks[kind];
	unsigned width = animc_track_width[kind];
	uint32_t i1 = 0, i2 = 0;
	float u = 0;

	if (!tr->is_present || tr->value_count == 0) {
		memcpy(out, identity_value[kind], width * sizeof *out);
		return;
	}
	if (tr->value_count == 1 || ch->key_count < 2) {
		memcpy(out, tr->values, width * sizeof *out);
		return;
	}
	uint32_t last = ch->key_count - 1;
	if (ch->has_time)
		interp_timed_weight(ch->times_s, interp_search_times(ch->times_s, last, t), last, t, &i1, &i2, &u);
	else
		interp_uniform_keys(ch->key_interval_s, last, t, &i1, &i2, &u);
	const float *a = tr->values + (size_t)i1 * width, *b = tr->values + (size_t)i2 * width;
	if (!(u > 0))
		memcpy(out, a, width * sizeof *out);
	else if (kind == ANIMC_ROTATION)
		interp_slerp(out, a, b, u);
	else
		interp_lerp3(out, a, b, u);
}

double animc_track_error(animc_track_kind kind, const float *a, const float *b)
{
	if (kind == ANIMC_TRANSLATION) {
		double dx = (double)a[0] - b[0], dy = (double)a[1] - b[1], dz = (double)a[2] - b[2];

		return sqrt(dx * dx + dy * dy + dz * dz);
	}
	if (kind == ANIMC_SCALE) {
		double e = 0;

		for (int c = 0; c < 3; c++)
			e = fmax(e, fabs((double)a[c] - b[c]));
		return e;
	}
	/* The angle of conj(a) * b, from its vector and scalar parts: precise
	 * for small angles, where acos is not.  Neither needs unit length. */
	double d[4];

	reduce_conj_product(a, b, d);
	double w = d[3], v = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);

	return 2.0 * atan2(v, fabs(w)) * (180.0 / 3.14159265358979323846);
}

double animc_reduce_bound(const animc_tolerance *t, animc_track_kind kind)
{
	double b = kind == ANIMC_TRANSLATION ? t->translation : kind == ANIMC_ROTATION ? t->rotation_deg : t->scale;

	return b * (1.0 - REDUCE_MARGIN);
}

double animc_reduce_keyed_bound(const reduce_curve *c, double full, double more, double *most)
{
	*most = 0;
	if (c->kind == ANIMC_ROTATION)
		return c->bound;
	for (uint32_t i = 0; i < c->n; i++) {
		const float *v = c->value + (size_t)i * c->width;

		*most = fmax(*most, fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2]))));
	}
	return fmin(c->bound, full - more - REDUCE_FLOAT_STEPS * FLT_EPSILON * *most);
}

/* --------------------------------------------------------------- greedy */

void animc_reduce_interpolate(const reduce_curve *c, uint32_t a, uint32_t b, double p, float *out)
{
	reduce_span s = reduce_span_of(c, a, b);

	reduce_span_at(&s, p, out);
}

uint32_t animc_reduce_check_from(const reduce_curve *c, double p)
{
	uint32_t lo = 0, hi = c->check_count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->check_pos[mid] < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Check points inside interval i: 1 (its middle), or one per
 * REDUCE_ARC_STEP of a rotation's arc. */
static uint32_t checks_in_interval(const reduce_curve *c, uint32_t i)
{
	if (c->kind != ANIMC_ROTATION)
		return 1;
	const float *a = c->value + (size_t)i * 4, *b = a + 4;
	double dot = fabs((double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3]);
	double arc = acos(dot < 1 ? dot : 1);
	double m = ceil(arc / REDUCE_ARC_STEP);

	return m < 2 ? 1 : m > 256 ? 255 : (uint32_t)m - 1;
}

uint32_t animc_reduce_check_count(const reduce_curve *c)
{
	uint32_t total = 0;

	for (uint32_t i = 0; i + 1 < c->n; i++)
		total += checks_in_interval(c, i);
	return total;
}

void animc_reduce_check_positions(const reduce_curve *c, double *out)
{
	for (uint32_t i = 0; i + 1 < c->n; i++) {
		uint32_t m = checks_in_interval(c, i);

		for (uint32_t k = 1; k <= m; k++)
			*out++ = c->pos[i] + (c->pos[i + 1] - c->pos[i]) * ((float)k / (float)(m + 1));
	}
}

void animc_reduce_checks_within(const reduce_curve *c, double lo, double hi, reduce_curve *sub)
{
	uint32_t k0 = animc_reduce_check_from(c, lo), k1 = k0;

	while (k1 < c->check_count && c->check_pos[k1] <= hi)
		k1++;
	sub->check_pos = c->check_pos + k0;
	sub->check_value = c->check_value + (size_t)k0 * c->width;
	sub->check_count = k1 - k0;
}

/* Points measured by animc_reduce_span_error and the dynamic programme's
 * span tests on this thread: the work of the searches for keys. */
static _Thread_local uint64_t span_points;

uint64_t animc_reduce_span_points(void)
{
	return span_points;
}

double animc_reduce_span_error(const reduce_curve *c, uint32_t a, uint32_t b, bool stop_early)
{
	reduce_span span = reduce_span_of(c, a, b);
	float v[4];
	double worst = 0, e;

#define REDUCE_CHECK(expr)                                  \
	do {                                                \
		span_points++;                              \
		e = (expr);                                 \
		if (e > worst)                              \
			worst = e;                          \
		if (stop_early && worst > c->bound)         \
			return -1;                          \
	} while (0)

	for (uint32_t i = a; i <= b; i++) {
		if (i == a || i == b) {
			REDUCE_CHECK(animc_track_error(c->kind, c->stored + (size_t)i * c->width,
						  c->value + (size_t)i * c->width));
		} else {
			reduce_span_at(&span, c->pos[i], v);
			REDUCE_CHECK(animc_track_error(c->kind, v, c->value + (size_t)i * c->width));
		}
	}
	/* Up to key b's time, not at it: key b is checked above, and where
	 * keys share its time the source there is the last of them, which a
	 * later span reaches. */
	for (uint32_t k = animc_reduce_check_from(c, c->pos[a]); k < c->check_count && c->check_pos[k] < c->pos[b]; k++) {
		reduce_span_at(&span, c->check_pos[k], v);
		REDUCE_CHECK(animc_track_error(c->kind, v, c->check_value + (size_t)k * c->width));
	}
#undef REDUCE_CHECK
	return worst;
}

uint32_t animc_reduce_greedy(const reduce_curve *curves, uint32_t count, const uint8_t *forced, uint32_t *kept)
{
	uint32_t n = curves[0].n, a = 0, kept_count = 1;

	kept[0] = 0;
	while (a + 1 < n) {
		uint32_t best = 0;

		for (uint32_t j = a + 1; j < n; j++) {
			bool ok = true;

			for (uint32_t k = 0; ok && k < count; k++)
				ok = animc_reduce_span_error(&curves[k], a, j, true) >= 0;
			if (!ok)
				break;
			best = j;
			if (forced && forced[j])
				break;
		}
		if (best == 0)
			return 0;
		kept[kept_count++] = best;
		a = best;
	}
	return kept_count;
}

/* Alternative d (0..26, 13 is the value itself) of a key value v of curve
 * c: each component moved by -s, 0 or +s (translation, scale), or v turned
 * by that many radians about each axis (rotation).  False, out untouched,
 * when c keeps the key as it is (an end key, `end`, of c->keep_ends) or
 * the component or axis as it is (c->zero_axes). */
static bool nudged_value(const reduce_curve *c, bool end, const float *v, int d, double s, float *out)
{
	double delta[3];

	if (end && c->keep_ends)
		return false;
	for (int k = 0; k < 3; k++, d /= 3) {
		delta[k] = (d % 3 - 1) * s;
		if (delta[k] != 0 && (c->zero_axes >> k & 1))
			return false;
	}
	if (c->kind != ANIMC_ROTATION) {
		for (int k = 0; k < 3; k++)
			out[k] = (float)(v[k] + delta[k]);
		return true;
	}
	float turn[4] = { (float)(delta[0] / 2), (float)(delta[1] / 2), (float)(delta[2] / 2), 1 }, q[4];
	double len = 0;
	interp_quat_mul(q, v, turn);
	for (int k = 0; k < 4; k++)
		len += (double)q[k] * q[k];
	len = sqrt(len);
	for (int k = 0; k < 4; k++)
		out[k] = (float)(q[k] / len);
	return true;
}

/* How far nudged_value moves a key, as a part of the bound per component. */
#define REDUCE_NUDGE 0.7

bool animc_reduce_span_nudged(const reduce_curve *c, float *stored, uint32_t a, uint32_t b)
{
	float *sb = stored + (size_t)b * c->width, base[4];
	double s = c->bound * REDUCE_NUDGE * (c->kind == ANIMC_ROTATION ? 3.14159265358979323846 / 180.0 : 1.0);

	memcpy(base, c->value + (size_t)b * c->width, c->width * sizeof *base);
	memcpy(sb, base, c->width * sizeof *sb);
	if (animc_reduce_span_error(c, a, b, true) >= 0)
		return true;
	for (int d = 0; d < 27; d++) {
		if (d == 13)
			continue;
		if (nudged_value(c, b + 1 == c->n, base, d, s, sb) && animc_reduce_span_error(c, a, b, true) >= 0)
			return true;
	}
	memcpy(sb, base, c->width * sizeof *sb);
	return false;
}

/* Does the span from kept key a to candidate j hold every curve, with j's
 * source value or one nudged off it?  When it does, value (one per curve)
 * gets j's values; stored[k][j] stays the source's either way. */
static bool nudged_reach(const reduce_curve *curves, float *const *stored, uint32_t count, uint32_t a, uint32_t j,
			 float value[][4])
{
	bool ok = true;

	for (uint32_t k = 0; ok && k < count; k++)
		ok = animc_reduce_span_nudged(&curves[k], stored[k], a, j);
	for (uint32_t k = 0; k < count; k++) {
		float *sj = stored[k] + (size_t)j * curves[k].width;

		if (ok)
			memcpy(value[k], sj, curves[k].width * sizeof(float));
		memcpy(sj, curves[k].value + (size_t)j * curves[k].width, curves[k].width * sizeof(float));
	}
	return ok;
}

/* Candidates a greedy reach tries in turn before it gallops. */
#define REDUCE_GREEDY_IN_TURN 64

/*
 * The farthest candidate after kept key a that nudged_reach reaches (0:
 * not even the next), its values in value: the first REDUCE_GREEDY_IN_TURN
 * candidates in turn up to the first that does not hold (or a forced one),
 * then, when they all hold, candidates 1, 2, 4, ... further up to the first
 * forced one until a span does not hold, and the candidates between the
 * last that held and it by halving.  A hold of L keys (a straight walk, a
 * steady turn) so costs O(L log L) point tests rather than O(L^2).  A span
 * that holds may follow one that does not, so past the candidates tried in
 * turn the reach may end elsewhere than at the first that does not hold:
 * at a span that holds all the same.
 */
static uint32_t nudged_reach_far(const reduce_curve *curves, float *const *stored, uint32_t count,
				 const uint8_t *forced, uint32_t a, float value[][4])
{
	uint32_t n = curves[0].n, held = 0, last = a + 1, failed;

	for (uint32_t j = a + 1; j < n && j - a <= REDUCE_GREEDY_IN_TURN; j++) {
		if (!nudged_reach(curves, stored, count, a, j, value))
			return held;
		held = j;
		if ((forced && forced[j]) || j + 1 == n)
			return held;
	}
	while (last + 1 < n && !(forced && forced[last]))
		last++;
	float probe[ANIMC_TRACK_COUNT][4];
	for (uint32_t step = 1;; step *= 2) {
		failed = step < last - held ? held + step : last;
		if (!nudged_reach(curves, stored, count, a, failed, probe))
			break;
		held = failed;
		memcpy(value, probe, sizeof probe);
		if (held == last)
			return held;
	}
	while (failed - held > 1) {
		uint32_t mid = held + (failed - held) / 2;

		if (nudged_reach(curves, stored, count, a, mid, probe)) {
			held = mid;
			memcpy(value, probe, sizeof probe);
		} else {
			failed = mid;
		}
	}
	return held;
}

uint32_t animc_reduce_greedy_nudged(const reduce_curve *curves, float *const *stored, uint32_t count,
			      const uint8_t *forced, uint32_t *kept)
{
	uint32_t n = curves[0].n, a = 0, kept_count = 1;
	float best_v[ANIMC_TRACK_COUNT][4];

	kept[0] = 0;
	while (a + 1 < n) {
		uint32_t best = nudged_reach_far(curves, stored, count, forced, a, best_v);

		if (best == 0)
			return 0;
		for (uint32_t k = 0; k < count; k++)
			memcpy(stored[k] + (size_t)best * curves[k].width, best_v[k], curves[k].width * sizeof(float));
		kept[kept_count++] = best;
		a = best;
	}
	return kept_count;
}

/*
 * The fewest keys by dynamic programming over the candidates, each kept
 * key taking one of its 27 nudged values (nudged_value; 13 is the source's
 * own).  A key b is reached from a kept key a when, for every curve, some
 * value of a that a's own path can hold and some value of b keep the span
 * within the bound; b keeps the set of its values so reachable (a bit mask
 * per curve) from its one predecessor, the one with the fewest keys, on a
 * tie the one leaving b more values.  A span reaches as far as the greedy
 * would (it stops where no value of b holds, and at a forced key), and at
 * most REDUCE_DP_SPAN candidates (the work grows with its square; the
 * writer also runs the greedy, which keeps longer holds in one span).
 */
#define REDUCE_NUDGES 27
#define REDUCE_SOURCE_NUDGE 13
#define REDUCE_DP_SPAN 16
/* Its work keeps 27 values per key and curve (432 bytes a key of a
 * rotation, 28 MB at this count): longer sequences are left to the greedy. */
#define REDUCE_DP_MAX_KEYS 65536
/* Its work is near 27 x 27 value pairs x REDUCE_DP_SPAN spans x their
 * points a key and curve: a few thousand point tests a key of motion
 * capture, ~20 ns each.  Past this many keys x curves (two minutes of a
 * 120 Hz curve) the greedy's keys are kept; and the programme gives up
 * (0) once it has measured this many points, whatever its input: its cost
 * stays under a second a channel.  The longest sequences of the corpora it
 * was tuned on take 5504 keys x curves, the costliest 13.3 million points. */
#define REDUCE_DP_MAX_KEY_CURVES 16384
#define REDUCE_DP_MAX_POINTS ((uint64_t)1 << 25)

typedef struct fewest_work {
	const reduce_curve *curves;
	float *const *stored;
	uint32_t count, n;
	float *cand[ANIMC_TRACK_COUNT];   /* n x 27 values per curve */
	double tan_half[ANIMC_TRACK_COUNT];   /* of half a rotation's bound */
	uint32_t at[ANIMC_TRACK_COUNT];       /* the point that last passed it (span_holds) */
	uint32_t *own;                    /* n x count: values within the bound at the key itself */
	uint32_t *mask;                   /* n x count: values a path can hold there */
	uint32_t *keys, *pred, *room;
} fewest_work;

static const float *fewest_value(const fewest_work *f, uint32_t k, uint32_t i, unsigned d)
{
	return f->cand[k] + ((size_t)i * REDUCE_NUDGES + d) * f->curves[k].width;
}

/* Is the error of `got` against `want` within c's bound?  As
 * animc_track_error(...) <= c->bound, without its arc tangent: a rotation's
 * half angle atan2(v, |w|) is within half the bound when v <= tan(half the
 * bound) |w|.  A translation or scale keeps back two float steps of its
 * value too: the runtime's float lerp rounds by about one, which a bound of
 * a few steps (1e-6 around 1) would not absorb in its margin. */
static bool within_bound(const reduce_curve *c, double tan_half, const float *got, const float *want)
{
	if (c->kind == ANIMC_TRANSLATION) {
		double dx = (double)got[0] - want[0], dy = (double)got[1] - want[1], dz = (double)got[2] - want[2];
		double b = fmax(c->bound - 2 * FLT_EPSILON * (fabs(want[0]) + fabs(want[1]) + fabs(want[2])), 0);

		return dx * dx + dy * dy + dz * dz <= b * b;
	}
	if (c->kind == ANIMC_SCALE) {
		for (int k = 0; k < 3; k++)
			if (!(fabs((double)got[k] - want[k]) <= fmax(c->bound - 2 * FLT_EPSILON * fabs(want[k]), 0)))
				return false;
		return true;
	}
	double d[4];

	reduce_conj_product(got, want, d);
	return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= tan_half * tan_half * d[3] * d[3];
}

/* Is point `at` of c (a key below c->n, else check point at - c->n) inside
 * the span a < b, as span_holds measures it, and past the bound there? */
static bool fails_again(const reduce_curve *c, double tan_half, const reduce_span *span, uint32_t a, uint32_t b,
			uint32_t at)
{
	float v[4];

	if (at < c->n) {
		if (at <= a || at >= b)
			return false;
		reduce_span_at(span, c->pos[at], v);
		span_points++;
		return !within_bound(c, tan_half, v, c->value + (size_t)at * c->width);
	}
	at -= c->n;
	if (at >= c->check_count || !(c->check_pos[at] >= c->pos[a] && c->check_pos[at] < c->pos[b]))
		return false;
	reduce_span_at(span, c->check_pos[at], v);
	span_points++;
	return !within_bound(c, tan_half, v, c->check_value + (size_t)at * c->width);
}

/* animc_reduce_span_error(c, a, b, true) >= 0 for keys a and b whose own values
 * hold the bound: the same points between them.  The point that passed the
 * bound last (*at, as fails_again takes it) is tried first, and the one
 * that passes it now kept there: the spans tried from one key mostly fail
 * at the same point, and the answer is the same in any order. */
static bool span_holds(const reduce_curve *c, double tan_half, uint32_t a, uint32_t b, uint32_t *at)
{
	reduce_span span = reduce_span_of(c, a, b);
	float v[4];

	if (fails_again(c, tan_half, &span, a, b, *at))
		return false;
	for (uint32_t i = a + 1; i < b; i++) {
		reduce_span_at(&span, c->pos[i], v);
		span_points++;
		if (!within_bound(c, tan_half, v, c->value + (size_t)i * c->width)) {
			*at = i;
			return false;
		}
	}
	/* Up to key b's time, not at it: key b is checked above, and where
	 * keys share its time the source there is the last of them, which a
	 * later span reaches. */
	for (uint32_t k = animc_reduce_check_from(c, c->pos[a]); k < c->check_count && c->check_pos[k] < c->pos[b]; k++) {
		reduce_span_at(&span, c->check_pos[k], v);
		span_points++;
		if (!within_bound(c, tan_half, v, c->check_value + (size_t)k * c->width)) {
			*at = c->n + k;
			return false;
		}
	}
	return true;
}

/* Does the span a (value da) to b (value db) of curve k hold? */
static bool fewest_span(fewest_work *f, uint32_t k, uint32_t a, unsigned da, uint32_t b, unsigned db)
{
	const reduce_curve *c = &f->curves[k];
	size_t w = c->width;

	memcpy(f->stored[k] + a * w, fewest_value(f, k, a, da), w * sizeof(float));
	memcpy(f->stored[k] + b * w, fewest_value(f, k, b, db), w * sizeof(float));
	return span_holds(c, f->tan_half[k], a, b, &f->at[k]);
}

/* The values of b that curve k reaches from a's values `from`. */
static uint32_t fewest_reach(fewest_work *f, uint32_t k, uint32_t a, uint32_t from, uint32_t b)
{
	uint32_t to = 0, own = f->own[(size_t)b * f->count + k];

	for (unsigned db = 0; db < REDUCE_NUDGES; db++) {
		if (!(own >> db & 1))
			continue;
		for (unsigned da = 0; da < REDUCE_NUDGES; da++)
			if ((from >> da & 1) && fewest_span(f, k, a, da, b, db)) {
				to |= 1u << db;
				break;
			}
	}
	return to;
}

static void fewest_candidates(fewest_work *f)
{
	for (uint32_t k = 0; k < f->count; k++) {
		const reduce_curve *c = &f->curves[k];
		double s = c->bound * REDUCE_NUDGE * (c->kind == ANIMC_ROTATION ? 3.14159265358979323846 / 180.0 : 1.0);

		f->tan_half[k] = tan(c->bound * (3.14159265358979323846 / 180.0) / 2);
		for (uint32_t i = 0; i < f->n; i++) {
			const float *v = c->value + (size_t)i * c->width;
			uint32_t own = 0;

			for (unsigned d = 0; d < REDUCE_NUDGES; d++) {
				float *out = f->cand[k] + ((size_t)i * REDUCE_NUDGES + d) * c->width;
				bool end = i == 0 || i + 1 == f->n;
				bool may = d == REDUCE_SOURCE_NUDGE || nudged_value(c, end, v, (int)d, s, out);

				if (d == REDUCE_SOURCE_NUDGE || !may)
					memcpy(out, v, c->width * sizeof(float));
				if (may && within_bound(c, f->tan_half[k], out, v))
					own |= 1u << d;
			}
			f->own[(size_t)i * f->count + k] = own;
		}
	}
}

static unsigned popcount32(uint32_t x)
{
	unsigned n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* Every span from kept key a: relax the keys it reaches. */
static void fewest_from(fewest_work *f, const uint8_t *forced, uint32_t a)
{
	uint32_t reach[ANIMC_TRACK_COUNT];

	for (uint32_t b = a + 1; b < f->n && b - a <= REDUCE_DP_SPAN; b++) {
		unsigned room = 0;

		for (uint32_t k = 0; k < f->count; k++) {
			reach[k] = fewest_reach(f, k, a, f->mask[(size_t)a * f->count + k], b);
			if (!reach[k])
				return;
			room += popcount32(reach[k]);
		}
		if (f->keys[a] + 1 < f->keys[b] || (f->keys[a] + 1 == f->keys[b] && room > f->room[b])) {
			f->keys[b] = f->keys[a] + 1;
			f->pred[b] = a;
			f->room[b] = room;
			memcpy(f->mask + (size_t)b * f->count, reach, f->count * sizeof *reach);
		}
		if (forced && forced[b])
			return;
	}
}

/* The first value of `set` (the source's when there) for which `ok`. */
static unsigned fewest_pick(fewest_work *f, uint32_t k, uint32_t set, uint32_t a, uint32_t b, unsigned db,
			    bool to_b)
{
	unsigned first = REDUCE_NUDGES;

	for (unsigned t = 0; t < REDUCE_NUDGES; t++) {
		unsigned d = t == 0 ? REDUCE_SOURCE_NUDGE : t <= REDUCE_SOURCE_NUDGE ? t - 1 : t;

		if (!(set >> d & 1))
			continue;
		if (!to_b || fewest_span(f, k, a, d, b, db))
			return d;
		if (first == REDUCE_NUDGES)
			first = d;
	}
	return first;
}

/* The kept keys from the predecessors, and their values from the last
 * back (each the source's when it holds the span after it). */
static uint32_t fewest_path(fewest_work *f, uint32_t *kept)
{
	uint32_t count = f->keys[f->n - 1], i = count;
	unsigned chosen[ANIMC_TRACK_COUNT] = { REDUCE_SOURCE_NUDGE, REDUCE_SOURCE_NUDGE, REDUCE_SOURCE_NUDGE };

	for (uint32_t b = f->n - 1;; b = f->pred[b]) {
		kept[--i] = b;
		if (b == 0)
			break;
	}
	for (uint32_t k = 0; k < f->count; k++) {
		size_t w = f->curves[k].width;

		for (uint32_t j = count; j-- > 0;) {
			uint32_t a = kept[j], set = f->mask[(size_t)a * f->count + k];
			bool last = j + 1 == count;

			chosen[k] = fewest_pick(f, k, set, a, last ? 0 : kept[j + 1], chosen[k], !last);
			memcpy(f->stored[k] + a * w, fewest_value(f, k, a, chosen[k]), w * sizeof(float));
		}
	}
	return count;
}

static void fewest_release(fewest_work *f)
{
	for (uint32_t k = 0; k < ANIMC_TRACK_COUNT; k++)
		free(f->cand[k]);
	free(f->own);
	free(f->mask);
	free(f->keys);
	free(f->pred);
	free(f->room);
}

uint32_t animc_reduce_fewest_nudged(const reduce_curve *curves, float *const *stored, uint32_t count,
			      const uint8_t *forced, uint32_t *kept)
{
	fewest_work f;
	uint32_t n = curves[0].n, result = 0;

	memset(&f, 0, sizeof f);
	if (n > REDUCE_DP_MAX_KEYS || (uint64_t)n * count > REDUCE_DP_MAX_KEY_CURVES)
		return 0;
	f.curves = curves;
	f.stored = stored;
	f.count = count;
	f.n = n;
	bool ok = true;
	for (uint32_t k = 0; k < count; k++)
		ok = ok && (f.cand[k] = malloc((size_t)n * REDUCE_NUDGES * curves[k].width * sizeof(float)));
	f.own = malloc((size_t)n * count * sizeof *f.own);
	f.mask = calloc((size_t)n * count, sizeof *f.mask);
	f.keys = malloc((size_t)n * sizeof *f.keys);
	f.pred = calloc(n, sizeof *f.pred);
	f.room = calloc(n, sizeof *f.room);
	if (ok && f.own && f.mask && f.keys && f.pred && f.room && n >= 2) {
		fewest_candidates(&f);
		for (uint32_t i = 0; i < n; i++)
			f.keys[i] = UINT32_MAX;
		f.keys[0] = 1;
		memcpy(f.mask, f.own, count * sizeof *f.mask);
		uint64_t most = span_points + REDUCE_DP_MAX_POINTS;
		uint32_t a = 0;
		for (; a + 1 < n && span_points <= most; a++)
			if (f.keys[a] != UINT32_MAX)
				fewest_from(&f, forced, a);
		if (a + 1 >= n && f.keys[n - 1] != UINT32_MAX)
			result = fewest_path(&f, kept);
	}
	fewest_release(&f);
	return result;
}

double animc_reduce_constant_error(const reduce_curve *c, const float *value)
{
	double worst = 0;

	for (uint32_t i = 0; i < c->n; i++)
		worst = fmax(worst, animc_track_error(c->kind, value, c->value + (size_t)i * c->width));
	for (uint32_t k = 0; k < c->check_count; k++)
		worst = fmax(worst, animc_track_error(c->kind, value, c->check_value + (size_t)k * c->width));
	return worst;
}

/* ------------------------------------------------- the original layout */

/* The key time of channel key i, as the runtime places it. */
static float key_time(const animc_channel *ch, uint32_t i)
{
	return ch->has_time ? ch->times_s[i] : (float)((double)i * ch->key_interval_s);
}

void animc_reduce_constant_candidate(const reduce_curve *c, float *out)
{
	if (c->kind == ANIMC_ROTATION) {
		double sum[4] = { 0, 0, 0, 0 }, len = 0;
		const float *first = c->value;

		for (uint32_t i = 0; i < c->n; i++) {
			const float *q = c->value + (size_t)i * 4;
			double sign = (double)q[0] * first[0] + (double)q[1] * first[1] + (double)q[2] * first[2] +
				      (double)q[3] * first[3] < 0 ? -1 : 1;

			for (int k = 0; k < 4; k++)
				sum[k] += sign * q[k];
		}
		for (int k = 0; k < 4; k++)
			len += sum[k] * sum[k];
		len = sqrt(len);
		for (int k = 0; k < 4; k++)
			out[k] = len > 0 ? (float)(sum[k] / len) : first[k];
		return;
	}
	for (unsigned k = 0; k < 3; k++) {
		float lo = c->value[k], hi = c->value[k];

		for (uint32_t i = 1; i < c->n; i++) {
			lo = fminf(lo, c->value[(size_t)i * 3 + k]);
			hi = fmaxf(hi, c->value[(size_t)i * 3 + k]);
		}
		out[k] = lo + (hi - lo) * 0.5f;
	}
}

typedef struct channel_work {
	reduce_curve curves[ANIMC_TRACK_COUNT];
	int kinds[ANIMC_TRACK_COUNT];
	uint32_t count;
	float *pos, *check_value[ANIMC_TRACK_COUNT];
	double *check_pos[ANIMC_TRACK_COUNT];
	uint8_t *forced;
	uint32_t *kept, *greedy_kept;
	float *stored[ANIMC_TRACK_COUNT], *coarse[ANIMC_TRACK_COUNT];
	float *timed_value[ANIMC_TRACK_COUNT];
} channel_work;

static void channel_work_release(channel_work *w)
{
	free(w->pos);
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		free(w->check_pos[k]);
		free(w->check_value[k]);
		free(w->stored[k]);
		free(w->coarse[k]);
		free(w->timed_value[k]);
	}
	free(w->forced);
	free(w->kept);
	free(w->greedy_kept);
}

void animc_reduce_note_error(animc_clip_error *e, animc_track_kind kind, double err)
{
	double *slot = kind == ANIMC_TRANSLATION ? &e->translation : kind == ANIMC_ROTATION ? &e->rotation_deg
											    : &e->scale;

	if (err > *slot)
		*slot = err;
}

/*
 * Timed keys cost the sampler more than uniform ones: a key search, and
 * at random times a third cache line (the key index, the times, the
 * values) where a uniform sequence finds its keys by arithmetic in one.
 * So a sequence the source gives evenly spaced keeps them (every key or
 * every m-th) unless the timed keys save more than this share of their
 * bytes.  3%: on the Assimp corpus it keeps three sequences of the 120 Hz
 * take uniform (0.791 -> 0.792 of the lossless bytes) and changes no
 * RobotGame file; at 5% RobotGame grew (0.832 -> 0.833) and the Assimp
 * take sampled no faster within the bench's noise.
 */
#define REDUCE_TIMED_MIN_SAVING_PERCENT 3

/* The coarsest uniform step (every m-th key, m up to 16, dividing n - 1 so
 * that the last key stays) within every curve's bound; 0 when none. */
static uint32_t coarser_step(channel_work *w, uint32_t n)
{
	for (uint32_t m = n - 1 < 16 ? n - 1 : 16; m >= 2; m--) {
		bool holds = (n - 1) % m == 0;

		for (uint32_t k = 0; holds && k < w->count; k++) {
			reduce_curve c = w->curves[k];

			memcpy(w->coarse[k], c.value, (size_t)n * c.width * sizeof(float));
			c.stored = w->coarse[k];
			for (uint32_t i = 0; holds && i + m < n; i += m)
				holds = animc_reduce_span_nudged(&c, w->coarse[k], i, i + m);
		}
		if (holds)
			return m;
	}
	return 0;
}

/*
 * The resampled candidate: n' keys evenly spaced from 0 to the last source
 * key (KeyInterval = end / (n' - 1) as a float), each the source's value
 * at its time or one nudged off it (as animc_reduce_span_nudged moves a key),
 * checked the way the runtime samples it: at every check point the key
 * pair and weight come from interp_uniform_keys, and the result is held
 * against the source there.  The check points are the source's keys and
 * the points between them (animc_reduce_check_positions), every 1/60 s up to
 * the sequence's end (resample_init), and each new key and the middle of
 * each new interval.
 */
typedef struct resample_work {
	uint32_t count[ANIMC_TRACK_COUNT];   /* static check points per curve */
	float *t[ANIMC_TRACK_COUNT], *v[ANIMC_TRACK_COUNT];
	float *keys[ANIMC_TRACK_COUNT], *best[ANIMC_TRACK_COUNT];
	double worst[ANIMC_TRACK_COUNT], best_worst[ANIMC_TRACK_COUNT];
	double tan_half[ANIMC_TRACK_COUNT];
	float end;
	bool is_original_checked;   /* also as the original runtime plays it (original_holds) */
} resample_work;

static void resample_release(resample_work *r)
{
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		free(r->t[k]);
		free(r->v[k]);
		free(r->keys[k]);
		free(r->best[k]);
	}
}

static int compare_floats(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* The static check points of every curve, sorted, with the source there;
 * room for `most` keys. */
static bool resample_init(resample_work *r, const channel_work *w, const animc_channel *ch, uint32_t n,
			  uint32_t most)
{
	float horizon = fmaxf(w->pos[n - 1], ch->duration_s);
	/* Every 1/60 s, unless that is many more points than the source has
	 * (a long hold): between its keys the source is one arc, and its own
	 * check points follow it. */
	double frames = floor((double)horizon * 60.0) + 1;
	uint32_t hz60 = frames <= 16.0 * n + 1024 ? (uint32_t)frames : 0;

	memset(r, 0, sizeof *r);
	r->end = w->pos[n - 1];
	for (uint32_t k = 0; k < w->count; k++) {
		const reduce_curve *c = &w->curves[k];
		size_t cap = (size_t)n + c->check_count + hz60 + 1, m = 0;

		r->t[k] = malloc(cap * sizeof(float));
		r->v[k] = malloc(cap * c->width * sizeof(float));
		r->keys[k] = malloc((size_t)most * c->width * sizeof(float));
		r->best[k] = malloc((size_t)most * c->width * sizeof(float));
		if (!r->t[k] || !r->v[k] || !r->keys[k] || !r->best[k])
			return false;
		r->tan_half[k] = tan(c->bound * (3.14159265358979323846 / 180.0) / 2);
		for (uint32_t i = 0; i < n; i++)
			r->t[k][m++] = w->pos[i];
		for (uint32_t i = 0; i < c->check_count; i++)
			r->t[k][m++] = (float)c->check_pos[i];
		for (uint32_t i = 0; i < hz60; i++)
			r->t[k][m++] = fminf((float)(i / 60.0), horizon);
		r->t[k][m++] = horizon;
		qsort(r->t[k], m, sizeof(float), compare_floats);
		size_t u = 0;
		for (size_t i = 0; i < m; i++)
			if (u == 0 || r->t[k][i] > r->t[k][u - 1])
				r->t[k][u++] = r->t[k][i];
		r->count[k] = (uint32_t)u;
		for (size_t i = 0; i < u; i++)
			animc_reduce_channel_value(ch, c->kind, r->t[k][i], r->v[k] + i * c->width);
	}
	return true;
}

/* The runtime's value of keys (last + 1 of them, KeyInterval ki) at t. */
static void resample_value(const reduce_curve *c, const float *keys, float ki, uint32_t last, float t, float *out)
{
	uint32_t i1, i2;
	float u;

	interp_uniform_keys(ki, last, t, &i1, &i2, &u);
	const float *a = keys + (size_t)i1 * c->width, *b = keys + (size_t)i2 * c->width;
	if (!(u > 0))
		memcpy(out, a, c->width * sizeof *out);
	else if (c->kind == ANIMC_ROTATION)
		interp_slerp(out, a, b, u);
	else
		interp_lerp3(out, a, b, u);
}

/* Does the check at t (source value want) hold?  Notes its error in *worst. */
static bool resample_check(const reduce_curve *c, double tan_half, const float *keys, float ki, uint32_t last,
			   float t, const float *want, double *worst)
{
	float got[4];

	resample_value(c, keys, ki, last, t, got);
	if (!within_bound(c, tan_half, got, want))
		return false;
	*worst = fmax(*worst, animc_track_error(c->kind, got, want));
	return true;
}

/* Do `keys` keys evenly spaced hold curve k?  Fills r->keys[k] and
 * r->worst[k]. */
static bool resample_curve(resample_work *r, const channel_work *w, const animc_channel *ch, uint32_t k,
			   uint32_t keys)
{
	const reduce_curve *c = &w->curves[k];
	uint32_t last = keys - 1, p = 0;
	float ki = (float)((double)r->end / last), *kv = r->keys[k], want[4], mid_want[4];
	double s = c->bound * REDUCE_NUDGE * (c->kind == ANIMC_ROTATION ? 3.14159265358979323846 / 180.0 : 1.0);
	unsigned width = c->width;

	if (!(ki > 0))
		return false;
	r->worst[k] = 0;
	animc_reduce_channel_value(ch, c->kind, 0, kv);
	for (uint32_t j = 1; j <= last; j++) {
		/* The static checks whose key pair is (j - 1, j), and at the last
		 * key those past it too, which the last key holds. */
		uint32_t from = p;

		while (p < r->count[k] && (j == last || (double)r->t[k][p] / (double)ki < (double)j))
			p++;
		float tj = (float)((double)j * ki), tm = (float)(((double)j - 0.5) * ki);
		animc_reduce_channel_value(ch, c->kind, fminf(tj, r->end), want);
		/* A track that keeps its ends ends on the source's last key, not
		 * on the source at the float time the last key lands on. */
		if (j == last && c->keep_ends)
			memcpy(want, c->value + (size_t)(c->n - 1) * width, width * sizeof *want);
		animc_reduce_channel_value(ch, c->kind, tm, mid_want);
		float *kj = kv + (size_t)j * width;
		bool ok = false;
		double worst = 0;

		for (int d = 0; !ok && d < REDUCE_NUDGES; d++) {
			int nudge = d == 0 ? REDUCE_SOURCE_NUDGE : d <= REDUCE_SOURCE_NUDGE ? d - 1 : d;

			if (nudge == REDUCE_SOURCE_NUDGE)
				memcpy(kj, want, width * sizeof *kj);
			else if (!nudged_value(c, j == last, want, nudge, s, kj))
				continue;
			worst = 0;
			ok = within_bound(c, r->tan_half[k], kj, want);
			if (ok)
				worst = animc_track_error(c->kind, kj, want);
			ok = ok && resample_check(c, r->tan_half[k], kv, ki, last, tm, mid_want, &worst);
			for (uint32_t i = from; ok && i < p; i++)
				ok = resample_check(c, r->tan_half[k], kv, ki, last, r->t[k][i],
						    r->v[k] + (size_t)i * width, &worst);
		}
		if (!ok)
			return false;
		r->worst[k] = fmax(r->worst[k], worst);
	}
	return true;
}

/*
 * The original runtime's key pair and weight for uniform keys
 * (KeyFrameSequence, Once): the index from the float quotient
 * (int)(t / KeyInterval), the weight from HelperMath.CalculateModulo's
 * float loop.  The two disagree at some key times (formats/xnb/FORMAT.md
 * section 2): the quotient gives key j - 1 while the loop leaves 0, and
 * the original shows key j - 1 whole where key j is due.
 */
static void original_uniform_keys(float ki, uint32_t last, float t, uint32_t *i1, uint32_t *i2, float *u)
{
	float q = t / ki, left = t;

	*i1 = *i2 = last;
	*u = 1;
	if (!(q < (float)last))
		return;
	while (left - ki >= 0)
		left -= ki;
	*i1 = (uint32_t)q;
	*i2 = *i1 + 1;
	*u = left / ki;
}

/* At most this many subtractions of the original's loop are played over
 * one candidate (a frame's loop runs t / KeyInterval times): a longer
 * sequence is not played so. */
#define REDUCE_ORIGINAL_STEPS 20000000.0

/* Whether original_holds can play a sequence of `horizon` s at 60 Hz
 * against keys `ki` apart within REDUCE_ORIGINAL_STEPS. */
static bool original_is_playable(float horizon, float ki)
{
	return ki > 0 && (double)horizon * 60 * ((double)horizon / ki) / 2 <= REDUCE_ORIGINAL_STEPS;
}

/*
 * Do `keys` keys evenly spaced (r->keys) hold every curve as the original
 * runtime plays them, at 60 Hz as a game's frames accumulate in float?
 * Only the frames where its key pair or weight differ from this format's
 * are looked at: elsewhere resample_curve measured them.  A sequence the
 * source keys at its own times has none of the original's rounding;
 * resampled, it must not gain a pop of a whole key (20 degrees on a
 * RobotGame calf) where the lossless output plays smoothly.
 */
static bool original_holds(const resample_work *r, const channel_work *w, const animc_channel *ch, uint32_t keys)
{
	uint32_t last = keys - 1;
	float ki = (float)((double)r->end / last), frame = (float)(1.0 / 60), horizon = fmaxf(r->end, ch->duration_s);

	if (!original_is_playable(horizon, ki))
		return true;
	for (float t = 0;; t = fminf(t + frame, horizon)) {
		uint32_t a, b, ea, eb;
		float u, eu;

		original_uniform_keys(ki, last, t, &a, &b, &u);
		interp_uniform_keys(ki, last, t, &ea, &eb, &eu);
		if (a != ea || fabsf(u - eu) > 1e-4f)
			for (uint32_t k = 0; k < w->count; k++) {
				const reduce_curve *c = &w->curves[k];
				const float *ka = r->keys[k] + (size_t)a * c->width, *kb = r->keys[k] + (size_t)b * c->width;
				float got[4], want[4];

				if (c->kind == ANIMC_ROTATION)
					interp_slerp(got, ka, kb, u);
				else
					interp_lerp3(got, ka, kb, u);
				animc_reduce_channel_value(ch, c->kind, t, want);
				if (!within_bound(c, r->tan_half[k], got, want))
					return false;
			}
		if (t >= horizon)
			return true;
	}
}

/* Do `keys` keys evenly spaced hold every curve?  Keeps them in r->best. */
static bool resample_holds(resample_work *r, const channel_work *w, const animc_channel *ch, uint32_t keys)
{
	for (uint32_t k = 0; k < w->count; k++)
		if (!resample_curve(r, w, ch, k, keys))
			return false;
	if (r->is_original_checked && !original_holds(r, w, ch, keys))
		return false;
	for (uint32_t k = 0; k < w->count; k++) {
		memcpy(r->best[k], r->keys[k], (size_t)keys * w->curves[k].width * sizeof(float));
		r->best_worst[k] = r->worst[k];
	}
	return true;
}

/* Below this many keys every count is tried from 2 up; above, a binary
 * search over the counts (which hold, mostly, from some count on). */
#define REDUCE_RESAMPLE_SCAN 64

/* The fewest evenly spaced keys, at most `most`, that hold every curve
 * (in r->best), or 0. */
static uint32_t resampled_keys(resample_work *r, const channel_work *w, const animc_channel *ch, uint32_t most)
{
	if (most < 2)
		return 0;
	if (most <= REDUCE_RESAMPLE_SCAN) {
		for (uint32_t m = 2; m <= most; m++)
			if (resample_holds(r, w, ch, m))
				return m;
		return 0;
	}
	if (!resample_holds(r, w, ch, most))
		return 0;
	uint32_t lo = 2, hi = most;   /* hi holds */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (resample_holds(r, w, ch, mid))
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi;   /* r->best holds the last count that held: hi */
}

/* The fewer keys of animc_reduce_fewest_nudged and animc_reduce_greedy_nudged (whose
 * spans reach past REDUCE_DP_SPAN: long holds), in w->kept and w->stored;
 * w->coarse is the greedy's scratch.  The programme's spans reach at most
 * REDUCE_DP_SPAN candidates: when that many keys are more than the
 * greedy's, it is not run. */
static uint32_t fewest_or_greedy(channel_work *w)
{
	uint32_t n = w->curves[0].n, kept = 0;

	for (uint32_t k = 0; k < w->count; k++) {
		memcpy(w->coarse[k], w->curves[k].value, (size_t)n * w->curves[k].width * sizeof(float));
		w->curves[k].stored = w->coarse[k];
	}
	uint32_t greedy = animc_reduce_greedy_nudged(w->curves, w->coarse, w->count, w->forced, w->greedy_kept);
	for (uint32_t k = 0; k < w->count; k++)
		w->curves[k].stored = w->stored[k];
	if (greedy == 0 || greedy >= 1 + (n - 2) / REDUCE_DP_SPAN + 1)
		kept = animc_reduce_fewest_nudged(w->curves, w->stored, w->count, w->forced, w->kept);
	if (greedy && (kept == 0 || greedy < kept)) {
		uint32_t *swap_kept = w->kept;

		w->kept = w->greedy_kept;
		w->greedy_kept = swap_kept;
		for (uint32_t k = 0; k < w->count; k++) {
			float *swap = w->stored[k];

			w->stored[k] = w->coarse[k];
			w->coarse[k] = swap;
		}
		kept = greedy;
	}
	for (uint32_t k = 0; k < w->count; k++)
		w->curves[k].stored = w->stored[k];
	return kept;
}

/*
 * Timed keys of a source with evenly spaced keys: key i goes to the float
 * time w->pos[i], where the runtime samples the source a little off its
 * key (i * KeyInterval in double).  Far into a long take a float step is
 * tens of microseconds, enough for a few percent of the bound on a fast
 * track, so there the timed candidate holds the source as sampled at
 * that time.  Where the two differ by less than a thousandth of the
 * bound (inside REDUCE_MARGIN) the key's own value stays.  NULL arrays
 * for a curve with none to change; false when out of memory.
 */
static bool timed_values(channel_work *w, const animc_channel *ch)
{
	if (ch->has_time)
		return true;
	for (uint32_t k = 0; k < w->count; k++) {
		const reduce_curve *c = &w->curves[k];
		float *tv = NULL, v[4];

		for (uint32_t i = 0; i < c->n; i++) {
			const float *raw = c->value + (size_t)i * c->width;

			animc_reduce_channel_value(ch, c->kind, w->pos[i], v);
			if (animc_track_error(c->kind, v, raw) < c->bound * 1e-3)
				continue;
			if (!tv) {
				tv = malloc((size_t)c->n * c->width * sizeof *tv);
				if (!tv)
					return false;
				memcpy(tv, c->value, (size_t)c->n * c->width * sizeof *tv);
				w->timed_value[k] = tv;
			}
			memcpy(tv + (size_t)i * c->width, v, c->width * sizeof *v);
		}
	}
	return true;
}

/*
 * Evenly spaced keys play at i * KeyInterval in double precision
 * (interp_uniform_keys): a time no float need hold.  A timed key goes to
 * the float time nearest it (w->pos[i]), up to half a float step to one
 * side of where the lossless file turns, so the floats beside it sample
 * the lossless file on the other side of its corner from the timed one.
 * Across a fast turn far into a long take that is a part of the bound (a
 * 120 Hz take at 291 s: 0.0003 degrees of 0.005 at the tight tolerance).
 * Those floats are check points too, at the keys where the turn could make
 * them matter (a hundredth of the bound); written into `out` (room for
 * 2 c->n), sorted; their count.
 */
static uint32_t corner_checks(const reduce_curve *c, const animc_channel *ch, double *out)
{
	uint32_t count = 0;

	if (ch->has_time || !(ch->key_interval_s > 0))
		return 0;
	for (uint32_t i = 1; i < c->n; i++) {
		const float *v = c->value + (size_t)i * c->width;
		double turn = animc_track_error(c->kind, v - c->width, v);
		float t = c->pos[i], step = nextafterf(t, INFINITY) - t;

		if (i + 1 < c->n)
			turn += animc_track_error(c->kind, v, v + c->width);
		if ((double)t == (double)i * ch->key_interval_s || turn / ch->key_interval_s * step < c->bound * 1e-2)
			continue;
		out[count++] = nextafterf(t, -INFINITY);
		out[count++] = nextafterf(t, INFINITY);
	}
	return count;
}

/* The check points of the two sorted lists a (na) and b (nb), sorted, in out. */
static void merge_checks(const double *a, uint32_t na, const double *b, uint32_t nb, double *out)
{
	uint32_t i = 0, j = 0, o = 0;

	while (i < na || j < nb)
		out[o++] = j >= nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
}

/* The axes (reduce_curve.zero_axes) zero at every one of n values. */
static uint8_t zero_axes(const float *value, uint32_t n, unsigned width)
{
	uint8_t zero = 7;

	for (uint32_t i = 0; i < n; i++)
		for (unsigned k = 0; k < 3; k++)
			if (value[(size_t)i * width + k] != 0)
				zero &= (uint8_t)~(1u << k);
	return zero;
}

static animc_status reduce_channel(animc_clip *clip, animc_channel *ch, const animc_tolerance *tol,
				   bool keep_ends, animc_clip_error *error)
{
	channel_work w;
	uint32_t n = ch->key_count;

	memset(&w, 0, sizeof w);
	if (n < 2)
		return ANIMC_OK;
	w.pos = malloc((size_t)n * sizeof *w.pos);
	w.forced = calloc(n, 1);
	w.kept = malloc((size_t)n * sizeof *w.kept);
	w.greedy_kept = malloc((size_t)n * sizeof *w.greedy_kept);
	if (!w.pos || !w.forced || !w.kept || !w.greedy_kept) {
		channel_work_release(&w);
		return ANIMC_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		w.pos[i] = key_time(ch, i);
	/* Keys that share a time make a step: both stay. */
	for (uint32_t i = 0; i + 1 < n; i++)
		if (!(w.pos[i + 1] > w.pos[i]))
			w.forced[i] = w.forced[i + 1] = 1;

	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		animc_track *t = &ch->tracks[k];
		unsigned width = animc_track_width[k];
		reduce_curve *c = &w.curves[w.count];

		if (!t->is_present || t->is_fixed || t->value_count != n)
			continue;
		error->keys_before += n;
		c->kind = (animc_track_kind)k;
		c->width = width;
		c->bound = animc_reduce_bound(tol, (animc_track_kind)k);
		c->n = n;
		c->pos = w.pos;
		c->value = c->stored = t->values;
		c->keep_ends = keep_ends;
		c->zero_axes = keep_ends ? zero_axes(t->values, n, width) : 0;
		/* Between keys: the source at the check points (times). */
		uint32_t between = animc_reduce_check_count(c);
		size_t room = (size_t)between + 2 * (size_t)n + 1;
		w.check_pos[k] = malloc(room * sizeof(double));
		w.check_value[k] = malloc(room * width * sizeof(float));
		double *corners = malloc(2 * (size_t)n * sizeof *corners);
		if (!w.check_pos[k] || !w.check_value[k] || !corners) {
			free(corners);
			channel_work_release(&w);
			return ANIMC_ERR_NOMEM;
		}
		/* The points between keys after room for the corners. */
		double *at = w.check_pos[k] + 2 * (size_t)n;
		animc_reduce_check_positions(c, at);
		/* Timed keys are sampled at float times: between keys too. */
		for (uint32_t i = 0; i < between; i++)
			at[i] = (float)at[i];
		uint32_t corner_count = corner_checks(c, ch, corners);
		merge_checks(at, between, corners, corner_count, w.check_pos[k]);
		free(corners);
		uint32_t checks = between + corner_count;
		for (uint32_t i = 0; i < checks; i++)
			animc_reduce_channel_value(ch, (animc_track_kind)k, (float)w.check_pos[k][i],
					     w.check_value[k] + (size_t)i * width);
		c->check_count = checks;
		c->check_pos = w.check_pos[k];
		c->check_value = w.check_value[k];

		/* Within the bound of one value: fixed.  A track that keeps its
		 * ends, only at them when they are one value. */
		float held[4];
		double e = INFINITY;
		if (c->keep_ends) {
			memcpy(held, t->values, width * sizeof *held);
			if (memcmp(held, t->values + (size_t)(n - 1) * width, width * sizeof *held) == 0)
				e = animc_reduce_constant_error(c, held);
		} else {
			animc_reduce_constant_candidate(c, held);
			e = animc_reduce_constant_error(c, held);
			if (e > c->bound) {
				memcpy(held, t->values, width * sizeof *held);
				e = animc_reduce_constant_error(c, held);
			}
		}
		if (e <= c->bound) {
			memcpy(t->values, held, width * sizeof *held);
			t->is_fixed = true;
			t->value_count = 1;
			animc_reduce_note_error(error, (animc_track_kind)k, e);
			continue;
		}
		/* Keys: held within what float rounding leaves of the bound;
		 * where nothing is left, every key stays. */
		double most;
		c->bound = fmax(animc_reduce_keyed_bound(c, k == ANIMC_TRANSLATION ? tol->translation : tol->scale, 0, &most), 0);
		w.kinds[w.count++] = k;
	}
	if (w.count == 0) {
		/* Every track holds one value: one key. */
		ch->key_count = 1;
		ch->has_time = false;
		ch->times_s = NULL;
		channel_work_release(&w);
		return ANIMC_OK;
	}
	/* The kept keys may move within part of the bound (their values in
	 * w.stored); the other candidates keep the source's. */
	for (uint32_t k = 0; k < w.count; k++) {
		size_t count = (size_t)n * w.curves[k].width;

		w.stored[k] = malloc(count * sizeof(float));
		w.coarse[k] = malloc(count * sizeof(float));
		if (!w.stored[k] || !w.coarse[k]) {
			channel_work_release(&w);
			return ANIMC_ERR_NOMEM;
		}
		memcpy(w.stored[k], w.curves[k].value, count * sizeof(float));
		w.curves[k].stored = w.stored[k];
	}
	if (!timed_values(&w, ch)) {
		channel_work_release(&w);
		return ANIMC_ERR_NOMEM;
	}
	const float *raw_value[ANIMC_TRACK_COUNT];
	for (uint32_t k = 0; k < w.count; k++) {
		raw_value[k] = w.curves[k].value;
		if (w.timed_value[k]) {
			w.curves[k].value = w.timed_value[k];
			memcpy(w.stored[k], w.timed_value[k], (size_t)n * w.curves[k].width * sizeof(float));
		}
	}
	uint32_t kept = fewest_or_greedy(&w);
	for (uint32_t k = 0; k < w.count; k++)
		w.curves[k].stored = w.curves[k].value = raw_value[k];
	if (kept == 0) {
		/* Float values interpolate exactly between neighbours: cannot
		 * happen unless the bound is below float rounding. */
		for (uint32_t i = 0; i < n; i++)
			w.kept[i] = i;
		kept = n;
	}
	/*
	 * Four candidates, the smallest written (ties to the first): the
	 * keys as they are (free of times when they are, or the uniform pass
	 * will make them, evenly spaced), every m-th key (uniform still: a
	 * 120 Hz take that holds at 60 or 40 Hz), the fewest keys evenly
	 * spaced anew (a take whose key count no such m divides), and the
	 * fewest keys with their times, 4 bytes a key.  Timed keys replace
	 * uniform ones only when they save more than
	 * REDUCE_TIMED_MIN_SAVING_PERCENT of them.
	 */
	uint64_t key_bytes = 0;
	for (uint32_t k = 0; k < w.count; k++)
		key_bytes += 4u * w.curves[k].width;
	float interval;
	bool is_uniform = !ch->has_time || animc_times_evenly_spaced(ch->times_s, n, &interval);
	uint64_t lossless_bytes = (uint64_t)n * (key_bytes + (is_uniform ? 0 : 4));
	uint64_t timed_bytes = (uint64_t)kept * (key_bytes + 4);
	bool stepped = memchr(w.forced, 1, n) != NULL;
	uint32_t step = is_uniform && !stepped ? coarser_step(&w, n) : 0;
	uint64_t coarse_bytes = step ? (uint64_t)((n - 1) / step + 1) * key_bytes : UINT64_MAX;
	uint64_t uniform_bytes = lossless_bytes < coarse_bytes ? lossless_bytes : coarse_bytes;
	/* Evenly spaced keys anew: fewer bytes than every key and every m-th
	 * key, and not so many that the timed keys save more than their
	 * share. */
	resample_work r;
	uint32_t resampled = 0;
	uint64_t most = (uniform_bytes - 1) / key_bytes;
	if (timed_bytes != UINT64_MAX)
		most = fmin((double)most, floor((double)timed_bytes * 100 /
						((100 - REDUCE_TIMED_MIN_SAVING_PERCENT) * (double)key_bytes)));
	if (!stepped && most >= 2) {
		if (!resample_init(&r, &w, ch, n, (uint32_t)most)) {
			resample_release(&r);
			channel_work_release(&w);
			return ANIMC_ERR_NOMEM;
		}
		r.is_original_checked = !is_uniform;
		resampled = resampled_keys(&r, &w, ch, (uint32_t)most);
	} else {
		memset(&r, 0, sizeof r);
	}
	uint64_t resampled_bytes = resampled ? (uint64_t)resampled * key_bytes : UINT64_MAX;
	uint64_t even_bytes = is_uniform ? uniform_bytes : UINT64_MAX;
	if (resampled_bytes < even_bytes)
		even_bytes = resampled_bytes;
	if (even_bytes != UINT64_MAX && timed_bytes * 100 >= even_bytes * (100 - REDUCE_TIMED_MIN_SAVING_PERCENT))
		timed_bytes = UINT64_MAX;
	if (resampled && resampled_bytes < uniform_bytes && resampled_bytes <= timed_bytes) {
		float ki = (float)((double)r.end / (resampled - 1));

		for (uint32_t k = 0; k < w.count; k++) {
			animc_track *t = &ch->tracks[w.kinds[k]];
			float *values = animc_clip_alloc_floats(clip, (size_t)resampled * w.curves[k].width);

			if (!values) {
				resample_release(&r);
				channel_work_release(&w);
				return ANIMC_ERR_NOMEM;
			}
			memcpy(values, r.best[k], (size_t)resampled * w.curves[k].width * sizeof(float));
			t->values = values;
			t->value_count = resampled;
			animc_reduce_note_error(error, w.curves[k].kind, r.best_worst[k]);
			error->keys_after += resampled;
		}
		ch->has_time = false;
		ch->times_s = NULL;
		ch->key_interval_s = ki;
		ch->key_count = resampled;
		error->sequences_resampled++;
		resample_release(&r);
		channel_work_release(&w);
		return ANIMC_OK;
	}
	resample_release(&r);
	bool is_lossless = lossless_bytes <= coarse_bytes && lossless_bytes <= timed_bytes;
	if (is_lossless) {
		for (uint32_t i = 0; i < n; i++)
			w.kept[i] = i;
		kept = n;
		error->sequences_lossless++;
	} else if (coarse_bytes <= timed_bytes) {
		kept = 0;
		for (uint32_t i = 0; i < n; i += step)
			w.kept[kept++] = i;
		error->sequences_coarser++;
		for (uint32_t k = 0; k < w.count; k++)
			w.curves[k].stored = w.coarse[k];
	} else {
		error->sequences_timed++;
		for (uint32_t k = 0; k < w.count; k++) {
			w.curves[k].stored = w.stored[k];
			if (w.timed_value[k])
				w.curves[k].value = w.timed_value[k];
		}
	}
	/* Every key as it is has no error: the runtime samples the output
	 * as it samples the source (measuring it against the source's values
	 * in double gave float rounding, past the bound near 1e4 units). */
	for (uint32_t k = 0; k < w.count; k++) {
		const reduce_curve *c = &w.curves[k];

		for (uint32_t i = 0; !is_lossless && i + 1 < kept; i++)
			animc_reduce_note_error(error, c->kind, animc_reduce_span_error(c, w.kept[i], w.kept[i + 1], false));
		error->keys_after += kept;
	}
	if (kept < n) {
		float *times = animc_clip_alloc_floats(clip, kept);

		if (!times) {
			channel_work_release(&w);
			return ANIMC_ERR_NOMEM;
		}
		for (uint32_t i = 0; i < kept; i++)
			times[i] = w.pos[w.kept[i]];
		for (uint32_t k = 0; k < w.count; k++) {
			animc_track *t = &ch->tracks[w.kinds[k]];
			unsigned width = animc_track_width[w.kinds[k]];

			const float *from = w.curves[k].stored;

			/* In place (from the source): kept[i] >= i. */
			for (uint32_t i = 0; i < kept; i++)
				memmove(t->values + (size_t)i * width, from + (size_t)w.kept[i] * width,
					width * sizeof(float));
			t->value_count = kept;
		}
		ch->times_s = times;
		ch->has_time = true;
		ch->key_count = kept;
	}
	channel_work_release(&w);
	return ANIMC_OK;
}

void animc_reduce_merge_error(animc_clip_error *into, const animc_clip_error *e)
{
	into->translation = fmax(into->translation, e->translation);
	into->rotation_deg = fmax(into->rotation_deg, e->rotation_deg);
	into->scale = fmax(into->scale, e->scale);
	into->shell = fmax(into->shell, e->shell);
	into->keys_before += e->keys_before;
	into->keys_after += e->keys_after;
	into->sequences_lossless += e->sequences_lossless;
	into->sequences_coarser += e->sequences_coarser;
	into->sequences_timed += e->sequences_timed;
	into->sequences_resampled += e->sequences_resampled;
	into->tracks_identity += e->tracks_identity;
	into->tracks_constant += e->tracks_constant;
	into->tracks_keyed += e->tracks_keyed;
	into->tracks_segmented += e->tracks_segmented;
	if (e->grid_finer > into->grid_finer)
		into->grid_finer = e->grid_finer;
}


void animc_reduce_channels_value(const void *ctx, uint32_t channel, animc_track_kind kind, float t, float *out)
{
	const animc_channel *ch = (const animc_channel *)ctx + channel;

	animc_reduce_channel_value(ch, kind, t < ch->duration_s ? t : ch->duration_s, out);
}

/* With a skeleton: local bounds from the shell, then rounds of measuring
 * the model-space error and tightening the chains that pass it. */
static animc_status reduce_with_shell(animc_clip *clip, const animc_reduce_options *options,
				      animc_diag_sink *sink, animc_clip_error *error)
{
	uint32_t n = clip->channel_count;
	animc_channel *source = malloc((n ? n : 1) * sizeof *source);
	animc_tolerance *bounds = malloc((n ? n : 1) * sizeof *bounds);
	animc_clip_error *errors = calloc(n ? n : 1, sizeof *errors);
	uint8_t *dirty = malloc(n ? n : 1);
	animc_status status = source && bounds && errors && dirty ? ANIMC_OK : ANIMC_ERR_NOMEM;
	shell s;
	int rounds = 0;
	double worst = 0;

	memset(&s, 0, sizeof s);
	for (uint32_t i = 0; status == ANIMC_OK && i < n; i++)
		status = animc_channel_copy(clip, &clip->channels[i], &source[i]);
	if (status == ANIMC_OK)
		status = animc_shell_init(&s, clip, options, animc_reduce_channels_value, source, 0);
	for (uint32_t i = 0; status == ANIMC_OK && i < n; i++) {
		animc_shell_local_tolerance(&s, i, &options->tolerance, &bounds[i]);
		dirty[i] = 1;
	}
	while (status == ANIMC_OK) {
		for (uint32_t i = 0; status == ANIMC_OK && i < n; i++) {
			if (!dirty[i])
				continue;
			status = animc_channel_copy(clip, &source[i], &clip->channels[i]);
			memset(&errors[i], 0, sizeof errors[i]);
			if (status == ANIMC_OK)
				status = reduce_channel(clip, &clip->channels[i], &bounds[i], options->keep_ends,
								&errors[i]);
		}
		if (status != ANIMC_OK)
			break;
		worst = animc_shell_measure(&s, animc_reduce_channels_value, source, animc_reduce_channels_value, clip->channels);
		memset(dirty, 0, n ? n : 1);
		if (++rounds == SHELL_MAX_ROUNDS || animc_shell_tighten(&s, bounds, NULL, dirty) == 0)
			break;
	}
	if (status == ANIMC_OK) {
		for (uint32_t i = 0; i < n; i++)
			animc_reduce_merge_error(error, &errors[i]);
		error->shell = worst;
		animc_shell_report(&s, clip, worst, rounds, sink);
	}
	animc_shell_release(&s);
	free(source);
	free(bounds);
	free(errors);
	free(dirty);
	return status;
}

animc_status animc_pass_reduce(animc_clip *clip, const animc_reduce_options *options, animc_diag_sink *sink,
			       animc_pass_stats *stats)
{
	animc_clip_error error;

	memset(&error, 0, sizeof error);
	if (animc_tolerance_check(options, sink) != ANIMC_OK)
		return ANIMC_ERR_ARGUMENT;
	if (!options || !animc_tolerance_is_set(&options->tolerance))
		return ANIMC_OK;
	if (options->skeleton && options->shell_distance > 0 && options->tolerance.translation > 0) {
		/* The shell is measured every 1/60 s: past the limit for its
		 * keys the clip stays as it is, which has no error. */
		if ((double)clip->duration_s * SHELL_PLAYBACK_HZ > animc_shell_most_points(clip)) {
			animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_TOO_LONG_TO_MEASURE, clip, NULL,
					  "lasts %g s: measuring its error on the skeleton every 1/60 s passes the "
					  "limit of %.0f points for its keys; kept lossless",
					  (double)clip->duration_s, animc_shell_most_points(clip));
			return ANIMC_OK;
		}
		animc_status status = reduce_with_shell(clip, options, sink, &error);

		if (status != ANIMC_OK)
			return status;
	} else {
		for (uint32_t i = 0; i < clip->channel_count; i++) {
			animc_channel *ch = &clip->channels[i];
			animc_status status = reduce_channel(clip, ch, &options->tolerance, options->keep_ends, &error);

			if (status != ANIMC_OK)
				return status;
		}
	}
	if (stats) {
		stats->is_reduced = true;
		stats->error = error;
	}
	return ANIMC_OK;
}
