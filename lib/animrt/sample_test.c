/*
 * sample_test.c - pose evaluation (sample.c): key search at every boundary,
 * play modes, fixed/absent tracks, quaternion hemispheres and slerp
 * accuracy, cursors, threads, crossfades of two poses and additive layers.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animrt.h>
#include "interp.h"
#include "sample.h"
#include "sample_fixtures.h"

/* --------------------------------------------------------- key search */

static void uniform_key_search_at_every_boundary(void **state)
{
	(void)state;
	animrt_sequence s = seq("b", 4, 1.0f, 3.0f, NULL, tx4, 4, NULL, 0, NULL, 0);

	assert_float_equal(x_at(&s, 0, ANIMRT_PLAY_ONCE), 0, 0);
	assert_float_equal(x_at(&s, 1, ANIMRT_PLAY_ONCE), 10, 0);       /* exactly on a key */
	float before = x_at(&s, nextafterf(1, 0), ANIMRT_PLAY_ONCE);
	float after = x_at(&s, nextafterf(1, 2), ANIMRT_PLAY_ONCE);
	assert_true(before < 10 && before > 10 - EPS);
	assert_true(after > 10 && after < 10 + EPS);
	assert_float_equal(x_at(&s, 2.5f, ANIMRT_PLAY_ONCE), 25, EPS);
	assert_float_equal(x_at(&s, nextafterf(3, 0), ANIMRT_PLAY_ONCE), 30, EPS);
	assert_float_equal(x_at(&s, 3, ANIMRT_PLAY_ONCE), 30, 0);       /* the end */
	assert_float_equal(x_at(&s, 3.5f, ANIMRT_PLAY_ONCE), 30, 0);    /* past it: clamped */
	assert_float_equal(x_at(&s, 1e30f, ANIMRT_PLAY_ONCE), 30, 0);
	assert_float_equal(x_at(&s, INFINITY, ANIMRT_PLAY_ONCE), 30, 0);
	assert_float_equal(x_at(&s, -0.5f, ANIMRT_PLAY_ONCE), 0, 0);    /* negative: the start */
	assert_float_equal(x_at(&s, -INFINITY, ANIMRT_PLAY_ONCE), 0, 0);
	assert_float_equal(x_at(&s, NAN, ANIMRT_PLAY_ONCE), 0, 0);
	/* Repeat: the same inside the clip, wrapped outside it. */
	assert_float_equal(x_at(&s, 2.5f, ANIMRT_PLAY_REPEAT), 25, EPS);
	assert_float_equal(x_at(&s, 3, ANIMRT_PLAY_REPEAT), 30, 0);     /* the end itself stays */
	assert_float_equal(x_at(&s, 3.5f, ANIMRT_PLAY_REPEAT), 5, EPS);
	assert_float_equal(x_at(&s, 6, ANIMRT_PLAY_REPEAT), 0, 0);
	assert_float_equal(x_at(&s, 7.25f, ANIMRT_PLAY_REPEAT), 12.5f, EPS);
	assert_float_equal(x_at(&s, -0.5f, ANIMRT_PLAY_REPEAT), 25, EPS);
	assert_float_equal(x_at(&s, -3, ANIMRT_PLAY_REPEAT), 0, 0);
	assert_float_equal(x_at(&s, NAN, ANIMRT_PLAY_REPEAT), 0, 0);
	assert_float_equal(x_at(&s, INFINITY, ANIMRT_PLAY_REPEAT), 0, 0);
	float far = x_at(&s, 1e30f, ANIMRT_PLAY_REPEAT);
	assert_true(far >= 0 && far <= 30);
}

/*
 * interp_find_times (the guess and gallop the sampler uses at a time away
 * from the cursor) against the original binary search it stands for, on
 * times even, uneven, with runs of shared times (where the binary search's
 * path decides), and at every key time, between them and outside.
 */
static void the_guessed_search_finds_what_the_binary_search_finds(void **state)
{
	enum { N = 200 };
	float times[N];
	unsigned seed = 7;

	(void)state;
	for (int round = 0; round < 300; round++) {
		uint32_t n = 1 + (uint32_t)(round % N);
		float at = round % 3 == 0 ? -0.5f : 0;

		for (uint32_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* Even steps, uneven ones, (every fifth round) runs of
			 * shared times. */
			float step = round % 2 ? 0.25f : (float)(seed >> 16 & 255) / 64.0f;
			if (round % 5 == 0 && (seed >> 8 & 3) == 0)
				step = 0;
			/* Dense keys, then sparse: the guess lands far off. */
			if (round % 4 == 2)
				step = i < n / 2 ? 0.01f : 1.0f;
			times[i] = at;
			at += step;
		}
		uint32_t last = n - 1;
		for (uint32_t i = 0; i < n; i++) {
			float probes[4] = { times[i], nextafterf(times[i], -1e9f), nextafterf(times[i], 1e9f),
					    i + 1 < n ? (times[i] + times[i + 1]) / 2 : times[i] + 1 };

			for (int p = 0; p < 4; p++)
				assert_int_equal(interp_find_times(times, last, probes[p]),
						 interp_search_times(times, last, probes[p]));
		}
		assert_int_equal(interp_find_times(times, last, -100), interp_search_times(times, last, -100));
		assert_int_equal(interp_find_times(times, last, 1e6f), last);
	}
}

static void timed_key_search_at_every_boundary(void **state)
{
	(void)state;
	static const float times[4] = { 0, 0.5f, 2, 3 };
	animrt_sequence s = seq("b", 4, 0, 3.0f, times, tx4, 4, NULL, 0, NULL, 0);

	assert_float_equal(x_at(&s, 0, ANIMRT_PLAY_ONCE), 0, 0);
	assert_float_equal(x_at(&s, 0.25f, ANIMRT_PLAY_ONCE), 5, EPS);
	assert_float_equal(x_at(&s, 0.5f, ANIMRT_PLAY_ONCE), 10, 0);
	/* Just before and after a key: the intervals on either side (a steep
	 * next interval makes the tiny step after the key visible). */
	static const float steep[12] = { 0, 0, 0, 10, 0, 0, 1e9f, 0, 0, 1e9f, 0, 0 };
	animrt_sequence st = seq("b", 4, 0, 3.0f, times, steep, 4, NULL, 0, NULL, 0);
	float before = x_at(&st, nextafterf(0.5f, 0), ANIMRT_PLAY_ONCE);
	float after = x_at(&st, nextafterf(0.5f, 1), ANIMRT_PLAY_ONCE);
	assert_true(before < 10 && before > 10 - EPS);
	assert_true(after > 10 && after < 100);
	assert_float_equal(x_at(&s, 1.25f, ANIMRT_PLAY_ONCE), 15, EPS);
	assert_float_equal(x_at(&s, nextafterf(2, 0), ANIMRT_PLAY_ONCE), 20, EPS);
	assert_float_equal(x_at(&s, 2, ANIMRT_PLAY_ONCE), 20, 0);
	assert_float_equal(x_at(&s, 3, ANIMRT_PLAY_ONCE), 30, 0);
	assert_float_equal(x_at(&s, 4, ANIMRT_PLAY_ONCE), 30, 0);
	assert_float_equal(x_at(&s, -1, ANIMRT_PLAY_ONCE), 0, 0);
	assert_float_equal(x_at(&s, 3.25f, ANIMRT_PLAY_REPEAT), 5, EPS);

	/* Keys that start late hold the first key before it (the original
	 * extrapolated backward). */
	static const float late[2] = { 0.5f, 1 };
	animrt_sequence l = seq("b", 2, 0, 1.0f, late, tx4 + 3, 2, NULL, 0, NULL, 0);
	assert_float_equal(x_at(&l, 0.2f, ANIMRT_PLAY_ONCE), 10, 0);
	assert_float_equal(x_at(&l, 0.75f, ANIMRT_PLAY_ONCE), 15, EPS);

	/* Keys sharing a time: the original binary search stops at the key
	 * equal to t (key 1 here), and interpolates nothing across the step. */
	static const float dup[4] = { 0, 1, 1, 2 };
	animrt_sequence d = seq("b", 4, 0, 2.0f, dup, tx4, 4, NULL, 0, NULL, 0);
	assert_float_equal(x_at(&d, 1, ANIMRT_PLAY_ONCE), 10, 0);
	assert_float_equal(x_at(&d, 0.5f, ANIMRT_PLAY_ONCE), 5, EPS);
	assert_float_equal(x_at(&d, 1.5f, ANIMRT_PLAY_ONCE), 25, EPS);
}

/* Repeat holds the last key until the wrap: the original set the next key
 * to 0 for Repeat, then overwrote it with the last key. */
static void repeat_holds_the_last_key_until_the_wrap(void **state)
{
	(void)state;
	animrt_sequence s = seq("b", 4, 1.0f, 4.0f, NULL, tx4, 4, NULL, 0, NULL, 0);

	assert_float_equal(x_at(&s, 3.5f, ANIMRT_PLAY_REPEAT), 30, 0);
	assert_float_equal(x_at(&s, 4, ANIMRT_PLAY_REPEAT), 30, 0);
	assert_float_equal(x_at(&s, 4.5f, ANIMRT_PLAY_REPEAT), 5, EPS);
	assert_float_equal(x_at(&s, 4.5f, ANIMRT_PLAY_ONCE), 30, 0);
	assert_float_equal(animrt_rt_time_local(4.5f, 4, ANIMRT_PLAY_REPEAT), 0.5f, 0);
	assert_float_equal(animrt_rt_time_local(4.5f, 4, ANIMRT_PLAY_ONCE), 4, 0);
	assert_float_equal(animrt_rt_time_local(-1, 4, ANIMRT_PLAY_REPEAT), 3, 0);
}

/* Repeat wraps to the exact remainder, as fmod gives it, however far. */
static void repeat_wraps_to_the_exact_remainder(void **state)
{
	(void)state;
	srand(11);
	for (int i = 0; i < 100000; i++) {
		float d = (float)rand() / RAND_MAX * 4 + 1e-3f;
		float t = d * (1 + (float)rand() / RAND_MAX * (i % 2 ? 10.0f : 1e7f));
		float got = animrt_rt_time_local(t, d, ANIMRT_PLAY_REPEAT);

		if (t > d && got != (float)fmod(t, d))
			fail_msg("fmod(%.9g, %.9g): got %.9g, want %.9g", (double)t, (double)d, (double)got,
				 fmod(t, d));
	}
	/* A whole number of turns wraps to 0. */
	assert_float_equal(animrt_rt_time_local(3 * 0.1f, 0.1f, ANIMRT_PLAY_REPEAT),
			   (float)fmod(3 * 0.1f, 0.1f), 0);
	assert_float_equal(animrt_rt_time_local(6, 1.5f, ANIMRT_PLAY_REPEAT), 0, 0);
}

static void single_keys_and_zero_intervals_do_not_divide_by_zero(void **state)
{
	(void)state;
	static const float one[3] = { 7, 8, 9 };
	animrt_sequence single = seq("b", 1, 0, 0, NULL, one, 1, NULL, 0, NULL, 0);
	float T[3], R[4], S[3];

	for (float t = -2; t <= 2; t += 0.5f) {
		animrt_sequence_sample(&single, t, ANIMRT_PLAY_REPEAT, NULL, T, R, S);
		assert_floats(T, one, 3, 0);
		animrt_sequence_sample(&single, t, ANIMRT_PLAY_ONCE, NULL, T, R, S);
		assert_floats(T, one, 3, 0);
	}
	/* A single timed key. */
	static const float t0[1] = { 0.25f };
	animrt_sequence timed = seq("b", 1, 0, 1, t0, one, 1, NULL, 0, NULL, 0);
	animrt_sequence_sample(&timed, 0.5f, ANIMRT_PLAY_REPEAT, NULL, T, R, S);
	assert_floats(T, one, 3, 0);
	/* KeyInterval 0 with several keys: every key at time 0, the last holds. */
	animrt_sequence flat = seq("b", 4, 0, 3, NULL, tx4, 4, NULL, 0, NULL, 0);
	assert_float_equal(x_at(&flat, 0, ANIMRT_PLAY_ONCE), 30, 0);
	assert_float_equal(x_at(&flat, 1.5f, ANIMRT_PLAY_REPEAT), 30, 0);
	/* Duration 0: every time is 0 in both modes. */
	animrt_sequence zero = seq("b", 4, 1, 0, NULL, tx4, 4, NULL, 0, NULL, 0);
	assert_float_equal(x_at(&zero, 2.5f, ANIMRT_PLAY_REPEAT), 0, 0);
	assert_float_equal(x_at(&zero, 2.5f, ANIMRT_PLAY_ONCE), 0, 0);
	assert_float_equal(x_at(&zero, -2.5f, ANIMRT_PLAY_REPEAT), 0, 0);
}

static void fixed_and_absent_tracks(void **state)
{
	(void)state;
	static const float fixed_t[3] = { 1, 2, 3 };
	static const float scale2[3] = { 2, 2, 2 };
	float r[8];
	rot_z(r, 0);
	rot_z(r + 4, 1.0);
	animrt_sequence s = seq("b", 2, 1, 1, NULL, fixed_t, 1, r, 2, NULL, 0);
	animrt_sequence f = seq("b", 2, 1, 1, NULL, NULL, 0, NULL, 0, scale2, 1);
	animrt_sequence none = seq("b", 3, 1, 2, NULL, NULL, 0, NULL, 0, NULL, 0);
	const float one[3] = { 1, 1, 1 }, zero[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
	float T[3], R[4], S[3], want[4];

	animrt_sequence_sample(&s, 0.5f, ANIMRT_PLAY_ONCE, NULL, T, R, S);
	assert_floats(T, fixed_t, 3, 0);
	rot_z(want, 0.5);
	assert_floats(R, want, 4, 1e-6);
	assert_floats(S, one, 3, 0);
	animrt_sequence_sample(&f, 0.5f, ANIMRT_PLAY_ONCE, NULL, T, R, S);
	assert_floats(T, zero, 3, 0);
	assert_floats(R, id, 4, 0);
	assert_floats(S, scale2, 3, 0);
	animrt_sequence_sample(&none, 0.5f, ANIMRT_PLAY_REPEAT, NULL, T, R, S);
	assert_floats(T, zero, 3, 0);
	assert_floats(R, id, 4, 0);
	assert_floats(S, one, 3, 0);

	/* The pose says which tracks each bone has. */
	animrt_sequence seqs[3] = { s, f, none };
	animrt_clip clip = { .duration_s = 1, .sequence_count = 3, .sequences = seqs };
	animrt_pose pose;
	void *mem = pose_new(&pose, 3);
	assert_int_equal(animrt_clip_sample(&clip, 0.5f, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
	assert_int_equal(pose.tracks[0], ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_ROTATION);
	assert_int_equal(pose.tracks[1], ANIMRT_TRACK_SCALE);
	assert_int_equal(pose.tracks[2], 0);
	free(mem);
}

/* ---------------------------------------------------------- quaternions */

static void rotation_takes_the_shorter_arc(void **state)
{
	(void)state;
	float keys[8], want[4], T[3], R[4], S[3];

	/* Key 1 is +90 degrees about z stored in the other hemisphere (-q):
	 * halfway is +45 degrees, not -135. */
	rot_z(keys, 0);
	rot_z(keys + 4, PI / 2);
	for (int k = 4; k < 8; k++)
		keys[k] = -keys[k];
	animrt_sequence s = seq("b", 2, 1, 1, NULL, NULL, 0, keys, 2, NULL, 0);
	animrt_sequence_sample(&s, 0.5f, ANIMRT_PLAY_ONCE, NULL, T, R, S);
	rot_z(want, PI / 4);
	assert_floats(R, want, 4, 1e-6);
	/* Every sample stays unit length, and at the keys equals them. */
	for (int i = 0; i <= 100; i++) {
		animrt_sequence_sample(&s, (float)i / 100, ANIMRT_PLAY_ONCE, NULL, T, R, S);
		double n = sqrt((double)R[0] * R[0] + (double)R[1] * R[1] + (double)R[2] * R[2] +
				(double)R[3] * R[3]);
		assert_float_equal(n, 1, 1e-6);
	}
	animrt_sequence_sample(&s, 1, ANIMRT_PLAY_ONCE, NULL, T, R, S);
	assert_floats(R, keys + 4, 4, 0);
	/* Nearly equal keys: a normalised lerp, still unit length. */
	rot_z(keys + 4, 1e-4);
	animrt_sequence_sample(&s, 0.5f, ANIMRT_PLAY_ONCE, NULL, T, R, S);
	rot_z(want, 0.5e-4);
	assert_floats(R, want, 4, 1e-7);
}

/* Double-precision slerp with the shorter arc: the reference. */
static void slerp_reference(double out[4], const float a[4], const float b[4], double u)
{
	double d = 0, sign = 1, w0, w1;

	for (int k = 0; k < 4; k++)
		d += (double)a[k] * b[k];
	if (d < 0) {
		d = -d;
		sign = -1;
	}
	if (d > 1 - 1e-12) {
		w0 = 1 - u;
		w1 = u;
	} else {
		double angle = acos(d);

		w0 = sin((1 - u) * angle) / sin(angle);
		w1 = sin(u * angle) / sin(angle);
	}
	for (int k = 0; k < 4; k++)
		out[k] = w0 * a[k] + sign * w1 * b[k];
}

static void slerp_matches_double_precision(void **state)
{
	(void)state;
	double worst = 0;

	srand(5);
	for (int pair = 0; pair < 40; pair++) {
		float a[4], b[4], axis[3], n = 0;

		/* a: a random unit quaternion; b: a rotated by phi about an axis. */
		for (int k = 0; k < 4; k++)
			a[k] = (float)rand() / RAND_MAX - 0.5f;
		for (int k = 0; k < 3; k++)
			axis[k] = (float)rand() / RAND_MAX - 0.5f;
		n = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
		for (int k = 0; k < 4; k++)
			a[k] /= n;
		n = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
		for (int step = 0; step <= 200; step++) {
			double phi = PI * step / 200 + (step == 0 ? 1e-7 : 0);

			/* At a right angle the shorter arc is either way round. */
			if (step == 100)
				continue;
			float d[4] = { (float)(sin(phi) * axis[0] / n), (float)(sin(phi) * axis[1] / n),
				       (float)(sin(phi) * axis[2] / n), (float)cos(phi) };

			/* b = a * d: the dot product of a and b is cos(phi). */
			b[0] = a[3] * d[0] + a[0] * d[3] + a[1] * d[2] - a[2] * d[1];
			b[1] = a[3] * d[1] - a[0] * d[2] + a[1] * d[3] + a[2] * d[0];
			b[2] = a[3] * d[2] + a[0] * d[1] - a[1] * d[0] + a[2] * d[3];
			b[3] = a[3] * d[3] - a[0] * d[0] - a[1] * d[1] - a[2] * d[2];
			for (int ui = 0; ui <= 20; ui++) {
				float u = (float)ui / 20, got[4];
				double want[4];

				animrt_rt_quat_slerp(got, a, b, u);
				slerp_reference(want, a, b, u);
				for (int k = 0; k < 4; k++)
					if (fabs(got[k] - want[k]) > worst)
						worst = fabs(got[k] - want[k]);
			}
		}
	}
	print_message("slerp: largest difference from double precision %.3g\n", worst);
	assert_true(worst < 1e-6);
}

/* --------------------------------------------------------------- cursors */

static void cursors_give_what_the_binary_search_gives(void **state)
{
	(void)state;
	enum { KEYS = 64 };
	float times[KEYS], values[KEYS * 3];

	srand(7);
	times[0] = 0;
	for (int i = 1; i < KEYS; i++)   /* some keys share a time */
		times[i] = times[i - 1] + (rand() % 4 == 0 ? 0 : (float)rand() / RAND_MAX);
	for (int i = 0; i < KEYS * 3; i++)
		values[i] = (float)rand() / RAND_MAX;
	float end = times[KEYS - 1];
	animrt_sequence s = seq("b", KEYS, 0, end, times, values, KEYS, NULL, 0, NULL, 0);
	uint32_t cursor = 0;
	float got[3], want[3], R[4], S[3];

	for (int i = 0; i < 4000; i++) {
		float t;

		if (i < 1000)            /* forward in small steps */
			t = end * (float)i / 1000;
		else if (i < 2000)       /* backward */
			t = end * (float)(2000 - i) / 1000;
		else if (i < 2064)       /* exactly on keys */
			t = times[i - 2000];
		else                     /* jumps */
			t = (float)rand() / RAND_MAX * end * 1.2f;
		if (i == 3000)
			cursor = 123456;  /* any cursor value is safe */
		animrt_sequence_sample(&s, t, ANIMRT_PLAY_ONCE, &cursor, got, R, S);
		animrt_sequence_sample(&s, t, ANIMRT_PLAY_ONCE, NULL, want, R, S);
		if (memcmp(got, want, sizeof got) != 0)
			fail_msg("t = %.9g: cursor gives %g, search %g", (double)t, (double)got[0],
				 (double)want[0]);
	}
}

/* ------------------------------------------------------------ clip poses */

static void clip_pose_fills_the_callers_arrays(void **state)
{
	(void)state;
	static const float times[4] = { 0, 0.5f, 2, 3 };
	animrt_sequence seqs[2] = {
		seq("Root", 4, 1.0f, 3.0f, NULL, tx4, 4, NULL, 0, NULL, 0),
		seq("Arm", 4, 0, 3.0f, times, tx4, 4, NULL, 0, NULL, 0),
	};
	animrt_clip clip = { .duration_s = 3, .sequence_count = 2, .sequences = seqs };
	animrt_pose pose, small;
	void *mem = pose_new(&pose, 3), *mem2 = pose_new(&small, 1);
	const float id_t[3] = { 0, 0, 0 }, id_r[4] = { 0, 0, 0, 1 };
	uint32_t cursors[3] = { 0, 0, 0 };

	assert_ptr_equal(pose.rotation, mem);   /* quaternions first: malloc's alignment */
	pose.tracks[2] = 7;
	assert_int_equal(animrt_clip_sample(&clip, 1.25f, ANIMRT_PLAY_ONCE, cursors, &pose), ANIMRT_OK);
	assert_float_equal(pose.translation[0], 12.5f, EPS);
	assert_float_equal(pose.translation[3], 15, EPS);
	assert_floats(pose.translation + 6, id_t, 3, 0);   /* a bone past the clip: identity */
	assert_floats(pose.rotation + 8, id_r, 4, 0);
	assert_int_equal(pose.tracks[2], 0);
	assert_int_equal(animrt_clip_sample(&clip, 1, ANIMRT_PLAY_ONCE, NULL, &small), ANIMRT_ERR_POSE_SIZE);
	assert_int_equal(animrt_clip_sample(NULL, 1, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_ERR_ARGUMENT);
	assert_int_equal(animrt_clip_sample(&clip, 1, ANIMRT_PLAY_ONCE, NULL, NULL), ANIMRT_ERR_ARGUMENT);
	assert_int_equal(animrt_pose_size_bytes(UINT32_MAX) == 0, SIZE_MAX / 41 < UINT32_MAX);
	assert_int_equal(animrt_pose_size_bytes(3) % 16, 0);
	assert_true(animrt_pose_size_bytes(3) >= 3 * 41);
	free(mem);
	free(mem2);
}

/*
 * A clip of more bones than the sampler finds keys for at once (it finds
 * the keys of a few bones, then interpolates them): the clip's pose and a
 * binding's, whose skeleton leaves some of the clip's bones out and orders
 * the rest its own way, are each bone's sequence sampled alone, bit for
 * bit, with and without cursors.
 */
static void clips_of_many_bones_sample_as_their_sequences(void **state)
{
	enum { BONES = 21, KEYS = 12 };
	static float times[KEYS], values[KEYS * 3], quats[KEYS * 4];
	animrt_sequence seqs[BONES];
	char names[BONES][8];
	const char *skeleton[BONES];
	unsigned seed = 3;

	(void)state;
	for (int i = 0; i < KEYS; i++) {
		times[i] = (float)i * 0.25f + (i % 3 == 1 ? 0.1f : 0);
		for (int k = 0; k < 3; k++)
			values[3 * i + k] = (float)((i * 7 + k * 3) % 11);
		rot_z(quats + 4 * i, 0.4 * i);
	}
	for (int b = 0; b < BONES; b++) {
		snprintf(names[b], sizeof names[b], "b%d", b);
		/* Timed, uniform, fixed and one-key sequences in turn. */
		int kind = b % 4;
		seqs[b] = kind == 0   ? seq(names[b], KEYS, 0, 3, times, values, KEYS, quats, KEYS, NULL, 0)
			  : kind == 1 ? seq(names[b], KEYS, 0.25f, 3, NULL, values, KEYS, quats, KEYS, values, KEYS)
			  : kind == 2 ? seq(names[b], KEYS, 0, 3, times, values + 3 * (b % KEYS), 1, quats, KEYS,
					    NULL, 0)
				      : seq(names[b], 1, 3, 3, NULL, values + 3, 1, quats + 8, 1, NULL, 0);
		/* The skeleton: every bone but every fifth, backward. */
		skeleton[BONES - 1 - b] = b % 5 == 4 ? "none" : names[b];
	}
	animrt_clip clip = { .duration_s = 3, .sequence_count = BONES, .sequences = seqs };
	animrt_binding *binding;
	animrt_pose pose, bound;
	void *m1 = pose_new(&pose, BONES), *m2 = pose_new(&bound, BONES);
	uint32_t cursors[BONES], bound_cursors[BONES];

	memset(cursors, 0, sizeof cursors);
	memset(bound_cursors, 0, sizeof bound_cursors);
	assert_int_equal(animrt_binding_create(&clip, skeleton, BONES, &binding, NULL), ANIMRT_OK);
	for (int i = 0; i < 300; i++) {
		seed = seed * 1103515245u + 12345u;
		float t = i < 150 ? (float)i / 50 : (float)(seed >> 8) / (float)(1u << 24) * 3.2f;
		uint32_t *c = i % 2 ? cursors : NULL, *bc = i % 2 ? bound_cursors : NULL;

		assert_int_equal(animrt_clip_sample(&clip, t, ANIMRT_PLAY_ONCE, c, &pose), ANIMRT_OK);
		assert_int_equal(animrt_binding_sample(binding, t, ANIMRT_PLAY_ONCE, bc, &bound), ANIMRT_OK);
		for (int b = 0; b < BONES; b++) {
			float T[3], R[4], S[3];
			int at = BONES - 1 - b;

			animrt_sequence_sample(&seqs[b], t, ANIMRT_PLAY_ONCE, NULL, T, R, S);
			assert_memory_equal(pose.translation + 3 * b, T, sizeof T);
			assert_memory_equal(pose.rotation + 4 * b, R, sizeof R);
			assert_memory_equal(pose.scale + 3 * b, S, sizeof S);
			if (b % 5 == 4) {
				assert_int_equal(bound.tracks[at], 0);
				continue;
			}
			assert_memory_equal(bound.translation + 3 * at, T, sizeof T);
			assert_memory_equal(bound.rotation + 4 * at, R, sizeof R);
			assert_memory_equal(bound.scale + 3 * at, S, sizeof S);
			assert_int_equal(bound.tracks[at], pose.tracks[b]);
		}
	}
	animrt_binding_destroy(binding);
	free(m1);
	free(m2);
}

typedef struct thread_job {
	const animrt_clip *clip;
	float results[200][3];
} thread_job;

static void *sample_in_thread(void *arg)
{
	thread_job *job = arg;
	animrt_pose pose;
	void *mem = malloc(animrt_pose_size_bytes(job->clip->sequence_count));
	uint32_t cursors[2] = { 0, 0 };

	if (!mem)
		return NULL;
	animrt_pose_init(&pose, mem, job->clip->sequence_count);
	for (int i = 0; i < 200; i++) {
		animrt_clip_sample(job->clip, (float)i * 0.02f, ANIMRT_PLAY_REPEAT, cursors, &pose);
		memcpy(job->results[i], pose.translation + 3, sizeof job->results[i]);
	}
	free(mem);
	return job;
}

static void one_clip_samples_from_several_threads(void **state)
{
	(void)state;
	static const float times[4] = { 0, 0.5f, 2, 3 };
	animrt_sequence seqs[2] = {
		seq("Root", 4, 1.0f, 3.0f, NULL, tx4, 4, NULL, 0, NULL, 0),
		seq("Arm", 4, 0, 3.0f, times, tx4, 4, NULL, 0, NULL, 0),
	};
	animrt_clip clip = { .duration_s = 3, .sequence_count = 2, .sequences = seqs };
	thread_job *jobs = calloc(4, sizeof *jobs);
	pthread_t threads[4];

	assert_non_null(jobs);
	for (int i = 0; i < 4; i++) {
		jobs[i].clip = &clip;
		assert_int_equal(pthread_create(&threads[i], NULL, sample_in_thread, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		void *ret;

		assert_int_equal(pthread_join(threads[i], &ret), 0);
		assert_ptr_equal(ret, &jobs[i]);
	}
	for (int i = 1; i < 4; i++)
		assert_memory_equal(jobs[i].results, jobs[0].results, sizeof jobs[0].results);
	assert_float_equal(jobs[0].results[50][0], 10 + 10.0f / 3, EPS);   /* t = 1: 0.5 .. 2 */
	free(jobs);
}

/* --------------------------------------------------------------- binding */

static void crossfade_endpoints_and_one_sided_bones(void **state)
{
	(void)state;
	float ra[8], rb[8];
	rot_z(ra, 0.3);
	rot_z(ra + 4, 0.9);
	rot_z(rb, -2.0);
	rot_z(rb + 4, 2.5);
	static const float sa[3] = { 2, 2, 2 };
	animrt_sequence a_seqs[2] = {
		seq("Root", 2, 1, 1, NULL, ramp_a, 2, ra, 2, NULL, 0),
		seq("Tail", 2, 1, 1, NULL, NULL, 0, ra, 2, sa, 1),
	};
	animrt_sequence b_seqs[2] = {
		seq("Root", 2, 1, 1, NULL, ramp_b, 2, rb, 2, NULL, 0),
		seq("Head", 2, 1, 1, NULL, ramp_b, 2, NULL, 0, NULL, 0),
	};
	animrt_clip a = { .duration_s = 1, .sequence_count = 2, .sequences = a_seqs };
	animrt_clip b = { .duration_s = 1, .sequence_count = 2, .sequences = b_seqs };
	const char *names[4] = { "Root", "Tail", "Head", "Other" };
	animrt_binding *ba, *bb;
	animrt_pose pa, pb, out, prev;
	void *m1 = pose_new(&pa, 4), *m2 = pose_new(&pb, 4), *m3 = pose_new(&out, 4), *m4 = pose_new(&prev, 4);

	assert_int_equal(animrt_binding_create(&a, names, 4, &ba, NULL), ANIMRT_OK);
	assert_int_equal(animrt_binding_create(&b, names, 4, &bb, NULL), ANIMRT_OK);
	animrt_binding_sample(ba, 0.3f, ANIMRT_PLAY_ONCE, NULL, &pa);
	animrt_binding_sample(bb, 0.3f, ANIMRT_PLAY_ONCE, NULL, &pb);

	/* Weight 0 is a, weight 1 is b, bit for bit, for bones both animate. */
	assert_int_equal(animrt_pose_blend(&pa, &pb, 0, &out), ANIMRT_OK);
	assert_memory_equal(out.translation, pa.translation, 3 * sizeof(float));
	assert_memory_equal(out.rotation, pa.rotation, 4 * sizeof(float));
	assert_int_equal(animrt_pose_blend(&pa, &pb, 1, &out), ANIMRT_OK);
	assert_memory_equal(out.translation, pb.translation, 3 * sizeof(float));
	assert_memory_equal(out.rotation, pb.rotation, 4 * sizeof(float));

	/* A bone or track only one clip animates takes that clip's value at
	 * any weight; a bone neither animates is identity. */
	assert_int_equal(animrt_pose_blend(&pa, &pb, 0.5f, &out), ANIMRT_OK);
	assert_memory_equal(out.rotation + 4, pa.rotation + 4, 4 * sizeof(float));   /* Tail */
	assert_memory_equal(out.scale + 3, pa.scale + 3, 3 * sizeof(float));
	assert_memory_equal(out.translation + 6, pb.translation + 6, 3 * sizeof(float)); /* Head */
	assert_int_equal(out.tracks[1], ANIMRT_TRACK_ROTATION | ANIMRT_TRACK_SCALE);
	assert_int_equal(out.tracks[2], ANIMRT_TRACK_TRANSLATION);
	assert_int_equal(out.tracks[3], 0);
	assert_float_equal(out.rotation[3 * 4 + 3], 1, 0);
	assert_float_equal(out.translation[0], (pa.translation[0] + pb.translation[0]) / 2, EPS);

	/* Continuity in the weight: steps of 1/1000 move every component by
	 * at most a little more than 1/1000 of the way. */
	animrt_pose_blend(&pa, &pb, 0, &prev);
	for (int i = 1; i <= 1000; i++) {
		animrt_pose_blend(&pa, &pb, (float)i / 1000, &out);
		assert_true(fabsf(out.translation[0] - prev.translation[0]) < 0.2f);
		for (int k = 0; k < 4; k++)
			assert_true(fabsf(out.rotation[k] - prev.rotation[k]) < 0.005f);
		memcpy(prev.translation, out.translation, 3 * sizeof(float));
		memcpy(prev.rotation, out.rotation, 4 * sizeof(float));
	}
	/* out may be one of the inputs. */
	animrt_pose_blend(&pa, &pb, 0.25f, &out);
	animrt_pose_blend(&pa, &pb, 0.25f, &pa);
	assert_memory_equal(pa.translation, out.translation, 12 * sizeof(float));
	assert_memory_equal(pa.rotation, out.rotation, 16 * sizeof(float));
	assert_int_equal(animrt_pose_blend(&pa, &pb, 0.5f, NULL), ANIMRT_ERR_ARGUMENT);
	animrt_binding_destroy(ba);
	animrt_binding_destroy(bb);
	free(m1);
	free(m2);
	free(m3);
	free(m4);
}

static void additive_layer_weights_zero_and_one(void **state)
{
	(void)state;
	animrt_pose base, layer, out;
	void *m1 = pose_new(&base, 2), *m2 = pose_new(&layer, 2), *m3 = pose_new(&out, 2);
	const float bt[3] = { 1, 2, 3 }, lt[3] = { 4, 6, 8 };

	/* Bone 0: both animate T and R.  Bone 1: only the base. */
	memcpy(base.translation, bt, sizeof bt);
	memcpy(layer.translation, lt, sizeof lt);
	rot_z(base.rotation, 0.4);
	base.rotation[0] = 0.3f;   /* not about z alone */
	float n = sqrtf(base.rotation[0] * base.rotation[0] + base.rotation[2] * base.rotation[2] +
			base.rotation[3] * base.rotation[3]);
	for (int k = 0; k < 4; k++)
		base.rotation[k] /= n;
	rot_z(layer.rotation, -2.8);
	base.scale[0] = 3;
	layer.scale[0] = 5;
	base.tracks[0] = layer.tracks[0] = ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_ROTATION;
	base.translation[3] = 9;
	base.tracks[1] = ANIMRT_TRACK_TRANSLATION;

	/* Weight 0: the base, exactly. */
	assert_int_equal(animrt_pose_add(&base, &layer, &base, 0, &out), ANIMRT_OK);
	assert_memory_equal(out.translation, base.translation, 6 * sizeof(float));
	assert_memory_equal(out.rotation, base.rotation, 8 * sizeof(float));
	/* Weight 1 over the base as reference: the layer. */
	assert_int_equal(animrt_pose_add(&base, &layer, &base, 1, &out), ANIMRT_OK);
	assert_floats(out.translation, layer.translation, 3, 1e-6);
	assert_floats(out.rotation, layer.rotation, 4, 1e-6);
	assert_float_equal(out.scale[0], 3, 0);         /* the layer does not animate scale */
	assert_float_equal(out.translation[3], 9, 0);   /* nor bone 1 */
	assert_int_equal(out.tracks[1], ANIMRT_TRACK_TRANSLATION);
	/* Half the layer's difference from identity (no reference). */
	assert_int_equal(animrt_pose_add(&base, &layer, NULL, 0.5f, &out), ANIMRT_OK);
	assert_float_equal(out.translation[0], 1 + 2, EPS);
	assert_float_equal(out.translation[2], 3 + 4, EPS);
	float half[4], want[4];
	rot_z(half, -1.4);
	/* want = base * half */
	const float *b = base.rotation;
	want[0] = b[3] * half[0] + b[0] * half[3] + b[1] * half[2] - b[2] * half[1];
	want[1] = b[3] * half[1] - b[0] * half[2] + b[1] * half[3] + b[2] * half[0];
	want[2] = b[3] * half[2] + b[0] * half[1] - b[1] * half[0] + b[2] * half[3];
	want[3] = b[3] * half[3] - b[0] * half[0] - b[1] * half[1] - b[2] * half[2];
	assert_floats(out.rotation, want, 4, 1e-6);
	/* In place. */
	assert_int_equal(animrt_pose_add(&base, &layer, &base, 1, &base), ANIMRT_OK);
	assert_floats(base.translation, layer.translation, 3, 1e-6);
	assert_int_equal(animrt_pose_add(&base, &layer, &out, 1, NULL), ANIMRT_ERR_ARGUMENT);
	free(m1);
	free(m2);
	free(m3);
}

/* Four rotation keys about Z, a quarter turn apart. */
static float quarter_turns[16];

static animrt_sequence turning_sequence(void)
{
	for (int k = 0; k < 4; k++)
		rot_z(quarter_turns + 4 * k, PI / 2 * k);
	return seq("Root", 4, 1.0f, 3.0f, NULL, tx4, 4, quarter_turns, 4, NULL, 0);
}

/* NULL from a game (a failed malloc, a track it does not want) is refused
 * or skipped, never followed. */
static void null_arguments_are_refused_not_followed(void **state)
{
	(void)state;
	animrt_sequence s = turning_sequence();
	animrt_clip clip = { .duration_s = 3, .sequence_count = 1, .sequences = &s };
	float T[3], R[4], S[3], T2[3] = { 9, 9, 9 }, R2[4] = { 9, 9, 9, 9 };

	assert_int_equal(animrt_sequence_sample(NULL, 0.25f, ANIMRT_PLAY_REPEAT, NULL, T, R, S), ANIMRT_ERR_ARGUMENT);
	assert_int_equal(animrt_sequence_sample(&s, 1.5f, ANIMRT_PLAY_REPEAT, NULL, T, R, S), ANIMRT_OK);
	/* The rotation alone, the translation alone: the same values. */
	assert_int_equal(animrt_sequence_sample(&s, 1.5f, ANIMRT_PLAY_REPEAT, NULL, NULL, R2, NULL), ANIMRT_OK);
	assert_memory_equal(R2, R, sizeof R);
	assert_float_equal(R[3], cos(PI / 2 * 1.5 / 2), EPS);
	assert_int_equal(animrt_sequence_sample(&s, 1.5f, ANIMRT_PLAY_REPEAT, NULL, T2, NULL, NULL), ANIMRT_OK);
	assert_memory_equal(T2, T, sizeof T);
	assert_int_equal(animrt_sequence_sample(&s, 1.5f, ANIMRT_PLAY_REPEAT, NULL, NULL, NULL, NULL), ANIMRT_OK);

	/* A NULL pose: nothing.  A NULL block: a pose of no bones, refused. */
	void *mem = malloc(animrt_pose_size_bytes(4));
	animrt_pose pose;
	animrt_pose_init(NULL, mem, 4);
	memset(&pose, 0xff, sizeof pose);
	animrt_pose_init(&pose, NULL, 4);
	assert_int_equal(pose.bone_count, 0);
	assert_null(pose.translation);
	assert_null(pose.rotation);
	assert_null(pose.scale);
	assert_null(pose.tracks);
	assert_int_equal(animrt_clip_sample(&clip, 1, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_ERR_POSE_SIZE);
	free(mem);
}

/* Any play mode but Once and Repeat is refused by every call that takes
 * one, and nothing is written. */
static void play_modes_other_than_once_and_repeat_are_refused(void **state)
{
	(void)state;
	static const int bad[] = { 2, 7, -1 };
	animrt_sequence s = turning_sequence();
	animrt_clip clip = { .duration_s = 3, .sequence_count = 1, .sequences = &s };
	const char *names[1] = { "Root" };
	animrt_binding *b;
	animrt_player *player;
	animrt_pose pose;
	animrt_motion motion;
	void *mem = pose_new(&pose, 1), *cm = malloc(animrt_context_size_bytes(1));
	animrt_context *ctx = animrt_context_init(cm, 1);

	assert_int_equal(animrt_binding_create(&clip, names, 1, &b, NULL), ANIMRT_OK);
	assert_int_equal(animrt_player_create(1, &player, NULL), ANIMRT_OK);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		animrt_play_mode mode = (animrt_play_mode)bad[i];
		float T[3] = { 123, 0, 0 }, R[4], S[3];

		pose.translation[0] = 123;
		assert_int_equal(animrt_clip_sample(&clip, 1.5f, mode, NULL, &pose), ANIMRT_ERR_PLAY_MODE);
		assert_int_equal(animrt_clip_sample_with(&clip, 1.5f, mode, ctx, &pose), ANIMRT_ERR_PLAY_MODE);
		assert_int_equal(animrt_binding_sample(b, 1.5f, mode, NULL, &pose), ANIMRT_ERR_PLAY_MODE);
		assert_int_equal(animrt_binding_sample_with(b, 1.5f, mode, ctx, &pose), ANIMRT_ERR_PLAY_MODE);
		assert_int_equal(animrt_sequence_sample(&s, 1.5f, mode, NULL, T, R, S), ANIMRT_ERR_PLAY_MODE);
		assert_int_equal(animrt_clip_sample_bone(&clip, 0, 1.5f, mode, NULL, T, R, S), ANIMRT_ERR_PLAY_MODE);
		assert_int_equal(animrt_player_play(player, b, mode, 0), ANIMRT_ERR_PLAY_MODE);
		assert_int_equal(animrt_motion_between(&clip, 0, 1, mode, &motion), ANIMRT_ERR_PLAY_MODE);
		assert_float_equal(pose.translation[0], 123, 0);
		assert_float_equal(T[0], 123, 0);
	}
	for (int m = ANIMRT_PLAY_ONCE; m <= ANIMRT_PLAY_REPEAT; m++) {
		assert_int_equal(animrt_clip_sample(&clip, 1.5f, (animrt_play_mode)m, NULL, &pose), ANIMRT_OK);
		assert_float_equal(pose.translation[0], 15, EPS);
	}
	animrt_player_destroy(player);
	animrt_binding_destroy(b);
	free(cm);
	free(mem);
}

/* Weight 0 is the base, its tracks included: a bone only the layer
 * animates stays unanimated, so a crossfade after it takes the other
 * pose's value.  Above 0 the tracks are both poses'. */
static void additive_weight_zero_keeps_the_base_tracks(void **state)
{
	(void)state;
	animrt_pose base, layer, out;
	void *m1 = pose_new(&base, 2), *m2 = pose_new(&layer, 2), *m3 = pose_new(&out, 2);

	base.translation[0] = 4;
	base.tracks[0] = ANIMRT_TRACK_TRANSLATION;
	rot_z(layer.rotation, 0.5);
	rot_z(layer.rotation + 4, 0.25);
	layer.translation[3] = 2;
	layer.tracks[0] = ANIMRT_TRACK_ROTATION;
	layer.tracks[1] = ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_ROTATION;
	const float weights[2] = { 0, NAN };
	for (int i = 0; i < 2; i++) {
		memset(out.tracks, 0xff, 2);
		assert_int_equal(animrt_pose_add(&base, &layer, NULL, weights[i], &out), ANIMRT_OK);
		assert_memory_equal(out.translation, base.translation, 6 * sizeof(float));
		assert_memory_equal(out.rotation, base.rotation, 8 * sizeof(float));
		assert_memory_equal(out.scale, base.scale, 6 * sizeof(float));
		assert_memory_equal(out.tracks, base.tracks, 2);
	}
	assert_int_equal(animrt_pose_add(&base, &layer, NULL, 0.5f, &out), ANIMRT_OK);
	assert_int_equal(out.tracks[0], ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_ROTATION);
	assert_int_equal(out.tracks[1], ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_ROTATION);
	assert_float_equal(out.translation[3], 1, EPS);

	/* Poses of other bone counts: their own status, not NULL's. */
	animrt_pose one;
	void *m4 = pose_new(&one, 1);
	assert_int_equal(animrt_pose_add(&base, &one, NULL, 0.5f, &out), ANIMRT_ERR_POSE_SIZE);
	assert_int_equal(animrt_pose_add(&base, &layer, &one, 0.5f, &out), ANIMRT_ERR_POSE_SIZE);
	assert_int_equal(animrt_pose_blend(&base, &one, 0.5f, &out), ANIMRT_ERR_POSE_SIZE);
	assert_int_equal(animrt_pose_blend(&base, &layer, 0.5f, &one), ANIMRT_ERR_POSE_SIZE);
	assert_int_equal(animrt_pose_blend(&base, NULL, 0.5f, &out), ANIMRT_ERR_ARGUMENT);
	free(m1);
	free(m2);
	free(m3);
	free(m4);
}

/* An additive layer's scale: base + weight * (layer - reference), per
 * component of the reference (identity, 1 1 1, without one); a weight
 * past 1 is 1, as documented, not an extrapolation. */
static void additive_scale_and_weights_past_one(void **state)
{
	(void)state;
	animrt_pose base, layer, ref, out, at_one;
	void *m1 = pose_new(&base, 1), *m2 = pose_new(&layer, 1), *m3 = pose_new(&ref, 1);
	void *m4 = pose_new(&out, 1), *m5 = pose_new(&at_one, 1);
	const float bt[3] = { 1, 1, 1 }, lt[3] = { 3, 5, 7 }, rt[3] = { 1, 2, 3 };
	const float bs[3] = { 2, 3, 4 }, ls[3] = { 1.5f, 2.5f, 3.5f }, rs[3] = { 0.5f, 1, 2 };

	memcpy(base.translation, bt, sizeof bt);
	memcpy(base.scale, bs, sizeof bs);
	memcpy(layer.translation, lt, sizeof lt);
	memcpy(layer.scale, ls, sizeof ls);
	memcpy(ref.translation, rt, sizeof rt);
	memcpy(ref.scale, rs, sizeof rs);
	base.tracks[0] = ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_SCALE;
	layer.tracks[0] = ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_SCALE;
	ref.tracks[0] = ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_SCALE;

	assert_int_equal(animrt_pose_add(&base, &layer, &ref, 1, &at_one), ANIMRT_OK);
	assert_floats(at_one.translation, ((const float[]){ 3, 4, 5 }), 3, 0);
	assert_floats(at_one.scale, ((const float[]){ 3, 4.5f, 5.5f }), 3, 0);
	assert_int_equal(at_one.tracks[0], ANIMRT_TRACK_TRANSLATION | ANIMRT_TRACK_SCALE);
	assert_int_equal(animrt_pose_add(&base, &layer, &ref, 0.5f, &out), ANIMRT_OK);
	assert_floats(out.scale, ((const float[]){ 2.5f, 3.75f, 4.75f }), 3, 0);
	/* No reference: the layer's difference from unit scale. */
	assert_int_equal(animrt_pose_add(&base, &layer, NULL, 1, &out), ANIMRT_OK);
	assert_floats(out.scale, ((const float[]){ 2.5f, 4.5f, 6.5f }), 3, 0);
	/* Past 1, and infinite: the same as 1, bit for bit. */
	const float past[2] = { 2, INFINITY };
	for (int i = 0; i < 2; i++) {
		assert_int_equal(animrt_pose_add(&base, &layer, &ref, past[i], &out), ANIMRT_OK);
		assert_memory_equal(out.translation, at_one.translation, 3 * sizeof(float));
		assert_memory_equal(out.rotation, at_one.rotation, 4 * sizeof(float));
		assert_memory_equal(out.scale, at_one.scale, 3 * sizeof(float));
	}
	free(m1);
	free(m2);
	free(m3);
	free(m4);
	free(m5);
}

/* A binding samples into a pose of its own bone count only: one bone more
 * or fewer is ANIMRT_ERR_POSE_SIZE, and the pose is left as it was. */
static void a_binding_samples_into_a_pose_of_its_bone_count_only(void **state)
{
	(void)state;
	animrt_sequence s = turning_sequence();
	animrt_clip clip = { .duration_s = 3, .sequence_count = 1, .sequences = &s };
	const char *names[2] = { "Root", "Other" };
	animrt_binding *b;
	animrt_pose pose;

	assert_int_equal(animrt_binding_create(&clip, names, 2, &b, NULL), ANIMRT_OK);
	for (uint32_t bones = 1; bones <= 3; bones++) {
		void *mem = pose_new(&pose, bones);

		pose.translation[0] = 123;
		assert_int_equal(animrt_binding_sample(b, 1.5f, ANIMRT_PLAY_ONCE, NULL, &pose),
				 bones == 2 ? ANIMRT_OK : ANIMRT_ERR_POSE_SIZE);
		if (bones == 2)
			assert_float_equal(pose.translation[0], 15, EPS);
		else
			assert_float_equal(pose.translation[0], 123, 0);
		free(mem);
	}
	animrt_binding_destroy(b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(uniform_key_search_at_every_boundary),
	cmocka_unit_test(timed_key_search_at_every_boundary),
	cmocka_unit_test(the_guessed_search_finds_what_the_binary_search_finds),
	cmocka_unit_test(repeat_holds_the_last_key_until_the_wrap),
	cmocka_unit_test(repeat_wraps_to_the_exact_remainder),
	cmocka_unit_test(single_keys_and_zero_intervals_do_not_divide_by_zero),
	cmocka_unit_test(fixed_and_absent_tracks),
	cmocka_unit_test(rotation_takes_the_shorter_arc),
	cmocka_unit_test(slerp_matches_double_precision),
	cmocka_unit_test(cursors_give_what_the_binary_search_gives),
	cmocka_unit_test(clip_pose_fills_the_callers_arrays),
	cmocka_unit_test(clips_of_many_bones_sample_as_their_sequences),
	cmocka_unit_test(one_clip_samples_from_several_threads),
	cmocka_unit_test(crossfade_endpoints_and_one_sided_bones),
	cmocka_unit_test(additive_layer_weights_zero_and_one),
	cmocka_unit_test(null_arguments_are_refused_not_followed),
	cmocka_unit_test(play_modes_other_than_once_and_repeat_are_refused),
	cmocka_unit_test(additive_weight_zero_keeps_the_base_tracks),
	cmocka_unit_test(additive_scale_and_weights_past_one),
	cmocka_unit_test(a_binding_samples_into_a_pose_of_its_bone_count_only),
};

ANIMC_TEST_GROUP(tests);
