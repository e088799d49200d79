/*
 * additive.c - additive clips: each key stored as its difference from a
 * reference pose, in the convention animrt_pose_add applies with a NULL
 * reference, so that a game adds the layer onto whatever pose it plays.
 */
#include <stdio.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"

static const float identity[ANIMC_TRACK_COUNT][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

/* The reference pose of one bone; false (reported) when there is none. */
static bool reference_of(const animc_clip *clip, const animc_channel *ch, const animc_additive_options *o,
			 float pose[ANIMC_TRACK_COUNT][4], animc_diag_sink *sink)
{
	memcpy(pose, identity, sizeof identity);
	switch (o->kind) {
	case ANIMC_ADDITIVE_FIRST_FRAME:
		animc_channel_sample(ch, 0, pose[0], pose[1], pose[2]);
		return true;
	case ANIMC_ADDITIVE_CLIP:
		for (uint32_t i = 0; o->reference && i < o->reference->channel_count; i++)
			if (strcmp(o->reference->channels[i].bone, ch->bone) == 0) {
				animc_channel_sample(&o->reference->channels[i], 0, pose[0], pose[1], pose[2]);
				return true;
			}
		/* A bone the reference does not animate: its identity. */
		return true;
	case ANIMC_ADDITIVE_BIND: {
		int64_t b = o->skeleton ? animc_skeleton_find(o->skeleton, ch->bone) : -1;

		if (b < 0) {
			animc_clip_report(sink, ANIMC_ERROR, clip, ch,
					  "--additive-reference bind: the skeleton has no bone of this name");
			return false;
		}
		memcpy(pose[0], o->skeleton->bones[b].translation, 3 * sizeof(float));
		memcpy(pose[1], o->skeleton->bones[b].rotation, 4 * sizeof(float));
		memcpy(pose[2], o->skeleton->bones[b].scale, 3 * sizeof(float));
		return true;
	}
	}
	return true;
}

animc_status animc_clip_make_additive(animc_clip *clip, const animc_additive_options *options,
				      animc_diag_sink *sink)
{
	float (*refs)[ANIMC_TRACK_COUNT][4];
	animc_status status = ANIMC_OK;

	if (!clip->channel_count) {
		clip->is_additive = true;
		return ANIMC_OK;
	}
	/* Every reference first: with first-frame, a channel's own pose. */
	refs = animc_arena_alloc(&clip->arena, clip->channel_count, sizeof *refs);
	if (!refs)
		return ANIMC_ERR_NOMEM;
	for (uint32_t c = 0; c < clip->channel_count; c++)
		if (!reference_of(clip, &clip->channels[c], options, refs[c], sink))
			status = ANIMC_ERR_NOT_FOUND;
	if (status != ANIMC_OK)
		return status;
	for (uint32_t c = 0; c < clip->channel_count; c++) {
		animc_channel *ch = &clip->channels[c];

		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			animc_track *tr = &ch->tracks[k];
			const float *r = refs[c][k];

			if (!tr->is_present)
				continue;
			for (uint32_t i = 0; i < tr->value_count; i++) {
				float *v = tr->values + (size_t)animc_track_width[k] * i;

				if (k == ANIMC_ROTATION) {
					/* conjugate(r) * v */
					float q[4] = {
						r[3] * v[0] - r[0] * v[3] - r[1] * v[2] + r[2] * v[1],
						r[3] * v[1] + r[0] * v[2] - r[1] * v[3] - r[2] * v[0],
						r[3] * v[2] - r[0] * v[1] + r[1] * v[0] - r[2] * v[3],
						r[3] * v[3] + r[0] * v[0] + r[1] * v[1] + r[2] * v[2],
					};

					memcpy(v, q, sizeof q);
				} else {
					for (int j = 0; j < 3; j++)
						v[j] = v[j] - r[j] + (k == ANIMC_SCALE ? 1.0f : 0.0f);
				}
			}
		}
	}
	clip->is_additive = true;
	clip->additive_reference = (const float(*)[ANIMC_TRACK_COUNT][4])refs;
	return ANIMC_OK;
}
