/*
 * compact_test.c - the compact encoder's search for keys: on a grid many
 * samples finer than the keys (a part cut between keys) it measures each
 * sample a few times, and the bounds hold through the runtime.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clip_internal.h"
#include "test_support.h"
#include <animc/animc.h>

/* A zigzag keyed every 1/30 s, `phase` keys in (its keys at whole
 * phases): a straight run along x, up and down in y, and a turn back and
 * forth about a tilted axis, sharp at every key. */
static void zigzag_at(double phase, float *t, float *r)
{
	double turn = fabs(fmod(phase, 2.0) - 1.0);

	t[0] = (float)(0.1 * phase);
	t[1] = (float)(0.3 * turn);
	t[2] = 0;
	test_axis_angle(r, 0.2, 1, 0.1, 0.6 * turn);
}

/* The part of that zigzag --split cuts from `cut` to `cut` + `seconds`,
 * between keys: its first key at 0, the others at k/30 - cut, the last at
 * `seconds`. */
static animc_clip *cut_zigzag(double cut, float seconds)
{
	enum { MOST = 256 };
	animc_clip *clip = animc_clip_create("cut");
	float times[MOST], t[3 * MOST], r[4 * MOST];
	uint32_t n = 0;

	times[n] = 0;
	zigzag_at(cut * 30, t, r);
	n++;
	for (int k = 1; k / 30.0 - cut < seconds && n + 1 < MOST; k++) {
		times[n] = (float)(k / 30.0 - cut);
		zigzag_at(k, t + 3 * n, r + 4 * n);
		n++;
	}
	times[n] = seconds;
	zigzag_at((cut + seconds) * 30, t + 3 * n, r + 4 * n);
	n++;
	clip->duration_s = seconds;
	uint32_t ch = test_add_channel(clip, "Hand", n, times, 0, seconds);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, n, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, r, n, NULL);
	clip->declared_channel_count = 1;
	return clip;
}

/* A part cut between keys takes a grid many samples finer than its keys,
 * where a span reaches over dozens of samples: the search for keys
 * measures each sample a few times for each bit rate and range it tries
 * (spans tried at lengths doubling, then halving the gap: about 240 points
 * a grid sample here), not once for every span tried through it (2,900:
 * seconds of encoding for seconds of motion capture, minutes for a longer
 * part). */
static void a_grid_much_finer_than_the_keys_is_searched_in_few_measures(void **state)
{
	animc_clip *clip = cut_zigzag(0.0123, 0.5f);
	animc_process_options lossless = { 0 };
	animc_reduce_options reduce = { 0 };

	(void)state;
	assert_int_equal(animc_clip_process(clip, &lossless, NULL, NULL), ANIMC_OK);
	uint64_t before = animc_compact_span_points();
	assert_int_equal(animc_pass_compact(clip, &reduce, NULL, NULL), ANIMC_OK);
	uint64_t points = animc_compact_span_points() - before;
	const animc_compact *c = clip->compact;
	assert_non_null(c);
	assert_true(c->grid_finer >= 5);
	assert_int_equal(c->tracks[0][ANIMC_TRANSLATION].kind, ANIMC_COMPACT_ANIMATED);
	assert_int_equal(c->tracks[0][ANIMC_ROTATION].kind, ANIMC_COMPACT_ANIMATED);
	if (points > 512 * (uint64_t)c->sample_count)
		fail_msg("%llu points measured for %u grid samples", (unsigned long long)points, c->sample_count);
	animc_clip_destroy(clip);
}

/* Its keys, found so, hold the bounds through the runtime (at 60 Hz, every
 * source key, every grid sample and 10 kHz), at three tolerances (grids
 * 256, 32 and 128 times finer than the keys); and the encoder's own
 * measure says so. */
static void keys_searched_on_a_much_finer_grid_hold_the_bounds(void **state)
{
	static const animc_tolerance tolerances[3] = {
		{ ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG, ANIMC_TOLERANCE_SCALE },
		{ 1e-2f, 0.5f, 1e-3f },
		{ 2e-3f, 0.1f, 1e-5f },
	};

	(void)state;
	for (int k = 0; k < 3; k++) {
		animc_clip *src = cut_zigzag(0.0123, 0.5f), *cmp = cut_zigzag(0.0123, 0.5f);
		animc_process_options lossless = { 0 };
		animc_reduce_options reduce = { tolerances[k], NULL, 0, false };
		animc_pass_stats stats = { 0 };

		assert_int_equal(animc_clip_process(cmp, &lossless, NULL, NULL), ANIMC_OK);
		assert_int_equal(animc_pass_compact(cmp, &reduce, NULL, &stats), ANIMC_OK);
		assert_true(cmp->compact->grid_finer >= 1);
		test_error e = test_compare_clips(src, cmp, 10000);
		if (e.translation > tolerances[k].translation || e.rotation_deg > tolerances[k].rotation_deg)
			fail_msg("at %g units, %g degrees: %g units, %g degrees", (double)tolerances[k].translation,
				 (double)tolerances[k].rotation_deg, e.translation, e.rotation_deg);
		assert_true(stats.error.translation <= tolerances[k].translation);
		assert_true(stats.error.rotation_deg <= tolerances[k].rotation_deg);
		animc_clip_destroy(src);
		animc_clip_destroy(cmp);
	}
}

/* A bone swinging 30 degrees back and forth, keyed at 60 Hz for `keys`
 * keys: spans of a few keys hold the bound, so every segment's search for
 * the fewest keys has work to do. */
static animc_clip *swing(uint32_t keys)
{
	animc_clip *clip = animc_clip_create("swing");
	float *times = malloc(keys * sizeof *times), *t = calloc(3 * (size_t)keys, sizeof *t);
	float *r = malloc(4 * (size_t)keys * sizeof *r);

	assert_non_null(times), assert_non_null(t), assert_non_null(r);
	for (uint32_t k = 0; k < keys; k++) {
		times[k] = (float)(k / 60.0);
		test_axis_angle(r + 4 * k, 1, 0.3, 0, 30 * 3.14159265358979 / 180 * sin(2 * k / 60.0));
	}
	clip->duration_s = times[keys - 1];
	uint32_t ch = test_add_channel(clip, "Arm", keys, times, 0, clip->duration_s);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, keys, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, r, keys, NULL);
	clip->declared_channel_count = 1;
	free(times), free(t), free(r);
	return clip;
}

/* Points the compact encoder measures per grid sample of a swing of
 * `keys` keys. */
static double swing_points_per_sample(uint32_t keys)
{
	animc_clip *clip = swing(keys);
	animc_process_options lossless = { 0 };
	animc_reduce_options reduce = { 0 };

	assert_int_equal(animc_clip_process(clip, &lossless, NULL, NULL), ANIMC_OK);
	uint64_t before = animc_compact_span_points();
	assert_int_equal(animc_pass_compact(clip, &reduce, NULL, NULL), ANIMC_OK);
	uint64_t points = animc_compact_span_points() - before;
	assert_non_null(clip->compact);
	double per = (double)points / clip->compact->sample_count;
	animc_clip_destroy(clip);
	return per;
}

/* Each segment of a take tries some 50 bit rates and ranges, each searched
 * for its keys; those that cannot cost less than the cheapest found (the
 * keys the source's own spans need, at their bit rate) are passed over
 * before their search ends, or begins: a swing of 600 keys measured 5,400
 * points a grid sample, and a second of motion capture took a quarter of a
 * second to encode. */
static void choices_that_cannot_win_are_passed_over(void **state)
{
	(void)state;
	double per = swing_points_per_sample(600);

	print_message("points per grid sample: %.0f\n", per);
	if (per > 2500)
		fail_msg("%.0f points a grid sample", per);
}

/* A long take (here 2.5 minutes at 60 Hz) keeps the greedy's keys: the
 * search for the fewest keys measured several times as many points, for a
 * few percent fewer keys, and a five-minute take of 31 bones passed the
 * default --import-timeout.  A shorter one still takes that search. */
static void a_long_take_keeps_the_greedy_keys(void **state)
{
	(void)state;
	double longer = swing_points_per_sample(9000), shorter = swing_points_per_sample(600);

	print_message("points per grid sample: %.0f (9000 keys), %.0f (600 keys)\n", longer, shorter);
	if (longer * 2 > shorter)
		fail_msg("%.0f points a sample on a long take, %.0f on a short one", longer, shorter);
}

/* The payload of a clip with no compact encoding (processed for the
 * original layout): an error saying what to run, not a crash. */
static void writing_a_clip_never_encoded_is_refused(void **state)
{
	static const float t[6] = { 0, 0, 0, 1, 2, 3 };
	animc_clip *clip = animc_clip_create("walk");
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "w");
	uint8_t *payload = (uint8_t *)&sink;
	size_t size = 7;

	(void)state;
	clip->duration_s = 1;
	uint32_t ch = test_add_channel(clip, "Root", 2, NULL, 1, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, 2, NULL);
	assert_int_equal(animc_clip_process(clip, NULL, &sink, NULL), ANIMC_OK);
	assert_null(clip->compact);
	assert_int_equal(animc_compact_write(clip, &payload, &size, &sink), ANIMC_ERR_ARGUMENT);
	assert_null(payload);
	assert_int_equal(size, 0);
	assert_int_equal(sink.error_count, 1);
	assert_string_equal(diags.items[0].message, "clip 'walk': has no compact encoding: run animc_pass_compact "
			    "(or animc_clip_process for ANIMC_LAYOUT_COMPACT) first");
	/* Encoded, it writes. */
	assert_int_equal(animc_pass_compact(clip, NULL, &sink, NULL), ANIMC_OK);
	assert_int_equal(animc_compact_write(clip, &payload, &size, &sink), ANIMC_OK);
	assert_non_null(payload);
	assert_true(size > 0);
	free(payload);
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(choices_that_cannot_win_are_passed_over),
	cmocka_unit_test(a_long_take_keeps_the_greedy_keys),
	cmocka_unit_test(a_grid_much_finer_than_the_keys_is_searched_in_few_measures),
	cmocka_unit_test(keys_searched_on_a_much_finer_grid_hold_the_bounds),
	cmocka_unit_test(writing_a_clip_never_encoded_is_refused),
};

ANIMC_TEST_GROUP(tests);
