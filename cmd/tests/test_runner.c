/*
 * test_runner.c - runs every registered test group as one cmocka run, so the
 * suite ends with one summary line.  Groups run in file order, the unit tests
 * first and the process-level suites of cmd/tests/ last.  `animc_test
 * PATTERN` runs the tests whose names match the glob PATTERN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static animc_test_group *registered;

void test_group_register(animc_test_group *group)
{
	group->next = registered;
	registered = group;
}

/* Process-level suites (cmd/tests/) after everything else, then by path. */
static int compare_groups(const void *a, const void *b)
{
	const animc_test_group *x = *(const animc_test_group *const *)a;
	const animc_test_group *y = *(const animc_test_group *const *)b;
	int sx = strncmp(x->file, "cmd/tests/", 10) == 0, sy = strncmp(y->file, "cmd/tests/", 10) == 0;

	return sx != sy ? sx - sy : strcmp(x->file, y->file);
}

int main(int argc, char **argv)
{
	animc_test_group **groups;
	struct CMUnitTest *all;
	size_t group_count = 0, total = 0, n = 0;
	int failed;

	for (animc_test_group *g = registered; g; g = g->next) {
		group_count++;
		total += g->count;
	}
	groups = calloc(group_count ? group_count : 1, sizeof *groups);
	all = calloc(total ? total : 1, sizeof *all);
	if (!groups || !all)
		return 1;
	group_count = 0;
	for (animc_test_group *g = registered; g; g = g->next)
		groups[group_count++] = g;
	qsort(groups, group_count, sizeof *groups, compare_groups);
	for (size_t g = 0; g < group_count; g++) {
		memcpy(&all[n], groups[g]->tests, groups[g]->count * sizeof *all);
		n += groups[g]->count;
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	failed = _cmocka_run_group_tests("animc", all, n, NULL, NULL);
	free(all);
	free(groups);
	return failed ? 1 : 0;
}
