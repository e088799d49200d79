/*
 * compact_test.c - the compact encoder's search for keys: on a grid many
 * samples finer than the keys (a part cut between keys) it measures each
 * sample a few times, and the bounds hold through the runtime.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clip_internal.h"
#include "compact.h"
#include "compact_fixtures.h"
#include "compact_layout.h"
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


/* Every key of a compact payload as it decodes: per bone, track and grid
 * sample its stored components and the component a rotation leaves out
 * (sample_count samples; `has` marks the keys). */
typedef struct decoded_keys {
	uint32_t bones, samples;
	float *value;                 /* bones x 3 x samples x 3 */
	uint8_t *dropped, *has;       /* bones x 3 x samples */
	float range[64][6];           /* version 2: each animated track's range */
	uint8_t code[64][16][7];      /* version 2: each segmented track's segment codes */
	uint32_t ordinal[64];
	uint32_t segmented;
} decoded_keys;

static size_t key_slot(const decoded_keys *k, uint32_t bone, uint32_t track, uint32_t sample)
{
	return ((size_t)bone * 3 + track) * k->samples + sample;
}

static void decoded_put(decoded_keys *k, uint32_t bone, uint32_t track, uint32_t sample, const float x[3],
			unsigned dropped)
{
	size_t i = key_slot(k, bone, track, sample);

	if (!k->value) {
		k->value = calloc((size_t)k->bones * 3 * k->samples * 3, sizeof(float));
		k->dropped = calloc((size_t)k->bones * 3 * k->samples, 1);
		k->has = calloc((size_t)k->bones * 3 * k->samples, 1);
	}
	assert_int_equal(k->has[i], 0);
	memcpy(k->value + 3 * i, x, 3 * sizeof(float));
	k->dropped[i] = (uint8_t)dropped;
	k->has[i] = 1;
}

static bool v2_keys_visit(void *user, compact_walker *w, compact_value *v)
{
	decoded_keys *k = user;
	float min[3], ext[3], x[3];

	k->bones = w->bone_count;
	k->samples = w->sample_count;
	if (v->section == COMPACT_RANGES)
		memcpy(k->range[v->animated], v->f, sizeof k->range[0]);
	if (v->section == COMPACT_FORMATS) {
		k->ordinal[v->animated] = k->segmented;
		k->segmented += COMPACT_FORMAT_BITS(v->u) == COMPACT_SEGMENTED;
	}
	if (v->section == COMPACT_SEGMENTS)
		memcpy(k->code[k->ordinal[v->animated]][v->segment], compact_bytes(w) + w->pos - 7, 7);
	if (v->section != COMPACT_KEYS)
		return true;
	unsigned dropped = COMPACT_DESC_DROPPED(compact_descriptor(w, v->bone));
	for (int c = 0; c < 3; c++) {
		min[c] = k->range[v->animated][c];
		ext[c] = k->range[v->animated][3 + c];
	}
	if (COMPACT_FORMAT_BITS(v->format) == COMPACT_SEGMENTED) {
		const uint8_t *code = k->code[k->ordinal[v->animated]][v->segment];

		dropped = code[0] >> 5;
		for (int c = 0; c < 3; c++)
			compact_subrange(min[c], ext[c], code[1 + c], code[4 + c], &min[c], &ext[c]);
	}
	for (int c = 0; c < 3; c++)
		x[c] = v->bits == COMPACT_RAW_BITS ? v->f[c]
						   : compact_dequantize(min[c], compact_step(ext[c], v->cbits[c]), v->q[c]);
	decoded_put(k, v->bone, v->track, v->sample, x, v->track == 1 ? dropped : 0);
	return true;
}

static uint32_t bits_at(const uint8_t *p, uint64_t bit, unsigned n)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < n; i++, bit++)
		r |= (uint32_t)(p[bit >> 3] >> (bit & 7) & 1u) << i;
	return r;
}

static bool v3_keys_visit(void *user, compact_walker *w, compact_value *v)
{
	decoded_keys *k = user;

	k->bones = w->bone_count;
	k->samples = w->sample_count;
	if (v->section != COMPACT_RECORDS)
		return true;
	const uint8_t *rec = compact_bytes(w) + v->record_at, *range = compact_bytes(w) + w->group_range_at[v->index];
	compact3_shape sh = compact3_shape_of(compact3_rows(w->sample_count, v->segment), v->used, v->format);
	uint64_t bit = 0;
	for (uint32_t l = 0; l < v->used; l++) {
		unsigned cb[3], kb;
		float min[3], step[3], x[3];
		uint32_t bone = compact3_bone_of(w, v->track, v->animated + l);

		kb = compact3_lane_decode(range, v->format, v->used, l, rec, &sh, cb, min, step);
		for (uint32_t i = 0; i < sh.rows; i++) {
			if (!(v->mask[l] >> i & 1u))
				continue;
			for (int c = 0, at = 0; c < 3; at += (int)cb[c], c++) {
				uint32_t q = bits_at(rec + sh.keys_at, bit + (unsigned)at, cb[c]);

				if (cb[c] == 32)
					memcpy(&x[c], &q, 4);
				else
					x[c] = compact_dequantize(min[c], step[c], q);
			}
			bit += kb;
			decoded_put(k, bone, v->track, 64 * v->segment + i, x, COMPACT3_CODE_DROPPED(rec[l]));
		}
	}
	return true;
}

static void decode_payload(const uint8_t *p, size_t size, bool is_v3, decoded_keys *k)
{
	compact_walker w;

	memset(&w, 0, sizeof w);
	w.mode = COMPACT_READ;
	w.in = p;
	w.size = size;
	compact_result r = is_v3 ? compact3_walk(&w, v3_keys_visit, k) : compact_walk(&w, v2_keys_visit, k);
	if (r != COMPACT_OK)
		fail_msg("%s", w.message);
}

/* Reader version 3 regroups version 2's clip: every key of every track,
 * at a default and a tight tolerance (per-segment bits and ranges, wide
 * codes), decodes to the same bits, the component a rotation leaves out
 * included; a payload no longer than version 2's but for its records'
 * heads. */
static void version_3_holds_version_2s_keys_bit_for_bit(void **state)
{
	static const animc_tolerance tight = { 1e-4f, 0.01f, 1e-5f };

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		animc_clip *clip = varied_clip();
		animc_process_options o = { 0 };
		uint8_t *p2 = NULL, *p3 = NULL;
		size_t n2 = 0, n3 = 0;
		decoded_keys k2, k3;

		o.layout = ANIMC_LAYOUT_COMPACT;
		if (pass)
			o.reduce.tolerance = tight;
		assert_int_equal(animc_clip_process(clip, &o, NULL, NULL), ANIMC_OK);
		assert_non_null(clip->compact);
		assert_int_equal(animc_compact_write(clip, &p2, &n2, NULL), ANIMC_OK);
		assert_int_equal(animc_compact_write_v3(clip, &p3, &n3, NULL), ANIMC_OK);
		memset(&k2, 0, sizeof k2);
		memset(&k3, 0, sizeof k3);
		decode_payload(p2, n2, false, &k2);
		decode_payload(p3, n3, true, &k3);
		print_message("version 2: %zu bytes, version 3: %zu bytes, %u segmented tracks\n", n2, n3,
			      k2.segmented);
		if (pass)
			assert_true(k2.segmented > 0);
		size_t n = (size_t)k2.bones * 3 * k2.samples;
		assert_int_equal(k3.bones, k2.bones);
		assert_int_equal(k3.samples, k2.samples);
		assert_memory_equal(k3.has, k2.has, n);
		assert_memory_equal(k3.dropped, k2.dropped, n);
		assert_memory_equal(k3.value, k2.value, n * 3 * sizeof(float));
		assert_true(n3 < n2 + n2 / 10);
		free(k2.value), free(k2.dropped), free(k2.has);
		free(k3.value), free(k3.dropped), free(k3.has);
		free(p2);
		free(p3);
		animc_clip_destroy(clip);
	}
}

/* Where a version 3 payload's records lie: each record's offset, group
 * format, kind, lanes and rows, segment after segment. */
typedef struct record_list {
	size_t formats_at, count;
	struct {
		size_t at, size;
		uint32_t segment, group, used, kind, rows;
		uint8_t format;
		uint64_t mask0;
	} r[512];
} record_list;

static bool list_visit(void *user, compact_walker *w, compact_value *v)
{
	record_list *l = user;

	l->formats_at = w->group_formats_at;
	if (v->section != COMPACT_RECORDS || l->count == 512)
		return true;
	l->r[l->count].at = v->record_at;
	l->r[l->count].size = v->record_size;
	l->r[l->count].segment = v->segment;
	l->r[l->count].group = v->index;
	l->r[l->count].used = v->used;
	l->r[l->count].kind = v->track;
	l->r[l->count].rows = compact3_rows(w->sample_count, v->segment);
	l->r[l->count].format = v->format;
	l->r[l->count].mask0 = v->mask[0];
	l->count++;
	return true;
}

/* The walk of `p` with byte `at` set to `value` (or the payload cut to
 * `size`): its result, offset and message. */
static compact_result walk_damaged(const uint8_t *p, size_t size, size_t at, uint8_t value, compact_walker *w)
{
	uint8_t *d = malloc(size + 1);
	compact_result r;

	memcpy(d, p, size);
	if (at < size)
		d[at] = value;
	memset(w, 0, sizeof *w);
	w->mode = COMPACT_READ;
	w->in = d;
	w->size = size;
	r = compact3_walk(w, list_visit, &(record_list){ 0 });
	free(d);
	return r;
}

static void expect_refused(const uint8_t *p, size_t size, size_t at, uint8_t value, compact_result result,
			   size_t offset, const char *words)
{
	compact_walker w;
	compact_result r = walk_damaged(p, size, at, value, &w);

	if (r != result || (size_t)w.error_offset != offset || !strstr(w.message, words))
		fail_msg("byte %zu set to 0x%02x: result %d at %lld (%s), expected %d at %zu naming '%s'", at, value,
			 (int)r, (long long)w.error_offset, w.message, (int)result, offset, words);
}

/* A version 3 payload refuses, at the byte, every record field out of
 * its range: group formats, code bytes, masks, sub-ranges, rotation keys,
 * padding, and records that do not end where the payload does. */
static void version_3_records_are_checked_byte_by_byte(void **state)
{
	animc_clip *clip = varied_clip();
	animc_process_options o = { 0 };
	uint8_t *p = NULL;
	size_t n = 0;
	record_list *l = calloc(1, sizeof *l);
	compact_walker w;

	(void)state;
	o.layout = ANIMC_LAYOUT_COMPACT;
	assert_int_equal(animc_clip_process(clip, &o, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_compact_write_v3(clip, &p, &n, NULL), ANIMC_OK);
	memset(&w, 0, sizeof w);
	w.mode = COMPACT_READ;
	w.in = p;
	w.size = n;
	assert_int_equal(compact3_walk(&w, list_visit, l), COMPACT_OK);
	assert_true(l->count > 6);
	/* Group 0 holds rotations: reserved bits, kind 3. */
	expect_refused(p, n, l->formats_at, (uint8_t)(p[l->formats_at] | 0x08), COMPACT_ERR_VALUE, l->formats_at,
		       "group format");
	expect_refused(p, n, l->formats_at, 3, COMPACT_ERR_VALUE, l->formats_at, "group format 0x03");
	size_t rot = SIZE_MAX, part = SIZE_MAX, last = l->count - 1;
	for (size_t i = 0; i < l->count; i++) {
		if (l->r[i].kind == 1 && rot == SIZE_MAX)
			rot = i;
		if (l->r[i].used < 4 && part == SIZE_MAX)
			part = i;
	}
	assert_true(rot != SIZE_MAX && part != SIZE_MAX && l->r[last].rows < 64);
	size_t at = l->r[rot].at;
	/* Code bytes: 0 bits, 20 bits, bit 7; an unused lane's not 0. */
	expect_refused(p, n, at, (uint8_t)(p[at] & 0xE0), COMPACT_ERR_VALUE, at, "code byte");
	expect_refused(p, n, at, (uint8_t)((p[at] & 0x60) | 20), COMPACT_ERR_VALUE, at, "code byte");
	expect_refused(p, n, at, (uint8_t)(p[at] | 0x80), COMPACT_ERR_VALUE, at, "code byte");
	expect_refused(p, n, l->r[part].at + 3, 5, COMPACT_ERR_VALUE, l->r[part].at + 3, "unused lane 3");
	/* A mask without its first row; the last segment's without its last
	 * row, or with a bit past it. */
	expect_refused(p, n, at + 4, (uint8_t)(p[at + 4] & 0xFE), COMPACT_ERR_VALUE, at + 4, "misses its first");
	size_t end = l->r[last].at + 4 + (l->r[last].rows - 1) / 8;
	uint8_t bit = (uint8_t)(1u << ((l->r[last].rows - 1) % 8));
	expect_refused(p, n, end, (uint8_t)(p[end] & ~bit), COMPACT_ERR_VALUE, l->r[last].at + 4, "last row");
	if (l->r[last].rows % 8)
		expect_refused(p, n, end, (uint8_t)(p[end] | bit << 1), COMPACT_ERR_VALUE, l->r[last].at + 4,
			       "past its");
	/* A sub-range past its track's range. */
	bool has_sub = false;
	for (size_t i = 0; !has_sub && i < l->count; i++) {
		if (!(l->r[i].format & COMPACT3_FORMAT_SUB))
			continue;
		size_t sub = l->r[i].at + 4 + (size_t)((l->r[i].rows + 7) / 8) * l->r[i].used;
		if (!p[sub + 12])
			continue;
		expect_refused(p, n, sub, 0xFF, COMPACT_ERR_VALUE, sub, "sub-range");
		has_sub = true;
	}
	assert_true(has_sub);
	/* Cut short, or a byte after the records. */
	assert_int_equal(walk_damaged(p, n - 1, n, 0, &w), COMPACT_ERR_TRUNCATED);
	uint8_t *longer = calloc(n + 1, 1);
	memcpy(longer, p, n);
	assert_int_equal(walk_damaged(longer, n + 1, n + 1, 0, &w), COMPACT_ERR_TRAILING);
	free(longer);
	free(l);
	free(p);
	animc_clip_destroy(clip);
}

/* The clip's compact file with its payload in reader version 3 (the
 * container the XNB writer gives version 2's, its version and size set). */
static uint8_t *xnb_v3(animc_clip *clip, const uint8_t *v2, size_t v2_size, size_t *size)
{
	size_t at = XNB_HEADER_SIZE + 1 + 1 + strlen(COMPACT_READER_NAME_DEFAULT) + 4 + 1 + 1, n = 0;
	uint8_t *p3 = NULL, *out;

	assert_true(v2_size > at);
	assert_int_equal(animc_compact_write_v3(clip, &p3, &n, NULL), ANIMC_OK);
	out = malloc(at + n);
	memcpy(out, v2, at);
	memcpy(out + at, p3, n);
	xnb_put_u32(out + at - 6, COMPACT3_READER_VERSION);
	xnb_put_u32(out + 6, (uint32_t)(at + n));
	*size = at + n;
	free(p3);
	return out;
}

static void expect_same_bits(const void *a, const void *b, size_t n, const char *what, float t)
{
	if (memcmp(a, b, n))
		fail_msg("%s differ at %.9g s", what, (double)t);
}

/* Version 3 in place gives version 2's poses bit for bit: whole poses at
 * grid samples, between them, past the end (both play modes), one bone
 * at a time, and every track's keys and times read back. */
static void version_3_samples_version_2s_poses_bit_for_bit(void **state)
{
	static const animc_tolerance tight = { 1e-4f, 0.01f, 1e-5f };

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		animc_clip *source = varied_clip();
		size_t n2, n3;
		uint8_t *x2 = compile(source, true, pass ? &tight : NULL, &n2, NULL);
		uint8_t *x3 = xnb_v3(source, x2, n2, &n3);
		animrt_clip *c2 = open_packed(x2, n2), *c3 = open_packed(x3, n3);
		uint32_t bones = c2->sequence_count;
		size_t bytes = animrt_pose_size_bytes(bones);
		void *m2 = malloc(bytes), *m3 = malloc(bytes);
		animrt_pose p2, p3;

		assert_int_equal(c3->sequence_count, bones);
		assert_int_equal(c3->compact->version, 3);
		assert_int_equal(c2->compact->version, 2);
		animrt_pose_init(&p2, m2, bones);
		animrt_pose_init(&p3, m3, bones);
		for (int i = 0; i < 800; i++) {
			float t = (float)i * (i % 3 ? 0.00731f : 1.0f / 60);
			animrt_play_mode mode = i % 2 ? ANIMRT_PLAY_ONCE : ANIMRT_PLAY_REPEAT;

			assert_int_equal(animrt_clip_sample(c2, t, mode, NULL, &p2), ANIMRT_OK);
			assert_int_equal(animrt_clip_sample(c3, t, mode, NULL, &p3), ANIMRT_OK);
			expect_same_bits(m2, m3, bytes, "poses", t);
			uint32_t b = (uint32_t)i % bones;
			float t2[3], r2[4], s2[3], t3[3], r3[4], s3[3];
			assert_int_equal(animrt_clip_sample_bone(c2, b, t, mode, NULL, t2, r2, s2), ANIMRT_OK);
			assert_int_equal(animrt_clip_sample_bone(c3, b, t, mode, NULL, t3, r3, s3), ANIMRT_OK);
			expect_same_bits(t2, t3, sizeof t2, "one bone's translations", t);
			expect_same_bits(r2, r3, sizeof r2, "one bone's rotations", t);
			expect_same_bits(s2, s3, sizeof s2, "one bone's scales", t);
		}
		for (uint32_t b = 0; b < bones; b++)
			for (unsigned k = 0; k < 3; k++) {
				uint32_t keys = animrt_track_keys(c2, b, k, 0, 0, NULL, NULL);
				float *tv = calloc(5 * (size_t)keys + 1, sizeof(float)), *tw = calloc(5 * (size_t)keys + 1, sizeof(float));

				assert_int_equal(animrt_track_keys(c3, b, k, 0, 0, NULL, NULL), keys);
				assert_int_equal(animrt_track_keys(c2, b, k, 1, keys, tv, tv + keys), keys);
				assert_int_equal(animrt_track_keys(c3, b, k, 1, keys, tw, tw + keys), keys);
				expect_same_bits(tv, tw, 5 * (size_t)keys * sizeof(float), "keys read back", (float)b);
				free(tv);
				free(tw);
			}
		free(m2);
		free(m3);
		animrt_close(c2);
		animrt_close(c3);
		free(x2);
		free(x3);
		animc_clip_destroy(source);
	}
}

/* The loader runs the same checks: a version 3 file with a bad group
 * format, code byte or mask is refused with the byte's offset in the
 * file, and a version 2 payload labelled version 3 is refused. */
static void version_3_files_are_refused_where_they_break(void **state)
{
	animc_clip *source = varied_clip();
	size_t n2, n3, at = XNB_HEADER_SIZE + 1 + 1 + strlen(COMPACT_READER_NAME_DEFAULT) + 4 + 1 + 1;
	uint8_t *x2 = compile(source, true, NULL, &n2, NULL);
	uint8_t *x3 = xnb_v3(source, x2, n2, &n3);
	record_list *l = calloc(1, sizeof *l);
	compact_walker w;
	animrt_clip *clip = NULL;
	animrt_error err;

	(void)state;
	memset(&w, 0, sizeof w);
	w.mode = COMPACT_READ;
	w.in = x3 + at;
	w.size = n3 - at;
	assert_int_equal(compact3_walk(&w, list_visit, l), COMPACT_OK);
	size_t bad[3] = { at + l->formats_at, at + l->r[0].at, at + l->r[0].at + 4 };
	uint8_t value[3] = { 0x0B, 0x00, 0x00 };
	for (int i = 0; i < 3; i++) {
		uint8_t keep = x3[bad[i]];

		x3[bad[i]] = value[i];
		assert_int_equal(animrt_open(x3, n3, &clip, &err), ANIMRT_ERR_VALUE);
		assert_int_equal(err.byte_offset, (int64_t)bad[i]);
		x3[bad[i]] = keep;
	}
	assert_int_equal(animrt_open(x3, n3, &clip, &err), ANIMRT_OK);
	animrt_close(clip);
	xnb_put_u32(x2 + at - 6, COMPACT3_READER_VERSION);
	assert_int_not_equal(animrt_open(x2, n2, &clip, &err), ANIMRT_OK);
	free(l);
	free(x2);
	free(x3);
	animc_clip_destroy(source);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(version_3_files_are_refused_where_they_break),
	cmocka_unit_test(version_3_samples_version_2s_poses_bit_for_bit),
	cmocka_unit_test(version_3_records_are_checked_byte_by_byte),
	cmocka_unit_test(version_3_holds_version_2s_keys_bit_for_bit),
	cmocka_unit_test(choices_that_cannot_win_are_passed_over),
	cmocka_unit_test(a_long_take_keeps_the_greedy_keys),
	cmocka_unit_test(a_grid_much_finer_than_the_keys_is_searched_in_few_measures),
	cmocka_unit_test(keys_searched_on_a_much_finer_grid_hold_the_bounds),
	cmocka_unit_test(writing_a_clip_never_encoded_is_refused),
};

ANIMC_TEST_GROUP(tests);
