/*
 * said.h - diagnostics of a run's own (build_say: the cache, the manifest,
 * clean; a --mgcb project's warnings), kept for the reports (result.c).
 */
#ifndef ANIMC_BUILD_SAID_H
#define ANIMC_BUILD_SAID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>

/* One diagnostic of the run's own. */
typedef struct build_said {
	animc_severity severity;
	char *subject;            /* the file it is about; NULL: the run ("animc") */
	uint32_t line;            /* 0: none */
	char *message;
	const char *kind;         /* a warning's kind (a name of animc_warning_kinds), or NULL */
} build_said;

typedef struct build_said_list {
	build_said *items;
	size_t count;
} build_said_list;

/* Add one (subject and message copied; kind as build_kind_name gives it,
 * or NULL); false when out of memory. */
bool build_said_add(build_said_list *l, animc_severity severity, const char *kind, const char *subject,
		    uint32_t line, const char *message);
void build_said_release(build_said_list *l);

#endif
