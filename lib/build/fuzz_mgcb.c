/*
 * fuzz_mgcb.c - libFuzzer target for the MonoGame project reader
 * (animc build --mgcb): any bytes, preprocessor lines included.  Beyond
 * "no crash": every item it accepts writes below the output folder, so
 * no destination is absolute or climbs out through "..".  Built as a
 * plain function for `make test`, which replays the seeds in
 * testdata/fuzz/mgcb and testdata/mgcb/Content.mgcb.  The reader's
 * errors go to /dev/null.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgcb.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static void check_below(const char *dest)
{
	if (dest[0] == '/')
		abort();
	for (const char *p = dest; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			abort();
		p += n;
		p += *p == '/';
	}
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	static const char *const defines[] = { "Platform=Android", "Extra" };
	static FILE *quiet;
	build_mgcb project;

	if (!quiet && !(quiet = fopen("/dev/null", "w")))
		abort();
	const build_mgcb_settings settings = { defines, 2, 'd', NULL };

	if (!build_mgcb_parse("content/Content.mgcb", data, size, &settings, quiet, &project))
		return 0;
	for (size_t i = 0; i < project.count; i++)
		if (!project.items[i].is_copy)
			check_below(project.items[i].dest);
	build_mgcb_release(&project);
	return 0;
}
