/*
 * motion.c - root motion at run time: the motion between two play times of
 * a clip's motion track (CLIP.motion.xnb), whole loops accumulated in
 * Repeat mode.  Standard C and libm only; allocates nothing.
 */
#include <math.h>
#include <string.h>

#include <animc/animrt.h>
#include "interp.h"
#include "sample.h"

/* q to the power k (k >= 0, whole): the same axis, k times the angle, of
 * unit length.  The half angle from atan2 of the axis part's length and w:
 * acos(w) loses the small turns of root motion (a float w of 0.99999994
 * is all a turn of 0.02 degrees leaves), and a thousand loops multiplied
 * the error. */
static void quat_pow(const float q[4], double k, float out[4])
{
	double x = q[0], y = q[1], z = q[2], w = q[3];
	double len = sqrt(x * x + y * y + z * z);

	if (!(len > 0)) {
		/* No turn (or a whole one): q^k is q's sign to the k. */
		double sign = w < 0 && fmod(k, 2) != 0 ? -1 : 1;

		out[0] = out[1] = out[2] = 0;
		out[3] = (float)sign;
		return;
	}
	double half = atan2(len, w), f = sin(k * half) / len;

	out[0] = (float)(x * f);
	out[1] = (float)(y * f);
	out[2] = (float)(z * f);
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
		/* A loop moves the end's motion less the start's: a motion
		 * clip starts at rest, but a lossy one only within its bound,
		 * and that offset would add up loop after loop. */
		float start_t[3], start_r[4], end_t[3], end_r[4], loop_r[4], whole[4], inv[4];

		sample_at(clip, 0, start_t, start_r);
		sample_at(clip, (float)d, end_t, end_r);
		for (int k = 0; k < 3; k++)
			translation[k] += loops * ((double)end_t[k] - start_t[k]);
		inv[0] = -start_r[0], inv[1] = -start_r[1], inv[2] = -start_r[2], inv[3] = start_r[3];
		interp_quat_mul(loop_r, end_r, inv);
		if (loops > 0) {
			quat_pow(loop_r, loops, whole);
		} else {
			quat_pow(loop_r, -loops, inv);
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

	if (!motion || !out)
		return ANIMRT_ERR_ARGUMENT;
	if (!isfinite(from_s) || !isfinite(to_s))
		return ANIMRT_ERR_TIME;
	if (!rt_mode_ok(mode))
		return ANIMRT_ERR_PLAY_MODE;
	if (motion->sequence_count != 1)
		return ANIMRT_ERR_NOT_MOTION;
	motion_to(motion, from_s, mode, a, ra);
	motion_to(motion, to_s, mode, b, rb);
	for (int k = 0; k < 3; k++)
		out->translation[k] = (float)(b[k] - a[k]);
	inv[0] = -ra[0], inv[1] = -ra[1], inv[2] = -ra[2], inv[3] = ra[3];
	interp_quat_mul(out->rotation, rb, inv);
	return ANIMRT_OK;
}
