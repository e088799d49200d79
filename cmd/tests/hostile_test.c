/*
 * hostile_test.c - every file in testdata/hostile gives the status and the
 * error position testdata/hostile/expected.txt records, through the library;
 * and through `animc build`, exit status 1 with no output and no temporary
 * file left.  Deep nesting is generated here rather than stored.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc_formats.h>
#include "test_support.h"

#define HOSTILE "testdata/hostile"

static void each_file_fails_as_recorded(void **state)
{
	char *expected = (char *)test_read_file(HOSTILE "/expected.txt", NULL);
	char **files = test_list_dir(HOSTILE, NULL);
	size_t listed = 0, present = 0;

	(void)state;
	for (char *line = strtok(expected, "\n"); line; line = strtok(NULL, "\n")) {
		char file[128], status_name[32], where[32];
		unsigned want_line;
		char col_text[16];
		test_diags diags = { 0 };

		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%127s %31s %31s", file, status_name, where), 3);
		assert_int_equal(sscanf(where, "%u:%15s", &want_line, col_text), 2);
		char *path = test_format("%s/%s", HOSTILE, file);
		animc_status got = test_compile_file(path, &diags, NULL);
		const test_diag *e = test_diags_first(&diags, ANIMC_ERROR);

		if (got != test_status_named(status_name))
			fail_msg("%s: status %s, expected %s (%s)", file, animc_status_string(got), status_name,
				 e ? e->message : "no error reported");
		assert_non_null(e);
		if (e->line != want_line)
			fail_msg("%s: first error at line %u, expected %u: %s", file, e->line, want_line,
				 e->message);
		if (strcmp(col_text, "*") != 0 && e->column != (uint32_t)atoi(col_text))
			fail_msg("%s: first error at column %u, expected %s", file, e->column, col_text);
		test_diags_release(&diags);
		free(path);
		listed++;
	}
	for (char **p = files; *p; p++)
		if (strcmp(*p, "expected.txt") != 0 && strcmp(*p, "README.md") != 0)
			present++;
	/* A file without an expectation would go unchecked. */
	assert_int_equal(listed, present);
	test_free_list(files);
	free(expected);
}

static void cli_fails_each_without_output(void **state)
{
	char *in = test_tmpdir("hostile-in"), *out = test_tmpdir("hostile-out");
	char *cmd = test_format("cp " HOSTILE "/*.Animation %s/", in);
	char *deep = test_format("%s/deep-nesting.Animation", in);
	FILE *fp;

	(void)state;
	assert_int_equal(system(cmd), 0);
	fp = fopen(deep, "w");
	assert_non_null(fp);
	fputs("<?xml version=\"1.0\"?>\n<AnimationSequence>", fp);
	for (int i = 0; i < 200000; i++)
		fputs("<KeyFrameSequences>", fp);
	fclose(fp);
	test_run r = test_animc("build", "-o", out, in, NULL);
	char **inputs = test_list_dir(in, ".Animation");
	size_t n = 0;

	while (inputs[n])
		n++;
	assert_int_equal(r.status, 1);
	char *summary = test_format("compiled 0 sources (0 clips), %zu failed, 0 skipped", n);
	assert_non_null(strstr(r.out, summary));
	assert_int_equal(test_count_files(out), 0);
	/* Every line on stderr is a diagnostic (nothing a library printed on
	 * its own), and every failure names its file. */
	regex_t re;
	assert_int_equal(regcomp(&re, "^[^ ]+\\.Animation(:[0-9]+(:[0-9]+)?)?: (error|warning|note): ",
				 REG_EXTENDED | REG_NOSUB), 0);
	char *errs = strdup(r.err);
	for (char *line = strtok(errs, "\n"); line; line = strtok(NULL, "\n"))
		if (regexec(&re, line, 0, NULL, 0) != 0)
			fail_msg("stderr line is not a diagnostic: %s", line);
	free(errs);
	regfree(&re);
	for (size_t i = 0; i < n; i++) {
		char *prefix = test_format("%s: ", inputs[i]);
		char *with_line = test_format("%s:", inputs[i]);

		if (!strstr(r.err, prefix) && !strstr(r.err, with_line))
			fail_msg("no diagnostic names %s", inputs[i]);
		free(prefix);
		free(with_line);
	}
	free(summary);
	test_free_list(inputs);
	test_run_release(&r);
	free(deep);
	free(cmd);
	free(in);
	free(out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(each_file_fails_as_recorded),
	cmocka_unit_test(cli_fails_each_without_output),
};

ANIMC_TEST_GROUP(tests);
