/*
 * assimp_test.c - the Assimp importer: hand-checkable .X files
 * (testdata/assimp), hand-built scenes for what no small file can say (tick
 * rates of other formats, NaN keys, zero quaternions, negative times), the
 * command line around it, and the corpus sampled against Assimp's own keys.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include "test_support.h"
#include <animc/animrt.h>
#include "assimp_internal.h"

#define KEYS_X "testdata/assimp/keys.x"
#define NO_RATE_X "testdata/assimp/no_rate.x"
#define STATIC_X "testdata/assimp/static.x"
#define BROKEN_X "testdata/assimp/broken.x"

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
	struct aiVectorKey negative[2] = { { -5, { 0, 0, 0 } }, { 10, { 1, 1, 1 } } };
	struct aiVectorKey nan_time[2] = { { 0, { 0, 0, 0 } }, { NAN, { 1, 1, 1 } } };
	struct aiQuatKey zero[2] = { { 0, { 1, 0, 0, 0 } }, { 10, { 0, 0, 0, 0 } } };
	struct aiNodeAnim c_good = node_anim("Arm", good, 2, NULL, 0), *p_good[] = { &c_good };
	struct aiNodeAnim c_nan = node_anim("Arm", nan_key, 2, NULL, 0), *p_nan[] = { &c_nan };
	struct aiNodeAnim c_neg = node_anim("Arm", negative, 2, NULL, 0), *p_neg[] = { &c_neg };
	struct aiNodeAnim c_nant = node_anim("Arm", nan_time, 2, NULL, 0), *p_nant[] = { &c_nant };
	struct aiNodeAnim c_zero = node_anim("Arm", NULL, 0, zero, 2), *p_zero[] = { &c_zero };
	struct aiAnimation a_good = animation("good", 10, 10, p_good, 1);
	struct aiAnimation a_nan = animation("nan", 10, 10, p_nan, 1);
	struct aiAnimation a_neg = animation("negative", 10, 10, p_neg, 1);
	struct aiAnimation a_nant = animation("nan_time", 10, 10, p_nant, 1);
	struct aiAnimation a_zero = animation("zero", 10, 10, p_zero, 1);
	struct aiAnimation a_dur = animation("nan_duration", NAN, 10, p_good, 1);
	struct aiAnimation *anims[] = { &a_good, &a_nan, &a_neg, &a_nant, &a_zero, &a_dur };
	imported r;

	(void)state;
	import_scene(&r, anims, 6, NULL, 0);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 6);
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
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	release(&r);
	/* And a scene without animations at all. */
	import_scene(&r, NULL, 0, NULL, 0);
	assert_int_equal(r.status, ANIMC_ERR_NOT_FOUND);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	release(&r);
}

/* ------------------------------------------------------------ the CLI */

static animrt_clip *open_xnb(const char *path)
{
	animrt_clip *clip = NULL;
	animrt_error err;

	if (animrt_open_file(path, &clip, &err) != ANIMRT_OK)
		fail_msg("%s: %s", path, err.message);
	return clip;
}

static void cli_unknown_clip_lists_the_clips(void **state)
{
	char *out = test_tmpdir("assimp-clip");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--clip", "jump", "-o", out, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_count_files(out), 0);
	/* The clip names are data, not wording. */
	for (const char *const *n = (const char *const[]){ "rotate", "scale", "move", "matrix", "mixed", NULL };
	     *n; n++)
		assert_non_null(strstr(r.err, *n));
	test_run_release(&r);
	r = test_animc("build", "-q", "--clip", "move", "--clip", "scale", "-o", out, KEYS_X, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(test_count_files(out), 2);
	char *move = test_format("%s/keys/move.xnb", out);
	assert_true(test_file_exists(move));
	free(move);
	test_run_release(&r);
	free(out);
}

static void cli_ticks_per_second_changes_durations(void **state)
{
	char *out = test_tmpdir("assimp-rate");
	char *walk = test_format("%s/no_rate/walk.xnb", out);
	char *matrix = test_format("%s/keys/matrix.xnb", out);
	animrt_clip *clip;
	test_run r;

	(void)state;
	/* As declared (100) and as the .X default (4800). */
	r = test_animc("build", "-q", "-o", out, KEYS_X, NO_RATE_X, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	clip = open_xnb(matrix);
	assert_true(clip->duration_s == 2.0f);
	animrt_close(clip);
	clip = open_xnb(walk);
	assert_true(clip->duration_s == 1.0f);
	assert_true(clip->sequences[0].key_interval_s == 0.5f);
	animrt_close(clip);
	/* Forced for every input: 25 ticks per second. */
	r = test_animc("build", "-q", "--ticks-per-second", "25", "-o", out, KEYS_X, NO_RATE_X, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	clip = open_xnb(matrix);
	assert_true(clip->duration_s == 8.0f);
	animrt_close(clip);
	clip = open_xnb(walk);
	assert_true(clip->duration_s == 192.0f);
	assert_true(clip->sequences[0].duration_s == 192.0f);
	assert_true(clip->sequences[0].key_interval_s == 96.0f);
	animrt_close(clip);
	free(matrix);
	free(walk);
	free(out);
}

static void cli_ticks_per_second_must_be_a_positive_number(void **state)
{
	static const char *const bad[] = { "0", "-24", "abc", "24fps", "", "nan", "inf", "1e999" };

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		test_run r = test_animc("build", "--ticks-per-second", bad[i], "-o", "build/test-tmp/u",
					KEYS_X, NULL);

		if (r.status != 2)
			fail_msg("--ticks-per-second '%s': exit %d", bad[i], r.status);
		test_run_release(&r);
	}
	assert_false(test_file_exists("build/test-tmp/u/keys"));
}

static void cli_static_model_skipped_in_a_folder_fails_given(void **state)
{
	char *src = test_tmpdir("assimp-art");
	char *out = test_tmpdir("assimp-art-out");
	char *copy_static = test_format("%s/box.x", src);
	char *copy_keys = test_format("%s/hero.x", src);
	size_t size;
	uint8_t *data;
	test_run r;

	(void)state;
	data = test_read_file(STATIC_X, &size);
	assert_true(test_write_file(copy_static, data, size));
	free(data);
	data = test_read_file(KEYS_X, &size);
	assert_true(test_write_file(copy_keys, data, size));
	free(data);
	r = test_animc("build", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(test_count_files(out), 5);   /* hero's clips */
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, copy_static, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, copy_static));
	test_run_release(&r);
	free(copy_keys);
	free(copy_static);
	free(out);
	free(src);
}

static void cli_unreadable_file_fails_naming_it(void **state)
{
	char *out = test_tmpdir("assimp-broken");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", out, BROKEN_X, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, BROKEN_X ": error: "));
	assert_int_equal(test_count_files(out), 5);   /* the good file still compiles */
	test_run_release(&r);
	free(out);
}

static void cli_a_crash_in_assimp_fails_that_file_alone(void **state)
{
	/* Frames nested 200000 deep: Assimp 5.2's .X parser recurses once per
	 * level and overflows the stack (`assimp info` dies of it too).  Each
	 * Assimp source compiles in a child process, so the run goes on. */
	char *dir = test_tmpdir("assimp-crash");
	char *deep = test_format("%s/deep.x", dir);
	char *out = test_format("%s/out", dir);
	const size_t levels = 200000;
	size_t used = 0;
	char *text = malloc(32 + levels * 9);
	test_run r;

	(void)state;
	assert_non_null(text);
	used += (size_t)sprintf(text, "xof 0303txt 0032\n");
	for (size_t i = 0; i < levels; i++, used += 8)
		memcpy(text + used, "Frame f{", 8);
	memset(text + used, '}', levels);
	used += levels;
	assert_true(test_write_file(deep, text, used));
	free(text);
	r = test_animc("build", "-q", "-o", out, deep, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, deep));
	assert_int_equal(test_count_files(out), 5);   /* keys.x, after it */
	test_run_release(&r);
	/* Outputs claimed in a child are known to the next one: a source
	 * given twice writes once, and the second is refused. */
	r = test_animc("build", "-q", "-o", out, KEYS_X, KEYS_X, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_count_files(out), 5);
	test_run_release(&r);
	free(out);
	free(deep);
	free(dir);
}

static void cli_files_that_crash_assimp_do_not_stop_the_run(void **state)
{
	char **files = test_list_dir("testdata/assimp_crashes", NULL);
	char *out = test_tmpdir("assimp-crashes");
	size_t n = 0;

	(void)state;
	for (char **f = files; *f; f++) {
		char *path = test_format("testdata/assimp_crashes/%s", *f);
		test_run r;

		if (strcmp(*f, "README.md") == 0) {
			free(path);
			continue;
		}
		/* Compiled or failed, but never a killed or a hanging run. */
		r = test_animc("build", "-q", "--import-timeout", "2", "-o", out, path, KEYS_X, NULL);
		if (r.status != 0 && r.status != 1)
			fail_msg("%s: exit %d\n%s", path, r.status, r.err);
		assert_true(test_count_files(out) >= 5);
		test_run_release(&r);
		free(path);
		n++;
		free(out);
		out = test_tmpdir("assimp-crashes");
	}
	assert_true(n >= 3);
	test_free_list(files);
	free(out);
}

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

static void cli_a_bad_clip_leaves_the_others_compiled(void **state)
{
	/* glTF is where such keys come from: .X times are unsigned ticks. */
	static const gltf_clip clips[] = {
		{ "good", { 0, 1 }, { 0, 0, 0, 1, 1, 1 }, false },
		{ "nan", { 0, 1 }, { 0, 0, 0, NAN, 1, 1 }, false },
		{ "zero", { 0, 1 }, { 0, 0, 0, 1, 0, 0, 0, 0 }, true },
		{ "negative", { -1, 1 }, { 0, 0, 0, 1, 1, 1 }, false },
		{ "good2", { 0, 2 }, { 0, 0, 0, 1, 0, 0, 1, 0 }, true },
	};
	char *dir = test_tmpdir("assimp-bad-keys");
	char *src = test_format("%s/hero.gltf", dir);
	char *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	write_gltf(src, clips, sizeof clips / sizeof clips[0]);
	r = test_animc("build", "-q", "-o", out, src, NULL);
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
	test_run_release(&r);
	/* glTF's rate is 1000 ticks per second: the 2 s clip lasts 2 s. */
	char *good2 = test_format("%s/hero/good2.xnb", out);
	animrt_clip *clip = open_xnb(good2);
	assert_true(clip->duration_s == 2.0f);
	animrt_close(clip);
	free(good2);
	free(out);
	free(src);
	free(dir);
}

/* --------------------------------------------------------------- corpus */

/* Shortest-arc slerp in double, normalising its inputs. */
static void slerp(const double *a, const double *b, double u, double *out)
{
	double la = 0, lb = 0, dot = 0, sign = 1, w0, w1;

	for (int i = 0; i < 4; i++) {
		la += a[i] * a[i];
		lb += b[i] * b[i];
	}
	la = sqrt(la);
	lb = sqrt(lb);
	for (int i = 0; i < 4; i++)
		dot += a[i] / la * b[i] / lb;
	if (dot < 0) {
		dot = -dot;
		sign = -1;
	}
	if (dot > 0.999999) {
		w0 = 1 - u;
		w1 = u;
	} else {
		double angle = acos(dot), inv = 1 / sin(angle);

		w0 = sin((1 - u) * angle) * inv;
		w1 = sin(u * angle) * inv;
	}
	for (int i = 0; i < 4; i++)
		out[i] = w0 * a[i] / la + sign * w1 * b[i] / lb;
}

/* The compiled clip, sampled by the loader library (the original runtime's
 * rule, checked against the conformance oracle in its own tests). */
static void sample_sequence(const animrt_sequence *s, double t, double tr[3], double rot[4],
			    double sc[3])
{
	float ft[3], fr[4], fs[3];

	animrt_sequence_sample(s, (float)t, ANIMRT_PLAY_ONCE, NULL, ft, fr, fs);
	for (int c = 0; c < 3; c++) {
		tr[c] = ft[c];
		sc[c] = fs[c];
	}
	for (int c = 0; c < 4; c++)
		rot[c] = fr[c];
}

/* Assimp's keys evaluated directly at `tick`: clamped outside them, linear
 * (slerp for rotations) between them. */
static unsigned key_before(const double *times, size_t stride, unsigned n, double tick)
{
	unsigned lo = 0, hi = n;

	/* The last key at or before tick (0 when none). */
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (*(const double *)((const char *)times + stride * mid) <= tick)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void assimp_vector(const struct aiVectorKey *k, unsigned n, double tick, double out[3])
{
	unsigned i = key_before(&k[0].mTime, sizeof *k, n, tick);
	double u = 0;

	if (i + 1 < n && tick > k[i].mTime)
		u = (tick - k[i].mTime) / (k[i + 1].mTime - k[i].mTime);
	const struct aiVector3D *a = &k[i].mValue, *b = i + 1 < n ? &k[i + 1].mValue : a;
	out[0] = a->x + ((double)b->x - a->x) * u;
	out[1] = a->y + ((double)b->y - a->y) * u;
	out[2] = a->z + ((double)b->z - a->z) * u;
}

static void assimp_rotation(const struct aiQuatKey *k, unsigned n, double tick, double out[4])
{
	unsigned i = key_before(&k[0].mTime, sizeof *k, n, tick);
	double u = 0;

	if (i + 1 < n && tick > k[i].mTime)
		u = (tick - k[i].mTime) / (k[i + 1].mTime - k[i].mTime);
	const struct aiQuaternion *a = &k[i].mValue, *b = i + 1 < n ? &k[i + 1].mValue : a;
	const double qa[4] = { a->x, a->y, a->z, a->w }, qb[4] = { b->x, b->y, b->z, b->w };
	slerp(qa, qb, u, out);
}

static double worst_error(const double *got, const double *want, unsigned n, bool either_sign)
{
	double same = 0, opposite = 0;

	for (unsigned i = 0; i < n; i++) {
		same = fmax(same, fabs(got[i] - want[i]));
		opposite = fmax(opposite, fabs(got[i] + want[i]));
	}
	return either_sign ? fmin(same, opposite) : same;
}

static char *safe_name(const char *name, unsigned index)
{
	char *s = name[0] ? test_format("%s", name) : test_format("clip%u", index);

	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || strchr("/\\:*?\"<>|", *p))
			*p = '_';
	return s;
}

/* Compile a corpus file and compare every clip, at 33 times, with Assimp's
 * own keys; returns the number of clips checked. */
static unsigned sample_like_assimp(const char *file, const char *stem)
{
	char *src = test_format("%s/assimp/%s", test_corpus_dir(), file);
	char *out = test_tmpdir("assimp-corpus");
	struct aiPropertyStore *props = aiCreatePropertyStore();
	const struct aiScene *scene;
	double worst = 0;
	test_run r;

	r = test_animc("build", "-q", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s: exit %d\n%s", src, r.status, r.err);
	test_run_release(&r);
	aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
	scene = aiImportFileExWithProperties(src, 0, NULL, props);
	aiReleasePropertyStore(props);
	assert_non_null(scene);
	assert_true(scene->mNumAnimations > 0);
	for (unsigned a = 0; a < scene->mNumAnimations; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];
		double rate = anim->mTicksPerSecond;
		char *name = safe_name(anim->mName.data, a);
		char *path = test_format("%s/%s/%s.xnb", out, stem, name);
		animrt_clip *clip = open_xnb(path);

		assert_true(rate > 0);
		if (fabs(clip->duration_s - anim->mDuration / rate) > 1e-6 * fmax(1, anim->mDuration / rate))
			fail_msg("%s: duration %.9g s, Assimp says %.9g s", path, (double)clip->duration_s,
				 anim->mDuration / rate);
		assert_int_equal(clip->sequence_count, anim->mNumChannels);
		for (unsigned c = 0; c < anim->mNumChannels; c++) {
			const struct aiNodeAnim *na = anim->mChannels[c];
			const animrt_sequence *s = NULL;

			assert_null(strstr(na->mNodeName.data, "$AssimpFbx$"));
			for (uint32_t i = 0; i < clip->sequence_count && !s; i++)
				if (strcmp(clip->sequences[i].bone, na->mNodeName.data) == 0)
					s = &clip->sequences[i];
			if (!s)
				fail_msg("%s: no sequence for bone '%s'", path, na->mNodeName.data);
			assert_true(s->duration_s == clip->duration_s);
			for (int k = 0; k <= 32; k++) {
				double t = clip->duration_s * k / 32.0, tick = t * rate;
				double tr[3], rot[4], sc[3], want[4], e;

				sample_sequence(s, t, tr, rot, sc);
				assimp_vector(na->mPositionKeys, na->mNumPositionKeys, tick, want);
				e = worst_error(tr, want, 3, false);
				assimp_rotation(na->mRotationKeys, na->mNumRotationKeys, tick, want);
				e = fmax(e, worst_error(rot, want, 4, true));
				assimp_vector(na->mScalingKeys, na->mNumScalingKeys, tick, want);
				e = fmax(e, worst_error(sc, want, 3, false));
				if (!(e <= 1e-4))
					fail_msg("%s: bone '%s' at %.6g s differs from Assimp by %g", path,
						 s->bone, t, e);
				worst = fmax(worst, e);
			}
		}
		animrt_close(clip);
		free(path);
		free(name);
	}
	print_message("%s: %u clip%s agree with Assimp's keys (worst difference %.2g)\n", file,
		      scene->mNumAnimations, scene->mNumAnimations == 1 ? "" : "s", worst);
	unsigned count = scene->mNumAnimations;
	aiReleaseImport(scene);
	free(out);
	free(src);
	return count;
}

static void corpus_x_clips_sample_like_assimp(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	assert_int_equal(sample_like_assimp("anim_test.x", "anim_test"), 1);
	assert_int_equal(sample_like_assimp("Testwuson.X", "Testwuson"), 3);
}

static void corpus_fbx_clips_sample_like_assimp(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	assert_int_equal(sample_like_assimp("animation_with_skeleton.fbx", "animation_with_skeleton"), 1);
	assert_int_equal(sample_like_assimp("huesitos.fbx", "huesitos"), 1);
}

static void corpus_bvh_clip_samples_like_assimp(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	assert_int_equal(sample_like_assimp("01_01.bvh", "01_01"), 1);
}

static void corpus_fbx_channels_name_real_bones(void **state)
{
	static const char *const files[] = { "animation_with_skeleton.fbx", "huesitos.fbx" };

	(void)state;
	TEST_NEEDS_CORPUS();
	for (size_t f = 0; f < 2; f++) {
		char *path = test_format("%s/assimp/%s", test_corpus_dir(), files[f]);
		imported r;

		import_path(&r, path, 0);
		assert_int_equal(r.status, ANIMC_OK);
		for (uint32_t i = 0; i < r.set.count; i++)
			for (uint32_t c = 0; c < r.set.clips[i]->channel_count; c++)
				assert_null(strstr(r.set.clips[i]->channels[c].bone, "$AssimpFbx$"));
		release(&r);
		free(path);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(probe_prefers_content_and_leaves_other_xml_alone),
	cmocka_unit_test(x_rotation_keys),
	cmocka_unit_test(x_scale_keys),
	cmocka_unit_test(x_position_keys_at_uneven_times),
	cmocka_unit_test(x_matrix_keys_decompose),
	cmocka_unit_test(x_tracks_with_different_keys_share_one_timeline),
	cmocka_unit_test(x_declared_rate_converts_ticks_to_seconds),
	cmocka_unit_test(x_without_rate_assumes_4800_with_one_warning),
	cmocka_unit_test(rate_option_overrides_declared_and_default_rates),
	cmocka_unit_test(memory_import_sniffs_the_format),
	cmocka_unit_test(unreadable_file_reports_one_error),
	cmocka_unit_test(static_model_holds_no_animation),
	cmocka_unit_test(other_formats_without_a_rate_assume_25),
	cmocka_unit_test(quaternions_become_xyzw_of_unit_length),
	cmocka_unit_test(bad_keys_fail_their_clip_only),
	cmocka_unit_test(unsorted_and_repeated_keys_are_repaired_with_warnings),
	cmocka_unit_test(a_bone_animated_twice_keeps_the_last_channel),
	cmocka_unit_test(names_that_are_not_utf8_are_read_as_latin1),
	cmocka_unit_test(mesh_animations_are_left_out),
	cmocka_unit_test(cli_unknown_clip_lists_the_clips),
	cmocka_unit_test(cli_ticks_per_second_changes_durations),
	cmocka_unit_test(cli_ticks_per_second_must_be_a_positive_number),
	cmocka_unit_test(cli_static_model_skipped_in_a_folder_fails_given),
	cmocka_unit_test(cli_unreadable_file_fails_naming_it),
	cmocka_unit_test(cli_a_bad_clip_leaves_the_others_compiled),
	cmocka_unit_test(cli_a_crash_in_assimp_fails_that_file_alone),
	cmocka_unit_test(cli_files_that_crash_assimp_do_not_stop_the_run),
	cmocka_unit_test(corpus_x_clips_sample_like_assimp),
	cmocka_unit_test(corpus_fbx_clips_sample_like_assimp),
	cmocka_unit_test(corpus_bvh_clip_samples_like_assimp),
	cmocka_unit_test(corpus_fbx_channels_name_real_bones),
};

ANIMC_TEST_GROUP(tests);
