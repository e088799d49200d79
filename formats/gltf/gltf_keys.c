/*
 * gltf_keys.c - a glTF sampler's keys as keys the original runtime plays:
 * it interpolates linearly (lerp; shortest-arc slerp for rotations)
 * between keys at explicit times.  LINEAR keys pass as they are, STEP keys
 * get a holding key one float before each change, CUBICSPLINE curves are
 * baked by adaptive bisection within an error bound (NOTES.md explains
 * each).  Pure functions: no diagnostics, no globals.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

const gltf_bounds animc_gltf_default_bounds = { 1e-4, 1e-4, 1e-4 };

double animc_gltf_bound_of(const gltf_bounds *bounds, animc_track_kind kind)
{
	if (!bounds)
		bounds = &animc_gltf_default_bounds;
	return kind == ANIMC_TRANSLATION ? bounds->translation :
	       kind == ANIMC_ROTATION ? bounds->rotation_rad : bounds->scale;
}

void animc_gltf_keys_release(gltf_keys *keys)
{
	if (!keys)
		return;
	free(keys->times_s);
	free(keys->values);
	memset(keys, 0, sizeof *keys);
}

/* Append one key; ANIMC_ERR_LIMIT past GLTF_MAX_BAKED_KEYS. */
static animc_status push(gltf_keys *k, unsigned width, float t, const float *v)
{
	if (k->count == k->capacity) {
		uint32_t capacity;
		float *times, *values;

		if (k->capacity >= GLTF_MAX_BAKED_KEYS)
			return ANIMC_ERR_LIMIT;
		capacity = k->capacity ? k->capacity * 2 : 16;
		if (capacity > GLTF_MAX_BAKED_KEYS)
			capacity = GLTF_MAX_BAKED_KEYS;
		times = realloc(k->times_s, capacity * sizeof *times);
		if (!times)
			return ANIMC_ERR_NOMEM;
		k->times_s = times;
		values = realloc(k->values, (size_t)capacity * width * sizeof *values);
		if (!values)
			return ANIMC_ERR_NOMEM;
		k->values = values;
		k->capacity = capacity;
	}
	k->times_s[k->count] = t;
	memcpy(&k->values[(size_t)k->count * width], v, width * sizeof *v);
	k->count++;
	return ANIMC_OK;
}

/* --------------------------------------------------------------- maths */

/* Shortest-arc slerp of unit quaternions in double, as the runtime does it
 * (normalised lerp above a dot of 0.999999). */
static void slerp(const double *a, const double *b, double u, double *out)
{
	double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], sign = 1, w0, w1;

	if (dot < 0) {
		dot = -dot;
		sign = -1;
	}
	if (dot > 0.999999) {
		double len = 0;

		for (int i = 0; i < 4; i++) {
			out[i] = (1 - u) * a[i] + sign * u * b[i];
			len += out[i] * out[i];
		}
		len = sqrt(len);
		for (int i = 0; i < 4; i++)
			out[i] /= len;
		return;
	}
	double angle = acos(dot), inv = 1.0 / sin(angle);

	w0 = sin((1 - u) * angle) * inv;
	w1 = sign * sin(u * angle) * inv;
	for (int i = 0; i < 4; i++)
		out[i] = w0 * a[i] + w1 * b[i];
}

/* The angle between two unit quaternions' rotations, in radians. */
static double quat_angle(const double *a, const double *b)
{
	double s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
	double diff = 0, sum = 0;

	/* With the sign aligned, |a - b| = 2 sin(phi/2) and |a + b| =
	 * 2 cos(phi/2), phi being half the rotation angle: this keeps its
	 * precision near 0, where acos of a dot close to 1 does not. */
	for (int i = 0; i < 4; i++) {
		diff += (a[i] - s * b[i]) * (a[i] - s * b[i]);
		sum += (a[i] + s * b[i]) * (a[i] + s * b[i]);
	}
	return 4 * atan2(sqrt(diff), sqrt(sum));
}

static bool normalise(double *q)
{
	double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

	if (!(len > 1e-9) || !isfinite(len))
		return false;
	for (int i = 0; i < 4; i++)
		q[i] /= len;
	return true;
}

/* One cubic Hermite segment of the glTF specification: key values v0, v1
 * at t0, t1, the out-tangent b0 of the first key and the in-tangent a1 of
 * the second, both per second (so scaled by t1 - t0). */
typedef struct segment {
	double t0, t1;
	const float *v0, *b0, *a1, *v1;
	unsigned width;
	bool is_rotation;
} segment;

/* The curve at time t (rotations normalised); false for a rotation whose
 * curve passes through zero there. */
static bool hermite(const segment *g, double t, double *out)
{
	double d = g->t1 - g->t0, s = (t - g->t0) / d, s2 = s * s, s3 = s2 * s;
	double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;

	for (unsigned i = 0; i < g->width; i++)
		out[i] = h00 * g->v0[i] + h10 * d * g->b0[i] + h01 * g->v1[i] + h11 * d * g->a1[i];
	return !g->is_rotation || normalise(out);
}

/* |second derivative| per component at time t, for the chord bound. */
static void hermite_second(const segment *g, double t, double *out)
{
	double d = g->t1 - g->t0, s = (t - g->t0) / d;
	double h00 = 12 * s - 6, h10 = 6 * s - 4, h01 = -12 * s + 6, h11 = 6 * s - 2;

	for (unsigned i = 0; i < g->width; i++)
		out[i] = fabs((h00 * g->v0[i] + h10 * d * g->b0[i] + h01 * g->v1[i] + h11 * d * g->a1[i]) /
			      (d * d));
}

/*
 * How far linear interpolation between the stored keys (ta, va), (tb, vb)
 * strays from the curve.  Vectors: the curve is a cubic, so the chord's
 * error is at most h^2/8 times the largest second derivative on the
 * interval, which (being linear in t) is largest at an end: a bound, not
 * an estimate.  Rotations: the normalised curve against the runtime's slerp,
 * measured at seven points of the interval (the error of a short chord is
 * a smooth hump; the caller halves the bound for what lies between).
 */
static double chord_error(const segment *g, double ta, const float *va, double tb, const float *vb,
			  bool *ok)
{
	double err = 0;

	*ok = true;
	if (!g->is_rotation) {
		double ma[4], mb[4], h = tb - ta, sum = 0;

		hermite_second(g, ta, ma);
		hermite_second(g, tb, mb);
		for (unsigned i = 0; i < g->width; i++) {
			double m = fmax(ma[i], mb[i]);

			sum += m * m;
		}
		return h * h / 8 * sqrt(sum);
	}
	double qa[4], qb[4];

	for (int i = 0; i < 4; i++) {
		qa[i] = va[i];
		qb[i] = vb[i];
	}
	normalise(qa);
	normalise(qb);
	for (int j = 1; j < 8; j++) {
		double u = j / 8.0, exact[4], chord[4];

		if (!hermite(g, ta + u * (tb - ta), exact)) {
			*ok = false;
			return INFINITY;
		}
		slerp(qa, qb, u, chord);
		err = fmax(err, quat_angle(exact, chord));
	}
	return err;
}

static void to_float(const double *d, unsigned width, float *f)
{
	for (unsigned i = 0; i < width; i++)
		f[i] = (float)d[i];
}

/* Keys between (ta, va) and (tb, vb), then (tb, vb): bisection until the
 * chord error is within `target`. */
static animc_status bake(const segment *g, float ta, const float *va, float tb, const float *vb,
			 double target, gltf_keys *out, unsigned depth)
{
	double mid_value[4];
	float mid, vm[4];
	animc_status status;
	bool ok;

	if (chord_error(g, ta, va, tb, vb, &ok) <= target)
		return push(out, g->width, tb, vb);
	mid = (float)(((double)ta + tb) / 2);
	/* No float time lies between: nothing can sample the chord anywhere
	 * but at its ends, where it is exact (a fast ease late in a long
	 * clip, where floats are 3e-5 s apart at 300 s).  The key limit still
	 * bounds a curve that is wild everywhere. */
	if (ok && !(mid > ta && mid < tb))
		return push(out, g->width, tb, vb);
	if (!ok || depth > 200)
		return ANIMC_ERR_LIMIT;
	if (!hermite(g, mid, mid_value))
		return ANIMC_ERR_LIMIT;
	to_float(mid_value, g->width, vm);
	status = bake(g, ta, va, mid, vm, target, out, depth + 1);
	if (status == ANIMC_OK)
		status = bake(g, mid, vm, tb, vb, target, out, depth + 1);
	return status;
}

/*
 * Does a rotation segment's curve, before normalising, pass through or
 * within a thousandth of the length of its keys of zero?  Sampled finely
 * (the curve is a cubic): at a crossing the samples around it come that
 * close, and a curve that close turns half round in no time anyway.
 */
static bool through_zero(const segment *g)
{
	double scale = 0;

	for (int i = 0; i < 4; i++)
		scale = fmax(scale, fmax(fabs(g->v0[i]), fabs(g->v1[i])));
	for (int j = 0; j <= 4096; j++) {
		double s = j / 4096.0, s2 = s * s, s3 = s2 * s, d = g->t1 - g->t0, sum = 0;
		double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;

		for (int i = 0; i < 4; i++) {
			double v = h00 * g->v0[i] + h10 * d * g->b0[i] + h01 * g->v1[i] + h11 * d * g->a1[i];

			sum += v * v;
		}
		if (sqrt(sum) <= 1e-3 * scale)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------ conversion */

/* The value of key k (the middle element of a CUBICSPLINE triple). */
static const float *key_value(gltf_interpolation mode, unsigned width, const float *values, uint32_t k)
{
	return &values[((size_t)k * (mode == GLTF_CUBICSPLINE ? 3 : 1) + (mode == GLTF_CUBICSPLINE)) *
		       width];
}

static segment cubic_segment(unsigned width, bool is_rotation, const float *times, const float *values,
			     uint32_t k)
{
	segment g = {
		.t0 = times[k], .t1 = times[k + 1],
		.v0 = &values[((size_t)k * 3 + 1) * width],
		.b0 = &values[((size_t)k * 3 + 2) * width],
		.a1 = &values[((size_t)(k + 1) * 3) * width],
		.v1 = &values[((size_t)(k + 1) * 3 + 1) * width],
		.width = width, .is_rotation = is_rotation,
	};
	return g;
}

/* The sampler's value at time t inside segment (k, k + 1), by its rule. */
static bool value_between(gltf_interpolation mode, bool is_rotation, unsigned width,
			  const float *times, const float *values, uint32_t k, double t, float *out)
{
	const float *a = key_value(mode, width, values, k), *b = key_value(mode, width, values, k + 1);
	double u = (t - times[k]) / ((double)times[k + 1] - times[k]), r[4], qa[4], qb[4];

	if (mode == GLTF_STEP) {
		memcpy(out, a, width * sizeof *out);
		return true;
	}
	if (mode == GLTF_CUBICSPLINE) {
		segment g = cubic_segment(width, is_rotation, times, values, k);

		if (!hermite(&g, t, r))
			return false;
		to_float(r, width, out);
		return true;
	}
	if (is_rotation) {
		for (int i = 0; i < 4; i++) {
			qa[i] = a[i];
			qb[i] = b[i];
		}
		slerp(qa, qb, u, r);
		to_float(r, 4, out);
	} else {
		for (unsigned i = 0; i < width; i++)
			out[i] = (float)(a[i] + ((double)b[i] - a[i]) * u);
	}
	return true;
}

animc_status animc_gltf_keys_build(gltf_interpolation mode, bool is_rotation, unsigned width,
			     const float *times, const float *values, uint32_t n, double bound,
			     gltf_keys *out)
{
	const float *held;   /* STEP: the value in force */
	float at_zero[4];
	uint32_t first = 0, segment_key = 0;
	animc_status status = ANIMC_OK;

	memset(out, 0, sizeof *out);
	if (n == 0 || width > 4)
		return ANIMC_ERR_ARGUMENT;
	while (first < n && times[first] < 0)
		first++;
	out->dropped_before_zero = first;
	if (first == n)   /* every key before 0: the last one holds */
		return push(out, width, 0.0f, key_value(mode, width, values, n - 1));
	held = key_value(mode, width, values, first);
	if (first > 0 && times[first] > 0) {
		segment_key = first - 1;
		/* The value at 0 from the keys around it, by the sampler's rule. */
		if (!value_between(mode, is_rotation, width, times, values, first - 1, 0.0, at_zero))
			status = ANIMC_ERR_LIMIT;
		else
			status = push(out, width, 0.0f, at_zero);
		held = key_value(mode, width, values, first - 1);
		if (status == ANIMC_OK && mode == GLTF_CUBICSPLINE) {
			segment g = cubic_segment(width, is_rotation, times, values, first - 1);

			status = bake(&g, 0.0f, at_zero, times[first], key_value(mode, width, values, first),
				      bound / 2, out, 0);
		}
		if (status == ANIMC_OK && mode == GLTF_LINEAR)
			status = push(out, width, times[first], key_value(mode, width, values, first));
	} else {
		/* The runtime runs the first interpolation backwards before the
		 * first key; glTF holds the first value. */
		if (times[first] > 0 && n - first > 1)
			status = push(out, width, 0.0f, held);
		if (status == ANIMC_OK)
			status = push(out, width, times[first], held);
	}
	/* STEP cut at 0: the change at the first kept key is still to come. */
	uint32_t from = mode == GLTF_STEP && first > 0 && times[first] > 0 ? first : first + 1;

	for (uint32_t k = from; k < n && status == ANIMC_OK; k++) {
		const float *v = key_value(mode, width, values, k);

		if (mode == GLTF_LINEAR) {
			status = push(out, width, times[k], v);
		} else if (mode == GLTF_STEP) {
			float before = nextafterf(times[k], -INFINITY);

			if (memcmp(v, held, width * sizeof *v) == 0)
				continue;   /* no change: nothing to hold */
			/* The old value up to the float just below the new
			 * key's time: no float time samples between the two. */
			if (before > out->times_s[out->count - 1])
				status = push(out, width, before, held);
			if (status == ANIMC_OK)
				status = push(out, width, times[k], v);
			held = v;
		} else {
			segment g = cubic_segment(width, is_rotation, times, values, k - 1);

			segment_key = k - 1;
			status = bake(&g, times[k - 1], key_value(mode, width, values, k - 1), times[k], v,
				      bound / 2, out, 0);
		}
	}
	if (status != ANIMC_OK)
		animc_gltf_keys_release(out);
	if (status == ANIMC_ERR_LIMIT) {
		out->limit_key = segment_key;
		if (mode == GLTF_CUBICSPLINE && is_rotation) {
			segment g = cubic_segment(width, is_rotation, times, values, segment_key);

			out->is_through_zero = through_zero(&g);
		}
	}
	return status;
}
