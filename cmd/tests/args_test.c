/*
 * args_test.c - arguments a script gets wrong: empty values (an unset
 * variable), options that need or contradict another, values a type
 * cannot hold, response files.  Each is a usage error (exit 2) naming what
 * is wrong, before anything is read or written.
 */
#define _GNU_SOURCE   /* realpath */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fs.h"
#include "test_support.h"

#define SAMPLE "testdata/sample"
#define TURN SAMPLE "/Crane/Turn.Animation"

/* `sh -c SCRIPT` in the folder DIR, with $ANIMC the binary under test. */
static test_run run_in(const char *dir, const char *script)
{
	char *animc = realpath(test_animc_path(), NULL);
	char *whole = test_format("ANIMC='%s' && cd '%s' && %s", animc, dir, script);
	test_run r = test_exec("sh", "-c", whole, NULL);

	free(whole), free(animc);
	return r;
}

/* An empty INPUT, as `animc build -o out "$SRC"` gives with SRC unset, is
 * a usage error naming it; it was tidied into "." (written past its
 * string) and the whole current folder was built. */
static void an_empty_input_is_a_usage_error(void **state)
{
	static const char *const commands[] = {
		"\"$ANIMC\" build -o out ''",
		"\"$ANIMC\" build -o out '' Turn.Animation",
		"\"$ANIMC\" outputs -o out ''",
		"timeout 10 \"$ANIMC\" watch -o out ''",
	};
	char *dir = test_tmpdir("args-empty-input");
	char *copy = test_format("cp %s %s/", TURN, dir), *out = test_format("%s/out", dir);

	(void)state;
	assert_int_equal(system(copy), 0);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		test_run r = run_in(dir, commands[i]);

		if (r.status != 2 || !strstr(r.err, "is empty ('')") || r.out[0])
			fail_msg("%s: exit %d\n%s%s", commands[i], r.status, r.out, r.err);
		assert_false(test_file_exists(out));
		test_run_release(&r);
	}
	free(out), free(copy), free(dir);
}

/* Tidying never grows a path: "" has no room for ".". */
static void tidying_an_empty_path_leaves_it_empty(void **state)
{
	char *empty = strdup("");

	(void)state;
	assert_non_null(empty);
	cli_path_tidy(empty);
	assert_string_equal(empty, "");
	free(empty);
}

/* An empty file argument of any command is a usage error naming its
 * option (or FILE), before anything is opened or made: it was
 * ": error: cannot open", naming nothing, after OUTDIR was made. */
static void an_empty_file_argument_names_its_option(void **state)
{
	char *dir = test_tmpdir("args-empty-file"), *out = test_format("%s/out", dir);
	char *svg = test_format("%s/p.svg", dir), *xnb = test_format("%s/Turn.xnb", out);
	test_run r = test_animc("build", "-q", "-o", out, TURN, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	const char *const cases[][12] = {
		{ "dump", "", NULL },
		{ "dump", "--json", "", NULL },
		{ "sample", "--time", "0", "", NULL },
		{ "sample", "--time", "0", "--blend", "", "--weight", "1", xnb, NULL },
		{ "build", "-q", "-o", dir, "--skeleton", "", TURN, NULL },
		{ "outputs", "-o", dir, "--skeleton", "", TURN, NULL },
		{ "plot", "--bone", "Cab", "-o", "", xnb, TURN, NULL },
		{ "plot", "--bone", "Cab", "-o", svg, "--skeleton", "", xnb, TURN, NULL },
		{ "plot", "--bone", "Cab", "-o", svg, "--clips", "", xnb, TURN, NULL },
		{ "plot", "--bone", "Cab", "-o", svg, "", TURN, NULL },
		{ "plot", "--bone", "Cab", "-o", svg, xnb, "", NULL },
	};
	const char *const names[] = { "FILE", "FILE", "FILE", "--blend", "--skeleton", "--skeleton", "--output",
				      "--skeleton", "--clips", "COMPILED", "SOURCE" };

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *argv[14] = { test_animc_path() };
		size_t n = 1;
		char *want = test_format("animc %s: %s is empty: give ", cases[i][0], names[i]);

		for (size_t k = 0; k < 12 && cases[i][k]; k++)
			argv[n++] = cases[i][k];
		r = test_execv(argv);
		if (r.status != 2 || strncmp(r.err, want, strlen(want)) != 0 || r.out[0])
			fail_msg("case %zu (%s): exit %d\n%s%s", i, cases[i][0], r.status, r.out, r.err);
		test_run_release(&r);
		free(want);
	}
	/* Nothing made: no state folder in dir, no plot. */
	assert_false(test_file_exists(svg));
	char *state_dir = test_format("%s/.animc", dir);
	assert_false(test_file_exists(state_dir));
	free(state_dir), free(xnb), free(svg), free(out), free(dir);
}

/* plot takes --split and --clips as build does: together they are a usage
 * error; plot drew the --clips parts and dropped --split without a word. */
static void plot_refuses_split_with_clips_as_build_does(void **state)
{
	char *dir = test_tmpdir("args-plot-split-clips"), *out = test_format("%s/out", dir);
	char *svg = test_format("%s/p.svg", dir), *xnb = test_format("%s/Turn.xnb", out);
	char *clips = test_format("%s/clips.xml", dir);
	static const char doc[] =
		"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
		"<XnaContent xmlns:Pipeline=\"SkinnedModelPipeline\">\n"
		"  <Asset Type=\"Pipeline:AnimationDefinition\">\n"
		"    <originalClipName>Turn</originalClipName><originalFrameCount>60</originalFrameCount>\n"
		"    <ClipParts><Item><ClipName>FromDoc</ClipName><StartFrame>0</StartFrame><EndFrame>10</EndFrame>"
		"</Item></ClipParts>\n"
		"  </Asset>\n"
		"</XnaContent>\n";
	const char *want = "--clips and --split contradict each other";

	(void)state;
	assert_true(test_write_file(clips, doc, sizeof doc - 1));
	test_run r = test_animc("build", "-q", "-o", out, TURN, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, "--split", "Turn/FromSplit=0:0.2", "--clips", clips, TURN, NULL);
	if (r.status != 2 || !strstr(r.err, want))
		fail_msg("build: exit %d\n%s", r.status, r.err);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Cab", "-o", svg, "--split", "Turn/FromSplit=0:0.2", "--clips", clips, xnb,
		       TURN, NULL);
	if (r.status != 2 || !strstr(r.err, want))
		fail_msg("plot: exit %d\n%s%s", r.status, r.out, r.err);
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	free(clips), free(xnb), free(svg), free(out), free(dir);
}

/* Two of --report, --junit and --depfile reaching one file is a usage
 * error: each was written over the other, exit 0, one report lost. */
static void two_reports_in_one_file_are_refused(void **state)
{
	static const char *const same[] = {
		"--report r.txt --junit ./r.txt",
		"--junit sub/r.xml --depfile \"$PWD/sub/../sub/r.xml\"",
		"--report r.txt --junit j.xml --depfile r.txt",
		"--depfile no/such/d --report no/such/./d",
	};
	char *dir = test_tmpdir("args-reports-one-file"), *out = test_format("%s/out", dir);
	char *turn = realpath(TURN, NULL);

	(void)state;
	assert_non_null(turn);
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		char *cmd = test_format("mkdir -p sub && \"$ANIMC\" build -q -o out %s '%s'", same[i], turn);
		test_run r = run_in(dir, cmd);

		if (r.status != 2 || !strstr(r.err, "are one file"))
			fail_msg("%s: exit %d\n%s%s", same[i], r.status, r.out, r.err);
		assert_false(test_file_exists(out));
		test_run_release(&r);
		free(cmd);
	}
	/* Another name in the same folder is another file. */
	char *cmd = test_format("\"$ANIMC\" build -q -o out --report r.txt --junit sub/r.txt --depfile ./d '%s' && "
				"test -s r.txt && test -s sub/r.txt && test -s d", turn);
	test_run r = run_in(dir, cmd);
	if (r.status != 0)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(cmd), free(turn), free(out), free(dir);
}

/* An option of the cache without a cache is a usage error, as --zstd-level
 * without --compress zstd is: a CI job whose cache variable came out empty
 * learns of it.  With --cache-dir the same options build. */
static void cache_options_need_a_cache(void **state)
{
	static const char *const options[][2] = {
		{ "--cache-read-only", NULL },
		{ "--cache-wait", NULL },
		{ "--cache-timeout", "5" },
		{ "--cache-min-size", "0" },
	};
	char *dir = test_tmpdir("args-cache-options"), *out = test_format("%s/out", dir);
	char *cache = test_format("%s/cache", dir), *built = test_format("%s/built", dir);

	(void)state;
	unsetenv("ANIMC_CACHE_URL");
	for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
		const char *argv[12] = { test_animc_path(), "build", "-q", "-o", out, options[i][0] };
		size_t n = 6;

		if (options[i][1])
			argv[n++] = options[i][1];
		argv[n++] = TURN;
		test_run r = test_execv(argv);
		char *want = test_format("%s needs --cache-url or --cache-dir", options[i][0]);
		if (r.status != 2 || !strstr(r.err, want))
			fail_msg("%s: exit %d\n%s%s", options[i][0], r.status, r.out, r.err);
		assert_false(test_file_exists(out));
		test_run_release(&r);
		argv[4] = built;
		argv[n - 1] = "--cache-dir";
		argv[n++] = cache;
		argv[n++] = TURN;
		argv[n] = NULL;
		r = test_execv(argv);
		if (r.status != 0)
			fail_msg("%s --cache-dir: exit %d\n%s%s", options[i][0], r.status, r.out, r.err);
		test_run_release(&r);
		free(want);
	}
	free(built), free(cache), free(out), free(dir);
}

/* A size under one byte is not 0, which --memory-limit reads as "no
 * limit" and --cache-min-size as "every source": 0.5 (meant as 0.5G) took
 * the limit away.  Now it is refused as too small, as 1 is. */
static void a_size_under_a_byte_is_not_zero(void **state)
{
	uint64_t bytes = 7;
	char *dir = test_tmpdir("args-size"), *out = test_format("%s/out", dir), *xnb = test_format("%s/Turn.xnb", out);
	char *svg = test_format("%s/p.svg", dir);

	(void)state;
	assert_true(cli_parse_size("0.5", &bytes));
	assert_int_equal(bytes, 1);
	assert_true(cli_parse_size("1e-9", &bytes));
	assert_int_equal(bytes, 1);
	assert_true(cli_parse_size("0", &bytes));
	assert_int_equal(bytes, 0);
	assert_true(cli_parse_size("0.5K", &bytes));
	assert_int_equal(bytes, 512);
	assert_true(cli_parse_size("1.0001", &bytes));
	assert_int_equal(bytes, 2);

	test_run r = test_animc("build", "-q", "-o", out, "--memory-limit", "0.5", TURN, NULL);
	if (r.status != 2 || !strstr(r.err, "--memory-limit '0.5' is below 64M"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	assert_false(test_file_exists(out));
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, TURN, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Cab", "-o", svg, "--memory-limit", "1e-9", xnb, TURN, NULL);
	if (r.status != 2 || !strstr(r.err, "--memory-limit '1e-9' is below 64M"))
		fail_msg("plot: exit %d\n%s%s", r.status, r.out, r.err);
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	free(svg), free(xnb), free(out), free(dir);
}

/* A --shell-distance a float holds only as 0 is refused, as --scale's is:
 * stored as 0, it read as "not given" and the default distance 1 was used
 * (or, without --skeleton, the option was dropped without a word). */
static void a_shell_distance_a_float_cannot_hold_is_refused(void **state)
{
	char *dir = test_tmpdir("args-shell"), *out = test_format("%s/out", dir);
	const char *const values[] = { "1e-50", "1e-40" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char *want = test_format("--shell-distance '%s' is past what a float holds", values[i]);
		test_run r = test_animc("build", "-q", "-o", out, "--skeleton", SAMPLE "/Crane/Crane.x", "--shell-distance",
					values[i], TURN, NULL);

		if (r.status != 2 || !strstr(r.err, want))
			fail_msg("%s: exit %d\n%s%s", values[i], r.status, r.out, r.err);
		test_run_release(&r);
		r = test_animc("build", "-q", "-o", out, "--shell-distance", values[i], TURN, NULL);
		if (r.status != 2 || !strstr(r.err, want))
			fail_msg("%s without --skeleton: exit %d\n%s%s", values[i], r.status, r.out, r.err);
		test_run_release(&r);
		free(want);
	}
	assert_false(test_file_exists(out));
	free(out), free(dir);
}

/* A response-file line of only blanks and tabs is left out as an empty
 * one is: it was an input named "   " that could not be opened. */
static void a_blank_response_file_line_is_left_out(void **state)
{
	char *dir = test_tmpdir("args-blank-line"), *out = test_format("%s/out", dir);
	char *list = test_format("%s/list", dir), *turn = realpath(TURN, NULL);
	char *text = test_format("   \n%s\r\n\t \r\n \t\n", turn);

	(void)state;
	assert_true(test_write_file(list, text, strlen(text)));
	char *at = test_format("@%s", list);
	test_run r = test_animc("build", "-o", out, at, NULL);
	if (r.status != 0 || !strstr(r.out, "compiled 1 source") || r.err[0])
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(at), free(text), free(turn), free(list), free(out), free(dir);
}

/* A response file may be a pipe (`git diff --name-only | animc build -o
 * out @/dev/stdin`, a FIFO, bash's @<(cmd)): read to its end.  It was
 * refused as "a FIFO, not a regular file".  A folder still is refused. */
static void a_response_file_may_be_a_pipe(void **state)
{
	char *dir = test_tmpdir("args-pipe-list"), *turn = realpath(TURN, NULL);
	char *piped = test_format("printf '%%s\\n' '%s' | \"$ANIMC\" build -q -o a @/dev/stdin && test -s a/Turn.xnb", turn);
	char *fifo = test_format("mkfifo list && { printf '%%s\\n' '%s' > list & } && \"$ANIMC\" build -q -o b @list && "
				 "test -s b/Turn.xnb", turn);
	test_run r;

	(void)state;
	assert_non_null(turn);
	r = run_in(dir, piped);
	if (r.status != 0)
		fail_msg("@/dev/stdin from a pipe: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = run_in(dir, fifo);
	if (r.status != 0)
		fail_msg("@FIFO: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = run_in(dir, "mkdir -p folder && \"$ANIMC\" build -q -o c @folder");
	if (r.status != 2 || !strstr(r.err, "response file 'folder': is a folder"))
		fail_msg("@folder: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(fifo), free(piped), free(turn), free(dir);
}

/* The key holds what the options write, not how they were typed: a
 * default spelt out, a number spelt otherwise, or an option given twice
 * whose last value is the one built with compiled every source again and
 * missed the cache's entries.  A value that writes other bytes still
 * compiles. */
static void options_spelt_otherwise_keep_sources_up_to_date(void **state)
{
	char *dir = test_tmpdir("key-spelling"), *out = test_format("%s/out", dir);
	static const char *const same[][5] = {
		{ "--platform", "w" }, { "--compress", "none" }, { "--layout", "original" },
		{ "--scale", "1.0" }, { "--rotate", "0,0.0,-0" }, { "--scale", "3", "--scale", "1" },
		{ "--reader-name", "RobotGameData.GameObject.AnimationReader, RobotGameData, Version=1.0.0.0, "
				   "Culture=neutral" },
	};
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--skeleton", SAMPLE "/Crane/Crane.x", "-o", out, TURN, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--skeleton", SAMPLE "/Crane/Crane.x", "--shell-distance", "1e0", "-o", out, TURN, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 up to date"));
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, TURN, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		const char *argv[12] = { test_animc_path(), "build", "-o", out };
		size_t n = 4;

		for (size_t k = 0; k < 5 && same[i][k]; k++)
			argv[n++] = same[i][k];
		argv[n++] = TURN;
		r = test_execv(argv);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, "compiled 0 sources") || !strstr(r.out, "1 up to date"))
			fail_msg("%s %s compiled again:\n%s", same[i][0], same[i][1], r.out);
		test_run_release(&r);
		if (i == 5) {
			/* Back to no option at all: still up to date. */
			r = test_animc("build", "-o", out, TURN, NULL);
			assert_non_null(strstr(r.out, "1 up to date"));
			test_run_release(&r);
		}
	}
	r = test_animc("build", "-o", out, "--scale", "1.5", TURN, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source"));
	test_run_release(&r);
	free(out), free(dir);
}

/* The tolerance enters the key as the one the run compiles with: the
 * compact layout's own and `--tolerance default` (or its numbers) spelt
 * out beside it compiled every source again.  A --clips document enters
 * by its bytes: spelt from another folder, or with ./, it compiled its
 * sources again (and missed the cache).  So did --split's numbers spelt
 * otherwise.  Other values still compile. */
static void the_tolerance_and_clips_enter_the_key_as_what_they_do(void **state)
{
	char *dir = test_tmpdir("key-implied");
	static const char *const steps[][2] = {
		{ "--layout compact", "compiled 1 source" },
		{ "--layout compact --tolerance default", "1 up to date" },
		{ "--layout compact --tolerance 0.001,0.05,1e-4", "1 up to date" },
		{ "--layout compact --tolerance 0.002,0.05,1e-4", "compiled 1 source" },
		{ "--tolerance default", "compiled 1 source" },
		{ "--tolerance 1e-3,0.050,0.0001", "1 up to date" },
		{ "--clips cl/parts.xml", "compiled 1 source" },
		{ "--clips ./cl/parts.xml", "1 up to date" },
		{ "--clips \"$PWD/cl/parts.xml\"", "1 up to date" },
		{ "--clips cl/other.xml", "compiled 1 source" },
		{ "--split 'Take 001/A=0:1'", "compiled 1 source" },
		{ "--split 'Take 001/A=0.0:1.0'", "1 up to date" },
		{ "--split 'Take 001/A=0:1.5'", "compiled 1 source" },
		{ "--split 'Take 001/A=8f:16f'", "compiled 1 source" },
		{ "--split 'Take 001/A=8.0f:1.6e1f'", "1 up to date" },
		/* 0x1.8f is 1.5 frames, not the hex number 1.558...: other bytes. */
		{ "--split 'Take 001/A=0:0x1.8f'", "compiled 1 source" },
		{ "--split 'Take 001/A=0:1.55859375'", "compiled 1 source" },
		{ "--split 'Take 001/A=0:1.55859375s'", "1 up to date" },
	};
	char *authoring = realpath("testdata/authoring", NULL);
	char *setup = test_format("mkdir cl && cp '%s/Walker.xml' cl/W.xml && cp '%s/Walker_Anims.xml' cl/parts.xml && "
				  "sed 's/Run/Sprint/' cl/parts.xml > cl/other.xml", authoring, authoring);
	test_run r = run_in(dir, setup);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		char *script = test_format("\"$ANIMC\" build --progress never %s -o out cl/W.xml", steps[i][0]);

		r = run_in(dir, script);
		if (r.status != 0 || !strstr(r.out, steps[i][1]))
			fail_msg("%s: exit %d, not '%s':\n%s%s", steps[i][0], r.status, steps[i][1], r.out, r.err);
		test_run_release(&r);
		free(script);
	}
	free(setup), free(authoring), free(dir);
}

/* A UTF-32 response file is named as such (it was called UTF-16, or said
 * to hold a NUL byte), and nothing is built. */
static void a_utf32_response_file_is_named_as_such(void **state)
{
	char *dir = test_tmpdir("args-utf32"), *out = test_format("%s/out", dir);
	char *list = test_format("%s/list", dir), *at = test_format("@%s", list);
	static const uint8_t le[] = { 0xFF, 0xFE, 0, 0, 'a', 0, 0, 0, '\n', 0, 0, 0 };
	static const uint8_t be[] = { 0, 0, 0xFE, 0xFF, 0, 0, 0, 'a', 0, 0, 0, '\n' };

	(void)state;
	for (int k = 0; k < 2; k++) {
		assert_true(test_write_file(list, k ? be : le, sizeof le));
		test_run r = test_animc("build", "-o", out, at, NULL);
		assert_int_equal(r.status, 2);
		if (!strstr(r.err, "is UTF-32 (it starts with a byte-order mark): save it as UTF-8"))
			fail_msg("%s", r.err);
		test_run_release(&r);
		assert_false(test_file_exists(out));
	}
	free(at), free(list), free(out), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_utf32_response_file_is_named_as_such),
	cmocka_unit_test(options_spelt_otherwise_keep_sources_up_to_date),
	cmocka_unit_test(the_tolerance_and_clips_enter_the_key_as_what_they_do),
	cmocka_unit_test(an_empty_input_is_a_usage_error),
	cmocka_unit_test(tidying_an_empty_path_leaves_it_empty),
	cmocka_unit_test(an_empty_file_argument_names_its_option),
	cmocka_unit_test(plot_refuses_split_with_clips_as_build_does),
	cmocka_unit_test(two_reports_in_one_file_are_refused),
	cmocka_unit_test(cache_options_need_a_cache),
	cmocka_unit_test(a_size_under_a_byte_is_not_zero),
	cmocka_unit_test(a_shell_distance_a_float_cannot_hold_is_refused),
	cmocka_unit_test(a_blank_response_file_line_is_left_out),
	cmocka_unit_test(a_response_file_may_be_a_pipe),
};

ANIMC_TEST_GROUP(tests);
