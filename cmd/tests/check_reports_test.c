/*
 * check_reports_test.c - scripts/check-reports takes SCHEMA REPORT [JUNIT];
 * arguments in another order, or too few, give its usage and exit 2, not a
 * check that fails on the wrong file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define SCHEMA "lib/build/report.schema.json"

static test_run check(const char *a, const char *b, const char *c, const char *d)
{
	return test_exec("python3", "scripts/check-reports", a, b, c, d, NULL);
}

static void check_reports_prints_its_usage_on_wrong_arguments(void **state)
{
	(void)state;
	char *dir = test_tmpdir("check-reports");
	char *report = test_format("%s/r.json", dir), *junit = test_format("%s/j.xml", dir);
	char *out = test_format("%s/out", dir);
	test_run r = test_animc("build", "-q", "--report", report, "--junit", junit, "-o", out,
				"testdata/sample/Crane/Turn.Animation", NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* The right order passes. */
	r = check(SCHEMA, report, junit, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "ok\n");
	test_run_release(&r);
	/* The orders a user guesses, and no arguments: usage on stderr, exit 2. */
	const char *wrong[][4] = {
		{ report, junit, NULL, NULL },           /* no schema */
		{ report, SCHEMA, junit, NULL },
		{ SCHEMA, junit, report, NULL },
		{ junit, report, SCHEMA, NULL },
		{ SCHEMA, NULL, NULL, NULL },
		{ NULL, NULL, NULL, NULL },
		{ SCHEMA, report, junit, junit },
		{ SCHEMA, "no/such/report.json", NULL, NULL },
	};
	for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
		r = check(wrong[i][0], wrong[i][1], wrong[i][2], wrong[i][3]);
		if (r.status != 2 || !strstr(r.err, "usage: scripts/check-reports SCHEMA REPORT [JUNIT]"))
			fail_msg("case %zu: exit %d, want 2 and the usage\n%s%s", i, r.status, r.out, r.err);
		assert_string_equal(r.out, "");
		test_run_release(&r);
	}
	r = check("--help", NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: "));
	test_run_release(&r);
	free(out);
	free(junit);
	free(report);
	free(dir);
}

/* A source named with a control character: the JUnit file writes it as
 * \x01 (XML cannot hold it), the report as it is; the check reads both
 * forms as one (it called them a mismatch). */
static void check_reports_reads_control_characters_in_either_form(void **state)
{
	char *dir = test_tmpdir("check-reports-ctl"), *src = test_format("%s/a\001b.Animation", dir);
	char *report = test_format("%s/r.json", dir), *junit = test_format("%s/j.xml", dir);
	char *out = test_format("%s/out", dir);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, bytes, size));
	free(bytes);
	r = test_animc("build", "-q", "--report", report, "--junit", junit, "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = check(SCHEMA, report, junit, NULL);
	if (r.status != 0)
		fail_msg("%s%s", r.out, r.err);
	assert_string_equal(r.out, "ok\n");
	test_run_release(&r);
	free(out), free(junit), free(report), free(src), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(check_reports_reads_control_characters_in_either_form),
	cmocka_unit_test(check_reports_prints_its_usage_on_wrong_arguments),
};

ANIMC_TEST_GROUP(tests);
