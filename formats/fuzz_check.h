/*
 * fuzz_check.h - what every importer fuzz target asks beyond "no crash":
 * each clip that imports and processes must serialise, and the loader must
 * accept what was written; a valid clip the passes could not make playable
 * is a finding too.  Header-only, for the fuzz targets alone.
 */
#ifndef ANIMC_FORMATS_FUZZ_CHECK_H
#define ANIMC_FORMATS_FUZZ_CHECK_H

#include <stdlib.h>

#include <animc/animrt.h>
#include <animc/animc_formats.h>

static inline void animc_fuzz_check_set(animc_clip_set *set, const animc_process_options *options,
					animc_diag_sink *sink)
{
	for (uint32_t i = 0; i < set->count; i++) {
		uint8_t *xnb;
		size_t xnb_size;
		animrt_clip *clip;

		animc_status status = animc_clip_process(set->clips[i], options, sink, NULL);

		if (status != ANIMC_OK) {
			animc_validate_options writable = { ANIMC_STAGE_WRITABLE, false };

			/* A valid clip the passes left unplayable: the repair failed.
			 * (Exact mode passes a RobotGame source through untouched;
			 * keys that differ by more than a float holds have no
			 * playable form, and the playable pass refuses them with
			 * ANIMC_ERR_LIMIT.) */
			if (!(options && options->exact && set->clips[i]->is_sequence_source) &&
			    status != ANIMC_ERR_LIMIT &&
			    animc_clip_validate(set->clips[i], &writable, NULL) == ANIMC_OK &&
			    animc_clip_check_playable(set->clips[i], ANIMC_ERROR, NULL) != ANIMC_OK)
				abort();
			continue;
		}
		if (animc_xnb_write(set->clips[i], NULL, &xnb, &xnb_size, sink) != ANIMC_OK)
			abort();   /* a processed clip always writes */
		if (animrt_open(xnb, xnb_size, &clip, NULL) != ANIMRT_OK)
			abort();   /* and the loader accepts what was written */
		animrt_close(clip);
		free(xnb);
	}
}

#endif
