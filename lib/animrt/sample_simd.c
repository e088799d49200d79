/*
 * sample_simd.c - the SIMD sampler of compact clips (reader version 1):
 * four tracks of one kind at a time.  The codes of the two keys around the
 * time (the group's row for the grid sample says which), unpacked across
 * the lanes (simd.h); then dequantisation with
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

/* The three stored components of the keys (codes, one row per component),
 * dequantised with the lanes' min and step (float32 bits where raw),
 * rebuilt to x y z (w) rows; `dropped` says per lane which component a
 * rotation left out. */
static inline void dequantise(const rt_f4 min[3], const rt_f4 step[3], bool any_raw, rt_f4 raw,
			      bool any_reordered, rt_i4 dropped, const rt_i4 code[3], uint32_t kind, rt_f4 out[4])
{
	rt_f4 k[3];

	for (int c = 0; c < 3; c++) {
		k[c] = rt_add(min[c], rt_mul(rt_to_float(code[c]), step[c]));
		if (any_raw)
			k[c] = rt_select(raw, rt_as_float(code[c]), k[c]);
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

/* One lerp lane in scalar registers (groups of one or two lerps cost less
 * so than four wide): the same operations as the reference. */
static void lerp_lane(const struct animrt_compact *c, const rt_block *b, const rt_block *next, rt_span row,
		      bool is_wide, uint32_t lane, float local, float *out)
{
	bool hold = row.k1[lane] == RT_HOLD;
	const rt_block *bb = row.k1[lane] == RT_NEXT_SEGMENT ? next : b;
	uint32_t qa[3], qb[3];
	float ka[3], kb[3];

	rt_key_codes(c, b, lane, is_wide, row.j[lane], qa);
	rt_key_codes(c, b, lane, is_wide, row.j[lane] + !hold, qb);
	for (int k = 0; k < 3; k++) {
		if (b->is_raw[lane])
			memcpy(&ka[k], &qa[k], 4);
		else
			ka[k] = compact_dequantize(b->min[k][lane], b->step[k][lane], qa[k]);
		if (bb->is_raw[lane])
			memcpy(&kb[k], &qb[k], 4);
		else
			kb[k] = compact_dequantize(bb->min[k][lane], bb->step[k][lane], qb[k]);
	}
	float k0 = (float)row.k0[lane], w = (local - k0) / ((float)row.k1[lane] - k0);
	if (hold || !(w > 0))
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

/* The codes of the keys around t of a group's four lanes: key a (row.j)
 * and key b (the next, or a again where the last one holds). */
static inline void group_codes(const struct animrt_compact *c, const rt_block *b, rt_span row, bool is_wide,
			       rt_i4 qa[3], rt_i4 qb[3])
{
	if (!is_wide) {
		const uint64_t *k[RT_LANES], *n[RT_LANES];

		for (uint32_t lane = 0; lane < RT_LANES; lane++) {
			k[lane] = c->keys + b->key_base[lane] + row.j[lane];
			n[lane] = k[lane] + (row.k1[lane] != RT_HOLD);
		}
		rt_codes16(k[0], k[1], k[2], k[3], qa);
		rt_codes16(n[0], n[1], n[2], n[3], qb);
		return;
	}
	uint32_t a[3][RT_LANES], z[3][RT_LANES];
	for (uint32_t lane = 0; lane < RT_LANES; lane++) {
		uint32_t qa1[3], qb1[3];

		rt_key_codes(c, b, lane, true, row.j[lane], qa1);
		rt_key_codes(c, b, lane, true, row.j[lane] + (row.k1[lane] != RT_HOLD), qb1);
		for (int k = 0; k < 3; k++) {
			a[k][lane] = qa1[k];
			z[k][lane] = qb1[k];
		}
	}
	for (int k = 0; k < 3; k++) {
		qa[k] = rt_load_i(a[k]);
		qb[k] = rt_load_i(z[k]);
	}
}

void rt_sample_compact_simd(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = rt_grid_locate(c, local_s);
	uint32_t segs = c->segment_count, s = at.segment;
	uint32_t i = (uint32_t)at.local;
	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	rt_f4 vlocal = rt_set1(at.local);

	rt_write_image(c, map, pose);
	for (uint32_t g = 0; g < c->group_count; g++) {
		const rt_block *b = &c->blocks[(size_t)g * segs + s];
		const rt_group *grp = &c->groups[g];
		rt_span row = c->spans[b->span + i];

		if (grp->kind != ANIMRT_ROTATION && grp->used <= 2) {
			for (uint32_t lane = 0; lane < grp->used; lane++) {
				uint32_t slot = map ? map[grp->bone[lane]] : grp->bone[lane];

				if (slot != RT_NO_BONE)
					lerp_lane(c, b, s + 1 < segs ? b + 1 : b, row, grp->is_wide, lane, at.local,
						  slot_out(pose, grp->kind, slot));
			}
			continue;
		}
		rt_i4 qa[3], qb[3];
		group_codes(c, b, row, grp->is_wide, qa, qb);
		rt_i4 k0i = rt_bytes(row.k0), k1i = rt_bytes(row.k1);
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
		dequantise(min, step, any_raw, raw, any_reordered, dropped, qa, grp->kind, va);
		dequantise(bmin, bstep, b_raw, braw, b_reordered, bdropped, qb, grp->kind, vb);
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
