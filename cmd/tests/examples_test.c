/*
 * examples_test.c - the example programs of docs/examples/ (built by `make
 * test` as a user builds them: the public header and libanimrt) run on a
 * compiled clip and print what the library gives; the code shown at the top
 * of animrt.h, in the README and in docs/runtime.md is theirs, line by line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "test_support.h"

#define TURN "testdata/loader/crane-turn.xnb"   /* Base, Cab: 1.5 s */

static char *example(const char *name)
{
	const char *build = getenv("ANIMC_BUILD");

	return test_format("%s/examples/%s", build ? build : "build", name);
}

/* One line per bone as usage.c prints it. */
static void print_pose(FILE *out, const char *title, const char *const *names, const animrt_pose *pose)
{
	fprintf(out, "%s\n", title);
	for (uint32_t i = 0; i < pose->bone_count; i++) {
		const float *t = pose->translation + 3 * (size_t)i, *r = pose->rotation + 4 * (size_t)i;
		const float *s = pose->scale + 3 * (size_t)i;

		fprintf(out, "  %s %.9g %.9g %.9g  %.9g %.9g %.9g %.9g  %.9g %.9g %.9g\n", names[i], t[0], t[1],
			t[2], r[0], r[1], r[2], r[3], s[0], s[1], s[2]);
	}
}

static void load_example_opens_a_file_by_path(void **state)
{
	(void)state;
	char *bin = example("load");
	test_run r = test_exec(bin, TURN, NULL);

	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, TURN ": 2 sequences, 1.5 s\n");
	test_run_release(&r);
	/* A file that is not one: exit 1, the loader's message. */
	r = test_exec(bin, "testdata/golden/uniform.Animation", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "testdata/golden/uniform.Animation: byte 0: no XNB magic: this is not a compiled clip\n");
	test_run_release(&r);
	/* One it cannot open or read: named once (it was named twice, the
	 * loader's message naming it too). */
	r = test_exec(bin, "testdata/no-such.xnb", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "testdata/no-such.xnb: cannot open: No such file or directory\n");
	test_run_release(&r);
	r = test_exec(bin, "testdata", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "testdata: cannot read: Is a directory\n");
	test_run_release(&r);
	free(bin);
}

/* usage.c on `file`: the sequences and poses the library gives. */
static void usage_example_on(const char *file)
{
	char *bin = example("usage");
	test_run r = test_exec(bin, file, NULL);
	animrt_clip *clip;
	animrt_pose pose;
	char *want = NULL;
	size_t want_size = 0;
	FILE *out = open_memstream(&want, &want_size);

	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");   /* every bone of the clip is in its skeleton */
	/* The sequences and the pose at 0.25 s, as the library gives them. */
	assert_int_equal(animrt_open_file(file, &clip, NULL), ANIMRT_OK);
	void *memory = malloc(animrt_pose_size_bytes(clip->sequence_count));
	const char *names[2];
	assert_non_null(memory);
	assert_int_equal(clip->sequence_count, 2);
	animrt_pose_init(&pose, memory, clip->sequence_count);
	assert_int_equal(animrt_clip_sample(clip, 0.25f, ANIMRT_PLAY_REPEAT, NULL, &pose), ANIMRT_OK);
	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		fprintf(out, "sequence %u: %s\n", i, animrt_clip_bone_name(clip, i, NULL));
		names[i] = animrt_clip_bone_name(clip, i, NULL);
	}
	print_pose(out, "pose at 0.25 s:", names, &pose);
	fclose(out);
	assert_true(strncmp(r.out, want, strlen(want)) == 0);
	/* The skeleton after 60 frames of 1/60 s, the crossfade over: the
	 * clip at 1 s on Base and Cab, identity on Jib and Hook. */
	const char *skeleton = strstr(r.out, "skeleton after 60 frames:\n");
	assert_non_null(skeleton);
	assert_int_equal(animrt_clip_sample(clip, 1.0f, ANIMRT_PLAY_REPEAT, NULL, &pose), ANIMRT_OK);
	static const char *const bones[] = { "Base", "Cab", "Jib", "Hook" };
	const char *line = strchr(skeleton, '\n') + 1;
	for (int b = 0; b < 4; b++) {
		char name[16];
		double v[10];

		assert_int_equal(sscanf(line, " %15s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", name, &v[0], &v[1],
					&v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]), 11);
		assert_string_equal(name, bones[b]);
		for (int k = 0; k < 10; k++) {
			/* Jib and Hook: identity (rotation w and scale 1). */
			double expected = k >= 6 ? 1 : 0;

			if (b < 2)
				expected = k < 3 ? pose.translation[3 * b + k] : k < 7 ? pose.rotation[4 * b + k - 3]
										   : pose.scale[3 * b + k - 7];
			test_assert_near(v[k], expected, 1e-4);
		}
		line = strchr(line, '\n') + 1;
	}
	assert_non_null(strstr(line, "with the layer:\n"));
	free(memory);
	animrt_close(clip);
	free(want);
	test_run_release(&r);
	free(bin);
}

static void usage_example_prints_the_librarys_poses(void **state)
{
	(void)state;
	usage_example_on(TURN);
}

/* The example on a compact clip, which the loader keeps in place (no
 * sequence list: it read clip->sequences[i].bone and crashed). */
static void usage_example_plays_a_compact_clip(void **state)
{
	(void)state;
	usage_example_on("testdata/loader/crane-turn.compact.xnb");
}

/* `line` as code to look for: no leading blanks, no comment, no trailing
 * ';', '{' or blanks.  In place. */
static char *code_of(char *line)
{
	char *c;

	while (isspace((unsigned char)*line))
		line++;
	if ((c = strstr(line, "//")) || (c = strstr(line, "/*")))
		*c = '\0';
	for (size_t n = strlen(line); n && (isspace((unsigned char)line[n - 1]) || line[n - 1] == ';' ||
					    line[n - 1] == '{');)
		line[--n] = '\0';
	return line;
}

/* Every line of code in `text` from `start` up to `end` (lines of a
 * comment have `prefix` before the code) is in the program `path`;
 * returns how many lines were checked. */
static size_t assert_shown_code_is(const char *doc, const char *text, const char *start, const char *end,
				   const char *prefix, const char *path)
{
	char *program = (char *)test_read_file(path, NULL);
	const char *from = strstr(text, start);
	size_t checked = 0;

	if (!from)
		fail_msg("%s: no '%s'", doc, start);
	from += strlen(start);
	const char *to = strstr(from, end);
	assert_non_null(to);
	while (from < to) {
		const char *nl = memchr(from, '\n', (size_t)(to - from));
		size_t len = nl ? (size_t)(nl - from) : (size_t)(to - from);
		char *line = test_format("%.*s", (int)len, from);
		char *code = line;

		if (strncmp(code, prefix, strlen(prefix)) == 0) {
			code = code_of(code + strlen(prefix));
			if (*code && strcmp(code, "}") != 0) {
				if (!strstr(program, code))
					fail_msg("%s shows a line %s does not have:\n%s", doc, path, code);
				checked++;
			}
		}
		free(line);
		from += len + 1;
	}
	free(program);
	return checked;
}

static void shown_code_is_the_examples(void **state)
{
	(void)state;
	char *header = (char *)test_read_file("lib/animrt/include/animc/animrt.h", NULL);
	char *readme = (char *)test_read_file("README.md", NULL);
	char *runtime = (char *)test_read_file("docs/runtime.md", NULL);

	assert_true(assert_shown_code_is("animrt.h", header, " * Usage", " * Ownership", " *     ",
					 "docs/examples/usage.c") >= 25);
	assert_true(assert_shown_code_is("README.md", readme, "```c\nanimrt_clip *clip;", "```", "",
					 "docs/examples/load.c") >= 6);
	assert_true(assert_shown_code_is("docs/runtime.md", runtime, "```c\nanimrt_pose pose;", "```", "",
					 "docs/examples/usage.c") >= 12);
	free(runtime);
	free(readme);
	free(header);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(load_example_opens_a_file_by_path),
	cmocka_unit_test(usage_example_prints_the_librarys_poses),
	cmocka_unit_test(usage_example_plays_a_compact_clip),
	cmocka_unit_test(shown_code_is_the_examples),
};

ANIMC_TEST_GROUP(tests);
