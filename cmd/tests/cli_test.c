/*
 * cli_test.c - the animc command line as users and build scripts meet it:
 * exit statuses, output names and folders, batches with bad files, atomic
 * output, diagnostics format, options.
 */
#define _GNU_SOURCE   /* memmem */
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <regex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <animc/animrt.h>
#include "cli.h"
#include "key.h"
#include "options.h"
#include "test_support.h"

#define SAMPLE "testdata/sample"
#define UNIFORM "testdata/loader/uniform.xnb"

static void help_and_version(void **state)
{
	test_run r;

	(void)state;
	r = test_animc("--help", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: animc"));
	assert_non_null(strstr(r.out, "build"));
	test_run_release(&r);
	r = test_animc("help", "build", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "--exact"));
	assert_non_null(strstr(r.out, "robotgame"));
	test_run_release(&r);
	r = test_animc("build", "--help", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("dump", "--help", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("--version", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ANIMC_VERSION_STRING));
	test_run_release(&r);
}

static void collect_key(void *user, const void *data, size_t size)
{
	FILE *f = user;

	fwrite(data, 1, size, f);
}

/* Built from a git checkout, animc names its commit (`--version`), and
 * every source key holds it: builds of one version string that write
 * other bytes shared cache entries and output folders' records. */
static void the_key_names_the_build(void **state)
{
	test_run git = test_exec("git", "rev-parse", "--short=12", "HEAD", NULL), r;
	char *key = NULL, *want, id[64];
	size_t key_size = 0;
	build_options o;
	FILE *f;

	(void)state;
	if (git.status != 0) {
		test_run_release(&git);
		skip();   /* no checkout: the version string alone */
	}
	git.out[strcspn(git.out, "\n")] = '\0';
	r = test_animc("--version", NULL);
	assert_int_equal(r.status, 0);
	/* "animc VERSION ID (loader ...": ID is the commit, "+DIGEST" when
	 * the tree held changes. */
	assert_int_equal(sscanf(r.out, "animc " ANIMC_VERSION_STRING " %63s (", id), 1);
	assert_int_equal(strncmp(id, git.out, strlen(git.out)), 0);
	test_run_release(&r);
	char *argv[] = { "build", "-o", "out", "in", NULL };
	assert_int_equal(build_options_parse(&o, CMD_BUILD, 4, argv), 0);
	f = open_memstream(&key, &key_size);
	assert_non_null(f);
	build_key_options(&o, collect_key, f);
	fclose(f);
	want = test_format("\ntool animc %s %s\n", ANIMC_VERSION_STRING, id);
	assert_non_null(memmem(key, key_size, want, strlen(want)));
	free(want), free(key);
	build_options_release(&o);
	test_run_release(&git);
}

/* A tree `git archive` made (a release tarball, a snapshot of any commit)
 * is built as the commit it holds, named in lib/build/archive_commit: such
 * builds all said the version string alone, and builds of two commits that
 * write other bytes shared cache entries and output folders' records. */
static void an_archive_is_built_as_its_commit(void **state)
{
	test_run git = test_exec("git", "rev-parse", "--short=12", "HEAD", NULL), r;
	char *dir = test_tmpdir("archive-build"), *header, *want;

	(void)state;
	if (git.status != 0) {
		test_run_release(&git);
		skip();   /* no checkout to archive */
	}
	git.out[strcspn(git.out, "\n")] = '\0';
	/* The make running the tests passes its variables on, in MAKEFLAGS
	 * and, those of its command line (SANITIZE=... of the sanitizer
	 * build), in the environment: the archive's make takes none. */
	r = test_exec("sh", "-c", "git archive HEAD Makefile lib | tar -x -C \"$1\" && "
		      "env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u SANITIZE -u BUILD "
		      "make -s -C \"$1\" build/gen/build_id.h 2>/dev/null", "sh", dir, NULL);
	if (r.status != 0)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	header = test_format("%s/build/gen/build_id.h", dir);
	char *text = (char *)test_read_file(header, NULL);
	want = test_format("#define ANIMC_BUILD_ID \"%s\"\n", git.out);
	if (strcmp(text, want) != 0)
		fail_msg("%s holds %s, not %s", header, text, want);
	free(want), free(text), free(header), free(dir);
	test_run_release(&git);
}

/* A report names animc's build as --version does: two reports of one
 * version string by builds that wrote other bytes said the same tool. */
static void a_report_names_the_build(void **state)
{
	test_run r = test_animc("--version", NULL);
	char id[64], *dir = test_tmpdir("report-tool"), *out = test_format("%s/out", dir);
	char *report = test_format("%s/r.json", dir), *text, *want;

	(void)state;
	assert_int_equal(r.status, 0);
	if (sscanf(r.out, "animc " ANIMC_VERSION_STRING " %63s (", id) != 1 || id[0] == '(') {
		test_run_release(&r);
		skip();   /* built outside git: the version string alone */
	}
	test_run_release(&r);
	r = test_animc("build", "-q", "--report", report, "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	text = (char *)test_read_file(report, NULL);
	want = test_format("\n  \"tool\": \"animc %s %s\",\n", ANIMC_VERSION_STRING, id);
	if (!strstr(text, want))
		fail_msg("no %s in:\n%s", want, text);
	free(want), free(text), free(report), free(out), free(dir);
}

/* -j's default is the CPUs animc may run on, as nproc counts them: in a
 * container or under taskset given one CPU of a large host, a build
 * started a worker for every CPU of the host (up to 64 imports at once,
 * each allowed 4 GB), where make -j$(nproc) starts one. */
static void jobs_default_to_the_cpus_animc_may_run_on(void **state)
{
	char *argv[] = { "build", "-o", "out", "in", NULL };
	cpu_set_t saved, one;
	build_options o;
	int status, first = 0;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof saved, &saved), 0);
	while (!CPU_ISSET(first, &saved))
		first++;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
	status = build_options_parse(&o, CMD_BUILD, 4, argv);
	assert_int_equal(sched_setaffinity(0, sizeof saved, &saved), 0);
	assert_int_equal(status, 0);
	assert_int_equal(o.jobs, 1);
	build_options_release(&o);
	status = build_options_parse(&o, CMD_BUILD, 4, argv);
	assert_int_equal(status, 0);
	assert_int_equal(o.jobs, CPU_COUNT(&saved) > 64 ? 64 : CPU_COUNT(&saved));
	build_options_release(&o);
}

static void usage_errors_exit_2(void **state)
{
	static const char *const cases[][8] = {
		{ NULL },
		{ "frobnicate", NULL },
		{ "help", "frobnicate", NULL },
		{ "build", SAMPLE, NULL },                               /* no -o */
		{ "build", "-o", "build/test-tmp/u", NULL },              /* no inputs */
		{ "build", "-o", "build/test-tmp/u", "--platform", "Q", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--compress", "lzx", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--zstd-level", "0", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--import-timeout", "-1", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--bogus", SAMPLE },
		{ "build", "-q", "-v", "-o", "build/test-tmp/u", SAMPLE },
		{ "build", SAMPLE, "-o", NULL },                          /* -o without a value */
		{ "build", "-o", "build/test-tmp/u", "--tolerance", "0.1,0.1", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--tolerance", "0.1,-1,0", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--tolerance", "nan,0,0", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--layout", "tiny", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--exact", "--tolerance", "default", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--exact", "--layout", "compact", SAMPLE },
		{ "build", "-o", "build/test-tmp/u", "--shell-distance", "1", SAMPLE },   /* no --skeleton */
		{ "build", "-o", "build/test-tmp/u", "--skeleton", SAMPLE "/Crane/Crane.x", "--shell-distance", "0", SAMPLE },
		{ "dump", NULL },
		{ "dump", "a.xnb", "b.xnb", NULL },
		{ "dump", "a.xnb", "--reader-name", NULL },
		{ "dump", "--reader-name", "", "a.xnb", NULL },
		{ "sample", "--time", "0", "a.xnb", "--reader-name", NULL },
		{ "batch", "--reader-name", NULL },
		{ "batch", "a.xnb", NULL },
		{ "clean", "-o", "", NULL },
		{ "build", "-o", "", SAMPLE, NULL },
		{ "outputs", "--output=", SAMPLE, NULL },
		{ "build", "-o", "build/test-tmp/u", "--report", "", SAMPLE, NULL },
		{ "build", "-o", "build/test-tmp/u", "--junit=", SAMPLE, NULL },
		{ "build", "-o", "build/test-tmp/u", "--depfile", "", SAMPLE, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *argv[10] = { test_animc_path() };
		size_t n = 1;

		for (size_t k = 0; k < 8 && cases[i][k]; k++)
			argv[n++] = cases[i][k];
		argv[n] = NULL;
		test_run r = test_execv(argv);
		if (r.status != 2)
			fail_msg("case %zu (%s ...): exit %d, stderr: %s", i, argv[1] ? argv[1] : "", r.status,
				 r.err);
		assert_true(strlen(r.err) > 0);
		test_run_release(&r);
	}
	assert_false(test_file_exists("build/test-tmp/u/Crane"));
	assert_false(test_file_exists("build/sanitize/test-tmp/u/Crane"));
}

/* A report that cannot be written fails the run and is counted in the
 * reports written after it: the JSON report, written last, has it in
 * run_diagnostics and totals.run_errors. */
static void a_report_not_written_is_in_the_others(void **state)
{
	char *dir = test_tmpdir("cli-report-order"), *out = test_format("%s/out", dir);
	char *report = test_format("%s/r.json", dir), *depfile = test_format("%s/no/such/dir/d", dir), *json;
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", out, "--depfile", depfile, "--report", report, SAMPLE "/Crane/Turn.Animation",
		       NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "1 report not written"));
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	if (!json || !strstr(json, "\"run_errors\": 1,") || !strstr(json, "/no/such/dir/d\", \"message\": \"cannot write"))
		fail_msg("%s", json ? json : "(no report)");
	free(json), free(depfile), free(report), free(out), free(dir);
}

/* A malformed ANIMC_CACHE_URL is a usage error naming the variable, not
 * its value (it may hold a password), where the cache would be used;
 * commands that use no cache do not mind it. */
static void a_bad_cache_url_variable_is_a_usage_error(void **state)
{
	char *dir = test_tmpdir("cli-cache-url-env"), *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	setenv("ANIMC_CACHE_URL", "https://animc:pw-0451@cache.example/animc", 1);
	r = test_animc("build", "-o", out, SAMPLE "/Crane/Turn.Animation", NULL);
	unsetenv("ANIMC_CACHE_URL");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "animc build: ANIMC_CACHE_URL: the cache URL holds credentials"));
	assert_non_null(strstr(r.err, "; fix the variable, or unset it to build without the remote cache\n"));
	assert_null(strstr(r.err, "pw-0451"));
	test_run_release(&r);
	assert_false(test_file_exists(out));
	setenv("ANIMC_CACHE_URL", "cache.example/animc", 1);
	r = test_animc("outputs", "-o", out, SAMPLE "/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--cache-url", "http://127.0.0.1:9/c", "-o", out, SAMPLE "/Crane/Turn.Animation",
		       NULL);
	unsetenv("ANIMC_CACHE_URL");
	assert_int_equal(r.status, 0);   /* --cache-url wins over the variable */
	test_run_release(&r);
	free(out);
	free(dir);
}

/* A bad option is named as given: within a cluster of letters, the letter
 * and its cluster, wherever the cluster stands among the arguments. */
static void bad_options_are_named_as_given(void **state)
{
	static const char *const cases[][7] = {
		{ "build", "-o", "build/test-tmp/u", "-dash.Animation", NULL,
		  "animc build: unknown option '-d' (in '-dash.Animation')\n" },
		{ "build", "-o", "x", "-ab", NULL, "animc build: unknown option '-a' (in '-ab')\n" },
		{ "build", "-ab", "-o", "x", NULL, "animc build: unknown option '-a' (in '-ab')\n" },
		{ "build", SAMPLE, "-qa", "-o", "x", NULL, "animc build: unknown option '-a' (in '-qa')\n" },
		{ "build", "-qZ", NULL, "animc build: unknown option '-Z' (in '-qZ')\n" },
		{ "build", "-Z", NULL, "animc build: unknown option '-Z'\n" },
		{ "build", "--bogus", NULL, "animc build: unknown option '--bogus'\n" },
		{ "build", SAMPLE, "-qo", NULL, "animc build: option '-o' (in '-qo') needs a value\n" },
		{ "build", SAMPLE, "--output", NULL, "animc build: option '--output' needs a value\n" },
		{ "clean", "-o", "x", "-qx", NULL, "animc clean: unknown option '-x' (in '-qx')\n" },
		{ "dump", "-xh", "a.xnb", NULL, "animc dump: unknown option '-x' (in '-xh')\n" },
		{ "sample", "-xh", "a.xnb", NULL, "animc sample: unknown option '-x' (in '-xh')\n" },
		{ "sample", "-t", "1", "a.xnb", NULL, "animc sample: unknown option '-t'\n" },
		{ "plot", "-o", "x.svg", "-xh", NULL, "animc plot: unknown option '-x' (in '-xh')\n" },
		{ "dump", "--json=yes", "a.xnb", NULL, "animc dump: option '--json' takes no value\n" },
		{ "dump", "--js=", "a.xnb", NULL, "animc dump: option '--json' takes no value\n" },
		{ "sample", "--repeat=1", "a.xnb", NULL, "animc sample: option '--repeat' takes no value\n" },
		{ "build", "--quiet=1", NULL, "animc build: option '--quiet' takes no value\n" },
		{ "sample", "--re", "--time", "1", "a.xnb", NULL,
		  "animc sample: option '--re' is ambiguous: '--repeat', '--reader-name'\n" },
		{ "plot", "--t=1", NULL, "animc plot: option '--t' is ambiguous: '--track', '--tolerance', "
		  "'--ticks-per-second'\n" },
		{ "dump", "--bogus=1", NULL, "animc dump: unknown option '--bogus=1'\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *argv[8] = { test_animc_path() };
		size_t n = 1, k = 0;

		for (; cases[i][k]; k++)
			argv[n++] = cases[i][k];
		argv[n] = NULL;
		test_run r = test_execv(argv);
		char *want = test_format("%sTry 'animc help %s'.\n", cases[i][k + 1], cases[i][0]);

		assert_int_equal(r.status, 2);
		assert_string_equal(r.err, want);
		free(want);
		test_run_release(&r);
	}
}

/* -q prints diagnostics, and the summary line when a source failed (a log
 * then says how many did), as its help says. */
static void quiet_prints_a_summary_only_when_a_source_fails(void **state)
{
	char *out = test_tmpdir("quiet");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", out, SAMPLE "/Crane/Idle.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "");
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, SAMPLE "/Crane/Idle.Animation", "testdata/hostile/truncated.Animation",
		       NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 0 warnings, 1 up to date\n");
	assert_non_null(strstr(r.err, "truncated.Animation:6:6: error: "));
	test_run_release(&r);
	r = test_animc("help", "build", NULL);
	assert_non_null(strstr(r.out, "  -q, --quiet             print warnings and errors only, and the summary line\n"
				      "                          when a source fails\n"));
	test_run_release(&r);
	free(out);
}

/* --tolerance 0,0,0 asks for no loss: the original layout keeps every key
 * (the bytes of no --tolerance), and the compact layout, which quantises,
 * refuses it rather than quietly using the default tolerance. */
static void a_zero_tolerance_is_lossless_or_refused(void **state)
{
	char *out = test_tmpdir("zero-tolerance"), *plain = test_tmpdir("zero-tolerance-plain");
	char *zero = test_format("%s/original", out), *compact = test_format("%s/compact", out);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", compact, "--layout", "compact", "--tolerance", "0,0,0",
		       "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--tolerance 0,0,0 and --layout compact contradict each other"));
	assert_non_null(strstr(r.err, "cannot be lossless"));
	assert_false(test_file_exists(compact));
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", zero, "--tolerance", "0,0,0", "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", plain, "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_same_bytes(test_format("%s/sway.xnb", zero), test_format("%s/sway.xnb", plain)));
	free(zero), free(compact), free(plain), free(out);
}

/* An option that only means something with another is refused without
 * it, naming both, rather than accepted and ignored; --root-motion takes
 * one bone, so a second is refused rather than replacing the first. */
static void options_that_need_another_are_refused(void **state)
{
	static const struct {
		const char *args[4];
		const char *message;
	} cases[] = {
		{ { "--up-axis", "z" }, "--up-axis needs --root-motion BONE" },
		{ { "--zstd-level", "3" }, "--zstd-level needs --compress zstd" },
		{ { "--compress", "none", "--zstd-level", "3" }, "--zstd-level needs --compress zstd" },
		{ { "--root-motion", "Bone0", "--root-motion", "Root" },
		  "--root-motion 'Root': given already, for bone 'Bone0'; give it once" },
	};
	char *out = test_tmpdir("need-another");

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *argv[12] = { test_animc_path(), "build", "-q", "-o", out };
		size_t n = 5;

		for (size_t k = 0; k < 4 && cases[i].args[k]; k++)
			argv[n++] = cases[i].args[k];
		argv[n++] = "testdata/authoring/Walker.xml";
		argv[n] = NULL;
		test_run r = test_execv(argv);
		if (r.status != 2 || !strstr(r.err, cases[i].message))
			fail_msg("case %zu: exit %d, stderr: %s", i, r.status, r.err);
		assert_int_equal(test_count_files(out), 0);
		test_run_release(&r);
	}
	/* With the option each needs, they are taken. */
	test_run r = test_animc("build", "-q", "-o", out, "--compress", "zstd", "--zstd-level", "3", "--root-motion",
				"Bone0", "--up-axis", "y", "testdata/authoring/Walker.xml", NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb.zst", out)));
	assert_true(test_file_exists(test_format("%s/Walker/Run.motion.xnb.zst", out)));
	test_run_release(&r);
	free(out);
}

/* What `make run` does: every importer, and the skeleton check. */
static void builds_the_sample_folder_mirroring_its_tree(void **state)
{
	static const char *const outputs[] = {
		"Crane/Idle.xnb", "Crane/Turn.xnb", "Crane/Wave.xnb",            /* RobotGame */
		"Crane/Crane/Raise.xnb", "Crane/Crane/Swing.xnb",                 /* .X, Assimp */
		"Crane/Signals/Nod.xnb", "Crane/Signals/PulseAndTurn.xnb",        /* XNA */
	};
	char *out = test_tmpdir("cli-sample");
	test_run r = test_animc("build", "--skeleton", SAMPLE "/Crane/Crane.x", "-o", out, SAMPLE, NULL);
	char *idle = test_format("%s/Crane/Idle.xnb", out);

	(void)state;
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 5 sources (7 clips), 0 failed, 1 skipped, 0 warnings\n"));
	assert_int_equal(strlen(r.err), 0);
	for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
		char *path = test_format("%s/%s", out, outputs[i]);

		if (!test_file_exists(path))
			fail_msg("no %s", path);
		free(path);
	}
	assert_int_equal(test_count_files(out), 7);
	/* The XNA clip's bones take their names from the model. */
	char *nod = test_format("%s/Crane/Signals/Nod.xnb", out);
	animrt_clip *named;
	assert_int_equal(animrt_open_file(nod, &named, NULL), ANIMRT_OK);
	assert_string_equal(named->sequences[0].bone, "Boom");
	animrt_close(named);
	free(nod);
	/* What was written loads. */
	animrt_clip *clip;
	assert_int_equal(animrt_open_file(idle, &clip, NULL), ANIMRT_OK);
	assert_int_equal(clip->sequence_count, 5);
	animrt_close(clip);
	/* -v lists the skipped file; -q prints nothing on success. */
	test_run_release(&r);
	r = test_animc("build", "-v", "-o", out, SAMPLE, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "skipped testdata/sample/README.md"));
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, SAMPLE, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(strlen(r.out), 0);
	test_run_release(&r);
	free(idle);
	free(out);
}

static void output_is_deterministic(void **state)
{
	char *a = test_tmpdir("cli-det-a"), *b = test_tmpdir("cli-det-b");
	test_run r1 = test_animc("build", "-q", "-o", a, SAMPLE, NULL);
	test_run r2 = test_animc("build", "-q", "-o", b, SAMPLE, NULL);
	char *ia = test_format("%s/Crane/Idle.xnb", a), *ib = test_format("%s/Crane/Idle.xnb", b);
	test_run cmp = test_exec("cmp", "-s", ia, ib, NULL);
	test_run diff = test_exec("diff", "-r", "-x", ".animc", a, b, NULL);

	(void)state;
	assert_int_equal(r1.status, 0);
	assert_int_equal(r2.status, 0);
	assert_int_equal(cmp.status, 0);
	assert_int_equal(diff.status, 0);
	test_run_release(&r1);
	test_run_release(&r2);
	test_run_release(&cmp);
	test_run_release(&diff);
	free(ia);
	free(ib);
	free(a);
	free(b);
}

static void bad_files_fail_alone_without_output(void **state)
{
	char *in = test_tmpdir("cli-batch-in");
	char *out = test_tmpdir("cli-batch-out");
	char *cmd = test_format("cp testdata/sample/Crane/*.Animation %s/ && "
				"cp testdata/hostile/nan-rotation.Animation %s/Bad.Animation && "
				"cp testdata/hostile/truncated.Animation %s/Cut.Animation", in, in, in);
	regex_t re;

	(void)state;
	assert_int_equal(system(cmd), 0);
	test_run r = test_animc("build", "-o", out, in, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "compiled 3 sources (3 clips), 2 failed, 0 skipped"));
	assert_int_equal(test_count_files(out), 3);   /* nothing partial, no temporaries */
	char *bad = test_format("%s/Bad.xnb", out);
	assert_false(test_file_exists(bad));
	/* Diagnostics: path:line[:column]: error: message. */
	assert_int_equal(regcomp(&re, "Bad\\.Animation:[0-9]+(:[0-9]+)?: error: ", REG_EXTENDED), 0);
	assert_int_equal(regexec(&re, r.err, 0, NULL, 0), 0);
	regfree(&re);
	assert_int_equal(regcomp(&re, "Cut\\.Animation:[0-9]+:[0-9]+: error: ", REG_EXTENDED), 0);
	assert_int_equal(regexec(&re, r.err, 0, NULL, 0), 0);
	regfree(&re);
	test_run_release(&r);
	free(bad);
	free(cmd);
	free(in);
	free(out);
}

static void files_given_directly_land_in_outdir(void **state)
{
	char *out = test_tmpdir("cli-direct");
	char *path = test_format("%s/Turn.xnb", out);

	(void)state;
	test_run r = test_animc("build", "-q", "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_true(test_file_exists(path));
	test_run_release(&r);
	/* Two sources with one output name: the second is refused. */
	char *other = test_format("%s/Turn.Animation", test_tmpdir("cli-direct-other"));
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Wave.Animation", &size);

	assert_true(test_write_file(other, bytes, size));
	free(bytes);
	r = test_animc("build", "-q", "-o", out, "testdata/sample/Crane/Turn.Animation", other, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, ", 1 failed, 0 skipped"));
	test_run_release(&r);
	/* One source named twice: built once. */
	r = test_animc("build", "-q", "-o", out, "testdata/sample/Crane/Turn.Animation",
		       "testdata/sample/Crane/../Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(other);
	/* A file no importer knows, given directly: an error, exit 1 (a mix-up
	 * of inputs and outputs must not pass CI)... */
	r = test_animc("build", "-o", out, "Makefile", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Makefile: error: "));
	assert_non_null(strstr(r.out, "1 failed, 0 skipped"));
	test_run_release(&r);
	/* ...a compiled file given as a source says so, whatever its name... */
	char *compiled = test_format("%s/Turn.xnb", out), *renamed = test_format("%s/Turn.data", out);
	size_t compiled_size;
	uint8_t *compiled_bytes = test_read_file(compiled, &compiled_size);
	assert_true(test_write_file(renamed, compiled_bytes, compiled_size));
	r = test_animc("build", "-q", "-o", out, compiled, renamed, NULL);
	assert_int_equal(r.status, 1);
	const char *hint = strstr(r.err, "this is a compiled file; give the source it came from");
	assert_non_null(hint);
	assert_non_null(strstr(hint + 1, "this is a compiled file; give the source it came from"));
	test_run_release(&r);
	/* ...and in a folder walk such files are skipped, as before. */
	r = test_animc("build", "-o", out, "testdata/loader", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "error"));
	assert_non_null(strstr(r.out, "0 failed, 6 skipped"));
	test_run_release(&r);
	free(compiled_bytes);
	free(renamed);
	free(compiled);
	/* --warnings-as-errors turns that into a failure, writing nothing. */
	r = test_animc("build", "-q", "--warnings-as-errors", "-o", out,
		       "testdata/golden/dialect.Animation", NULL);
	assert_int_equal(r.status, 1);
	char *dialect = test_format("%s/dialect.xnb", out);
	assert_false(test_file_exists(dialect));
	free(dialect);
	test_run_release(&r);
	/* A missing input and a dangling link fail; the rest compiles. */
	char *link = test_format("%s/dangling.Animation", out);
	assert_int_equal(symlink("/no/such/target", link), 0);
	r = test_animc("build", "-q", "-o", out, "no/such/file.Animation", link,
		       "testdata/sample/Crane/Idle.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "no/such/file.Animation: error: "));
	assert_non_null(strstr(r.out, "compiled 1 source (1 clip), 2 failed"));
	test_run_release(&r);
	free(link);
	free(path);
	free(out);
}

/* An option given twice keeps its last value (a script appends overrides,
 * on the command line or in a response file), as the help says. */
static void a_repeated_option_keeps_its_last_value(void **state)
{
	char *out = test_tmpdir("cli-repeated"), *xnb = test_format("%s/Turn.xnb", out);
	char *list = test_format("%s/args", out), *at = test_format("@%s", list);
	static const char args[] = "--platform\nw\n--platform\nV\n";
	size_t size;
	uint8_t *bytes;

	(void)state;
	test_run r = test_animc("build", "-q", "--platform", "w", "--platform", "x", "-o", out,
				"testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	bytes = test_read_file(xnb, &size);
	assert_int_equal(bytes[3], 'x');
	free(bytes);
	assert_true(test_write_file(list, args, strlen(args)));
	r = test_animc("build", "-q", "--platform", "x", at, "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	bytes = test_read_file(xnb, &size);
	assert_int_equal(bytes[3], 'V');
	free(bytes);
	r = test_animc("help", "build", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "An option given twice keeps its last value"));
	test_run_release(&r);
	free(list), free(at), free(xnb), free(out);
}

/* --platform takes the MonoGame name of a letter, as a --mgcb project's
 * /platform: does; a name it does not know is refused naming a few. */
static void platform_takes_the_monogame_name(void **state)
{
	char *out = test_tmpdir("cli-platform-name"), *xnb = test_format("%s/Turn.xnb", out);
	static const char *const names[] = { "DesktopGL", "desktopgl", "XboxOne" };
	static const char letters[] = { 'd', 'd', 'O' };
	size_t size;
	uint8_t *bytes;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		test_run r = test_animc("build", "-q", "--platform", names[i], "-o", out,
					"testdata/sample/Crane/Turn.Animation", NULL);

		assert_int_equal(r.status, 0);
		test_run_release(&r);
		bytes = test_read_file(xnb, &size);
		assert_int_equal(bytes[3], letters[i]);
		free(bytes);
	}
	test_run r = test_animc("build", "-q", "--platform", "Desktop", "-o", out, "testdata/sample/Crane/Turn.Animation",
				NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--platform 'Desktop' is neither a platform letter nor a MonoGame platform name"));
	assert_non_null(strstr(r.err, "d DesktopGL"));
	test_run_release(&r);
	free(xnb), free(out);
}

/* -v's passes line counts in the singular for one and the plural else. */
static void the_passes_line_says_one_in_the_singular(void **state)
{
	char *out = test_tmpdir("cli-passes-line");

	(void)state;
	test_run r = test_animc("build", "-v", "-o", out, "testdata/sample/Crane/Signals.xml", NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "    clip 'Nod': 1 s, 1 bone, 5 keys\n    passes: 2 tracks made fixed, 1 sequence made uniform\n") ||
	    !strstr(r.out, "    passes: 4 tracks made fixed, 2 sequences made uniform\n"))
		fail_msg("%s", r.out);
	test_run_release(&r);
	free(out);
}

static void options_reach_the_file(void **state)
{
	char *out = test_tmpdir("cli-options");
	char *xnb = test_format("%s/Turn.xnb", out), *zst = test_format("%s/Turn.xnb.zst", out);
	char *unpacked = test_format("%s/unpacked.xnb", out);
	animrt_clip *clip;
	size_t size;

	(void)state;
	test_run r = test_animc("build", "-q", "--platform", "x", "--reader-name", "Game.Reader, Game",
				"-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	uint8_t *bytes = test_read_file(xnb, &size);
	assert_int_equal(bytes[3], 'x');
	free(bytes);
	/* Not an AnimationReader by name: the caller says it takes it. */
	const char *names[] = { "Game.Reader" };
	animrt_open_options takes = { names, 1, false, false };
	assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_ERR_CONTENT);
	assert_int_equal(animrt_open_file_with(xnb, &takes, &clip, NULL), ANIMRT_OK);
	assert_string_equal(clip->container.reader, "Game.Reader, Game");
	animrt_close(clip);
	/* Today's MonoGame letters, DesktopVK here, reach the file and load. */
	r = test_animc("build", "-q", "--platform", "V", "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	bytes = test_read_file(xnb, &size);
	assert_int_equal(bytes[3], 'V');
	free(bytes);
	assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_OK);
	assert_int_equal(clip->container.platform, 'V');
	animrt_close(clip);
	r = test_animc("build", "-q", "--platform", "x", "--reader-name", "Game.Reader, Game",
		       "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* So do dump, sample and batch, given --reader-name. */
	r = test_animc("dump", xnb, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "error: byte 11: holds Game.Reader, not an AnimationSequence"));
	assert_non_null(strstr(r.err, "--reader-name"));
	test_run_release(&r);
	r = test_animc("dump", "--reader-name", "Game.Reader", xnb, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "reader: Game.Reader, Game"));
	test_run_release(&r);
	r = test_animc("sample", "--time", "0.5", xnb, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	r = test_animc("sample", "--reader-name", "Game.Reader, Game", "--time", "0.5", xnb, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Cab"));
	test_run_release(&r);
	char *requests = test_format("%s/requests", out), *line = test_format("dump\t--json\t%s\n", xnb);
	assert_true(test_write_file(requests, line, strlen(line)));
	const char *plain[] = { test_animc_path(), "batch", NULL };
	const char *named[] = { test_animc_path(), "batch", "--reader-name", "Game.Reader", NULL };
	r = test_execv_stdin(plain, requests);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	r = test_execv_stdin(named, requests);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"reader\": \"Game.Reader, Game\""));
	test_run_release(&r);
	free(requests);
	free(line);

	r = test_animc("build", "-q", "--compress", "zstd", "-o", out,
		       "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_file_exists(zst));
	/* zstd -d gives back exactly the .xnb the plain build writes. */
	r = test_animc("build", "-q", "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	test_run_release(&r);
	r = test_exec("zstd", "-q", "-d", "-f", zst, "-o", unpacked, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cmp", xnb, unpacked, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("dump", "--json", zst, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"compression\": \"zstd\""));
	test_run_release(&r);
	free(xnb);
	free(zst);
	free(unpacked);
	free(out);
}

static void dump_reports_damage_with_the_offset(void **state)
{
	char *dir = test_tmpdir("cli-dump");
	char *damaged = test_format("%s/damaged.xnb", dir);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/loader/uniform.xnb", &size);

	(void)state;
	test_run r = test_animc("dump", "testdata/loader/uniform.xnb", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Root"));
	test_run_release(&r);
	bytes[6] ^= 1;   /* the size field */
	assert_true(test_write_file(damaged, bytes, size));
	r = test_animc("dump", damaged, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "damaged.xnb: error: byte 6: "));
	test_run_release(&r);
	r = test_animc("dump", "--json", "no/such.xnb", NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	r = test_animc("dump", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	free(bytes);
	free(damaged);
	free(dir);
}

/* A file dump cannot read is named once, with the reason in the user's
 * terms: not "'X': error: cannot open 'X'", nor an empty file called a
 * truncated XNB magic. */
static void dump_says_why_a_file_cannot_be_read_naming_it_once(void **state)
{
	char *dir = test_tmpdir("cli-dump-unreadable");
	char *empty = test_format("%s/empty.xnb", dir), *missing = test_format("%s/missing.xnb", dir);
	char *want_empty = test_format("%s: error: the file is empty\n", empty);
	char *want_missing = test_format("%s: error: cannot open: No such file or directory\n", missing);
	char *want_folder = test_format("%s: error: is a folder\n", dir);
	test_run r;

	(void)state;
	assert_true(test_write_file(empty, "", 0));
	r = test_animc("dump", empty, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want_empty);
	test_run_release(&r);
	r = test_animc("sample", "--time", "0", missing, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want_missing);
	test_run_release(&r);
	r = test_animc("dump", dir, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want_folder);
	assert_string_equal(r.out, "");
	test_run_release(&r);
	/* A source given where its compiled clip goes: what to do. */
	r = test_animc("dump", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "testdata/sample/Crane/Turn.Animation: error: byte 0: no XNB magic: this is not a "
				   "compiled clip\ntestdata/sample/Crane/Turn.Animation: note: this reads the .xnb files "
				   "'animc build' writes; compile a source first ('animc build -o OUTDIR SOURCE')\n");
	test_run_release(&r);
	free(want_folder);
	free(want_missing);
	free(want_empty);
	free(missing);
	free(empty);
	free(dir);
}

/* dump, sample and plot read a compiled file from a pipe or a FIFO to its
 * end, as a file (`animc dump <(zstd -dc F.xnb.zst)`, `cat F.xnb | animc
 * dump /dev/stdin`): they refused it as "a FIFO, not a regular file".  The
 * other inputs that are no file are still refused, each said as what it
 * is, exit 1: /dev/null is empty, a socket is a socket. */
static void dump_sample_and_plot_read_a_pipe(void **state)
{
	char *tmp = test_tmpdir("cli-dump-pipe"), *dir = realpath(tmp, NULL), *animc = realpath(test_animc_path(), NULL);
	char *sway = realpath("testdata/compact/sway.Animation", NULL);
	char *xnb = test_format("%s/sway.xnb", dir), *svg = test_format("%s/sway.svg", dir);
	char *sock = test_format("%s/sock", dir), *want_sock = test_format("%s: error: is a socket, not a file or a "
									 "pipe; not read\n", sock);
	test_run r = test_animc("build", "-q", "-o", dir, "testdata/compact/sway.Animation", NULL), file, piped;

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	setenv("ANIMC", animc, 1), setenv("XNB", xnb, 1), setenv("SWAY", sway, 1), setenv("DIR", dir, 1);
	file = test_animc("dump", "--json", xnb, NULL);
	piped = test_exec("sh", "-c", "cat \"$XNB\" | \"$ANIMC\" dump --json /dev/stdin", NULL);
	if (piped.status != 0 || file.status != 0 || strcmp(piped.out, file.out) != 0)
		fail_msg("dump /dev/stdin: exit %d\n%s%s", piped.status, piped.out, piped.err);
	test_run_release(&piped);
	piped = test_exec("sh", "-c", "cd \"$DIR\" && mkfifo fifo && { cat \"$XNB\" > fifo & } && \"$ANIMC\" dump "
			  "--json fifo", NULL);
	if (piped.status != 0 || strcmp(piped.out, file.out) != 0)
		fail_msg("dump FIFO: exit %d\n%s%s", piped.status, piped.out, piped.err);
	test_run_release(&piped), test_run_release(&file);
	file = test_animc("sample", "--json", "--time", "0.5", xnb, "--blend", xnb, "--weight", "0.5", NULL);
	piped = test_exec("sh", "-c", "cat \"$XNB\" | \"$ANIMC\" sample --json --time 0.5 /dev/stdin --blend "
			  "\"$XNB\" --weight 0.5", NULL);
	if (piped.status != 0 || file.status != 0 || strcmp(piped.out, file.out) != 0)
		fail_msg("sample /dev/stdin: exit %d\n%s%s", piped.status, piped.out, piped.err);
	test_run_release(&piped), test_run_release(&file);
	piped = test_exec("sh", "-c", "cat \"$XNB\" | \"$ANIMC\" plot --bone Spine -o \"$DIR/sway.svg\" /dev/stdin "
			  "\"$SWAY\"", NULL);
	if (piped.status != 0 || !test_file_exists(svg))
		fail_msg("plot /dev/stdin: exit %d\n%s%s", piped.status, piped.out, piped.err);
	test_run_release(&piped);
	r = test_animc("dump", "/dev/null", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "/dev/null: error: the file is empty\n");
	test_run_release(&r);
	/* Bound from its folder: a socket's path is short. */
	r = test_exec("sh", "-c", "cd \"$DIR\" && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"sock\")'",
		      NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("sample", "--time", "0", sock, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want_sock);
	test_run_release(&r);
	unsetenv("ANIMC"), unsetenv("XNB"), unsetenv("SWAY"), unsetenv("DIR");
	free(want_sock), free(sock), free(svg), free(xnb), free(sway), free(animc), free(dir), free(tmp);
}

/* Two sources of one name in two folders, given as files, land on one
 * output: the second is refused, saying how to keep them apart. */
static void one_output_of_two_sources_says_what_keeps_them_apart(void **state)
{
	char *dir = test_tmpdir("cli-one-output"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/a/Turn.Animation", dir), *b = test_format("%s/b/Turn.Animation", dir);
	test_run r;

	(void)state;
	const char *from[] = { "testdata/sample/Crane/Turn.Animation", "testdata/sample/Crane/Wave.Animation" };
	char *to[] = { a, b }, *folders[] = { test_format("%s/a", dir), test_format("%s/b", dir) };
	for (int i = 0; i < 2; i++) {
		size_t size;
		uint8_t *bytes = test_read_file(from[i], &size);

		assert_int_equal(mkdir(folders[i], 0777), 0);
		assert_true(test_write_file(to[i], bytes, size));
		free(bytes), free(folders[i]);
	}
	r = test_animc("build", "-q", "-o", out, a, b, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "/a/Turn.Animation' in this run; not written: give --base DIR (a folder above both) to "
			   "keep their folders apart, or rename one\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--base", dir, "-o", out, a, b, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(a), free(b), free(out), free(dir);
}

/* The run's own warnings (here a cache folder that cannot be made) are
 * counted in the summary and the report's totals: the summary line says
 * as many warnings as were printed; the report lists them with their
 * text (run_diagnostics), and JUnit in the suite's system-err. */
static void the_summary_counts_the_runs_own_warnings(void **state)
{
	char *dir = test_tmpdir("cli-run-warnings");
	char *file = test_format("%s/file", dir), *cache = test_format("%s/file/cache", dir);
	char *out = test_format("%s/out", dir), *report = test_format("%s/report.json", dir);
	char *junit = test_format("%s/junit.xml", dir);
	unsigned printed = 0;
	char *want, *json, *want_json, *xml, *first;
	test_run r;

	(void)state;
	assert_true(test_write_file(file, "", 0));
	r = test_animc("build", "--cache-dir", cache, "--cache-min-size", "0", "--report", report, "--junit", junit,
		       "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	for (const char *p = r.err; (p = strstr(p, "animc: warning: ")); p++)
		printed++;
	assert_true(printed >= 1);
	/* The cache's recap of its problems is a note (-v), not one more. */
	assert_null(strstr(r.err, "problems in all"));
	want = test_format("0 failed, 0 skipped, %u warning%s\n", printed, printed == 1 ? "" : "s");
	if (!strstr(r.out, want))
		fail_msg("no '%s' in '%s'", want, r.out);
	json = (char *)test_read_file(report, NULL);
	want_json = test_format("\"warnings\": %u, \"run_warnings\": %u,", printed, printed);
	if (!strstr(json, want_json))
		fail_msg("no '%s' in '%s'", want_json, json);
	free(want_json);
	/* The first warning as printed: "animc: warning: cache folder '...': ... [cache]";
	 * the report gives the message and the kind apart. */
	first = strstr(r.err, "animc: warning: ") + strlen("animc: warning: ");
	first = strndup(first, strcspn(first, "\n"));
	assert_non_null(strstr(first, "cache folder"));
	assert_true(strlen(first) > 8 && strcmp(first + strlen(first) - 8, " [cache]") == 0);
	first[strlen(first) - 8] = '\0';
	want_json = test_format("\"run_diagnostics\": [\n    {\"severity\": \"warning\", \"path\": null, "
				"\"message\": \"%s\", \"line\": 0, \"kind\": \"cache\"}", first);
	if (!strstr(json, want_json))
		fail_msg("no '%s' in '%s'", want_json, json);
	xml = (char *)test_read_file(junit, NULL);
	assert_non_null(xml);
	assert_non_null(strstr(xml, "    <system-err>animc: warning: cache folder &apos;"));
	test_run_release(&r);
	free(xml);
	free(first);
	free(json);

	/* Allowed (--allow cache): not printed, counted or listed. */
	r = test_animc("build", "--rebuild", "--cache-dir", cache, "--cache-min-size", "0", "--allow", "cache",
		       "--report", report, "-o", out, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "0 failed, 0 skipped, 0 warnings\n"));
	json = (char *)test_read_file(report, NULL);
	assert_non_null(strstr(json, "\"run_diagnostics\": []"));
	assert_non_null(strstr(json, "\"warnings\": 0, \"run_warnings\": 0,"));
	test_run_release(&r);
	free(junit);
	free(want_json);
	free(json);
	free(want);
	free(report);
	free(out);
	free(cache);
	free(file);
	free(dir);
}

/* A first word that is no command: an option when it starts with '-', and
 * a near miss says what it may mean. */
static void an_unknown_first_word_says_what_it_may_mean(void **state)
{
	static const char *const cases[][2] = {
		{ "--versoin", "animc: unknown option '--versoin' (did you mean '--version'?)\nTry 'animc help'.\n" },
		{ "--frobnicate", "animc: unknown option '--frobnicate'\nTry 'animc help'.\n" },
		{ "biuld", "animc: no command 'biuld' (did you mean 'build'?)\nTry 'animc help'.\n" },
		{ "frobnicate", "animc: no command 'frobnicate'\nTry 'animc help'.\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		test_run r = test_animc(cases[i][0], NULL);

		assert_int_equal(r.status, 2);
		assert_string_equal(r.err, cases[i][1]);
		assert_string_equal(r.out, "");
		test_run_release(&r);
	}
}

/* A word after help that is no topic is help's usage error, with help's
 * hint: `help --json` said "animc: unknown option", as if --json came first. */
static void an_unknown_topic_is_helps_usage_error(void **state)
{
	static const char *const cases[][2] = {
		{ "--json", "animc help: unknown option '--json'\nTry 'animc help help'.\n" },
		{ "--versoin", "animc help: unknown option '--versoin' (did you mean '--version'?)\nTry 'animc help help'.\n" },
		{ "biuld", "animc help: no command 'biuld' (did you mean 'build'?)\nTry 'animc help help'.\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		test_run r = test_animc("help", cases[i][0], NULL);

		assert_int_equal(r.status, 2);
		assert_string_equal(r.err, cases[i][1]);
		assert_string_equal(r.out, "");
		test_run_release(&r);
	}
}

/* A misspelt option of a command says what it may mean, as a misspelt
 * command does: each command's options had no near-name search, so the
 * long build options a first-time user mistypes got a bare "unknown
 * option".  Among the options that command takes: clean takes no
 * --prune, so --prun is no misspelling of it there.  A short option typed
 * in the other case (-O) is the one it may mean; dump has no -o. */
static void a_misspelt_option_says_what_it_may_mean(void **state)
{
	static const char *const cases[][4] = {
		{ "build", "--tolerence", "unknown option '--tolerence' (did you mean '--tolerance'?)" },
		{ "build", "--skeletn", "unknown option '--skeletn' (did you mean '--skeleton'?)" },
		{ "build", "--tolerence=default", "unknown option '--tolerence=default' (did you mean '--tolerance'?)" },
		{ "outputs", "--tolerence", "unknown option '--tolerence' (did you mean '--tolerance'?)" },
		{ "watch", "--tolerence", "unknown option '--tolerence' (did you mean '--tolerance'?)" },
		{ "dump", "--jsn", "unknown option '--jsn' (did you mean '--json'?)" },
		{ "sample", "--tmie", "unknown option '--tmie' (did you mean '--time'?)" },
		{ "plot", "--bnoe", "unknown option '--bnoe' (did you mean '--bone'?)" },
		{ "batch", "--reader-nmae", "unknown option '--reader-nmae' (did you mean '--reader-name'?)" },
		{ "build", "--frobnicate", "unknown option '--frobnicate'" },
		{ "clean", "--prun", "unknown option '--prun'" },
		{ "build", "-O", "unknown option '-O' (did you mean '-o'?)" },
		{ "outputs", "-qO", "unknown option '-O' (in '-qO') (did you mean '-o'?)" },
		{ "build", "-J", "unknown option '-J' (did you mean '-j'?)" },
		{ "plot", "-O", "unknown option '-O' (did you mean '-o'?)" },
		{ "dump", "-H", "unknown option '-H' (did you mean '-h'?)" },
		{ "build", "-x", "unknown option '-x'" },
		{ "dump", "-O", "unknown option '-O'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		test_run r = test_animc(cases[i][0], cases[i][1], "-o", "x", "x", NULL);
		char *want = test_format("animc %s: %s\nTry 'animc help %s'.\n", cases[i][0], cases[i][2], cases[i][0]);

		assert_int_equal(r.status, 2);
		assert_string_equal(r.err, want);
		free(want);
		test_run_release(&r);
	}
}

/* Other XNA content is refused by name, before its bytes are read as a clip. */
static void dump_refuses_other_content_naming_its_reader(void **state)
{
	static const char *const files[][2] = {
		{ "testdata/fuzz/loader/other-vector2.xnb", "Microsoft.Xna.Framework.Content.Vector2Reader" },
		{ "testdata/fuzz/loader/other-texture2d.xnb", "Microsoft.Xna.Framework.Content.Texture2DReader" },
		{ "testdata/fuzz/loader/other-model-head.xnb", "Microsoft.Xna.Framework.Content.ModelReader" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *want = test_format("%s: error: byte 11: holds %s, not an AnimationSequence", files[i][0],
					 files[i][1]);
		test_run r = test_animc("dump", "--json", files[i][0], NULL);

		assert_int_equal(r.status, 1);
		assert_string_equal(r.out, "");
		if (!strstr(r.err, want))
			fail_msg("no '%s' in '%s'", want, r.err);
		test_run_release(&r);
		r = test_animc("sample", "--time", "1", files[i][0], NULL);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, want));
		test_run_release(&r);
		free(want);
	}
}

static void escaping_makes_names_safe_for_a_terminal(void **state)
{
	static const char *const cases[][2] = {
		{ "L Calf", "L Calf" },
		{ "a\nb\tc\rd", "a\\nb\\tc\\rd" },
		{ "\x1b[2J\x1b]0;pwned\x07", "\\x1b[2J\\x1b]0;pwned\\x07" },
		{ "del\x7f", "del\\x7f" },
		{ "C:\\art", "C:\\\\art" },
		{ "Bras\xc3\xa9 \xe2\x82\xac \xf0\x9f\xa6\xb4", "Bras\xc3\xa9 \xe2\x82\xac \xf0\x9f\xa6\xb4" },
		{ "c1 \xc2\x9b" "2J", "c1 \\u009b2J" },      /* U+009B, CSI to some terminals */
		{ "bad \xff \xc3", "bad \\xff \\xc3" },
		{ "overlong \xc0\x80 \xe0\x80\x80", "overlong \\xc0\\x80 \\xe0\\x80\\x80" },
		{ "surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80" },
		{ "beyond \xf4\x90\x80\x80", "beyond \\xf4\\x90\\x80\\x80" },
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t need = cli_escape(buf, sizeof buf, cases[i][0]);

		assert_string_equal(buf, cases[i][1]);
		assert_int_equal(need, strlen(cases[i][1]));
	}
	/* Too small a buffer: cut, terminated, and the length needed said. */
	assert_int_equal(cli_escape(buf, 4, "a\nbc"), 5);
	assert_string_equal(buf, "a\\n");
	assert_int_equal(cli_escape(NULL, 0, "\x1b"), 4);
}

/* A bone name holding a newline and terminal escapes: dump and sample
 * tables print it escaped; JSON escapes it its own way. */
static void tables_escape_control_characters_in_names(void **state)
{
	static const char evil[] = "Evil\n\x1b[2J\x1b[31mRed";
	char *dir = test_tmpdir("cli-escape");
	char *xnb = test_format("%s/evil.xnb", dir);
	animc_clip *clip = animc_clip_create("");
	uint8_t *bytes;
	size_t size;

	(void)state;
	clip->duration_s = 1;
	uint32_t ch = test_add_channel(clip, evil, 1, NULL, 1, 1);
	test_set_track(clip, ch, ANIMC_ROTATION, true, (const float[]){ 0, 0, 0, 1 }, 1, NULL);
	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, &size, NULL), ANIMC_OK);
	assert_true(test_write_file(xnb, bytes, size));
	free(bytes);
	animc_clip_destroy(clip);

	test_run runs[2] = { test_animc("dump", xnb, NULL), test_animc("sample", "--time", "0", xnb, NULL) };
	for (int i = 0; i < 2; i++) {
		assert_int_equal(runs[i].status, 0);
		assert_non_null(strstr(runs[i].out, "Evil\\n\\x1b[2J\\x1b[31mRed"));
		assert_null(strchr(runs[i].out, '\x1b'));
		test_run_release(&runs[i]);
	}
	test_run r = test_animc("dump", "--json", xnb, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"Evil\\n\\u001b[2J\\u001b[31mRed\""));
	test_run_release(&r);
	free(xnb);
	free(dir);
}

/* An editor's backup (name~) and auto-save (#name#) of a source are no
 * sources: compiled, the backup took the source's output, and an old
 * version was written over it when the source itself failed. */
static void editor_backups_are_left_out_of_a_folder(void **state)
{
	char *in = test_tmpdir("cli-backups");
	char *cmd = test_format("cp testdata/sample/Crane/Turn.Animation %s/ && cp %s/Turn.Animation '%s/Turn.Animation~' && "
				"cp %s/Turn.Animation '%s/#Turn.Animation#' && cp %s/Turn.Animation %s/Turn.Animation.tmp",
				in, in, in, in, in, in, in);
	char *out = test_tmpdir("cli-backups-out");

	(void)state;
	assert_int_equal(system(cmd), 0);
	test_run r = test_animc("build", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "compiled 1 source (1 clip), 0 failed, 0 skipped"))
		fail_msg("%s%s", r.out, r.err);
	assert_int_equal(test_count_files(out), 1);
	test_run_release(&r);
	free(cmd);
	free(out);
	free(in);
}

static void tidy_is(const char *in, const char *want)
{
	char buf[64];

	strcpy(buf, in);
	cli_path_tidy(buf);
	assert_string_equal(buf, want);
}

/* One folder spelled another way ("./art", "art//.", its absolute path)
 * is the same sources: nothing to compile again, and no warning that
 * another source took their outputs (10,000 of them on a big tree). */
static void an_input_spelled_another_way_is_the_same_sources(void **state)
{
	char *in = test_tmpdir("cli-spelling"), *art = test_format("%s/art", in), *out = test_format("%s/out", in);
	char *cmd = test_format("mkdir -p %s && cp testdata/sample/Crane/Turn.Animation testdata/sample/Crane/Wave.Animation %s/",
				art, art);
	char *dotted = test_format("./%s//.", art), *whole = realpath(".", NULL), *absolute;

	(void)state;
	tidy_is("./art//Grund/.", "art/Grund");
	tidy_is("./", ".");
	tidy_is("/./a/../b/", "/a/../b");
	tidy_is("//", "/");
	assert_non_null(whole);
	absolute = test_format("%s/%s", whole, art);
	assert_int_equal(system(cmd), 0);
	test_run r = test_animc("build", "-q", "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-o", out, dotted, NULL);
	if (r.status != 0 || !strstr(r.out, "0 warnings, 2 up to date"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", out, absolute, NULL);
	if (r.status != 0 || !strstr(r.out, "0 failed, 0 skipped, 0 warnings"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(absolute), free(whole), free(dotted), free(cmd), free(out), free(art), free(in);
}

static void outdir_inside_an_input_is_left_out(void **state)
{
	char *in = test_tmpdir("cli-nested");
	char *cmd = test_format("cp testdata/sample/Crane/Turn.Animation %s/", in);
	char *out = test_format("%s/out", in);

	(void)state;
	assert_int_equal(system(cmd), 0);
	test_run r = test_animc("build", "-q", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* Again: the outputs of the first run are not inputs now. */
	r = test_animc("build", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "0 failed, 0 skipped, 0 warnings, 1 up to date"));
	test_run_release(&r);
	free(cmd);
	free(out);
	free(in);
}

/* What a command prints on standard output is its result: when it cannot
 * be written (a full disk) the command fails, saying so, whatever it is. */
static void a_lost_standard_output_is_a_failure(void **state)
{
	static const char *const cases[][8] = {
		{ "dump", "--json", UNIFORM, NULL, "dump" },
		{ "dump", UNIFORM, NULL, "dump" },
		{ "sample", "--json", "--time", "1", UNIFORM, NULL, "sample" },
		{ "batch", NULL, "batch" },
		{ "outputs", "-o", "build/test-tmp/u", SAMPLE, NULL, "outputs" },
		{ "build", "-o", "build/test-tmp/stdout-full", SAMPLE, NULL, "build" },
		{ "clean", "-o", "build/test-tmp/stdout-full", NULL, "clean" },
		{ "--help", NULL, NULL },
		{ "--version", NULL, NULL },
		{ "help", "dump", NULL, "help" },
		{ "help", "--completion", NULL, "help" },
		{ "help", "--markdown", NULL, "help" },
		{ "help", "--man", NULL, "help" },
		{ "outputs", "--help", NULL, "outputs" },
		{ "dump", "--help", NULL, "dump" },
		{ "plot", "--bone", "Root", "-o", "PLOT", UNIFORM, UNIFORM, NULL },
	};
	char *dir = test_tmpdir("stdout-full");
	char *requests = test_format("%s/requests.txt", dir), *svg = test_format("%s/p.svg", dir);
	const char line[] = "dump " UNIFORM "\nsample --time 0 " UNIFORM "\n";

	(void)state;
	assert_true(test_write_file(requests, line, strlen(line)));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *argv[14] = { "sh", "-c", "exec \"$0\" \"$@\" < \"$STDIN\" > /dev/full", test_animc_path() };
		size_t n = 4, k = 0;

		for (; cases[i][k]; k++)
			argv[n++] = strcmp(cases[i][k], "PLOT") == 0 ? svg : cases[i][k];
		argv[n] = NULL;
		const char *command = strcmp(cases[i][0], "plot") == 0 ? "plot" : cases[i][k + 1];
		setenv("STDIN", strcmp(cases[i][0], "batch") == 0 ? requests : "/dev/null", 1);
		test_run r = test_execv(argv);
		/* The build engine flushes as it goes, and the reason is kept
		 * from its flush: outputs, build and clean said none. */
		char *want = test_format("animc%s%s: error writing standard output: No space left on device\n",
					 command ? " " : "", command ? command : "");

		if (r.status != 1 || !strstr(r.err, want))
			fail_msg("case %zu (%s): exit %d, stderr: %s", i, cases[i][0], r.status, r.err);
		/* Said once, however many lines were lost. */
		assert_null(strstr(strstr(r.err, want) + strlen(want), "error writing"));
		free(want);
		test_run_release(&r);
	}
	unsetenv("STDIN");
	free(svg), free(requests), free(dir);
}

/* A closed standard output is lost output too, and no file the command
 * opens takes its place: build's summary once went into its lock file,
 * and build and clean exited 0. */
static void a_closed_standard_output_is_a_failure(void **state)
{
	char *dir = test_tmpdir("stdout-closed");
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/lock", out);
	static const char *const commands[] = { "build", "clean" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		const char *argv[] = { "sh", "-c", "exec \"$0\" \"$@\" >&-", test_animc_path(), commands[i], "-o",
				       out, i == 0 ? "testdata/sample/Crane/Turn.Animation" : NULL, NULL };
		test_run r = test_execv(argv);
		char *want = test_format("animc %s: error writing standard output", commands[i]);

		if (r.status != 1 || !strstr(r.err, want))
			fail_msg("%s: exit %d, stderr: %s", commands[i], r.status, r.err);
		if (i == 0) {
			size_t size = 0;
			uint8_t *text = test_read_file(lock, &size);

			assert_null(memmem(text, size, "compiled", 8));
			free(text);
		}
		free(want);
		test_run_release(&r);
	}
	free(lock), free(out), free(dir);
}

/* Each line on the standard error is written whole, in one write: builds
 * sharing one stderr (make -j running a rule per file, CI jobs side by
 * side) had their warnings written a character at a time, the letters of
 * one line landing inside another's.  A packet socket as stderr keeps each
 * write apart. */
static void each_line_on_stderr_is_one_write(void **state)
{
	char *dir = test_tmpdir("stderr-lines"), *out = test_format("%s/out", dir);
	const char *const argv[] = { test_animc_path(), "build", "-q", "-o", out, SAMPLE "/Crane/Signals.xml", NULL };
	posix_spawn_file_actions_t actions;
	char packet[65536], *args[8];
	size_t writes = 0, argc = 0;
	int sv[2], wstatus;
	ssize_t n;
	pid_t pid;

	(void)state;
	for (; argv[argc]; argc++)
		args[argc] = strdup(argv[argc]);
	args[argc] = NULL;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, sv[1], 2);
	assert_int_equal(posix_spawn(&pid, args[0], &actions, NULL, args, environ), 0);
	posix_spawn_file_actions_destroy(&actions);
	close(sv[1]);
	while ((n = recv(sv[0], packet, sizeof packet - 1, 0)) > 0) {
		packet[n] = '\0';
		if (writes++ == 0 && (!strstr(packet, "Signals.xml:12: warning: clip 'Nod'") || packet[n - 1] != '\n'))
			fail_msg("the first write is not the whole warning: '%s'", packet);
	}
	close(sv[0]);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	assert_int_equal(writes, 1);
	for (size_t i = 0; i < argc; i++)
		free(args[i]);
	free(out), free(dir);
}

/* Each command's help is one text however it is asked for: CMD -h,
 * CMD --help, help CMD; help's own is the usage. */
static void every_way_to_ask_for_help_gives_the_same_text(void **state)
{
	static const char *const commands[] = { "build", "outputs", "clean", "watch", "dump", "sample", "batch",
						"plot" };

	(void)state;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		test_run help = test_animc("help", commands[i], NULL);
		test_run lng = test_animc(commands[i], "--help", NULL);
		test_run shrt = test_animc(commands[i], "-h", NULL);
		char *usage = test_format("usage: animc %s ", commands[i]);

		assert_int_equal(help.status, 0);
		assert_int_equal(lng.status, 0);
		assert_int_equal(shrt.status, 0);
		assert_true(strncmp(help.out, usage, strlen(usage)) == 0);
		assert_string_equal(lng.out, help.out);
		assert_string_equal(shrt.out, help.out);
		free(usage);
		test_run_release(&help);
		test_run_release(&lng);
		test_run_release(&shrt);
	}
	test_run usage = test_animc("--help", NULL);
	static const char *const of_help[] = { "help", "--help", "-h" };
	for (size_t i = 0; i < 3; i++) {
		test_run r = test_animc("help", of_help[i], NULL);

		assert_int_equal(r.status, 0);
		assert_string_equal(r.out, usage.out);
		assert_string_equal(r.err, "");
		test_run_release(&r);
	}
	test_run_release(&usage);
}

/* help takes one topic, as --help does.  `help --version` was an unknown option whose
 * hint was the word typed ("did you mean '--version'?"): it prints the
 * version, as `--version` does.  A word after the topic was left unread
 * (`help --man --markdown` printed the man page, `help dump --markdown`
 * the terminal help, exit 0): a usage error, nothing printed. */
static void help_takes_one_topic(void **state)
{
	static const char *const extra[][3] = { { "dump", "extra" }, { "--man", "--markdown" },
						{ "dump", "--markdown" }, { "--version", "dump" } };
	test_run version = test_animc("--version", NULL);

	(void)state;
	assert_int_equal(version.status, 0);
	for (int i = 0; i < 2; i++) {
		test_run r = test_animc("help", i ? "version" : "--version", NULL);

		assert_int_equal(r.status, 0);
		assert_string_equal(r.out, version.out);
		assert_string_equal(r.err, "");
		test_run_release(&r);
	}
	test_run_release(&version);
	for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
		test_run r = test_animc("help", extra[i][0], extra[i][1], NULL);
		char *said = test_format("'%s' after '%s'", extra[i][1], extra[i][0]);

		assert_int_equal(r.status, 2);
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, said));
		free(said);
		test_run_release(&r);
	}
	/* `animc --help TOPIC` is `animc help TOPIC`; `--version WORD` was
	 * the version, the word left unread. */
	test_run help = test_animc("help", "dump", NULL), r = test_animc("--help", "dump", NULL);

	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, help.out);
	test_run_release(&r), test_run_release(&help);
	r = test_animc("-h", "dump", "extra", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "'extra' after 'dump'"));
	test_run_release(&r);
	for (int i = 0; i < 2; i++) {
		r = test_animc(i ? "version" : "--version", "extra", NULL);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, i ? "'extra' after 'version'" : "'extra' after '--version'"));
		test_run_release(&r);
	}
}

/* The JSON view of a compact constant (FORMAT.md 7.6): a list of one vector,
 * as the original layout's fixed tracks print; scripts read this form. */
static void dump_json_prints_a_compact_constant_as_a_list_of_one_vector(void **state)
{
	(void)state;
	test_run r = test_animc("dump", "--json", "testdata/loader/crane-turn.compact.xnb", NULL);

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "    {\"bone\": \"Base\",\n"
				      "     \"translation\": {\"kind\": \"constant\", \"value\": [[0, 0, 0]]},\n"
				      "     \"rotation\": {\"kind\": \"constant\", \"value\": [[0, 0, 0, 1]]},\n"
				      "     \"scale\": {\"kind\": \"absent\"}},\n"));
	assert_non_null(strstr(r.out, "\"translation\": {\"kind\": \"constant\", \"value\": [[0, 0.60009766, 0]]},\n"));
	test_run_release(&r);
}

/* -o, -q and -v of outputs and clean say what they do there, not what
 * they do in a build; clean's -o is a folder. */
static void clean_and_outputs_describe_their_own_options(void **state)
{
	(void)state;
	test_run clean = test_animc("clean", "--help", NULL);
	test_run outputs = test_animc("outputs", "--help", NULL);
	test_run build = test_animc("build", "--help", NULL);

	assert_non_null(strstr(build.out, "  -o, --output DIR        where compiled files go (created when missing)\n"));
	assert_non_null(strstr(clean.out, "  -o, --output DIR        the folder to clean (never created)\n"));
	assert_non_null(strstr(clean.out, "  -q, --quiet             print warnings and errors only, not the summary line\n"));
	assert_non_null(strstr(clean.out, "  -v, --verbose           also list each file removed\n"));
	assert_non_null(strstr(outputs.out, "  -o, --output DIR        the folder a build would write into (nothing is\n"));
	for (int i = 0; i < 2; i++) {
		const char *text = i ? clean.out : outputs.out;

		assert_null(strstr(text, "created when missing"));
		assert_null(strstr(text, "when a source fails"));
		assert_null(strstr(text, "skipped and up-to-date"));
	}
	test_run_release(&clean);
	test_run_release(&outputs);
	test_run_release(&build);

	/* A file is not a folder to clean: an error, and the file stays. */
	test_run r = test_animc("clean", "-o", UNIFORM, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, UNIFORM ": error: not a folder; clean takes the folder a build wrote into\n");
	assert_true(test_file_exists(UNIFORM));
	test_run_release(&r);
}

/* The completion names each option of a command once (a help line that
 * continues an option's text is no option), and help completes help. */
static void completion_lists_each_option_once(void **state)
{
	(void)state;
	test_run r = test_animc("help", "--completion", NULL);

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "opts='--output --bone --track --clip --split --clips --root-motion --up-axis "
				       "--additive-reference --scale --rotate --skeleton --relative-to-bind --tolerance "));
	assert_non_null(strstr(r.out, "compgen -W 'build outputs clean watch dump sample batch plot help --version' "));
	/* plot's cases, up to the next command's. */
	char *plot = strstr(r.out, "\tplot)\n"), *end = plot ? strstr(plot, "\thelp|--help|-h)\n") : NULL;
	assert_non_null(end);
	*end = '\0';
	const char *clips = strstr(plot, "\t\t--clips)\n");
	assert_non_null(clips);
	assert_null(strstr(clips + 1, "\t\t--clips)\n"));
	test_run_release(&r);
}

/* 160 bones of 1800 noisy keys (a long take of a dense rig): its compact
 * .xnb passes 1 MiB.  Written with --compress zstd, it was refused by the
 * loader ("error: " and nothing after it): the early look at the frame's
 * first MiB, inconclusive, left its status as the whole frame's.  Both
 * layouts' frames read back as their plain files do. */
static void frames_past_a_mib_read_back_in_both_layouts(void **state)
{
	char *dir = test_tmpdir("zstd-mib"), *src = test_format("%s/noisy.Animation", dir);
	FILE *f = fopen(src, "w");
	uint32_t seed = 1;
	const int bones = 160, keys = 1800;

	(void)state;
	assert_non_null(f);
	fprintf(f, "<AnimationSequence><KeyFrameSequenceCount>%d</KeyFrameSequenceCount><Duration>%f</Duration>"
		   "<KeyFrameSequences>", bones, (keys - 1) * 0.033333);
	for (int b = 0; b < bones; b++) {
		fprintf(f, "<KeyFrameSequence><BoneName>b%d</BoneName><KeyCount>%d</KeyCount><Duration>%f</Duration>"
			   "<KeyInterval>0.033333</KeyInterval><HasTranslation>true</HasTranslation><Translation>", b,
			keys, (keys - 1) * 0.033333);
		for (int i = 0; i < keys; i++) {
			double v[3];

			for (int c = 0; c < 3; c++)
				v[c] = (double)((seed = seed * 1664525u + 1013904223u) >> 8) / (1u << 23) - 1;
			fprintf(f, "<Vector3><X>%f</X><Y>%f</Y><Z>%f</Z></Vector3>", v[0], v[1], v[2]);
		}
		fprintf(f, "</Translation></KeyFrameSequence>");
	}
	fprintf(f, "</KeyFrameSequences></AnimationSequence>\n");
	assert_int_equal(fclose(f), 0);
	static const char *const layouts[] = { "original", "compact" };
	for (int l = 0; l < 2; l++) {
		char *out = test_format("%s/%s", dir, layouts[l]), *zst = test_format("%s/noisy.xnb.zst", out);
		char *plain = test_format("%s/noisy.xnb", out);
		test_run r = test_animc("build", "-q", "--layout", layouts[l], "--compress", "zstd", "-o", out, src, NULL);

		if (r.status != 0)
			fail_msg("%s: exit %d: %s", layouts[l], r.status, r.err);
		test_run_release(&r);
		r = test_exec("zstd", "-q", "-d", "-f", zst, "-o", plain, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		size_t size;
		free(test_read_file(plain, &size));
		if (size <= (1u << 20))
			fail_msg("%s: %zu bytes, not past a MiB", layouts[l], size);
		test_run from_frame = test_animc("dump", "--json", zst, NULL), from_plain = test_animc("dump", "--json", plain, NULL);
		if (from_frame.status != 0)
			fail_msg("%s: exit %d: %s", layouts[l], from_frame.status, from_frame.err);
		assert_int_equal(from_plain.status, 0);
		assert_non_null(strstr(from_frame.out, "\"compression\": \"zstd\""));
		assert_non_null(strstr(from_frame.out, l ? "\"reader_version\": 3," : "\"reader_version\": 0,"));
		assert_int_equal(strlen(from_frame.out), strlen(from_plain.out));
		test_run_release(&from_frame), test_run_release(&from_plain);
		free(plain), free(zst), free(out);
	}
	free(src), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(frames_past_a_mib_read_back_in_both_layouts),
	cmocka_unit_test(help_and_version),
	cmocka_unit_test(a_report_names_the_build),
	cmocka_unit_test(an_archive_is_built_as_its_commit),
	cmocka_unit_test(platform_takes_the_monogame_name),
	cmocka_unit_test(the_passes_line_says_one_in_the_singular),
	cmocka_unit_test(the_key_names_the_build),
	cmocka_unit_test(a_report_not_written_is_in_the_others),
	cmocka_unit_test(a_bad_cache_url_variable_is_a_usage_error),
	cmocka_unit_test(jobs_default_to_the_cpus_animc_may_run_on),
	cmocka_unit_test(usage_errors_exit_2),
	cmocka_unit_test(bad_options_are_named_as_given),
	cmocka_unit_test(quiet_prints_a_summary_only_when_a_source_fails),
	cmocka_unit_test(a_zero_tolerance_is_lossless_or_refused),
	cmocka_unit_test(options_that_need_another_are_refused),
	cmocka_unit_test(builds_the_sample_folder_mirroring_its_tree),
	cmocka_unit_test(output_is_deterministic),
	cmocka_unit_test(bad_files_fail_alone_without_output),
	cmocka_unit_test(files_given_directly_land_in_outdir),
	cmocka_unit_test(a_repeated_option_keeps_its_last_value),
	cmocka_unit_test(options_reach_the_file),
	cmocka_unit_test(dump_reports_damage_with_the_offset),
	cmocka_unit_test(dump_refuses_other_content_naming_its_reader),
	cmocka_unit_test(escaping_makes_names_safe_for_a_terminal),
	cmocka_unit_test(tables_escape_control_characters_in_names),
	cmocka_unit_test(outdir_inside_an_input_is_left_out),
	cmocka_unit_test(an_input_spelled_another_way_is_the_same_sources),
	cmocka_unit_test(editor_backups_are_left_out_of_a_folder),
	cmocka_unit_test(a_lost_standard_output_is_a_failure),
	cmocka_unit_test(a_closed_standard_output_is_a_failure),
	cmocka_unit_test(each_line_on_stderr_is_one_write),
	cmocka_unit_test(every_way_to_ask_for_help_gives_the_same_text),
	cmocka_unit_test(help_takes_one_topic),
	cmocka_unit_test(dump_json_prints_a_compact_constant_as_a_list_of_one_vector),
	cmocka_unit_test(clean_and_outputs_describe_their_own_options),
	cmocka_unit_test(completion_lists_each_option_once),
	cmocka_unit_test(dump_says_why_a_file_cannot_be_read_naming_it_once),
	cmocka_unit_test(dump_sample_and_plot_read_a_pipe),
	cmocka_unit_test(an_unknown_first_word_says_what_it_may_mean),
	cmocka_unit_test(an_unknown_topic_is_helps_usage_error),
	cmocka_unit_test(a_misspelt_option_says_what_it_may_mean),
	cmocka_unit_test(the_summary_counts_the_runs_own_warnings),
	cmocka_unit_test(one_output_of_two_sources_says_what_keeps_them_apart),
};

ANIMC_TEST_GROUP(tests);
