/*
 * sample_compact.c - a compact clip decoded at load sampled in plain C,
 * one track at a time: the reference the SIMD sampler is tested against,
 * and what reads keys back (animrt_track_keys).  The rule is FORMAT.md
 * section 7; the arithmetic is lib/common's (interp.h).  It finds the keys
 * from the masks and slerps them whole, so it checks the loader's rows and
 * arcs, which only the SIMD sampler reads.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"
#include "sample.h"

/* Key j (counted from the segment's first) of lane `lane` of block b of
 * group g, as the loader decoded it: 3 floats, or x y z w. */
static void decode_key(const struct animrt_compact *c, uint32_t g, const rt_block *b, uint32_t lane, uint32_t j,
		       float *out)
{
	memcpy(out, rt_key(c, b, lane, j), (c->groups[g].kind == ANIMRT_ROTATION ? 4 : 3) * sizeof *out);
}

rt_where animrt_rt_grid_locate(const struct animrt_compact *c, float local_s)
{
	double p = (double)local_s * c->rate_hz, last = (double)(c->sample_count - 1);
	rt_where at;

	/* NaN and negative give 0. */
	p = p > 0 ? (p < last ? p : last) : 0;
	at.segment = (uint32_t)(p / COMPACT_SEGMENT_SAMPLES);
	if (at.segment >= c->segment_count)
		at.segment = c->segment_count - 1;
	at.local = (float)(p - (double)at.segment * COMPACT_SEGMENT_SAMPLES);
	return at;
}

void animrt_rt_sample_lane(const struct animrt_compact *c, uint32_t g, uint32_t lane, rt_where at, float *out)
{
	uint32_t kind = c->groups[g].kind, s = at.segment;
	const rt_block *b = &c->blocks[(size_t)g * c->segment_count + s];
	float local = at.local;
	uint32_t i = (uint32_t)local;
	i = i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1, m = b->mask[lane];
	uint64_t below = m & upto, above = m & ~upto;
	uint32_t k0 = 63 - rt_clz64(below), j0 = rt_popcount64(below) - 1;
	float a[4], n[4], u = 0;

	decode_key(c, g, b, lane, j0, a);
	if (above) {
		uint32_t k1 = rt_ctz64(above);

		decode_key(c, g, b, lane, j0 + 1, n);
		u = (local - (float)k0) / (float)(k1 - k0);
	} else if (s + 1 < c->segment_count) {
		/* The next key is the next segment's first. */
		decode_key(c, g, b + 1, lane, 0, n);
		u = (local - (float)k0) / (float)(COMPACT_SEGMENT_SAMPLES - k0);
	}
	unsigned width = kind == ANIMRT_ROTATION ? 4 : 3;
	if (!(u > 0))
		memcpy(out, a, width * sizeof *out);
	else if (kind == ANIMRT_ROTATION)
		interp_slerp(out, a, n, u);
	else
		interp_lerp3(out, a, n, u);
}

void animrt_rt_write_image(const struct animrt_compact *c, const uint32_t *map, animrt_pose *pose)
{
	uint32_t n = c->bone_count;

	if (n == 0)
		return;   /* a pose of no bones may have no arrays */
	if (!map && pose->bone_count == n && pose->translation == pose->rotation + 4 * (size_t)n &&
	    pose->scale == pose->rotation + 7 * (size_t)n && (float *)pose->tracks == pose->rotation + 10 * (size_t)n) {
		/* A pose as animrt_pose_init lays it out: the image's layout. */
		memcpy(pose->rotation, c->image_rotation, (size_t)n * (10 * sizeof(float) + 1));
		return;
	}
	if (!map) {
		memcpy(pose->translation, c->image_translation, (size_t)n * 3 * sizeof(float));
		memcpy(pose->rotation, c->image_rotation, (size_t)n * 4 * sizeof(float));
		memcpy(pose->scale, c->image_scale, (size_t)n * 3 * sizeof(float));
		memcpy(pose->tracks, c->image_tracks, n);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = map[i];

		if (slot == RT_NO_BONE)
			continue;
		memcpy(pose->translation + 3 * (size_t)slot, c->image_translation + 3 * (size_t)i, 3 * sizeof(float));
		memcpy(pose->rotation + 4 * (size_t)slot, c->image_rotation + 4 * (size_t)i, 4 * sizeof(float));
		memcpy(pose->scale + 3 * (size_t)slot, c->image_scale + 3 * (size_t)i, 3 * sizeof(float));
		pose->tracks[slot] = c->image_tracks[i];
	}
}

static float *track_out(animrt_pose *pose, uint32_t kind, uint32_t slot)
{
	return kind == ANIMRT_TRANSLATION ? pose->translation + 3 * (size_t)slot
	       : kind == ANIMRT_ROTATION  ? pose->rotation + 4 * (size_t)slot
					  : pose->scale + 3 * (size_t)slot;
}

void animrt_rt_sample_compact_reference(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);

	animrt_rt_write_image(c, map, pose);
	for (uint32_t g = 0; g < c->group_count; g++)
		for (uint32_t lane = 0; lane < RT_LANES; lane++) {
			uint32_t bone = c->groups[g].bone[lane], slot;

			if (bone == RT_NO_BONE)
				continue;
			slot = map ? map[bone] : bone;
			if (slot == RT_NO_BONE)
				continue;
			animrt_rt_sample_lane(c, g, lane, at, track_out(pose, c->groups[g].kind, slot));
		}
}

void animrt_rt_sample_compact_sequence(const animrt_sequence *seq, float local_s, float translation[3],
				float rotation[4], float scale[3])
{
	const struct animrt_compact *c = seq->compact;
	float *out[3] = { translation, rotation, scale };
	rt_where at = animrt_rt_grid_locate(c, local_s);

	if (translation)
		memcpy(translation, c->image_translation + 3 * (size_t)seq->index, 3 * sizeof(float));
	if (rotation)
		memcpy(rotation, c->image_rotation + 4 * (size_t)seq->index, 4 * sizeof(float));
	if (scale)
		memcpy(scale, c->image_scale + 3 * (size_t)seq->index, 3 * sizeof(float));
	for (uint32_t k = 0; k < 3; k++) {
		int32_t slot = c->slot[(size_t)seq->index * 3 + k];

		if (slot >= 0 && out[k])
			animrt_rt_sample_lane(c, (uint32_t)slot / RT_LANES, (uint32_t)slot % RT_LANES, at, out[k]);
	}
}

uint32_t animrt_track_keys(const animrt_clip *clip, uint32_t sequence, unsigned track, uint32_t first,
			   uint32_t capacity, float *times_s, float *values)
{
	const struct animrt_compact *c = clip ? clip->compact : NULL;

	if (c && c->is_packed)
		return animrt_rt_packed_track_keys(clip, sequence, track, first, capacity, times_s, values);
	if (!c || sequence >= c->bone_count || track > ANIMRT_SCALE)
		return 0;
	int32_t slot = c->slot[(size_t)sequence * 3 + track];
	uint32_t total = c->key_count[(size_t)sequence * 3 + track];
	if (slot < 0 || (!times_s && !values))
		return slot < 0 ? 0 : total;
	uint32_t g = (uint32_t)slot / RT_LANES, lane = (uint32_t)slot % RT_LANES, key = 0, written = 0;
	unsigned width = track == ANIMRT_ROTATION ? 4 : 3;

	for (uint32_t s = 0; s < c->segment_count && written < capacity; s++) {
		const rt_block *b = &c->blocks[(size_t)g * c->segment_count + s];
		uint64_t m = b->mask[lane];

		for (uint32_t j = 0; m && written < capacity; j++, key++) {
			uint32_t i = rt_ctz64(m);

			m &= m - 1;
			if (key < first)
				continue;
			if (times_s)
				times_s[written] = (float)((double)((s << COMPACT_SEGMENT_SHIFT) + i) / c->rate_hz);
			if (values)
				decode_key(c, g, b, lane, j, values + (size_t)written * width);
			written++;
		}
	}
	return total;
}

const char *animrt_clip_bone_name(const animrt_clip *clip, uint32_t sequence, uint32_t *size)
{
	if (!clip || sequence >= clip->sequence_count)
		return NULL;
	if (clip->compact && clip->compact->is_packed)
		return animrt_rt_packed_bone_name(clip, sequence, size);
	if (size)
		*size = clip->sequences[sequence].bone_size;
	return clip->sequences[sequence].bone;
}
