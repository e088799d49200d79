/*
 * simd.h - four float (or int32) lanes, and the few operations the SIMD
 * samplers use: SSE2 on x86-64 (its baseline), NEON on AArch64, plain C
 * arrays elsewhere (or with ANIMRT_NO_SIMD).  Every operation is the IEEE
 * single-precision one the scalar code performs, lane by lane, so a SIMD
 * result equals the scalar reference's up to the order of operations the
 * code itself chooses.  Private to the runtime.
 */
#ifndef ANIMRT_SIMD_H
#define ANIMRT_SIMD_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if !defined(ANIMRT_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define RT_SIMD_SSE2 1
#include <emmintrin.h>
typedef __m128 rt_f4;
typedef __m128i rt_i4;
#define RT_SIMD_NAME "sse2"
#elif !defined(ANIMRT_NO_SIMD) && defined(__ARM_NEON) && defined(__aarch64__)
#define RT_SIMD_NEON 1
#include <arm_neon.h>
typedef float32x4_t rt_f4;
typedef int32x4_t rt_i4;
#define RT_SIMD_NAME "neon"
#else
#define RT_SIMD_PLAIN 1
typedef struct rt_f4 {
	float v[4];
} rt_f4;
typedef struct rt_i4 {
	int32_t v[4];
} rt_i4;
#define RT_SIMD_NAME "plain C"
#endif

#if RT_SIMD_SSE2
static inline rt_f4 rt_load(const float *p) { return _mm_loadu_ps(p); }
static inline void rt_store(float *p, rt_f4 a) { _mm_storeu_ps(p, a); }
static inline rt_f4 rt_set1(float x) { return _mm_set1_ps(x); }
static inline rt_f4 rt_add(rt_f4 a, rt_f4 b) { return _mm_add_ps(a, b); }
static inline rt_f4 rt_sub(rt_f4 a, rt_f4 b) { return _mm_sub_ps(a, b); }
static inline rt_f4 rt_mul(rt_f4 a, rt_f4 b) { return _mm_mul_ps(a, b); }
static inline rt_f4 rt_div(rt_f4 a, rt_f4 b) { return _mm_div_ps(a, b); }
static inline rt_f4 rt_sqrt(rt_f4 a) { return _mm_sqrt_ps(a); }
static inline rt_f4 rt_abs(rt_f4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
/* Masks: all bits set where true. */
static inline rt_f4 rt_lt(rt_f4 a, rt_f4 b) { return _mm_cmplt_ps(a, b); }
static inline rt_f4 rt_le(rt_f4 a, rt_f4 b) { return _mm_cmple_ps(a, b); }
static inline rt_f4 rt_gt(rt_f4 a, rt_f4 b) { return _mm_cmpgt_ps(a, b); }
static inline rt_f4 rt_not(rt_f4 m) { return _mm_xor_ps(m, _mm_castsi128_ps(_mm_set1_epi32(-1))); }
static inline rt_f4 rt_and(rt_f4 a, rt_f4 b) { return _mm_and_ps(a, b); }
/* m ? a : b */
static inline rt_f4 rt_select(rt_f4 m, rt_f4 a, rt_f4 b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
static inline rt_f4 rt_to_float(rt_i4 a) { return _mm_cvtepi32_ps(a); }
static inline rt_f4 rt_eq_i(rt_i4 a, int32_t x) { return _mm_castsi128_ps(_mm_cmpeq_epi32(a, _mm_set1_epi32(x))); }
/* Rows a b c d of four lanes each become columns. */
static inline void rt_transpose(rt_f4 *a, rt_f4 *b, rt_f4 *c, rt_f4 *d) { _MM_TRANSPOSE4_PS(*a, *b, *c, *d); }
static inline rt_f4 rt_rsqrt_estimate(rt_f4 a) { return _mm_rsqrt_ps(a); }
static inline bool rt_any(rt_f4 m) { return _mm_movemask_ps(m) != 0; }
/* Four bytes as four int32 lanes. */
static inline rt_i4 rt_bytes(const uint8_t *p)
{
	int32_t v;
	__m128i z = _mm_setzero_si128();

	memcpy(&v, p, 4);
	return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(v), z), z);
}
static inline rt_f4 rt_xor(rt_f4 a, rt_f4 b) { return _mm_xor_ps(a, b); }
/* The sign bit of each lane, alone. */
static inline rt_f4 rt_sign_bit(rt_f4 a) { return _mm_and_ps(a, _mm_set1_ps(-0.0f)); }
/* Two floats at each of p0..p3 (8-byte aligned or not): the first of each
 * as one row, the second as another. */
static inline void rt_arcs(const float *p0, const float *p1, const float *p2, const float *p3, rt_f4 *first,
			   rt_f4 *second)
{
	__m128 ab = _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)p0),
							_mm_loadl_epi64((const __m128i *)(const void *)p1)));
	__m128 cd = _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)p2),
							_mm_loadl_epi64((const __m128i *)(const void *)p3)));

	*first = _mm_shuffle_ps(ab, cd, _MM_SHUFFLE(2, 0, 2, 0));
	*second = _mm_shuffle_ps(ab, cd, _MM_SHUFFLE(3, 1, 3, 1));
}
#elif RT_SIMD_NEON
static inline rt_f4 rt_load(const float *p) { return vld1q_f32(p); }
static inline void rt_store(float *p, rt_f4 a) { vst1q_f32(p, a); }
static inline rt_f4 rt_set1(float x) { return vdupq_n_f32(x); }
static inline rt_f4 rt_add(rt_f4 a, rt_f4 b) { return vaddq_f32(a, b); }
static inline rt_f4 rt_sub(rt_f4 a, rt_f4 b) { return vsubq_f32(a, b); }
static inline rt_f4 rt_mul(rt_f4 a, rt_f4 b) { return vmulq_f32(a, b); }
static inline rt_f4 rt_div(rt_f4 a, rt_f4 b) { return vdivq_f32(a, b); }
static inline rt_f4 rt_sqrt(rt_f4 a) { return vsqrtq_f32(a); }
static inline rt_f4 rt_abs(rt_f4 a) { return vabsq_f32(a); }
static inline rt_f4 rt_lt(rt_f4 a, rt_f4 b) { return vreinterpretq_f32_u32(vcltq_f32(a, b)); }
static inline rt_f4 rt_le(rt_f4 a, rt_f4 b) { return vreinterpretq_f32_u32(vcleq_f32(a, b)); }
static inline rt_f4 rt_gt(rt_f4 a, rt_f4 b) { return vreinterpretq_f32_u32(vcgtq_f32(a, b)); }
static inline rt_f4 rt_not(rt_f4 m) { return vreinterpretq_f32_u32(vmvnq_u32(vreinterpretq_u32_f32(m))); }
static inline rt_f4 rt_and(rt_f4 a, rt_f4 b)
{
	return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}
static inline rt_f4 rt_select(rt_f4 m, rt_f4 a, rt_f4 b) { return vbslq_f32(vreinterpretq_u32_f32(m), a, b); }
static inline rt_f4 rt_to_float(rt_i4 a) { return vcvtq_f32_s32(a); }
static inline rt_f4 rt_eq_i(rt_i4 a, int32_t x) { return vreinterpretq_f32_u32(vceqq_s32(a, vdupq_n_s32(x))); }
static inline rt_f4 rt_rsqrt_estimate(rt_f4 a) { return vrsqrteq_f32(a); }
static inline bool rt_any(rt_f4 m) { return vmaxvq_u32(vreinterpretq_u32_f32(m)) != 0; }
static inline rt_i4 rt_bytes(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(vmovl_u8(vcreate_u8(v)))));
}
static inline rt_f4 rt_xor(rt_f4 a, rt_f4 b)
{
	return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}
static inline rt_f4 rt_sign_bit(rt_f4 a)
{
	return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), vdupq_n_u32(0x80000000u)));
}
static inline void rt_arcs(const float *p0, const float *p1, const float *p2, const float *p3, rt_f4 *first,
			   rt_f4 *second)
{
	float32x4_t ab = vcombine_f32(vld1_f32(p0), vld1_f32(p1)), cd = vcombine_f32(vld1_f32(p2), vld1_f32(p3));

	*first = vuzp1q_f32(ab, cd);
	*second = vuzp2q_f32(ab, cd);
}
static inline void rt_transpose(rt_f4 *a, rt_f4 *b, rt_f4 *c, rt_f4 *d)
{
	float32x4x2_t ab = vtrnq_f32(*a, *b), cd = vtrnq_f32(*c, *d);

	*a = vcombine_f32(vget_low_f32(ab.val[0]), vget_low_f32(cd.val[0]));
	*b = vcombine_f32(vget_low_f32(ab.val[1]), vget_low_f32(cd.val[1]));
	*c = vcombine_f32(vget_high_f32(ab.val[0]), vget_high_f32(cd.val[0]));
	*d = vcombine_f32(vget_high_f32(ab.val[1]), vget_high_f32(cd.val[1]));
}
#else
#define RT_LANEWISE(expr)                        \
	rt_f4 r;                                 \
	for (int i = 0; i < 4; i++)              \
		r.v[i] = (expr);                 \
	return r
static inline uint32_t rt_bits_(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float rt_float_(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline rt_f4 rt_load(const float *p) { rt_f4 r; memcpy(r.v, p, sizeof r.v); return r; }
static inline void rt_store(float *p, rt_f4 a) { memcpy(p, a.v, sizeof a.v); }
static inline rt_f4 rt_set1(float x) { RT_LANEWISE(x); }
static inline rt_f4 rt_add(rt_f4 a, rt_f4 b) { RT_LANEWISE(a.v[i] + b.v[i]); }
static inline rt_f4 rt_sub(rt_f4 a, rt_f4 b) { RT_LANEWISE(a.v[i] - b.v[i]); }
static inline rt_f4 rt_mul(rt_f4 a, rt_f4 b) { RT_LANEWISE(a.v[i] * b.v[i]); }
static inline rt_f4 rt_div(rt_f4 a, rt_f4 b) { RT_LANEWISE(a.v[i] / b.v[i]); }
static inline rt_f4 rt_sqrt(rt_f4 a) { RT_LANEWISE(sqrtf(a.v[i])); }
static inline rt_f4 rt_abs(rt_f4 a) { RT_LANEWISE(fabsf(a.v[i])); }
static inline rt_f4 rt_lt(rt_f4 a, rt_f4 b) { RT_LANEWISE(rt_float_(a.v[i] < b.v[i] ? ~0u : 0)); }
static inline rt_f4 rt_le(rt_f4 a, rt_f4 b) { RT_LANEWISE(rt_float_(a.v[i] <= b.v[i] ? ~0u : 0)); }
static inline rt_f4 rt_gt(rt_f4 a, rt_f4 b) { RT_LANEWISE(rt_float_(a.v[i] > b.v[i] ? ~0u : 0)); }
static inline rt_f4 rt_not(rt_f4 m) { RT_LANEWISE(rt_float_(~rt_bits_(m.v[i]))); }
static inline rt_f4 rt_and(rt_f4 a, rt_f4 b) { RT_LANEWISE(rt_float_(rt_bits_(a.v[i]) & rt_bits_(b.v[i]))); }
static inline rt_f4 rt_select(rt_f4 m, rt_f4 a, rt_f4 b) { RT_LANEWISE(rt_bits_(m.v[i]) ? a.v[i] : b.v[i]); }
static inline rt_f4 rt_to_float(rt_i4 a) { RT_LANEWISE((float)a.v[i]); }
static inline rt_f4 rt_eq_i(rt_i4 a, int32_t x) { RT_LANEWISE(rt_float_(a.v[i] == x ? ~0u : 0)); }
static inline rt_f4 rt_rsqrt_estimate(rt_f4 a) { RT_LANEWISE(1.0f / sqrtf(a.v[i])); }
static inline bool rt_any(rt_f4 m)
{
	return rt_bits_(m.v[0]) | rt_bits_(m.v[1]) | rt_bits_(m.v[2]) | rt_bits_(m.v[3]);
}
static inline rt_i4 rt_bytes(const uint8_t *p)
{
	rt_i4 r;

	for (int i = 0; i < 4; i++)
		r.v[i] = p[i];
	return r;
}
static inline rt_f4 rt_xor(rt_f4 a, rt_f4 b) { RT_LANEWISE(rt_float_(rt_bits_(a.v[i]) ^ rt_bits_(b.v[i]))); }
static inline rt_f4 rt_sign_bit(rt_f4 a) { RT_LANEWISE(rt_float_(rt_bits_(a.v[i]) & 0x80000000u)); }
static inline void rt_arcs(const float *p0, const float *p1, const float *p2, const float *p3, rt_f4 *first,
			   rt_f4 *second)
{
	const float *p[4] = { p0, p1, p2, p3 };

	for (int i = 0; i < 4; i++) {
		first->v[i] = p[i][0];
		second->v[i] = p[i][1];
	}
}
static inline void rt_transpose(rt_f4 *a, rt_f4 *b, rt_f4 *c, rt_f4 *d)
{
	rt_f4 m[4] = { *a, *b, *c, *d };

	for (int i = 0; i < 4; i++) {
		a->v[i] = m[i].v[0];
		b->v[i] = m[i].v[1];
		c->v[i] = m[i].v[2];
		d->v[i] = m[i].v[3];
	}
}
#undef RT_LANEWISE
#endif

/* 1 / sqrt(a) for a in [2e-6, 1]: the estimate refined by two Newton steps,
 * within 2 ulp of the division the scalar rule performs. */
static inline rt_f4 rt_rsqrt(rt_f4 a)
{
	rt_f4 y = rt_rsqrt_estimate(a), half = rt_set1(0.5f), three = rt_set1(3.0f);

	y = rt_mul(rt_mul(half, y), rt_sub(three, rt_mul(rt_mul(a, y), y)));
	return rt_mul(rt_mul(half, y), rt_sub(three, rt_mul(rt_mul(a, y), y)));
}

/* ------------------------------------------- the interpolation rule, 4 wide */

/* interp_acos_unit, lane by lane. */
static inline rt_f4 rt_acos_unit(rt_f4 x)
{
	rt_f4 x2 = rt_mul(x, x), x4 = rt_mul(x2, x2);
	rt_f4 p01 = rt_sub(rt_set1(1.5707963050f), rt_mul(rt_set1(0.2145988016f), x));
	rt_f4 p23 = rt_sub(rt_set1(0.0889789874f), rt_mul(rt_set1(0.0501743046f), x));
	rt_f4 p45 = rt_sub(rt_set1(0.0308918810f), rt_mul(rt_set1(0.0170881256f), x));
	rt_f4 p67 = rt_sub(rt_set1(0.0066700901f), rt_mul(rt_set1(0.0012624911f), x));
	rt_f4 p = rt_add(rt_add(p01, rt_mul(p23, x2)), rt_mul(rt_add(p45, rt_mul(p67, x2)), x4));

	return rt_mul(rt_sqrt(rt_sub(rt_set1(1.0f), x)), p);
}

/* interp_sin_quadrant, lane by lane. */
static inline rt_f4 rt_sin_quadrant(rt_f4 x)
{
	rt_f4 y = rt_mul(x, x), y2 = rt_mul(y, y);
	rt_f4 q01 = rt_sub(rt_set1(1.0f / 6.0f), rt_mul(y, rt_set1(1.0f / 120.0f)));
	rt_f4 q23 = rt_sub(rt_set1(1.0f / 5040.0f), rt_mul(y, rt_set1(1.0f / 362880.0f)));
	rt_f4 q = rt_add(rt_add(q01, rt_mul(q23, y2)), rt_mul(rt_set1(1.0f / 39916800.0f), rt_mul(y2, y2)));

	return rt_sub(x, rt_mul(rt_mul(x, y), q));
}

/*
 * sin(x) for 0 <= x <= RT_SHORT_SINE: rt_sin_quadrant without its x^11
 * term, bit for bit.  That term, 1/39916800 y^2 y^2, is under 1e-10 there,
 * and the sum it joins last (q01 + q23 y^2, about 1/6) is above 0.16, whose
 * half ulp is 2^-27 (7.5e-9): adding it never changes the sum, so the rest
 * of the series, each operation the same, gives the same bits (checked on
 * every float of the range; a test checks every 257th).  A series to x^7,
 * a rounding off at most, made a compact clip sampled in place differ
 * from the same clip decoded at load, which takes the full series.
 */
#define RT_SHORT_SINE 0.5f
static inline rt_f4 rt_sin_short(rt_f4 x)
{
	rt_f4 y = rt_mul(x, x), y2 = rt_mul(y, y);
	rt_f4 q01 = rt_sub(rt_set1(1.0f / 6.0f), rt_mul(y, rt_set1(1.0f / 120.0f)));
	rt_f4 q23 = rt_sub(rt_set1(1.0f / 5040.0f), rt_mul(y, rt_set1(1.0f / 362880.0f)));

	return rt_sub(x, rt_mul(rt_mul(x, y), rt_add(q01, rt_mul(q23, y2))));
}

/* The end of interp_slerp for four quaternions in SoA form (a and b: x y z
 * w rows) with weights w0 and w1: their sum, normalised in the lanes that
 * took the normalised lerp (is_near), only when one did. */
static inline void rt_slerp_finish(const rt_f4 a[4], const rt_f4 b[4], rt_f4 w0, rt_f4 w1, rt_f4 is_near,
				   rt_f4 out[4])
{
	rt_f4 one = rt_set1(1.0f);

	for (int k = 0; k < 4; k++)
		out[k] = rt_add(rt_mul(w0, a[k]), rt_mul(w1, b[k]));
	if (!rt_any(is_near))
		return;
	rt_f4 len2 = rt_add(rt_add(rt_add(rt_mul(out[0], out[0]), rt_mul(out[1], out[1])), rt_mul(out[2], out[2])),
			    rt_mul(out[3], out[3]));
	rt_f4 scale = rt_select(rt_and(is_near, rt_gt(len2, rt_set1(0.0f))), rt_div(one, rt_sqrt(len2)), one);

	for (int k = 0; k < 4; k++)
		out[k] = rt_mul(out[k], scale);
}

/*
 * interp_slerp on four quaternions in SoA form (a and b: x y z w rows),
 * weights u: the result into out[4] rows.  The same operations in the same
 * order, but for 1 / sin(angle), which is refined from the reciprocal
 * square root estimate (within 1e-6 of the division), and the normalising
 * of near keys, done only when a lane needs it.
 */
static inline void rt_slerp4(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 dot = rt_add(rt_add(rt_add(rt_mul(a[0], b[0]), rt_mul(a[1], b[1])), rt_mul(a[2], b[2])),
			   rt_mul(a[3], b[3]));
	rt_f4 one = rt_set1(1.0f), near_dot = rt_set1(0.999999f);
	rt_f4 sign = rt_select(rt_lt(dot, rt_set1(0.0f)), rt_set1(-1.0f), one);
	rt_f4 d = rt_abs(dot);
	rt_f4 c = rt_select(rt_lt(d, near_dot), d, near_dot);
	rt_f4 angle = rt_acos_unit(c);
	rt_f4 inv_sin = rt_rsqrt(rt_mul(rt_sub(one, c), rt_add(one, c)));
	rt_f4 s0 = rt_mul(rt_sin_quadrant(rt_mul(rt_sub(one, u), angle)), inv_sin);
	rt_f4 s1 = rt_mul(rt_sin_quadrant(rt_mul(u, angle)), inv_sin);
	rt_f4 is_near = rt_not(rt_le(d, near_dot));
	rt_f4 w0 = rt_select(is_near, rt_sub(one, u), s0);
	rt_f4 w1 = rt_mul(sign, rt_select(is_near, u, s1));

	rt_slerp_finish(a, b, w0, w1, is_near, out);
}

#endif
