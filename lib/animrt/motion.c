/*
 * motion.c - root motion at run time: the motion between two play times of
 * a clip's motion track (CLIP.motion.xnb), whole loops accumulated in
 * Repeat mode.  Standard C and libm only; allocates nothing.
 */
#include <math.h>
#include <string.h>

#include <animc/animrt.h>
#include "interp.h"

/* q to the power k (k >= 0, whole): the same axis, k times the angle. */
static void quat_pow(const float q[4], double k, float out[4])
{
	double w = q[3] < -1 ? -1 : q[3] > 1 ? 1 : q[3];
	double half = acos(w), s = sin(half);

	if (fabs(s) < 1e-12) {
		/* No turn (or a whole one): q^k is q's sign to the k. */
		double sign = w < 0 && fmod(k, 2) != 0 ? -1 : 1;

		out[0] = out[1] = out[2] = 0;
		out[3] = (float)sign;
		return;
	}
	double f = sin(k * half) / s;

	out[0] = (float)(q[0] * f);
	out[1] = (float)(q[1] * f);
	out[2] = (float)(q[2] * f);
	out[3] = (float)cos(k * half);
}

/* The motion clip at local time t (within [0, duration]). */
static void sample_at(const animrt_clip *clip, float t, float translation[3], float rotation[4])
{
	_Alignas(16) unsigned char memory[256];
	animrt_pose pose;

	animrt_pose_init(&pose, memory, 1);
	animrt_clip_sample(clip, t, ANIMRT_PLAY_ONCE, NULL, &pose);
	memcpy(translation, pose.translation, 3 * sizeof(float));
	memcpy(rotation, pose.rotation, 4 * sizeof(float));
}

/* The motion from 0 to play time t, loops included (Repeat). */
static void motion_to(const animrt_clip *clip, double t, animrt_play_mode mode, double translation[3],
		      float rotation[4])
{
	double d = clip->duration_s, loops = 0;
	float local, tr[3], rot[4];

	if (mode == ANIMRT_PLAY_REPEAT && d > 0) {
		loops = floor(t / d);
		local = (float)(t - loops * d);
		if (local > (float)d)
			local = (float)d;
	} else {
		local = (float)(t < 0 ? 0 : t > d ? d : t);
	}
	if (local < 0)
		local = 0;
	sample_at(clip, local, tr, rot);
	for (int k = 0; k < 3; k++)
		translation[k] = tr[k];
	memcpy(rotation, rot, sizeof rot);
	if (loops != 0) {
		float end_t[3], end_r[4], whole[4], inv[4];

		sample_at(clip, (float)d, end_t, end_r);
		for (int k = 0; k < 3; k++)
			translation[k] += loops * end_t[k];
		if (loops > 0) {
			quat_pow(end_r, loops, whole);
		} else {
			quat_pow(end_r, -loops, inv);
			whole[0] = -inv[0], whole[1] = -inv[1], whole[2] = -inv[2], whole[3] = inv[3];
		}
		interp_quat_mul(rotation, rotation, whole);
	}
}

animrt_status animrt_motion_between(const animrt_clip *motion, float from_s, float to_s,
				    animrt_play_mode mode, animrt_motion *out)
{
	double a[3], b[3];
	float ra[4], rb[4], inv[4];

	if (!motion || !out || motion->sequence_count != 1 || !isfinite(from_s) || !isfinite(to_s) ||
	    (mode != ANIMRT_PLAY_ONCE && mode != ANIMRT_PLAY_REPEAT))
		return ANIMRT_ERR_ARGUMENT;
	motion_to(motion, from_s, mode, a, ra);
	motion_to(motion, to_s, mode, b, rb);
	for (int k = 0; k < 3; k++)
		out->translation[k] = (float)(b[k] - a[k]);
	inv[0] = -ra[0], inv[1] = -ra[1], inv[2] = -ra[2], inv[3] = ra[3];
	interp_quat_mul(out->rotation, rb, inv);
	return ANIMRT_OK;
}
