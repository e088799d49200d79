/*
 * load.c - the README's first program: load a compiled clip with the
 * runtime library and say what it holds.  `make test` builds and runs it on
 * testdata/loader/crane-turn.xnb; scripts/check-install builds it from an
 * installed tree:
 *
 *     cc load.c $(pkg-config --cflags --libs animrt) -o load
 *     ./load out/Walk.xnb
 */
#include <stdio.h>

#include <animc/animrt.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "out/Walk.xnb";

	animrt_clip *clip;
	animrt_error err;
	if (animrt_open_file(path, &clip, &err) != ANIMRT_OK) {
		fprintf(stderr, "%s: %s\n", path, err.message);   /* "byte 6: ...": where it is wrong */
		return 1;
	}
	printf("%s: %u sequences, %g s\n", path, clip->sequence_count, (double)clip->duration_s);
	animrt_close(clip);
	return 0;
}
