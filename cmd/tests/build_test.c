/*
 * build_test.c - animc build as a build tool: the same trees, messages and
 * reports for every -j; incremental builds (edit, touch, delete, rename,
 * options, the skeleton, a damaged manifest, a build stopped or killed
 * mid-way); the reports against their schema; depfiles, `animc outputs`,
 * `animc clean`, response files and --base; and what hostile trees and
 * files do (FIFOs, link loops, deep folders, clip names, workers that run
 * out of memory, print, or outlive their build).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <grp.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "build.h"
#include "test_support.h"

#define CRANE "testdata/sample/Crane"
#define KEYS_X "testdata/assimp/keys.x"

static size_t count(const char *haystack, const char *needle)
{
	size_t n = 0;

	for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* How many sources a report lists with a status. */
static size_t report_count(const char *report_path, const char *status)
{
	char *text = (char *)test_read_file(report_path, NULL);
	char *needle = test_format("\"status\": \"%s\"", status);
	size_t n = count(text, needle);

	free(needle);
	free(text);
	return n;
}

static int64_t mtime_ns(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		fail_msg("no %s", path);
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

/* Set a file's mtime `seconds` into the past, as an edit made earlier. */
static void age(const char *path, int seconds)
{
	struct timespec times[2];

	clock_gettime(CLOCK_REALTIME, &times[0]);
	times[0].tv_sec -= seconds;
	times[1] = times[0];
	if (utimensat(AT_FDCWD, path, times, 0) != 0)
		fail_msg("utimensat %s: %s", path, strerror(errno));
}

static void age_tree(const char *dir)
{
	test_sh("find '%s' -type f -exec touch -d '-1 hour' {} +", dir);
}

/* An XNA AnimationData source with one clip per name (names given as XML
 * text, so markup and characters may be escaped by the caller). */
static void write_xna(const char *path, const char *const *names, size_t count_names)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<XnaContent xmlns:Anim=\"AnimationClassLibrary\">\n"
	      "  <Asset Type=\"Anim:AnimationData\">\n    <AnimationClips>\n", f);
	for (size_t i = 0; i < count_names; i++)
		fprintf(f, "      <Item><Key>%s</Key><Value><Duration>PT1S</Duration><Keyframes>\n"
			   "        <Item><BoneIndex>0</BoneIndex><Time>PT0S</Time><Position>0 0 0</Position>"
			   "<Rotation>0 0 0</Rotation><Scale>1 1 1</Scale></Item>\n"
			   "        <Item><BoneIndex>0</BoneIndex><Time>PT1S</Time><Position>%zu 0 0</Position>"
			   "<Rotation>0 0 0</Rotation><Scale>1 1 1</Scale></Item>\n"
			   "      </Keyframes></Value></Item>\n", names[i], i + 1);
	fputs("    </AnimationClips>\n  </Asset>\n</XnaContent>\n", f);
	fclose(f);
}

/* Temporary files of atomic writes anywhere under `dir`. */
static size_t count_temps(const char *dir)
{
	char *cmd = test_format("find '%s' -type f -name '.*.[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9]' | grep -c . ; true", dir);
	FILE *p = popen(cmd, "r");
	size_t n = 0;

	assert_non_null(p);
	if (fscanf(p, "%zu", &n) != 1)
		n = 0;
	pclose(p);
	free(cmd);
	return n;
}

/* ------------------------------------------------------- the same for any N */

static void every_job_count_gives_the_same_build(void **state)
{
	char *in = test_tmpdir("jobs-in");
	char *work = test_tmpdir("jobs");
	char *out = test_format("%s/out", work);
	test_run runs[2];
	const char *jobs[2] = { "1", "3" };

	(void)state;
	/* Every kind of result: clips, a failed source, a skipped file, a
	 * claim two sources make, a source whose output is another's output
	 * folder, an Assimp source, warnings. */
	test_sh("cp -r testdata/sample/Crane '%s/' && cp testdata/hostile/truncated.Animation '%s/Crane/Cut.Animation'"
	   " && cp testdata/golden/unsorted.Animation testdata/golden/dialect.Animation '%s/'"
	   " && cp " KEYS_X " '%s/' && cp " CRANE "/Turn.Animation '%s/Turn.Animation'"
	   " && mkdir -p '%s/z' && cp " CRANE "/Wave.Animation '%s/z/Turn.Animation'"
	   " && cp testdata/golden/dialect.Animation '%s/Turn.xml'"
	   " && mkdir -p '%s/Turn.xnb' && cp " CRANE "/Wave.Animation '%s/Turn.xnb/Over.Animation'",
	   in, in, in, in, in, in, in, in, in, in);
	setenv("SOURCE_DATE_EPOCH", "1", 1);
	for (int k = 0; k < 2; k++) {
		char *report = test_format("%s/report%d.json", work, k), *junit = test_format("%s/junit%d.xml", work, k);
		char *dep = test_format("%s/deps%d.d", work, k), *moved = test_format("%s/out%d", work, k);

		runs[k] = test_animc("build", "-j", jobs[k], "--base", in, "--report", report, "--junit", junit,
				     "--depfile", dep, "-o", out, in, NULL);
		assert_int_equal(runs[k].status, 1);
		assert_int_equal(rename(out, moved), 0);
		free(report);
		free(junit);
		free(dep);
		free(moved);
	}
	unsetenv("SOURCE_DATE_EPOCH");
	assert_string_equal(runs[0].out, runs[1].out);
	assert_string_equal(runs[0].err, runs[1].err);
	/* Turn.xml claims Turn.Animation's output: refused, naming it. */
	assert_int_equal(count(runs[0].err, "/Turn.xnb' is the output of '"), 1);
	assert_int_equal(count(runs[0].err, "/Turn.Animation' in this run; not written: rename one of the two\n"), 2);
	/* So does Turn.xnb/Over.Animation, whose output would lie in it. */
	assert_int_equal(count(runs[0].err, "/Turn.xnb/Over.xnb' lies in '"), 1);
	{
		const char *pairs[][2] = { { "out0", "out1" }, { "report0.json", "report1.json" },
					   { "junit0.xml", "junit1.xml" }, { "deps0.d", "deps1.d" } };

		for (size_t i = 0; i < 4; i++) {
			char *a = test_format("%s/%s", work, pairs[i][0]), *b = test_format("%s/%s", work, pairs[i][1]);
			test_run diff = test_exec("diff", "-r", "-x", ".animc", a, b, NULL);

			if (diff.status != 0)
				fail_msg("%s and %s differ:\n%s", a, b, diff.out);
			test_run_release(&diff);
			free(a);
			free(b);
		}
	}
	assert_true(test_count_files(work) > 20);
	test_run_release(&runs[0]);
	test_run_release(&runs[1]);
	free(out);
	free(in);
	free(work);
}

/* -------------------------------------------------------------- incremental */

typedef struct tree {
	char *in, *out, *report;
} tree;

static tree make_tree(const char *name)
{
	tree t;
	char *dir = test_tmpdir(name);

	t.in = test_format("%s/in", dir);
	t.out = test_format("%s/out", dir);
	t.report = test_format("%s/report.json", dir);
	test_sh("mkdir -p '%s' && cp " CRANE "/Idle.Animation " CRANE "/Turn.Animation " CRANE "/Wave.Animation "
	   CRANE "/Signals.xml '%s/' && cp " KEYS_X " '%s/'", t.in, t.in, t.in);
	age_tree(t.in);
	free(dir);
	return t;
}

static void free_tree(tree *t)
{
	free(t->in);
	free(t->out);
	free(t->report);
}

/* Build with extra arguments; returns the run (status checked by callers). */
static test_run build(const tree *t, const char *a1, const char *a2, const char *a3)
{
	const char *argv[16] = { test_animc_path(), "build", "-q", "--report", t->report, "-o", t->out };
	size_t n = 7;

	if (a1)
		argv[n++] = a1;
	if (a2)
		argv[n++] = a2;
	if (a3)
		argv[n++] = a3;
	argv[n++] = t->in;
	argv[n] = NULL;
	return test_execv(argv);
}

static void expect(const tree *t, test_run r, int status, size_t compiled, size_t up_to_date)
{
	if (r.status != status || report_count(t->report, "compiled") != compiled ||
	    report_count(t->report, "up-to-date") != up_to_date)
		fail_msg("exit %d (want %d), compiled %zu (want %zu), up to date %zu (want %zu)\n%s%s", r.status,
			 status, report_count(t->report, "compiled"), compiled,
			 report_count(t->report, "up-to-date"), up_to_date, r.out, r.err);
	test_run_release(&r);
}

/* The tree OUT holds exactly what a fresh build of the same inputs writes. */
static void expect_fresh(const tree *t, const char *a1, const char *a2)
{
	char *fresh = test_format("%s.fresh", t->out);
	const char *argv[12] = { test_animc_path(), "build", "-q", "-o", fresh };
	size_t n = 5;
	test_run r, diff;

	test_sh("rm -rf '%s'", fresh);
	if (a1)
		argv[n++] = a1;
	if (a2)
		argv[n++] = a2;
	argv[n++] = t->in;
	argv[n] = NULL;
	r = test_execv(argv);
	diff = test_exec("diff", "-r", "-x", ".animc", t->out, fresh, NULL);
	if (diff.status != 0)
		fail_msg("the incremental build differs from a fresh one:\n%s", diff.out);
	test_run_release(&r);
	test_run_release(&diff);
	free(fresh);
}

static void edits_touches_deletes_and_renames(void **state)
{
	tree t = make_tree("inc-files");
	char *turn = test_format("%s/Turn.Animation", t.in), *turn_out = test_format("%s/Turn.xnb", t.out);
	char *idle_out = test_format("%s/Idle.xnb", t.out), *wave = test_format("%s/Wave.Animation", t.in);
	char *moved = test_format("%s/Moved.Animation", t.in), *moved_out = test_format("%s/Moved.xnb", t.out);
	char *wave_out = test_format("%s/Wave.xnb", t.out);
	int64_t idle_time;
	test_run r;

	(void)state;
	expect(&t, build(&t, NULL, NULL, NULL), 0, 5, 0);
	idle_time = mtime_ns(idle_out);
	/* Nothing changed: nothing imported, nothing rewritten. */
	expect(&t, build(&t, NULL, NULL, NULL), 0, 0, 5);
	assert_true(mtime_ns(idle_out) == idle_time);
	/* Touched, same bytes: still up to date (the content says so). */
	test_sh("touch '%s'", turn);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 0, 5);
	/* Edited: that source alone. */
	test_sh("sed -i 's/<Duration>1.5/<Duration>1.75/' '%s'", turn);
	age(turn, 3600);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 1, 4);
	assert_true(mtime_ns(idle_out) == idle_time);
	expect_fresh(&t, NULL, NULL);
	/* Broken: the source fails and keeps its last good output, neither
	 * stale nor pruned; mended, it compiles again. */
	test_sh("cp '%s' '%s.good' && printf '<broken' > '%s'", turn, t.in, turn);
	r = build(&t, "--prune", NULL, NULL);
	assert_true(test_file_exists(turn_out));
	expect(&t, r, 1, 0, 4);
	r = test_animc("build", "-o", t.out, t.in, NULL);
	assert_int_equal(r.status, 1);
	assert_null(strstr(r.out, "stale"));
	test_run_release(&r);
	test_sh("mv '%s.good' '%s'", t.in, turn);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 1, 4);
	expect_fresh(&t, NULL, NULL);
	/* A source whose name says .xnb (importers go by content) in a build
	 * into its own folder: its output would be itself, and is refused. */
	char *named_xnb = test_format("%s/Walk.xnb", t.in);
	test_sh("cp '%s' '%s'", turn, named_xnb);
	r = test_animc("build", "-q", "-o", t.in, named_xnb, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "/Walk.xnb' is the source '"));
	test_run_release(&r);
	assert_true(test_same_bytes(named_xnb, turn));
	test_sh("rm -rf '%s' '%s/.animc'", named_xnb, t.in);
	free(named_xnb);
	/* Deleted: its output stays, counted stale, until --prune. */
	test_sh("rm '%s'", wave);
	r = build(&t, NULL, NULL, NULL);
	assert_true(test_file_exists(wave_out));
	expect(&t, r, 0, 0, 4);
	r = test_animc("build", "-o", t.out, t.in, NULL);
	assert_non_null(strstr(r.out, "1 stale output (--prune removes them)"));
	test_run_release(&r);
	expect(&t, build(&t, "--prune", NULL, NULL), 0, 0, 4);
	assert_false(test_file_exists(wave_out));
	/* Renamed: the new name compiles, the old output goes with --prune. */
	assert_int_equal(rename(turn, moved), 0);
	expect(&t, build(&t, "--prune", NULL, NULL), 0, 1, 3);
	assert_true(test_file_exists(moved_out));
	assert_false(test_file_exists(turn_out));
	expect_fresh(&t, NULL, NULL);
	/* An output deleted or damaged by hand: its source compiles again. */
	test_sh("rm '%s'", moved_out);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 1, 3);
	test_sh("printf X >> '%s'", idle_out);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 1, 3);
	expect_fresh(&t, NULL, NULL);
	free(turn);
	free(turn_out);
	free(idle_out);
	free(wave);
	free(wave_out);
	free(moved);
	free(moved_out);
	free_tree(&t);
}

/* A build of many sources into a folder where another build's sources
 * wrote the same names, and names alike but for case: each source is told
 * of the one it takes its output over from, or whose output differs from
 * its own only in case, whether the lookup is one of the first few (which
 * scan what the folder records) or a later one (sorted first). */
static void many_sources_find_the_outputs_of_an_earlier_build(void **state)
{
	char *dir = test_tmpdir("turns-many"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/a", dir), *b = test_format("%s/b", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' '%s' && for i in $(seq 0 19); do for n in t$i U$i; do cp " CRANE "/Turn.Animation "
		"'%s/'$n.Animation; done; cp " CRANE "/Wave.Animation '%s/'t$i.Animation; cp " CRANE "/Wave.Animation "
		"'%s/'u$i.Animation; done", a, b, a, b, b);
	test_run_ok(test_animc("build", "-q", "-o", out, a, NULL));
	r = test_animc("build", "--progress", "never", "-o", out, b, NULL);
	assert_int_equal(r.status, 0);
	for (int i = 0; i < 20; i++) {
		char *taken = test_format("b/t%d.Animation: warning: '%s/t%d.xnb' was the output of '%s/t%d.Animation' (an "
					  "earlier build into this folder)", i, out, i, a, i);
		char *alike = test_format("b/u%d.Animation: warning: '%s/u%d.xnb' and '%s/U%d.xnb', the output of "
					  "'%s/U%d.Animation' (an earlier build into this folder), differ only in case",
					  i, out, i, out, i, a, i);

		if (!strstr(r.err, taken) || !strstr(r.err, alike))
			fail_msg("no '%s' or '%s' in: %s", taken, alike, r.err);
		free(taken), free(alike);
	}
	assert_int_equal(count(r.err, "(an earlier build into this folder)"), 40);
	test_run_release(&r);
	free(b), free(a), free(out), free(dir);
}

/* Two sources of one name built by turns into one flat folder (per-file
 * rules): each takes the output with a warning naming the other, and is
 * compiled again when its turn comes; a deleted source whose output
 * another source now writes leaves nothing stale. */
static void sources_taking_turns_at_one_output(void **state)
{
	char *dir = test_tmpdir("turns"), *a = test_format("%s/a/Turn.Animation", dir);
	char *b = test_format("%s/b/Turn.Animation", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/Turn.xnb", out), *a_xnb = test_format("%s/a.xnb", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/a' '%s/b' && cp " CRANE "/Turn.Animation '%s' && cp " CRANE "/Wave.Animation '%s'", dir, dir,
	   a, b);
	test_run_ok(test_animc("build", "-q", "-o", out, a, NULL));
	test_sh("cp '%s' '%s'", xnb, a_xnb);
	r = test_animc("build", "-o", out, b, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "/Turn.xnb' was the output of '"));
	assert_non_null(strstr(r.err, "/a/Turn.Animation' (an earlier build into this folder)"));
	assert_false(test_same_bytes(xnb, a_xnb));
	test_run_release(&r);
	r = test_animc("build", "-o", out, a, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source (1 clip)"));
	assert_non_null(strstr(r.err, "/b/Turn.Animation' (an earlier build into this folder)"));
	assert_true(test_same_bytes(xnb, a_xnb));
	test_run_release(&r);
	/* a gone, b writes its output: nothing stale. */
	test_sh("rm '%s'", a);
	r = test_animc("build", "-o", out, b, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "earlier build"));
	test_run_release(&r);
	r = test_animc("build", "-o", out, b, NULL);
	assert_null(strstr(r.out, "stale"));
	assert_non_null(strstr(r.out, "1 up to date"));
	test_run_release(&r);
	free(a_xnb), free(xnb), free(out), free(b), free(a), free(dir);
}

static void options_skeleton_and_manifest(void **state)
{
	tree t = make_tree("inc-options");
	char *model = test_format("%s.model/Crane.x", t.in), *manifest_path = test_format("%s/.animc/manifest", t.out);
	test_run r;
	size_t size;
	uint8_t *bytes;

	(void)state;
	/* The sample's sources, all of whose bones the sample model has. */
	test_sh("rm '%s/keys.x' && mkdir -p '%s.model' && cp " CRANE "/Crane.x '%s'", t.in, t.in, model);
	age(model, 3600);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 4, 0);
	/* An option that changes bytes: everything. */
	expect(&t, build(&t, "--platform", "x", NULL), 0, 4, 0);
	expect_fresh(&t, "--platform", "x");
	expect(&t, build(&t, "--platform", "x", NULL), 0, 0, 4);
	/* One that does not: nothing. */
	expect(&t, build(&t, "--platform", "x", "-j1"), 0, 0, 4);
	/* The skeleton model: given, then changed. */
	expect(&t, build(&t, "--skeleton", model, NULL), 0, 4, 0);
	expect(&t, build(&t, "--skeleton", model, NULL), 0, 0, 4);
	test_sh("printf '\\n' >> '%s'", model);
	age(model, 3000);
	expect(&t, build(&t, "--skeleton", model, NULL), 0, 4, 0);
	expect_fresh(&t, "--skeleton", model);
	/* --rebuild: everything, whatever the manifest says. */
	expect(&t, build(&t, "--skeleton", model, "--rebuild"), 0, 4, 0);
	/* A damaged manifest: a warning and a full build, never a wrong skip. */
	bytes = test_read_file(manifest_path, &size);
	bytes[size / 2] ^= 0x20;
	assert_true(test_write_file(manifest_path, bytes, size));
	free(bytes);
	r = build(&t, "--skeleton", model, NULL);
	assert_non_null(strstr(r.err, "manifest: warning: "));
	expect(&t, r, 0, 4, 0);
	/* One of no version, and one cut short. */
	assert_true(test_write_file(manifest_path, "animc-manifest x\n", 17));
	r = build(&t, "--skeleton", model, NULL);
	assert_non_null(strstr(r.err, "another format version"));
	expect(&t, r, 0, 4, 0);
	bytes = test_read_file(manifest_path, &size);
	assert_true(test_write_file(manifest_path, bytes, size - 10));
	free(bytes);
	expect(&t, build(&t, "--skeleton", model, NULL), 0, 4, 0);
	expect_fresh(&t, "--skeleton", model);
	free(model);
	free(manifest_path);
	free_tree(&t);
}

/* The other files an import reads are part of its key: a glTF buffer. */
static void files_an_import_reads_are_dependencies(void **state)
{
	char *dir = test_tmpdir("inc-deps");
	tree t = { test_format("%s/in", dir), test_format("%s/out", dir), test_format("%s/r.json", dir) };
	char *bin = test_format("%s/wag data.bin", t.in), *dep = test_format("%s/d.d", dir);
	char *text;
	size_t size;
	uint8_t *bytes;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/gltf/external.gltf 'testdata/gltf/wag data.bin' '%s/'", t.in, t.in);
	age_tree(t.in);
	expect(&t, build(&t, "--depfile", dep, NULL), 0, 1, 0);
	text = (char *)test_read_file(dep, NULL);
	assert_non_null(strstr(text, "/wag\\ data.bin\n"));
	free(text);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 0, 1);
	/* The buffer changed, same size, an old mtime: the content says so. */
	bytes = test_read_file(bin, &size);
	bytes[size - 1] ^= 1;
	assert_true(test_write_file(bin, bytes, size));
	free(bytes);
	age(bin, 600);
	r = build(&t, NULL, NULL, NULL);
	expect(&t, r, 0, 1, 0);
	expect_fresh(&t, NULL, NULL);
	/* A buffer dated in the future (a share's clock ahead) was not written
	 * while the import read it: it builds, and then is up to date. (One
	 * written during the import fails the source, which builds again.) */
	age(bin, -3600);
	expect(&t, build(&t, "--rebuild", NULL, NULL), 0, 1, 0);
	expect(&t, build(&t, NULL, NULL, NULL), 0, 0, 1);
	free(bin);
	free(dep);
	free_tree(&t);
	free(dir);
}

/* Start a build in the background (its own process group), writing
 * --report `report` and --junit `junit` when given, its stderr into `err`
 * (NULL: none); returns its pid. */
static pid_t start_build_reporting(const char *out, const char *in, const char *jobs, const char *report,
				   const char *junit, const char *err)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		/* execv takes char *const[]: copies (the process execs or ends). */
		char *argv[16] = { "animc", "build", "-q", "-j", strdup(jobs), "-o", strdup(out) };
		int null = open("/dev/null", O_WRONLY), n = 7;

		if (report)
			argv[n++] = "--report", argv[n++] = strdup(report);
		if (junit)
			argv[n++] = "--junit", argv[n++] = strdup(junit);
		argv[n++] = strdup(in);
		setpgid(0, 0);
		dup2(null, 1);
		dup2(err ? open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644) : null, 2);
		execv(test_animc_path(), argv);
		_exit(127);
	}
	return pid;
}

static pid_t start_build(const char *out, const char *in, const char *jobs)
{
	return start_build_reporting(out, in, jobs, NULL, NULL, NULL);
}

/* .xnb files directly in `dir` (not the temporary ones). */
static size_t count_xnb(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		n += e->d_name[0] != '.' && len > 4 && strcmp(e->d_name + len - 4, ".xnb") == 0;
	}
	if (d)
		closedir(d);
	return n;
}

/* Wait until `dir` holds at least `n` .xnb files (or the build ended). */
static void wait_for_outputs(const char *dir, size_t n, pid_t pid)
{
	for (int i = 0; i < 4000; i++) {
		if (count_xnb(dir) >= n || waitpid(pid, NULL, WNOHANG) == pid)
			return;
		usleep(2000);
	}
}

static void a_build_stopped_mid_way_resumes(void **state)
{
	char *dir = test_tmpdir("stopped");
	char *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir), *junit = test_format("%s/junit.xml", dir);
	char *err = test_format("%s/err", dir);
	const size_t half = 30;
	int status;
	pid_t pid;
	test_run r;

	(void)state;
	/* a*, then a source whose import loops (Assimp's SMD reader on this
	 * file), then c*: with two workers the c* compile while the loop
	 * holds the commits behind it, so a stop finds a known state. */
	test_sh("mkdir -p '%s' && for i in $(seq 101 %zu); do cp " CRANE "/Turn.Animation '%s'/a$i.Animation; "
	   "cp " CRANE "/Wave.Animation '%s'/c$i.Animation; done && "
	   "cp testdata/assimp_crashes/endless_time.smd '%s/b.smd'", in, 100 + half, in, in, in);
	age_tree(in);
	/* SIGINT (Ctrl-C) and SIGTERM: the build stops, removes what it had
	 * not committed (the c* staged), and records what it had (the a*).
	 * It says so, and its report and JUnit file (an earlier run's, all
	 * green, were left as they were) hold the a* and the stop as a run
	 * error. */
	for (int k = 0; k < 2; k++) {
		int sig = k ? SIGTERM : SIGINT;
		char *text;

		test_sh("rm -rf '%s' && echo earlier > '%s' && echo earlier > '%s'", out, report, junit);
		pid = start_build_reporting(out, in, "2", report, junit, err);
		wait_for_outputs(out, half, pid);
		usleep(150000);
		kill(pid, sig);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == sig);
		assert_int_equal(test_count_files(out), half);
		assert_int_equal(count_temps(out), 0);
		text = (char *)test_read_file(err, NULL);
		if (!strstr(text, k ? "animc: error: the build was stopped (SIGTERM) after 30 of 61 sources"
				    : "animc: error: the build was stopped (SIGINT) after 30 of 61 sources"))
			fail_msg("stderr: %s", text);
		free(text);
		assert_int_equal(report_count(report, "compiled"), half);
		text = (char *)test_read_file(report, NULL);
		assert_non_null(strstr(text, "\"sources\": 30, \"compiled\": 30,"));
		assert_non_null(strstr(text, "\"run_errors\": 1,"));
		free(text);
		text = (char *)test_read_file(junit, NULL);
		assert_non_null(strstr(text, "<testsuites name=\"animc build\" tests=\"31\" failures=\"0\" errors=\"1\""));
		free(text);
		test_sh("mv '%s/b.smd' '%s.smd'", in, in);
		r = test_animc("build", "-q", "--report", report, "-o", out, in, NULL);
		test_sh("mv '%s.smd' '%s/b.smd'", in, in);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		/* Exactly what was not written before is compiled now. */
		assert_int_equal(report_count(report, "up-to-date"), half);
		assert_int_equal(report_count(report, "compiled"), half);
		assert_int_equal(test_count_files(out), 2 * half);
	}
	/* SIGKILL, workers and all, with the c* staged in temporary files:
	 * the next build removes those and completes. */
	test_sh("rm -rf '%s'", out);
	pid = start_build(out, in, "2");
	wait_for_outputs(out, half, pid);
	usleep(150000);
	kill(-pid, SIGKILL);
	waitpid(pid, &status, 0);
	assert_true(count_temps(out) > 0);
	test_sh("rm '%s/b.smd'", in);
	test_run_ok(test_animc("build", "-q", "--report", report, "-o", out, in, NULL));
	assert_int_equal(count_temps(out), 0);
	assert_int_equal(test_count_files(out), 2 * half);
	assert_int_equal(report_count(report, "compiled") + report_count(report, "up-to-date"), 2 * half);
	{
		tree t = { in, out, report };

		expect_fresh(&t, NULL, NULL);
	}
	free(in);
	free(out);
	free(report);
	free(junit);
	free(err);
	free(dir);
}

/* A build stopped after it compiled a source that no longer writes some
 * of its outputs (a sidecar removed: its clips Start and Run are gone)
 * keeps them recorded: the next build calls them stale and --prune
 * removes them, as an unstopped build does.  The stop's checkpoint
 * forgot them, and they stayed in the folder for good. */
static void a_stopped_build_keeps_the_outputs_a_source_lost(void **state)
{
	char *dir = test_tmpdir("stopped-lost"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *take = test_format("%s/a0/Take 001.xnb", out), *run = test_format("%s/a0/Run.xnb", out);
	char *start = test_format("%s/a0/Start.xnb", out);
	int status;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/authoring/Walker.xml '%s/a0.xml' && "
	   "cp testdata/authoring/Walker_Anims.xml '%s/a0_Anims.xml'", in, in, in);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	assert_true(test_file_exists(run) && test_file_exists(start));
	/* a0 unsplit, then b.smd, whose import loops: the stop comes after
	 * a0 is committed. */
	test_sh("rm '%s/a0_Anims.xml' && cp testdata/assimp_crashes/endless_time.smd '%s/b.smd'", in, in);
	pid_t pid = start_build(out, in, "2");
	for (int i = 0; i < 20000 && !test_file_exists(take); i++)
		usleep(1000);
	assert_true(test_file_exists(take));
	usleep(100000);
	kill(pid, SIGINT);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
	test_sh("rm '%s/b.smd'", in);
	r = test_animc("build", "--progress", "never", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "2 stale outputs (--prune removes them)"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "--prune", "-o", out, in, NULL));
	assert_false(test_file_exists(run));
	assert_false(test_file_exists(start));
	assert_true(test_file_exists(take));
	free(start), free(run), free(take), free(out), free(in), free(dir);
}

/* A stop while the build plans (its running marker made, its signal
 * handler not yet set) killed it there, and the marker stayed. */
static void a_build_stopped_while_planning_leaves_no_marker(void **state)
{
	char *dir = test_tmpdir("stopped-planning"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *first = test_format("%s/t0.Animation", in);
	char *report = test_format("%s/r.json", dir), *text;
	int status;

	(void)state;
	assert_int_equal(mkdir(in, 0755), 0);
	test_sh("cp " CRANE "/Turn.Animation '%s'", first);
	/* Enough sources that planning them takes a while. */
	for (int i = 1; i < 3000; i++) {
		char *name = test_format("%s/t%d.Animation", in, i);

		assert_int_equal(link(first, name), 0);
		free(name);
	}
	for (int run = 0; run < 4; run++) {
		pid_t pid;

		test_sh("rm -rf '%s' && echo earlier > '%s'", out, report);
		pid = start_build_reporting(out, in, "2", report, NULL, NULL);
		for (int i = 0; i < 200000 && !test_has_running_marker(out); i++)
			if (waitpid(pid, NULL, WNOHANG) == pid)
				fail_msg("the build ended before it was stopped");
		kill(pid, SIGINT);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
		assert_false(test_has_running_marker(out));
		assert_int_equal(count_temps(out), 0);
		/* Stopped planning or later: this run's report, the stop its
		 * run error. */
		text = (char *)test_read_file(report, NULL);
		if (!strstr(text, "the build was stopped (SIGINT) after ") || !strstr(text, "\"run_errors\": 1,"))
			fail_msg("run %d: %s", run, text);
		free(text);
	}
	free(report), free(first), free(out), free(in), free(dir);
}

/* Send `sig` to the children of `parent` (its workers); how many. */
static int kill_children(pid_t parent, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char *path = test_format("/proc/%s/stat", e->d_name), text[1024], *end;
		/* A process listed may be gone before its stat is read. */
		FILE *f = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? fopen(path, "r") : NULL;
		size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
		long ppid;

		if (f)
			fclose(f);
		text[got] = '\0';
		end = strrchr(text, ')');
		/* "pid (comm) state ppid ...": the name may hold anything. */
		if (end && sscanf(end + 1, " %*c %ld", &ppid) == 1 && ppid == parent)
			n += kill((pid_t)atol(e->d_name), sig) == 0;
		free(path);
	}
	if (d)
		closedir(d);
	return n;
}

/* Ctrl-C signals the whole process group, the workers before the build
 * (the group's newest members first): a worker's death of that signal is
 * the stop, not a crash of the source it compiled.  The build blamed the
 * source at work ("the assimp importer crashed on this file
 * (Interrupt)"), a failed source in the terminal and the reports. */
static void a_build_stopped_with_its_workers_blames_no_source(void **state)
{
	char *dir = test_tmpdir("stopped-group"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *report = test_format("%s/r.json", dir);
	char *err = test_format("%s/err", dir), *text;
	int status;

	(void)state;
	/* a*, then b.smd, whose import loops (a worker is at work on it),
	 * then enough c* that the build is not done before it is stopped. */
	test_sh("mkdir -p '%s' && for i in $(seq 101 110); do cp " CRANE "/Turn.Animation '%s'/a$i.Animation; "
		"done && cp testdata/assimp_crashes/endless_time.smd '%s/b.smd' && for i in $(seq 101 600); do "
		"cp " CRANE "/Wave.Animation '%s'/c$i.Animation; done", in, in, in, in);
	for (int k = 0; k < 2; k++) {
		int sig = k ? SIGTERM : SIGINT;
		pid_t pid;

		test_sh("rm -rf '%s'", out);
		pid = start_build_reporting(out, in, "2", report, NULL, err);
		wait_for_outputs(out, 10, pid);
		usleep(200000);
		assert_true(kill_children(pid, sig) > 0);
		usleep(50000);
		kill(pid, sig);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		text = (char *)test_read_file(err, NULL);
		if (strstr(text, "crashed") || !strstr(text, "the build was stopped (SIG"))
			fail_msg("stderr: %s", text);
		free(text);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == sig);
		text = (char *)test_read_file(report, NULL);
		if (!strstr(text, "\"failed\": 0,") || !strstr(text, "\"errors\": 0,") || strstr(text, "crashed"))
			fail_msg("report: %s", text);
		free(text);
		assert_int_equal(report_count(report, "failed"), 0);
	}
	free(err), free(report), free(out), free(in), free(dir);
}

/* Two builds of one pid into one folder (two containers, each build its
 * PID 1, on a shared volume; or a pid reused): one killed, leaving its
 * temporary files and its running marker, the other ending cleanly.  The
 * survivor removed only its own marker: the next build alone still knew
 * to sweep.  Both used running.<pid>, and the survivor removed the killed
 * run's with its own: its temporary files stayed for good. */
static void a_killed_run_of_the_same_pid_is_still_swept(void **state)
{
	char *dir = test_tmpdir("same-pid"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *lock = test_format("%s/.animc/lock", out), *temp = test_format("%s/.Wave.xnb.a1B2c3", out);
	int go[2], status, fd;
	pid_t pid;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s'", in, in);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;
		char *argv[] = { "animc", "build", "-q", "-o", out, in, NULL };

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execv(test_animc_path(), argv);
		_exit(127);
	}
	close(go[0]);
	/* What a killed run of this pid left; another build running (this
	 * test, holding the lock shared) keeps the survivor from sweeping. */
	test_sh("echo partial > '%s' && touch '%s/.animc/running.%ld'", temp, out, (long)pid);
	fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0 && flock(fd, LOCK_SH) == 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	assert_true(test_file_exists(temp));
	/* Alone, the next build sweeps it. */
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	assert_false(test_file_exists(temp));
	assert_false(test_has_running_marker(out));
	free(temp), free(lock), free(out), free(in), free(dir);
}

/* Wait up to 10 s for `pid` to end; its status, or -1 (killed then). */
static int wait_briefly(pid_t pid)
{
	int status;

	for (int i = 0; i < 1000; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* On a file system that cannot lock files (flock() fails: an NFS mount
 * whose lock daemon is not reachable), a build said it was waiting for the
 * lock held by "another process" and exited 1 with no error, and clean
 * said a build was writing the folder: no one held the lock.  Both say
 * that the file system cannot lock now. */
static void a_file_system_that_cannot_lock_is_said(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("no-locks"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/no_flock.so", dir), *said = test_format("%s/.animc/lock: error: cannot lock", out);
	char *turn = test_format("%s/Turn.xnb", out);
	test_run r, c;

	test_sh("cc -shared -fPIC -o '%s' testdata/env/no_flock.c", shim);
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "--rebuild", "-o", out, CRANE "/Turn.Animation", NULL);
	c = test_animc("clean", "-o", out, NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 1 || strstr(r.err, "waiting for") || !strstr(r.err, said) ||
	    !strstr(r.err, "No locks available"))
		fail_msg("build: exit %d, stderr: %s", r.status, r.err);
	if (c.status != 1 || strstr(c.err, "a build is writing") || !strstr(c.err, said) ||
	    !strstr(c.err, "No locks available"))
		fail_msg("clean: exit %d, stderr: %s", c.status, c.err);
	test_run_release(&r);
	test_run_release(&c);
	assert_true(test_file_exists(turn));
	free(dir), free(out), free(shim), free(said), free(turn);
}

/* The lock a build saves the manifest under cannot be opened (EMFILE) or
 * taken (ENOLCK): the manifest is not saved, as when it cannot be written,
 * and the journal keeps the outputs known, so clean removes them.  The
 * manifest was saved unlocked, silently, where another build saving at
 * once could drop records whose journal then went; and a lock that could
 * not be taken was told as a build "stopped while waiting". */
static void a_manifest_lock_that_fails_keeps_the_journal(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("no-manifest-lock"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/no_manifest_lock.so", dir), *turn = test_format("%s/Turn.xnb", out);
	const char *modes[] = { "open", "flock" };
	const char *why[] = { "manifest.lock': Too many open files; the state of the folder is not saved",
			      "manifest.lock': No locks available; the state of the folder is not saved" };
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/no_manifest_lock.c -ldl", shim);
	for (int k = 0; k < 2; k++) {
		setenv("NO_MANIFEST_LOCK", modes[k], 1);
		setenv("LD_PRELOAD", shim, 1);
		r = test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL);
		unsetenv("LD_PRELOAD");
		unsetenv("NO_MANIFEST_LOCK");
		if (r.status != 0 || !strstr(r.err, why[k]) || !strstr(r.err, "keeps what it wrote known to clean") ||
		    strstr(r.err, "stopped while waiting"))
			fail_msg("%s: exit %d\n%s%s", modes[k], r.status, r.out, r.err);
		test_run_release(&r);
		test_sh("ls '%s'/.animc/journal.* > /dev/null", out);
		r = test_animc("clean", "-o", out, NULL);
		if (r.status != 0 || !strstr(r.out, "removed 1 output,"))
			fail_msg("%s: clean: exit %d\n%s%s", modes[k], r.status, r.out, r.err);
		test_run_release(&r);
		assert_false(test_file_exists(turn));
	}
	free(turn), free(shim), free(out), free(dir);
}

/* A build waiting for OUTDIR's lock (a clean holds it alone) says once
 * what it waits for and who holds it, and SIGINT or SIGTERM end the wait:
 * the build stops as a stopped build does, having written nothing.  It
 * slept on in flock() through both, silent, until the lock came free. */
static void a_build_waiting_for_the_lock_says_so_and_stops(void **state)
{
	char *dir = test_tmpdir("waiting-lock"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/lock", out);
	char *err = test_format("%s/err", dir), *output = test_format("%s/Turn.xnb", out);
	char *holder = test_format("locked by process %ld (", (long)getpid());

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s'", in, in);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	for (int k = 0; k < 2; k++) {
		int sig = k ? SIGTERM : SIGINT, fd = open(lock, O_RDWR | O_CLOEXEC), status;
		char *text = NULL;
		pid_t pid;

		assert_true(fd >= 0 && flock(fd, LOCK_EX) == 0);
		assert_int_equal(unlink(output), 0);
		pid = start_build_reporting(out, in, "2", NULL, NULL, err);
		for (int i = 0; i < 1000 && !(text && strstr(text, "waiting for")); i++) {
			usleep(10000);
			free(text);
			text = (char *)test_read_file(err, NULL);
		}
		free(text);
		usleep(100000);
		kill(pid, sig);
		status = wait_briefly(pid);
		close(fd);
		assert_true(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == sig);
		text = (char *)test_read_file(err, NULL);
		if (!strstr(text, "animc: waiting for '") || !strstr(text, ".animc/lock', locked by ") ||
		    !strstr(text, holder) || strstr(strstr(text, "waiting for") + 1, "waiting for") ||
		    !strstr(text, k ? "the build was stopped (SIGTERM)" : "the build was stopped (SIGINT)"))
			fail_msg("stderr: %s", text);
		free(text);
		assert_false(test_file_exists(output));
		assert_false(test_has_running_marker(out));
		test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
		assert_true(test_file_exists(output));
	}
	free(holder), free(output), free(err), free(lock), free(out), free(in), free(dir);
}

/* A source folder `in` of one clip built into `out`, and the lock shim
 * (testdata/env/slow_lock.c) compiled to `shim`. */
static void lock_fixture(const char *in, const char *out, const char *shim)
{
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s' && "
		"cc -shared -fPIC -o '%s' testdata/env/slow_lock.c -ldl", in, in, shim);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
}

/* The standard error of a build of `in` into `out` that waits for the lock
 * this test holds at fd (/proc/locks hidden from it by `shim`, unless
 * NULL), then gets it when fd is closed and ends well. */
static char *stderr_of_a_build_waiting_on(int fd, const char *out, const char *in, const char *shim, const char *err)
{
	char *text = NULL;
	pid_t pid;
	int status;

	if (shim)
		setenv("LD_PRELOAD", shim, 1), setenv("HIDE_PROC_LOCKS", "1", 1);
	pid = start_build_reporting(out, in, "1", NULL, NULL, err);
	unsetenv("HIDE_PROC_LOCKS"), unsetenv("LD_PRELOAD");
	for (int i = 0; i < 1000 && !(text && strstr(text, "waiting for")); i++) {
		usleep(10000);
		free(text);
		text = (char *)test_read_file(err, NULL);
	}
	free(text);
	close(fd);
	status = wait_briefly(pid);
	assert_true(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return (char *)test_read_file(err, NULL);
}

/* A build waiting for OUTDIR's lock names the build that holds it alone
 * (here a build letting go of it slowly), though /proc/locks cannot tell
 * it (`hide`: HIDE_PROC_LOCKS hides it, as when the holder let go as it
 * was looked up, or runs in another PID namespace; HIDE_PROC hides all of
 * /proc, as where none is mounted): the holder writes who it is into the
 * lock. */
static void waiting_build_names_the_build_holding_it(const char *hide)
{
	char *dir = test_tmpdir("waiting-named"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/lock", out);
	char *err = test_format("%s/err", dir), *shim = test_format("%s/slow_lock.so", dir);
	char *text = NULL, *holder;
	test_run r;
	pid_t pid;
	int status;

	lock_fixture(in, out, shim);
	setenv("LD_PRELOAD", shim, 1), setenv("SLOW_LOCK_S", "2", 1);
	pid = start_build(out, in, "1");
	unsetenv("SLOW_LOCK_S");
	holder = test_format("process %ld (", (long)pid);
	for (int i = 0; i < 1000 && !(text && strncmp(text, holder, strlen(holder)) == 0); i++) {
		usleep(10000);
		free(text);
		text = (char *)test_read_file(lock, NULL);
	}
	free(text);
	setenv(hide, "1", 1);
	r = test_animc("build", "-o", out, in, NULL);
	unsetenv(hide), unsetenv("LD_PRELOAD");
	status = wait_briefly(pid);
	assert_true(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	text = test_format("animc: waiting for '%s', locked by %s", lock, holder);
	if (r.status != 0 || !strstr(r.err, text) || !strstr(r.out, ", 1 up to date\n"))
		fail_msg("%s: exit %d, want '%s'\n%s%s", hide, r.status, text, r.out, r.err);
	test_run_release(&r);
	free(text), free(holder), free(shim), free(err), free(lock), free(out), free(in), free(dir);
}

/* The holder named, /proc/locks hidden.  It said "locked by another
 * process". */
static void a_build_waiting_for_the_lock_names_the_build_holding_it(void **state)
{
	TEST_NEEDS_PRELOAD();
	(void)state;
	waiting_build_names_the_build_holding_it("HIDE_PROC_LOCKS");
}

/* The holder named with no /proc at all: the line the holder wrote is
 * taken, as nothing can tell whether its process runs.  It said "locked by another process",
 * taking no line of a process it could not find running. */
static void a_build_waiting_for_the_lock_without_proc_names_the_build_holding_it(void **state)
{
	TEST_NEEDS_PRELOAD();
	(void)state;
	waiting_build_names_the_build_holding_it("HIDE_PROC");
}

/* A build waiting for OUTDIR's lock, which /proc/locks cannot tell the
 * holder of (hidden), names no process when the holder wrote none in it
 * (an animc before the line was written; here this test): the builds that
 * held it before took their lines out as they let go.  It named the last
 * build that had held it alone, ended long before. */
static void a_build_waiting_for_the_lock_names_no_build_that_let_go(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("waiting-let-go"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/lock", out);
	char *err = test_format("%s/err", dir), *shim = test_format("%s/slow_lock.so", dir);
	char *text;
	int fd;

	(void)state;
	lock_fixture(in, out, shim);
	fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0 && flock(fd, LOCK_EX) == 0);
	text = stderr_of_a_build_waiting_on(fd, out, in, shim, err);
	if (!text || !strstr(text, "', locked by another process: ") || strstr(text, "locked by process"))
		fail_msg("stderr: %s", text ? text : "(none)");
	free(text), free(shim), free(err), free(lock), free(out), free(in), free(dir);
}

/* A build waiting for OUTDIR's lock, which /proc/locks cannot tell the
 * holder of (hidden), names no process from a line the holder did not
 * write (an animc before the line was written; here this test): one of a
 * build killed before it took its line out, whose process is gone, or
 * whose number another process now has (here this test's own, under
 * another command).  It named the killed build. */
static void a_build_waiting_for_the_lock_names_no_process_gone(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("waiting-gone"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/lock", out);
	char *err = test_format("%s/err", dir), *shim = test_format("%s/slow_lock.so", dir);
	pid_t gone = fork();

	(void)state;
	if (gone == 0)
		_exit(0);
	assert_true(gone > 0 && waitpid(gone, NULL, 0) == gone);
	lock_fixture(in, out, shim);
	for (int k = 0; k < 2; k++) {
		char *line = test_format("process %ld (animc build -q -o %s %s)\n", k ? (long)getpid() : (long)gone,
					 out, in), *text;
		int fd = open(lock, O_RDWR | O_CLOEXEC);

		assert_true(fd >= 0 && flock(fd, LOCK_EX) == 0);
		assert_true(ftruncate(fd, 0) == 0 && pwrite(fd, line, strlen(line), 0) == (ssize_t)strlen(line));
		text = stderr_of_a_build_waiting_on(fd, out, in, shim, err);
		if (!text || !strstr(text, "', locked by another process: ") || strstr(text, "locked by process"))
			fail_msg("%s: stderr: %s", k ? "a number taken" : "a process gone", text ? text : "(none)");
		free(text), free(line);
	}
	free(shim), free(err), free(lock), free(out), free(in), free(dir);
}

/* A build waiting to save the manifest (another build holds
 * OUTDIR/.animc/manifest.lock, here this test) says so once, naming the
 * holder, as a build waiting for OUTDIR's lock does, and saves once it is
 * let go.  It waited without a word. */
static void a_build_waiting_to_save_the_manifest_says_so(void **state)
{
	char *dir = test_tmpdir("waiting-save"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/manifest.lock", out);
	char *err = test_format("%s/err", dir), *output = test_format("%s/Turn.xnb", out), *text, *want;
	test_run r;
	int fd;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s'", in, in);
	r = test_animc("build", "-q", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(unlink(output), 0);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	assert_true(fd >= 0 && flock(fd, LOCK_EX) == 0);
	text = stderr_of_a_build_waiting_on(fd, out, in, NULL, err);
	want = test_format("animc: waiting for '%s', locked by process %ld (", lock, (long)getpid());
	if (!text || !strstr(text, want) || !strstr(text, "): another build of this folder saving its manifest\n") ||
	    strstr(strstr(text, "waiting for") + 1, "waiting for"))
		fail_msg("want '%s', stderr: %s", want, text ? text : "(none)");
	assert_true(test_file_exists(output));
	free(want), free(text), free(output), free(err), free(lock), free(out), free(in), free(dir);
}

/* A build waiting for OUTDIR's lock names its holder on one line, though
 * the holder's command line holds a newline (here flock(1) run as
 * "two\nlines"): the line it said broke in two at it. */
static void a_build_waiting_for_the_lock_names_its_holder_on_one_line(void **state)
{
	char *dir = test_tmpdir("waiting-newline"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/lock", out);
	char *err = test_format("%s/err", dir), *text = NULL, *holder, *said, *end, *tail;
	pid_t flocker, pid;
	int fd, status;
	test_run r;

	(void)state;
	if (access("/usr/bin/flock", X_OK) != 0)
		skip();
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s'", in, in);
	r = test_animc("build", "-q", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	flocker = fork();
	assert_true(flocker >= 0);
	if (flocker == 0) {
		setpgid(0, 0);
		execl("/usr/bin/flock", "two\nlines", "-o", lock, "sleep", "20", (char *)NULL);
		_exit(127);
	}
	fd = open(lock, O_RDWR | O_CLOEXEC);
	for (int i = 0; i < 500 && fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) == 0; i++) {
		flock(fd, LOCK_UN);
		usleep(10000);
	}
	close(fd);
	pid = start_build_reporting(out, in, "1", NULL, NULL, err);
	for (int i = 0; i < 1000 && !(text && strstr(text, "waiting for")); i++) {
		usleep(10000);
		free(text);
		text = (char *)test_read_file(err, NULL);
	}
	free(text);
	kill(-flocker, SIGTERM);
	waitpid(flocker, NULL, 0);
	status = wait_briefly(pid);
	assert_true(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	text = (char *)test_read_file(err, NULL);
	holder = test_format("locked by process %ld (two?lines -o ", (long)flocker);
	said = text ? strstr(text, "animc: waiting for '") : NULL;
	end = said ? strchr(said, '\n') : NULL;
	tail = said ? strstr(said, "): a clean or another build of this folder") : NULL;
	if (!said || !strstr(said, holder) || !end || !tail || tail > end)
		fail_msg("stderr: %s", text ? text : "(none)");
	free(holder), free(text), free(err), free(lock), free(out), free(in), free(dir);
}

/* A build waiting for OUTDIR's lock says so once, though the lock it waited
 * for was removed meanwhile and the one made in its place is held too (a
 * clean, then another): it said so again for each. */
static void a_build_waiting_for_the_lock_says_so_once(void **state)
{
	char *dir = test_tmpdir("waiting-once"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *lock = test_format("%s/.animc/lock", out);
	char *err = test_format("%s/err", dir), *text = NULL;
	pid_t pid;
	int fd, again, status;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s'", in, in);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0 && flock(fd, LOCK_EX) == 0);
	pid = start_build_reporting(out, in, "1", NULL, NULL, err);
	for (int i = 0; i < 1000 && !(text && strstr(text, "waiting for")); i++) {
		usleep(10000);
		free(text);
		text = (char *)test_read_file(err, NULL);
	}
	free(text);
	assert_int_equal(unlink(lock), 0);
	again = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	assert_true(again >= 0 && flock(again, LOCK_EX) == 0);
	close(fd);
	usleep(300000);
	close(again);
	status = wait_briefly(pid);
	assert_true(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	text = (char *)test_read_file(err, NULL);
	if (!strstr(text, "animc: waiting for '") || strstr(strstr(text, "waiting for") + 1, "waiting for"))
		fail_msg("stderr: %s", text);
	free(text), free(err), free(lock), free(out), free(in), free(dir);
}

/* Start a build of a101..a130 (compiled, put in place), b.smd (whose
 * import loops, holding the commits behind it) and c101..c130 (staged),
 * and kill it with SIGKILL, workers and all, once the a* are in place:
 * before its first checkpoint (2 s), no manifest records them. */
static void kill_a_build_mid_way(const char *in, const char *out, size_t half)
{
	pid_t pid;

	test_sh("rm -rf '%s'", out);
	pid = start_build(out, in, "2");
	wait_for_outputs(out, half, pid);
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(count_xnb(out), half);
}

/* Outputs a build put in place are known (through .animc's journal) to
 * clean and --prune even when it was killed before a manifest recorded
 * them. */
static void a_build_killed_before_its_manifest_leaves_nothing_unknown(void **state)
{
	char *dir = test_tmpdir("killed-early");
	char *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *state_dir = test_format("%s/.animc", out);
	const size_t half = 30;
	struct stat st;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && for i in $(seq 101 %zu); do cp " CRANE "/Turn.Animation '%s'/a$i.Animation; "
	   "cp " CRANE "/Wave.Animation '%s'/c$i.Animation; done && "
	   "cp testdata/assimp_crashes/endless_time.smd '%s/b.smd'", in, 100 + half, in, in, in);
	age_tree(in);
	/* clean removes the a* too, and what the build kept in .animc. */
	kill_a_build_mid_way(in, out, half);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "removed 30 outputs,"));
	test_run_release(&r);
	assert_int_equal(count_xnb(out), 0);
	assert_int_equal(test_count_files(out), 0);
	assert_int_not_equal(stat(state_dir, &st), 0);
	/* The next build takes them in: the a* sources gone, --prune removes
	 * their outputs; it leaves no journal. */
	kill_a_build_mid_way(in, out, half);
	test_sh("mkdir -p '%s/gone' && mv '%s'/a*.Animation '%s/b.smd' '%s/gone/'", dir, in, in, dir);
	r = test_animc("build", "-q", "--prune", "-o", out, in, NULL);
	if (r.status != 0)
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_int_equal(count_xnb(out), half);
	test_sh("test ! -e '%s/a101.xnb' && test -e '%s/c101.xnb'", out, out);
	test_sh("test -z \"$(ls '%s' | grep -v -e '^lock$' -e '^manifest$' -e '^manifest.lock$')\"", state_dir);
	free(in);
	free(out);
	free(state_dir);
	free(dir);
}

/* A journal as a killed build leaves it in `out`: a record of in.xnb, one
 * of ../outside.xnb (beside `out`), and a last line cut short. */
static void leave_journal(const char *out)
{
	const char *names[] = { "in.xnb", "../outside.xnb", "esc/linked.xnb", "back/kept.xnb" };
	const char *bytes[] = { "alpha", "beta", "gamma", "delta" };
	build_journal j;
	cli_error err;
	FILE *f;

	test_sh("mkdir -p '%s/.animc' '%s/../precious' && printf alpha > '%s/in.xnb' && printf beta > '%s/../outside.xnb' && "
	   "printf gamma > '%s/../precious/linked.xnb' && ln -sfn ../precious '%s/esc' && printf delta > '%s/kept.xnb' "
	   "&& ln -sfn . '%s/back'", out, out, out, out, out, out, out, out);
	assert_true(build_journal_init(&j, out));
	for (int i = 0; i < 4; i++) {
		manifest_output o = { 0 };

		o.path = strdup(names[i]);
		o.clip = strdup("");
		o.size = strlen(bytes[i]);
		build_hash_bytes(bytes[i], o.size, &o.hash);
		assert_true(build_journal_add(&j, &o, &err));
		manifest_output_release(&o);
	}
	f = fopen(j.path, "a");
	assert_non_null(f);
	fputs("output\tcut.xnb\t\t12", f);
	fclose(f);
	build_journal_close(&j);
}

/* What a build killed before its first checkpoint leaves in OUTDIR `out`:
 * its output `name`, holding `text`, in place and recorded by its journal
 * alone (an orphan once folded).  Returns the journal's path. */
static char *journal_output(const char *out, const char *name, const char *text)
{
	char *path = test_format("%s/%s", out, name);
	manifest_output o = { .path = strdup(name), .clip = strdup(""), .size = strlen(text) };
	build_journal j;
	cli_error err;

	assert_true(test_write_file(path, text, strlen(text)));
	assert_true(build_journal_init(&j, out));
	build_hash_bytes(text, strlen(text), &o.hash);
	assert_true(build_journal_add(&j, &o, &err));
	manifest_output_release(&o);
	char *journal = strdup(j.path);
	build_journal_close(&j);
	free(path);
	return journal;
}

/* The journal is an input too: clean and a build that takes it in remove
 * what it names under OUTDIR alone, never through a link in it (one that
 * leads out, or even one back into OUTDIR: a link swapped in while animc
 * works must redirect nothing), and ignore a line a kill cut short. */
static void a_journal_never_removes_outside_the_output_folder(void **state)
{
	char *dir = test_tmpdir("journal-outside");
	char *out = test_format("%s/out", dir), *outside = test_format("%s/outside.xnb", dir);
	char *linked = test_format("%s/precious/linked.xnb", dir);
	char *inside = test_format("%s/in.xnb", out), *empty = test_format("%s/empty", dir);
	char *kept = test_format("%s/kept.xnb", out);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s'", empty);
	for (int k = 0; k < 2; k++) {
		leave_journal(out);
		if (k == 0)
			r = test_animc("clean", "-o", out, NULL);
		else
			r = test_animc("build", "-q", "--prune", "-o", out, empty, NULL);
		assert_int_equal(r.status, 0);
		assert_int_equal(count(r.err, "\n"), 3);
		assert_non_null(strstr(r.err, "/.animc/journal."));
		assert_non_null(strstr(r.err, "out/back/kept.xnb: warning: its folder is reached through a symbolic"));
		assert_non_null(strstr(r.err, ":3: warning: names '../outside.xnb', which is not under the output "
					      "folder; ignored [journal]\n"));
		assert_non_null(strstr(r.err, "out/esc/linked.xnb: warning: its folder is reached through a symbolic "
					      "link in the output folder, through which animc removes nothing: remove it "
					      "there by hand (the next clean or --prune then forgets it); to have animc "
					      "remove such outputs, build into the link's target with -o; left [output-left]\n"));
		test_run_release(&r);
		assert_false(test_file_exists(inside));
		assert_true(test_file_exists(outside));
		assert_true(test_file_exists(linked));
		assert_true(test_file_exists(kept));
		test_sh("rm -rf '%s'", out);
	}
	free(inside);
	free(kept);
	free(empty);
	free(outside);
	free(linked);
	free(out);
	free(dir);
}

/* A manifest of another format version (a later animc's, then animc
 * rolled back): a build refuses, exit 1, and keeps it byte for byte, as
 * clean does.  A build compiled every source and saved its own manifest
 * over it, and the outputs only the later animc wrote were then known to
 * no animc. */
static void a_manifest_of_another_version_is_kept(void **state)
{
	char *dir = test_tmpdir("manifest-other"), *out = test_format("%s/out", dir);
	char *manifest_path = test_format("%s/.animc/manifest", out), *later = test_format("%s/Later.xnb", out);
	const char *text = "animc-manifest 2\noptions\tof a later format\noutput\tLater.xnb\t5\n";
	test_run r;
	uint8_t *kept;
	size_t size;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	assert_true(test_write_file(manifest_path, text, strlen(text)));
	assert_true(test_write_file(later, "later", 5));
	r = test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "/.animc/manifest: error: a manifest of format version 2, which another animc "
				      "writes (this one writes version 1), whose outputs this one does not know: nothing "
				      "built, and the manifest is kept; build with the animc that wrote it, build into "
				      "another folder with -o, or remove the file (its outputs are then left to you) to "
				      "build here anew\n"));
	test_run_release(&r);
	kept = test_read_file(manifest_path, &size);
	assert_int_equal(size, strlen(text));
	assert_memory_equal(kept, text, size);
	free(kept);
	/* --rebuild too: it keeps what earlier runs wrote tracked. */
	r = test_animc("build", "-q", "--rebuild", "-o", out, CRANE "/Turn.Animation", NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	kept = test_read_file(manifest_path, &size);
	assert_memory_equal(kept, text, strlen(text));
	free(kept);
	/* Nor does clean remove what it cannot know to be animc's. */
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "/.animc/manifest: error: a manifest of format version 2, which another animc "
				      "writes (this one writes version 1), whose outputs this one does not know: nothing "
				      "removed; clean with the animc that wrote it, or remove the file\n"));
	test_run_release(&r);
	assert_true(test_file_exists(later));
	/* Removed by hand, as the error says: a build builds. */
	assert_int_equal(unlink(manifest_path), 0);
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	assert_true(test_file_exists(later));
	free(later), free(manifest_path), free(out), free(dir);
}

/* A journal of another format version (a later animc's, killed, then
 * animc rolled back): a build says so and keeps it, and clean removes
 * nothing while it is there, as with a manifest of another version.  Both
 * removed it, and the outputs it named were then known to no animc. */
static void a_journal_of_another_version_is_kept(void **state)
{
	char *dir = test_tmpdir("journal-other"), *out = test_format("%s/out", dir);
	char *journal = test_format("%s/.animc/journal.99999", out), *later = test_format("%s/Later.xnb", out);
	char *turn = test_format("%s/Turn.xnb", out);
	const char *text = "animc-journal 2\nput\tLater.xnb\tof a later format\n";
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	assert_true(test_write_file(journal, text, strlen(text)));
	assert_true(test_write_file(later, "later", 5));
	r = test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "/.animc/journal.99999: warning: a journal of format version 2, which another "
				      "animc writes (this one writes version 1): its outputs are not known to this "
				      "animc; kept for the animc that wrote it [journal]\n"));
	test_run_release(&r);
	assert_true(test_file_exists(journal));
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "/.animc/journal.99999: error: another animc's journal, naming outputs this "
				      "one cannot read; nothing removed: clean with the animc that wrote it, or remove "
				      "the file\n"));
	test_run_release(&r);
	assert_true(test_file_exists(journal));
	assert_true(test_file_exists(turn));
	assert_true(test_file_exists(later));
	/* Removed by hand, as the error says: clean cleans. */
	assert_int_equal(unlink(journal), 0);
	test_run_ok(test_animc("clean", "-o", out, NULL));
	assert_false(test_file_exists(turn));
	free(turn), free(later), free(journal), free(out), free(dir);
}

/* A journal clean cannot read (a build another user ran under umask 077,
 * killed before its manifest recorded what it wrote): clean removes nothing
 * and fails, as with another animc's journal.  It removed what the manifest
 * recorded, left the journal's outputs, said "0 left", exited 0, and told
 * to remove the journal by hand, which leaves its outputs known to no one. */
static void a_journal_clean_cannot_read_keeps_everything(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("journal-unreadable"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/unreadable_journal.so", dir), *later = test_format("%s/Later.xnb", out);
	char *turn = test_format("%s/Turn.xnb", out);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/unreadable_journal.c -ldl", shim);
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	char *journal = journal_output(out, "Later.xnb", "later");
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("clean", "-o", out, NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 1 || !strstr(r.err, "Permission denied; its outputs are not known [journal]\n") ||
	    !strstr(r.err, "error: cannot be read, and the outputs it names would be known to no one; nothing "
			   "removed: clean again once it can be read\n") || strstr(r.err, "did not write"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(journal));
	assert_true(test_file_exists(turn));
	assert_true(test_file_exists(later));
	/* Readable again: clean removes both outputs. */
	r = test_animc("clean", "-o", out, NULL);
	if (r.status != 0 || !strstr(r.out, "removed 2 outputs,"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_false(test_file_exists(turn));
	assert_false(test_file_exists(later));
	assert_false(test_file_exists(journal));
	free(journal), free(turn), free(later), free(shim), free(out), free(dir);
}

/* Source `one` under `art` built into `out`, and beside it what a run of
 * s2 killed before its first checkpoint leaves: s2.xnb. */
static void build_beside_a_killed_run(const char *art, const char *out, const char *one)
{
	test_run_ok(test_animc("build", "-q", "--base", art, "-o", out, one, NULL));
	free(journal_output(out, "s2.xnb", "s2 out"));
}

/* An output a killed run of a source put in place, recorded by its
 * journal alone (an orphan once folded), is kept by a --prune run of
 * another source (a per-file rule) while its source is there, and removed
 * once the source is gone.  It was removed with the source still there. */
static void prune_keeps_the_orphan_of_a_source_still_there(void **state)
{
	char *dir = test_tmpdir("orphan-source-there"), *art = test_format("%s/art", dir);
	char *out = test_format("%s/out", dir), *one = test_format("%s/s1.Animation", art);
	char *two = test_format("%s/s2.Animation", art), *made = test_format("%s/s2.xnb", out);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s' && cp " CRANE "/Wave.Animation '%s'", art, one,
		two);
	build_beside_a_killed_run(art, out, one);
	for (int k = 0; k < 2; k++) {
		r = test_animc("build", "--prune", "--base", art, "-o", out, one, NULL);
		if (r.status != 0 || strstr(r.out, "pruned") || !test_file_exists(made))
			fail_msg("run %d: exit %d\n%s%s", k, r.status, r.out, r.err);
		test_run_release(&r);
	}
	assert_int_equal(unlink(two), 0);
	r = test_animc("build", "--prune", "--base", art, "-o", out, one, NULL);
	if (r.status != 0 || !strstr(r.out, ", 1 output pruned\n") || test_file_exists(made))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(made), free(two), free(one), free(out), free(art), free(dir);
}

/* A socket in place of the manifest or of a journal is said as what it is,
 * as a source is: it was "cannot open: No such device or address". */
static void a_socket_in_place_of_the_manifest_or_a_journal_is_said_as_one(void **state)
{
	char *dir = test_tmpdir("state-socket"), *out = test_format("%s/out", dir);
	char *state_dir = test_format("%s/.animc", out), *manifest_path = test_format("%s/manifest", state_dir);
	char *manifest_said = test_format("%s: warning: is a socket, not a regular file; not read; compiling every "
					  "source [manifest]\n", manifest_path);
	char *journal_said = test_format("%s/journal.1: warning: is a socket, not a regular file; not read; its "
					 "outputs are not known [journal]\n", state_dir);
	test_run r = test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(unlink(manifest_path), 0);
	/* Bound from its folder: a socket's path is short. */
	setenv("DIR", state_dir, 1);
	r = test_exec("sh", "-c", "cd \"$DIR\" && python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); "
		      "s.bind(\"manifest\"); t = socket.socket(socket.AF_UNIX); t.bind(\"journal.1\")'", NULL);
	unsetenv("DIR");
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL);
	if (!strstr(r.err, manifest_said) || !strstr(r.err, journal_said) || strstr(r.err, "No such device"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = test_animc("clean", "-o", out, NULL);
	if (r.status != 1 || !strstr(r.err, journal_said) || strstr(r.err, "No such device"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(journal_said), free(manifest_said), free(manifest_path), free(state_dir), free(out), free(dir);
}

/* The orphan of a source gone is removed by a --prune run of another source
 * (a per-file rule) though a file of its stem that is no source (its
 * texture, s2.png) is left beside where it was.  It was kept, as if its
 * source were there, for good when only per-file rules ran. */
static void prune_removes_the_orphan_of_a_source_gone_beside_a_texture(void **state)
{
	char *dir = test_tmpdir("orphan-source-gone"), *art = test_format("%s/art", dir);
	char *out = test_format("%s/out", dir), *one = test_format("%s/s1.Animation", art);
	char *two = test_format("%s/s2.Animation", art), *made = test_format("%s/s2.xnb", out);
	char *texture = test_format("%s/s2.png", art);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s' && cp " CRANE "/Wave.Animation '%s'", art, one,
		two);
	assert_true(test_write_file(texture, "\x89PNG\r\n\x1a\n", 8));
	build_beside_a_killed_run(art, out, one);
	assert_int_equal(unlink(two), 0);
	r = test_animc("build", "--prune", "--base", art, "-o", out, one, NULL);
	if (r.status != 0 || !strstr(r.out, ", 1 output pruned\n") || test_file_exists(made) ||
	    !test_file_exists(texture))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(texture), free(made), free(two), free(one), free(out), free(art), free(dir);
}

/* A --prune run of one source (a per-file rule) after a killed run of many
 * lists the folder of their orphans once, not once per orphan (it took
 * seconds a run with thousands): with the folder listable a few times only,
 * the orphans of the sources there are kept, none pruned. */
static void prune_lists_the_folder_of_many_orphans_once(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("orphans-listed-once"), *art = test_format("%s/art", dir);
	char *out = test_format("%s/out", dir), *one = test_format("%s/s1.Animation", art);
	char *shim = test_format("%s/few_listings.so", dir);
	build_journal j;
	cli_error err;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s' && for i in $(seq 2 101); do "
		"cp " CRANE "/Wave.Animation '%s/s'$i.Animation; done && "
		"cc -shared -fPIC -o '%s' testdata/env/few_listings.c -ldl", art, one, art, shim);
	test_run_ok(test_animc("build", "-q", "--base", art, "-o", out, one, NULL));
	/* What a run of s2..s101 killed before its first checkpoint leaves. */
	assert_true(build_journal_init(&j, out));
	for (int i = 2; i <= 101; i++) {
		char *name = test_format("s%d.xnb", i), *made = test_format("%s/%s", out, name);
		manifest_output o = { .path = name, .clip = strdup(""), .size = 6 };

		assert_true(test_write_file(made, "sN out", 6));
		build_hash_bytes("sN out", 6, &o.hash);
		assert_true(build_journal_add(&j, &o, &err));
		manifest_output_release(&o);
		free(made);
	}
	build_journal_close(&j);
	setenv("LD_PRELOAD", shim, 1), setenv("LISTINGS_MAX", "10", 1), setenv("LISTINGS_UNDER", art, 1);
	r = test_animc("build", "--prune", "--base", art, "-o", out, one, NULL);
	unsetenv("LISTINGS_UNDER"), unsetenv("LISTINGS_MAX"), unsetenv("LD_PRELOAD");
	if (r.status != 0 || strstr(r.out, "pruned") || count_xnb(out) != 101)
		fail_msg("exit %d, %zu outputs\n%s%s", r.status, count_xnb(out), r.out, r.err);
	test_run_release(&r);
	free(shim), free(one), free(out), free(art), free(dir);
}

/* clean cannot remove animc's own files of OUTDIR/.animc (a lock, a
 * journal: a disk failing): it says which and why, and fails.  It said the
 * folder held a file "animc did not write; remove it by hand", and exited 0. */
static void clean_says_the_state_files_it_cannot_remove(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("keep-state"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/keep_state.so", dir), *state_dir = test_format("%s/.animc", out);
	test_run r;
	struct stat st;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/keep_state.c -ldl", shim);
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	char *journal = journal_output(out, "Later.xnb", "later");
	char *journal_said = test_format("%s: warning: cannot remove: Input/output error; left [output-left]\n",
					 journal);
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("clean", "-o", out, NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 1 || !strstr(r.err, "/.animc/manifest.lock: warning: cannot remove: Input/output error; "
					    "left [output-left]\n") || !strstr(r.err, journal_said) ||
	    strstr(r.err, "did not write") || !strstr(r.out, "removed 2 outputs,"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = test_animc("clean", "-o", out, NULL);
	if (r.status != 0 || r.err[0])
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_int_not_equal(stat(state_dir, &st), 0);
	assert_int_equal(test_count_files(out), 0);
	free(journal_said), free(journal), free(state_dir), free(shim), free(out), free(dir);
}

/* clean empties an output folder it cannot remove (a mount point, a folder
 * above it that cannot be written): a warning says so, and the folder
 * stays; nothing of animc's is left in it.  It was not said. */
static void clean_says_an_emptied_folder_it_cannot_remove(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("keep-folders"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/keep_folders.so", dir), *crane = test_format("%s/Crane", out);
	char *said = test_format("%s: warning: emptied, but cannot be removed: Device or resource busy; left "
				 "[output-left]\n", crane);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/keep_folders.c -ldl", shim);
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Crane.x", NULL));
	assert_int_equal(test_count_files(crane), 2);
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("clean", "-o", out, NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 0 || strcmp(r.err, said) || strcmp(r.out, "removed 2 outputs, 0 temporary files; 0 left\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(crane));
	assert_int_equal(test_count_files(out), 0);
	free(said), free(crane), free(shim), free(out), free(dir);
}

/* A folder of OUTDIR the user linked to another disk: builds write through
 * it, but clean and --prune remove nothing there (a record naming a path
 * through a link is no proof the file is animc's to remove); what they
 * leave is counted as left, stays recorded and is said each time, with
 * what to do. */
static void outputs_through_a_link_out_of_outdir_stay_recorded(void **state)
{
	char *dir = test_tmpdir("linked-subfolder"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *wave = test_format("%s/disk/chars/Wave.xnb", dir);
	const char *advice = "out/chars/Wave.xnb: warning: its folder is reached through a symbolic link in the "
			     "output folder, through which animc removes nothing: remove it there by hand (the next "
			     "clean or --prune then forgets it); to have animc remove such outputs, build into the "
			     "link's target with -o; left [output-left]\n";
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/chars' '%s/disk/chars' '%s' && cp " CRANE "/Idle.Animation " CRANE "/Wave.Animation "
	   "'%s/chars' && ln -s ../disk/chars '%s/chars'", src, dir, out, src, out);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	assert_true(test_file_exists(wave));
	test_sh("rm '%s/chars/Wave.Animation'", src);
	for (int k = 0; k < 2; k++) {   /* said again: still recorded */
		r = test_animc("build", "--progress", "never", "--prune", "-o", out, src, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.err, advice))
			fail_msg("%s", r.err);
		/* Left by --prune: not "(--prune removes them)", nor counted
		 * as pruned. */
		if (!strstr(r.out, ", 1 stale output left\n") || strstr(r.out, "pruned"))
			fail_msg("%s", r.out);
		test_run_release(&r);
	}
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, advice));
	assert_string_equal(r.out, "removed 0 outputs, 0 temporary files; 2 left\n");
	test_run_release(&r);
	r = test_animc("clean", "-o", out, NULL);
	assert_string_equal(r.out, "removed 0 outputs, 0 temporary files; 2 left\n");
	test_run_release(&r);
	assert_true(test_file_exists(wave));
	/* As the advice says: removed there by hand, it is forgotten. */
	test_sh("rm '%s'", wave);
	r = test_animc("clean", "-o", out, NULL);
	assert_string_equal(r.out, "removed 0 outputs, 0 temporary files; 1 left\n");
	assert_null(strstr(r.err, "Wave.xnb"));
	test_run_release(&r);
	free(wave), free(out), free(src), free(dir);
}

/* Per-file rules of make -j or ninja: builds into one folder at once, each
 * recording its own sources; none waits for the others to end. */
static void builds_side_by_side_share_a_folder(void **state)
{
	char *dir = test_tmpdir("side-by-side");
	char *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *report = test_format("%s/r.json", dir);
	const size_t n = 8;
	pid_t pids[8];

	(void)state;
	test_sh("mkdir -p '%s' && for i in $(seq 1 %zu); do cp " CRANE "/Wave.Animation '%s'/w$i.Animation; done",
	   in, n, in);
	age_tree(in);
	for (size_t i = 0; i < n; i++) {
		char *file = test_format("%s/w%zu.Animation", in, i + 1);

		pids[i] = start_build(out, file, "1");
		free(file);
	}
	for (size_t i = 0; i < n; i++) {
		int status;

		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(test_count_files(out), n);
	/* Every one of them recorded its source: nothing to do now. */
	test_run_ok(test_animc("build", "-q", "--report", report, "-o", out, in, NULL));
	assert_int_equal(report_count(report, "up-to-date"), n);
	/* clean waits for no one, but refuses while a build runs. */
	test_run_ok(test_animc("clean", "-o", out, NULL));
	assert_int_equal(test_count_files(out), 0);
	free(in);
	free(out);
	free(report);
	free(dir);
}

/* clean refused while builds hold OUTDIR's lock names them, as a build
 * waiting for the lock names its holder: every build holds it shared, and
 * /proc/locks lists each (here this test, holding it as one build, then as
 * two).  It said "a build is writing this folder", naming none. */
static void clean_refused_by_builds_names_them(void **state)
{
	char *dir = test_tmpdir("clean-names"), *out = test_format("%s/out", dir);
	char *lock = test_format("%s/.animc/lock", out);
	char *one = test_format("%s: error: a build is writing this folder (process %ld (", out, (long)getpid());
	char *two = test_format("%s: error: 2 builds are writing this folder (process %ld (", out, (long)getpid());
	int fd[2];
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	for (int k = 0; k < 2; k++) {
		fd[k] = open(lock, O_RDWR | O_CLOEXEC);
		assert_true(fd[k] >= 0 && flock(fd[k], LOCK_SH) == 0);
		r = test_animc("clean", "-o", out, NULL);
		if (r.status != 1 || !strstr(r.err, k ? two : one) ||
		    !strstr(r.err, k ? " and 1 more); clean it when they end\n" : "); clean it when it ends\n"))
			fail_msg("%d held: exit %d\n%s", k + 1, r.status, r.err);
		test_run_release(&r);
	}
	close(fd[0]), close(fd[1]);
	test_run_ok(test_animc("clean", "-q", "-o", out, NULL));
	free(two), free(one), free(lock), free(out), free(dir);
}

/* ------------------------------------------------------------- reports */

/* The number after `key` in `text`. */
static double number_after(const char *text, const char *key)
{
	const char *at = strstr(text, key);

	if (!at)
		fail_msg("no %s in %s", key, text);
	return strtod(at + strlen(key), NULL);
}

/* An output's "error" in the JSON report: each measure under its own
 * name (within its own bound), the key counts before and after, the
 * sequences by how they were reduced (one each), and the compact layout's
 * tracks by kind. */
static void a_reports_error_says_each_measure_in_its_place(void **state)
{
	char *dir = test_tmpdir("report-error"), *report = test_format("%s/r.json", dir);
	char *out = test_format("%s/out", dir);

	(void)state;
	test_run_ok(test_animc("build", "-q", "--tolerance", "default", "--report", report, "-o", out,
			       "testdata/compact/sway.Animation", NULL));
	char *text = (char *)test_read_file(report, NULL), *e = strstr(text, "\"error\": {");
	assert_non_null(e);
	double t = number_after(e, "\"translation\": "), rot = number_after(e, "\"rotation_deg\": ");
	double sc = number_after(e, "\"scale\": ");
	assert_true(t > 0 && t <= 0.001);
	assert_true(rot > 0 && rot <= 0.05);
	assert_true(sc > 0 && sc <= 0.0001);
	assert_true(number_after(e, "\"keys_before\": ") == 755);   /* the source's */
	assert_true(number_after(e, "\"keys_after\": ") < 755);
	assert_true(number_after(e, "\"lossless\": ") + number_after(e, "\"coarser\": ") +
		    number_after(e, "\"resampled\": ") + number_after(e, "\"timed\": ") == 3);
	free(text);

	/* Turn: three still tracks, two of them at identity and one not, and
	 * the Cab's rotation keyed. */
	test_run_ok(test_animc("build", "-q", "--layout", "compact", "--report", report, "-o", out,
			       "testdata/sample/Crane/Turn.Animation", NULL));
	text = (char *)test_read_file(report, NULL);
	e = strstr(text, "\"compact\": {");
	assert_non_null(e);
	assert_true(number_after(e, "\"identity\": ") == 2);
	assert_true(number_after(e, "\"constant\": ") == 1);
	assert_true(number_after(e, "\"keyed\": ") == 1);
	assert_true(number_after(e, "\"segmented\": ") == 0);
	free(text), free(out), free(report), free(dir);
}

static void reports_follow_their_schema(void **state)
{
	char *dir = test_tmpdir("reports");
	char *report = test_format("%s/r.json", dir), *junit = test_format("%s/j.xml", dir);
	char *out = test_format("%s/out", dir), *bad = test_format("%s/bad.json", dir);
	/* U+FFFF in a name: valid UTF-8, but no XML 1.0 character (the JUnit
	 * file held it raw, and its readers refused the whole file). */
	char *odd = test_format("%s/T\xEF\xBF\xBFurn.Animation", dir);
	test_run r, check;

	(void)state;
	r = test_exec("cp", "testdata/sample/Crane/Turn.Animation", odd, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--report", report, "--junit", junit, "-o", out, "testdata/sample",
		       "testdata/hostile/truncated.Animation", "testdata/golden/unsorted.Animation",
		       "no/such/file.Animation", odd, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	check = test_exec("python3", "scripts/check-reports", "lib/build/report.schema.json", report, junit, NULL);
	if (check.status != 0)
		fail_msg("%s%s", check.out, check.err);
	test_run_release(&check);
	/* What the report says, by value. */
	{
		char *text = (char *)test_read_file(report, NULL);

		assert_non_null(strstr(text, "\"version\": 1"));
		assert_int_equal(count(text, "\"status\": \"failed\""), 2);
		assert_int_equal(count(text, "\"status\": \"compiled\""), 7);
		assert_int_equal(count(text, "\"status\": \"skipped\""), 1);
		assert_non_null(strstr(text, "\"clip\": \"PulseAndTurn\""));
		assert_non_null(strstr(text, "\"severity\": \"warning\""));
		assert_non_null(strstr(text, "\"line\": 6, \"column\": 6"));
		assert_non_null(strstr(text, "\"clips\": 9"));
		/* A report that breaks the schema is caught: the checker can fail. */
		char *broken = strstr(text, "\"bytes\": ");
		assert_non_null(broken);
		memcpy(broken, "\"bytez\"", 7);
		assert_true(test_write_file(bad, text, strlen(text)));
		free(text);
	}
	check = test_exec("python3", "scripts/check-reports", "lib/build/report.schema.json", bad, NULL);
	assert_int_equal(check.status, 1);
	test_run_release(&check);
	/* A lossy build reports each output's error, within the tolerance. */
	test_run_ok(test_animc("build", "-q", "--tolerance", "0.01,1,0.001", "--report", report, "-o", out,
			       "testdata/sample/Crane/Wave.Animation", NULL));
	check = test_exec("python3", "scripts/check-reports", "lib/build/report.schema.json", report, NULL);
	if (check.status != 0)
		fail_msg("%s%s", check.out, check.err);
	test_run_release(&check);
	{
		char *text = (char *)test_read_file(report, NULL);
		char *e = strstr(text, "\"error\": {\"translation\": ");
		double translation, rotation;

		assert_non_null(e);
		assert_int_equal(sscanf(e, "\"error\": {\"translation\": %lf, \"rotation_deg\": %lf",
					&translation, &rotation), 2);
		assert_true(translation <= 0.01 && rotation <= 1);
		free(text);
	}
	{
		char *text = (char *)test_read_file(junit, NULL);

		assert_non_null(strstr(text, "/T\\uFFFFurn.Animation"));
		free(text);
	}
	free(odd);
	free(report);
	free(junit);
	free(out);
	free(bad);
	free(dir);
}

static void depfiles_outputs_and_clean(void **state)
{
	char *dir = test_tmpdir("deps");
	char *out = test_format("%s/out dir", dir), *dep = test_format("%s/d.d", dir);
	char *mine = test_format("%s/out dir/mine.txt", dir), *idle = test_format("%s/out dir/Crane/Idle.xnb", dir);
	test_run r, listed;
	char *text;

	(void)state;
	/* `animc outputs` before a build: imports to learn the clip names,
	 * writes nothing. */
	listed = test_animc("outputs", "-o", out, "testdata/sample", NULL);
	assert_int_equal(listed.status, 0);
	assert_int_equal(count(listed.out, "\n"), 7);
	assert_false(test_file_exists(out));
	test_run_ok(test_animc("build", "-q", "--skeleton", CRANE "/Crane.x", "--depfile", dep, "-o", out,
			       "testdata/sample", NULL));
	/* One line per output: the output, its source, the skeleton; spaces
	 * escaped as make and ninja read them; then an empty rule for the
	 * skeleton (make runs the rules once it is gone). */
	text = (char *)test_read_file(dep, NULL);
	assert_int_equal(count(text, "\n"), 8);
	/* What the output depends on, by absolute paths (a tool may read the
	 * depfile from another folder). */
	char *cwd = getcwd(NULL, 0), *want = test_format("out\\ dir/Crane/Idle.xnb: %s/testdata/sample/Crane/Idle.Animation "
							 "%s/testdata/sample/Crane/Crane.x\n", cwd, cwd);
	assert_non_null(strstr(text, want));
	free(want);
	want = test_format("\n%s/testdata/sample/Crane/Crane.x:\n", cwd);
	assert_non_null(strstr(text, want));
	free(want), free(cwd);
	free(text);
	/* After it: the same list (now from the manifest). */
	r = test_animc("outputs", "-o", out, "testdata/sample", NULL);
	assert_string_equal(r.out, listed.out);
	test_run_release(&r);
	test_run_release(&listed);
	{
		char *cmd = test_format("cd '%s' && find . -name '*.xnb' | wc -l", out);
		FILE *p = popen(cmd, "r");
		int n = 0;

		assert_int_equal(fscanf(p, "%d", &n), 1);
		pclose(p);
		assert_int_equal(n, 7);
		free(cmd);
	}
	/* clean: what animc wrote goes, a file of the user's stays, and so does
	 * an output changed since. */
	assert_true(test_write_file(mine, "mine", 4));
	test_sh("printf changed > '%s/Crane/Turn.xnb'", out);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "Turn.xnb: warning: changed since animc wrote it; left, as not animc's any "
				      "more: remove it by hand if it is not wanted [output-left]\n"));
	test_run_release(&r);
	assert_true(test_file_exists(mine));
	assert_false(test_file_exists(idle));
	assert_int_equal(test_count_files(out), 2);
	{
		char *state_dir = test_format("%s/.animc", out);
		struct stat st;

		assert_int_not_equal(stat(state_dir, &st), 0);
		free(state_dir);
	}
	free(out);
	free(dep);
	free(mine);
	free(idle);
	free(dir);
}

/*
 * Run animc as a user a folder's mode binds: as root (whom chmod does not
 * stop), drop to nobody (65534) in the child first.  Status 77: the
 * privileges could not be dropped.  Output goes to files under `dir`.
 */
static test_run animc_unprivileged(const char *dir, const char *const *args)
{
	char *out_path = test_format("%s/stdout", dir), *err_path = test_format("%s/stderr", dir);
	char *argv[16] = { strdup(test_animc_path()) };
	test_run run = { -1, NULL, NULL };
	int status;
	pid_t pid;

	/* execv takes char *const[]: give it copies. */
	for (size_t i = 0; args[i] && i < 14; i++)
		argv[i + 1] = strdup(args[i]);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(127);
		if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0 ||
				       setresuid(65534, 65534, 65534) != 0))
			_exit(77);
		execv(argv[0], argv);
		_exit(127);
	}
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	run.out = (char *)test_read_file(out_path, NULL);
	run.err = (char *)test_read_file(err_path, NULL);
	free(out_path);
	free(err_path);
	return run;
}

/* An output clean cannot remove (a read-only folder) is named, counted as
 * left, and stays in the manifest, so that a later clean removes it. */
static void clean_keeps_the_record_of_what_it_cannot_remove(void **state)
{
	char *dir = test_tmpdir("clean-read-only");
	char *out = test_format("%s/out", dir), *idle = test_format("%s/out/Idle.xnb", dir);
	char *manifest_path = test_format("%s/out/.animc/manifest", dir);
	const char *clean[] = { "clean", "-o", out, NULL };
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Idle.Animation", NULL));
	if (geteuid() == 0)
		test_sh("chown -R 65534:65534 '%s'", out);
	test_sh("chmod 555 '%s'", out);
	/* A user the mode does not stop (privileges kept) removes it all. */
	r = animc_unprivileged(dir, clean);
	if (r.status == 77 || !test_file_exists(idle)) {
		test_sh("chmod 755 '%s'", out);
		print_message("skipped: a read-only folder does not stop this user\n");
		test_run_release(&r);
		skip();
	}
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "out/Idle.xnb: error: cannot remove: Permission denied; left"));
	assert_string_equal(r.out, "removed 0 outputs, 0 temporary files; 1 left\n");
	test_run_release(&r);
	{
		char *text = (char *)test_read_file(manifest_path, NULL);

		assert_non_null(strstr(text, "\norphan\tIdle.xnb\t"));
		free(text);
	}
	/* Writable again: the next clean finishes. */
	test_sh("chmod 755 '%s'", out);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "removed 1 output, 0 temporary files; 0 left\n");
	test_run_release(&r);
	assert_false(test_file_exists(idle));
	assert_false(test_file_exists(manifest_path));
	free(out);
	free(idle);
	free(manifest_path);
	free(dir);
}

/* A build that cannot record what it writes (OUTDIR/.animc read-only)
 * writes nothing: outputs nothing records are outputs clean and --prune
 * never remove. */
static void a_build_that_cannot_record_writes_nothing(void **state)
{
	char *dir = test_tmpdir("state-read-only"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *wave = test_format("%s/out/Wave.xnb", dir);
	const char *build[] = { "build", "-o", out, src, NULL };
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Idle.Animation '%s'", src, src);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	test_sh("cp " CRANE "/Wave.Animation '%s'", src);
	if (geteuid() == 0)
		test_sh("chown -R 65534:65534 '%s'", out);
	test_sh("chmod 555 '%s/.animc'", out);
	r = animc_unprivileged(dir, build);
	if (r.status == 77 || (r.status == 0 && test_file_exists(wave) && geteuid() != 0)) {
		test_sh("chmod 755 '%s/.animc'", out);
		print_message("skipped: a read-only folder does not stop this user\n");
		test_run_release(&r);
		skip();
	}
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "error: cannot create: Permission denied; nothing built (animc records what it writes in "))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_file_exists(wave));
	test_sh("chmod 755 '%s/.animc'", out);
	free(wave), free(out), free(src), free(dir);
}

/* --prune that cannot remove a stale output (a read-only folder) says so
 * and keeps it recorded, so that a later --prune or clean removes it. */
static void prune_keeps_the_record_of_what_it_cannot_remove(void **state)
{
	char *dir = test_tmpdir("prune-read-only"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *wave = test_format("%s/out/Wave.xnb", dir);
	const char *prune[] = { "build", "--prune", "-o", out, src, NULL };
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Idle.Animation " CRANE "/Wave.Animation '%s'", src, src);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	test_sh("rm '%s/Wave.Animation'", src);
	if (geteuid() == 0)
		test_sh("chown -R 65534:65534 '%s'", out);
	test_sh("chmod 555 '%s'", out);
	r = animc_unprivileged(dir, prune);
	if (r.status == 77 || !test_file_exists(wave)) {
		test_sh("chmod 755 '%s'", out);
		print_message("skipped: a read-only folder does not stop this user\n");
		test_run_release(&r);
		skip();
	}
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "out/Wave.xnb: warning: cannot remove: Permission denied; left"))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "1 stale output"));
	test_run_release(&r);
	test_sh("chmod 755 '%s'", out);
	test_run_ok(test_animc("build", "-q", "--prune", "-o", out, src, NULL));
	assert_false(test_file_exists(wave));
	free(wave), free(out), free(src), free(dir);
}

/* A newline or an escape in a folder's name: `outputs` and `clean -v`
 * printed the paths raw, one path over two lines (a script reading one
 * path a line got a folder and a fragment), an escape sequence straight
 * to the terminal.  Both escape as every other message does. */
static void outputs_and_clean_escape_names(void **state)
{
	char *dir = test_tmpdir("escaped-names"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/sub\ndir' '%s/e\033[31mred' && cp " CRANE "/Turn.Animation '%s/sub\ndir/W.Animation' && "
		"cp " CRANE "/Turn.Animation '%s/e\033[31mred/W.Animation'", in, in, in, in);
	r = test_animc("outputs", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(count(r.out, "\n"), 2);
	assert_non_null(strstr(r.out, "/out/sub\\ndir/W.xnb\n"));
	assert_non_null(strstr(r.out, "/out/e\\x1b[31mred/W.xnb\n"));
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	r = test_animc("clean", "-v", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(count(r.out, "\n"), 3);
	assert_non_null(strstr(r.out, "/out/sub\\ndir/W.xnb\n"));
	assert_null(strchr(r.out, '\033'));
	test_run_release(&r);
	free(out), free(in), free(dir);
}

/* --prune: the outputs of a gone source folder named like an output
 * (in/a.xnb/, written to out/a.xnb/) leave their place, in the same run,
 * to the output of a new in/a.Animation; a file animc did not write keeps
 * the folder, and the source fails. */
static void prune_clears_stale_outputs_in_an_outputs_way(void **state)
{
	char *dir = test_tmpdir("prune-in-the-way");
	char *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *made = test_format("%s/a.xnb", out);
	struct stat st;
	test_run r;

	(void)state;
	for (int mine = 0; mine < 2; mine++) {
		test_sh("rm -rf '%s' '%s' && mkdir -p '%s/a.xnb' && cp " CRANE "/Turn.Animation '%s/a.xnb/b.Animation'", in,
		   out, in, in);
		test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
		assert_true(test_file_exists(test_format("%s/b.xnb", made)));
		test_sh("rm -r '%s/a.xnb' && cp " CRANE "/Turn.Animation '%s/a.Animation'", in, in);
		if (!mine)
			test_sh(": > '%s/notes.txt'", made);
		r = test_animc("build", "-v", "--prune", "-o", out, in, NULL);
		assert_int_equal(r.status, mine ? 0 : 1);
		assert_non_null(strstr(r.out, ", 1 output pruned"));
		test_run_release(&r);
		assert_int_equal(lstat(made, &st), 0);
		if (mine)
			assert_true(S_ISREG(st.st_mode));
		else
			assert_true(test_file_exists(test_format("%s/notes.txt", made)));
	}
	r = test_animc("build", "-v", "--prune", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 up to date"));
	test_run_release(&r);
	free(made), free(out), free(in), free(dir);
}

/* Is process `pid` waiting for a lock on the file with inode `ino`
 * (/proc/locks: "N: -> FLOCK  ADVISORY  READ  PID MAJ:MIN:INO ...")?
 * Asked until it is, or the process ended. */
static bool waits_for_lock(pid_t pid, ino_t ino)
{
	char *want = test_format(" %ld ", (long)pid), *file = test_format(":%lu ", (unsigned long)ino);
	bool waits = false;

	for (int i = 0; i < 20000 && !waits && waitpid(pid, NULL, WNOHANG) == 0; i++) {
		char line[256];
		FILE *f = fopen("/proc/locks", "r");

		while (f && fgets(line, sizeof line, f))
			waits |= strstr(line, "-> FLOCK") && strstr(line, want) && strstr(line, file);
		if (f)
			fclose(f);
		if (!waits)
			usleep(1000);
	}
	free(file), free(want);
	return waits;
}

/* Hold OUTDIR/.animc/lock (made anew) alone, as clean does; its inode. */
static int hold_lock_alone(const char *out, ino_t *ino)
{
	char *path = test_format("%s/.animc/lock", out);
	int fd;
	struct stat st;

	test_sh("mkdir -p '%s/.animc'", out);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	assert_int_equal(fstat(fd, &st), 0);
	*ino = st.st_ino;
	free(path);
	return fd;
}

/* A build that waited for the lock while `animc clean` held it woke up
 * holding the lock file clean had removed with .animc: it failed with
 * "cannot create: No such file or directory ... make that folder
 * writable", and, had another build made a new lock meanwhile, the two
 * would each have thought itself alone.  It takes the lock at the path
 * again. */
static void a_build_waiting_for_clean_takes_the_new_lock(void **state)
{
	char *dir = test_tmpdir("clean-then-build"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.xnb", out);
	int status, fd, fd_new;
	ino_t ino, ino_new;
	pid_t pid;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s'", in, in);
	/* Clean holds the lock, removes .animc and OUTDIR (left empty), and
	 * ends: the build waiting makes them again and builds. */
	fd = hold_lock_alone(out, &ino);
	pid = start_build(out, in, "1");
	assert_true(waits_for_lock(pid, ino));
	test_sh("rm -rf '%s'", out);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(test_file_exists(turn));
	/* The same, and another clean has made and taken a new lock before
	 * the first lets go: the build waits for that one too. */
	test_sh("rm -rf '%s'", out);
	fd = hold_lock_alone(out, &ino);
	pid = start_build(out, in, "1");
	assert_true(waits_for_lock(pid, ino));
	test_sh("rm -rf '%s'", out);
	fd_new = hold_lock_alone(out, &ino_new);
	close(fd);
	assert_true(waits_for_lock(pid, ino_new));
	assert_false(test_file_exists(turn));
	close(fd_new);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(test_file_exists(turn));
	free(turn), free(out), free(in), free(dir);
}

/* What a killed build left (temporary files, the folders made for them,
 * its .animc) is clean's to remove, with a manifest or before the first
 * one was saved; files of animc's name pattern only, and nothing of a
 * folder no build wrote. */
static void clean_removes_what_killed_builds_left(void **state)
{
	char *dir = test_tmpdir("clean-killed");
	char *out = test_format("%s/out", dir), *plain = test_format("%s/plain", dir);
	char *state_dir = test_format("%s/out/.animc", dir);
	struct stat st;
	test_run r;

	(void)state;
	/* Killed before it saved a manifest. */
	test_sh("mkdir -p '%s/.animc' '%s/Crane' '%s/empty' && : > '%s/.animc/lock' && : > '%s/.animc/running.999999'"
	   " && : > '%s/Crane/.Idle.xnb.AbC123' && : > '%s/mine.xnb.AbC123' && : > '%s/.notes'",
	   out, out, out, out, out, out, out, out);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "removed 0 outputs, 1 temporary file; 0 left\n");
	assert_string_equal(r.err, "");
	test_run_release(&r);
	assert_int_not_equal(stat(state_dir, &st), 0);
	assert_false(test_file_exists(test_format("%s/Crane", out)));
	assert_true(test_file_exists(test_format("%s/empty", out)));
	assert_true(test_file_exists(test_format("%s/mine.xnb.AbC123", out)));
	assert_true(test_file_exists(test_format("%s/.notes", out)));
	/* With a manifest: the folder of the output and the temporary file goes. */
	test_sh("rm -rf '%s'", out);
	test_run_ok(test_animc("build", "-q", "-o", out, "testdata/sample", NULL));
	test_sh(": > '%s/Crane/.Idle.xnb.AbC123'", out);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "removed 7 outputs, 1 temporary file; 0 left\n");
	test_run_release(&r);
	assert_false(test_file_exists(test_format("%s/Crane", out)));
	assert_int_not_equal(stat(state_dir, &st), 0);
	/* A folder no build wrote: nothing to clean, nothing made in it. */
	test_sh("mkdir -p '%s' && : > '%s/.Idle.xnb.AbC123'", plain, plain);
	r = test_animc("clean", "-o", plain, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "plain: warning: no animc manifest here; nothing to clean"));
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/.Idle.xnb.AbC123", plain)));
	assert_false(test_file_exists(test_format("%s/.animc", plain)));
	free(out);
	free(plain);
	free(state_dir);
	free(dir);
}

/* A file of a folder that exists but cannot be read (a link to a disk not
 * mounted yet) is not gone: it keeps its last good outputs, as a failed
 * source does, lenient or strict, --prune or not; once it is really gone
 * (the link removed), --prune removes them. */
static void an_unreadable_source_keeps_its_outputs(void **state)
{
	char *dir = test_tmpdir("unreadable-keeps"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *idle = test_format("%s/Idle.xnb", out);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Idle.Animation " CRANE "/Wave.Animation '%s'", src, src);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	test_sh("mv '%s/Idle.Animation' '%s/Idle.away' && ln -s ../Idle.moved '%s/Idle.Animation'", src, dir, src);
	r = test_animc("build", "--prune", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "stale"));
	assert_non_null(strstr(r.err, "Idle.Animation: warning: cannot read: No such file or directory [unreadable]"));
	test_run_release(&r);
	assert_true(test_file_exists(idle));
	r = test_animc("build", "--warnings-as-errors", "--prune", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	assert_true(test_file_exists(idle));
	test_sh("rm '%s/Idle.Animation'", src);
	test_run_ok(test_animc("build", "-q", "--prune", "-o", out, src, NULL));
	assert_false(test_file_exists(idle));
	free(idle), free(out), free(src), free(dir);
}

/* `animc build ARGS...` (NULL-terminated, at most 12) as a user that file
 * permissions bind: as root, the user nobody (setpriv); false when that
 * cannot be done here (said). */
static bool build_unprivileged(test_run *r, const char *arg, ...)
{
	const char *argv[24] = { "setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups",
				 test_animc_path(), "build" };
	size_t n = 8;
	va_list ap;

	va_start(ap, arg);
	for (; arg && n < 23; arg = va_arg(ap, const char *))
		argv[n++] = arg;
	va_end(ap);
	if (geteuid() != 0) {
		*r = test_execv(argv + 6);
		return true;
	}
	if (access("/usr/bin/setpriv", X_OK) != 0 && access("/bin/setpriv", X_OK) != 0) {
		print_message("skipped: running as root without setpriv, no user that permissions bind\n");
		return false;
	}
	*r = test_execv(argv);
	return true;
}

/* A file or folder of a folder input without read permission is skipped
 * with an [unreadable] warning and keeps its outputs, as docs/build.md
 * and warnings.md say (failed under --warnings-as-errors): the file was an
 * error ("cannot open: Permission denied"), the folder "cannot read
 * folder", and the build exited 1.  A file named on the command line
 * still fails. */
static void a_file_or_folder_without_permission_is_skipped(void **state)
{
	char *dir = test_tmpdir("no-permission"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *idle_src = test_format("%s/a/Idle.Animation", src), *folder = test_format("%s/b", src);
	char *idle = test_format("%s/a/Idle.xnb", out), *wave = test_format("%s/b/Wave.xnb", out);
	char *report = test_format("%s/r.json", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/a' '%s' && cp " CRANE "/Idle.Animation " CRANE "/Turn.Animation '%s/a' && cp " CRANE
	   "/Wave.Animation '%s' && chmod -R a+rwX '%s'", src, folder, src, folder, dir);
	if (!build_unprivileged(&r, "-q", "-o", out, src, NULL))
		skip();
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(chmod(idle_src, 0), 0);
	assert_int_equal(chmod(folder, 0), 0);
	build_unprivileged(&r, "--prune", "--report", report, "-o", out, src, NULL);
	if (r.status != 0 || !strstr(r.err, "src/a/Idle.Animation: warning: cannot read: Permission denied "
			   "[unreadable]\n") || !strstr(r.err, "src/b: warning: cannot read: Permission denied [unreadable]\n"))
		fail_msg("status %d: %s", r.status, r.err);
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 2 skipped, 2 warnings, 1 up to date\n"));
	test_run_release(&r);
	assert_int_equal(report_count(report, "skipped"), 2);
	assert_int_equal(report_count(report, "up-to-date"), 1);
	assert_true(test_file_exists(idle));
	assert_true(test_file_exists(wave));
	build_unprivileged(&r, "-q", "--warnings-as-errors", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	build_unprivileged(&r, "-q", "-o", out, idle_src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Idle.Animation: error: cannot open: Permission denied"));
	test_run_release(&r);
	assert_true(test_file_exists(idle));
	assert_true(test_file_exists(wave));
	chmod(folder, 0755);
	chmod(idle_src, 0644);
	free(report), free(wave), free(idle), free(folder), free(idle_src), free(out), free(src), free(dir);
}

/* A clip-split sidecar that cannot be read fails its source, naming it:
 * built whole instead, the source replaced its parts with its take, and
 * --prune removed them (QA: exit 0, Start.xnb and Run.xnb gone). */
static void an_unreadable_sidecar_fails_its_source(void **state)
{
	char *dir = test_tmpdir("no-permission-sidecar"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *side = test_format("%s/Walker_Anims.xml", src);
	char *walker = test_format("%s/Walker.xml", src), *start = test_format("%s/Walker/Start.xnb", out);
	char *whole = test_format("%s/Walker/Take 001.xnb", out);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/authoring/Walker.xml testdata/authoring/Walker_Anims.xml '%s' && "
	   "chmod -R a+rwX '%s'", src, src, dir);
	if (!build_unprivileged(&r, "-q", "-o", out, src, NULL))
		skip();
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_file_exists(start));
	assert_int_equal(chmod(side, 0), 0);
	test_sh("echo ' ' >> '%s'", walker);   /* the source changed: built again */
	build_unprivileged(&r, "--prune", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "Walker.xml: error: ") || !strstr(r.err, "Walker_Anims.xml: cannot open: Permission denied"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(start));
	assert_false(test_file_exists(whole));
	chmod(side, 0644);
	free(whole), free(start), free(walker), free(side), free(out), free(src), free(dir);
}

/* A sidecar that is a symbolic link leading nowhere (its share not
 * mounted, repointed before its target is copied) cannot be read either:
 * its source fails naming the link and its target, and keeps its parts,
 * named or in a folder (QA: taken as no sidecar, the take built whole and
 * the parts pruned, without a word for a named source). */
static void a_sidecar_link_leading_nowhere_fails_its_source(void **state)
{
	char *dir = test_tmpdir("dangling-sidecar"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *side = test_format("%s/Walker_Anims.xml", src);
	char *walker = test_format("%s/Walker.xml", src), *start = test_format("%s/Walker/Start.xnb", out);
	char *whole = test_format("%s/Walker/Take 001.xnb", out);
	const char *inputs[2] = { walker, src };

	(void)state;
	test_sh("mkdir -p '%s' '%s/defs' && cp testdata/authoring/Walker.xml '%s' && "
	   "cp testdata/authoring/Walker_Anims.xml '%s/defs' && ln -s ../defs/Walker_Anims.xml '%s'",
	   src, dir, src, dir, side);
	for (size_t i = 0; i < 2; i++) {
		test_run r = test_animc("build", "-q", "-o", out, inputs[i], NULL);

		assert_int_equal(r.status, 0);
		test_run_release(&r);
		assert_true(test_file_exists(start));
		test_sh("ln -sfn ../defs/gone.xml '%s' && echo ' ' >> '%s'", side, walker);
		r = test_animc("build", "--prune", "-o", out, inputs[i], NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, "Walker.xml: error: ") ||
		    !strstr(r.err, "Walker_Anims.xml: cannot open: it is a symbolic link to '../defs/gone.xml', "
				   "which is not there") || strstr(r.err, "[unreadable]"))
			fail_msg("%s", r.err);
		assert_non_null(strstr(r.out, " 1 failed, "));
		test_run_release(&r);
		assert_true(test_file_exists(start));
		assert_false(test_file_exists(whole));
		test_sh("ln -sfn ../defs/Walker_Anims.xml '%s'", side);
	}
	free(whole), free(start), free(walker), free(side), free(out), free(src), free(dir);
}

/* An output of a source gone that the user changed is not stale (--prune
 * would not remove it): --prune says it leaves it, as clean does, and
 * forgets it. */
static void prune_says_it_leaves_a_changed_output(void **state)
{
	char *dir = test_tmpdir("prune-changed"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *wave = test_format("%s/Wave.xnb", out);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Idle.Animation " CRANE "/Wave.Animation '%s'", src, src);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	test_sh("echo edited >> '%s' && rm '%s/Wave.Animation'", wave, src);
	r = test_animc("build", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "stale"));
	test_run_release(&r);
	r = test_animc("build", "--prune", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "out/Wave.xnb: warning: changed since animc wrote it; left, as not animc's any more: remove "
			   "it by hand if it is not wanted [output-left]\n"))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, " 1 warning, 1 up to date\n"));
	test_run_release(&r);
	assert_true(test_file_exists(wave));
	r = test_animc("build", "--prune", "-o", out, src, NULL);   /* forgotten: said once */
	assert_string_equal(r.err, "");
	test_run_release(&r);
	free(wave), free(out), free(src), free(dir);
}

/* An OUTDIR/.animc that is a symbolic link is not the folder animc made:
 * clean and build read, take and remove nothing through it (no manifest,
 * journal, lock or run marker), and say so. */
static void clean_removes_nothing_through_a_linked_state_folder(void **state)
{
	char *dir = test_tmpdir("clean-linked-state");
	char *out = test_format("%s/out", dir), *lock = test_format("%s/elsewhere/running.1", dir);
	char *record = test_format("%s/elsewhere/manifest", dir), *journal = test_format("%s/elsewhere/journal.7", dir);
	char *taken = test_format("%s/elsewhere/lock", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' '%s/elsewhere' && : > '%s' && printf 'animc-manifest 1\\n' > '%s' && : > '%s' && "
	   "ln -s ../elsewhere '%s/.animc'", out, dir, lock, record, journal, out);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	if (!strstr(r.err, "out/.animc: error: is a symbolic link, not the folder animc makes: nothing cleaned, and "
			   "nothing removed through it; remove the link by hand\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(lock));
	assert_true(test_file_exists(record));
	assert_true(test_file_exists(journal));
	assert_false(test_file_exists(taken));
	/* Nor does a build, whose --prune would remove by that manifest. */
	r = test_animc("build", "--prune", "-o", out, CRANE "/Turn.Animation", NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "out/.animc: error: is a symbolic link, not the folder animc makes: nothing built, and "
			   "nothing read or removed through it; remove the link by hand\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_file_exists(taken));
	assert_true(test_file_exists(journal));
	assert_int_equal(test_count_files(out), 0);
	free(taken), free(journal), free(record), free(lock), free(out), free(dir);
}

/* `animc outputs` reads no manifest through an OUTDIR/.animc that is a
 * symbolic link, as the build reads none: it says so, and lists as with
 * no manifest.  It listed from the manifest at the link's far end, which
 * may lie anywhere, without a word (`animc watch` read it likewise). */
static void outputs_reads_no_manifest_through_a_linked_state_folder(void **state)
{
	char *dir = test_tmpdir("outputs-linked-state");
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' '%s/elsewhere' && cp " CRANE "/Turn.Animation '%s'", src, dir, src);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_sh("mv '%s/.animc' '%s/elsewhere/state' && ln -s ../elsewhere/state '%s/.animc'", out, dir, out);
	r = test_animc("outputs", "-o", out, src, NULL);
	if (r.status != 0 || !strstr(r.out, "out/Turn.xnb\n") ||
	    !strstr(r.err, "out/.animc/manifest: warning: its folder is a symbolic link, not the folder animc makes; "
			   "not read through it; compiling every source [manifest]\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(src), free(out), free(dir);
}

/* A symbolic link in place of OUTDIR/.animc/lock or manifest.lock is not
 * followed: build and clean make and lock no file at its far end, outside
 * OUTDIR, and say so. */
static void no_lock_is_made_through_a_link(void **state)
{
	char *dir = test_tmpdir("linked-lock");
	char *out = test_format("%s/out", dir), *made = test_format("%s/elsewhere/made", dir);
	char *src = test_format("%s/src", dir), *xnb = test_format("%s/Turn.xnb", out);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' '%s/elsewhere' && cp " CRANE "/Turn.Animation '%s'", src, dir, src);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	test_sh("rm '%s/.animc/lock' && ln -s '%s' '%s/.animc/lock'", out, made, out);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "out/.animc/lock: error: is a symbolic link, not the lock animc makes: nothing built, and "
			   "nothing made or locked through it; remove the link by hand\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_file_exists(made));
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "out/.animc/lock: error: is a symbolic link, not the lock animc makes: nothing cleaned"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_file_exists(made));
	assert_true(test_file_exists(xnb));
	/* The manifest's lock: the build compiles, and does not save. */
	test_sh("rm '%s/.animc/lock' '%s/.animc/manifest.lock' && ln -s '%s' '%s/.animc/manifest.lock' && "
		"touch -d '+1 minute' '%s/Turn.Animation'", out, out, made, out, src);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	if (!strstr(r.err, "out/.animc/manifest.lock' is a symbolic link, not the lock animc makes: not saved"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_file_exists(made));
	free(xnb), free(src), free(made), free(out), free(dir);
}

/* A symbolic link in place of OUTDIR/.animc/manifest or of a journal is
 * not read through: the file at its far end is no record of this folder,
 * and may lie anywhere.  The build says so and compiles; clean removes
 * nothing by it. */
static void no_state_file_is_read_through_a_link(void **state)
{
	char *dir = test_tmpdir("linked-state-file");
	char *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char *kept = test_format("%s/elsewhere/manifest", dir), *other = test_format("%s/elsewhere/journal", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' '%s/elsewhere' && cp " CRANE "/Turn.Animation '%s' && printf 'x' > '%s'", src, dir, src,
		other);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	/* The manifest, moved away and linked: not taken for this folder's. */
	test_sh("mv '%s/.animc/manifest' '%s' && ln -s ../../elsewhere/manifest '%s/.animc/manifest'", out, kept, out);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "out/.animc/manifest: error: the manifest cannot be read (it is a symbolic link, not the file "
			   "animc writes; not read through it); nothing removed\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "out/.animc/manifest: warning: it is a symbolic link, not the file animc writes; not read "
			   "through it; compiling every source [manifest]\n") ||
	    !strstr(r.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 1 warning\n"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	/* A journal linked in: said, not read. */
	test_sh("ln -s ../../elsewhere/journal '%s/.animc/journal.99'", out);
	r = test_animc("build", "-o", out, src, NULL);
	if (!strstr(r.err, "out/.animc/journal.99: warning: a symbolic link, not a journal animc writes; not read "
			   "through it [journal]\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(other), free(kept), free(src), free(out), free(dir);
}

/* The manifest, or a journal, replaced by a symbolic link between a check
 * that it is no link and its read (another process writing OUTDIR/.animc;
 * the stand-in swaps it right after an lstat() of it): what the link
 * leads to is not read.  It was: a file elsewhere taken for the manifest
 * ("not an animc manifest", every source compiled again), another for a
 * journal. */
static void no_state_file_is_read_through_a_link_put_in_place_after_a_check(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("swapped-state-file"), *real = realpath(dir, NULL), *shim = test_format("%s/swap.so", dir);
	char *src = test_format("%s/src", real), *out = test_format("%s/out", real);
	char *record = test_format("%s/.animc/manifest", out), *journal = test_format("%s/.animc/journal.99", out);
	char *record_to = test_format("%s/elsewhere/manifest", real), *journal_to = test_format("%s/elsewhere/journal", real);
	test_run r;

	test_sh("mkdir -p '%s' '%s/elsewhere' && cp " CRANE "/Turn.Animation '%s' && printf 'not a manifest\\n' > '%s' && "
		"printf 'animc-journal 7\\n' > '%s' && cc -shared -fPIC -o '%s' testdata/env/swap_after_realpath.c -ldl",
		src, real, src, record_to, journal_to, shim);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	setenv("SWAP_FOLDER", record, 1), setenv("SWAP_TO", record_to, 1), setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "-o", out, src, NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 0 || strstr(r.err, "not an animc manifest") || !strstr(r.out, ", 1 up to date\n"))
		fail_msg("manifest: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	test_sh("printf 'x\\n' > '%s'", journal);
	setenv("SWAP_FOLDER", journal, 1), setenv("SWAP_TO", journal_to, 1), setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "-o", out, src, NULL);
	unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO");
	if (r.status != 0 || strstr(r.err, "format version 7") || !strstr(r.err, "not an animc journal of this version"))
		fail_msg("journal: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(dir), free(real), free(shim), free(src), free(out), free(record), free(journal), free(record_to);
	free(journal_to);
}

/* OUTDIR/.animc replaced by a symbolic link after the check that it is no
 * link (another process writing OUTDIR; the stand-in swaps it right after
 * an lstat() of it, and back after the next open below it): no state
 * file is made, renamed or removed in the folder the link leads to.  A
 * build made its lock there, and a clean too. */
static void no_state_file_is_made_through_a_state_folder_swapped_for_a_link(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("swapped-state-folder"), *real = realpath(dir, NULL);
	char *shim = test_format("%s/swap.so", dir), *src = test_format("%s/src", real);
	char *out = test_format("%s/out", real), *folder = test_format("%s/.animc", out);
	char *to = test_format("%s/elsewhere", real);
	const char *const commands[][2] = { { "build", "--rebuild" }, { "clean", "-q" } };
	test_run r;

	test_sh("mkdir -p '%s' '%s' && cp " CRANE "/Turn.Animation '%s' && "
		"cc -shared -fPIC -o '%s' testdata/env/swap_after_realpath.c -ldl", src, to, src, shim);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	for (size_t i = 0; i < 2; i++) {
		setenv("SWAP_FOLDER", folder, 1), setenv("SWAP_TO", to, 1), setenv("LD_PRELOAD", shim, 1);
		r = i == 0 ? test_animc(commands[i][0], commands[i][1], "-o", out, src, NULL)
			   : test_animc(commands[i][0], commands[i][1], "-o", out, NULL);
		unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO");
		if (r.status != 0 || test_count_files(to) != 0)
			fail_msg("%s: exit %d, %zu files made through the link\n%s%s", commands[i][0], r.status,
				 test_count_files(to), r.out, r.err);
		test_run_release(&r);
	}
	/* The clean cleaned the folder itself. */
	assert_false(test_file_exists(folder));
	assert_int_equal(test_count_files(out), 0);
	free(dir), free(real), free(shim), free(src), free(out), free(folder), free(to);
}

static void response_files_and_base(void **state)
{
	char *dir = test_tmpdir("base");
	char *list = test_format("%s/changed.txt", dir), *out = test_format("%s/out", dir);
	char *arg = test_format("@%s", list);
	test_run r;

	(void)state;
	/* Two robots with a clip of the same name. */
	test_sh("mkdir -p '%s/art/Grund' '%s/art/Hammer' && cp " CRANE "/Turn.Animation '%s/art/Grund/Up_Run.Animation'"
	   " && cp " CRANE "/Wave.Animation '%s/art/Hammer/Up_Run.Animation'", dir, dir, dir, dir);
	test_sh("printf '%%s\\r\\n%%s\\n\\n' '%s/art/Grund/Up_Run.Animation' '%s/art/Hammer/Up_Run.Animation' > '%s'",
	   dir, dir, list);
	/* Flat, they collide; with --base they mirror the tree. */
	r = test_animc("build", "-q", "-o", out, arg, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	test_sh("rm -rf '%s'", out);
	{
		char *base = test_format("%s/art", dir), *a = test_format("%s/Grund/Up_Run.xnb", out);
		char *b = test_format("%s/Hammer/Up_Run.xnb", out);

		test_run_ok(test_animc("build", "-q", "--base", base, "-o", out, arg, NULL));
		assert_true(test_file_exists(a));
		assert_true(test_file_exists(b));
		/* A folder with the same base lands where the list did: up to date. */
		r = test_animc("build", "--base", base, "-o", out, base, NULL);
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "2 up to date"));
		test_run_release(&r);
		/* A file outside the base is an error naming it. */
		r = test_animc("build", "-q", "--base", base, "-o", out, CRANE "/Turn.Animation", NULL);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "Turn.Animation: error: is not under --base"));
		test_run_release(&r);
		/* A base that does not exist: one message, naming it. */
		r = test_animc("build", "-q", "--base", "no/such/base", "-o", out, CRANE "/Turn.Animation", NULL);
		assert_int_equal(r.status, 1);
		assert_string_equal(r.err, "no/such/base: error: --base: No such file or directory\n");
		test_run_release(&r);
		free(base);
		free(a);
		free(b);
	}
	r = test_animc("build", "-o", out, "@no/such/list", NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	free(list);
	free(out);
	free(arg);
	free(dir);
}

/* --base takes a file whose path as spelt lies under the base, though a
 * link on the way leads out of it (art/linked -> ../other): it lands at
 * that path, as `animc build art` lands what it finds through the link.
 * It was refused ("is not under --base"), so a list of the files of a
 * folder holding such a link (what animc_add_assets passes) never built.
 * A link to a folder inside the base lands where the walk puts it: at
 * the folder it leads to, which the walk takes once. */
/* The CI idiom `animc build --base art -o out @<(git diff --name-only)`:
 * the list holds files a folder build leaves out (a README, a deleted
 * source) and a sidecar whose edit changes its source's clips.  Each
 * failed the build (exit 1), and the sidecar's source was not built.
 * Under --base they are taken as the folder build takes them; named
 * without it, a README is still an error. */
static void a_list_of_changed_files_builds_as_its_folder(void **state)
{
	char *dir = test_tmpdir("base-list"), *art = test_format("%s/art", dir);
	char *out = test_format("%s/out", dir), *ref = test_format("%s/ref", dir), *list = test_format("%s/list", dir);
	char *at = test_format("@%s", list), *readme = test_format("%s/README.md", art);
	char *run = test_format("%s/Walker/Run.xnb", out), *run_ref = test_format("%s/Walker/Run.xnb", ref);
	char *sidecar = test_format("%s/Walker_Anims.xml", art), *text, *edit;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/authoring/Walker.xml testdata/authoring/Walker_Anims.xml " CRANE
	   "/Turn.Animation '%s/' && echo readme > '%s'", art, art, readme);
	test_run_ok(test_animc("build", "-q", "-o", out, art, NULL));
	text = (char *)test_read_file(sidecar, NULL);
	edit = strstr(text, "<EndFrame>29<");
	assert_non_null(edit);
	memcpy(edit, "<EndFrame>25<", 13);
	assert_true(test_write_file(sidecar, text, strlen(text)));
	free(text);
	text = test_format("%s\n%s\n%s/Deleted.Animation\n", sidecar, readme, art);
	assert_true(test_write_file(list, text, strlen(text)));
	free(text);
	r = test_animc("build", "--progress", "never", "--allow", "numbered-bones", "--base", art, "-o", out, at, NULL);
	if (r.status != 0 || !strstr(r.out, "compiled 1 source (3 clips), 0 failed, 3 skipped, 0 warnings\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", ref, art, NULL));
	assert_true(test_same_bytes(run, run_ref));
	/* --split cuts a source its sidecar names, as it cuts one named. */
	text = test_format("%s\n", sidecar);
	assert_true(test_write_file(list, text, strlen(text)));
	free(text);
	test_run_ok(test_animc("build", "-q", "--split", "Take 001/A=0:1", "--base", art, "-o", out, at, NULL));
	text = test_format("%s/Walker/A.xnb", out);
	assert_true(test_file_exists(text));
	free(text);
	/* And a source named in the list, with no sidecar, as one named alone:
	 * its clips document a dependency, so editing it builds the source. */
	text = test_format("%s/Turn.Animation\n", art);
	assert_true(test_write_file(list, text, strlen(text)));
	free(text);
	test_run_ok(test_animc("build", "-q", "--split", "B=0:0.5", "--base", art, "-o", out, at, NULL));
	text = test_format("%s/Turn/B.xnb", out);
	if (!test_file_exists(text))
		fail_msg("--split did not cut Turn.Animation named under --base");
	free(text);
	/* Named on its own, a README is still no source. */
	r = test_animc("build", "-o", out, readme, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "no importer recognises this file"));
	test_run_release(&r);
	free(sidecar), free(run_ref), free(run), free(readme), free(at), free(list), free(ref), free(out), free(art);
	free(dir);
}

/* A changed glTF buffer in the list: left out as no source, the glTF that
 * reads it was not built again (a folder build is).  Under --base the
 * sources the last build recorded as reading a listed file build too. */
static void a_listed_buffer_builds_the_gltf_that_reads_it(void **state)
{
	char *dir = test_tmpdir("base-list-bin"), *art = test_format("%s/art", dir), *g = test_format("%s/g", art);
	char *out = test_format("%s/out", dir), *ref = test_format("%s/ref", dir), *bin = test_format("%s/wag data.bin", g);
	char *wag = test_format("%s/g/external/wag.xnb", out), *wag_ref = test_format("%s/g/external/wag.xnb", ref);
	test_run r;
	size_t size;
	uint8_t *bytes;
	const float half = 0.5f;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/gltf/external.gltf 'testdata/gltf/wag data.bin' '%s/'", g, g);
	test_run_ok(test_animc("build", "-q", "-o", out, art, NULL));
	bytes = test_read_file(bin, &size);
	memcpy(bytes + size - 4, &half, 4);
	assert_true(test_write_file(bin, bytes, size));
	free(bytes);
	r = test_animc("build", "--progress", "never", "--base", art, "-o", out, bin, NULL);
	if (r.status != 0 || !strstr(r.out, "compiled 1 source (1 clip), 0 failed, 1 skipped, 0 warnings\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", ref, art, NULL));
	assert_true(test_same_bytes(wag, wag_ref));
	free(wag_ref), free(wag), free(bin), free(ref), free(out), free(g), free(art), free(dir);
}

/* A list naming a DELETED file that a source of the last build read (its
 * sidecar, a glTF's buffer) builds that source, as the folder build does:
 * the whole take comes back, and a glTF without its .bin fails.  It was
 * left out (exit 0): the parts stayed, and CI passed on a broken asset. */
static void a_deleted_listed_file_builds_the_source_that_read_it(void **state)
{
	char *dir = test_tmpdir("base-list-gone"), *art = test_format("%s/art", dir), *g = test_format("%s/g", art);
	char *out = test_format("%s/out", dir), *ref = test_format("%s/ref", dir);
	char *sidecar = test_format("%s/Walker_Anims.xml", art), *bin = test_format("%s/wag data.bin", g);
	char *take = test_format("%s/Walker/Take 001.xnb", out), *take_ref = test_format("%s/Walker/Take 001.xnb", ref);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/authoring/Walker.xml testdata/authoring/Walker_Anims.xml '%s/' && "
	   "cp testdata/gltf/external.gltf 'testdata/gltf/wag data.bin' '%s/'", g, art, g);
	test_run_ok(test_animc("build", "-q", "-o", out, art, NULL));
	assert_false(test_file_exists(take));
	assert_int_equal(unlink(sidecar), 0);
	r = test_animc("build", "--progress", "never", "--allow", "numbered-bones", "--base", art, "-o", out, sidecar, NULL);
	if (r.status != 0 || !strstr(r.out, "compiled 1 source (2 clips), 0 failed, 1 skipped, 0 warnings, 2 stale outputs"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", ref, art, NULL));
	assert_true(test_same_bytes(take, take_ref));
	/* The buffer gone: the glTF fails, as in the folder build. */
	assert_int_equal(unlink(bin), 0);
	r = test_animc("build", "--progress", "never", "--base", art, "-o", out, bin, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "external.gltf: error: buffers[0].uri"));
	test_run_release(&r);
	/* The buffer deleted with its folder (git rm -r): the same. */
	char *h = test_format("%s/h", art), *deep = test_format("%s/h/buffers/w.bin", art);
	static const float keys[] = { 0, 1, 0, 0, 0, 1, 0, 0 };
	static const char doc[] =
		"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"name\": \"Hips\"}],\n"
		" \"buffers\": [{\"uri\": \"buffers/w.bin\", \"byteLength\": 32}],\n"
		" \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 8}, {\"buffer\": 0, \"byteOffset\": 8, "
		"\"byteLength\": 24}],\n"
		" \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\",\n"
		"                \"min\": [0], \"max\": [1]},\n"
		"               {\"bufferView\": 1, \"componentType\": 5126, \"count\": 2, \"type\": \"VEC3\"}],\n"
		" \"animations\": [{\"name\": \"W\", \"samplers\": [{\"input\": 0, \"output\": 1}],\n"
		"                 \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"translation\"}}]}]}\n";
	char *walk = test_format("%s/walk.gltf", h);

	test_sh("mkdir -p '%s/buffers'", h);
	assert_true(test_write_file(deep, keys, sizeof keys));
	assert_true(test_write_file(walk, doc, strlen(doc)));
	test_run_ok(test_animc("build", "-q", "--base", art, "-o", out, walk, NULL));
	test_sh("rm -r '%s/buffers'", h);
	r = test_animc("build", "--progress", "never", "--base", art, "-o", out, deep, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "walk.gltf: error: buffers[0].uri: 'buffers/w.bin': cannot open"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(walk), free(deep), free(h);
	free(take_ref), free(take), free(bin), free(sidecar), free(ref), free(out), free(g), free(art), free(dir);
}

/* A list naming a deleted source in a subfolder of the base (as `git diff
 * --name-only` names it): it was neither counted stale nor pruned, and the
 * manifest kept it, where one at the base's top was: the deleted file's
 * job landed at the top of OUTDIR and met no record.  Both go now, as in
 * the folder build, and so does one deleted with its folder. */
static void a_deleted_listed_source_in_a_subfolder_is_pruned(void **state)
{
	char *dir = test_tmpdir("base-list-deleted"), *art = test_format("%s/art", dir), *out = test_format("%s/out", dir);
	char *top = test_format("%s/top.Animation", art), *walk = test_format("%s/g/walk.Animation", art);
	char *run = test_format("%s/h/k/run.Animation", art), *walk_xnb = test_format("%s/g/walk.xnb", out);
	char *top_xnb = test_format("%s/top.xnb", out), *run_xnb = test_format("%s/h/k/run.xnb", out);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/g' '%s/h/k' && cp " CRANE "/Idle.Animation '%s' && cp " CRANE "/Turn.Animation '%s' && "
	   "cp " CRANE "/Wave.Animation '%s'", art, art, top, walk, run);
	test_run_ok(test_animc("build", "-q", "--base", art, "-o", out, art, NULL));
	assert_true(test_file_exists(walk_xnb));
	assert_int_equal(unlink(top), 0);
	assert_int_equal(unlink(walk), 0);
	r = test_animc("build", "--progress", "never", "--base", art, "-o", out, walk, top, NULL);
	if (r.status != 0 || !strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 2 skipped, 0 warnings, 2 stale outputs"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "--progress", "never", "--prune", "--base", art, "-o", out, walk, top, NULL);
	if (r.status != 0 || !strstr(r.out, "2 skipped, 0 warnings, 2 outputs pruned"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_false(test_file_exists(walk_xnb));
	assert_false(test_file_exists(top_xnb));
	/* Its folder deleted with it (git rm -r). */
	test_sh("rm -r '%s/h'", art);
	r = test_animc("build", "--progress", "never", "--prune", "--base", art, "-o", out, run, NULL);
	if (r.status != 0 || !strstr(r.out, "1 skipped, 0 warnings, 1 output pruned"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_false(test_file_exists(run_xnb));
	free(run_xnb), free(top_xnb), free(walk_xnb), free(run), free(walk), free(top), free(out), free(art), free(dir);
}

static void base_takes_a_path_through_a_link_as_spelt(void **state)
{
	char *dir = test_tmpdir("base-link"), *art = test_format("%s/art", dir), *out = test_format("%s/out", dir);
	char *linked = test_format("%s/linked/Turn.Animation", art), *inner = test_format("%s/inner/Idle.Animation", art);
	char *want;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/sub' '%s/other' && cp " CRANE "/Wave.Animation '%s' && cp " CRANE "/Turn.Animation '%s/other'"
	   " && cp " CRANE "/Idle.Animation '%s/sub' && ln -s ../other '%s/linked' && ln -s sub '%s/inner'",
	   art, dir, art, dir, art, art, art);
	r = test_animc("outputs", "--base", art, "-o", out, linked, inner, NULL);
	want = test_format("%s/linked/Turn.xnb\n%s/sub/Idle.xnb\n", out, out);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, want);
	test_run_release(&r);
	free(want);
	/* The linked folder given as a folder lands there too. */
	char *folder = test_format("%s/linked", art);
	r = test_animc("outputs", "--base", art, "-o", out, folder, NULL);
	want = test_format("%s/linked/Turn.xnb\n", out);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, want);
	test_run_release(&r);
	free(want);
	/* Built from the list, then as the folder: the same places. */
	test_run_ok(test_animc("build", "-q", "--base", art, "-o", out, linked, inner, NULL));
	r = test_animc("build", "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 0 warnings, 2 up to date"));
	test_run_release(&r);
	/* Past the link, ".." goes where the link leads: not under the base. */
	char *up = test_format("%s/linked/../other/Turn.Animation", art);
	r = test_animc("outputs", "--base", art, "-o", out, up, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Turn.Animation: error: is not under --base"));
	test_run_release(&r);
	free(up), free(folder), free(inner), free(linked), free(out), free(art), free(dir);
}

static void progress_modes(void **state)
{
	char *out = test_tmpdir("progress");
	test_run r;

	(void)state;
	r = test_animc("build", "--progress", "always", "-o", out, "testdata/sample", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\r\033[K[6/6]"));
	assert_null(strstr(r.out, "] compiled "));
	assert_non_null(strstr(r.out, "compiled 5 sources (7 clips)"));
	test_run_release(&r);
	r = test_animc("build", "--rebuild", "--progress", "never", "-o", out, "testdata/sample", NULL);
	assert_null(strstr(r.out, "\r"));
	assert_int_equal(count(r.out, "] compiled "), 7);
	test_run_release(&r);
	r = test_animc("build", "--progress", "sometimes", "-o", out, "testdata/sample", NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	free(out);
}

/* One build, one count: the status line counts the sources as the lines
 * of each number them, a clip-split sidecar (nothing to compile of its
 * own) among them, done from the start. */
static void the_status_line_counts_as_the_lines_do(void **state)
{
	char *dir = test_tmpdir("progress-count"), *art = test_format("%s/art", dir);
	char *lines = test_format("%s/lines", dir), *live = test_format("%s/live", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/*.Animation testdata/authoring/Walker.xml "
		"testdata/authoring/Walker_Anims.xml '%s'", art, art);
	r = test_animc("build", "--progress", "never", "-o", lines, art, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "[1/5] compiled ") || !strstr(r.out, "[5/5] compiled "))
		fail_msg("%s", r.out);
	test_run_release(&r);
	r = test_animc("build", "--progress", "always", "-o", live, art, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "\r\033[K[5/5]") || strstr(r.out, "/4]") || strstr(r.out, "] compiled "))
		fail_msg("%s", r.out);
	test_run_release(&r);
	free(live), free(lines), free(art), free(dir);
}

/* What a build on a terminal (a pty, through script(1)) with this TERM
 * ("" to unset it) and --progress `when` prints. */
static test_run build_on_terminal(const char *term, const char *when, const char *out)
{
	char *command = test_format("%s%s%s '%s' build --progress %s -o '%s' testdata/sample",
				    term[0] ? "TERM=" : "unset TERM; ", term, term[0] ? " exec" : "",
				    test_animc_path(), when, out);
	test_run r = test_exec("script", "-qec", command, "/dev/null", NULL);

	assert_int_equal(r.status, 0);
	free(command);
	return r;
}

/* --progress auto draws the updating line on a terminal that can erase
 * one; on TERM=dumb (Emacs' compile buffer) or no TERM it wrote "\033[K"
 * there as text: now a line per source, as into a pipe.  always still
 * draws it. */
static void a_dumb_terminal_gets_a_line_per_source(void **state)
{
	char *out = test_tmpdir("progress-dumb");
	test_run r;

	(void)state;
	r = build_on_terminal("xterm", "auto", out);
	assert_non_null(strstr(r.out, "\r\033[K["));
	test_run_release(&r);
	static const char *const dumb[] = { "dumb", "" };
	for (size_t i = 0; i < 2; i++) {
		char *name = test_format("progress-dumb-%zu", i), *again = test_tmpdir(name);

		r = build_on_terminal(dumb[i], "auto", again);
		assert_null(strchr(r.out, '\033'));
		assert_int_equal(count(r.out, "] compiled "), 7);
		test_run_release(&r);
		free(name), free(again);
	}
	char *forced = test_tmpdir("progress-dumb-always");
	r = build_on_terminal("dumb", "always", forced);
	assert_non_null(strstr(r.out, "\r\033[K["));
	test_run_release(&r);
	free(forced), free(out);
}

/* ------------------------------------------------------- hostile inputs */

static void fifos_and_special_files(void **state)
{
	char *dir = test_tmpdir("fifo");
	char *fifo = test_format("%s/in/pipe.Animation", dir), *out = test_format("%s/out", dir);
	char *in = test_format("%s/in", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s/'", in, in);
	assert_int_equal(mkfifo(fifo, 0666), 0);
	/* Named: an error at once, never a wait for a writer. */
	r = test_animc("build", "-q", "-o", out, fifo, CRANE "/Idle.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "pipe.Animation: error: is a FIFO, not a regular file"));
	assert_int_equal(test_count_files(out), 1);
	test_run_release(&r);
	/* In a folder: skipped, listed with -v. */
	r = test_animc("build", "-v", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "skipped "));
	assert_non_null(strstr(r.out, "pipe.Animation (a FIFO)"));
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, "/dev/null", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "character device"));
	test_run_release(&r);
	free(fifo);
	free(out);
	free(in);
	free(dir);
}

static void link_loops_and_deep_folders(void **state)
{
	char *dir = test_tmpdir("links");
	char *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *deep_in = test_format("%s/deep", dir), *deep_out = test_format("%s/deep-out", dir);
	test_run r;

	(void)state;
	/* 16 levels of two links to the next level: 65536 paths to one file. */
	test_sh("mkdir -p '%s' && cd '%s' && for i in $(seq 0 16); do mkdir -p l$i; done && "
	   "for i in $(seq 0 15); do ln -s ../l$((i+1)) l$i/a && ln -s ../l$((i+1)) l$i/b; done && "
	   "cp '%s/" CRANE "/Turn.Animation' l16/", in, in, getenv("PWD") ? getenv("PWD") : ".");
	r = test_animc("build", "-q", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(test_count_files(out), 1);
	test_run_release(&r);
	/* Reached by its own path before any link: l16, whatever the links'
	 * names; and an alias added beside a folder, sorting before it,
	 * moves no output. */
	char *real = test_format("%s/l16/Turn.xnb", out), *alias = test_format("%s/Alias", in);
	assert_true(test_file_exists(real));
	assert_int_equal(symlink("l16", alias), 0);
	r = test_animc("build", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, 1 up to date"));
	assert_int_equal(test_count_files(out), 1);
	assert_true(test_file_exists(real));
	test_run_release(&r);
	free(alias), free(real);
	/* 260 folders deep: compiled, mirrored. */
	{
		char *path = strdup(deep_in), *grown;

		for (int i = 0; i < 260; i++) {
			grown = test_format("%s/d", path);
			free(path);
			path = grown;
		}
		test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s/'", path, path);
		free(path);
	}
	r = test_animc("build", "-q", "-o", deep_out, deep_in, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(test_count_files(deep_out), 1);
	test_run_release(&r);
	free(in);
	free(out);
	free(deep_in);
	free(deep_out);
	free(dir);
}

static void clip_names_that_are_no_file_names(void **state)
{
	char *dir = test_tmpdir("names");
	char *src = test_format("%s/Odd.xml", dir), *out = test_format("%s/out", dir);
	char long_name[300];
	const char *names[] = { ".", "..", "CON", "nul.walk", "Lpt1", "line&#10;break&#9;tab", long_name, "ok" };
	const char *want[] = { "_.xnb", "__.xnb", "CON_.xnb", "nul_.walk.xnb", "Lpt1_.xnb", "line_break_tab.xnb",
			       "ok.xnb" };
	test_run r;

	(void)state;
	memset(long_name, 'x', 260);
	long_name[260] = '\0';
	write_xna(src, names, sizeof names / sizeof names[0]);
	r = test_animc("build", "-o", out, src, NULL);
	/* The long name fails alone, naming the clip; the others are written. */
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "clip 'xxxxxxxxxx"));
	assert_non_null(strstr(r.err, "too long for a file name"));
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *path = test_format("%s/Odd/%s", out, want[i]);

		if (!test_file_exists(path))
			fail_msg("no %s\n%s", path, r.out);
		free(path);
	}
	assert_int_equal(test_count_files(out), 7);
	/* Control characters reach the terminal escaped. */
	assert_null(strchr(r.out, '\t'));
	assert_non_null(strstr(r.out, "[line\\nbreak\\ttab]"));
	test_run_release(&r);
	free(src);
	free(out);
	free(dir);
}

/* A sound glTF whose 9.6 MB buffer needs more than the limit is no
 * damaged file: the files its import read count with its own 647 bytes
 * (it was said to be "likely" damaged, its buffer left out; the buffer,
 * read after the check, was not counted when its read ran out). */
static void running_out_of_memory_counts_what_the_import_read(void **state)
{
	enum { N = 600000 };
	char *dir = test_tmpdir("oom-buffer"), *gltf = test_format("%s/big.gltf", dir);
	char *bin = test_format("%s/big.bin", dir), *out = test_format("%s/out", dir);
	float *buf = malloc(16 * (size_t)N);
	char *json;
	test_run r;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < N; i++) {
		buf[i] = (float)i / 30.0f;
		buf[N + 3 * i] = (float)(i % 100) * 0.01f;
		buf[N + 3 * i + 1] = buf[N + 3 * i + 2] = 0;
	}
	assert_true(test_write_file(bin, buf, 16 * (size_t)N));
	free(buf);
	json = test_format("{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], "
			   "\"nodes\": [{\"name\": \"Root\"}], \"animations\": [{\"name\": \"run\", \"samplers\": "
			   "[{\"input\": 0, \"output\": 1}], \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, "
			   "\"path\": \"translation\"}}]}], \"buffers\": [{\"byteLength\": %d, \"uri\": \"big.bin\"}], "
			   "\"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": %d}, {\"buffer\": 0, "
			   "\"byteOffset\": %d, \"byteLength\": %d}], \"accessors\": [{\"bufferView\": 0, "
			   "\"componentType\": 5126, \"count\": %d, \"type\": \"SCALAR\", \"min\": [0.0], \"max\": "
			   "[%.6f]}, {\"bufferView\": 1, \"componentType\": 5126, \"count\": %d, \"type\": \"VEC3\"}]}",
			   16 * N, 4 * N, 4 * N, 12 * N, N, (double)((float)(N - 1) / 30.0f), N);
	assert_true(test_write_file(gltf, json, strlen(json)));
	r = test_animc("build", "-q", "--memory-limit", "64M", "-o", out, gltf, NULL);
#if !defined(__SANITIZE_ADDRESS__)   /* AddressSanitizer needs the address space */
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "big.gltf: error: ran out of memory: the import needs more than the limit of 64 MiB "
			   "(--memory-limit)\n"))
		fail_msg("%s", r.err);
#endif
	test_run_release(&r);
	free(json), free(out), free(bin), free(gltf), free(dir);
}

static void workers_are_contained(void **state)
{
	char *dir = test_tmpdir("workers");
	char *big_x = test_format("%s/big.x", dir), *out = test_format("%s/out", dir);
	/* A mesh of fifty million vertices: Assimp makes room for them first. */
	static const char big[] = "xof 0303txt 0032\nFrame Root {\n Mesh m {\n  50000000;\n  0.0;0.0;0.0;;\n }\n}\n";
	test_run r;

	(void)state;
	/* A file that asks Assimp for gigabytes: "ran out of memory", the
	 * other file still compiles. */
	assert_true(test_write_file(big_x, big, sizeof big - 1));
	r = test_animc("build", "-q", "--memory-limit", "256M", "-o", out, big_x, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
#if !defined(__SANITIZE_ADDRESS__)   /* AddressSanitizer needs the address space */
	assert_non_null(strstr(r.err, "big.x: error: ran out of memory"));
	/* 73 bytes that ask for 256 MiB: the count is the likely cause. */
	assert_non_null(strstr(r.err, "of this 73-byte file needs more than the limit of 256 MiB (--memory-limit), "
				      "far more than its size calls for"));
	/* Said once: not also "out of memory" before it. */
	const char *first = strstr(r.err, "big.x: error:");
	assert_null(strstr(first + 1, "big.x: error:"));
#endif
	assert_int_equal(test_count_files(out), 5);
	test_run_release(&r);
	r = test_animc("build", "--memory-limit", "lots", "-o", out, big_x, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	/* What a worker prints (here the dynamic loader, as it loads Assimp)
	 * becomes diagnostics naming the file at hand, not raw lines. */
	setenv("LD_DEBUG", "files", 1);
	r = test_animc("build", "-q", "-j1", "--rebuild", "-o", out, KEYS_X, NULL);
	unsetenv("LD_DEBUG");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, KEYS_X ": warning: the importer printed: "));
	for (char *line = strtok(r.err, "\n"); line; line = strtok(NULL, "\n"))
		if (strstr(line, "libassimp") && strncmp(line, KEYS_X ": ", strlen(KEYS_X) + 2) != 0)
			fail_msg("a raw line: %s", line);
	test_run_release(&r);
	free(big_x);
	free(out);
	free(dir);
}

/* A file no importer recognises (a video, a .psd beside the clips) is
 * skipped by its head, never read whole: one over 1 GiB failed the build
 * ("is larger than 1073741824 bytes"), and a smaller one was read on
 * each build, failing it once it did not fit in memory. */
static void a_big_file_no_importer_reads_is_skipped_unread(void **state)
{
	char *dir = test_tmpdir("big-unread"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *report = test_format("%s/r.json", dir);
#if defined(__SANITIZE_ADDRESS__)   /* AddressSanitizer needs the address space */
	const char *cap = "";
#else
	const char *cap = "ulimit -v 400000 && ";
#endif
	char *script = test_format("%sexec \"$0\" build -q --report '%s' -o '%s' '%s'", cap, report, out, in);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s' && printf '\\0\\0\\0\\030ftypmp42' > '%s/intro.mp4' && "
		"truncate -s 2G '%s/intro.mp4' && printf 8BPS > '%s/art.psd' && truncate -s 900M '%s/art.psd'",
		in, in, in, in, in, in);
	for (int k = 0; k < 3; k++) {
		if (k == 2)
			test_sh("touch -d '1 hour ago' '%s/intro.mp4' '%s/art.psd'", in, in);
		r = test_exec("sh", "-c", script, test_animc_path(), NULL);
		if (r.status != 0 || r.err[0])
			fail_msg("run %d: exit %d: %s", k, r.status, r.err);
		test_run_release(&r);
		assert_int_equal(report_count(report, "skipped"), 2);
		assert_int_equal(report_count(report, k ? "up-to-date" : "compiled"), 1);
	}
	free(script), free(report), free(out), free(in), free(dir);
}

/* realloc as it is once memory has run out. */
static void *no_memory(void *ptr, size_t size)
{
	(void)ptr, (void)size;
	errno = ENOMEM;
	return NULL;
}

/* The real worker pool, with two workers. */
static build_runner *two_workers(void *user, build_ctx *ctx, size_t count, const build_run_hooks *hooks)
{
	(void)user;
	return build_pool_runner_create(ctx, 2, count, NULL, hooks);
}

/* The names in `dir` but `keep`'s, a line each: malloc()ed. */
static char *names_but(const char *dir, const char *const *keep, size_t keep_count)
{
	char *names = calloc(1, 4096);
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		bool kept = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;

		for (size_t k = 0; k < keep_count && !kept; k++)
			kept = strcmp(e->d_name, keep[k]) == 0;
		if (!kept && strlen(names) + strlen(e->d_name) + 2 < 4096)
			strcat(strcat(names, e->d_name), "\n");
	}
	closedir(d);
	return names;
}

/*
 * The build cannot take in a worker's results (the buffer they are read
 * into cannot grow: this process is out of memory).  The build hung: it
 * waited for the worker to end, while the worker, never told to, waited for
 * work or to write into the pipe no one read.  The worker is killed and
 * reaped; the build fails at once, saying why, and leaves the outputs, the
 * manifest and the folder as they were.
 */
static void a_build_that_cannot_read_its_workers_fails_and_leaves_none(void **state)
{
	char *dir = test_tmpdir("unread"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir), *state_dir = test_format("%s/.animc", out);
	char *manifest_path = test_format("%s/manifest", state_dir), *argv[] = { "build", "-q", "--rebuild", "--report",
		report, "-o", out, src };
	static const char *const outputs[] = { "clip0.xnb", "clip1.xnb", "clip2.xnb", ".animc" };
	static const char *const state_files[] = { "manifest", "manifest.lock", "lock" };
	build_engine_deps deps = { two_workers, NULL, NULL };
	uint8_t *clip, *before, *after, *first[3];
	size_t clip_size, before_size, after_size, first_size[3];
	build_options o;
	char *names, *text;
	int status;

	(void)state;
	mkdir(src, 0777);
	clip = test_read_file("testdata/golden/constant.Animation", &clip_size);
	for (unsigned i = 0; i < 3; i++) {
		char *path = test_format("%s/clip%u.Animation", src, i);

		assert_true(test_write_file(path, clip, clip_size));
		free(path);
	}
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	before = test_read_file(manifest_path, &before_size);
	for (unsigned i = 0; i < 3; i++) {
		char *path = test_format("%s/clip%u.xnb", out, i);

		first[i] = test_read_file(path, &first_size[i]);
		free(path);
	}
	assert_int_equal(build_options_parse(&o, CMD_BUILD, 8, argv), 0);
	alarm(300);   /* only against a hang */
	build_run_realloc = no_memory;
	status = build_engine_run_with(CMD_BUILD, &o, &deps);
	build_run_realloc = realloc;
	alarm(0);
	build_options_release(&o);
	assert_int_equal(status, ANIMC_EXIT_FAILED);
	text = (char *)test_read_file(report, NULL);
	if (!strstr(text, "the build ran out of memory reading the workers' results") ||
	    !strstr(text, "stopped after 0 of 3 sources"))
		fail_msg("%s", text);
	/* Every worker is gone, reaped. */
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	after = test_read_file(manifest_path, &after_size);
	assert_int_equal(after_size, before_size);
	assert_memory_equal(after, before, before_size);
	for (unsigned i = 0; i < 3; i++) {
		char *path = test_format("%s/clip%u.xnb", out, i);
		size_t size;
		uint8_t *now = test_read_file(path, &size);

		assert_int_equal(size, first_size[i]);
		assert_memory_equal(now, first[i], size);
		free(now), free(first[i]), free(path);
	}
	/* No temporary file, journal or running marker is left. */
	names = names_but(out, outputs, 4);
	assert_string_equal(names, "");
	free(names);
	names = names_but(state_dir, state_files, 3);
	assert_string_equal(names, "");
	free(names);
	free(text), free(clip), free(before), free(after), free(manifest_path), free(state_dir), free(report);
	free(out), free(src), free(dir);
}

/* Under an address-space limit the build was started with (ulimit -v, a
 * container's) lower than --memory-limit, which cannot raise it, a source
 * that runs out of memory names that limit: the error named the option's
 * 4096 or 8192 MiB, and giving more, as it said, changed nothing. */
static void running_out_of_memory_under_ulimit_names_it(void **state)
{
	char *dir = test_tmpdir("ulimit"), *big_x = test_format("%s/big.x", dir), *out = test_format("%s/out", dir);
	static const char big[] = "xof 0303txt 0032\nFrame Root {\n Mesh m {\n  50000000;\n  0.0;0.0;0.0;;\n }\n}\n";
	char *script = test_format("ulimit -v 300000 && exec \"$0\" build -q $1 -o '%s' '%s' " KEYS_X, out, big_x);
	test_run r;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	print_message("skipped: an AddressSanitizer build applies no memory limit\n");
	skip();
	return;
#endif
	assert_true(test_write_file(big_x, big, sizeof big - 1));
	for (int k = 0; k < 2; k++) {
		r = test_exec("sh", "-c", script, test_animc_path(), k ? "--memory-limit=8G" : "", NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, "big.x: error: ran out of memory: the import of this 73-byte file needs more "
				   "than the limit of 292 MiB (ulimit -v), far more than its size calls for") ||
		    strstr(r.err, "--memory-limit"))
			fail_msg("%s", r.err);
		test_run_release(&r);
		assert_int_equal(test_count_files(out), 5);
	}
	free(script), free(out), free(big_x), free(dir);
}

/* Memory that runs out in animc's own passes (here the compact encoder's
 * checks over a clip of 10,000 keys and 42,000 s, about 150 MB) is said
 * as --memory-limit promises, naming the clip and the limit, not as a bare
 * "cannot compile". */
static void running_out_of_memory_in_the_passes_says_so(void **state)
{
	enum { N = 10000 };
	static const char doc[] =
		"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"name\": \"Bone\"}],"
		" \"buffers\": [{\"byteLength\": 160000, \"uri\": \"long.bin\"}],"
		" \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 40000}, {\"buffer\": 0, \"byteOffset\": 40000, \"byteLength\": 120000}],"
		" \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 10000, \"type\": \"SCALAR\","
		" \"min\": [0], \"max\": [42000]}, {\"bufferView\": 1, \"componentType\": 5126, \"count\": 10000, \"type\": \"VEC3\"}],"
		" \"animations\": [{\"name\": \"A\", \"samplers\": [{\"input\": 0, \"output\": 1}],"
		" \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"translation\"}}]}]}";
	static float buffer[4 * N];
	char *dir, *src, *bin, *out;
	test_run r;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	print_message("skipped: an AddressSanitizer build applies no --memory-limit\n");
	skip();
	return;
#endif
	for (int i = 0; i < N; i++) {
		buffer[i] = (float)(42000.0 * i / (N - 1));
		buffer[N + 3 * i] = (float)sin(i * 0.1);
	}
	buffer[N - 1] = 42000;
	dir = test_tmpdir("pass-memory");
	src = test_format("%s/long.gltf", dir);
	bin = test_format("%s/long.bin", dir);
	out = test_format("%s/out", dir);
	assert_true(test_write_file(bin, buffer, sizeof buffer));
	assert_true(test_write_file(src, doc, sizeof doc - 1));
	r = test_animc("build", "-q", "-j1", "--layout", "compact", "--memory-limit", "64M", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "long.gltf: error: clip 'A': ran out of memory: compiling it needs more than the limit of "
			   "64 MiB (--memory-limit)"))
		fail_msg("%s", r.err);
	/* Said once. */
	assert_int_equal(count(r.err, "error:"), 1);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);
	free(src), free(bin), free(out), free(dir);
}

/* With --skeleton, the lossy pass measures the model-space error every
 * 1/60 s: two keys 1e6 s apart took 22 s and more than 64 MB.  Past the
 * points its keys allow, the clip stays lossless, with a warning. */
static void a_long_clip_of_few_keys_on_a_skeleton_stays_lossless(void **state)
{
	static const char doc[] =
		"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"name\": \"Cab\"}],"
		" \"buffers\": [{\"byteLength\": 40, \"uri\": \"data:application/octet-stream;base64,"
		"AAAAAAAkdEkAAAAAAAAAAAAAAAAAAIA/AAAAAPMENT8AAAAA8wQ1Pw==\"}],"
		" \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 8}, {\"buffer\": 0, \"byteOffset\": 8, \"byteLength\": 32}],"
		" \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\","
		" \"min\": [0], \"max\": [1e6]}, {\"bufferView\": 1, \"componentType\": 5126, \"count\": 2, \"type\": \"VEC4\"}],"
		" \"animations\": [{\"name\": \"A\", \"samplers\": [{\"input\": 0, \"output\": 1}],"
		" \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"rotation\"}}]}]}";
	char *dir = test_tmpdir("shell-long"), *src = test_format("%s/cab.gltf", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/cab/A.xnb", out);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, doc, sizeof doc - 1));
	r = test_animc("build", "-q", "--tolerance", "default", "--skeleton", CRANE "/Crane.x", "--memory-limit", "64M",
		       "-o", out, src, NULL);
	if (r.status != 0 || !strstr(r.err, "clip 'A': lasts 1e+06 s: measuring its error on the skeleton every 1/60 s "
					    "passes the limit of 262144 points for its keys; kept lossless"))
		fail_msg("exit %d: %s", r.status, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(xnb));
	free(xnb), free(out), free(src), free(dir);
}

/* A child of `pid` (its first), or 0. */
static pid_t child_of(pid_t pid)
{
	char *path = test_format("/proc/%d/task/%d/children", (int)pid, (int)pid);
	FILE *f = fopen(path, "r");
	int child = 0;

	if (f) {
		if (fscanf(f, "%d", &child) != 1)
			child = 0;
		fclose(f);
	}
	free(path);
	return (pid_t)child;
}

/* Gone, or a zombie waiting for init. */
static bool is_dead(pid_t pid)
{
	char *path = test_format("/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	char state = 'Z';

	if (f) {
		if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
			state = '?';
		fclose(f);
	}
	free(path);
	return state == 'Z' || state == 'X';
}

static void workers_die_with_their_build(void **state)
{
	char *dir = test_tmpdir("orphans");
	char *out = test_format("%s/out", dir), *in = test_format("%s/in", dir);
	pid_t pid, worker = 0;

	(void)state;
	/* An import that loops (Assimp's SMD reader on this file). */
	test_sh("mkdir -p '%s' && cp testdata/assimp_crashes/endless_time.smd '%s/'", in, in);
	pid = start_build(out, in, "1");
	for (int i = 0; i < 1000 && !worker; i++) {
		worker = child_of(pid);
		if (!worker)
			usleep(5000);
	}
	assert_true(worker > 0);
	kill(pid, SIGKILL);   /* the build alone, as a build tool's timeout does */
	waitpid(pid, NULL, 0);
	for (int i = 0; i < 400 && !is_dead(worker); i++)
		usleep(5000);
	if (!is_dead(worker)) {
		kill(worker, SIGKILL);
		fail_msg("worker %d outlived its build", (int)worker);
	}
	free(out);
	free(in);
	free(dir);
}

/* -------------------------------------------------------- in-process */

static void manifest_damage_is_never_loaded(void **state)
{
	manifest m = { 0 }, back;
	manifest_entry e = { 0 };
	manifest_output o = { 0 };
	char *text;
	cli_error err;
	size_t size, loaded = 0;

	(void)state;
	e.source = strdup("art/Walk\tbad\nname.Animation");
	e.out_base = strdup("art/Walk");
	e.status = BUILD_COMPILED;
	strcpy(e.importer, "robotgame");
	e.state = (build_file_state){ 1234, 1700000000123456789, 42, 7 };
	build_hash_bytes("source", 6, &e.hash);
	build_hash_bytes("key", 3, &e.key);
	o.path = strdup("art/Walk.xnb");
	o.clip = strdup("");
	o.size = 99;
	e.outputs = malloc(sizeof o);
	e.outputs[0] = o;
	e.output_count = 1;
	assert_non_null(manifest_add(&m, &e));
	assert_true(manifest_format(&m, &text, &size));
	assert_int_equal(manifest_parse(&back, text, size, &err), MANIFEST_LOADED);
	assert_non_null(manifest_find(&back, "art/Walk\tbad\nname.Animation"));
	assert_int_equal(manifest_find(&back, "art/Walk\tbad\nname.Animation")->state.mtime_ns,
			 1700000000123456789);
	manifest_release(&back);
	/* Every byte changed, every length cut: refused, never loaded. */
	for (size_t i = 0; i < size; i++) {
		for (int bit = 0; bit < 8; bit += 3) {
			text[i] ^= (char)(1 << bit);
			if (manifest_parse(&back, text, size, &err) == MANIFEST_LOADED)
				loaded++;
			manifest_release(&back);
			text[i] ^= (char)(1 << bit);
		}
		if (manifest_parse(&back, text, i, &err) == MANIFEST_LOADED)
			loaded++;
		manifest_release(&back);
	}
	assert_int_equal(loaded, 0);
	free(text);
	manifest_release(&m);
}

/* A record a later animc writes (a word this one does not know, as `cwd`
 * was to the animc before it) is named as such: the message said the line
 * was no record animc writes, as of damage.  Not loaded either way. */
/* `body` closed as a manifest is, its checksum right (malloc()ed). */
static char *closed_manifest(const char *body)
{
	build_hash h;
	char hex[33];

	build_hash_bytes(body, strlen(body), &h);
	build_hash_hex(&h, hex);
	return test_format("%send\t%s\n", body, hex);
}

static void a_later_animcs_record_is_named(void **state)
{
	char *later = closed_manifest("animc-manifest 1\noptions\t00000000000000000000000000000000\n"
				      "moved-from\t../old\n");
	char *damaged = closed_manifest("animc-manifest 1\noptions\t00000000000000000000000000000000\n"
					"sou\x01rce\tx\n");
	manifest back;
	cli_error err;

	(void)state;
	assert_int_not_equal(manifest_parse(&back, later, strlen(later), &err), MANIFEST_LOADED);
	manifest_release(&back);
	assert_string_equal(err.message, "line 3 is a 'moved-from' record, which this animc does not know (one a "
					 "later animc writes?)");
	assert_int_not_equal(manifest_parse(&back, damaged, strlen(damaged), &err), MANIFEST_LOADED);
	manifest_release(&back);
	assert_string_equal(err.message, "line 3 is not a record animc writes");
	free(damaged), free(later);
}

/* A skeleton or dependency record whose mtime is past what an int64_t
 * holds is refused as damaged, its neighbour INT64_MAX read; the edge was
 * checked for output records alone. */
static void a_state_mtime_past_int64_is_refused(void **state)
{
	static const struct {
		const char *was, *record;
		int line;
	} cases[] = { { "\t1111111\t", "skeleton", 3 }, { "\t2222222\t", "dependency", 5 } };
	manifest m = { 0 }, back;
	manifest_entry e = { 0 };
	build_dep d = { 0 };
	char *text;
	size_t size;
	cli_error err;

	(void)state;
	m.has_skeleton = true;
	m.skeleton.path = strdup("model.x");
	m.skeleton.state = (build_file_state){ 11, 1111111, 12, 13 };
	e.source = strdup("Walk.x");
	e.out_base = strdup("Walk");
	e.status = BUILD_COMPILED;
	strcpy(e.importer, "assimp");
	e.state = (build_file_state){ 21, 3333333, 22, 23 };
	d.path = strdup("Walk.mtl");
	d.state = (build_file_state){ 31, 2222222, 32, 33 };
	e.deps = malloc(sizeof d);
	e.deps[0] = d;
	e.dep_count = 1;
	assert_non_null(manifest_add(&m, &e));
	assert_true(manifest_format(&m, &text, &size));
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		for (int past = 0; past < 2; past++) {
			const char *at = strstr(text, cases[c].was), *end = strstr(text, "end\t");
			char *body, *closed;

			assert_non_null(at);
			body = test_format("%.*s\t%s\t%.*s", (int)(at - text), text,
					   past ? "9223372036854775808" : "9223372036854775807",
					   (int)(end - at - strlen(cases[c].was)), at + strlen(cases[c].was));
			closed = closed_manifest(body);
			manifest_load_status got = manifest_parse(&back, closed, strlen(closed), &err);

			if (past) {
				char *want = test_format("line %d: a bad %s record", cases[c].line, cases[c].record);

				assert_int_not_equal(got, MANIFEST_LOADED);
				assert_string_equal(err.message, want);
				free(want);
			} else {
				assert_int_equal(got, MANIFEST_LOADED);
				assert_true((c ? back.entries[0].deps[0].state.mtime_ns : back.skeleton.state.mtime_ns) ==
					    INT64_MAX);
			}
			manifest_release(&back);
			free(closed), free(body);
		}
	}
	free(text);
	manifest_release(&m);
}

/* The manifest reads back every duration it records: any float a clip
 * may last (a clip of 1e13 s made a record the reader refused, so every
 * build compiled everything and clean removed nothing). */
static void the_manifest_reads_back_every_duration(void **state)
{
	const float durations_s[] = { 0, 1e-45f, 1.5f, 1e12f, 1e13f, FLT_MAX };
	const size_t count = sizeof durations_s / sizeof durations_s[0];
	manifest m = { 0 }, back;
	manifest_entry e = { 0 };
	const manifest_entry *got;
	char *text;
	cli_error err;
	size_t size;

	(void)state;
	e.source = strdup("art/Long.gltf");
	e.out_base = strdup("art/Long");
	e.status = BUILD_COMPILED;
	strcpy(e.importer, "gltf");
	e.outputs = calloc(count, sizeof *e.outputs);
	assert_non_null(e.outputs);
	for (size_t i = 0; i < count; i++) {
		e.outputs[i].path = test_format("art/Long/%zu.xnb", i);
		e.outputs[i].clip = test_format("%zu", i);
		e.outputs[i].duration_s = durations_s[i];
	}
	e.output_count = (uint32_t)count;
	assert_non_null(manifest_add(&m, &e));
	assert_true(manifest_format(&m, &text, &size));
	assert_int_equal(manifest_parse(&back, text, size, &err), MANIFEST_LOADED);
	got = manifest_find(&back, "art/Long.gltf");
	assert_non_null(got);
	assert_int_equal(got->output_count, count);
	for (size_t i = 0; i < count; i++)
		assert_true(got->outputs[i].duration_s == durations_s[i]);
	manifest_release(&back);
	free(text);
	manifest_release(&m);
}

/* The closing hash of a manifest text edited in place, made right again:
 * the edit is read, not refused as damage. */
static void reseal_manifest(char *text)
{
	char *end = strstr(text, "\nend\t");
	build_hash h;

	assert_non_null(end);
	build_hash_bytes(text, (size_t)(end + 1 - text), &h);
	build_hash_hex(&h, end + 5);
	end[5 + 32] = '\n';
}

/* The manifest reads its numbers as strtod and strtof do, digit for digit:
 * compile times ("%.6f") and clip durations ("%.9g") of every magnitude,
 * and a count with leading zeros; a count with a sign or a space is
 * damage. */
static void the_manifest_reads_numbers_as_strtod_does(void **state)
{
	enum { COUNT = 4000 };
	manifest m = { 0 }, back;
	char *text, buf[64];
	cli_error err;
	size_t size;
	uint64_t seed = 88172645463325252u;

	(void)state;
	for (size_t i = 0; i < COUNT; i++) {
		manifest_entry e = { 0 };
		uint32_t bits;
		float duration;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		e.source = test_format("art/%zu.Animation", i);
		e.out_base = test_format("art/%zu", i);
		e.status = BUILD_COMPILED;
		e.time_s = (double)(seed >> 11) / (double)(1ull << 53) * pow(10, (double)(i % 14) - 3);
		e.outputs = calloc(1, sizeof *e.outputs);
		assert_non_null(e.outputs);
		e.outputs[0].path = test_format("art/%zu.xnb", i);
		e.outputs[0].clip = strdup("");
		bits = (uint32_t)(seed >> 32) & 0x7f7fffffu;   /* finite, not negative */
		memcpy(&duration, &bits, sizeof duration);
		e.outputs[0].duration_s = i % 3 ? duration : (float)(i % 1000) / 8;
		e.output_count = 1;
		assert_non_null(manifest_add(&m, &e));
	}
	assert_true(manifest_format(&m, &text, &size));
	assert_int_equal(manifest_parse(&back, text, size, &err), MANIFEST_LOADED);
	assert_int_equal(back.count, COUNT);
	for (size_t i = 0; i < COUNT; i++) {
		const manifest_entry *got = &back.entries[i];

		snprintf(buf, sizeof buf, "%.6f", m.entries[i].time_s);
		if (got->time_s != strtod(buf, NULL))
			fail_msg("%s read as %.17g", buf, got->time_s);
		snprintf(buf, sizeof buf, "%.9g", (double)m.entries[i].outputs[0].duration_s);
		if (got->outputs[0].duration_s != strtof(buf, NULL) ||
		    got->outputs[0].duration_s != m.entries[i].outputs[0].duration_s)
			fail_msg("%s read as %.9g", buf, (double)got->outputs[0].duration_s);
	}
	manifest_release(&back);
	free(text);

	/* A count of leading zeros reads; one with a sign or a space does not. */
	m.count = 1;
	assert_true(manifest_format(&m, &text, &size));
	char *count = strstr(text, "\nsource\t");
	assert_non_null(count);
	count = strstr(count, "\tcompiled\t\t\tart/0\t");
	assert_non_null(count);
	count += strlen("\tcompiled\t\t\tart/0\t");
	const char *spellings[] = { "00", "+0", " 0" };
	for (int k = 0; k < 3; k++) {
		char *edited = test_format("%.*s%s%s", (int)(count - text), text, spellings[k], count + 1);

		assert_int_equal(count[0], '0');
		reseal_manifest(edited);
		assert_int_equal(manifest_parse(&back, edited, strlen(edited), &err),
				 k == 0 ? MANIFEST_LOADED : MANIFEST_DAMAGED);
		manifest_release(&back);
		free(edited);
	}
	m.count = COUNT;
	free(text);
	manifest_release(&m);
}

/* A warning record keeps its kind; a record of an animc before kinds
 * (no kind field) still reads, and a kind this animc does not know reads
 * as none. */
static void the_manifest_keeps_warning_kinds(void **state)
{
	manifest m = { 0 }, back;
	manifest_entry e = { 0 };
	const manifest_entry *got;
	char *text, *field;
	cli_error err;
	size_t size;

	(void)state;
	e.source = strdup("art/Idle.Animation");
	e.out_base = strdup("art/Idle");
	e.status = BUILD_COMPILED;
	strcpy(e.importer, "robotgame");
	e.warnings = calloc(2, sizeof *e.warnings);
	assert_non_null(e.warnings);
	e.warnings[0] = (build_diag){ ANIMC_WARNING, 4, 16, -1, strdup("unknown element <X>"), "unknown-element", false, 0 };
	e.warnings[1] = (build_diag){ ANIMC_WARNING, 0, 0, -1, strdup("a warning of no kind"), NULL, false, 0 };
	e.warning_count = 2;
	assert_non_null(manifest_add(&m, &e));
	assert_true(manifest_format(&m, &text, &size));
	assert_int_equal(manifest_parse(&back, text, size, &err), MANIFEST_LOADED);
	got = manifest_find(&back, "art/Idle.Animation");
	assert_non_null(got);
	assert_int_equal(got->warning_count, 2);
	assert_string_equal(got->warnings[0].kind, "unknown-element");
	assert_int_equal(got->warnings[0].column, 16);
	assert_null(got->warnings[1].kind);
	manifest_release(&back);

	/* As an animc before kinds wrote it. */
	field = strstr(text, "\tunknown-element\n");
	assert_non_null(field);
	memmove(field, field + strlen("\tunknown-element"), strlen(field + strlen("\tunknown-element")) + 1);
	reseal_manifest(text);
	assert_int_equal(manifest_parse(&back, text, strlen(text), &err), MANIFEST_LOADED);
	got = manifest_find(&back, "art/Idle.Animation");
	assert_non_null(got);
	assert_string_equal(got->warnings[0].message, "unknown element <X>");
	assert_null(got->warnings[0].kind);
	manifest_release(&back);
	free(text);

	/* A kind of a later animc: the warning, of no kind known here. */
	assert_true(manifest_format(&m, &text, &size));
	field = strstr(text, "\tunknown-element\n");
	assert_non_null(field);
	memcpy(field + 1, "unknown-elemint", strlen("unknown-elemint"));
	reseal_manifest(text);
	assert_int_equal(manifest_parse(&back, text, size, &err), MANIFEST_LOADED);
	got = manifest_find(&back, "art/Idle.Animation");
	assert_non_null(got);
	assert_string_equal(got->warnings[0].message, "unknown element <X>");
	assert_null(got->warnings[0].kind);
	manifest_release(&back);
	free(text);
	manifest_release(&m);
}

/* A manifest's dep record naming a file outside the folders given (the
 * manifest edited, or copied with its output folder) is no record of the
 * source: the file is not read to compare, and the source compiles again,
 * though the record holds that file's true state and bytes. */
static void a_dep_record_outside_the_inputs_is_not_read(void **state)
{
	char *dir = test_tmpdir("dep-outside");
	char *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *secret = test_format("%s/elsewhere/secret.txt", dir), *path = test_format("%s/.animc/manifest", out);
	char *text, *source, *line, *edited, hex[33];
	struct stat st;
	build_hash h;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' '%s/elsewhere' && cp " CRANE "/Turn.Animation '%s' && printf 'not yours' > '%s'", src,
		dir, src, secret);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	assert_int_equal(stat(secret, &st), 0);
	build_hash_bytes("not yours", 9, &h);
	build_hash_hex(&h, hex);
	text = (char *)test_read_file(path, NULL);
	assert_non_null(text);
	source = strstr(text, "\nsource\t");
	assert_non_null(source);
	line = strchr(source + 1, '\n');
	assert_non_null(line);
	/* mtime 0: compared by content, as a record of a file changed
	 * within the last moments is. */
	edited = test_format("%.*s\ndep\t%s\t9\t0\t%llu\t%llu\t%s%s", (int)(line - text), text, secret,
			     (unsigned long long)st.st_ino, (unsigned long long)st.st_dev, hex, line);
	reseal_manifest(edited);
	assert_true(test_write_file(path, edited, strlen(edited)));
	r = test_animc("build", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 0 warnings\n"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(text);
	text = (char *)test_read_file(path, NULL);
	assert_non_null(text);
	assert_null(strstr(text, "secret.txt"));
	free(edited), free(text), free(path), free(secret), free(out), free(src), free(dir);
}

/* A glTF whose buffer lies in its subfolder g/sub, a folder secret/sub
 * outside its folder holding a file of the buffer's name (made by
 * `outside`, a command given the name last: a copy of the buffer, or
 * other bytes), and the stand-in that swaps g/sub for a link to it. */
typedef struct swap_fixture {
	char *dir, *real, *shim, *gltf, *out, *sub, *to;
} swap_fixture;

static swap_fixture swap_fixture_make(const char *name, const char *outside)
{
	swap_fixture f;

	f.dir = test_tmpdir(name), f.real = realpath(f.dir, NULL), f.shim = test_format("%s/swap.so", f.dir);
	f.gltf = test_format("%s/g/external.gltf", f.real), f.out = test_format("%s/out", f.dir);
	f.sub = test_format("%s/g/sub", f.real), f.to = test_format("%s/secret/sub", f.real);
	test_sh("mkdir -p '%s' '%s' && sed 's|\"wag%%20data.bin\"|\"sub/wag%%20data.bin\"|' "
		"testdata/gltf/external.gltf > '%s' && cp 'testdata/gltf/wag data.bin' '%s' && "
		"%s '%s/wag data.bin' && cc -shared -fPIC -o '%s' testdata/env/swap_after_realpath.c -ldl", f.sub, f.to,
		f.gltf, f.sub, outside, f.to, f.shim);
	return f;
}

static void swap_fixture_release(swap_fixture *f)
{
	free(f->dir), free(f->real), free(f->shim), free(f->gltf), free(f->out), free(f->sub), free(f->to);
}

/* A folder of the source's swapped for a symbolic link that leads out of
 * it between the check that a file a manifest records as read lies inside
 * it and the read (another process writing the folder; the stand-in swaps
 * it right after the check): the file outside is not read.  It was, and
 * its bytes, equal to the record's, called the source up to date, where
 * the compile refuses the buffer as outside. */
static void a_dep_is_not_read_through_a_folder_swapped_for_a_link(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	swap_fixture f = swap_fixture_make("dep-swap", "cp 'testdata/gltf/wag data.bin'");
	test_run r = test_animc("build", "-q", "-o", f.out, f.gltf, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	setenv("SWAP_FOLDER", f.sub, 1), setenv("SWAP_TO", f.to, 1), setenv("LD_PRELOAD", f.shim, 1);
	r = test_animc("build", "-o", f.out, f.gltf, NULL);
	unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO");
	if (r.status != 1 || strstr(r.out, "up to date") || !strstr(r.err, "/secret/sub/wag data.bin', outside the "
								       "source's folder"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	swap_fixture_release(&f);
}

/* A folder of a file the import read, swapped for a link to another
 * folder after the import and before the file is read again to record
 * it (the stand-in swaps it before each open by a name below it): what
 * is recorded is the file the import read, so the next build is up to
 * date.  The file the link led to was hashed into the record (the next
 * build compiled again), a file outside the folders given. */
static void a_dep_is_recorded_as_read_not_through_a_folder_swapped_for_a_link(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	swap_fixture f = swap_fixture_make("dep-swap-after", "printf 'not the buffer' >");
	test_run r;

	setenv("SWAP_FOLDER", f.sub, 1), setenv("SWAP_TO", f.to, 1), setenv("SWAP_BEFORE_OPEN", "1", 1);
	setenv("LD_PRELOAD", f.shim, 1);
	r = test_animc("build", "-q", "-o", f.out, f.gltf, NULL);
	unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO"), unsetenv("SWAP_BEFORE_OPEN");
	if (r.status != 0)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", f.out, f.gltf, NULL);
	if (r.status != 0 || !strstr(r.out, ", 1 up to date\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	swap_fixture_release(&f);
}

/* A clip-split sidecar that is a symbolic link to a shared document (a
 * file outside the source's folder that a dep record may name) keeps its
 * source up to date however the source is spelt: relative, absolute (as
 * CMake and IDEs spell it), its folder or itself.  It compiled again
 * whenever the spelling changed, the record's name compared as spelt. */
static void a_linked_sidecar_is_up_to_date_however_its_source_is_spelt(void **state)
{
	char *dir = test_tmpdir("linked-sidecar"), *animc = realpath(test_animc_path(), NULL);
	const char *spellings[] = { "src", "\"$PWD/src\"", "src/Walker.xml", "\"$PWD/src/Walker.xml\"", "src" };
	test_run r;

	(void)state;
	assert_non_null(animc);
	test_sh("mkdir -p '%s/src' '%s/defs' && cp testdata/authoring/Walker.xml '%s/src' && "
		"cp testdata/authoring/Walker_Anims.xml '%s/defs' && ln -s ../defs/Walker_Anims.xml '%s/src/Walker_Anims.xml'",
		dir, dir, dir, dir, dir);
	for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
		char *command = test_format("cd '%s' && '%s' build -o out %s", dir, animc, spellings[i]);

		r = test_exec("sh", "-c", command, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, i ? "compiled 0 sources (0 clips), " : "compiled 1 source (3 clips), ") ||
		    (i && !strstr(r.out, ", 1 up to date\n")))
			fail_msg("%s: %s%s", spellings[i], r.out, r.err);
		test_run_release(&r);
		free(command);
	}
	free(animc), free(dir);
}

/* The manifest a build saved, loaded, and formatted again from its fields
 * alone (no record copied as read): the bytes the file holds, whose hash
 * the load took. */
static void assert_manifest_formats_as_saved(const char *path)
{
	manifest m;
	build_hash whole;
	cli_error err;
	char *text, *saved = (char *)test_read_file(path, NULL);
	size_t size;

	assert_non_null(saved);
	assert_int_equal(manifest_load(&m, path, &err), MANIFEST_LOADED);
	build_hash_bytes(saved, strlen(saved), &whole);
	assert_true(m.loaded_hash_known);
	assert_memory_equal(m.loaded_hash.bytes, whole.bytes, sizeof whole.bytes);
	for (size_t i = 0; i < m.count; i++)
		m.entries[i].raw = NULL;
	assert_true(manifest_format(&m, &text, &size));
	assert_int_equal(size, strlen(saved));
	assert_memory_equal(text, saved, size);
	free(text), free(saved);
	manifest_release(&m);
}

/* A per-file rule carries the records of the sources it did not build
 * over as the manifest holds them, parsing and formatting none again: a
 * warning kind a later animc recorded for another source stays (it was
 * dropped, formatted by an animc that does not know it).  Records it
 * carries are the bytes it would have formatted. */
static void a_rule_carries_the_other_records_as_written(void **state)
{
	char *dir = test_tmpdir("rule-carries-records"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/art/a.Animation", dir), *path = test_format("%s/.animc/manifest", out);
	char *text, *line, *edited;

	(void)state;
	test_sh("mkdir -p '%s/art' && for s in a b c; do cp " CRANE "/Turn.Animation '%s/art/'$s.Animation; done", dir,
		dir);
	test_run_ok(test_animc("build", "-q", "-o", out, dir, NULL));
	test_sh("echo '<!-- edit -->' >> '%s'", a);
	test_run_ok(test_animc("build", "-q", "-o", out, a, NULL));
	assert_manifest_formats_as_saved(path);

	/* b's record, as a later animc wrote it: a warning of a kind this
	 * one does not know. */
	text = (char *)test_read_file(path, NULL);
	line = strstr(text, "\noutput\tart/b.xnb\t");
	assert_non_null(line);
	line = strchr(line + 1, '\n');
	*line = '\0';
	edited = test_format("%s\nwarning\t3\t4\t0\tan element of a later format\tlater-kind\n%s", text, line + 1);
	reseal_manifest(edited);
	assert_true(test_write_file(path, edited, strlen(edited)));
	free(edited), free(text);
	test_sh("echo '<!-- edit -->' >> '%s'", a);
	test_run_ok(test_animc("build", "-q", "-o", out, a, NULL));
	text = (char *)test_read_file(path, NULL);
	assert_non_null(strstr(text, "\noutput\tart/b.xnb\t"));
	assert_non_null(strstr(text, "\nwarning\t3\t4\t0\tan element of a later format\tlater-kind\n"));
	free(text), free(path), free(a), free(out), free(dir);
}

/* A manifest's text with what differs between two output folders built
 * alike blanked: the mtime and inode of each output, the compile time of
 * each source, the closing hash. */
static char *manifest_alike(const char *path)
{
	char *text = (char *)test_read_file(path, NULL), *end;
	cli_bytes out = { 0 };

	assert_non_null(text);
	for (char *line = text; *line; line = end + 1) {
		char *fields[16];
		int n = 0;

		end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		for (char *f = line; n < 16; f = strchr(f, '\t') + 1) {
			fields[n++] = f;
			if (!strchr(f, '\t'))
				break;
		}
		for (int i = 0; i < n; i++) {
			size_t size = i + 1 < n ? (size_t)(fields[i + 1] - 1 - fields[i]) : strlen(fields[i]);
			bool blank = ((!strncmp(line, "output\t", 7) || !strncmp(line, "orphan\t", 7)) && (i == 5 || i == 6)) ||
				     (!strncmp(line, "source\t", 7) && i == 13) || (!strncmp(line, "end\t", 4) && i == 1);

			if (i)
				cli_bytes_put(&out, "\t", 1);
			cli_bytes_put(&out, blank ? "-" : fields[i], blank ? 1 : size);
		}
		cli_bytes_put(&out, "\n", 1);
	}
	cli_bytes_put(&out, "", 1);
	free(text);
	return (char *)out.data;
}

/* `animc build ARGS... -o OUT` into out (lazily, given files alone) and
 * the same with an empty folder given too into ref (every record read):
 * the same exit status, messages and manifest (but for what two folders
 * built alike differ in).  The summary line (the stale count) is left
 * out: a rule given files reports on them alone. */
static void build_both(const char *dir, const char *const *args)
{
	const char *argv[24];
	char *outs[2], *manifests[2], *texts[2];
	test_run runs[2];
	char *animc = realpath(test_animc_path(), NULL);
	size_t n;

	assert_non_null(animc);
	for (int k = 0; k < 2; k++) {
		char *cwd = test_format("cd '%s' && exec \"$0\" \"$@\"", dir);

		n = 0;
		argv[n++] = "sh";
		argv[n++] = "-c";
		argv[n++] = cwd;
		argv[n++] = animc;
		for (size_t i = 0; args[i]; i++)
			argv[n++] = args[i];
		argv[n++] = "-o";
		argv[n++] = k ? "ref" : "out";
		if (k)
			argv[n++] = "art/empty";
		argv[n] = NULL;
		runs[k] = test_execv(argv);
		free(cwd);
		outs[k] = test_format("%s/%s", dir, k ? "ref" : "out");
		manifests[k] = test_format("%s/.animc/manifest", outs[k]);
		texts[k] = manifest_alike(manifests[k]);
		/* Messages name their folder. */
		for (char *at; (at = strstr(runs[k].err, k ? "ref/" : "out/"));)
			memcpy(at, "xxx/", 4);
	}
	if (runs[0].status != runs[1].status || strcmp(runs[0].err, runs[1].err) != 0 || strcmp(texts[0], texts[1]) != 0 ||
	    runs[0].status > 1)
		fail_msg("%s: exit %d and %d\n%s---\n%s---\n%s---\n%s", args[1], runs[0].status, runs[1].status,
			 runs[0].err, runs[1].err, texts[0], texts[1]);
	free(animc);
	for (int k = 0; k < 2; k++) {
		test_run_release(&runs[k]);
		free(outs[k]), free(manifests[k]), free(texts[k]);
	}
}

/* Past the two seconds after the sources' last change: a build records
 * the state of a file changed within two seconds as not to be trusted
 * (mtime 0, its bytes compared next time), so of the two builds compared,
 * run one after the other, a slow second one (under the sanitizer, on a
 * loaded machine) would record what the first did not. */
static void settle_sources(void)
{
	struct timespec wait = { 2, 100000000 };

	while (nanosleep(&wait, &wait) != 0 && errno == EINTR)
		;
}

/* A rule given files alone reads the records of those files (and of the
 * sources that write their outputs, or a name alike but for case) and
 * carries the others over as read: after a sequence of rules and folder
 * builds, its manifest is the one a build that reads every record saves,
 * and it says the same (an output another source wrote before, one whose
 * name differs only in case, a takeover refused under
 * --warnings-as-errors). */
static void a_rule_saves_what_a_build_reading_every_record_saves(void **state)
{
	char *dir = test_tmpdir("rule-reads-its-own");
	static const char *const steps[][8] = {
		{ "build", "--base", "art", "art/d0/a.Animation", NULL },
		{ "build", "--base", "art", "art/d0/new.Animation", NULL },
		{ "build", "--base", "art", "art/d0/c.Animation", NULL },
		{ "build", "art/d0/w.Animation", NULL },
		{ "build", "art/d1/w.Animation", NULL },
		{ "build", "art/d0/w.Animation", NULL },
		{ "build", "art/d0/a.Animation", NULL },
		{ "build", "art/d1/A.Animation", NULL },
		{ "build", "--warnings-as-errors", "art/d1/w.Animation", NULL },
		{ "build", "--base", "art", "art/d0/a.Animation", "art/d1/c.Animation", NULL },
		{ "build", "--base", "art", "art/d0/a.Animation", NULL },
		{ "build", "--base", "art", "art", NULL },
		{ "build", "--base", "art", "art/d1/b.Animation", NULL },
	};
	char *animc = realpath(test_animc_path(), NULL);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/art/d0' '%s/art/d1' '%s/art/empty' && for s in a b c w 'we\\ird'; do for d in d0 d1; do "
		"cp " CRANE "/Turn.Animation '%s/art/'$d/\"$s\".Animation; done; done", dir, dir, dir, dir);
	settle_sources();
	/* Built from the folder the rules run in: no path is spelt anew. */
	for (int k = 0; k < 2; k++) {
		char *cmd = test_format("cd '%s' && exec \"$0\" build -q -o %s art", dir, k ? "ref" : "out");

		r = test_exec("sh", "-c", cmd, animc, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		free(cmd);
	}
	free(animc);
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		if (i == 0 || i == 9)
			test_sh("cd '%s' && echo '<!-- %zu -->' >> art/d0/a.Animation && echo '<!-- %zu -->' >> "
				"art/d1/c.Animation", dir, i, i);
		if (i == 1)
			test_sh("cd '%s' && cp art/d0/a.Animation art/d0/new.Animation", dir);
		if (i == 2)
			test_sh("rm '%s/art/d0/b.Animation'", dir);
		if (i == 7)
			test_sh("cd '%s' && cp art/d0/a.Animation art/d1/A.Animation", dir);
		if (i == 0 || i == 1 || i == 2 || i == 7 || i == 9)
			settle_sources();
		build_both(dir, steps[i]);
	}
	free(dir);
}

/* Of a gone source's outputs, a rule given other files says nothing (it
 * reports on its files alone); a build of the folder counts them stale. */
static void a_rule_reports_on_its_files_alone(void **state)
{
	char *dir = test_tmpdir("rule-reports-alone"), *out = test_format("%s/out", dir);
	char *art = test_format("%s/art", dir), *a = test_format("%s/a.Animation", art);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && for s in a b; do cp " CRANE "/Turn.Animation '%s/'$s.Animation; done", art, art);
	test_run_ok(test_animc("build", "-q", "-o", out, art, NULL));
	test_sh("rm '%s/b.Animation' && echo '<!-- edit -->' >> '%s'", art, a);
	r = test_animc("build", "-o", out, a, NULL);
	if (r.status != 0 || strstr(r.out, "stale"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", out, art, NULL);
	if (r.status != 0 || !strstr(r.out, "1 stale output"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(a), free(art), free(out), free(dir);
}

/* A manifest read lazily reads each source's source and destination
 * alone; the records of one are read whole when asked for (by source,
 * by destination, by an output's name or one alike but for case), and
 * saved as read, it gives the bytes it was read from; read whole, it is
 * what manifest_load reads. */
static void a_manifest_read_lazily_reads_what_is_asked(void **state)
{
	char *dir = test_tmpdir("lazy-manifest"), *out = test_format("%s/out", dir);
	char *art = test_format("%s/art", dir), *path = test_format("%s/.animc/manifest", out), *text, *saved;
	manifest lazy, whole;
	cli_error err;
	size_t size;

	(void)state;
	test_sh("mkdir -p '%s/d' && for s in a b c 'we\\ird' Walk; do cp " CRANE "/Turn.Animation '%s/d/'\"$s\".Animation; "
		"done", art, art);
	test_run_ok(test_animc("build", "-q", "-o", out, art, NULL));
	saved = (char *)test_read_file(path, NULL);
	assert_int_equal(manifest_load(&whole, path, &err), MANIFEST_LOADED);
	assert_int_equal(manifest_load_lazy(&lazy, path, &err), MANIFEST_LOADED);
	assert_int_equal(lazy.count, 5);
	assert_int_equal(lazy.lazy_count, 5);
	for (size_t i = 0; i < lazy.count; i++) {
		assert_true(lazy.entries[i].is_lazy);
		assert_string_equal(lazy.entries[i].source, whole.entries[i].source);
		assert_string_equal(lazy.entries[i].out_base, whole.entries[i].out_base);
		assert_int_equal(lazy.entries[i].output_count, 0);
	}
	assert_true(manifest_format(&lazy, &text, &size));
	assert_int_equal(size, strlen(saved));
	assert_memory_equal(text, saved, size);
	free(text);

	/* By source, by destination, by output name (the escaped one too),
	 * and alike but for case. */
	char *a = test_format("%s/d/a.Animation", art);
	assert_true(manifest_take_source(&lazy, a, NULL));
	assert_int_equal(lazy.lazy_count, 4);
	assert_true(manifest_take_source(&lazy, "nothing", "d/b"));
	assert_int_equal(lazy.lazy_count, 3);
	char *weird = test_format("%s/d/we\\ird.Animation", art);
	assert_true(manifest_take_source(&lazy, weird, NULL));
	assert_int_equal(lazy.lazy_count, 2);
	const char *c = "d/c.xnb";
	assert_int_equal(manifest_take_named(&lazy, "output", &c, 1), 1);
	assert_int_equal(manifest_take_named(&lazy, "output", &c, 1), 0);
	assert_int_equal(manifest_take_alike(&lazy, "d/cc.xnb"), 0);
	assert_int_equal(manifest_take_alike(&lazy, "d/Wal.xnb"), 0);
	assert_int_equal(manifest_take_alike(&lazy, "d/WALK.xnb"), 1);
	assert_int_equal(lazy.lazy_count, 0);
	assert_true(manifest_take_all(&lazy));
	free(weird);
	assert_int_equal(lazy.lazy_count, 0);
	for (size_t i = 0; i < lazy.count; i++) {
		const manifest_entry *x = &lazy.entries[i], *y = &whole.entries[i];

		assert_false(x->is_lazy);
		assert_string_equal(x->source, y->source);
		assert_int_equal(x->output_count, y->output_count);
		assert_string_equal(x->outputs[0].path, y->outputs[0].path);
		assert_memory_equal(&x->outputs[0].hash, &y->outputs[0].hash, sizeof x->outputs[0].hash);
		assert_memory_equal(&x->state, &y->state, sizeof x->state);
		assert_memory_equal(&x->key, &y->key, sizeof x->key);
		assert_true(x->time_s == y->time_s);
	}
	assert_true(manifest_format(&lazy, &text, &size));
	assert_int_equal(size, strlen(saved));
	assert_memory_equal(text, saved, size);
	free(text);
	for (size_t i = 0; i < lazy.count; i++)
		lazy.entries[i].raw = NULL;
	assert_true(manifest_format(&lazy, &text, &size));
	assert_memory_equal(text, saved, size);
	free(text);
	manifest_release(&lazy);
	manifest_release(&whole);
	free(a), free(saved), free(path), free(art), free(out), free(dir);
}

/* A record of a file a per-file rule is given that is not well-formed
 * (its checksum right: an animc that wrote it wrong) is said by its line
 * and what is wrong in it, as a read of every record says it, from the
 * folder the manifest was written from and from another: it was "a record
 * is not well-formed". */
static void a_bad_record_of_a_file_given_is_said_by_its_line(void **state)
{
	/* Absolute: the second run is from another folder. */
	char *tmp = test_tmpdir("lazy-bad-record"), *dir = realpath(tmp, NULL);
	char *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *path = test_format("%s/.animc/manifest", out), *b = test_format("%s/b.Animation", art);
	char *animc = realpath(test_animc_path(), NULL), *text, *at;
	int line_no = 1;
	test_run r;

	(void)state;
	assert_non_null(animc);
	assert_non_null(dir);
	test_sh("mkdir -p '%s' && for s in a b c; do cp " CRANE "/Turn.Animation '%s/'$s.Animation; done", art, art);
	test_run_ok(test_animc("build", "-q", "-o", out, art, NULL));
	text = (char *)test_read_file(path, NULL);
	assert_non_null(at = strstr(text, "\noutput\tb.xnb\t\t"));
	for (const char *c = text; c <= at; c++)
		line_no += *c == '\n';
	at[strlen("\noutput\tb.xnb\t\t")] = 'z';   /* its size */
	reseal_manifest(text);
	char *said = test_format("%s: warning: line %d: a bad output record; compiling every source [manifest]\n", path,
				 line_no);
	/* From the folder it was written from, and from another. */
	for (int i = 0; i < 2; i++) {
		assert_true(test_write_file(path, text, strlen(text)));
		const char *const argv[] = { "sh", "-c", "cd \"$1\" && exec \"$2\" build -q -o \"$3\" \"$4\"", "sh",
					     i ? art : ".", animc, out, b, NULL };

		r = test_execv(argv);
		if (r.status != 0 || !strstr(r.err, said))
			fail_msg("run %d: exit %d\n%s%s", i, r.status, r.out, r.err);
		test_run_release(&r);
	}
	free(said), free(text), free(animc), free(b), free(path), free(art), free(out), free(dir), free(tmp);
}

/* The temporary files of manifests under OUT/.animc. */
static size_t manifest_temps(const char *out)
{
	char *state = test_format("%s/.animc", out);
	DIR *d = opendir(state);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strncmp(e->d_name, ".manifest.", 10) == 0;
	closedir(d);
	free(state);
	return n;
}

/* A build killed while it writes the manifest (here by SIGXFSZ, past a
 * file size limit, in the middle of the temporary file) leaves the
 * manifest it read, whole and readable; the next build removes the
 * temporary file, and saves. */
static void a_build_killed_while_saving_leaves_the_manifest_readable(void **state)
{
	char *dir = test_tmpdir("killed-saving"), *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *path = test_format("%s/.animc/manifest", out), *a = test_format("%s/d0/t0.Animation", art);
	char *before, *after;
	manifest m;
	cli_error err;
	size_t size;
	int status;
	pid_t pid;

	(void)state;
	test_sh("for i in $(seq 0 59); do mkdir -p '%s/d'$((i / 20)); cp " CRANE "/Turn.Animation "
		"'%s/d'$((i / 20))/t$i.Animation; done", art, art);
	test_run_ok(test_animc("build", "-q", "-o", out, art, NULL));
	before = (char *)test_read_file(path, &size);
	assert_true(size > 8192);
	assert_int_equal(manifest_load_lazy(&m, path, &err), MANIFEST_LOADED);
	assert_true(manifest_take_source(&m, a, NULL));
	m.entries[0].raw = NULL;
	m.entries[0].time_s += 1;   /* other bytes, saved */
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit limit = { 4096, 4096 };

		signal(SIGXFSZ, SIG_DFL);
		setrlimit(RLIMIT_FSIZE, &limit);
		manifest_save(&m, path, NULL, &err);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ);
	manifest_release(&m);
	after = (char *)test_read_file(path, NULL);
	assert_string_equal(after, before);
	free(after);
	assert_int_equal(manifest_temps(out), 1);
	assert_int_equal(manifest_load(&m, path, &err), MANIFEST_LOADED);
	manifest_release(&m);

	/* The mark a build leaves while it runs, which a build killed does
	 * not remove: the next build alone sweeps. */
	test_sh("touch '%s/.animc/running.1.0000000000000001' && echo '<!-- edit -->' >> '%s'", out, a);
	test_run_ok(test_animc("build", "-q", "-o", out, a, NULL));
	assert_int_equal(manifest_temps(out), 0);
	after = (char *)test_read_file(path, NULL);
	assert_string_not_equal(after, before);
	assert_manifest_formats_as_saved(path);
	free(after), free(before), free(a), free(path), free(art), free(out), free(dir);
}

static void results_survive_the_pipe_and_damage(void **state)
{
	build_result r = { 0 }, back;
	uint8_t *bytes;
	size_t size, decoded = 0;

	(void)state;
	r.status = BUILD_COMPILED;
	strcpy(r.importer, "xna");
	r.outputs = calloc(1, sizeof *r.outputs);
	r.output_count = 1;
	r.outputs[0].name = strdup("a/b.xnb");
	r.outputs[0].clip = strdup("b");
	r.outputs[0].bytes = malloc(5);
	memcpy(r.outputs[0].bytes, "XNBw\5", 5);
	r.outputs[0].size = 5;
	r.outputs[0].bones = 3;
	build_result_diag(&r, ANIMC_WARNING, 4, 2, -1, "clip 'b': %s", "sorted");
	build_result_diag_kind(&r, ANIMC_WARNING, "unknown-element", 5, 1, -1, "unknown element <%s>", "X");
	r.held_clips = calloc(2, sizeof *r.held_clips);
	r.held_clips[0] = strdup("b");
	r.held_clips[1] = strdup("c");
	r.held_clip_count = 2;
	assert_true(build_result_encode(&r, &bytes, &size));
	assert_true(build_result_decode(bytes, size, &back));
	assert_int_equal(back.output_count, 1);
	assert_memory_equal(back.outputs[0].bytes, "XNBw\5", 5);
	assert_string_equal(back.diags[0].message, "clip 'b': sorted");
	assert_int_equal(back.diags[0].line, 4);
	assert_null(back.diags[0].kind);
	assert_string_equal(back.diags[1].message, "unknown element <X>");
	assert_string_equal(back.diags[1].kind, "unknown-element");
	assert_int_equal(back.warnings, 2);
	assert_int_equal(back.held_clip_count, 2);
	assert_string_equal(back.held_clips[1], "c");
	build_result_release(&back);
	/* A record cut anywhere (a worker that died writing it) is refused. */
	for (size_t n = 0; n < size; n++) {
		if (build_result_decode(bytes, n, &back)) {
			decoded++;
			build_result_release(&back);
		}
	}
	assert_int_equal(decoded, 0);
	free(bytes);
	build_result_release(&r);
}

static void safe_names(void **state)
{
	static const char *const cases[][2] = {
		{ ".", "_" }, { "..", "__" }, { ".hidden", "_hidden" }, { "a/b", "a_b" }, { "CON", "CON_" },
		{ "con.x", "con_.x" }, { "COM7", "COM7_" }, { "COM", "COM" }, { "console", "console" },
		{ "LPT9.a.b", "LPT9_.a.b" }, { "nul", "nul_" }, { "Walk", "Walk" }, { "a\x1b[2J", "a_[2J" },
		/* Windows reserves COM and LPT before a superscript 1, 2 or 3. */
		{ "COM\xc2\xb9", "COM\xc2\xb9_" }, { "lpt\xc2\xb2.walk", "lpt\xc2\xb2_.walk" },
		{ "COM\xc2\xb3", "COM\xc2\xb3_" }, { "COM\xc2\xb4", "COM\xc2\xb4" }, { "COM\xc2\xb9x", "COM\xc2\xb9x" },
		/* Windows drops the spaces after a name before it looks. */
		{ "CON ", "CON _" }, { "nul .walk", "nul _.walk" }, { "COM1  ", "COM1  _" }, { " CON", " CON" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = build_safe_name(cases[i][0], 0);

		assert_string_equal(got, cases[i][1]);
		free(got);
	}
	{
		char *empty = build_safe_name("", 3);

		assert_string_equal(empty, "clip3");
		free(empty);
	}
}

/* A source named twice (a folder and a file in it, two spellings of one
 * path) is built once; named on the command line, --split cuts it. */
static void a_source_named_twice_is_built_once(void **state)
{
	char *in = test_tmpdir("twice-in"), *out = test_tmpdir("twice-out");
	char *file = test_format("%s/Crane/Turn.Animation", in), *dotted = test_format("%s/Crane/./Turn.Animation", in);
	char *folder = test_format("%s/Crane", in);
	test_run r;

	(void)state;
	test_sh("cp -r testdata/sample/Crane '%s/'", in);
	r = test_animc("build", "--progress", "never", "--split", "P=0:1", "-o", out, folder, file, dotted, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.err, "another source"))
		fail_msg("a repeat was refused:\n%s", r.err);
	assert_non_null(strstr(r.out, "compiled 5 sources (7 clips), 0 failed"));
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Turn/P.xnb", out)));
	assert_false(test_file_exists(test_format("%s/Turn.xnb", out)));
	assert_true(test_file_exists(test_format("%s/Wave.xnb", out)));
	free(folder), free(dotted), free(file), free(out), free(in);
}

/* A report that cannot be written fails the run, and the summary says it
 * is a report, not a source ("compiled 1 source, 1 failed" for a build of
 * one source, which the report beside it counted as compiled). */
static void a_report_not_written_is_not_a_failed_source(void **state)
{
	char *dir = test_tmpdir("report-unwritten"), *out = test_format("%s/out", dir);
	char *junit = test_format("%s/no/such/folder/j.xml", dir);
	test_run r = test_animc("build", "--junit", junit, "-o", out, "testdata/compact/sway.Animation", NULL);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 0 warnings, 1 report not written\n"))
		fail_msg("%s", r.out);
	assert_non_null(strstr(r.err, "j.xml: error: cannot write"));
	test_run_release(&r);
	r = test_animc("build", "-q", "--junit", junit, "-o", out, "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "1 report not written"));
	test_run_release(&r);
	free(junit), free(out), free(dir);
}

/* A depfile cannot hold a name with a line break (make stopped with
 * "missing separator" on the one written): it is not written, saying why,
 * and the build exits 1; the output is written. */
static void a_line_break_in_a_name_keeps_the_depfile_unwritten(void **state)
{
	char *dir = test_tmpdir("depfile-newline"), *src = test_format("%s/a\nb.Animation", dir);
	char *out = test_format("%s/out", dir), *dep = test_format("%s/deps.d", dir);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/compact/sway.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, bytes, size));
	free(bytes);
	r = test_animc("build", "-q", "--depfile", dep, "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "deps.d: error: not written: '") || !strstr(r.err, "a\\nb.Animation' has a line break"))
		fail_msg("%s", r.err);
	assert_false(test_file_exists(dep));
	test_run_release(&r);
	free(dep), free(out), free(src), free(dir);
}

/* An input folder missing for one build (an unmounted share, a folder
 * moved away and back) fails that build; its sources' outputs are not
 * stale, and --prune keeps them (it deleted every one). */
static void a_missing_input_keeps_its_outputs(void **state)
{
	char *dir = test_tmpdir("input-missing"), *in = test_format("%s/in", dir), *away = test_format("%s/away", dir);
	char *src = test_format("%s/sub/Turn.Animation", in), *out = test_format("%s/out", dir);
	char *mk = test_format("mkdir -p '%s/sub'", in), *made = test_format("%s/sub/Turn.xnb", out);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	assert_int_equal(system(mk), 0);
	assert_true(test_write_file(src, bytes, size));
	free(bytes);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	assert_true(test_file_exists(made));
	assert_int_equal(rename(in, away), 0);
	r = test_animc("build", "--prune", "-o", out, in, NULL);
	assert_int_not_equal(r.status, 0);
	assert_null(strstr(r.out, "stale"));
	test_run_release(&r);
	assert_true(test_file_exists(made));
	/* Back, it is up to date. */
	assert_int_equal(rename(away, in), 0);
	r = test_animc("build", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 up to date"));
	test_run_release(&r);
	free(made), free(mk), free(out), free(src), free(away), free(in), free(dir);
}

/* An XNA .xml is known by its content alone: saved empty, or with its
 * root element mistyped, a source an earlier build compiled fails and
 * keeps its outputs (--prune leaves them); a new .xml of another kind is
 * skipped. */
static void a_source_no_importer_knows_any_more_keeps_its_outputs(void **state)
{
	char *dir = test_tmpdir("unrecognised"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *walker = test_format("%s/Walker.xml", in), *notes = test_format("%s/notes.xml", in);
	char *made[2] = { test_format("%s/Walker/A.xnb", out), test_format("%s/Walker/B.xnb", out) };
	char *saved[2] = { test_format("%s/A.xnb", dir), test_format("%s/B.xnb", dir) };
	const char *const names[] = { "A", "B" };
	test_run r;

	(void)state;
	assert_int_equal(mkdir(in, 0777), 0);
	write_xna(walker, names, 2);
	test_run_ok(test_animc("build", "-q", "-o", out, in, NULL));
	for (int k = 0; k < 2; k++)
		test_sh("cp '%s' '%s'", made[k], saved[k]);
	assert_true(test_write_file(notes, "<notes/>\n", 9));
	for (int i = 0; i < 3; i++) {
		if (i == 0)
			assert_true(test_write_file(walker, "", 0));
		else {
			write_xna(walker, names, 2);
			test_sh("sed -i 's/XnaContent/XnaContnt/g' '%s'", walker);
		}
		/* The third build has the failed build's record to go on. */
		r = test_animc("build", "--prune", "-o", out, in, NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.out, "1 failed, 1 skipped"))
			fail_msg("build %d:\n%s%s", i + 1, r.out, r.err);
		test_run_release(&r);
		for (int k = 0; k < 2; k++)
			assert_true(test_same_bytes(made[k], saved[k]));
	}
	/* Mended, it compiles; the note is still skipped. */
	write_xna(walker, names, 2);
	r = test_animc("build", "--prune", "-o", out, in, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "0 failed, 1 skipped"));
	test_run_release(&r);
	for (int k = 0; k < 2; k++)
		assert_true(test_same_bytes(made[k], saved[k]));
	for (int k = 0; k < 2; k++)
		free(made[k]), free(saved[k]);
	free(notes), free(walker), free(out), free(in), free(dir);
}

/* An output name of 249 bytes, which a file name may have, is written:
 * its temporary file (".NAME.XXXXXX") gives up part of the stem to fit
 * 255 bytes ("File name too long" failed names of 248 bytes and more). */
static void the_longest_output_names_are_written(void **state)
{
	char *dir = test_tmpdir("long-output-name"), stem[246], *src, *out = test_format("%s/out", dir), *made;
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	memset(stem, 'c', 245);   /* the source's name 255 bytes, its output's 249 */
	stem[245] = '\0';
	src = test_format("%s/%s.Animation", dir, stem);
	made = test_format("%s/%s.xnb", out, stem);
	assert_true(test_write_file(src, bytes, size));
	free(bytes);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(made));
	free(made), free(out), free(src), free(dir);
}

/* A reader of FIFO `fifo` into file `into`, forked; its pid. */
static pid_t drain_fifo(const char *fifo, const char *into)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		char buf[4096];

		alarm(10);   /* a writer that never comes (the FIFO replaced) */
		int in = open(fifo, O_RDONLY), out = open(into, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ssize_t n;

		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	return pid;
}

/* A report or plot named as a FIFO (or /dev/stdout) is written into it:
 * renamed over, it was replaced by a regular file (as root, /dev/full
 * itself). */
static void reports_and_plots_write_into_special_files(void **state)
{
	char *dir = test_tmpdir("special-files"), *fifo = test_format("%s/fifo", dir);
	char *got = test_format("%s/got", dir), *out = test_format("%s/out", dir);
	struct stat st;
	pid_t reader;

	(void)state;
	assert_int_equal(mkfifo(fifo, 0644), 0);
	reader = drain_fifo(fifo, got);
	test_run_ok(test_animc("build", "-q", "--report", fifo, "-o", out, "testdata/sample/Crane/Turn.Animation",
			       NULL));
	assert_int_equal(waitpid(reader, NULL, 0), reader);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	char *text = (char *)test_read_file(got, NULL);
	assert_non_null(strstr(text, "\"version\": 1"));
	free(text);
	reader = drain_fifo(fifo, got);
	test_run_ok(test_animc("plot", "--bone", "Base", "-o", fifo, "testdata/loader/crane-turn.xnb",
			       "testdata/sample/Crane/Turn.Animation", NULL));
	assert_int_equal(waitpid(reader, NULL, 0), reader);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	text = (char *)test_read_file(got, NULL);
	assert_non_null(strstr(text, "<svg"));
	free(text);
	free(out), free(got), free(fifo), free(dir);
}

/* A report named "-" goes to the standard output alone (the progress and
 * summary to stderr); it was written into a file named "-". */
static void a_report_named_dash_takes_the_standard_output(void **state)
{
	char *dir = test_tmpdir("report-dash"), *out = test_format("%s/out", dir);
	const char *src = "testdata/sample/Crane/Turn.Animation";
	size_t len;
	test_run r;

	(void)state;
	assert_false(test_file_exists("-"));
	r = test_animc("build", "--report", "-", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	len = strlen(r.out);
	assert_true(len > 2 && r.out[0] == '{' && strcmp(r.out + len - 2, "}\n") == 0);
	assert_non_null(strstr(r.out, "\"status\": \"compiled\""));
	assert_null(strstr(r.out, "compiled 1 source"));
	assert_non_null(strstr(r.err, "compiled 1 source (1 clip), 0 failed"));
	test_run_release(&r);
	r = test_animc("build", "-q", "--junit", "-", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "<?xml", 5) == 0);
	assert_non_null(strstr(r.out, "</testsuites>"));
	test_run_release(&r);
	r = test_animc("build", "-q", "--depfile", "-", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Turn.xnb: "));
	test_run_release(&r);
	assert_false(test_file_exists("-"));
	/* One report only, and one build only. */
	r = test_animc("build", "--report", "-", "--junit", "-", "-o", out, src, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "only one of --report, --junit and --depfile"));
	test_run_release(&r);
	r = test_animc("watch", "--report", "-", "-o", out, src, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "give a file"));
	test_run_release(&r);
	/* No standard output to write to (closed by the caller): said. */
	char *closed = test_format("'%s' build -q --report - -o '%s' %s >&-", test_animc_path(), out, src);
	r = test_exec("sh", "-c", closed, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--report -: the standard output is not open for writing"));
	test_run_release(&r);
	free(closed);
	free(out), free(dir);
}

/* Each source built alone into one folder, as a make rule per source
 * does: a touched --skeleton model leaves every kept output newer than
 * it.  The model's state is the folder's: the first source's build
 * recorded it, and the next ones took it for unchanged and left their
 * outputs older, so make ran them again on every make. */
static void a_touched_model_settles_each_source_built_alone(void **state)
{
	char *dir = test_tmpdir("model-settles"), *src = test_format("%s/Crane", dir);
	char *out = test_format("%s/out", dir), *model = test_format("%s/Crane.x", src);
	static const char *const names[] = { "Turn", "Wave", "Idle" };
	test_run r;

	(void)state;
	r = test_exec("cp", "-r", "testdata/sample/Crane", dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* Copied a while ago: the first builds trust the states they record. */
	r = test_exec("touch", "-d", "-1 minute", model, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (size_t i = 0; i < 3; i++) {
		char *file = test_format("%s/%s.Animation", src, names[i]);

		r = test_exec("touch", "-d", "-1 minute", file, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		free(file);
	}
	for (size_t round = 0; round < 2; round++) {
		for (size_t i = 0; i < 3; i++) {
			char *file = test_format("%s/%s.Animation", src, names[i]);

			test_run_ok(test_animc("build", "-q", "--skeleton", model, "-o", out, file, NULL));
			free(file);
		}
		if (round == 1)
			break;
		/* Touched, and old enough for its state to be trusted. */
		usleep(20000);
		assert_int_equal(utimensat(AT_FDCWD, model, NULL, 0), 0);
		usleep(2100000);
	}
	for (size_t i = 0; i < 3; i++) {
		char *xnb = test_format("%s/%s.xnb", out, names[i]);

		if (mtime_ns(xnb) <= mtime_ns(model))
			fail_msg("%s is no newer than the model touched before its build", xnb);
		free(xnb);
	}
	free(model), free(out), free(src), free(dir);
}

/* A source whose output is a folder an earlier build filled for another
 * source (src/a.xnb/x.Animation built, then src/a.Animation added): both
 * failed, the first with a bare "Is a directory", the other told its
 * folder was the first's output "in this run", which it was not.  The
 * first is refused naming the other; the other stays up to date. */
static void an_output_that_is_an_earlier_builds_folder_is_said_so(void **state)
{
	char *dir = test_tmpdir("clash-history"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *x_xnb = test_format("%s/a.xnb/x.xnb", out);
	char *want = test_format("%s/a.Animation: error: cannot write '%s/a.xnb': it is a folder, of outputs an earlier "
				 "build wrote for '%s/a.xnb/x.Animation'; rename one of the two\n", src, out, src);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/a.xnb' && cp " CRANE "/Turn.Animation '%s/a.xnb/x.Animation'", src, src);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	test_sh("cp " CRANE "/Wave.Animation '%s/a.Animation'", src);
	for (int k = 0; k < 2; k++) {
		r = test_animc("build", "--progress", "never", "-j", k ? "2" : "1", "-o", out, src, NULL);
		if (r.status != 1 || strcmp(r.err, want) != 0 ||
		    !strstr(r.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 0 warnings, 1 up to date\n"))
			fail_msg("-j%d: exit %d\n%s%s", k + 1, r.status, r.out, r.err);
		test_run_release(&r);
	}
	assert_true(test_file_exists(x_xnb));
	free(want), free(x_xnb), free(out), free(src), free(dir);
}

/* With the manifest lost (garbage in it), every source compiles, but an
 * output whose bytes come out as on disk is left alone: no new inode, no
 * new mtime, so the make and ninja rules that read it do not run again.
 * Each was written anew. */
static void a_lost_manifest_leaves_outputs_of_equal_bytes_alone(void **state)
{
	char *dir = test_tmpdir("manifest-lost"), *out = test_format("%s/out", dir);
	char *wave = test_format("%s/Wave.Animation", dir), *xnb = test_format("%s/Wave.xnb", out);
	char *record = test_format("%s/.animc/manifest", out);
	struct timespec old[2] = { { 1600000000, 0 }, { 1600000000, 0 } };
	struct stat before, after;
	test_run r = test_exec("cp", CRANE "/Wave.Animation", wave, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(utimensat(AT_FDCWD, wave, old, 0), 0);
	test_run_ok(test_animc("build", "-q", "-o", out, wave, NULL));
	assert_int_equal(stat(xnb, &before), 0);
	assert_true(test_write_file(record, "garbage\n", 8));
	usleep(20000);
	r = test_animc("build", "-o", out, wave, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source"));
	test_run_release(&r);
	assert_int_equal(stat(xnb, &after), 0);
	assert_int_equal(after.st_ino, before.st_ino);
	assert_true(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
	/* And recorded: the next build finds it up to date. */
	r = test_animc("build", "-o", out, wave, NULL);
	assert_non_null(strstr(r.out, "1 up to date"));
	test_run_release(&r);
	free(record), free(xnb), free(wave), free(out), free(dir);
}

/* A source is known by the file its path names, not by the spelling: the
 * same folder given relative, then absolute (as CMake and IDEs pass it),
 * is up to date, its outputs untouched, and recorded once.  It compiled
 * everything again, each time the spelling changed; then a source split
 * by its sidecar did, its sidecar recorded under the other spelling. */
static void another_spelling_of_an_input_is_up_to_date(void **state)
{
	char *dir = test_tmpdir("spelling"), *src = test_format("%s/art", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.xnb", out), *record_file = test_format("%s/.animc/manifest", out);
	char *absolute, *text;
	int64_t before;
	test_run r;

	(void)state;
	r = test_exec("cp", "-r", "testdata/sample/Crane", src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cp", "testdata/authoring/Walker.xml", "testdata/authoring/Walker_Anims.xml", src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	absolute = realpath(src, NULL);
	assert_non_null(absolute);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	before = mtime_ns(turn);
	const char *const spellings[] = { absolute, src, absolute };
	for (size_t i = 0; i < 3; i++) {
		r = test_animc("build", "--allow", "numbered-bones", "-o", out, spellings[i], NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 1 skipped, 0 warnings, 6 up to date"))
			fail_msg("%s: %s", spellings[i], r.out);
		test_run_release(&r);
	}
	assert_true(mtime_ns(turn) == before);
	/* One record per source, under the last spelling. */
	text = (char *)test_read_file(record_file, NULL);
	size_t records = 0;
	for (const char *p = strstr(text, "Turn.Animation"); p; p = strstr(p + 1, "Turn.Animation"))
		records++;
	assert_int_equal(records, 1);
	assert_non_null(strstr(text, absolute));
	free(text), free(absolute), free(record_file), free(turn), free(out), free(src), free(dir);
}

/* Run in another working folder, the same inputs spelt from there are up
 * to date: the records of the sources and of what their imports read (a
 * glTF's .bin) name paths from the folder the build ran in.  From a
 * subfolder (CMake's build folder) every source compiled again, and back
 * again from the first.  A tree moved whole keeps its paths. */
static void a_build_from_another_working_folder_is_up_to_date(void **state)
{
	char *dir = test_tmpdir("working-folder"), *art = test_format("%s/art", dir), *sub = test_format("%s/sub", dir);
	char *turn = test_format("%s/out/Crane/Turn.xnb", dir), *moved = test_format("%s-moved", dir);
	char *animc = realpath(test_animc_path(), NULL);
	int64_t before;
	test_run r;

	(void)state;
	assert_non_null(animc);
	r = test_exec("rm", "-rf", moved, NULL);
	test_run_release(&r);
	assert_int_equal(mkdir(art, 0755), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	r = test_exec("cp", "-r", "testdata/sample/Crane", "testdata/gltf/external.gltf", "testdata/gltf/wag data.bin",
		      art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	const char *const runs[][3] = {
		{ dir, "art", "out" }, { sub, "../art", "../out" }, { dir, "art", "out" },
		{ sub, "../art", "../out" }, { dir, "./art/", "./out" },
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		const char *const argv[] = { "sh", "-c", "cd \"$1\" && exec \"$2\" build --allow numbered-bones -o \"$4\" \"$3\"", "sh",
					     runs[i][0], animc, runs[i][1], runs[i][2], NULL };

		r = test_execv(argv);
		assert_int_equal(r.status, 0);
		if (i == 0)
			before = mtime_ns(turn);
		else if (!strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 1 skipped, 0 warnings, 6 up to date"))
			fail_msg("build %zu, in %s: %s", i, runs[i][0], r.out);
		test_run_release(&r);
	}
	assert_true(mtime_ns(turn) == before);
	/* Moved whole: the paths as written hold there. */
	assert_int_equal(rename(dir, moved), 0);
	{
		char *moved_sub = test_format("%s/sub", moved);
		const char *const argv[] = { "sh", "-c", "cd \"$1\" && exec \"$2\" build -o ../out ../art", "sh",
					     moved_sub, animc, NULL };

		r = test_execv(argv);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, "6 up to date"))
			fail_msg("moved: %s", r.out);
		test_run_release(&r);
		free(moved_sub);
	}
	free(animc), free(moved), free(turn), free(sub), free(art), free(dir);
}

/* A record's path means the file from the folder the build ran in: from
 * another folder, a file that happens to lie at the same spelling is
 * another file.  A changed .bin was called up to date when the new working
 * folder held an old copy at art/wag data.bin. */
static void a_file_at_the_recorded_spelling_elsewhere_is_another_file(void **state)
{
	char *dir = test_tmpdir("working-folder-twin"), *art = test_format("%s/art", dir);
	char *sub = test_format("%s/sub", dir), *twin = test_format("%s/sub/art", dir);
	char *twin_bin = test_format("%s/wag data.bin", twin);
	char *bin = test_format("%s/wag data.bin", art), *out = test_format("%s/out/external/wag.xnb", dir);
	char *fresh = test_format("%s/fresh", dir), *fresh_xnb = test_format("%s/external/wag.xnb", fresh);
	char *animc = realpath(test_animc_path(), NULL);
	uint8_t *data, *got, *want;
	size_t size, got_size, want_size;
	test_run r;

	(void)state;
	assert_non_null(animc);
	assert_int_equal(mkdir(art, 0755), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(mkdir(twin, 0755), 0);
	r = test_exec("cp", "testdata/gltf/external.gltf", "testdata/gltf/wag data.bin", art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cp", "-p", "testdata/gltf/wag data.bin", twin, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	const char *const first[] = { "sh", "-c", "cd \"$1\" && exec \"$2\" build -q -o out art", "sh", dir, animc, NULL };
	r = test_execv(first);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* The real buffer changes: other keys, still numbers. */
	data = test_read_file(bin, &size);
	for (size_t i = size - 8; i < size; i++)
		data[i] ^= 0x10;
	assert_true(test_write_file(bin, data, size));
	free(data);
	const char *const again[] = { "sh", "-c", "cd \"$1\" && exec \"$2\" build -o ../out ../art", "sh", sub, animc,
				      NULL };
	r = test_execv(again);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "compiled 1 source (1 clip)"))
		fail_msg("%s", r.out);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", fresh, art, NULL));
	got = test_read_file(out, &got_size);
	want = test_read_file(fresh_xnb, &want_size);
	assert_true(got_size == want_size && memcmp(got, want, got_size) == 0);
	free(want), free(got);
	/* Built from the project's folder again (the buffer changed back),
	 * then the real buffer gone: the copy in sub/ is not it, and the
	 * source fails (it was up to date, and its record took the copy's
	 * path for good). */
	data = test_read_file(twin_bin, &size);
	assert_true(test_write_file(bin, data, size));
	free(data);
	r = test_execv(first);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(unlink(bin), 0);
	r = test_execv(again);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "external.gltf"));
	test_run_release(&r);
	/* A source gone, a copy of it there: --prune from there removes its
	 * outputs (it kept them, taking the copy for the source). */
	char *gltf = test_format("%s/external.gltf", art);
	data = test_read_file(twin_bin, &size);
	assert_true(test_write_file(bin, data, size));
	free(data);
	test_sh("touch '%s'", bin);
	r = test_execv(first);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cp", gltf, twin, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(unlink(gltf), 0);
	const char *const prune[] = { "sh", "-c", "cd \"$1\" && exec \"$2\" build -q --prune -o ../out ../art", "sh",
				      sub, animc, NULL };
	r = test_execv(prune);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_false(test_file_exists(out));
	free(gltf), free(twin_bin), free(animc), free(fresh_xnb), free(fresh), free(out), free(bin), free(twin), free(sub);
	free(art), free(dir);
}

/* The same file in another folder is another source: what its import reads
 * beside it (a glTF's .bin) is that folder's.  A glTF linked into a second
 * folder with its own .bin was taken for the first one's, up to date, and
 * kept the first folder's keys. */
static void the_same_file_in_another_folder_is_another_source(void **state)
{
	char *dir = test_tmpdir("spelling-folder"), *out = test_format("%s/out", dir), *fresh = test_format("%s/fresh", dir);
	char *one = test_format("%s/s1", dir), *two = test_format("%s/s2", dir);
	char *wag = test_format("%s/external/wag.xnb", out), *wag_fresh = test_format("%s/external/wag.xnb", fresh);
	char *bin = test_format("%s/wag data.bin", two), *link_to = test_format("%s/external.gltf", two);
	char *target = test_format("%s/external.gltf", one);
	size_t size, fresh_size, out_size;
	uint8_t *data;
	test_run r;

	(void)state;
	assert_int_equal(mkdir(one, 0755), 0);
	assert_int_equal(mkdir(two, 0755), 0);
	r = test_exec("cp", "testdata/gltf/external.gltf", "testdata/gltf/wag data.bin", one, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	data = test_read_file("testdata/gltf/wag data.bin", &size);
	for (size_t i = size - 16; i < size; i++)
		data[i] ^= 1;   /* other keys, still numbers */
	assert_true(test_write_file(bin, data, size));
	free(data);
	assert_int_equal(link(target, link_to), 0);
	const char *const inputs[] = { one, two };
	for (size_t i = 0; i < 2; i++) {
		test_run_ok(test_animc("build", "-q", "-o", out, inputs[i], NULL));
	}
	test_run_ok(test_animc("build", "-q", "-o", fresh, two, NULL));
	uint8_t *a = test_read_file(wag, &out_size), *b = test_read_file(wag_fresh, &fresh_size);
	assert_int_equal(out_size, fresh_size);
	assert_memory_equal(a, b, out_size);
	free(a), free(b), free(target), free(link_to), free(bin), free(wag_fresh), free(wag), free(two), free(one);
	free(fresh), free(out), free(dir);
}

/* The run's own --report, --junit and --depfile files inside an input
 * folder are no sources, as OUTDIR's files are not: the next run counted
 * them as three skipped sources, in the summary, the report and JUnit. */
static void a_build_s_own_reports_in_an_input_are_no_sources(void **state)
{
	char *dir = test_tmpdir("own-reports"), *src = test_format("%s/art", dir), *out = test_format("%s/out", dir);
	char *report = test_format("%s/r.json", src), *junit = test_format("%s/j.xml", src);
	char *depfile = test_format("%s/d.d", src), *to = test_format("%s/Turn.Animation", src);
	char *text;
	test_run r;

	(void)state;
	assert_int_equal(mkdir(src, 0755), 0);
	r = test_exec("cp", "testdata/sample/Crane/Turn.Animation", to, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "--report", report, "--junit", junit, "--depfile", depfile, "-o", out, src,
			       NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, run ? "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, 1 up to date"
				       : "compiled 1 source (1 clip), 0 failed, 0 skipped, 0 warnings"))
			fail_msg("run %d: %s", run, r.out);
		test_run_release(&r);
	}
	text = (char *)test_read_file(report, NULL);
	assert_null(strstr(text, "r.json"));
	assert_null(strstr(text, "d.d"));
	free(text);
	text = (char *)test_read_file(junit, NULL);
	assert_null(strstr(text, "<skipped"));
	free(text);
	/* A report that names a source would be written over it: the run
	 * stops, the source as it was. */
	size_t before_size, after_size;
	uint8_t *before = test_read_file(to, &before_size), *after;
	r = test_animc("build", "-q", "--junit", to, "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Turn.Animation: error: a report names this file, a source of the build"));
	test_run_release(&r);
	after = test_read_file(to, &after_size);
	assert_int_equal(before_size, after_size);
	assert_memory_equal(before, after, before_size);
	free(before), free(after);
	free(to), free(depfile), free(junit), free(report), free(out), free(src), free(dir);
}

/* A report named over one of the build's own outputs, or over a file of
 * OUTDIR/.animc, replaced it once the build was done: the .xnb became JSON
 * (exit 0), the manifest a report.  The run stops before it builds, as for
 * a report over a source, and leaves those files as they were. */
static void a_report_over_an_output_or_the_state_is_refused(void **state)
{
	char *dir = test_tmpdir("report-over-output"), *src = test_format("%s/art", dir);
	char *out = test_format("%s/out", dir), *link = test_format("%s/to-out", dir);
	char *xnb = test_format("%s/out/Turn.xnb", dir), *state_file = test_format("%s/out/.animc/manifest", dir);
	char *fresh = test_format("%s/fresh", dir), *to = test_format("%s/Turn.Animation", src);
	char *via_link = test_format("%s/Turn.xnb", link), *lock = test_format("%s/.animc/lock", link);
	char *clip = test_format("%s/fresh/Turn/Other.xnb", dir), *motion = test_format("%s/fresh/Turn.motion.xnb", dir);
	const char *const over_state[][2] = { { "--report", state_file }, { "--depfile", lock } };
	const char *const over_output[][2] = { { "--report", xnb }, { "--junit", via_link } };
	size_t xnb_size, manifest_size, size;
	uint8_t *xnb_bytes, *manifest_bytes, *now;
	test_run r;

	(void)state;
	assert_int_equal(mkdir(src, 0755), 0);
	r = test_exec("cp", "testdata/sample/Crane/Turn.Animation", to, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	assert_int_equal(symlink("out", link), 0);
	xnb_bytes = test_read_file(xnb, &xnb_size);
	manifest_bytes = test_read_file(state_file, &manifest_size);
	for (size_t i = 0; i < 4; i++) {
		const char *const *opt = i < 2 ? over_state[i] : over_output[i - 2];

		r = test_animc("build", "-q", "--rebuild", opt[0], opt[1], "-o", out, src, NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, i < 2 ? ": error: a report names this file, in " : ": error: a report names this "
			    "file, an output of the build"))
			fail_msg("%s %s: %s", opt[0], opt[1], r.err);
		test_run_release(&r);
		now = test_read_file(xnb, &size);
		assert_int_equal(size, xnb_size);
		assert_memory_equal(now, xnb_bytes, size);
		free(now);
		now = test_read_file(state_file, &size);
		assert_int_equal(size, manifest_size);
		assert_memory_equal(now, manifest_bytes, size);
		free(now);
	}
	/* Places the build has not made yet: a clip of the source's folder,
	 * its root motion; nothing is built there either. */
	for (size_t i = 0; i < 2; i++) {
		r = test_animc("build", "-q", "--report", i ? motion : clip, "-o", fresh, src, NULL);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, ": error: a report names this file, an output of the build"));
		test_run_release(&r);
		assert_false(test_file_exists(clip));
		assert_false(test_file_exists(motion));
	}
	/* Beside the outputs, a report is as good as anywhere. */
	char *report = test_format("%s/report.json", out), *depfile = test_format("%s.d", xnb);
	test_run_ok(test_animc("build", "-q", "--rebuild", "--report", report, "--depfile", depfile, "-o", out, src,
			       NULL));
	now = test_read_file(xnb, &size);
	assert_int_equal(size, xnb_size);
	assert_memory_equal(now, xnb_bytes, size);
	free(now);
	free(report), free(depfile), free(xnb_bytes), free(manifest_bytes), free(motion), free(clip), free(lock);
	free(via_link), free(to), free(fresh), free(state_file), free(xnb), free(link), free(out), free(src), free(dir);
}

/* A report named over a file the build reads that no folder walk meets
 * replaced it once the build was done: a source named directly, the
 * --skeleton model, a clip-split sidecar, the --mgcb project, a glTF's
 * buffer.  Each is refused before anything is built (a buffer on the
 * first build, when the plan cannot know it, is not written over), and
 * every file stays as it was. */
static void a_report_over_a_file_the_build_reads_is_refused(void **state)
{
	char *dir = test_tmpdir("report-over-read"), *out = test_format("%s/out", dir);
	static const char *const files[] = { "testdata/sample/Crane/Turn.Animation", "testdata/sample/Crane/Crane.x",
					     "testdata/authoring/Walker.xml", "testdata/authoring/Walker_Anims.xml",
					     "testdata/authoring/Walker_rest.gltf", "testdata/gltf/external.gltf",
					     "testdata/gltf/wag data.bin" };
	enum { R_TURN, R_CRANE, R_WALKER, R_SIDECAR, R_REST, R_GLTF, R_BIN, R_FILES };
	char *at[R_FILES], *project = test_format("%s/P.mgcb", dir);
	char *list = test_format("%s/inputs.txt", dir), *at_list = test_format("@%s", list);
	uint8_t *before[R_FILES + 1], *now;
	size_t sizes[R_FILES + 1], size;
	static const char project_text[] = "/outputDir:bin\n/build:Turn.Animation\n";
	test_run r;

	(void)state;
	for (int f = 0; f < R_FILES; f++) {
		at[f] = test_format("%s/%s", dir, strrchr(files[f], '/') + 1);
		before[f] = test_read_file(files[f], &sizes[f]);
		assert_true(test_write_file(at[f], before[f], sizes[f]));
	}
	assert_true(test_write_file(project, project_text, strlen(project_text)));
	before[R_FILES] = test_read_file(project, &sizes[R_FILES]);
	char *list_text = test_format("%s\n", at[R_TURN]);
	assert_true(test_write_file(list, list_text, strlen(list_text)));
	/* The buffer on the first build of its glTF, which no record names
	 * yet: binary, as no report is, refused before the build; then,
	 * recorded, refused as a file the import reads. */
	for (int pass = 0; pass < 2; pass++) {
		r = test_animc("build", "-q", "--depfile", at[R_BIN], "-o", out, at[R_GLTF], NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, pass ? "reads, which the report would be written over: nothing built" :
				     "binary data, as no report does, which the report would be written over: nothing built"))
			fail_msg("pass %d: %s", pass, r.err);
		test_run_release(&r);
		if (!pass) {
			test_run_ok(test_animc("build", "-q", "-o", out, at[R_GLTF], NULL));
		}
	}
	const struct { const char *opt, *path; const char *const args[4]; const char *what; } cases[] = {
		{ "--report", at[R_TURN], { at[R_TURN] }, "a source of the build" },
		{ "--junit", at[R_CRANE], { "--skeleton", at[R_CRANE], at[R_TURN] }, "the --skeleton model" },
		{ "--depfile", at[R_SIDECAR], { at[R_WALKER] }, "the clip-split sidecar of" },
		{ "--report", project, { "--mgcb", project }, "a file of the MonoGame project" },
		{ "--depfile", list, { at_list }, "the response file @" },
		{ "--junit", at[R_BIN], { "--skeleton", at[R_GLTF], at[R_TURN] }, "binary data, as no report does" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const char *argv[16] = { test_animc_path(), "build", "-q", cases[c].opt, cases[c].path, "-o", out };
		size_t n = 7;

		for (size_t a = 0; a < 4 && cases[c].args[a]; a++)
			argv[n++] = cases[c].args[a];
		r = test_execv(argv);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, cases[c].what) || !strstr(r.err, "nothing built"))
			fail_msg("%s %s: %s", cases[c].opt, cases[c].path, r.err);
		test_run_release(&r);
	}
	for (int f = 0; f <= R_FILES; f++) {
		now = test_read_file(f < R_FILES ? at[f] : project, &size);
		assert_int_equal(size, sizes[f]);
		assert_memory_equal(now, before[f], size);
		free(now), free(before[f]);
		if (f < R_FILES)
			free(at[f]);
	}
	size_t list_size;
	uint8_t *list_now = test_read_file(list, &list_size);
	assert_int_equal(list_size, strlen(list_text));
	assert_memory_equal(list_now, list_text, list_size);
	free(list_now), free(list_text), free(at_list), free(list);
	free(project), free(out), free(dir);
}

/* A copy keeping size and mtime written over a source in place (cp -p,
 * rsync -a --inplace, a reproducible export with fixed dates) moves only
 * its ctime.  The fast path compared size, mtime, inode and device, and
 * called the source up to date with its old output; it now takes the
 * later of mtime and ctime, so the new bytes are compiled. */
static void a_copy_in_place_keeping_size_and_mtime_is_compiled(void **state)
{
	char *dir = test_tmpdir("copy-in-place"), *src = test_format("%s/Turn.Animation", dir);
	char *out = test_format("%s/out", dir), *xnb = test_format("%s/out/Turn.xnb", dir);
	size_t size, before_size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size), *before, *after;
	char *digit = strstr((char *)bytes, "<Duration>1.5");
	struct timespec times[2];
	struct stat st;
	test_run r;
	int fd;

	(void)state;
	assert_non_null(digit);
	assert_true(test_write_file(src, bytes, size));
	age(src, 3600);
	assert_int_equal(stat(src, &st), 0);
	times[0] = st.st_atim, times[1] = st.st_mtim;
	/* Past the two seconds within which a state is not trusted. */
	usleep(2200000);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	before = test_read_file(xnb, &before_size);
	digit[strlen("<Duration>1.")] = '7';   /* 1.5 s becomes 1.7 s: the same size */
	fd = open(src, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, size), (ssize_t)size);
	assert_int_equal(close(fd), 0);
	assert_int_equal(utimensat(AT_FDCWD, src, times, 0), 0);
	r = test_animc("build", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "compiled 1 source"))
		fail_msg("the copy was not compiled:\n%s%s", r.out, r.err);
	test_run_release(&r);
	after = test_read_file(xnb, &size);
	assert_false(size == before_size && memcmp(after, before, size) == 0);
	free(after), free(before), free(bytes), free(xnb), free(out), free(src), free(dir);
}

/* A build started with SIGHUP ignored (nohup, a session that outlives its
 * terminal) caught it anyway and stopped when the terminal hung up.  It
 * now goes on: the import that loops holds it, a hang-up changes nothing,
 * SIGTERM still stops it. */
static void a_build_under_nohup_outlives_its_terminal(void **state)
{
	char *dir = test_tmpdir("nohup"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	int status;
	pid_t pid;

	(void)state;
	test_sh("mkdir -p '%s' && cp " CRANE "/Turn.Animation '%s/a.Animation' && "
	   "cp testdata/assimp_crashes/endless_time.smd '%s/b.smd'", in, in, in);
	signal(SIGHUP, SIG_IGN);   /* inherited by the build, as nohup does */
	pid = start_build(out, in, "2");
	signal(SIGHUP, SIG_DFL);
	wait_for_outputs(out, 1, pid);
	usleep(150000);
	assert_int_equal(kill(pid, SIGHUP), 0);
	usleep(300000);
	assert_int_equal(waitpid(pid, &status, WNOHANG), 0);
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	free(out), free(in), free(dir);
}

/* A folder of the tree reached by a symbolic link whose target is gone (a
 * share not mounted) is warned of as unreadable, and docs/build.md says
 * its files keep their outputs; --prune (which animc watch always uses)
 * deleted them.  They stay until the link itself goes. */
static void a_dangling_folder_link_keeps_its_outputs(void **state)
{
	char *dir = test_tmpdir("dangling-share"), *art = test_format("%s/art", dir);
	char *share = test_format("%s/share", dir), *out = test_format("%s/out", dir);
	char *walk = test_format("%s/out/shared/Walk.xnb", dir), *link = test_format("%s/art/shared", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/anims' '%s' && cp " CRANE "/Turn.Animation '%s/Turn.Animation' && "
	   "cp " CRANE "/Wave.Animation '%s/anims/Walk.Animation' && ln -s ../share/anims '%s'",
	   share, art, art, share, link);
	test_run_ok(test_animc("build", "-q", "--prune", "-o", out, art, NULL));
	assert_true(test_file_exists(walk));
	test_sh("mv '%s' '%s.unmounted'", share, share);
	r = test_animc("build", "--prune", "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "shared: warning: cannot read: No such file or directory [unreadable]"));
	test_run_release(&r);
	assert_true(test_file_exists(walk));
	/* The link deleted: the sources are gone, and so are their outputs. */
	assert_int_equal(unlink(link), 0);
	test_run_ok(test_animc("build", "-q", "--prune", "-o", out, art, NULL));
	assert_false(test_file_exists(walk));
	free(link), free(walk), free(out), free(share), free(art), free(dir);
}

/* An output folder that is an input is refused (its outputs landed beside
 * the sources, and the next build failed on them); one inside an input
 * that holds sources says they are left out (they were, without a word). */
static void an_output_folder_holding_sources_is_said(void **state)
{
	char *dir = test_tmpdir("out-holds-sources"), *src = test_format("%s/src", dir);
	char *sub = test_format("%s/Sub", src), *turn_xnb = test_format("%s/Turn.xnb", src);
	char *said;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/sample/Crane/Turn.Animation '%s' && "
	   "cp testdata/sample/Crane/Wave.Animation '%s'", sub, src, sub);
	r = test_animc("build", "-o", src, src, NULL);
	assert_int_equal(r.status, 1);
	said = test_format("%s: error: is the output folder too (-o '%s'): not built; give -o a folder of its own\n",
			   src, src);
	assert_non_null(strstr(r.err, said));
	free(said);
	assert_false(test_file_exists(turn_xnb));
	test_run_release(&r);

	r = test_animc("build", "-o", sub, src, NULL);
	assert_int_equal(r.status, 0);
	said = test_format("%s: warning: the output folder lies in the input '%s' and holds 1 source (%s/Wave.Animation), "
			   "left out: its files are taken as outputs; give -o a folder of its own [output-holds-sources]\n",
			   sub, src, sub);
	assert_non_null(strstr(r.err, said));
	free(said);
	assert_non_null(strstr(r.out, "compiled 1 source"));
	test_run_release(&r);
	free(turn_xnb), free(sub), free(src), free(dir);
}

/* A no-op build trusts an output's recorded state (size, mtime, inode,
 * device) and reads none: sources' ctime rule (the later of mtime and
 * ctime) applied to outputs made the first no-op after a full build read
 * back every output, twice the time on 10,000 files.  Shown by an output
 * rewritten in place with its size and mtime kept, which only reading it
 * would see. */
static void a_no_op_build_reads_no_output(void **state)
{
	char *dir = test_tmpdir("no-op-outputs"), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/Turn.xnb", out);
	size_t size, after_size;
	uint8_t *bytes, *after;
	struct stat st;
	struct timespec times[2];
	test_run r;
	int fd;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	bytes = test_read_file(xnb, &size);
	assert_int_equal(stat(xnb, &st), 0);
	times[0] = st.st_atim, times[1] = st.st_mtim;
	bytes[size - 1] ^= 1;
	fd = open(xnb, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, size), (ssize_t)size);
	assert_int_equal(close(fd), 0);
	assert_int_equal(utimensat(AT_FDCWD, xnb, times, 0), 0);
	r = test_animc("build", "-o", out, CRANE "/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 up to date"));
	test_run_release(&r);
	after = test_read_file(xnb, &after_size);
	assert_int_equal(after_size, size);
	assert_memory_equal(after, bytes, size);   /* not read, so not rewritten */
	free(after), free(bytes), free(xnb), free(out), free(dir);
}

/* Another file put in an output's place (a copy or a restore that keeps
 * the mtime: cp -p, rsync -t), of the same size: another inode, so the
 * output is read, found changed and written again. */
static void an_output_swapped_for_a_file_of_its_size_and_mtime_is_written_again(void **state)
{
	char *dir = test_tmpdir("swapped-output"), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/Turn.xnb", out), *other = test_format("%s/other", dir);
	size_t size, after_size;
	uint8_t *bytes, *after;
	struct stat st;
	struct timespec times[2];
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", out, CRANE "/Turn.Animation", NULL));
	bytes = test_read_file(xnb, &size);
	assert_int_equal(stat(xnb, &st), 0);
	times[0] = st.st_atim, times[1] = st.st_mtim;
	bytes[size - 1] ^= 1;
	assert_true(test_write_file(other, bytes, size));
	assert_int_equal(utimensat(AT_FDCWD, other, times, 0), 0);
	assert_int_equal(rename(other, xnb), 0);
	r = test_animc("build", "-o", out, CRANE "/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source"));
	test_run_release(&r);
	after = test_read_file(xnb, &after_size);
	bytes[size - 1] ^= 1;
	assert_int_equal(after_size, size);
	assert_memory_equal(after, bytes, size);   /* what animc wrote */
	free(after), free(bytes), free(other), free(xnb), free(out), free(dir);
}

/* A model without animation named alone says what to do: it was exported
 * without its takes, or is meant as the skeleton of other files' clips. */
static void a_model_without_animation_named_alone_says_what_to_do(void **state)
{
	char *out = test_tmpdir("build-named-still");

	(void)state;
	test_run r = test_animc("build", "-o", out, "testdata/authoring/Walker_rest.gltf", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "testdata/authoring/Walker_rest.gltf: error: holds no animation; export it with its "
			    "animations, or give it as --skeleton MODEL to check the clips of other files against it\n");
	test_run_release(&r);
	free(out);
}

/* A file of a format no importer reads, named alone, points at the list
 * of the formats read. */
static void a_file_no_importer_reads_named_alone_points_at_the_formats(void **state)
{
	char *dir = test_tmpdir("build-named-unknown"), *out = test_format("%s/out", dir);
	char *maya = test_format("%s/Hero.ma", dir), *want;
	static const char scene[] = "//Maya ASCII 2020 scene\nrequires maya \"2020\";\n";

	(void)state;
	assert_true(test_write_file(maya, scene, sizeof scene - 1));
	test_run r = test_animc("build", "-o", out, maya, NULL);
	want = test_format("%s: error: no importer recognises this file; 'animc help build' lists the formats it "
			   "reads (export the file to one of them, such as glTF or FBX)\n", maya);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want);
	test_run_release(&r);
	free(want), free(maya), free(out), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(an_output_folder_holding_sources_is_said),
	cmocka_unit_test(a_build_s_own_reports_in_an_input_are_no_sources),
	cmocka_unit_test(a_report_over_an_output_or_the_state_is_refused),
	cmocka_unit_test(a_report_over_a_file_the_build_reads_is_refused),
	cmocka_unit_test(a_copy_in_place_keeping_size_and_mtime_is_compiled),
	cmocka_unit_test(a_build_under_nohup_outlives_its_terminal),
	cmocka_unit_test(a_dangling_folder_link_keeps_its_outputs),
	cmocka_unit_test(a_no_op_build_reads_no_output),
	cmocka_unit_test(an_output_swapped_for_a_file_of_its_size_and_mtime_is_written_again),
	cmocka_unit_test(another_spelling_of_an_input_is_up_to_date),
	cmocka_unit_test(a_lost_manifest_leaves_outputs_of_equal_bytes_alone),
	cmocka_unit_test(an_output_that_is_an_earlier_builds_folder_is_said_so),
	cmocka_unit_test(a_build_from_another_working_folder_is_up_to_date),
	cmocka_unit_test(a_file_at_the_recorded_spelling_elsewhere_is_another_file),
	cmocka_unit_test(the_same_file_in_another_folder_is_another_source),
	cmocka_unit_test(a_touched_model_settles_each_source_built_alone),
	cmocka_unit_test(reports_and_plots_write_into_special_files),
	cmocka_unit_test(a_report_named_dash_takes_the_standard_output),
	cmocka_unit_test(the_longest_output_names_are_written),
	cmocka_unit_test(a_missing_input_keeps_its_outputs),
	cmocka_unit_test(a_source_no_importer_knows_any_more_keeps_its_outputs),
	cmocka_unit_test(a_line_break_in_a_name_keeps_the_depfile_unwritten),
	cmocka_unit_test(a_report_not_written_is_not_a_failed_source),
	cmocka_unit_test(every_job_count_gives_the_same_build),
	cmocka_unit_test(a_source_named_twice_is_built_once),
	cmocka_unit_test(edits_touches_deletes_and_renames),
	cmocka_unit_test(sources_taking_turns_at_one_output),
	cmocka_unit_test(many_sources_find_the_outputs_of_an_earlier_build),
	cmocka_unit_test(options_skeleton_and_manifest),
	cmocka_unit_test(files_an_import_reads_are_dependencies),
	cmocka_unit_test(a_build_stopped_mid_way_resumes),
	cmocka_unit_test(a_stopped_build_keeps_the_outputs_a_source_lost),
	cmocka_unit_test(a_build_stopped_while_planning_leaves_no_marker),
	cmocka_unit_test(a_killed_run_of_the_same_pid_is_still_swept),
	cmocka_unit_test(a_build_stopped_with_its_workers_blames_no_source),
	cmocka_unit_test(a_build_waiting_for_the_lock_says_so_and_stops),
	cmocka_unit_test(a_build_waiting_for_the_lock_names_the_build_holding_it),
	cmocka_unit_test(a_build_waiting_for_the_lock_without_proc_names_the_build_holding_it),
	cmocka_unit_test(a_build_waiting_for_the_lock_names_no_build_that_let_go),
	cmocka_unit_test(a_build_waiting_for_the_lock_names_no_process_gone),
	cmocka_unit_test(clean_refused_by_builds_names_them),
	cmocka_unit_test(a_build_waiting_for_the_lock_says_so_once),
	cmocka_unit_test(a_build_waiting_for_the_lock_names_its_holder_on_one_line),
	cmocka_unit_test(a_build_waiting_to_save_the_manifest_says_so),
	cmocka_unit_test(a_file_system_that_cannot_lock_is_said),
	cmocka_unit_test(a_manifest_lock_that_fails_keeps_the_journal),
	cmocka_unit_test(builds_side_by_side_share_a_folder),
	cmocka_unit_test(reports_follow_their_schema),
	cmocka_unit_test(a_reports_error_says_each_measure_in_its_place),
	cmocka_unit_test(depfiles_outputs_and_clean),
	cmocka_unit_test(outputs_and_clean_escape_names),
	cmocka_unit_test(clean_keeps_the_record_of_what_it_cannot_remove),
	cmocka_unit_test(a_build_that_cannot_record_writes_nothing),
	cmocka_unit_test(clean_removes_what_killed_builds_left),
	cmocka_unit_test(a_build_waiting_for_clean_takes_the_new_lock),
	cmocka_unit_test(clean_removes_nothing_through_a_linked_state_folder),
	cmocka_unit_test(outputs_reads_no_manifest_through_a_linked_state_folder),
	cmocka_unit_test(no_lock_is_made_through_a_link),
	cmocka_unit_test(no_state_file_is_read_through_a_link),
	cmocka_unit_test(no_state_file_is_read_through_a_link_put_in_place_after_a_check),
	cmocka_unit_test(no_state_file_is_made_through_a_state_folder_swapped_for_a_link),
	cmocka_unit_test(prune_says_it_leaves_a_changed_output),
	cmocka_unit_test(an_unreadable_source_keeps_its_outputs),
	cmocka_unit_test(a_file_or_folder_without_permission_is_skipped),
	cmocka_unit_test(an_unreadable_sidecar_fails_its_source),
	cmocka_unit_test(a_sidecar_link_leading_nowhere_fails_its_source),
	cmocka_unit_test(a_build_killed_before_its_manifest_leaves_nothing_unknown),
	cmocka_unit_test(a_journal_never_removes_outside_the_output_folder),
	cmocka_unit_test(a_manifest_of_another_version_is_kept),
	cmocka_unit_test(a_journal_of_another_version_is_kept),
	cmocka_unit_test(a_journal_clean_cannot_read_keeps_everything),
	cmocka_unit_test(prune_keeps_the_orphan_of_a_source_still_there),
	cmocka_unit_test(a_socket_in_place_of_the_manifest_or_a_journal_is_said_as_one),
	cmocka_unit_test(prune_removes_the_orphan_of_a_source_gone_beside_a_texture),
	cmocka_unit_test(prune_lists_the_folder_of_many_orphans_once),
	cmocka_unit_test(clean_says_the_state_files_it_cannot_remove),
	cmocka_unit_test(clean_says_an_emptied_folder_it_cannot_remove),
	cmocka_unit_test(outputs_through_a_link_out_of_outdir_stay_recorded),
	cmocka_unit_test(prune_clears_stale_outputs_in_an_outputs_way),
	cmocka_unit_test(prune_keeps_the_record_of_what_it_cannot_remove),
	cmocka_unit_test(response_files_and_base),
	cmocka_unit_test(base_takes_a_path_through_a_link_as_spelt),
	cmocka_unit_test(a_list_of_changed_files_builds_as_its_folder),
	cmocka_unit_test(a_listed_buffer_builds_the_gltf_that_reads_it),
	cmocka_unit_test(a_deleted_listed_file_builds_the_source_that_read_it),
	cmocka_unit_test(a_deleted_listed_source_in_a_subfolder_is_pruned),
	cmocka_unit_test(progress_modes),
	cmocka_unit_test(the_status_line_counts_as_the_lines_do),
	cmocka_unit_test(a_dumb_terminal_gets_a_line_per_source),
	cmocka_unit_test(fifos_and_special_files),
	cmocka_unit_test(link_loops_and_deep_folders),
	cmocka_unit_test(clip_names_that_are_no_file_names),
	cmocka_unit_test(workers_are_contained),
	cmocka_unit_test(a_big_file_no_importer_reads_is_skipped_unread),
	cmocka_unit_test(running_out_of_memory_under_ulimit_names_it),
	cmocka_unit_test(a_build_that_cannot_read_its_workers_fails_and_leaves_none),
	cmocka_unit_test(running_out_of_memory_counts_what_the_import_read),
	cmocka_unit_test(running_out_of_memory_in_the_passes_says_so),
	cmocka_unit_test(a_long_clip_of_few_keys_on_a_skeleton_stays_lossless),
	cmocka_unit_test(workers_die_with_their_build),
	cmocka_unit_test(manifest_damage_is_never_loaded),
	cmocka_unit_test(a_later_animcs_record_is_named),
	cmocka_unit_test(a_state_mtime_past_int64_is_refused),
	cmocka_unit_test(the_manifest_reads_back_every_duration),
	cmocka_unit_test(the_manifest_reads_numbers_as_strtod_does),
	cmocka_unit_test(the_manifest_keeps_warning_kinds),
	cmocka_unit_test(a_dep_record_outside_the_inputs_is_not_read),
	cmocka_unit_test(a_dep_is_not_read_through_a_folder_swapped_for_a_link),
	cmocka_unit_test(a_dep_is_recorded_as_read_not_through_a_folder_swapped_for_a_link),
	cmocka_unit_test(a_linked_sidecar_is_up_to_date_however_its_source_is_spelt),
	cmocka_unit_test(a_rule_carries_the_other_records_as_written),
	cmocka_unit_test(a_rule_saves_what_a_build_reading_every_record_saves),
	cmocka_unit_test(a_rule_reports_on_its_files_alone),
	cmocka_unit_test(a_manifest_read_lazily_reads_what_is_asked),
	cmocka_unit_test(a_bad_record_of_a_file_given_is_said_by_its_line),
	cmocka_unit_test(a_build_killed_while_saving_leaves_the_manifest_readable),
	cmocka_unit_test(results_survive_the_pipe_and_damage),
	cmocka_unit_test(safe_names),
	cmocka_unit_test(a_model_without_animation_named_alone_says_what_to_do),
	cmocka_unit_test(a_file_no_importer_reads_named_alone_points_at_the_formats),
};

ANIMC_TEST_GROUP(tests);
