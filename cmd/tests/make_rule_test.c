/*
 * make_rule_test.c - the per-file make rule of docs/build.md, run with make:
 * after a source is touched, one make runs animc and the next has nothing
 * to do (animc gives an output it left as it was the time of the build).
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

/* `make -C dir ARGS` with animc on the PATH; returns make's exit status. */
static int make_in(const char *dir, const char *args)
{
	char cwd[4096];
	const char *animc = test_animc_path();

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *bin = animc[0] == '/' ? test_format("%s", animc) : test_format("%s/%s", cwd, animc);
	char *slash = strrchr(bin, '/');
	*slash = '\0';
	/* The rule names `animc`: the binary under test is first on the PATH. */
	char *script = test_format("mkdir -p '%s/bin' && ln -sf '%s/%s' '%s/bin/animc' && "
				   "PATH='%s/bin':\"$PATH\" make -s -C '%s' %s",
				   dir, bin, slash + 1, dir, dir, dir, args);
	test_run r = test_exec("sh", "-c", script, NULL);
	int status = r.status;

	if (status != 0 && status != 1)
		fail_msg("make %s: exit %d\n%s%s", args, status, r.out, r.err);
	test_run_release(&r);
	free(script);
	free(bin);
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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(documented_make_rule_settles_after_one_rebuild),
};

ANIMC_TEST_GROUP(tests);
