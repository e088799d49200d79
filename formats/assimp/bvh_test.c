/*
 * bvh_test.c - BVH files Assimp 5.2 reads wrongly or says too little of,
 * written here: what the importer reads from the file's own bytes
 * (bvh.c), and the lines it names.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "assimp_internal.h"

typedef struct imported {
	animc_status status;
	animc_clip_set set;
	test_diags diags;
	animc_diag_sink sink;
} imported;

/* Import `size` bytes of BVH from memory, or from `path` (may be NULL). */
static void import_bytes(imported *r, const char *path, const char *data, size_t size)
{
	animc_import_request req = { path, (const uint8_t *)data, size, NULL };

	memset(r, 0, sizeof *r);
	r->diags.echo = getenv("ANIMC_TEST_ECHO") != NULL;
	r->sink = test_diag_sink(&r->diags, path ? path : "mem.bvh");
	r->status = animc_importer_assimp.import(&req, &r->set, &r->sink);
}

static void import_text(imported *r, const char *text)
{
	import_bytes(r, NULL, text, strlen(text));
}

static void release(imported *r)
{
	animc_clip_set_release(&r->set);
	test_diags_release(&r->diags);
}

static const animc_channel *channel_named(const imported *r, const char *bone)
{
	assert_int_equal(r->set.count, 1);
	const animc_clip *clip = r->set.clips[0];
	for (uint32_t i = 0; i < clip->channel_count; i++)
		if (strcmp(clip->channels[i].bone, bone) == 0)
			return &clip->channels[i];
	fail_msg("no bone '%s'", bone);
	return NULL;
}

/* Translation key `k` of `bone` as imported (its own key times). */
static void assert_translation(const imported *r, const char *bone, uint32_t k, float time_s, float x, float y,
			       float z)
{
	const animc_track *t = &channel_named(r, bone)->tracks[ANIMC_TRANSLATION];

	assert_true(t->is_present);
	assert_true(k < t->value_count);
	assert_float_equal(t->times_s[k], time_s, 1e-6);
	assert_float_equal(t->values[3 * k], x, 1e-6);
	assert_float_equal(t->values[3 * k + 1], y, 1e-6);
	assert_float_equal(t->values[3 * k + 2], z, 1e-6);
}

/* ------------------------------------------------------- position channels */

/* Assimp 5.2 reads position keys from 6-channel joints only: a root of
 * its three position channels, and a joint of one position channel and
 * three rotations, stood at their OFFSET.  Read from the file, an axis
 * without a channel keeping the OFFSET's value; a 6-channel joint beside
 * them is Assimp's. */
static void position_channels_of_a_joint_not_of_6_channels_are_read(void **state)
{
	static const char text[] = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n"
				   "  CHANNELS 3 Xposition Yposition Zposition\n"
				   "  JOINT Spine\n  {\n    OFFSET 4 5 6\n"
				   "    CHANNELS 4 Zrotation Yposition Xrotation Yrotation\n"
				   "    JOINT Neck\n    {\n      OFFSET 0 1 0\n"
				   "      CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
				   "      End Site\n      {\n        OFFSET 0 1 0\n      }\n    }\n  }\n}\n"
				   "MOTION\nFrames: 3\nFrame Time: 0.1\n"
				   "0 0 0 0 5 0 0 0 1 0 0 0 0\n1 2 3 0 7 0 90 0 2 0 0 0 0\n"
				   "-1 0.5 2,5 0 8 0 0 0 3 0 0 0 0\n";
	imported r;

	(void)state;
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(channel_named(&r, "Hips")->tracks[ANIMC_TRANSLATION].value_count, 3);
	assert_translation(&r, "Hips", 0, 0.0f, 0, 0, 0);
	assert_translation(&r, "Hips", 1, 0.1f, 1, 2, 3);
	assert_translation(&r, "Hips", 2, 0.2f, -1, 0.5f, 2.5f);
	assert_translation(&r, "Spine", 1, 0.1f, 4, 7, 6);
	assert_translation(&r, "Spine", 2, 0.2f, 4, 8, 6);
	assert_translation(&r, "Neck", 2, 0.2f, 0, 3, 0);
	/* Its rotations are Assimp's: 90 degrees about Y at frame 1. */
	const animc_track *rot = &channel_named(&r, "Spine")->tracks[ANIMC_ROTATION];
	assert_float_equal(rot->values[4 + 1], sqrtf(0.5f), 1e-6);
	release(&r);
}

/* ------------------------------------------------------------------ lines */

/* The first error's line, and that it holds `text`. */
static uint32_t error_line(const imported *r, const char *text)
{
	const test_diag *d = test_diags_first(&r->diags, ANIMC_ERROR);

	assert_non_null(d);
	if (!strstr(d->message, text))
		fail_msg("the error '%s' does not say '%s'", d->message, text);
	return d->line;
}

/* Assimp counts LF only: in a file of lone-CR line ends (classic Mac
 * tools, old Poser exports) each of its errors named line 1. */
static void assimp_errors_name_the_files_line_whatever_the_line_ends(void **state)
{
	static const char *const ends[] = { "\n", "\r\n", "\r" };
	static const struct {
		const char *bad, *good, *said;
		uint32_t line;
	} cases[] = {
		{ "Xrotation Wrotation", "Xrotation Yrotation", "Invalid channel specifier \"Wrotation\"", 9 },
		{ "    Ennd Site", "    End Site", "Unknown keyword \"Ennd\"", 10 },
	};
	const char *lines[] = { "HIERARCHY", "ROOT Hips", "{", "  OFFSET 0 0 0",
				"  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation",
				"  JOINT Spine", "  {", "    OFFSET 0 5 0", "    CHANNELS 3 Zrotation Xrotation Yrotation",
				"    End Site", "    {", "      OFFSET 0 1 0", "    }", "  }", "}", "MOTION", "Frames: 2",
				"Frame Time: 0.1", "0 0 0 0 0 0 0 0 0", "1 0 0 0 0 0 0 0 90" };

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		for (size_t e = 0; e < sizeof ends / sizeof *ends; e++) {
			char text[1024] = "", line[128];
			imported r;

			for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
				snprintf(line, sizeof line, "%s", lines[i]);
				if (i + 1 == cases[c].line) {
					const char *at = strstr(lines[i], cases[c].good);

					snprintf(line, sizeof line, "%.*s%s", (int)(at - lines[i]), lines[i], cases[c].bad);
				}
				strcat(text, line);
				strcat(text, ends[e]);
			}
			import_text(&r, text);
			assert_int_not_equal(r.status, ANIMC_OK);
			assert_int_equal(error_line(&r, cases[c].said), cases[c].line);
			release(&r);
		}
	}
}

/* ---------------------------------------------------------------- numbers */

/* Assimp's number reader says a word without a line ("Cannot parse string
 * \"abc\" as a real number"), and takes nan and inf for numbers: NaN keys
 * said as "rotation key 1 is NaN", and a NaN OFFSET as a translation key
 * the file does not have.  Each is an error at its line, naming it. */
static void a_value_that_is_no_number_is_said_at_its_line(void **state)
{
	static const struct {
		const char *offset, *end_site, *value, *said;
		uint32_t line;
	} cases[] = {
		{ "5", "1", "abc", "bone 'Hips': its Xrotation channel holds 'abc', which is not a number", 20 },
		{ "5", "1", "nan", "bone 'Hips': its Xrotation channel holds nan, which is not a finite number", 20 },
		{ "5", "1", "-inf", "bone 'Hips': its Xrotation channel holds -inf, which is not a finite number", 20 },
		{ "nan", "1", "0", "bone 'Spine': its OFFSET holds nan, which is not a finite number", 8 },
		{ "5", "x", "0", "bone 'Spine': the OFFSET of its End Site holds 'x', which is not a number", 12 },
	};
	static const char *const ends[] = { "\n", "\r" };

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		for (size_t e = 0; e < 2; e++) {
			const char *n = ends[e];
			char *text = test_format("HIERARCHY%sROOT Hips%s{%s  OFFSET 0 0 0%s  CHANNELS 6 Xposition "
						 "Yposition Zposition Zrotation Xrotation Yrotation%s  JOINT Spine%s  {%s"
						 "    OFFSET 0 %s 0%s    CHANNELS 3 Zrotation Xrotation Yrotation%s"
						 "    End Site%s    {%s      OFFSET 0 %s 0%s    }%s  }%s}%sMOTION%s"
						 "Frames: 3%sFrame Time: 0.1%s0 0 0 0 0 0 0 0 0%s1 0 0 0 %s 0 0 0 90%s"
						 "2 0 0 0 0 0 0 0 45%s", n, n, n, n, n, n, n, cases[c].offset, n, n, n, n,
						 cases[c].end_site, n, n, n, n, n, n, n, n, cases[c].value, n, n);
			imported r;

			import_text(&r, text);
			assert_int_not_equal(r.status, ANIMC_OK);
			assert_int_equal(error_line(&r, cases[c].said), cases[c].line);
			assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
			release(&r);
			free(text);
		}
	}
}

/* What Assimp reads as a number stays one: a comma before a fraction is
 * its decimal point, a point may end one, an exponent may follow. */
static void values_assimp_reads_are_read(void **state)
{
	static const char text[] = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n"
				   "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
				   "  End Site\n  {\n    OFFSET 0 1. 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n"
				   "0 0 0 0 0 0\n1,5 2. .5e1 +0 -0 0\n";
	imported r;

	(void)state;
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_translation(&r, "Hips", 1, 0.1f, 1.5f, 2, 5);
	release(&r);
}

/* ------------------------------------------------------------ structure */

/* A joint's CHANNELS after its child joints: Assimp's reader keeps a
 * reference into its list of nodes while it reads the children, which
 * move the list as they are added, and writes these channels through it
 * (read after free; "ran out of memory", or keys from nowhere).  Refused
 * before Assimp reads, at the line, naming the joint and its first child. */
static void channels_after_a_child_joint_are_refused_at_their_line(void **state)
{
	char *children = test_format("%s", ""), *text;
	imported r;

	(void)state;
	for (int i = 0; i < 40; i++) {
		char *more = test_format("%s  JOINT J%d\n  {\n    OFFSET 0 1 0\n    CHANNELS 3 Zrotation Xrotation "
					 "Yrotation\n    End Site\n    {\n      OFFSET 0 1 0\n    }\n  }\n", children, i);

		free(children);
		children = more;
	}
	text = test_format("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n%s"
			   "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n}\n"
			   "MOTION\nFrames: 1\nFrame Time: 0.1\n", children);
	for (int v = 0; v < 3 * 40 + 6; v++) {
		char *more = test_format("%s0 ", text);

		free(text);
		text = more;
	}
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_ERR_INVALID);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
	assert_int_equal(error_line(&r, "bone 'Hips': its CHANNELS come after its child joint 'J0'; BVH lists a "
				       "joint's CHANNELS before its JOINTs (move the line up)"), 5 + 40 * 9);
	release(&r);
	free(text), free(children);
}

/* ------------------------------------------------------- byte order mark */

/* Notepad and some .NET exporters start a file with a UTF-8 byte order
 * mark, which Assimp's reader took for part of its first word: "Expected
 * header string \"HIERARCHY\"".  Read as the file after it, from its
 * path, its lines and errors unchanged. */
static void a_byte_order_mark_is_read_past(void **state)
{
	static const char body[] = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n"
				   "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
				   "  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n"
				   "0 0 0 0 0 0\n1 2 3 0 0 90\n";
	char *dir = test_tmpdir("bvh-bom"), *path = test_format("%s/bom.bvh", dir);
	char *text = test_format("\xEF\xBB\xBF%s", body), *bad = test_format("%s", text);
	imported r;

	(void)state;
	assert_true(test_write_file(path, text, strlen(text)));
	import_bytes(&r, path, text, strlen(text));
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
	assert_translation(&r, "Hips", 1, 0.1f, 1, 2, 3);
	release(&r);
	memcpy(strstr(bad, "Yrotation"), "Wrotation", 9);
	assert_true(test_write_file(path, bad, strlen(bad)));
	import_bytes(&r, path, bad, strlen(bad));
	assert_int_not_equal(r.status, ANIMC_OK);
	assert_int_equal(error_line(&r, "Invalid channel specifier \"Wrotation\""), 5);
	release(&r);
	free(bad), free(text), free(path), free(dir);
}

/* A BVH given to --skeleton is read as the importer reads one: past a
 * byte order mark (it failed: "Expected header string \"HIERARCHY\""),
 * and checked before Assimp reads it (CHANNELS after a child joint). */
static void a_skeleton_bvh_is_read_as_the_importer_reads_one(void **state)
{
	static const char body[] = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n"
				   "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
				   "  JOINT Spine\n  {\n    OFFSET 0 2 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
				   "    End Site\n    {\n      OFFSET 0 1 0\n    }\n  }\n}\nMOTION\nFrames: 1\n"
				   "Frame Time: 0.1\n0 0 0 0 0 0 0 0 0\n";
	static const char late[] = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  JOINT Spine\n  {\n    OFFSET 0 2 0\n"
				   "    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 1 0\n"
				   "    }\n  }\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n}\n"
				   "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n";
	char *dir = test_tmpdir("bvh-skeleton"), *path = test_format("%s/model.bvh", dir);
	char *text = test_format("\xEF\xBB\xBF%s", body);
	test_diags diags = { .echo = getenv("ANIMC_TEST_ECHO") != NULL };
	animc_diag_sink sink = test_diag_sink(&diags, path);
	animc_skeleton skel;
	int64_t spine;

	(void)state;
	assert_true(test_write_file(path, text, strlen(text)));
	assert_int_equal(animc_importer_assimp.load_skeleton(path, &skel, &sink), ANIMC_OK);
	assert_true((spine = animc_skeleton_find(&skel, "Spine")) >= 0);
	assert_float_equal(skel.bones[spine].translation[1], 2, 1e-6);
	animc_skeleton_release(&skel);
	assert_true(test_write_file(path, late, strlen(late)));
	assert_int_not_equal(animc_importer_assimp.load_skeleton(path, &skel, &sink), ANIMC_OK);
	const test_diag *e = test_diags_first(&diags, ANIMC_ERROR);
	assert_non_null(e);
	assert_non_null(strstr(e->message, "bone 'Hips': its CHANNELS come after its child joint 'Spine'"));
	assert_int_equal(e->line, 14);
	test_diags_release(&diags);
	free(text), free(path), free(dir);
}

/* A BVH of `depth` joints each inside the last, under Hips, and a joint
 * Side of Hips after them. */
static char *deep_chain(unsigned depth)
{
	size_t size = (size_t)depth * 100 + 1024, n = 0;
	char *text = malloc(size);

	assert_non_null(text);
	n += (size_t)snprintf(text + n, size - n, "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\n"
			      "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n");
	for (unsigned i = 0; i < depth; i++)
		n += (size_t)snprintf(text + n, size - n, "JOINT J%u\n{\nOFFSET 0 1 0\n"
				      "CHANNELS 3 Zrotation Xrotation Yrotation\n", i);
	n += (size_t)snprintf(text + n, size - n, "End Site\n{\nOFFSET 0 1 0\n}\n");
	for (unsigned i = 0; i < depth; i++)
		n += (size_t)snprintf(text + n, size - n, "}\n");
	n += (size_t)snprintf(text + n, size - n, "JOINT Side\n{\nOFFSET 1 0 0\nCHANNELS 3 Zrotation Xrotation "
			      "Yrotation\nEnd Site\n{\nOFFSET 1 0 0\n}\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n");
	for (unsigned i = 0; i < 3 * depth + 9; i++)
		n += (size_t)snprintf(text + n, size - n, i ? " 0" : "0");
	snprintf(text + n, size - n, "\n");
	return text;
}

/* A model deeper than the C stack would walk comfortably (5000 levels)
 * is read whole: every joint a bone, its parent the one before it, in
 * depth-first order. */
static void a_deep_skeleton_is_read_whole(void **state)
{
	char *dir = test_tmpdir("bvh-deep"), *path = test_format("%s/deep.bvh", dir);
	char *text = deep_chain(5000);
	test_diags diags = { .echo = getenv("ANIMC_TEST_ECHO") != NULL };
	animc_diag_sink sink = test_diag_sink(&diags, path);
	animc_skeleton skel;
	int64_t hips, first, last, side;

	(void)state;
	assert_true(test_write_file(path, text, strlen(text)));
	assert_int_equal(animc_importer_assimp.load_skeleton(path, &skel, &sink), ANIMC_OK);
	assert_true((hips = animc_skeleton_find(&skel, "Hips")) >= 0);
	assert_true((first = animc_skeleton_find(&skel, "J0")) >= 0);
	assert_true((last = animc_skeleton_find(&skel, "J4999")) >= 0);
	assert_true((side = animc_skeleton_find(&skel, "Side")) >= 0);
	assert_int_equal(skel.bones[first].parent, hips);
	assert_int_equal(last, first + 4999);
	for (int64_t b = first + 1; b <= last; b++)
		assert_int_equal(skel.bones[b].parent, b - 1);
	assert_true(side > last);
	assert_int_equal(skel.bones[side].parent, hips);
	assert_int_equal(diags.count, 0);
	animc_skeleton_release(&skel);
	test_diags_release(&diags);
	free(text), free(path), free(dir);
}

/*
 * A Frame Time that is no length of a frame (0, below 0, shorter than a
 * microsecond): Assimp's rate is 1 / Frame Time, and the warning said "the
 * file declares inf (not a rate) ticks per second", naming no line, of a
 * number the user never wrote.  It says the Frame Time as written, in
 * seconds, and the frames a second assumed, at its line; with
 * --ticks-per-second nothing is said.
 */
static void a_frame_time_of_no_length_is_said_as_written(void **state)
{
	static const struct {
		const char *time, *words;
	} cases[] = {
		{ "0", "clip 'Motion': its Frame Time, 0 s, is no length of a frame; assumed 25 frames a second "
		       "(a Frame Time of 0.04 s)" },
		{ "-0.1", "its Frame Time, -0.1 s, is no length of a frame" },
		{ "1e-9", "its Frame Time, 1e-9 s (1e+09 frames a second), shorter than a microsecond, is no length "
			  "of a frame; assumed 25 frames a second" },
	};

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		char *text = test_format("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition "
					 "Zposition Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 1 0\n"
					 "  }\n}\nMOTION\nFrames: 2\nFrame Time: %s\n0 0 0 0 0 0\n1 0 0 0 0 90\n",
					 cases[c].time);
		animc_import_options options = { .ticks_per_second = 30 };
		animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), &options };
		const test_diag *d;
		imported r;

		import_text(&r, text);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 1);
		d = test_diags_first(&r.diags, ANIMC_WARNING);
		assert_string_equal(d->kind, "assumed-tick-rate");
		if (!strstr(d->message, cases[c].words))
			fail_msg("no '%s' in: %s", cases[c].words, d->message);
		assert_null(strstr(d->message, "ticks per second"));
		assert_int_equal(d->line, 13);
		assert_true(r.set.clips[0]->duration_s == 0.04f);
		release(&r);
		memset(&r, 0, sizeof r);
		r.sink = test_diag_sink(&r.diags, "mem.bvh");
		r.status = animc_importer_assimp.import(&req, &r.set, &r.sink);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_WARNING), 0);
		assert_true(r.set.clips[0]->duration_s == 1.0f / 30);
		release(&r);
		free(text);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_deep_skeleton_is_read_whole),
	cmocka_unit_test(position_channels_of_a_joint_not_of_6_channels_are_read),
	cmocka_unit_test(assimp_errors_name_the_files_line_whatever_the_line_ends),
	cmocka_unit_test(a_value_that_is_no_number_is_said_at_its_line),
	cmocka_unit_test(values_assimp_reads_are_read),
	cmocka_unit_test(channels_after_a_child_joint_are_refused_at_their_line),
	cmocka_unit_test(a_byte_order_mark_is_read_past),
	cmocka_unit_test(a_skeleton_bvh_is_read_as_the_importer_reads_one),
	cmocka_unit_test(a_frame_time_of_no_length_is_said_as_written),
};

ANIMC_TEST_GROUP(tests);
