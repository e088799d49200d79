/*
 * fuzz_xna.c - libFuzzer target for the XNA IntermediateSerializer importer,
 * fed from memory, once on its own and once with a small skeleton whose
 * rest transforms the keys are composed with.  Beyond "no crash": every
 * clip that imports and processes must write a file the loader accepts, in
 * both modes.  The same bytes are read as a clip-split AnimationDefinition
 * too, and a document that reads splits a take of its name: every part
 * must pass validation and write.  The content probes (which transcode a
 * UTF-16 head) run on the bytes first.  Built as a plain function for
 * `make test`, which replays the seeds in testdata/fuzz/xna.
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

/* A take of 2 s, two bones keyed every 0.25 s, under the document's take name. */
static void split_by(const animc_split_doc *doc)
{
	animc_clip_set set = { 0 };
	animc_diag_sink sink = { 0 };
	animc_clip *take = animc_clip_create(doc->split.take);
	animc_process_options options = { 0 };

	if (!take)
		return;
	take->duration_s = 2;
	for (int b = 0; b < 2; b++) {
		int64_t c = animc_clip_add_channel(take, b ? "B" : "A", 1);
		animc_channel *ch;

		if (c < 0)
			break;
		ch = &take->channels[c];
		ch->key_count = 9;
		ch->key_interval_s = 0.25f;
		ch->duration_s = 2;
		ch->tracks[ANIMC_TRANSLATION].is_present = true;
		ch->tracks[ANIMC_TRANSLATION].value_count = 9;
		ch->tracks[ANIMC_TRANSLATION].values = animc_clip_alloc_values(take, ANIMC_TRANSLATION, 9);
		if (!ch->tracks[ANIMC_TRANSLATION].values)
			break;
		for (int i = 0; i < 27; i++)
			ch->tracks[ANIMC_TRANSLATION].values[i] = (float)(i * (b + 1)) * 0.1f;
	}
	if (animc_clip_set_add(&set, take) == ANIMC_OK &&
	    animc_clip_set_split(&set, &doc->split, 1, &sink) == ANIMC_OK)
		animc_fuzz_check_set(&set, &options, &sink);
	animc_clip_set_release(&set);
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	animc_split_doc doc;
	animc_diag_sink doc_sink = { 0 };

	animc_skeleton skeleton = { .bones = bones, .bone_count = 4 };
	animc_import_options with_skeleton = { .skeleton = &skeleton, .relative_to_bind = true };

	/* The sniffers read the raw bytes (UTF-16 transcoded) before any parser. */
	(void)animc_importer_xna.probe("fuzz.xml", data, size < ANIMC_PROBE_HEAD_BYTES ? size : ANIMC_PROBE_HEAD_BYTES);
	(void)animc_split_doc_probe(data, size);
	compile(data, size, NULL, false);
	compile(data, size, NULL, true);
	compile(data, size, &with_skeleton, false);
	if (animc_split_doc_parse("fuzz_Anims.xml", data, size, &doc, &doc_sink) == ANIMC_OK) {
		split_by(&doc);
		animc_split_doc_release(&doc);
	} else if (doc.parts || doc.split.part_count) {
		abort();   /* a failed read leaves nothing behind */
	}
	return 0;
}
