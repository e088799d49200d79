/*
 * outdir_test.c - a build that compiled nothing leaves OUTDIR as it was:
 * no OUTDIR/.animc/ (manifest, lock) and no OUTDIR made for it; a build
 * that compiled something keeps its state there.  An OUTDIR that is a link
 * to nowhere is said to be one.  An output replaced by a link to a file
 * outside OUTDIR is written anew, nothing done through the link.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* -o naming a symbolic link to a folder not made yet (a CI cache link), or
 * a link that loops: the error said "'out' exists and is not a folder",
 * which sends the user the wrong way.  It names the link and its target.
 * `animc outputs` says the same (it listed files under a file, exit 0). */
static void an_outdir_linked_nowhere_is_said_so(void **state)
{
	char *dir = test_tmpdir("outdir-dangling"), *out = test_format("%s/out", dir);
	char *loop = test_format("%s/loop", dir), *target = test_format("%s/cache/out", dir);
	char *file = test_format("%s/file", dir), *below = test_format("%s/file/sub", dir);
	char *want_missing = test_format("%s: error: '%s' is a symbolic link to 'cache/out', a folder that is "
					 "missing (No such file or directory)", out, out);
	char *want_loop = test_format("%s: error: '%s' is a symbolic link to 'loop', which loops (Too many levels "
				      "of symbolic links)", loop, loop);
	char *want_file = test_format("%s: error: '%s' exists and is not a folder\n", file, file);
	char *want_below = test_format("%s: error: '%s' exists and is not a folder\n", below, file);
	const char *const cases[][2] = { { out, want_missing }, { loop, want_loop }, { file, want_file },
					 { below, want_below } };

	(void)state;
	assert_int_equal(symlink("cache/out", out), 0);
	assert_int_equal(symlink("loop", loop), 0);
	assert_true(test_write_file(file, "x", 1));
	for (int outputs = 0; outputs < 2; outputs++) {
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			test_run r = test_animc(outputs ? "outputs" : "build", "-o", cases[i][0],
						"testdata/sample/Crane/Turn.Animation", NULL);

			if (r.status != 1 || !strstr(r.err, cases[i][1]) || (outputs && r.out[0]))
				fail_msg("%s -o %s: exit %d\n%s%s", outputs ? "outputs" : "build", cases[i][0], r.status,
					 r.out, r.err);
			test_run_release(&r);
		}
	}
	assert_false(test_file_exists(target));
	free(want_below), free(want_file), free(want_loop), free(want_missing), free(below), free(file), free(target);
	free(loop), free(out), free(dir);
}

/* An output replaced by a symbolic link to a file outside OUTDIR that
 * holds its bytes: the build took the link for its output, up to date, and
 * once its source was touched set the outside file's mtime through it.
 * The link is no file of animc's: it is replaced by the output, and the
 * file it led to is left as it was. */
static void an_output_replaced_by_a_link_is_written_anew(void **state)
{
	char *dir = test_tmpdir("outdir-link"), *out = test_format("%s/out", dir), *src = test_format("%s/Turn.Animation", dir);
	char *outside = test_format("%s/victim.xnb", dir), *xnb = test_format("%s/Turn.xnb", out);
	const struct timespec old[2] = { { 978307200, 0 }, { 978307200, 0 } };
	size_t size, was_size;
	struct stat st;
	test_run r;

	(void)state;
	test_sh("cp testdata/sample/Crane/Turn.Animation '%s'", src);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	uint8_t *bytes = test_read_file(xnb, &size);
	assert_true(test_write_file(outside, bytes, size));
	assert_int_equal(utimensat(AT_FDCWD, outside, old, 0), 0);
	assert_int_equal(unlink(xnb), 0);
	assert_int_equal(symlink("../victim.xnb", xnb), 0);
	for (int touched = 0; touched < 2; touched++) {
		if (touched)
			assert_int_equal(utimensat(AT_FDCWD, src, NULL, 0), 0);
		r = test_animc("build", "-q", "-o", out, src, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		assert_int_equal(lstat(xnb, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_int_equal(stat(outside, &st), 0);
		assert_int_equal(st.st_mtim.tv_sec, 978307200);
		uint8_t *now = test_read_file(xnb, &was_size);
		assert_int_equal(was_size, size);
		assert_memory_equal(now, bytes, size);
		free(now);
	}
	free(bytes), free(xnb), free(outside), free(src), free(out), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(build_that_compiled_nothing_leaves_outdir_as_it_was),
	cmocka_unit_test(an_outdir_linked_nowhere_is_said_so),
	cmocka_unit_test(an_output_replaced_by_a_link_is_written_anew),
};

ANIMC_TEST_GROUP(tests);
