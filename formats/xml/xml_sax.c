/*
 * xml_sax.c - the element reader of xml.h over libxml2's SAX2 interface.
 * The one place that configures libxml2 for untrusted input: no network, no
 * DTD (a DOCTYPE is refused, which also rules out entity expansion and
 * external entities), libxml2's own size limits, and a depth limit.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

#include "xml.h"

/* Text inside one element larger than this is refused (libxml2's own limit
 * for a text node without XML_PARSE_HUGE is 10 MB): a list of keys written
 * as one text (XNA's IntermediateSerializer writes them so) is held whole.
 * docs/build.md gives it. */
#define MAX_TEXT_BYTES ((size_t)16 << 20)

typedef struct frame {
	animc_xml_element el;
	bool has_stray_text;
} frame;

/* A place in the input: line and column (libxml2's), and the offset in
 * libxml2's own UTF-8 stream of it. */
typedef struct place {
	uint32_t line, column;
	unsigned long offset;
} place;

typedef struct reader {
	xmlParserCtxtPtr ctxt;
	const uint8_t *data;  /* the bytes libxml2 reads */
	size_t size;
	const animc_xml_handler *handler;
	void *user;
	animc_diag_sink *sink;
	uint32_t max_depth;
	frame *frames;
	uint32_t depth;       /* open elements */
	uint32_t skip_depth;  /* >0: inside a skipped subtree, this many levels */
	char *text;
	size_t text_len, text_cap;
	/* Where the last event left the parser: no markup lies between it and
	 * the next '<' (find_opening); when libxml2 converts the bytes, that
	 * '<' and what follows it, as far as its buffer then held them. */
	place mark, next_lt;
	char after_lt[12];
	animc_status status;
	bool global_error_seen;
} reader;

static void stop(reader *r, animc_status status)
{
	if (r->status == ANIMC_OK)
		r->status = status;
	xmlStopParser(r->ctxt);
}

static uint32_t line_of(reader *r)
{
	int line = xmlSAX2GetLineNumber(r->ctxt);

	return line > 0 ? (uint32_t)line : 0;
}

static uint32_t column_of(reader *r)
{
	int column = xmlSAX2GetColumnNumber(r->ctxt);

	return column > 0 ? (uint32_t)column : 0;
}

/* libxml2 reports a start tag before consuming its '>' (or "/>"): the
 * column just after the tag, where the element's text starts. */
static uint32_t column_after_tag(reader *r)
{
	uint32_t column = column_of(r);
	const xmlChar *cur = r->ctxt->input ? r->ctxt->input->cur : NULL;

	if (column && cur && cur[0] == '>')
		return column + 1;
	if (column && cur && cur[0] == '/' && cur[1] == '>')
		return column + 2;
	return column;
}

/* Move `pos` from p on to the first '<' before end (or to end), counting
 * lines and characters as libxml2 does; returns where it stopped. */
static const uint8_t *advance_to_lt(const uint8_t *p, const uint8_t *end, place *pos)
{
	for (; p < end && *p != '<'; p++) {
		if (*p == '\n') {
			pos->line++;
			pos->column = 1;
		} else if ((*p & 0xC0) != 0x80 && !(*p == '\r' && p + 1 < end && p[1] == '\n')) {
			pos->column++;
		}
	}
	return p;
}

/* Mark where the parser is: at `at` in its buffer, or at its cursor when
 * NULL.  (Handing on text it has scanned in place, libxml2 counts lines
 * and columns to the text's end but leaves its cursor at the start.) */
static void set_mark(reader *r, const xmlChar *at)
{
	xmlParserInputPtr in = r->ctxt->input;

	if (!in || !in->cur || !in->base)
		return;
	if (!at)
		at = in->cur;
	r->mark = (place){ line_of(r), column_of(r), in->consumed + (unsigned long)(at - in->base) };
	/* libxml2 lets go of what it has read of a long construct, and its
	 * offsets are not those of the bytes given when it converts them: the
	 * next '<' is looked for now, a little way, in the buffer it has. */
	if (in->buf && in->buf->encoder) {
		const uint8_t *end = in->end - at > 64 ? at + 64 : in->end;
		const uint8_t *lt;

		r->next_lt = r->mark;
		lt = advance_to_lt(at, end, &r->next_lt);
		size_t k = lt < end ? (size_t)(in->end - lt) : 0;

		if (k >= sizeof r->after_lt)
			k = sizeof r->after_lt - 1;
		memcpy(r->after_lt, lt, k);
		r->after_lt[k] = '\0';
	}
}

static bool tag_is_complete(reader *r)
{
	const xmlChar *cur = r->ctxt->input ? r->ctxt->input->cur : NULL;

	return cur && (cur[0] == '>' || (cur[0] == '/' && cur[1] == '>'));
}

static void reset_text(reader *r)
{
	r->text_len = 0;
	if (r->text)
		r->text[0] = '\0';
}

static bool is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!animc_xml_is_space(s[i]))
			return false;
	return true;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
		     int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
		     int nb_defaulted, const xmlChar **attributes)
{
	reader *r = ctx;
	frame *f;
	animc_xml_action action;

	(void)nb_defaulted;
	set_mark(r, NULL);
	if (r->status != ANIMC_OK)
		return;
	if (r->skip_depth) {
		r->skip_depth++;
		return;
	}
	/* libxml2 hands on a start tag before it looks for its '>': one the
	 * input ends in (or that some other byte ends) is its error to
	 * report next, not an element for the handler to judge. */
	if (!tag_is_complete(r)) {
		r->skip_depth = 1;
		return;
	}
	if (r->depth >= r->max_depth) {
		animc_diag_report(r->sink, ANIMC_ERROR, line_of(r), column_of(r),
				  "elements nest deeper than %u levels", r->max_depth);
		stop(r, ANIMC_ERR_PARSE);
		return;
	}
	if (r->depth) {
		frame *parent = &r->frames[r->depth - 1];

		if (!is_blank(r->text, r->text_len))
			parent->has_stray_text = true;
	}
	f = &r->frames[r->depth];
	memset(f, 0, sizeof *f);
	f->el.name = (const char *)localname;
	f->el.prefix = (const char *)prefix;
	f->el.uri = (const char *)uri;
	f->el.depth = r->depth;
	f->el.line = line_of(r);
	f->el.column = column_after_tag(r);
	f->el.namespace_count = nb_namespaces;
	f->el.namespaces = (const char *const *)namespaces;
	f->el.attribute_count = nb_attributes;
	f->el.attributes = (const char *const *)attributes;
	reset_text(r);
	action = r->handler->start ? r->handler->start(r->user, &f->el) : ANIMC_XML_CONTINUE;
	/* libxml2's arrays are valid only during this callback. */
	f->el.namespaces = NULL;
	f->el.attributes = NULL;
	f->el.namespace_count = f->el.attribute_count = 0;
	if (action == ANIMC_XML_STOP) {
		stop(r, ANIMC_ERR_INVALID);
		return;
	}
	if (action == ANIMC_XML_SKIP)
		r->skip_depth = 1;
	else
		r->depth++;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
	reader *r = ctx;
	frame *f;
	animc_xml_action action = ANIMC_XML_CONTINUE;

	(void)localname;
	(void)prefix;
	(void)uri;
	set_mark(r, NULL);
	if (r->status != ANIMC_OK)
		return;
	if (r->skip_depth) {
		r->skip_depth--;
		reset_text(r);
		return;
	}
	if (r->depth == 0)
		return;
	f = &r->frames[--r->depth];
	if (r->handler->end)
		action = r->handler->end(r->user, &f->el, r->text ? r->text : "", r->text_len,
					 f->has_stray_text);
	/* The parent's text starts afresh after a child. */
	reset_text(r);
	if (action == ANIMC_XML_STOP)
		stop(r, ANIMC_ERR_INVALID);
}

static void on_characters(void *ctx, const xmlChar *ch, int len)
{
	reader *r = ctx;
	size_t n = len > 0 ? (size_t)len : 0;
	xmlParserInputPtr in = r->ctxt->input;

	/* Text read in place ends where libxml2's count of lines has got to. */
	if (in && (uintptr_t)ch >= (uintptr_t)in->base && (uintptr_t)ch < (uintptr_t)in->end &&
	    n <= (size_t)(in->end - ch))
		set_mark(r, ch + n);
	else
		set_mark(r, NULL);
	if (r->status != ANIMC_OK || r->skip_depth || r->depth == 0 || n == 0)
		return;
	if (n > MAX_TEXT_BYTES - r->text_len) {
		const animc_xml_element *el = &r->frames[r->depth - 1].el;

		/* At the element, where the text starts: libxml2's line is
		 * where its read has got to, far below in a list written over
		 * many lines. */
		animc_diag_report(r->sink, ANIMC_ERROR, el->line, el->column,
				  "text inside <%s> is longer than %zu bytes (%zu MiB), the most animc reads in one "
				  "element, a limit of its own that no option raises: split the take into shorter ones",
				  el->name, MAX_TEXT_BYTES, MAX_TEXT_BYTES >> 20);
		stop(r, ANIMC_ERR_LIMIT);
		return;
	}
	if (r->text_len + n + 1 > r->text_cap) {
		size_t cap = r->text_cap ? r->text_cap : 256;
		char *grown;

		while (cap < r->text_len + n + 1)
			cap *= 2;
		grown = realloc(r->text, cap);
		if (!grown) {
			stop(r, ANIMC_ERR_NOMEM);
			return;
		}
		r->text = grown;
		r->text_cap = cap;
	}
	memcpy(r->text + r->text_len, ch, n);
	r->text_len += n;
	r->text[r->text_len] = '\0';
}

/* Events that carry nothing for the handler, but move the mark past what
 * they parsed: the declaration, a whole comment or processing instruction. */
static void on_start_document(void *ctx)
{
	set_mark(ctx, NULL);
}

static void on_comment(void *ctx, const xmlChar *value)
{
	(void)value;
	set_mark(ctx, NULL);
}

static void on_pi(void *ctx, const xmlChar *target, const xmlChar *data)
{
	(void)target;
	(void)data;
	set_mark(ctx, NULL);
}

static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id,
			       const xmlChar *system_id)
{
	reader *r = ctx;

	(void)name;
	(void)external_id;
	(void)system_id;
	animc_diag_report(r->sink, ANIMC_ERROR, line_of(r), column_of(r),
			  "a DOCTYPE is not allowed (no DTDs or entity declarations are read)");
	stop(r, ANIMC_ERR_PARSE);
}

/*
 * libxml2's wording of the errors a user most often meets, in the user's
 * terms (into out[size]); false for the others, which keep libxml2's.
 * `at_end`: the parser has read the whole input.
 */
static bool say_in_user_terms(const xmlError *error, bool at_end, char *out, size_t size)
{
	const char *m = error->message ? error->message : "";
	const char *s1 = error->str1 ? error->str1 : "", *s2 = error->str2 ? error->str2 : "";

	switch (error->code) {
	case XML_ERR_DOCUMENT_EMPTY:   /* "Document is empty", "Start tag expected, '<' not found" */
		snprintf(out, size, "not XML: no element starts the document (is this the right file?)");
		return true;
	case XML_ERR_DOCUMENT_END:     /* "Extra content at the end of the document" */
		snprintf(out, size, "more after the end of the root element: a document holds one root element");
		return true;
	case XML_ERR_INVALID_CHAR:
		/* "Input is not proper UTF-8, indicate encoding ! Bytes: 0xFF 0xFE ..." */
		if (strncmp(m, "Input is not proper UTF-8", 25) == 0) {
			const char *b = strstr(s1, "0x");

			snprintf(out, size, "byte %.4s is not UTF-8: save the file as UTF-8, or name its encoding "
				 "in the declaration (<?xml version=\"1.0\" encoding=\"...\"?>)", b ? b : "?");
			return true;
		}
		/* "xmlParseCharRef: invalid xmlChar value 1" */
		if (strncmp(m, "xmlParseCharRef: invalid xmlChar value", 38) == 0) {
			snprintf(out, size, "the character reference names U+%04X, which XML does not allow",
				 (unsigned)error->int1);
			return true;
		}
		/* "PCDATA invalid Char value 1" */
		if (strncmp(m, "PCDATA invalid Char value", 25) == 0) {
			snprintf(out, size, "character U+%04X is not allowed in XML text", (unsigned)error->int1);
			return true;
		}
		return false;
	case XML_ERR_NAME_REQUIRED:
		if (strncmp(m, "StartTag: invalid element name", 30) == 0) {
			snprintf(out, size, "'<' starts no element name (a '<' in text is written &lt;)");
			return true;
		}
		if (strncmp(m, "xmlParseEntityRef: no name", 26) == 0) {
			snprintf(out, size, "'&' starts no entity name (a '&' in text is written &amp;)");
			return true;
		}
		return false;
	case XML_ERR_ENTITYREF_SEMICOL_MISSING:   /* "EntityRef: expecting ';'" */
		snprintf(out, size, "'&' starts a name no ';' ends (a '&' in text is written &amp;)");
		return true;
	case XML_ERR_TAG_NAME_MISMATCH:   /* "Opening and ending tag mismatch: A line 2 and B" */
		snprintf(out, size, "</%s> ends <%s>, which line %d opened", s2, s1, error->int1);
		return true;
	case XML_ERR_GT_REQUIRED:         /* "Couldn't find end of Start Tag A line 2" */
		if (at_end)
			snprintf(out, size, "the file ends inside the start tag <%s, which line %d opened: is it "
				 "cut short?", s1, error->int1);
		else
			snprintf(out, size, "the start tag <%s, which line %d opened, has no '>'", s1, error->int1);
		return true;
	case XML_ERR_TAG_NOT_FINISHED:    /* "Premature end of data in tag A line 2" */
		snprintf(out, size, "the file ends inside <%s>, which line %d opened: is it cut short?", s1,
			 error->int1);
		return true;
	case XML_ERR_UNDECLARED_ENTITY:   /* "Entity 'x' not defined" */
		snprintf(out, size, "no entity &%s; (XML's own are &amp; &lt; &gt; &quot; &apos;, and no DTD is "
			 "read)", s1);
		return true;
	default:
		return false;
	}
}

/*
 * Where `marker` ("<!--", "<![CDATA[", "<?") opens the construct libxml2
 * reports unfinished where the input ends: at the first '<' after the
 * mark, since the last event left no markup before it.  Read in the bytes
 * given when libxml2 reads them as they are (UTF-8, its offsets theirs),
 * else in its buffer while that still holds the mark, else as set_mark saw
 * it.  False when none can say.
 */
static bool find_opening(const reader *r, const char *marker, place *at, const char **text, size_t *text_len)
{
	xmlParserInputPtr in = r->ctxt->input;
	const uint8_t *p = NULL, *end = NULL;
	place pos = r->mark;
	size_t n = strlen(marker);

	*text = NULL;
	*text_len = 0;
	if (!in || !in->buf)
		return false;
	if (!in->buf->encoder) {
		if (pos.offset < r->size) {
			p = r->data + pos.offset;
			end = r->data + r->size;
		}
	} else if (pos.offset >= in->consumed && pos.offset - in->consumed <= (unsigned long)(in->end - in->base)) {
		p = in->base + (pos.offset - in->consumed);
		end = in->end;
	} else if (strncmp(r->after_lt, marker, n) == 0) {
		*at = r->next_lt;
		*text = r->after_lt;
		*text_len = strlen(r->after_lt);
		return true;
	}
	if (!p)
		return false;
	p = advance_to_lt(p, end, &pos);
	if ((size_t)(end - p) < n || memcmp(p, marker, n) != 0)
		return false;
	*at = pos;
	*text = (const char *)p;
	*text_len = (size_t)(end - p);
	return true;
}

/*
 * A comment, CDATA section or processing instruction without its end,
 * which libxml2 reports where the input ends, with nothing of where it
 * began: said at the place it opened, *line and *column, when that is found.
 */
static bool say_unfinished(const reader *r, const xmlError *error, char *out, size_t size, uint32_t *line,
			   uint32_t *column)
{
	static const struct {
		int code;
		const char *marker, *what, *end;
	} kinds[] = {
		{ XML_ERR_COMMENT_NOT_FINISHED, "<!--", "comment", "-->" },
		{ XML_ERR_CDATA_NOT_FINISHED, "<![CDATA[", "CDATA section", "]]>" },
		{ XML_ERR_PI_NOT_FINISHED, "<?", "processing instruction", "?>" },
	};

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		place at;
		const char *text;
		size_t text_len;

		if (kinds[i].code != error->code)
			continue;
		if (find_opening(r, kinds[i].marker, &at, &text, &text_len)) {
			snprintf(out, size, "the %s %s opened here is never closed: no %s follows it (is the file "
				 "cut short?)", kinds[i].what, kinds[i].marker, kinds[i].end);
			*line = at.line;
			*column = at.column;
		} else {
			snprintf(out, size, "a %s opened after line %u is never closed: no %s follows it (is the "
				 "file cut short?)", kinds[i].what, r->mark.line, kinds[i].end);
		}
		return true;
	}
	return false;
}

/*
 * An end tag without its '>': libxml2 raises the start tag's code for it
 * (XML_ERR_GT_REQUIRED) with neither a name nor a line, so the tag is read
 * where it opens, the first "</" after the last event.  False for a start
 * tag's, which names itself.
 */
static bool say_end_tag(const reader *r, const xmlError *error, bool at_end, char *out, size_t size)
{
	const char *text;
	size_t text_len, name_len = 0;
	place at;

	if (error->code != XML_ERR_GT_REQUIRED || error->str1)
		return false;
	if (!find_opening(r, "</", &at, &text, &text_len)) {
		snprintf(out, size, at_end ? "the file ends inside an end tag: is it cut short?" : "an end tag has no '>'");
		return true;
	}
	while (2 + name_len < text_len && name_len < 128 && !animc_xml_is_space(text[2 + name_len]) &&
	       !strchr("<>/", text[2 + name_len]))
		name_len++;
	if (at_end)
		snprintf(out, size, "the file ends inside the end tag </%.*s: is it cut short?", (int)name_len, text + 2);
	else
		snprintf(out, size, "the end tag </%.*s on line %u has no '>'", (int)name_len, text + 2, at.line);
	return true;
}

static void on_error(void *ctx, xmlErrorPtr error)
{
	reader *r = ctx;
	char message[512];
	size_t n;
	uint32_t line, column;

	if (!error || error->level == XML_ERR_NONE)
		return;
	/* After our own stop, libxml2 may add "stopped" errors: keep the first. */
	if (r->status != ANIMC_OK && error->code == XML_ERR_USER_STOP)
		return;
	line = error->line > 0 ? (uint32_t)error->line : 0;
	column = error->int2 > 0 ? (uint32_t)error->int2 : 0;
	bool at_end = r->ctxt->input && r->ctxt->input->cur >= r->ctxt->input->end;

	if (!say_unfinished(r, error, message, sizeof message, &line, &column) &&
	    !say_end_tag(r, error, at_end, message, sizeof message) &&
	    !say_in_user_terms(error, at_end, message, sizeof message))
		snprintf(message, sizeof message, "%s", error->message ? error->message : "malformed XML");
	n = strlen(message);
	while (n && (message[n - 1] == '\n' || message[n - 1] == ' '))
		message[--n] = '\0';
	/* One diagnostic, one line: libxml2 puts some details on a second. */
	for (char *p = message; *p; p++)
		if (*p == '\n')
			*p = ' ';
	/* libxml2's advice names a parser option no user of animc can set:
	 * its own depth limit, said as ours is. */
	if (strstr(message, "XML_PARSE_HUGE") && strstr(message, "depth"))
		snprintf(message, sizeof message, "elements nest deeper than 256 levels");
	if (error->level == XML_ERR_WARNING) {
		animc_diag_report_kind(r->sink, ANIMC_WARNING, ANIMC_WARN_XML, line, column, "%s", message);
		return;
	}
	if (r->status != ANIMC_OK)
		return;
	animc_diag_report(r->sink, ANIMC_ERROR, line, column, "%s", message);
	stop(r, error->code == XML_ERR_NO_MEMORY ? ANIMC_ERR_NOMEM : ANIMC_ERR_PARSE);
}

/* Errors libxml2 raises without a parser context (character encoding
 * conversion, its I/O layer) would go to stderr; they come here instead,
 * placed where the parser is. */
static void on_global_error(void *ctx, xmlErrorPtr error)
{
	reader *r = ctx;

	if (!error || error->level == XML_ERR_NONE || r->status != ANIMC_OK || r->global_error_seen)
		return;
	r->global_error_seen = true;
	if (error->domain == XML_FROM_I18N || error->domain == XML_FROM_IO) {
		animc_diag_report(r->sink, ANIMC_ERROR, line_of(r), column_of(r),
				  "the bytes do not match the document's character encoding");
		/* What follows is its consequence: the first error is the one
		 * reported.  (libxml2 cannot be stopped from inside its encoding
		 * conversion; the handlers ignore the rest once this is set.) */
		r->status = ANIMC_ERR_PARSE;
	} else {
		on_error(ctx, error);
	}
}

static void ignore_generic(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

/* The code unit of the document's encoding: its width in bytes (1, 2 or
 * 4) and which of its bytes holds the low 8 bits, from the byte order mark
 * or, without one, the first character '<' (XML 1.0 appendix F). */
static void code_unit(const uint8_t *d, size_t n, size_t *width, size_t *low)
{
	*width = 1;
	*low = 0;
	if (n >= 4 && d[0] == 0 && d[1] == 0 && ((d[2] == 0xFE && d[3] == 0xFF) || (d[2] == 0 && d[3] == '<')))
		*width = 4, *low = 3;
	else if (n >= 4 && d[2] == 0 && d[3] == 0 && ((d[0] == 0xFF && d[1] == 0xFE) || (d[0] == '<' && d[1] == 0)))
		*width = 4, *low = 0;
	else if (n >= 2 && ((d[0] == 0xFE && d[1] == 0xFF) || (d[0] == 0 && d[1] != 0)))
		*width = 2, *low = 1;
	else if (n >= 2 && ((d[0] == 0xFF && d[1] == 0xFE) || (d[0] != 0 && d[1] == 0)))
		*width = 2, *low = 0;
}

/* Whether the unit at p is the character c (below 0x80). */
static bool unit_is(const uint8_t *p, size_t width, size_t low, uint8_t c)
{
	for (size_t k = 0; k < width; k++)
		if (p[k] != (k == low ? c : 0))
			return false;
	return true;
}

/*
 * XML 1.0 section 2.11: a lone CR ends a line as LF and CRLF do, and the
 * parser reads it as LF.  libxml2 counts LF alone, so every diagnostic of a
 * file saved with CR line ends (classic Mac OS) was on line 1.  A copy with
 * each lone CR made LF reads the same and counts its lines; its columns
 * and byte offsets stay.  In UTF-16 and UTF-32 a CR is a whole code unit
 * (a 0x0D byte may be half of another).  NULL when no copy is needed, or
 * none can be made (the lines are then miscounted, nothing else).
 */
static uint8_t *lone_cr_as_lf(const uint8_t *data, size_t size)
{
	size_t width, low, first = SIZE_MAX;

	code_unit(data, size, &width, &low);
	for (size_t i = 0; i + width <= size && first == SIZE_MAX; i += width)
		if (unit_is(data + i, width, low, '\r') &&
		    (i + 2 * width > size || !unit_is(data + i + width, width, low, '\n')))
			first = i;
	if (first == SIZE_MAX)
		return NULL;
	uint8_t *copy = malloc(size);

	if (!copy)
		return NULL;
	memcpy(copy, data, size);
	for (size_t i = first; i + width <= size; i += width)
		if (unit_is(copy + i, width, low, '\r') &&
		    (i + 2 * width > size || !unit_is(copy + i + width, width, low, '\n')))
			copy[i + low] = '\n';
	return copy;
}

/*
 * A UTF-32 document (either byte order, by its byte order mark or its
 * first '<') as UTF-8 in *out, *out_size bytes, its mark left out: libxml2
 * read the big-endian form and refused the little-endian one, the common
 * form, as "not XML".  The encoding its declaration names is then ignored
 * (it names the bytes given, not these).  1 when converted; 0 when it is
 * not UTF-32; -1 with *bad_line (1-based) and *bad_unit when a unit is no
 * character; -2 when out of memory.
 */
static int utf32_as_utf8(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size, uint32_t *bad_line,
			 uint32_t *bad_unit)
{
	size_t width, low, at = 0, n = 0;
	uint32_t line = 1;

	*out = NULL;
	code_unit(data, size, &width, &low);
	if (width != 4)
		return 0;
	uint8_t *utf8 = malloc(size + 1);   /* 4 bytes a unit at most */
	if (!utf8)
		return -2;
	for (; at + 4 <= size; at += 4) {
		uint32_t c = low == 0 ? (uint32_t)data[at] | (uint32_t)data[at + 1] << 8 |
						(uint32_t)data[at + 2] << 16 | (uint32_t)data[at + 3] << 24
				      : (uint32_t)data[at + 3] | (uint32_t)data[at + 2] << 8 |
						(uint32_t)data[at + 1] << 16 | (uint32_t)data[at] << 24;

		if (at == 0 && c == 0xFEFF)
			continue;
		if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF) || c == 0) {
			*bad_line = line;
			*bad_unit = c;
			free(utf8);
			return -1;
		}
		line += c == '\n';
		if (c < 0x80) {
			utf8[n++] = (uint8_t)c;
		} else if (c < 0x800) {
			utf8[n++] = (uint8_t)(0xC0 | c >> 6);
			utf8[n++] = (uint8_t)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			utf8[n++] = (uint8_t)(0xE0 | c >> 12);
			utf8[n++] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
			utf8[n++] = (uint8_t)(0x80 | (c & 0x3F));
		} else {
			utf8[n++] = (uint8_t)(0xF0 | c >> 18);
			utf8[n++] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
			utf8[n++] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
			utf8[n++] = (uint8_t)(0x80 | (c & 0x3F));
		}
	}
	*out = utf8;
	*out_size = n;
	return 1;
}

/* Does an encoding name name UTF-16 or UTF-8 (what a UTF-16 document
 * may declare unsaid: editors keep "utf-8" in a file saved as "Unicode",
 * and libxml2 reads it as the bytes say)? */
static bool names_utf(const char *name, size_t len)
{
	static const char *const names[] = { "utf-8", "utf-16", "utf-16le", "utf-16be", "ucs-2",
					     "iso-10646-ucs-2", "unicode" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (len == strlen(names[i]) && strncasecmp(name, names[i], len) == 0)
			return true;
	return false;
}

/*
 * A UTF-16 document (by its byte order mark, or '<' as its first
 * character) is read as UTF-16 whatever its declaration names, as .NET
 * reads a document its byte order mark decides: a file an editor saved as
 * "Unicode" keeping its declaration of windows-1252 or ISO-8859-1 was read
 * by libxml2 in that encoding, and refused as "not XML".  Such a name (not
 * UTF-8 nor UTF-16) is said, as a warning at it.  True when the document
 * is UTF-16.
 */
static bool is_utf16_whatever_declared(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	size_t width, low, n = size < 255 ? size : 255;
	uint8_t *copy;
	const uint8_t *head;
	char decl[256];
	const char *at, *end;

	code_unit(data, size, &width, &low);
	if (width != 2 || !(head = animc_xml_head_utf8(data, &n, &copy)))
		return width == 2;
	n = n < sizeof decl - 1 ? n : sizeof decl - 1;   /* UTF-8 may be longer */
	memcpy(decl, head, n);
	decl[n] = '\0';
	free(copy);
	end = strstr(decl, "?>");
	at = strncmp(decl, "<?xml", 5) == 0 && end ? strstr(decl, "encoding") : NULL;
	if (!at || at > end)
		return true;
	at += strspn(at + 8, " \t\r\n") + 8;
	if (*at++ != '=')
		return true;
	at += strspn(at, " \t\r\n");
	if ((*at != '"' && *at != '\'') || !strchr(at + 1, *at) || strchr(at + 1, *at) > end)
		return true;
	size_t len = (size_t)(strchr(at + 1, *at) - at - 1);

	if (!names_utf(at + 1, len))
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_XML, 1, (uint32_t)(at - decl) + 2,
				       "the declaration names the encoding '%.*s', but the file is UTF-16 (%s): "
				       "read as UTF-16; declare encoding=\"utf-16\"", (int)len, at + 1,
				       data[0] >= 0xFE ? "its byte order mark" : "its first characters");
	return true;
}

animc_status animc_xml_parse(const uint8_t *data, size_t size, uint32_t max_depth,
			     const animc_xml_handler *handler, void *user, animc_diag_sink *sink)
{
	xmlSAXHandler sax;
	reader r;
	animc_status status;

	if (size > INT_MAX) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file is larger than %d bytes", INT_MAX);
		return ANIMC_ERR_LIMIT;
	}
	if (size == 0) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file is empty");
		return ANIMC_ERR_PARSE;
	}
	uint32_t line, column, unit;
	if (animc_xml_utf16_broken(data, size, &line, &column, &unit)) {
		animc_diag_report(sink, ANIMC_ERROR, line, column, "not UTF-16: the code unit 0x%04X is half of a "
				  "surrogate pair without its other half", unit);
		return ANIMC_ERR_PARSE;
	}
	uint8_t *wide = NULL;
	size_t wide_size = 0;
	int utf32 = utf32_as_utf8(data, size, &wide, &wide_size, &line, &unit);
	if (utf32 == -2)
		return ANIMC_ERR_NOMEM;
	if (utf32 == -1) {
		animc_diag_report(sink, ANIMC_ERROR, line, 0, "not UTF-32: the code unit 0x%08X is no character", unit);
		return ANIMC_ERR_PARSE;
	}
	if (utf32 == 1) {
		data = wide;
		size = wide_size;
	}
	bool is_utf16 = utf32 != 1 && is_utf16_whatever_declared(data, size, sink);
	xmlInitParser();
	memset(&r, 0, sizeof r);
	r.handler = handler;
	r.user = user;
	r.sink = sink;
	r.max_depth = max_depth ? max_depth : 1;
	r.frames = calloc(r.max_depth, sizeof *r.frames);
	if (!r.frames) {
		free(wide);
		return ANIMC_ERR_NOMEM;
	}

	memset(&sax, 0, sizeof sax);
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = on_start;
	sax.endElementNs = on_end;
	sax.characters = on_characters;
	sax.cdataBlock = on_characters;
	sax.ignorableWhitespace = on_characters;
	sax.internalSubset = on_internal_subset;
	sax.startDocument = on_start_document;
	sax.comment = on_comment;
	sax.processingInstruction = on_pi;
	sax.serror = on_error;

	uint8_t *lf = lone_cr_as_lf(data, size);

	r.data = lf ? lf : data;
	r.size = size;
	r.mark = (place){ 1, 1, 0 };
	r.ctxt = xmlCreateMemoryParserCtxt((const char *)r.data, (int)size);
	if (!r.ctxt) {
		free(lf);
		free(wide);
		free(r.frames);
		return ANIMC_ERR_NOMEM;
	}
	/* Our handler replaces the default one; the context frees its copy. */
	memcpy(r.ctxt->sax, &sax, sizeof sax);
	r.ctxt->userData = &r;
	xmlCtxtUseOptions(r.ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA | (wide || is_utf16 ? XML_PARSE_IGNORE_ENC : 0));
	r.ctxt->replaceEntities = 0;
	r.ctxt->loadsubset = 0;
	r.ctxt->validate = 0;

	/* Both handlers are per thread in libxml2; restored to the defaults after. */
	xmlSetStructuredErrorFunc(&r, on_global_error);
	xmlSetGenericErrorFunc(NULL, ignore_generic);
	xmlParseDocument(r.ctxt);
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlSetGenericErrorFunc(NULL, NULL);
	if (r.status == ANIMC_OK && !r.ctxt->wellFormed) {
		animc_diag_report(sink, ANIMC_ERROR, line_of(&r), column_of(&r), "malformed XML");
		r.status = ANIMC_ERR_PARSE;
	}
	status = r.status;
	xmlFreeParserCtxt(r.ctxt);
	free(lf);
	free(wide);
	free(r.frames);
	free(r.text);
	return status;
}

bool animc_xml_attribute(const animc_xml_element *el, const char *name, const char *uri,
			 const char **value, size_t *len)
{
	for (int i = 0; i < el->attribute_count; i++) {
		const char *const *a = &el->attributes[i * 5];

		if (strcmp(a[0], name) != 0)
			continue;
		if (uri && (!a[2] || strcmp(a[2], uri) != 0))
			continue;
		*value = a[3];
		*len = (size_t)(a[4] - a[3]);
		return true;
	}
	return false;
}

bool animc_xml_attribute_is_true(const animc_xml_element *el, const char *name, const char *uri)
{
	const char *v;
	size_t n;
	bool b;

	return animc_xml_attribute(el, name, uri, &v, &n) && animc_xs_bool(v, n, &b) && b;
}

const char *animc_xml_namespace(const animc_xml_element *el, const char *prefix)
{
	for (int i = 0; i < el->namespace_count; i++) {
		const char *p = el->namespaces[i * 2];

		if ((!p && !prefix) || (p && prefix && strcmp(p, prefix) == 0))
			return el->namespaces[i * 2 + 1];
	}
	return NULL;
}

const char *animc_xml_version(void)
{
	return xmlParserVersion;
}
