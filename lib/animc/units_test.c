/*
 * units_test.c - units and axes as MonoGame's ModelProcessor converts a
 * model: with T = Rz * Rx * Ry * scale, every bone's transform and every
 * key K becomes inverse(T) * K * T, checked against those matrices built
 * here: a model's bones, and a clip's keys of every bone.
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

/* inverse(T) * m * T for T = R * scale (R the row-vector rotation r). */
static void conjugate(const double m[16], const double r[16], double scale, double out[16])
{
	double inv[16], t[16];

	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			inv[i * 4 + k] = r[k * 4 + i];
	mat_mul(inv, m, t);
	mat_mul(t, r, out);
	out[12] *= scale, out[13] *= scale, out[14] *= scale;
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
		/* "other" mirrored, which the turn cannot carry onto the axes. */
		double t[3] = { 1.0 + i, -2.0 * i, 0.5 }, sc[3] = { i == 3 ? -2 : 1, i == 3 ? 2 : 1, i == 3 ? 2 : 1 };
		float qf[4];
		double qd[4], m[16];

		animc_quat_from_yaw_pitch_roll(0.3f * (float)i, 0.2f, -0.1f * (float)i, qf);
		for (int k = 0; k < 4; k++)
			qd[k] = qf[k];
		animc_mat4_compose(t, qd, sc, m);
		for (int k = 0; k < 16; k++)
			b->local[k] = (float)m[k];
		memcpy(b->translation, (float[]){ (float)t[0], (float)t[1], (float)t[2] }, sizeof b->translation);
		memcpy(b->rotation, qf, sizeof qf);
		memcpy(b->scale, (float[]){ (float)sc[0], (float)sc[1], (float)sc[2] }, sizeof b->scale);
		b->name = names[i];
		b->parent = parents[i];
	}
	world(&s, before);
	assert_int_equal(animc_skeleton_apply_units(&s, &u, NULL), ANIMC_OK);
	world(&s, after);
	animc_units_rotation(&u, q);
	animc_mat4_from_quat(q, r);
	for (uint32_t i = 0; i < 4; i++) {
		double want[16], trs[16], t[3], rot[4], sc[3];

		/* In model space too: inverse(T) * W * T, whose origin is the
		 * old one times T, as MonoGame moves the mesh. */
		conjugate(before[i], r, 0.01, want);
		for (int k = 0; k < 16; k++)
			test_assert_near(after[i][k], want[k], 1e-6);
		/* The decomposition says the same transform. */
		for (int k = 0; k < 3; k++)
			t[k] = s.bones[i].translation[k], sc[k] = s.bones[i].scale[k];
		for (int k = 0; k < 4; k++)
			rot[k] = s.bones[i].rotation[k];
		animc_mat4_compose(t, rot, sc, trs);
		for (int k = 0; k < 16; k++)
			test_assert_near(trs[k], s.bones[i].local[k], 1e-6);
	}
	free(s.bones);
}

/* One bone's key (t, q, s) against the matrix inverse(T) * K * T. */
static void assert_key_conjugated(const animc_channel *ch, const float t[3], const float q[4], const float s[3],
				  const animc_units *u)
{
	double k[16], want[16], got[16], r[16], qr[4];
	double td[3] = { t[0], t[1], t[2] }, qd[4] = { q[0], q[1], q[2], q[3] }, sd[3] = { s[0], s[1], s[2] };
	static const float id[4] = { 0, 0, 0, 1 }, one[3] = { 1, 1, 1 };
	const animc_track *tracks = ch->tracks;
	const float *gt = tracks[ANIMC_TRANSLATION].values;
	const float *gq = tracks[ANIMC_ROTATION].is_present ? tracks[ANIMC_ROTATION].values : id;
	const float *gs = tracks[ANIMC_SCALE].is_present ? tracks[ANIMC_SCALE].values : one;

	animc_units_rotation(u, qr);
	animc_mat4_from_quat(qr, r);
	animc_mat4_compose(td, qd, sd, k);
	conjugate(k, r, u->scale, want);
	animc_mat4_compose((double[]){ gt[0], gt[1], gt[2] }, (double[]){ gq[0], gq[1], gq[2], gq[3] },
			   (double[]){ gs[0], gs[1], gs[2] }, got);
	for (int i = 0; i < 16; i++)
		test_assert_near(got[i], want[i], 1e-5);
}

/* Every bone, not only a root: its translation turned and scaled, its
 * rotation conjugated, a non-uniform scale's components moved to the axes
 * a quarter turn carries them to; absent tracks stay absent. */
static void clip_keys_turn_as_monogame_turns_a_model(void **state)
{
	static const float t[3] = { 1, 0.5f, -2 }, s[3] = { 1, 2, -3 }, one[3] = { 1, 1, 1 };
	static const float id[4] = { 0, 0, 0, 1 };
	animc_units quarter = { .scale = 2, .rotation_deg = { 90, 0, 90 } };
	animc_units none = { 0 };
	animc_clip *clip = animc_clip_create("c");
	float q[4];
	uint32_t a, b;

	(void)state;
	animc_quat_from_yaw_pitch_roll(0.4f, -0.3f, 1.1f, q);
	a = test_add_channel(clip, "Root", 1, NULL, 1, 1);
	test_set_track(clip, a, ANIMC_TRANSLATION, true, t, 1, NULL);
	b = test_add_channel(clip, "Child", 1, NULL, 1, 1);
	test_set_track(clip, b, ANIMC_TRANSLATION, true, t, 1, NULL);
	test_set_track(clip, b, ANIMC_ROTATION, true, q, 1, NULL);
	test_set_track(clip, b, ANIMC_SCALE, true, s, 1, NULL);
	assert_true(animc_units_is_identity(&none));
	assert_false(animc_units_has_rotation(&(animc_units){ .rotation_deg = { 360, -720, 0 } }));
	assert_int_equal(animc_clip_apply_units(clip, &quarter, NULL), ANIMC_OK);
	/* Rz(90) then Rx(90): x goes to y, then to z; y to -x; z to -y. */
	const float *rt = clip->channels[a].tracks[ANIMC_TRANSLATION].values;
	test_assert_near(rt[0], -1, 1e-6);
	test_assert_near(rt[1], 4, 1e-6);
	test_assert_near(rt[2], 2, 1e-6);
	/* A root with no rotation or scale keeps none: inverse(R) * R. */
	assert_false(clip->channels[a].tracks[ANIMC_ROTATION].is_present);
	assert_false(clip->channels[a].tracks[ANIMC_SCALE].is_present);
	const float *cs = clip->channels[b].tracks[ANIMC_SCALE].values;
	/* Along the axes x, y, z carry to: z gets x's 1, x gets y's 2, y gets
	 * z's -3. */
	test_assert_near(cs[0], 2, 1e-6);
	test_assert_near(cs[1], -3, 1e-6);
	test_assert_near(cs[2], 1, 1e-6);
	assert_key_conjugated(&clip->channels[b], t, q, s, &quarter);
	assert_key_conjugated(&clip->channels[a], t, id, one, &quarter);
	assert_int_equal(animc_clip_apply_units(clip, &(animc_units){ .scale = -1 }, NULL), ANIMC_ERR_ARGUMENT);
	/* An angle that is no number (it turned every key NaN, with ANIMC_OK),
	 * for a clip and a skeleton: refused, nothing changed. */
	float before = clip->channels[b].tracks[ANIMC_TRANSLATION].values[0];
	animc_units nan_turn = { .scale = 1, .rotation_deg = { 0, NAN, 0 } };
	assert_int_equal(animc_clip_apply_units(clip, &nan_turn, NULL), ANIMC_ERR_ARGUMENT);
	assert_true(clip->channels[b].tracks[ANIMC_TRANSLATION].values[0] == before);
	animc_bone bone = { "Root", -1, { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2, 3, 4, 1 }, { 2, 3, 4 }, { 0, 0, 0, 1 },
			    { 1, 1, 1 } };
	animc_skeleton skeleton = { .bones = &bone, .bone_count = 1 };
	nan_turn.rotation_deg[1] = INFINITY;
	assert_int_equal(animc_skeleton_apply_units(&skeleton, &nan_turn, NULL), ANIMC_ERR_ARGUMENT);
	assert_true(bone.translation[0] == 2 && bone.local[12] == 2);
	animc_clip_destroy(clip);
}

/* A turn that is no quarter turn takes a non-uniform scale off the axes:
 * the scale along them is kept and a sheared-scale warning names the bone;
 * a uniform scale stays exact and unsaid, and so does a mirror (one size,
 * signs apart), whose turn goes into the rotation, one made if need be. */
static void clip_scale_off_the_axes_is_said(void **state)
{
	static const float t[3] = { 0 }, s[3] = { 1, 2, 1 }, even[3] = { 3, 3, 3 }, q[4] = { 0, 0, 0, 1 };
	animc_units u = { .scale = 1, .rotation_deg = { 0, 0, 45 } };
	animc_clip *clip = animc_clip_create("c");
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "c");
	uint32_t a, b;

	(void)state;
	a = test_add_channel(clip, "Stretched", 1, NULL, 1, 1);
	test_set_track(clip, a, ANIMC_SCALE, true, s, 1, NULL);
	b = test_add_channel(clip, "Even", 1, NULL, 1, 1);
	test_set_track(clip, b, ANIMC_TRANSLATION, true, t, 1, NULL);
	test_set_track(clip, b, ANIMC_ROTATION, true, q, 1, NULL);
	test_set_track(clip, b, ANIMC_SCALE, true, even, 1, NULL);
	uint32_t mirrored = test_add_channel(clip, "Mirrored", 2, NULL, 1, 1);
	test_set_track(clip, mirrored, ANIMC_TRANSLATION, true, t, 1, NULL);
	test_set_track(clip, mirrored, ANIMC_SCALE, false, (const float[]){ -1, 1, 1, -2, 2, 2 }, 2, NULL);
	/* Two axes negative: a half turn about the third, which the rotation
	 * takes off the axes too. */
	uint32_t flipped = test_add_channel(clip, "Flipped", 2, NULL, 1, 1);
	test_set_track(clip, flipped, ANIMC_TRANSLATION, true, t, 1, NULL);
	test_set_track(clip, flipped, ANIMC_SCALE, false, (const float[]){ -1, 1, -1, -2, 2, -2 }, 2, NULL);
	assert_int_equal(animc_clip_apply_units(clip, &u, &sink), ANIMC_OK);
	assert_key_conjugated(&clip->channels[mirrored], t, q, (const float[]){ -1, 1, 1 }, &u);
	assert_key_conjugated(&clip->channels[flipped], t, q, (const float[]){ -1, 1, -1 }, &u);
	assert_true(clip->channels[mirrored].tracks[ANIMC_SCALE].values[3] == -2);
	/* diag(1, 2, 1) turned 45 degrees about Z: 1.5, 1.5 on the axes, 0.5
	 * across them. */
	const float *got = clip->channels[a].tracks[ANIMC_SCALE].values;
	test_assert_near(got[0], 1.5, 1e-6);
	test_assert_near(got[1], 1.5, 1e-6);
	test_assert_near(got[2], 1, 1e-6);
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	assert_string_equal(diags.items[0].kind, "sheared-scale");
	assert_non_null(strstr(diags.items[0].message, "'Stretched'"));
	assert_key_conjugated(&clip->channels[b], t, q, even, &u);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* A quarter turn permutes components exactly, as the same source turned
 * by hand would hold them: no residue of sin(pi) where a 0 belongs (a
 * root's yaw of 1e-17 about the new up keeps its --root-motion turn keyed). */
static void quarter_turns_permute_exactly(void **state)
{
	static const float t[3] = { 0, 30, 0 }, axis[3] = { 0.6f, 0, 0.8f };
	animc_units x90 = { .scale = 1, .rotation_deg = { 90, 0, 0 } };
	animc_units half = { .scale = 1, .rotation_deg = { 180, -270, 0 } };
	animc_clip *clip = animc_clip_create("c");
	animc_skeleton s = { 0 };
	float q[4] = { axis[0] * sinf(0.35f), 0, axis[2] * sinf(0.35f), cosf(0.35f) };
	uint32_t a;

	(void)state;
	a = test_add_channel(clip, "Root", 1, NULL, 1, 1);
	test_set_track(clip, a, ANIMC_TRANSLATION, true, t, 1, NULL);
	test_set_track(clip, a, ANIMC_ROTATION, true, q, 1, NULL);
	assert_int_equal(animc_clip_apply_units(clip, &x90, NULL), ANIMC_OK);
	/* Rx(90): (x, y, z) goes to (x, -z, y). */
	const float *rt = clip->channels[a].tracks[ANIMC_TRANSLATION].values;
	const float *rq = clip->channels[a].tracks[ANIMC_ROTATION].values;
	assert_true(rt[0] == 0 && rt[1] == 0 && rt[2] == 30);
	assert_true(rq[2] == 0 && rq[0] == q[0] && rq[1] == -q[2] && rq[3] == q[3]);
	/* Rx(180) * Ry(-270): (x, y, z) to (x, -y, -z), then to (-z, -y, -x). */
	assert_int_equal(animc_clip_apply_units(clip, &half, NULL), ANIMC_OK);
	assert_true(rt[0] == -30 && rt[1] == 0 && rt[2] == 0);
	s.bones = calloc(1, sizeof *s.bones);
	s.bone_count = 1;
	s.bones[0].parent = -1;
	memcpy(s.bones[0].translation, t, sizeof t);
	memcpy(s.bones[0].rotation, q, sizeof q);
	s.bones[0].scale[0] = s.bones[0].scale[1] = s.bones[0].scale[2] = 1;
	assert_int_equal(animc_skeleton_apply_units(&s, &x90, NULL), ANIMC_OK);
	assert_true(s.bones[0].translation[1] == 0 && s.bones[0].translation[2] == 30);
	assert_true(s.bones[0].rotation[2] == 0);
	free(s.bones);
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(skeleton_moves_as_a_whole),
	cmocka_unit_test(clip_keys_turn_as_monogame_turns_a_model),
	cmocka_unit_test(clip_scale_off_the_axes_is_said),
	cmocka_unit_test(quarter_turns_permute_exactly),
};

ANIMC_TEST_GROUP(tests);
