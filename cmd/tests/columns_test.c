/*
 * columns_test.c - the tables of `animc dump` and `animc sample` keep their
 * columns whatever the values (tiny, huge, negative zero, eight digits), say
 * "1 bone" and "2 bones", and `sample` notes on stderr a time that Once
 * holds at an end or Repeat wraps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define UNIFORM "testdata/loader/uniform.xnb"   /* Root, Arm: uniform keys, 1 s */

/* One bone whose values need more than six significant digits or print as
 * -0, with a duration and key interval of 0.96666664 (eight digits). */
static const char narrow_clip[] =
	"<?xml version=\"1.0\" ?>\n"
	"<AnimationSequence>\n"
	"  <KeyFrameSequenceCount>1</KeyFrameSequenceCount>\n"
	"  <Duration>0.96666664</Duration>\n"
	"  <KeyFrameSequences>\n"
	"    <KeyFrameSequence>\n"
	"      <BoneName>Root</BoneName>\n"
	"      <KeyCount>1</KeyCount>\n"
	"      <Duration>0.96666664</Duration>\n"
	"      <KeyInterval>0.96666664</KeyInterval>\n"
	"      <HasTranslation>true</HasTranslation>\n"
	"      <HasRotation>true</HasRotation>\n"
	"      <HasScale>true</HasScale>\n"
	"      <HasTime>false</HasTime>\n"
	"      <FixedTranslation>true</FixedTranslation>\n"
	"      <FixedRotation>true</FixedRotation>\n"
	"      <FixedScale>true</FixedScale>\n"
	"      <Translation>\n"
	"        <Vector3><X>0.000157544</X><Y>-0.000000</Y><Z>-123456.789</Z></Vector3>\n"
	"      </Translation>\n"
	"      <Rotation>\n"
	"        <Quaternion><X>-0.000000</X><Y>0.000157544</Y><Z>-0.96666664</Z><W>0.25609</W></Quaternion>\n"
	"      </Rotation>\n"
	"      <Scale>\n"
	"        <Vector3><X>0.96666664</X><Y>0.96666664</Y><Z>-0.000001234567</Z></Vector3>\n"
	"      </Scale>\n"
	"    </KeyFrameSequence>\n"
	"  </KeyFrameSequences>\n"
	"</AnimationSequence>\n";

/* Compile the clip above into a fresh folder; returns its .xnb (malloc()ed). */
static char *compile_narrow(const char *name)
{
	char *dir = test_tmpdir(name);
	char *src = test_format("%s/narrow.Animation", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/narrow.xnb", out);

	assert_true(test_write_file(src, narrow_clip, strlen(narrow_clip)));
	test_run r = test_animc("build", "-q", "--exact", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(src);
	free(out);
	free(dir);
	return xnb;
}

/* The lines of `text` from line `first` on (0-based) up to an empty line
 * all have the length of line `first` (the header), and no
 * whitespace-separated word is "-0". */
static void assert_table_aligned(const char *text, size_t first)
{
	const char *line = text;
	size_t width = 0, rows = 0;

	for (size_t i = 0; i < first && line; i++) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	assert_non_null(line);
	while (*line && *line != '\n') {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (!rows)
			width = len;
		if (len != width)
			fail_msg("row %zu is %zu wide, the header %zu:\n%s", rows, len, width, text);
		for (const char *w = line; w < line + len; w++)
			if ((w == line || w[-1] == ' ') && strncmp(w, "-0", 2) == 0 &&
			    (w[2] == ' ' || w + 2 == line + len))
				fail_msg("\"-0\" printed in row %zu:\n%s", rows, text);
		rows++;
		if (!end)
			break;
		line = end + 1;
	}
	assert_true(rows >= 2);   /* the header and one bone at least */
}

static void dump_table_keeps_its_columns(void **state)
{
	(void)state;
	char *xnb = compile_narrow("columns-dump");
	test_run r = test_animc("dump", xnb, NULL);

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ", 1 sequence\n"));
	assert_table_aligned(r.out, 4);
	test_run_release(&r);
	r = test_animc("dump", UNIFORM, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ", 2 sequences\n"));
	assert_table_aligned(r.out, 4);
	test_run_release(&r);
	free(xnb);
}

static void sample_table_keeps_its_columns(void **state)
{
	(void)state;
	char *xnb = compile_narrow("columns-sample");
	test_run r = test_animc("sample", "--time", "0.5", xnb, NULL);

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ": 1 bone\n"));
	assert_table_aligned(r.out, 1);
	/* Values are rounded to fit, not cut: the translation's z reads back
	 * within a unit, the tiny x within 1e-8. */
	char *row = strstr(r.out, "\n  Root");
	assert_non_null(row);
	double v[10];
	assert_int_equal(sscanf(row + strlen("\n  Root"), "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0],
				&v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]), 10);
	test_assert_near(v[0], 0.000157544, 1e-8);
	test_assert_near(v[2], -123456.789, 1);
	test_assert_near(v[5], -0.96666664, 1e-6);
	test_assert_near(v[9], -0.000001234567, 1e-9);   /* four digits fit */
	test_run_release(&r);
	r = test_animc("sample", "--time", "0.5", UNIFORM, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ": 2 bones\n"));
	assert_table_aligned(r.out, 1);
	test_run_release(&r);
	free(xnb);
}

/* A time inside the clip says nothing on stderr; one past the end (Once)
 * or one Repeat wraps gets a note naming the time it samples. */
static void sample_notes_times_outside_the_clip(void **state)
{
	(void)state;
	test_run inside = test_animc("sample", "--time", "0.25", "--time", "1", UNIFORM, NULL);
	test_run once = test_animc("sample", "--time", "99", UNIFORM, NULL);
	test_run before = test_animc("sample", "--time", "-2", UNIFORM, NULL);
	test_run wraps = test_animc("sample", "--repeat", "--time", "2.25", UNIFORM, NULL);
	test_run json = test_animc("sample", "--json", "--repeat", "--time", "2.25", UNIFORM, NULL);

	assert_int_equal(inside.status | once.status | before.status | wraps.status | json.status, 0);
	assert_string_equal(inside.err, "");
	assert_non_null(strstr(once.err, "99"));
	assert_non_null(strstr(once.err, " 1 s"));     /* the end it holds */
	assert_non_null(strstr(before.err, "-2"));
	assert_non_null(strstr(before.err, " 0 s"));   /* the start it holds */
	assert_non_null(strstr(wraps.err, "2.25"));
	assert_non_null(strstr(wraps.err, " 0.25 s"));  /* where it wraps to */
	assert_string_equal(json.err, wraps.err);
	/* stdout is what it was: the note goes to stderr alone. */
	assert_null(strstr(wraps.out, "note"));
	test_run_release(&inside);
	test_run_release(&once);
	test_run_release(&before);
	test_run_release(&wraps);
	test_run_release(&json);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(dump_table_keeps_its_columns),
	cmocka_unit_test(sample_table_keeps_its_columns),
	cmocka_unit_test(sample_notes_times_outside_the_clip),
};

ANIMC_TEST_GROUP(tests);
