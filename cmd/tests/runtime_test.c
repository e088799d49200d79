/*
 * runtime_test.c - what animc writes plays in the original runtime: FNA on
 * Mono with RobotGame's own reader and playback classes
 * (../shared/conformance/fna/check --play) loads every output, compares
 * every value with `animc dump --json` and plays every clip at 60 fps in
 * both play modes, reporting hangs, exceptions and NaN.  The golden inputs,
 * the sample art, hand-written .X and glTF fixtures, and the shared corpus
 * from every importer, each in both modes; one Mono process per test, over all its files.  Skipped,
 * saying so, without ../shared or mono.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#define ORACLE "../shared/conformance/xnb_oracle.py"

/* `check --play` over folders of outputs holding `files` .xnb files in all:
 * every one loads equal and plays (test_fna_play says how a hang counts). */
static void check_plays(const char *const *dirs, size_t files)
{
	test_run r = test_fna_play(dirs);
	char *loaded = test_format("%zu/%zu files loaded by FNA with every value equal", files, files);

	if (r.status != 0 || !strstr(r.out, loaded))
		fail_msg("check --play: exit %d, expected %zu files to load and play\n%s%s", r.status,
			 files, r.out, r.err);
	print_message("check --play: %s, and played\n", loaded);
	test_run_release(&r);
	free(loaded);
}

/* Compile `src` into `out`; the exit status must be `want`. */
static void compile(const char *out, const char *src, bool exact, int want)
{
	test_run r = exact ? test_animc("build", "-q", "--exact", "-o", out, src, NULL)
			   : test_animc("build", "-q", "-o", out, src, NULL);

	if (r.status != want)
		fail_msg("animc build %s%s: exit %d, expected %d\n%s", exact ? "--exact " : "", src,
			 r.status, want, r.err);
	test_run_release(&r);
}

static void golden_outputs_play(void **state)
{
	char *dirs[2];
	size_t files = 0;

	(void)state;
	TEST_NEEDS_FNA();
	for (int exact = 0; exact < 2; exact++) {
		dirs[exact] = test_tmpdir(exact ? "runtime-golden-exact" : "runtime-golden");
		/* Exact mode refuses the inputs recorded as *.exact.fails. */
		compile(dirs[exact], "testdata/golden", exact, exact ? 1 : 0);
		compile(dirs[exact], "testdata/sample", exact, 0);
		compile(dirs[exact], "testdata/content", exact, 0);
		compile(dirs[exact], "testdata/fuzz/xna/seed-zero-length.xml", exact, 0);
		compile(dirs[exact], "testdata/assimp/keys.x", exact, 0);
		compile(dirs[exact], "testdata/assimp/same_names.x", exact, 0);
		/* The glTF importer's fixtures (not its hostile documents). */
		for (int k = 0; k < 2; k++) {
			char **gltf = test_list_dir("testdata/gltf", k ? ".glb" : ".gltf");

			for (char **p = gltf; *p; p++) {
				char *src = test_format("testdata/gltf/%s", *p);
				char *out = test_format("%s/gltf", dirs[exact]);

				compile(out, src, exact, 0);
				free(out);
				free(src);
			}
			test_free_list(gltf);
		}
		files += test_count_files(dirs[exact]);
	}
	/* A RobotGame source that holds every kind of breach: repaired in the
	 * default mode (its exact output is the next test's). */
	compile(dirs[0], "testdata/fuzz/robotgame/seed-hazards.Animation", false, 0);
	files++;
	assert_true(files >= 50);
	check_plays((const char *const[]){ dirs[0], dirs[1], NULL }, files);
	free(dirs[0]);
	free(dirs[1]);
}

static void corpus_outputs_play_from_every_importer(void **state)
{
	static const char *const sources[] = { "robotgame", "xna", "assimp" };
	char *dirs[2];
	size_t files = 0;

	(void)state;
	TEST_NEEDS_CORPUS();
	TEST_NEEDS_FNA();
	for (int exact = 0; exact < 2; exact++) {
		dirs[exact] = test_tmpdir(exact ? "runtime-corpus-exact" : "runtime-corpus");
		for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
			char *src = test_format("%s/%s", test_corpus_dir(), sources[i]);
			char *out = test_format("%s/%s", dirs[exact], sources[i]);
			size_t n;

			compile(out, src, exact, 0);
			n = test_count_files(out);
			assert_true(n > 0);   /* every importer wrote something */
			files += n;
			free(out);
			free(src);
		}
	}
	check_plays((const char *const[]){ dirs[0], dirs[1], NULL }, files);
	free(dirs[0]);
	free(dirs[1]);
}

/*
 * --exact on a RobotGame source holding what the original runtime cannot
 * play: written as the original pipeline wrote it, warnings naming each
 * bone (repeats of one kind folded into one line that lists them); --warnings-as-errors fails it.  The default mode writes it
 * playable (the oracle lists no hazard there).
 */
static void exact_writes_a_source_s_hazards_with_warnings(void **state)
{
	static const char *const bones[] = { "'OneKey'", "'Zero'", "'Dense'", "'Shared'", "'SharedStart'",
					     "'Tiny'" };
	static const char src[] = "testdata/fuzz/robotgame/seed-hazards.Animation";
	char *out = test_tmpdir("runtime-hazards");
	char *xnb = test_format("%s/seed-hazards.xnb", out);
	test_run r;

	(void)state;
	r = test_animc("build", "--exact", "--warnings-as-errors", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	assert_false(test_file_exists(xnb));
	test_run_release(&r);

	r = test_animc("build", "-q", "--exact", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	for (size_t i = 0; i < sizeof bones / sizeof bones[0]; i++) {
		/* Its own line, or a place in the line of its kind's first. */
		char *line = test_format("bone %s", bones[i]);

		if (!strstr(r.err, line))
			fail_msg("no '%s' in\n%s", line, r.err);
		free(line);
	}
	test_run_release(&r);
	if (test_file_exists(ORACLE)) {
		/* The independent oracle sees them in the file (exit 1). */
		r = test_exec("python3", ORACLE, "hazards", xnb, NULL);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.out, "'OneKey'"));
		assert_non_null(strstr(r.out, "'Zero'"));
		test_run_release(&r);

		if (!test_fna_missing()) {
			/* The original runtime hangs on it, every time it is tried:
			 * a real hang is never taken for a busy machine. */
			r = test_fna_play((const char *const[]){ xnb, NULL });
			if (r.status != 1 || !strstr(r.out, "ORIGINAL RUNTIME HANGS") ||
			    !strstr(r.out, "played again alone (try 3): exit 1"))
				fail_msg("check --play on the hazards: exit %d\n%s%s", r.status, r.out, r.err);
			test_run_release(&r);
		}

		r = test_animc("build", "-q", "-o", out, src, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		r = test_exec("python3", ORACLE, "hazards", xnb, NULL);
		if (r.status != 0)
			fail_msg("default mode left hazards:\n%s", r.out);
		test_run_release(&r);
	}
	free(xnb);
	free(out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(golden_outputs_play),
	cmocka_unit_test(corpus_outputs_play_from_every_importer),
	cmocka_unit_test(exact_writes_a_source_s_hazards_with_warnings),
};

ANIMC_TEST_GROUP(tests);
