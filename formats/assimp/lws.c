/*
 * lws.c - a LightWave scene's envelope keys read from its own bytes, line
 * by line, for the spans Assimp reads as linear (see lws.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lws.h"

/* The stepped keys of a scene: how many, and the first one's line. */
typedef struct lws_steps {
	uint32_t count;
	uint32_t first_line;
	uint32_t keys;           /* keys read in the envelope open; 0 outside one */
	bool in_envelope;
} lws_steps;

/* `p` past spaces and tabs, to `end`. */
static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Past one word (a run of other bytes than spaces and tabs). */
static const char *skip_word(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return skip_blanks(p, end);
}

/* A `Key VALUE TIME SPAN ...` line's span type: the third number after
 * the word, read as Assimp reads it (its leading digits); -1 for none. */
static int key_span(const char *p, const char *end)
{
	int span = 0;

	p = skip_word(skip_word(skip_word(p, end), end), end);
	if (p == end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9' && span < 1000; p++)
		span = span * 10 + (*p - '0');
	return span;
}

/* One line, the `number`th, `p` to `end`: an envelope's start or end, or
 * one of its keys. */
static void take_line(lws_steps *s, const char *p, const char *end, uint32_t number)
{
	size_t n;

	p = skip_blanks(p, end);
	n = (size_t)(end - p);
	if (n >= 10 && memcmp(p, "{ Envelope", 10) == 0) {
		s->in_envelope = true;
		s->keys = 0;
	} else if (n >= 1 && *p == '}') {
		s->in_envelope = false;
	} else if (s->in_envelope && n > 4 && memcmp(p, "Key", 3) == 0 && (p[3] == ' ' || p[3] == '\t')) {
		/* A span is the curve from the key before: the first key's
		 * leads from nothing. */
		if (s->keys++ > 0 && key_span(p, end) == 4 && s->count++ == 0)
			s->first_line = number;
	}
}

void animc_lws_say_stepped(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	const char *p = (const char *)data, *end = p + size;
	lws_steps s = { 0 };
	uint32_t number = 1;

	if (!data)
		return;
	while (p < end) {
		const char *line = p;

		while (p < end && *p != '\n' && *p != '\r')
			p++;
		take_line(&s, line, p, number++);
		if (p < end && *p == '\r' && ++p < end && *p == '\n')
			p++;
		else if (p < end && *p == '\n')
			p++;
	}
	if (s.count)
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_STEPPED_KEYS, s.first_line, 0,
				       "stepped envelope keys are read as linear: Assimp keeps no interpolation, so "
				       "the output moves toward each such key from the one before, where LightWave "
				       "holds the earlier value up to it; bake the motion (a key every frame) or make "
				       "the spans linear%s", s.count > 1 ? " (and more like it)" : "");
}
