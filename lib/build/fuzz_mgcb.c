/*
 * fuzz_mgcb.c - libFuzzer target for the MonoGame project reader
 * (animc build --mgcb): any bytes, preprocessor lines included, read as a
 * project in testdata/mgcb/include, whose response files (Anims.mgcb,
 * Sub/Deep.mgcb, Loop.mgcb, which includes itself) a /@: line reads
 * (run from the source tree, as make test and scripts/fuzz-run do).
 * Beyond "no crash": every item it accepts writes below the output folder,
 * so no destination is absolute or climbs out through ".."; every file it
 * read lies in the project's folder, and every item names one of them.
 * Built as a plain function for `make test`, which replays the seeds in
 * testdata/fuzz/mgcb and the projects in testdata/mgcb.  The reader's
 * errors go to /dev/null.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdbool.h>
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
	static const char folder[] = "testdata/mgcb/include/";

	if (!build_mgcb_parse("testdata/mgcb/include/Content.mgcb", data, size, &settings, quiet, &project))
		return 0;
	for (size_t i = 0; i < project.count; i++) {
		bool is_read = false;

		for (size_t f = 0; f < project.file_count; f++)
			is_read |= project.items[i].file == project.files[f];
		if (!is_read)
			abort();
		if (!project.items[i].is_copy)
			check_below(project.items[i].dest);
	}
	for (size_t f = 0; f < project.file_count; f++) {
		char *real = realpath(project.files[f], NULL), *root = realpath(folder, NULL);
		size_t n = root ? strlen(root) : 0;

		if (f && (!real || !root || strncmp(real, root, n) != 0 || real[n] != '/'))
			abort();
		free(real);
		free(root);
	}
	build_mgcb_release(&project);
	return 0;
}
