/*
 * md5anim_test.c - Doom 3 .md5anim files through the Assimp importer: what
 * animc reads of the file itself before Assimp does (md5anim.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

/* Import `text` as an .md5anim file of its own, as `animc build` does. */
static void md5_import_text(assimp_import *r, const char *text)
{
	char *dir = test_tmpdir("md5anim"), *path = test_format("%s/walk.md5anim", dir);

	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(r, path, NULL);
	free(path), free(dir);
}

/* An .md5anim of `frames` (numFrames), joints "origin" (flags 63 from 0)
 * and "child" (`child`: its flags and startIndex), and 3 frames of `frame`
 * values each. */
static char *md5_frames_text(const char *frames, const char *components, const char *child, const char *frame)
{
	return test_format("MD5Version 10\ncommandline \"\"\n\nnumFrames %s\nnumJoints 2\nframeRate 30\n"
			   "numAnimatedComponents %s\n\nhierarchy {\n\t\"origin\"\t-1 63 0\n\t\"child\"\t0 %s\n}\n\n"
			   "bounds {\n\t( -1 -1 -1 ) ( 1 1 1 )\n\t( -1 -1 -1 ) ( 1 1 1 )\n\t( -1 -1 -1 ) ( 1 1 1 )\n}\n\n"
			   "baseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n\t( 1 5 0 ) ( 0 0 0 )\n}\n\n"
			   "frame 0 {\n\t%s\n}\n\nframe 1 {\n\t%s\n}\n\nframe 2 {\n\t%s\n}\n",
			   frames, components, child, frame, frame, frame);
}

static char *md5_text(const char *components, const char *child, const char *frame)
{
	return md5_frames_text("3", components, child, frame);
}

/*
 * A joint whose flags read components past numAnimatedComponents (child:
 * Ty|Qx from 7 of 8), or a frame of fewer values than the joints read:
 * Assimp checks a joint's first component only and read the rest from
 * past the frame's values (a rotation of 1e-22, exit 0).  Each fails at
 * its line, before Assimp reads the file.
 */
static void md5anim_faulty_frames_fail_at_their_line(void **state)
{
	static const struct {
		const char *components, *child, *frame, *words;
		uint32_t line;
	} cases[] = {
		{ "8", "10 7", "0 0 0 0 0 0 5 0.5", "reads components 7 to 8", 11 },
		{ "8", "10 6", "0 0 0 0 0 0 5", "holds 7 values, but numAnimatedComponents is 8", 25 },
		{ "8", "10 6", "0 0 0 0 0 0 5 0.5 1", "holds 9 values", 25 },
		/* Not a number: Assimp failed with "Cannot parse string" and
		 * no line. */
		{ "8", "10 6", "0 0 abc 0 0 0 5 0.5", "'abc' is not a number (frame 0, component 2)", 26 },
		{ "8", "10 6", "0 0 0 0 0 0 nan 0.5", "'nan' is not a number (frame 0, component 6)", 26 },
	};
	assimp_import r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = md5_text(cases[i].components, cases[i].child, cases[i].frame);

		md5_import_text(&r, text);
		assimp_assert_error_at(&r, cases[i].line, cases[i].words);
		assimp_import_release(&r);
		free(text);
	}
	/* In the base frame. */
	char *base = md5_text("8", "10 6", "0 0 0 0 0 0 5 0.5"), *at = strstr(base, "( 1 5 0 )");
	assert_non_null(at);
	at[4] = 'x';
	md5_import_text(&r, base);
	assimp_assert_error_at(&r, 22, "'x' is not a number (baseframe, entry 1)");
	assimp_import_release(&r);
	free(base);
	/* Within them: read. */
	char *text = md5_text("8", "10 6", "0 0 0 0 0 0 5 0.5");

	md5_import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	assimp_import_release(&r);
	free(text);
}

/*
 * numFrames 5 over 3 frames (a copy cut off at a frame's end): Assimp read
 * the 3, and the clip was 2 frames short, exit 0.  An error at numFrames.
 * More frames than it says are read, with a warning (Doom 3 plays the
 * count).
 */
static void md5anim_num_frames_past_the_frames_fails(void **state)
{
	char *text = md5_frames_text("5", "8", "10 6", "0 0 0 0 0 0 5 0.5");
	assimp_import r;

	(void)state;
	md5_import_text(&r, text);
	assimp_assert_error_at(&r, 4, "numFrames 5, but the file holds 3 frames");
	assimp_import_release(&r);
	free(text);
	text = md5_frames_text("2", "8", "10 6", "0 0 0 0 0 0 5 0.5");
	md5_import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_string_equal(test_diags_first(&r.diags, ANIMC_WARNING)->kind, "wrong-frame-count");
	assert_int_equal(test_diags_first(&r.diags, ANIMC_WARNING)->line, 4);
	assert_true(r.set.count == 1 && fabsf(r.set.clips[0]->duration_s - 2.0f / 30) < 1e-6f);
	assimp_import_release(&r);
	free(text);
}

/* `text` with its "frameRate 30" line put as `line`: a new string. */
static char *with_rate_line(const char *text, const char *line)
{
	const char *at = strstr(text, "frameRate 30\n");

	assert_non_null(at);
	return test_format("%.*s%s%s", (int)(at - text), text, line, at + strlen("frameRate 30\n"));
}

/*
 * No frameRate line, frameRate 0, frameRate abc: Assimp reads the frames at
 * 24 a second, and so did animc, without a word.  The rate is assumed, 24,
 * with an assumed-tick-rate warning; --ticks-per-second sets it.
 */
static void md5anim_without_a_frame_rate_warns_of_the_rate_assumed(void **state)
{
	static const char *const lines[] = { "", "frameRate 0\n", "frameRate abc\n", "frameRate -30\n" };
	char *text = md5_text("8", "10 6", "0 0 0 0 0 0 5 0.5");
	assimp_import r;

	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		char *bad = with_rate_line(text, lines[i]);

		md5_import_text(&r, bad);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
		assert_string_equal(test_diags_first(&r.diags, ANIMC_WARNING)->kind, "assumed-tick-rate");
		assert_non_null(strstr(test_diags_first(&r.diags, ANIMC_WARNING)->message, "assumed 24"));
		assert_true(r.set.clips[0]->ticks_per_second == 24);
		assimp_import_release(&r);
		free(bad);
	}
	/* A rate it gives: no warning. */
	md5_import_text(&r, text);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_true(r.set.clips[0]->ticks_per_second == 30);
	assimp_import_release(&r);
	free(text);
}

/* A .md5camera of 3 frames (numFrames `frames`), cut at `cuts` (one a
 * line), imported as `animc build` imports it. */
static void md5camera_import(assimp_import *r, const char *frames, const char *cuts)
{
	char *dir = test_tmpdir("md5camera"), *path = test_format("%s/shot.md5camera", dir);
	char *text = test_format("MD5Version 10\ncommandline \"\"\n\nnumFrames %s\nframeRate 30\nnumCuts 1\n\n"
				 "cuts {\n%s\n}\n\ncamera {\n\t( 0 0 0 ) ( 0 0 0 ) 90\n\t( 1 0 0 ) ( 0 0 0 ) 90\n"
				 "\t( 2 0 0 ) ( 0 0 0 ) 90\n}\n", frames, cuts);

	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(r, path, NULL);
	free(text), free(path), free(dir);
}

/*
 * A .md5camera's frameRate (30 here): Assimp 5.2.5 gives 24 ticks a second
 * whatever the file says, so the camera played at 24 frames a second,
 * without a word.  Its frames are at the file's rate, as an .md5anim's are.
 */
static void md5camera_plays_at_its_frame_rate(void **state)
{
	assimp_import r;

	(void)state;
	md5camera_import(&r, "3", "1");
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_true(r.set.count >= 1);
	assert_true(r.set.clips[0]->ticks_per_second == 30);
	assert_true(r.set.clips[0]->frame_rate == 30);
	assert_float_equal(r.set.clips[0]->duration_s, 1.0 / 30, 1e-6);
	assimp_import_release(&r);
}

/* The clip of `set` named `name`, or a failure. */
static const animc_clip *clip_named(const animc_clip_set *set, const char *name)
{
	for (uint32_t i = 0; i < set->count; i++)
		if (strcmp(set->clips[i]->name, name) == 0)
			return set->clips[i];
	fail_msg("no clip %s", name);
	return NULL;
}

/* A camera of 6 frames at 30 a second (frame k at x = k, the last turned
 * about Y), cut after frame 2: two shots, frames 0 to 2 and 3 to 5. */
static void md5camera_import_shots(assimp_import *r)
{
	char *dir = test_tmpdir("md5camera-shots"), *path = test_format("%s/shot.md5camera", dir);
	static const char text[] =
		"MD5Version 10\ncommandline \"\"\n\nnumFrames 6\nframeRate 30\nnumCuts 1\n\ncuts {\n\t2\n}\n\n"
		"camera {\n\t( 0 0 0 ) ( 0 0 0 ) 90\n\t( 1 0 0 ) ( 0 0 0 ) 90\n\t( 2 0 0 ) ( 0 0 0 ) 90\n"
		"\t( 3 0 0 ) ( 0 0 0 ) 90\n\t( 4 0 0 ) ( 0 0 0 ) 90\n\t( 5 0 0 ) ( 0 0.6 0 ) 90\n}\n";

	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(r, path, NULL);
	assert_int_equal(r->status, ANIMC_OK);
	assert_int_equal(r->set.count, 2);
	free(path), free(dir);
}

/*
 * Assimp keyed each shot at the file's frame numbers, so the second held
 * frame 3 from 0 s until 0.1 s, when its frame number came.  Each shot
 * starts at 0.
 */
static void md5camera_later_shots_start_at_0(void **state)
{
	const animc_track *t;
	assimp_import r;

	(void)state;
	md5camera_import_shots(&r);
	t = &clip_named(&r.set, "anim0_from_0_to_3")->channels[0].tracks[ANIMC_TRANSLATION];
	assert_int_equal(t->value_count, 3);
	assert_float_equal(t->times_s[0], 0, 1e-6);
	assert_float_equal(t->values[2 * 3], 2, 1e-6);
	t = &clip_named(&r.set, "anim1_from_3_to_5")->channels[0].tracks[ANIMC_TRANSLATION];
	for (uint32_t k = 0; k < 2; k++) {
		assert_float_equal(t->times_s[k], k / 30.0, 1e-6);
		assert_float_equal(t->values[k * 3], 3 + k, 1e-6);
	}
	assimp_import_release(&r);
}

/*
 * Assimp took a shot's frames up to its end, but not the end, and the last
 * shot ends at the camera's last frame: it was left out, and the camera
 * stopped at x = 4.  The last shot ends at the last frame, turned as the
 * file turns it.
 */
static void md5camera_the_last_shot_ends_at_the_last_frame(void **state)
{
	const animc_clip *last;
	const animc_track *t;
	assimp_import r;

	(void)state;
	md5camera_import_shots(&r);
	last = clip_named(&r.set, "anim1_from_3_to_5");
	t = &last->channels[0].tracks[ANIMC_TRANSLATION];
	assert_int_equal(t->value_count, 3);
	assert_float_equal(t->times_s[2], 2 / 30.0, 1e-6);
	assert_float_equal(t->values[2 * 3], 5, 1e-6);
	t = &last->channels[0].tracks[ANIMC_ROTATION];
	assert_int_equal(t->value_count, 3);
	assert_float_equal(fabs(t->values[2 * 4 + 1]), 0.6, 1e-6);
	assert_float_equal(last->duration_s, 2 / 30.0, 1e-6);
	assimp_import_release(&r);
}

/*
 * A cut past the camera's frames (cut 8 of 3 frames): Assimp made a clip
 * from 0 to the cut and read its keys from past the frames, whatever the
 * memory held (1e30, denormals), other bytes each run, exit 0.  A cut
 * before the one before it made it allocate for a count gone negative.
 * Each fails at the cut's line, before Assimp reads the file; cuts within
 * the frames are read.
 */
static void md5camera_cut_past_the_frames_fails_at_its_line(void **state)
{
	assimp_import r;

	(void)state;
	md5camera_import(&r, "3", "8");
	assimp_assert_error_at(&r, 9, "cut 8 lies past the camera's 3 frames (0 to 2)");
	assimp_import_release(&r);
	md5camera_import(&r, "3", "3");
	assimp_assert_error_at(&r, 9, "cut 3 lies past");
	assimp_import_release(&r);
	md5camera_import(&r, "3", "1\n0");
	assimp_assert_error_at(&r, 10, "cut 0 is not after the cut before it (1)");
	assimp_import_release(&r);
	md5camera_import(&r, "3", "1");
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	assert_true(r.set.count >= 1);
	assimp_import_release(&r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(md5camera_cut_past_the_frames_fails_at_its_line),
	cmocka_unit_test(md5camera_plays_at_its_frame_rate),
	cmocka_unit_test(md5camera_later_shots_start_at_0),
	cmocka_unit_test(md5camera_the_last_shot_ends_at_the_last_frame),
	cmocka_unit_test(md5anim_without_a_frame_rate_warns_of_the_rate_assumed),
	cmocka_unit_test(md5anim_num_frames_past_the_frames_fails),
	cmocka_unit_test(md5anim_faulty_frames_fail_at_their_line),
};

ANIMC_TEST_GROUP(tests);
