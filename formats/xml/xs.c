/*
 * xs.c - XML Schema lexical forms (xs:float, xs:int, xs:boolean, xs:duration,
 * whitespace-separated lists) and the
 * root-element sniffer (UTF-8 or UTF-16).  No libxml2 here: these run on raw
 * bytes, the sniffer before any parser is chosen.
 */
#define _GNU_SOURCE
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "xml.h"

/* ------------------------------------------------------------- sniffing */

static const uint8_t *skip_past(const uint8_t *p, const uint8_t *end, const char *marker)
{
	size_t n = strlen(marker);

	for (; p + n <= end; p++)
		if (memcmp(p, marker, n) == 0)
			return p + n;
	return NULL;
}

static bool is_name_char(uint8_t c)
{
	return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '-' || c == '.';
}

/* Where a scan for the root element ended. */
typedef enum root_scan {
	ROOT_NONE = 0,   /* no XML, or a root name too long for the buffer */
	ROOT_FOUND,
	ROOT_CUT         /* the bytes end in the prolog or in the root's name */
} root_scan;

/* A DOCTYPE from just past "<!DOCTYPE" to just past its '>', or NULL. */
static const uint8_t *skip_doctype(const uint8_t *p, const uint8_t *end)
{
	int brackets = 0;

	for (; p < end; p++) {
		if (*p == '[')
			brackets++;
		else if (*p == ']')
			brackets--;
		else if (*p == '>' && brackets <= 0)
			return p + 1;
	}
	return NULL;
}

/* Do the bytes p..end, fewer than `marker`'s, begin it? */
static bool starts_cut(const uint8_t *p, const uint8_t *end, const char *marker)
{
	size_t n = (size_t)(end - p);

	return n < strlen(marker) && memcmp(p, marker, n) == 0;
}

/* The root element's name at p ('<'), complete within the bytes. */
static root_scan root_name_at(const uint8_t *p, const uint8_t *end, char *name, size_t name_size)
{
	size_t n = 0;

	for (p++; p < end && is_name_char(*p); p++) {
		if (n + 1 >= name_size)
			return ROOT_NONE;
		name[n++] = (char)*p;
	}
	name[n] = '\0';
	if (p == end)
		return ROOT_CUT;
	return n > 0 ? ROOT_FOUND : ROOT_NONE;
}

static root_scan root_name_utf8(const uint8_t *data, size_t size, char *name, size_t name_size)
{
	const uint8_t *p = data, *end = data + size;
	bool is_markup = false;   /* a declaration, comment, PI or DOCTYPE passed */

	if (size >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		p += 3;
	while (p && p < end) {
		if (animc_xml_is_space((char)*p)) {
			p++;
			continue;
		}
		is_markup = true;
		if (end - p >= 2 && p[0] == '<' && p[1] == '?')
			p = skip_past(p + 2, end, "?>");
		else if (end - p >= 4 && memcmp(p, "<!--", 4) == 0)
			p = skip_past(p + 4, end, "-->");
		else if (end - p >= 9 && memcmp(p, "<!DOCTYPE", 9) == 0)
			p = skip_doctype(p + 9, end);
		else if (starts_cut(p, end, "<!--") || starts_cut(p, end, "<!DOCTYPE"))
			return ROOT_CUT;
		else if (*p == '<')
			return root_name_at(p, end, name, name_size);
		else
			return ROOT_NONE;
	}
	/* A construct still open, or closed with nothing after it yet: the
	 * root may follow.  Whitespace alone is no XML. */
	return is_markup ? ROOT_CUT : ROOT_NONE;
}

/* The byte order of a UTF-16 head: 'L' or 'B' by its byte-order mark (then
 * *bom is 2), else by "<?" as its first characters (XML 1.0 appendix F, what
 * libxml2 detects without a mark); 0 when it is not UTF-16.  FF FE 00 00 is
 * UTF-32's little-endian mark (as UTF-16 it would be the mark and a NUL,
 * which no XML document holds). */
static int utf16_order(const uint8_t *p, size_t size, size_t *bom)
{
	*bom = 2;
	if (size >= 4 && memcmp(p, "\xFF\xFE\0\0", 4) == 0)
		return *bom = 0, 0;
	if (size >= 2 && p[0] == 0xFF && p[1] == 0xFE)
		return 'L';
	if (size >= 2 && p[0] == 0xFE && p[1] == 0xFF)
		return 'B';
	*bom = 0;
	if (size >= 4 && memcmp(p, "<\0?\0", 4) == 0)
		return 'L';
	if (size >= 4 && memcmp(p, "\0<\0?", 4) == 0)
		return 'B';
	return 0;
}

/* The byte order of a UTF-32 head, as utf16_order: by its byte-order mark
 * (*bom 4), else by '<' as its first character (XML 1.0 appendix F). */
static int utf32_order(const uint8_t *p, size_t size, size_t *bom)
{
	*bom = 4;
	if (size >= 4 && memcmp(p, "\xFF\xFE\0\0", 4) == 0)
		return 'L';
	if (size >= 4 && memcmp(p, "\0\0\xFE\xFF", 4) == 0)
		return 'B';
	*bom = 0;
	if (size >= 4 && memcmp(p, "<\0\0\0", 4) == 0)
		return 'L';
	if (size >= 4 && memcmp(p, "\0\0\0<", 4) == 0)
		return 'B';
	return 0;
}

/* The whole units of a UTF-32 head as UTF-8 (a cut unit left out, one
 * that is no character U+FFFD); NULL when out of memory. */
static uint8_t *utf32_head_utf8(const uint8_t *data, size_t *size, int order, size_t bom)
{
	uint8_t *out = malloc(*size + 1), *q = out;   /* 4 bytes a unit at most */

	if (!out)
		return NULL;
	for (size_t at = bom; at + 4 <= *size; at += 4) {
		const uint8_t *u = data + at;
		uint32_t c = order == 'L' ? (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
						    (uint32_t)u[3] << 24
					  : (uint32_t)u[3] | (uint32_t)u[2] << 8 | (uint32_t)u[1] << 16 |
						    (uint32_t)u[0] << 24;

		if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c < 0xE000))
			c = 0xFFFD;
		q += animc_utf8_put(q, c);
	}
	*size = (size_t)(q - out);
	return out;
}

const uint8_t *animc_xml_head_utf8(const uint8_t *data, size_t *size, uint8_t **copy)
{
	size_t bom;
	int order = utf16_order(data, *size, &bom);
	uint8_t *out;

	*copy = NULL;
	if (!order) {
		order = utf32_order(data, *size, &bom);
		if (!order)
			return data;
		*copy = utf32_head_utf8(data, size, order, bom);
		return *copy;
	}
	out = malloc((*size - bom) / 2 * 3 + 1);
	if (!out)
		return NULL;
	*size = animc_utf16_to_utf8(data + bom, *size - bom, order == 'B', out);
	*copy = out;
	return out;
}

bool animc_xml_utf16_broken(const uint8_t *data, size_t size, uint32_t *line, uint32_t *column, uint32_t *unit)
{
	size_t bom, units;
	int order = utf16_order(data, size, &bom);

	*line = 1;
	*column = 1;
	if (!order)
		return false;
	units = (size - bom) / 2;
	for (size_t i = 0; i < units; i++) {
		const uint8_t *u = data + bom + 2 * i;
		uint32_t c = order == 'L' ? (uint32_t)(u[0] | u[1] << 8) : (uint32_t)(u[0] << 8 | u[1]);
		uint32_t next = 0;

		if (i + 1 < units)
			next = order == 'L' ? (uint32_t)(u[2] | u[3] << 8) : (uint32_t)(u[2] << 8 | u[3]);
		if ((c >= 0xD800 && c < 0xDC00 && !(next >= 0xDC00 && next < 0xE000)) || (c >= 0xDC00 && c < 0xE000)) {
			*unit = c;
			return true;
		}
		if (c >= 0xD800 && c < 0xDC00)
			i++;   /* the pair: one character */
		if (c == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
	return false;
}

bool animc_xml_root_name(const uint8_t *data, size_t size, char *name, size_t name_size)
{
	uint8_t *copy;
	bool found;

	data = animc_xml_head_utf8(data, &size, &copy);
	found = data && root_name_utf8(data, size, name, name_size) == ROOT_FOUND;
	free(copy);
	return found;
}

bool animc_xml_root_is_cut(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	char name[64];
	bool is_cut;

	data = animc_xml_head_utf8(data, &size, &copy);
	/* A root name longer than the buffer is no root a probe knows:
	 * complete or cut, it decides nothing. */
	is_cut = data && root_name_utf8(data, size, name, sizeof name) == ROOT_CUT;
	free(copy);
	return is_cut;
}

/* ------------------------------------------------------------ xs: values */

const char *animc_xs_trim(const char *s, size_t *len)
{
	size_t n = *len;

	while (n && animc_xml_is_space(*s)) {
		s++;
		n--;
	}
	while (n && animc_xml_is_space(s[n - 1]))
		n--;
	*len = n;
	return s;
}

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* Exact powers of ten in double. */
static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

bool animc_xs_float(const char *s, size_t len, float *out)
{
	const char *p, *end;
	bool negative = false, any_digit = false;
	uint64_t mantissa = 0;
	int digits = 0, exp10 = 0;
	bool exact = true;
	double d;

	s = animc_xs_trim(s, &len);
	p = s;
	end = s + len;
	if (len == 3 && memcmp(s, "NaN", 3) == 0) {
		*out = NAN;
		return true;
	}
	if ((len == 3 && memcmp(s, "INF", 3) == 0) || (len == 4 && memcmp(s, "+INF", 4) == 0)) {
		*out = INFINITY;
		return true;
	}
	if (len == 4 && memcmp(s, "-INF", 4) == 0) {
		*out = -INFINITY;
		return true;
	}
	if (p < end && (*p == '+' || *p == '-'))
		negative = *p++ == '-';
	/* Digits, with the value gathered exactly while it fits. */
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		any_digit = true;
		if (mantissa == 0 && *p == '0')
			continue;
		if (digits < 19) {
			mantissa = mantissa * 10 + (uint64_t)(*p - '0');
			digits++;
		} else {
			exact = false;
		}
	}
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			any_digit = true;
			if (mantissa == 0 && *p == '0') {
				exp10--;
				continue;
			}
			if (digits < 19) {
				mantissa = mantissa * 10 + (uint64_t)(*p - '0');
				digits++;
				exp10--;
			} else if (*p != '0') {
				exact = false;
			}
		}
	}
	if (!any_digit)
		return false;
	if (p < end && (*p == 'e' || *p == 'E')) {
		bool exp_negative = false, exp_digit = false;
		int e = 0;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			exp_negative = *p++ == '-';
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			exp_digit = true;
			if (e < 100000)
				e = e * 10 + (*p - '0');
		}
		if (!exp_digit)
			return false;
		exp10 += exp_negative ? -e : e;
	}
	if (p != end)
		return false;

	if (exact && mantissa <= ((uint64_t)1 << 53) && exp10 >= -22 && exp10 <= 22) {
		/* One correctly rounded operation on exact operands. */
		d = exp10 < 0 ? (double)mantissa / pow10_exact[-exp10]
			      : (double)mantissa * pow10_exact[exp10];
	} else {
		char buf[512];

		if (len >= sizeof buf)
			return false;
		memcpy(buf, s, len);
		buf[len] = '\0';
		pthread_once(&c_locale_once, make_c_locale);
		d = c_locale ? strtod_l(buf, NULL, c_locale) : strtod(buf, NULL);
		d = fabs(d);
	}
	if (negative)
		d = -d;
	/* Finite text beyond the float range is refused, as Single.Parse did. */
	if (isinf((float)d))
		return false;
	*out = (float)d;
	return true;
}

bool animc_xs_int64(const char *s, size_t len, int64_t *out)
{
	const char *p, *end;
	bool negative = false;
	uint64_t v = 0;

	s = animc_xs_trim(s, &len);
	p = s;
	end = s + len;
	if (p < end && (*p == '+' || *p == '-'))
		negative = *p++ == '-';
	if (p == end)
		return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		if (v > ((uint64_t)INT64_MAX + 1 - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!negative && v > (uint64_t)INT64_MAX)
		return false;
	*out = negative ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

bool animc_xs_int(const char *s, size_t len, int32_t *out, bool *out_of_range)
{
	int64_t v;
	const char *t = s;
	size_t n = len;

	if (out_of_range)
		*out_of_range = false;
	if (!animc_xs_int64(s, len, &v)) {
		/* A long run of digits is out of range, not garbage. */
		t = animc_xs_trim(t, &n);
		if (out_of_range && n) {
			size_t i = (t[0] == '+' || t[0] == '-') ? 1 : 0;
			bool digits = i < n;

			for (; i < n; i++)
				digits &= t[i] >= '0' && t[i] <= '9';
			*out_of_range = digits;
		}
		return false;
	}
	if (v < INT32_MIN || v > INT32_MAX) {
		if (out_of_range)
			*out_of_range = true;
		return false;
	}
	*out = (int32_t)v;
	return true;
}

bool animc_xs_bool(const char *s, size_t len, bool *out)
{
	s = animc_xs_trim(s, &len);
	if ((len == 4 && memcmp(s, "true", 4) == 0) || (len == 1 && *s == '1')) {
		*out = true;
		return true;
	}
	if ((len == 5 && memcmp(s, "false", 5) == 0) || (len == 1 && *s == '0')) {
		*out = false;
		return true;
	}
	return false;
}

/* ---------------------------------------------------------- xs:duration */

/* Digits at *p as an unsigned number; false when none or beyond uint64. */
/* The digits at *p (none is fine: the caller judges), as XsdDuration
 * reads a part: beyond int32, .NET throws an OverflowException. */
static bool duration_digits(const char **p, const char *end, uint64_t *out, size_t *count)
{
	uint64_t v = 0;
	const char *q = *p;

	for (; q < end && *q >= '0' && *q <= '9'; q++)
		if ((v = v * 10 + (uint64_t)(*q - '0')) > INT32_MAX)
			return false;
	*count = (size_t)(q - *p);
	*p = q;
	*out = v;
	return true;
}

/* The digits of a fraction of seconds from p (any number, none too), in
 * ticks: 7 kept, the rest truncated. */
static const char *duration_fraction(const char *p, const char *end, uint64_t *ticks)
{
	int digits = 0;

	*ticks = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		if (digits < 7)
			*ticks = *ticks * 10 + (uint64_t)(*p - '0');
	for (; digits < 7; digits++)
		*ticks *= 10;
	return p;
}

/* As .NET's XsdDuration.TryToTimeSpan: years and months to days, then down
 * to ticks, beyond int64 an overflow (but -2^63, TimeSpan.MinValue). */
static bool duration_ticks(const uint64_t part[6], uint64_t fraction, bool negative, int64_t *ticks)
{
	uint64_t total;

	if (__builtin_add_overflow(part[0], part[1] / 12, &total) ||
	    __builtin_mul_overflow(total, 365, &total) ||
	    __builtin_add_overflow(total, (part[1] % 12) * 30, &total) ||
	    __builtin_add_overflow(total, part[2], &total) ||
	    __builtin_mul_overflow(total, 24, &total) || __builtin_add_overflow(total, part[3], &total) ||
	    __builtin_mul_overflow(total, 60, &total) || __builtin_add_overflow(total, part[4], &total) ||
	    __builtin_mul_overflow(total, 60, &total) || __builtin_add_overflow(total, part[5], &total) ||
	    __builtin_mul_overflow(total, (uint64_t)ANIMC_TICKS_PER_SECOND, &total) ||
	    __builtin_add_overflow(total, fraction, &total))
		return false;
	if (negative && total == (uint64_t)INT64_MAX + 1) {
		*ticks = INT64_MIN;
		return true;
	}
	if (total > (uint64_t)INT64_MAX)
		return false;
	*ticks = negative ? -(int64_t)total : (int64_t)total;
	return true;
}

bool animc_xs_duration(const char *s, size_t len, int64_t *ticks)
{
	/* years, months, days | hours, minutes, seconds */
	uint64_t part[6] = { 0 }, fraction = 0;
	const char *p, *end;
	bool negative = false, any = false, time_part = false;
	int next = 0;   /* the first designator of the current half still allowed */

	s = animc_xs_trim(s, &len);
	p = s;
	end = s + len;
	if (p < end && *p == '-') {
		negative = true;
		p++;
	}
	if (p == end || *p++ != 'P')
		return false;
	while (p < end) {
		/* M is months before the T and minutes after it. */
		const char *designators = time_part ? "HMS" : "YMD";
		uint64_t v;
		size_t digits;
		int i;

		if (*p == 'T') {
			if (time_part || ++p == end)
				return false;   /* one T, and a time part after it */
			time_part = true;
			next = 0;
			continue;
		}
		if (!duration_digits(&p, end, &v, &digits) || p == end)
			return false;
		/* Seconds alone take a fraction, digits on either side of the
		 * point optional (PT.5S, PT1.S), as XsdDuration reads them. */
		if (*p == '.') {
			p = duration_fraction(p + 1, end, &fraction);
			if (!time_part || p == end || *p != 'S')
				return false;
		} else if (digits == 0) {
			return false;
		}
		for (i = next; i < 3 && designators[i] != *p; i++)
			;
		if (i == 3)
			return false;
		part[(time_part ? 3 : 0) + i] = v;
		next = i + 1;
		any = true;
		p++;
	}
	return any && duration_ticks(part, fraction, negative, ticks);
}

/* ---------------------------------------------------------------- lists */

bool animc_xs_list_next(const char **cursor, const char *end, const char **token, size_t *len)
{
	const char *p = *cursor, *start;

	while (p < end && animc_xml_is_space(*p))
		p++;
	if (p == end) {
		*cursor = p;
		return false;
	}
	start = p;
	while (p < end && !animc_xml_is_space(*p))
		p++;
	*token = start;
	*len = (size_t)(p - start);
	*cursor = p;
	return true;
}

/* ------------------------------------------------------------ leaf values */

bool animc_xml_leaf_int(const animc_xml_element *el, const char *text, size_t len, int32_t *out,
			animc_diag_sink *sink)
{
	bool out_of_range;

	if (animc_xs_int(text, len, out, &out_of_range))
		return true;
	text = animc_xs_trim(text, &len);
	animc_diag_report(sink, ANIMC_ERROR, el->line, el->column,
			  out_of_range ? "<%s> holds %.*s, which does not fit in an int32"
				       : "<%s> holds '%.*s', which is not an xs:int",
			  el->name, ANIMC_XML_QUOTE_LEN(len), text);
	return false;
}

bool animc_xml_leaf_float(const animc_xml_element *el, const char *text, size_t len, float *out,
			  animc_diag_sink *sink)
{
	if (animc_xs_float(text, len, out))
		return true;
	text = animc_xs_trim(text, &len);
	animc_diag_report(sink, ANIMC_ERROR, el->line, el->column,
			  "<%s> holds '%.*s', which is not an xs:float", el->name,
			  ANIMC_XML_QUOTE_LEN(len), text);
	return false;
}

bool animc_xml_leaf_bool(const animc_xml_element *el, const char *text, size_t len, bool *out,
			 animc_diag_sink *sink)
{
	if (animc_xs_bool(text, len, out))
		return true;
	text = animc_xs_trim(text, &len);
	animc_diag_report(sink, ANIMC_ERROR, el->line, el->column,
			  "<%s> holds '%.*s', which is not an xs:boolean", el->name,
			  ANIMC_XML_QUOTE_LEN(len), text);
	return false;
}
