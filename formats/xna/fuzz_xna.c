/*
 * fuzz_xna.c - libFuzzer target for the XNA IntermediateSerializer importer,
 * fed from memory, once on its own and once with a small skeleton whose
 * rest transforms the keys are composed with.  Beyond "no crash": every
 * clip that imports and processes must write a file the loader accepts, in
 * both modes.  Built as a plain function for `make test`, which replays the
 * seeds in testdata/fuzz/xna.
 */
#include <stdlib.h>
#include <string.h>

#include <animc/animc_formats.h>
#include "fuzz_check.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

/* Four bones: identity, a translation, a turn about Y, a scale of 2. */
static animc_bone bones[4] = {
	{ "Root", -1, { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }, { 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } },
	{ "Spine", 0, { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1 }, { 0, 2, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } },
	{ "Head", 1, { 0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1 }, { 0, 1, 0 },
	  { 0, 0.70710678f, 0, 0.70710678f }, { 1, 1, 1 } },
	{ "Hand", 1, { 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1 }, { 1, 0, 0 }, { 0, 0, 0, 1 }, { 2, 2, 2 } },
};

static void compile(const uint8_t *data, size_t size, const animc_import_options *import, bool exact)
{
	animc_import_request req = { "fuzz.xml", data, size, import };
	animc_process_options options = { .exact = exact };
	animc_clip_set set = { 0 };
	animc_diag_sink sink = { 0 };

	if (animc_importer_xna.import(&req, &set, &sink) == ANIMC_OK) {
		animc_fuzz_check_set(&set, &options, &sink);
	} else if (set.count != 0) {
		abort();   /* a failed import leaves nothing behind */
	}
	animc_clip_set_release(&set);
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	animc_skeleton skeleton = { bones, 4, { 0 } };
	animc_import_options with_skeleton = { .skeleton = &skeleton, .relative_to_bind = true };

	compile(data, size, NULL, false);
	compile(data, size, NULL, true);
	compile(data, size, &with_skeleton, false);
	return 0;
}
