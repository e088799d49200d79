/*
 * make_rule_test.c - the per-file make rule of docs/build.md, run with make:
 * after a source is touched, one make runs animc and the next has nothing
 * to do (animc gives an output it left as it was the time of the build);
 * and depfiles naming files make and ninja read specially.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#define DOC "docs/build.md"

/* The ```make block of DOC that holds the out/%.xnb rule, malloc()ed. */
static char *documented_rule(void)
{
	char *doc = (char *)test_read_file(DOC, NULL);
	char *rule = strstr(doc, "```make\nout/%.xnb:");

	if (!rule)
		fail_msg("%s has no ```make block starting with the out/%%.xnb rule", DOC);
	rule += strlen("```make\n");
	char *end = strstr(rule, "```");
	assert_non_null(end);
	char *text = test_format("%.*s", (int)(end - rule), rule);
	free(doc);
	return text;
}

/* A shell command run in `dir` with animc on the PATH; its run. */
static test_run run_in(const char *dir, const char *command)
{
	char cwd[4096];
	const char *animc = test_animc_path();

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *bin = animc[0] == '/' ? test_format("%s", animc) : test_format("%s/%s", cwd, animc);
	char *slash = strrchr(bin, '/');
	*slash = '\0';
	/* The rules name `animc`: the binary under test is first on the PATH. */
	char *script = test_format("mkdir -p '%s/bin' && ln -sf '%s/%s' '%s/bin/animc' && "
				   "PATH='%s/bin':\"$PATH\" && cd '%s' && %s",
				   dir, bin, slash + 1, dir, dir, dir, command);
	test_run r = test_exec("sh", "-c", script, NULL);

	free(script);
	free(bin);
	return r;
}

/* `make ARGS` in dir with animc on the PATH; returns make's exit status. */
static int make_in(const char *dir, const char *args)
{
	char *command = test_format("make -s %s", args);
	test_run r = run_in(dir, command);
	int status = r.status;

	if (status != 0 && status != 1)
		fail_msg("make %s: exit %d\n%s%s", args, status, r.out, r.err);
	test_run_release(&r);
	free(command);
	return status;
}

static void documented_make_rule_settles_after_one_rebuild(void **state)
{
	(void)state;
	char *rel = test_tmpdir("make-rule"), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	char *rule = documented_rule();
	char *makefile = test_format("%s/Makefile", dir), *art = test_format("%s/art/Crane", dir);
	char *src = test_format("%s/Turn.Animation", art);
	char *content = test_format("all: out/Crane/Turn.xnb\n%s", rule);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);

	assert_true(test_write_file(makefile, content, strlen(content)));
	char *mk = test_format("mkdir -p '%s'", art);
	assert_int_equal(system(mk), 0);
	free(mk);
	assert_true(test_write_file(src, bytes, size));
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);   /* up to date */
	/* Touched, not changed: animc's bytes are the same ones. */
	char *touch = test_format("touch '%s'", src);
	assert_int_equal(system(touch), 0);
	assert_int_equal(make_in(dir, "-q"), 1);   /* make wants to run the rule... */
	assert_int_equal(make_in(dir, ""), 0);     /* ...runs it once... */
	assert_int_equal(make_in(dir, "-q"), 0);   /* ...and then has nothing to do */
	/* So does a source changed in a way that compiles to the same bytes
	 * (a line added at its end): compiled, its output left as it was. */
	uint8_t *longer = malloc(size + 1);
	assert_non_null(longer);
	memcpy(longer, bytes, size);
	longer[size] = '\n';
	assert_true(test_write_file(src, longer, size + 1));
	free(longer);
	assert_int_equal(make_in(dir, "-q"), 1);
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);
	free(touch);
	free(bytes);
	free(content);
	free(src);
	free(art);
	free(makefile);
	free(rule);
	free(dir);
	free(rel);
}

/* The same rule with --skeleton: the model is in every depfile, so a
 * touched model makes make run the rule once, and then settles (animc gave
 * the outputs it left as they were the time of the build for a touched
 * source, but not for a touched model, and make ran the rule forever). */
static void a_touched_skeleton_settles_after_one_rebuild(void **state)
{
	(void)state;
	char *rel = test_tmpdir("make-rule-model"), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	char *content = test_format("all: out/Crane/Turn.xnb\n"
				    "out/%%.xnb: art/%%.Animation\n"
				    "\tanimc build -q --skeleton art/Crane/Crane.x --base art --depfile $@.d -o out $<\n"
				    "-include $(shell find out -name '*.d' 2>/dev/null)\n");
	char *makefile = test_format("%s/Makefile", dir);
	char *copy = test_format("mkdir -p '%s/art' && cp -r testdata/sample/Crane '%s/art/'", dir, dir);
	char *touch = test_format("touch '%s/art/Crane/Crane.x'", dir);

	assert_true(test_write_file(makefile, content, strlen(content)));
	assert_int_equal(system(copy), 0);
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);
	sleep(1);   /* a later mtime on file systems of coarse times */
	assert_int_equal(system(touch), 0);
	assert_int_equal(make_in(dir, "-q"), 1);   /* the model is newer: run the rule */
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);   /* and then nothing to do */
	free(touch), free(copy), free(makefile), free(content), free(dir), free(rel);
}

/* The absolute path of a fresh test folder (make and ninja run in it). */
static char *absolute_tmpdir(const char *name)
{
	char *rel = test_tmpdir(name), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	free(rel);
	return dir;
}

/*
 * File names with ':' and '%' in a depfile (an output's ':' becomes '_',
 * but OUTDIR's stays): make reads a bare ':' as the end of the target (or a
 * static pattern rule) and a '%' in a target as a pattern rule.  Escaped,
 * make and ninja (deps = gcc) both read the names.
 */
static void depfiles_escape_colons_and_percents(void **state)
{
	(void)state;
	char *dir = absolute_tmpdir("depfile-names");
	static const char makefile[] =
		"all: o\\:ut/g_h.xnb o\\:ut/p%q.xnb\n"
		"o\\:ut/g_h.xnb o\\:ut/p\\%q.xnb:\n"
		"\tanimc build -q --depfile deps.d -o o:ut art\n"
		"-include deps.d\n";
	static const char ninja[] =
		"rule animc\n"
		"  command = animc build -q --depfile $out.d -o o:ut $in\n"
		"  depfile = $out.d\n"
		"  deps = gcc\n"
		"build o$:ut/g_h.xnb: animc art/g$:h.Animation\n"
		"build o$:ut/p%q.xnb: animc art/p%q.Animation\n";
	char *path = test_format("%s/Makefile", dir);
	test_run r;

	assert_true(test_write_file(path, makefile, strlen(makefile)));
	free(path);
	path = test_format("%s/build.ninja", dir);
	assert_true(test_write_file(path, ninja, strlen(ninja)));
	free(path);
	r = run_in(dir, "mkdir art && cp " "\"$OLDPWD\"/testdata/sample/Crane/Turn.Animation art/g:h.Animation && "
			"cp \"$OLDPWD\"/testdata/sample/Crane/Wave.Animation art/p%q.Animation");
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(make_in(dir, ""), 0);
	path = test_format("%s/deps.d", dir);
	{
		char *text = (char *)test_read_file(path, NULL);

		/* The sources by absolute paths: the output as named. */
		char *want = test_format("o\\:ut/g_h.xnb: %s/art/g\\:h.Animation\n"
					 "o\\:ut/p\\%%q.xnb: %s/art/p%%q.Animation\n", dir, dir);

		assert_string_equal(text, want);
		free(want);
		free(text);
	}
	free(path);
	assert_int_equal(make_in(dir, "-q"), 0);   /* up to date */
	r = run_in(dir, "touch art/p%q.Animation");
	test_run_release(&r);
	assert_int_equal(make_in(dir, "-q"), 1);   /* the source is newer */
	/* ninja, from scratch, reads the same names. */
	r = run_in(dir, "rm -rf o:ut deps.d && ninja && ninja -t deps && ninja");
	if (r.status != 0)
		fail_msg("ninja: exit %d\n%s%s", r.status, r.out, r.err);
	assert_non_null(strstr(r.out, "o:ut/g_h.xnb: #deps 1, deps mtime"));
	assert_non_null(strstr(r.out, "o:ut/p%q.xnb: #deps 1, deps mtime"));
	char *g = test_format("\n    %s/art/g:h.Animation\n", dir), *p = test_format("\n    %s/art/p%%q.Animation\n", dir);
	assert_non_null(strstr(r.out, g));
	assert_non_null(strstr(r.out, p));
	free(g), free(p);
	assert_non_null(strstr(r.out, "ninja: no work to do."));
	test_run_release(&r);
	free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(documented_make_rule_settles_after_one_rebuild),
	cmocka_unit_test(a_touched_skeleton_settles_after_one_rebuild),
	cmocka_unit_test(depfiles_escape_colons_and_percents),
};

ANIMC_TEST_GROUP(tests);
