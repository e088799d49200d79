/*
 * reduce_cli_test.c - --tolerance in the original layout against the
 * lossless file of the same source, as libanimrt plays both: on a long
 * take whose keys the lossless file steps through by a float KeyInterval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* A BVH of `frames` frames 0.0333333 s apart: a root that turns 20 sin t
 * degrees about Z. */
static char *write_long_bvh(const char *dir, int frames)
{
	size_t cap = (size_t)frames * 48 + 512, len = 0;
	char *text = malloc(cap), *path = test_format("%s/long.bvh", dir);

	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len,
				"HIERARCHY\nROOT Root\n{\nOFFSET 0 0 0\n"
				"CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
				"End Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: %d\nFrame Time: 0.0333333\n", frames);
	for (int f = 0; f < frames; f++)
		len += (size_t)snprintf(text + len, cap - len, "0 0 0 %.5f 0 0\n", 20 * sin(f / 30.0));
	assert_true(len < cap);
	assert_true(test_write_file(path, text, len));
	free(text);
	return path;
}

/* Six and a half minutes at 30 Hz: the lossless file plays key k at
 * k x float(0.0333333), 1.6e-5 s past its source time by the end.  The
 * reduction measured against the source's times and let the error reach
 * 98% of the bound there, so the reduced file played up to 0.00514
 * degrees from the lossless one at --tolerance 0.0001,0.005,0.00001. */
static void reduced_long_takes_stay_within_the_bound_of_the_lossless_file(void **state)
{
	char *dir = test_tmpdir("reduce-long"), *src = write_long_bvh(dir, 12000);
	char *lossless = test_format("%s/lossless", dir), *reduced = test_format("%s/reduced", dir);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", lossless, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--tolerance", "0.0001,0.005,0.00001", "-o", reduced, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *a = test_format("%s/long/Motion.xnb", lossless), *b = test_format("%s/long/Motion.xnb", reduced);
	uint8_t *data[2];
	size_t size[2];

	data[0] = test_read_file(a, &size[0]);
	data[1] = test_read_file(b, &size[1]);
	assert_true(size[1] < size[0]);
	test_error e = test_compare_compiled(data[0], size[0], data[1], size[1], 0);
	if (!(e.rotation_deg <= 0.005))
		fail_msg("%s: %g degrees from the lossless file, past 0.005", b, e.rotation_deg);
	free(data[0]), free(data[1]), free(a), free(b);
	free(src), free(reduced), free(lossless), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reduced_long_takes_stay_within_the_bound_of_the_lossless_file),
};

ANIMC_TEST_GROUP(tests);
