/*
 * fuzz_manifest.c - libFuzzer target for the build manifest reader
 * (OUTDIR/.animc/manifest is read back by every build, and a damaged one
 * must mean a full build, never a crash or a wrong skip).  Beyond "no
 * crash": a manifest that loads writes back to bytes that load to the same
 * manifest, written back the same.  Built as a plain function for
 * `make test`, which replays the seeds in testdata/fuzz/manifest.
 */
#include <stdlib.h>
#include <string.h>

#include "manifest.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	manifest m, again;
	cli_error err;
	char *text, *text2;
	size_t text_size, text2_size;

	if (manifest_parse(&m, (const char *)data, size, &err) != MANIFEST_LOADED)
		return 0;
	if (!manifest_format(&m, &text, &text_size)) {
		manifest_release(&m);
		return 0;
	}
	if (manifest_parse(&again, text, text_size, &err) != MANIFEST_LOADED ||
	    again.count != m.count || again.orphan_count != m.orphan_count)
		abort();
	if (!manifest_format(&again, &text2, &text2_size) || text2_size != text_size ||
	    memcmp(text, text2, text_size) != 0)
		abort();
	free(text2);
	free(text);
	manifest_release(&again);
	manifest_release(&m);
	return 0;
}
