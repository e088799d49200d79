/*
 * sample_v3.c - clips of reader version 3 (FORMAT.md 7.7) sampled in
 * place, in plain C: per group and segment one record; per lane its code
 * byte, mask and keys found from the record alone, the two keys around
 * the time unpacked and interpolated as FORMAT.md 7.5 says.  The reference
 * the vector samplers are held to.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"

/* How one lane's keys decode in one record. */
typedef struct lane_view {
	const uint8_t *keys;          /* the record's keys */
	uint64_t mask;
	uint64_t first;               /* the lane's first key's bit, from `keys` */
	unsigned cbits[3], key_bits, dropped;
	float min[3], step[3];
	bool is_raw;
} lane_view;

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Lane l of group g in segment s. */
static lane_view lane_in(const struct animrt_compact *c, uint32_t g, uint32_t s, uint32_t l)
{
	const uint8_t *p = c->packed.p, *range = p + c->v3.range_at[g];
	const uint8_t *rec = p + c->v3.records_at + c->v3.record_at[(size_t)s * c->group_count + g];
	unsigned f = c->v3.format[g];
	uint32_t used = c->groups[g].used;
	compact3_shape sh = compact3_shape_of(compact3_rows(c->sample_count, s), used, f);
	lane_view v;

	v.keys = rec + sh.keys_at;
	v.first = 0;
	for (uint32_t i = 0; i <= l; i++) {
		unsigned cb[3];
		float min[3], step[3];
		unsigned kb = compact3_lane_decode(range, f, used, i, rec, &sh, cb, min, step);
		uint64_t m = compact3_mask(rec, &sh, i);

		if (i < l) {
			v.first += (uint64_t)rt_popcount64(m) * kb;
			continue;
		}
		v.mask = m;
		v.key_bits = kb;
		memcpy(v.cbits, cb, sizeof cb);
		memcpy(v.min, min, sizeof min);
		memcpy(v.step, step, sizeof step);
	}
	v.dropped = COMPACT3_CODE_DROPPED(rec[l]);
	v.is_raw = COMPACT3_CODE_BITS(rec[l]) == COMPACT_RAW_BITS;
	return v;
}

/* Key j of a lane: x y z (w 0), or a rotation with its left-out component rebuilt. */
static void lane_key(const lane_view *v, uint32_t j, unsigned track, float out[4])
{
	uint64_t bit = v->first + (uint64_t)j * v->key_bits;
	float k[3];

	for (unsigned c = 0, at = 0; c < 3; at += v->cbits[c], c++) {
		uint64_t b = bit + at, q = load_le64(v->keys + (size_t)(b >> 3)) >> (b & 7);

		if (v->is_raw) {
			uint32_t u = (uint32_t)q;

			memcpy(&k[c], &u, 4);
		} else {
			k[c] = compact_dequantize(v->min[c], v->step[c], (uint32_t)q & ((1u << v->cbits[c]) - 1));
		}
	}
	if (track == ANIMRT_ROTATION) {
		compact_rotation_rebuild(k, v->dropped, out);
	} else {
		memcpy(out, k, sizeof k);
		out[3] = 0;
	}
}

/* Lane l of group g at `at` into out (FORMAT.md 7.5). */
static void lane_sample(const struct animrt_compact *c, uint32_t g, uint32_t l, rt_where at, float *out)
{
	unsigned track = c->groups[g].kind;
	uint32_t s = at.segment, i = (uint32_t)at.local;
	lane_view v = lane_in(c, g, s, l);
	float a[4], b[4], u = 0;

	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1, below = v.mask & upto, above = v.mask & ~upto;
	uint32_t j = rt_popcount64(below) - 1, k0 = 63 - rt_clz64(below);

	lane_key(&v, j, track, a);
	if (above) {
		uint32_t k1 = rt_ctz64(above);

		lane_key(&v, j + 1, track, b);
		u = (at.local - (float)k0) / (float)(k1 - k0);
	} else if (s + 1 < c->segment_count) {
		lane_view n = lane_in(c, g, s + 1, l);

		lane_key(&n, 0, track, b);
		u = (at.local - (float)k0) / (float)(COMPACT_SEGMENT_SAMPLES - k0);
	}
	if (!(u > 0))
		memcpy(out, a, (track == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
	else if (track != ANIMRT_ROTATION)
		interp_lerp3(out, a, b, u);
	else
		interp_slerp(out, a, b, u);
}

static float *lane_out(animrt_pose *pose, unsigned track, uint32_t slot)
{
	return track == ANIMRT_TRANSLATION ? pose->translation + 3 * (size_t)slot
	       : track == ANIMRT_ROTATION ? pose->rotation + 4 * (size_t)slot : pose->scale + 3 * (size_t)slot;
}

void animrt_rt_sample_v3(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);

	animrt_rt_write_image(c, map, pose);
	for (uint32_t g = 0; g < c->group_count; g++)
		for (uint32_t l = 0; l < c->groups[g].used; l++) {
			uint32_t bone = c->groups[g].bone[l], slot = map ? map[bone] : bone;

			if (slot != RT_NO_BONE)
				lane_sample(c, g, l, at, lane_out(pose, c->groups[g].kind, slot));
		}
}

/* The group and lane of a bone's animated track (false: not animated). */
static bool lane_of(const struct animrt_compact *c, uint32_t sequence, unsigned track, uint32_t *g, uint32_t *l)
{
	for (uint32_t i = 0; i < c->group_count; i++) {
		if (c->groups[i].kind != track)
			continue;
		for (uint32_t k = 0; k < c->groups[i].used; k++)
			if (c->groups[i].bone[k] == sequence) {
				*g = i;
				*l = k;
				return true;
			}
	}
	return false;
}

uint8_t animrt_rt_v3_sample_bone(const animrt_clip *clip, uint32_t sequence, float local_s, float *const out[3])
{
	const struct animrt_compact *c = clip->compact;
	const float *still[3] = { c->image_translation + 3 * (size_t)sequence, c->image_rotation + 4 * (size_t)sequence,
				  c->image_scale + 3 * (size_t)sequence };
	rt_where at = animrt_rt_grid_locate(c, local_s);

	for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
		uint32_t g, l;

		if (!out[k])
			continue;
		if (lane_of(c, sequence, k, &g, &l))
			lane_sample(c, g, l, at, out[k]);
		else
			memcpy(out[k], still[k], (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
	}
	return c->image_tracks[sequence];
}

uint32_t animrt_rt_v3_track_keys(const animrt_clip *clip, uint32_t sequence, unsigned track, uint32_t first,
			  uint32_t capacity, float *times_s, float *values)
{
	const struct animrt_compact *c = clip->compact;
	uint32_t g, l, total = 0, written = 0, key = 0;
	unsigned width = track == ANIMRT_ROTATION ? 4 : 3;

	if (sequence >= c->bone_count || track > ANIMRT_SCALE || !lane_of(c, sequence, track, &g, &l))
		return 0;
	for (uint32_t s = 0; s < c->segment_count; s++)
		total += rt_popcount64(lane_in(c, g, s, l).mask);
	if (!times_s && !values)
		return total;
	for (uint32_t s = 0; s < c->segment_count && written < capacity; s++) {
		lane_view v = lane_in(c, g, s, l);
		uint64_t m = v.mask;

		for (uint32_t j = 0; m && written < capacity; key++, j++) {
			uint32_t i = rt_ctz64(m);
			float k[4];

			m &= m - 1;
			if (key < first)
				continue;
			if (times_s)
				times_s[written] = (float)((double)((s << COMPACT_SEGMENT_SHIFT) + i) / c->rate_hz);
			if (values) {
				lane_key(&v, j, track, k);
				memcpy(values + (size_t)written * width, k, width * sizeof(float));
			}
			written++;
		}
	}
	return total;
}
