/*
 * sample_packed.c - compact clips (reader version 2) sampled in place: the
 * samplers walk the packed payload bone after bone (descriptors,
 * constants, formats and ranges in step), and for each animated track
 * unpack only the two keys around the time (FORMAT.md 7.5), or take them
 * from the caller's context when the playhead is still between them.  One
 * walk serves the scalar reference and the reading back of keys; the SIMD
 * sampler without a context takes the bones in two passes instead
 * (constants first, then the animated tracks' keys), and slerps four at a
 * time (simd.h).
 */
#include <string.h>

#include <animc/animrt.h>

/* The x86-64 baseline has no popcount instruction (its software form is
 * a chain of a dozen operations on the way to every key), no bit-field
 * instructions (BMI1, BMI2, LZCNT), no half-float conversion (F16C) and
 * no three-operand (VEX) encoding: the samplers below are built twice,
 * once for processors with all of these (x86-64-v3 without FMA, which the
 * samplers never use: every operation stays the IEEE one the baseline
 * build performs, so both give the same bits), chosen at run time (cpuid,
 * from the compiler's own header: no library). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__AVX2__)
#include <cpuid.h>
#include <emmintrin.h>
#include <stdatomic.h>
#define RT_NEWER_DISPATCH 1
#define RT_NEWER_TARGET "popcnt,avx,avx2,bmi,bmi2,lzcnt,f16c"
#endif

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"
#include "sample.h"
#include "simd.h"

/* The helpers of the samplers, inlined into each build of them (for the
 * baseline and for newer processors), whatever the optimiser estimates. */
#if defined(__GNUC__) || defined(__clang__)
#define RT_INLINE static inline __attribute__((always_inline))
#define RT_OUT_OF_LINE static __attribute__((noinline))
#else
#define RT_INLINE static inline
#define RT_OUT_OF_LINE static
#endif

/* The bits set in v: the instruction in the build for processors that
 * have it (has_popcnt is a constant in each build). */
RT_INLINE uint32_t rank64(uint64_t v, bool has_popcnt)
{
#if RT_NEWER_DISPATCH
	if (has_popcnt)
		return (uint32_t)__builtin_popcountll(v);
#endif
	(void)has_popcnt;
	return rt_popcount64(v);
}

/* ------------------------------------------------------------- bit reads */

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* 64 bits from bit `bit` of `base` (the copy's padding covers the end). */
static inline uint64_t load_bits64(const uint8_t *base, uint64_t bit)
{
	const uint8_t *p = base + (size_t)(bit >> 3);
	unsigned sh = (unsigned)(bit & 7u);
	uint64_t v = load_le64(p);

	return sh ? (v >> sh) | ((uint64_t)p[8] << (64 - sh)) : v;
}

/* The mask of animated track a in segment s: bit i for sample 64 s + i. */
static inline uint64_t track_mask(const rt_packed *pk, uint32_t a, uint32_t s)
{
	uint64_t m = load_bits64(pk->p + pk->masks_at,
				 (uint64_t)a * pk->sample_count + ((uint64_t)s << COMPACT_SEGMENT_SHIFT));
	uint32_t rows = pk->sample_count - (s << COMPACT_SEGMENT_SHIFT);

	return rows < 64 ? m & (((uint64_t)1 << rows) - 1) : m;
}

static inline float f32_at(const uint8_t *p)
{
	return xnb_get_f32(p);
}

/* A finite binary16 (the loader checked each one) to float, exactly, with
 * no subnormal float on the way (they are slow): a normal one rebiased; a
 * subnormal one as 2^-14 (1 + m / 1024) - 2^-14. */
static inline float f16_at(const uint8_t *p)
{
	uint32_t h = (uint32_t)(p[0] | p[1] << 8), bits = ((h & 0x7FFFu) << 13) + (112u << 23);
	bool is_subnormal = !(h & 0x7C00u);
	float f;

	bits += (uint32_t)is_subnormal << 23;
	memcpy(&f, &bits, 4);
	f -= is_subnormal ? 0x1p-14f : 0.0f;
	memcpy(&bits, &f, 4);
	bits |= (h & 0x8000u) << 16;
	memcpy(&f, &bits, 4);
	return f;
}

/* f16_at by the F16C instruction, in the build for newer processors
 * (`newer` a constant in each build; exact, as f16_at is). */
static inline float f16_at_by(const uint8_t *p, bool newer)
{
#if RT_NEWER_DISPATCH
	if (newer) {
		__m128 v = _mm_castsi128_ps(_mm_cvtsi32_si128(p[0] | p[1] << 8));

		__asm__("vcvtph2ps %1, %0" : "=x"(v) : "x"(v));
		return _mm_cvtss_f32(v);
	}
#endif
	(void)newer;
	return f16_at(p);
}

/* ---------------------------------------------------------------- tracks */

/* Where the walk is: the offsets of the next constant, range, and the
 * index of the next animated and segmented track. */
typedef struct walk {
	size_t constant_at, range_at;
	uint32_t animated, segmented;
} walk;

/* How the keys of one track decode in one segment: the bits of each
 * component (compact_component_bits) and of the key. */
typedef struct dequant {
	float min[3], step[3];
	unsigned bits, dropped, cbits[3], key_bits;
} dequant;

RT_INLINE void segment_dequant_by(const rt_packed *pk, uint8_t format, const uint8_t *range, uint32_t ordinal,
				   unsigned dropped, uint32_t s, dequant *d, bool newer)
{
	unsigned kind = COMPACT_FORMAT_RANGE(format);
	float min[3], extent[3];

	d->bits = COMPACT_FORMAT_BITS(format);
	d->dropped = dropped;
	for (int c = 0; c < 3; c++) {
		switch (kind) {
		case COMPACT_RANGE_NONE:
			min[c] = -1.0f;
			extent[c] = 2.0f;
			break;
		case COMPACT_RANGE_F16:
			min[c] = f16_at_by(range + 2 * c, newer);
			extent[c] = f16_at_by(range + 6 + 2 * c, newer);
			break;
		case COMPACT_RANGE_F32:
			min[c] = f32_at(range + 4 * c);
			extent[c] = f32_at(range + 12 + 4 * c);
			break;
		default:
			compact_unit_range(range[c], range[3 + c], &min[c], &extent[c]);
			break;
		}
	}
	if (d->bits == COMPACT_SEGMENTED) {
		const uint8_t *code = pk->p + pk->segments_at +
				      ((size_t)ordinal * pk->segment_count + s) * COMPACT_SEGMENT_CODE_SIZE;

		d->bits = code[0] & 31u;
		d->dropped = code[0] >> 5;
		for (int c = 0; c < 3; c++)
			compact_subrange(min[c], extent[c], code[1 + c], code[4 + c], &min[c], &extent[c]);
	}
	d->key_bits = compact_component_bits(d->bits, extent, d->cbits);
	for (int c = 0; c < 3; c++) {
		d->min[c] = min[c];
		d->step[c] = d->bits == COMPACT_RAW_BITS ? 0 : compact_step(extent[c], d->cbits[c]);
	}
}

/* The rotation from its three stored components and the one left out, as
 * compact_rotation_rebuild, with the component placed by selects rather
 * than a loop (its branches follow the tracks, which vary). */
RT_INLINE void rebuild_rotation(const float kept[3], unsigned dropped, float out[4])
{
	float r = compact_rotation_w(kept[0], kept[1], kept[2]);

	out[0] = dropped == 0 ? r : kept[0];
	out[1] = dropped == 0 ? kept[0] : dropped == 1 ? r : kept[1];
	out[2] = dropped <= 1 ? kept[1] : dropped == 2 ? r : kept[2];
	out[3] = dropped == 3 ? r : kept[2];
}

RT_INLINE void segment_dequant(const rt_packed *pk, uint8_t format, const uint8_t *range, uint32_t ordinal,
				unsigned dropped, uint32_t s, dequant *d)
{
	segment_dequant_by(pk, format, range, ordinal, dropped, s, d, false);
}

/* The key at bit `bit` of the keys section: 3 floats, or x y z w.  Forced
 * inline: out of line, one baseline copy served the newer build too. */
RT_INLINE void decode_key_by(const rt_packed *pk, const dequant *d, uint64_t bit, unsigned track, bool defer_w,
			      float out[4])
{
	const uint8_t *keys = pk->p + pk->keys_at;
	float k[3];

	if (d->bits == COMPACT_RAW_BITS) {
		for (int c = 0; c < 3; c++) {
			uint32_t u = (uint32_t)load_bits64(keys, bit + 32 * (unsigned)c);

			memcpy(&k[c], &u, 4);
		}
	} else {
		uint64_t v = load_le64(keys + (size_t)(bit >> 3)) >> (bit & 7u);
		unsigned at1 = d->cbits[0], at2 = d->cbits[0] + d->cbits[1];

		k[0] = compact_dequantize(d->min[0], d->step[0], (uint32_t)v & ((1u << d->cbits[0]) - 1));
		k[1] = compact_dequantize(d->min[1], d->step[1], (uint32_t)(v >> at1) & ((1u << d->cbits[1]) - 1));
		k[2] = compact_dequantize(d->min[2], d->step[2], (uint32_t)(v >> at2) & ((1u << d->cbits[2]) - 1));
	}
	if (track == ANIMRT_ROTATION && defer_w) {
		memcpy(out, k, sizeof k);
		out[3] = (float)d->dropped;
	} else if (track == ANIMRT_ROTATION) {
		rebuild_rotation(k, d->dropped, out);
	} else {
		memcpy(out, k, sizeof k);
		out[3] = 0;
	}
}

RT_INLINE void decode_key(const rt_packed *pk, const dequant *d, uint64_t bit, unsigned track, float out[4])
{
	decode_key_by(pk, d, bit, track, false, out);
}

/* A rotation key decode_key_by left with its three stored components and,
 * in place of W, the component left out: x y z w. */
RT_INLINE void rebuild_deferred(float q[4])
{
	float kept[3] = { q[0], q[1], q[2] };

	rebuild_rotation(kept, (unsigned)q[3], q);
}

/*
 * Unpack the keys of animated track a around grid position `at` into
 * `tc`: key a at or before it, key b after it (the next segment's first
 * when the segment has none; key a again where the last key holds).
 */
RT_INLINE void unpack_keys_by(const rt_packed *pk, uint32_t a, uint8_t format, const uint8_t *range, uint32_t ordinal,
			      unsigned dropped, unsigned track, rt_where at, rt_track_cache *tc, bool defer_w,
			      bool has_popcnt)
{
	uint32_t s = at.segment, i = (uint32_t)at.local;
	dequant d;

	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	uint64_t m = track_mask(pk, a, s);
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
	uint64_t below = m & upto, above = m & ~upto;
	uint32_t j = rank64(below, has_popcnt) - 1;
	const uint32_t *key_at = pk->key_at + (size_t)a * pk->segment_count;

	segment_dequant_by(pk, format, range, ordinal, dropped, s, &d, has_popcnt);
	unsigned kb = d.key_bits;
	uint64_t bit = key_at[s] + (uint64_t)j * kb;

	tc->segment = s;
	tc->k0 = (uint8_t)(63 - rt_clz64(below));
	decode_key_by(pk, &d, bit, track, defer_w, tc->a);
	if (above) {
		tc->k1 = (uint8_t)rt_ctz64(above);
		decode_key_by(pk, &d, bit + kb, track, defer_w, tc->b);
	} else if (s + 1 < pk->segment_count) {
		tc->k1 = RT_NEXT_SEGMENT;
		segment_dequant_by(pk, format, range, ordinal, dropped, s + 1, &d, has_popcnt);
		decode_key_by(pk, &d, key_at[s + 1], track, defer_w, tc->b);
	} else {
		tc->k1 = RT_HOLD;
		memcpy(tc->b, tc->a, sizeof tc->b);
	}
}

/* How keys of segment s of a context's track decode, from its cache. */
static inline void cached_dequant(const rt_packed *pk, rt_track_cache *tc, uint32_t s, dequant *d)
{
	if (tc->dq_segment != s && (tc->dq_segment == RT_NO_SEGMENT ||
				    COMPACT_FORMAT_BITS(tc->format) == COMPACT_SEGMENTED)) {
		segment_dequant(pk, tc->format, pk->p + tc->range_at, tc->ordinal, tc->dropped, s, d);
		memcpy(tc->min, d->min, sizeof tc->min);
		memcpy(tc->step, d->step, sizeof tc->step);
		tc->dq_bits = (uint8_t)d->bits;
		tc->dq_dropped = (uint8_t)d->dropped;
		for (int c = 0; c < 3; c++)
			tc->dq_cbits[c] = (uint8_t)d->cbits[c];
		tc->dq_segment = s;
		return;
	}
	memcpy(d->min, tc->min, sizeof d->min);
	memcpy(d->step, tc->step, sizeof d->step);
	d->bits = tc->dq_bits;
	d->dropped = tc->dq_dropped;
	for (int c = 0; c < 3; c++)
		d->cbits[c] = tc->dq_cbits[c];
	d->key_bits = d->cbits[0] + d->cbits[1] + d->cbits[2];
}

/* Key j of the segment whose keys start at bit `first`, by the decoding
 * the cache holds for it (quantised codes): decode_key without copying
 * the decoding out first, for the key playback moves on to. */
RT_INLINE void decode_cached(const rt_packed *pk, const rt_track_cache *tc, uint32_t first, uint32_t j,
			     unsigned track, float out[4])
{
	unsigned c0 = tc->dq_cbits[0], c1 = tc->dq_cbits[1], c2 = tc->dq_cbits[2];
	uint64_t bit = first + (uint64_t)j * (c0 + c1 + c2);
	uint64_t v = load_le64(pk->p + pk->keys_at + (size_t)(bit >> 3)) >> (bit & 7u);
	float k[3];

	k[0] = compact_dequantize(tc->min[0], tc->step[0], (uint32_t)v & ((1u << c0) - 1));
	k[1] = compact_dequantize(tc->min[1], tc->step[1], (uint32_t)(v >> c0) & ((1u << c1) - 1));
	k[2] = compact_dequantize(tc->min[2], tc->step[2], (uint32_t)(v >> (c0 + c1)) & ((1u << c2) - 1));
	if (track == ANIMRT_ROTATION) {
		rebuild_rotation(k, tc->dq_dropped, out);
	} else {
		memcpy(out, k, sizeof k);
		out[3] = 0;
	}
}

/*
 * The keys of a context's track around `at` (unpack_keys, with the
 * cache's decoding).  Forward playback mostly passes key b only: then key
 * b becomes key a, and only the key after it is unpacked (ozz's cache
 * does the same); anything else unpacks both.
 */
RT_INLINE void context_unpack(const rt_packed *pk, rt_track_cache *tc, unsigned track, rt_where at,
			      bool has_popcnt)
{
	uint32_t i = (uint32_t)at.local, s, k0, j;
	const uint32_t *key_at = pk->key_at + (size_t)tc->animated * pk->segment_count;
	dequant d;
	uint64_t m = 0, above;
	bool has_mask = false;

	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	if (tc->segment != RT_NO_SEGMENT && tc->k1 != RT_HOLD) {
		/* Key b becomes key a when the playhead is past it, not past the next. */
		s = tc->segment;
		k0 = tc->k1;
		j = tc->j + 1u;
		if (k0 == RT_NEXT_SEGMENT) {
			s++;
			k0 = 0;
			j = 0;
		}
		if (at.segment == s && i >= k0) {
			if (s != tc->segment) {
				tc->mask = track_mask(pk, tc->animated, s);
				tc->first = key_at[s];
			}
			m = tc->mask;
			above = m & (k0 == 63 ? 0 : ~(((uint64_t)2 << k0) - 1));
			uint32_t k1 = above ? rt_ctz64(above) : s + 1 < pk->segment_count ? RT_NEXT_SEGMENT : RT_HOLD;

			tc->segment = s;
			if (k1 == RT_HOLD || i < k1) {
				memcpy(tc->a, tc->b, sizeof tc->a);
				tc->k0 = (uint8_t)k0;
				tc->k1 = (uint8_t)k1;
				tc->j = (uint8_t)j;
				goto key_b;
			}
			/* Past both (dense keys): the mask serves the search below. */
			has_mask = true;
		}
	}
	/* Both keys. */
	s = at.segment;
	if (!has_mask) {
		if (s != tc->segment) {
			tc->mask = track_mask(pk, tc->animated, s);
			tc->first = key_at[s];
		}
		m = tc->mask;
	}
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1, below = m & upto;
	above = m & ~upto;
	tc->segment = s;
	tc->j = (uint8_t)(rank64(below, has_popcnt) - 1);
	tc->k0 = (uint8_t)(63 - rt_clz64(below));
	tc->k1 = above ? (uint8_t)rt_ctz64(above) : s + 1 < pk->segment_count ? RT_NEXT_SEGMENT : RT_HOLD;
	if (tc->dq_segment == s && tc->dq_bits != COMPACT_RAW_BITS) {
		decode_cached(pk, tc, tc->first, tc->j, track, tc->a);
	} else {
		cached_dequant(pk, tc, s, &d);
		decode_key(pk, &d, key_at[s] + (uint64_t)tc->j * d.key_bits, track, tc->a);
	}
key_b:
	if (tc->k1 == RT_HOLD) {
		memcpy(tc->b, tc->a, sizeof tc->b);
	} else if (tc->k1 == RT_NEXT_SEGMENT) {
		cached_dequant(pk, tc, tc->segment + 1, &d);
		decode_key(pk, &d, key_at[tc->segment + 1], track, tc->b);
	} else if (tc->dq_segment == tc->segment && tc->dq_bits != COMPACT_RAW_BITS) {
		decode_cached(pk, tc, tc->first, tc->j + 1u, track, tc->b);
	} else {
		cached_dequant(pk, tc, tc->segment, &d);
		decode_key(pk, &d, key_at[tc->segment] + (uint64_t)(tc->j + 1u) * d.key_bits, track, tc->b);
	}
	/* The slerps compute the arc four at a time, and keep it here. */
	tc->arc.angle = RT_NO_ARC;
}

/* Does the cache hold the keys around `at`? */
static inline bool cache_holds(const rt_track_cache *tc, rt_where at)
{
	uint32_t i = (uint32_t)at.local;

	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	return tc->segment == at.segment && tc->k0 <= i && (tc->k1 == RT_HOLD || i < tc->k1);
}

/* The weight between keys a and b (FORMAT.md 7.5): 0 at key a and where
 * the last key holds. */
static inline float cache_weight(const rt_track_cache *tc, float local)
{
	if (tc->k1 == RT_HOLD)
		return 0;
	return (local - (float)tc->k0) / (float)(tc->k1 - tc->k0);
}

/* ---------------------------------------------------------------- slerps */

/* Rotations wait in groups of four for the SIMD slerp (simd.h): keys from
 * the caches, with their arcs when a context keeps them. */
typedef struct slerps {
	uint32_t count;
	rt_track_cache *tc[4];
	float u[4];
	float *out[4];
	rt_track_cache own[4];   /* keys unpacked without a context */
} slerps;

/* rebuild_deferred four wide, on keys laid out by component (q[3]: the
 * component left out), in compact_rotation_w's order of operations. */
RT_INLINE void rebuild4(rt_f4 q[4])
{
	rt_f4 one = rt_set1(1.0f), d = q[3];
	rt_f4 n = rt_add(rt_add(rt_mul(q[0], q[0]), rt_mul(q[1], q[1])), rt_mul(q[2], q[2]));
	rt_f4 r = rt_select(rt_lt(n, one), rt_sqrt(rt_sub(one, n)), rt_set1(0.0f));
	rt_f4 is0 = rt_lt(d, rt_set1(0.5f)), upto1 = rt_lt(d, rt_set1(1.5f)), upto2 = rt_lt(d, rt_set1(2.5f));
	rt_f4 k0 = q[0], k1 = q[1], k2 = q[2];

	q[0] = rt_select(is0, r, k0);
	q[1] = rt_select(is0, k0, rt_select(upto1, r, k1));
	q[2] = rt_select(upto1, k1, rt_select(upto2, r, k2));
	q[3] = rt_select(upto2, k2, r);
}

/* The arcs between keys a and b four wide, as load_compact.c computes
 * them: the angle (-1 where the keys are near, and the normalised lerp
 * applies) and 1 / sin(angle) with the sign of their dot product. */
RT_INLINE void arcs4(const rt_f4 a[4], const rt_f4 b[4], rt_f4 *angle, rt_f4 *signed_inv_sin)
{
	rt_f4 one = rt_set1(1.0f);
	rt_f4 dot = rt_add(rt_add(rt_add(rt_mul(a[0], b[0]), rt_mul(a[1], b[1])), rt_mul(a[2], b[2])),
			   rt_mul(a[3], b[3]));
	rt_f4 near_dot = rt_set1(INTERP_NLERP_DOT), d = rt_abs(dot);
	rt_f4 c = rt_select(rt_lt(d, near_dot), d, near_dot);

	*angle = rt_select(rt_le(d, near_dot), rt_acos_unit(c), rt_set1(-1.0f));
	*signed_inv_sin = rt_xor(rt_sign_bit(dot), rt_div(one, rt_sqrt(rt_mul(rt_sub(one, c), rt_add(one, c)))));
}

/* The rotations waiting in `sl`: with a context (their arcs in the caches,
 * or computed once for keys unpacked since), or without one (keys that
 * wait for W, decode_key_by, and arcs computed here).  Both take the same
 * operations, so that a context changes no bit of the result. */
RT_INLINE void slerps_flush_by(slerps *sl, bool with_context)
{
	uint32_t n = sl->count;
	rt_f4 a[4], b[4], out[4], angle, signed_inv_sin, one = rt_set1(1.0f);
	float u[4];

	if (!n)
		return;
	for (uint32_t lane = 0; lane < 4; lane++) {
		const rt_track_cache *tc = sl->tc[lane < n ? lane : 0];

		a[lane] = rt_load(tc->a);
		b[lane] = rt_load(tc->b);
		u[lane] = sl->u[lane < n ? lane : 0];
	}
	rt_transpose(&a[0], &a[1], &a[2], &a[3]);
	rt_transpose(&b[0], &b[1], &b[2], &b[3]);
	rt_f4 vu = rt_load(u);
	if (with_context) {
		rt_arcs(&sl->tc[0]->arc.angle, &sl->tc[n > 1 ? 1 : 0]->arc.angle, &sl->tc[n > 2 ? 2 : 0]->arc.angle,
			&sl->tc[n > 3 ? 3 : 0]->arc.angle, &angle, &signed_inv_sin);
		rt_f4 is_new = rt_lt(angle, rt_set1(-1.5f));
		if (rt_any(is_new)) {
			/* Keys unpacked since: their arcs, kept in their caches
			 * for the samples that follow. */
			rt_f4 new_angle, new_inv;
			float fa[4], fi[4];

			arcs4(a, b, &new_angle, &new_inv);
			angle = rt_select(is_new, new_angle, angle);
			signed_inv_sin = rt_select(is_new, new_inv, signed_inv_sin);
			rt_store(fa, angle);
			rt_store(fi, signed_inv_sin);
			for (uint32_t lane = 0; lane < n; lane++) {
				sl->tc[lane]->arc.angle = fa[lane];
				sl->tc[lane]->arc.signed_inv_sin = fi[lane];
			}
		}
	} else {
		rebuild4(a);
		rebuild4(b);
		arcs4(a, b, &angle, &signed_inv_sin);
	}
	rt_f4 sign = rt_sign_bit(signed_inv_sin), inv_sin = rt_abs(signed_inv_sin);
	rt_f4 x0 = rt_mul(rt_sub(one, vu), angle), x1 = rt_mul(vu, angle), s0, s1;
	/* Short arcs (keys close together, as most are): the short series,
	 * which gives the full series' bits on them (rt_sin_short) for less;
	 * a group with a long arc the full series in every lane.  So a
	 * rotation gets the bits of the decoded clip's sampler whatever it is
	 * grouped with (a group of four, or one bone alone:
	 * animrt_clip_sample_bone). */
	rt_f4 is_long = rt_gt(angle, rt_set1(RT_SHORT_SINE));
	if (!rt_any(is_long)) {
		s0 = rt_sin_short(x0);
		s1 = rt_sin_short(x1);
	} else {
		s0 = rt_sin_quadrant(x0);
		s1 = rt_sin_quadrant(x1);
	}
	s0 = rt_mul(s0, inv_sin);
	s1 = rt_mul(s1, inv_sin);
	rt_f4 is_near = rt_lt(angle, rt_set1(0.0f));
	rt_f4 w0 = rt_select(is_near, rt_sub(one, vu), s0);
	rt_f4 w1 = rt_xor(sign, rt_select(is_near, vu, s1));

	rt_slerp_finish(a, b, w0, w1, is_near, out);
	/* Key a where u is not above 0 (at a key, or the last one holding). */
	rt_f4 keep = rt_not(rt_gt(vu, rt_set1(0.0f)));
	for (int k = 0; k < 4; k++)
		out[k] = rt_select(keep, a[k], out[k]);
	rt_transpose(&out[0], &out[1], &out[2], &out[3]);
	for (uint32_t lane = 0; lane < n; lane++)
		rt_store(sl->out[lane], out[lane]);
	sl->count = 0;
}

/*
 * One rotation alone (animrt_clip_sample_bone) from keys a and b (W
 * rebuilt) at weight u > 0: slerps_flush_by's operations for one lane, in
 * scalar code.  Each is the IEEE operation the lane performs, in the same
 * order (the arc as arcs4, the sine series rt_sin_short or the full one,
 * which agree on short arcs, its sign taken from the sign bit of the dot
 * product, rt_slerp_finish), so the result is the whole-clip samplers' bit
 * for bit, for less than a group of four.
 */
static inline float sin_short1(float x)
{
	float y = x * x, y2 = y * y, q01 = 1.0f / 6.0f - y * (1.0f / 120.0f);
	float q23 = 1.0f / 5040.0f - y * (1.0f / 362880.0f);

	return x - x * y * (q01 + q23 * y2);
}

static void slerp_alone(float out[4], const float a[4], const float b[4], float u)
{
	float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
	float d = fabsf(dot), c = d < INTERP_NLERP_DOT ? d : INTERP_NLERP_DOT;
	bool is_near = !(d <= INTERP_NLERP_DOT);
	float angle = is_near ? -1.0f : interp_acos_unit(c);
	float inv_sin = 1.0f / sqrtf((1.0f - c) * (1.0f + c));
	float x0 = (1.0f - u) * angle, x1 = u * angle, w0, w1, q[4];

	if (is_near) {
		w0 = 1.0f - u;
		w1 = u;
	} else if (angle > RT_SHORT_SINE) {
		w0 = interp_sin_quadrant(x0) * inv_sin;
		w1 = interp_sin_quadrant(x1) * inv_sin;
	} else {
		w0 = sin_short1(x0) * inv_sin;
		w1 = sin_short1(x1) * inv_sin;
	}
	w1 = signbit(dot) ? -w1 : w1;
	for (int k = 0; k < 4; k++)
		q[k] = w0 * a[k] + w1 * b[k];
	float len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
	float scale = is_near && len2 > 0 ? 1.0f / sqrtf(len2) : 1.0f;

	for (int k = 0; k < 4; k++)
		out[k] = q[k] * scale;
}

/* Out of line for the samplers without a context; the playback loop over
 * a context's caches inlines slerps_flush_by instead. */
static void slerps_run(slerps *sl)
{
	slerps_flush_by(sl, false);
}

#if RT_NEWER_DISPATCH
__attribute__((target(RT_NEWER_TARGET))) static void slerps_run_newer(slerps *sl)
{
	slerps_flush_by(sl, false);
}
#endif

/* slerps_run of the build `newer` names (a constant in each build). */
RT_INLINE void slerps_run_by(slerps *sl, bool newer)
{
#if RT_NEWER_DISPATCH
	if (newer) {
		slerps_run_newer(sl);
		return;
	}
#endif
	(void)newer;
	slerps_run(sl);
}

/* ------------------------------------------------------------------ walk */

static const float identity_value[COMPACT_TRACKS][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

static inline float *track_out(animrt_pose *pose, unsigned track, uint32_t slot)
{
	return track == ANIMRT_TRANSLATION ? pose->translation + 3 * (size_t)slot
	       : track == ANIMRT_ROTATION  ? pose->rotation + 4 * (size_t)slot
					   : pose->scale + 3 * (size_t)slot;
}

/* A constant at `p` by its descriptor (FORMAT.md 7.2); returns its bytes. */
static inline size_t decode_constant(const uint8_t *p, uint16_t desc, unsigned track, float *out)
{
	bool is_f32 = desc & COMPACT_DESC_F32(track);

	if (track == ANIMRT_ROTATION) {
		if (is_f32) {
			for (int c = 0; c < 4; c++)
				out[c] = f32_at(p + 4 * c);
			return 16;
		}
		float kept[3];
		for (int c = 0; c < 3; c++)
			kept[c] = compact_u16_to_unit((uint16_t)(p[2 * c] | p[2 * c + 1] << 8));
		compact_rotation_rebuild(kept, COMPACT_DESC_DROPPED(desc), out);
		return 6;
	}
	size_t at = 0;
	for (unsigned c = 0; c < 3; c++) {
		if (track == ANIMRT_TRANSLATION && (desc & COMPACT_DESC_ZERO(c))) {
			out[c] = 0;
		} else if (is_f32) {
			out[c] = f32_at(p + at);
			at += 4;
		} else {
			out[c] = f16_at(p + at);
			at += 2;
		}
	}
	return at;
}

/* Bytes of the constant of `track` by its descriptor. */
static inline size_t constant_size(uint16_t desc, unsigned track)
{
	size_t width = desc & COMPACT_DESC_F32(track) ? 4 : 2;

	if (track == ANIMRT_ROTATION)
		return width == 4 ? 16 : 6;
	if (track == ANIMRT_TRANSLATION)
		return width * (3 - rt_popcount64((desc & COMPACT_DESC_ZEROS) >> 12));
	return 3 * width;
}

/*
 * One bone of the walk into out[track] (NULL: skip, but move on), one
 * track at a time: returns the bone's ANIMRT_TRACK_* bits.  The reference
 * slerps with interp_slerp (is_reference); one bone alone
 * (animrt_clip_sample_bone) four wide, as the whole-clip samplers do.
 */
RT_INLINE uint8_t walk_bone(const rt_packed *pk, walk *wk, uint32_t bone, rt_where at, float *const out[3],
			   bool is_reference, bool has_popcnt)
{
	const uint8_t *p = pk->p;
	uint16_t desc = (uint16_t)(p[pk->descriptors_at + 2 * (size_t)bone] |
				   p[pk->descriptors_at + 2 * (size_t)bone + 1] << 8);
	uint8_t tracks = 0;

	for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
		unsigned kind = COMPACT_DESC_KIND(desc, k);

		if (kind == COMPACT_ABSENT) {
			if (out[k])
				memcpy(out[k], identity_value[k], (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
			continue;
		}
		tracks |= (uint8_t)(1u << k);
		if (kind == COMPACT_IDENTITY) {
			if (out[k])
				memcpy(out[k], identity_value[k], (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
			continue;
		}
		if (kind == COMPACT_CONSTANT) {
			if (out[k])
				wk->constant_at += decode_constant(p + wk->constant_at, desc, k, out[k]);
			else
				wk->constant_at += constant_size(desc, k);
			continue;
		}
		uint32_t a = wk->animated++;
		uint8_t format = p[pk->formats_at + a];
		const uint8_t *range = p + wk->range_at;
		uint32_t ordinal = wk->segmented;

		wk->range_at += compact_range_size(COMPACT_FORMAT_RANGE(format));
		wk->segmented += COMPACT_FORMAT_BITS(format) == COMPACT_SEGMENTED;
		if (!out[k])
			continue;
		rt_track_cache tc;

		unpack_keys_by(pk, a, format, range, ordinal, k == ANIMRT_ROTATION ? COMPACT_DESC_DROPPED(desc) : 0, k,
			       at, &tc, false, has_popcnt);
		float u = cache_weight(&tc, at.local);
		if (!(u > 0)) {
			memcpy(out[k], tc.a, (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
		} else if (k != ANIMRT_ROTATION) {
			interp_lerp3(out[k], tc.a, tc.b, u);
		} else if (is_reference) {
			interp_slerp(out[k], tc.a, tc.b, u);
		} else {
			slerp_alone(out[k], tc.a, tc.b, u);
		}
	}
	return tracks;
}

/* ------------------------------------------------- without a context */

/* A constant translation or scale in f16 (decode_constant), the
 * components a translation leaves out (`zeros`, descriptor bits 12-14
 * shifted down) read as 0 without a branch; returns its bytes. */
RT_INLINE size_t constant3_f16(const uint8_t *p, unsigned zeros, float out[3], bool newer)
{
	unsigned n0 = !(zeros & 1u), n1 = !(zeros & 2u), n2 = !(zeros & 4u);
	float v0 = f16_at_by(p, newer), v1 = f16_at_by(p + 2 * n0, newer), v2 = f16_at_by(p + 2 * (n0 + n1), newer);

	out[0] = n0 ? v0 : 0.0f;
	out[1] = n1 ? v1 : 0.0f;
	out[2] = n2 ? v2 : 0.0f;
	return 2 * (size_t)(n0 + n1 + n2);
}

/* A constant of `track` (decode_constant); returns its bytes. */
RT_INLINE size_t constant_value(const uint8_t *p, uint16_t desc, unsigned track, float *out, bool newer)
{
	if (desc & COMPACT_DESC_F32(track))
		return decode_constant(p, desc, track, out);
	if (track != ANIMRT_ROTATION)
		return constant3_f16(p, track == ANIMRT_TRANSLATION ? (desc & COMPACT_DESC_ZEROS) >> 12 : 0, out, newer);
	float kept[3];
	for (int c = 0; c < 3; c++)
		kept[c] = compact_u16_to_unit((uint16_t)(p[2 * c] | p[2 * c + 1] << 8));
	rebuild_rotation(kept, COMPACT_DESC_DROPPED(desc), out);
	return 6;
}

/* The ANIMRT_TRACK_* bits of a descriptor: the tracks whose kind is not 0. */
static inline uint8_t descriptor_tracks(uint16_t desc)
{
	unsigned t = (unsigned)(desc | desc >> 1);

	return (uint8_t)((t & 1u) | (t >> 1 & 2u) | (t >> 2 & 4u));
}

/* An animated track the first pass met, waiting for the second: where its
 * value goes (NULL: nowhere, but its range and format still count), its
 * track and the component a rotation leaves out. */
typedef struct pending {
	float *out;
	uint8_t track, dropped;
} pending;
#define RT_PENDING 64

/* The second pass: the keys of the animated tracks in `list`, in order. */
RT_INLINE void pending_keys(const rt_packed *pk, walk *wk, const pending *list, uint32_t count, rt_where at,
			    slerps *sl, bool has_popcnt)
{
	const uint8_t *p = pk->p;

	for (uint32_t e = 0; e < count; e++) {
		uint32_t a = wk->animated++;
		uint8_t format = p[pk->formats_at + a];
		const uint8_t *range = p + wk->range_at;
		uint32_t ordinal = wk->segmented;
		unsigned k = list[e].track;
		float *out = list[e].out;

		wk->range_at += compact_range_size(COMPACT_FORMAT_RANGE(format));
		wk->segmented += COMPACT_FORMAT_BITS(format) == COMPACT_SEGMENTED;
		if (!out)
			continue;
		rt_track_cache local, *tc = k == ANIMRT_ROTATION ? &sl->own[sl->count] : &local;
		/* Rotations wait for W until their slerp, which takes four at once. */
		unpack_keys_by(pk, a, format, range, ordinal, list[e].dropped, k, at, tc, true, has_popcnt);
		float u = cache_weight(tc, at.local);
		if (!(u > 0)) {
			if (k == ANIMRT_ROTATION)
				rebuild_deferred(tc->a);
			memcpy(out, tc->a, (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
		} else if (k != ANIMRT_ROTATION) {
			interp_lerp3(out, tc->a, tc->b, u);
		} else {
			uint32_t n = sl->count++;

			sl->tc[n] = tc;
			sl->u[n] = u;
			sl->out[n] = out;
			if (sl->count == 4)
				slerps_run_by(sl, has_popcnt);
		}
	}
}

/*
 * Without a context, four wide: a first pass over the descriptors writes
 * every bone's constants and identity (and identity where a track is
 * animated), and lists the animated tracks; a second pass unpacks their
 * keys.  Two tight loops instead of one that switches on every track.
 */
RT_INLINE void sample_without_context(const rt_packed *pk, rt_where at, const uint32_t *map, animrt_pose *pose,
				      bool has_popcnt)
{
	const uint8_t *p = pk->p, *descs = p + pk->descriptors_at;
	walk wk = { pk->constants_at, pk->ranges_at, 0, 0 };
	pending list[RT_PENDING];
	uint32_t count = 0;
	slerps sl;

	sl.count = 0;
	for (uint32_t b = 0; b < pk->bone_count; b++) {
		uint16_t desc = (uint16_t)(descs[2 * (size_t)b] | descs[2 * (size_t)b + 1] << 8);
		uint32_t slot = map ? map[b] : b;
		unsigned kt = COMPACT_DESC_KIND(desc, 0), kr = COMPACT_DESC_KIND(desc, 1), ks = COMPACT_DESC_KIND(desc, 2);

		if (slot == RT_NO_BONE) {
			for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
				unsigned kind = COMPACT_DESC_KIND(desc, k);

				if (kind == COMPACT_CONSTANT)
					wk.constant_at += constant_size(desc, k);
				else if (kind == COMPACT_ANIMATED)
					list[count++] = (pending){ NULL, (uint8_t)k, 0 };
			}
		} else {
			float *t = pose->translation + 3 * (size_t)slot, *r = pose->rotation + 4 * (size_t)slot;
			float *s = pose->scale + 3 * (size_t)slot;

			pose->tracks[slot] = descriptor_tracks(desc);
			if (kt == COMPACT_CONSTANT) {
				wk.constant_at += constant_value(p + wk.constant_at, desc, ANIMRT_TRANSLATION, t, has_popcnt);
			} else {
				t[0] = t[1] = t[2] = 0.0f;
				if (kt == COMPACT_ANIMATED)
					list[count++] = (pending){ t, ANIMRT_TRANSLATION, 0 };
			}
			if (kr == COMPACT_CONSTANT) {
				wk.constant_at += constant_value(p + wk.constant_at, desc, ANIMRT_ROTATION, r, has_popcnt);
			} else {
				memcpy(r, identity_value[ANIMRT_ROTATION], 4 * sizeof(float));
				if (kr == COMPACT_ANIMATED)
					list[count++] = (pending){ r, ANIMRT_ROTATION, (uint8_t)COMPACT_DESC_DROPPED(desc) };
			}
			if (ks == COMPACT_CONSTANT) {
				wk.constant_at += constant_value(p + wk.constant_at, desc, ANIMRT_SCALE, s, has_popcnt);
			} else {
				s[0] = s[1] = s[2] = 1.0f;
				if (ks == COMPACT_ANIMATED)
					list[count++] = (pending){ s, ANIMRT_SCALE, 0 };
			}
		}
		if (count > RT_PENDING - COMPACT_TRACKS) {
			pending_keys(pk, &wk, list, count, at, &sl, has_popcnt);
			count = 0;
		}
	}
	pending_keys(pk, &wk, list, count, at, &sl, has_popcnt);
	slerps_run_by(&sl, has_popcnt);
}

/* Each build's sampler without a context, out of line: the playback loop
 * over a context's caches keeps its own code as it is. */
RT_OUT_OF_LINE void without_context_baseline(const rt_packed *pk, rt_where at, const uint32_t *map, animrt_pose *pose)
{
	sample_without_context(pk, at, map, pose, false);
}

#if RT_NEWER_DISPATCH
__attribute__((target(RT_NEWER_TARGET))) RT_OUT_OF_LINE void without_context_newer(const rt_packed *pk, rt_where at,
										    const uint32_t *map,
										    animrt_pose *pose)
{
	sample_without_context(pk, at, map, pose, true);
}
#endif

/* without_context_* of the build `newer` names (a constant in each build). */
RT_INLINE void without_context_by(const rt_packed *pk, rt_where at, const uint32_t *map, animrt_pose *pose,
				  bool newer)
{
#if RT_NEWER_DISPATCH
	if (newer) {
		without_context_newer(pk, at, map, pose);
		return;
	}
#endif
	without_context_baseline(pk, at, map, pose);
}

/*
 * What the context needs of the clip through `map`: the pose where nothing
 * moves, and a cache per animated track the pose takes (rotations first,
 * so that they fill the four-wide slerps).
 */
static bool context_plan(animrt_context *ctx, const animrt_clip *clip, const uint32_t *map)
{
	const rt_packed *pk = &clip->compact->packed;
	const uint8_t *p = pk->p;
	uint32_t n = ctx->bone_count;
	float *image = rt_context_image(ctx), *value[3] = { image, image + 3 * (size_t)n, image + 7 * (size_t)n };
	uint8_t *tracks = (uint8_t *)(image + 10 * (size_t)n);
	rt_track_cache *caches = rt_context_caches(ctx);

	for (uint32_t slot = 0; slot < n; slot++) {
		for (unsigned k = 0; k < COMPACT_TRACKS; k++)
			memcpy(value[k] + (k == ANIMRT_ROTATION ? 4 : 3) * (size_t)slot, identity_value[k],
			       (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
		tracks[slot] = 0;
	}
	ctx->track_count = 0;
	for (unsigned pass = 0; pass < 2; pass++) {
		walk wk = { pk->constants_at, pk->ranges_at, 0, 0 };

		if (pass == 1)
			ctx->rotation_count = ctx->track_count;

		for (uint32_t b = 0; b < pk->bone_count; b++) {
			uint16_t desc = (uint16_t)(p[pk->descriptors_at + 2 * (size_t)b] |
						   p[pk->descriptors_at + 2 * (size_t)b + 1] << 8);
			uint32_t slot = map ? map[b] : b;
			bool is_fed = slot < n;

			for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
				unsigned kind = COMPACT_DESC_KIND(desc, k);

				if (is_fed && pass == 0 && kind != COMPACT_ABSENT)
					tracks[slot] |= (uint8_t)(1u << k);
				if (kind == COMPACT_CONSTANT) {
					if (is_fed && pass == 0)
						decode_constant(p + wk.constant_at, desc, k,
								value[k] + (k == ANIMRT_ROTATION ? 4 : 3) * (size_t)slot);
					wk.constant_at += constant_size(desc, k);
				} else if (kind == COMPACT_ANIMATED) {
					uint8_t format = p[pk->formats_at + wk.animated];

					if (is_fed && (k == ANIMRT_ROTATION) == (pass == 0)) {
						if (ctx->track_count == ctx->track_capacity)
							return false;
						rt_track_cache *tc = &caches[ctx->track_count++];

						memset(tc, 0, sizeof *tc);
						tc->animated = wk.animated;
						tc->format = format;
						tc->range_at = (uint32_t)wk.range_at;
						tc->ordinal = wk.segmented;
						tc->dropped = (uint8_t)(k == ANIMRT_ROTATION ? COMPACT_DESC_DROPPED(desc) : 0);
						tc->segment = RT_NO_SEGMENT;
						tc->dq_segment = RT_NO_SEGMENT;
						tc->track = (uint8_t)k;
						tc->slot = slot;
					}
					wk.animated++;
					wk.range_at += compact_range_size(COMPACT_FORMAT_RANGE(format));
					wk.segmented += COMPACT_FORMAT_BITS(format) == COMPACT_SEGMENTED;
				}
			}
		}
	}
	return true;
}

bool animrt_rt_context_follow(animrt_context *ctx, const animrt_clip *clip, const uint32_t *map, uint64_t map_serial)
{
	if (!ctx || rt_context_is_on(ctx, clip, map, map_serial))
		return true;
	animrt_context_reset(ctx);
	if (clip->compact && clip->compact->is_packed &&
	    (rt_is_v3(clip) ? !animrt_rt_v3_context_plan(ctx, clip, map) : !context_plan(ctx, clip, map))) {
		animrt_context_reset(ctx);
		return false;
	}
	ctx->clip = clip;
	ctx->map = map;
	ctx->clip_serial = rt_clip_serial(clip);
	ctx->map_serial = map_serial;
	return true;
}

uint32_t animrt_clip_context_tracks(const animrt_clip *clip)
{
	return clip && clip->compact && clip->compact->is_packed ? clip->compact->packed.animated_count : 0;
}

/* With a context: the still pose copied, then the animated tracks. */
RT_INLINE void sample_with_context(const rt_packed *pk, rt_where at, animrt_context *ctx, animrt_pose *pose,
				   bool is_reference, bool has_popcnt)
{
	uint32_t n = pose->bone_count, stride = ctx->bone_count;
	const float *image = rt_context_image(ctx);
	rt_track_cache *caches = rt_context_caches(ctx);
	slerps sl;

	if (!n)
		return;   /* a pose of no bones has no arrays (animrt_pose_init) */
	memcpy(pose->translation, image, (size_t)n * 3 * sizeof(float));
	memcpy(pose->rotation, image + 3 * (size_t)stride, (size_t)n * 4 * sizeof(float));
	memcpy(pose->scale, image + 7 * (size_t)stride, (size_t)n * 3 * sizeof(float));
	memcpy(pose->tracks, image + 10 * (size_t)stride, n);
	sl.count = 0;
	uint32_t e = 0;
	if (!is_reference) {
		/* The rotations four at a time: their weights as one division,
		 * the slerp (key a where the weight is 0) as one. */
		uint32_t rotations = ctx->rotation_count < ctx->track_count ? ctx->rotation_count : ctx->track_count;
		rt_f4 vlocal = rt_set1(at.local);

		for (; e < rotations; e++) {
			rt_track_cache *tc = &caches[e];

			if (tc->slot >= n) {
				/* Not in this pose; the last one still ends the group. */
				if (!sl.count || e + 1 < rotations)
					continue;
			} else {
				if (!cache_holds(tc, at))
					context_unpack(pk, tc, ANIMRT_ROTATION, at, has_popcnt);
				sl.tc[sl.count] = tc;
				sl.out[sl.count] = pose->rotation + 4 * (size_t)tc->slot;
				if (++sl.count < 4 && e + 1 < rotations)
					continue;
			}
			uint8_t k0[4], k1[4];
			for (uint32_t lane = 0; lane < 4; lane++) {
				const rt_track_cache *g = sl.tc[lane < sl.count ? lane : 0];

				k0[lane] = g->k0;
				k1[lane] = g->k1;
			}
			rt_i4 k1i = rt_bytes(k1);
			rt_f4 fk0 = rt_to_float(rt_bytes(k0)), fk1 = rt_to_float(k1i);
			rt_store(sl.u, rt_select(rt_eq_i(k1i, RT_HOLD), rt_set1(0.0f),
						 rt_div(rt_sub(vlocal, fk0), rt_sub(fk1, fk0))));
			slerps_flush_by(&sl, true);
		}
	}
	for (; e < ctx->track_count; e++) {
		rt_track_cache *tc = &caches[e];
		unsigned k = tc->track;

		if (tc->slot >= n)
			continue;
		float *out = track_out(pose, k, tc->slot);

		if (!cache_holds(tc, at))
			context_unpack(pk, tc, k, at, has_popcnt);
		float u = cache_weight(tc, at.local);
		if (!(u > 0)) {
			memcpy(out, tc->a, (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
		} else if (k != ANIMRT_ROTATION) {
			interp_lerp3(out, tc->a, tc->b, u);
		} else if (is_reference) {
			interp_slerp(out, tc->a, tc->b, u);
		} else {
			uint32_t i = sl.count++;

			sl.tc[i] = tc;
			sl.u[i] = u;
			sl.out[i] = out;
			if (sl.count == 4)
				slerps_flush_by(&sl, true);
		}
	}
	slerps_flush_by(&sl, true);
}

RT_INLINE void sample_packed(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_context *ctx,
			     animrt_pose *pose, bool is_reference, bool has_popcnt)
{
	const rt_packed *pk = &clip->compact->packed;
	rt_where at = animrt_rt_grid_locate(clip->compact, local_s);
	walk wk = { pk->constants_at, pk->ranges_at, 0, 0 };

	if (ctx) {
		sample_with_context(pk, at, ctx, pose, is_reference, has_popcnt);
		return;
	}
	if (!is_reference) {
		without_context_by(pk, at, map, pose, has_popcnt);
		return;
	}
	/* The reference: one bone, one track at a time. */
	for (uint32_t b = 0; b < pk->bone_count; b++) {
		uint32_t slot = map ? map[b] : b;
		float *none[3] = { NULL, NULL, NULL };

		if (slot == RT_NO_BONE) {
			walk_bone(pk, &wk, b, at, none, true, has_popcnt);
			continue;
		}
		float *out[3] = { pose->translation + 3 * (size_t)slot, pose->rotation + 4 * (size_t)slot,
				  pose->scale + 3 * (size_t)slot };
		pose->tracks[slot] = walk_bone(pk, &wk, b, at, out, true, has_popcnt);
	}
}

void animrt_rt_sample_packed_baseline(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_context *ctx,
			       animrt_pose *pose, bool is_reference)
{
	if (rt_is_v3(clip) && ctx) {
		animrt_rt_v3_sample_context(clip, local_s, ctx, pose, is_reference);
		return;
	}
	if (rt_is_v3(clip)) {
		(is_reference ? animrt_rt_sample_v3 : animrt_rt_sample_v3_four)(clip, local_s, map, pose);
		return;
	}
	sample_packed(clip, local_s, map, ctx, pose, is_reference, false);
}

#if RT_NEWER_DISPATCH
__attribute__((target(RT_NEWER_TARGET))) static void sample_packed_newer(const animrt_clip *clip, float local_s,
									 const uint32_t *map, animrt_context *ctx,
									 animrt_pose *pose, bool is_reference)
{
	sample_packed(clip, local_s, map, ctx, pose, is_reference, true);
}

/* Does the processor have what RT_NEWER_TARGET names, and does the system
 * keep the AVX registers (XCR0 bits 1 and 2)?  Asked once; racing first
 * callers store the same answer. */
static bool cpu_is_newer(void)
{
	static atomic_int known;   /* 0 not asked yet, 1 no, 2 yes */
	int k = atomic_load_explicit(&known, memory_order_relaxed);

	if (!k) {
		unsigned a, b, c, d, lo = 0, hi = 0;
		bool yes = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_POPCNT) && (c & bit_AVX) && (c & bit_OSXSAVE) &&
			   (c & bit_F16C);

		if (yes) {
			__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
			yes = (lo & 6u) == 6u;
		}
		yes = yes && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2) && (b & bit_BMI) &&
		      (b & bit_BMI2);
		yes = yes && __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c & bit_LZCNT);
		k = yes ? 2 : 1;
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k == 2;
}
#endif

void animrt_rt_sample_packed(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_context *ctx,
		      animrt_pose *pose, bool is_reference)
{
#if RT_NEWER_DISPATCH && RT_SIMD_SSE2
	if (rt_is_v3(clip) && !ctx && !is_reference && cpu_is_newer()) {
		animrt_rt_sample_v3_newer(clip, local_s, map, pose);
		return;
	}
#endif
#if RT_NEWER_DISPATCH
	if (cpu_is_newer() && !rt_is_v3(clip)) {
		sample_packed_newer(clip, local_s, map, ctx, pose, is_reference);
		return;
	}
#endif
	animrt_rt_sample_packed_baseline(clip, local_s, map, ctx, pose, is_reference);
}

/* ------------------------------------------------------------ one bone */

/* The first of caches [from, to) (ascending slots) whose slot is `slot`
 * or past it. */
static uint32_t first_cache_of(const rt_track_cache *caches, uint32_t from, uint32_t to, uint32_t slot)
{
	while (from < to) {
		uint32_t mid = from + (to - from) / 2;

		if (caches[mid].slot < slot)
			from = mid + 1;
		else
			to = mid;
	}
	return from;
}

/* One bone from a context following the clip: its still values, then its
 * animated tracks from their caches (rotations first, then the others;
 * each run in slot order). */
static uint8_t bone_with_context(const rt_packed *pk, uint32_t sequence, rt_where at, animrt_context *ctx,
				 float *const out[3])
{
	const float *image = rt_context_image(ctx);
	size_t stride = ctx->bone_count;
	const float *still[3] = { image + 3 * (size_t)sequence, image + 3 * stride + 4 * (size_t)sequence,
				  image + 7 * stride + 3 * (size_t)sequence };
	rt_track_cache *caches = rt_context_caches(ctx);
	uint32_t rotations = ctx->rotation_count < ctx->track_count ? ctx->rotation_count : ctx->track_count;
	uint32_t runs[2][2] = { { 0, rotations }, { rotations, ctx->track_count } };

	for (unsigned k = 0; k < COMPACT_TRACKS; k++)
		if (out[k])
			memcpy(out[k], still[k], (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
	for (unsigned r = 0; r < 2; r++)
		for (uint32_t e = first_cache_of(caches, runs[r][0], runs[r][1], sequence);
		     e < runs[r][1] && caches[e].slot == sequence; e++) {
			rt_track_cache *tc = &caches[e];
			unsigned k = tc->track;

			if (!out[k])
				continue;
			if (!cache_holds(tc, at))
				context_unpack(pk, tc, k, at, false);
			float u = cache_weight(tc, at.local);
			if (!(u > 0))
				memcpy(out[k], tc->a, (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
			else if (k != ANIMRT_ROTATION)
				interp_lerp3(out[k], tc->a, tc->b, u);
			else
				slerp_alone(out[k], tc->a, tc->b, u);
		}
	return ((const uint8_t *)(image + 10 * stride))[sequence];
}

static walk walk_to(const rt_packed *pk, uint32_t sequence);

uint8_t animrt_rt_packed_sample_bone(const animrt_clip *clip, uint32_t sequence, float local_s, animrt_context *ctx,
			      float *const out[3])
{
	const rt_packed *pk = &clip->compact->packed;
	rt_where at = animrt_rt_grid_locate(clip->compact, local_s);

	if (rt_is_v3(clip))
		return animrt_rt_v3_sample_bone(clip, sequence, local_s, out);
	if (ctx)
		return bone_with_context(pk, sequence, at, ctx, out);
	walk wk = walk_to(pk, sequence);
	return walk_bone(pk, &wk, sequence, at, out, false, false);
}

/* ------------------------------------------------------- reading back */

/* The walk's position at `sequence`'s bone: constants, ranges, animated
 * and segmented tracks of the bones before it. */
static walk walk_to(const rt_packed *pk, uint32_t sequence)
{
	walk wk = { pk->constants_at, pk->ranges_at, 0, 0 };
	rt_where at = { 0, 0 };
	float *none[3] = { NULL, NULL, NULL };

	for (uint32_t b = 0; b < sequence; b++)
		walk_bone(pk, &wk, b, at, none, true, false);
	return wk;
}

uint32_t animrt_rt_packed_track_keys(const animrt_clip *clip, uint32_t sequence, unsigned track, uint32_t first,
			      uint32_t capacity, float *times_s, float *values)
{
	const rt_packed *pk = &clip->compact->packed;

	if (rt_is_v3(clip))
		return animrt_rt_v3_track_keys(clip, sequence, track, first, capacity, times_s, values);
	if (sequence >= pk->bone_count || track > ANIMRT_SCALE)
		return 0;
	const uint8_t *p = pk->p;
	uint16_t desc = (uint16_t)(p[pk->descriptors_at + 2 * (size_t)sequence] |
				   p[pk->descriptors_at + 2 * (size_t)sequence + 1] << 8);
	if (COMPACT_DESC_KIND(desc, track) != COMPACT_ANIMATED)
		return 0;
	walk wk = walk_to(pk, sequence);
	for (unsigned k = 0; k < track; k++)
		if (COMPACT_DESC_KIND(desc, k) == COMPACT_ANIMATED) {
			uint8_t f = p[pk->formats_at + wk.animated++];

			wk.range_at += compact_range_size(COMPACT_FORMAT_RANGE(f));
			wk.segmented += COMPACT_FORMAT_BITS(f) == COMPACT_SEGMENTED;
		}
	uint32_t a = wk.animated, total = 0, written = 0, key = 0;
	uint8_t format = p[pk->formats_at + a];
	unsigned width = track == ANIMRT_ROTATION ? 4 : 3;

	for (uint32_t s = 0; s < pk->segment_count; s++)
		total += rt_popcount64(track_mask(pk, a, s));
	if (!times_s && !values)
		return total;
	for (uint32_t s = 0; s < pk->segment_count && written < capacity; s++) {
		uint64_t m = track_mask(pk, a, s);
		dequant d;

		segment_dequant(pk, format, p + wk.range_at, wk.segmented,
				track == ANIMRT_ROTATION ? COMPACT_DESC_DROPPED(desc) : 0, s, &d);
		uint64_t bit = pk->key_at[(size_t)a * pk->segment_count + s];
		for (; m && written < capacity; key++, bit += d.key_bits) {
			uint32_t i = rt_ctz64(m);
			float v[4];

			m &= m - 1;
			if (key < first)
				continue;
			if (times_s)
				times_s[written] = (float)((double)((s << COMPACT_SEGMENT_SHIFT) + i) / pk->rate_hz);
			if (values) {
				decode_key(pk, &d, bit, track, v);
				memcpy(values + (size_t)written * width, v, width * sizeof(float));
			}
			written++;
		}
	}
	return total;
}

const char *animrt_rt_packed_bone_name(const animrt_clip *clip, uint32_t sequence, uint32_t *size)
{
	const rt_packed *pk = &clip->compact->packed;
	const char *name = (const char *)pk->p + pk->names_at;

	if (sequence >= pk->bone_count)
		return NULL;
	for (uint32_t b = 0; b < sequence; b++)
		name += strlen(name) + 1;
	if (size)
		*size = (uint32_t)strlen(name);
	return name;
}
