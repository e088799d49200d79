/*
 * fold.c - file names folded as file systems that ignore case fold them
 * (see fold.h).  The table is Unicode's, written by scripts/make-case-fold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "fold_table.h"

/* A byte that starts no UTF-8 letter (a lone continuation byte, an
 * overlong or cut-short sequence, a surrogate) is this plus the byte: no
 * letter's number, so it is alike only to itself. */
#define FOLD_RAW 0x110000u

/* The letter (or FOLD_RAW + byte) at *s, moving *s past it; 0 at the end. */
static uint32_t next_letter(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t c = p[0], min;
	int more;

	if (c < 0x80) {
		*s = p + (c != 0);
		return c;
	}
	if (c >= 0xC2 && c <= 0xDF)
		more = 1, c &= 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		more = 2, c &= 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		more = 3, c &= 0x07, min = 0x10000;
	else
		more = -1, min = 0;
	for (int i = 1; i <= more; i++) {
		if ((p[i] & 0xC0) != 0x80) {   /* the NUL too: never read past it */
			more = -1;
			break;
		}
		c = c << 6 | (p[i] & 0x3F);
	}
	if (more < 0 || c < min || c > 0x10FFFF || (c >= 0xD800 && c < 0xE000)) {
		*s = p + 1;
		return FOLD_RAW + p[0];
	}
	*s = p + 1 + more;
	return c;
}

static uint32_t fold_letter(uint32_t c)
{
	const size_t count = sizeof fold_runs / sizeof fold_runs[0];
	size_t lo = 0, hi = count;

	if (c < 0x80)
		return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c > fold_runs[mid].last)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* fold_runs[lo] is the first run that does not end before c. */
	if (lo < count && c >= fold_runs[lo].first &&
	    (c - fold_runs[lo].first) % fold_runs[lo].stride == 0)
		return (uint32_t)((int32_t)c + fold_runs[lo].delta);
	return c;
}

int build_fold_compare(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	for (;;) {
		uint32_t p = fold_letter(next_letter(&x)), q = fold_letter(next_letter(&y));

		if (p != q || !p)
			return (p > q) - (p < q);
	}
}

char *build_fold_name(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = strlen(name);
	/* A letter folded takes at most half again its bytes (Ⱥ, two bytes,
	 * folds to ⱥ, three). */
	char *out = malloc(n + n / 2 + 1), *o = out;
	uint32_t c;

	if (!out)
		return NULL;
	while ((c = next_letter(&s)) != 0) {
		c = fold_letter(c);
		if (c < 0x80) {
			*o++ = (char)c;
		} else if (c >= FOLD_RAW) {
			*o++ = (char)(c - FOLD_RAW);
		} else if (c < 0x800) {
			*o++ = (char)(0xC0 | c >> 6);
			*o++ = (char)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			*o++ = (char)(0xE0 | c >> 12);
			*o++ = (char)(0x80 | (c >> 6 & 0x3F));
			*o++ = (char)(0x80 | (c & 0x3F));
		} else {
			*o++ = (char)(0xF0 | c >> 18);
			*o++ = (char)(0x80 | (c >> 12 & 0x3F));
			*o++ = (char)(0x80 | (c >> 6 & 0x3F));
			*o++ = (char)(0x80 | (c & 0x3F));
		}
	}
	*o = '\0';
	return out;
}
