/*
 * split_test.c - the clip-splitting pass against an evaluator written here
 * (the runtime's lerp and slerp in double precision), and its errors.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>

/* A take of 2 s: bone A uniform keys every 0.25 s (translation x = t^2,
 * rotation about Z by t), bone B one fixed key. */
static animc_clip *make_take(const char *name)
{
	float tx[27], q[36];
	static const float fixed_t[3] = { 1, 2, 3 };
	static const float fixed_q[4] = { 0, 0, 0, 1 };
	animc_clip *clip = animc_clip_create(name);
	uint32_t a, b;

	for (int i = 0; i < 9; i++) {
		float t = 0.25f * (float)i;

		tx[3 * i] = t * t, tx[3 * i + 1] = 0, tx[3 * i + 2] = -t;
		q[4 * i] = 0, q[4 * i + 1] = 0, q[4 * i + 2] = sinf(t / 2), q[4 * i + 3] = cosf(t / 2);
	}
	clip->duration_s = 2;
	a = test_add_channel(clip, "A", 9, NULL, 0.25f, 2);
	test_set_track(clip, a, ANIMC_TRANSLATION, false, tx, 9, NULL);
	test_set_track(clip, a, ANIMC_ROTATION, false, q, 9, NULL);
	b = test_add_channel(clip, "B", 1, NULL, 2, 2);
	test_set_track(clip, b, ANIMC_TRANSLATION, true, fixed_t, 1, NULL);
	test_set_track(clip, b, ANIMC_ROTATION, true, fixed_q, 1, NULL);
	return clip;
}

/* The take's bone A at t, independently: keys at k / 4, linear between. */
static void take_at(double t, double tr[3], double rot[4])
{
	int k = (int)floor(t * 4);
	double k0, k1, u;

	if (k >= 8)
		k = 7;
	k0 = k * 0.25, k1 = k0 + 0.25, u = (t - k0) / 0.25;
	tr[0] = (float)(k0 * k0) + ((float)(k1 * k1) - (float)(k0 * k0)) * u;
	tr[1] = 0;
	tr[2] = -(k0 + (k1 - k0) * u);
	/* slerp between two rotations about Z: the angle interpolates. */
	double angle = k0 + (k1 - k0) * u;
	rot[0] = rot[1] = 0, rot[2] = sin(angle / 2), rot[3] = cos(angle / 2);
}

static void parts_are_the_take_shifted(void **state)
{
	animc_split_part parts[2] = { { "P", { 0.3, false }, { 1.6, false }, 0 },
				      { "Q", { 2, true }, { 7, true }, 0 } };   /* frames at 4 Hz */
	animc_split split = { "Take", 0, 0, parts, 2, NULL };
	animc_clip_set set = { 0 };
	double worst = 0;

	(void)state;
	assert_int_equal(animc_clip_set_add(&set, make_take("Other")), ANIMC_OK);
	assert_int_equal(animc_clip_set_add(&set, make_take("Take")), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	/* The take's place holds its parts, in order; the other take stays. */
	assert_int_equal(set.count, 3);
	assert_string_equal(set.clips[0]->name, "Other");
	assert_string_equal(set.clips[1]->name, "P");
	assert_string_equal(set.clips[2]->name, "Q");
	test_assert_near(set.clips[1]->duration_s, 1.3, 1e-6);
	test_assert_near(set.clips[2]->duration_s, 1.25, 1e-6);
	for (int p = 1; p <= 2; p++) {
		const animc_clip *part = set.clips[p];
		double start = p == 1 ? 0.3 : 0.5;

		assert_int_equal(animc_clip_validate(part, &(animc_validate_options){ 0 }, NULL), ANIMC_OK);
		/* B keeps its one key. */
		assert_int_equal(part->channels[1].key_count, 1);
		assert_true(part->channels[1].tracks[0].values[2] == 3);
		for (int i = 0; i <= 100; i++) {
			float t = part->duration_s * (float)i / 100, T[3], R[4], S[3];
			double want_t[3], want_r[4];

			animc_channel_sample(&part->channels[0], t, T, R, S);
			take_at(start + t, want_t, want_r);
			for (int k = 0; k < 3; k++)
				worst = fmax(worst, fabs(T[k] - want_t[k]));
			for (int k = 0; k < 4; k++)
				worst = fmax(worst, fabs(R[k] - want_r[k]));
		}
	}
	print_message("max |part(t) - take(start + t)| = %.3g\n", worst);
	assert_true(worst <= 1e-5);
	animc_clip_set_release(&set);
}

static void errors_leave_the_set_alone(void **state)
{
	static const struct {
		animc_split_part part;
		const char *take;
		animc_status status;
	} cases[] = {
		{ { "P", { 1, false }, { 2.5, false }, 7 }, "Take", ANIMC_ERR_INVALID },   /* past the end */
		{ { "P", { 1, false }, { 0.5, false }, 7 }, "Take", ANIMC_ERR_INVALID },   /* END < START */
		{ { "P", { 0, false }, { 1, false }, 7 }, "Nope", ANIMC_ERR_NOT_FOUND },   /* no such take */
		{ { "", { 0, false }, { 1, false }, 7 }, "Take", ANIMC_ERR_INVALID },      /* no name */
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		animc_split split = { cases[i].take, 3, 0, &cases[i].part, 1, "x_Anims.xml" };
		animc_clip_set set = { 0 };
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "x.fbx");

		assert_int_equal(animc_clip_set_add(&set, make_take("Take")), ANIMC_OK);
		assert_int_equal(animc_clip_set_add(&set, make_take("Idle")), ANIMC_OK);
		assert_int_equal(animc_clip_set_split(&set, &split, 1, &sink), cases[i].status);
		assert_int_equal(set.count, 2);
		assert_string_equal(set.clips[0]->name, "Take");
		assert_int_equal(sink.error_count, 1);
		/* At the part's line (the take's for a missing take). */
		assert_int_equal(diags.items[0].line, cases[i].status == ANIMC_ERR_NOT_FOUND ? 3 : 7);
		if (cases[i].status == ANIMC_ERR_NOT_FOUND)
			assert_non_null(strstr(diags.items[0].message, "'Take', 'Idle'"));
		test_diags_release(&diags);
		animc_clip_set_release(&set);
	}
	/* Two parts of one name; no take named and two takes. */
	{
		animc_split_part two[2] = { { "P", { 0, false }, { 1, false }, 4 }, { "P", { 1, false }, { 2, false }, 5 } };
		animc_split split = { "Take", 0, 0, two, 2, NULL };
		animc_split unnamed = { NULL, 0, 0, two, 1, NULL };
		animc_clip_set set = { 0 };

		assert_int_equal(animc_clip_set_add(&set, make_take("Take")), ANIMC_OK);
		assert_int_equal(animc_clip_set_add(&set, make_take("Idle")), ANIMC_OK);
		assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_ERR_INVALID);
		assert_int_equal(animc_clip_set_split(&set, &unnamed, 1, NULL), ANIMC_ERR_NOT_FOUND);
		assert_int_equal(set.count, 2);
		animc_clip_set_release(&set);
	}
	/* A split of no parts (the take went, replaced by nothing, with
	 * ANIMC_OK): said at the take's line, as the document's parse says it. */
	{
		animc_split none = { "Take", 3, 0, NULL, 0, "x_Anims.xml" };
		animc_clip_set set = { 0 };
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "x.fbx");

		assert_int_equal(animc_clip_set_add(&set, make_take("Take")), ANIMC_OK);
		assert_int_equal(animc_clip_set_split(&set, &none, 1, &sink), ANIMC_ERR_INVALID);
		assert_int_equal(set.count, 1);
		assert_string_equal(set.clips[0]->name, "Take");
		assert_int_equal(sink.error_count, 1);
		assert_int_equal(diags.items[0].line, 3);
		assert_non_null(strstr(diags.items[0].message, "take 'Take' is split into no parts"));
		test_diags_release(&diags);
		animc_clip_set_release(&set);
	}
}

/* A take whose key times are NaN (an FBX of a NaN custom frame rate):
 * built whole it fails on them, but NaN falls out of every comparison of
 * the cut, and a part of fixed keys was written, exit 0.  The take's own
 * errors, before the cut, and the set left alone. */
static void a_take_of_nan_key_times_is_not_cut(void **state)
{
	static const float times[2] = { NAN, NAN }, tx[6] = { 0, 0, 0, 1, 0, 0 };
	animc_split_part part = { "P", { 0, false }, { 0.04, false }, 0 };
	animc_split split = { NULL, 0, 0, &part, 1, NULL };
	animc_clip_set set = { 0 };
	animc_clip *take = animc_clip_create("Take");
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "x.fbx");
	bool is_said = false;
	uint32_t a;

	(void)state;
	take->duration_s = NAN;
	a = test_add_channel(take, "A", 2, times, 0, NAN);
	test_set_track(take, a, ANIMC_TRANSLATION, false, tx, 2, NULL);
	assert_int_equal(animc_clip_set_add(&set, take), ANIMC_OK);
	assert_int_equal(animc_clip_prepare(set.clips[0], &sink), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, &sink), ANIMC_ERR_INVALID);
	assert_int_equal(set.count, 1);
	assert_string_equal(set.clips[0]->name, "Take");
	for (size_t i = 0; i < diags.count; i++)
		is_said |= diags.items[i].severity == ANIMC_ERROR &&
			   strcmp(diags.items[i].message, "clip 'Take': bone 'A': key time 0 is NaN") == 0;
	assert_true(is_said);
	test_diags_release(&diags);
	animc_clip_set_release(&set);
}

static void frame_rate_of_the_keys(void **state)
{
	animc_clip *take = make_take("Take");

	(void)state;
	assert_true(animc_clip_frame_rate(take) == 4);
	animc_clip_destroy(take);
}

/* A 24 fps take (bone A keyed on every frame, 0 to 2 s) where bone B has
 * one sub-frame key (frame 10.5), and a 30 fps one with a jump keyed 1 ms
 * apart: the rate was one over the shortest gap, 48 and 1000 fps, and a
 * split at 24f:48f cut 0.5 s to 1 s.  The spacing most gaps share decides. */
static void one_sub_frame_key_sets_no_rate(void **state)
{
	static const float b_times[5] = { 0, 10 / 24.0f, 10.5f / 24, 20 / 24.0f, 2 };
	static const float b_values[15] = { 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0 };
	float a_times[49], a_values[3 * 49];
	animc_split_part part = { "P", { 24, true }, { 48, true }, 0 };
	animc_split split = { "Take", 0, 0, &part, 1, NULL };
	animc_clip_set set = { 0 };
	animc_clip *take = animc_clip_create("Take");
	float T[3], R[4], S[3];

	(void)state;
	for (int i = 0; i < 49; i++)
		a_times[i] = (float)i / 24, a_values[3 * i] = (float)i / 24, a_values[3 * i + 1] = 0,
		a_values[3 * i + 2] = 0;
	take->duration_s = 2;
	uint32_t a = test_add_channel(take, "A", 49, a_times, 0, 2);
	test_set_track(take, a, ANIMC_TRANSLATION, false, a_values, 49, a_times);
	uint32_t b = test_add_channel(take, "B", 5, b_times, 0, 2);
	test_set_track(take, b, ANIMC_TRANSLATION, false, b_values, 5, b_times);
	assert_true(animc_clip_frame_rate(take) == 24);
	assert_int_equal(animc_clip_set_add(&set, take), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	test_assert_near(set.clips[0]->duration_s, 1, 1e-6);
	animc_channel_sample(&set.clips[0]->channels[0], 0, T, R, S);
	test_assert_near(T[0], 1, 1e-6);   /* the part starts at 1 s of the take */
	animc_clip_set_release(&set);

	/* 30 fps gaps, one pair 1 ms apart: 30, one gap off the grid; two
	 * gaps of 0.1 s are three frames each, on it. */
	double gaps[40];
	size_t off_grid;

	for (int i = 0; i < 40; i++)
		gaps[i] = i == 7 ? 0.001 : i < 2 ? 0.1 : 1 / 30.0;
	assert_true(animc_frame_rate_of_gaps(gaps, 40, &off_grid) == 30);
	assert_int_equal(off_grid, 1);
	/* Frames of a long take land a few float steps apart (at 300 s,
	 * 120 fps gaps are 273 or 274 steps of 2^-15 s): still 120. */
	for (int i = 0; i < 40; i++)
		gaps[i] = (i % 3 ? 273 : 274) / 32768.0;
	test_assert_near(animc_frame_rate_of_gaps(gaps, 40, NULL), 120, 0.5);
	assert_true(animc_frame_rate_of_gaps(gaps, 0, NULL) == 0);
}

/* A 24 fps take of bone A keyed on every frame and 60 bones that hold
 * still with a key at each end (as exporters that drop redundant keys
 * write them): counted per bone, the 60 gaps of 2 s outvoted A's 48 of
 * 1/24 s, and frames were counted at 0.5 fps.  The take's one timeline
 * decides: 24. */
static void bones_that_hold_still_set_no_rate(void **state)
{
	static const float ends[2] = { 0, 2 }, still[6] = { 0, 0, 0, 0, 0, 0 };
	float a_times[49], a_values[3 * 49];
	animc_clip *take = animc_clip_create("Take");

	(void)state;
	for (int i = 0; i < 49; i++)
		a_times[i] = (float)i / 24, a_values[3 * i] = (float)i / 24, a_values[3 * i + 1] = 0,
		a_values[3 * i + 2] = 0;
	take->duration_s = 2;
	uint32_t a = test_add_channel(take, "A", 49, a_times, 0, 2);
	test_set_track(take, a, ANIMC_TRANSLATION, false, a_values, 49, a_times);
	for (int b = 0; b < 60; b++) {
		char name[8];

		snprintf(name, sizeof name, "B%d", b);
		uint32_t c = test_add_channel(take, name, 2, ends, 0, 2);
		test_set_track(take, c, ANIMC_TRANSLATION, false, still, 2, ends);
	}
	assert_true(animc_clip_frame_rate(take) == 24);
	animc_clip_destroy(take);

	/* Hand-keyed at 24 fps, one bone every 6 frames, one every 4: per
	 * bone the 6-frame gaps were the most, 6 fps, under which 8 of the 20
	 * gaps are no whole frame.  On one timeline, gaps of 2 and 4 frames
	 * alike: 12 fps, the shorter, under which every gap is whole. */
	float six[9], four[13], zero[3 * 13] = { 0 };
	take = animc_clip_create("Take");
	take->duration_s = 2;
	for (int i = 0; i < 9; i++)
		six[i] = 6.0f * (float)i / 24;
	for (int i = 0; i < 13; i++)
		four[i] = 4.0f * (float)i / 24;
	uint32_t h = test_add_channel(take, "Hips", 9, six, 0, 2);
	test_set_track(take, h, ANIMC_TRANSLATION, false, zero, 9, six);
	uint32_t sp = test_add_channel(take, "Spine", 13, four, 0, 2);
	test_set_track(take, sp, ANIMC_TRANSLATION, false, zero, 13, four);
	assert_true(animc_clip_frame_rate(take) == 12);
	animc_clip_destroy(take);

	/* Spine keyed as Hips, 10 us after: one time each, 4 fps (taken
	 * apart, half the gaps were 10 us: 100,000 fps). */
	float later[9];
	for (int i = 0; i < 9; i++)
		later[i] = six[i] + 1e-5f;
	take = animc_clip_create("Take");
	take->duration_s = 2.1f;
	h = test_add_channel(take, "Hips", 9, six, 0, 2.1f);
	test_set_track(take, h, ANIMC_TRANSLATION, false, zero, 9, six);
	sp = test_add_channel(take, "Spine", 9, later, 0, 2.1f);
	test_set_track(take, sp, ANIMC_TRANSLATION, false, zero, 9, later);
	test_assert_near(animc_clip_frame_rate(take), 4, 0.01);
	animc_clip_destroy(take);
}

/* Frames count at the rate the source states, not at its keys' spacing:
 * a take keyed every 0.25 s at 30 frames a second. */
static void frames_at_the_stated_frame_rate(void **state)
{
	animc_split_part part = { "P", { 3, true }, { 45, true }, 0 };
	animc_split split = { "Take", 0, 0, &part, 1, NULL };
	animc_clip_set set = { 0 };
	animc_clip *take = make_take("Take");
	float T[3], R[4], S[3];
	double want_t[3], want_r[4];

	(void)state;
	take->frame_rate = 30;
	assert_true(animc_clip_frame_rate(take) == 30);
	assert_int_equal(animc_clip_set_add(&set, take), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	assert_int_equal(set.count, 1);
	test_assert_near(set.clips[0]->duration_s, 1.4, 1e-6);   /* frames 3 to 45: 0.1 s to 1.5 s */
	assert_true(set.clips[0]->frame_rate == 30);
	animc_channel_sample(&set.clips[0]->channels[0], 0, T, R, S);
	take_at(0.1, want_t, want_r);
	for (int k = 0; k < 3; k++)
		test_assert_near(T[k], want_t[k], 1e-6);
	animc_clip_set_release(&set);
}

/* A take keyed as RobotGame keys: 31 keys 0.033333 s apart (six digits),
 * bone A's translation x at key i being i * i. */
static animc_clip *keyed_take(void)
{
	enum { N = 31 };
	float tx[3 * N];
	animc_clip *take = animc_clip_create("Take");

	for (int i = 0; i < N; i++)
		tx[3 * i] = (float)(i * i), tx[3 * i + 1] = 0, tx[3 * i + 2] = 0;
	take->duration_s = 30 * 0.033333f;
	uint32_t a = test_add_channel(take, "A", N, NULL, 0.033333f, take->duration_s);
	test_set_track(take, a, ANIMC_TRANSLATION, false, tx, N, NULL);
	return take;
}

/* Frames of a take that states no frame rate are its keys: keyed every
 * 0.033333 s (RobotGame's six digits), its rate is 30, and frame 20 (0.6667
 * s) lies 6.7e-6 s beside key 20.  The cut is at the keys, so the part is
 * the 19 keys between, evenly spaced, and as long as they span. */
static void frames_of_a_take_without_a_rate_are_its_keys(void **state)
{
	animc_split_part part = { "P", { 2, true }, { 20, true }, 0 };
	animc_split split = { "Take", 0, 0, &part, 1, NULL };
	animc_clip_set set = { 0 };
	animc_clip *take = keyed_take();

	(void)state;
	assert_true(animc_clip_frame_rate(take) == 30);
	assert_int_equal(animc_clip_set_add(&set, take), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	const animc_channel *ch = &set.clips[0]->channels[0];
	assert_int_equal(ch->key_count, 19);
	test_assert_near(set.clips[0]->duration_s, 18 * (double)0.033333f, 1e-6);
	assert_true(ch->tracks[ANIMC_TRANSLATION].values[0] == 4);
	test_assert_near(ch->tracks[ANIMC_TRANSLATION].values[3 * 18], 400, 1e-4);
	animc_clip_set_release(&set);
}

/* A fractional frame keeps its time, between the keys it names: 20.2
 * was moved onto key 20 (within a quarter frame), 2.5 was not. */
static void fractional_frames_keep_their_time(void **state)
{
	animc_split_part part = { "P", { 2.5, true }, { 20.2, true }, 0 };
	animc_split split = { "Take", 0, 0, &part, 1, NULL };
	animc_clip_set set = { 0 };
	animc_clip *take = keyed_take();

	(void)state;
	assert_int_equal(animc_clip_set_add(&set, take), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	const animc_clip *clip = set.clips[0];
	const animc_channel *ch = &clip->channels[0];
	test_assert_near(clip->duration_s, 17.7 / 30, 1e-5);
	/* Halfway from key 2 (4) to key 3 (9); a fifth from 400 to 441. */
	test_assert_near(ch->tracks[ANIMC_TRANSLATION].values[0], 6.5, 0.01);
	test_assert_near(ch->tracks[ANIMC_TRANSLATION].values[3 * (ch->key_count - 1)], 408.2, 0.05);
	animc_clip_set_release(&set);
}

/* A take keyed as RobotGame keys `frames` frames at a rate: its key
 * interval written to six decimals, `interval`, its duration the frames
 * over the rate, `duration` (KeyInterval 0.033333 and Duration 0.8 for 24
 * frames at 30), so that key k lies a hair from k / rate.  Bone A's
 * translation x at key i is i * i. */
static animc_clip *drifting_take(uint32_t frames, float interval, float duration)
{
	float tx[3 * 64] = { 0 };
	animc_clip *take = animc_clip_create("Take");

	assert_true(frames < 64);
	for (uint32_t i = 0; i <= frames; i++)
		tx[3 * i] = (float)(i * i);
	take->duration_s = duration;
	uint32_t a = test_add_channel(take, "A", frames + 1, NULL, interval, duration);
	test_set_track(take, a, ANIMC_TRANSLATION, false, tx, frames + 1, NULL);
	return take;
}

/* The part of a drifting take that `part` of `split` cuts, released by the
 * caller (animc_clip_destroy). */
static animc_clip *cut_drifting(const animc_split *split, uint32_t frames, float interval, float duration)
{
	animc_clip_set set = { 0 };
	animc_clip *part;

	assert_int_equal(animc_clip_set_add(&set, drifting_take(frames, interval, duration)), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, split, 1, NULL), ANIMC_OK);
	assert_int_equal(set.count, 1);
	part = set.clips[0];
	set.clips[0] = NULL;
	set.count = 0;
	animc_clip_set_release(&set);
	return part;
}

/* Frames and times that mean keys take them, however far the six-decimal
 * key interval puts the keys from them: frames 6 to 18 of 24 (a sidecar),
 * 6f to 18f and 0.2 to 0.6 s of a 0.8 s take keyed every 0.033333 s are
 * its keys 6 to 18 (key 18 lies 6e-6 s, 1.8e-4 of the spacing, from
 * 0.6 s), one part of 13 keys, evenly spaced; 0 to 0.8 s is all its 25
 * keys (a sidecar's part and a part in seconds gained a key a hair from
 * the last, and timed keys). */
static void cuts_that_mean_keys_take_them(void **state)
{
	static const animc_split_part parts[] = {
		{ "P", { 6, true }, { 18, true }, 0 },
		{ "P", { 6, true }, { 18, true }, 0 },
		{ "P", { 0.2, false }, { 0.6, false }, 0 },
		{ "P", { 0, false }, { 0.8, false }, 0 },
	};
	static const double frame_counts[] = { 24, 0, 0, 0 };
	animc_clip *first = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		animc_split split = { "Take", 0, frame_counts[i], &parts[i], 1, i == 0 ? "Take_Anims.xml" : NULL };
		animc_clip *part = cut_drifting(&split, 24, 0.033333f, 0.8f);
		const animc_channel *ch = &part->channels[0];
		uint32_t keys = i == 3 ? 25 : 13, from = i == 3 ? 0 : 6;

		assert_int_equal(ch->key_count, keys);
		for (uint32_t k = 0; k < keys; k++) {
			/* evenly spaced, as the take's keys are */
			if (ch->has_time)
				test_assert_near(ch->times_s[k], part->duration_s * k / (keys - 1), 1e-7);
			test_assert_near(ch->tracks[ANIMC_TRANSLATION].values[3 * k], (from + k) * (from + k), 1e-3);
		}
		test_assert_near(part->duration_s, (keys - 1) * (double)0.033333f, 1e-6);
		if (!first) {
			first = part;
			continue;
		}
		/* The sidecar's part and --split's are one. */
		if (i < 3) {
			assert_true(part->duration_s == first->duration_s);
			assert_memory_equal(ch->times_s, first->channels[0].times_s, keys * sizeof(float));
			assert_memory_equal(ch->tracks[ANIMC_TRANSLATION].values,
					    first->channels[0].tracks[ANIMC_TRANSLATION].values, 3 * keys * sizeof(float));
		}
		animc_clip_destroy(part);
	}
	animc_clip_destroy(first);
}

/* The last frame of a take is not past its end, though its key lies past
 * the duration: key 25 of a 1.666667 s take keyed every 0.066667 s is at
 * 1.666675 s (refused: "ends at frame 25 (1.66667 s), past the end of the
 * take at 1.66667 s").  A time past the end is refused, with the two times
 * printed apart: 1000.002 s of a 1000 s take. */
static void the_last_frame_is_not_past_the_end(void **state)
{
	static const animc_split_part last = { "P", { 10, true }, { 25, true }, 0 };
	static const animc_split_part past = { "P", { 0, false }, { 1000.002, false }, 0 };
	static const float times[3] = { 0, 999.99f, 1000 }, tx[9] = { 0 };
	animc_split split = { "Take", 0, 0, &last, 1, NULL };
	animc_clip *part = cut_drifting(&split, 25, 0.066667f, 1.666667f);
	animc_clip_set set = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "x.Animation");
	animc_clip *take = animc_clip_create("Take");

	(void)state;
	assert_int_equal(part->channels[0].key_count, 16);
	test_assert_near(part->channels[0].tracks[ANIMC_TRANSLATION].values[3 * 15], 625, 1e-3);
	animc_clip_destroy(part);
	take->duration_s = 1000;
	test_set_track(take, test_add_channel(take, "A", 3, times, 0, 1000), ANIMC_TRANSLATION, false, tx, 3, NULL);
	assert_int_equal(animc_clip_set_add(&set, take), ANIMC_OK);
	split.parts = &past;
	assert_int_equal(animc_clip_set_split(&set, &split, 1, &sink), ANIMC_ERR_INVALID);
	assert_int_equal(diags.count, 1);
	if (!strstr(diags.items[0].message, "ends at 1000.002 s, past the end of take 'Take' at 1000 s"))
		fail_msg("%s", diags.items[0].message);
	test_diags_release(&diags);
	animc_clip_set_release(&set);
}

/* Bone B keys the part's ends, 1 s and 2 s, exactly; bone A keys a hair
 * before each (0.99996 s, within the snap distance of that key's wide
 * gaps: A's part starts there; 1.99998 s, too close to its neighbours to
 * snap to).  Shifted by A's start, A's key before the end lands past the
 * part's end (1.00002 s of 1 s): it is held at the end, and no key of the
 * part lies past its duration. */
static void a_key_shifted_past_the_end_stays_at_it(void **state)
{
	static const animc_split_part part = { "P", { 1, false }, { 2, false }, 0 };
	static const float times[6] = { 0, 0.99996f, 1.5f, 1.99998f, 2.1f, 3 };
	float tx[21] = { 0 };
	animc_split split = { "Take", 0, 0, &part, 1, NULL };
	animc_clip_set set = { 0 };
	animc_clip *take = animc_clip_create("Take");

	(void)state;
	for (int i = 0; i < 7; i++)
		tx[3 * i] = (float)i;
	take->duration_s = 3;
	test_set_track(take, test_add_channel(take, "A", 6, times, 0, 3), ANIMC_TRANSLATION, false, tx, 6, NULL);
	test_set_track(take, test_add_channel(take, "B", 7, NULL, 0.5f, 3), ANIMC_TRANSLATION, false, tx, 7, NULL);
	assert_int_equal(animc_clip_set_add(&set, take), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	const animc_clip *p = set.clips[0];
	const animc_channel *ch = &p->channels[0];

	assert_true(p->duration_s == 1.0f);
	assert_int_equal(ch->key_count, 4);
	for (uint32_t i = 0; i < ch->key_count; i++)
		if (ch->times_s[i] < 0 || ch->times_s[i] > p->duration_s || (i && ch->times_s[i] < ch->times_s[i - 1]))
			fail_msg("key %u at %.9g s of a part of %.9g s", i, ch->times_s[i], p->duration_s);
	assert_true(ch->times_s[2] == p->duration_s && ch->times_s[3] == p->duration_s);
	assert_int_equal(animc_clip_validate(p, &(animc_validate_options){ 0 }, NULL), ANIMC_OK);
	animc_clip_set_release(&set);
}

/* A hand-keyed take that states no rate: bone H keyed on frames 0 to 5 at
 * 30 fps, bone S on frames 0, 10, 20 and 30 with x the frame number.  A
 * whole frame snaps to a key within a quarter of a frame, not of S's own
 * gap of ten: frame 12 was moved onto S's key at frame 10, 28 onto 30. */
static animc_clip *sparse_take(void)
{
	float h_times[6], h_values[18] = { 0 }, s_times[4], s_values[12] = { 0 };
	animc_clip *take = animc_clip_create("Take");

	for (int i = 0; i < 6; i++)
		h_times[i] = (float)i / 30, h_values[3 * i] = (float)i;
	for (int i = 0; i < 4; i++)
		s_times[i] = (float)(10 * i) / 30, s_values[3 * i] = (float)(10 * i);
	take->duration_s = 1;
	uint32_t h = test_add_channel(take, "H", 6, h_times, 0, 1);
	test_set_track(take, h, ANIMC_TRANSLATION, false, h_values, 6, h_times);
	uint32_t s = test_add_channel(take, "S", 4, s_times, 0, 1);
	test_set_track(take, s, ANIMC_TRANSLATION, false, s_values, 4, s_times);
	return take;
}

static void frames_snap_within_a_quarter_frame(void **state)
{
	animc_split_part part = { "P", { 12, true }, { 28, true }, 0 };
	animc_split_part past = { "X", { 20, true }, { 32, true }, 0 };
	animc_split split = { "Take", 0, 0, &part, 1, NULL };
	animc_clip_set set = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "x.gltf");
	float T[3], R[4], S[3];

	(void)state;
	assert_int_equal(animc_clip_set_add(&set, sparse_take()), ANIMC_OK);
	assert_true(animc_clip_frame_rate(set.clips[0]) == 30);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	test_assert_near(set.clips[0]->duration_s, 16.0 / 30, 1e-6);
	animc_channel_sample(&set.clips[0]->channels[1], 0, T, R, S);
	test_assert_near(T[0], 12, 1e-4);
	animc_channel_sample(&set.clips[0]->channels[1], set.clips[0]->duration_s, T, R, S);
	test_assert_near(T[0], 28, 1e-4);
	animc_clip_set_release(&set);
	/* Frame 32 is past the 30-frame take, not S's last key. */
	split.parts = &past;
	assert_int_equal(animc_clip_set_add(&set, sparse_take()), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, &sink), ANIMC_ERR_INVALID);
	assert_int_equal(set.count, 1);
	assert_true(diags.count >= 1);
	if (!strstr(diags.items[diags.count - 1].message, "part 'X' ends at frame 32"))
		fail_msg("%s", diags.items[diags.count - 1].message);
	test_diags_release(&diags);
	animc_clip_set_release(&set);
}

/* A part of one frame (START = END, the range inclusive) is the take's
 * pose there, one key a bone: it was refused as ending not after its
 * start, failing the source. */
static void a_part_of_one_frame_is_a_pose(void **state)
{
	animc_split_part parts[2] = { { "P", { 2, true }, { 2, true }, 0 }, { "Q", { 0.3, false }, { 0.3, false }, 0 } };
	animc_split split = { "Take", 0, 0, parts, 2, NULL };
	animc_clip_set set = { 0 };
	double tr[3], rot[4];

	(void)state;
	assert_int_equal(animc_clip_set_add(&set, make_take("Take")), ANIMC_OK);
	assert_int_equal(animc_clip_set_split(&set, &split, 1, NULL), ANIMC_OK);
	assert_int_equal(set.count, 2);
	for (uint32_t p = 0; p < 2; p++) {
		const animc_clip *part = set.clips[p];
		const animc_channel *a = &part->channels[0];

		take_at(p == 0 ? 0.5 : 0.3, tr, rot);
		assert_true(part->duration_s == 0);
		assert_int_equal(a->key_count, 1);
		assert_int_equal(part->channels[1].key_count, 1);
		test_assert_near(a->tracks[ANIMC_TRANSLATION].values[0], tr[0], 1e-6);
		test_assert_near(a->tracks[ANIMC_TRANSLATION].values[2], tr[2], 1e-6);
		test_assert_near(fabs(a->tracks[ANIMC_ROTATION].values[2]), fabs(rot[2]), 1e-5);
		assert_true(part->channels[1].tracks[ANIMC_TRANSLATION].values[1] == 2);
	}
	animc_clip_set_release(&set);
}

/* animc_channel_sample plays once over the channel's own duration: a time
 * past it is the duration, even with keys further on; before 0 is 0. */
static void channel_sample_stops_at_the_channels_duration(void **state)
{
	static const float tx[9] = { 0, 0, 0, 1, 0, 0, 4, 0, 0 };
	animc_clip *clip = animc_clip_create("c");
	uint32_t ch = test_add_channel(clip, "Root", 3, NULL, 1, 1);
	float t[3], r[4], sc[3];

	(void)state;
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, tx, 3, NULL);
	animc_channel_sample(&clip->channels[ch], 1.5f, t, r, sc);
	assert_true(t[0] == 1);
	animc_channel_sample(&clip->channels[ch], 0.5f, t, r, sc);
	assert_true(t[0] == 0.5f);
	animc_channel_sample(&clip->channels[ch], -1, t, r, sc);
	assert_true(t[0] == 0);
	assert_true(r[3] == 1 && sc[0] == 1);   /* absent tracks: identity */
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(channel_sample_stops_at_the_channels_duration),
	cmocka_unit_test(parts_are_the_take_shifted),
	cmocka_unit_test(errors_leave_the_set_alone),
	cmocka_unit_test(a_take_of_nan_key_times_is_not_cut),
	cmocka_unit_test(frame_rate_of_the_keys),
	cmocka_unit_test(one_sub_frame_key_sets_no_rate),
	cmocka_unit_test(bones_that_hold_still_set_no_rate),
	cmocka_unit_test(frames_at_the_stated_frame_rate),
	cmocka_unit_test(frames_of_a_take_without_a_rate_are_its_keys),
	cmocka_unit_test(fractional_frames_keep_their_time),
	cmocka_unit_test(cuts_that_mean_keys_take_them),
	cmocka_unit_test(the_last_frame_is_not_past_the_end),
	cmocka_unit_test(a_key_shifted_past_the_end_stays_at_it),
	cmocka_unit_test(frames_snap_within_a_quarter_frame),
	cmocka_unit_test(a_part_of_one_frame_is_a_pose),
};

ANIMC_TEST_GROUP(tests);
