/*
 * golden_test.c - each input in testdata/golden compiles, in the default and
 * the exact mode, to the dumps recorded beside it (scripts/regen-golden
 * writes those; a reviewer reads their diff).  Inputs are NAME.Animation or
 * NAME.xml.  A single-clip source has NAME.json and NAME.exact.json; a
 * source of named clips has one dump per clip, NAME/CLIP.json and
 * NAME.exact/CLIP.json; NAME.exact.fails says --exact must refuse it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define GOLDEN "testdata/golden"

static const char *const input_suffixes[] = { ".Animation", ".xml" };

/* The dumps to compare, gathered while compiling and run in one `animc
 * batch` at the end (a process start costs more than a dump). */
typedef struct pending_dump {
	char *what;        /* "NAME (mode)" */
	char *xnb, *want_json;
} pending_dump;

typedef struct pending_dumps {
	pending_dump items[256];
	size_t count;
} pending_dumps;

static void compare_dump(pending_dumps *p, const char *name, bool exact, const char *xnb,
			 const char *want_json)
{
	if (!test_file_exists(want_json))
		fail_msg("%s (%s): %s has no recorded dump %s; run `make golden` and review the diff",
			 name, exact ? "exact" : "default", xnb, want_json);
	assert_true(p->count < sizeof p->items / sizeof p->items[0]);
	p->items[p->count].what = test_format("%s (%s)", name, exact ? "exact" : "default");
	p->items[p->count].xnb = strdup(xnb);
	p->items[p->count].want_json = strdup(want_json);
	p->count++;
}

/* Dump every pending file and compare each with its recording.  A dump
 * ends with a line "}"; the next one starts after it. */
static void run_dumps(pending_dumps *p, const char *dir)
{
	char *requests = test_format("%s/requests", dir);
	const char *argv[] = { test_animc_path(), "batch", NULL };
	size_t size = 0, used = 0;
	char *text = NULL, *at;
	test_run r;

	for (size_t i = 0; i < p->count; i++)
		size += strlen(p->items[i].xnb) + 16;
	text = malloc(size + 1);
	assert_non_null(text);
	for (size_t i = 0; i < p->count; i++)
		used += (size_t)sprintf(text + used, "dump\t--json\t%s\n", p->items[i].xnb);
	assert_true(test_write_file(requests, text, used));
	free(text);
	r = test_execv_stdin(argv, requests);
	assert_int_equal(r.status, 0);
	at = r.out;
	for (size_t i = 0; i < p->count; i++) {
		char *want = (char *)test_read_file(p->items[i].want_json, NULL);
		char *end = strstr(at, "\n}\n");

		if (!end)
			fail_msg("%s: animc batch printed %zu dumps for %zu files", p->items[i].what, i,
				 p->count);
		end += 3;
		if ((size_t)(end - at) != strlen(want) || memcmp(at, want, strlen(want)) != 0)
			fail_msg("%s: dump differs from %s; if the change is intended, run "
				 "`make golden` and review the diff", p->items[i].what, p->items[i].want_json);
		at = end;
		free(want);
		free(p->items[i].what);
		free(p->items[i].xnb);
		free(p->items[i].want_json);
	}
	assert_string_equal(at, "");
	p->count = 0;
	test_run_release(&r);
	free(requests);
}

/* Compile `src` in a mode and compare every clip's dump with the recorded one. */
static void check(pending_dumps *p, const char *name, const char *src, bool exact, const char *out)
{
	const char *mode = exact ? ".exact" : "";
	char *want_fail = test_format("%s/%s.exact.fails", GOLDEN, name);
	char *xnb = test_format("%s/%s.xnb", out, name);
	char *clip_dir = test_format("%s/%s", out, name);
	bool must_fail = exact && test_file_exists(want_fail);
	test_run r = exact ? test_animc("build", "-q", "--exact", "-o", out, src, NULL)
			   : test_animc("build", "-q", "-o", out, src, NULL);

	if (must_fail) {
		char *want_json = test_format("%s/%s.exact.json", GOLDEN, name);
		char *want_dir = test_format("%s/%s.exact", GOLDEN, name);

		assert_false(test_file_exists(want_json));
		assert_false(test_file_exists(want_dir));
		assert_int_equal(r.status, 1);
		assert_false(test_file_exists(xnb));
		assert_false(test_file_exists(clip_dir));
		free(want_json);
		free(want_dir);
	} else if (r.status != 0) {
		fail_msg("%s (%s): exit %d: %s", name, exact ? "exact" : "default", r.status, r.err);
	} else if (test_file_exists(xnb)) {
		char *want_json = test_format("%s/%s%s.json", GOLDEN, name, mode);

		compare_dump(p, name, exact, xnb, want_json);
		free(want_json);
	} else {
		/* Named clips: one output per clip, one recorded dump per output. */
		char *want_dir = test_format("%s/%s%s", GOLDEN, name, mode);
		char **clips = test_list_dir(clip_dir, ".xnb");
		char **wanted = test_list_dir(want_dir, ".json");
		size_t n = 0, n_wanted = 0;

		for (; clips[n]; n++) {
			char *clip_xnb = test_format("%s/%s", clip_dir, clips[n]);
			char *want_json;

			clips[n][strlen(clips[n]) - strlen(".xnb")] = '\0';
			want_json = test_format("%s/%s.json", want_dir, clips[n]);
			compare_dump(p, name, exact, clip_xnb, want_json);
			free(want_json);
			free(clip_xnb);
		}
		while (wanted[n_wanted])
			n_wanted++;
		if (n != n_wanted || n == 0)
			fail_msg("%s (%s): %zu clips compiled, %zu recorded in %s", name,
				 exact ? "exact" : "default", n, n_wanted, want_dir);
		test_free_list(clips);
		test_free_list(wanted);
		free(want_dir);
	}
	test_run_release(&r);
	free(want_fail);
	free(xnb);
	free(clip_dir);
}

static void golden_dumps_match(void **state)
{
	char *out = test_tmpdir("golden"), *out_exact = test_tmpdir("golden-exact");
	pending_dumps *pending = calloc(1, sizeof *pending);
	size_t n = 0;

	(void)state;
	for (size_t s = 0; s < sizeof input_suffixes / sizeof input_suffixes[0]; s++) {
		char **inputs = test_list_dir(GOLDEN, input_suffixes[s]);

		for (char **p = inputs; *p; p++, n++) {
			char *src = test_format("%s/%s", GOLDEN, *p);

			(*p)[strlen(*p) - strlen(input_suffixes[s])] = '\0';
			check(pending, *p, src, false, out);
			check(pending, *p, src, true, out_exact);
			free(src);
		}
		test_free_list(inputs);
	}
	assert_true(n >= 14);
	run_dumps(pending, out);
	free(pending);
	free(out);
	free(out_exact);
}

/* The compact layout: each single-clip RobotGame input of testdata/golden and
 * testdata/compact compiles with --layout compact to the dump recorded in
 * testdata/golden/compact/NAME.json. */
static void golden_compact_dumps_match(void **state)
{
	static const char *const dirs[] = { GOLDEN, "testdata/compact" };
	char *out = test_tmpdir("golden-compact");
	pending_dumps *pending = calloc(1, sizeof *pending);
	size_t n = 0;

	(void)state;
	for (size_t d = 0; d < 2; d++) {
		char **inputs = test_list_dir(dirs[d], ".Animation");

		for (char **p = inputs; *p; p++, n++) {
			char *src = test_format("%s/%s", dirs[d], *p);
			test_run r = test_animc("build", "-q", "--layout", "compact", "-o", out, src, NULL);

			if (r.status != 0)
				fail_msg("%s (compact): exit %d: %s", *p, r.status, r.err);
			(*p)[strlen(*p) - strlen(".Animation")] = '\0';
			char *xnb = test_format("%s/%s.xnb", out, *p);
			char *want = test_format("%s/compact/%s.json", GOLDEN, *p);
			compare_dump(pending, *p, false, xnb, want);
			free(xnb);
			free(want);
			free(src);
			test_run_release(&r);
		}
		test_free_list(inputs);
	}
	assert_true(n >= 9);
	run_dumps(pending, out);
	free(pending);
	free(out);
}

/* Every recorded file or folder belongs to an input (no stale expectations). */
static void no_orphan_expectations(void **state)
{
	char **files = test_list_dir(GOLDEN, NULL);

	(void)state;
	for (char **p = files; *p; p++) {
		char *dot = strchr(*p, '.');
		bool found = false;

		if (dot)
			*dot = '\0';
		if (strcmp(*p, "compact") == 0)
			continue;   /* golden_compact_dumps_match reads it */
		for (size_t s = 0; s < sizeof input_suffixes / sizeof input_suffixes[0]; s++) {
			char *src = test_format("%s/%s%s", GOLDEN, *p, input_suffixes[s]);

			found |= test_file_exists(src);
			free(src);
		}
		if (!found)
			fail_msg("%s/%s* has no input %s/%s.Animation or .xml", GOLDEN, *p, GOLDEN, *p);
	}
	test_free_list(files);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(golden_compact_dumps_match),
	cmocka_unit_test(golden_dumps_match),
	cmocka_unit_test(no_orphan_expectations),
};

ANIMC_TEST_GROUP(tests);
