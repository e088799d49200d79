/*
 * units_cli_test.c - --scale and --rotate through the command line, checked
 * by an evaluator of their own: each bone's sampled local matrix K of the
 * converted output against the unconverted output's, as MonoGame's
 * ModelProcessor converts a model (MeshHelper.TransformScene): with T = Rz *
 * Rx * Ry * scale, every bone's K becomes inverse(T) * K * T, all built here
 * from sines and cosines as XNA's Matrix.CreateRotationX/Y/Z build them.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include <animc/animc_formats.h>
#include <animc/animrt.h>

static void mat_mul(const double a[16], const double b[16], double out[16])
{
	double m[16];

	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++) {
			m[r * 4 + c] = 0;
			for (int k = 0; k < 4; k++)
				m[r * 4 + c] += a[r * 4 + k] * b[k * 4 + c];
		}
	memcpy(out, m, sizeof m);
}

/* XNA's Matrix.CreateRotationX/Y/Z (row vectors), angle in degrees. */
static void rotation_about(int axis, double deg, double out[16])
{
	double a = deg * M_PI / 180, c = cos(a), s = sin(a);

	memset(out, 0, 16 * sizeof *out);
	out[15] = 1;
	if (axis == 0) {
		out[0] = 1, out[5] = c, out[6] = s, out[9] = -s, out[10] = c;
	} else if (axis == 1) {
		out[0] = c, out[2] = -s, out[5] = 1, out[8] = s, out[10] = c;
	} else {
		out[0] = c, out[1] = s, out[4] = -s, out[5] = c, out[10] = 1;
	}
}

/* Scale * rotation * translation of one sampled bone. */
static void bone_matrix(const float t[3], const float q[4], const float s[3], double out[16])
{
	double x = q[0], y = q[1], z = q[2], w = q[3];
	double r[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
			2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
			2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y) };

	memset(out, 0, 16 * sizeof *out);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			out[i * 4 + j] = r[i * 3 + j] * s[i];
	out[12] = t[0], out[13] = t[1], out[14] = t[2], out[15] = 1;
}

static animrt_clip *load(const char *path)
{
	animrt_clip *clip = NULL;
	animrt_error err;

	if (animrt_open_file(path, &clip, &err) != ANIMRT_OK)
		fail_msg("%s: %s", path, err.message);
	return clip;
}

/* The worst difference between `converted` and `base` transformed by scale
 * and rotation (X, Y, Z degrees), over every bone at 50 times. */
static double worst_error(const char *base_path, const char *converted_path, double scale,
			  const double rotation_deg[3])
{
	animrt_clip *base = load(base_path), *converted = load(converted_path);
	double rz[16], rx[16], ry[16], r[16], inv[16], worst = 0;

	rotation_about(2, rotation_deg[2], rz);
	rotation_about(0, rotation_deg[0], rx);
	rotation_about(1, rotation_deg[1], ry);
	mat_mul(rz, rx, r);
	mat_mul(r, ry, r);
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			inv[i * 4 + k] = r[k * 4 + i];
	assert_int_equal(base->sequence_count, converted->sequence_count);
	for (uint32_t i = 0; i < base->sequence_count; i++) {
		const animrt_sequence *a = &base->sequences[i];
		const animrt_sequence *b = test_sequence_of(converted, a->bone);

		for (int k = 0; k <= 50; k++) {
			float time_s = base->duration_s * (float)k / 50;
			float t[3], q[4], s[3], t2[3], q2[4], s2[3];
			double want[16], got[16];

			animrt_sequence_sample(a, time_s, ANIMRT_PLAY_ONCE, NULL, t, q, s);
			animrt_sequence_sample(b, time_s, ANIMRT_PLAY_ONCE, NULL, t2, q2, s2);
			/* inverse(R * scale) * K * (R * scale) */
			bone_matrix(t, q, s, want);
			mat_mul(inv, want, want);
			mat_mul(want, r, want);
			for (int j = 12; j < 15; j++)
				want[j] *= scale;
			bone_matrix(t2, q2, s2, got);
			for (int j = 0; j < 16; j++) {
				double e = fabs(got[j] - want[j]) / fmax(1, fabs(want[j]));

				if (!(e <= worst))
					worst = e;
			}
		}
	}
	animrt_close(base);
	animrt_close(converted);
	return worst;
}

static void build_ok(const char *out, const char *const *args)
{
	const char *argv[24] = { test_animc_path(), "build", "-q", "-o", out };
	size_t n = 5;

	for (; *args; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	test_run r = test_execv(argv);
	if (r.status != 0)
		fail_msg("animc build: exit %d: %s", r.status, r.err);
	test_run_release(&r);
}

/* A glTF source, every bone converted whatever its place in the tree:
 * skin.gltf's scene lists Armature (Hip and Leg below it) and Prop; with
 * one top node or two (which hang under a ROOT the reader makes, as Assimp
 * does, and no clip animates), the clips turn alike. */
static void gltf_matches_the_evaluator(void **state)
{
	static const struct {
		const char *scale, *rotate;
		double s, deg[3];
	} cases[] = {
		{ "0.01", "90,0,0", 0.01, { 90, 0, 0 } },     /* what Mixamo files need */
		{ "2.5", "30,-45,60", 2.5, { 30, -45, 60 } },
		{ "1", "0,0,270", 1, { 0, 0, 270 } },
	};
	char *dir = test_tmpdir("units-gltf"), *base = test_format("%s/base", dir);
	char *one_root = test_format("%s/skin.gltf", dir);
	size_t size;
	char *json = (char *)test_read_file("testdata/gltf/skin.gltf", &size);
	char *at = strstr(json, "\"nodes\": [\n    0,\n    4\n");

	(void)state;
	assert_non_null(at);
	at += strlen("\"nodes\": [\n    0");
	memmove(at, at + strlen(",\n    4"), strlen(at + strlen(",\n    4")) + 1);
	assert_true(test_write_file(one_root, json, strlen(json)));
	free(json);
	build_ok(base, (const char *const[]){ one_root, NULL });
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = test_format("%s/%zu", dir, i);
		char *a = test_format("%s/skin/kick.xnb", base), *b = test_format("%s/skin/kick.xnb", out);

		build_ok(out, (const char *const[]){ "--scale", cases[i].scale, "--rotate", cases[i].rotate,
						     one_root, NULL });
		double e = worst_error(a, b, cases[i].s, cases[i].deg);
		if (!(e <= 1e-5))
			fail_msg("--scale %s --rotate %s: error %g", cases[i].scale, cases[i].rotate, e);
		/* Not the identity: the evaluator sees a wrong conversion. */
		assert_true(worst_error(a, b, 1, (const double[3]){ 0, 0, 0 }) > 1e-3);
		free(a), free(b), free(out);
	}
	/* Two top nodes: the same conversion, no root needed. */
	char *two = test_format("%s/two", dir), *two_base = test_format("%s/two-base", dir);
	char *a = test_format("%s/skin/kick.xnb", two_base), *b = test_format("%s/skin/kick.xnb", two);
	build_ok(two_base, (const char *const[]){ "testdata/gltf/skin.gltf", NULL });
	build_ok(two, (const char *const[]){ "--scale", "2.5", "--rotate", "30,-45,60", "testdata/gltf/skin.gltf", NULL });
	double e = worst_error(a, b, 2.5, (const double[3]){ 30, -45, 60 });
	if (!(e <= 1e-5))
		fail_msg("two top nodes: error %g", e);
	assert_true(worst_error(a, b, 2.5, (const double[3]){ 0, 0, 0 }) > 1e-3);
	free(a), free(b), free(two), free(two_base), free(one_root);
	free(base);
	free(dir);
}

/* A RobotGame clip: names only, which the conversion needs no more than
 * that; with --skeleton the model is converted too (a lossy build measures
 * through it), and the clip is the same. */
static void robotgame_clip_turns_with_or_without_skeleton(void **state)
{
	char *dir = test_tmpdir("units-crane"), *base = test_format("%s/base", dir);
	char *out = test_format("%s/turned", dir), *lossy = test_format("%s/lossy", dir);
	char *bare = test_format("%s/bare", dir);
	char *a = test_format("%s/Turn.xnb", base), *b = test_format("%s/Turn.xnb", out);
	char *c = test_format("%s/Turn.xnb", bare);

	(void)state;
	build_ok(base, (const char *const[]){ "--skeleton", "testdata/sample/Crane/Crane.x",
					      "testdata/sample/Crane/Turn.Animation", NULL });
	build_ok(out, (const char *const[]){ "--skeleton", "testdata/sample/Crane/Crane.x", "--scale", "0.5",
					     "--rotate", "-90,15,0", "testdata/sample/Crane/Turn.Animation", NULL });
	double e = worst_error(a, b, 0.5, (const double[3]){ -90, 15, 0 });
	if (!(e <= 1e-5))
		fail_msg("error %g", e);
	/* Turned: the scale alone is not the answer. */
	assert_true(worst_error(a, b, 0.5, (const double[3]){ 0, 0, 0 }) > 1e-3);
	build_ok(bare, (const char *const[]){ "--scale", "0.5", "--rotate", "-90,15,0",
					      "testdata/sample/Crane/Turn.Animation", NULL });
	assert_true(test_same_bytes(b, c));
	build_ok(lossy, (const char *const[]){ "--skeleton", "testdata/sample/Crane/Crane.x", "--scale", "0.5",
					       "--rotate", "-90,15,0", "--tolerance", "default",
					       "testdata/sample/Crane/Turn.Animation", NULL });
	free(a), free(b), free(c), free(base), free(out), free(lossy), free(bare), free(dir);
}

/* Scale and rotation are both in the key: changing either compiles
 * again; a bad value is a usage error. */
static void rotation_and_scale_are_keyed(void **state)
{
	char *dir = test_tmpdir("units-key"), *xnb = test_format("%s/Turn.xnb", dir);
	char *report = test_format("%s/report.json", dir);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", dir, "--rotate", "90,0,0", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_true(test_file_exists(xnb));
	test_run_release(&r);
	r = test_animc("build", "-q", "--report", report, "-o", dir, "--rotate", "0,0,90",
		       "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *json = (char *)test_read_file(report, &(size_t){ 0 });
	assert_null(strstr(json, "\"up-to-date\""));
	free(json);
	r = test_animc("build", "-q", "-o", dir, "--scale", "2", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--report", report, "-o", dir, "--scale", "2",
		       "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	json = (char *)test_read_file(report, &(size_t){ 0 });
	assert_non_null(strstr(json, "\"up-to-date\""));
	free(json);
	r = test_animc("build", "-q", "--report", report, "-o", dir, "--scale", "3",
		       "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	json = (char *)test_read_file(report, &(size_t){ 0 });
	assert_null(strstr(json, "\"up-to-date\""));
	free(json);
	r = test_animc("build", "-o", dir, "--scale", "-1", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	r = test_animc("build", "-o", dir, "--rotate", "1,2", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	/* Past what a float holds: the option's fault, said so. */
	r = test_animc("build", "-o", dir, "--scale", "1e39", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--scale '1e39' is past what a float holds"));
	test_run_release(&r);
	/* sway.Animation moves its root 16 units: past FLT_MAX at 1e38. */
	r = test_animc("build", "-o", dir, "--scale", "1e38", "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "bone 'Root': --scale 1e+38 takes its translation past what a float holds"))
		fail_msg("%s", r.err);
	char *sway = test_format("%s/sway.xnb", dir);
	assert_false(test_file_exists(sway));
	free(sway);
	test_run_release(&r);
	/* A turn alone takes 3e38 on X and Y past FLT_MAX (4.2e38 on one axis
	 * at 45 degrees): the message named "--scale 0", an option not given. */
	char *big = test_format("%s/big.Animation", dir);
	static const char big_text[] =
		"<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>"
		"<KeyFrameSequences><KeyFrameSequence><BoneName>Root</BoneName><KeyCount>1</KeyCount>"
		"<Duration>1</Duration><KeyInterval>1</KeyInterval><HasTranslation>true</HasTranslation>"
		"<FixedTranslation>true</FixedTranslation><Translation><Vector3><X>3e38</X><Y>3e38</Y><Z>0</Z>"
		"</Vector3></Translation></KeyFrameSequence></KeyFrameSequences></AnimationSequence>\n";
	assert_true(test_write_file(big, big_text, sizeof big_text - 1));
	r = test_animc("build", "-o", dir, "--rotate", "0,0,45", big, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "bone 'Root': the rotation (0, 0, 45 degrees about X, Y, Z) takes its translation past "
			   "what a float holds"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-o", dir, "--rotate", "0,0,45", "--scale", "0.5", big, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(big);
	free(xnb), free(report), free(dir);
}

/* A clip that animates no root (skin.gltf's joints sit under an armature
 * node no channel moves; an FBX's or .X's under the reader's own root) is
 * turned all the same, with no warning; --allow unturned-root, the kind
 * once said of it, is still taken. */
static void rotate_turns_a_clip_below_a_still_root(void **state)
{
	char *turned = test_tmpdir("rotate-none"), *plain = test_tmpdir("rotate-none-plain");
	test_run r = test_animc("build", "-q", "--rotate", "90,0,0", "--warnings-as-errors", "-o", turned,
				"testdata/gltf/skin.gltf", NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	test_run_release(&r);
	r = test_animc("build", "-q", "--rotate", "90,0,0", "--warnings-as-errors", "--allow", "unturned-root", "-o",
		       turned, "testdata/gltf/skin.gltf", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", plain, "testdata/gltf/skin.gltf", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *plain_skin = test_format("%s/skin", plain), **files = test_list_dir(plain_skin, ".xnb");
	assert_non_null(files[0]);
	for (size_t i = 0; files[i]; i++) {
		char *a = test_format("%s/%s", plain_skin, files[i]), *b = test_format("%s/skin/%s", turned, files[i]);

		assert_true(worst_error(a, b, 1, (const double[3]){ 90, 0, 0 }) <= 1e-5);
		assert_false(test_same_bytes(a, b));
		free(a), free(b);
	}
	test_free_list(files);
	free(plain_skin), free(plain), free(turned);
}

/* --exact writes a RobotGame sequence's original bytes: --scale would
 * change them, so that source fails saying so (it wrote scaled keys),
 * naming the option given (it said "--scale and --rotate" whichever it
 * was); a glTF keeps its keys under --exact and takes the scale. */
static void exact_and_a_conversion_of_a_robotgame_sequence_fail(void **state)
{
	char *out = test_tmpdir("exact-scale");
	test_run r = test_animc("build", "-q", "--exact", "--scale", "2", "-o", out, "testdata/compact/sway.Animation",
				NULL);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "sway.Animation:3: error: --exact writes the original pipeline's bytes for this RobotGame "
			   "sequence, and --scale changes them: leave out one or the other\n"))
		fail_msg("%s", r.err);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--exact", "--rotate", "90,0,0", "-o", out, "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "sequence, and --rotate changes them: leave out one or the other\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--exact", "--rotate", "90,0,0", "--scale", "2", "-o", out,
		       "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "sequence, and --scale and --rotate change them: leave out one or the other\n"))
		fail_msg("%s", r.err);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--exact", "--scale", "2", "-o", out, "testdata/gltf/linear.gltf", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(out);
}

/* A --skeleton bone whose non-uniform rest scale the rotation turns off
 * its axes keeps the scale along them in its rest pose (what a bind
 * layer is a difference from), said as for a clip's keys; it was
 * approximated without a word. */
static void a_model_scale_turned_off_its_axes_is_said(void **state)
{
	char *dir = test_tmpdir("model-sheared");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--skeleton", "testdata/authoring/Walker_rest.gltf", "--rotate", "20,30,40",
		       "--clip", "Idle", "-o", dir, "testdata/authoring/Walker.xml", NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "warning: the model's bone 'Arm': the rotation turns its non-uniform rest scale off its "
			   "axes") || !strstr(r.err, "[sheared-scale]"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	/* By quarter turns the scale trades axes exactly: nothing said. */
	r = test_animc("build", "-q", "--skeleton", "testdata/authoring/Walker_rest.gltf", "--rotate", "90,0,0",
		       "--clip", "Idle", "-o", dir, "testdata/authoring/Walker.xml", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "the model's bone"));
	test_run_release(&r);
	free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(exact_and_a_conversion_of_a_robotgame_sequence_fail),
	cmocka_unit_test(rotate_turns_a_clip_below_a_still_root),
	cmocka_unit_test(gltf_matches_the_evaluator),
	cmocka_unit_test(robotgame_clip_turns_with_or_without_skeleton),
	cmocka_unit_test(rotation_and_scale_are_keyed),
	cmocka_unit_test(a_model_scale_turned_off_its_axes_is_said),
};

ANIMC_TEST_GROUP(tests);
