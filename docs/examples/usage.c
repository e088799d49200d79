/*
 * usage.c - the usage example at the top of animrt.h as a whole program:
 * load a compiled clip from memory, list its sequences, sample a pose, then
 * play it on an engine's skeleton through a binding and a player (a
 * crossfade in, then an additive layer).  `make test` builds and runs it on
 * testdata/loader/crane-turn.xnb; scripts/check-install builds it from an
 * installed tree:
 *
 *     cc usage.c $(pkg-config --cflags --libs animrt) -o usage
 *     ./usage out/Turn.xnb
 *
 * It prints each sequence, the pose at 0.25 s (one line per bone: the bone,
 * translation x y z, rotation x y z w, scale x y z) and the skeleton's pose
 * after one second of frames.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <animc/animrt.h>

/* The engine's skeleton: its bone names, in its own order.  The crane of
 * testdata/sample has Base and Cab; Jib and Hook are bones no clip of it
 * animates (the pose gives them identity). */
static const char *const bone_names[] = { "Base", "Cab", "Jib", "Hook" };
static const uint32_t bone_count = sizeof bone_names / sizeof bone_names[0];

static void warn(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	fprintf(stderr, "usage: warning: ");
	vfprintf(stderr, format, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

/* The whole file, malloc()ed; NULL when it cannot be read. */
static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)n + 1)) != NULL && fread(data, 1, (size_t)n, f) == (size_t)n) {
		*size = (size_t)n;
	} else {
		free(data);
		data = NULL;
	}
	fclose(f);
	return data;
}

static void print_pose(const char *title, const char *const *names, const animrt_pose *pose)
{
	printf("%s\n", title);
	for (uint32_t i = 0; i < pose->bone_count; i++) {
		const float *t = pose->translation + 3 * (size_t)i, *r = pose->rotation + 4 * (size_t)i;
		const float *s = pose->scale + 3 * (size_t)i;

		printf("  %s %.9g %.9g %.9g  %.9g %.9g %.9g %.9g  %.9g %.9g %.9g\n", names[i], t[0], t[1], t[2],
		       r[0], r[1], r[2], r[3], s[0], s[1], s[2]);
	}
}

static int run(const void *bytes, size_t size)
{
	animrt_clip *clip;
	animrt_error err;
	if (animrt_open(bytes, size, &clip, &err) != ANIMRT_OK) {
		fprintf(stderr, "%s\n", err.message);   // names the byte offset
		return 1;
	}
	for (uint32_t i = 0; i < clip->sequence_count; i++)   // either layout
		printf("sequence %u: %s\n", i, animrt_clip_bone_name(clip, i, NULL));

	// The pose at 0.25 s, one bone per sequence, in the file's order.
	animrt_pose pose;
	void *memory = malloc(animrt_pose_size_bytes(clip->sequence_count));
	uint32_t *cursors = calloc(clip->sequence_count, sizeof *cursors);   // or NULL
	const char **names = calloc(clip->sequence_count, sizeof *names);
	if (!memory || !cursors || !names) {
		fprintf(stderr, "out of memory\n");
		free(names);
		free(cursors);
		free(memory);
		animrt_close(clip);
		return 1;
	}
	animrt_pose_init(&pose, memory, clip->sequence_count);
	animrt_clip_sample(clip, 0.25f, ANIMRT_PLAY_REPEAT, cursors, &pose);
	// pose.translation[3 * i ...], pose.rotation[4 * i ...], pose.scale[3 * i ...]
	for (uint32_t i = 0; i < clip->sequence_count; i++)
		names[i] = animrt_clip_bone_name(clip, i, NULL);
	print_pose("pose at 0.25 s:", names, &pose);

	// An engine's skeleton: bind once (no string work after this), then
	// play, crossfade and sample every frame without allocating.
	animrt_binding *walk;
	if (animrt_binding_create(clip, bone_names, bone_count, &walk, &err) != ANIMRT_OK) {
		fprintf(stderr, "%s\n", err.message);
		free(names);
		free(cursors);
		free(memory);
		animrt_close(clip);
		return 1;
	}
	for (uint32_t i = 0; i < walk->unmatched_count; i++)
		warn("no bone '%s'", animrt_clip_bone_name(clip, walk->unmatched[i], NULL));
	animrt_pose skeleton_pose;
	void *skeleton_memory = malloc(animrt_pose_size_bytes(bone_count));
	// Two more poses carved from one block: each size is a multiple of 16,
	// so the second starts aligned.
	size_t pose_bytes = animrt_pose_size_bytes(bone_count);
	char *layer_memory = malloc(2 * pose_bytes);
	animrt_pose layer, reference;
	animrt_player *player;
	if (!skeleton_memory || !layer_memory || animrt_player_create(bone_count, &player, &err) != ANIMRT_OK) {
		fprintf(stderr, "out of memory\n");
		free(layer_memory);
		free(skeleton_memory);
		animrt_binding_destroy(walk);
		free(names);
		free(cursors);
		free(memory);
		animrt_close(clip);
		return 1;
	}
	animrt_pose_init(&skeleton_pose, skeleton_memory, bone_count);
	animrt_pose_init(&layer, layer_memory, bone_count);
	animrt_pose_init(&reference, layer_memory + pose_bytes, bone_count);
	animrt_player_play(player, walk, ANIMRT_PLAY_REPEAT, 0.3f);  // 0.3 s crossfade
	const float dt_s = 1.0f / 60;
	for (int frame = 0; frame < 60; frame++) {   // every frame:
		animrt_player_advance(player, dt_s);
		animrt_player_sample(player, &skeleton_pose);
	}
	print_pose("skeleton after 60 frames:", bone_names, &skeleton_pose);
	// An additive layer: the clip's change from 0 s to 0.5 s, at half weight.
	animrt_binding_sample(walk, 0.5f, ANIMRT_PLAY_ONCE, NULL, &layer);
	animrt_binding_sample(walk, 0.0f, ANIMRT_PLAY_ONCE, NULL, &reference);
	animrt_pose_add(&skeleton_pose, &layer, &reference, 0.5f, &skeleton_pose);
	print_pose("with the layer:", bone_names, &skeleton_pose);
	animrt_player_destroy(player);
	animrt_binding_destroy(walk);
	free(layer_memory);      // two poses, one block: one free
	free(skeleton_memory);
	free(names);
	free(cursors);
	free(memory);            // the pose's memory is the caller's, as it was given
	animrt_close(clip);
	return 0;
}

int main(int argc, char **argv)
{
	size_t size = 0;
	void *bytes;
	int status;

	if (argc != 2) {
		fprintf(stderr, "usage: usage FILE.xnb\n");
		return 2;
	}
	bytes = read_file(argv[1], &size);
	if (!bytes) {
		perror(argv[1]);
		return 1;
	}
	status = run(bytes, size);
	free(bytes);   // may be freed as soon as animrt_open returns
	return status;
}
