/*
 * lws_test.c - LightWave scenes through the Assimp importer: what animc
 * reads of the file itself (lws.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

/* Import a scene of one null moving along X, its envelope's second key of
 * span type `span` (4 stepped, 3 linear, 0 TCB), as `animc build` does. */
static void lws_import(assimp_import *r, int span)
{
	char *dir = test_tmpdir("lws"), *path = test_format("%s/slide.lws", dir);
	char *text = test_format("LWSC\n3\n\nFirstFrame 0\nLastFrame 30\nFramesPerSecond 30\n\n"
				 "AddNullObject Slider\nObjectMotion\nNumChannels 1\nChannel 0\n{ Envelope\n  2\n"
				 "  Key 0 0 3 0 0 0 0 0 0\n  Key 2 1 %d 0 0 0 0 0 0\n  Behaviors 1 1\n}\n",
				 span);

	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(r, path, NULL);
	free(text), free(path), free(dir);
}

/*
 * A stepped span (LightWave holds X at 0 until the key at 1 s, then
 * jumps to 2): Assimp keeps key times and values only, and the clip slid
 * from 0 to 2 over the second, without a word (x 1 at 0.5 s where the
 * scene says 0).  It is still read as linear, with a stepped-keys warning
 * at the key's line; a linear or a TCB span (read as linear, as every
 * spline Assimp keeps) is not said.
 */
static void lws_stepped_keys_warn_at_their_line(void **state)
{
	assimp_import r;

	(void)state;
	lws_import(&r, 4);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_string_equal(test_diags_first(&r.diags, ANIMC_WARNING)->kind, "stepped-keys");
	assert_int_equal(test_diags_first(&r.diags, ANIMC_WARNING)->line, 15);
	assert_non_null(strstr(test_diags_first(&r.diags, ANIMC_WARNING)->message,
			       "stepped envelope keys are read as linear"));
	assimp_import_release(&r);
	for (int span = 0; span <= 3; span += 3) {
		lws_import(&r, span);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
		assimp_import_release(&r);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(lws_stepped_keys_warn_at_their_line),
};

ANIMC_TEST_GROUP(tests);
