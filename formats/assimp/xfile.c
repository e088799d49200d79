/*
 * xfile.c - what Assimp 5.2's DirectX reader loses or changes of a text .X
 * file's animation sets, read from the file's own bytes: one small reader
 * of the AnimationSet blocks (sets, Animations, their frame references,
 * AnimationKeys, each at its line), and the channels
 * mended from it before the importer converts them (see NOTES.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc_xform.h>

#include "assimp_internal.h"

/* ------------------------------------------------------------- reading */

enum { XKEY_ROTATION, XKEY_SCALE, XKEY_POSITION, XKEY_MATRIX, XKEY_KINDS };

/* The values a key of each type holds. */
static const uint32_t key_widths[XKEY_KINDS] = { 4, 3, 3, 16 };

/* One key as the file gives it. */
typedef struct xkey {
	double time;
	uint32_t line;
	uint32_t value_count;  /* the values the key holds, however many it declares */
	uint32_t declared;     /* the count it declares */
	bool has_comma_decimal; /* a whole number right before `,digit`: Assimp's decimal comma */
} xkey;

/* The keys of one type, and their values in the file's order (w x y z for
 * a rotation, a matrix row by row), `width` a key (the first of them when
 * a key holds more, 0 for those it lacks). */
typedef struct xkeys {
	xkey *keys;
	float *values;
	uint32_t count, capacity, width;
} xkeys;

static const float *key_values(const xkeys *k, uint32_t i)
{
	return k->values + (size_t)i * k->width;
}

/* A name in the file's bytes (which outlive the reader's use of them). */
typedef struct xname {
	const uint8_t *at;
	size_t len;
} xname;

/* What messages quote of a name: its first 256 bytes. */
#define NAME_SHOWN(n) (int)((n).len < 256 ? (n).len : 256), (n).at ? (const char *)(n).at : ""

/* One Animation block: the frame it names and its keys, by type. */
typedef struct xanim {
	xname bone;
	bool has_bone;
	uint32_t line;
	xkeys keys[XKEY_KINDS];
} xanim;

typedef struct xset {
	xname name;
	uint32_t line;
	xanim *anims;
	uint32_t count, capacity;
} xset;

/* What the reader made of one channel of the scene. */
typedef struct xchannel {
	const xanim *src;
	struct aiNodeAnim *mended;   /* replaces Assimp's; NULL: Assimp's is right */
	uint32_t not_unit;           /* rotation keys off unit length */
	uint32_t zero;               /* rotation keys of no length (1e-6 or less) */
	uint32_t zero_line;          /* the first of them */
	double zero_tick, zero_length;
	animc_decompose_result unsplit; /* the first matrix key no split holds (a projection, */
	uint32_t unsplit_line;          /* an axis of scale 0): ANIMC_DECOMPOSE_OK for none */
	double unsplit_tick;
	uint32_t sheared;            /* matrix keys that shear */
	double sheared_tick;         /* the first of them */
} xchannel;

/* An animation of the scene and the set it came from. */
typedef struct xmatch {
	const xset *set;       /* NULL: not paired */
	xchannel *channels;    /* set->count of them */
} xmatch;

struct animc_xfile {
	xset *sets;
	uint32_t count, capacity;
	xmatch *matches;       /* one per animation of the scene */
	unsigned animation_count;
};

typedef struct xlexer {
	const uint8_t *p, *end;
	uint32_t line;
	const uint8_t *last;   /* the start of the last token read */
} xlexer;

typedef struct xtoken {
	const uint8_t *at;
	size_t len;
	uint32_t line;
} xtoken;

static bool is_delimiter(uint8_t c)
{
	return c == '{' || c == '}' || c == ';' || c == ',';
}

static bool is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Past white space and comments (`//` and `#` to the end of the line),
 * counting lines: LF, CR LF and a lone CR end one. */
static void lex_skip(xlexer *lx)
{
	while (lx->p < lx->end) {
		uint8_t c = *lx->p;

		if (c == '\n' || (c == '\r' && (lx->p + 1 == lx->end || lx->p[1] != '\n')))
			lx->line++;
		if (is_space(c)) {
			lx->p++;
		} else if (c == '#' || (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/')) {
			while (lx->p < lx->end && *lx->p != '\n' && *lx->p != '\r')
				lx->p++;
		} else {
			return;
		}
	}
}

/* The next token: a delimiter, a quoted string or a word. */
static bool lex_next(xlexer *lx, xtoken *t)
{
	lex_skip(lx);
	if (lx->p >= lx->end)
		return false;
	t->at = lx->last = lx->p;
	t->line = lx->line;
	if (is_delimiter(*lx->p)) {
		lx->p++;
	} else if (*lx->p == '"') {
		const uint8_t *close = memchr(lx->p + 1, '"', (size_t)(lx->end - lx->p - 1));

		lx->p = close ? close + 1 : lx->end;
	} else {
		while (lx->p < lx->end && !is_space(*lx->p) && !is_delimiter(*lx->p))
			lx->p++;
	}
	t->len = (size_t)(lx->p - t->at);
	return true;
}

static bool token_is(const xtoken *t, const char *s)
{
	return t->len == strlen(s) && memcmp(t->at, s, t->len) == 0;
}

/* A number token, whole (strtod reads what Assimp's reader reads of it,
 * but for `1,2`, which the lexer splits at the comma). */
static bool token_number(const xtoken *t, double *out)
{
	char buf[64];
	char *end;

	if (t->len == 0 || t->len >= sizeof buf || is_delimiter(*t->at))
		return false;
	memcpy(buf, t->at, t->len);
	buf[t->len] = '\0';
	*out = strtod(buf, &end);
	return *end == '\0' && end != buf;
}

/* Past the block whose `{` was just read. */
static bool skip_block(xlexer *lx)
{
	xtoken t;
	unsigned depth = 1;

	while (depth && lex_next(lx, &t))
		depth += token_is(&t, "{") ? 1 : token_is(&t, "}") ? -1u : 0;
	return depth == 0;
}

/* A data object's head up to its `{`: its optional name into `name`. */
static bool read_head(xlexer *lx, xname *name)
{
	xtoken t;

	while (lex_next(lx, &t)) {
		if (token_is(&t, "{"))
			return true;
		if (is_delimiter(*t.at))
			return false;
		if (name && !name->len && *t.at != '<')
			*name = (xname){ t.at, t.len };
	}
	return false;
}

static bool keys_push(xkeys *k, const xkey *key, const float values[16])
{
	if (k->count == k->capacity) {
		uint32_t capacity = k->capacity ? 2 * k->capacity : 16;
		xkey *more = capacity > k->capacity ? realloc(k->keys, (size_t)capacity * sizeof *more) : NULL;
		float *more_values;

		if (!more)
			return false;
		k->keys = more;
		more_values = realloc(k->values, (size_t)capacity * k->width * sizeof *more_values);
		if (!more_values)
			return false;
		k->values = more_values;
		k->capacity = capacity;
	}
	memcpy(k->values + (size_t)k->count * k->width, values, k->width * sizeof *values);
	k->keys[k->count++] = *key;
	return true;
}

/* A number, then its `;` (the key type, count, time and value count). */
static bool read_field(xlexer *lx, double *out, xtoken *t)
{
	xtoken semi;

	return lex_next(lx, t) && token_number(t, out) && lex_next(lx, &semi) && token_is(&semi, ";");
}

/*
 * One key, `time; n; v, v, ...;;` and its separator: the values up to the
 * `;` that ends the list, however many the key declares (said apart).
 */
static bool read_key(xlexer *lx, xkey *key, float values[16])
{
	xtoken t;
	double time, n, v;

	memset(key, 0, sizeof *key);
	memset(values, 0, 16 * sizeof *values);
	if (!read_field(lx, &time, &t) || !read_field(lx, &n, &t))
		return false;
	key->time = time;
	key->line = t.line;
	key->declared = n >= 0 && n < 1e9 ? (uint32_t)n : UINT32_MAX;
	for (;;) {
		if (!lex_next(lx, &t) || !token_number(&t, &v))
			return false;
		/* Assimp reads a comma right after a whole number, and before a
		 * digit, as the number's decimal point: `1,2` is 1.2. */
		key->has_comma_decimal |= !memchr(t.at, '.', t.len) && !memchr(t.at, 'e', t.len) &&
					  !memchr(t.at, 'E', t.len) && lx->end - lx->p >= 2 && lx->p[0] == ',' &&
					  lx->p[1] >= '0' && lx->p[1] <= '9';
		if (key->value_count < 16)
			values[key->value_count] = (float)v;
		key->value_count++;
		if (!lex_next(lx, &t))
			return false;
		if (token_is(&t, ";"))
			break;
		if (!token_is(&t, ","))
			return false;
	}
	/* The list's own `;`, then `,` between keys or `;` after the last. */
	for (xlexer peek = *lx; lex_next(&peek, &t) && (token_is(&t, ";") || token_is(&t, ",")); peek = *lx)
		*lx = peek;
	return true;
}

static bool read_animation_key(xlexer *lx, xanim *a)
{
	xtoken t;
	double type, count;
	xkey key;
	float values[16];
	xkeys *keys;

	if (!read_head(lx, NULL) || !read_field(lx, &type, &t) || !read_field(lx, &count, &t) || type < 0 ||
	    type > 4 || count < 0)
		return false;
	keys = &a->keys[type >= 3 ? XKEY_MATRIX : (int)type];
	keys->width = key_widths[type >= 3 ? XKEY_MATRIX : (int)type];
	for (double i = 0; i < count; i++)
		if (!read_key(lx, &key, values) || !keys_push(keys, &key, values))
			return false;
	return lex_next(lx, &t) && token_is(&t, "}");
}

static bool read_animation(xlexer *lx, xanim *a, uint32_t line)
{
	xtoken t;

	memset(a, 0, sizeof *a);
	a->line = line;
	if (!read_head(lx, NULL))
		return false;
	while (lex_next(lx, &t)) {
		if (token_is(&t, "}"))
			return true;
		if (token_is(&t, "{")) {
			if (!lex_next(lx, &t) || is_delimiter(*t.at))
				return false;
			a->bone = (xname){ t.at, t.len };
			a->has_bone = true;
			if (!skip_block(lx))
				return false;
		} else if (token_is(&t, "AnimationKey")) {
			if (!read_animation_key(lx, a))
				return false;
		} else if (is_delimiter(*t.at) || !read_head(lx, NULL) || !skip_block(lx)) {
			return false;
		}
	}
	return false;
}

static void set_release(xset *s)
{
	for (uint32_t i = 0; i < s->count; i++) {
		for (int k = 0; k < XKEY_KINDS; k++) {
			free(s->anims[i].keys[k].keys);
			free(s->anims[i].keys[k].values);
		}
	}
	free(s->anims);
}

static bool read_set(xlexer *lx, xset *s, uint32_t line)
{
	xtoken t;

	memset(s, 0, sizeof *s);
	s->line = line;
	if (!read_head(lx, &s->name))
		return false;
	while (lex_next(lx, &t)) {
		if (token_is(&t, "}"))
			return true;
		if (token_is(&t, "Animation")) {
			if (s->count == s->capacity) {
				uint32_t capacity = s->capacity ? 2 * s->capacity : 8;
				xanim *more = realloc(s->anims, (size_t)capacity * sizeof *more);

				if (!more)
					return false;
				s->anims = more;
				s->capacity = capacity;
			}
			if (!read_animation(lx, &s->anims[s->count++], t.line))
				return false;
		} else if (token_is(&t, "{") ? !skip_block(lx) : is_delimiter(*t.at) || !read_head(lx, NULL) ||
			   !skip_block(lx)) {
			return false;
		}
	}
	return false;
}

/* The bytes of a text .X file after its header, or NULL: binary and
 * compressed files are not read here.  A UTF-8 byte order mark (which
 * Assimp drops) is stepped over. */
static const uint8_t *text_start(const uint8_t *data, size_t size)
{
	if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
		data += 3;
		size -= 3;
	}
	if (size < 16 || memcmp(data, "xof ", 4) != 0 || memcmp(data + 8, "txt ", 4) != 0)
		return NULL;
	return data;
}

/* Every AnimationSet of the file at the top level; false when the text is
 * not what this reader follows (*stop, which may be NULL, the token it
 * stopped at), or on no memory. */
static bool read_sets(animc_xfile *xf, const uint8_t *data, size_t size, const uint8_t **stop)
{
	const uint8_t *start = text_start(data, size);
	xlexer lx = { start ? start + 16 : NULL, data + size, 1, NULL };
	xtoken t;
	bool is_read = start != NULL;

	while (is_read && lex_next(&lx, &t)) {
		if (token_is(&t, "AnimationSet")) {
			if (xf->count == xf->capacity) {
				uint32_t capacity = xf->capacity ? 2 * xf->capacity : 8;
				xset *more = realloc(xf->sets, (size_t)capacity * sizeof *more);

				if (!more)
					return false;
				xf->sets = more;
				xf->capacity = capacity;
			}
			is_read = read_set(&lx, &xf->sets[xf->count], t.line);
			if (!is_read)
				set_release(&xf->sets[xf->count]);
			xf->count += is_read;
		} else if (token_is(&t, "{") ? !skip_block(&lx) :
			   !is_delimiter(*t.at) && (!read_head(&lx, NULL) || !skip_block(&lx))) {
			is_read = false;
		}
	}
	if (!is_read && stop)
		*stop = lx.last;
	return is_read;
}

/* The line of byte `at` of `data`: LF, CR LF and a lone CR end one. */
static uint32_t line_at(const uint8_t *data, const uint8_t *at)
{
	uint32_t line = 1;

	for (const uint8_t *p = data; p < at; p++)
		line += *p == '\n' || (*p == '\r' && (p + 1 == at || p[1] != '\n'));
	return line;
}

/*
 * Past `n` line ends of a text .X file from `p` as Assimp's DirectX reader
 * counts them (`in_header`: `p` ends the header), NULL past the end.  It
 * counts each LF in white space, and the CR or LF that ends a comment or
 * the header's line: a CR LF after one counts two, a lone CR elsewhere none.
 */
static const uint8_t *assimp_lines(const uint8_t *p, const uint8_t *end, uint32_t n, bool in_header)
{
	for (uint32_t count = 0; count < n; p++, in_header = false) {
		if (p >= end)
			return NULL;
		if (in_header || *p == '#' || (*p == '/' && p + 1 < end && p[1] == '/')) {
			while (p < end && *p != '\n' && *p != '\r')
				p++;
			count += p < end;
		} else if (*p == '\n') {
			count++;
		} else if (*p == '"') {
			const uint8_t *close = memchr(p + 1, '"', (size_t)(end - p - 1));

			p = close ? close : end - 1;
		}
	}
	return p;
}

/* Where this reader stopped in the file's animation sets, or NULL. */
static const uint8_t *reader_stop(const uint8_t *data, size_t size)
{
	animc_xfile xf = { 0 };
	const uint8_t *stop = NULL;

	read_sets(&xf, data, size, &stop);
	for (uint32_t s = 0; s < xf.count; s++)
		set_release(&xf.sets[s]);
	free(xf.sets);
	return stop;
}

uint32_t animc_xfile_line(const uint8_t *data, size_t size, uint32_t assimp_line)
{
	const uint8_t *start = data ? text_start(data, size) : NULL, *end, *from, *to, *stop;

	if (!start)
		return 0;   /* binary, compressed: the lines are not the file's */
	/* Assimp counts from 0 after the header. */
	end = data + size;
	from = assimp_lines(start + 16, end, assimp_line, true);
	if (!from)
		return 0;
	to = assimp_lines(from, end, 1, from == start + 16);
	if (!to)
		to = end;
	/* A line of lone CR ends spans lines Assimp does not count: the place
	 * it stopped in there is where this reader stops, when it does. */
	if (line_at(data, from) == line_at(data, to > from ? to - 1 : to))
		return line_at(data, from);
	stop = reader_stop(data, size);
	return stop && stop >= from && stop < to ? line_at(data, stop) : 0;
}

/* ------------------------------------------------------- binary files */

/* The bytes a token of a binary .X takes past its 2-byte type at `p`
 * (`left` of them there), as Assimp's DirectX reader steps over it; into
 * *what what it is.  SIZE_MAX for a type that is no token of the format. */
static size_t binary_token_bytes(uint16_t type, const uint8_t *p, size_t left, size_t float_bytes,
				 const char **what)
{
	uint32_t n = 0;

	if (left >= 4)
		n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	switch (type) {
	case 1:
		*what = "a name";
		return 4 + (size_t)n;
	case 2:
		*what = "a string";
		return 4 + (size_t)n + 2;   /* and its ';' or ',' */
	case 3:
		*what = "an integer";
		return 4;
	case 5:
		*what = "a GUID";
		return 16;
	case 6:
		*what = "a list of integers";
		return 4 + (size_t)n * 4;
	case 7:
		*what = "a list of floats";
		return 4 + (size_t)n * float_bytes;
	}
	*what = "punctuation or a keyword";
	/* { } ( ) [ ] < > . , ; template, and the type keywords. */
	return (type >= 0x0a && type <= 0x14) || type == 0x1f || (type >= 0x28 && type <= 0x34) ? 0 : SIZE_MAX;
}

/* Say in `why` that the binary tokens of a file of `size` bytes end with
 * the file, `depth` blocks open, its last token `what` (type `type`); true
 * when they end so (a file cut short at a token's end). */
static bool say_binary_end(size_t size, unsigned depth, uint16_t type, const char *what, char *why,
			   size_t why_size)
{
	if (depth > 0)
		snprintf(why, why_size, "its binary tokens end with the file, at byte %zu, inside %u open block%s: "
			 "cut short?", size, depth, depth == 1 ? "" : "s");
	else if (type != 0x0b)
		snprintf(why, why_size, "its binary tokens end with the file, at byte %zu, after %s that opens "
			 "no block: cut short?", size, what);
	return depth > 0 || type != 0x0b;
}

bool animc_xfile_binary_break(const uint8_t *data, size_t size, char *why, size_t why_size)
{
	size_t float_bytes, at = 16;
	unsigned depth = 0;
	uint16_t type = 0x0b;
	const char *what = "";

	if (!data || size < 16 || memcmp(data, "xof ", 4) != 0 || memcmp(data + 8, "bin ", 4) != 0)
		return false;
	float_bytes = memcmp(data + 12, "0064", 4) == 0 ? 8 : 4;
	while (at < size) {
		size_t left = size - at >= 2 ? size - at - 2 : 0, bytes = SIZE_MAX;

		if (size - at >= 2) {
			type = (uint16_t)(data[at] | data[at + 1] << 8);
			bytes = binary_token_bytes(type, data + at + 2, left, float_bytes, &what);
		}
		if (size - at < 2)
			snprintf(why, why_size, "its binary tokens break off at byte %zu: the file ends inside a "
				 "token's type", at);
		else if (bytes == SIZE_MAX)
			snprintf(why, why_size, "its binary tokens break off at byte %zu: 0x%04x is no token of the "
				 "binary .X format (damaged, or not written as one)", at, type);
		else if (bytes > left)
			snprintf(why, why_size, "its binary tokens break off at byte %zu: %s of %zu bytes runs past "
				 "the end of the file, at byte %zu: cut short?", at, what, bytes, size);
		if (size - at < 2 || bytes == SIZE_MAX || bytes > left)
			return true;
		depth += type == 0x0a;
		depth -= type == 0x0b && depth > 0;
		at += 2 + bytes;
	}
	return say_binary_end(size, depth, type, what, why, why_size);
}

/* Assimp's reads of a binary .X file's numbers: each from a list token
 * (0x06 integers, 0x07 floats) while one lasts, a token's type read when
 * none does (any other type counting as a single number after it), the
 * number's bytes taken whatever the list held. */
typedef struct xbin {
	const uint8_t *data;
	size_t size, at, float_bytes;
	uint32_t left;        /* numbers left of the list being read */
} xbin;

static uint32_t bin_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The next number, `list` the type of the list Assimp reads it from (6 an
 * integer, 7 a float); at *at where its bytes start; false past the end. */
static bool bin_number(xbin *b, uint16_t list, uint32_t *value, size_t *at)
{
	size_t bytes = list == 7 ? b->float_bytes : 4;

	if (b->left == 0) {
		if (b->size - b->at < 2)
			return false;
		uint16_t type = (uint16_t)(b->data[b->at] | b->data[b->at + 1] << 8);

		b->at += 2;
		b->left = 1;
		if (type == list) {
			if (b->size - b->at < 4)
				return false;
			b->left = bin_u32(b->data + b->at);
			b->at += 4;
		}
	}
	b->left--;
	if (b->size - b->at < bytes)
		return false;
	*value = bin_u32(b->data + b->at);
	*at = b->at;
	b->at += bytes;
	return true;
}

/* The byte of the first brace after `at`, where the data of an
 * AnimationKey (which holds no block) starts: its closing one; `size`
 * when there is none.  (Stopping at any brace keeps the walks of many
 * AnimationKeys linear in the file.) */
static size_t bin_block_end(const uint8_t *data, size_t size, size_t at, size_t float_bytes)
{
	const char *what;

	while (size - at >= 2) {
		uint16_t type = (uint16_t)(data[at] | data[at + 1] << 8);
		size_t bytes = binary_token_bytes(type, data + at + 2, size - at - 2, float_bytes, &what);

		if (type == 0x0a || type == 0x0b)
			return at;
		if (bytes == SIZE_MAX || bytes > size - at - 2)
			break;
		at += 2 + bytes;
	}
	return size;
}

/* The next number of the AnimationKey at `key_at`, which key `k` (from 0)
 * reads: false, said in `why`, when it lies at or past the block's closing
 * brace at `end`. */
static bool key_number(xbin *b, uint16_t list, size_t key_at, size_t end, uint32_t k, uint32_t count, uint32_t *value,
		       size_t *at, char *why, size_t why_size)
{
	if (bin_number(b, list, value, at) && *at < end)
		return true;
	snprintf(why, why_size, "in the AnimationKey at byte %zu: it says %u key%s, and its numbers end within key "
		 "%u, at its closing brace (byte %zu)", key_at, count, count == 1 ? "" : "s", k + 1, end);
	return false;
}

/* Read the AnimationKey whose data starts at b->at (its name at `key_at`)
 * as Assimp does: its type, its count, and each key's time, value count
 * and values.  False, said in `why`, where Assimp's read fails. */
static bool bin_animation_key(xbin *b, size_t key_at, char *why, size_t why_size)
{
	static const uint32_t widths[5] = { 4, 3, 3, 16, 16 };
	static const char *const kinds[5] = { "rotation", "scale", "position", "matrix", "matrix" };
	size_t end = bin_block_end(b->data, b->size, b->at, b->float_bytes), type_at, at;
	uint32_t type, count, v;

	if (!bin_number(b, 6, &type, &type_at) || !bin_number(b, 6, &count, &at) || at >= end)
		return true;   /* said as Assimp says it: no key */
	if (type > 4) {
		snprintf(why, why_size, "in the AnimationKey at byte %zu: its key type, at byte %zu, is %u, where "
			 "0 is rotation, 1 scale, 2 position, 3 and 4 matrix", key_at, type_at, type);
		return false;
	}
	for (uint32_t k = 0; k < count; k++) {
		if (!key_number(b, 6, key_at, end, k, count, &v, &at, why, why_size) ||
		    !key_number(b, 6, key_at, end, k, count, &v, &at, why, why_size))
			return false;
		if (v != widths[type]) {
			snprintf(why, why_size, "in the AnimationKey at byte %zu: key %u's value count, read at byte %zu, "
				 "is %u, where a %s key has %u%s", key_at, k + 1, at, v, kinds[type], widths[type],
				 k ? " (a value too many or too few in a key before it moves the count)" : "");
			return false;
		}
		for (uint32_t i = 0; i < widths[type]; i++)
			if (!key_number(b, 7, key_at, end, k, count, &v, &at, why, why_size))
				return false;
	}
	if (b->left == 0 && b->at == end)
		return true;
	snprintf(why, why_size, "in the AnimationKey at byte %zu: its %u key%s at byte %zu, and numbers are "
		 "left before its closing brace", key_at, count, count == 1 ? " ends" : "s end", b->at);
	return false;
}

/* The start of the data of the object whose name token is at `at`, a
 * whole token (after an optional name of its own and its '{'); 0 for
 * none. */
static size_t bin_object_data(const uint8_t *data, size_t size, size_t at)
{
	at += 6 + bin_u32(data + at + 2);   /* a whole token: the caller's walk checked it */
	if (size - at >= 6 && data[at] == 1 && data[at + 1] == 0) {
		uint32_t n = bin_u32(data + at + 2);

		if (n > size - at - 6)
			return 0;
		at += 6 + n;
	}
	return size - at >= 2 && data[at] == 0x0a && data[at + 1] == 0 ? at + 2 : 0;
}

bool animc_xfile_binary_bad_key(const uint8_t *data, size_t size, char *why, size_t why_size)
{
	size_t at = 16;
	uint16_t type = 0, before = 0;
	const char *what;

	if (!data || size < 16 || memcmp(data, "xof ", 4) != 0 || memcmp(data + 8, "bin ", 4) != 0)
		return false;
	xbin b = { data, size, 0, memcmp(data + 12, "0064", 4) == 0 ? 8 : 4, 0 };

	while (size - at >= 2) {
		before = type;
		type = (uint16_t)(data[at] | data[at + 1] << 8);
		size_t bytes = binary_token_bytes(type, data + at + 2, size - at - 2, b.float_bytes, &what);

		if (bytes == SIZE_MAX || bytes > size - at - 2)
			return false;
		/* A template's definition (0x1f before its name) holds no keys. */
		if (type == 1 && before != 0x1f && bytes == 4 + 12 && memcmp(data + at + 6, "AnimationKey", 12) == 0 &&
		    (b.at = bin_object_data(data, size, at)) != 0) {
			b.left = 0;
			if (!bin_animation_key(&b, at, why, why_size))
				return true;
		}
		at += 2 + bytes;
	}
	return false;
}

/* ------------------------------------------------------------- mending */

/*
 * A rotation key (w x y z) as Assimp's reader would give its unit multiple:
 * the inverse rotation (its matrix read back, w negated), then turned into
 * Assimp's right-handed frame (x and y negated).  Assimp makes the matrix
 * of the key as it stands, which for a quaternion not of unit length is no
 * rotation: the quaternion read back from it turns by another angle.
 */
static struct aiQuaternion assimp_rotation_key(const float wxyz[4])
{
	double len = sqrt((double)wxyz[0] * wxyz[0] + (double)wxyz[1] * wxyz[1] + (double)wxyz[2] * wxyz[2] +
			  (double)wxyz[3] * wxyz[3]);
	/* The rotation's matrix read back in Assimp's convention (column
	 * vectors) is the quaternion in XNA's (row vectors). */
	double q[4] = { wxyz[1] / len, wxyz[2] / len, wxyz[3] / len, wxyz[0] / len }, m[16], back[4];
	struct aiQuaternion out;

	animc_mat4_from_quat(q, m);
	animc_quat_from_rotation_matrix(m, back);
	out.w = (float)-back[3];
	out.x = (float)-back[0];
	out.y = (float)-back[1];
	out.z = (float)back[2];
	return out;
}

static void channel_free(struct aiNodeAnim *m)
{
	if (m) {
		free(m->mPositionKeys);
		free(m->mRotationKeys);
		free(m->mScalingKeys);
		free(m);
	}
}

/* A copy of Assimp's channel whose key arrays are its own (freed with
 * channel_free). */
static struct aiNodeAnim *channel_copy(const struct aiNodeAnim *na)
{
	struct aiNodeAnim *m = calloc(1, sizeof *m);
	size_t np = na->mPositionKeys ? na->mNumPositionKeys : 0, nr = na->mRotationKeys ? na->mNumRotationKeys : 0,
	       ns = na->mScalingKeys ? na->mNumScalingKeys : 0;

	if (!m)
		return NULL;
	m->mNodeName = na->mNodeName;
	m->mPreState = na->mPreState;
	m->mPostState = na->mPostState;
	m->mPositionKeys = malloc((np ? np : 1) * sizeof *m->mPositionKeys);
	m->mRotationKeys = malloc((nr ? nr : 1) * sizeof *m->mRotationKeys);
	m->mScalingKeys = malloc((ns ? ns : 1) * sizeof *m->mScalingKeys);
	if (!m->mPositionKeys || !m->mRotationKeys || !m->mScalingKeys) {
		channel_free(m);
		return NULL;
	}
	m->mNumPositionKeys = (unsigned)np;
	m->mNumRotationKeys = (unsigned)nr;
	m->mNumScalingKeys = (unsigned)ns;
	if (np)
		memcpy(m->mPositionKeys, na->mPositionKeys, np * sizeof *m->mPositionKeys);
	if (nr)
		memcpy(m->mRotationKeys, na->mRotationKeys, nr * sizeof *m->mRotationKeys);
	if (ns)
		memcpy(m->mScalingKeys, na->mScalingKeys, ns * sizeof *m->mScalingKeys);
	return m;
}

/*
 * Rotation keys off unit length (of more than float rounding): each
 * replaced by what Assimp gives for its unit multiple, which is the
 * rotation the key stands for.  A key of no length stands for none (Assimp
 * gives the identity for it): counted, to be said as an error.
 */
static bool mend_rotation_keys(xchannel *xc, const xkeys *rot, const struct aiNodeAnim *na)
{
	struct aiNodeAnim *m = NULL;

	if (rot->count != na->mNumRotationKeys || !na->mRotationKeys)
		return true;
	for (uint32_t i = 0; i < rot->count; i++) {
		const float *v = key_values(rot, i);
		double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2] +
				  (double)v[3] * v[3]);

		if (isfinite(len) && len <= 1e-6 && xc->zero++ == 0) {
			xc->zero_line = rot->keys[i].line;
			xc->zero_tick = rot->keys[i].time;
			xc->zero_length = len;
		}
		if (!isfinite(len) || len <= 1e-6 || fabs(len - 1) <= 1e-5)
			continue;
		if (!m && !(m = xc->mended = channel_copy(na)))
			return false;
		xc->not_unit += fabs(len - 1) > ANIMC_UNIT_QUAT_TOLERANCE;
		m->mRotationKeys[i].mValue = assimp_rotation_key(v);
	}
	return true;
}

static bool names_match(const struct aiString *s, xname name)
{
	/* An Animation naming no frame has no name bytes at all (NULL). */
	return s->length == name.len && (name.len == 0 || memcmp(s->data, name.at, name.len) == 0);
}

/*
 * Keys of one type (rotation, scale or position) as Assimp's reader gives
 * them, into `*out` (a new array, `*count` keys); false on no memory.
 */
static bool assimp_keys(const xkeys *k, int kind, void **out, unsigned *count)
{
	size_t size = kind == XKEY_ROTATION ? sizeof(struct aiQuatKey) : sizeof(struct aiVectorKey);
	uint8_t *keys = malloc(k->count * size);

	if (!keys)
		return false;
	for (uint32_t i = 0; i < k->count; i++) {
		const xkey *key = &k->keys[i];
		const float *v = key_values(k, i);

		if (kind == XKEY_ROTATION) {
			struct aiQuatKey q = { key->time, assimp_rotation_key(v) };

			memcpy(keys + i * size, &q, size);
		} else {
			/* Positions into Assimp's right-handed frame: z turns round. */
			float z = kind == XKEY_POSITION ? -v[2] : v[2];
			struct aiVectorKey vk = { key->time, { v[0], v[1], z } };

			memcpy(keys + i * size, &vk, size);
		}
	}
	*out = keys;
	*count = k->count;
	return true;
}

/*
 * Rotation, scale and position keys beside matrix keys: Assimp takes the
 * matrix keys and never reads the others.  Each type the file keys apart
 * gives its track; the matrix keys give the others.  The duration reaches
 * the last key of each, as Assimp reckons it for keys of those types.
 */
static bool mend_mixed_keys(xchannel *xc, const xanim *src, const struct aiNodeAnim *na, struct aiAnimation *anim)
{
	static const int kinds[] = { XKEY_POSITION, XKEY_ROTATION, XKEY_SCALE };
	struct aiNodeAnim *m = xc->mended ? xc->mended : channel_copy(na);

	if (!m)
		return false;
	xc->mended = m;
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		const xkeys *k = &src->keys[kinds[i]];
		void **keys = kinds[i] == XKEY_POSITION ? (void **)&m->mPositionKeys :
			      kinds[i] == XKEY_ROTATION ? (void **)&m->mRotationKeys : (void **)&m->mScalingKeys;
		unsigned *count = kinds[i] == XKEY_POSITION ? &m->mNumPositionKeys :
				  kinds[i] == XKEY_ROTATION ? &m->mNumRotationKeys : &m->mNumScalingKeys;
		void *old = *keys;

		if (!k->count)
			continue;
		if (!assimp_keys(k, kinds[i], keys, count))
			return false;
		free(old);
		if (anim->mDuration < k->keys[k->count - 1].time)
			anim->mDuration = k->keys[k->count - 1].time;
	}
	return true;
}

/* A rotation of XNA's convention (x y z w, row vectors; a matrix key's as
 * animc_mat4_decompose gives it) in Assimp's right-handed frame. */
static struct aiQuaternion assimp_matrix_rotation(const float q[4])
{
	struct aiQuaternion out = { q[3], -q[0], -q[1], q[2] };

	return out;
}

/* `q` divided by its length, when it has one. */
static void unit_quaternion(struct aiQuaternion *q)
{
	double len = sqrt((double)q->w * q->w + (double)q->x * q->x + (double)q->y * q->y + (double)q->z * q->z);

	if (isfinite(len) && len > 1e-6) {
		q->w = (float)(q->w / len);
		q->x = (float)(q->x / len);
		q->y = (float)(q->y / len);
		q->z = (float)(q->z / len);
	}
}

/* Whether Assimp's rotation and scale of key `i` are finite: its float
 * arithmetic overflows on axes of a length past 1e19 (1e30: an infinite
 * scale and a rotation of NaN). */
static bool assimp_key_is_finite(const struct aiNodeAnim *na, uint32_t i)
{
	const struct aiQuaternion *q = &na->mRotationKeys[i].mValue;
	const struct aiVector3D *s = &na->mScalingKeys[i].mValue;

	return isfinite(q->w) && isfinite(q->x) && isfinite(q->y) && isfinite(q->z) && isfinite(s->x) &&
	       isfinite(s->y) && isfinite(s->z);
}

/*
 * Matrix keys Assimp splits wrongly: it takes the scale for the lengths of
 * the axes, always positive, so a mirroring key (negative determinant)
 * lost its mirror and gave a quaternion of no rotation; and its float
 * arithmetic overflows on long axes.  Such a key is split as XNA's
 * Matrix.Decompose does, the mirror in a negative X scale.  A shearing key
 * no split holds: Assimp's rotation of it is made unit length, and the key
 * is counted, to be said as the shear it is.  A projection (Assimp drops
 * the fourth column) or an axis of scale 0 (Assimp's rotation of it is
 * NaN; one of 1e-7 of the others, which animc_mat4_decompose takes for 0,
 * Assimp splits) holds no split at all: the first is kept, to be said as an
 * error.
 */
static bool mend_matrix_keys(xchannel *xc, const xkeys *matrix, const struct aiNodeAnim *na)
{
	for (uint32_t i = 0; i < matrix->count; i++) {
		double m[16];
		float t[3], r[4], sc[3];

		animc_decompose_result result;

		for (int e = 0; e < 16; e++)
			m[e] = key_values(matrix, i)[e];
		result = animc_mat4_decompose(m, t, r, sc);
		if ((result == ANIMC_DECOMPOSE_NOT_AFFINE ||
		     (result == ANIMC_DECOMPOSE_ZERO_SCALE && !assimp_key_is_finite(na, i))) &&
		    xc->unsplit == ANIMC_DECOMPOSE_OK) {
			xc->unsplit = result;
			xc->unsplit_line = matrix->keys[i].line;
			xc->unsplit_tick = matrix->keys[i].time;
		}
		if ((result != ANIMC_DECOMPOSE_OK || (sc[0] >= 0 && assimp_key_is_finite(na, i))) &&
		    result != ANIMC_DECOMPOSE_SHEAR)
			continue;
		if (!xc->mended && !(xc->mended = channel_copy(na)))
			return false;
		if (result == ANIMC_DECOMPOSE_SHEAR) {
			if (xc->sheared++ == 0)
				xc->sheared_tick = matrix->keys[i].time;
			unit_quaternion(&xc->mended->mRotationKeys[i].mValue);
			continue;
		}
		xc->mended->mRotationKeys[i].mValue = assimp_matrix_rotation(r);
		xc->mended->mScalingKeys[i].mValue = (struct aiVector3D){ sc[0], sc[1], sc[2] };
	}
	return true;
}

/* Whether every key of the Animation holds the values its type has. */
static bool keys_are_whole(const xanim *src)
{
	for (int k = 0; k < XKEY_KINDS; k++)
		for (uint32_t i = 0; i < src->keys[k].count; i++)
			if (src->keys[k].keys[i].value_count != key_widths[k])
				return false;
	return true;
}

/* Channel `na` of `anim` from the file's Animation `src`. */
static bool mend_channel(xchannel *xc, const xanim *src, const struct aiNodeAnim *na, struct aiAnimation *anim)
{
	const xkeys *matrix = &src->keys[XKEY_MATRIX];

	xc->src = src;
	if (!keys_are_whole(src))
		return true;
	if (!matrix->count)
		return mend_rotation_keys(xc, &src->keys[XKEY_ROTATION], na);
	if (matrix->count != na->mNumRotationKeys || matrix->count != na->mNumPositionKeys ||
	    matrix->count != na->mNumScalingKeys)
		return true;
	if (!mend_matrix_keys(xc, matrix, na))
		return false;
	if (src->keys[XKEY_ROTATION].count || src->keys[XKEY_SCALE].count || src->keys[XKEY_POSITION].count)
		return mend_mixed_keys(xc, src, na, anim);
	return true;
}

/*
 * Pair the scene's animations with the file's sets as Assimp made them
 * (one per set holding an Animation, one channel per Animation, in the
 * file's order) and mend their channels.  A scene that does not pair
 * (the reader and Assimp's disagree) is left as Assimp gave it.
 */
static bool mend_scene(animc_xfile *xf, const struct aiScene *scene)
{
	unsigned a = 0;

	xf->matches = scene->mNumAnimations ? calloc(scene->mNumAnimations, sizeof *xf->matches) : NULL;
	if (scene->mNumAnimations && !xf->matches)
		return false;
	xf->animation_count = scene->mNumAnimations;
	for (uint32_t s = 0; s < xf->count && scene->mAnimations; s++) {
		const xset *set = &xf->sets[s];
		struct aiAnimation *anim = a < scene->mNumAnimations ? scene->mAnimations[a] : NULL;
		xmatch *match = &xf->matches[a];

		if (!set->count)
			continue;
		if (!anim || !anim->mChannels || anim->mNumChannels != set->count || !names_match(&anim->mName, set->name))
			return true;
		match->channels = calloc(set->count, sizeof *match->channels);
		if (!match->channels)
			return false;
		match->set = set;
		for (uint32_t c = 0; c < set->count; c++) {
			const struct aiNodeAnim *na = anim->mChannels[c];

			if (na && names_match(&na->mNodeName, set->anims[c].bone) &&
			    !mend_channel(&match->channels[c], &set->anims[c], na, anim))
				return false;
		}
		a++;
	}
	return true;
}

/*
 * An Animation that names no frame (`{ Frame }`): Assimp makes it a channel
 * of the bone "", which no runtime binds by name, and which matches an
 * unnamed top frame (as exporters write the scene's root) without a word.
 * Left out, at its line.
 */
static void say_unnamed_frames(const animc_xfile *xf, animc_diag_sink *sink)
{
	for (unsigned a = 0; a < xf->animation_count; a++) {
		const xset *set = xf->matches[a].set;

		for (uint32_t c = 0; set && c < set->count; c++)
			if (!set->anims[c].has_bone)
				animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_NODE, set->anims[c].line, 0,
						       "animation set '%.*s': this Animation names no frame (a `{ Name }` "
						       "reference), so no bone takes its keys; left out: name the frame it "
						       "animates", NAME_SHOWN(set->name));
	}
}

/* An AnimationSet of no Animation: Assimp makes no animation of it, so no
 * clip was written and `--clip NAME` said the file has none of the name. */
static void say_empty_sets(const animc_xfile *xf, animc_diag_sink *sink)
{
	for (uint32_t s = 0; s < xf->count; s++)
		if (!xf->sets[s].count)
			animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_EMPTY_CLIP, xf->sets[s].line, 0,
					       "animation set '%.*s' holds no Animation, so Assimp reads no animation "
					       "of it: no clip is made of it; give it its keys, or remove it",
					       NAME_SHOWN(xf->sets[s].name));
}

animc_xfile *animc_xfile_open(const uint8_t *data, size_t size, const struct aiScene *scene, animc_diag_sink *sink)
{
	animc_xfile *xf;

	if (!data || !text_start(data, size) || !(xf = calloc(1, sizeof *xf)))
		return NULL;
	if (!read_sets(xf, data, size, NULL) || !mend_scene(xf, scene)) {
		animc_xfile_close(xf);
		return NULL;
	}
	say_empty_sets(xf, sink);
	say_unnamed_frames(xf, sink);
	return xf;
}

void animc_xfile_close(animc_xfile *xf)
{
	if (!xf)
		return;
	for (unsigned a = 0; xf->matches && a < xf->animation_count; a++) {
		for (uint32_t c = 0; xf->matches[a].set && c < xf->matches[a].set->count; c++)
			channel_free(xf->matches[a].channels[c].mended);
		free(xf->matches[a].channels);
	}
	free(xf->matches);
	for (uint32_t s = 0; s < xf->count; s++)
		set_release(&xf->sets[s]);
	free(xf->sets);
	free(xf);
}

static const xchannel *channel_at(const animc_xfile *xf, unsigned a, unsigned c)
{
	if (!xf || !xf->matches || a >= xf->animation_count || !xf->matches[a].set)
		return NULL;
	return c < xf->matches[a].set->count ? &xf->matches[a].channels[c] : NULL;
}

/* The first key of the file whose values Assimp cannot read right, or NULL;
 * its set, Animation and kind in *set, *anim and *kind. */
static const xkey *bad_key(const animc_xfile *xf, const xset **set, const xanim **anim, int *kind)
{
	for (uint32_t s = 0; s < xf->count; s++)
		for (uint32_t a = 0; a < xf->sets[s].count; a++)
			for (int k = 0; k < XKEY_KINDS; k++)
				for (uint32_t i = 0; i < xf->sets[s].anims[a].keys[k].count; i++) {
					const xkey *key = &xf->sets[s].anims[a].keys[k].keys[i];

					if (key->value_count == key_widths[k] && key->declared == key_widths[k] &&
					    !key->has_comma_decimal)
						continue;
					*set = &xf->sets[s];
					*anim = &xf->sets[s].anims[a];
					*kind = k;
					return key;
				}
	return NULL;
}

bool animc_xfile_say_bad_key(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	static const char *const kinds[XKEY_KINDS] = { "rotation", "scale", "position", "matrix" };
	animc_xfile xf = { 0 };
	const xset *set;
	const xanim *anim;
	const xkey *key;
	int kind;
	char where[640];

	if (!data || !text_start(data, size))
		return false;
	read_sets(&xf, data, size, NULL);
	key = bad_key(&xf, &set, &anim, &kind);
	if (key) {
		snprintf(where, sizeof where, "animation set '%.*s': %s%.*s%sthe %s key at tick %.0f",
			 NAME_SHOWN(set->name), anim->has_bone ? "frame '" : "", NAME_SHOWN(anim->bone),
			 anim->has_bone ? "': " : "", kinds[kind], key->time);
		if (key->has_comma_decimal)
			animc_diag_report(sink, ANIMC_ERROR, key->line, 0, "%s: a whole number right before a comma "
					  "and a digit (`1,2`) is one number to Assimp, the comma its decimal point "
					  "(1.2), so the key's values cannot be read: write them with a decimal point "
					  "(1.0,2.0) or a space after each comma", where);
		else
			animc_diag_report(sink, ANIMC_ERROR, key->line, 0, "%s: holds %u value%s where it says %u, "
					  "and a %s key has %u: give the key its %u values", where, key->value_count,
					  key->value_count == 1 ? "" : "s", key->declared, kinds[kind], key_widths[kind],
					  key_widths[kind]);
	}
	for (uint32_t s = 0; s < xf.count; s++)
		set_release(&xf.sets[s]);
	free(xf.sets);
	return key != NULL;
}

const struct aiNodeAnim *animc_xfile_channel(const animc_xfile *xf, unsigned a, unsigned c,
					     const struct aiNodeAnim *na)
{
	const xchannel *xc = channel_at(xf, a, c);

	if (xc && xc->src && !xc->src->has_bone)
		return NULL;   /* names no frame: said when the file was read */
	return xc && xc->mended ? xc->mended : na;
}

bool animc_xfile_say(const animc_xfile *xf, unsigned a, unsigned c, const animc_clip *clip,
		     const animc_channel *ch, animc_diag_sink *sink)
{
	const xchannel *xc = channel_at(xf, a, c);
	char where[4160];   /* room for the longest names Assimp keeps */

	if (!xc || !xc->src)
		return false;
	if (xc->not_unit)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_NOT_UNIT_QUATERNION, clip, ch,
				       "%u rotation key%s not of unit length; read as the rotation of %s unit "
				       "multiple: check the exporter's rotation output (quaternions)", xc->not_unit,
				       xc->not_unit == 1 ? " was" : "s were", xc->not_unit == 1 ? "its" : "their");
	if (xc->sheared)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SHEARED_KEY, clip, ch,
				       "the matrix key at tick %.0f%s shears (its axes are not perpendicular), and a "
				       "key holds translation, rotation and scale only; kept its axes' lengths and a "
				       "rotation close to it: take the shear out of the animation in the exporter",
				       xc->sheared_tick, xc->sheared > 1 ? " (and more)" : "");
	if (!xc->zero && xc->unsplit == ANIMC_DECOMPOSE_OK)
		return false;
	animc_clip_where(clip, ch, where, sizeof where);
	if (xc->zero)
		animc_diag_report(sink, ANIMC_ERROR, xc->zero_line, 0,
				  "%sthe rotation key at tick %.0f has length %g, and a quaternion of no length is no "
				  "rotation (Assimp reads it as none, the bone unturned): give the key its rotation in "
				  "the exporter", where, xc->zero_tick, xc->zero_length);
	else
		animc_diag_report(sink, ANIMC_ERROR, xc->unsplit_line, 0,
				  "%sthe matrix key at tick %.0f does not split into scale, rotation and translation: "
				  "%s; a key holds those only: export the animation as rotation, scale and position "
				  "keys", where, xc->unsplit_tick, animc_decompose_result_string(xc->unsplit));
	return true;
}
