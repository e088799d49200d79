/*
 * fbx_doc.c - a small FBX reader (ASCII and binary): the file's elements
 * as one flat list, then the models, takes, layers, curve nodes and curves
 * the importer checks Assimp's scene against (fbx_doc.h).
 */
#include "fbx_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>

#define DEPTH_MAX 64
#define PI 3.14159265358979323846

/* One element (`Name: props { children }`), its children following it up
 * to `end`, in file order. */
typedef struct element {
	const uint8_t *name;
	size_t name_len;
	uint32_t parent, end, prop, prop_count, line;
} element;

/* One property: ASCII 't' (a token), 's' (a string without its quotes);
 * binary its type letter, `at` its value (an array's 12-byte header). */
typedef struct property {
	char type;
	const uint8_t *at;
	size_t len;
} property;

typedef struct parse {
	const uint8_t *data;
	size_t size;
	element *e;
	property *p;
	uint32_t e_count, e_cap, p_count, p_cap;
} parse;

static bool grow(void **items, uint32_t *cap, uint32_t count, size_t item_size)
{
	void *more;

	if (count < *cap)
		return true;
	if (*cap > UINT32_MAX / 4)
		return false;
	more = realloc(*items, (size_t)(*cap ? *cap * 2 : 64) * item_size);
	if (!more)
		return false;
	*items = more;
	*cap = *cap ? *cap * 2 : 64;
	return true;
}

static uint32_t add_element(parse *ps, const uint8_t *name, size_t len, uint32_t parent, uint32_t line)
{
	if (!grow((void **)&ps->e, &ps->e_cap, ps->e_count, sizeof *ps->e))
		return FBX_NONE;
	ps->e[ps->e_count] = (element){ name, len, parent, ps->e_count + 1, ps->p_count, 0, line };
	return ps->e_count++;
}

static bool add_property(parse *ps, uint32_t el, char type, const uint8_t *at, size_t len)
{
	if (!grow((void **)&ps->p, &ps->p_cap, ps->p_count, sizeof *ps->p))
		return false;
	ps->p[ps->p_count++] = (property){ type, at, len };
	ps->e[el].prop_count++;
	return true;
}

/* ---------------------------------------------------------------- ASCII */

typedef struct token {
	char kind;   /* 'k' key, 'd' data, 's' string, '{', '}', 0 the end, '!' broken */
	const uint8_t *at;
	size_t len;
	uint32_t line;
} token;

static bool is_token_end(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == '{' || c == '}' || c == ';' ||
	       c == '"' || c == ':';
}

/* The next token from `*pos`, commas and comments stepped over.  A line
 * ends at LF, CR LF or a lone CR. */
static token next_token(const parse *ps, size_t *pos, uint32_t *line)
{
	const uint8_t *d = ps->data;
	size_t i = *pos, n = ps->size;
	token t = { 0, NULL, 0, 0 };

	for (; i < n; i++) {
		if (d[i] == '\n' || (d[i] == '\r' && (i + 1 == n || d[i + 1] != '\n')))
			++*line;
		else if (d[i] == ';')
			while (i + 1 < n && d[i + 1] != '\n' && d[i + 1] != '\r')
				i++;
		else if (d[i] != ' ' && d[i] != '\t' && d[i] != '\r' && d[i] != ',')
			break;
	}
	t.line = *line;
	if (i < n && (d[i] == '{' || d[i] == '}')) {
		t.kind = (char)d[i];
		*pos = i + 1;
		return t;
	}
	if (i < n && d[i] == '"') {
		const uint8_t *close = memchr(d + i + 1, '"', n - i - 1);

		t.kind = close ? 's' : '!';
		t.at = d + i + 1;
		t.len = close ? (size_t)(close - t.at) : 0;
		*pos = close ? (size_t)(close - d) + 1 : n;
		return t;
	}
	t.at = d + i;
	while (i < n && !is_token_end(d[i]))
		i++;
	t.len = (size_t)(d + i - t.at);
	t.kind = i < n && d[i] == ':' ? 'k' : t.len ? 'd' : i < n ? '!' : 0;
	*pos = i + (t.kind == 'k');
	return t;
}

static bool ascii_scope(parse *ps, size_t *pos, uint32_t *line, uint32_t parent, int depth);

/* The properties and children of element `el`, after its key. */
static bool ascii_element(parse *ps, size_t *pos, uint32_t *line, uint32_t el, int depth)
{
	for (;;) {
		size_t before = *pos;
		uint32_t line_before = *line;
		token t = next_token(ps, pos, line);

		if (t.kind == 'd' || t.kind == 's') {
			if (!add_property(ps, el, t.kind == 'd' ? 't' : 's', t.at, t.len))
				return false;
			continue;
		}
		if (t.kind == '{') {
			if (!ascii_scope(ps, pos, line, el, depth + 1))
				return false;
			t = next_token(ps, pos, line);
			if (t.kind != '}')
				return false;
		} else {
			*pos = before;
			*line = line_before;
		}
		ps->e[el].end = ps->e_count;
		return t.kind != '!';
	}
}

/* Elements up to a '}' (left unread) or the end. */
static bool ascii_scope(parse *ps, size_t *pos, uint32_t *line, uint32_t parent, int depth)
{
	if (depth > DEPTH_MAX)
		return false;
	for (;;) {
		size_t before = *pos;
		uint32_t line_before = *line;
		token t = next_token(ps, pos, line);
		uint32_t el;

		if (t.kind == 0 || t.kind == '}') {
			*pos = before;
			*line = line_before;
			return true;
		}
		if (t.kind != 'k')
			return false;
		el = add_element(ps, t.at, t.len, parent, t.line);
		if (el == FBX_NONE || !ascii_element(ps, pos, line, el, depth))
			return false;
	}
}

/* --------------------------------------------------------------- binary */

static uint64_t le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = bytes; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* The bytes of the property of type `type` at `p` (before `end`), its
 * type byte not counted; 0 when it does not fit. */
static size_t binary_property_size(char type, const uint8_t *p, const uint8_t *end)
{
	size_t left = (size_t)(end - p);

	switch (type) {
	case 'C': return left >= 1 ? 1 : 0;
	case 'Y': return left >= 2 ? 2 : 0;
	case 'I': case 'F': return left >= 4 ? 4 : 0;
	case 'D': case 'L': return left >= 8 ? 8 : 0;
	case 'S': case 'R':
		return left >= 4 && le(p, 4) <= left - 4 ? 4 + (size_t)le(p, 4) : 0;
	case 'f': case 'd': case 'l': case 'i': case 'b':
		return left >= 12 && le(p + 8, 4) <= left - 12 ? 12 + (size_t)le(p + 8, 4) : 0;
	default: return 0;
	}
}

static bool binary_properties(parse *ps, uint32_t el, const uint8_t *p, const uint8_t *end, uint64_t count)
{
	for (uint64_t i = 0; i < count; i++) {
		size_t n;

		if (p >= end || !(n = binary_property_size((char)*p, p + 1, end)))
			return false;
		bool is_string = *p == 'S' || *p == 'R';

		if (!add_property(ps, el, (char)*p, p + 1 + (is_string ? 4 : 0), is_string ? n - 4 : n))
			return false;
		p += 1 + n;
	}
	return true;
}

/* The records from `p` to `end` (a null record, or `end`, closes them). */
static bool binary_records(parse *ps, size_t p, size_t end, bool is_wide, uint32_t parent, int depth)
{
	unsigned field = is_wide ? 8 : 4;
	size_t head = 3 * (size_t)field + 1;

	if (depth > DEPTH_MAX)
		return false;
	while (p + head <= end) {
		uint64_t rec_end = le(ps->data + p, field), props = le(ps->data + p + field, field);
		uint64_t list = le(ps->data + p + 2 * field, field);
		size_t name_len = ps->data[p + 3 * field], body = p + head + name_len;
		uint32_t el;

		if (rec_end == 0)
			return true;   /* the null record */
		if (rec_end <= p || rec_end > end || body > rec_end || list > rec_end - body)
			return false;
		el = add_element(ps, ps->data + p + head, name_len, parent, 0);
		if (el == FBX_NONE ||
		    !binary_properties(ps, el, ps->data + body, ps->data + body + list, props) ||
		    !binary_records(ps, body + (size_t)list, (size_t)rec_end, is_wide, el, depth + 1))
			return false;
		ps->e[el].end = ps->e_count;
		p = (size_t)rec_end;
	}
	return true;
}

/* ----------------------------------------------------------- properties */

static bool element_is(const parse *ps, uint32_t el, const char *name)
{
	size_t n = strlen(name);

	return ps->e[el].name_len == n && memcmp(ps->e[el].name, name, n) == 0;
}

/* The child of `el` named `name`, or FBX_NONE. */
static uint32_t child(const parse *ps, uint32_t el, const char *name)
{
	for (uint32_t c = el + 1; c < ps->e[el].end; c = ps->e[c].end)
		if (element_is(ps, c, name))
			return c;
	return FBX_NONE;
}

static const property *prop_at(const parse *ps, uint32_t el, uint32_t i)
{
	return el != FBX_NONE && i < ps->e[el].prop_count ? &ps->p[ps->e[el].prop + i] : NULL;
}

static double number_of(const property *pr)
{
	char buf[64];
	double d;
	float f;

	if (!pr)
		return NAN;
	switch (pr->type) {
	case 't':
		if (pr->len >= sizeof buf)
			return NAN;
		memcpy(buf, pr->at, pr->len);
		buf[pr->len] = '\0';
		return strtod(buf, NULL);
	case 'C': return pr->at[0];
	case 'Y': return (int16_t)le(pr->at, 2);
	case 'I': return (int32_t)le(pr->at, 4);
	case 'L': return (double)(int64_t)le(pr->at, 8);
	case 'F': memcpy(&f, pr->at, 4); return f;
	case 'D': memcpy(&d, pr->at, 8); return d;
	default: return NAN;
	}
}

/* A string property into `out` (cut at `bytes`); "" for another kind. */
static void string_of(const property *pr, char *out, size_t bytes)
{
	size_t n = pr && (pr->type == 's' || pr->type == 'S') ? pr->len : 0;

	n = n < bytes - 1 ? n : bytes - 1;
	if (n)
		memcpy(out, pr->at, n);
	out[n] = '\0';
}

/* An object's name without its class: "Model::Bone" (ASCII) or
 * "Bone\0\1Model" (binary) gives "Bone". */
static void object_name(const property *pr, char out[FBX_NAME_BYTES])
{
	const uint8_t *sep;

	string_of(pr, out, FBX_NAME_BYTES);
	if (!pr || (pr->type != 's' && pr->type != 'S'))
		return;
	if (pr->type == 'S' && pr->len >= 2 && (sep = memchr(pr->at, 0, pr->len)) && sep + 1 < pr->at + pr->len &&
	    sep[1] == 1) {
		size_t n = (size_t)(sep - pr->at);

		n = n < FBX_NAME_BYTES - 1 ? n : FBX_NAME_BYTES - 1;
		memcpy(out, pr->at, n);
		out[n] = '\0';
	} else if ((sep = (const uint8_t *)strstr(out, "::"))) {
		memmove(out, sep + 2, strlen((const char *)sep + 2) + 1);
	}
}

/* Values one binary array may declare: each costs 8 bytes of memory, its
 * compressed bytes far fewer (128 MiB at most). */
#define ARRAY_MAX_VALUES ((uint64_t)1 << 24)
/* The most bytes deflate makes of one: an array that declares more than
 * its compressed bytes can hold lies about its count. */
#define DEFLATE_MAX_RATIO 1032

typedef enum inflated { INFLATED, INFLATED_SHORT, INFLATED_LONG, INFLATED_BROKEN } inflated;

/* Inflate the zlib stream `in` into exactly `out_bytes` bytes at `out`:
 * never more, whatever the stream holds. */
static inflated inflate_exact(const uint8_t *in, size_t in_bytes, uint8_t *out, size_t out_bytes)
{
	z_stream z = { .next_in = in, .avail_in = (uInt)in_bytes, .next_out = out, .avail_out = (uInt)out_bytes };
	uint8_t beyond;
	inflated result;
	int ret;

	if (inflateInit(&z) != Z_OK)
		return INFLATED_BROKEN;
	ret = out_bytes ? inflate(&z, Z_FINISH) : Z_BUF_ERROR;
	if (ret == Z_STREAM_END) {
		result = z.avail_out ? INFLATED_SHORT : INFLATED;
	} else if (z.avail_out == 0 && ret != Z_DATA_ERROR && ret != Z_MEM_ERROR && ret != Z_NEED_DICT) {
		/* Full: one byte more tells whether the stream ends here. */
		z.next_out = &beyond;
		z.avail_out = 1;
		ret = inflate(&z, Z_FINISH);
		result = z.avail_out == 0 ? INFLATED_LONG : ret == Z_STREAM_END ? INFLATED : INFLATED_BROKEN;
	} else {
		result = INFLATED_BROKEN;
	}
	inflateEnd(&z);
	return result;
}

/* The raw values of binary array `pr` (`n` of `size` bytes, which a plain
 * one holds) into `out`; else false, `damage` saying why (after "its NAME
 * array (at byte N) "). */
static bool array_bytes(const property *pr, uint64_t n, uint64_t size, uint8_t *out, char *damage, size_t bytes)
{
	uint64_t encoding = le(pr->at + 4, 4), stored = le(pr->at + 8, 4);
	static const char *const why[] = { "", "holds fewer", "inflates to more", "does not inflate (it is not zlib "
					   "data, or it is cut short)" };
	inflated r;

	if (encoding == 0) {
		memcpy(out, pr->at + 12, (size_t)stored);   /* n * size bytes: checked */
		return true;
	}
	if ((r = inflate_exact(pr->at + 12, (size_t)stored, out, (size_t)(n * size))) != INFLATED)
		snprintf(damage, bytes, "declares %llu values, but its compressed data %s", (unsigned long long)n, why[r]);
	return r == INFLATED;
}

/* The numbers of binary array `pr`, plain or compressed with zlib, into a
 * new array; NULL when it is no number array, or is damaged: then
 * `damage` says how. */
static double *binary_numbers(const parse *ps, uint32_t el, const property *pr, uint32_t *count, char *damage,
			      size_t bytes)
{
	uint64_t n = le(pr->at, 4), encoding = le(pr->at + 4, 4), stored = le(pr->at + 8, 4);
	uint64_t size = pr->type == 'd' || pr->type == 'l' ? 8 : 4;
	int head = snprintf(damage, bytes, "its %.*s array (at byte %llu) ", (int)(ps->e[el].name_len < 64 ?
			    ps->e[el].name_len : 64), (const char *)ps->e[el].name,
			    (unsigned long long)(pr->at - 1 - ps->data));
	char *why = damage + head;
	double *out = NULL;

	if (encoding > 1)
		snprintf(why, bytes - (size_t)head, "has encoding %llu, neither 0 (plain) nor 1 (zlib)",
			 (unsigned long long)encoding);
	else if (n > ARRAY_MAX_VALUES)
		snprintf(why, bytes - (size_t)head, "declares %llu values, more than the %llu one array may hold",
			 (unsigned long long)n, (unsigned long long)ARRAY_MAX_VALUES);
	else if (encoding == 0 && n * size != stored)
		snprintf(why, bytes - (size_t)head, "declares %llu values (%llu bytes), but holds %llu bytes",
			 (unsigned long long)n, (unsigned long long)(n * size), (unsigned long long)stored);
	else if (encoding == 1 && n * size > stored * DEFLATE_MAX_RATIO)
		snprintf(why, bytes - (size_t)head, "declares %llu values, more than its %llu compressed bytes can "
			 "hold", (unsigned long long)n, (unsigned long long)stored);
	else if ((out = malloc(((size_t)n + 1) * sizeof *out)) &&
		 array_bytes(pr, n, size, (uint8_t *)out, why, bytes - (size_t)head)) {
		/* In place, from the last: value i is read before out[i]
		 * covers it, and out[i] only bytes of values after it. */
		for (uint64_t i = n; i-- > 0;) {
			uint8_t raw[8];
			const property item = { pr->type == 'f' ? 'F' : pr->type == 'd' ? 'D' : pr->type == 'l' ? 'L' : 'I',
						raw, (size_t)size };

			memcpy(raw, (uint8_t *)out + i * size, (size_t)size);
			out[i] = number_of(&item);
		}
		*count = (uint32_t)n;
		damage[0] = '\0';
		return out;
	}
	if (!out && why[0] == '\0')
		damage[0] = '\0';   /* out of memory: no damage */
	free(out);
	return NULL;
}

/* The numbers of an array element (`KeyTime: *3 { a: 1,2,3 }`, or a
 * binary `KeyTime`, plain or compressed) into a new array; NULL when there
 * is none readable, `damage` (FBX_DAMAGE_BYTES) saying how a binary one is
 * damaged. */
static double *numbers_of(const parse *ps, uint32_t el, uint32_t *count, char *damage)
{
	const property *pr = prop_at(ps, el, 0);
	uint32_t a = el != FBX_NONE ? child(ps, el, "a") : FBX_NONE;
	double *out;

	*count = 0;
	damage[0] = '\0';
	if (a != FBX_NONE) {
		*count = ps->e[a].prop_count;
		out = malloc(((size_t)*count + 1) * sizeof *out);
		for (uint32_t i = 0; out && i < *count; i++)
			out[i] = number_of(prop_at(ps, a, i));
		return out;
	}
	return pr && strchr("fdli", pr->type) ? binary_numbers(ps, el, pr, count, damage, FBX_DAMAGE_BYTES) : NULL;
}

/* ------------------------------------------------------------- objects */

/* The id property `pr` holds into `id`; false when it holds no number an
 * int64_t holds (text, NaN, 1e300). */
static bool id_of(const property *pr, int64_t *id)
{
	double v = number_of(pr);

	if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
		return false;
	*id = (int64_t)v;
	return true;
}

static void model_defaults(fbx_model *m)
{
	for (int i = 0; i < 3; i++)
		m->scaling[i] = 1;
	m->parent = FBX_NONE;
	m->is_rotation_active = true;
}

/* An object and the PropertyTemplate of its type (Definitions: {
 * ObjectType: "Model" { PropertyTemplate: "FbxNode" { Properties70 ... }
 * } }), or FBX_NONE: its properties, each the object's own, else the
 * template's, else FBX's default. */
typedef struct props_of {
	uint32_t object, template_;
} props_of;

/* The first `P` named `name` in the Properties70 of `el`, or FBX_NONE (the
 * first of a name, as Assimp reads them). */
static uint32_t p_in(const parse *ps, uint32_t el, const char *name)
{
	uint32_t props = el != FBX_NONE ? child(ps, el, "Properties70") : FBX_NONE;
	char got[64];

	for (uint32_t p = props == FBX_NONE ? FBX_NONE : props + 1; props != FBX_NONE && p < ps->e[props].end;
	     p = ps->e[p].end) {
		if (!element_is(ps, p, "P"))
			continue;
		string_of(prop_at(ps, p, 0), got, sizeof got);
		if (strcmp(got, name) == 0)
			return p;
	}
	return FBX_NONE;
}

static uint32_t find_p(const parse *ps, props_of of, const char *name)
{
	uint32_t p = p_in(ps, of.object, name);

	return p != FBX_NONE ? p : p_in(ps, of.template_, name);
}

/* The first `count` values of property `name` into `out`; false (`out`
 * unchanged) when neither the object nor its template gives it. */
static bool values_of(const parse *ps, props_of of, const char *name, double *out, uint32_t count)
{
	uint32_t p = find_p(ps, of, name);

	for (uint32_t k = 0; p != FBX_NONE && k < count; k++)
		out[k] = number_of(prop_at(ps, p, 4 + k));
	return p != FBX_NONE;
}

/* An enum property's value; -1 (none of its values) when it is no number
 * an int holds. */
static int enum_of(double v)
{
	return v >= -2147483648.0 && v <= 2147483647.0 ? (int)v : -1;
}

/* The properties of a model the importer uses. */
static void read_model_props(const parse *ps, props_of of, fbx_model *m)
{
	static const struct { const char *name; size_t at; } vec[] = {
		{ "Lcl Translation", offsetof(fbx_model, translation) },
		{ "Lcl Rotation", offsetof(fbx_model, rotation) },
		{ "Lcl Scaling", offsetof(fbx_model, scaling) },
		{ "PreRotation", offsetof(fbx_model, pre_rotation) },
		{ "PostRotation", offsetof(fbx_model, post_rotation) },
	};
	static const char *const pivots[] = { "RotationOffset", "RotationPivot", "ScalingOffset", "ScalingPivot",
					      "GeometricTranslation", "GeometricRotation", "GeometricScaling" };
	double v[3];

	for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
		values_of(ps, of, vec[i].name, (double *)(void *)((char *)m + vec[i].at), 3);
	if (values_of(ps, of, "RotationOrder", v, 1))
		m->rotation_order = enum_of(v[0]);
	if (values_of(ps, of, "InheritType", v, 1))
		m->inherit_type = enum_of(v[0]);
	if (values_of(ps, of, "RotationActive", v, 1))
		m->is_rotation_active = v[0] != 0;
	for (size_t i = 0; i < sizeof pivots / sizeof pivots[0] && !m->pivot[0]; i++) {
		double one = i == 6 ? 1 : 0;

		if (!values_of(ps, of, pivots[i], v, 3))
			continue;
		for (int k = 0; k < 3; k++)
			v[k] -= one;
		if (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 1e-6)
			snprintf(m->pivot, sizeof m->pivot, "%s", pivots[i]);
	}
}

static void read_stack_props(const parse *ps, props_of of, fbx_stack *s)
{
	values_of(ps, of, "LocalStart", &s->local_start, 1);
	values_of(ps, of, "LocalStop", &s->local_stop, 1);
}

/* The PropertyTemplate `name` of object type `type` in the Definitions
 * element `defs`, or FBX_NONE (the last of them, as Assimp keeps them). */
static uint32_t property_template(const parse *ps, uint32_t defs, const char *type, const char *name)
{
	uint32_t found = FBX_NONE;
	char got[64];

	for (uint32_t t = defs == FBX_NONE ? FBX_NONE : defs + 1; defs != FBX_NONE && t < ps->e[defs].end;
	     t = ps->e[t].end) {
		string_of(prop_at(ps, t, 0), got, sizeof got);
		if (!element_is(ps, t, "ObjectType") || strcmp(got, type) != 0)
			continue;
		for (uint32_t p = t + 1; p < ps->e[t].end; p = ps->e[p].end) {
			string_of(prop_at(ps, p, 0), got, sizeof got);
			if (element_is(ps, p, "PropertyTemplate") && strcmp(got, name) == 0)
				found = p;
		}
	}
	return found;
}

/* FBX SDK key attribute flags: the interpolation bits, constant among
 * them, and a constant key's mode (eConstantNext). */
#define KEY_INTERPOLATION 0xEu
#define KEY_CONSTANT 0x2u
#define KEY_CONSTANT_NEXT 0x100u

/* A key's interpolation (FBX_LINEAR ...) of its KeyAttrFlags value. */
static uint8_t step_of(double flags)
{
	uint32_t f = isfinite(flags) && fabs(flags) < 4294967296.0 ? (uint32_t)(int64_t)flags : 0;

	if ((f & KEY_INTERPOLATION) != KEY_CONSTANT)
		return FBX_LINEAR;
	return f & KEY_CONSTANT_NEXT ? FBX_CONSTANT_NEXT : FBX_CONSTANT;
}

/* Each key's interpolation: KeyAttrFlags[i] holds for the run of keys
 * KeyAttrRefCount[i] gives, the runs in key order (KeyAttrDataFloat, four
 * numbers a run, holds tangents, of no use to a constant key).  `steps`
 * is left NULL when no key is constant or the runs do not cover the keys
 * one for one. */
static void read_steps(const parse *ps, uint32_t obj, fbx_curve *c)
{
	uint32_t nf, nr, el = child(ps, obj, "KeyAttrFlags"), k = 0;
	char damage[FBX_DAMAGE_BYTES];   /* damaged flags are flags not read: the keys are said linear */
	double *flags = numbers_of(ps, el, &nf, damage);
	double *runs = numbers_of(ps, child(ps, obj, "KeyAttrRefCount"), &nr, damage);
	bool ok = flags && runs && nf == nr && c->is_sorted;

	c->flags_line = el != FBX_NONE ? ps->e[el].line : 0;
	for (uint32_t i = 0; flags && i < nf; i++)
		c->has_constant |= step_of(flags[i]) != FBX_LINEAR;
	if (c->has_constant && ok)
		c->steps = calloc((size_t)c->key_count + 1, 1);
	for (uint32_t i = 0; c->steps && ok && i < nf; i++) {
		ok = runs[i] >= 0 && runs[i] <= c->key_count - k && runs[i] == floor(runs[i]);
		for (uint32_t end = ok ? k + (uint32_t)runs[i] : k; k < end; k++)
			c->steps[k] = step_of(flags[i]);
	}
	if (c->steps && (!ok || k != c->key_count)) {
		free(c->steps);
		c->steps = NULL;
	}
	free(flags);
	free(runs);
}

static bool read_curve(const parse *ps, uint32_t obj, fbx_curve *c)
{
	uint32_t nt, nv;

	c->node = FBX_NONE;
	c->axis = -1;
	c->line = ps->e[obj].line;
	char damage[FBX_DAMAGE_BYTES];

	c->times = numbers_of(ps, child(ps, obj, "KeyTime"), &nt, c->damage);
	uint32_t values = child(ps, obj, "KeyValueFloat"), a = values != FBX_NONE ? child(ps, values, "a") : FBX_NONE;
	c->values = numbers_of(ps, values, &nv, damage);
	if (!c->damage[0])
		memcpy(c->damage, damage, sizeof damage);
	c->values_line = a != FBX_NONE ? ps->e[a].line : values != FBX_NONE ? ps->e[values].line : 0;
	c->is_read = c->times && c->values;
	c->key_count = nt < nv ? nt : nv;
	c->is_sorted = c->is_read;
	for (uint32_t i = 1; c->is_read && i < c->key_count; i++)
		c->is_sorted &= c->times[i] >= c->times[i - 1];
	read_steps(ps, obj, c);
	return true;
}

#define PUSH(arr, count, cap) grow((void **)&(arr), &(cap), (count), sizeof *(arr))

/* The objects of the Objects element `objects` into `doc`, with the
 * property templates of Definitions element `defs` (or FBX_NONE). */
static bool read_objects(const parse *ps, uint32_t objects, uint32_t defs, fbx_doc *doc)
{
	uint32_t caps[5] = { 0 };
	uint32_t model_template = property_template(ps, defs, "Model", "FbxNode");
	uint32_t stack_template = property_template(ps, defs, "AnimationStack", "FbxAnimStack");

	for (uint32_t o = objects + 1; o < ps->e[objects].end; o = ps->e[o].end) {
		int64_t id;

		if (!id_of(prop_at(ps, o, 0), &id))
			continue;   /* Assimp refuses the file */

		if (element_is(ps, o, "Model")) {
			if (!PUSH(doc->models, doc->model_count, caps[0]))
				return false;
			fbx_model *m = memset(&doc->models[doc->model_count++], 0, sizeof *doc->models);
			model_defaults(m);
			m->id = id;
			object_name(prop_at(ps, o, 1), m->name);
			read_model_props(ps, (props_of){ o, model_template }, m);
		} else if (element_is(ps, o, "AnimationStack")) {
			if (!PUSH(doc->stacks, doc->stack_count, caps[1]))
				return false;
			fbx_stack *s = memset(&doc->stacks[doc->stack_count++], 0, sizeof *doc->stacks);
			s->id = id;
			object_name(prop_at(ps, o, 1), s->name);
			read_stack_props(ps, (props_of){ o, stack_template }, s);
		} else if (element_is(ps, o, "AnimationLayer")) {
			if (!PUSH(doc->layers, doc->layer_count, caps[2]))
				return false;
			fbx_layer *l = &doc->layers[doc->layer_count++];
			*l = (fbx_layer){ .id = id, .stack = FBX_NONE };
			object_name(prop_at(ps, o, 1), l->name);
		} else if (element_is(ps, o, "AnimationCurveNode")) {
			if (!PUSH(doc->nodes, doc->node_count, caps[3]))
				return false;
			doc->nodes[doc->node_count++] = (fbx_curve_node){ .id = id, .layer = FBX_NONE, .model = FBX_NONE };
		} else if (element_is(ps, o, "AnimationCurve")) {
			if (!PUSH(doc->curves, doc->curve_count, caps[4]))
				return false;
			fbx_curve *c = memset(&doc->curves[doc->curve_count++], 0, sizeof *doc->curves);
			c->id = id;
			if (!read_curve(ps, o, c))
				return false;
		}
	}
	return true;
}

/* ---------------------------------------------------------- connections */

typedef struct id_ref {
	int64_t id;
	char kind;   /* 'm' model, 's' stack, 'l' layer, 'n' curve node, 'c' curve */
	uint32_t index;
} id_ref;

static int compare_ids(const void *pa, const void *pb)
{
	const id_ref *a = pa, *b = pb;

	return (a->id > b->id) - (a->id < b->id);
}

static id_ref *id_index(const fbx_doc *doc, size_t *count)
{
	size_t n = (size_t)doc->model_count + doc->stack_count + doc->layer_count + doc->node_count + doc->curve_count;
	id_ref *ids = malloc((n + 1) * sizeof *ids);
	size_t k = 0;

	if (!ids)
		return NULL;
	for (uint32_t i = 0; i < doc->model_count; i++)
		ids[k++] = (id_ref){ doc->models[i].id, 'm', i };
	for (uint32_t i = 0; i < doc->stack_count; i++)
		ids[k++] = (id_ref){ doc->stacks[i].id, 's', i };
	for (uint32_t i = 0; i < doc->layer_count; i++)
		ids[k++] = (id_ref){ doc->layers[i].id, 'l', i };
	for (uint32_t i = 0; i < doc->node_count; i++)
		ids[k++] = (id_ref){ doc->nodes[i].id, 'n', i };
	for (uint32_t i = 0; i < doc->curve_count; i++)
		ids[k++] = (id_ref){ doc->curves[i].id, 'c', i };
	qsort(ids, k, sizeof *ids, compare_ids);
	*count = k;
	return ids;
}

static const id_ref *find_id(const id_ref *ids, size_t count, const property *pr)
{
	id_ref key = { 0, 0, 0 };

	return id_of(pr, &key.id) ? bsearch(&key, ids, count, sizeof *ids, compare_ids) : NULL;
}

/* One `C: "OO"|"OP", child, parent[, "property"]`. */
static void connect(const parse *ps, uint32_t c, fbx_doc *doc, const id_ref *ids, size_t count)
{
	const id_ref *from = find_id(ids, count, prop_at(ps, c, 1));
	const id_ref *to = find_id(ids, count, prop_at(ps, c, 2));
	char prop[32];

	if (!from || !to)
		return;
	string_of(prop_at(ps, c, 3), prop, sizeof prop);
	if (from->kind == 'l' && to->kind == 's')
		doc->layers[from->index].stack = to->index;
	else if (from->kind == 'n' && to->kind == 'l')
		doc->nodes[from->index].layer = to->index;
	else if (from->kind == 'n' && to->kind == 'm') {
		doc->nodes[from->index].model = to->index;
		memcpy(doc->nodes[from->index].property, prop, sizeof prop);
	} else if (from->kind == 'c' && to->kind == 'n') {
		doc->curves[from->index].node = to->index;
		doc->curves[from->index].axis = strcmp(prop, "d|X") == 0 ? 0 : strcmp(prop, "d|Y") == 0 ? 1 :
						strcmp(prop, "d|Z") == 0 ? 2 : -1;
	} else if (from->kind == 'm' && to->kind == 'm')
		doc->models[from->index].parent = to->index;
}

static bool read_connections(const parse *ps, uint32_t conns, fbx_doc *doc)
{
	size_t count;
	id_ref *ids = id_index(doc, &count);

	if (!ids)
		return false;
	for (uint32_t c = conns + 1; c < ps->e[conns].end; c = ps->e[c].end)
		if (element_is(ps, c, "C"))
			connect(ps, c, doc, ids, count);
	free(ids);
	return true;
}

/* ----------------------------------------------------------------- API */

static bool read_elements(parse *ps)
{
	static const char magic[] = "Kaydara FBX Binary  ";
	size_t pos = 0;
	uint32_t line = 1;

	if (ps->size >= 27 && memcmp(ps->data, magic, sizeof magic - 1) == 0)
		return binary_records(ps, 27, ps->size, le(ps->data + 23, 4) >= 7500, FBX_NONE, 0);
	return ascii_scope(ps, &pos, &line, FBX_NONE, 0);
}

bool animc_fbx_doc_read(const uint8_t *data, size_t size, fbx_doc *doc)
{
	parse ps = { .data = data, .size = size };
	uint32_t objects = FBX_NONE, conns = FBX_NONE, defs = FBX_NONE;
	bool ok;

	memset(doc, 0, sizeof *doc);
	ok = data && read_elements(&ps);
	for (uint32_t e = 0; ok && e < ps.e_count; e = ps.e[e].end) {
		if (element_is(&ps, e, "Objects"))
			objects = e;
		else if (element_is(&ps, e, "Connections"))
			conns = e;
		else if (element_is(&ps, e, "Definitions"))
			defs = e;
	}
	ok = ok && (objects == FBX_NONE || read_objects(&ps, objects, defs, doc));
	ok = ok && (conns == FBX_NONE || read_connections(&ps, conns, doc));
	free(ps.e);
	free(ps.p);
	if (!ok)
		animc_fbx_doc_release(doc);
	return ok;
}

void animc_fbx_doc_release(fbx_doc *doc)
{
	if (!doc)
		return;
	for (uint32_t i = 0; doc->curves && i < doc->curve_count; i++) {
		free(doc->curves[i].times);
		free(doc->curves[i].values);
		free(doc->curves[i].steps);
	}
	free(doc->models);
	free(doc->stacks);
	free(doc->layers);
	free(doc->nodes);
	free(doc->curves);
	memset(doc, 0, sizeof *doc);
}

const fbx_model *animc_fbx_doc_model(const fbx_doc *doc, const char *name)
{
	for (uint32_t i = 0; i < doc->model_count; i++)
		if (strcmp(doc->models[i].name, name) == 0)
			return &doc->models[i];
	return NULL;
}

const fbx_stack *animc_fbx_doc_stack(const fbx_doc *doc, const char *name)
{
	for (uint32_t i = 0; i < doc->stack_count; i++)
		if (strcmp(doc->stacks[i].name, name) == 0)
			return &doc->stacks[i];
	return NULL;
}

/* How many of the n sorted `times` are below `t` (or, `or_equal`, at or
 * below it). */
static uint32_t count_below(const double *times, uint32_t n, double t, bool or_equal)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (times[mid] < t || (or_equal && times[mid] == t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* animc_fbx_curve_value of keys in time order, by bisection: the key before `t`
 * is the last at or before it that is kept, the key after the first at or
 * after it. */
static bool sorted_value(const fbx_curve *c, double t, double from, double to, bool keeps_first, double *value)
{
	const double *times = c->times;
	uint32_t n = c->key_count, lo = count_below(times, n, from, false), hi = count_below(times, n, to, true);
	uint32_t upto = count_below(times, n, t, true), at = count_below(times, n, t, false);
	int64_t before = -1, after = -1;

	if (upto > lo && lo < hi && (upto < hi ? upto : hi) - 1 >= lo)
		before = (upto < hi ? upto : hi) - 1;
	else if (keeps_first && upto > 0)
		before = 0;
	if (keeps_first && at == 0)
		after = 0;
	else if (at < hi && (at > lo ? at : lo) < hi)
		after = at > lo ? at : lo;
	if (before < 0 && after < 0)
		return false;
	if (before < 0 || after < 0 || times[after] == times[before])
		*value = c->values[before >= 0 ? before : after];
	else
		*value = c->values[before] + (c->values[after] - c->values[before]) * (t - times[before]) /
						    (times[after] - times[before]);
	return true;
}

bool animc_fbx_curve_value(const fbx_curve *c, double t, double from, double to, bool keeps_first, double *value)
{
	bool has_before = false, has_after = false;
	double t0 = 0, v0 = 0, t1 = 0, v1 = 0;

	if (c->is_read && c->is_sorted)
		return sorted_value(c, t, from, to, keeps_first, value);
	for (uint32_t i = 0; c->is_read && i < c->key_count; i++) {
		double kt = c->times[i];

		if (!(i == 0 && keeps_first) && (kt < from || kt > to))
			continue;
		if (kt <= t && (!has_before || kt >= t0))
			t0 = kt, v0 = c->values[i], has_before = true;
		if (kt >= t && (!has_after || kt < t1))
			t1 = kt, v1 = c->values[i], has_after = true;
	}
	if (!has_before && !has_after)
		return false;
	if (!has_before || !has_after || t1 == t0)
		*value = has_before ? v0 : v1;
	else
		*value = v0 + (v1 - v0) * (t - t0) / (t1 - t0);
	return true;
}

bool animc_fbx_curve_exact(const fbx_curve *c, double t, int side, double *value)
{
	uint32_t n = c->key_count, k;

	if (!c->steps)
		return animc_fbx_curve_value(c, t, -INFINITY, INFINITY, false, value);
	if (!c->is_read || n == 0)
		return false;
	k = count_below(c->times, n, t, side >= 0);   /* keys at or before t (before it, side < 0) */
	if (k == 0 || k == n || (side == 0 && c->times[k - 1] == t)) {
		*value = c->values[k ? k - 1 : 0];
		return true;
	}
	/* Keys k - 1 and k around t, at different times. */
	if (c->steps[k - 1] == FBX_CONSTANT)
		*value = c->values[k - 1];
	else if (c->steps[k - 1] == FBX_CONSTANT_NEXT)
		*value = c->values[k];
	else
		*value = c->values[k - 1] + (c->values[k] - c->values[k - 1]) * (t - c->times[k - 1]) /
						    (c->times[k] - c->times[k - 1]);
	return true;
}

void animc_fbx_quat_mul(const double a[4], const double b[4], double out[4])
{
	double r[4] = { a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
			a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
			a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
			a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0] };

	memcpy(out, r, sizeof r);
}

void animc_fbx_euler_quat(const double deg[3], int order, double q[4])
{
	/* The axis turned first, second, third, by order (XYZ turns X
	 * first: Rz * Ry * Rx). */
	static const int axes[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 2, 0 }, { 1, 0, 2 }, { 2, 0, 1 }, { 2, 1, 0 } };
	const int *ax = axes[order >= 0 && order < 6 ? order : 0];

	q[0] = 1, q[1] = q[2] = q[3] = 0;
	for (int i = 0; i < 3; i++) {
		double h = deg[ax[i]] * (PI / 360.0), r[4] = { cos(h), 0, 0, 0 };

		r[1 + ax[i]] = sin(h);
		animc_fbx_quat_mul(r, q, q);
	}
}
