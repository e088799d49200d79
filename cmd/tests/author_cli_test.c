/*
 * author_cli_test.c - the authoring options through `animc build`: clip
 * splitting by a sidecar (STEM_Anims.xml), --clips and --split, checked
 * against the take compiled whole and sampled by the runtime; hostile
 * sidecars; the sidecar as a dependency (edit, delete, --prune).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include <animc/animrt.h>

#define WALKER "testdata/authoring/Walker.xml"
#define WALKER_ANIMS "testdata/authoring/Walker_Anims.xml"

static void copy_file(const char *from, const char *to)
{
	size_t size;
	uint8_t *data = test_read_file(from, &size);

	assert_true(test_write_file(to, data, size));
	free(data);
}

static animrt_clip *open_xnb(const char *dir, const char *name)
{
	char *path = test_format("%s/%s", dir, name);
	animrt_clip *clip = NULL;
	animrt_error err;

	if (animrt_open_file(path, &clip, &err) != ANIMRT_OK)
		fail_msg("%s: %s", path, err.message);
	free(path);
	return clip;
}

/* The largest difference between `part` at t and `take` at start + t, over
 * every bone, track and a fine grid of t (rotations compared up to sign). */
static double part_error(const animrt_clip *part, const animrt_clip *take, double start)
{
	double worst = 0;

	assert_int_equal(part->sequence_count, take->sequence_count);
	for (int i = 0; i <= 400; i++) {
		float t = (float)(part->duration_s * i / 400.0);

		for (uint32_t s = 0; s < part->sequence_count; s++) {
			float pt[3], pr[4], ps[3], tt[3], tr[4], ts[3];
			double dot = 0;

			assert_string_equal(part->sequences[s].bone, take->sequences[s].bone);
			animrt_sequence_sample(&part->sequences[s], t, ANIMRT_PLAY_ONCE, NULL, pt, pr, ps);
			animrt_sequence_sample(&take->sequences[s], (float)(start + t), ANIMRT_PLAY_ONCE, NULL, tt, tr,
					       ts);
			for (int k = 0; k < 4; k++)
				dot += (double)pr[k] * tr[k];
			for (int k = 0; k < 3; k++) {
				worst = fmax(worst, fabs(pt[k] - tt[k]));
				worst = fmax(worst, fabs(ps[k] - ts[k]));
			}
			for (int k = 0; k < 4; k++)
				worst = fmax(worst, fabs(pr[k] - (dot < 0 ? -tr[k] : tr[k])));
		}
	}
	return worst;
}

/* The take compiled whole: Walker.xml alone in a folder. */
static char *compile_take(void)
{
	char *src = test_tmpdir("take-src"), *out = test_tmpdir("take-out");
	char *copy = test_format("%s/Walker.xml", src);
	test_run r;

	copy_file(WALKER, copy);
	r = test_animc("build", "-q", "-o", out, copy, NULL);
	if (r.status != 0)
		fail_msg("take: %s", r.err);
	test_run_release(&r);
	free(copy);
	free(src);
	return out;
}

static void sidecar_splits_a_take_at_exact_boundaries(void **state)
{
	char *out = test_tmpdir("sidecar"), *take_dir = compile_take();
	test_run r;
	animrt_clip *take, *part;
	static const struct { const char *name; double start, duration; } parts[] = {
		{ "Start", 0, 1 }, { "Run", 1.25, 2.375 },
	};

	(void)state;
	r = test_animc("build", "-v", "-o", out, "testdata/authoring", NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	/* The sidecar is no source: skipped, named as used by Walker.xml. */
	assert_non_null(strstr(r.out, "skipped testdata/authoring/Walker_Anims.xml"));
	assert_non_null(strstr(r.out, "used by"));
	test_run_release(&r);
	/* The parts and the other take; the split take is not written. */
	assert_int_equal(test_count_files(out), 3);
	assert_true(test_file_exists(test_format("%s/Walker/Idle.xnb", out)));
	assert_false(test_file_exists(test_format("%s/Walker/Take 001.xnb", out)));
	take = open_xnb(take_dir, "Walker/Take 001.xnb");
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		char *name = test_format("Walker/%s.xnb", parts[i].name);
		double err;

		part = open_xnb(out, name);
		test_assert_near(part->duration_s, parts[i].duration, 1e-6);
		err = part_error(part, take, parts[i].start);
		print_message("part %s: max |part(t) - take(%g + t)| = %.3g\n", parts[i].name, parts[i].start, err);
		assert_true(err <= 1e-5);
		animrt_close(part);
		free(name);
	}
	animrt_close(take);
	free(take_dir);
	free(out);
}

/* Boundaries between keys: the pose there interpolated by the runtime's rule. */
static void split_between_keys_is_the_take_shifted(void **state)
{
	char *out = test_tmpdir("split-between"), *take_dir = compile_take();
	animrt_clip *take, *part;
	test_run r;
	double err;

	(void)state;
	take = open_xnb(take_dir, "Walker/Take 001.xnb");
	/* With --tolerance the part stays within the tolerance of the take. */
	r = test_animc("build", "-q", "--split", "Take 001/Mid=0.3:2.71", "--tolerance", "default", "-o", out,
		       WALKER, NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	test_run_release(&r);
	part = open_xnb(out, "Walker/Mid.xnb");
	test_assert_near(part->duration_s, 2.41, 1e-6);
	err = part_error(part, take, 0.3);
	print_message("part Mid with --tolerance default: max error %.3g\n", err);
	assert_true(err <= 2e-3);
	animrt_close(part);
	free(out);
	/* Lossless, the part is the take shifted within 1e-5. */
	out = test_tmpdir("split-between3");
	r = test_animc("build", "-q", "--split", "Take 001/Mid=0.3:2.71", "--split", "Take 001/Tail=3.0625:4",
		       "-o", out, WALKER, NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	test_run_release(&r);
	part = open_xnb(out, "Walker/Mid.xnb");
	err = part_error(part, take, 0.3);
	print_message("part Mid (0.3 s to 2.71 s): max error %.3g\n", err);
	assert_true(err <= 1e-5);
	animrt_close(part);
	part = open_xnb(out, "Walker/Tail.xnb");
	err = part_error(part, take, 3.0625);
	print_message("part Tail (3.0625 s to 4 s): max error %.3g\n", err);
	assert_true(err <= 1e-5);
	animrt_close(part);
	animrt_close(take);
	free(take_dir);
	free(out);
}

/* --split and --clips describing the sidecar's parts write its bytes. */
static void split_clips_and_sidecar_give_the_same_bytes(void **state)
{
	char *a = test_tmpdir("same-sidecar"), *b = test_tmpdir("same-split"), *c = test_tmpdir("same-clips");
	char *src = test_tmpdir("same-src"), *copy = test_format("%s/Walker.xml", src);
	static const char *const names[] = { "Start.xnb", "Run.xnb", "Idle.xnb" };
	test_run r;

	(void)state;
	copy_file(WALKER, copy);
	r = test_animc("build", "-q", "-o", a, WALKER, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--split", "Take 001/Start=0f:8f", "--split", "Take 001/Run=1.25:29f", "-o",
		       b, copy, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--clips", WALKER_ANIMS, "-o", c, copy, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (size_t i = 0; i < 3; i++) {
		size_t na, nb, nc;
		char *pa = test_format("%s/Walker/%s", a, names[i]), *pb = test_format("%s/Walker/%s", b, names[i]);
		char *pc = test_format("%s/Walker/%s", c, names[i]);
		uint8_t *da = test_read_file(pa, &na), *db = test_read_file(pb, &nb), *dc = test_read_file(pc, &nc);

		assert_int_equal(na, nb);
		assert_int_equal(na, nc);
		assert_memory_equal(da, db, na);
		assert_memory_equal(da, dc, na);
		free(da), free(db), free(dc), free(pa), free(pb), free(pc);
	}
	assert_int_equal(test_count_files(b), 3);
	free(a), free(b), free(c), free(src), free(copy);
}

/* Each hostile sidecar fails its source, naming the sidecar and the line. */
static void hostile_sidecars_name_file_and_line(void **state)
{
	static const char head[] = "<XnaContent xmlns:P=\"SkinnedModelPipeline\">\n"
				   "<Asset Type=\"P:AnimationDefinition\">\n";
	static const struct {
		const char *body;
		const char *where;   /* file:line in the message */
		const char *also;    /* another word it says */
	} cases[] = {
		/* a part past the take's end (32 frames) */
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName><StartFrame>0</StartFrame><EndFrame>40</EndFrame></Item>\n"
		  "</ClipParts>", "Walker_Anims.xml:6:", "past the end" },
		/* END <= START */
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName><StartFrame>9</StartFrame><EndFrame>9</EndFrame></Item>\n"
		  "</ClipParts>", "Walker_Anims.xml:6:", "not after" },
		/* two parts with one name */
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName><StartFrame>0</StartFrame><EndFrame>4</EndFrame></Item>\n"
		  "<Item><ClipName>A</ClipName><StartFrame>5</StartFrame><EndFrame>9</EndFrame></Item>\n"
		  "</ClipParts>", "Walker_Anims.xml:7:", "'A'" },
		/* originalClipName not found: the takes listed */
		{ "<originalClipName>Take 9</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName><StartFrame>0</StartFrame><EndFrame>4</EndFrame></Item>\n"
		  "</ClipParts>", "Walker_Anims.xml:3:", "'Take 001', 'Idle'" },
		/* malformed: a bad frame number, a missing member, an unknown element, bad XML */
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName><StartFrame>zero</StartFrame><EndFrame>4</EndFrame></Item>\n"
		  "</ClipParts>", "Walker_Anims.xml:6:", "StartFrame" },
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName><EndFrame>4</EndFrame></Item>\n"
		  "</ClipParts>", "Walker_Anims.xml:6:", "StartFrame" },
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<Looping>true</Looping>\n<ClipParts/>", "Walker_Anims.xml:5:", "Looping" },
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName></Item>\n</ClipParts>\n</Wrong>", "Walker_Anims.xml:", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *dir = test_tmpdir("hostile-sidecar"), *out = test_format("%s/out", dir);
		char *src = test_format("%s/Walker.xml", dir), *side = test_format("%s/Walker_Anims.xml", dir);
		char *doc = test_format("%s%s\n</Asset>\n</XnaContent>\n", head, cases[i].body);
		test_run r;

		copy_file(WALKER, src);
		assert_true(test_write_file(side, doc, strlen(doc)));
		r = test_animc("build", "-o", out, dir, NULL);
		if (r.status == 0 || !strstr(r.err, cases[i].where) || !strstr(r.err, cases[i].also))
			fail_msg("case %zu: exit %d, stderr: %s", i, r.status, r.err);
		/* Nothing of the source is written. */
		assert_false(test_file_exists(test_format("%s/Walker/Idle.xnb", out)));
		test_run_release(&r);
		free(dir), free(out), free(src), free(side), free(doc);
	}
}

static void split_option_errors(void **state)
{
	static const char *const bad[] = { "Run", "Run=1", "Run=a:b", "=1:2", "/Run=1:2", "Run=-1:2" };

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		test_run r = test_animc("build", "-o", "/nonexistent", "--split", bad[i], WALKER, NULL);

		assert_int_equal(r.status, 2);
		test_run_release(&r);
	}
	test_run r = test_animc("build", "-o", "/nonexistent", "--split", "A=0:1", "--clips", WALKER_ANIMS, WALKER,
				NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
}

/* The sidecar is a dependency: editing it recompiles its source alone;
 * deleting it goes back to one clip per take, the parts stale until
 * --prune; a new one splits again. */
static void sidecar_edits_and_deletes_rebuild_its_source(void **state)
{
	char *dir = test_tmpdir("sidecar-deps"), *out = test_tmpdir("sidecar-deps-out");
	char *side = test_format("%s/Walker_Anims.xml", dir), *dep = test_format("%s/deps.d", out);
	size_t size;
	uint8_t *doc;
	char *edited, *at;
	test_run r;

	(void)state;
	copy_file(WALKER, test_format("%s/Walker.xml", dir));
	copy_file(WALKER_ANIMS, side);
	copy_file("testdata/content/Animations/Wave.xml", test_format("%s/Wave.xml", dir));
	r = test_animc("build", "-q", "--depfile", dep, "-o", out, dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* The depfile names the sidecar among Walker's inputs. */
	doc = test_read_file(dep, NULL);
	assert_non_null(strstr((char *)doc, "Walker_Anims.xml"));
	free(doc);
	assert_int_equal(test_count_files(out), 4 + 1);   /* Start, Run, Idle, Wave, deps.d */

	/* Edit: Run ends a frame earlier. */
	doc = test_read_file(side, &size);
	edited = strdup((char *)doc);
	at = strstr(edited, "<EndFrame>29</EndFrame>");
	assert_non_null(at);
	memcpy(at, "<EndFrame>28</EndFrame>", 23);
	sleep(1);   /* a new mtime */
	assert_true(test_write_file(side, edited, size));
	r = test_animc("build", "-v", "-o", out, dir, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled "));
	assert_non_null(strstr(r.out, "[Run]"));
	assert_non_null(strstr(r.out, "up to date "));
	assert_null(strstr(r.out, "Wave.xml ->"));
	assert_non_null(strstr(r.out, "up to date ") && strstr(strstr(r.out, "up to date "), "Wave.xml"));
	test_run_release(&r);
	{
		animrt_clip *run = open_xnb(out, "Walker/Run.xnb");

		test_assert_near(run->duration_s, 18 * 0.125, 1e-6);
		animrt_close(run);
	}

	/* Delete: the take is written whole again; the parts are stale. */
	assert_int_equal(unlink(side), 0);
	r = test_animc("build", "-o", out, dir, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "2 stale outputs"));
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Walker/Take 001.xnb", out)));
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb", out)));
	r = test_animc("build", "-q", "--prune", "-o", out, dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_false(test_file_exists(test_format("%s/Walker/Run.xnb", out)));
	assert_false(test_file_exists(test_format("%s/Walker/Start.xnb", out)));

	/* A sidecar that comes back splits again, though Walker.xml did not change. */
	assert_true(test_write_file(side, edited, size));
	r = test_animc("build", "-q", "--prune", "-o", out, dir, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb", out)));
	assert_false(test_file_exists(test_format("%s/Walker/Take 001.xnb", out)));
	free(doc), free(edited), free(dir), free(out), free(side), free(dep);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(sidecar_splits_a_take_at_exact_boundaries),
	cmocka_unit_test(split_between_keys_is_the_take_shifted),
	cmocka_unit_test(split_clips_and_sidecar_give_the_same_bytes),
	cmocka_unit_test(hostile_sidecars_name_file_and_line),
	cmocka_unit_test(split_option_errors),
	cmocka_unit_test(sidecar_edits_and_deletes_rebuild_its_source),
};

ANIMC_TEST_GROUP(tests);
