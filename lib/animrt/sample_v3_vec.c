/*
 * sample_v3_vec.c - clips of reader version 3 sampled in place four tracks
 * at a time with the vector instructions every processor of its
 * architecture has (simd.h: SSE2 on x86-64, NEON on AArch64, plain C
 * arrays elsewhere): what sample_v3_simd.c does with AVX2, BMI2, LZCNT and
 * F16C, with the bit work (masks, key offsets, shifts by each lane's own
 * count, half floats) lane by lane in integer registers, and the ranges,
 * steps, keys, rebuilt rotations and interpolation four wide.  Every float
 * operation is the one the plain C sampler (sample_v3.c) performs, in the
 * same order, so both give the same bits.  Groups with float32 keys go to
 * the plain C lanes.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "simd.h"

/* How a record's keys decode: per component, the lanes' min and step; per
 * lane its components' bits, key bits and left-out component. */
typedef struct v4_dec {
	rt_f4 min[3], step[3];
	const uint8_t *keys;
	unsigned cb[RT_LANES][3], kb[RT_LANES], dropped[RT_LANES];
} v4_dec;

/* One group's record in a segment and the keys around the time in it. */
typedef struct v4_work {
	const uint8_t *rec;
	compact3_shape sh;
	uint32_t g, offa[RT_LANES], offb[RT_LANES], k0[RT_LANES], k1[RT_LANES], next;
	v4_dec d;
} v4_work;

static uint64_t v4_load_le64(const uint8_t *p)
{
	uint64_t v = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, 8);
#else
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
#endif
	return v;
}

static rt_f4 v4_u8(const uint8_t *p)
{
	return rt_to_float(rt_bytes(p));
}

/* Four lanes from scalars (in registers: no store and reload). */
static inline rt_f4 v4_setf(float a, float b, float c, float d)
{
#if RT_SIMD_SSE2
	return _mm_setr_ps(a, b, c, d);
#else
	float v[RT_LANES] = { a, b, c, d };

	return rt_load(v);
#endif
}

/* Four lanes' little-endian floats from memory in any alignment. */
static rt_f4 v4_f32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	float v[4];

	memcpy(v, p, sizeof v);
	return rt_load(v);
#else
	return v4_setf(xnb_get_f32(p), xnb_get_f32(p + 4), xnb_get_f32(p + 8), xnb_get_f32(p + 12));
#endif
}

/* Four int32 lanes as floats. */
static inline rt_f4 v4_seti(int32_t a, int32_t b, int32_t c, int32_t d)
{
#if RT_SIMD_SSE2
	return _mm_cvtepi32_ps(_mm_setr_epi32(a, b, c, d));
#elif RT_SIMD_NEON
	int32_t v[RT_LANES] = { a, b, c, d };

	return vcvtq_f32_s32(vld1q_s32(v));
#else
	return v4_setf((float)a, (float)b, (float)c, (float)d);
#endif
}

/* Half floats of the lanes in use (compact_f16_to_f32, exact), 0 past
 * them: a normal half's magnitude bits moved to a float's place and scaled
 * by 2^112, a subnormal one's mantissa times 2^-24 (no operand is a
 * subnormal float, so a caller's denormals-are-zero mode changes nothing),
 * the sign put back; infinite and NaN halves (never in a range the writer
 * makes) one by one. */
static rt_f4 v4_f16(const uint8_t *p, uint32_t used)
{
	uint32_t h[RT_LANES], odd = 0;

	for (uint32_t l = 0; l < RT_LANES; l++) {
		h[l] = l < used ? (uint32_t)(p[2 * l] | p[2 * l + 1] << 8) : 0;
		odd |= (h[l] & 0x7C00u) == 0x7C00u;
	}
	if (odd)
		return v4_setf(compact_f16_to_f32((uint16_t)h[0]), compact_f16_to_f32((uint16_t)h[1]),
			       compact_f16_to_f32((uint16_t)h[2]), compact_f16_to_f32((uint16_t)h[3]));
#if RT_SIMD_SSE2
	__m128i v = _mm_setr_epi32((int)h[0], (int)h[1], (int)h[2], (int)h[3]), z = _mm_setzero_si128();
	__m128i is_sub = _mm_cmpeq_epi32(_mm_and_si128(v, _mm_set1_epi32(0x7C00)), z);
	__m128i mag = _mm_slli_epi32(_mm_and_si128(v, _mm_set1_epi32(0x7FFF)), 13);
	__m128 normal = _mm_castsi128_ps(_mm_andnot_si128(is_sub, mag));
	__m128 sub = _mm_cvtepi32_ps(_mm_and_si128(is_sub, _mm_and_si128(v, _mm_set1_epi32(0x3FF))));
	__m128 sign = _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(v, _mm_set1_epi32(0x8000)), 16));
#elif RT_SIMD_NEON
	uint32x4_t v = vld1q_u32(h), is_sub = vceqq_u32(vandq_u32(v, vdupq_n_u32(0x7C00)), vdupq_n_u32(0));
	uint32x4_t mag = vshlq_n_u32(vandq_u32(v, vdupq_n_u32(0x7FFF)), 13);
	float32x4_t normal = vreinterpretq_f32_u32(vbicq_u32(mag, is_sub));
	float32x4_t sub = vcvtq_f32_u32(vandq_u32(is_sub, vandq_u32(v, vdupq_n_u32(0x3FF))));
	float32x4_t sign = vreinterpretq_f32_u32(vshlq_n_u32(vandq_u32(v, vdupq_n_u32(0x8000)), 16));
#else
	rt_f4 normal, sub, sign;

	for (int l = 0; l < RT_LANES; l++) {
		uint32_t e = h[l] & 0x7C00u, n = e ? (h[l] & 0x7FFFu) << 13 : 0, sg = (h[l] & 0x8000u) << 16;

		memcpy(&normal.v[l], &n, 4);
		memcpy(&sign.v[l], &sg, 4);
		sub.v[l] = (float)(e ? 0 : h[l] & 0x3FFu);
	}
#endif
	return rt_xor(rt_add(rt_mul(normal, rt_set1(0x1p112f)), rt_mul(sub, rt_set1(0x1p-24f))), sign);
}

/* The group range of component c, four lanes (compact3_lane_range's
 * operations; lanes past `used` hold what follows, never used). */
static void v4_range(const uint8_t *r, unsigned f, uint32_t used, uint32_t c, rt_f4 *min, rt_f4 *ext)
{
	size_t i = (size_t)c * used, n = (size_t)3 * used;
	rt_f4 q = rt_set1(1.0f / 128.0f);

	switch (COMPACT3_FORMAT_RANGE(f)) {
	case COMPACT3_RANGE_NONE:
		*min = rt_set1(-1.0f);
		*ext = rt_set1(2.0f);
		break;
	case COMPACT3_RANGE_U8:
		*min = rt_add(rt_set1(-1.0f), rt_mul(v4_u8(r + i), q));
		*ext = rt_mul(rt_add(v4_u8(r + n + i), rt_set1(1.0f)), q);
		break;
	case COMPACT3_RANGE_F16:
		*min = v4_f16(r + 2 * i, used);
		*ext = v4_f16(r + 2 * (n + i), used);
		break;
	default:
		*min = v4_f32(r + 4 * i);
		*ext = v4_f32(r + 4 * (n + i));
		break;
	}
}

/* How record `rec` of group g decodes (compact3_lane_decode, four lanes). */
static void v4_dec_of(const struct animrt_compact *c, uint32_t g, const uint8_t *rec, const compact3_shape *sh,
		      v4_dec *d)
{
	unsigned f = c->v3.format[g];
	const uint8_t *range = c->packed.p + c->v3.range_at[g];
	float e[3][RT_LANES], inv[3][RT_LANES];
	rt_f4 ext[3];

	for (uint32_t k = 0; k < 3; k++) {
		v4_range(range, f, sh->used, k, &d->min[k], &ext[k]);
		if (f & COMPACT3_FORMAT_SUB) {
			rt_f4 q = rt_set1(1.0f / 256.0f), m = v4_u8(rec + sh->sub_at + k * sh->used);
			rt_f4 x = v4_u8(rec + sh->sub_at + (3 + k) * sh->used);

			d->min[k] = rt_add(d->min[k], rt_mul(ext[k], rt_mul(m, q)));
			ext[k] = rt_mul(ext[k], rt_mul(rt_add(x, rt_set1(1.0f)), q));
		}
		rt_store(e[k], ext[k]);
	}
	for (uint32_t l = 0; l < RT_LANES; l++) {
		float x[3] = { e[0][l], e[1][l], e[2][l] };
		bool used = l < sh->used;

		d->kb[l] = used ? compact_component_bits(COMPACT3_CODE_BITS(rec[l]), x, d->cb[l]) : 0;
		d->dropped[l] = used ? COMPACT3_CODE_DROPPED(rec[l]) : 0;
		for (int k = 0; k < 3; k++) {
			d->cb[l][k] = used ? d->cb[l][k] : 0;
			inv[k][l] = used ? compact_step(1.0f, d->cb[l][k]) : 0;
		}
	}
	for (int k = 0; k < 3; k++)
		d->step[k] = rt_mul(ext[k], v4_setf(inv[k][0], inv[k][1], inv[k][2], inv[k][3]));
	d->keys = rec + sh->keys_at;
}

/* The keys at bit offsets off[4] (from d->keys), dequantised: x y z rows.
 * A key's 3 x 19 bits after a shift of up to 7 fit one 8-byte load. */
static void v4_keys(const v4_dec *d, const uint32_t off[RT_LANES], rt_f4 out[3])
{
	int32_t q[3][RT_LANES];

	for (uint32_t l = 0; l < RT_LANES; l++) {
		uint64_t v = v4_load_le64(d->keys + (off[l] >> 3)) >> (off[l] & 7);

		for (int k = 0; k < 3; k++) {
			q[k][l] = (int32_t)(v & (((uint64_t)1 << d->cb[l][k]) - 1));
			v >>= d->cb[l][k];
		}
	}
	for (int k = 0; k < 3; k++)
		out[k] = rt_add(d->min[k], rt_mul(v4_seti(q[k][0], q[k][1], q[k][2], q[k][3]), d->step[k]));
}

/* W rebuilt four wide (compact_rotation_rebuild), each lane's left-out
 * component placed back. */
static void v4_rebuild(const rt_f4 k[3], const unsigned dropped[RT_LANES], rt_f4 q[4])
{
	rt_f4 one = rt_set1(1.0f), dl = v4_seti((int32_t)dropped[0], (int32_t)dropped[1], (int32_t)dropped[2],
						 (int32_t)dropped[3]);
	rt_f4 n = rt_add(rt_add(rt_mul(k[0], k[0]), rt_mul(k[1], k[1])), rt_mul(k[2], k[2]));
	rt_f4 r = rt_select(rt_lt(n, one), rt_sqrt(rt_sub(one, n)), rt_set1(0.0f));
	rt_f4 is0 = rt_lt(dl, rt_set1(0.5f)), upto1 = rt_lt(dl, rt_set1(1.5f)), upto2 = rt_lt(dl, rt_set1(2.5f));

	q[0] = rt_select(is0, r, k[0]);
	q[1] = rt_select(is0, k[0], rt_select(upto1, r, k[1]));
	q[2] = rt_select(upto1, k[1], rt_select(upto2, r, k[2]));
	q[3] = rt_select(upto2, k[2], r);
}

static const uint8_t *v4_record(const struct animrt_compact *c, uint32_t g, uint32_t s, compact3_shape *sh)
{
	*sh = compact3_shape_of(compact3_rows(c->sample_count, s), c->groups[g].used, c->v3.format[g]);
	return c->packed.p + c->v3.records_at + c->v3.record_at[(size_t)s * c->group_count + g];
}

/* Lane l's key mask in a record (compact3_mask by one 8-byte load; 1 for
 * a lane past `used`: its key 0). */
static uint64_t v4_mask(const uint8_t *rec, const compact3_shape *sh, uint32_t l)
{
	uint64_t m = v4_load_le64(rec + sh->masks_at + sh->mask_bytes * l);

	if (sh->mask_bytes < 8)
		m &= ((uint64_t)1 << (8 * sh->mask_bytes)) - 1;
	return l < sh->used ? m : 1;
}

/* Group g's record of segment s, how it decodes, and per lane where the
 * keys around `local` are (lane_sample's popcounts and bit scans). */
static void v4_find(const struct animrt_compact *c, uint32_t g, uint32_t s, float local, v4_work *w)
{
	uint32_t i = (uint32_t)local, base = 0;

	w->g = g;
	w->rec = v4_record(c, g, s, &w->sh);
	v4_dec_of(c, g, w->rec, &w->sh, &w->d);
	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
	w->next = 0;
	for (uint32_t l = 0; l < RT_LANES; l++) {
		uint64_t m = v4_mask(w->rec, &w->sh, l), below = m & upto, above = m & ~upto;
		uint32_t kb = w->d.kb[l];

		w->offa[l] = base + (rt_popcount64(below) - 1) * kb;
		base += rt_popcount64(m) * kb;
		w->k0[l] = 63 - rt_clz64(below);
		w->k1[l] = above ? rt_ctz64(above) : COMPACT_SEGMENT_SAMPLES;
		w->offb[l] = above ? w->offa[l] + kb : w->offa[l];
		w->next |= (uint32_t)!above << l;
	}
}

/* Key b of the lanes whose next key is segment s + 1's first, into kb3
 * (their left-out components into dropped_b). */
static void v4_next_keys(const struct animrt_compact *c, uint32_t s, const v4_work *w, rt_f4 kb3[3],
			 unsigned dropped_b[RT_LANES])
{
	compact3_shape sh;
	const uint8_t *rn = v4_record(c, w->g, s + 1, &sh);
	uint32_t offn[RT_LANES], nb = 0;
	v4_dec dn;
	rt_f4 kn[3];

	v4_dec_of(c, w->g, rn, &sh, &dn);
	for (uint32_t l = 0; l < RT_LANES; l++) {
		offn[l] = nb;
		nb += l < sh.used ? rt_popcount64(v4_mask(rn, &sh, l)) * dn.kb[l] : 0;
		dropped_b[l] = (w->next >> l & 1) ? dn.dropped[l] : dropped_b[l];
	}
	v4_keys(&dn, offn, kn);
	uint32_t x = w->next;
	rt_f4 is_next = rt_gt(v4_seti(x & 1, x >> 1 & 1, x >> 2 & 1, x >> 3 & 1), rt_set1(0.0f));
	for (int k = 0; k < 3; k++)
		kb3[k] = rt_select(is_next, kn[k], kb3[k]);
}

/* The keys around the time unpacked (the next segment's first where a
 * lane needs it), W rebuilt, and the weights u (0 where the last key
 * holds). */
static void v4_keys_around(const struct animrt_compact *c, uint32_t s, float local, v4_work *w, rt_f4 a[4],
			   rt_f4 b[4], rt_f4 *pu)
{
	rt_f4 ka[3], kb3[3];
	unsigned dropped_b[RT_LANES];
	int32_t k1[RT_LANES];
	bool has_next = s + 1 < c->segment_count;
	uint32_t hold = has_next ? 0 : w->next;

	memcpy(dropped_b, w->d.dropped, sizeof dropped_b);
	v4_keys(&w->d, w->offa, ka);
	v4_keys(&w->d, w->offb, kb3);
	if (w->next && has_next)
		v4_next_keys(c, s, w, kb3, dropped_b);
	for (uint32_t l = 0; l < RT_LANES; l++)
		k1[l] = (int32_t)((hold >> l & 1) ? w->k0[l] + 1 : w->k1[l]);
	rt_f4 k0 = v4_seti((int32_t)w->k0[0], (int32_t)w->k0[1], (int32_t)w->k0[2], (int32_t)w->k0[3]);
	rt_f4 u = rt_div(rt_sub(rt_set1(local), k0), rt_sub(v4_seti(k1[0], k1[1], k1[2], k1[3]), k0));
	rt_f4 is_held = rt_gt(v4_seti(hold & 1, hold >> 1 & 1, hold >> 2 & 1, hold >> 3 & 1), rt_set1(0.0f));

	*pu = rt_select(is_held, rt_set1(0.0f), u);
	if (c->groups[w->g].kind == ANIMRT_ROTATION) {
		v4_rebuild(ka, w->d.dropped, a);
		v4_rebuild(kb3, dropped_b, b);
		return;
	}
	for (int k = 0; k < 3; k++) {
		a[k] = ka[k];
		b[k] = kb3[k];
	}
	a[3] = b[3] = rt_set1(0.0f);
}

/* interp_slerp four wide, key a where u is not above 0 (lane_sample): the
 * same operations in the same order, 1 / sin(angle) by a division, the
 * sine's last term left out where no lane's angle needs it (RT_SHORT_SINE). */
static void v4_slerp(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 dot = rt_add(rt_add(rt_add(rt_mul(a[0], b[0]), rt_mul(a[1], b[1])), rt_mul(a[2], b[2])),
			   rt_mul(a[3], b[3]));
	rt_f4 one = rt_set1(1.0f), zero = rt_set1(0.0f), near_dot = rt_set1(0.999999f), d = rt_abs(dot);
	rt_f4 c = rt_select(rt_lt(d, near_dot), d, near_dot);
	rt_f4 angle = rt_acos_unit(c), inv_sin = rt_div(one, rt_sqrt(rt_mul(rt_sub(one, c), rt_add(one, c))));
	rt_f4 x0 = rt_mul(rt_sub(one, u), angle), x1 = rt_mul(u, angle);
	bool full = rt_any(rt_gt(angle, rt_set1(RT_SHORT_SINE)));
	rt_f4 s0 = rt_mul(full ? rt_sin_quadrant(x0) : rt_sin_short(x0), inv_sin);
	rt_f4 s1 = rt_mul(full ? rt_sin_quadrant(x1) : rt_sin_short(x1), inv_sin);
	rt_f4 is_near = rt_not(rt_le(d, near_dot)), sign = rt_select(rt_lt(dot, zero), rt_set1(-1.0f), one);
	rt_f4 w0 = rt_select(is_near, rt_sub(one, u), s0), w1 = rt_mul(sign, rt_select(is_near, u, s1));
	rt_f4 q[4], keep = rt_not(rt_gt(u, zero));

	for (int k = 0; k < 4; k++)
		q[k] = rt_add(rt_mul(w0, a[k]), rt_mul(w1, b[k]));
	if (rt_any(is_near)) {
		rt_f4 len2 = rt_add(rt_add(rt_add(rt_mul(q[0], q[0]), rt_mul(q[1], q[1])), rt_mul(q[2], q[2])),
				    rt_mul(q[3], q[3]));
		rt_f4 scale = rt_select(rt_and(is_near, rt_gt(len2, zero)), rt_div(one, rt_sqrt(len2)), one);

		for (int k = 0; k < 4; k++)
			q[k] = rt_mul(q[k], scale);
	}
	for (int k = 0; k < 4; k++)
		out[k] = rt_select(keep, a[k], q[k]);
}

/* interp_lerp3 four wide, key a where u is not above 0. */
static void v4_lerp(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 keep = rt_not(rt_gt(u, rt_set1(0.0f)));

	for (int k = 0; k < 3; k++)
		out[k] = rt_select(keep, a[k], rt_add(a[k], rt_mul(rt_sub(b[k], a[k]), u)));
	out[3] = a[3];
}

/* The lanes' results into the pose through `map`. */
static void v4_out(const rt_group *gr, rt_f4 out[4], const uint32_t *map, animrt_pose *pose)
{
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

static void v4_group(const struct animrt_compact *c, uint32_t g, rt_where at, const uint32_t *map,
		     animrt_pose *pose)
{
	v4_work w;
	rt_f4 a[4], b[4], u, out[4];

	v4_find(c, g, at.segment, at.local, &w);
	v4_keys_around(c, at.segment, at.local, &w, a, b, &u);
	if (c->groups[g].kind == ANIMRT_ROTATION)
		v4_slerp(a, b, u, out);
	else
		v4_lerp(a, b, u, out);
	v4_out(&c->groups[g], out, map, pose);
}

/* ---------------------------------------------------- the still pose */

/* Bone b's constant of track k at p into out (sample_v3.c's constant_at;
 * the translation's left-out components already 0); returns its bytes. */
static size_t v4_constant(const uint8_t *p, uint16_t desc, unsigned k, float *out)
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
		if (k == ANIMRT_TRANSLATION && (desc & COMPACT_DESC_ZERO(c)))
			continue;
		if (is_f32)
			out[c] = xnb_get_f32(p + n);
		else
			out[c] = compact_f16_to_f32((uint16_t)(p[n] | p[n + 1] << 8));
		n += is_f32 ? 4 : 2;
	}
	return n;
}

/* The still pose without a map (animrt_rt_v3_still): identity by four-wide
 * stores, then each bone's track bits and constants from its descriptor. */
static void v4_still(const rt_packed *pk, animrt_pose *pose)
{
	size_t n = pk->bone_count, i = 0, at = pk->constants_at;
	rt_f4 zero = rt_set1(0.0f), one = rt_set1(1.0f), unit;
	const float w[4] = { 0, 0, 0, 1 };

	unit = rt_load(w);
	for (; i + 4 <= 3 * n; i += 4) {
		rt_store(pose->translation + i, zero);
		rt_store(pose->scale + i, one);
	}
	for (; i < 3 * n; i++) {
		pose->translation[i] = 0;
		pose->scale[i] = 1;
	}
	for (size_t b = 0; b < n; b++)
		rt_store(pose->rotation + 4 * b, unit);
	for (size_t b = 0; b < n; b++) {
		const uint8_t *d = pk->p + pk->descriptors_at + 2 * b;
		uint16_t desc = (uint16_t)(d[0] | d[1] << 8);
		/* Kind k in bits 2k, 2k + 1: present where either is set,
		 * constant where the high one alone is (COMPACT_CONSTANT). */
		unsigned t = desc | desc >> 1, constant = desc & 0x2Au & ~((unsigned)desc << 1);

		pose->tracks[b] = (uint8_t)((t & 1u) | (t >> 1 & 2u) | (t >> 2 & 4u));
		if (constant & 0x02u)
			at += v4_constant(pk->p + at, desc, ANIMRT_TRANSLATION, pose->translation + 3 * b);
		if (constant & 0x08u)
			at += v4_constant(pk->p + at, desc, ANIMRT_ROTATION, pose->rotation + 4 * b);
		if (constant & 0x20u)
			at += v4_constant(pk->p + at, desc, ANIMRT_SCALE, pose->scale + 3 * b);
	}
}

void animrt_rt_sample_v3_four(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);

	if (map)
		animrt_rt_v3_still(&c->packed, map, pose);
	else
		v4_still(&c->packed, pose);
	for (uint32_t g = 0; g < c->group_count; g++) {
		if (c->v3.has_raw[g])
			animrt_rt_v3_group_plain(c, g, at, map, pose);
		else
			v4_group(c, g, at, map, pose);
	}
}
