/*
 * csm_test.c - CharacterStudio motion capture (.csm) files through the
 * Assimp importer: what animc reads of the file itself before Assimp does
 * (csm.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

/* Import a .csm of `range` (its $FirstFrame and $LastFrame lines, from
 * line 1), one marker and `frames` frames numbered from `first` (the
 * marker's x the frame's count from the first), as `animc build` does. */
static void csm_import_from(assimp_import *r, const char *range, unsigned first, unsigned frames)
{
	char *dir = test_tmpdir("csm"), *path = test_format("%s/take.csm", dir);
	char *text = test_format("%s$Rate 30\n$Order\nA\n$Points\n", range);

	for (unsigned i = 0; i < frames; i++) {
		char *more = test_format("%s%u %u.0 2.0 3.0\n", text, first + i, i);

		free(text);
		text = more;
	}
	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(r, path, NULL);
	free(text), free(path), free(dir);
}

static void csm_import(assimp_import *r, const char *range, unsigned frames)
{
	csm_import_from(r, range, 0, frames);
}

/*
 * Assimp 5.2 sizes each marker's keys by $LastFrame - $FirstFrame and a
 * quarter more, and writes every frame past that room beyond the array
 * (past an empty one for a range of 0, through a null pointer without
 * $LastFrame): Assimp's own malformed_zero_framerange.csm was written with
 * exit 0 from whatever memory it reached, the sanitizer build found animc
 * reading past the keys, and other files crashed the import.  Each fails
 * at its line before Assimp reads the file; a range that holds its frames
 * is read, its keys as the file gives them.
 */
static void csm_frames_past_the_room_fail_at_their_line(void **state)
{
	assimp_import r;

	(void)state;
	csm_import(&r, "$FirstFrame 0\n$LastFrame 0\n", 1);
	assimp_assert_error_at(&r, 2, "$LastFrame 0 is not after $FirstFrame 0");
	assimp_import_release(&r);
	csm_import(&r, "$FirstFrame 0\n$LastFrame 2\n", 3);
	assimp_assert_error_at(&r, 6, "$Points holds 3 frames, more than the 2 Assimp makes room for");
	assimp_import_release(&r);
	csm_import(&r, "", 3);
	assimp_assert_error_at(&r, 4, "$Points of 3 frames without a $LastFrame before it");
	assimp_import_release(&r);
	csm_import(&r, "$FirstFrame 0\n$LastFrame 4\n", 5);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	assert_int_equal(r.set.count, 1);
	assert_int_equal(r.set.clips[0]->channel_count, 1);
	{
		const animc_track *t = &r.set.clips[0]->channels[0].tracks[ANIMC_TRANSLATION];

		assert_int_equal(t->value_count, 5);
		for (uint32_t i = 0; i < 5; i++)
			assert_true(t->values[3 * i] == (float)i && t->values[3 * i + 1] == 2.0f);
	}
	assimp_import_release(&r);
}

/* A .csm names no take; Assimp names it "$CSM_MasterAnim", and the output
 * was $CSM_MasterAnim.xnb.  The clip is unnamed (clip0.xnb), as a
 * MilkShape 3D file's is. */
static void csm_take_is_unnamed(void **state)
{
	assimp_import r;

	(void)state;
	csm_import(&r, "$FirstFrame 0\n$LastFrame 4\n", 5);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	assert_string_equal(r.set.clips[0]->name, "");
	assimp_import_release(&r);
}

/* A .csm numbers its frames from $FirstFrame (Assimp's ThomasFechten.csm
 * from 1), and Character Studio plays the take from there.  Assimp keys
 * each frame at its number: the clip held frame 1 from 0 to one frame
 * (a key more), and lasted a frame longer (ThomasFechten.csm 20.325 s,
 * not 20.317).  It starts at its first frame: frame 1 at 0 s, frame 2
 * at 1/30 s, 4 frames long. */
static void csm_starts_at_its_first_frame(void **state)
{
	assimp_import r;

	(void)state;
	csm_import_from(&r, "$FirstFrame 1\n$LastFrame 5\n", 1, 5);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	assert_float_equal(r.set.clips[0]->duration_s, 4 / 30.0, 1e-6);
	{
		const animc_channel *ch = &r.set.clips[0]->channels[0];
		const animc_track *t = &ch->tracks[ANIMC_TRANSLATION];

		assert_int_equal(t->value_count, 5);
		for (uint32_t i = 0; i < 5; i++) {
			float time = t->times_s ? t->times_s[i] : ch->has_time ? ch->times_s[i] : i * ch->key_interval_s;

			assert_float_equal(time, i / 30.0, 1e-6);
			assert_true(t->values[3 * i] == (float)i);
		}
	}
	assimp_import_release(&r);
}

/* A take whose first frame gives no marker a key (each a DROPOUT,
 * which Assimp skips) starts at that frame all the same, as Character
 * Studio plays it: frame 2, the first keyed, at 1/30 s, 5 frames (1 to
 * 6) long.  It started at frame 2, a frame early and short. */
static void csm_starts_at_its_first_frame_of_dropouts(void **state)
{
	char *dir = test_tmpdir("csm"), *path = test_format("%s/take.csm", dir);
	const char *text = "$FirstFrame 1\n$LastFrame 6\n$Rate 30\n$Order\nA\n$Points\n1 DROPOUT\n"
			   "2 2.0 2.0 3.0\n3 3.0 2.0 3.0\n4 4.0 2.0 3.0\n5 5.0 2.0 3.0\n6 6.0 2.0 3.0\n";
	assimp_import r;

	(void)state;
	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(&r, path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	assert_float_equal(r.set.clips[0]->duration_s, 5 / 30.0, 1e-6);
	{
		const animc_channel *ch = &r.set.clips[0]->channels[0];
		const animc_track *t = &ch->tracks[ANIMC_TRANSLATION];
		uint32_t n = t->value_count;

		assert_true(n >= 5);
		for (uint32_t i = 0; i < n; i++) {
			float time = t->times_s ? t->times_s[i] : ch->has_time ? ch->times_s[i] : i * ch->key_interval_s;
			float x = t->values[3 * i];

			/* frame x (2 to 6) at (x - 1) / 30 s; frame 2 held before it */
			if (x > 2.0f || time > 0)
				assert_float_equal(time, (x - 1) / 30.0, 1e-6);
		}
		assert_true(t->values[3 * (n - 1)] == 6.0f);
	}
	assimp_import_release(&r);
	free(path), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(csm_starts_at_its_first_frame),
	cmocka_unit_test(csm_starts_at_its_first_frame_of_dropouts),
	cmocka_unit_test(csm_frames_past_the_room_fail_at_their_line),
	cmocka_unit_test(csm_take_is_unnamed),
};

ANIMC_TEST_GROUP(tests);
