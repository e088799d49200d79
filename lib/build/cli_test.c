/*
 * cli_test.c - what the commands share (cli.c) on its own: the bone
 * table `animc sample --blend` makes of two clips, the columns a name
 * takes on a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "cli.h"

/* The strcmp calls the bone names of two clips of `count` sequences take:
 * the first names B0 to B<count-1>, the second the odd ones of them again
 * and as many new ones, C1, C3, ...; the names checked. */
static unsigned long compares_naming(uint32_t count)
{
	animrt_sequence *seqs = calloc(2 * (size_t)count, sizeof *seqs);
	const char **names = calloc(2 * (size_t)count, sizeof *names);
	char *text = malloc(3 * (size_t)count * 16);
	animrt_clip a = { .duration_s = 1, .sequence_count = count, .sequences = seqs };
	animrt_clip b = { .duration_s = 1, .sequence_count = count, .sequences = seqs + count };
	const animrt_clip *clips[2] = { &a, &b };

	assert_non_null(seqs), assert_non_null(names), assert_non_null(text);
	for (uint32_t i = 0; i < count; i++) {
		snprintf(text + (size_t)i * 16, 16, "B%u", i);
		snprintf(text + (size_t)(count + i) * 16, 16, "C%u", i);
		seqs[i].bone = text + (size_t)i * 16;
		seqs[count + i].bone = text + (size_t)(i % 2 ? i : count + i + 1) * 16;
	}
	test_strcmp_calls = 0;
	uint32_t n = cli_bone_names(clips, 2, names);
	unsigned long compares = test_strcmp_calls;

	assert_int_equal(n, count + count / 2);
	for (uint32_t i = 0; i < count; i++)
		assert_ptr_equal(names[i], seqs[i].bone);
	for (uint32_t i = 0; i < count / 2; i++)
		assert_string_equal(names[count + i], text + (size_t)(count + 2 * i + 1) * 16);
	free(text), free(names), free(seqs);
	return compares;
}

/* Each name is looked up, not compared with every name before it: the
 * bone table of two clips grows as their bones do, not as their square. */
static void the_bone_names_of_two_clips_are_linear_in_the_bones(void **state)
{
	(void)state;
	unsigned long small = compares_naming(1000), large = compares_naming(4000);

	if (large > 5 * small)
		fail_msg("%lu name comparisons for 1000 bones, %lu for 4000", small, large);
}

/* A combining mark (macOS tools write the 'e\u0301' of "Caf\u00e9" as 'e' and
 * U+0301) or a zero-width character takes no column of its own: counted as
 * one, a bone named so was padded a column short in the tables of dump and
 * sample, and every column after it moved. */
static void marks_that_combine_take_no_column(void **state)
{
	char buf[64] = "";
	FILE *f = fmemopen(buf, sizeof buf, "w");

	(void)state;
	assert_int_equal(cli_escaped_columns("Cafe\u0301"), 4);
	assert_int_equal(cli_escaped_columns("Caf\u00e9"), 4);
	assert_int_equal(cli_escaped_columns("a\u200bb\ufe0f"), 2);
	assert_int_equal(cli_escaped_columns("\u65e5\u672c"), 4);
	assert_non_null(f);
	assert_int_equal(cli_print_escaped(f, "Cafe\u0301", 6), 6);
	fclose(f);
	assert_string_equal(buf, "Cafe\u0301  ");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(the_bone_names_of_two_clips_are_linear_in_the_bones),
	cmocka_unit_test(marks_that_combine_take_no_column),
};

ANIMC_TEST_GROUP(tests);
