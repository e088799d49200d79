/*
 * skeleton_test.c - looking bones up in a model's skeleton and checking that
 * every bone a clip animates is there (skeleton.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>

static void skeleton_find_and_check(void **state)
{
	static const char *const names[] = { "Root", " Spine", "Head" };
	animc_skeleton skel = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_clip *clip = animc_clip_create("run");

	(void)state;
	skel.bones = calloc(3, sizeof *skel.bones);
	skel.bone_count = 3;
	for (int i = 0; i < 3; i++) {
		skel.bones[i].name = animc_arena_strndup(&skel.arena, names[i], strlen(names[i]));
		skel.bones[i].parent = i - 1;
	}
	assert_int_equal(animc_skeleton_find(&skel, "Head"), 2);
	assert_int_equal(animc_skeleton_find(&skel, "Spine"), 1);   /* the model says " Spine" */
	assert_int_equal(animc_skeleton_find(&skel, "Spine "), 1);
	assert_int_equal(animc_skeleton_find(&skel, "Tail"), -1);
	animc_clip_add_channel(clip, "Spine", 5);
	assert_int_equal(animc_skeleton_check(&skel, clip, &sink), ANIMC_OK);
	animc_clip_add_channel(clip, "Tail", 4);
	animc_clip_add_channel(clip, "Wing", 4);
	assert_int_equal(animc_skeleton_check(&skel, clip, &sink), ANIMC_ERR_NOT_FOUND);
	/* One error for the clip, at its first missing bone's line, naming them. */
	assert_int_equal(sink.error_count, 1);
	assert_non_null(strstr(diags.items[0].message, "clip 'run': 2 of its 3 bones are not in the skeleton "
						       "(--skeleton, 3 bones): 'Tail', 'Wing'"));
	assert_null(strstr(diags.items[0].message, "none of its bones"));
	animc_clip_destroy(clip);
	clip = animc_clip_create("fly");
	static const char *const wings[] = { "Wing1", "Wing2", "Wing3", "Wing4", "Wing5", "Wing6", "Wing7" };
	for (int i = 0; i < 7; i++) {
		int64_t c = animc_clip_add_channel(clip, wings[i], 5);

		assert_true(c == i);
		clip->channels[c].line = (uint32_t)(10 + i);
	}
	assert_int_equal(animc_skeleton_check(&skel, clip, &sink), ANIMC_ERR_NOT_FOUND);
	assert_int_equal(sink.error_count, 2);
	assert_non_null(strstr(diags.items[1].message, "clip 'fly': 7 of its 7 bones are not in the skeleton "
						       "(--skeleton, 3 bones): 'Wing1', 'Wing2', 'Wing3', 'Wing4', "
						       "'Wing5' and 2 more; none of its bones is: is that model this clip's?"));
	assert_int_equal(diags.items[1].line, 10);
	animc_clip_destroy(clip);
	/* One bone, not in the model: the model is not this clip's either. */
	clip = animc_clip_create("tail");
	assert_true(animc_clip_add_channel(clip, "Tail", 4) == 0);
	assert_int_equal(animc_skeleton_check(&skel, clip, &sink), ANIMC_ERR_NOT_FOUND);
	assert_string_equal(diags.items[2].message, "clip 'tail': bone 'Tail' is not in the skeleton (--skeleton, 3 "
						    "bones); none of its bones is: is that model this clip's?");
	animc_clip_destroy(clip);
	animc_skeleton_release(&skel);
	animc_skeleton_release(&skel);
	animc_skeleton_release(NULL);
	test_diags_release(&diags);
}

/* A clip's bone that names two bones of the model binds to the first, with
 * a bone-name-clash warning naming both; a bone of one name says nothing. */
static void a_repeated_model_bone_is_said(void **state)
{
	static const char *const names[] = { "root", "hand", "hand" };
	animc_skeleton skel = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	animc_clip *clip = animc_clip_create("wave");

	(void)state;
	skel.bones = calloc(3, sizeof *skel.bones);
	skel.bone_count = 3;
	for (int i = 0; i < 3; i++) {
		skel.bones[i].name = animc_arena_strndup(&skel.arena, names[i], strlen(names[i]));
		skel.bones[i].parent = i ? 0 : -1;
	}
	assert_true(animc_clip_add_channel(clip, "root", 4) == 0);
	assert_int_equal(animc_skeleton_check(&skel, clip, &sink), ANIMC_OK);
	assert_int_equal(diags.count, 0);
	assert_true(animc_clip_add_channel(clip, "hand", 4) == 1);
	assert_int_equal(animc_skeleton_check(&skel, clip, &sink), ANIMC_OK);
	assert_int_equal(animc_skeleton_find(&skel, "hand"), 1);
	assert_int_equal(diags.count, 1);
	assert_int_equal(diags.items[0].severity, ANIMC_WARNING);
	assert_string_equal(diags.items[0].kind, "bone-name-clash");
	assert_non_null(strstr(diags.items[0].message, "2 bones named 'hand' (bones 1, 2)"));
	animc_clip_destroy(clip);
	animc_skeleton_release(&skel);
	test_diags_release(&diags);
}

/* An indexed skeleton (animc_skeleton_load indexes every model) finds and
 * says what a walk through its bones does: the first of repeated names,
 * names inside whitespace, names that are prefixes of others, none. */
static void an_indexed_skeleton_finds_what_a_walk_finds(void **state)
{
	static const char *const names[] = { "hand", "Root", " Spine", "hand", "Spine2", "Arm ", "hand", "Ar",
					     "arm", "Spine" };
	static const char *const asked[] = { "hand", "Root", "Spine", " Spine", "Spine ", "Spine2", "Arm", "Ar",
					     "A", "arm", "Hand", "", " ", "Tail", "Spine3" };
	enum { BONES = sizeof names / sizeof *names };
	animc_skeleton skel = { 0 };
	(void)state;
	skel.bones = calloc(BONES, sizeof *skel.bones);
	skel.bone_count = BONES;
	for (int i = 0; i < BONES; i++) {
		skel.bones[i].name = animc_arena_strndup(&skel.arena, names[i], strlen(names[i]));
		skel.bones[i].parent = i - 1;
	}
	int64_t walked[sizeof asked / sizeof *asked];
	for (size_t i = 0; i < sizeof asked / sizeof *asked; i++)
		walked[i] = animc_skeleton_find(&skel, asked[i]);
	assert_int_equal(walked[0], 0);
	assert_int_equal(walked[2], 9);    /* exactly "Spine" before the trimmed " Spine" */
	assert_int_equal(walked[6], 5);
	assert_int_equal(walked[12], -1);
	/* The warning of a repeated bone, walked and indexed. */
	char said[2][512];
	for (int indexed = 0; indexed < 2; indexed++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t");
		animc_clip *clip = animc_clip_create("wave");

		if (indexed) {
			assert_int_equal(animc_skeleton_index(&skel), ANIMC_OK);
			assert_non_null(skel.names);
			for (size_t i = 0; i < sizeof asked / sizeof *asked; i++)
				if (animc_skeleton_find(&skel, asked[i]) != walked[i])
					fail_msg("'%s': %lld indexed, %lld walked", asked[i],
						 (long long)animc_skeleton_find(&skel, asked[i]), (long long)walked[i]);
		}
		assert_true(animc_clip_add_channel(clip, "hand", 4) == 0);
		assert_int_equal(animc_skeleton_check(&skel, clip, &sink), ANIMC_OK);
		assert_int_equal(diags.count, 1);
		snprintf(said[indexed], sizeof said[indexed], "%s", diags.items[0].message);
		animc_clip_destroy(clip);
		test_diags_release(&diags);
	}
	assert_non_null(strstr(said[0], "3 bones named 'hand' (bones 0, 3, 6)"));
	assert_string_equal(said[1], said[0]);
	animc_skeleton_release(&skel);
	assert_null(skel.names);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(skeleton_find_and_check),
	cmocka_unit_test(a_repeated_model_bone_is_said),
	cmocka_unit_test(an_indexed_skeleton_finds_what_a_walk_finds),
};

ANIMC_TEST_GROUP(tests);
