/*
 * mgcb_test.c - the MonoGame project reader (mgcb.c) on its own: the
 * platform names $(Platform) takes, and the names --platform's help gives
 * its letters.  What a build does with a project is
 * cmd/tests/mgcb_cli_test.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(the_platform_macro_names_the_platform_written),
	cmocka_unit_test(every_platform_letter_has_its_name),
};

ANIMC_TEST_GROUP(tests);
