/*
 * reduce_cli_test.c - --tolerance in the original layout against the
 * lossless file of the same source, as libanimrt plays both: on long
 * takes whose keys the lossless file steps through by a float KeyInterval,
 * at the float times beside the keys.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animrt.h>

/* A BVH of one root bone, `frames` frames `frame_time` apart (as the file
 * writes it), each frame's six channels (position x y z, rotation z y x in
 * degrees) from frame(t, out): its path in dir. */
static char *write_root_bvh(const char *dir, const char *name, int frames, const char *frame_time,
			    void (*frame)(double t, double out[6]))
{
	size_t cap = (size_t)frames * 96 + 512, len = 0;
	char *text = malloc(cap), *path = test_format("%s/%s", dir, name);
	double step = atof(frame_time);

	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len,
				"HIERARCHY\nROOT Root\n{\nOFFSET 0 0 0\n"
				"CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
				"End Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: %d\nFrame Time: %s\n", frames,
				frame_time);
	for (int f = 0; f < frames; f++) {
		double v[6];

		frame(f * step, v);
		len += (size_t)snprintf(text + len, cap - len, "%.5f %.5f %.5f %.5f %.5f %.5f\n", v[0], v[1], v[2], v[3],
					v[4], v[5]);
	}
	assert_true(len < cap);
	assert_true(test_write_file(path, text, len));
	free(text);
	return path;
}

/* A root that turns 20 sin t degrees about Z. */
static void swaying(double t, double out[6])
{
	out[0] = out[1] = out[2] = out[4] = out[5] = 0;
	out[3] = 20 * sin(t);
}

/* A root that sways about three axes and turns by `turn` degrees in 0.1 s
 * from `at` s; out[0..2] its travel (none). */
static void swaying_with_a_turn(double t, double at, double turn, double out[6])
{
	double u = fmin(1, fmax(0, (t - at) / 0.1));

	out[0] = out[1] = out[2] = 0;
	out[3] = 20 * sin(t) + turn * u * u * (3 - 2 * u);
	out[4] = 10 * cos(t);
	out[5] = 5 * sin(7 * t);
}

static void turning_late(double t, double out[6])
{
	swaying_with_a_turn(t, 290.971, -120, out);
}

static void walking_and_turning(double t, double out[6])
{
	swaying_with_a_turn(t, 9.971, -120, out);
	out[0] = 3 * sin(t / 7);
	out[1] = 90;
	out[2] = 0.01 * t;
}

/* A root that drifts 5 units about (2000, 1000, 1600). */
static void far_from_the_origin(double t, double out[6])
{
	out[0] = 2000 + 5 * sin(0.5 * t);
	out[1] = 1000 + 5 * cos(0.65 * t);
	out[2] = 1600 + 5 * sin(0.85 * t);
	out[3] = out[4] = out[5] = 0;
}

/* src built lossless into `lossless` and with --tolerance `tolerance` into
 * `reduced`, each with --root-motion `root_motion` unless NULL. */
static void build_twins(const char *src, const char *lossless, const char *reduced, const char *tolerance,
			const char *root_motion)
{
	/* -q again without --root-motion: one argument list either way. */
	const char *motion[2] = { root_motion ? "--root-motion" : "-q", root_motion ? root_motion : "-q" };

	for (int i = 0; i < 2; i++) {
		const char *out = i ? reduced : lossless;
		test_run r = i ? test_animc("build", "-q", motion[0], motion[1], "--tolerance", tolerance, "-o", out, src,
					    NULL)
			       : test_animc("build", "-q", motion[0], motion[1], "-o", out, src, NULL);

		assert_int_equal(r.status, 0);
		test_run_release(&r);
	}
}

/* Six and a half minutes at 30 Hz: the lossless file plays key k at
 * k x float(0.0333333), 1.6e-5 s past its source time by the end.  The
 * reduction measured against the source's times and let the error reach
 * 98% of the bound there, so the reduced file played up to 0.00514
 * degrees from the lossless one at --tolerance 0.0001,0.005,0.00001. */
static void reduced_long_takes_stay_within_the_bound_of_the_lossless_file(void **state)
{
	char *dir = test_tmpdir("reduce-long"), *src = write_root_bvh(dir, "long.bvh", 12000, "0.0333333", swaying);
	char *lossless = test_format("%s/lossless", dir), *reduced = test_format("%s/reduced", dir);

	(void)state;
	build_twins(src, lossless, reduced, "0.0001,0.005,0.00001", NULL);
	char *a = test_format("%s/long/Motion.xnb", lossless), *b = test_format("%s/long/Motion.xnb", reduced);
	test_error e = test_compare_files(a, b, 0, true);
	if (!(e.rotation_deg <= 0.005))
		fail_msg("%s: %g degrees from the lossless file, past 0.005", b, e.rotation_deg);
	free(a), free(b);
	free(src), free(reduced), free(lossless), free(dir);
}

/* The angle in degrees between two rotations (q and -q alike). */
static double angle_between(const float *a, const float *b)
{
	double dot = 0, na = 0, nb = 0;

	for (int k = 0; k < 4; k++) {
		dot += (double)a[k] * b[k];
		na += (double)a[k] * a[k];
		nb += (double)b[k] * b[k];
	}
	return 2 * acos(fmin(1, fabs(dot) / sqrt(na * nb))) * (180 / 3.14159265358979323846);
}

/* Five minutes at 120 Hz (Frame Time 0.0083333) with a 120-degree turn in
 * 0.1 s at 291 s.  A timed key there lies at the float time nearest i x
 * KeyInterval, 1.3e-5 s past where the lossless file turns, and the float
 * before it sampled the lossless file before its corner and the reduced
 * one on its way to the key: 0.00538 degrees at the tight tolerance,
 * which the reduction, measuring at the key and between keys, did not
 * see.  Every float time across the turn is now within the bound. */
static void reduced_keys_late_in_a_long_take_hold_the_bound_beside_them(void **state)
{
	char *dir = test_tmpdir("reduce-corner");
	char *src = write_root_bvh(dir, "take.bvh", 36001, "0.0083333", turning_late);
	char *lossless = test_format("%s/lossless", dir), *reduced = test_format("%s/reduced", dir);

	(void)state;
	build_twins(src, lossless, reduced, "0.0001,0.005,0.00001", NULL);
	char *a = test_format("%s/take/Motion.xnb", lossless), *b = test_format("%s/take/Motion.xnb", reduced);
	animrt_clip *ca, *cb;
	double worst = 0;
	float worst_t = 0;

	assert_int_equal(animrt_open_file(a, &ca, NULL), ANIMRT_OK);
	assert_int_equal(animrt_open_file(b, &cb, NULL), ANIMRT_OK);
	assert_true(cb->container.file_size_bytes < ca->container.file_size_bytes);
	for (float t = 290.95f; t < 291.15f; t = nextafterf(t, INFINITY)) {
		float v[2][3][4];

		assert_int_equal(animrt_clip_sample_bone(ca, 0, t, ANIMRT_PLAY_ONCE, NULL, v[0][0], v[0][1], v[0][2]),
				 ANIMRT_OK);
		assert_int_equal(animrt_clip_sample_bone(cb, 0, t, ANIMRT_PLAY_ONCE, NULL, v[1][0], v[1][1], v[1][2]),
				 ANIMRT_OK);
		double e = angle_between(v[0][1], v[1][1]);
		if (e > worst) {
			worst = e;
			worst_t = t;
		}
	}
	if (!(worst <= 0.005))
		fail_msg("%s: %g degrees from the lossless file at %.9g s, past 0.005", b, worst, (double)worst_t);
	animrt_close(ca);
	animrt_close(cb);
	free(a), free(b), free(src), free(reduced), free(lossless), free(dir);
}

/* --root-motion Root,yaw on a 20 s 29.97 Hz take with a 120-degree turn in
 * 0.1 s at 10 s.  The reduced build extracted the motion more loosely than
 * the lossless one and measured against that: the in-place clip played
 * 0.0534 degrees and the motion 0.0512 from their lossless twins at
 * --tolerance default.  Each file now stays within the bound of its twin
 * (60 Hz, every key and 1 kHz). */
static void reduced_root_motion_files_stay_within_the_bound_of_their_lossless_twins(void **state)
{
	char *dir = test_tmpdir("reduce-motion");
	char *src = write_root_bvh(dir, "turn.bvh", 600, "0.0333667", walking_and_turning);
	char *lossless = test_format("%s/lossless", dir), *reduced = test_format("%s/reduced", dir);

	(void)state;
	build_twins(src, lossless, reduced, "default", "Root,yaw");
	for (int motion = 0; motion < 2; motion++) {
		const char *name = motion ? "Motion.motion.xnb" : "Motion.xnb";
		char *a = test_format("%s/turn/%s", lossless, name), *b = test_format("%s/turn/%s", reduced, name);
		test_error e = test_compare_files(a, b, 1000, false);
		if (!(e.rotation_deg <= 0.05 && e.translation <= 0.001))
			fail_msg("%s: %g degrees, %g units from the lossless file, past 0.05 and 0.001", b, e.rotation_deg,
				 e.translation);
		free(a), free(b);
	}
	free(src), free(reduced), free(lossless), free(dir);
}

/* Ten seconds at 60 Hz of a root near 2000 units, where a float step of
 * the values is 1.2e-4, an eighth of the default bound.  The reduction
 * kept back 2% of the bound for rounding, and the reduced file played up
 * to 0.00108 units from the lossless one between the points it measured.
 * The keys now keep float steps of the track's largest value back too:
 * within 0.001 at 20 kHz. */
static void reduced_tracks_far_from_the_origin_stay_within_the_bound(void **state)
{
	char *dir = test_tmpdir("reduce-far"), *src = write_root_bvh(dir, "far.bvh", 600, "0.0166667",
								     far_from_the_origin);
	char *lossless = test_format("%s/lossless", dir), *reduced = test_format("%s/reduced", dir);

	(void)state;
	build_twins(src, lossless, reduced, "default", NULL);
	char *a = test_format("%s/far/Motion.xnb", lossless), *b = test_format("%s/far/Motion.xnb", reduced);
	test_error e = test_compare_files(a, b, 20000, true);
	if (!(e.translation <= 0.001))
		fail_msg("%s: %g units from the lossless file, past 0.001", b, e.translation);
	free(a), free(b);
	free(src), free(reduced), free(lossless), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reduced_long_takes_stay_within_the_bound_of_the_lossless_file),
	cmocka_unit_test(reduced_keys_late_in_a_long_take_hold_the_bound_beside_them),
	cmocka_unit_test(reduced_root_motion_files_stay_within_the_bound_of_their_lossless_twins),
	cmocka_unit_test(reduced_tracks_far_from_the_origin_stay_within_the_bound),
};

ANIMC_TEST_GROUP(tests);
