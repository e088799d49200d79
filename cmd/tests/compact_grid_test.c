/*
 * compact_grid_test.c - the compact layout on 120 Hz motion capture: keys
 * written as 0.0083333 s give a grid whose float rate (240.001 Hz and the
 * like) puts each key a little off its sample; a bone that turns by 150
 * degrees from one frame to the next must still be within the bound at its
 * keys' own times and at 60 Hz, on the keys' own grid; the report says what
 * each track became.  A clip no grid holds goes to the original layout.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animrt.h>

/* A BVH of `frames` frames at 120 Hz: a root that drifts and a thumb that
 * flips between 0 and 150 degrees every 97 frames while it sways. */
static char *write_flip_bvh(const char *dir, int frames)
{
	size_t cap = (size_t)frames * 96 + 1024, len = 0;
	char *text = malloc(cap), *path = test_format("%s/flip.bvh", dir);

	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len,
				"HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n"
				"\tCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
				"\tJOINT Thumb\n\t{\n\t\tOFFSET 1 0 0\n\t\tCHANNELS 3 Zrotation Yrotation Xrotation\n"
				"\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 1 0 0\n\t\t}\n\t}\n}\n"
				"MOTION\nFrames: %d\nFrame Time: .0083333\n", frames);
	for (int f = 0; f < frames; f++)
		len += (size_t)snprintf(text + len, cap - len, "%.5f 0 0 0 0 0 %.5f %.5f 0\n", 0.01 * f,
					(f / 97) % 2 ? 150.0 : 0.0, 10 * sin(f * 0.01));
	assert_true(len < cap);
	assert_true(test_write_file(path, text, len));
	free(text);
	return path;
}

static void flips_stay_within_the_bound_at_the_keys_times(void **state)
{
	char *dir = test_tmpdir("compact-grid"), *lossless = test_format("%s/lossless", dir),
	     *compact = test_format("%s/compact", dir);
	char *src = write_flip_bvh(dir, 4000);
	test_run r;
	uint8_t *data[2];
	size_t size[2];

	(void)state;
	r = test_animc("build", "-q", "-o", lossless, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *report = test_format("%s/report.json", dir);
	r = test_animc("build", "-q", "--layout", "compact", "--report", report, "-o", compact, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* The report says what each track became: of 2 bones x 3 tracks, the
	 * drifting root and the thumb keyed, on the keys' own grid. */
	size_t report_size;
	uint8_t *bytes = test_read_file(report, &report_size);
	char *json = realloc(bytes, report_size + 1);
	assert_non_null(json);
	json[report_size] = '\0';
	const char *at = strstr(json, "\"compact\": {");
	unsigned identity, constant, keyed, segmented, finer;
	assert_non_null(at);
	assert_int_equal(sscanf(at, "\"compact\": {\"identity\": %u, \"constant\": %u, \"keyed\": %u, "
				    "\"segmented\": %u, \"grid_finer\": %u}", &identity, &constant, &keyed, &segmented, &finer),
			 5);
	assert_int_equal(identity + constant + keyed + segmented, 6);
	assert_int_equal(keyed + segmented, 2);
	assert_int_equal(finer, 0);
	free(json);
	free(report);
	char *a = test_format("%s/flip/Motion.xnb", lossless), *b = test_format("%s/flip/Motion.xnb", compact);
	data[0] = test_read_file(a, &size[0]);
	data[1] = test_read_file(b, &size[1]);
	test_error e = test_compare_compiled(data[0], size[0], data[1], size[1], 1000);
	if (!(e.translation <= ANIMC_TOLERANCE_TRANSLATION && e.rotation_deg <= ANIMC_TOLERANCE_ROTATION_DEG &&
	      e.scale <= ANIMC_TOLERANCE_SCALE))
		fail_msg("compact error %g units, %g degrees, %g scale", e.translation, e.rotation_deg, e.scale);
	assert_true(size[1] < size[0] / 4);
	free(data[0]);
	free(data[1]);
	free(a);
	free(b);
	free(src);
	free(lossless);
	free(compact);
	free(dir);
}

/* A RobotGame clip whose two bones last 2 s and 1 s (the original layout
 * keeps a duration per bone, the compact layout one per clip). */
static char *write_two_durations(const char *dir)
{
	char *path = test_format("%s/two.Animation", dir);
	char text[8192];
	size_t len = (size_t)snprintf(text, sizeof text,
				      "<AnimationSequence>\n<KeyFrameSequenceCount>2</KeyFrameSequenceCount>\n"
				      "<Duration>2</Duration>\n<KeyFrameSequences>\n");

	for (int b = 0; b < 2; b++) {
		int keys = b ? 11 : 21;

		len += (size_t)snprintf(text + len, sizeof text - len,
					"<KeyFrameSequence><BoneName>%s</BoneName><KeyCount>%d</KeyCount>"
					"<Duration>%d</Duration><KeyInterval>0.1</KeyInterval>"
					"<HasTranslation>true</HasTranslation><HasRotation>false</HasRotation>"
					"<HasScale>false</HasScale><HasTime>false</HasTime>"
					"<FixedTranslation>false</FixedTranslation><FixedRotation>false</FixedRotation>"
					"<FixedScale>false</FixedScale><Translation>\n",
					b ? "B" : "A", keys, b ? 1 : 2);
		for (int k = 0; k < keys; k++)
			len += (size_t)snprintf(text + len, sizeof text - len,
						"<Vector3><X>%g</X><Y>0</Y><Z>0</Z></Vector3>\n", 0.1 * k * k);
		len += (size_t)snprintf(text + len, sizeof text - len, "</Translation></KeyFrameSequence>\n");
	}
	len += (size_t)snprintf(text + len, sizeof text - len, "</KeyFrameSequences>\n</AnimationSequence>\n");
	assert_true(len < sizeof text);
	assert_true(test_write_file(path, text, len));
	return path;
}

/* A RobotGame clip of 61 keys at 30 Hz, at explicit times (which the
 * uniform pass makes a KeyInterval): a bone swinging a million units,
 * which no grid holds within 0.001, and one moving by 1e-5, which the
 * reduction leaves one key (whose KeyInterval is then its duration). */
static char *write_huge_and_tiny(const char *dir)
{
	char *path = test_format("%s/huge.Animation", dir);
	size_t cap = 65536, len = 0;
	char *text = malloc(cap);

	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len, "<AnimationSequence>\n<KeyFrameSequenceCount>2"
				"</KeyFrameSequenceCount>\n<Duration>2</Duration>\n<KeyFrameSequences>\n");
	for (int b = 0; b < 2; b++) {
		len += (size_t)snprintf(text + len, cap - len,
					"<KeyFrameSequence><BoneName>%s</BoneName><KeyCount>61</KeyCount>"
					"<Duration>2</Duration><KeyInterval>0</KeyInterval>"
					"<HasTranslation>true</HasTranslation><HasRotation>false</HasRotation>"
					"<HasScale>false</HasScale><HasTime>true</HasTime>"
					"<FixedTranslation>false</FixedTranslation><FixedRotation>false</FixedRotation>"
					"<FixedScale>false</FixedScale><Translation>\n", b ? "Tiny" : "Huge");
		for (int k = 0; k < 61; k++)
			len += (size_t)snprintf(text + len, cap - len, "<Vector3><X>%.9g</X><Y>%.9g</Y><Z>%.9g</Z></Vector3>\n",
						b ? 1e-5 * sin(k) : 1e6 * sin(k / 10.0), b ? 1e-6 * k : 0.0,
						b ? 0.0 : 1e6 * cos(k / 7.0));
		len += (size_t)snprintf(text + len, cap - len, "</Translation><Time>");
		for (int k = 0; k < 61; k++)
			len += (size_t)snprintf(text + len, cap - len, "<float>%.9g</float>", k / 30.0);
		len += (size_t)snprintf(text + len, cap - len, "</Time></KeyFrameSequence>\n");
	}
	len += (size_t)snprintf(text + len, cap - len, "</KeyFrameSequences>\n</AnimationSequence>\n");
	assert_true(len < cap);
	assert_true(test_write_file(path, text, len));
	free(text);
	return path;
}

/* The translation error a report gives the output whose path ends with
 * `name`. */
static double reported_error(const char *json, const char *name)
{
	const char *at = strstr(json, name);

	assert_non_null(at);
	at = strstr(at, "\"translation\": ");
	assert_non_null(at);
	return strtod(at + strlen("\"translation\": "), NULL);
}

/* Does the clip at `path` load in the compact layout (reader version 2)? */
static bool loads_compact(const char *path)
{
	animrt_clip *clip;
	bool compact;

	assert_int_equal(animrt_open_file(path, &clip, NULL), ANIMRT_OK);
	compact = clip->compact != NULL;
	animrt_close(clip);
	return compact;
}

/* What no grid holds (a STEP jump between keys a float step apart, found
 * before any grid is tried; bones of different durations) is no error:
 * the clip goes to the original
 * layout, byte for byte as --tolerance default writes it, with a warning
 * naming the bone, and the report marks it; the batch's other clips stay
 * compact. */
static void clips_no_grid_holds_go_to_the_original_layout(void **state)
{
	char *dir = test_tmpdir("compact-declined"), *reduced = test_format("%s/reduced", dir),
	     *compact = test_format("%s/compact", dir), *report = test_format("%s/report.json", dir);
	char *two = write_two_durations(dir), *huge = write_huge_and_tiny(dir);
	test_run r;

	(void)state;
	char *reduced_report = test_format("%s/reduced.json", dir);
	r = test_animc("build", "-q", "--tolerance", "default", "--report", reduced_report, "-o", reduced,
		       "testdata/gltf/step.gltf", two, "testdata/compact/sway.Animation", huge, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--layout", "compact", "--report", report, "-o", compact, "testdata/gltf/step.gltf",
		       two, "testdata/compact/sway.Animation", huge, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "step.gltf: warning: clip 'blink': bone 'Hip': translation: jumps by 4.6 units "
				      "between two keys 2.98023e-08 s apart (at 0.3 s), which no compact grid holds"));
	assert_non_null(strstr(r.err, "two.Animation: warning: bone 'B': its duration 1 s is not the clip's 2 s"));
	assert_non_null(strstr(r.err, "wrote this clip in the original layout (reader version 0) within the same "
				      "tolerance"));
	assert_non_null(strstr(r.out, "compiled 4 sources (4 clips), 0 failed, 0 skipped, 3 warnings"));
	test_run_release(&r);
	static const char *const declined[] = { "step/blink.xnb", "two.xnb", "huge.xnb" };
	for (size_t i = 0; i < 3; i++) {
		char *a = test_format("%s/%s", compact, declined[i]), *b = test_format("%s/%s", reduced, declined[i]);

		assert_true(test_same_bytes(a, b));
		assert_false(loads_compact(a));
		free(a);
		free(b);
	}
	char *sway = test_format("%s/sway.xnb", compact);
	assert_true(loads_compact(sway));
	free(sway);
	size_t size;
	uint8_t *bytes = test_read_file(report, &size);
	char *json = realloc(bytes, size + 1), *at;
	unsigned marks = 0;
	assert_non_null(json);
	json[size] = '\0';
	for (at = json; (at = strstr(at, "\"compact_declined\": true")); at++)
		marks++;
	assert_int_equal(marks, 3);
	/* The error reported is the file's, as --tolerance reports it, not
	 * the declined encoding's. */
	double err = reported_error(json, "huge.xnb"), want;
	free(json);
	json = (char *)test_read_file(reduced_report, NULL);
	want = reported_error(json, "huge.xnb");
	if (err != want)
		fail_msg("reported translation error %g, --tolerance reports %g", err, want);
	free(reduced_report);
	free(json);
	free(huge);
	free(two);
	free(report);
	free(compact);
	free(reduced);
	free(dir);
}

/* A track near 1e4 units, where a float step (0.001) is the whole default
 * bound: the compact layout cannot hold its keys between the points it
 * measures (0.00195 off was measured at other times), so the clip goes to
 * the original layout, saying why, and -v reports no error for the keys
 * kept as they are (it said 0.00109, past the bound). */
static void values_where_float_steps_fill_the_bound_go_to_the_original_layout(void **state)
{
	char *dir = test_tmpdir("compact-float"), *src = test_format("%s/far.Animation", dir);
	char *out = test_format("%s/out", dir), *file = test_format("%s/far.xnb", out);
	char *keys = test_format("%s", ""), *doc;
	test_run r;
	animrt_clip *clip;

	(void)state;
	for (int i = 0; i < 61; i++) {
		char *more = test_format("%s<Vector3><X>%.9g</X><Y>0</Y><Z>0</Z></Vector3>", keys,
					 10000 + 0.5 * sin(0.3 * i));
		free(keys);
		keys = more;
	}
	doc = test_format("<?xml version=\"1.0\"?>\n<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
			  "<Duration>2</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>Root</BoneName>"
			  "<KeyCount>61</KeyCount><Duration>2</Duration><KeyInterval>0.0333333333</KeyInterval>"
			  "<HasTranslation>true</HasTranslation><Translation>%s</Translation></KeyFrameSequence>"
			  "</KeyFrameSequences></AnimationSequence>", keys);
	assert_true(test_write_file(src, doc, strlen(doc)));
	r = test_animc("build", "-v", "--layout", "compact", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "bone 'Root': translation: values reach 10000.5, where float32 steps"))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "error: translation 0, rotation 0 deg, scale 0"));
	test_run_release(&r);
	assert_int_equal(animrt_open_file(file, &clip, NULL), ANIMRT_OK);
	assert_null(clip->compact);   /* the original layout */
	animrt_close(clip);
	free(doc), free(keys), free(file), free(out), free(src), free(dir);
}

/* A RobotGame clip of one bone lasting `duration` whose keys lie at the
 * times given, or `interval` apart when times is NULL. */
static char *write_keys(const char *dir, const char *name, const double *times, int count, double interval,
			double duration)
{
	char *path = test_format("%s/%s.Animation", dir, name), *doc;
	char values[4096] = "", stamps[4096] = "";
	size_t vl = 0, tl = 0;

	for (int k = 0; k < count; k++) {
		vl += (size_t)snprintf(values + vl, sizeof values - vl,
				       "<Vector3><X>%d</X><Y>%d</Y><Z>0</Z></Vector3>", k, k % 2);
		if (times)
			tl += (size_t)snprintf(stamps + tl, sizeof stamps - tl, "<float>%.9g</float>", times[k]);
	}
	doc = test_format("<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
			  "<Duration>%.9g</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>Root</BoneName>"
			  "<KeyCount>%d</KeyCount><Duration>%.9g</Duration><KeyInterval>%.9g</KeyInterval>"
			  "<HasTranslation>true</HasTranslation><HasTime>%s</HasTime>"
			  "<Translation>%s</Translation>%s%s%s</KeyFrameSequence>"
			  "</KeyFrameSequences></AnimationSequence>", duration, count, duration,
			  times ? 0.0 : interval, times ? "true" : "false", values, times ? "<Time>" : "", stamps,
			  times ? "</Time>" : "");
	assert_true(test_write_file(path, doc, strlen(doc)));
	free(doc);
	return path;
}

/* A RobotGame clip of one bone whose keys lie at the times given, lasting
 * to the last. */
static char *write_timed_keys(const char *dir, const char *name, const double *times, int count)
{
	return write_keys(dir, name, times, count, 0, times[count - 1]);
}

/* The compact encoder's memory follows the keys, not the duration: two
 * keys 1e6 s apart (measured every 1/60 s, 16M points and 1 GB), or keys
 * a millisecond apart over 1000 s (a grid of a million samples), take the
 * original layout, saying so, well within 64 MiB. */
static void long_clips_of_few_keys_stay_within_a_small_memory_limit(void **state)
{
	static const double far[] = { 0, 1e6 }, fine[] = { 0, 0.001, 0.002, 0.003, 1000 };
	char *dir = test_tmpdir("compact-long"), *out = test_format("%s/out", dir);
	char *src[2] = { write_timed_keys(dir, "far", far, 2), write_timed_keys(dir, "fine", fine, 5) };
	test_run r;

	(void)state;
	r = test_animc("build", "--layout", "compact", "--memory-limit", "64M", "-o", out, src[0], src[1],
		       NULL);
	assert_int_equal(r.status, 0);
	for (int i = 0; i < 2; i++) {
		char *file = test_format("%s/%s.xnb", out, i ? "fine" : "far");
		animrt_clip *clip;

		assert_int_equal(animrt_open_file(file, &clip, NULL), ANIMRT_OK);
		assert_null(clip->compact);   /* the original layout */
		animrt_close(clip);
		free(file);
	}
	if (!strstr(r.err, "far.Animation: warning:") || !strstr(r.err, "fine.Animation: warning:"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(src[0]), free(src[1]), free(out), free(dir);
}

/* The file at `compiled` plays within the default bounds of the one at
 * `lossless`, at 60 Hz and at every key. */
static void expect_within_the_bounds(const char *lossless, const char *compiled)
{
	test_error e = test_compare_files(lossless, compiled, 0, false);
	if (!(e.translation <= ANIMC_TOLERANCE_TRANSLATION && e.rotation_deg <= ANIMC_TOLERANCE_ROTATION_DEG &&
	      e.scale <= ANIMC_TOLERANCE_SCALE))
		fail_msg("%s: compact error %g units, %g degrees, %g scale", compiled, e.translation, e.rotation_deg,
			 e.scale);
}

/* Keys at one time (a step), which the playable pass moves a float step
 * apart, where no other gap gives the grid: a bone of four keys at 0, 0.5,
 * 0.5 and 1 (its first and last gaps left out as a --split part's, the
 * middle one a float step), and keys at 0, 0 and 1e-8.  Each was written
 * as one constant pose on a grid of one sample, 3 units off; each goes to
 * the original layout, saying it jumps, within the bound of the default
 * output at 60 Hz and at the keys. */
static void keys_at_one_time_go_to_the_original_layout(void **state)
{
	static const double step[] = { 0, 0.5, 0.5, 1 }, start[] = { 0, 0, 1e-8 };
	char *dir = test_tmpdir("compact-step"), *lossless = test_format("%s/lossless", dir),
	     *compact = test_format("%s/compact", dir);
	char *src[2] = { write_timed_keys(dir, "step", step, 4), write_timed_keys(dir, "start", start, 3) };
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", lossless, src[0], src[1], NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--layout", "compact", "-o", compact, src[0], src[1], NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "step.Animation: warning: bone 'Root': translation: jumps by") ||
	    !strstr(r.err, "start.Animation: warning: bone 'Root': translation: jumps by"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	for (int i = 0; i < 2; i++) {
		char *a = test_format("%s/%s.xnb", lossless, i ? "start" : "step"),
		     *b = test_format("%s/%s.xnb", compact, i ? "start" : "step");

		assert_false(loads_compact(b));
		expect_within_the_bounds(a, b);
		free(a), free(b);
	}
	free(src[0]), free(src[1]), free(compact), free(lossless), free(dir);
}

/* Keys that run past the duration, which the runtime never samples: 11
 * keys 0.1 s apart in a clip of 0.55 s, the same at times in one of 0.6 s,
 * keys at uneven times, and a key between the duration and the grid
 * sample after it.  Each failed with an internal error (a grid reaching
 * the last key, past what the layout holds for the duration); each is now
 * compact, within the bound of the default output at 60 Hz, at the keys
 * and at the duration. */
static void keys_past_the_duration_stay_compact(void **state)
{
	static const double even[] = { 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1 },
			    uneven[] = { 0, 0.1, 0.25, 0.4, 0.7, 1 }, between[] = { 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.56, 0.6 };
	static const char *const names[] = { "uniform", "even", "uneven", "between" };
	char *dir = test_tmpdir("compact-past"), *lossless = test_format("%s/lossless", dir),
	     *compact = test_format("%s/compact", dir);
	char *src[4] = { write_keys(dir, names[0], NULL, 11, 0.1, 0.55), write_keys(dir, names[1], even, 11, 0, 0.6),
			 write_keys(dir, names[2], uneven, 6, 0, 0.6), write_keys(dir, names[3], between, 8, 0, 0.55) };
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", lossless, src[0], src[1], src[2], src[3], NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--layout", "compact", "-o", compact, src[0], src[1], src[2], src[3], NULL);
	if (r.status != 0 || strstr(r.err, "warning") || strstr(r.err, "error"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	for (int i = 0; i < 4; i++) {
		char *a = test_format("%s/%s.xnb", lossless, names[i]), *b = test_format("%s/%s.xnb", compact, names[i]);

		assert_true(loads_compact(b));
		expect_within_the_bounds(a, b);
		free(a), free(b);
	}
	for (int i = 0; i < 4; i++)
		free(src[i]);
	free(compact), free(lossless), free(dir);
}

/* A RobotGame take of keys 1/15 s apart, their times written to six
 * digits (0.933333), one missing: the grid's float rate (15.000175 Hz)
 * puts sample 14 at 0.9333224 s, 11 us before the key it holds.  A turn of
 * 20 degrees from one key to the next moves the source 0.003 degrees in
 * that time, which the encoder, measuring the sample against the key's
 * value, did not count: at the tight tolerance the output played 0.0051
 * degrees from the lossless file at the sample's own time. */
static void samples_off_their_keys_times_stay_within_the_bound(void **state)
{
	char *dir = test_tmpdir("compact-off"), *src = test_format("%s/turn.Animation", dir);
	char *lossless = test_format("%s/lossless", dir), *compact = test_format("%s/compact", dir);
	char text[8192];
	size_t len = (size_t)snprintf(text, sizeof text,
				      "<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
				      "<Duration>1.666667</Duration><KeyFrameSequences><KeyFrameSequence>"
				      "<BoneName>Spine</BoneName><KeyCount>25</KeyCount><Duration>1.666667</Duration>"
				      "<KeyInterval>0</KeyInterval><HasTranslation>false</HasTranslation>"
				      "<HasRotation>true</HasRotation><HasScale>false</HasScale><HasTime>true</HasTime>"
				      "<FixedTranslation>false</FixedTranslation><FixedRotation>false</FixedRotation>"
				      "<FixedScale>false</FixedScale><Rotation>\n");
	test_run r;

	(void)state;
	for (int k = 0; k < 26; k++) {
		double half = (20.0 * (k >= 20) + 0.3 * sin(k)) * (3.14159265358979323846 / 360);

		if (k != 15)
			len += (size_t)snprintf(text + len, sizeof text - len,
						"<Quaternion><X>0</X><Y>0</Y><Z>%f</Z><W>%f</W></Quaternion>\n", sin(half),
						cos(half));
	}
	len += (size_t)snprintf(text + len, sizeof text - len, "</Rotation><Time>\n");
	for (int k = 0; k < 26; k++)
		if (k != 15)
			len += (size_t)snprintf(text + len, sizeof text - len, "<float>%f</float>\n", k / 15.0);
	len += (size_t)snprintf(text + len, sizeof text - len,
				"</Time></KeyFrameSequence></KeyFrameSequences></AnimationSequence>\n");
	assert_true(len < sizeof text);
	assert_true(test_write_file(src, text, len));
	r = test_animc("build", "-q", "-o", lossless, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--layout", "compact", "--tolerance", "0.0001,0.005,0.00001", "-o", compact, src,
		       NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *a = test_format("%s/turn.xnb", lossless), *b = test_format("%s/turn.xnb", compact);

	assert_true(loads_compact(b));
	test_error e = test_compare_files(a, b, 0, false);
	if (!(e.rotation_deg <= 0.005))
		fail_msg("%s: %g degrees from the lossless file, past 0.005", b, e.rotation_deg);
	free(a), free(b);
	free(src), free(compact), free(lossless), free(dir);
}

/* A RobotGame clip of one bone, keys every 1/30 s written with six digits
 * as exporters write them, moving along x and zigzagging 0.3 units in y:
 * a kink at every key. */
static char *write_zigzag(const char *dir)
{
	char *path = test_format("%s/zigzag.Animation", dir), *doc;
	char values[8192] = "", stamps[4096] = "";
	size_t vl = 0, tl = 0;
	const int count = 61;

	for (int k = 0; k < count; k++) {
		vl += (size_t)snprintf(values + vl, sizeof values - vl,
				       "<Vector3><X>%g</X><Y>%g</Y><Z>0</Z></Vector3>", k * 0.1, 0.3 * (k % 2));
		tl += (size_t)snprintf(stamps + tl, sizeof stamps - tl, "<float>%.6f</float>", k / 30.0);
	}
	doc = test_format("<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
			  "<Duration>2</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>Root</BoneName>"
			  "<KeyCount>%d</KeyCount><Duration>2</Duration><KeyInterval>0</KeyInterval>"
			  "<HasTranslation>true</HasTranslation><HasTime>true</HasTime>"
			  "<Translation>%s</Translation><Time>%s</Time></KeyFrameSequence>"
			  "</KeyFrameSequences></AnimationSequence>", count, values, stamps);
	assert_true(test_write_file(path, doc, strlen(doc)));
	free(doc);
	return path;
}

static long file_size(const char *path)
{
	size_t size;
	uint8_t *bytes = test_read_file(path, &size);

	free(bytes);
	return (long)size;
}

/* Parts --split cuts between keys (1/30 s keys): their inner keys lie at a
 * constant phase off any grid from 0.  Cut at 0.01 s (0.3 of a step), the
 * keys lie on a grid ten times finer, which the step fitted through the
 * origin (the cut taken for a key) missed: a grid of 3,871 Hz and 1,574
 * bytes; it is 300 Hz now, and the file under a third of the original
 * layout's at the same tolerance.  Cut at 0.0123 s, no grid from 0 holds
 * the keys, and the compact layout holds the zigzag within the bound only
 * on a grid 128 times finer, in 2,144 bytes, where the original layout
 * takes 1,083: the clip is written in the original layout, byte for byte as
 * --tolerance default writes it, with a warning, and the report marks it.
 * Both within the bound at 60 Hz and at the keys. */
static void parts_cut_between_keys_are_no_bigger_than_the_original_layout(void **state)
{
	char *dir = test_tmpdir("compact-cut"), *src = write_zigzag(dir), *report = test_format("%s/r.json", dir);
	char *out[3] = { test_format("%s/lossless", dir), test_format("%s/reduced", dir),
			 test_format("%s/compact", dir) };
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--split", "A=0.01:1.9", "--split", "B=0.0123:1.9", "-o", out[0], src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--tolerance", "default", "--split", "A=0.01:1.9", "--split", "B=0.0123:1.9",
		       "-o", out[1], src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--layout", "compact", "--report", report, "--split", "A=0.01:1.9", "--split",
		       "B=0.0123:1.9", "-o", out[2], src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "zigzag.Animation:1: warning: clip 'B':") || strstr(r.err, "clip 'A'"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	char *path[3][2];
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 2; k++)
			path[i][k] = test_format("%s/zigzag/%c.xnb", out[i], "AB"[k]);
	animrt_clip *clip;
	assert_int_equal(animrt_open_file(path[2][0], &clip, NULL), ANIMRT_OK);
	assert_non_null(clip->compact);
	if (fabsf(clip->grid_rate_hz - 300) > 0.01f)
		fail_msg("part A: a grid at %g Hz, not the keys' 300 Hz", (double)clip->grid_rate_hz);
	animrt_close(clip);
	if (file_size(path[2][0]) * 3 > file_size(path[1][0]))
		fail_msg("part A: compact %ld bytes, the original layout %ld", file_size(path[2][0]),
			 file_size(path[1][0]));
	assert_false(loads_compact(path[2][1]));
	assert_true(test_same_bytes(path[2][1], path[1][1]));
	for (int k = 0; k < 2; k++)
		expect_within_the_bounds(path[0][k], path[2][k]);
	char *json = (char *)test_read_file(report, NULL);
	const char *b = strstr(json, "B.xnb"), *a = strstr(json, "A.xnb");
	assert_non_null(a);
	assert_non_null(b);
	const char *mark = strstr(json, "\"compact_declined\": true");
	assert_non_null(mark);
	assert_true(mark > b && (a < b || mark < a));
	assert_null(strstr(mark + 1, "\"compact_declined\": true"));
	free(json);
	for (int i = 0; i < 3; i++) {
		free(path[i][0]), free(path[i][1]);
		free(out[i]);
	}
	free(report), free(src), free(dir);
}

/* A RobotGame clip of one bone, `seconds` of keys every 1/30 s (six
 * digits), moving along x at 10 units/s and turning back sharply halfway. */
static char *write_kink(const char *dir, int seconds)
{
	char *path = test_format("%s/kink.Animation", dir), *doc;
	char values[65536] = "", stamps[16384] = "";
	size_t vl = 0, tl = 0;
	const int count = 30 * seconds + 1;

	for (int k = 0; k < count; k++) {
		double t = k / 30.0, x = t < seconds / 2.0 ? 10 * t : 10 * seconds - 10 * t;

		vl += (size_t)snprintf(values + vl, sizeof values - vl, "<Vector3><X>%.6f</X><Y>0</Y><Z>0</Z></Vector3>",
				       x);
		tl += (size_t)snprintf(stamps + tl, sizeof stamps - tl, "<float>%.6f</float>", t);
	}
	doc = test_format("<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
			  "<Duration>%d</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>Root</BoneName>"
			  "<KeyCount>%d</KeyCount><Duration>%d</Duration><KeyInterval>0</KeyInterval>"
			  "<HasTranslation>true</HasTranslation><HasTime>true</HasTime>"
			  "<Translation>%s</Translation><Time>%s</Time></KeyFrameSequence>"
			  "</KeyFrameSequences></AnimationSequence>", seconds, count, seconds, values, stamps);
	assert_true(test_write_file(path, doc, strlen(doc)));
	free(doc);
	return path;
}

/* `src` built lossless, with --tolerance default and with --layout compact,
 * each with --split `split` (NULL: none), into dir/lossless, reduced and
 * compact: the compact build declines the layout for `clip` (its path under
 * each folder) and writes it as --tolerance default does, within the bounds
 * of the lossless file.  The compact build's standard error, which the
 * caller checks and frees. */
static char *expect_written_as_reduced(const char *dir, const char *src, const char *split, const char *clip)
{
	static const char *const folders[3] = { "lossless", "reduced", "compact" };
	static const char *const modes[3][2] = { { "--progress", "never" }, { "--tolerance", "default" },
						 { "--layout", "compact" } };
	char *path[3], *err = NULL;

	for (int i = 0; i < 3; i++) {
		char *out = test_format("%s/%s", dir, folders[i]);
		test_run r = test_animc("build", modes[i][0], modes[i][1], split ? "--split" : "--progress",
					split ? split : "never", "-o", out, src, NULL);

		if (r.status != 0)
			fail_msg("%s: exit %d\n%s", folders[i], r.status, r.err);
		if (i == 2)
			err = test_format("%s", r.err);
		test_run_release(&r);
		path[i] = test_format("%s/%s", out, clip);
		free(out);
	}
	assert_false(loads_compact(path[2]));
	assert_true(test_same_bytes(path[2], path[1]));
	expect_within_the_bounds(path[0], path[2]);
	for (int i = 0; i < 3; i++)
		free(path[i]);
	return err;
}

/* The same with one sharp turn in a long part, and motion the original
 * layout reduces to a few keys: the compact grid holds the turn only 128
 * times finer than the keys, whose mask bits alone pass the original
 * layout's bytes from 4 times finer on.  Those grids are not tried (on a
 * part of a 5-minute take they took a minute); the clip is written as
 * --tolerance default writes it, and the warning says why. */
static void finer_grids_bigger_than_the_original_layout_are_not_tried(void **state)
{
	/* 10 s: the grid twice as fine is tried; 20 s: only the keys' own
	 * (the warning said "up to 1 times finer"). */
	static const struct {
		int seconds;
		const char *split, *grids;
	} takes[] = { { 10, "P=0.0123:9.9", "on a grid up to 2 times finer than the keys' spacing" },
		      { 20, "P=0.0123:19.9", "on the keys' own grid" } };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char *dir = test_tmpdir(i ? "compact-kink-20" : "compact-kink"), *src = write_kink(dir, takes[i].seconds);
		char *err = expect_written_as_reduced(dir, src, takes[i].split, "kink/P.xnb");
		char *said = test_format("kink.Animation:1: warning: clip 'P': the compact layout cannot hold it within "
					 "the tolerance %s (key times off", takes[i].grids);

		if (!strstr(err, said) ||
		    !strstr(err, "and the mask bits of a finer one alone come to more bytes than the original layout; "
				 "wrote this clip in the original layout (reader version 0) within the same tolerance, in "))
			fail_msg("%s", err);
		free(said), free(err), free(src), free(dir);
	}
}

#define TWO_PI 6.283185307179586

/* A glTF take of one node, `count` keys at uneven times (gaps cycling
 * through 1/30, 1/60, 0.05, 0.0123 and 0.1 s), with a CUBICSPLINE
 * translation and a yaw turning 360 degrees in 0.3 s each second; its
 * buffer in take.bin beside it. */
static char *write_uneven_cubic(const char *dir, uint32_t count)
{
	static const double gaps[] = { 1 / 30.0, 1 / 60.0, 0.05, 0.0123, 0.1 };
	char *path = test_format("%s/take.gltf", dir), *bin_path = test_format("%s/take.bin", dir);
	size_t floats = (size_t)count * (1 + 9 + 12);
	float *bin = calloc(floats, sizeof *bin), *times = bin, *tr = bin + count, *ro = tr + 9 * (size_t)count;
	double t = 0;

	assert_non_null(bin);
	for (uint32_t i = 0; i < count; t += gaps[i % 5], i++) {
		double phase = fmod(t, 1.0), a = (phase < 0.3 ? TWO_PI * phase / 0.3 : 0) + TWO_PI * floor(t) / 3;
		const float in_out[2][3] = { { 0.5f, 0, 0.2f }, { -0.3f, 0.1f, 0 } };

		times[i] = (float)t;
		memcpy(tr + 9 * i, in_out[0], sizeof in_out[0]);
		tr[9 * i + 3] = (float)(3 * sin(2 * t));
		tr[9 * i + 4] = (float)(0.1 * sin(9 * t));
		tr[9 * i + 5] = (float)(4 * t);
		memcpy(tr + 9 * i + 6, in_out[1], sizeof in_out[1]);
		ro[12 * i + 1] = 0.2f;
		ro[12 * i + 5] = (float)sin(a / 2);
		ro[12 * i + 7] = (float)cos(a / 2);
		ro[12 * i + 9] = -0.1f;
	}
	assert_true(test_write_file(bin_path, bin, floats * sizeof *bin));
	char *doc = test_format(
		"{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
		"\"nodes\":[{\"name\":\"Root\"}],\"buffers\":[{\"byteLength\":%zu,\"uri\":\"take.bin\"}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%zu},"
		"{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
		"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%u,\"type\":\"SCALAR\","
		"\"min\":[0],\"max\":[%.9g]},{\"bufferView\":1,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\"},"
		"{\"bufferView\":2,\"componentType\":5126,\"count\":%u,\"type\":\"VEC4\"}],"
		"\"animations\":[{\"name\":\"Take\",\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":"
		"\"CUBICSPLINE\"},{\"input\":0,\"output\":2,\"interpolation\":\"CUBICSPLINE\"}],\"channels\":["
		"{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
		"{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]}",
		floats * sizeof *bin, (size_t)count * 4, (size_t)count * 4, (size_t)count * 36, (size_t)count * 40,
		(size_t)count * 48, count, (double)times[count - 1], 3 * count, 3 * count);
	assert_true(test_write_file(path, doc, strlen(doc)));
	free(doc), free(bin), free(bin_path);
	return path;
}

/* Keys at uneven times, on a grid of many more samples than keys (a
 * CUBICSPLINE take's bake lies on one of 40 kHz): a mask bit per sample
 * passes the original layout's bytes.  The clip was written compact, 1.8
 * times the original layout, after minutes of encoding: it is now weighed
 * against the original layout as a grid finer than the keys is, and, its
 * masks alone passing it, written in it, as --tolerance default writes it,
 * within the bounds of the lossless twin. */
static void keys_on_a_grid_of_many_more_samples_are_weighed(void **state)
{
	char *dir = test_tmpdir("compact-uneven"), *src = write_uneven_cubic(dir, 40);
	char *err = expect_written_as_reduced(dir, src, NULL, "take/Take.xnb");

	(void)state;
	if (!strstr(err, "take.gltf: warning: clip 'Take': the compact layout holds it on a grid of ") ||
	    !strstr(err, "[compact-declined]"))
		fail_msg("%s", err);
	free(err), free(src), free(dir);
}

/* Two seconds at 120 Hz of a root jumping about by up to 88 units a frame
 * (each coordinate 40 sin of a multiple of the frame number). */
static char *write_steep_bvh(const char *dir)
{
	const int frames = 240;
	size_t cap = (size_t)frames * 96 + 512, len = 0;
	char *text = malloc(cap), *path = test_format("%s/steep.bvh", dir);

	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len,
				"HIERARCHY\nROOT Root\n{\nOFFSET 0 0 0\n"
				"CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
				"End Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: %d\nFrame Time: 0.0083333\n", frames);
	for (int f = 0; f < frames; f++)
		len += (size_t)snprintf(text + len, cap - len, "%.5f %.5f %.5f 0 0 0\n", 40 * sin(1.3 * f),
					40 * cos(2.1 * f), 40 * sin(0.7 * f));
	assert_true(len < cap);
	assert_true(test_write_file(path, text, len));
	free(text);
	return path;
}

/* The runtime finds a time's place within a 64-sample segment in a float,
 * which near the end of a segment rounds by up to 2^-19 of a sample: on
 * a track that moves up to 88 units a sample, 0.00017 units.  The
 * encoder measured at places in double precision, and the compact file
 * played 0.00107 units from the lossless one (bound 0.001) between the
 * times it measured.  Within the bound at 1 MHz. */
static void steep_tracks_stay_within_the_bound_between_grid_samples(void **state)
{
	char *dir = test_tmpdir("compact-steep"), *src = write_steep_bvh(dir);
	char *lossless = test_format("%s/lossless", dir), *compact = test_format("%s/compact", dir);
	test_run r = test_animc("build", "-q", "-o", lossless, src, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--layout", "compact", "-o", compact, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *a = test_format("%s/steep/Motion.xnb", lossless), *b = test_format("%s/steep/Motion.xnb", compact);
	test_error e = test_compare_files(a, b, 1000000, true);
	if (!(e.translation <= ANIMC_TOLERANCE_TRANSLATION))
		fail_msg("%s: %g units from the lossless file, past %g", b, e.translation, ANIMC_TOLERANCE_TRANSLATION);
	free(a), free(b);
	free(src), free(compact), free(lossless), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(values_where_float_steps_fill_the_bound_go_to_the_original_layout),
	cmocka_unit_test(flips_stay_within_the_bound_at_the_keys_times),
	cmocka_unit_test(clips_no_grid_holds_go_to_the_original_layout),
	cmocka_unit_test(long_clips_of_few_keys_stay_within_a_small_memory_limit),
	cmocka_unit_test(keys_at_one_time_go_to_the_original_layout),
	cmocka_unit_test(keys_past_the_duration_stay_compact),
	cmocka_unit_test(samples_off_their_keys_times_stay_within_the_bound),
	cmocka_unit_test(parts_cut_between_keys_are_no_bigger_than_the_original_layout),
	cmocka_unit_test(finer_grids_bigger_than_the_original_layout_are_not_tried),
	cmocka_unit_test(keys_on_a_grid_of_many_more_samples_are_weighed),
	cmocka_unit_test(steep_tracks_stay_within_the_bound_between_grid_samples),
};

ANIMC_TEST_GROUP(tests);
