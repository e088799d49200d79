/*
 * assimp_test.c - the Assimp importer: hand-checkable .X files
 * (testdata/assimp), hand-built scenes for what no small file can say (tick
 * rates of other formats, NaN keys, zero quaternions, negative times), and
 * the corpus's FBX channel names.  Through the command line:
 * cmd/tests/assimp_cli_test.c.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include "test_support.h"
#include <animc/animrt.h>
#include <animc/animc_xform.h>
#include "assimp_internal.h"

#define KEYS_X "testdata/assimp/keys.x"
#define NO_RATE_X "testdata/assimp/no_rate.x"
#define STATIC_X "testdata/assimp/static.x"
#define BROKEN_X "testdata/assimp/broken.x"
#define CONFINE "testdata/assimp_confine"
#define PATH_BYTES 4096

/* ------------------------------------------------------------ importing */

typedef struct imported {
	animc_status status;
	animc_clip_set set;
	test_diags diags;
	animc_diag_sink sink;
} imported;

static void import_request(imported *r, const animc_import_request *req)
{
	memset(r, 0, sizeof *r);
	r->diags.echo = getenv("ANIMC_TEST_ECHO") != NULL;
	r->sink = test_diag_sink(&r->diags, req->path);
	r->status = animc_importer_assimp.import(req, &r->set, &r->sink);
}

/* Import a file from its path, with `rate` ticks per second forced (0: none). */
static void import_path(imported *r, const char *path, double rate)
{
	animc_import_options options = { .ticks_per_second = rate };
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	animc_import_request req = { path, data, size, &options };

	import_request(r, &req);
	free(data);
}

static void release(imported *r)
{
	animc_clip_set_release(&r->set);
	test_diags_release(&r->diags);
}

static animc_clip *clip_named(const imported *r, const char *name)
{
	for (uint32_t i = 0; i < r->set.count; i++)
		if (strcmp(r->set.clips[i]->name, name) == 0)
			return r->set.clips[i];
	fail_msg("no clip '%s'", name);
	return NULL;
}

static const animc_channel *channel_named(const animc_clip *clip, const char *bone)
{
	for (uint32_t i = 0; i < clip->channel_count; i++)
		if (strcmp(clip->channels[i].bone, bone) == 0)
			return &clip->channels[i];
	fail_msg("clip '%s' has no bone '%s'", clip->name, bone);
	return NULL;
}

/* Process a clip with the default passes; its status. */
static animc_status process(imported *r, animc_clip *clip)
{
	return animc_clip_process(clip, NULL, &r->sink, NULL);
}

static void assert_floats(const float *got, const double *want, unsigned n, double tolerance)
{
	for (unsigned i = 0; i < n; i++)
		if (!(fabs(got[i] - want[i]) <= tolerance))
			fail_msg("component %u is %.9g, expected %.9g", i, (double)got[i], want[i]);
}

/* A rotation equal to `want` (x y z w) up to sign: q and -q turn alike. */
static void assert_rotation(const float *got, const double want[4])
{
	double same = 0, opposite = 0;

	for (int i = 0; i < 4; i++) {
		same = fmax(same, fabs(got[i] - want[i]));
		opposite = fmax(opposite, fabs(got[i] + want[i]));
	}
	if (!(fmin(same, opposite) <= 1e-6))
		fail_msg("rotation (%g %g %g %g), expected +-(%g %g %g %g)", (double)got[0],
			 (double)got[1], (double)got[2], (double)got[3], want[0], want[1], want[2], want[3]);
}

#define S45 0.70710678118654752  /* sin 45 degrees */

/* ---------------------------------------------------- recognising files */

static void probe_prefers_content_and_leaves_other_xml_alone(void **state)
{
	static const char xof[] = "xof 0303txt 0032\n";
	static const char fbx[] = "Kaydara FBX Binary  \0\x1a";
	static const char bvh[] = "\r\n  HIERARCHY\nROOT Hips\n";
	static const char rg[] = "<?xml version=\"1.0\"?>\n<AnimationSequence><Duration>1</Duration>";
	static const char xna[] = "<?xml version=\"1.0\"?>\n<XnaContent><Asset Type=\"x\"/></XnaContent>";
	static const char dae[] = "<?xml version=\"1.0\"?>\n<COLLADA version=\"1.4.1\">";
	static const char text[] = "just some notes\n";
	const animc_importer *imp = &animc_importer_assimp;
#define PROBE(path, s) imp->probe(path, (const uint8_t *)(s), sizeof(s) - 1)

	(void)state;
	/* Content wins whatever the name says. */
	assert_int_equal(PROBE("walk.txt", xof), ANIMC_PROBE_CONTENT);
	assert_int_equal(PROBE(NULL, fbx), ANIMC_PROBE_CONTENT);
	assert_int_equal(PROBE("mocap.data", bvh), ANIMC_PROBE_CONTENT);
	assert_int_equal(PROBE("scene.xml", dae), ANIMC_PROBE_CONTENT);
	/* Names Assimp knows. */
	assert_int_equal(PROBE("Walk.FBX", text), ANIMC_PROBE_EXTENSION);
	assert_int_equal(PROBE("dir.x/hero.glb", text), ANIMC_PROBE_EXTENSION);
	assert_int_equal(PROBE("a/b/run.md5anim", text), ANIMC_PROBE_EXTENSION);
	assert_int_equal(PROBE("hero.mesh.xml", text), ANIMC_PROBE_EXTENSION);
	/* Other XML, and names Assimp does not know. */
	assert_int_equal(PROBE("settings.xml", text), ANIMC_PROBE_NO);
	assert_int_equal(PROBE("README", text), ANIMC_PROBE_NO);
	assert_int_equal(PROBE("notes.txt", text), ANIMC_PROBE_NO);
	assert_int_equal(PROBE(".x", text), ANIMC_PROBE_NO);
	/* The XML importers' documents stay theirs, even named like models. */
	assert_int_equal(PROBE("Walk.x", rg), ANIMC_PROBE_NO);
	assert_int_equal(PROBE("Clips.dae", xna), ANIMC_PROBE_NO);
	assert_int_equal(PROBE("Walk.Animation", rg), ANIMC_PROBE_NO);
	assert_ptr_equal(animc_importer_find("Walk.x", (const uint8_t *)rg, sizeof rg - 1),
			 &animc_importer_robotgame);
	assert_ptr_equal(animc_importer_find("Walk.Animation", (const uint8_t *)xof, sizeof xof - 1),
			 &animc_importer_assimp);
	assert_ptr_equal(animc_importer_by_name("assimp"), &animc_importer_assimp);
#undef PROBE
}

/* ------------------------------------------------- the hand-written .X */

static void x_rotation_keys(void **state)
{
	imported r;
	static const double none[4] = { 0, 0, 0, 1 };
	/* .X rotation keys are the inverse rotation (DirectX's row vectors);
	 * Assimp turns them round, so +90 about z is read as -90. */
	static const double minus90[4] = { 0, 0, -S45, S45 };
	static const double half_turn[4] = { 0, 0, 1, 0 };
	static const double arm_rest[3] = { 0, 1, 0 }, unit[3] = { 1, 1, 1 };

	(void)state;
	import_path(&r, KEYS_X, 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_false(r.set.is_single_asset);
	animc_clip *clip = clip_named(&r, "rotate");
	assert_int_equal(process(&r, clip), ANIMC_OK);
	assert_int_equal(clip->channel_count, 1);
	const animc_channel *arm = channel_named(clip, "Arm");
	/* Keys at 0, 0.5 and 1 s: uniform. */
	assert_int_equal(arm->key_count, 3);
	assert_false(arm->has_time);
	assert_true(arm->key_interval_s == 0.5f);
	assert_true(arm->duration_s == 1.0f);
	const animc_track *rot = &arm->tracks[ANIMC_ROTATION];
	assert_true(rot->is_present && !rot->is_fixed);
	assert_rotation(&rot->values[0], none);
	assert_rotation(&rot->values[4], minus90);
	assert_rotation(&rot->values[8], half_turn);
	/* Consecutive keys on one hemisphere. */
	for (int k = 1; k < 3; k++) {
		double dot = 0;

		for (int c = 0; c < 4; c++)
			dot += (double)rot->values[(k - 1) * 4 + c] * rot->values[k * 4 + c];
		assert_true(dot >= 0);
	}
	/* Unkeyed tracks hold the rest pose, once. */
	assert_true(arm->tracks[ANIMC_TRANSLATION].is_fixed);
	assert_floats(arm->tracks[ANIMC_TRANSLATION].values, arm_rest, 3, 0);
	assert_true(arm->tracks[ANIMC_SCALE].is_fixed);
	assert_floats(arm->tracks[ANIMC_SCALE].values, unit, 3, 1e-6);
	release(&r);
}

static void x_scale_keys(void **state)
{
	imported r;
	static const double first[3] = { 1, 1, 1 }, last[3] = { 2, 3, 4 };

	(void)state;
	import_path(&r, KEYS_X, 0);
	animc_clip *clip = clip_named(&r, "scale");
	assert_int_equal(process(&r, clip), ANIMC_OK);
	const animc_channel *arm = channel_named(clip, "Arm");
	assert_int_equal(arm->key_count, 2);
	assert_false(arm->has_time);
	assert_true(arm->key_interval_s == 1.0f);
	assert_false(arm->tracks[ANIMC_SCALE].is_fixed);
	assert_floats(&arm->tracks[ANIMC_SCALE].values[0], first, 3, 0);
	assert_floats(&arm->tracks[ANIMC_SCALE].values[3], last, 3, 0);
	release(&r);
}

static void x_position_keys_at_uneven_times(void **state)
{
	imported r;
	static const double want[9] = { 0, 2, 0, 1, 2, 0, 4, 2, 0 };

	(void)state;
	import_path(&r, KEYS_X, 0);
	animc_clip *clip = clip_named(&r, "move");
	assert_int_equal(process(&r, clip), ANIMC_OK);
	const animc_channel *hand = channel_named(clip, "Hand");
	assert_int_equal(hand->key_count, 3);
	assert_true(hand->has_time);
	assert_true(hand->times_s[0] == 0.0f && hand->times_s[1] == 0.25f && hand->times_s[2] == 1.0f);
	assert_floats(hand->tracks[ANIMC_TRANSLATION].values, want, 9, 0);
	release(&r);
}

static void x_matrix_keys_decompose(void **state)
{
	imported r;
	/* Assimp reads .X (left-handed) into its right-handed frame: z turns
	 * round, and so do rotations about x and y. */
	static const double rest_t[3] = { 0, 1, 0 }, t[3] = { 1, 2, -3 };
	static const double rest_s[3] = { 1, 1, 1 }, s[3] = { 2, 2, 2 };
	static const double rest_r[4] = { 0, 0, 0, 1 }, plus90[4] = { 0, 0, S45, S45 };

	(void)state;
	import_path(&r, KEYS_X, 0);
	animc_clip *clip = clip_named(&r, "matrix");
	assert_true(clip->duration_s == 2.0f);
	assert_int_equal(process(&r, clip), ANIMC_OK);
	const animc_channel *arm = channel_named(clip, "Arm");
	assert_int_equal(arm->key_count, 2);
	assert_true(arm->key_interval_s == 2.0f);
	assert_floats(&arm->tracks[ANIMC_TRANSLATION].values[0], rest_t, 3, 1e-6);
	assert_floats(&arm->tracks[ANIMC_TRANSLATION].values[3], t, 3, 1e-6);
	assert_floats(&arm->tracks[ANIMC_SCALE].values[0], rest_s, 3, 1e-6);
	assert_floats(&arm->tracks[ANIMC_SCALE].values[3], s, 3, 1e-6);
	/* Matrices are not inverted: +90 about z stays +90. */
	assert_rotation(&arm->tracks[ANIMC_ROTATION].values[0], rest_r);
	assert_rotation(&arm->tracks[ANIMC_ROTATION].values[4], plus90);
	release(&r);
}

/* ------------------------------------------------- .X read from its bytes */

/* The head of the .X files below: 100 ticks a second, Root and Arm at
 * (0 1 0) under it. */
#define X_HEAD                                                                              \
	"xof 0303txt 0032\nAnimTicksPerSecond {\n 100;\n}\nFrame Root {\n FrameTransformMatrix {\n" \
	"  1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;\n }\n Frame Arm {\n"     \
	"  FrameTransformMatrix {\n"                                                             \
	"   1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;\n  }\n }\n}\n"

/* The first diagnostic of warning kind `kind` (its name, "not-unit-quaternion"),
 * or of severity `severity` when kind is NULL, whose message holds `text`;
 * NULL for none. */
static const test_diag *diag_with(const imported *r, animc_severity severity, const char *kind, const char *text)
{
	for (size_t i = 0; i < r->diags.count; i++) {
		const test_diag *d = &r->diags.items[i];

		if (d->severity == severity && (!kind || (d->kind && strcmp(d->kind, kind) == 0)) &&
		    strstr(d->message, text))
			return d;
	}
	return NULL;
}

/* The import failed with one error, which holds `text` and `also` and is
 * at line `line`. */
static void assert_one_error(const imported *r, const char *text, const char *also, uint32_t line)
{
	assert_int_not_equal(r->status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r->diags, ANIMC_ERROR), 1);
	const test_diag *d = diag_with(r, ANIMC_ERROR, NULL, text);
	assert_non_null(d);
	assert_non_null(strstr(d->message, also));
	assert_int_equal(d->line, line);
}

/* Import .X text from memory. */
static void import_text(imported *r, const char *text)
{
	animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), NULL };

	import_request(r, &req);
}

/* Arm's rotation at 1 s of clip `name`, processed. */
static void arm_rotation_at_end(imported *r, const char *name, float out[4])
{
	animc_clip *clip = clip_named(r, name);

	assert_int_equal(process(r, clip), ANIMC_OK);
	const animc_channel *arm = channel_named(clip, "Arm");
	const animc_track *rot = &arm->tracks[ANIMC_ROTATION];
	memcpy(out, rot->is_fixed ? rot->values : &rot->values[((size_t)arm->key_count - 1) * 4], 4 * sizeof *out);
}

/* A rotation key not of unit length turns like its unit multiple: Assimp
 * makes a matrix of it as it stands (no rotation), and read back, the
 * scaled 30 degrees turned by 107. */
static void x_rotation_keys_not_of_unit_length_turn_as_their_unit_multiple(void **state)
{
	static const char text[] = X_HEAD
		"AnimationSet unit {\n Animation {\n  { Arm }\n  AnimationKey {\n   0;\n   2;\n"
		"   0;4;1.0,0.0,0.0,0.0;;,\n   100;4;0.9659258,0.0,0.0,0.2588190;;;\n  }\n }\n}\n"
		"AnimationSet scaled {\n Animation {\n  { Arm }\n  AnimationKey {\n   0;\n   2;\n"
		"   0;4;2.0,0.0,0.0,0.0;;,\n   100;4;1.9318516,0.0,0.0,0.5176381;;;\n  }\n }\n}\n";
	imported r;
	float unit[4], scaled[4];
	double want[4];

	(void)state;
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	arm_rotation_at_end(&r, "unit", unit);
	arm_rotation_at_end(&r, "scaled", scaled);
	for (int i = 0; i < 4; i++)
		want[i] = unit[i];
	assert_rotation(scaled, want);
	assert_true(fabs(unit[2]) > 0.25 && fabs(unit[2]) < 0.26);   /* 30 degrees about z */
	assert_non_null(diag_with(&r, ANIMC_WARNING, "not-unit-quaternion", "'scaled'"));
	release(&r);
}

/* A rotation key of no length (0 0 0 0, or 1e-40 on two axes) is no
 * rotation: Assimp made a matrix of it, the identity, and the bone stood
 * unturned at that key, exit 0, without a word.  An error at the key's
 * line (line 22: X_HEAD is 14 lines), naming clip and bone. */
static void x_rotation_key_of_no_length_fails_at_its_line(void **state)
{
	static const char *const keys[] = { "0.0,0.0,0.0,0.0", "1e-40,1e-40,0.0,0.0" };
	static const char *const lengths[] = { "has length 0,", "has length 1.41421e-40," };

	(void)state;
	for (int k = 0; k < 2; k++) {
		char *text = test_format("%sAnimationSet spin {\n Animation {\n  { Arm }\n  AnimationKey {\n   0;\n"
					 "   3;\n   0;4;1.0,0.0,0.0,0.0;;,\n   50;4;%s;;,\n"
					 "   100;4;0.7071068,0.0,0.0,0.7071068;;;\n  }\n }\n}\n", X_HEAD, keys[k]);
		imported r;

		import_text(&r, text);
		assert_one_error(&r, "clip 'spin': bone 'Arm': the rotation key at tick 50 ", lengths[k], 22);
		release(&r);
		free(text);
	}
}

/* The rest matrix of Arm as a type 4 key at ticks 0 and 100. */
#define X_REST_MATRIX_KEYS                                                              \
	"  AnimationKey {\n   4;\n   2;\n"                                                     \
	"   0;16;1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;,\n"          \
	"   100;16;1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;;\n  }\n"

/* Rotation keys beside matrix keys: Assimp took the matrix keys only, and
 * the bone stood still.  The rotation keys give the rotation track, the
 * matrix keys the others; the duration reaches the later keys. */
static void x_rotation_keys_beside_matrix_keys_give_the_rotation(void **state)
{
	static const char text[] = X_HEAD "AnimationSet mixed {\n Animation {\n  { Arm }\n" X_REST_MATRIX_KEYS
		"  AnimationKey {\n   0;\n   2;\n   0;4;1.0,0.0,0.0,0.0;;,\n"
		"   200;4;0.7071068,0.0,0.0,0.7071068;;;\n  }\n }\n}\n";
	static const double minus90[4] = { 0, 0, -S45, S45 }, arm_rest[3] = { 0, 1, 0 };
	imported r;
	float rot[4];

	(void)state;
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_true(clip_named(&r, "mixed")->duration_s == 2.0f);
	arm_rotation_at_end(&r, "mixed", rot);
	assert_rotation(rot, minus90);
	const animc_channel *arm = channel_named(clip_named(&r, "mixed"), "Arm");
	assert_floats(arm->tracks[ANIMC_TRANSLATION].values, arm_rest, 3, 1e-6);
	release(&r);
}

/* An Animation that names no frame was a channel of the bone "", which
 * matched an unnamed top frame without a word: left out, said at its line
 * (line 16: X_HEAD is 14 lines). */
static void x_animation_naming_no_frame_is_left_out(void **state)
{
	static const char text[] = X_HEAD "AnimationSet walk {\n Animation {\n"
		"  AnimationKey {\n   2;\n   2;\n   0;3;0.0,0.0,0.0;;,\n   100;3;1.0,0.0,0.0;;;\n  }\n }\n"
		" Animation {\n  { Arm }\n"
		"  AnimationKey {\n   2;\n   2;\n   0;3;0.0,1.0,0.0;;,\n   100;3;1.0,1.0,0.0;;;\n  }\n }\n}\n";
	imported r;
	const test_diag *d;

	(void)state;
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	animc_clip *clip = clip_named(&r, "walk");
	assert_int_equal(clip->channel_count, 1);
	assert_string_equal(clip->channels[0].bone, "Arm");
	d = diag_with(&r, ANIMC_WARNING, "unknown-node", "names no frame");
	assert_non_null(d);
	assert_int_equal(d->line, 16);
	release(&r);
}

/* An .X text of one set, `name`, whose Animation of Arm holds the matrix
 * keys `m0` at tick 0 and `m1` at tick 100 (row by row, as the file). */
static char *x_matrix_set(const char *name, const double m0[16], const double m1[16])
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	fprintf(f, "%sAnimationSet %s {\n Animation {\n  { Arm }\n  AnimationKey {\n   4;\n   2;\n", X_HEAD, name);
	for (int k = 0; k < 2; k++) {
		fprintf(f, "   %d;16;", k * 100);
		for (int e = 0; e < 16; e++)
			fprintf(f, "%.9f%s", (k ? m1 : m0)[e], e < 15 ? "," : k ? ";;;\n" : ";;,\n");
	}
	fprintf(f, "  }\n }\n}\n");
	fclose(f);
	return text;
}

/* Matrix keys Assimp splits without a word into what they are not: a
 * projection (its fourth column dropped) compiled, exit 0; an axis of
 * scale 0 failed as "rotation key 1 is NaN", naming no line; axes of
 * length 1e20 failed as "scale key 1 is infinite" (Assimp's floats
 * overflow).  The first two fail at the key's line (line 22: X_HEAD is 14
 * lines), saying why; the third is split as XNA does. */
static void x_matrix_keys_no_split_holds_fail_at_their_line(void **state)
{
	static const double rest[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1 };
	static const double huge_scale[3] = { 1e20, 1e20, 1e20 };
	static const char *const why[2] = { "its fourth column is not 0 0 0 1 (a projection)",
					     "it scales an axis to zero" };
	double bad[2][16];
	imported r;

	(void)state;
	memcpy(bad[0], rest, sizeof rest);
	bad[0][3] = 0.5, bad[0][15] = 2;
	memset(bad[1], 0, sizeof bad[1]);
	bad[1][13] = 1, bad[1][15] = 1;
	for (int k = 0; k < 2; k++) {
		char *text = x_matrix_set("odd", rest, bad[k]);

		import_text(&r, text);
		assert_one_error(&r, "clip 'odd': bone 'Arm': the matrix key at tick 100 does not split into scale, "
				 "rotation and translation: ", why[k], 22);
		release(&r);
		free(text);
	}
	char *text = test_format("%sAnimationSet huge {\n Animation {\n  { Arm }\n  AnimationKey {\n   4;\n   2;\n"
				 "   0;16;1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;,\n"
				 "   100;16;1e20,0.0,0.0,0.0,0.0,1e20,0.0,0.0,0.0,0.0,1e20,0.0,0.0,1.0,0.0,1.0;;;\n"
				 "  }\n }\n}\n", X_HEAD);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	const animc_channel *arm = channel_named(clip_named(&r, "huge"), "Arm");
	assert_floats(&arm->tracks[ANIMC_SCALE].values[3], huge_scale, 3, 1e14);
	test_assert_near(arm->tracks[ANIMC_ROTATION].values[7], 1, 1e-6);
	release(&r);
	free(text);
	/* An axis of 1e-7 the others' length is no zero to Assimp: its split
	 * is kept. */
	static const double flat_scale[3] = { 1, 1e-7, 1 };
	text = test_format("%sAnimationSet flat {\n Animation {\n  { Arm }\n  AnimationKey {\n   4;\n   2;\n"
			   "   0;16;1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;,\n"
			   "   100;16;1.0,0.0,0.0,0.0,0.0,1e-7,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;;\n"
			   "  }\n }\n}\n", X_HEAD);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	arm = channel_named(clip_named(&r, "flat"), "Arm");
	assert_floats(&arm->tracks[ANIMC_SCALE].values[3], flat_scale, 3, 1e-12);
	release(&r);
	free(text);
}

/* A mirroring matrix key (negative determinant) kept its turn and lost its
 * mirror: split as XNA does, the mirror in a negative X scale and the
 * rotation the key's own (as Assimp gives it for the key unmirrored). */
static void x_mirrored_matrix_key_keeps_its_mirror(void **state)
{
	/* 40 degrees about (1 2 3), at Arm's rest position. */
	double axis[3] = { 1 / sqrt(14.0), 2 / sqrt(14.0), 3 / sqrt(14.0) }, q[4], turn[16], mirror[16];
	static const double mirror_scale[3] = { -1, 1, 1 };
	imported r;
	float plain[4], mirrored[4];
	double want[4];

	(void)state;
	for (int i = 0; i < 3; i++)
		q[i] = axis[i] * sin(20 * M_PI / 180);
	q[3] = cos(20 * M_PI / 180);
	animc_mat4_from_quat(q, turn);
	turn[13] = 1;
	memcpy(mirror, turn, sizeof mirror);
	for (int e = 0; e < 3; e++)
		mirror[e] = -turn[e];   /* row 1, the X axis, turned round */
	char *a = x_matrix_set("plain", turn, turn), *b = x_matrix_set("mirrored", mirror, mirror);
	import_text(&r, a);
	assert_int_equal(r.status, ANIMC_OK);
	arm_rotation_at_end(&r, "plain", plain);
	release(&r);
	import_text(&r, b);
	assert_int_equal(r.status, ANIMC_OK);
	arm_rotation_at_end(&r, "mirrored", mirrored);
	for (int i = 0; i < 4; i++)
		want[i] = plain[i];
	assert_rotation(mirrored, want);
	const animc_channel *arm = channel_named(clip_named(&r, "mirrored"), "Arm");
	assert_floats(arm->tracks[ANIMC_SCALE].values, mirror_scale, 3, 1e-6);
	release(&r);
	free(a);
	free(b);
}

/* A shearing matrix key was said as rotation keys of the wrong length,
 * which the file does not hold: now as the shear, naming the key. */
static void x_sheared_matrix_key_is_said_as_a_shear(void **state)
{
	static const double rest[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1 },
			    shear[16] = { 1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1 };
	char *text = x_matrix_set("sheared", rest, shear);
	imported r;

	(void)state;
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(process(&r, clip_named(&r, "sheared")), ANIMC_OK);
	assert_non_null(diag_with(&r, ANIMC_WARNING, "sheared-key", "tick 100"));
	assert_null(diag_with(&r, ANIMC_WARNING, "not-unit-quaternion", ""));
	release(&r);
	free(text);
}

/* The line an Assimp error names is the file's, for LF, CR LF and lone CR
 * line ends: Assimp's count started a line late, counted a comment's CR
 * LF twice and a lone CR outside comments not at all. */
static void x_error_lines_are_the_files_whatever_the_line_ends(void **state)
{
	static const char *const lines[] = {
		"xof 0303txt 0032", "// exported by a script", "// comment 2", "# comment 3", "// comment 4",
		"Frame Arm {", " FrameTransformMatrix {",
		"  1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;;", " }", "}",
		"AnimationSet walk {",
		" Animation { { Arm } AnimationKey { 2; two; 0;3;0.0,1.0,0.0;;, 100;3;1.0,1.0,0.0;;; } }", "}",
	};
	static const char *const ends[] = { "\n", "\r\n", "\r" };

	(void)state;
	for (size_t e = 0; e < sizeof ends / sizeof *ends; e++) {
		char text[1024] = "";
		imported r;

		for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
			strcat(text, lines[i]);
			strcat(text, ends[e]);
		}
		import_text(&r, text);
		assert_int_not_equal(r.status, ANIMC_OK);
		assert_non_null(test_diags_first(&r.diags, ANIMC_ERROR));
		assert_int_equal(test_diags_first(&r.diags, ANIMC_ERROR)->line, 12);
		release(&r);
	}
}

/* A key's values Assimp cannot read failed with its number reader's
 * message, which quotes the rest of the file and names no line: said at
 * the key's line (X_HEAD is 14 lines), naming it. */
static void x_unreadable_key_values_are_said_at_their_key(void **state)
{
	static const char *const keys[] = { "   0;3;0.0,1.0,0.0;;,\n   100;3;1.0,1.0;;;\n",
					    "   0;3;0,1,0;;,\n   100;3;1.0,1.0,0.0;;;\n" };
	static const char *const said[] = { "at tick 100: holds 2 values", "at tick 0: a whole number" };
	static const uint32_t lines[] = { 22, 21 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		char *text = test_format("%sAnimationSet walk {\n Animation {\n  { Arm }\n  AnimationKey {\n   2;\n"
					 "   2;\n%s  }\n }\n}\n", X_HEAD, keys[i]);
		imported r;
		const test_diag *d;

		import_text(&r, text);
		assert_int_not_equal(r.status, ANIMC_OK);
		d = diag_with(&r, ANIMC_ERROR, NULL, said[i]);
		if (!d)
			fail_msg("no error says '%s'", said[i]);
		assert_non_null(strstr(d->message, "'walk': frame 'Arm'"));
		assert_int_equal(d->line, lines[i]);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
		release(&r);
		free(text);
	}
}

/* An AnimationSet of no Animation vanished without a word, and --clip
 * NAME then said the file has no such clip: said at its line (15). */
static void x_empty_animation_set_is_said(void **state)
{
	static const char text[] = X_HEAD "AnimationSet idle {\n}\n"
		"AnimationSet walk {\n Animation {\n  { Arm }\n"
		"  AnimationKey {\n   2;\n   2;\n   0;3;0.0,1.0,0.0;;,\n   100;3;1.0,1.0,0.0;;;\n  }\n }\n}\n";
	imported r;
	const test_diag *d;

	(void)state;
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	d = diag_with(&r, ANIMC_WARNING, "empty-clip", "'idle'");
	assert_non_null(d);
	assert_int_equal(d->line, 15);
	release(&r);
}

static void x_tracks_with_different_keys_share_one_timeline(void **state)
{
	imported r;
	static const double moves[9] = { 0, 1, 0, 0, 1, -1, 0, 1, -4 };   /* z turned round */
	static const double minus45[4] = { 0, 0, -0.38268343236508977, 0.92387953251128676 };
	static const double hand[9] = { 5, 2, 0, 5, 2, 0, 6, 2, 0 };

	(void)state;
	import_path(&r, KEYS_X, 0);
	animc_clip *clip = clip_named(&r, "mixed");
	assert_int_equal(process(&r, clip), ANIMC_OK);
	/* Rotation keyed at 0 and 1 s, translation at 0, 0.5 and 1 s: one
	 * timeline of three keys, the rotation slerped at 0.5 s. */
	const animc_channel *arm = channel_named(clip, "Arm");
	assert_int_equal(arm->key_count, 3);
	assert_true(arm->key_interval_s == 0.5f);
	assert_floats(arm->tracks[ANIMC_TRANSLATION].values, moves, 9, 0);
	assert_rotation(&arm->tracks[ANIMC_ROTATION].values[4], minus45);
	/* Hand's keys start at 0.5 s: it holds its first value from 0, where
	 * the original runtime would otherwise run the first interpolation
	 * backwards. */
	const animc_channel *h = channel_named(clip, "Hand");
	assert_int_equal(h->key_count, 3);
	assert_false(h->has_time);
	assert_true(h->key_interval_s == 0.5f);
	assert_floats(h->tracks[ANIMC_TRANSLATION].values, hand, 9, 0);
	release(&r);
}

static void x_declared_rate_converts_ticks_to_seconds(void **state)
{
	static const char *const names[] = { "rotate", "scale", "move", "matrix", "mixed" };
	static const float seconds[] = { 1, 1, 1, 2, 1 };
	imported r;

	(void)state;
	import_path(&r, KEYS_X, 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 5);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(r.set.clips[i]->name, names[i]);   /* the file's order */
		assert_true(r.set.clips[i]->ticks_per_second == 100);
		assert_true(r.set.clips[i]->duration_s == seconds[i]);
		assert_int_equal(process(&r, r.set.clips[i]), ANIMC_OK);
		for (uint32_t c = 0; c < r.set.clips[i]->channel_count; c++)
			assert_true(r.set.clips[i]->channels[c].duration_s == seconds[i]);
	}
	release(&r);
}

static void x_without_rate_assumes_4800_with_one_warning(void **state)
{
	imported r;

	(void)state;
	import_path(&r, NO_RATE_X, 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 2);
	/* One warning for the file, not one per clip. */
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	animc_clip *walk = clip_named(&r, "walk"), *idle = clip_named(&r, "idle");
	assert_true(walk->ticks_per_second == 4800 && idle->ticks_per_second == 4800);
	assert_true(walk->duration_s == 1.0f);   /* 4800 ticks */
	assert_true(idle->duration_s == 2.0f);   /* 9600 ticks */
	assert_int_equal(process(&r, walk), ANIMC_OK);
	assert_true(walk->channels[0].key_interval_s == 0.5f);   /* 2400 ticks */
	release(&r);
}

static void rate_option_overrides_declared_and_default_rates(void **state)
{
	imported r;

	(void)state;
	/* Declared 100, forced 50: every time doubles. */
	import_path(&r, KEYS_X, 50);
	assert_int_equal(r.status, ANIMC_OK);
	animc_clip *rotate = clip_named(&r, "rotate");
	assert_true(rotate->ticks_per_second == 50);
	assert_true(rotate->duration_s == 2.0f);
	assert_true(clip_named(&r, "matrix")->duration_s == 4.0f);
	assert_int_equal(process(&r, rotate), ANIMC_OK);
	assert_true(rotate->channels[0].key_interval_s == 1.0f);
	animc_clip *move = clip_named(&r, "move");
	assert_int_equal(process(&r, move), ANIMC_OK);
	assert_true(move->channels[0].times_s[1] == 0.5f && move->channels[0].times_s[2] == 2.0f);
	release(&r);
	/* None declared, forced 2400: no warning, half the default speed. */
	import_path(&r, NO_RATE_X, 2400);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_true(clip_named(&r, "walk")->duration_s == 2.0f);
	assert_true(clip_named(&r, "idle")->duration_s == 4.0f);
	release(&r);
}

static void memory_import_sniffs_the_format(void **state)
{
	size_t size;
	uint8_t *data = test_read_file(KEYS_X, &size);
	animc_import_request req = { NULL, data, size, NULL };
	imported r;

	(void)state;
	import_request(&r, &req);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 5);
	assert_true(clip_named(&r, "matrix")->duration_s == 2.0f);
	release(&r);
	/* Nothing to read is an error, not a crash. */
	req.size = 0;
	import_request(&r, &req);
	assert_int_not_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
	release(&r);
	free(data);
}

/* A source named by its path is the bytes given with it, not the file
 * read again: a file replaced after the build read and keyed it (a
 * checkout, an editor's save) gave its output the other version's keys. */
static void a_source_is_the_bytes_given_not_the_file_again(void **state)
{
	size_t size;
	uint8_t *data = test_read_file(KEYS_X, &size);
	char *dir = test_tmpdir("assimp-replaced"), *path = test_format("%s/keys.x", dir);
	animc_import_request req = { path, data, size, NULL };
	imported r;

	(void)state;
	/* What lies at the path now: a model with no animation at all. */
	{
		size_t other_size;
		uint8_t *other = test_read_file(STATIC_X, &other_size);

		assert_true(test_write_file(path, other, other_size));
		free(other);
	}
	import_request(&r, &req);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 5);
	assert_true(clip_named(&r, "matrix")->duration_s == 2.0f);
	release(&r);
	free(path), free(dir), free(data);
}

static void unreadable_file_reports_one_error(void **state)
{
	imported r;

	(void)state;
	import_path(&r, BROKEN_X, 0);
	assert_int_equal(r.status, ANIMC_ERR_PARSE);
	assert_int_equal(r.set.count, 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
	release(&r);
}

static void static_model_holds_no_animation(void **state)
{
	imported r;

	(void)state;
	import_path(&r, STATIC_X, 0);
	/* Not an error of the importer's: the caller decides (skip or fail). */
	assert_int_equal(r.status, ANIMC_ERR_NOT_FOUND);
	assert_int_equal(r.set.count, 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	release(&r);
}

/* ---------------------------------------------------- hand-built scenes */

static struct aiString ai_string(const char *s)
{
	struct aiString r;

	memset(&r, 0, sizeof r);
	r.length = (uint32_t)strlen(s);
	memcpy(r.data, s, r.length);
	return r;
}

static struct aiNodeAnim node_anim(const char *bone, struct aiVectorKey *pos, unsigned pos_count,
				   struct aiQuatKey *rot, unsigned rot_count)
{
	struct aiNodeAnim na;

	memset(&na, 0, sizeof na);
	na.mNodeName = ai_string(bone);
	na.mPositionKeys = pos;
	na.mNumPositionKeys = pos_count;
	na.mRotationKeys = rot;
	na.mNumRotationKeys = rot_count;
	return na;
}

static struct aiAnimation animation(const char *name, double duration, double rate,
				    struct aiNodeAnim **channels, unsigned count)
{
	struct aiAnimation a;

	memset(&a, 0, sizeof a);
	a.mName = ai_string(name);
	a.mDuration = duration;
	a.mTicksPerSecond = rate;
	a.mChannels = channels;
	a.mNumChannels = count;
	return a;
}

static void import_scene(imported *r, struct aiAnimation **anims, unsigned count, const char *format,
			 double forced_rate)
{
	struct aiScene scene;
	animc_import_options options = { .ticks_per_second = forced_rate };

	memset(&scene, 0, sizeof scene);
	scene.mAnimations = anims;
	scene.mNumAnimations = count;
	memset(r, 0, sizeof *r);
	r->diags.echo = getenv("ANIMC_TEST_ECHO") != NULL;
	r->sink = test_diag_sink(&r->diags, "scene");
	r->status = animc_assimp_scene_import(&scene, format, &options, &r->set, &r->sink);
}

static void other_formats_without_a_rate_assume_25(void **state)
{
	struct aiVectorKey pos[2] = { { 0, { 0, 0, 0 } }, { 50, { 1, 0, 0 } } };
	struct aiNodeAnim na = node_anim("Hips", pos, 2, NULL, 0), *channels[] = { &na };
	/* 0 is what Assimp reports for "not declared"; BVH with a frame time
	 * of 0 reports infinity, and FBX may report -1. */
	struct aiAnimation zero = animation("zero", 50, 0, channels, 1);
	struct aiAnimation inf = animation("inf", 50, INFINITY, channels, 1);
	struct aiAnimation minus = animation("minus", 50, -1, channels, 1);
	struct aiAnimation *anims[] = { &zero, &inf, &minus };
	imported r;

	(void)state;
	import_scene(&r, anims, 3, "bvh", 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	for (int i = 0; i < 3; i++) {
		assert_true(r.set.clips[i]->ticks_per_second == 25);
		assert_true(r.set.clips[i]->duration_s == 2.0f);
	}
	release(&r);
	/* The same scene read as .X: 4800. */
	import_scene(&r, anims, 1, "x", 0);
	assert_true(r.set.clips[0]->ticks_per_second == 4800);
	release(&r);
	/* Forced: no warning. */
	import_scene(&r, anims, 3, NULL, 10);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_true(r.set.clips[2]->duration_s == 5.0f);
	release(&r);
}

static void fbx_bvh_and_md5_ticks_are_frames(void **state)
{
	static const struct {
		const char *format;
		double forced, frame_rate;
	} cases[] = {
		{ "fbx", 0, 30 }, { "bvh", 0, 30 }, { "md5anim", 0, 30 }, { "fbx", 60, 60 },
		{ "x", 0, 0 }, { "dae", 0, 0 }, { "gltf", 0, 0 }, { NULL, 0, 0 },
	};
	/* Keys 5 ticks apart: a take keyed every fifth frame. */
	struct aiVectorKey pos[3] = { { 0, { 0, 0, 0 } }, { 5, { 1, 0, 0 } }, { 10, { 2, 0, 0 } } };
	struct aiNodeAnim na = node_anim("Hips", pos, 3, NULL, 0), *channels[] = { &na };
	struct aiAnimation take = animation("take", 10, 30, channels, 1), *anims[] = { &take };

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		imported r;

		import_scene(&r, anims, 1, cases[i].format, cases[i].forced);
		assert_int_equal(r.status, ANIMC_OK);
		assert_true(r.set.clips[0]->frame_rate == cases[i].frame_rate);
		/* --split counts frames at it (without it, at the prepared keys' spacing). */
		if (cases[i].frame_rate > 0)
			assert_true(animc_clip_frame_rate(r.set.clips[0]) == cases[i].frame_rate);
		release(&r);
	}
}

static void quaternions_become_xyzw_of_unit_length(void **state)
{
	/* w x y z as Assimp stores them: an asymmetric one, and one of
	 * length 2 (the rotation of its unit multiple). */
	struct aiQuatKey rot[2] = { { 0, { 0.1f, 0.2f, 0.3f, 0.9f } }, { 10, { 0.0f, 2.0f, 0.0f, 0.0f } } };
	struct aiNodeAnim na = node_anim("Arm", NULL, 0, rot, 2), *channels[] = { &na };
	struct aiAnimation a = animation("turn", 10, 10, channels, 1), *anims[] = { &a };
	double len = sqrt(0.01 + 0.04 + 0.09 + 0.81);
	const double first[4] = { 0.2 / len, 0.3 / len, 0.9 / len, 0.1 / len };
	static const double second[4] = { 1, 0, 0, 0 };
	imported r;

	(void)state;
	import_scene(&r, anims, 1, NULL, 0);
	assert_int_equal(r.status, ANIMC_OK);
	const animc_track *t = &r.set.clips[0]->channels[0].tracks[ANIMC_ROTATION];
	assert_int_equal(t->value_count, 2);
	assert_floats(&t->values[0], first, 4, 1e-6);
	assert_floats(&t->values[4], second, 4, 0);
	/* The one not of unit length is said. */
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_int_equal(process(&r, r.set.clips[0]), ANIMC_OK);
	release(&r);
}

static void bad_keys_fail_their_clip_only(void **state)
{
	struct aiVectorKey good[2] = { { 0, { 0, 0, 0 } }, { 10, { 1, 1, 1 } } };
	struct aiVectorKey nan_key[2] = { { 0, { 0, 0, 0 } }, { 10, { NAN, 1, 1 } } };
	struct aiVectorKey nan_time[2] = { { 0, { 0, 0, 0 } }, { NAN, { 1, 1, 1 } } };
	struct aiQuatKey zero[2] = { { 0, { 1, 0, 0, 0 } }, { 10, { 0, 0, 0, 0 } } };
	struct aiNodeAnim c_good = node_anim("Arm", good, 2, NULL, 0), *p_good[] = { &c_good };
	struct aiNodeAnim c_nan = node_anim("Arm", nan_key, 2, NULL, 0), *p_nan[] = { &c_nan };
	struct aiNodeAnim c_nant = node_anim("Arm", nan_time, 2, NULL, 0), *p_nant[] = { &c_nant };
	struct aiNodeAnim c_zero = node_anim("Arm", NULL, 0, zero, 2), *p_zero[] = { &c_zero };
	struct aiAnimation a_good = animation("good", 10, 10, p_good, 1);
	struct aiAnimation a_nan = animation("nan", 10, 10, p_nan, 1);
	struct aiAnimation a_nant = animation("nan_time", 10, 10, p_nant, 1);
	struct aiAnimation a_zero = animation("zero", 10, 10, p_zero, 1);
	struct aiAnimation a_dur = animation("nan_duration", NAN, 10, p_good, 1);
	struct aiAnimation *anims[] = { &a_good, &a_nan, &a_nant, &a_zero, &a_dur };
	imported r;

	(void)state;
	import_scene(&r, anims, 5, NULL, 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 5);
	assert_int_equal(process(&r, r.set.clips[0]), ANIMC_OK);
	for (uint32_t i = 1; i < r.set.count; i++) {
		size_t errors = test_diags_count(&r.diags, ANIMC_ERROR);

		assert_int_equal(process(&r, r.set.clips[i]), ANIMC_ERR_INVALID);
		assert_true(test_diags_count(&r.diags, ANIMC_ERROR) > errors);
	}
	release(&r);
}

static void unsorted_and_repeated_keys_are_repaired_with_warnings(void **state)
{
	/* Out of order, and two keys at tick 10: the later one wins. */
	struct aiVectorKey pos[4] = {
		{ 20, { 2, 0, 0 } }, { 0, { 0, 0, 0 } }, { 10, { 7, 0, 0 } }, { 10, { 1, 0, 0 } },
	};
	struct aiNodeAnim na = node_anim("Arm", pos, 4, NULL, 0), *channels[] = { &na };
	struct aiAnimation a = animation("walk", 20, 10, channels, 1), *anims[] = { &a };
	static const double want[9] = { 0, 0, 0, 1, 0, 0, 2, 0, 0 };
	imported r;

	(void)state;
	import_scene(&r, anims, 1, NULL, 0);
	assert_int_equal(process(&r, r.set.clips[0]), ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 2);   /* sorted, duplicate */
	const animc_channel *arm = &r.set.clips[0]->channels[0];
	assert_int_equal(arm->key_count, 3);
	assert_true(arm->key_interval_s == 1.0f);
	assert_floats(arm->tracks[ANIMC_TRANSLATION].values, want, 9, 0);
	release(&r);
}

/*
 * An FBX take or a LightWave scene with curve keys before its start and
 * past its end: after Assimp's take offset, times below 0 and beyond the
 * duration.  The clip is the take, 0 to its duration: the ends
 * interpolated, the keys outside dropped, one warning counting them.
 */
static void keys_outside_the_take_are_trimmed_to_it(void **state)
{
	/* 25 ticks per second, a take of 50 ticks (2 s); keys from -25 to 75. */
	struct aiVectorKey pos[4] = {
		{ -25, { -1, 0, 0 } }, { 0, { 0, 0, 0 } }, { 50, { 2, 0, 0 } }, { 75, { 5, 0, 0 } },
	};
	struct aiVectorKey shifted[2] = { { -50, { 0, 0, 0 } }, { 25, { 3, 0, 0 } } };
	struct aiQuatKey rot[2] = { { -25, { 1, 0, 0, 0 } }, { 25, { 0, 0, 0, 1 } } };
	struct aiNodeAnim arm = node_anim("Arm", pos, 4, rot, 2), leg = node_anim("Leg", shifted, 2, NULL, 0);
	struct aiNodeAnim *channels[] = { &arm, &leg };
	struct aiAnimation take = animation("take", 50, 25, channels, 2), *anims[] = { &take };
	float tr[3], ro[4], sc[3];
	imported r;

	(void)state;
	import_scene(&r, anims, 1, "fbx", 0);
	assert_int_equal(r.status, ANIMC_OK);
	animc_clip *clip = r.set.clips[0];
	assert_int_equal(process(&r, clip), ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	/* 1 + 1 (Arm) + 1 (Arm rotation) + 1 (Leg): one note (a take's
	 * pre-roll needs no action), no warning. */
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_NOTE), 1);
	const test_diag *w = test_diags_first(&r.diags, ANIMC_NOTE);
	assert_non_null(strstr(w->message, "4 keys"));
	assert_non_null(strstr(w->message, "'take'"));
	assert_true(clip->duration_s == 2.0f);

	/* Through the writer and the loader: sampled as Assimp's own keys. */
	uint8_t *bytes;
	size_t size;
	animrt_clip *out;
	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, &size, NULL), ANIMC_OK);
	assert_int_equal(animrt_open(bytes, size, &out, NULL), ANIMRT_OK);
	const animrt_sequence *s_arm = &out->sequences[0], *s_leg = &out->sequences[1];
	assert_string_equal(s_arm->bone, "Arm");
	for (int k = 0; k <= 8; k++) {
		float t = 0.25f * (float)k;
		double want_x = t <= 2 ? t : 2, leg_x = 2 + t;   /* Leg: 0 at -2 s to 3 at 1 s */

		animrt_sequence_sample(s_arm, t, ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
		test_assert_near(tr[0], want_x, 1e-6);
		animrt_sequence_sample(s_leg, t, ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
		test_assert_near(tr[0], t < 1 ? leg_x : 3, 1e-6);
	}
	/* Rotation: halfway (at 0 s) between w=1 and x=1 is 90 degrees. */
	animrt_sequence_sample(s_arm, 0, ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
	test_assert_near(fabs(ro[2]), S45, 1e-6);
	test_assert_near(fabs(ro[3]), S45, 1e-6);
	animrt_close(out);
	free(bytes);
	release(&r);
}

/* Half-Life MDL files repeat sequence names: every clip is written. */
static void clips_sharing_a_name_get_suffixes(void **state)
{
	struct aiVectorKey pos[2] = { { 0, { 0, 0, 0 } }, { 10, { 1, 0, 0 } } };
	struct aiNodeAnim na = node_anim("Hips", pos, 2, NULL, 0), *channels[] = { &na };
	struct aiAnimation a = animation("arms_up", 10, 10, channels, 1);
	struct aiAnimation b = animation("walk", 10, 10, channels, 1);
	struct aiAnimation *anims[] = { &a, &b, &a, &a };
	imported r;

	(void)state;
	import_scene(&r, anims, 4, "mdl", 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 4);
	assert_string_equal(r.set.clips[0]->name, "arms_up");
	assert_string_equal(r.set.clips[1]->name, "walk");
	assert_string_equal(r.set.clips[2]->name, "arms_up.1");
	assert_string_equal(r.set.clips[3]->name, "arms_up.2");
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_non_null(strstr(test_diags_first(&r.diags, ANIMC_WARNING)->message, "'arms_up.2'"));
	release(&r);
}

static void a_bone_animated_twice_keeps_the_last_channel(void **state)
{
	struct aiVectorKey first[1] = { { 0, { 1, 0, 0 } } }, last[1] = { { 0, { 2, 0, 0 } } };
	struct aiNodeAnim a1 = node_anim("Arm", first, 1, NULL, 0);
	struct aiNodeAnim leg = node_anim("Leg", first, 1, NULL, 0);
	struct aiNodeAnim a2 = node_anim("Arm", last, 1, NULL, 0);
	struct aiNodeAnim *channels[] = { &a1, &leg, &a2 };
	struct aiAnimation a = animation("walk", 0, 10, channels, 3), *anims[] = { &a };
	imported r;

	(void)state;
	import_scene(&r, anims, 1, NULL, 0);
	assert_int_equal(r.status, ANIMC_OK);
	animc_clip *clip = r.set.clips[0];
	assert_int_equal(clip->channel_count, 2);
	assert_string_equal(clip->channels[0].bone, "Leg");
	assert_string_equal(clip->channels[1].bone, "Arm");
	assert_true(clip->channels[1].tracks[ANIMC_TRANSLATION].values[0] == 2.0f);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	release(&r);
}

static void names_that_are_not_utf8_are_read_as_latin1(void **state)
{
	struct aiVectorKey pos[1] = { { 0, { 1, 0, 0 } } };
	struct aiNodeAnim na = node_anim("Kn\xf6" "chel", pos, 1, NULL, 0);
	struct aiNodeAnim ok = node_anim("Fu\xc3\x9f", pos, 1, NULL, 0), *both[] = { &na, &ok };
	struct aiAnimation a = animation("Gr\xfc\xdf" "e", 0, 10, both, 2), *anims[] = { &a };
	imported r;

	(void)state;
	import_scene(&r, anims, 1, NULL, 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_string_equal(r.set.clips[0]->name, "Gr\xc3\xbc\xc3\x9f" "e");
	assert_string_equal(r.set.clips[0]->channels[0].bone, "Kn\xc3\xb6" "chel");
	assert_string_equal(r.set.clips[0]->channels[1].bone, "Fu\xc3\x9f");   /* UTF-8 kept */
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 2);
	release(&r);
}

static void mesh_animations_are_left_out(void **state)
{
	struct aiAnimation morph = animation("blink", 10, 10, NULL, 0), *anims[] = { &morph };
	imported r;

	(void)state;
	morph.mNumMorphMeshChannels = 1;
	import_scene(&r, anims, 1, NULL, 0);
	assert_int_equal(r.status, ANIMC_ERR_NOT_FOUND);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_NOTE), 1);
	release(&r);
	/* And a scene without animations at all. */
	import_scene(&r, NULL, 0, NULL, 0);
	assert_int_equal(r.status, ANIMC_ERR_NOT_FOUND);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	release(&r);
}

/* ------------------------------------------------------------ the CLI */

static void corpus_fbx_channels_name_real_bones(void **state)
{
	static const char *const files[] = { "animation_with_skeleton.fbx", "huesitos.fbx" };
	static const double frame_rates[] = { 24, 25 };   /* their time modes */

	(void)state;
	TEST_NEEDS_CORPUS();
	for (size_t f = 0; f < 2; f++) {
		char *path = test_format("%s/assimp/%s", test_corpus_dir(), files[f]);
		imported r;

		import_path(&r, path, 0);
		assert_int_equal(r.status, ANIMC_OK);
		for (uint32_t i = 0; i < r.set.count; i++)
			assert_true(r.set.clips[i]->frame_rate == frame_rates[f]);
		for (uint32_t i = 0; i < r.set.count; i++)
			for (uint32_t c = 0; c < r.set.clips[i]->channel_count; c++)
				assert_null(strstr(r.set.clips[i]->channels[c].bone, "$AssimpFbx$"));
		release(&r);
		free(path);
	}
}

/* ------------------------------------------------------- files it names */

/* The files an import reads beside its source, as the build engine hears
 * of them. */
typedef struct read_files {
	char paths[8][PATH_BYTES];
	unsigned count;
} read_files;

static void note_read(void *user, const char *path)
{
	read_files *r = user;

	if (r->count < 8)
		snprintf(r->paths[r->count++], PATH_BYTES, "%s", path);
}

static void import_noting_reads(imported *r, const char *path, read_files *reads)
{
	animc_import_options options = { .on_file_read = note_read, .on_file_read_user = reads };
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	animc_import_request req = { path, data, size, &options };

	memset(reads, 0, sizeof *reads);
	import_request(r, &req);
	free(data);
}

static void ogre_skeleton_beside_the_mesh_is_read(void **state)
{
	read_files reads;
	imported r;

	(void)state;
	import_noting_reads(&r, CONFINE "/in/inside.mesh.xml", &reads);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	assert_string_equal(r.set.clips[0]->name, "InsideTake");
	/* Assimp opens it more than once. */
	assert_true(reads.count > 0);
	for (unsigned i = 0; i < reads.count; i++)
		assert_non_null(strstr(reads.paths[i], "/in/inside.skeleton.xml"));
	release(&r);
}

/* A file a source names that lies outside the source's folder is not
 * opened: its animation is not compiled, it joins no key, a warning names
 * each name Assimp asked for there, once, whether a file of that name is
 * there or not (an Ogre mesh's skeleton: the binary name, then with .xml;
 * an .obj's material library, then the name its reader falls back to). */
static void files_named_outside_the_source_folder_are_not_read(void **state)
{
	static const char *const sources[] = { CONFINE "/in/outside.mesh.xml",
					       CONFINE "/in/outside.obj" };
	static const size_t warnings[] = { 2, 2 };
	read_files reads;
	imported r;

	(void)state;
	for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
		import_noting_reads(&r, sources[i], &reads);
		assert_int_equal(r.status, ANIMC_ERR_NOT_FOUND);
		assert_int_equal(r.set.count, 0);
		assert_int_equal(reads.count, 0);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), warnings[i]);
		for (size_t k = 0; k < warnings[i]; k++)
			assert_non_null(strstr(r.diags.items[k].message, "outside"));
		release(&r);
	}
}

/* A source that names its own folder as a file (an .obj's "mtllib .") is
 * told so: the folder is not read, and is no file outside it either. */
static void the_source_folder_named_as_a_file_is_not_read(void **state)
{
	char *dir = test_tmpdir("assimp-folder"), *obj = test_format("%s/folder.obj", dir);
	char *real = realpath(dir, NULL);
	const char *text = "mtllib .\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
	read_files reads;
	imported r;

	(void)state;
	assert_non_null(real);
	assert_true(test_write_file(obj, text, strlen(text)));
	import_noting_reads(&r, obj, &reads);
	assert_int_equal(reads.count, 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	char *want = test_format("'%s/.' resolves to '%s', the source's folder, not a file: not read (only files "
				 "beside the source are read)", dir, real);
	assert_string_equal(r.diags.items[0].message, want);
	release(&r);
	free(want);
	free(real);
	free(obj);
	free(dir);
}

/* A symbolic link beside the source that leads out of its folder counts
 * as outside, as it does for glTF buffers. */
static void symlink_out_of_the_source_folder_is_not_read(void **state)
{
	char *dir = test_tmpdir("assimp-link"), *mesh = test_format("%s/link.mesh.xml", dir);
	char *link = test_format("%s/link.skeleton.xml", dir), *cwd = getcwd(NULL, 0);
	char *to = test_format("%s/" CONFINE "/outside.skeleton.xml", cwd);
	size_t size;
	uint8_t *data = test_read_file(CONFINE "/in/link.mesh.xml", &size);
	read_files reads;
	imported r;

	(void)state;
	assert_true(test_write_file(mesh, data, size));
	assert_int_equal(symlink(to, link), 0);
	import_noting_reads(&r, mesh, &reads);
	assert_int_equal(r.status, ANIMC_ERR_NOT_FOUND);
	assert_int_equal(reads.count, 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	release(&r);
	free(data);
	free(to);
	free(cwd);
	free(link);
	free(mesh);
	free(dir);
}

/* A file named through a symbolic link beside the source that leads out
 * of its folder is said outside whether it is there or not: nothing past
 * the link's far end is looked at.  realpath() looked it up first: a
 * skeleton there was said outside, one not there was not said at all. */
static void a_file_through_a_link_out_is_outside_there_or_not(void **state)
{
	char *dir = test_tmpdir("assimp-link-out"), *cwd = getcwd(NULL, 0);
	char *real = test_format("%s/%s", cwd, dir), *mesh = test_format("%s/in/m.mesh.xml", dir);
	static const char *const names[] = { "there", "absent" };
	read_files reads;
	imported r;

	(void)state;
	test_sh("mkdir -p '%s/in' '%s/secret' && ln -s ../secret '%s/in/link' && "
		"cp " CONFINE "/in/inside.skeleton.xml '%s/secret/there.skeleton.xml'", dir, dir, dir, dir);
	for (size_t i = 0; i < 2; i++) {
		char *text = test_format("<mesh><submeshes/><skeletonlink name=\"link/%s.skeleton\"/></mesh>\n",
					 names[i]);
		char *want = test_format("'%s/in/link/%s.skeleton.xml' resolves to '%s/secret/%s.skeleton.xml', "
					 "outside the source's folder", dir, names[i], real, names[i]);
		bool found = false;

		assert_true(test_write_file(mesh, text, strlen(text)));
		import_noting_reads(&r, mesh, &reads);
		assert_int_equal(reads.count, 0);
		for (size_t k = 0; k < r.diags.count; k++)
			found = found || strstr(r.diags.items[k].message, want);
		if (!found)
			fail_msg("%s: no \"%s\" among %zu messages", names[i], want, r.diags.count);
		release(&r);
		free(want), free(text);
	}
	free(mesh), free(real), free(cwd), free(dir);
}

/* Given from memory, a source has no folder: no file it names is read,
 * not even one beside the current folder (a warning names it). */
static void memory_import_reads_no_file_it_names(void **state)
{
	size_t size;
	uint8_t *data = test_read_file(CONFINE "/in/outside.obj", &size);
	char *cwd = getcwd(NULL, 0);
	const struct aiScene *scene;
	imported r;

	(void)state;
	memset(&r, 0, sizeof r);
	r.sink = test_diag_sink(&r.diags, NULL);
	/* From where its "../outside.mtl" exists. */
	assert_int_equal(chdir(CONFINE "/in"), 0);
	scene = animc_assimp_scene_open(NULL, data, size, "obj", &r.sink);
	assert_int_equal(chdir(cwd), 0);
	assert_non_null(scene);
	aiReleaseImport(scene);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_non_null(strstr(r.diags.items[0].message, "outside.mtl"));
	release(&r);
	free(cwd);
	free(data);
}

/* Given from memory, a file the source names is refused as named whether
 * it is there or not: it was looked up, and one there was warned of, one
 * not there was not (here the build's folder, where no "../outside.mtl"
 * lies). */
static void memory_import_refuses_a_file_it_names_there_or_not(void **state)
{
	size_t size;
	uint8_t *data = test_read_file(CONFINE "/in/outside.obj", &size);
	const struct aiScene *scene;
	imported r;

	(void)state;
	assert_false(test_file_exists("../outside.mtl"));
	memset(&r, 0, sizeof r);
	r.sink = test_diag_sink(&r.diags, NULL);
	scene = animc_assimp_scene_open(NULL, data, size, "obj", &r.sink);
	assert_non_null(scene);
	aiReleaseImport(scene);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_string_equal(r.diags.items[0].message, "'../outside.mtl' not read: the source was given from memory, "
			    "without a folder");
	release(&r);
	free(data);
}

/* Two files read again and again on four threads at once: each read gets
 * its own file's messages.  Assimp's logger and last error are one for the
 * process; read at once, a good file was failed with a broken one's
 * error, and one read freed the logger under another (a crash). */
typedef struct read_on_thread {
	const char *path;
	const uint8_t *data;
	size_t size;
	atomic_int *wrong;
} read_on_thread;

static void *read_again_and_again(void *arg)
{
	const read_on_thread *t = arg;
	bool is_broken = strcmp(t->path, BROKEN_X) == 0;

	for (int i = 0; i < 400; i++) {
		animc_import_request req = { t->path, t->data, t->size, NULL };
		animc_clip_set set = { 0 };
		animc_diag_sink sink = { 0 };
		animc_status status = animc_importer_assimp.import(&req, &set, &sink);

		if (is_broken ? status == ANIMC_OK || sink.error_count != 1 :
				status != ANIMC_OK || sink.error_count || sink.warning_count)
			atomic_fetch_add(t->wrong, 1);
		animc_clip_set_release(&set);
	}
	return NULL;
}

static void reads_on_threads_at_once_keep_their_own_messages(void **state)
{
	atomic_int wrong = 0;
	size_t keys_size, broken_size;
	uint8_t *keys = test_read_file(KEYS_X, &keys_size), *broken = test_read_file(BROKEN_X, &broken_size);
	read_on_thread reads[4] = {
		{ KEYS_X, keys, keys_size, &wrong }, { BROKEN_X, broken, broken_size, &wrong },
		{ KEYS_X, keys, keys_size, &wrong }, { BROKEN_X, broken, broken_size, &wrong },
	};
	pthread_t threads[4];

	(void)state;
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&threads[i], NULL, read_again_and_again, &reads[i]), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(threads[i], NULL);
	assert_int_equal(atomic_load(&wrong), 0);
	free(keys), free(broken);
}

/* A binary .X token (type, then a 32-bit count or length and what it
 * counts) appended to `b` at *n. */
static void bin_token(uint8_t *b, size_t *n, uint16_t type, const void *body, uint32_t count, size_t body_bytes)
{
	b[(*n)++] = (uint8_t)type;
	b[(*n)++] = (uint8_t)(type >> 8);
	if (type > 7)
		return;
	for (int i = 0; i < 4; i++)
		b[(*n)++] = (uint8_t)(count >> (8 * i));
	memcpy(b + *n, body, body_bytes);
	*n += body_bytes;
}

static void bin_name(uint8_t *b, size_t *n, const char *name)
{
	bin_token(b, n, 1, name, (uint32_t)strlen(name), strlen(name));
}

/* A binary .X file: a frame Root, and a set Walk moving it from 0 0 0 to
 * 1 0 0 in 4800 ticks.  Its size in *size; `b` holds 512 bytes. */
static void binary_x(uint8_t *b, size_t *size)
{
	static const float rest[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	static const float from[3] = { 0, 0, 0 }, to[3] = { 1, 0, 0 };
	static const uint32_t rate = 4800, head[4] = { 2, 2, 0, 3 }, second[2] = { 4800, 3 };
	size_t n = 0;

	memcpy(b, "xof 0303bin 0032", 16);
	n = 16;
	bin_name(b, &n, "AnimTicksPerSecond");
	bin_token(b, &n, 0x0a, NULL, 0, 0);
	bin_token(b, &n, 6, &rate, 1, 4);
	bin_token(b, &n, 0x0b, NULL, 0, 0);
	bin_name(b, &n, "Frame");
	bin_name(b, &n, "Root");
	bin_token(b, &n, 0x0a, NULL, 0, 0);
	bin_name(b, &n, "FrameTransformMatrix");
	bin_token(b, &n, 0x0a, NULL, 0, 0);
	bin_token(b, &n, 7, rest, 16, sizeof rest);
	bin_token(b, &n, 0x0b, NULL, 0, 0);
	bin_token(b, &n, 0x0b, NULL, 0, 0);
	bin_name(b, &n, "AnimationSet");
	bin_name(b, &n, "Walk");
	bin_token(b, &n, 0x0a, NULL, 0, 0);
	bin_name(b, &n, "Animation");
	bin_token(b, &n, 0x0a, NULL, 0, 0);
	bin_token(b, &n, 0x0a, NULL, 0, 0);
	bin_name(b, &n, "Root");
	bin_token(b, &n, 0x0b, NULL, 0, 0);
	bin_name(b, &n, "AnimationKey");
	bin_token(b, &n, 0x0a, NULL, 0, 0);
	bin_token(b, &n, 6, head, 4, sizeof head);
	bin_token(b, &n, 7, from, 3, sizeof from);
	bin_token(b, &n, 6, second, 2, sizeof second);
	bin_token(b, &n, 7, to, 3, sizeof to);
	for (int i = 0; i < 3; i++)
		bin_token(b, &n, 0x0b, NULL, 0, 0);
	*size = n;
}

/*
 * Assimp names no place in a binary .X file: its errors had no line and no
 * byte, where a text .X file's have a line.  Where the file's tokens break
 * off (one running past the end, a type that is no token) or end with
 * blocks open, the error says the byte.  A whole file compiles.
 */
static void x_binary_errors_name_the_byte(void **state)
{
	static const struct {
		size_t cut;      /* bytes kept; 0: all, with byte 40 damaged */
		const char *words;
	} cases[] = {
		{ 100, "(its binary tokens break off at byte 77: a name of 24 bytes runs past the end of the file, "
		       "at byte 100: cut short?)" },
		{ 320, "(its binary tokens break off at byte 314: a list of floats of 16 bytes runs past the end "
		       "of the file, at byte 320: cut short?)" },
		{ 300, "(its binary tokens end with the file, at byte 300, inside 3 open blocks: cut short?)" },
		{ 40, "(its binary tokens end with the file, at byte 40, after a name that opens no block: cut "
		      "short?)" },
		{ 0, "(its binary tokens break off at byte 40: 0x0077 is no token of the binary .X format" },
	};
	uint8_t b[512];
	size_t size;
	imported r;

	(void)state;
	binary_x(b, &size);
	assert_int_equal(size, 338);
	{
		animc_import_request req = { NULL, b, size, NULL };

		import_request(&r, &req);
		assert_int_equal(r.status, ANIMC_OK);
		release(&r);
	}
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		uint8_t damaged[512];
		animc_import_request req = { NULL, damaged, cases[c].cut ? cases[c].cut : size, NULL };
		const test_diag *e;

		memcpy(damaged, b, size);
		if (!cases[c].cut)
			damaged[40] = 0x77;
		import_request(&r, &req);
		assert_int_not_equal(r.status, ANIMC_OK);
		e = test_diags_first(&r.diags, ANIMC_ERROR);
		assert_non_null(e);
		assert_true(strncmp(e->message, "Assimp cannot read this file: ", 30) == 0);
		if (!strstr(e->message, cases[c].words))
			fail_msg("case %zu: no '%s' in: %s", c, cases[c].words, e->message);
		assert_int_equal(e->line, 0);
		release(&r);
	}
}

/*
 * A binary .X file whose tokens hold together but whose AnimationKey
 * Assimp cannot read (a key type it does not know, a value count not the
 * key type's, keys past the closing brace, numbers left before it) got
 * Assimp's message alone, with no place.  The error says the byte of the
 * AnimationKey, and of the number at fault.
 */
static void x_binary_key_errors_name_the_byte(void **state)
{
	static const struct {
		uint32_t field, value;   /* which number of the key's head list, made what */
		const char *words;
	} cases[] = {
		{ 0, 7, "Unknown key type 7 in animation. (in the AnimationKey at byte 240: its key type, at byte 266, "
			"is 7, where 0 is rotation, 1 scale, 2 position, 3 and 4 matrix)" },
		{ 3, 2, "Invalid number of arguments for vector key in animation (in the AnimationKey at byte 240: key "
			"1's value count, read at byte 278, is 2, where a position key has 3)" },
		{ 1, 3, "(in the AnimationKey at byte 240: it says 3 keys, and its numbers end within key 3, at its "
			"closing brace (byte 332))" },
		{ 1, 1, "Closing brace expected. (in the AnimationKey at byte 240: its 1 key ends at byte 300, and "
			"numbers are left before its closing brace)" },
	};
	static const uint8_t head[] = { 6, 0, 4, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0 };
	uint8_t b[512];
	size_t size;
	imported r;

	(void)state;
	binary_x(b, &size);
	const uint8_t *at = memmem(b, size, head, sizeof head);

	assert_non_null(at);
	assert_int_equal(at - b, 260);
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		uint8_t damaged[512];
		animc_import_request req = { NULL, damaged, size, NULL };
		const test_diag *e;

		memcpy(damaged, b, size);
		damaged[(at - b) + 6 + 4 * cases[c].field] = (uint8_t)cases[c].value;
		import_request(&r, &req);
		assert_int_not_equal(r.status, ANIMC_OK);
		e = test_diags_first(&r.diags, ANIMC_ERROR);
		assert_non_null(e);
		if (strncmp(e->message, "Assimp cannot read this file: ", 30) != 0 || !strstr(e->message, cases[c].words))
			fail_msg("case %zu: no '%s' in: %s", c, cases[c].words, e->message);
		release(&r);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reads_on_threads_at_once_keep_their_own_messages),
	cmocka_unit_test(probe_prefers_content_and_leaves_other_xml_alone),
	cmocka_unit_test(x_rotation_keys),
	cmocka_unit_test(x_binary_errors_name_the_byte),
	cmocka_unit_test(x_binary_key_errors_name_the_byte),
	cmocka_unit_test(x_scale_keys),
	cmocka_unit_test(x_position_keys_at_uneven_times),
	cmocka_unit_test(x_matrix_keys_decompose),
	cmocka_unit_test(x_tracks_with_different_keys_share_one_timeline),
	cmocka_unit_test(x_rotation_keys_not_of_unit_length_turn_as_their_unit_multiple),
	cmocka_unit_test(x_rotation_key_of_no_length_fails_at_its_line),
	cmocka_unit_test(x_rotation_keys_beside_matrix_keys_give_the_rotation),
	cmocka_unit_test(x_animation_naming_no_frame_is_left_out),
	cmocka_unit_test(x_mirrored_matrix_key_keeps_its_mirror),
	cmocka_unit_test(x_matrix_keys_no_split_holds_fail_at_their_line),
	cmocka_unit_test(x_sheared_matrix_key_is_said_as_a_shear),
	cmocka_unit_test(x_error_lines_are_the_files_whatever_the_line_ends),
	cmocka_unit_test(x_unreadable_key_values_are_said_at_their_key),
	cmocka_unit_test(x_empty_animation_set_is_said),
	cmocka_unit_test(x_declared_rate_converts_ticks_to_seconds),
	cmocka_unit_test(x_without_rate_assumes_4800_with_one_warning),
	cmocka_unit_test(rate_option_overrides_declared_and_default_rates),
	cmocka_unit_test(memory_import_sniffs_the_format),
	cmocka_unit_test(a_source_is_the_bytes_given_not_the_file_again),
	cmocka_unit_test(unreadable_file_reports_one_error),
	cmocka_unit_test(static_model_holds_no_animation),
	cmocka_unit_test(other_formats_without_a_rate_assume_25),
	cmocka_unit_test(fbx_bvh_and_md5_ticks_are_frames),
	cmocka_unit_test(quaternions_become_xyzw_of_unit_length),
	cmocka_unit_test(bad_keys_fail_their_clip_only),
	cmocka_unit_test(unsorted_and_repeated_keys_are_repaired_with_warnings),
	cmocka_unit_test(keys_outside_the_take_are_trimmed_to_it),
	cmocka_unit_test(clips_sharing_a_name_get_suffixes),
	cmocka_unit_test(a_bone_animated_twice_keeps_the_last_channel),
	cmocka_unit_test(names_that_are_not_utf8_are_read_as_latin1),
	cmocka_unit_test(mesh_animations_are_left_out),
	cmocka_unit_test(corpus_fbx_channels_name_real_bones),
	cmocka_unit_test(ogre_skeleton_beside_the_mesh_is_read),
	cmocka_unit_test(files_named_outside_the_source_folder_are_not_read),
	cmocka_unit_test(symlink_out_of_the_source_folder_is_not_read),
	cmocka_unit_test(a_file_through_a_link_out_is_outside_there_or_not),
	cmocka_unit_test(the_source_folder_named_as_a_file_is_not_read),
	cmocka_unit_test(memory_import_reads_no_file_it_names),
	cmocka_unit_test(memory_import_refuses_a_file_it_names_there_or_not),
};

ANIMC_TEST_GROUP(tests);
