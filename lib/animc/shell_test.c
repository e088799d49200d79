/*
 * shell_test.c - the rigid-shell error (shell.c) and the lossy passes with a
 * skeleton: the stretch is the spectral norm, the model-space bound holds
 * when the result is evaluated here on its own, and bones near the tips,
 * which move little of the shell, keep fewer keys than the root.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animc_xform.h>

#include "shell.h"

static void rotation_z(double angle, double m[16])
{
	double q[4] = { 0, 0, sin(angle / 2), cos(angle / 2) };

	animc_mat4_from_quat(q, m);
}

static void stretch_is_the_spectral_norm(void **state)
{
	double a[16], b[16];

	(void)state;
	rotation_z(0.1, a);
	rotation_z(0, b);
	assert_float_equal(animc_shell_stretch(a, b), 2 * sin(0.05), 1e-12);
	memset(a, 0, sizeof a);
	a[0] = 1;
	a[5] = -3;
	a[10] = 2;
	assert_float_equal(animc_shell_stretch(a, NULL), 3, 1e-12);
	/* A general matrix against power iteration. */
	double m[16] = { 0.3, -1.2, 0.5, 0, 0.7, 0.1, -0.4, 0, -0.2, 0.9, 1.1, 0, 5, 6, 7, 1 };
	double v[3] = { 1, 1, 1 }, norm = 0;
	for (int it = 0; it < 200; it++) {
		double w[3], x[3];

		for (int c = 0; c < 3; c++)   /* w = M v (columns), x = M^T w */
			w[c] = m[c * 4] * v[0] + m[c * 4 + 1] * v[1] + m[c * 4 + 2] * v[2];
		for (int c = 0; c < 3; c++)
			x[c] = m[c] * w[0] + m[4 + c] * w[1] + m[8 + c] * w[2];
		double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
		for (int c = 0; c < 3; c++)
			v[c] = x[c] / n;
		norm = sqrt(n);
	}
	assert_float_equal(animc_shell_stretch(m, NULL), norm, 1e-9);
}

/* Root -> Arm -> Hand, one unit apart along X. */
static animc_skeleton chain_skeleton(void)
{
	static const char *const names[3] = { "Root", "Arm", "Hand" };
	animc_skeleton skel;

	memset(&skel, 0, sizeof skel);
	skel.bone_count = 3;
	skel.bones = calloc(3, sizeof *skel.bones);
	assert_non_null(skel.bones);
	for (int b = 0; b < 3; b++) {
		animc_bone *bone = &skel.bones[b];

		bone->name = names[b];
		bone->parent = b - 1;
		bone->translation[0] = b ? 1 : 0;
		bone->rotation[3] = 1;
		for (int k = 0; k < 3; k++)
			bone->scale[k] = 1;
		for (int k = 0; k < 4; k++)
			bone->local[k * 5] = 1;
		bone->local[12] = bone->translation[0];
	}
	return skel;
}

/* The same swing about Z on each bone of the chain. */
static animc_clip *swing_clip(void)
{
	enum { N = 121 };
	static const char *const names[3] = { "Root", "Arm", "Hand" };
	float r[4 * N];
	animc_clip *clip = animc_clip_create("swing");

	clip->duration_s = 4;
	for (int i = 0; i < N; i++) {
		double x = i / 30.0, angle = 0.4 * sin(1.3 * x) + 0.05 * sin(4.1 * x);

		r[4 * i] = r[4 * i + 1] = 0;
		r[4 * i + 2] = (float)sin(angle / 2);
		r[4 * i + 3] = (float)cos(angle / 2);
	}
	for (int b = 0; b < 3; b++) {
		float t[3] = { b ? 1.0f : 0.0f, 0, 0 };
		uint32_t ch = test_add_channel(clip, names[b], N, NULL, 1.0f / 30, 4);

		test_set_track(clip, ch, ANIMC_TRANSLATION, true, t, 1, NULL);
		test_set_track(clip, ch, ANIMC_ROTATION, false, r, N, NULL);
	}
	clip->declared_channel_count = 3;
	return clip;
}

/* A channel's rotation at time t, slerped here in double. */
static void rotation_at(const animc_channel *ch, double t, double out[4])
{
	const float *v = ch->tracks[ANIMC_ROTATION].values;
	uint32_t n = ch->tracks[ANIMC_ROTATION].is_fixed ? 1 : ch->key_count, i = 0;
	double u = 0;

	if (n > 1) {
		while (i + 2 < n && (ch->has_time ? ch->times_s[i + 1] : (i + 1) * (double)ch->key_interval_s) <= t)
			i++;
		double t0 = ch->has_time ? ch->times_s[i] : i * (double)ch->key_interval_s;
		double t1 = ch->has_time ? ch->times_s[i + 1] : (i + 1) * (double)ch->key_interval_s;
		u = fmin(fmax((t - t0) / (t1 - t0), 0), 1);
	}
	const float *a = v + 4 * i, *b = n > 1 ? v + 4 * (i + 1) : a;
	double dot = 0;
	for (int k = 0; k < 4; k++)
		dot += (double)a[k] * b[k];
	double sign = dot < 0 ? -1 : 1, angle = acos(fmin(fabs(dot), 1));
	double w0 = angle > 1e-9 ? sin((1 - u) * angle) / sin(angle) : 1 - u;
	double w1 = angle > 1e-9 ? sin(u * angle) / sin(angle) : u;
	for (int k = 0; k < 4; k++)
		out[k] = w0 * a[k] + sign * w1 * b[k];
}

/* The worst displacement of the points `distance` along each bone's axes,
 * source against result, at 1 kHz. */
static double model_error(const animc_clip *a, const animc_clip *b, double distance)
{
	double worst = 0;

	for (int i = 0; i <= 4000; i++) {
		double t = i / 1000.0, wa[3][16], wb[3][16];

		for (int bone = 0; bone < 3; bone++) {
			double q[4], tr[3] = { bone ? 1 : 0, 0, 0 }, sc[3] = { 1, 1, 1 }, local[16];
			const animc_clip *clips[2] = { a, b };
			double(*w[2])[16] = { wa, wb };

			for (int k = 0; k < 2; k++) {
				rotation_at(&clips[k]->channels[bone], t, q);
				animc_mat4_compose(tr, q, sc, local);
				if (bone)
					animc_mat4_multiply(local, w[k][bone - 1], w[k][bone]);
				else
					memcpy(w[k][bone], local, sizeof local);
			}
			for (int axis = 0; axis < 6; axis++) {
				double p[3] = { 0, 0, 0 }, d2 = 0;

				p[axis % 3] = axis < 3 ? distance : -distance;
				for (int c = 0; c < 3; c++) {
					const double *x = wa[bone], *y = wb[bone];
					double d = p[0] * (x[c] - y[c]) + p[1] * (x[4 + c] - y[4 + c]) +
						   p[2] * (x[8 + c] - y[8 + c]) + x[12 + c] - y[12 + c];

					d2 += d * d;
				}
				worst = fmax(worst, sqrt(d2));
			}
		}
	}
	return worst;
}

static void model_space_bound_holds_and_tips_loosen(void **state)
{
	animc_skeleton skel = chain_skeleton();

	(void)state;
	for (int layout = 0; layout < 2; layout++) {
		animc_clip *src = swing_clip(), *out = swing_clip();
		animc_process_options lossless = { 0 }, lossy = { 0 };
		animc_pass_stats stats = { 0 };

		lossy.reduce.tolerance.translation = 0.01f;
		lossy.reduce.tolerance.rotation_deg = 0.05f;
		lossy.reduce.skeleton = &skel;
		lossy.reduce.shell_distance = 0.5f;
		lossy.layout = layout ? ANIMC_LAYOUT_COMPACT : ANIMC_LAYOUT_ORIGINAL;
		assert_int_equal(animc_clip_process(src, &lossless, NULL, NULL), ANIMC_OK);
		assert_int_equal(animc_clip_process(out, &lossy, NULL, &stats), ANIMC_OK);
		assert_true(stats.is_reduced);
		assert_true(stats.error.shell > 0 && stats.error.shell <= 0.01);
		assert_true(stats.error.keys_after < stats.error.keys_before);
		if (layout == 0) {
			double e = model_error(src, out, 0.5);

			print_message("original: shell %.3g (measured here %.3g), keys %u %u %u of 121\n",
				      stats.error.shell, e, out->channels[0].key_count, out->channels[1].key_count,
				      out->channels[2].key_count);
			assert_true(e <= 0.01);
			assert_true(e >= stats.error.shell * 0.5);   /* the measure is not loose */
			/* Same swing, less shell moved: fewer keys at the tip. */
			assert_true(out->channels[2].key_count < out->channels[0].key_count);
		} else {
			const animc_compact *c = out->compact;

			assert_non_null(c);
			assert_int_equal(c->tracks[0][ANIMC_ROTATION].kind, ANIMC_COMPACT_ANIMATED);
			assert_true(c->tracks[2][ANIMC_ROTATION].kind != ANIMC_COMPACT_ANIMATED ||
				    c->tracks[2][ANIMC_ROTATION].bits < c->tracks[0][ANIMC_ROTATION].bits ||
				    c->tracks[2][ANIMC_ROTATION].key_count < c->tracks[0][ANIMC_ROTATION].key_count);
		}
		animc_clip_destroy(src);
		animc_clip_destroy(out);
	}
	animc_skeleton_release(&skel);
}

/* Without a skeleton the same bounds apply to each track alone: the three
 * identical swings keep the same keys. */
static void without_a_skeleton_each_track_alone(void **state)
{
	animc_clip *out = swing_clip();
	animc_process_options lossy = { 0 };
	animc_pass_stats stats = { 0 };

	(void)state;
	lossy.reduce.tolerance.translation = 0.01f;
	lossy.reduce.tolerance.rotation_deg = 0.05f;
	assert_int_equal(animc_clip_process(out, &lossy, NULL, &stats), ANIMC_OK);
	assert_true(stats.error.shell == 0);
	assert_int_equal(out->channels[2].key_count, out->channels[0].key_count);
	animc_clip_destroy(out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(stretch_is_the_spectral_norm),
	cmocka_unit_test(model_space_bound_holds_and_tips_loosen),
	cmocka_unit_test(without_a_skeleton_each_track_alone),
};

ANIMC_TEST_GROUP(tests);
