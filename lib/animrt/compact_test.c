/*
 * compact_test.c - reader version 1 end to end: clips encoded by the
 * pipeline, written, loaded; their keys read back; sampled within the
 * tolerance of their source at 60 Hz, every key and 1 kHz; and damaged
 * files refused, never crashed on.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animc_formats.h>
#include <animc/animrt.h>
#include "compact.h"
#include "compact_fixtures.h"
#include "compact_layout.h"
#include "sample.h"

/* ------------------------------------------------------------ round trip */

static void bounds_hold_through_the_runtime(void **state)
{
	static const animc_tolerance tolerances[3] = {
		{ ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG, ANIMC_TOLERANCE_SCALE },
		{ 1e-2f, 0.5f, 1e-3f },
		{ 1e-4f, 0.001f, 1e-6f },
	};

	(void)state;
	for (int k = 0; k < 3; k++) {
		animc_clip *src = varied_clip(), *cmp = varied_clip();
		animc_pass_stats stats = { 0 };
		size_t n_src, n_cmp;
		uint8_t *a = compile(src, false, NULL, &n_src, NULL);
		uint8_t *b = compile(cmp, true, &tolerances[k], &n_cmp, &stats);
		test_error e = test_compare_compiled(a, n_src, b, n_cmp, 1000);

		assert_true(e.translation <= tolerances[k].translation);
		assert_true(e.rotation_deg <= tolerances[k].rotation_deg);
		assert_true(e.scale <= tolerances[k].scale);
		/* The encoder's own measure agrees with what the runtime gives. */
		assert_true(stats.is_reduced && stats.error.rotation_deg <= tolerances[k].rotation_deg);
		assert_true(n_cmp < n_src);
		animc_clip_destroy(src);
		animc_clip_destroy(cmp);
		free(a);
		free(b);
	}
}

static void keys_read_back_as_encoded(void **state)
{
	animc_clip *clip = varied_clip();
	size_t size;
	uint8_t *bytes = compile(clip, true, NULL, &size, NULL);
	animrt_clip *rt = open_bytes(bytes, size);
	const animc_compact *c = clip->compact;

	(void)state;
	assert_int_equal(rt->container.reader_version, 1);
	assert_string_equal(rt->container.reader, COMPACT_READER_NAME_DEFAULT);
	assert_non_null(rt->compact);
	test_assert_near(rt->grid_rate_hz, 60, 1e-3);
	assert_int_equal(rt->grid_sample_count, c->sample_count);
	assert_int_equal(rt->sequence_count, c->bone_count);
	for (uint32_t b = 0; b < c->bone_count; b++) {
		const animrt_sequence *s = &rt->sequences[b];

		assert_string_equal(s->bone, c->bones[b]);
		for (unsigned k = 0; k < 3; k++) {
			const animc_compact_track *t = &c->tracks[b][k];
			uint32_t n = animrt_track_keys(rt, b, k, 0, 0, NULL, NULL);
			bool has = k == 0 ? s->has_translation : k == 1 ? s->has_rotation : s->has_scale;

			assert_int_equal(has, t->kind != ANIMC_COMPACT_ABSENT);
			if (t->kind != ANIMC_COMPACT_ANIMATED) {
				assert_int_equal(n, 0);
				continue;
			}
			assert_int_equal(n, t->key_count);
			float *times = malloc(n * sizeof *times), *values = malloc(n * 4 * sizeof *values);
			assert_int_equal(animrt_track_keys(rt, b, k, 0, n, times, values), n);
			for (uint32_t i = 0; i < n; i++)
				test_assert_near(times[i], t->samples[i] / 60.0, 1e-5);
			/* A key from the middle on. */
			float one[4];
			assert_int_equal(animrt_track_keys(rt, b, k, n / 2, 1, NULL, one), n);
			assert_memory_equal(one, values + (size_t)(n / 2) * (k == 1 ? 4 : 3), (k == 1 ? 4 : 3) * sizeof(float));
			free(times);
			free(values);
		}
	}
	/* The constant and the identity rotation. */
	assert_true(rt->sequences[4].is_fixed_rotation && rt->sequences[4].rotation_count == 1);
	test_assert_near(rt->sequences[4].rotation[1], 0.6, 1e-4);
	assert_true(rt->sequences[5].is_fixed_rotation && rt->sequences[5].rotation[3] == 1);
	assert_false(rt->sequences[6].has_translation);
	animrt_close(rt);
	animc_clip_destroy(clip);
	free(bytes);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(bounds_hold_through_the_runtime),
	cmocka_unit_test(keys_read_back_as_encoded),
};

ANIMC_TEST_GROUP(tests);
