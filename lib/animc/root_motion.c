/*
 * root_motion.c - root-motion extraction: a bone's travel in the ground
 * plane (and its turn about the up axis) relative to the first frame moves
 * out of the clip into a clip of its own, so that the clip plays in place
 * and a character controller moves the character by the motion.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"
#include "interp.h"

static void quat_conj(const float a[4], float out[4])
{
	out[0] = -a[0], out[1] = -a[1], out[2] = -a[2], out[3] = a[3];
}

/* The twist of q about axis `up` (swing-twist decomposition), unit length;
 * identity when q is a half turn about an axis across `up`. */
static void twist(const float q[4], int up, float out[4])
{
	double len = sqrt((double)q[up] * q[up] + (double)q[3] * q[3]);

	memset(out, 0, 4 * sizeof *out);
	if (len < 1e-12) {
		out[3] = 1;
		return;
	}
	out[up] = (float)(q[up] / len);
	out[3] = (float)(q[3] / len);
}


/* How far apart, between two keys, the runtime's motion and in-place
 * rotations may compose from the source's (a slerp of products is not the
 * product of slerps): keys are added until they stay within it (unless the
 * caller allows more, animc_root_motion_options.recompose_error). */
#define YAW_SPLIT_ERROR 1e-6f
#define YAW_SPLIT_DEPTH 12

/* The motion and in-place rotations of source rotation q: the motion is the
 * turn about up of the bone's change of rotation since the first frame,
 * twist(q * conjugate(q0)), so that a roll about a ground axis turns
 * nothing, a pure turn about up comes out whole, and the bone's rest
 * orientation (a rig's convention) does not matter.  The change is taken
 * on the parent's side, where the motion composes: motion * in place = q. */
static void split_rotation(const float q[4], int up, const float q0_inv[4], float motion[4], float in_place[4])
{
	float delta[4], inv[4];

	interp_quat_mul(delta, q, q0_inv);
	twist(delta, up, motion);
	quat_conj(motion, inv);
	interp_quat_mul(in_place, inv, q);
}

typedef struct times_list {
	float *t;
	uint32_t n, capacity;
} times_list;

static bool times_push(times_list *l, float t)
{
	if (l->n == l->capacity) {
		uint32_t capacity = l->capacity ? 2 * l->capacity : 64;
		float *grown = capacity > l->capacity ? realloc(l->t, capacity * sizeof *grown) : NULL;

		if (!grown)
			return false;
		l->t = grown;
		l->capacity = capacity;
	}
	l->t[l->n++] = t;
	return true;
}

/* Times strictly inside (a, b) to add so that motion * in place follows
 * the source's slerp from qa to qb, pushed in order. */
static bool refine(times_list *l, float a, float b, const float qa[4], const float qb[4], int up,
		   const float q0_inv[4], float allowed, int depth)
{
	float ma[4], pa[4], mb[4], pb[4], worst = 0;
	float mid = a + (b - a) * 0.5f, qm[4];

	if (depth >= YAW_SPLIT_DEPTH || !(mid > a && mid < b))
		return true;
	split_rotation(qa, up, q0_inv, ma, pa);
	split_rotation(qb, up, q0_inv, mb, pb);
	for (int i = 1; i < 4; i++) {
		float u = 0.25f * (float)i, src[4], m[4], p[4], got[4], dot = 0;

		interp_slerp(src, qa, qb, u);
		interp_slerp(m, ma, mb, u);
		interp_slerp(p, pa, pb, u);
		interp_quat_mul(got, m, p);
		for (int k = 0; k < 4; k++)
			dot += src[k] * got[k];
		for (int k = 0; k < 4; k++)
			worst = fmaxf(worst, fabsf(src[k] - (dot < 0 ? -got[k] : got[k])));
	}
	if (worst <= allowed)
		return true;
	interp_slerp(qm, qa, qb, 0.5f);
	return refine(l, a, mid, qa, qm, up, q0_inv, allowed, depth + 1) && times_push(l, mid) &&
	       refine(l, mid, b, qm, qb, up, q0_inv, allowed, depth + 1);
}

/* With yaw: the channel's keys, and more between them where the motion and
 * in-place rotations would not compose back to the source; every track
 * resampled onto them by the runtime's rule (the curves are unchanged). */
static animc_status refine_channel(animc_clip *clip, animc_channel *ch, int up, const float q0_inv[4],
				   float allowed)
{
	const animc_track *rot = &ch->tracks[ANIMC_ROTATION];
	times_list l = { 0 };
	animc_channel old = *ch;
	animc_status status = ANIMC_ERR_NOMEM;

	if (!rot->is_present || rot->is_fixed || rot->value_count < 2 || ch->key_count < 2)
		return ANIMC_OK;
	for (uint32_t i = 0; i < ch->key_count; i++) {
		float t = ch->has_time ? ch->times_s[i] : (float)((double)i * ch->key_interval_s);

		if (i && !refine(&l, l.t[l.n - 1], t, rot->values + 4 * (size_t)(i - 1), rot->values + 4 * (size_t)i,
				 up, q0_inv, allowed, 0))
			goto out;
		if (!times_push(&l, t))
			goto out;
	}
	status = ANIMC_OK;
	if (l.n == ch->key_count)
		goto out;
	status = ANIMC_ERR_NOMEM;
	ch->times_s = animc_clip_alloc_floats(clip, l.n);
	if (!ch->times_s)
		goto out;
	memcpy(ch->times_s, l.t, l.n * sizeof(float));
	ch->has_time = true;
	ch->key_count = l.n;
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		animc_track *tr = &ch->tracks[k];
		float *values;

		if (!tr->is_present || tr->is_fixed || tr->value_count < 2)
			continue;
		values = animc_clip_alloc_values(clip, (animc_track_kind)k, l.n);
		if (!values)
			goto out;
		for (uint32_t i = 0; i < l.n; i++) {
			float v[ANIMC_TRACK_COUNT][4];

			animc_channel_sample(&old, l.t[i], v[0], v[1], v[2]);
			memcpy(values + (size_t)animc_track_width[k] * i, v[k], animc_track_width[k] * sizeof(float));
		}
		tr->values = values;
		tr->value_count = l.n;
	}
	status = ANIMC_OK;
out:
	free(l.t);
	return status;
}

static void list_bones(const animc_clip *clip, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < clip->channel_count && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s'%s'", i ? ", " : "", clip->channels[i].bone);
	if (!clip->channel_count)
		snprintf(buf, size, "none");
}

/* A motion clip for `clip`: its name, duration, rates and up axis, and no
 * channel yet; NULL when out of memory. */
static animc_clip *motion_clip_of(const animc_clip *clip)
{
	animc_clip *motion = animc_clip_create(clip->name);

	if (!motion)
		return NULL;
	motion->duration_s = clip->duration_s;
	motion->ticks_per_second = clip->ticks_per_second;
	motion->frame_rate = clip->frame_rate;
	motion->declared_up = clip->declared_up;
	motion->declared_channel_count = -1;
	motion->line = clip->line;
	return motion;
}

/* The motion of one channel `ch` of `clip` into *motion_out, the channel
 * left in place. */
static animc_status extract_channel(animc_clip *clip, animc_channel *ch, const animc_root_motion_options *options,
				    int up, animc_clip **motion_out)
{
	animc_clip *motion;
	animc_channel *m;
	animc_track *tt, *tr, *mt, *mr;
	float t0[3], r0[4], s0[3], q0_inv[4];
	uint32_t n, tn, rn;
	int64_t index;

	motion = motion_clip_of(clip);
	if (!motion)
		return ANIMC_ERR_NOMEM;
	index = animc_clip_add_channel(motion, ch->bone, strlen(ch->bone));
	if (index < 0)
		goto nomem;
	/* The pose at 0 the motion is relative to. */
	animc_channel_sample(ch, 0, t0, r0, s0);
	quat_conj(r0, q0_inv);
	if (options->has_yaw &&
	    refine_channel(clip, ch, up, q0_inv,
			   options->recompose_error > 0 ? options->recompose_error : YAW_SPLIT_ERROR) != ANIMC_OK)
		goto nomem;
	m = &motion->channels[index];
	n = ch->key_count;
	m->key_count = n;
	m->has_time = ch->has_time;
	m->key_interval_s = ch->key_interval_s;
	m->duration_s = ch->duration_s;
	m->line = ch->line;
	if (ch->has_time) {
		m->times_s = animc_clip_alloc_floats(motion, n);
		if (!m->times_s)
			goto nomem;
		memcpy(m->times_s, ch->times_s, n * sizeof(float));
	}
	tt = &ch->tracks[ANIMC_TRANSLATION];
	tr = &ch->tracks[ANIMC_ROTATION];
	mt = &m->tracks[ANIMC_TRANSLATION];
	mr = &m->tracks[ANIMC_ROTATION];
	/* Translation: the ground axes minus those at 0; a fixed or absent
	 * track does not travel. */
	tn = tt->is_present && !tt->is_fixed ? tt->value_count : 1;
	mt->is_present = true;
	mt->is_fixed = tn == 1;
	mt->value_count = tn;
	mt->values = animc_clip_alloc_values(motion, ANIMC_TRANSLATION, tn);
	if (!mt->values)
		goto nomem;
	if (tn > 1) {
		for (uint32_t i = 0; i < tn; i++)
			for (int k = 0; k < 3; k++) {
				float *v = &tt->values[3 * (size_t)i + k];

				if (k == up)
					continue;
				mt->values[3 * (size_t)i + k] = *v - t0[k];
				*v = t0[k];
			}
	}
	/* Rotation: the turn about up since 0 (identity without yaw). */
	rn = options->has_yaw && tr->is_present && !tr->is_fixed ? tr->value_count : 1;
	mr->is_present = true;
	mr->is_fixed = rn == 1;
	mr->value_count = rn;
	mr->values = animc_clip_alloc_values(motion, ANIMC_ROTATION, rn);
	if (!mr->values)
		goto nomem;
	mr->values[3] = 1;
	if (rn > 1) {
		/* In place: conjugate(motion) * q, the first frame's heading kept. */
		for (uint32_t i = 0; i < rn; i++)
			split_rotation(&tr->values[4 * (size_t)i], up, q0_inv, &mr->values[4 * (size_t)i],
				       &tr->values[4 * (size_t)i]);
	}
	*motion_out = motion;
	return ANIMC_OK;
nomem:
	animc_clip_destroy(motion);
	return ANIMC_ERR_NOMEM;
}

/* Whether each ground travel of `ch` from its first frame is a float:
 * keys near float's range (after --scale) can be apart by more. */
static bool travel_is_finite(const animc_channel *ch, int up)
{
	const animc_track *t = &ch->tracks[ANIMC_TRANSLATION];
	float t0[3], r0[4], s0[3];

	if (!t->is_present || t->is_fixed)
		return true;
	animc_channel_sample(ch, 0, t0, r0, s0);
	for (size_t i = 0; i < (size_t)t->value_count * 3; i++)
		if ((int)(i % 3) != up && !isfinite(t->values[i] - t0[i % 3]))
			return false;
	return true;
}

animc_status animc_clip_still_motion(const animc_clip *clip, const char *bone, animc_clip **motion_out)
{
	animc_clip *motion;
	animc_channel *m;
	int64_t index;

	*motion_out = NULL;
	if (!bone)
		return ANIMC_ERR_ARGUMENT;
	motion = motion_clip_of(clip);
	if (!motion)
		return ANIMC_ERR_NOMEM;
	index = animc_clip_add_channel(motion, bone, strlen(bone));
	if (index < 0)
		goto nomem;
	m = &motion->channels[index];
	m->key_count = 1;
	m->key_interval_s = clip->duration_s;
	m->duration_s = clip->duration_s;
	for (int k = ANIMC_TRANSLATION; k <= ANIMC_ROTATION; k++) {
		animc_track *t = &m->tracks[k];

		t->is_present = t->is_fixed = true;
		t->value_count = 1;
		t->values = animc_clip_alloc_values(motion, (animc_track_kind)k, 1);
		if (!t->values)
			goto nomem;
	}
	m->tracks[ANIMC_ROTATION].values[3] = 1;
	*motion_out = motion;
	return ANIMC_OK;
nomem:
	animc_clip_destroy(motion);
	return ANIMC_ERR_NOMEM;
}

animc_up_axis animc_clip_up_axis(const animc_clip *clip)
{
	if (clip->declared_up == ANIMC_UP_X || clip->declared_up == ANIMC_UP_Y || clip->declared_up == ANIMC_UP_Z)
		return clip->declared_up;
	return clip->is_sequence_source ? ANIMC_UP_Z : ANIMC_UP_Y;
}

animc_status animc_clip_extract_motion(animc_clip *clip, const animc_root_motion_options *options,
				       animc_clip **motion_out, animc_diag_sink *sink)
{
	animc_status status = ANIMC_ERR_NOT_FOUND;
	char list[1024];

	*motion_out = NULL;
	if (!options || !options->bone || (unsigned)options->up > ANIMC_UP_Z) {
		animc_clip_report(sink, ANIMC_ERROR, clip, NULL, "root motion: %s",
				  !options || !options->bone ? "no bone named (NULL)" : "an unknown up axis");
		return ANIMC_ERR_ARGUMENT;
	}
	animc_up_axis axis = options->up == ANIMC_UP_DEFAULT ? animc_clip_up_axis(clip) : options->up;
	int up = axis == ANIMC_UP_X ? 0 : axis == ANIMC_UP_Z ? 2 : 1;

	/* Every sequence of the name in place, the motion the last one's: a
	 * RobotGame clip may hold two (bone-name-clash), and the runtime
	 * plays the last one's values; one left travelling would play the
	 * travel on top of the motion. */
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		animc_clip *motion;

		if (strcmp(clip->channels[i].bone, options->bone) != 0)
			continue;
		if (!travel_is_finite(&clip->channels[i], up)) {
			animc_clip_report(sink, ANIMC_ERROR, clip, NULL, "--root-motion: bone '%s' travels from its "
					  "first frame farther than a float holds; scale the source down", options->bone);
			animc_clip_destroy(*motion_out);
			*motion_out = NULL;
			return ANIMC_ERR_INVALID;
		}
		status = extract_channel(clip, &clip->channels[i], options, up, &motion);
		if (status != ANIMC_OK) {
			animc_clip_destroy(*motion_out);
			*motion_out = NULL;
			return status;
		}
		animc_clip_destroy(*motion_out);
		*motion_out = motion;
	}
	if (status != ANIMC_ERR_NOT_FOUND)
		return status;
	list_bones(clip, list, sizeof list);
	animc_clip_report(sink, ANIMC_ERROR, clip, NULL, "--root-motion: no bone '%s'; the clip's bones are: %s (a "
			  "clip without it, as an upper-body layer, plays in place when --skeleton gives a model "
			  "that has it)", options->bone, list);
	return ANIMC_ERR_NOT_FOUND;
}
