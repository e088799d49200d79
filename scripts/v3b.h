/*
 * v3b.h - the second prototype (B): version 2's keys exactly as the writer
 * chose them (per-track bits and masks, per-segment ranges), regrouped for
 * random access.  Animated tracks four of one kind to a group (the
 * loader's groups).  Per group its tracks' ranges as f16 by component and
 * lane (version 2's f16, u8 and unit ranges are all exact in f16), the
 * lanes used, and whether any lane has per-segment ranges; per group and
 * segment one record, byte aligned:
 *   0   each lane's code byte as version 2 writes it per segment: bits
 *       per component (low 5 bits), the component a rotation leaves out
 *       (bits 5-6); 0 for an unused lane
 *   4   the used lanes' key masks, ceil(rows / 8) bytes each (rows: the
 *       segment's grid samples, 64 but in the last)
 *   then, for a group with per-segment ranges, the segment's part of each
 *       lane's range: u8 m[3][4], u8 x[3][4] (m 0, x 255 where a track has
 *       one range: the same floats)
 *   then the lanes' keys, lane after lane, each key as version 2 packs it.
 * The sampler works out each component's bits from the bits and the
 * extents (compact_component_bits, four lanes at once) and each lane's
 * first key from the masks before it.
 * So the sampler reads one record per group: no descriptor walk, no
 * format or range decoding per track, no component bits worked out.
 */
#ifndef ANIMC_V3B_H
#define ANIMC_V3B_H

#include <immintrin.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "compact.h"
#include "compact_layout.h"
#include "simd.h"
#include "v3_sample.h"

#define V3B_MASKS 4

typedef struct v3b_group {
	/* f16 min, extent of the used lanes, component after component: the
	 * used lanes' values of component c at [c * used] (a load of four
	 * reads on past them, harmlessly). */
	uint16_t range[2][12 + 4];
	/* Or, where every lane's range is a unit range of version 2 (u8 codes:
	 * min -1 + m / 128, extent (x + 1) / 128; "none" is m 0, x 255): the
	 * codes m, x so, and range unused.  A loader keeps one form, for the
	 * used lanes only. */
	uint8_t unit[2][12 + 4];
	uint16_t slot[4];
	uint8_t kind, used, has_codes, is_unit;
} v3b_group;

typedef struct v3b_clip {
	float rate_hz, duration_s;
	uint32_t sample_count, segment_count, group_count, bone_count;
	v3b_group *groups;
	uint32_t *record_at;
	uint8_t *data;
	size_t data_bytes, image_bytes, pad_bytes;
	float *image;                 /* the still pose as floats (rotation, translation, scale, tracks) */
	/* Or, where every translation and scale of the still pose is exact in
	 * f16: its rotations as floats, translations and scales as f16, the
	 * track bits (half_image_bytes in all); image then unused. */
	uint8_t *half_image;
	size_t half_image_bytes;
	int unsupported;              /* a track of float32 keys */
} v3b_clip;

/* ----------------------------------------------------------- encoder */

/* How animated track a of the packed clip decodes in segment s. */
typedef struct v3b_track {
	uint32_t bone, kind, format, ordinal, dropped;
	float min[3], ext[3];
	uint8_t unit[2][3];           /* the u8 codes of a unit range (or none: 0, 255) */
	int is_unit;
} v3b_track;

static void v3b_tracks(const rt_packed *pk, v3b_track *t)
{
	const uint8_t *p = pk->p;
	size_t range_at = pk->ranges_at;
	uint32_t a = 0, seg = 0;

	for (uint32_t b = 0; b < pk->bone_count; b++) {
		uint16_t desc = (uint16_t)(p[pk->descriptors_at + 2 * (size_t)b] | p[pk->descriptors_at + 2 * (size_t)b + 1] << 8);

		for (uint32_t k = 0; k < 3; k++) {
			if (COMPACT_DESC_KIND(desc, k) != COMPACT_ANIMATED)
				continue;
			v3b_track *x = &t[a];
			uint8_t f = p[pk->formats_at + a];
			const uint8_t *r = p + range_at;

			x->bone = b;
			x->kind = k;
			x->format = f;
			x->ordinal = seg;
			x->dropped = k == ANIMRT_ROTATION ? COMPACT_DESC_DROPPED(desc) : 0;
			x->is_unit = COMPACT_FORMAT_RANGE(f) == COMPACT_RANGE_NONE || COMPACT_FORMAT_RANGE(f) == 3;
			for (int c = 0; c < 3; c++) {
				x->unit[0][c] = COMPACT_FORMAT_RANGE(f) == 3 ? r[c] : 0;
				x->unit[1][c] = COMPACT_FORMAT_RANGE(f) == 3 ? r[3 + c] : 255;
				switch (COMPACT_FORMAT_RANGE(f)) {
				case COMPACT_RANGE_NONE: x->min[c] = -1.0f; x->ext[c] = 2.0f; break;
				case COMPACT_RANGE_F16:
					x->min[c] = compact_f16_to_f32((uint16_t)(r[2 * c] | r[2 * c + 1] << 8));
					x->ext[c] = compact_f16_to_f32((uint16_t)(r[6 + 2 * c] | r[7 + 2 * c] << 8));
					break;
				case COMPACT_RANGE_F32:
					memcpy(&x->min[c], r + 4 * c, 4);
					memcpy(&x->ext[c], r + 12 + 4 * c, 4);
					break;
				default: compact_unit_range(r[c], r[3 + c], &x->min[c], &x->ext[c]); break;
				}
			}
			range_at += compact_range_size(COMPACT_FORMAT_RANGE(f));
			seg += COMPACT_FORMAT_BITS(f) == COMPACT_SEGMENTED;
			a++;
		}
	}
}

/* Track t's bits, component left out, codes and component bits in segment s. */
static unsigned v3b_segment(const rt_packed *pk, const v3b_track *t, uint32_t s, uint8_t *dropped, uint8_t m[3],
			    uint8_t x[3], unsigned cbits[3])
{
	unsigned bits = COMPACT_FORMAT_BITS(t->format);
	float min[3], ext[3];

	*dropped = (uint8_t)t->dropped;
	for (int c = 0; c < 3; c++) {
		m[c] = 0;
		x[c] = 255;
		min[c] = t->min[c];
		ext[c] = t->ext[c];
	}
	if (bits == COMPACT_SEGMENTED) {
		const uint8_t *code = pk->p + pk->segments_at + ((size_t)t->ordinal * pk->segment_count + s) * COMPACT_SEGMENT_CODE_SIZE;

		bits = code[0] & 31u;
		*dropped = (uint8_t)(code[0] >> 5);
		for (int c = 0; c < 3; c++) {
			m[c] = code[1 + c];
			x[c] = code[4 + c];
			compact_subrange(t->min[c], t->ext[c], m[c], x[c], &min[c], &ext[c]);
		}
	}
	return compact_component_bits(bits, ext, cbits);
}

static uint64_t v3b_bits_at(const uint8_t *base, uint64_t bit, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++, bit++)
		v |= (uint64_t)(base[bit >> 3] >> (bit & 7) & 1u) << i;
	return v;
}

/* Track t's bits per component in segment s (its format's, or the segment's). */
static unsigned v3b_bits_of(const rt_packed *pk, const v3b_track *t, uint32_t s)
{
	unsigned bits = COMPACT_FORMAT_BITS(t->format);

	if (bits == COMPACT_SEGMENTED)
		bits = pk->p[pk->segments_at + ((size_t)t->ordinal * pk->segment_count + s) * COMPACT_SEGMENT_CODE_SIZE] &
		       31u;
	return bits;
}

static void v3b_put(uint8_t *p, size_t bit, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, bit++)
		if (v >> i & 1u)
			p[bit >> 3] |= (uint8_t)(1u << (bit & 7));
}

static void v3b_record(const rt_packed *pk, const v3b_track *tracks, const int32_t *lane_track, const v3b_group *g,
		       uint32_t gi, uint32_t s, v3_buf *out)
{
	uint8_t head[V3B_MASKS + 4 * 8 + 8] = { 0 }, codes[24];
	uint8_t keys[4 * 64 * 8] = { 0 };
	uint32_t rows = pk->sample_count - (s << 6), mb, sparse = 0;
	size_t bit = 0;

	rows = rows < 64 ? rows : 64;
	mb = (rows + 7) / 8;
	for (uint32_t lane = 0; lane < 4; lane++) {
		uint64_t mask = 1;
		unsigned cb[3] = { 0, 0, 0 }, kb = 0;
		uint8_t dropped = 0, m[3] = { 0, 0, 0 }, x[3] = { 255, 255, 255 };
		int32_t a = lane_track[gi * 4 + lane];

		if (a >= 0) {
			mask = v3b_bits_at(pk->p + pk->masks_at, (uint64_t)a * pk->sample_count + ((uint64_t)s << 6), rows);
			kb = v3b_segment(pk, &tracks[a], s, &dropped, m, x, cb);
		}
		if (a >= 0)
			memcpy(head + V3B_MASKS + mb * sparse++, &mask, mb);
		head[lane] = a >= 0 ? (uint8_t)(v3b_bits_of(pk, &tracks[a], s) | dropped << 5) : 0;
		for (int k = 0; k < 3; k++) {
			codes[4 * k + lane] = m[k];
			codes[12 + 4 * k + lane] = x[k];
		}
		if (a < 0)
			continue;
		uint32_t n = (uint32_t)__builtin_popcountll(mask);
		uint64_t from = pk->key_at[(size_t)a * pk->segment_count + s];
		for (uint32_t j = 0; j < n; j++, bit += kb)
			v3b_put(keys, bit, v3b_bits_at(pk->p + pk->keys_at, from + (uint64_t)j * kb, kb), kb);
	}
	v3_put(out, head, V3B_MASKS + mb * sparse);
	if (g->has_codes)
		v3_put(out, codes, sizeof codes);
	v3_put(out, keys, (bit + 7) / 8);
}

/* The still pose with its translations and scales in f16, when exact. */
static void v3b_halves(v3b_clip *v)
{
	uint32_t n = v->bone_count;
	const float *ts = v->image + 4 * (size_t)n;
	size_t bytes = 16 * (size_t)n + 12 * (size_t)n + n;
	uint8_t *h = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);

	memcpy(h, v->image, 16 * (size_t)n);
	for (size_t i = 0; i < 6 * (size_t)n; i++) {
		uint16_t q = compact_f16_nearest(ts[i]);

		if (compact_f16_to_f32(q) != ts[i] || fabsf(ts[i]) > 65504.0f) {
			free(h);
			return;
		}
		memcpy(h + 16 * (size_t)n + 2 * i, &q, 2);
	}
	memcpy(h + 28 * (size_t)n, v->image + 10 * (size_t)n, n);
	if (getenv("V3B_FLOAT_IMAGE")) {
		free(h);
		return;
	}
	v->half_image = h;
	v->half_image_bytes = bytes;
}

/* Version 2's clip in place (`packed`) regrouped as the loader groups the
 * same clip decoded (`decoded`). */
static int v3b_encode(const animrt_clip *packed, const animrt_clip *decoded, v3b_clip *v)
{
	const rt_packed *pk = &packed->compact->packed;
	const struct animrt_compact *c = decoded->compact;
	v3b_track *tracks = calloc(pk->animated_count + 1, sizeof *tracks);
	int32_t *lane_track = malloc(sizeof(int32_t) * 4 * (c->group_count + 1));
	v3_buf out = { NULL, 0, 0 };

	memset(v, 0, sizeof *v);
	v->rate_hz = c->rate_hz;
	v->duration_s = decoded->duration_s;
	v->sample_count = c->sample_count;
	v->segment_count = c->segment_count;
	v->group_count = c->group_count;
	v->bone_count = decoded->sequence_count;
	v->groups = calloc(c->group_count + 1, sizeof *v->groups);
	v->record_at = calloc((size_t)c->group_count * c->segment_count + 1, sizeof *v->record_at);
	v3b_tracks(pk, tracks);
	for (uint32_t i = 0; i < 4 * c->group_count; i++)
		lane_track[i] = -1;
	for (uint32_t a = 0; a < pk->animated_count; a++) {
		int32_t slot = c->slot[(size_t)tracks[a].bone * 3 + tracks[a].kind];
		unsigned bits = COMPACT_FORMAT_BITS(tracks[a].format);

		if (slot < 0 || bits == COMPACT_RAW_BITS)
			v->unsupported = 1;
		if (slot >= 0)
			lane_track[slot] = (int32_t)a;
	}
	for (uint32_t gi = 0; gi < c->group_count; gi++) {
		v3b_group *g = &v->groups[gi];

		g->kind = (uint8_t)c->groups[gi].kind;
		g->used = (uint8_t)c->groups[gi].used;
		for (uint32_t lane = 0; lane < 4; lane++) {
			int32_t a = lane_track[gi * 4 + lane];

			g->slot[lane] = a >= 0 ? (uint16_t)tracks[a].bone : V3_NO_SLOT;
			if (a >= 0 && COMPACT_FORMAT_BITS(tracks[a].format) == COMPACT_SEGMENTED)
				g->has_codes = 1;
			for (int k = 0; k < 3; k++) {
				if (lane < g->used) {
					g->unit[0][k * g->used + lane] = tracks[a].unit[0][k];
					g->unit[1][k * g->used + lane] = tracks[a].unit[1][k];
				}
			}
			for (int k = 0; k < 3; k++) {
				float mn = a >= 0 ? tracks[a].min[k] : 0.0f, ex = a >= 0 ? tracks[a].ext[k] : 0.0f;

				if (lane >= g->used)
					continue;
				uint16_t hm = compact_f16_nearest(mn), hx = compact_f16_nearest(ex);

				g->range[0][k * g->used + lane] = hm;
				g->range[1][k * g->used + lane] = hx;
				if (compact_f16_to_f32(hm) != mn || compact_f16_to_f32(hx) != ex)
					v->unsupported = 2;   /* a float32 range */
			}
		}
		g->is_unit = !getenv("V3B_NO_UNIT");
		for (uint32_t lane = 0; lane < g->used; lane++)
			g->is_unit &= tracks[lane_track[gi * 4 + lane]].is_unit;
		for (uint32_t s = 0; s < c->segment_count; s++) {
			v->record_at[(size_t)gi * c->segment_count + s] = (uint32_t)out.size;
			v3b_record(pk, tracks, lane_track, g, gi, s, &out);
		}
	}
	v->data = out.p;
	v->data_bytes = out.size;
	v->image_bytes = (size_t)v->bone_count * (10 * sizeof(float) + 1);
	v->image = aligned_alloc(64, (v->image_bytes + 63) / 64 * 64 + 64);
	memcpy(v->image, c->image_rotation, v->image_bytes);
	v3b_halves(v);
	free(tracks);
	free(lane_track);
	return !v->unsupported;
}

/* ----------------------------------------------------------- sampler */

/* How a record's keys decode: per component, the lanes' min, step and bits. */
typedef struct v3b_dec {
	rt_f4 min[3], step[3];
	__m256i cb[3];                 /* bits per component, 64-bit lanes */
	const uint8_t *keys;
	uint32_t dropped;
	uint32_t kb[4];                /* each lane's key bits */
} v3b_dec;

/* Where the parts of a record lie, by its group and segment. */
typedef struct v3b_at {
	uint32_t rows, mask_bytes, codes, keys;
	uint64_t rowmask;             /* the segment's samples */
} v3b_at;

V3_TARGET void v3b_where(const v3b_clip *v, const v3b_group *g, const uint8_t *rec, uint32_t s, v3b_at *at)
{
	uint32_t rows = v->sample_count - (s << 6);

	(void)rec;
	at->rows = rows < 64 ? rows : 64;
	at->rowmask = at->rows == 64 ? ~(uint64_t)0 : ((uint64_t)1 << at->rows) - 1;
	at->mask_bytes = (at->rows + 7) / 8;
	at->codes = V3B_MASKS + at->mask_bytes * g->used;
	at->keys = at->codes + (g->has_codes ? 24 : 0);
}

/* Lane l's key mask in a record. */
V3_TARGET uint64_t v3b_mask(const v3b_group *g, const uint8_t *rec, const v3b_at *at, uint32_t l)
{
	return l < g->used ? v3_load64(rec + V3B_MASKS + at->mask_bytes * l) & at->rowmask : 1;
}

/* compact_component_bits four lanes wide: bits b (the lanes' own), the
 * extents' float bits u[3]. */
V3_TARGET void v3b_cbits(__m128i b, const __m128i u[3], __m128i out[3])
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

V3_TARGET void v3b_dec_of(const v3b_group *g, const uint8_t *rec, const v3b_at *at, v3b_dec *d)
{
	int32_t code4;
	rt_f4 ext[3];
	__m128i u[3], cb[3];

	memcpy(&code4, rec, 4);
	__m128i code = _mm_cvtepu8_epi32(_mm_cvtsi32_si128(code4));
	__m128i b = _mm_and_si128(code, _mm_set1_epi32(31));
	for (int c = 0; c < 3; c++) {
		rt_f4 tmin, text;

		if (g->is_unit) {
			int32_t m4, x4;

			memcpy(&m4, g->unit[0] + c * g->used, 4);
			memcpy(&x4, g->unit[1] + c * g->used, 4);
			rt_f4 m = _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(m4)));
			rt_f4 x = _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(x4)));

			tmin = rt_add(rt_set1(-1.0f), rt_mul(m, rt_set1(1.0f / 128.0f)));
			text = rt_mul(rt_add(x, rt_set1(1.0f)), rt_set1(1.0f / 128.0f));
		} else {
			tmin = _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)(g->range[0] + c * g->used)));
			text = _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)(g->range[1] + c * g->used)));
		}
		if (g->has_codes) {
			int32_t m4, x4;

			memcpy(&m4, rec + at->codes + 4 * c, 4);
			memcpy(&x4, rec + at->codes + 12 + 4 * c, 4);
			rt_f4 k = rt_set1(1.0f / 256);
			rt_f4 m = _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(m4)));
			rt_f4 x = _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(x4)));

			tmin = rt_add(tmin, rt_mul(text, rt_mul(m, k)));
			text = rt_mul(text, rt_mul(rt_add(x, rt_set1(1.0f)), k));
		}
		d->min[c] = tmin;
		ext[c] = text;
		u[c] = _mm_castps_si128(text);
	}
	v3b_cbits(b, u, cb);
	/* Unused lanes (bits 0) take no bits. */
	__m128i used = _mm_cmpgt_epi32(b, _mm_setzero_si128());
	for (int c = 0; c < 3; c++) {
		cb[c] = _mm_and_si128(cb[c], used);
#ifdef V3B_GATHER
		d->step[c] = rt_mul(ext[c], _mm_i32gather_ps(v3_inv_levels, cb[c], 4));
#else
		/* 1 / (2^bits - 1): 2^bits from its exponent field, less 1 (exact),
		 * divided; the same floats as the table for bits 1 to 19 (checked
		 * for each).  Bits 0 (unused lanes) give 1 / 0: their extent is 0
		 * and the step is not read. */
		rt_f4 levels = rt_sub(_mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(cb[c], _mm_set1_epi32(127)), 23)),
				      rt_set1(1.0f));
		d->step[c] = rt_mul(ext[c], rt_div(rt_set1(1.0f), levels));
#endif
		d->cb[c] = _mm256_cvtepu32_epi64(cb[c]);
	}
	__m128i kb = _mm_add_epi32(_mm_add_epi32(cb[0], cb[1]), cb[2]);
	d->kb[0] = (uint32_t)_mm_cvtsi128_si32(kb);
	d->kb[1] = (uint32_t)_mm_extract_epi32(kb, 1);
	d->kb[2] = (uint32_t)_mm_extract_epi32(kb, 2);
	d->kb[3] = (uint32_t)_mm_extract_epi32(kb, 3);
	d->dropped = (uint32_t)(_pext_u32(code4, 0x60606060u));
	d->keys = rec + at->keys;
}

/* The keys at bit offsets off[4] (from d->keys), dequantised: x y z rows. */
V3_TARGET void v3b_keys4(const v3b_dec *d, const uint32_t off[4], rt_f4 out[3])
{
	/* Built in registers: four stores and a wide load would stall. */
	__m256i v = _mm256_set_epi64x((long long)(v3_load64(d->keys + (off[3] >> 3)) >> (off[3] & 7)),
				      (long long)(v3_load64(d->keys + (off[2] >> 3)) >> (off[2] & 7)),
				      (long long)(v3_load64(d->keys + (off[1] >> 3)) >> (off[1] & 7)),
				      (long long)(v3_load64(d->keys + (off[0] >> 3)) >> (off[0] & 7)));
	__m256i one = _mm256_set1_epi64x(1);
	__m256i at = _mm256_setzero_si256(), pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);

	for (int c = 0; c < 3; c++) {
		__m256i q = _mm256_and_si256(_mm256_srlv_epi64(v, at), _mm256_sub_epi64(_mm256_sllv_epi64(one, d->cb[c]), one));
		__m128i q32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(q, pick));

		out[c] = rt_add(d->min[c], rt_mul(_mm_cvtepi32_ps(q32), d->step[c]));
		at = _mm256_add_epi64(at, d->cb[c]);
	}
}

V3_TARGET void v3b_out(const v3b_group *g, rt_f4 out[4], animrt_pose *pose)
{
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

/* A group's sampling in three steps (v3b_group_keys), so that two groups'
 * steps can interleave: their chains of dependent operations overlap. */
typedef struct v3b_work {
	const v3b_group *g;
	const uint8_t *rec;
	uint32_t gi, offa[4], offb[4], k0[4], k1[4], next;
	v3b_at at;
	v3b_dec d;
} v3b_work;

V3_TARGET void v3b_step1(const v3b_clip *v, uint32_t gi, uint32_t s, v3b_work *w)
{
	w->gi = gi;
	w->g = &v->groups[gi];
	w->rec = v->data + v->record_at[(size_t)gi * v->segment_count + s];
	v3b_where(v, w->g, w->rec, s, &w->at);
	v3b_dec_of(w->g, w->rec, &w->at, &w->d);
}

/* The keys around the time in each lane's mask: where they are, their samples. */
V3_TARGET void v3b_step2(float local, v3b_work *w)
{
	uint32_t i = (uint32_t)local, base = 0;

	i = i < 63 ? i : 63;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
	w->next = 0;
	for (uint32_t l = 0; l < 4; l++) {
		uint64_t m = v3b_mask(w->g, w->rec, &w->at, l);
		uint64_t below = m & upto, above = m & ~upto;
		uint32_t kb = w->d.kb[l];

		w->offa[l] = base + ((uint32_t)_mm_popcnt_u64(below) - 1) * kb;
		base += (uint32_t)_mm_popcnt_u64(m) * kb;
		w->k0[l] = 63 - (uint32_t)_lzcnt_u64(below);
		w->k1[l] = above ? (uint32_t)_tzcnt_u64(above) : 64;
		w->offb[l] = above ? w->offa[l] + kb : w->offa[l];
		w->next |= (uint32_t)(!above) << l;
	}
}

/* The keys unpacked (the next segment's first where a lane needs it), the
 * weights, W rebuilt. */
V3_TARGET void v3b_step3(const v3b_clip *v, uint32_t s, float local, v3b_work *w, rt_f4 a[4], rt_f4 b[4], rt_f4 *pu)
{
	const v3b_group *g = w->g;
	rt_f4 ka[3], kb3[3], kn[3];
	v3b_dec dn;

	v3b_keys4(&w->d, w->offa, ka);
	v3b_keys4(&w->d, w->offb, kb3);
	uint32_t dropped_b = w->d.dropped;
	if (w->next && s + 1 < v->segment_count) {
		/* Lanes whose next key is the next segment's first. */
		const uint8_t *rn = v->data + v->record_at[(size_t)w->gi * v->segment_count + s + 1];
		uint32_t offn[4], nb = 0, next = w->next;
		v3b_at an;

		v3b_where(v, g, rn, s + 1, &an);
		v3b_dec_of(g, rn, &an, &dn);
		for (uint32_t l = 0; l < 4; l++) {
			uint64_t m = v3b_mask(g, rn, &an, l);

			offn[l] = nb;
			nb += (uint32_t)_mm_popcnt_u64(m) * dn.kb[l];
		}
		v3b_keys4(&dn, offn, kn);
		__m128i nm = _mm_set_epi32(-(int)(next >> 3 & 1), -(int)(next >> 2 & 1), -(int)(next >> 1 & 1),
					   -(int)(next & 1));
		for (int c = 0; c < 3; c++)
			kb3[c] = rt_select(_mm_castsi128_ps(nm), kn[c], kb3[c]);
		uint32_t lanes2 = 0;
		for (int l = 0; l < 4; l++)
			lanes2 |= ((next >> l & 1) ? 3u : 0u) << (2 * l);
		dropped_b = (w->d.dropped & ~lanes2) | (dn.dropped & lanes2);
	} else {
		for (int l = 0; l < 4; l++)
			if (w->next >> l & 1)
				w->k1[l] = w->k0[l];   /* the last key holds */
	}
	__m128i k0i = _mm_set_epi32((int)w->k0[3], (int)w->k0[2], (int)w->k0[1], (int)w->k0[0]);
	__m128i k1i = _mm_set_epi32((int)w->k1[3], (int)w->k1[2], (int)w->k1[1], (int)w->k1[0]);
	rt_f4 fk0 = _mm_cvtepi32_ps(k0i), fk1 = _mm_cvtepi32_ps(k1i);
	*pu = rt_select(_mm_castsi128_ps(_mm_cmpeq_epi32(k0i, k1i)), rt_set1(0.0f),
			rt_div(rt_sub(rt_set1(local), fk0), rt_sub(fk1, fk0)));
	if (g->kind == ANIMRT_ROTATION) {
		v3_rebuild(ka, w->d.dropped, a);
		v3_rebuild(kb3, dropped_b, b);
	} else {
		for (int c = 0; c < 3; c++) {
			a[c] = ka[c];
			b[c] = kb3[c];
		}
		a[3] = b[3] = rt_set1(0.0f);
	}
}

V3_TARGET void v3b_group_keys(const v3b_clip *v, uint32_t gi, uint32_t s, float local, rt_f4 a[4], rt_f4 b[4],
			      rt_f4 *pu)
{
	v3b_work w;

	v3b_step1(v, gi, s, &w);
	v3b_step2(local, &w);
	v3b_step3(v, s, local, &w, a, b, pu);
}

/* Two groups' keys, their steps interleaved. */
V3_TARGET void v3b_groups_keys2(const v3b_clip *v, uint32_t g0, uint32_t g1, uint32_t s, float local, rt_f4 a[2][4],
				rt_f4 b[2][4], rt_f4 u[2])
{
	v3b_work w0, w1;

	v3b_step1(v, g0, s, &w0);
	v3b_step1(v, g1, s, &w1);
	v3b_step2(local, &w0);
	v3b_step2(local, &w1);
	v3b_step3(v, s, local, &w0, a[0], b[0], &u[0]);
	v3b_step3(v, s, local, &w1, a[1], b[1], &u[1]);
}

/* Four lanes' lerp, key a kept where u is not above 0. */
V3_TARGET void v3b_lerp(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 keep = rt_not(rt_gt(u, rt_set1(0.0f)));

	for (int c = 0; c < 3; c++)
		out[c] = rt_select(keep, a[c], rt_add(a[c], rt_mul(rt_sub(b[c], a[c]), u)));
	out[3] = a[3];
}

V3_TARGET void v3b_slerp_keep(const rt_f4 a[4], const rt_f4 b[4], rt_f4 u, rt_f4 out[4])
{
	rt_f4 keep = rt_not(rt_gt(u, rt_set1(0.0f)));

	v3_slerp4(a, b, u, out);
	for (int k = 0; k < 4; k++)
		out[k] = rt_select(keep, a[k], out[k]);
}

/* ------------------------------------------- two rotation groups at once */

typedef __m256 rt_f8;
#define V8(x) _mm256_set1_ps(x)
V3_TARGET rt_f8 v8_sel(rt_f8 m, rt_f8 a, rt_f8 b) { return _mm256_blendv_ps(b, a, m); }
V3_TARGET rt_f8 v8_acos_unit(rt_f8 x)
{
	rt_f8 x2 = _mm256_mul_ps(x, x), x4 = _mm256_mul_ps(x2, x2);
	rt_f8 p01 = _mm256_sub_ps(V8(1.5707963050f), _mm256_mul_ps(V8(0.2145988016f), x));
	rt_f8 p23 = _mm256_sub_ps(V8(0.0889789874f), _mm256_mul_ps(V8(0.0501743046f), x));
	rt_f8 p45 = _mm256_sub_ps(V8(0.0308918810f), _mm256_mul_ps(V8(0.0170881256f), x));
	rt_f8 p67 = _mm256_sub_ps(V8(0.0066700901f), _mm256_mul_ps(V8(0.0012624911f), x));
	rt_f8 p = _mm256_add_ps(_mm256_add_ps(p01, _mm256_mul_ps(p23, x2)),
				_mm256_mul_ps(_mm256_add_ps(p45, _mm256_mul_ps(p67, x2)), x4));

	return _mm256_mul_ps(_mm256_sqrt_ps(_mm256_sub_ps(V8(1.0f), x)), p);
}
V3_TARGET rt_f8 v8_sin(rt_f8 x, int full)
{
	rt_f8 y = _mm256_mul_ps(x, x), y2 = _mm256_mul_ps(y, y);
	rt_f8 q01 = _mm256_sub_ps(V8(1.0f / 6.0f), _mm256_mul_ps(y, V8(1.0f / 120.0f)));
	rt_f8 q23 = _mm256_sub_ps(V8(1.0f / 5040.0f), _mm256_mul_ps(y, V8(1.0f / 362880.0f)));
	rt_f8 q = _mm256_add_ps(q01, _mm256_mul_ps(q23, y2));

	if (full)
		q = _mm256_add_ps(q, _mm256_mul_ps(V8(1.0f / 39916800.0f), _mm256_mul_ps(y2, y2)));
	return _mm256_sub_ps(x, _mm256_mul_ps(_mm256_mul_ps(x, y), q));
}

/* v3_slerp4 (then key a where u is not above 0) on eight lanes: the same
 * operations lane by lane. */
V3_TARGET void v3b_slerp8(const rt_f8 a[4], const rt_f8 b[4], rt_f8 u, rt_f8 out[4])
{
	rt_f8 dot = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1])),
						_mm256_mul_ps(a[2], b[2])), _mm256_mul_ps(a[3], b[3]));
	rt_f8 one = V8(1.0f), near_dot = V8(0.999999f), sgn = V8(-0.0f), d = _mm256_andnot_ps(sgn, dot);
	rt_f8 c = v8_sel(_mm256_cmp_ps(d, near_dot, _CMP_LT_OQ), d, near_dot);
	rt_f8 angle = v8_acos_unit(c);
	rt_f8 inv_sin = _mm256_div_ps(one, _mm256_sqrt_ps(_mm256_mul_ps(_mm256_sub_ps(one, c), _mm256_add_ps(one, c))));
	rt_f8 x0 = _mm256_mul_ps(_mm256_sub_ps(one, u), angle), x1 = _mm256_mul_ps(u, angle);
	int full = _mm256_movemask_ps(_mm256_cmp_ps(angle, V8(RT_SHORT_SINE), _CMP_GT_OQ)) != 0;
	rt_f8 s0 = v8_sin(x0, full), s1 = v8_sin(x1, full);
	rt_f8 is_near = _mm256_cmp_ps(d, near_dot, _CMP_NLE_UQ);
	rt_f8 w0 = v8_sel(is_near, _mm256_sub_ps(one, u), _mm256_mul_ps(s0, inv_sin));
	rt_f8 w1 = _mm256_xor_ps(_mm256_and_ps(dot, sgn), v8_sel(is_near, u, _mm256_mul_ps(s1, inv_sin)));

	for (int k = 0; k < 4; k++)
		out[k] = _mm256_add_ps(_mm256_mul_ps(w0, a[k]), _mm256_mul_ps(w1, b[k]));
	if (_mm256_movemask_ps(is_near)) {
		rt_f8 len2 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(out[0], out[0]), _mm256_mul_ps(out[1], out[1])),
							 _mm256_mul_ps(out[2], out[2])), _mm256_mul_ps(out[3], out[3]));
		rt_f8 sc = v8_sel(_mm256_and_ps(is_near, _mm256_cmp_ps(len2, V8(0.0f), _CMP_GT_OQ)),
				  _mm256_div_ps(one, _mm256_sqrt_ps(len2)), one);

		for (int k = 0; k < 4; k++)
			out[k] = _mm256_mul_ps(out[k], sc);
	}
	rt_f8 keep = _mm256_cmp_ps(u, V8(0.0f), _CMP_NGT_UQ);
	for (int k = 0; k < 4; k++)
		out[k] = v8_sel(keep, a[k], out[k]);
}

V3_TARGET void v3b_slerp_pair(const v3b_clip *v, uint32_t g0, uint32_t g1, const rt_f4 a[2][4], const rt_f4 b[2][4],
			      const rt_f4 u[2], animrt_pose *pose)
{
	rt_f8 a8[4], b8[4], o8[4];
	rt_f4 out[2][4];

	for (int k = 0; k < 4; k++) {
		a8[k] = _mm256_set_m128(a[1][k], a[0][k]);
		b8[k] = _mm256_set_m128(b[1][k], b[0][k]);
	}
	v3b_slerp8(a8, b8, _mm256_set_m128(u[1], u[0]), o8);
	for (int k = 0; k < 4; k++) {
		out[0][k] = _mm256_castps256_ps128(o8[k]);
		out[1][k] = _mm256_extractf128_ps(o8[k], 1);
	}
	v3b_out(&v->groups[g0], out[0], pose);
	v3b_out(&v->groups[g1], out[1], pose);
}

/* Lane 0's dequantisation in a record, in scalar code (compact_layout.h). */
static inline unsigned v3b_one_dec(const v3b_group *g, const uint8_t *rec, const v3b_at *at, float min[3],
				   float step[3], unsigned cb[3])
{
	float ext[3];

	for (int c = 0; c < 3; c++) {
		if (g->is_unit) {
			compact_unit_range(g->unit[0][c], g->unit[1][c], &min[c], &ext[c]);
		} else {
			min[c] = compact_f16_to_f32(g->range[0][c]);
			ext[c] = compact_f16_to_f32(g->range[1][c]);
		}
		if (g->has_codes)
			compact_subrange(min[c], ext[c], rec[at->codes + 4 * c], rec[at->codes + 12 + 4 * c], &min[c], &ext[c]);
	}
	unsigned kb = compact_component_bits(rec[0] & 31u, ext, cb);
	for (int c = 0; c < 3; c++)
		step[c] = compact_step(ext[c], cb[c]);
	return kb;
}

static inline void v3b_one_key(const uint8_t *keys, uint32_t bit, const float min[3], const float step[3],
			       const unsigned cb[3], float out[3])
{
	uint64_t v = v3_load64(keys + (bit >> 3)) >> (bit & 7);

	out[0] = compact_dequantize(min[0], step[0], (uint32_t)v & ((1u << cb[0]) - 1));
	out[1] = compact_dequantize(min[1], step[1], (uint32_t)(v >> cb[0]) & ((1u << cb[1]) - 1));
	out[2] = compact_dequantize(min[2], step[2], (uint32_t)(v >> (cb[0] + cb[1])) & ((1u << cb[2]) - 1));
}

/* A group of one translation or scale track, in scalar code: a group of
 * four costs four lanes' work for one (most clips move one root bone). */
V3_TARGET void v3b_lerp_one(const v3b_clip *v, uint32_t gi, uint32_t s, float local, animrt_pose *pose)
{
	const v3b_group *g = &v->groups[gi];
	const uint8_t *rec = v->data + v->record_at[(size_t)gi * v->segment_count + s];
	uint32_t i = (uint32_t)local;
	float min[3], step[3], a[3], b[3] = { 0, 0, 0 }, u = 0;
	unsigned cb[3];
	v3b_at at;

	i = i < 63 ? i : 63;
	v3b_where(v, g, rec, s, &at);
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
	uint64_t m = v3b_mask(g, rec, &at, 0);
	uint64_t below = m & upto, above = m & ~upto;
	unsigned kb = v3b_one_dec(g, rec, &at, min, step, cb);
	uint32_t k0 = 63 - (uint32_t)_lzcnt_u64(below), bit = ((uint32_t)_mm_popcnt_u64(below) - 1) * kb;

	v3b_one_key(rec + at.keys, bit, min, step, cb, a);
	if (above) {
		uint32_t k1 = (uint32_t)_tzcnt_u64(above);

		v3b_one_key(rec + at.keys, bit + kb, min, step, cb, b);
		u = (local - (float)k0) / (float)(k1 - k0);
	} else if (s + 1 < v->segment_count) {
		const uint8_t *rn = v->data + v->record_at[(size_t)gi * v->segment_count + s + 1];
		v3b_at an;

		v3b_where(v, g, rn, s + 1, &an);
		v3b_one_dec(g, rn, &an, min, step, cb);
		v3b_one_key(rn + an.keys, 0, min, step, cb, b);
		u = (local - (float)k0) / (float)(64 - k0);
	}
	float *out = (g->kind == ANIMRT_TRANSLATION ? pose->translation : pose->scale) + 3 * (size_t)g->slot[0];
	if (!(u > 0))
		memcpy(out, a, sizeof a);
	else
		for (int c = 0; c < 3; c++)
			out[c] = a[c] + (b[c] - a[c]) * u;
}

/* The still pose from the half image: rotations copied, translations and
 * scales (one run of 6n halves, as the pose lays them out) converted. */
V3_TARGET void v3b_still_halves(const v3b_clip *v, animrt_pose *pose)
{
	size_t n = v->bone_count, m = 6 * n, i = 0;
	const uint8_t *h = v->half_image + 16 * n;
	float *to = pose->translation;

	memcpy(pose->rotation, v->half_image, 16 * n);
	for (; i + 8 <= m; i += 8)
		_mm256_storeu_ps(to + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(h + 2 * i))));
	for (; i < m; i++)
		to[i] = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h[2 * i] | h[2 * i + 1] << 8)));
	memcpy(pose->tracks, v->half_image + 28 * n, n);
}

__attribute__((target("popcnt,sse4.1,avx,avx2,bmi,bmi2,lzcnt,f16c"), noinline)) static void
v3b_sample(const v3b_clip *v, float local_s, animrt_pose *pose)
{
	double p = (double)local_s * v->rate_hz, last = (double)(v->sample_count - 1);
	uint32_t s;

#ifndef V3B_ABLATE_IMAGE
	if (v->half_image)
		v3b_still_halves(v, pose);
	else
		memcpy(pose->rotation, v->image, v->image_bytes);
#endif
	p = p > 0 ? (p < last ? p : last) : 0;
	s = (uint32_t)(p / 64);
	s = s < v->segment_count ? s : v->segment_count - 1;
	float local = (float)(p - (double)s * 64);
#ifdef V3B_ABLATE_GROUPS
	return;
#endif
	rt_f4 a[2][4], b[2][4], u[2], out[4];
	uint32_t waiting = 0, first = 0;
	for (uint32_t gi = 0; gi < v->group_count; gi++) {
		const v3b_group *g = &v->groups[gi];

		if (g->kind != ANIMRT_ROTATION) {
			if (g->used == 1) {
				v3b_lerp_one(v, gi, s, local, pose);
				continue;
			}
			v3b_group_keys(v, gi, s, local, a[0], b[0], &u[0]);
			v3b_lerp(a[0], b[0], u[0], out);
			v3b_out(g, out, pose);
		} else if (waiting) {
#ifdef V3B_SERIAL
			v3b_group_keys(v, first, s, local, a[0], b[0], &u[0]);
			v3b_group_keys(v, gi, s, local, a[1], b[1], &u[1]);
#else
			v3b_groups_keys2(v, first, gi, s, local, a, b, u);
#endif
			v3b_slerp_pair(v, first, gi, a, b, u, pose);
			waiting = 0;
		} else {
			first = gi;
			waiting = 1;
		}
	}
	if (waiting) {
		v3b_group_keys(v, first, s, local, a[0], b[0], &u[0]);
		v3b_slerp_keep(a[0], b[0], u[0], out);
		v3b_out(&v->groups[first], out, pose);
	}
}

#endif
