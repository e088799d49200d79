/*
 * robotgame_test.c - the RobotGame importer on small documents: values,
 * dialect leniencies (order, unknown elements, absent lists, 1/0 booleans)
 * and errors with their line and column.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc_formats.h>

#define HEAD "<?xml version=\"1.0\" ?>\n" \
	"<AnimationSequence xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"

static const char good_doc[] = HEAD
	"  <KeyFrameSequenceCount>2</KeyFrameSequenceCount>\n"
	"  <Duration>2.000000</Duration>\n"
	"  <KeyFrameSequences>\n"
	"    <KeyFrameSequence>\n"
	"      <BoneName> L Calf</BoneName>\n"
	"      <KeyCount>2</KeyCount>\n"
	"      <Duration>2.000000</Duration>\n"
	"      <KeyInterval>1.000000</KeyInterval>\n"
	"      <HasTranslation>true</HasTranslation>\n"
	"      <HasRotation>true</HasRotation>\n"
	"      <HasScale>false</HasScale>\n"
	"      <HasTime>false</HasTime>\n"
	"      <FixedTranslation>true</FixedTranslation>\n"
	"      <FixedRotation>false</FixedRotation>\n"
	"      <FixedScale>false</FixedScale>\n"
	"      <Translation><Vector3><X>0.650804</X><Y>-0.000000</Y><Z>1E-05</Z></Vector3></Translation>\n"
	"      <Rotation>\n"
	"        <Quaternion><X>0</X><Y>0</Y><Z>-0.212213</Z><W>0.977223</W></Quaternion>\n"
	"        <Quaternion><W>1</W><Z>0</Z><Y>0</Y><X>0</X></Quaternion>\n"
	"      </Rotation>\n"
	"    </KeyFrameSequence>\n"
	"    <KeyFrameSequence>\n"
	"      <BoneName>Footsteps</BoneName>\n"
	"      <KeyCount>2</KeyCount>\n"
	"      <Duration>2</Duration>\n"
	"      <KeyInterval>0</KeyInterval>\n"
	"      <HasTranslation>1</HasTranslation>\n"
	"      <HasTime>1</HasTime>\n"
	"      <Translation><Vector3><X>1</X><Y>2</Y><Z>3</Z></Vector3>"
	"<Vector3><X>4</X><Y>5</Y><Z>6</Z></Vector3></Translation>\n"
	"      <Rotation />\n"
	"      <Scale xsi:nil=\"true\" />\n"
	"      <Time><float>0</float><float>1.5</float></Time>\n"
	"    </KeyFrameSequence>\n"
	"  </KeyFrameSequences>\n"
	"</AnimationSequence>\n";

typedef struct imported {
	animc_status status;
	animc_clip_set set;
	test_diags diags;
} imported;

static imported import_doc(const char *doc, size_t len)
{
	imported r = { .diags.echo = getenv("ANIMC_TEST_ECHO") != NULL };
	animc_diag_sink sink = test_diag_sink(&r.diags, "t.Animation");
	animc_import_request req = { "t.Animation", (const uint8_t *)doc, len, NULL };

	r.status = animc_importer_robotgame.import(&req, &r.set, &sink);
	return r;
}

static imported import_str(const char *doc)
{
	return import_doc(doc, strlen(doc));
}

static void release(imported *r)
{
	animc_clip_set_release(&r->set);
	test_diags_release(&r->diags);
}

/* Expect an import failure with `status`, its first error at line:column
 * (column 0: any). */
static void expect_error(const char *doc, animc_status status, uint32_t line, uint32_t column)
{
	imported r = import_str(doc);
	const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

	if (r.status != status)
		fail_msg("status %d (%s), expected %d; first error: %s", r.status,
			 animc_status_string(r.status), status, e ? e->message : "none");
	assert_int_equal(r.set.count, 0);
	assert_non_null(e);
	if (line)
		assert_int_equal(e->line, line);
	if (column)
		assert_int_equal(e->column, column);
	release(&r);
}

static void imports_every_field(void **state)
{
	imported r = import_str(good_doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_int_equal(r.set.count, 1);
	assert_true(r.set.is_single_asset);
	const animc_clip *clip = r.set.clips[0];
	assert_int_equal(clip->declared_channel_count, 2);
	assert_true(clip->duration_s == 2);
	assert_int_equal(clip->channel_count, 2);

	const animc_channel *a = &clip->channels[0];
	assert_string_equal(a->bone, "L Calf");   /* trimmed, as the oracle reads it */
	assert_int_equal(a->line, 6);
	assert_int_equal(a->key_count, 2);
	assert_true(a->key_interval_s == 1 && a->duration_s == 2);
	assert_false(a->has_time);
	assert_null(a->times_s);
	assert_true(a->tracks[ANIMC_TRANSLATION].is_present && a->tracks[ANIMC_TRANSLATION].is_fixed);
	assert_int_equal(a->tracks[ANIMC_TRANSLATION].value_count, 1);
	const float *t = a->tracks[ANIMC_TRANSLATION].values;
	assert_true(t[0] == (float)0.650804 && t[1] == 0 && signbit(t[1]) && t[2] == (float)1e-5);
	assert_int_equal(a->tracks[ANIMC_ROTATION].value_count, 2);
	const float *q = a->tracks[ANIMC_ROTATION].values;
	assert_true(q[2] == (float)-0.212213 && q[3] == (float)0.977223);
	/* Components in any order land in x y z w. */
	assert_true(q[4] == 0 && q[5] == 0 && q[6] == 0 && q[7] == 1);
	assert_false(a->tracks[ANIMC_SCALE].is_present);

	const animc_channel *b = &clip->channels[1];
	assert_string_equal(b->bone, "Footsteps");
	assert_true(b->has_time);
	assert_true(b->times_s[0] == 0 && b->times_s[1] == 1.5f);
	assert_true(b->tracks[ANIMC_TRANSLATION].is_present && !b->tracks[ANIMC_TRANSLATION].is_fixed);
	assert_true(b->tracks[ANIMC_TRANSLATION].values[5] == 6);
	/* Missing flags read as false, empty and nil lists as empty. */
	assert_false(b->tracks[ANIMC_ROTATION].is_present);
	assert_int_equal(b->tracks[ANIMC_ROTATION].value_count, 0);
	assert_int_equal(b->tracks[ANIMC_SCALE].value_count, 0);
	assert_int_equal(animc_clip_process(r.set.clips[0], NULL, NULL, NULL), ANIMC_OK);
	release(&r);
}

/* Reverse the order of the children of every <KeyFrameSequence>. */
static void shuffled_elements_give_the_same_clip(void **state)
{
	static const char doc[] = HEAD
		"<KeyFrameSequences><KeyFrameSequence>"
		"<Rotation><Quaternion><W>1</W><X>0</X><Y>0</Y><Z>0</Z></Quaternion></Rotation>"
		"<FixedRotation>true</FixedRotation><HasRotation>true</HasRotation>"
		"<KeyInterval>0.5</KeyInterval><Duration>1</Duration><KeyCount>3</KeyCount>"
		"<BoneName>Root</BoneName></KeyFrameSequence></KeyFrameSequences>"
		"<Duration>1</Duration><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
		"</AnimationSequence>";
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	const animc_channel *c = &r.set.clips[0]->channels[0];
	assert_string_equal(c->bone, "Root");
	assert_int_equal(c->key_count, 3);
	assert_true(c->key_interval_s == 0.5f);
	assert_true(c->tracks[ANIMC_ROTATION].is_fixed);
	assert_true(c->tracks[ANIMC_ROTATION].values[3] == 1);
	assert_int_equal(r.set.clips[0]->declared_channel_count, 1);
	release(&r);
}

static void unknown_elements_warn_with_their_place(void **state)
{
	static const char doc[] = HEAD
		"<Duration>1</Duration><KeyFrameSequenceCount>0</KeyFrameSequenceCount>\n"
		"  <Author><Name>someone</Name></Author>\n"
		"<KeyFrameSequences/></AnimationSequence>";
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	const test_diag *w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_int_equal(w->line, 4);
	assert_int_equal(w->column, 11);
	assert_non_null(strstr(w->message, "<Author>"));
	assert_int_equal(r.set.clips[0]->channel_count, 0);
	release(&r);
}

/* XmlSerializer matches a member by name and namespace: <xsd:Duration>,
 * or a list under another default namespace, is an element it skips.
 * They were read as the members they are named like. */
static void namespaced_elements_are_unknown(void **state)
{
	static const char doc[] = "<?xml version=\"1.0\" ?>\n"
		"<AnimationSequence xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\n"
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount>\n"
		"<xsd:Duration>5</xsd:Duration><Duration>1</Duration>\n"
		"<KeyFrameSequences xmlns=\"http://example.com/x\"><KeyFrameSequence><BoneName>A</BoneName>"
		"<KeyCount>1</KeyCount><Duration>1</Duration><KeyInterval>1</KeyInterval>"
		"</KeyFrameSequence></KeyFrameSequences>\n"
		"<KeyFrameSequences xmlns=\"\"><KeyFrameSequence><BoneName>B</BoneName>"
		"<KeyCount>1</KeyCount><Duration>1</Duration><KeyInterval>1</KeyInterval>"
		"<HasTranslation>true</HasTranslation><FixedTranslation>true</FixedTranslation>"
		"<Translation><Vector3 xmlns=\"urn:other\"><X>9</X><Y>9</Y><Z>9</Z></Vector3>"
		"<Vector3><X>1</X><Y>2</Y><Z>3</Z></Vector3></Translation>"
		"</KeyFrameSequence></KeyFrameSequences>\n"
		"</AnimationSequence>";
	imported r = import_str(doc);
	const test_diag *w;

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 3);
	w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_int_equal(w->line, 4);
	assert_string_equal(w->kind, "unknown-element");
	assert_non_null(strstr(w->message, "<xsd:Duration>"));
	assert_non_null(strstr(w->message, "'http://www.w3.org/2001/XMLSchema'"));
	assert_true(r.set.clips[0]->duration_s == 1.0f);
	assert_int_equal(r.set.clips[0]->channel_count, 1);
	const animc_channel *c = &r.set.clips[0]->channels[0];
	assert_string_equal(c->bone, "B");
	assert_int_equal(c->tracks[ANIMC_TRANSLATION].value_count, 1);
	assert_true(c->tracks[ANIMC_TRANSLATION].values[0] == 1);
	release(&r);
}

/* A list marked xsi:nil="true" is empty whatever it holds: .NET's
 * XmlSerializer reads it as none and skips its content.  The content was
 * compiled, with no word. */
static void a_nil_list_is_empty_whatever_it_holds(void **state)
{
	static const char doc[] = HEAD
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>\n"
		"<KeyFrameSequences><KeyFrameSequence><BoneName>A</BoneName>"
		"<KeyCount>1</KeyCount><Duration>1</Duration><KeyInterval>1</KeyInterval>"
		"<HasTranslation>true</HasTranslation><FixedTranslation>true</FixedTranslation>\n"
		"<Translation><Vector3><X>1</X><Y>2</Y><Z>3</Z></Vector3></Translation>\n"
		"<Scale xsi:nil=\"true\"><Vector3><X>9</X><Y>9</Y><Z>9</Z></Vector3>"
		"<Vector3><X>9</X><Y>9</Y><Z>9</Z></Vector3></Scale>\n"
		"<Time xsi:nil=\"true\">stray</Time>\n"
		"</KeyFrameSequence></KeyFrameSequences>\n"
		"</AnimationSequence>";
	static const char nil_sequences[] = HEAD
		"<KeyFrameSequenceCount>0</KeyFrameSequenceCount><Duration>1</Duration>\n"
		"<KeyFrameSequences xsi:nil=\"true\"><KeyFrameSequence><BoneName>A</BoneName>"
		"<KeyCount>1</KeyCount><Duration>1</Duration><KeyInterval>1</KeyInterval>"
		"</KeyFrameSequence>text<KeyFrameSequence/></KeyFrameSequences>\n"
		"</AnimationSequence>";
	imported r = import_str(doc);
	const test_diag *w;

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.clips[0]->channel_count, 1);
	const animc_channel *c = &r.set.clips[0]->channels[0];
	assert_true(c->tracks[ANIMC_TRANSLATION].is_present);
	assert_int_equal(c->tracks[ANIMC_SCALE].value_count, 0);
	assert_false(c->has_time);
	/* One warning per list, at its first content. */
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 2);
	w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_string_equal(w->kind, "nil-content");
	assert_int_equal(w->line, 6);
	assert_non_null(strstr(w->message, "<Scale>"));
	assert_non_null(strstr(r.diags.items[1].message, "<Time>"));
	release(&r);

	r = import_str(nil_sequences);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.clips[0]->channel_count, 0);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_string_equal(test_diags_first(&r.diags, ANIMC_WARNING)->kind, "nil-content");
	release(&r);
}

static void missing_count_warns(void **state)
{
	imported r = import_str(HEAD "<Duration>1</Duration></AnimationSequence>");

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	assert_int_equal(r.set.clips[0]->declared_channel_count, -1);
	release(&r);
}

/* Sequences of one bone name are kept (the original wrote them), with a
 * warning at the last of them naming the first; a namespace on the root
 * is refused, as XmlSerializer refuses it. */
static void shared_bone_names_warn_and_namespaces_are_refused(void **state)
{
#define SEQ(name) "<KeyFrameSequence><BoneName>" name "</BoneName><KeyCount>1</KeyCount><Duration>1</Duration>" \
	"<KeyInterval>1</KeyInterval><HasTranslation>true</HasTranslation><FixedTranslation>true</FixedTranslation>" \
	"<Translation><Vector3><X>1</X><Y>2</Y><Z>3</Z></Vector3></Translation></KeyFrameSequence>\n"
	static const char doc[] = HEAD
		"<Duration>1</Duration><KeyFrameSequenceCount>3</KeyFrameSequenceCount><KeyFrameSequences>\n"
		SEQ("Bone") SEQ("Other") SEQ("Bone")
		"</KeyFrameSequences></AnimationSequence>";
#undef SEQ
	imported r = import_str(doc);

	(void)state;
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.clips[0]->channel_count, 3);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
	const test_diag *w = test_diags_first(&r.diags, ANIMC_WARNING);
	assert_int_equal(w->line, 6);
	assert_string_equal(w->message, "2 sequences are named 'Bone' (the first at line 4); the runtime finds bones "
			    "by name and plays the last one's values: give each its own name");
	release(&r);
	expect_error("<?xml version=\"1.0\"?>\n<AnimationSequence xmlns=\"urn:x\"><Duration>1</Duration>"
		     "</AnimationSequence>", ANIMC_ERR_PARSE, 2, 0);
}

/* NaN and INF are xs:float spellings: a used track or time holding one
 * fails where the value is written, not at its sequence; a list its flags
 * leave unused fails for being there, at the list. */
static void non_finite_values_fail_where_they_are_written(void **state)
{
	static const char doc[] = HEAD
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>"
		"<KeyFrameSequences><KeyFrameSequence><BoneName>Hand</BoneName><KeyCount>1</KeyCount>"
		"<Duration>1</Duration><KeyInterval>0</KeyInterval><HasTranslation>%s</HasTranslation>"
		"<Translation><Vector3><X>1</X><Y>INF</Y><Z>NaN</Z></Vector3></Translation>"
		"</KeyFrameSequence></KeyFrameSequences></AnimationSequence>";
	char *used = test_format(doc, "true"), *unused = test_format(doc, "false");
	imported r = import_str(used);
	const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

	(void)state;
	assert_int_equal(r.status, ANIMC_ERR_INVALID);
	assert_non_null(e);
	assert_string_equal(e->message, "bone 'Hand': translation key 0 is infinite");
	assert_int_equal(e->line, 3);
	assert_int_equal(e->column, 275);   /* just after <Y> */
	release(&r);
	r = import_str(unused);
	e = test_diags_first(&r.diags, ANIMC_ERROR);
	assert_int_equal(r.status, ANIMC_ERR_INVALID);
	assert_non_null(e);
	assert_string_equal(e->message, "bone 'Hand': <Translation> holds 1 value but HasTranslation is false");
	assert_int_equal(e->line, 3);
	assert_int_equal(e->column, 256);   /* just after <Translation> */
	release(&r);
	free(used), free(unused);
}

/* A rotation key whose length is off 1 (or 0) fails at its <Quaternion>,
 * not at its sequence, and a NaN component is named as such; a list its
 * flags leave unused fails for being there, at the list. */
static void rotations_off_unit_length_fail_where_they_are_written(void **state)
{
	static const char doc[] = HEAD
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount><Duration>1</Duration>\n"
		"<KeyFrameSequences><KeyFrameSequence><BoneName>Hand</BoneName><KeyCount>3</KeyCount>\n"
		"<Duration>1</Duration><KeyInterval>0.5</KeyInterval><HasRotation>%s</HasRotation>\n"
		"<Rotation>\n"
		"<Quaternion><X>0</X><Y>0</Y><Z>0</Z><W>1</W></Quaternion>\n"
		"<Quaternion><X>0</X><Y>0.6</Y><Z>0</Z><W>0.8</W></Quaternion>\n"
		"  <Quaternion><X>%s</X><Y>0</Y><Z>0</Z><W>%s</W></Quaternion>\n"
		"</Rotation></KeyFrameSequence></KeyFrameSequences></AnimationSequence>";
	static const struct {
		const char *has_rotation, *x, *w;
		animc_status status;
		uint32_t line, column;
		const char *message;
	} cases[] = {
		{ "true", "0", "2", ANIMC_ERR_INVALID, 9, 15,
		  "bone 'Hand': rotation key 2 is not a unit quaternion (length 2)" },
		{ "true", "0", "0", ANIMC_ERR_INVALID, 9, 15,
		  "bone 'Hand': rotation key 2 is not a unit quaternion (length 0)" },
		{ "true", "NaN", "2", ANIMC_ERR_INVALID, 9, 18, "bone 'Hand': rotation key 2 is NaN" },
		{ "true", "0", "1.0005", ANIMC_OK, 0, 0, NULL },
		{ "false", "0", "2", ANIMC_ERR_INVALID, 6, 11,
		  "bone 'Hand': <Rotation> holds 3 values but HasRotation is false" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format(doc, cases[i].has_rotation, cases[i].x, cases[i].w);
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

static void value_errors_point_at_the_value(void **state)
{
	(void)state;
	/* Line 3, column just after <Duration>. */
	expect_error(HEAD "<KeyFrameSequenceCount>0</KeyFrameSequenceCount>\n<Duration>abc</Duration>"
		     "</AnimationSequence>", ANIMC_ERR_PARSE, 4, 11);
	expect_error(HEAD "<KeyFrameSequenceCount>abc</KeyFrameSequenceCount></AnimationSequence>",
		     ANIMC_ERR_PARSE, 3, 24);
	expect_error(HEAD "<KeyFrameSequenceCount>3000000000</KeyFrameSequenceCount></AnimationSequence>",
		     ANIMC_ERR_PARSE, 3, 24);
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence>\n"
		     "<HasScale>yes</HasScale></KeyFrameSequence></KeyFrameSequences></AnimationSequence>",
		     ANIMC_ERR_PARSE, 4, 11);
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>B</BoneName>\n"
		     "<KeyCount>-4</KeyCount><Duration>1</Duration><KeyInterval>0</KeyInterval>"
		     "</KeyFrameSequence></KeyFrameSequences></AnimationSequence>",
		     ANIMC_ERR_INVALID, 4, 0);
	/* -1 too, which no other check would catch (a sequence of no lists). */
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>B</BoneName>\n"
		     "<KeyCount>-1</KeyCount><Duration>1</Duration><KeyInterval>0</KeyInterval>"
		     "</KeyFrameSequence></KeyFrameSequences></AnimationSequence>",
		     ANIMC_ERR_INVALID, 4, 0);
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence>\n"
		     "<KeyCount>1</KeyCount><KeyCount>1</KeyCount></KeyFrameSequence>"
		     "</KeyFrameSequences></AnimationSequence>", ANIMC_ERR_PARSE, 4, 0);
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>B</BoneName>\n"
		     "<KeyCount>1</KeyCount><Duration>1</Duration></KeyFrameSequence>"
		     "</KeyFrameSequences></AnimationSequence>", ANIMC_ERR_INVALID, 3, 60);
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>B</BoneName>\n"
		     "<Translation><Vector3><X>1</X><Y>2</Y></Vector3></Translation>"
		     "</KeyFrameSequence></KeyFrameSequences></AnimationSequence>", ANIMC_ERR_INVALID, 4, 0);
	expect_error(HEAD "<Duration>1</Duration>oops<KeyFrameSequences/></AnimationSequence>",
		     ANIMC_ERR_PARSE, 0, 0);
	expect_error(HEAD "</AnimationSequence>", ANIMC_ERR_INVALID, 2, 0);   /* no Duration */
}

/* A Duration or KeyInterval below 0 or not finite, a KeyInterval of 0 for
 * keys without times, and a list of the wrong length, fail at their own element, saying which Duration; the clip's
 * validation would name only the root or the sequence. */
static void durations_and_list_lengths_fail_where_they_are_written(void **state)
{
	static const char doc[] = HEAD
		"<KeyFrameSequenceCount>1</KeyFrameSequenceCount>\n"
		"  <Duration>%s</Duration>\n"
		"<KeyFrameSequences><KeyFrameSequence><BoneName>Hand</BoneName><KeyCount>2</KeyCount>\n"
		"  <Duration>%s</Duration><KeyInterval>%s</KeyInterval>\n"
		"<HasTranslation>true</HasTranslation><FixedTranslation>%s</FixedTranslation>\n"
		"  <Translation><Vector3><X>1</X><Y>2</Y><Z>3</Z></Vector3></Translation>\n"
		"</KeyFrameSequence></KeyFrameSequences></AnimationSequence>";
	static const struct {
		const char *clip_duration, *duration, *interval, *fixed;
		animc_status status;
		uint32_t line, column;
		const char *message;
	} cases[] = {
		{ "-1", "1", "1", "true", ANIMC_ERR_INVALID, 4, 13,
		  "the clip's own <Duration> (not a sequence's) is -1 s: a duration is a finite number of "
		  "seconds, 0 or more" },
		{ "NaN", "1", "1", "true", ANIMC_ERR_INVALID, 4, 13,
		  "the clip's own <Duration> (not a sequence's) is nan s: a duration is a finite number of "
		  "seconds, 0 or more" },
		{ "1", "-INF", "1", "true", ANIMC_ERR_INVALID, 6, 13,
		  "bone 'Hand': the sequence's <Duration> is -inf s: a duration is a finite number of seconds, "
		  "0 or more" },
		{ "1", "1", "-0.5", "true", ANIMC_ERR_INVALID, 6, 38,
		  "bone 'Hand': <KeyInterval> is -0.5 s: an interval is a finite number of seconds, 0 or more" },
		{ "1", "1", "1", "false", ANIMC_ERR_INVALID, 8, 16,
		  "bone 'Hand': <Translation> has 1 value, expected 2 (KeyCount)" },
		{ "1", "1", "0", "false", ANIMC_ERR_INVALID, 6, 38,
		  "bone 'Hand': <KeyInterval> is 0 but the 2 keys have no <Time>: uniform keys (HasTime false) "
		  "are KeyInterval seconds apart; give the interval, or the key times" },
		{ "1", "1", "0", "true", ANIMC_OK, 0, 0, NULL },   /* a fixed track has one key */
		{ "1", "1", "1", "true", ANIMC_OK, 0, 0, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format(doc, cases[i].clip_duration, cases[i].duration, cases[i].interval,
					 cases[i].fixed);
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

/* A sequence without a bone name would bind to no bone: a missing, empty
 * (once trimmed) or nil <BoneName> fails, the missing one at its sequence. */
static void sequences_need_a_bone_name(void **state)
{
	static const char doc[] = HEAD
		"<Duration>1</Duration><KeyFrameSequenceCount>1</KeyFrameSequenceCount>\n"
		"<KeyFrameSequences>\n"
		"  <KeyFrameSequence>%s<KeyCount>1</KeyCount><Duration>1</Duration>"
		"<KeyInterval>1</KeyInterval></KeyFrameSequence>\n"
		"</KeyFrameSequences></AnimationSequence>";
	static const struct {
		const char *bone;
		uint32_t column;
		const char *message;
	} cases[] = {
		{ "", 21, "<KeyFrameSequence> has no <BoneName>: the runtime finds bones by name; give the "
			  "sequence its bone's name" },
		{ "<BoneNam>Hand</BoneNam>", 21, "<KeyFrameSequence> has no <BoneName>: the runtime finds "
						 "bones by name; give the sequence its bone's name" },
		{ "<BoneName></BoneName>", 31, "<BoneName> is empty: the runtime finds bones by name; give "
					       "the sequence its bone's name" },
		{ "<BoneName> \t </BoneName>", 31, "<BoneName> is empty: the runtime finds bones by name; "
						   "give the sequence its bone's name" },
		{ "<BoneName xsi:nil=\"true\" />", 48, "<BoneName> is empty: the runtime finds bones by "
							"name; give the sequence its bone's name" },
	};

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
}

static void time_list_must_match_keycount(void **state)
{
	(void)state;
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>B</BoneName>"
		     "<KeyCount>3</KeyCount><Duration>1</Duration><KeyInterval>0</KeyInterval>\n"
		     "<HasTime>true</HasTime><Time><float>0</float></Time>"
		     "</KeyFrameSequence></KeyFrameSequences></AnimationSequence>",
		     ANIMC_ERR_INVALID, 4, 0);
	expect_error(HEAD "<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>B</BoneName>"
		     "<KeyCount>1</KeyCount><Duration>1</Duration><KeyInterval>0</KeyInterval>\n"
		     "<Time><float>0</float></Time>"
		     "</KeyFrameSequence></KeyFrameSequences></AnimationSequence>",
		     ANIMC_ERR_INVALID, 4, 0);
}

static void hostile_xml_is_refused(void **state)
{
	(void)state;
	expect_error("", ANIMC_ERR_PARSE, 0, 0);
	expect_error("\x01\x02garbage\xff", ANIMC_ERR_PARSE, 1, 0);
	expect_error(HEAD "<Duration>1</Dur", ANIMC_ERR_PARSE, 0, 0);            /* truncated */
	expect_error("<?xml version=\"1.0\"?>\n<Other/>", ANIMC_ERR_PARSE, 2, 0);
	expect_error(HEAD "<Duration>1\xC3\x28</Duration></AnimationSequence>", ANIMC_ERR_PARSE, 3, 0);
	/* Entity expansion bomb and external entity: refused at the DOCTYPE. */
	expect_error("<?xml version=\"1.0\"?>\n<!DOCTYPE AnimationSequence [\n"
		     "<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n"
		     "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>\n"
		     "<AnimationSequence><Duration>&c;</Duration></AnimationSequence>",
		     ANIMC_ERR_PARSE, 2, 0);
	expect_error("<?xml version=\"1.0\"?>\n<!DOCTYPE x SYSTEM \"file:///etc/passwd\">\n"
		     "<AnimationSequence/>", ANIMC_ERR_PARSE, 2, 0);
	/* An undeclared entity is an error, not an empty string. */
	expect_error(HEAD "<Duration>&x;</Duration></AnimationSequence>", ANIMC_ERR_PARSE, 3, 0);
}

/* The XML errors met most often are said in the user's terms, not
 * libxml2's, at their line and column; only the first error of a file is
 * reported (a bad encoding used to add libxml2's "Premature end of data"). */
static void xml_errors_are_said_in_the_users_terms_once(void **state)
{
	static const struct {
		const char *doc;
		uint32_t line, column;
		const char *message;
	} cases[] = {
		{ "\x01\x02garbage\xff", 1, 1, "not XML: no element starts the document (is this the right file?)" },
		{ "hello\n", 1, 1, "not XML: no element starts the document (is this the right file?)" },
		{ HEAD "<Duration>1\xff\xfe</Duration></AnimationSequence>", 3, 12,
		  "byte 0xFF is not UTF-8: save the file as UTF-8, or name its encoding in the declaration "
		  "(<?xml version=\"1.0\" encoding=\"...\"?>)" },
		{ HEAD "<Duration>1</Duration>\n  <", 4, 4,
		  "'<' starts no element name (a '<' in text is written &lt;)" },
		{ HEAD "<Duration>1 & 2</Duration></AnimationSequence>", 3, 14,
		  "'&' starts no entity name (a '&' in text is written &amp;)" },
		{ HEAD "<Duration>1</Dur></AnimationSequence>", 3, 18, "</Dur> ends <Duration>, which line 3 opened" },
		{ HEAD "<Duration>1</Duration>", 3, 23,
		  "the file ends inside <AnimationSequence>, which line 2 opened: is it cut short?" },
		{ HEAD "<Duration>1</Duration>\n  <KeyFrameSeq", 4, 15,
		  "the file ends inside the start tag <KeyFrameSeq, which line 4 opened: is it cut short?" },
		/* An end tag without its '>' is no start tag of no name on line 0. */
		{ HEAD "<Duration>1</Duration\n<KeyFrameSequences/>\n</AnimationSequence>", 4, 1,
		  "the end tag </Duration on line 3 has no '>'" },
		{ HEAD "<Duration>1</Duration>\n</AnimationSequence", 4, 20,
		  "the file ends inside the end tag </AnimationSequence: is it cut short?" },
		{ HEAD "<Duration>1</Duration></AnimationSequence>\n<x/>", 4, 1,
		  "more after the end of the root element: a document holds one root element" },
		{ HEAD "<Duration>&x;</Duration></AnimationSequence>", 3, 14,
		  "no entity &x; (XML's own are &amp; &lt; &gt; &quot; &apos;, and no DTD is read)" },
		{ HEAD "<Duration>\x01</Duration></AnimationSequence>", 3, 11,
		  "character U+0001 is not allowed in XML text" },
		{ HEAD "<Duration>1&amp2</Duration></AnimationSequence>", 3, 17,
		  "'&' starts a name no ';' ends (a '&' in text is written &amp;)" },
		{ HEAD "<Duration>&#1;</Duration></AnimationSequence>", 3, 15,
		  "the character reference names U+0001, which XML does not allow" },
		{ "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<AnimationSequence>\x8e\xff</AnimationSequence>", 1, 38,
		  "the bytes do not match the document's character encoding" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		imported r = import_str(cases[i].doc);
		const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);

		if (r.status != ANIMC_ERR_PARSE || !e)
			fail_msg("case %zu: status %s, error %s", i, animc_status_string(r.status),
				 e ? e->message : "none");
		if (e->line != cases[i].line || e->column != cases[i].column)
			fail_msg("case %zu: error at %u:%u, expected %u:%u: %s", i, e->line, e->column, cases[i].line,
				 cases[i].column, e->message);
		assert_string_equal(e->message, cases[i].message);
		if (test_diags_count(&r.diags, ANIMC_ERROR) != 1)
			fail_msg("case %zu: %zu errors, expected 1", i,
				 (size_t)test_diags_count(&r.diags, ANIMC_ERROR));
		release(&r);
	}
}

/* libxml2 hands on a start tag before it finds its '>': a file cut short
 * inside one gave, beside the error, an unknown-element warning (counted)
 * for the half-read name, sending the user to check a spelling that was
 * fine.  Only the error now, in both dialects and their members. */
static void a_start_tag_cut_short_is_no_unknown_element(void **state)
{
	static const char *const docs[] = {
		HEAD "<Duration>1</Duration>\n<KeyFrameSequences><KeyFrameSequence><HasTransla",
		HEAD "<Duration>1</Duration>\n<KeyFrameSequences><KeyFrameSequence><HasTransla x=\"1\" ",
		"<?xml version=\"1.0\"?>\n<XnaContent><Asset Type=\"AnimationClassLibrary.AnimationData\">\n"
		"<AnimationClips><Item><Ke",
	};

	(void)state;
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t.Animation");
		animc_import_request req = { "t.Animation", (const uint8_t *)docs[i], strlen(docs[i]), NULL };
		animc_clip_set set = { 0 };
		const animc_importer *importer = i < 2 ? &animc_importer_robotgame : &animc_importer_xna;

		assert_int_equal(importer->import(&req, &set, &sink), ANIMC_ERR_PARSE);
		if (test_diags_count(&diags, ANIMC_WARNING) != 0)
			fail_msg("doc %zu: a warning: %s", i, diags.items[0].message);
		assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), 1);
		assert_int_equal(test_diags_first(&diags, ANIMC_ERROR)->line, i < 2 ? 4 : 3);
		assert_non_null(strstr(test_diags_first(&diags, ANIMC_ERROR)->message, "cut short"));
		animc_clip_set_release(&set);
		test_diags_release(&diags);
	}
}

static void deep_nesting_ends_quickly(void **state)
{
	const size_t depth = 200000;
	size_t head = strlen(HEAD), n = head + depth * 7 + 32;
	char *doc = malloc(n), *p = doc;

	(void)state;
	memcpy(p, HEAD, head);
	p += head;
	for (size_t i = 0; i < depth; i++) {
		memcpy(p, "<a><b>", 6);
		p += 6;
	}
	*p = '\0';
	imported r = import_doc(doc, (size_t)(p - doc));
	assert_int_not_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 0);
	release(&r);
	/* Deep inside a known element too. */
	p = doc + head;
	memcpy(p, "<KeyFrameSequences>", 19);
	p += 19;
	for (size_t i = 0; i < depth; i++) {
		memcpy(p, "<KeyFrameSequence>", 18);
		p += 18;
		if ((size_t)(p - doc) + 20 > n)
			break;
	}
	r = import_doc(doc, (size_t)(p - doc));
	assert_int_not_equal(r.status, ANIMC_OK);
	release(&r);
	free(doc);
}

static void probe_prefers_content(void **state)
{
	static const char xna[] = "<?xml version=\"1.0\"?><XnaContent><Asset Type=\"x\"/></XnaContent>";

	(void)state;
	assert_int_equal(animc_importer_robotgame.probe("a.txt", (const uint8_t *)good_doc,
							 strlen(good_doc)), ANIMC_PROBE_CONTENT);
	assert_int_equal(animc_importer_robotgame.probe("a.Animation", (const uint8_t *)"junk", 4),
			 ANIMC_PROBE_EXTENSION);
	assert_int_equal(animc_importer_robotgame.probe("a.ANIMATION", (const uint8_t *)"", 0),
			 ANIMC_PROBE_EXTENSION);
	assert_int_equal(animc_importer_robotgame.probe("a.xml", (const uint8_t *)xna, strlen(xna)),
			 ANIMC_PROBE_NO);
	assert_int_equal(animc_importer_robotgame.probe("a.png", (const uint8_t *)"\x89PNG", 4),
			 ANIMC_PROBE_NO);
	assert_ptr_equal(animc_importer_find("x.bin", (const uint8_t *)good_doc, strlen(good_doc)),
			 &animc_importer_robotgame);
	assert_null(animc_importer_find("x.bin", (const uint8_t *)"junk", 4));
	assert_ptr_equal(animc_importer_by_name("robotgame"), &animc_importer_robotgame);
	assert_null(animc_importer_by_name("nope"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(imports_every_field),
	cmocka_unit_test(shuffled_elements_give_the_same_clip),
	cmocka_unit_test(unknown_elements_warn_with_their_place),
	cmocka_unit_test(namespaced_elements_are_unknown),
	cmocka_unit_test(a_nil_list_is_empty_whatever_it_holds),
	cmocka_unit_test(missing_count_warns),
	cmocka_unit_test(shared_bone_names_warn_and_namespaces_are_refused),
	cmocka_unit_test(non_finite_values_fail_where_they_are_written),
	cmocka_unit_test(rotations_off_unit_length_fail_where_they_are_written),
	cmocka_unit_test(value_errors_point_at_the_value),
	cmocka_unit_test(durations_and_list_lengths_fail_where_they_are_written),
	cmocka_unit_test(sequences_need_a_bone_name),
	cmocka_unit_test(time_list_must_match_keycount),
	cmocka_unit_test(hostile_xml_is_refused),
	cmocka_unit_test(xml_errors_are_said_in_the_users_terms_once),
	cmocka_unit_test(a_start_tag_cut_short_is_no_unknown_element),
	cmocka_unit_test(deep_nesting_ends_quickly),
	cmocka_unit_test(probe_prefers_content),
};

ANIMC_TEST_GROUP(tests);
