/*
 * golden_test.c - each input in testdata/golden compiles, in the default and
 * the exact mode, to the dump recorded beside it (scripts/regen-golden
 * writes those; a reviewer reads their diff).
 */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define GOLDEN "testdata/golden"

/* Compile `name` in a mode and compare its dump with the recorded one. */
static void check(const char *name, bool exact, const char *out)
{
	char *src = test_format("%s/%s.Animation", GOLDEN, name);
	char *want_json = test_format("%s/%s%s.json", GOLDEN, name, exact ? ".exact" : "");
	char *want_fail = test_format("%s/%s.exact.fails", GOLDEN, name);
	char *xnb = test_format("%s/%s.xnb", out, name);
	bool must_fail = exact && test_file_exists(want_fail);
	test_run r = exact ? test_animc("build", "-q", "--exact", "-o", out, src, NULL)
			   : test_animc("build", "-q", "-o", out, src, NULL);

	if (must_fail) {
		assert_false(test_file_exists(want_json));
		assert_int_equal(r.status, 1);
		assert_false(test_file_exists(xnb));
	} else {
		if (r.status != 0)
			fail_msg("%s (%s): exit %d: %s", name, exact ? "exact" : "default", r.status, r.err);
		test_run dump = test_animc("dump", "--json", xnb, NULL);
		char *want = (char *)test_read_file(want_json, NULL);

		assert_int_equal(dump.status, 0);
		if (strcmp(dump.out, want) != 0)
			fail_msg("%s (%s): dump differs from %s; if the change is intended, run "
				 "`make golden` and review the diff", name, exact ? "exact" : "default", want_json);
		free(want);
		test_run_release(&dump);
	}
	test_run_release(&r);
	free(src);
	free(want_json);
	free(want_fail);
	free(xnb);
}

static void golden_dumps_match(void **state)
{
	char **inputs = test_list_dir(GOLDEN, ".Animation");
	char *out = test_tmpdir("golden"), *out_exact = test_tmpdir("golden-exact");
	size_t n = 0;

	(void)state;
	for (char **p = inputs; *p; p++, n++) {
		(*p)[strlen(*p) - strlen(".Animation")] = '\0';
		check(*p, false, out);
		check(*p, true, out_exact);
	}
	assert_true(n >= 7);
	test_free_list(inputs);
	free(out);
	free(out_exact);
}

/* Every recorded file belongs to an input (no stale expectations). */
static void no_orphan_expectations(void **state)
{
	char **files = test_list_dir(GOLDEN, NULL);

	(void)state;
	for (char **p = files; *p; p++) {
		char *dot = strchr(*p, '.');
		char *src;

		assert_non_null(dot);
		*dot = '\0';
		src = test_format("%s/%s.Animation", GOLDEN, *p);
		if (!test_file_exists(src))
			fail_msg("%s/%s.* has no input %s", GOLDEN, *p, src);
		free(src);
	}
	test_free_list(files);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(golden_dumps_match),
	cmocka_unit_test(no_orphan_expectations),
};

ANIMC_TEST_GROUP(group_golden, tests);
