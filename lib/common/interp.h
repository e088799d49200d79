/*
 * interp.h - the format's interpolation rule in the runtime's float
 * arithmetic: lerp for translation and scale, shorter-arc slerp for rotation
 * (a normalised lerp above the original's dot threshold).  libanimrt samples
 * with these formulas; the pipeline's reduction measures its error with them,
 * so what it checks is what the runtime computes.  Header-only, standard C.
 */
#ifndef ANIMC_INTERP_H
#define ANIMC_INTERP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* Above this dot product two keys count as equal: normalised lerp (the
 * original's threshold, XNA's Quaternion.Slerp). */
#define INTERP_NLERP_DOT 0.999999f

/*
 * Slerp weights need acos and sin; libm's double versions cost more than a
 * whole bone sample.  These polynomials are accurate to about 1e-7 on the
 * ranges used (acos on [0, 1], sin on [0, pi/2]), and the angle keeps that
 * relative accuracy down to the nlerp threshold, so the weights
 * sin(u a) / sin(a) do too.
 */

/* acos(x) on [0, 1]: Abramowitz & Stegun 4.4.45, |error| <= 2e-8, in
 * Estrin's form (shorter dependency chains than Horner's). */
static inline float interp_acos_unit(float x)
{
	float x2 = x * x, x4 = x2 * x2;
	float p01 = 1.5707963050f - 0.2145988016f * x, p23 = 0.0889789874f - 0.0501743046f * x;
	float p45 = 0.0308918810f - 0.0170881256f * x, p67 = 0.0066700901f - 0.0012624911f * x;
	float p = (p01 + p23 * x2) + (p45 + p67 * x2) * x4;

	return sqrtf(1.0f - x) * p;
}

/* sin(x) on [0, pi/2]: Taylor series to x^11, |error| < 6e-8. */
static inline float interp_sin_quadrant(float x)
{
	float y = x * x, y2 = y * y;
	float q01 = 1.0f / 6.0f - y * (1.0f / 120.0f), q23 = 1.0f / 5040.0f - y * (1.0f / 362880.0f);
	float q = q01 + q23 * y2 + (1.0f / 39916800.0f) * (y2 * y2);

	return x - x * y * q;
}

/*
 * What the slerp weights take from the keys' dot product alone: its sign,
 * whether the normalised lerp applies, the angle and 1 / sin(angle).  A
 * caller interpolating one pair of keys at many weights takes it once.
 */
typedef struct interp_arc {
	float sign, angle, inv_sin;
	bool is_near;
} interp_arc;

static inline interp_arc interp_arc_of(float dot)
{
	interp_arc arc;
	float d = fabsf(dot);
	/* Clamped so that the lanes taking the nlerp compute no NaN. */
	float c = d < INTERP_NLERP_DOT ? d : INTERP_NLERP_DOT;

	arc.sign = dot < 0 ? -1.0f : 1.0f;
	/* sin(acos(c)) = sqrt((1 - c)(1 + c)); 1 - c is exact, so this is as
	 * accurate as the angle, and runs beside its polynomial. */
	arc.angle = interp_acos_unit(c);
	arc.inv_sin = 1.0f / sqrtf((1.0f - c) * (1.0f + c));
	arc.is_near = !(d <= INTERP_NLERP_DOT);
	return arc;
}

/* The slerp weights of a (w0) and b (w1) at weight u on `arc`; *is_near
 * when the normalised lerp applies (the result then needs normalising). */
static inline void interp_arc_weights(const interp_arc *arc, float u, float *w0, float *w1, bool *is_near)
{
	float s0 = interp_sin_quadrant((1.0f - u) * arc->angle) * arc->inv_sin;
	float s1 = interp_sin_quadrant(u * arc->angle) * arc->inv_sin;

	*is_near = arc->is_near;
	*w0 = *is_near ? 1.0f - u : s0;
	*w1 = arc->sign * (*is_near ? u : s1);
}

/*
 * The slerp weights of a (w0) and b (w1) for weight u and dot product dot
 * of the two keys; *is_near when the normalised lerp applies (the result
 * then needs normalising).  Branch-free apart from the selects, so a
 * compiler may vectorise a loop of them.
 */
static inline void interp_slerp_weights(float dot, float u, float *w0, float *w1, bool *is_near)
{
	interp_arc arc = interp_arc_of(dot);

	interp_arc_weights(&arc, u, w0, w1, is_near);
}

/* The quaternion dot product the slerp takes its arc from. */
static inline float interp_dot4(const float a[4], const float b[4])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* out = slerp(a, b, u) on their arc (interp_arc_of(interp_dot4(a, b))),
 * u in [0, 1]; out may be a or b. */
static inline void interp_slerp_on(float out[4], const float a[4], const float b[4], const interp_arc *arc, float u)
{
	float w0, w1, q[4];
	bool is_near;

	interp_arc_weights(arc, u, &w0, &w1, &is_near);
	for (int k = 0; k < 4; k++)
		q[k] = w0 * a[k] + w1 * b[k];
	float len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
	float scale = is_near && len2 > 0 ? 1.0f / sqrtf(len2) : 1.0f;

	for (int k = 0; k < 4; k++)
		out[k] = q[k] * scale;
}

/* out = slerp(a, b, u), u in [0, 1]; out may be a or b. */
static inline void interp_slerp(float out[4], const float a[4], const float b[4], float u)
{
	interp_arc arc = interp_arc_of(interp_dot4(a, b));

	interp_slerp_on(out, a, b, &arc, u);
}

/* out = a * b, the Hamilton product of quaternions x y z w: b's rotation
 * first, then a's.  out may be a or b. */
static inline void interp_quat_mul(float out[4], const float a[4], const float b[4])
{
	float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];

	out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

/* XNA's Vector3.Lerp: exact at u = 0 and monotonic for tiny u.  out may be
 * a or b. */
static inline void interp_lerp3(float out[3], const float a[3], const float b[3], float u)
{
	float q[3] = { a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u };

	out[0] = q[0];
	out[1] = q[1];
	out[2] = q[2];
}

/*
 * The key interval of a sequence at local time t, by the original
 * KeyFrameSequence rule: *i1 and *i2 the keys around t, *u the weight from
 * i1 toward i2 (0 when t holds i1).  `last` is the last key's index.
 *  - explicit times: the last key from its time on, else the original binary
 *    search (which stops at a key time equal to t); before the first key time
 *    the first key holds;
 *  - uniform keys: (int)(t / key_interval) in double precision; KeyInterval 0
 *    with several keys holds the last key.
 * At or past the last key both are the last key.
 */
static inline uint32_t interp_search_times(const float *times, uint32_t last, float t)
{
	uint32_t lo = 0, hi = last;

	if (t >= times[last])
		return last;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (times[mid] < t)
			lo = mid;
		else if (times[mid] > t)
			hi = mid;
		else
			return mid;
	}
	return lo;
}

/*
 * interp_search_times's answer, found from a guess: times spread over the
 * sequence about evenly (reduced keys are a subset of a uniform take) put
 * the key of t near t / times[last] * last, so a gallop out from there and
 * a binary search over the bracket take a few steps where the search over
 * every key takes log2 of their count.  When t lies strictly between two
 * key times, or equals one key time only, the binary search has one
 * answer, and this finds it; a time several keys share goes to the binary
 * search, whose path decides which of them it stops at.
 */
static inline uint32_t interp_find_times(const float *times, uint32_t last, float t)
{
	if (t >= times[last])
		return last;
	if (!(t > times[0]))
		return interp_search_times(times, last, t);
	/* times[0] < t < times[last]: the last key at or before t is in
	 * [0, last - 1]; lo holds times[lo] <= t, hi holds times[hi] > t. */
	uint32_t lo = 0, hi;

	if (last <= 64) {
		/* A few cache lines: count the keys after the first at or
		 * before t, without a branch. */
		for (uint32_t i = 1; i < last; i++)
			lo += times[i] <= t;
		hi = lo + 1;
	} else {
		double guess = (double)t / (double)times[last] * (double)last;
		uint32_t g = !(guess > 0) ? 0 : guess < (double)last ? (uint32_t)guess : last - 1, step = 1;
		uint32_t w0 = g > 32 ? g - 32 : 0, w1 = last - w0 > 64 ? w0 + 64 : last;

		if (times[w0] <= t && times[w1] > t) {
			/* Within 64 keys of the guess (most times): count. */
			lo = w0;
			for (uint32_t i = w0 + 1; i < w1; i++)
				lo += times[i] <= t;
			hi = lo + 1;
		} else if (times[g] <= t) {
			lo = g;
			hi = g + 1;
			while (times[hi] <= t) {
				lo = hi;
				hi = last - hi > step ? hi + step : last;
				step *= 2;
			}
		} else {
			lo = g;
			do {
				hi = lo;
				lo = lo > step ? lo - step : 0;
				step *= 2;
			} while (times[lo] > t);
		}
	}
	/* times[lo] <= t < times[lo + n]: halve without a branch to mispredict. */
	const float *base = times + lo;
	for (uint32_t n = hi - lo; n > 1;) {
		uint32_t half = n / 2;

		base = base[half] <= t ? base + half : base;
		n -= half;
	}
	lo = (uint32_t)(base - times);
	if (times[lo] == t && lo > 0 && !(times[lo - 1] < t))
		return interp_search_times(times, last, t);
	return lo;
}

static inline void interp_timed_weight(const float *times, uint32_t i, uint32_t last, float t,
				       uint32_t *i1, uint32_t *i2, float *u)
{
	*i1 = *i2 = last;
	*u = 0;
	if (i < last) {
		float span = times[i + 1] - times[i];

		*i1 = i;
		*i2 = i + 1;
		*u = span > 0 && t > times[i] ? (t - times[i]) / span : 0;
	}
}

static inline void interp_uniform_keys(float key_interval_s, uint32_t last, float t, uint32_t *i1,
				       uint32_t *i2, float *u)
{
	*i1 = *i2 = last;
	*u = 0;
	if (key_interval_s > 0) {
		/* Double precision: for float t and KeyInterval the quotient
		 * floors exactly, as the reference computes it. */
		double q = (double)t / (double)key_interval_s;

		if (q < (double)last) {
			uint32_t i = (uint32_t)q;

			*i1 = i;
			*i2 = i + 1;
			*u = (float)(q - (double)i);
		}
	}
}

#endif /* ANIMC_INTERP_H */
