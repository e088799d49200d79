/*
 * xna_clips.c - the clip-split sidecar of the XNA skinned-model samples: an
 * <XnaContent> document whose <Asset> type's last name is
 * AnimationDefinition (SkinnedModelPipeline.AnimationDefinition, in any
 * namespace), read into an animc_split.  Grammar (NOTES.md):
 *
 *   XnaContent > Asset Type="...AnimationDefinition"
 *     originalClipName   the take to split
 *     originalFrameCount frame k of the take lies at k * duration / this
 *     ClipParts > Item*  ClipName, StartFrame, EndFrame (inclusive)
 *
 * Every other element, a missing member, a bad number or a second Asset is
 * an error at its line.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc_formats.h>
#include "xml/xml.h"

#define MAX_DEPTH 6
#define MAX_PARTS 100000

enum { M_NAME, M_START, M_END };

typedef struct reader {
	animc_split_doc *doc;
	animc_diag_sink *sink;
	animc_status status;
	bool has_asset, has_take, has_frames, has_parts;
	bool item_has[3];
	uint32_t item_line;
	uint32_t name_line;           /* the part's <ClipName> */
	animc_xml_element parts_at;   /* <ClipParts>, for its line */
	/* The open member of the Asset (depth 2) and of a part (depth 4),
	 * which an element nested in it is said to be inside. */
	const char *field, *member;
	animc_split_part part;
	size_t capacity;
} reader;

static animc_xml_action fail(reader *r, animc_status status, const animc_xml_element *el, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static animc_xml_action fail(reader *r, animc_status status, const animc_xml_element *el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(r->sink, ANIMC_ERROR, el ? el->line : 0, el ? el->column : 0, -1, fmt, ap);
	va_end(ap);
	if (r->status == ANIMC_OK)
		r->status = status;
	return ANIMC_XML_STOP;
}

/* True when a Type value names AnimationDefinition: its last name, after
 * the last '.' or ':' (an alias stands for a namespace). */
static bool names_definition(const char *type, size_t len)
{
	static const char last[] = "AnimationDefinition";
	size_t n = sizeof last - 1;

	type = animc_xs_trim(type, &len);
	if (len < n || memcmp(type + len - n, last, n) != 0)
		return false;
	return len == n || type[len - n - 1] == '.' || type[len - n - 1] == ':';
}

/* `name` as one of `names` (a string that outlives the parse), or NULL. */
static const char *known_name(const char *name, const char *const *names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(name, names[i]) == 0)
			return names[i];
	return NULL;
}

static animc_xml_action on_start(void *user, const animc_xml_element *el)
{
	static const char *const fields[] = { "originalClipName", "originalFrameCount", "ClipParts" };
	static const char *const members[] = { "ClipName", "StartFrame", "EndFrame" };
	reader *r = user;
	const char *type;
	size_t len;

	switch (el->depth) {
	case 0:
		if (strcmp(el->name, "XnaContent") != 0)
			return fail(r, ANIMC_ERR_PARSE, el, "the root element is <%s>, not <XnaContent>", el->name);
		return ANIMC_XML_CONTINUE;
	case 1:
		if (strcmp(el->name, "Asset") != 0)
			return fail(r, ANIMC_ERR_PARSE, el, "unexpected <%s> in <XnaContent>", el->name);
		if (r->has_asset)
			return fail(r, ANIMC_ERR_PARSE, el, "a second <Asset>");
		r->has_asset = true;
		if (!animc_xml_attribute(el, "Type", NULL, &type, &len))
			return fail(r, ANIMC_ERR_PARSE, el, "<Asset> has no Type attribute");
		if (!names_definition(type, len))
			return fail(r, ANIMC_ERR_PARSE, el, "the <Asset> is of type '%.*s', not an AnimationDefinition",
				    ANIMC_XML_QUOTE_LEN(len), type);
		return ANIMC_XML_CONTINUE;
	case 2:
		if (!(r->field = known_name(el->name, fields, 3)))
			return fail(r, ANIMC_ERR_PARSE, el, "unexpected <%s> in an AnimationDefinition", el->name);
		if (r->field == fields[2]) {
			if (r->has_parts)
				return fail(r, ANIMC_ERR_PARSE, el, "a second <ClipParts>");
			r->has_parts = true;
			r->parts_at = (animc_xml_element){ .name = "ClipParts", .line = el->line, .column = el->column };
		}
		return ANIMC_XML_CONTINUE;
	case 3:
		if (r->field != fields[2])
			return fail(r, ANIMC_ERR_PARSE, el, "unexpected <%s> inside <%s>", el->name, r->field);
		if (strcmp(el->name, "Item") != 0)
			return fail(r, ANIMC_ERR_PARSE, el, "unexpected <%s> in <ClipParts>: each part is an <Item>",
				    el->name);
		memset(r->item_has, 0, sizeof r->item_has);
		memset(&r->part, 0, sizeof r->part);
		r->item_line = el->line;
		r->part.line = el->line;
		r->part.start.is_frame = r->part.end.is_frame = true;
		return ANIMC_XML_CONTINUE;
	case 4:
		if ((r->member = known_name(el->name, members, 3)))
			return ANIMC_XML_CONTINUE;
		return fail(r, ANIMC_ERR_PARSE, el, "unexpected <%s> in a clip part <Item>", el->name);
	default:
		/* The first element this deep fails: its parent is the member. */
		return fail(r, ANIMC_ERR_PARSE, el, "unexpected <%s> inside <%s>", el->name, r->member);
	}
}

static char *copy_text(reader *r, const char *text, size_t len)
{
	text = animc_xs_trim(text, &len);
	return animc_arena_strndup(&r->doc->arena, text, len);
}

static animc_xml_action end_part(reader *r, const animc_xml_element *el)
{
	static const char *const names[3] = { "ClipName", "StartFrame", "EndFrame" };
	animc_split_part *grown;

	for (int m = 0; m < 3; m++)
		if (!r->item_has[m])
			return fail(r, ANIMC_ERR_PARSE, el, "the clip part has no <%s>", names[m]);
	if (r->doc->split.part_count == MAX_PARTS)
		return fail(r, ANIMC_ERR_LIMIT, el, "more than %d clip parts", MAX_PARTS);
	if (r->doc->split.part_count == r->capacity) {
		size_t capacity = r->capacity ? r->capacity * 2 : 8;

		grown = realloc(r->doc->parts, capacity * sizeof *grown);
		if (!grown)
			return fail(r, ANIMC_ERR_NOMEM, el, "out of memory");
		r->doc->parts = grown;
		uint32_t *lines = realloc(r->doc->name_lines, capacity * sizeof *lines);
		if (!lines)
			return fail(r, ANIMC_ERR_NOMEM, el, "out of memory");
		r->doc->name_lines = lines;
		r->capacity = capacity;
	}
	r->doc->name_lines[r->doc->split.part_count] = r->name_line;
	r->doc->parts[r->doc->split.part_count++] = r->part;
	r->doc->split.parts = r->doc->parts;
	return ANIMC_XML_CONTINUE;
}

static animc_xml_action on_end(void *user, const animc_xml_element *el, const char *text, size_t len,
			       bool stray)
{
	reader *r = user;
	int32_t value;
	size_t n = len;

	if (stray)
		return fail(r, ANIMC_ERR_PARSE, el, "text mixed with elements inside <%s>", el->name);
	if (el->depth <= 1 || (el->depth == 2 && strcmp(el->name, "ClipParts") == 0)) {
		animc_xs_trim(text, &n);
		if (n)
			return fail(r, ANIMC_ERR_PARSE, el, "unexpected text inside <%s>", el->name);
		return ANIMC_XML_CONTINUE;
	}
	if (el->depth == 2 && strcmp(el->name, "originalClipName") == 0) {
		if (r->has_take)
			return fail(r, ANIMC_ERR_PARSE, el, "a second <originalClipName>");
		r->has_take = true;
		r->doc->split.take = copy_text(r, text, len);
		r->doc->split.take_line = el->line;
		return r->doc->split.take ? ANIMC_XML_CONTINUE : fail(r, ANIMC_ERR_NOMEM, el, "out of memory");
	}
	if (el->depth == 2 && strcmp(el->name, "originalFrameCount") == 0) {
		if (r->has_frames)
			return fail(r, ANIMC_ERR_PARSE, el, "a second <originalFrameCount>");
		r->has_frames = true;
		if (!animc_xml_leaf_int(el, text, len, &value, r->sink)) {
			if (r->status == ANIMC_OK)
				r->status = ANIMC_ERR_PARSE;
			return ANIMC_XML_STOP;
		}
		if (value <= 0)
			return fail(r, ANIMC_ERR_INVALID, el, "<originalFrameCount> is %d; it must be above 0",
				    (int)value);
		r->doc->split.frame_count = value;
		return ANIMC_XML_CONTINUE;
	}
	if (el->depth == 3)
		return end_part(r, el);
	/* depth 4: a member of a part */
	if (strcmp(el->name, "ClipName") == 0) {
		if (r->item_has[M_NAME])
			return fail(r, ANIMC_ERR_PARSE, el, "a second <ClipName>");
		r->item_has[M_NAME] = true;
		r->part.name = copy_text(r, text, len);
		r->name_line = el->line;
		if (!r->part.name)
			return fail(r, ANIMC_ERR_NOMEM, el, "out of memory");
		if (!r->part.name[0])
			return fail(r, ANIMC_ERR_INVALID, el, "<ClipName> is empty");
		return ANIMC_XML_CONTINUE;
	} else {
		bool is_start = strcmp(el->name, "StartFrame") == 0;
		int m = is_start ? M_START : M_END;

		if (r->item_has[m])
			return fail(r, ANIMC_ERR_PARSE, el, "a second <%s>", el->name);
		r->item_has[m] = true;
		if (!animc_xml_leaf_int(el, text, len, &value, r->sink)) {
			if (r->status == ANIMC_OK)
				r->status = ANIMC_ERR_PARSE;
			return ANIMC_XML_STOP;
		}
		if (value < 0)
			return fail(r, ANIMC_ERR_INVALID, el, "<%s> is %d, before the take's first frame", el->name,
				    (int)value);
		(is_start ? &r->part.start : &r->part.end)->value = value;
		return ANIMC_XML_CONTINUE;
	}
}

animc_status animc_split_doc_parse(const char *path, const uint8_t *data, size_t size, animc_split_doc *out,
				   animc_diag_sink *sink)
{
	static const animc_xml_handler handler = { on_start, on_end };
	reader r;
	animc_status status;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	r.doc = out;
	r.sink = sink;
	if (path) {
		out->split.path = animc_arena_strndup(&out->arena, path, strlen(path));
		if (!out->split.path)
			return ANIMC_ERR_NOMEM;
	}
	status = animc_xml_parse(data, size, MAX_DEPTH, &handler, &r, sink);
	if (r.status != ANIMC_OK)
		status = r.status;
	if (status == ANIMC_OK) {
		if (!r.has_asset)
			fail(&r, ANIMC_ERR_PARSE, NULL, "the <XnaContent> has no <Asset>");
		else if (!r.has_take)
			fail(&r, ANIMC_ERR_PARSE, NULL, "the AnimationDefinition has no <originalClipName>");
		else if (!r.has_frames)
			fail(&r, ANIMC_ERR_PARSE, NULL, "the AnimationDefinition has no <originalFrameCount>");
		/* A take split into nothing would leave no clip, and a build
		 * would remove the take's outputs without a word. */
		else if (!r.has_parts)
			fail(&r, ANIMC_ERR_PARSE, NULL, "the AnimationDefinition has no <ClipParts>: list the take's "
			     "parts, or remove the file to build the take whole");
		else if (!out->split.part_count)
			fail(&r, ANIMC_ERR_PARSE, &r.parts_at, "the <ClipParts> lists no <Item>: list the take's parts, "
			     "or remove the file to build the take whole");
		status = r.status;
	}
	if (status != ANIMC_OK) {
		animc_split_doc_release(out);
		return status;
	}
	return ANIMC_OK;
}

void animc_split_doc_release(animc_split_doc *doc)
{
	if (!doc)
		return;
	free(doc->parts);
	free(doc->name_lines);
	animc_arena_release(&doc->arena);
	memset(doc, 0, sizeof *doc);
}

/* The Asset's Type within a UTF-8 head: the type's last name, ending the
 * attribute value. */
static bool head_names_definition(const char *head, size_t size)
{
	const char *p = head, *end = head + size;
	static const char needle[] = "AnimationDefinition";

	while (p < end) {
		const char *hit = memmem(p, (size_t)(end - p), needle, sizeof needle - 1);
		const char *after;

		if (!hit)
			return false;
		after = hit + sizeof needle - 1;
		if (after < end && (*after == '"' || *after == '\'') && hit > head &&
		    (hit[-1] == '.' || hit[-1] == ':' || hit[-1] == '"' || hit[-1] == '\''))
			return true;
		p = after;
	}
	return false;
}

bool animc_split_doc_probe(const uint8_t *head, size_t size)
{
	char root[64];
	uint8_t *copy;
	bool holds;

	/* A sidecar saved as UTF-16 ("Unicode" in Visual Studio) is read as
	 * UTF-8: the file's bytes still bound how far the type is looked for. */
	head = animc_xml_head_utf8(head, &size, &copy);
	holds = head && animc_xml_root_name(head, size, root, sizeof root) && strcmp(root, "XnaContent") == 0 &&
		head_names_definition((const char *)head, size);
	free(copy);
	return holds;
}
