/*
 * warnings_cli_test.c - warnings worth reading, counted: what needs no
 * action is a note (printed with -v), repeated warnings of one kind in one
 * source are one line with a count and the first places, and ordinary
 * files (the corpus) compile without warnings.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"

static size_t count_lines(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* testdata/gltf/noisy.gltf (scripts/make-gltf-fixtures says what it holds):
 * 9 warnings, one a line, before; now 2 warnings and 3 notes. */
static void noisy_gltf_counts(void **state)
{
	char *out = test_tmpdir("warnings-noisy");
	test_run r;

	(void)state;
	r = test_animc("build", "--progress", "never", "-o", out, "testdata/gltf/noisy.gltf", NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.err, ": warning: "), 2);
	assert_int_equal(count_lines(r.err, ": note: "), 0);
	assert_non_null(strstr(r.out, "2 warnings"));
	/* The three animations that animate one property twice: one line, the
	 * count and the other places. */
	assert_non_null(strstr(r.err, "animations[0]: 1 channel animates what an earlier channel already "
				      "animates (the translation of nodes[1])"));
	assert_non_null(strstr(r.err, "(and 2 more like it: animations[1], animations[2])"));
	test_run_release(&r);

	r = test_animc("build", "-v", "--rebuild", "--progress", "never", "-o", out, "testdata/gltf/noisy.gltf",
		       NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.err, ": warning: "), 2);
	assert_int_equal(count_lines(r.err, ": note: "), 3);
	assert_non_null(strstr(r.err, "note: animations[0]: 1 animated node is no joint of any skin"));
	assert_non_null(strstr(r.err, "note: clip 'bind': is a pose"));
	test_run_release(&r);

	/* Notes never fail a build; the two warnings do. */
	r = test_animc("build", "-q", "--rebuild", "--warnings-as-errors", "-o", out, "testdata/gltf/skin.gltf",
		       NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "--rebuild", "--warnings-as-errors", "-o", out,
		       "testdata/gltf/noisy.gltf", NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err, ": warning: "), 2);
	/* Counted as the summary counts them: the folded line once. */
	if (!strstr(r.err, "noisy.gltf: error: 2 warnings treated as errors; nothing written\n"))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "1 failed, 0 skipped, 2 warnings\n"));
	test_run_release(&r);
	free(out);
}

/* Every warning says what to do: after the ';' of what was done, a ':'
 * with the advice. */
static void warnings_say_what_to_do(void **state)
{
	char *out = test_tmpdir("warnings-advice");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--progress", "never", "-o", out, "testdata/gltf/noisy.gltf", NULL);
	for (const char *p = r.err; (p = strstr(p, ": warning: ")); p++) {
		const char *end = strchr(p, '\n'), *done = strchr(p, ';');

		assert_non_null(done);
		assert_true(done < end);
		const char *advice = strstr(done, ": ");
		assert_non_null(advice);
		assert_true(advice < end);
	}
	test_run_release(&r);
	free(out);
}

/* A RobotGame clip of 0.01 s, bone Root keyed at 0 and 0.01 s from
 * (0,0,0) to (x,0,0). */
static char *write_short_clip(const char *dir, const char *name, double x)
{
	char *path = test_format("%s/%s.Animation", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "<?xml version=\"1.0\" ?>\n<AnimationSequence>\n<KeyFrameSequenceCount>1</KeyFrameSequenceCount>\n"
		   "<Duration>0.01</Duration>\n<KeyFrameSequences>\n<KeyFrameSequence>\n<BoneName>Root</BoneName>\n"
		   "<KeyCount>2</KeyCount>\n<Duration>0.01</Duration>\n<KeyInterval>0.01</KeyInterval>\n"
		   "<HasTranslation>true</HasTranslation>\n<HasRotation>false</HasRotation>\n"
		   "<HasScale>false</HasScale>\n<HasTime>false</HasTime>\n<FixedTranslation>false</FixedTranslation>\n"
		   "<FixedRotation>false</FixedRotation>\n<FixedScale>false</FixedScale>\n<Translation>\n"
		   "<Vector3><X>0</X><Y>0</Y><Z>0</Z></Vector3>\n<Vector3><X>%g</X><Y>0</Y><Z>0</Z></Vector3>\n"
		   "</Translation>\n</KeyFrameSequence>\n</KeyFrameSequences>\n</AnimationSequence>\n", x);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* A clip shorter than a frame is a pose (a note) only when it holds one
 * pose; one that moves is lengthened with a warning, as the docs say. */
static void a_short_moving_clip_warns(void **state)
{
	char *dir = test_tmpdir("warnings-short"), *out = test_format("%s/out", dir);
	char *moving = write_short_clip(dir, "moving", 5), *still = write_short_clip(dir, "still", 0);
	test_run r;

	(void)state;
	r = test_animc("build", "-v", "--progress", "never", "-o", out, moving, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "moving.Animation:2: warning: lasts 0.01 s, less than a frame at 60 Hz"));
	assert_int_equal(count_lines(r.err, ": note: "), 0);
	assert_non_null(strstr(r.out, " 1 warning\n"));
	test_run_release(&r);
	r = test_animc("build", "-v", "--progress", "never", "-o", out, still, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "still.Animation:2: note: is a pose (one frame, 0.01 s)"));
	assert_int_equal(count_lines(r.err, ": warning: "), 0);
	test_run_release(&r);
	/* A part of a take cut shorter than a frame moves. */
	r = test_animc("build", "--progress", "never", "--allow", "numbered-bones", "-o", out, "--split", "Take 001/X=1:1.01",
		       "testdata/authoring/Walker.xml", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, ": warning: clip 'X': lasts 0.01 s, less than a frame at 60 Hz"));
	assert_non_null(strstr(r.out, " 1 warning\n"));
	test_run_release(&r);
	free(moving), free(still), free(out), free(dir);
}

/* The corpus is ordinary art: no warnings (its one bind pose is a note),
 * but for its XNA document's numbered bones, whose model (Grund) is no
 * --skeleton of the others. */
static void corpus_has_no_warnings(void **state)
{
	char *out = test_tmpdir("warnings-corpus");
	test_run r;

	(void)state;
	TEST_NEEDS_CORPUS();
	r = test_animc("build", "-j2", "--progress", "never", "--allow", "numbered-bones", "-o", out, test_corpus_dir(), NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.err, ": warning: "), 0);
	assert_non_null(strstr(r.out, " 0 warnings"));
	test_run_release(&r);
	free(out);
}

/* A source compiled with a warning says it again on every build while it
 * is up to date, and counts it (the summary, --report, --junit): a CI log
 * of an incremental build otherwise reads "0 warnings" until the source
 * changes.  Fixed, the warning goes. */
static void an_up_to_date_source_says_its_warnings_again(void **state)
{
	char *dir = test_tmpdir("warnings-again"), *out = test_format("%s/out", dir);
	char *src = write_short_clip(dir, "moving", 5), *report = test_format("%s/r.json", dir);
	char *junit = test_format("%s/j.xml", dir);
	const char *said = "moving.Animation:2: warning: lasts 0.01 s, less than a frame at 60 Hz";
	size_t size;
	test_run r;

	(void)state;
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "--progress", "never", "--report", report, "--junit", junit, "-o", out, src,
			       NULL);
		assert_int_equal(r.status, 0);
		assert_int_equal(count_lines(r.err, ": warning: "), 1);
		assert_non_null(strstr(r.err, said));
		assert_non_null(strstr(r.out, run ? "0 sources (0 clips), 0 failed, 0 skipped, 1 warning, 1 up to date\n"
						  : "1 source (1 clip), 0 failed, 0 skipped, 1 warning\n"));
		test_run_release(&r);
		char *json = (char *)test_read_file(report, &size), *xml = (char *)test_read_file(junit, &size);

		assert_non_null(strstr(json, "lasts 0.01 s, less than a frame"));
		assert_non_null(strstr(xml, "lasts 0.01 s, less than a frame"));
		free(json), free(xml);
	}
	free(src);
	src = write_short_clip(dir, "moving", 0);   /* one pose now: no warning */
	r = test_animc("build", "--progress", "never", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "warning"));
	assert_non_null(strstr(r.out, "1 source (1 clip), 0 failed, 0 skipped, 0 warnings\n"));
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "-o", out, src, NULL);
	assert_null(strstr(r.err, "warning"));
	assert_non_null(strstr(r.out, "0 warnings, 1 up to date\n"));
	test_run_release(&r);
	free(junit), free(report), free(src), free(out), free(dir);
}

/* What the run says of one build of a source (it took over another
 * source's output) is not the source's to say again while it is up to
 * date: nothing is taken then. */
static void an_output_taken_over_is_said_once(void **state)
{
	char *dir = test_tmpdir("warnings-taken"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/a", dir), *b = test_format("%s/b", dir);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(a, 0777), 0);
	assert_int_equal(mkdir(b, 0777), 0);
	char *first = write_short_clip(a, "walk", 0), *second = write_short_clip(b, "walk", 0);
	r = test_animc("build", "-q", "-o", out, first, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "-o", out, second, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "walk.Animation' (an earlier build into this folder); this source writes it now"));
	assert_non_null(strstr(r.out, " 1 warning\n"));
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "-o", out, second, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "warning"));
	assert_non_null(strstr(r.out, " 0 warnings, 1 up to date\n"));
	test_run_release(&r);
	free(first), free(second), free(a), free(b), free(out), free(dir);
}

/* Under --warnings-as-errors, the build that would take the output over
 * fails that source instead: nothing written, the other source's file as
 * it was, the next strict build failing again; with the kind allowed, it
 * takes the file over. */
static void an_output_taken_over_fails_warnings_as_errors(void **state)
{
	char *dir = test_tmpdir("warnings-taken-werror"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/a", dir), *b = test_format("%s/b", dir), *xnb = test_format("%s/walk.xnb", out);
	size_t size, first_size;
	uint8_t *first_bytes, *bytes;
	test_run r;

	(void)state;
	assert_int_equal(mkdir(a, 0777), 0);
	assert_int_equal(mkdir(b, 0777), 0);
	char *first = write_short_clip(a, "walk", 0), *second = write_short_clip(b, "walk", 5);
	r = test_animc("build", "-q", "-o", out, first, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	first_bytes = test_read_file(xnb, &first_size);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "--progress", "never", "--warnings-as-errors", "--allow", "short-clip", "-o",
			       out, second, NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, "walk.Animation' (an earlier build into this folder); this source would write it: "
				   "build the two into other folders, or give one another name [output-taken-over]\n") ||
		    !strstr(r.err, "b/walk.Animation: error: 1 warning treated as errors; nothing written\n"))
			fail_msg("run %d: %s", run, r.err);
		assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 1 warning\n"));
		test_run_release(&r);
		bytes = test_read_file(xnb, &size);
		assert_int_equal(size, first_size);
		assert_memory_equal(bytes, first_bytes, size);
		free(bytes);
		assert_int_equal(test_count_files(out), 1);
	}
	r = test_animc("build", "-q", "--warnings-as-errors", "--allow", "short-clip,output-taken-over", "-o", out,
		       second, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	bytes = test_read_file(xnb, &size);
	assert_false(size == first_size && memcmp(bytes, first_bytes, size) == 0);
	free(bytes), free(first_bytes);
	free(first), free(second), free(a), free(b), free(xnb), free(out), free(dir);
}

/* Two sources of one folder named alike but for case write Walk.xnb and
 * walk.xnb, one file on Windows and macOS: the second is told, on every
 * build while both stand; under --warnings-as-errors it fails, writing
 * nothing; allowed, it is written unsaid. */
static void outputs_alike_but_for_case_are_said(void **state)
{
	char *dir = test_tmpdir("warnings-case"), *out = test_format("%s/out", dir);
	char *walk = test_format("%s/walk.xnb", out), *out2 = test_format("%s/out2", dir);
	test_run r;

	(void)state;
	char *first = write_short_clip(dir, "Walk", 0), *second = write_short_clip(dir, "walk", 0);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "--progress", "never", "-o", out, first, second, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.err, "walk.Animation: warning: '") ||
		    !strstr(r.err, "/out/walk.xnb' and '") ||
		    !strstr(r.err, "/out/Walk.xnb', the output of '") ||
		    !strstr(r.err, "Walk.Animation', differ only in case: one file on file systems that ignore case "
				   "(Windows, macOS); rename one of the two sources [output-name-case]\n") ||
		    count_lines(r.err, "[output-name-case]") != 1)
			fail_msg("run %d: %s", run, r.err);
		assert_non_null(strstr(r.out, run ? " 1 warning, 2 up to date\n" : " 1 warning\n"));
		test_run_release(&r);
	}
	assert_int_equal(test_count_files(out), 2);
	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "-o", out2, first, second, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "walk.Animation: error: 1 warning treated as errors; nothing written\n"));
	assert_int_equal(test_count_files(out2), 1);
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "--allow", "output-name-case", "-o",
		       out2, first, second, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "output-name-case"));
	assert_true(access(walk, F_OK) == 0);
	assert_int_equal(test_count_files(out2), 2);
	test_run_release(&r);
	free(first), free(second), free(walk), free(out2), free(out), free(dir);
}

/* Letters past ASCII are alike but for case there too (Windows and
 * macOS fold Latin, Greek and Cyrillic letters): Éclair.xnb and
 * éclair.xnb, Бег.xnb and БЕГ.xnb, Ωμέγα.xnb and ΩΜΈΓΑ.xnb were each two
 * files, unsaid. */
static void outputs_alike_but_for_case_past_ascii_are_said(void **state)
{
	static const char *const names[][2] = {
		{ "\xc3\x89" "clair", "\xc3\xa9" "clair" },
		{ "\xd0\x91\xd0\xb5\xd0\xb3", "\xd0\x91\xd0\x95\xd0\x93" },
		{ "\xce\xa9\xce\xbc\xce\xad\xce\xb3\xce\xb1", "\xce\xa9\xce\x9c\xce\x88\xce\x93\xce\x91" },
	};
	char *dir = test_tmpdir("warnings-case-letters"), *out = test_format("%s/out", dir);
	char *src[6];
	test_run r;

	(void)state;
	for (int i = 0; i < 6; i++)
		src[i] = write_short_clip(dir, names[i / 2][i % 2], 0);
	r = test_animc("build", "--progress", "never", "-o", out, src[0], src[1], src[2], src[3], src[4], src[5],
		       NULL);
	assert_int_equal(r.status, 0);
	if (count_lines(r.err, "[output-name-case]") != 3)
		fail_msg("%s", r.err);
	for (int i = 0; i < 3; i++) {
		char *said = test_format("%s.Animation: warning: '%s/%s.xnb' and '%s/%s.xnb', the output of '%s', differ "
					 "only in case", names[i][1], out, names[i][1], out, names[i][0], src[2 * i]);

		if (!strstr(r.err, said))
			fail_msg("no '%s' in: %s", said, r.err);
		free(said);
	}
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 6);
	for (int i = 0; i < 6; i++)
		free(src[i]);
	free(out), free(dir);
}

/* A source whose output is alike but for case to another's fails
 * --warnings-as-errors when it is up to date too (a build without the
 * option wrote both), as when it compiles: it writes nothing, and the
 * outputs of its last good build stay; again when it was compiled to fail.
 * A build without the option passes again. */
static void an_up_to_date_output_alike_but_for_case_fails_warnings_as_errors(void **state)
{
	char *dir = test_tmpdir("warnings-case-current"), *out = test_format("%s/out", dir);
	char *walk = test_format("%s/walk.xnb", out);
	size_t first_size, size;
	uint8_t *first_bytes, *bytes;
	test_run r;

	(void)state;
	char *first = write_short_clip(dir, "Walk", 0), *second = write_short_clip(dir, "walk", 0);
	r = test_animc("build", "-q", "-o", out, first, second, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	first_bytes = test_read_file(walk, &first_size);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "--progress", "never", "--warnings-as-errors", "-o", out, first, second, NULL);
		assert_int_equal(r.status, 1);
		if (count_lines(r.err, "[output-name-case]") != 1 ||
		    !strstr(r.err, "walk.Animation: error: 1 warning treated as errors; nothing written\n"))
			fail_msg("run %d: %s", run, r.err);
		assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 1 warning, 1 up to date\n"));
		test_run_release(&r);
		bytes = test_read_file(walk, &size);
		assert_int_equal(size, first_size);
		assert_memory_equal(bytes, first_bytes, size);
		free(bytes);
		assert_int_equal(test_count_files(out), 2);
	}
	r = test_animc("build", "--progress", "never", "-o", out, first, second, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.err, "[output-name-case]"), 1);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 2);
	free(first_bytes), free(first), free(second), free(walk), free(out), free(dir);
}

/* Two builds into one folder, each of one source (a/Walk.Animation, then
 * b/walk.Animation), leave Walk.xnb and walk.xnb side by side: the source
 * built second is told, by each build of either while both stand, naming
 * the other's output as an earlier build's; under --warnings-as-errors it
 * fails, writing nothing. */
static void outputs_alike_but_for_case_of_two_builds_are_said(void **state)
{
	char *dir = test_tmpdir("warnings-case-builds"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/a", dir), *b = test_format("%s/b", dir);
	char *walk = test_format("%s/walk.xnb", out), *upper = test_format("%s/Walk.xnb", out);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(a, 0777), 0);
	assert_int_equal(mkdir(b, 0777), 0);
	char *first = write_short_clip(a, "Walk", 0), *second = write_short_clip(b, "walk", 0);
	r = test_animc("build", "-q", "-o", out, first, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "-o", out, second, NULL);
	assert_int_equal(r.status, 1);
	if (count_lines(r.err, "[output-name-case]") != 1 ||
	    !strstr(r.err, "b/walk.Animation: warning: '") || !strstr(r.err, "/out/walk.xnb' and '") ||
	    !strstr(r.err, "/out/Walk.xnb', the output of '") ||
	    !strstr(r.err, "a/Walk.Animation' (an earlier build into this folder), differ only in case: one file on "
			   "file systems that ignore case (Windows, macOS); rename one of the two sources "
			   "[output-name-case]\n") ||
	    !strstr(r.err, "b/walk.Animation: error: 1 warning treated as errors; nothing written\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 1);
	assert_true(access(walk, F_OK) != 0);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "--progress", "never", "-o", out, second, NULL);
		assert_int_equal(r.status, 0);
		if (count_lines(r.err, "[output-name-case]") != 1 || !strstr(r.err, "b/walk.Animation: warning: '"))
			fail_msg("run %d: %s", run, r.err);
		test_run_release(&r);
	}
	assert_true(access(walk, F_OK) == 0);
	r = test_animc("build", "--progress", "never", "-o", out, first, NULL);
	assert_int_equal(r.status, 0);
	if (count_lines(r.err, "[output-name-case]") != 1 || !strstr(r.err, "a/Walk.Animation: warning: '") ||
	    !strstr(r.err, "b/walk.Animation' (an earlier build into this folder), differ only in case"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "--allow", "output-name-case", "-o",
		       out, first, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "output-name-case"));
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 2);
	assert_true(access(upper, F_OK) == 0);
	free(first), free(second), free(walk), free(upper), free(a), free(b), free(out), free(dir);
}

/* A file of a folder input that cannot be read (here a link that leads
 * nowhere) is skipped with a warning; under --warnings-as-errors it is a
 * failed source, named by its path, and the build fails; the other file is
 * compiled.  Allowed, it is skipped again. */
static void an_unreadable_file_fails_warnings_as_errors(void **state)
{
	char *dir = test_tmpdir("warnings-unreadable"), *out = test_format("%s/out", dir);
	char *tree = test_format("%s/tree", dir), *gone = test_format("%s/gone.Animation", tree);
	char *report = test_format("%s/report.json", dir);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(tree, 0777), 0);
	char *ok = write_short_clip(tree, "ok", 0);
	assert_int_equal(symlink("nowhere", gone), 0);
	r = test_animc("build", "--progress", "never", "-o", out, tree, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "0 failed, 1 skipped, 1 warning\n"));
	test_run_release(&r);

	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "--report", report, "-o", out, tree,
		       NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "gone.Animation: warning: cannot read: No such file or directory [unreadable]\n") ||
	    !strstr(r.err, "gone.Animation: error: 1 warning treated as errors\n"))
		fail_msg("%s", r.err);
	/* ok.Animation, with no warning, is up to date: strictness is no
	 * part of a source's key. */
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 1 warning, 1 up to date\n"));
	test_run_release(&r);
	char *json = (char *)test_read_file(report, NULL);
	assert_non_null(strstr(json, "\"failed\": 1,"));
	free(json);

	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "--allow", "unreadable", "-o", out,
		       tree, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "0 failed, 1 skipped, 0 warnings, 1 up to date\n"));
	test_run_release(&r);
	free(ok), free(report), free(gone), free(tree), free(out), free(dir);
}

/* A source's warnings come in the order of its lines, as compilers print
 * them, though the importer finds the wrong count (said at the root's line)
 * only at the end; and so when they are said again, up to date. */
static void warnings_come_in_line_order(void **state)
{
	char *dir = test_tmpdir("warnings-order"), *out = test_format("%s/out", dir);
	char *src = test_format("%s/W.Animation", dir);
	FILE *f = fopen(src, "w");
	test_run r;

	(void)state;
	assert_non_null(f);
	fprintf(f, "<?xml version=\"1.0\" ?>\n<AnimationSequence>\n<KeyFrameSequenceCount>2</KeyFrameSequenceCount>\n"
		   "<Durationx>1</Durationx>\n<Duration>1</Duration>\n<KeyFrameSequences>\n<KeyFrameSequence>\n"
		   "<BoneName>Root</BoneName>\n<KeyCount>2</KeyCount>\n<Duration>1</Duration>\n"
		   "<KeyInterval>1</KeyInterval>\n<HasTranslation>true</HasTranslation>\n<HasRotation>false</HasRotation>\n"
		   "<HasScale>false</HasScale>\n<HasTime>false</HasTime>\n<FixedTranslation>false</FixedTranslation>\n"
		   "<FixedRotation>false</FixedRotation>\n<FixedScale>false</FixedScale>\n<Translation>\n"
		   "<Vector3><X>0</X><Y>0</Y><Z>0</Z></Vector3>\n<Vector3><X>1</X><Y>0</Y><Z>0</Z></Vector3>\n"
		   "</Translation>\n</KeyFrameSequence>\n</KeyFrameSequences>\n</AnimationSequence>\n");
	assert_int_equal(fclose(f), 0);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "-q", "-o", out, src, NULL);
		assert_int_equal(r.status, 0);
		const char *count = strstr(r.err, "W.Animation:2: warning: KeyFrameSequenceCount says 2");
		const char *unknown = strstr(r.err, "W.Animation:4:");
		if (!count || !unknown || count > unknown)
			fail_msg("run %d:\n%s", run, r.err);
		test_run_release(&r);
	}
	free(src), free(out), free(dir);
}

/* testdata/golden/dialect.Animation has one unknown element: <Comment>,
 * line 25, column 16. */
#define DIALECT "testdata/golden/dialect.Animation"
#define DIALECT_WARNING "dialect.Animation:25:16: warning: unknown element <Comment> in <KeyFrameSequence> " \
			"ignored: check its spelling (names are case-sensitive) [unknown-element]\n"

/* A warning ends with its kind, as a compiler prints it; the JSON report
 * gives it as a field, JUnit at the end of the line. */
static void a_warning_ends_with_its_kind(void **state)
{
	char *dir = test_tmpdir("warnings-kind"), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir), *junit = test_format("%s/junit.xml", dir);
	test_run r;

	(void)state;
	r = test_animc("build", "--progress", "never", "--report", report, "--junit", junit, "-o", out, DIALECT,
		       NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, DIALECT_WARNING))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, ", 1 warning"));
	test_run_release(&r);
	char *json = (char *)test_read_file(report, NULL), *xml = (char *)test_read_file(junit, NULL);
	assert_non_null(strstr(json, "\"line\": 25, \"column\": 16, \"kind\": \"unknown-element\"}"));
	assert_non_null(strstr(xml, "(names are case-sensitive) [unknown-element]&#10;"));
	free(json), free(xml);
	free(report), free(junit), free(out), free(dir);
}

/* --allow KIND: warnings of the kind are not printed or counted (with -v,
 * a note); other kinds still are. */
static void allow_leaves_a_kind_unsaid(void **state)
{
	char *dir = test_tmpdir("warnings-allow"), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir), *junit = test_format("%s/junit.xml", dir);
	test_run r;

	(void)state;
	r = test_animc("build", "--progress", "never", "--allow", "short-clip,unknown-element", "--report", report,
		       "--junit", junit, "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "unknown element"));
	assert_non_null(strstr(r.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 0 warnings\n"));
	test_run_release(&r);
	char *json = (char *)test_read_file(report, NULL), *xml = (char *)test_read_file(junit, NULL);
	assert_null(strstr(json, "unknown element"));
	assert_non_null(strstr(json, "\"warnings\": 0,"));
	assert_null(strstr(xml, "unknown element"));
	free(json), free(xml);

	r = test_animc("build", "-v", "--rebuild", "--progress", "never", "--allow", "unknown-element", "-o", out,
		       DIALECT, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "dialect.Animation:25:16: note: unknown element <Comment> in "
				      "<KeyFrameSequence> ignored: check its spelling (names are case-sensitive) "
				      "[unknown-element, allowed]\n"));
	assert_int_equal(count_lines(r.err, ": warning: "), 0);
	test_run_release(&r);

	/* Another kind allowed: the warning stays. */
	r = test_animc("build", "--rebuild", "--progress", "never", "--allow", "short-clip", "-o", out, DIALECT,
		       NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, DIALECT_WARNING));
	assert_non_null(strstr(r.out, ", 1 warning\n"));
	test_run_release(&r);
	free(report), free(junit), free(out), free(dir);
}

/* --warnings-as-errors fails a source with a warning, writing nothing;
 * with its kind allowed, the source compiles. */
static void allow_passes_warnings_as_errors(void **state)
{
	char *dir = test_tmpdir("warnings-allow-werror"), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/dialect.xnb", out);
	test_run r;
	struct stat st;

	(void)state;
	r = test_animc("build", "-q", "--warnings-as-errors", "--allow", "short-clip", "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, DIALECT_WARNING));
	assert_non_null(strstr(r.err, "dialect.Animation: error: 1 warning treated as errors; nothing written"));
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);

	r = test_animc("build", "-q", "--warnings-as-errors", "--allow", "unknown-element", "-o", out, DIALECT,
		       NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(stat(xnb, &st), 0);
	test_run_release(&r);

	/* Up to date, built with the kind allowed: without --allow it is
	 * compiled again, and fails as it would have. */
	r = test_animc("build", "-q", "--warnings-as-errors", "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "1 warning treated as errors; nothing written"));
	test_run_release(&r);
	free(xnb), free(out), free(dir);
}

/* What the importer printed is a warning of the source like any other:
 * --warnings-as-errors fails the source, whether its worker is the only one
 * or one of several, and writes nothing, unless the kind is allowed.
 * (Assimp prints while it reads this Ogre XML mesh.) */
/* A file of a folder skipped with a warning (a glTF whose only animation
 * animates a material, which no clip holds) fails --warnings-as-errors as
 * a compiled source would; allowed, it is skipped. */
static void a_skipped_file_with_a_warning_fails_warnings_as_errors(void **state)
{
	static const char gltf[] =
		"{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], \"nodes\": "
		"[{\"name\": \"a\"}], \"buffers\": [{\"byteLength\": 32, \"uri\": \"data:application/octet-stream;"
		"base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AACAPwAAgD8=\"}], \"bufferViews\": [{\"buffer\": 0, "
		"\"byteOffset\": 0, \"byteLength\": 8}, {\"buffer\": 0, \"byteOffset\": 8, \"byteLength\": 24}], "
		"\"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\", "
		"\"min\": [0], \"max\": [1]}, {\"bufferView\": 1, \"componentType\": 5126, \"count\": 2, \"type\": "
		"\"VEC3\"}], \"animations\": [{\"name\": \"P\", \"samplers\": [{\"input\": 0, \"output\": 1}], "
		"\"channels\": [{\"sampler\": 0, \"target\": {\"path\": \"pointer\", \"extensions\": "
		"{\"KHR_animation_pointer\": {\"pointer\": \"/materials/0/x\"}}}}]}]}";
	char *dir = test_tmpdir("warnings-skipped-strict"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *file = test_format("%s/ptr.gltf", in);
	test_run r;

	(void)state;
	mkdir(in, 0755);
	assert_true(test_write_file(file, gltf, strlen(gltf)));
	r = test_animc("build", "-q", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "[non-node-target]"));
	test_run_release(&r);
	r = test_animc("build", "--warnings-as-errors", "-o", out, in, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "ptr.gltf: error: 1 warning treated as errors\n"));
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 1 warning\n"));
	test_run_release(&r);
	r = test_animc("build", "--warnings-as-errors", "--allow", "non-node-target", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "0 failed, 1 skipped, 0 warnings\n"));
	test_run_release(&r);
	free(file), free(out), free(in), free(dir);
}

static void importer_output_fails_warnings_as_errors(void **state)
{
	static const char *const jobs[] = { "-j1", "-j2" };
	char *dir = test_tmpdir("warnings-importer-output"), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir);
	const char *mesh = "testdata/assimp_confine/in/inside.mesh.xml";
	test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
		r = test_animc("build", "--progress", "never", jobs[i], "--warnings-as-errors", "--report", report,
			       "-o", out, mesh, NULL);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "inside.mesh.xml: warning: the importer printed: "));
		if (!strstr(r.err, "inside.mesh.xml: error: 1 warning treated as errors; nothing written\n"))
			fail_msg("%s: %s", jobs[i], r.err);
		assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 1 warning\n"));
		assert_int_equal(test_count_files(out), 0);
		test_run_release(&r);
		char *json = (char *)test_read_file(report, NULL);
		assert_non_null(strstr(json, "\"status\": \"failed\""));
		free(json);
	}
	r = test_animc("build", "-q", "--warnings-as-errors", "--allow", "importer-output", "-o", out, mesh, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(test_count_files(out), 1);
	test_run_release(&r);
	free(report), free(out), free(dir);
}

/* A build that stops before it builds anything (OUTDIR a file, --skeleton
 * missing) exits 1 and writes its reports all the same, of no source, with
 * the error: never a report of an earlier run that passed. */
static void a_build_stopped_early_writes_its_reports(void **state)
{
	char *dir = test_tmpdir("warnings-stopped-reports"), *out = test_format("%s/out", dir);
	char *afile = test_format("%s/afile", dir), *report = test_format("%s/report.json", dir);
	char *junit = test_format("%s/junit.xml", dir), *json, *xml;
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", out, "--report", report, "--junit", junit, DIALECT, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_write_file(afile, "x", 1));
	r = test_animc("build", "-q", "-o", afile, "--report", report, "--junit", junit, DIALECT, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	xml = (char *)test_read_file(junit, NULL);
	if (!strstr(json, "\"sources\": [],") || !strstr(json, "\"severity\": \"error\"") ||
	    !strstr(json, "exists and is not a folder"))
		fail_msg("%s", json);
	assert_non_null(strstr(xml, "exists and is not a folder&#10;"));
	assert_null(strstr(xml, "dialect"));
	/* A CI reading either sees the run failed: the run's error is counted,
	 * and JUnit has a test case in error for it. */
	if (!strstr(json, "\"run_errors\": 1,") ||
	    !strstr(xml, "tests=\"1\" failures=\"0\" errors=\"1\"") ||
	    !strstr(xml, "<testcase classname=\"animc.run\" name=\"animc build\" time=\"0\">\n      <error message=\""))
		fail_msg("%s\n%s", json, xml);
	free(json), free(xml);

	/* A --mgcb project that cannot be read (and would have named OUTDIR). */
	char *project = test_format("%s/Missing.mgcb", dir);
	r = test_animc("build", "-q", "--mgcb", project, "--report", report, "--junit", junit, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	xml = (char *)test_read_file(junit, NULL);
	if (!strstr(json, "\"sources\": [],") || !strstr(json, "Missing.mgcb\", \"message\": \"cannot open") ||
	    !strstr(json, "\"run_errors\": 1,") || !strstr(xml, "errors=\"1\""))
		fail_msg("%s\n%s", json, xml);
	free(json), free(xml), free(project);

	r = test_animc("build", "-q", "-o", out, "--skeleton", "no-such-model.glb", "--report", report, DIALECT, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	if (!strstr(json, "\"sources\": [],") ||
	    !strstr(json, "\"path\": \"no-such-model.glb\", \"message\": \"cannot open: No such file or directory\""))
		fail_msg("%s", json);
	free(json);
	free(junit), free(report), free(afile), free(out), free(dir);
}

/* Allowing changes no key: an up-to-date source stays up to date, and
 * says its warnings or not by each build's --allow. */
static void allow_follows_each_build_without_compiling(void **state)
{
	char *dir = test_tmpdir("warnings-allow-replay"), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir);
	test_run r;

	(void)state;
	r = test_animc("build", "--progress", "never", "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, DIALECT_WARNING));
	test_run_release(&r);

	r = test_animc("build", "--progress", "never", "--allow", "unknown-element", "--report", report, "-o", out,
		       DIALECT, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, 1 up to date\n"));
	test_run_release(&r);
	char *json = (char *)test_read_file(report, NULL);
	assert_non_null(strstr(json, "\"status\": \"up-to-date\""));
	assert_non_null(strstr(json, "\"diagnostics\": []"));
	free(json);

	r = test_animc("build", "--progress", "never", "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, DIALECT_WARNING))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 1 warning, 1 up to date\n"));
	test_run_release(&r);
	free(report), free(out), free(dir);
}

/* A kind animc does not know is a usage error naming it whole, and where
 * the kinds are listed (the man page too, which an installed animc has). */
/* --warnings-as-errors is no part of a source's key: strict and lenient
 * builds alternating in one folder keep sources without warnings up to
 * date, and a strict build fails a source with one, whether it is up to
 * date or in the shared cache from a lenient build. */
static void sh_copy_dialect(const char *to)
{
	size_t size;
	uint8_t *data = test_read_file(DIALECT, &size);
	char *path = test_format("%s/dialect.Animation", to);

	assert_non_null(data);
	assert_true(test_write_file(path, data, size));
	free(path);
	free(data);
}

static void strict_and_lenient_builds_share_outputs_and_cache(void **state)
{
	char *dir = test_tmpdir("warnings-strict-key"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *fresh = test_format("%s/fresh", dir);
	char *cache = test_format("%s/cache", dir);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(in, 0777), 0);
	char *ok = write_short_clip(in, "ok", 0);
	sh_copy_dialect(in);
	r = test_animc("build", "-q", "--cache-dir", cache, "--cache-min-size", "0", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "-o", out, in, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 1 warning, 1 up to date\n"));
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "--warnings-as-errors", "--cache-dir", cache, "--cache-min-size",
		       "0", "-o", fresh, in, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "dialect.Animation: error: 1 warning treated as errors; nothing written\n"));
	assert_non_null(strstr(r.out, "1 failed"));
	assert_non_null(strstr(r.out, "1 cached"));
	test_run_release(&r);
	assert_int_equal(test_count_files(fresh), 1);
	free(ok), free(cache), free(fresh), free(out), free(in), free(dir);
}

static void an_unknown_kind_is_a_usage_error(void **state)
{
	char *out = test_tmpdir("warnings-allow-unknown");
	test_run r;

	(void)state;
	r = test_animc("build", "--allow", "unknown-element,unturned-rot", "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 2);
	if (!strstr(r.err, "animc build: --allow: 'unturned-rot' is no kind of warning (did you mean "
			   "'unturned-root'?); 'man animc' and docs/warnings.md list them\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "--allow", "everything", "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "'everything' is no kind of warning; a warning ends with its kind in brackets, "
				      "and 'man animc' and docs/warnings.md list them"));
	test_run_release(&r);
	/* A long name is quoted whole; spaces after the commas are no part of a kind. */
	r = test_animc("build", "--allow", "unknown-element,abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789xy",
		       "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789xy' is no kind"));
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);
	r = test_animc("build", "-q", "--allow", "unknown-element, xml", "-o", out, DIALECT, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(out);
}

/* A source's warnings past BUILD_KEPT_DIAGS (10,000) are counted, not
 * kept: a document of a million unknown elements held a message for each
 * (650 MB) until they were folded into one line.  20,000 of them: one
 * folded line counting all, as before; one of another kind past the
 * first 10,000 is kept and said (the declared sequence count, checked at
 * the end), and counts under --warnings-as-errors. */
static void warnings_past_the_first_ten_thousand_are_counted(void **state)
{
	char *dir = test_tmpdir("many-warnings"), *src = test_format("%s/many.Animation", dir);
	char *out = test_format("%s/out", dir);
	size_t size = 0, capacity = 20001 * 7 + 256;
	char *doc = malloc(capacity);
	test_run r;

	(void)state;
	assert_non_null(doc);
	size += (size_t)snprintf(doc, capacity, "<?xml version=\"1.0\"?>\n<AnimationSequence>\n"
				 "<KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>\n");
	for (int i = 0; i < 20000; i++)
		size += (size_t)snprintf(doc + size, capacity - size, "<Foo/>\n");
	size += (size_t)snprintf(doc + size, capacity - size, "<Bar/>\n");
	size += (size_t)snprintf(doc + size, capacity - size, "</AnimationSequence>\n");
	assert_true(test_write_file(src, doc, size));
	r = test_animc("build", "-v", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "many.Animation:4:7: warning: unknown element <Foo>") ||
	    !strstr(r.err, "(and 19999 more like it: line 5, line 6, line 7, ...)") ||
	    !strstr(r.err, "many.Animation:20004:7: warning: unknown element <Bar>"))
		fail_msg("%s", r.err);
	if (!strstr(r.out, ", 3 warnings") || !strstr(r.err, "[wrong-sequence-count]"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--allow", "unknown-element", "--warnings-as-errors", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	free(doc), free(out), free(src), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(noisy_gltf_counts),
	cmocka_unit_test(warnings_say_what_to_do),
	cmocka_unit_test(a_short_moving_clip_warns),
	cmocka_unit_test(corpus_has_no_warnings),
	cmocka_unit_test(an_up_to_date_source_says_its_warnings_again),
	cmocka_unit_test(an_output_taken_over_is_said_once),
	cmocka_unit_test(an_output_taken_over_fails_warnings_as_errors),
	cmocka_unit_test(outputs_alike_but_for_case_are_said),
	cmocka_unit_test(outputs_alike_but_for_case_past_ascii_are_said),
	cmocka_unit_test(an_up_to_date_output_alike_but_for_case_fails_warnings_as_errors),
	cmocka_unit_test(outputs_alike_but_for_case_of_two_builds_are_said),
	cmocka_unit_test(an_unreadable_file_fails_warnings_as_errors),
	cmocka_unit_test(warnings_come_in_line_order),
	cmocka_unit_test(a_warning_ends_with_its_kind),
	cmocka_unit_test(allow_leaves_a_kind_unsaid),
	cmocka_unit_test(allow_passes_warnings_as_errors),
	cmocka_unit_test(importer_output_fails_warnings_as_errors),
	cmocka_unit_test(a_build_stopped_early_writes_its_reports),
	cmocka_unit_test(a_skipped_file_with_a_warning_fails_warnings_as_errors),
	cmocka_unit_test(strict_and_lenient_builds_share_outputs_and_cache),
	cmocka_unit_test(allow_follows_each_build_without_compiling),
	cmocka_unit_test(an_unknown_kind_is_a_usage_error),
	cmocka_unit_test(warnings_past_the_first_ten_thousand_are_counted),
};

ANIMC_TEST_GROUP(tests);
