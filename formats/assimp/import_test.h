/*
 * import_test.h - what the tests of the Assimp importer's own readers
 * (smd.c, md5anim.c, ...) share: a file imported as `animc build` imports
 * it, its diagnostics kept, and the one error it must fail with.
 */
#ifndef ANIMC_FORMATS_ASSIMP_IMPORT_TEST_H
#define ANIMC_FORMATS_ASSIMP_IMPORT_TEST_H

#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "assimp_internal.h"

typedef struct assimp_import {
	animc_status status;
	animc_clip_set set;
	test_diags diags;
	animc_diag_sink sink;
} assimp_import;

/* Import the file at `path` (read into memory) as `animc build` does. */
static inline void assimp_import_path(assimp_import *r, const char *path, const animc_import_options *options)
{
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	animc_import_request req = { path, data, size, options };

	memset(r, 0, sizeof *r);
	r->diags.echo = getenv("ANIMC_TEST_ECHO") != NULL;
	r->sink = test_diag_sink(&r->diags, path);
	r->status = animc_importer_assimp.import(&req, &r->set, &r->sink);
	free(data);
}

static inline void assimp_import_release(assimp_import *r)
{
	animc_clip_set_release(&r->set);
	test_diags_release(&r->diags);
}

/* The import failed with one error, at `line`, holding `words`. */
static inline void assimp_assert_error_at(const assimp_import *r, uint32_t line, const char *words)
{
	const test_diag *d = test_diags_first(&r->diags, ANIMC_ERROR);

	assert_int_not_equal(r->status, ANIMC_OK);
	assert_non_null(d);
	if (d->line != line || !strstr(d->message, words))
		fail_msg("line %u: %s (expected line %u, '%s')", d->line, d->message, line, words);
	assert_int_equal(test_diags_count(&r->diags, ANIMC_ERROR), 1);
	assert_int_equal(r->set.count, 0);
}

#endif
