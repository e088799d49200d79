/*
 * ms3d_fps_test.c - a MilkShape 3D file's animation fps through the
 * Assimp importer (ms3d_fps.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "assimp_internal.h"

typedef struct bytes {
	uint8_t data[1024];
	size_t size;
} bytes;

static void put(bytes *b, const void *v, size_t n)
{
	assert_true(b->size + n <= sizeof b->data);
	memcpy(b->data + b->size, v, n);   /* the tests run little-endian, as MS3D is */
	b->size += n;
}

static void put_u8(bytes *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put_u16(bytes *b, uint16_t v)
{
	put(b, &v, 2);
}

static void put_f32(bytes *b, float v)
{
	put(b, &v, 4);
}

static void put_name(bytes *b, const char *name)
{
	char field[32] = { 0 };

	memcpy(field, name, strlen(name));
	put(b, field, sizeof field);
}

static void put_floats(bytes *b, float x, float y, float z)
{
	put_f32(b, x), put_f32(b, y), put_f32(b, z);
}

/* One triangle and one joint, "root", turned 90 degrees about Z and moved
 * 2 along X from 0 s to 1 s (MilkShape key times are seconds), at `fps`. */
static void ms3d_file(bytes *b, float fps)
{
	static const float corners[3][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } };
	int32_t version = 4, frames = 24;

	b->size = 0;
	put(b, "MS3D000000", 10), put(b, &version, 4);
	put_u16(b, 3);
	for (int v = 0; v < 3; v++) {
		put_u8(b, 0), put_floats(b, corners[v][0], corners[v][1], corners[v][2]);
		put_u8(b, 0), put_u8(b, 1);
	}
	put_u16(b, 1), put_u16(b, 0), put_u16(b, 0), put_u16(b, 1), put_u16(b, 2);
	for (int n = 0; n < 3; n++)
		put_floats(b, 0, 0, 1);
	put_floats(b, 0, 1, 0), put_floats(b, 0, 0, 1), put_u8(b, 1), put_u8(b, 0);
	put_u16(b, 1), put_u8(b, 0), put_name(b, "g"), put_u16(b, 1), put_u16(b, 0), put_u8(b, 0xFF);
	put_u16(b, 0);                                  /* materials */
	put_f32(b, fps), put_f32(b, 0), put(b, &frames, 4);
	put_u16(b, 1), put_u8(b, 8), put_name(b, "root"), put_name(b, "");
	put_floats(b, 0, 0, 0), put_floats(b, 0, 0, 0), put_u16(b, 2), put_u16(b, 2);
	put_f32(b, 0), put_floats(b, 0, 0, 0), put_f32(b, 1), put_floats(b, 0, 0, (float)(M_PI / 2));
	put_f32(b, 0), put_floats(b, 0, 0, 0), put_f32(b, 1), put_floats(b, 2, 0, 0);
}

/*
 * fps 0: Assimp multiplies each key's seconds by it, so every key lands at
 * 0; animc wrote one pose of 1/60 s, exit 0, with a warning of an assumed
 * rate that could not help.  The file fails, naming the fps.
 */
static void ms3d_of_fps_0_fails_naming_it(void **state)
{
	char *dir = test_tmpdir("ms3d"), *path = test_format("%s/slide.ms3d", dir);
	bytes b;

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, path);
		animc_clip_set set = { 0 };
		animc_import_request req = { path, b.data, 0, NULL };
		animc_status status;

		ms3d_file(&b, pass ? 24.0f : 0.0f);
		req.size = b.size;
		assert_true(test_write_file(path, b.data, b.size));
		status = animc_importer_assimp.import(&req, &set, &sink);
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
	}
	free(path), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(ms3d_of_fps_0_fails_naming_it),
};

ANIMC_TEST_GROUP(tests);
