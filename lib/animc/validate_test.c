/*
 * validate_test.c - every clause of the validity rule, one breach at a time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>

static const float QI[4] = { 0, 0, 0, 1 };
static const float Q3[12] = { 0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f, 0, 0, 1, 0 };
static const float T3[9] = { 0, 0, 0, 1, 2, 3, 4, 5, 6 };

/* A valid clip: one uniform bone of 3 keys, T and R moving, S fixed. */
static animc_clip *good_clip(void)
{
	animc_clip *clip = animc_clip_create("walk");
	static const float S1[3] = { 1, 1, 1 };

	clip->duration_s = 2;
	clip->declared_channel_count = 1;
	uint32_t ch = test_add_channel(clip, "Root", 3, NULL, 1, 2);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, T3, 3, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, Q3, 3, NULL);
	test_set_track(clip, ch, ANIMC_SCALE, true, S1, 1, NULL);
	return clip;
}

/* Validate for writing; returns the status, checks the error count. */
static animc_status check(animc_clip *clip, animc_validate_stage stage, bool exact, size_t errors)
{
	animc_validate_options o = { stage, exact };
	test_diags diags = { .echo = getenv("ANIMC_TEST_ECHO") != NULL };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_status status = animc_clip_validate(clip, &o, &sink);

	assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), errors);
	if (errors) {
		/* Messages name the clip and the bone. */
		assert_non_null(strstr(diags.items[0].message, "clip 'walk'"));
	}
	test_diags_release(&diags);
	animc_clip_destroy(clip);
	return status;
}

static void valid_clip_passes(void **state)
{
	(void)state;
	assert_int_equal(check(good_clip(), ANIMC_STAGE_WRITABLE, true, 0), ANIMC_OK);
	assert_int_equal(check(good_clip(), ANIMC_STAGE_IMPORTED, false, 0), ANIMC_OK);
}

static void non_finite_values_fail(void **state)
{
	animc_clip *clip;

	(void)state;
	clip = good_clip();
	clip->channels[0].tracks[ANIMC_TRANSLATION].values[4] = NAN;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->channels[0].tracks[ANIMC_SCALE].values[0] = INFINITY;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->duration_s = -INFINITY;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->channels[0].key_interval_s = NAN;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
}

static void quaternions_must_be_unit_length(void **state)
{
	animc_clip *clip;

	(void)state;
	clip = good_clip();
	memset(&clip->channels[0].tracks[ANIMC_ROTATION].values[4], 0, 4 * sizeof(float));
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	/* Within 1e-3 is accepted, beyond is not. */
	clip = good_clip();
	clip->channels[0].tracks[ANIMC_ROTATION].values[3] = 1.0009f;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 0), ANIMC_OK);
	clip = good_clip();
	clip->channels[0].tracks[ANIMC_ROTATION].values[3] = 1.0011f;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
}

static void durations_must_not_be_negative(void **state)
{
	animc_clip *clip;

	(void)state;
	clip = good_clip();
	clip->duration_s = -1;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->channels[0].duration_s = -0.5f;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
}

static void counts_must_match_the_flags(void **state)
{
	animc_clip *clip;

	(void)state;
	clip = good_clip();   /* KeyCount 3, 2 translations */
	clip->channels[0].tracks[ANIMC_TRANSLATION].value_count = 2;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();   /* fixed with 3 values */
	clip->channels[0].tracks[ANIMC_ROTATION].is_fixed = true;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();   /* absent with values */
	clip->channels[0].tracks[ANIMC_TRANSLATION].is_present = false;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();   /* no keys at all */
	clip->channels[0].key_count = 0;
	clip->channels[0].tracks[ANIMC_TRANSLATION].is_present = false;
	clip->channels[0].tracks[ANIMC_TRANSLATION].value_count = 0;
	clip->channels[0].tracks[ANIMC_ROTATION].is_present = false;
	clip->channels[0].tracks[ANIMC_ROTATION].value_count = 0;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	/* An absent track may keep its Fixed flag (the original stores it). */
	clip = good_clip();
	clip->channels[0].tracks[ANIMC_SCALE].is_present = false;
	clip->channels[0].tracks[ANIMC_SCALE].value_count = 0;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 0), ANIMC_OK);
}

static void times_must_not_decrease(void **state)
{
	static const float ok[3] = { 0, 0.5f, 0.5f };
	static const float down[3] = { 0, 0.5f, 0.25f };
	static const float negative[3] = { -0.1f, 0.5f, 1 };
	animc_clip *clip;

	(void)state;
	clip = good_clip();
	clip->channels[0].has_time = true;
	clip->channels[0].times_s = animc_clip_alloc_floats(clip, 3);
	memcpy(clip->channels[0].times_s, ok, sizeof ok);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 0), ANIMC_OK);
	clip = good_clip();
	clip->channels[0].has_time = true;
	clip->channels[0].times_s = animc_clip_alloc_floats(clip, 3);
	memcpy(clip->channels[0].times_s, down, sizeof down);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->channels[0].has_time = true;
	clip->channels[0].times_s = animc_clip_alloc_floats(clip, 3);
	memcpy(clip->channels[0].times_s, negative, sizeof negative);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();   /* HasTime without times */
	clip->channels[0].has_time = true;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
}

static void uniform_keys_need_an_interval(void **state)
{
	animc_clip *clip;

	(void)state;
	clip = good_clip();
	clip->channels[0].key_interval_s = 0;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	/* Two keys are keys to interpolate between too. */
	clip = animc_clip_create("walk");
	uint32_t two = test_add_channel(clip, "Root", 2, NULL, 0, 1);
	test_set_track(clip, two, ANIMC_TRANSLATION, false, T3, 2, NULL);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	/* A negative interval is no interval. */
	clip = good_clip();
	clip->channels[0].key_interval_s = -0.5f;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	/* Unless nothing moves: every present track fixed. */
	clip = animc_clip_create("walk");
	uint32_t ch = test_add_channel(clip, "Root", 5, NULL, 0, 1);
	test_set_track(clip, ch, ANIMC_ROTATION, true, QI, 1, NULL);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 0), ANIMC_OK);
}

static void declared_count_checked_on_request(void **state)
{
	animc_clip *clip;

	(void)state;
	clip = good_clip();
	clip->declared_channel_count = 2;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, true, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->declared_channel_count = -1;   /* missing */
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, true, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->declared_channel_count = 2;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 0), ANIMC_OK);
}

static void own_key_times_only_before_merge(void **state)
{
	static const float t2[2] = { 0, 1 }, t2bad[2] = { 1, 1 };
	animc_clip *clip;

	(void)state;
	clip = animc_clip_create("walk");
	uint32_t ch = test_add_channel(clip, "Root", 0, NULL, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, T3, 2, t2);
	test_set_track(clip, ch, ANIMC_ROTATION, false, Q3, 3, (const float[]){ 0, 0.5f, 1 });
	assert_int_equal(check(clip, ANIMC_STAGE_IMPORTED, false, 0), ANIMC_OK);

	clip = animc_clip_create("walk");
	ch = test_add_channel(clip, "Root", 0, NULL, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, T3, 2, t2);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);

	/* A fixed track holds one value at all times: no times of its own. */
	clip = animc_clip_create("walk");
	ch = test_add_channel(clip, "Root", 0, NULL, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, T3, 2, t2);
	test_set_track(clip, ch, ANIMC_SCALE, true, (const float[]){ 1, 1, 1 }, 1, (const float[]){ 0 });
	assert_int_equal(check(clip, ANIMC_STAGE_IMPORTED, false, 1), ANIMC_ERR_INVALID);

	/* Own times must strictly increase (the sort pass dedupes them). */
	clip = animc_clip_create("walk");
	ch = test_add_channel(clip, "Root", 0, NULL, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, T3, 2, t2bad);
	assert_int_equal(check(clip, ANIMC_STAGE_IMPORTED, false, 1), ANIMC_ERR_INVALID);
}

static void bone_names_must_be_utf8(void **state)
{
	animc_clip *clip = good_clip();

	(void)state;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 0), ANIMC_OK);
	clip = good_clip();
	clip->channels[0].bone = animc_arena_strndup(&clip->arena, "Ro\xC3t", 4);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 1), ANIMC_ERR_INVALID);
	clip = good_clip();
	clip->channels[0].bone = animc_arena_strndup(&clip->arena, "Kn\xC3\xBC" "chel", 8);
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 0), ANIMC_OK);
}

static void every_breach_is_reported(void **state)
{
	animc_clip *clip = good_clip();

	(void)state;
	clip->duration_s = -1;
	clip->channels[0].tracks[ANIMC_TRANSLATION].values[0] = NAN;
	clip->channels[0].tracks[ANIMC_ROTATION].values[3] = 5;
	assert_int_equal(check(clip, ANIMC_STAGE_WRITABLE, false, 3), ANIMC_ERR_INVALID);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(valid_clip_passes),
	cmocka_unit_test(non_finite_values_fail),
	cmocka_unit_test(quaternions_must_be_unit_length),
	cmocka_unit_test(durations_must_not_be_negative),
	cmocka_unit_test(counts_must_match_the_flags),
	cmocka_unit_test(times_must_not_decrease),
	cmocka_unit_test(uniform_keys_need_an_interval),
	cmocka_unit_test(declared_count_checked_on_request),
	cmocka_unit_test(own_key_times_only_before_merge),
	cmocka_unit_test(bone_names_must_be_utf8),
	cmocka_unit_test(every_breach_is_reported),
};

ANIMC_TEST_GROUP(tests);
