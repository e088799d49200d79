/* play.c - load a compiled clip with animc's runtime and sample it once:
 * play FILE.xnb prints its duration and bones; exit 1 when it cannot. */
#include <stdio.h>
#include <stdlib.h>

#include <animc/animrt.h>

int main(int argc, char **argv)
{
	animrt_clip *clip;
	animrt_error err;

	if (argc != 2) {
		fprintf(stderr, "usage: play FILE.xnb\n");
		return 2;
	}
	if (animrt_open_file(argv[1], &clip, &err) != ANIMRT_OK) {
		fprintf(stderr, "%s: %s\n", argv[1], err.message);
		return 1;
	}
	/* One bone, whatever the clip's layout (a compact clip in place has no
	 * clip->sequences). */
	float q[4];
	if (animrt_clip_sample_bone(clip, 0, clip->duration_s / 2, ANIMRT_PLAY_ONCE, NULL, NULL, q, NULL) != ANIMRT_OK) {
		fprintf(stderr, "%s: no bone to sample\n", argv[1]);
		animrt_close(clip);
		return 1;
	}
	printf("%s: %g s, %u bones, platform '%c'; '%s' at half time: rotation %.3f %.3f %.3f %.3f\n", argv[1],
	       clip->duration_s, clip->sequence_count, clip->container.platform, animrt_clip_bone_name(clip, 0, NULL),
	       q[0], q[1], q[2], q[3]);
	animrt_close(clip);
	return 0;
}
