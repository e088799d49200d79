/*
 * gltf_cli_test.c - the glTF importer through the command line: a bad
 * animation beside good ones, every hostile document failing with no output,
 * rest values of tracks not animated, skins and --skeleton with a glTF
 * model, and edge cases (keys before 0, a pose, repeated names, morph
 * weights) written as clips the original runtime plays.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_support.h"
#include <animc/animrt.h>

#define FIXTURES "testdata/gltf"
#define HOSTILE FIXTURES "/hostile"

/* A glTF file (JSON, data in a base64 URI) with one bone and one clip per
 * entry: translation keys at `times` (seconds), or rotations (x y z w). */
typedef struct gltf_clip {
	const char *name;
	float times[2];
	float values[8];
	bool is_rotation;
} gltf_clip;

static void base64_append(char **out, size_t *n, const uint8_t *data, size_t size)
{
	static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < size; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < size ? (uint32_t)data[i + 1] << 8 : 0) |
			     (i + 2 < size ? data[i + 2] : 0);

		(*out)[(*n)++] = table[v >> 18 & 63];
		(*out)[(*n)++] = table[v >> 12 & 63];
		(*out)[(*n)++] = i + 1 < size ? table[v >> 6 & 63] : '=';
		(*out)[(*n)++] = i + 2 < size ? table[v & 63] : '=';
	}
}

static void write_gltf(const char *path, const gltf_clip *clips, size_t count)
{
	uint8_t bin[1024];
	char *json = malloc(16384), *b64 = malloc(2048);
	size_t used = 0, n = 0, b64_len = 0;

	assert_non_null(json);
	assert_non_null(b64);
	used += (size_t)snprintf(json + used, 16384 - used,
				 "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
				 "\"nodes\":[{\"name\":\"Arm\"}],\"bufferViews\":[");
	for (size_t i = 0; i < count; i++) {
		size_t values = clips[i].is_rotation ? 8 : 6;

		used += (size_t)snprintf(json + used, 16384 - used,
					 "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},"
					 "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}",
					 i ? "," : "", n, n + 8, values * 4);
		memcpy(bin + n, clips[i].times, 8);
		memcpy(bin + n + 8, clips[i].values, values * 4);
		n += 8 + values * 4;
	}
	used += (size_t)snprintf(json + used, 16384 - used, "],\"accessors\":[");
	for (size_t i = 0; i < count; i++)
		used += (size_t)snprintf(json + used, 16384 - used,
					 "%s{\"bufferView\":%zu,\"componentType\":5126,\"count\":2,\"type\":"
					 "\"SCALAR\",\"min\":[%g],\"max\":[%g]},"
					 "{\"bufferView\":%zu,\"componentType\":5126,\"count\":2,\"type\":\"%s\"}",
					 i ? "," : "", 2 * i, (double)clips[i].times[0], (double)clips[i].times[1],
					 2 * i + 1, clips[i].is_rotation ? "VEC4" : "VEC3");
	used += (size_t)snprintf(json + used, 16384 - used, "],\"animations\":[");
	for (size_t i = 0; i < count; i++)
		used += (size_t)snprintf(json + used, 16384 - used,
					 "%s{\"name\":\"%s\",\"samplers\":[{\"input\":%zu,\"output\":%zu}],"
					 "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"%s\"}}]}",
					 i ? "," : "", clips[i].name, 2 * i, 2 * i + 1,
					 clips[i].is_rotation ? "rotation" : "translation");
	base64_append(&b64, &b64_len, bin, n);
	used += (size_t)snprintf(json + used, 16384 - used,
				 "],\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/"
				 "octet-stream;base64,%.*s\"}]}",
				 n, (int)b64_len, b64);
	assert_true(used < 16384);
	assert_true(test_write_file(path, json, used));
	free(b64);
	free(json);
}

static void a_bad_animation_leaves_the_others_compiled(void **state)
{
	/* A NaN key and a zero quaternion fail their clip alone; keys before
	 * 0 are cut (with a warning), so that clip is written. */
	static const gltf_clip clips[] = {
		{ "good", { 0, 1 }, { 0, 0, 0, 1, 1, 1 }, false },
		{ "nan", { 0, 1 }, { 0, 0, 0, NAN, 1, 1 }, false },
		{ "zero", { 0, 1 }, { 0, 0, 0, 1, 0, 0, 0, 0 }, true },
		{ "good-negative", { -1, 1 }, { 0, 0, 0, 1, 1, 1 }, false },
		{ "good2", { 0, 2 }, { 0, 0, 0, 1, 0, 0, 1, 0 }, true },
	};
	char *dir = test_tmpdir("gltf-bad-keys");
	char *src = test_format("%s/hero.gltf", dir);
	char *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	write_gltf(src, clips, sizeof clips / sizeof clips[0]);
	r = test_animc("build", "-v", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	for (size_t i = 0; i < sizeof clips / sizeof clips[0]; i++) {
		char *xnb = test_format("%s/hero/%s.xnb", out, clips[i].name);
		bool good = strncmp(clips[i].name, "good", 4) == 0;

		if (test_file_exists(xnb) != good)
			fail_msg("%s: %s", xnb, good ? "missing" : "written");
		if (!good)   /* the error names the clip */
			assert_non_null(strstr(r.err, clips[i].name));
		free(xnb);
	}
	assert_non_null(strstr(r.err, "note: animations[3]: 1 key before time 0 left out"));
	/* One error for each bad clip, and a note of what it cost. */
	size_t errors = 0;
	for (const char *at = r.err; (at = strstr(at, ": error: ")) != NULL; at++)
		errors++;
	if (errors != 2)
		fail_msg("%zu errors:\n%s", errors, r.err);
	assert_non_null(strstr(r.err, "note: animations[1]: clip 'nan' left out; the other clips are still imported"));
	test_run_release(&r);
	char *good2 = test_format("%s/hero/good2.xnb", out);
	animrt_clip *clip;

	assert_int_equal(animrt_open_file(good2, &clip, NULL), ANIMRT_OK);
	assert_true(clip->duration_s == 2.0f);
	animrt_close(clip);
	free(good2);
	free(out);
	free(src);
	free(dir);
}

/* An animation keyed wholly before 0 (a timeline at negative frames) was
 * cut at 0 to a still pose of its last key, 1/60 s long, exit 0 with a note
 * only: it is moved to start at 0, with a warning naming it.  One whose last
 * key is at 0 too; keys before 0 beside keys after it are still cut. */
static void an_animation_keyed_before_0_is_moved_to_0(void **state)
{
	static const gltf_clip clips[] = {
		{ "walk", { -2, -1 }, { 0, 0, 0, 2, 4, 6 }, false },
		{ "reach", { -0.5f, 0 }, { 1, 0, 0, 3, 0, 0 }, false },
		{ "preroll", { -1, 1 }, { 0, 0, 0, 2, 0, 0 }, false },
	};
	static const float durations[] = { 1, 0.5f, 1 }, at_quarter[] = { 0.5f, 2, 1.25f };
	char *dir = test_tmpdir("gltf-before-0");
	char *src = test_format("%s/hero.gltf", dir), *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	write_gltf(src, clips, sizeof clips / sizeof clips[0]);
	r = test_animc("build", "-v", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "warning: animations[0]: every key of animation 'walk' lies before time 0 "
				      "(-2 s to -1 s)"));
	assert_non_null(strstr(r.err, "moved 2 s later to start at 0"));
	assert_non_null(strstr(r.err, "warning: animations[1]: every key of animation 'reach'"));
	assert_null(strstr(r.err, "animation 'preroll'"));
	assert_non_null(strstr(r.err, "note: animations[2]: 1 key before time 0 left out"));
	assert_non_null(strstr(r.err, "[keys-before-zero]"));
	test_run_release(&r);
	for (size_t i = 0; i < sizeof clips / sizeof clips[0]; i++) {
		char *xnb = test_format("%s/hero/%s.xnb", out, clips[i].name);
		float t[3], q[4], sc[3];
		animrt_clip *clip;

		assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_OK);
		test_assert_near(clip->duration_s, durations[i], 1e-6);
		assert_int_equal(animrt_sequence_sample(&clip->sequences[0], 0.25f, ANIMRT_PLAY_ONCE, NULL, t, q, sc),
				 ANIMRT_OK);
		test_assert_near(t[0], at_quarter[i], 1e-5);
		animrt_close(clip);
		free(xnb);
	}
	free(out), free(src), free(dir);
}

/* Unnamed animations are named by their place in the document: one that
 * fails leaves its name unwritten, and the next keeps its own (it took
 * clip0, the failed one's, and a game loading clip0 played another
 * animation). */
static void an_unnamed_clip_keeps_its_name_when_one_before_fails(void **state)
{
	static const gltf_clip clips[] = {
		{ "", { 0, 1 }, { 0, 0, 0, NAN, 1, 1 }, false },
		{ "", { 0, 2 }, { 0, 0, 0, 1, 1, 1 }, false },
	};
	char *dir = test_tmpdir("gltf-unnamed"), *src = test_format("%s/m.gltf", dir), *out = test_format("%s/out", dir);
	char *clip0 = test_format("%s/m/clip0.xnb", out), *clip1 = test_format("%s/m/clip1.xnb", out);
	animrt_clip *clip;
	test_run r;

	(void)state;
	write_gltf(src, clips, 2);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	assert_false(test_file_exists(clip0));
	assert_int_equal(animrt_open_file(clip1, &clip, NULL), ANIMRT_OK);
	assert_true(clip->duration_s == 2.0f);
	animrt_close(clip);
	free(clip1), free(clip0), free(out), free(src), free(dir);
}

/* Of two animations named walk, the second is walk.1 whether or not the
 * first fails: when it took "walk", it wrote over the first's last good
 * output with another animation. */
static void a_repeated_name_keeps_its_suffix_when_one_before_fails(void **state)
{
	gltf_clip clips[] = {
		{ "walk", { 0, 1 }, { 0, 0, 0, 1, 1, 1 }, false },
		{ "walk", { 0, 2 }, { 0, 0, 0, 1, 1, 1 }, false },
	};
	char *dir = test_tmpdir("gltf-walk"), *src = test_format("%s/m.gltf", dir), *out = test_format("%s/out", dir);
	char *walk = test_format("%s/m/walk.xnb", out), *walk1 = test_format("%s/m/walk.1.xnb", out);
	char *fresh = test_format("%s/fresh", dir), *fresh_walk = test_format("%s/m/walk.xnb", fresh);
	char *fresh_walk1 = test_format("%s/m/walk.1.xnb", fresh);
	const char *built[] = { walk, walk1 };
	const float durations[] = { 1, 2 };
	animrt_clip *clip;
	test_run r;

	(void)state;
	write_gltf(src, clips, 2);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* The first breaks: its last good walk.xnb stays, walk.1 is the second. */
	clips[0].values[3] = NAN;
	write_gltf(src, clips, 2);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(animrt_open_file(built[i], &clip, NULL), ANIMRT_OK);
		if (clip->duration_s != durations[i])
			fail_msg("%s lasts %g s, expected %g s", built[i], (double)clip->duration_s,
				 (double)durations[i]);
		animrt_close(clip);
	}
	r = test_animc("build", "-q", "-o", fresh, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	assert_false(test_file_exists(fresh_walk));
	assert_int_equal(animrt_open_file(fresh_walk1, &clip, NULL), ANIMRT_OK);
	assert_true(clip->duration_s == 2.0f);
	animrt_close(clip);
	free(fresh_walk1), free(fresh_walk), free(fresh), free(walk1), free(walk), free(out), free(src), free(dir);
}

/* A glTF 1.0 file, GLB or JSON, fails with its reason, in a folder too.
 * It went to Assimp, whose glTF 1.0 reader reads no animation: "holds
 * no animation", and in a folder skipped with exit 0. */
static void gltf_1_is_refused_with_its_reason(void **state)
{
	char *dir = test_tmpdir("gltf-1"), *art = test_format("%s/art", dir), *out = test_format("%s/out", dir);
	char *json = test_format("%s/walk.gltf", art), *glb = test_format("%s/run.glb", art);
	static const char text[] = "{\"asset\":{\"version\":\"1.0\"},\"animations\":{\"a\":{\"channels\":[],"
				   "\"samplers\":{}}}}";
	static const uint8_t head[20] = "glTF\x01\0\0\0\x14\0\0\0\0\0\0\0\0\0\0\0";
	test_run r;

	(void)state;
	assert_int_equal(mkdir(art, 0755), 0);
	assert_true(test_write_file(json, text, strlen(text)));
	assert_true(test_write_file(glb, head, sizeof head));
	r = test_animc("build", "--progress", "never", "-o", out, art, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "walk.gltf: error: asset.version: glTF 1.0: only glTF 2.0 is read (nor does Assimp read "
			   "glTF 1.0 animations): convert the file to glTF 2.0") ||
	    !strstr(r.err, "run.glb: error: byte 4: GLB version 1: only GLB version 2 (glTF 2.0) is read (nor does "
			   "Assimp read glTF 1.0 animations)"))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, ", 2 failed,"));
	test_run_release(&r);
	free(glb), free(json), free(out), free(art), free(dir);
}

static void cli_fails_each_hostile_file_without_output(void **state)
{
	char **files = test_list_dir(HOSTILE, NULL);
	char *out = test_tmpdir("gltf-hostile");
	char *argv[80] = { NULL, "build", "-o", out };
	size_t argc = 4, n = 0;
	test_run r;

	(void)state;
	for (char **p = files; *p; p++) {
		if (strcmp(*p, "expected.txt") == 0)
			continue;
		assert_true(argc < 79);
		argv[argc++] = test_format("%s/%s", HOSTILE, *p);
		n++;
	}
	argv[0] = (char *)(uintptr_t)test_animc_path();
	argv[argc] = NULL;
	r = test_execv((const char *const *)argv);
	assert_int_equal(r.status, 1);
	char *summary = test_format("compiled 0 sources (0 clips), %zu failed, 0 skipped", n);
	assert_non_null(strstr(r.out, summary));
	assert_int_equal(test_count_files(out), 0);
	for (size_t i = 4; i < argc; i++) {
		char *named = test_format("%s:", argv[i]);

		if (!strstr(r.err, named))
			fail_msg("no diagnostic names %s", argv[i]);
		free(named);
		free(argv[i]);
	}
	/* An index into an empty list says so; a document of one animation
	 * has no other clips to speak of. */
	assert_non_null(strstr(r.err, "empty-samplers.gltf: error: animations[0].channels[0].sampler: 0 is out of "
				      "range: the list it indexes is empty or missing\n"));
	assert_null(strstr(r.err, "the other clips are still imported"));
	free(summary);
	test_run_release(&r);
	test_free_list(files);
	free(out);
}

/* Tracks a node does not animate keep its rest value; a document's skins
 * flag animated nodes that are no joint; --skeleton with a glTF model. */
static void rest_values_skins_and_skeleton_option(void **state)
{
	char *out = test_tmpdir("gltf-cli");
	char *walk = test_format("%s/linear/walk.xnb", out);
	test_run r = test_animc("build", "-v", "-o", out, FIXTURES "/linear.gltf", FIXTURES "/skin.gltf", NULL);
	animrt_clip *clip;
	const animrt_sequence *root, *arm;

	(void)state;
	assert_int_equal(r.status, 0);
	/* skin.gltf animates "Armature", which is no joint: a note (-v), as
	 * ordinary files do it. */
	assert_non_null(strstr(r.err, "skin.gltf: note: animations[0]: 1 animated node is no joint"));
	assert_null(strstr(r.err, "warning:"));
	test_run_release(&r);
	assert_int_equal(animrt_open_file(walk, &clip, NULL), ANIMRT_OK);
	root = test_sequence_of(clip, "Root");
	arm = test_sequence_of(clip, "nodes[1]");
	assert_true(root->is_fixed_scale && root->scale[0] == 1 && root->scale[1] == 1);
	assert_true(arm->is_fixed_rotation && arm->is_fixed_translation);
	assert_true(fabsf(arm->rotation[2] - sinf(0.15f)) < 1e-6f);
	animrt_close(clip);
	/* With --skeleton the model decides: every bone of skin.gltf is a node
	 * of it, none of linear.gltf's is. */
	r = test_animc("build", "-q", "--skeleton", FIXTURES "/skin.gltf", "-o", out, FIXTURES "/skin.gltf",
		       NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "no joint"));
	test_run_release(&r);
	r = test_animc("build", "-q", "--skeleton", FIXTURES "/skin.gltf", "-o", out, FIXTURES "/linear.gltf",
		       NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "linear.gltf: error: clip 'walk': 2 of its 2 bones are not in the skeleton "
				      "(--skeleton, 6 bones): 'Root', 'nodes[1]'; none of its bones is: is that model "
				      "this clip's?\n"));
	test_run_release(&r);
	free(walk);
	free(out);
}

/* Keys before 0, late keys, a pose, clips of one name, morph weights:
 * every output plays in the original runtime (no zero KeyInterval on a
 * one-key sequence, no zero duration), with the warnings that say so. */
static void edge_cases_write_playable_clips(void **state)
{
	char *out = test_tmpdir("gltf-edges");
	test_run r = test_animc("build", "-v", "-o", out, FIXTURES "/edges.gltf", NULL);
	static const char *const clips[] = { "early", "late", "pose", "late.1" };

	(void)state;
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "note: animations[0]: 4 keys before time 0 left out"));
	assert_non_null(strstr(r.err, "note: clip 'pose': is a pose"));   /* the playable pass says it */
	assert_non_null(strstr(r.err, "2 clips are named 'late'; named them 'late' and 'late.1'"));
	assert_non_null(strstr(r.err, "morph-target weights"));
	test_run_release(&r);
	for (size_t i = 0; i < sizeof clips / sizeof clips[0]; i++) {
		char *xnb = test_format("%s/edges/%s.xnb", out, clips[i]);
		animrt_clip *clip;

		assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_OK);
		assert_true(clip->duration_s > 0);
		for (uint32_t s = 0; s < clip->sequence_count; s++) {
			const animrt_sequence *q = &clip->sequences[s];

			assert_true(q->duration_s > 0);
			if (!q->has_time)
				assert_true(q->key_interval_s > 0);
		}
		if (i == 2)   /* the pose: 1/60 s */
			assert_true(clip->duration_s == 1.0f / 60);
		animrt_close(clip);
		free(xnb);
	}
	/* The unnamed clip runs as long as its longest channel, weights
	 * included (3 s), as Assimp measures it. */
	char *unnamed = test_format("%s/edges/clip4.xnb", out);
	animrt_clip *clip;

	assert_int_equal(animrt_open_file(unnamed, &clip, NULL), ANIMRT_OK);
	assert_true(clip->duration_s == 3.0f);
	animrt_close(clip);
	free(unnamed);
	free(out);
}

/* Three animations named R, the first of which fails (a NaN key): R.1
 * and R.2 are written, keeping their names, and the warning names the
 * clips where it said "wrote them as 'R', 'R.1' and 'R.2'" with no R.xnb
 * written. */
static void clips_of_one_name_are_named_not_said_written(void **state)
{
	char *dir = test_tmpdir("gltf-rep"), *src = test_format("%s/rep.gltf", dir), *out = test_format("%s/out", dir);
	static const char anim[] = "{\"name\":\"R\",\"samplers\":[{\"input\":0,\"output\":%d}],\"channels\":"
				   "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}";
	char *a = test_format(anim, 2), *b = test_format(anim, 1);
	char *text = test_format(
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"Root\"}],\"scenes\":[{\"nodes\":[0]}],"
		"\"buffers\":[{\"byteLength\":56,\"uri\":\"data:application/octet-stream;base64,"
		"AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAMB/AAAAAAAAAAA=\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24},"
		"{\"buffer\":0,\"byteOffset\":32,\"byteLength\":24}],"
		"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
		"\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
		"{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
		"\"animations\":[%s,%s,%s]}", a, b, b);
	char *r0 = test_format("%s/rep/R.xnb", out), *r1 = test_format("%s/rep/R.1.xnb", out);
	char *r2 = test_format("%s/rep/R.2.xnb", out);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, text, strlen(text)));
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "element 1 holds NaN") ||
	    !strstr(r.err, "3 clips are named 'R'; named them 'R', 'R.1' and 'R.2': give each clip its own name") ||
	    strstr(r.err, "wrote"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_file_exists(r0));
	assert_true(test_file_exists(r1));
	assert_true(test_file_exists(r2));
	free(r0), free(r1), free(r2), free(text), free(a), free(b), free(out), free(src), free(dir);
}

/* A node that lists itself as its child: said so, not as a second
 * parent. */
static void a_node_of_its_own_is_named(void **state)
{
	char *dir = test_tmpdir("gltf-self"), *src = test_format("%s/self.gltf", dir), *out = test_format("%s/out", dir);
	static const char text[] =
		"{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
		"\"nodes\":[{\"name\":\"A\",\"children\":[0]}]}";
	test_run r;

	(void)state;
	assert_true(test_write_file(src, text, strlen(text)));
	r = test_animc("build", "-q", "--skeleton", src, "-o", out, FIXTURES "/linear.gltf", NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "nodes[0].children[0]: the node lists itself as its child"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(out), free(src), free(dir);
}

/* Nodes whose children go round a cycle have no root to reach them from:
 * said so, naming the model and the nodes, where the model became the one
 * bone ROOT (or lost the cycle's nodes) without a word and the clip failed
 * as not the model's. */
static void cyclic_nodes_are_named(void **state)
{
	static const struct { const char *nodes, *scene, *cycle; } cases[] = {
		{ "{\"name\":\"A\",\"children\":[1]},{\"name\":\"B\",\"children\":[0]}", "",
		  "nodes[0] -> nodes[1] -> nodes[0]: " },
		/* Beside the scene's tree, with a node hanging off it (found
		 * first, from nodes[2]), named from its lowest node. */
		{ "{\"name\":\"root\",\"children\":[1]},{\"name\":\"child\"},{\"name\":\"E\"},"
		  "{\"name\":\"B\",\"children\":[4]},{\"name\":\"C\",\"children\":[5,2]},"
		  "{\"name\":\"D\",\"children\":[3]}",
		  "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],", "nodes[3] -> nodes[4] -> nodes[5] -> nodes[3]: " },
	};
	char *dir = test_tmpdir("gltf-cycle"), *src = test_format("%s/cycle.gltf", dir), *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format("{\"asset\":{\"version\":\"2.0\"},%s\"nodes\":[%s]}", cases[i].scene,
					 cases[i].nodes);
		char *want = test_format("%s: error: %s", src, cases[i].cycle);

		assert_true(test_write_file(src, text, strlen(text)));
		r = test_animc("build", "-q", "--skeleton", src, "-o", out, FIXTURES "/linear.gltf", NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, want) || !strstr(r.err, "the node tree is not a tree"))
			fail_msg("case %zu: %s", i, r.err);
		test_run_release(&r);
		assert_int_equal(test_count_files(out), 0);
		free(want), free(text);
	}
	free(out), free(src), free(dir);
}

/* A .glb cut before its version, or empty, says so, as source and as
 * --skeleton: the first went to Assimp ("No suitable reader found"), the
 * second was a JSON syntax error at the end of the file. */
static void a_cut_or_empty_glb_says_so(void **state)
{
	static const struct { const char *name, *bytes, *error; size_t size; } cases[] = {
		{ "cut.glb", "glTF\2\0\0", "error: byte 7: GLB header: the file ends after 7 of its 12 bytes", 7 },
		{ "magic.glb", "glTF", "error: byte 4: GLB header: the file ends after 4 of its 12 bytes", 4 },
		{ "empty.glb", "", "error: the file is empty", 0 },
	};
	char *dir = test_tmpdir("gltf-cut"), *out = test_format("%s/out", dir);

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *src = test_format("%s/%s", dir, cases[i].name);
		char *want = test_format("%s: %s\n", src, cases[i].error);
		test_run r;

		assert_true(test_write_file(src, cases[i].bytes, cases[i].size));
		for (int as_skeleton = 0; as_skeleton < 2; as_skeleton++) {
			r = as_skeleton ? test_animc("build", "-q", "--skeleton", src, "-o", out, FIXTURES "/linear.gltf",
						     NULL)
					: test_animc("build", "-q", "-o", out, src, NULL);
			assert_int_equal(r.status, 1);
			if (!strstr(r.err, want))
				fail_msg("%s%s: %s", cases[i].name, as_skeleton ? " as --skeleton" : "", r.err);
			test_run_release(&r);
		}
		free(want), free(src);
	}
	assert_int_equal(test_count_files(out), 0);
	free(out), free(dir);
}

/* A CUBICSPLINE rotation from q to -q (tangents zero) passes through the
 * zero quaternion: the error names the keys of opposite sign, where it
 * asked whether the tangents were sane. */
static void a_cubic_rotation_through_zero_names_its_keys(void **state)
{
	static const char text[] =
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"root\"}],"
		"\"buffers\":[{\"byteLength\":104,\"uri\":\"data:application/octet-stream;base64,"
		"AAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAACAvwAAAAAAAAAAAAAAAAAAAAA=\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},"
		"{\"buffer\":0,\"byteOffset\":8,\"byteLength\":96}],"
		"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
		"\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":6,\"type\":\"VEC4\"}],"
		"\"animations\":[{\"name\":\"w\",\"samplers\":[{\"input\":0,\"output\":1,"
		"\"interpolation\":\"CUBICSPLINE\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,"
		"\"path\":\"rotation\"}}]}]}";
	char *dir = test_tmpdir("gltf-through-zero"), *src = test_format("%s/c.gltf", dir);
	char *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, text, strlen(text)));
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "c.gltf: error: animations[0].samplers[0]: keys 0 and 1 (at 0 s and 1 s) are of "
			   "opposite sign (dot product -1), so the cubic spline between them passes through the "
			   "zero quaternion"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);
	free(out), free(src), free(dir);
}

/* glTF states no frame rate: --split frames are the key spacing as
 * authored, not that of the keys a CUBICSPLINE curve is baked to, and the
 * spacing most gaps share (cubic.gltf: keys 0, 0.5, 1.25 and 2 s, a scale
 * at 0.2 and 1.7 s: four of seven gaps 0.75 s, so frames of 0.75 s). */
static void split_frames_of_a_cubic_curve_are_its_keys(void **state)
{
	char *out = test_tmpdir("gltf-cubic-frames"), *part = test_format("%s/cubic/A.xnb", out);
	test_run r = test_animc("build", "-q", "--split", "A=1f:2f", "-o", out, FIXTURES "/cubic.gltf", NULL);
	animrt_clip *clip;

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(animrt_open_file(part, &clip, NULL), ANIMRT_OK);
	test_assert_near(clip->duration_s, 0.75, 1e-6);
	animrt_close(clip);
	free(part), free(out);
}

/* The frame rate --split counts at, read from the keys, is said: a note
 * with -v, and in the error of a part past the end. */
static void split_frames_say_their_rate(void **state)
{
	static const gltf_clip clips[] = { { "take", { 0, 0.5f }, { 0, 0, 0, 1, 0, 0 }, false } };
	char *dir = test_tmpdir("gltf-split-rate");
	char *src = test_format("%s/m.gltf", dir), *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	write_gltf(src, clips, 1);
	r = test_animc("build", "-v", "--split", "p=0f:1f", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "note: --split: take 'take': frames counted at 2 fps"));
	test_run_release(&r);
	r = test_animc("build", "--split", "p=0f:3f", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "ends at frame 3 (1.5 s at 2 fps), past the end"));
	test_run_release(&r);
	free(out), free(src), free(dir);
}

/* Every clip of every fixture loads in FNA with the original RobotGame
 * reader, equal to `animc dump`, and plays in the original AnimationBinder
 * (Once and Repeat) without a hang or a non-finite value. */
static void fixtures_play_in_the_original_runtime(void **state)
{
	char *out, **files;
	test_run r;
	size_t n = 0;

	(void)state;
	TEST_NEEDS_FNA();
	out = test_tmpdir("gltf-play");
	files = test_list_dir(FIXTURES, NULL);
	for (char **p = files; *p; p++) {
		char *src;

		if (!strstr(*p, ".gltf") && !strstr(*p, ".glb"))
			continue;
		src = test_format("%s/%s", FIXTURES, *p);
		r = test_animc("build", "-q", "-o", out, src, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		free(src);
		n++;
	}
	assert_true(n >= 8);
	r = test_fna_play((const char *const[]){ out, NULL });
	if (r.status != 0)
		fail_msg("check --play: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	test_free_list(files);
	free(out);
}

/* The same for STEP curves, baked to a key a float step before each change
 * (step.gltf: keys 0, 0.3, 0.7, 1 and 1.6 s, so frames of 0.3 s): a frame
 * was ~1e-7 s, and the part written as lasting 1/60 s. */
static void split_frames_of_a_step_curve_are_its_keys(void **state)
{
	char *out = test_tmpdir("gltf-step-frames"), *part = test_format("%s/step/A.xnb", out);
	test_run r = test_animc("build", "--split", "A=1f:3f", "-o", out, FIXTURES "/step.gltf", NULL);
	animrt_clip *clip;

	(void)state;
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "warning"));
	test_run_release(&r);
	assert_int_equal(animrt_open_file(part, &clip, NULL), ANIMRT_OK);
	test_assert_near(clip->duration_s, 0.6, 1e-6);
	animrt_close(clip);
	free(part), free(out);
}

/* A glTF whose one animation moves morph-target weights only, named on the
 * command line: "holds no animation", its reason a note under -v only.
 * The error says why. */
static void a_gltf_of_weights_only_says_why_it_holds_none(void **state)
{
	char *dir = test_tmpdir("gltf-weights"), *path = test_format("%s/m.gltf", dir), *out = test_format("%s/o", dir);
	/* times 0, 3; weights 0, 0, 1, 1 */
	static const char text[] =
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"face\",\"mesh\":0}],"
		"\"meshes\":[{\"primitives\":[{\"attributes\":{}}],\"weights\":[0,0]}],"
		"\"buffers\":[{\"byteLength\":24,\"uri\":\"data:application/octet-stream;base64,"
		"AAAAAAAAQEAAAAAAAAAAAAAAgD8AAIA/\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},"
		"{\"buffer\":0,\"byteOffset\":8,\"byteLength\":16}],"
		"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
		"\"min\":[0],\"max\":[3]},{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\"}],"
		"\"animations\":[{\"name\":\"smile\",\"samplers\":[{\"input\":0,\"output\":1}],"
		"\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}]}";
	test_run r;

	(void)state;
	assert_true(test_write_file(path, text, strlen(text)));
	r = test_animc("build", "-o", out, path, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "m.gltf: error: holds no skeletal animation: its 1 animation moves no node (morph-target "
			   "weights or extension pointers only), which the format cannot hold"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(out), free(path), free(dir);
}

/* Animations without channels are said to have none, not to hold morph
 * weights or extension pointers; beside one that does, each is counted. */
static void a_gltf_of_empty_animations_says_so(void **state)
{
	static const struct {
		const char *animations, *says;
	} cases[] = {
		{ "[{\"name\":\"idle\",\"channels\":[],\"samplers\":[]}]",
		  "m.gltf: error: holds no skeletal animation: its 1 animation has no channel\n" },
		{ "[{\"channels\":[],\"samplers\":[]},{\"channels\":[],\"samplers\":[]}]",
		  "m.gltf: error: holds no skeletal animation: its 2 animations have no channel\n" },
		{ "[{\"channels\":[],\"samplers\":[]},{\"samplers\":[{\"input\":0,\"output\":1}],"
		  "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}]",
		  "m.gltf: error: holds no skeletal animation: its 2 animations move no node (1 with morph-target "
		  "weights or extension pointers only, 1 with no channel), which the format cannot hold\n" },
	};
	char *dir = test_tmpdir("gltf-empty"), *path = test_format("%s/m.gltf", dir), *out = test_format("%s/o", dir);

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"face\",\"mesh\":0}],"
			"\"meshes\":[{\"primitives\":[{\"attributes\":{}}],\"weights\":[0,0]}],"
			"\"buffers\":[{\"byteLength\":24,\"uri\":\"data:application/octet-stream;base64,"
			"AAAAAAAAQEAAAAAAAAAAAAAAgD8AAIA/\"}],"
			"\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},"
			"{\"buffer\":0,\"byteOffset\":8,\"byteLength\":16}],"
			"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
			"{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\"}],"
			"\"animations\":%s}", cases[i].animations);
		test_run r;

		assert_true(test_write_file(path, text, strlen(text)));
		r = test_animc("build", "-o", out, path, NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, cases[i].says))
			fail_msg("case %zu: %s", i, r.err);
		test_run_release(&r);
		free(text);
	}
	free(out), free(path), free(dir);
}

/* A cubic glTF reduced: baked within a tenth of the tolerance, the
 * reduction was measured against another bake than the lossless file's,
 * and the output played 0.0511 degrees and 1.11e-4 scale from its lossless
 * twin at --tolerance default, 1.38e-4 units at the tight tolerance.  It
 * now bakes as the lossless build does: within each bound of the lossless
 * file at 60 Hz, every key and 2 kHz, and smaller than it. */
static void a_reduced_cubic_stays_within_the_bound_of_the_lossless_file(void **state)
{
	static const char *const tolerances[] = { "default", "0.0001,0.005,0.00001" };
	static const double bounds[][3] = { { 0.001, 0.05, 0.0001 }, { 0.0001, 0.005, 0.00001 } };
	char *dir = test_tmpdir("gltf-reduced-cubic"), *lossless = test_format("%s/lossless", dir);
	char *a = test_format("%s/cubic/sway.xnb", lossless);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", lossless, "testdata/gltf/cubic.gltf", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int i = 0; i < 2; i++) {
		char *out = test_format("%s/%d", dir, i), *b = test_format("%s/cubic/sway.xnb", out);
		uint8_t *data[2];
		size_t size[2];

		r = test_animc("build", "-q", "--tolerance", tolerances[i], "-o", out, "testdata/gltf/cubic.gltf", NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		data[0] = test_read_file(a, &size[0]);
		data[1] = test_read_file(b, &size[1]);
		assert_true(size[1] < size[0]);
		test_error e = test_compare_compiled(data[0], size[0], data[1], size[1], 2000);
		if (!(e.translation <= bounds[i][0] && e.rotation_deg <= bounds[i][1] && e.scale <= bounds[i][2]))
			fail_msg("--tolerance %s: %g units, %g degrees, %g scale from the lossless file", tolerances[i],
				 e.translation, e.rotation_deg, e.scale);
		free(data[0]), free(data[1]), free(b), free(out);
	}
	free(a), free(lossless), free(dir);
}

/* A buffer reached through absolute links that stay inside the source's
 * folder (a link to the file, a folder link in its URI, each also spelt
 * through a link to the folder) is up to date on the next build, by either
 * spelling of the source; edited, it compiles again. */
static void a_buffer_through_absolute_links_inside_is_up_to_date(void **state)
{
	static const char *const uris[] = { "link.bin", "b/c.bin", "viaalias.bin", "bb/c.bin" };
	char *dir = test_tmpdir("gltf-abs-links"), *real = realpath(dir, NULL), *g = test_format("%s/g", real);
	char *out = test_format("%s/out", dir), *data = test_format("%s/a/c.bin", g);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/a' && cp 'testdata/gltf/wag data.bin' '%s' && ln -s '%s' '%s/link.bin' && "
		"ln -s '%s/a' '%s/b' && ln -s '%s' '%s/alias' && ln -s '%s/alias/a/c.bin' '%s/viaalias.bin' && "
		"ln -s '%s/alias/a' '%s/bb'", g, data, data, g, g, g, g, real, real, g, real, g);
	for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++) {
		char *gltf = test_format("%s/m%zu.gltf", g, i), *abs = test_format("%s/alias/m%zu.gltf", real, i);

		test_sh("sed 's|\"wag%%20data.bin\"|\"%s\"|' testdata/gltf/external.gltf > '%s'", uris[i], gltf);
		r = test_animc("build", "-q", "-o", out, gltf, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		for (int k = 0; k < 2; k++) {
			r = test_animc("build", "-o", out, k ? abs : gltf, NULL);
			if (r.status != 0 || !strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, "
							    "1 up to date\n"))
				fail_msg("%s, %s: exit %d\n%s%s", uris[i], k ? "through the folder's link" : "as built",
					 r.status, r.out, r.err);
			test_run_release(&r);
		}
		free(abs), free(gltf);
	}
	test_sh("printf x >> '%s'", data);
	for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++) {
		char *gltf = test_format("%s/m%zu.gltf", g, i);

		r = test_animc("build", "-o", out, gltf, NULL);
		if (r.status != 0 || !strstr(r.out, "compiled 1 source (1 clip), 0 failed"))
			fail_msg("%s edited: exit %d\n%s%s", uris[i], r.status, r.out, r.err);
		test_run_release(&r);
		free(gltf);
	}
	free(data), free(out), free(g), free(real), free(dir);
}

/* A buffer named through a symbolic link in the source's folder that leads
 * out of it is refused as outside whether a file is there or not: nothing
 * past the link's far end is looked at.  One not there was "cannot open
 * ...: No such file or directory", one there "outside the source's
 * folder": the message told what lies outside. */
static void a_buffer_through_a_link_out_is_outside_there_or_not(void **state)
{
	static const char *const names[] = { "there.bin", "absent.bin" };
	char *dir = test_tmpdir("gltf-link-out"), *real = realpath(dir, NULL), *out = test_format("%s/out", dir);
	char *gltf = test_format("%s/g/m.gltf", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/g' '%s/secret' && ln -s ../secret '%s/g/link' && cp 'testdata/gltf/wag data.bin' "
		"'%s/secret/there.bin'", dir, dir, dir, dir);
	for (size_t i = 0; i < 2; i++) {
		char *said = test_format("error: buffers[0].uri: 'link/%s' resolves to '%s/secret/%s', outside the "
					 "source's folder: only files beside the source are read\n", names[i], real,
					 names[i]);

		test_sh("sed 's|\"wag%%20data.bin\"|\"link/%s\"|' testdata/gltf/external.gltf > '%s'", names[i], gltf);
		r = test_animc("build", "-q", "-o", out, gltf, NULL);
		if (r.status != 1 || !strstr(r.err, said))
			fail_msg("%s: exit %d\n%s%s", names[i], r.status, r.out, r.err);
		test_run_release(&r);
		free(said);
	}
	free(gltf), free(out), free(real), free(dir);
}

/* A folder of the source's swapped for a symbolic link that leads out of
 * it between the check of where a buffer lies and its open (another
 * process writing the folder; the stand-in swaps it right after the
 * check): the buffer is not read through the link.  It was, and the keys
 * of a file outside the folders given were written as the clip. */
static void a_buffer_folder_swapped_for_a_link_is_not_read_through_it(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("buffer-swap"), *real = realpath(dir, NULL), *shim = test_format("%s/swap.so", dir);
	char *gltf = test_format("%s/g/external.gltf", real), *out = test_format("%s/out", dir);
	char *sub = test_format("%s/g/sub", real), *to = test_format("%s/secret/sub", real), *said;
	test_run r;

	test_sh("mkdir -p '%s' '%s' && sed 's|\"wag%%20data.bin\"|\"sub/wag%%20data.bin\"|' "
		"testdata/gltf/external.gltf > '%s' && cp 'testdata/gltf/wag data.bin' '%s' && "
		"cp 'testdata/gltf/wag data.bin' '%s' && "
		"cc -shared -fPIC -o '%s' testdata/env/swap_after_realpath.c -ldl", sub, to, gltf, sub, to, shim);
	said = test_format("error: buffers[0].uri: 'sub/wag%%20data.bin' resolves to '%s/wag data.bin', outside the "
			   "source's folder: only files beside the source are read\n", to);
	r = test_animc("build", "-q", "-o", out, gltf, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	setenv("SWAP_FOLDER", sub, 1), setenv("SWAP_TO", to, 1), setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "-q", "--rebuild", "-o", out, gltf, NULL);
	unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO");
	if (r.status != 1 || !strstr(r.err, said))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(dir), free(shim), free(real), free(sub), free(to), free(said), free(gltf), free(out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_buffer_folder_swapped_for_a_link_is_not_read_through_it),
	cmocka_unit_test(a_buffer_through_a_link_out_is_outside_there_or_not),
	cmocka_unit_test(a_buffer_through_absolute_links_inside_is_up_to_date),
	cmocka_unit_test(a_reduced_cubic_stays_within_the_bound_of_the_lossless_file),
	cmocka_unit_test(a_gltf_of_weights_only_says_why_it_holds_none),
	cmocka_unit_test(a_gltf_of_empty_animations_says_so),
	cmocka_unit_test(a_bad_animation_leaves_the_others_compiled),
	cmocka_unit_test(an_animation_keyed_before_0_is_moved_to_0),
	cmocka_unit_test(an_unnamed_clip_keeps_its_name_when_one_before_fails),
	cmocka_unit_test(a_repeated_name_keeps_its_suffix_when_one_before_fails),
	cmocka_unit_test(gltf_1_is_refused_with_its_reason),
	cmocka_unit_test(cli_fails_each_hostile_file_without_output),
	cmocka_unit_test(rest_values_skins_and_skeleton_option),
	cmocka_unit_test(edge_cases_write_playable_clips),
	cmocka_unit_test(clips_of_one_name_are_named_not_said_written),
	cmocka_unit_test(split_frames_of_a_cubic_curve_are_its_keys),
	cmocka_unit_test(split_frames_of_a_step_curve_are_its_keys),
	cmocka_unit_test(split_frames_say_their_rate),
	cmocka_unit_test(a_node_of_its_own_is_named),
	cmocka_unit_test(cyclic_nodes_are_named),
	cmocka_unit_test(a_cut_or_empty_glb_says_so),
	cmocka_unit_test(a_cubic_rotation_through_zero_names_its_keys),
	cmocka_unit_test(fixtures_play_in_the_original_runtime),
};

ANIMC_TEST_GROUP(tests);
