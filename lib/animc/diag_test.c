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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(status_strings_cover_every_status),
	cmocka_unit_test(diag_sink_counts_and_tolerates_null),
};

ANIMC_TEST_GROUP(tests);
