/*
 * check_libc.c - proves the loader builds and works with the C library
 * alone: `make test` compiles the runtime (animrt*.c) without zstd, links
 * it with nothing but libc and libm, and loads the files given.  .xnb files
 * must load and sample to finite poses; .xnb.zst files must be refused as
 * unsupported by this build.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>

/* Sample at a few times in both modes; true when every value is finite. */
static bool samples_finite(const animrt_clip *clip)
{
	animrt_pose pose;
	void *mem = malloc(animrt_pose_size_bytes(clip->sequence_count) + 1);
	bool ok = mem != NULL;

	if (!ok)
		return false;
	animrt_pose_init(&pose, mem, clip->sequence_count);
	for (int i = 0; i <= 8 && ok; i++) {
		animrt_play_mode mode = i % 2 ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;

		ok = animrt_clip_sample(clip, clip->duration_s * (float)i / 4, mode, NULL, &pose) == ANIMRT_OK;
		for (uint32_t k = 0; ok && k < clip->sequence_count; k++)
			ok = isfinite(pose.translation[3 * k]) && isfinite(pose.translation[3 * k + 2]) &&
			     isfinite(pose.rotation[4 * k]) && isfinite(pose.rotation[4 * k + 3]) &&
			     isfinite(pose.scale[3 * k]) && isfinite(pose.scale[3 * k + 2]);
	}
	free(mem);
	return ok;
}

int main(int argc, char **argv)
{
	int failures = 0;

	if (animrt_has_zstd()) {
		fprintf(stderr, "check_libc: this build has zstd; it must not\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);
		int want_zstd = n > 8 && strcmp(argv[i] + n - 8, ".xnb.zst") == 0;
		animrt_status want = want_zstd ? ANIMRT_ERR_UNSUPPORTED : ANIMRT_OK;
		animrt_clip *clip;
		animrt_error err;
		animrt_status got = animrt_open_file(argv[i], &clip, &err);

		if (got != want) {
			fprintf(stderr, "check_libc: %s: got '%s' (%s), expected '%s'\n", argv[i],
				animrt_status_string(got), err.message, animrt_status_string(want));
			failures++;
		} else if (clip && !samples_finite(clip)) {
			fprintf(stderr, "check_libc: %s: a sampled pose is not finite\n", argv[i]);
			failures++;
		}
		animrt_close(clip);
	}
	if (argc < 3) {
		fprintf(stderr, "check_libc: give at least one .xnb and one .xnb.zst\n");
		return 1;
	}
	printf("loader with libc only: %d file%s checked, %d failed\n", argc - 1, argc == 2 ? "" : "s",
	       failures);
	return failures ? 1 : 0;
}
