/*
 * compact_fixtures.h - clips the compact layout tests and the sampler tests
 * share: a varied clip, compiled by the pipeline in either layout, loaded.
 * Test-only; included once per test file.
 */
#ifndef ANIMRT_COMPACT_FIXTURES_H
#define ANIMRT_COMPACT_FIXTURES_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animc_formats.h>
#include <animc/animrt.h>

#define PI 3.14159265358979323846

/*
 * A clip with what the encoder and the samplers must handle: nine bones (so
 * groups of four with padding lanes), 5.5 s at 60 Hz (six segments), a
 * rotation turning through w = 0, a constant, an identity, an absent track,
 * a translation spanning 400 units (wide codes at a tight tolerance), a
 * channel with explicit times off the finest spacing, and a scale track.
 */
static inline animc_clip *varied_clip(void)
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
			test_axis_angle(&r[4 * i], 0.3 + 0.1 * b, 1, 0.2 * cos(x), b == 1 ? 2 * PI * x / 5.5 : 0.8 * sin(1.3 * x + b));
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
		test_axis_angle(&rr[4 * i], 1, 0, 0, 0.5 * i);
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
static inline uint8_t *compile(animc_clip *clip, bool compact, const animc_tolerance *tolerance, size_t *size,
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

/* A compact clip decoded at load (its sequence lists filled), or in
 * place (open_packed). */
static inline animrt_clip *open_bytes_with(const uint8_t *bytes, size_t size, bool is_decoded)
{
	animrt_open_options options = { NULL, 0, false, is_decoded };
	animrt_clip *clip = NULL;
	animrt_error err;

	if (animrt_open_with(bytes, size, &options, &clip, &err) != ANIMRT_OK)
		fail_msg("%s", err.message);
	return clip;
}

static inline animrt_clip *open_bytes(const uint8_t *bytes, size_t size)
{
	return open_bytes_with(bytes, size, true);
}

static inline animrt_clip *open_packed(const uint8_t *bytes, size_t size)
{
	return open_bytes_with(bytes, size, false);
}

#endif
