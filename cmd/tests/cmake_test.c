/*
 * cmake_test.c - the CMake package as `make install` installs it (make test
 * stages it in $ANIMC_BUILD/cmake-stage): testdata/cmake, configured and
 * built with Ninja and with Unix Makefiles.  Its program links
 * animc::animrt and loads an output; a second build does nothing; a touched
 * clip rebuilds alone; a touched --skeleton model (a depfile dependency)
 * rebuilds every clip; a renamed clip re-runs the configure step and is
 * written under its new name.  The animrt package carries the runtime's
 * own version: a game requires the libanimrt it codes against.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include <animc/animc.h>
#include <animc/animrt.h>

#include "test_support.h"

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Make a file newer than anything a build wrote (past the file system's
 * time granularity, but not in the future). */
static void touch_later(const char *path)
{
	usleep(20000);
	assert_int_equal(utime(path, NULL), 0);
}

static test_run build(const char *dir)
{
	test_run r = test_exec("cmake", "--build", dir, NULL);

	if (r.status != 0)
		fail_msg("cmake --build %s: exit %d\n%s%s", dir, r.status, r.out, r.err);
	return r;
}

/* A build of the project in dir that has nothing left to do. */
static void expect_settled(const char *dir)
{
	test_run r = build(dir);

	if (!strstr(r.out, "no work to do"))
		fail_msg("the build does not settle:\n%s", r.out);
	test_run_release(&r);
}

static void example_with(const char *generator, const char *name)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	const char *sanitize = getenv("ANIMC_SANITIZE");
	char *stage = test_format("%s/cmake-stage/usr", build_dir);
	char *stage_real = realpath(stage, NULL);
	char *dir = test_tmpdir(name), *src = test_format("%s/cmake", dir), *bin = test_format("%s/out/bin", dir);
	char *prefix, *play, *turn, *model, *signals, *bow;
	test_run r;

	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	r = test_exec("cp", "-r", "testdata/cmake", "testdata/sample", dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real);
	if (sanitize && sanitize[0]) {
		/* The staged libraries are instrumented: so is the program. */
		char *flags = test_format("-DCMAKE_C_FLAGS=-fsanitize=%s", sanitize);
		char *link = test_format("-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=%s", sanitize);

		r = test_exec("cmake", "-S", src, "-B", bin, "-G", generator, prefix, flags, link, NULL);
		free(flags), free(link);
	} else {
		r = test_exec("cmake", "-S", src, "-B", bin, "-G", generator, prefix, NULL);
	}
	if (r.status != 0)
		fail_msg("cmake: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);

	/* The first build: every source of the Crane folder, and the program. */
	r = build(bin);
	assert_int_equal(count(r.out, "animc ../sample/Crane/"), 5);
	test_run_release(&r);
	play = test_format("%s/play", bin);
	turn = test_format("%s/content/Turn.xnb", bin);
	r = test_exec(play, turn, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1.5 s, 2 bones, platform 'd'"));
	test_run_release(&r);

	/* The second has nothing to do. */
	r = build(bin);
	assert_int_equal(count(r.out, "animc ../sample/Crane/"), 0);
	if (strcmp(generator, "Ninja") == 0)
		assert_non_null(strstr(r.out, "no work to do"));
	test_run_release(&r);

	/* A touched clip rebuilds alone. */
	char *clip = test_format("%s/sample/Crane/Turn.Animation", dir);
	touch_later(clip);
	r = build(bin);
	assert_int_equal(count(r.out, "animc ../sample/Crane/"), 1);
	assert_int_equal(count(r.out, "animc ../sample/Crane/Turn.Animation"), 1);
	test_run_release(&r);
	r = build(bin);
	assert_int_equal(count(r.out, "animc ../sample/Crane/"), 0);
	test_run_release(&r);

	/* The --skeleton model is in every depfile: all of them rebuild, once. */
	model = test_format("%s/sample/Crane/Crane.x", dir);
	touch_later(model);
	r = build(bin);
	assert_int_equal(count(r.out, "animc ../sample/Crane/"), 5);
	test_run_release(&r);
	r = build(bin);
	assert_int_equal(count(r.out, "animc ../sample/Crane/"), 0);
	test_run_release(&r);

	/* A clip renamed in a source of named clips: the configure step runs
	 * again and the new name is an output. */
	signals = test_format("%s/sample/Crane/Signals.xml", dir);
	size_t size;
	char *text = (char *)test_read_file(signals, &size), *key = strstr(text, "<Key>Nod</Key>");
	assert_non_null(key);
	memcpy(key, "<Key>Bow</Key>", 14);
	assert_true(test_write_file(signals, text, size));
	free(text);
	touch_later(signals);
	r = build(bin);
	test_run_release(&r);
	bow = test_format("%s/content/Signals/Bow.xnb", bin);
	assert_true(test_file_exists(bow));

	/* A source that does not compile fails the build with animc's message
	 * (it was left out, and the build was green); fixed, it builds. */
	char *broken = test_format("%s/sample/Crane/Broken.Animation", dir);
	assert_true(test_write_file(broken, "<AnimationSequence>", 19));
	r = test_exec("cmake", "--build", bin, NULL);
	assert_int_not_equal(r.status, 0);
	if (!strstr(r.out, "Broken.Animation") && !strstr(r.err, "Broken.Animation"))
		fail_msg("no message naming the source:\n%s%s", r.out, r.err);
	test_run_release(&r);
	size_t turn_size;
	uint8_t *turn_text = test_read_file(clip, &turn_size);
	assert_true(test_write_file(broken, turn_text, turn_size));
	free(turn_text);
	touch_later(broken);
	r = build(bin);
	test_run_release(&r);
	char *fixed = test_format("%s/content/Broken.xnb", bin);
	assert_true(test_file_exists(fixed));
	free(fixed), free(broken);

	/* A source removed from the folder: the configure step runs again, and
	 * no other rule (their files were numbered by position, so every later
	 * rule ran again). */
	char *idle = test_format("%s/sample/Crane/Idle.Animation", dir);
	assert_int_equal(unlink(idle), 0);
	r = build(bin);
	assert_int_equal(count(r.out, "animc ../sample/Crane/"), 0);
	test_run_release(&r);
	free(idle);

	free(bow), free(signals), free(model), free(clip), free(turn), free(play), free(prefix);
	free(bin), free(src), free(dir), free(stage), free(stage_real);
}

static void example_builds_with_ninja(void **state)
{
	(void)state;
	example_with("Ninja", "cmake-ninja");
}

static void example_builds_with_makefiles(void **state)
{
	(void)state;
	example_with("Unix Makefiles", "cmake-make");
}

/* Configure a project that asks find_package(`package` `version`) of the
 * staged install (`version` may hold a range and EXACT); its output, or
 * NULL when the configure step fails. */
static char *configure_requiring(const char *package, const char *version, const char *name)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	char *dir = test_tmpdir(name), *list = test_format("%s/CMakeLists.txt", dir);
	char *text = test_format("cmake_minimum_required(VERSION 3.20)\n"
				 "project(requires_runtime C)\n"
				 "find_package(%s %s REQUIRED)\n"
				 "message(STATUS \"found %s ${%s_VERSION}\")\n"
				 "get_target_property(lib animrt::animrt IMPORTED_LOCATION)\n"
				 "message(STATUS \"library ${lib}\")\n",
				 package, version, package, package);
	char *prefix, *bin = test_format("%s/bin", dir), *out = NULL;

	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	assert_true(test_write_file(list, text, strlen(text)));
	prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real);
	test_run r = test_exec("cmake", "-S", dir, "-B", bin, prefix, NULL);
	if (r.status == 0)
		out = test_format("%s", r.out);
	else if (!strstr(r.err, package) || !strstr(r.err, "requested version"))
		fail_msg("cmake refused %s %s without saying why:\n%s%s", package, version, r.out, r.err);
	test_run_release(&r);
	free(prefix), free(bin), free(text), free(list), free(dir), free(stage), free(stage_real);
	return out;
}

/* find_package(package `version`) takes the staged install (true) or
 * refuses it. */
static bool takes(const char *package, const char *version)
{
	char *name = test_format("cmake-%s-%s", package, version);

	for (char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
			*c = '-';
	char *out = configure_requiring(package, version, name);
	bool found = out != NULL;

	free(out), free(name);
	return found;
}

static void the_runtime_package_has_the_runtimes_version(void **state)
{
	(void)state;
	char *now = test_format("%d.%d", ANIMRT_VERSION_MAJOR, ANIMRT_VERSION_MINOR);
	char *full = test_format("found animrt %d.%d.%d", ANIMRT_VERSION_MAJOR, ANIMRT_VERSION_MINOR,
				 ANIMRT_VERSION_PATCH);
	char *next = test_format("%d.%d", ANIMRT_VERSION_MAJOR, ANIMRT_VERSION_MINOR + 1);
	char *out = configure_requiring("animrt", now, "cmake-animrt-now");

	if (!out)
		fail_msg("find_package(animrt %s) refused the runtime of animrt.h", now);
	assert_non_null(strstr(out, full));
	assert_non_null(strstr(out, "/lib/libanimrt.a"));
	free(out);
	/* A newer runtime than the one installed is refused. */
	assert_false(takes("animrt", next));
	free(now), free(full), free(next);
}

/* The version files follow CMake's rules: EXACT compares versions (0.6 is
 * 0.6.0), a range takes what lies in it and no more, and while the major
 * version is 0 a project asking for another minor version (0.5, whose
 * signatures 0.6 changed) is refused. */
static void the_version_files_follow_cmakes_rules(void **state)
{
	(void)state;
	int major = ANIMRT_VERSION_MAJOR, minor = ANIMRT_VERSION_MINOR, patch = ANIMRT_VERSION_PATCH;
	char *v[8] = {
		test_format("%d.%d EXACT", major, minor),
		test_format("%d.%d.%d EXACT", major, minor, patch),
		test_format("%d.%d...<%d.%d", major, minor, major, minor + 1),
		test_format("%d.%d...%d.%d", major, minor - 1, major, minor),
		test_format("%d.%d...<%d.%d", major, minor - 1, major, minor),
		test_format("%d.%d...%d.%d", major, minor - 2, major, minor - 1),
		test_format("%d.%d.%d EXACT", major, minor, patch + 1),
		test_format("%d.%d", major, minor - 1),
	};

	assert_true(major == 0 && minor >= 2);
	assert_true(takes("animrt", v[0]) == (patch == 0));   /* MAJOR.MINOR EXACT is MAJOR.MINOR.0 */
	assert_true(takes("animrt", v[1]));
	assert_true(takes("animrt", v[2]));
	assert_true(takes("animrt", v[3]) == (patch == 0));   /* ...MAJOR.MINOR ends at MAJOR.MINOR.0 */
	assert_false(takes("animrt", v[4]));
	assert_false(takes("animrt", v[5]));
	assert_false(takes("animrt", v[6]));
	assert_false(takes("animrt", v[7]));
	/* No version: any. */
	assert_true(takes("animrt", ""));
	/* The animc package (its own version, animc's) by the same rules. */
	const char *c = ANIMC_VERSION_STRING;
	int cmajor = atoi(c), cminor = atoi(strchr(c, '.') + 1);
	char *cv[4] = { test_format("%d.%d EXACT", cmajor, cminor), test_format("%d.%d", cmajor, cminor),
			test_format("%d.%d", cmajor, cminor - 1), test_format("0.1...%d.%d", cmajor, cminor - 1) };

	assert_true(cmajor == 0 && cminor >= 2);
	assert_true(takes("animc", cv[0]));
	assert_true(takes("animc", cv[1]));
	assert_false(takes("animc", cv[2]));
	assert_false(takes("animc", cv[3]));
	for (int i = 0; i < 8; i++)
		free(v[i]);
	for (int i = 0; i < 4; i++)
		free(cv[i]);
}

/* Configure a project whose CMakeLists.txt holds `body` after project(),
 * with `animc_dir` and `animrt_dir` as animc_DIR and animrt_DIR. */
static test_run configure_with(const char *name, const char *body, const char *animc_dir, const char *animrt_dir)
{
	char *dir = test_tmpdir(name), *list = test_format("%s/CMakeLists.txt", dir), *bin = test_format("%s/bin", dir);
	char *text = test_format("cmake_minimum_required(VERSION 3.20)\nproject(two_packages C)\n%s", body);
	char *c = test_format("-Danimc_DIR=%s/lib/cmake/animc", animc_dir);
	char *rt = test_format("-Danimrt_DIR=%s/lib/cmake/animrt", animrt_dir);

	assert_true(test_write_file(list, text, strlen(text)));
	test_run r = test_exec("cmake", "-S", dir, "-B", bin, c, rt, NULL);
	free(rt), free(c), free(text), free(bin), free(list), free(dir);
	return r;
}

/* One runtime per project: animc and animrt found from two installs (two
 * libanimrt.a) stop the configure step, in either order, naming both
 * libraries; from one install they work in either order, and
 * find_package(animc) alone says which runtime it found. */
static void one_runtime_per_project(void **state)
{
	(void)state;
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *one = realpath(stage, NULL);
	char *other_dir = test_tmpdir("cmake-other-prefix"), *other = test_format("%s/usr", other_dir);
	static const char *const report = "get_target_property(lib animrt::animrt IMPORTED_LOCATION)\n"
					  "message(STATUS \"animrt ${animrt_FOUND} ${animrt_VERSION} ${lib}\")\n";
	char *animc_first = test_format("find_package(animc REQUIRED)\nfind_package(animrt 0.%d REQUIRED)\n%s",
					ANIMRT_VERSION_MINOR, report);
	char *animrt_first = test_format("find_package(animrt 0.%d REQUIRED)\nfind_package(animc REQUIRED)\n%s",
					 ANIMRT_VERSION_MINOR, report);
	char *animc_alone = test_format("find_package(animc REQUIRED)\n%s", report);
	char *want = test_format("animrt 1 %d.%d.%d %s/lib/libanimrt.a", ANIMRT_VERSION_MAJOR, ANIMRT_VERSION_MINOR,
				 ANIMRT_VERSION_PATCH, one);
	test_run r;

	if (!one)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	r = test_exec("cp", "-r", one, other_dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *other_real = realpath(other, NULL);
	assert_non_null(other_real);
	free(other);
	other = other_real;

	const char *orders[2] = { animc_first, animrt_first };
	for (int i = 0; i < 2; i++) {
		/* One install: either order, and the runtime is its own. */
		r = configure_with(i ? "cmake-one-animrt-first" : "cmake-one-animc-first", orders[i], one, one);
		if (r.status != 0)
			fail_msg("one install, order %d: exit %d\n%s%s", i, r.status, r.out, r.err);
		assert_non_null(strstr(r.out, want));
		test_run_release(&r);
		/* Two installs: refused, naming both runtimes. */
		r = configure_with(i ? "cmake-two-animrt-first" : "cmake-two-animc-first", orders[i], one, other);
		if (r.status == 0)
			fail_msg("animc of %s and animrt of %s configured (order %d):\n%s", one, other, i, r.out);
		/* CMake wraps the message: compare it with its spaces squeezed. */
		char *err = test_format("%s", r.err), *to = err;
		for (const char *from = r.err; *from; from++)
			if (!(*from == ' ' || *from == '\n') || (to > err && to[-1] != ' '))
				*to++ = *from == '\n' ? ' ' : *from;
		*to = 0;
		if (!strstr(err, "A project links one libanimrt") || !strstr(err, "cmake-other-prefix/usr/lib/libanimrt.a") ||
		    !strstr(err, "cmake-stage/usr/lib/libanimrt.a"))
			fail_msg("two installs refused without saying why (order %d):\n%s", i, r.err);
		free(err);
		test_run_release(&r);
	}
	/* animc alone finds the runtime beside it through its package. */
	r = configure_with("cmake-animc-alone", animc_alone, one, one);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, want));
	test_run_release(&r);
	free(want), free(animc_alone), free(animrt_first), free(animc_first), free(other), free(other_dir);
	free(one), free(stage);
}

/* CMake folds long messages: `said` with each fold (a line break and the
 * indent after it) made one space, to compare. */
static char *unfolded(const char *said)
{
	char *err = test_format("%s", said);

	for (char *p = err, *q = err;; p++) {
		if (*p == '\n') {
			while (p[1] == ' ')
				p++;
			*q++ = ' ';
			continue;
		}
		if (!(*q++ = *p))
			break;
	}
	return err;
}

/* Source names a rule cannot carry fail the configure step, each named:
 * '#' broke it with CMake's own message and no file named, '%' (escaped in
 * the depfile, misread by CMake) left its rule running on every build, and
 * with make NAME(MEMBER) never ran again; ';' splits CMake's lists.  ':'
 * (escaped, misread as '%' is) and, with Ninja, '$', '&' and "'" (written
 * into the depfile Ninja reads as they are, where it stops) were taken,
 * their rules running on every build, and ':' failed make's whole build
 * naming no source.  A tab (a control character) was taken: make failed
 * with "No rule to make target" naming part of the name. */
static void names_a_rule_cannot_carry_are_refused(void **state)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	char *dir = test_tmpdir("cmake-names"), *clips = test_format("%s/sample/Crane", dir);
	static const char *const names[] = { "Run#2.Animation", "Walk%1.Animation", "Hit(4).Animation", "a;b.Animation",
					     "a:b.Animation",   "Walk$1.Animation", "Walk&x.Animation", "Walk'q.Animation",
					     "Hit(4)",          "tab\tx.Animation" };
	enum { NAME_COUNT = sizeof names / sizeof names[0] };
	static const struct {
		const char *generator;
		const char *said[NAME_COUNT];   /* NULL: accepted */
	} cases[] = {
		{ "Ninja",
		  { "Run#2.Animation: its name holds '#'", "Walk%1.Animation: its name holds '%'", NULL, "holds ';'",
		    "a:b.Animation: its name holds ':'", "Walk$1.Animation: its name holds '$', which Ninja",
		    "Walk&x.Animation: its name holds one of", "Walk'q.Animation: its name holds one of", NULL,
		    "x.Animation: its name holds a control character" } },
		{ "Unix Makefiles",
		  { "Run#2.Animation: its name holds '#'", "Walk%1.Animation: its name holds '%'",
		    NULL, "holds ';'", "a:b.Animation: its name holds ':'", NULL,
		    "Walk&x.Animation: its name holds one of", "Walk'q.Animation: its name holds one of",
		    "Hit(4): its name holds NAME(...)", "x.Animation: its name holds a control character" } },
	};
	test_run r;

	(void)state;
	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	r = test_exec("cp", "-r", "testdata/cmake", "testdata/sample", dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (size_t i = 0; i < NAME_COUNT; i++) {
		char *to = test_format("%s/%s", clips, names[i]);

		r = test_exec("cp", "testdata/sample/Crane/Turn.Animation", to, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		free(to);
	}
	/* A name from inside a file: the clip Nod of Signals.xml as No#d. */
	char *signals = test_format("%s/Signals.xml", clips);
	size_t size;
	char *text = (char *)test_read_file(signals, &size), *key = strstr(text, "<Key>Nod</Key>");
	assert_non_null(key);
	memcpy(key + 5, "N=d", 3);
	char *equals = test_format("%s/Equals.xml", clips);
	assert_true(test_write_file(equals, text, size));
	free(equals);
	memcpy(key + 5, "N#d", 3);
	assert_true(test_write_file(signals, text, size));
	free(text), free(signals);
	char *prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real), *src = test_format("%s/cmake", dir);
	for (size_t c = 0; c < 2; c++) {
		char *bin = test_format("%s/out%zu", dir, c);
		char *err;

		r = test_exec("cmake", "-S", src, "-B", bin, "-G", cases[c].generator, prefix, NULL);
		assert_int_not_equal(r.status, 0);
		err = unfolded(r.err);
		for (size_t i = 0; i < NAME_COUNT; i++) {
			bool said = strstr(err, cases[c].said[i] ? cases[c].said[i] : names[i]) != NULL;

			if (said != (cases[c].said[i] != NULL))
				fail_msg("%s, %s: %s\n%s", cases[c].generator, names[i], said ? "refused" : "not said",
					 r.err);
		}
		if (!strstr(err, "Signals.xml: the name of an output (a clip's) holds one of"))
			fail_msg("%s, the clip N#d: not said\n%s", cases[c].generator, r.err);
		if (!strstr(err, "Equals.xml: the name of an output (a clip's) holds one of"))
			fail_msg("%s, the clip N=d: not said\n%s", cases[c].generator, r.err);
		test_run_release(&r);
		free(err), free(bin);
	}
	free(src), free(prefix), free(clips), free(dir), free(stage_real), free(stage);
}

/* A project folder `name` (made empty) whose CMakeLists.txt compiles
 * `sources` with animc_add_assets(clips OUTPUT_DIR content SOURCES ...
 * OPTIONS `options`); the caller fills it, then configure_assets(). */
static char *assets_project(const char *name, const char *sources, const char *options)
{
	char *dir = test_tmpdir(name), *list = test_format("%s/CMakeLists.txt", dir);
	char *text = test_format("cmake_minimum_required(VERSION 3.20)\nproject(assets NONE)\n"
				 "find_package(animc REQUIRED)\n"
				 "animc_add_assets(clips OUTPUT_DIR content SOURCES %s OPTIONS %s)\n",
				 sources, options);

	assert_true(test_write_file(list, text, strlen(text)));
	free(text), free(list);
	return dir;
}

/* The configure step of the project in `dir` with Ninja into dir/bin, from
 * the staged install. */
static test_run configure_assets_run(const char *dir)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	char *prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real), *bin = test_format("%s/bin", dir);

	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	test_run r = test_exec("cmake", "-S", dir, "-B", bin, "-G", "Ninja", prefix, NULL);
	free(bin), free(prefix), free(stage_real), free(stage);
	return r;
}

/* The configure step must pass, warning with `warning` (NULL: with no
 * warning). */
static void configure_assets_warning(const char *dir, const char *warning)
{
	test_run r = configure_assets_run(dir);

	if (r.status != 0 || (warning ? !strstr(r.err, warning) : strstr(r.err, "Warning") != NULL))
		fail_msg("cmake: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
}

static void configure_assets(const char *dir)
{
	configure_assets_warning(dir, NULL);
}

/* A file named alone in SOURCES is held to the same names as a folder's
 * files: a tab in its name was taken, and make failed with "No rule to
 * make target" naming part of it.  So are the folders above a source, which
 * the depfile names too: ':' there failed make ("target pattern contains no
 * '%'") and left Ninja compiling on every build. */
static void lone_files_a_rule_cannot_carry_are_refused(void **state)
{
	char *dir = assets_project("cmake-lone-names",
				   "\"art/tab\tx.Animation\" \"art/Run#2.Animation\" art/Wave.Animation "
				   "\"art/my:dir/Walk.Animation\" art/br[1]/Idle.Animation art/eq=1",
				   "");
	char *crane = realpath("testdata/sample/Crane", NULL);
	test_run r;

	(void)state;
	r = test_exec("sh", "-c", "cd \"$0\" && mkdir -p art/my:dir art/br[1] art/eq=1 && cp \"$1\"/Wave.Animation art/ && "
		      "cp \"$1\"/Turn.Animation \"art/tab\tx.Animation\" && cp \"$1\"/Turn.Animation art/Run#2.Animation && "
		      "cp \"$1\"/Turn.Animation art/my:dir/Walk.Animation && cp \"$1\"/Idle.Animation art/br[1]/ && "
		      "cp \"$1\"/Idle.Animation art/eq=1/",
		      dir, crane, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = configure_assets_run(dir);
	char *err = unfolded(r.err);
	if (r.status == 0 || !strstr(err, "tab\tx.Animation: its name holds a control character") ||
	    !strstr(err, "Run#2.Animation: its name holds '#'") || strstr(err, "Wave.Animation: its") ||
	    !strstr(err, "my:dir/Walk.Animation: its folder holds ':'") ||
	    !strstr(err, "br[1]/Idle.Animation: its folder holds one of") ||
	    !strstr(err, "eq=1/Idle.Animation: its folder holds one of"))
		fail_msg("cmake: exit %d\n%s", r.status, r.err);
	test_run_release(&r);
	free(err), free(crane), free(dir);
}

/* A folder holding a link to a folder builds as `animc build` walks it:
 * the files through a link leading out land under its name, those through
 * a link to a folder inside once, where that folder's land.  animc
 * build --base refused the linked files (and the module handed it the
 * link itself), so the build failed on every run.  A folder outside,
 * linked from inside one reached twice, landed under the second path
 * (sorting first) rather than where animc build puts it. */
static void a_folder_holding_linked_folders_builds(void **state)
{
	char *dir = assets_project("cmake-linked", "art", ""), *bin = test_format("%s/bin", dir);
	char *linked = test_format("%s/content/linked/Turn.xnb", bin), *inner = test_format("%s/content/sub/Idle.xnb", bin);
	char *wave = test_format("%s/content/Wave.xnb", bin), *crane = realpath("testdata/sample/Crane", NULL);
	test_run r;

	(void)state;
	r = test_exec("sh", "-c", "cd \"$0\" && mkdir -p art/sub other far && cp \"$1\"/Wave.Animation art/ && "
		      "cp \"$1\"/Turn.Animation other/ && cp \"$1\"/Idle.Animation art/sub/ && "
		      "cp \"$1\"/Turn.Animation far/Far.Animation && ln -s ../../far art/sub/outlink && "
		      "ln -s ../other art/linked && ln -s sub art/inner", dir, crane, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	configure_assets(dir);
	r = build(bin);
	assert_int_equal(count(r.out, "animc art/"), 4);
	assert_int_equal(count(r.out, "animc art/sub/Idle.Animation"), 1);
	assert_int_equal(count(r.out, "animc art/linked/Turn.Animation"), 1);
	/* Behind the link inside, not through the second path to it
	 * (inner/outlink), as animc's walk, taking links in turn, meets it. */
	assert_int_equal(count(r.out, "animc art/sub/outlink/Far.Animation"), 1);
	test_run_release(&r);
	assert_true(test_file_exists(linked));
	assert_true(test_file_exists(inner));
	assert_true(test_file_exists(wave));
	char *far = test_format("%s/content/sub/outlink/Far.xnb", bin);
	assert_true(test_file_exists(far));
	free(far);
	r = build(bin);
	assert_non_null(strstr(r.out, "no work to do"));
	test_run_release(&r);
	free(crane), free(wave), free(inner), free(linked), free(bin), free(dir);
}

/* --split or --clips in OPTIONS with a folder in SOURCES: refused at
 * configure, as `animc build FOLDER --split` refuses it (the folder's
 * files are not cut).  Each file was named to animc alone, and cut. */
static void cuts_with_a_folder_are_refused_at_configure(void **state)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	static const char *const options[] = { "--split A=0:0.5", "--clips=parts.xml" };

	(void)state;
	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	char *prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real);
	for (size_t i = 0; i < 2; i++) {
		char *name = test_format("cmake-cuts-%zu", i);
		char *dir = assets_project(name, "art", options[i]), *bin = test_format("%s/bin", dir);
		test_run r = test_exec("sh", "-c", "mkdir -p \"$0/art\" && cp testdata/sample/Crane/Turn.Animation "
				       "\"$0/art/\"", dir, NULL);

		assert_int_equal(r.status, 0);
		test_run_release(&r);
		r = test_exec("cmake", "-S", dir, "-B", bin, "-G", "Ninja", prefix, NULL);
		assert_int_not_equal(r.status, 0);
		if (!strstr(r.err, i ? "--clips cuts the sources named in SOURCES" : "--split cuts the sources named in SOURCES"))
			fail_msg("%s", r.err);
		test_run_release(&r);
		free(bin), free(dir), free(name);
	}
	free(prefix), free(stage_real), free(stage);
}

/* Copy into dir/art a folder of what art folders hold beside sources: a
 * glTF with its buffer, a source split by its STEM_Anims.xml sidecar, a
 * README. */
static void fill_art(const char *dir)
{
	char *root = realpath("testdata", NULL);
	test_run r = test_exec("sh", "-c", "cd \"$0\" && mkdir -p art && cd art && cp \"$1\"/gltf/external.gltf "
			       "\"$1/gltf/wag data.bin\" \"$1\"/authoring/Walker.xml \"$1\"/authoring/Walker_Anims.xml "
			       "\"$1\"/sample/README.md .", dir, root, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(root);
}

/* A folder builds what `animc build FOLDER` compiles, and nothing else:
 * each file was asked of animc alone, so a glTF's buffer, a sidecar and a
 * README were sources animc could not compile, each with a rule that
 * failed the build on every run. */
static void a_folder_builds_what_a_folder_build_compiles(void **state)
{
	char *dir = assets_project("cmake-folder", "art", ""), *bin = test_format("%s/bin", dir);
	static const char *const outputs[] = { "Walker/Start.xnb", "Walker/Run.xnb", "Walker/Idle.xnb",
					       "external/wag.xnb" };
	test_run r;

	(void)state;
	fill_art(dir);
	/* A name that is no regular expression: configuring stopped at it. */
	char *plus = test_format("%s/art/C++.Animation", dir);
	r = test_exec("cp", "testdata/sample/Crane/Turn.Animation", plus, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(plus);
	configure_assets(dir);
	r = build(bin);
	assert_int_equal(count(r.out, "animc art/"), 3);
	assert_int_equal(count(r.out, "animc art/C++.Animation"), 1);
	assert_int_equal(count(r.out, "animc art/Walker.xml"), 1);
	assert_int_equal(count(r.out, "animc art/external.gltf"), 1);
	test_run_release(&r);
	for (size_t i = 0; i < 4; i++) {
		char *path = test_format("%s/content/%s", bin, outputs[i]);

		if (!test_file_exists(path))
			fail_msg("%s: not written", path);
		free(path);
	}
	r = build(bin);
	assert_non_null(strstr(r.out, "no work to do"));
	test_run_release(&r);
	/* A source the folder build fails still fails the build, naming it. */
	char *broken = test_format("%s/art/Broken.Animation", dir);
	assert_true(test_write_file(broken, "<AnimationSequence>", 19));
	r = test_exec("cmake", "--build", bin, NULL);
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Broken.Animation:1:20: error"));
	test_run_release(&r);
	free(broken), free(bin), free(dir);
}

/* Rename the part Start of the clip-split document `path` to Begin. */
static void rename_start_to_begin(const char *path)
{
	size_t size;
	char *text = (char *)test_read_file(path, &size), *at = strstr(text, "<ClipName>Start<");

	assert_non_null(at);
	memcpy(at + 10, "Begin", 5);
	assert_true(test_write_file(path, text, size));
	free(text);
	touch_later(path);
}

/* A part renamed in the document that splits a source, its STEM_Anims.xml
 * sidecar or a --clips document in OPTIONS, is an output under its new
 * name, and the build settles.  The configure step did not run again:
 * the new name was no output, the old one was left older than the
 * document, and every later build ran animc again. */
static void a_part_renamed_in_a_sidecar_is_an_output(void **state)
{
	static const struct {
		const char *name, *sources, *options, *document;
	} cases[] = {
		{ "cmake-sidecar", "art", "", "art/Walker_Anims.xml" },
		{ "cmake-clips", "art/Walker.xml", "--clips clips.xml", "clips.xml" },
	};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char *dir = assets_project(cases[i].name, cases[i].sources, cases[i].options);
		char *bin = test_format("%s/bin", dir), *begin = test_format("%s/content/Walker/Begin.xnb", bin);
		char *document = test_format("%s/%s", dir, cases[i].document), *ninja = test_format("%s/build.ninja", bin);
		test_run r;

		fill_art(dir);
		if (i == 1) {
			r = test_exec("cp", "testdata/authoring/Walker_Anims.xml", document, NULL);
			assert_int_equal(r.status, 0);
			test_run_release(&r);
		}
		configure_assets(dir);
		r = build(bin);
		test_run_release(&r);
		rename_start_to_begin(document);
		r = build(bin);
		test_run_release(&r);
		assert_true(test_file_exists(begin));
		char *rules = (char *)test_read_file(ninja, NULL);
		if (!strstr(rules, "content/Walker/Begin.xnb") || strstr(rules, "content/Walker/Start.xnb"))
			fail_msg("%s: build.ninja does not name Walker/Begin.xnb alone", cases[i].document);
		free(rules);
		r = build(bin);
		if (!strstr(r.out, "no work to do"))
			fail_msg("%s: the build does not settle:\n%s", cases[i].document, r.out);
		test_run_release(&r);
		free(ninja), free(document), free(begin), free(bin), free(dir);
	}
}

/* A clip renamed in its source itself (Walker.xml's take Idle, no
 * sidecar): the configure step ran again, and every later Ninja build
 * failed, its rule's old depfile naming Idle.xnb, an output the rule no
 * longer declared.  The depfile is named by the outputs too. */
static void a_clip_renamed_in_its_source_builds(void **state)
{
	char *dir = assets_project("cmake-renamed", "art", "");
	char *bin = test_format("%s/bin", dir), *art = test_format("%s/art", dir);
	char *walker = test_format("%s/Walker.xml", art), *rest = test_format("%s/content/Walker/Rest.xnb", bin);
	test_run r;
	size_t size;
	char *text, *at;

	(void)state;
	assert_int_equal(mkdir(art, 0777), 0);
	r = test_exec("cp", "testdata/authoring/Walker.xml", art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	configure_assets(dir);
	test_run_release((r = build(bin), &r));
	text = (char *)test_read_file(walker, &size);
	at = strstr(text, "<Key>Idle</Key>");
	assert_non_null(at);
	memcpy(at + 5, "Rest", 4);
	assert_true(test_write_file(walker, text, size));
	free(text);
	touch_later(walker);
	test_run_release((r = build(bin), &r));
	assert_true(test_file_exists(rest));
	expect_settled(bin);
	free(rest), free(walker), free(art), free(bin), free(dir);
}

/* A folder holding one name with '[' or ']': CMake's lists do not split
 * inside brackets, so the whole folder became one path that is not there,
 * and no file of it had a rule, with no message.  The configure step now
 * fails, naming the file. */
static void a_bracket_in_a_name_is_refused_at_configure(void **state)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	char *dir = assets_project("cmake-bracket", "art", ""), *art = test_format("%s/art", dir);
	char *prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real), *bin = test_format("%s/bin", dir);
	test_run r;

	(void)state;
	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	r = test_exec("sh", "-c", "mkdir -p \"$0\" && cp testdata/sample/Crane/Wave.Animation \"$0/z.Animation\" && "
			    "cp testdata/sample/Crane/Turn.Animation \"$0/a]b.Animation\"", art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cmake", "-S", dir, "-B", bin, "-G", "Ninja", prefix, NULL);
	if (r.status == 0 || !strstr(r.err, "a]b.Animation") || !strstr(r.err, "names holding '[' or ']'"))
		fail_msg("cmake: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(bin), free(prefix), free(art), free(dir), free(stage_real), free(stage);
}

/* A glTF that holds no animation at configure time (a model, a file
 * before its first animation) in a folder: it was no configure
 * dependency, so once an animation was added to it every build said "no
 * work to do" and its clip was never built. */
static void a_clip_added_to_a_model_is_built(void **state)
{
	char *dir = assets_project("cmake-model", "art", ""), *bin = test_format("%s/bin", dir);
	char *model = test_format("%s/art/hero.gltf", dir), *kick = test_format("%s/content/hero/kick.xnb", bin);
	static const char empty[] = "{\"asset\": {\"version\": \"2.0\"}}\n";
	test_run r;

	(void)state;
	fill_art(dir);
	assert_true(test_write_file(model, empty, strlen(empty)));
	configure_assets(dir);
	test_run_release((r = build(bin), &r));
	assert_false(test_file_exists(kick));
	r = test_exec("cp", "testdata/gltf/skin.gltf", model, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	touch_later(model);
	test_run_release((r = build(bin), &r));
	assert_true(test_file_exists(kick));
	expect_settled(bin);
	free(kick), free(model), free(bin), free(dir);
}

/* A SOURCES file that fails at configure time for want of another file
 * (its glTF's buffer, not there yet): once the buffer came, its rule built
 * it and nothing configured again, so an edit of the buffer (in no
 * dependency of that rule) rebuilt nothing, ever.  Its success now re-runs
 * the configure step, and the source gets its outputs and depfile. */
static void a_source_fixed_by_another_file_is_tracked(void **state)
{
	char *dir = assets_project("cmake-fixed", "art/external.gltf", ""), *bin = test_format("%s/bin", dir);
	char *buffer = test_format("%s/art/wag data.bin", dir), *ninja = test_format("%s/build.ninja", bin);
	test_run r;

	(void)state;
	fill_art(dir);
	assert_int_equal(unlink(buffer), 0);
	configure_assets_warning(dir, "compiled:");
	r = test_exec("cmake", "--build", bin, NULL);
	assert_int_not_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cp", "testdata/gltf/wag data.bin", buffer, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_run_release((r = build(bin), &r));
	test_run_release((r = build(bin), &r));
	char *rules = (char *)test_read_file(ninja, NULL);
	assert_non_null(strstr(rules, "content/external/wag.xnb"));
	free(rules);
	/* An edit of the buffer rebuilds its glTF, and the build settles. */
	touch_later(buffer);
	r = build(bin);
	assert_int_equal(count(r.out, "animc art/external.gltf"), 1);
	test_run_release(&r);
	expect_settled(bin);
	free(ninja), free(buffer), free(bin), free(dir);
}

/* A folder in SOURCES whose --skeleton model cannot be read at configure
 * time, or a misspelt option: every file failed alone and the folder
 * build failed naming none of them, so each was taken for a file it
 * leaves out.  No rule, no message, a build that "succeeded" writing
 * nothing, for ever.  The build now fails with animc's message, and once
 * the model is there it builds and the next build configures again. */
static void a_folder_whose_options_fail_fails_the_build(void **state)
{
	char *dir = assets_project("cmake-no-model", "art", "--skeleton model/Crane.x"), *bin = test_format("%s/bin", dir);
	char *turn = test_format("%s/content/Turn.xnb", bin), *ninja = test_format("%s/build.ninja", bin);
	test_run r;

	(void)state;
	r = test_exec("sh", "-c", "mkdir -p \"$0/art\" \"$0/model\" && cp testdata/sample/Crane/Turn.Animation "
			    "testdata/sample/Crane/Idle.Animation \"$0/art/\"", dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	configure_assets_warning(dir, "compiled:");
	r = test_exec("cmake", "--build", bin, NULL);
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.out, "model/Crane.x: error: cannot open"));
	test_run_release(&r);
	assert_false(test_file_exists(turn));
	r = test_exec("sh", "-c", "cp testdata/sample/Crane/Crane.x \"$0/model/\"", dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_run_release((r = build(bin), &r));
	assert_true(test_file_exists(turn));
	test_run_release((r = build(bin), &r));
	char *rules = (char *)test_read_file(ninja, NULL);
	assert_non_null(strstr(rules, "content/Idle.xnb"));
	free(rules);
	expect_settled(bin);
	free(ninja), free(turn), free(bin), free(dir);

	/* A misspelt option: the build fails, saying so. */
	dir = assets_project("cmake-misspelt", "art", "--platfrom d"), bin = test_format("%s/bin", dir);
	r = test_exec("sh", "-c", "mkdir -p \"$0/art\" && cp testdata/sample/Crane/Turn.Animation \"$0/art/\"", dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	configure_assets_warning(dir, "compiled:");
	r = test_exec("cmake", "--build", bin, NULL);
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.out, "unknown option '--platfrom'"));
	test_run_release(&r);
	free(bin), free(dir);
}

/* A STEM_Anims.xml sidecar copied in beside a file named in SOURCES
 * splits it, as animc build FILE sees it: it was a configure dependency
 * only when there, so the build said "no work to do" and kept the
 * unsplit clip. */
static void a_sidecar_added_beside_a_source_splits_it(void **state)
{
	char *dir = assets_project("cmake-sidecar-added", "art/Walker.xml", ""), *bin = test_format("%s/bin", dir);
	char *run = test_format("%s/content/Walker/Run.xnb", bin), *art = test_format("%s/art", dir);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(art, 0777), 0);
	r = test_exec("cp", "testdata/authoring/Walker.xml", art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	configure_assets(dir);
	test_run_release((r = build(bin), &r));
	assert_false(test_file_exists(run));
	r = test_exec("cp", "testdata/authoring/Walker_Anims.xml", art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_run_release((r = build(bin), &r));
	assert_true(test_file_exists(run));
	expect_settled(bin);
	free(art), free(run), free(bin), free(dir);
}

/* A glTF whose one clip is named like the file lands in a folder of that
 * name (kick/kick.xnb): taken for a source of one output named by the
 * file, it was no configure dependency, so a clip renamed (or added) in
 * it was never an output, and every later Ninja build failed on its
 * depfile or ran it again. */
static void a_clip_named_like_its_file_can_be_renamed(void **state)
{
	char *dir = assets_project("cmake-kick", "art", ""), *bin = test_format("%s/bin", dir);
	char *art = test_format("%s/art", dir), *kick = test_format("%s/kick.gltf", art);
	char *kick2 = test_format("%s/content/kick/kick2.xnb", bin);
	test_run r;
	size_t size;

	(void)state;
	assert_int_equal(mkdir(art, 0777), 0);
	r = test_exec("cp", "testdata/gltf/skin.gltf", kick, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	configure_assets(dir);
	test_run_release((r = build(bin), &r));
	char *text = (char *)test_read_file(kick, &size), *at = strstr(text, "\"name\": \"kick\"");
	assert_non_null(at);
	char *renamed = test_format("%.*s\"name\": \"kick2\"%s", (int)(at - text), text, at + 14);
	assert_true(test_write_file(kick, renamed, strlen(renamed)));
	free(renamed), free(text);
	touch_later(kick);
	test_run_release((r = build(bin), &r));
	assert_true(test_file_exists(kick2));
	expect_settled(bin);
	free(kick2), free(kick), free(art), free(bin), free(dir);
}

/* OPTIONS changed so that a source writes other files (its take cut by
 * --split): the take's old output stayed in OUTPUT_DIR beside the parts,
 * and a package installing the folder shipped it.  Each rule prunes: the
 * outputs its source no longer writes go, another source's stay. */
static void outputs_dropped_by_new_options_are_removed(void **state)
{
	char *dir = assets_project("cmake-options-changed", "art/Walker.xml art/Runner.xml", "--platform d");
	char *bin = test_format("%s/bin", dir), *art = test_format("%s/art", dir);
	char *list = test_format("%s/CMakeLists.txt", dir), *runner = test_format("%s/Runner.xml", art);
	static const char *const gone[] = { "Walker/Take 001.xnb", "Runner/Take 001.xnb" };
	static const char *const kept[] = { "Walker/Start.xnb", "Walker/Idle.xnb", "Runner/Start.xnb",
					    "Runner/Idle.xnb" };
	test_run r;

	(void)state;
	assert_int_equal(mkdir(art, 0777), 0);
	r = test_exec("sh", "-c", "cp testdata/authoring/Walker.xml \"$0\" && cp testdata/authoring/Walker.xml "
			    "\"$0/Runner.xml\"", art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	configure_assets(dir);
	test_run_release((r = build(bin), &r));
	for (size_t i = 0; i < 2; i++) {
		char *path = test_format("%s/content/%s", bin, gone[i]);

		if (!test_file_exists(path))
			fail_msg("%s: not written", path);
		free(path);
	}
	/* The take cut into a part: the rules' commands change. */
	char *text = test_format("cmake_minimum_required(VERSION 3.20)\nproject(assets NONE)\n"
				 "find_package(animc REQUIRED)\n"
				 "animc_add_assets(clips OUTPUT_DIR content SOURCES art/Walker.xml art/Runner.xml "
				 "OPTIONS --platform d --split \"Take 001/Start=0f:8f\")\n");
	assert_true(test_write_file(list, text, strlen(text)));
	free(text);
	touch_later(list);
	test_run_release((r = build(bin), &r));
	for (size_t i = 0; i < 2; i++) {
		char *path = test_format("%s/content/%s", bin, gone[i]);

		if (test_file_exists(path))
			fail_msg("%s: still there, though no source writes it", path);
		free(path);
	}
	/* One source built again alone prunes nothing of the other's. */
	touch_later(runner);
	test_run_release((r = build(bin), &r));
	for (size_t i = 0; i < 4; i++) {
		char *path = test_format("%s/content/%s", bin, kept[i]);

		if (!test_file_exists(path))
			fail_msg("%s: not there", path);
		free(path);
	}
	expect_settled(bin);
	free(runner), free(list), free(art), free(bin), free(dir);
}

/*
 * animc replaced by an install that keeps the package's old mtimes (a
 * package manager unpacks them): animc was no newer than the outputs, and
 * every build after it ran no rule, leaving the outputs the animc before
 * wrote.  The build marker the install puts beside the package has another
 * name: the build configures again, and every rule runs once, then settles
 * (with the Makefiles generator too, whose rules ran on every build while
 * the outputs animc kept were older than the stamp of its version).
 */
static void an_install_keeping_old_mtimes_with(const char *generator, const char *name)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	char *dir = assets_project(name, "art", ""), *bin = test_format("%s/bin", dir);
	char *usr = test_format("%s/usr", dir), *prefix;
	test_run r;

	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	r = test_exec("sh", "-c", "cp -a \"$1\" \"$2/usr\" && cp -r testdata/sample/Crane \"$2/art\"", "sh",
		      stage_real, dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *usr_real = realpath(usr, NULL);
	assert_non_null(usr_real);
	free(usr);
	usr = usr_real;
	prefix = test_format("-DCMAKE_PREFIX_PATH=%s", usr);
	r = test_exec("cmake", "-S", dir, "-B", bin, "-G", generator, prefix, NULL);
	if (r.status != 0)
		fail_msg("cmake: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = build(bin);
	size_t rules = count(r.out, "animc art/");
	assert_true(rules >= 4);
	test_run_release(&r);
	r = build(bin);
	assert_int_equal(count(r.out, "animc art/"), 0);
	test_run_release(&r);
	/* The upgrade: another animc (one that says another version), its
	 * marker, both with the mtimes of long ago. */
	r = test_exec("sh", "-c", "cd \"$1\" && mv bin/animc bin/animc.real && "
		      "printf '#!/bin/sh\\ncase \"$1\" in --version) echo \"animc 9.9.9 next\"; exit 0;; esac\\n"
		      "exec \"$0.real\" \"$@\"\\n' > bin/animc && chmod +x bin/animc && "
		      "rm -f lib/cmake/animc/*.build && echo 'animc 9.9.9 next' > lib/cmake/animc/animc-9.9.9-next.build && "
		      "touch -d 2000-01-01 bin/animc lib/cmake/animc/*.build", "sh", usr, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = build(bin);
	assert_int_equal(count(r.out, "animc art/"), rules);
	test_run_release(&r);
	r = build(bin);
	assert_int_equal(count(r.out, "animc art/"), 0);
	test_run_release(&r);
	free(prefix), free(usr), free(bin), free(dir), free(stage_real), free(stage);
}

static void an_install_keeping_old_mtimes_runs_every_rule_once(void **state)
{
	(void)state;
	an_install_keeping_old_mtimes_with("Ninja", "cmake-old-mtimes-ninja");
	an_install_keeping_old_mtimes_with("Unix Makefiles", "cmake-old-mtimes-make");
}

/* Two folders in SOURCES holding one name (a1/Walk.Animation and
 * a2/Walk.Animation, both content/Walk.xnb): the second was taken for a
 * sidecar of the first and dropped, with no message.  The configure step
 * fails naming both, as animc build refuses the clash. */
static void two_sources_of_one_output_are_refused(void **state)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	char *dir = assets_project("cmake-clash", "a1 a2", ""), *bin = test_format("%s/bin", dir);
	char *prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real);
	test_run r;

	(void)state;
	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	r = test_exec("sh", "-c", "mkdir \"$0/a1\" \"$0/a2\" && cp testdata/sample/Crane/Turn.Animation "
			    "\"$0/a1/Walk.Animation\" && cp testdata/sample/Crane/Idle.Animation \"$0/a2/Walk.Animation\"",
		      dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cmake", "-S", dir, "-B", bin, "-G", "Ninja", prefix, NULL);
	char *err = unfolded(r.err);
	if (r.status == 0 || !strstr(err, "a2/Walk.Animation: its output") ||
	    !strstr(err, "content/Walk.xnb is the output of") || !strstr(err, "a1/Walk.Animation too"))
		fail_msg("cmake: exit %d\n%s%s", r.status, r.out, r.err);
	free(err);
	test_run_release(&r);
	free(prefix), free(bin), free(dir), free(stage_real), free(stage);
}

/* One file given two rules into one OUTPUT_DIR (the folder art and its
 * file art/sub/Turn.Animation; two calls whose folders overlap): each
 * rule's animc build --prune removed the other's output, so every build
 * ran a rule and left a declared output missing.  The configure step
 * fails naming the file and both entries. */
static void one_file_in_two_rules_is_refused(void **state)
{
	static const char *const lists[] = {
		"animc_add_assets(clips OUTPUT_DIR content SOURCES art art/sub/Turn.Animation)\n",
		"animc_add_assets(clips OUTPUT_DIR content SOURCES art)\n"
		"animc_add_assets(more OUTPUT_DIR content SOURCES art/sub)\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		char *dir = assets_project(i ? "cmake-twice-calls" : "cmake-twice", "art", "");
		char *list = test_format("%s/CMakeLists.txt", dir);
		char *text = test_format("cmake_minimum_required(VERSION 3.20)\nproject(assets NONE)\n"
					 "find_package(animc REQUIRED)\n%s", lists[i]);
		test_run r;

		assert_true(test_write_file(list, text, strlen(text)));
		test_sh("mkdir -p '%s/art/sub' && cp testdata/sample/Crane/Turn.Animation '%s/art/sub/' && "
			"cp testdata/sample/Crane/Idle.Animation '%s/art/'", dir, dir, dir);
		r = configure_assets_run(dir);
		char *err = unfolded(r.err);
		if (r.status == 0 || !strstr(err, "art/sub/Turn.Animation is given a rule into") ||
		    !strstr(err, "twice: by") || !strstr(err, "each rule would remove the other's output"))
			fail_msg("cmake (%zu): exit %d\n%s%s", i, r.status, r.out, r.err);
		free(err);
		test_run_release(&r);
		free(text), free(list), free(dir);
	}
}

/* A build folder whose path a rule cannot carry ('=' and the like, which
 * the depfile names every output by): the configure step passed, then
 * every build failed asking to rename an output that is no file of the
 * user's.  The configure step now fails naming OUTPUT_DIR; an OUTPUT_DIR
 * elsewhere is used. */
static void an_output_dir_a_rule_cannot_carry_is_refused(void **state)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *stage = test_format("%s/cmake-stage/usr", build_dir), *stage_real = realpath(stage, NULL);
	char *dir = assets_project("cmake-bad-bin", "art", ""), *bin = test_format("%s/b=1", dir);
	char *prefix = test_format("-DCMAKE_PREFIX_PATH=%s", stage_real);
	test_run r;

	(void)state;
	if (!stage_real)
		fail_msg("%s: no staged install (make test runs make install DESTDIR=...)", stage);
	test_sh("mkdir -p '%s/art' && cp testdata/sample/Crane/Turn.Animation '%s/art/'", dir, dir);
	r = test_exec("cmake", "-S", dir, "-B", bin, "-G", "Ninja", prefix, NULL);
	char *err = unfolded(r.err), *want = test_format("OUTPUT_DIR %s", "/");
	if (r.status == 0 || !strstr(err, want) || !strstr(err, "/cmake-bad-bin/b=1/content holds one of") ||
	    !strstr(err, "(animc --depfile refuses it)"))
		fail_msg("cmake: exit %d\n%s%s", r.status, r.out, r.err);
	free(want), free(err);
	test_run_release(&r);
	free(prefix), free(bin), free(dir), free(stage_real), free(stage);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(example_builds_with_ninja),
	cmocka_unit_test(example_builds_with_makefiles),
	cmocka_unit_test(the_runtime_package_has_the_runtimes_version),
	cmocka_unit_test(the_version_files_follow_cmakes_rules),
	cmocka_unit_test(one_runtime_per_project),
	cmocka_unit_test(names_a_rule_cannot_carry_are_refused),
	cmocka_unit_test(lone_files_a_rule_cannot_carry_are_refused),
	cmocka_unit_test(a_folder_holding_linked_folders_builds),
	cmocka_unit_test(cuts_with_a_folder_are_refused_at_configure),
	cmocka_unit_test(a_folder_builds_what_a_folder_build_compiles),
	cmocka_unit_test(a_part_renamed_in_a_sidecar_is_an_output),
	cmocka_unit_test(a_clip_renamed_in_its_source_builds),
	cmocka_unit_test(a_bracket_in_a_name_is_refused_at_configure),
	cmocka_unit_test(a_clip_added_to_a_model_is_built),
	cmocka_unit_test(a_source_fixed_by_another_file_is_tracked),
	cmocka_unit_test(a_folder_whose_options_fail_fails_the_build),
	cmocka_unit_test(a_sidecar_added_beside_a_source_splits_it),
	cmocka_unit_test(a_clip_named_like_its_file_can_be_renamed),
	cmocka_unit_test(two_sources_of_one_output_are_refused),
	cmocka_unit_test(one_file_in_two_rules_is_refused),
	cmocka_unit_test(an_output_dir_a_rule_cannot_carry_is_refused),
	cmocka_unit_test(outputs_dropped_by_new_options_are_removed),
	cmocka_unit_test(an_install_keeping_old_mtimes_runs_every_rule_once),
};

ANIMC_TEST_GROUP(tests);
