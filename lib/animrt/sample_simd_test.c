/*
 * sample_simd_test.c - the SIMD samplers against the scalar references they
 * must agree with (within 1e-6 here; the contract is 1e-5): both layouts,
 * whole clips and through bindings, at grid samples, halfway, segment
 * edges and random times, in both play modes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animrt.h>
#include "compact.h"
#include "compact_fixtures.h"
#include "compact_layout.h"
#include "sample.h"

/* ---------------------------------------------------- SIMD and reference */

static double max_diff(const animrt_pose *a, const animrt_pose *b)
{
	double d = 0;

	for (uint32_t i = 0; i < a->bone_count; i++) {
		for (int k = 0; k < 3; k++) {
			d = fmax(d, fabs((double)a->translation[3 * i + k] - b->translation[3 * i + k]));
			d = fmax(d, fabs((double)a->scale[3 * i + k] - b->scale[3 * i + k]));
		}
		for (int k = 0; k < 4; k++)
			d = fmax(d, fabs((double)a->rotation[4 * i + k] - b->rotation[4 * i + k]));
		if (a->tracks[i] != b->tracks[i])
			d = INFINITY;
	}
	return d;
}

/* Both samplers of a compact clip at many times agree within 1e-6; the
 * worst difference is returned. */
static double compare_samplers(const animrt_clip *clip, const uint32_t *map, uint32_t pose_bones)
{
	void *ma = malloc(animrt_pose_size_bytes(pose_bones)), *mb = malloc(animrt_pose_size_bytes(pose_bones));
	animrt_pose pa, pb;
	double worst = 0;
	uint64_t seed = 12345;

	animrt_pose_init(&pa, ma, pose_bones);
	animrt_pose_init(&pb, mb, pose_bones);
	for (int i = 0; i < 4000; i++) {
		float t;

		if (i < 1000) {
			/* Every grid sample and halfway, and the segment edges. */
			t = (float)((i / 2.0) / clip->grid_rate_hz);
		} else {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			t = (float)((double)(seed >> 11) / 9007199254740992.0 * clip->duration_s * 1.1);
		}
		float local = animrt_time_local(t, clip->duration_s, i % 3 ? ANIMRT_PLAY_ONCE : ANIMRT_PLAY_REPEAT);
		rt_sample_compact_reference(clip, local, map, &pa);
		rt_sample_compact_simd(clip, local, map, &pb);
		double d = max_diff(&pa, &pb);
		if (!(d <= 1e-6))
			fail_msg("samplers differ by %g at %g s", d, (double)t);
		worst = fmax(worst, d);
	}
	free(ma);
	free(mb);
	return worst;
}

static void simd_agrees_with_the_reference(void **state)
{
	static const animc_tolerance tolerances[3] = {
		{ ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG, ANIMC_TOLERANCE_SCALE },
		{ 1e-2f, 1.0f, 1e-2f },
		{ 1e-4f, 1e-4f, 1e-6f },   /* float32 keys, wide codes */
	};

	(void)state;
	for (int k = 0; k < 3; k++) {
		animc_clip *clip = varied_clip();
		size_t size;
		uint8_t *bytes = compile(clip, true, &tolerances[k], &size, NULL);
		animrt_clip *rt = open_bytes(bytes, size);
		/* The cases the samplers part ways on are there: a track with
		 * its bits per segment, float32 keys, codes over 16 bits. */
		bool has[3] = { false, false, false };
		for (uint32_t b = 0; b < clip->compact->bone_count; b++)
			for (int t = 0; t < 3; t++) {
				const animc_compact_track *tr = &clip->compact->tracks[b][t];

				has[0] |= tr->kind == ANIMC_COMPACT_ANIMATED && tr->bits == COMPACT_SEGMENTED;
				has[1] |= tr->kind == ANIMC_COMPACT_ANIMATED && tr->bits == COMPACT_RAW_BITS;
				has[2] |= tr->kind == ANIMC_COMPACT_ANIMATED && tr->bits > 16 && tr->bits <= COMPACT_MAX_BITS;
				for (uint32_t g = 0; tr->segment_codes && g < clip->compact->segment_count; g++)
					has[2] |= (tr->segment_codes[7 * g] & 31) > 16;
			}
		assert_true(has[0]);
		if (k == 2)
			assert_true(has[1] && has[2]);

		compare_samplers(rt, NULL, rt->sequence_count);
		/* Through a map, as bindings sample: reversed into a bigger pose. */
		uint32_t map[16];
		for (uint32_t i = 0; i < rt->sequence_count; i++)
			map[i] = rt->sequence_count + 2 - i;
		map[3] = RT_NO_BONE;
		compare_samplers(rt, map, rt->sequence_count + 3);
		animrt_close(rt);
		animc_clip_destroy(clip);
		free(bytes);
	}
}

/* The original layout: today's scalar sampler (the reference) and the
 * four-wide slerps, lossless and reduced, with key cursors, through a
 * clip and through a binding that leaves a bone out and adds two. */
static void simd_agrees_with_the_reference_original(void **state)
{
	static const animc_tolerance tolerance = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						   ANIMC_TOLERANCE_SCALE };

	(void)state;
	for (int k = 0; k < 2; k++) {
		animc_clip *clip = varied_clip();
		size_t size;
		uint8_t *bytes = compile(clip, false, k ? &tolerance : NULL, &size, NULL);
		animrt_clip *rt = open_bytes(bytes, size);
		uint32_t n = rt->sequence_count, table = n + 2;
		const char *names[16];
		animrt_binding *binding;

		for (uint32_t i = 0; i < n; i++)
			names[n - 1 - i] = rt->sequences[i].bone;
		names[n] = "no such bone";
		names[n + 1] = "another";
		names[0] = "left out";
		assert_int_equal(animrt_binding_create(rt, names, table, &binding, NULL), ANIMRT_OK);
		void *m[4];
		animrt_pose p[4];
		for (int j = 0; j < 4; j++) {
			m[j] = malloc(animrt_pose_size_bytes(table));
			animrt_pose_init(&p[j], m[j], table);
		}
		uint32_t cursors[4][16] = { { 0 } };
		uint64_t seed = 99;
		for (int i = 0; i < 3000; i++) {
			float t;

			if (i < 1500) {
				t = (float)(i / 240.0);   /* forward: cursors walk */
			} else {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				t = (float)((double)(seed >> 11) / 9007199254740992.0 * 7.0 - 0.5);
			}
			animrt_play_mode mode = i % 2 ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;
			assert_int_equal(rt_clip_sample_reference(rt, t, mode, cursors[0], &p[0]), ANIMRT_OK);
			assert_int_equal(animrt_clip_sample(rt, t, mode, cursors[1], &p[1]), ANIMRT_OK);
			assert_int_equal(rt_binding_sample_reference(binding, t, mode, cursors[2], &p[2]), ANIMRT_OK);
			assert_int_equal(animrt_binding_sample(binding, t, mode, cursors[3], &p[3]), ANIMRT_OK);
			double d = fmax(max_diff(&p[0], &p[1]), max_diff(&p[2], &p[3]));
			if (!(d <= 1e-6))
				fail_msg("samplers differ by %g at %g s", d, (double)t);
		}
		for (int j = 0; j < 4; j++)
			free(m[j]);
		animrt_binding_destroy(binding);
		animrt_close(rt);
		animc_clip_destroy(clip);
		free(bytes);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(simd_agrees_with_the_reference),
	cmocka_unit_test(simd_agrees_with_the_reference_original),
};

ANIMC_TEST_GROUP(tests);
