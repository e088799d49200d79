/*
 * mgcb_test.c - the MonoGame project reader (mgcb.c) on its own: the
 * platform names $(Platform) takes, and the names --platform's help gives
 * its letters.  What a build does with a project is
 * cmd/tests/mgcb_cli_test.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "test_support.h"
#include "help.h"
#include "mgcb.h"

#include <animc/animc_formats.h>

/* The project's /outputDir: once read with `settings`, relative to the
 * project's folder ("p/"). */
static char *output_dir_of(const char *text, const build_mgcb_settings *settings)
{
	FILE *quiet = fopen("/dev/null", "w");
	build_mgcb project;
	char *dir;

	assert_non_null(quiet);
	assert_true(build_mgcb_parse("p/Content.mgcb", (const uint8_t *)text, strlen(text), settings, quiet,
				     &project));
	fclose(quiet);
	assert_non_null(project.output_dir);
	dir = strdup(project.output_dir + 2);
	build_mgcb_release(&project);
	return dir;
}

/* $(Platform) is the platform the files are written for: --platform's,
 * else the project's, else MGCB's default, Windows. */
static void the_platform_macro_names_the_platform_written(void **state)
{
	build_mgcb_settings none = { 0 }, desktop = { .platform = 'd' }, web = { .platform = 'b' };
	char *dir;

	(void)state;
	dir = output_dir_of("/outputDir:bin/$(Platform)\n", &none);
	assert_string_equal(dir, "bin/Windows");
	free(dir);
	dir = output_dir_of("/outputDir:bin/$(Platform)\n/platform:Android\n", &none);
	assert_string_equal(dir, "bin/Android");
	free(dir);
	dir = output_dir_of("/outputDir:bin/$(Platform)\n/platform:Windows\n", &desktop);
	assert_string_equal(dir, "bin/DesktopGL");
	free(dir);
	dir = output_dir_of("/outputDir:bin/$(Platform)\n", &web);
	assert_string_equal(dir, "bin/Web");
	free(dir);
	/* The project's spelling of the letter given. */
	dir = output_dir_of("/platform:BlazorGL\n/outputDir:bin/$(Platform)\n", &web);
	assert_string_equal(dir, "bin/BlazorGL");
	free(dir);
}

/* Every letter animc writes has a MonoGame name that reads back as that
 * letter, and --platform's help gives it. */
static void every_platform_letter_has_its_name(void **state)
{
	const build_option_doc *d = NULL;

	(void)state;
	for (size_t i = 0; build_option_doc_at(i); i++)
		if (strcmp(build_option_doc_at(i)->name, "platform") == 0)
			d = build_option_doc_at(i);
	assert_non_null(d);
	assert_non_null(d->manual);
	for (const char *l = animc_xnb_platforms(); *l; l++) {
		const char *name = build_mgcb_platform_name(*l);
		char *said;

		if (!name)
			fail_msg("no name for the letter '%c'", *l);
		assert_int_equal(build_mgcb_platform_letter(name), *l);
		said = test_format(" %c %s", *l, name);
		if (!strstr(d->manual, said))
			fail_msg("--platform's help does not say '%s'", said + 1);
		free(said);
	}
	assert_null(build_mgcb_platform_name('Q'));
}

/* The reader's comparisons of names ignoring case, counted: this
 * definition takes the place of the C library's in the test program. */
static unsigned long nocase_compares;

int strcasecmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;

	nocase_compares++;
	while (*p && tolower(*p) == tolower(*q))
		p++, q++;
	return tolower(*p) - tolower(*q);
}

/* Comparisons made reading a project of `count` items, each a /build: of
 * its own source; `again` of them given a second time at the end. */
static unsigned long compares_reading(size_t count, size_t again)
{
	size_t size = (count + again) * 96 + 64, used = 0;
	char *text = malloc(size);
	FILE *quiet = fopen("/dev/null", "w");
	build_mgcb_settings none = { 0 };
	build_mgcb project;

	assert_non_null(text);
	assert_non_null(quiet);
	used += (size_t)snprintf(text + used, size - used, "/outputDir:bin\n");
	for (size_t i = 0; i < count + again; i++)
		used += (size_t)snprintf(text + used, size - used,
					 "/processor:AnimationProcessor\n/processorParam:Scale=1\n/build:d/C%05zu.fbx\n",
					 i < count ? i : i - count);
	nocase_compares = 0;
	assert_true(build_mgcb_parse("p/Content.mgcb", (const uint8_t *)text, used, &none, quiet, &project));
	unsigned long compares = nocase_compares;

	/* Those given again moved to the end, in their new order. */
	assert_int_equal(project.count, count);
	for (size_t i = 0; i < count; i++) {
		char *want = test_format("p/d/C%05zu.fbx", i < count - again ? i + again : i - (count - again));

		assert_string_equal(project.items[i].source, want);
		free(want);
	}
	build_mgcb_release(&project);
	fclose(quiet);
	free(text);
	return compares;
}

/* A /build: finds the earlier item it replaces without comparing it with
 * every earlier one: the work grows as the items do, not as their square. */
static void reading_a_project_is_linear_in_its_items(void **state)
{
	(void)state;
	unsigned long small = compares_reading(1000, 10), large = compares_reading(4000, 40);

	if (large > 5 * small)
		fail_msg("%lu comparisons for 1000 items, %lu for 4000", small, large);
}

/* A source given again replaces the earlier item with its ;DEST (or any,
 * when it gives none), ignoring case; a /copy: replaces a /copy: alone. */
static void a_source_given_again_replaces_its_earlier_item(void **state)
{
	const char *text = "/build:a.fbx;One/a\n/build:A.FBX;Two/a\n/copy:a.fbx\n/build:b.fbx\n"
			   "/build:a.fbx;two/A\n/copy:A.fbx\n/build:a.fbx\n";
	FILE *quiet = fopen("/dev/null", "w");
	build_mgcb_settings none = { 0 };
	build_mgcb project;

	(void)state;
	assert_non_null(quiet);
	assert_true(build_mgcb_parse("p/Content.mgcb", (const uint8_t *)text, strlen(text), &none, quiet, &project));
	fclose(quiet);
	/* two/A replaced Two/a; the last a.fbx the first left, One/a. */
	assert_int_equal(project.count, 4);
	assert_string_equal(project.items[0].source, "p/b.fbx");
	assert_string_equal(project.items[1].link, "two/A");
	assert_true(project.items[2].is_copy);
	assert_string_equal(project.items[2].source, "p/A.fbx");
	assert_string_equal(project.items[3].source, "p/a.fbx");
	assert_null(project.items[3].link);
	assert_int_equal(project.items[3].line, 7);
	build_mgcb_release(&project);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reading_a_project_is_linear_in_its_items),
	cmocka_unit_test(a_source_given_again_replaces_its_earlier_item),
	cmocka_unit_test(the_platform_macro_names_the_platform_written),
	cmocka_unit_test(every_platform_letter_has_its_name),
};

ANIMC_TEST_GROUP(tests);
