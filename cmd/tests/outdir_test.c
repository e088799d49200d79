/*
 * outdir_test.c - a build that compiled nothing leaves OUTDIR as it was:
 * no OUTDIR/.animc/ (manifest, lock) and no OUTDIR made for it; a build
 * that compiled something keeps its state there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_support.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void build_that_compiled_nothing_leaves_outdir_as_it_was(void **state)
{
	(void)state;
	char *dir = test_tmpdir("outdir-untouched");
	char *fresh = test_format("%s/o2", dir), *empty = test_format("%s/o3", dir);
	char *empty_state = test_format("%s/.animc", empty), *used = test_format("%s/o4", dir);
	char *used_state = test_format("%s/.animc/manifest", used);

	/* A source that does not exist: exit 1, no o2 at all. */
	test_run r = test_animc("build", "-o", fresh, "nope.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_false(test_file_exists(fresh));
	test_run_release(&r);
	/* Only files no importer reads, in a folder: exit 0, nothing compiled;
	 * the empty OUTDIR that was there stays, empty. */
	assert_int_equal(mkdir(empty, 0777), 0);
	r = test_animc("build", "-q", "-o", empty, "testdata/loader", NULL);
	assert_int_equal(r.status, 0);
	assert_true(is_dir(empty));
	assert_false(is_dir(empty_state));
	char **left = test_list_dir(empty, NULL);
	assert_null(left[0]);
	test_free_list(left);
	test_run_release(&r);
	/* A build that compiled something keeps its state... */
	r = test_animc("build", "-q", "-o", used, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_true(test_file_exists(used_state));
	test_run_release(&r);
	/* ...and a later one that compiled nothing leaves it there. */
	r = test_animc("build", "-q", "-o", used, "nope.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_true(test_file_exists(used_state));
	test_run_release(&r);
	free(used_state);
	free(used);
	free(empty_state);
	free(empty);
	free(fresh);
	free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(build_that_compiled_nothing_leaves_outdir_as_it_was),
};

ANIMC_TEST_GROUP(tests);
