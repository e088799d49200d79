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

/* Every source compiled once per mode, then all three checks of
 * scripts/conformance: --exact output byte for byte, dump --json in both
 * modes, default-mode sampling against the source. */
static void corpus_agrees_with_the_oracle(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	char *out = test_tmpdir("conformance");
	char *sources = test_format("%s/robotgame", test_corpus_dir());
	test_run r = test_exec("python3", "scripts/conformance", "exact-bytes", "json", "max-error",
			       "--animc", test_animc_path(), "--oracle", ORACLE, "--out", out, sources, NULL);

	if (r.status != 0)
		fail_msg("scripts/conformance: exit %d\n%s%s", r.status, r.out, r.err);
	print_message("%s", r.out);
	assert_non_null(strstr(r.out, "conformance exact-bytes: 61 of 61 agree"));
	assert_non_null(strstr(r.out, "conformance json: 122 of 122 agree"));
	assert_non_null(strstr(r.out, "conformance max-error: 61 of 61 agree"));
	test_run_release(&r);
	free(sources);
	free(out);
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
	cmocka_unit_test(corpus_agrees_with_the_oracle),
};

ANIMC_TEST_GROUP(tests);
