/*
 * assimp_cli_test.c - the Assimp importer through the command line: clip
 * selection, tick rates, skipped and unreadable files, files that crash
 * Assimp (each fails alone), and the corpus compiled and sampled against
 * Assimp's own keys.
 */
#define _GNU_SOURCE   /* memmem */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include "test_support.h"
#include <animc/animrt.h>

#define KEYS_X "testdata/assimp/keys.x"
#define NO_RATE_X "testdata/assimp/no_rate.x"
#define STATIC_X "testdata/assimp/static.x"
#define BROKEN_X "testdata/assimp/broken.x"

static animrt_clip *open_xnb(const char *path)
{
	animrt_clip *clip = NULL;
	animrt_error err;

	if (animrt_open_file(path, &clip, &err) != ANIMRT_OK)
		fail_msg("%s: %s", path, err.message);
	return clip;
}

/* An ASCII FBX 7.4 of one bone, Hips, whose translation X is keyed at the
 * KTimes `times` (46186158000 a second) with `values`, in time mode
 * `time_mode`, its take 0 to `stop` KTime: a new string. */
static char *fbx_text(const char *times, const char *values, unsigned count, int time_mode, const char *stop)
{
	return test_format(
		"; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
		"GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n\t\tP: \"TimeMode\", \"enum\", \"\", \"\", %d\n"
		"\t}\n}\nObjects:  {\n\tModel: 101, \"Model::Hips\", \"LimbNode\" {\n\t\tVersion: 232\n\t}\n"
		"\tAnimationStack: 200, \"AnimStack::Take 001\", \"\" {\n\t\tProperties70:  {\n"
		"\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\", 0\n\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\", %s\n"
		"\t\t}\n\t}\n\tAnimationLayer: 201, \"AnimLayer::BaseLayer\", \"\" {\n\t}\n"
		"\tAnimationCurveNode: 300, \"AnimCurveNode::T\", \"\" {\n\t\tProperties70:  {\n"
		"\t\t\tP: \"d|X\", \"Number\", \"\", \"A\", 0\n\t\t}\n\t}\n"
		"\tAnimationCurve: 400, \"AnimCurve::\", \"\" {\n\t\tDefault: 0\n\t\tKeyVer: 4009\n"
		"\t\tKeyTime: *%u {\n\t\t\ta: %s\n\t\t}\n\t\tKeyValueFloat: *%u {\n\t\t\ta: %s\n\t\t}\n\t}\n}\n"
		"Connections:  {\n\tC: \"OO\", 101, 0\n\tC: \"OO\", 201, 200\n\tC: \"OO\", 300, 201\n"
		"\tC: \"OP\", 300, 101, \"Lcl Translation\"\n\tC: \"OP\", 400, 300, \"d|X\"\n}\n",
		time_mode, stop, count, times, count, values);
}

static void cli_unknown_clip_lists_the_clips(void **state)
{
	char *out = test_tmpdir("assimp-clip");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--clip", "jump", "-o", out, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_count_files(out), 0);
	/* The clip names are data, not wording. */
	for (const char *const *n = (const char *const[]){ "rotate", "scale", "move", "matrix", "mixed", NULL };
	     *n; n++)
		assert_non_null(strstr(r.err, *n));
	test_run_release(&r);
	r = test_animc("build", "-q", "--clip", "move", "--clip", "scale", "-o", out, KEYS_X, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(test_count_files(out), 2);
	char *move = test_format("%s/keys/move.xnb", out);
	assert_true(test_file_exists(move));
	free(move);
	test_run_release(&r);
	free(out);
}

static void cli_ticks_per_second_changes_durations(void **state)
{
	char *out = test_tmpdir("assimp-rate");
	char *walk = test_format("%s/no_rate/walk.xnb", out);
	char *matrix = test_format("%s/keys/matrix.xnb", out);
	animrt_clip *clip;
	test_run r;

	(void)state;
	/* As declared (100) and as the .X default (4800). */
	r = test_animc("build", "-q", "-o", out, KEYS_X, NO_RATE_X, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	clip = open_xnb(matrix);
	assert_true(clip->duration_s == 2.0f);
	animrt_close(clip);
	clip = open_xnb(walk);
	assert_true(clip->duration_s == 1.0f);
	assert_true(clip->sequences[0].key_interval_s == 0.5f);
	animrt_close(clip);
	/* Forced for every input: 25 ticks per second. */
	r = test_animc("build", "-q", "--ticks-per-second", "25", "-o", out, KEYS_X, NO_RATE_X, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	clip = open_xnb(matrix);
	assert_true(clip->duration_s == 8.0f);
	animrt_close(clip);
	clip = open_xnb(walk);
	assert_true(clip->duration_s == 192.0f);
	assert_true(clip->sequences[0].duration_s == 192.0f);
	assert_true(clip->sequences[0].key_interval_s == 96.0f);
	animrt_close(clip);
	free(matrix);
	free(walk);
	free(out);
}

/* --ticks-per-second rescaled COLLADA too, whose key times are seconds
 * (Assimp's milliseconds): a 2 s clip read at 30 lasted 66.7 s, with no
 * word.  Not applied to it, with a warning; an FBX in a time mode Assimp
 * does not know (keys in seconds, rate 1) likewise. */
static void cli_ticks_per_second_leaves_seconds_alone(void **state)
{
	char *out = test_tmpdir("assimp-rate-seconds"), *fbx = test_format("%s/s.fbx", out);
	char *text = fbx_text("0,46186158000", "0,10", 2, 17, "46186158000");
	test_run r;

	(void)state;
	r = test_animc("build", "-o", out, "--ticks-per-second", "30", "testdata/assimp/clips.dae", NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "(2 bones, 2 s,") || !strstr(r.err, "clips.dae: warning: --ticks-per-second 30 not applied") ||
	    !strstr(r.err, "[tick-rate-not-applied]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, "--ticks-per-second", "30", fbx, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "(1 bone, 1 s,") || !strstr(r.err, "[tick-rate-not-applied]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	/* An Ogre mesh's skeleton animation, keyed in seconds (rate 1):
	 * its 1 s take was written 0.0333 s long, with no warning. */
	r = test_animc("build", "-o", out, "--ticks-per-second", "30", "testdata/assimp_confine/in/inside.mesh.xml",
		       NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "(1 bone, 1 s,") || !strstr(r.err, "[tick-rate-not-applied]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(text), free(fbx), free(out);
}

static void cli_ticks_per_second_must_be_a_positive_number(void **state)
{
	static const char *const bad[] = { "0", "-24", "abc", "24fps", "", "nan", "inf", "1e999" };

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		test_run r = test_animc("build", "--ticks-per-second", bad[i], "-o", "build/test-tmp/u",
					KEYS_X, NULL);

		if (r.status != 2)
			fail_msg("--ticks-per-second '%s': exit %d", bad[i], r.status);
		test_run_release(&r);
	}
	assert_false(test_file_exists("build/test-tmp/u/keys"));
}

static void cli_static_model_skipped_in_a_folder_fails_given(void **state)
{
	char *src = test_tmpdir("assimp-art");
	char *out = test_tmpdir("assimp-art-out");
	char *copy_static = test_format("%s/box.x", src);
	char *copy_keys = test_format("%s/hero.x", src);
	size_t size;
	uint8_t *data;
	test_run r;

	(void)state;
	data = test_read_file(STATIC_X, &size);
	assert_true(test_write_file(copy_static, data, size));
	free(data);
	data = test_read_file(KEYS_X, &size);
	assert_true(test_write_file(copy_keys, data, size));
	free(data);
	r = test_animc("build", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(test_count_files(out), 5);   /* hero's clips */
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, copy_static, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, copy_static));
	test_run_release(&r);
	free(copy_keys);
	free(copy_static);
	free(out);
	free(src);
}

/* An SMD whose animation list (STEM_animation.txt, which Assimp's reader
 * looks for beside it) came after a build: the next build said "up to
 * date", a --cache-dir build into a new folder took the entry made
 * without it, and `animc outputs` trusted the manifest; the list's clip
 * was never written.  The name looked for is a dependency now. */
static void cli_an_smd_animation_list_added_later_is_read(void **state)
{
	char *dir = test_tmpdir("assimp-smd-list"), *art = test_format("%s/art", dir);
	char *walk = test_format("%s/walk.smd", art), *list = test_format("%s/walk_animation.txt", art);
	char *out = test_format("%s/out", dir), *fresh = test_format("%s/fresh", dir), *cache = test_format("%s/c", dir);
	char *run_xnb = test_format("%s/walk/run.xnb", out), *fresh_run = test_format("%s/walk/run.xnb", fresh);
#define LIST_SMD(x) "version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n" \
		"1 1 0 0 0 0 0\ntime 1\n0 " x " 0 0 0 0 0\n1 1 0 0 0 0 1\nend\n"
	const char *walk_text = LIST_SMD("1"), *run_text = LIST_SMD("5");
#undef LIST_SMD
	char *run = test_format("%s/run.smd", art);
	test_run r;

	(void)state;
	mkdir(art, 0755);
	assert_true(test_write_file(walk, walk_text, strlen(walk_text)));
	assert_true(test_write_file(run, run_text, strlen(run_text)));
	r = test_animc("build", "-q", "--ticks-per-second", "30", "--cache-dir", cache, "--cache-min-size", "0",
		       "--cache-wait", "-o", out, walk, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_false(test_file_exists(run_xnb));

	assert_true(test_write_file(list, "run run.smd\n", 12));
	r = test_animc("outputs", "--ticks-per-second", "30", "-o", out, walk, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "walk/run.xnb"));
	test_run_release(&r);
	r = test_animc("build", "--ticks-per-second", "30", "--cache-dir", cache, "--cache-min-size", "0",
		       "--cache-wait", "-o", fresh, walk, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "cached"));
	test_run_release(&r);
	assert_true(test_file_exists(fresh_run));
	r = test_animc("build", "--ticks-per-second", "30", "-o", out, walk, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "up to date"));
	test_run_release(&r);
	assert_true(test_file_exists(run_xnb));
	assert_true(test_same_bytes(run_xnb, fresh_run));
	free(dir), free(art), free(walk), free(list), free(out), free(fresh), free(cache), free(run_xnb);
	free(fresh_run), free(run);
}

/* A file the import looked for and did not find (an SMD's animation list)
 * is a dependency of the manifest's, but no prerequisite of the depfile:
 * make knows no rule to make it, and ninja would run the rule on every
 * build. */
static void cli_a_depfile_leaves_out_the_files_not_found(void **state)
{
	char *dir = test_tmpdir("assimp-smd-depfile"), *walk = test_format("%s/walk.smd", dir);
	char *dep = test_format("%s/out.d", dir), *out = test_format("%s/out", dir);
	const char *walk_text = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n"
				"time 1\n0 1 0 0 0 0 0\nend\n";
	test_run r;

	(void)state;
	assert_true(test_write_file(walk, walk_text, strlen(walk_text)));
	r = test_animc("build", "-q", "--ticks-per-second", "30", "--depfile", dep, "-o", out, walk, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *text = (char *)test_read_file(dep, NULL);
	if (!strstr(text, "/walk.smd") || strstr(text, "walk_animation.txt"))
		fail_msg("%s", text);
	free(text), free(out), free(dep), free(walk), free(dir);
}

/* An Ogre --skeleton model keeps its bones in the .skeleton.xml Assimp
 * reads beside it.  A bone renamed there left every output "up to date"
 * with the old names, a --cache-dir build into a new folder took the old
 * entry, and the depfile named the .mesh.xml alone: the model's own side
 * files were no dependency. */
static void cli_a_skeleton_models_side_file_is_a_dependency(void **state)
{
	char *dir = test_tmpdir("assimp-skeleton-side"), *art = test_format("%s/art", dir);
	char *model = test_format("%s/model", dir), *mesh = test_format("%s/m.mesh.xml", model);
	char *bones = test_format("%s/m.skeleton.xml", model), *cache = test_format("%s/c", dir);
	char *out = test_format("%s/out", dir), *fresh = test_format("%s/fresh", dir), *clean = test_format("%s/clean", dir);
	char *depfile = test_format("%s/d.d", dir), *idle = test_format("%s/Walker/Idle.xnb", out);
	char *fresh_idle = test_format("%s/Walker/Idle.xnb", fresh), *clean_idle = test_format("%s/Walker/Idle.xnb", clean);
	const char *mesh_text =
		"<mesh><submeshes><submesh material=\"m\" usesharedvertices=\"false\" use32bitindexes=\"false\" "
		"operationtype=\"triangle_list\"><faces count=\"1\"><face v1=\"0\" v2=\"1\" v3=\"2\"/></faces>"
		"<geometry vertexcount=\"3\"><vertexbuffer positions=\"true\"><vertex><position x=\"0\" y=\"0\" z=\"0\"/>"
		"</vertex><vertex><position x=\"1\" y=\"0\" z=\"0\"/></vertex><vertex><position x=\"0\" y=\"1\" z=\"0\"/>"
		"</vertex></vertexbuffer></geometry></submesh></submeshes><skeletonlink name=\"m.skeleton\"/></mesh>\n";
#define SIDE_BONES(root) "<skeleton><bones><bone id=\"0\" name=\"" root "\"><position x=\"0\" y=\"0\" z=\"0\"/>" \
	"<rotation angle=\"0\"><axis x=\"1\" y=\"0\" z=\"0\"/></rotation></bone><bone id=\"1\" name=\"Leg\">" \
	"<position x=\"0\" y=\"1\" z=\"0\"/><rotation angle=\"0\"><axis x=\"1\" y=\"0\" z=\"0\"/></rotation></bone>" \
	"</bones><bonehierarchy><boneparent bone=\"Leg\" parent=\"" root "\"/></bonehierarchy></skeleton>\n"
	const char *hips = SIDE_BONES("Hips"), *pelvis = SIDE_BONES("Pelvis");
#undef SIDE_BONES
	size_t size;
	char *text;
	test_run r;

	(void)state;
	mkdir(art, 0755), mkdir(model, 0755);
	test_sh("cp testdata/authoring/Walker.xml '%s/'", art);
	assert_true(test_write_file(mesh, mesh_text, strlen(mesh_text)));
	assert_true(test_write_file(bones, hips, strlen(hips)));
	r = test_animc("build", "-q", "--skeleton", mesh, "--cache-dir", cache, "--cache-min-size", "0", "--cache-wait",
		       "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);

	assert_true(test_write_file(bones, pelvis, strlen(pelvis)));
	r = test_animc("build", "-q", "--skeleton", mesh, "-o", clean, art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--skeleton", mesh, "--cache-dir", cache, "--cache-min-size", "0", "--cache-wait",
		       "--depfile", depfile, "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "up to date"));
	test_run_release(&r);
	assert_true(test_same_bytes(idle, clean_idle));
	text = (char *)test_read_file(depfile, &size);
	assert_non_null(strstr(text, "/model/m.skeleton.xml"));
	free(text);
	r = test_animc("build", "--skeleton", mesh, "--cache-dir", cache, "--cache-min-size", "0", "--cache-wait",
		       "-o", fresh, art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_same_bytes(fresh_idle, clean_idle));
	free(dir), free(art), free(model), free(mesh), free(bones), free(cache), free(out), free(fresh), free(clean);
	free(depfile), free(idle), free(fresh_idle), free(clean_idle);
}

/* Assimp is loaded by its soname, libassimp.so.5, which Assimp 5.2, 5.3
 * and 5.4 all carry.  The key named the version animc was built against:
 * with another Assimp loaded (a stand-in that says it is 5.4.3), every
 * Assimp source stayed "up to date" and the cache handed out what the
 * other one read.  The version loaded is keyed now. */
static void cli_another_assimp_loaded_compiles_again(void **state)
{
	char *dir = test_tmpdir("assimp-other-version"), *lib = test_format("%s/lib", dir);
	char *cache = test_format("%s/c", dir), *out = test_format("%s/out", dir), *fresh = test_format("%s/fresh", dir);
	const char *old_path = getenv("LD_LIBRARY_PATH");
	char *saved = old_path ? strdup(old_path) : NULL;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cc -shared -fPIC -DREAL=\"\\\"$(readlink -f \"$(pkg-config --variable=libdir "
		"assimp)/libassimp.so.5\")\\\"\" -Wl,-soname,libassimp.so.5 -o '%s/libassimp.so.5' "
		"testdata/assimp_version/shim.c -ldl", lib, lib);
	r = test_animc("build", "-q", "--ticks-per-second", "30", "--cache-dir", cache, "--cache-min-size", "0",
		       "--cache-wait", "-o", out, "testdata/fuzz/assimp/walk.smd", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);

	setenv("LD_LIBRARY_PATH", lib, 1);
	r = test_animc("build", "--ticks-per-second", "30", "--cache-dir", cache, "--cache-min-size", "0",
		       "--cache-wait", "-o", fresh, "testdata/fuzz/assimp/walk.smd", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source"));
	test_run_release(&r);
	r = test_animc("build", "--ticks-per-second", "30", "-o", out, "testdata/fuzz/assimp/walk.smd", NULL);
	if (saved)
		setenv("LD_LIBRARY_PATH", saved, 1);
	else
		unsetenv("LD_LIBRARY_PATH");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source"));
	test_run_release(&r);
	/* The same Assimp again: up to date. */
	r = test_animc("build", "--ticks-per-second", "30", "--cache-dir", cache, "--cache-min-size", "0",
		       "--cache-wait", "-o", out, "testdata/fuzz/assimp/walk.smd", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source"));
	test_run_release(&r);
	r = test_animc("build", "--ticks-per-second", "30", "-o", out, "testdata/fuzz/assimp/walk.smd", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 up to date"));
	test_run_release(&r);
	free(dir), free(lib), free(cache), free(out), free(fresh), free(saved);
}

/* Assimp prints complaints of its own while it loads an Ogre --skeleton
 * model.  The model is loaded in the build's process, where nothing took
 * them: a raw line naming no file reached the standard output, under -q
 * too, and the report --report - writes there.  They are warnings about
 * the model now, as a source's importer's text is. */
static void cli_what_assimp_prints_of_a_skeleton_model_names_it(void **state)
{
	char *dir = test_tmpdir("assimp-skeleton-output"), *art = test_format("%s/art", dir);
	char *model = test_format("%s/model", dir), *mesh = test_format("%s/m.mesh.xml", model);
	char *out = test_format("%s/out", dir), *said = test_format("%s: warning: the importer printed: Skeleton", mesh);
	test_run r;

	(void)state;
	mkdir(art, 0755), mkdir(model, 0755);
	test_sh("cp testdata/authoring/Walker.xml '%s/' && cp testdata/assimp_confine/in/inside.mesh.xml '%s' && "
		"cp testdata/assimp_confine/in/inside.skeleton.xml '%s/'", art, mesh, model);
	r = test_animc("build", "-q", "--skeleton", mesh, "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, said));
	assert_null(strstr(r.err, "\nSkeleton"));
	assert_false(strncmp(r.err, "Skeleton", 8) == 0);
	test_run_release(&r);
	r = test_animc("build", "--rebuild", "--report", "-", "--skeleton", mesh, "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	assert_true(r.out[0] == '{');
	assert_null(strstr(r.out, "\nSkeleton"));
	assert_non_null(strstr(r.err, said));
	test_run_release(&r);
	free(dir), free(art), free(model), free(mesh), free(out), free(said);
}

/* A .X model whose skin weights name a vertex far past its mesh's:
 * Assimp 5.2 crashes reading it. */
#define MATRIX_ONE "1.000000,0.000000,0.000000,0.000000,0.000000,1.000000,0.000000,0.000000,0.000000,0.000000," \
		   "1.000000,0.000000,0.000000,0.000000,0.000000,1.000000;;"
static const char crashing_model[] =
	"xof 0303txt 0032\nFrame Root {\n FrameTransformMatrix {\n  " MATRIX_ONE "\n }\n"
	" Frame Bone {\n  FrameTransformMatrix {\n   " MATRIX_ONE "\n  }\n }\n"
	" Mesh Tri {\n  3;\n  0.000000;0.000000;0.000000;,\n  1.000000;0.000000;0.000000;,\n"
	"  0.000000;1.000000;0.000000;;\n  1;\n  3;0,1,2;;\n"
	"  SkinWeights {\n   \"Bone\";\n   2;\n   1,4000000;\n   1.000000,1.000000;\n   " MATRIX_ONE "\n  }\n"
	" }\n}\n";

/* The --skeleton model is loaded in the command's own process, not in a
 * worker as sources are: a model that crashed Assimp ended animc build
 * and animc plot with a segmentation fault, saying nothing.  It is tried
 * in a child first, and fails the command naming the model. */
static void cli_a_skeleton_model_that_crashes_assimp_is_said(void **state)
{
	char *dir = test_tmpdir("assimp-skeleton-crash"), *art = test_format("%s/art", dir);
	char *model = test_format("%s/oob.x", dir), *out = test_format("%s/out", dir);
	char *svg = test_format("%s/walk.svg", dir), *xnb = test_format("%s/compiled", dir);
	char *said = test_format("%s: error: the assimp importer ", model);
	test_run r;

	(void)state;
	mkdir(art, 0755);
	test_sh("cp testdata/authoring/Walker.xml '%s/'", art);
	assert_true(test_write_file(model, crashing_model, strlen(crashing_model)));
	r = test_animc("build", "--skeleton", model, "-o", out, art, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, said) || !strstr(r.err, "this model") || !strstr(r.err, "; nothing built"))
		fail_msg("%s", r.err);
	assert_int_equal(test_file_exists(out) ? test_count_files(out) : 0, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", xnb, art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *compiled = test_format("%s/Walker/Take 001.xnb", xnb), *source = test_format("%s/Walker.xml", art);
	r = test_animc("plot", "--skeleton", model, "--bone", "Bone0", "-o", svg, compiled, source, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, said) || !strstr(r.err, "this model"))
		fail_msg("%s", r.err);
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	free(compiled), free(source);
	free(dir), free(art), free(model), free(out), free(svg), free(xnb), free(said);
}

/* What Assimp prints while it loads the --skeleton model is a warning of
 * the run: it was printed, and nothing else, so the summary said "0
 * warnings" under it, the report had no word of it, and --allow
 * importer-output did not quiet it. */
static void cli_a_skeleton_models_warnings_are_the_runs(void **state)
{
	char *dir = test_tmpdir("assimp-skeleton-warnings"), *art = test_format("%s/art", dir);
	char *model = test_format("%s/model", dir), *mesh = test_format("%s/m.mesh.xml", model);
	char *out = test_format("%s/out", dir), *report = test_format("%s/report.json", dir);
	char *said = test_format("{\"severity\": \"warning\", \"path\": \"%s\", \"message\": \"the importer printed: "
				 "Skeleton", mesh);
	char *text;
	test_run r;

	(void)state;
	mkdir(art, 0755), mkdir(model, 0755);
	test_sh("cp testdata/authoring/Walker.xml '%s/' && cp testdata/assimp_confine/in/inside.mesh.xml '%s' && "
		"cp testdata/assimp_confine/in/inside.skeleton.xml '%s/'", art, mesh, model);
	r = test_animc("build", "--allow", "numbered-bones", "--report", report, "--skeleton", mesh, "-o", out, art,
		       NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "compiled 1 source (2 clips), 0 failed, 0 skipped, 1 warning\n"))
		fail_msg("%s", r.out);
	test_run_release(&r);
	text = (char *)test_read_file(report, NULL);
	if (!strstr(text, said) || !strstr(text, "\"run_warnings\": 1"))
		fail_msg("%s", text);
	free(text);
	r = test_animc("build", "--rebuild", "--allow", "numbered-bones,importer-output", "--skeleton", mesh, "-o",
		       out, art, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "Skeleton"));
	assert_non_null(strstr(r.out, "0 skipped, 0 warnings\n"));
	test_run_release(&r);
	free(dir), free(art), free(model), free(mesh), free(out), free(report), free(said);
}

/* Without a usable /tmp (read-only or full, where tmpfile() fails), what
 * Assimp prints while it loads the --skeleton model was not taken: a raw
 * line on stderr, and no warning naming the model.  It is taken in
 * memory, as the workers take theirs. */
static void cli_a_skeleton_models_text_is_taken_without_tmp(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("assimp-skeleton-no-tmp"), *art = test_format("%s/art", dir);
	char *model = test_format("%s/model", dir), *mesh = test_format("%s/m.mesh.xml", model);
	char *out = test_format("%s/out", dir), *shim = test_format("%s/no_tmpfile.so", dir);
	char *said = test_format("%s: warning: the importer printed: Skeleton", mesh);
	test_run r;

	mkdir(art, 0755), mkdir(model, 0755);
	test_sh("cp testdata/authoring/Walker.xml '%s/' && cp testdata/assimp_confine/in/inside.mesh.xml '%s' && "
		"cp testdata/assimp_confine/in/inside.skeleton.xml '%s/' && "
		"cc -shared -fPIC -o '%s' testdata/env/no_tmpfile.c", art, mesh, model, shim);
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "--report", "-", "--skeleton", mesh, "-o", out, art, NULL);
	unsetenv("LD_PRELOAD");
	assert_int_equal(r.status, 0);
	assert_true(r.out[0] == '{');
	assert_null(strstr(r.out, "\nSkeleton"));
	assert_non_null(strstr(r.err, said));
	assert_false(strncmp(r.err, "Skeleton", 8) == 0);
	assert_null(strstr(r.err, "\nSkeleton"));
	test_run_release(&r);
	free(dir), free(art), free(model), free(mesh), free(out), free(shim), free(said);
}

static void cli_unreadable_file_fails_naming_it(void **state)
{
	char *out = test_tmpdir("assimp-broken");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", out, BROKEN_X, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, BROKEN_X ": error: "));
	assert_int_equal(test_count_files(out), 5);   /* the good file still compiles */
	test_run_release(&r);
	free(out);
}

/* The line Assimp names ("Line 33: ..." from the .X reader, which counts
 * from 0: line 34) leads the message, as every other file's line does. */
static void cli_the_line_assimp_names_leads_the_message(void **state)
{
	char *dir = test_tmpdir("assimp-line"), *cut = test_format("%s/cut.x", dir), *out = test_format("%s/out", dir);
	char *want = test_format("%s:34: error: Assimp cannot read this file: ", cut);
	size_t size;
	uint8_t *bytes = test_read_file(KEYS_X, &size);
	test_run r;

	(void)state;
	assert_true(size > 800);
	assert_true(test_write_file(cut, bytes, 800));   /* ends inside line 34's key */
	r = test_animc("build", "-q", "-o", out, cut, NULL);
	assert_int_equal(r.status, 1);
	if (strncmp(r.err, want, strlen(want)) != 0 || strstr(r.err, "Line "))
		fail_msg("not led by the line: %s", r.err);
	test_run_release(&r);
	free(bytes), free(want), free(out), free(cut), free(dir);
}

static void cli_a_crash_in_assimp_fails_that_file_alone(void **state)
{
	/* Frames nested 200000 deep: Assimp 5.2's .X parser recurses once per
	 * level and overflows the stack (`assimp info` dies of it too).  Each
	 * Assimp source compiles in a child process, so the run goes on. */
	char *dir = test_tmpdir("assimp-crash");
	char *deep = test_format("%s/deep.x", dir);
	char *out = test_format("%s/out", dir);
	const size_t levels = 200000;
	size_t used = 0;
	char *text = malloc(32 + levels * 9);
	test_run r;

	(void)state;
	assert_non_null(text);
	used += (size_t)sprintf(text, "xof 0303txt 0032\n");
	for (size_t i = 0; i < levels; i++, used += 8)
		memcpy(text + used, "Frame f{", 8);
	memset(text + used, '}', levels);
	used += levels;
	assert_true(test_write_file(deep, text, used));
	free(text);
	r = test_animc("build", "-q", "-o", out, deep, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, deep));
	assert_int_equal(test_count_files(out), 5);   /* keys.x, after it */
	test_run_release(&r);
	/* Outputs claimed in a child are known to the next one: a copy of
	 * the source elsewhere, under its name, is refused (the same file
	 * named twice would be built once). */
	char *copy = test_format("%s/keys.x", dir);
	size_t size;
	uint8_t *bytes = test_read_file(KEYS_X, &size);

	assert_true(test_write_file(copy, bytes, size));
	free(bytes);
	r = test_animc("build", "-q", "-o", out, KEYS_X, copy, NULL);
	assert_int_equal(r.status, 1);
	char *owner = test_format("is the output of '%s' in this run", KEYS_X);
	if (!strstr(r.err, owner))
		fail_msg("%s", r.err);
	free(owner);
	assert_int_equal(test_count_files(out), 5);
	test_run_release(&r);
	free(copy);
	free(out);
	free(deep);
	free(dir);
}

static void cli_files_that_crash_assimp_do_not_stop_the_run(void **state)
{
	char **files = test_list_dir("testdata/assimp_crashes", NULL);
	char *out = test_tmpdir("assimp-crashes");
	size_t n = 0;

	(void)state;
	for (char **f = files; *f; f++) {
		char *path = test_format("testdata/assimp_crashes/%s", *f);
		test_run r;

		if (strcmp(*f, "README.md") == 0) {
			free(path);
			continue;
		}
		/* Compiled or failed, but never a killed or a hanging run. */
		r = test_animc("build", "-q", "--import-timeout", "1", "-o", out, path, KEYS_X, NULL);
		if (r.status != 0 && r.status != 1)
			fail_msg("%s: exit %d\n%s", path, r.status, r.err);
		assert_true(test_count_files(out) >= 5);
		test_run_release(&r);
		free(path);
		n++;
		free(out);
		out = test_tmpdir("assimp-crashes");
	}
	assert_true(n >= 3);
	test_free_list(files);
	free(out);
}

/* Two animation sets of one name: both written, the second as Wave.1; and
 * a bind pose of 0 s written as lasting 1/60 s, holding its pose. */
static void cli_clips_sharing_a_name_are_all_written(void **state)
{
	char *out = test_tmpdir("assimp-same-names");
	char *wave = test_format("%s/same_names/Wave.xnb", out);
	char *wave1 = test_format("%s/same_names/Wave.1.xnb", out);
	char *bind = test_format("%s/same_names/Bind.xnb", out);
	test_run r = test_animc("build", "-o", out, "testdata/assimp/same_names.x", NULL);
	float tr[3], ro[4], sc[3];

	(void)state;
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "'Wave.1'"));
	test_run_release(&r);
	animrt_clip *a = open_xnb(wave), *b = open_xnb(wave1), *c = open_xnb(bind);
	/* The first moves along x in 1 s, the second along z in 2 s. */
	assert_true(a->duration_s == 1.0f && b->duration_s == 2.0f);
	animrt_sequence_sample(&a->sequences[0], 0.5f, ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
	test_assert_near(tr[0], 0.5, 1e-6);
	animrt_sequence_sample(&b->sequences[0], 1, ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
	test_assert_near(tr[2], -1, 1e-6);   /* Assimp turns .X's z round */
	test_assert_near(tr[0], 0, 1e-6);
	/* The pose: 1/60 s, its one key, playable. */
	assert_true(c->duration_s == ANIMC_MIN_DURATION_S);
	assert_true(c->sequences[0].key_count == 1 && c->sequences[0].key_interval_s > 0);
	animrt_sequence_sample(&c->sequences[0], 5, ANIMRT_PLAY_REPEAT, NULL, tr, ro, sc);
	test_assert_near(tr[1], 1, 1e-6);
	animrt_close(a);
	animrt_close(b);
	animrt_close(c);
	free(wave);
	free(wave1);
	free(bind);
	free(out);
}

/* --------------------------------------------------------------- corpus */

/* Shortest-arc slerp in double, normalising its inputs. */
static void slerp(const double *a, const double *b, double u, double *out)
{
	double la = 0, lb = 0, dot = 0, sign = 1, w0, w1;

	for (int i = 0; i < 4; i++) {
		la += a[i] * a[i];
		lb += b[i] * b[i];
	}
	la = sqrt(la);
	lb = sqrt(lb);
	for (int i = 0; i < 4; i++)
		dot += a[i] / la * b[i] / lb;
	if (dot < 0) {
		dot = -dot;
		sign = -1;
	}
	if (dot > 0.999999) {
		w0 = 1 - u;
		w1 = u;
	} else {
		double angle = acos(dot), inv = 1 / sin(angle);

		w0 = sin((1 - u) * angle) * inv;
		w1 = sin(u * angle) * inv;
	}
	for (int i = 0; i < 4; i++)
		out[i] = w0 * a[i] / la + sign * w1 * b[i] / lb;
}

/* The compiled clip, sampled by the loader library (the original runtime's
 * rule, checked against the conformance oracle in its own tests). */
static void sample_sequence(const animrt_sequence *s, double t, double tr[3], double rot[4],
			    double sc[3])
{
	float ft[3], fr[4], fs[3];

	animrt_sequence_sample(s, (float)t, ANIMRT_PLAY_ONCE, NULL, ft, fr, fs);
	for (int c = 0; c < 3; c++) {
		tr[c] = ft[c];
		sc[c] = fs[c];
	}
	for (int c = 0; c < 4; c++)
		rot[c] = fr[c];
}

/* Assimp's keys evaluated directly at `tick`: clamped outside them, linear
 * (slerp for rotations) between them. */
static unsigned key_before(const double *times, size_t stride, unsigned n, double tick)
{
	unsigned lo = 0, hi = n;

	/* The last key at or before tick (0 when none). */
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (*(const double *)((const char *)times + stride * mid) <= tick)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void assimp_vector(const struct aiVectorKey *k, unsigned n, double tick, double out[3])
{
	unsigned i = key_before(&k[0].mTime, sizeof *k, n, tick);
	double u = 0;

	if (i + 1 < n && tick > k[i].mTime)
		u = (tick - k[i].mTime) / (k[i + 1].mTime - k[i].mTime);
	const struct aiVector3D *a = &k[i].mValue, *b = i + 1 < n ? &k[i + 1].mValue : a;
	out[0] = a->x + ((double)b->x - a->x) * u;
	out[1] = a->y + ((double)b->y - a->y) * u;
	out[2] = a->z + ((double)b->z - a->z) * u;
}

static void assimp_rotation(const struct aiQuatKey *k, unsigned n, double tick, double out[4])
{
	unsigned i = key_before(&k[0].mTime, sizeof *k, n, tick);
	double u = 0;

	if (i + 1 < n && tick > k[i].mTime)
		u = (tick - k[i].mTime) / (k[i + 1].mTime - k[i].mTime);
	const struct aiQuaternion *a = &k[i].mValue, *b = i + 1 < n ? &k[i + 1].mValue : a;
	const double qa[4] = { a->x, a->y, a->z, a->w }, qb[4] = { b->x, b->y, b->z, b->w };
	slerp(qa, qb, u, out);
}

static double worst_error(const double *got, const double *want, unsigned n, bool either_sign)
{
	double same = 0, opposite = 0;

	for (unsigned i = 0; i < n; i++) {
		same = fmax(same, fabs(got[i] - want[i]));
		opposite = fmax(opposite, fabs(got[i] + want[i]));
	}
	return either_sign ? fmin(same, opposite) : same;
}

static char *safe_name(const char *name, unsigned index)
{
	char *s = name[0] ? test_format("%s", name) : test_format("clip%u", index);

	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || strchr("/\\:*?\"<>|", *p))
			*p = '_';
	return s;
}

/* The largest difference between sequence `s` and Assimp's channel `na`
 * at `t` s (ticks at `rate`). */
static double channel_error(const animrt_sequence *s, const struct aiNodeAnim *na, double rate, double t)
{
	double tick = t * rate, tr[3], rot[4], sc[3], want[4], e;

	sample_sequence(s, t, tr, rot, sc);
	assimp_vector(na->mPositionKeys, na->mNumPositionKeys, tick, want);
	e = worst_error(tr, want, 3, false);
	assimp_rotation(na->mRotationKeys, na->mNumRotationKeys, tick, want);
	e = fmax(e, worst_error(rot, want, 4, true));
	assimp_vector(na->mScalingKeys, na->mNumScalingKeys, tick, want);
	return fmax(e, worst_error(sc, want, 3, false));
}

/* Compile a corpus file and compare every clip, at 33 times, with Assimp's
 * own keys; returns the number of clips checked.  Bone `rebuilt` (or NULL)
 * the importer rebuilds from the file's Euler curves, with keys added
 * where Assimp's slerp leaves them: it is compared at Assimp's keys only,
 * and must have more keys than Assimp gives. */
static unsigned sample_like_assimp(const char *file, const char *stem, const char *rebuilt)
{
	char *src = test_format("%s/assimp/%s", test_corpus_dir(), file);
	char *out = test_tmpdir("assimp-corpus");
	struct aiPropertyStore *props = aiCreatePropertyStore();
	const struct aiScene *scene;
	double worst = 0;
	test_run r;

	r = test_animc("build", "-q", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s: exit %d\n%s", src, r.status, r.err);
	test_run_release(&r);
	aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
	scene = aiImportFileExWithProperties(src, 0, NULL, props);
	aiReleasePropertyStore(props);
	assert_non_null(scene);
	assert_true(scene->mNumAnimations > 0);
	for (unsigned a = 0; a < scene->mNumAnimations; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];
		double rate = anim->mTicksPerSecond;
		char *name = safe_name(anim->mName.data, a);
		char *path = test_format("%s/%s/%s.xnb", out, stem, name);
		animrt_clip *clip = open_xnb(path);

		assert_true(rate > 0);
		/* A clip of 0 s (a bind pose) lasts the least the original runtime loops. */
		double want_s = fmax(anim->mDuration / rate, ANIMC_MIN_DURATION_S);

		if (fabs(clip->duration_s - want_s) > 1e-6 * fmax(1, want_s))
			fail_msg("%s: duration %.9g s, Assimp says %.9g s", path, (double)clip->duration_s,
				 anim->mDuration / rate);
		assert_int_equal(clip->sequence_count, anim->mNumChannels);
		for (unsigned c = 0; c < anim->mNumChannels; c++) {
			const struct aiNodeAnim *na = anim->mChannels[c];
			const animrt_sequence *s;
			bool is_rebuilt = rebuilt && strcmp(na->mNodeName.data, rebuilt) == 0;
			unsigned n = is_rebuilt ? na->mNumRotationKeys : 33;

			assert_null(strstr(na->mNodeName.data, "$AssimpFbx$"));
			s = test_sequence_of(clip, na->mNodeName.data);
			assert_true(s->duration_s == clip->duration_s);
			if (is_rebuilt)
				assert_true(s->key_count > na->mNumRotationKeys);
			for (unsigned k = 0; k < n; k++) {
				double t = is_rebuilt ? na->mRotationKeys[k].mTime / rate : clip->duration_s * k / 32.0;
				double e = channel_error(s, na, rate, t);

				if (!(e <= 1e-4))
					fail_msg("%s: bone '%s' at %.6g s differs from Assimp by %g", path,
						 s->bone, t, e);
				worst = fmax(worst, e);
			}
		}
		animrt_close(clip);
		free(path);
		free(name);
	}
	print_message("%s: %u clip%s agree with Assimp's keys (worst difference %.2g)\n", file,
		      scene->mNumAnimations, scene->mNumAnimations == 1 ? "" : "s", worst);
	unsigned count = scene->mNumAnimations;
	aiReleaseImport(scene);
	free(out);
	free(src);
	return count;
}

static void corpus_x_clips_sample_like_assimp(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	assert_int_equal(sample_like_assimp("anim_test.x", "anim_test", NULL), 1);
	assert_int_equal(sample_like_assimp("Testwuson.X", "Testwuson", NULL), 3);
}

static void corpus_fbx_clips_sample_like_assimp(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	assert_int_equal(sample_like_assimp("animation_with_skeleton.fbx", "animation_with_skeleton", NULL), 1);
	/* Its Bone.006 turns about two axes at once between keys, in curves
	 * compressed with zlib. */
	assert_int_equal(sample_like_assimp("huesitos.fbx", "huesitos", "Bone.006"), 1);
}

static void corpus_bvh_clip_samples_like_assimp(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	assert_int_equal(sample_like_assimp("01_01.bvh", "01_01", NULL), 1);
}

/* A BVH whose MOTION has no frames: Assimp states its duration as
 * frames - 1 in an unsigned int, 2^32 - 1 ticks; an error, not a clip of
 * decades. */
static void a_bvh_of_no_frames_fails(void **state)
{
	char *dir = test_tmpdir("bvh-no-frames"), *bvh = test_format("%s/f0.bvh", dir);
	char *out = test_format("%s/out", dir);
	static const char text[] = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition "
				   "Zposition Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 5 0\n  }\n}\n"
				   "MOTION\nFrames: 0\nFrame Time: 0.5\n";
	test_run r;

	(void)state;
	assert_true(test_write_file(bvh, text, strlen(text)));
	r = test_animc("build", "-q", "-o", out, bvh, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "f0.bvh:12: error: the MOTION section has no frames (Frames: 0)"));
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	free(out), free(bvh), free(dir);
}

/* Write `text` as the source `path` and build it into `out`: exit 0. */
static void write_and_build(const char *path, const char *text, const char *out)
{
	test_run r;

	assert_true(test_write_file(path, text, strlen(text)));
	r = test_animc("build", "-q", "-o", out, path, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
}

/* Keys out of time order starting after 0 (.X: tick 50, then 25): the
 * key animc adds at 0 took the first listed value, so the clip ran from
 * (1,2,3) where the file holds (5,5,5), its earliest key, until 0.25 s;
 * and the key at 0.5 s, past Assimp's duration (its last listed key), was
 * cut off.  The earliest key is held, and the clip lasts to its last key. */
static void keys_out_of_order_hold_the_earliest(void **state)
{
	char *dir = test_tmpdir("x-unsorted"), *x = test_format("%s/t.x", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/t/move.xnb", out);
	static const char text[] = "xof 0303txt 0032\nAnimTicksPerSecond {\n 100;\n}\nFrame Root {\n "
				   "FrameTransformMatrix {\n  1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,"
				   "1.0;;\n }\n Frame Hand {\n  FrameTransformMatrix {\n   1.0,0.0,0.0,0.0,0.0,1.0,0.0,"
				   "0.0,0.0,0.0,1.0,0.0,0.0,2.0,0.0,1.0;;\n  }\n }\n}\nAnimationSet move {\n Animation {\n"
				   "  { Hand }\n  AnimationKey {\n   2;\n   2;\n   50;3;1.0,2.0,3.0;;,\n"
				   "   25;3;5.0,5.0,5.0;;;\n  }\n }\n}\n";
	test_run r;

	(void)state;
	write_and_build(x, text, out);
	r = test_animc("sample", "--json", "--time", "0", "--time", "0.125", "--time", "0.5", xnb, NULL);
	assert_int_equal(r.status, 0);
	/* .X is left-handed: z turns. */
	const char *at = strstr(r.out, "\"translation\": [5, 5, -5]");
	if (!at || !(at = strstr(at + 1, "\"translation\": [5, 5, -5]")) || !strstr(at + 1, "\"translation\": [1, 2, -3]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(xnb), free(out), free(x), free(dir);
}

/* A COLLADA file whose <library_animation_clips> names clips A and B:
 * Assimp 5.2.5 reads none of them and gives one take of both bones, which
 * was written with no word of the clips.  Said, at the element's line. */
static void collada_clips_not_read_are_said(void **state)
{
	char *dir = test_tmpdir("dae-clips"), *out = test_format("%s/out", dir), *cr = test_format("%s/cr.dae", dir);
	size_t size;
	char *bytes = (char *)test_read_file("testdata/assimp/clips.dae", &size);
	test_run r = test_animc("build", "-o", out, "testdata/assimp/clips.dae", NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "testdata/assimp/clips.dae:26: warning: <library_animation_clips> is not read: Assimp takes "
			   "the file's animations as one take, not as the clips it names; cut them out of it with "
			   "--split or a STEM_Anims.xml sidecar, at their <animation_clip> start and end [unknown-element]"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	/* Its lines ended by a lone CR: the warning said line 1. */
	for (size_t i = 0; i < size; i++)
		if (bytes[i] == '\n')
			bytes[i] = '\r';
	assert_true(test_write_file(cr, bytes, size));
	r = test_animc("build", "-o", out, cr, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "cr.dae:26: warning: <library_animation_clips> is not read"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(cr), free(bytes), free(out), free(dir);
}

/* The take cut as that warning advises, by --split or by a sidecar: the
 * warning stayed, and --warnings-as-errors failed the source although the
 * user did what it asked. */
static void collada_clips_cut_as_advised_are_not_said(void **state)
{
	static const char sidecar_text[] =
		"<?xml version=\"1.0\"?>\n<XnaContent xmlns:Pipeline=\"SkinnedModelPipeline\">\n"
		"<Asset Type=\"Pipeline:AnimationDefinition\">\n<originalClipName>animation</originalClipName>\n"
		"<originalFrameCount>2</originalFrameCount>\n<ClipParts>\n"
		"<Item><ClipName>clipA</ClipName><StartFrame>0</StartFrame><EndFrame>1</EndFrame></Item>\n"
		"</ClipParts>\n</Asset>\n</XnaContent>\n";
	char *dir = test_tmpdir("dae-clips-cut"), *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *dae = test_format("%s/clips.dae", src), *sidecar = test_format("%s/clips_Anims.xml", src);
	char *a = test_format("%s/clips/clipA.xnb", out), *b = test_format("%s/clips/clipB.xnb", out);
	uint8_t *bytes;
	size_t size;
	test_run r;

	(void)state;
	r = test_animc("build", "--warnings-as-errors", "--split", "clipA=0:1", "--split", "clipB=0:2", "-o", out,
		       "testdata/assimp/clips.dae", NULL);
	if (r.status != 0 || strstr(r.err, "unknown-element") || strstr(r.err, "warning"))
		fail_msg("status %d: %s", r.status, r.err);
	assert_true(test_file_exists(a));
	assert_true(test_file_exists(b));
	test_run_release(&r);
	/* A sidecar beside it: in a folder build, and named. */
	assert_int_equal(mkdir(src, 0777), 0);
	bytes = test_read_file("testdata/assimp/clips.dae", &size);
	assert_true(test_write_file(dae, bytes, size));
	free(bytes);
	assert_true(test_write_file(sidecar, sidecar_text, strlen(sidecar_text)));
	for (int named = 0; named < 2; named++) {
		char *to = test_format("%s/out%d", dir, named), *part = test_format("%s/clips/clipA.xnb", to);

		r = test_animc("build", "--warnings-as-errors", "-o", to, named ? dae : src, NULL);
		if (r.status != 0 || strstr(r.err, "unknown-element") || strstr(r.err, "warning"))
			fail_msg("%s: status %d: %s", named ? "named" : "folder", r.status, r.err);
		assert_true(test_file_exists(part));
		test_run_release(&r);
		free(part), free(to);
	}
	free(a), free(b), free(sidecar), free(dae), free(src), free(out), free(dir);
}

/* AnimTicksPerSecond -100 in a .X: Assimp reads the DWORD as 4294967196,
 * and the keys landed nanoseconds apart, the clip then stretched to a
 * frame with a warning about the exporter's frame range.  A rate past a
 * million ticks a second is taken for none: the .X default, said so. */
static void an_absurd_tick_rate_is_taken_for_none(void **state)
{
	char *dir = test_tmpdir("x-rate"), *x = test_format("%s/t.x", dir), *out = test_format("%s/out", dir);
	static const char text[] = "xof 0303txt 0032\nAnimTicksPerSecond {\n -100;\n}\nFrame Hand {\n "
				   "FrameTransformMatrix {\n  1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,"
				   "1.0;;\n }\n}\nAnimationSet move {\n Animation {\n  { Hand }\n  AnimationKey {\n"
				   "   2;\n   2;\n   0;3;1.0,2.0,3.0;;,\n   4800;3;5.0,5.0,5.0;;;\n  }\n }\n}\n";
	test_run r;

	(void)state;
	assert_true(test_write_file(x, text, strlen(text)));
	r = test_animc("build", "-o", out, x, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "t.x: warning: clip 'move': the file declares 4.29497e+09 (not a rate) ticks per second; "
			   "assumed 4800") || !strstr(r.out, "(1 bone, 1 s,"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(out), free(x), free(dir);
}

/* An .md5anim's frames are at its frameRate: Assimp 5.2.5 says 24 a
 * second whatever the file says, and a clip of frameRate 2 lasted 1/24 s
 * (a 30 or 60 fps clip 1.25 or 2.5 times too long). */
static void an_md5_clip_plays_at_its_frame_rate(void **state)
{
	char *dir = test_tmpdir("md5-rate"), *md5 = test_format("%s/m.md5anim", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/m/clip0.xnb", out);
	static const char text[] = "MD5Version 10\ncommandline \"frameRate 30\"\n\nnumFrames 2\nnumJoints 1\n"
				   "frameRate 2\nnumAnimatedComponents 3\n\nhierarchy {\n\t\"root\"\t-1 7 0\n}\n\n"
				   "bounds {\n\t( -1 -1 -1 ) ( 1 1 1 )\n\t( -1 -1 -1 ) ( 1 1 1 )\n}\n\n"
				   "baseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n}\n\nframe 0 {\n\t 0 0 0\n}\n\n"
				   "frame 1 {\n\t 1 2 3\n}\n";
	test_run r;

	(void)state;
	write_and_build(md5, text, out);
	r = test_animc("sample", "--json", "--time", "0.25", xnb, NULL);
	assert_int_equal(r.status, 0);
	/* Halfway from frame 0 (0 s) to frame 1 (0.5 s). */
	if (!strstr(r.out, "\"translation\": [0.5, 1, 1.5]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(xnb), free(out), free(md5), free(dir);
}

/* A joint of flags 0 after the last animated one (its startIndex past the
 * frame's values, as exporters write it) holds its base frame: Assimp 5.2.5
 * gives it no keys, then one of the origin, and the bone stood at (0,0,0)
 * unturned, exit 0. */
static void an_md5_joint_past_the_frame_values_holds_its_base_frame(void **state)
{
	char *dir = test_tmpdir("md5-still"), *md5 = test_format("%s/m.md5anim", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/m/clip0.xnb", out);
	static const char text[] = "MD5Version 10\ncommandline \"\"\n\nnumFrames 2\nnumJoints 3\nframeRate 24\n"
				   "numAnimatedComponents 3\n\nhierarchy {\n\t\"origin\"\t-1 7 0\t// root\n"
				   "\t\"child\"\t0 0 3\n\t\"tip\"\t1 0 3\n}\n\nbounds {\n\t( 0 0 0 ) ( 1 1 1 )\n"
				   "\t( 0 0 0 ) ( 1 1 1 )\n}\n\nbaseframe {\n\t( 5 5 5 ) ( 0 0 0 )\n"
				   "\t( 0 1 0 ) ( 0.5 0 0 )\n\t(0 0 2) (0 0.6 0)\n}\n\nframe 0 {\n\t0 0 0\n}\n"
				   "frame 1 {\n\t1 1 1\n}\n";
	static const char *const want[] = {
		"\"bone\": \"child\", \"translation\": [0, 1, 0], \"rotation\": [0.5, 0, 0, -0.866025",
		"\"bone\": \"tip\", \"translation\": [0, 0, 2], \"rotation\": [0, 0.6, 0, -0.8]",
	};
	test_run r;

	(void)state;
	write_and_build(md5, text, out);
	r = test_animc("sample", "--json", "--time", "0.02", xnb, NULL);
	assert_int_equal(r.status, 0);
	for (size_t i = 0; i < 2; i++)
		if (!strstr(r.out, want[i]))
			fail_msg("no %s in\n%s%s", want[i], r.out, r.err);
	test_run_release(&r);
	free(xnb), free(out), free(md5), free(dir);
}

/* A BVH frame line with a value too many (or too few): Assimp reads the
 * values as one stream, so every later frame was shifted into other
 * channels, with exit 0 (Hips at 7,7,1 where the file says 1,2,3).  The
 * line is named, and nothing is written. */
static void a_bvh_frame_of_other_values_is_named(void **state)
{
	static const char *const frames[] = { "0 0 0 0 0 0 7\n1 2 3 0 0 0\n", "0 0 0 0 0\n1 2 3 0 0 0 0\n" };
	static const char *const said[] = { "b.bvh:14: error: this frame holds 7 values, but the hierarchy's CHANNELS "
					    "add up to 6: each frame is one line of them",
					    "b.bvh:14: error: this frame holds 5 values" };
	char *dir = test_tmpdir("bvh-line"), *bvh = test_format("%s/b.bvh", dir), *out = test_format("%s/out", dir);

	(void)state;
	for (int i = 0; i < 2; i++) {
		char *text = test_format("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition "
					 "Zposition Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 1 0\n"
					 "  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.0333333\n%s", frames[i]);
		test_run r;

		assert_true(test_write_file(bvh, text, strlen(text)));
		r = test_animc("build", "-q", "-o", out, bvh, NULL);
		if (r.status != 1 || !strstr(r.err, said[i]))
			fail_msg("exit %d\n%s", r.status, r.err);
		assert_int_equal(test_count_files(out), 0);
		test_run_release(&r);
		free(text);
	}
	free(out), free(bvh), free(dir);
}

/* A BVH whose Frames: is no count, or more frames than its values hold:
 * the error names the count, where Assimp made room for 2^32 - 1 frames
 * (or two billion) and the import "ran out of memory". */
static void a_bvh_frame_count_past_its_frames_is_named(void **state)
{
	static const struct { const char *frames, *error; } cases[] = {
		{ "-1", "b.bvh:12: error: Frames: -1 is not a frame count" },
		{ "2000000000", "b.bvh:12: error: Frames: 2000000000, but the MOTION section holds 12 values, "
				"2 frames of 6 channels" },
		{ "3", "b.bvh:12: error: Frames: 3, but the MOTION section holds 12 values, 2 frames of 6 channels" },
		{ "0", "b.bvh:12: error: Frames: 0, but the MOTION section holds 2 frames of 6 channels: give their "
		       "count" },
		{ "2", NULL },
		{ "1", "b.bvh:12: warning: Frames: 1, but the MOTION section holds 2 frames of 6 channels: the last "
		       "frame is not read [wrong-frame-count]" },
	};
	char *dir = test_tmpdir("bvh-frames"), *bvh = test_format("%s/b.bvh", dir);
	char *out = test_format("%s/out", dir), *xnb = test_format("%s/b/Motion.xnb", out);

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition "
					 "Zposition Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 1 0\n"
					 "  }\n}\nMOTION\nFrames: %s\nFrame Time: 0.0333333\n0 0 0 0 0 0\n"
					 "1 1 1 1 1 1\n", cases[i].frames);
		test_run r;

		assert_true(test_write_file(bvh, text, strlen(text)));
		r = test_animc("build", "-q", "-o", out, bvh, NULL);
		if (cases[i].error && strstr(cases[i].error, ": warning: ")) {
			/* Read as far as it says: the clip is written, one frame long. */
			assert_int_equal(r.status, 0);
			if (!strstr(r.err, cases[i].error))
				fail_msg("Frames: %s: %s", cases[i].frames, r.err);
			assert_true(test_file_exists(xnb));
		} else if (cases[i].error) {
			assert_int_equal(r.status, 1);
			if (!strstr(r.err, cases[i].error))
				fail_msg("Frames: %s: %s", cases[i].frames, r.err);
			assert_false(test_file_exists(xnb));
		} else {
			assert_int_equal(r.status, 0);
			assert_true(test_file_exists(xnb));
		}
		test_run_release(&r);
		free(text);
	}
	free(xnb), free(out), free(bvh), free(dir);
}

/* A channel naming a frame the file does not have (a typo) compiles, with
 * a warning naming the bone; the other channel's frame exists. */
static void a_channel_of_no_frame_warns(void **state)
{
	char *dir = test_tmpdir("x-ghost"), *x = test_format("%s/ghost.x", dir), *out = test_format("%s/out", dir);
	static const char text[] =
		"xof 0303txt 0032\nAnimTicksPerSecond {\n 10;\n}\n"
		"Frame Root {\n FrameTransformMatrix {\n  1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;\n }\n"
		" Frame Arm {\n  FrameTransformMatrix {\n   1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;\n  }\n }\n}\n"
		"AnimationSet wave {\n"
		" Animation {\n  { Arm }\n  AnimationKey {\n   2;\n   2;\n   0;3;0.0,1.0,0.0;;,\n   10;3;5.0,1.0,0.0;;;\n  }\n }\n"
		" Animation {\n  { Armm }\n  AnimationKey {\n   2;\n   2;\n   0;3;0.0,1.0,0.0;;,\n   10;3;5.0,1.0,0.0;;;\n  }\n }\n"
		"}\n";
	test_run r;

	(void)state;
	assert_true(test_write_file(x, text, strlen(text)));
	r = test_animc("build", "-q", "-o", out, x, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "ghost.x: warning: clip 'wave': bone 'Armm': no node of the file's hierarchy has this "
			   "name (a typo?): a skeleton read from the file has no such bone"))
		fail_msg("%s", r.err);
	assert_null(strstr(r.err, "bone 'Arm':"));
	test_run_release(&r);
	free(out), free(x), free(dir);
}

/* An FBX curve whose key times repeat: Assimp's reader logs "the keyframes
 * are not in ascending order" and goes on without the curve, so the file
 * held no animation and was skipped in a folder, exit 0 (and with other
 * curves beside it, the bone held its rest value).  The source fails,
 * naming the line Assimp names. */
static void an_fbx_curve_assimp_drops_fails_the_file(void **state)
{
	char *dir = test_tmpdir("fbx-dropped"), *fbx = test_format("%s/dup.fbx", dir), *out = test_format("%s/out", dir);
	char *text = fbx_text("0,23093079000,23093079000,46186158000", "0,10,15,20", 4, 6, "46186158000");
	test_run r;

	(void)state;
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, dir, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "dup.fbx:32: error: Assimp left part of this file out: ") ||
	    !strstr(r.err, "the keyframes are not in ascending order"))
		fail_msg("%s%s", r.out, r.err);
	/* Assimp's warnings (no Definitions block here) are not shown. */
	assert_null(strstr(r.err, "Definitions"));
	test_run_release(&r);
	free(text), free(out), free(fbx), free(dir);
}

/* `text` with every LF a CR LF: a new string. */
static char *crlf(const char *text)
{
	char *out = malloc(2 * strlen(text) + 1), *o = out;

	assert_non_null(out);
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			*o++ = '\r';
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

/* Assimp's FBX reader counts a CR LF as two lines: the error of a curve
 * on line 32 of a file written with CR LF (as Windows exporters write)
 * was said at line 63.  The real line, in the position and the text. */
static void an_fbx_error_of_a_crlf_file_names_its_line(void **state)
{
	char *dir = test_tmpdir("fbx-crlf"), *fbx = test_format("%s/crlf.fbx", dir), *out = test_format("%s/out", dir);
	char *lf = fbx_text("0,23093079000,23093079000,46186158000", "0,10,15,20", 4, 6, "46186158000");
	char *text = crlf(lf);
	test_run r;

	(void)state;
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, fbx, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "crlf.fbx:32: error: Assimp left part of this file out: FBX-DOM (TOK_KEY, line 32, "
			   "col 16) the keyframes are not in ascending order"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(text), free(lf), free(out), free(fbx), free(dir);
}

/* fbx_text(...) of a 1 s take with a mesh beside the bone: a triangle of
 * `vertices` (9 floats) and no material, as Blender writes one. */
static char *fbx_with_mesh(const char *vertices, unsigned count)
{
	char *text = fbx_text("0,46186158000", "0,10", 2, 6, "46186158000"), *mesh;
	char *objects = strstr(text, "Objects:  {\n") + 12, *connections = strstr(text, "Connections:  {\n") + 16;

	mesh = test_format("%.*s\tGeometry: 500, \"Geometry::Tri\", \"Mesh\" {\n\t\tVertices: *%u {\n\t\t\ta: %s\n"
			   "\t\t}\n\t\tPolygonVertexIndex: *3 {\n\t\t\ta: 0,1,-3\n\t\t}\n\t\tGeometryVersion: 124\n\t}\n"
			   "\tModel: 501, \"Model::TriMesh\", \"Mesh\" {\n\t\tVersion: 232\n\t}\n%.*s"
			   "\tC: \"OO\", 501, 0\n\tC: \"OO\", 500, 501\n%s",
			   (int)(objects - text), text, count, vertices, (int)(connections - objects), objects,
			   connections);
	free(text);
	return mesh;
}

/* Assimp logs at error level, and goes on, about parts of a file that
 * hold no keys: a mesh without material failed the whole source (exit 1,
 * nothing written), with no --allow for it.  Now a warning of its own
 * kind, at the line Assimp names; the take is written.  A mesh Assimp
 * cannot build (its vertices not in threes) is such a part too: the
 * object is found where the message points, a Geometry. */
static void an_assimp_error_of_no_animation_warns(void **state)
{
	char *dir = test_tmpdir("fbx-mesh"), *fbx = test_format("%s/walk.fbx", dir), *out = test_format("%s/out", dir);
	char *text = fbx_with_mesh("0,0,0,1,0,0,0,1,0", 9);
	test_run r;

	(void)state;
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, fbx, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "walk.fbx: warning: Assimp reported an error about a part of this file that holds no "
			   "animation: FBX: no material assigned to mesh, setting default material [assimp-error]") ||
	    !strstr(r.out, "(1 bone, 1 s,"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", out, "--allow", "assimp-error", "--warnings-as-errors", fbx, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "warning"));
	test_run_release(&r);
	free(text);
	text = fbx_with_mesh("0,0,0,1,0,0,0,1", 8);
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, fbx, NULL);
	assert_int_equal(r.status, 0);
	/* Line 14, Vertices: of the Geometry. */
	if (!strstr(r.err, "walk.fbx:14: warning: Assimp reported an error about a part of this file that holds "
			   "no animation: FBX-Parser (TOK_KEY, line 14, col 17) number of floats is not a multiple "
			   "of three (3) [assimp-error]") ||
	    !strstr(r.out, "(1 bone, 1 s,"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(text), free(out), free(fbx), free(dir);
}

/*
 * A static model in an art folder: an OBJ naming a material it does not
 * have, a LightWave object with a procedural texture, an FBX whose
 * material assignment Assimp does not read.  Assimp logs these at error
 * level; taken as errors that may cost keys, each failed the folder's
 * build (exit 1), where the same model without them is skipped as holding
 * no animation.  An OBJ holds no animation at all, and a material
 * assignment no keys: each is an assimp-error warning, the OBJ skipped,
 * the FBX's take written.
 */
static void a_static_model_assimp_logs_an_error_for_is_skipped(void **state)
{
	char *dir = test_tmpdir("static-error"), *art = test_format("%s/art", dir), *out = test_format("%s/out", dir);
	char *obj = test_format("%s/prop.obj", art), *fbx = test_format("%s/walk.fbx", art);
	char *text = fbx_with_mesh("0,0,0,1,0,0,0,1,0", 9), *at = strstr(text, "\t\tGeometryVersion: 124\n");
	char *layered;
	test_run r;

	(void)state;
	assert_non_null(at);
	layered = test_format("%.*s\t\tLayerElementMaterial: 0 {\n\t\t\tVersion: 101\n"
			      "\t\t\tMappingInformationType: \"NoMappingInformation\"\n"
			      "\t\t\tReferenceInformationType: \"IndexToDirect\"\n\t\t\tMaterials: *1 {\n\t\t\t\ta: 0\n"
			      "\t\t\t}\n\t\t}\n\t\tLayer: 0 {\n\t\t\tVersion: 100\n\t\t\tLayerElement:  {\n"
			      "\t\t\t\tType: \"LayerElementMaterial\"\n\t\t\t\tTypedIndex: 0\n\t\t\t}\n\t\t}\n%s",
			      (int)(at - text), text, at);
	assert_int_equal(mkdir(art, 0755), 0);
	assert_true(test_write_file(fbx, layered, strlen(layered)));
	static const char prop[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Missing\nf 1 2 3\n";

	assert_true(test_write_file(obj, prop, sizeof prop - 1));
	r = test_animc("build", "--progress", "never", "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "prop.obj: warning: Assimp reported an error about a part of this file that holds no "
			   "animation: OBJ: failed to locate material Missing, creating new material") ||
	    !strstr(r.err, "walk.fbx: warning: Assimp reported an error about a part of this file that holds no "
			   "animation: FBX: ignoring material assignments, access type not implemented: "
			   "NoMappingInformation,IndexToDirect") ||
	    !strstr(r.out, "compiled 1 source (1 clip), 0 failed, 1 skipped, 2 warnings"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(layered), free(text), free(fbx), free(obj), free(out), free(art), free(dir);
}

/* Assimp 5.2 reads no COLLADA number after spaces in a material's colour
 * (a valid file: its animation whole) and fails the file quoting the text,
 * "Cannot parse string \"  0.0 ...\"", with no line: the artist searched
 * the file for it.  The error names the line the text is on. */
static void an_unread_number_is_said_at_its_line(void **state)
{
	static const char dae[] =
		"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
		"<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
		"  <asset><up_axis>Y_UP</up_axis></asset>\n"
		"  <library_effects><effect id=\"fx\"><profile_COMMON><technique sid=\"common\"><phong>\n"
		"    <emission>\n"
		"      <color>  0.0 0.0 0.0 1.0  </color>\n"
		"    </emission>\n"
		"  </phong></technique></profile_COMMON></effect></library_effects>\n"
		"  <library_visual_scenes><visual_scene id=\"scene\"><node id=\"Box\" name=\"Box\"/>\n"
		"  </visual_scene></library_visual_scenes>\n"
		"  <scene><instance_visual_scene url=\"#scene\"/></scene>\n"
		"</COLLADA>\n";
	char *dir = test_tmpdir("dae-number"), *path = test_format("%s/box.dae", dir), *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	assert_true(test_write_file(path, dae, sizeof dae - 1));
	r = test_animc("build", "-o", out, path, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "box.dae:6: error: Assimp cannot read this file: Cannot parse string \"  0.0 0.0 0.0 "
			   "1.0  \" as a real number"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(out), free(path), free(dir);
}

/* A binary FBX whose first compressed KeyValueFloat array (an animation
 * curve) will not inflate: Assimp logs "Failure decompressing this file
 * using gzip." and goes on with other numbers in the curve.  Sorted as an
 * error about a part that holds no animation, it was a warning, and the
 * take was written off by up to 0.43 in a quaternion component.  The
 * source fails, naming the curve and its array. */
static void a_curve_that_will_not_inflate_fails_the_source(void **state)
{
	static const char key[] = "KeyValueFloat";
	char *dir = test_tmpdir("fbx-inflate"), *fbx = test_format("%s/curve.fbx", dir), *out = test_format("%s/out", dir);
	char *src;
	size_t size, p = 0;
	uint8_t *d;
	test_run r;

	(void)state;
	TEST_NEEDS_CORPUS();
	src = test_format("%s/assimp/huesitos.fbx", test_corpus_dir());
	d = test_read_file(src, &size);
	assert_non_null(d);
	for (;;) {
		uint8_t *at = memmem(d + p, size - p, key, sizeof key - 1);
		uint32_t encoding, compressed;

		assert_non_null(at);
		p = (size_t)(at - d) + sizeof key - 1;
		memcpy(&encoding, d + p + 5, 4);
		memcpy(&compressed, d + p + 9, 4);
		if (d[p] == 'f' && encoding == 1) {
			/* The zlib header kept, its deflate data spoiled. */
			for (size_t k = p + 15; k < p + 13 + compressed - 4; k++)
				d[k] ^= 0x55;
			break;
		}
	}
	assert_true(test_write_file(fbx, d, size));
	r = test_animc("build", "-o", out, fbx, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "curve.fbx: error: bone 'Bone.005': its Lcl Rotation X curve (AnimationCurve 174435044): its "
			   "KeyValueFloat array (at byte 61488) declares 40 values, but its compressed data does not "
			   "inflate"))
		fail_msg("%s", r.err);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	free(d), free(src), free(out), free(fbx), free(dir);
}

/* FBX time modes Assimp 5.2 does not know (15 to 18: 96, 72, 59.94 and
 * 119.88 fps) it takes for the default mode, rate 1 and keys in seconds:
 * --split frames were taken at 1 fps, and Run=60f:90f of a 59.94 fps take
 * lasted 30 s.  The file's own time mode gives the frames; the default
 * mode (0), which names no rate, refuses frames. */
static void an_fbx_time_mode_assimp_does_not_know_gives_the_frames(void **state)
{
	char *dir = test_tmpdir("fbx-mode"), *fbx = test_format("%s/take.fbx", dir), *out = test_format("%s/out", dir);
	char *text = fbx_text("0,4618615800000", "0,100", 2, 17, "4618615800000");
	test_run r;

	(void)state;
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, "--split", "Run=60f:90f", fbx, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "(1 bone, 0.5005 s,"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(text);
	text = fbx_text("0,4618615800000", "0,100", 2, 0, "4618615800000");
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, "--split", "Run=60f:90f", fbx, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "take 'Take 001' has no known frame rate"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", out, "--split", "Run=1:1.5", fbx, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(text), free(out), free(fbx), free(dir);
}

/* The time mode of an ASCII FBX whose lines end in a lone CR (which
 * Assimp reads): the property line ran to the file's last comma, and
 * TimeMode 17 (59.94 fps) was not found: a --split in frames was refused,
 * saying the file names no rate.  Read as with LF. */
static void an_fbx_time_mode_on_a_cr_line_is_read(void **state)
{
	char *dir = test_tmpdir("fbx-mode-cr"), *fbx = test_format("%s/take.fbx", dir), *out = test_format("%s/out", dir);
	char *text = fbx_text("0,4618615800000", "0,100", 2, 17, "4618615800000");
	test_run r;

	(void)state;
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = '\r';
	assert_true(test_write_file(fbx, text, strlen(text)));
	r = test_animc("build", "-o", out, "--split", "Run=60f:90f", fbx, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "(1 bone, 0.5005 s,"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(text), free(out), free(fbx), free(dir);
}

/* An FBX of TimeMode 14 (custom) whose CustomFrameRate is no rate: Assimp
 * turns KTimes into frames at it with no check, so NaN gave NaN key times
 * (the whole take failed on them, but a --split part was written of
 * fixed keys, exit 0) and 0 every key at 0 (a 1/60 s pose, exit 0).  An
 * error naming the rate, with --split or without; 30 reads.  One missing,
 * or an "int" Assimp does not read, is said so, not as the -1 Assimp puts
 * in its place (the file holds no -1). */
static void an_fbx_custom_frame_rate_of_no_rate_fails(void **state)
{
	static const char *const rates[] = { "nan", "0", "-5", NULL, "int" };
	char *dir = test_tmpdir("fbx-custom"), *fbx = test_format("%s/c.fbx", dir), *out = test_format("%s/out", dir);
	char *base = fbx_text("0,46186158000", "0,10", 2, 14, "46186158000"), *text;
	char *at = strstr(base, "\t}\n}\nObjects");
	test_run r;

	(void)state;
	for (size_t i = 0; i <= sizeof rates / sizeof rates[0]; i++) {
		const char *rate = i < sizeof rates / sizeof rates[0] ? rates[i] : "30";

		if (!rate)
			text = test_format("%s", base);
		else if (strcmp(rate, "int") == 0)
			text = test_format("%.*s\t\tP: \"CustomFrameRate\", \"int\", \"Integer\", \"\",25\n%s",
					   (int)(at - base), base, at);
		else
			text = test_format("%.*s\t\tP: \"CustomFrameRate\", \"double\", \"Number\", \"\",%s\n%s",
					   (int)(at - base), base, rate, at);
		assert_true(test_write_file(fbx, text, strlen(text)));
		for (int split = 0; split < 2; split++) {
			if (split)
				r = test_animc("build", "-o", out, "--split", "A=0:0.5", fbx, NULL);
			else
				r = test_animc("build", "-o", out, fbx, NULL);
			if (!rate || strcmp(rate, "int") == 0) {
				assert_int_equal(r.status, 1);
				if (!strstr(r.err, "c.fbx: error: the file's TimeMode is 14 (custom) and it gives no "
						   "CustomFrameRate Assimp reads (a \"double\" property holding a positive "
						   "number)") || strstr(r.err, "-1"))
					fail_msg("%s%s", r.out, r.err);
			} else if (strcmp(rate, "30") == 0) {
				assert_int_equal(r.status, 0);
				if (!strstr(r.out, split ? "(1 bone, 0.5 s," : "(1 bone, 1 s,"))
					fail_msg("%s%s", r.out, r.err);
			} else {
				char *want = test_format("c.fbx: error: the file's TimeMode is 14 (custom) and its "
							 "CustomFrameRate, %s, is not a frame rate", rate);

				assert_int_equal(r.status, 1);
				if (!strstr(r.err, want))
					fail_msg("%s%s", r.out, r.err);
				free(want);
			}
			test_run_release(&r);
		}
		free(text);
	}
	free(base), free(out), free(fbx), free(dir);
}

/* Lines ended by a lone CR (classic Mac tools, old Poser exports), which
 * Assimp reads: a BVH was refused by animc's own frame check (every frame
 * on "line 1"), and an .md5anim's frameRate, looked for at the start of a
 * line, was not found (the clip played at 24 fps).  Both as with LF. */
static void cr_line_ends_are_line_ends(void **state)
{
	char *dir = test_tmpdir("cr-lines"), *bvh = test_format("%s/cr.bvh", dir), *md5 = test_format("%s/m.md5anim", dir);
	char *out = test_format("%s/out", dir), *bvh_xnb = test_format("%s/cr/Motion.xnb", out);
	char *md5_xnb = test_format("%s/m/clip0.xnb", out);
	static const char bvh_text[] = "HIERARCHY\rROOT Hips\r{\r OFFSET 0 0 0\r CHANNELS 6 Xposition Yposition "
				       "Zposition Zrotation Xrotation Yrotation\r End Site\r {\r  OFFSET 0 1 0\r }\r}\r"
				       "MOTION\rFrames: 2\rFrame Time: 0.5\r0 0 0 0 0 0\r10 0 0 0 0 0\r";
	static const char md5_text[] = "MD5Version 10\rcommandline \"\"\r\rnumFrames 2\rnumJoints 1\r"
				       "frameRate 2\rnumAnimatedComponents 3\r\rhierarchy {\r\t\"root\"\t-1 7 0\r}\r\r"
				       "bounds {\r\t( -1 -1 -1 ) ( 1 1 1 )\r\t( -1 -1 -1 ) ( 1 1 1 )\r}\r\r"
				       "baseframe {\r\t( 0 0 0 ) ( 0 0 0 )\r}\r\rframe 0 {\r\t 0 0 0\r}\r\r"
				       "frame 1 {\r\t 1 2 3\r}\r";
	test_run r;

	(void)state;
	write_and_build(bvh, bvh_text, out);
	r = test_animc("sample", "--json", "--time", "0.25", bvh_xnb, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "\"translation\": [5, 0, 0]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	write_and_build(md5, md5_text, out);
	r = test_animc("sample", "--json", "--time", "0.25", md5_xnb, NULL);
	assert_int_equal(r.status, 0);
	/* Halfway from frame 0 (0 s) to frame 1 (0.5 s), at frameRate 2. */
	if (!strstr(r.out, "\"translation\": [0.5, 1, 1.5]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(md5_xnb), free(bvh_xnb), free(out), free(md5), free(bvh), free(dir);
}

/* Stepped keys (COLLADA STEP, FBX constant interpolation): Assimp 5.2
 * keeps no interpolation, and they were compiled as linear with no word.
 * Those read from the file are held, unsaid (COLLADA STEP keys, FBX
 * constant keys whose flags cover the keys, KeyAttrRefCount); the others
 * are said, at the first of them; linear keys are not. */
static void stepped_keys_are_said(void **state)
{
	char *dir = test_tmpdir("stepped"), *dae = test_format("%s/s.dae", dir), *fbx = test_format("%s/c.fbx", dir);
	char *out = test_format("%s/out", dir), *text = fbx_text("0,46186158000", "0,10", 2, 6, "46186158000");
	char *stepped = test_format("%.*s\t\tKeyAttrFlags: *1 {\n\t\t\ta: 2\n\t\t}\n%s",
				    (int)(strstr(text, "\t}\n}\nConnections") - text), text,
				    strstr(text, "\t}\n}\nConnections"));
	size_t size;
	char *bytes = (char *)test_read_file("testdata/assimp/clips.dae", &size), *at;
	test_run r;

	(void)state;
	/* The second sampler's INTERPOLATION (Arm's). */
	at = strstr(strstr(bytes, "a2-na"), "LINEAR LINEAR");
	memcpy(at, "STEP   STEP  ", 13);
	assert_true(test_write_file(dae, bytes, size));
	assert_true(test_write_file(fbx, stepped, strlen(stepped)));
	r = test_animc("build", "-o", out, dae, fbx, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.err, "STEP keys") ||
	    !strstr(r.err, "c.fbx:38: warning: clip 'Take 001': bone 'Hips': its Lcl Translation X curve has "
			   "constant (stepped) keys, which are read as linear") ||
	    !strstr(r.err, "[stepped-keys]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	/* Arm held at its first key (0 1 0) up to 2 s: 2 1 0 when linear. */
	char *dae_xnb = test_format("%s/s/animation.xnb", out);
	r = test_animc("sample", "--json", "--time", "1", dae_xnb, NULL);
	if (!strstr(r.out, "\"bone\": \"Arm\", \"translation\": [0, 1, 0]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(dae_xnb);
	for (int held = 0; held < 2; held++) {
		char *counted = test_format("%.*s\t\tKeyAttrFlags: *1 {\n\t\t\ta: 2\n\t\t}\n"
					    "\t\tKeyAttrRefCount: *1 {\n\t\t\ta: 2\n\t\t}\n%s",
					    (int)(strstr(text, "\t}\n}\nConnections") - text), text,
					    strstr(text, "\t}\n}\nConnections"));
		char *xnb = test_format("%s/c/Take 001.xnb", out);

		assert_true(test_write_file(fbx, held ? counted : text, strlen(held ? counted : text)));
		r = test_animc("build", "-o", out, "testdata/assimp/clips.dae", fbx, NULL);
		assert_int_equal(r.status, 0);
		assert_null(strstr(r.err, "[stepped-keys]"));
		test_run_release(&r);
		/* Halfway between keys 0 and 10: held at 0, or linear. */
		r = test_animc("sample", "--json", "--time", "0.5", xnb, NULL);
		if (!strstr(r.out, held ? "\"translation\": [0, 0, 0]" : "\"translation\": [5, 0, 0]"))
			fail_msg("%s%s", r.out, r.err);
		test_run_release(&r);
		free(xnb), free(counted);
	}
	free(bytes), free(stepped), free(text), free(out), free(fbx), free(dae), free(dir);
}

/* `text` with its first `from` replaced by `to` (a new string). */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	assert_non_null(at);
	return test_format("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* A COLLADA channel whose target Assimp cannot resolve (a sid its node
 * lacks, a node id the scene lacks) was left out by Assimp without a word
 * in its log: the clip lost the bone, exit 0, nothing said even with -v.
 * Said at the channel's line; a node an <instance_node> places, whose keys
 * Assimp drops though the bone is there, fails the source. */
static void collada_channels_assimp_leaves_out_are_said(void **state)
{
	static const char arm[] = "  <node id=\"Arm\" name=\"Arm\" sid=\"Arm\" type=\"JOINT\"><translate sid=\"location\">0 1 "
				  "0</translate></node>\n";
	static const struct {
		const char *from, *to, *said;
	} cases[] = {
		{ "target=\"Root/location\"", "target=\"Root/locatio\"",
		  "c.dae:13: warning: channel target 'Root/locatio': node 'Root' has no transform of sid 'locatio' (a "
		  "typo?); left out, and the clip has none of its keys" },
		{ "target=\"Root/location\"", "target=\"Rooot/location\"",
		  "c.dae:13: warning: channel target 'Rooot/location': no node of the scene has the id 'Rooot' (a "
		  "typo?); left out" },
		{ "target=\"Root/location\"", "target=\"Root/x/location\"",
		  "c.dae:13: warning: channel target 'Root/x/location': Assimp reads a target of one node id and one "
		  "transform sid (NODE/SID) only; left out" },
	};
	static const char *const kinds[] = { "[unknown-target-path]", "[unknown-node]", "[unknown-target-path]" };
	char *dir = test_tmpdir("dae-lost"), *dae = test_format("%s/c.dae", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/c/animation.xnb", out), *bytes = (char *)test_read_file("testdata/assimp/clips.dae", NULL);
	test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *text = replaced(bytes, cases[i].from, cases[i].to);

		assert_true(test_write_file(dae, text, strlen(text)));
		r = test_animc("build", "-o", out, dae, NULL);
		if (r.status != 0 || !strstr(r.out, "(1 bone, 2 s,") || !strstr(r.err, cases[i].said) ||
		    !strstr(strstr(r.err, cases[i].said), kinds[i]))
			fail_msg("case %zu: status %d: %s%s", i, r.status, r.out, r.err);
		test_run_release(&r);
		free(text);
	}
	/* Arm from <library_nodes>, placed under Root by an <instance_node>. */
	char *library = test_format("<library_nodes>\n%s</library_nodes>\n<library_visual_scenes>", arm);
	char *placed = replaced(bytes, arm, " <instance_node url=\"#Arm\"/>\n");
	char *inst = replaced(placed, "<library_visual_scenes>", library);

	assert_true(test_write_file(dae, inst, strlen(inst)));
	assert_int_equal(remove(xnb), 0);
	r = test_animc("build", "-o", out, dae, NULL);
	if (r.status != 1 || !strstr(r.err, "c.dae:23: error: channel target 'Arm/location': node 'Arm' is placed by "
				 "an <instance_node>, whose nodes Assimp does not animate"))
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	assert_false(test_file_exists(xnb));
	test_run_release(&r);
	/* A member chosen by one index: Assimp keyed member 0 whatever the
	 * index (location(1) moved X), exit 0.  Member 0 itself reads right. */
	char *member = replaced(bytes, "target=\"Root/location\"", "target=\"Root/location(1)\"");
	assert_true(test_write_file(dae, member, strlen(member)));
	r = test_animc("build", "-o", out, dae, NULL);
	if (r.status != 1 || !strstr(r.err, "c.dae:13: error: channel target 'Root/location(1)': Assimp reads a member "
				 "chosen by one index as member 0") || !strstr(r.err, "target it as 'Root/location.Y'"))
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	assert_false(test_file_exists(xnb));
	test_run_release(&r);
	free(member);
	member = replaced(bytes, "target=\"Root/location\"", "target=\"Root/location(0)\"");
	assert_true(test_write_file(dae, member, strlen(member)));
	r = test_animc("build", "-o", out, dae, NULL);
	if (r.status != 0 || strstr(r.err, "channel target"))
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(member);
	/* The file as it is: nothing said of its channels. */
	r = test_animc("build", "-v", "-o", out, "testdata/assimp/clips.dae", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "channel target"));
	test_run_release(&r);
	free(inst), free(placed), free(library), free(bytes), free(xnb), free(out), free(dae), free(dir);
}

/* A <channel> in a COLLADA comment (a take kept for reference) was taken
 * for a channel: a warning of a node no scene has, and one naming a node
 * an <instance_node> places failed the source, exit 1, nothing written.
 * Comments, CDATA and processing instructions hold no channels. */
static void collada_channels_in_comments_are_no_channels(void **state)
{
	static const char prop[] = "<library_nodes><node id=\"Prop\" name=\"Prop\"><translate sid=\"location\">0 0 "
				   "1</translate></node></library_nodes>\n<library_visual_scenes>";
	static const char notes[] = "<!-- old take: <channel source=\"#x\" target=\"Old/thing\"/> -->\n"
				    "<!-- was: <channel source=\"#a1-s\" target=\"Prop/location\"/> -->\n"
				    "<?note <channel source=\"#a1-s\" target=\"Prop/location\"/> ?>\n"
				    "<library_animations>";
	char *dir = test_tmpdir("dae-comment"), *dae = test_format("%s/c.dae", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/c/animation.xnb", out), *bytes = (char *)test_read_file("testdata/assimp/clips.dae", NULL);
	char *library = replaced(bytes, "<library_visual_scenes>", prop);
	char *placed = replaced(library, "0 1 0</translate></node>", "0 1 0</translate><instance_node url=\"#Prop\"/></node>");
	char *noted = replaced(placed, "<library_animations>", notes);
	/* And in a CDATA section of an <extra>, after the real channels. */
	char *text = replaced(noted, "</library_animations>",
			      "<extra><technique profile=\"x\"><![CDATA[<channel source=\"#a1-s\" "
			      "target=\"Prop/location\"/>]]></technique></extra>\n</library_animations>");
	test_run r;

	(void)state;
	assert_true(test_write_file(dae, text, strlen(text)));
	r = test_animc("build", "-v", "-o", out, dae, NULL);
	if (r.status != 0 || strstr(r.err, "channel target"))
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	assert_true(test_file_exists(xnb));
	test_run_release(&r);
	/* A real channel after them is still said. */
	char *real = replaced(text, "target=\"Arm/location\"", "target=\"Prop/location\"");

	assert_true(test_write_file(dae, real, strlen(real)));
	r = test_animc("build", "-o", out, dae, NULL);
	if (r.status != 1 || !strstr(r.err, "error: channel target 'Prop/location': node 'Prop' is placed by an "
				 "<instance_node>"))
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(real), free(text), free(noted), free(placed), free(library), free(bytes), free(xnb), free(out), free(dae),
		free(dir);
}

/* Each COLLADA scan reads markup alone: an element commented out (or in
 * CDATA, or a processing instruction) changed what was said.  A node of
 * the channel's id in a comment was taken for the node (a false warning of
 * a sid it lacks), a STEP array, a clip library or a sampler's INPUT of a
 * jump in one was warned of, and a </library_nodes> in one hid that a node
 * is an <instance_node>'s: its keys were lost with exit 0. */
static void collada_scans_skip_comments(void **state)
{
	static const struct {
		const char *from[2], *to[2], *unsaid;
	} cases[] = {
		{ { "<library_visual_scenes>" },
		  { "<!-- <node id=\"Arm\" name=\"Arm\"></node> -->\n<library_visual_scenes>" }, "channel target" },
		{ { "<library_animations>" },
		  { "<!-- <Name_array id=\"old\" count=\"1\">STEP</Name_array> -->\n<library_animations>" }, "STEP keys" },
		{ { "LINEAR LINEAR</Name_array>" }, { "LINEAR LINEAR<!-- was STEP STEP --></Name_array>" }, "STEP keys" },
		{ { "<library_animation_clips>", "</library_animation_clips>" },
		  { "<!--<library_animation_clips>", "</library_animation_clips>-->" }, "<library_animation_clips>" },
		{ { " <channel source=\"#a2-s\"" },
		  { " <source id=\"jt\"><float_array id=\"jt-a\" count=\"3\">0 1 1</float_array></source>\n"
		    " <?old <input semantic=\"INPUT\" source=\"#jt\"/> ?>\n <channel source=\"#a2-s\"" }, "one time twice" },
	};
	static const char prop[] = "<library_nodes><!-- </library_nodes> --><node id=\"Prop\" name=\"Prop\"><translate "
				   "sid=\"location\">0 0 1</translate></node></library_nodes>\n<library_visual_scenes>";
	char *dir = test_tmpdir("dae-markup"), *dae = test_format("%s/c.dae", dir), *out = test_format("%s/out", dir);
	char *bytes = (char *)test_read_file("testdata/assimp/clips.dae", NULL);
	test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *once = replaced(bytes, cases[i].from[0], cases[i].to[0]);
		char *text = cases[i].from[1] ? replaced(once, cases[i].from[1], cases[i].to[1]) : strdup(once);

		assert_true(test_write_file(dae, text, strlen(text)));
		r = test_animc("build", "-v", "-o", out, dae, NULL);
		if (r.status != 0 || strstr(r.err, cases[i].unsaid))
			fail_msg("case %zu: status %d: %s%s", i, r.status, r.out, r.err);
		test_run_release(&r);
		free(text), free(once);
	}
	/* Prop in <library_nodes>, placed by an <instance_node>, its keys lost. */
	char *library = replaced(bytes, "<library_visual_scenes>", prop);
	char *placed = replaced(library, "0 1 0</translate></node>", "0 1 0</translate><instance_node url=\"#Prop\"/></node>");
	char *text = replaced(placed, "target=\"Arm/location\"", "target=\"Prop/location\"");

	assert_true(test_write_file(dae, text, strlen(text)));
	r = test_animc("build", "-o", out, dae, NULL);
	if (r.status != 1 || !strstr(r.err, "error: channel target 'Prop/location': node 'Prop' is placed by an "
				 "<instance_node>"))
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(text), free(placed), free(library), free(bytes), free(out), free(dae), free(dir);
}

/* A script or note that mentions FBX's first block name in its first
 * bytes was claimed as ASCII FBX, and failed the folder's build (exit 1)
 * where a file no importer recognises is skipped. */
static void a_note_naming_fbx_blocks_is_not_fbx(void **state)
{
	char *dir = test_tmpdir("fbx-note"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *note = test_format("%s/export_notes.py", in), *fbx = test_format("%s/walk.fbx", in);
	char *text = fbx_text("0,46186158000", "0,10", 2, 6, "46186158000");
	/* An ASCII FBX may open with other comments than "; FBX". */
	char *commented = test_format("; exported by the pipeline\n\n%s", strstr(text, "FBXHeaderExtension:"));
	static const char script[] = "# writes ASCII FBX\n# the first block is FBXHeaderExtension:\n"
				     "HEADER = \"FBXHeaderExtension:  {\"\n";
	test_run r;

	(void)state;
	assert_int_equal(mkdir(in, 0777), 0);
	assert_true(test_write_file(note, script, strlen(script)));
	assert_true(test_write_file(fbx, commented, strlen(commented)));
	r = test_animc("build", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "compiled 1 source (1 clip), 0 failed, 1 skipped"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(commented), free(text), free(fbx), free(note), free(out), free(in), free(dir);
}

/* An ASCII FBX without the "; FBX" comment line, under a name that is not
 * .fbx: claimed by its content, then handed to Assimp by its path, which
 * picked a reader by content, DXF ("no data blocks loaded"), exit 1.  It
 * is read as FBX, as under walk.fbx. */
static void an_fbx_named_otherwise_is_read_as_fbx(void **state)
{
	char *dir = test_tmpdir("fbx-named"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *anim = test_format("%s/walk_fbx.anim", in), *text = fbx_text("0,46186158000", "0,10", 2, 6, "46186158000");
	const char *bare = strstr(text, "FBXHeaderExtension:");
	test_run r;

	(void)state;
	assert_int_equal(mkdir(in, 0777), 0);
	assert_true(test_write_file(anim, bare, strlen(bare)));
	r = test_animc("build", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "walk_fbx/Take 001.xnb (1 bone, 1 s,"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(text), free(anim), free(out), free(in), free(dir);
}

/* Root's translation at 1 s in the compiled clip OUT/walk/NAME is `want`. */
static void expect_translation(const char *out, const char *name, const char *want)
{
	char *xnb = test_format("%s/walk/%s", out, name);
	char *line = test_format("{\"bone\": \"Root\", \"translation\": [%s]", want);
	test_run r = test_animc("sample", "--json", "--time", "1", xnb, NULL);

	assert_int_equal(r.status, 0);
	if (!strstr(r.out, line))
		fail_msg("%s: want %s in %s%s", xnb, line, r.out, r.err);
	test_run_release(&r);
	free(line), free(xnb);
}

/* --root-motion's default up axis is the one the file declares, COLLADA's
 * <up_axis> and FBX's UpAxis: Assimp leaves the keys as the file has them
 * (it turns a COLLADA scene's root node, Root's parent).  A Z-up COLLADA
 * walk kept its travel along y in the clip and gave its height to the
 * motion, as if y were up.  Root goes from (0,0,0) to (1,2,3) in 1 s; a
 * --split part keeps its take's axis; --up-axis still decides. */
static void root_motion_takes_the_up_axis_a_file_declares(void **state)
{
	static const struct {
		const char *axis, *motion, *clip;
	} cases[] = {
		{ "Y_UP", "1, 0, 3", "0, 2, 0" },
		{ "Z_UP", "1, 2, 0", "0, 0, 3" },
		{ "X_UP", "0, 2, 3", "1, 0, 0" },
	};
	char *dir = test_tmpdir("declared-up"), *dae = test_format("%s/walk.dae", dir), *out = test_format("%s/out", dir);
	char *fbx = test_format("%s/walk.fbx", dir), *text = fbx_text("0,46186158000", "0,10", 2, 6, "46186158000");
	char *motion = test_format("%s/walk/Take 001.motion.xnb", out);
	char *x_up = test_format("%.*s\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\", 0\n%s",
				 (int)(strstr(text, "\t}\n}\nObjects") - text), text, strstr(text, "\t}\n}\nObjects"));
	size_t size;
	char *bytes = (char *)test_read_file("testdata/assimp/clips.dae", &size);
	const char *up = strstr(bytes, "<up_axis>Y_UP</up_axis>");
	test_run r;

	(void)state;
	assert_non_null(up);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *doc = test_format("%.*s<up_axis>%s</up_axis>%s", (int)(up - bytes), bytes, cases[i].axis,
					up + strlen("<up_axis>Y_UP</up_axis>"));

		assert_true(test_write_file(dae, doc, strlen(doc)));
		r = test_animc("build", "-q", "--root-motion", "Root", "-o", out, dae, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		expect_translation(out, "animation.motion.xnb", cases[i].motion);
		expect_translation(out, "animation.xnb", cases[i].clip);
		free(doc);
	}
	/* The last file, X up: a part of it, and --up-axis over it. */
	r = test_animc("build", "-q", "--split", "A=0:1", "--root-motion", "Root", "-o", out, dae, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	expect_translation(out, "A.motion.xnb", "0, 2, 3");
	r = test_animc("build", "-q", "--root-motion", "Root", "--up-axis", "y", "-o", out, dae, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	expect_translation(out, "animation.motion.xnb", "1, 0, 3");
	/* FBX: X up keeps the travel along x in the clip; no UpAxis is Y. */
	for (int declared = 0; declared < 2; declared++) {
		const char *doc = declared ? x_up : text;

		assert_true(test_write_file(fbx, doc, strlen(doc)));
		r = test_animc("build", "-q", "--root-motion", "Hips", "-o", out, fbx, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		r = test_animc("sample", "--json", "--time", "1", motion, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, declared ? "\"translation\": [0, 0, 0]" : "\"translation\": [10, 0, 0]"))
			fail_msg("UpAxis %s: %s", declared ? "0" : "none", r.out);
		test_run_release(&r);
	}
	free(bytes), free(x_up), free(motion), free(text), free(fbx), free(out), free(dae), free(dir);
}

/* An .X key at a negative tick: Assimp reads key times as unsigned, so
 * -15 became 4294967281 and the clip lasted 4.5 years, exit 0, with only
 * a keys-out-of-order warning.  An error naming clip, bone and key. */
static void an_x_key_before_0_fails(void **state)
{
	char *dir = test_tmpdir("x-negative"), *x = test_format("%s/walk.x", dir), *out = test_format("%s/out", dir);
	static const char text[] = "xof 0303txt 0032\nAnimTicksPerSecond {\n 30;\n}\nFrame Hips {\n "
				   "FrameTransformMatrix {\n  1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,1.0,2.0,3.0,"
				   "1.0;;\n }\n}\nAnimationSet Walk {\n Animation {\n  {Hips}\n  AnimationKey {\n   2;\n"
				   "   3;\n   -15;3;-10.0,0.0,0.0;;,\n   0;3;0.0,0.0,0.0;;,\n   30;3;20.0,0.0,0.0;;;\n"
				   "  }\n }\n}\n";
	test_run r;

	(void)state;
	assert_true(test_write_file(x, text, strlen(text)));
	r = test_animc("build", "-o", out, x, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "walk.x: error: clip 'Walk': bone 'Hips': a key at tick 4294967281, which is -15 wrapped"))
		fail_msg("%s%s", r.out, r.err);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	free(out), free(x), free(dir);
}

/* A COLLADA jump, two keys at one time: Assimp's reader evaluates the
 * channel at each time and keeps the first value, silently, where the
 * other formats keep the later one with a shared-key-time warning.  Said,
 * at the key times' line; a file without one is not. */
static void a_collada_jump_is_said(void **state)
{
	char *dir = test_tmpdir("dae-jump"), *dae = test_format("%s/j.dae", dir), *out = test_format("%s/out", dir);
	size_t size;
	char *bytes = (char *)test_read_file("testdata/assimp/clips.dae", &size), *at;
	test_run r;

	(void)state;
	at = strstr(bytes, "count=\"2\">0 2</float_array>");
	memcpy(at + 10, "2", 1);   /* a2's times 2 2, line 16 */
	assert_true(test_write_file(dae, bytes, size));
	r = test_animc("build", "-o", out, dae, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "j.dae:16: warning: these key times hold one time twice (a jump)") ||
	    !strstr(r.err, "[shared-key-time]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", out, "testdata/assimp/clips.dae", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "[shared-key-time]"));
	test_run_release(&r);
	free(bytes), free(out), free(dae), free(dir);
}

/* A COLLADA file of `count` one-channel animations of 50 keys each,
 * every sampler's times its own source, or (`shared`) the first
 * animation's: a new string. */
static char *dae_of_samplers(unsigned count, bool shared)
{
	size_t cap = (size_t)count * 2400 + 4096, used = 0;
	char *s = malloc(cap), times[512] = "", values[1024] = "";

	assert_non_null(s);
	for (int i = 0, n = 0, m = 0; i < 50; i++) {
		n += snprintf(times + n, sizeof times - (size_t)n, "%s%g", i ? " " : "", i / 30.0);
		m += snprintf(values + m, sizeof values - (size_t)m, "%s%g 0 0", i ? " " : "", i * 0.01);
	}
	used += (size_t)snprintf(s + used, cap - used, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<COLLADA xmlns="
				 "\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n<asset><unit "
				 "name=\"meter\" meter=\"1\"/><up_axis>Y_UP</up_axis></asset>\n<library_animations>\n");
	for (unsigned b = 0; b < count; b++) {
		used += (size_t)snprintf(s + used, cap - used, "<animation id=\"a%u\">\n", b);
		if (!shared || b == 0)
			used += (size_t)snprintf(s + used, cap - used, " <source id=\"t%u\"><float_array id=\"t%u-a\" "
						 "count=\"50\">%s</float_array><technique_common><accessor source="
						 "\"#t%u-a\" count=\"50\" stride=\"1\"><param name=\"TIME\" type=\"float\"/>"
						 "</accessor></technique_common></source>\n", b, b, times, b);
		used += (size_t)snprintf(s + used, cap - used, " <source id=\"o%u\"><float_array id=\"o%u-a\" "
					 "count=\"150\">%s</float_array><technique_common><accessor source=\"#o%u-a\" "
					 "count=\"50\" stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" "
					 "type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common>"
					 "</source>\n <sampler id=\"s%u\"><input semantic=\"INPUT\" source=\"#t%u\"/>"
					 "<input semantic=\"OUTPUT\" source=\"#o%u\"/></sampler>\n <channel source=\"#s%u\" "
					 "target=\"N%u/location\"/>\n</animation>\n", b, b, values, b, b, shared ? 0 : b, b, b,
					 b);
	}
	used += (size_t)snprintf(s + used, cap - used, "</library_animations><library_visual_scenes><visual_scene id=\"S\">\n");
	for (unsigned b = 0; b < count; b++)
		used += (size_t)snprintf(s + used, cap - used, " <node id=\"N%u\" name=\"N%u\" sid=\"N%u\" type=\"JOINT\">"
					 "<translate sid=\"location\">0 0 0</translate></node>\n", b, b, b);
	used += (size_t)snprintf(s + used, cap - used, "</visual_scene></library_visual_scenes><scene>"
				 "<instance_visual_scene url=\"#S\"/></scene></COLLADA>\n");
	assert_true(used < cap);
	return s;
}

static double seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The COLLADA jump scan looked up each sampler's time source from its
 * <animation> to the file's end, and again from its start, over every
 * id: samplers sharing a source defined earlier (legal, and the smaller
 * file) cost two whole-file scans each: 22 s of CPU for 8000 against
 * 3.6 s with a source each.  Now as fast as the file of own sources. */
static void collada_samplers_sharing_a_source_build_as_fast(void **state)
{
	char *dir = test_tmpdir("dae-shared"), *own = test_format("%s/own.dae", dir);
	char *shared = test_format("%s/shared.dae", dir), *out = test_format("%s/out", dir);
	char *own_text = dae_of_samplers(2000, false), *shared_text = dae_of_samplers(2000, true);
	double at, own_s, shared_s;
	test_run r;

	(void)state;
	assert_true(test_write_file(own, own_text, strlen(own_text)));
	assert_true(test_write_file(shared, shared_text, strlen(shared_text)));
	at = seconds_now();
	r = test_animc("build", "-j", "1", "-o", out, own, NULL);
	own_s = seconds_now() - at;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	at = seconds_now();
	r = test_animc("build", "-j", "1", "-o", out, shared, NULL);
	shared_s = seconds_now() - at;
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "(2000 bones,"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	print_message("own sources %.2f s, one shared source %.2f s\n", own_s, shared_s);
	assert_true(shared_s < 2 * own_s + 0.5);
	free(shared_text), free(own_text), free(out), free(shared), free(own), free(dir);
}

/* Run from a folder that holds, by chance, a file of the relative name a
 * source writes (sub/inside.skeleton.xml), where Assimp's reader looks
 * first: nothing is said of it.  It was warned of as a file outside the
 * source's folder, and --warnings-as-errors failed the build there and
 * not elsewhere; the skeleton beside the source was read all along. */
static void cli_a_file_of_the_working_folder_is_not_said(void **state)
{
	char *dir = test_tmpdir("assimp-cwd"), *real = realpath(dir, NULL), *animc = realpath(test_animc_path(), NULL);
	char *mesh = test_format("%s/m/in.mesh.xml", real), *sub = test_format("%s/m/sub", real);
	char *command = test_format("cd '%s/cwd' && '%s' build --warnings-as-errors --allow importer-output -o out '%s'",
				    real, animc, mesh);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' '%s/cwd/sub' && sed 's|name=\"inside.skeleton\"|name=\"sub/inside.skeleton\"|' "
		"testdata/assimp_confine/in/inside.mesh.xml > '%s' && "
		"cp testdata/assimp_confine/in/inside.skeleton.xml '%s/' && "
		"cp testdata/assimp_confine/outside.skeleton.xml '%s/cwd/sub/inside.skeleton.xml'", sub, real, mesh, sub,
		real);
	r = test_exec("sh", "-c", command, NULL);
	if (r.status != 0 || strstr(r.err, "file-not-read") || !strstr(r.out, "[InsideTake]"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(dir), free(real), free(animc), free(mesh), free(sub), free(command);
}

/* A folder of the source's swapped for a symbolic link that leads out of
 * it between the check of where a file the source names lies and its
 * open (another process writing the folder; the stand-in swaps it right
 * after each check and puts it back after each open): the Ogre skeleton
 * is not read through the link.  It was: the clip of the skeleton outside
 * the folders given was compiled. */
static void cli_a_folder_swapped_for_a_link_is_not_read_through_it(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("assimp-swap"), *real = realpath(dir, NULL), *shim = test_format("%s/swap.so", dir);
	char *mesh = test_format("%s/m/in.mesh.xml", real), *out = test_format("%s/out", dir);
	char *sub = test_format("%s/m/sub", real), *to = test_format("%s/secret/sub", real);
	char *said = test_format("warning: '%s/inside.skeleton.xml' resolves to '%s/inside.skeleton.xml', outside the "
				 "source's folder: not read", sub, to);
	test_run r;

	test_sh("mkdir -p '%s' '%s' && sed 's|name=\"inside.skeleton\"|name=\"sub/inside.skeleton\"|' "
		"testdata/assimp_confine/in/inside.mesh.xml > '%s' && "
		"cp testdata/assimp_confine/in/inside.skeleton.xml '%s/' && "
		"cp testdata/assimp_confine/outside.skeleton.xml '%s/inside.skeleton.xml' && "
		"cc -shared -fPIC -o '%s' testdata/env/swap_after_realpath.c -ldl", sub, to, mesh, sub, to, shim);
	r = test_animc("build", "-o", out, mesh, NULL);
	if (r.status != 0 || !strstr(r.out, "[InsideTake]"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	setenv("SWAP_FOLDER", sub, 1), setenv("SWAP_TO", to, 1), setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "--rebuild", "-o", out, mesh, NULL);
	unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO");
	if (r.status != 1 || strstr(r.out, "OutsideTake") || !strstr(r.err, said))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(dir), free(real), free(shim), free(mesh), free(out), free(sub), free(to), free(said);
}

/* A frame of --split counts from the take's start, frame 0 its first
 * frame, as docs/build.md says and every format does: a .csm numbered
 * from $FirstFrame 5 and an SMD whose frames start at 5 (x = the file's
 * frame number) cut at 2f start at the file's frame 7, 3f is frame 8. */
static void split_frames_count_from_the_take_start(void **state)
{
	char *dir = test_tmpdir("split-first-frame"), *csm = test_format("%s/take.csm", dir);
	char *smd = test_format("%s/walk.smd", dir), *out = test_format("%s/out", dir);
	char *xnb[2] = { test_format("%s/take/P.xnb", out), test_format("%s/walk/P.xnb", out) };
	const char *at[2] = { "0.0333333333", "0.04" };   /* frame 3f: at 30 and (assumed) 25 a second */
	test_run r;

	(void)state;
	test_sh("{ printf '$FirstFrame 5\\n$LastFrame 15\\n$Rate 30\\n$Order\\nA\\n$Points\\n'; "
		"for i in $(seq 5 15); do echo \"$i $i.0 2.0 3.0\"; done; } > '%s' && "
		"{ printf 'version 1\\nnodes\\n0 \"A\" -1\\nend\\nskeleton\\n'; for i in $(seq 5 15); do "
		"printf 'time %%d\\n0 %%d.0 2.0 3.0 0 0 0\\n' $i $i; done; echo end; } > '%s'", csm, smd);
	r = test_animc("build", "-q", "--split", "P=2f:4f", "-o", out, csm, smd, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int k = 0; k < 2; k++) {
		r = test_animc("sample", "--json", "--time", "0", "--time", at[k], xnb[k], NULL);
		if (r.status != 0 || !strstr(r.out, "\"translation\": [7, 2, 3]") ||
		    !strstr(r.out, "\"translation\": [8, 2, 3]"))
			fail_msg("%s: exit %d\n%s%s", xnb[k], r.status, r.out, r.err);
		test_run_release(&r);
	}
	free(xnb[0]), free(xnb[1]), free(out), free(smd), free(csm), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(split_frames_count_from_the_take_start),
	cmocka_unit_test(cli_a_file_of_the_working_folder_is_not_said),
	cmocka_unit_test(cli_a_folder_swapped_for_a_link_is_not_read_through_it),
	cmocka_unit_test(a_collada_jump_is_said),
	cmocka_unit_test(collada_samplers_sharing_a_source_build_as_fast),
	cmocka_unit_test(an_x_key_before_0_fails),
	cmocka_unit_test(root_motion_takes_the_up_axis_a_file_declares),
	cmocka_unit_test(a_note_naming_fbx_blocks_is_not_fbx),
	cmocka_unit_test(an_fbx_named_otherwise_is_read_as_fbx),
	cmocka_unit_test(stepped_keys_are_said),
	cmocka_unit_test(cr_line_ends_are_line_ends),
	cmocka_unit_test(an_fbx_time_mode_assimp_does_not_know_gives_the_frames),
	cmocka_unit_test(an_fbx_custom_frame_rate_of_no_rate_fails),
	cmocka_unit_test(an_fbx_time_mode_on_a_cr_line_is_read),
	cmocka_unit_test(an_fbx_curve_assimp_drops_fails_the_file),
	cmocka_unit_test(an_assimp_error_of_no_animation_warns),
	cmocka_unit_test(a_static_model_assimp_logs_an_error_for_is_skipped),
	cmocka_unit_test(an_unread_number_is_said_at_its_line),
	cmocka_unit_test(a_curve_that_will_not_inflate_fails_the_source),
	cmocka_unit_test(an_fbx_error_of_a_crlf_file_names_its_line),
	cmocka_unit_test(a_bvh_of_no_frames_fails),
	cmocka_unit_test(a_bvh_frame_of_other_values_is_named),
	cmocka_unit_test(an_md5_clip_plays_at_its_frame_rate),
	cmocka_unit_test(an_md5_joint_past_the_frame_values_holds_its_base_frame),
	cmocka_unit_test(keys_out_of_order_hold_the_earliest),
	cmocka_unit_test(an_absurd_tick_rate_is_taken_for_none),
	cmocka_unit_test(collada_clips_not_read_are_said),
	cmocka_unit_test(collada_clips_cut_as_advised_are_not_said),
	cmocka_unit_test(collada_channels_assimp_leaves_out_are_said),
	cmocka_unit_test(collada_channels_in_comments_are_no_channels),
	cmocka_unit_test(collada_scans_skip_comments),
	cmocka_unit_test(a_bvh_frame_count_past_its_frames_is_named),
	cmocka_unit_test(a_channel_of_no_frame_warns),
	cmocka_unit_test(cli_unknown_clip_lists_the_clips),
	cmocka_unit_test(cli_ticks_per_second_changes_durations),
	cmocka_unit_test(cli_ticks_per_second_leaves_seconds_alone),
	cmocka_unit_test(cli_ticks_per_second_must_be_a_positive_number),
	cmocka_unit_test(cli_static_model_skipped_in_a_folder_fails_given),
	cmocka_unit_test(cli_unreadable_file_fails_naming_it),
	cmocka_unit_test(cli_an_smd_animation_list_added_later_is_read),
	cmocka_unit_test(cli_a_depfile_leaves_out_the_files_not_found),
	cmocka_unit_test(cli_a_skeleton_models_side_file_is_a_dependency),
	cmocka_unit_test(cli_another_assimp_loaded_compiles_again),
	cmocka_unit_test(cli_what_assimp_prints_of_a_skeleton_model_names_it),
	cmocka_unit_test(cli_a_skeleton_model_that_crashes_assimp_is_said),
	cmocka_unit_test(cli_a_skeleton_models_warnings_are_the_runs),
	cmocka_unit_test(cli_a_skeleton_models_text_is_taken_without_tmp),
	cmocka_unit_test(cli_a_crash_in_assimp_fails_that_file_alone),
	cmocka_unit_test(cli_the_line_assimp_names_leads_the_message),
	cmocka_unit_test(cli_files_that_crash_assimp_do_not_stop_the_run),
	cmocka_unit_test(cli_clips_sharing_a_name_are_all_written),
	cmocka_unit_test(corpus_x_clips_sample_like_assimp),
	cmocka_unit_test(corpus_fbx_clips_sample_like_assimp),
	cmocka_unit_test(corpus_bvh_clip_samples_like_assimp),
};

ANIMC_TEST_GROUP(tests);
