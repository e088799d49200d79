/*
 * check_simd.c - the SIMD samplers against the scalar references, without
 * the test framework, for builds the suite cannot run (scripts/check-neon
 * cross-compiles it for AArch64 and runs it under qemu).
 *
 * usage: check_simd FILE.xnb...
 * Samples each file at 997 times in Repeat mode with animrt_clip_sample
 * (SIMD), without and with a context, and animrt_rt_clip_sample_reference
 * (scalar); compact files both in place and decoded at load.  Every
 * component must agree within 1e-5.  Prints the instruction set and the worst difference; exit 1
 * when one is past 1e-5 or a file does not load.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <animc/animrt.h>
#include "compact.h"
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
			animrt_close(clip);
		}
	}
	printf("check_simd (%s): %d files, in place and decoded, with and without a context: worst difference "
	       "%g, %lu past 1e-5\n", animrt_rt_simd_name(), argc - 1, worst, past);
	return past != 0;
}
