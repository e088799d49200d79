/*
 * fuzz_action.c - libFuzzer target for the action cache entry decoder, the
 * one place where bytes from a cache server or a shared folder are parsed.
 * Whatever decodes must name only safe output paths, and must encode and
 * decode again to the same entry.  Built as a plain function for `make
 * test`, which replays the seeds in testdata/fuzz/action.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static bool same(const cli_action *a, const cli_action *b)
{
	if (a->output_count != b->output_count || a->meta_size != b->meta_size ||
	    memcmp(a->meta, b->meta, a->meta_size) != 0)
		return false;
	for (size_t i = 0; i < a->output_count; i++)
		if (strcmp(a->outputs[i].path, b->outputs[i].path) != 0 ||
		    !cli_digest_equal(&a->outputs[i].digest, &b->outputs[i].digest))
			return false;
	return true;
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	cli_action a, b;
	uint8_t *again;
	size_t again_size;
	cli_error err;

	if (!cli_action_decode(data, size, &a, &err))
		return 0;
	for (size_t i = 0; i < a.output_count; i++)
		if (!cli_action_path_is_safe(a.outputs[i].path))
			abort();
	if (!cli_action_encode(&a, &again, &again_size))
		abort();
	if (!cli_action_decode(again, again_size, &b, &err) || !same(&a, &b))
		abort();
	free(again);
	cli_action_release(&a);
	cli_action_release(&b);
	return 0;
}
