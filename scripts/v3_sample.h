/*
 * v3_sample.h - the sampler of the prototype layout (v3_layout.h): every
 * group of four tracks at once, the keys around the time unpacked four
 * lanes wide, without a context.  Built for x86-64 with SSE4.1, POPCNT,
 * LZCNT, BMI1/2 and F16C (the target of today's "newer" samplers).
 */
#ifndef ANIMC_V3_SAMPLE_H
#define ANIMC_V3_SAMPLE_H

#include <immintrin.h>
#include <string.h>

#include <animc/animrt.h>
#include "simd.h"
#include "v3_layout.h"

#define V3_TARGET __attribute__((target("popcnt,sse4.1,avx,avx2,bmi,bmi2,lzcnt,f16c"), always_inline)) static inline

static const float v3_inv_levels[20] = {
	0, 1.0f / 1, 1.0f / 3, 1.0f / 7, 1.0f / 15, 1.0f / 31, 1.0f / 63, 1.0f / 127, 1.0f / 255, 1.0f / 511,
	1.0f / 1023, 1.0f / 2047, 1.0f / 4095, 1.0f / 8191, 1.0f / 16383, 1.0f / 32767, 1.0f / 65535,
	1.0f / 131071, 1.0f / 262143, 1.0f / 524287,
};

static inline uint64_t v3_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Where one key row of a record lies, and how its codes decode. */
typedef struct v3_rowdec {
	rt_f4 min[3], step[3];
	unsigned bits[3];
	const uint8_t *keys;
	unsigned row_bits;
	uint32_t dropped;
} v3_rowdec;

V3_TARGET void v3_record_dec(const v3_clip *v, const v3_group *g, const uint8_t *rec, v3_rowdec *d)
{
	const uint8_t *p = rec + V3_HEAD;

	d->dropped = rec[4];
	d->row_bits = 0;
	for (int c = 0; c < 3; c++) {
		__m128 tmin = _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)g->range[0][c]));
		__m128 text = _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)g->range[1][c]));

		d->bits[c] = rec[1 + c];
		d->row_bits += 4 * d->bits[c];
		if (v->has_codes) {
			__m128 m = rt_to_float(rt_bytes(p + 4 * c)), x = rt_to_float(rt_bytes(p + 12 + 4 * c));
			__m128 k = _mm_set1_ps(1.0f / 256);

			tmin = _mm_add_ps(tmin, _mm_mul_ps(text, _mm_mul_ps(m, k)));
			text = _mm_mul_ps(text, _mm_mul_ps(_mm_add_ps(x, _mm_set1_ps(1.0f)), k));
		}
		d->min[c] = tmin;
		d->step[c] = _mm_mul_ps(text, _mm_set1_ps(v3_inv_levels[d->bits[c]]));
	}
	if (v->has_codes)
		p += V3_CODES;
	if (!(rec[0] & V3_DENSE))
		p += 8;
	d->keys = p;
}

/* Four b-bit fields packed LSB first, each deposited into a 16-bit lane. */
static const uint64_t v3_spread[17] = {
#define V3_SPREAD(b) ((((uint64_t)1 << (b)) - 1) * 0x0001000100010001ull)
	0, V3_SPREAD(1), V3_SPREAD(2), V3_SPREAD(3), V3_SPREAD(4), V3_SPREAD(5), V3_SPREAD(6), V3_SPREAD(7),
	V3_SPREAD(8), V3_SPREAD(9), V3_SPREAD(10), V3_SPREAD(11), V3_SPREAD(12), V3_SPREAD(13), V3_SPREAD(14),
	V3_SPREAD(15), V3_SPREAD(16),
#undef V3_SPREAD
};

/* Row j of a record: components 0-2 as rows of four lanes. */
V3_TARGET void v3_row(const v3_rowdec *d, uint32_t j, rt_f4 out[3])
{
	size_t bit = (size_t)j * d->row_bits;

	for (int c = 0; c < 3; c++) {
		unsigned b = d->bits[c];
		__m128i qi;

		if (b <= 16) {
			const uint8_t *p = d->keys + (bit >> 3);
			unsigned sh = (unsigned)(bit & 7);
			uint64_t v = v3_load64(p) >> sh;

			v |= sh ? (uint64_t)p[8] << (64 - sh) : 0;
			qi = _mm_cvtepu16_epi32(_mm_cvtsi64_si128((long long)_pdep_u64(v, v3_spread[b])));
		} else {
			uint32_t q[4], mask = (uint32_t)((1u << b) - 1u);

			for (int lane = 0; lane < 4; lane++) {
				size_t at = bit + (size_t)lane * b;

				q[lane] = (uint32_t)_bextr_u64(v3_load64(d->keys + (at >> 3)), (unsigned)(at & 7), 32) & mask;
			}
			qi = _mm_loadu_si128((const __m128i *)(const void *)q);
		}
		bit += 4 * (size_t)b;
		out[c] = _mm_add_ps(d->min[c], _mm_mul_ps(_mm_cvtepi32_ps(qi), d->step[c]));
	}
}

/* W rebuilt four wide, the left-out component of each lane placed back. */
V3_TARGET void v3_rebuild(const rt_f4 k[3], uint32_t dropped, rt_f4 q[4])
{
	rt_f4 one = rt_set1(1.0f);
	rt_f4 n = rt_add(rt_add(rt_mul(k[0], k[0]), rt_mul(k[1], k[1])), rt_mul(k[2], k[2]));
	rt_f4 r = rt_select(rt_lt(n, one), rt_sqrt(rt_sub(one, n)), rt_set1(0.0f));
	__m128i dv = _mm_set_epi32((int)(dropped >> 6 & 3), (int)(dropped >> 4 & 3), (int)(dropped >> 2 & 3),
				   (int)(dropped & 3));
	rt_f4 is0 = _mm_castsi128_ps(_mm_cmpeq_epi32(dv, _mm_set1_epi32(0)));
	rt_f4 upto1 = _mm_castsi128_ps(_mm_cmplt_epi32(dv, _mm_set1_epi32(2)));
	rt_f4 upto2 = _mm_castsi128_ps(_mm_cmplt_epi32(dv, _mm_set1_epi32(3)));

	q[0] = rt_select(is0, r, k[0]);
	q[1] = rt_select(is0, k[0], rt_select(upto1, r, k[1]));
	q[2] = rt_select(upto1, k[1], rt_select(upto2, r, k[2]));
	q[3] = rt_select(upto2, k[2], r);
}

/* Keys a (row j of `rec`) and b (row j + 1, or the next record's first). */
typedef struct v3_pair {
	float u;
	rt_f4 a[4], b[4];
} v3_pair;

V3_TARGET void v3_keys(const v3_clip *v, const v3_group *g, uint32_t gi, uint32_t s, float local, v3_pair *pr)
{
	const uint8_t *rec = v->data + v->record_at[(size_t)gi * v->segment_count + s];
	uint32_t i = (uint32_t)local, rows = v->sample_count - (s << 6), j, k0, k1;
	v3_rowdec d, dn;
	const v3_rowdec *db = &d;

	i = i < 63 ? i : 63;
	rows = rows < 64 ? rows : 64;
	v3_record_dec(v, g, rec, &d);
	if (rec[0] & V3_DENSE) {
		j = k0 = i;
		k1 = i + 1 < rows ? i + 1 : 64;
	} else {
		uint64_t m = v3_load64(rec + V3_HEAD + (v->has_codes ? V3_CODES : 0));
		uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1, below = m & upto, above = m & ~upto;

		j = (uint32_t)_mm_popcnt_u64(below) - 1;
		k0 = 63 - (uint32_t)_lzcnt_u64(below);
		k1 = above ? (uint32_t)_tzcnt_u64(above) : 64;
	}
	rt_f4 ka[3], kb[3];
	v3_row(&d, j, ka);
	uint32_t jb = j + 1;
	if (k1 == 64 && s + 1 < v->segment_count) {
		v3_record_dec(v, g, v->data + v->record_at[(size_t)gi * v->segment_count + s + 1], &dn);
		db = &dn;
		jb = 0;
	} else if (k1 == 64) {
		jb = j;   /* the last key holds */
		k1 = k0;
	}
	v3_row(db, jb, kb);
	pr->u = k1 == k0 ? 0.0f : (local - (float)k0) / (float)(k1 - k0);
	if (g->kind == ANIMRT_ROTATION) {
		v3_rebuild(ka, d.dropped, pr->a);
		v3_rebuild(kb, db->dropped, pr->b);
	} else {
		memcpy(pr->a, ka, sizeof ka);
		memcpy(pr->b, kb, sizeof kb);
		pr->a[3] = pr->b[3] = rt_set1(0.0f);
	}
}

/* Normalised lerp, four wide (shorter arc). */
V3_TARGET void v3_nlerp4(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 dot = rt_add(rt_add(rt_add(rt_mul(a[0], b[0]), rt_mul(a[1], b[1])), rt_mul(a[2], b[2])),
			   rt_mul(a[3], b[3]));
	rt_f4 w1 = rt_xor(rt_sign_bit(dot), u), w0 = rt_sub(rt_set1(1.0f), u);

	for (int k = 0; k < 4; k++)
		out[k] = rt_add(rt_mul(w0, a[k]), rt_mul(w1, b[k]));
	rt_f4 len2 = rt_add(rt_add(rt_add(rt_mul(out[0], out[0]), rt_mul(out[1], out[1])), rt_mul(out[2], out[2])),
			    rt_mul(out[3], out[3]));
	rt_f4 sc = rt_div(rt_set1(1.0f), rt_sqrt(len2));
	for (int k = 0; k < 4; k++)
		out[k] = rt_mul(out[k], sc);
}

/* rt_slerp4 with the short sine series when every arc is short (as
 * today's sampler in place does: the same bits on short arcs). */
V3_TARGET void v3_slerp4(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 dot = rt_add(rt_add(rt_add(rt_mul(a[0], b[0]), rt_mul(a[1], b[1])), rt_mul(a[2], b[2])),
			   rt_mul(a[3], b[3]));
	rt_f4 one = rt_set1(1.0f), near_dot = rt_set1(0.999999f), d = rt_abs(dot);
	rt_f4 c = rt_select(rt_lt(d, near_dot), d, near_dot);
	rt_f4 angle = rt_acos_unit(c);
	rt_f4 inv_sin = rt_div(one, rt_sqrt(rt_mul(rt_sub(one, c), rt_add(one, c))));
	rt_f4 x0 = rt_mul(rt_sub(one, u), angle), x1 = rt_mul(u, angle), s0, s1;

	if (!rt_any(rt_gt(angle, rt_set1(RT_SHORT_SINE)))) {
		s0 = rt_sin_short(x0);
		s1 = rt_sin_short(x1);
	} else {
		s0 = rt_sin_quadrant(x0);
		s1 = rt_sin_quadrant(x1);
	}
	rt_f4 is_near = rt_not(rt_le(d, near_dot));
	rt_f4 w0 = rt_select(is_near, rt_sub(one, u), rt_mul(s0, inv_sin));
	rt_f4 w1 = rt_xor(rt_sign_bit(dot), rt_select(is_near, u, rt_mul(s1, inv_sin)));

	rt_slerp_finish(a, b, w0, w1, is_near, out);
}

V3_TARGET void v3_group_sample(const v3_clip *v, uint32_t gi, uint32_t s, float local, animrt_pose *pose)
{
	const v3_group *g = &v->groups[gi];
	v3_pair pr;
	rt_f4 out[4];

	v3_keys(v, g, gi, s, local, &pr);
	if (!(pr.u > 0)) {
		memcpy(out, pr.a, sizeof out);
	} else if (g->kind == ANIMRT_ROTATION) {
		if (v->use_nlerp)
			v3_nlerp4(pr.a, pr.b, rt_set1(pr.u), out);
		else
			v3_slerp4(pr.a, pr.b, rt_set1(pr.u), out);
	} else {
		rt_f4 w = rt_set1(pr.u);

		for (int k = 0; k < 3; k++)
			out[k] = rt_add(pr.a[k], rt_mul(rt_sub(pr.b[k], pr.a[k]), w));
		out[3] = pr.a[3];
	}
	rt_transpose(&out[0], &out[1], &out[2], &out[3]);
	for (int lane = 0; lane < 4; lane++) {
		uint32_t slot = g->slot[lane];
		float lanev[4];

		if (slot == V3_NO_SLOT)
			continue;
		if (g->kind == ANIMRT_ROTATION) {
			rt_store(pose->rotation + 4 * (size_t)slot, out[lane]);
		} else {
			rt_store(lanev, out[lane]);
			memcpy((g->kind == ANIMRT_TRANSLATION ? pose->translation : pose->scale) + 3 * (size_t)slot, lanev,
			       3 * sizeof(float));
		}
	}
}

/* The whole clip at local time t (seconds, within the clip) into a pose
 * laid out as animrt_pose_init lays it out. */
__attribute__((target("popcnt,sse4.1,avx,avx2,bmi,bmi2,lzcnt,f16c"), noinline)) static void v3_sample(const v3_clip *v,
											      float local_s,
											      animrt_pose *pose)
{
	double p = (double)local_s * v->rate_hz, last = (double)(v->sample_count - 1);
	uint32_t s;

	memcpy(pose->rotation, v->image, v->image_bytes);
	p = p > 0 ? (p < last ? p : last) : 0;
	s = (uint32_t)(p / 64);
	s = s < v->segment_count ? s : v->segment_count - 1;
	float local = (float)(p - (double)s * 64);
	for (uint32_t gi = 0; gi < v->group_count; gi++)
		v3_group_sample(v, gi, s, local, pose);
}

#endif
