/*
 * compact_test.c - reader version 1 end to end: clips encoded by the
 * pipeline, written, loaded; their keys read back; sampled within the
 * tolerance of their source at 60 Hz, every key and 1 kHz; the SIMD sampler
 * against the plain C reference; and damaged files refused, never crashed
 * on.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animc_formats.h>
#include <animc/animrt.h>
#include "compact.h"
#include "compact_layout.h"
#include "sample.h"

#define PI 3.14159265358979323846

static void axis_angle(float out[4], double ax, double ay, double az, double angle_rad)
{
	double n = sqrt(ax * ax + ay * ay + az * az), s = sin(angle_rad / 2) / n;

	out[0] = (float)(ax * s);
	out[1] = (float)(ay * s);
	out[2] = (float)(az * s);
	out[3] = (float)cos(angle_rad / 2);
}

/*
 * A clip with what the encoder and the samplers must handle: nine bones (so
 * groups of four with padding lanes), 5.5 s at 60 Hz (six segments), a
 * rotation turning through w = 0, a constant, an identity, an absent track,
 * a translation spanning 400 units (wide codes at a tight tolerance), a
 * channel with explicit times off the finest spacing, and a scale track.
 */
static animc_clip *varied_clip(void)
{
	enum { N = 331, BONES = 9 };
	animc_clip *clip = animc_clip_create("varied");
	float *t = malloc(3 * N * sizeof *t), *r = malloc(4 * N * sizeof *r), *s = malloc(3 * N * sizeof *s);
	static const float times[5] = { 0, 0.25f, 0.3f, 2.0f, 5.5f };

	assert_true(t && r && s);
	clip->duration_s = 5.5f;
	for (int b = 0; b < BONES; b++) {
		char name[16];

		snprintf(name, sizeof name, "bone%d", b);
		for (int i = 0; i < N; i++) {
			double x = i / 60.0;

			t[3 * i] = (float)(b == 0 ? 200 * sin(0.7 * x) : 0.1 * sin(x + b));
			t[3 * i + 1] = (float)(b == 0 ? 30 * x : 0.02 * b);
			t[3 * i + 2] = (float)(0.05 * cos(2 * x));
			/* Bone 1 turns a full circle: every component passes 0. */
			axis_angle(&r[4 * i], 0.3 + 0.1 * b, 1, 0.2 * cos(x), b == 1 ? 2 * PI * x / 5.5 : 0.8 * sin(1.3 * x + b));
			s[3 * i] = (float)(1 + 0.05 * sin(3 * x));
			s[3 * i + 1] = 1;
			s[3 * i + 2] = (float)(1 + 0.02 * cos(x));
		}
		uint32_t ch = test_add_channel(clip, name, N, NULL, 1.0f / 60, 5.5f);
		if (b != 6)
			test_set_track(clip, ch, ANIMC_TRANSLATION, false, t, N, NULL);
		if (b == 4) {
			static const float still[4] = { 0, 0.6f, 0, 0.8f };
			test_set_track(clip, ch, ANIMC_ROTATION, true, still, 1, NULL);
		} else if (b == 5) {
			static const float identity[4] = { 0, 0, 0, 1 };
			test_set_track(clip, ch, ANIMC_ROTATION, true, identity, 1, NULL);
		} else {
			test_set_track(clip, ch, ANIMC_ROTATION, false, r, N, NULL);
		}
		if (b == 2 || b == 7)
			test_set_track(clip, ch, ANIMC_SCALE, false, s, N, NULL);
	}
	/* A channel with its own uneven times. */
	float tt[15], rr[20];
	for (int i = 0; i < 5; i++) {
		tt[3 * i] = (float)i;
		tt[3 * i + 1] = (float)(i * i) * 0.1f;
		tt[3 * i + 2] = 0;
		axis_angle(&rr[4 * i], 1, 0, 0, 0.5 * i);
	}
	uint32_t ch = test_add_channel(clip, "timed", 5, times, 0, 5.5f);
	test_set_track(clip, ch, ANIMC_TRANSLATION, false, tt, 5, NULL);
	test_set_track(clip, ch, ANIMC_ROTATION, false, rr, 5, NULL);
	clip->declared_channel_count = clip->channel_count;
	free(t);
	free(r);
	free(s);
	return clip;
}

/* The clip compiled: lossless, or compact at `tolerance` (NULL: default). */
static uint8_t *compile(animc_clip *clip, bool compact, const animc_tolerance *tolerance, size_t *size,
			animc_pass_stats *stats)
{
	animc_process_options o = { 0 };
	uint8_t *bytes = NULL;

	o.layout = compact ? ANIMC_LAYOUT_COMPACT : ANIMC_LAYOUT_ORIGINAL;
	if (tolerance)
		o.reduce.tolerance = *tolerance;
	assert_int_equal(animc_clip_process(clip, &o, NULL, stats), ANIMC_OK);
	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, size, NULL), ANIMC_OK);
	return bytes;
}

static animrt_clip *open_bytes(const uint8_t *bytes, size_t size)
{
	animrt_clip *clip = NULL;
	animrt_error err;

	if (animrt_open(bytes, size, &clip, &err) != ANIMRT_OK)
		fail_msg("%s", err.message);
	return clip;
}

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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(bounds_hold_through_the_runtime),
	cmocka_unit_test(keys_read_back_as_encoded),
	cmocka_unit_test(simd_agrees_with_the_reference),
};

ANIMC_TEST_GROUP(tests);
