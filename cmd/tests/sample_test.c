/*
 * sample_test.c - `animc sample`: the poses it prints are the library's,
 * crossfade endpoints through the CLI, exit statuses; and the corpus check
 * of sampling against the oracle (scripts/sample-conformance), skipped when
 * ../shared/corpus is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "cli.h"
#include "test_support.h"

#define UNIFORM "testdata/loader/uniform.xnb"   /* Root, Arm: uniform keys, 1 s */
#define TIMED "testdata/loader/crane-turn.xnb"  /* Base, Cab: key times, 1.5 s */
#define ORACLE "../shared/conformance/xnb_oracle.py"

/* The JSON line `animc sample --json` must print for `path` at time t,
 * built from the library and the JSON printers here. */
static char *expected_line(const char *path, float t, animrt_play_mode mode)
{
	animrt_clip *clip;
	animrt_pose pose;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	assert_int_equal(animrt_open_file(path, &clip, NULL), ANIMRT_OK);
	void *mem = malloc(animrt_pose_size_bytes(clip->sequence_count) + 1);
	assert_non_null(mem);
	animrt_pose_init(&pose, mem, clip->sequence_count);
	assert_int_equal(animrt_clip_sample(clip, t, mode, NULL, &pose), ANIMRT_OK);
	fputs("{\"time\": ", out);
	json_float(out, t);
	fputs(", \"bones\": [", out);
	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		fprintf(out, "%s{\"bone\": ", i ? ", " : "");
		json_string(out, clip->sequences[i].bone);
		fputs(", \"translation\": ", out);
		json_floats(out, pose.translation + 3 * i, 3, 1);
		fputs(", \"rotation\": ", out);
		json_floats(out, pose.rotation + 4 * i, 4, 1);
		fputs(", \"scale\": ", out);
		json_floats(out, pose.scale + 3 * i, 3, 1);
		fputs("}", out);
	}
	fputs("]}\n", out);
	fclose(out);
	free(mem);
	animrt_close(clip);
	return text;
}

static void sample_prints_the_librarys_pose_as_json(void **state)
{
	(void)state;
	static const float times[] = { 0, 0.25f, 0.5f, 1, 1.75f, 2.6f };

	for (int repeat = 0; repeat < 2; repeat++) {
		for (int f = 0; f < 2; f++) {
			const char *path = f ? TIMED : UNIFORM;
			char *want = NULL;
			size_t want_size = 0;
			FILE *all = open_memstream(&want, &want_size);

			assert_non_null(all);
			for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
				char *line = expected_line(path, times[i],
							   repeat ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE);
				fputs(line, all);
				free(line);
			}
			fclose(all);
			const char *argv[] = { test_animc_path(), "sample", "--json", "--time", "0",
					       "--time", "0.25", "--time", "0.5", "--time", "1",
					       "--time", "1.75", "--time", "2.6", path,
					       repeat ? "--repeat" : NULL, NULL };
			test_run r = test_execv(argv);
			assert_int_equal(r.status, 0);
			assert_string_equal(r.out, want);
			test_run_release(&r);
			free(want);
		}
	}
}

/* Past the end: Once gives the last pose, Repeat wraps. */
static void sample_clamps_once_and_wraps_repeat(void **state)
{
	(void)state;
	test_run end = test_animc("sample", "--json", "--time", "1", UNIFORM, NULL);
	test_run once = test_animc("sample", "--json", "--time", "7.25", UNIFORM, NULL);
	test_run wrapped = test_animc("sample", "--json", "--repeat", "--time", "7.25", UNIFORM, NULL);
	test_run inside = test_animc("sample", "--json", "--time", "0.25", UNIFORM, NULL);

	assert_int_equal(end.status | once.status | wrapped.status | inside.status, 0);
	/* Same bones and values; only the time printed differs. */
	assert_string_equal(strstr(once.out, "\"bones\""), strstr(end.out, "\"bones\""));
	assert_string_equal(strstr(wrapped.out, "\"bones\""), strstr(inside.out, "\"bones\""));
	assert_string_not_equal(strstr(wrapped.out, "\"bones\""), strstr(once.out, "\"bones\""));
	test_run_release(&end);
	test_run_release(&once);
	test_run_release(&wrapped);
	test_run_release(&inside);
}

static void sample_blend_endpoints_are_the_two_clips(void **state)
{
	(void)state;
	char *out = test_tmpdir("sample-blend");
	char *copy = test_format("%s/copy.xnb", out);
	size_t size;
	uint8_t *bytes = test_read_file(UNIFORM, &size);

	assert_true(test_write_file(copy, bytes, size));
	/* A clip blended with itself is itself at any weight... */
	test_run alone = test_animc("sample", "--json", "--time", "0.3", UNIFORM, NULL);
	test_run w0 = test_animc("sample", "--json", "--blend", copy, "--weight", "0", "--time", "0.3",
				 UNIFORM, NULL);
	test_run w1 = test_animc("sample", "--json", "--blend", copy, "--weight", "1", "--time", "0.3",
				 UNIFORM, NULL);
	assert_int_equal(alone.status | w0.status | w1.status, 0);
	assert_string_equal(w0.out, alone.out);
	assert_string_equal(w1.out, alone.out);
	/* ...and bones only one clip animates keep that clip's values: with
	 * disjoint bone sets every weight prints both clips' poses side by side. */
	test_run timed = test_animc("sample", "--json", "--time", "0.3", TIMED, NULL);
	test_run mix = test_animc("sample", "--json", "--blend", TIMED, "--weight", "0.4", "--time",
				  "0.3", UNIFORM, NULL);
	assert_int_equal(timed.status | mix.status, 0);
	char *a_bones = strstr(alone.out, "[{") + 1, *t_bones = strstr(timed.out, "[{") + 1;
	char *want = test_format("{\"time\": 0.3, \"bones\": [%.*s, %s", (int)(strlen(a_bones) - 3),
				 a_bones, t_bones);
	assert_string_equal(mix.out, want);
	free(want);
	test_run_release(&alone);
	test_run_release(&w0);
	test_run_release(&w1);
	test_run_release(&timed);
	test_run_release(&mix);
	/* The table view prints one row per bone. */
	test_run table = test_animc("sample", "--blend", TIMED, "--weight", "0.4", "--time", "0.3",
				    UNIFORM, NULL);
	assert_int_equal(table.status, 0);
	size_t lines = 0;
	for (const char *p = table.out; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2 + 4);
	test_run_release(&table);
	free(bytes);
	free(copy);
	free(out);
}

static void sample_exit_statuses(void **state)
{
	(void)state;
	static const char *const usage[][8] = {
		{ "sample", UNIFORM, NULL },                                  /* no --time */
		{ "sample", "--time", "1", NULL },                            /* no file */
		{ "sample", "--time", "1", UNIFORM, UNIFORM, NULL },          /* two files */
		{ "sample", "--time", "soon", UNIFORM, NULL },
		{ "sample", "--time", "nan", UNIFORM, NULL },
		{ "sample", "--time", "1", "--weight", "0.5", UNIFORM, NULL }, /* no --blend */
		{ "sample", "--time", "1", "--blend", UNIFORM, UNIFORM, NULL }, /* no --weight */
		{ "sample", "--time", "1", "--blend", UNIFORM, "--weight", "1.5", NULL },
	};
	for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
		const char *argv[10] = { test_animc_path() };

		memcpy(argv + 1, usage[i], sizeof usage[i]);
		test_run r = test_execv(argv);
		if (r.status != 2)
			fail_msg("case %zu: exit %d, want 2", i, r.status);
		assert_string_equal(r.out, "");
		test_run_release(&r);
	}
	test_run r = test_animc("help", "sample", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "--blend"));
	test_run_release(&r);

	/* A damaged file: exit 1, the loader's byte offset. */
	char *dir = test_tmpdir("sample-damaged");
	char *bad = test_format("%s/short.xnb", dir);
	size_t size;
	uint8_t *bytes = test_read_file(UNIFORM, &size);
	assert_true(test_write_file(bad, bytes, size - 5));
	r = test_animc("sample", "--time", "0", bad, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "byte 6: "));   /* the size field in the header */
	test_run_release(&r);
	r = test_animc("sample", "--time", "0", "--blend", bad, "--weight", "0.5", UNIFORM, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	r = test_animc("sample", "--time", "0", "testdata/no-such-file.xnb", NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	free(bytes);
	free(bad);
	free(dir);
}

/* A time past a float's range is finite: the usage error says what is
 * wrong with each value (not a number, not finite, past the range), and
 * plot's --tolerance says the range it takes. */
static void numbers_past_floats_range_are_called_so(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "1e39", "animc sample: --time '1e39' is past the range of a float (about 3.4e38 s)\n" },
		{ "-1e39", "animc sample: --time '-1e39' is past the range of a float (about 3.4e38 s)\n" },
		{ "soon", "animc sample: --time 'soon' is not a number of seconds\n" },
		{ "nan", "animc sample: --time 'nan' is not a finite number of seconds\n" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		test_run r = test_animc("sample", "--time", cases[i][0], UNIFORM, NULL);

		assert_int_equal(r.status, 2);
		if (strncmp(r.err, cases[i][1], strlen(cases[i][1])) != 0)
			fail_msg("--time %s: %s", cases[i][0], r.err);
		test_run_release(&r);
	}
	test_run r = test_animc("sample", "--time", "3e38", UNIFORM, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Root", "--tolerance", "1e40,1,1", "-o", "x.svg", UNIFORM, UNIFORM, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--tolerance '1e40,1,1': give 'default' or three numbers from 0 to 1e30, T,R,S"));
	test_run_release(&r);
}

/* Every corpus clip, 53 times, both play modes, default and --exact output,
 * plus crossfades: within 1e-5 of the oracle's sample(). */
static void corpus_poses_agree_with_the_oracle(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	char *out = test_tmpdir("sample-conformance");
	char *sources = test_format("%s/robotgame", test_corpus_dir());
	test_run r = test_exec("python3", "scripts/sample-conformance", "--animc", test_animc_path(),
			       "--oracle", ORACLE, "--out", out, sources, NULL);

	if (r.status != 0)
		fail_msg("scripts/sample-conformance: exit %d\n%s%s", r.status, r.out, r.err);
	print_message("%s", r.out);
	test_run_release(&r);
	free(sources);
	free(out);
}

/* The spaces after a name in a table row of dump's output. */
static size_t spaces_after(const char *out, const char *name)
{
	const char *row = strstr(out, name), *p;

	assert_non_null(row);
	p = row + strlen(name);
	return strspn(p, " ");
}

/* Table columns stay aligned for names of several-byte characters: padding
 * counts terminal columns, not bytes ("tab\\there" escaped takes 9,
 * "émoji😀" 7: é one, the emoji two). */
static void tables_pad_names_by_columns(void **state)
{
	test_run r = test_animc("dump", "testdata/names/odd-names.xnb", NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	/* Both rows hold 26 keys. */
	assert_int_equal(spaces_after(r.out, "  tab\\there") + 2, spaces_after(r.out, "  \xc3\xa9moji\xf0\x9f\x98\x80"));
	test_run_release(&r);
}

/* Keys 6e38 apart make a pose past float's range: JSON has no inf, so the
 * value is null and the line stays JSON. */
static void sample_json_prints_a_value_past_floats_range_as_null(void **state)
{
	static const char src[] =
		"<?xml version=\"1.0\" ?>\n<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
		"<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>b</BoneName>"
		"<KeyCount>2</KeyCount><Duration>1</Duration><KeyInterval>1</KeyInterval>"
		"<HasTranslation>true</HasTranslation><Translation>"
		"<Vector3><X>-3e38</X><Y>0</Y><Z>0</Z></Vector3><Vector3><X>3e38</X><Y>0</Y><Z>0</Z></Vector3>"
		"</Translation></KeyFrameSequence></KeyFrameSequences></AnimationSequence>\n";
	char *dir = test_tmpdir("sample-null"), *path = test_format("%s/huge.Animation", dir);
	char *out = test_format("%s/out", dir), *xnb = test_format("%s/out/huge.xnb", dir);
	test_run r;

	(void)state;
	assert_true(test_write_file(path, src, sizeof src - 1));
	r = test_animc("build", "-q", "--exact", "-o", out, path, NULL);
	test_run_release(&r);
	assert_true(test_file_exists(xnb));
	r = test_animc("sample", "--json", "--time", "0.5", xnb, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "{\"time\": 0.5, \"bones\": [{\"bone\": \"b\", \"translation\": [null, 0, 0], "
				   "\"rotation\": [0, 0, 0, 1], \"scale\": [1, 1, 1]}]}\n");
	test_run_release(&r);
	free(xnb), free(out), free(path), free(dir);
}

/* The note on a time outside a clip took the clip's duration, while each
 * bone is sampled by its own sequence's, which the format lets differ:
 * with the clip's Duration 0.5 and its sequences' 1.5, 1 s was said to be
 * past the end and its pose "at 0.5 s" printed, while 1 s was printed.
 * The sequences' durations decide: none there; and with one sequence of
 * 0.5 s beside one of 1.5 s, a note naming both and no one time. */
static void sample_notes_the_sequences_durations(void **state)
{
	char *dir = test_tmpdir("sample-durations"), *path = test_format("%s/c.xnb", dir);
	size_t size;
	uint8_t *data = test_read_file("testdata/loader/crane-turn.xnb", &size);
	size_t clip_at = 12 + (size_t)data[11] + 4 + 1 + 1 + 4;   /* the clip's Duration, after its sequence count */
	size_t base_at = clip_at + 4 + 1 + 4 + 4;                  /* Base's: its name (4 bytes), its KeyCount */
	const float half = 0.5f;
	test_run r;

	(void)state;
	assert_int_equal(memcmp(data + clip_at + 4, "\x04" "Base", 5), 0);
	memcpy(data + clip_at, &half, 4);
	assert_true(test_write_file(path, data, size));
	r = test_animc("sample", "--time", "1", path, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	test_run_release(&r);
	memcpy(data + base_at, &half, 4);
	assert_true(test_write_file(path, data, size));
	r = test_animc("sample", "--time", "1", path, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, ": its bones' sequences last 0.5 to 1.5 s, and 1 s is outside some of them: each "
			   "bone's pose is printed at the time its own sequence gives 1 s (clamped to its end)") ||
	    strstr(r.err, "so its pose at"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(data), free(path), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(tables_pad_names_by_columns),
	cmocka_unit_test(sample_prints_the_librarys_pose_as_json),
	cmocka_unit_test(sample_json_prints_a_value_past_floats_range_as_null),
	cmocka_unit_test(sample_clamps_once_and_wraps_repeat),
	cmocka_unit_test(sample_notes_the_sequences_durations),
	cmocka_unit_test(sample_blend_endpoints_are_the_two_clips),
	cmocka_unit_test(sample_exit_statuses),
	cmocka_unit_test(numbers_past_floats_range_are_called_so),
	cmocka_unit_test(corpus_poses_agree_with_the_oracle),
};

ANIMC_TEST_GROUP(tests);
