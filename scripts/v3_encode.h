/*
 * v3_encode.h - lays a compact clip out as the prototype layout
 * (v3_layout.h): the key samples the version-2 writer kept (each group's
 * lanes share the union of their masks), their values taken from the
 * lossless clip at those grid samples (past the duration, the version-2
 * keys, which continue the last span), quantised per group, segment and
 * component with the fewest bits that keep every key within a budget: a
 * fraction of the bound (V3_FT, V3_FR, V3_FS; 0.5 unless set).
 */
#ifndef ANIMC_V3_ENCODE_H
#define ANIMC_V3_ENCODE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "compact.h"
#include "compact_layout.h"
#include "v3_layout.h"

/* Stored components of every grid sample of a group: [lane][sample][3]. */
typedef struct v3_src {
	uint32_t n;
	float (*v)[4];           /* [lane * n + sample] x y z w (source) */
	float (*k)[3];           /* stored components */
	uint8_t *dropped;        /* [lane * S + segment] */
} v3_src;

static double v3_env(const char *name, double fallback)
{
	const char *s = getenv(name);

	return s && *s ? atof(s) : fallback;
}

/* The source values of group g at every grid sample. */
static void v3_source(const animrt_clip *lossless, const animrt_clip *decoded, uint32_t gi, v3_src *src,
		      animrt_pose *pose)
{
	const struct animrt_compact *c = decoded->compact;
	const rt_group *g = &c->groups[gi];

	for (uint32_t n = 0; n < c->sample_count; n++) {
		float t = (float)((double)n / c->rate_hz);
		int past = t > decoded->duration_s;

		if (!past)
			animrt_clip_sample(lossless, t, ANIMRT_PLAY_ONCE, NULL, pose);
		for (uint32_t lane = 0; lane < 4; lane++) {
			uint32_t l = lane < g->used ? lane : 0, b = g->bone[l];
			float *out = src->v[lane * src->n + n];

			out[3] = 0;
			if (past) {
				rt_where at = { n >> 6, (float)(n & 63u) };

				animrt_rt_sample_lane(c, gi, l, at, out);
			} else if (g->kind == ANIMRT_ROTATION) {
				memcpy(out, pose->rotation + 4 * (size_t)b, 16);
			} else {
				memcpy(out, (g->kind == ANIMRT_TRANSLATION ? pose->translation : pose->scale) + 3 * (size_t)b,
				       12);
			}
		}
	}
}

/* Rotations: per lane and segment the component left out (the one whose
 * smallest magnitude over the segment is largest), each key turned to the
 * hemisphere where it is positive, the other three kept. */
static void v3_stored(const struct animrt_compact *c, uint32_t kind, v3_src *src)
{
	uint32_t S = c->segment_count, n = src->n;

	for (uint32_t lane = 0; lane < 4; lane++)
		for (uint32_t s = 0; s < S; s++) {
			uint32_t from = s << 6, to = from + 64 < n ? from + 64 : n, drop = 0;

			if (kind == ANIMRT_ROTATION) {
				float best = -1;

				for (uint32_t comp = 0; comp < 4; comp++) {
					float lo = 2;

					for (uint32_t i = from; i < to; i++)
						lo = fminf(lo, fabsf(src->v[lane * n + i][comp]));
					if (lo > best) {
						best = lo;
						drop = comp;
					}
				}
			}
			src->dropped[lane * S + s] = (uint8_t)drop;
			for (uint32_t i = from; i < to; i++) {
				const float *q = src->v[lane * n + i];
				float *k = src->k[lane * n + i];

				if (kind != ANIMRT_ROTATION) {
					memcpy(k, q, 12);
					continue;
				}
				float sg = q[drop] < 0 ? -1.0f : 1.0f;
				for (uint32_t comp = 0, o = 0; comp < 4; comp++)
					if (comp != drop)
						k[o++] = sg * q[comp];
			}
		}
}

static uint16_t v3_f16(float f, enum compact_round r)
{
	uint16_t h = 0;

	if (!compact_f32_to_f16(f, r, &h))
		h = 0;
	return h;
}

/* The track ranges, f16, covering every stored value. */
static void v3_ranges(v3_group *g, const v3_src *src)
{
	for (uint32_t lane = 0; lane < 4; lane++)
		for (int c = 0; c < 3; c++) {
			float lo = INFINITY, hi = -INFINITY;

			for (uint32_t i = 0; i < src->n; i++) {
				lo = fminf(lo, src->k[lane * src->n + i][c]);
				hi = fmaxf(hi, src->k[lane * src->n + i][c]);
			}
			uint16_t hmin = v3_f16(lo, COMPACT_ROUND_DOWN);
			float fmin = compact_f16_to_f32(hmin);
			uint16_t hext = v3_f16(hi - fmin, COMPACT_ROUND_UP);

			while (fmin + compact_f16_to_f32(hext) < hi)
				hext++;
			g->range[0][c][lane] = hmin;
			g->range[1][c][lane] = hext;
		}
}

/* One record's codes, bits and key rows (see v3_layout.h). */
typedef struct v3_rec {
	uint8_t head[V3_HEAD], codes[V3_CODES];
	uint64_t mask;
	float min[3][4], ext[3][4];
	uint32_t rows, keys;
	uint32_t row_at[64];
} v3_rec;

static void v3_codes(const v3_group *g, const v3_src *src, uint32_t s, int has_codes, v3_rec *r)
{
	for (uint32_t lane = 0; lane < 4; lane++)
		for (int c = 0; c < 3; c++) {
			float tmin = compact_f16_to_f32(g->range[0][c][lane]), text = compact_f16_to_f32(g->range[1][c][lane]);
			float lo = INFINITY, hi = -INFINITY;
			int m = 0, x = 255;

			for (uint32_t j = 0; j < r->keys; j++) {
				float k = src->k[lane * src->n + (s << 6) + r->row_at[j]][c];

				lo = fminf(lo, k);
				hi = fmaxf(hi, k);
			}
			if (has_codes && text > 0) {
				m = (int)floorf((lo - tmin) / text * 256.0f);
				m = m < 0 ? 0 : m > 255 ? 255 : m;
				while (m > 0 && tmin + text * ((float)m * (1.0f / 256)) > lo)
					m--;
				float mn = tmin + text * ((float)m * (1.0f / 256));
				for (x = 0; x < 255 - m && mn + text * ((float)(x + 1) * (1.0f / 256)) < hi; x++)
					;
			}
			r->codes[4 * c + lane] = (uint8_t)m;
			r->codes[12 + 4 * c + lane] = (uint8_t)x;
			r->min[c][lane] = has_codes ? tmin + text * ((float)m * (1.0f / 256)) : tmin;
			r->ext[c][lane] = has_codes ? text * ((float)(x + 1) * (1.0f / 256)) : text;
		}
}

static uint32_t v3_code(float v, float min, float step, unsigned b)
{
	if (!b || step <= 0)
		return 0;
	float q = roundf((v - min) / step), top = (float)((1u << b) - 1u);

	return (uint32_t)(q < 0 ? 0 : q > top ? top : q);
}

/* The fewest bits for component c within tolerance `tol` at every row. */
static unsigned v3_bits(const v3_src *src, uint32_t s, int c, float tol, v3_rec *r)
{
	for (unsigned b = 0; b < 19; b++) {
		int ok = 1;

		for (uint32_t lane = 0; lane < 4 && ok; lane++) {
			float step = r->ext[c][lane] * v3_inv_levels[b];

			for (uint32_t j = 0; j < r->keys && ok; j++) {
				float k = src->k[lane * src->n + (s << 6) + r->row_at[j]][c];
				float back = r->min[c][lane] + (float)v3_code(k, r->min[c][lane], step, b) * step;

				ok = fabsf(back - k) <= tol;
			}
		}
		if (ok)
			return b;
	}
	return 19;
}

typedef struct v3_buf {
	uint8_t *p;
	size_t size, cap;
} v3_buf;

static void v3_put(v3_buf *b, const void *bytes, size_t n)
{
	if (b->size + n + 16 > b->cap) {
		b->cap = (b->size + n + 16) * 2;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->size, bytes, n);
	b->size += n;
	memset(b->p + b->size, 0, 16);
}

static void v3_put_bits(uint8_t *p, size_t bit, uint32_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, bit++)
		if (v >> i & 1u)
			p[bit >> 3] |= (uint8_t)(1u << (bit & 7));
}

/* The keys of a record as rows. */
static void v3_rows(const v3_src *src, uint32_t s, const v3_rec *r, uint8_t *out)
{
	size_t bit = 0;

	for (uint32_t j = 0; j < r->keys; j++)
		for (int c = 0; c < 3; c++) {
			unsigned b = r->head[1 + c];

			for (uint32_t lane = 0; lane < 4; lane++, bit += b) {
				float step = r->ext[c][lane] * v3_inv_levels[b];

				v3_put_bits(out, bit, v3_code(src->k[lane * src->n + (s << 6) + r->row_at[j]][c],
							      r->min[c][lane], step, b), b);
			}
		}
}

/* Sets r's rows (dense or the union mask) and returns the record's bytes. */
static size_t v3_plan(const v3_src *src, uint32_t s, int has_codes, const float tol[3], const v3_group *g,
		      uint64_t mask, int dense, v3_rec *r)
{
	memset(r, 0, sizeof *r);
	r->rows = src->n - (s << 6) < 64 ? src->n - (s << 6) : 64;
	r->mask = mask;
	for (uint32_t i = 0; i < r->rows; i++)
		if (dense || (mask >> i & 1u))
			r->row_at[r->keys++] = i;
	v3_codes(g, src, s, has_codes, r);
	unsigned row_bits = 0;
	for (int c = 0; c < 3; c++) {
		r->head[1 + c] = (uint8_t)v3_bits(src, s, c, tol[c], r);
		row_bits += 4 * r->head[1 + c];
	}
	r->head[0] = dense ? V3_DENSE : 0;
	for (uint32_t lane = 0; lane < 4; lane++)
		r->head[4] |= (uint8_t)(src->dropped[lane * ((src->n + 63) / 64) + s] << (2 * lane));
	return V3_HEAD + (has_codes ? V3_CODES : 0) + (dense ? 0 : 8) + ((size_t)r->keys * row_bits + 7) / 8;
}

static size_t v3_stat_key_bytes, v3_stat_meta_bytes;
/* Key counts: the version-2 lanes' own, the union's times the lanes used;
 * the lanes and groups. */
static size_t v3_stat_lane_keys, v3_stat_union_keys, v3_stat_lanes, v3_stat_groups;

static void v3_record(const v3_src *src, uint32_t s, int has_codes, const float tol[3], const v3_group *g,
		      uint64_t mask, v3_buf *out)
{
	v3_rec sparse, dense;
	size_t bs = v3_plan(src, s, has_codes, tol, g, mask, 0, &sparse);
	size_t bd = getenv("V3_NO_DENSE") ? SIZE_MAX : v3_plan(src, s, has_codes, tol, g, mask, 1, &dense);
	v3_rec *r = bd <= bs ? &dense : &sparse;
	size_t bytes = bd <= bs ? bd : bs, keys_bytes = bytes - V3_HEAD - (has_codes ? V3_CODES : 0) - (r == &dense ? 0 : 8);

	v3_put(out, r->head, V3_HEAD);
	if (has_codes)
		v3_put(out, r->codes, V3_CODES);
	if (r == &sparse)
		v3_put(out, &r->mask, 8);
	uint8_t *keys = calloc(keys_bytes + 16, 1);
	v3_rows(src, s, r, keys);
	v3_put(out, keys, keys_bytes);
	v3_stat_key_bytes += keys_bytes;
	v3_stat_meta_bytes += bytes - keys_bytes;
	free(keys);
}


static const float v3_bounds[3] = { 1e-3f, 0.05f, 1e-4f };

/* The per-component budget of a track kind. */
static void v3_tolerance(uint32_t kind, float tol[3])
{
	float t = kind == ANIMRT_TRANSLATION ? (float)(v3_env("V3_FT", 0.5) * 1e-3 / sqrt(3.0))
		  : kind == ANIMRT_ROTATION  ? (float)(v3_env("V3_FR", 0.5) * 0.05 * 3.14159265358979 / 180 / 2 / 3.47)
					     : (float)(v3_env("V3_FS", 0.5) * 1e-4);

	tol[0] = tol[1] = tol[2] = t;
}

static void v3_encode_group(const animrt_clip *lossless, const animrt_clip *decoded, uint32_t gi, v3_clip *v,
			    v3_buf *out, animrt_pose *pose)
{
	const struct animrt_compact *c = decoded->compact;
	const rt_group *rg = &c->groups[gi];
	v3_group *g = &v->groups[gi];
	v3_src src;
	float tol[3];

	src.n = c->sample_count;
	src.v = calloc((size_t)4 * src.n, sizeof *src.v);
	src.k = calloc((size_t)4 * src.n, sizeof *src.k);
	src.dropped = calloc((size_t)4 * c->segment_count, 1);
	g->kind = rg->kind;
	for (uint32_t lane = 0; lane < 4; lane++)
		g->slot[lane] = lane < rg->used ? (uint16_t)rg->bone[lane] : V3_NO_SLOT;
	v3_stat_lanes += rg->used;
	v3_stat_groups++;
	v3_source(lossless, decoded, gi, &src, pose);
	v3_stored(c, rg->kind, &src);
	v3_ranges(g, &src);
	v3_tolerance(rg->kind, tol);
	for (uint32_t s = 0; s < c->segment_count; s++) {
		const rt_block *b = &c->blocks[(size_t)gi * c->segment_count + s];
		uint64_t mask = 0;

		for (uint32_t lane = 0; lane < rg->used; lane++) {
			mask |= b->mask[lane];
			v3_stat_lane_keys += (size_t)__builtin_popcountll(b->mask[lane]);
		}
		v3_stat_union_keys += (size_t)__builtin_popcountll(mask) * rg->used;
		v->record_at[(size_t)gi * c->segment_count + s] = (uint32_t)out->size;
		v3_record(&src, s, v->has_codes, tol, g, mask, out);
	}
	free(src.v);
	free(src.k);
	free(src.dropped);
}

/* The prototype layout of a compact clip (decoded at load) and its lossless twin. */
static int v3_encode(const animrt_clip *lossless, const animrt_clip *decoded, v3_clip *v)
{
	const struct animrt_compact *c = decoded->compact;
	uint32_t n = decoded->sequence_count;
	animrt_pose pose;
	void *pm = malloc(animrt_pose_size_bytes(n ? n : 1));
	v3_buf out = { NULL, 0, 0 };

	memset(v, 0, sizeof *v);
	v->rate_hz = c->rate_hz;
	v->duration_s = decoded->duration_s;
	v->sample_count = c->sample_count;
	v->segment_count = c->segment_count;
	v->group_count = c->group_count;
	v->bone_count = n;
	v->has_codes = c->segment_count > 1;
	v->use_nlerp = getenv("V3_NLERP") != NULL;
	v->groups = calloc(c->group_count ? c->group_count : 1, sizeof *v->groups);
	v->record_at = calloc((size_t)c->group_count * c->segment_count + 1, sizeof *v->record_at);
	animrt_pose_init(&pose, pm, n);
	v3_put(&out, "", 0);
	for (uint32_t gi = 0; gi < c->group_count; gi++)
		v3_encode_group(lossless, decoded, gi, v, &out, &pose);
	v->data = out.p;
	v->data_bytes = out.size;
	v->image_bytes = (size_t)n * (10 * sizeof(float) + 1);
	v->image = aligned_alloc(64, (v->image_bytes + 63) / 64 * 64 + 64);
	memcpy(v->image, c->image_rotation, v->image_bytes);
	v->file_bytes = out.size + (size_t)c->group_count * sizeof(((v3_group *)0)->range);
	free(pm);
	return 1;
}

#endif
