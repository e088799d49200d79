/*
 * reduce_test.c - error-bounded key reduction for the original layout: the
 * bounds hold where libanimrt samples the output (60 Hz, every source key,
 * 1 kHz), keys go where they can, and stay where they must.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "test_support.h"
#include <animc/animc.h>

#define PI 3.14159265358979323846

static const animc_tolerance DEFAULT_TOLERANCE = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						   ANIMC_TOLERANCE_SCALE };

/* A clip of smooth motion with holds and a turn: what the pass has to keep
 * within its bounds; `timed` gives it explicit times (uneven at the start). */
static animc_clip *wavy_clip(bool timed)
{
	enum { N = 91 };
	float times[N], t[3 * N], r[4 * N], s[3 * N];
	animc_clip *clip = animc_clip_create("wave");

	clip->duration_s = 3;
	for (int i = 0; i < N; i++) {
		double x = i / 30.0;

		times[i] = timed ? (float)(i < 4 ? x * x : x) : (float)x;
		/* A hold from 1 s to 1.5 s, then motion again. */
		double m = x < 1 ? x : x < 1.5 ? 1 : x - 0.5;
		t[3 * i] = (float)(0.1 * sin(0.7 * m));
		t[3 * i + 1] = (float)(0.05 * m);
		t[3 * i + 2] = (float)(0.01 * cos(1.5 * m));
		test_axis_angle(&r[4 * i], 0.2 + 0.1 * sin(m), 1, 0.1 * cos(0.5 * m), 0.3 * sin(0.5 * m) + 0.1);
		s[3 * i] = (float)(1 + 0.01 * sin(0.8 * m));
		s[3 * i + 1] = 1;
		s[3 * i + 2] = (float)(1 + 0.00005 * sin(m));
	}
	uint32_t ch = test_add_channel(clip, "Arm", N, timed ? times : NULL, timed ? 0 : 1.0f / 30, 3);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, N, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, r, N, NULL);
	test_set_track(clip, ch, ANIMC_SCALE, false, s, N, NULL);
	clip->declared_channel_count = 1;
	return clip;
}

static void check_bounds(const test_error *e, const animc_tolerance *tol)
{
	assert_true(e->translation <= tol->translation);
	assert_true(e->rotation_deg <= tol->rotation_deg);
	assert_true(e->scale <= tol->scale);
}

static void bounds_hold_where_the_runtime_samples(void **state)
{
	(void)state;
	for (int timed = 0; timed < 2; timed++) {
		animc_clip *src = wavy_clip(timed), *out = wavy_clip(timed);
		animc_process_options lossless = { 0 }, lossy = { 0 };
		animc_pass_stats stats = { 0 };

		lossy.reduce.tolerance = DEFAULT_TOLERANCE;
		assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
		assert_int_equal(animc_clip_process(out, &lossy, NULL, &stats), ANIMC_OK);
		assert_true(stats.is_reduced);
		/* Keys went: the hold and the near-linear stretches (91 down
		 * to 10 or 13 when written). */
		const animc_channel *ch = &out->channels[0];
		assert_true(ch->key_count <= 20);
		assert_true(ch->has_time);
		assert_int_equal(stats.error.keys_before, 3 * 91);
		assert_true(stats.error.keys_after < stats.error.keys_before);
		/* The pass's own measure, and libanimrt's at 60 Hz, every key
		 * and 1 kHz, stay within the bounds. */
		test_error e = test_compare_clips(src, out, 1000);
		check_bounds(&e, &DEFAULT_TOLERANCE);
		assert_true(stats.error.rotation_deg <= ANIMC_TOLERANCE_ROTATION_DEG);
		assert_true(e.rotation_deg > 1e-3);   /* it is lossy: not the same clip */
		/* Scale z moves by 1e-4 at most around 1: within the bound of
		 * one value, but x does not, so the track stays keyed. */
		assert_false(ch->tracks[ANIMC_SCALE].is_fixed);
		animc_clip_destroy(src);
		animc_clip_destroy(out);
	}
}

static void tighter_bounds_keep_more_keys(void **state)
{
	animc_tolerance tight = { 1e-5f, 0.001f, 1e-6f };
	uint32_t keys[2];

	(void)state;
	for (int k = 0; k < 2; k++) {
		animc_clip *src = wavy_clip(false), *out = wavy_clip(false);
		animc_process_options lossless = { 0 }, lossy = { 0 };

		lossy.reduce.tolerance = k ? tight : DEFAULT_TOLERANCE;
		assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
		assert_int_equal(animc_clip_process(out, &lossy, NULL, NULL), ANIMC_OK);
		keys[k] = out->channels[0].key_count;
		test_error e = test_compare_clips(src, out, 1000);
		check_bounds(&e, &lossy.reduce.tolerance);
		animc_clip_destroy(src);
		animc_clip_destroy(out);
	}
	assert_true(keys[1] > keys[0]);
}

/* Two quarter turns about one axis: the middle key lies on the slerp of its
 * neighbours, so it goes, and the runtime's slerp keeps the path between
 * them exactly (an nlerp would leave 8 degrees at a quarter of the span). */
static void a_half_turn_keeps_its_ends(void **state)
{
	float r[12];
	animc_clip *src = animc_clip_create("turn"), *out = animc_clip_create("turn");
	animc_process_options lossless = { 0 }, lossy = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	test_axis_angle(&r[0], 0, 1, 0, 0);
	test_axis_angle(&r[4], 0, 1, 0, PI / 2);
	test_axis_angle(&r[8], 0, 1, 0, PI);
	for (animc_clip *c = src; c; c = c == src ? out : NULL) {
		c->duration_s = 2;
		uint32_t ch = test_add_channel(c, "Turn", 3, NULL, 1, 2);
		test_set_track(c, ch, ANIMC_ROTATION, false, r, 3, NULL);
		c->declared_channel_count = 1;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(out, &lossy, NULL, &stats), ANIMC_OK);
	assert_int_equal(out->channels[0].key_count, 2);
	/* Evenly spaced from 0: back to a KeyInterval, no times. */
	assert_false(out->channels[0].has_time);
	test_assert_near(out->channels[0].key_interval_s, 2, 0);
	test_error e = test_compare_clips(src, out, 1000);
	assert_true(e.rotation_deg < 1e-3);
	animc_clip_destroy(src);
	animc_clip_destroy(out);
}

/* A bend that the key in the middle makes: removing it would leave more
 * than the bound at that key, so it stays. */
static void a_bend_keeps_its_key(void **state)
{
	float r[12];
	animc_clip *clip = animc_clip_create("bend");
	animc_process_options lossy = { 0 };

	(void)state;
	test_axis_angle(&r[0], 1, 0, 0, 0);
	test_axis_angle(&r[4], 1, 0, 0, 0.1);
	test_axis_angle(&r[8], 0, 1, 0, 0.1);
	clip->duration_s = 2;
	uint32_t ch = test_add_channel(clip, "Bend", 3, NULL, 1, 2);
	test_set_track(clip, ch, ANIMC_ROTATION, false, r, 3, NULL);
	clip->declared_channel_count = 1;
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, NULL), ANIMC_OK);
	assert_int_equal(clip->channels[0].key_count, 3);
	animc_clip_destroy(clip);
}

static void jitter_within_the_bound_becomes_fixed(void **state)
{
	float t[3 * 8], r[4 * 8];
	animc_clip *src = animc_clip_create("still"), *out = animc_clip_create("still");
	animc_process_options lossless = { 0 }, lossy = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		t[3 * i] = 1 + (i % 2 ? 4e-4f : -4e-4f);
		t[3 * i + 1] = 2;
		t[3 * i + 2] = 3;
		test_axis_angle(&r[4 * i], 0, 0, 1, 0.5 + (i % 3) * 0.0003);
	}
	for (animc_clip *c = src; c; c = c == src ? out : NULL) {
		c->duration_s = 0.7f;
		uint32_t ch = test_add_channel(c, "Still", 8, NULL, 0.1f, 0.7f);
		test_set_track(c, ch, ANIMC_TRANSLATION, false, t, 8, NULL);
		test_set_track(c, ch, ANIMC_ROTATION, false, r, 8, NULL);
		c->declared_channel_count = 1;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(out, &lossy, NULL, &stats), ANIMC_OK);
	const animc_channel *ch = &out->channels[0];
	assert_true(ch->tracks[ANIMC_TRANSLATION].is_fixed && ch->tracks[ANIMC_ROTATION].is_fixed);
	assert_int_equal(ch->key_count, 1);
	/* One key: no time, and (the playable pass) a KeyInterval the original
	 * runtime can divide by. */
	assert_false(ch->has_time);
	assert_true(ch->key_interval_s > 0);
	/* The held value is the middle of the jitter. */
	test_assert_near(ch->tracks[ANIMC_TRANSLATION].values[0], 1, 1e-6);
	test_error e = test_compare_clips(src, out, 1000);
	check_bounds(&e, &DEFAULT_TOLERANCE);
	test_assert_near(e.translation, 4e-4, 1e-6);
	assert_int_equal(stats.error.keys_after, 0);
	animc_clip_destroy(src);
	animc_clip_destroy(out);
}

/*
 * A track within its bound of identity stays present, held at one value:
 * written absent it would sample as identity alone, but a crossfade (the
 * original AnimationBlender, animrt_pose_blend) takes a track one clip
 * lacks whole from the other clip instead of blending toward identity.
 */
static void identity_within_the_bound_stays_present(void **state)
{
	float t[3 * 8], r[4 * 8], s[3 * 8];
	animc_clip *src = animc_clip_create("rest"), *out = animc_clip_create("rest");
	animc_process_options lossless = { 0 }, lossy = { 0 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		t[3 * i] = 0.1f * (float)i;
		t[3 * i + 1] = 0;
		t[3 * i + 2] = 0;
		test_axis_angle(&r[4 * i], 0, 1, 0, (i % 2 ? 1 : -1) * 0.0003);
		s[3 * i] = s[3 * i + 1] = s[3 * i + 2] = 1 + (i % 2 ? 2e-5f : -2e-5f);
	}
	for (animc_clip *c = src; c; c = c == src ? out : NULL) {
		c->duration_s = 0.7f;
		uint32_t ch = test_add_channel(c, "Rest", 8, NULL, 0.1f, 0.7f);
		test_set_track(c, ch, ANIMC_TRANSLATION, false, t, 8, NULL);
		test_set_track(c, ch, ANIMC_ROTATION, false, r, 8, NULL);
		test_set_track(c, ch, ANIMC_SCALE, false, s, 8, NULL);
		c->declared_channel_count = 1;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(out, &lossy, NULL, NULL), ANIMC_OK);
	const animc_channel *ch = &out->channels[0];
	for (int k = ANIMC_ROTATION; k <= ANIMC_SCALE; k++) {
		assert_true(ch->tracks[k].is_present);
		assert_true(ch->tracks[k].is_fixed);
		assert_int_equal(ch->tracks[k].value_count, 1);
	}
	test_error e = test_compare_clips(src, out, 1000);
	check_bounds(&e, &DEFAULT_TOLERANCE);
	animc_clip_destroy(src);
	animc_clip_destroy(out);
}

/* Removing one key of ten would need ten explicit times: 9 x (12 + 4) bytes
 * is more than 10 x 12, so the channel keeps its keys and its interval. */
static void keys_stay_when_times_would_cost_more(void **state)
{
	float t[3 * 10];
	animc_clip *clip = animc_clip_create("walk");
	animc_process_options lossy = { 0 };

	(void)state;
	for (int i = 0; i < 10; i++) {
		t[3 * i] = i == 5 ? (t[3 * 4] + 1.0f * 5) / 2 : (float)(i * i) * 0.01f;
		t[3 * i + 1] = 0;
		t[3 * i + 2] = 0;
	}
	t[3 * 5] = (t[3 * 4] + t[3 * 6]) / 2;   /* only key 5 lies on its neighbours' line */
	clip->duration_s = 0.9f;
	uint32_t ch = test_add_channel(clip, "Hip", 10, NULL, 0.1f, 0.9f);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, 10, NULL);
	clip->declared_channel_count = 1;
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, NULL), ANIMC_OK);
	assert_int_equal(clip->channels[0].key_count, 10);
	assert_false(clip->channels[0].has_time);
	animc_clip_destroy(clip);
}

/* Evenly spaced explicit times (as Assimp gives them) cost nothing once
 * written: the uniform pass drops them.  Fewer keys with their times must
 * beat that, or every key stays (the file is never bigger). */
static void evenly_spaced_times_count_as_free(void **state)
{
	float t[3 * 25], times[25];
	animc_clip *clip = animc_clip_create("ik");
	animc_process_options lossy = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	for (int i = 0; i < 25; i++) {
		times[i] = (float)i / 24;
		/* Curved everywhere but on two short stretches. */
		t[3 * i] = (float)(i * i) * 0.01f;
		t[3 * i + 1] = (float)sin(i * 0.7);
		t[3 * i + 2] = 0;
	}
	t[3 * 5] = (t[3 * 4] + t[3 * 6]) / 2;
	t[3 * 5 + 1] = (t[3 * 4 + 1] + t[3 * 6 + 1]) / 2;
	t[3 * 15] = (t[3 * 14] + t[3 * 16]) / 2;
	t[3 * 15 + 1] = (t[3 * 14 + 1] + t[3 * 16 + 1]) / 2;
	clip->duration_s = 1;
	uint32_t ch = test_add_channel(clip, "Handle", 25, times, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, 25, NULL);
	clip->declared_channel_count = 1;
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, &stats), ANIMC_OK);
	/* 23 keys with times (23 x 16 bytes) lose to 25 without (25 x 12). */
	assert_int_equal(clip->channels[0].key_count, 25);
	assert_false(clip->channels[0].has_time);
	assert_int_equal(stats.error.sequences_lossless, 1);
	assert_int_equal(stats.error.sequences_timed, 0);
	animc_clip_destroy(clip);
}

/* Evenly spaced keys stay so unless fewer keys with their times save more
 * than 3% of the bytes: a curved 100-key translation (12 bytes a key
 * uniform, 16 timed) with `drop` keys on their neighbours' line. */
static void reduce_with_keys_on_a_line(int drop, animc_channel *out, animc_pass_stats *stats)
{
	enum { N = 100 };
	float t[3 * N];
	animc_clip *clip = animc_clip_create("take");
	animc_process_options lossy = { 0 };

	for (int i = 0; i < N; i++) {
		t[3 * i] = (float)(i * i) * 0.01f;
		t[3 * i + 1] = (float)sin(i * 0.7);
		t[3 * i + 2] = 0;
	}
	for (int j = 0; j < drop; j++) {
		int i = 3 * j + 2;

		t[3 * i] = (t[3 * (i - 1)] + t[3 * (i + 1)]) / 2;
		t[3 * i + 1] = (t[3 * (i - 1) + 1] + t[3 * (i + 1) + 1]) / 2;
	}
	clip->duration_s = 0.99f;
	uint32_t ch = test_add_channel(clip, "Hip", N, NULL, 0.01f, 0.99f);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, N, NULL);
	clip->declared_channel_count = 1;
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, stats), ANIMC_OK);
	*out = clip->channels[0];
	animc_clip_destroy(clip);
}

static void timed_keys_must_save_more_than_three_percent(void **state)
{
	animc_channel c;
	animc_pass_stats stats = { 0 };

	(void)state;
	/* 73 keys with times, 1168 bytes: 2.7% under 1200, every key stays. */
	reduce_with_keys_on_a_line(27, &c, &stats);
	assert_int_equal(c.key_count, 100);
	assert_false(c.has_time);
	assert_int_equal(stats.error.sequences_lossless, 1);
	assert_int_equal(stats.error.sequences_timed, 0);
	/* 72 keys with times, 1152 bytes: 4% under, written with times. */
	memset(&stats, 0, sizeof stats);
	reduce_with_keys_on_a_line(28, &c, &stats);
	assert_int_equal(c.key_count, 72);
	assert_true(c.has_time);
	assert_int_equal(stats.error.sequences_lossless, 0);
	assert_int_equal(stats.error.sequences_timed, 1);
}

/* A 120 Hz take of a zigzag turning every sixth key holds its bounds with
 * every sixth key: uniform at 20 Hz, no times, smaller than fewer keys
 * with their times would be, and fewer keys evenly spaced anew miss the
 * turns. */
static void a_smooth_take_goes_to_a_coarser_interval(void **state)
{
	enum { N = 121 };
	float t[3 * N];
	animc_clip *src = animc_clip_create("mocap"), *clip = animc_clip_create("mocap");
	animc_process_options lossless = { 0 }, lossy = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	for (int i = 0; i < N; i++) {
		int phase = i % 12;

		t[3 * i] = (float)(0.05 * (phase <= 6 ? phase : 12 - phase) / 6);
		t[3 * i + 1] = (float)(0.001 * i);
		t[3 * i + 2] = 0;
	}
	for (int k = 0; k < 2; k++) {
		animc_clip *c = k ? clip : src;

		c->duration_s = 1;
		uint32_t ch = test_add_channel(c, "Hand", N, NULL, 1.0f / 120, 1);
		test_set_track(c, ch, ANIMC_TRANSLATION, false, t, N, NULL);
		c->declared_channel_count = 1;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, &stats), ANIMC_OK);
	const animc_channel *c = &clip->channels[0];
	assert_false(c->has_time);
	assert_int_equal(c->key_count, 21);
	test_assert_near(c->key_interval_s, 1.0 / 20, 1e-6);
	assert_int_equal(stats.error.sequences_coarser, 1);
	test_error e = test_compare_clips(src, clip, 1000);
	check_bounds(&e, &DEFAULT_TOLERANCE);
	animc_clip_destroy(src);
	animc_clip_destroy(clip);
}

/* A zigzag turning at every other key of a 120 Hz take: every other key
 * holds it, uniform at 60 Hz (the coarsest step is the finest there is). */
static void a_zigzag_of_every_other_key_halves_the_rate(void **state)
{
	enum { N = 121 };
	float t[3 * N];
	animc_clip *clip = animc_clip_create("mocap");
	animc_process_options lossy = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	for (int i = 0; i < N; i++) {
		t[3 * i] = (float)(0.05 * (i % 4 == 3 ? 1 : i % 4));
		t[3 * i + 1] = (float)(0.001 * i);
		t[3 * i + 2] = 0;
	}
	clip->duration_s = 1;
	uint32_t ch = test_add_channel(clip, "Hand", N, NULL, 1.0f / 120, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, N, NULL);
	clip->declared_channel_count = 1;
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, &stats), ANIMC_OK);
	const animc_channel *c = &clip->channels[0];
	assert_false(c->has_time);
	assert_int_equal(c->key_count, 61);
	test_assert_near(c->key_interval_s, 1.0 / 60, 1e-6);
	assert_int_equal(stats.error.sequences_coarser, 1);
	animc_clip_destroy(clip);
}

/* A rotation and its negation are one rotation: no error between them,
 * and a turn measured against the other hemisphere's copy is the turn. */
static void a_quaternion_and_its_negation_are_one_rotation(void **state)
{
	const float q[4] = { 0.1f, 0.2f, 0.3f, 0.9273618f }, minus_q[4] = { -0.1f, -0.2f, -0.3f, -0.9273618f };
	const float ten[4] = { 0, 0, (float)sin(PI / 36), (float)cos(PI / 36) };
	const float minus_ten[4] = { 0, 0, -(float)sin(PI / 36), -(float)cos(PI / 36) };
	const float identity[4] = { 0, 0, 0, 1 };

	(void)state;
	test_assert_near(animc_track_error(ANIMC_ROTATION, q, minus_q), 0, 1e-4);
	test_assert_near(animc_track_error(ANIMC_ROTATION, identity, ten), 10, 1e-4);
	test_assert_near(animc_track_error(ANIMC_ROTATION, identity, minus_ten), 10, 1e-4);
}

/*
 * The same circle over 113 intervals (a prime: no step of every m-th key
 * up to 16 divides it) and a turn keyed at uneven times: both hold their
 * bounds with far fewer keys evenly spaced anew, which cost no times, so
 * neither keeps its own keys or times.
 */
static void a_smooth_take_no_step_divides_is_resampled(void **state)
{
	enum { N = 114 };
	float t[3 * N], r[4 * N], times[N];
	animc_clip *src = animc_clip_create("mocap"), *clip = animc_clip_create("mocap");
	animc_process_options lossless = { 0 }, lossy = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	for (int i = 0; i < N; i++) {
		double x = i / 120.0;

		t[3 * i] = (float)(0.05 * cos(2 * PI * x));
		t[3 * i + 1] = (float)(0.05 * sin(2 * PI * x));
		t[3 * i + 2] = 0;
		/* Uneven times over the same span; a smooth turn. */
		times[i] = (float)((N - 1) / 120.0 * pow((double)i / (N - 1), 1.3));
		test_axis_angle(&r[4 * i], 0, 1, 0.2, 0.8 * sin(2.5 * times[i]));
	}
	for (int k = 0; k < 2; k++) {
		animc_clip *c = k ? clip : src;

		c->duration_s = (N - 1) / 120.0f;
		uint32_t ch = test_add_channel(c, "Hand", N, NULL, 1.0f / 120, 1);
		test_set_track(c, ch, ANIMC_TRANSLATION, false, t, N, NULL);
		ch = test_add_channel(c, "Head", N, times, 0, 2);
		test_set_track(c, ch, ANIMC_ROTATION, false, r, N, NULL);
		c->declared_channel_count = 2;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, &stats), ANIMC_OK);
	for (int k = 0; k < 2; k++) {
		const animc_channel *c = &clip->channels[k];

		assert_false(c->has_time);
		assert_true(c->key_count > 2 && c->key_count < N / 4);
		test_assert_near(c->key_interval_s * (c->key_count - 1), (N - 1) / 120.0, 1e-5);
	}
	assert_int_equal(stats.error.sequences_resampled, 2);
	assert_int_equal(stats.error.sequences_coarser + stats.error.sequences_timed + stats.error.sequences_lossless, 0);
	test_error e = test_compare_clips(src, clip, 1000);
	check_bounds(&e, &DEFAULT_TOLERANCE);
	animc_clip_destroy(src);
	animc_clip_destroy(clip);
}

/*
 * Where the farthest reach is not the fewest keys: from key 0 the span
 * reaches key 2 but no further, and from key 2 (at its own value or moved
 * by the 0.7 of the bound a kept key may move) key 3 must stay: 4 keys,
 * which with their times cost more than all 5.  Key 1 reaches key 4 (keys
 * 2 and 3 lie 0.95 of the bound either side of its line), so 3 keys hold.
 */
static void the_fewest_keys_are_not_the_farthest_reach(void **state)
{
	static const double off[5] = { -0.95, 0, 0.95, -0.95, 0 };
	float t[3 * 5];
	animc_clip *src = animc_clip_create("zigzag"), *out = animc_clip_create("zigzag");
	animc_process_options lossless = { 0 }, lossy = { 0 };

	(void)state;
	for (int i = 0; i < 5; i++) {
		/* A trend keeps the track from being one value. */
		t[3 * i] = (float)(0.1 * i + off[i] * ANIMC_TOLERANCE_TRANSLATION);
		t[3 * i + 1] = 0;
		t[3 * i + 2] = 0;
	}
	for (animc_clip *c = src; c; c = c == src ? out : NULL) {
		c->duration_s = 0.4f;
		uint32_t ch = test_add_channel(c, "Hip", 5, NULL, 0.1f, 0.4f);
		test_set_track(c, ch, ANIMC_TRANSLATION, false, t, 5, NULL);
		c->declared_channel_count = 1;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(out, &lossy, NULL, NULL), ANIMC_OK);
	/* The 3 keys with their times cost 48 bytes, as do 4 evenly spaced
	 * keys, which the writer keeps (no times: less to search); the
	 * greedy's 4 keys with times would cost 64, more than all 5. */
	const animc_channel *c = &out->channels[0];
	assert_int_equal(c->key_count * 12 + (c->has_time ? c->key_count * 4 : 0), 48);

	/* The selection itself: 3 keys where the farthest reach keeps 4. */
	float pos[5] = { 0, 0.1f, 0.2f, 0.3f, 0.4f }, stored[3 * 5], mid_value[3 * 4];
	double mid_pos[4];
	float *stored_of[1] = { stored };
	uint32_t kept[5];
	reduce_curve curve = { ANIMC_TRANSLATION, 3, animc_reduce_bound(&DEFAULT_TOLERANCE, ANIMC_TRANSLATION), 5, pos, t,
			       stored, 0, mid_pos, mid_value, false, 0 };
	curve.check_count = animc_reduce_check_count(&curve);
	assert_int_equal(curve.check_count, 4);
	animc_reduce_check_positions(&curve, mid_pos);
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 3; k++)
			mid_value[3 * i + k] = (t[3 * i + k] + t[3 * (i + 1) + k]) / 2;
	memcpy(stored, t, sizeof stored);
	assert_int_equal(animc_reduce_greedy_nudged(&curve, stored_of, 1, NULL, kept), 4);
	memcpy(stored, t, sizeof stored);
	assert_int_equal(animc_reduce_fewest_nudged(&curve, stored_of, 1, NULL, kept), 3);
	assert_int_equal(kept[1], 1);
	test_error e = test_compare_clips(src, out, 1000);
	check_bounds(&e, &DEFAULT_TOLERANCE);
	animc_clip_destroy(src);
	animc_clip_destroy(out);
}

/* Two keys at one time make a step: both stay, whatever the bound. */
static void a_step_keeps_both_keys(void **state)
{
	static const float times[4] = { 0, 1, 1, 2 };
	static const float t[12] = { 0, 0, 0, 1, 0, 0, 5, 0, 0, 6, 0, 0 };
	animc_clip *clip = animc_clip_create("step");
	animc_process_options lossy = { 0 };

	(void)state;
	clip->duration_s = 2;
	uint32_t ch = test_add_channel(clip, "Hip", 4, times, 0, 2);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, 4, NULL);
	clip->declared_channel_count = 1;
	lossy.reduce.tolerance = (animc_tolerance){ 2, 2, 2 };
	assert_int_equal(animc_clip_process(clip, &lossy, NULL, NULL), ANIMC_OK);
	const animc_channel *c = &clip->channels[0];
	assert_int_equal(c->key_count, 4);
	assert_true(c->tracks[0].values[3] == 1 && c->tracks[0].values[6] == 5);
	animc_clip_destroy(clip);
}

/* Keys that share the last time: the reported error is the output's (0
 * here: the line is kept exactly), not the jump from the first of them to
 * the last, which the runtime never interpolates (it takes the last key
 * from that time on).  The report said 7.5 units. */
static void keys_sharing_the_last_time_report_no_error(void **state)
{
	static const float times[5] = { 0, 0.25f, 0.5f, 0.75f, 0.75f };
	static const float t[15] = { 0, 0, 0, 0.5f, 0, 0, 1, 0, 0, 1.5f, 0, 0, 9, 0, 0 };
	animc_clip *clip = animc_clip_create("end-step");
	animc_reduce_options lossy = { .tolerance = { 1e-3f, 0.05f, 1e-4f } };
	animc_pass_stats stats = { 0 };

	(void)state;
	clip->duration_s = 0.75f;
	uint32_t ch = test_add_channel(clip, "Hip", 5, times, 0, 0.75f);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, 5, NULL);
	clip->declared_channel_count = 1;
	assert_int_equal(animc_pass_reduce(clip, &lossy, NULL, &stats), ANIMC_OK);
	assert_true(stats.is_reduced);
	if (stats.error.translation != 0)
		fail_msg("reported translation error %g", stats.error.translation);
	const animc_channel *c = &clip->channels[0];
	assert_int_equal(c->key_count, 3);
	assert_true(c->times_s[1] == 0.75f && c->times_s[2] == 0.75f);
	assert_true(c->tracks[0].values[3] == 1.5f && c->tracks[0].values[6] == 9);
	animc_clip_destroy(clip);
}

/* Ten minutes at 30 Hz, moving fast near the end: there a float time is a
 * step of 61 microseconds, so a kept key sits up to 31 microseconds off
 * its source key, where the source has already moved on by a few
 * percent of the bound.  The timed keys hold the source where the runtime
 * samples it. */
static void a_long_take_holds_its_bounds_at_float_times(void **state)
{
	enum { N = 18001 };
	float *t = malloc(3 * N * sizeof *t), *r = malloc(4 * N * sizeof *r);
	animc_clip *src = animc_clip_create("long"), *out = animc_clip_create("long");
	animc_pass_stats stats = { 0 };
	animc_process_options lossless = { 0 }, lossy = { 0 };

	(void)state;
	assert_true(t && r);
	for (int i = 0; i < N; i++) {
		double x = i / 30.0;

		t[3 * i] = (float)(0.8 * sin(1.3 * x) + 0.3 * sin(3.1 * x));
		t[3 * i + 1] = (float)(0.5 * cos(0.9 * x));
		t[3 * i + 2] = (float)(0.2 * sin(2.2 * x));
		test_axis_angle(&r[4 * i], sin(0.3 * x), cos(0.3 * x), 0.5, 0.9 * sin(1.1 * x) + 0.4 * sin(2.7 * x));
	}
	for (int k = 0; k < 2; k++) {
		animc_clip *c = k ? out : src;

		c->duration_s = (N - 1) / 30.0f;
		uint32_t ch = test_add_channel(c, "Hip", N, NULL, 1.0f / 30, c->duration_s);
		test_set_track(c, ch, ANIMC_TRANSLATION, false, t, N, NULL);
		test_set_track(c, ch, ANIMC_ROTATION, false, r, N, NULL);
		c->declared_channel_count = 1;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(out, &lossy, NULL, &stats), ANIMC_OK);
	assert_true(out->channels[0].has_time);
	/* Two curves of this many keys are left to the greedy (the fewest
	 * keys' search would pass its budget): it keeps 76% of them. */
	if (out->channels[0].key_count >= N * 4 / 5) fail_msg("%u keys", out->channels[0].key_count);
	test_error e = test_compare_clips(src, out, 0);
	if (e.translation > DEFAULT_TOLERANCE.translation || e.rotation_deg > DEFAULT_TOLERANCE.rotation_deg)
		fail_msg("%g units, %g degrees off", e.translation, e.rotation_deg);
	assert_true(stats.error.translation <= DEFAULT_TOLERANCE.translation);
	free(t);
	free(r);
	animc_clip_destroy(src);
	animc_clip_destroy(out);
}

/*
 * The reducer's bounds keep back 2% of the tolerance (REDUCE_MARGIN) for
 * the runtime, which slerps and lerps in float where the reducer measures
 * in double: a turn of 8 s at a bound of 0.01 degrees, reduced to its
 * bound exactly, played 0.0100026 degrees off.  As played, it stays within.
 */
static void a_rotation_reduced_to_its_bound_plays_within_it(void **state)
{
	enum { N = 240 };
	float t[3 * N], r[4 * N], s[3 * N];
	animc_clip *clip[2];
	animc_process_options lossless = { 0 }, lossy = { 0 };

	(void)state;
	for (int i = 0; i < N; i++) {
		double x = i / 30.0, a = sin(0.22 * x + 38), b = cos(0.4 * x + 38), c = sin(0.088 * x);

		test_axis_angle(&r[4 * i], 0.3 + a, 1 + 0.5 * b, 0.2 + c, 0.5 + 2 * a);
		t[3 * i] = (float)(1 + a), t[3 * i + 1] = (float)(0.5 + b), t[3 * i + 2] = (float)c;
		s[3 * i] = (float)(1 + 0.1 * a), s[3 * i + 1] = (float)(1 + 0.1 * b), s[3 * i + 2] = 1;
	}
	for (int k = 0; k < 2; k++) {
		clip[k] = animc_clip_create("turn");
		clip[k]->duration_s = (float)(N - 1) / 30;
		uint32_t ch = test_add_channel(clip[k], "Arm", N, NULL, 1.0f / 30, 3);

		test_set_track(clip[k], ch, ANIMC_TRANSLATION, false, t, N, NULL);
		test_set_track(clip[k], ch, ANIMC_ROTATION, false, r, N, NULL);
		test_set_track(clip[k], ch, ANIMC_SCALE, false, s, N, NULL);
		clip[k]->declared_channel_count = 1;
	}
	lossy.reduce.tolerance = DEFAULT_TOLERANCE;
	lossy.reduce.tolerance.rotation_deg = 0.01f;
	assert_int_equal(animc_clip_process(clip[0], &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(clip[1], &lossy, NULL, NULL), ANIMC_OK);
	test_error e = test_compare_clips(clip[0], clip[1], 1000);
	/* Reduced near its bound: the margin is what keeps it within. */
	if (e.rotation_deg > 0.01f || e.rotation_deg < 0.009)
		fail_msg("%.9g degrees off", e.rotation_deg);
	animc_clip_destroy(clip[0]);
	animc_clip_destroy(clip[1]);
}

/* A translation curve of n keys at 60 Hz, x = f(i), its check points the
 * midpoints of its intervals: room for it in the caller's arrays. */
typedef struct line_curve {
	reduce_curve c;
	float *pos, *value, *stored, *mid_value;
	double *mid_pos;
} line_curve;

static void line_curve_init(line_curve *l, uint32_t n, double (*f)(uint32_t))
{
	l->pos = malloc(n * sizeof *l->pos);
	l->value = malloc(3 * (size_t)n * sizeof *l->value);
	l->stored = malloc(3 * (size_t)n * sizeof *l->stored);
	l->mid_value = malloc(3 * (size_t)n * sizeof *l->mid_value);
	l->mid_pos = malloc(n * sizeof *l->mid_pos);
	assert_true(l->pos && l->value && l->stored && l->mid_value && l->mid_pos);
	for (uint32_t i = 0; i < n; i++) {
		l->pos[i] = (float)(i / 60.0);
		l->value[3 * i] = (float)f(i);
		l->value[3 * i + 1] = l->value[3 * i + 2] = 0;
	}
	reduce_curve c = { ANIMC_TRANSLATION, 3, animc_reduce_bound(&DEFAULT_TOLERANCE, ANIMC_TRANSLATION), n, l->pos,
			   l->value, l->stored, 0, l->mid_pos, l->mid_value, false, 0 };
	l->c = c;
	l->c.check_count = animc_reduce_check_count(&l->c);
	animc_reduce_check_positions(&l->c, l->mid_pos);
	for (uint32_t i = 0; i + 1 < n; i++)
		for (int k = 0; k < 3; k++)
			l->mid_value[3 * i + k] = (l->value[3 * i + k] + l->value[3 * (i + 1) + k]) / 2;
	memcpy(l->stored, l->value, 3 * (size_t)n * sizeof *l->stored);
}

static void line_curve_release(line_curve *l)
{
	free(l->pos);
	free(l->value);
	free(l->stored);
	free(l->mid_value);
	free(l->mid_pos);
}

/* A straight walk at constant speed, off its line by a tenth of the bound. */
static double straight_walk(uint32_t i)
{
	return 0.02 * i + (i % 2 ? 1e-4 : -1e-4);
}

/*
 * A hold of n keys (a straight walk, a steady turn) is one span: the
 * greedy's search for how far it reaches measures O(n log n) points, not
 * every span from the first key in turn, each whole (n^2 / 2 of them:
 * 40000 keys took 17 s).
 */
static void a_long_hold_is_searched_in_n_log_n(void **state)
{
	enum { N = 4096 };
	line_curve l;
	float *stored_of[1];
	uint32_t *kept = malloc(N * sizeof *kept);

	(void)state;
	assert_non_null(kept);
	line_curve_init(&l, N, straight_walk);
	stored_of[0] = l.stored;
	uint64_t before = animc_reduce_span_points();
	assert_int_equal(animc_reduce_greedy_nudged(&l.c, stored_of, 1, NULL, kept), 2);
	assert_int_equal(kept[1], N - 1);
	uint64_t points = animc_reduce_span_points() - before;
	if (points > 64 * (uint64_t)N)
		fail_msg("%llu points measured for %d keys", (unsigned long long)points, N);
	/* Through the pass, which leaves such a hold to the greedy: the
	 * fewest keys' spans of at most 16 candidates keep more. */
	animc_clip *clip = animc_clip_create("walk");
	animc_reduce_options lossy = { .tolerance = DEFAULT_TOLERANCE };
	clip->duration_s = (N - 1) / 60.0f;
	uint32_t ch = test_add_channel(clip, "Hip", N, NULL, 1.0f / 60, clip->duration_s);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, l.value, N, NULL);
	clip->declared_channel_count = 1;
	before = animc_reduce_span_points();
	assert_int_equal(animc_pass_reduce(clip, &lossy, NULL, NULL), ANIMC_OK);
	assert_int_equal(clip->channels[0].key_count, 2);
	points = animc_reduce_span_points() - before;
	if (points > 64 * (uint64_t)N)
		fail_msg("%llu points measured by the pass for %d keys", (unsigned long long)points, N);
	animc_clip_destroy(clip);
	line_curve_release(&l);
	free(kept);
}

/* Motion capture-like: a key kept every few. */
static double swaying(uint32_t i)
{
	return 0.03 * sin(i / 60.0 * 2.1) + 0.01 * sin(i / 60.0 * 7.3);
}

/*
 * The fewest keys' dynamic programme costs a few thousand point tests a key
 * of such motion: a sequence of more keys x curves than it takes is left to
 * the greedy without a point measured (a 65000-key take cost 25 times what
 * one of 66000, past its memory cap, did), and one that passes its budget
 * of points gives up there.
 */
static void the_fewest_keys_search_has_a_work_budget(void **state)
{
	enum { LONG = 20000, SHORT = 16000 };
	line_curve l;
	float *stored_of[1];
	uint32_t *kept = malloc(LONG * sizeof *kept);

	(void)state;
	assert_non_null(kept);
	line_curve_init(&l, LONG, swaying);
	stored_of[0] = l.stored;
	uint64_t before = animc_reduce_span_points();
	assert_int_equal(animc_reduce_fewest_nudged(&l.c, stored_of, 1, NULL, kept), 0);
	assert_true(animc_reduce_span_points() == before);
	line_curve_release(&l);

	line_curve_init(&l, SHORT, swaying);
	stored_of[0] = l.stored;
	before = animc_reduce_span_points();
	assert_int_equal(animc_reduce_fewest_nudged(&l.c, stored_of, 1, NULL, kept), 0);
	uint64_t points = animc_reduce_span_points() - before;
	if (points > ((uint64_t)1 << 25) + ((uint64_t)1 << 20))
		fail_msg("%llu points measured", (unsigned long long)points);
	line_curve_release(&l);
	free(kept);
}

static void no_tolerance_changes_nothing(void **state)
{
	animc_clip *a = wavy_clip(true), *b = wavy_clip(true);
	animc_process_options lossless = { 0 };
	animc_reduce_options none = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	assert_int_equal(animc_clip_process(a, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_process(b, &lossless, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_pass_reduce(b, &none, NULL, &stats), ANIMC_OK);
	assert_false(stats.is_reduced);
	assert_int_equal(b->channels[0].key_count, a->channels[0].key_count);
	test_error e = test_compare_clips(a, b, 0);
	assert_true(e.translation == 0 && e.rotation_deg == 0 && e.scale == 0);
	animc_clip_destroy(a);
	animc_clip_destroy(b);
}

/* A bound that is no distance or angle (NaN from a failed parse, below 0,
 * infinite) is refused, naming it, before anything changes: a NaN one
 * compared false with every error, and the clip lost its motion (0.9
 * units off) with ANIMC_OK. */
static void a_bound_that_is_no_number_is_refused(void **state)
{
	static const animc_tolerance bad[] = { { NAN, 0.1f, 0 }, { 0.001f, -1, 0 }, { 0.001f, 0.05f, INFINITY } };
	static const char *const named[] = { "translation tolerance nan", "rotation tolerance -1",
					     "scale tolerance inf" };

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		for (int layout = ANIMC_LAYOUT_ORIGINAL; layout <= ANIMC_LAYOUT_COMPACT; layout++) {
			animc_process_options o = { .reduce.tolerance = bad[i], .layout = (animc_layout)layout };
			test_diags diags = { 0 };
			animc_diag_sink sink = test_diag_sink(&diags, "t");
			animc_clip *clip = wavy_clip(false);

			assert_int_equal(animc_clip_process(clip, &o, &sink, NULL), ANIMC_ERR_ARGUMENT);
			assert_int_equal(sink.error_count, 1);
			assert_non_null(strstr(diags.items[0].message, named[i]));
			assert_int_equal(clip->channels[0].key_count, 91);
			assert_null(clip->compact);
			test_diags_release(&diags);
			animc_clip_destroy(clip);
		}
		animc_clip *clip = wavy_clip(false);
		animc_reduce_options r = { .tolerance = bad[i] };

		assert_int_equal(animc_clip_process(clip, NULL, NULL, NULL), ANIMC_OK);
		uint32_t keys = clip->channels[0].key_count;
		assert_int_equal(animc_pass_reduce(clip, &r, NULL, NULL), ANIMC_ERR_ARGUMENT);
		assert_int_equal(animc_pass_compact(clip, &r, NULL, NULL), ANIMC_ERR_ARGUMENT);
		assert_int_equal(clip->channels[0].key_count, keys);
		assert_null(clip->compact);
		animc_clip_destroy(clip);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(bounds_hold_where_the_runtime_samples),
	cmocka_unit_test(tighter_bounds_keep_more_keys),
	cmocka_unit_test(a_half_turn_keeps_its_ends),
	cmocka_unit_test(a_bend_keeps_its_key),
	cmocka_unit_test(jitter_within_the_bound_becomes_fixed),
	cmocka_unit_test(identity_within_the_bound_stays_present),
	cmocka_unit_test(keys_stay_when_times_would_cost_more),
	cmocka_unit_test(evenly_spaced_times_count_as_free),
	cmocka_unit_test(timed_keys_must_save_more_than_three_percent),
	cmocka_unit_test(a_smooth_take_goes_to_a_coarser_interval),
	cmocka_unit_test(a_zigzag_of_every_other_key_halves_the_rate),
	cmocka_unit_test(a_quaternion_and_its_negation_are_one_rotation),
	cmocka_unit_test(a_smooth_take_no_step_divides_is_resampled),
	cmocka_unit_test(the_fewest_keys_are_not_the_farthest_reach),
	cmocka_unit_test(a_step_keeps_both_keys),
	cmocka_unit_test(keys_sharing_the_last_time_report_no_error),
	cmocka_unit_test(a_long_take_holds_its_bounds_at_float_times),
	cmocka_unit_test(a_rotation_reduced_to_its_bound_plays_within_it),
	cmocka_unit_test(a_long_hold_is_searched_in_n_log_n),
	cmocka_unit_test(the_fewest_keys_search_has_a_work_budget),
	cmocka_unit_test(no_tolerance_changes_nothing),
	cmocka_unit_test(a_bound_that_is_no_number_is_refused),
};

ANIMC_TEST_GROUP(tests);
