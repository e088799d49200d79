/*
 * player_test.c - binding a clip to a bone table once, and the player: time
 * scale, play modes, done, crossfades (player.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"
#include <animc/animrt.h>
#include "sample_fixtures.h"

/* The strcmp calls binding a clip of `count` sequences, named B<count-1>
 * down to B0, then one no bone has, to a table of bones B0 to B<count-1>
 * (B0 again at the end, and no name before it) takes; the binding checked. */
static unsigned long compares_binding(uint32_t count)
{
	animrt_sequence *seqs = calloc(count + 1, sizeof *seqs);
	const char **names = calloc(count + 2, sizeof *names);
	char *text = malloc((size_t)(count + 1) * 16);
	animrt_clip clip = { .duration_s = 1, .sequence_count = count + 1, .sequences = seqs };
	animrt_binding *b;

	assert_non_null(seqs), assert_non_null(names), assert_non_null(text);
	for (uint32_t i = 0; i <= count; i++) {
		snprintf(text + (size_t)i * 16, 16, i < count ? "B%u" : "none", i);
		if (i < count)
			names[i] = text + (size_t)i * 16;
		seqs[i].bone = text + (size_t)(i < count ? count - 1 - i : count) * 16;
	}
	names[count + 1] = names[0];
	test_strcmp_calls = 0;
	assert_int_equal(animrt_binding_create(&clip, names, count + 2, &b, NULL), ANIMRT_OK);
	unsigned long compares = test_strcmp_calls;

	for (uint32_t i = 0; i < count; i++)
		assert_int_equal(b->bone_of_sequence[i], count - 1 - i);
	assert_int_equal(b->bone_of_sequence[count], ANIMRT_NO_BONE);
	assert_int_equal(b->unmatched_count, 1);
	assert_int_equal(b->unanimated_count, 2);
	assert_int_equal(b->unanimated[0], count);
	assert_int_equal(b->unanimated[1], count + 1);
	animrt_binding_destroy(b);
	free(text), free(names), free(seqs);
	return compares;
}

/* Each sequence finds its bone without comparing its name with every
 * bone's: binding grows as the bones do, not as their square. */
static void binding_is_linear_in_the_bones(void **state)
{
	(void)state;
	unsigned long small = compares_binding(1000), large = compares_binding(4000);

	if (large > 5 * small)
		fail_msg("%lu name comparisons for 1000 bones, %lu for 4000", small, large);
}

static void binding_maps_names_once_and_reports_the_rest(void **state)
{
	(void)state;
	static const float tt[3] = { 5, 6, 7 };
	animrt_sequence seqs[3] = {
		seq("Root", 4, 1.0f, 3.0f, NULL, tx4, 4, NULL, 0, NULL, 0),
		seq("Arm", 1, 0, 3.0f, NULL, tt, 1, NULL, 0, NULL, 0),
		seq("Tail", 1, 0, 3.0f, NULL, tt, 1, NULL, 0, NULL, 0),
	};
	animrt_clip clip = { .duration_s = 3, .sequence_count = 3, .sequences = seqs };
	const char *names[5] = { "Arm", "Leg", "Root", NULL, "Arm" };
	animrt_binding *b;
	animrt_error err;
	animrt_pose pose, wrong;
	void *mem = pose_new(&pose, 5), *mem2 = pose_new(&wrong, 4);

	assert_int_equal(animrt_binding_create(&clip, names, 5, &b, &err), ANIMRT_OK);
	assert_int_equal(b->bone_count, 5);
	assert_int_equal(b->bone_of_sequence[0], 2);
	assert_int_equal(b->bone_of_sequence[1], 0);     /* the first "Arm" of the table */
	assert_int_equal(b->bone_of_sequence[2], ANIMRT_NO_BONE);
	assert_int_equal(b->unmatched_count, 1);
	assert_int_equal(b->unmatched[0], 2);
	assert_int_equal(b->unanimated_count, 3);
	assert_int_equal(b->unanimated[0], 1);
	assert_int_equal(b->unanimated[1], 3);
	assert_int_equal(b->unanimated[2], 4);

	for (uint32_t i = 0; i < 5; i++)
		pose.tracks[i] = 0xff;
	assert_int_equal(animrt_binding_sample(b, 2.5f, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
	assert_float_equal(pose.translation[3 * 2], 25, EPS);
	assert_floats(pose.translation, tt, 3, 0);
	assert_int_equal(pose.tracks[0], ANIMRT_TRACK_TRANSLATION);
	assert_int_equal(pose.tracks[1], 0);
	assert_int_equal(pose.tracks[3], 0);
	assert_int_equal(pose.tracks[4], 0);
	assert_float_equal(pose.translation[3 * 4], 0, 0);
	assert_int_equal(animrt_binding_sample(b, 1, ANIMRT_PLAY_ONCE, NULL, &wrong), ANIMRT_ERR_POSE_SIZE);
	animrt_binding_destroy(b);

	/* No table: everything unmatched.  Bad arguments. */
	assert_int_equal(animrt_binding_create(&clip, NULL, 0, &b, &err), ANIMRT_OK);
	assert_int_equal(b->unmatched_count, 3);
	animrt_binding_destroy(b);
	assert_int_equal(animrt_binding_create(&clip, NULL, 2, &b, &err), ANIMRT_ERR_ARGUMENT);
	assert_null(b);
	assert_int_equal(animrt_binding_create(NULL, names, 2, &b, NULL), ANIMRT_ERR_ARGUMENT);
	animrt_binding_destroy(NULL);
	free(mem);
	free(mem2);
}

typedef struct two_clips {
	animrt_sequence sa, sb;
	animrt_clip a, b;
	animrt_binding *ba, *bb;
	animrt_pose pose;
	void *mem;
} two_clips;

static two_clips *two_clips_new(void)
{
	two_clips *c = calloc(1, sizeof *c);
	const char *names[1] = { "Root" };

	assert_non_null(c);
	c->sa = seq("Root", 2, 1, 1, NULL, ramp_a, 2, NULL, 0, NULL, 0);
	c->sb = seq("Root", 2, 1, 1, NULL, ramp_b, 2, NULL, 0, NULL, 0);
	c->a = (animrt_clip){ .duration_s = 1, .sequence_count = 1, .sequences = &c->sa };
	c->b = (animrt_clip){ .duration_s = 1, .sequence_count = 1, .sequences = &c->sb };
	assert_int_equal(animrt_binding_create(&c->a, names, 1, &c->ba, NULL), ANIMRT_OK);
	assert_int_equal(animrt_binding_create(&c->b, names, 1, &c->bb, NULL), ANIMRT_OK);
	c->mem = pose_new(&c->pose, 1);
	return c;
}

static void two_clips_free(two_clips *c)
{
	animrt_binding_destroy(c->ba);
	animrt_binding_destroy(c->bb);
	free(c->mem);
	free(c);
}

static float player_x(animrt_player *p, two_clips *c)
{
	assert_int_equal(animrt_player_sample(p, &c->pose), ANIMRT_OK);
	return c->pose.translation[0];
}

static void player_time_scale_and_play_modes(void **state)
{
	(void)state;
	two_clips *c = two_clips_new();
	animrt_player *p;

	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	assert_true(animrt_player_is_done(p));
	assert_float_equal(player_x(p, c), 0, 0);          /* nothing plays: identity */
	assert_int_equal(c->pose.tracks[0], 0);

	assert_int_equal(animrt_player_play(p, c->ba, ANIMRT_PLAY_ONCE, 0), ANIMRT_OK);
	animrt_player_advance(p, 0.25f);
	assert_float_equal(animrt_player_time(p), 0.25f, 0);
	assert_float_equal(player_x(p, c), 2.5f, EPS);
	animrt_player_set_time_scale(p, 0);                 /* frozen */
	animrt_player_advance(p, 0.5f);
	assert_float_equal(animrt_player_time(p), 0.25f, 0);
	animrt_player_set_time_scale(p, 2);                 /* twice as fast */
	animrt_player_advance(p, 0.25f);
	assert_float_equal(animrt_player_time(p), 0.75f, EPS);
	assert_false(animrt_player_is_done(p));
	animrt_player_advance(p, 0.5f);                     /* Once: clamped, done */
	assert_float_equal(animrt_player_time(p), 1, 0);
	assert_true(animrt_player_is_done(p));
	assert_float_equal(player_x(p, c), 10, 0);
	animrt_player_advance(p, 10);
	assert_float_equal(player_x(p, c), 10, 0);

	assert_int_equal(animrt_player_play(p, c->ba, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	animrt_player_advance(p, 1.25f);                    /* Repeat: wrapped */
	assert_float_equal(animrt_player_time(p), 0.25f, EPS);
	assert_false(animrt_player_is_done(p));
	animrt_player_set_time_scale(p, -1);                /* backward, wrapping */
	animrt_player_advance(p, 0.5f);
	assert_float_equal(animrt_player_time(p), 0.75f, EPS);
	animrt_player_set_time(p, 3.5f);
	assert_float_equal(animrt_player_time(p), 0.5f, EPS);
	assert_float_equal(player_x(p, c), 5, EPS);

	/* Arguments: a binding for another skeleton size, a bad blend time. */
	animrt_player *p2;
	assert_int_equal(animrt_player_create(2, &p2, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_play(p2, c->ba, ANIMRT_PLAY_ONCE, 0), ANIMRT_ERR_BINDING_SIZE);
	assert_int_equal(animrt_player_sample(p2, &c->pose), ANIMRT_ERR_POSE_SIZE);
	assert_int_equal(animrt_player_play(p, c->ba, ANIMRT_PLAY_ONCE, -1), ANIMRT_ERR_TIME);
	assert_int_equal(animrt_player_play(p, c->ba, ANIMRT_PLAY_ONCE, NAN), ANIMRT_ERR_TIME);
	animrt_player_destroy(p2);
	animrt_player_destroy(p);
	animrt_player_destroy(NULL);
	two_clips_free(c);
}

static void crossfade_runs_from_the_current_pose_to_the_new_clip(void **state)
{
	(void)state;
	two_clips *c = two_clips_new();
	animrt_player *p;

	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	animrt_player_play(p, c->ba, ANIMRT_PLAY_REPEAT, 0);
	animrt_player_advance(p, 0.2f);
	assert_int_equal(animrt_player_play(p, c->bb, ANIMRT_PLAY_REPEAT, 0.5f), ANIMRT_OK);
	assert_float_equal(animrt_player_blend_weight(p), 0, 0);
	assert_float_equal(player_x(p, c), 2, EPS);            /* weight 0: the old clip */
	animrt_player_advance(p, 0.25f);                       /* a at 0.45, b at 0.25 */
	assert_float_equal(animrt_player_blend_weight(p), 0.5f, EPS);
	assert_float_equal(player_x(p, c), (4.5f + 125) / 2, 1e-4);
	/* Continuity: small steps move the pose a little. */
	float last = player_x(p, c);
	for (int i = 0; i < 200; i++) {
		animrt_player_advance(p, 0.001f);
		float x = player_x(p, c);
		assert_true(fabsf(x - last) < 0.5f);
		last = x;
	}
	animrt_player_advance(p, 0.1f);                        /* past the blend time */
	assert_float_equal(animrt_player_blend_weight(p), 1, 0);
	assert_float_equal(player_x(p, c), 100 + 100 * animrt_player_time(p), 1e-3);
	assert_float_equal(animrt_player_time(p), 0.55f, 1e-5);

	/* A clip started during a crossfade drops the one fading out. */
	animrt_player_play(p, c->ba, ANIMRT_PLAY_ONCE, 1);     /* b -> a */
	animrt_player_advance(p, 0.1f);
	animrt_player_play(p, c->ba, ANIMRT_PLAY_ONCE, 1);     /* now (a) -> a; b is gone */
	assert_float_equal(player_x(p, c), 1, EPS);            /* the first a, at 0.1 */
	animrt_player_destroy(p);
	two_clips_free(c);
}

/* A crossfade ends when it reaches its blend time, not at the advance
 * after: a bone only the clip fading out animates takes identity with the
 * weight 1 (it kept that clip's pose through any advance(0), a paused
 * game's). */
static void a_crossfade_ends_at_its_blend_time(void **state)
{
	(void)state;
	const char *skeleton[2] = { "Root", "Arm" };
	animrt_sequence sa = seq("Arm", 2, 1, 1, NULL, ramp_a, 2, NULL, 0, NULL, 0);
	animrt_sequence sb = seq("Root", 2, 1, 1, NULL, ramp_b, 2, NULL, 0, NULL, 0);
	animrt_clip a = { .duration_s = 1, .sequence_count = 1, .sequences = &sa };
	animrt_clip b = { .duration_s = 1, .sequence_count = 1, .sequences = &sb };
	animrt_binding *ba, *bb;
	animrt_player *p;
	animrt_pose pose;
	void *mem = pose_new(&pose, 2);

	assert_int_equal(animrt_binding_create(&a, skeleton, 2, &ba, NULL), ANIMRT_OK);
	assert_int_equal(animrt_binding_create(&b, skeleton, 2, &bb, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(2, &p, NULL), ANIMRT_OK);
	animrt_player_play(p, ba, ANIMRT_PLAY_REPEAT, 0);
	animrt_player_advance(p, 0.2f);
	animrt_player_play(p, bb, ANIMRT_PLAY_REPEAT, 0.5f);
	animrt_player_advance(p, 0.25f);
	assert_int_equal(animrt_player_sample(p, &pose), ANIMRT_OK);
	assert_true(pose.tracks[1] != 0);                     /* Arm: the old clip's, fading */
	animrt_player_advance(p, 0.25f);
	assert_float_equal(animrt_player_blend_weight(p), 1, 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(animrt_player_sample(p, &pose), ANIMRT_OK);
		assert_int_equal(pose.tracks[1], 0);              /* Arm: identity, no tracks */
		assert_float_equal(pose.translation[3], 0, 0);
		animrt_player_advance(p, 0);
	}
	animrt_player_destroy(p);
	animrt_binding_destroy(ba);
	animrt_binding_destroy(bb);
	free(mem);
}

/* A Once clip played backward is done at 0, the end it moves toward. */
static void once_backward_is_done_at_the_start(void **state)
{
	(void)state;
	two_clips *c = two_clips_new();
	animrt_player *p;

	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_play(p, c->ba, ANIMRT_PLAY_ONCE, 0), ANIMRT_OK);
	animrt_player_set_time(p, 0.75f);
	animrt_player_set_time_scale(p, -1);
	assert_false(animrt_player_is_done(p));
	animrt_player_advance(p, 0.5f);
	assert_float_equal(animrt_player_time(p), 0.25f, EPS);
	assert_false(animrt_player_is_done(p));
	animrt_player_advance(p, 0.5f);
	assert_float_equal(animrt_player_time(p), 0, 0);
	assert_true(animrt_player_is_done(p));
	/* Turned forward again, it has the duration ahead of it. */
	animrt_player_set_time_scale(p, 1);
	assert_false(animrt_player_is_done(p));
	animrt_player_advance(p, 2);
	assert_true(animrt_player_is_done(p));
	/* Repeat is never done, either way. */
	assert_int_equal(animrt_player_play(p, c->ba, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	animrt_player_set_time_scale(p, -1);
	animrt_player_advance(p, 0.5f);
	assert_false(animrt_player_is_done(p));
	animrt_player_destroy(p);
	two_clips_free(c);
}

/* An hour of small advances keeps a loop on its phase: the player's time
 * is the sum of the dt the game passed, wrapped, to float precision.  It
 * drifted, each add rounded to the float grid of the local time the same
 * way frame after frame: 2.3 ms off at 60 frames a second, 9.9 ms at 144;
 * in slow motion at once. */
static void a_long_session_keeps_the_loop_phase(void **state)
{
	static const float ramp[6] = { 0, 0, 0, 20, 0, 0 };
	static const int rates[2] = { 60, 144 };
	animrt_sequence s = seq("Root", 2, 2, 2, NULL, ramp, 2, NULL, 0, NULL, 0);
	animrt_clip clip = { .duration_s = 2, .sequence_count = 1, .sequences = &s };
	const char *names[1] = { "Root" };
	animrt_binding *b;
	animrt_player *p;

	(void)state;
	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(1, &p, NULL), ANIMRT_OK);
	for (int k = 0; k < 4; k++) {
		float dt = 1.0f / (float)rates[k / 2], scale = k % 2 ? -1.0f : 1.0f;
		double sum = 0;

		assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
		animrt_player_set_time_scale(p, scale);
		for (int i = 0; i < rates[k / 2] * 3600; i++) {
			animrt_player_advance(p, dt);
			sum += (double)dt;
		}
		double want = fmod(scale * sum, 2), off = fabs(animrt_player_time(p) - (want < 0 ? want + 2 : want));

		off = off < 1 ? off : 2 - off;   /* on the loop: 0 and 2 are one phase */
		print_message("%d fps, scale %g, an hour: %.3g s off the sum of the advances\n", rates[k / 2],
			      (double)scale, off);
		assert_true(off <= 2.4e-7);   /* a float step at 2 s */
	}
	/* Slow motion: each step below a float step of the local time was
	 * rounded to one (a minute at 1e-5 from 1 s went 72% too far). */
	assert_int_equal(animrt_player_play(p, b, ANIMRT_PLAY_REPEAT, 0), ANIMRT_OK);
	animrt_player_set_time(p, 1);
	animrt_player_set_time_scale(p, 1e-5f);
	double sum = 1;

	for (int i = 0; i < 144 * 60; i++) {
		animrt_player_advance(p, 1.0f / 144);
		sum += (double)1e-5f * (double)(1.0f / 144);
	}
	print_message("a minute at a time scale of 1e-5: %.9f, want %.9f\n", (double)animrt_player_time(p), sum);
	assert_true(fabs(animrt_player_time(p) - sum) <= 1.2e-7);
	animrt_player_destroy(p);
	animrt_binding_destroy(b);
}

/* Two sequences of one bone: the later one wins, its rotation too.  An
 * earlier sequence's interpolated rotation waited in the slerp batch and
 * landed after the later one's fixed rotation, so the earlier one played
 * on the original layout (a compact clip played the later one). */
static void the_later_sequence_of_a_bone_wins_its_rotation_too(void **state)
{
	(void)state;
	float turn[12], still[4];
	rot_z(turn, 0), rot_z(turn + 4, 0.5), rot_z(turn + 8, 1.0), rot_z(still, 0.3);
	animrt_sequence seqs[2] = {
		seq("X", 3, 0.5f, 1.0f, NULL, NULL, 0, turn, 3, NULL, 0),
		seq("X", 3, 0.5f, 1.0f, NULL, NULL, 0, still, 1, NULL, 0),
	};
	animrt_clip clip = { .duration_s = 1, .sequence_count = 2, .sequences = seqs };
	const char *names[1] = { "X" };
	animrt_binding *b;
	animrt_error err;
	animrt_pose pose;
	void *mem = pose_new(&pose, 1);

	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, &err), ANIMRT_OK);
	assert_int_equal(animrt_binding_sample(b, 0.25f, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
	assert_floats(pose.rotation, still, 4, 1e-6f);
	animrt_binding_destroy(b);
	free(mem);
}

/* The player wrapped and clamped its time at the clip's duration, while
 * the samplers and the original's binders use each sequence's own: a clip
 * of 1 s whose bone A lasts 2 s never played A's second half, and one of
 * duration 0 (kept so by --exact) stood still and was done at once. */
static void the_player_keeps_each_sequence_on_its_own_duration(void **state)
{
	(void)state;
	static const float a_x[9] = { 0, 0, 0, 2, 0, 0, 4, 0, 0 }, b_x[6] = { 0, 0, 0, 1, 0, 0 };
	animrt_sequence seqs[2] = {
		seq("A", 3, 1, 2, NULL, a_x, 3, NULL, 0, NULL, 0),
		seq("B", 2, 1, 1, NULL, b_x, 2, NULL, 0, NULL, 0),
	};
	const char *names[2] = { "A", "B" };
	animrt_play_mode modes[2] = { ANIMRT_PLAY_REPEAT, ANIMRT_PLAY_ONCE };
	animrt_pose pose, want;
	void *mem = pose_new(&pose, 2), *mem2 = pose_new(&want, 2);
	animrt_player *p;
	animrt_error err;

	assert_int_equal(animrt_player_create(2, &p, &err), ANIMRT_OK);
	for (int duration = 0; duration < 2; duration++) {
		animrt_clip clip = { .duration_s = (float)duration, .sequence_count = 2, .sequences = seqs };
		animrt_binding *b;

		assert_int_equal(animrt_binding_create(&clip, names, 2, &b, &err), ANIMRT_OK);
		for (int m = 0; m < 2; m++) {
			assert_int_equal(animrt_player_play(p, b, modes[m], 0), ANIMRT_OK);
			for (int step = 1; step <= 12; step++) {
				animrt_player_advance(p, 0.25f);
				assert_int_equal(animrt_player_sample(p, &pose), ANIMRT_OK);
				assert_int_equal(animrt_binding_sample(b, 0.25f * (float)step, modes[m], NULL, &want),
						 ANIMRT_OK);
				assert_floats(pose.translation, want.translation, 6, 1e-5f);
				/* Once: done when the longest sequence ends. */
				assert_true(animrt_player_is_done(p) == (modes[m] == ANIMRT_PLAY_ONCE && step >= 8));
			}
			/* At 3 s: 1 s into A's second loop, or A's end. */
			assert_float_equal(pose.translation[0], modes[m] == ANIMRT_PLAY_ONCE ? 4 : 2, 1e-5f);
		}
		animrt_binding_destroy(b);
	}
	animrt_player_destroy(p);
	free(mem);
	free(mem2);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(binding_maps_names_once_and_reports_the_rest),
	cmocka_unit_test(binding_is_linear_in_the_bones),
	cmocka_unit_test(player_time_scale_and_play_modes),
	cmocka_unit_test(crossfade_runs_from_the_current_pose_to_the_new_clip),
	cmocka_unit_test(a_crossfade_ends_at_its_blend_time),
	cmocka_unit_test(once_backward_is_done_at_the_start),
	cmocka_unit_test(a_long_session_keeps_the_loop_phase),
	cmocka_unit_test(the_later_sequence_of_a_bone_wins_its_rotation_too),
	cmocka_unit_test(the_player_keeps_each_sequence_on_its_own_duration),
};

ANIMC_TEST_GROUP(tests);
