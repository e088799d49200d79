/*
 * mgcb_cli_test.c - MonoGame content projects (animc build --mgcb):
 * testdata/mgcb/Content.mgcb holds a texture, a font, a skinned model with
 * Scale and RotationX, and two RobotGame clips given destinations.  Outputs
 * land at MGCB's paths, parameters and /platform: reach the bytes, other
 * items are skipped, the build is incremental with the project as a
 * dependency, and errors name the project's line.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"

#define PROJECT "testdata/mgcb/Content.mgcb"

static const char *const outputs[] = { "Models/hero/kick.xnb", "Animations/Turn.xnb",
					"Animations/Crane/Wave.xnb" };

static void items_land_at_mgcb_paths(void **state)
{
	char *out = test_tmpdir("mgcb-build"), *one = test_tmpdir("mgcb-one");
	char *report = test_format("%s/report.json", one);
	test_run r;

	(void)state;
	r = test_animc("build", "-v", "--progress", "never", "--mgcb", PROJECT, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	/* The texture, the font and the copied file are listed as skipped. */
	assert_non_null(strstr(r.out, "skipped testdata/mgcb/Textures/hero.png"));
	assert_non_null(strstr(r.out, "skipped testdata/mgcb/Fonts/Arial.spritefont"));
	assert_non_null(strstr(r.out, "skipped testdata/mgcb/Data/levels.txt (a /copy: item"));
	assert_non_null(strstr(r.out, "compiled 3 sources (3 clips), 0 failed, 3 skipped"));
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 3);
	for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
		char *path = test_format("%s/%s", out, outputs[i]);
		size_t size;
		uint8_t *bytes = test_read_file(path, &size);

		assert_int_equal(bytes[3], 'V');   /* /platform:DesktopVK */
		free(bytes);
		free(path);
	}
	/* Scale=0.01 and RotationX=90 are --scale and --rotate for that item
	 * alone; the others are as built without them. */
	r = test_animc("build", "-q", "--platform", "V", "--scale", "0.01", "--rotate", "90,0,0", "-o", one,
		       "testdata/gltf/skin.gltf", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--platform", "V", "-o", one, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *a = test_format("%s/Models/hero/kick.xnb", out), *b = test_format("%s/skin/kick.xnb", one);
	char *c = test_format("%s/Animations/Turn.xnb", out), *d = test_format("%s/Turn.xnb", one);
	assert_true(test_same_bytes(a, b));
	assert_true(test_same_bytes(c, d));
	free(a), free(b), free(c), free(d);
	free(report), free(one), free(out);
}

static void incremental_with_the_project_as_a_dependency(void **state)
{
	char *dir = test_tmpdir("mgcb-incremental"), *project = test_format("%s/mgcb/Content.mgcb", dir);
	char *out = test_format("%s/out", dir), *out1 = test_format("%s/out1", dir);
	char *report = test_format("%s/report.json", dir), *deps = test_format("%s/deps.d", dir);
	size_t size;
	char *text = (char *)test_read_file(PROJECT, &size), *json;
	test_run r;

	(void)state;
	/* A copy of testdata/mgcb and the folders its items name. */
	char *copy = test_format("%s", text);
	free(text);
	char *gltf = test_format("%s/gltf", dir), *sample = test_format("%s/sample", dir);
	char *mgcb = test_format("%s/mgcb", dir);
	r = test_exec("cp", "-r", "testdata/mgcb", mgcb, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("cp", "-r", "testdata/gltf", gltf, NULL);
	test_run_release(&r);
	r = test_exec("cp", "-r", "testdata/sample", sample, NULL);
	test_run_release(&r);
	free(mgcb);

	r = test_animc("build", "-q", "-j2", "--depfile", deps, "--mgcb", project, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	text = (char *)test_read_file(deps, &size);
	assert_non_null(strstr(text, "Content.mgcb"));
	free(text);
	r = test_animc("build", "-q", "-j1", "--mgcb", project, "-o", out1, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
		char *a = test_format("%s/%s", out, outputs[i]), *b = test_format("%s/%s", out1, outputs[i]);

		assert_true(test_same_bytes(a, b));   /* the same bytes for every -j */
		free(a), free(b);
	}
	/* Nothing to do the second time. */
	r = test_animc("build", "-q", "--report", report, "--mgcb", project, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	json = (char *)test_read_file(report, &size);
	assert_null(strstr(json, "\"status\": \"compiled\""));
	free(json);
	/* An edit that is no item's (a comment, a texture item) compiles
	 * nothing: each item was imported again.  The outputs' mtimes come
	 * past the project's, so make, which the depfile names it to, settles. */
	{
		char *more = test_format("%s\n# textures\n#begin Hero.png\n/importer:TextureImporter\n"
					 "/processor:TextureProcessor\n/build:Hero.png\n", copy);
		struct stat project_st, out_st;
		char *hero = test_format("%s/mgcb/Hero.png", dir);

		assert_true(test_write_file(hero, "\x89PNG\r\n", 6));
		free(hero);
		assert_true(test_write_file(project, more, strlen(more)));
		free(more);
		r = test_animc("build", "-q", "--report", report, "--mgcb", project, "-o", out, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		json = (char *)test_read_file(report, &size);
		assert_null(strstr(json, "\"status\": \"compiled\""));
		free(json);
		assert_int_equal(stat(project, &project_st), 0);
		for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
			char *at = test_format("%s/%s", out, outputs[i]);

			assert_int_equal(stat(at, &out_st), 0);
			assert_true(out_st.st_mtim.tv_sec > project_st.st_mtim.tv_sec ||
				    (out_st.st_mtim.tv_sec == project_st.st_mtim.tv_sec &&
				     out_st.st_mtim.tv_nsec >= project_st.st_mtim.tv_nsec));
			free(at);
		}
	}
	/* A changed project (a parameter) compiles its items again, and the
	 * new Scale reaches the bytes. */
	char *edited = strstr(copy, "Scale=0.01");
	assert_non_null(edited);
	memcpy(edited, "Scale=0.02", 10);
	assert_true(test_write_file(project, copy, strlen(copy)));
	r = test_animc("build", "-q", "--report", report, "--mgcb", project, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	json = (char *)test_read_file(report, &size);
	assert_non_null(strstr(json, "\"status\": \"compiled\""));
	free(json);
	char *a = test_format("%s/%s", out, outputs[0]), *b = test_format("%s/%s", out1, outputs[0]);
	assert_false(test_same_bytes(a, b));
	free(a), free(b);
	free(copy), free(gltf), free(sample);
	free(deps), free(report), free(out1), free(out), free(project), free(dir);
}

static void outputs_lists_the_project_output_dir(void **state)
{
	test_run r;

	(void)state;
	r = test_animc("outputs", "--mgcb", PROJECT, NULL);
	assert_int_equal(r.status, 0);
	for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
		char *line = test_format("testdata/mgcb/bin/DesktopVK/%s\n", outputs[i]);

		assert_non_null(strstr(r.out, line));
		free(line);
	}
	test_run_release(&r);
	assert_false(test_file_exists("testdata/mgcb/bin"));
}

static void errors_name_the_project_line(void **state)
{
	char *dir = test_tmpdir("mgcb-errors"), *bad = test_format("%s/bad.mgcb", dir);
	char *items = test_format("%s/items.mgcb", dir), *out = test_format("%s/out", dir);
	char *clip = test_format("%s/Turn.Animation", dir);
	static const char bad_text[] =
		"#begin\n"
		"outputDir:bin\n"                 /* 2: no leading '/' */
		"/platform:Dreamcast\n"           /* 3: no such platform */
		"/processorParam:Scale\n"         /* 4: no '=' */
		"/processorParam:Scale=big\n"     /* 5: no number */
		"/build:Turn.Animation;../../evil.xnb\n"    /* 6: leaves the output folder */
		"/build:Turn.Animation;/tmp/evil\n"         /* 7: so does an absolute one */
		"/processorParam:Scale=0x10\n"    /* 8: hexadecimal, which MGCB's float parser refuses */
		"/processorParam:RotationX=-0X5A\n" /* 9: so */
		"/build:Turn.Animation;.animc/journal.1\n"   /* 10: into animc's state folder */
		"/build:Turn.Animation;Sub/../.animc/x\n";   /* 11: so, however spelt */
	static const char items_text[] =
		"/platform:Windows\n"
		"/build:Missing.Animation\n"      /* 2: no such file */
		"/build:Turn.Animation\n";
	test_run r;

	(void)state;
	assert_true(test_write_file(bad, bad_text, strlen(bad_text)));
	assert_true(test_write_file(items, items_text, strlen(items_text)));
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	assert_true(test_write_file(clip, bytes, size));
	free(bytes);

	r = test_animc("build", "--mgcb", bad, "-o", out, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, ":7: error: the output of '/tmp/evil' would leave the output folder\n"))
		fail_msg("%s", r.err);
	if (!strstr(r.err, ":10: error: the output of '.animc/journal.1' would land in the output folder's .animc/, "
			   "where animc keeps its own state: give the item a destination outside it (/build:SOURCE;DEST)\n"))
		fail_msg("%s", r.err);
	for (int line = 2; line <= 11; line++) {
		char *where = test_format("%s:%d: error: ", bad, line);

		if (!strstr(r.err, where))
			fail_msg("no '%s' in\n%s", where, r.err);
		free(where);
	}
	assert_false(test_file_exists(out));
	test_run_release(&r);

	/* A missing source fails alone; the other item is written. */
	r = test_animc("build", "--mgcb", items, "-o", out, NULL);
	assert_int_equal(r.status, 1);
	char *where = test_format("%s:2: error: /build: '%s/Missing.Animation': cannot open: No such file or "
				  "directory\n", items, dir);
	if (!strstr(r.err, where))
		fail_msg("no '%s' in\n%s", where, r.err);
	free(where);
	test_run_release(&r);
	/* The reports say where too: the source's entry has the project and
	 * its line as "path" and "line", and the message JUnit gives (it was
	 * "items.mgcb:2: /build: ..." at line 0, and check-reports failed). */
	char *report = test_format("%s/report.json", dir), *junit = test_format("%s/junit.xml", dir);
	r = test_animc("build", "-q", "--report", report, "--junit", junit, "--mgcb", items, "-o", out, NULL);
	assert_int_equal(r.status, 1);
	char *json = (char *)test_read_file(report, NULL);
	where = test_format("{\"severity\": \"error\", \"path\": \"%s\", \"message\": \"/build: '%s/Missing.Animation': "
			    "cannot open: No such file or directory\", \"line\": 2, \"column\": 0}", items, dir);
	if (!strstr(json, where))
		fail_msg("no '%s' in\n%s", where, json);
	free(where), free(json);
	test_run_release(&r);
	r = test_exec("python3", "scripts/check-reports", "lib/build/report.schema.json", report, junit, NULL);
	if (r.status != 0)
		fail_msg("check-reports: %s%s", r.out, r.err);
	free(junit), free(report);
	char *written = test_format("%s/Turn.xnb", out);
	assert_true(test_file_exists(written));
	free(written);
	test_run_release(&r);
	/* No -o and no /outputDir: a usage error. */
	r = test_animc("build", "--mgcb", items, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	/* An item's rotation turns its clip as --rotate does, a RobotGame
	 * source with no model given too (every bone turns, no root to find). */
	char *turned = test_format("%s/turned.mgcb", dir), *by_item = test_format("%s/item", dir);
	char *by_option = test_format("%s/option", dir);
	static const char turned_text[] = "/processorParam:RotationY=90\n/build:Turn.Animation\n";
	assert_true(test_write_file(turned, turned_text, strlen(turned_text)));
	r = test_animc("build", "-q", "--mgcb", turned, "-o", by_item, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	where = test_format("%s/Turn.Animation", dir);
	r = test_animc("build", "-q", "--rotate", "0,90,0", "-o", by_option, where, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(where);
	char *a = test_format("%s/Turn.xnb", by_item), *b = test_format("%s/Turn.xnb", by_option);
	assert_true(test_same_bytes(a, b));
	free(a), free(b), free(by_item), free(by_option), free(turned);
	free(clip), free(out), free(items), free(bad), free(dir);
}

/* A project's /outputDir: is a path read from an input: one that leaves
 * the project's folder (through "..", or absolute and elsewhere) is
 * refused without -o, and nothing is written, there or anywhere; -o
 * chooses the folder. */
static void an_output_folder_outside_the_project_needs_o(void **state)
{
	char *dir = test_tmpdir("mgcb-outside"), *content = test_format("%s/game/Content", dir);
	char *outside = test_format("%s/outside", dir), *out = test_format("%s/out", dir);
	char *project = test_format("%s/Content.mgcb", content), *clip = test_format("%s/Turn.Animation", content);
	char *texts[2] = { test_format("#c\n/outputDir:../../outside/escaped\n/build:Turn.Animation\n"),
			   NULL };
	char *where = test_format("%s:2: error: ", project), *written = test_format("%s/Turn.xnb", out);
	static const char *const commands[] = { "build", "outputs" };
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	char *absolute = realpath(dir, NULL);
	assert_non_null(absolute);
	texts[1] = test_format("#c\n/outputDir:%s/outside/abs/$(Platform)\n/build:Turn.Animation\n", absolute);
	free(absolute);
	char *game = test_format("%s/game", dir);
	assert_true(mkdir(game, 0777) == 0 && mkdir(content, 0777) == 0);
	free(game);
	assert_true(test_write_file(clip, bytes, size));
	free(bytes);
	for (int i = 0; i < 2; i++) {
		assert_true(test_write_file(project, texts[i], strlen(texts[i])));
		for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
			r = test_animc(commands[c], "--mgcb", project, NULL);
			assert_int_equal(r.status, 1);
			if (!strstr(r.err, where) || !strstr(r.err, "-o OUTDIR"))
				fail_msg("%s: no '%s...-o OUTDIR' in\n%s", commands[c], where, r.err);
			test_run_release(&r);
			assert_false(test_file_exists(outside));
		}
		/* -o chooses: the project's /outputDir: is not used. */
		r = test_animc("build", "-q", "--mgcb", project, "-o", out, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		assert_true(test_file_exists(written));
		assert_false(test_file_exists(outside));
		unlink(written);
	}
	free(texts[0]), free(texts[1]), free(where), free(written);
	free(clip), free(project), free(out), free(outside), free(content), free(dir);
}

/* An /outputDir: written inside the project's folder but reached through a
 * symbolic link that leads out of it is refused as one written outside
 * (so is one through a link that does not resolve); a link that stays
 * inside the folder is followed. */
static void an_output_folder_through_a_link_out_of_the_project_needs_o(void **state)
{
	char *dir = test_tmpdir("mgcb-link-out"), *content = test_format("%s/game/Content", dir);
	char *game = test_format("%s/game", dir), *outside = test_format("%s/outside", dir);
	char *project = test_format("%s/Content.mgcb", content), *clip = test_format("%s/Turn.Animation", content);
	char *link_out = test_format("%s/bin", content), *link_in = test_format("%s/here", content);
	char *dangling = test_format("%s/gone", content), *inside = test_format("%s/obj", content);
	char *where = test_format("%s:2: error: /outputDir: ", project);
	char *written = test_format("%s/x/Turn.xnb", inside);
	char *kept = test_format("%s/.animc", outside), *kept_x = test_format("%s/x/.animc", outside);
	static const char *const commands[] = { "build", "outputs" };
	static const char *const refused[] = { "bin/x", "bin", "gone/x" };
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	assert_true(mkdir(game, 0777) == 0 && mkdir(content, 0777) == 0 && mkdir(outside, 0777) == 0 &&
		    mkdir(inside, 0777) == 0);
	assert_true(symlink("../../outside", link_out) == 0 && symlink("obj", link_in) == 0 &&
		    symlink("../../outside/none/deeper", dangling) == 0);
	assert_true(test_write_file(clip, bytes, size));
	free(bytes);
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		char *text = test_format("#c\n/outputDir:%s\n/build:Turn.Animation\n", refused[i]);

		assert_true(test_write_file(project, text, strlen(text)));
		for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
			r = test_animc(commands[c], "--mgcb", project, NULL);
			assert_int_equal(r.status, 1);
			if (!strstr(r.err, where) || !strstr(r.err, "-o OUTDIR"))
				fail_msg("%s %s: no '%s...-o OUTDIR' in\n%s", commands[c], refused[i], where, r.err);
			test_run_release(&r);
			assert_int_equal(test_count_files(outside), 0);
			assert_false(test_file_exists(kept) || test_file_exists(kept_x));
		}
		free(text);
	}
	/* Through a link to a folder of the project: written there. */
	static const char followed[] = "#c\n/outputDir:here/x\n/build:Turn.Animation\n";
	assert_true(test_write_file(project, followed, strlen(followed)));
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_file_exists(written));
	assert_int_equal(test_count_files(outside), 0);
	free(where), free(written), free(kept), free(kept_x), free(link_out), free(link_in), free(dangling), free(inside);
	free(clip), free(project), free(outside), free(game), free(content), free(dir);
}

/* An /outputDir: through a symbolic link in the project's folder that
 * leads out of it is said as leading out, naming where, whether a folder is
 * there or not: nothing past the point where it leaves is looked at.  A
 * link to a folder outside that is not there was said as one "that does
 * not resolve", one to a folder there as leading out. */
static void an_output_folder_through_a_link_out_is_said_there_or_not(void **state)
{
	static const char *const targets[] = { "there", "absent" };
	char *dir = test_tmpdir("mgcb-link-out-or-not"), *real = realpath(dir, NULL);
	char *project = test_format("%s/p/Content.mgcb", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/p' '%s/there' && ln -s ../there '%s/p/there' && ln -s ../absent '%s/p/absent' && "
		"cp testdata/sample/Crane/Turn.Animation '%s/p/'", dir, dir, dir, dir, dir);
	for (size_t i = 0; i < 2; i++) {
		char *text = test_format("/outputDir:%s/x\n/build:Turn.Animation\n", targets[i]);
		char *said = test_format("/outputDir: '%s/p/%s/x' leaves the project's folder through a symbolic link "
					 "(it is '%s/%s/x')", dir, targets[i], real, targets[i]);

		assert_true(test_write_file(project, text, strlen(text)));
		r = test_animc("build", "-q", "--mgcb", project, NULL);
		if (r.status != 1 || !strstr(r.err, said))
			fail_msg("%s: exit %d, want '%s'\n%s%s", targets[i], r.status, said, r.out, r.err);
		test_run_release(&r);
		free(said), free(text);
	}
	free(project), free(real), free(dir);
}

/* MGCB's preprocessor: $set, $if ... $endif, /define: and --mgcb-define,
 * and the $(Profile) macro. */
static void preprocessor_lines_choose_the_items(void **state)
{
	char *dir = test_tmpdir("mgcb-preprocess"), *project = test_format("%s/Content.mgcb", dir);
	char *bad = test_format("%s/bad.mgcb", dir);
	char *turn = test_format("%s/bin/Reach/Turn.xnb", dir), *nested = test_format("%s/bin/Reach/Nested.xnb", dir);
	char *wave = test_format("%s/bin/Reach/Extra/Wave.xnb", dir);
	static const char text[] =
		"/outputDir:bin/$(Profile)\n"
		"/profile:reach\n"
		"$set Anim=Yes\n"
		"$if Anim=Yes\n"
		"/build:Turn.Animation\n"
		"$if Anim\n"
		"/build:Turn.Animation;Nested.Animation\n"
		"$endif\n"
		"$endif\n"
		"$if Platform=Android\n"
		"/build:Missing.Animation\n"     /* 11: read only for Android */
		"$endif\n"
		"$if Extra\n"
		"/build:Wave.Animation;Extra/Wave.Animation\n"
		"$endif\n";
	static const char bad_text[] =
		"/outputDir:bin\n"
		"/profile:Ultra\n"               /* 2: no such profile */
		"$if Anim=Yes\n"
		"/profile:Ultra\n"               /* left out: Anim is not set */
		"$endif\n"
		"$endif\n"                       /* 6: no $if open */
		"$if =Yes\n";                    /* 7: no name */
	static const char *const clips[] = { "Turn", "Wave" };
	test_run r;

	(void)state;
	assert_true(test_write_file(project, text, strlen(text)));
	assert_true(test_write_file(bad, bad_text, strlen(bad_text)));
	for (int i = 0; i < 2; i++) {
		char *from = test_format("testdata/sample/Crane/%s.Animation", clips[i]);
		char *to = test_format("%s/%s.Animation", dir, clips[i]);
		size_t size;
		uint8_t *bytes = test_read_file(from, &size);

		assert_true(test_write_file(to, bytes, size));
		free(bytes), free(from), free(to);
	}
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	assert_true(test_file_exists(turn));
	assert_true(test_file_exists(nested));
	assert_false(test_file_exists(wave));
	test_run_release(&r);
	/* --mgcb-define Extra (no value: set at all) adds the Wave item. */
	r = test_animc("build", "-q", "--mgcb-define", "Extra", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	assert_true(test_file_exists(wave));
	test_run_release(&r);
	/* Platform=Android reads the item whose source is missing. */
	r = test_animc("build", "-q", "--mgcb-define", "Platform=Android", "--mgcb", project, NULL);
	assert_int_equal(r.status, 1);
	char *where = test_format("%s:11: error: /build: '", project);
	if (!strstr(r.err, where) || !strstr(r.err, "': cannot open: No such file or directory\n"))
		fail_msg("no '%s...: cannot open' in\n%s", where, r.err);
	free(where);
	test_run_release(&r);
	/* Errors name their lines; a line a $if leaves out is not read. */
	r = test_animc("build", "--mgcb", bad, NULL);
	assert_int_equal(r.status, 1);
	for (int line = 2; line <= 7; line++) {
		char *at = test_format("%s:%d: error: ", bad, line);
		bool expected = line == 2 || line == 6 || line == 7;

		if (!strstr(r.err, at) != !expected)
			fail_msg("line %d: %s in\n%s", line, expected ? "no error" : "an error", r.err);
		free(at);
	}
	test_run_release(&r);
	/* Usage errors: no name, no project. */
	r = test_animc("build", "--mgcb-define", "=Yes", "--mgcb", project, NULL);
	assert_int_equal(r.status, 2);
	test_run_release(&r);
	r = test_animc("build", "--mgcb-define", "Extra", "-o", dir, "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--mgcb-define needs --mgcb"));
	test_run_release(&r);
	free(wave), free(nested), free(turn), free(bad), free(project), free(dir);
}

/* Do files a and b (both freed) hold the same bytes? */
static bool same_bytes(char *a, char *b)
{
	bool same = test_same_bytes(a, b);

	free(a), free(b);
	return same;
}

/* A project in `dir` (the Crane's Turn.Animation beside it), named
 * NAME.mgcb; returns its path. */
static char *turn_project(const char *dir, const char *name, const char *text)
{
	char *turn = test_format("%s/Turn.Animation", dir), *path = test_format("%s/%s.mgcb", dir, name);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);

	assert_true(test_write_file(turn, bytes, size));
	assert_true(test_write_file(path, text, strlen(text)));
	free(bytes), free(turn);
	return path;
}

/* The reference for the tests below: the source at Scale 2, in
 * DIR/scale2/Turn.xnb. */
static void build_scale2(const char *dir)
{
	char *project = turn_project(dir, "Scale2", "/outputDir:scale2\n/processorParam:Scale=2\n"
						     "/build:Turn.Animation\n");
	test_run r = test_animc("build", "-q", "--mgcb", project, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(project);
}

/* --exact and an item whose parameters convert its keys: the error names
 * the parameters (it named --scale and --rotate, never typed), and an
 * option that joins them. */
static void exact_names_the_item_parameters_that_convert(void **state)
{
	char *dir = test_tmpdir("mgcb-exact");
	char *both = turn_project(dir, "Both", "/outputDir:both\n/processorParam:Scale=2\n"
					       "/processorParam:RotationX=90\n/build:Turn.Animation\n");
	char *scale = turn_project(dir, "Scale", "/outputDir:scale\n/processorParam:Scale=2\n/build:Turn.Animation\n");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--exact", "--mgcb", both, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "Turn.Animation:2: error: --exact writes the original pipeline's bytes for this RobotGame "
			   "sequence, and its .mgcb item's Scale and RotationX change them: leave out one or the other\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--exact", "--rotate", "0,90,0", "--mgcb", scale, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "sequence, and --rotate and its .mgcb item's Scale change them: leave out one or the other\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(scale), free(both), free(dir);
}

/* An item's Scale that takes a translation past what a float holds: the
 * error names the item's Scale, not --scale, which was never typed (or
 * typed with another value that the item's replaces). */
static void an_item_scale_past_float_is_named_so(void **state)
{
	char *dir = test_tmpdir("mgcb-overflow");
	char *big = test_format("%s/Big.mgcb", dir), *sway = test_format("%s/sway.Animation", dir);
	static const char project[] = "/outputDir:big\n/processorParam:Scale=1e38\n/build:sway.Animation\n";
	size_t size;
	/* sway.Animation moves its root 16 units: past FLT_MAX at 1e38. */
	uint8_t *bytes = test_read_file("testdata/compact/sway.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(sway, bytes, size));
	assert_true(test_write_file(big, project, strlen(project)));
	free(bytes), free(sway);
	r = test_animc("build", "-q", "--mgcb", big, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "its .mgcb item's Scale 1e+38 takes its translation past what a float holds") ||
	    strstr(r.err, "--scale"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "--scale", "2", "--mgcb", big, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "its .mgcb item's Scale 1e+38 takes its translation past what a float holds"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(big), free(dir);
}

/* A /build: of a source given before replaces that item, as MGCB keeps
 * the later one: one output, with the later parameters. */
static void a_later_build_of_a_source_replaces_it(void **state)
{
	char *dir = test_tmpdir("mgcb-again");
	char *again = turn_project(dir, "Again", "/outputDir:again\n/processorParam:Scale=1\n/build:Turn.Animation\n"
						 "/processorParam:Scale=2\n/build:Turn.Animation\n");
	test_run r;

	(void)state;
	build_scale2(dir);
	r = test_animc("build", "-q", "--mgcb", again, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(same_bytes(test_format("%s/again/Turn.xnb", dir), test_format("%s/scale2/Turn.xnb", dir)));
	free(again), free(dir);
}

/* /processorParam:Scale:2 is Scale=2, as MGCB splits the pair at '=' or
 * ':' (it was "is not NAME=VALUE", and the project failed).  A pair with a
 * second one, which MGCB drops without a word, is an error for one of
 * animc's parameters, whichever separator comes first; another
 * processor's is ignored, one a letter from animc's warned of.  Errors
 * quote the pair as written (`Scale=abc ` was quoted `Scale=abc`).  A name
 * with blanks around it (`Scale = abc`) is none of animc's, as MGCB
 * matches names exactly: warned of, quoted as written. */
static void a_parameter_may_take_its_value_after_a_colon(void **state)
{
	char *dir = test_tmpdir("mgcb-param-colon");
	char *colon = turn_project(dir, "Colon", "/outputDir:colon\n/processorParam:Scale:2\n/build:Turn.Animation\n");
	char *twice = turn_project(dir, "Twice", "/outputDir:twice\n/processorParam:Scale=2:3\n"
						 "/processorParam:RotationX:90=1\n/processorParam:Scal:2:3\n"
						 "/processorParam:Path=C:/x\n/processorParam:RotationY:abc\n"
						 "/processorParam:Scale=abc \n/processorParam:Scale = 2 : 3\n"
						 "/build:Turn.Animation\n");
	char *want = test_format("%s:2: error: /processorParam:Scale=2:3 has a second '=' or ':', and MGCB ignores "
				 "such a parameter; give one value (NAME=VALUE)\n"
				 "%s:3: error: /processorParam:RotationX:90=1 has a second '=' or ':', and MGCB "
				 "ignores such a parameter; give one value (NAME=VALUE)\n"
				 "%s:4: warning: /processorParam:Scal: no such parameter (did you mean Scale?); "
				 "ignored [unknown-parameter]\n"
				 "%s:6: error: /processorParam:RotationY:abc is not a number of degrees\n"
				 /* quoted as written, spaces and all */
				 "%s:7: error: /processorParam:Scale=abc is not a number above 0\n"
				 "%s:8: warning: /processorParam:Scale = 2 : 3: no such parameter: MGCB matches names "
				 "exactly, case and blanks too (did you mean Scale?); ignored [unknown-parameter]\n",
				 twice, twice, twice, twice, twice, twice);
	char *nothing = test_format("%s/twice", dir);
	test_run r;

	(void)state;
	build_scale2(dir);
	r = test_animc("build", "-q", "--mgcb", colon, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(same_bytes(test_format("%s/colon/Turn.xnb", dir), test_format("%s/scale2/Turn.xnb", dir)));
	r = test_animc("build", "-q", "--mgcb", twice, NULL);
	assert_int_equal(r.status, 1);
	if (strncmp(r.err, want, strlen(want)) != 0)
		fail_msg("want\n%sgot\n%s", want, r.err);
	test_run_release(&r);
	assert_false(test_file_exists(nothing));
	free(nothing), free(want), free(twice), free(colon), free(dir);
}

/* Parameter names are matched exactly, as MGCB sets a processor's
 * property by its name: `scale=2`, `SCALE=2` and `Scale =2` are no
 * parameter to MGCB, which builds the model at scale 1.  animc applied
 * them without a word, so clips and model disagreed; now the item is built
 * as without them, and the line is warned of. */
static void parameter_names_are_matched_exactly(void **state)
{
	static const char *const spelt[] = { "scale=2", "SCALE=2", "Scale =2", "rotationx=90" };
	char *dir = test_tmpdir("mgcb-param-case");
	char *plain = turn_project(dir, "Plain", "/outputDir:plain\n/build:Turn.Animation\n");
	test_run r = test_animc("build", "-q", "--mgcb", plain, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (size_t i = 0; i < sizeof spelt / sizeof spelt[0]; i++) {
		char *text = test_format("/outputDir:spelt\n/processor:ModelProcessor\n/processorParam:%s\n"
					 "/build:Turn.Animation\n", spelt[i]);
		char *project = turn_project(dir, "Spelt", text);
		char *want = test_format("%s:3: warning: /processorParam:", project);

		r = test_animc("build", "-q", "--mgcb", project, NULL);
		if (r.status != 0 || !strstr(r.err, want) ||
		    !strstr(r.err, i == 3 ? "(did you mean RotationX?); ignored" : "(did you mean Scale?); ignored"))
			fail_msg("/processorParam:%s: exit %d\n%s", spelt[i], r.status, r.err);
		test_run_release(&r);
		assert_true(same_bytes(test_format("%s/spelt/Turn.xnb", dir), test_format("%s/plain/Turn.xnb", dir)));
		free(want), free(project), free(text);
	}
	free(plain), free(dir);
}

/* A folder build of a MonoGame Content folder skipped its .mgcb as a file
 * no importer recognises, and named on the command line it was an error
 * saying no more: both now point to --mgcb. */
static void a_project_given_as_a_source_points_to_mgcb(void **state)
{
	char *dir = test_tmpdir("mgcb-as-source"), *project = turn_project(dir, "Content", "/build:Turn.Animation\n");
	char *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	r = test_animc("build", "-v", "-o", out, dir, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "skipped ") || !strstr(r.out, "Content.mgcb (a MonoGame content project: build it with --mgcb)"))
		fail_msg("%s", r.out);
	test_run_release(&r);
	r = test_animc("build", "-o", out, project, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "Content.mgcb: error: no importer recognises this file; a MonoGame content project is built "
			   "with --mgcb PROJECT\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(out), free(project), free(dir);
}

/* An absolute /outputDir: inside the project's folder is used as the same
 * folder written relative to it is (it was refused as one that "leaves
 * the project's folder"); one that climbs with ".." is refused, saying so. */
static void an_absolute_output_folder_inside_the_project_is_used(void **state)
{
	char *dir = test_tmpdir("mgcb-absolute-in"), *real = realpath(dir, NULL);
	char *project = turn_project(dir, "Content", "/outputDir:bin/$(Platform)\n/build:Turn.Animation\n");
	char *written = test_format("%s/bin/Windows/Turn.xnb", dir), *relative = test_format("%s/relative.xnb", dir);
	char *text = test_format("/outputDir:%s/bin/$(Platform)\n/build:Turn.Animation\n", real);
	char *climbing = test_format("/outputDir:%s/../%s/bin\n/build:Turn.Animation\n", real, strrchr(real, '/') + 1);
	char *listed = test_format("%s/bin/Windows/Turn.xnb\n", real);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(rename(written, relative), 0);
	assert_true(test_write_file(project, text, strlen(text)));
	r = test_animc("outputs", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, listed);
	test_run_release(&r);
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_same_bytes(written, relative));
	assert_true(test_write_file(project, climbing, strlen(climbing)));
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, ":1: error: /outputDir: '") ||
	    !strstr(r.err, "/bin' is an absolute path through '..', which animc does not follow; write it without "
			   "'..', or pass -o OUTDIR to choose the output folder\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(listed), free(climbing), free(text), free(relative), free(written), free(project), free(real), free(dir);
}

/* Build DIR/Turn.Animation with SCALE and ROTATE into DIR/NAME: the
 * reference an item is compared with. */
static void build_turn_with(const char *dir, const char *name, const char *scale, const char *rotate)
{
	char *source = test_format("%s/Turn.Animation", dir), *out = test_format("%s/%s", dir, name);
	test_run r = test_animc("build", "-q", "--scale", scale, "--rotate", rotate, "-o", out, source, NULL);

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(out), free(source);
}

/* An item giving one of Scale and RotationX/Y/Z was built with the
 * processor's defaults for the others, the command line's --scale and
 * --rotate dropped without a word.  Per parameter now: the item's win, the
 * others are the command line's. */
static void the_command_line_gives_the_parameters_an_item_does_not(void **state)
{
	char *dir = test_tmpdir("mgcb-units");
	char *project = turn_project(dir, "Units", "/outputDir:items\n"
						   "/processorParam:RotationX=90\n/build:Turn.Animation;A/Turn.Animation\n"
						   "/processor:AnimationProcessor\n/processorParam:Scale=3\n"
						   "/processorParam:RotationZ=45\n/build:Turn.Animation;B/Turn.Animation\n"
						   "/processor:AnimationProcessor\n/build:Turn.Animation;C/Turn.Animation\n");
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--scale", "2", "--rotate", "10,20,30", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	build_turn_with(dir, "a", "2", "90,20,30");
	build_turn_with(dir, "b", "3", "10,20,45");
	build_turn_with(dir, "c", "2", "10,20,30");
	assert_true(same_bytes(test_format("%s/items/A/Turn.xnb", dir), test_format("%s/a/Turn.xnb", dir)));
	assert_true(same_bytes(test_format("%s/items/B/Turn.xnb", dir), test_format("%s/b/Turn.xnb", dir)));
	assert_true(same_bytes(test_format("%s/items/C/Turn.xnb", dir), test_format("%s/c/Turn.xnb", dir)));
	/* The item's own values differ from the command line's: not a
	 * comparison the defaults would pass. */
	assert_false(same_bytes(test_format("%s/items/A/Turn.xnb", dir), test_format("%s/c/Turn.xnb", dir)));
	free(project), free(dir);
}

/* One source to two destinations builds twice, each item with its own
 * parameters, also when the cache holds the other's entry. */
static void two_destinations_keep_their_parameters(void **state)
{
	char *dir = test_tmpdir("mgcb-two"), *cache = test_tmpdir("mgcb-two-cache"), *out;
	char *two = turn_project(dir, "Two", "/outputDir:two\n/processorParam:Scale=1\n"
					     "/build:Turn.Animation;A/Turn.Animation\n/processorParam:Scale=2\n"
					     "/build:Turn.Animation;B/Turn.Animation\n");
	test_run r;

	(void)state;
	build_scale2(dir);
	out = test_format("%s/two", dir);
	for (int run = 0; run < 2; run++) {
		r = test_exec("rm", "-rf", out, NULL);
		test_run_release(&r);
		r = test_animc("build", "-v", "-j1", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0",
			       "--mgcb", two, NULL);
		assert_int_equal(r.status, 0);
		if (run == 1 && !strstr(r.out, "cached "))
			fail_msg("not served from the cache:\n%s%s", r.out, r.err);
		test_run_release(&r);
		assert_true(same_bytes(test_format("%s/B/Turn.xnb", out), test_format("%s/scale2/Turn.xnb", dir)));
		assert_false(same_bytes(test_format("%s/A/Turn.xnb", out), test_format("%s/B/Turn.xnb", out)));
	}
	/* An item named other than its source, then the source under its
	 * own name, through the cache: each output has its own name. */
	char *walk = turn_project(dir, "Walk", "/outputDir:walk\n/build:Turn.Animation;Walk.Animation\n");
	char *turn = turn_project(dir, "Turn", "/outputDir:turn\n/build:Turn.Animation\n");
	const char *const projects[] = { walk, turn };

	for (int p = 0; p < 2; p++) {
		r = test_animc("build", "-q", "-j1", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0",
			       "--mgcb", projects[p], NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
	}
	assert_true(test_file_exists(test_format("%s/walk/Walk.xnb", dir)));
	assert_true(test_file_exists(test_format("%s/turn/Turn.xnb", dir)));
	assert_false(test_file_exists(test_format("%s/turn/Walk.xnb", dir)));
	free(turn), free(walk);
	free(out), free(two), free(cache), free(dir);
}

/* The reports of one build: the JUnit file's test case names, in order,
 * one a line (as the file writes them), and check-reports passed on both. */
static char *junit_names_checked(const char *report, const char *junit)
{
	test_run r = test_exec("python3", "scripts/check-reports", "lib/build/report.schema.json", report, junit, NULL);
	if (r.status != 0)
		fail_msg("check-reports: %s%s", r.out, r.err);
	test_run_release(&r);
	char *xml = (char *)test_read_file(junit, NULL), *names = test_format("%s", ""), *at = xml;
	for (char *name; (name = strstr(at, "<testcase classname=\"animc.build\" name=\"")); at = name) {
		name += strlen("<testcase classname=\"animc.build\" name=\"");
		char *more = test_format("%s%.*s\n", names, (int)(strchr(name, '"') - name), name);
		free(names);
		names = more;
	}
	free(xml);
	return names;
}

/* One source built to two destinations (a project's item twice, a folder
 * and a file in it) is two test cases CI systems tell apart: the name
 * carries the destination, as the report's "destination" does.  (Both were
 * "animc.build" / the source's path: GitLab and Jenkins merged them.)  A
 * source built once keeps its name. */
static void two_destinations_are_two_test_cases(void **state)
{
	char *dir = test_tmpdir("mgcb-two-junit");
	char *two = turn_project(dir, "Two", "/outputDir:two\n/build:Turn.Animation;A/Turn.Animation\n"
					     "/processorParam:Scale=2\n/build:Turn.Animation;B/Turn.Animation\n");
	char *report = test_format("%s/r.json", dir), *junit = test_format("%s/j.xml", dir);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--mgcb", two, "--report", report, "--junit", junit, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *names = junit_names_checked(report, junit);
	char *want = test_format("%s/Turn.Animation -&gt; %s/two/A/Turn\n%s/Turn.Animation -&gt; %s/two/B/Turn\n",
				 dir, dir, dir, dir);
	assert_string_equal(names, want);
	free(names);
	/* Split over shards (a CI matrix whose reports are merged), the items
	 * land in one shard each, which names its own as the whole build does
	 * (each was named by the source's path alone). */
	char *seen[2];
	for (int k = 0; k < 2; k++) {
		r = test_animc("build", "-q", "--shard", k ? "2/2" : "1/2", "--mgcb", two, "--report", report, "--junit",
			       junit, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		seen[k] = junit_names_checked(report, junit);
		if (strchr(seen[k], '\n') != strrchr(seen[k], '\n') || !strstr(want, seen[k]))
			fail_msg("shard %d/2: %s", k + 1, seen[k]);
	}
	assert_string_not_equal(seen[0], seen[1]);
	free(seen[0]), free(seen[1]), free(want);
	char *json = (char *)test_read_file(report, NULL);
	want = test_format("\"destination\": \"%s/two/", dir);
	assert_non_null(strstr(json, want));
	free(want), free(json);
	r = test_animc("build", "-q", "--mgcb", two, "--report", report, "--junit", junit, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	want = test_format("\"destination\": \"%s/two/B/Turn\"", dir);
	assert_non_null(strstr(json, want));
	free(want), free(json);

	/* A folder and a file in its subfolder, and another source once. */
	char *art = test_format("%s/art", dir), *out = test_format("%s/out", dir);
	char *sub = test_format("%s/art/sub/Turn.Animation", dir), *wave = test_format("%s/art/Wave.Animation", dir);
	r = test_exec("sh", "-c", "mkdir -p \"$0/sub\" && cp testdata/sample/Crane/Turn.Animation \"$0/sub\" && "
			    "cp testdata/sample/Crane/Wave.Animation \"$0\"", art, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, "--report", report, "--junit", junit, art, sub, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	names = junit_names_checked(report, junit);
	want = test_format("%s\n%s -&gt; %s/sub/Turn\n%s -&gt; %s/Turn\n", wave, sub, out, sub, out);
	assert_string_equal(names, want);
	free(want), free(names);

	/* A source not there, to two destinations: named by each (its
	 * destination was the source's stem alone). */
	char *gone = turn_project(dir, "Gone", "/outputDir:gone\n/build:Anims/Gone.Animation;A/G.Animation\n"
					       "/build:Anims/Gone.Animation;B/G.Animation\n");
	r = test_animc("build", "-q", "--mgcb", gone, "--report", report, "--junit", junit, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	names = junit_names_checked(report, junit);
	want = test_format("%s/Anims/Gone.Animation -&gt; %s/gone/A/G\n%s/Anims/Gone.Animation -&gt; %s/gone/B/G\n", dir,
			   dir, dir, dir);
	assert_string_equal(names, want);
	free(want), free(names), free(gone);
	free(wave), free(sub), free(out), free(art), free(junit), free(report), free(two), free(dir);
}

/* Build `project` into `out` (removed first) with the cache folder
 * `cache`: given by its path for runs 0 and 1, from its own folder by its
 * name for run 2.  Its summary must hold `want`. */
static void build_from_cache(int run, const char *out, const char *cache, const char *project, const char *want)
{
	char *animc = realpath(test_animc_path(), NULL), *full_cache = realpath(cache, NULL);
	char *folder = strndup(project, (size_t)(strrchr(project, '/') - project));
	test_run r = test_exec("rm", "-rf", out, NULL);

	assert_non_null(animc);
	assert_non_null(full_cache);
	test_run_release(&r);
	if (run < 2)
		r = test_animc("build", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "--mgcb", project,
			       NULL);
	else
		r = test_exec("sh", "-c", "cd \"$1\" && exec \"$0\" build --cache-wait --cache-dir \"$2\" "
				    "--cache-min-size 0 --mgcb \"$3\"", animc, folder, full_cache, strrchr(project, '/') + 1,
			      NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, want))
		fail_msg("build %d, not '%s':\n%s%s", run + 1, want, r.out, r.err);
	test_run_release(&r);
	free(folder), free(full_cache), free(animc);
}

/* Items in a folder below the project's come from the cache, from a build
 * run elsewhere too (the project's folder). */
static void items_below_the_project_come_from_the_cache(void **state)
{
	char *dir = test_tmpdir("mgcb-below"), *cache = test_tmpdir("mgcb-below-cache");
	char *out = test_format("%s/bin", dir), *first = test_format("%s/first", dir);
	char *project = turn_project(dir, "Content", "/outputDir:bin\n/build:Anims/Wave.Animation\n"
						     "/build:Anims/Deep/Idle.Animation\n/build:Turn.Animation\n");
	const char *const written[] = { "Anims/Wave.xnb", "Anims/Deep/Idle.xnb", "Turn.xnb" };
	test_run r = test_exec("sh", "-c", "mkdir -p \"$1/Anims/Deep\" && cp testdata/sample/Crane/Wave.Animation \"$1/Anims/\" && "
				   "cp testdata/sample/Crane/Idle.Animation \"$1/Anims/Deep/\"", "sh", dir, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	for (int run = 0; run < 3; run++) {
		const char *want = run ? "3 cached" : "compiled 3 sources";

		build_from_cache(run, out, cache, project, want);
		if (!run) {
			r = test_exec("cp", "-r", out, first, NULL);
			assert_int_equal(r.status, 0);
			test_run_release(&r);
		}
		for (size_t i = 0; i < sizeof written / sizeof written[0]; i++)
			assert_true(same_bytes(test_format("%s/%s", out, written[i]),
					       test_format("%s/%s", first, written[i])));
	}
	free(project), free(first), free(out), free(cache), free(dir);
}

/* An item outside the project's folder (/build:../Shared/...) was never
 * stored in the cache, and nothing said so: the entry could not name the
 * project file from the item's folder.  The project's files are no
 * entry's now (what they say of an item is in its key), so it is stored
 * and fetched, from the project's folder too. */
static void items_outside_the_project_come_from_the_cache(void **state)
{
	char *dir = test_tmpdir("mgcb-outside"), *cache = test_tmpdir("mgcb-outside-cache");
	char *content = test_format("%s/Content", dir), *out = test_format("%s/bin", content);
	char *project = test_format("%s/P.mgcb", content);
	test_run r = test_exec("sh", "-c", "mkdir -p \"$1/Shared\" \"$1/Content\" && cp testdata/sample/Crane/Wave.Animation "
				   "\"$1/Shared/\"", "sh", dir, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_write_file(project, "/outputDir:bin\n/build:../Shared/Wave.Animation;Wave\n", 52));
	for (int run = 0; run < 3; run++) {
		const char *want = run ? "1 cached" : "compiled 1 source";

		build_from_cache(run, out, cache, project, want);
		assert_true(test_file_exists(test_format("%s/Wave.xnb", out)));
	}
	free(project), free(out), free(content), free(cache), free(dir);
}

/* One source to two destinations: the manifest keeps both, so a second
 * build finds both up to date; the project drops one, which becomes
 * stale; clean removes the rest. */
static void two_destinations_stay_up_to_date(void **state)
{
	char *dir = test_tmpdir("mgcb-two-incremental"), *out = test_format("%s/two", dir);
	char *two = turn_project(dir, "Two", "/outputDir:two\n/build:Turn.Animation;A/Turn.Animation\n"
					     "/processorParam:Scale=2\n/build:Turn.Animation;B/Turn.Animation\n"
					     "/build:Wave.Animation\n");
	test_run r = test_exec("cp", "testdata/sample/Crane/Wave.Animation", dir, NULL);

	(void)state;
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--mgcb", two, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "--mgcb", two, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, 3 up to date"))
		fail_msg("%s", r.out);
	test_run_release(&r);
	/* Items the project no longer holds (a destination, a source): their
	 * outputs are stale. */
	char *one = turn_project(dir, "Two", "/outputDir:two\n/build:Turn.Animation;A/Turn.Animation\n");
	r = test_animc("build", "--mgcb", one, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, ", 2 stale outputs (--prune removes them)"))
		fail_msg("%s", r.out);
	test_run_release(&r);
	r = test_animc("build", "-q", "--prune", "--mgcb", one, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_false(test_file_exists(test_format("%s/B/Turn.xnb", out)));
	assert_false(test_file_exists(test_format("%s/Wave.xnb", out)));
	free(one);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_false(test_file_exists(test_format("%s/A/Turn.xnb", out)));
	assert_false(test_file_exists(test_format("%s/B/Turn.xnb", out)));
	free(two), free(out), free(dir);
}

/* A build into the folder that does not build a source of two
 * destinations (another folder, another shard of the project) keeps both
 * of its records: --prune leaves both outputs, and the project stays up
 * to date. */
static void another_build_keeps_both_destinations(void **state)
{
	char *dir = test_tmpdir("mgcb-two-kept"), *out = test_format("%s/out", dir);
	char *other = test_format("%s/other", dir), *wave = test_format("%s/other/Wave.Animation", dir);
	char *two = turn_project(dir, "Two", "/build:Turn.Animation;Moves/Fast.Animation\n"
					     "/build:Turn.Animation;Moves/Slow.Animation\n");
	char *fast = test_format("%s/Moves/Fast.xnb", out), *slow = test_format("%s/Moves/Slow.xnb", out);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Wave.Animation", &size);
	test_run r;

	(void)state;
	assert_int_equal(mkdir(other, 0777), 0);
	assert_true(test_write_file(wave, bytes, size));
	free(bytes);
	for (int order = 0; order < 3; order++) {
		const char *first = order == 2 ? "2/2" : "1/2", *second = order == 2 ? "1/2" : "2/2";

		test_sh("rm -rf '%s'", out);
		if (order == 0) {
			r = test_animc("build", "-q", "--mgcb", two, "-o", out, NULL);
			assert_int_equal(r.status, 0);
			test_run_release(&r);
			r = test_animc("build", "-q", "--prune", "-o", out, other, NULL);
		} else {
			r = test_animc("build", "-q", "--prune", "--shard", first, "--mgcb", two, "-o", out, NULL);
			assert_int_equal(r.status, 0);
			test_run_release(&r);
			r = test_animc("build", "-q", "--prune", "--shard", second, "--mgcb", two, "-o", out, NULL);
		}
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		assert_true(test_file_exists(fast));
		assert_true(test_file_exists(slow));
		r = test_animc("build", "--mgcb", two, "-o", out, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, 2 up to date"))
			fail_msg("order %d: %s", order, r.out);
		test_run_release(&r);
	}
	free(fast), free(slow), free(two), free(wave), free(other), free(out), free(dir);
}

/* A source named "...x" has the stem "..": a source of several clips
 * would write into the folder above the output folder.  Its outputs go
 * to "__", as a folder build names them. */
static void dotted_names_stay_in_the_output_folder(void **state)
{
	char *dir = test_tmpdir("mgcb-dots"), *project = test_format("%s/Dots.mgcb", dir);
	char *src = test_format("%s/...x", dir), *out = test_format("%s/out/deep", dir);
	static const char text[] = "/outputDir:out/deep\n/build:...x\n";
	size_t size;
	uint8_t *bytes = test_read_file("testdata/assimp/keys.x", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, bytes, size));
	assert_true(test_write_file(project, text, strlen(text)));
	free(bytes);
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(test_count_files(test_format("%s/out", dir)), test_count_files(out));
	assert_true(test_count_files(test_format("%s/__", out)) >= 2);
	free(out), free(src), free(project), free(dir);
}

/* A ;DEST that names no file (a folder, ".", ".xnb") fails its item at
 * its line; the other items are built.  animc made a name up instead
 * (Chars/Hero/clip0.xnb, _.xnb, _xnb.xnb), which no game asks for. */
static void a_destination_that_names_no_file_fails_its_item(void **state)
{
	char *dir = test_tmpdir("mgcb-dest-no-file"), *out = test_format("%s/bin", dir);
	char *project = turn_project(dir, "NoFile", "/outputDir:bin\n/build:Turn.Animation;Chars/Hero/\n"
						    "/build:Turn.Animation;.\n/build:Turn.Animation;Chars\\.xnb\n"
						    "/build:Turn.Animation;Chars/Turn\n");
	char *written = test_format("%s/Chars/Turn.xnb", out);
	static const char *const dests[] = { "Chars/Hero/", ".", "Chars/.xnb" };
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	assert_int_equal(r.status, 1);
	for (int i = 0; i < 3; i++) {
		char *said = test_format("%s:%d: error: /build: '%s/Turn.Animation': the destination '%s' names no "
					 "file; give it a file name (/build:SOURCE;FOLDER/NAME)\n", project, i + 2, dir,
					 dests[i]);

		if (!strstr(r.err, said))
			fail_msg("no '%s' in\n%s", said, r.err);
		free(said);
	}
	test_run_release(&r);
	assert_true(test_file_exists(written));
	assert_int_equal(test_count_files(out), 1);
	free(written), free(project), free(out), free(dir);
}

/* A project saved with a UTF-8 byte order mark reads (it was "line 1 is
 * neither an option nor a comment"), and $(Platform) is the platform as
 * written: BlazorGL shares its letter with Web, and wrote to bin/Web. */
static void a_marked_project_and_its_platform_name(void **state)
{
	char *dir = test_tmpdir("mgcb-bom"), *project = test_format("%s/Game.mgcb", dir);
	char *src = test_format("%s/keys.x", dir);
	static const char text[] = "\xEF\xBB\xBF# a project Visual Studio saved\n/platform:BlazorGL\n"
				   "/outputDir:bin/$(Platform)\n/build:keys.x\n";
	size_t size;
	uint8_t *bytes = test_read_file("testdata/assimp/keys.x", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(src, bytes, size));
	assert_true(test_write_file(project, text, strlen(text)));
	free(bytes);
	r = test_animc("outputs", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "/bin/BlazorGL/keys/"))
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	free(src), free(project), free(dir);
}

/* A misspelt switch or processor parameter is a warning naming the
 * project's line, with what it may mean and its kind, counted in the
 * summary and listed in the report, unless --allow names its kind; MGCB's
 * own switches and other processors' parameters are not. */
static void misspelt_switches_and_parameters_are_warned_of(void **state)
{
	char *dir = test_tmpdir("mgcb-typos"), *project = test_format("%s/Content.mgcb", dir);
	char *turn = test_format("%s/Turn.Animation", dir), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir), *json, *want_json;
	char *want = test_format("%s:2: warning: unknown switch /platfrom: (did you mean /platform:?); ignored "
				 "[unknown-switch]\n"
				 "%s:4: warning: unknown switch /frobnicate: (neither animc nor MGCB reads it); "
				 "ignored [unknown-switch]\n"
				 "%s:7: warning: /processorParam:Scal: no such parameter (did you mean Scale?); "
				 "ignored [unknown-parameter]\n", project, project, project);
	static const char text[] = "/outputDir:bin\n"
				   "/platfrom:Xbox360\n"
				   "/intermediateDir:obj\n"
				   "/frobnicate:1\n"
				   "/compress:False\n"
				   "#begin Turn.Animation\n"
				   "/processorParam:Scal=0.01\n"
				   "/processorParam:GenerateMipmaps=True\n"
				   "/build:Turn.Animation\n";
	size_t size;
	uint8_t *data = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(turn, data, size));
	assert_true(test_write_file(project, text, strlen(text)));
	r = test_animc("build", "--mgcb", project, "-o", out, "--report", report, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, want);
	assert_non_null(strstr(r.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 3 warnings\n"));
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	want_json = test_format("\"run_diagnostics\": [\n    {\"severity\": \"warning\", \"path\": \"%s\", "
				"\"message\": \"unknown switch /platfrom: (did you mean /platform:?); ignored\", "
				"\"line\": 2, \"kind\": \"unknown-switch\"},", project);
	if (!json || !strstr(json, want_json) || !strstr(json, "\"run_warnings\": 3,"))
		fail_msg("no '%s' in '%s'", want_json, json ? json : "(no report)");
	free(json), free(want_json);
	/* They change what is built: --warnings-as-errors stops before it,
	 * and the reports say so (the earlier run's, which passed, are gone). */
	char *junit = test_format("%s/junit.xml", dir), *xml;
	r = test_animc("build", "-q", "--warnings-as-errors", "--mgcb", project, "-o", out, "--report", report,
		       "--junit", junit, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "Content.mgcb: error: 3 warnings treated as errors; nothing built\n"));
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	want_json = test_format("{\"severity\": \"error\", \"path\": \"%s\", \"message\": \"3 warnings treated as "
				"errors; nothing built\", \"line\": 0}", project);
	if (!strstr(json, "\"sources\": [],") || !strstr(json, want_json) || !strstr(json, "\"run_warnings\": 3,"))
		fail_msg("no '%s' in '%s'", want_json, json);
	xml = (char *)test_read_file(junit, NULL);
	assert_non_null(strstr(xml, "Content.mgcb: error: 3 warnings treated as errors; nothing built&#10;"));
	assert_non_null(strstr(xml, "[unknown-parameter]&#10;"));
	free(xml), free(junit), free(json), free(want_json), free(report);
	/* Allowed kinds are neither said nor counted, and stop nothing. */
	r = test_animc("build", "-q", "--warnings-as-errors", "--allow", "unknown-switch", "--mgcb", project, "-o", out,
		       NULL);
	assert_int_equal(r.status, 1);
	assert_null(strstr(r.err, "unknown switch"));
	assert_non_null(strstr(r.err, "Content.mgcb: error: 1 warning treated as errors; nothing built\n"));
	test_run_release(&r);
	r = test_animc("build", "--warnings-as-errors", "--allow", "unknown-switch,unknown-parameter", "--mgcb", project,
		       "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	/* Up to date from the first build: strictness is no part of the key. */
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, 1 up to date\n"));
	test_run_release(&r);
	free(data), free(want), free(out), free(turn), free(project), free(dir);
}

/* A project with an error builds nothing; its reports held only "the
 * project has errors (said above)", which a CI reading them cannot see:
 * the error's line and text and the project's warnings were lost.  Each is
 * in run_diagnostics now, with its line, and in the JUnit file. */
static void a_project_error_is_in_the_reports_at_its_line(void **state)
{
	char *dir = test_tmpdir("mgcb-broken"), *project = test_format("%s/Content.mgcb", dir);
	char *turn = test_format("%s/Turn.Animation", dir), *out = test_format("%s/out", dir);
	char *report = test_format("%s/report.json", dir), *junit = test_format("%s/junit.xml", dir);
	static const char text[] = "/platfrom:DesktopGL\n"
				   "/processorParam:Scale=abc\n"
				   "/build:Turn.Animation\n";
	size_t size;
	uint8_t *data = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(turn, data, size));
	assert_true(test_write_file(project, text, strlen(text)));
	r = test_animc("build", "--mgcb", project, "-o", out, "--report", report, "--junit", junit, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	char *json = (char *)test_read_file(report, NULL);
	char *error = test_format("{\"severity\": \"error\", \"path\": \"%s\", \"message\": \"/processorParam:Scale=abc "
				  "is not a number above 0\", \"line\": 2}", project);
	char *warning = test_format("{\"severity\": \"warning\", \"path\": \"%s\", \"message\": \"unknown switch "
				    "/platfrom: (did you mean /platform:?); ignored\", \"line\": 1, \"kind\": "
				    "\"unknown-switch\"}", project);
	if (!strstr(json, error) || !strstr(json, warning) || !strstr(json, "\"run_warnings\": 1,") ||
	    strstr(json, "said above"))
		fail_msg("no '%s' and '%s' in '%s'", error, warning, json);
	char *xml = (char *)test_read_file(junit, NULL);
	assert_non_null(strstr(xml, "Content.mgcb:2: error: /processorParam:Scale=abc is not a number above 0"));
	free(xml), free(json), free(error), free(warning);
	/* An /outputDir: that leaves the project's folder, with no -o: the
	 * reports were not written, and the last run's, which compiled the
	 * source, stayed. */
	static const char outside[] = "/outputDir:../up\n/build:Turn.Animation\n";
	assert_true(test_write_file(project, outside, strlen(outside)));
	r = test_animc("build", "-q", "--mgcb", project, "-o", out, "--report", report, "--junit", junit, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_animc("build", "-q", "--mgcb", project, "--report", report, "--junit", junit, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	json = (char *)test_read_file(report, NULL);
	error = test_format("{\"severity\": \"error\", \"path\": \"%s\", \"message\": \"/outputDir: '%s/../up' "
			    "leaves the project's folder; pass -o OUTDIR to choose the output folder\", \"line\": 1}",
			    project, dir);
	if (!strstr(json, error) || !strstr(json, "\"sources\": [],"))
		fail_msg("no '%s' in '%s'", error, json);
	xml = (char *)test_read_file(junit, NULL);
	assert_non_null(strstr(xml, "/../up&apos; leaves the project&apos;s folder; pass -o OUTDIR"));
	assert_null(strstr(xml, "Turn.Animation"));
	free(xml), free(json), free(error);
	free(data), free(report), free(junit), free(out), free(turn), free(project), free(dir);
}

/* MGCB splits a switch from its value at the first ':' or '=': a project
 * written /name=value (as MGCB's command line takes it) builds as one
 * written /name:value, to the same place and bytes (it was "neither an
 * option nor a comment"). */
static void a_switch_may_take_its_value_after_equals(void **state)
{
	char *dir = test_tmpdir("mgcb-equals"), *project = test_format("%s/Content.mgcb", dir);
	char *turn = test_format("%s/Turn.Animation", dir), *out = test_format("%s/bin/Anims/Turn.xnb", dir);
	char *one = test_format("%s/one", dir), *alone = test_format("%s/one/Turn.xnb", dir);
	static const char text[] = "/outputDir=bin\n/platform=DesktopGL\n/processor=PassThroughProcessor\n"
				   "/build=Turn.Animation;Anims/Turn.Animation\n";
	size_t size;
	uint8_t *data = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(turn, data, size));
	assert_true(test_write_file(project, text, strlen(text)));
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	assert_string_equal(r.err, "");
	test_run_release(&r);
	r = test_animc("build", "-q", "--platform", "d", "-o", one, turn, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_same_bytes(out, alone));
	free(data), free(alone), free(one), free(out), free(turn), free(project), free(dir);
}

/* $(Platform) in /outputDir: is the platform the files are written for:
 * with no /platform:, Windows (MGCB's default, and animc's); with
 * --platform, its letter's name, over the project's /platform: (it was
 * the empty name, then the project's, so two platforms built in turn
 * wrote over each other in one folder). */
static void the_platform_folder_is_the_platform_written(void **state)
{
	char *dir = test_tmpdir("mgcb-platform"), *plain = test_format("%s/Plain.mgcb", dir);
	char *windows = test_format("%s/Windows.mgcb", dir), *turn = test_format("%s/Turn.Animation", dir);
	static const char plain_text[] = "/outputDir:bin/$(Platform)\n/build:Turn.Animation\n";
	static const char windows_text[] = "/outputDir:out/$(Platform)\n/platform:Windows\n/build:Turn.Animation\n";
	static const struct {
		const char *project, *platform, *path;
		char letter;
	} builds[] = {
		{ "Plain", NULL, "bin/Windows/Turn.xnb", 'w' },
		{ "Windows", "d", "out/DesktopGL/Turn.xnb", 'd' },
		{ "Windows", "w", "out/Windows/Turn.xnb", 'w' },
	};
	size_t size;
	uint8_t *data = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(turn, data, size));
	free(data);
	assert_true(test_write_file(plain, plain_text, strlen(plain_text)));
	assert_true(test_write_file(windows, windows_text, strlen(windows_text)));
	for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
		char *project = test_format("%s/%s.mgcb", dir, builds[i].project);

		if (builds[i].platform)
			r = test_animc("build", "-q", "--platform", builds[i].platform, "--mgcb", project, NULL);
		else
			r = test_animc("build", "-q", "--mgcb", project, NULL);
		assert_int_equal(r.status, 0);
		test_run_release(&r);
		free(project);
	}
	/* Each where its platform says, with its letter: the two platforms
	 * of one project side by side. */
	for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
		char *path = test_format("%s/%s", dir, builds[i].path);
		uint8_t *bytes = test_read_file(path, &size);

		assert_true(size > 4);
		assert_int_equal(bytes[3], builds[i].letter);
		free(bytes), free(path);
	}
	assert_int_equal(test_count_files(test_format("%s/bin", dir)), 1);
	assert_int_equal(test_count_files(test_format("%s/out", dir)), 2);
	free(turn), free(windows), free(plain), free(dir);
}

/* Two items of a project to one output: the second is refused at its
 * /build: line, naming the line of the first and the output, in the
 * terminal and the report (it advised --base, which has no say in where a
 * project's items go, and named no line); the first is written. */
static void two_items_to_one_output_are_said_at_the_line(void **state)
{
	char *dir = test_tmpdir("mgcb-one-output"), *project = test_format("%s/Content.mgcb", dir);
	char *a = test_format("%s/A", dir), *b = test_format("%s/B", dir), *report = test_format("%s/r.json", dir);
	char *a_src = test_format("%s/A/Walk.Animation", dir), *b_src = test_format("%s/B/Walk.Animation", dir);
	char *one = test_format("%s/one", dir), *out = test_format("%s/bin/Anims/Walk.xnb", dir);
	char *alone = test_format("%s/one/Walk.xnb", dir);
	static const char text[] = "/outputDir:bin\n/build:A/Walk.Animation;Anims/Walk.Animation\n"
				   "/build:B/Walk.Animation;Anims/Walk.Animation\n";
	size_t size;
	uint8_t *data;
	test_run r;

	(void)state;
	assert_int_equal(mkdir(a, 0777), 0);
	assert_int_equal(mkdir(b, 0777), 0);
	data = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	assert_true(test_write_file(a_src, data, size));
	free(data);
	data = test_read_file("testdata/sample/Crane/Wave.Animation", &size);
	assert_true(test_write_file(b_src, data, size));
	free(data);
	assert_true(test_write_file(project, text, strlen(text)));
	char *want = test_format("%s:3: error: /build: '%s': its output Anims/Walk.xnb is also the output of line 2 "
				 "('%s'); give it another destination", project, b_src, a_src);
	for (int jobs = 1; jobs <= 2; jobs++) {
		r = test_animc("build", jobs == 1 ? "-j1" : "-j2", "--report", report, "--mgcb", project, NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, want) || strstr(r.err, "--base"))
			fail_msg("no '%s' in\n%s", want, r.err);
		test_run_release(&r);
	}
	char *json = (char *)test_read_file(report, NULL);
	char *want_json = test_format("\"path\": \"%s\", \"message\": \"/build: '%s': its output Anims/Walk.xnb is also "
				      "the output of line 2 ('%s'); give it another destination (/build:SOURCE;DEST)\", \"line\": 3,",
				      project, b_src, a_src);
	if (!strstr(json, want_json))
		fail_msg("no '%s' in %s", want_json, json);
	free(json), free(want_json), free(want);
	/* The first item's output is A's. */
	r = test_animc("build", "-q", "-o", one, a_src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_same_bytes(out, alone));
	free(alone), free(out), free(one), free(b_src), free(a_src), free(report), free(b), free(a), free(project);
	free(dir);
}

/* Two spellings of one output (";Moves//X.Animation", ";Moves/./X...",
 * ";Moves/Sub/../X...") are one file: the later item fails at its line,
 * as with one spelling.  The second item wrote over the first, exit 0,
 * and every build compiled one of them again.  A source spelt
 * "Anims//Turn.Animation" is the file "Anims/Turn.Animation": a later
 * item of it replaces the earlier, and the build settles. */
static void two_spellings_of_one_output_are_one(void **state)
{
	static const char *const dests[] = { "Moves//X.Animation", "Moves/./X.Animation", "./Moves/Sub/../X.Animation" };
	char *dir = test_tmpdir("mgcb-spellings"), *project = test_format("%s/C.mgcb", dir);
	char *out = test_format("%s/out", dir), *wave = test_format("%s/Wave.Animation", dir);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Wave.Animation", &size);
	test_run r;

	(void)state;
	assert_true(test_write_file(wave, bytes, size));
	free(bytes);
	for (size_t i = 0; i < sizeof dests / sizeof dests[0]; i++) {
		char *text = test_format("/build:Turn.Animation;Moves/X.Animation\n/build:Wave.Animation;%s\n", dests[i]);
		char *got = turn_project(dir, "C", text);

		r = test_animc("build", "-q", "--mgcb", project, "-o", out, NULL);
		if (r.status != 1 || !strstr(r.err, ":2: error: /build: ") ||
		    !strstr(r.err, "its output Moves/X.xnb is also the output of line 1"))
			fail_msg("%s: exit %d\n%s", dests[i], r.status, r.err);
		test_run_release(&r);
		free(got), free(text);
	}
	free(turn_project(dir, "C", "/build:Turn.Animation\n/processorParam:Scale=2\n/build:.//Turn.Animation\n"));
	test_sh("rm -rf '%s'", out);
	for (int run = 0; run < 2; run++) {
		r = test_animc("build", "--mgcb", project, "-o", out, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, run ? "compiled 0 sources (0 clips), 0 failed, 0 skipped, 0 warnings, 1 up to date"
				       : "compiled 1 source (1 clip), 0 failed"))
			fail_msg("run %d: %s", run, r.out);
		test_run_release(&r);
	}
	free(wave), free(out), free(project), free(dir);
}

/* A ;DEST loses its ending only when that is the source's extension (in
 * any case) or .xnb, as MGCB's ResolveOutputFilepath has it: ;Moves/Turn.v2
 * is Moves/Turn.v2.xnb, the asset Content.Load("Moves/Turn.v2") reads.
 * Any extension was dropped, so the game found no file, and two such
 * items of one source were taken for one output. */
static void a_destination_keeps_another_extension(void **state)
{
	static const char *const cases[][2] = {
		{ "Moves/Turn.v2", "Moves/Turn.v2.xnb" },   { "Moves/Turn.anim", "Moves/Turn.anim.xnb" },
		{ "Moves/Turn.Animation", "Moves/Turn.xnb" }, { "Moves/Turn.ANIMATION", "Moves/Turn.xnb" },
		{ "Moves/Turn.xnb", "Moves/Turn.xnb" },      { "Moves/Turn", "Moves/Turn.xnb" },
	};
	char *dir = test_tmpdir("mgcb-dest-ext"), *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = test_format("/build:Turn.Animation;%s\n", cases[i][0]);
		char *project = turn_project(dir, "C", text), *want = test_format("%s/%s\n", out, cases[i][1]);

		r = test_animc("outputs", "--mgcb", project, "-o", out, NULL);
		assert_int_equal(r.status, 0);
		if (strcmp(r.out, want) != 0)
			fail_msg(";%s: %s, not %s", cases[i][0], r.out, want);
		test_run_release(&r);
		free(want), free(project), free(text);
	}
	/* Two destinations that differ in their endings are two outputs. */
	char *project = turn_project(dir, "C", "/build:Turn.Animation;Moves/Turn.v1\n/build:Turn.Animation;Moves/Turn.v2\n");
	r = test_animc("build", "-q", "--mgcb", project, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	char *v1 = test_format("%s/Moves/Turn.v1.xnb", out), *v2 = test_format("%s/Moves/Turn.v2.xnb", out);
	assert_true(test_same_bytes(v1, v2));
	free(v1), free(v2), free(project), free(out), free(dir);
}

/* An item without ;DEST whose source lies in the project's folder, spelt
 * absolute or with ".." that comes back in, lands at its path below the
 * project's folder, as MGCB puts it.  It was refused as leaving the output
 * folder and the build stopped.  A source outside still needs a ;DEST. */
static void a_source_in_the_project_spelt_another_way_is_built(void **state)
{
	char *dir = test_tmpdir("mgcb-spelt-in"), *content = test_format("%s/Content", dir);
	char *real = NULL, *project = test_format("%s/Content/C.mgcb", dir), *out = test_format("%s/out", dir);
	char *idle = test_format("%s/out/Anims/Idle.xnb", dir), *text;
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/Anims' '%s/Other' && cp testdata/sample/Crane/Idle.Animation '%s/Anims/' && "
		"cp testdata/sample/Crane/Idle.Animation '%s/Other/'", content, dir, content, dir);
	real = realpath(content, NULL);
	assert_non_null(real);
	const char *spelt[] = { NULL, "../Content/Anims/Idle.Animation", "Anims/../../Content/Anims/Idle.Animation",
				"Anims/../Anims/Idle.Animation" };
	char *absolute = test_format("%s/Anims/Idle.Animation", real);
	spelt[0] = absolute;
	for (size_t i = 0; i < sizeof spelt / sizeof spelt[0]; i++) {
		text = test_format("/build:%s\n", spelt[i]);
		assert_true(test_write_file(project, text, strlen(text)));
		test_sh("rm -rf '%s'", out);
		r = test_animc("build", "-q", "--mgcb", project, "-o", out, NULL);
		if (r.status != 0 || !test_file_exists(idle))
			fail_msg("/build:%s: exit %d\n%s", spelt[i], r.status, r.err);
		test_run_release(&r);
		free(text);
	}
	text = test_format("/build:../Other/Idle.Animation\n");
	assert_true(test_write_file(project, text, strlen(text)));
	r = test_animc("build", "-q", "--mgcb", project, "-o", out, NULL);
	if (r.status != 1 || !strstr(r.err, "C.mgcb:1: error: the output of '../Other/Idle.Animation' would leave "
					     "the output folder"))
		fail_msg("exit %d\n%s", r.status, r.err);
	test_run_release(&r);
	free(text), free(absolute), free(idle), free(out), free(project), free(real), free(content), free(dir);
}

/* A response file the project includes (/@:FILE, as MGCB reads it) is
 * read in place: its paths relative to its own folder, an item without
 * ;DEST at its path below the project's folder, its diagnostics at its own
 * lines; it is a dependency of every item, as the project is (depfile; an
 * edit compiles again).  It was ignored without a word. */
static void a_response_file_is_read_in_place(void **state)
{
	char *dir = test_tmpdir("mgcb-include"), *project = test_format("%s/Content.mgcb", dir);
	char *sub = test_format("%s/Sub", dir), *anims = test_format("%s/Sub/Anims.mgcb", dir);
	char *deps = test_format("%s/d.d", dir), *one = test_format("%s/one", dir);
	char *wave = test_format("%s/bin/Sub/Wave.xnb", dir), *alone = test_format("%s/one/Wave.xnb", dir);
	static const char text[] = "/outputDir:bin\n/platform:DesktopGL\n/@:Sub\\Anims.mgcb\n/build:Turn.Animation\n";
	static const char anims_text[] = "/build:Wave.Animation\n/frobnicate:1\n";
	size_t size;
	uint8_t *data;
	char *dep_text, *want;
	test_run r;

	(void)state;
	assert_int_equal(mkdir(sub, 0777), 0);
	data = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	assert_true(test_write_file(test_format("%s/Turn.Animation", dir), data, size));
	free(data);
	data = test_read_file("testdata/sample/Crane/Wave.Animation", &size);
	assert_true(test_write_file(test_format("%s/Wave.Animation", sub), data, size));
	free(data);
	assert_true(test_write_file(project, text, strlen(text)));
	assert_true(test_write_file(anims, anims_text, strlen(anims_text)));
	r = test_animc("build", "-q", "--depfile", deps, "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	want = test_format("%s:2: warning: unknown switch /frobnicate:", anims);
	if (!strstr(r.err, want))
		fail_msg("no '%s' in\n%s", want, r.err);
	free(want);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/bin/Turn.xnb", dir)));
	r = test_animc("build", "-q", "--platform", "d", "-o", one, test_format("%s/Wave.Animation", sub), NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_same_bytes(wave, alone));
	/* Every output depends on both files (each also has an empty rule,
	 * a line of its own ending in ':'). */
	dep_text = (char *)test_read_file(deps, NULL);
	assert_non_null(strstr(dep_text, "Sub/Wave.xnb:"));
	assert_non_null(strstr(dep_text, "/Content.mgcb:\n"));
	assert_non_null(strstr(dep_text, "/Sub/Anims.mgcb:\n"));
	for (char *line = dep_text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t n = strcspn(line, "\n");

		if (n && line[n - 1] == ':')
			continue;
		if (!memmem(line, n, "Content.mgcb", 12) || !memmem(line, n, "Sub/Anims.mgcb", 14))
			fail_msg("a line of the depfile misses a project file: %.*s", (int)n, line);
	}
	free(dep_text);
	r = test_animc("build", "--mgcb", project, NULL);
	assert_non_null(strstr(r.out, "compiled 0 sources (0 clips), 0 failed, 0 skipped, 1 warning, 2 up to date"));
	test_run_release(&r);
	/* An edit of the response file compiles its items again. */
	static const char edited[] = "/processorParam:Scale=2\n/build:Wave.Animation\n/frobnicate:1\n";
	assert_true(test_write_file(anims, edited, strlen(edited)));
	r = test_animc("build", "--mgcb", project, NULL);
	assert_non_null(strstr(r.out, "compiled 2 sources (2 clips)"));
	test_run_release(&r);
	assert_false(test_same_bytes(wave, alone));
	free(alone), free(wave), free(one), free(deps), free(anims), free(sub), free(project), free(dir);
}

/* A response file is read only in the project's folder, and neither in a
 * cycle nor nested past 16: each an error naming the line that includes
 * it, and nothing is built. */
static void a_response_file_stays_in_the_project(void **state)
{
	char *top = test_tmpdir("mgcb-include-bad"), *dir = test_format("%s/P", top);
	char *project = test_format("%s/Content.mgcb", dir), *b = test_format("%s/B.mgcb", dir);
	static const struct {
		const char *text, *b_text, *where, *what;
	} cases[] = {
		{ "/outputDir:bin\n/@:../Outside.mgcb\n", NULL, "Content.mgcb:2", "is outside the project's folder" },
		{ "/outputDir:bin\n/@:B.mgcb\n", "# a cycle\n/@:Content.mgcb\n", "B.mgcb:2", "is being read already" },
		{ "/outputDir:bin\n/@:B.mgcb\n", "/@:B.mgcb\n", "B.mgcb:1", "is being read already" },
		{ "/outputDir:bin\n/@:Missing.mgcb\n", NULL, "Content.mgcb:2", "cannot open" },
		{ "/outputDir:bin\n/@:D1.mgcb\n", NULL, "D16.mgcb:1", "nest deeper than 16" },
	};
	test_run r;

	(void)state;
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_true(test_write_file(test_format("%s/Outside.mgcb", top), "/build:x.fbx\n", 13));
	for (int i = 1; i <= 20; i++) {
		char *path = test_format("%s/D%d.mgcb", dir, i), *text = test_format("/@:D%d.mgcb\n", i + 1);

		assert_true(test_write_file(path, text, strlen(text)));
		free(path), free(text);
	}
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_true(test_write_file(project, cases[i].text, strlen(cases[i].text)));
		if (cases[i].b_text)
			assert_true(test_write_file(b, cases[i].b_text, strlen(cases[i].b_text)));
		r = test_animc("build", "--mgcb", project, NULL);
		assert_int_equal(r.status, 1);
		char *want = test_format("%s/%s: error: /@:", dir, cases[i].where);
		if (!strstr(r.err, want) || !strstr(r.err, cases[i].what))
			fail_msg("case %zu: no '%s ... %s' in\n%s", i, want, cases[i].what, r.err);
		free(want);
		test_run_release(&r);
		assert_false(test_file_exists(test_format("%s/bin", dir)));
	}
	free(b), free(project), free(dir), free(top);
}

/* UTF-8 text (code points up to U+10FFFF) as UTF-16 (units 2) or UTF-32
 * (units 4), little- or big-endian, after its byte-order mark; its size in
 * *size. */
static uint8_t *unicode_text(const char *utf8, int units, bool is_big_endian, size_t *size)
{
	uint8_t *out = malloc(4 + strlen(utf8) * 4), *p = out;
	const unsigned char *s = (const unsigned char *)utf8;
	uint32_t put[2];

	assert_non_null(out);
	for (uint32_t c = 0xFEFF;; c = 0) {
		int n = 1;

		if (!c && !*s)
			break;
		if (!c) {
			int more = *s < 0x80 ? 0 : *s < 0xE0 ? 1 : *s < 0xF0 ? 2 : 3;

			c = more ? *s & (0x3F >> more) : *s;
			for (s++; more--; s++)
				c = c << 6 | (*s & 0x3F);
		}
		put[0] = c;
		if (units == 2 && c >= 0x10000) {
			put[0] = 0xD800 + ((c - 0x10000) >> 10);
			put[1] = 0xDC00 + ((c - 0x10000) & 0x3FF);
			n = 2;
		}
		for (int i = 0; i < n; i++, p += units) {
			for (int b = 0; b < units; b++)
				p[is_big_endian ? units - 1 - b : b] = (uint8_t)(put[i] >> (8 * b));
		}
	}
	*size = (size_t)(p - out);
	return out;
}

/* A project or response file saved as "Unicode" (UTF-16 or UTF-32 with a
 * byte-order mark) is read as MGCB reads it: the same items, parameters
 * and lines as its UTF-8 twin.  An @FILE argument list in UTF-16 is
 * refused as such; one with a UTF-8 mark is read without it. */
static void a_unicode_project_reads_as_its_utf8_twin(void **state)
{
	static const char text[] = "# Gr\xC3\xB6\xC3\x9F" "e \xE2\x9C\x93 \xF0\x9D\x84\x9E\r\n/outputDir:out\r\n"
				   "/processorParam:Scale=2\r\n/frobnicate:1\r\n/build:Turn.Animation\r\n";
	static const struct { int units; bool is_big_endian; } kinds[] = { { 2, false }, { 2, true }, { 4, false },
									  { 4, true } };
	char *dir = test_tmpdir("mgcb-unicode"), *project = test_format("%s/U.mgcb", dir);
	char *out = test_format("%s/out/Turn.xnb", dir), *want = test_format("%s:4: warning: unknown switch", project);
	char *list = test_format("%s/list", dir), *at = test_format("@%s", list), *one = test_format("%s/one", dir);
	size_t size;
	uint8_t *bytes;
	test_run r;

	(void)state;
	build_scale2(dir);
	free(turn_project(dir, "U", ""));
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		bytes = unicode_text(text, kinds[k].units, kinds[k].is_big_endian, &size);
		assert_true(test_write_file(project, bytes, size));
		free(bytes);
		unlink(out);
		r = test_animc("build", "-q", "--mgcb", project, NULL);
		if (r.status != 0 || !strstr(r.err, want))
			fail_msg("UTF-%d%s: status %d, no '%s' in\n%s", kinds[k].units * 8,
				 kinds[k].is_big_endian ? "BE" : "LE", r.status, want, r.err);
		test_run_release(&r);
		assert_true(same_bytes(strdup(out), test_format("%s/scale2/Turn.xnb", dir)));
	}

	/* A response file, UTF-16 as the project holding it is UTF-8. */
	char *response = test_format("%s/Items.mgcb", dir);
	static const char holder[] = "/outputDir:out\n/@:Items.mgcb\n";

	bytes = unicode_text("/processorParam:Scale=2\n/build:Turn.Animation\n", 2, false, &size);
	assert_true(test_write_file(response, bytes, size));
	free(bytes);
	assert_true(test_write_file(project, holder, strlen(holder)));
	unlink(out);
	r = test_animc("build", "-q", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(same_bytes(strdup(out), test_format("%s/scale2/Turn.xnb", dir)));

	/* animc's own argument lists. */
	char *line = test_format("\xEF\xBB\xBF%s/Turn.Animation\n", dir);

	assert_true(test_write_file(list, line, strlen(line)));
	r = test_animc("build", "-q", "-o", one, at, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_file_exists(test_format("%s/one/Turn.xnb", dir)));
	bytes = unicode_text(line + 3, 2, false, &size);
	assert_true(test_write_file(list, bytes, size));
	free(bytes);
	r = test_animc("build", "-q", "-o", one, at, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is UTF-16"));
	test_run_release(&r);
	free(line), free(response), free(list), free(at), free(one);
	free(want), free(out), free(project), free(dir);
}

/* An empty /outputDir: is the project's folder, as MGCB takes it, from
 * whatever working folder: built from that folder itself it failed with
 * "cannot create folder ''", naming no file or line. */
static void an_empty_output_dir_is_the_projects_folder(void **state)
{
	char *dir = test_tmpdir("mgcb-empty-out"), *project = test_format("%s/C.mgcb", dir);
	char *wave = test_format("%s/src/Wave.xnb", dir), *animc = realpath(test_animc_path(), NULL);
	static const char text[] = "/outputDir:\n/build:src/Wave.Animation\n";
	test_run r;

	(void)state;
	assert_non_null(animc);
	assert_true(test_write_file(project, text, strlen(text)));
	r = test_exec("sh", "-c", "mkdir -p \"$0/src\" && cp testdata/sample/Crane/Wave.Animation \"$0/src/\" && "
		      "cd \"$0\" && \"$1\" build -q --mgcb C.mgcb", dir, animc, NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(wave));
	/* From its parent, the same place. */
	r = test_animc("outputs", "--mgcb", project, NULL);
	assert_int_equal(r.status, 0);
	char *listed = test_format("%s\n", wave);
	assert_string_equal(r.out, listed);
	test_run_release(&r);
	free(listed), free(animc), free(wave), free(project), free(dir);
}

/* A folder of the project's swapped for a symbolic link that leads out of
 * it between the check of where a response file lies and its open
 * (another process writing the folder; the stand-in swaps it right after
 * the check): the file outside is not read.  It was, and each of its
 * lines was quoted in an error. */
static void a_response_file_is_not_read_through_a_folder_swapped_for_a_link(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("mgcb-swap"), *real = realpath(dir, NULL), *shim = test_format("%s/swap.so", dir);
	char *project = test_format("%s/p/Content.mgcb", real), *out = test_format("%s/out", dir);
	char *sub = test_format("%s/p/sub", real), *to = test_format("%s/secret/sub", real);
	char *said = test_format("Content.mgcb:2: error: /@:sub/Anims.mgcb: it is outside the project's folder (it is "
				 "'%s/Anims.mgcb')", to);
	test_run r;

	test_sh("mkdir -p '%s' '%s' && printf '/outputDir:bin\\n/@:sub/Anims.mgcb\\n' > '%s' && "
		"printf '/build:Turn.Animation\\n' > '%s/Anims.mgcb' && cp testdata/sample/Crane/Turn.Animation '%s/' && "
		"printf 'a line of a file outside\\n' > '%s/Anims.mgcb' && "
		"cc -shared -fPIC -o '%s' testdata/env/swap_after_realpath.c -ldl", sub, to, project, sub, sub, to, shim);
	r = test_animc("build", "-q", "--mgcb", project, "-o", out, NULL);
	if (r.status != 0)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	setenv("SWAP_FOLDER", sub, 1), setenv("SWAP_TO", to, 1), setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "-q", "--rebuild", "--mgcb", project, "-o", out, NULL);
	unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO");
	if (r.status != 1 || strstr(r.err, "a line of a file outside") || !strstr(r.err, said))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(dir), free(real), free(shim), free(project), free(out), free(sub), free(to), free(said);
}

/* A response file outside the project's folder, named by ".." or through
 * a symbolic link in it that leads out, is refused as outside whether it is
 * there or not: nothing past the point where its path leaves the folder is
 * looked at.  realpath() looked it up first: one not there was "cannot
 * open: No such file or directory", one there "outside the project's
 * folder". */
static void a_response_file_outside_is_refused_there_or_not(void **state)
{
	static const char *const values[] = { "../secret/Anims.mgcb", "../secret/Gone.mgcb", "link/Anims.mgcb",
					       "link/Gone.mgcb" };
	char *dir = test_tmpdir("mgcb-outside"), *real = realpath(dir, NULL), *project = test_format("%s/p/Content.mgcb", dir);
	char *out = test_format("%s/out", dir);
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/p' '%s/secret' && ln -s ../secret '%s/p/link' && printf '/build:x\\n' > "
		"'%s/secret/Anims.mgcb'", dir, dir, dir, dir);
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		char *said = test_format("Content.mgcb:2: error: /@:%s: it is outside the project's folder (it is "
					 "'%s/secret/%s')", values[i], real, strrchr(values[i], '/') + 1);

		test_sh("printf '/outputDir:bin\\n/@:%s\\n' > '%s'", values[i], project);
		r = test_animc("build", "-q", "--mgcb", project, "-o", out, NULL);
		if (r.status == 0 || !strstr(r.err, said))
			fail_msg("%s: exit %d, want '%s'\n%s%s", values[i], r.status, said, r.out, r.err);
		test_run_release(&r);
		free(said);
	}
	free(out), free(project), free(real), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_response_file_is_not_read_through_a_folder_swapped_for_a_link),
	cmocka_unit_test(a_response_file_outside_is_refused_there_or_not),
	cmocka_unit_test(an_output_folder_through_a_link_out_is_said_there_or_not),
	cmocka_unit_test(items_land_at_mgcb_paths),
	cmocka_unit_test(misspelt_switches_and_parameters_are_warned_of),
	cmocka_unit_test(a_project_error_is_in_the_reports_at_its_line),
	cmocka_unit_test(an_empty_output_dir_is_the_projects_folder),
	cmocka_unit_test(incremental_with_the_project_as_a_dependency),
	cmocka_unit_test(outputs_lists_the_project_output_dir),
	cmocka_unit_test(preprocessor_lines_choose_the_items),
	cmocka_unit_test(exact_names_the_item_parameters_that_convert),
	cmocka_unit_test(an_item_scale_past_float_is_named_so),
	cmocka_unit_test(a_later_build_of_a_source_replaces_it),
	cmocka_unit_test(a_parameter_may_take_its_value_after_a_colon),
	cmocka_unit_test(parameter_names_are_matched_exactly),
	cmocka_unit_test(the_command_line_gives_the_parameters_an_item_does_not),
	cmocka_unit_test(two_destinations_keep_their_parameters),
	cmocka_unit_test(two_destinations_are_two_test_cases),
	cmocka_unit_test(items_below_the_project_come_from_the_cache),
	cmocka_unit_test(items_outside_the_project_come_from_the_cache),
	cmocka_unit_test(two_destinations_stay_up_to_date),
	cmocka_unit_test(another_build_keeps_both_destinations),
	cmocka_unit_test(dotted_names_stay_in_the_output_folder),
	cmocka_unit_test(a_destination_that_names_no_file_fails_its_item),
	cmocka_unit_test(a_marked_project_and_its_platform_name),
	cmocka_unit_test(a_switch_may_take_its_value_after_equals),
	cmocka_unit_test(the_platform_folder_is_the_platform_written),
	cmocka_unit_test(two_items_to_one_output_are_said_at_the_line),
	cmocka_unit_test(two_spellings_of_one_output_are_one),
	cmocka_unit_test(a_destination_keeps_another_extension),
	cmocka_unit_test(a_source_in_the_project_spelt_another_way_is_built),
	cmocka_unit_test(a_response_file_is_read_in_place),
	cmocka_unit_test(a_response_file_stays_in_the_project),
	cmocka_unit_test(a_unicode_project_reads_as_its_utf8_twin),
	cmocka_unit_test(errors_name_the_project_line),
	cmocka_unit_test(an_output_folder_outside_the_project_needs_o),
	cmocka_unit_test(an_absolute_output_folder_inside_the_project_is_used),
	cmocka_unit_test(a_project_given_as_a_source_points_to_mgcb),
	cmocka_unit_test(an_output_folder_through_a_link_out_of_the_project_needs_o),
};

ANIMC_TEST_GROUP(tests);
