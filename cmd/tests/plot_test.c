/*
 * plot_test.c - `animc plot`: an SVG that parses, with one panel per
 * component and the error band, every compiled key drawn, the worst error it
 * states within the bound, for both layouts and for a lossless .xnb as the
 * source; a missing bone or clip is an error naming it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#define SWAY "testdata/compact/sway.Animation"
/* Bone names with a newline, a quote and a backslash, ESC, a tab, UTF-8. */
#define ODD_NAMES "testdata/names/odd-names.xnb"
#define UNIFORM "testdata/loader/uniform.xnb"

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The number of keys `animc dump` gives a compact track ("  Spine  -  91  -"). */
static unsigned dump_keys(const char *xnb, const char *bone, int column)
{
	test_run r = test_animc("dump", xnb, NULL);
	char *line = strstr(r.out, bone);
	char cells[3][32];

	assert_non_null(line);
	assert_int_equal(sscanf(line + strlen(bone), "%31s %31s %31s", cells[0], cells[1], cells[2]), 3);
	unsigned n = (unsigned)strtoul(cells[column], NULL, 10);
	test_run_release(&r);
	return n;
}

static void plot_draws_tracks_keys_and_the_error_band(void **state)
{
	char *out = test_tmpdir("plot");
	char *xnb = test_format("%s/sway.xnb", out), *svg = test_format("%s/spine.svg", out);
	char *tsvg = test_format("%s/root.svg", out);

	(void)state;
	test_run r = test_animc("build", "-q", "--layout", "compact", "-o", out, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);

	r = test_animc("plot", "--bone", "Spine", "-o", svg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 0);
	double worst = -1;
	char *at = strstr(r.out, "worst error ");
	assert_non_null(at);
	worst = strtod(at + strlen("worst error "), NULL);
	assert_true(worst > 0 && worst <= 0.05);
	test_run_release(&r);
	char *text = (char *)test_read_file(svg, NULL);
	unsigned keys = dump_keys(xnb, "Spine", 1);
	assert_true(strncmp(text, "<?xml", 5) == 0 && strstr(text, "</svg>\n"));
	assert_int_equal(count(text, "class=\"source\""), 4);      /* x y z w */
	assert_int_equal(count(text, "class=\"compiled\""), 4);
	assert_int_equal(count(text, "class=\"compiled-key\""), 4 * keys);
	assert_int_equal(count(text, "class=\"source-key\""), 4 * 151);
	assert_int_equal(count(text, "class=\"error\""), 1);
	assert_int_equal(count(text, "class=\"bound\""), 1);
	assert_non_null(strstr(text, "bound 0.05"));
	free(text);
	test_run py = test_exec("python3", "-c", "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])", svg, NULL);
	assert_int_equal(py.status, 0);
	test_run_release(&py);

	/* A translation: three panels; its bound in units. */
	r = test_animc("plot", "--bone", "Root", "--track", "translation", "-o", tsvg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	text = (char *)test_read_file(tsvg, NULL);
	assert_int_equal(count(text, "class=\"source\""), 3);
	assert_non_null(strstr(text, "bound 0.001"));
	free(text);
	free(tsvg);
	free(svg);
	free(xnb);
	free(out);
}

/* The original layout reduced, against a lossless .xnb as its source. */
static void plot_reads_the_original_layout_and_compiled_sources(void **state)
{
	char *out = test_tmpdir("plot-original");
	char *lossless = test_format("%s/lossless", out), *reduced = test_format("%s/reduced", out);
	char *src = test_format("%s/sway.xnb", lossless), *xnb = test_format("%s/sway.xnb", reduced);
	char *svg = test_format("%s/arm.svg", out);

	(void)state;
	test_run r = test_animc("build", "-q", "-o", lossless, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--tolerance", "default", "-o", reduced, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Arm", "--track", "scale", "-o", svg, xnb, src, NULL);
	assert_int_equal(r.status, 0);
	char *at = strstr(r.out, "worst error ");
	assert_non_null(at);
	assert_true(strtod(at + strlen("worst error "), NULL) <= 1e-4);
	test_run_release(&r);
	char *text = (char *)test_read_file(svg, NULL);
	assert_non_null(strstr(text, "original layout"));
	assert_int_equal(count(text, "class=\"source\""), 3);
	free(text);
	free(svg);
	free(xnb);
	free(src);
	free(reduced);
	free(lossless);
	free(out);
}

/* The text of the first element that starts with `open` (up to its "</"),
 * malloc()ed. */
static char *element_text(const char *svg, const char *open)
{
	const char *at = strstr(svg, open);

	assert_non_null(at);
	at = strchr(at, '>') + 1;
	return test_format("%.*s", (int)(strstr(at, "</") - at), at);
}

/* A compiled file given through a pipe (bash's <(cat F.xnb), /dev/fd/63):
 * the SVG was titled "63 against sway.Animation", the pipe's number for a
 * name.  It says the compiled file came through a pipe. */
static void plot_names_a_piped_compiled_file_as_a_pipe(void **state)
{
	char *out = test_tmpdir("plot-pipe");
	char *xnb = test_format("%s/sway.xnb", out), *svg = test_format("%s/root.svg", out);

	(void)state;
	test_run r = test_animc("build", "-q", "--layout", "compact", "-o", out, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_sh("bash -c \"'%s' plot --bone Root -o '%s' <(cat '%s') " SWAY " >/dev/null\"", test_animc_path(), svg, xnb);
	char *text = (char *)test_read_file(svg, NULL);
	char *title = element_text(text, "<title");
	char *heading = element_text(text, "<text");
	assert_string_equal(title, "Root rotation: the compiled file (a pipe) against " SWAY);
	assert_string_equal(heading, "Root rotation: the compiled file (a pipe) against sway.Animation");
	free(heading);
	free(title);
	free(text);
	free(svg);
	free(xnb);
	free(out);
}

/* The heading holds base names, short enough for the picture; the full
 * paths are in the SVG's <title>; the key counts say why they differ. */
static void plot_heading_is_short_and_explains_the_key_count(void **state)
{
	char *out = test_tmpdir("plot-heading");
	char *dir = test_format("%s/a-rather-long-folder-name/and-another-one-below-it", out);
	char *xnb = test_format("%s/sway.xnb", dir), *svg = test_format("%s/root.svg", out);
	char cwd[4096];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof cwd));
	char *src = test_format("%s/%s", cwd, SWAY);
	test_run r = test_animc("build", "-q", "--layout", "compact", "-o", dir, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Root", "-o", svg, xnb, src, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	test_run_release(&r);
	char *text = (char *)test_read_file(svg, NULL);
	char *title = element_text(text, "<title");
	char *heading = element_text(text, "<text");
	assert_non_null(strstr(title, xnb));
	assert_non_null(strstr(title, src));
	assert_null(strstr(heading, "/"));
	assert_non_null(strstr(heading, "sway.xnb"));
	assert_non_null(strstr(heading, "sway.Animation"));
	/* 151 keys in the source, and the compact grid of 151 samples named
	 * as what the compiled keys sit on. */
	char *counts = strstr(text, "in the source");
	assert_non_null(counts);
	assert_non_null(strstr(counts, "151 samples"));
	free(heading);
	free(title);
	free(text);
	free(src);
	free(svg);
	free(xnb);
	free(dir);
	free(out);
}

/* Another clip as the source: plotted, with a warning on stderr and in the
 * picture that the bones and durations disagree. */
static void plot_warns_when_the_source_is_another_clip(void **state)
{
	char *out = test_tmpdir("plot-other");
	char *xnb = test_format("%s/sway.xnb", out), *svg = test_format("%s/root.svg", out);

	(void)state;
	test_run r = test_animc("build", "-q", "-o", out, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* sway: Root, Spine, Arm over 5 s; uniform: Root, Arm over 1 s. */
	r = test_animc("plot", "--bone", "Root", "-o", svg, xnb, "testdata/golden/uniform.Animation", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "warning"));
	assert_non_null(strstr(r.err, "'Spine'"));
	assert_non_null(strstr(r.err, " 5 s"));
	assert_non_null(strstr(r.err, " 1 s"));
	test_run_release(&r);
	char *text = (char *)test_read_file(svg, NULL);
	assert_int_equal(count(text, "class=\"warning\""), 1);
	free(text);
	/* Its own source: no warning. */
	r = test_animc("plot", "--bone", "Root", "-o", svg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	test_run_release(&r);
	text = (char *)test_read_file(svg, NULL);
	assert_int_equal(count(text, "class=\"warning\""), 0);
	free(text);
	free(svg);
	free(xnb);
	free(out);
}

static void plot_names_what_is_missing(void **state)
{
	char *out = test_tmpdir("plot-errors");
	char *xnb = test_format("%s/sway.xnb", out), *svg = test_format("%s/x.svg", out);

	(void)state;
	test_run r = test_animc("build", "-q", "--layout", "compact", "-o", out, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Tail", "-o", svg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "no bone 'Tail'"));
	/* ...and lists the bones there are. */
	assert_non_null(strstr(r.err, "'Root', 'Spine', 'Arm'"));
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	/* A source of several clips needs --clip, and names them. */
	r = test_animc("plot", "--bone", "Root", "-o", svg, xnb, "testdata/golden/xna-modeldata.xml", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "--clip"));
	test_run_release(&r);
	/* A source of one unnamed clip has no name to list: it says what to do. */
	r = test_animc("plot", "--bone", "Root", "--clip", "Walk", "-o", svg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, SWAY ": error: no clip 'Walk': this source is one unnamed clip; leave out --clip\n");
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Spine", xnb, SWAY, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Spine", "--track", "twist", "-o", svg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	free(svg);
	free(xnb);
	free(out);
}

/* A source an importer loops or crashes on fails the plot, with a message,
 * within the time limit; no SVG is written. */
static void plot_stops_an_import_that_loops_or_crashes(void **state)
{
	char *out = test_tmpdir("plot-isolated");
	char *xnb = test_format("%s/sway.xnb", out), *svg = test_format("%s/x.svg", out);

	(void)state;
	test_run r = test_animc("build", "-q", "-o", out, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	/* Assimp's SMD reader loops for minutes on this file. */
	r = test_animc("plot", "--bone", "Spine", "--import-timeout", "1", "-o", svg, xnb,
		       "testdata/assimp_crashes/endless_time.smd", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "endless_time.smd: error: the assimp importer did not finish within 1 s "
				      "(--import-timeout); stopped"));
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	/* Its MS3D reader frees a node twice on this one (a crash, or under
	 * some builds an error): the plot fails, and says so. */
	r = test_animc("plot", "--bone", "Spine", "--import-timeout", "10", "-o", svg, xnb,
		       "testdata/assimp_crashes/broken_joints.ms3d", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "broken_joints.ms3d: error: "));
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	/* The limits are checked as animc build checks them. */
	r = test_animc("plot", "--bone", "Spine", "--import-timeout", "-1", "-o", svg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--import-timeout '-1'"));
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Spine", "--memory-limit", "1M", "-o", svg, xnb, SWAY, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "below 64M"));
	test_run_release(&r);
	/* Within them, the plot is drawn from the source compiled in the child. */
	r = test_animc("plot", "--bone", "Spine", "--import-timeout", "30", "--memory-limit", "1G", "-o", svg, xnb,
		       SWAY, NULL);
	assert_int_equal(r.status, 0);
	assert_true(test_file_exists(svg));
	test_run_release(&r);
	free(svg);
	free(xnb);
	free(out);
}

/* A source whose import runs out of --memory-limit fails the plot with
 * what animc build says: the file, "ran out of memory" and the limit, once;
 * whether the importer said it its own way (Assimp's std::bad_alloc) or
 * returned a status alone (the XML reader).  No failure goes unsaid. */
static void plot_says_when_the_import_runs_out_of_memory(void **state)
{
	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	print_message("skipped: an AddressSanitizer build applies no --memory-limit\n");
	skip();
	return;
#endif
	/* A mesh of fifty million vertices: Assimp makes room for them first. */
	static const char x_text[] = "xof 0303txt 0032\nFrame Root {\n Mesh m {\n  50000000;\n  0.0;0.0;0.0;;\n }\n}\n";
	char *dir = test_tmpdir("plot-memory"), *svg = test_format("%s/p.svg", dir);
	char *x = test_format("%s/big.x", dir), *xml = test_format("%s/big.Animation", dir);
	enum { KEYS = 600000 };   /* about 35 MB of XML: far more than 64 MiB to import */
	FILE *f = fopen(xml, "w");

	assert_non_null(f);
	fprintf(f, "<?xml version=\"1.0\"?>\n<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
		"<Duration>%g</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>Root</BoneName>"
		"<KeyCount>%d</KeyCount><Duration>%g</Duration><KeyInterval>0.01</KeyInterval>"
		"<HasTranslation>true</HasTranslation><HasRotation>false</HasRotation><HasScale>false</HasScale>"
		"<HasTime>false</HasTime><FixedTranslation>false</FixedTranslation><FixedRotation>false</FixedRotation>"
		"<FixedScale>false</FixedScale><Translation>\n", (KEYS - 1) * 0.01, KEYS, (KEYS - 1) * 0.01);
	for (int i = 0; i < KEYS; i++)
		fprintf(f, "<Vector3><X>%.6f</X><Y>%.6f</Y><Z>0</Z></Vector3>\n", sin(i * 0.01), cos(i * 0.013));
	fprintf(f, "</Translation></KeyFrameSequence></KeyFrameSequences></AnimationSequence>\n");
	assert_int_equal(fclose(f), 0);
	assert_true(test_write_file(x, x_text, sizeof x_text - 1));

	const char *sources[] = { xml, x };
	for (size_t i = 0; i < 2; i++) {
		/* The .x is 73 bytes: its count, not its size, asked for that. */
		char *want = i == 0 ? test_format("%s: error: ran out of memory: the import needs more than the limit of "
						  "64 MiB (--memory-limit)\n", sources[i])
				    : test_format("%s: error: ran out of memory: the import of this 73-byte file needs "
						  "more than the limit of 64 MiB (--memory-limit), far more than its size "
						  "calls for; a count in it past what it holds (a damaged file) is the "
						  "likely cause\n", sources[i]);
		test_run r = test_animc("plot", "--bone", "Root", "--memory-limit", "64M", "-o", svg, UNIFORM, sources[i],
					NULL);

		assert_int_equal(r.status, 1);
		if (!strstr(r.err, want))
			fail_msg("%s", r.err);
		assert_int_equal(count(r.err, "error:"), 1);
		assert_string_equal(r.out, "");
		assert_false(test_file_exists(svg));
		test_run_release(&r);
		free(want);
	}
	/* Another failure an importer gives as a status alone: no animation. */
	char *still = test_format("%s/still.gltf", dir);
	static const char still_text[] = "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"name\": \"Root\"}]}";
	assert_true(test_write_file(still, still_text, sizeof still_text - 1));
	test_run r = test_animc("plot", "--bone", "Root", "-o", svg, UNIFORM, still, NULL);
	char *want = test_format("%s: error: holds no animation\n", still);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want);
	test_run_release(&r);
	free(want), free(still), free(xml), free(x), free(svg), free(dir);
}

/* A part against its source: the source is cut as animc build cut it, by
 * its sidecar or by --split, and --clip picks the part. */
static void plot_cuts_the_source_into_parts(void **state)
{
	char *out = test_tmpdir("plot-parts"), *svg = test_format("%s/part.svg", out);
	char *sidecar = test_format("%s/by-sidecar", out), *split = test_format("%s/by-split", out);
	char *run = test_format("%s/Walker/Run.xnb", sidecar), *mid = test_format("%s/Walker/Mid.xnb", split);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", sidecar, "testdata/authoring/Walker.xml", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--split", "Take 001/Mid=0.3:2.71", "-o", split, "testdata/authoring/Walker.xml",
		       NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int k = 0; k < 2; k++) {
		r = k == 0 ? test_animc("plot", "--bone", "Bone0", "--clip", "Run", "-o", svg, run,
					"testdata/authoring/Walker.xml", NULL)
			   : test_animc("plot", "--bone", "Bone0", "--split", "Take 001/Mid=0.3:2.71", "--clip", "Mid",
					"-o", svg, mid, "testdata/authoring/Walker.xml", NULL);
		if (r.status != 0)
			fail_msg("%s", r.err);
		char *at = strstr(r.out, "worst error ");
		assert_non_null(at);
		assert_true(strtod(at + strlen("worst error "), NULL) <= 1e-4);
		test_run_release(&r);
	}
	/* Without --split the sidecar cuts it, and holds no Mid: the error
	 * names the clip asked for and those there are. */
	r = test_animc("plot", "--bone", "Bone0", "--clip", "Mid", "-o", svg, mid, "testdata/authoring/Walker.xml", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "testdata/authoring/Walker.xml: error: no clip 'Mid'; it holds: 'Start' 'Run' "
				      "'Idle'\n"));
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Bone0", "--split", "Mid", "-o", svg, mid, "testdata/authoring/Walker.xml", NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	free(mid), free(run), free(split), free(sidecar), free(svg), free(out);
}

/* The worst error a plot printed ("worst error E UNIT at T s"), after
 * checking it exited 0. */
static double plot_worst(test_run *r)
{
	if (r->status != 0)
		fail_msg("exit %d: %s", r->status, r->err);
	char *at = strstr(r->out, "worst error ");
	assert_non_null(at);
	double worst = strtod(at + strlen("worst error "), NULL);
	test_run_release(r);
	return worst;
}

/* An output built with --root-motion or --additive-reference is compared
 * with its source made the same way, given the same options: the error is
 * the build's.  An additive compact file against a source not made additive
 * (its "error" would be the pose itself) is refused, naming the option, and
 * so is the reverse. */
static void plot_compares_authored_outputs_with_their_source_made_alike(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-authored"), *svg = test_format("%s/p.svg", dir);
	char *lossy = test_format("%s/lossy", dir), *moved = test_format("%s/moved", dir);
	char *plain = test_format("%s/plain", dir);
	char *run = test_format("%s/Walker/Run.xnb", lossy), *inplace = test_format("%s/Walker/Run.xnb", moved);
	char *motion = test_format("%s/Walker/Run.motion.xnb", moved), *compact = test_format("%s/Walker/Run.xnb", plain);
	const char *walker = "testdata/authoring/Walker.xml";
	test_run r = test_animc("build", "-q", "--layout", "compact", "--tolerance", "default", "--root-motion", "Bone0",
				"--additive-reference", "first-frame", "-o", lossy, walker, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--root-motion", "Bone0", "-o", moved, walker, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--layout", "compact", "-o", plain, walker, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);

	/* Additive against absolute: refused, naming the option; nothing written. */
	r = test_animc("plot", "--bone", "Bone1", "--clip", "Run", "-o", svg, run, walker, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is additive"));
	assert_non_null(strstr(r.err, "--additive-reference"));
	assert_string_equal(r.out, "");
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	/* The same passes on the source: the error within the build's bound. */
	r = test_animc("plot", "--bone", "Bone1", "--clip", "Run", "--root-motion", "Bone0", "--additive-reference",
		       "first-frame", "-o", svg, run, walker, NULL);
	assert_true(plot_worst(&r) <= 0.05);
	r = test_animc("plot", "--bone", "Bone0", "--track", "translation", "--clip", "Run", "--root-motion", "Bone0",
		       "--additive-reference", "first-frame", "-o", svg, run, walker, NULL);
	assert_true(plot_worst(&r) <= 0.001);

	/* The original layout marks nothing: an in-place clip against its
	 * source shows the travel taken out; with --root-motion, none. */
	r = test_animc("plot", "--bone", "Bone0", "--track", "translation", "--clip", "Run", "-o", svg, inplace, walker,
		       NULL);
	assert_true(plot_worst(&r) > 0.1);
	r = test_animc("plot", "--bone", "Bone0", "--track", "translation", "--clip", "Run", "--root-motion", "Bone0",
		       "-o", svg, inplace, walker, NULL);
	assert_true(plot_worst(&r) == 0);
	/* ...and the motion file against the motion, named as the build names it. */
	r = test_animc("plot", "--bone", "Bone0", "--track", "translation", "--clip", "Run.motion", "--root-motion",
		       "Bone0", "-o", svg, motion, walker, NULL);
	assert_true(plot_worst(&r) == 0);

	/* --additive-reference against a compact clip that is not additive. */
	r = test_animc("plot", "--bone", "Bone1", "--clip", "Run", "--additive-reference", "first-frame", "-o", svg,
		       compact, walker, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is not additive"));
	test_run_release(&r);
	/* bind takes the rest pose of --skeleton MODEL: refused without one. */
	r = test_animc("plot", "--bone", "Bone1", "--clip", "Run", "--additive-reference", "bind", "-o", svg, compact,
		       walker, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	free(compact), free(motion), free(inplace), free(run), free(plain), free(moved), free(lossy), free(svg);
	free(dir);
}

/* A motion file given with --clip CLIP (the clip's own name, not
 * CLIP.motion): it was compared with CLIP in place.  For a clip that does
 * not animate the --root-motion bone (Nod: its motion file holds the
 * bone still), no bone could be plotted ("no bone 'Bone1'" on one side,
 * the other bone on the other); for one that does, the plot showed the
 * travel as error (0.6 units, 90 degrees).  FILE named as the build names
 * the motion of CLIP is compared with that motion. */
static void plot_takes_a_motion_file_named_so_for_the_motion(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-motion-file"), *svg = test_format("%s/p.svg", dir), *out = test_format("%s/out", dir);
	const char *signals = "testdata/sample/Crane/Signals.xml";
	test_run r = test_animc("build", "-q", "--root-motion", "Bone1", "-o", out, signals, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int k = 0; k < 2; k++) {
		const char *clip = k ? "PulseAndTurn" : "Nod";
		char *motion = test_format("%s/Signals/%s.motion.xnb", out, clip);

		for (int t = 0; t < 2; t++) {
			r = test_animc("plot", "--bone", "Bone1", "--track", t ? "rotation" : "translation", "--clip", clip,
				       "--root-motion", "Bone1", "-o", svg, motion, signals, NULL);
			/* Signals.xml numbers its bones, and no --skeleton names them. */
			const char *said = strstr(r.err, "[numbered-bones]\n");

			said = said ? said + strlen("[numbered-bones]\n") : r.err;
			if (r.status != 0 || said[0] || !strstr(r.err, ": warning: "))
				fail_msg("%s %d: status %d: %s%s", clip, t, r.status, r.out, r.err);
			assert_true(plot_worst(&r) == 0);
		}
		free(motion);
	}
	/* The clip in place is still compared with the clip in place. */
	char *nod = test_format("%s/Signals/Nod.xnb", out);

	r = test_animc("plot", "--bone", "Bone2", "--clip", "Nod", "--root-motion", "Bone1", "-o", svg, nod, signals, NULL);
	assert_true(plot_worst(&r) == 0);
	free(nod), free(out), free(svg), free(dir);
}

/* A source of several clips needed --clip even when FILE is named as the
 * build names one clip's output (Signals/Nod.xnb): that clip is taken,
 * the plot the one --clip gives, and so is the motion file of a clip
 * (Nod.motion.xnb, with --root-motion).  A file named after no clip, or
 * --clip, is as before. */
static void plot_takes_the_clip_its_file_is_named_after(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-named-clip"), *svg = test_format("%s/p.svg", dir), *out = test_format("%s/out", dir);
	char *given = test_format("%s/given.svg", dir), *other = test_format("%s/Other.xnb", dir);
	const char *signals = "testdata/sample/Crane/Signals.xml";
	test_run r = test_animc("build", "-q", "--root-motion", "Bone1", "-o", out, signals, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int k = 0; k < 2; k++) {
		const char *clip = k ? "PulseAndTurn" : "Nod", *bone = k ? "Bone4" : "Bone2";
		char *xnb = test_format("%s/Signals/%s.xnb", out, clip);
		size_t size, given_size;

		r = test_animc("plot", "--bone", bone, "--root-motion", "Bone1", "-o", svg, xnb, signals, NULL);
		if (r.status != 0)
			fail_msg("%s: status %d: %s", clip, r.status, r.err);
		test_run_release(&r);
		r = test_animc("plot", "--bone", bone, "--root-motion", "Bone1", "--clip", clip, "-o", given, xnb,
			       signals, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		uint8_t *bytes = test_read_file(svg, &size), *want = test_read_file(given, &given_size);
		assert_int_equal(size, given_size);
		assert_memory_equal(bytes, want, size);
		free(bytes), free(want), free(xnb);
	}
	char *motion = test_format("%s/Signals/Nod.motion.xnb", out);
	r = test_animc("plot", "--bone", "Bone1", "--track", "translation", "--root-motion", "Bone1", "-o", svg, motion,
		       signals, NULL);
	assert_true(plot_worst(&r) == 0);
	test_sh("cp '%s/Signals/Nod.xnb' '%s'", out, other);
	r = test_animc("plot", "--bone", "Bone2", "-o", svg, other, signals, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "several clips: give --clip NAME; it holds: 'Nod' 'PulseAndTurn'\n"));
	test_run_release(&r);
	free(motion), free(other), free(given), free(out), free(svg), free(dir);
}

/* The motion file of a source of one unnamed clip (Turn.Animation:
 * Turn.motion.xnb, as the build names it) was compared with the clip in
 * place: the travel taken out drawn as error (90 degrees, 0.6 units) and
 * a warning of different clips, unless given --clip motion.  FILE named
 * STEM.motion.xnb is compared with that motion. */
static void plot_takes_the_motion_file_of_a_one_clip_source_for_the_motion(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-stem-motion"), *svg = test_format("%s/p.svg", dir), *out = test_format("%s/out", dir);
	char *motion = test_format("%s/Turn.motion.xnb", out), *in_place = test_format("%s/Turn.xnb", out);
	const char *turn = "testdata/sample/Crane/Turn.Animation";
	test_run r = test_animc("build", "-q", "--root-motion", "Cab", "-o", out, turn, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int t = 0; t < 2; t++) {
		r = test_animc("plot", "--bone", "Cab", "--track", t ? "rotation" : "translation", "--root-motion", "Cab",
			       "-o", svg, motion, turn, NULL);
		if (r.status != 0 || r.err[0])
			fail_msg("%d: status %d: %s%s", t, r.status, r.out, r.err);
		assert_true(plot_worst(&r) == 0);
	}
	/* The clip in place is still compared with the clip in place. */
	r = test_animc("plot", "--bone", "Base", "--root-motion", "Cab", "-o", svg, in_place, turn, NULL);
	if (r.status != 0 || r.err[0])
		fail_msg("status %d: %s%s", r.status, r.out, r.err);
	assert_true(plot_worst(&r) == 0);
	free(in_place), free(motion), free(out), free(svg), free(dir);
}

/* A file built with --scale, --rotate or --skeleton is compared with its
 * source converted alike.  Plot took none of them: a glTF built with
 * --scale 0.01 --rotate 90,0,0 showed 4 units and 90 degrees of error the
 * build never made, and an additive clip built against the model's rest
 * pose (bind) could not be plotted at all. */
static void plot_converts_the_source_as_the_build_did(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-units"), *svg = test_format("%s/p.svg", dir);
	char *turned = test_format("%s/turned", dir), *layered = test_format("%s/layered", dir);
	char *walk = test_format("%s/linear/walk.xnb", turned), *layer = test_format("%s/linear/walk.xnb", layered);
	const char *gltf = "testdata/gltf/linear.gltf";
	test_run r = test_animc("build", "-q", "--scale", "0.01", "--rotate", "90,0,0", "-o", turned, gltf, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--skeleton", gltf, "--additive-reference", "bind", "-o", layered, gltf, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);

	/* Unconverted, the source is another motion; converted, the same. */
	r = test_animc("plot", "--bone", "Root", "--track", "translation", "-o", svg, walk, gltf, NULL);
	assert_true(plot_worst(&r) > 1);
	r = test_animc("plot", "--bone", "Root", "--track", "rotation", "-o", svg, walk, gltf, NULL);
	assert_true(plot_worst(&r) > 89);
	r = test_animc("plot", "--bone", "Root", "--track", "translation", "--scale", "0.01", "--rotate", "90,0,0",
		       "-o", svg, walk, gltf, NULL);
	assert_true(plot_worst(&r) == 0);
	r = test_animc("plot", "--bone", "Root", "--track", "rotation", "--scale", "0.01", "--rotate", "90,0,0", "-o",
		       svg, walk, gltf, NULL);
	assert_true(plot_worst(&r) == 0);

	/* bind: the model's rest pose taken out, as the build took it. */
	r = test_animc("plot", "--bone", "Root", "--track", "translation", "--skeleton", gltf, "--additive-reference",
		       "bind", "-o", svg, layer, gltf, NULL);
	assert_true(plot_worst(&r) == 0);
	r = test_animc("plot", "--bone", "Root", "--track", "translation", "-o", svg, layer, gltf, NULL);
	assert_true(plot_worst(&r) >= 1);

	/* What cannot be: said, exit 2, nothing written. */
	assert_int_equal(unlink(svg), 0);
	const char *const refused[][4] = {
		{ "--additive-reference", "bind", NULL, "--skeleton MODEL" },
		{ "--relative-to-bind", NULL, NULL, "--skeleton MODEL" },
		{ "--scale", "0", NULL, "--scale '0'" },
		{ "--rotate", "90,0", NULL, "--rotate '90,0'" },
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		if (refused[i][1])
			r = test_animc("plot", "--bone", "Root", refused[i][0], refused[i][1], "-o", svg, walk, gltf, NULL);
		else
			r = test_animc("plot", "--bone", "Root", refused[i][0], "-o", svg, walk, gltf, NULL);
		assert_int_equal(r.status, 2);
		if (!strstr(r.err, refused[i][3]))
			fail_msg("%s: %s", refused[i][0], r.err);
		test_run_release(&r);
	}
	/* A compiled SOURCE is converted already. */
	r = test_animc("plot", "--bone", "Root", "--scale", "0.01", "-o", svg, walk, walk, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--scale applies to a source file only"));
	test_run_release(&r);
	assert_false(test_file_exists(svg));
	/* A RobotGame source turns as the build turned it, with no model (no
	 * root to find: every bone turns). */
	char *crane = test_format("%s/crane", dir), *turn = test_format("%s/Turn.xnb", crane);
	r = test_animc("build", "-q", "--rotate", "90,0,0", "-o", crane, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Cab", "--track", "rotation", "--rotate", "90,0,0", "-o", svg, turn,
		       "testdata/sample/Crane/Turn.Animation", NULL);
	assert_true(plot_worst(&r) == 0);
	r = test_animc("plot", "--bone", "Cab", "--track", "rotation", "-o", svg, turn,
		       "testdata/sample/Crane/Turn.Animation", NULL);
	assert_true(plot_worst(&r) > 1);
	/* A layer made with --skeleton's rest pose under --rotate and
	 * --scale: plot takes the model in the build's units (it took it
	 * unconverted, and drew degrees of error the build never made). */
	char *bind = test_format("%s/bind", dir), *idle = test_format("%s/Walker/Idle.xnb", bind);
	r = test_animc("build", "-q", "--skeleton", "testdata/authoring/Walker_rest.gltf", "--additive-reference", "bind",
		       "--rotate", "20,30,40", "--scale", "0.5", "--clip", "Idle", "-o", bind,
		       "testdata/authoring/Walker.xml", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int track = 0; track < 2; track++) {
		r = test_animc("plot", "--bone", "Arm", "--track", track ? "rotation" : "translation", "--clip", "Idle",
			       "--skeleton", "testdata/authoring/Walker_rest.gltf", "--additive-reference", "bind",
			       "--rotate", "20,30,40", "--scale", "0.5", "-o", svg, idle, "testdata/authoring/Walker.xml",
			       NULL);
		assert_true(plot_worst(&r) < 1e-4);
	}
	free(idle), free(bind);
	free(crane), free(turn);
	free(layer), free(walk), free(layered), free(turned), free(svg), free(dir);
}

/* --rotate on a source of several clips: each is converted (a reference
 * clip may be one), and only the clip plotted is said of: plotting body
 * does not say that a turn off the axes shears the scale clip head
 * animates, a warning about another clip. */
static void plot_speaks_of_the_clip_it_plots(void **state)
{
	static const char two_clips[] =
		"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"Root\",\"children\":[1]},{\"name\":\"Hea"
		"d\"}],\"scenes\":[{\"nodes\":[0]}],\"scene\":0,\"buffers\":[{\"byteLength\":32,\"uri\":\"data:ap"
		"plication/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAA=\"}],\"bufferViews\":["
		"{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":2"
		"4}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"mi"
		"n\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],\""
		"animations\":[{\"name\":\"body\",\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"samp"
		"ler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]},{\"name\":\"head\",\"samplers\":[{\""
		"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"scale"
		"\"}}]}]}";
	char *dir = test_tmpdir("plot-clip-said"), *gltf = test_format("%s/two.gltf", dir);
	char *out = test_format("%s/out", dir), *svg = test_format("%s/p.svg", dir);
	char *body = test_format("%s/two/body.xnb", out), *head = test_format("%s/two/head.xnb", out);
	test_run r;

	(void)state;
	assert_true(test_write_file(gltf, two_clips, sizeof two_clips - 1));
	r = test_animc("build", "-q", "--rotate", "0,0,45", "-o", out, gltf, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "clip 'head': bone 'Head': the rotation turns"));
	assert_non_null(strstr(r.err, "[sheared-scale]"));
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Root", "--clip", "body", "--track", "translation", "--rotate", "0,0,45", "-o",
		       svg, body, gltf, NULL);
	assert_int_equal(r.status, 0);
	if (strstr(r.err, "clip 'head'"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Head", "--clip", "head", "--track", "scale", "--rotate", "0,0,45",
		       "-o", svg, head, gltf, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "clip 'head': bone 'Head': the rotation turns"));
	test_run_release(&r);
	free(head), free(body), free(svg), free(out), free(gltf), free(dir);
}

/* A compiled SOURCE opens as COMPILED does: a compact one decoded, one
 * written with --reader-name read with it; the options that cut a source
 * into clips are refused for it. */
static void plot_opens_a_compiled_source_as_the_compiled_file(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-compiled-source");
	char *compact = test_format("%s/compact", dir), *custom = test_format("%s/custom", dir);
	char *cxnb = test_format("%s/sway.xnb", compact), *rxnb = test_format("%s/sway.xnb", custom);
	char *svg = test_format("%s/out.svg", dir);
	test_run r = test_animc("build", "-q", "--layout", "compact", "-o", compact, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--reader-name", "My.Reader", "-o", custom, SWAY, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);

	/* Compact as both files: the same clip, no error. */
	r = test_animc("plot", "--bone", "Spine", "-o", svg, cxnb, cxnb, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "worst error 0 degrees"));
	test_run_release(&r);

	/* A reader the options do not take: refused, naming the option... */
	r = test_animc("plot", "--bone", "Spine", "-o", svg, rxnb, rxnb, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "--reader-name NAME"));
	test_run_release(&r);
	/* ...which reads both files. */
	r = test_animc("plot", "--bone", "Spine", "--reader-name", "My.Reader", "-o", svg, rxnb, rxnb, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "worst error 0 degrees"));
	test_run_release(&r);

	const char *cut[][2] = { { "--clip", "Nope" }, { "--split", "Part=0:1" }, { "--clips", "parts.txt" },
				 { "--root-motion", "Root" }, { "--additive-reference", "first-frame" } };
	for (size_t i = 0; i < 5; i++) {
		char *want = test_format("animc plot: %s applies to a source file only, and '%s' is a compiled file\n",
					 cut[i][0], cxnb);

		assert_true(unlink(svg) == 0 || i > 0);
		r = test_animc("plot", "--bone", "Spine", cut[i][0], cut[i][1], "-o", svg, cxnb, cxnb, NULL);
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, want));
		assert_false(test_file_exists(svg));
		test_run_release(&r);
		free(want);
	}
	free(svg), free(rxnb), free(cxnb), free(custom), free(compact), free(dir);
}

/* Names that are not plain text (from the file, from the command line)
 * keep the SVG well-formed UTF-8 and the summary line free of control
 * characters. */
static void plot_writes_any_name_as_text(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-names");
	char *xnb = test_format("%s/bad\xffname.xnb", dir), *svg = test_format("%s/p\x1b.svg", dir);
	size_t size;
	uint8_t *bytes = test_read_file(ODD_NAMES, &size);

	assert_true(test_write_file(xnb, bytes, size));
	test_run r = test_animc("plot", "--bone", "\x1b[31mred", "-o", svg, xnb, xnb, NULL);
	assert_int_equal(r.status, 0);
	char *want = test_format("%s/p\\x1b.svg: rotation of '\\x1b[31mred', worst error 0 degrees at 0 s\n", dir);
	assert_string_equal(r.out, want);
	test_run_release(&r);
	free(want);

	char *text = (char *)test_read_file(svg, &size);
	assert_null(memchr(text, 0xff, size));
	assert_null(memchr(text, 0x1b, size));
	assert_non_null(strstr(text, "<title>?[31mred rotation: "));
	assert_non_null(strstr(text, "/bad\xEF\xBF\xBDname.xnb against "));
	free(text);
	r = test_exec("xmllint", "--noout", svg, NULL);
	if (r.status != 127) {   /* xmllint is there */
		assert_string_equal(r.err, "");
		assert_int_equal(r.status, 0);
	}
	test_run_release(&r);
	r = test_exec("python3", "-c", "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])", svg, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(bytes), free(svg), free(xnb), free(dir);
}

/* -o names a file: a missing folder is an error naming it, and none is
 * made. */
static void plot_makes_no_folders(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-folders");
	char *missing = test_format("%s/missing", dir), *svg = test_format("%s/missing/a/b.svg", dir);
	test_run r = test_animc("plot", "--bone", "Root", "-o", svg, UNIFORM, UNIFORM, NULL);

	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	char *want = test_format("%s: error: cannot write: no folder '%s/missing/a/'", svg, dir);
	assert_non_null(strstr(r.err, want));
	assert_false(test_file_exists(missing));
	test_run_release(&r);
	free(want);

	char *in_file = test_format("%s/b.svg", UNIFORM);
	r = test_animc("plot", "--bone", "Root", "-o", in_file, UNIFORM, UNIFORM, NULL);
	assert_int_equal(r.status, 1);
	want = test_format("%s: error: cannot write: '%s/' is not a folder\n", in_file, UNIFORM);
	assert_string_equal(r.err, want);
	test_run_release(&r);
	free(want), free(in_file), free(svg), free(missing), free(dir);
}

/* -o naming an input, by any path to it (another spelling, a symbolic or a
 * hard link), is a usage error before anything is written: the source and
 * the compiled file keep their bytes. */
static void plot_refuses_an_input_as_its_output(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-onto-input");
	char *src = test_format("%s/sway.Animation", dir), *xnb = test_format("%s/sway.xnb", dir);
	char *keep_src = test_format("%s/keep/sway.Animation", dir), *keep_xnb = test_format("%s/keep/sway.xnb", dir);
	char *sym = test_format("%s/to-source.svg", dir), *hard = test_format("%s/compiled.svg", dir);
	char *respelt = test_format("%s/keep/../sway.Animation", dir), *keep = test_format("%s/keep", dir);
	char *svg = test_format("%s/p.svg", dir);
	size_t size;
	uint8_t *bytes = test_read_file(SWAY, &size);

	assert_true(test_write_file(src, bytes, size));
	free(bytes);
	test_run r = test_animc("build", "-q", "-o", dir, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", keep, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	bytes = test_read_file(src, &size);
	assert_true(test_write_file(keep_src, bytes, size));
	free(bytes);
	assert_int_equal(symlink("sway.Animation", sym), 0);
	assert_int_equal(link(xnb, hard), 0);

	const char *outputs[] = { src, xnb, respelt, sym, hard };
	for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++) {
		r = test_animc("plot", "--bone", "Root", "-o", outputs[i], xnb, src, NULL);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, i == 1 || i == 4 ? "is the compiled file" : "is the source"));
		test_run_release(&r);
		assert_true(test_same_bytes(src, keep_src));
		assert_true(test_same_bytes(xnb, keep_xnb));
	}
	/* The symbolic link is still a link, to the source. */
	char target[4096];
	ssize_t n = readlink(sym, target, sizeof target - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "sway.Animation");
	/* Another output is written. */
	r = test_animc("plot", "--bone", "Root", "-o", svg, xnb, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(svg), free(keep), free(respelt), free(hard), free(sym), free(keep_xnb), free(keep_src), free(xnb), free(src), free(dir);
}

/* The other files plot reads are inputs too: -o naming the --skeleton
 * model, the --clips document or the source's clip-split sidecar wrote the
 * SVG over it, exit 0. */
static void plot_refuses_a_model_or_clip_document_as_its_output(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-onto-model"), *model = test_format("%s/Crane.x", dir);
	char *walker = test_format("%s/Walker.xml", dir), *sidecar = test_format("%s/Walker_Anims.xml", dir);
	char *doc = test_format("%s/doc.xml", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.xnb", out), *part = test_format("%s/Walker/Run.xnb", out);
	const char *const copies[][2] = { { "testdata/sample/Crane/Crane.x", model },
					  { "testdata/authoring/Walker.xml", walker },
					  { "testdata/authoring/Walker_Anims.xml", sidecar },
					  { "testdata/authoring/Walker_Anims.xml", doc } };
	uint8_t *bytes[4];
	size_t sizes[4];
	test_run r;

	for (size_t i = 0; i < 4; i++) {
		bytes[i] = test_read_file(copies[i][0], &sizes[i]);
		assert_true(test_write_file(copies[i][1], bytes[i], sizes[i]));
	}
	r = test_animc("build", "-q", "-o", out, "testdata/sample/Crane/Turn.Animation", walker, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	const char *const runs[][12] = {
		{ "plot", "--bone", "Cab", "-o", model, "--skeleton", model, turn, "testdata/sample/Crane/Turn.Animation" },
		{ "plot", "--bone", "Hips", "--clip", "Run", "-o", doc, "--clips", doc, part, walker },
		{ "plot", "--bone", "Hips", "--clip", "Run", "-o", sidecar, part, walker },
	};
	const char *const what[] = { "is the --skeleton model", "is the --clips document", "is the clip-split sidecar" };
	for (size_t i = 0; i < 3; i++) {
		const char *argv[14] = { test_animc_path() };

		memcpy(argv + 1, runs[i], sizeof runs[i]);
		r = test_execv(argv);
		assert_int_equal(r.status, 2);
		if (!strstr(r.err, what[i]))
			fail_msg("%s: %s", what[i], r.err);
		test_run_release(&r);
	}
	/* A file an import reads that plot cannot know of (a glTF's buffer),
	 * or any other that is no SVG: plot replaces an SVG only. */
	char *buffer = test_format("%s/wag data.bin", dir), *svg = test_format("%s/p.svg", dir);
	size_t buffer_size;
	uint8_t *buffer_bytes = test_read_file("testdata/gltf/wag data.bin", &buffer_size);
	assert_true(test_write_file(buffer, buffer_bytes, buffer_size));
	r = test_animc("plot", "--bone", "Cab", "-o", buffer, turn, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is no SVG"));
	test_run_release(&r);
	assert_true(test_same_bytes(buffer, "testdata/gltf/wag data.bin"));
	for (int k = 0; k < 2; k++) {   /* written, then replaced */
		r = test_animc("plot", "--bone", "Cab", "-o", svg, turn, "testdata/sample/Crane/Turn.Animation", NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
	}
	free(buffer_bytes), free(svg), free(buffer);
	for (size_t i = 0; i < 4; i++) {
		size_t size;
		uint8_t *now = test_read_file(copies[i][1], &size);

		assert_int_equal(size, sizes[i]);
		assert_memory_equal(now, bytes[i], size);
		free(now), free(bytes[i]);
	}
	free(part), free(turn), free(out), free(doc), free(sidecar), free(walker), free(model), free(dir);
}

/* -o - writes the SVG onto the standard output, whole, and the line for a
 * person onto stderr; no file named '-' is made.  A standard output that
 * cannot be written fails the plot, saying so. */
static void plot_to_dash_writes_the_standard_output(void **state)
{
	(void)state;
	char *dir = test_tmpdir("plot-stdout"), *dash = test_format("%s/-", dir);
	char cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *uniform = test_format("%s/%s", cwd, UNIFORM);
	const char *bin = test_animc_path();
	char *animc = bin[0] == '/' ? test_format("%s", bin) : test_format("%s/%s", cwd, bin);
	test_run r = test_exec("sh", "-c", "cd \"$1\" && exec \"$2\" plot --bone Root -o - \"$3\" \"$3\"", "sh", dir,
			       animc, uniform, NULL);

	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "<?xml", 5) == 0);
	assert_non_null(strstr(r.out, "</svg>\n"));
	assert_string_equal(strstr(r.out, "</svg>\n"), "</svg>\n");
	assert_string_equal(r.err, "standard output: rotation of 'Root', worst error 0 degrees at 0 s\n");
	assert_false(test_file_exists(dash));
	test_run_release(&r);
	r = test_exec("sh", "-c", "exec \"$1\" plot --bone Root -o - \"$2\" \"$2\" >/dev/full", "sh", animc, uniform,
		      NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "error writing standard output"));
	assert_null(strstr(r.err, "worst error"));
	test_run_release(&r);
	free(animc), free(uniform), free(dash), free(dir);
}

/* Put `n` bytes at *at, moving it on. */
static void put(uint8_t **at, const void *bytes, size_t n)
{
	memcpy(*at, bytes, n);
	*at += n;
}

/* A valid compiled file (the loader takes it) whose translation keys lie
 * further apart than a float holds: -3e38 and 3e38.  Between them the track
 * overflows: the plot says so, naming the bone and the track, and writes no
 * SVG of non-numbers. */
static void plot_refuses_a_track_that_is_not_finite(void **state)
{
	(void)state;
	static const char reader[] = "RobotGameData.GameObject.AnimationReader, RobotGameData, Version=1.0.0.0, "
				     "Culture=neutral";
	const int32_t one = 1, two = 2, zero = 0;
	const float keys[6] = { -3e38f, 0, 0, 3e38f, 0, 0 }, second = 1.0f;
	const uint8_t flags[7] = { 1, 0, 0, 0, 0, 0, 0 };
	uint8_t file[512], *at = file + 10, len;
	char *dir = test_tmpdir("plot-overflow"), *xnb = test_format("%s/far.xnb", dir);
	char *svg = test_format("%s/p.svg", dir);

	put(&at, "\x01", 1);                                   /* one type reader */
	len = (uint8_t)strlen(reader);
	put(&at, &len, 1), put(&at, reader, len), put(&at, &zero, 4);
	put(&at, "\x00\x01", 2);                               /* no shared resources; object 1 */
	put(&at, &one, 4), put(&at, &second, 4);               /* one sequence, 1 s */
	put(&at, "\x04" "Bone", 5), put(&at, &two, 4), put(&at, &second, 4), put(&at, &second, 4);
	put(&at, flags, sizeof flags);                         /* translation only, uniform keys */
	put(&at, &two, 4), put(&at, keys, sizeof keys);
	put(&at, &zero, 4), put(&at, &zero, 4), put(&at, &zero, 4);
	uint32_t size = (uint32_t)(at - file);
	memcpy(file, "XNBw\x05\x00", 6);
	memcpy(file + 6, &size, 4);
	assert_true(test_write_file(xnb, file, size));
	test_run r = test_animc("dump", xnb, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);

	r = test_animc("plot", "--bone", "Bone", "--track", "translation", "-o", svg, xnb, xnb, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	char *want = test_format("%s: error: the translation of bone 'Bone' is not finite at ", xnb);
	if (strncmp(r.err, want, strlen(want)) != 0)
		fail_msg("%s", r.err);
	assert_false(test_file_exists(svg));
	test_run_release(&r);
	free(want), free(svg), free(xnb), free(dir);
}

/* The scale track has no unit: "worst error 0 at", one space; and a track
 * with as many keys compiled as in its source gives no reason why. */
static void a_scale_plot_reads_without_a_unit(void **state)
{
	char *dir = test_tmpdir("plot-scale"), *svg = test_format("%s/s.svg", dir);
	test_run r = test_animc("plot", "--bone", "Base", "--track", "scale", "-o", svg, "testdata/loader/crane-turn.xnb",
				"testdata/sample/Crane/Turn.Animation", NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "scale of 'Base', worst error 0 at 0 s\n"));
	test_run_release(&r);
	char *text = (char *)test_read_file(svg, NULL);
	assert_non_null(strstr(text, ">worst 0 at 0 s; bound"));
	assert_null(strstr(text, "resamples the track"));
	free(text), free(svg), free(dir);
}

/* A panel whose values span less than its labels' four digits read
 * "1.419" at its top and at its bottom: an error of 0.00023 units filled
 * it, and the axis could not say how small it was.  The labels carry the
 * digits that tell them apart. */
static void a_narrow_panel_has_labels_that_differ(void **state)
{
	TEST_NEEDS_CORPUS();
	char *dir = test_tmpdir("plot-narrow"), *svg = test_format("%s/p.svg", dir), *out = test_format("%s/out", dir);
	char *src = test_format("%s/robotgame/Hammer/Walk.Animation", test_corpus_dir());
	char *xnb = test_format("%s/Walk.xnb", out), *text;
	test_run r;
	size_t panels = 0;

	(void)state;
	r = test_animc("build", "-q", "--layout", "compact", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "L Calf", "--track", "translation", "-o", svg, xnb, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	text = (char *)test_read_file(svg, NULL);
	for (const char *p = text; (p = strstr(p, "text-anchor=\"end\">")); panels++) {
		const char *hi = p + 18, *q = strstr(hi, "text-anchor=\"end\">");

		assert_non_null(q);
		const char *lo = q + 18;
		size_t hi_len = strcspn(hi, "<"), lo_len = strcspn(lo, "<");

		if (hi_len == lo_len && strncmp(hi, lo, hi_len) == 0)
			fail_msg("panel %zu reads %.*s at its top and its bottom", panels + 1, (int)hi_len, hi);
		p = lo;
	}
	assert_int_equal(panels, 4);
	free(text), free(xnb), free(src), free(out), free(svg), free(dir);
}

/* A RobotGame clip of one bone, Hips, whose translation's keys (X Y Z at
 * 0, 0.5 and 1 s) are `keys`. */
static void write_hips_clip(const char *path, const char *keys)
{
	char *xml = test_format("<?xml version=\"1.0\"?>\n<AnimationSequence><KeyFrameSequenceCount>1</KeyFrameSequenceCount>"
				"<Duration>1</Duration><KeyFrameSequences><KeyFrameSequence><BoneName>Hips</BoneName>"
				"<KeyCount>3</KeyCount><Duration>1</Duration><KeyInterval>0.5</KeyInterval>"
				"<HasTranslation>true</HasTranslation><HasRotation>false</HasRotation>"
				"<HasScale>false</HasScale><HasTime>false</HasTime><FixedTranslation>false"
				"</FixedTranslation><FixedRotation>false</FixedRotation><FixedScale>false</FixedScale>"
				"<Translation>%s</Translation><Rotation/><Scale/><Time/></KeyFrameSequence>"
				"</KeyFrameSequences></AnimationSequence>\n", keys);

	assert_true(test_write_file(path, xml, strlen(xml)));
	free(xml);
}

/* A value panel of a plot as a reader takes it: where its box starts, the
 * values its axis's top and bottom labels read, and the highest and lowest
 * points of its source curve (in pixels).  *at moves past the panel. */
typedef struct read_panel {
	double top, label_hi, label_lo, curve_min_y, curve_max_y;
} read_panel;

static read_panel next_panel(const char **at)
{
	read_panel p = { 0, 0, 0, INFINITY, -INFINITY };
	const char *rect = strstr(*at, "fill=\"#fbfbfb\""), *label;

	assert_non_null(rect);
	while (strncmp(rect, "<rect", 5) != 0)
		rect--;
	assert_int_equal(sscanf(rect, "<rect x=\"%*f\" y=\"%lf\"", &p.top), 1);
	label = strstr(rect, "text-anchor=\"end\">");
	assert_non_null(label);
	p.label_hi = strtod(label + 18, NULL);
	label = strstr(label + 18, "text-anchor=\"end\">");
	assert_non_null(label);
	p.label_lo = strtod(label + 18, NULL);
	char *points = strstr(strstr(label, "class=\"source\""), "points=\"") + 8;
	while (*points != '"') {   /* "x,y x,y ..." */
		strtod(points, &points);
		assert_int_equal(*points, ',');
		double y = strtod(points + 1, &points);

		p.curve_min_y = fmin(p.curve_min_y, y);
		p.curve_max_y = fmax(p.curve_max_y, y);
	}
	*at = points;
	return p;
}

/* The value at pixel row y read off a panel's axis, from its labels (the
 * top label at the box's top, the bottom one at its bottom: 132 pixels). */
static double read_off(const read_panel *p, double y)
{
	return p->label_lo + (p->top + 132 - y) / 132 * (p->label_hi - p->label_lo);
}

/* The value axis's labels are where it ends: a value read off the axis is
 * the value plotted, to a small part of the span.  They were rounded to as
 * few digits as told them apart: x from 100 to 100.05 (an axis from 99.997
 * to 100.053) read "100" to "100.1", its peak 100.095; a constant
 * 14187.15 (an axis of 14186.65 to 14187.65) read "14187" to "14188", the
 * curve 14187.5. */
static void plot_axis_labels_read_true(void **state)
{
	char *dir = test_tmpdir("plot-axis"), *src = test_format("%s/Bob.Animation", dir);
	char *xnb = test_format("%s/out/Bob.xnb", dir), *out = test_format("%s/out", dir);
	char *svg = test_format("%s/p.svg", dir);
	const char *at;

	(void)state;
	write_hips_clip(src, "<Vector3><X>100</X><Y>14187.15</Y><Z>0</Z></Vector3>"
			     "<Vector3><X>100.05</X><Y>14187.15</Y><Z>0</Z></Vector3>"
			     "<Vector3><X>100</X><Y>14187.15</Y><Z>0</Z></Vector3>");
	test_run r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Hips", "--track", "translation", "-o", svg, xnb, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *text = (char *)test_read_file(svg, NULL);
	at = text;
	read_panel x = next_panel(&at), y = next_panel(&at);
	double x_span = x.label_hi - x.label_lo, y_span = y.label_hi - y.label_lo;

	/* The spans the labels state are the drawn ones, 0.056 and 1. */
	assert_true(fabs(x_span - 0.056) <= 0.01 * 0.056);
	assert_true(fabs(y_span - 1) <= 0.01);
	if (fabs(read_off(&x, x.curve_min_y) - 100.05) > 0.01 * x_span ||
	    fabs(read_off(&x, x.curve_max_y) - 100) > 0.01 * x_span)
		fail_msg("x reads %.6g .. %.6g off its axis (labels %.9g .. %.9g)", read_off(&x, x.curve_max_y),
			 read_off(&x, x.curve_min_y), x.label_lo, x.label_hi);
	if (fabs(read_off(&y, y.curve_min_y) - 14187.15) > 0.01 * y_span)
		fail_msg("y reads %.9g off its axis (labels %.9g .. %.9g)", read_off(&y, y.curve_min_y), y.label_lo,
			 y.label_hi);
	free(text), free(svg), free(out), free(xnb), free(src), free(dir);
}

/* A rotation sequence of `bone` turning about z from none to (0, 0, z, w)
 * over 1 s, as RobotGame XML. */
static char *turn_sequence(const char *bone, const char *z, const char *w)
{
	return test_format("<KeyFrameSequence><BoneName>%s</BoneName><KeyCount>2</KeyCount><Duration>1</Duration>"
			   "<KeyInterval>1</KeyInterval><HasTranslation>false</HasTranslation><HasRotation>true"
			   "</HasRotation><HasScale>false</HasScale><HasTime>false</HasTime><FixedTranslation>false"
			   "</FixedTranslation><FixedRotation>false</FixedRotation><FixedScale>false</FixedScale>"
			   "<Translation/><Rotation><Quaternion><X>0</X><Y>0</Y><Z>0</Z><W>1</W></Quaternion>"
			   "<Quaternion><X>0</X><Y>0</Y><Z>%s</Z><W>%s</W></Quaternion></Rotation><Scale/><Time/>"
			   "</KeyFrameSequence>", bone, z, w);
}

/* Two sequences named Arm: the runtime binds the later one, whose values
 * play (11.5 degrees, then 90).  plot drew the first, saying nothing; it
 * draws the one that plays and says that the name repeats, for a source
 * and for a compiled file as the source alike. */
static void plot_draws_the_sequence_that_plays(void **state)
{
	char *dir = test_tmpdir("plot-repeated"), *src = test_format("%s/Dup.Animation", dir);
	char *out = test_format("%s/out", dir), *xnb = test_format("%s/Dup.xnb", out);
	char *svg = test_format("%s/p.svg", dir);
	char *first = turn_sequence("Arm", "0.0998334", "0.9950042"), *last = turn_sequence("Arm", "0.7071068", "0.7071068");
	char *xml = test_format("<?xml version=\"1.0\"?>\n<AnimationSequence><KeyFrameSequenceCount>2</KeyFrameSequenceCount>"
				"<Duration>1</Duration><KeyFrameSequences>%s%s</KeyFrameSequences></AnimationSequence>\n",
				first, last);

	(void)state;
	assert_true(test_write_file(src, xml, strlen(xml)));
	test_run r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	const char *const sources[] = { src, xnb };
	for (int i = 0; i < 2; i++) {
		r = test_animc("plot", "--bone", "Arm", "-o", svg, xnb, sources[i], NULL);
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.err, "animc plot: warning: 2 sequences of the compiled file and 2 of the source "
					      "are named 'Arm': plotted is the last"));
		test_run_release(&r);
		char *text = (char *)test_read_file(svg, NULL);
		const char *at = text;
		read_panel p[3];

		for (int c = 0; c < 3; c++)
			p[c] = next_panel(&at);
		/* z ends at 0.7071, where the curve is highest. */
		double z = read_off(&p[2], p[2].curve_min_y);
		if (fabs(z - 0.7071068) > 0.01 * (p[2].label_hi - p[2].label_lo))
			fail_msg("z reads %.6g at its highest", z);
		assert_non_null(strstr(text, "class=\"warning\""));
		assert_non_null(strstr(text, "named 'Arm': plotted is the last"));
		free(text);
	}
	free(xml), free(last), free(first), free(svg), free(xnb), free(out), free(src), free(dir);
}

/* -o replaces a file whose root element is <svg> only.  Any file with
 * "<svg" in its first kilobyte was taken for one: an HTML page with an
 * inline icon, an XML file with an example in a comment, a README were
 * replaced by the plot.  An SVG behind a declaration, a comment and a
 * DOCTYPE is still one. */
static void plot_replaces_an_svg_only(void **state)
{
	static const char *const not_svg[] = {
		"<!DOCTYPE html>\n<html><body><p><svg width=\"8\" height=\"8\"><circle r=\"4\"/></svg> notes</p></body></html>\n",
		"<?xml version=\"1.0\"?>\n<!-- an icon: <svg width=\"8\"/> -->\n<notes><svg-like/></notes>\n",
		"# Plots\n\nA plot is an `<svg>` element:\n\n    <svg xmlns=\"http://www.w3.org/2000/svg\">\n",
		"<svgs><svg/></svgs>\n",
	};
	static const char svg_text[] = "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- drawn by hand -->\n"
				       "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" [ <!ENTITY a \"b\"> ]>\n"
				       "<svg\n xmlns=\"http://www.w3.org/2000/svg\"/>\n";
	char *dir = test_tmpdir("plot-svg-only"), *out = test_format("%s/page", dir);
	test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof not_svg / sizeof *not_svg; i++) {
		assert_true(test_write_file(out, not_svg[i], strlen(not_svg[i])));
		r = test_animc("plot", "--bone", "Root", "-o", out, UNIFORM, UNIFORM, NULL);
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "is no SVG"));
		test_run_release(&r);
		size_t size;
		char *now = (char *)test_read_file(out, &size);
		assert_int_equal(size, strlen(not_svg[i]));
		assert_memory_equal(now, not_svg[i], size);
		free(now);
	}
	assert_true(test_write_file(out, svg_text, strlen(svg_text)));
	r = test_animc("plot", "--bone", "Root", "-o", out, UNIFORM, UNIFORM, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *text = (char *)test_read_file(out, NULL);
	assert_non_null(strstr(text, "class=\"source\""));
	free(text), free(out), free(dir);
}

/* A panel's name (x, y, z, w, error; 13 pixels, bold) and its axis labels
 * (10 pixels) share the left margin: the name sat on the top label's line,
 * and read as one word with it ("error0.00115").  Every name is on lines
 * of its own. */
static void panel_names_stand_apart_from_axis_labels(void **state)
{
	char *dir = test_tmpdir("plot-names"), *svg = test_format("%s/p.svg", dir);
	test_run r = test_animc("plot", "--bone", "Root", "--track", "translation", "--tolerance", "1e30,1,1", "-o", svg,
				UNIFORM, UNIFORM, NULL);
	size_t names = 0;

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *text = (char *)test_read_file(svg, NULL);
	for (const char *n = text; (n = strstr(n, "font-size=\"13\" font-weight=\"bold\">")); n++, names++) {
		const char *start = n;

		while (strncmp(start, "<text", 5) != 0)
			start--;
		double name_y = strtod(strstr(start, "y=\"") + 3, NULL);
		for (const char *l = text; (l = strstr(l, "font-size=\"10\" text-anchor=\"end\">")); l++) {
			const char *at = l;

			while (strncmp(at, "<text", 5) != 0)
				at--;
			double label_y = strtod(strstr(at, "y=\"") + 3, NULL);
			/* Baselines: the name's 13 pixels above it, a label's 10. */
			if (name_y - 13 < label_y && label_y - 10 < name_y)
				fail_msg("the name '%.*s' (at y %g) and the label '%.*s' (at y %g) share a line",
					 (int)strcspn(n + 34, "<"), n + 34, name_y, (int)strcspn(l + 33, "<"), l + 33,
					 label_y);
		}
	}
	assert_int_equal(names, 4);   /* x y z error */
	free(text), free(svg), free(dir);
}

/* A SOURCE that is no file is said as what it is, exit 1: a socket said
 * "cannot open: No such device or address". */
static void plot_says_what_a_source_that_is_no_file_is(void **state)
{
	char *dir = test_tmpdir("plot-no-file"), *xnb = test_format("%s/sway.xnb", dir);
	char *svg = test_format("%s/sway.svg", dir), *sock = test_format("%s/sock", dir);
	char *want = test_format("%s: error: is a socket, not a regular file; not read\n", sock);
	test_run r = test_animc("build", "-q", "-o", dir, SWAY, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	setenv("DIR", dir, 1);
	/* Bound from its folder: a socket's path is short. */
	r = test_exec("sh", "-c", "cd \"$DIR\" && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"sock\")'",
		      NULL);
	unsetenv("DIR");
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Spine", "-o", svg, xnb, sock, NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want);
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Spine", "-o", svg, xnb, "/dev/null", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "/dev/null: error: is a character device, not a regular file; not read\n");
	test_run_release(&r);
	r = test_animc("plot", "--bone", "Spine", "-o", svg, xnb, dir, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, ": error: is a folder\n"));
	test_run_release(&r);
	assert_false(test_file_exists(svg));
	free(want), free(sock), free(svg), free(xnb), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_scale_plot_reads_without_a_unit),
	cmocka_unit_test(a_narrow_panel_has_labels_that_differ),
	cmocka_unit_test(plot_axis_labels_read_true),
	cmocka_unit_test(plot_draws_the_sequence_that_plays),
	cmocka_unit_test(plot_replaces_an_svg_only),
	cmocka_unit_test(panel_names_stand_apart_from_axis_labels),
	cmocka_unit_test(plot_draws_tracks_keys_and_the_error_band),
	cmocka_unit_test(plot_reads_the_original_layout_and_compiled_sources),
	cmocka_unit_test(plot_heading_is_short_and_explains_the_key_count),
	cmocka_unit_test(plot_names_a_piped_compiled_file_as_a_pipe),
	cmocka_unit_test(plot_warns_when_the_source_is_another_clip),
	cmocka_unit_test(plot_names_what_is_missing),
	cmocka_unit_test(plot_stops_an_import_that_loops_or_crashes),
	cmocka_unit_test(plot_says_when_the_import_runs_out_of_memory),
	cmocka_unit_test(plot_cuts_the_source_into_parts),
	cmocka_unit_test(plot_compares_authored_outputs_with_their_source_made_alike),
	cmocka_unit_test(plot_takes_a_motion_file_named_so_for_the_motion),
	cmocka_unit_test(plot_takes_the_clip_its_file_is_named_after),
	cmocka_unit_test(plot_takes_the_motion_file_of_a_one_clip_source_for_the_motion),
	cmocka_unit_test(plot_converts_the_source_as_the_build_did),
	cmocka_unit_test(plot_speaks_of_the_clip_it_plots),
	cmocka_unit_test(plot_opens_a_compiled_source_as_the_compiled_file),
	cmocka_unit_test(plot_writes_any_name_as_text),
	cmocka_unit_test(plot_makes_no_folders),
	cmocka_unit_test(plot_refuses_an_input_as_its_output),
	cmocka_unit_test(plot_refuses_a_model_or_clip_document_as_its_output),
	cmocka_unit_test(plot_to_dash_writes_the_standard_output),
	cmocka_unit_test(plot_refuses_a_track_that_is_not_finite),
	cmocka_unit_test(plot_says_what_a_source_that_is_no_file_is),
};

ANIMC_TEST_GROUP(tests);
