/*
 * bench_sample.c - the cost of a bone sample through libanimrt, against the
 * cost of copying the same pose data, measured in the same run.  Driven by
 * scripts/bench-sample; built by `make bench-sample` (not part of the
 * libraries).
 *
 * usage: bench_sample FILE.xnb...
 *
 * Every file is loaded and gets its own pose buffer and key cursors.  Three
 * loops run over all clips, one clip after another, many rounds:
 *   random    animrt_clip_sample at a random time in [0, duration) per clip
 *             and round (times drawn before timing, fixed seed);
 *   playback  the same with time moving forward 1/60 s per round (Repeat),
 *             the case key cursors are for;
 *   memcpy    copying the clip's T, R and S arrays from one pose to another.
 * Each loop is timed RUNS times in thread CPU time; the median is printed in
 * nanoseconds per bone (a bone = a sequence of a clip).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <animc/animrt.h>
#include "bench_util.h"

#define RUNS 9
#define TIMES_PER_CLIP 4096
#define MIN_SECONDS 0.15

typedef struct bench_clip {
	animrt_clip *clip;
	animrt_pose pose, copy;
	void *mem, *copy_mem;
	uint32_t *cursors;
	float *times;
} bench_clip;

enum { LOOP_RANDOM, LOOP_PLAYBACK, LOOP_MEMCPY };

/* One pass of `rounds` rounds over all clips. */
static void run_loop(int loop, bench_clip *clips, size_t count, size_t rounds)
{
	for (size_t r = 0; r < rounds; r++) {
		size_t slot = r % TIMES_PER_CLIP;

		for (size_t c = 0; c < count; c++) {
			bench_clip *b = &clips[c];
			uint32_t n = b->clip->sequence_count;

			if (loop == LOOP_RANDOM) {
				animrt_clip_sample(b->clip, b->times[slot], ANIMRT_PLAY_ONCE, b->cursors,
						   &b->pose);
			} else if (loop == LOOP_PLAYBACK) {
				animrt_clip_sample(b->clip, (float)r * (1.0f / 60), ANIMRT_PLAY_REPEAT,
						   b->cursors, &b->pose);
			} else {
				memcpy(b->copy.translation, b->pose.translation, 3 * sizeof(float) * n);
				memcpy(b->copy.rotation, b->pose.rotation, 4 * sizeof(float) * n);
				memcpy(b->copy.scale, b->pose.scale, 3 * sizeof(float) * n);
			}
		}
	}
}

static double median_ns_per_bone(int loop, bench_clip *clips, size_t count, size_t bones)
{
	double ns[RUNS];
	size_t rounds = 16;

	/* Warm up and size a run to MIN_SECONDS. */
	for (;;) {
		double t0 = now_s();

		run_loop(loop, clips, count, rounds);
		if (now_s() - t0 >= MIN_SECONDS / 4)
			break;
		rounds *= 2;
	}
	rounds *= 4;
	for (int i = 0; i < RUNS; i++) {
		double t0 = now_s();

		run_loop(loop, clips, count, rounds);
		ns[i] = (now_s() - t0) * 1e9 / ((double)rounds * (double)bones);
	}
	qsort(ns, RUNS, sizeof ns[0], compare_doubles);
	return ns[RUNS / 2];
}

int main(int argc, char **argv)
{
	size_t count = (size_t)(argc > 1 ? argc - 1 : 0), bones = 0;
	bench_clip *clips = calloc(count ? count : 1, sizeof *clips);
	double checksum = 0;

	if (argc < 2 || !clips) {
		fprintf(stderr, "usage: bench_sample FILE.xnb...\n");
		return 2;
	}
	for (size_t c = 0; c < count; c++) {
		bench_clip *b = &clips[c];
		animrt_error err;

		if (animrt_open_file(argv[c + 1], &b->clip, &err) != ANIMRT_OK) {
			fprintf(stderr, "%s: error: %s\n", argv[c + 1], err.message);
			return 1;
		}
		uint32_t n = b->clip->sequence_count;

		b->mem = malloc(animrt_pose_size_bytes(n) + 1);
		b->copy_mem = malloc(animrt_pose_size_bytes(n) + 1);
		b->cursors = calloc((size_t)n + 1, sizeof *b->cursors);
		b->times = malloc(TIMES_PER_CLIP * sizeof *b->times);
		if (!b->mem || !b->copy_mem || !b->cursors || !b->times) {
			fprintf(stderr, "bench_sample: out of memory\n");
			return 1;
		}
		animrt_pose_init(&b->pose, b->mem, n);
		animrt_pose_init(&b->copy, b->copy_mem, n);
		for (size_t i = 0; i < TIMES_PER_CLIP; i++)
			b->times[i] = (float)(rng_unit() * b->clip->duration_s);
		bones += n;
	}
	double random_ns = median_ns_per_bone(LOOP_RANDOM, clips, count, bones);
	double playback_ns = median_ns_per_bone(LOOP_PLAYBACK, clips, count, bones);
	double memcpy_ns = median_ns_per_bone(LOOP_MEMCPY, clips, count, bones);

	for (size_t c = 0; c < count; c++)
		for (uint32_t i = 0; i < clips[c].clip->sequence_count; i++)
			checksum += clips[c].copy.translation[3 * i] + clips[c].pose.rotation[4 * i];
	printf("clips %zu\nbones %zu\n", count, bones);
	printf("sample_random_ns %.2f\nsample_playback_ns %.2f\nmemcpy_ns %.3f\nchecksum %g\n",
	       random_ns, playback_ns, memcpy_ns, checksum);
	for (size_t c = 0; c < count; c++) {
		animrt_close(clips[c].clip);
		free(clips[c].mem);
		free(clips[c].copy_mem);
		free(clips[c].cursors);
		free(clips[c].times);
	}
	free(clips);
	return 0;
}
