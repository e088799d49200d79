/*
 * fuzz_robotgame.c - libFuzzer target for the RobotGame importer, fed from
 * memory.  Beyond "no crash": whatever imports and processes must write a
 * file the loader accepts, in both modes.  Built as a plain function for
 * `make test`, which replays the seeds in testdata/fuzz/robotgame.
 */
#include <stdlib.h>

#include <animc/animc_formats.h>
#include "fuzz_check.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static void compile(const uint8_t *data, size_t size, bool exact)
{
	animc_import_request req = { "fuzz.Animation", data, size, NULL };
	animc_process_options options = { .exact = exact };
	animc_clip_set set = { 0 };
	animc_diag_sink sink = { 0 };

	if (animc_importer_robotgame.import(&req, &set, &sink) == ANIMC_OK) {
		animc_fuzz_check_set(&set, &options, &sink);
	}
	animc_clip_set_release(&set);
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	compile(data, size, false);
	compile(data, size, true);
	return 0;
}
