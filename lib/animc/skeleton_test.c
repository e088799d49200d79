/*
 * skeleton_test.c - looking bones up in a model's skeleton and checking that
 * every bone a clip animates is there (skeleton.c).
 */
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
	assert_int_equal(sink.error_count, 2);
	assert_non_null(strstr(diags.items[0].message, "'Tail'"));
	assert_non_null(strstr(diags.items[0].message, "clip 'run'"));
	animc_clip_destroy(clip);
	animc_skeleton_release(&skel);
	animc_skeleton_release(&skel);
	animc_skeleton_release(NULL);
	test_diags_release(&diags);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(skeleton_find_and_check),
};

ANIMC_TEST_GROUP(tests);
