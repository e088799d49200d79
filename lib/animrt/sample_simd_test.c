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
#include "simd.h"

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
		float local = animrt_rt_time_local(t, clip->duration_s, i % 3 ? ANIMRT_PLAY_ONCE : ANIMRT_PLAY_REPEAT);
		animrt_rt_sample_compact_reference(clip, local, map, &pa);
		animrt_rt_sample_compact_simd(clip, local, map, &pb);
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
			assert_int_equal(animrt_rt_clip_sample_reference(rt, t, mode, cursors[0], &p[0]), ANIMRT_OK);
			assert_int_equal(animrt_clip_sample(rt, t, mode, cursors[1], &p[1]), ANIMRT_OK);
			assert_int_equal(animrt_rt_binding_sample_reference(binding, t, mode, cursors[2], &p[2]), ANIMRT_OK);
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

/* ------------------------------------------------------------- in place */

/*
 * A compact clip sampled in place: its scalar reference equals the
 * decoded clip's bit for bit (the same codes, the same arithmetic); the
 * four-wide sampler, without a context and with one (forward playback,
 * backward, random jumps, a context handed from another clip), agrees
 * with it within 1e-6, and a context changes no bit; whole clips and
 * through a binding.
 */
static void in_place_agrees_with_decoded(void **state)
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
		animrt_clip *dec = open_bytes(bytes, size), *pk = open_packed(bytes, size);
		uint32_t n = pk->sequence_count, table = n + 2;

		assert_non_null(dec->sequences);
		assert_null(pk->sequences);
		assert_int_equal(pk->grid_sample_count, dec->grid_sample_count);
		/* Names and keys read back the same. */
		for (uint32_t b = 0; b < n; b++) {
			uint32_t size_a = 0, size_b = 0;

			assert_string_equal(animrt_clip_bone_name(pk, b, &size_a), animrt_clip_bone_name(dec, b, &size_b));
			assert_int_equal(size_a, size_b);
			for (unsigned t = 0; t < 3; t++) {
				uint32_t keys = animrt_track_keys(dec, b, t, 0, 0, NULL, NULL);
				float *ta = malloc((keys + 1) * sizeof(float)), *tb = malloc((keys + 1) * sizeof(float));
				float *va = malloc((keys + 1) * 4 * sizeof(float)), *vb = malloc((keys + 1) * 4 * sizeof(float));

				assert_int_equal(animrt_track_keys(pk, b, t, 0, 0, NULL, NULL), keys);
				assert_int_equal(animrt_track_keys(dec, b, t, 0, keys, ta, va), keys);
				assert_int_equal(animrt_track_keys(pk, b, t, 0, keys, tb, vb), keys);
				assert_memory_equal(ta, tb, keys * sizeof(float));
				assert_memory_equal(va, vb, keys * (t == 1 ? 4 : 3) * sizeof(float));
				free(ta);
				free(tb);
				free(va);
				free(vb);
			}
		}
		assert_null(animrt_clip_bone_name(pk, n, NULL));

		/* A binding that leaves a bone out and adds two. */
		const char *names[16];
		animrt_binding *binding;
		for (uint32_t i = 0; i < n; i++)
			names[n - 1 - i] = animrt_clip_bone_name(pk, i, NULL);
		names[n] = "no such bone";
		names[n + 1] = "another";
		names[0] = "left out";
		assert_int_equal(animrt_binding_create(pk, names, table, &binding, NULL), ANIMRT_OK);
		assert_int_equal(binding->unmatched_count, 1);

		void *m[6], *cm[3];
		animrt_pose p[6];
		animrt_context *ctx[3];
		for (int j = 0; j < 6; j++) {
			m[j] = malloc(animrt_pose_size_bytes(table));
			animrt_pose_init(&p[j], m[j], table);
		}
		for (int j = 0; j < 3; j++) {
			cm[j] = malloc(animrt_context_size_bytes(table));
			ctx[j] = animrt_context_init(cm[j], table);
		}
		/* A context that followed another clip first. */
		assert_int_equal(animrt_clip_sample_with(dec, 0.4f, ANIMRT_PLAY_ONCE, ctx[1], &p[0]), ANIMRT_OK);
		uint64_t seed = 7;
		double worst = 0;
		for (int i = 0; i < 5000; i++) {
			float t;

			if (i < 1500)
				t = (float)(i / 240.0);           /* forward */
			else if (i < 2500)
				t = (float)((2500 - i) / 200.0);  /* backward */
			else {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				t = (float)((double)(seed >> 11) / 9007199254740992.0 * pk->duration_s * 1.2);
			}
			if (i % 500 == 0)
				t = (float)((i / 500) * 64 / pk->grid_rate_hz);   /* segment edges */
			animrt_play_mode mode = i % 3 ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;
			assert_int_equal(animrt_rt_clip_sample_reference(dec, t, mode, NULL, &p[0]), ANIMRT_OK);
			assert_int_equal(animrt_rt_clip_sample_reference(pk, t, mode, NULL, &p[1]), ANIMRT_OK);
			assert_int_equal(animrt_clip_sample(pk, t, mode, NULL, &p[2]), ANIMRT_OK);
			assert_int_equal(animrt_clip_sample_with(pk, t, mode, ctx[0], &p[3]), ANIMRT_OK);
			assert_int_equal(animrt_rt_clip_sample_reference_with(pk, t, mode, ctx[1], &p[4]), ANIMRT_OK);
			for (uint32_t b = 0; b < n; b++) {
				assert_memory_equal(p[0].translation + 3 * b, p[1].translation + 3 * b, 3 * sizeof(float));
				assert_memory_equal(p[0].rotation + 4 * b, p[1].rotation + 4 * b, 4 * sizeof(float));
				assert_memory_equal(p[0].scale + 3 * b, p[1].scale + 3 * b, 3 * sizeof(float));
				assert_int_equal(p[0].tracks[b], p[1].tracks[b]);
			}
			/* The baseline build (no POPCNT, BMI or AVX encoding) gives
			 * the same bits as the one this processor runs, scalar and
			 * four wide. */
			float local = animrt_rt_time_local(t, pk->duration_s, mode);
			for (int r = 0; r < 2; r++) {
				animrt_rt_sample_packed_baseline(pk, local, NULL, NULL, &p[5], r == 1);
				assert_memory_equal(p[5].translation, p[r ? 1 : 2].translation, 3 * n * sizeof(float));
				assert_memory_equal(p[5].rotation, p[r ? 1 : 2].rotation, 4 * n * sizeof(float));
				assert_memory_equal(p[5].scale, p[r ? 1 : 2].scale, 3 * n * sizeof(float));
				assert_memory_equal(p[5].tracks, p[r ? 1 : 2].tracks, n);
			}
			/* A context changes no bit (animrt.h): four wide and
			 * scalar. */
			for (int r = 0; r < 2; r++) {
				const animrt_pose *with = &p[r ? 4 : 3], *without = &p[r ? 1 : 2];

				assert_memory_equal(with->translation, without->translation, 3 * n * sizeof(float));
				assert_memory_equal(with->rotation, without->rotation, 4 * n * sizeof(float));
				assert_memory_equal(with->scale, without->scale, 3 * n * sizeof(float));
				assert_memory_equal(with->tracks, without->tracks, n);
			}
			double d = fmax(fmax(max_diff(&p[1], &p[2]), max_diff(&p[1], &p[3])), max_diff(&p[1], &p[4]));
			assert_int_equal(animrt_rt_binding_sample_reference(binding, t, mode, NULL, &p[2]), ANIMRT_OK);
			assert_int_equal(animrt_binding_sample_with(binding, t, mode, ctx[2], &p[5]), ANIMRT_OK);
			/* Through a binding too, a context changes no bit. */
			assert_memory_equal(p[5].translation, p[2].translation, 3 * table * sizeof(float));
			assert_memory_equal(p[5].rotation, p[2].rotation, 4 * table * sizeof(float));
			assert_memory_equal(p[5].scale, p[2].scale, 3 * table * sizeof(float));
			assert_memory_equal(p[5].tracks, p[2].tracks, table);
			d = fmax(d, max_diff(&p[2], &p[5]));
			if (!(d <= 1e-6))
				fail_msg("in-place samplers differ by %g at %g s", d, (double)t);
			worst = fmax(worst, d);
		}
		/* Memory not 16-byte aligned makes no context. */
		assert_null(animrt_context_init((char *)cm[0] + 8, 1));
		assert_null(animrt_context_init_for((char *)cm[0] + 4, 1, 3));
		/* A context with fewer bones than the pose is refused. */
		animrt_context *small = animrt_context_init(cm[0], 1);
		assert_int_equal(animrt_clip_sample_with(pk, 0, ANIMRT_PLAY_ONCE, small, &p[0]), ANIMRT_ERR_CONTEXT_SIZE);
		for (int j = 0; j < 6; j++)
			free(m[j]);
		for (int j = 0; j < 3; j++)
			free(cm[j]);
		animrt_binding_destroy(binding);
		animrt_close(pk);
		animrt_close(dec);
		animc_clip_destroy(clip);
		free(bytes);
	}
}

/* A context sized by animrt_clip_context_tracks plays the clip as one
 * sized for any clip does, bit for bit, in less memory; one track short,
 * sampling is refused and the context keeps no half-made plan. */
static void context_sized_for_the_clip(void **state)
{
	static const animc_tolerance tolerance = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						   ANIMC_TOLERANCE_SCALE };

	(void)state;
	animc_clip *clip = varied_clip();
	size_t size;
	uint8_t *bytes = compile(clip, true, &tolerance, &size, NULL);
	animrt_clip *pk = open_packed(bytes, size), *dec = open_bytes(bytes, size);
	uint32_t n = pk->sequence_count, tracks = animrt_clip_context_tracks(pk);

	assert_true(tracks > 0 && tracks <= 3 * n);
	assert_int_equal(animrt_clip_context_tracks(dec), 0);
	assert_int_equal(animrt_clip_context_tracks(NULL), 0);
	size_t full = animrt_context_size_bytes(n), fit = animrt_context_size_bytes_for(n, tracks);
	assert_true(fit < full);
	assert_int_equal(fit, (ANIMRT_CONTEXT_HEADER_BYTES + 45 * (size_t)n + 112 * (size_t)tracks + 15) / 16 * 16);
	/* Sizes are multiples of 16, as aligned_alloc(16, size) wants. */
	for (uint32_t bones = 0; bones < 40; bones++)
		for (uint32_t t = 0; t < 5; t++)
			assert_int_equal(animrt_context_size_bytes_for(bones, t) % 16, 0);
	assert_int_equal(animrt_context_size_bytes(3) % 16, 0);
	assert_int_equal(animrt_context_size_bytes_for(n, 3 * n) <= full, true);

	void *m_full = malloc(full), *m_fit = malloc(fit), *m_short = malloc(fit);
	animrt_context *c_full = animrt_context_init(m_full, n), *c_fit = animrt_context_init_for(m_fit, n, tracks);
	animrt_context *c_short = animrt_context_init_for(m_short, n, tracks - 1);
	void *pm[3];
	animrt_pose p[3];
	for (int j = 0; j < 3; j++) {
		pm[j] = malloc(animrt_pose_size_bytes(n));
		animrt_pose_init(&p[j], pm[j], n);
	}
	for (int i = 0; i < 600; i++) {
		float t = (float)(i / 90.0);

		assert_int_equal(animrt_clip_sample_with(pk, t, ANIMRT_PLAY_REPEAT, c_full, &p[0]), ANIMRT_OK);
		assert_int_equal(animrt_clip_sample_with(pk, t, ANIMRT_PLAY_REPEAT, c_fit, &p[1]), ANIMRT_OK);
		assert_memory_equal(p[0].translation, p[1].translation, 3 * n * sizeof(float));
		assert_memory_equal(p[0].rotation, p[1].rotation, 4 * n * sizeof(float));
		assert_memory_equal(p[0].scale, p[1].scale, 3 * n * sizeof(float));
		assert_memory_equal(p[0].tracks, p[1].tracks, n);
		assert_int_equal(animrt_clip_sample_with(pk, t, ANIMRT_PLAY_REPEAT, c_short, &p[2]), ANIMRT_ERR_CONTEXT_SIZE);
	}
	/* The short context still plays a clip of the original layout. */
	assert_int_equal(animrt_clip_sample_with(dec, 0.5f, ANIMRT_PLAY_ONCE, c_short, &p[2]), ANIMRT_OK);
	for (int j = 0; j < 3; j++)
		free(pm[j]);
	free(m_full);
	free(m_fit);
	free(m_short);
	animrt_close(pk);
	animrt_close(dec);
	animc_clip_destroy(clip);
	free(bytes);
}

/* `ctx` at `t` (Repeat) gives the plain C sampler's bits without one
 * (into p[1], p[0]); it took `t` (the caches in use) or not, and its
 * caches are after as they were before (same 1) or changed (0; -1:
 * either). */
static void jump_step(const animrt_clip *pk, animrt_context *ctx, animrt_pose p[2], float t, bool taken, int same)
{
	uint32_t n = pk->sequence_count;
	size_t bytes = ctx->track_count * sizeof(rt_v3_cache);
	void *was = malloc(bytes ? bytes : 1);

	memcpy(was, rt_context_v3_caches(ctx), bytes);
	assert_int_equal(animrt_rt_clip_sample_reference(pk, t, ANIMRT_PLAY_REPEAT, NULL, &p[0]), ANIMRT_OK);
	assert_int_equal(animrt_clip_sample_with(pk, t, ANIMRT_PLAY_REPEAT, ctx, &p[1]), ANIMRT_OK);
	assert_memory_equal(p[0].translation, p[1].translation, 3 * n * sizeof(float));
	assert_memory_equal(p[0].rotation, p[1].rotation, 4 * n * sizeof(float));
	assert_memory_equal(p[0].scale, p[1].scale, 3 * n * sizeof(float));
	assert_memory_equal(p[0].tracks, p[1].tracks, n);
	assert_int_equal(ctx->near_run >= RT_CONTEXT_SETTLE, taken);
	if (same >= 0)
		assert_int_equal(memcmp(was, rt_context_v3_caches(ctx), bytes) == 0, same);
	free(was);
}

/*
 * A context leaves a jump, and the two samples after it, to the sampler
 * without one, and its caches as they were; the third sample near a jump
 * fills them (sample_packed.c, context_v3.c).  Near: within 8 grid
 * samples, 0.125 s and an eighth of the clip's grid samples, either way
 * round the clip.  Every pose the plain C sampler's.
 */
static void a_context_leaves_jumps_to_the_sampler_without_one(void **state)
{
	static const animc_tolerance tolerance = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						   ANIMC_TOLERANCE_SCALE };

	(void)state;
	animc_clip *clip = varied_clip();
	size_t size;
	uint8_t *bytes = compile(clip, true, &tolerance, &size, NULL);
	animrt_clip *pk = open_packed(bytes, size);
	uint32_t n = pk->sequence_count;
	float step = (float)(1.0 / pk->grid_rate_hz), bound = 8 * step < 0.125f ? 8 * step : 0.125f;
	bound = (float)pk->grid_sample_count / 8 * step < bound ? (float)pk->grid_sample_count / 8 * step : bound;
	float near = 0.75f * bound, past = 1.25f * bound, d = pk->duration_s;
	void *cm = malloc(animrt_context_size_bytes(n)), *pm[2];
	animrt_context *ctx = animrt_context_init(cm, n);
	animrt_pose p[2];

	for (int j = 0; j < 2; j++) {
		pm[j] = malloc(animrt_pose_size_bytes(n));
		animrt_pose_init(&p[j], pm[j], n);
	}
	assert_true(d > 0.5f);
	/* The first two samples go without (the first is a step from 0). */
	jump_step(pk, ctx, p, 0.0f, false, 1);
	assert_true(ctx->track_count > 0);
	jump_step(pk, ctx, p, 0.01f, false, 1);
	jump_step(pk, ctx, p, 0.015f, true, 0);
	jump_step(pk, ctx, p, 0.015f + near, true, -1);
	/* Far: a jump, and the two samples after it near, leave the caches. */
	float far = d / 2;
	jump_step(pk, ctx, p, far, false, 1);
	jump_step(pk, ctx, p, far + 0.01f, false, 1);
	jump_step(pk, ctx, p, far - 0.01f, false, 1);
	jump_step(pk, ctx, p, far - near, true, 0);
	/* Back to the first span: its keys are not in the caches any more
	 * for every track; the context refills what it must. */
	jump_step(pk, ctx, p, 0.03f, false, 1);
	jump_step(pk, ctx, p, 0.03f + near, false, 1);
	jump_step(pk, ctx, p, 0.03f, false, 1);
	jump_step(pk, ctx, p, 0.03f + near / 2, true, 0);
	/* A step past the bound is a jump, either way; round the clip's end
	 * (a loop's wrap) is near. */
	jump_step(pk, ctx, p, 0.03f + near / 2 + past, false, 1);
	jump_step(pk, ctx, p, 0.03f + near / 2, false, 1);
	jump_step(pk, ctx, p, 0.0f, false, 1);
	jump_step(pk, ctx, p, d - near / 4, false, 1);
	jump_step(pk, ctx, p, near / 4, true, -1);
	for (int j = 0; j < 2; j++)
		free(pm[j]);
	free(cm);
	animrt_close(pk);
	animc_clip_destroy(clip);
	free(bytes);
}

/* Samples of `b` at 10 times, with the context and without, are the same
 * bits. */
static void context_agrees_through(const animrt_binding *b, animrt_context *ctx, animrt_pose *with,
				   animrt_pose *without)
{
	uint32_t n = with->bone_count;

	for (int i = 0; i < 10; i++) {
		float t = 0.37f * (float)i;

		assert_int_equal(animrt_binding_sample_with(b, t, ANIMRT_PLAY_REPEAT, ctx, with), ANIMRT_OK);
		assert_int_equal(animrt_binding_sample_with(b, t, ANIMRT_PLAY_REPEAT, NULL, without), ANIMRT_OK);
		assert_memory_equal(with->translation, without->translation, 3 * n * sizeof(float));
		assert_memory_equal(with->rotation, without->rotation, 4 * n * sizeof(float));
		assert_memory_equal(with->scale, without->scale, 3 * n * sizeof(float));
	}
}

/* A binding of no bones (a skeleton the clip does not animate) samples
 * a compact clip with a context into a pose of no arrays, as
 * animrt_pose_init documents it: nothing is copied (it copied zero bytes
 * from NULL, which a sanitizer build of a game stops at). */
static void a_pose_of_no_bones_samples_with_a_context(void **state)
{
	static const animc_tolerance tolerance = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						   ANIMC_TOLERANCE_SCALE };
	static const char *const names[1] = { "no such bone" };

	(void)state;
	animc_clip *clip = varied_clip();
	size_t size;
	uint8_t *bytes = compile(clip, true, &tolerance, &size, NULL);
	animrt_clip *pk = open_packed(bytes, size);
	void *cm = malloc(animrt_context_size_bytes(pk->sequence_count));
	animrt_context *ctx = animrt_context_init(cm, pk->sequence_count);
	animrt_binding *b;
	animrt_pose pose;

	assert_int_equal(animrt_binding_create(pk, names, 0, &b, NULL), ANIMRT_OK);
	animrt_pose_init(&pose, NULL, 0);
	for (float t = 0; t < 2.5f; t += 0.25f)
		assert_int_equal(animrt_binding_sample_with(b, t, ANIMRT_PLAY_REPEAT, ctx, &pose), ANIMRT_OK);
	assert_int_equal(animrt_binding_sample(b, 0.5f, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
	animrt_binding_destroy(b);
	animrt_close(pk);
	free(cm), free(bytes);
	animc_clip_destroy(clip);
}

/* A context follows a clip and a binding, not the addresses they had: a
 * binding destroyed and another made for the same clip (where malloc put
 * the first), or a clip closed and another opened in its place, start it
 * over.  It took the old binding's bone order for the new one. */
static void a_context_tells_a_new_binding_from_the_old(void **state)
{
	static const animc_tolerance tolerance = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						   ANIMC_TOLERANCE_SCALE };
	static const animc_tolerance loose = { 0.1f, 2.0f, 0.01f };

	(void)state;
	animc_clip *clip = varied_clip();
	size_t size, loose_size;
	uint8_t *bytes = compile(clip, true, &tolerance, &size, NULL);
	uint8_t *loose_bytes = compile(clip, true, &loose, &loose_size, NULL);
	animrt_clip *pk = open_packed(bytes, size);
	uint32_t n = pk->sequence_count;
	const char **forward = malloc(n * sizeof *forward), **backward = malloc(n * sizeof *backward);
	void *pm[2], *cm = malloc(animrt_context_size_bytes(n));
	animrt_pose p[2];
	animrt_context *ctx = animrt_context_init(cm, n);
	animrt_binding *b;

	for (uint32_t i = 0; i < n; i++) {
		forward[i] = animrt_clip_bone_name(pk, i, NULL);
		backward[n - 1 - i] = forward[i];
	}
	for (int j = 0; j < 2; j++) {
		pm[j] = malloc(animrt_pose_size_bytes(n));
		animrt_pose_init(&p[j], pm[j], n);
	}
	assert_int_equal(animrt_binding_create(pk, forward, n, &b, NULL), ANIMRT_OK);
	context_agrees_through(b, ctx, &p[0], &p[1]);
	/* A binding made where this one was, as a game's allocator may put
	 * it (the tables of one for the bones backward, written over this
	 * one's, and its serial). */
	animrt_binding *other;
	assert_int_equal(animrt_binding_create(pk, backward, n, &other, NULL), ANIMRT_OK);
	assert_int_equal(other->unmatched_count + other->unanimated_count, 0);
	memcpy((void *)(uintptr_t)b->bone_of_sequence, other->bone_of_sequence, n * sizeof(uint32_t));
	memcpy((void *)(uintptr_t)b->sample_map, other->sample_map, n * sizeof(uint32_t));
	b->serial = other->serial;
	context_agrees_through(b, ctx, &p[0], &p[1]);
	animrt_binding_destroy(other);
	animrt_binding_destroy(b);
	/* Another clip where this one was (names kept: the other clip's). */
	animrt_close(pk);
	pk = open_packed(loose_bytes, loose_size);
	for (uint32_t i = 0; i < n; i++)
		backward[n - 1 - i] = animrt_clip_bone_name(pk, i, NULL);
	assert_int_equal(animrt_binding_create(pk, backward, n, &b, NULL), ANIMRT_OK);
	context_agrees_through(b, ctx, &p[0], &p[1]);
	animrt_binding_destroy(b);
	for (int j = 0; j < 2; j++)
		free(pm[j]);
	free(cm);
	free(forward);
	free(backward);
	animrt_close(pk);
	animc_clip_destroy(clip);
	free(bytes);
	free(loose_bytes);
}

/* The short sine series the slerps in place take (arcs up to
 * RT_SHORT_SINE) gives the full series' bits there (every float of the
 * range passes; here every 257th and the ends), and both are within 6e-8
 * of sin. */
static void short_sine_equals_the_full_series(void **state)
{
	uint32_t last;
	float top = RT_SHORT_SINE;

	(void)state;
	memcpy(&last, &top, sizeof last);
	for (uint32_t i = 0; i <= last + 4 * 257; i += 4 * 257) {
		float x[4], full[4], shrt[4];

		for (uint32_t lane = 0; lane < 4; lane++) {
			uint32_t bits = i + lane * 257 < last ? i + lane * 257 : last - lane;

			memcpy(&x[lane], &bits, sizeof bits);
		}
		rt_store(full, rt_sin_quadrant(rt_load(x)));
		rt_store(shrt, rt_sin_short(rt_load(x)));
		if (memcmp(full, shrt, sizeof full))
			fail_msg("the short series differs from the full one near %a", (double)x[0]);
		for (int lane = 0; lane < 4; lane++)
			assert_true(fabs((double)shrt[lane] - sin((double)x[lane])) <= 6e-8);
	}
}

/* ------------------------------------------------------------ one bone */

/* animrt_clip_sample_bone of every bone of `clip`, with a context and
 * without, and only the rotation, equal the clip's pose bit for bit. */
static void bones_equal_the_pose(const animrt_clip *clip, animrt_context *ctx)
{
	uint32_t n = clip->sequence_count;
	animrt_pose pose;
	void *mem = malloc(animrt_pose_size_bytes(n));

	animrt_pose_init(&pose, mem, n);
	for (int i = 0; i < 300; i++) {
		float t = (float)(i / 53.0) * 1.1f;
		animrt_play_mode mode = i % 2 ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;

		assert_int_equal(animrt_clip_sample(clip, t, mode, NULL, &pose), ANIMRT_OK);
		for (uint32_t b = 0; b < n; b++) {
			float T[3], R[4], S[3], R2[4], T3[3];

			assert_int_equal(animrt_clip_sample_bone(clip, b, t, mode, NULL, T, R, S), ANIMRT_OK);
			assert_memory_equal(T, pose.translation + 3 * b, sizeof T);
			assert_memory_equal(R, pose.rotation + 4 * b, sizeof R);
			assert_memory_equal(S, pose.scale + 3 * b, sizeof S);
			/* Only the tracks asked for. */
			assert_int_equal(animrt_clip_sample_bone(clip, b, t, mode, NULL, NULL, R2, NULL), ANIMRT_OK);
			assert_memory_equal(R2, R, sizeof R);
			/* A context playing forward, bone after bone. */
			assert_int_equal(animrt_clip_sample_bone(clip, b, t, mode, ctx, T3, R2, NULL), ANIMRT_OK);
			assert_memory_equal(T3, T, sizeof T);
			assert_memory_equal(R2, R, sizeof R);
		}
	}
	free(mem);
}

/*
 * A clip shaped like the corpus's (and unlike varied_clip, whose arcs all
 * run slowly): 21 bones turning at rates from a few degrees a second to
 * several turns, so that, reduced at the default tolerance, the slerps of
 * one sample mix short arcs and long ones.
 */
static animc_clip *mixed_arcs_clip(void)
{
	enum { N = 241, BONES = 21 };
	animc_clip *clip = animc_clip_create("mixed arcs");
	float *r = malloc(4 * N * sizeof *r), t[3] = { 0, 1, 0 };

	assert_non_null(r);
	clip->duration_s = 4.0f;
	for (int b = 0; b < BONES; b++) {
		char name[16];
		/* From 0.05 to 25 radians a second, some of them wobbling. */
		double rate = 0.05 * pow(1.35, b);

		snprintf(name, sizeof name, "bone%d", b);
		for (int i = 0; i < N; i++) {
			double x = i / 60.0;

			test_axis_angle(&r[4 * i], 0.2 + 0.1 * b, 1, 0.3 * sin(x + b),
				   b % 3 ? rate * x : 0.9 * sin(rate * x + b));
		}
		uint32_t ch = test_add_channel(clip, name, N, NULL, 1.0f / 60, 4.0f);
		test_set_track(clip, ch, ANIMC_TRANSLATION, true, t, 1, NULL);
		test_set_track(clip, ch, ANIMC_ROTATION, false, r, N, NULL);
	}
	clip->declared_channel_count = clip->channel_count;
	free(r);
	return clip;
}

/*
 * The mixed-arcs clip sampled in place at every grid step and halfway and
 * at random times: every bone alone, with a context and without, equals
 * the clip's pose (with a context and without) bit for bit.
 */
static void one_bone_equals_the_pose_on_mixed_arcs(void **state)
{
	animc_clip *clip = mixed_arcs_clip();

	(void)state;
	size_t size;
	uint8_t *bytes = compile(clip, true, NULL, &size, NULL);
	animrt_clip *pk = open_packed(bytes, size);
	uint32_t n = pk->sequence_count;
	void *mp = malloc(animrt_pose_size_bytes(n)), *mq = malloc(animrt_pose_size_bytes(n));
	void *mc = malloc(animrt_context_size_bytes(n)), *md = malloc(animrt_context_size_bytes(n));
	animrt_context *whole = animrt_context_init(mc, n), *one = animrt_context_init(md, n);
	animrt_pose pose, with;
	uint64_t seed = 99;
	long differ = 0;

	animrt_pose_init(&pose, mp, n);
	animrt_pose_init(&with, mq, n);
	for (int i = 0; i < 3000; i++) {
		animrt_play_mode mode = i % 2 ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;
		float time;

		if (i < 2 * (int)pk->grid_sample_count) {
			time = (float)((i / 2.0) / pk->grid_rate_hz);
		} else {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			time = (float)((double)(seed >> 11) / 9007199254740992.0 * pk->duration_s);
		}
		assert_int_equal(animrt_clip_sample(pk, time, mode, NULL, &pose), ANIMRT_OK);
		assert_int_equal(animrt_clip_sample_with(pk, time, mode, whole, &with), ANIMRT_OK);
		for (uint32_t b = 0; b < n; b++) {
			float T[3], R[4], S[3], R2[4];

			assert_int_equal(animrt_clip_sample_bone(pk, b, time, mode, NULL, T, R, S), ANIMRT_OK);
			assert_int_equal(animrt_clip_sample_bone(pk, b, time, mode, one, NULL, R2, NULL), ANIMRT_OK);
			differ += memcmp(R, pose.rotation + 4 * b, sizeof R) != 0;
			differ += memcmp(R2, pose.rotation + 4 * b, sizeof R) != 0;
			differ += memcmp(with.rotation + 4 * b, pose.rotation + 4 * b, sizeof R) != 0;
			assert_memory_equal(T, pose.translation + 3 * b, sizeof T);
			assert_memory_equal(S, pose.scale + 3 * b, sizeof S);
		}
	}
	assert_int_equal(differ, 0);
	free(mp);
	free(mq);
	free(mc);
	free(md);
	animrt_close(pk);
	animc_clip_destroy(clip);
	free(bytes);
}

/* Do poses p[0] and p[1] of n bones differ in a bit? */
static bool poses_differ(const animrt_pose p[2], uint32_t n)
{
	return memcmp(p[0].translation, p[1].translation, 3 * n * sizeof(float)) ||
	       memcmp(p[0].rotation, p[1].rotation, 4 * n * sizeof(float)) ||
	       memcmp(p[0].scale, p[1].scale, 3 * n * sizeof(float)) || memcmp(p[0].tracks, p[1].tracks, n);
}

/* Does `ctx` at `t` (Repeat) give other bits than the plain C sampler
 * without one (p[1], p[0])? */
static bool context_differs(const animrt_clip *pk, animrt_context *ctx, animrt_pose p[2], float t)
{
	assert_int_equal(animrt_rt_clip_sample_reference(pk, t, ANIMRT_PLAY_REPEAT, NULL, &p[0]), ANIMRT_OK);
	assert_int_equal(animrt_clip_sample_with(pk, t, ANIMRT_PLAY_REPEAT, ctx, &p[1]), ANIMRT_OK);
	return poses_differ(p, pk->sequence_count);
}

/* A context on `pk` played through the baseline build (the path of
 * processors without AVX2, whatever this one has) forward at 60 and 144
 * Hz and backward at 60 Hz; returns the samples not the plain C sampler's
 * bits. */
static long baseline_context_differs(const animrt_clip *pk)
{
	static const float rates[] = { 60, 144, -60 };
	uint32_t n = pk->sequence_count;
	void *mc = malloc(animrt_context_size_bytes(n)), *pm[2];
	animrt_pose p[2];
	long differ = 0;

	for (int j = 0; j < 2; j++) {
		pm[j] = malloc(animrt_pose_size_bytes(n));
		animrt_pose_init(&p[j], pm[j], n);
	}
	for (int r = 0; r < 3; r++) {
		animrt_context *ctx = animrt_context_init(mc, n);

		assert_true(animrt_rt_context_follow(ctx, pk, NULL, 0));
		for (int i = 0; i < 500; i++) {
			float t = (rates[r] > 0 ? 0 : pk->duration_s) + (float)i / rates[r];

			assert_int_equal(animrt_rt_clip_sample_reference(pk, t, ANIMRT_PLAY_REPEAT, NULL, &p[0]), ANIMRT_OK);
			animrt_rt_sample_packed_baseline(pk, animrt_rt_time_local(t, pk->duration_s, ANIMRT_PLAY_REPEAT),
							 NULL, ctx, &p[1], false);
			differ += poses_differ(p, n);
		}
		assert_true(ctx->near_run >= RT_CONTEXT_SETTLE);
	}
	for (int j = 0; j < 2; j++)
		free(pm[j]);
	free(mc);
	return differ;
}

/* Does one bone b with `ctx` at `t` (Repeat) give other bits than the
 * plain C sampler's pose p (sampled at t)? */
static bool bone_differs(const animrt_clip *pk, animrt_context *ctx, const animrt_pose *p, uint32_t b, float t)
{
	float T[3], R[4], S[3];

	assert_int_equal(animrt_clip_sample_bone(pk, b, t, ANIMRT_PLAY_REPEAT, ctx, T, R, S), ANIMRT_OK);
	return memcmp(T, p->translation + 3 * b, sizeof T) || memcmp(R, p->rotation + 4 * b, sizeof R) ||
	       memcmp(S, p->scale + 3 * b, sizeof S);
}

/* A context on `pk`: playback forward and backward at 24, 60 and 144 Hz
 * (the context taking the samples), then jumps, each followed by three
 * near steps, whole poses and one bone (with a context of its own);
 * returns the samples not the plain C sampler's bits. */
static long context_playback_differs(const animrt_clip *pk)
{
	static const float rates[] = { 24, 60, 144, -60 };
	uint32_t n = pk->sequence_count;
	void *mc = malloc(animrt_context_size_bytes(n)), *pm[2];
	animrt_pose p[2];
	uint64_t seed = 5;
	long differ = 0;

	for (int j = 0; j < 2; j++) {
		pm[j] = malloc(animrt_pose_size_bytes(n));
		animrt_pose_init(&p[j], pm[j], n);
	}
	for (int r = 0; r < 4; r++) {
		animrt_context *ctx = animrt_context_init(mc, n);

		for (int i = 0; i < 700; i++)
			differ += context_differs(pk, ctx, p, (rates[r] > 0 ? 0 : pk->duration_s) + (float)i / rates[r]);
		assert_true(ctx->near_run >= RT_CONTEXT_SETTLE);
	}
	void *mb = malloc(animrt_context_size_bytes(n));
	animrt_context *ctx = animrt_context_init(mc, n), *bone = animrt_context_init(mb, n);
	for (int i = 0; i < 300; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		float t = (float)((double)(seed >> 11) / 9007199254740992.0 * pk->duration_s);

		for (int k = 0; k < 4; k++) {
			differ += context_differs(pk, ctx, p, t + (float)k / 60);
			differ += bone_differs(pk, bone, &p[0], (uint32_t)i % n, t + (float)k / 60);
		}
	}
	for (int j = 0; j < 2; j++)
		free(pm[j]);
	free(mc);
	free(mb);
	return differ;
}

/*
 * A context gives the plain C sampler's bits (sample_v3.c) in playback
 * and after jumps, on every processor (with AVX2 its slerps, keys and
 * lanes take the build for it, sample_v3_simd.c): on the mixed-arcs clip
 * (21 rotations: slerps of eight and of five, short and long arcs, four
 * segments) and on varied_clip with quantised and with float32 keys.
 * So does a context through the baseline build, four wide: the path of
 * processors without AVX2, which the public samplers take only there.
 */
static void a_context_gives_the_plain_c_bits(void **state)
{
	static const animc_tolerance raw = { 1e-4f, 1e-4f, 1e-6f };
	animc_clip *clips[3] = { mixed_arcs_clip(), varied_clip(), varied_clip() };

	(void)state;
	for (int k = 0; k < 3; k++) {
		size_t size;
		uint8_t *bytes = compile(clips[k], true, k == 2 ? &raw : NULL, &size, NULL);
		animrt_clip *pk = open_packed(bytes, size);

		assert_true(animrt_clip_context_tracks(pk) > 0);
		assert_int_equal(context_playback_differs(pk), 0);
		assert_int_equal(baseline_context_differs(pk), 0);
		animrt_close(pk);
		animc_clip_destroy(clips[k]);
		free(bytes);
	}
}

/* The times the in-place and decoded samplers are compared at: every grid
 * step and halfway and either side of each step, the duration and either
 * side of it, past it and before 0, then random times from before 0 to past
 * the end.  Returns the count (at most 6 N + 1040 for N grid samples). */
static uint32_t comparison_times(const animrt_clip *clip, float *t)
{
	float d = clip->duration_s, step = (float)(1.0 / clip->grid_rate_hz);
	const float special[] = { d, nextafterf(d, 0), nextafterf(d, INFINITY), d + step, 2 * d, 1e7f,
				  -0.0f, -1e-7f, -d / 3, nextafterf(0, 1) };
	uint32_t n = 0;
	uint64_t seed = 2024;

	for (uint32_t k = 0; k <= 2 * clip->grid_sample_count + 2; k++) {
		float g = (float)((k / 2.0) / clip->grid_rate_hz);

		t[n++] = g;
		if (k % 2 == 0) {
			t[n++] = nextafterf(g, 0);
			t[n++] = nextafterf(g, INFINITY);
		}
	}
	for (size_t i = 0; i < sizeof special / sizeof *special; i++)
		t[n++] = special[i];
	for (int i = 0; i < 1000; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		t[n++] = (float)(((double)(seed >> 11) / 9007199254740992.0 * 1.3 - 0.1) * d);
	}
	return n;
}

/* Where two poses' first `n` bones differ in any bit: the bone, or -1. */
static int64_t first_differing_bone(const animrt_pose *a, const animrt_pose *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (memcmp(a->translation + 3 * i, b->translation + 3 * i, 3 * sizeof(float)) ||
		    memcmp(a->rotation + 4 * i, b->rotation + 4 * i, 4 * sizeof(float)) ||
		    memcmp(a->scale + 3 * i, b->scale + 3 * i, 3 * sizeof(float)) || a->tracks[i] != b->tracks[i])
			return i;
	return -1;
}

/*
 * A compact clip sampled in place (the default) and decoded at load
 * (animrt_open_options.is_decoded) gives the same pose, bit for bit: whole
 * clips without a context and with one (forward over the grid, then at
 * random), every bone alone, in both play modes, at the times above.  On
 * varied_clip (slow arcs; float32 keys at a tight tolerance) and on the
 * mixed arcs, whose short arcs the sampler in place evaluates with a
 * shorter sine series than the decoded one.
 */
static void in_place_and_decoded_give_the_same_bits(void **state)
{
	static const animc_tolerance tolerances[3] = {
		{ ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG, ANIMC_TOLERANCE_SCALE },
		{ 1e-2f, 1.0f, 1e-2f },
		{ 1e-4f, 1e-4f, 1e-6f },
	};

	(void)state;
	for (int c = 0; c < 4; c++) {
		animc_clip *clip = c < 3 ? varied_clip() : mixed_arcs_clip();
		size_t size;
		uint8_t *bytes = compile(clip, true, &tolerances[c < 3 ? c : 0], &size, NULL);
		animrt_clip *pk = open_packed(bytes, size), *dec = open_bytes(bytes, size);
		uint32_t n = pk->sequence_count, count;
		float *times = malloc((6 * (size_t)pk->grid_sample_count + 1040) * sizeof *times);
		void *m[4], *mc = malloc(animrt_context_size_bytes(n));
		animrt_pose p[4];
		animrt_context *ctx = animrt_context_init(mc, n);

		assert_non_null(times);
		for (int j = 0; j < 4; j++) {
			m[j] = malloc(animrt_pose_size_bytes(n));
			animrt_pose_init(&p[j], m[j], n);
		}
		count = comparison_times(pk, times);
		for (int mode = ANIMRT_PLAY_ONCE; mode <= ANIMRT_PLAY_REPEAT; mode++)
			for (uint32_t i = 0; i < count; i++) {
				static const char *const how[4] = { "", "in place", "in place with a context",
								    "in place, bone by bone" };
				animrt_play_mode pm = (animrt_play_mode)mode;
				float t = times[i];
				int64_t bone = -1;
				int k = 0;
				const char *what;

				assert_int_equal(animrt_clip_sample(dec, t, pm, NULL, &p[0]), ANIMRT_OK);
				assert_int_equal(animrt_clip_sample(pk, t, pm, NULL, &p[1]), ANIMRT_OK);
				assert_int_equal(animrt_clip_sample_with(pk, t, pm, ctx, &p[2]), ANIMRT_OK);
				for (uint32_t b = 0; b < n; b++) {
					assert_int_equal(animrt_clip_sample_bone(pk, b, t, pm, NULL, p[3].translation + 3 * b,
										 p[3].rotation + 4 * b, p[3].scale + 3 * b),
							 ANIMRT_OK);
					p[3].tracks[b] = p[0].tracks[b];
				}
				for (k = 1; k < 4 && bone < 0; k++)
					bone = first_differing_bone(&p[0], &p[k], n);
				what = how[--k];
				if (bone < 0) {
					/* The decoded clip bone by bone, into p[1]. */
					for (uint32_t b = 0; b < n; b++)
						assert_int_equal(animrt_clip_sample_bone(dec, b, t, pm, NULL,
											 p[1].translation + 3 * b,
											 p[1].rotation + 4 * b, p[1].scale + 3 * b),
								 ANIMRT_OK);
					memcpy(p[1].tracks, p[0].tracks, n);
					bone = first_differing_bone(&p[0], &p[1], n);
					k = 1;
					what = "decoded, bone by bone";
				}
				if (bone >= 0) {
					const float *want = p[0].rotation + 4 * bone, *got = p[k].rotation + 4 * bone;

					fail_msg("clip %d, %s, %.9g s, bone %lld: decoded rotation %.9g %.9g %.9g %.9g, %s "
						 "%.9g %.9g %.9g %.9g", c, mode ? "repeat" : "once", (double)t, (long long)bone,
						 (double)want[0], (double)want[1], (double)want[2], (double)want[3],
						 what, (double)got[0], (double)got[1],
						 (double)got[2], (double)got[3]);
				}
			}
		for (int j = 0; j < 4; j++)
			free(m[j]);
		free(mc);
		free(times);
		animrt_close(pk);
		animrt_close(dec);
		animc_clip_destroy(clip);
		free(bytes);
	}
}

static void one_bone_samples_on_every_layout(void **state)
{
	static const animc_tolerance tolerance = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						   ANIMC_TOLERANCE_SCALE };

	(void)state;
	animc_clip *clip = varied_clip();
	size_t size, original_size;
	uint8_t *bytes = compile(clip, true, &tolerance, &size, NULL);
	uint8_t *original_bytes = compile(clip, false, NULL, &original_size, NULL);
	animrt_clip *clips[3] = { open_packed(bytes, size), open_bytes(bytes, size),
				  open_bytes(original_bytes, original_size) };
	animrt_clip *pk = clips[0];
	uint32_t n = pk->sequence_count, tracks = animrt_clip_context_tracks(pk);

	/* The trap the call removes: a clip in place has no sequence list. */
	assert_null(pk->sequences);
	for (int c = 0; c < 3; c++) {
		void *m = malloc(animrt_context_size_bytes(n));

		bones_equal_the_pose(clips[c], animrt_context_init(m, n));
		free(m);
	}

	/* What it refuses, writing nothing. */
	float T[3] = { 7, 7, 7 }, R[4], S[3];
	void *m_small = malloc(animrt_context_size_bytes(n)), *m_short = malloc(animrt_context_size_bytes_for(n, tracks));
	animrt_context *small = animrt_context_init(m_small, n - 1);
	animrt_context *c_short = animrt_context_init_for(m_short, n, tracks - 1);

	assert_int_equal(animrt_clip_sample_bone(NULL, 0, 0, ANIMRT_PLAY_ONCE, NULL, T, R, S), ANIMRT_ERR_ARGUMENT);
	assert_int_equal(animrt_clip_sample_bone(pk, n, 0, ANIMRT_PLAY_ONCE, NULL, T, R, S), ANIMRT_ERR_BONE);
	assert_int_equal(animrt_clip_sample_bone(pk, 0, 0, (animrt_play_mode)2, NULL, T, R, S), ANIMRT_ERR_PLAY_MODE);
	assert_int_equal(animrt_clip_sample_bone(pk, 0, 0, ANIMRT_PLAY_ONCE, small, T, R, S), ANIMRT_ERR_CONTEXT_SIZE);
	assert_int_equal(animrt_clip_sample_bone(pk, 0, 0, ANIMRT_PLAY_ONCE, c_short, T, R, S), ANIMRT_ERR_CONTEXT_SIZE);
	assert_float_equal(T[0], 7, 0);
	free(m_small);
	free(m_short);
	for (int c = 0; c < 3; c++)
		animrt_close(clips[c]);
	animc_clip_destroy(clip);
	free(bytes);
	free(original_bytes);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(short_sine_equals_the_full_series),
	cmocka_unit_test(simd_agrees_with_the_reference),
	cmocka_unit_test(simd_agrees_with_the_reference_original),
	cmocka_unit_test(in_place_agrees_with_decoded),
	cmocka_unit_test(context_sized_for_the_clip),
	cmocka_unit_test(a_context_leaves_jumps_to_the_sampler_without_one),
	cmocka_unit_test(a_context_tells_a_new_binding_from_the_old),
	cmocka_unit_test(a_pose_of_no_bones_samples_with_a_context),
	cmocka_unit_test(one_bone_samples_on_every_layout),
	cmocka_unit_test(one_bone_equals_the_pose_on_mixed_arcs),
	cmocka_unit_test(a_context_gives_the_plain_c_bits),
	cmocka_unit_test(in_place_and_decoded_give_the_same_bits),
};

ANIMC_TEST_GROUP(tests);
