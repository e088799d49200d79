/*
 * xna_cli_test.c - the XNA IntermediateSerializer importer through the
 * command line: exact bytes against the independent oracle, the design
 * example against the Grund model (also relative to its rest pose), option
 * checks, and a failing clip that writes nothing of its source.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_support.h"
#include <animc/animc_formats.h>
#include <animc/animrt.h>
#include "xml/xml.h"
#include "xna/xna_fixtures.h"

/* The independent oracle writes the original pipeline's bytes for the twin;
 * --exact on the IntermediateSerializer document must give exactly those. */
static void sequence_exact_bytes_agree_with_the_oracle(void **state)
{
	static const char oracle[] = "../shared/conformance/xnb_oracle.py";
	char *out;

	(void)state;
	if (!test_file_exists(oracle)) {
		print_message("skipped: %s not found\n", oracle);
		skip();
	}
	out = test_tmpdir("xna-oracle");
	test_run r = test_animc("build", "-q", "--exact", "-o", out, "testdata/golden/xna-sequence.xml", NULL);
	char *xnb = test_format("%s/xna-sequence.xnb", out);

	assert_int_equal(r.status, 0);
	test_run o = test_exec("python3", oracle, "same-bytes", "testdata/golden/xna-sequence-twin.Animation",
			       xnb, NULL);
	if (o.status != 0)
		fail_msg("oracle: %s%s", o.out, o.err);
	test_run_release(&o);
	test_run_release(&r);
	free(xnb);
	free(out);
}

static void design_example_compiles_to_two_turns(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	char *src = test_format("%s/xna/AnimationData.Animation", test_corpus_dir());
	char *model = test_format("%s/models/Grund.glb", test_corpus_dir());
	animc_skeleton grund = { 0 };

	assert_int_equal(animc_skeleton_load(model, &grund, NULL), ANIMC_OK);
	for (int with_model = 0; with_model < 2; with_model++) {
		static const char *const clips[] = { "TurnBody", "TurnHead" };
		static const uint32_t bone_index[] = { 0, 2 };
		char *out = test_tmpdir(with_model ? "xna-design-grund" : "xna-design");
		test_run r = with_model ? test_animc("build", "-q", "--skeleton", model, "-o", out, src, NULL)
					: test_animc("build", "-q", "-o", out, src, NULL);

		if (r.status != 0)
			fail_msg("exit %d: %s", r.status, r.err);
		assert_int_equal(test_count_files(out), 2);
		for (int c = 0; c < 2; c++) {
			char *xnb = test_format("%s/AnimationData/%s.xnb", out, clips[c]);
			animrt_clip *clip;

			assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_OK);
			assert_int_equal(clip->sequence_count, 1);
			const animrt_sequence *s = &clip->sequences[0];
			/* The last key: 90 degrees about Y, at one second. */
			uint32_t last = s->rotation_count - 1;
			double at = s->has_time ? s->times_s[s->time_count - 1] : last * (double)s->key_interval_s;
			assert_true(at == 1.0);
			assert_int_equal(s->key_count, 2);
			test_assert_near(s->rotation[last * 4 + 0], 0, 1e-7);
			test_assert_near(s->rotation[last * 4 + 1], sqrt(0.5), 1e-7);
			test_assert_near(s->rotation[last * 4 + 2], 0, 1e-7);
			test_assert_near(s->rotation[last * 4 + 3], sqrt(0.5), 1e-7);
			if (with_model) {
				/* Bone N is the model's Nth node, depth-first, root first (trimmed). */
				const char *name = grund.bones[bone_index[c]].name;
				size_t n = strlen(name);

				name = animc_xs_trim(name, &n);
				assert_int_equal(strlen(s->bone), n);
				assert_memory_equal(s->bone, name, n);
			} else {
				char *want = test_format("Bone%u", bone_index[c]);

				assert_string_equal(s->bone, want);
				free(want);
			}
			animrt_close(clip);
			free(xnb);
		}
		test_run_release(&r);
		free(out);
	}
	animc_skeleton_release(&grund);
	free(model);
	free(src);
}

/* With --relative-to-bind, the design example's identity first keys become
 * the rest pose Assimp gives for those bones. */
static void design_example_relative_to_the_grund_rest_pose(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	char *src = test_format("%s/xna/AnimationData.Animation", test_corpus_dir());
	char *model = test_format("%s/models/Grund.glb", test_corpus_dir());
	char *out = test_tmpdir("xna-design-bind");
	animc_skeleton grund = { 0 };
	static const char *const clips[] = { "TurnBody", "TurnHead" };
	static const uint32_t bone_index[] = { 0, 2 };

	assert_int_equal(animc_skeleton_load(model, &grund, NULL), ANIMC_OK);
	test_run r = test_animc("build", "-q", "--skeleton", model, "--relative-to-bind", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	for (int c = 0; c < 2; c++) {
		char *xnb = test_format("%s/AnimationData/%s.xnb", out, clips[c]);
		const animc_bone *bone = &grund.bones[bone_index[c]];
		animrt_clip *clip;
		double dot = 0;

		assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_OK);
		const animrt_sequence *s = &clip->sequences[0];
		for (int i = 0; i < 3; i++) {
			test_assert_near(s->translation[i], bone->translation[i], 1e-5 * (1 + fabs(bone->translation[i])));
			test_assert_near(s->scale[i], bone->scale[i], 1e-5);
		}
		for (int i = 0; i < 4; i++)
			dot += (double)s->rotation[i] * bone->rotation[i];
		test_assert_near(fabs(dot), 1, 1e-5);
		animrt_close(clip);
		free(xnb);
	}
	test_run_release(&r);
	animc_skeleton_release(&grund);
	free(out);
	free(model);
	free(src);
}

static void relative_to_bind_needs_a_skeleton(void **state)
{
	char *out = test_tmpdir("xna-relative");

	(void)state;
	test_run r = test_animc("build", "--relative-to-bind", "-o", out, "testdata/golden/xna-multiline.xml", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	free(out);
}

static void a_failing_clip_writes_no_clip_of_its_source(void **state)
{
	static const char doc[] = AD_OPEN
		CLIP("Good/One", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		CLIP("Bad", "PT1S", KEY(-4, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	char *dir = test_tmpdir("xna-fail"), *out = test_tmpdir("xna-fail-out");
	char *src = test_format("%s/Clips.xml", dir);

	(void)state;
	assert_true(test_write_file(src, doc, strlen(doc)));
	test_run r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Clips.xml:9:"));
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	/* Fixed, both clips land in OUTDIR/<stem>/, names made safe. */
	char *fixed = strdup(doc);
	memcpy(strstr(fixed, "-4"), " 4", 2);
	assert_true(test_write_file(src, fixed, strlen(fixed)));
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	char *a = test_format("%s/Clips/Good_One.xnb", out), *b = test_format("%s/Clips/Bad.xnb", out);
	assert_true(test_file_exists(a) && test_file_exists(b));
	test_run_release(&r);
	free(a);
	free(b);
	free(fixed);
	free(src);
	free(dir);
	free(out);
}

/* ModelData whose model clip is root.Walk and whose root clip is Walk, valid
 * to XNA: the clash is of animc's naming (root.<Key>), so the document
 * builds, the model clip keeping its name whichever dictionary comes first,
 * with a clip-name-clash warning at the renamed clip's Key. */
static void a_root_clip_named_like_a_model_clip_is_renamed(void **state)
{
	static const char doc[] = XML
		"<XnaContent><Asset Type=\"CustomModelAnimation.ModelData\">\n"
		"<RootAnimationClips>\n" CLIP("Walk", "PT1S", MKEY(0, "PT0S", IDENTITY)) "</RootAnimationClips>\n"
		"<ModelAnimationClips>\n" CLIP("root.Walk", "PT2S", MKEY(0, "PT0S", IDENTITY)) "</ModelAnimationClips>\n"
		"<BindPose>" IDENTITY "</BindPose><InverseBindPose>" IDENTITY "</InverseBindPose>"
		"<SkeletonHierarchy>-1</SkeletonHierarchy>\n"
		"</Asset></XnaContent>\n";
	char *dir = test_tmpdir("xna-root-clash"), *out = test_tmpdir("xna-root-clash-out");
	char *src = test_format("%s/Model.xml", dir);
	static const struct { const char *file; float duration_s; } want[] = {
		{ "root.Walk", 2 }, { "root.Walk.1", 1 },
	};

	(void)state;
	assert_true(test_write_file(src, doc, strlen(doc)));
	test_run r = test_animc("build", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_non_null(strstr(r.err, "Model.xml:4:12: warning: 2 clips are named 'root.Walk'"));
	assert_non_null(strstr(r.err, "[clip-name-clash]"));
	assert_int_equal(test_count_files(out), 2);
	for (size_t i = 0; i < 2; i++) {
		char *xnb = test_format("%s/Model/%s.xnb", out, want[i].file);
		animrt_clip *clip;

		assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_OK);
		assert_true(clip->duration_s == want[i].duration_s);
		animrt_close(clip);
		free(xnb);
	}
	test_run_release(&r);
	free(src);
	free(dir);
	free(out);
}

/* A Content folder: fonts, game data and clip-split definitions are
 * XnaContent documents too; a folder build skips them (listing each with
 * its type under -v) and compiles the animation; named, each is an error. */
static void content_folder_builds_its_animation_and_skips_the_rest(void **state)
{
	static const char *const others[][2] = {
		{ "Fonts/Hud.spritefont", "'Microsoft.Xna.Framework.Content.Pipeline.Graphics.FontDescription'" },
		{ "Data/Castle.xml", "'RolePlayingGameData.Map'" },
		{ "Models/DudeClips.xml", "'SkinnedModelPipeline.AnimationDefinition'" },
	};
	char *out = test_tmpdir("content");
	test_run r = test_animc("build", "-v", "--allow", "numbered-bones", "-o", out, "testdata/content", NULL);

	(void)state;
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	/* Its bones are numbered, and no model is given: allowed, a note. */
	assert_string_equal(r.err, "testdata/content/Animations/Wave.xml:10: note: clip 'Wave': bones are given by "
			    "number and no --skeleton names them, so their sequences are named Bone<N> ('Bone0'), which "
			    "a game binding clips by bone name finds on no model: give --skeleton MODEL, the model the "
			    "clips animate [numbered-bones, allowed]\n");
	assert_non_null(strstr(r.out, "compiled 1 source (1 clip), 0 failed, 4 skipped, 0 warnings\n"));
	char *wave = test_format("%s/Animations/Wave/Wave.xnb", out);
	animrt_clip *clip;
	assert_int_equal(animrt_open_file(wave, &clip, NULL), ANIMRT_OK);
	assert_int_equal(clip->sequence_count, 1);
	animrt_close(clip);
	assert_int_equal(test_count_files(out), 1);
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		char *line = test_format("skipped testdata/content/%s (holds an XnaContent asset of type %s",
					 others[i][0], others[i][1]);

		if (!strstr(r.out, line))
			fail_msg("no '%s' in\n%s", line, r.out);
		free(line);
	}
	test_run_release(&r);

	/* Without -v: silent skips, still exit 0. */
	r = test_animc("build", "-o", out, "testdata/content", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "skipped testdata"));
	test_run_release(&r);

	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		char *src = test_format("testdata/content/%s", others[i][0]);

		r = test_animc("build", "-o", out, src, NULL);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, src));
		assert_non_null(strstr(r.err, ": error: holds an XnaContent asset of type "));
		assert_non_null(strstr(r.err, others[i][1]));
		test_run_release(&r);
		free(src);
	}
	assert_int_equal(test_count_files(out), 1);
	free(wave);
	free(out);
}

/* Each document saved in UTF-16 or UTF-32 (`width` 16 or 32; little-endian
 * with a byte-order mark, big-endian with and without one) compiles to the
 * UTF-8 document's bytes, named and in a folder (mirrored under out/). */
static void wide_documents_compile_as_their_utf8_twins(int width)
{
	static const struct { const char *source, *clip, *name; } docs[] = {
		{ "testdata/golden/xna-sequence.xml", ".xnb", ".xml" },
		{ "testdata/golden/xna-sequence.xml", ".xnb", ".Animation" },
		{ "testdata/golden/xna-multiline.xml", "/Wave.xnb", ".xml" },
		{ "testdata/golden/constant.Animation", ".xnb", ".xml" },
	};
	char *dir = test_tmpdir(width == 16 ? "xna-utf16" : "xna-utf32");

	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		char *twin = test_format("%s/twin%zu", dir, i), *want;
		test_run r = test_animc("build", "-q", "-o", twin, docs[i].source, NULL);
		size_t size;
		uint8_t *text = test_read_file(docs[i].source, &size);
		const char *base = strrchr(docs[i].source, '/') + 1;
		char *name = test_format("u%d%s", width, docs[i].name), *clip = test_format("u%d%s", width, docs[i].clip);

		assert_int_equal(r.status, 0);
		test_run_release(&r);
		want = test_format("%s/%.*s%s", twin, (int)(strcspn(base, ".")), base, docs[i].clip);
		assert_true(test_file_exists(want));
		for (int form = 0; form < 3; form++) {
			size_t wide_size;
			uint8_t *wide = width == 16 ? test_utf16((const char *)text, size, form == 1, form < 2, &wide_size)
						    : test_utf32((const char *)text, size, form == 1, form < 2, &wide_size);
			char *src = test_format("%s/src%zu-%d", dir, i, form), *path = test_format("%s/%s", src, name);

			assert_int_equal(mkdir(src, 0755), 0);
			assert_true(test_write_file(path, wide, wide_size));
			for (int in_folder = 0; in_folder < 2; in_folder++) {
				char *out = test_format("%s/out%zu-%d-%d", dir, i, form, in_folder);
				char *got = test_format("%s/%s", out, clip);

				r = test_animc("build", "-q", "-o", out, in_folder ? src : path, NULL);
				if (r.status != 0 || !test_same_bytes(want, got))
					fail_msg("%s as %s, form %d%s: exit %d, %s: %s", docs[i].source, name, form,
						 in_folder ? " in a folder" : "", r.status,
						 test_file_exists(got) ? "not the UTF-8 document's bytes" : "not written", r.err);
				test_run_release(&r);
				free(got), free(out);
			}
			free(path), free(src), free(wide);
		}
		free(text), free(want), free(twin), free(name), free(clip);
	}
	free(dir);
}

/* Saved as "Unicode" (UTF-16 LE or BE, with a byte-order mark or, as libxml2
 * also reads it, without), an XnaContent document is still recognised by
 * its root, named .xml or .Animation, and a RobotGame one named .xml: each
 * compiles to the UTF-8 document's bytes. */
static void utf16_documents_compile_as_their_utf8_twins(void **state)
{
	(void)state;
	wide_documents_compile_as_their_utf8_twins(16);
}

/* Saved as UTF-32 (either byte order, with a byte-order mark or with '<'
 * first), which the XML reader reads: an XnaContent document was "no
 * importer recognises this file" named .xml and skipped without a word in a
 * folder (the content sniffer read UTF-16 alone), and named .Animation it
 * was refused by the RobotGame importer.  Each is recognised by its root
 * and compiles to the UTF-8 document's bytes, named or in a folder. */
static void utf32_documents_compile_as_their_utf8_twins(void **state)
{
	(void)state;
	wide_documents_compile_as_their_utf8_twins(32);
}

/* A licence comment longer than the first 4 KiB before the root: a folder
 * build skipped the document as no source (exit 0, nothing written), and a
 * .Animation holding an XnaContent document was refused by the RobotGame
 * importer.  Each compiles now to the bytes of the same document without
 * the comment. */
static void documents_after_a_long_licence_comment_compile(void **state)
{
	static const struct { const char *source, *name, *clip; } docs[] = {
		{ "testdata/golden/xna-sequence.xml", "a.xml", "a.xnb" },
		{ "testdata/golden/xna-sequence.xml", "b.Animation", "b.xnb" },
		{ "testdata/golden/constant.Animation", "c.xml", "c.xnb" },
	};
	char *dir = test_tmpdir("xna-licence"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);

	(void)state;
	assert_int_equal(mkdir(src, 0755), 0);
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		size_t size;
		char *text = (char *)test_read_file(docs[i].source, &size);
		size_t decl = (size_t)(strchr(text, '\n') + 1 - text);
		FILE *f;
		char *path = test_format("%s/%s", src, docs[i].name);

		f = fopen(path, "wb");
		assert_non_null(f);
		fwrite(text, 1, decl, f);
		fputs("<!--\n", f);
		for (int k = 0; k < 120; k++)
			fputs("  Copyright (c) Example Studio. Licensed under the Ms-PL; see LICENSE.txt.\n", f);
		fputs("-->\n", f);
		fwrite(text + decl, 1, size - decl, f);
		assert_int_equal(fclose(f), 0);
		free(path), free(text);
	}
	test_run r = test_animc("build", "-o", out, src, NULL);

	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_non_null(strstr(r.out, "compiled 3 sources (3 clips), 0 failed, 0 skipped"));
	test_run_release(&r);
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		char *twin = test_format("%s/twin%zu", dir, i), *want, *got = test_format("%s/%s", out, docs[i].clip);
		const char *base = strrchr(docs[i].source, '/') + 1;

		r = test_animc("build", "-q", "-o", twin, docs[i].source, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		want = test_format("%s/%.*s.xnb", twin, (int)strcspn(base, "."), base);
		if (!test_same_bytes(want, got))
			fail_msg("%s as %s: not the bytes of the document without the comment", docs[i].source,
				 docs[i].name);
		free(want), free(got), free(twin);
	}
	free(out), free(src), free(dir);
}

/* A file of the name and text of `path`, after `pad` bytes of a comment
 * (or of white space, when `is_space`) that keep its root past the probe
 * head. */
static void write_padded(const char *path, const char *text, size_t pad, bool is_space)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	if (!is_space)
		fputs("<?xml version=\"1.0\"?>\n<!--", f);
	for (size_t i = 0; i < pad; i++)
		fputc(is_space ? ' ' : 'x', f);
	if (!is_space)
		fputs("-->\n", f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* An .xml whose root lies past the probe head is read by its name: an
 * XnaContent document compiles, in a folder too.  One of another root (a
 * data file after a long licence comment, or after white space filling the
 * head) is, in a folder, a file of another kind, skipped as it is when its
 * root lies within the head: it failed the folder's build (exit 1), where
 * it had been skipped.  Named, it still fails, saying its root. */
static void another_xml_past_the_probe_head_is_skipped_in_a_folder(void **state)
{
	char *dir = test_tmpdir("xml-past-head"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *walk = test_format("%s/walk.xml", src), *data = test_format("%s/data.xml", src);
	char *blank = test_format("%s/blank.xml", src), *doc = (char *)test_read_file("testdata/golden/xna-sequence.xml", NULL);
	size_t pad = ANIMC_PROBE_HEAD_MAX_BYTES + 4096;
	test_run r;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(mkdir(src, 0755), 0);
	write_padded(walk, strchr(doc, '\n') + 1, pad, false);
	write_padded(data, "<config><a>1</a></config>\n", pad, false);
	write_padded(blank, "<config/>\n", 2 * ANIMC_PROBE_HEAD_BYTES, true);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "-o", out, src, NULL);
		if (r.status != 0 || r.err[0] ||
		    !strstr(r.out, run ? "compiled 0 sources (0 clips), 0 failed, 2 skipped, 0 warnings, 1 up to date\n"
				       : "compiled 1 source (1 clip), 0 failed, 2 skipped, 0 warnings\n"))
			fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
		test_run_release(&r);
	}
	r = test_animc("outputs", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-o", out, data, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "data.xml:3:") || !strstr(r.err, ": error: the root element is <config>, not <XnaContent>\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(doc), free(blank), free(data), free(walk), free(out), free(src), free(dir);
}

/* formats/xna/NOTES.md said --exact refuses an XNA document's keys out of
 * time order; the build sorts them, warns, and exits 0 (only RobotGame
 * sources are refused so).  The notes say what the build does. */
static void exact_mode_sorts_xna_keys_as_the_notes_say(void **state)
{
	char *out = test_tmpdir("xna-exact-sorts");
	char *notes = (char *)test_read_file("formats/xna/NOTES.md", NULL);
	test_run r = test_animc("build", "--exact", "-o", out, "testdata/golden/xna-shuffled.xml", NULL);

	(void)state;
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_non_null(strstr(r.err, "[keys-out-of-order]"));
	assert_null(strstr(notes, "refuses unsorted keys"));
	assert_non_null(strstr(notes, "`--exact`\n  sorts them too"));
	test_run_release(&r);
	free(notes), free(out);
}

/* Bones numbered without --skeleton to name them are named Bone<N>, which
 * a game binding by bone name finds on no model: a warning of its own kind
 * says so and names --skeleton, once per source; with --skeleton the
 * bones take the model's names, and nothing is said. */
static void numbered_bones_without_a_skeleton_are_warned_of(void **state)
{
	char *out = test_tmpdir("xna-numbered-bones");
	test_run r = test_animc("build", "-o", out, "testdata/sample/Crane/Signals.xml", NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "testdata/sample/Crane/Signals.xml:12: warning: clip 'Nod': bones are given by "
			    "number and no --skeleton names them, so their sequences are named Bone<N> ('Bone2'), which "
			    "a game binding clips by bone name finds on no model: give --skeleton MODEL, the model the "
			    "clips animate [numbered-bones]\n");
	assert_non_null(strstr(r.out, ", 1 warning\n"));
	test_run_release(&r);
	r = test_animc("build", "--skeleton", "testdata/sample/Crane/Crane.x", "-o", out,
		       "testdata/sample/Crane/Signals.xml", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, ", 0 warnings\n"));
	test_run_release(&r);
	free(out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(sequence_exact_bytes_agree_with_the_oracle),
	cmocka_unit_test(design_example_compiles_to_two_turns),
	cmocka_unit_test(design_example_relative_to_the_grund_rest_pose),
	cmocka_unit_test(relative_to_bind_needs_a_skeleton),
	cmocka_unit_test(a_failing_clip_writes_no_clip_of_its_source),
	cmocka_unit_test(a_root_clip_named_like_a_model_clip_is_renamed),
	cmocka_unit_test(content_folder_builds_its_animation_and_skips_the_rest),
	cmocka_unit_test(utf16_documents_compile_as_their_utf8_twins),
	cmocka_unit_test(utf32_documents_compile_as_their_utf8_twins),
	cmocka_unit_test(documents_after_a_long_licence_comment_compile),
	cmocka_unit_test(another_xml_past_the_probe_head_is_skipped_in_a_folder),
	cmocka_unit_test(exact_mode_sorts_xna_keys_as_the_notes_say),
	cmocka_unit_test(numbered_bones_without_a_skeleton_are_warned_of),
};

ANIMC_TEST_GROUP(tests);
