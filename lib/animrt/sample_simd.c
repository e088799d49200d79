/*
 * sample_simd.c - the SIMD sampler of compact clips (reader version 1):
 * four tracks of one kind at a time.  Per lane, in scalar registers, the
 * keys around the time from the track's 64-bit mask and one 64-bit load per
 * key; then across the lanes (simd.h), dequantisation, the rotation's
 * rebuilt component, the interpolation weight and the lerp or slerp of the
 * shared rule.  Lanes that need the next segment's range, or keep float32
 * keys, take the plain C path of sample_compact.c.  Tested against it.
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
 * with the block's lanes, rebuilt to x y z (w) rows. */
static inline void dequantise(const rt_block *b, const uint32_t q[3][RT_LANES], uint32_t kind, rt_f4 out[4])
{
	rt_f4 k[3];

	for (int c = 0; c < 3; c++)
		k[c] = rt_add(rt_load(b->min[c]), rt_mul(rt_to_float(rt_load_i(q[c])), rt_load(b->step[c])));
	if (kind != ANIMRT_ROTATION) {
		out[0] = k[0];
		out[1] = k[1];
		out[2] = k[2];
		return;
	}
	/* compact_rotation_rebuild: the left-out component from the others,
	 * placed where each lane's track left it out. */
	rt_f4 n = rt_add(rt_add(rt_mul(k[0], k[0]), rt_mul(k[1], k[1])), rt_mul(k[2], k[2]));
	rt_f4 r = rt_select(rt_lt(n, rt_set1(1.0f)), rt_sqrt(rt_sub(rt_set1(1.0f), n)), rt_set1(0.0f));
	rt_i4 d = rt_load_i(b->dropped);
	rt_f4 d0 = rt_eq_i(d, 0), d1 = rt_eq_i(d, 1), d2 = rt_eq_i(d, 2), d3 = rt_eq_i(d, 3);

	out[0] = rt_select(d0, r, k[0]);
	out[1] = rt_select(d0, k[0], rt_select(d1, r, k[1]));
	out[2] = rt_select(d3, k[2], rt_select(d2, r, k[1]));
	out[3] = rt_select(d3, r, k[2]);
}

/* Extract the three codes of one key at bit `bit` into lane `lane`. */
static inline void unpack(const uint8_t *keys, uint64_t bit, uint32_t bits, uint32_t q[3][RT_LANES], uint32_t lane)
{
	uint64_t v = rt_load_le64(keys + (bit >> 3)) >> (bit & 7), mask = ((uint64_t)1 << bits) - 1;

	q[0][lane] = (uint32_t)(v & mask);
	q[1][lane] = (uint32_t)((v >> bits) & mask);
	q[2][lane] = (uint32_t)((v >> (2 * bits)) & mask);
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
	float k0[RT_LANES], k1[RT_LANES];            /* their grid samples in the segment */
	uint32_t held[RT_LANES];                     /* 1: past the last key */
	bool is_plain;                               /* some lane needs the plain C path */
} unpacked;

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
	float local = at.local;
	uint32_t i = (uint32_t)local;
	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
	bool has_next = s + 1 < segs;
	rt_f4 vlocal = rt_set1(local);
	unpacked un[CHUNK];

	rt_write_image(c, map, pose);
	for (uint32_t first = 0; first < c->group_count; first += CHUNK) {
		uint32_t count = c->group_count - first < CHUNK ? c->group_count - first : CHUNK;

		/* Scalar: the keys around t of every lane, as codes. */
		for (uint32_t n = 0; n < count; n++) {
			const rt_block *b = &c->blocks[(size_t)(first + n) * segs + s];
			unpacked *u = &un[n];

			u->is_plain = false;
			for (uint32_t lane = 0; lane < RT_LANES; lane++) {
				uint64_t m = b->mask[lane], below = m & upto, above = m & ~upto;
				uint32_t k0 = 63 - rt_clz64(below), j0 = rt_popcount64(below) - 1, bits = b->bits[lane];

				if (bits == COMPACT_RAW_BITS || (!above && has_next)) {
					u->is_plain = true;
					break;
				}
				uint64_t bit = b->bit_offset[lane] + (uint64_t)j0 * 3 * bits;

				unpack(c->keys, bit, bits, u->qa, lane);
				u->k0[lane] = (float)k0;
				u->held[lane] = !above;
				if (above) {
					unpack(c->keys, bit + 3 * bits, bits, u->qb, lane);
					u->k1[lane] = (float)rt_ctz64(above);
				} else {
					/* Past the last key: hold it. */
					for (int k = 0; k < 3; k++)
						u->qb[k][lane] = u->qa[k][lane];
					u->k1[lane] = (float)k0 + 1.0f;
				}
			}
		}
		/* SIMD: four lanes at a time. */
		for (uint32_t n = 0; n < count; n++) {
			uint32_t g = first + n;
			const rt_block *b = &c->blocks[(size_t)g * segs + s];
			const rt_group *grp = &c->groups[g];
			const unpacked *u = &un[n];
			uint32_t slot[RT_LANES];

			for (uint32_t lane = 0; lane < RT_LANES; lane++) {
				uint32_t bone = grp->bone[lane];

				slot[lane] = bone == RT_NO_BONE ? RT_NO_BONE : map ? map[bone] : bone;
			}
			if (u->is_plain) {
				for (uint32_t lane = 0; lane < RT_LANES; lane++)
					if (slot[lane] != RT_NO_BONE)
						rt_sample_lane(c, g, lane, at, slot_out(pose, grp->kind, slot[lane]));
				continue;
			}
			if (grp->kind != ANIMRT_ROTATION && grp->used <= 2) {
				/* A lerp or two: cheaper lane by lane than four wide. */
				for (uint32_t lane = 0; lane < grp->used; lane++) {
					float a[3], nb[3], w = (local - u->k0[lane]) / (u->k1[lane] - u->k0[lane]);

					if (slot[lane] == RT_NO_BONE)
						continue;
					for (int k = 0; k < 3; k++) {
						a[k] = compact_dequantize(b->min[k][lane], b->step[k][lane], u->qa[k][lane]);
						nb[k] = compact_dequantize(b->min[k][lane], b->step[k][lane], u->qb[k][lane]);
					}
					float *to = slot_out(pose, grp->kind, slot[lane]);
					if (u->held[lane] || !(w > 0))
						memcpy(to, a, sizeof a);
					else
						interp_lerp3(to, a, nb, w);
				}
				continue;
			}
			rt_f4 va[4], vb[4], out[4];
			rt_f4 k0v = rt_load(u->k0), w = rt_div(rt_sub(vlocal, k0v), rt_sub(rt_load(u->k1), k0v));

			/* The reference keeps key a where u is not above 0: at a key,
			 * and holding the last one. */
			w = rt_select(rt_eq_i(rt_load_i(u->held), 1), rt_set1(0.0f), w);
			rt_f4 hold = rt_not(rt_gt(w, rt_set1(0.0f)));
			dequantise(b, u->qa, grp->kind, va);
			dequantise(b, u->qb, grp->kind, vb);
			if (grp->kind == ANIMRT_ROTATION) {
				rt_slerp4(va, vb, w, out);
			} else {
				for (int k = 0; k < 3; k++)
					out[k] = rt_add(va[k], rt_mul(rt_sub(vb[k], va[k]), w));
				out[3] = rt_set1(0.0f);
			}
			for (int k = 0; k < 4; k++)
				out[k] = rt_select(hold, va[k], out[k]);
			rt_transpose(&out[0], &out[1], &out[2], &out[3]);
			for (uint32_t lane = 0; lane < RT_LANES; lane++) {
				if (slot[lane] == RT_NO_BONE)
					continue;
				if (grp->kind == ANIMRT_ROTATION)
					rt_store(pose->rotation + 4 * (size_t)slot[lane], out[lane]);
				else
					store3(slot_out(pose, grp->kind, slot[lane]), out[lane]);
			}
		}
	}
}
