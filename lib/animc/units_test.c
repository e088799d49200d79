/*
 * units_test.c - a model converted by animc_skeleton_apply_units: every
 * bone's origin in model space moves to (p * scale) * Rz * Rx * Ry, its
 * axes turn by R, and clips: translations scale, roots turn, a root with no
 * rotation track gets R.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animc_xform.h>

static void mat_mul(const double a[16], const double b[16], double out[16])
{
	double m[16];

	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++) {
			m[r * 4 + c] = 0;
			for (int k = 0; k < 4; k++)
				m[r * 4 + c] += a[r * 4 + k] * b[k * 4 + c];
		}
	memcpy(out, m, sizeof m);
}

/* Model-space matrix of every bone (parents come first). */
static void world(const animc_skeleton *s, double (*out)[16])
{
	for (uint32_t i = 0; i < s->bone_count; i++) {
		double local[16];

		for (int k = 0; k < 16; k++)
			local[k] = s->bones[i].local[k];
		if (s->bones[i].parent < 0)
			memcpy(out[i], local, sizeof local);
		else
			mat_mul(local, out[s->bones[i].parent], out[i]);
	}
}

static void skeleton_moves_as_a_whole(void **state)
{
	static const char *const names[] = { "root", "spine", "arm", "other" };
	static const int32_t parents[] = { -1, 0, 1, -1 };
	animc_skeleton s = { 0 };
	animc_units u = { .scale = 0.01, .rotation_deg = { 90, 20, -35 } };
	double before[4][16], after[4][16], q[4], r[16];

	(void)state;
	s.bones = calloc(4, sizeof *s.bones);
	s.bone_count = 4;
	for (uint32_t i = 0; i < 4; i++) {
		animc_bone *b = &s.bones[i];
		double t[3] = { 1.0 + i, -2.0 * i, 0.5 }, sc[3] = { 1, 1, 1 };
		float qf[4];
		double qd[4], m[16];

		animc_quat_from_yaw_pitch_roll(0.3f * (float)i, 0.2f, -0.1f * (float)i, qf);
		for (int k = 0; k < 4; k++)
			qd[k] = qf[k];
		animc_mat4_compose(t, qd, sc, m);
		for (int k = 0; k < 16; k++)
			b->local[k] = (float)m[k];
		b->name = names[i];
		b->parent = parents[i];
	}
	world(&s, before);
	assert_int_equal(animc_skeleton_apply_units(&s, &u), ANIMC_OK);
	world(&s, after);
	animc_units_rotation(&u, q);
	animc_mat4_from_quat(q, r);
	for (uint32_t i = 0; i < 4; i++) {
		double p[16] = { 0 }, want[16];

		/* The origin: (p * s) * R; the axes: R turned. */
		memcpy(p, before[i], sizeof p);
		p[12] *= 0.01, p[13] *= 0.01, p[14] *= 0.01;
		mat_mul(p, r, want);
		for (int k = 0; k < 16; k++)
			test_assert_near(after[i][k], want[k], 1e-6);
	}
	free(s.bones);
}

static void clip_roots_turn_and_translations_scale(void **state)
{
	animc_clip *clip = animc_clip_create("c");
	animc_units u = { .scale = 2, .rotation_deg = { 0, 0, 90 } };
	animc_units none = { 0 };

	(void)state;
	uint32_t a = test_add_channel(clip, "A", 1, NULL, 1, 1);
	test_set_track(clip, a, ANIMC_TRANSLATION, true, (const float[]){ 1, 0, 0 }, 1, NULL);
	uint32_t b = test_add_channel(clip, "B", 1, NULL, 1, 1);
	test_set_track(clip, b, ANIMC_TRANSLATION, true, (const float[]){ 1, 0, 0 }, 1, NULL);
	assert_true(animc_units_is_identity(&none));
	assert_false(animc_units_has_rotation(&(animc_units){ .rotation_deg = { 360, -720, 0 } }));
	/* No hierarchy: every channel is a root. */
	assert_int_equal(animc_clip_apply_units(clip, &u, NULL), ANIMC_OK);
	for (uint32_t c = 0; c < 2; c++) {
		const animc_track *t = &clip->channels[c].tracks[ANIMC_TRANSLATION];
		const animc_track *r = &clip->channels[c].tracks[ANIMC_ROTATION];

		/* (2, 0, 0) turned 90 degrees about Z is (0, 2, 0). */
		test_assert_near(t->values[0], 0, 1e-6);
		test_assert_near(t->values[1], 2, 1e-6);
		assert_true(r->is_present && r->is_fixed);
		test_assert_near(r->values[2], sin(M_PI / 4), 1e-6);
		test_assert_near(r->values[3], cos(M_PI / 4), 1e-6);
	}
	assert_int_equal(animc_clip_apply_units(clip, &(animc_units){ .scale = -1 }, NULL), ANIMC_ERR_ARGUMENT);
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(skeleton_moves_as_a_whole),
	cmocka_unit_test(clip_roots_turn_and_translations_scale),
};

ANIMC_TEST_GROUP(tests);
