/*
 * bench_compact.c - the lossy outputs measured against the lossless one in
 * one run: worst error, and the time of a bone sample by today's scalar
 * sampler of the original layout (the baseline, animrt_rt_clip_sample_reference),
 * the SIMD sampler on the same files, on the reduced original layout, on
 * the compact layout decoded at load, and on the compact layout in place
 * (without a context, and with one per clip; and without one by the
 * sampler for processors without AVX2, animrt_rt_sample_packed_baseline:
 * SSE2 on x86-64, whatever this one has).  Driven by scripts/bench-compact; built by
 * `make bench-compact` (not part of the libraries).
 *
 * usage: bench_compact < TRIPLES
 * Each line of standard input: LOSSLESS.xnb <tab> REDUCED.xnb <tab> COMPACT.xnb
 * (one clip compiled three ways).  Prints "key value" lines.
 *
 * Errors: at 60 Hz from 0 to the duration, at every key of the lossless
 * file, and at 1 kHz, in Once mode: translation distance, rotation angle in
 * degrees, scale largest component difference.
 * Timing: each contender samples every clip in turn, many rounds, at random
 * times (Once; drawn before timing, fixed seed) and at 60 Hz playback
 * (Repeat); passes of about 10 ms, contenders interleaved with a rotating
 * start, BENCH_RUNS runs each in thread CPU time (bench_medians); the
 * median in ns per bone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <animc/animrt.h>
#include "bench_heap.h"
#include "bench_util.h"
#include "compact.h"
#include "sample.h"

#define TIMES 4096
#define MAX_CLIPS 4096

/* One clip four ways: lossless, reduced, compact decoded at load, compact
 * in place (the default). */
enum { LOSSLESS, REDUCED, DECODED, PACKED, KINDS };
typedef struct clip3 {
	animrt_clip *c[KINDS];
	animrt_pose pose;
	void *mem;
	uint32_t *cursors;
	animrt_context *context;
	float *times;
} clip3;

static clip3 clips[MAX_CLIPS];
static size_t clip_count, bone_count;
/* Heap bytes the loaded clips hold, per kind (bench_heap.c). */
static size_t loaded_bytes[KINDS];
/* Compact clips in place past 1.05 x their file + 512 bytes, and the
 * largest excess over 1.05 x file (the budget's 512 bytes not counted). */
static size_t packed_over_budget;
static double packed_worst_excess = -1e300;


/* ------------------------------------------------------------------ error */

typedef struct error3 {
	double t, r, s;
} error3;

static double angle_deg(const float *a, const float *b)
{
	double ax = a[0], ay = a[1], az = a[2], aw = a[3], bx = b[0], by = b[1], bz = b[2], bw = b[3];
	double w = aw * bw + ax * bx + ay * by + az * bz;
	double x = aw * bx - ax * bw - ay * bz + az * by;
	double y = aw * by - ay * bw - az * bx + ax * bz;
	double z = aw * bz - az * bw - ax * by + ay * bx;

	return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) * (180.0 / 3.14159265358979323846);
}

static void compare_at(clip3 *k, int which, animrt_pose *a, animrt_pose *b, float t, error3 *e)
{
	animrt_clip_sample(k->c[0], t, ANIMRT_PLAY_ONCE, NULL, a);
	animrt_clip_sample(k->c[which], t, ANIMRT_PLAY_ONCE, NULL, b);
	for (uint32_t i = 0; i < k->c[0]->sequence_count; i++) {
		double d2 = 0, ds = 0;

		for (int c = 0; c < 3; c++) {
			double d = (double)a->translation[3 * i + c] - b->translation[3 * i + c];

			d2 += d * d;
			ds = fmax(ds, fabs((double)a->scale[3 * i + c] - b->scale[3 * i + c]));
		}
		e->t = fmax(e->t, sqrt(d2));
		e->s = fmax(e->s, ds);
		e->r = fmax(e->r, angle_deg(a->rotation + 4 * i, b->rotation + 4 * i));
	}
}

static error3 worst_error(int which)
{
	error3 e = { 0, 0, 0 };

	for (size_t n = 0; n < clip_count; n++) {
		clip3 *k = &clips[n];
		uint32_t bones = k->c[0]->sequence_count;
		void *ma = malloc(animrt_pose_size_bytes(bones ? bones : 1)), *mb = malloc(animrt_pose_size_bytes(bones ? bones : 1));
		animrt_pose a, b;
		float d = k->c[0]->duration_s;

		animrt_pose_init(&a, ma, bones);
		animrt_pose_init(&b, mb, bones);
		for (int i = 0; (float)(i / 60.0) <= d; i++)
			compare_at(k, which, &a, &b, (float)(i / 60.0), &e);
		for (int i = 0; (float)(i / 1000.0) <= d; i++)
			compare_at(k, which, &a, &b, (float)(i / 1000.0), &e);
		compare_at(k, which, &a, &b, d, &e);
		for (uint32_t s = 0; s < bones; s++) {
			const animrt_sequence *q = &k->c[0]->sequences[s];

			for (uint32_t j = 0; j < q->key_count; j++) {
				float t = q->has_time ? q->times_s[j] : (float)((double)j * q->key_interval_s);

				if (t <= d)
					compare_at(k, which, &a, &b, t, &e);
			}
		}
		free(ma);
		free(mb);
	}
	return e;
}

/* ----------------------------------------------------------------- timing */

enum { BASELINE, SIMD_V0, SIMD_REDUCED, SIMD_DECODED, IN_PLACE, IN_PLACE_CONTEXT, IN_PLACE_BASELINE, CONTENDERS };
static const char *const names[CONTENDERS] = { "baseline_scalar_v0", "simd_v0", "simd_reduced", "simd_decoded",
					       "packed", "packed_context", "packed_baseline" };
static const int file_of[CONTENDERS] = { LOSSLESS, LOSSLESS, REDUCED, DECODED, PACKED, PACKED, PACKED };

static void pass(int who, int playback, size_t rounds)
{
	for (size_t r = 0; r < rounds; r++) {
		float play_t = (float)r * (1.0f / 60);

		for (size_t n = 0; n < clip_count; n++) {
			clip3 *k = &clips[n];
			const animrt_clip *c = k->c[file_of[who]];
			float t = playback ? play_t : k->times[r % TIMES];
			animrt_play_mode mode = playback ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;

			if (who == BASELINE)
				animrt_rt_clip_sample_reference(c, t, mode, k->cursors, &k->pose);
			else if (who == IN_PLACE_CONTEXT)
				animrt_clip_sample_with(c, t, mode, k->context, &k->pose);
			else if (who == IN_PLACE)
				animrt_clip_sample(c, t, mode, NULL, &k->pose);
			else if (who == IN_PLACE_BASELINE)
				animrt_rt_sample_packed_baseline(c, animrt_rt_time_local(t, c->duration_s, mode), NULL,
								 NULL, &k->pose, false);
			else
				animrt_clip_sample(c, t, mode, k->cursors, &k->pose);
		}
	}
}

int main(void)
{
	char line[8192];

	while (fgets(line, sizeof line, stdin) && clip_count < MAX_CLIPS) {
		char *paths[KINDS], *save = NULL;
		clip3 *k = &clips[clip_count];

		line[strcspn(line, "\n")] = '\0';
		paths[0] = strtok_r(line, "\t", &save);
		paths[1] = strtok_r(NULL, "\t", &save);
		paths[2] = strtok_r(NULL, "\t", &save);
		paths[3] = paths[2];
		if (!paths[0] || !paths[1] || !paths[2]) {
			fprintf(stderr, "bench_compact: a line needs three files\n");
			return 2;
		}
		for (int i = 0; i < KINDS; i++) {
			animrt_error err;
			animrt_open_options options = { NULL, 0, false, i == DECODED };
			size_t before = bench_heap_live();

			if (animrt_open_file_with(paths[i], &options, &k->c[i], &err) != ANIMRT_OK) {
				fprintf(stderr, "%s: error: %s\n", paths[i], err.message);
				return 1;
			}
			size_t used = bench_heap_live() - before;
			loaded_bytes[i] += used;
			if (i == PACKED) {
				/* Each clip in place against 1.05 x its file + 512 bytes. */
				FILE *fp = fopen(paths[i], "rb");
				long file = fp && fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;

				if (fp)
					fclose(fp);
				if (file > 0 && (double)used > 1.05 * (double)file + 512)
					packed_over_budget++;
				if (file > 0 && (double)used - 1.05 * (double)file > packed_worst_excess)
					packed_worst_excess = (double)used - 1.05 * (double)file;
			}
		}
		uint32_t n = k->c[0]->sequence_count;
		size_t bytes = animrt_pose_size_bytes(n ? n : 1);
		k->mem = aligned_alloc(64, (bytes + 63) / 64 * 64);
		k->cursors = calloc((size_t)n + 1, sizeof *k->cursors);
		k->times = malloc(TIMES * sizeof *k->times);
		k->context = animrt_context_init(malloc(animrt_context_size_bytes(n)), n);
		if (!k->mem || !k->cursors || !k->times || !k->context)
			return 1;
		animrt_pose_init(&k->pose, k->mem, n);
		for (int i = 0; i < TIMES; i++)
			k->times[i] = (float)(rng_unit() * k->c[0]->duration_s);
		bone_count += n;
		clip_count++;
	}
	if (!clip_count) {
		fprintf(stderr, "usage: bench_compact < LOSSLESS<tab>REDUCED<tab>COMPACT lines\n");
		return 2;
	}
	error3 er = worst_error(REDUCED), ec = worst_error(PACKED);
	printf("clips %zu\nbones %zu\n", clip_count, bone_count);
	printf("loaded_bytes %zu %zu %zu %zu\n", loaded_bytes[LOSSLESS], loaded_bytes[REDUCED], loaded_bytes[DECODED],
	       loaded_bytes[PACKED]);
	printf("packed_per_clip %zu %.0f\n", packed_over_budget, packed_worst_excess);
	printf("error_reduced %.9g %.9g %.9g\nerror_compact %.9g %.9g %.9g\n", er.t, er.r, er.s, ec.t, ec.r, ec.s);

	double median[2 * CONTENDERS];
	if (!bench_medians(pass, CONTENDERS, bone_count, median))
		return 1;
	for (int who = 0; who < CONTENDERS; who++)
		for (int m = 0; m < 2; m++)
			printf("%s_%s_ns %.3f\n", names[who], m ? "playback" : "random", median[2 * who + m]);
	return 0;
}
