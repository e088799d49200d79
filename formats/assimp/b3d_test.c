/*
 * b3d_test.c - Blitz3D files written here, through the Assimp importer:
 * keys a node gives in more than one KEYS chunk (b3d.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

/* A growing file: chunks are written header first, their length set when
 * they end. */
typedef struct b3d_writer {
	uint8_t bytes[1024];
	size_t size;
	size_t open[8];   /* the length fields of the chunks under way */
	unsigned depth;
} b3d_writer;

static void put(b3d_writer *w, const void *p, size_t n)
{
	assert_true(w->size + n <= sizeof w->bytes);
	memcpy(w->bytes + w->size, p, n);
	w->size += n;
}

static void put_i32(b3d_writer *w, int32_t v)
{
	put(w, &v, 4);   /* little-endian host */
}

static void put_floats(b3d_writer *w, const float *v, size_t n)
{
	put(w, v, n * sizeof *v);
}

static void begin(b3d_writer *w, const char *tag)
{
	put(w, tag, 4);
	w->open[w->depth++] = w->size;
	put_i32(w, 0);
}

static void end(b3d_writer *w)
{
	size_t at = w->open[--w->depth];
	int32_t length = (int32_t)(w->size - at - 4);

	memcpy(w->bytes + at, &length, 4);
}

/* A NODE named `name` at (0 y 0), unscaled, unturned; left open. */
static void begin_node(b3d_writer *w, const char *name, float y)
{
	const float transform[10] = { 0, y, 0, 1, 1, 1, 1, 0, 0, 0 };

	begin(w, "NODE");
	put(w, name, strlen(name) + 1);
	put_floats(w, transform, 10);
}

/* One triangle, which Assimp's reader needs. */
static void put_mesh(b3d_writer *w)
{
	static const float vertices[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	static const int32_t triangle[3] = { 0, 1, 2 };

	begin(w, "MESH");
	put_i32(w, -1);
	begin(w, "VRTS");
	put_i32(w, 0), put_i32(w, 0), put_i32(w, 0);
	put_floats(w, vertices, 9);
	end(w);
	begin(w, "TRIS");
	put_i32(w, -1);
	put(w, triangle, sizeof triangle);
	end(w);
	end(w);
}

/* A KEYS chunk of position keys (flags 1): `count` keys, frame and x. */
static void put_position_keys(b3d_writer *w, const int32_t *frames, const float *x, size_t count)
{
	begin(w, "KEYS");
	put_i32(w, 1);
	for (size_t k = 0; k < count; k++) {
		const float position[3] = { x[k], 1, 0 };

		put_i32(w, frames[k]);
		put_floats(w, position, 3);
	}
	end(w);
}

/* Root (its mesh and a 10-frame ANIM at 10 fps) and its child Arm, whose
 * position keys come in one chunk (frames 1, 5, 10) or in two (1 and 5,
 * then 10); written to a file of its own. */
static char *arm_file(bool split)
{
	static const int32_t frames[3] = { 1, 5, 10 };
	static const float x[3] = { 0, 2, 4 };
	char *dir = test_tmpdir("b3d"), *path = test_format("%s/arm.b3d", dir);
	b3d_writer w = { .size = 0 };

	begin(&w, "BB3D");
	put_i32(&w, 1);
	begin_node(&w, "Root", 0);
	put_mesh(&w);
	begin(&w, "ANIM");
	put_i32(&w, 0), put_i32(&w, 10);
	put_floats(&w, (const float[]){ 10 }, 1);
	end(&w);
	begin_node(&w, "Arm", 1);
	put_position_keys(&w, frames, x, split ? 2 : 3);
	if (split)
		put_position_keys(&w, frames + 2, x + 2, 1);
	end(&w);
	end(&w);
	end(&w);
	assert_true(test_write_file(path, w.bytes, w.size));
	free(dir);
	return path;
}

/*
 * A node's position keys in two KEYS chunks (frames 1 and 5, then 10), as
 * the format allows and Irrlicht's reader adds up: Assimp 5.2 set the
 * node's keys to each chunk's own, so Arm stood at the last chunk's one
 * key for the whole clip, exit 0.  The source fails naming the node, the
 * type and both chunks; the same keys in one chunk compile.
 */
static void b3d_keys_in_two_chunks_fail(void **state)
{
	char *path = arm_file(true);
	const test_diag *d;
	assimp_import r;

	(void)state;
	assimp_import_path(&r, path, NULL);
	assert_int_not_equal(r.status, ANIMC_OK);
	d = test_diags_first(&r.diags, ANIMC_ERROR);
	assert_non_null(d);
	if (!strstr(d->message, "node 'Arm' holds position keys in two KEYS chunks (at bytes "))
		fail_msg("%s", d->message);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
	assert_int_equal(r.set.count, 0);
	assimp_import_release(&r);
	free(path);

	path = arm_file(false);
	assimp_import_path(&r, path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	assimp_import_release(&r);
	free(path);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(b3d_keys_in_two_chunks_fail),
};

ANIMC_TEST_GROUP(tests);
