/*
 * passes_test.c - the processor passes and the default pipeline.
 */
#include <math.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>

static const float QI[4] = { 0, 0, 0, 1 };

static void sort_moves_values_with_times_stably(void **state)
{
	static const float times[4] = { 0.5f, 0, 0.5f, 0.25f };
	static const float tx[12] = { 5, 0, 0, 0, 0, 0, 6, 0, 0, 2, 0, 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_pass_stats stats = { 0 };
	animc_clip *clip = animc_clip_create("");
	uint32_t ch = test_add_channel(clip, "Hip", 4, times, 0, 1);

	(void)state;
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, tx, 4, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, true, QI, 1, NULL);
	assert_int_equal(animc_pass_sort(clip, &sink, &stats), ANIMC_OK);
	const animc_channel *c = &clip->channels[ch];
	assert_true(c->times_s[0] == 0 && c->times_s[1] == 0.25f && c->times_s[2] == 0.5f &&
		    c->times_s[3] == 0.5f);
	/* Equal times keep their source order: 5 before 6. */
	assert_true(c->tracks[0].values[0] == 0 && c->tracks[0].values[3] == 2 &&
		    c->tracks[0].values[6] == 5 && c->tracks[0].values[9] == 6);
	assert_int_equal(stats.channels_sorted, 1);
	assert_int_equal(sink.warning_count, 1);
	assert_non_null(strstr(diags.items[0].message, "'Hip'"));
	/* Sorted input: nothing happens. */
	assert_int_equal(animc_pass_sort(clip, &sink, &stats), ANIMC_OK);
	assert_int_equal(stats.channels_sorted, 1);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

static void sort_of_own_times_keeps_the_last_duplicate(void **state)
{
	static const float times[4] = { 1, 0, 1, 0.5f };
	static const float tx[12] = { 1, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 0 };
	animc_pass_stats stats = { 0 };
	animc_diag_sink sink = { 0 };
	animc_clip *clip = animc_clip_create("run");
	uint32_t ch = test_add_channel(clip, "Hip", 0, NULL, 0, 1);

	(void)state;
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, tx, 4, times);
	assert_int_equal(animc_pass_sort(clip, &sink, &stats), ANIMC_OK);
	const animc_track *t = &clip->channels[ch].tracks[0];
	assert_int_equal(t->value_count, 3);
	assert_true(t->times_s[0] == 0 && t->times_s[1] == 0.5f && t->times_s[2] == 1);
	assert_true(t->values[0] == 0 && t->values[3] == 3 && t->values[6] == 2);
	assert_int_equal(stats.duplicate_keys_dropped, 1);
	assert_int_equal(sink.warning_count, 2);
	animc_clip_destroy(clip);
}

static void fixed_is_bitwise_and_collapses(void **state)
{
	static const float same[9] = { 1, 2, 3, 1, 2, 3, 1, 2, 3 };
	static const float zeros[9] = { 0, 0, 0, -0.0f, 0, 0, 0, 0, 0 };
	static const float q3[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	animc_pass_stats stats = { 0 };
	animc_clip *clip = animc_clip_create("");
	uint32_t a = test_add_channel(clip, "A", 3, (const float[]){ 0, 0.1f, 0.3f }, 0, 1);
	uint32_t b = test_add_channel(clip, "B", 3, NULL, 0.5f, 1);

	(void)state;
	test_set_track(clip, a, ANIMC_TRANSLATION, false, same, 3, NULL);
	test_set_track(clip, a, ANIMC_ROTATION, false, q3, 3, NULL);
	test_set_track(clip, b, ANIMC_TRANSLATION, false, zeros, 3, NULL);
	test_set_track(clip, b, ANIMC_ROTATION, false, q3, 3, NULL);
	assert_int_equal(animc_pass_fixed(clip, NULL, &stats), ANIMC_OK);
	/* A: both tracks constant -> fixed, and the channel collapses to one key. */
	assert_true(clip->channels[a].tracks[0].is_fixed);
	assert_int_equal(clip->channels[a].tracks[0].value_count, 1);
	assert_int_equal(clip->channels[a].key_count, 1);
	assert_false(clip->channels[a].has_time);
	/* B: -0 differs from 0 bit for bit, so translation stays keyed. */
	assert_false(clip->channels[b].tracks[0].is_fixed);
	assert_true(clip->channels[b].tracks[1].is_fixed);
	assert_int_equal(clip->channels[b].key_count, 3);
	assert_int_equal(stats.tracks_made_fixed, 3);
	assert_int_equal(stats.channels_collapsed, 1);
	animc_clip_destroy(clip);
}

static void merge_builds_the_union_timeline(void **state)
{
	/* Translation at 0 and 1; rotation at 0, 0.5, 1 (90 degrees about Z
	 * over the clip, with a sign flip at the end); scale one key. */
	static const float tt[2] = { 0, 1 }, tv[6] = { 0, 0, 0, 2, 4, 6 };
	static const float rt[3] = { 0, 0.5f, 1 };
	static const float rv[12] = { 0, 0, 0, 1, 0, 0, 0.38268343f, 0.92387953f,
				       0, 0, -0.70710678f, -0.70710678f };
	static const float sv[3] = { 2, 2, 2 }, st[1] = { 0.25f };
	animc_pass_stats stats = { 0 };
	animc_clip *clip = animc_clip_create("turn");
	uint32_t ch = test_add_channel(clip, "Neck", 0, NULL, 0, 1);

	(void)state;
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, tv, 2, tt);
	test_set_track(clip, ch, ANIMC_ROTATION, false, rv, 3, rt);
	test_set_track(clip, ch, ANIMC_SCALE, false, sv, 1, st);
	assert_int_equal(animc_pass_merge(clip, NULL, &stats), ANIMC_OK);
	const animc_channel *c = &clip->channels[ch];
	assert_true(c->has_time);
	assert_int_equal(c->key_count, 3);
	assert_true(c->times_s[0] == 0 && c->times_s[1] == 0.5f && c->times_s[2] == 1);
	/* Translation gained a key at 0.5 by lerp. */
	assert_int_equal(c->tracks[0].value_count, 3);
	assert_null(c->tracks[0].times_s);
	assert_float_equal(c->tracks[0].values[3], 1, 1e-6);
	assert_float_equal(c->tracks[0].values[4], 2, 1e-6);
	assert_float_equal(c->tracks[0].values[5], 3, 1e-6);
	/* The last rotation was flipped onto the previous key's hemisphere. */
	assert_float_equal(c->tracks[1].values[10], 0.70710678f, 1e-6);
	assert_float_equal(c->tracks[1].values[11], 0.70710678f, 1e-6);
	assert_int_equal(stats.rotations_flipped, 1);
	/* A one-key track became fixed. */
	assert_true(c->tracks[2].is_fixed);
	assert_int_equal(c->tracks[2].value_count, 1);
	assert_null(c->tracks[2].times_s);
	assert_int_equal(stats.channels_merged, 1);
	animc_validate_options w = { ANIMC_STAGE_WRITABLE, false };
	assert_int_equal(animc_clip_validate(clip, &w, NULL), ANIMC_OK);
	animc_clip_destroy(clip);
}

static void merge_slerps_and_clamps(void **state)
{
	/* Rotation keys at 0 and 1 (0 to 90 degrees about Y); translation keys
	 * at 0.25 and 2 give the timeline 0, 0.25, 1, 2. */
	static const float rt[2] = { 0, 1 }, rv[8] = { 0, 0, 0, 1, 0, 0.70710678f, 0, 0.70710678f };
	static const float tt[2] = { 0.25f, 2 }, tv[6] = { 1, 1, 1, 3, 3, 3 };
	animc_clip *clip = animc_clip_create("x");
	uint32_t ch = test_add_channel(clip, "B", 0, NULL, 0, 2);

	(void)state;
	test_set_track(clip, ch, ANIMC_ROTATION, false, rv, 2, rt);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, tv, 2, tt);
	assert_int_equal(animc_pass_merge(clip, NULL, NULL), ANIMC_OK);
	const animc_channel *c = &clip->channels[ch];
	assert_int_equal(c->key_count, 4);
	/* Rotation at 0.25: 22.5 degrees about Y, by slerp (not lerp). */
	assert_float_equal(c->tracks[1].values[4 + 1], sinf(0.19634954f), 1e-6);
	assert_float_equal(c->tracks[1].values[4 + 3], cosf(0.19634954f), 1e-6);
	/* Rotation past its last key (t = 2) clamps to it. */
	assert_float_equal(c->tracks[1].values[12 + 1], 0.70710678f, 1e-6);
	/* Translation before its first key (t = 0) clamps to it. */
	assert_float_equal(c->tracks[0].values[0], 1, 0);
	animc_clip_destroy(clip);
}

static void uniform_only_when_evenly_spaced_from_zero(void **state)
{
	float even[31], from_one[3] = { 1, 2, 3 }, uneven[3] = { 0, 0.3f, 1 };
	static const float t31[93] = { 0 };
	animc_pass_stats stats = { 0 };
	animc_clip *clip = animc_clip_create("");

	(void)state;
	for (int i = 0; i < 31; i++)
		even[i] = (float)(i / 30.0);
	uint32_t a = test_add_channel(clip, "Even", 31, even, 0, 1);
	uint32_t b = test_add_channel(clip, "FromOne", 3, from_one, 0, 3);
	uint32_t c = test_add_channel(clip, "Uneven", 3, uneven, 0, 1);
	uint32_t d = test_add_channel(clip, "One", 1, (const float[]){ 0.5f }, 0, 1);
	/* A key 1 microsecond (over a hundred float steps) off the grid is no
	 * rounding of an even time: the keys keep their times. */
	float nearly[4] = { 0, 1 / 30.0f, 2 / 30.0f + 1e-6f, 3 / 30.0f };
	uint32_t e = test_add_channel(clip, "Nearly", 4, nearly, 0, 0.1f);
	test_set_track(clip, e, ANIMC_TRANSLATION, false, t31, 4, NULL);
	test_set_track(clip, a, ANIMC_TRANSLATION, false, t31, 31, NULL);
	test_set_track(clip, b, ANIMC_TRANSLATION, false, t31, 3, NULL);
	test_set_track(clip, c, ANIMC_TRANSLATION, false, t31, 3, NULL);
	test_set_track(clip, d, ANIMC_TRANSLATION, false, t31, 1, NULL);
	assert_int_equal(animc_pass_uniform(clip, NULL, &stats), ANIMC_OK);
	assert_false(clip->channels[a].has_time);
	assert_null(clip->channels[a].times_s);
	assert_true(clip->channels[a].key_interval_s == (float)(1.0 / 30));
	assert_true(clip->channels[b].has_time);
	assert_true(clip->channels[c].has_time);
	assert_false(clip->channels[d].has_time);
	assert_true(clip->channels[e].has_time);
	assert_int_equal(stats.channels_made_uniform, 2);
	animc_clip_destroy(clip);
}

static animc_clip *miscounted_clip(void)
{
	animc_clip *clip = animc_clip_create("");
	uint32_t ch = test_add_channel(clip, "Root", 2, (const float[]){ 0.5f, 0 }, 0, 1);

	clip->duration_s = 1;
	clip->declared_channel_count = 3;
	clip->is_sequence_source = true;
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, (const float[]){ 1, 2, 3, 4, 5, 6 }, 2, NULL);
	return clip;
}

static void process_default_corrects_and_normalises(void **state)
{
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_pass_stats stats = { 0 };
	animc_clip *clip = miscounted_clip();

	(void)state;
	assert_int_equal(animc_clip_process(clip, NULL, &sink, &stats), ANIMC_OK);
	assert_int_equal(clip->declared_channel_count, 1);
	assert_true(stats.declared_count_corrected);
	assert_int_equal(stats.channels_sorted, 1);
	assert_int_equal(stats.channels_made_uniform, 1);
	assert_false(clip->channels[0].has_time);
	assert_true(clip->channels[0].key_interval_s == 0.5f);
	assert_true(clip->channels[0].tracks[0].values[0] == 4);
	assert_int_equal(sink.error_count, 0);
	assert_int_equal(sink.warning_count, 2);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

static void process_exact_only_validates(void **state)
{
	animc_process_options exact = { .exact = true };
	animc_diag_sink sink = { 0 };
	animc_clip *clip = miscounted_clip();

	(void)state;
	/* Wrong count and unsorted times: both errors, nothing changed. */
	assert_int_equal(animc_clip_process(clip, &exact, &sink, NULL), ANIMC_ERR_INVALID);
	assert_int_equal(sink.error_count, 2);
	assert_int_equal(clip->declared_channel_count, 3);
	assert_true(clip->channels[0].times_s[0] == 0.5f);
	animc_clip_destroy(clip);

	clip = miscounted_clip();
	clip->declared_channel_count = 1;
	clip->channels[0].times_s[0] = 0;
	clip->channels[0].times_s[1] = 0.5f;
	sink.error_count = 0;
	assert_int_equal(animc_clip_process(clip, &exact, &sink, NULL), ANIMC_OK);
	assert_true(clip->channels[0].has_time);
	animc_clip_destroy(clip);
}

/* Pre- and post-roll: keys outside [0, duration] go, the values at the
 * ends are interpolated from the keys around them. */
static void trim_cuts_own_times_to_the_clip(void **state)
{
	static const float times[4] = { -1, 0.5f, 1, 3 };
	static const float tx[12] = { -3, 0, 0, 0, 0, 0, 2, 0, 0, 6, 0, 0 };
	static const float rot_times[2] = { -1, 1 };
	/* 0 and 180 degrees about z: halfway is 90 degrees. */
	static const float rot[8] = { 0, 0, 0, 1, 0, 0, 1, 0 };
	static const float early[2] = { -2, -1 }, late[2] = { 3, 4 };
	static const float sc[6] = { 1, 1, 1, 2, 2, 2 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_pass_stats stats = { 0 };
	animc_clip *clip = animc_clip_create("take");
	uint32_t a = test_add_channel(clip, "A", 0, NULL, 0, 2);
	uint32_t b = test_add_channel(clip, "B", 0, NULL, 0, 2);
	uint32_t c = test_add_channel(clip, "C", 0, NULL, 0, 2);

	(void)state;
	clip->duration_s = 2;
	test_set_track(clip, a, ANIMC_TRANSLATION, false, tx, 4, times);
	test_set_track(clip, a, ANIMC_ROTATION, false, rot, 2, rot_times);
	test_set_track(clip, b, ANIMC_SCALE, false, sc, 2, early);
	test_set_track(clip, c, ANIMC_SCALE, false, sc, 2, late);
	assert_int_equal(animc_pass_trim(clip, &sink, &stats), ANIMC_OK);

	const animc_track *t = &clip->channels[a].tracks[ANIMC_TRANSLATION];
	assert_int_equal(t->value_count, 4);
	assert_true(t->times_s[0] == 0 && t->times_s[1] == 0.5f && t->times_s[2] == 1 &&
		    t->times_s[3] == 2);
	/* -3 at -1 s to 0 at 0.5 s: -1 at 0; 2 at 1 s to 6 at 3 s: 4 at 2 s. */
	test_assert_near(t->values[0], -1, 1e-6);
	test_assert_near(t->values[9], 4, 1e-6);
	const animc_track *r = &clip->channels[a].tracks[ANIMC_ROTATION];
	assert_int_equal(r->value_count, 2);
	assert_true(r->times_s[0] == 0 && r->times_s[1] == 1);
	test_assert_near(r->values[2], sqrt(0.5), 1e-6);
	test_assert_near(r->values[3], sqrt(0.5), 1e-6);
	/* All keys before 0: the last value holds from 0; all after the end:
	 * the first one holds up to it. */
	const animc_track *tb = &clip->channels[b].tracks[ANIMC_SCALE];
	assert_int_equal(tb->value_count, 1);
	assert_true(tb->times_s[0] == 0 && tb->values[0] == 2);
	const animc_track *tc = &clip->channels[c].tracks[ANIMC_SCALE];
	assert_int_equal(tc->value_count, 1);
	assert_true(tc->times_s[0] == 2 && tc->values[0] == 1);
	/* 2 + 1 + 2 + 2 keys dropped, said once. */
	assert_int_equal(stats.keys_trimmed, 7);
	assert_int_equal(sink.warning_count, 0);
	assert_int_equal(test_diags_count(&diags, ANIMC_NOTE), 1);
	assert_non_null(strstr(diags.items[0].message, "7 keys"));
	assert_non_null(strstr(diags.items[0].message, "'take'"));
	/* The whole pipeline takes it. */
	assert_int_equal(animc_clip_process(clip, NULL, &sink, NULL), ANIMC_OK);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* Keys exactly at 0 and at the end stay (with their values, counted as
 * kept); a clip of 0 s takes one key at 0. */
static void trim_keeps_keys_at_its_ends(void **state)
{
	static const float times[5] = { -1, 0, 1, 2, 3 };
	static const float tx[15] = { -5, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 9, 0, 0 };
	static const float around[2] = { -1, 1 }, sc[6] = { 1, 1, 1, 3, 3, 3 };
	animc_pass_stats stats = { 0 };
	animc_clip *clip = animc_clip_create("take");
	uint32_t a = test_add_channel(clip, "A", 0, NULL, 0, 2);

	(void)state;
	clip->duration_s = 2;
	test_set_track(clip, a, ANIMC_TRANSLATION, false, tx, 5, times);
	assert_int_equal(animc_pass_trim(clip, NULL, &stats), ANIMC_OK);
	const animc_track *t = &clip->channels[a].tracks[ANIMC_TRANSLATION];
	assert_int_equal(t->value_count, 3);
	assert_true(t->times_s[0] == 0 && t->times_s[1] == 1 && t->times_s[2] == 2);
	assert_true(t->values[0] == 1 && t->values[3] == 2 && t->values[6] == 3);
	assert_int_equal(stats.keys_trimmed, 2);
	animc_clip_destroy(clip);

	clip = animc_clip_create("pose");
	a = test_add_channel(clip, "A", 0, NULL, 0, 0);
	clip->duration_s = 0;
	test_set_track(clip, a, ANIMC_SCALE, false, sc, 2, around);
	assert_int_equal(animc_pass_trim(clip, NULL, NULL), ANIMC_OK);
	t = &clip->channels[a].tracks[ANIMC_SCALE];
	assert_int_equal(t->value_count, 1);
	assert_true(t->times_s[0] == 0);
	test_assert_near(t->values[0], 2, 1e-6);
	animc_clip_destroy(clip);
}

/* Unsorted or non-finite times are validation's to report. */
static void trim_leaves_broken_times_alone(void **state)
{
	static const float nan_times[2] = { -1, NAN }, unsorted[3] = { 1, -1, 0.5f };
	static const float tx[9] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
	animc_diag_sink sink = { 0 };
	animc_clip *clip = animc_clip_create("");
	uint32_t a = test_add_channel(clip, "A", 0, NULL, 0, 1);
	uint32_t b = test_add_channel(clip, "B", 0, NULL, 0, 1);

	(void)state;
	clip->duration_s = 1;
	test_set_track(clip, a, ANIMC_TRANSLATION, false, tx, 2, nan_times);
	test_set_track(clip, b, ANIMC_TRANSLATION, false, tx, 3, unsorted);
	assert_int_equal(animc_pass_trim(clip, &sink, NULL), ANIMC_OK);
	assert_int_equal(sink.warning_count, 0);
	assert_int_equal(clip->channels[a].tracks[0].value_count, 2);
	assert_int_equal(clip->channels[b].tracks[0].value_count, 3);
	assert_int_equal(animc_clip_process(clip, NULL, &sink, NULL), ANIMC_ERR_INVALID);
	animc_clip_destroy(clip);
}

/* A layout none of the enum's (it went to the original layout with the
 * tolerance dropped, ANIMC_OK) is refused before anything changes. */
static void process_refuses_a_layout_it_does_not_know(void **state)
{
	animc_process_options o = { .layout = (animc_layout)9, .reduce.tolerance = { 0.01f, 0, 0 } };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_clip *clip = miscounted_clip();

	(void)state;
	assert_int_equal(animc_clip_process(clip, &o, &sink, NULL), ANIMC_ERR_ARGUMENT);
	assert_int_equal(sink.error_count, 1);
	assert_string_equal(diags.items[0].message, "layout 9 is neither ANIMC_LAYOUT_ORIGINAL nor ANIMC_LAYOUT_COMPACT");
	assert_int_equal(clip->declared_channel_count, 3);
	assert_true(clip->channels[0].times_s[0] == 0.5f);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(sort_moves_values_with_times_stably),
	cmocka_unit_test(sort_of_own_times_keeps_the_last_duplicate),
	cmocka_unit_test(fixed_is_bitwise_and_collapses),
	cmocka_unit_test(merge_builds_the_union_timeline),
	cmocka_unit_test(merge_slerps_and_clamps),
	cmocka_unit_test(uniform_only_when_evenly_spaced_from_zero),
	cmocka_unit_test(process_default_corrects_and_normalises),
	cmocka_unit_test(process_exact_only_validates),
	cmocka_unit_test(process_refuses_a_layout_it_does_not_know),
	cmocka_unit_test(trim_cuts_own_times_to_the_clip),
	cmocka_unit_test(trim_leaves_broken_times_alone),
	cmocka_unit_test(trim_keeps_keys_at_its_ends),
};

ANIMC_TEST_GROUP(tests);
