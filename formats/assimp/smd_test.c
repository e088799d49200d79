/*
 * smd_test.c - Valve SMD files through the Assimp importer: what Assimp's
 * reader loses or says wrongly, and what animc reads of the file itself
 * (smd.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <assimp/cimport.h>

#include "import_test.h"

/* Write `text` as NAME in a folder of its own; the path, malloc()ed. */
static char *smd_write(const char *name, const char *text)
{
	char *dir = test_tmpdir("smd"), *path = test_format("%s/%s", dir, name);

	assert_true(test_write_file(path, text, strlen(text)));
	free(dir);
	return path;
}

/* An SMD whose nodes are a root and NODES (lines from line 4). */
#define SMD_NODES(NODES) "version 1\nnodes\n0 \"root\" -1\n" NODES "end\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
#define SMD_HEAD "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\ntime 10\n"

/*
 * A skeleton line cut short, a bone the nodes section does not hold, a
 * node line without its parent or whose parents lead to no root, a bone
 * index past any file's: Assimp's reader goes on without that key
 * (the cut one at the origin) and logs a line of its own count.  Each
 * fails at the file's own line, CR LF or lone CR line ends alike.
 */
static void smd_damaged_lines_fail_at_their_line(void **state)
{
	static const struct {
		const char *text, *words;
		uint32_t line;
	} cases[] = {
		{ SMD_HEAD "0 10 0 0 0 0 0\n\ntime 20\n0 20 0\nend\n", "holds 3 of its 7 values", 12 },
		{ SMD_HEAD "0 10 0 0 0 0 0\n7 0 5 0 1 0 0\nend\n", "bone 7 is not in the nodes section", 10 },
		{ "version 1\r\nnodes\r\n0 \"root\" -1\r\n1 \"arm\"\r\nend\r\nskeleton\r\ntime 0\r\n"
		  "0 0 0 0 0 0 0\r\nend\r\n", "no parent index", 4 },
		{ "version 1\rnodes\r0 \"root\" -1\rend\rskeleton\rtime 0\r0 0 0 0 0 0 0\rtime 1\r0 1 0\rend\r",
		  "holds 3 of its 7 values", 9 },
		/* A value that is not a number: Assimp failed quoting the rest
		 * of the file, its line ends as '?', and no line. */
		{ SMD_HEAD "0 1x0 0 0 0 0 0\ntime 20\n0 2 0 0 0 0 0\nend\n", "'1x0' is not a number (bone 0, position x)",
		  9 },
		{ SMD_HEAD "0 1 0 0 0 nan 0\nend\n", "'nan' is not a number (bone 0, rotation y)", 9 },
		{ SMD_HEAD "0 1 0 0 0 0 abc\nend\n", "'abc' is not a number (bone 0, rotation z)", 9 },
		/* A bone whose parents lead to no root: Assimp left it out of
		 * the hierarchy, and its keys warned of an unknown node. */
		{ SMD_NODES("1 \"arm\" 7\n"), "bone \"arm\" names parent 7, which is no bone", 4 },
		{ SMD_NODES("1 \"arm\" -3\n"), "bone \"arm\" names parent -3, which is no bone", 4 },
		{ SMD_NODES("1 \"arm\" 1\n"), "bone \"arm\" is its own ancestor", 4 },
		{ SMD_NODES("1 \"arm\" 2\n2 \"hand\" 1\n"), "bone \"arm\" is its own ancestor", 4 },
		/* Assimp started the clip at its smallest frame: frame -2 played
		 * at 0 s and frame 0 two frames late, exit 0. */
		{ "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\ntime -2\n"
		  "0 -2 0 0 0 0 0\ntime 10\n0 10 0 0 0 0 0\nend\n",
		  "frame -2 is before frame 0: Assimp's reader starts the clip at the smallest frame of the file, "
		  "so frame 0 would play at least 2 frames late", 8 },
		{ "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime -1\n0 0 0 0 0 0 0\nend\n",
		  "frame -1 is before frame 0", 6 },
		/* Assimp made a bone of every index below it: out of memory. */
		{ SMD_NODES("4000000000 \"arm\" 0\n"), "bone index 4000000000 is past 65535", 4 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *path = smd_write("walk.smd", cases[i].text);
		assimp_import r;

		assimp_import_path(&r, path, NULL);
		assimp_assert_error_at(&r, cases[i].line, cases[i].words);
		assimp_import_release(&r);
		free(path);
	}
}

/*
 * Assimp's SMD reader looks for an animation list beside the file
 * (STEM_animation.txt), which is seldom there.  That miss turned off every
 * error Assimp logged while reading the file: a cut skeleton line compiled,
 * exit 0.  Only an error about a file Assimp asked for and did not get is
 * excused; the SMD's own stand (read here without animc's own check).
 */
static void smd_errors_stand_though_no_animation_list_is_beside_it(void **state)
{
	char *path = smd_write("walk.smd", SMD_HEAD "0 10 0 0 0 0 0\ntime 20\n0 20 0\nend\n");
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, path);
	const struct aiScene *scene = animc_assimp_scene_open(path, data, size, "smd", &sink);
	const test_diag *d = test_diags_first(&diags, ANIMC_ERROR);

	(void)state;
	if (scene)
		aiReleaseImport(scene);
	assert_null(scene);
	assert_non_null(d);
	assert_non_null(strstr(d->message, "while parsing bone.pos.z"));
	/* Assimp's count of lines is not the file's: none is given. */
	assert_int_equal(d->line, 0);
	test_diags_release(&diags);
	free(data), free(path);
}

/*
 * An SMD holds no frame rate (Valve's studiomdl takes the .qc's fps, 30 by
 * default); Assimp's reader says 25, which was taken for the file's, so a
 * walk of 30 frames lasted 1.2 s without a word.  The rate is assumed, 25
 * as before, with an assumed-tick-rate warning naming Valve's default;
 * --ticks-per-second sets it.
 */
static void smd_rate_is_assumed_with_a_warning(void **state)
{
	char *path = smd_write("wave.smd", SMD_HEAD "0 10 0 0 0 0 0\ntime 30\n0 30 0 0 0 0 0\nend\n");
	animc_import_options options = { .ticks_per_second = 30 };
	const test_diag *d;
	assimp_import r;

	(void)state;
	assimp_import_path(&r, path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	d = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_string_equal(d->kind, "assumed-tick-rate");
	assert_non_null(strstr(d->message, "assumed 25"));
	assert_non_null(strstr(d->message, "30 by default"));
	/* Its one clip has no name (written as clip0.xnb): not "clip ''". */
	assert_true(strncmp(d->message, "its unnamed clip: the file declares no ticks per second", 55) == 0);
	assert_true(r.set.clips[0]->ticks_per_second == 25);
	assert_true(r.set.clips[0]->duration_s == 1.2f);
	assimp_import_release(&r);
	assimp_import_path(&r, path, &options);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_true(r.set.clips[0]->duration_s == 1.0f);
	assimp_import_release(&r);
	free(path);
}

/*
 * Valve's SMD is Z up, and Assimp keeps its scene as it is (an .md5anim's
 * root node it turns): --root-motion took Y for up, so a hop up Z went
 * into the motion as ground travel.  The clip, and an SMD model read for
 * --skeleton, declare Z.
 */
static void smd_world_is_z_up(void **state)
{
	char *path = smd_write("hop.smd", SMD_HEAD "0 10 3 46 0 0 0\nend\n");
	animc_skeleton skeleton;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, path);
	assimp_import r;

	(void)state;
	assimp_import_path(&r, path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.clips[0]->declared_up, ANIMC_UP_Z);
	assert_int_equal(animc_clip_up_axis(r.set.clips[0]), ANIMC_UP_Z);
	assimp_import_release(&r);
	assert_int_equal(animc_assimp_skeleton_load(path, &skeleton, &sink), ANIMC_OK);
	assert_int_equal(skeleton.declared_up, ANIMC_UP_Z);
	animc_skeleton_release(&skeleton);
	test_diags_release(&diags);
	free(path);
}

/*
 * Assimp reads an SMD's list of clips, STEM_animation.txt, when it is
 * beside the file, and each SMD it names as one more clip.  A list it
 * cannot use failed with Assimp's word alone ("File is too small"), of
 * a file the user never named: the error now names the list.
 */
static void smd_a_clip_list_that_fails_is_named(void **state)
{
	char *path = smd_write("walk.smd", SMD_HEAD "0 10 0 0 0 0 0\nend\n");
	char *dir = test_format("%.*s", (int)(strrchr(path, '/') - path), path);
	char *list = test_format("%s/walk_animation.txt", dir), *idle = test_format("%s/idle.smd", dir);
	assimp_import r;

	(void)state;
	assert_true(test_write_file(list, "idle idle.smd\n", 14));
	assert_true(test_write_file(idle, SMD_HEAD "0 0 7 0 0 0 0\nend\n", strlen(SMD_HEAD) + 18));
	assimp_import_path(&r, path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 2);
	assert_string_equal(r.set.clips[1]->name, "idle");
	assimp_import_release(&r);
	assert_true(test_write_file(list, "notes\n", 6));
	assimp_import_path(&r, path, NULL);
	assimp_assert_error_at(&r, 0, "(after reading walk_animation.txt, Assimp's list of an SMD's clips");
	assimp_import_release(&r);
	free(idle), free(list), free(dir), free(path);
}

/*
 * An SMD model given to --skeleton is checked as the importer checks one:
 * Assimp left a bone whose parent is no bone out of the tree, and each
 * clip keying it then failed with "bone 'arm' is not in the skeleton".
 */
static void smd_skeleton_is_checked_as_the_importer_checks_one(void **state)
{
	char *path = smd_write("model.smd", SMD_NODES("1 \"arm\" 7\n"));
	animc_skeleton skeleton;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, path);

	(void)state;
	assert_int_not_equal(animc_assimp_skeleton_load(path, &skeleton, &sink), ANIMC_OK);
	const test_diag *e = test_diags_first(&diags, ANIMC_ERROR);
	assert_non_null(e);
	assert_non_null(strstr(e->message, "bone \"arm\" names parent 7, which is no bone"));
	assert_int_equal(e->line, 4);
	test_diags_release(&diags);
	free(path);
}

/*
 * A build reads the --skeleton model once: it hashes those bytes, keys its
 * outputs by them, and loads the skeleton from them.  The model was read
 * three times (hashed, keyed, loaded by path), so a model saved during a
 * build could be loaded in a version other than the one its outputs were
 * keyed by.  The bytes given are the model, not the file at the path.
 */
static void a_model_is_loaded_from_the_bytes_given(void **state)
{
	static const char given[] = SMD_NODES("1 \"leg\" 0\n");
	char *path = smd_write("model.smd", SMD_NODES("1 \"arm\" 0\n"));
	animc_skeleton skeleton;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, path);

	(void)state;
	assert_int_equal(animc_skeleton_load_bytes(path, (const uint8_t *)given, strlen(given), NULL, &skeleton, &sink),
			 ANIMC_OK);
	assert_true(animc_skeleton_find(&skeleton, "leg") >= 0);
	assert_true(animc_skeleton_find(&skeleton, "arm") < 0);
	assert_int_equal(skeleton.declared_up, ANIMC_UP_Z);
	animc_skeleton_release(&skeleton);
	/* A damaged one is checked as the file is. */
	assert_int_not_equal(animc_skeleton_load_bytes(path, (const uint8_t *)SMD_NODES("1 \"leg\" 7\n"),
						       strlen(SMD_NODES("1 \"leg\" 7\n")), NULL, &skeleton, &sink),
			     ANIMC_OK);
	assert_non_null(strstr(test_diags_first(&diags, ANIMC_ERROR)->message, "bone \"leg\" names parent 7"));
	test_diags_release(&diags);
	free(path);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(smd_world_is_z_up),
	cmocka_unit_test(a_model_is_loaded_from_the_bytes_given),
	cmocka_unit_test(smd_skeleton_is_checked_as_the_importer_checks_one),
	cmocka_unit_test(smd_a_clip_list_that_fails_is_named),
	cmocka_unit_test(smd_rate_is_assumed_with_a_warning),
	cmocka_unit_test(smd_damaged_lines_fail_at_their_line),
	cmocka_unit_test(smd_errors_stand_though_no_animation_list_is_beside_it),
};

ANIMC_TEST_GROUP(tests);
