/*
 * check_simd.c - the SIMD samplers against the scalar references, without
 * the test framework, for builds the suite cannot run (scripts/check-neon
 * cross-compiles it for AArch64 and runs it under qemu).
 *
 * usage: check_simd FILE.xnb...
 * Samples each file at 997 times in Repeat mode with animrt_clip_sample
 * (SIMD) and rt_clip_sample_reference (scalar); every component must agree
 * within 1e-5.  Prints the instruction set and the worst difference; exit 1
 * when one is past 1e-5 or a file does not load.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <animc/animrt.h>
#include "compact.h"
#include "sample.h"

int main(int argc, char **argv)
{
	unsigned long past = 0;
	double worst = 0;

	for (int f = 1; f < argc; f++) {
		animrt_clip *clip;
		animrt_error err;

		if (animrt_open_file(argv[f], &clip, &err) != ANIMRT_OK) {
			fprintf(stderr, "%s: %s\n", argv[f], err.message);
			return 1;
		}
		uint32_t n = clip->sequence_count ? clip->sequence_count : 1;
		void *ma = malloc(animrt_pose_size_bytes(n)), *mb = malloc(animrt_pose_size_bytes(n));
		animrt_pose a, b;

		if (!ma || !mb)
			return 1;
		animrt_pose_init(&a, ma, n);
		animrt_pose_init(&b, mb, n);
		for (int i = 0; i < 997; i++) {
			float t = clip->duration_s * (float)i / 991.0f;

			rt_clip_sample_reference(clip, t, ANIMRT_PLAY_REPEAT, NULL, &a);
			animrt_clip_sample(clip, t, ANIMRT_PLAY_REPEAT, NULL, &b);
			for (uint32_t k = 0; k < 4 * clip->sequence_count; k++) {
				double d = fabs((double)a.rotation[k] - b.rotation[k]);

				worst = fmax(worst, d);
				past += !(d <= 1e-5);
			}
			for (uint32_t k = 0; k < 3 * clip->sequence_count; k++) {
				double d = fmax(fabs((double)a.translation[k] - b.translation[k]),
						fabs((double)a.scale[k] - b.scale[k]));

				worst = fmax(worst, d);
				past += !(d <= 1e-5);
			}
		}
		free(ma);
		free(mb);
		animrt_close(clip);
	}
	printf("check_simd (%s): %d files, worst difference %g, %lu past 1e-5\n", rt_simd_name(), argc - 1, worst,
	       past);
	return past != 0;
}
