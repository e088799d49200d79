/*
 * help.h - what users read about the commands, made from one source: the
 * option table (options.c) carries each option's help, help.c each
 * command's text.  From them come `animc help COMMAND`, and, through the
 * hidden `animc help --markdown|--man|--completion`, docs/cli.md, the man
 * page animc.1 and the bash completion (`make docs` rewrites those three).
 */
#ifndef ANIMC_BUILD_HELP_H
#define ANIMC_BUILD_HELP_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "cli.h"

/* What an option does to a build: only OUTPUT and MODEL options join each
 * source's key (key.c). */
typedef enum build_option_kind {
	BUILD_OPTION_RUN,     /* how the run goes: not in the key */
	BUILD_OPTION_OUTPUT,  /* changes what is written: name and value join the key */
	BUILD_OPTION_MODEL    /* names a file whose bytes join the key (--skeleton) */
} build_option_kind;

/* One row of the option table, as documentation. */
typedef struct build_option_doc {
	const char *name;         /* the long name, without "--" */
	int short_name;           /* 0: none */
	const char *arg;          /* the value's name ("DIR"); NULL: the option takes none */
	unsigned commands;        /* bit (1u << build_command) for each command taking it */
	build_option_kind kind;
	const char *help;         /* one paragraph, for --help and the manual */
	const char *manual;       /* more for the manual only, or NULL */
	/* The words the value may be, space-separated (the manual and the
	 * completion list them), or NULL; build_option_values_platforms
	 * stands for the XNB platform letters. */
	const char *values;
} build_option_doc;

extern const char build_option_values_platforms[];

/* Row i of the option table, in help order; NULL past the last. */
const build_option_doc *build_option_doc_at(size_t i);
/* Whether `command`'s parser takes row i: its own rows and, for outputs,
 * build's others, which it ignores (what completion offers). */
bool build_option_doc_accepted(size_t i, build_command command);

/* `animc help build` (outputs, clean): usage, text, options from the table. */
void build_help_print(FILE *out, build_command command);
/* A row of a list in terminal help (`animc help`'s commands): `text`
 * after `label` (indented by the caller), wrapped where the table's help
 * wraps, within 80 columns, its later lines at column `column`. */
void build_help_row(FILE *out, const char *label, const char *text, int column);

typedef enum build_doc_format { BUILD_DOC_MARKDOWN, BUILD_DOC_MAN, BUILD_DOC_COMPLETION } build_doc_format;

/* The manual of every command in `commands` (NULL-terminated, in the
 * order `animc help` lists them) in one format.  build, outputs and clean
 * come from the table; the other commands' help is taken as they print
 * it.  The output depends on nothing but the sources (no date, no path). */
void build_doc_write(FILE *out, build_doc_format format, const animc_command *const *commands,
		     void (*usage)(FILE *out));

#endif
