/*
 * sample_simd.c - the SIMD sampler of compact clips (reader version 1):
 * four tracks of one kind at a time.  Per lane, in scalar registers, the
 * codes of the two keys around the time (the group's row for the grid
 * sample says which); then across the lanes (simd.h), dequantisation with
 * the segment's range (the next segment's for a key that opens it), the
 * rotation's rebuilt component, the interpolation weight and the lerp or
 * slerp of the shared rule.  Tested against sample_compact.c.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"
#include "simd.h"

const char *rt_simd_name(void)
{
	return RT_SIMD_NAME;
}

/* The three stored components of the keys in q[3][4] (codes), dequantised
 * with the lanes' min and step (float32 bits where raw), rebuilt to x y z
 * (w) rows; `dropped` says per lane which component a rotation left out. */
static inline void dequantise(const rt_f4 min[3], const rt_f4 step[3], bool any_raw, rt_f4 raw,
			      bool any_reordered, rt_i4 dropped, const uint32_t q[3][RT_LANES], uint32_t kind,
			      rt_f4 out[4])
{
	rt_f4 k[3];

	for (int c = 0; c < 3; c++) {
		rt_i4 code = rt_load_i(q[c]);

		k[c] = rt_add(min[c], rt_mul(rt_to_float(code), step[c]));
		if (any_raw)
			k[c] = rt_select(raw, rt_as_float(code), k[c]);
	}
	if (kind != ANIMRT_ROTATION) {
		out[0] = k[0];
		out[1] = k[1];
		out[2] = k[2];
		out[3] = rt_set1(0.0f);
		return;
	}
	/* compact_rotation_rebuild: the left-out component from the others,
	 * placed where each lane's track left it out. */
	rt_f4 n = rt_add(rt_add(rt_mul(k[0], k[0]), rt_mul(k[1], k[1])), rt_mul(k[2], k[2]));
	rt_f4 r = rt_select(rt_lt(n, rt_set1(1.0f)), rt_sqrt(rt_sub(rt_set1(1.0f), n)), rt_set1(0.0f));
	if (!any_reordered) {
		out[0] = k[0];
		out[1] = k[1];
		out[2] = k[2];
		out[3] = r;
		return;
	}
	rt_f4 d0 = rt_eq_i(dropped, 0), d1 = rt_eq_i(dropped, 1), d2 = rt_eq_i(dropped, 2), d3 = rt_eq_i(dropped, 3);

	out[0] = rt_select(d0, r, k[0]);
	out[1] = rt_select(d0, k[0], rt_select(d1, r, k[1]));
	out[2] = rt_select(d3, k[2], rt_select(d2, r, k[1]));
	out[3] = rt_select(d3, r, k[2]);
}

static inline float *slot_out(animrt_pose *pose, uint32_t kind, uint32_t slot)
{
	return kind == ANIMRT_TRANSLATION ? pose->translation + 3 * (size_t)slot
	       : kind == ANIMRT_ROTATION  ? pose->rotation + 4 * (size_t)slot
					  : pose->scale + 3 * (size_t)slot;
}

/* Groups unpacked before the SIMD pass reads them: far enough back that the
 * scalar stores have left the store buffer when the vector loads come. */
#define CHUNK 16

/* What the scalar pass leaves for the SIMD pass, per group of a chunk. */
typedef struct unpacked {
	uint32_t qa[3][RT_LANES], qb[3][RT_LANES];   /* codes of the keys around t */
	rt_span row;                                 /* where t falls, per lane */
} unpacked;

/* One lerp lane in scalar registers (groups of one or two lerps cost less
 * so than four wide): the same operations as the reference. */
static void lerp_lane(const rt_block *b, const rt_block *next, const unpacked *u, uint32_t lane, float local,
		      float *out)
{
	const rt_block *bb = u->row.k1[lane] == RT_NEXT_SEGMENT ? next : b;
	float ka[3], kb[3];

	for (int k = 0; k < 3; k++) {
		if (b->is_raw[lane])
			memcpy(&ka[k], &u->qa[k][lane], 4);
		else
			ka[k] = compact_dequantize(b->min[k][lane], b->step[k][lane], u->qa[k][lane]);
		if (bb->is_raw[lane])
			memcpy(&kb[k], &u->qb[k][lane], 4);
		else
			kb[k] = compact_dequantize(bb->min[k][lane], bb->step[k][lane], u->qb[k][lane]);
	}
	float k0 = (float)u->row.k0[lane], w = (local - k0) / ((float)u->row.k1[lane] - k0);
	if (u->row.k1[lane] == RT_HOLD || !(w > 0))
		memcpy(out, ka, sizeof ka);
	else
		interp_lerp3(out, ka, kb, w);
}

static inline void store3(float *to, rt_f4 v)
{
	float lane[4];

	rt_store(lane, v);
	memcpy(to, lane, 3 * sizeof(float));
}

void rt_sample_compact_simd(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = rt_grid_locate(c, local_s);
	uint32_t segs = c->segment_count, s = at.segment;
	uint32_t i = (uint32_t)at.local;
	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	rt_f4 vlocal = rt_set1(at.local);
	unpacked un[CHUNK];

	rt_write_image(c, map, pose);
	for (uint32_t first = 0; first < c->group_count; first += CHUNK) {
		uint32_t count = c->group_count - first < CHUNK ? c->group_count - first : CHUNK;

		/* Scalar: the codes of the keys around t, lane by lane. */
		for (uint32_t n = 0; n < count; n++) {
			const rt_block *b = &c->blocks[(size_t)(first + n) * segs + s];
			const uint64_t *keys = c->keys;
			unpacked *u = &un[n];

			u->row = c->spans[b->span + i];
			if (c->groups[first + n].is_wide) {
				for (uint32_t lane = 0; lane < RT_LANES; lane++) {
					const uint64_t *k = keys + b->key_base[lane] + 2 * (size_t)u->row.j[lane];
					size_t next = u->row.k1[lane] == RT_HOLD ? 0 : 2;

					u->qa[0][lane] = (uint32_t)k[0];
					u->qa[1][lane] = (uint32_t)(k[0] >> 32);
					u->qa[2][lane] = (uint32_t)k[1];
					u->qb[0][lane] = (uint32_t)k[next];
					u->qb[1][lane] = (uint32_t)(k[next] >> 32);
					u->qb[2][lane] = (uint32_t)k[next + 1];
				}
				continue;
			}
			for (uint32_t lane = 0; lane < RT_LANES; lane++) {
				const uint64_t *k = keys + b->key_base[lane] + u->row.j[lane];
				uint64_t ka = k[0], kb = k[u->row.k1[lane] == RT_HOLD ? 0 : 1];

				u->qa[0][lane] = (uint32_t)(ka & 0xFFFF);
				u->qa[1][lane] = (uint32_t)((ka >> 16) & 0xFFFF);
				u->qa[2][lane] = (uint32_t)((ka >> 32) & 0xFFFF);
				u->qb[0][lane] = (uint32_t)(kb & 0xFFFF);
				u->qb[1][lane] = (uint32_t)((kb >> 16) & 0xFFFF);
				u->qb[2][lane] = (uint32_t)((kb >> 32) & 0xFFFF);
			}
		}
		/* SIMD: four lanes at a time. */
		for (uint32_t n = 0; n < count; n++) {
			uint32_t g = first + n;
			const rt_block *b = &c->blocks[(size_t)g * segs + s];
			const rt_group *grp = &c->groups[g];
			const unpacked *u = &un[n];

			if (grp->kind != ANIMRT_ROTATION && grp->used <= 2) {
				for (uint32_t lane = 0; lane < grp->used; lane++) {
					uint32_t slot = map ? map[grp->bone[lane]] : grp->bone[lane];

					if (slot != RT_NO_BONE)
						lerp_lane(b, s + 1 < segs ? b + 1 : b, u, lane, at.local,
							  slot_out(pose, grp->kind, slot));
				}
				continue;
			}
			rt_i4 k0i = rt_bytes(u->row.k0), k1i = rt_bytes(u->row.k1);
			rt_f4 k0 = rt_to_float(k0i), k1 = rt_to_float(k1i);
			rt_f4 hold = rt_eq_i(k1i, RT_HOLD), next = rt_eq_i(k1i, RT_NEXT_SEGMENT);
			rt_f4 w = rt_select(hold, rt_set1(0.0f), rt_div(rt_sub(vlocal, k0), rt_sub(k1, k0)));
			rt_f4 min[3], step[3], bmin[3], bstep[3], raw = rt_eq_i(rt_load_i(b->is_raw), 1);
			rt_i4 dropped = rt_load_i(b->dropped);

			for (int k = 0; k < 3; k++) {
				min[k] = rt_load(b->min[k]);
				step[k] = rt_load(b->step[k]);
			}
			/* Key b is the next segment's first where k1 says so: its
			 * range, bits and dropped component are that segment's. */
			rt_f4 braw = raw;
			rt_i4 bdropped = dropped;
			bool any_raw = b->any_raw, any_reordered = b->any_reordered;
			bool b_raw = any_raw, b_reordered = any_reordered;
			if (s + 1 < segs && rt_any(next)) {
				const rt_block *nb = b + 1;

				for (int k = 0; k < 3; k++) {
					bmin[k] = rt_select(next, rt_load(nb->min[k]), min[k]);
					bstep[k] = rt_select(next, rt_load(nb->step[k]), step[k]);
				}
				braw = rt_select(next, rt_eq_i(rt_load_i(nb->is_raw), 1), raw);
				bdropped = rt_select_i(next, rt_load_i(nb->dropped), dropped);
				b_raw |= nb->any_raw;
				b_reordered |= nb->any_reordered;
			} else {
				for (int k = 0; k < 3; k++) {
					bmin[k] = min[k];
					bstep[k] = step[k];
				}
			}
			rt_f4 va[4], vb[4], out[4];
			dequantise(min, step, any_raw, raw, any_reordered, dropped, u->qa, grp->kind, va);
			dequantise(bmin, bstep, b_raw, braw, b_reordered, bdropped, u->qb, grp->kind, vb);
			/* The reference keeps key a where u is not above 0: at a key,
			 * and holding the last one. */
			rt_f4 keep = rt_not(rt_gt(w, rt_set1(0.0f)));
			if (grp->kind == ANIMRT_ROTATION) {
				rt_slerp4(va, vb, w, out);
			} else {
				for (int k = 0; k < 3; k++)
					out[k] = rt_add(va[k], rt_mul(rt_sub(vb[k], va[k]), w));
				out[3] = rt_set1(0.0f);
			}
			for (int k = 0; k < 4; k++)
				out[k] = rt_select(keep, va[k], out[k]);
			rt_transpose(&out[0], &out[1], &out[2], &out[3]);
			for (uint32_t lane = 0; lane < grp->used; lane++) {
				uint32_t slot = map ? map[grp->bone[lane]] : grp->bone[lane];

				if (slot == RT_NO_BONE)
					continue;
				if (grp->kind == ANIMRT_ROTATION)
					rt_store(pose->rotation + 4 * (size_t)slot, out[lane]);
				else
					store3(slot_out(pose, grp->kind, slot), out[lane]);
			}
		}
	}
}
