/*
 * corpus_test.c - conformance on real data: the RobotGame clips in
 * ../shared/corpus checked against the independent oracle
 * (../shared/conformance/xnb_oracle.py) by scripts/conformance.  Skipped,
 * saying so, when the corpus is absent.
 */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define ORACLE "../shared/conformance/xnb_oracle.py"

static void conformance(const char *check)
{
	TEST_NEEDS_CORPUS();
	char *out = test_tmpdir(check);
	char *sources = test_format("%s/robotgame", test_corpus_dir());
	test_run r = test_exec("python3", "scripts/conformance", check, "--animc", test_animc_path(),
			       "--oracle", ORACLE, "--out", out, sources, NULL);

	if (r.status != 0)
		fail_msg("scripts/conformance %s: exit %d\n%s%s", check, r.status, r.out, r.err);
	print_message("%s", r.out);
	test_run_release(&r);
	free(sources);
	free(out);
}

static void exact_mode_writes_the_original_bytes(void **state)
{
	(void)state;
	conformance("exact-bytes");
}

static void dump_json_equals_the_oracle_dump(void **state)
{
	(void)state;
	conformance("json");
}

static void default_mode_samples_like_the_source(void **state)
{
	(void)state;
	conformance("max-error");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(exact_mode_writes_the_original_bytes),
	cmocka_unit_test(dump_json_equals_the_oracle_dump),
	cmocka_unit_test(default_mode_samples_like_the_source),
};

ANIMC_TEST_GROUP(group_corpus, tests);
