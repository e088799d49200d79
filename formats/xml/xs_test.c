/*
 * xs_test.c - xs:float/int/boolean/duration and list parsing, and
 * root-element sniffing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "xml.h"

static bool parse_float(const char *s, float *out)
{
	return animc_xs_float(s, strlen(s), out);
}

static void floats_as_dotnet_read_them(void **state)
{
	float f;

	(void)state;
	assert_true(parse_float("0.650804", &f));
	assert_true(f == (float)0.650804);
	assert_true(parse_float("-0.000000", &f));
	assert_true(f == 0 && signbit(f));
	assert_true(parse_float("0.000000", &f));
	assert_true(f == 0 && !signbit(f));
	assert_true(parse_float("1E-05", &f));
	assert_true(f == (float)1e-05);
	assert_true(parse_float("  \n\t2.5e+2\r\n ", &f));
	assert_true(f == 250);
	assert_true(parse_float("+.5", &f) && f == 0.5f);
	assert_true(parse_float("7.", &f) && f == 7);
	assert_true(parse_float("-12", &f) && f == -12);
	assert_true(parse_float("3.4028234663852886e38", &f) && f == 3.4028234663852886e38f);
	/* Rounded through double, as Single.Parse did: this is 1.0, although
	 * rounding the decimal straight to float would give the next float up. */
	assert_true(parse_float("1.00000005960464477550", &f));
	assert_true(f == 1.0f);
	/* Many digits, beyond the fast path. */
	assert_true(parse_float("0.1000000000000000000000000001", &f) && f == 0.1f);
	assert_true(parse_float("123456789012345678901234567890", &f) && f == 1.2345679e29f);
}

static void special_floats_parse(void **state)
{
	float f;

	(void)state;
	assert_true(parse_float("NaN", &f) && isnan(f));
	assert_true(parse_float("INF", &f) && isinf(f) && f > 0);
	assert_true(parse_float("+INF", &f) && isinf(f) && f > 0);
	assert_true(parse_float(" -INF ", &f) && isinf(f) && f < 0);
}

static void malformed_floats_fail(void **state)
{
	static const char *const bad[] = {
		"", " ", "abc", "1.2.3", "0x10", "inf", "nan", "Infinity", "1e", "1e+", "+", "-", ".",
		"1,5", "1 2", "--1", "1e39", "-1e39", "1.0f", "NAN", "١",
	};
	float f = 42;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse_float(bad[i], &f))
			fail_msg("'%s' parsed as %g", bad[i], (double)f);
	}
	assert_true(f == 42);
	/* Not NUL-terminated: only len bytes count. */
	assert_true(animc_xs_float("1.5junk", 3, &f) && f == 1.5f);
}

static void ints_within_int32(void **state)
{
	int32_t v;
	bool range;

	(void)state;
	assert_true(animc_xs_int("10", 2, &v, &range) && v == 10);
	assert_true(animc_xs_int(" -5\n", 4, &v, &range) && v == -5);
	assert_true(animc_xs_int("+7", 2, &v, &range) && v == 7);
	assert_true(animc_xs_int("2147483647", 10, &v, &range) && v == INT32_MAX);
	assert_true(animc_xs_int("-2147483648", 11, &v, &range) && v == INT32_MIN);
	assert_false(animc_xs_int("2147483648", 10, &v, &range));
	assert_true(range);
	assert_false(animc_xs_int("-99999999999999999999999", 24, &v, &range));
	assert_true(range);
	assert_false(animc_xs_int("abc", 3, &v, &range));
	assert_false(range);
	assert_false(animc_xs_int("", 0, &v, &range));
	assert_false(animc_xs_int("1.0", 3, &v, &range));
	assert_false(range);
	assert_false(animc_xs_int("-", 1, &v, NULL));
	int64_t w;
	assert_true(animc_xs_int64("9223372036854775807", 19, &w) && w == INT64_MAX);
	assert_true(animc_xs_int64("-9223372036854775808", 20, &w) && w == INT64_MIN);
	assert_false(animc_xs_int64("9223372036854775808", 19, &w));
}

static void booleans(void **state)
{
	bool b;

	(void)state;
	assert_true(animc_xs_bool("true", 4, &b) && b);
	assert_true(animc_xs_bool(" 1 ", 3, &b) && b);
	assert_true(animc_xs_bool("false", 5, &b) && !b);
	assert_true(animc_xs_bool("0", 1, &b) && !b);
	assert_false(animc_xs_bool("True", 4, &b));
	assert_false(animc_xs_bool("yes", 3, &b));
	assert_false(animc_xs_bool("", 0, &b));
	assert_false(animc_xs_bool("2", 1, &b));
}

static bool root(const char *doc, char *name)
{
	return animc_xml_root_name((const uint8_t *)doc, strlen(doc), name, 64);
}

static void root_element_sniffing(void **state)
{
	char name[64];

	(void)state;
	assert_true(root("<?xml version=\"1.0\" ?>\n<AnimationSequence xmlns:xsi=\"x\">", name));
	assert_string_equal(name, "AnimationSequence");
	assert_true(root("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n"
			 "<!-- a comment <Foo> -->\n<?pi x?>\n<!DOCTYPE x [ <!ENTITY a \"<b>\"> ]>"
			 "\n<XnaContent>", name));
	assert_string_equal(name, "XnaContent");
	assert_true(root("<ns:Root/>", name));
	assert_string_equal(name, "ns:Root");
	assert_false(root("", name));
	assert_false(root("garbage", name));
	assert_false(root("<?xml version=\"1.0\"", name));
	assert_false(root("<!-- never closed", name));
	assert_false(root("<AnimationSeq", name));   /* cut inside the name */
	assert_false(root("\x00\x01\x02", name));
	/* A name longer than the buffer is not a match. */
	char tiny[4];
	assert_false(animc_xml_root_name((const uint8_t *)"<Animation>", 11, tiny, sizeof tiny));
}

static bool cut(const char *doc)
{
	return animc_xml_root_is_cut((const uint8_t *)doc, strlen(doc));
}

/* Bytes that end before the root element's name does may name it once
 * more of the file is read: a licence comment longer than a probe head. */
static void a_head_cut_before_the_root_is_told(void **state)
{
	static const char *const cuts[] = {
		"<?xml version=\"1.0\"", "<?xml version=\"1.0\"?>", "<?xml version=\"1.0\"?>\n ",
		"\xEF\xBB\xBF<!-- a licence", "<!-- a licence -->\n<?pi", "<!DOCTYPE x [ <!ENTITY a \"<b>\">",
		"<!-- a -->", "<!-- a --><", "<!-- a --><!", "<!-- a --><!-", "<!-- a --><!DOCT",
		"<?xml version=\"1.0\"?><AnimationSeq", "<Root",
	};
	static const char *const whole[] = {
		"", "   \n", "garbage", "{\"asset\":", "\x00\x01\x02", "<!-- a --><Root>", "<Root ",
		"<!-- a --><!x", "XNBw",
	};
	size_t size;
	uint8_t *u16;

	(void)state;
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
		if (!cut(cuts[i]))
			fail_msg("not cut: '%s'", cuts[i]);
	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
		if (cut(whole[i]))
			fail_msg("cut: '%s'", whole[i]);
	/* UTF-16, as the sniffer reads it. */
	u16 = test_utf16(cuts[3] + 3, strlen(cuts[3] + 3), false, true, &size);
	assert_true(animc_xml_root_is_cut(u16, size));
	free(u16);
	u16 = test_utf16(whole[5], strlen(whole[5]), true, true, &size);
	assert_false(animc_xml_root_is_cut(u16, size));
	free(u16);
}

/* A surrogate out of its pair is placed where it stands: libxml2 put such
 * an error on line 1 (1:37), a bad byte of UTF-8 on its own line. */
static void a_broken_utf16_unit_is_placed(void **state)
{
	static const char doc[] = "<?xml version=\"1.0\"?>\n<A>\n  <B>N" "\xF0\x9F\x98\x80" "d</B>\n</A>\n";
	uint32_t line, column, unit;

	(void)state;
	for (int form = 0; form < 4; form++) {
		size_t size;
		uint8_t *u16 = test_utf16(doc, sizeof doc - 1, form & 1, form < 2, &size);
		size_t bom = form < 2 ? 2 : 0, at = bom + 2 * (size_t)(strstr(doc, "N" "\xF0") - doc + 1);

		/* Whole, the pair is one character. */
		assert_false(animc_xml_utf16_broken(u16, size, &line, &column, &unit));
		/* Its second half gone (a copy of the first): line 3, column 7. */
		memcpy(u16 + at + 2, u16 + at, 2);
		assert_true(animc_xml_utf16_broken(u16, size, &line, &column, &unit));
		assert_int_equal(line, 3);
		assert_int_equal(column, 7);
		assert_int_equal(unit, 0xD83D);
		/* A second half alone: 'A', then U+DE00. */
		for (int k = 0; k < 2; k++) {
			unsigned v = k ? 0xDE00 : 'A';

			u16[at + 2 * k + (form & 1 ? 0 : 1)] = (uint8_t)(v >> 8);
			u16[at + 2 * k + (form & 1 ? 1 : 0)] = (uint8_t)(v & 0xFF);
		}
		assert_true(animc_xml_utf16_broken(u16, size, &line, &column, &unit));
		assert_int_equal(line, 3);
		assert_int_equal(column, 8);
		assert_int_equal(unit, 0xDE00);
		free(u16);
	}
	assert_false(animc_xml_utf16_broken((const uint8_t *)doc, sizeof doc - 1, &line, &column, &unit));
}

/* A UTF-16 head (as an editor saves "Unicode") is read as its UTF-8 twin:
 * both byte orders, with a byte-order mark or "<?" first; a name outside
 * ASCII comes out in UTF-8, a cut unit or pair is left out. */
static void root_element_sniffing_in_utf16(void **state)
{
	/* U+00F6, then U+1F600 as a surrogate pair. */
	static const char doc[] = "<?xml version=\"1.0\" encoding=\"utf-16\"?>\r\n<!-- \xC3\xB6 -->"
				  "<B\xC3\xB6ne\xF0\x9F\x98\x80 a=\"1\">";
	char name[64];

	(void)state;
	for (int form = 0; form < 4; form++) {
		size_t size, head_size;
		uint8_t *u16 = test_utf16(doc, sizeof doc - 1, form & 1, form < 2, &size), *copy;
		const uint8_t *head;

		assert_true(animc_xml_root_name(u16, size, name, sizeof name));
		assert_string_equal(name, "B\xC3\xB6ne\xF0\x9F\x98\x80");
		head_size = size;
		head = animc_xml_head_utf8(u16, &head_size, &copy);
		assert_non_null(copy);
		assert_ptr_equal(head, copy);
		assert_int_equal(head_size, sizeof doc - 1);
		assert_memory_equal(head, doc, sizeof doc - 1);
		free(copy);
		/* Cut inside the pair's second unit, then between its units. */
		for (size_t cut = 1; cut <= 2; cut++) {
			head_size = size - 2 * strlen(" a=\"1\">") - cut;
			head = animc_xml_head_utf8(u16, &head_size, &copy);
			assert_int_equal(head_size, sizeof doc - 1 - strlen("\xF0\x9F\x98\x80 a=\"1\">"));
			assert_memory_equal(head, doc, head_size);
			free(copy);
		}
		free(u16);
	}
	/* An unpaired surrogate is U+FFFD; UTF-8 is returned as it is. */
	{
		static const uint8_t lone[] = { 0xFF, 0xFE, '<', 0, 0x00, 0xDC, 'x', 0, '/', 0, '>', 0 };
		size_t size = sizeof lone;
		uint8_t *copy;
		const uint8_t *head = animc_xml_head_utf8(lone, &size, &copy);

		assert_int_equal(size, 7);
		assert_memory_equal(head, "<\xEF\xBF\xBDx/>", 7);
		free(copy);
		assert_true(animc_xml_root_name(lone, sizeof lone, name, sizeof name));
		assert_string_equal(name, "\xEF\xBF\xBDx");
		size = 3;
		head = (const uint8_t *)"<a>";
		assert_ptr_equal(animc_xml_head_utf8(head, &size, &copy), head);
		assert_null(copy);
		assert_int_equal(size, 3);
	}
}

static bool duration(const char *s, int64_t *ticks)
{
	return animc_xs_duration(s, strlen(s), ticks);
}

static void durations_in_integer_ticks(void **state)
{
	static const struct {
		const char *text;
		int64_t ticks;
	} good[] = {
		{ "PT0S", 0 },
		{ "PT1S", 10000000 },
		/* Exactly, never through a float: 1/30 s as .NET wrote it. */
		{ "PT0.0333333S", 333333 },
		{ "PT1M30S", 900000000 },
		{ "PT1H2M3.5S", 37235000000 },
		{ "P1DT2H", 936000000000 },
		{ "-PT1S", -10000000 },
		{ "-PT0S", 0 },
		{ "  PT2S\n", 20000000 },
		{ "PT0.12345678999S", 1234567 },  /* past 7 digits: truncated */
		{ "PT0.5S", 5000000 },
		{ "P1D", 864000000000 },
		{ "PT1H", 36000000000 },
		{ "PT90M", 54000000000 },
		{ "P1Y", 365 * 864000000000LL },   /* .NET: a year is 365 days */
		{ "P1M", 30 * 864000000000LL },    /* and a month 30 */
		{ "P14M", (365 + 2 * 30) * 864000000000LL },
		{ "P10675199DT2H48M5.4775807S", INT64_MAX },
		{ "-P10675199DT2H48M5.4775808S", INT64_MIN },   /* TimeSpan.MinValue */
		/* XsdDuration: digits on either side of the point optional. */
		{ "PT.5S", 5000000 },
		{ "PT1.S", 10000000 },
		{ "PT1M.5S", 605000000 },
		{ "PT.S", 0 },
		{ "P1DT.25S", 864002500000 },
		/* Each part within int32. */
		{ "PT2147483647S", 21474836470000000 },
		{ "PT2147483647M", 2147483647 * 600000000LL },
	};
	static const char *const bad[] = {
		"", "P", "PT", "T1S", "1S", "P1", "PT1", "P1DT", "PT1S1M", "P1D1Y", "PT1H1H", "P1S",
		"PT1.5M", "P1.5D", "P.5S", "PT.", "PT.5", "PT.5M", "+PT1S", "PT-1S", "P 1D", "PT1 S", "PT1s", "pt1s",
		"PT2147483648S", "P2147483648D", "P2147483647D" /* beyond int64 in all */, "PT2147483648M", "PT99999999999.5S",
		"P10675199DT2H48M5.4775808S", "P99999999999999999999D", "PT1S garbage", "PTS", "P-1D",
	};
	int64_t t;

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		t = -42;
		if (!duration(good[i].text, &t) || t != good[i].ticks)
			fail_msg("'%s': got %lld, expected %lld", good[i].text, (long long)t,
				 (long long)good[i].ticks);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		t = -42;
		if (duration(bad[i], &t))
			fail_msg("'%s' parsed as %lld", bad[i], (long long)t);
		assert_true(t == -42);
	}
}

static void lists_split_on_xml_whitespace(void **state)
{
	const char text[] = " 1 \t-2.5\r\n\n  3E2\t";
	const char *cursor = text, *end = text + strlen(text), *token;
	size_t len;
	float v;

	(void)state;
	assert_true(animc_xs_list_next(&cursor, end, &token, &len));
	assert_int_equal(len, 1);
	assert_true(animc_xs_list_next(&cursor, end, &token, &len));
	assert_true(animc_xs_float(token, len, &v) && v == -2.5f);
	assert_true(animc_xs_list_next(&cursor, end, &token, &len));
	assert_true(animc_xs_float(token, len, &v) && v == 300);
	assert_false(animc_xs_list_next(&cursor, end, &token, &len));
	assert_false(animc_xs_list_next(&cursor, end, &token, &len));
	cursor = text;
	assert_false(animc_xs_list_next(&cursor, text, &token, &len));
}

/* Where elements and errors are placed: each element's line, and the
 * line of the first error. */
typedef struct placed {
	uint32_t b_line;
	char b_text[8];
} placed;

static animc_xml_action place_b(void *user, const animc_xml_element *el, const char *text, size_t text_len,
				bool has_stray_text)
{
	placed *p = user;

	(void)has_stray_text;
	if (strcmp(el->name, "B") == 0) {
		p->b_line = el->line;
		snprintf(p->b_text, sizeof p->b_text, "%.*s", (int)text_len, text);
	}
	return ANIMC_XML_CONTINUE;
}

/* ASCII text in UTF-16 (big_endian or not), with a byte order mark or
 * not; *size its bytes. */
static uint8_t *utf16_of(const char *text, bool big_endian, bool marked, size_t *size)
{
	size_t n = strlen(text), at = 0;
	uint8_t *out = malloc(2 * n + 2);

	assert_non_null(out);
	if (marked) {
		out[0] = big_endian ? 0xFE : 0xFF;
		out[1] = big_endian ? 0xFF : 0xFE;
		at = 2;
	}
	for (size_t i = 0; i < n; i++, at += 2) {
		out[at + !big_endian] = 0;
		out[at + big_endian] = (uint8_t)text[i];
	}
	*size = at;
	return out;
}

/* ASCII text in UTF-32 (big_endian or not), with a byte order mark or
 * not; *size its bytes. */
static uint8_t *utf32_of(const char *text, bool big_endian, bool marked, size_t *size)
{
	size_t n = strlen(text), at = 0;
	uint8_t *out = calloc(4 * n + 4, 1);

	assert_non_null(out);
	if (marked) {
		if (big_endian)
			out[2] = 0xFE, out[3] = 0xFF;
		else
			out[0] = 0xFF, out[1] = 0xFE;
		at = 4;
	}
	for (size_t i = 0; i < n; i++, at += 4)
		out[at + (big_endian ? 3 : 0)] = (uint8_t)text[i];
	*size = at;
	return out;
}

/* A UTF-32 head (either byte order, marked or with '<' first) is read as
 * its UTF-8 twin, as a UTF-16 one is: the sniffers found no root in it, so
 * no importer claimed a UTF-32 document by its content.  A unit cut by the
 * end is left out, one that is no character is U+FFFD. */
static void root_element_sniffing_in_utf32(void **state)
{
	static const char doc[] = "<?xml version=\"1.0\"?><XnaContent a=\"1\">";
	char name[64];

	(void)state;
	for (int form = 0; form < 4; form++) {
		size_t size, head_size;
		uint8_t *u32 = utf32_of(doc, form & 1, form < 2, &size), *copy;
		const uint8_t *head;

		assert_true(animc_xml_root_name(u32, size, name, sizeof name));
		assert_string_equal(name, "XnaContent");
		head_size = size - 3;   /* the last unit cut */
		head = animc_xml_head_utf8(u32, &head_size, &copy);
		assert_non_null(copy);
		assert_int_equal(head_size, sizeof doc - 2);
		assert_memory_equal(head, doc, head_size);
		free(copy);
		free(u32);
	}
	{
		static const uint8_t bad[] = { '<', 0, 0, 0, 0, 0xD8, 0, 0, 'x', 0, 0, 0, '/', 0, 0, 0, '>', 0, 0, 0 };
		size_t size = sizeof bad;
		uint8_t *copy;
		const uint8_t *head = animc_xml_head_utf8(bad, &size, &copy);

		assert_int_equal(size, 7);
		assert_memory_equal(head, "<\xEF\xBF\xBDx/>", 7);
		free(copy);
	}
}

/* XML 1.0 section 2.11: a lone CR ends a line as LF and CRLF do.  A file
 * saved with CR line ends had every element and error on line 1 (libxml2
 * counts LF alone); each line end now counts, and the text reads the same
 * (a CR inside text is LF, as the parser makes it).  In UTF-8 and in
 * UTF-16 of either byte order, with a byte order mark or not (UTF-16 was
 * left on line 1). */
static void lone_cr_line_ends_count_as_lines(void **state)
{
	static const char *const ends[] = { "\r", "\r\n", "\n" };
	static const animc_xml_handler handler = { NULL, place_b };

	(void)state;
	for (int i = 0; i < 3 * 7; i++) {
		const char *end = ends[i % 3];
		char *doc = test_format("<?xml version=\"1.0\"?>%s<A>%s  <B>1%s2</B>%s</C>%s", end, end, end, end, end);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t.xml");
		placed p = { 0, "" };
		size_t size = strlen(doc);
		/* UTF-8; UTF-16LE, BE marked; LE unmarked; UTF-32 the same
		 * (libxml2 read UTF-32LE as no XML at all). */
		int encoding = i / 3;

		if (encoding > 0) {
			uint8_t *wide = encoding < 4 ? utf16_of(doc, encoding == 2, encoding < 3, &size)
						     : utf32_of(doc, encoding == 5, encoding < 6, &size);

			free(doc);
			doc = (char *)wide;
		}
		assert_int_equal(animc_xml_parse((const uint8_t *)doc, size, 8, &handler, &p, &sink),
				 ANIMC_ERR_PARSE);
		assert_int_equal(p.b_line, 3);
		assert_string_equal(p.b_text, "1\n2");
		const test_diag *d = test_diags_first(&diags, ANIMC_ERROR);
		assert_non_null(d);
		assert_int_equal(d->line, 5);
		test_diags_release(&diags);
		free(doc);
	}
}

/* A UTF-16 document whose declaration names a single-byte encoding (an
 * editor's "Save as Unicode" keeping encoding="windows-1252") was read in
 * that encoding by libxml2 and refused as "not XML" or "Char 0x0 out of
 * allowed range".  It is read as UTF-16, as its byte order mark (or first
 * characters) say, with a warning naming the declared encoding; UTF-8 and
 * UTF-16 names pass unsaid. */
static void a_utf16_document_is_read_as_utf16_whatever_it_declares(void **state)
{
	static const char *const names[] = { "windows-1252", "ISO-8859-1", "utf-8", "UTF-16BE", "utf-16" };
	static const animc_xml_handler handler = { NULL, place_b };

	(void)state;
	for (size_t i = 0; i < 3 * sizeof names / sizeof names[0]; i++) {
		const char *name = names[i / 3];
		char *doc = test_format("<?xml version=\"1.0\" encoding=\"%s\"?>\n<A>\n<B>\xC3\xB6</B></A>", name);
		size_t size;
		uint8_t *u16 = test_utf16(doc, strlen(doc), i % 3 == 1, i % 3 < 2, &size);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t.xml");
		placed p = { 0, "" };
		bool is_said = i < 6;

		if (animc_xml_parse(u16, size, 8, &handler, &p, &sink) != ANIMC_OK)
			fail_msg("%s, form %zu: %s", name, i % 3, diags.items[0].message);
		assert_int_equal(p.b_line, 3);
		assert_string_equal(p.b_text, "\xC3\xB6");
		assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), is_said);
		if (is_said) {
			const test_diag *w = test_diags_first(&diags, ANIMC_WARNING);

			assert_string_equal(w->kind, "xml");
			assert_int_equal(w->line, 1);
			assert_int_equal(w->column, 31);
			assert_non_null(strstr(w->message, name));
			assert_non_null(strstr(w->message, "UTF-16"));
		}
		test_diags_release(&diags);
		free(u16);
		free(doc);
	}
}

/* A UTF-32LE document's mark, FF FE 00 00, was taken for UTF-16LE's, and
 * its units walked as pairs of UTF-16 units: a character whose low 16 bits
 * fall in D800-DFFF (U+2D800, CJK Extension F) was refused as half of a
 * surrogate pair.  Read as UTF-32, in either byte order, marked or not. */
static void a_utf32_character_past_the_bmp_reads_whole(void **state)
{
	static const animc_xml_handler handler = { NULL, place_b };

	(void)state;
	for (int form = 0; form < 4; form++) {
		bool big_endian = form & 1, marked = form < 2;
		size_t size;
		uint8_t *doc = utf32_of("<A><B>x</B></A>", big_endian, marked, &size);
		size_t x = (marked ? 4 : 0) + 6 * 4;
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t.xml");
		placed p = { 0, "" };

		/* 'x' becomes U+2D800. */
		doc[x + (big_endian ? 1 : 2)] = 0x02;
		doc[x + (big_endian ? 2 : 1)] = 0xD8;
		doc[x + (big_endian ? 3 : 0)] = 0x00;
		assert_int_equal(animc_xml_parse(doc, size, 8, &handler, &p, &sink), ANIMC_OK);
		assert_null(test_diags_first(&diags, ANIMC_ERROR));
		assert_string_equal(p.b_text, "\xF0\xAD\xA0\x80");
		test_diags_release(&diags);
		free(doc);
	}
}

/* A comment, CDATA section or processing instruction left open was said
 * where the file ends, in libxml2's words ("Comment not terminated"), with
 * nothing naming where it opened.  It is said at its opening, however long
 * what follows (libxml2 lets go of what it has read of it), before the
 * root, inside it or after it, in UTF-8 and in UTF-16. */
static void an_unclosed_construct_is_placed_where_it_opens(void **state)
{
	static const struct {
		const char *doc;
		uint32_t line, column;
	} cases[] = {
		{ "<?xml version=\"1.0\"?>\n<A>\n  <B>1</B>\n    <!-- note ", 4, 5 },
		{ "<?xml version=\"1.0\"?>\n<A>\n  <B>1</B>\n    <B><![CDATA[1 ", 4, 8 },
		{ "<?xml version=\"1.0\"?>\n<A>\n  <B>1</B>\n    <?note ", 4, 5 },
		{ "<?xml version=\"1.0\"?>\n\n  <!-- note ", 3, 3 },
		{ "<?xml version=\"1.0\"?>\n<?note ", 2, 1 },
		{ "<A>text\n and more <!-- note ", 2, 11 },
		{ "<A/>\n\n\t<!-- note ", 3, 2 },
	};
	static const animc_xml_handler handler = { NULL, NULL };

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0] * 4; i++) {
		size_t tail = i / (sizeof cases / sizeof cases[0]) % 2 ? 200000 : 3;
		bool wide = i >= sizeof cases / sizeof cases[0] * 2;
		const char *open = cases[i % (sizeof cases / sizeof cases[0])].doc;
		size_t n = strlen(open), size = n + tail;
		char *doc = malloc(size + 1);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, "t.xml");

		assert_non_null(doc);
		memcpy(doc, open, n);
		for (size_t k = 0; k < tail; k++)
			doc[n + k] = k % 80 == 79 ? '\n' : 'x';
		doc[size] = '\0';
		if (wide) {
			uint8_t *u16 = utf16_of(doc, false, true, &size);

			free(doc);
			doc = (char *)u16;
		}
		assert_int_equal(animc_xml_parse((const uint8_t *)doc, size, 8, &handler, NULL, &sink), ANIMC_ERR_PARSE);
		const test_diag *d = test_diags_first(&diags, ANIMC_ERROR);
		assert_non_null(d);
		if (d->line != cases[i % (sizeof cases / sizeof cases[0])].line ||
		    d->column != cases[i % (sizeof cases / sizeof cases[0])].column || !strstr(d->message, "never closed"))
			fail_msg("case %zu (%zu more bytes%s): %u:%u: %s", i % (sizeof cases / sizeof cases[0]), tail,
				 wide ? ", UTF-16" : "", d->line, d->column, d->message);
		assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), 1);
		test_diags_release(&diags);
		free(doc);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(floats_as_dotnet_read_them),
	cmocka_unit_test(special_floats_parse),
	cmocka_unit_test(malformed_floats_fail),
	cmocka_unit_test(ints_within_int32),
	cmocka_unit_test(booleans),
	cmocka_unit_test(root_element_sniffing),
	cmocka_unit_test(a_head_cut_before_the_root_is_told),
	cmocka_unit_test(root_element_sniffing_in_utf16),
	cmocka_unit_test(root_element_sniffing_in_utf32),
	cmocka_unit_test(a_broken_utf16_unit_is_placed),
	cmocka_unit_test(durations_in_integer_ticks),
	cmocka_unit_test(lists_split_on_xml_whitespace),
	cmocka_unit_test(lone_cr_line_ends_count_as_lines),
	cmocka_unit_test(a_utf16_document_is_read_as_utf16_whatever_it_declares),
	cmocka_unit_test(a_utf32_character_past_the_bmp_reads_whole),
	cmocka_unit_test(an_unclosed_construct_is_placed_where_it_opens),
};

ANIMC_TEST_GROUP(tests);
