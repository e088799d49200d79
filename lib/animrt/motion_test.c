/*
 * motion_test.c - root motion at run time (motion.c) and the player's motion
 * of its last advance, against values worked out here by hand.
 */
#include <math.h>
#include <stdlib.h>

#include "test_support.h"
#include <animc/animrt.h>
#include "sample_fixtures.h"

/* One loop of 1 s, 5 uniform keys: x = 2t, z = t^2 (keys), a turn about Y
 * of 0.5 rad per second. */
static float mt[15], mr[20];

static animrt_sequence motion_seq(void)
{
	for (int i = 0; i < 5; i++) {
		float t = 0.25f * (float)i;

		mt[3 * i] = 2 * t, mt[3 * i + 1] = 0, mt[3 * i + 2] = t * t;
		mr[4 * i] = 0, mr[4 * i + 1] = sinf(0.25f * t), mr[4 * i + 2] = 0, mr[4 * i + 3] = cosf(0.25f * t);
	}
	return seq("Root", 5, 0.25f, 1.0f, NULL, mt, 5, mr, 5, NULL, 0);
}

/* The angle about Y of a rotation about Y. */
static double yaw_of(const float q[4])
{
	return 2 * atan2(q[1], q[3]);
}

static void loops_accumulate_whole(void **state)
{
	animrt_sequence s = motion_seq();
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	animrt_motion one, ten, part;

	(void)state;
	assert_int_equal(animrt_motion_between(&clip, 0, 1, ANIMRT_PLAY_REPEAT, &one), ANIMRT_OK);
	assert_float_equal(one.translation[0], 2, 1e-6);
	assert_float_equal(one.translation[2], 1, 1e-6);
	test_assert_near(yaw_of(one.rotation), 0.5, 1e-6);
	assert_int_equal(animrt_motion_between(&clip, 0, 10, ANIMRT_PLAY_REPEAT, &ten), ANIMRT_OK);
	for (int k = 0; k < 3; k += 2) {
		double rel = fabs(ten.translation[k] - 10 * one.translation[k]) / fabs(10 * one.translation[k]);

		print_message("10 loops / (10 x one loop), axis %d: relative error %.3g\n", k, rel);
		assert_true(rel <= 1e-4);
	}
	test_assert_near(yaw_of(ten.rotation), 5, 1e-4);
	/* Within a loop: differences of the track; across the end: the rest
	 * of this loop plus the start of the next. */
	assert_int_equal(animrt_motion_between(&clip, 0.25f, 0.75f, ANIMRT_PLAY_REPEAT, &part), ANIMRT_OK);
	assert_float_equal(part.translation[0], 1, 1e-6);
	assert_float_equal(part.translation[2], 0.5625f - 0.0625f, 1e-6);
	assert_int_equal(animrt_motion_between(&clip, 0.75f, 1.25f, ANIMRT_PLAY_REPEAT, &part), ANIMRT_OK);
	assert_float_equal(part.translation[0], 1, 1e-5);
	assert_float_equal(part.translation[2], (1 - 0.5625f) + 0.0625f, 1e-5);
	/* Backward is the inverse. */
	assert_int_equal(animrt_motion_between(&clip, 1.25f, 0.75f, ANIMRT_PLAY_REPEAT, &part), ANIMRT_OK);
	assert_float_equal(part.translation[0], -1, 1e-5);
	/* Once clamps at the end. */
	assert_int_equal(animrt_motion_between(&clip, 0, 10, ANIMRT_PLAY_ONCE, &part), ANIMRT_OK);
	assert_float_equal(part.translation[0], 2, 1e-6);
	assert_int_equal(animrt_motion_between(&clip, 0, NAN, ANIMRT_PLAY_ONCE, &part), ANIMRT_ERR_TIME);
	assert_int_equal(animrt_motion_between(NULL, 0, 1, ANIMRT_PLAY_ONCE, &part), ANIMRT_ERR_ARGUMENT);
}

/* A lossy motion clip starts a little off rest (x = 0.0004, a turn of
 * 1e-4 rad) and turns 0.02 degrees a loop: a thousand loops are a
 * thousand times the loop's own travel and turn, not the start's offset
 * added each loop (x drifted 0.36 on a compact Low_Run), and the turn is a
 * unit quaternion of 1000 times the angle (acos of a float w gave length
 * 0.88 and 51.5 degrees for 53.1). */
static void a_thousand_loops_are_a_thousand_times_one(void **state)
{
	static float t[6] = { 0.0004f, 0, 0, 1.0004f, 0, 0 }, r[8];
	const double start = 1e-4, turn = 0.02 * 3.14159265358979323846 / 180;
	animrt_sequence s;
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	animrt_motion one, many;

	(void)state;
	r[1] = (float)sin(start / 2), r[3] = (float)cos(start / 2);
	r[5] = (float)sin((start + turn) / 2), r[7] = (float)cos((start + turn) / 2);
	s = seq("Root", 2, 1, 1.0f, NULL, t, 2, r, 2, NULL, 0);
	assert_int_equal(animrt_motion_between(&clip, 0, 1, ANIMRT_PLAY_ONCE, &one), ANIMRT_OK);
	assert_int_equal(animrt_motion_between(&clip, 0, 1000, ANIMRT_PLAY_REPEAT, &many), ANIMRT_OK);
	test_assert_near(many.translation[0], 1000.0 * one.translation[0], 1e-3);
	double len = sqrt((double)many.rotation[0] * many.rotation[0] + (double)many.rotation[1] * many.rotation[1] +
			  (double)many.rotation[2] * many.rotation[2] + (double)many.rotation[3] * many.rotation[3]);
	test_assert_near(len, 1, 1e-6);
	test_assert_near(yaw_of(many.rotation), 1000 * (yaw_of(r + 4) - yaw_of(r)), 1e-4);
}

static void player_motion_follows_its_advances_and_crossfades(void **state)
{
	animrt_sequence s = motion_seq();
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	static const float still_t[3] = { 0, 0, 0 };
	animrt_sequence s2 = seq("Root", 1, 1, 1.0f, NULL, still_t, 1, NULL, 0, NULL, 0);
	animrt_clip still = { .duration_s = 1, .sequence_count = 1, .sequences = &s2 };
	const char *names[1] = { "Root" };
	animrt_binding *b, *b2;
	animrt_player *p;
	animrt_motion m, sum = { { 0, 0, 0 }, { 0, 0, 0, 1 } }, a, c;

	(void)state;
	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, NULL), ANIMRT_OK);
	assert_int_equal(animrt_binding_create(&still, names, 1, &b2, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	animrt_player_motion(p, &m);
	assert_true(m.translation[0] == 0 && m.rotation[3] == 1);
	assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	animrt_player_set_motion(p, &clip);
	/* Ten loops at 60 frames a second: the deltas add up to ten loops. */
	for (int i = 0; i < 600; i++) {
		animrt_player_advance(p, 1.0f / 60);
		animrt_player_motion(p, &m);
		for (int k = 0; k < 3; k++)
			sum.translation[k] += m.translation[k];
	}
	print_message("player, 600 advances of 1/60 s: x %.6f (want 20), z %.6f (want 10)\n", sum.translation[0],
		      sum.translation[2]);
	assert_true(fabs(sum.translation[0] - 20) <= 20 * 1e-4);
	assert_true(fabs(sum.translation[2] - 10) <= 10 * 1e-4);
	/* A crossfade to a clip without motion over 0.5 s: the delta is the
	 * moving clip's, weighted by what is left of it. */
	animrt_player_set_time(p, 0.25f);
	assert_int_equal(animrt_player_play(p, b2, ANIMRT_PLAY_REPEAT, 0.5f), ANIMRT_OK);
	animrt_player_advance(p, 0.125f);
	animrt_player_motion(p, &m);
	assert_int_equal(animrt_motion_between(&clip, 0.25f, 0.375f, ANIMRT_PLAY_REPEAT, &a), ANIMRT_OK);
	assert_float_equal(m.translation[0], a.translation[0] * 0.75f, 1e-6);
	assert_float_equal(m.translation[2], a.translation[2] * 0.75f, 1e-6);
	/* Once the fade ends, the still clip moves nothing. */
	animrt_player_advance(p, 1);
	animrt_player_motion(p, &c);
	assert_float_equal(c.translation[0], 0, 0);
	animrt_player_destroy(p);
	animrt_binding_destroy(b);
	animrt_binding_destroy(b2);
}

/* set_motion says when it cannot give motion: before any play, or given a
 * clip that is not a motion clip (a whole clip, not its CLIP.motion.xnb),
 * which every advance would otherwise turn into no motion. */
static void set_motion_says_when_it_cannot(void **state)
{
	animrt_sequence s = motion_seq(), two[2] = { motion_seq(), motion_seq() };
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	animrt_clip walk = { .duration_s = 1, .sequence_count = 2, .sequences = two };
	const char *names[1] = { "Root" };
	animrt_binding *b;
	animrt_player *p;
	animrt_motion m;

	(void)state;
	two[1].bone = "Hips";
	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_set_motion(NULL, &clip), ANIMRT_ERR_ARGUMENT);
	assert_int_equal(animrt_player_set_motion(p, &clip), ANIMRT_ERR_NOT_PLAYING);
	assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	assert_int_equal(animrt_player_set_motion(p, &walk), ANIMRT_ERR_NOT_MOTION);
	assert_int_equal(animrt_motion_between(&walk, 0, 1, ANIMRT_PLAY_REPEAT, &m), ANIMRT_ERR_NOT_MOTION);
	animrt_player_advance(p, 0.25f);
	animrt_player_motion(p, &m);
	assert_float_equal(m.translation[0], 0, 0);
	assert_int_equal(animrt_player_set_motion(p, &clip), ANIMRT_OK);
	animrt_player_advance(p, 0.25f);
	animrt_player_motion(p, &m);
	assert_float_equal(m.translation[0], 0.5f, 1e-6);
	/* NULL takes the motion away. */
	assert_int_equal(animrt_player_set_motion(p, NULL), ANIMRT_OK);
	animrt_player_advance(p, 0.25f);
	animrt_player_motion(p, &m);
	assert_float_equal(m.translation[0], 0, 0);
	animrt_player_destroy(p);
	animrt_binding_destroy(b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(loops_accumulate_whole),
	cmocka_unit_test(a_thousand_loops_are_a_thousand_times_one),
	cmocka_unit_test(player_motion_follows_its_advances_and_crossfades),
	cmocka_unit_test(set_motion_says_when_it_cannot),
};

ANIMC_TEST_GROUP(tests);
