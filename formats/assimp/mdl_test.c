/*
 * mdl_test.c - Half-Life (GoldSrc) MDL models through the Assimp importer:
 * what Assimp's reader says wrongly and the importer mends (assimp_import.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

/* Offsets in the model hl1_model writes: its header, one bone, one
 * sequence group, one sequence, the sequence's frames (its bone's offsets
 * to the values of each of its six motions, then the X position values),
 * one texture of one pixel and its palette. */
enum {
	HL1_BONE = 256, HL1_GROUP = 368, HL1_SEQUENCE = 472, HL1_ANIM = 648, HL1_VALUES = 660,
	HL1_TEXTURE = 680, HL1_PIXELS = 760, HL1_SIZE = 760 + 1 + 768,
};

static void put_i32(uint8_t *at, int32_t v)
{
	memcpy(at, &v, 4);
}

static void put_f32(uint8_t *at, float v)
{
	memcpy(at, &v, 4);
}

/*
 * A Half-Life model (IDST, version 10) of one bone, "root", and one
 * sequence, "walk", of `frames` frames (at most 8) at `fps`: its root's X
 * position is the frame's number, the rest of the bone at its rest.
 * Written as `animc build` would find it, in a folder of its own; the
 * path, malloc()ed.
 */
static char *hl1_model(unsigned frames, float fps)
{
	uint8_t *m = calloc(1, HL1_SIZE);
	char *dir = test_tmpdir("mdl"), *path = test_format("%s/man.mdl", dir);
	static const int32_t header[] = {
		/* numbones ... numtransitions, transitionindex, from byte 140 */
		1, HL1_BONE, 0, 0, 0, 0, 1, HL1_SEQUENCE, 1, HL1_GROUP, 1, HL1_TEXTURE, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0,
	};

	assert_non_null(m);
	assert_true(frames <= 8);
	memcpy(m, "IDST", 4);
	put_i32(m + 4, 10);
	put_i32(m + 72, HL1_SIZE);
	for (size_t i = 0; i < sizeof header / sizeof header[0]; i++)
		put_i32(m + 140 + 4 * i, header[i]);
	/* The bone: no parent, no controllers, at the origin, scale 1. */
	memcpy(m + HL1_BONE, "root", 4);
	put_i32(m + HL1_BONE + 32, -1);
	for (int k = 0; k < 6; k++) {
		put_i32(m + HL1_BONE + 40 + 4 * k, -1);
		put_f32(m + HL1_BONE + 88 + 4 * k, 1.0f);
	}
	/* The group, its frames from byte 0 (the sequence's animindex). */
	memcpy(m + HL1_GROUP, "default", 7);
	/* The sequence: fps, its frames, one blend, its frames' offset. */
	memcpy(m + HL1_SEQUENCE, "walk", 4);
	put_f32(m + HL1_SEQUENCE + 32, fps);
	put_i32(m + HL1_SEQUENCE + 56, (int32_t)frames);
	put_i32(m + HL1_SEQUENCE + 120, 1);
	put_i32(m + HL1_SEQUENCE + 124, HL1_ANIM);
	/* X position values 12 bytes on, one run of `frames` values. */
	m[HL1_ANIM] = HL1_VALUES - HL1_ANIM;
	m[HL1_VALUES] = (uint8_t)frames;
	m[HL1_VALUES + 1] = (uint8_t)frames;
	for (unsigned f = 0; f < frames; f++) {
		int16_t v = (int16_t)f;

		memcpy(m + HL1_VALUES + 2 + 2 * f, &v, 2);
	}
	/* The texture: one pixel, then the palette. */
	memcpy(m + HL1_TEXTURE, "skin", 4);
	put_i32(m + HL1_TEXTURE + 68, 1);
	put_i32(m + HL1_TEXTURE + 72, 1);
	put_i32(m + HL1_TEXTURE + 76, HL1_PIXELS);
	assert_true(test_write_file(path, m, HL1_SIZE));
	free(m), free(dir);
	return path;
}

/*
 * Assimp 5.2 states a Half-Life sequence's duration as its fps times its
 * frames, in ticks of 1/fps s: "walk", 5 frames at 10 fps, lasted 5 s
 * where its keys end at 0.4 s (every sequence as many seconds long as its
 * frames, the last pose held the rest of the time).  The clip ends at its
 * last frame, as Half-Life plays it, its keys as the file gives them.
 */
static void hl1_sequence_lasts_its_frames_at_its_fps(void **state)
{
	char *path = hl1_model(5, 10.0f);
	assimp_import r;

	(void)state;
	assimp_import_path(&r, path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	assert_string_equal(r.set.clips[0]->name, "walk");
	if (fabsf(r.set.clips[0]->duration_s - 0.4f) > 1e-6f)
		fail_msg("walk lasts %g s", r.set.clips[0]->duration_s);
	{
		const animc_channel *c = &r.set.clips[0]->channels[0];
		const animc_track *t = &c->tracks[ANIMC_TRANSLATION];

		assert_int_equal(t->value_count, 5);
		for (uint32_t i = 0; i < 5; i++)
			assert_true(t->values[3 * i] == (float)i && fabsf(t->times_s[i] - 0.1f * (float)i) < 1e-6f);
	}
	assimp_import_release(&r);
	free(path);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(hl1_sequence_lasts_its_frames_at_its_fps),
};

ANIMC_TEST_GROUP(tests);
