/*
 * sample_fixtures.h - what the runtime's sampling and player tests share:
 * sequences over caller arrays, poses, rotations about Z, float comparisons.
 * Clips are built in memory from the public structs, so each test states its
 * keys.
 */
#ifndef ANIMRT_SAMPLE_FIXTURES_H
#define ANIMRT_SAMPLE_FIXTURES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animrt.h>

#define EPS 1e-5
#define PI 3.14159265358979323846

/* ------------------------------------------------------------ fixtures */

/* A sequence over caller arrays; counts set the flags (1 value for several
 * keys = fixed, 0 = absent). */
static inline animrt_sequence seq(const char *bone, uint32_t keys, float interval_s, float duration_s,
			   const float *times, const float *t, uint32_t tn, const float *r, uint32_t rn,
			   const float *s, uint32_t sn)
{
	animrt_sequence q;

	memset(&q, 0, sizeof q);
	q.bone = bone;
	q.bone_size = (uint32_t)strlen(bone);
	q.key_count = keys;
	q.key_interval_s = interval_s;
	q.duration_s = duration_s;
	q.has_time = times != NULL;
	q.time_count = times ? keys : 0;
	q.times_s = times;
	q.has_translation = tn > 0;
	q.is_fixed_translation = tn == 1 && keys > 1;
	q.translation_count = tn;
	q.translation = t;
	q.has_rotation = rn > 0;
	q.is_fixed_rotation = rn == 1 && keys > 1;
	q.rotation_count = rn;
	q.rotation = r;
	q.has_scale = sn > 0;
	q.is_fixed_scale = sn == 1 && keys > 1;
	q.scale_count = sn;
	q.scale = s;
	return q;
}

/* Translation x = 10 * key index, keys 0..3. */
static const float tx4[12] = { 0, 0, 0, 10, 0, 0, 20, 0, 0, 30, 0, 0 };

static inline float x_at(const animrt_sequence *s, float t, animrt_play_mode mode)
{
	float T[3], R[4], S[3];

	animrt_sequence_sample(s, t, mode, NULL, T, R, S);
	return T[0];
}

static inline void rot_z(float out[4], double radians)
{
	out[0] = 0;
	out[1] = 0;
	out[2] = (float)sin(radians / 2);
	out[3] = (float)cos(radians / 2);
}

static inline void assert_floats(const float *got, const float *want, unsigned n, double eps)
{
	for (unsigned k = 0; k < n; k++)
		if (!(fabs((double)got[k] - (double)want[k]) <= eps))
			fail_msg("component %u: got %.9g, want %.9g", k, (double)got[k], (double)want[k]);
}

static inline void *pose_new(animrt_pose *pose, uint32_t bones)
{
	void *mem = malloc(animrt_pose_size_bytes(bones) + 1);

	assert_non_null(mem);
	animrt_pose_init(pose, mem, bones);
	return mem;
}

/* Two one-bone clips, bone "Root": a goes x 0 -> 10 over 1 s, b x 100 -> 200. */
static const float ramp_a[6] = { 0, 0, 0, 10, 0, 0 };
static const float ramp_b[6] = { 100, 0, 0, 200, 0, 0 };

#endif
