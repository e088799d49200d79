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

/* Import a scene of one null whose X and Z envelopes (channels 0 and 2)
 * are keyed at `x_times` and `z_times` (three keys each), X's spans
 * linear, Z's of span type `z_span`. */
static void lws_import_xz(assimp_import *r, const double x_times[3], const double z_times[3], int z_span)
{
	char *dir = test_tmpdir("lws"), *path = test_format("%s/xz.lws", dir);
	char *text = test_format("LWSC\n3\n\nFirstFrame 0\nLastFrame 120\nFramesPerSecond 30\n\n"
				 "AddNullObject Mover\nObjectMotion\nNumChannels 3\n"
				 "Channel 0\n{ Envelope\n  3\n  Key 0 %g 3 0 0 0 0 0 0\n  Key 1.925 %g 3 0 0 0 0 0 0\n"
				 "  Key -0.523 %g 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n"
				 "Channel 1\n{ Envelope\n  1\n  Key 0 0 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n"
				 "Channel 2\n{ Envelope\n  3\n  Key 0 %g 3 0 0 0 0 0 0\n  Key -2.656 %g %d 0 0 0 0 0 0\n"
				 "  Key -0.0958 %g %d 0 0 0 0 0 0\n  Behaviors 1 1\n}\n",
				 x_times[0], x_times[1], x_times[2], z_times[0], z_times[1], z_span, z_times[2], z_span);

	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(r, path, NULL);
	free(text), free(path), free(dir);
}

/*
 * X keyed at 0, 2/3 and 2 s, Z at 0, 4/3 and 89/30 s (Assimp's own
 * move_xz_linear.lws): Assimp 5.2's reader lost Z's key at 4/3 s and ran
 * Z's first span on to 2 s (-3.98 there, where the envelope gives -1.61),
 * and the clip was written without a word.  The source fails at Z's
 * Channel line, naming the time and both values.  Keyed at the same
 * times, the three envelopes read right and compile.
 */
static void lws_envelopes_keyed_apart_fail_at_the_one_read_wrongly(void **state)
{
	const double x_times[3] = { 0, 0.6666666666666666, 2 }, z_times[3] = { 0, 1.3333333333333333, 2.9666666666666668 };
	assimp_import r;

	(void)state;
	lws_import_xz(&r, x_times, z_times, 3);
	assimp_assert_error_at(&r, 25, "Assimp reads this position envelope wrongly");
	assert_non_null(strstr(test_diags_first(&r.diags, ANIMC_ERROR)->message,
			       "it comes out -3.98401 at 2 s where the envelope gives -1.61102"));
	assimp_import_release(&r);
	lws_import_xz(&r, x_times, x_times, 3);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	assert_int_equal(r.set.count, 1);
	assimp_import_release(&r);
}

/*
 * The same Z of stepped and curved spans (Assimp's move_xz_stepped.lws and
 * move_xz_bezier.lws): the error quoted the straight reading as what the
 * envelope gives (-1.61 at 2 s), where LightWave holds a stepped Z at
 * -2.656 from 4/3 s and bends a Bezier one.  It says the held value, and
 * of a curve, what its keys joined by straight lines give, on what span.
 */
static void lws_misread_envelopes_say_what_their_spans_give(void **state)
{
	static const struct {
		int span;
		const char *says;
	} cases[] = {
		{ 4, "it comes out -3.98401 at 2 s where the envelope gives -2.656 (Assimp 5.2 loses keys" },
		{ 2, "it comes out -3.98401 at 2 s where its keys joined by straight lines, as Assimp joins them, give "
		     "-1.61102, on a span LightWave bends as a Bezier curve (Assimp 5.2 loses keys" },
		{ 0, "give -1.61102, on a span LightWave bends as a TCB curve (" },
		{ 1, "give -1.61102, on a span LightWave bends as a Hermite curve (" },
	};
	const double x_times[3] = { 0, 0.6666666666666666, 2 }, z_times[3] = { 0, 1.3333333333333333, 2.9666666666666668 };
	assimp_import r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		lws_import_xz(&r, x_times, z_times, cases[i].span);
		assimp_assert_error_at(&r, 25, "Assimp reads this position envelope wrongly");
		if (!strstr(test_diags_first(&r.diags, ANIMC_ERROR)->message, cases[i].says))
			fail_msg("span %d: %s", cases[i].span, test_diags_first(&r.diags, ANIMC_ERROR)->message);
		assimp_import_release(&r);
	}
}

/* Import a scene of one null turned over 1 s, linearly, from no turn to
 * heading `h`, pitch `p` and bank `b` (radians: channels 3 to 5). */
static void lws_import_turn(assimp_import *r, double h, double p, double b)
{
	char *dir = test_tmpdir("lws"), *path = test_format("%s/turn.lws", dir);
	char *text = test_format("LWSC\n3\n\nFirstFrame 0\nLastFrame 30\nFramesPerSecond 30\n\n"
				 "AddNullObject Turner\nObjectMotion\nNumChannels 6\n"
				 "Channel 3\n{ Envelope\n  2\n  Key 0 0 3 0 0 0 0 0 0\n  Key %g 1 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n"
				 "Channel 4\n{ Envelope\n  2\n  Key 0 0 3 0 0 0 0 0 0\n  Key %g 1 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n"
				 "Channel 5\n{ Envelope\n  2\n  Key 0 0 3 0 0 0 0 0 0\n  Key %g 1 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n",
				 h, p, b);

	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(r, path, NULL);
	free(text), free(path), free(dir);
}

/*
 * Heading and pitch 1.5 rad and bank 0.7 rad, keyed at 0 and 1 s:
 * LightWave turns each angle on its own envelope, but Assimp keeps one
 * quaternion a key, which the runtime slerps, so the clip played 23.2
 * degrees off the scene's pose at 0.5 s without a word.  That is an
 * euler-between-keys warning at the heading's Channel line, naming the
 * most and its time.  A heading alone slerps along its own turn: not said.
 */
static void lws_angles_moving_together_warn_euler_between_keys(void **state)
{
	const test_diag *d;
	assimp_import r;

	(void)state;
	lws_import_turn(&r, 1.5, 1.5, 0.7);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	d = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_string_equal(d->kind, "euler-between-keys");
	assert_int_equal(d->line, 11);
	assert_non_null(strstr(d->message, "by up to 23.2 degrees (at 0.5 s)"));
	assimp_import_release(&r);
	lws_import_turn(&r, 1.5, 0, 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assimp_import_release(&r);
}

/*
 * A null moving along X, then a bone turning about Y: Assimp 5.2 reads no
 * AddBone and gave the bone's envelopes to the null, replacing its own,
 * so the clip held one bone, the null, turning as the bone and no longer
 * moving, without a word.  The scene fails at the AddBone line.
 */
static void lws_bones_fail_at_add_bone(void **state)
{
	char *dir = test_tmpdir("lws"), *path = test_format("%s/bones.lws", dir);
	const char *text = "LWSC\n3\n\nFirstFrame 0\nLastFrame 30\nFramesPerSecond 30\n\n"
			   "AddNullObject Body\nObjectMotion\nNumChannels 1\n"
			   "Channel 0\n{ Envelope\n  2\n  Key 0 0 3 0 0 0 0 0 0\n  Key 5 1 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n"
			   "AddBone\nBoneName Upper\nBoneMotion\nNumChannels 4\n"
			   "Channel 0\n{ Envelope\n  1\n  Key 0 0 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n"
			   "Channel 3\n{ Envelope\n  2\n  Key 0 0 3 0 0 0 0 0 0\n  Key 1 1 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\n";
	assimp_import r;

	(void)state;
	assert_true(test_write_file(path, text, strlen(text)));
	assimp_import_path(&r, path, NULL);
	assimp_assert_error_at(&r, 18, "LightWave bones are not read: Assimp 5.2 reads no AddBone");
	assimp_import_release(&r);
	free(path), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(lws_stepped_keys_warn_at_their_line),
	cmocka_unit_test(lws_envelopes_keyed_apart_fail_at_the_one_read_wrongly),
	cmocka_unit_test(lws_misread_envelopes_say_what_their_spans_give),
	cmocka_unit_test(lws_angles_moving_together_warn_euler_between_keys),
	cmocka_unit_test(lws_bones_fail_at_add_bone),
};

ANIMC_TEST_GROUP(tests);
