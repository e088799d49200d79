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

static void grund_clips_fit_the_grund_model(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	char *out = test_tmpdir("skeleton");
	char *model = test_format("%s/models/Grund.glb", test_corpus_dir());
	char *clips = test_format("%s/robotgame/Grund", test_corpus_dir());
	test_run r = test_animc("build", "-q", "--skeleton", model, "-o", out, clips, NULL);

	if (r.status != 0)
		fail_msg("Grund clips against Grund.glb: exit %d\n%s", r.status, r.err);
	assert_int_equal(test_count_files(out), 46);
	test_run_release(&r);
	free(clips);
	free(out);
	free(model);
}

static void a_renamed_bone_fails_the_skeleton_check(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	char *out = test_tmpdir("skeleton-renamed");
	char *model = test_format("%s/models/Grund.glb", test_corpus_dir());
	char *src = test_format("%s/robotgame/Grund/Low_Idle.Animation", test_corpus_dir());
	char *renamed = test_format("%s/Renamed.Animation", out);
	char *xnb = test_format("%s/Renamed.xnb", out);
	size_t size;
	char *text = (char *)test_read_file(src, &size);
	char *at = strstr(text, "<BoneName>L Calf</BoneName>");

	assert_non_null(at);
	memcpy(at, "<BoneName>L Kalf", 16);
	assert_true(test_write_file(renamed, text, size));
	test_run r = test_animc("build", "-q", "--skeleton", model, "-o", out, renamed, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "'L Kalf'"));
	assert_false(test_file_exists(xnb));
	test_run_release(&r);
	/* A model that cannot be read fails the run, naming the model. */
	r = test_animc("build", "-q", "--skeleton", src, "-o", out, renamed, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Low_Idle.Animation: error: "));
	test_run_release(&r);
	free(text);
	free(renamed);
	free(xnb);
	free(src);
	free(out);
	free(model);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(grund_clips_fit_the_grund_model),
	cmocka_unit_test(a_renamed_bone_fails_the_skeleton_check),
	cmocka_unit_test(exact_mode_writes_the_original_bytes),
	cmocka_unit_test(dump_json_equals_the_oracle_dump),
	cmocka_unit_test(default_mode_samples_like_the_source),
};

ANIMC_TEST_GROUP(tests);
