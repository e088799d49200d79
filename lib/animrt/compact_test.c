/*
 * compact_test.c - reader version 2 end to end: clips encoded by the
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
	assert_int_equal(rt->container.reader_version, COMPACT3_READER_VERSION);
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

/* A key off every grid the key spacing suggests, on a slope the grid's
 * step cannot follow within the bound: the encoder takes a finer grid
 * (never the error it used to give, which the original layout never
 * gave), and the bounds hold through the runtime. */
static void a_grid_too_coarse_gets_a_finer_one(void **state)
{
	static const float times[4] = { 0, 0.1f, 0.1237f, 0.2f };
	static const float t[12] = { 0, 0, 0, 0, 0, 0, 0.2f, 0, 0, 0, 0, 0 };
	animc_clip *src = animc_clip_create("spike"), *cmp = animc_clip_create("spike");
	size_t n_src, n_cmp;

	(void)state;
	for (int k = 0; k < 2; k++) {
		animc_clip *c = k ? cmp : src;

		c->duration_s = 0.2f;
		uint32_t ch = test_add_channel(c, "Hand", 4, times, 0, 0.2f);
		test_set_track(c, ch, ANIMC_TRANSLATION, false, t, 4, NULL);
		c->declared_channel_count = 1;
	}
	uint8_t *a = compile(src, false, NULL, &n_src, NULL);
	uint8_t *b = compile(cmp, true, NULL, &n_cmp, NULL);
	assert_true(cmp->compact->grid_finer >= 1);
	test_error e = test_compare_compiled(a, n_src, b, n_cmp, 10000);
	assert_true(e.translation <= ANIMC_TOLERANCE_TRANSLATION);
	animc_clip_destroy(src);
	animc_clip_destroy(cmp);
	free(a);
	free(b);
}

/* A rotation turning about a tilted, wobbling axis over three segments:
 * each segment leaves out the component that makes its keys cheapest,
 * which here is not always the one whose smallest magnitude is largest
 * (the best conditioned to rebuild), and the bounds hold through the
 * runtime. */
static void a_segment_leaves_out_the_component_cheapest_for_it(void **state)
{
	enum { N = 129 };
	animc_clip *src = animc_clip_create("drop"), *cmp = animc_clip_create("drop");
	float r[4 * N];
	size_t n_src, n_cmp;
	unsigned other = 0;

	(void)state;
	for (int i = 0; i < N; i++) {
		double x = i / 60.0;

		test_axis_angle(&r[4 * i], 0.2, 0.08, 0.2 + 0.3 * cos(x), 1.8 + 0.2 * sin(x) + 0.002 * sin(40 * x));
	}
	for (int k = 0; k < 2; k++) {
		animc_clip *c = k ? cmp : src;

		c->duration_s = (N - 1) / 60.0f;
		uint32_t ch = test_add_channel(c, "bone", N, NULL, 1.0f / 60, c->duration_s);
		test_set_track(c, ch, ANIMC_ROTATION, false, r, N, NULL);
		c->declared_channel_count = 1;
	}
	uint8_t *a = compile(src, false, NULL, &n_src, NULL);
	uint8_t *b = compile(cmp, true, NULL, &n_cmp, NULL);
	const animc_compact_track *t = &cmp->compact->tracks[0][ANIMC_ROTATION];
	assert_int_equal(t->kind, ANIMC_COMPACT_ANIMATED);
	assert_int_equal(t->bits, COMPACT_SEGMENTED);
	assert_int_equal(cmp->compact->segment_count, 3);
	for (uint32_t s = 0; s < cmp->compact->segment_count; s++) {
		unsigned steadiest = 0;
		float best_low = -1;

		for (unsigned c = 0; c < 4; c++) {
			float low = INFINITY;

			for (uint32_t i = s * 64; i < (s + 1) * 64 && i < N; i++)
				low = fminf(low, fabsf(r[4 * i + c]));
			if (low > best_low) {
				best_low = low;
				steadiest = c;
			}
		}
		other += (unsigned)(t->segment_codes[s * COMPACT_SEGMENT_CODE_SIZE] >> 5) != steadiest;
	}
	assert_true(other >= 1);
	test_error e = test_compare_compiled(a, n_src, b, n_cmp, 1000);
	assert_true(e.rotation_deg <= ANIMC_TOLERANCE_ROTATION_DEG);
	animc_clip_destroy(src);
	animc_clip_destroy(cmp);
	free(a);
	free(b);
}

/* -------------------------------------------------------------- damage */

static uint8_t *read_seed(const char *name, size_t *size)
{
	char *path = test_format("testdata/fuzz/loader/%s", name);
	uint8_t *bytes = test_read_file(path, size);

	free(path);
	return bytes;
}

/* A loaded clip is whole: every key reads back and sampling gives finite
 * values. */
static void use_whole(animrt_clip *clip)
{
	uint32_t n = clip->sequence_count;
	void *m = malloc(animrt_pose_size_bytes(n ? n : 1));
	animrt_pose pose;

	animrt_pose_init(&pose, m, n);
	for (int i = 0; i <= 8; i++) {
		float t = clip->duration_s * (float)i / 8;

		assert_int_equal(animrt_clip_sample(clip, t, ANIMRT_PLAY_REPEAT, NULL, &pose), ANIMRT_OK);
		assert_int_equal(animrt_rt_clip_sample_reference(clip, t, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
		for (uint32_t b = 0; b < n; b++)
			for (int k = 0; k < 4; k++)
				assert_true(isfinite(pose.rotation[4 * b + k]) && (k == 3 || isfinite(pose.translation[3 * b + k])));
	}
	for (uint32_t b = 0; b < n; b++)
		for (unsigned k = 0; k < 3; k++) {
			float t[4], v[16];
			uint32_t keys = animrt_track_keys(clip, b, k, 0, 4, t, v);

			for (uint32_t i = 0; i < (keys < 4 ? keys : 4); i++)
				assert_true(isfinite(t[i]) && isfinite(v[i]));
		}
	free(m);
}

/* Every byte of a compact file flipped three ways, and every length cut
 * short (with the size field made to agree): refused with a reason, or
 * loaded whole; never a crash (the sanitizer build watches). */
static void every_damaged_byte_is_refused_or_whole(void **state)
{
	static const char *const seeds[] = { "seed-compact-sway.xnb", "seed-compact-sway-tight.xnb",
					     "seed-compact-turn.xnb" };

	(void)state;
	for (size_t f = 0; f < 3; f++) {
		size_t size;
		uint8_t *good = read_seed(seeds[f], &size), *d = malloc(size);
		size_t refused = 0;

		for (size_t i = 0; i < size; i++)
			for (int flip = 0; flip < 3; flip++) {
				static const uint8_t flips[3] = { 0x01, 0x80, 0xFF };
				animrt_clip *clip;
				animrt_error err;

				memcpy(d, good, size);
				d[i] ^= flips[flip];
				if (animrt_open(d, size, &clip, &err) == ANIMRT_OK) {
					use_whole(clip);
					animrt_close(clip);
					continue;
				}
				refused++;
				assert_true(err.message[0] != '\0');
				assert_true(err.byte_offset >= -1 && err.byte_offset <= (int64_t)size);
			}
		/* Much damage is caught; a flipped code, name or float bit may stay
		 * legal, and then the clip is whole. */
		print_message("%s: %zu of %zu damaged files refused\n", seeds[f], refused, 3 * size);
		assert_true(refused >= size / 8);
		for (size_t cut = 0; cut < size; cut++) {
			animrt_clip *clip;
			animrt_error err;

			memcpy(d, good, cut);
			if (cut >= XNB_HEADER_SIZE)
				xnb_put_u32(d + XNB_SIZE_OFFSET, (uint32_t)cut);
			assert_int_not_equal(animrt_open(d, cut, &clip, &err), ANIMRT_OK);
			assert_null(clip);
		}
		free(d);
		free(good);
	}
}

/* Where each section of a payload starts (read mode, recording visitor). */
typedef struct section_at {
	size_t at[COMPACT_RECORDS + 1];
	size_t payload;
} section_at;

static bool record_visit(void *user, compact_walker *w, compact_value *v)
{
	section_at *s = user;

	if (!s->at[v->section])
		s->at[v->section] = s->payload + w->pos;
	return true;
}

static void expect_damage(const uint8_t *good, size_t size, size_t at, uint8_t value, animrt_status status,
			  int64_t offset)
{
	uint8_t *d = malloc(size);
	animrt_clip *clip;
	animrt_error err;

	memcpy(d, good, size);
	d[at] = value;
	assert_int_equal(animrt_open(d, size, &clip, &err), status);
	if (offset >= 0 && err.byte_offset != offset)
		fail_msg("byte %zu set to 0x%02x: error at %lld, expected %lld: %s", at, value,
			 (long long)err.byte_offset, (long long)offset, err.message);
	free(d);
}

static void damage_is_named_with_its_offset(void **state)
{
	size_t size;
	uint8_t *good = read_seed("seed-compact-sway.xnb", &size);
	/* The payload follows the reader's entry: name, version, 2 counts. */
	size_t payload = XNB_HEADER_SIZE + 1 + 1 + strlen(COMPACT_READER_NAME_DEFAULT) + 4 + 1 + 1;
	section_at s;
	compact_walker w;

	(void)state;
	memset(&s, 0, sizeof s);
	memset(&w, 0, sizeof w);
	s.payload = payload;
	w.mode = COMPACT_READ;
	w.in = good + payload;
	w.size = size - payload;
	assert_int_equal(compact3_walk(&w, record_visit, &s), COMPACT_OK);
	assert_true(w.segment_count == 3 && w.group_count > 1);

	/* Header: a negative grid rate, a sample count past its duration. */
	expect_damage(good, size, payload + 8 + 3, 0xC1, ANIMRT_ERR_VALUE, (int64_t)payload + 8);
	expect_damage(good, size, payload + 12 + 3, 0x10, ANIMRT_ERR_COUNT, (int64_t)payload + 12);
	/* A descriptor with a reserved bit. */
	size_t desc = s.at[COMPACT_DESCRIPTORS];
	expect_damage(good, size, desc + 1, good[desc + 1] | 0x80, ANIMRT_ERR_VALUE, (int64_t)desc);
	/* A group format with a reserved bit; the last group's (no rotations)
	 * with range kind none. */
	size_t fmt = payload + w.group_formats_at, last = fmt + w.group_count - 1;
	expect_damage(good, size, fmt, good[fmt] | 0x80, ANIMRT_ERR_VALUE, (int64_t)fmt);
	expect_damage(good, size, last, (uint8_t)(good[last] | 3), ANIMRT_ERR_VALUE, (int64_t)last);
	/* A record's code byte with 0 bits, or 20. */
	size_t rec = payload + w.records_at;
	expect_damage(good, size, rec, (uint8_t)(good[rec] & 0xE0), ANIMRT_ERR_VALUE, (int64_t)rec);
	expect_damage(good, size, rec, (uint8_t)((good[rec] & 0x60) | 20), ANIMRT_ERR_VALUE, (int64_t)rec);
	/* The first mask bit of a lane (a segment's first key) cleared. */
	uint32_t used, first;
	compact3_group(w.kind_count, 0, &used, &first);
	expect_damage(good, size, rec + used, (uint8_t)(good[rec + used] & 0xFE), ANIMRT_ERR_VALUE,
		      (int64_t)(rec + used));
	/* A byte after the keys. */
	uint8_t *longer = malloc(size + 1);
	animrt_clip *clip;
	animrt_error err;
	memcpy(longer, good, size);
	longer[size] = 0;
	xnb_put_u32(longer + XNB_SIZE_OFFSET, (uint32_t)size + 1);
	assert_int_equal(animrt_open(longer, size + 1, &clip, &err), ANIMRT_ERR_TRAILING);
	assert_int_equal(err.byte_offset, (int64_t)size);
	free(longer);
	free(good);
}

/*
 * A constant translation along one axis stores only that component
 * (descriptor bits 12-14 name the others 0); both loaders read it back,
 * and a loader refuses the bits on a translation that is not constant, or
 * on all three components.
 */
static void a_constant_translation_stores_its_nonzero_components(void **state)
{
	static const float along_y[3] = { 0, 2.5f, 0 }, moving[6] = { 0, 0, 0, 1, 0, 0 };
	static const float still[3] = { 0.25f, 0.5f, -4.0f };
	animc_clip *clip = animc_clip_create("offsets");
	size_t size;

	(void)state;
	clip->duration_s = 1;
	test_set_track(clip, test_add_channel(clip, "Spine", 1, NULL, 1, 1), ANIMC_TRANSLATION, true, along_y, 1, NULL);
	test_set_track(clip, test_add_channel(clip, "Hip", 1, NULL, 1, 1), ANIMC_TRANSLATION, true, still, 1, NULL);
	test_set_track(clip, test_add_channel(clip, "Root", 2, NULL, 1, 1), ANIMC_TRANSLATION, false, moving, 2, NULL);
	clip->declared_channel_count = clip->channel_count;
	uint8_t *bytes = compile(clip, true, NULL, &size, NULL);

	/* The bones in the file's order. */
	uint32_t spine = 3, hip = 3, root = 3;
	for (int decoded = 0; decoded < 2; decoded++) {
		animrt_clip *rt = open_bytes_with(bytes, size, decoded);
		void *m = malloc(animrt_pose_size_bytes(3));
		animrt_pose pose;

		for (uint32_t b = 0; b < 3; b++) {
			const char *name = animrt_clip_bone_name(rt, b, NULL);

			*(strcmp(name, "Spine") == 0 ? &spine : strcmp(name, "Hip") == 0 ? &hip : &root) = b;
		}
		assert_true(spine < 3 && hip < 3 && root < 3);
		animrt_pose_init(&pose, m, 3);
		assert_int_equal(animrt_clip_sample(rt, 0.5f, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
		assert_memory_equal(pose.translation + 3 * spine, along_y, sizeof along_y);
		assert_memory_equal(pose.translation + 3 * hip, still, sizeof still);
		free(m);
		animrt_close(rt);
	}

	/* Find the descriptors and the constants. */
	size_t payload = XNB_HEADER_SIZE + 1 + 1 + strlen(COMPACT_READER_NAME_DEFAULT) + 4 + 1 + 1;
	section_at s;
	compact_walker w;
	memset(&s, 0, sizeof s);
	memset(&w, 0, sizeof w);
	s.payload = payload;
	w.mode = COMPACT_READ;
	w.in = bytes + payload;
	w.size = size - payload;
	assert_int_equal(compact3_walk(&w, record_visit, &s), COMPACT_OK);
	/* The visitor sees each field once read: the first descriptor ends
	 * at s.at[COMPACT_DESCRIPTORS], the first group format byte at
	 * s.at[COMPACT_GROUP_FORMATS]. */
	size_t desc = s.at[COMPACT_DESCRIPTORS] - 2, d_spine = desc + 2 * spine, d_hip = desc + 2 * hip;
	size_t d_root = desc + 2 * root;
	uint16_t spine_desc = (uint16_t)(bytes[d_spine] | bytes[d_spine + 1] << 8);
	assert_int_equal(spine_desc & COMPACT_DESC_ZEROS, COMPACT_DESC_ZERO(0) | COMPACT_DESC_ZERO(2));
	assert_int_equal(bytes[d_hip + 1] & 0x70, 0);
	/* Spine's one f16 and Hip's three, then the group formats. */
	assert_int_equal(s.at[COMPACT_GROUP_FORMATS] - 1 - (desc + 2 * 3), 2 + 6);
	/* The bits on Root's animated translation; on all three of Spine's. */
	expect_damage(bytes, size, d_root + 1, bytes[d_root + 1] | 0x10, ANIMRT_ERR_VALUE, (int64_t)d_root);
	expect_damage(bytes, size, d_spine + 1, bytes[d_spine + 1] | 0x70, ANIMRT_ERR_VALUE, (int64_t)d_spine);
	animc_clip_destroy(clip);
	free(bytes);
}

/* Each component takes the bits its extent needs beside the largest one:
 * one fewer per halving, at least 1; raw keys 32 each. */
static void components_take_the_bits_their_extents_need(void **state)
{
	static const struct {
		unsigned bits;
		float extent[3];
		unsigned expect[3];
	} cases[] = {
		{ 10, { 1.0f, 0.5f, 0.1f }, { 10, 9, 7 } },
		{ 10, { 0.5f, 1.0f, 0.50001f }, { 9, 10, 10 } },  /* 0.50001 doubles past 1 */
		{ 9, { 0.0f, 2.0f, 2.0f }, { 1, 9, 9 } },          /* a still component: 1 bit */
		{ 4, { 1e-30f, 1.0f, 0.75f }, { 1, 4, 4 } },        /* at least 1 */
		{ 12, { 0x1p-140f, 0x1p-138f, 0x1p-137f }, { 12, 12, 12 } }, /* subnormal: exponent fields alike */
		{ 7, { 0.0f, 0.0f, 0.0f }, { 7, 7, 7 } },          /* all still: alike */
		{ COMPACT_RAW_BITS, { 1.0f, 0.5f, 0.1f }, { 32, 32, 32 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned out[3];
		unsigned total = compact_component_bits(cases[i].bits, cases[i].extent, out);

		for (int c = 0; c < 3; c++)
			if (out[c] != cases[i].expect[c])
				fail_msg("case %zu component %d: %u bits, expected %u", i, c, out[c], cases[i].expect[c]);
		assert_int_equal(total, cases[i].expect[0] + cases[i].expect[1] + cases[i].expect[2]);
	}
}

/* A rotation key whose three codes pass unit length: written as (128,
 * 128, 128), its bytes then set to (255, 255, 255); the loader refuses
 * the value. */
typedef struct bad_rotation {
	int unused;
} bad_rotation;

static bool bad_rotation_visit(void *user, compact_walker *w, compact_value *v)
{
	(void)user;
	(void)w;
	switch (v->section) {
	case COMPACT_SEQUENCE_COUNT:
		v->u = 1;
		break;
	case COMPACT_DURATION:
		v->f[0] = 1;
		break;
	case COMPACT_RATE:
		v->f[0] = 1;
		break;
	case COMPACT_SAMPLE_COUNT:
		v->u = 2;
		break;
	case COMPACT_NAMES:
		v->str = "Arm";
		v->str_size = 3;
		break;
	case COMPACT_DESCRIPTORS:
		v->u = COMPACT_ANIMATED << 2;   /* rotation animated, the rest absent */
		break;
	case COMPACT_GROUP_FORMATS:
		v->u = COMPACT3_RANGE_U8;
		break;
	case COMPACT_GROUP_RANGES:
		for (int c = 0; c < 3; c++)
			v->lane_codes[0][3 + c] = 255;   /* -1, extent 2 */
		break;
	case COMPACT_RECORDS: {
		static const uint32_t keys[6] = { 128, 128, 128, 128, 128, 128 };

		v->code[0] = 8;
		v->mask[0] = 3;
		v->lane_q[0] = keys;
		break;
	}
	default:
		break;
	}
	return true;
}

static void a_rotation_key_past_unit_length_is_refused(void **state)
{
	compact_walker w;
	bad_rotation br;
	uint8_t file[256];
	size_t name = strlen(COMPACT_READER_NAME_DEFAULT), at = 0;

	(void)state;
	memset(&w, 0, sizeof w);
	w.mode = COMPACT_WRITE;
	assert_int_equal(compact3_walk(&w, bad_rotation_visit, &br), COMPACT_OK);
	/* (255, 255, 255), the second key's 24 bits, decodes as (1, 1, 1). */
	memset(w.out + w.size - 3, 0xFF, 3);
	memcpy(file, XNB_MAGIC, 3);
	file[3] = 'w';
	file[4] = XNB_FORMAT_VERSION;
	file[5] = 0;
	at = XNB_HEADER_SIZE;
	file[at++] = 1;
	file[at++] = (uint8_t)name;
	memcpy(file + at, COMPACT_READER_NAME_DEFAULT, name);
	at += name;
	xnb_put_u32(file + at, COMPACT3_READER_VERSION);
	at += 4;
	file[at++] = 0;
	file[at++] = 1;
	size_t payload = at;
	memcpy(file + at, w.out, w.size);
	at += w.size;
	xnb_put_u32(file + XNB_SIZE_OFFSET, (uint32_t)at);
	free(w.out);

	animrt_clip *clip;
	animrt_error err;
	assert_int_equal(animrt_open(file, at, &clip, &err), ANIMRT_ERR_VALUE);
	assert_non_null(strstr(err.message, "unit quaternion"));
	assert_true(err.byte_offset > (int64_t)payload);
	/* With the second key back at 128s it loads. */
	file[at - 1] = 0;
	file[at - 2] = 0;
	(void)clip;
}

/* A compact clip of no sequences, decoded at load or in place, sampled
 * into a pose of no bones and no arrays (animrt_pose_init(&p, NULL, 0)),
 * with a context and without: the samplers copied 0 bytes to a NULL pose
 * array, undefined behaviour the sanitizer build stops at. */
static void an_empty_compact_clip_samples_into_a_pose_of_no_arrays(void **state)
{
	animc_clip *empty = animc_clip_create("empty");
	size_t size;
	uint8_t *bytes;
	animrt_pose pose;
	_Alignas(16) uint8_t memory[1024];
	animrt_context *ctx;

	(void)state;
	assert_true(animrt_context_size_bytes(0) <= sizeof memory);
	assert_non_null(empty);
	empty->duration_s = 1;
	bytes = compile(empty, true, NULL, &size, NULL);
	animrt_pose_init(&pose, NULL, 0);
	for (int decoded = 0; decoded < 2; decoded++) {
		animrt_clip *clip = open_bytes_with(bytes, size, decoded);

		assert_int_equal(clip->sequence_count, 0);
		assert_int_equal(animrt_clip_sample(clip, 0.5f, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
		ctx = animrt_context_init(memory, 0);
		assert_non_null(ctx);
		assert_int_equal(animrt_clip_sample_with(clip, 0.5f, ANIMRT_PLAY_ONCE, ctx, &pose), ANIMRT_OK);
		animrt_close(clip);
	}
	free(bytes);
	animc_clip_destroy(empty);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(bounds_hold_through_the_runtime),
	cmocka_unit_test(keys_read_back_as_encoded),
	cmocka_unit_test(a_grid_too_coarse_gets_a_finer_one),
	cmocka_unit_test(a_segment_leaves_out_the_component_cheapest_for_it),
	cmocka_unit_test(every_damaged_byte_is_refused_or_whole),
	cmocka_unit_test(damage_is_named_with_its_offset),
	cmocka_unit_test(a_rotation_key_past_unit_length_is_refused),
	cmocka_unit_test(a_constant_translation_stores_its_nonzero_components),
	cmocka_unit_test(components_take_the_bits_their_extents_need),
	cmocka_unit_test(an_empty_compact_clip_samples_into_a_pose_of_no_arrays),
};

ANIMC_TEST_GROUP(tests);
