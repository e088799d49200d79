/*
 * robotgame_import.c - the RobotGame .Animation importer: the .NET
 * XmlSerializer dialect of AnimationSequence (see NOTES.md), streamed through
 * the XML element reader into one clip.  Values are kept exactly as written
 * (exact mode reproduces them); consistency is left to animc_clip_validate,
 * except what the model cannot hold (a time list of the wrong length).
 */
#define _GNU_SOURCE   /* qsort_r */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <animc/animc_formats.h>
#include "xml/xml.h"
#include "sequence.h"

#define XSI_URI "http://www.w3.org/2001/XMLSchema-instance"
#define MAX_DEPTH 8

/* Element kinds, by where they may appear. */
typedef enum kind {
	K_UNKNOWN = 0,
	K_ROOT,
	K_ROOT_COUNT,     /* KeyFrameSequenceCount */
	K_ROOT_DURATION,
	K_SEQUENCES,
	K_SEQUENCE,
	K_MEMBER,         /* BoneName, KeyCount, ..., Has..., Fixed... (which in `member`) */
	K_LIST,           /* Translation, Rotation, Scale, Time (which in `list`) */
	K_ITEM,           /* Vector3, Quaternion, float */
	K_COMPONENT       /* X, Y, Z, W */
} kind;

typedef struct importer {
	animc_diag_sink *sink;
	animc_clip *clip;
	animc_status status;
	kind stack[MAX_DEPTH];
	const char *names[MAX_DEPTH];  /* open elements, for messages */
	int member, list;           /* which member/list element is open */
	bool is_nil[MAX_DEPTH];
	/* A list marked xsi:nil: empty, what it holds skipped (said once). */
	bool is_nil_list[MAX_DEPTH], is_nil_list_said[MAX_DEPTH];
	bool root_seen, root_count_seen, root_duration_seen, sequences_seen;
	animc_rg_sequence seq;
	float item[4];
	unsigned item_seen;         /* bit per component */
} importer;

static animc_xml_action fail(importer *im, animc_status status, const animc_xml_element *el,
			     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static animc_xml_action fail(importer *im, animc_status status, const animc_xml_element *el,
			     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(im->sink, ANIMC_ERROR, el ? el->line : 0, el ? el->column : 0, -1, fmt, ap);
	va_end(ap);
	if (im->status == ANIMC_OK)
		im->status = status;
	return ANIMC_XML_STOP;
}

/* Stop on an error already reported. */
static animc_xml_action stop(importer *im, animc_status status)
{
	if (im->status == ANIMC_OK)
		im->status = status;
	return ANIMC_XML_STOP;
}

static kind classify(importer *im, const animc_xml_element *el)
{
	kind parent = el->depth ? im->stack[el->depth - 1] : K_UNKNOWN;
	const char *n = el->name;
	int i;

	/* XmlSerializer matches a member by its name and namespace, and the
	 * members of AnimationSequence are in none: <xsd:Duration> is another
	 * element, which it skips. */
	if (el->depth > 0 && el->uri && el->uri[0])
		return K_UNKNOWN;
	switch (parent) {
	case K_UNKNOWN:
		return el->depth == 0 && strcmp(n, "AnimationSequence") == 0 ? K_ROOT : K_UNKNOWN;
	case K_ROOT:
		if (strcmp(n, "KeyFrameSequenceCount") == 0)
			return K_ROOT_COUNT;
		if (strcmp(n, "Duration") == 0)
			return K_ROOT_DURATION;
		if (strcmp(n, "KeyFrameSequences") == 0)
			return K_SEQUENCES;
		return K_UNKNOWN;
	case K_SEQUENCES:
		return strcmp(n, "KeyFrameSequence") == 0 ? K_SEQUENCE : K_UNKNOWN;
	case K_SEQUENCE:
		if ((i = animc_rg_member_find(n)) >= 0) {
			im->member = i;
			return K_MEMBER;
		}
		if ((i = animc_rg_list_find(n)) >= 0) {
			im->list = i;
			return K_LIST;
		}
		return K_UNKNOWN;
	case K_LIST:
		return strcmp(n, xnb_list_type[im->list]) == 0 ? K_ITEM : K_UNKNOWN;
	case K_ITEM:
		if (im->list == XNB_LIST_TIME)
			return K_UNKNOWN;
		if (n[0] && !n[1] && (n[0] == 'X' || n[0] == 'Y' || n[0] == 'Z' ||
				      (n[0] == 'W' && im->list == XNB_LIST_ROTATION)))
			return K_COMPONENT;
		return K_UNKNOWN;
	default:
		return K_UNKNOWN;
	}
}

static void warn_unknown(importer *im, const animc_xml_element *el)
{
	const char *parent = im->names[el->depth - 1];

	if (el->uri && el->uri[0])
		animc_diag_report_kind(im->sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_ELEMENT, el->line, el->column,
				       "unknown element <%s%s%s> in <%s> ignored: it is in the namespace '%s', "
				       "and .NET's XmlSerializer reads the elements of this file in none "
				       "(remove its prefix or xmlns)", el->prefix ? el->prefix : "",
				       el->prefix ? ":" : "", el->name, parent, el->uri);
	else
		animc_diag_report_kind(im->sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_ELEMENT, el->line, el->column,
				       "unknown element <%s> in <%s> ignored: check its "
				       "spelling (names are case-sensitive)", el->name, parent);
}

/* What a list marked xsi:nil holds: .NET's XmlSerializer reads the list
 * as none (ReadNull) and skips it, and so does animc, saying so once. */
static void warn_nil_content(importer *im, uint32_t list_depth, uint32_t line, uint32_t column)
{
	if (im->is_nil_list_said[list_depth])
		return;
	im->is_nil_list_said[list_depth] = true;
	animc_diag_report_kind(im->sink, ANIMC_WARNING, ANIMC_WARN_NIL_CONTENT, line, column,
			       "<%s> is xsi:nil=\"true\" (an empty list), and what it holds is ignored: "
			       "remove xsi:nil, or the content", im->names[list_depth]);
}

static animc_xml_action on_start(void *user, const animc_xml_element *el)
{
	importer *im = user;
	kind k;

	if (el->depth > 0 && im->is_nil_list[el->depth - 1]) {
		warn_nil_content(im, el->depth - 1, el->line, el->column);
		return ANIMC_XML_SKIP;
	}
	k = classify(im, el);

	if (el->depth == 0 && k != K_ROOT)
		return fail(im, ANIMC_ERR_PARSE, el,
			    "the root element is <%s>, not <AnimationSequence>", el->name);
	if (el->depth == 0 && el->uri)
		return fail(im, ANIMC_ERR_PARSE, el,
			    "the root element <AnimationSequence> is in the namespace '%s'; .NET's "
			    "XmlSerializer reads it in none, and refuses this file (remove the xmlns)", el->uri);
	if (k == K_UNKNOWN) {
		warn_unknown(im, el);
		return ANIMC_XML_SKIP;
	}
	im->stack[el->depth] = k;
	im->names[el->depth] = el->name;
	im->is_nil[el->depth] = animc_xml_attribute_is_true(el, "nil", XSI_URI);
	im->is_nil_list[el->depth] = im->is_nil[el->depth] && (k == K_SEQUENCES || k == K_LIST);
	im->is_nil_list_said[el->depth] = false;
	switch (k) {
	case K_ROOT:
		im->root_seen = true;
		im->clip->line = el->line;
		break;
	case K_SEQUENCES:
		if (im->sequences_seen)
			return fail(im, ANIMC_ERR_PARSE, el, "a second <KeyFrameSequences> list");
		im->sequences_seen = true;
		break;
	case K_SEQUENCE:
		animc_rg_sequence_begin(&im->seq, el->line);
		break;
	case K_LIST:
		if (im->seq.list_line[im->list])
			return fail(im, ANIMC_ERR_PARSE, el, "a second <%s> list in one sequence",
				    xnb_list_field[im->list]);
		im->seq.list_line[im->list] = el->line;
		im->seq.list_column[im->list] = el->column;
		break;
	case K_ITEM:
		im->item_seen = 0;
		break;
	default:
		break;
	}
	return ANIMC_XML_CONTINUE;
}

static animc_xml_action on_end(void *user, const animc_xml_element *el, const char *text,
			       size_t len, bool stray)
{
	importer *im = user;
	kind k = im->stack[el->depth];
	bool is_nil = im->is_nil[el->depth];
	bool container = k == K_ROOT || k == K_SEQUENCES || k == K_SEQUENCE || k == K_LIST ||
			 (k == K_ITEM && im->list != XNB_LIST_TIME);
	animc_status status;

	if (im->is_nil_list[el->depth]) {
		size_t n = len;

		animc_xs_trim(text, &n);
		if (stray || n)
			warn_nil_content(im, el->depth, el->line, el->column);
		return ANIMC_XML_CONTINUE;
	}
	if (stray)
		return fail(im, ANIMC_ERR_PARSE, el, "text mixed with elements inside <%s>", el->name);
	if (container) {
		size_t n = len;

		animc_xs_trim(text, &n);
		if (n)
			return fail(im, ANIMC_ERR_PARSE, el, "unexpected text inside <%s>", el->name);
	} else if (is_nil && !(k == K_MEMBER && im->member == ANIMC_RG_BONE_NAME)) {
		return fail(im, ANIMC_ERR_PARSE, el, "<%s> is nil; it needs a value", el->name);
	}

	switch (k) {
	case K_ROOT_COUNT: {
		int32_t v;

		if (im->root_count_seen)
			return fail(im, ANIMC_ERR_PARSE, el, "a second <KeyFrameSequenceCount>");
		im->root_count_seen = true;
		if (!animc_xml_leaf_int(el, text, len, &v, im->sink))
			return stop(im, ANIMC_ERR_PARSE);
		im->clip->declared_channel_count = v;
		break;
	}
	case K_ROOT_DURATION:
		if (im->root_duration_seen)
			return fail(im, ANIMC_ERR_PARSE, el, "a second <Duration> in <AnimationSequence>");
		im->root_duration_seen = true;
		status = animc_rg_clip_duration(el, text, len, &im->clip->duration_s, im->sink);
		if (status != ANIMC_OK)
			return stop(im, status);
		break;
	case K_SEQUENCE:
		status = animc_rg_sequence_end(&im->seq, im->clip, el, im->sink);
		if (status != ANIMC_OK)
			return stop(im, status);
		break;
	case K_MEMBER:
		status = animc_rg_sequence_member(&im->seq, (animc_rg_member)im->member, el,
						  is_nil ? NULL : text, is_nil ? 0 : len, im->sink);
		if (status != ANIMC_OK)
			return stop(im, status);
		break;
	case K_ITEM: {
		float v[4];

		if (im->list == XNB_LIST_TIME) {
			if (!animc_xml_leaf_float(el, text, len, v, im->sink))
				return stop(im, ANIMC_ERR_PARSE);
			animc_rg_sequence_note_value(&im->seq, XNB_LIST_TIME, im->seq.lists[XNB_LIST_TIME].count, v[0],
						     el);
		} else {
			static const char comps[] = "XYZW";

			for (unsigned c = 0; c < xnb_list_width[im->list]; c++) {
				if (!(im->item_seen & (1u << c)))
					return fail(im, ANIMC_ERR_INVALID, el, "<%s> has no <%c>", el->name,
						    comps[c]);
			}
			memcpy(v, im->item, sizeof v);
		}
		if (!animc_rg_floats_push(&im->seq.lists[im->list], v, xnb_list_width[im->list]))
			return fail(im, ANIMC_ERR_NOMEM, el, "out of memory");
		if (im->list == XNB_LIST_ROTATION)
			animc_rg_sequence_note_rotation(&im->seq, im->seq.lists[im->list].count / 4 - 1, v, el);
		break;
	}
	case K_COMPONENT: {
		unsigned c = el->name[0] == 'W' ? 3 : (unsigned)(el->name[0] - 'X');

		if (im->item_seen & (1u << c))
			return fail(im, ANIMC_ERR_PARSE, el, "a second <%s> in one value", el->name);
		im->item_seen |= 1u << c;
		if (!animc_xml_leaf_float(el, text, len, &im->item[c], im->sink))
			return stop(im, ANIMC_ERR_PARSE);
		animc_rg_sequence_note_value(&im->seq, im->list, im->seq.lists[im->list].count + c, im->item[c], el);
		break;
	}
	default:
		break;
	}
	return ANIMC_XML_CONTINUE;
}

static const char *bone_of(const animc_clip *clip, uint32_t i)
{
	return clip->channels[i].bone ? clip->channels[i].bone : "";
}

/* By bone name, then by position. */
static int compare_channel_names(const void *a, const void *b, void *user)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(bone_of(user, x), bone_of(user, y));

	return c ? c : (x > y) - (x < y);
}

/* Sequences of one bone name: the runtime binds bones by name, and of two
 * sequences of one bone the later one's values win (the original played
 * the same).  Written as they are, with a warning per name. */
static animc_status warn_shared_bone_names(const animc_clip *clip, animc_diag_sink *sink)
{
	uint32_t n = clip->channel_count, *order;

	if (n < 2)
		return ANIMC_OK;
	order = malloc((size_t)n * sizeof *order);
	if (!order)
		return ANIMC_ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof *order, compare_channel_names, (void *)(uintptr_t)clip);
	for (uint32_t i = 0, end; i < n; i = end) {
		const char *name = bone_of(clip, order[i]);

		for (end = i + 1; end < n && strcmp(bone_of(clip, order[end]), name) == 0; end++)
			;
		if (end - i > 1)
			animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_BONE_NAME_CLASH, clip->channels[order[end - 1]].line, 0,
					  "%u sequences are named '%s' (the first at line %u); the runtime finds "
					  "bones by name and plays the last one's values: give each its own name",
					  end - i, name, clip->channels[order[i]].line);
	}
	free(order);
	return ANIMC_OK;
}

static animc_status import_robotgame(const animc_import_request *req, animc_clip_set *out,
				     animc_diag_sink *sink)
{
	static const animc_xml_handler handler = { on_start, on_end };
	importer im;
	animc_status status;

	memset(&im, 0, sizeof im);
	im.sink = sink;
	im.clip = animc_clip_create("");
	if (!im.clip)
		return ANIMC_ERR_NOMEM;
	status = animc_xml_parse(req->data, req->size, MAX_DEPTH, &handler, &im, sink);
	if (im.status != ANIMC_OK)
		status = im.status;
	if (status == ANIMC_OK && !im.root_seen) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "no <AnimationSequence> element");
		status = ANIMC_ERR_PARSE;
	}
	if (status == ANIMC_OK && !im.root_duration_seen) {
		animc_diag_report(sink, ANIMC_ERROR, im.clip->line, 0,
				  "<AnimationSequence> has no <Duration>");
		status = ANIMC_ERR_INVALID;
	}
	if (status == ANIMC_OK && !im.root_count_seen)
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_MISSING_SEQUENCE_COUNT, im.clip->line, 0,
				  "<AnimationSequence> has no <KeyFrameSequenceCount>, which the original "
				  "pipeline needs: add it (the default mode writes the number of sequences; "
				  "--exact cannot)");
	animc_rg_sequence_release(&im.seq);
	if (status == ANIMC_OK)
		status = warn_shared_bone_names(im.clip, sink);
	if (status != ANIMC_OK) {
		animc_clip_destroy(im.clip);
		return status;
	}
	out->is_single_asset = true;
	im.clip->is_sequence_source = true;
	return animc_clip_set_add(out, im.clip);
}

static bool has_extension(const char *path, const char *ext)
{
	size_t n = path ? strlen(path) : 0, e = strlen(ext);

	return n > e && strcasecmp(path + n - e, ext) == 0;
}

static animc_probe probe_robotgame(const char *path, const uint8_t *head, size_t size)
{
	char root[64];

	if (animc_xml_root_name(head, size, root, sizeof root) && strcmp(root, "AnimationSequence") == 0)
		return ANIMC_PROBE_CONTENT;
	/* Unreadable, empty, or another root: a .Animation file is still ours to
	 * report on, unless an importer that knows its content claims it. */
	return has_extension(path, ".animation") ? ANIMC_PROBE_EXTENSION : ANIMC_PROBE_NO;
}

const animc_importer animc_importer_robotgame = {
	.name = "robotgame",
	.description = "RobotGame .Animation XML (XmlSerializer AnimationSequence)",
	.probe = probe_robotgame,
	.import = import_robotgame,
};
