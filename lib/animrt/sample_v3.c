/*
 * sample_v3.c - clips of reader version 3 (FORMAT.md 7.7) sampled in
 * place, in plain C: per group and segment one record; per lane its code
 * byte, mask and keys found from the record alone, the two keys around
 * the time unpacked and interpolated as FORMAT.md 7.5 says; the tracks
 * that do not move from the descriptors and constants of the payload, as
 * the layout's walker decodes them.  The reference the vector samplers are
 * held to.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"
#include "lane_v3.h"

typedef rt_v3_lane lane_view;

static const float identity_value[COMPACT_TRACKS][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

static uint16_t u16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* A constant of track k at p (FORMAT.md 7.2) into out (NULL: skipped, its
 * bytes counted); returns its bytes. */
static size_t constant_at(const uint8_t *p, uint16_t desc, unsigned k, float *out)
{
	bool is_f32 = desc & COMPACT_DESC_F32(k);
	size_t n = 0;
	float v[4] = { 0, 0, 0, 0 };

	if (k == ANIMRT_ROTATION && !is_f32) {
		float kept[3];

		for (int c = 0; c < 3; c++, n += 2)
			kept[c] = compact_u16_to_unit(u16_at(p + n));
		compact_rotation_rebuild(kept, COMPACT_DESC_DROPPED(desc), v);
	} else {
		for (unsigned c = 0; c < (k == ANIMRT_ROTATION ? 4u : 3u); c++) {
			if (k == ANIMRT_TRANSLATION && (desc & COMPACT_DESC_ZERO(c)))
				continue;
			v[c] = is_f32 ? xnb_get_f32(p + n) : compact_f16_to_f32(u16_at(p + n));
			n += is_f32 ? 4 : 2;
		}
	}
	if (out)
		memcpy(out, v, (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
	return n;
}

static uint16_t descriptor_of(const rt_packed *pk, uint32_t bone)
{
	return u16_at(pk->p + pk->descriptors_at + 2 * (size_t)bone);
}

/* Bone b's tracks that do not move into out[k] (NULL: not written), its
 * constants from *at on (moved past them); returns its ANIMRT_TRACK_* bits. */
static uint8_t still_bone(const rt_packed *pk, uint32_t b, size_t *at, float *const out[3])
{
	uint16_t desc = descriptor_of(pk, b);
	uint8_t tracks = 0;

	for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
		unsigned kind = COMPACT_DESC_KIND(desc, k);

		tracks |= (uint8_t)((kind != COMPACT_ABSENT) << k);
		if (kind == COMPACT_CONSTANT)
			*at += constant_at(pk->p + *at, desc, k, out[k]);
		else if (out[k] && kind != COMPACT_ANIMATED)
			memcpy(out[k], identity_value[k], (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
	}
	return tracks;
}

static float *lane_out(animrt_pose *pose, unsigned track, uint32_t slot)
{
	return track == ANIMRT_TRANSLATION ? pose->translation + 3 * (size_t)slot
	       : track == ANIMRT_ROTATION ? pose->rotation + 4 * (size_t)slot : pose->scale + 3 * (size_t)slot;
}

void animrt_rt_v3_still(const rt_packed *pk, const uint32_t *map, animrt_pose *pose)
{
	size_t at = pk->constants_at;

	for (uint32_t b = 0; b < pk->bone_count; b++) {
		uint32_t slot = map ? map[b] : b;
		float *none[3] = { NULL, NULL, NULL };

		if (slot == RT_NO_BONE) {
			still_bone(pk, b, &at, none);
			continue;
		}
		float *out[3] = { lane_out(pose, 0, slot), lane_out(pose, 1, slot), lane_out(pose, 2, slot) };
		pose->tracks[slot] = still_bone(pk, b, &at, out);
	}
}

lane_view animrt_rt_v3_lane_in(const struct animrt_compact *c, uint32_t g, uint32_t s, uint32_t l)
{
	const uint8_t *p = c->packed.p, *range = p + c->v3.range_at[g];
	const uint8_t *rec = p + c->v3.records_at + c->v3.record_at[(size_t)s * c->group_count + g];
	unsigned f = c->v3.format[g];
	uint32_t used = c->groups[g].used;
	compact3_shape sh = compact3_shape_of(compact3_rows(c->sample_count, s), used, f);
	lane_view v;

	v.keys = rec + sh.keys_at;
	v.first = 0;
	v.segment = s;
	for (uint32_t i = 0; i <= l; i++) {
		unsigned cb[3];
		float min[3], step[3];
		unsigned kb = compact3_lane_decode(range, f, used, i, rec, &sh, cb, min, step);
		uint64_t m = compact3_mask(rec, &sh, i);

		if (i < l) {
			v.first += rt_popcount64(m) * kb;
			continue;
		}
		v.mask = m;
		v.key_bits = (uint8_t)kb;
		for (int k = 0; k < 3; k++)
			v.cbits[k] = (uint8_t)cb[k];
		memcpy(v.min, min, sizeof min);
		memcpy(v.step, step, sizeof step);
	}
	v.dropped = (uint8_t)COMPACT3_CODE_DROPPED(rec[l]);
	v.is_raw = COMPACT3_CODE_BITS(rec[l]) == COMPACT_RAW_BITS;
	return v;
}

/* Lane l of group g at `at` into out (FORMAT.md 7.5). */
static void lane_sample(const struct animrt_compact *c, uint32_t g, uint32_t l, rt_where at, float *out)
{
	unsigned track = c->groups[g].kind;
	uint32_t s = at.segment, i = (uint32_t)at.local;
	lane_view v = animrt_rt_v3_lane_in(c, g, s, l);
	float a[4], b[4], u = 0;

	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1, below = v.mask & upto, above = v.mask & ~upto;
	uint32_t j = rt_popcount64(below) - 1, k0 = 63 - rt_clz64(below);

	rt_v3_lane_key(&v, j, track, a);
	if (above) {
		uint32_t k1 = rt_ctz64(above);

		rt_v3_lane_key(&v, j + 1, track, b);
		u = (at.local - (float)k0) / (float)(k1 - k0);
	} else if (s + 1 < c->segment_count) {
		lane_view n = animrt_rt_v3_lane_in(c, g, s + 1, l);

		rt_v3_lane_key(&n, 0, track, b);
		u = (at.local - (float)k0) / (float)(COMPACT_SEGMENT_SAMPLES - k0);
	}
	if (!(u > 0))
		memcpy(out, a, (track == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
	else if (track != ANIMRT_ROTATION)
		interp_lerp3(out, a, b, u);
	else
		interp_slerp(out, a, b, u);
}

void animrt_rt_sample_v3(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);

	animrt_rt_v3_still(&c->packed, map, pose);
	for (uint32_t g = 0; g < c->group_count; g++)
		animrt_rt_v3_group_plain(c, g, at, map, pose);
}

void animrt_rt_v3_group_plain(const struct animrt_compact *c, uint32_t g, rt_where at, const uint32_t *map,
			      animrt_pose *pose)
{
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
	rt_where at = animrt_rt_grid_locate(c, local_s);
	size_t constants = c->packed.constants_at;
	float *none[3] = { NULL, NULL, NULL };

	for (uint32_t b = 0; b < sequence; b++)
		still_bone(&c->packed, b, &constants, none);
	uint8_t tracks = still_bone(&c->packed, sequence, &constants, out);
	for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
		uint32_t g, l;

		if (out[k] && lane_of(c, sequence, k, &g, &l))
			lane_sample(c, g, l, at, out[k]);
	}
	return tracks;
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
		total += rt_popcount64(animrt_rt_v3_lane_in(c, g, s, l).mask);
	if (!times_s && !values)
		return total;
	for (uint32_t s = 0; s < c->segment_count && written < capacity; s++) {
		lane_view v = animrt_rt_v3_lane_in(c, g, s, l);
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
				rt_v3_lane_key(&v, j, track, k);
				memcpy(values + (size_t)written * width, k, width * sizeof(float));
			}
			written++;
		}
	}
	return total;
}
