/*
 * clip_test.c - the arena, the clip and the clip set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>

static void arena_alignment_zeroing_and_big_blocks(void **state)
{
	animc_arena arena = { 0 };

	(void)state;
	for (int i = 1; i < 200; i++) {
		unsigned char *p = animc_arena_alloc(&arena, (size_t)i, 3);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 16, 0);
		for (int j = 0; j < i * 3; j++)
			assert_int_equal(p[j], 0);
		memset(p, 0xAB, (size_t)i * 3);
	}
	/* A block larger than the standard size, then small ones still work. */
	unsigned char *big = animc_arena_alloc(&arena, 1, 1 << 20);
	assert_non_null(big);
	big[(1 << 20) - 1] = 1;
	assert_non_null(animc_arena_alloc(&arena, 4, 4));
	assert_true(arena.total_bytes >= (1u << 20));
	animc_arena_release(&arena);
	assert_null(arena.head);
	animc_arena_release(&arena);   /* twice is fine */
	animc_arena_release(NULL);
}

static void arena_refuses_overflowing_sizes(void **state)
{
	animc_arena arena = { 0 };

	(void)state;
	assert_null(animc_arena_alloc(&arena, SIZE_MAX / 2, 4));
	assert_null(animc_arena_alloc(&arena, 1, SIZE_MAX - 3));
	assert_null(animc_arena_strndup(&arena, "x", SIZE_MAX));
	animc_arena_release(&arena);
}

static void clip_channels_grow_and_keep_names(void **state)
{
	animc_clip *clip = animc_clip_create("run");

	(void)state;
	assert_non_null(clip);
	assert_string_equal(clip->name, "run");
	assert_int_equal(clip->declared_channel_count, -1);
	for (int i = 0; i < 100; i++) {
		char name[16];

		snprintf(name, sizeof name, "bone%d", i);
		assert_int_equal(animc_clip_add_channel(clip, name, strlen(name)), i);
	}
	assert_int_equal(clip->channel_count, 100);
	assert_string_equal(clip->channels[0].bone, "bone0");
	assert_string_equal(clip->channels[99].bone, "bone99");
	assert_int_equal(clip->channels[42].key_count, 0);
	assert_false(clip->channels[42].tracks[ANIMC_ROTATION].is_present);
	/* Names are copied with their length, not up to a NUL beyond it. */
	assert_int_equal(animc_clip_add_channel(clip, "Spine1", 5), 100);
	assert_string_equal(clip->channels[100].bone, "Spine");
	float *v = animc_clip_alloc_values(clip, ANIMC_ROTATION, 3);
	assert_non_null(v);
	v[11] = 1.0f;
	assert_null(animc_clip_alloc_values(clip, ANIMC_ROTATION, SIZE_MAX / 2));
	animc_clip_destroy(clip);
	animc_clip_destroy(NULL);

	clip = animc_clip_create(NULL);
	assert_string_equal(clip->name, "");
	animc_clip_destroy(clip);
}

static void clip_set_add_remove_release(void **state)
{
	animc_clip_set set = { 0 };

	(void)state;
	for (int i = 0; i < 10; i++) {
		char name[8];

		snprintf(name, sizeof name, "c%d", i);
		assert_int_equal(animc_clip_set_add(&set, animc_clip_create(name)), ANIMC_OK);
	}
	assert_int_equal(set.count, 10);
	animc_clip_set_remove(&set, 3);
	assert_int_equal(set.count, 9);
	assert_string_equal(set.clips[3]->name, "c4");
	assert_string_equal(set.clips[8]->name, "c9");
	animc_clip_set_remove(&set, 99);
	assert_int_equal(set.count, 9);
	assert_int_equal(animc_clip_set_add(&set, NULL), ANIMC_ERR_ARGUMENT);
	animc_clip_set_release(&set);
	assert_int_equal(set.count, 0);
	animc_clip_set_release(&set);
	animc_clip_set_release(NULL);
}

/* Clips sharing a name get suffixes in source order, skipping names in use. */
static void clip_set_names_made_unique(void **state)
{
	static const char *const names[] = { "arms_up", "walk", "arms_up", "arms_up.1", "arms_up", "", "" };
	static const char *const want[] = { "arms_up", "walk", "arms_up.2", "arms_up.1", "arms_up.3", "", "" };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "man.mdl");
	animc_clip_set set = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_int_equal(animc_clip_set_add(&set, animc_clip_create(names[i])), ANIMC_OK);
	assert_int_equal(animc_clip_set_name_unique(&set, &sink), ANIMC_OK);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_string_equal(set.clips[i]->name, want[i]);
	/* One warning for the shared name, listing what each became. */
	assert_int_equal(sink.warning_count, 1);
	assert_non_null(strstr(diags.items[0].message, "3 clips are named 'arms_up'"));
	assert_non_null(strstr(diags.items[0].message, "'arms_up.2' and 'arms_up.3'"));
	/* Distinct names: nothing happens. */
	assert_int_equal(animc_clip_set_name_unique(&set, &sink), ANIMC_OK);
	assert_int_equal(sink.warning_count, 1);
	test_diags_release(&diags);
	animc_clip_set_release(&set);
}

/* The prefix of messages, cut to the buffer as snprintf cuts; a buffer of
 * no bytes is not written (its first byte was, past its end). */
static void clip_where_fits_its_buffer(void **state)
{
	animc_clip *clip = animc_clip_create("run");
	char buf[64], small[8], none[2] = { 'x', 'y' };

	(void)state;
	int64_t ch = test_add_channel(clip, "L Calf", 1, NULL, 1, 1);
	animc_clip_where(clip, &clip->channels[ch], buf, sizeof buf);
	assert_string_equal(buf, "clip 'run': bone 'L Calf': ");
	animc_clip_where(clip, NULL, buf, sizeof buf);
	assert_string_equal(buf, "clip 'run': ");
	animc_clip_where(clip, &clip->channels[ch], small, sizeof small);
	assert_string_equal(small, "clip 'r");
	animc_clip_where(clip, &clip->channels[ch], none + 1, 0);
	assert_true(none[0] == 'x' && none[1] == 'y');
	animc_clip_where(clip, NULL, NULL, 0);
	animc_clip_destroy(clip);
}

/* A report about no clip (NULL) is the message alone, at no line: it read
 * the line of the NULL clip and crashed. */
static void clip_report_about_no_clip(void **state)
{
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "man.mdl");

	(void)state;
	animc_clip_report(&sink, ANIMC_ERROR, NULL, NULL, "no clip %d", 1);
	animc_clip_report_kind(&sink, ANIMC_WARNING, ANIMC_WARN_CLIP_NAME_CLASH, NULL, NULL, "no clip %d", 2);
	assert_int_equal(diags.count, 2);
	assert_string_equal(diags.items[0].message, "no clip 1");
	assert_int_equal(diags.items[0].line, 0);
	assert_string_equal(diags.items[1].message, "no clip 2");
	test_diags_release(&diags);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(arena_alignment_zeroing_and_big_blocks),
	cmocka_unit_test(arena_refuses_overflowing_sizes),
	cmocka_unit_test(clip_channels_grow_and_keep_names),
	cmocka_unit_test(clip_set_add_remove_release),
	cmocka_unit_test(clip_set_names_made_unique),
	cmocka_unit_test(clip_where_fits_its_buffer),
	cmocka_unit_test(clip_report_about_no_clip),
};

ANIMC_TEST_GROUP(tests);
