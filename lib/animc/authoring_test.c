/*
 * authoring_test.c - root-motion extraction and additive clips on clips made
 * here, checked against values worked out by hand.
 */
#include <math.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>

/* Root travels along x and y with z up, 3 keys; Arm fixed. */
static animc_clip *make_walk(void)
{
	static const float tx[9] = { 1, 2, 5, 3, 4, 6, 5, 6, 7 };
	static const float arm[3] = { 0, 1, 0 };
	static const float q[4] = { 0, 0, 0, 1 };
	animc_clip *clip = animc_clip_create("Walk");
	uint32_t root, a;

	clip->duration_s = 1;
	root = test_add_channel(clip, "Root", 3, NULL, 0.5f, 1);
	test_set_track(clip, root, ANIMC_TRANSLATION, false, tx, 3, NULL);
	test_set_track(clip, root, ANIMC_ROTATION, true, q, 1, NULL);
	a = test_add_channel(clip, "Arm", 1, NULL, 1, 1);
	test_set_track(clip, a, ANIMC_TRANSLATION, true, arm, 1, NULL);
	return clip;
}

static void motion_takes_the_ground_plane_out(void **state)
{
	animc_clip *clip = make_walk(), *motion = NULL;
	animc_root_motion_options o = { "Root", ANIMC_UP_Z, false, 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "w");

	(void)state;
	assert_int_equal(animc_clip_extract_motion(clip, &o, &motion, &sink), ANIMC_OK);
	/* In place: x and y stay at the first frame's, z keeps its travel. */
	const float *t = clip->channels[0].tracks[0].values, *m = motion->channels[0].tracks[0].values;
	for (int i = 0; i < 3; i++) {
		assert_true(t[3 * i] == 1 && t[3 * i + 1] == 2);
		assert_true(m[3 * i + 2] == 0);
	}
	assert_true(t[5] == 6 && t[8] == 7);
	assert_true(m[3] == 2 && m[4] == 2 && m[6] == 4 && m[7] == 4);
	assert_int_equal(motion->channel_count, 1);
	assert_true(motion->channels[0].tracks[ANIMC_ROTATION].is_fixed);
	assert_true(motion->channels[0].tracks[ANIMC_ROTATION].values[3] == 1);
	assert_int_equal(animc_clip_process(motion, NULL, NULL, NULL), ANIMC_OK);
	animc_clip_destroy(motion);
	/* An unknown bone: an error listing the bones. */
	o.bone = "Hips";
	assert_int_equal(animc_clip_extract_motion(clip, &o, &motion, &sink), ANIMC_ERR_NOT_FOUND);
	assert_null(motion);
	assert_non_null(strstr(diags.items[0].message, "'Root', 'Arm'"));
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

static void additive_is_the_difference_from_the_bind_pose(void **state)
{
	animc_bone bones[2] = {
		{ "Root", -1, { 0 }, { 1, 1, 1 }, { 0, 0, 0.70710678f, 0.70710678f }, { 2, 2, 2 } },
		{ "Arm", 0, { 0 }, { 0, 1, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } },
	};
	animc_skeleton skeleton = { bones, 2, { 0 } };
	animc_additive_options o = { ANIMC_ADDITIVE_BIND, &skeleton, NULL, NULL };
	animc_clip *clip = make_walk();
	const float *t, *q;

	(void)state;
	assert_int_equal(animc_clip_make_additive(clip, &o, NULL), ANIMC_OK);
	assert_true(clip->is_additive);
	t = clip->channels[0].tracks[ANIMC_TRANSLATION].values;
	q = clip->channels[0].tracks[ANIMC_ROTATION].values;
	assert_true(t[0] == 0 && t[1] == 1 && t[2] == 4);
	/* conjugate(90 degrees about z) * identity */
	test_assert_near(q[2], -0.70710678, 1e-7);
	test_assert_near(q[3], 0.70710678, 1e-7);
	assert_true(clip->channels[1].tracks[ANIMC_TRANSLATION].values[1] == 0);
	/* Scale absent stays absent. */
	assert_false(clip->channels[0].tracks[ANIMC_SCALE].is_present);
	animc_clip_destroy(clip);
	/* A bone the skeleton lacks. */
	skeleton.bone_count = 1;
	clip = make_walk();
	assert_int_equal(animc_clip_make_additive(clip, &o, NULL), ANIMC_ERR_NOT_FOUND);
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(motion_takes_the_ground_plane_out),
	cmocka_unit_test(additive_is_the_difference_from_the_bind_pose),
};

ANIMC_TEST_GROUP(tests);
