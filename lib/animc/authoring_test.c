/*
 * authoring_test.c - root-motion extraction and additive clips on clips made
 * here, checked against values worked out by hand.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animc_formats.h>
#include <animc/animc_xform.h>

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

	/* Up stays in place, so only the ground plane's travel must fit in a
	 * float: a climb from -3e38 to 3e38 is split. */
	static const float climb[6] = { 0, 0, -3e38f, 1, 0, 3e38f };
	clip = animc_clip_create("Climb");
	clip->duration_s = 1;
	uint32_t ch = test_add_channel(clip, "Root", 2, NULL, 1, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, climb, 2, NULL);
	o.bone = "Root";
	assert_int_equal(animc_clip_extract_motion(clip, &o, &motion, NULL), ANIMC_OK);
	assert_true(motion->channels[0].tracks[ANIMC_TRANSLATION].values[3] == 1);
	assert_true(clip->channels[0].tracks[ANIMC_TRANSLATION].values[5] == 3e38f);
	animc_clip_destroy(motion);
	animc_clip_destroy(clip);
}

static void quat_about(float q[4], int axis, double degrees)
{
	double h = degrees * M_PI / 360;

	memset(q, 0, 4 * sizeof *q);
	q[axis] = (float)sin(h);
	q[3] = (float)cos(h);
}

static void quat_mul(float out[4], const float a[4], const float b[4])
{
	out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	out[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	out[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

static void assert_same_rotation(const float a[4], const float b[4])
{
	double dot = 0;

	for (int k = 0; k < 4; k++)
		dot += (double)a[k] * b[k];
	test_assert_near(fabs(dot), 1, 1e-6);
}

/* Hips (Y up) at rest `tilt` degrees about X, then `turn(i)` degrees about
 * the parent's axis `axis` at key i: the keys are turn * tilt. */
static animc_clip *make_tilted(double tilt, int axis, const double turn[3])
{
	static const float t[3] = { 0 };
	animc_clip *clip = animc_clip_create("Tilted");
	float q[12], r[4], x[4];
	uint32_t ch;

	clip->duration_s = 1;
	quat_about(x, 0, tilt);
	for (int i = 0; i < 3; i++) {
		quat_about(r, axis, turn[i]);
		quat_mul(q + 4 * i, r, x);
	}
	ch = test_add_channel(clip, "Hips", 3, NULL, 0.5f, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, true, t, 1, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, q, 3, NULL);
	return clip;
}

/* The yaw is the turn about up of the bone's change since the first frame,
 * whatever its rest orientation: a bone tilted a quarter turn that rolls
 * about a ground axis does not turn, and one tilted a half turn (where the
 * twist of its own rotation is undefined) turns by what it turns. */
static void motion_yaw_is_the_turn_since_the_first_frame(void **state)
{
	static const double roll[3] = { 0, 30, 60 }, turn[3] = { 0, 45, 90 };
	animc_root_motion_options o = { "Hips", ANIMC_UP_Y, true, 0 };
	animc_clip *clip = make_tilted(90, 2, roll), *motion = NULL;
	float id[4] = { 0, 0, 0, 1 }, want[4], tilt[4], t[3], q[4], s[3];

	(void)state;
	assert_int_equal(animc_clip_extract_motion(clip, &o, &motion, NULL), ANIMC_OK);
	for (int i = 0; i < 3; i++) {
		animc_channel_sample(&motion->channels[0], 0.5f * (float)i, t, q, s);
		assert_same_rotation(q, id);
	}
	animc_clip_destroy(motion), animc_clip_destroy(clip);

	clip = make_tilted(180, 1, turn);
	assert_int_equal(animc_clip_extract_motion(clip, &o, &motion, NULL), ANIMC_OK);
	quat_about(tilt, 0, 180);
	for (int i = 0; i < 3; i++) {
		animc_channel_sample(&motion->channels[0], 0.5f * (float)i, t, q, s);
		quat_about(want, 1, turn[i]);
		assert_same_rotation(q, want);
		/* In place: the first frame's rotation throughout. */
		animc_channel_sample(&clip->channels[0], 0.5f * (float)i, t, q, s);
		assert_same_rotation(q, tilt);
	}
	animc_clip_destroy(motion), animc_clip_destroy(clip);

	/* Rolled far over (150 degrees about X) as it turns: still the turn. */
	static const float still[3] = { 0 };
	float keys[12], yaw[4], over[4];
	clip = animc_clip_create("Over");
	clip->duration_s = 1;
	quat_about(over, 0, 150);
	memcpy(keys, id, sizeof id);
	for (int i = 1; i < 3; i++) {
		quat_about(yaw, 1, 40 * i);
		quat_mul(keys + 4 * i, yaw, over);
	}
	uint32_t ch = test_add_channel(clip, "Hips", 3, NULL, 0.5f, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, true, still, 1, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, keys, 3, NULL);
	assert_int_equal(animc_clip_extract_motion(clip, &o, &motion, NULL), ANIMC_OK);
	for (int i = 1; i < 3; i++) {
		animc_channel_sample(&motion->channels[0], 0.5f * (float)i, t, q, s);
		quat_about(want, 1, 40 * i);
		assert_same_rotation(q, want);
	}
	animc_clip_destroy(motion), animc_clip_destroy(clip);
}

/* A walk turning a quarter about Y up in 30 keys: its root motion loops. */
static animc_clip *make_turning_walk(void)
{
	float t[31 * 3], q[31 * 4];
	animc_clip *clip = animc_clip_create("Turn");

	for (int k = 0; k < 31; k++) {
		double yaw = k / 30.0 * M_PI / 2;

		t[3 * k] = (float)(2 * sin(yaw));
		t[3 * k + 1] = (float)(1 + 0.1 * sin(k / 30.0 * 2 * M_PI));
		t[3 * k + 2] = (float)(2 * (1 - cos(yaw)));
		q[4 * k] = q[4 * k + 2] = 0;
		q[4 * k + 1] = (float)sin(yaw / 2);
		q[4 * k + 3] = (float)cos(yaw / 2);
	}
	clip->duration_s = 1;
	uint32_t ch = test_add_channel(clip, "Root", 31, NULL, 1 / 30.0f, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, 31, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, q, 31, NULL);
	return clip;
}

/* keep_ends keeps a root motion's end keys as extracted, which the compact
 * layout's quantised keys cannot: asked for it, the processor writes the
 * original layout, saying so, and the ends stay (they moved by up to the
 * tolerance, every loop a game plays). */
static void motion_kept_ends_decline_the_compact_layout(void **state)
{
	animc_root_motion_options o = { "Root", ANIMC_UP_Y, true, 0 };
	animc_process_options compact = { .layout = ANIMC_LAYOUT_COMPACT, .reduce.keep_ends = true };
	animc_clip *clip = make_turning_walk(), *motion = NULL;
	animc_pass_stats stats = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "m");
	float end_t[3], end_q[4];

	(void)state;
	assert_int_equal(animc_clip_prepare(clip, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_extract_motion(clip, &o, &motion, NULL), ANIMC_OK);
	const animc_channel *ch = &motion->channels[0];
	memcpy(end_t, ch->tracks[ANIMC_TRANSLATION].values + 3 * (ch->key_count - 1), sizeof end_t);
	memcpy(end_q, ch->tracks[ANIMC_ROTATION].values + 4 * (ch->key_count - 1), sizeof end_q);
	assert_int_equal(animc_clip_process(motion, &compact, &sink, &stats), ANIMC_OK);
	assert_null(motion->compact);
	assert_true(stats.compact_declined);
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	assert_string_equal(diags.items[0].kind, "compact-declined");
	assert_non_null(strstr(diags.items[0].message, "keep_ends"));
	/* The last keys as extracted, bit for bit: no travel on the up axis. */
	ch = &motion->channels[0];
	assert_memory_equal(ch->tracks[ANIMC_TRANSLATION].values + 3 * (ch->key_count - 1), end_t, sizeof end_t);
	assert_memory_equal(ch->tracks[ANIMC_ROTATION].values + 4 * (ch->key_count - 1), end_q, sizeof end_q);
	assert_true(end_t[1] == 0);
	/* As the runtime plays it: one loop's travel and turn as extracted. */
	uint8_t *xnb;
	size_t size;
	animrt_clip *played;
	animrt_motion loop;
	assert_int_equal(animc_xnb_write(motion, NULL, &xnb, &size, NULL), ANIMC_OK);
	assert_int_equal(animrt_open(xnb, size, &played, NULL), ANIMRT_OK);
	assert_int_equal(animrt_motion_between(played, 0, 1, ANIMRT_PLAY_ONCE, &loop), ANIMRT_OK);
	for (int i = 0; i < 3; i++)
		test_assert_near(loop.translation[i], end_t[i], 1e-6);
	for (int i = 0; i < 4; i++)
		test_assert_near(loop.rotation[i], end_q[i], 1e-6);
	animrt_close(played);
	free(xnb);
	test_diags_release(&diags);
	animc_clip_destroy(motion), animc_clip_destroy(clip);
}

static void additive_is_the_difference_from_the_bind_pose(void **state)
{
	animc_bone bones[2] = {
		{ "Root", -1, { 0 }, { 1, 1, 1 }, { 0, 0, 0.70710678f, 0.70710678f }, { 2, 2, 2 } },
		{ "Arm", 0, { 0 }, { 0, 1, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } },
	};
	animc_skeleton skeleton = { .bones = bones, .bone_count = 2 };
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

/* A mirrored bone keyed at its rest matrix diag(1,1,-1) as a half turn
 * about Z with scale -1,-1,-1 (RobotGame's mirrored toes) while the model's
 * rest decomposes with the mirror in the X scale: its difference from the
 * bind pose is identity, not a half turn and scale (1,-1,-1). */
static void additive_bind_of_a_mirrored_bone_at_rest_is_identity(void **state)
{
	static const double mirror[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0.5, 0, 0, 1 };
	static const float t[3] = { 0.5f, 0, 0 }, q[4] = { 0, 0, 1, 0 }, s[3] = { -1, -1, -1 };
	animc_bone bone = { "Toe", -1, { 0 }, { 0 }, { 0 }, { 0 } };
	animc_skeleton skeleton = { .bones = &bone, .bone_count = 1 };
	animc_additive_options o = { ANIMC_ADDITIVE_BIND, &skeleton, NULL, NULL };
	animc_clip *clip = animc_clip_create("Idle");
	const animc_track *tracks;
	uint32_t ch;

	(void)state;
	assert_int_equal(animc_mat4_decompose(mirror, bone.translation, bone.rotation, bone.scale),
			 ANIMC_DECOMPOSE_OK);
	assert_true(bone.scale[0] < 0 && bone.scale[1] > 0 && bone.scale[2] > 0);
	clip->duration_s = 1;
	ch = test_add_channel(clip, "Toe", 2, NULL, 1, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, true, t, 1, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, true, q, 1, NULL);
	test_set_track(clip, ch, ANIMC_SCALE, true, s, 1, NULL);
	assert_int_equal(animc_clip_make_additive(clip, &o, NULL), ANIMC_OK);
	tracks = clip->channels[0].tracks;
	for (int k = 0; k < 3; k++) {
		test_assert_near(tracks[ANIMC_TRANSLATION].values[k], 0, 1e-7);
		test_assert_near(tracks[ANIMC_ROTATION].values[k], 0, 1e-7);
		test_assert_near(tracks[ANIMC_SCALE].values[k], 1, 1e-7);
	}
	test_assert_near(tracks[ANIMC_ROTATION].values[3], 1, 1e-7);
	animc_clip_destroy(clip);
}

/* What the authoring passes cannot take is an argument error, the clip
 * left as it was: no options or bone (they crashed on NULL), and a kind
 * or up axis none of the enum's (they went on as some other one). */
static void authoring_refuses_what_it_cannot_take(void **state)
{
	animc_clip *clip = make_walk(), *motion = (animc_clip *)clip;
	animc_root_motion_options no_bone = { NULL, ANIMC_UP_Z, false, 0 };
	animc_root_motion_options bad_up = { "Root", (animc_up_axis)9, false, 0 };
	animc_additive_options bad_kind = { (animc_additive_kind)7, NULL, NULL, NULL };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "w");

	(void)state;
	assert_int_equal(animc_clip_extract_motion(clip, NULL, &motion, &sink), ANIMC_ERR_ARGUMENT);
	assert_null(motion);
	assert_int_equal(animc_clip_extract_motion(clip, &no_bone, &motion, &sink), ANIMC_ERR_ARGUMENT);
	assert_int_equal(animc_clip_extract_motion(clip, &bad_up, &motion, &sink), ANIMC_ERR_ARGUMENT);
	assert_null(motion);
	motion = clip;
	assert_int_equal(animc_clip_still_motion(clip, NULL, &motion), ANIMC_ERR_ARGUMENT);
	assert_null(motion);
	assert_int_equal(animc_clip_make_additive(clip, NULL, &sink), ANIMC_ERR_ARGUMENT);
	assert_int_equal(animc_clip_make_additive(clip, &bad_kind, &sink), ANIMC_ERR_ARGUMENT);
	assert_false(clip->is_additive);
	assert_int_equal(sink.error_count, 5);
	assert_string_equal(diags.items[0].message, "clip 'Walk': root motion: no bone named (NULL)");
	assert_string_equal(diags.items[2].message, "clip 'Walk': root motion: an unknown up axis");
	assert_string_equal(diags.items[4].message, "clip 'Walk': additive: an unknown reference kind");
	/* In place as it was: the root still travels. */
	assert_true(clip->channels[0].tracks[0].values[3] == 3);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* Rotation keys of length 1.0009 and 0.9991 are valid (within
 * ANIMC_UNIT_QUAT_TOLERANCE) and compile in every other mode; as the
 * first-frame reference, the first multiplied its length into every
 * difference, and the clip failed validation ("rotation key 0 is not a
 * unit quaternion (length 1.0018)").  The reference is taken at unit
 * length: the differences keep the keys' own lengths. */
static void additive_of_rotations_off_unit_length_stays_valid(void **state)
{
	static const float q[8] = { 0, 0, 0, 1.0009f, 0, 0, 0.38268343f * 0.9991f, 0.92387953f * 0.9991f };
	animc_additive_options o = { ANIMC_ADDITIVE_FIRST_FRAME, NULL, NULL, NULL };
	animc_clip *clip = animc_clip_create("Nod");
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "n");
	const float *d;
	uint32_t ch;

	(void)state;
	clip->duration_s = 1;
	ch = test_add_channel(clip, "Head", 2, NULL, 1, 1);
	test_set_track(clip, ch, ANIMC_ROTATION, false, q, 2, NULL);
	assert_int_equal(animc_clip_make_additive(clip, &o, &sink), ANIMC_OK);
	assert_int_equal(animc_clip_validate(clip, &(animc_validate_options){ ANIMC_STAGE_IMPORTED, false }, &sink),
			 ANIMC_OK);
	assert_int_equal(diags.count, 0);
	d = clip->channels[0].tracks[ANIMC_ROTATION].values;
	test_assert_near(d[3], 1.0009, 1e-6);
	test_assert_near(d[6], 0.38268343 * 0.9991, 1e-6);
	test_assert_near(d[7], 0.92387953 * 0.9991, 1e-6);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(motion_takes_the_ground_plane_out),
	cmocka_unit_test(motion_yaw_is_the_turn_since_the_first_frame),
	cmocka_unit_test(motion_kept_ends_decline_the_compact_layout),
	cmocka_unit_test(authoring_refuses_what_it_cannot_take),
	cmocka_unit_test(additive_is_the_difference_from_the_bind_pose),
	cmocka_unit_test(additive_bind_of_a_mirrored_bone_at_rest_is_identity),
	cmocka_unit_test(additive_of_rotations_off_unit_length_stays_valid),
};

ANIMC_TEST_GROUP(tests);
