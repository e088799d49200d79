/*
 * diag_test.c - status strings and diagnostic sinks (diag.c).
 */
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>

static void status_strings_cover_every_status(void **state)
{
	(void)state;
	for (int s = 0; s < ANIMC_STATUS_COUNT; s++) {
		assert_non_null(animc_status_string((animc_status)s));
		assert_true(strlen(animc_status_string((animc_status)s)) > 0);
	}
	assert_string_equal(animc_status_string(ANIMC_STATUS_COUNT), "unknown status");
}

static void diag_sink_counts_and_tolerates_null(void **state)
{
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "x.Animation");
	animc_diag_sink counting = { 0 };

	(void)state;
	animc_diag_report(&sink, ANIMC_ERROR, 3, 7, "bad '%s'", "KeyCount");
	animc_diag_report(&sink, ANIMC_WARNING, 0, 0, "meh");
	animc_diag_report_at(&sink, ANIMC_ERROR, 42, "at byte");
	animc_diag_report(NULL, ANIMC_ERROR, 1, 1, "nowhere");
	animc_diag_report(&counting, ANIMC_ERROR, 1, 1, "counted only");
	assert_int_equal(sink.error_count, 2);
	assert_int_equal(sink.warning_count, 1);
	assert_int_equal(counting.error_count, 1);
	assert_int_equal(diags.count, 3);
	assert_int_equal(diags.items[0].line, 3);
	assert_int_equal(diags.items[0].column, 7);
	assert_string_equal(diags.items[0].message, "bad 'KeyCount'");
	assert_int_equal(diags.items[0].byte_offset, -1);
	assert_int_equal(diags.items[2].byte_offset, 42);
	test_diags_release(&diags);
}

/* A warning carries its kind's name; other severities none.  The names
 * are kebab-case, one each, and found again by name. */
static void warnings_carry_their_kind(void **state)
{
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "x.Animation");

	(void)state;
	animc_diag_report_kind(&sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_ELEMENT, 4, 16, "unknown element <%s>", "X");
	animc_diag_report_kind(&sink, ANIMC_ERROR, ANIMC_WARN_UNKNOWN_ELEMENT, 5, 1, "an error");
	animc_diag_report(&sink, ANIMC_WARNING, 6, 1, "of no kind");
	assert_int_equal(sink.warning_count, 2);
	assert_int_equal(diags.count, 3);
	assert_string_equal(diags.items[0].kind, "unknown-element");
	assert_string_equal(diags.items[0].message, "unknown element <X>");
	assert_int_equal(diags.items[0].column, 16);
	assert_null(diags.items[1].kind);
	assert_null(diags.items[2].kind);
	test_diags_release(&diags);

	assert_null(animc_warning_kind_at(ANIMC_WARN_NONE));
	assert_null(animc_warning_kind_at(ANIMC_WARN_KIND_COUNT));
	assert_int_equal(animc_warning_kind_find("no-such-kind"), ANIMC_WARN_NONE);
	assert_int_equal(animc_warning_kind_find(NULL), ANIMC_WARN_NONE);
	for (int k = ANIMC_WARN_NONE + 1; k < ANIMC_WARN_KIND_COUNT; k++) {
		const animc_warning_kind_info *info = animc_warning_kind_at((animc_warning_kind)k);

		assert_non_null(info);
		assert_non_null(info->name);
		assert_true(info->description && info->description[0]);
		assert_int_equal(animc_warning_kind_find(info->name), k);
		assert_true(info->name[0] >= 'a' && info->name[0] <= 'z');
		for (const char *p = info->name; *p; p++)
			assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
				    (*p == '-' && p[1] && p[1] != '-'));
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(status_strings_cover_every_status),
	cmocka_unit_test(diag_sink_counts_and_tolerates_null),
	cmocka_unit_test(warnings_carry_their_kind),
};

ANIMC_TEST_GROUP(tests);
