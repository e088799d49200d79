/*
 * xna_test.c - the XNA IntermediateSerializer importer on small documents:
 * the split into per-bone channels, spellings that must give one clip,
 * TimeSpan ticks, bone names and bounds from a skeleton, composition with
 * rest transforms, matrix keys, the AnimationSequence twin, errors with
 * their position.  Through the CLI: cmd/tests/xna_cli_test.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"
#include <animc/animrt.h>
#include <animc/animc_formats.h>
#include "xml/xml.h"

#include "xna_fixtures.h"

typedef struct imported {
	animc_status status;
	animc_clip_set set;
	test_diags diags;
	test_diag numbered;   /* the first numbered-bones warning, out of diags */
	size_t numbered_count;
} imported;

/* The numbered-bones warning every document of numbered bones gets without
 * a skeleton is taken out of `diags` into `numbered` (a copy of the first),
 * so that the tests of other warnings count theirs alone;
 * numbered_bones_without_a_skeleton_are_said_once tests it. */
static imported import_with(const char *doc, const animc_import_options *options)
{
	imported r = { .diags.echo = getenv("ANIMC_TEST_ECHO") != NULL };
	animc_diag_sink sink = test_diag_sink(&r.diags, "t.xml");
	animc_import_request req = { "t.xml", (const uint8_t *)doc, strlen(doc), options };
	size_t kept = 0;

	r.status = animc_importer_xna.import(&req, &r.set, &sink);
	for (size_t i = 0; i < r.diags.count; i++) {
		test_diag *d = &r.diags.items[i];

		if (!d->kind || strcmp(d->kind, "numbered-bones") != 0) {
			r.diags.items[kept++] = *d;
			continue;
		}
		if (r.numbered_count++ == 0)
			r.numbered = *d;
		else
			free(d->message);
	}
	r.diags.count = kept;
	return r;
}

static imported import_str(const char *doc)
{
	return import_with(doc, NULL);
}

static void release(imported *r)
{
	free(r->numbered.message);
	animc_clip_set_release(&r->set);
	test_diags_release(&r->diags);
}

/* Process a clip in a mode and write it; the caller frees the bytes. */
static uint8_t *write_clip(animc_clip *clip, bool exact, size_t *size)
{
	animc_process_options options = { .exact = exact };
	uint8_t *bytes;

	assert_int_equal(animc_clip_process(clip, &options, NULL, NULL), ANIMC_OK);
	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, size, NULL), ANIMC_OK);
	return bytes;
}

/* A three-bone skeleton: Root; Spine at (1,2,3) turned 90 degrees about Y; Head. */
static animc_bone test_bones[3] = {
	{ "Root", -1, { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }, { 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } },
	{ "Spine", 0, { 0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 2, 3, 1 }, { 1, 2, 3 },
	  { 0, 0.70710678f, 0, 0.70710678f }, { 1, 1, 1 } },
	{ " Head ", 1, { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1 }, { 0, 1, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } },
};

/* ------------------------------------------------------------- the split */

static void keyframes_split_into_one_channel_per_bone(void **state)
{
	static const char doc[] = AD_OPEN
		CLIP("Mixed", "PT1S",
		     KEY(2, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(0, "PT0S", "1 2 3", "0 0 0", "1 1 1")
		     KEY(2, "PT1S", "0 0 0", "0 1.57079637 0", "1 1 1")
		     KEY(0, "PT0.5S", "4 5 6", "0 0 0", "2 2 2"))
		CLIP("Other", "PT2S", KEY(1, "PT2S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_false(r.set.is_single_asset);
	assert_int_equal(r.set.count, 2);
	const animc_clip *clip = r.set.clips[0];
	assert_string_equal(clip->name, "Mixed");
	assert_string_equal(r.set.clips[1]->name, "Other");
	assert_true(clip->duration_s == 1);
	assert_int_equal(clip->declared_channel_count, 2);
	/* By bone index, whatever order the bones came in. */
	assert_int_equal(clip->channel_count, 2);
	const animc_channel *a = &clip->channels[0], *b = &clip->channels[1];
	assert_string_equal(a->bone, "Bone0");
	assert_string_equal(b->bone, "Bone2");
	assert_int_equal(a->key_count, 2);
	assert_true(a->has_time && a->times_s[0] == 0 && a->times_s[1] == 0.5f);
	assert_true(a->duration_s == 1);
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		assert_true(a->tracks[k].is_present && !a->tracks[k].is_fixed);
		assert_int_equal(a->tracks[k].value_count, 2);
		assert_null(a->tracks[k].times_s);
	}
	const float *t = a->tracks[ANIMC_TRANSLATION].values, *s = a->tracks[ANIMC_SCALE].values;
	assert_true(t[0] == 1 && t[1] == 2 && t[2] == 3 && t[3] == 4 && t[5] == 6);
	assert_true(s[0] == 1 && s[3] == 2);
	/* The last key turns bone 2 by 90 degrees about Y. */
	const float *q = &b->tracks[ANIMC_ROTATION].values[4];
	assert_true(q[0] == 0 && q[2] == 0);
	test_assert_near(q[1], sqrt(0.5), 1e-7);
	test_assert_near(q[3], sqrt(0.5), 1e-7);
	release(&r);
}

static void unsorted_keys_are_sorted_with_a_warning_naming_the_bone(void **state)
{
	static const char doc[] = AD_OPEN
		CLIP("Walk", "PT1S",
		     KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(3, "PT1S", "1 0 0", "0 0 0", "1 1 1")
		     KEY(3, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(0, "PT1S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	imported r = import_str(doc);
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t.xml");
	animc_process_options exact = { .exact = true };

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	animc_clip *clip = r.set.clips[0];
	/* Kept as written: ordering is the sort pass's. */
	assert_true(clip->channels[1].times_s[0] == 1 && clip->channels[1].times_s[1] == 0);
	assert_int_equal(animc_clip_process(clip, NULL, &sink, NULL), ANIMC_OK);
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	const test_diag *w = test_diags_first(&diags, ANIMC_WARNING);
	assert_non_null(strstr(w->message, "'Bone3'"));
	/* At the bone's first keyframe. */
	assert_int_equal(w->line, 7);
	/* Values moved with their times. */
	assert_true(clip->channels[1].tracks[ANIMC_TRANSLATION].values[3] == 1);
	test_diags_release(&diags);
	release(&r);

	/* Exact mode sorts too (the original pipeline never compiled this
	 * source: exact keeps each key at its time), and normalises nothing:
	 * the keys at 0 and 1 s stay explicit and every track keyed. */
	r = import_str(doc);
	sink = test_diag_sink(&diags, "t.xml");
	clip = r.set.clips[0];
	assert_int_equal(animc_clip_process(clip, &exact, &sink, NULL), ANIMC_OK);
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	assert_true(clip->channels[1].has_time);
	assert_true(clip->channels[1].times_s[0] == 0 && clip->channels[1].times_s[1] == 1);
	assert_true(clip->channels[1].tracks[ANIMC_TRANSLATION].values[3] == 1);
	assert_false(clip->channels[1].tracks[ANIMC_ROTATION].is_fixed);
	test_diags_release(&diags);
	release(&r);
}

/* Keyframes of one bone at one time, the last key's time too: the later
 * one's values are kept, as XNA's players, which apply keyframes in order,
 * show them; a warning per bone says how many went, at the first of them. */
static void keys_of_one_bone_at_one_time_keep_the_later(void **state)
{
	static const char doc[] = AD_OPEN
		CLIP("Turn", "PT1S",
		     KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(0, "PT1S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(2, "PT0S", "7 0 0", "0 0 0", "1 1 1")
		     KEY(0, "PT1S", "5 0 0", "0 0 0", "1 1 1")
		     KEY(2, "PT0S", "8 0 0", "0 0 0", "1 1 1")
		     KEY(2, "PT0S", "9 0 0", "0 0 0", "1 1 1")
		     KEY(2, "PT1S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	const animc_clip *clip = r.set.clips[0];
	assert_int_equal(clip->channel_count, 2);
	const animc_channel *a = &clip->channels[0], *b = &clip->channels[1];
	assert_int_equal(a->key_count, 2);
	assert_true(a->times_s[0] == 0 && a->times_s[1] == 1);
	assert_true(a->tracks[ANIMC_TRANSLATION].values[3] == 5);
	assert_int_equal(b->key_count, 2);
	assert_true(b->times_s[0] == 0 && b->times_s[1] == 1);
	assert_true(b->tracks[ANIMC_TRANSLATION].values[0] == 9);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 2);
	const test_diag *w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_string_equal(w->message, "clip 'Turn': bone 'Bone0': 1 key shared a time with a later key; kept the "
			    "later value: export one key per time (a step is two keys a frame apart)");
	assert_int_equal(w->line, 7);   /* the second keyframe's <Time> */
	assert_string_equal(w[1].message, "clip 'Turn': bone 'Bone2': 2 keys shared a time with a later key; kept the "
			    "later value: export one key per time (a step is two keys a frame apart)");
	assert_int_equal(w[1].line, 8);
	release(&r);
}

/* ------------------------------------------------------------- spellings */

/* Each spelling of one document must import to the same bytes. */
static void spellings_give_one_clip(void **state)
{
	static const char *const docs[] = {
		/* The full type name, custom item names. */
		XML "<XnaContent><Asset Type=\"AnimationClassLibrary.AnimationData\"><AnimationClips>"
		"<AnimationDictionary><Key>Turn</Key><Value><Duration>PT1S</Duration><Keyframes>"
		"<Keyframe><BoneIndex>1</BoneIndex><Time>PT0S</Time><Position>0.5 1 -2</Position>"
		"<Rotation>0 0 0</Rotation><Scale>1 1 1</Scale></Keyframe>"
		"<Keyframe><BoneIndex>1</BoneIndex><Time>PT1S</Time><Position>0.5 1 -2</Position>"
		"<Rotation>0.25 1.5 -0.5</Rotation><Scale>1 2 1</Scale></Keyframe>"
		"</Keyframes></Value></AnimationDictionary></AnimationClips></Asset></XnaContent>",
		/* An alias, Item names, members and entries in another order, a BOM,
		 * numbers spread over lines with tabs and comments, other lexical forms. */
		"\xEF\xBB\xBF" XML "<XnaContent xmlns:Anim=\"AnimationClassLibrary\">\n"
		"<Asset Type=\" Anim:AnimationData \"><AnimationClips>\n"
		"<Item><Value><Keyframes>\n"
		"<Item><Scale>1\t1 1</Scale><Rotation>\n 0\n 0 <!-- none -->\n 0\n</Rotation>"
		"<Position>5E-1 +1 -2.0</Position><Time>-PT0S</Time><BoneIndex>+1</BoneIndex></Item>\n"
		"<Item><BoneIndex>1</BoneIndex><Time>PT0M1S</Time><Position> .5   1.0 -2</Position>"
		"<Rotation>2.5e-1<!-- pitch -->\t1.5\r\n-0.5</Rotation><Scale>1 2E0 1</Scale></Item>\n"
		"</Keyframes><Duration>PT1.0000000S</Duration></Value><Key>Turn</Key></Item>\n"
		"</AnimationClips></Asset></XnaContent>",
	};
	uint8_t *first = NULL;
	size_t first_size = 0;

	(void)state;
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		imported r = import_str(docs[i]);
		size_t size;
		uint8_t *bytes;

		if (r.status != ANIMC_OK)
			fail_msg("spelling %zu: %s", i, animc_status_string(r.status));
		assert_int_equal(r.set.count, 1);
		assert_string_equal(r.set.clips[0]->name, "Turn");
		bytes = write_clip(r.set.clips[0], true, &size);
		if (!first) {
			first = bytes;
			first_size = size;
		} else {
			assert_int_equal(size, first_size);
			assert_memory_equal(bytes, first, size);
			free(bytes);
		}
		release(&r);
	}
	free(first);
}

/* A keyframe time before 0, even by one tick (100 ns), fails at its
 * <Time>, saying so; -PT0S is 0. */
static void a_time_before_zero_by_one_tick_fails(void **state)
{
	static const char doc[] = XML
		"<XnaContent><Asset Type=\"AnimationClassLibrary.AnimationData\"><AnimationClips>"
		"<AnimationDictionary><Key>Turn</Key><Value><Duration>PT1S</Duration><Keyframes>"
		"<Keyframe><BoneIndex>1</BoneIndex><Time>%s</Time><Position>0.5 1 -2</Position>"
		"<Rotation>0 0 0</Rotation><Scale>1 1 1</Scale></Keyframe>"
		"</Keyframes></Value></AnimationDictionary></AnimationClips></Asset></XnaContent>";
	static const char *const times[] = { "-PT0.0000001S", "-PT1S" };

	(void)state;
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		char *text = test_format(doc, times[i]), *want = test_format("<Time> is negative (%s)", times[i]);
		imported r = import_str(text);
		const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

		if (r.status != ANIMC_ERR_INVALID || !e || !strstr(e->message, want))
			fail_msg("%s: status %s, error %s", times[i], animc_status_string(r.status), e ? e->message : "none");
		release(&r);
		free(want), free(text);
	}
}

/* Only the first 64 aliases of <XnaContent> were kept: a Type through a
 * later one was refused as using an alias no xmlns declares.  Every one
 * counts. */
static void every_alias_of_the_root_counts(void **state)
{
	char *decls = test_format("%s", "");

	(void)state;
	for (int i = 0; i < 200; i++) {
		char *more = test_format("%s xmlns:A%d=\"%s\"", decls, i, i == 199 ? "AnimationClassLibrary" : "Other");

		free(decls);
		decls = more;
	}
	char *doc = test_format(XML "<XnaContent%s>\n<Asset Type=\"A199:AnimationData\">\n<AnimationClips>\n%s%s", decls,
				CLIP("Walk", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")), AD_CLOSE);
	imported r = import_str(doc);

	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	assert_string_equal(r.set.clips[0]->name, "Walk");
	release(&r);
	free(doc);
	free(decls);
}

static void times_go_through_integer_ticks(void **state)
{
	static const char doc[] = AD_OPEN
		CLIP("Long", "P1DT2H",
		     KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(0, "PT0.0333333S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(0, "PT1M30S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(0, "PT1H2M3.5S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	const animc_clip *clip = r.set.clips[0];
	assert_true(clip->duration_s == 93600.0f);
	const float *t = clip->channels[0].times_s;
	assert_true(t[1] == (float)(333333 / 1e7));
	assert_true(t[2] == 90 && t[3] == 3723.5f);
	release(&r);
}

/* ---------------------------------------------------- skeleton and bind */

/* Without a skeleton, numbered bones are named Bone<N>, which no model's
 * bone is: one warning per document, at the first clip's first bone, says
 * so and names --skeleton; with a skeleton, none. */
static void numbered_bones_without_a_skeleton_are_said_once(void **state)
{
	static const char doc[] = AD_OPEN
		CLIP("Nod", "PT1S", KEY(2, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		CLIP("Wave", "PT1S", KEY(1, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	animc_skeleton skeleton = { .bones = test_bones, .bone_count = 3 };
	animc_import_options options = { .skeleton = &skeleton };
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_string_equal(r.set.clips[0]->channels[0].bone, "Bone2");
	assert_int_equal(r.numbered_count, 1);
	assert_int_equal(r.numbered.severity, ANIMC_WARNING);
	assert_int_equal(r.numbered.line, 6);   /* the first clip's first key */
	assert_string_equal(r.numbered.message, "clip 'Nod': bones are given by number and no --skeleton names them, "
			    "so their sequences are named Bone<N> ('Bone2'), which a game binding clips by bone name "
			    "finds on no model: give --skeleton MODEL, the model the clips animate");
	release(&r);
	r = import_with(doc, &options);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.numbered_count, 0);
	release(&r);
}

static void bones_take_the_skeleton_names(void **state)
{
	static const char doc[] = AD_OPEN
		CLIP("Nod", "PT1S", KEY(2, "PT0S", "0 0 0", "0 0 0", "1 1 1") KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	static const char beyond[] = AD_OPEN
		CLIP("Nod", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1") KEY(3, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	animc_skeleton skeleton = { .bones = test_bones, .bone_count = 3 };
	animc_import_options options = { .skeleton = &skeleton };
	imported r = import_with(doc, &options);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_string_equal(r.set.clips[0]->channels[0].bone, "Root");
	assert_string_equal(r.set.clips[0]->channels[1].bone, "Head");   /* trimmed */
	assert_int_equal(animc_skeleton_check(&skeleton, r.set.clips[0], NULL), ANIMC_OK);
	release(&r);

	r = import_with(beyond, &options);
	assert_int_equal(r.status, ANIMC_ERR_INVALID);
	assert_int_equal(r.set.count, 0);
	const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);
	assert_int_equal(e->line, 7);
	assert_int_equal(e->column, 18);   /* just after the second <BoneIndex> */
	release(&r);
}

static void relative_to_bind_composes_key_then_rest(void **state)
{
	static const char euler[] = AD_OPEN
		CLIP("Bind", "PT1S",
		     KEY(1, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		     KEY(1, "PT1S", "1 0 0", "0 0 0", "1 1 1")
		     KEY(2, "PT0S", "0 0 0", "0 1.57079637 0", "2 2 2"))
		AD_CLOSE;
	static const char matrices[] = SK_OPEN
		CLIP("Bind", "PT1S", MKEY(1, "PT0S", "2 0 0 0 0 2 0 0 0 0 2 0 0 0 1 1"))
		AD_CLOSE;
	animc_skeleton skeleton = { .bones = test_bones, .bone_count = 3 };
	animc_import_options options = { .skeleton = &skeleton, .relative_to_bind = true };
	animc_import_options no_skeleton = { .relative_to_bind = true };
	imported r = import_with(euler, &options);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	const animc_channel *spine = &r.set.clips[0]->channels[0], *head = &r.set.clips[0]->channels[1];
	const float *t = spine->tracks[ANIMC_TRANSLATION].values, *q = spine->tracks[ANIMC_ROTATION].values;
	const float *s = spine->tracks[ANIMC_SCALE].values;
	/* An identity key gives the rest transform. */
	test_assert_near(t[0], 1, 1e-6);
	test_assert_near(t[1], 2, 1e-6);
	test_assert_near(t[2], 3, 1e-6);
	test_assert_near(fabs(q[1]), sqrt(0.5), 1e-6);
	test_assert_near(fabs(q[3]), sqrt(0.5), 1e-6);
	test_assert_near(s[0], 1, 1e-6);
	/* Key first: (1,0,0) turned by the rest rotation to (0,0,-1), then moved by (1,2,3). */
	test_assert_near(t[3], 1, 1e-6);
	test_assert_near(t[4], 2, 1e-6);
	test_assert_near(t[5], 2, 1e-6);
	/* Head: rest is a translation (0,1,0); a scale of 2 and a turn compose with it. */
	t = head->tracks[ANIMC_TRANSLATION].values;
	q = head->tracks[ANIMC_ROTATION].values;
	s = head->tracks[ANIMC_SCALE].values;
	test_assert_near(t[1], 1, 1e-6);
	test_assert_near(fabs(q[1]), sqrt(0.5), 1e-6);
	test_assert_near(s[0], 2, 1e-6);
	test_assert_near(s[2], 2, 1e-6);
	release(&r);

	r = import_with(matrices, &options);
	assert_int_equal(r.status, ANIMC_OK);
	t = r.set.clips[0]->channels[0].tracks[ANIMC_TRANSLATION].values;
	s = r.set.clips[0]->channels[0].tracks[ANIMC_SCALE].values;
	/* (0,0,1) turned to (1,0,0), plus (1,2,3). */
	test_assert_near(t[0], 2, 1e-6);
	test_assert_near(t[1], 2, 1e-6);
	test_assert_near(t[2], 3, 1e-6);
	test_assert_near(s[1], 2, 1e-6);
	release(&r);

	/* Without rest transforms there is nothing to compose with. */
	r = import_with(euler, &no_skeleton);
	assert_int_equal(r.status, ANIMC_ERR_ARGUMENT);
	release(&r);
}

/* --------------------------------------------------------- matrix keys */

static void matrix_keys_split_into_translation_rotation_scale(void **state)
{
	static const char doc[] = SK_OPEN
		CLIP("Take 001", "PT1S",
		     MKEY(0, "PT0S", "0 1 0 0 -1 0 0 0 0 0 1 0 4 5 6 1")
		     MKEY(0, "PT1S", "0 0 -3 0 0 3 0 0 3 0 0 0 0 0 0 1"))
		"</AnimationClips>\n"
		"<BindPose>" IDENTITY "\n" IDENTITY "</BindPose>\n"
		"<InverseBindPose><Item>" IDENTITY "</Item><Item>" IDENTITY "</Item></InverseBindPose>\n"
		"<SkeletonHierarchy>-1\n0</SkeletonHierarchy>\n"
		"</Asset>\n</XnaContent>\n";
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	const animc_channel *ch = &r.set.clips[0]->channels[0];
	const float *t = ch->tracks[ANIMC_TRANSLATION].values, *q = ch->tracks[ANIMC_ROTATION].values;
	const float *s = ch->tracks[ANIMC_SCALE].values;
	assert_true(t[0] == 4 && t[1] == 5 && t[2] == 6);
	/* 90 degrees about Z, then 90 degrees about Y with scale 3. */
	test_assert_near(fabs(q[2]), sqrt(0.5), 1e-7);
	test_assert_near(fabs(q[3]), sqrt(0.5), 1e-7);
	assert_true(q[2] * q[3] > 0);
	test_assert_near(fabs(q[5]), sqrt(0.5), 1e-7);
	assert_true(q[5] * q[7] > 0);
	assert_true(s[0] == 1 && s[3] == 3 && s[4] == 3 && s[5] == 3);
	release(&r);
}

static void model_data_keeps_root_clips_apart(void **state)
{
	static const char doc[] = XML
		"<XnaContent xmlns:C=\"CustomModelAnimation\"><Asset Type=\"C:ModelData\">\n"
		"<RootAnimationClips>" CLIP("Walk", "PT1S", MKEY(0, "PT0S", IDENTITY)) "</RootAnimationClips>\n"
		"<ModelAnimationClips>" CLIP("Walk", "PT1S", MKEY(1, "PT0S", IDENTITY)) "</ModelAnimationClips>\n"
		"<BindPose Null=\"true\" /><InverseBindPose Null=\"true\" />"
		"<SkeletonHierarchy>-1 0</SkeletonHierarchy>\n"
		"</Asset></XnaContent>\n";
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 2);
	assert_string_equal(r.set.clips[0]->name, "root.Walk");
	assert_string_equal(r.set.clips[0]->channels[0].bone, "Bone0");
	assert_string_equal(r.set.clips[1]->name, "Walk");
	assert_string_equal(r.set.clips[1]->channels[0].bone, "Bone1");
	release(&r);
}

/* Names that meet only as animc makes them (root.<Key>, a trimmed Key) are
 * distinct clips to XNA: renamed with a warning at the Key, a clip whose Key
 * is its name keeping it; one Key twice in one dictionary stays an error. */
static void clips_animc_names_alike_are_renamed(void **state)
{
	static const char model[] = XML
		"<XnaContent><Asset Type=\"CustomModelAnimation.ModelData\">\n"
		"<RootAnimationClips>\n" CLIP("Walk", "PT1S", MKEY(0, "PT0S", IDENTITY)) "</RootAnimationClips>\n"
		"<ModelAnimationClips>" CLIP("root.Walk", "PT2S", MKEY(0, "PT0S", IDENTITY)) "</ModelAnimationClips>\n"
		"<SkeletonHierarchy>-1</SkeletonHierarchy>\n"
		"</Asset></XnaContent>\n";
	static const char trimmed[] = AD_OPEN
		CLIP(" Walk", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		CLIP("Walk.1", "PT2S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		CLIP("Walk", "PT3S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		CLIP("Walk ", "PT4S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	static const char twice[] = AD_OPEN
		CLIP(" Walk", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		CLIP(" Walk", "PT2S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	imported r = import_str(model);
	const test_diag *w;

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 2);
	/* The model clip's Key is root.Walk: the root clip's made name yields. */
	assert_string_equal(r.set.clips[0]->name, "root.Walk.1");
	assert_true(r.set.clips[0]->duration_s == 1);
	assert_string_equal(r.set.clips[1]->name, "root.Walk");
	assert_true(r.set.clips[1]->duration_s == 2);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_string_equal(w->kind, "clip-name-clash");
	assert_int_equal(w->line, 4);
	assert_int_equal(w->column, 12);
	release(&r);

	r = import_str(trimmed);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 4);
	assert_string_equal(r.set.clips[0]->name, "Walk.2");
	assert_string_equal(r.set.clips[1]->name, "Walk.1");
	assert_string_equal(r.set.clips[2]->name, "Walk");
	assert_string_equal(r.set.clips[3]->name, "Walk.3");
	assert_true(r.set.clips[2]->duration_s == 3);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_string_equal(w->kind, "clip-name-clash");
	assert_int_equal(w->line, 5);
	release(&r);

	r = import_str(twice);
	assert_int_equal(r.status, ANIMC_ERR_INVALID);
	assert_int_equal(r.set.count, 0);
	assert_int_equal(test_diags_first(&r.diags, ANIMC_ERROR)->line, 8);
	release(&r);
}

/* ------------------------------------------------- AnimationSequence */

static void sequence_compiles_to_the_bytes_of_its_twin(void **state)
{
	uint8_t *is_doc = test_read_file("testdata/golden/xna-sequence.xml", NULL);
	size_t twin_size;
	uint8_t *twin_doc = test_read_file("testdata/golden/xna-sequence-twin.Animation", &twin_size);

	(void)state;
	for (int exact = 0; exact < 2; exact++) {
		imported r = import_str((const char *)is_doc);
		animc_import_request req = { "twin.Animation", twin_doc, twin_size, NULL };
		animc_clip_set twin = { 0 };
		size_t a_size, b_size;

		assert_int_equal(r.status, ANIMC_OK);
		assert_true(r.set.is_single_asset);
		assert_int_equal(r.set.count, 1);
		assert_int_equal(animc_importer_robotgame.import(&req, &twin, NULL), ANIMC_OK);
		uint8_t *a = write_clip(r.set.clips[0], exact, &a_size);
		uint8_t *b = write_clip(twin.clips[0], exact, &b_size);
		assert_int_equal(a_size, b_size);
		assert_memory_equal(a, b, a_size);
		free(a);
		free(b);
		animc_clip_set_release(&twin);
		release(&r);
	}
	free(is_doc);
	free(twin_doc);
}

/* ------------------------------------------------------------- errors */

/* A rotation key not of unit length fails where it is written: in a list
 * written whole, at its first number, however many lines into the list; in
 * a list written item by item, at its item.  With HasRotation false the list
 * fails for being there, at the list. */
static void rotations_off_unit_length_fail_where_they_are_written(void **state)
{
	static const char doc[] = XML
		"<XnaContent xmlns:GameObject=\"RobotGameData.GameObject\">\n"
		"<Asset Type=\"GameObject:AnimationSequence\">\n"
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>\n"
		"<KeyFrameSequences><Item><BoneName>Hip</BoneName><KeyCount>3</KeyCount>\n"
		"<Duration>1</Duration><KeyInterval>0.5</KeyInterval><HasRotation>%s</HasRotation>\n"
		"<Rotation>%s</Rotation>\n"
		"</Item></KeyFrameSequences></Asset></XnaContent>\n";
	static const struct {
		const char *has_rotation, *list;
		animc_status status;
		uint32_t line, column;
		const char *message;
	} cases[] = {
		{ "true", "\n  0 0 0 1\n  0 0.382683 0 0.92388\n    0 0 2 0\n", ANIMC_ERR_INVALID, 10, 5,
		  "bone 'Hip': rotation key 2 is not a unit quaternion (length 2)" },
		{ "true", "0 0 0 1 0 0 0\n0 0 0 0 1", ANIMC_ERR_INVALID, 7, 19,
		  "bone 'Hip': rotation key 1 is not a unit quaternion (length 0)" },
		{ "true", "<Item>0 0 0 1</Item>\n<Item>0 0 0 1</Item><Item>0 0.5 0 0.5</Item>", ANIMC_ERR_INVALID, 8, 27,
		  "bone 'Hip': rotation key 2 is not a unit quaternion (length 0.707107)" },
		{ "true", "0 0 0 1 0 0 0 1 0 0 0 NaN", ANIMC_ERR_INVALID, 7, 33, "bone 'Hip': rotation key 2 is NaN" },
		{ "true", "0 0 0 1", ANIMC_ERR_INVALID, 7, 11,
		  "bone 'Hip': <Rotation> has 1 value, expected 3 (KeyCount)" },
		{ "false", "0 0 0 1 0 0 0 0 0 0 0 2", ANIMC_ERR_INVALID, 7, 11,
		  "bone 'Hip': <Rotation> holds 3 values but HasRotation is false" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format(doc, cases[i].has_rotation, cases[i].list);
		imported r = import_str(text);
		const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

		if (r.status != cases[i].status)
			fail_msg("case %zu: status %s, expected %s (%s)", i, animc_status_string(r.status),
				 animc_status_string(cases[i].status), e ? e->message : "no error");
		if (cases[i].message) {
			assert_non_null(e);
			if (e->line != cases[i].line || e->column != cases[i].column)
				fail_msg("case %zu: error at %u:%u, expected %u:%u: %s", i, e->line, e->column,
					 cases[i].line, cases[i].column, e->message);
			assert_string_equal(e->message, cases[i].message);
		}
		release(&r);
		free(text);
	}
}

/* A list longer than the text animc reads in one element fails, saying
 * that limit is animc's and what to do. */
static void a_list_past_the_text_limit_says_the_limit(void **state)
{
	static const char head[] = XML
		"<XnaContent xmlns:GameObject=\"RobotGameData.GameObject\">\n"
		"<Asset Type=\"GameObject:AnimationSequence\">\n"
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>\n"
		"<KeyFrameSequences><Item><BoneName>Hip</BoneName><KeyCount>2200000</KeyCount>\n"
		"<Duration>1</Duration><KeyInterval>0.5</KeyInterval><HasRotation>true</HasRotation>\n"
		"<Rotation>";
	static const char tail[] = "</Rotation>\n</Item></KeyFrameSequences></Asset></XnaContent>\n";
	size_t keys = 2200000, size = strlen(head) + keys * 8 + sizeof tail, n = 0;
	char *text = malloc(size);

	(void)state;
	assert_non_null(text);
	memcpy(text, head, strlen(head));
	n = strlen(head);
	for (size_t k = 0; k < keys; k++, n += 8)
		memcpy(text + n, "0 0 0 1 ", 8);
	memcpy(text + n, tail, sizeof tail);
	imported r = import_str(text);
	const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

	assert_int_equal(r.status, ANIMC_ERR_LIMIT);
	assert_non_null(e);
	assert_string_equal(e->message, "text inside <Rotation> is longer than 16777216 bytes (16 MiB), the most "
			    "animc reads in one element, a limit of its own that no option raises: split the take "
			    "into shorter ones");
	assert_int_equal(e->line, 7);
	assert_int_equal(e->column, 11);
	release(&r);
	/* A list over many lines: said at its element, where it starts, not
	 * where libxml2's read has got to (line 2200007). */
	for (size_t k = 0, at = strlen(head); k < keys; k++, at += 8)
		text[at + 7] = '\n';
	r = import_str(text);
	e = test_diags_first(&r.diags, ANIMC_ERROR);
	assert_int_equal(r.status, ANIMC_ERR_LIMIT);
	assert_non_null(e);
	assert_non_null(strstr(e->message, "a limit of its own that no option raises"));
	assert_int_equal(e->line, 7);
	release(&r);
	free(text);
}

/* As in the XmlSerializer dialect, a sequence needs a bone name: a missing,
 * empty or Null <BoneName> fails, a missing one at its sequence; and the
 * clip's Duration fails at its element. */
static void sequences_need_a_bone_name_and_the_clip_a_duration(void **state)
{
	static const char doc[] = XML
		"<XnaContent xmlns:GameObject=\"RobotGameData.GameObject\">\n"
		"<Asset Type=\"GameObject:AnimationSequence\">\n"
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>\n"
		"<KeyFrameSequences><Item>%s<KeyCount>1</KeyCount>\n"
		"<Duration>1</Duration><KeyInterval>0.5</KeyInterval>\n"
		"</Item></KeyFrameSequences></Asset></XnaContent>\n";
	static const struct {
		const char *bone;
		uint32_t column;
		const char *message;
	} cases[] = {
		{ "", 26, "<Item> has no <BoneName>: the runtime finds bones by name; give the sequence its "
			  "bone's name" },
		{ "<BoneName>  </BoneName>", 36, "<BoneName> is empty: the runtime finds bones by name; give "
						 "the sequence its bone's name" },
		{ "<BoneName Null=\"true\" />", 50, "<BoneName> is Null; it needs a value" },
	};
	static const char negative[] = XML
		"<XnaContent xmlns:GameObject=\"RobotGameData.GameObject\">\n"
		"<Asset Type=\"GameObject:AnimationSequence\">\n"
		"<KeyFrameSequenceCount>0</KeyFrameSequenceCount><Duration>-2</Duration>\n"
		"<KeyFrameSequences /></Asset></XnaContent>\n";
	imported neg = import_str(negative);
	const test_diag *ne = test_diags_first(&neg.diags, ANIMC_ERROR);

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format(doc, cases[i].bone);
		imported r = import_str(text);
		const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

		if (r.status != ANIMC_ERR_INVALID || !e)
			fail_msg("case %zu: status %s, error %s", i, animc_status_string(r.status),
				 e ? e->message : "none");
		assert_int_equal(r.set.count, 0);
		if (e->line != 5 || e->column != cases[i].column)
			fail_msg("case %zu: error at %u:%u, expected 5:%u: %s", i, e->line, e->column,
				 cases[i].column, e->message);
		assert_string_equal(e->message, cases[i].message);
		release(&r);
		free(text);
	}
	/* The clip's Duration, below 0, fails at its element, saying which. */
	assert_int_equal(neg.status, ANIMC_ERR_INVALID);
	assert_non_null(ne);
	assert_int_equal(ne->line, 4);
	assert_int_equal(ne->column, 59);
	assert_string_equal(ne->message, "the clip's own <Duration> (not a sequence's) is -2 s: a duration is a "
			    "finite number of seconds, 0 or more");
	release(&neg);
}


static void errors_point_at_the_element(void **state)
{
	static const struct {
		const char *doc;
		animc_status status;
		uint32_t line, column;
	} cases[] = {
		{ XML "<AnimationSequence/>", ANIMC_ERR_PARSE, 2, 21 },
		{ XML "<XnaContent>\n</XnaContent>", ANIMC_ERR_PARSE, 2, 0 },
		{ XML "<XnaContent>\n<Asset/>\n</XnaContent>", ANIMC_ERR_PARSE, 3, 9 },
		{ XML "<XnaContent><Asset Type=\"A:B\"/></XnaContent>", ANIMC_ERR_PARSE, 2, 32 },
		{ XML "<XnaContent><Asset Type=\"AnimationClassLibrary.AnimationData\" Null=\"true\"/></XnaContent>",
		  ANIMC_ERR_INVALID, 2, 76 },
		{ XML "<XnaContent><Asset Type=\"AnimationClassLibrary.AnimationData\"/>\n"
		  "<Asset Type=\"AnimationClassLibrary.AnimationData\"/></XnaContent>", ANIMC_ERR_PARSE, 3, 52 },
		{ AD_OPEN "<Item><Key>A</Key><Value Null=\"true\" /></Item>" AD_CLOSE, ANIMC_ERR_INVALID, 5, 40 },
		{ AD_OPEN "<Item><Key>A</Key></Item>" AD_CLOSE, ANIMC_ERR_INVALID, 5, 7 },
		/* A clip's Key names it and its file: empty, or blank once trimmed,
		 * it would have taken a made-up name (clip0) another clip may carry. */
		{ AD_OPEN CLIP("", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		  CLIP("clip0", "PT2S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")) AD_CLOSE, ANIMC_ERR_INVALID, 5, 12 },
		{ AD_OPEN CLIP("Walk", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		  CLIP(" \n\t", "PT2S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")) AD_CLOSE, ANIMC_ERR_INVALID, 8, 12 },
		{ AD_OPEN CLIP("<b>Walk</b>", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")) AD_CLOSE,
		  ANIMC_ERR_INVALID, 5, 12 },
		{ AD_OPEN "<Item><Key>A</Key><Value><Keyframes/></Value></Item>" AD_CLOSE, ANIMC_ERR_INVALID, 5, 26 },
		{ AD_OPEN CLIP("A", "PT1S", KEY(0, "PT1", "0 0 0", "0 0 0", "1 1 1")) AD_CLOSE, ANIMC_ERR_PARSE, 6, 37 },
		{ AD_OPEN CLIP("A", "1", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")) AD_CLOSE, ANIMC_ERR_PARSE, 5, 36 },
		{ AD_OPEN CLIP("A", "PT1S", KEY(2147483648, "PT0S", "0 0 0", "0 0 0", "1 1 1")) AD_CLOSE,
		  ANIMC_ERR_PARSE, 6, 18 },
		{ AD_OPEN CLIP("A", "PT1S", KEY(0, "PT0S", "0 0 INF", "0 0 0", "1 1 1")) AD_CLOSE,
		  ANIMC_ERR_INVALID, 6, 58 },
		{ AD_OPEN CLIP("A", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1 <!-- -->  1")) AD_CLOSE,
		  ANIMC_ERR_PARSE, 6, 107 },
		{ SK_OPEN CLIP("A", "PT1S", MKEY(0, "PT0S", IDENTITY)) "</AnimationClips>"
		  "<SkeletonHierarchy>-1 x</SkeletonHierarchy></Asset></XnaContent>", ANIMC_ERR_PARSE, 8, 37 },
		{ SK_OPEN CLIP("A", "PT1S", MKEY(0, "PT0S", IDENTITY)) "</AnimationClips>"
		  "<BindPose><Item>1 2 3</Item></BindPose></Asset></XnaContent>", ANIMC_ERR_PARSE, 8, 34 },
		{ SK_OPEN CLIP("A", "PT1S", MKEY(0, "PT0S", IDENTITY)) "</AnimationClips>"
		  "<BindPose>" IDENTITY "</BindPose><InverseBindPose/></Asset></XnaContent>", ANIMC_ERR_INVALID, 8, 88 },
		{ SK_OPEN CLIP("A", "PT1S", MKEY(0, "PT0S", "1 0 0 0 0 1 0 0 0 0 1 0 0 NaN 0 1")) AD_CLOSE,
		  ANIMC_ERR_INVALID, 6, 49 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		imported r = import_str(cases[i].doc);
		const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

		if (r.status != cases[i].status)
			fail_msg("case %zu: status %s, expected %s (%s)", i, animc_status_string(r.status),
				 animc_status_string(cases[i].status), e ? e->message : "no error");
		assert_non_null(e);
		if (e->line != cases[i].line || e->column != cases[i].column)
			fail_msg("case %zu: error at %u:%u, expected %u:%u: %s", i, e->line, e->column,
				 cases[i].line, cases[i].column, e->message);
		assert_int_equal(r.set.count, 0);
		release(&r);
	}
}

/* A root in a namespace is refused saying so (it said "the root element
 * is <XnaContent>, not <XnaContent>"). */
static void a_namespaced_root_is_named_as_such(void **state)
{
	imported r = import_str(XML "<XnaContent xmlns=\"urn:x\"></XnaContent>");
	const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

	(void)state;
	assert_int_equal(r.status, ANIMC_ERR_PARSE);
	assert_non_null(e);
	assert_string_equal(e->message, "the root element <XnaContent> is in the namespace 'urn:x'; XNA's "
			    "IntermediateSerializer reads it in none (remove the xmlns)");
	release(&r);
}

static void warnings_for_unknown_members_late_keys_and_empty_clips(void **state)
{
	static const char doc[] = AD_OPEN
		"<Item><Key>A</Key><Value><Duration>PT1S</Duration><Tempo>2</Tempo><Keyframes>\n"
		KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		KEY(0, "PT2S", "0 0 0", "0 0 0", "1 1 1")
		"</Keyframes></Value></Item>\n"
		CLIP("Empty", "PT0S", "")
		AD_CLOSE;
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 2);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 3);
	assert_int_equal(r.diags.items[0].line, 5);    /* <Tempo> */
	assert_int_equal(r.diags.items[1].line, 7);    /* the key at 2 s */
	assert_int_equal(r.diags.items[2].line, 9);    /* no keyframes */
	assert_int_equal(r.set.clips[1]->channel_count, 0);
	release(&r);
	/* No clips at all: the format's, but nothing to compile. */
	r = import_str(XML "<XnaContent><Asset Type=\"AnimationClassLibrary.AnimationData\">"
		       "<AnimationClips Null=\"true\"/></Asset></XnaContent>");
	assert_int_equal(r.status, ANIMC_ERR_NOT_FOUND);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	release(&r);
}

/* A member Null="true" that holds content: IntermediateSerializer skips
 * it whole (the member is null), and so does animc, saying so once at the
 * element (the keys were dropped without a word). */
static void content_of_a_null_member_is_said_once(void **state)
{
	static const char doc[] = AD_OPEN
		"<Item><Key>A</Key><Value><Duration>PT1S</Duration><Keyframes Null=\"true\">\n"
		KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")
		KEY(0, "PT1S", "1 0 0", "0 0 0", "1 1 1")
		"</Keyframes></Value></Item>\n"
		CLIP("B", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1"))
		AD_CLOSE;
	static const char text[] = AD_OPEN
		"<Item><Key>A</Key><Value><Duration>PT1S</Duration><Keyframes Null=\"true\"> x </Keyframes>"
		"</Value></Item>\n" AD_CLOSE;
	static const char empty[] = AD_OPEN
		"<Item><Key>A</Key><Value><Duration>PT1S</Duration><Keyframes Null=\"true\">\n</Keyframes>"
		"</Value></Item>\n" AD_CLOSE;
	imported r = import_str(doc);
	const test_diag *w = test_diags_first(&r.diags, ANIMC_WARNING);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 2);
	assert_int_equal(r.set.clips[0]->channel_count, 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 2);   /* and the clip of no keys */
	assert_non_null(w);
	assert_string_equal(w->kind, "nil-content");
	assert_int_equal(w->line, 5);
	assert_string_equal(w->message, "<Keyframes> is Null=\"true\" (none), and what it holds is ignored: "
			    "remove Null, or the content");
	release(&r);
	r = import_str(text);
	assert_non_null(w = test_diags_first(&r.diags, ANIMC_WARNING));
	assert_string_equal(w->kind, "nil-content");
	release(&r);
	r = import_str(empty);
	w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_true(!w || strcmp(w->kind, "nil-content") != 0);
	release(&r);
}

static void content_beats_the_animation_extension(void **state)
{
	static const char xna[] = XML "<XnaContent><Asset Type=\"X\"/></XnaContent>";
	static const char rg[] = XML "<AnimationSequence/>";
	const uint8_t *x = (const uint8_t *)xna, *g = (const uint8_t *)rg;

	(void)state;
	assert_ptr_equal(animc_importer_find("a.Animation", x, strlen(xna)), &animc_importer_xna);
	assert_ptr_equal(animc_importer_find("a.xml", x, strlen(xna)), &animc_importer_xna);
	assert_ptr_equal(animc_importer_find("a.Animation", g, strlen(rg)), &animc_importer_robotgame);
	assert_ptr_equal(animc_importer_find("a.Animation", (const uint8_t *)"junk", 4), &animc_importer_robotgame);
	assert_null(animc_importer_find("a.xml", (const uint8_t *)"<Other/>", 8));
	assert_ptr_equal(animc_importer_by_name("xna"), &animc_importer_xna);
}

/* A document whose root comes after a licence comment longer than
 * ANIMC_PROBE_HEAD_BYTES was skipped (.xml) or handed to the RobotGame
 * importer by its name (.Animation): the probes saw no root.  The probe
 * head reaches the root now, in UTF-8 and UTF-16. */
static void the_root_is_found_after_a_long_licence_comment(void **state)
{
	static const char *const roots[2] = { "<XnaContent><Asset Type=\"X\"/></XnaContent>", "<AnimationSequence/>" };
	const animc_importer *want[2] = { &animc_importer_xna, &animc_importer_robotgame };
	size_t line = strlen("  Licensed under the Ms-PL; see LICENSE.txt.\n");
	char *doc = malloc(200 * line + 200);

	(void)state;
	for (int k = 0; k < 2; k++) {
		strcpy(doc, XML "<!--\n");
		for (int i = 0; i < 200; i++)
			strcat(doc, "  Licensed under the Ms-PL; see LICENSE.txt.\n");
		strcat(doc, "-->\n");
		strcat(doc, roots[k]);
		size_t size = strlen(doc), u16_size;
		uint8_t *u16 = test_utf16(doc, size, false, true, &u16_size);

		assert_true(size > 2 * ANIMC_PROBE_HEAD_BYTES);
		assert_ptr_equal(animc_importer_find("a.xml", (const uint8_t *)doc, size), want[k]);
		assert_ptr_equal(animc_importer_find("a.Animation", (const uint8_t *)doc, size), want[k]);
		assert_ptr_equal(animc_importer_find("a.Animation", u16, u16_size), want[k]);
		/* Read from a file as a build reads it: as far as the root. */
		for (int form = 0; form < 2; form++) {
			const uint8_t *bytes = form ? u16 : (const uint8_t *)doc;
			size_t n = form ? u16_size : size, head_size;
			uint8_t *head;
			int fds[2];

			assert_int_equal(pipe(fds), 0);
			assert_int_equal(write(fds[1], bytes, n), (ssize_t)n);
			close(fds[1]);
			assert_true(animc_probe_head_read(fds[0], &head, &head_size));
			close(fds[0]);
			assert_true(head_size > ANIMC_PROBE_HEAD_BYTES);
			assert_true(head_size <= n);
			assert_memory_equal(head, bytes, head_size);
			assert_ptr_equal(animc_importer_find("a.xml", head, head_size), want[k]);
			free(head);
		}
		/* Only the head asks for more; bytes that are no XML do not. */
		assert_int_equal(animc_probe_head_wanted((const uint8_t *)doc, ANIMC_PROBE_HEAD_BYTES),
				 2 * ANIMC_PROBE_HEAD_BYTES);
		assert_int_equal(animc_probe_head_wanted((const uint8_t *)doc, size), size);
		free(u16);
	}
	memset(doc, 'x', ANIMC_PROBE_HEAD_BYTES);
	assert_int_equal(animc_probe_head_wanted((const uint8_t *)doc, ANIMC_PROBE_HEAD_BYTES), ANIMC_PROBE_HEAD_BYTES);
	assert_int_equal(animc_probe_head_wanted((const uint8_t *)doc, 10), ANIMC_PROBE_HEAD_BYTES);
	free(doc);
	/* A comment that never ends is looked into up to the limit. */
	doc = malloc(2 * ANIMC_PROBE_HEAD_MAX_BYTES);
	memset(doc, 'x', 2 * ANIMC_PROBE_HEAD_MAX_BYTES);
	memcpy(doc, "<!--", 4);
	assert_int_equal(animc_probe_head_wanted((const uint8_t *)doc, ANIMC_PROBE_HEAD_MAX_BYTES / 2 + 1),
			 ANIMC_PROBE_HEAD_MAX_BYTES);
	assert_int_equal(animc_probe_head_wanted((const uint8_t *)doc, ANIMC_PROBE_HEAD_MAX_BYTES),
			 ANIMC_PROBE_HEAD_MAX_BYTES);
	/* Undecided at the limit: an .xml file is read by its name. */
	assert_ptr_equal(animc_importer_find("a.xml", (const uint8_t *)doc, 2 * ANIMC_PROBE_HEAD_MAX_BYTES),
			 &animc_importer_xna);
	assert_null(animc_importer_find("a.dat", (const uint8_t *)doc, 2 * ANIMC_PROBE_HEAD_MAX_BYTES));
	free(doc);
}

/* The probe head of `doc`, read from a pipe as a build reads a file;
 * malloc()ed, its size in *size. */
static uint8_t *head_of(const char *doc, size_t n, size_t *size)
{
	uint8_t *head = NULL;
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	if (fork() == 0) {
		close(fds[0]);
		for (size_t at = 0; at < n;) {
			ssize_t w = write(fds[1], doc + at, n - at);

			if (w <= 0)
				_exit(1);
			at += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	assert_true(animc_probe_head_read(fds[0], &head, size));
	close(fds[0]);
	wait(NULL);
	return head;
}

/*
 * An XnaContent document whose root starts past the probe head's limit
 * (1 MiB): after a longer comment, or after more white space than the head
 * (which it does not grow for).  No probe saw a root: named, the file was
 * refused ("no importer recognises this file"); in a folder, skipped
 * without a word.  An .xml file is read by its name now, and compiles; one
 * of another root fails naming it.
 */
static void a_root_past_the_probe_head_is_read_by_its_name(void **state)
{
	static const char body[] = "<XnaContent>\n<Asset Type=\"AnimationClassLibrary.AnimationData\">\n"
				   "<AnimationClips>\n" CLIP("Walk", "PT1S", KEY(0, "PT0S", "0 0 0", "0 0 0", "1 1 1")
				   KEY(0, "PT1S", "1 0 0", "0 0 0", "1 1 1")) AD_CLOSE;
	size_t pad = ANIMC_PROBE_HEAD_MAX_BYTES + 4096;
	char *docs[3];

	(void)state;
	docs[0] = test_format(XML "<!--%*s-->\n%s", (int)pad, "", body);
	docs[1] = test_format("%*s%s", (int)(2 * ANIMC_PROBE_HEAD_BYTES), "", body);
	docs[2] = test_format(XML "<!--%*s-->\n<Other/>\n", (int)pad, "");
	for (int k = 0; k < 3; k++) {
		size_t size;
		uint8_t *head = head_of(docs[k], strlen(docs[k]), &size);
		imported r;

		assert_true(size < strlen(docs[k]));
		assert_ptr_equal(animc_importer_find("walk.xml", head, size), &animc_importer_xna);
		assert_ptr_equal(animc_importer_find("walk.XML", head, size), &animc_importer_xna);
		assert_null(animc_importer_find("walk.dat", head, size));
		free(head);
		r = import_str(docs[k]);
		if (k < 2) {
			assert_int_equal(r.status, ANIMC_OK);
			assert_int_equal(r.set.count, 1);
			assert_string_equal(r.set.clips[0]->name, "Walk");
		} else {
			assert_int_not_equal(r.status, ANIMC_OK);
			assert_non_null(strstr(test_diags_first(&r.diags, ANIMC_ERROR)->message,
					       "the root element is <Other>, not <XnaContent>"));
		}
		release(&r);
		free(docs[k]);
	}
}

/* IntermediateSerializer's shared resources: a member written "#Resource1",
 * its value in <Resources> after the asset.  The reference was refused as
 * "unexpected text inside <Value>", and <Resources>, spelt as XNA writes
 * it, was warned about as a possible misspelling.  Both now say that
 * shared resources are not read. */
static void shared_resources_are_said_to_be_unsupported(void **state)
{
	static const char resources[] =
		"  <Resources>\n"
		"    <Resource ID=\"#Resource1\" Type=\"SkinnedModel.AnimationClip\">\n"
		"      <Duration>PT1S</Duration><Keyframes><Item><Bone>0</Bone><Time>PT0S</Time>"
		"<Transform>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</Transform></Item></Keyframes>\n"
		"    </Resource>\n"
		"  </Resources>\n";
	char *doc = test_format(XML "<XnaContent>\n  <Asset Type=\"SkinnedModel.SkinningData\">\n"
				"    <AnimationClips><Item><Key>Idle</Key>\n"
				"      <Value> #Resource1 </Value></Item></AnimationClips>\n"
				"  </Asset>\n%s</XnaContent>", resources);
	imported r = import_str(doc);
	const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

	(void)state;
	assert_int_equal(r.status, ANIMC_ERR_UNSUPPORTED);
	assert_non_null(e);
	assert_int_equal(e->line, 5);
	assert_non_null(strstr(e->message, "<Value> refers to the shared resource '#Resource1'"));
	assert_non_null(strstr(e->message, "does not read IntermediateSerializer's shared resources"));
	release(&r);
	free(doc);

	/* A list written as a reference: the same. */
	r = import_str(XML "<XnaContent><Asset Type=\"SkinnedModel.SkinningData\"><AnimationClips/>"
		       "<BindPose>#Resource2</BindPose></Asset></XnaContent>");
	assert_int_equal(r.status, ANIMC_ERR_UNSUPPORTED);
	assert_non_null(strstr(test_diags_first(&r.diags, ANIMC_ERROR)->message, "'#Resource2'"));
	release(&r);

	/* <Resources> that nothing read refers to: a warning that says what it is. */
	doc = test_format(XML "<XnaContent>\n  <Asset Type=\"SkinnedModel.SkinningData\"><AnimationClips>"
			  "<Item><Key>Idle</Key><Value><Duration>PT1S</Duration><Keyframes><Item><Bone>0</Bone>"
			  "<Time>PT0S</Time><Transform>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</Transform></Item>"
			  "</Keyframes></Value></Item>"
			  "</AnimationClips></Asset>\n%s</XnaContent>", resources);
	r = import_str(doc);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	e = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_int_equal(e->line, 4);
	assert_string_equal(e->kind, "unknown-element");
	assert_non_null(strstr(e->message, "shared resources"));
	assert_null(strstr(e->message, "spelling"));
	release(&r);
	free(doc);
}

/* A Content folder's other documents: fonts, game data, clip-split
 * definitions.  Not animation: ANIMC_ERR_NOT_FOUND and no error (the caller
 * skips or refuses), the full type name for its messages. */
static void other_asset_types_hold_no_animation(void **state)
{
	static const struct {
		const char *doc, *type;
	} cases[] = {
		{ XML "<XnaContent xmlns:Graphics=\"Microsoft.Xna.Framework.Content.Pipeline.Graphics\">\n"
		  "<Asset Type=\"Graphics:FontDescription\"><FontName>Kootenay</FontName><Size>14</Size>"
		  "</Asset></XnaContent>",
		  "Microsoft.Xna.Framework.Content.Pipeline.Graphics.FontDescription" },
		{ XML "<XnaContent>\n<Asset Type=\"RolePlayingGameData.Map\"><Name>Castle</Name>"
		  "<Unterminated></Asset></XnaContent>",   /* not read past <Asset> */
		  "RolePlayingGameData.Map" },
		{ XML "<XnaContent xmlns:P=\"SkinnedModelPipeline\"><Asset Type=\" P:AnimationDefinition \">"
		  "<originalClipName>Take 001</originalClipName></Asset></XnaContent>",
		  "SkinnedModelPipeline.AnimationDefinition" },
		{ XML "<XnaContent><Asset Type=\"System.Collections.Generic.List[System.String]\">"
		  "<Item>a</Item></Asset></XnaContent>",
		  "System.Collections.Generic.List[System.String]" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		imported r = import_str(cases[i].doc);

		if (r.status != ANIMC_ERR_NOT_FOUND)
			fail_msg("case %zu: status %s", i, animc_status_string(r.status));
		assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
		assert_int_equal(r.set.count, 0);
		char *want = test_format("type '%s'", cases[i].type);
		if (!strstr(r.set.holds, want))
			fail_msg("case %zu: holds '%s', expected it to name %s", i, r.set.holds, want);
		free(want);
		release(&r);
	}
	/* An animation type stays one, and a broken document an error. */
	imported r = import_str(XML "<XnaContent><Asset Type=\"Nope:Map\"/></XnaContent>");
	assert_int_equal(r.status, ANIMC_ERR_PARSE);
	assert_string_equal(r.set.holds, "");
	release(&r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_time_before_zero_by_one_tick_fails),
	cmocka_unit_test(keyframes_split_into_one_channel_per_bone),
	cmocka_unit_test(unsorted_keys_are_sorted_with_a_warning_naming_the_bone),
	cmocka_unit_test(keys_of_one_bone_at_one_time_keep_the_later),
	cmocka_unit_test(spellings_give_one_clip),
	cmocka_unit_test(every_alias_of_the_root_counts),
	cmocka_unit_test(times_go_through_integer_ticks),
	cmocka_unit_test(numbered_bones_without_a_skeleton_are_said_once),
	cmocka_unit_test(bones_take_the_skeleton_names),
	cmocka_unit_test(relative_to_bind_composes_key_then_rest),
	cmocka_unit_test(matrix_keys_split_into_translation_rotation_scale),
	cmocka_unit_test(model_data_keeps_root_clips_apart),
	cmocka_unit_test(clips_animc_names_alike_are_renamed),
	cmocka_unit_test(sequence_compiles_to_the_bytes_of_its_twin),
	cmocka_unit_test(rotations_off_unit_length_fail_where_they_are_written),
	cmocka_unit_test(a_list_past_the_text_limit_says_the_limit),
	cmocka_unit_test(sequences_need_a_bone_name_and_the_clip_a_duration),
	cmocka_unit_test(errors_point_at_the_element),
	cmocka_unit_test(a_namespaced_root_is_named_as_such),
	cmocka_unit_test(other_asset_types_hold_no_animation),
	cmocka_unit_test(warnings_for_unknown_members_late_keys_and_empty_clips),
	cmocka_unit_test(content_of_a_null_member_is_said_once),
		cmocka_unit_test(content_beats_the_animation_extension),
	cmocka_unit_test(the_root_is_found_after_a_long_licence_comment),
	cmocka_unit_test(a_root_past_the_probe_head_is_read_by_its_name),
	cmocka_unit_test(shared_resources_are_said_to_be_unsupported),
};

ANIMC_TEST_GROUP(tests);
