/*
 * ms3d_test.c - MilkShape 3D files written here: position keys turned by
 * their joint's rest rotation, as MilkShape plays them, and the animation
 * fps Assimp multiplies key times by (ms3d.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "assimp_internal.h"

#define PI_2 1.57079632679489661923f

typedef struct ms3d_joint {
	const char *name, *parent;
	float rotation[3], position[3];
	float key[3];   /* its position key at 1 s (one at 0 s of 0 0 0) */
} ms3d_joint;

static void put(FILE *f, const void *p, size_t n)
{
	assert_int_equal(fwrite(p, 1, n, f), n);
}

static void put_u16(FILE *f, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	put(f, b, 2);
}

static void put_floats(FILE *f, const float *v, int n)
{
	put(f, v, (size_t)n * sizeof *v);   /* little-endian host */
}

static void put_name(FILE *f, const char *name)
{
	char buf[32] = "";

	strncpy(buf, name, sizeof buf - 1);
	put(f, buf, sizeof buf);
}

/* A file of one triangle in one group, no material, `fps`, and the
 * joints, each keyed to rotate by 0 at 0 s and 1 s. */
static char *ms3d_file(const ms3d_joint *joints, uint16_t count, float fps, size_t *size)
{
	static const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 }, normals[9] = { 0, 0, 1, 0, 0, 1, 0, 0, 1 };
	static const float uv[6] = { 0, 1, 0, 0, 0, 1 };
	const float anim[2] = { fps, 0 };
	static const int32_t version = 4, frames = 24;
	char *text = NULL;
	FILE *f = open_memstream(&text, size);

	assert_non_null(f);
	put(f, "MS3D000000", 10);
	put(f, &version, 4);
	put_u16(f, 3);
	for (int v = 0; v < 3; v++) {
		put(f, "\0", 1);
		put_floats(f, &tri[3 * v], 3);
		put(f, "\0\1", 2);   /* bone 0, one reference */
	}
	put_u16(f, 1);
	put_u16(f, 0);
	for (uint16_t i = 0; i < 3; i++)
		put_u16(f, i);
	put_floats(f, normals, 9);
	put_floats(f, uv, 6);
	put(f, "\1\0", 2);
	put_u16(f, 1);
	put(f, "\0", 1);
	put_name(f, "g");
	put_u16(f, 1);
	put_u16(f, 0);
	put(f, "\xff", 1);
	put_u16(f, 0);
	put_floats(f, anim, 2);
	put(f, &frames, 4);
	put_u16(f, count);
	for (uint16_t j = 0; j < count; j++) {
		float key0[4] = { 0, 0, 0, 0 }, key1[4] = { 1, joints[j].key[0], joints[j].key[1], joints[j].key[2] };
		float rot1[4] = { 1, 0, 0, 0 };

		put(f, "\x08", 1);
		put_name(f, joints[j].name);
		put_name(f, joints[j].parent);
		put_floats(f, joints[j].rotation, 3);
		put_floats(f, joints[j].position, 3);
		put_u16(f, 2);
		put_u16(f, 2);
		put_floats(f, key0, 4);
		put_floats(f, rot1, 4);
		put_floats(f, key0, 4);
		put_floats(f, key1, 4);
	}
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Position key 1 (at 1 s) of `bone`, as imported. */
static void assert_key(const animc_clip *clip, const char *bone, float x, float y, float z)
{
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_track *t = &clip->channels[i].tracks[ANIMC_TRANSLATION];

		if (strcmp(clip->channels[i].bone, bone) != 0)
			continue;
		assert_true(t->is_present && t->value_count >= 2);
		assert_float_equal(t->times_s[t->value_count - 1], 1.0f, 1e-6);
		assert_float_equal(t->values[3 * (t->value_count - 1)], x, 1e-5);
		assert_float_equal(t->values[3 * (t->value_count - 1) + 1], y, 1e-5);
		assert_float_equal(t->values[3 * (t->value_count - 1) + 2], z, 1e-5);
		return;
	}
	fail_msg("no bone '%s'", bone);
}

/* MilkShape's msModel::EvaluateJoint plays a joint's local transform as
 * its rest transform times the key's: a position key moves it along its
 * own turned axes.  Assimp gave rest + key (arm at 1 5 0). */
static void position_keys_turn_with_the_joint_rest_rotation(void **state)
{
	static const ms3d_joint joints[] = {
		{ "root", "", { 0, 0, 0 }, { 0, 0, 0 }, { 2, 0, 0 } },
		{ "arm", "root", { 0, 0, PI_2 }, { 0, 5, 0 }, { 1, 0, 0 } },
		/* Rz * Ry * Rx: X first, (0 0 1) to (0 -1 0), then Z to (1 0 0). */
		{ "hand", "arm", { PI_2, 0, PI_2 }, { 1, 0, 0 }, { 0, 0, 1 } },
	};
	size_t size;
	char *data = ms3d_file(joints, 3, 24, &size);
	animc_import_request req = { NULL, (const uint8_t *)data, size, NULL };
	animc_clip_set set = { 0 };
	test_diags diags = { .echo = getenv("ANIMC_TEST_ECHO") != NULL };
	animc_diag_sink sink = test_diag_sink(&diags, "arm.ms3d");

	(void)state;
	assert_int_equal(animc_importer_assimp.import(&req, &set, &sink), ANIMC_OK);
	assert_int_equal(set.count, 1);
	/* Unnamed, as the file holds no name (Assimp's "<MS3DMasterAnim>"
	 * made the output _MS3DMasterAnim_.xnb), so written as clip0.xnb. */
	assert_string_equal(set.clips[0]->name, "");
	assert_key(set.clips[0], "root", 2, 0, 0);
	assert_key(set.clips[0], "arm", 0, 6, 0);
	assert_key(set.clips[0], "hand", 2, 0, 0);
	animc_clip_set_release(&set);
	test_diags_release(&diags);
	free(data);
}

/*
 * fps 0: Assimp multiplies each key's seconds by it, so every key lands at
 * 0; animc wrote one pose of 1/60 s, exit 0, with a warning of an assumed
 * rate that could not help.  The file fails, naming the fps.
 */
static void ms3d_of_fps_0_fails_naming_it(void **state)
{
	static const ms3d_joint root[] = { { "root", "", { 0, 0, 0 }, { 0, 0, 0 }, { 2, 0, 0 } } };

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		size_t size;
		char *data = ms3d_file(root, 1, pass ? 24.0f : 0.0f, &size);
		animc_import_request req = { NULL, (const uint8_t *)data, size, NULL };
		test_diags diags = { .echo = getenv("ANIMC_TEST_ECHO") != NULL };
		animc_diag_sink sink = test_diag_sink(&diags, "slide.ms3d");
		animc_clip_set set = { 0 };
		animc_status status = animc_importer_assimp.import(&req, &set, &sink);

		if (pass == 0) {
			assert_int_not_equal(status, ANIMC_OK);
			assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), 1);
			assert_non_null(strstr(test_diags_first(&diags, ANIMC_ERROR)->message, "fps is 0"));
			assert_int_equal(set.count, 0);
		} else {
			/* At 24 fps the keys are 1 s apart. */
			assert_int_equal(status, ANIMC_OK);
			assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), 0);
			assert_true(fabsf(set.clips[0]->duration_s - 1.0f) < 1e-6f);
		}
		animc_clip_set_release(&set);
		test_diags_release(&diags);
		free(data);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(position_keys_turn_with_the_joint_rest_rotation),
	cmocka_unit_test(ms3d_of_fps_0_fails_naming_it),
};

ANIMC_TEST_GROUP(tests);
