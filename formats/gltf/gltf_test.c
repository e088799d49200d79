/*
 * gltf_test.c - the glTF importer in process: every fixture of
 * testdata/gltf imported, processed, written and loaded, then sampled as the
 * original runtime samples it, against a reference evaluator of the glTF
 * 2.0 sampler rules written here from the keys in NAME.keys.json (decoded
 * by scripts/make-gltf-fixtures, not by the importer); the key conversion on
 * its own; hostile documents; recognition; skeletons and names against the
 * Assimp path.  gltf_cli_test.c covers the command line.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <jansson.h>

#include "test_support.h"
#include <animc/animc_xform.h>
#include <animc/animrt.h>
#include "assimp/assimp_internal.h"
#include "gltf_internal.h"

#define FIXTURES "testdata/gltf"
#define HOSTILE FIXTURES "/hostile"

/* ------------------------------------------------- the reference evaluator */

/* One animated track of a fixture, as the glTF 2.0 specification reads it. */
typedef struct ref_track {
	const char *clip, *bone, *path, *interpolation;
	size_t n;            /* keys */
	unsigned width;      /* 3, or 4 for rotations */
	double *times;
	double *values;      /* n (or 3n for CUBICSPLINE) elements of width */
} ref_track;

static void ref_normalise(double *q)
{
	double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

	for (int i = 0; i < 4; i++)
		q[i] /= len;
}

/* The specification's slerp: shortest arc, in double precision. */
static void ref_slerp(const double *a, const double *b, double u, double *out)
{
	double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], s = d < 0 ? -1 : 1;
	double angle = acos(fmin(1.0, fabs(d)));

	if (angle < 1e-9) {
		for (int i = 0; i < 4; i++)
			out[i] = a[i];
		return;
	}
	for (int i = 0; i < 4; i++)
		out[i] = sin((1 - u) * angle) / sin(angle) * a[i] + s * sin(u * angle) / sin(angle) * b[i];
}

static const double *ref_value(const ref_track *t, size_t k)
{
	bool cubic = strcmp(t->interpolation, "CUBICSPLINE") == 0;

	return &t->values[(k * (cubic ? 3 : 1) + cubic) * t->width];
}

/* The track at time t: held before the first key and after the last. */
static void ref_sample(const ref_track *t, double time, double *out)
{
	size_t k = 0;

	if (time <= t->times[0] || t->n == 1) {
		memcpy(out, ref_value(t, 0), t->width * sizeof *out);
		return;
	}
	if (time >= t->times[t->n - 1]) {
		memcpy(out, ref_value(t, t->n - 1), t->width * sizeof *out);
		return;
	}
	while (t->times[k + 1] <= time)
		k++;
	double t0 = t->times[k], t1 = t->times[k + 1], d = t1 - t0, s = (time - t0) / d;
	const double *a = ref_value(t, k), *b = ref_value(t, k + 1);

	if (strcmp(t->interpolation, "STEP") == 0) {
		memcpy(out, a, t->width * sizeof *out);
	} else if (strcmp(t->interpolation, "LINEAR") == 0) {
		if (t->width == 4)
			ref_slerp(a, b, s, out);
		else
			for (unsigned i = 0; i < t->width; i++)
				out[i] = a[i] + (b[i] - a[i]) * s;
	} else {
		const double *bk = &t->values[(k * 3 + 2) * t->width];   /* out-tangent of k */
		const double *ak1 = &t->values[((k + 1) * 3) * t->width]; /* in-tangent of k+1 */
		double s2 = s * s, s3 = s2 * s;

		for (unsigned i = 0; i < t->width; i++)
			out[i] = (2 * s3 - 3 * s2 + 1) * a[i] + (s3 - 2 * s2 + s) * d * bk[i] +
				 (-2 * s3 + 3 * s2) * b[i] + (s3 - s2) * d * ak1[i];
		if (t->width == 4)
			ref_normalise(out);
	}
}

/* Distance between a sampled value and the reference: rotation angle in
 * radians, else the largest component difference. */
static double ref_error(unsigned width, const float *got, const double *want)
{
	double e = 0;

	if (width == 4) {
		/* Both normalised in double (float output is unit to about 1e-7,
		 * which acos near 1 would blow up to 1e-3 rad), then the angle as
		 * 4 atan2(|a - b|, |a + b|), exact near 0. */
		double g[4], w[4], dot = 0, diff = 0, sum = 0;

		for (int i = 0; i < 4; i++) {
			g[i] = got[i];
			w[i] = want[i];
			dot += g[i] * w[i];
		}
		ref_normalise(g);
		ref_normalise(w);
		for (int i = 0; i < 4; i++) {
			double a = g[i], b = dot < 0 ? -w[i] : w[i];

			diff += (a - b) * (a - b);
			sum += (a + b) * (a + b);
		}
		return 4 * atan2(sqrt(diff), sqrt(sum));
	}
	for (unsigned i = 0; i < width; i++)
		e = fmax(e, fabs(got[i] - want[i]));
	return e;
}

typedef struct fixture {
	json_t *root;
	ref_track *tracks;
	size_t count;
} fixture;

static void fixture_load(fixture *f, const char *keys_path)
{
	json_error_t err;
	json_t *tracks;

	f->root = json_load_file(keys_path, 0, &err);
	if (!f->root)
		fail_msg("%s:%d: %s", keys_path, err.line, err.text);
	tracks = json_object_get(f->root, "tracks");
	f->count = json_array_size(tracks);
	f->tracks = calloc(f->count, sizeof *f->tracks);
	assert_non_null(f->tracks);
	for (size_t i = 0; i < f->count; i++) {
		json_t *o = json_array_get(tracks, i), *times = json_object_get(o, "times"),
		       *values = json_object_get(o, "values");
		ref_track *t = &f->tracks[i];

		t->clip = json_string_value(json_object_get(o, "clip"));
		t->bone = json_string_value(json_object_get(o, "bone"));
		t->path = json_string_value(json_object_get(o, "path"));
		t->interpolation = json_string_value(json_object_get(o, "interpolation"));
		t->width = strcmp(t->path, "rotation") == 0 ? 4 : 3;
		t->n = json_array_size(times);
		t->times = calloc(t->n, sizeof *t->times);
		t->values = calloc(json_array_size(values), sizeof *t->values);
		assert_non_null(t->times);
		assert_non_null(t->values);
		for (size_t k = 0; k < t->n; k++)
			t->times[k] = json_number_value(json_array_get(times, k));
		for (size_t k = 0; k < json_array_size(values); k++)
			t->values[k] = json_number_value(json_array_get(values, k));
		/* Quantised rotations are near unit; the specification's values
		 * are unit quaternions, so every reader normalises them. */
		if (t->width == 4) {
			bool cubic = strcmp(t->interpolation, "CUBICSPLINE") == 0;

			for (size_t k = 0; k < t->n; k++)
				ref_normalise(&t->values[(k * (cubic ? 3 : 1) + cubic) * 4]);
		}
	}
}

static void fixture_release(fixture *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->tracks[i].times);
		free(f->tracks[i].values);
	}
	free(f->tracks);
	json_decref(f->root);
}

/* Worst error of a track over its keys, the floats around them, a grid of
 * 2000 times and times past the end, in both play modes. */
static double track_error(const ref_track *t, const animrt_clip *clip)
{
	const animrt_sequence *seq = test_sequence_of(clip, t->bone);
	double worst = 0, end = clip->duration_s;
	size_t n = 0, cap = t->n * 5 + 2010;
	double *times = calloc(cap, sizeof *times);

	assert_non_null(times);
	for (size_t k = 0; k < t->n; k++) {
		float tk = (float)t->times[k];

		if (tk < 0)
			continue;
		times[n++] = tk;
		times[n++] = nextafterf(tk, INFINITY);
		if (tk > 0)
			times[n++] = nextafterf(tk, -INFINITY);
	}
	for (int i = 0; i <= 2000; i++)
		times[n++] = (float)(end * i / 2000.0);
	times[n++] = (float)(end * 1.5);
	for (size_t i = 0; i < n; i++) {
		float tr[3], rot[4], sc[3];
		double want[4], e;
		const float *got;

		animrt_sequence_sample(seq, (float)times[i], ANIMRT_PLAY_ONCE, NULL, tr, rot, sc);
		got = strcmp(t->path, "translation") == 0 ? tr : strcmp(t->path, "rotation") == 0 ? rot : sc;
		/* Once mode holds the end past the clip's length. */
		ref_sample(t, fmin(times[i], end), want);
		e = ref_error(t->width, got, want);
		worst = fmax(worst, e);
	}
	free(times);
	return worst;
}

/* A fixture's clips as `animc build` makes them (import, the default
 * passes, the writer), loaded back by the runtime library. */
typedef struct compiled {
	animrt_clip **clips;
	char **names;
	uint32_t count;
} compiled;

static void compile_fixture(const char *path, const animc_import_options *options, compiled *out)
{
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	animc_import_request req = { path, data, size, options };
	animc_clip_set set = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, path);

	assert_int_equal(animc_importer_find(path, data, size < ANIMC_PROBE_HEAD_BYTES ? size :
					     ANIMC_PROBE_HEAD_BYTES), &animc_importer_gltf);
	assert_int_equal(animc_importer_gltf.import(&req, &set, &sink), ANIMC_OK);
	out->count = set.count;
	out->clips = calloc(set.count, sizeof *out->clips);
	out->names = calloc(set.count, sizeof *out->names);
	assert_non_null(out->clips);
	assert_non_null(out->names);
	for (uint32_t i = 0; i < set.count; i++) {
		uint8_t *xnb;
		size_t xnb_size;
		animrt_error err;

		assert_int_equal(animc_clip_process(set.clips[i], NULL, &sink, NULL), ANIMC_OK);
		assert_int_equal(animc_xnb_write(set.clips[i], NULL, &xnb, &xnb_size, &sink), ANIMC_OK);
		if (animrt_open(xnb, xnb_size, &out->clips[i], &err) != ANIMRT_OK)
			fail_msg("%s: %s", path, err.message);
		out->names[i] = strdup(set.clips[i]->name);
		free(xnb);
	}
	assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), 0);
	animc_clip_set_release(&set);
	test_diags_release(&diags);
	free(data);
}

static void compiled_release(compiled *c)
{
	for (uint32_t i = 0; i < c->count; i++) {
		animrt_close(c->clips[i]);
		free(c->names[i]);
	}
	free(c->clips);
	free(c->names);
}

/* Compile every fixture and sample each animated track against the
 * reference: LINEAR and STEP to float precision (STEP included at the
 * float just below each change), CUBICSPLINE within 1e-4. */
static void fixtures_sample_as_the_specification_says(void **state)
{
	char **files = test_list_dir(FIXTURES, ".keys.json");
	size_t tracks = 0, modes[3] = { 0 };

	(void)state;
	for (char **p = files; *p; p++) {
		char *keys = test_format("%s/%s", FIXTURES, *p);
		fixture f = { 0 };
		compiled c = { 0 };
		const char *source;
		char *src;

		fixture_load(&f, keys);
		source = json_string_value(json_object_get(f.root, "source"));
		src = test_format("%s/%s", FIXTURES, source);
		compile_fixture(src, NULL, &c);
		for (size_t i = 0; i < f.count; i++) {
			const ref_track *t = &f.tracks[i];
			const animrt_clip *clip = NULL;
			double worst, bound;

			for (uint32_t k = 0; k < c.count && !clip; k++)
				if (strcmp(c.names[k], t->clip) == 0)
					clip = c.clips[k];
			if (!clip)
				fail_msg("%s: no clip '%s'", source, t->clip);
			worst = track_error(t, clip);
			if (strcmp(t->interpolation, "CUBICSPLINE") == 0) {
				bound = 1e-4;
				modes[2]++;
			} else {
				/* Float keys, float interpolation: float precision
				 * (values here stay below 128; STEP sampled at the
				 * float below each change too). */
				bound = t->width == 4 ? 2e-6 : 1.6e-5;
				modes[strcmp(t->interpolation, "STEP") == 0]++;
			}
			if (worst > bound)
				fail_msg("%s [%s] bone '%s' %s (%s): error %g > %g", source, t->clip, t->bone,
					 t->path, t->interpolation, worst, bound);
			tracks++;
		}
		compiled_release(&c);
		free(src);
		fixture_release(&f);
		free(keys);
	}
	assert_true(tracks >= 30);
	assert_true(modes[0] >= 10 && modes[1] >= 5 && modes[2] >= 4);
	test_free_list(files);
}

/* A build's tolerance leaves the bake as it is without one: the reduction
 * measures each lossy output against the keys the lossless file holds.
 * Baked within a tenth of the tolerance, the default tolerance's output
 * played 0.0511 degrees from the lossless file; a tolerance tighter than
 * the bake (1e-6,1e-4,1e-7) baked 20 times the keys, and its reduced file
 * (850,808 bytes against 41,340) was bigger than the lossless one. */
static void every_tolerance_keeps_the_default_bake(void **state)
{
	const animc_tolerance given[] = { { 1e-6f, 1e-4f, 1e-7f }, { 1e-3f, 0.05f, 1e-4f }, { 0.02f, 2.0f, 0.02f } };
	compiled plain = { 0 };

	(void)state;
	compile_fixture(FIXTURES "/cubic.gltf", NULL, &plain);
	for (int i = 0; i < 3; i++) {
		const animc_import_options options = { .tolerance = &given[i] };
		compiled c = { 0 };

		compile_fixture(FIXTURES "/cubic.gltf", &options, &c);
		assert_int_equal(plain.count, c.count);
		for (uint32_t k = 0; k < plain.count; k++)
			for (uint32_t s = 0; s < plain.clips[k]->sequence_count; s++) {
				const animrt_sequence *p = &plain.clips[k]->sequences[s];
				const animrt_sequence *f = test_sequence_of(c.clips[k], p->bone);

				assert_int_equal(f->key_count, p->key_count);
				assert_int_equal(f->time_count, p->time_count);
				assert_true(f->key_interval_s == p->key_interval_s);
				assert_memory_equal(f->times_s, p->times_s, p->time_count * sizeof *p->times_s);
			}
		compiled_release(&c);
	}
	compiled_release(&plain);
}

/* Bounds are in the output's units: a build that scales translations by
 * 100 after the import bakes them 100 times finer (at --scale 100 a curve
 * baked within 1e-4 of the source came out 4.9e-3 off). */
static void translations_bake_in_the_outputs_units(void **state)
{
	const animc_import_options scaled = { .length_scale = 100 };
	fixture f = { 0 };
	compiled c = { 0 };
	size_t checked = 0;

	(void)state;
	fixture_load(&f, FIXTURES "/cubic.keys.json");
	compile_fixture(FIXTURES "/cubic.gltf", &scaled, &c);
	for (size_t i = 0; i < f.count; i++) {
		const ref_track *t = &f.tracks[i];

		if (strcmp(t->path, "translation") != 0)
			continue;
		for (uint32_t k = 0; k < c.count; k++) {
			if (strcmp(c.names[k], t->clip) != 0)
				continue;
			double worst = track_error(t, c.clips[k]);
			if (worst > 1e-6)
				fail_msg("bone '%s' translation: error %g > 1e-6 (1e-4 at --scale 100)", t->bone, worst);
			checked++;
		}
	}
	assert_true(checked > 0);
	compiled_release(&c);
	fixture_release(&f);
}

/* ------------------------------------------------------------- key conversion */

/* STEP: one holding key at the float below each change, none for a key
 * that changes nothing; a key at 0 before a late first key. */
static void step_keys_hold_until_the_next(void **state)
{
	const float times[] = { 0.5f, 1.0f, 2.0f, 3.0f };
	const float values[] = { 1, 1, 1, 2, 2, 2, 2, 2, 2, 5, 5, 5 };
	const float want_t[] = { 0, 0.5f, nextafterf(1.0f, 0), 1.0f, nextafterf(3.0f, 0), 3.0f };
	const float want_v[] = { 1, 1, 1, 2, 2, 5 };
	gltf_keys k;

	(void)state;
	assert_int_equal(animc_gltf_keys_build(GLTF_STEP, false, 3, times, values, 4, 1e-4, &k), ANIMC_OK);
	assert_int_equal(k.count, 6);
	for (uint32_t i = 0; i < 6; i++) {
		assert_true(k.times_s[i] == want_t[i]);
		assert_true(k.values[i * 3] == want_v[i]);
	}
	animc_gltf_keys_release(&k);
	/* A change one float after the last: no float between them to hold
	 * the old value at, so no holding key (it would repeat a time). */
	const float close_t[] = { 0.0f, 1.0f, nextafterf(1.0f, 2) };
	const float close_v[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3 };
	assert_int_equal(animc_gltf_keys_build(GLTF_STEP, false, 3, close_t, close_v, 3, 1e-4, &k), ANIMC_OK);
	assert_int_equal(k.count, 4);
	for (uint32_t i = 1; i < k.count; i++)
		assert_true(k.times_s[i] > k.times_s[i - 1]);
	assert_true(k.times_s[3] == close_t[2] && k.values[9] == 3);
	animc_gltf_keys_release(&k);
}

/* Keys before 0 are cut, the value at 0 interpolated by the sampler's rule. */
static void keys_before_zero_are_cut(void **state)
{
	const float times[] = { -2.0f, -1.0f, 1.0f };
	const float values[] = { 9, 9, 9, 0, 0, 0, 4, 8, 12 };
	gltf_keys k;

	(void)state;
	assert_int_equal(animc_gltf_keys_build(GLTF_LINEAR, false, 3, times, values, 3, 1e-4, &k), ANIMC_OK);
	assert_int_equal(k.count, 2);
	assert_int_equal(k.dropped_before_zero, 2);
	assert_true(k.times_s[0] == 0 && k.times_s[1] == 1.0f);
	assert_true(k.values[0] == 2 && k.values[1] == 4 && k.values[2] == 6);
	animc_gltf_keys_release(&k);
	assert_int_equal(animc_gltf_keys_build(GLTF_STEP, false, 3, times, values, 3, 1e-4, &k), ANIMC_OK);
	assert_true(k.times_s[0] == 0 && k.values[0] == 0);
	assert_true(k.times_s[k.count - 1] == 1.0f && k.values[(k.count - 1) * 3] == 4);
	animc_gltf_keys_release(&k);
	/* Every key before 0: the last one holds from 0 on. */
	assert_int_equal(animc_gltf_keys_build(GLTF_LINEAR, false, 3, times, values, 2, 1e-4, &k), ANIMC_OK);
	assert_int_equal(k.count, 1);
	assert_true(k.times_s[0] == 0 && k.values[0] == 0);
	animc_gltf_keys_release(&k);
	/* A key at 0 itself is kept as it is: one key at 0, not two. */
	const float at_zero[] = { -1.0f, 0.0f, 1.0f };
	assert_int_equal(animc_gltf_keys_build(GLTF_LINEAR, false, 3, at_zero, values, 3, 1e-4, &k), ANIMC_OK);
	assert_int_equal(k.count, 2);
	assert_int_equal(k.dropped_before_zero, 1);
	assert_true(k.times_s[0] == 0 && k.times_s[1] == 1.0f);
	assert_true(k.values[0] == 0 && k.values[3] == 4);
	animc_gltf_keys_release(&k);
}

/* A rotation cut at 0 takes its value there as the runtime interpolates:
 * the shorter arc (the second key given in the other hemisphere), and a
 * true slerp, not a normalised lerp, for a turn of 40 degrees. */
static void a_rotation_cut_at_zero_is_slerped_the_short_way(void **state)
{
	const float times[] = { -1.0f, 1.0f }, quarter_times[] = { -1.0f, 3.0f };
	const float s45 = (float)sin(M_PI / 4), c45 = (float)cos(M_PI / 4);
	const float opposite[] = { 0, 0, 0, 1, 0, 0, -s45, -c45 };   /* a quarter turn about z, negated */
	const float forty[] = { 0, 0, 0, 1, 0, 0, (float)sin(M_PI / 9), (float)cos(M_PI / 9) };
	gltf_keys k;

	(void)state;
	assert_int_equal(animc_gltf_keys_build(GLTF_LINEAR, true, 4, times, opposite, 2, 1e-4, &k), ANIMC_OK);
	assert_true(k.times_s[0] == 0);
	/* Halfway: an eighth turn about z, in either sign. */
	assert_float_equal(fabs(k.values[2]), sin(M_PI / 8), 1e-6);
	assert_float_equal(fabs(k.values[3]), cos(M_PI / 8), 1e-6);
	assert_true((k.values[2] > 0) == (k.values[3] > 0));
	animc_gltf_keys_release(&k);
	/* A quarter of the way through 40 degrees: 10 degrees. */
	assert_int_equal(animc_gltf_keys_build(GLTF_LINEAR, true, 4, quarter_times, forty, 2, 1e-4, &k), ANIMC_OK);
	assert_true(k.times_s[0] == 0);
	assert_float_equal(k.values[2], sin(M_PI / 36), 1e-6);
	assert_float_equal(k.values[3], cos(M_PI / 36), 1e-6);
	animc_gltf_keys_release(&k);
}

/* CUBICSPLINE: the baked keys stay within the bound everywhere, fewer keys
 * for a looser bound (the seam --tolerance will use), and a near-linear
 * segment needs no key inside. */
static void cubic_bake_keeps_its_bound(void **state)
{
	const float times[] = { 0.0f, 0.7f, 1.0f };
	const float values[] = { 0, 0, 0, 0, 0, 0, 10, -3, 2,    /* in, value, out */
				 -5, 1, 0, 2, 1, 0, 7, 0, -1,
				 0, 0, 0, -1, 1, 3, 0, 0, 0 };
	const float line_times[] = { 0.0f, 1.0f };
	const float line[] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0 };
	double bounds[] = { 1e-3, 1e-4, 1e-5 };
	uint32_t counts[3];
	ref_track ref = { "", "", "translation", "CUBICSPLINE", 3, 3, NULL, NULL };
	double rt[3], rv[27];
	gltf_keys k;

	(void)state;
	for (int i = 0; i < 3; i++)
		rt[i] = times[i];
	for (int i = 0; i < 27; i++)
		rv[i] = values[i];
	ref.times = rt;
	ref.values = rv;
	for (int b = 0; b < 3; b++) {
		double worst = 0;

		assert_int_equal(animc_gltf_keys_build(GLTF_CUBICSPLINE, false, 3, times, values, 3, bounds[b], &k),
				 ANIMC_OK);
		counts[b] = k.count;
		for (int i = 0; i <= 5000; i++) {
			double t = i / 5000.0, want[3];
			uint32_t j = 0;

			while (j + 2 < k.count && k.times_s[j + 1] <= t)
				j++;
			double u = (t - k.times_s[j]) / ((double)k.times_s[j + 1] - k.times_s[j]);
			ref_sample(&ref, t, want);
			for (int c = 0; c < 3; c++) {
				double got = k.values[j * 3 + c] + (k.values[(j + 1) * 3 + c] -
								    (double)k.values[j * 3 + c]) * u;
				worst = fmax(worst, fabs(got - want[c]));
			}
		}
		if (worst > bounds[b])
			fail_msg("bound %g: error %g with %u keys", bounds[b], worst, k.count);
		animc_gltf_keys_release(&k);
	}
	assert_true(counts[0] < counts[1] && counts[1] < counts[2]);
	/* Adaptive, not uniform: a straight segment takes its two ends only. */
	assert_int_equal(animc_gltf_keys_build(GLTF_CUBICSPLINE, false, 3, line_times, line, 2, 1e-4, &k), ANIMC_OK);
	assert_int_equal(k.count, 2);
	animc_gltf_keys_release(&k);
}

/* A curve faster than float time can follow (a one-frame ease at 300 s,
 * where floats are 3e-5 s apart; two keys one float apart) is baked: where
 * no float time lies between two keys, the chord between them is exact at
 * every time that can be played.  Checked at every float time of the ease. */
static void cubic_bake_stops_at_float_resolution(void **state)
{
	const float times[] = { 0.0f, 300.0f, 300.0f + 1.0f / 30, 400.0f };
	const float values[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* in, value, out; tangents 0 */
				 0, 0, 0, 0, 0, 0, 0, 0, 0,
				 0, 0, 0, 200, 0, 0, 0, 0, 0,
				 0, 0, 0, 200, 0, 0, 0, 0, 0 };
	const float close_times[] = { 1.0f, nextafterf(1.0f, 2.0f) };
	const float close[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0 };
	ref_track ref = { "", "", "translation", "CUBICSPLINE", 4, 3, NULL, NULL };
	double rt[4], rv[36], worst = 0;
	uint32_t j = 0, at = 0;
	gltf_keys k;

	(void)state;
	for (int i = 0; i < 4; i++)
		rt[i] = times[i];
	for (int i = 0; i < 36; i++)
		rv[i] = values[i];
	ref.times = rt;
	ref.values = rv;
	assert_int_equal(animc_gltf_keys_build(GLTF_CUBICSPLINE, false, 3, times, values, 4, 1e-4, &k), ANIMC_OK);
	for (float t = times[1]; t <= times[2]; t = nextafterf(t, INFINITY), at++) {
		double want[3];

		while (j + 2 < k.count && k.times_s[j + 1] <= t)
			j++;
		double u = ((double)t - k.times_s[j]) / ((double)k.times_s[j + 1] - k.times_s[j]);
		double got = k.values[j * 3] + (k.values[(j + 1) * 3] - (double)k.values[j * 3]) * u;

		ref_sample(&ref, t, want);
		worst = fmax(worst, fabs(got - want[0]));
	}
	if (worst > 1e-4)
		fail_msg("error %g at the float times of the ease (%u keys)", worst, k.count);
	assert_true(at > 1000 && k.count <= at + 3);
	animc_gltf_keys_release(&k);
	assert_int_equal(animc_gltf_keys_build(GLTF_CUBICSPLINE, false, 3, close_times, close, 2, 1e-4, &k), ANIMC_OK);
	/* A key at 0 holds the first value (the first key is after 0). */
	assert_int_equal(k.count, 3);
	assert_true(k.times_s[1] == close_times[0] && k.times_s[2] == close_times[1]);
	assert_true(k.values[3] == 0 && k.values[6] == 100);
	animc_gltf_keys_release(&k);
}

/* Rotations: normalised Hermite, baked against the runtime's slerp. */
static void cubic_rotation_bake_keeps_its_bound(void **state)
{
	const float s = 0.70710678f;
	const float times[] = { 0.0f, 1.0f };
	const float values[] = { 0, 0, 0, 0, 0, 0, 0, 1, 2, -1, 0.5f, 0,
				 1, 0, 0.3f, 0, 0, s, 0, s, 0, 0, 0, 0 };
	ref_track ref = { "", "", "rotation", "CUBICSPLINE", 2, 4, NULL, NULL };
	double rt[2] = { 0, 1 }, rv[24];
	double worst = 0;
	gltf_keys k;

	(void)state;
	for (int i = 0; i < 24; i++)
		rv[i] = values[i];
	ref.times = rt;
	ref.values = rv;
	assert_int_equal(animc_gltf_keys_build(GLTF_CUBICSPLINE, true, 4, times, values, 2, 1e-4, &k), ANIMC_OK);
	assert_true(k.count > 2);
	for (int i = 0; i <= 4000; i++) {
		double t = i / 4000.0, want[4];
		uint32_t j = 0;
		double a[4], b[4], chord[4];
		float got[4];

		while (j + 2 < k.count && k.times_s[j + 1] <= t)
			j++;
		for (int c = 0; c < 4; c++) {
			a[c] = k.values[j * 4 + c];
			b[c] = k.values[(j + 1) * 4 + c];
		}
		/* Slerp along the chord, as the runtime does (in float, within
		 * 1e-7 of this). */
		ref_slerp(a, b, (t - k.times_s[j]) / ((double)k.times_s[j + 1] - k.times_s[j]), chord);
		for (int c = 0; c < 4; c++)
			got[c] = (float)chord[c];
		ref_sample(&ref, t, want);
		worst = fmax(worst, ref_error(4, got, want));
	}
	if (worst > 1e-4)
		fail_msg("rotation error %g rad with %u keys", worst, k.count);
	animc_gltf_keys_release(&k);
}


/* ------------------------------------------------------------------ hostile */
/* A rotation spline through the zero quaternion cannot be baked: the build
 * says between which keys and that it is the zero quaternion, not only
 * that the curve could not be followed. */
static void cubic_rotation_through_zero_is_located(void **state)
{
	const float times[] = { 0.0f, 1.0f, 2.0f };
	/* q, q, -q with zero tangents: through zero half way from key 1 to 2. */
	const float opposite[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
				   0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
				   0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0 };
	gltf_keys k;

	(void)state;
	assert_int_equal(animc_gltf_keys_build(GLTF_CUBICSPLINE, true, 4, times, opposite, 3, 1e-4, &k), ANIMC_ERR_LIMIT);
	assert_int_equal(k.limit_key, 1);
	assert_true(k.is_through_zero);
	assert_null(k.times_s);
	/* Far from zero: baked, nothing to say. */
	assert_int_equal(animc_gltf_keys_build(GLTF_CUBICSPLINE, true, 4, times, opposite, 2, 1e-4, &k), ANIMC_OK);
	assert_false(k.is_through_zero);
	animc_gltf_keys_release(&k);
}

static void hostile_files_fail_as_recorded(void **state)
{
	char *expected = (char *)test_read_file(HOSTILE "/expected.txt", NULL);
	char **files = test_list_dir(HOSTILE, NULL);
	size_t listed = 0, present = 0;

	(void)state;
	for (char *line = strtok(expected, "\n"); line; line = strtok(NULL, "\n")) {
		char file[128], status_name[32], where[96];
		test_diags diags = { 0 };

		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%127s %31s %95s", file, status_name, where), 3);
		char *path = test_format("%s/%s", HOSTILE, file);
		animc_status got = test_compile_file(path, &diags, &animc_importer_gltf);
		const test_diag *e = test_diags_first(&diags, ANIMC_ERROR);

		if (got != test_status_named(status_name))
			fail_msg("%s: status %s, expected %s (%s)", file, animc_status_string(got), status_name,
				 e ? e->message : "no error reported");
		assert_non_null(e);
		if (where[0] == '@') {
			if (e->byte_offset != atoll(where + 1))
				fail_msg("%s: error at byte %lld, expected %s: %s", file,
					 (long long)e->byte_offset, where, e->message);
		} else if (where[0] >= '0' && where[0] <= '9') {
			unsigned l, c;

			assert_int_equal(sscanf(where, "%u:%u", &l, &c), 2);
			if (e->line != l || e->column != c)
				fail_msg("%s: error at %u:%u, expected %s: %s", file, e->line, e->column, where,
					 e->message);
		} else if (strcmp(where, "-") != 0) {
			size_t n = strlen(where);

			/* The message starts with the JSON path of the bad value. */
			if (strncmp(e->message, where, n) != 0 || e->message[n] != ':')
				fail_msg("%s: the error does not start with '%s:': %s", file, where, e->message);
		}
		test_diags_release(&diags);
		free(path);
		listed++;
	}
	for (char **p = files; *p; p++)
		if (strcmp(*p, "expected.txt") != 0)
			present++;
	/* A file without an expectation would go unchecked. */
	assert_int_equal(listed, present);
	test_free_list(files);
	free(expected);
}

/* An accessor without a bufferView costs memory but no input bytes: its
 * use (type, count against the key times) is checked before its zeros are
 * allocated, and key times of zeros before they are.  Imported with 16 MiB
 * of address space to spare, where the 48 MiB of the output and the 32 MiB
 * of the times would not fit. */
static void zero_accessors_are_checked_before_they_cost_memory(void **state)
{
	static const char *const docs[] = {
		/* 2^22 VEC3 zeros for 2 key times */
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],"
		"\"buffers\":[{\"byteLength\":8,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAgD8=\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],\"accessors\":["
		"{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
		"{\"componentType\":5126,\"count\":4194304,\"type\":\"VEC3\"}],"
		"\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
		"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}",
		/* 2^22 MAT4 zeros where a translation needs VEC3 */
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],"
		"\"buffers\":[{\"byteLength\":8,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAgD8=\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],\"accessors\":["
		"{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
		"{\"componentType\":5126,\"count\":1048576,\"type\":\"MAT4\"}],"
		"\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
		"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}",
		/* 2^23 key times, all 0 */
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],\"accessors\":["
		"{\"componentType\":5126,\"count\":8388608,\"type\":\"SCALAR\"}],"
		"\"animations\":[{\"samplers\":[{\"input\":0,\"output\":0}],"
		"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}",
	};
	static const char *const where[] = { "animations[0].samplers[0].output:",
					     "animations[0].samplers[0].output:",
					     "animations[0].samplers[0].input:" };

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	skip();   /* AddressSanitizer maps far more than it allocates */
#endif
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "zeros.gltf");
		animc_clip_set set = { 0 };
		animc_import_request req = { NULL, (const uint8_t *)docs[i], strlen(docs[i]), NULL };
		struct rlimit before, limit;
		unsigned long pages = 0;
		FILE *statm = fopen("/proc/self/statm", "r");
		animc_status got;

		assert_non_null(statm);
		assert_int_equal(fscanf(statm, "%lu", &pages), 1);
		fclose(statm);
		assert_int_equal(getrlimit(RLIMIT_AS, &before), 0);
		limit = before;
		limit.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)16 << 20);
		if (before.rlim_cur != RLIM_INFINITY && limit.rlim_cur > before.rlim_cur)
			limit.rlim_cur = before.rlim_cur;
		assert_int_equal(setrlimit(RLIMIT_AS, &limit), 0);
		got = animc_importer_gltf.import(&req, &set, &sink);
		assert_int_equal(setrlimit(RLIMIT_AS, &before), 0);
		if (got != ANIMC_ERR_INVALID)
			fail_msg("case %zu: %s, expected invalid: %s", i, animc_status_string(got),
				 test_diags_first(&diags, ANIMC_ERROR) ?
				 test_diags_first(&diags, ANIMC_ERROR)->message : "no error");
		assert_int_equal(strncmp(test_diags_first(&diags, ANIMC_ERROR)->message, where[i],
					 strlen(where[i])), 0);
		animc_clip_set_release(&set);
		test_diags_release(&diags);
	}
}

/* A negative offset, length or componentType is said to be negative (or
 * not a component type), not "out of range (0 to 18446744073709551614)". */
static void negative_members_are_named(void **state)
{
	static const struct {
		const char *pointer, *where, *says;
	} cases[] = {
		{ "accessors/1/componentType", "accessors[1]:", "not a glTF component type" },
		{ "accessors/1/byteOffset", "accessors[1].byteOffset:", "negative" },
		{ "bufferViews/0/byteOffset", "bufferViews[0].byteOffset:", "negative" },
		{ "bufferViews/0/byteLength", "bufferViews[0].byteLength:", "negative" },
		{ "accessors/1/sparse/indices/componentType", "accessors[1].sparse.indices:", "not an unsigned" },
		{ "accessors/1/sparse/indices/byteOffset", "accessors[1].sparse.indices.byteOffset:", "negative" },
	};
	const char *base = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],"
			   "\"buffers\":[{\"byteLength\":24,\"uri\":\"data:application/octet-stream;base64,"
			   "AAAAAAAAgD8AAAAAAACAPwAAAEAAAEBA\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},"
			   "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":4},"
			   "{\"buffer\":0,\"byteOffset\":12,\"byteLength\":12}],\"accessors\":["
			   "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
			   "{\"componentType\":5126,\"count\":2,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
			   "\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":2}}}],"
			   "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
			   "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";

	animc_clip_set good = { 0 };
	animc_diag_sink quiet = { 0 };
	animc_import_request whole = { NULL, (const uint8_t *)base, strlen(base), NULL };

	(void)state;
	/* Unchanged, the document is read. */
	assert_int_equal(animc_importer_gltf.import(&whole, &good, &quiet), ANIMC_OK);
	animc_clip_set_release(&good);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *doc = json_loads(base, 0, NULL), *obj = doc;
		char pointer[128], *key, *next;
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "negative.gltf");
		animc_clip_set set = { 0 };

		assert_non_null(doc);
		snprintf(pointer, sizeof pointer, "%s", cases[i].pointer);
		for (key = strtok_r(pointer, "/", &next); next && *next; key = strtok_r(NULL, "/", &next))
			obj = json_is_array(obj) ? json_array_get(obj, (size_t)atoi(key)) : json_object_get(obj, key);
		assert_non_null(obj);
		assert_int_equal(json_object_set_new(obj, key, json_integer(-4)), 0);
		char *text = json_dumps(doc, 0);
		animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), NULL };

		assert_int_equal(animc_importer_gltf.import(&req, &set, &sink), ANIMC_ERR_INVALID);
		const char *message = test_diags_first(&diags, ANIMC_ERROR)->message;

		if (strncmp(message, cases[i].where, strlen(cases[i].where)) != 0 || !strstr(message, cases[i].says) ||
		    strstr(message, "18446744073709551614"))
			fail_msg("%s: %s", cases[i].pointer, message);
		animc_clip_set_release(&set);
		test_diags_release(&diags);
		free(text);
		json_decref(doc);
	}
}


/* A document with one node, two samplers (a translation, a quarter turn
 * about Y from 0 to 1 s) and the channels `channels`. */
static char *pointer_doc(const char *channels)
{
	static const char head[] =
		"{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_animation_pointer\"],"
		"\"extensionsRequired\":[\"KHR_animation_pointer\"],\"nodes\":[{\"name\":\"bone\"}],"
		"\"buffers\":[{\"byteLength\":64,\"uri\":\"data:application/octet-stream;base64,"
		"AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAPMENT8AAAAA8wQ1Pw==\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24},"
		"{\"buffer\":0,\"byteOffset\":32,\"byteLength\":32}],\"accessors\":["
		"{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
		"{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
		"{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}],"
		"\"animations\":[{\"name\":\"turn\",\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}],"
		"\"channels\":[";
	size_t size = sizeof head + strlen(channels) + 8;
	char *text = malloc(size);

	assert_non_null(text);
	snprintf(text, size, "%s%s]}]}", head, channels);
	return text;
}

#define POINTER_CHANNEL(sampler, pointer)                                                     \
	"{\"sampler\":" #sampler ",\"target\":{\"path\":\"pointer\",\"extensions\":"           \
	"{\"KHR_animation_pointer\":{\"pointer\":\"" pointer "\"}}}}"

/* A KHR_animation_pointer channel on /nodes/N/translation, rotation or
 * scale is the core target {node: N, path: ...}: compiled, not left out
 * as a channel targeting no node; a pointer to anything else is left out
 * with a warning that names it, and one to a node past the list fails. */
static void node_pointers_are_node_channels(void **state)
{
	static const struct {
		const char *channels;
		animc_status status;
		float rotation_y;       /* the rotation's y at 1 s; 0: identity */
		const char *warning;    /* a non-node-target warning's text, or NULL */
	} cases[] = {
		{ POINTER_CHANNEL(1, "/nodes/0/rotation"), ANIMC_OK, 0.70710677f, NULL },
		{ "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}," POINTER_CHANNEL(1, "/nodes/0/rotation"),
		  ANIMC_OK, 0.70710677f, NULL },
		{ "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}," POINTER_CHANNEL(1, "/materials/0/rotation"),
		  ANIMC_OK, 0, "points at '/materials/0/rotation'" },
		{ "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}," POINTER_CHANNEL(1, "/nodes/00/rotation"),
		  ANIMC_OK, 0, "points at '/nodes/00/rotation'" },
		{ POINTER_CHANNEL(1, "/nodes/1/rotation"), ANIMC_ERR_INVALID, 0, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = pointer_doc(cases[i].channels);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "pointer.gltf");
		animc_clip_set set = { 0 };
		animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), NULL };
		animc_status got = animc_importer_gltf.import(&req, &set, &sink);
		const test_diag *warning = test_diags_first(&diags, ANIMC_WARNING);

		if (got != cases[i].status)
			fail_msg("case %zu: %s: %s", i, animc_status_string(got),
				 test_diags_first(&diags, ANIMC_ERROR) ? test_diags_first(&diags, ANIMC_ERROR)->message : "");
		if (got == ANIMC_OK) {
			const animc_channel *ch = &set.clips[0]->channels[0];
			const animc_track *rot = &ch->tracks[ANIMC_ROTATION];
			const float *last = rot->values + 4 * (size_t)(rot->value_count - 1);

			assert_true(fabsf(last[1] - cases[i].rotation_y) < 1e-6f);
			assert_true(cases[i].warning ? warning && strstr(warning->message, cases[i].warning) &&
						       strcmp(warning->kind, "non-node-target") == 0 : !warning);
		} else {
			assert_non_null(strstr(test_diags_first(&diags, ANIMC_ERROR)->message, "names node 1, out of range"));
		}
		animc_clip_set_release(&set);
		test_diags_release(&diags);
		free(text);
	}
}


/* An animated node with a matrix is said once, not once per animation
 * that moves it: three animations of node 0, one of them of node 1 too,
 * are two warnings. */
static void an_animated_matrix_is_said_once_per_node(void **state)
{
	static const char text[] =
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]},"
		"{\"name\":\"b\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}],"
		"\"buffers\":[{\"byteLength\":64,\"uri\":\"data:application/octet-stream;base64,"
		"AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAPMENT8AAAAA8wQ1Pw==\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24},"
		"{\"buffer\":0,\"byteOffset\":32,\"byteLength\":32}],\"accessors\":["
		"{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
		"{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
		"{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}],\"animations\":["
		"{\"name\":\"a1\",\"samplers\":[{\"input\":0,\"output\":2}],"
		"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]},"
		"{\"name\":\"a2\",\"samplers\":[{\"input\":0,\"output\":2}],"
		"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]},"
		"{\"name\":\"a3\",\"samplers\":[{\"input\":0,\"output\":2},{\"input\":0,\"output\":1}],"
		"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
		"{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]}";
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "matrix.gltf");
	animc_clip_set set = { 0 };
	animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), NULL };
	const char *said[2] = { NULL, NULL };
	size_t count = 0;

	(void)state;
	assert_int_equal(animc_importer_gltf.import(&req, &set, &sink), ANIMC_OK);
	assert_int_equal(set.count, 3);
	for (size_t i = 0; i < diags.count; i++)
		if (diags.items[i].kind && strcmp(diags.items[i].kind, "animated-matrix-node") == 0) {
			if (count < 2)
				said[count] = diags.items[i].message;
			count++;
		}
	assert_int_equal(count, 2);
	assert_true(strncmp(said[0], "nodes[0]:", 9) == 0 && strncmp(said[1], "nodes[1]:", 9) == 0);
	animc_clip_set_release(&set);
	test_diags_release(&diags);
}


/* A required extension animc does not know was passed over in silence: it
 * is refused, naming it; a malformed list names its place; the extensions
 * animc reads or may ignore (meshes, textures, materials) are read. */
static void unknown_required_extensions_are_refused(void **state)
{
	static const struct {
		const char *required;
		animc_status status;
		const char *where, *says;
	} cases[] = {
		{ "[\"KHR_texture_transform\",\"EXT_animation_time_remap\"]", ANIMC_ERR_UNSUPPORTED,
		  "extensionsRequired[1]:", "'EXT_animation_time_remap'" },
		{ "\"EXT_foo\"", ANIMC_ERR_PARSE, "extensionsRequired:", "expected an array" },
		{ "[3]", ANIMC_ERR_PARSE, "extensionsRequired[0]:", "expected an extension's name" },
		{ "[\"KHR_draco_mesh_compression\",\"KHR_materials_unlit\",\"KHR_mesh_quantization\","
		  "\"EXT_meshopt_compression\",\"KHR_texture_basisu\"]", ANIMC_OK, NULL, NULL },
		{ "[\"GOOGLE_texture_basis\",\"KHR_texture_ktx\",\"KHR_technique_webgl\",\"EXT_texture_webp\"]",
		  ANIMC_OK, NULL, NULL },
		{ "[]", ANIMC_OK, NULL, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format("{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":%s,"
					 "\"nodes\":[{\"name\":\"A\"}],\"buffers\":[{\"byteLength\":8,\"uri\":"
					 "\"data:application/octet-stream;base64,AAAAAAAAgD8=\"}],\"bufferViews\":"
					 "[{\"buffer\":0,\"byteLength\":8}],\"accessors\":[{\"bufferView\":0,"
					 "\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}],\"animations\":"
					 "[{\"samplers\":[{\"input\":0,\"output\":0}],\"channels\":[{\"sampler\":0,"
					 "\"target\":{\"node\":0,\"path\":\"weights\"}}]},{\"samplers\":[],"
					 "\"channels\":[]}]}", cases[i].required);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "required.gltf");
		animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), NULL };
		animc_clip_set set = { 0 };
		animc_skeleton skeleton;
		animc_status status = animc_importer_gltf.import(&req, &set, &sink);

		/* The document holds morph weights alone: read, it holds no clip. */
		assert_int_equal(status, cases[i].status ? cases[i].status : ANIMC_ERR_NOT_FOUND);
		if (cases[i].where) {
			const char *message = test_diags_first(&diags, ANIMC_ERROR)->message;

			if (strncmp(message, cases[i].where, strlen(cases[i].where)) != 0 ||
			    !strstr(message, cases[i].says))
				fail_msg("%s: %s", cases[i].required, message);
		}
		animc_clip_set_release(&set);
		test_diags_release(&diags);
		/* A --skeleton model is held to the same rule. */
		gltf_doc doc;

		assert_int_equal(animc_gltf_doc_parse(&doc, NULL, (const uint8_t *)text, strlen(text), NULL),
				 cases[i].status);
		if (cases[i].status == ANIMC_OK) {
			assert_int_equal(animc_gltf_doc_skeleton(&doc, &skeleton), ANIMC_OK);
			animc_skeleton_release(&skeleton);
		}
		animc_gltf_doc_release(&doc);
		free(text);
	}
}

/* A scene's node list that names a node twice, a node with a parent or
 * no node: each said as what it is (all three said "not the index of a
 * root node", wrong of a root listed twice). */
static void a_scene_list_says_what_is_wrong_with_it(void **state)
{
	static const struct {
		const char *list, *says;
	} cases[] = {
		{ "[0,0]", "scenes[0].nodes[1]: nodes[0] is listed twice" },
		{ "[1]", "scenes[0].nodes[0]: nodes[1] is not a root node: nodes[0] is its parent" },
		{ "[2]", "scenes[0].nodes[0]: not a node index (0 to 1)" },
		{ "[0]", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format("{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":%s}],"
					 "\"nodes\":[{\"name\":\"a\",\"children\":[1]},{\"name\":\"b\"}]}",
					 cases[i].list);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "scene.gltf");
		animc_skeleton skeleton;
		gltf_doc doc;

		assert_int_equal(animc_gltf_doc_parse(&doc, NULL, (const uint8_t *)text, strlen(text), &sink), ANIMC_OK);
		if (cases[i].says) {
			assert_int_equal(animc_gltf_doc_skeleton(&doc, &skeleton), ANIMC_ERR_INVALID);
			if (strcmp(test_diags_first(&diags, ANIMC_ERROR)->message, cases[i].says) != 0)
				fail_msg("%s: %s", cases[i].list, test_diags_first(&diags, ANIMC_ERROR)->message);
		} else {
			assert_int_equal(animc_gltf_doc_skeleton(&doc, &skeleton), ANIMC_OK);
			assert_int_equal(skeleton.bone_count, 2);
			animc_skeleton_release(&skeleton);
		}
		animc_gltf_doc_release(&doc);
		test_diags_release(&diags);
		free(text);
	}
}

/* gltfpack -cf writes each meshopt-compressed view with its data also
 * uncompressed in the view's own buffer, the extension not required: that
 * fallback is read, as loaders without meshopt read it (the file was
 * refused).  A buffer marked "fallback": true, or with no bytes, holds none:
 * refused, naming the view. */
static void meshopt_views_are_read_from_their_fallback(void **state)
{
	static const struct {
		const char *buffer0;
		animc_status status;
	} cases[] = {
		{ "\"uri\":\"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAQAAAQEA=\"",
		  ANIMC_OK },
		{ "\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}", ANIMC_ERR_UNSUPPORTED },
		{ "\"uri\":\"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAQAAAQEA=\","
		  "\"extensions\":{\"KHR_meshopt_compression\":{\"fallback\":true}}", ANIMC_ERR_UNSUPPORTED },
		{ "\"uri\":\"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAQAAAQEA=\"",
		  ANIMC_OK },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *ext = i == 3 ? "KHR_meshopt_compression" : "EXT_meshopt_compression";
		char *text = test_format("{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"%s\"],"
					 "\"nodes\":[{\"name\":\"A\"}],\"buffers\":[{\"byteLength\":32,%s},"
					 "{\"byteLength\":4,\"uri\":\"data:application/octet-stream;base64,oAAAAA==\"}],"
					 "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8,\"extensions\":{\"%s\":"
					 "{\"buffer\":1,\"byteLength\":4,\"byteStride\":4,\"count\":2,\"mode\":"
					 "\"ATTRIBUTES\"}}},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24,"
					 "\"extensions\":{\"%s\":{\"buffer\":1,\"byteLength\":4,\"byteStride\":12,"
					 "\"count\":2,\"mode\":\"ATTRIBUTES\"}}}],\"accessors\":[{\"bufferView\":0,"
					 "\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},{\"bufferView\":1,"
					 "\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],\"animations\":"
					 "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,"
					 "\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}",
					 ext, cases[i].buffer0, ext, ext);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "meshopt.gltf");
		animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), NULL };
		animc_clip_set set = { 0 };

		assert_int_equal(animc_importer_gltf.import(&req, &set, &sink), cases[i].status);
		if (cases[i].status == ANIMC_OK) {
			const animc_track *t = &set.clips[0]->channels[0].tracks[ANIMC_TRANSLATION];
			static const float want[3] = { 1, 2, 3 };

			assert_int_equal(t->value_count, 2);
			assert_true(t->times_s[1] == 1.0f);
			assert_memory_equal(&t->values[3], want, sizeof want);
		} else {
			const char *message = test_diags_first(&diags, ANIMC_ERROR)->message;

			if (strncmp(message, "bufferViews[0]:", 15) != 0 || !strstr(message, "meshopt"))
				fail_msg("case %zu: %s", i, message);
		}
		animc_clip_set_release(&set);
		test_diags_release(&diags);
		free(text);
	}
}

/* A buffer reached through a symbolic link that leaves the folder is
 * refused too, and so is one given without the source's path. */
static void external_buffers_stay_beside_the_source(void **state)
{
	char *dir = test_tmpdir("gltf-links");
	char *src = test_format("%s/link.gltf", dir), *link = test_format("%s/data.bin", dir);
	char *outside = test_format("%s/../outside.bin", dir);
	const char *doc = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],"
			  "\"buffers\":[{\"byteLength\":8,\"uri\":\"data.bin\"}],"
			  "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],"
			  "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}],"
			  "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":0}],"
			  "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";
	test_diags diags = { 0 };
	animc_diag_sink sink;
	animc_clip_set set = { 0 };
	animc_import_request req = { NULL, (const uint8_t *)doc, strlen(doc), NULL };

	(void)state;
	assert_true(test_write_file(src, doc, strlen(doc)));
	assert_true(test_write_file(outside, "12345678", 8));
	char *target = realpath(outside, NULL);

	assert_non_null(target);
	assert_int_equal(symlink(target, link), 0);
	free(target);
	assert_int_equal(test_compile_file(src, &diags, &animc_importer_gltf), ANIMC_ERR_INVALID);
	assert_non_null(strstr(test_diags_first(&diags, ANIMC_ERROR)->message, "outside the source's folder"));
	test_diags_release(&diags);
	sink = test_diag_sink(&diags, NULL);
	assert_int_equal(animc_importer_gltf.import(&req, &set, &sink), ANIMC_ERR_ARGUMENT);
	assert_int_equal(strncmp(test_diags_first(&diags, ANIMC_ERROR)->message, "buffers[0].uri:", 15), 0);
	test_diags_release(&diags);
	free(outside);
	free(link);
	free(src);
	free(dir);
}

/* A glTF of one translation curve of `keys` keys (time k/120 s, x
 * alternating 0 and 1) with the given interpolation, its buffer beside it;
 * the first error compiling it. */
static char *long_curve_error(const char *name, const char *interpolation, uint32_t keys)
{
	char *dir = test_tmpdir(name);
	char *src = test_format("%s/take.gltf", dir), *bin = test_format("%s/take.bin", dir);
	size_t size = (size_t)keys * 16;
	float *data = calloc((size_t)keys * 4, sizeof *data);
	char *doc = test_format("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],"
				"\"buffers\":[{\"byteLength\":%zu,\"uri\":\"take.bin\"}],"
				"\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu},"
				"{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
				"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%u,"
				"\"type\":\"SCALAR\"},{\"bufferView\":1,\"componentType\":5126,\"count\":%u,"
				"\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1,"
				"\"interpolation\":\"%s\"}],\"channels\":[{\"sampler\":0,"
				"\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}",
				size, (size_t)keys * 4, (size_t)keys * 4, (size_t)keys * 12, keys, keys, interpolation);
	test_diags diags = { 0 };
	char *message;

	assert_non_null(data);
	for (uint32_t k = 0; k < keys; k++) {
		data[k] = (float)k / 120;
		data[keys + (size_t)k * 3] = (float)(k % 2);
	}
	assert_true(test_write_file(bin, data, size));
	assert_true(test_write_file(src, doc, strlen(doc)));
	assert_int_equal(test_compile_file(src, &diags, &animc_importer_gltf), ANIMC_ERR_LIMIT);
	message = strdup(test_diags_first(&diags, ANIMC_ERROR)->message);
	test_diags_release(&diags);
	free(data), free(doc), free(bin), free(src), free(dir);
	return message;
}

/* A LINEAR or STEP curve past the key limit fails naming its keys and the
 * limit, not as a curve that cannot be followed (it has no tangents). */
static void a_curve_past_the_key_limit_names_it(void **state)
{
	char *linear = long_curve_error("gltf-long-linear", "LINEAR", GLTF_MAX_BAKED_KEYS + 1);
	char *step = long_curve_error("gltf-long-step", "STEP", GLTF_MAX_BAKED_KEYS / 2 + 10);

	(void)state;
	assert_string_equal(linear, "animations[0].samplers[0]: the curve has 1048577 keys; animc reads at most "
			    "1048576 keys a curve: split the take");
	assert_string_equal(step, "animations[0].samplers[0]: the STEP curve of 524298 keys needs more than "
			    "1048576 keys (one more before each change of value, to hold it); animc reads at most "
			    "1048576 keys a curve: split the take");
	free(linear), free(step);
}

/* A buffer URI that names the source's own folder ("x/..", ".", a link to
 * ".") is refused as what it is, a folder, not as a path outside it. */
static void a_buffer_uri_naming_the_folder_says_so(void **state)
{
	static const char *const uris[] = { "x/..", ".", "./", "self" };
	char *dir = test_tmpdir("gltf-folder"), *src = test_format("%s/folder.gltf", dir);
	char *self = test_format("%s/self", dir), *real = realpath(dir, NULL);

	(void)state;
	assert_non_null(real);
	assert_int_equal(symlink(".", self), 0);
	for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++) {
		char *doc = test_format("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],"
					"\"buffers\":[{\"byteLength\":8,\"uri\":\"%s\"}],"
					"\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],"
					"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
					"\"type\":\"SCALAR\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":0}],"
					"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}",
					uris[i]);
		char *want = test_format("buffers[0].uri: '%s' names the source's folder ('%s'), not a file: only "
					 "files beside the source are read", uris[i], real);
		test_diags diags = { 0 };

		assert_true(test_write_file(src, doc, strlen(doc)));
		assert_int_equal(test_compile_file(src, &diags, &animc_importer_gltf), ANIMC_ERR_INVALID);
		assert_string_equal(test_diags_first(&diags, ANIMC_ERROR)->message, want);
		test_diags_release(&diags);
		free(want);
		free(doc);
	}
	free(real);
	free(self);
	free(src);
	free(dir);
}

/* Dot segments are removed before the file is looked up (RFC 3986, 5.2.4):
 * "textures/../data.bin" is data.bin, with no folder "textures". */
static void buffer_uris_lose_their_dot_segments(void **state)
{
	static const char *const uris[] = { "textures/../data.bin", "./a/b/.././../data.bin", "x/..//./data.bin" };
	char *dir = test_tmpdir("gltf-dots");
	char *src = test_format("%s/dots.gltf", dir), *bin = test_format("%s/data.bin", dir);
	const float keys[2] = { 0, 1 };

	(void)state;
	assert_true(test_write_file(bin, keys, sizeof keys));
	for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++) {
		char *doc = test_format("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"A\"}],"
					"\"buffers\":[{\"byteLength\":8,\"uri\":\"%s\"}],"
					"\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],"
					"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
					"\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
					"\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":"
					"[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}", uris[i]);
		test_diags diags = { 0 };
		animc_status got;

		assert_true(test_write_file(src, doc, strlen(doc)));
		got = test_compile_file(src, &diags, &animc_importer_gltf);
		if (got != ANIMC_OK)
			fail_msg("'%s': %s: %s", uris[i], animc_status_string(got),
				 test_diags_first(&diags, ANIMC_ERROR) ? test_diags_first(&diags, ANIMC_ERROR)->message : "");
		test_diags_release(&diags);
		free(doc);
	}
	free(bin);
	free(src);
	free(dir);
}

/* ------------------------------------------------------------ recognising */

static void probe_claims_gltf_before_assimp(void **state)
{
	static const struct {
		const char *path, *head;
		const animc_importer *want;
	} cases[] = {
		{ "a.json", "{\"asset\": {\"version\": \"2.0\"}}", &animc_importer_gltf },
		{ "a.gltf", " \n{\"asset\":{\"generator\":\"x\",\"version\":\"2.1\"}}", &animc_importer_gltf },
		{ "a.gltf", "{\"accessors\": []", &animc_importer_gltf },      /* asset further on */
		{ "a.GLB", "glTF\x02\0\0\0", &animc_importer_gltf },
		{ "a.bin", "glTF\x02\0\0\0", &animc_importer_gltf },
		{ "a.gltf", "{\"asset\":{\"version\":\"1.0\"}}", &animc_importer_gltf },  /* glTF 1.0: refused */
		{ "a.glb", "glTF\x01\0\0\0", &animc_importer_gltf },
		{ "a.json", "{\"nodes\": []}", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = strncmp(cases[i].head, "glTF", 4) == 0 ? 8 : strlen(cases[i].head);
		const animc_importer *got = animc_importer_find(cases[i].path, (const uint8_t *)cases[i].head, n);

		if (got != cases[i].want)
			fail_msg("case %zu (%s): %s, expected %s", i, cases[i].path, got ? got->name : "none",
				 cases[i].want ? cases[i].want->name : "none");
	}
}

/* ----------------------------------------------------- names, skeleton, CLI */

/* The clips and bones are named as the Assimp path names them, and LINEAR
 * tracks sample alike both ways. */
static void names_agree_with_assimp(void **state)
{
	const char *files[] = { FIXTURES "/linear.gltf", FIXTURES "/skin.gltf", FIXTURES "/sparse.gltf" };

	(void)state;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		size_t size;
		uint8_t *data = test_read_file(files[f], &size);
		animc_import_request req = { files[f], data, size, NULL };
		animc_clip_set native = { 0 }, assimp = { 0 };
		animc_diag_sink sink = { 0 };

		assert_int_equal(animc_importer_gltf.import(&req, &native, &sink), ANIMC_OK);
		assert_int_equal(animc_importer_assimp.import(&req, &assimp, &sink), ANIMC_OK);
		assert_int_equal(native.count, assimp.count);
		for (uint32_t c = 0; c < native.count; c++) {
			animc_clip *a = native.clips[c], *b = assimp.clips[c];

			assert_string_equal(a->name, b->name);
			assert_int_equal(a->channel_count, b->channel_count);
			assert_true(fabsf(a->duration_s - b->duration_s) < 1e-6f);
			for (uint32_t i = 0; i < a->channel_count; i++) {
				bool found = false;

				for (uint32_t j = 0; j < b->channel_count && !found; j++)
					found = strcmp(a->channels[i].bone, b->channels[j].bone) == 0;
				if (!found)
					fail_msg("%s: bone '%s' not in Assimp's clip", files[f], a->channels[i].bone);
			}
		}
		animc_clip_set_release(&native);
		animc_clip_set_release(&assimp);
		free(data);
	}
}

/* --skeleton reads a glTF node tree natively, as Assimp reads it: the same
 * bones in the same order, parents and rest transforms. */
static void skeleton_matches_assimp(void **state)
{
	animc_skeleton native, assimp;

	(void)state;
	assert_int_equal(animc_skeleton_load(FIXTURES "/skin.gltf", &native, NULL), ANIMC_OK);
	assert_int_equal(animc_assimp_skeleton_load(FIXTURES "/skin.gltf", &assimp, NULL), ANIMC_OK);
	/* ROOT (two scene roots), Armature, Hip, Leg, Body, Prop. */
	assert_int_equal(native.bone_count, 6);
	assert_int_equal(native.bone_count, assimp.bone_count);
	for (uint32_t i = 0; i < native.bone_count; i++) {
		assert_string_equal(native.bones[i].name, assimp.bones[i].name);
		assert_int_equal(native.bones[i].parent, assimp.bones[i].parent);
		for (int m = 0; m < 16; m++)
			if (fabsf(native.bones[i].local[m] - assimp.bones[i].local[m]) > 1e-6f)
				fail_msg("bone '%s' local[%d]: %g, Assimp %g", native.bones[i].name, m,
					 (double)native.bones[i].local[m], (double)assimp.bones[i].local[m]);
	}
	assert_string_equal(native.bones[0].name, "ROOT");
	assert_string_equal(native.bones[5].name, "Prop");
	assert_true(native.bones[5].scale[0] == 2 && native.bones[5].translation[2] == 3);
	animc_skeleton_release(&native);
	animc_skeleton_release(&assimp);
}


/* A --skeleton model a build read once is loaded from those bytes, not
 * from the file read again (a build read a glTF model twice more). */
static void skeleton_is_loaded_from_the_bytes_given(void **state)
{
	char *dir = test_tmpdir("gltf-model-bytes");
	char *path = test_format("%s/model.gltf", dir);
	const char *on_disk = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"arm\"}]}";
	const char *given = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"leg\"}]}";
	animc_skeleton skel;

	(void)state;
	assert_true(test_write_file(path, on_disk, strlen(on_disk)));
	assert_int_equal(animc_skeleton_load_bytes(path, (const uint8_t *)given, strlen(given), NULL, &skel, NULL),
			 ANIMC_OK);
	assert_int_equal(skel.bone_count, 1);
	assert_string_equal(skel.bones[0].name, "leg");
	animc_skeleton_release(&skel);
	free(path), free(dir);
}

/* A node matrix that scales an axis to zero (a hidden object, as three.js
 * writes it) is a rest like its TRS form: the zero axis a scale of 0, the
 * rotation from the other axes, and the split gives the matrix back. */
static void skeleton_splits_zero_scale_matrices(void **state)
{
	char *dir = test_tmpdir("gltf-zero-scale");
	char *path = test_format("%s/model.gltf", dir);
	/* hidden: every axis 0 at (1,2,3); flat: Y 0; turned: 90 deg about Z
	 * (X to Y), scale 2 on X, Y 0. */
	const char *doc = "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
			  "\"nodes\":[{\"name\":\"root\",\"children\":[1,2,3]},"
			  "{\"name\":\"hidden\",\"matrix\":[0,0,0,0,0,0,0,0,0,0,0,0,1,2,3,1]},"
			  "{\"name\":\"flat\",\"matrix\":[1,0,0,0,0,0,0,0,0,0,1,0,4,5,6,1]},"
			  "{\"name\":\"turned\",\"matrix\":[0,2,0,0,0,0,0,0,0,0,1,0,0,0,0,1]}]}";
	static const float want_t[3][3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 0, 0, 0 } };
	static const float want_s[3][3] = { { 0, 0, 0 }, { 1, 0, 1 }, { 2, 0, 1 } };
	static const float want_r[3][4] = { { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0.70710678f, 0.70710678f } };
	animc_skeleton skel;

	(void)state;
	assert_true(test_write_file(path, doc, strlen(doc)));
	assert_int_equal(animc_skeleton_load(path, &skel, NULL), ANIMC_OK);
	assert_int_equal(skel.bone_count, 4);
	for (uint32_t b = 1; b < 4; b++) {
		const animc_bone *bone = &skel.bones[b];
		double t[3], q[4], sc[3], m[16], sign;

		for (int i = 0; i < 3; i++) {
			assert_float_equal(bone->translation[i], want_t[b - 1][i], 1e-6);
			assert_float_equal(bone->scale[i], want_s[b - 1][i], 1e-6);
			t[i] = bone->translation[i];
			sc[i] = bone->scale[i];
		}
		sign = bone->rotation[3] < 0 ? -1 : 1;
		for (int i = 0; i < 4; i++) {
			assert_float_equal(sign * bone->rotation[i], want_r[b - 1][i], 1e-6);
			q[i] = bone->rotation[i];
		}
		/* T, R and S give the node's matrix back. */
		animc_mat4_compose(t, q, sc, m);
		for (int i = 0; i < 16; i++)
			if (fabs(m[i] - bone->local[i]) > 1e-6)
				fail_msg("bone '%s' [%d]: %g from its split, %g in the model", bone->name, i, m[i],
					 (double)bone->local[i]);
	}
	animc_skeleton_release(&skel);
	free(path);
	free(dir);
}


/* Clips of one name get the first free suffix (an existing "a.1" is
 * skipped); two animated nodes of one name keep the later one. */
static void repeated_names(void **state)
{
	static const char *const names[] = { "a", "a", "a.1", "a", "b", "a" };
	static const char *const want[] = { "a", "a.2", "a.1", "a.3", "b", "a.4" };
	char *doc = malloc(8192);
	size_t n = 0;
	animc_clip_set set = { 0 };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "names.gltf");
	animc_import_request req = { NULL, NULL, 0, NULL };

	(void)state;
	assert_non_null(doc);
	/* Nodes 0 and 1 are both "Twin"; every animation moves both. */
	n += (size_t)snprintf(doc + n, 8192 - n,
			      "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"Twin\"},"
			      "{\"name\":\"Twin\"}],\"buffers\":[{\"byteLength\":8,\"uri\":"
			      "\"data:application/octet-stream;base64,AAAAAAAAgD8=\"}],"
			      "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],\"accessors\":["
			      "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
			      "{\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],\"animations\":[");
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		n += (size_t)snprintf(doc + n, 8192 - n,
				      "%s{\"name\":\"%s\",\"samplers\":[{\"input\":0,\"output\":1}],"
				      "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":"
				      "\"scale\"}},{\"sampler\":0,\"target\":{\"node\":1,\"path\":"
				      "\"translation\"}}]}", i ? "," : "", names[i]);
	n += (size_t)snprintf(doc + n, 8192 - n, "]}");
	req.data = (const uint8_t *)doc;
	req.size = n;
	assert_int_equal(animc_importer_gltf.import(&req, &set, &sink), ANIMC_OK);
	assert_int_equal(set.count, 6);
	for (uint32_t i = 0; i < set.count; i++) {
		assert_string_equal(set.clips[i]->name, want[i]);
		/* The later node (translation) is kept, its scale from the node. */
		assert_int_equal(set.clips[i]->channel_count, 1);
		assert_true(set.clips[i]->channels[0].tracks[ANIMC_TRANSLATION].times_s != NULL);
		assert_true(set.clips[i]->channels[0].tracks[ANIMC_SCALE].is_fixed);
	}
	assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), 0);
	/* One per repeated node, one for the clips named "a". */
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 6 + 1);
	animc_clip_set_release(&set);
	test_diags_release(&diags);
	free(doc);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(fixtures_sample_as_the_specification_says),
	cmocka_unit_test(step_keys_hold_until_the_next),
	cmocka_unit_test(keys_before_zero_are_cut),
	cmocka_unit_test(a_rotation_cut_at_zero_is_slerped_the_short_way),
	cmocka_unit_test(cubic_bake_keeps_its_bound),
	cmocka_unit_test(cubic_bake_stops_at_float_resolution),
	cmocka_unit_test(cubic_rotation_bake_keeps_its_bound),
	cmocka_unit_test(cubic_rotation_through_zero_is_located),
		cmocka_unit_test(every_tolerance_keeps_the_default_bake),
		cmocka_unit_test(translations_bake_in_the_outputs_units),
	cmocka_unit_test(hostile_files_fail_as_recorded),
	cmocka_unit_test(zero_accessors_are_checked_before_they_cost_memory),
	cmocka_unit_test(negative_members_are_named),
	cmocka_unit_test(node_pointers_are_node_channels),
	cmocka_unit_test(a_scene_list_says_what_is_wrong_with_it),
	cmocka_unit_test(an_animated_matrix_is_said_once_per_node),
	cmocka_unit_test(unknown_required_extensions_are_refused),
	cmocka_unit_test(meshopt_views_are_read_from_their_fallback),
	cmocka_unit_test(external_buffers_stay_beside_the_source),
	cmocka_unit_test(a_curve_past_the_key_limit_names_it),
	cmocka_unit_test(a_buffer_uri_naming_the_folder_says_so),
	cmocka_unit_test(buffer_uris_lose_their_dot_segments),
	cmocka_unit_test(probe_claims_gltf_before_assimp),
	cmocka_unit_test(names_agree_with_assimp),
	cmocka_unit_test(skeleton_matches_assimp),
	cmocka_unit_test(skeleton_splits_zero_scale_matrices),
	cmocka_unit_test(skeleton_is_loaded_from_the_bytes_given),
	cmocka_unit_test(repeated_names),
};

ANIMC_TEST_GROUP(tests);
