/*
 * author_cli_test.c - the authoring options through `animc build`: clip
 * splitting by a sidecar (STEM_Anims.xml), --clips and --split, checked
 * against the take compiled whole and sampled by the runtime; hostile
 * sidecars; the sidecar as a dependency (edit, delete, --prune).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

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

/* A sidecar whose <Asset> comes after a long comment (a licence) is still
 * the sidecar: only its first 4096 bytes were looked at, and the take was
 * built whole without a word. */
static void a_sidecar_after_a_long_comment_splits(void **state)
{
	char *dir = test_tmpdir("sidecar-licence"), *out = test_format("%s/out", dir);
	char *src = test_format("%s/src", dir), *walker = test_format("%s/Walker.xml", src);
	char *side = test_format("%s/Walker_Anims.xml", src), *part = test_format("%s/Walker/Run.xnb", out);
	char *whole = test_format("%s/Walker/Take 001.xnb", out);
	size_t size;
	char *doc = (char *)test_read_file(WALKER_ANIMS, &size), *line_end = strchr(doc, '\n');
	FILE *f;

	(void)state;
	assert_int_equal(mkdir(src, 0755), 0);
	copy_file(WALKER, walker);
	f = fopen(side, "wb");
	assert_non_null(f);
	fwrite(doc, 1, (size_t)(line_end + 1 - doc), f);
	fputs("<!--\n", f);
	for (int i = 0; i < 200; i++)
		fprintf(f, "  Licence line %03d: this file is part of the game's art, all rights reserved.\n", i);
	fputs("-->\n", f);
	fwrite(line_end + 1, 1, size - (size_t)(line_end + 1 - doc), f);
	fclose(f);
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	assert_true(test_file_exists(part));
	assert_false(test_file_exists(whole));
	free(doc), free(whole), free(part), free(side), free(walker), free(src), free(out), free(dir);
}

/* A sidecar saved as "Unicode" (UTF-16, either byte order) or as UTF-32
 * splits the take as its UTF-8 twin does: it was skipped as unrecognised
 * (UTF-32 until the sniffer read it: a sidecar-unused warning) and the take
 * was written whole, exit 0. */
static void a_utf16_or_utf32_sidecar_splits_as_its_utf8_twin(void **state)
{
	char *dir = test_tmpdir("sidecar-utf16"), *twin = test_format("%s/twin", dir);
	size_t size;
	char *doc = (char *)test_read_file(WALKER_ANIMS, &size);
	static const char *const parts[] = { "Start", "Run" };
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", twin, "testdata/authoring", NULL));
	for (int form = 0; form < 4; form++) {
		bool big_endian = form & 1;
		char *src = test_format("%s/src%d", dir, form), *out = test_format("%s/out%d", dir, form);
		char *walker = test_format("%s/Walker.xml", src), *side = test_format("%s/Walker_Anims.xml", src);
		size_t u16_size;
		uint8_t *u16 = form < 2 ? test_utf16(doc, size, big_endian, true, &u16_size)
					: test_utf32(doc, size, big_endian, true, &u16_size);

		assert_int_equal(mkdir(src, 0755), 0);
		copy_file(WALKER, walker);
		assert_true(test_write_file(side, u16, u16_size));
		r = test_animc("build", "-q", "-o", out, src, NULL);
		if (r.status != 0 || strstr(r.err, "sidecar-unused"))
			fail_msg("UTF-%d: exit %d: %s", form < 2 ? 16 : 32, r.status, r.err);
		test_run_release(&r);
		/* The parts and the other take; the split take is not written. */
		assert_int_equal(test_count_files(out), 3);
		assert_false(test_file_exists(test_format("%s/Walker/Take 001.xnb", out)));
		for (size_t i = 0; i < 2; i++) {
			char *want = test_format("%s/Walker/%s.xnb", twin, parts[i]);
			char *got = test_format("%s/Walker/%s.xnb", out, parts[i]);

			assert_true(test_same_bytes(want, got));
			free(got), free(want);
		}
		free(u16), free(side), free(walker), free(out), free(src);
	}
	free(doc), free(twin), free(dir);
}

/* A sidecar whose type is misspelt splits nothing: said as a warning (a
 * note under -v before), which --warnings-as-errors fails. */
static void a_misspelt_sidecar_is_a_warning(void **state)
{
	char *dir = test_tmpdir("sidecar-misspelt"), *out = test_format("%s/out", dir);
	char *src = test_format("%s/src", dir), *walker = test_format("%s/Walker.xml", src);
	char *side = test_format("%s/Walker_Anims.xml", src), *whole = test_format("%s/Walker/Take 001.xnb", out);
	size_t size;
	char *doc = (char *)test_read_file(WALKER_ANIMS, &size), *type = strstr(doc, "AnimationDefinition");
	test_run r;

	(void)state;
	assert_non_null(type);
	memcpy(type, "AnimationDefinitoin", 19);
	assert_int_equal(mkdir(src, 0755), 0);
	copy_file(WALKER, walker);
	assert_true(test_write_file(side, doc, size));
	r = test_animc("build", "--allow", "numbered-bones", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "Walker_Anims.xml: warning: named like a clip-split sidecar"));
	assert_non_null(strstr(r.err, "[sidecar-unused]"));
	assert_non_null(strstr(r.out, "1 skipped, 1 warning"));
	test_run_release(&r);
	assert_true(test_file_exists(whole));
	r = test_animc("build", "-q", "--warnings-as-errors", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "--warnings-as-errors", "--allow", "sidecar-unused,numbered-bones", "-o",
			       out, src, NULL));
	free(doc), free(whole), free(side), free(walker), free(src), free(out), free(dir);
}

/* A sidecar named in another letter case (walker_anims.xml beside
 * Walker.xml) cuts the source on Windows and macOS, whose file systems
 * ignore case, and split nothing here, said under -v alone: the same tree
 * gave other outputs on Linux, and no word of it.  It is a warning. */
static void a_sidecar_named_in_another_case_is_a_warning(void **state)
{
	char *dir = test_tmpdir("sidecar-case"), *out = test_format("%s/out", dir);
	char *src = test_format("%s/src", dir), *walker = test_format("%s/Walker.xml", src);
	char *side = test_format("%s/walker_anims.xml", src), *whole = test_format("%s/Walker/Take 001.xnb", out);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(src, 0755), 0);
	copy_file(WALKER, walker);
	copy_file(WALKER_ANIMS, side);
	r = test_animc("build", "--allow", "numbered-bones", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "walker_anims.xml: warning: named like the clip-split sidecar of 'Walker.xml', "
			   "'Walker_Anims.xml', but for letter case") ||
	    !strstr(r.err, "[sidecar-unused]") || !strstr(r.out, "1 skipped, 1 warning"))
		fail_msg("stdout: %s\nstderr: %s", r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(whole));
	r = test_animc("build", "-q", "--warnings-as-errors", "--allow", "numbered-bones", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	free(whole), free(side), free(walker), free(src), free(out), free(dir);
}

/* A strict build whose sidecar got a misspelt Type, and any build whose
 * sidecar was emptied (an editor saving it), fail the source and keep the
 * parts its last build wrote: its takes were built whole and, with
 * --prune, the parts removed. */
static void a_sidecar_split_nothing_keeps_the_parts(void **state)
{
	char *dir = test_tmpdir("sidecar-keeps"), *out = test_format("%s/out", dir);
	char *src = test_format("%s/src", dir), *walker = test_format("%s/Walker.xml", src);
	char *side = test_format("%s/Walker_Anims.xml", src), *whole = test_format("%s/Walker/Take 001.xnb", out);
	char *run = test_format("%s/Walker/Run.xnb", out), *kept = test_format("%s/Run.xnb", dir);
	size_t size;
	char *doc = (char *)test_read_file(WALKER_ANIMS, &size), *type = strstr(doc, "AnimationDefinition");
	test_run r;

	(void)state;
	assert_non_null(type);
	assert_int_equal(mkdir(src, 0755), 0);
	copy_file(WALKER, walker);
	copy_file(WALKER_ANIMS, side);
	test_run_ok(test_animc("build", "-q", "--warnings-as-errors", "--allow", "numbered-bones", "--prune", "-o", out,
			       src, NULL));
	copy_file(run, kept);
	memcpy(type, "AnimationDefinitoin", 19);
	assert_true(test_write_file(side, doc, size));
	r = test_animc("build", "-q", "--warnings-as-errors", "--allow", "numbered-bones", "--prune", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "Walker.xml: error: ") ||
	    !strstr(r.err, "Walker_Anims.xml: named like this source's clip-split sidecar but splits nothing "
			   "(sidecar-unused, treated as an error): the source is not built, and keeps the outputs "
			   "its last build wrote"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_same_bytes(run, kept));
	assert_false(test_file_exists(whole));

	/* Emptied: a sidecar that fails its source, in any build. */
	assert_true(test_write_file(side, "", 0));
	r = test_animc("build", "-q", "--prune", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "Walker_Anims.xml: the file is empty (one being saved is, for a moment): the source "
			   "keeps the outputs its last build wrote"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_same_bytes(run, kept));
	assert_false(test_file_exists(whole));
	free(doc), free(whole), free(side), free(walker), free(src), free(out), free(dir), free(run), free(kept);
}

/* A part of one frame (StartFrame = EndFrame, the range inclusive) is
 * written as a pose lasting 1/60 s, with the note a one-frame take gets:
 * it failed the source, ending "not after its start". */
static void a_part_of_one_frame_is_a_pose_lasting_a_60th(void **state)
{
	char *out = test_tmpdir("one-frame-part");
	test_run r = test_animc("build", "-v", "--split", "Take 001/Aim=5f:5f", "--split", "Take 001/Run=6f:9f", "-o",
				out, WALKER, NULL);
	animrt_clip *aim;
	float t[3], q[4], sc[3];

	(void)state;
	if (r.status != 0)
		fail_msg("%s", r.err);
	if (!strstr(r.err, "Walker.xml:7: note: clip 'Aim': is a pose (one frame, 0 s); written as lasting 1/60 s, "
			   "which the original runtime needs to play it"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	aim = open_xnb(out, "Walker/Aim.xnb");
	test_assert_near(aim->duration_s, 1 / 60.0, 1e-6);
	assert_int_equal(aim->sequences[0].key_count, 1);
	animrt_sequence_sample(&aim->sequences[0], 0, ANIMRT_PLAY_ONCE, NULL, t, q, sc);
	animrt_close(aim);
	/* The pose of frame 5 (0.625 s): the first key of a part 5f:9f. */
	test_run_ok(test_animc("build", "-q", "--split", "Take 001/Aim=5f:9f", "-o", test_format("%s/long", out),
			       WALKER, NULL));
	aim = open_xnb(test_format("%s/long", out), "Walker/Aim.xnb");
	float t5[3], q5[4], s5[3];
	animrt_sequence_sample(&aim->sequences[0], 0, ANIMRT_PLAY_ONCE, NULL, t5, q5, s5);
	for (int k = 0; k < 3; k++)
		test_assert_near(t[k], t5[k], 1e-6);
	animrt_close(aim);
	free(out);
}

/* A part whose name is too long for a file name is said at its line in
 * the sidecar, as every other error about a part is: it was said at the
 * source, naming neither. */
static void a_part_name_too_long_names_the_sidecar_line(void **state)
{
	char *dir = test_tmpdir("part-too-long"), *out = test_format("%s/out", dir), *src = test_format("%s/src", dir);
	char name[301];
	char *doc, *want;
	test_run r;

	(void)state;
	memset(name, 'x', 300);
	name[300] = '\0';
	doc = test_format("<XnaContent xmlns:Pipeline=\"SkinnedModelPipeline\">\n"
			  "  <Asset Type=\"Pipeline:AnimationDefinition\">\n"
			  "    <originalClipName>Take 001</originalClipName>\n"
			  "    <originalFrameCount>32</originalFrameCount>\n"
			  "    <ClipParts>\n"
			  "      <Item><ClipName>Run</ClipName><StartFrame>10</StartFrame><EndFrame>29</EndFrame></Item>\n"
			  "      <Item><ClipName>%s</ClipName><StartFrame>0</StartFrame><EndFrame>8</EndFrame></Item>\n"
			  "    </ClipParts>\n"
			  "  </Asset>\n"
			  "</XnaContent>\n", name);
	assert_int_equal(mkdir(src, 0755), 0);
	copy_file(WALKER, test_format("%s/Walker.xml", src));
	assert_true(test_write_file(test_format("%s/Walker_Anims.xml", src), doc, strlen(doc)));
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	want = test_format("Walker_Anims.xml:7: part '%.40s...' (300 bytes): its name is too long for a file name "
			   "(at most 251 bytes with '.xnb'); not written", name);
	if (!strstr(r.err, want))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(want), free(doc), free(src), free(out), free(dir);
}

/* A sidecar whose type lies past the bytes looked at (a long comment
 * first: in UTF-16, twice the bytes) splits nothing either, and says so
 * (it was skipped without a word), as such, though read whole by its
 * .xml name it holds an AnimationDefinition. */
static void a_sidecar_past_the_probe_is_a_warning(void **state)
{
	char *dir = test_tmpdir("sidecar-far"), *out = test_format("%s/out", dir);
	char *src = test_format("%s/src", dir), *walker = test_format("%s/Walker.xml", src);
	char *side = test_format("%s/Walker_Anims.xml", src), *whole = test_format("%s/Walker/Take 001.xnb", out);
	size_t size, comment = 1100u << 10;
	char *doc = (char *)test_read_file(WALKER_ANIMS, &size), *root = strstr(doc, "<XnaContent");
	char *far = malloc(size + comment + 16);
	test_run r;

	(void)state;
	assert_non_null(root);
	assert_non_null(far);
	size_t head = (size_t)(root - doc), at = head;
	memcpy(far, doc, head);
	memcpy(far + at, "<!--", 4), at += 4;
	memset(far + at, 'x', comment), at += comment;
	memcpy(far + at, "-->\n", 4), at += 4;
	memcpy(far + at, root, size - head), at += size - head;
	assert_int_equal(mkdir(src, 0755), 0);
	copy_file(WALKER, walker);
	assert_true(test_write_file(side, far, at));
	r = test_animc("build", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "Walker_Anims.xml: warning: named like a clip-split sidecar, but no <XnaContent> holding an "
			   "AnimationDefinition is in its first 1 MiB: its source's takes are built whole "
			   "[sidecar-unused]"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(whole));
	free(far), free(doc), free(whole), free(side), free(walker), free(src), free(out), free(dir);
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

	(void)state;
	copy_file(WALKER, copy);
	test_run_ok(test_animc("build", "-q", "-o", a, WALKER, NULL));
	test_run_ok(test_animc("build", "-q", "--split", "Take 001/Start=0f:8f", "--split", "Take 001/Run=1.25:29f",
			       "-o", b, copy, NULL));
	test_run_ok(test_animc("build", "-q", "--clips", WALKER_ANIMS, "-o", c, copy, NULL));
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
		/* END < START */
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n<Item><ClipName>A</ClipName><StartFrame>9</StartFrame><EndFrame>8</EndFrame></Item>\n"
		  "</ClipParts>", "Walker_Anims.xml:6:", "before its start" },
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
		/* a take split into nothing: no clip would be left */
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts>\n</ClipParts>", "Walker_Anims.xml:5:", "lists no <Item>" },
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>\n"
		  "<ClipParts/>", "Walker_Anims.xml:5:", "lists no <Item>" },
		{ "<originalClipName>Take 001</originalClipName>\n<originalFrameCount>32</originalFrameCount>",
		  "Walker_Anims.xml", "has no <ClipParts>" },
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

/* A --clips document that cannot split is refused before anything is
 * built, at its own line, whatever the inputs; --split and --clips given
 * only folders (whose files they do not cut) are usage errors, not a
 * build that ships the whole takes. */
static void split_options_that_can_cut_nothing_are_usage_errors(void **state)
{
	char *dir = test_tmpdir("split-nothing"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *missing = test_format("%s/missing.xml", dir);
	char *want_missing = test_format("%s: error: --clips: cannot open: No such file or directory\n", missing);
	char *copy = test_format("cp %s %s/Other.xml", WALKER, src);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(src, 0755), 0);
	assert_int_equal(system(copy), 0);
	r = test_animc("build", "-q", "--clips", missing, "-o", out, src, NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, want_missing);
	test_run_release(&r);
	r = test_animc("build", "-q", "--clips", "testdata/sample/Crane/Signals.xml", "-o", out, WALKER, NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "testdata/sample/Crane/Signals.xml:5:53: error: --clips: the <Asset> is of type "
			    "'AnimationClassLibrary.AnimationData', not an AnimationDefinition\n");
	test_run_release(&r);
	r = test_animc("build", "-q", "--split", "Run=0:0.5", "-o", out, src, NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "animc build: --split cuts the sources named on the command line, and no input "
			    "is one (the folders' files are not cut): name the source to cut\n"
			    "Try 'animc help build'.\n");
	test_run_release(&r);
	r = test_animc("build", "-q", "--clips", WALKER_ANIMS, "-o", out, src, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "animc build: --clips cuts the sources named on the command line"));
	test_run_release(&r);
	assert_false(test_file_exists(out));
	/* A named file beside the folder is cut. */
	test_run_ok(test_animc("build", "-q", "--clips", WALKER_ANIMS, "-o", out, src, WALKER, NULL));
	free(copy), free(want_missing), free(missing), free(out), free(src), free(dir);
}

/* Without TAKE/, --split means the source's only take, so NAME=... and
 * TAKE/NAME=... naming that take are two parts of it, as when both are
 * spelled alike; two splits of another take still fail. */
static void split_with_and_without_the_take_is_one_take(void **state)
{
	char *mixed = test_tmpdir("split-mixed"), *named = test_tmpdir("split-named");
	static const char *const parts[] = { "a", "b" };
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", mixed, "--split", "a=0:0.5", "--split", "blink/b=0.5:1",
		       "testdata/gltf/step.gltf", NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", named, "--split", "blink/a=0:0.5", "--split", "blink/b=0.5:1",
			       "testdata/gltf/step.gltf", NULL));
	assert_int_equal(test_count_files(mixed), 2);
	for (size_t i = 0; i < 2; i++)
		assert_true(test_same_bytes(test_format("%s/step/%s.xnb", mixed, parts[i]),
					    test_format("%s/step/%s.xnb", named, parts[i])));
	r = test_animc("outputs", "-o", mixed, "--split", "blink/b=0.5:1", "--split", "a=0:0.5",
		       "testdata/gltf/step.gltf", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "/step/a.xnb\n"));
	assert_non_null(strstr(r.out, "/step/b.xnb\n"));
	test_run_release(&r);
	/* A take the source does not hold is still an error of its own. */
	r = test_animc("build", "-q", "-o", mixed, "--split", "a=0:0.5", "--split", "wink/b=0.5:1",
		       "testdata/gltf/step.gltf", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "no take 'wink' to split; the takes are: 'blink'"));
	test_run_release(&r);
	free(mixed), free(named);
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
	test_run_ok(test_animc("build", "-q", "--depfile", dep, "-o", out, dir, NULL));
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
	test_run_ok(test_animc("build", "-q", "--prune", "-o", out, dir, NULL));
	assert_false(test_file_exists(test_format("%s/Walker/Run.xnb", out)));
	assert_false(test_file_exists(test_format("%s/Walker/Start.xnb", out)));

	/* A sidecar that comes back splits again, though Walker.xml did not change. */
	assert_true(test_write_file(side, edited, size));
	test_run_ok(test_animc("build", "-q", "--prune", "-o", out, dir, NULL));
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb", out)));
	assert_false(test_file_exists(test_format("%s/Walker/Take 001.xnb", out)));
	free(doc), free(edited), free(dir), free(out), free(side), free(dep);
}


/* ------------------------------------------------------------ root motion */

/* One bone of a loaded clip at t (Once), by name; false when it has none. */
static bool bone_at(const animrt_clip *clip, const char *bone, float t, float tr[3], float rot[4], float sc[3])
{
	animrt_pose pose;
	void *mem = malloc(animrt_pose_size_bytes(clip->sequence_count));

	animrt_pose_init(&pose, mem, clip->sequence_count);
	assert_int_equal(animrt_clip_sample(clip, t, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
	for (uint32_t i = 0; i < clip->sequence_count; i++)
		if (strcmp(animrt_clip_bone_name(clip, i, NULL), bone) == 0) {
			memcpy(tr, pose.translation + 3 * i, 3 * sizeof(float));
			memcpy(rot, pose.rotation + 4 * i, 4 * sizeof(float));
			memcpy(sc, pose.scale + 3 * i, 3 * sizeof(float));
			free(mem);
			return true;
		}
	free(mem);
	return false;
}

static void quat_mul(const float a[4], const float b[4], double out[4])
{
	out[0] = (double)a[3] * b[0] + (double)a[0] * b[3] + (double)a[1] * b[2] - (double)a[2] * b[1];
	out[1] = (double)a[3] * b[1] - (double)a[0] * b[2] + (double)a[1] * b[3] + (double)a[2] * b[0];
	out[2] = (double)a[3] * b[2] + (double)a[0] * b[1] - (double)a[1] * b[0] + (double)a[2] * b[3];
	out[3] = (double)a[3] * b[3] - (double)a[0] * b[0] - (double)a[1] * b[1] - (double)a[2] * b[2];
}

/* motion + in place against the source, every bone, on a fine grid:
 * the worst difference; *ground_drift gets the in-place root's worst
 * ground distance from its first frame.  The motion's vertical travel is
 * 0 (reduced outputs: within `vertical`). */
static double recompose_error_within(const animrt_clip *source, const animrt_clip *in_place,
				     const animrt_clip *motion, const char *root, int up, double vertical,
				     double *ground_drift)
{
	double worst = 0;
	float t0[3], r0[4], s0[3];

	*ground_drift = 0;
	assert_true(bone_at(in_place, root, 0, t0, r0, s0));
	assert_int_equal(motion->sequence_count, 1);
	assert_string_equal(animrt_clip_bone_name(motion, 0, NULL), root);
	for (int i = 0; i <= 500; i++) {
		float t = source->duration_s * (float)i / 500;

		for (uint32_t b = 0; b < source->sequence_count; b++) {
			const char *bone = animrt_clip_bone_name(source, b, NULL);
			float st[3], sr[4], ss[3], ct[3], cr[4], cs[3];
			double want[4], dot = 0;

			assert_true(bone_at(source, bone, t, st, sr, ss));
			assert_true(bone_at(in_place, bone, t, ct, cr, cs));
			if (strcmp(bone, root) == 0) {
				float mt[3], mr[4], ms[3];

				assert_true(bone_at(motion, bone, t, mt, mr, ms));
				assert_true(fabs(mt[up]) <= vertical);
				for (int k = 0; k < 3; k++) {
					ct[k] += mt[k];
					if (k != up)
						*ground_drift = fmax(*ground_drift, fabs(ct[k] - mt[k] - t0[k]));
				}
				quat_mul(mr, cr, want);
				for (int k = 0; k < 4; k++)
					cr[k] = (float)want[k];
			}
			for (int k = 0; k < 4; k++)
				dot += (double)sr[k] * cr[k];
			for (int k = 0; k < 3; k++)
				worst = fmax(worst, fmax(fabs(st[k] - ct[k]), fabs(ss[k] - cs[k])));
			for (int k = 0; k < 4; k++)
				worst = fmax(worst, fabs(sr[k] - (dot < 0 ? -cr[k] : cr[k])));
		}
	}
	return worst;
}

static double recompose_error(const animrt_clip *source, const animrt_clip *in_place, const animrt_clip *motion,
			      const char *root, int up, double *ground_drift)
{
	return recompose_error_within(source, in_place, motion, root, up, 0, ground_drift);
}

static void root_motion_recomposes_the_source(void **state)
{
	char *plain = test_tmpdir("rm-plain"), *out = test_tmpdir("rm-out"), *yaw = test_tmpdir("rm-yaw");
	static const char *const clips[] = { "Start", "Run", "Idle" };

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", plain, "testdata/authoring", NULL));
	test_run_ok(test_animc("build", "-q", "--root-motion", "Bone0", "-o", out, "testdata/authoring", NULL));
	test_run_ok(test_animc("build", "-q", "--root-motion", "Bone0,yaw", "-o", yaw, "testdata/authoring", NULL));
	/* Each clip and its motion beside it. */
	assert_int_equal(test_count_files(out), 6);
	for (int with_yaw = 0; with_yaw < 2; with_yaw++)
		for (size_t c = 0; c < 3; c++) {
			char *name = test_format("Walker/%s.xnb", clips[c]);
			char *mname = test_format("Walker/%s.motion.xnb", clips[c]);
			animrt_clip *source = open_xnb(plain, name), *in_place = open_xnb(with_yaw ? yaw : out, name);
			animrt_clip *motion = open_xnb(with_yaw ? yaw : out, mname);
			double drift, err = recompose_error(source, in_place, motion, "Bone0", 1, &drift);
			float mt[3], mr[4], ms[3];

			print_message("%s%s: max |motion + in place - source| = %.3g, in-place ground drift %.3g\n",
				      clips[c], with_yaw ? " (yaw)" : "", err, drift);
			assert_true(err <= 1e-5);
			assert_true(drift <= 1e-5);
			test_assert_near(motion->duration_s, source->duration_s, 0);
			/* The walk travels; yaw only with ,yaw. */
			assert_true(bone_at(motion, "Bone0", motion->duration_s, mt, mr, ms));
			if (c == 1) {
				assert_true(fabs(mt[0]) > 1);
				assert_true(with_yaw ? fabs(mr[1]) > 0.1 : mr[3] == 1);
			}
			animrt_close(source), animrt_close(in_place), animrt_close(motion);
			free(name), free(mname);
		}
	free(plain), free(out), free(yaw);
}

static void root_motion_of_an_unknown_bone_lists_the_bones(void **state)
{
	char *out = test_tmpdir("rm-unknown");
	test_run r = test_animc("build", "--root-motion", "Hips", "-o", out, WALKER, NULL);

	(void)state;
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "'Hips'"));
	assert_non_null(strstr(r.err, "'Bone0', 'Bone1'"));
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	r = test_animc("build", "--root-motion", "Hips,pitch", "-o", out, WALKER, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	r = test_animc("build", "--root-motion", "Bone0", "--up-axis", "w", "-o", out, WALKER, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	free(out);
}

/* A motion output has one bone, and the build's lines say so in the
 * singular, in the short and the -v form. */
static void motion_lines_say_one_bone(void **state)
{
	char *out = test_tmpdir("rm-lines");
	test_run r = test_animc("build", "-v", "--root-motion", "Bone0", "-o", out, WALKER, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ".motion.xnb (1 bone, "));
	assert_non_null(strstr(r.out, " s, 1 bone, "));
	assert_null(strstr(r.out, " 1 bones"));
	test_run_release(&r);
	free(out);
}

/* The corpus's CMU walk: Hips travels; in place it stays put. */
static void root_motion_of_a_mocap_walk(void **state)
{
	(void)state;
	TEST_NEEDS_CORPUS();
	char *src = test_format("%s/assimp/01_01.bvh", test_corpus_dir());
	char *plain = test_tmpdir("rm-bvh-plain"), *out = test_tmpdir("rm-bvh");
	char **files;
	test_run r;

	if (!test_file_exists(src)) {
		print_message("skipped: corpus not found (%s)\n", src);
		skip();
	}
	test_run_ok(test_animc("build", "-q", "-o", plain, src, NULL));
	r = test_animc("build", "-q", "--root-motion", "Hips,yaw", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	files = test_list_dir(test_format("%s/01_01", out), ".motion.xnb");
	assert_non_null(files[0]);
	{
		char *mname = test_format("01_01/%s", files[0]);
		char *name = test_format("01_01/%.*s.xnb", (int)(strlen(files[0]) - strlen(".motion.xnb")), files[0]);
		animrt_clip *source = open_xnb(plain, name), *in_place = open_xnb(out, name), *motion = open_xnb(out, mname);
		double drift, err = recompose_error(source, in_place, motion, "Hips", 1, &drift);
		float mt[3], mr[4], ms[3];

		assert_true(bone_at(motion, "Hips", motion->duration_s, mt, mr, ms));
		print_message("01_01.bvh: travel %.1f units; max |motion + in place - source| = %.3g (%.3g relative to "
			      "the travel), ground drift %.3g\n", hypot(mt[0], mt[2]), err, err / hypot(mt[0], mt[2]),
			      drift);
		assert_true(hypot(mt[0], mt[2]) > 10);
		assert_true(err <= 1e-5 * fmax(1, hypot(mt[0], mt[2])));
		animrt_close(source), animrt_close(in_place), animrt_close(motion);
		free(mname), free(name);
	}
	test_free_list(files);
	free(src), free(plain), free(out);
}

/* -------------------------------------------------------------- additive */

/* A rest pose written out: bone, translation, rotation, scale. */
typedef struct rest_bone {
	const char *bone;
	float t[3], r[4], s[3];
} rest_bone;

static const rest_bone *rest;   /* when set, the reference pose instead of a clip at 0 */
static size_t rest_count;

/* add(reference, additive) against the source over a fine grid. */
static double additive_error(const animrt_clip *source, const animrt_clip *additive, const animrt_clip *reference)
{
	uint32_t n = source->sequence_count;
	void *mr = malloc(animrt_pose_size_bytes(n)), *ml = malloc(animrt_pose_size_bytes(n));
	void *ms = malloc(animrt_pose_size_bytes(n));
	animrt_pose ref, layer, src;
	double worst = 0;

	assert_int_equal(additive->sequence_count, n);
	animrt_pose_init(&ref, mr, n);
	animrt_pose_init(&layer, ml, n);
	animrt_pose_init(&src, ms, n);
	for (int i = 0; i <= 400; i++) {
		float t = source->duration_s * (float)i / 400;

		/* The reference pose: the reference clip at 0, by bone. */
		for (uint32_t b = 0; b < n; b++) {
			float tr[3], rot[4], sc[3];

			if (rest) {
				size_t k = 0;

				while (k < rest_count && strcmp(rest[k].bone, animrt_clip_bone_name(source, b, NULL)))
					k++;
				assert_true(k < rest_count);
				memcpy(tr, rest[k].t, sizeof tr), memcpy(rot, rest[k].r, sizeof rot);
				memcpy(sc, rest[k].s, sizeof sc);
			} else {
				assert_true(bone_at(reference, animrt_clip_bone_name(source, b, NULL), 0, tr, rot, sc));
			}
			memcpy(ref.translation + 3 * b, tr, sizeof tr);
			memcpy(ref.rotation + 4 * b, rot, sizeof rot);
			memcpy(ref.scale + 3 * b, sc, sizeof sc);
			ref.tracks[b] = 7;
		}
		assert_int_equal(animrt_clip_sample(additive, t, ANIMRT_PLAY_ONCE, NULL, &layer), ANIMRT_OK);
		assert_int_equal(animrt_clip_sample(source, t, ANIMRT_PLAY_ONCE, NULL, &src), ANIMRT_OK);
		assert_int_equal(animrt_pose_add(&ref, &layer, NULL, 1, &ref), ANIMRT_OK);
		for (uint32_t b = 0; b < n; b++) {
			double dot = 0;

			for (int k = 0; k < 4; k++)
				dot += (double)ref.rotation[4 * b + k] * src.rotation[4 * b + k];
			for (int k = 0; k < 3; k++)
				worst = fmax(worst, fmax(fabs(ref.translation[3 * b + k] - src.translation[3 * b + k]),
							 fabs(ref.scale[3 * b + k] - src.scale[3 * b + k])));
			for (int k = 0; k < 4; k++)
				worst = fmax(worst, fabs(ref.rotation[4 * b + k] -
							 (dot < 0 ? -src.rotation[4 * b + k] : src.rotation[4 * b + k])));
		}
	}
	free(mr), free(ml), free(ms);
	return worst;
}

static void additive_clips_add_back_to_the_source(void **state)
{
	char *plain = test_tmpdir("add-plain"), *first = test_tmpdir("add-first"), *idle = test_tmpdir("add-idle");
	static const char *const clips[] = { "Start", "Run", "Idle" };
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", plain, "testdata/authoring", NULL));
	r = test_animc("build", "-v", "--additive-reference", "first-frame", "-o", first, "testdata/authoring", NULL);
	assert_int_equal(r.status, 0);
	/* The original layout has no mark: -v says it. */
	assert_non_null(strstr(r.out, "18 keys, additive (the difference from its first frame)"));
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "--additive-reference", "Idle", "-o", idle, "testdata/authoring", NULL));
	for (size_t c = 0; c < 3; c++) {
		char *name = test_format("Walker/%s.xnb", clips[c]);
		animrt_clip *source = open_xnb(plain, name), *a = open_xnb(first, name), *b = open_xnb(idle, name);
		animrt_clip *idle_clip = open_xnb(plain, "Walker/Idle.xnb");
		double e1 = additive_error(source, a, source), e2 = additive_error(source, b, idle_clip);

		print_message("%s: max |add(reference, additive) - source| = %.3g (first frame), %.3g (Idle)\n",
			      clips[c], e1, e2);
		assert_true(e1 <= 1e-5 && e2 <= 1e-5);
		animrt_close(source), animrt_close(a), animrt_close(b), animrt_close(idle_clip);
		free(name);
	}
	r = test_animc("build", "--additive-reference", "Jump", "-o", idle, WALKER, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "'Jump'"));
	test_run_release(&r);
	/* A source of one unnamed clip has no name to list: it says what to give. */
	r = test_animc("build", "-q", "--additive-reference", "Jump", "-o", idle, "testdata/golden/uniform.Animation",
		       NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "testdata/golden/uniform.Animation: error: --additive-reference: no clip 'Jump' "
				      "in this source, which is one unnamed clip: give --additive-reference "
				      "first-frame or bind\n"));
	assert_null(strstr(r.err, "''"));
	test_run_release(&r);
	/* --clip need not name the reference: Run alone, the difference from
	 * Idle, the same bytes as when every clip is written. */
	char *run_only = test_tmpdir("add-run-only");
	test_run_ok(test_animc("build", "-q", "--clip", "Run", "--additive-reference", "Idle", "-o", run_only,
			       "testdata/authoring", NULL));
	char *one = test_format("%s/Walker/Run.xnb", run_only), *all = test_format("%s/Walker/Run.xnb", idle);
	char *idle_out = test_format("%s/Walker/Idle.xnb", run_only);
	assert_true(test_same_bytes(one, all));
	assert_false(test_file_exists(idle_out));
	free(idle_out), free(all), free(one), free(run_only);
	r = test_animc("build", "--additive-reference", "bind", "-o", idle, WALKER, NULL);
	assert_int_equal(r.status, 2);   /* bind needs --skeleton */
	test_run_release(&r);
	free(plain), free(first), free(idle);
}

/* The report names what split a source, which clips are additive and which
 * files are root motion, and follows its schema. */
static void reports_say_parts_motion_and_additive(void **state)
{
	char *out = test_tmpdir("author-report"), *report = test_format("%s/report.json", out);
	test_run r, check;
	char *json;

	(void)state;
	r = test_animc("build", "-q", "--root-motion", "Bone0,yaw", "--additive-reference", "Idle", "--report", report,
		       "-o", out, "testdata/authoring", NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	assert_non_null(strstr(json, "\"split_by\": \"testdata/authoring/Walker_Anims.xml\""));
	assert_non_null(strstr(json, "\"additive_reference\": \"Idle\""));
	assert_non_null(strstr(json, "\"root_motion\": {\"bone\": \"Bone0\", \"yaw\": true}"));
	check = test_exec("python3", "scripts/check-reports", "lib/build/report.schema.json", report, NULL);
	if (check.status != 0)
		fail_msg("check-reports: %s%s", check.out, check.err);
	test_run_release(&check);
	free(json), free(report), free(out);
}

/* The compact layout marks an additive clip, dump shows it, and it adds
 * back within the layout's tolerance; with --tolerance the original layout
 * stays within its bounds too. */
static void additive_compact_is_marked(void **state)
{
	char *plain = test_tmpdir("addc-plain"), *out = test_tmpdir("addc"), *lossy = test_tmpdir("addc-lossy");
	animrt_clip *source, *a, *marked;
	test_run r;
	double err;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", plain, "testdata/authoring", NULL));
	r = test_animc("build", "-q", "--layout", "compact", "--additive-reference", "first-frame", "--root-motion",
		       "Bone0,yaw", "-o", out, "testdata/authoring", NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("dump", test_format("%s/Walker/Run.xnb", out), NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\nadditive: "));
	test_run_release(&r);
	/* The motion file is no additive clip. */
	r = test_animc("dump", test_format("%s/Walker/Run.motion.xnb", out), NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "\nadditive: "));
	test_run_release(&r);
	marked = open_xnb(out, "Walker/Run.xnb");
	assert_true(marked->is_additive);
	animrt_close(marked);
	/* Without root motion, the layer adds back within the tolerance. */
	test_run_ok(test_animc("build", "-q", "--tolerance", "default", "--additive-reference", "first-frame", "-o",
			       lossy, "testdata/authoring", NULL));
	source = open_xnb(plain, "Walker/Run.xnb");
	a = open_xnb(lossy, "Walker/Run.xnb");
	assert_false(a->is_additive);   /* the original layout has no mark */
	err = additive_error(source, a, source);
	print_message("Run, --tolerance default: max |add(reference, additive) - source| = %.3g\n", err);
	assert_true(err <= 2e-3);
	animrt_close(source), animrt_close(a);
	free(plain), free(out), free(lossy);
}

/* A 120 Hz motion capture take (BVH, written here): `frames` frames of a
 * root that walks and a spine that sways; `turning`, a root that also
 * turns about the up axis at 90 degrees a second, tilting as it goes. */
static char *write_mocap(const char *dir, int frames, bool turning)
{
	char *path = test_format("%s/%s.bvh", dir, turning ? "turn" : "walk");
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition "
		   "Zrotation Xrotation Yrotation\n\tJOINT Spine\n\t{\n\t\tOFFSET 0 10 0\n\t\tCHANNELS 3 "
		   "Zrotation Xrotation Yrotation\n\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 10 0\n\t\t}\n\t}\n}\n"
		   "MOTION\nFrames: %d\nFrame Time: 0.008333\n", frames);
	for (int i = 0; i < frames; i++) {
		double t = i / 120.0;

		fprintf(f, "%.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f\n", 100 * t, 90 + 2 * sin(9 * t),
			3 * sin(4 * t), turning ? 30 * sin(9 * t) : 5 * sin(3 * t),
			turning ? 25 * cos(7 * t) : 2 * sin(5 * t), turning ? 90 * t + 20 * sin(11 * t) : 20 * t,
			10 * sin(6 * t), 4 * sin(2 * t), 3 * cos(7 * t));
	}
	assert_int_equal(fclose(f), 0);
	return path;
}

/* --root-motion's default up axis turns with the model: a Y-up walk (BVH,
 * Hips travelling along x, bobbing in y, swaying in z) turned by --rotate
 * 90,0,0 is Z up, its bob now in z, its sway in -y.  The in-place clip
 * keeps Hips' x and y and its bob; the motion takes the travel and the
 * sway, and no bob.  (The default stayed y, the turned model's ground: the
 * clip kept its sway and the motion got the bob.)  A .mgcb item's
 * RotationX is the same turn; a turn that leaves the up axis off every axis
 * fails, asking for --up-axis, and one about the up axis keeps it. */
static void root_motion_up_axis_turns_with_the_model(void **state)
{
	char *dir = test_tmpdir("rm-rotate"), *src = write_mocap(dir, 240, false);
	char *out = test_format("%s/out", dir), *item = test_format("%s/item", dir), *odd = test_format("%s/odd", dir);
	char *project = test_format("%s/walk.mgcb", dir);
	const char *mgcb = "#begin walk.bvh\n/importer:OpenAssetImporter\n/processor:SkinnedModelProcessor\n"
			   "/processorParam:RotationX=90\n/build:walk.bvh\n";
	animrt_clip *in_place, *motion;
	double bob = 0, sway = 0;
	float t0[3], r[4], sc[3];
	test_run r1;

	(void)state;
	r1 = test_animc("build", "-q", "--rotate", "90,0,0", "--root-motion", "Hips", "-o", out, src, NULL);
	if (r1.status != 0)
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	in_place = open_xnb(out, "walk/Motion.xnb");
	motion = open_xnb(out, "walk/Motion.motion.xnb");
	assert_true(bone_at(in_place, "Hips", 0, t0, r, sc));
	for (int i = 0; i <= 200; i++) {
		float t = (float)(in_place->duration_s * i / 200), p[3], m[3];

		assert_true(bone_at(in_place, "Hips", t, p, r, sc));
		assert_true(bone_at(motion, "Hips", t, m, r, sc));
		test_assert_near(p[0], t0[0], 1e-4);
		test_assert_near(p[1], t0[1], 1e-4);
		test_assert_near(m[2], 0, 0);
		bob = fmax(bob, fabs(p[2] - t0[2]));
		sway = fmax(sway, fabs(m[1]));
		if (i == 200)
			test_assert_near(m[0], 100 * (in_place->duration_s), 1);
	}
	print_message("--rotate 90,0,0: the in-place clip bobs %.3f in z, the motion sways %.3f in y\n", bob, sway);
	assert_true(bob > 1.5 && sway > 2);
	animrt_close(in_place), animrt_close(motion);
	/* The item's RotationX=90 is --rotate 90,0,0. */
	assert_true(test_write_file(project, mgcb, strlen(mgcb)));
	r1 = test_animc("build", "-q", "--mgcb", project, "--root-motion", "Hips", "-o", item, NULL);
	if (r1.status != 0)
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	assert_true(test_same_bytes(test_format("%s/walk/Motion.xnb", out), test_format("%s/walk/Motion.xnb", item)));
	assert_true(test_same_bytes(test_format("%s/walk/Motion.motion.xnb", out),
				    test_format("%s/walk/Motion.motion.xnb", item)));
	/* 30 degrees about x: y goes to (0, 0.866, 0.5), no axis. */
	r1 = test_animc("build", "-q", "--rotate", "30,0,0", "--root-motion", "Hips", "-o", odd, src, NULL);
	assert_int_equal(r1.status, 1);
	if (!strstr(r1.err, "walk.bvh: error: --root-motion: ") || !strstr(r1.err, "give --up-axis x|y|z"))
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	assert_false(test_file_exists(test_format("%s/walk/Motion.xnb", odd)));
	r1 = test_animc("build", "-q", "--rotate", "30,0,0", "--root-motion", "Hips", "--up-axis", "z", "-o", odd, src,
			NULL);
	assert_int_equal(r1.status, 0);
	test_run_release(&r1);
	/* 45 degrees about y, the up axis, leaves it up. */
	r1 = test_animc("build", "-q", "--rotate", "0,45,0", "--root-motion", "Hips", "-o", odd, src, NULL);
	assert_int_equal(r1.status, 0);
	test_run_release(&r1);
	motion = open_xnb(odd, "walk/Motion.motion.xnb");
	assert_true(bone_at(motion, "Hips", motion->duration_s / 3, t0, r, sc));
	test_assert_near(t0[1], 0, 0);
	animrt_close(motion);
	free(project), free(odd), free(item), free(out), free(src), free(dir);
}

/* A glTF rig whose Hips hangs under an Armature node turned -90 degrees
 * about x, scaled 0.01 (Blender's and Mixamo's export): Hips' keys are in
 * the Armature's frame, where the model's up, y, is z.  Hips walks along
 * its -y (the model's forward) and bobs along its z.  The motion took the
 * bob and the clip kept the walk, silently.  Turned 30 degrees instead,
 * no axis of that frame is up: the source fails, asking for --up-axis. */
static void root_motion_ground_is_the_models_under_a_turned_parent(void **state)
{
	static const float keys[] = { 0, 0.5f, 1, 0, 0, 100, 0, -100, 105, 0, -200, 100 };
	char *dir = test_tmpdir("rm-armature"), *bin = test_format("%s/walk.bin", dir);
	char *gltf = test_format("%s/rig.gltf", dir), *out = test_format("%s/out", dir);
	const char *turns[] = { "-0.70710678, 0, 0, 0.70710678", "0.25881905, 0, 0, 0.96592583" };
	float p[3], m[3], r[4], sc[3];
	test_run r1;

	(void)state;
	assert_true(test_write_file(bin, keys, sizeof keys));
	for (int i = 0; i < 2; i++) {
		char *doc = test_format(
			"{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],\n"
			" \"nodes\": [{\"name\": \"Armature\", \"children\": [1], \"rotation\": [%s],\n"
			"             \"scale\": [0.01, 0.01, 0.01]}, {\"name\": \"Hips\", \"translation\": [0, 0, 100]}],\n"
			" \"buffers\": [{\"uri\": \"walk.bin\", \"byteLength\": 48}],\n"
			" \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 12}, {\"buffer\": 0, \"byteOffset\": 12, "
			"\"byteLength\": 36}],\n"
			" \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\",\n"
			"                \"min\": [0], \"max\": [1]},\n"
			"               {\"bufferView\": 1, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"}],\n"
			" \"animations\": [{\"name\": \"Walk\", \"samplers\": [{\"input\": 0, \"output\": 1}],\n"
			"                 \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": "
			"\"translation\"}}]}]}\n",
			turns[i]);

		assert_true(test_write_file(gltf, doc, strlen(doc)));
		free(doc);
		r1 = test_animc("build", "-q", "--root-motion", "Hips", "-o", out, gltf, NULL);
		if (i == 1) {
			assert_int_equal(r1.status, 1);
			if (!strstr(r1.err, "rig.gltf: error: --root-motion: the model's up axis, y, is (0, 0.866, "
					    "-0.5) in the frame of the parent of 'Hips'") ||
			    !strstr(r1.err, "give --up-axis x|y|z"))
				fail_msg("%s", r1.err);
			test_run_release(&r1);
			break;
		}
		if (r1.status != 0)
			fail_msg("%s", r1.err);
		test_run_release(&r1);
		animrt_clip *clip = open_xnb(out, "rig/Walk.xnb"), *motion = open_xnb(out, "rig/Walk.motion.xnb");

		for (int k = 0; k < 3; k++) {
			assert_true(bone_at(clip, "Hips", keys[k], p, r, sc));
			assert_true(bone_at(motion, "Hips", keys[k], m, r, sc));
			/* In place over the Armature's ground (x, y), its bob kept. */
			test_assert_near(p[0], 0, 1e-4);
			test_assert_near(p[1], 0, 1e-4);
			test_assert_near(p[2], keys[5 + 3 * k], 1e-4);
			test_assert_near(m[0], 0, 1e-4);
			test_assert_near(m[1], keys[4 + 3 * k], 1e-4);
			test_assert_near(m[2], 0, 0);
		}
		animrt_close(clip), animrt_close(motion);
	}
	free(out), free(gltf), free(bin), free(dir);
}

#define RM_FRAME_ANIM(node) \
		" \"buffers\": [{\"uri\": \"walk.bin\", \"byteLength\": 48}],\n" \
		" \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 12}, {\"buffer\": 0, \"byteOffset\": 12, " \
		"\"byteLength\": 36}],\n" \
		" \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\",\n" \
		"                \"min\": [0], \"max\": [1]},\n" \
		"               {\"bufferView\": 1, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"}],\n" \
		" \"animations\": [{\"name\": \"Walk\", \"samplers\": [{\"input\": 0, \"output\": 1}],\n" \
		"                 \"channels\": [{\"sampler\": 0, \"target\": {\"node\": " node ", \"path\": " \
		"\"translation\"}}]}]}\n"

/* The same walk exported without its Armature (Hips at the root of the
 * clip's tree), built against the model that has it: the model's parents
 * decide, as the clip plays on the model; the ground was the clip's own y.
 * And a source whose tree does not load (a sheared node beside the rig)
 * says that it cannot turn the up axis; it was silent. */
static void root_motion_frame_of_the_model_and_of_a_tree_not_read(void **state)
{
	static const float keys[] = { 0, 0.5f, 1, 0, 0, 100, 0, -100, 105, 0, -200, 100 };
	static const char head[] = "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, ";
	static const char armature[] = "{\"name\": \"Armature\", \"children\": [1], "
				       "\"rotation\": [-0.70710678, 0, 0, 0.70710678], \"scale\": [0.01, 0.01, 0.01]}";
	char *dir = test_tmpdir("rm-frames"), *bin = test_format("%s/walk.bin", dir);
	char *model = test_format("%s/model.gltf", dir), *clip = test_format("%s/clip.gltf", dir);
	char *sheared = test_format("%s/sheared.gltf", dir), *out = test_format("%s/out", dir);
	char *model_doc = test_format("%s\"scenes\": [{\"nodes\": [0]}], \"nodes\": [%s, {\"name\": \"Hips\", "
				      "\"translation\": [0, 0, 100]}]}\n", head, armature);
	char *clip_doc = test_format("%s\"scenes\": [{\"nodes\": [0]}], \"nodes\": [{\"name\": \"Hips\"}],\n%s",
				     head, RM_FRAME_ANIM("0"));
	char *sheared_doc = test_format("%s\"scenes\": [{\"nodes\": [0, 2]}], \"nodes\": [%s, {\"name\": \"Hips\"}, "
					"{\"name\": \"Light\", \"matrix\": [1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, "
					"0, 0, 0, 1]}],\n%s", head, armature, RM_FRAME_ANIM("1"));
	float p[3], m[3], r[4], sc[3];
	test_run r1;

	(void)state;
	assert_true(test_write_file(bin, keys, sizeof keys));
	assert_true(test_write_file(model, model_doc, strlen(model_doc)));
	assert_true(test_write_file(clip, clip_doc, strlen(clip_doc)));
	assert_true(test_write_file(sheared, sheared_doc, strlen(sheared_doc)));
	r1 = test_animc("build", "-q", "--skeleton", model, "--root-motion", "Hips", "-o", out, clip, NULL);
	if (r1.status != 0)
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	animrt_clip *in_place = open_xnb(out, "clip/Walk.xnb"), *motion = open_xnb(out, "clip/Walk.motion.xnb");

	assert_true(bone_at(in_place, "Hips", 1, p, r, sc));
	assert_true(bone_at(motion, "Hips", 1, m, r, sc));
	test_assert_near(m[1], -200, 1e-4);
	test_assert_near(m[2], 0, 0);
	test_assert_near(p[2], 100, 1e-4);
	animrt_close(in_place), animrt_close(motion);
	r1 = test_animc("build", "-q", "--root-motion", "Hips", "-o", out, sheared, NULL);
	assert_int_equal(r1.status, 0);
	if (!strstr(r1.err, "sheared.gltf: warning: --root-motion: the source's node tree cannot be read (nodes[2]: ") ||
	    !strstr(r1.err, "give --up-axis if that is wrong [root-motion-frame]"))
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	/* The Armature picked for the hips: a node, but no clip animates it. */
	r1 = test_animc("build", "-q", "--root-motion", "Armature", "--up-axis", "z", "-o", out, clip, NULL);
	assert_int_equal(r1.status, 1);
	if (!strstr(r1.err, "clip.gltf: error: clip 'Walk': --root-motion: no bone 'Armature'; the clip's bones are: "
			    "'Hips'"))
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	free(sheared_doc), free(clip_doc), free(model_doc);
	free(out), free(sheared), free(clip), free(model), free(bin), free(dir);
}

/* A game that loops a clip adds the motion at its end once per loop.  In
 * the compact layout the end keys were off by up to the bound, and the
 * error grew with every loop (13 degrees after 1000 loops of a walk).  The
 * motion file is written in the original layout, reduced, whose end keys
 * are the lossless file's; the clip stays compact. */
static void a_compact_builds_motion_ends_as_the_lossless_one(void **state)
{
	char *dir = test_tmpdir("rm-compact-ends"), *exact = test_format("%s/exact", dir);
	char *packed = test_format("%s/packed", dir);
	const char *clip_name = "Walker/Run.xnb", *motion_name = "Walker/Run.motion.xnb";
	float t0[3], r0[4], s0[3], t1[3], r1[4], s1[3];
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--root-motion", "Bone0,yaw", "-o", exact, WALKER, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--layout", "compact", "--root-motion", "Bone0,yaw", "-o", packed, WALKER, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	animrt_clip *clip = open_xnb(packed, clip_name), *lossless = open_xnb(exact, motion_name);
	animrt_clip *motion = open_xnb(packed, motion_name);

	assert_int_equal(clip->container.reader_version, 3);
	assert_int_equal(motion->container.reader_version, 0);
	for (int end = 0; end < 2; end++) {
		assert_true(bone_at(lossless, "Bone0", end ? lossless->duration_s : 0, t0, r0, s0));
		assert_true(bone_at(motion, "Bone0", end ? motion->duration_s : 0, t1, r1, s1));
		for (int k = 0; k < 4; k++) {
			if (k < 3)
				test_assert_near(t1[k], t0[k], 1e-6);
			test_assert_near(r1[k], r0[k], 1e-7);
		}
	}
	animrt_close(clip), animrt_close(lossless), animrt_close(motion);
	free(packed), free(exact), free(dir);
}

/* Hips keyed -30, 0, 30 and --scale 1e37: the keys fit a float, the travel
 * from the first frame (6e38) does not.  The motion failed validation,
 * blaming the source's key, and the clip was written in place without it:
 * a character that no longer moves.  Now neither, naming --root-motion. */
static void a_root_motion_past_float_fails_its_clip(void **state)
{
	static const float keys[] = { 0, 0.5f, 1, -30, 0, 0, 0, 0, 0, 30, 0, 0 };
	static const char doc[] =
		"{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],\n"
		" \"nodes\": [{\"name\": \"Hips\"}], \"buffers\": [{\"uri\": \"w.bin\", \"byteLength\": 48}],\n"
		" \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 12}, {\"buffer\": 0, \"byteOffset\": 12, "
		"\"byteLength\": 36}],\n"
		" \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\",\n"
		"                \"min\": [0], \"max\": [1]},\n"
		"               {\"bufferView\": 1, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"}],\n"
		" \"animations\": [{\"name\": \"W\", \"samplers\": [{\"input\": 0, \"output\": 1}],\n"
		"                 \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"translation\"}}]}]}\n";
	char *dir = test_tmpdir("rm-overflow"), *bin = test_format("%s/w.bin", dir);
	char *gltf = test_format("%s/w.gltf", dir), *out = test_format("%s/out", dir);
	char *plain = test_format("%s/plain", dir);
	test_run r;

	(void)state;
	assert_true(test_write_file(bin, keys, sizeof keys));
	assert_true(test_write_file(gltf, doc, strlen(doc)));
	test_run_ok(test_animc("build", "-q", "--scale", "1e37", "-o", plain, gltf, NULL));
	r = test_animc("build", "-q", "--scale", "1e37", "--root-motion", "Hips", "-o", out, gltf, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "w.gltf: error: clip 'W': --root-motion: bone 'Hips' travels from its first frame "
			   "farther than a float holds"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);
	free(plain), free(out), free(gltf), free(bin), free(dir);
}

/* An empty <originalClipName> names a source's one take, as --split
 * without TAKE/ does: an unnamed glTF animation (the importer names it
 * clip0) failed with "no take ''". */
static void an_empty_take_name_cuts_the_one_take(void **state)
{
	static const float keys[] = { 0, 0.5f, 1, 0, 0, 0, 1, 0, 0, 2, 0, 0 };
	static const char doc[] =
		"{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],\n"
		" \"nodes\": [{\"name\": \"Hips\"}], \"buffers\": [{\"uri\": \"u.bin\", \"byteLength\": 48}],\n"
		" \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 12}, {\"buffer\": 0, \"byteOffset\": 12, "
		"\"byteLength\": 36}],\n"
		" \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\",\n"
		"                \"min\": [0], \"max\": [1]},\n"
		"               {\"bufferView\": 1, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"}],\n"
		" \"animations\": [{\"samplers\": [{\"input\": 0, \"output\": 1}],\n"
		"                 \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"translation\"}}]}]}\n";
	static const char sidecar[] =
		"<XnaContent xmlns:P=\"X\"><Asset Type=\"P:AnimationDefinition\"><originalClipName></originalClipName>"
		"<originalFrameCount>2</originalFrameCount>\n<ClipParts><Item><ClipName>A</ClipName><StartFrame>0"
		"</StartFrame><EndFrame>1</EndFrame></Item></ClipParts></Asset></XnaContent>\n";
	char *dir = test_tmpdir("empty-take"), *art = test_format("%s/art", dir);
	char *bin = test_format("%s/u.bin", art), *gltf = test_format("%s/u.gltf", art);
	char *anims = test_format("%s/u_Anims.xml", art), *split = test_format("%s/split", dir);
	char *out = test_format("%s/out", dir), *a = test_format("%s/u/A.xnb", out), *b = test_format("%s/u/A.xnb", split);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(art, 0777), 0);
	assert_true(test_write_file(bin, keys, sizeof keys));
	assert_true(test_write_file(gltf, doc, strlen(doc)));
	test_run_ok(test_animc("build", "-q", "--split", "A=0:0.5", "-o", split, gltf, NULL));
	assert_true(test_write_file(anims, sidecar, strlen(sidecar)));
	r = test_animc("build", "-q", "-o", out, art, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_same_bytes(a, b));
	free(b), free(a), free(out), free(split), free(anims), free(gltf), free(bin), free(art), free(dir);
}

/* A part of a RobotGame take is Z up as its take is: its root motion is
 * the take's travel in x and y from START, its height stays in the clip
 * (parts were taken for Y up: the height went into the motion).  START
 * and END, 1 s and 3 s, are keys 30 and 90, at 30 and 90 * 0.033333 s
 * (keys meant at 1/30 s). */
static void root_motion_of_a_robotgame_part_is_z_up(void **state)
{
	char *whole = test_tmpdir("rm-rg-whole"), *part = test_tmpdir("rm-rg-part");
	animrt_clip *take_motion, *motion, *in_place;
	double travel_y = 0;
	float m0[3], r[4], sc[3], start = (float)(30 * (double)0.033333f);
	test_run r1;

	(void)state;
	r1 = test_animc("build", "-q", "--root-motion", "Root", "-o", whole, "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r1.status, 0);
	test_run_release(&r1);
	r1 = test_animc("build", "-q", "--split", "A=1:3", "--root-motion", "Root", "-o", part,
			"testdata/compact/sway.Animation", NULL);
	if (r1.status != 0)
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	take_motion = open_xnb(whole, "sway.motion.xnb");
	motion = open_xnb(part, "sway/A.motion.xnb");
	in_place = open_xnb(part, "sway/A.xnb");
	assert_true(bone_at(take_motion, "Root", start, m0, r, sc));
	for (int i = 0; i <= 100; i++) {
		float t = motion->duration_s * (float)i / 100, m[3], w[3], p[3], p0[3];

		assert_true(bone_at(motion, "Root", t, m, r, sc));
		assert_true(bone_at(take_motion, "Root", start + t, w, r, sc));
		assert_true(bone_at(in_place, "Root", 0, p0, r, sc));
		assert_true(bone_at(in_place, "Root", t, p, r, sc));
		test_assert_near(m[2], 0, 0);
		test_assert_near(m[0], w[0] - m0[0], 1e-4);
		test_assert_near(m[1], w[1] - m0[1], 1e-4);
		test_assert_near(p[0], p0[0], 1e-4);
		test_assert_near(p[1], p0[1], 1e-4);
		travel_y = fmax(travel_y, fabs(m[1]));
	}
	assert_true(travel_y > 0.03);
	animrt_close(take_motion), animrt_close(motion), animrt_close(in_place);
	free(whole), free(part);
}

/* A RobotGame character is one clip a file, its upper-body clips apart
 * from its walks: --root-motion over the folder with the character's
 * model (--skeleton) plays an upper-body clip in place with a motion of
 * none (each failed, even with the model: the rule looked at the clip's
 * own source alone).  Without the model such a clip fails, saying how to
 * keep it; so does a bone the model does not have (a typo).  A source's
 * outputs never depend on the build's other sources. */
static void root_motion_of_a_layer_beside_the_walks_takes_the_model(void **state)
{
	static const char up[] =
		"<?xml version=\"1.0\" ?>\n<AnimationSequence>\n  <KeyFrameSequenceCount>1</KeyFrameSequenceCount>\n"
		"  <Duration>1.000000</Duration>\n  <KeyFrameSequences>\n    <KeyFrameSequence>\n"
		"      <BoneName>Arm</BoneName>\n      <KeyCount>2</KeyCount>\n      <Duration>1.000000</Duration>\n"
		"      <KeyInterval>1.000000</KeyInterval>\n      <HasTranslation>false</HasTranslation>\n"
		"      <HasRotation>true</HasRotation>\n      <HasScale>false</HasScale>\n      <HasTime>false</HasTime>\n"
		"      <FixedTranslation>false</FixedTranslation>\n      <FixedRotation>false</FixedRotation>\n"
		"      <FixedScale>false</FixedScale>\n      <Rotation>\n"
		"        <Quaternion><X>0</X><Y>0</Y><Z>0</Z><W>1</W></Quaternion>\n"
		"        <Quaternion><X>0</X><Y>0.707107</Y><Z>0</Z><W>0.707107</W></Quaternion>\n"
		"      </Rotation>\n    </KeyFrameSequence>\n  </KeyFrameSequences>\n</AnimationSequence>\n";
	static const char model[] = "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], "
				    "\"nodes\": [{\"name\": \"Root\", \"children\": [1]}, {\"name\": \"Arm\"}]}";
	char *dir = test_tmpdir("rm-layers"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *alone = test_format("%s/alone", dir), *gltf = test_format("%s/model.gltf", dir);
	char *up_src = test_format("%s/Up_Aim.Animation", src);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(src, 0755), 0);
	copy_file("testdata/golden/uniform.Animation", test_format("%s/Low_Walk.Animation", src));
	assert_true(test_write_file(up_src, up, strlen(up)));
	assert_true(test_write_file(gltf, model, strlen(model)));
	r = test_animc("build", "-q", "--root-motion", "Root", "-o", test_format("%s/bare", dir), src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Up_Aim.Animation:2: error: --root-motion: no bone 'Root'; the clip's bones "
				      "are: 'Arm' (a clip without it, as an upper-body layer, plays in place when "
				      "--skeleton gives a model that has it)"));
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/bare/Low_Walk.motion.xnb", dir)));
	assert_false(test_file_exists(test_format("%s/bare/Up_Aim.xnb", dir)));
	r = test_animc("build", "-v", "--skeleton", gltf, "--root-motion", "Root", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	if (!strstr(r.err, "Up_Aim.Animation:2: note: --root-motion: animates no bone 'Root': it plays in place, and its "
			   "motion file holds no motion"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	animrt_clip *motion = open_xnb(out, "Up_Aim.motion.xnb");
	assert_int_equal(motion->sequence_count, 1);
	assert_string_equal(motion->sequences[0].bone, "Root");
	animrt_close(motion);
	assert_true(test_file_exists(test_format("%s/Up_Aim.xnb", out)));
	assert_true(test_file_exists(test_format("%s/Low_Walk.motion.xnb", out)));

	/* Alone, the bone is known by the --skeleton model, or by nothing. */
	r = test_animc("build", "-q", "--root-motion", "Root", "-o", alone, up_src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "--root-motion: no bone 'Root'; the clip's bones are: 'Arm'"));
	test_run_release(&r);
	r = test_animc("build", "-q", "--skeleton", gltf, "--root-motion", "Root", "-o", alone, up_src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Up_Aim.motion.xnb", alone)));

	/* A bone neither the sources nor the model have: a typo, each fails. */
	r = test_animc("build", "-q", "--skeleton", gltf, "--root-motion", "Roott", "-o", test_format("%s/typo", dir),
		       src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "0 sources (0 clips), 2 failed"));
	test_run_release(&r);
	free(dir), free(src), free(out), free(alone), free(gltf), free(up_src);
}

/* --exact writes a RobotGame sequence's original bytes, which a cut
 * changes: --split, --clips and a sidecar fail the source as --root-motion
 * does, writing nothing (parts were written, normalised, exit 0). */
static void exact_and_a_cut_of_a_robotgame_sequence_fail(void **state)
{
	char *dir = test_tmpdir("exact-cut"), *src = test_format("%s/Sway.Animation", dir);
	char *sidecar = test_format("%s/Sway_Anims.xml", dir), *doc = test_format("%s/parts.xml", dir);
	char *out = test_format("%s/out", dir);
	const char *parts = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<XnaContent>\n"
			    "  <Asset Type=\"AnimationClassLibrary.AnimationDefinition\">\n"
			    "    <originalClipName></originalClipName>\n    <originalFrameCount>150</originalFrameCount>\n"
			    "    <ClipParts>\n      <Item>\n        <StartFrame>15</StartFrame>\n"
			    "        <EndFrame>16</EndFrame>\n        <ClipName>A</ClipName>\n      </Item>\n"
			    "    </ClipParts>\n  </Asset>\n</XnaContent>\n";
	test_run r;

	(void)state;
	copy_file("testdata/compact/sway.Animation", src);
	assert_true(test_write_file(doc, parts, strlen(parts)));
	r = test_animc("build", "-q", "--exact", "--split", "A=0.5:0.51", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "Sway.Animation:3: error: --exact writes the original pipeline's bytes for this RobotGame "
			   "sequence, and --split changes them: leave out one or the other"))
		fail_msg("%s", r.err);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--exact", "--clips", doc, "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "and --clips changes them"))
		fail_msg("%s", r.err);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	/* The sidecar beside it, in a folder build: that source fails too. */
	copy_file(doc, sidecar);
	assert_int_equal(unlink(doc), 0);
	r = test_animc("build", "-q", "--exact", "-o", out, dir, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "and its sidecar Sway_Anims.xml changes them"))
		fail_msg("%s", r.err);
	assert_int_equal(test_count_files(out), 0);
	test_run_release(&r);
	/* Without --exact the sidecar cuts it. */
	r = test_animc("build", "-q", "-o", out, dir, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	assert_true(test_file_exists(test_format("%s/Sway/A.xnb", out)));
	test_run_release(&r);
	free(out), free(doc), free(sidecar), free(src), free(dir);
}

static void write_two_roots(const char *path)
{
	static const char head[] = "<?xml version=\"1.0\" ?>\n<AnimationSequence>\n"
				   "  <KeyFrameSequenceCount>2</KeyFrameSequenceCount>\n  <Duration>1</Duration>\n"
				   "  <KeyFrameSequences>\n";
	static const char seq[] = "    <KeyFrameSequence>\n      <BoneName>Root</BoneName>\n"
				  "      <KeyCount>3</KeyCount>\n      <Duration>1</Duration>\n"
				  "      <KeyInterval>0.5</KeyInterval>\n      <HasTranslation>true</HasTranslation>\n"
				  "      <HasRotation>false</HasRotation>\n      <HasScale>false</HasScale>\n"
				  "      <HasTime>false</HasTime>\n      <FixedTranslation>false</FixedTranslation>\n"
				  "      <FixedRotation>false</FixedRotation>\n      <FixedScale>false</FixedScale>\n"
				  "      <Translation>\n"
				  "        <Vector3><X>0</X><Y>0</Y><Z>1</Z></Vector3>\n"
				  "        <Vector3><X>%d</X><Y>1</Y><Z>2</Z></Vector3>\n"
				  "        <Vector3><X>%d</X><Y>2</Y><Z>1</Z></Vector3>\n"
				  "      </Translation>\n    </KeyFrameSequence>\n";
	char *first = test_format(seq, 1, 2), *last = test_format(seq, 3, 6);
	char *text = test_format("%s%s%s  </KeyFrameSequences>\n</AnimationSequence>\n", head, first, last);

	assert_true(test_write_file(path, text, strlen(text)));
	free(text), free(first), free(last);
}

/* Two sequences named as the --root-motion bone (bone-name-clash): both
 * are put in place, and the motion is the last one's, which the runtime
 * plays (the first was taken out, the last left travelling: a game
 * played the travel twice). */
static void root_motion_of_a_bone_named_twice_is_the_last_ones(void **state)
{
	char *dir = test_tmpdir("rm-two-roots"), *src = test_format("%s/Two.Animation", dir);
	char *out = test_format("%s/out", dir);
	animrt_clip *clip, *motion;
	float t[3], r[4], sc[3];
	test_run r1;

	(void)state;
	write_two_roots(src);
	r1 = test_animc("build", "-q", "--root-motion", "Root", "-o", out, src, NULL);
	if (r1.status != 0)
		fail_msg("%s", r1.err);
	test_run_release(&r1);
	clip = open_xnb(out, "Two.xnb");
	motion = open_xnb(out, "Two.motion.xnb");
	assert_int_equal(clip->sequence_count, 2);
	for (uint32_t s = 0; s < 2; s++)
		for (int i = 0; i <= 10; i++) {
			animrt_sequence_sample(&clip->sequences[s], 0.1f * (float)i, ANIMRT_PLAY_ONCE, NULL, t, r, sc);
			test_assert_near(t[0], 0, 0);
			test_assert_near(t[1], 0, 0);
			test_assert_near(t[2], 1 + (i < 5 ? i : 10 - i) / 5.0, 1e-6);
		}
	assert_true(bone_at(motion, "Root", 1, t, r, sc));
	test_assert_near(t[0], 6, 1e-6);
	test_assert_near(t[1], 2, 1e-6);
	test_assert_near(t[2], 0, 0);
	animrt_close(clip), animrt_close(motion);
	free(out), free(src), free(dir);
}

/* A short RobotGame take, five keys 0.033333 s apart, Duration 0.133333:
 * frame 4 at the rounded rate, 30, is 0.1333333 s, 3e-7 past the Duration
 * as written.  It is the last key: --split 1f:4f and 0.0333333:0.1333333
 * cut what the sidecar saying the same cuts (both were refused as past
 * the end of the take). */
static void a_part_ending_at_the_last_key_of_a_short_take(void **state)
{
	char *dir = test_tmpdir("split-last-key"), *src = test_format("%s/Short.Animation", dir);
	char *doc = test_format("%s/parts.xml", dir);
	static const char keys[] = "        <Vector3><X>0</X><Y>0</Y><Z>0</Z></Vector3>\n"
				   "        <Vector3><X>1</X><Y>0</Y><Z>0</Z></Vector3>\n"
				   "        <Vector3><X>3</X><Y>0</Y><Z>0</Z></Vector3>\n"
				   "        <Vector3><X>6</X><Y>0</Y><Z>0</Z></Vector3>\n"
				   "        <Vector3><X>10</X><Y>0</Y><Z>0</Z></Vector3>\n";
	const char *parts = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<XnaContent>\n"
			    "  <Asset Type=\"AnimationClassLibrary.AnimationDefinition\">\n"
			    "    <originalClipName></originalClipName>\n    <originalFrameCount>4</originalFrameCount>\n"
			    "    <ClipParts>\n      <Item>\n        <StartFrame>1</StartFrame>\n"
			    "        <EndFrame>4</EndFrame>\n        <ClipName>X</ClipName>\n      </Item>\n"
			    "    </ClipParts>\n  </Asset>\n</XnaContent>\n";
	static const char *const spellings[] = { "X=1f:4f", "X=0.0333333:0.1333333" };
	char *text = test_format("<?xml version=\"1.0\" ?>\n<AnimationSequence>\n"
				 "  <KeyFrameSequenceCount>1</KeyFrameSequenceCount>\n  <Duration>0.133333</Duration>\n"
				 "  <KeyFrameSequences>\n    <KeyFrameSequence>\n      <BoneName>Root</BoneName>\n"
				 "      <KeyCount>5</KeyCount>\n      <Duration>0.133333</Duration>\n"
				 "      <KeyInterval>0.033333</KeyInterval>\n      <HasTranslation>true</HasTranslation>\n"
				 "      <HasRotation>false</HasRotation>\n      <HasScale>false</HasScale>\n"
				 "      <HasTime>false</HasTime>\n      <FixedTranslation>false</FixedTranslation>\n"
				 "      <FixedRotation>false</FixedRotation>\n      <FixedScale>false</FixedScale>\n"
				 "      <Translation>\n%s      </Translation>\n    </KeyFrameSequence>\n"
				 "  </KeyFrameSequences>\n</AnimationSequence>\n", keys);
	char *by_doc = test_format("%s/doc", dir);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, text, strlen(text)));
	assert_true(test_write_file(doc, parts, strlen(parts)));
	r = test_animc("build", "-q", "--clips", doc, "-o", by_doc, src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	for (size_t i = 0; i < 2; i++) {
		char *out = test_format("%s/split%zu", dir, i);
		char *a = test_format("%s/Short/X.xnb", by_doc), *b = test_format("%s/Short/X.xnb", out);
		animrt_clip *part;
		float t[3], rot[4], sc[3];

		r = test_animc("build", "-q", "--split", spellings[i], "-o", out, src, NULL);
		if (r.status != 0)
			fail_msg("%s: %s", spellings[i], r.err);
		test_run_release(&r);
		assert_true(test_same_bytes(a, b));
		part = open_xnb(out, "Short/X.xnb");
		assert_true(bone_at(part, "Root", part->duration_s, t, rot, sc));
		test_assert_near(t[0], 10, 0);
		test_assert_near(part->duration_s, 0.1, 1e-5);
		animrt_close(part);
		free(a), free(b), free(out);
	}
	/* Past the last key by more than the snap distance is past the end. */
	r = test_animc("build", "-q", "--split", "X=0:0.134", "-o", by_doc, src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "past the end of the take"));
	test_run_release(&r);
	free(by_doc), free(text), free(doc), free(src), free(dir);
}

/* A take whose bones key a hair apart (Timed at 0.6 and 0.8 s, Even
 * every 0.066667 s, its keys 9 and 12 at 0.600003 and 0.800004): cut at
 * frames 9 and 12, each bone keeps its own keys, Even four evenly spaced
 * ones (it got five, timed, two of them 3e-6 s apart). */
static void each_bone_of_a_part_keeps_its_own_boundary_keys(void **state)
{
	char *dir = test_tmpdir("split-hair"), *src = test_format("%s/Hair.Animation", dir);
	char *out = test_format("%s/out", dir), *even = test_format("%s", ""), *with_key;
	static const char seq[] = "    <KeyFrameSequence>\n      <BoneName>%s</BoneName>\n"
				  "      <KeyCount>%d</KeyCount>\n      <Duration>1</Duration>\n"
				  "      <KeyInterval>%s</KeyInterval>\n      <HasTranslation>true</HasTranslation>\n"
				  "      <HasRotation>false</HasRotation>\n      <HasScale>false</HasScale>\n"
				  "      <HasTime>%s</HasTime>\n      <FixedTranslation>false</FixedTranslation>\n"
				  "      <FixedRotation>false</FixedRotation>\n      <FixedScale>false</FixedScale>\n"
				  "      <Translation>\n%s      </Translation>\n%s    </KeyFrameSequence>\n";
	animrt_clip *part;
	char *text, *a, *b;
	test_run r;

	(void)state;
	for (int i = 0; i < 15; i++) {
		with_key = test_format("%s        <Vector3><X>%d</X><Y>0</Y><Z>0</Z></Vector3>\n", even, i);
		free(even);
		even = with_key;
	}
	a = test_format(seq, "Even", 15, "0.066667", "false", even, "");
	b = test_format(seq, "Timed", 4, "0", "true",
			"        <Vector3><X>0</X><Y>0</Y><Z>0</Z></Vector3>\n"
			"        <Vector3><X>1</X><Y>0</Y><Z>0</Z></Vector3>\n"
			"        <Vector3><X>2</X><Y>0</Y><Z>0</Z></Vector3>\n"
			"        <Vector3><X>3</X><Y>0</Y><Z>0</Z></Vector3>\n",
			"      <Time><float>0</float><float>0.6</float><float>0.8</float><float>1</float></Time>\n");
	text = test_format("<?xml version=\"1.0\" ?>\n<AnimationSequence>\n"
			   "  <KeyFrameSequenceCount>2</KeyFrameSequenceCount>\n  <Duration>1</Duration>\n"
			   "  <KeyFrameSequences>\n%s%s  </KeyFrameSequences>\n</AnimationSequence>\n", a, b);
	assert_true(test_write_file(src, text, strlen(text)));
	r = test_animc("build", "-q", "--split", "P=9f:12f", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	part = open_xnb(out, "Hair/P.xnb");
	assert_string_equal(part->sequences[0].bone, "Even");
	assert_int_equal(part->sequences[0].key_count, 4);
	assert_false(part->sequences[0].has_time);
	for (uint32_t k = 0; k < 4; k++)
		test_assert_near(part->sequences[0].translation[3 * k], 9 + k, 0);
	assert_int_equal(part->sequences[1].key_count, 2);
	test_assert_near(part->sequences[1].translation[0], 1, 0);
	test_assert_near(part->sequences[1].translation[3], 2, 0);
	animrt_close(part);
	free(text), free(a), free(b), free(even), free(out), free(src), free(dir);
}

/* Parts of a take keep the take's grid in the compact layout: their
 * keys, now at float times that drift from multiples of their smallest
 * gap, still lie on it; a part ending a hair after a key does not make the
 * grid that fine, nor one starting between two keys (D) its first gap. */
static void compact_parts_keep_the_takes_grid(void **state)
{
	char *dir = test_tmpdir("mocap-parts"), *out = test_format("%s/out", dir), *bvh = write_mocap(dir, 600, false);
	static const struct {
		const char *name;
		uint32_t samples;
	} parts[] = { { "A", 241 }, { "B", 361 }, { "C", 242 }, { "D", 274 } };   /* C, D: one past the end */
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--layout", "compact", "--split", "Motion/A=0f:240f", "--split",
		       "Motion/B=120f:480f", "--split", "Motion/C=0:2", "--split", "Motion/D=1.234:3.5", "-o", out,
		       bvh, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	for (size_t i = 0; i < 4; i++) {
		animrt_clip *part = open_xnb(out, test_format("walk/%s.xnb", parts[i].name));

		print_message("part %s: %g Hz, %u samples\n", parts[i].name, (double)part->grid_rate_hz,
			      part->grid_sample_count);
		assert_true(fabs(part->grid_rate_hz - 120.0048) < 0.1);
		assert_int_equal(part->grid_sample_count, parts[i].samples);
		animrt_close(part);
	}
	free(bvh), free(out), free(dir);
}

/* A part cut at frames of a 120 Hz take: frame numbers become seconds a
 * hair beside the keys they mean, which must not add a key a hair after
 * the start nor make the part's keys timed; --split and the equivalent
 * --clips document write the same bytes, the take shifted. */
static void a_frame_aligned_part_stays_uniform(void **state)
{
	char *dir = test_tmpdir("mocap-aligned"), *bvh = write_mocap(dir, 600, false);
	char *split = test_format("%s/split", dir), *clips = test_format("%s/clips", dir);
	char *whole = test_format("%s/whole", dir), *doc = test_format("%s/parts.xml", dir);
	static const char xml[] = "<?xml version=\"1.0\"?>\n<XnaContent xmlns:P=\"X\">\n"
				  "<Asset Type=\"P:AnimationDefinition\">\n<originalClipName>Motion</originalClipName>\n"
				  "<originalFrameCount>599</originalFrameCount>\n<ClipParts>\n<Item><ClipName>Run</ClipName>"
				  "<StartFrame>100</StartFrame><EndFrame>400</EndFrame></Item>\n</ClipParts>\n</Asset>\n"
				  "</XnaContent>\n";
	animrt_clip *part, *take;
	test_run r;
	double err;

	(void)state;
	assert_true(test_write_file(doc, xml, sizeof xml - 1));
	r = test_animc("build", "-q", "--split", "Run=100f:400f", "-o", split, bvh, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--clips", doc, "-o", clips, bvh, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	test_run_ok(test_animc("build", "-q", "-o", whole, bvh, NULL));
	assert_true(test_same_bytes(test_format("%s/walk/Run.xnb", split), test_format("%s/walk/Run.xnb", clips)));
	part = open_xnb(split, "walk/Run.xnb");
	take = open_xnb(whole, "walk/Motion.xnb");
	for (uint32_t s = 0; s < part->sequence_count; s++) {
		const animrt_sequence *q = &part->sequences[s];

		print_message("%s: %u keys, %s\n", q->bone, q->key_count, q->has_time ? "timed" : "uniform");
		assert_int_equal(q->key_count, 301);
		assert_false(q->has_time);
		test_assert_near(q->key_interval_s, take->sequences[s].key_interval_s, 1e-9);
	}
	err = part_error(part, take, 100 * 0.008333);
	print_message("max |part(t) - take(%g + t)| = %.3g\n", 100 * 0.008333, err);
	/* The root walks 100 units a second: a few float steps at 400. */
	assert_true(err <= 1e-4);
	animrt_close(part), animrt_close(take);
	free(bvh), free(split), free(clips), free(whole), free(doc), free(dir);
}

/* --import-timeout stops a compile in animc's passes too, and says so: a
 * part cut between frames of a long take needs a fine compact grid (several
 * seconds of encoding for 37 s of it, on any machine). */
static void a_slow_compile_is_stopped_naming_the_passes(void **state)
{
	char *dir = test_tmpdir("mocap-slow"), *out = test_format("%s/out", dir), *bvh = write_mocap(dir, 4800, false);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--import-timeout", "1", "--layout", "compact", "--split", "Motion/C=1.23:38.56",
		       "-o", out, bvh, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "compiling did not finish within 1 s (--import-timeout): the assimp importer was done, "
			   "animc's passes were not; stopped, nothing written (a long take, lossy or compact, may "
			   "need more: raise --import-timeout, 0 for no limit)"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);
	free(bvh), free(out), free(dir);
}

/* A part named as another part's root motion file (A.motion beside A
 * with --root-motion): one file for two outputs.  The source fails before
 * writing anything, naming the part (at its sidecar line) and whose
 * motion file it would be: A.xnb and A.motion.xnb were written, then the
 * part refused, and a sidecar edit so replaced the last good outputs. */
static void a_part_named_as_a_motion_file_is_refused(void **state)
{
	static const char sidecar[] =
		"<XnaContent xmlns:Pipeline=\"SkinnedModelPipeline\">\n"
		"  <Asset Type=\"Pipeline:AnimationDefinition\">\n"
		"    <originalClipName>Take 001</originalClipName>\n"
		"    <originalFrameCount>32</originalFrameCount>\n"
		"    <ClipParts>\n"
		"      <Item><ClipName>Rest</ClipName><StartFrame>0</StartFrame><EndFrame>%d</EndFrame></Item>\n"
		"      <Item><ClipName>%s</ClipName><StartFrame>10</StartFrame><EndFrame>29</EndFrame></Item>\n"
		"    </ClipParts>\n"
		"  </Asset>\n"
		"</XnaContent>\n";
	char *out = test_tmpdir("motion-name"), *dir = test_tmpdir("motion-name-src");
	char *src = test_format("%s/Walker.xml", dir), *doc = test_format("%s/Walker_Anims.xml", dir);
	char *part = test_format("%s/w/Walker/Rest.xnb", out), *kept = test_format("%s/kept.xnb", dir);
	char *text;
	test_run r = test_animc("build", "--split", "blink/A=0:0.5", "--split", "blink/A.motion=0.5:1.5", "--root-motion",
				"Hip", "-o", out, "testdata/gltf/step.gltf", NULL);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "step.gltf: error: clip 'A.motion': its name is that of the root motion file of clip 'A' "
			   "(A.motion.xnb), which --root-motion writes beside it; nothing written: give the clip "
			   "another name"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);

	/* A sidecar edit: the last good parts stay as they were. */
	copy_file(WALKER, src);
	text = test_format(sidecar, 8, "Run");
	assert_true(test_write_file(doc, text, strlen(text)));
	free(text);
	r = test_animc("build", "-q", "--root-motion", "Bone0", "-o", test_format("%s/w", out), dir, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	copy_file(part, kept);
	text = test_format(sidecar, 20, "Rest.motion");
	assert_true(test_write_file(doc, text, strlen(text)));
	free(text);
	r = test_animc("build", "-q", "--root-motion", "Bone0", "-o", test_format("%s/w", out), dir, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "Walker_Anims.xml:7: part 'Rest.motion' is named as the root motion file of clip 'Rest' "
			   "(Rest.motion.xnb), which --root-motion writes beside it; nothing written: give the part "
			   "another name"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_same_bytes(part, kept));
	free(out), free(dir), free(src), free(doc), free(part), free(kept);
}

/* A part named as another part's root motion file but for case (A.Motion
 * beside A, whose motion is A.motion.xnb): one file on Windows and macOS.
 * Written as A.Motion.1 with a clip-name-clash warning, as clips of names
 * alike but for case are; both were written without a word. */
static void a_part_named_as_a_motion_file_but_for_case_is_renamed(void **state)
{
	char *out = test_tmpdir("motion-case");
	test_run r = test_animc("build", "--split", "blink/A=0:0.5", "--split", "blink/A.Motion=0.5:1.5", "--root-motion",
				"Hip", "-o", out, "testdata/gltf/step.gltf", NULL);
	static const char *const written[] = { "A.xnb", "A.motion.xnb", "A.Motion.1.xnb", "A.Motion.1.motion.xnb" };

	(void)state;
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "step.gltf: warning: clip 'A.Motion': its name makes the file name of the root motion of "
			   "clip 'A' (A.motion.xnb, on file systems that ignore case); written as A.Motion.1.xnb: give "
			   "each clip a name that makes a file name of its own [clip-name-clash]"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 4);
	for (size_t i = 0; i < sizeof written / sizeof written[0]; i++) {
		char *path = test_format("%s/step/%s", out, written[i]);

		if (!test_file_exists(path))
			fail_msg("%s not written", path);
		free(path);
	}
	free(out);
}

/* Clips named `a` and `b`, in that order, in the XNA file `src`, built
 * into `out`: the build exits 0, warns with `said`, and writes both,
 * `first` and `second` (under out/clash). */
static void expect_names_clash(const char *src, const char *out, const char *a, const char *b, const char *said,
			       const char *first, const char *second)
{
	static const char item[] =
		"<Item><Key>%s</Key><Value><Duration>PT1S</Duration><Keyframes>"
		"<Item><BoneIndex>0</BoneIndex><Time>PT0S</Time><Position>0 0 0</Position><Rotation>0 0 0</Rotation>"
		"<Scale>1 1 1</Scale></Item>"
		"<Item><BoneIndex>0</BoneIndex><Time>PT1S</Time><Position>1 2 3</Position><Rotation>0 0 0</Rotation>"
		"<Scale>1 1 1</Scale></Item></Keyframes></Value></Item>";
	char *clip_a = test_format(item, a), *clip_b = test_format(item, b);
	char *doc = test_format("<?xml version=\"1.0\"?><XnaContent xmlns:Anim=\"AnimationClassLibrary\">"
				"<Asset Type=\"Anim:AnimationData\"><AnimationClips>%s%s</AnimationClips></Asset>"
				"</XnaContent>", clip_a, clip_b);
	char *first_path = test_format("%s/clash/%s", out, first);
	char *second_path = test_format("%s/clash/%s", out, second);
	test_run r;

	assert_true(test_write_file(src, doc, strlen(doc)));
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, said))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(first_path));
	assert_true(test_file_exists(second_path));
	free(first_path), free(second_path), free(doc), free(clip_a), free(clip_b);
}

/* Two clip names that make one file name ('a/b' and 'a:b' both make
 * a_b.xnb): the later is written as a_b.1.xnb with a warning, as clips of
 * one name are (the source failed after writing the first). */
static void clip_names_making_one_file_name_say_so(void **state)
{
	char *dir = test_tmpdir("name-clash"), *src = test_format("%s/clash.xml", dir), *out = test_format("%s/out", dir);

	(void)state;
	expect_names_clash(src, out, "a/b", "a:b",
			   "clash.xml:1: warning: clip 'a:b': its name makes the file name of clip 'a/b' (a_b.xnb); "
			   "written as a_b.1.xnb: give each clip a name that makes a file name of its own [clip-name-clash]",
			   "a_b.xnb", "a_b.1.xnb");
	/* Walk and walk: one file on Windows and macOS, which ignore case
	 * (both were written here, and one took the other's place there). */
	expect_names_clash(src, out, "Walk", "walk",
			   "clash.xml:1: warning: clip 'walk': its name makes the file name of clip 'Walk' (Walk.xnb, on "
			   "file systems that ignore case); written as walk.1.xnb",
			   "Walk.xnb", "walk.1.xnb");
	/* Été and été: those file systems fold letters past ASCII too (they
	 * were two files, unsaid). */
	expect_names_clash(src, out, "\xc3\x89t\xc3\xa9", "\xc3\xa9t\xc3\xa9",
			   "clash.xml:1: warning: clip '\xc3\xa9t\xc3\xa9': its name makes the file name of clip "
			   "'\xc3\x89t\xc3\xa9' (\xc3\x89t\xc3\xa9.xnb, on file systems that ignore case); written as "
			   "\xc3\xa9t\xc3\xa9.1.xnb",
			   "\xc3\x89t\xc3\xa9.xnb", "\xc3\xa9t\xc3\xa9.1.xnb");
	free(out), free(src), free(dir);
}

/* A sidecar naming the one take of a RobotGame source, which has no name:
 * the error advised "give the parts without 'Walk/'", --split's syntax,
 * which a sidecar has no use for.  It says what a sidecar does. */
static void a_sidecar_naming_an_unnamed_take_says_what_to_do(void **state)
{
	char *dir = test_tmpdir("sidecar-take"), *walk = test_format("%s/Walk.Animation", dir);
	char *sidecar = test_format("%s/Walk_Anims.xml", dir), *out = test_format("%s/out", dir), *text, *at;
	size_t size;
	test_run r;

	(void)state;
	copy_file("testdata/sample/Crane/Turn.Animation", walk);
	text = (char *)test_read_file(WALKER_ANIMS, &size);
	at = strstr(text, "<originalClipName>Take 001</originalClipName>");
	assert_non_null(at);
	at[18] = '\0';
	char *fixed = test_format("%sWalk%s", text, at + 18 + 8);
	assert_true(test_write_file(sidecar, fixed, strlen(fixed)));
	free(fixed), free(text);
	r = test_animc("build", "-o", out, walk, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "no take 'Walk' to split: the source has one take, without a name; leave "
			   "<originalClipName> empty"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(out), free(sidecar), free(walk), free(dir);
}

/* Three clips whose names make one file name, and a fourth named as the
 * second would be renamed: each is written, to a file of its own, and the
 * file holds that clip's keys. */
static void three_clip_names_making_one_file_name_are_all_written(void **state)
{
	static const char item[] =
		"<Item><Key>%s</Key><Value><Duration>PT1S</Duration><Keyframes>"
		"<Item><BoneIndex>0</BoneIndex><Time>PT0S</Time><Position>%d 0 0</Position><Rotation>0 0 0</Rotation>"
		"<Scale>1 1 1</Scale></Item></Keyframes></Value></Item>";
	static const char *const names[] = { "a/b", "a:b", "a*b", "a:b.1" };
	/* The file of each clip above, found by its key's x. */
	static const char *const files[] = { "a_b.xnb", "a_b.2.xnb", "a_b.3.xnb", "a_b.1.xnb" };
	char *dir = test_tmpdir("name-clash3"), *src = test_format("%s/clash.xml", dir), *out = test_format("%s/out", dir);
	char *items = test_format("%s", "");
	test_run r;

	(void)state;
	for (int i = 0; i < 4; i++) {
		char *one = test_format(item, names[i], i + 1), *both = test_format("%s%s", items, one);

		free(one), free(items);
		items = both;
	}
	char *doc = test_format("<?xml version=\"1.0\"?><XnaContent xmlns:Anim=\"AnimationClassLibrary\">"
				"<Asset Type=\"Anim:AnimationData\"><AnimationClips>%s</AnimationClips></Asset>"
				"</XnaContent>", items);
	assert_true(test_write_file(src, doc, strlen(doc)));
	for (int pass = 0; pass < 2; pass++) {   /* the same names every time */
		r = test_animc("build", "-q", "--rebuild", "-o", out, src, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.err, "clip 'a:b': its name makes the file name of clip 'a/b' (a_b.xnb); written as a_b.2.xnb") ||
		    !strstr(r.err, "clip 'a*b'"))
			fail_msg("%s", r.err);
		test_run_release(&r);
		assert_int_equal(test_count_files(out), 4);
		for (int i = 0; i < 4; i++) {
			char *path = test_format("%s/clash/%s", out, files[i]), *key = test_format("[[%d, 0, 0]]", i + 1);

			r = test_animc("dump", "--json", path, NULL);
			assert_int_equal(r.status, 0);
			if (!strstr(r.out, key))
				fail_msg("%s: no %s in\n%s", files[i], key, r.out);
			test_run_release(&r);
			free(path), free(key);
		}
	}
	free(doc), free(items), free(out), free(src), free(dir);
}

/* The x of the one key in OUT/clash/FILE: which clip the file holds. */
static void assert_file_holds(const char *out, const char *file, int x)
{
	char *path = test_format("%s/clash/%s", out, file), *key = test_format("[[%d, 0, 0]]", x);
	test_run r = test_animc("dump", "--json", path, NULL);

	assert_int_equal(r.status, 0);
	if (!strstr(r.out, key))
		fail_msg("%s: no %s in\n%s", file, key, r.out);
	test_run_release(&r);
	free(path), free(key);
}

/* Clip file names clash: which file each clip gets is decided over all the
 * source's clips, before --clip picks.  `--clip walk` wrote walk.xnb (no
 * warning), beside Walk.xnb: one file on Windows and macOS.  And the clip
 * named as the file name keeps it ('Walk_Run', not 'Walk/Run', whose '/'
 * animc replaced: Content.Load("Walk_Run") played the other clip). */
static void a_clash_decides_file_names_whatever_clip_picks(void **state)
{
	static const char item[] =
		"<Item><Key>%s</Key><Value><Duration>PT1S</Duration><Keyframes>"
		"<Item><BoneIndex>0</BoneIndex><Time>PT0S</Time><Position>%d 0 0</Position><Rotation>0 0 0</Rotation>"
		"<Scale>1 1 1</Scale></Item></Keyframes></Value></Item>";
	static const char *const names[] = { "Walk", "walk", "Walk/Run", "Walk_Run" };
	/* The file of each clip above, found by its key's x. */
	static const char *const files[] = { "Walk.xnb", "walk.1.xnb", "Walk_Run.1.xnb", "Walk_Run.xnb" };
	char *dir = test_tmpdir("name-clash-clip"), *src = test_format("%s/clash.xml", dir);
	char *out = test_format("%s/out", dir), *one = test_format("%s/one", dir), *items = test_format("%s", "");
	test_run r;

	(void)state;
	for (int i = 0; i < 4; i++) {
		char *it = test_format(item, names[i], i + 1), *both = test_format("%s%s", items, it);

		free(it), free(items);
		items = both;
	}
	char *doc = test_format("<?xml version=\"1.0\"?><XnaContent xmlns:Anim=\"AnimationClassLibrary\">"
				"<Asset Type=\"Anim:AnimationData\"><AnimationClips>%s</AnimationClips></Asset>"
				"</XnaContent>", items);
	assert_true(test_write_file(src, doc, strlen(doc)));
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "clip 'Walk/Run': its name makes the file name of clip 'Walk_Run' (Walk_Run.xnb); "
			   "written as Walk_Run.1.xnb"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 4);
	for (int i = 0; i < 4; i++)
		assert_file_holds(out, files[i], i + 1);

	/* --clip walk, alone and into the whole build's folder: walk.1.xnb,
	 * with the warning; Walk.xnb stays, and no walk.xnb joins it. */
	for (int into_whole = 0; into_whole < 2; into_whole++) {
		const char *to = into_whole ? out : one;

		r = test_animc("build", "-q", "--clip", "walk", "-o", to, src, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.err, "clip 'walk': its name makes the file name of clip 'Walk' (Walk.xnb, on file systems "
				   "that ignore case); written as walk.1.xnb"))
			fail_msg("%s", r.err);
		test_run_release(&r);
		assert_int_equal(test_count_files(to), into_whole ? 4 : 1);
		assert_file_holds(to, "walk.1.xnb", 2);
		char *plain = test_format("%s/clash/walk.xnb", to);
		assert_false(test_file_exists(plain));
		free(plain);
		/* outputs --clip lists that file; the manifest keeps the others. */
		r = test_animc("outputs", "--clip", "walk", "-o", to, src, NULL);
		assert_int_equal(r.status, 0);
		char *want = test_format("%s/clash/walk.1.xnb\n", to);
		assert_string_equal(r.out, want);
		free(want);
		test_run_release(&r);
	}
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "stale"));
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 4);
	/* --clip picks a clip by its name; the file's name is said beside it. */
	r = test_animc("build", "-q", "--clip", "walk.1", "-o", one, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "no clip 'walk.1'; the clips are: 'Walk', 'walk' (written as walk.1.xnb), 'Walk/Run' "
			   "(written as Walk_Run.1.xnb), 'Walk_Run'"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(doc), free(items), free(one), free(out), free(src), free(dir);
}

/* Parts a sidecar names 'walk' and 'Walk': the clash is said at the
 * sidecar's <ClipName>, where the name is given, not at the source's take
 * (Walker.xml:7). */
static void a_sidecar_part_clash_is_said_at_its_clip_name(void **state)
{
	char *dir = test_tmpdir("sidecar-clash"), *walker = test_format("%s/Walker.xml", dir);
	char *sidecar = test_format("%s/Walker_Anims.xml", dir), *out = test_format("%s/out", dir), *text, *at;
	size_t size;
	test_run r;

	(void)state;
	copy_file(WALKER, walker);
	text = (char *)test_read_file(WALKER_ANIMS, &size);
	at = strstr(text, "<ClipName>Start</ClipName>");
	assert_non_null(at);
	memcpy(at + 10, "walk ", 5);   /* trimmed, as XNA reads it */
	at = strstr(text, "<ClipName>Run</ClipName>");
	assert_non_null(at);
	/* One byte longer: a new string, not past the end of the one read. */
	char *grown = test_format("%.*s<ClipName>Walk</ClipName>%s", (int)(at - text), text, at + 24);
	free(text);
	text = grown;
	assert_true(test_write_file(sidecar, text, strlen(text)));
	free(text);
	r = test_animc("build", "-q", "-o", out, walker, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "/Walker_Anims.xml:14: clip 'Walk': its name makes the file name of clip 'walk' (walk.xnb, "
			   "on file systems that ignore case); written as Walk.1.xnb"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	char *renamed = test_format("%s/Walker/Walk.1.xnb", out);
	assert_true(test_file_exists(renamed));
	free(renamed);
	free(out), free(sidecar), free(walker), free(dir);
}

/* A clip name too long for a file name: the error names the clip's line. */
static void a_clip_name_too_long_names_its_line(void **state)
{
	static const char item[] =
		"<Item>\n<Key>%s</Key><Value><Duration>PT1S</Duration><Keyframes>"
		"<Item><BoneIndex>0</BoneIndex><Time>PT0S</Time><Position>0 0 0</Position><Rotation>0 0 0</Rotation>"
		"<Scale>1 1 1</Scale></Item></Keyframes></Value></Item>";
	char *dir = test_tmpdir("long-name"), *src = test_format("%s/long.xml", dir), *out = test_format("%s/out", dir);
	char key[301];
	memset(key, 'K', 300);
	key[300] = '\0';
	char *a = test_format(item, key);
	char *doc = test_format("<?xml version=\"1.0\"?>\n<XnaContent xmlns:Anim=\"AnimationClassLibrary\">\n"
				"<Asset Type=\"Anim:AnimationData\"><AnimationClips>\n%s</AnimationClips></Asset>"
				"</XnaContent>", a);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, doc, strlen(doc)));
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "long.xml:4: error: clip 'KKKK"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(doc), free(a), free(out), free(src), free(dir);
}

/* With --root-motion a clip writes CLIP.motion.xnb too: a name that fits
 * CLIP.xnb and not that is refused whole, before anything is written,
 * rather than the clip written without its motion. */
static void a_clip_whose_motion_file_name_is_too_long_writes_nothing(void **state)
{
	char *dir = test_tmpdir("long-motion"), name[250];
	struct {
		size_t bytes;
		const char *compress;
		int status;
		size_t files;
	} cases[] = { { 244, "none", 0, 2 }, { 245, "none", 1, 0 }, { 240, "zstd", 0, 2 }, { 241, "zstd", 1, 0 } };
	test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = test_format("%s/out%zu", dir, i), *split;

		memset(name, 'y', cases[i].bytes);
		name[cases[i].bytes] = '\0';
		split = test_format("blink/%s=0:1", name);
		r = test_animc("build", "-q", "--split", split, "--root-motion", "Hip", "--compress", cases[i].compress,
			       "-o", out, "testdata/gltf/step.gltf", NULL);
		assert_int_equal(r.status, cases[i].status);
		if (cases[i].status && !strstr(r.err, "its name is too long for a file name"))
			fail_msg("%s", r.err);
		test_run_release(&r);
		assert_int_equal(test_count_files(out), cases[i].files);
		free(split), free(out);
	}
	/* A single clip's source: its stem and .motion.xnb. */
	for (size_t bytes = 244; bytes <= 245; bytes++) {
		char *out = test_format("%s/single%zu", dir, bytes), *src;

		memset(name, 's', bytes);
		name[bytes] = '\0';
		src = test_format("%s/%s.Animation", dir, name);
		size_t size;
		uint8_t *turn = test_read_file("testdata/sample/Crane/Turn.Animation", &size);

		assert_true(test_write_file(src, turn, size));
		free(turn);
		r = test_animc("build", "-q", "--root-motion", "Base", "-o", out, src, NULL);
		assert_int_equal(r.status, bytes == 244 ? 0 : 1);
		test_run_release(&r);
		assert_int_equal(test_count_files(out), bytes == 244 ? 2 : 0);
		unlink(src);
		free(src), free(out);
	}
	free(dir);
}

/* testdata/gltf/cubic.gltf (1,478 uneven keys on one bone, about a second
 * in the compact encoder) with its tracks on 40 bones: a source the compact
 * encoder takes far longer than a second over on any machine.  Returns its
 * path. */
static char *write_crowd_gltf(const char *dir)
{
	char *path = test_format("%s/crowd.gltf", dir);
	json_error_t error;
	json_t *doc = json_load_file("testdata/gltf/cubic.gltf", 0, &error);

	assert_non_null(doc);
	json_t *nodes = json_object_get(doc, "nodes");
	json_t *roots = json_object_get(json_array_get(json_object_get(doc, "scenes"), 0), "nodes");
	json_t *channels = json_object_get(json_array_get(json_object_get(doc, "animations"), 0), "channels");
	size_t per_bone = json_array_size(channels);

	assert_true(json_array_size(nodes) == 1 && per_bone > 0);
	for (int bone = 1; bone < 40; bone++) {
		char name[32];

		snprintf(name, sizeof name, "Spine%d", bone);
		assert_int_equal(json_array_append_new(nodes, json_pack("{s:s}", "name", name)), 0);
		assert_int_equal(json_array_append_new(roots, json_integer(bone)), 0);
		for (size_t k = 0; k < per_bone; k++) {
			json_t *channel = json_deep_copy(json_array_get(channels, k));

			json_object_set_new(json_object_get(channel, "target"), "node", json_integer(bone));
			assert_int_equal(json_array_append_new(channels, channel), 0);
		}
	}
	assert_int_equal(json_dump_file(doc, path, JSON_COMPACT), 0);
	json_decref(doc);
	return path;
}

/* A single source animc's own reader reads is held to --import-timeout
 * too: a glTF the compact encoder takes far longer than a second over. */
static void a_single_gltf_source_is_held_to_the_timeout(void **state)
{
	char *dir = test_tmpdir("gltf-slow"), *out = test_format("%s/out", dir), *src = write_crowd_gltf(dir);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--import-timeout", "1", "--layout", "compact", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "crowd.gltf: error: compiling did not finish within 1 s (--import-timeout): the gltf "
			   "importer was done, animc's passes were not"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);
	free(src), free(out), free(dir);
}

/* The progress line names what is at work on a slow file: once its
 * import returned, animc's passes, not the importer. */
static void the_progress_line_names_the_stage_at_work(void **state)
{
	char *dir = test_tmpdir("gltf-progress"), *out = test_format("%s/out", dir), *src = write_crowd_gltf(dir);
	test_run r;

	(void)state;
	r = test_animc("build", "--progress", "always", "--import-timeout", "3", "--layout", "compact", "-o", out, src,
		       NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, "] animc's passes: ") || strstr(r.out, "] gltf: "))
		fail_msg("%s", r.out);
	test_run_release(&r);
	free(src), free(out), free(dir);
}

/* A compact part cut between two keys, with --skeleton: a grid the
 * shell's local bounds cannot hold takes a finer one, as without a
 * skeleton, rather than loosening the bounds (which left the shell 40
 * times past the bound). */
static void compact_parts_with_a_skeleton_hold_the_shell(void **state)
{
	char *dir = test_tmpdir("walker-shell"), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir), *src = test_format("%s/Walker.xml", dir);
	size_t size;
	test_run r;

	(void)state;
	copy_file(WALKER, src);   /* without its sidecar */
	r = test_animc("build", "--layout", "compact", "--skeleton", "testdata/authoring/Walker_rest.gltf", "--split",
		       "Take 001/R=0.33:0.8", "--report", report, "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "passes the bound"));
	test_run_release(&r);
	char *json = (char *)test_read_file(report, &size), *at = strstr(json, "\"shell\": ");
	assert_non_null(at);
	double shell = strtod(at + strlen("\"shell\": "), NULL);
	if (!(shell > 0 && shell <= ANIMC_TOLERANCE_TRANSLATION))
		fail_msg("shell error %g", shell);
	free(json), free(src), free(report), free(out), free(dir);
}

/* With ,yaw the in-place root gets keys between its own where motion and
 * in place would not compose back; a lossy output needs them only past a
 * third of its rotation bound: a turning take keeps its frame count, and
 * its compact grid stays near its rate. */
static void root_motion_of_a_lossy_output_adds_few_keys(void **state)
{
	char *dir = test_tmpdir("mocap-turn"), *bvh = write_mocap(dir, 600, true);
	char *plain = test_format("%s/plain", dir), *exact = test_format("%s/exact", dir);
	char *lossy = test_format("%s/lossy", dir), *compact = test_format("%s/compact", dir);
	animrt_clip *source, *in_place, *motion;
	double drift, err;
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", plain, bvh, NULL));
	test_run_ok(test_animc("build", "-q", "--root-motion", "Hips,yaw", "-o", exact, bvh, NULL));
	test_run_ok(test_animc("build", "-q", "--tolerance", "default", "--root-motion", "Hips,yaw", "-o", lossy, bvh,
			       NULL));
	r = test_animc("build", "-q", "--layout", "compact", "--root-motion", "Hips,yaw", "-o", compact, bvh, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	source = open_xnb(plain, "turn/Motion.xnb");
	/* Lossless: many keys added, and the source within float steps (the
	 * root walks 500 units, where a float step is 3e-5). */
	in_place = open_xnb(exact, "turn/Motion.xnb");
	motion = open_xnb(exact, "turn/Motion.motion.xnb");
	assert_true(test_sequence_of(in_place, "Hips")->key_count > 2 * 600);
	err = recompose_error(source, in_place, motion, "Hips", 1, &drift);
	print_message("lossless: max |motion + in place - source| = %.3g\n", err);
	assert_true(err <= 1e-4);
	animrt_close(in_place), animrt_close(motion);
	/* Lossy: no more keys than frames, within the bounds of the two
	 * reduced clips and a third of the rotation bound. */
	in_place = open_xnb(lossy, "turn/Motion.xnb");
	motion = open_xnb(lossy, "turn/Motion.motion.xnb");
	assert_true(test_sequence_of(in_place, "Hips")->key_count <= 600);
	err = recompose_error_within(source, in_place, motion, "Hips", 1, 1e-3, &drift);
	print_message("--tolerance default: max |motion + in place - source| = %.3g\n", err);
	assert_true(err <= 2.5e-3);
	animrt_close(in_place), animrt_close(motion);
	in_place = open_xnb(compact, "turn/Motion.xnb");
	print_message("compact: %g Hz, %u samples\n", (double)in_place->grid_rate_hz, in_place->grid_sample_count);
	assert_true(in_place->grid_rate_hz < 2.01 * 120.0048);
	animrt_close(in_place), animrt_close(source);
	free(compact), free(lossy), free(exact), free(plain), free(bvh), free(dir);
}

/* A shared cache: an entry made without the sidecar does not serve the
 * source once the sidecar is there; one made with it serves it. */
static void cache_entries_follow_the_sidecar(void **state)
{
	char *dir = test_tmpdir("cache-src"), *cache = test_tmpdir("cache-dir");
	char *a = test_tmpdir("cache-a"), *b = test_tmpdir("cache-b"), *c = test_tmpdir("cache-c");
	test_run r;

	(void)state;
	copy_file(WALKER, test_format("%s/Walker.xml", dir));
	test_run_ok(test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", a,
			       dir, NULL));
	assert_true(test_file_exists(test_format("%s/Walker/Take 001.xnb", a)));
	copy_file(WALKER_ANIMS, test_format("%s/Walker_Anims.xml", dir));
	r = test_animc("build", "-v", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", b, dir, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.out, "cached "))
		fail_msg("served from the cache:\n%s%s", r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb", b)));
	assert_false(test_file_exists(test_format("%s/Walker/Take 001.xnb", b)));
	r = test_animc("build", "-v", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", c, dir, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "cached "))
		fail_msg("not served from the cache:\n%s%s", r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb", c)));
	assert_false(test_file_exists(test_format("%s/Walker/Take 001.xnb", c)));
	free(dir), free(cache), free(a), free(b), free(c);
}

/* In the file at `path`, Run's <EndFrame>`from` becomes `to` (as long). */
static void set_end_frame(const char *path, const char *from, const char *to)
{
	size_t size;
	char *doc = (char *)test_read_file(path, &size), *want = test_format("<EndFrame>%s<", from);
	char *at = strstr(doc, want);

	assert_non_null(at);
	assert_int_equal(strlen(from), strlen(to));
	memcpy(at + 10, to, strlen(to));
	assert_true(test_write_file(path, doc, size));
	free(want), free(doc);
}

/* --clips naming a document outside the source's folder, the build run
 * from the folder above: through a shared cache, an edit of the document
 * is a miss (the entry's name for it is not read as the source's own
 * sidecar, which still holds the first bytes), and the manifest then
 * follows the document itself. */
static void cache_follows_a_clips_document_outside_the_folder(void **state)
{
	char *dir = test_tmpdir("clips-outside"), *cache = test_tmpdir("clips-outside-cache");
	char *animc = realpath(test_animc_path(), NULL), *full_cache = realpath(cache, NULL);
	char *folder = test_format("%s/a", dir), *clips = test_format("%s/Walker_Anims.xml", dir);
	char *out = test_format("%s/out", dir);
	const char *const ends[] = { "29", "20", "15" };
	test_run r;

	(void)state;
	assert_non_null(animc);
	assert_non_null(full_cache);
	assert_int_equal(mkdir(folder, 0777), 0);
	copy_file(WALKER, test_format("%s/Walker.xml", folder));
	copy_file(WALKER_ANIMS, test_format("%s/Walker_Anims.xml", folder));
	copy_file(WALKER_ANIMS, clips);
	for (int i = 0; i < 3; i++) {
		animrt_clip *run;

		if (i)
			set_end_frame(clips, ends[i - 1], ends[i]);
		/* The last build without the cache: the manifest decides. */
		r = test_exec("sh", "-c",
			      i < 2 ? "cd \"$1\" && exec \"$0\" build -q --cache-wait --cache-dir \"$2\" "
				      "--cache-min-size 0 --clips Walker_Anims.xml -o out a/Walker.xml"
				    : "cd \"$1\" && exec \"$0\" build -q --clips Walker_Anims.xml -o out a/Walker.xml",
			      animc, dir, full_cache, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		/* Run starts at frame 10, 8 frames a second. */
		run = open_xnb(out, "Walker/Run.xnb");
		test_assert_near(run->duration_s, (atoi(ends[i]) - 10) * 0.125, 1e-6);
		animrt_close(run);
	}
	free(out), free(clips), free(folder), free(full_cache), free(animc), free(cache), free(dir);
}

/* Run in a folder beside the source's (`--clips clips.xml ../art/W.xml`):
 * the entry could not name the --clips document from the source's folder,
 * whose path climbs above the current one, so nothing was stored, and
 * nothing said so.  It is named from the root's side now: stored, then
 * fetched; and an edit of the document is not served the old entry. */
static void a_clips_document_beside_a_source_above_is_cached(void **state)
{
	char *dir = test_tmpdir("clips-above"), *cache = test_tmpdir("clips-above-cache");
	char *animc = realpath(test_animc_path(), NULL), *full_cache = realpath(cache, NULL);
	char *art = test_format("%s/art", dir), *sub = test_format("%s/sub", dir);
	char *clips = test_format("%s/clips.xml", sub), *out = test_format("%s/out", dir);
	const char *const want[] = { "compiled 1 source", "1 cached", "compiled 1 source" };
	test_run r;

	(void)state;
	assert_non_null(animc);
	assert_non_null(full_cache);
	assert_int_equal(mkdir(art, 0777), 0);
	assert_int_equal(mkdir(sub, 0777), 0);
	copy_file(WALKER, test_format("%s/Walker.xml", art));
	copy_file(WALKER_ANIMS, clips);
	for (int i = 0; i < 3; i++) {
		animrt_clip *run;

		if (i == 2)
			set_end_frame(clips, "29", "20");
		r = test_exec("rm", "-rf", out, NULL);
		test_run_release(&r);
		r = test_exec("sh", "-c", "cd \"$1\" && exec \"$0\" build --progress never --cache-wait --cache-dir \"$2\" "
				    "--cache-min-size 0 --clips clips.xml -o ../out ../art/Walker.xml", animc, sub, full_cache,
			      NULL);
		if (r.status != 0 || !strstr(r.out, want[i]))
			fail_msg("build %d, not '%s':\n%s%s", i + 1, want[i], r.out, r.err);
		test_run_release(&r);
		run = open_xnb(out, "Walker/Run.xnb");
		test_assert_near(run->duration_s, ((i == 2 ? 20 : 29) - 10) * 0.125, 1e-6);
		animrt_close(run);
	}
	free(out), free(clips), free(sub), free(art), free(full_cache), free(animc), free(cache), free(dir);
}

/* --split cuts sources named on the command line, not those a folder
 * holds: the same source and options make two different outputs, and
 * neither the cache nor the manifest may give one for the other.  (A
 * build given only folders and --split is refused: another source is
 * named beside the folder.) */
static void split_follows_how_the_source_is_named(void **state)
{
	char *dir = test_tmpdir("named-src"), *cache = test_tmpdir("named-cache");
	char *a = test_tmpdir("named-a"), *b = test_tmpdir("named-b"), *c = test_tmpdir("named-c");
	char *walker = test_format("%s/Walker.xml", dir), *elsewhere = test_tmpdir("named-other");
	char *other = test_format("%s/Other.xml", elsewhere);
	test_run r;

	(void)state;
	copy_file(WALKER, walker);
	copy_file(WALKER, other);
	{
		/* Other bytes: not served the walker's entry either. */
		FILE *f = fopen(other, "a");

		assert_non_null(f);
		fputs("<!-- another source -->\n", f);
		fclose(f);
	}
	test_run_ok(test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "--split",
			       "Take 001/Run=0.5:1", "-o", a, walker, NULL));
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb", a)));
	/* The folder: not cut, and not served the cut source's entry. */
	r = test_animc("build", "-v", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "--split",
		       "Take 001/Run=0.5:1", "-o", b, dir, other, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.out, "cached "))
		fail_msg("served from the cache:\n%s%s", r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Walker/Take 001.xnb", b)));
	assert_false(test_file_exists(test_format("%s/Walker/Run.xnb", b)));
	/* One output folder, the folder first, then the file: cut now. */
	test_run_ok(test_animc("build", "-q", "--split", "Take 001/Run=0.5:1", "-o", c, dir, other, NULL));
	r = test_animc("build", "-v", "--split", "Take 001/Run=0.5:1", "-o", c, walker, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.out, "up to date"))
		fail_msg("taken as up to date:\n%s%s", r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/Walker/Run.xnb", c)));
	free(other), free(elsewhere);
	free(walker), free(dir), free(cache), free(a), free(b), free(c);
}

/* --additive-reference bind: the difference from the rest pose of
 * --skeleton (testdata/authoring/Walker_rest.gltf, written out here). */
static void additive_from_the_bind_pose(void **state)
{
	static const rest_bone pose[2] = {
		{ "Root", { 0.2f, 0.9f, 0.3f }, { 0, 0.258819f, 0, 0.9659258f }, { 1, 1, 1 } },
		{ "Arm", { 0, 0.5f, 0 }, { 0, 0, 0, 1 }, { 1.05f, 1, 1 } },
	};
	char *plain = test_tmpdir("bind-plain"), *out = test_tmpdir("bind");
	static const char *const clips[] = { "Start", "Run", "Idle" };
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "--skeleton", "testdata/authoring/Walker_rest.gltf", "-o", plain,
			       "testdata/authoring", NULL));
	r = test_animc("build", "-q", "--skeleton", "testdata/authoring/Walker_rest.gltf", "--additive-reference",
		       "bind", "-o", out, "testdata/authoring", NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	rest = pose;
	rest_count = 2;
	for (size_t c = 0; c < 3; c++) {
		char *name = test_format("Walker/%s.xnb", clips[c]);
		animrt_clip *source = open_xnb(plain, name), *a = open_xnb(out, name);
		double err = additive_error(source, a, NULL);

		print_message("%s: max |add(bind pose, additive) - source| = %.3g\n", clips[c], err);
		assert_true(err <= 1e-5);
		/* A difference from the rest pose, not the source itself. */
		assert_true(strcmp(animrt_clip_bone_name(a, 0, NULL), "Root") == 0);
		animrt_close(source), animrt_close(a);
		free(name);
	}
	rest = NULL;
	free(plain), free(out);
}

/* A model of two bones, Root at the origin and Tip 10 units out along Y,
 * and a take Swing that turns Root about Z and holds Tip's translation in
 * an animated constant track, as exported takes have it: DIR/Swing.gltf
 * (its keys in Swing.bin) and DIR/skel.gltf. */
static void write_swing(const char *dir)
{
	enum { N = 121 };
	float bin[N + 4 * N + 2 + 6];
	size_t at = 0;
	static const char nodes[] = "\"nodes\": [{\"name\": \"Root\", \"children\": [1]}, "
				    "{\"name\": \"Tip\", \"translation\": [0, 10, 0]}]";

	for (int i = 0; i < N; i++)
		bin[at++] = (float)(i / 60.0);
	for (int i = 0; i < N; i++) {
		double t = i / 60.0, deg = 40 * sin(2.3 * t) + 15 * sin(7.1 * t), h = deg * M_PI / 360;

		bin[at++] = 0, bin[at++] = 0, bin[at++] = (float)sin(h), bin[at++] = (float)cos(h);
	}
	bin[at++] = 0, bin[at++] = 2;
	for (int k = 0; k < 2; k++)
		bin[at++] = 0, bin[at++] = 10, bin[at++] = 0;
	char *path = test_format("%s/Swing.bin", dir);
	assert_true(test_write_file(path, bin, sizeof bin));
	free(path);
	char *doc = test_format(
		"{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], %s, "
		"\"buffers\": [{\"byteLength\": %zu, \"uri\": \"Swing.bin\"}], \"bufferViews\": ["
		"{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": %d}, {\"buffer\": 0, \"byteOffset\": %d, "
		"\"byteLength\": %d}, {\"buffer\": 0, \"byteOffset\": %d, \"byteLength\": 8}, {\"buffer\": 0, "
		"\"byteOffset\": %d, \"byteLength\": 24}], \"accessors\": ["
		"{\"bufferView\": 0, \"componentType\": 5126, \"count\": %d, \"type\": \"SCALAR\", \"min\": [0], "
		"\"max\": [2]}, {\"bufferView\": 1, \"componentType\": 5126, \"count\": %d, \"type\": \"VEC4\"}, "
		"{\"bufferView\": 2, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\", \"min\": [0], "
		"\"max\": [2]}, {\"bufferView\": 3, \"componentType\": 5126, \"count\": 2, \"type\": \"VEC3\"}], "
		"\"animations\": [{\"name\": \"Swing\", \"samplers\": [{\"input\": 0, \"output\": 1}, "
		"{\"input\": 2, \"output\": 3}], \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, "
		"\"path\": \"rotation\"}}, {\"sampler\": 1, \"target\": {\"node\": 1, \"path\": \"translation\"}}]}]}",
		nodes, sizeof bin, 4 * N, 4 * N, 16 * N, 20 * N, 20 * N + 8, N, N);
	path = test_format("%s/Swing.gltf", dir);
	assert_true(test_write_file(path, doc, strlen(doc)));
	free(path), free(doc);
	doc = test_format("{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], %s}",
			  nodes);
	path = test_format("%s/skel.gltf", dir);
	assert_true(test_write_file(path, doc, strlen(doc)));
	free(path), free(doc);
}

/* Tip's origin in model space at t, the clip added onto the rest pose
 * (Root at identity, Tip at (0, 10, 0)) when it is a layer: Root's
 * rotation turning Tip's translation. */
static void tip_origin(const animrt_clip *clip, float t, bool is_layer, double out[3])
{
	float tr[3], q[4], sc[3], tip[3], rot[4];

	assert_true(bone_at(clip, "Root", t, tr, q, sc));
	assert_true(bone_at(clip, "Tip", t, tip, rot, sc));
	double v[3] = { tip[0], tip[1] + (is_layer ? 10 : 0), tip[2] }, u[3], w[3];

	/* v + 2 w (q x v) + 2 q x (q x v) */
	u[0] = q[1] * v[2] - q[2] * v[1], u[1] = q[2] * v[0] - q[0] * v[2], u[2] = q[0] * v[1] - q[1] * v[0];
	w[0] = q[1] * u[2] - q[2] * u[1], w[1] = q[2] * u[0] - q[0] * u[2], w[2] = q[0] * u[1] - q[1] * u[0];
	for (int k = 0; k < 3; k++)
		out[k] = v[k] + 2 * q[3] * u[k] + 2 * w[k];
}

/* --additive-reference bind on a lossy build with --skeleton: the shell
 * bound holds on the pose the layer makes on the rest pose, not on the
 * differences (where Tip's translation is 0 and Root's rotation would see
 * no lever arm: Tip strayed ten times the bound), and the report's shell
 * error says what a game sees. */
static void additive_lossy_holds_the_shell_on_the_pose(void **state)
{
	static const char *const lossy[][2] = { { "--tolerance", "default" }, { "--layout", "compact" } };
	char *dir = test_tmpdir("additive-shell"), *src = test_format("%s/Swing.gltf", dir);
	char *skel = test_format("%s/skel.gltf", dir), *plain = test_format("%s/plain", dir);
	test_run r;

	(void)state;
	write_swing(dir);
	test_run_ok(test_animc("build", "-q", "-o", plain, src, NULL));
	for (size_t l = 0; l < 2; l++) {
		char *out = test_format("%s/out%zu", dir, l), *report = test_format("%s/report%zu.json", dir, l);
		animrt_clip *source = open_xnb(plain, "Swing/Swing.xnb"), *layer;
		json_error_t error;
		json_t *doc;
		double worst = 0, shell;

		r = test_animc("build", "-q", "--skeleton", skel, lossy[l][0], lossy[l][1], "--additive-reference",
			       "bind", "--report", report, "-o", out, src, NULL);
		if (r.status != 0)
			fail_msg("%s", r.err);
		test_run_release(&r);
		layer = open_xnb(out, "Swing/Swing.xnb");
		for (int i = 0; i <= 400; i++) {
			float t = 2.0f * (float)i / 400;
			double a[3], b[3];

			tip_origin(source, t, false, a);
			tip_origin(layer, t, true, b);
			for (int k = 0; k < 3; k++)
				worst = fmax(worst, fabs(a[k] - b[k]));
		}
		doc = json_load_file(report, 0, &error);
		assert_non_null(doc);
		shell = json_real_value(json_object_get(json_object_get(json_array_get(json_object_get(
			json_array_get(json_object_get(doc, "sources"), 0), "outputs"), 0), "error"), "shell"));
		print_message("%s %s: Tip's model-space error %.3g, the report's shell error %.3g\n", lossy[l][0],
			      lossy[l][1], worst, shell);
		assert_true(worst <= 1e-3);
		assert_true(worst <= shell + 1e-5);
		json_decref(doc);
		animrt_close(source), animrt_close(layer);
		free(out), free(report);
	}
	free(dir), free(src), free(skel), free(plain);
}

/* Root motion with --layout compact: motion + in place recompose the source
 * within the layout's default tolerance (1e-3 units; 0.05 degrees is under
 * 5e-4 in a quaternion component).  The clip is compact, the motion in the
 * original layout (reduced). */
static void root_motion_in_the_compact_layout(void **state)
{
	char *plain = test_tmpdir("rmc-plain"), *out = test_tmpdir("rmc");
	static const char *const clips[] = { "Start", "Run", "Idle" };

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", plain, "testdata/authoring", NULL));
	test_run_ok(test_animc("build", "-q", "--layout", "compact", "--root-motion", "Bone0,yaw", "-o", out,
			       "testdata/authoring", NULL));
	for (size_t c = 0; c < 3; c++) {
		char *name = test_format("Walker/%s.xnb", clips[c]), *mname = test_format("Walker/%s.motion.xnb", clips[c]);
		animrt_clip *source = open_xnb(plain, name), *in_place = open_xnb(out, name), *motion = open_xnb(out, mname);
		double drift, err = recompose_error(source, in_place, motion, "Bone0", 1, &drift);

		print_message("%s, compact: max |motion + in place - source| = %.3g\n", clips[c], err);
		assert_true(in_place->compact && !motion->compact);
		assert_true(err <= 2e-3);
		animrt_close(source), animrt_close(in_place), animrt_close(motion);
		free(name), free(mname);
	}
	free(plain), free(out);
}

/* A reduced motion file (--tolerance, and --layout compact, which writes it
 * in the original layout) keeps its end keys as extracted, which a game
 * adds once per loop, and has no travel on the up axis (Z, RobotGame's):
 * a nudge within the bound moved both, and the character sank 0.7 mm a
 * loop. */
static void a_reduced_motion_keeps_its_end_and_stays_on_the_ground(void **state)
{
	static const char *const modes[][2] = { { NULL, NULL }, { "--tolerance", "default" }, { "--layout", "compact" } };
	animrt_clip *motion[3];

	(void)state;
	for (int m = 0; m < 3; m++) {
		char *out = test_tmpdir("rm-ends");
		test_run r = modes[m][0] ? test_animc("build", "-q", modes[m][0], modes[m][1], "--root-motion", "Root,yaw",
						      "-o", out, "testdata/compact/sway.Animation", NULL)
					 : test_animc("build", "-q", "--root-motion", "Root,yaw", "-o", out,
						      "testdata/compact/sway.Animation", NULL);

		assert_int_equal(r.status, 0);
		test_run_release(&r);
		motion[m] = open_xnb(out, "sway.motion.xnb");
		free(out);
	}
	const animrt_sequence *whole = &motion[0]->sequences[0];
	for (int m = 1; m < 3; m++) {
		const animrt_sequence *s = &motion[m]->sequences[0];

		/* Reduced: fewer keys than the lossless motion. */
		assert_true(s->key_count < whole->key_count);
		assert_int_equal(s->translation_count, s->key_count);
		for (uint32_t i = 0; i < s->translation_count; i++)
			assert_true(s->translation[3 * i + 2] == 0);
		for (uint32_t i = 0; i < s->rotation_count; i++)
			assert_true(s->rotation[4 * i] == 0 && s->rotation[4 * i + 1] == 0);
		for (int k = 0; k < 3; k++) {
			assert_true(s->translation[k] == whole->translation[k]);
			assert_true(s->translation[3 * (s->key_count - 1) + k] ==
				    whole->translation[3 * (whole->key_count - 1) + k]);
		}
		for (int k = 0; k < 4; k++)
			assert_true(fabsf(s->rotation[4 * (s->key_count - 1) + k] -
					  whole->rotation[4 * (whole->key_count - 1) + k]) <= 1e-8f);
	}
	for (int m = 0; m < 3; m++)
		animrt_close(motion[m]);
}

/* A RobotGame clip of bone Root, n keys 1/30 s apart, translation (x(i), 0, 1)
 * and rotation about z by z(i) radians. */
static char *root_take(unsigned n, double (*x)(unsigned, unsigned), double (*turn)(unsigned, unsigned))
{
	char *doc = test_format("<?xml version=\"1.0\" ?><AnimationSequence><KeyFrameSequenceCount>1"
				"</KeyFrameSequenceCount><Duration>%g</Duration><KeyFrameSequences><KeyFrameSequence>"
				"<BoneName>Root</BoneName><KeyCount>%u</KeyCount><Duration>%g</Duration><KeyInterval>"
				"0.0333333</KeyInterval><HasTranslation>true</HasTranslation><HasRotation>true"
				"</HasRotation><HasScale>false</HasScale><HasTime>false</HasTime><FixedTranslation>false"
				"</FixedTranslation><FixedRotation>false</FixedRotation><FixedScale>false</FixedScale>"
				"<Translation>", (n - 1) / 30.0, n, (n - 1) / 30.0);

	for (unsigned i = 0; i < n; i++) {
		char *more = test_format("%s<Vector3><X>%.7f</X><Y>0</Y><Z>1</Z></Vector3>", doc, x(i, n));

		free(doc), doc = more;
	}
	char *more = test_format("%s</Translation><Rotation>", doc);
	free(doc), doc = more;
	for (unsigned i = 0; i < n; i++) {
		double h = turn(i, n) / 2;

		more = test_format("%s<Quaternion><X>0</X><Y>0</Y><Z>%.7f</Z><W>%.7f</W></Quaternion>", doc, sin(h), cos(h));
		free(doc), doc = more;
	}
	more = test_format("%s</Rotation><Scale /><Time /></KeyFrameSequence></KeyFrameSequences></AnimationSequence>",
			   doc);
	free(doc);
	return more;
}

static double creep(unsigned i, unsigned n) { return 0.0015 * i / (n - 1); }
static double still(unsigned i, unsigned n) { (void)i, (void)n; return 0; }
static double stride(unsigned i, unsigned n) { return 2.0 * i / (n - 1); }
static double veer(unsigned i, unsigned n) { return 0.5 * i / (n - 1); }

/* The ends of a reduced motion are the lossless motion's, exactly, also
 * where (creep) the travel stays within the bound of one value, which was
 * written as one value halfway (0.75 mm a loop lost), and where (stride,
 * veer) the keys are made evenly spaced, whose last key was the source at
 * the float time it lands on (1.9999999 for 2). */
static void a_reduced_motion_keeps_its_ends_exactly(void **state)
{
	static const struct { double (*x)(unsigned, unsigned), (*turn)(unsigned, unsigned); unsigned n; } takes[] = {
		{ creep, still, 11 }, { stride, veer, 61 },
	};

	(void)state;
	for (size_t k = 0; k < sizeof takes / sizeof takes[0]; k++) {
		char *dir = test_tmpdir("rm-exact-ends"), *src = test_format("%s/take.Animation", dir);
		char *doc = root_take(takes[k].n, takes[k].x, takes[k].turn);
		animrt_clip *motion[2];

		assert_true(test_write_file(src, doc, strlen(doc)));
		for (int m = 0; m < 2; m++) {
			char *out = test_format("%s/out%d", dir, m);
			test_run r = m ? test_animc("build", "-q", "--tolerance", "default", "--root-motion", "Root,yaw",
						    "-o", out, src, NULL)
				       : test_animc("build", "-q", "--root-motion", "Root,yaw", "-o", out, src, NULL);

			assert_int_equal(r.status, 0);
			test_run_release(&r);
			motion[m] = open_xnb(out, "take.motion.xnb");
			free(out);
		}
		const animrt_sequence *whole = &motion[0]->sequences[0], *s = &motion[1]->sequences[0];
		for (int end = 0; end < 2; end++) {
			uint32_t a = end ? whole->key_count - 1 : 0, b = end ? s->key_count - 1 : 0;
			const float *ta = whole->translation + 3 * (whole->translation_count > 1 ? a : 0);
			const float *tb = s->translation + 3 * (s->translation_count > 1 ? b : 0);
			const float *ra = whole->rotation + 4 * (whole->rotation_count > 1 ? a : 0);
			const float *rb = s->rotation + 4 * (s->rotation_count > 1 ? b : 0);

			print_message("take %zu, %s: lossless (%g, %g, %g), reduced (%g, %g, %g)\n", k, end ? "last" : "first",
				      ta[0], ta[1], ta[2], tb[0], tb[1], tb[2]);
			assert_memory_equal(ta, tb, 3 * sizeof *ta);
			assert_memory_equal(ra, rb, 4 * sizeof *ra);
		}
		assert_true(s->key_count < whole->key_count);
		animrt_close(motion[0]), animrt_close(motion[1]);
		free(doc), free(src), free(dir);
	}
}

/* The glTF twin of the stride above (61 keys at i/30 s as floats, a bob
 * and a turn about y): its reduced motion's keys are made evenly spaced,
 * and the last was the source at the float time it lands on, 1.9999999
 * where the lossless motion ends at 2. */
static void a_resampled_motion_ends_on_the_last_key(void **state)
{
	enum { N = 61 };
	char *dir = test_tmpdir("rm-resampled-end"), *src = test_format("%s/w.gltf", dir);
	char *bin = test_format("%s/w.bin", dir);
	float data[N * 8];
	animrt_clip *motion[2];

	(void)state;
	for (int i = 0; i < N; i++) {
		double h = 0.25 * i / (N - 1);

		data[i] = (float)(i / 30.0);
		data[N + 3 * i] = (float)(2.0 * i / (N - 1)), data[N + 3 * i + 1] = (float)(0.3 * sin(i / 9.0));
		data[N + 3 * i + 2] = 1;
		data[4 * N + 4 * i] = 0, data[4 * N + 4 * i + 1] = (float)sin(h), data[4 * N + 4 * i + 2] = 0;
		data[4 * N + 4 * i + 3] = (float)cos(h);
	}
	char *json = test_format(
		"{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":"
		"\"Root\"}],\"buffers\":[{\"byteLength\":%zu,\"uri\":\"w.bin\"}],\"bufferViews\":[{\"buffer\":0,"
		"\"byteOffset\":0,\"byteLength\":%d},{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":%d},{\"buffer\":0,"
		"\"byteOffset\":%d,\"byteLength\":%d}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,"
		"\"count\":%d,\"type\":\"SCALAR\",\"min\":[0],\"max\":[%.9g]},{\"bufferView\":1,\"componentType\":"
		"5126,\"count\":%d,\"type\":\"VEC3\"},{\"bufferView\":2,\"componentType\":5126,\"count\":%d,"
		"\"type\":\"VEC4\"}],\"animations\":[{\"name\":\"Walk\",\"samplers\":[{\"input\":0,\"output\":1},"
		"{\"input\":0,\"output\":2}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":"
		"\"translation\"}},{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]}",
		sizeof data, 4 * N, 4 * N, 12 * N, 16 * N, 16 * N, N, (double)data[N - 1], N, N);
	assert_true(test_write_file(bin, data, sizeof data));
	assert_true(test_write_file(src, json, strlen(json)));
	for (int m = 0; m < 2; m++) {
		char *out = test_format("%s/out%d", dir, m);
		test_run r = m ? test_animc("build", "-q", "--up-axis", "y", "--tolerance", "default", "--root-motion",
					    "Root,yaw", "-o", out, src, NULL)
			       : test_animc("build", "-q", "--up-axis", "y", "--root-motion", "Root,yaw", "-o", out, src,
					    NULL);

		if (r.status != 0)
			fail_msg("%s", r.err);
		test_run_release(&r);
		motion[m] = open_xnb(out, "w/Walk.motion.xnb");
		free(out);
	}
	const animrt_sequence *whole = &motion[0]->sequences[0], *s = &motion[1]->sequences[0];
	assert_true(s->key_count < whole->key_count && s->translation_count == s->key_count);
	print_message("last: lossless %.9g, reduced %.9g (%u keys)\n",
		      (double)whole->translation[3 * (whole->key_count - 1)], (double)s->translation[3 * (s->key_count - 1)],
		      s->key_count);
	assert_memory_equal(whole->translation + 3 * (whole->key_count - 1), s->translation + 3 * (s->key_count - 1),
			    3 * sizeof(float));
	assert_memory_equal(whole->rotation + 4 * (whole->key_count - 1), s->rotation + 4 * (s->key_count - 1),
			    4 * sizeof(float));
	animrt_close(motion[0]), animrt_close(motion[1]);
	free(json), free(bin), free(src), free(dir);
}

/* A glTF of two animations, Walk (Hips and Spine) and Idle (Hips only). */
static const char two_takes_gltf[] =
	"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"Hips\",\"children\":[1],\"translation\":"
	"[0,1,0]},{\"name\":\"Spine\",\"translation\":[0,0.5,0],\"rotation\":[0.0,0.0,0.25881904510252074"
	",0.9659258262890683]}],\"animations\":[{\"name\":\"Walk\",\"samplers\":[{\"input\":0,\"output\":"
	"1,\"interpolation\":\"LINEAR\"},{\"input\":2,\"output\":3,\"interpolation\":\"LINEAR\"},{\"input"
	"\":4,\"output\":5,\"interpolation\":\"LINEAR\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node"
	"\":0,\"path\":\"translation\"}},{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}},{"
	"\"sampler\":2,\"target\":{\"node\":1,\"path\":\"rotation\"}}]},{\"name\":\"Idle\",\"samplers\":["
	"{\"input\":6,\"output\":7,\"interpolation\":\"LINEAR\"},{\"input\":8,\"output\":9,\"interpolatio"
	"n\":\"LINEAR\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
	"{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}],\"buffers\":[{\"byteLength\":29"
	"6,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAD8AAIA/AADAPwAAAAAAAAAAAAAAAAAAgD8AAAB"
	"AAABAQAAAAEAAAAAAAACAvwAAQEAAAIA/AACAPwAAAAAAAAA/AACAPwAAwD8AAAAAAAAAAAAAAAAAAIA/AAAAAEQdrz4AAAA"
	"Aso9wPwAAAAB9G0Q/AAAAALuNJD8AAAAAngZ/PwAAAAC2frI9AAAAAAAAAD8AAIA/AADAPwAAAAAAAAAAAAAAAAAAgD/U0DE"
	"+AAAAAAAAAABcHHw/bGHYPgAAAAAAAAAAygNoP7uNJD8AAAAAAAAAAH0bRD8AAAAAAACAPwAAoEAAAKBAAACgQAAAwEAAAMB"
	"AAADAQAAAAAAAAIA/AAAAABXvwz4AAAAAXoNsPwAAAABsYdg+AAAAAMoDaD8=\"}],\"bufferViews\":[{\"buffer\":0"
	",\"byteOffset\":0,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":16,\"byteLength\":48},{\"buffe"
	"r\":0,\"byteOffset\":64,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":80,\"byteLength\":64},{"
	"\"buffer\":0,\"byteOffset\":144,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":160,\"byteLength"
	"\":64},{\"buffer\":0,\"byteOffset\":224,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":232,\"byt"
	"eLength\":24},{\"buffer\":0,\"byteOffset\":256,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":26"
	"4,\"byteLength\":32}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type"
	"\":\"SCALAR\",\"min\":[0],\"max\":[1.5]},{\"bufferView\":1,\"componentType\":5126,\"count\":4,\""
	"type\":\"VEC3\"},{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\",\"min"
	"\":[0],\"max\":[1.5]},{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"},{"
	"\"bufferView\":4,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1.5"
	"]},{\"bufferView\":5,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"},{\"bufferView\":6,\"c"
	"omponentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},{\"bufferView\":7,"
	"\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},{\"bufferView\":8,\"componentType\":5126,"
	"\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},{\"bufferView\":9,\"componentType\":512"
	"6,\"count\":2,\"type\":\"VEC4\"}]}";

/* --root-motion of a bone one clip does not animate, where the source
 * knows it (another clip animates it, or its node tree has it: an
 * upper-body layer beside the walks): that clip plays in place, and its
 * motion file holds none, said in a note.  It failed the source.  A bone
 * the source does not know at all fails each clip, naming it. */
static void a_clip_without_the_root_bone_plays_in_place(void **state)
{
	char *dir = test_tmpdir("root-one-clip"), *src = test_format("%s/takes.gltf", dir);
	char *out = test_format("%s/out", dir), *walk = test_format("%s/takes/Walk.xnb", out);
	char *motion = test_format("%s/takes/Walk.motion.xnb", out), *idle = test_format("%s/takes/Idle.xnb", out);
	char *still = test_format("%s/takes/Idle.motion.xnb", out), *none = test_format("%s/none", dir);
	animrt_clip *clip;
	float t[3], r4[4], sc[3];
	test_run r;

	(void)state;
	assert_true(test_write_file(src, two_takes_gltf, strlen(two_takes_gltf)));
	r = test_animc("build", "-v", "--root-motion", "Spine", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "takes.gltf: note: clip 'Idle': --root-motion: animates no bone 'Spine': it plays in "
			   "place, and its motion file holds no motion"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(walk));
	assert_true(test_file_exists(motion));
	assert_true(test_file_exists(idle));
	assert_true(test_file_exists(still));
	clip = open_xnb(out, "takes/Idle.motion.xnb");
	assert_int_equal(clip->sequence_count, 1);
	for (int k = 0; k <= 4; k++) {
		assert_true(bone_at(clip, "Spine", clip->duration_s * (float)k / 4, t, r4, sc));
		assert_true(t[0] == 0 && t[1] == 0 && t[2] == 0 && r4[3] == 1);
	}
	animrt_close(clip);
	/* What the source knows does not depend on --clip: XNA XML has no node
	 * tree, and only PulseAndTurn animates Bone1 (Nod failed alone). */
	r = test_animc("build", "-q", "--root-motion", "Bone1", "--clip", "Nod", "-o", out,
		       "testdata/sample/Crane/Signals.xml", NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	char *nod = test_format("%s/Signals/Nod.motion.xnb", out);

	assert_true(test_file_exists(nod));
	free(nod);
	r = test_animc("build", "-q", "--root-motion", "Tail", "-o", none, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "takes.gltf: error: clip 'Idle': --root-motion: no bone 'Tail'") ||
	    !strstr(r.err, "takes.gltf: error: clip 'Walk': --root-motion: no bone 'Tail'"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(none), 0);
	free(none), free(still), free(idle), free(motion), free(walk), free(out), free(src), free(dir);
}

/* A part named as a take of its source that is written whole fails the
 * source, as two parts of one name do (the part took the take's file, the
 * take went to Idle.1.xnb, exit 0); a part named as its own take, or as
 * a take split too, is no clash. */
static void a_part_named_as_a_whole_take_fails(void **state)
{
	char *dir = test_tmpdir("part-named-take"), *src = test_format("%s/takes.gltf", dir);
	char *out = test_format("%s/out", dir), *idle = test_format("%s/takes/Idle.xnb", out);
	char *kept = test_format("%s/Idle.kept", dir);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, two_takes_gltf, strlen(two_takes_gltf)));
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	copy_file(idle, kept);
	r = test_animc("build", "-q", "--split", "Walk/Idle=0:0.5", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "takes.gltf: error: --split: part 'Idle' is named as a take of the source, which is "
			   "written whole: give the part another name"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_same_bytes(idle, kept));
	assert_false(test_file_exists(test_format("%s/takes/Idle.1.xnb", out)));
	test_run_ok(test_animc("build", "-q", "--split", "Walk/Walk=0:0.5", "-o", out, src, NULL));
	r = test_animc("build", "-q", "--split", "Walk/Idle=0:0.5", "--split", "Idle/Rest=0:0.5", "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_same_bytes(idle, kept));
	assert_true(test_file_exists(test_format("%s/takes/Rest.xnb", out)));
	free(kept), free(idle), free(out), free(src), free(dir);
}

/* A warning about a clip's root motion calls it as the build lines do,
 * 'P.motion' (it said "clip 'P' ... (and 1 more like it: clip 'P')"). */
static void warnings_about_a_motion_file_name_it(void **state)
{
	char *out = test_tmpdir("motion-said");
	test_run r = test_animc("build", "-q", "--split", "P=1.01:1.015", "--root-motion", "Root", "-o", out,
				"testdata/compact/sway.Animation", NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "warning: clip 'P': lasts 0.005 s") || !strstr(r.err, "(and 1 more like it: clip 'P.motion')"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(out);
}

/* A RobotGame sequence is one take without a name: messages say "the
 * take", not "take ''", and a TAKE/ it does not have says to leave it out. */
static void an_unnamed_take_is_named_the_take(void **state)
{
	char *out = test_tmpdir("unnamed-take");
	test_run r = test_animc("build", "-q", "--split", "A=0:30", "-o", out, "testdata/compact/sway.Animation", NULL);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "part 'A' ends at 30 s, past the end of the take at 5 s"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--split", "Walk/A=0:1", "-o", out, "testdata/compact/sway.Animation", NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "no take 'Walk' to split: the source has one take, without a name; give the parts "
			   "without 'Walk/'"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(out);
}

/* A clip named as another's root motion (Walk.motion beside Walk) fails
 * its source before anything is written: neither its own motion file,
 * which would belong to no clip (Walk.motion.motion.xnb was left behind),
 * nor Walk's files. */
static void the_motion_of_a_clip_not_written_is_not_written(void **state)
{
	char *dir = test_tmpdir("root-orphan"), *src = test_format("%s/takes.gltf", dir);
	char *out = test_format("%s/out", dir), *orphan = test_format("%s/takes/Walk.motion.motion.xnb", out);
	char *walk = test_format("%s/takes/Walk.xnb", out);
	char *text = test_format("%s", two_takes_gltf), *idle = strstr(text, "\"Idle\"");
	test_run r;

	(void)state;
	assert_non_null(idle);
	char *doc = test_format("%.*s\"Walk.motion\"%s", (int)(idle - text), text, idle + 6);
	assert_true(test_write_file(src, doc, strlen(doc)));
	r = test_animc("build", "-q", "--root-motion", "Hips", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "takes.gltf: error: clip 'Walk.motion': its name is that of the root motion file of clip "
			   "'Walk' (Walk.motion.xnb)"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_false(test_file_exists(walk));
	assert_false(test_file_exists(orphan));
	free(doc), free(text), free(walk), free(orphan), free(out), free(src), free(dir);
}

/* The report's outputs of one source: each a root-motion file (naming the
 * bone) and not additive, or a clip, additive and no root motion, as
 * `motion` lists by file name. */
static void check_motion_labels(const char *report, const char *const *motion, const char *const *clips)
{
	json_error_t jerr;
	json_t *doc = json_load_file(report, 0, &jerr), *outputs;
	size_t i, seen = 0;
	json_t *o;

	if (!doc)
		fail_msg("%s: %s", report, jerr.text);
	outputs = json_object_get(json_array_get(json_object_get(doc, "sources"), 0), "outputs");
	json_array_foreach(outputs, i, o) {
		const char *path = json_string_value(json_object_get(o, "path")), *base = strrchr(path, '/') + 1;
		json_t *rm = json_object_get(o, "root_motion"), *add = json_object_get(o, "additive_reference");
		bool is_motion = false, is_clip = false;

		for (const char *const *m = motion; *m; m++)
			is_motion |= strcmp(base, *m) == 0;
		for (const char *const *c = clips; *c; c++)
			is_clip |= strcmp(base, *c) == 0;
		assert_true(is_motion != is_clip);
		if (is_motion) {
			assert_non_null(rm);
			assert_string_equal(json_string_value(json_object_get(rm, "bone")), "Hips");
			assert_null(add);
		} else {
			assert_null(rm);
			assert_non_null(add);
			assert_string_equal(json_string_value(add), "first-frame");
		}
		seen++;
	}
	assert_int_equal(seen, 4);
	json_decref(doc);
}

/* A clip whose own name ends in ".motion" is a clip: -v and the report
 * call it additive, and only its CLIP.motion file a root motion, when
 * compiled, up to date (from the manifest) and taken from the cache.
 * (They were told apart by file name: slow.motion.xnb was "the root
 * motion of bone 'Hips'", and its additive reference left out.) */
static void a_clip_named_like_a_motion_file_is_a_clip(void **state)
{
	char *dir = test_tmpdir("root-named"), *src = test_format("%s/takes.gltf", dir);
	char *out = test_format("%s/out", dir), *again = test_format("%s/again", dir);
	char *cache = test_format("%s/cache", dir), *report = test_format("%s/report.json", dir);
	char *text = test_format("%s", two_takes_gltf), *idle = strstr(text, "\"Idle\"");
	static const char *const motion[] = { "Walk.motion.xnb", "slow.motion.motion.xnb", NULL };
	static const char *const clips[] = { "Walk.xnb", "slow.motion.xnb", NULL };
	test_run r;

	(void)state;
	assert_non_null(idle);
	char *doc = test_format("%.*s\"slow.motion\"%s", (int)(idle - text), text, idle + 6);
	assert_true(test_write_file(src, doc, strlen(doc)));
	r = test_animc("build", "-v", "--root-motion", "Hips", "--additive-reference", "first-frame", "--cache-dir",
		       cache, "--cache-min-size", "0", "--report", report, "-o", out, src, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	/* Each clip's -v line, up to its end. */
	const char *a = strstr(r.out, "    clip 'slow.motion': "), *b = strstr(r.out, "    clip 'slow.motion.motion': ");

	if (!a || !b)
		fail_msg("%s", r.out);
	char *la = test_format("%.*s", (int)strcspn(a, "\n"), a), *lb = test_format("%.*s", (int)strcspn(b, "\n"), b);

	print_message("%s\n%s\n", la, lb);
	assert_non_null(strstr(la, ", additive (the difference from its first frame)"));
	assert_null(strstr(la, "root motion"));
	assert_non_null(strstr(lb, ", the root motion of bone 'Hips'"));
	free(la), free(lb);
	test_run_release(&r);
	check_motion_labels(report, motion, clips);
	/* Up to date: the outputs as the manifest records them. */
	test_run_ok(test_animc("build", "-q", "--root-motion", "Hips", "--additive-reference", "first-frame",
			       "--report", report, "-o", out, src, NULL));
	assert_non_null(strstr((char *)test_read_file(report, NULL), "\"status\": \"up-to-date\""));
	check_motion_labels(report, motion, clips);
	/* From the cache, into another folder. */
	test_run_ok(test_animc("build", "-q", "--root-motion", "Hips", "--additive-reference", "first-frame",
			       "--cache-dir", cache, "--cache-min-size", "0", "--report", report, "-o", again, src,
			       NULL));
	assert_non_null(strstr((char *)test_read_file(report, NULL), "\"status\": \"cached\""));
	check_motion_labels(report, motion, clips);
	free(doc), free(text), free(report), free(cache), free(again), free(out), free(src), free(dir);
}

/* --clip picks what a run compiles: the source still holds its other
 * clips, whose outputs (and root motion) stay recorded, neither stale nor
 * pruned.  (--clip Walk --prune removed Idle.xnb and Idle.motion.xnb.) */
static void a_clip_run_keeps_the_other_clips(void **state)
{
	char *dir = test_tmpdir("clip-keeps"), *src = test_format("%s/takes.gltf", dir);
	char *out = test_format("%s/out", dir);
	static const char *const files[] = { "Walk.xnb", "Walk.motion.xnb", "Idle.xnb", "Idle.motion.xnb" };
	test_run r;

	(void)state;
	assert_true(test_write_file(src, two_takes_gltf, strlen(two_takes_gltf)));
	test_run_ok(test_animc("build", "-q", "--root-motion", "Hips", "-o", out, src, NULL));
	for (int pass = 0; pass < 3; pass++) {
		/* Compiled, up to date, and the whole source again. */
		r = pass < 2 ? test_animc("build", "--prune", "--clip", "Walk", "--root-motion", "Hips", "-o", out,
					  src, NULL)
			     : test_animc("build", "--prune", "--root-motion", "Hips", "-o", out, src, NULL);
		if (r.status != 0)
			fail_msg("%s", r.err);
		print_message("%s", r.out);
		assert_null(strstr(r.out, "pruned"));
		assert_null(strstr(r.out, "stale"));
		assert_non_null(strstr(r.out, pass == 1 ? "1 up to date" : "compiled 1 source"));
		test_run_release(&r);
		for (size_t f = 0; f < 4; f++) {
			char *path = test_format("%s/takes/%s", out, files[f]);

			if (!test_file_exists(path))
				fail_msg("pass %d: %s is gone", pass, path);
			free(path);
		}
	}
	/* Without --prune, nothing is called stale either. */
	r = test_animc("build", "--clip", "Idle", "--root-motion", "Hips", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "stale"));
	test_run_release(&r);
	/* outputs --clip lists what such a run writes, as in an empty folder,
	 * not the other clips its up-to-date record keeps. */
	char *empty = test_format("%s/empty", dir);
	for (int in_empty = 0; in_empty < 2; in_empty++) {
		r = test_animc("outputs", "--clip", "Idle", "--root-motion", "Hips", "-o", in_empty ? empty : out, src,
			       NULL);
		assert_int_equal(r.status, 0);
		char *want = test_format("%s/takes/Idle.xnb\n%s/takes/Idle.motion.xnb\n", in_empty ? empty : out,
					 in_empty ? empty : out);
		assert_string_equal(r.out, want);
		free(want);
		test_run_release(&r);
	}
	free(empty);
	/* clean removes them all: they are recorded. */
	test_run_ok(test_animc("clean", "-q", "-o", out, NULL));
	for (size_t f = 0; f < 4; f++) {
		char *path = test_format("%s/takes/%s", out, files[f]);

		assert_false(test_file_exists(path));
		free(path);
	}
	free(out), free(src), free(dir);
}

/* A --clip run that compiles a source knows every clip it holds now: the
 * outputs of a clip renamed since (Idle, now Rest) are stale, and --prune
 * removes them, root motion too; those of the clip it picked stay.  They
 * were kept until a build of the whole source.  In a worker and in the
 * build process alike. */
static void a_clip_run_prunes_the_clips_the_source_no_longer_holds(void **state)
{
	static const char *const gone[] = { "Idle.xnb", "Idle.motion.xnb" }, *const kept[] = { "Walk.xnb",
											   "Walk.motion.xnb" };
	char *dir = test_tmpdir("clip-prunes");
	char *renamed = strdup(two_takes_gltf), *at = strstr(renamed, "\"name\":\"Idle\"");
	test_run r;

	(void)state;
	assert_non_null(at);
	memcpy(at, "\"name\":\"Rest\"", 13);
	for (int in_process = 0; in_process < 2; in_process++) {
		char *src = test_format("%s/%d/takes.gltf", dir, in_process), *out = test_format("%s/out%d", dir, in_process);
		const char *timeout = in_process ? "0" : "60", *memory = in_process ? "0" : "4G";

		test_sh("mkdir -p '%s/%d'", dir, in_process);
		assert_true(test_write_file(src, two_takes_gltf, strlen(two_takes_gltf)));
		test_run_ok(test_animc("build", "-q", "--root-motion", "Hips", "-o", out, src, NULL));
		assert_true(test_write_file(src, renamed, strlen(renamed)));
		r = test_animc("build", "--clip", "Walk", "--root-motion", "Hips", "--import-timeout", timeout,
			       "--memory-limit", memory, "-o", out, src, NULL);
		if (r.status != 0 || !strstr(r.out, "compiled 1 source") || !strstr(r.out, ", 2 stale outputs"))
			fail_msg("%s%s", r.out, r.err);
		test_run_release(&r);
		r = test_animc("build", "--prune", "--clip", "Walk", "--root-motion", "Hips", "-o", out, src, NULL);
		if (r.status != 0 || !strstr(r.out, "2 outputs pruned"))
			fail_msg("%s%s", r.out, r.err);
		test_run_release(&r);
		for (size_t f = 0; f < 2; f++) {
			char *path = test_format("%s/takes/%s", out, gone[f]), *own = test_format("%s/takes/%s", out,
												   kept[f]);

			if (test_file_exists(path) || !test_file_exists(own))
				fail_msg("%s is there, or %s is not", path, own);
			free(path), free(own);
		}
		free(out), free(src);
	}
	free(renamed), free(dir);
}

/* A source whose worker is stopped (--import-timeout) keeps the outputs
 * its last good build wrote, as a source that fails otherwise does: they
 * were left unrecorded, stale, and --prune deleted them. */
static void a_stopped_worker_keeps_the_last_good_outputs(void **state)
{
	char *dir = test_tmpdir("timeout-keeps"), *out = test_format("%s/out", dir), *src = write_crowd_gltf(dir);
	char *clip = test_format("%s/crowd/sway.xnb", out);
	test_run r;

	(void)state;
	test_run_ok(test_animc("build", "-q", "-o", out, src, NULL));
	assert_true(test_file_exists(clip));
	r = test_animc("build", "--prune", "--import-timeout", "1", "--layout", "compact", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "(--import-timeout)"));
	assert_null(strstr(r.out, "stale"));
	test_run_release(&r);
	assert_true(test_file_exists(clip));
	free(clip), free(src), free(out), free(dir);
}

/* An XNA AnimationData of two clips numbering their bones: Walk moves bone
 * 0 along X at height 1 (its rest height) and turns bone 1; Wave turns
 * bone 1 alone. */
static void write_two_xna(const char *path)
{
	char *doc = test_format("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<XnaContent xmlns:Anim="
				"\"AnimationClassLibrary\">\n<Asset Type=\"Anim:AnimationData\">\n<AnimationClips>\n");

	for (int c = 0; c < 2; c++) {
		char *keys = test_format("<Item><Key>%s</Key><Value><Duration>PT1S</Duration><Keyframes>\n",
					 c ? "Wave" : "Walk"), *next;

		for (int i = 0; i <= 4; i++)
			for (int bone = c; bone < 2; bone++) {
				next = test_format("%s<Item><BoneIndex>%d</BoneIndex><Time>PT%gS</Time><Position>%g %g 0"
						   "</Position><Rotation>0 0 %g</Rotation><Scale>1 1 1</Scale></Item>\n",
						   keys, bone, i * 0.25, bone ? 0 : i * 0.25, bone ? 0.5 : 1.0,
						   bone ? 0.05 * i : 0.0);
				free(keys);
				keys = next;
			}
		next = test_format("%s%s</Keyframes></Value></Item>\n", doc, keys);
		free(doc), free(keys);
		doc = next;
	}
	char *whole = test_format("%s</AnimationClips>\n</Asset>\n</XnaContent>\n", doc);
	assert_true(test_write_file(path, whole, strlen(whole)));
	free(whole), free(doc);
}

/* --additive-reference CLIP: a bone CLIP does not animate is referenced at
 * its rest pose, the source's own node or else --skeleton's, as the tracks
 * a glTF node's channels leave out already were (it was referenced at
 * identity: Walk's layer held the bone's absolute pose, and adding it
 * moved the bone by its whole rest offset). */
static void additive_reference_lacking_a_bone_takes_its_rest_pose(void **state)
{
	static const float spine_t[3] = { 0, 0.5f, 0 }, spine_r[4] = { 0, 0, 0.25881904f, 0.96592583f };
	char *dir = test_tmpdir("additive-rest"), *src = test_format("%s/takes.gltf", dir);
	char *plain = test_format("%s/plain", dir), *out = test_format("%s/out", dir);
	char *xna = test_format("%s/Two.xml", dir), *skel = test_format("%s/skel.gltf", dir);
	static const char skel_doc[] = "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": "
				       "[0]}], \"nodes\": [{\"name\": \"Root\", \"children\": [1], \"translation\": "
				       "[0, 1, 0]}, {\"name\": \"Arm\", \"translation\": [0, 0.5, 0]}]}";
	float t3[3], r4[4], s3[3], st[3], sr[4];
	test_run r;

	(void)state;
	/* glTF: Idle animates Hips alone; Walk's Spine is referenced at the
	 * node's rest. */
	assert_true(test_write_file(src, two_takes_gltf, strlen(two_takes_gltf)));
	test_run_ok(test_animc("build", "-q", "-o", plain, src, NULL));
	r = test_animc("build", "-o", out, "--additive-reference", "Idle", src, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.err, "warning"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	animrt_clip *source = open_xnb(plain, "takes/Walk.xnb"), *layer = open_xnb(out, "takes/Walk.xnb");
	for (int i = 0; i <= 40; i++) {
		float t = layer->duration_s * (float)i / 40;
		double q[4], dot = 0;

		assert_true(bone_at(layer, "Spine", t, t3, r4, s3));
		assert_true(bone_at(source, "Spine", t, st, sr, s3));
		quat_mul(spine_r, r4, q);
		for (int k = 0; k < 4; k++)
			dot += q[k] * sr[k];
		for (int k = 0; k < 3; k++)
			test_assert_near(t3[k] + spine_t[k], st[k], 1e-6);
		for (int k = 0; k < 4; k++)
			test_assert_near(q[k], dot < 0 ? -sr[k] : sr[k], 1e-5);
	}
	animrt_close(source), animrt_close(layer);

	/* XNA XML holds no node tree: --skeleton's rest.  Wave does not
	 * animate Root, whose rest height is 1. */
	write_two_xna(xna);
	assert_true(test_write_file(skel, skel_doc, strlen(skel_doc)));
	r = test_animc("build", "-o", out, "--skeleton", skel, "--additive-reference", "Wave", xna, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.err, "warning"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	layer = open_xnb(out, "Two/Walk.xnb");
	assert_true(bone_at(layer, "Root", 0.5f, t3, r4, s3));
	test_assert_near(t3[0], 0.5, 1e-6);
	test_assert_near(t3[1], 0, 1e-6);
	animrt_close(layer);
	free(dir), free(src), free(plain), free(out), free(xna), free(skel);
}

/* Where neither the source nor --skeleton has the bone's rest pose, it is
 * referenced at identity, and a warning of its own kind names the bone
 * (nothing was said). */
static void additive_reference_lacking_a_bone_without_a_rest_pose_warns(void **state)
{
	char *dir = test_tmpdir("additive-no-rest"), *xna = test_format("%s/Two.xml", dir);
	char *out = test_format("%s/out", dir);
	float t3[3], r4[4], s3[3];
	test_run r;

	(void)state;
	write_two_xna(xna);
	r = test_animc("build", "--allow", "numbered-bones", "-o", out, "--additive-reference", "Wave", xna, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, ": warning: clip 'Walk': --additive-reference clip 'Wave' does not animate bone "
			   "'Bone0'") || !strstr(r.err, "[reference-lacks-bone]"))
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, " 1 warning"));
	test_run_release(&r);
	animrt_clip *layer = open_xnb(out, "Two/Walk.xnb");
	assert_true(bone_at(layer, "Bone0", 0.5f, t3, r4, s3));
	test_assert_near(t3[1], 1, 1e-6);   /* from identity: the absolute height */
	animrt_close(layer);
	/* A kind like any other: it fails a --warnings-as-errors build. */
	r = test_animc("build", "-q", "--warnings-as-errors", "-o", out, "--additive-reference", "Wave", xna, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	free(dir), free(xna), free(out);
}

/* --clips and --split cut only the sources named on the command line,
 * yet the document's hash and each --split joined every source's key: an
 * edit of the document compiled again (and missed the cache for) every
 * source of a folder input, which it does not cut.  They join only the
 * keys of the sources they cut now. */
static void a_cut_joins_only_the_keys_of_the_sources_it_cuts(void **state)
{
	char *dir = test_tmpdir("cut-keys"), *doc = test_format("%s/doc/parts.xml", dir);
	char *walker = test_format("%s/art/Walker.xml", dir), *lib = test_format("%s/lib", dir);
	char *out = test_format("%s/out", dir), *fresh = test_format("%s/fresh", dir), *cache = test_format("%s/c", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/art' '%s/lib' '%s/doc' && cp testdata/authoring/Walker.xml '%s/art/' && "
		"cp testdata/authoring/Walker.xml '%s/lib/Other.xml' && cp testdata/authoring/Walker_Anims.xml '%s'",
		dir, dir, dir, dir, dir, doc);
	test_run_ok(test_animc("build", "--allow", "numbered-bones", "-q", "--clips", doc, "--cache-dir", cache,
			       "--cache-min-size", "0", "--cache-wait", "-o", out, walker, lib, NULL));
	test_sh("sed -i 's/<EndFrame>29</<EndFrame>25</' '%s'", doc);
	r = test_animc("build", "--allow", "numbered-bones", "--clips", doc, "--cache-dir", cache, "--cache-min-size", "0", "--cache-wait",
		       "-o", fresh, walker, lib, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source (3 clips), 0 failed, 0 skipped, 0 warnings, 1 cached"));
	test_run_release(&r);
	r = test_animc("build", "--allow", "numbered-bones", "--clips", doc, "-o", out, walker, lib, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source (3 clips), 0 failed, 0 skipped, 0 warnings, 1 up to date"));
	test_run_release(&r);
	test_run_ok(test_animc("build", "--allow", "numbered-bones", "--split", "Take 001/Run=0:2", "-o", out, walker,
			       lib, NULL));
	r = test_animc("build", "--allow", "numbered-bones", "--split", "Take 001/Run=0:3", "-o", out, walker, lib, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compiled 1 source (2 clips), 0 failed, 0 skipped, 0 warnings, 1 up to date"));
	test_run_release(&r);
	free(dir), free(doc), free(walker), free(lib), free(out), free(fresh), free(cache);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(sidecar_splits_a_take_at_exact_boundaries),
	cmocka_unit_test(a_sidecar_after_a_long_comment_splits),
	cmocka_unit_test(a_utf16_or_utf32_sidecar_splits_as_its_utf8_twin),
	cmocka_unit_test(a_misspelt_sidecar_is_a_warning),
	cmocka_unit_test(a_sidecar_named_in_another_case_is_a_warning),
	cmocka_unit_test(a_sidecar_split_nothing_keeps_the_parts),
	cmocka_unit_test(a_part_of_one_frame_is_a_pose_lasting_a_60th),
	cmocka_unit_test(a_part_name_too_long_names_the_sidecar_line),
	cmocka_unit_test(a_clash_decides_file_names_whatever_clip_picks),
	cmocka_unit_test(a_sidecar_part_clash_is_said_at_its_clip_name),
	cmocka_unit_test(a_sidecar_past_the_probe_is_a_warning),
	cmocka_unit_test(split_between_keys_is_the_take_shifted),
	cmocka_unit_test(split_clips_and_sidecar_give_the_same_bytes),
	cmocka_unit_test(hostile_sidecars_name_file_and_line),
	cmocka_unit_test(split_option_errors),
	cmocka_unit_test(split_options_that_can_cut_nothing_are_usage_errors),
	cmocka_unit_test(split_with_and_without_the_take_is_one_take),
	cmocka_unit_test(sidecar_edits_and_deletes_rebuild_its_source),
	cmocka_unit_test(cache_entries_follow_the_sidecar),
	cmocka_unit_test(cache_follows_a_clips_document_outside_the_folder),
	cmocka_unit_test(compact_parts_keep_the_takes_grid),
	cmocka_unit_test(a_frame_aligned_part_stays_uniform),
	cmocka_unit_test(a_slow_compile_is_stopped_naming_the_passes),
	cmocka_unit_test(the_progress_line_names_the_stage_at_work),
	cmocka_unit_test(a_single_gltf_source_is_held_to_the_timeout),
	cmocka_unit_test(a_part_named_as_a_motion_file_is_refused),
	cmocka_unit_test(a_part_named_as_a_motion_file_but_for_case_is_renamed),
	cmocka_unit_test(a_clip_without_the_root_bone_plays_in_place),
	cmocka_unit_test(a_stopped_worker_keeps_the_last_good_outputs),
	cmocka_unit_test(the_motion_of_a_clip_not_written_is_not_written),
	cmocka_unit_test(a_clip_named_like_a_motion_file_is_a_clip),
	cmocka_unit_test(a_clip_run_keeps_the_other_clips),
	cmocka_unit_test(a_clip_run_prunes_the_clips_the_source_no_longer_holds),
	cmocka_unit_test(an_unnamed_take_is_named_the_take),
	cmocka_unit_test(clip_names_making_one_file_name_say_so),
	cmocka_unit_test(a_sidecar_naming_an_unnamed_take_says_what_to_do),
	cmocka_unit_test(three_clip_names_making_one_file_name_are_all_written),
	cmocka_unit_test(a_clip_name_too_long_names_its_line),
	cmocka_unit_test(a_clip_whose_motion_file_name_is_too_long_writes_nothing),
	cmocka_unit_test(compact_parts_with_a_skeleton_hold_the_shell),
	cmocka_unit_test(root_motion_of_a_lossy_output_adds_few_keys),
	cmocka_unit_test(split_follows_how_the_source_is_named),
	cmocka_unit_test(a_clips_document_beside_a_source_above_is_cached),
	cmocka_unit_test(root_motion_recomposes_the_source),
	cmocka_unit_test(root_motion_of_an_unknown_bone_lists_the_bones),
	cmocka_unit_test(motion_lines_say_one_bone),
	cmocka_unit_test(root_motion_of_a_mocap_walk),
	cmocka_unit_test(root_motion_up_axis_turns_with_the_model),
	cmocka_unit_test(root_motion_ground_is_the_models_under_a_turned_parent),
	cmocka_unit_test(root_motion_frame_of_the_model_and_of_a_tree_not_read),
	cmocka_unit_test(a_compact_builds_motion_ends_as_the_lossless_one),
	cmocka_unit_test(a_root_motion_past_float_fails_its_clip),
	cmocka_unit_test(an_empty_take_name_cuts_the_one_take),
	cmocka_unit_test(root_motion_of_a_robotgame_part_is_z_up),
	cmocka_unit_test(root_motion_of_a_layer_beside_the_walks_takes_the_model),
	cmocka_unit_test(exact_and_a_cut_of_a_robotgame_sequence_fail),
	cmocka_unit_test(root_motion_of_a_bone_named_twice_is_the_last_ones),
	cmocka_unit_test(a_part_ending_at_the_last_key_of_a_short_take),
	cmocka_unit_test(a_part_named_as_a_whole_take_fails),
	cmocka_unit_test(warnings_about_a_motion_file_name_it),
	cmocka_unit_test(each_bone_of_a_part_keeps_its_own_boundary_keys),
	cmocka_unit_test(root_motion_in_the_compact_layout),
	cmocka_unit_test(a_reduced_motion_keeps_its_end_and_stays_on_the_ground),
	cmocka_unit_test(a_reduced_motion_keeps_its_ends_exactly),
	cmocka_unit_test(a_resampled_motion_ends_on_the_last_key),
	cmocka_unit_test(additive_clips_add_back_to_the_source),
	cmocka_unit_test(reports_say_parts_motion_and_additive),
	cmocka_unit_test(additive_compact_is_marked),
	cmocka_unit_test(additive_from_the_bind_pose),
	cmocka_unit_test(additive_lossy_holds_the_shell_on_the_pose),
	cmocka_unit_test(additive_reference_lacking_a_bone_takes_its_rest_pose),
	cmocka_unit_test(additive_reference_lacking_a_bone_without_a_rest_pose_warns),
	cmocka_unit_test(a_cut_joins_only_the_keys_of_the_sources_it_cuts),
};

ANIMC_TEST_GROUP(tests);
