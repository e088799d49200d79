/*
 * sample_simd.c - the SIMD sampler of compact clips decoded at load:
 * four tracks of one kind at a time.  The group's row for the grid sample
 * says which two keys surround the time in each lane; their floats are
 * loaded and turned into rows (simd.h), then the interpolation weight and
 * the lerp, or the slerp of the shared rule with the angle and 1 / sin the
 * loader took from the two keys (rt_arc).  Tested against sample_compact.c.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"
#include "simd.h"

const char *animrt_rt_simd_name(void)
{
	return RT_SIMD_NAME;
}

static inline float *slot_out(animrt_pose *pose, uint32_t kind, uint32_t slot)
{
	return kind == ANIMRT_TRANSLATION ? pose->translation + 3 * (size_t)slot
	       : kind == ANIMRT_ROTATION  ? pose->rotation + 4 * (size_t)slot
					  : pose->scale + 3 * (size_t)slot;
}

/* One lerp lane in scalar registers (groups of one or two lerps cost less
 * so than four wide): the same operations as the reference. */
static void lerp_lane(const struct animrt_compact *c, const rt_block *b, rt_span row, uint32_t lane, float local,
		      float *out)
{
	const float *ka = rt_key(c, b, lane, row.j[lane]);
	float k0 = (float)row.k0[lane], w = (local - k0) / ((float)row.k1[lane] - k0);

	if (row.k1[lane] == RT_HOLD || !(w > 0))
		memcpy(out, ka, 3 * sizeof *out);
	else
		interp_lerp3(out, ka, ka + 4, w);
}

static inline void store3(float *to, rt_f4 v)
{
	float lane[4];

	rt_store(lane, v);
	memcpy(to, lane, 3 * sizeof(float));
}

/*
 * The slerp weights of interp_slerp_weights for four lanes, from their
 * arcs (rt_arc: angle, or -1 where the keys are near; 1 / sin(angle) with
 * the dot product's sign) and the weights u; *is_near the lanes that take
 * the normalised lerp.
 */
static inline void arc_weights(rt_f4 angle, rt_f4 signed_inv_sin, rt_f4 u, rt_f4 *w0, rt_f4 *w1, rt_f4 *is_near)
{
	rt_f4 one = rt_set1(1.0f), sign = rt_sign_bit(signed_inv_sin), inv_sin = rt_abs(signed_inv_sin);
	rt_f4 s0 = rt_mul(rt_sin_quadrant(rt_mul(rt_sub(one, u), angle)), inv_sin);
	rt_f4 s1 = rt_mul(rt_sin_quadrant(rt_mul(u, angle)), inv_sin);

	*is_near = rt_lt(angle, rt_set1(0.0f));
	*w0 = rt_select(*is_near, rt_sub(one, u), s0);
	*w1 = rt_xor(sign, rt_select(*is_near, u, s1));
}

void animrt_rt_sample_compact_simd(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);
	uint32_t segs = c->segment_count, s = at.segment;
	uint32_t i = (uint32_t)at.local;
	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	rt_f4 vlocal = rt_set1(at.local), zero = rt_set1(0.0f);

	animrt_rt_write_image(c, map, pose);
	for (uint32_t g = 0; g < c->group_count; g++) {
		const rt_block *b = &c->blocks[(size_t)g * segs + s];
		const rt_group *grp = &c->groups[g];
		rt_span row = c->spans[b->span + i];

		if (grp->kind != ANIMRT_ROTATION && grp->used <= 2) {
			for (uint32_t lane = 0; lane < grp->used; lane++) {
				uint32_t slot = map ? map[grp->bone[lane]] : grp->bone[lane];

				if (slot != RT_NO_BONE)
					lerp_lane(c, b, row, lane, at.local, slot_out(pose, grp->kind, slot));
			}
			continue;
		}
		/* Key a (row j) and key b (the next one, or a again where the
		 * last key holds) of each lane, as rows x y z w. */
		rt_f4 va[4], vb[4], out[4];
		for (uint32_t lane = 0; lane < RT_LANES; lane++) {
			const float *ka = rt_key(c, b, lane, row.j[lane]);

			va[lane] = rt_load(ka);
			vb[lane] = rt_load(ka + (row.k1[lane] != RT_HOLD ? 4 : 0));
		}
		rt_transpose(&va[0], &va[1], &va[2], &va[3]);
		rt_transpose(&vb[0], &vb[1], &vb[2], &vb[3]);
		rt_i4 k1i = rt_bytes(row.k1);
		rt_f4 k0 = rt_to_float(rt_bytes(row.k0)), k1 = rt_to_float(k1i);
		rt_f4 w = rt_select(rt_eq_i(k1i, RT_HOLD), zero, rt_div(rt_sub(vlocal, k0), rt_sub(k1, k0)));
		if (grp->kind == ANIMRT_ROTATION) {
			rt_f4 angle, signed_inv_sin, w0, w1, is_near;

			rt_arcs(&rt_key_arc(c, b, 0, row.j[0])->angle, &rt_key_arc(c, b, 1, row.j[1])->angle,
				&rt_key_arc(c, b, 2, row.j[2])->angle, &rt_key_arc(c, b, 3, row.j[3])->angle, &angle,
				&signed_inv_sin);
			arc_weights(angle, signed_inv_sin, w, &w0, &w1, &is_near);
			rt_slerp_finish(va, vb, w0, w1, is_near, out);
		} else {
			for (int k = 0; k < 3; k++)
				out[k] = rt_add(va[k], rt_mul(rt_sub(vb[k], va[k]), w));
			out[3] = zero;
		}
		/* The reference keeps key a where u is not above 0: at a key,
		 * and holding the last one. */
		rt_f4 keep = rt_not(rt_gt(w, zero));
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
