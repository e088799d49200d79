/*
 * fuzz_gltf.c - libFuzzer target for the glTF importer, fed from memory
 * (external buffers are then refused): the document's animations imported
 * and its node tree read as a skeleton.  Beyond "no crash": a failed import
 * leaves no clip, and every clip that imports and processes must write a
 * file the loader accepts.  Built as a plain function for `make test`,
 * which replays the seeds in testdata/fuzz/gltf and the fixtures in
 * testdata/gltf.
 */
#include <stdlib.h>

#include "fuzz_check.h"
#include "gltf_internal.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	animc_import_request req = { NULL, data, size, NULL };
	animc_diag_sink sink = { 0 };
	animc_clip_set set = { 0 };
	animc_skeleton skeleton;
	gltf_doc doc;

	(void)animc_importer_gltf.probe("fuzz.gltf", data, size < ANIMC_PROBE_HEAD_BYTES ? size :
							    ANIMC_PROBE_HEAD_BYTES);
	if (animc_importer_gltf.import(&req, &set, &sink) == ANIMC_OK)
		animc_fuzz_check_set(&set, NULL, &sink);
	else if (set.count != 0)
		abort();   /* a failed import leaves nothing behind */
	animc_clip_set_release(&set);
	if (animc_gltf_doc_parse(&doc, NULL, data, size, &sink) == ANIMC_OK &&
	    animc_gltf_doc_skeleton(&doc, &skeleton) == ANIMC_OK) {
		for (uint32_t i = 0; i < skeleton.bone_count; i++)
			if (skeleton.bones[i].parent >= (int32_t)i || !skeleton.bones[i].name)
				abort();   /* pre-order: parents come first */
		animc_skeleton_release(&skeleton);
	}
	animc_gltf_doc_release(&doc);
	return 0;
}
