/*
 * sample_v3_simd.c - clips of reader version 3 sampled in place on x86-64
 * processors with AVX2, BMI1/2, LZCNT, POPCNT and F16C (chosen at run time,
 * as sample_packed.c chooses its build for them): per group of four tracks
 * one record, its lanes' bits, ranges and key offsets worked out four wide,
 * the keys around the time unpacked with one 8-byte load each, two rotation
 * groups slerped eight wide.  Every operation is the one the plain C
 * sampler (sample_v3.c) performs lane by lane, in the same order, so both
 * give the same bits.  Groups with float32 keys go to the plain C lanes.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"
#include "lane_v3.h"
#include "simd.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && RT_SIMD_SSE2
#include <immintrin.h>

#define V3_TARGET __attribute__((target("popcnt,sse4.1,avx,avx2,bmi,bmi2,lzcnt,f16c"), always_inline)) static inline

static inline uint64_t v3_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline int32_t v3_load32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* compact_step's table: 1 / (2^bits - 1) rounded to float, bits 0 to 19
 * (0 for the unused lanes' bits 0). */
static const float v3_inv_levels[COMPACT_MAX_BITS + 1] = {
	0, COMPACT_INV_LEVELS(1), COMPACT_INV_LEVELS(2), COMPACT_INV_LEVELS(3), COMPACT_INV_LEVELS(4),
	COMPACT_INV_LEVELS(5), COMPACT_INV_LEVELS(6), COMPACT_INV_LEVELS(7), COMPACT_INV_LEVELS(8),
	COMPACT_INV_LEVELS(9), COMPACT_INV_LEVELS(10), COMPACT_INV_LEVELS(11), COMPACT_INV_LEVELS(12),
	COMPACT_INV_LEVELS(13), COMPACT_INV_LEVELS(14), COMPACT_INV_LEVELS(15), COMPACT_INV_LEVELS(16),
	COMPACT_INV_LEVELS(17), COMPACT_INV_LEVELS(18), COMPACT_INV_LEVELS(19),
};

/* How a record's keys decode: per component, the lanes' min, step, bits. */
typedef struct v3_dec {
	rt_f4 min[3], step[3];
	__m256i cb[3];                /* bits per component, 64-bit lanes */
	const uint8_t *keys;
	uint32_t dropped;             /* 2 bits a lane */
	uint32_t kb[4];               /* each lane's key bits */
} v3_dec;

/* u8 codes of four lanes at p as floats. */
V3_TARGET rt_f4 v3_bytes(const uint8_t *p)
{
	return _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(v3_load32(p))));
}

/* The group ranges of the three components, four lanes each (lanes past
 * `used` hold what follows, never used): compact3_lane_range's operations,
 * one branch on the range's kind. */
V3_TARGET void v3_ranges(const uint8_t *r, unsigned f, uint32_t used, rt_f4 min[3], rt_f4 ext[3])
{
	size_t n = (size_t)3 * used;

	switch (COMPACT3_FORMAT_RANGE(f)) {
	case COMPACT3_RANGE_NONE:
		for (int c = 0; c < 3; c++) {
			min[c] = rt_set1(-1.0f);
			ext[c] = rt_set1(2.0f);
		}
		break;
	case COMPACT3_RANGE_U8:
		for (size_t c = 0, i = 0; c < 3; c++, i += used) {
			min[c] = rt_add(rt_set1(-1.0f), rt_mul(v3_bytes(r + i), rt_set1(1.0f / 128.0f)));
			ext[c] = rt_mul(rt_add(v3_bytes(r + n + i), rt_set1(1.0f)), rt_set1(1.0f / 128.0f));
		}
		break;
	case COMPACT3_RANGE_F16:
		for (size_t c = 0, i = 0; c < 3; c++, i += used) {
			min[c] = _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)(r + 2 * i)));
			ext[c] = _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)(r + 2 * (n + i))));
		}
		break;
	default:
		for (size_t c = 0, i = 0; c < 3; c++, i += used) {
			min[c] = _mm_loadu_ps((const float *)(const void *)(r + 4 * i));
			ext[c] = _mm_loadu_ps((const float *)(const void *)(r + 4 * (n + i)));
		}
		break;
	}
}

/* compact_component_bits four lanes wide: bits b, the extents' float bits u[3]. */
V3_TARGET void v3_cbits(__m128i b, const __m128i u[3], __m128i out[3])
{
	__m128i top = _mm_max_epu32(_mm_max_epu32(u[0], u[1]), u[2]), man = _mm_set1_epi32(0x7FFFFF);
	__m128i cap = _mm_sub_epi32(b, _mm_set1_epi32(1)), zero = _mm_setzero_si128();

	for (int c = 0; c < 3; c++) {
		__m128i d = _mm_sub_epi32(_mm_srli_epi32(top, 23), _mm_srli_epi32(u[c], 23));

		d = _mm_add_epi32(d, _mm_cmpgt_epi32(_mm_and_si128(u[c], man), _mm_and_si128(top, man)));
		d = _mm_min_epi32(_mm_max_epi32(d, zero), cap);
		out[c] = _mm_sub_epi32(b, d);
	}
}

/* How the record `rec` of group g decodes (compact3_lane_decode, four lanes). */
V3_TARGET void v3_dec_of(const struct animrt_compact *c, uint32_t g, const uint8_t *rec, const compact3_shape *sh,
			 v3_dec *d)
{
	unsigned f = c->v3.format[g];
	const uint8_t *range = c->packed.p + c->v3.range_at[g];
	int32_t code4 = v3_load32(rec);
	__m128i ok = _mm_cmplt_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32((int)sh->used));
	__m128i b = _mm_and_si128(_mm_and_si128(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(code4)), _mm_set1_epi32(31)), ok);
	__m128i u[3], cb[3];
	rt_f4 ext[3];

	v3_ranges(range, f, sh->used, d->min, ext);
	for (uint32_t k = 0; k < 3; k++) {
		if (f & COMPACT3_FORMAT_SUB) {
			rt_f4 q = rt_set1(1.0f / 256.0f), m = v3_bytes(rec + sh->sub_at + k * sh->used);
			rt_f4 x = v3_bytes(rec + sh->sub_at + (3 + k) * sh->used);

			d->min[k] = rt_add(d->min[k], rt_mul(ext[k], rt_mul(m, q)));
			ext[k] = rt_mul(ext[k], rt_mul(rt_add(x, rt_set1(1.0f)), q));
		}
		u[k] = _mm_castps_si128(ext[k]);
	}
	v3_cbits(b, u, cb);
	for (int k = 0; k < 3; k++) {
		/* 1 / (2^bits - 1) from 2^bits' exponent field (exact), less 1,
		 * divided: the floats of compact_step's table for bits 1 to 19.
		 * Unused lanes (bits 0) are never read. */
		cb[k] = _mm_and_si128(cb[k], ok);
		d->step[k] = rt_mul(ext[k], _mm_i32gather_ps(v3_inv_levels, cb[k], 4));
		d->cb[k] = _mm256_cvtepu32_epi64(cb[k]);
	}
	__m128i kb = _mm_add_epi32(_mm_add_epi32(cb[0], cb[1]), cb[2]);
	_mm_storeu_si128((__m128i *)(void *)d->kb, kb);
	d->dropped = (uint32_t)_pext_u32((uint32_t)code4, 0x60606060u);
	d->keys = rec + sh->keys_at;
}

/* The keys at bit offsets off[4] (from d->keys), dequantised: x y z rows. */
V3_TARGET void v3_keys4(const v3_dec *d, const uint32_t off[4], rt_f4 out[3])
{
	__m256i v = _mm256_set_epi64x((long long)(v3_load64(d->keys + (off[3] >> 3)) >> (off[3] & 7)),
				      (long long)(v3_load64(d->keys + (off[2] >> 3)) >> (off[2] & 7)),
				      (long long)(v3_load64(d->keys + (off[1] >> 3)) >> (off[1] & 7)),
				      (long long)(v3_load64(d->keys + (off[0] >> 3)) >> (off[0] & 7)));
	__m256i one = _mm256_set1_epi64x(1), at = _mm256_setzero_si256(), pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);

	for (int c = 0; c < 3; c++) {
		__m256i q = _mm256_and_si256(_mm256_srlv_epi64(v, at), _mm256_sub_epi64(_mm256_sllv_epi64(one, d->cb[c]), one));
		__m128i q32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(q, pick));

		out[c] = rt_add(d->min[c], rt_mul(_mm_cvtepi32_ps(q32), d->step[c]));
		at = _mm256_add_epi64(at, d->cb[c]);
	}
}

/* W rebuilt four wide (compact_rotation_rebuild), the left-out component
 * of each lane (2 bits a lane in `dropped`, lane 0 lowest) placed back. */
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

/* One group's sampling in steps, so that two groups' steps interleave. */
typedef struct v3_work {
	const uint8_t *rec;
	compact3_shape sh;
	uint32_t g, offa[4], offb[4], k0[4], k1[4], next;
	v3_dec d;
} v3_work;

V3_TARGET const uint8_t *v3_record(const struct animrt_compact *c, uint32_t g, uint32_t s, compact3_shape *sh)
{
	*sh = compact3_shape_of(compact3_rows(c->sample_count, s), c->groups[g].used, c->v3.format[g]);
	return c->packed.p + c->v3.records_at + c->v3.record_at[(size_t)s * c->group_count + g];
}

/* Lane l's key mask in a record (1 for an unused lane). */
V3_TARGET uint64_t v3_mask(const uint8_t *rec, const compact3_shape *sh, uint32_t l)
{
	uint64_t rows = sh->rows == 64 ? ~(uint64_t)0 : ((uint64_t)1 << sh->rows) - 1;

	return l < sh->used ? v3_load64(rec + sh->masks_at + sh->mask_bytes * l) & rows : 1;
}

V3_TARGET void v3_step1(const struct animrt_compact *c, uint32_t g, uint32_t s, v3_work *w)
{
	w->g = g;
	w->rec = v3_record(c, g, s, &w->sh);
	v3_dec_of(c, g, w->rec, &w->sh, &w->d);
}

/* The keys around the time in each lane's mask: where they are, their rows. */
V3_TARGET void v3_step2(float local, v3_work *w)
{
	uint32_t i = (uint32_t)local, base = 0;

	i = i < 63 ? i : 63;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
	w->next = 0;
	for (uint32_t l = 0; l < 4; l++) {
		uint64_t m = v3_mask(w->rec, &w->sh, l), below = m & upto, above = m & ~upto;
		uint32_t kb = l < w->sh.used ? w->d.kb[l] : 0;

		w->offa[l] = base + ((uint32_t)_mm_popcnt_u64(below) - 1) * kb;
		base += (uint32_t)_mm_popcnt_u64(m) * kb;
		w->k0[l] = 63 - (uint32_t)_lzcnt_u64(below);
		w->k1[l] = above ? (uint32_t)_tzcnt_u64(above) : 64;
		w->offb[l] = above ? w->offa[l] + kb : w->offa[l];
		w->next |= (uint32_t)(!above) << l;
	}
}

/* Key b of the lanes whose next key is the next segment's first. */
V3_TARGET void v3_next_keys(const struct animrt_compact *c, uint32_t s, v3_work *w, rt_f4 kb3[3], uint32_t *dropped_b)
{
	compact3_shape sh;
	const uint8_t *rn = v3_record(c, w->g, s + 1, &sh);
	uint32_t offn[4], nb = 0, next = w->next, lanes2 = 0;
	v3_dec dn;
	rt_f4 kn[3];

	v3_dec_of(c, w->g, rn, &sh, &dn);
	for (uint32_t l = 0; l < 4; l++) {
		offn[l] = nb;
		nb += l < sh.used ? (uint32_t)_mm_popcnt_u64(v3_mask(rn, &sh, l)) * dn.kb[l] : 0;
	}
	v3_keys4(&dn, offn, kn);
	__m128i nm = _mm_set_epi32(-(int)(next >> 3 & 1), -(int)(next >> 2 & 1), -(int)(next >> 1 & 1), -(int)(next & 1));
	for (int k = 0; k < 3; k++)
		kb3[k] = rt_select(_mm_castsi128_ps(nm), kn[k], kb3[k]);
	for (int l = 0; l < 4; l++)
		lanes2 |= ((next >> l & 1) ? 3u : 0u) << (2 * l);
	*dropped_b = (w->d.dropped & ~lanes2) | (dn.dropped & lanes2);
}

/* The keys unpacked (the next segment's first where a lane needs it), the
 * weights, W rebuilt. */
V3_TARGET void v3_step3(const struct animrt_compact *c, uint32_t s, float local, v3_work *w, rt_f4 a[4], rt_f4 b[4],
			rt_f4 *pu)
{
	rt_f4 ka[3], kb3[3];
	uint32_t dropped_b = w->d.dropped;

	v3_keys4(&w->d, w->offa, ka);
	v3_keys4(&w->d, w->offb, kb3);
	if (w->next && s + 1 < c->segment_count) {
		v3_next_keys(c, s, w, kb3, &dropped_b);
	} else {
		for (int l = 0; l < 4; l++)
			if (w->next >> l & 1)
				w->k1[l] = w->k0[l];   /* the last key holds */
	}
	/* Built in registers: a wide load of four fresh scalar stores would
	 * wait for them (no store forwarding). */
	__m128i k0i = _mm_set_epi32((int)w->k0[3], (int)w->k0[2], (int)w->k0[1], (int)w->k0[0]);
	__m128i k1i = _mm_set_epi32((int)w->k1[3], (int)w->k1[2], (int)w->k1[1], (int)w->k1[0]);
	rt_f4 fk0 = _mm_cvtepi32_ps(k0i), fk1 = _mm_cvtepi32_ps(k1i);
	*pu = rt_select(_mm_castsi128_ps(_mm_cmpeq_epi32(k0i, k1i)), rt_set1(0.0f),
			rt_div(rt_sub(rt_set1(local), fk0), rt_sub(fk1, fk0)));
	if (c->groups[w->g].kind == ANIMRT_ROTATION) {
		v3_rebuild(ka, w->d.dropped, a);
		v3_rebuild(kb3, dropped_b, b);
		return;
	}
	for (int k = 0; k < 3; k++) {
		a[k] = ka[k];
		b[k] = kb3[k];
	}
	a[3] = b[3] = rt_set1(0.0f);
}

/* Four lanes' lerp (interp_lerp3), key a where u is not above 0. */
V3_TARGET void v3_lerp(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 keep = rt_not(rt_gt(u, rt_set1(0.0f)));

	for (int k = 0; k < 3; k++)
		out[k] = rt_select(keep, a[k], rt_add(a[k], rt_mul(rt_sub(b[k], a[k]), u)));
	out[3] = a[3];
}

/* The lanes' results into the pose through `map`. */
V3_TARGET void v3_out(const struct animrt_compact *c, uint32_t g, rt_f4 out[4], const uint32_t *map, animrt_pose *pose)
{
	const rt_group *gr = &c->groups[g];

	rt_transpose(&out[0], &out[1], &out[2], &out[3]);
	for (uint32_t l = 0; l < gr->used; l++) {
		uint32_t slot = map ? map[gr->bone[l]] : gr->bone[l];
		float v[4];

		if (slot == RT_NO_BONE)
			continue;
		if (gr->kind == ANIMRT_ROTATION) {
			rt_store(pose->rotation + 4 * (size_t)slot, out[l]);
			continue;
		}
		rt_store(v, out[l]);
		memcpy((gr->kind == ANIMRT_TRANSLATION ? pose->translation : pose->scale) + 3 * (size_t)slot, v,
		       3 * sizeof(float));
	}
}

/* ------------------------------------------------------ the slerps */

typedef __m256 v3_f8;
#define V8(x) _mm256_set1_ps(x)

V3_TARGET v3_f8 v8_sel(v3_f8 m, v3_f8 a, v3_f8 b)
{
	return _mm256_blendv_ps(b, a, m);
}

/* rt_acos_unit's operations on eight lanes. */
V3_TARGET v3_f8 v8_acos_unit(v3_f8 x)
{
	v3_f8 x2 = _mm256_mul_ps(x, x), x4 = _mm256_mul_ps(x2, x2);
	v3_f8 p01 = _mm256_sub_ps(V8(1.5707963050f), _mm256_mul_ps(V8(0.2145988016f), x));
	v3_f8 p23 = _mm256_sub_ps(V8(0.0889789874f), _mm256_mul_ps(V8(0.0501743046f), x));
	v3_f8 p45 = _mm256_sub_ps(V8(0.0308918810f), _mm256_mul_ps(V8(0.0170881256f), x));
	v3_f8 p67 = _mm256_sub_ps(V8(0.0066700901f), _mm256_mul_ps(V8(0.0012624911f), x));
	v3_f8 p = _mm256_add_ps(_mm256_add_ps(p01, _mm256_mul_ps(p23, x2)),
				_mm256_mul_ps(_mm256_add_ps(p45, _mm256_mul_ps(p67, x2)), x4));

	return _mm256_mul_ps(_mm256_sqrt_ps(_mm256_sub_ps(V8(1.0f), x)), p);
}

/* rt_sin_short (full: rt_sin_quadrant, whose reduction is the identity
 * on [0, pi / 2], where every weight's angle lies) on eight lanes. */
V3_TARGET v3_f8 v8_sin(v3_f8 x, int full)
{
	v3_f8 y = _mm256_mul_ps(x, x), y2 = _mm256_mul_ps(y, y);
	v3_f8 q01 = _mm256_sub_ps(V8(1.0f / 6.0f), _mm256_mul_ps(y, V8(1.0f / 120.0f)));
	v3_f8 q23 = _mm256_sub_ps(V8(1.0f / 5040.0f), _mm256_mul_ps(y, V8(1.0f / 362880.0f)));
	v3_f8 q = _mm256_add_ps(q01, _mm256_mul_ps(q23, y2));

	if (full)
		q = _mm256_add_ps(q, _mm256_mul_ps(V8(1.0f / 39916800.0f), _mm256_mul_ps(y2, y2)));
	return _mm256_sub_ps(x, _mm256_mul_ps(_mm256_mul_ps(x, y), q));
}

/* A slerp's last steps on eight lanes: the weighted keys, normalised
 * where the keys are near (is_near), key a where u is not above 0. */
V3_TARGET void v8_slerp_finish(const v3_f8 a[4], const v3_f8 b[4], v3_f8 u, v3_f8 w0, v3_f8 w1, v3_f8 is_near,
			       v3_f8 out[4])
{
	v3_f8 one = V8(1.0f);

	for (int k = 0; k < 4; k++)
		out[k] = _mm256_add_ps(_mm256_mul_ps(w0, a[k]), _mm256_mul_ps(w1, b[k]));
	if (_mm256_movemask_ps(is_near)) {
		v3_f8 len2 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(out[0], out[0]),
								     _mm256_mul_ps(out[1], out[1])),
						       _mm256_mul_ps(out[2], out[2])), _mm256_mul_ps(out[3], out[3]));
		v3_f8 sc = v8_sel(_mm256_and_ps(is_near, _mm256_cmp_ps(len2, V8(0.0f), _CMP_GT_OQ)),
				  _mm256_div_ps(one, _mm256_sqrt_ps(len2)), one);

		for (int k = 0; k < 4; k++)
			out[k] = _mm256_mul_ps(out[k], sc);
	}
	v3_f8 keep = _mm256_cmp_ps(u, V8(0.0f), _CMP_NGT_UQ);
	for (int k = 0; k < 4; k++)
		out[k] = v8_sel(keep, a[k], out[k]);
}

/* The slerp of eight lanes (rt_slerp_finish's normalised lerp where keys
 * are near), key a where u is not above 0. */
V3_TARGET void v3_slerp8(const v3_f8 a[4], const v3_f8 b[4], v3_f8 u, v3_f8 out[4])
{
	v3_f8 dot = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1])),
						_mm256_mul_ps(a[2], b[2])), _mm256_mul_ps(a[3], b[3]));
	v3_f8 one = V8(1.0f), near_dot = V8(0.999999f), sgn = V8(-0.0f), d = _mm256_andnot_ps(sgn, dot);
	v3_f8 c = v8_sel(_mm256_cmp_ps(d, near_dot, _CMP_LT_OQ), d, near_dot);
	v3_f8 angle = v8_acos_unit(c);
	v3_f8 inv_sin = _mm256_div_ps(one, _mm256_sqrt_ps(_mm256_mul_ps(_mm256_sub_ps(one, c), _mm256_add_ps(one, c))));
	v3_f8 x0 = _mm256_mul_ps(_mm256_sub_ps(one, u), angle), x1 = _mm256_mul_ps(u, angle);
	int full = _mm256_movemask_ps(_mm256_cmp_ps(angle, V8(RT_SHORT_SINE), _CMP_GT_OQ)) != 0;
	v3_f8 s0 = v8_sin(x0, full), s1 = v8_sin(x1, full);
	v3_f8 is_near = _mm256_cmp_ps(d, near_dot, _CMP_NLE_UQ);
	v3_f8 w0 = v8_sel(is_near, _mm256_sub_ps(one, u), _mm256_mul_ps(s0, inv_sin));
	v3_f8 w1 = _mm256_xor_ps(_mm256_and_ps(dot, sgn), v8_sel(is_near, u, _mm256_mul_ps(s1, inv_sin)));

	v8_slerp_finish(a, b, u, w0, w1, is_near, out);
}

/* Two rotation groups' keys (their steps interleaved), slerped eight wide;
 * g1 == g0 for one group alone (its lanes twice). */
V3_TARGET void v3_rotations(const struct animrt_compact *c, uint32_t g0, uint32_t g1, rt_where at, const uint32_t *map,
			    animrt_pose *pose)
{
	v3_work w0, w1;
	rt_f4 a[2][4], b[2][4], u[2], out[2][4];
	v3_f8 a8[4], b8[4], o8[4];

	v3_step1(c, g0, at.segment, &w0);
	v3_step1(c, g1, at.segment, &w1);
	v3_step2(at.local, &w0);
	v3_step2(at.local, &w1);
	v3_step3(c, at.segment, at.local, &w0, a[0], b[0], &u[0]);
	v3_step3(c, at.segment, at.local, &w1, a[1], b[1], &u[1]);
	for (int k = 0; k < 4; k++) {
		a8[k] = _mm256_set_m128(a[1][k], a[0][k]);
		b8[k] = _mm256_set_m128(b[1][k], b[0][k]);
	}
	v3_slerp8(a8, b8, _mm256_set_m128(u[1], u[0]), o8);
	for (int k = 0; k < 4; k++) {
		out[0][k] = _mm256_castps256_ps128(o8[k]);
		out[1][k] = _mm256_extractf128_ps(o8[k], 1);
	}
	v3_out(c, g0, out[0], map, pose);
	if (g1 != g0)
		v3_out(c, g1, out[1], map, pose);
}

V3_TARGET void v3_lerps(const struct animrt_compact *c, uint32_t g, rt_where at, const uint32_t *map,
			animrt_pose *pose)
{
	v3_work w;
	rt_f4 a[4], b[4], u, out[4];

	v3_step1(c, g, at.segment, &w);
	v3_step2(at.local, &w);
	v3_step3(c, at.segment, at.local, &w, a, b, &u);
	v3_lerp(a, b, u, out);
	v3_out(c, g, out, map, pose);
}


/* ------------------------------------------------- a context's keys */

/* Where kept x y z and the rebuilt component go by the one left out. */
static const int32_t v3_drop_order[4][4] = { { 3, 0, 1, 2 }, { 0, 3, 1, 2 }, { 0, 1, 3, 2 }, { 0, 1, 2, 3 } };

/* A rotation from its kept components (x y z, lane 3 anything) and the
 * one left out: compact_rotation_w's operations in its order. */
V3_TARGET rt_f4 v3_rebuild1(rt_f4 k, unsigned dropped)
{
	rt_f4 k2 = rt_mul(k, k);
	rt_f4 n = _mm_add_ss(_mm_add_ss(k2, _mm_movehdup_ps(k2)), _mm_movehl_ps(k2, k2));
	rt_f4 r = _mm_and_ps(_mm_sqrt_ss(_mm_sub_ss(rt_set1(1.0f), n)), _mm_cmplt_ss(n, rt_set1(1.0f)));

	return _mm_permutevar_ps(_mm_insert_ps(k, r, 0x30),
				 _mm_loadu_si128((const __m128i *)(const void *)v3_drop_order[dropped]));
}

__attribute__((target("popcnt,avx,avx2,bmi,bmi2,lzcnt,f16c"))) void
animrt_rt_v3_lane_key_newer(const rt_v3_lane *v, uint32_t j, unsigned track, float out[4])
{
	if (v->is_raw) {
		rt_v3_lane_key(v, j, track, out);
		return;
	}
	uint64_t bit = v->first + (uint64_t)j * v->key_bits;
	uint64_t q = v3_load64(v->keys + (size_t)(bit >> 3)) >> (bit & 7);
	unsigned c0 = v->cbits[0], c01 = c0 + v->cbits[1];
	__m128i qi = _mm_setr_epi32((int)_bzhi_u64(q, c0), (int)_bzhi_u64(q >> c0, v->cbits[1]),
				    (int)_bzhi_u64(q >> c01, v->cbits[2]), 0);
	/* compact_dequantize per component; lane 3 0 (min[0..2], step[0..2]
	 * loaded with the float after each, multiplied by 0). */
	rt_f4 step = _mm_blend_ps(_mm_loadu_ps(v->step), _mm_setzero_ps(), 8);
	rt_f4 k = _mm_blend_ps(rt_add(_mm_loadu_ps(v->min), rt_mul(_mm_cvtepi32_ps(qi), step)), _mm_setzero_ps(), 8);

	_mm_storeu_ps(out, track == ANIMRT_ROTATION ? v3_rebuild1(k, v->dropped) : k);
}

/* Keys j and j + 1 of a lane (not raw) into a and b at once, as
 * animrt_rt_v3_lane_key_newer unpacks one. */
__attribute__((target("popcnt,avx,avx2,bmi,bmi2,lzcnt,f16c"))) void
animrt_rt_v3_lane_keys2_newer(const rt_v3_lane *v, uint32_t j, unsigned track, float a[4], float b[4])
{
	uint64_t bit = v->first + (uint64_t)j * v->key_bits, bit2 = bit + v->key_bits;
	uint64_t q = v3_load64(v->keys + (size_t)(bit >> 3)) >> (bit & 7);
	uint64_t r = v3_load64(v->keys + (size_t)(bit2 >> 3)) >> (bit2 & 7);
	unsigned c0 = v->cbits[0], c1 = v->cbits[1], c2 = v->cbits[2], c01 = c0 + c1;
	__m256i qi = _mm256_setr_epi32((int)_bzhi_u64(q, c0), (int)_bzhi_u64(q >> c0, c1), (int)_bzhi_u64(q >> c01, c2),
				       0, (int)_bzhi_u64(r, c0), (int)_bzhi_u64(r >> c0, c1),
				       (int)_bzhi_u64(r >> c01, c2), 0);
	rt_f4 step4 = _mm_blend_ps(_mm_loadu_ps(v->step), _mm_setzero_ps(), 8);
	v3_f8 step = _mm256_set_m128(step4, step4), min = _mm256_broadcast_ps((const __m128 *)(const void *)v->min);
	v3_f8 k = _mm256_blend_ps(_mm256_add_ps(min, _mm256_mul_ps(_mm256_cvtepi32_ps(qi), step)),
				  _mm256_setzero_ps(), 0x88);

	if (track == ANIMRT_ROTATION) {
		/* compact_rotation_w per key, as v3_rebuild1. */
		v3_f8 k2 = _mm256_mul_ps(k, k), one = V8(1.0f);
		v3_f8 n = _mm256_add_ps(_mm256_add_ps(k2, _mm256_movehdup_ps(k2)), _mm256_permute_ps(k2, 0x02));
		v3_f8 w = _mm256_and_ps(_mm256_sqrt_ps(_mm256_sub_ps(one, n)), _mm256_cmp_ps(n, one, _CMP_LT_OQ));
		__m128i order = _mm_loadu_si128((const __m128i *)(const void *)v3_drop_order[v->dropped]);

		k = _mm256_blend_ps(k, _mm256_permute_ps(w, 0x00), 0x88);
		k = _mm256_permutevar_ps(k, _mm256_set_m128i(order, order));
	}
	_mm_storeu_ps(a, _mm256_castps256_ps128(k));
	_mm_storeu_ps(b, _mm256_extractf128_ps(k, 1));
}

/* Lane l of group g in segment s (animrt_rt_v3_lane_in) from the group's
 * record decoded four lanes at once (v3_dec_of, whose ranges, bits and
 * steps are the plain C decoding's); raw groups as the plain C one. */
__attribute__((target("popcnt,avx,avx2,bmi,bmi2,lzcnt,f16c"))) rt_v3_lane
animrt_rt_v3_lane_in_newer(const struct animrt_compact *c, uint32_t g, uint32_t s, uint32_t l)
{
	compact3_shape sh;
	const uint8_t *rec;
	v3_dec d = { 0 };   /* v3_dec_of stores its key bits as a vector */
	rt_v3_lane v;
	float min[3][4], step[3][4];
	uint64_t cb[3][4];

	if (c->v3.has_raw[g])
		return animrt_rt_v3_lane_in(c, g, s, l);
	rec = v3_record(c, g, s, &sh);
	v3_dec_of(c, g, rec, &sh, &d);
	v.keys = d.keys;
	v.segment = s;
	v.first = 0;
	for (uint32_t i = 0; i < l; i++)
		v.first += (uint32_t)_mm_popcnt_u64(v3_mask(rec, &sh, i)) * d.kb[i];
	v.mask = v3_mask(rec, &sh, l);
	v.key_bits = (uint8_t)d.kb[l];
	for (int k = 0; k < 3; k++) {
		_mm_storeu_ps(min[k], d.min[k]);
		_mm_storeu_ps(step[k], d.step[k]);
		_mm256_storeu_si256((__m256i *)(void *)cb[k], d.cb[k]);
		v.min[k] = min[k][l];
		v.step[k] = step[k][l];
		v.cbits[k] = (uint8_t)cb[k][l];
	}
	v.dropped = (uint8_t)COMPACT3_CODE_DROPPED(rec[l]);
	v.is_raw = false;
	return v;
}

/* ------------------------------------------- a context's rotations */

/* Key a (b: key b) of eight caches (lanes past n: the first's) as x y z w
 * rows, caches 0 to 3 in the low halves. */
V3_TARGET void v8_keys(rt_v3_cache *const tc[8], uint32_t n, bool b, v3_f8 rows[4])
{
	__m256 r[4], t[4];

	for (uint32_t l = 0; l < 4; l++) {
		const rt_v3_cache *lo = tc[l < n ? l : 0], *hi = tc[l + 4 < n ? l + 4 : 0];

		r[l] = _mm256_set_m128(_mm_loadu_ps(b ? hi->b : hi->a), _mm_loadu_ps(b ? lo->b : lo->a));
	}
	t[0] = _mm256_unpacklo_ps(r[0], r[1]);
	t[1] = _mm256_unpackhi_ps(r[0], r[1]);
	t[2] = _mm256_unpacklo_ps(r[2], r[3]);
	t[3] = _mm256_unpackhi_ps(r[2], r[3]);
	rows[0] = _mm256_shuffle_ps(t[0], t[2], 0x44);
	rows[1] = _mm256_shuffle_ps(t[0], t[2], 0xEE);
	rows[2] = _mm256_shuffle_ps(t[1], t[3], 0x44);
	rows[3] = _mm256_shuffle_ps(t[1], t[3], 0xEE);
}

/* The arcs between keys a and b eight wide: context_v3.c's arcs4. */
V3_TARGET void v8_arcs(const v3_f8 a[4], const v3_f8 b[4], v3_f8 *angle, v3_f8 *signed_inv_sin)
{
	v3_f8 one = V8(1.0f), sgn = V8(-0.0f), near_dot = V8(INTERP_NLERP_DOT);
	v3_f8 dot = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1])),
						_mm256_mul_ps(a[2], b[2])), _mm256_mul_ps(a[3], b[3]));
	v3_f8 d = _mm256_andnot_ps(sgn, dot), c = v8_sel(_mm256_cmp_ps(d, near_dot, _CMP_LT_OQ), d, near_dot);

	*angle = v8_sel(_mm256_cmp_ps(d, near_dot, _CMP_LE_OQ), v8_acos_unit(c), V8(-1.0f));
	*signed_inv_sin = _mm256_xor_ps(_mm256_and_ps(dot, sgn),
					_mm256_div_ps(one, _mm256_sqrt_ps(_mm256_mul_ps(_mm256_sub_ps(one, c),
											_mm256_add_ps(one, c)))));
}

/* The caches' arcs: kept, or computed for keys unpacked since (and kept). */
V3_TARGET void v8_cache_arcs(rt_v3_slerps8 *sl, const v3_f8 a[4], const v3_f8 b[4], v3_f8 *angle, v3_f8 *inv)
{
	rt_v3_cache *const *tc = sl->tc;
	uint32_t n = sl->count;
	__m128 pair[4];

	/* Each cache's arc as one 8-byte load (a refill stores it whole),
	 * two caches to a vector. */
	for (uint32_t l = 0; l < 8; l += 2) {
		const rt_arc *p0 = &tc[l < n ? l : 0]->arc, *p1 = &tc[l + 1 < n ? l + 1 : 0]->arc;

		pair[l / 2] = _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)p0),
								  _mm_loadl_epi64((const __m128i *)(const void *)p1)));
	}
	*angle = _mm256_set_m128(_mm_shuffle_ps(pair[2], pair[3], _MM_SHUFFLE(2, 0, 2, 0)),
				 _mm_shuffle_ps(pair[0], pair[1], _MM_SHUFFLE(2, 0, 2, 0)));
	*inv = _mm256_set_m128(_mm_shuffle_ps(pair[2], pair[3], _MM_SHUFFLE(3, 1, 3, 1)),
			       _mm_shuffle_ps(pair[0], pair[1], _MM_SHUFFLE(3, 1, 3, 1)));
	v3_f8 is_new = _mm256_cmp_ps(*angle, V8(-1.5f), _CMP_LT_OQ);
	if (!_mm256_movemask_ps(is_new))
		return;
	v3_f8 new_angle, new_inv;
	float fa[8], fi[8];

	v8_arcs(a, b, &new_angle, &new_inv);
	*angle = v8_sel(is_new, new_angle, *angle);
	*inv = v8_sel(is_new, new_inv, *inv);
	_mm256_storeu_ps(fa, *angle);
	_mm256_storeu_ps(fi, *inv);
	for (uint32_t l = 0; l < n; l++) {
		tc[l]->arc.angle = fa[l];
		tc[l]->arc.signed_inv_sin = fi[l];
	}
}

/* The weights of the caches' keys at `local`: 0 where the last key holds. */
V3_TARGET v3_f8 v8_cache_weights(rt_v3_cache *const tc[8], uint32_t n, float local)
{
	int k0[8], k1[8];

	for (uint32_t l = 0; l < 8; l++) {
		k0[l] = tc[l < n ? l : 0]->k0;
		k1[l] = tc[l < n ? l : 0]->k1;
	}
	__m256i k1i = _mm256_setr_epi32(k1[0], k1[1], k1[2], k1[3], k1[4], k1[5], k1[6], k1[7]);
	v3_f8 fk0 = _mm256_cvtepi32_ps(_mm256_setr_epi32(k0[0], k0[1], k0[2], k0[3], k0[4], k0[5], k0[6], k0[7]));
	v3_f8 fk1 = _mm256_cvtepi32_ps(k1i);

	return v8_sel(_mm256_castsi256_ps(_mm256_cmpeq_epi32(k1i, _mm256_set1_epi32(RT_HOLD))), V8(0.0f),
		      _mm256_div_ps(_mm256_sub_ps(V8(local), fk0), _mm256_sub_ps(fk1, fk0)));
}

/* The slerps from their arcs: context_v3.c's slerps_flush, eight wide. */
V3_TARGET void v8_cache_slerps(const v3_f8 a[4], const v3_f8 b[4], v3_f8 angle, v3_f8 signed_inv_sin, v3_f8 u,
			       v3_f8 out[4])
{
	v3_f8 one = V8(1.0f), sgn = V8(-0.0f);
	v3_f8 sign = _mm256_and_ps(signed_inv_sin, sgn), inv_sin = _mm256_andnot_ps(sgn, signed_inv_sin);
	v3_f8 x0 = _mm256_mul_ps(_mm256_sub_ps(one, u), angle), x1 = _mm256_mul_ps(u, angle);
	int full = _mm256_movemask_ps(_mm256_cmp_ps(angle, V8(RT_SHORT_SINE), _CMP_GT_OQ)) != 0;
	v3_f8 s0 = v8_sin(x0, full), s1 = v8_sin(x1, full);
	v3_f8 is_near = _mm256_cmp_ps(angle, V8(0.0f), _CMP_LT_OQ);
	v3_f8 w0 = v8_sel(is_near, _mm256_sub_ps(one, u), _mm256_mul_ps(s0, inv_sin));
	v3_f8 w1 = _mm256_xor_ps(sign, v8_sel(is_near, u, _mm256_mul_ps(s1, inv_sin)));

	v8_slerp_finish(a, b, u, w0, w1, is_near, out);
}

__attribute__((target("popcnt,avx,avx2,bmi,bmi2,lzcnt,f16c"))) void animrt_rt_v3_context_slerps_newer(rt_v3_slerps8 *sl,
												    float local)
{
	uint32_t n = sl->count;
	v3_f8 a[4], b[4], out[4], angle, inv;

	if (!n)
		return;
	v8_keys(sl->tc, n, false, a);
	v8_keys(sl->tc, n, true, b);
	v8_cache_arcs(sl, a, b, &angle, &inv);
	v8_cache_slerps(a, b, angle, inv, v8_cache_weights(sl->tc, n, local), out);
	/* Back to one quaternion per cache. */
	__m256 t0 = _mm256_unpacklo_ps(out[0], out[1]), t1 = _mm256_unpackhi_ps(out[0], out[1]);
	__m256 t2 = _mm256_unpacklo_ps(out[2], out[3]), t3 = _mm256_unpackhi_ps(out[2], out[3]);
	__m256 q[4] = { _mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
			_mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE) };
	for (uint32_t l = 0; l < 4 && l < n; l++)
		_mm_storeu_ps(sl->out[l], _mm256_castps256_ps128(q[l]));
	for (uint32_t l = 4; l < n; l++)
		_mm_storeu_ps(sl->out[l], _mm256_extractf128_ps(q[l - 4], 1));
	sl->count = 0;
}

/* ---------------------------------------------------- the still pose */

/* A half float of the payload (compact_f16_to_f32: exact either way). */
V3_TARGET float v3_f16(const uint8_t *p)
{
	return _cvtsh_ss((unsigned short)(p[0] | p[1] << 8));
}

/* Bone b's constant of track k at p into out (the walker's decoding, as
 * sample_v3.c's constant_at); returns its bytes. */
V3_TARGET size_t v3_constant(const uint8_t *p, uint16_t desc, unsigned k, float *out)
{
	bool is_f32 = desc & COMPACT_DESC_F32(k);
	size_t n = 0;

	if (k == ANIMRT_ROTATION && !is_f32) {
		float kept[3];

		for (int c = 0; c < 3; c++, n += 2)
			kept[c] = compact_u16_to_unit((uint16_t)(p[n] | p[n + 1] << 8));
		compact_rotation_rebuild(kept, COMPACT_DESC_DROPPED(desc), out);
		return n;
	}
	for (unsigned c = 0; c < (k == ANIMRT_ROTATION ? 4u : 3u); c++) {
		if (k == ANIMRT_TRANSLATION && (desc & COMPACT_DESC_ZERO(c))) {
			out[c] = 0;
			continue;
		}
		if (is_f32)
			memcpy(&out[c], p + n, 4);
		else
			out[c] = v3_f16(p + n);
		n += is_f32 ? 4 : 2;
	}
	return n;
}

/* The still pose without a map: identity by wide stores, then each
 * bone's track bits and constants from the descriptors. */
V3_TARGET void v3_still(const rt_packed *pk, animrt_pose *pose)
{
	uint32_t n = pk->bone_count;
	size_t i = 0, at = pk->constants_at;

	if (!n)
		return;
	memset(pose->translation, 0, 3 * (size_t)n * sizeof(float));
	for (; i + 8 <= 3 * (size_t)n; i += 8)
		_mm256_storeu_ps(pose->scale + i, V8(1.0f));
	for (; i < 3 * (size_t)n; i++)
		pose->scale[i] = 1.0f;
	for (uint32_t b = 0; b < n; b++)
		_mm_storeu_ps(pose->rotation + 4 * (size_t)b, _mm_setr_ps(0, 0, 0, 1));
	for (uint32_t b = 0; b < n; b++) {
		const uint8_t *d = pk->p + pk->descriptors_at + 2 * (size_t)b;
		uint16_t desc = (uint16_t)(d[0] | d[1] << 8);
		unsigned t = desc | desc >> 1, constant = desc & 0x2Au & ~((unsigned)desc << 1);

		pose->tracks[b] = (uint8_t)((t & 1u) | (t >> 1 & 2u) | (t >> 2 & 4u));
		if (constant & 0x02u)
			at += v3_constant(pk->p + at, desc, 0, pose->translation + 3 * (size_t)b);
		if (constant & 0x08u)
			at += v3_constant(pk->p + at, desc, 1, pose->rotation + 4 * (size_t)b);
		if (constant & 0x20u)
			at += v3_constant(pk->p + at, desc, 2, pose->scale + 3 * (size_t)b);
	}
}


/* A constant rotation of u16 codes at p: compact_u16_to_unit and
 * compact_rotation_rebuild, their operations in their order. */
V3_TARGET rt_f4 v3_still_rotation(const uint8_t *p, unsigned dropped)
{
	__m128i q = _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
	rt_f4 k = rt_sub(rt_mul(_mm_cvtepi32_ps(q), rt_set1(2.0f / 65535.0f)), rt_set1(1.0f));
	rt_f4 k2 = rt_mul(k, k);
	rt_f4 n = _mm_add_ss(_mm_add_ss(k2, _mm_movehdup_ps(k2)), _mm_movehl_ps(k2, k2));
	rt_f4 r = _mm_and_ps(_mm_sqrt_ss(_mm_sub_ss(rt_set1(1.0f), n)), _mm_cmplt_ss(n, rt_set1(1.0f)));

	return _mm_permutevar_ps(_mm_insert_ps(k, r, 0x30),
				 _mm_loadu_si128((const __m128i *)(const void *)v3_drop_order[dropped]));
}

/* The still pose without a map from its half prebuilt form (rt_v3.still):
 * identity rotations by wide stores, the translations copied (or their
 * halves converted eight at a time), the scales' halves converted (or
 * identity), the constant rotations decoded from their offsets, the
 * track bits copied. */
V3_TARGET void v3_still_prebuilt(const struct animrt_compact *c, animrt_pose *pose)
{
	const rt_packed *pk = &c->packed;
	uint32_t n = c->bone_count, r = c->v3.still_rotations;
	size_t tb = (c->v3.still_floats ? 12 : 6) * (size_t)n, sb = c->v3.still_scales ? 6 * (size_t)n : 0, i = 0;
	const uint8_t *tr = c->v3.still, *sc = tr + tb, *offs = tr + ((tb + sb + 3) & ~(size_t)3);
	const uint8_t *slots = offs + 4 * (size_t)r;
	bool halves = !c->v3.still_floats, scales = c->v3.still_scales;

	for (uint32_t b = 0; b < n; b++)
		_mm_storeu_ps(pose->rotation + 4 * (size_t)b, _mm_setr_ps(0, 0, 0, 1));
	if (c->v3.still_floats)
		memcpy(pose->translation, tr, tb);
	for (; i + 8 <= 3 * (size_t)n; i += 8) {
		if (halves)
			_mm256_storeu_ps(pose->translation + i,
					 _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(tr + 2 * i))));
		_mm256_storeu_ps(pose->scale + i, scales ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(sc + 2 * i)))
						       : V8(1.0f));
	}
	for (; i < 3 * (size_t)n; i++) {
		if (halves)
			pose->translation[i] = v3_f16(tr + 2 * i);
		pose->scale[i] = scales ? v3_f16(sc + 2 * i) : 1.0f;
	}
	for (uint32_t k = 0; k < r; k++) {
		uint32_t slot = (uint32_t)(slots[2 * k] | slots[2 * k + 1] << 8), off;
		const uint8_t *d = pk->p + pk->descriptors_at + 2 * (size_t)slot;

		memcpy(&off, offs + 4 * (size_t)k, 4);
		_mm_storeu_ps(pose->rotation + 4 * (size_t)slot,
			      v3_still_rotation(pk->p + off, COMPACT_DESC_DROPPED((uint16_t)(d[0] | d[1] << 8))));
	}
	if (n)   /* a pose of no bones may have no arrays */
		memcpy(pose->tracks, slots + 2 * (size_t)r, n);
}

__attribute__((target("popcnt,avx,avx2,bmi,bmi2,lzcnt,f16c"))) void
animrt_rt_sample_v3_newer(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);
	uint32_t waiting = UINT32_MAX;

	if (map)
		animrt_rt_v3_still(&c->packed, map, pose);
	else if (c->v3.still)
		v3_still_prebuilt(c, pose);
	else
		v3_still(&c->packed, pose);
	for (uint32_t g = 0; g < c->group_count; g++) {
		if (c->v3.has_raw[g]) {
			animrt_rt_v3_group_plain(c, g, at, map, pose);
		} else if (c->groups[g].kind != ANIMRT_ROTATION) {
			v3_lerps(c, g, at, map, pose);
		} else if (waiting != UINT32_MAX) {
			v3_rotations(c, waiting, g, at, map, pose);
			waiting = UINT32_MAX;
		} else {
			waiting = g;
		}
	}
	if (waiting != UINT32_MAX)
		v3_rotations(c, waiting, waiting, at, map, pose);
}

#endif
