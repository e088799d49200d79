/*
 * check_simd.c - the SIMD samplers against the scalar references, without
 * the test framework, for builds the suite cannot run (scripts/check-simd
 * builds it for the host, with and without its vector instructions, and
 * cross-compiles it for AArch64 to run under qemu).
 *
 * usage: check_simd FILE.xnb...
 * Samples each file at 997 times in Repeat mode with animrt_clip_sample
 * (SIMD), without and with a context, and animrt_rt_clip_sample_reference
 * (scalar); compact files both in place and decoded at load.  Every
 * component must agree within 1e-5.  A clip of reader version 3 in place
 * is also sampled at those times and at every segment's edges, through no
 * map and through one that reverses the bones and leaves one out, by the
 * plain C reference (animrt_rt_sample_v3), the four-wide sampler of this
 * build's instruction set (animrt_rt_sample_v3_four) and the one the
 * processor is given (animrt_rt_sample_packed): both must give the
 * reference's bits.  Prints the instruction set, the worst difference and
 * the poses that differ; exit 1 when one is past 1e-5, a version 3 pose
 * differs in a bit, or a file does not load.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "compact.h"
#include "compact_layout.h"
#include "sample.h"

/* The worst difference of two poses over n bones; `past` counts the
 * components past 1e-5. */
static double pose_diff(const animrt_pose *a, const animrt_pose *b, uint32_t n, unsigned long *past)
{
	double worst = 0;

	for (uint32_t k = 0; k < 4 * n; k++) {
		double d = fabs((double)a->rotation[k] - b->rotation[k]);

		worst = fmax(worst, d);
		*past += !(d <= 1e-5);
	}
	for (uint32_t k = 0; k < 3 * n; k++) {
		double d = fmax(fabs((double)a->translation[k] - b->translation[k]),
				fabs((double)a->scale[k] - b->scale[k]));

		worst = fmax(worst, d);
		*past += !(d <= 1e-5);
	}
	return worst;
}

/* Poses a and b the same in every bit? */
static bool pose_same(const animrt_pose *a, const animrt_pose *b, uint32_t n)
{
	return !memcmp(a->translation, b->translation, 3 * (size_t)n * sizeof(float)) &&
	       !memcmp(a->rotation, b->rotation, 4 * (size_t)n * sizeof(float)) &&
	       !memcmp(a->scale, b->scale, 3 * (size_t)n * sizeof(float)) && !memcmp(a->tracks, b->tracks, n);
}

static unsigned long v3_poses, v3_differ;

/* A clip of reader version 3 at local time t through map (NULL: none) by
 * the reference and both vector samplers, into poses a and b. */
static void v3_compare_at(const animrt_clip *clip, float t, const uint32_t *map, animrt_pose *a, animrt_pose *b,
			  double *worst)
{
	uint32_t n = clip->sequence_count;

	animrt_rt_sample_v3(clip, t, map, a);
	for (int who = 0; who < 2; who++) {
		memset(b->translation, 0, 3 * (size_t)n * sizeof(float));
		memset(b->rotation, 0, 4 * (size_t)n * sizeof(float));
		memset(b->scale, 0, 3 * (size_t)n * sizeof(float));
		memset(b->tracks, 0, n);
		if (who)
			animrt_rt_sample_packed(clip, t, map, NULL, b, false);
		else
			animrt_rt_sample_v3_four(clip, t, map, b);
		unsigned long past = 0;
		*worst = fmax(*worst, pose_diff(a, b, n, &past));
		v3_poses++;
		if (!pose_same(a, b, n)) {
			if (!v3_differ)
				fprintf(stderr, "check_simd: %s differs from the reference at %g s%s\n",
					who ? "the dispatched sampler" : "the four-wide sampler", (double)t,
					map ? " through a map" : "");
			v3_differ++;
		}
	}
}

/* A clip of reader version 3 in place at 997 times and each segment's
 * edges, through no map and a reversing one with bone 0 left out. */
static bool v3_compare(const animrt_clip *clip, double *worst)
{
	const struct animrt_compact *c = clip->compact;
	uint32_t n = clip->sequence_count ? clip->sequence_count : 1;
	void *ma = calloc(1, animrt_pose_size_bytes(n)), *mb = calloc(1, animrt_pose_size_bytes(n));
	uint32_t *map = malloc(n * sizeof *map);
	animrt_pose a, b;

	if (!ma || !mb || !map)
		return false;
	animrt_pose_init(&a, ma, n);
	animrt_pose_init(&b, mb, n);
	for (uint32_t i = 0; i < n; i++)
		map[i] = i ? n - 1 - i : RT_NO_BONE;
	for (int m = 0; m < 2; m++) {
		const uint32_t *through = m ? map : NULL;

		if (m)
			memset(ma, 0, animrt_pose_size_bytes(n));
		for (int i = 0; i < 997; i++)
			v3_compare_at(clip, clip->duration_s * (float)i / 991.0f, through, &a, &b, worst);
		for (uint32_t s = 0; s <= c->segment_count; s++) {
			float edge = (float)((double)(s << COMPACT_SEGMENT_SHIFT) / c->rate_hz);

			v3_compare_at(clip, edge, through, &a, &b, worst);
			v3_compare_at(clip, nextafterf(edge, 0.0f), through, &a, &b, worst);
			v3_compare_at(clip, nextafterf(edge, 1e9f), through, &a, &b, worst);
		}
	}
	free(ma);
	free(mb);
	free(map);
	return true;
}

int main(int argc, char **argv)
{
	unsigned long past = 0;
	double worst = 0;

	for (int f = 1; f < argc; f++) {
		/* Compact clips both in place (with and without a context) and
		 * decoded at load; the original layout twice alike. */
		for (int decoded = 0; decoded < 2; decoded++) {
			animrt_open_options options = { NULL, 0, false, decoded };
			animrt_clip *clip;
			animrt_error err;

			if (animrt_open_file_with(argv[f], &options, &clip, &err) != ANIMRT_OK) {
				fprintf(stderr, "%s: %s\n", argv[f], err.message);
				return 1;
			}
			uint32_t n = clip->sequence_count ? clip->sequence_count : 1;
			void *ma = malloc(animrt_pose_size_bytes(n)), *mb = malloc(animrt_pose_size_bytes(n));
			void *mc = malloc(animrt_context_size_bytes(n));
			animrt_context *ctx = animrt_context_init(mc, n);
			animrt_pose a, b;

			if (!ma || !mb || !ctx)
				return 1;
			animrt_pose_init(&a, ma, n);
			animrt_pose_init(&b, mb, n);
			for (int i = 0; i < 997; i++) {
				float t = clip->duration_s * (float)i / 991.0f;

				animrt_rt_clip_sample_reference(clip, t, ANIMRT_PLAY_REPEAT, NULL, &a);
				animrt_clip_sample(clip, t, ANIMRT_PLAY_REPEAT, NULL, &b);
				worst = fmax(worst, pose_diff(&a, &b, clip->sequence_count, &past));
				animrt_clip_sample_with(clip, t, ANIMRT_PLAY_REPEAT, ctx, &b);
				worst = fmax(worst, pose_diff(&a, &b, clip->sequence_count, &past));
			}
			free(ma);
			free(mb);
			free(mc);
			if (rt_is_v3(clip) && clip->sequence_count && !v3_compare(clip, &worst))
				return 1;
			animrt_close(clip);
		}
	}
	printf("check_simd (%s): %d files, in place and decoded, with and without a context: worst difference "
	       "%g, %lu past 1e-5\n", animrt_rt_simd_name(), argc - 1, worst, past);
	printf("check_simd (%s): reader version 3 in place, four wide and as dispatched against the plain C "
	       "reference: %lu poses, %lu differ in a bit\n", animrt_rt_simd_name(), v3_poses, v3_differ);
	return past != 0 || v3_differ != 0;
}
