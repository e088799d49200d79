/*
 * fuzz_assimp.c - libFuzzer target for the Assimp importer, fed from
 * memory.  Assimp picks its reader by the extension hint first, so the hint
 * comes from the input: its first byte (the seeds' own magic maps to their
 * own format; any other byte picks one of the animation formats).  Beyond
 * "no crash": whatever imports and processes must write a file the loader
 * accepts.  Built as a plain function for `make test`, which replays the
 * seeds in testdata/fuzz/assimp and the files in testdata/assimp.
 *
 * With ANIMC_FUZZ_IMPORT_ONLY set in the environment it stops after
 * Assimp's own import: scripts/fuzz-run replays a finding that way to tell
 * a failure inside Assimp from one in animc's conversion.
 */
#include <stdlib.h>

#include <assimp/cimport.h>

#include "assimp_internal.h"
#include "fbx_doc.h"
#include "b3d.h"
#include "csm.h"
#include "lws.h"
#include "md5anim.h"
#include "smd.h"
#include "fuzz_check.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static const char *format_hint(const uint8_t *data, size_t size)
{
	static const char *const formats[] = {
		"x", "fbx", "bvh", "gltf", "glb", "dae", "smd", "md5anim", "ms3d", "b3d",
	};

	if (size == 0)
		return "x";
	switch (data[0]) {
	case 'x': return "x";
	case 'K': case ';': return "fbx";
	case 'H': return "bvh";
	case '{': return "gltf";
	case 'g': return "glb";
	case '<': return "dae";
	case 'v': return "smd";
	case 'M': return size > 1 && data[1] == 'D' ? "md5anim" : "ms3d";
	case 'B': return "b3d";
	default: return formats[data[0] % (sizeof formats / sizeof formats[0])];
	}
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	const char *format = format_hint(data, size);
	animc_diag_sink sink = { 0 };
	animc_clip_set set = { 0 };
	const struct aiScene *scene;

	(void)animc_importer_assimp.probe(NULL, data, size < ANIMC_PROBE_HEAD_BYTES ? size :
							ANIMC_PROBE_HEAD_BYTES);
	/* The importer's own FBX reader, on any bytes. */
	fbx_doc doc;
	if (animc_fbx_doc_read(data, size, &doc)) {
		for (uint32_t i = 0; i < doc.curve_count; i++) {
			double value;

			(void)animc_fbx_curve_value(&doc.curves[i], 0, -1e300, 1e300, true, &value);
		}
	}
	animc_fbx_doc_release(&doc);
	/* Its own SMD, .md5anim, .md5camera, .csm, .b3d and .lws checks, on any bytes. */
	(void)animc_smd_check(data, size, &sink);
	(void)animc_md5anim_check(data, size, &sink);
	(void)animc_md5camera_check(data, size, &sink);
	(void)animc_csm_check(data, size, &sink);
	(void)animc_b3d_check(data, size, &sink);
	animc_lws_say_stepped(data, size, &sink);
	(void)animc_lws_check_envelopes(data, size, &sink);
	scene = animc_assimp_scene_open(NULL, data, size, format, &sink);
	if (!scene)
		return 0;
	if (getenv("ANIMC_FUZZ_IMPORT_ONLY")) {
		aiReleaseImport(scene);
		return 0;
	}
	if (animc_assimp_scene_import(scene, format, NULL, &set, &sink) == ANIMC_OK) {
		animc_fuzz_check_set(&set, NULL, &sink);
	}
	aiReleaseImport(scene);
	animc_clip_set_release(&set);
	return 0;
}
