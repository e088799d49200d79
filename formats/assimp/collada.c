/*
 * collada.c - what Assimp 5.2.5's COLLADA reader loses or changes of a
 * file's animations, read from the file itself with libxml2 (see
 * NOTES.md): key times that go backwards and values that are not numbers
 * (said at their lines), the clip names, STEP keys, which Assimp reads
 * as linear (the bone made again from the file), and <rotate>s keyed
 * together, which Assimp keeps one quaternion a key (keys added from the
 * file).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <animc/animc_xform.h>

#include "collada.h"

#define PI_ 3.14159265358979323846

/* ------------------------------------------------------------- reading */

/* A source's numbers, as its <float_array> gives them. */
typedef struct dae_array {
	double *values;
	size_t count;
	uint32_t stride;         /* its accessor's */
	uint32_t size;           /* the values a key gives, as Assimp counts its accessor's <param>s */
	size_t keys, offset;     /* its accessor's count (0: none given) and offset */
	const xmlNode *accessor; /* its <accessor>, for lines; NULL for none */
	const xmlNode *array;    /* its <float_array>, for lines; NULL for none */
} dae_array;

/* One <channel>, and its sampler's sources. */
typedef struct dae_channel {
	const char *target;          /* "Root/rotationZ.ANGLE" */
	const xmlNode *animation;    /* the <animation> that holds it */
	const xmlNode *sampler;      /* its <sampler>, for lines; NULL for none */
	dae_array times, values;
	bool is_linear;              /* no INTERPOLATION, or LINEAR at every key */
	uint8_t *steps;              /* per key, 1 where it is STEP; NULL: none is */
	size_t step_count;
} dae_channel;

/* An element id of the file, by value and then document order. */
typedef struct dae_id {
	const char *id;
	const xmlNode *node;
	size_t order;
} dae_id;

struct animc_collada {
	xmlDoc *doc;
	dae_id *ids;
	size_t id_count, id_capacity;
	dae_channel *channels;
	size_t channel_count, channel_capacity;
	const char *first_name;   /* the file's first <animation>'s name; NULL for none */
};

static bool is_element(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The value of attribute `name` of `n`, or NULL. */
static const char *attribute(const xmlNode *n, const char *name)
{
	for (const xmlAttr *a = n ? n->properties : NULL; a; a = a->next)
		if (strcmp((const char *)a->name, name) == 0)
			return a->children && a->children->content ? (const char *)a->children->content : "";
	return NULL;
}

static int compare_ids(const void *pa, const void *pb)
{
	const dae_id *a = pa, *b = pb;
	int c = strcmp(a->id, b->id);

	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static bool index_ids(animc_collada *dae, const xmlNode *n, unsigned depth)
{
	for (; n && depth < 256; n = n->next) {
		const char *id = n->type == XML_ELEMENT_NODE ? attribute(n, "id") : NULL;

		if (id && dae->id_count == dae->id_capacity) {
			size_t cap = dae->id_capacity ? 2 * dae->id_capacity : 256;
			dae_id *more = realloc(dae->ids, cap * sizeof *more);

			if (!more)
				return false;
			dae->ids = more, dae->id_capacity = cap;
		}
		if (id)
			dae->ids[dae->id_count] = (dae_id){ id, n, dae->id_count }, dae->id_count++;
		if (n->type == XML_ELEMENT_NODE && !index_ids(dae, n->children, depth + 1))
			return false;
	}
	return true;
}

/* The element of id `ref` ("#id"): a child of `near` (the channel's
 * <animation>, where its sampler and sources usually are), else the
 * file's first; NULL for none. */
static const xmlNode *find_id(const animc_collada *dae, const xmlNode *near, const char *ref)
{
	dae_id key = { ref ? ref + 1 : "", NULL, 0 };
	size_t lo = 0, hi = dae->id_count;

	if (!ref || *ref != '#')
		return NULL;
	for (const xmlNode *c = near ? near->children : NULL; c; c = c->next) {
		const char *id = c->type == XML_ELEMENT_NODE ? attribute(c, "id") : NULL;

		if (id && strcmp(id, key.id) == 0)
			return c;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(dae->ids[mid].id, key.id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < dae->id_count && strcmp(dae->ids[lo].id, key.id) == 0 ? dae->ids[lo].node : NULL;
}

static const xmlNode *child(const xmlNode *n, const char *name)
{
	for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (is_element(c, name))
			return c;
	return NULL;
}

/* The numbers of the text of `n`, into a->values (a new array). */
static bool read_numbers(const xmlNode *n, dae_array *a)
{
	char *text = (char *)xmlNodeGetContent(n), *p = text, *end;
	size_t cap = 0;

	if (!text)
		return false;
	for (;;) {
		double v = strtod(p, &end);

		if (end == p)
			break;
		if (a->count == cap) {
			double *more = realloc(a->values, (cap = cap ? 2 * cap : 16) * sizeof *more);

			if (!more) {
				xmlFree(text);
				return false;
			}
			a->values = more;
		}
		a->values[a->count++] = v;
		p = end;
	}
	xmlFree(text);
	return true;
}

/* The <float_array> and accessor stride of <source> `src`. */
static bool read_source(const xmlNode *src, dae_array *a)
{
	const xmlNode *accessor = child(child(src, "technique_common"), "accessor");
	const char *stride = attribute(accessor, "stride"), *count = attribute(accessor, "count");
	const char *offset = attribute(accessor, "offset");

	*a = (dae_array){ .stride = 1, .accessor = accessor, .array = child(src, "float_array") };
	if (stride && atoi(stride) > 0)
		a->stride = (uint32_t)atoi(stride);
	if (count && atol(count) > 0)
		a->keys = (size_t)atol(count);
	if (offset && atol(offset) > 0)
		a->offset = (size_t)atol(offset);
	/* Assimp writes a key's first `size` values into the transform: 16
	 * for a float4x4 <param>, 1 for another of a type, 0 for none. */
	for (const xmlNode *p = accessor ? accessor->children : NULL; p; p = p->next) {
		const char *type = is_element(p, "param") ? attribute(p, "type") : NULL;

		a->size += !type ? 0 : strcmp(type, "float4x4") == 0 ? 16 : 1;
	}
	return !a->array || read_numbers(a->array, a);
}

/* The <Name_array> of <source> `src`: whether it says LINEAR at every
 * key, and which keys it says STEP (ch->steps, NULL when none).  False on
 * no memory. */
static bool read_interpolation(const xmlNode *src, dae_channel *ch)
{
	char *text = (char *)xmlNodeGetContent(child(src, "Name_array")), *word, *save = NULL;
	size_t cap = 0;
	bool is_read = true;

	ch->is_linear = true;
	for (word = text ? strtok_r(text, " \t\r\n", &save) : NULL; word; word = strtok_r(NULL, " \t\r\n", &save)) {
		ch->is_linear &= strcmp(word, "LINEAR") == 0;
		if (ch->step_count == cap) {
			uint8_t *more = realloc(ch->steps, cap = cap ? 2 * cap : 16);

			if (!more) {
				is_read = false;
				break;
			}
			ch->steps = more;
		}
		ch->steps[ch->step_count++] = strcmp(word, "STEP") == 0;
	}
	xmlFree(text);
	if (ch->steps && !memchr(ch->steps, 1, ch->step_count))
		free(ch->steps), ch->steps = NULL, ch->step_count = 0;
	return is_read;
}

/* Channel `ch` (its <channel> at `n`, in <animation> `anim`): its
 * sampler's INPUT, OUTPUT and INTERPOLATION sources.  False on no memory;
 * a channel that names no sampler or sources keeps none. */
static bool read_channel(const animc_collada *dae, const xmlNode *anim, const xmlNode *n, dae_channel *ch)
{
	const xmlNode *sampler = find_id(dae, anim, attribute(n, "source"));

	*ch = (dae_channel){ .target = attribute(n, "target"), .animation = anim, .sampler = sampler, .is_linear = true };
	for (const xmlNode *in = sampler ? sampler->children : NULL; in; in = in->next) {
		const char *semantic = is_element(in, "input") ? attribute(in, "semantic") : NULL;
		const xmlNode *src = semantic ? find_id(dae, anim, attribute(in, "source")) : NULL;

		if (!src)
			continue;
		if (strcmp(semantic, "INPUT") == 0 && !ch->times.array && !read_source(src, &ch->times))
			return false;
		if (strcmp(semantic, "OUTPUT") == 0 && !ch->values.array && !read_source(src, &ch->values))
			return false;
		if (strcmp(semantic, "INTERPOLATION") == 0 && !ch->steps && !read_interpolation(src, ch))
			return false;
	}
	return true;
}

/* The channels of <animation> `anim` and those nested in it. */
static bool read_animation(animc_collada *dae, const xmlNode *anim, unsigned depth)
{
	for (const xmlNode *n = anim->children; n && depth < 64; n = n->next) {
		if (is_element(n, "animation") && !read_animation(dae, n, depth + 1))
			return false;
		if (!is_element(n, "channel") || !attribute(n, "target"))
			continue;
		if (dae->channel_count == dae->channel_capacity) {
			size_t cap = dae->channel_capacity ? 2 * dae->channel_capacity : 64;
			dae_channel *more = realloc(dae->channels, cap * sizeof *more);

			if (!more)
				return false;
			dae->channels = more, dae->channel_capacity = cap;
		}
		if (!read_channel(dae, anim, n, &dae->channels[dae->channel_count++]))
			return false;
	}
	return true;
}

static bool read_libraries(animc_collada *dae, const xmlNode *root)
{
	for (const xmlNode *lib = root->children; lib; lib = lib->next) {
		for (const xmlNode *a = is_element(lib, "library_animations") ? lib->children : NULL; a; a = a->next) {
			if (!is_element(a, "animation"))
				continue;
			if (!dae->first_name)
				dae->first_name = attribute(a, "name") ? attribute(a, "name") : "animation";
			if (!read_animation(dae, a, 0))
				return false;
		}
	}
	return true;
}

animc_collada *animc_collada_open(const uint8_t *data, size_t size)
{
	animc_collada *dae;
	const xmlNode *root;

	if (!data || size > INT32_MAX || !(dae = calloc(1, sizeof *dae)))
		return NULL;
	dae->doc = xmlReadMemory((const char *)data, (int)size, NULL, NULL,
				 XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
	root = dae->doc ? xmlDocGetRootElement(dae->doc) : NULL;
	if (!is_element(root, "COLLADA") || !index_ids(dae, root, 0)) {
		animc_collada_close(dae);
		return NULL;
	}
	if (dae->id_count)
		qsort(dae->ids, dae->id_count, sizeof *dae->ids, compare_ids);
	if (!read_libraries(dae, root)) {
		animc_collada_close(dae);
		return NULL;
	}
	return dae;
}

void animc_collada_close(animc_collada *dae)
{
	if (!dae)
		return;
	for (size_t i = 0; i < dae->channel_count; i++) {
		free(dae->channels[i].times.values);
		free(dae->channels[i].values.values);
		free(dae->channels[i].steps);
	}
	free(dae->channels);
	free(dae->ids);
	if (dae->doc)
		xmlFreeDoc(dae->doc);
	free(dae);
}

/* ------------------------------------------------------------- bad keys */

/* The line of number `index` of the array's text: its element's, and the
 * line ends before it. */
static uint32_t number_line(const dae_array *a, size_t index)
{
	char *text = (char *)xmlNodeGetContent(a->array), *p = text, *end;
	long line = xmlGetLineNo(a->array);
	uint32_t at = line > 0 ? (uint32_t)line : 0;

	for (size_t i = 0; p && at; i++) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			at += *p++ == '\n';
		if (i == index)
			break;
		strtod(p, &end);
		if (end == p)
			break;
		p = end;
	}
	xmlFree(text);
	return at;
}

static bool say_backwards(const dae_channel *ch, animc_diag_sink *sink)
{
	const dae_array *t = &ch->times;

	for (size_t i = 0; i < t->count; i++) {
		bool is_back = i > 0 && t->values[i] < t->values[i - 1];

		if (isfinite(t->values[i]) && !is_back)
			continue;
		if (is_back)
			animc_diag_report(sink, ANIMC_ERROR, number_line(t, i), 0,
					  "channel '%s': its key times go backwards (key %zu at %g s comes after key "
					  "%zu at %g s): Assimp loses such a channel, and the bone would hold still; "
					  "list the keys in time order in the exporter",
					  ch->target, i, t->values[i], i - 1, t->values[i - 1]);
		else
			animc_diag_report(sink, ANIMC_ERROR, number_line(t, i), 0,
					  "channel '%s': the time of key %zu is %s: fix the value in the exporter",
					  ch->target, i, isnan(t->values[i]) ? "NaN" : "infinite");
		return true;
	}
	return false;
}

static bool say_not_finite(const dae_channel *ch, animc_diag_sink *sink)
{
	const dae_array *v = &ch->values;

	for (size_t i = 0; i < v->count; i++) {
		size_t key = i / v->stride;

		if (isfinite(v->values[i]))
			continue;
		char when[48] = "";
		if (key < ch->times.count)
			snprintf(when, sizeof when, " (at %g s)", ch->times.values[key]);
		animc_diag_report(sink, ANIMC_ERROR, number_line(v, i), 0,
				  "channel '%s': key %zu%s is %s%s: Assimp spreads it through the node's "
				  "transform into every track of the bone; fix the value in the exporter",
				  ch->target, key, when, isnan(v->values[i]) ? "NaN" : "infinite",
				  v->stride > 1 ? " in one of its values" : "");
		return true;
	}
	return false;
}

/* ------------------------------------------------------------- no axis */

/* Whether <rotate> values `r` (an axis, then an angle in degrees) turn by
 * an angle about no axis: Assimp's matrix about an axis of no length is the
 * cosine of the angle times the identity, a scale that collapses the bone
 * (to 0 at 90 degrees, mirrored past it), not a turn. */
static bool turns_about_no_axis(const double r[4])
{
	return r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] != 0;
}

/* The first key of channel `ch` that turns about no axis: a channel of a
 * whole <rotate> (four values a key), or of its ANGLE (about `axis`);
 * SIZE_MAX for none. */
static size_t key_about_no_axis(const dae_channel *ch, const double axis[3])
{
	const dae_array *v = &ch->values;

	if (v->stride != 1 && v->stride != 4)
		return SIZE_MAX;
	for (size_t k = 0; (k + 1) * v->stride <= v->count; k++) {
		double r[4] = { axis[0], axis[1], axis[2], v->values[k * v->stride] };

		if (v->stride == 4)
			memcpy(r, &v->values[k * 4], sizeof r);
		if (turns_about_no_axis(r))
			return k;
	}
	return SIZE_MAX;
}

/* The first channel of target `target`, or NULL. */
static const dae_channel *keyed_by(const animc_collada *dae, const char *target)
{
	for (size_t i = 0; i < dae->channel_count; i++)
		if (strcmp(dae->channels[i].target, target) == 0)
			return &dae->channels[i];
	return NULL;
}

/* Whether a channel keys a transform of node `id`. */
static bool is_keyed_node(const animc_collada *dae, const char *id)
{
	size_t n = strlen(id);

	for (size_t i = 0; i < dae->channel_count; i++)
		if (strncmp(dae->channels[i].target, id, n) == 0 && dae->channels[i].target[n] == '/')
			return true;
	return false;
}

static void say_key_about_no_axis(const dae_channel *ch, size_t key, animc_diag_sink *sink)
{
	char when[48] = "";

	if (key < ch->times.count)
		snprintf(when, sizeof when, " (at %g s)", ch->times.values[key]);
	animc_diag_report(sink, ANIMC_ERROR, number_line(&ch->values, key * ch->values.stride), 0,
			  "channel '%s': key %zu%s turns its <rotate> about the axis 0 0 0, which is no axis: "
			  "Assimp makes of it a scale of the bone by the cosine of the angle (0 at 90 degrees); "
			  "give the <rotate> its axis in the exporter", ch->target, key, when);
}

/* Say <rotate> `e` of keyed node `node` when it, or a key of it, turns
 * about no axis; true when said. */
static bool say_no_axis(const animc_collada *dae, const xmlNode *node, const xmlNode *e, animc_diag_sink *sink)
{
	const char *id = attribute(node, "id"), *sid = attribute(e, "sid");
	char *text = (char *)xmlNodeGetContent(e), *p = text, *end, target[512];
	const dae_channel *keyed = NULL;
	double r[4] = { 0, 0, 0, 0 };
	size_t key = SIZE_MAX;

	for (int i = 0; i < 4 && p; i++, p = end)
		r[i] = strtod(p, &end);
	xmlFree(text);
	if (!id || !is_keyed_node(dae, id))
		return false;
	for (int whole = 0; sid && whole < 2 && !keyed; whole++) {
		snprintf(target, sizeof target, whole ? "%s/%s" : "%s/%s.ANGLE", id, sid);
		keyed = keyed_by(dae, target);
	}
	if (keyed && (key = key_about_no_axis(keyed, r)) != SIZE_MAX)
		say_key_about_no_axis(keyed, key, sink);
	else if (!keyed && turns_about_no_axis(r))
		animc_diag_report(sink, ANIMC_ERROR, (uint32_t)xmlGetLineNo(e), 0,
				  "node '%s': its <rotate>%s%s%s turns by %g degrees about the axis 0 0 0, which is no "
				  "axis: Assimp makes of it a scale of the bone by the cosine of the angle (0 at 90 "
				  "degrees); give the <rotate> its axis in the exporter, or remove it",
				  id, sid ? " '" : "", sid ? sid : "", sid ? "'" : "", r[3]);
	else
		return false;
	return true;
}

/* Whether matrix values `m` (COLLADA's, row by row, for column vectors)
 * project: a last row other than 0 0 0 1, which Assimp drops. */
static bool is_projection(const double m[16])
{
	return fabs(m[12]) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE || fabs(m[13]) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE ||
	       fabs(m[14]) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE || fabs(m[15] - 1) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE;
}

/*
 * The index (0 to 11) of the value of matrix `m` (as is_projection takes
 * it) whose axis scales past what a float holds, or -1: Assimp splits a
 * matrix in floats, the length of an axis from the squares of its values,
 * so past 1.8e19 (a square past FLT_MAX) the scale came out infinite and
 * the rotation NaN.  The value is the axis's largest.
 */
static int scale_past_float(const double m[16])
{
	for (int axis = 0; axis < 3; axis++) {
		double squares = 0;
		int largest = axis;

		for (int row = 0; row < 3; row++) {
			squares += m[row * 4 + axis] * m[row * 4 + axis];
			if (fabs(m[row * 4 + axis]) > fabs(m[largest]))
				largest = row * 4 + axis;
		}
		if (!(squares <= FLT_MAX))
			return largest;
	}
	return -1;
}

/* Say the first key of matrix channel `keyed` whose scale is past what a
 * float holds; true when said. */
static bool say_key_scale_past_float(const dae_channel *keyed, animc_diag_sink *sink)
{
	for (size_t k = 0; keyed && keyed->values.stride == 16 && (k + 1) * 16 <= keyed->values.count; k++) {
		int at = scale_past_float(&keyed->values.values[k * 16]);

		if (at < 0)
			continue;
		char when[48] = "";
		if (k < keyed->times.count)
			snprintf(when, sizeof when, " (at %g s)", keyed->times.values[k]);
		animc_diag_report(sink, ANIMC_ERROR, number_line(&keyed->values, k * 16 + (size_t)at), 0,
				  "channel '%s': key %zu%s is a matrix whose %c axis scales by %g, past what a float "
				  "holds: Assimp splits a matrix in floats, squaring its scale (past 1.8e19 the square "
				  "is past 3.4e38, the largest float); check the bone's scale in the exporter",
				  keyed->target, k, when, "XYZ"[at % 4], keyed->values.values[k * 16 + (size_t)at]);
		return true;
	}
	return false;
}

/* Say <matrix> `e` of node `id` (keyed, its values `m`) when its scale is
 * past what a float holds; true when said. */
static bool say_scale_past_float(const char *id, const xmlNode *e, const double m[16], animc_diag_sink *sink)
{
	int at = scale_past_float(m);

	if (at < 0)
		return false;
	animc_diag_report(sink, ANIMC_ERROR, (uint32_t)xmlGetLineNo(e), 0,
			  "node '%s': its <matrix> scales its %c axis by %g, past what a float holds: Assimp splits "
			  "the matrix of a keyed node in floats, squaring its scale (past 1.8e19 the square is past "
			  "3.4e38, the largest float); check the node's scale in the exporter",
			  id, "XYZ"[at % 4], m[at]);
	return true;
}

/* Say the first value of channel `ch` (keying a <scale>, whole or one
 * axis of it) past sqrt(FLT_MAX): Assimp squares it in a float, and the
 * scale came out infinite; true when said. */
static bool say_scale_key_past_float(const dae_channel *ch, animc_diag_sink *sink)
{
	for (size_t i = 0; ch && i < ch->values.count; i++) {
		size_t key = i / (ch->values.stride ? ch->values.stride : 1);

		if (!(fabs(ch->values.values[i]) > sqrt(FLT_MAX)))
			continue;
		char when[48] = "";
		if (key < ch->times.count)
			snprintf(when, sizeof when, " (at %g s)", ch->times.values[key]);
		animc_diag_report(sink, ANIMC_ERROR, number_line(&ch->values, i), 0,
				  "channel '%s': key %zu%s scales by %g, past what a float holds: Assimp squares the "
				  "scale in a float (past 1.8e19 the square is past 3.4e38, the largest float); check "
				  "the bone's scale in the exporter", ch->target, key, when, ch->values.values[i]);
		return true;
	}
	return false;
}

/* Say <scale> `e` of keyed node `node` when it, or a key of it, scales
 * past what a float holds; true when said. */
static bool say_scale_past(const animc_collada *dae, const xmlNode *node, const xmlNode *e, animc_diag_sink *sink)
{
	static const char *const parts[] = { "", ".X", ".Y", ".Z" };
	const char *id = attribute(node, "id"), *sid = attribute(e, "sid");
	char *text = (char *)xmlNodeGetContent(e), *p = text, *end, target[512];
	double v[3] = { 1, 1, 1 };

	for (int i = 0; i < 3 && p; i++, p = end)
		v[i] = strtod(p, &end);
	xmlFree(text);
	if (!id || !is_keyed_node(dae, id))
		return false;
	for (size_t k = 0; sid && k < sizeof parts / sizeof *parts; k++) {
		snprintf(target, sizeof target, "%s/%s%s", id, sid, parts[k]);
		if (say_scale_key_past_float(keyed_by(dae, target), sink))
			return true;
	}
	for (int i = 0; i < 3; i++) {
		if (!(fabs(v[i]) > sqrt(FLT_MAX)))
			continue;
		animc_diag_report(sink, ANIMC_ERROR, (uint32_t)xmlGetLineNo(e), 0,
				  "node '%s': its <scale> scales its %c axis by %g, past what a float holds: Assimp "
				  "squares the scale of a keyed node in a float (past 1.8e19 the square is past 3.4e38, "
				  "the largest float); check the node's scale in the exporter", id, "XYZ"[i], v[i]);
		return true;
	}
	return false;
}

/* Say <matrix> `e` of keyed node `node` when it, or a key of it, is a
 * projection or scales past what a float holds; true when said. */
static bool say_projection(const animc_collada *dae, const xmlNode *node, const xmlNode *e, animc_diag_sink *sink)
{
	const char *id = attribute(node, "id"), *sid = attribute(e, "sid");
	char *text = (char *)xmlNodeGetContent(e), *p = text, *end, target[512];
	const dae_channel *keyed = NULL;
	double m[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

	for (int i = 0; i < 16 && p; i++, p = end)
		m[i] = strtod(p, &end);
	xmlFree(text);
	if (!id || !is_keyed_node(dae, id))
		return false;
	if (sid) {
		snprintf(target, sizeof target, "%s/%s", id, sid);
		keyed = keyed_by(dae, target);
	}
	for (size_t k = 0; keyed && keyed->values.stride == 16 && (k + 1) * 16 <= keyed->values.count; k++) {
		if (!is_projection(&keyed->values.values[k * 16]))
			continue;
		char when[48] = "";
		if (k < keyed->times.count)
			snprintf(when, sizeof when, " (at %g s)", keyed->times.values[k]);
		animc_diag_report(sink, ANIMC_ERROR, number_line(&keyed->values, k * 16 + 12), 0,
				  "channel '%s': key %zu%s is a matrix whose last row is not 0 0 0 1 (a projection), "
				  "which Assimp drops, and a key holds translation, rotation and scale only: export "
				  "the bone's transform without a projection", keyed->target, k, when);
		return true;
	}
	if (say_key_scale_past_float(keyed, sink))
		return true;
	if (keyed)
		return false;
	if (!is_projection(m))
		return say_scale_past_float(id, e, m, sink);
	animc_diag_report(sink, ANIMC_ERROR, (uint32_t)xmlGetLineNo(e), 0,
			  "node '%s': its <matrix> has a last row other than 0 0 0 1 (a projection), which Assimp "
			  "drops, and a key holds translation, rotation and scale only: export the bone's transform "
			  "without a projection", id);
	return true;
}

/*
 * A <lookat>'s eye, interest and up `v` (9 values): gluLookAt, and the
 * COLLADA viewers after it, take the view f = interest - eye and make the
 * up perpendicular to it (side = f x up, up' = side x f).  Assimp 5.2
 * puts the up as written in the matrix: one not perpendicular to the view
 * makes a sheared matrix, whose rotation is not the view's (0.4 rad off
 * for an up of 45 degrees).  Into `up` the perpendicular one, unit long;
 * the reason the values make no rotation, or NULL when they make the same
 * with Assimp as with gluLookAt: an up within ANIMC_DECOMPOSE_SHEAR_TOLERANCE
 * of perpendicular (|cos| of the angle between the two, as between the
 * axes of a matrix that does not shear) is, as an exporter rounds it (2e-4
 * to 9e-4 off to 3 decimals).
 */
#define DAE_LOOKAT_TOLERANCE 1e-4

static const char *lookat_why(const double v[9], double up[3])
{
	double f[3] = { v[3] - v[0], v[4] - v[1], v[5] - v[2] }, u[3] = { v[6], v[7], v[8] }, s[3];
	double fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]), ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);

	if (!(fl > 0) || !isfinite(fl))
		return "has its eye and interest at one point (no view direction)";
	if (!(ul > 0) || !isfinite(ul))
		return "has an up of 0 0 0";
	for (int i = 0; i < 3; i++)
		f[i] /= fl, u[i] /= ul;
	s[0] = f[1] * u[2] - f[2] * u[1], s[1] = f[2] * u[0] - f[0] * u[2], s[2] = f[0] * u[1] - f[1] * u[0];
	double sl = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	if (!(sl > DAE_LOOKAT_TOLERANCE))
		return "has an up along its view direction";
	for (int i = 0; i < 3; i++)
		s[i] /= sl;
	up[0] = s[1] * f[2] - s[2] * f[1], up[1] = s[2] * f[0] - s[0] * f[2], up[2] = s[0] * f[1] - s[1] * f[0];
	return fabs(f[0] * u[0] + f[1] * u[1] + f[2] * u[2]) > ANIMC_DECOMPOSE_SHEAR_TOLERANCE ? "" : NULL;
}

/* The length squared of `v` as Assimp's aiVector3D::Normalize takes it, in
 * floats. */
static float length_squared_in_floats(float x, float y, float z)
{
	return x * x + y * y + z * z;
}

/*
 * Why a <lookat>'s values `v` make no matrix in floats, as Assimp 5.2
 * builds it (each value a float, the up and the view normalised in
 * floats): into `why`, and the index of the value to point at; -1 when
 * they make one.  A value no float holds (inf, nan, past 3.4e38) was said
 * as "an up of 0 0 0" or "its eye and interest at one point", and a
 * length whose square is past the largest float (past 1.8e19) or 0 in
 * one (below about 4e-23) built a scale of 0, said as a zero-scale key.
 */
static int lookat_past_float(const double v[9], char *why, size_t size)
{
	static const char *const parts[] = { "an eye", "an interest", "an up" };
	float f[9], len2[2];

	for (int i = 0; i < 9; i++) {
		if (fabs(v[i]) <= FLT_MAX) {
			f[i] = (float)v[i];
			continue;
		}
		if (isnan(v[i]) || isinf(v[i]))
			snprintf(why, size, "%s whose %c is %s (%g)", parts[i / 3], "xyz"[i % 3],
				 isnan(v[i]) ? "not a number" : "infinite", v[i]);
		else
			snprintf(why, size, "%s whose %c is %g, past what a float holds (3.4e+38)", parts[i / 3],
				 "xyz"[i % 3], v[i]);
		return i;
	}
	len2[0] = length_squared_in_floats(f[3] - f[0], f[4] - f[1], f[5] - f[2]);
	len2[1] = length_squared_in_floats(f[6], f[7], f[8]);
	for (int k = 0; k < 2; k++) {
		if (len2[k] == 0 && (k ? f[6] || f[7] || f[8] : f[3] != f[0] || f[4] != f[1] || f[5] != f[2])) {
			snprintf(why, size, "%s so short that its length squared is 0 in a float (a length below "
				 "about 4e-23)", k ? "an up" : "a view (eye to interest)");
			return k ? 6 : 3;
		}
		if (isinf(len2[k])) {
			snprintf(why, size, "%s so long that its length squared is past what a float holds (past "
				 "1.8e19)", k ? "an up" : "a view (eye to interest)");
			return k ? 6 : 3;
		}
	}
	return -1;
}

/* Say <lookat> `e` of keyed node `node` (`v`: its values, or a key's, at
 * `line`; `what` names which) when Assimp would not make the view's
 * rotation of it; true when said. */
static bool say_lookat_values(const char *id, const char *what, const double v[9], uint32_t line,
			      animc_diag_sink *sink)
{
	double up[3];
	char past[160];
	const char *why;

	if (lookat_past_float(v, past, sizeof past) >= 0) {
		animc_diag_report(sink, ANIMC_ERROR, line, 0, "node '%s': %s has %s, which makes no rotation: "
				  "Assimp builds its matrix in floats, where it comes out NaN or of scale 0; give it "
				  "values a float holds, an interest apart from the eye and an up of length 1",
				  id, what, past);
		return true;
	}
	why = lookat_why(v, up);
	if (!why)
		return false;
	if (why[0])
		animc_diag_report(sink, ANIMC_ERROR, line, 0, "node '%s': %s %s, which makes no rotation (Assimp "
				  "makes of it a scale of 0 on an axis); give it an eye, an interest apart from it and an "
				  "up across the view",
				  id, what, why);
	else
		animc_diag_report(sink, ANIMC_ERROR, line, 0, "node '%s': %s has an up (%g %g %g) that is not "
				  "perpendicular to its view (eye to interest): COLLADA viewers make it so, as gluLookAt "
				  "does, and Assimp does not (it builds a sheared matrix, whose rotation is not the "
				  "view's); write the up they use, %.6g %.6g %.6g", id, what, v[6], v[7], v[8],
				  up[0] + 0.0, up[1] + 0.0, up[2] + 0.0);
	return true;
}

/* Say <lookat> `e` of keyed node `node`, or a key of it, that does not
 * make the rotation COLLADA viewers make (lookat_why); true when said. */
static bool say_lookat(const animc_collada *dae, const xmlNode *node, const xmlNode *e, animc_diag_sink *sink)
{
	const char *id = attribute(node, "id"), *sid = attribute(e, "sid");
	char *text = (char *)xmlNodeGetContent(e), *p = text, *end, target[512], what[64];
	const dae_channel *keyed = NULL;
	double v[9] = { 0 };
	int n = 0;

	/* Fewer than 9 numbers: no view to judge (Assimp refuses the file). */
	for (; n < 9 && p; n++, p = end) {
		v[n] = strtod(p, &end);
		if (end == p)
			break;
	}
	xmlFree(text);
	if (!id || !is_keyed_node(dae, id))
		return false;
	if (sid) {
		snprintf(target, sizeof target, "%s/%s", id, sid);
		keyed = keyed_by(dae, target);
	}
	for (size_t k = 0; keyed && keyed->values.stride == 9 && (k + 1) * 9 <= keyed->values.count; k++) {
		const double *key = &keyed->values.values[k * 9];
		char past[160];
		int at = lookat_past_float(key, past, sizeof past);

		snprintf(what, sizeof what, "key %zu of its <lookat>", k);
		if (say_lookat_values(id, what, key, number_line(&keyed->values, k * 9 + (at < 0 ? 0 : (size_t)at)), sink))
			return true;
	}
	return !keyed && n == 9 && say_lookat_values(id, "its <lookat>", v, (uint32_t)xmlGetLineNo(e), sink);
}

/* Say the first <rotate> about no axis or <matrix> that projects of the
 * nodes from `n` on (and their children); true when said. */
/* Say <skew> `e` of node `n`: Assimp 5.2 reads it and then stops on it
 * (an assertion, "TODO", where it composes a node's transforms), the
 * worker aborted, and the file failed as a crash naming nothing. */
static void say_skew(const xmlNode *n, const xmlNode *e, animc_diag_sink *sink)
{
	const char *id = attribute(n, "id"), *name = attribute(n, "name");

	animc_diag_report(sink, ANIMC_ERROR, (uint32_t)xmlGetLineNo(e), 0,
			  "node '%s': a <skew>, which Assimp cannot read (it stops on it, and the file would fail "
			  "as a crash): bake the skew into a <matrix> in the exporter, or remove it",
			  id ? id : name ? name : "");
}

static bool say_odd_transforms_in(const animc_collada *dae, const xmlNode *n, unsigned depth, animc_diag_sink *sink)
{
	for (; n && depth < 256; n = n->next) {
		if (!is_element(n, "node"))
			continue;
		for (const xmlNode *e = n->children; e; e = e->next) {
			if (is_element(e, "rotate") && say_no_axis(dae, n, e, sink))
				return true;
			if (is_element(e, "matrix") && say_projection(dae, n, e, sink))
				return true;
			if (is_element(e, "lookat") && say_lookat(dae, n, e, sink))
				return true;
			if (is_element(e, "scale") && say_scale_past(dae, n, e, sink))
				return true;
			if (is_element(e, "skew")) {
				say_skew(n, e, sink);
				return true;
			}
		}
		if (say_odd_transforms_in(dae, n->children, depth + 1, sink))
			return true;
	}
	return false;
}

/* Say the first transform of a keyed node of the visual scenes no key can
 * hold (a <rotate> about no axis, a <matrix> that projects), or of any node
 * that Assimp cannot read (a <skew>); true when said. */
static bool say_odd_transforms(const animc_collada *dae, animc_diag_sink *sink)
{
	for (const xmlNode *lib = xmlDocGetRootElement(dae->doc)->children; lib; lib = lib->next) {
		for (const xmlNode *vs = is_element(lib, "library_visual_scenes") ? lib->children : NULL; vs; vs = vs->next)
			if (is_element(vs, "visual_scene") && say_odd_transforms_in(dae, vs->children, 0, sink))
				return true;
	}
	return false;
}

/* Keys Assimp may make of one <rotate>'s ANGLE channel (it keys the turn
 * every 90 degrees), as many as animc takes of a glTF curve: an angle keyed
 * to 1e30 degrees ran the import out of its memory limit (2 GB, 6 s)
 * with a message blaming a damaged count. */
#define DAE_MAX_TURN_KEYS ((double)(1u << 20))

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/* The first of the 16 values of a transform that `rest`, a target past its
 * node's "ID/", keys, as Assimp reads it: "SID" 0, "SID.X" (.Y, .Z,
 * .ANGLE) 0 (1, 2, 3), "SID(I)(J)" I + 4 J. */
static uint32_t first_component(const char *rest)
{
	const char *dot = strchr(rest, '.'), *bracket = strchr(rest, '(');

	if (bracket && strlen(bracket) == 6 && bracket[0] == '(' && bracket[1] >= '0' && bracket[1] <= '3' &&
	    bracket[2] == ')' && bracket[3] == '(' && bracket[4] >= '0' && bracket[4] <= '3' && bracket[5] == ')')
		return (uint32_t)(bracket[1] - '0') + 4 * (uint32_t)(bracket[4] - '0');
	return !dot ? 0 : strcmp(dot + 1, "ANGLE") == 0 ? 3 : strcmp(dot + 1, "Y") == 0 ? 1 : strcmp(dot + 1, "Z") == 0 ? 2 : 0;
}

static uint32_t accessor_line(const dae_array *a)
{
	long line = a->accessor ? xmlGetLineNo(a->accessor) : 0;

	return line > 0 ? (uint32_t)line : 0;
}

/* Say an <accessor> of channel `ch` that Assimp 5.2.5 reads past its
 * <float_array>, or whose keys it writes past the node's transform (16
 * values, from the target's first component): either crashes it; or whose
 * <param>s give more values than its stride, which Assimp reads into the
 * next key's.  Assimp
 * reads `keys` keys (the INPUT accessor's count), each the accessor's
 * <param>s (a float4x4 16 values, any other 1) from offset + key * stride;
 * true when said. */
static bool say_bad_accessor(const dae_channel *ch, animc_diag_sink *sink)
{
	const dae_array *t = &ch->times, *v = &ch->values;
	size_t keys = t->keys ? t->keys : t->count / t->stride;
	uint32_t sub = first_component(strchr(ch->target, '/') + 1);

	if (v->accessor && v->size + sub > 16) {
		animc_diag_report(sink, ANIMC_ERROR, accessor_line(v), 0,
				  "channel '%s': its OUTPUT <accessor>'s <param>s give %u values a key, and from its "
				  "target's component %u a transform holds %u: Assimp writes past the transform (it "
				  "crashes); give the accessor one float <param> a value the target keys (a float4x4 "
				  "only for a whole <matrix>)", ch->target, v->size, sub, 16 - sub);
		return true;
	}
	for (int i = 0; i < 2 && keys; i++) {
		const dae_array *a = i ? v : t;
		uint32_t size = i ? v->size : 1;
		size_t end;

		if (!a->accessor || !a->array ||
		    (!__builtin_mul_overflow(keys - 1, (size_t)a->stride, &end) &&
		     !__builtin_add_overflow(end, a->offset + size, &end) && end <= a->count))
			continue;
		animc_diag_report(sink, ANIMC_ERROR, accessor_line(a), 0,
				  "channel '%s': its %s <accessor> reads %u value%s a key (its <param>s: a float4x4 "
				  "is 16) at a stride of %u, and its %zu keys reach past the %zu numbers of its "
				  "<float_array>: Assimp reads past the array (it crashes); make the <param>s' sizes "
				  "add up to the stride, and the array hold every key", ch->target,
				  i ? "OUTPUT" : "INPUT", size, size == 1 ? "" : "s", a->stride, keys, a->count);
		return true;
	}
	/* One key has no next to read over. */
	if (v->accessor && v->size > v->stride && keys > 1) {
		animc_diag_report(sink, ANIMC_ERROR, accessor_line(v), 0,
				  "channel '%s': its OUTPUT <accessor>'s <param>s give %u values a key (a float4x4 is "
				  "16), more than its stride of %u: Assimp reads each key over the values of the next; "
				  "make the <param>s' sizes add up to the stride", ch->target, v->size, v->stride);
		return true;
	}
	return false;
}

/* Say the key at which an ANGLE channel's turn passes DAE_MAX_TURN_KEYS
 * quarter turns; true when said. */
static bool say_endless_turn(const dae_channel *ch, animc_diag_sink *sink)
{
	const dae_array *v = &ch->values;
	double quarters = 0;

	if (!ends_with(ch->target, ".ANGLE") || v->stride != 1)
		return false;
	for (size_t i = 1; i < v->count; i++) {
		quarters += fabs(v->values[i] - v->values[i - 1]) / 90;
		if (quarters <= DAE_MAX_TURN_KEYS)
			continue;
		animc_diag_report(sink, ANIMC_ERROR, number_line(v, i), 0,
				  "channel '%s': by key %zu (%g degrees) the angle has turned more than %.0f quarter "
				  "turns, and Assimp keys a <rotate> every quarter turn: more keys than animc takes "
				  "of a curve (%.0f); check the angle in the exporter (COLLADA angles are degrees)",
				  ch->target, i, v->values[i], DAE_MAX_TURN_KEYS, DAE_MAX_TURN_KEYS);
		return true;
	}
	return false;
}

bool animc_collada_say_bad_keys(const animc_collada *dae, animc_diag_sink *sink)
{
	bool is_bad = false;

	for (size_t i = 0; dae && i < dae->channel_count; i++) {
		const dae_channel *ch = &dae->channels[i];

		/* Only a node's transforms: a target of no node (a mesh's morph
		 * weights) is not a bone's, and left out. */
		if (!strchr(ch->target, '/'))
			continue;
		if (say_bad_accessor(ch, sink) || say_backwards(ch, sink) || say_not_finite(ch, sink) ||
		    say_endless_turn(ch, sink))
			is_bad = true;
	}
	return is_bad || (dae && say_odd_transforms(dae, sink));
}

/* ------------------------------------------------------------- names */

void animc_collada_name_clips(const animc_collada *dae, const struct aiScene *scene)
{
	size_t n = dae && dae->first_name ? strlen(dae->first_name) : 0;

	/* Assimp names the animations it builds FIRST_PATH, FIRST the name of
	 * the file's first <animation> ("animation" when it has none) and
	 * PATH the names of the <animation>s down to the one of the channels;
	 * channels it gathers from one-channel animations take FIRST alone. */
	for (unsigned a = 0; n && scene->mAnimations && a < scene->mNumAnimations; a++) {
		struct aiString *name = scene->mAnimations[a] ? &scene->mAnimations[a]->mName : NULL;

		if (!name || name->length <= n + 1 || name->length >= sizeof name->data ||
		    memcmp(name->data, dae->first_name, n) != 0 || name->data[n] != '_')
			continue;
		memmove(name->data, name->data + n + 1, name->length - n);   /* with its '\0' */
		name->length -= (uint32_t)(n + 1);
	}
}

/* ------------------------------------------------------------- rotates */

/* A node's transform, as its element gives it, and the channel keying its
 * angle (NULL: none). */
typedef struct dae_transform {
	const xmlNode *element;
	const char *sid;
	double values[4];
	const dae_channel *angle;
} dae_transform;

/* A bone's <node> and its transforms; `why` says what keeps its turn
 * from being read exactly (NULL: nothing). */
typedef struct dae_node {
	const xmlNode *node;
	dae_transform rotates[16];
	uint32_t rotate_count, keyed;
	const char *why;
	char keyed_sids[128];
} dae_node;

/* Assimp's name of a <node>: its name, else its id, else its sid. */
static const char *node_name(const xmlNode *n)
{
	const char *name = attribute(n, "name");

	if (name && *name)
		return name;
	name = attribute(n, "id");
	return name && *name ? name : attribute(n, "sid");
}

static const xmlNode *find_node(const xmlNode *n, const char *bone, unsigned depth)
{
	for (; n && depth < 256; n = n->next) {
		const char *name;
		const xmlNode *found;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (is_element(n, "node") && (name = node_name(n)) && strcmp(name, bone) == 0)
			return n;
		if ((found = find_node(n->children, bone, depth + 1)))
			return found;
	}
	return NULL;
}

/* Whether <animation> `a` lies in (or is) `within`. */
static bool is_within(const xmlNode *a, const xmlNode *within)
{
	for (; a; a = a->parent)
		if (a == within)
			return true;
	return false;
}

/* Whether the <animation> `a` is named `path` by its name and those of
 * the <animation>s above it, joined with '_' (Assimp's clip name, its
 * first part taken off). */
static bool has_path(const xmlNode *a, const char *path, size_t len)
{
	const char *name = attribute(a, "name") ? attribute(a, "name") : "animation";
	size_t n = strlen(name);

	if (n > len || memcmp(path + len - n, name, n) != 0)
		return false;
	if (!is_element(a->parent, "animation"))
		return n == len;
	return n < len && path[len - n - 1] == '_' && has_path(a->parent, path, len - n - 1);
}

/* The <animation> clip `name` was made of, or NULL: every channel of the
 * file then (a file of one clip, or a name not found). */
static const xmlNode *clip_animation(const animc_collada *dae, const char *name, uint32_t clips)
{
	for (size_t i = 0; clips > 1 && i < dae->channel_count; i++)
		for (const xmlNode *a = dae->channels[i].animation; is_element(a, "animation"); a = a->parent)
			if (has_path(a, name, strlen(name)))
				return a;
	return NULL;
}

/* The channel of `within` keying target `target` (NULL: none). */
static const dae_channel *find_channel(const animc_collada *dae, const xmlNode *within, const char *target)
{
	for (size_t i = 0; i < dae->channel_count; i++)
		if (strcmp(dae->channels[i].target, target) == 0 && (!within || is_within(dae->channels[i].animation, within)))
			return &dae->channels[i];
	return NULL;
}

/* Whether a channel of `within` keys transform `sid` of node `id` other
 * than by its angle alone. */
static bool keys_other_than_angle(const animc_collada *dae, const xmlNode *within, const char *id, const char *sid)
{
	size_t n = strlen(id), m = strlen(sid);

	for (size_t i = 0; i < dae->channel_count; i++) {
		const char *t = dae->channels[i].target;

		if (within && !is_within(dae->channels[i].animation, within))
			continue;
		if (strncmp(t, id, n) == 0 && t[n] == '/' && strncmp(t + n + 1, sid, m) == 0 &&
		    strcmp(t + n + 1 + m, ".ANGLE") != 0 &&
		    (t[n + 1 + m] == '\0' || t[n + 1 + m] == '.' || t[n + 1 + m] == '('))
			return true;
	}
	return false;
}

/* The angle channel of <rotate> `r` of node `id`, or NULL. */
static const dae_channel *angle_channel(const animc_collada *dae, const xmlNode *within, const char *id,
					const char *sid)
{
	char target[512];

	/* Not "ID/SID(3)": Assimp takes it for member 0, and the importer
	 * refuses it (check_dae_channel). */
	snprintf(target, sizeof target, "%s/%s.ANGLE", id, sid);
	return find_channel(dae, within, target);
}

/* What keeps rotate `r`'s keyed angle from being read exactly, or NULL. */
static const char *angle_why(const dae_transform *r)
{
	const dae_channel *ch = r->angle;

	if (!ch->is_linear)
		return "an angle keyed with other than LINEAR interpolation";
	if (ch->values.stride != 1 || ch->times.count < 1 || ch->values.count != ch->times.count)
		return "an angle channel whose keys are not one number each";
	return NULL;
}

static void add_rotate(const animc_collada *dae, const xmlNode *within, const xmlNode *e, dae_node *dn)
{
	char *text = (char *)xmlNodeGetContent(e), *p = text, *end;
	const char *id = attribute(dn->node, "id"), *sid = attribute(e, "sid");
	dae_transform *r = &dn->rotates[dn->rotate_count++];

	*r = (dae_transform){ .element = e, .sid = sid };
	for (int i = 0; i < 4 && p; i++, p = end)
		r->values[i] = strtod(p, &end);
	xmlFree(text);
	if (!id || !sid)
		return;
	r->angle = angle_channel(dae, within, id, sid);
	if (keys_other_than_angle(dae, within, id, sid))
		dn->why = "a <rotate> whose axis is keyed";
	if (!r->angle)
		return;
	dn->keyed++;
	if (!dn->why)
		dn->why = angle_why(r);
	size_t used = strlen(dn->keyed_sids);
	snprintf(dn->keyed_sids + used, sizeof dn->keyed_sids - used, "%s'%s'", used ? ", " : "", sid);
}

/* The <node> of the visual scenes Assimp names `bone`, or NULL. */
static const xmlNode *scene_node(const animc_collada *dae, const char *bone)
{
	const xmlNode *node = NULL;

	for (const xmlNode *lib = xmlDocGetRootElement(dae->doc)->children; lib && !node; lib = lib->next)
		if (is_element(lib, "library_visual_scenes"))
			node = find_node(lib->children, bone, 0);
	return node;
}

/* The transforms of bone `bone`'s node; false when it has none, or
 * fewer than two <rotate>s keyed. */
static bool read_node(const animc_collada *dae, const xmlNode *within, const char *bone, dae_node *dn)
{
	bool has_scale = false;

	memset(dn, 0, sizeof *dn);
	dn->node = scene_node(dae, bone);
	for (const xmlNode *e = dn->node ? dn->node->children : NULL; e; e = e->next) {
		if (is_element(e, "node") || is_element(e, "extra") ||
		    (e->type == XML_ELEMENT_NODE && strncmp((const char *)e->name, "instance_", 9) == 0))
			break;
		if (is_element(e, "matrix") || is_element(e, "lookat") || is_element(e, "skew"))
			dn->why = "a <matrix>, <lookat> or <skew> among its transforms";
		has_scale |= is_element(e, "scale");
		if (!is_element(e, "rotate"))
			continue;
		if (has_scale)
			dn->why = "a <scale> before a <rotate>";
		if (dn->rotate_count == sizeof dn->rotates / sizeof *dn->rotates) {
			dn->why = "too many <rotate>s";
			break;
		}
		add_rotate(dae, within, e, dn);
	}
	return dn->keyed >= 2;
}

/* ------------------------------------------------------------- turning */

/* The value of an angle channel at `t` s: its keys joined by straight
 * lines, held before the first and past the last. */
static double angle_at(const dae_channel *ch, double t)
{
	const double *times = ch->times.values, *v = ch->values.values;
	size_t n = ch->times.count, i = 1;

	if (t <= times[0])
		return v[0];
	if (t >= times[n - 1])
		return v[n - 1];
	while (i < n - 1 && times[i] < t)
		i++;
	if (times[i] == times[i - 1])
		return v[i];
	return v[i - 1] + (v[i] - v[i - 1]) * (t - times[i - 1]) / (times[i] - times[i - 1]);
}

/* a * b, quaternions x y z w. */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
	double r[4] = { a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
			a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
			a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
			a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2] };

	memcpy(out, r, sizeof r);
}

/* The turn (x y z w) of a <rotate> about `axis` by `degrees`: none for
 * an axis of no length. */
static void rotate_turn(const double axis[3], double degrees, double k[4])
{
	double len = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
	double angle = degrees * PI_ / 360, s = sin(angle);

	k[0] = k[1] = k[2] = 0, k[3] = 1;
	if (len > 0)
		k[0] = axis[0] / len * s, k[1] = axis[1] / len * s, k[2] = axis[2] / len * s, k[3] = cos(angle);
}

/* The node's turn at `t` s (x y z w): its <rotate>s in the file's order,
 * each at its keyed angle. */
static void turn_at(const dae_node *dn, double t, double q[4])
{
	q[0] = q[1] = q[2] = 0, q[3] = 1;
	for (uint32_t i = 0; i < dn->rotate_count; i++) {
		const dae_transform *r = &dn->rotates[i];
		double k[4];

		rotate_turn(r->values, r->angle ? angle_at(r->angle, t) : r->values[3], k);
		quat_mul(q, k, q);
	}
}

/* A turn made of <rotate>s, followed between keys: its value at a time,
 * and the most any of its keyed angles moves between two. */
typedef struct dae_turning {
	void (*turn_at)(const void *of, double t, double q[4]);
	double (*angle_moved)(const void *of, double a, double b);
	const void *of;
} dae_turning;

static void node_turn_at(const void *of, double t, double q[4])
{
	turn_at(of, t, q);
}

static double node_angle_moved(const void *of, double a, double b)
{
	const dae_node *dn = of;
	double step = 0;

	for (uint32_t i = 0; i < dn->rotate_count; i++)
		if (dn->rotates[i].angle)
			step = fmax(step, fabs(angle_at(dn->rotates[i].angle, b) - angle_at(dn->rotates[i].angle, a)));
	return step;
}

/* The angle in degrees between two turns. */
static double turn_between(const double a[4], const double b[4])
{
	double dot = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);

	return 2 * acos(fmin(1, dot)) * 180 / PI_;
}

/* The slerp of a and b halfway. */
static void halfway(const double a[4], const double b[4], double out[4])
{
	double sign = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1, len = 0;

	for (int i = 0; i < 4; i++)
		out[i] = a[i] + sign * b[i], len += out[i] * out[i];
	for (int i = 0; i < 4; i++)
		out[i] = len > 0 ? out[i] / sqrt(len) : a[i];
}

/* The largest error of slerping the turn over `parts` equal steps from a
 * to b s, halfway along each. */
static double steps_error(const dae_turning *tr, double a, double b, double parts)
{
	double worst = 0, q0[4], q1[4], mid[4], want[4];

	tr->turn_at(tr->of, a, q0);
	for (double k = 1; k <= parts; k++) {
		double t0 = a + (b - a) * (k - 1) / parts, t1 = a + (b - a) * k / parts;

		tr->turn_at(tr->of, t1, q1);
		tr->turn_at(tr->of, (t0 + t1) / 2, want);
		halfway(q0, q1, mid);
		worst = fmax(worst, turn_between(mid, want));
		memcpy(q0, q1, sizeof q0);
	}
	return worst;
}

/* The parts a step from a to b s is cut in: each keyed angle moving less
 * than 180 degrees, and the slerp within the tolerance (at most 256). */
static double step_parts(const dae_turning *tr, double a, double b)
{
	double parts = fmax(1, ceil(tr->angle_moved(tr->of, a, b) / 179));

	while (parts < 256 && steps_error(tr, a, b, parts) > ANIMC_COLLADA_TOLERANCE_DEG)
		parts *= 2;
	return parts;
}

/* The rotation of key `i` of track `t`, x y z w. */
static void key_turn(const animc_track *t, uint32_t i, double q[4])
{
	for (int k = 0; k < 4; k++)
		q[k] = t->values[(size_t)i * 4 + (size_t)k];
}

/* The largest error of slerping Assimp's keys of track `t`, halfway
 * between each two, and where (s). */
static double keys_error(const dae_node *dn, const animc_track *t, double *at)
{
	double worst = 0, q0[4], q1[4], mid[4], want[4];

	for (uint32_t i = 1; i < t->value_count; i++) {
		double a = t->times_s[i - 1], b = t->times_s[i];

		key_turn(t, i - 1, q0);
		key_turn(t, i, q1);
		halfway(q0, q1, mid);
		turn_at(dn, (a + b) / 2, want);
		if (turn_between(mid, want) > worst)
			worst = turn_between(mid, want), *at = (a + b) / 2;
	}
	return worst;
}

/* Whether the node's turn is Assimp's at each of its keys: the file read
 * as Assimp reads it. */
static bool keys_agree(const dae_node *dn, const animc_track *t)
{
	double q[4], key[4];

	for (uint32_t i = 0; i < t->value_count; i++) {
		key_turn(t, i, key);
		turn_at(dn, t->times_s[i], q);
		if (turn_between(q, key) > 0.05)
			return false;
	}
	return true;
}

/* The turns at `times` into `values` (x y z w), each on the side of the
 * one before: the short way. */
static void put_turns(const dae_turning *tr, const float *times, size_t n, float *values)
{
	for (size_t i = 0; i < n; i++) {
		double q[4];

		tr->turn_at(tr->of, times[i], q);
		double dot = i ? q[0] * values[i * 4 - 4] + q[1] * values[i * 4 - 3] + q[2] * values[i * 4 - 2] +
					 q[3] * values[i * 4 - 1] : 1;
		for (int k = 0; k < 4; k++)
			values[i * 4 + (size_t)k] = (float)(dot < 0 ? -q[k] : q[k]);
	}
}

/* The rotation track of `ch` made again from the node's <rotate>s: keys at
 * Assimp's, and between them where the slerp would leave the turn. */
static bool rebuild_turn(const dae_node *dn, animc_clip *clip, animc_channel *ch)
{
	animc_track *t = &ch->tracks[ANIMC_ROTATION];
	const dae_turning tr = { node_turn_at, node_angle_moved, dn };
	size_t n = 1;
	float *times, *values;

	for (uint32_t i = 1; i < t->value_count; i++)
		n += (size_t)step_parts(&tr, t->times_s[i - 1], t->times_s[i]);
	times = animc_clip_alloc_floats(clip, n);
	values = animc_clip_alloc_values(clip, ANIMC_ROTATION, n);
	if (!times || !values)
		return false;
	times[0] = t->times_s[0], n = 1;
	for (uint32_t i = 1; i < t->value_count; i++) {
		double a = t->times_s[i - 1], b = t->times_s[i], parts = step_parts(&tr, a, b);

		for (double k = 1; k <= parts; k++)
			times[n++] = k == parts ? t->times_s[i] : (float)(a + (b - a) * k / parts);
	}
	put_turns(&tr, times, n, values);
	t->value_count = (uint32_t)n, t->times_s = times, t->values = values;
	return true;
}

/* ------------------------------------------------------------- steps */

/*
 * A STEP key holds its value up to the next key; Assimp 5.2.5 reads every
 * key as linear.  A bone whose node holds such a key is made again from
 * the file: its <translate>s, <rotate>s and <scale>s evaluated at each
 * key time, and one more key a float before each change holding the value
 * before it (the runtime, linear between keys, then plays the step).
 */

#define DAE_MAX_ELEMENTS 32
#define DAE_MAX_KEYINGS 8

/* A channel writing a transform's values from component `sub` on. */
typedef struct dae_keying {
	const dae_channel *ch;
	uint32_t sub;
} dae_keying;

/* One transform of a node: its kind ('t' <translate>, 'r' <rotate>, 's'
 * <scale>, 'o' any other), its values, and the channels keying it in the
 * file's order (a later one wins, as in Assimp). */
typedef struct dae_element {
	char kind;
	const char *sid;
	double values[16];
	dae_keying keyings[DAE_MAX_KEYINGS];
	uint32_t keying_count;
} dae_element;

/* A node's transforms.  `why`: what keeps its keys from being read one by
 * one (NULL: nothing); `stepped`: its first channel with a STEP key whose
 * value the next key changes, and how many such channels. */
typedef struct dae_stack {
	dae_element elements[DAE_MAX_ELEMENTS];
	uint32_t count, stepped_count;
	bool is_separable;   /* <translate>s, then <rotate>s, then <scale>s, nothing else */
	const char *why;
	const dae_channel *stepped;
} dae_stack;

/* A node's pose: translation, turn (x y z w), scale. */
typedef struct dae_pose {
	double t[3], r[4], s[3];
} dae_pose;

static void read_elements(const xmlNode *node, dae_stack *st)
{
	static const char kinds[] = "trs";
	int rank = 0;

	st->is_separable = true;
	for (const xmlNode *e = node->children; e; e = e->next) {
		const char *name = (const char *)e->name;

		if (is_element(e, "node") || is_element(e, "extra") ||
		    (e->type == XML_ELEMENT_NODE && strncmp(name, "instance_", 9) == 0))
			break;
		if (!is_element(e, "translate") && !is_element(e, "rotate") && !is_element(e, "scale") &&
		    !is_element(e, "matrix") && !is_element(e, "lookat") && !is_element(e, "skew"))
			continue;
		if (st->count == DAE_MAX_ELEMENTS) {
			st->why = "a node of too many transforms";
			break;
		}
		dae_element *el = &st->elements[st->count++];
		char *text = (char *)xmlNodeGetContent(e), *p = text, *end;

		*el = (dae_element){ .kind = is_element(e, "translate") ? 't' : is_element(e, "rotate") ? 'r' :
					     is_element(e, "scale") ? 's' : 'o', .sid = attribute(e, "sid") };
		for (int i = 0; i < 16 && p; i++, p = end)
			el->values[i] = strtod(p, &end);
		xmlFree(text);
		int at = el->kind == 'o' ? -1 : (int)(strchr(kinds, el->kind) - kinds);
		st->is_separable &= at >= rank;
		rank = at > rank ? at : rank;
	}
}

/* The transform sid `sid` and first component `*sub` that `target` keys
 * of node `id`, as Assimp reads them: "ID/SID", "ID/SID.X" (.Y, .Z,
 * .ANGLE), "ID/SID(I)(J)"; false for a target of another node. */
static bool target_of(const char *target, const char *id, char sid[128], uint32_t *sub)
{
	size_t n = strlen(id), len;
	const char *rest, *dot, *bracket;

	if (strncmp(target, id, n) != 0 || target[n] != '/' || strchr(target + n + 1, '/'))
		return false;
	rest = target + n + 1;
	dot = strchr(rest, '.');
	if (dot && strchr(dot + 1, '.'))
		return false;
	*sub = first_component(rest);
	len = dot ? (size_t)(dot - rest) : strlen(rest);
	if ((bracket = strchr(rest, '(')))
		len = (size_t)(bracket - rest);
	if (len >= 128)
		return false;
	memcpy(sid, rest, len);
	sid[len] = '\0';
	return true;
}

/* Whether key `i` of `ch` is STEP and the next key changes its value. */
static bool steps_at(const dae_channel *ch, size_t i)
{
	size_t s = ch->values.stride;

	if (i >= ch->step_count || !ch->steps[i] || i + 1 >= ch->times.count)
		return false;
	return memcmp(&ch->values.values[i * s], &ch->values.values[(i + 1) * s], ch->values.size * sizeof(double)) != 0;
}

/* What keeps channel `ch`, writing from component `sub` on, from being
 * read key by key, or NULL. */
static const char *keying_why(const dae_channel *ch, uint32_t sub)
{
	if (ch->values.size + sub > 16 || ch->values.size > ch->values.stride || ch->times.count < 1 ||
	    ch->values.count != ch->times.count * ch->values.stride)
		return "a channel whose keys are not one value each";
	for (size_t i = 1; i < ch->times.count; i++)
		if (!((float)ch->times.values[i] > (float)ch->times.values[i - 1]))
			return "a channel that gives one key time twice";
	return NULL;
}

static void add_keying(dae_stack *st, const dae_channel *ch, const char *sid, uint32_t sub)
{
	dae_element *el = NULL;
	bool is_stepped = false;

	for (uint32_t i = 0; i < st->count; i++)
		if (st->elements[i].sid && strcmp(st->elements[i].sid, sid) == 0)
			el = &st->elements[i];
	if (!el)
		return;   /* Assimp leaves it out (said by unknown-target-path) */
	if (el->keying_count == DAE_MAX_KEYINGS) {
		st->why = "a transform of too many channels";
		return;
	}
	const char *why = keying_why(ch, sub);

	el->keyings[el->keying_count++] = (dae_keying){ ch, sub };
	st->why = st->why ? st->why : why;
	for (size_t i = 0; !why && i + 1 < ch->times.count; i++)
		is_stepped |= steps_at(ch, i);
	if (is_stepped && !st->stepped_count++)
		st->stepped = ch;
}

/* The transforms of bone `bone`'s node and the channels of `within`
 * keying them; false when it has no node, or no id. */
static bool read_stack(const animc_collada *dae, const xmlNode *within, const char *bone, dae_stack *st)
{
	const xmlNode *node = scene_node(dae, bone);
	const char *id = node ? attribute(node, "id") : NULL;
	char sid[128];
	uint32_t sub;

	memset(st, 0, sizeof *st);
	if (!id)
		return false;
	read_elements(node, st);
	for (size_t i = 0; i < dae->channel_count; i++) {
		const dae_channel *ch = &dae->channels[i];

		if ((!within || is_within(ch->animation, within)) && target_of(ch->target, id, sid, &sub))
			add_keying(st, ch, sid, sub);
	}
	return true;
}

/* The key of `ch` at or before `t` s: the number of its keys at `t` or
 * before it (times as Assimp reads them, floats). */
static size_t keys_until(const dae_channel *ch, double t)
{
	size_t lo = 0, hi = ch->times.count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((float)ch->times.values[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Component `c` of `ch` at `t` s: its keys joined by straight lines, a
 * STEP key held up to the next (unless `as_assimp`: every key linear),
 * held before the first and past the last. */
static double keyed_value(const dae_channel *ch, size_t c, double t, bool as_assimp)
{
	size_t n = ch->times.count, s = ch->values.stride, i = keys_until(ch, t);
	const double *v = ch->values.values;

	if (i == 0)
		return v[c];
	if (i == n)
		return v[(n - 1) * s + c];
	i--;
	double t0 = (float)ch->times.values[i], t1 = (float)ch->times.values[i + 1];
	if ((!as_assimp && i < ch->step_count && ch->steps[i]) || t == t0)
		return v[i * s + c];
	return v[i * s + c] + (v[(i + 1) * s + c] - v[i * s + c]) * (t - t0) / (t1 - t0);
}

static void element_at(const dae_element *el, double t, bool as_assimp, double f[16])
{
	memcpy(f, el->values, sizeof el->values);
	for (uint32_t k = 0; k < el->keying_count; k++)
		for (size_t c = 0; c < el->keyings[k].ch->values.size; c++)
			f[el->keyings[k].sub + c] = keyed_value(el->keyings[k].ch, c, t, as_assimp);
}

/* The pose of a separable stack at `t` s: its translates added, its
 * rotates turned in order, its scales multiplied. */
static void pose_at(const dae_stack *st, double t, bool as_assimp, dae_pose *p)
{
	*p = (dae_pose){ { 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } };
	for (uint32_t i = 0; i < st->count; i++) {
		const dae_element *el = &st->elements[i];
		double f[16], k[4];

		element_at(el, t, as_assimp, f);
		for (int a = 0; a < 3 && el->kind == 't'; a++)
			p->t[a] += f[a];
		for (int a = 0; a < 3 && el->kind == 's'; a++)
			p->s[a] *= f[a];
		if (el->kind == 'r') {
			rotate_turn(f, f[3], k);
			quat_mul(p->r, k, p->r);
		}
	}
}

static void stack_turn_at(const void *of, double t, double q[4])
{
	dae_pose p;

	pose_at(of, t, false, &p);
	memcpy(q, p.r, sizeof p.r);
}

static double stack_angle_moved(const void *of, double a, double b)
{
	const dae_stack *st = of;
	double step = 0, fa[16], fb[16];

	for (uint32_t i = 0; i < st->count; i++) {
		if (st->elements[i].kind != 'r' || !st->elements[i].keying_count)
			continue;
		element_at(&st->elements[i], a, false, fa);
		element_at(&st->elements[i], b, false, fb);
		step = fmax(step, fabs(fb[3] - fa[3]));
	}
	return step;
}

/* Whether a STEP key of the stack gives way to another value at `t` s (a
 * key time, as a float). */
static bool changes_at(const dae_stack *st, float t)
{
	for (uint32_t e = 0; e < st->count; e++)
		for (uint32_t k = 0; k < st->elements[e].keying_count; k++) {
			const dae_channel *ch = st->elements[e].keyings[k].ch;
			size_t i = keys_until(ch, t);

			if (i >= 2 && (float)ch->times.values[i - 1] == t && steps_at(ch, i - 2))
				return true;
		}
	return false;
}

/* The float before key `j` of `times` where a held value changes at it;
 * NaN for none, or for no float between it and the key before. */
static float before_change(const dae_stack *st, const float *times, uint32_t j)
{
	float before = j ? nextafterf(times[j], -INFINITY) : NAN;

	return j && before > times[j - 1] && changes_at(st, times[j]) ? before : NAN;
}

/* Whether the pose the file gives, every key read as linear, is Assimp's
 * at each key of channel `ch`: the file read as Assimp reads it. */
static bool pose_agrees(const dae_stack *st, const animc_channel *ch)
{
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		const animc_track *t = &ch->tracks[k];

		for (uint32_t i = 0; t->is_present && t->times_s && i < t->value_count; i++) {
			dae_pose p;
			double q[4], *want = k == ANIMC_TRANSLATION ? p.t : p.s;

			pose_at(st, t->times_s[i], true, &p);
			if (k == ANIMC_ROTATION) {
				key_turn(t, i, q);
				if (turn_between(q, p.r) > 0.05)
					return false;
				continue;
			}
			for (int a = 0; a < 3; a++)
				if (!(fabs(t->values[(size_t)i * 3 + (size_t)a] - want[a]) <= 1e-4 * fmax(1, fabs(want[a]))))
					return false;
		}
	}
	return true;
}

/* The keys from key j-1 (j > 0) to key j of `times`: between them, where
 * the slerp of a rotation would leave the turn; the float before a
 * change; key j.  Into `out` when not NULL; how many. */
static size_t span_times(const dae_stack *st, const float *times, uint32_t j, bool is_rotation, float *out)
{
	const dae_turning tr = { stack_turn_at, stack_angle_moved, st };
	float before = before_change(st, times, j);
	double a = times[j - 1], b = isnan(before) ? times[j] : before;
	double parts = is_rotation ? step_parts(&tr, a, b) : 1;
	size_t n = 0;

	for (double k = 1; k < parts; k++, n++)
		if (out)
			out[n] = (float)(a + (b - a) * k / parts);
	if (!isnan(before) && out)
		out[n] = before;
	n += !isnan(before);
	if (out)
		out[n] = times[j];
	return n + 1;
}

/* Track `kind` of `ch` made again from the stack: its keys, and those
 * span_times adds. */
static bool rebuild_track(const dae_stack *st, animc_clip *clip, animc_channel *ch, animc_track_kind kind)
{
	animc_track *t = &ch->tracks[kind];
	const dae_turning tr = { stack_turn_at, stack_angle_moved, st };
	size_t n = 1;
	float *times, *values;

	for (uint32_t j = 1; j < t->value_count; j++)
		n += span_times(st, t->times_s, j, kind == ANIMC_ROTATION, NULL);
	times = animc_clip_alloc_floats(clip, n);
	values = animc_clip_alloc_values(clip, kind, n);
	if (!times || !values)
		return false;
	times[0] = t->times_s[0], n = 1;
	for (uint32_t j = 1; j < t->value_count; j++)
		n += span_times(st, t->times_s, j, kind == ANIMC_ROTATION, &times[n]);
	if (kind == ANIMC_ROTATION)
		put_turns(&tr, times, n, values);
	for (size_t i = 0; i < n && kind != ANIMC_ROTATION; i++) {
		dae_pose p;

		pose_at(st, times[i], false, &p);
		for (int a = 0; a < 3; a++)
			values[i * 3 + (size_t)a] = (float)(kind == ANIMC_TRANSLATION ? p.t[a] : p.s[a]);
	}
	t->value_count = (uint32_t)n, t->times_s = times, t->values = values;
	return true;
}

/* Whether Assimp's keys of track `t` are the file's: every channel of the
 * stack STEP at every key, all at the same key times, which are the
 * track's (after a key at 0 held before the first). */
static bool keys_are_held(const dae_stack *st, const animc_track *t)
{
	const dae_channel *first = NULL;
	uint32_t skip;

	for (uint32_t e = 0; e < st->count; e++)
		for (uint32_t k = 0; k < st->elements[e].keying_count; k++) {
			const dae_channel *ch = st->elements[e].keyings[k].ch;

			first = first ? first : ch;
			if (ch->times.count != first->times.count)
				return false;
			for (size_t i = 0; i < ch->times.count; i++)
				if ((float)ch->times.values[i] != (float)first->times.values[i] ||
				    (i + 1 < ch->times.count && !(i < ch->step_count && ch->steps[i])))
					return false;
		}
	if (!first || !t->times_s)
		return false;
	skip = t->value_count == first->times.count + 1 && t->times_s[0] == 0 ? 1 : 0;
	if (t->value_count != first->times.count + skip)
		return false;
	for (uint32_t i = 0; i < first->times.count; i++)
		if (t->times_s[i + skip] != (float)first->times.values[i])
			return false;
	return true;
}

/* Track `kind` of `ch`: Assimp's keys (the file's, keys_are_held), and
 * one a float before each change holding the key before it. */
static bool hold_track(const dae_stack *st, animc_clip *clip, animc_channel *ch, animc_track_kind kind)
{
	animc_track *t = &ch->tracks[kind];
	size_t w = animc_track_width[kind], n = 0;
	float *times = animc_clip_alloc_floats(clip, 2 * (size_t)t->value_count);
	float *values = animc_clip_alloc_values(clip, kind, 2 * (size_t)t->value_count);

	if (!times || !values)
		return false;
	for (uint32_t j = 0; j < t->value_count; j++) {
		float before = before_change(st, t->times_s, j);

		if (!isnan(before)) {
			times[n] = before;
			memcpy(&values[n++ * w], &t->values[(j - 1) * w], w * sizeof *values);
		}
		times[n] = t->times_s[j];
		memcpy(&values[n++ * w], &t->values[j * w], w * sizeof *values);
	}
	t->value_count = (uint32_t)n, t->times_s = times, t->values = values;
	return true;
}

/* Bone `ch`, whose node holds a STEP key that changes its value, made
 * again from the file; false, with `*why`, when that cannot be exact. */
static bool rebuild_steps(const dae_stack *st, animc_clip *clip, animc_channel *ch, const char **why)
{
	bool (*make)(const dae_stack *, animc_clip *, animc_channel *, animc_track_kind) = NULL;
	bool is_held = true;

	if ((*why = st->why))
		return false;
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
		is_held &= !ch->tracks[k].is_present || keys_are_held(st, &ch->tracks[k]);
	if (st->is_separable && pose_agrees(st, ch))
		make = rebuild_track;
	else if (is_held)
		make = hold_track;
	*why = make ? NULL : st->is_separable ? "Assimp's keys are not the pose its transforms give" :
		"its node has transforms other than <translate>s, <rotate>s and <scale>s in that order, and "
		"channels not all STEP at the same key times";
	for (int k = 0; make && k < ANIMC_TRACK_COUNT; k++)
		if (ch->tracks[k].is_present && ch->tracks[k].value_count >= 2 &&
		    !make(st, clip, ch, (animc_track_kind)k)) {
			*why = "no memory";
			return false;
		}
	return make != NULL;
}

/* What a clip's STEP keys came to: bones rebuilt, and the first STEP
 * channel of a bone that was not (with how many there are). */
typedef struct dae_steps {
	uint32_t rebuilt, unread;
	const dae_channel *first;
	const char *bone, *why;
} dae_steps;

/* Bone `c` of `clip`: true when its node holds a STEP key that changes
 * its value, and it was made again from the file. */
static bool check_steps(const animc_collada *dae, const xmlNode *within, animc_clip *clip, uint32_t c,
			dae_steps *steps)
{
	dae_stack st;
	const char *why;

	if (!read_stack(dae, within, clip->channels[c].bone, &st) || !st.stepped)
		return false;
	if (rebuild_steps(&st, clip, &clip->channels[c], &why))
		return ++steps->rebuilt != 0;
	if (!steps->unread)
		steps->first = st.stepped, steps->bone = clip->channels[c].bone, steps->why = why;
	steps->unread += st.stepped_count;
	return false;
}

static void say_steps(const animc_clip *clip, const dae_steps *steps, animc_diag_sink *sink)
{
	char more[64] = "";
	long line;

	if (steps->rebuilt)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL, "%u bone%s with STEP keys, which Assimp reads as "
				  "linear: rebuilt from the file's channels, each value held up to its next key",
				  steps->rebuilt, steps->rebuilt == 1 ? "" : "s");
	if (!steps->unread)
		return;
	line = steps->first->sampler ? xmlGetLineNo(steps->first->sampler) : 0;
	if (steps->unread > 1)
		snprintf(more, sizeof more, " (and %u more channel%s)", steps->unread - 1, steps->unread > 2 ? "s" : "");
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_STEPPED_KEYS, line > 0 ? (uint32_t)line : 0, 0,
			       "clip '%s': bone '%s': channel '%s' has STEP keys%s, which are read as linear: the bone "
			       "is not rebuilt from the file (%s), so the output moves between keys where the source "
			       "holds each one; bake the animation (a key every frame) when exporting",
			       clip->name, steps->bone, steps->first->target, more, steps->why);
}

static void say_not_rebuilt(const dae_node *dn, const animc_clip *clip, const animc_channel *ch,
			    const char *why, animc_diag_sink *sink)
{
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_EULER_BETWEEN_KEYS, clip, ch,
			       "its <rotate>s %s are keyed together, and Assimp keeps one quaternion a key, which "
			       "the runtime slerps: between keys the output leaves the file's turn (19.5 degrees "
			       "halfway for two angles keyed 0 to 90 together), and keys could not be added from "
			       "the file (%s); bake the animation (a key every frame) in the exporter",
			       dn->keyed_sids, why);
}

/* Channel `c` of `clip`: its keys mended, or said; true when mended. */
static bool check_channel(const animc_collada *dae, const xmlNode *within, animc_clip *clip, uint32_t c,
			  animc_diag_sink *sink)
{
	animc_channel *ch = &clip->channels[c];
	const animc_track *t = &ch->tracks[ANIMC_ROTATION];
	dae_node dn;
	double at = 0;

	if (!t->is_present || t->value_count < 2 || !t->times_s || !read_node(dae, within, ch->bone, &dn))
		return false;
	if (!dn.why && !keys_agree(&dn, t))
		dn.why = "its keys are not the turn the file's <rotate>s give";
	if (dn.why) {
		say_not_rebuilt(&dn, clip, ch, dn.why, sink);
		return false;
	}
	if (keys_error(&dn, t, &at) <= ANIMC_COLLADA_TOLERANCE_DEG)
		return false;
	if (rebuild_turn(&dn, clip, ch))
		return true;
	say_not_rebuilt(&dn, clip, ch, "no memory", sink);
	return false;
}

void animc_collada_check_clips(const animc_collada *dae, animc_clip_set *set, uint32_t first,
			       animc_diag_sink *sink)
{
	for (uint32_t i = first; dae && i < set->count; i++) {
		animc_clip *clip = set->clips[i];
		const xmlNode *within = clip_animation(dae, clip->name, set->count - first);
		uint32_t rebuilt = 0;
		dae_steps steps = { 0 };

		for (uint32_t c = 0; c < clip->channel_count; c++)
			if (!check_steps(dae, within, clip, c, &steps))
				rebuilt += check_channel(dae, within, clip, c, sink);
		if (steps.rebuilt || steps.unread)
			say_steps(clip, &steps, sink);
		if (rebuilt)
			animc_clip_report(sink, ANIMC_NOTE, clip, NULL,
					  "%u bone%s whose <rotate>s are keyed together: keys added from the file's "
					  "channels where a slerp between Assimp's keys would leave their turn by more "
					  "than %g degrees",
					  rebuilt, rebuilt == 1 ? "" : "s", ANIMC_COLLADA_TOLERANCE_DEG);
	}
}
