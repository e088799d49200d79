/*
 * robotgame_import.c - the RobotGame .Animation importer: the .NET
 * XmlSerializer dialect of AnimationSequence (see NOTES.md), streamed through
 * the XML element reader into one clip.  Values are kept exactly as written
 * (exact mode reproduces them); consistency is left to animc_clip_validate,
 * except what the model cannot hold (a time list of the wrong length).
 */
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
	K_BONE,
	K_KEY_COUNT,
	K_DURATION,
	K_KEY_INTERVAL,
	K_FLAG,           /* Has..., Fixed... (index in `flag`) */
	K_LIST,           /* Translation, Rotation, Scale, Time (index in `list`) */
	K_ITEM,           /* Vector3, Quaternion, float */
	K_COMPONENT       /* X, Y, Z, W */
} kind;

enum { L_TRANSLATION, L_ROTATION, L_SCALE, L_TIME, L_COUNT };
enum { F_HAS_T, F_HAS_R, F_HAS_S, F_HAS_TIME, F_FIXED_T, F_FIXED_R, F_FIXED_S, F_COUNT };
/* sequence.h, which makes the channel, counts lists and flags in this order. */
_Static_assert((int)L_TIME == (int)ANIMC_RG_TIME && (int)L_COUNT == (int)ANIMC_RG_LIST_COUNT &&
		       (int)F_FIXED_T == (int)ANIMC_RG_FIXED_TRANSLATION &&
		       (int)F_COUNT == (int)ANIMC_RG_FLAG_COUNT,
	       "lists and flags in the order of sequence.h");

static const char *const list_tags[L_COUNT] = { "Translation", "Rotation", "Scale", "Time" };
static const char *const item_tags[L_COUNT] = { "Vector3", "Quaternion", "Vector3", "float" };
static const unsigned list_width[L_COUNT] = { 3, 4, 3, 1 };
static const char *const flag_tags[F_COUNT] = {
	"HasTranslation", "HasRotation", "HasScale", "HasTime",
	"FixedTranslation", "FixedRotation", "FixedScale",
};

/* A growable float array, reused from sequence to sequence. */
typedef struct floats {
	float *v;
	size_t count, capacity;
} floats;

typedef struct sequence {
	uint32_t line;
	char *bone;
	size_t bone_len;
	int32_t key_count;
	uint32_t key_count_line, key_count_column;
	float duration_s, key_interval_s;
	bool flags[F_COUNT];
	uint32_t seen;              /* bit per scalar field, for duplicates */
	bool list_seen[L_COUNT];
	uint32_t list_line[L_COUNT];
} sequence;

enum { SEEN_BONE = 1u << 0, SEEN_KEY_COUNT = 1u << 1, SEEN_DURATION = 1u << 2,
       SEEN_KEY_INTERVAL = 1u << 3, SEEN_FLAG0 = 1u << 4 };

typedef struct importer {
	animc_diag_sink *sink;
	animc_clip *clip;
	animc_status status;
	kind stack[MAX_DEPTH];
	const char *names[MAX_DEPTH];  /* open elements, for messages */
	int flag, list;             /* which flag/list element is open */
	bool is_nil[MAX_DEPTH];
	bool root_seen, root_count_seen, root_duration_seen, sequences_seen;
	sequence seq;
	floats lists[L_COUNT];
	float item[4];
	unsigned item_seen;         /* bit per component */
	uint32_t item_line, item_column;
	char bone_buf[256];
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

static bool push_floats(floats *f, const float *v, unsigned n)
{
	if (f->count + n > f->capacity) {
		size_t capacity = f->capacity ? f->capacity * 2 : 256;
		float *grown;

		if (capacity > SIZE_MAX / sizeof *grown)
			return false;
		grown = realloc(f->v, capacity * sizeof *grown);
		if (!grown)
			return false;
		f->v = grown;
		f->capacity = capacity;
	}
	memcpy(f->v + f->count, v, n * sizeof *v);
	f->count += n;
	return true;
}

static int index_of(const char *name, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

static kind classify(importer *im, const animc_xml_element *el)
{
	kind parent = el->depth ? im->stack[el->depth - 1] : K_UNKNOWN;
	const char *n = el->name;
	int i;

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
		if (strcmp(n, "BoneName") == 0)
			return K_BONE;
		if (strcmp(n, "KeyCount") == 0)
			return K_KEY_COUNT;
		if (strcmp(n, "Duration") == 0)
			return K_DURATION;
		if (strcmp(n, "KeyInterval") == 0)
			return K_KEY_INTERVAL;
		if ((i = index_of(n, flag_tags, F_COUNT)) >= 0) {
			im->flag = i;
			return K_FLAG;
		}
		if ((i = index_of(n, list_tags, L_COUNT)) >= 0) {
			im->list = i;
			return K_LIST;
		}
		return K_UNKNOWN;
	case K_LIST:
		return strcmp(n, item_tags[im->list]) == 0 ? K_ITEM : K_UNKNOWN;
	case K_ITEM:
		if (im->list == L_TIME)
			return K_UNKNOWN;
		if (n[0] && !n[1] && (n[0] == 'X' || n[0] == 'Y' || n[0] == 'Z' ||
				      (n[0] == 'W' && im->list == L_ROTATION)))
			return K_COMPONENT;
		return K_UNKNOWN;
	default:
		return K_UNKNOWN;
	}
}

static bool nil_attribute(const animc_xml_element *el)
{
	const char *v;
	size_t n;
	bool b;

	return animc_xml_attribute(el, "nil", XSI_URI, &v, &n) && animc_xs_bool(v, n, &b) && b;
}

static animc_xml_action on_start(void *user, const animc_xml_element *el)
{
	importer *im = user;
	kind k = classify(im, el);

	if (el->depth == 0 && k != K_ROOT)
		return fail(im, ANIMC_ERR_PARSE, el,
			    "the root element is <%s>, not <AnimationSequence>", el->name);
	if (k == K_UNKNOWN) {
		animc_diag_report(im->sink, ANIMC_WARNING, el->line, el->column,
				  "unknown element <%s> in <%s> ignored", el->name,
				  im->names[el->depth - 1]);
		return ANIMC_XML_SKIP;
	}
	im->stack[el->depth] = k;
	im->names[el->depth] = el->name;
	im->is_nil[el->depth] = nil_attribute(el);
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
		memset(&im->seq, 0, sizeof im->seq);
		im->seq.line = el->line;
		for (int l = 0; l < L_COUNT; l++)
			im->lists[l].count = 0;
		break;
	case K_LIST:
		if (im->seq.list_seen[im->list])
			return fail(im, ANIMC_ERR_PARSE, el, "a second <%s> list in one sequence",
				    list_tags[im->list]);
		im->seq.list_seen[im->list] = true;
		im->seq.list_line[im->list] = el->line;
		break;
	case K_ITEM:
		im->item_seen = 0;
		im->item_line = el->line;
		im->item_column = el->column;
		break;
	default:
		break;
	}
	return ANIMC_XML_CONTINUE;
}

/* Parse a leaf's text as xs:float, or fail naming the element. */
static bool leaf_float(importer *im, const animc_xml_element *el, const char *text, size_t len,
		       float *out)
{
	if (animc_xs_float(text, len, out))
		return true;
	text = animc_xs_trim(text, &len);
	fail(im, ANIMC_ERR_PARSE, el, "<%s> holds '%.*s', which is not an xs:float", el->name,
	     (int)(len > 60 ? 60 : len), text);
	return false;
}

static bool leaf_int(importer *im, const animc_xml_element *el, const char *text, size_t len,
		     int32_t *out)
{
	bool out_of_range;

	if (animc_xs_int(text, len, out, &out_of_range))
		return true;
	text = animc_xs_trim(text, &len);
	fail(im, ANIMC_ERR_PARSE, el, out_of_range ? "<%s> holds %.*s, which does not fit in an int32"
						   : "<%s> holds '%.*s', which is not an xs:int",
	     el->name, (int)(len > 60 ? 60 : len), text);
	return false;
}

/* Mark a scalar field of the sequence as seen; fail on a second one. */
static bool once(importer *im, const animc_xml_element *el, uint32_t bit)
{
	if (im->seq.seen & bit) {
		fail(im, ANIMC_ERR_PARSE, el, "a second <%s> in one sequence", el->name);
		return false;
	}
	im->seq.seen |= bit;
	return true;
}

static animc_xml_action end_sequence(importer *im, const animc_xml_element *el)
{
	sequence *s = &im->seq;
	static const char *const required[] = { "KeyCount", "Duration", "KeyInterval" };
	static const uint32_t required_bits[] = { SEEN_KEY_COUNT, SEEN_DURATION, SEEN_KEY_INTERVAL };
	animc_rg_sequence rg = { s->bone, s->key_count, s->duration_s, s->key_interval_s, { 0 },
				 { 0 }, { 0 }, s->line };
	char message[512];
	animc_xml_element at;

	for (int i = 0; i < 3; i++)
		if (!(s->seen & required_bits[i]))
			return fail(im, ANIMC_ERR_INVALID, el,
				    "sequence of bone '%s' has no <%s>", s->bone ? s->bone : "",
				    required[i]);
	memcpy(rg.flags, s->flags, sizeof rg.flags);
	for (int l = 0; l < L_COUNT; l++) {
		rg.lists[l] = im->lists[l].v;
		rg.list_floats[l] = im->lists[l].count;
	}
	at = *el;
	switch (animc_rg_sequence_add(im->clip, &rg, message, sizeof message)) {
	case ANIMC_RG_OK:
		return ANIMC_XML_CONTINUE;
	case ANIMC_RG_NEGATIVE_KEY_COUNT:
		at.line = s->key_count_line;
		at.column = s->key_count_column;
		return fail(im, ANIMC_ERR_INVALID, &at, "%s", message);
	case ANIMC_RG_TIME_COUNT:
		at.line = s->list_line[L_TIME] ? s->list_line[L_TIME] : el->line;
		at.column = 0;
		return fail(im, ANIMC_ERR_INVALID, &at, "%s", message);
	case ANIMC_RG_LIMIT:
		return fail(im, ANIMC_ERR_LIMIT, el, "%s", message);
	default:
		return fail(im, ANIMC_ERR_NOMEM, el, "%s", message);
	}
}

static animc_xml_action on_end(void *user, const animc_xml_element *el, const char *text,
			       size_t len, bool stray)
{
	importer *im = user;
	kind k = im->stack[el->depth];
	sequence *s = &im->seq;
	bool is_nil = im->is_nil[el->depth];
	bool container = k == K_ROOT || k == K_SEQUENCES || k == K_SEQUENCE || k == K_LIST ||
			 (k == K_ITEM && im->list != L_TIME);

	if (stray)
		return fail(im, ANIMC_ERR_PARSE, el, "text mixed with elements inside <%s>", el->name);
	if (container) {
		size_t n = len;

		animc_xs_trim(text, &n);
		if (n)
			return fail(im, ANIMC_ERR_PARSE, el, "unexpected text inside <%s>", el->name);
	} else if (is_nil && k != K_BONE) {
		return fail(im, ANIMC_ERR_PARSE, el, "<%s> is nil; it needs a value", el->name);
	}

	switch (k) {
	case K_ROOT_COUNT: {
		int32_t v;

		if (im->root_count_seen)
			return fail(im, ANIMC_ERR_PARSE, el, "a second <KeyFrameSequenceCount>");
		im->root_count_seen = true;
		if (!leaf_int(im, el, text, len, &v))
			return ANIMC_XML_STOP;
		im->clip->declared_channel_count = v;
		break;
	}
	case K_ROOT_DURATION:
		if (im->root_duration_seen)
			return fail(im, ANIMC_ERR_PARSE, el, "a second <Duration> in <AnimationSequence>");
		im->root_duration_seen = true;
		if (!leaf_float(im, el, text, len, &im->clip->duration_s))
			return ANIMC_XML_STOP;
		break;
	case K_SEQUENCE:
		return end_sequence(im, el);
	case K_BONE: {
		const char *b = text;
		size_t n = len;

		if (!once(im, el, SEEN_BONE))
			return ANIMC_XML_STOP;
		b = animc_xs_trim(b, &n);
		if (is_nil)
			n = 0;
		s->bone = im->bone_buf;
		if (n >= sizeof im->bone_buf) {
			/* Long names are rare: keep them in the clip's arena. */
			s->bone = animc_arena_strndup(&im->clip->arena, b, n);
			if (!s->bone)
				return fail(im, ANIMC_ERR_NOMEM, el, "out of memory");
		} else {
			memcpy(im->bone_buf, b, n);
			im->bone_buf[n] = '\0';
		}
		s->bone_len = n;
		break;
	}
	case K_KEY_COUNT:
		if (!once(im, el, SEEN_KEY_COUNT) || !leaf_int(im, el, text, len, &s->key_count))
			return ANIMC_XML_STOP;
		s->key_count_line = el->line;
		s->key_count_column = el->column;
		break;
	case K_DURATION:
		if (!once(im, el, SEEN_DURATION) || !leaf_float(im, el, text, len, &s->duration_s))
			return ANIMC_XML_STOP;
		break;
	case K_KEY_INTERVAL:
		if (!once(im, el, SEEN_KEY_INTERVAL) || !leaf_float(im, el, text, len, &s->key_interval_s))
			return ANIMC_XML_STOP;
		break;
	case K_FLAG:
		if (!once(im, el, SEEN_FLAG0 << im->flag))
			return ANIMC_XML_STOP;
		if (!animc_xs_bool(text, len, &s->flags[im->flag])) {
			text = animc_xs_trim(text, &len);
			return fail(im, ANIMC_ERR_PARSE, el, "<%s> holds '%.*s', which is not an xs:boolean",
				    el->name, (int)(len > 60 ? 60 : len), text);
		}
		break;
	case K_ITEM: {
		float v[4];

		if (im->list == L_TIME) {
			if (!leaf_float(im, el, text, len, v))
				return ANIMC_XML_STOP;
		} else {
			static const char comps[] = "XYZW";

			for (unsigned c = 0; c < list_width[im->list]; c++) {
				if (!(im->item_seen & (1u << c)))
					return fail(im, ANIMC_ERR_INVALID, el, "<%s> has no <%c>", el->name,
						    comps[c]);
			}
			memcpy(v, im->item, sizeof v);
		}
		if (!push_floats(&im->lists[im->list], v, list_width[im->list]))
			return fail(im, ANIMC_ERR_NOMEM, el, "out of memory");
		break;
	}
	case K_COMPONENT: {
		unsigned c = el->name[0] == 'W' ? 3 : (unsigned)(el->name[0] - 'X');

		if (im->item_seen & (1u << c))
			return fail(im, ANIMC_ERR_PARSE, el, "a second <%s> in one value", el->name);
		im->item_seen |= 1u << c;
		if (!leaf_float(im, el, text, len, &im->item[c]))
			return ANIMC_XML_STOP;
		break;
	}
	default:
		break;
	}
	return ANIMC_XML_CONTINUE;
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
		animc_diag_report(sink, ANIMC_WARNING, im.clip->line, 0,
				  "<AnimationSequence> has no <KeyFrameSequenceCount>");
	for (int l = 0; l < L_COUNT; l++)
		free(im.lists[l].v);
	if (status != ANIMC_OK) {
		animc_clip_destroy(im.clip);
		return status;
	}
	out->is_single_asset = true;
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
