/*
 * additive.c - additive clips: each key stored as its difference from a
 * reference pose, in the convention animrt_pose_add applies with a NULL
 * reference, so that a game adds the layer onto whatever pose it plays.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"
#include "interp.h"

static const float identity[ANIMC_TRACK_COUNT][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

/* A bone's rest pose in `skeleton` (may be NULL): false when it has none. */
static bool rest_of(const animc_skeleton *skeleton, const char *bone, float pose[ANIMC_TRACK_COUNT][4])
{
	int64_t b = skeleton ? animc_skeleton_find(skeleton, bone) : -1;

	if (b < 0)
		return false;
	memcpy(pose[0], skeleton->bones[b].translation, 3 * sizeof(float));
	memcpy(pose[1], skeleton->bones[b].rotation, 4 * sizeof(float));
	memcpy(pose[2], skeleton->bones[b].scale, 3 * sizeof(float));
	return true;
}

/* Bring reference pose `ref` into the decomposition the channel's keys use,
 * so that a key equal to the reference gives the identity difference.  A
 * mirrored matrix has more than one: animc_decompose puts a rest matrix's
 * mirror into one negative scale, while an exporter may key the same matrix
 * as other scale signs with a half turn (RobotGame's mirrored toes: scale
 * -1,-1,-1 and a half turn about Z).  Negating two axes' scales and turning
 * a half turn about the third before the rotation is the same matrix, so a
 * reference whose scale signs differ from the first key's on two axes takes
 * the key's signs (Hamilton: rotation * half turn about the third axis, the
 * half turn applied first, as the scale is), its sign the one nearest the
 * key's.  Signs that differ on one or three axes mirror the other way: no
 * decomposition of the reference matches, and it is left as it is. */
static void match_decomposition(const animc_channel *ch, float ref[ANIMC_TRACK_COUNT][4])
{
	const animc_track *s = &ch->tracks[ANIMC_SCALE], *r = &ch->tracks[ANIMC_ROTATION];
	float half[4] = { 0 }, q[4], dot = 0;
	int differ = 0, same = 0;

	if (!s->is_present || !s->value_count)
		return;
	for (int k = 0; k < 3; k++) {
		if ((s->values[k] < 0) != (ref[ANIMC_SCALE][k] < 0))
			differ++;
		else
			same = k;
	}
	if (differ != 2)
		return;
	for (int k = 0; k < 3; k++)
		if (k != same)
			ref[ANIMC_SCALE][k] = -ref[ANIMC_SCALE][k];
	half[same] = 1;
	interp_quat_mul(q, ref[ANIMC_ROTATION], half);
	if (r->is_present && r->value_count)
		for (int k = 0; k < 4; k++)
			dot += q[k] * r->values[k];
	for (int k = 0; k < 4; k++)
		ref[ANIMC_ROTATION][k] = dot < 0 ? -q[k] : q[k];
}

/* The reference rotation made unit length: a key of length 1.0009 (valid:
 * within ANIMC_UNIT_QUAT_TOLERANCE) as reference multiplied its length
 * into every difference, which then failed validation at 1.0018. */
static void unit_reference(float ref[ANIMC_TRACK_COUNT][4])
{
	float *q = ref[ANIMC_ROTATION];
	double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);

	if (isfinite(len) && len > 0)
		for (int k = 0; k < 4; k++)
			q[k] = (float)(q[k] / len);
}

/* The reference pose of one bone; false (reported) when there is none.
 * *at_identity: a CLIP reference gives the bone no pose at all, and it is
 * referenced at identity (the caller warns). */
static bool reference_of(const animc_clip *clip, const animc_channel *ch, const animc_additive_options *o,
			 float pose[ANIMC_TRACK_COUNT][4], bool *at_identity, animc_diag_sink *sink)
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
		/* A bone the reference does not animate stands at its rest
		 * pose while the reference plays: the source's own node, as
		 * the tracks a node's channels leave out do, else the model's.
		 * At identity, its layer would hold its absolute pose. */
		if (!rest_of(o->rest, ch->bone, pose) && !rest_of(o->skeleton, ch->bone, pose))
			*at_identity = true;
		return true;
	case ANIMC_ADDITIVE_BIND:
		if (!rest_of(o->skeleton, ch->bone, pose)) {
			animc_clip_report(sink, ANIMC_ERROR, clip, ch,
					  "--additive-reference bind: the skeleton has no bone of this name");
			return false;
		}
		return true;
	}
	return true;
}

/* Bones named in the warning before "and N more". */
#define ADDITIVE_NAMED_AT_IDENTITY 5

/* One warning a clip, naming the bones referenced at identity. */
static void warn_at_identity(const animc_clip *clip, const animc_additive_options *o, const bool *at_identity,
			     animc_diag_sink *sink)
{
	uint32_t count = 0;
	char names[512], more[32] = "";
	size_t used = 0;

	names[0] = '\0';
	for (uint32_t c = 0; c < clip->channel_count; c++) {
		if (!at_identity[c] || ++count > ADDITIVE_NAMED_AT_IDENTITY || used >= sizeof names)
			continue;
		int n = snprintf(names + used, sizeof names - used, "%s'%.64s'", count > 1 ? ", " : "",
				 clip->channels[c].bone);

		used += n > 0 ? (size_t)n : 0;
	}
	if (!count)
		return;
	if (count > ADDITIVE_NAMED_AT_IDENTITY)
		snprintf(more, sizeof more, " and %u more", count - ADDITIVE_NAMED_AT_IDENTITY);
	bool one = count == 1;

	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_REFERENCE_LACKS_BONE, clip, NULL,
			       "--additive-reference clip '%s' does not animate %s %s%s, and neither the source nor "
			       "--skeleton gives %s rest pose; took %s from identity, so the layer holds %s absolute "
			       "pose: give --skeleton a model with %s", o->reference ? o->reference->name : "",
			       one ? "bone" : "the bones", names, more, one ? "its" : "their",
			       one ? "its difference" : "their differences", one ? "the bone's" : "the bones'",
			       one ? "the bone" : "the bones");
}

animc_status animc_clip_make_additive(animc_clip *clip, const animc_additive_options *options,
				      animc_diag_sink *sink)
{
	float (*refs)[ANIMC_TRACK_COUNT][4];
	bool *at_identity;
	animc_status status = ANIMC_OK;

	if (!options || (unsigned)options->kind > ANIMC_ADDITIVE_CLIP) {
		animc_clip_report(sink, ANIMC_ERROR, clip, NULL, "additive: %s", options ? "an unknown reference kind" :
				  "no options (NULL): say what the layer is the difference from");
		return ANIMC_ERR_ARGUMENT;
	}
	if (!clip->channel_count) {
		clip->is_additive = true;
		return ANIMC_OK;
	}
	/* Every reference first: with first-frame, a channel's own pose. */
	refs = animc_arena_alloc(&clip->arena, clip->channel_count, sizeof *refs);
	if (!refs)
		return ANIMC_ERR_NOMEM;
	at_identity = animc_arena_alloc(&clip->arena, clip->channel_count, sizeof *at_identity);
	if (!at_identity)
		return ANIMC_ERR_NOMEM;
	for (uint32_t c = 0; c < clip->channel_count; c++) {
		if (!reference_of(clip, &clip->channels[c], options, refs[c], &at_identity[c], sink)) {
			status = ANIMC_ERR_NOT_FOUND;
			continue;
		}
		match_decomposition(&clip->channels[c], refs[c]);
		unit_reference(refs[c]);
	}
	if (status != ANIMC_OK)
		return status;
	warn_at_identity(clip, options, at_identity, sink);
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
