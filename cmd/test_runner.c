/*
 * test_runner.c - runs every test group as one cmocka run, so the suite
 * ends with one summary line.  `animc_test PATTERN` runs the tests whose
 * names match the glob PATTERN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

extern const animc_test_group group_clip, group_validate, group_passes, group_animrt, group_xs,
	group_robotgame, group_xnb, group_cli, group_golden, group_hostile, group_fuzz_replay,
	group_corpus, group_animrt_sample, group_sample, group_xform, group_xna, group_assimp;

static const animc_test_group *const groups[] = {
	&group_clip, &group_validate, &group_passes, &group_animrt, &group_xs, &group_robotgame,
	&group_xnb, &group_cli, &group_golden, &group_hostile, &group_fuzz_replay, &group_corpus,
	&group_animrt_sample, &group_sample, &group_xform, &group_xna, &group_assimp,
};

int main(int argc, char **argv)
{
	struct CMUnitTest *all;
	size_t total = 0, n = 0;
	int failed;

	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
		total += groups[g]->count;
	all = calloc(total, sizeof *all);
	if (!all)
		return 1;
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		memcpy(&all[n], groups[g]->tests, groups[g]->count * sizeof *all);
		n += groups[g]->count;
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	failed = _cmocka_run_group_tests("animc", all, n, NULL, NULL);
	free(all);
	return failed ? 1 : 0;
}
