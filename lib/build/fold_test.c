/*
 * fold_test.c - names folded as file systems that ignore case fold them:
 * letters of each script alike in either case, what simple folding keeps
 * apart kept apart, bytes that are no UTF-8 compared as themselves, and
 * build_fold_name giving one string exactly when the names compare alike.
 */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "fold.h"

/* Pairs one file where case is ignored: ASCII, Latin-1 Supplement and
 * Latin Extended-A (ÿ and Ÿ lie in both), Greek (final sigma, the micro
 * sign), Cyrillic, Armenian, the Kelvin sign, fullwidth letters, Deseret. */
static const char *const alike[][2] = {
	{ "Walk.xnb", "wALK.XNB" },
	{ "\xc3\x89" "clair", "\xc3\xa9" "clair" },              /* Éclair éclair */
	{ "\xc3\x98resund", "\xc3\xb8RESUND" },                   /* Øresund øRESUND */
	{ "\xc5\xb8", "\xc3\xbf" },                               /* Ÿ ÿ */
	{ "\xc5\x81\xc3\xb3\x64\xc5\xba", "\xc5\x82\xc3\x93\x44\xc5\xb9" },   /* Łódź łÓDŹ */
	{ "\xc5\xbf", "S" },                                      /* long s, S */
	{ "\xce\xa3\xce\x9f\xce\xa3", "\xcf\x83\xce\xbf\xcf\x82" },  /* ΣΟΣ σος */
	{ "\xc2\xb5", "\xce\x9c" },                               /* micro sign, Μ */
	{ "\xd0\x81\xd0\xb6", "\xd1\x91\xd0\x96" },               /* Ёж ёЖ */
	{ "\xd4\xb1", "\xd5\xa1" },                               /* Armenian Ա ա */
	{ "\xe2\x84\xaa", "k" },                                  /* Kelvin sign */
	{ "\xef\xbc\xa1", "\xef\xbd\x81" },                       /* fullwidth Ａ ａ */
	{ "\xf0\x90\x90\x80", "\xf0\x90\x90\xa8" },               /* Deseret 𐐀 𐐨 */
	{ "\xc8\xba", "\xe2\xb1\xa5" },                           /* Ⱥ ⱥ: two bytes, three folded */
};

/* Pairs simple folding keeps apart (NTFS keeps them apart as well). */
static const char *const apart[][2] = {
	{ "\xc3\x9f", "ss" },                                     /* ß ss */
	{ "\xc4\xb0", "i" },                                      /* İ i */
	{ "\xc4\xb1", "i" },                                      /* ı i */
	{ "e\xcc\x81", "\xc3\xa9" },                              /* e + U+0301, é: normalisation is not folding */
	{ "Walk", "Walk2" },
	{ "\xc3\xa9", "\xc3\xa8" },                               /* é è */
	{ "\xff", "\xc3\xbf" },                                   /* a byte that is no UTF-8, ÿ */
	{ "\xc3", "\xc3\xa9" },                                   /* a cut letter, the whole one */
	{ "\xc0\xa9", "\xc2\xa9" },                               /* overlong ©, © */
};

static void letters_alike_but_for_case_compare_alike(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof alike / sizeof alike[0]; i++) {
		char *a = build_fold_name(alike[i][0]), *b = build_fold_name(alike[i][1]);

		if (build_fold_compare(alike[i][0], alike[i][1]) != 0 || build_fold_compare(alike[i][1], alike[i][0]) != 0)
			fail_msg("'%s' and '%s' compare apart", alike[i][0], alike[i][1]);
		assert_non_null(a);
		assert_non_null(b);
		if (strcmp(a, b) != 0)
			fail_msg("'%s' and '%s' fold to '%s' and '%s'", alike[i][0], alike[i][1], a, b);
		/* Folding again changes nothing. */
		char *again = build_fold_name(a);
		assert_string_equal(again, a);
		free(again), free(a), free(b);
	}
}

static void letters_simple_folding_keeps_apart_compare_apart(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof apart / sizeof apart[0]; i++) {
		int ab = build_fold_compare(apart[i][0], apart[i][1]), ba = build_fold_compare(apart[i][1], apart[i][0]);
		char *a = build_fold_name(apart[i][0]), *b = build_fold_name(apart[i][1]);

		if (ab == 0 || (ab > 0) == (ba > 0))
			fail_msg("'%s' and '%s' compare %d and %d", apart[i][0], apart[i][1], ab, ba);
		assert_non_null(a);
		assert_non_null(b);
		if (strcmp(a, b) == 0)
			fail_msg("'%s' and '%s' both fold to '%s'", apart[i][0], apart[i][1], a);
		free(a), free(b);
	}
}

/* The folded names, byte for byte: lower case, and bytes that are no
 * UTF-8 kept as they are. */
static void folded_names_are_the_small_letters(void **state)
{
	static const char *const cases[][2] = {
		{ "Walk/Run.xnb", "walk/run.xnb" },
		{ "\xc3\x89t\xc3\xa9", "\xc3\xa9t\xc3\xa9" },
		{ "\xd0\x91\xd0\x95\xd0\x93", "\xd0\xb1\xd0\xb5\xd0\xb3" },
		{ "\xc8\xba", "\xe2\xb1\xa5" },
		{ "A\xff\xc3" "B\xed\xa0\x80", "a\xff\xc3" "b\xed\xa0\x80" },
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *folded = build_fold_name(cases[i][0]);

		assert_non_null(folded);
		assert_string_equal(folded, cases[i][1]);
		free(folded);
	}
	/* The order is a name's letters' folded, so alike names sort together. */
	assert_true(build_fold_compare("\xc3\x89" "a", "\xc3\xa9" "b") < 0);
	assert_true(build_fold_compare("\xc3\xa9" "b", "\xc3\x89" "a") > 0);
	assert_true(build_fold_compare("walk", "Walk.xnb") < 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(letters_alike_but_for_case_compare_alike),
	cmocka_unit_test(letters_simple_folding_keeps_apart_compare_apart),
	cmocka_unit_test(folded_names_are_the_small_letters),
};

ANIMC_TEST_GROUP(tests);
