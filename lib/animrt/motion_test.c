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

/* v turned by a radians about Y (the quaternion (0, sin a/2, 0, cos a/2)). */
static void yaw_turn(double a, const double v[3], double out[3])
{
	double x = v[0] * cos(a) + v[2] * sin(a), z = -v[0] * sin(a) + v[2] * cos(a);

	out[0] = x, out[1] = v[1], out[2] = z;
}

/* A character placed on the ground: where it is, and its heading about Y. */
typedef struct ground {
	double at[3], yaw;
} ground;

/* The controller recipe of runtime.md: the travel turned by the heading,
 * added; then the turn. */
static void ground_move(ground *g, const animrt_motion *m)
{
	double t[3] = { m->translation[0], m->translation[1], m->translation[2] };

	yaw_turn(g->yaw, t, t);
	for (int k = 0; k < 3; k++)
		g->at[k] += t[k];
	g->yaw += yaw_of(m->rotation);
}

/* a then b: b's placement seen from a's. */
static ground ground_compose(ground a, ground b)
{
	ground out;

	yaw_turn(a.yaw, b.at, out.at);
	for (int k = 0; k < 3; k++)
		out.at[k] += a.at[k];
	out.yaw = a.yaw + b.yaw;
	return out;
}

static ground ground_inverse(ground a)
{
	ground out;

	yaw_turn(-a.yaw, a.at, out.at);
	for (int k = 0; k < 3; k++)
		out.at[k] = -out.at[k];
	out.yaw = -a.yaw;
	return out;
}

/* Where loop after loop of a motion that travels d and turns yaw a loop
 * takes a character, one loop at a time: the reference the closed form in
 * motion.c is checked against. */
static ground ground_after_loops(const double d[3], double yaw, int loops)
{
	ground g = { { 0, 0, 0 }, 0 };

	for (int i = 0; i < loops; i++) {
		double t[3];

		yaw_turn(g.yaw, d, t);
		for (int k = 0; k < 3; k++)
			g.at[k] += t[k];
		g.yaw += yaw;
	}
	return g;
}

/* A quarter circle of radius 2 in 1 s, 61 keys: from the origin to (2, 0,
 * 2), turning 90 degrees about Y to face along its path. */
static float qt[3 * 61], qr[4 * 61];

static animrt_sequence quarter_circle_seq(void)
{
	for (int i = 0; i < 61; i++) {
		double a = 3.14159265358979323846 / 2 * i / 60;

		qt[3 * i] = (float)(2 * (1 - cos(a))), qt[3 * i + 1] = 0, qt[3 * i + 2] = (float)(2 * sin(a));
		qr[4 * i] = 0, qr[4 * i + 1] = (float)sin(a / 2), qr[4 * i + 2] = 0, qr[4 * i + 3] = (float)cos(a / 2);
	}
	return seq("Root", 61, 1.0f / 60, 1.0f, NULL, qt, 61, qr, 61, NULL, 0);
}

/* Whole loops compose: loop i travels the loop's travel turned by the i
 * loops before it.  A turn is given in the frame at from_s: the travel
 * turned back by the heading the motion has at from_s. */
static void loops_compose_turned_by_the_loops_before(void **state)
{
	animrt_sequence s = motion_seq();
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	static const double d[3] = { 2, 0, 1 };
	animrt_motion one, ten, part;
	ground want = ground_after_loops(d, 0.5, 10);
	double v[3], a[3], b[3];

	(void)state;
	assert_int_equal(animrt_motion_between(&clip, 0, 1, ANIMRT_PLAY_REPEAT, &one), ANIMRT_OK);
	assert_float_equal(one.translation[0], 2, 1e-6);
	assert_float_equal(one.translation[2], 1, 1e-6);
	test_assert_near(yaw_of(one.rotation), 0.5, 1e-6);
	assert_int_equal(animrt_motion_between(&clip, 0, 10, ANIMRT_PLAY_REPEAT, &ten), ANIMRT_OK);
	print_message("10 loops: (%.6f %.6f), want (%.6f %.6f) (not 10 x one loop, (20 10))\n", ten.translation[0],
		      ten.translation[2], want.at[0], want.at[2]);
	for (int k = 0; k < 3; k++)
		test_assert_near(ten.translation[k], want.at[k], 1e-4);
	test_assert_near(yaw_of(ten.rotation), 5, 1e-4);
	/* Within a loop: the track's difference, in the frame at 0.25 s
	 * (turned 0.125 rad). */
	assert_int_equal(animrt_motion_between(&clip, 0.25f, 0.75f, ANIMRT_PLAY_REPEAT, &part), ANIMRT_OK);
	v[0] = 1, v[1] = 0, v[2] = 0.5625 - 0.0625;
	yaw_turn(-0.125, v, v);
	for (int k = 0; k < 3; k++)
		test_assert_near(part.translation[k], v[k], 1e-6);
	test_assert_near(yaw_of(part.rotation), 0.25, 1e-6);
	/* Across the end: the next loop's start is turned by the loop's turn
	 * and moved by its travel; the whole in the frame at 0.75 s. */
	assert_int_equal(animrt_motion_between(&clip, 0.75f, 1.25f, ANIMRT_PLAY_REPEAT, &part), ANIMRT_OK);
	a[0] = 0.5, a[1] = 0, a[2] = 0.0625;
	yaw_turn(0.5, a, b);
	for (int k = 0; k < 3; k++)
		b[k] += d[k];
	v[0] = b[0] - 1.5, v[1] = 0, v[2] = b[2] - 0.5625;
	yaw_turn(-0.375, v, v);
	for (int k = 0; k < 3; k++)
		test_assert_near(part.translation[k], v[k], 1e-5);
	test_assert_near(yaw_of(part.rotation), 0.25, 1e-5);
	/* Backward is the inverse: the travel back, in the frame at 1.25 s. */
	assert_int_equal(animrt_motion_between(&clip, 1.25f, 0.75f, ANIMRT_PLAY_REPEAT, &part), ANIMRT_OK);
	v[0] = 1.5 - b[0], v[1] = 0, v[2] = 0.5625 - b[2];
	yaw_turn(-0.625, v, v);
	for (int k = 0; k < 3; k++)
		test_assert_near(part.translation[k], v[k], 1e-5);
	test_assert_near(yaw_of(part.rotation), -0.25, 1e-5);
	/* Once clamps at the end. */
	assert_int_equal(animrt_motion_between(&clip, 0, 10, ANIMRT_PLAY_ONCE, &part), ANIMRT_OK);
	assert_float_equal(part.translation[0], 2, 1e-6);
	assert_int_equal(animrt_motion_between(&clip, 0, NAN, ANIMRT_PLAY_ONCE, &part), ANIMRT_ERR_TIME);
	assert_int_equal(animrt_motion_between(NULL, 0, 1, ANIMRT_PLAY_ONCE, &part), ANIMRT_ERR_ARGUMENT);
}

/* A quarter-circle walk looped closes the circle: two loops are a half
 * circle, (4, 0, 0) facing back; four are back at the start facing as it
 * began (they went off in a straight line, (8, 0, 8), the heading spinning).
 * Loops 1 to 3 seen from loop 1's frame are loops 0 to 2. */
static void a_quarter_circle_looped_closes_the_circle(void **state)
{
	animrt_sequence s = quarter_circle_seq();
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	static const struct {
		float from_s, to_s;
		double x, z, yaw;
	} cases[] = {
		{ 0, 1, 2, 2, 0.5 }, { 0, 2, 4, 0, 1 }, { 0, 3, 2, -2, 1.5 }, { 0, 4, 0, 0, 2 },
		{ 1, 3, 4, 0, 1 },   { 0, 40, 0, 0, 20 }, { 4, 0, 0, 0, -2 }, { -2, 0, 4, 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		animrt_motion m;
		double turns;

		assert_int_equal(animrt_motion_between(&clip, cases[i].from_s, cases[i].to_s, ANIMRT_PLAY_REPEAT, &m),
				 ANIMRT_OK);
		print_message("%g s to %g s: (%.5f %.5f %.5f), want (%g 0 %g)\n", cases[i].from_s, cases[i].to_s,
			      m.translation[0], m.translation[1], m.translation[2], cases[i].x, cases[i].z);
		test_assert_near(m.translation[0], cases[i].x, 1e-4);
		test_assert_near(m.translation[1], 0, 1e-6);
		test_assert_near(m.translation[2], cases[i].z, 1e-4);
		/* The turn, in half turns, up to whole turns (q and -q). */
		turns = fmod(yaw_of(m.rotation) / 3.14159265358979323846 - cases[i].yaw, 2);
		test_assert_near(fmin(fabs(turns), 2 - fabs(turns)), 0, 1e-4);
	}
}

/* A controller that follows runtime.md's recipe advance after advance
 * (the travel turned by its heading, added, then the turn) ends each loop
 * where the clip's root ends: one loop at (2, 0, 2) facing 90 degrees,
 * four back at the start.  (With the travel in the clip's first frame it
 * ended one loop at (2, 0, 0.03).) */
static void a_controller_following_the_recipe_ends_where_the_root_ends(void **state)
{
	animrt_sequence s = quarter_circle_seq();
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	const char *names[1] = { "Root" };
	animrt_binding *b;
	animrt_player *p;
	ground g = { { 0, 0, 0 }, 0 };
	const double quarter = 3.14159265358979323846 / 2;
	const struct {
		int frame;
		double x, z, yaw;
	} wants[] = { { 60, 2, 2, quarter }, { 120, 4, 0, 2 * quarter }, { 240, 0, 0, 4 * quarter } };

	(void)state;
	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	assert_int_equal(animrt_player_set_motion(p, &clip), ANIMRT_OK);
	for (int frame = 1; frame <= 240; frame++) {
		animrt_motion m;

		animrt_player_advance(p, 1.0f / 60);
		animrt_player_motion(p, &m);
		ground_move(&g, &m);
		for (size_t i = 0; i < sizeof wants / sizeof *wants; i++) {
			if (frame != wants[i].frame)
				continue;
			print_message("controller after %d frames: (%.5f %.5f %.5f) facing %.4f rad, want (%g 0 %g), "
				      "%.4f rad\n", frame, g.at[0], g.at[1], g.at[2], g.yaw, wants[i].x, wants[i].z,
				      wants[i].yaw);
			test_assert_near(g.at[0], wants[i].x, 1e-3);
			test_assert_near(g.at[1], 0, 1e-6);
			test_assert_near(g.at[2], wants[i].z, 1e-3);
			test_assert_near(g.yaw, wants[i].yaw, 1e-4);
		}
	}
	animrt_player_destroy(p);
	animrt_binding_destroy(b);
}

/* A lossy motion clip starts a little off rest (x = 0.0004, a turn of
 * 1e-4 rad) and turns 0.02 degrees a loop: a thousand loops are the
 * loop's own travel and turn composed a thousand times, one loop at a time
 * here, not the start's offset added each loop (x drifted 0.36 on a
 * compact Low_Run), and the turn is a unit quaternion of 1000 times the
 * angle (acos of a float w gave length 0.88 and 51.5 degrees for 53.1). */
static void a_thousand_loops_compose_the_loops_own_travel_and_turn(void **state)
{
	static float t[6] = { 0.0004f, 0, 0, 1.0004f, 0, 0 }, r[8];
	const double start = 1e-4, turn = 0.02 * 3.14159265358979323846 / 180;
	animrt_sequence s;
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	animrt_motion many;

	(void)state;
	r[1] = (float)sin(start / 2), r[3] = (float)cos(start / 2);
	r[5] = (float)sin((start + turn) / 2), r[7] = (float)cos((start + turn) / 2);
	s = seq("Root", 2, 1, 1.0f, NULL, t, 2, r, 2, NULL, 0);
	/* The keys as placements; a loop moves by end * start^-1, and play
	 * time 1000 is that loop 1000 times after the start, seen from the
	 * start's frame. */
	ground c0 = { { t[0], t[1], t[2] }, yaw_of(r) }, c1 = { { t[3], t[4], t[5] }, yaw_of(r + 4) };
	ground loop = ground_compose(c1, ground_inverse(c0)), want = c0;

	for (int i = 0; i < 1000; i++)
		want = ground_compose(loop, want);
	want = ground_compose(ground_inverse(c0), want);
	assert_int_equal(animrt_motion_between(&clip, 0, 1000, ANIMRT_PLAY_REPEAT, &many), ANIMRT_OK);
	print_message("1000 loops: (%.4f %.4f %.4f), want (%.4f %.4f %.4f)\n", many.translation[0],
		      many.translation[1], many.translation[2], want.at[0], want.at[1], want.at[2]);
	for (int k = 0; k < 3; k++)
		test_assert_near(many.translation[k], want.at[k], 1e-3);
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
	animrt_motion m, a, c;
	static const double d[3] = { 2, 0, 1 };
	ground g = { { 0, 0, 0 }, 0 }, want = ground_after_loops(d, 0.5, 10);

	(void)state;
	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, NULL), ANIMRT_OK);
	assert_int_equal(animrt_binding_create(&still, names, 1, &b2, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	animrt_player_motion(p, &m);
	assert_true(m.translation[0] == 0 && m.rotation[3] == 1);
	assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	animrt_player_set_motion(p, &clip);
	/* Ten loops at 60 frames a second: the advances, each moved and
	 * turned as runtime.md says, take the character where ten loops do. */
	for (int i = 0; i < 600; i++) {
		animrt_player_advance(p, 1.0f / 60);
		animrt_player_motion(p, &m);
		ground_move(&g, &m);
	}
	print_message("player, 600 advances of 1/60 s: (%.6f %.6f), want (%.6f %.6f)\n", g.at[0], g.at[2], want.at[0],
		      want.at[2]);
	for (int k = 0; k < 3; k++)
		test_assert_near(g.at[k], want.at[k], 1e-3);
	test_assert_near(g.yaw, 5, 1e-4);
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
	/* From 0.25 s to 0.5 s, in the frame at 0.25 s (turned 0.125 rad). */
	double v[3] = { 0.5, 0, 0.25 - 0.0625 };

	yaw_turn(-0.125, v, v);
	assert_float_equal(m.translation[0], v[0], 1e-6);
	assert_float_equal(m.translation[2], v[2], 1e-6);
	/* NULL takes the motion away. */
	assert_int_equal(animrt_player_set_motion(p, NULL), ANIMRT_OK);
	animrt_player_advance(p, 0.25f);
	animrt_player_motion(p, &m);
	assert_float_equal(m.translation[0], 0, 0);
	animrt_player_destroy(p);
	animrt_binding_destroy(b);
}

/* An advance by a dt that is not finite (a frame timer after a pause)
 * moves nothing, as dt 0 does: the motion of the advance before it was
 * left in the player, and a controller applied it a second time. */
static void a_non_finite_advance_moves_nothing(void **state)
{
	animrt_sequence s = motion_seq();
	animrt_clip clip = { .duration_s = 1, .sequence_count = 1, .sequences = &s };
	const char *names[1] = { "Root" };
	const float bad[3] = { NAN, INFINITY, -INFINITY };
	animrt_binding *b;
	animrt_player *p;
	animrt_motion m;

	(void)state;
	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	assert_int_equal(animrt_player_set_motion(p, &clip), ANIMRT_OK);
	for (int fade = 0; fade < 2; fade++) {
		if (fade) {   /* and during a crossfade, both clips moving */
			assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 10), ANIMRT_OK);
			assert_int_equal(animrt_player_set_motion(p, &clip), ANIMRT_OK);
		}
		for (int k = 0; k < 3; k++) {
			animrt_player_advance(p, 0.125f);
			animrt_player_motion(p, &m);
			assert_true(m.translation[0] > 0.1f && m.rotation[1] > 0);
			float at = animrt_player_time(p), weight = animrt_player_blend_weight(p);

			animrt_player_advance(p, bad[k]);
			animrt_player_motion(p, &m);
			assert_true(m.translation[0] == 0 && m.translation[1] == 0 && m.translation[2] == 0);
			assert_true(m.rotation[0] == 0 && m.rotation[1] == 0 && m.rotation[2] == 0 && m.rotation[3] == 1);
			assert_true(animrt_player_time(p) == at && animrt_player_blend_weight(p) == weight);
		}
	}
	animrt_player_destroy(p);
	animrt_binding_destroy(b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(loops_compose_turned_by_the_loops_before),
	cmocka_unit_test(a_quarter_circle_looped_closes_the_circle),
	cmocka_unit_test(a_controller_following_the_recipe_ends_where_the_root_ends),
	cmocka_unit_test(a_thousand_loops_compose_the_loops_own_travel_and_turn),
	cmocka_unit_test(player_motion_follows_its_advances_and_crossfades),
	cmocka_unit_test(set_motion_says_when_it_cannot),
	cmocka_unit_test(a_non_finite_advance_moves_nothing),
};

ANIMC_TEST_GROUP(tests);
