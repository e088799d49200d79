/*
 * check_libc.c - proves the loader builds and works with the C library
 * alone: `make test` compiles animrt.c without zstd, links it with nothing
 * but libc and libm, and loads the files given.  .xnb files must load;
 * .xnb.zst files must be refused as unsupported by this build.
 */
#include <stdio.h>
#include <string.h>

#include "animrt.h"

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
