/*
 * fuzz_loader.c - libFuzzer target for the loader.  Whatever it accepts is
 * read in full (every list, every name), so a view pointing outside its
 * allocation shows up under the sanitizers.  Built as a plain function for
 * `make test`, which replays the seeds in testdata/fuzz/loader.
 */
#include <string.h>

#include "animrt.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static volatile float sink;

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	animrt_clip *clip;
	animrt_error err;
	float sum = 0;

	if (animrt_open(data, size, &clip, &err) != ANIMRT_OK)
		return 0;
	sum += clip->duration_s + (float)strlen(clip->container.reader);
	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		const animrt_sequence *s = &clip->sequences[i];

		sum += (float)strlen(s->bone);
		for (uint32_t k = 0; k < s->translation_count * 3; k++)
			sum += s->translation[k];
		for (uint32_t k = 0; k < s->rotation_count * 4; k++)
			sum += s->rotation[k];
		for (uint32_t k = 0; k < s->scale_count * 3; k++)
			sum += s->scale[k];
		for (uint32_t k = 0; k < s->time_count; k++)
			sum += s->times_s[k];
	}
	sink = sum;
	animrt_close(clip);
	return 0;
}
