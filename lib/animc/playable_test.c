/*
 * playable_test.c - the playability rule (animc_clip_check_playable) on
 * each kind of breach, and the pass that repairs them: the repaired clip
 * follows the rule and samples, through the loader library, as the source
 * did.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animc_formats.h>
#include <animc/animrt.h>

static const float QI[4] = { 0, 0, 0, 1 };

/* One channel per kind of breach, and good ones beside them. */
static animc_clip *hazard_clip(void)
{
	animc_clip *clip = animc_clip_create("clip");
	uint32_t ch;

	clip->duration_s = 1;
	/* 0: uniform, one key, KeyInterval 0 (the RobotGame exporter's). */
	ch = test_add_channel(clip, "OneKey", 1, NULL, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, true, (const float[]){ 1, 2, 3 }, 1, NULL);
	/* 1: a sequence of 0 s with keys after 0, which never play. */
	ch = test_add_channel(clip, "Zero", 3, (const float[]){ 0, 0.5f, 1 }, 0, 0);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, (const float[]){ 4, 0, 0, 5, 0, 0, 6, 0, 0 },
		       3, NULL);
	/* 2: uniform keys 1e-8 s apart over 1 s. */
	ch = test_add_channel(clip, "Dense", 2, NULL, 1e-8f, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, (const float[]){ 0, 0, 0, 1, 0, 0 }, 2, NULL);
	/* 3: two keys at 0.5 s before the end. */
	ch = test_add_channel(clip, "Shared", 4, (const float[]){ 0, 0.5f, 0.5f, 1 }, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false,
		       (const float[]){ 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0 }, 4, NULL);
	/* 4: a sequence that starts with two keys at 0.25 s. */
	ch = test_add_channel(clip, "SharedStart", 3, (const float[]){ 0.25f, 0.25f, 1 }, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, (const float[]){ 7, 0, 0, 8, 0, 0, 9, 0, 0 },
		       3, NULL);
	/* 5: a tiny duration. */
	ch = test_add_channel(clip, "Tiny", 1, (const float[]){ 0 }, 0, 1e-6f);
	test_set_track(clip, ch, ANIMC_ROTATION, false, QI, 1, NULL);
	/* Good: shared times at the end, at 0 at the end, one key with a
	 * positive interval, a timed key. */
	ch = test_add_channel(clip, "SharedEnd", 3, (const float[]){ 0, 1, 1 }, 0, 1);
	test_set_track(clip, ch, ANIMC_SCALE, false, (const float[]){ 1, 1, 1, 2, 2, 2, 3, 3, 3 }, 3, NULL);
	ch = test_add_channel(clip, "AllAtZero", 2, (const float[]){ 0, 0 }, 0, 1);
	test_set_track(clip, ch, ANIMC_SCALE, false, (const float[]){ 1, 1, 1, 2, 2, 2 }, 2, NULL);
	ch = test_add_channel(clip, "Spaced", 1, NULL, 1.0f / 30, 1);
	test_set_track(clip, ch, ANIMC_ROTATION, true, QI, 1, NULL);
	ch = test_add_channel(clip, "Timed", 1, (const float[]){ 0.75f }, 0, 1);
	test_set_track(clip, ch, ANIMC_ROTATION, false, QI, 1, NULL);
	clip->declared_channel_count = clip->channel_count;
	return clip;
}

#define HAZARDS 6

static void each_breach_is_reported_naming_its_bone(void **state)
{
	static const char *const bones[HAZARDS] = { "'OneKey'", "'Zero'", "'Dense'", "'Shared'",
						    "'SharedStart'", "'Tiny'" };
	animc_validate_options writable = { ANIMC_STAGE_WRITABLE, true };
	animc_clip *clip = hazard_clip();

	(void)state;
	assert_int_equal(animc_clip_validate(clip, &writable, NULL), ANIMC_OK);
	for (int severity = ANIMC_WARNING; severity <= ANIMC_ERROR; severity++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t");

		assert_int_equal(animc_clip_check_playable(clip, (animc_severity)severity, &sink),
				 ANIMC_ERR_INVALID);
		assert_int_equal(diags.count, HAZARDS);
		for (int i = 0; i < HAZARDS; i++) {
			assert_int_equal(diags.items[i].severity, severity);
			if (!strstr(diags.items[i].message, bones[i]))
				fail_msg("breach %d: '%s' does not name %s", i, diags.items[i].message, bones[i]);
		}
		test_diags_release(&diags);
	}
	animc_clip_destroy(clip);
}

/* The clip through the writer and the loader. */
static animrt_clip *load(const animc_clip *clip)
{
	uint8_t *bytes;
	size_t size;
	animrt_clip *out;

	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, &size, NULL), ANIMC_OK);
	assert_int_equal(animrt_open(bytes, size, &out, NULL), ANIMRT_OK);
	free(bytes);
	return out;
}

static void the_pass_repairs_without_changing_samples(void **state)
{
	animc_validate_options writable = { ANIMC_STAGE_WRITABLE, true };
	animc_pass_stats stats = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_clip *clip = hazard_clip();
	animrt_clip *before = load(clip), *after;

	(void)state;
	assert_int_equal(animc_pass_playable(clip, &sink, &stats), ANIMC_OK);
	assert_int_equal(animc_clip_validate(clip, &writable, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_check_playable(clip, ANIMC_ERROR, NULL), ANIMC_OK);
	/* Said once per kind: lengthened durations, shared times. */
	assert_int_equal(sink.warning_count, 2);
	assert_int_equal(stats.durations_lengthened, 2);
	assert_int_equal(stats.shared_times_split, 2);
	assert_int_equal(stats.channels_given_times, 1);
	assert_int_equal(stats.intervals_set, 2);   /* OneKey, and Zero once it holds one key */
	after = load(clip);

	const animrt_sequence *s = after->sequences;
	/* One key: the interval is the duration. */
	assert_true(s[0].key_interval_s == 1 && s[0].key_count == 1);
	/* The sequence of 0 s keeps its pose at 0 and lasts the least loopable time. */
	assert_int_equal(s[1].key_count, 1);
	assert_true(s[1].duration_s == ANIMC_MIN_DURATION_S && s[1].translation[0] == 4);
	/* Dense keys got times. */
	assert_true(s[2].has_time && s[2].times_s[1] == 1e-8f);
	/* The first of the shared keys moved one float step earlier. */
	assert_int_equal(s[3].key_count, 4);
	assert_true(s[3].times_s[1] == nextafterf(0.5f, 0) && s[3].times_s[2] == 0.5f);
	/* A start above 0: a key at 0 holds the first value. */
	assert_int_equal(s[4].key_count, 4);
	assert_true(s[4].times_s[0] == 0 && s[4].translation[0] == 7 && s[4].translation[3] == 7);
	assert_true(s[4].times_s[1] == nextafterf(0.25f, 0) && s[4].translation[6] == 8);
	/* The good ones are untouched. */
	for (uint32_t i = 6; i < after->sequence_count; i++) {
		assert_int_equal(after->sequences[i].key_count, before->sequences[i].key_count);
		assert_true(after->sequences[i].key_interval_s == before->sequences[i].key_interval_s);
	}

	/* The same poses at every time but the shared times themselves (where
	 * the original runtime computed NaN), in Once mode, and in Repeat mode
	 * for the sequences whose duration stayed. */
	for (uint32_t i = 0; i < before->sequence_count; i++) {
		const animrt_sequence *a = &before->sequences[i], *b = &after->sequences[i];

		for (int k = 0; k <= 400; k++) {
			float t = 2.0f * (float)k / 400;
			float ta[3], ra[4], sa[3], tb[3], rb[4], sb[3];

			if (i == 3 && fmodf(t, 1) == 0.5f)   /* the shared time, in either mode */
				continue;
			for (int m = 0; m < 2; m++) {
				animrt_play_mode mode = m ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;

				if (mode == ANIMRT_PLAY_REPEAT && a->duration_s != b->duration_s && i != 1)
					continue;
				animrt_sequence_sample(a, t, mode, NULL, ta, ra, sa);
				animrt_sequence_sample(b, t, mode, NULL, tb, rb, sb);
				for (int c = 0; c < 3; c++) {
					if (fabsf(ta[c] - tb[c]) > 1e-6f || fabsf(sa[c] - sb[c]) > 1e-6f)
						fail_msg("bone '%s' at %g s (%s): %g %g, was %g %g", a->bone,
							 (double)t, m ? "repeat" : "once", (double)tb[c],
							 (double)sb[c], (double)ta[c], (double)sa[c]);
				}
				for (int c = 0; c < 4; c++)
					assert_true(fabsf(ra[c] - rb[c]) <= 1e-6f);
			}
		}
	}
	animrt_close(before);
	animrt_close(after);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* Keys at one time with no float between them and the key before, or at 0:
 * only the run's last key stays. */
static void shared_times_without_room_keep_the_last_key(void **state)
{
	float t = 0.5f, just_below = nextafterf(t, 0);
	animc_clip *clip = animc_clip_create("");
	uint32_t a = test_add_channel(clip, "A", 4, (const float[]){ just_below, t, t, 1 }, 0, 1);
	uint32_t b = test_add_channel(clip, "B", 3, (const float[]){ 0, 0, 1 }, 0, 1);

	(void)state;
	clip->duration_s = 1;
	test_set_track(clip, a, ANIMC_TRANSLATION, false, (const float[]){ 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0 },
		       4, NULL);
	test_set_track(clip, b, ANIMC_TRANSLATION, false, (const float[]){ 5, 0, 0, 6, 0, 0, 7, 0, 0 }, 3, NULL);
	assert_int_equal(animc_pass_playable(clip, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_check_playable(clip, ANIMC_ERROR, NULL), ANIMC_OK);
	const animc_channel *ca = &clip->channels[a], *cb = &clip->channels[b];
	/* A's first key lies after 0: a key at 0 holds its value. */
	assert_int_equal(ca->key_count, 4);
	assert_true(ca->times_s[0] == 0 && ca->tracks[0].values[0] == 0);
	assert_true(ca->times_s[1] == just_below && ca->tracks[0].values[3] == 0);
	assert_true(ca->times_s[2] == t && ca->tracks[0].values[6] == 2);
	assert_int_equal(cb->key_count, 2);
	assert_true(cb->times_s[0] == 0 && cb->tracks[0].values[0] == 6);
	animc_clip_destroy(clip);
}

/* A sequence whose first key lies after 0 gets a key at 0 holding its
 * first value: the loader holds that key before its time, the original
 * runtime extrapolated the first span back (an XNA AnimationData bone keyed
 * from 1 s on played 4 at 0 in FNA, 5 in libanimrt). */
static void a_late_first_key_is_held_from_zero(void **state)
{
	animc_clip *clip = animc_clip_create("");
	uint32_t a = test_add_channel(clip, "A", 2, (const float[]){ 1, 2 }, 0, 2);

	(void)state;
	clip->duration_s = 2;
	test_set_track(clip, a, ANIMC_TRANSLATION, false, (const float[]){ 5, 0, 0, 6, 0, 0 }, 2, NULL);
	assert_int_equal(animc_pass_playable(clip, NULL, NULL), ANIMC_OK);
	const animc_channel *c = &clip->channels[a];
	assert_int_equal(c->key_count, 3);
	assert_true(c->has_time && c->times_s[0] == 0 && c->times_s[1] == 1 && c->times_s[2] == 2);
	assert_true(c->tracks[0].values[0] == 5 && c->tracks[0].values[3] == 5 && c->tracks[0].values[6] == 6);
	animc_clip_destroy(clip);
}

/*
 * --exact on a RobotGame source keeps a first key after 0 (keys X = 0 at
 * 0.5 s, 10 at 1 s), where the original runtime extrapolates (X = -10 at
 * 0) and the loader holds the first key: a warning naming the bone, the
 * keys as they were.  One timed key after 0 is taken whole by both.
 */
static void exact_warns_of_a_late_first_key(void **state)
{
	animc_process_options exact = { .exact = true };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_clip *clip = animc_clip_create("late");
	uint32_t a = test_add_channel(clip, "Late", 2, (const float[]){ 0.5f, 1 }, 0, 1);
	uint32_t b = test_add_channel(clip, "One", 1, (const float[]){ 0.75f }, 0, 1);

	(void)state;
	clip->duration_s = 1;
	clip->declared_channel_count = clip->channel_count;
	clip->is_sequence_source = true;
	test_set_track(clip, a, ANIMC_TRANSLATION, false, (const float[]){ 0, 0, 0, 10, 0, 0 }, 2, NULL);
	test_set_track(clip, b, ANIMC_TRANSLATION, false, (const float[]){ 1, 0, 0 }, 1, NULL);
	assert_int_equal(animc_clip_check_playable(clip, ANIMC_ERROR, NULL), ANIMC_ERR_INVALID);
	assert_int_equal(animc_clip_process(clip, &exact, &sink, NULL), ANIMC_OK);
	assert_int_equal(sink.warning_count, 1);
	assert_non_null(strstr(diags.items[0].message, "'Late'"));
	assert_int_equal(clip->channels[a].key_count, 2);
	assert_true(clip->channels[a].times_s[0] == 0.5f);
	test_diags_release(&diags);

	/* Without --exact the key at 0 makes it follow the rule, silently. */
	sink = test_diag_sink(&diags, "t");
	assert_int_equal(animc_clip_process(clip, NULL, &sink, NULL), ANIMC_OK);
	assert_int_equal(sink.warning_count, 0);
	assert_int_equal(animc_clip_check_playable(clip, ANIMC_ERROR, NULL), ANIMC_OK);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/*
 * Finite keys whose difference overflows float32 (translation X -3e38 then
 * 3e38; scale Y 1 then 3.4e38 after -3.4e38): the lerp a + (b - a) u gives
 * infinity between them and, in the original runtime, NaN at the first.
 * The rule names each in both severities; the pass refuses the clip
 * (ANIMC_ERR_LIMIT) as it was, and --exact on a RobotGame source writes it
 * with a warning.  Keys that fit (2e38 steps) and a fixed huge track pass.
 */
static animc_clip *overflow_clip(void)
{
	animc_clip *clip = animc_clip_create("huge");
	uint32_t ch;

	clip->duration_s = 1;
	ch = test_add_channel(clip, "Moved", 2, NULL, 1, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, (const float[]){ -3e38f, 0, 0, 3e38f, 0, 0 }, 2, NULL);
	ch = test_add_channel(clip, "Fits", 3, (const float[]){ 0, 0.5f, 1 }, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false,
		       (const float[]){ -2e38f, 0, 0, 0, 0, 0, 2e38f, 0, 0 }, 3, NULL);
	test_set_track(clip, ch, ANIMC_SCALE, true, (const float[]){ 3e38f, -3e38f, 1 }, 1, NULL);
	ch = test_add_channel(clip, "Scaled", 3, (const float[]){ 0, 0.5f, 1 }, 0, 1);
	test_set_track(clip, ch, ANIMC_SCALE, false, (const float[]){ 1, 1, 1, 1, -3.4e38f, 1, 1, 3.4e38f, 1 },
		       3, NULL);
	clip->declared_channel_count = clip->channel_count;
	return clip;
}

static void keys_past_a_float_apart_are_refused(void **state)
{
	static const char *const said[2] = { "bone 'Moved': translation keys 0 and 1 differ in X",
					     "bone 'Scaled': scale keys 1 and 2 differ in Y" };
	animc_process_options exact = { .exact = true };
	animc_clip *clip = overflow_clip();

	(void)state;
	for (int severity = ANIMC_WARNING; severity <= ANIMC_ERROR; severity++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t");

		assert_int_equal(animc_clip_check_playable(clip, (animc_severity)severity, &sink),
				 ANIMC_ERR_INVALID);
		assert_int_equal(diags.count, 2);
		for (int i = 0; i < 2; i++)
			if (diags.items[i].severity != (animc_severity)severity ||
			    !strstr(diags.items[i].message, said[i]))
				fail_msg("'%s' does not say \"%s\"", diags.items[i].message, said[i]);
		test_diags_release(&diags);
	}
	for (int pass = 0; pass < 2; pass++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t");

		/* The playable pass alone, then the whole default pipeline. */
		assert_int_equal(pass ? animc_clip_process(clip, NULL, &sink, NULL)
				      : animc_pass_playable(clip, &sink, NULL), ANIMC_ERR_LIMIT);
		assert_int_equal(sink.error_count, 2);
		assert_non_null(strstr(diags.items[1].message, said[1]));
		test_diags_release(&diags);
	}
	assert_true(clip->channels[0].key_count == 2 && clip->channels[0].tracks[0].values[0] == -3e38f);
	animc_clip_destroy(clip);

	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	clip = overflow_clip();
	clip->is_sequence_source = true;
	assert_int_equal(animc_clip_process(clip, &exact, &sink, NULL), ANIMC_OK);
	assert_int_equal(sink.warning_count, 2);
	assert_non_null(strstr(diags.items[0].message, "(--exact)"));
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* A zero-length clip (Assimp's bind pose): lengthened, one warning, its
 * pose unchanged. */
static void a_clip_of_zero_seconds_is_lengthened_once(void **state)
{
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_clip *clip = animc_clip_create("Bind");

	(void)state;
	for (int i = 0; i < 3; i++) {
		uint32_t ch = test_add_channel(clip, i ? "Arm" : "Root", 1, NULL, 0, 0);

		test_set_track(clip, ch, ANIMC_ROTATION, true, QI, 1, NULL);
	}
	assert_int_equal(animc_clip_process(clip, NULL, &sink, NULL), ANIMC_OK);
	assert_true(clip->duration_s == ANIMC_MIN_DURATION_S);
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		assert_true(clip->channels[i].duration_s == ANIMC_MIN_DURATION_S);
		assert_true(clip->channels[i].key_interval_s == ANIMC_MIN_DURATION_S);
	}
	/* A bind pose: a note, not a warning. */
	assert_int_equal(sink.warning_count, 0);
	assert_int_equal(test_diags_count(&diags, ANIMC_NOTE), 1);
	assert_non_null(strstr(diags.items[0].message, "'Bind'"));
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* Two frames at 120 Hz of a BVH frame time written 0.008333 last
 * 0.016666 s, short of 1/60 s by rounding alone: lengthened with a note,
 * not a short-clip warning telling the user to check the frame range.
 * A clip short by more than rounding still warns. */
static void a_clip_short_by_rounding_is_a_note(void **state)
{
	static const float lasts[] = { 0.016666f, 0.0166f };

	(void)state;
	for (int i = 0; i < 2; i++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t");
		animc_clip *clip = animc_clip_create("Motion");
		uint32_t ch = test_add_channel(clip, "Hips", 3, NULL, lasts[i] / 2, lasts[i]);

		clip->duration_s = lasts[i];
		test_set_track(clip, ch, ANIMC_TRANSLATION, false, (const float[]){ 0, 0, 0, 1, 0, 0, 2, 0, 0 }, 3,
			       NULL);
		clip->declared_channel_count = 1;
		assert_int_equal(animc_clip_process(clip, NULL, &sink, NULL), ANIMC_OK);
		assert_true(clip->duration_s == ANIMC_MIN_DURATION_S);
		assert_int_equal(sink.warning_count, i);
		if (i == 0) {
			assert_int_equal(test_diags_count(&diags, ANIMC_NOTE), 1);
			assert_non_null(strstr(diags.items[0].message, "a rounding short of a frame at 60 Hz"));
		} else {
			assert_string_equal(test_diags_first(&diags, ANIMC_WARNING)->kind, "short-clip");
		}
		test_diags_release(&diags);
		animc_clip_destroy(clip);
	}
}

/* --exact on a RobotGame source: the original's bytes, a warning naming
 * the bone, nothing repaired. */
static void exact_sequence_sources_are_written_as_they_are_with_warnings(void **state)
{
	animc_process_options exact = { .exact = true };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_clip *clip = hazard_clip();

	(void)state;
	clip->is_sequence_source = true;
	assert_int_equal(animc_clip_process(clip, &exact, &sink, NULL), ANIMC_OK);
	assert_int_equal(sink.error_count, 0);
	assert_int_equal(sink.warning_count, HAZARDS);
	assert_non_null(strstr(diags.items[0].message, "'OneKey'"));
	assert_true(clip->channels[0].key_interval_s == 0);
	assert_true(clip->channels[1].duration_s == 0 && clip->channels[1].key_count == 3);
	test_diags_release(&diags);
	animc_clip_destroy(clip);

	/* The same clip from a source the original pipeline never compiled is
	 * made playable in exact mode too. */
	clip = hazard_clip();
	sink = test_diag_sink(&diags, "t");
	assert_int_equal(animc_clip_process(clip, &exact, &sink, NULL), ANIMC_OK);
	assert_int_equal(animc_clip_check_playable(clip, ANIMC_ERROR, NULL), ANIMC_OK);
	/* ... keeping explicit times explicit (no uniform pass). */
	assert_true(clip->channels[3].has_time);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(each_breach_is_reported_naming_its_bone),
	cmocka_unit_test(the_pass_repairs_without_changing_samples),
	cmocka_unit_test(shared_times_without_room_keep_the_last_key),
	cmocka_unit_test(a_late_first_key_is_held_from_zero),
	cmocka_unit_test(exact_warns_of_a_late_first_key),
	cmocka_unit_test(keys_past_a_float_apart_are_refused),
	cmocka_unit_test(a_clip_of_zero_seconds_is_lengthened_once),
	cmocka_unit_test(a_clip_short_by_rounding_is_a_note),
	cmocka_unit_test(exact_sequence_sources_are_written_as_they_are_with_warnings),
};

ANIMC_TEST_GROUP(tests);
