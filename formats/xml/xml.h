/*
 * xml.h - what the XML importers share: a streaming element reader over
 * libxml2's SAX2 interface with network, DTDs and entity expansion off; a
 * root-element sniffer for recognising files by content; and parsers for the
 * XML Schema lexical forms (xs:float, xs:int, xs:boolean, xs:duration, lists)
 * the dialects use.
 * libxml2 appears in xml_sax.c only; nothing of it leaks through here.
 */
#ifndef ANIMC_FORMATS_XML_H
#define ANIMC_FORMATS_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>

/* ------------------------------------------------------------ sniffing */

/* The version of libxml2 in use, "20914" (its own numbering). */
const char *animc_xml_version(void);

/*
 * The first `*size` bytes of an XML document as UTF-8, for the sniffers:
 * `data` itself unless they are UTF-16 (LE or BE by a byte-order mark, or by
 * "<?" as the first characters, as libxml2 detects it) or UTF-32 (by its
 * mark, or by '<' as the first character), which is transcoded without its
 * mark into a malloc'd copy that *copy then owns (free it; NULL when `data`
 * is returned), *size becoming the copy's length.  A unit or surrogate pair
 * cut by the end is left out; an unpaired surrogate, and a UTF-32 unit that
 * is no character, becomes U+FFFD.  NULL when out of memory.
 */
const uint8_t *animc_xml_head_utf8(const uint8_t *data, size_t *size, uint8_t **copy);

/*
 * The qualified name of the root element of an XML document whose first
 * `size` bytes are `data` (UTF-8 with an optional BOM, or UTF-16 or UTF-32
 * as animc_xml_head_utf8 reads it; declaration, comments, processing
 * instructions and a DOCTYPE are skipped), in UTF-8.  False when no root
 * element starts within those bytes.
 */
bool animc_xml_root_name(const uint8_t *data, size_t size, char *name, size_t name_size);

/*
 * Do the first `size` bytes of a document end before its root element's
 * name does: within its prolog (declaration, comments, processing
 * instructions, a DOCTYPE, a licence header of any length), just after
 * it, or within the name?  Then more bytes may name the root.  False for
 * bytes that are no XML (whitespace alone included) and for a document
 * whose root element starts within them.
 */
bool animc_xml_root_is_cut(const uint8_t *data, size_t size);

/*
 * A UTF-16 document (animc_xml_head_utf8's rule) holding a surrogate out
 * of its pair: true, with its line and column (1-based, in characters)
 * and the code unit.  libxml2 places such an error on line 1.
 */
bool animc_xml_utf16_broken(const uint8_t *data, size_t size, uint32_t *line, uint32_t *column, uint32_t *unit);

/* ------------------------------------------------------ xs: lexical forms */

/* XML whitespace: space, tab, CR, LF. */
static inline bool animc_xml_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Trim XML whitespace from both ends of s[0..*len); returns the new start. */
const char *animc_xs_trim(const char *s, size_t *len);

/*
 * xs:float: optional sign, digits with an optional fraction and exponent,
 * or INF, -INF, +INF, NaN.  Rounded as .NET's Single.Parse did (to double,
 * then to float); "-0" stays negative zero.  Surrounding whitespace is
 * allowed.  Returns false (and *out untouched) for anything else, including
 * finite values beyond the float range.
 */
bool animc_xs_float(const char *s, size_t len, float *out);

/* xs:int: optional sign and decimal digits, within int32.  *out_of_range
 * (may be NULL) tells a well-formed but too large number from garbage. */
bool animc_xs_int(const char *s, size_t len, int32_t *out, bool *out_of_range);

/* xs:int without the int32 limit (for counts that may exceed it). */
bool animc_xs_int64(const char *s, size_t len, int64_t *out);

/* xs:boolean: true, false, 1, 0. */
bool animc_xs_bool(const char *s, size_t len, bool *out);

/* Ticks (100 ns, .NET's TimeSpan unit) per second. */
#define ANIMC_TICKS_PER_SECOND 10000000

/*
 * xs:duration as .NET's XmlConvert.ToTimeSpan read it (XsdDuration), in
 * integer ticks of 100 ns: [-]P[nY][nM][nD][T[nH][nM][nS]], parts in that
 * order, at least one, a T only before a time part, each part within int32;
 * the seconds may have a fraction with digits on either side of the point
 * optional (PT1.5S, PT.5S, PT1.S); a year counts 365 days and a month 30 (as
 * .NET did); fraction digits past the seventh are truncated.  Integer
 * arithmetic throughout, so PT0.0333333S is exactly 333333 ticks.  Returns
 * false for anything else, a part beyond int32 or a total beyond int64
 * (where .NET throws).
 */
bool animc_xs_duration(const char *s, size_t len, int64_t *ticks);

/*
 * The next whitespace-separated token of a list value (xs:list, and the
 * compact form IntermediateSerializer writes vectors, matrices and lists
 * of them in): skips XML whitespace from *cursor, sets token/len and moves
 * *cursor past it.  False when only whitespace is left.
 */
bool animc_xs_list_next(const char **cursor, const char *end, const char **token, size_t *len);

/* ------------------------------------------------------ element reader */

typedef struct animc_xml_element {
	const char *name;       /* local name */
	const char *prefix;     /* namespace prefix as written, or NULL */
	const char *uri;        /* namespace URI, or NULL */
	uint32_t depth;         /* root = 0 */
	uint32_t line, column;  /* just after the start tag */
	/* libxml2's SAX2 arrays, read through the accessors below. */
	int namespace_count;
	const char *const *namespaces;   /* prefix, URI pairs */
	int attribute_count;
	const char *const *attributes;   /* localname, prefix, URI, value, end */
} animc_xml_element;

/* Value of attribute `name` (any namespace when `uri` is NULL) as a pointer
 * into the parser's buffer and a length; false when absent. */
bool animc_xml_attribute(const animc_xml_element *el, const char *name, const char *uri,
			 const char **value, size_t *len);

/* True when attribute `name` (any namespace when `uri` is NULL) holds an
 * xs:boolean true (xsi:nil="true", Null="true"). */
bool animc_xml_attribute_is_true(const animc_xml_element *el, const char *name, const char *uri);

/* Namespace declaration `prefix` on this element (NULL prefix: the default
 * namespace); returns its URI or NULL. */
const char *animc_xml_namespace(const animc_xml_element *el, const char *prefix);

typedef enum animc_xml_action {
	ANIMC_XML_CONTINUE = 0,
	ANIMC_XML_SKIP,   /* from start: ignore this element's content */
	ANIMC_XML_STOP    /* abort the parse: an error has been reported */
} animc_xml_action;

typedef struct animc_xml_handler {
	animc_xml_action (*start)(void *user, const animc_xml_element *el);
	/*
	 * `text` is the character data directly inside the element (comments
	 * removed, CDATA included), NUL-terminated, not trimmed.
	 * `has_stray_text` says non-whitespace text also appeared between child
	 * elements.  Not called for skipped elements.
	 */
	animc_xml_action (*end)(void *user, const animc_xml_element *el, const char *text,
				size_t text_len, bool has_stray_text);
} animc_xml_handler;

/* At most this many characters of a bad value are quoted in a message. */
#define ANIMC_XML_QUOTE_LEN(n) ((int)((n) > 60 ? 60 : (n)))

/*
 * A leaf element's text as xs:int, xs:float or xs:boolean.  Text that is not
 * one is reported at `el`, naming the element and quoting the text, and
 * gives false (the value is left alone).
 */
bool animc_xml_leaf_int(const animc_xml_element *el, const char *text, size_t len, int32_t *out,
			animc_diag_sink *sink);
bool animc_xml_leaf_float(const animc_xml_element *el, const char *text, size_t len, float *out,
			  animc_diag_sink *sink);
bool animc_xml_leaf_bool(const animc_xml_element *el, const char *text, size_t len, bool *out,
			 animc_diag_sink *sink);

/*
 * Parse `data` as XML, streaming element events to `handler`.  Malformed XML,
 * a DOCTYPE, or nesting deeper than `max_depth` is reported to `sink` with
 * line and column and gives ANIMC_ERR_PARSE.  A handler's STOP ends the parse
 * with ANIMC_ERR_INVALID; the handler keeps its own, more precise status.
 */
animc_status animc_xml_parse(const uint8_t *data, size_t size, uint32_t max_depth,
			     const animc_xml_handler *handler, void *user, animc_diag_sink *sink);

#endif
