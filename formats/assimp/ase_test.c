/*
 * ase_test.c - 3ds Max ASCII exports (.ase) through the Assimp importer:
 * the scene's range, which Assimp's reader does not give its animation
 * (assimp_import.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

/* An ASE scene of one dummy, Bone01, whose X position is keyed from 0 at
 * tick 0 to 1 at tick `end_tick`; `scene` the lines of its *SCENE block.
 * Written in a folder of its own; the path, malloc()ed. */
static char *ase_scene(const char *scene, unsigned end_tick)
{
	char *dir = test_tmpdir("ase"), *path = test_format("%s/dummy.ase", dir);
	char *text = test_format("*3DSMAX_ASCIIEXPORT\t200\n*SCENE {\n%s}\n*HELPEROBJECT {\n\t*NODE_NAME \"Bone01\"\n"
				 "\t*HELPER_CLASS \"Dummy\"\n\t*NODE_TM {\n\t\t*NODE_NAME \"Bone01\"\n"
				 "\t\t*TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t*TM_ROW3 0 0 0\n\t}\n"
				 "\t*TM_ANIMATION {\n\t\t*NODE_NAME \"Bone01\"\n\t\t*CONTROL_POS_TRACK {\n"
				 "\t\t\t*CONTROL_POS_SAMPLE 0 0 0 0\n\t\t\t*CONTROL_POS_SAMPLE %u 1 0 0\n\t\t}\n\t}\n}\n",
				 scene, end_tick);

	assert_true(test_write_file(path, text, strlen(text)));
	free(text), free(dir);
	return path;
}

/* The clip `path` imports to lasts `duration_s`, its keys at 0 and `key_s`. */
static void assert_lasts(const char *path, float duration_s, float key_s)
{
	assimp_import r;

	assimp_import_path(&r, path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	if (fabsf(r.set.clips[0]->duration_s - duration_s) > 1e-5f)
		fail_msg("%s: the clip lasts %g s, not %g", path, r.set.clips[0]->duration_s, duration_s);
	const animc_track *t = &r.set.clips[0]->channels[0].tracks[ANIMC_TRANSLATION];

	assert_int_equal(t->value_count, 2);
	assert_true(t->times_s[0] == 0 && fabsf(t->times_s[1] - key_s) < 1e-6f && t->values[3] == 1.0f);
	assimp_import_release(&r);
}

/*
 * Assimp's ASE reader gives its animation no duration: the clip ended at
 * its last key (Assimp's CameraRollAnim.ase, a camera keyed for 4 s of a
 * 10 s scene, lasted 4 s).  It lasts the scene, to *SCENE_LASTFRAME, as
 * 3ds Max plays it, the last key held; keys past the scene's end keep
 * theirs.
 */
static void an_ase_clip_lasts_its_scene(void **state)
{
	static const char range[] = "\t*SCENE_FIRSTFRAME 0\n\t*SCENE_LASTFRAME 60\n\t*SCENE_FRAMESPEED 30\n"
				    "\t*SCENE_TICKSPERFRAME 160\n";
	char *path;

	(void)state;
	/* Keys to frame 30 (tick 4800) of a scene to frame 60: 2 s. */
	path = ase_scene(range, 4800);
	assert_lasts(path, 2.0f, 1.0f);
	free(path);
	/* No ticks per frame: Assimp's 1, its key times frames. */
	path = ase_scene("\t*SCENE_LASTFRAME 60\n\t*SCENE_FRAMESPEED 30\n", 30);
	assert_lasts(path, 2.0f, 1.0f);
	free(path);
	/* Keys past the scene's end (frame 15): the clip lasts to the last. */
	path = ase_scene("\t*SCENE_LASTFRAME 15\n\t*SCENE_FRAMESPEED 30\n\t*SCENE_TICKSPERFRAME 160\n", 4800);
	assert_lasts(path, 1.0f, 1.0f);
	free(path);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(an_ase_clip_lasts_its_scene),
};

ANIMC_TEST_GROUP(tests);
