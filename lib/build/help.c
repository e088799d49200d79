/*
 * help.c - the text of `animc help build` (outputs, clean), and the manual
 * of every command in three generated forms: docs/cli.md, the man page
 * animc.1 and the bash completion.  Options come from the table in
 * options.c; each command's prose is written once, below.  The other
 * commands (watch, dump, sample, batch, plot) own their help; the manual
 * takes it as they print it (the man page fills its paragraphs and option
 * lists to the reader's width), and the completion reads their options
 * from it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "help.h"

const char build_option_values_platforms[] = "";

/* A command's prose.  Paragraphs are separated by a blank line; a line
 * starting with two spaces is kept as it is (examples, lists). */
typedef struct command_doc {
	const char *name;
	const char *usage;        /* after "usage: " */
	const char *text;         /* help and manual */
	const char *manual;       /* the manual only, after text; may be NULL */
	const char *notes;        /* after the options */
	const char *exit_status;  /* after "exit status: " */
} command_doc;

static const command_doc command_docs[] = {
	[CMD_BUILD] = {
		"build", "animc build [options] -o OUTDIR INPUT...",
		"Compile animation sources into .xnb files (XNB v5, RobotGame AnimationSequence "
		"layout) that XNA, FNA and MonoGame load through RobotGame's AnimationReader.\n"
		"\n"
		"INPUT is a file or a folder (or @FILE: the arguments listed in FILE, one a line).  A "
		"folder is walked recursively and its tree is mirrored under OUTDIR.  A source that is "
		"one clip (a RobotGame .Animation) becomes OUTDIR/STEM.xnb; a source holding named "
		"clips becomes OUTDIR/STEM/CLIP.xnb.  Files no importer recognises are skipped.  Each "
		"source compiles on its own: a bad one is reported and the others still compile.  "
		"Output files appear whole or not at all.\n"
		"\n"
		"Builds are incremental: OUTDIR/.animc/manifest records each source's key (its bytes, "
		"the other files its import read, the options below that change output, by their values "
		"(--scale 1.0 is --scale 1, a default spelt out is none, an option given twice its last), "
		"the versions of animc and its libraries) and its outputs.  A source whose key and outputs are "
		"unchanged is neither imported nor rewritten.  A manifest of another format version, "
		"which another animc (a later one) wrote, records outputs this one does not know: the "
		"build refuses, as clean does, and keeps it for that animc.",
		"A response file (@FILE) is a file or a pipe (@/dev/stdin, @<(git diff --name-only)), read to its end; "
		"it is UTF-8 (a byte-order mark is skipped; UTF-16 is refused); "
		"a trailing \\r is dropped and empty lines, and lines of only spaces and tabs, are left out; it is not recursive (a line starting with @ is an argument).  In a folder walk, names "
		"starting with '.', editors' backups and auto-saves (name~, #name#) and name.tmp are left "
		"out, and a folder reached again through a symbolic link is "
		"walked once (listed with -v), by its own path: links are followed after the rest of "
		"the input, so adding one moves no output.  A file given directly lands in OUTDIR itself, or, with "
		"--base DIR, at its path relative to DIR, so a list of changed files lands as a build "
		"of the whole folder does (Grund/Up_Run.Animation and Hammer/Up_Run.Animation do not "
		"collide), and is taken as that build takes it: a file no importer reads (a README) or "
		"that is not there (deleted) is left out, a clip-split sidecar builds its source, and a "
		"file sources of the last build read (a glTF's .bin, a sidecar), there or deleted, builds "
		"them.  Clip names are made file names by the rule of formats/xnb/FORMAT.md "
		"section 5: characters no file system takes become _, leading dots _, Windows device "
		"names such as CON or nul get a _; a name too long for a file name is an error naming "
		"the clip (a part's at its line in the sidecar or --clips document).\n"
		"\n"
		"Files no importer recognises are skipped (listed with -v); a file given directly (not "
		"under --base) that no importer recognises is an error (a compiled .xnb given as a source says so), and so "
		"is one in a folder that an earlier build compiled (an XNA .xml saved empty, or with its "
		"root element mistyped), which keeps its last good outputs.  A file that is not a regular file (a FIFO, a "
		"device, a socket) is an error when named and skipped in a folder (listed with -v), unless "
		"an earlier build compiled a source there: then it is an error too, and that source keeps "
		"its last good outputs; it is never opened for reading.\n"
		"\n"
		"Outputs are written to a temporary file beside their place and renamed there, so no "
		"partial .xnb ever exists: after SIGINT, SIGTERM or SIGHUP (unless started with it "
		"ignored, as nohup does) the build removes its "
		"temporary files, records what it finished, says it was stopped, writes --report and "
		"--junit of what it finished with the stop as a run error, and ends as the signal "
		"would have ended it; after SIGKILL the next build into the "
		"folder removes what was left.  The same input and options always give the same bytes, "
		"whatever -j.  A file named twice for one place (a folder and a file directly in it, two "
		"spellings of one path) is built once; a folder and a file in one of its subfolders are "
		"two places (the folder's mirrored path, the file's own name), and it is built to both.  "
		"Two sources that would write one output file: the first in build "
		"order writes it, the second is refused (an error).  docs/build.md describes workers, the "
		"manifest, the source key and the reports.",
		"The default mode applies lossless passes: keys sorted by time, constant tracks stored "
		"once (fixed), evenly spaced key times stored as an interval, a wrong "
		"KeyFrameSequenceCount corrected (with a warning).  Every output plays in the original "
		"runtime: one-key sequences get an interval, clips shorter than 1/60 s are lengthened "
		"to it (with a warning; a note when the clip holds one pose).  glTF STEP keys are held exactly (a key one float before each "
		"step); CUBICSPLINE curves are baked into keys within 1e-4 (units, radians).\n"
		"\n"
		"Related commands: 'animc outputs' lists what a build would write, 'animc clean' "
		"removes what builds wrote.  Diagnostics go to stderr as 'path:line:column: error: "
		"message'.  The documents named here (docs/build.md, formats/xnb/FORMAT.md, the report's "
		"schema lib/build/report.schema.json) are in the source tree and, installed, under "
		"PREFIX/share/doc/animc (/usr/local/share/doc/animc by default).",
		"0 every source compiled (or was skipped), 1 some source failed or the run itself failed "
		"(a report not written, OUTDIR/.animc or its lock a symbolic link, a manifest of another format version, "
		"a --mgcb project that cannot be read; "
		"the summary counts run errors), 2 usage error."
	},
	[CMD_OUTPUTS] = {
		"outputs", "animc outputs [options] -o OUTDIR INPUT...",
		"Print the files 'animc build' would write for these inputs and options, one path a "
		"line, in build order, writing nothing (a control character or a backslash in a name "
		"escaped as in every message: \\n, \\\\, \\x1b).  A source holding named clips is imported to "
		"learn its clip names, unless the manifest in OUTDIR shows it up to date.  It also "
		"accepts the other options of 'animc build' and ignores them (they change no output's "
		"name or place), so that one list of options serves both commands.",
		NULL, NULL,
		"0 every source could be planned, 1 some source failed, 2 usage error."
	},
	[CMD_CLEAN] = {
		"clean", "animc clean -o OUTDIR",
		"Remove everything animc build wrote into OUTDIR, as its manifest records it (and the "
		"journals of builds killed before their manifest recorded each output they wrote): the "
		"outputs (those changed since animc wrote them are left, with a warning), temporary "
		"files of interrupted runs, the folders left empty, and OUTDIR/.animc.  Nothing else "
		"is touched.  An output that cannot be removed (a read-only folder) is an error and "
		"stays recorded in the manifest, so that clean can finish later.  A build killed before "
		"it saved a manifest is cleaned up after too; a folder without OUTDIR/.animc is left as "
		"it is.  It refuses while a build runs in OUTDIR, and an OUTDIR/.animc that is a "
		"symbolic link, or whose lock is one (it reads, makes and removes nothing through it).  It removes nothing while "
		"the manifest cannot be read (damaged, or of another format version) or a journal "
		"is of another format version, whose outputs it would not know: clean with the "
		"animc that wrote them.",
		NULL, NULL,
		"0 done (a missing OUTDIR has nothing to clean), 1 OUTDIR is not a folder, OUTDIR/.animc or "
		"its lock is a symbolic link, a build runs there, the manifest or a journal cannot be read (nothing "
		"removed) or something could not be removed, 2 usage error."
	},
};

/* Said after every option list: how a repeated option is read. */
static const char option_repeats[] =
	"An option given twice keeps its last value, so an option appended to a command line or "
	"response file overrides an earlier one (as with git and make); those marked repeatable "
	"keep every value, and one marked \"given once\" refuses a second.";

#define HELP_WIDTH 79
#define HELP_COLUMN 26

/* -------------------------------------------------------------- wrapping */

/* Print words wrapped at `width`; the first line starts at column `col`
 * (already reached), later ones at `indent`.  Gaps of two spaces (after a
 * sentence) are kept within a line.  The column reached, the line left
 * open. */
static int wrap_words(FILE *out, const char *text, size_t len, int col, int indent, int width)
{
	const char *p = text, *end = text + len;
	bool first = true;

	while (p < end) {
		int gap = 0;

		while (p < end && *p == ' ')
			gap++, p++;
		if (p == end)
			break;
		const char *w = p;

		while (p < end && *p != ' ')
			p++;
		int n = (int)(p - w);

		if (first) {
			gap = 0;
		} else if (col + gap + n > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			gap = 0;
		}
		fprintf(out, "%*s%.*s", gap, "", n, w);
		col += gap + n;
		first = false;
	}
	return col;
}

/* One paragraph, as wrap_words prints it, and its line ended. */
static void wrap(FILE *out, const char *text, size_t len, int col, int indent, int width)
{
	wrap_words(out, text, len, col, indent, width);
	fputc('\n', out);
}

/* Each paragraph of `text` (split at blank lines) through `para`; lines
 * starting with two spaces go through `verbatim` instead. */
typedef struct prose_printer {
	void (*para)(FILE *out, const char *text, size_t len);
	void (*verbatim)(FILE *out, const char *line, size_t len);
	void (*blank)(FILE *out);
} prose_printer;

static void prose(FILE *out, const char *text, const prose_printer *pp)
{
	const char *p = text;

	while (*p) {
		const char *stop = strstr(p, "\n\n");
		const char *end = stop ? stop : p + strlen(p);

		if (p[0] == ' ' && p[1] == ' ') {
			for (const char *line = p; line < end;) {
				const char *nl = memchr(line, '\n', (size_t)(end - line));
				const char *le = nl ? nl : end;

				pp->verbatim(out, line, (size_t)(le - line));
				line = nl ? nl + 1 : end;
			}
		} else {
			pp->para(out, p, (size_t)(end - p));
		}
		if (!stop)
			break;
		p = stop + 2;
		pp->blank(out);
	}
}

static void text_para(FILE *out, const char *text, size_t len)
{
	wrap(out, text, len, 0, 0, HELP_WIDTH);
}

static void text_verbatim(FILE *out, const char *line, size_t len)
{
	fprintf(out, "%.*s\n", (int)len, line);
}

static void text_blank(FILE *out)
{
	fputc('\n', out);
}

static const prose_printer text_printer = { text_para, text_verbatim, text_blank };

/* ---------------------------------------------------------------- values */

/* The words an option's value may be, or NULL. */
static const char *option_values(const build_option_doc *d, char *buf, size_t size)
{
	size_t used = 0;

	if (d->values != build_option_values_platforms)
		return d->values;
	for (const char *p = animc_xnb_platforms(); *p && used + 3 < size; p++) {
		if (used)
			buf[used++] = ' ';
		buf[used++] = *p;
	}
	buf[used] = '\0';
	return buf;
}

static bool option_for(const build_option_doc *d, build_command c)
{
	return d->commands & (1u << c);
}

static bool option_shapes_output(const build_option_doc *d)
{
	return d->kind != BUILD_OPTION_RUN;
}

/* ------------------------------------------------------------------ text */

static void text_option(FILE *out, const build_option_doc *d)
{
	char label[80], values[64];
	const char *words = option_values(d, values, sizeof values);
	int n;

	if (d->short_name)
		n = snprintf(label, sizeof label, "  -%c, --%s%s%s", d->short_name, d->name,
			     d->arg ? " " : "", d->arg ? d->arg : "");
	else
		n = snprintf(label, sizeof label, "      --%s%s%s", d->name, d->arg ? " " : "",
			     d->arg ? d->arg : "");
	fputs(label, out);
	if (n + 2 <= HELP_COLUMN) {
		fprintf(out, "%*s", HELP_COLUMN - n, "");
		n = HELP_COLUMN;
	} else {
		fputs("  ", out);
		n += 2;
	}
	if (words && d->values == build_option_values_platforms) {
		/* The letters are not written into the row: they are the writer's. */
		char *text;

		if (asprintf(&text, "%s, one of %s", d->help, words) < 0)
			return;
		wrap(out, text, strlen(text), n, HELP_COLUMN, HELP_WIDTH);
		free(text);
		return;
	}
	wrap(out, d->help, strlen(d->help), n, HELP_COLUMN, HELP_WIDTH);
}

static void text_options(FILE *out, build_command c, bool output_group, const char *heading)
{
	fprintf(out, "\n%s\n", heading);
	for (size_t i = 0; build_option_doc_at(i); i++) {
		const build_option_doc *d = build_option_doc_at(i);

		if (option_for(d, c) && option_shapes_output(d) == output_group)
			text_option(out, d);
	}
}

static bool command_has_output_options(build_command c)
{
	for (size_t i = 0; build_option_doc_at(i); i++)
		if (option_for(build_option_doc_at(i), c) && option_shapes_output(build_option_doc_at(i)))
			return true;
	return false;
}

void build_help_row(FILE *out, const char *label, const char *text, int column)
{
	/* An example command after ": " is kept whole: on a line of its own
	 * when it does not fit after the words before it. */
	const char *example = strstr(text, ": animc ");
	int n = fprintf(out, "%-*s", column, label);

	if (n > column) {
		fputc(' ', out);
		n++;
	}
	if (!example) {
		wrap(out, text, strlen(text), n, column, HELP_WIDTH);
		return;
	}
	example += 2;
	n = wrap_words(out, text, (size_t)(example - 1 - text), n, column, HELP_WIDTH);
	if (n + 1 + (int)strlen(example) > HELP_WIDTH)
		fprintf(out, "\n%*s%s\n", column, "", example);
	else
		fprintf(out, " %s\n", example);
}

static void importer_list(FILE *out, int width)
{
	for (size_t i = 0; animc_importers[i]; i++)
		fprintf(out, "  %-*s %s\n", width, animc_importers[i]->name, animc_importers[i]->description);
}

void build_help_print(FILE *out, build_command c)
{
	const command_doc *doc = &command_docs[c];

	fprintf(out, "usage: %s\n\n", doc->usage);
	prose(out, doc->text, &text_printer);
	if (command_has_output_options(c)) {
		text_options(out, c, true, "output options (they change what is written, so they are "
			     "part of the key):");
		text_options(out, c, false, "other options:");
	} else {
		text_options(out, c, false, "options:");
	}
	fprintf(out, "  -h, --help%*sshow this help\n", HELP_COLUMN - 12, "");
	fputc('\n', out);
	prose(out, option_repeats, &text_printer);
	if (doc->notes) {
		fputc('\n', out);
		prose(out, doc->notes, &text_printer);
	}
	if (c == CMD_BUILD) {
		fprintf(out, "\nimporters (recognised by content first, file name second):\n");
		importer_list(out, 10);
	}
	fprintf(out, "\nexit status: ");
	wrap(out, doc->exit_status, strlen(doc->exit_status), 13, 0, HELP_WIDTH);
}

void build_help(FILE *out)
{
	build_help_print(out, CMD_BUILD);
}

void build_outputs_help(FILE *out)
{
	build_help_print(out, CMD_OUTPUTS);
}

void build_clean_help(FILE *out)
{
	build_help_print(out, CMD_CLEAN);
}

/* ------------------------------------------------------- other commands */

/* Another command's help as it prints it, in memory (free it). */
static char *captured_help(const animc_command *cmd)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	cmd->help(f);
	fclose(f);
	return text;
}

static bool is_table_command(const animc_command *cmd)
{
	for (size_t c = 0; c < sizeof command_docs / sizeof command_docs[0]; c++)
		if (strcmp(cmd->name, command_docs[c].name) == 0)
			return true;
	return false;
}

static build_command table_command(const animc_command *cmd)
{
	for (size_t c = 0; c < sizeof command_docs / sizeof command_docs[0]; c++)
		if (strcmp(cmd->name, command_docs[c].name) == 0)
			return (build_command)c;
	return CMD_BUILD;
}

/* -------------------------------------------------------------- markdown */

#define DOC_WIDTH 100

/* Markdown text: what would start markup is escaped.  An underscore inside
 * a word is no markup (CommonMark), so ANIMC_CACHE_URL reads as it is. */
static void md_escaped(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char ch = text[i];
		bool inner = i > 0 && i + 1 < len && isalnum((unsigned char)text[i - 1]) &&
			     isalnum((unsigned char)text[i + 1]);

		if (strchr("\\`*<>[]|", ch) || (ch == '_' && !inner))
			fputc('\\', out);
		fputc(ch, out);
	}
}

/* Wrap escaped markdown: escape into memory, then wrap. */
static void md_wrap(FILE *out, const char *text, size_t len, int col, int indent)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return;
	md_escaped(f, text, len);
	fclose(f);
	wrap(out, buf, size, col, indent, DOC_WIDTH);
	free(buf);
}

static void md_para(FILE *out, const char *text, size_t len)
{
	md_wrap(out, text, len, 0, 0);
}

static bool md_in_block;

static void md_verbatim(FILE *out, const char *line, size_t len)
{
	if (!md_in_block)
		fputs("```text\n", out);
	md_in_block = true;
	fprintf(out, "%.*s\n", (int)len, line);
}

static void md_blank(FILE *out)
{
	if (md_in_block)
		fputs("```\n", out);
	md_in_block = false;
	fputc('\n', out);
}

static const prose_printer md_printer = { md_para, md_verbatim, md_blank };

static void md_prose(FILE *out, const char *text)
{
	prose(out, text, &md_printer);
	if (md_in_block)
		fputs("```\n", out);
	md_in_block = false;
}

static void md_option(FILE *out, const build_option_doc *d)
{
	char values[64];
	const char *words = option_values(d, values, sizeof values);
	char *text;

	fputs("- `", out);
	if (d->short_name)
		fprintf(out, "-%c, ", d->short_name);
	fprintf(out, "--%s%s%s`: ", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
	if (asprintf(&text, "%s.%s%s", d->help, d->manual ? "  " : "", d->manual ? d->manual : "") < 0)
		return;
	md_wrap(out, text, strlen(text), 4 + (int)strlen(d->name) + 2 + (d->short_name ? 4 : 0) +
		(d->arg ? (int)strlen(d->arg) + 1 : 0) + 2, 2);
	free(text);
	if (words) {
		fputs("  Values:", out);
		for (const char *w = words; *w;) {
			size_t n = strcspn(w, " ");

			fprintf(out, " `%.*s`", (int)n, w);
			w += n;
			w += *w == ' ';
		}
		fputs(".\n", out);
	}
}

static void md_options(FILE *out, build_command c, bool output_group, const char *heading)
{
	fprintf(out, "\n%s\n\n", heading);
	for (size_t i = 0; build_option_doc_at(i); i++) {
		const build_option_doc *d = build_option_doc_at(i);

		if (option_for(d, c) && option_shapes_output(d) == output_group)
			md_option(out, d);
	}
}

static void md_table_command(FILE *out, build_command c)
{
	const command_doc *doc = &command_docs[c];

	fprintf(out, "```text\n%s\n```\n\n", doc->usage);
	md_prose(out, doc->text);
	if (doc->manual) {
		fputc('\n', out);
		md_prose(out, doc->manual);
	}
	if (command_has_output_options(c)) {
		md_options(out, c, true, "Options that change what is written (they are part of each "
			   "source's key, so changing one compiles everything again):");
		md_options(out, c, false, "Options of the run:");
	} else {
		md_options(out, c, false, "Options:");
	}
	fputs("- `-h, --help`: show the help.\n", out);
	fputc('\n', out);
	md_prose(out, option_repeats);
	if (doc->notes) {
		fputc('\n', out);
		md_prose(out, doc->notes);
	}
	if (c == CMD_BUILD) {
		fputs("\nImporters, recognised by content first, file name second:\n\n", out);
		for (size_t i = 0; animc_importers[i]; i++) {
			fprintf(out, "- `%s`: ", animc_importers[i]->name);
			md_wrap(out, animc_importers[i]->description, strlen(animc_importers[i]->description),
				6 + (int)strlen(animc_importers[i]->name), 2);
		}
	}
	fputs("\nExit status: ", out);
	md_wrap(out, doc->exit_status, strlen(doc->exit_status), 13, 0);
}

static void md_write(FILE *out, const animc_command *const *commands, void (*usage)(FILE *))
{
	fputs("<!-- Generated by `animc help --markdown` from the option table (lib/build/options.c),\n"
	      "     lib/build/help.c and each command's help (cmd/*.c).  Do not edit: run `make docs`. -->\n"
	      "# The animc command line\n\n"
	      "This is what `animc help COMMAND` prints, with the longer descriptions the terminal\n"
	      "help leaves out.  The same text is the man page (`man animc` once installed).\n\n"
	      "```text\n", out);
	usage(out);
	fputs("```\n\nCommands:", out);
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "%s [%s](#animc-%s)", i ? "," : "", commands[i]->name, commands[i]->name);
	fputs(".\n", out);
	for (size_t i = 0; commands[i]; i++) {
		fprintf(out, "\n## animc %s\n\n", commands[i]->name);
		if (is_table_command(commands[i])) {
			md_table_command(out, table_command(commands[i]));
		} else {
			char *text = captured_help(commands[i]);

			fprintf(out, "```text\n%s```\n", text ? text : "");
			free(text);
		}
	}
}

/* ------------------------------------------------------------------- man */

/* roff text: backslashes and hyphens escaped, and a '.' or '\'' after a
 * space too, since wrapping may start a line with it (a control line). */
static void man_escaped(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char ch = text[i];

		if ((ch == '.' || ch == '\'') && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n'))
			fputs("\\&", out);
		if (ch == '\\')
			fputs("\\e", out);
		else if (ch == '-')
			fputs("\\-", out);
		else
			fputc(ch, out);
	}
}

/* Paragraph text: one sentence a line is what roff wants, but words wrapped
 * at DOC_WIDTH are as good to it (it fills the lines itself). */
static void man_para(FILE *out, const char *text, size_t len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return;
	man_escaped(f, text, len);
	fclose(f);
	wrap(out, buf, size, 0, 0, DOC_WIDTH);
	free(buf);
}

static bool man_in_block;

static void man_verbatim(FILE *out, const char *line, size_t len)
{
	if (!man_in_block)
		fputs(".PP\n.nf\n", out);
	man_in_block = true;
	man_escaped(out, line, len);
	fputc('\n', out);
}

static void man_blank(FILE *out)
{
	if (man_in_block)
		fputs(".fi\n", out);
	man_in_block = false;
	fputs(".PP\n", out);
}

static const prose_printer man_printer = { man_para, man_verbatim, man_blank };

static void man_prose(FILE *out, const char *text)
{
	fputs(".PP\n", out);
	prose(out, text, &man_printer);
	if (man_in_block)
		fputs(".fi\n", out);
	man_in_block = false;
}

/* Paragraph text, as man_para writes it, from `len` bytes of terminal
 * text wrapped at some width: a line break and the indentation after it
 * become one space (roff keeps runs of spaces as they are). */
static void man_refilled(FILE *out, const char *text, size_t len)
{
	char *joined = malloc(len + 1);
	size_t n = 0;

	if (!joined)
		return;
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n') {
			joined[n++] = text[i];
			continue;
		}
		joined[n++] = ' ';
		while (i + 1 < len && text[i + 1] == ' ')
			i++;
	}
	man_para(out, joined, n);
	free(joined);
}

/* The end of the line at `line` (before `end`), and where the next begins. */
static const char *line_end(const char *line, const char *end, const char **next)
{
	const char *nl = memchr(line, '\n', (size_t)(end - line));

	*next = nl ? nl + 1 : end;
	return nl ? nl : end;
}

/* A list under a heading (`line` to `end`: "  NAME  text" lines, the text
 * going on in deeper lines below): a tagged paragraph each, NAME the tag,
 * the text filled.  An item starts two to six columns in, as
 * parse_help_options reads them; its text after the first two spaces. */
static void man_help_list(FILE *out, const char *line, const char *end)
{
	while (line < end) {
		const char *next, *le = line_end(line, end, &next), *name = line;

		while (name < le && *name == ' ')
			name++;
		const char *gap = strstr(name, "  "), *text;

		if (!gap || gap > le)
			gap = le;
		for (text = gap; text < le && *text == ' '; text++)
			;
		fputs(".TP\n.B ", out);
		man_escaped(out, name, (size_t)(gap - name));
		fputc('\n', out);
		/* The item's text runs on through the deeper lines below. */
		while (next < end && strspn(next, " ") > 6)
			le = line_end(next, end, &next);
		if (le > text)
			man_refilled(out, text, (size_t)(le - text));
		line = next;
	}
}

/*
 * A command's help as it prints it for a terminal (wrapped there at 79
 * columns), as man text that fills the reader's width: the usage lines
 * bold, one a line; a heading ending in ':' over an indented list
 * ("options:", "commands:") as tagged paragraphs; a block of indented
 * lines (an example) as it is; other paragraphs filled.  Copied as it is,
 * man indented it seven more columns, and it ran past an 80-column
 * terminal's edge.
 */
static void man_help(FILE *out, const char *text)
{
	for (const char *p = text; *p;) {
		const char *stop = strstr(p, "\n\n"), *end = stop ? stop : p + strlen(p), *next;
		const char *first_end = line_end(p, end, &next);

		if (strncmp(p, "usage: ", 7) == 0) {
			fputs(".PP\n", out);
			for (const char *line = p + 7; line < end;) {
				const char *le = line_end(line, end, &next);

				line += strspn(line, " ");
				fputs(line == p + 7 ? ".B " : ".br\n.B ", out);
				man_escaped(out, line, (size_t)(le - line));
				fputc('\n', out);
				line = next;
			}
		} else if (p[0] != ' ' && first_end > p && first_end[-1] == ':' && next < end && next[0] == ' ') {
			fputs(".PP\n", out);
			man_escaped(out, p, (size_t)(first_end - p));
			fputc('\n', out);
			man_help_list(out, next, end);
		} else if (p[0] == ' ') {
			fputs(".PP\n.nf\n", out);
			man_escaped(out, p, (size_t)(end - p));
			fputs("\n.fi\n", out);
		} else {
			fputs(".PP\n", out);
			man_refilled(out, p, (size_t)(end - p));
		}
		if (!stop)
			break;
		for (p = stop; *p == '\n'; p++)
			;
	}
}

static void man_option(FILE *out, const build_option_doc *d)
{
	char values[64];
	const char *words = option_values(d, values, sizeof values);
	char *text;

	fputs(".TP\n.B ", out);
	if (d->short_name)
		fprintf(out, "\\-%c, ", d->short_name);
	fputs("\\-\\-", out);
	man_escaped(out, d->name, strlen(d->name));
	if (d->arg) {
		fputs(" \\fI", out);
		man_escaped(out, d->arg, strlen(d->arg));
		fputs("\\fR", out);
	}
	fputc('\n', out);
	if (asprintf(&text, "%s.%s%s%s%s", d->help, d->manual ? "  " : "", d->manual ? d->manual : "",
		     words ? "  Values: " : "", words ? words : "") < 0)
		return;
	man_para(out, text, strlen(text));
	free(text);
}

static void man_options(FILE *out, build_command c, bool output_group, const char *heading)
{
	fprintf(out, ".PP\n%s\n", heading);
	for (size_t i = 0; build_option_doc_at(i); i++) {
		const build_option_doc *d = build_option_doc_at(i);

		if (option_for(d, c) && option_shapes_output(d) == output_group)
			man_option(out, d);
	}
}

static void man_table_command(FILE *out, build_command c)
{
	const command_doc *doc = &command_docs[c];

	fputs(".PP\n.B ", out);
	man_escaped(out, doc->usage, strlen(doc->usage));
	fputc('\n', out);
	man_prose(out, doc->text);
	if (doc->manual)
		man_prose(out, doc->manual);
	if (command_has_output_options(c)) {
		man_options(out, c, true, "Options that change what is written (part of each source's key):");
		man_options(out, c, false, "Options of the run:");
	} else {
		man_options(out, c, false, "Options:");
	}
	fputs(".TP\n.B \\-h, \\-\\-help\nshow the help.\n", out);
	man_prose(out, option_repeats);
	if (doc->notes)
		man_prose(out, doc->notes);
	if (c == CMD_BUILD) {
		fputs(".PP\nImporters, recognised by content first, file name second:\n", out);
		for (size_t i = 0; animc_importers[i]; i++) {
			fputs(".TP\n.B ", out);
			man_escaped(out, animc_importers[i]->name, strlen(animc_importers[i]->name));
			fputc('\n', out);
			man_para(out, animc_importers[i]->description, strlen(animc_importers[i]->description));
		}
	}
	fputs(".PP\nExit status: ", out);
	man_para(out, doc->exit_status, strlen(doc->exit_status));
}

/* Every kind of warning, from the table --allow reads. */
static void man_warning_kinds(FILE *out)
{
	fputs(".SH WARNING KINDS\n"
	      "A warning ends with its kind in brackets; \\-\\-allow KIND takes these names.\n"
	      "docs/warnings.md says, for each, what is wrong and what to do.\n", out);
	for (int k = ANIMC_WARN_NONE + 1; k < ANIMC_WARN_KIND_COUNT; k++) {
		const animc_warning_kind_info *info = animc_warning_kind_at((animc_warning_kind)k);

		fputs(".TP\n.B ", out);
		man_escaped(out, info->name, strlen(info->name));
		fputs("\n", out);
		man_escaped(out, info->description, strlen(info->description));
		fputs("\n", out);
	}
}

static void man_write(FILE *out, const animc_command *const *commands, void (*usage)(FILE *))
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	fputs(".\\\" Generated by `animc help --man` from the option table (lib/build/options.c),\n"
	      ".\\\" lib/build/help.c and each command's help (cmd/*.c).  Do not edit: run `make docs`.\n", out);
	fprintf(out, ".TH ANIMC 1 \"\" \"animc %s\" \"User Commands\"\n", ANIMC_VERSION_STRING);
	/* No hyphenation: a word broken at the line's end is an option, a path
	 * or a name a reader copies (--additive-refer- / ence); and, with words
	 * that long, lines left ragged rather than spread. */
	fputs(".nh\n.ad l\n", out);
	fputs(".SH NAME\nanimc \\- compile skeletal animation sources into XNB files, and inspect them\n"
	      ".SH SYNOPSIS\n.B animc\n.I command\n[\\fIoptions\\fR] [\\fIargs\\fR]\n"
	      ".SH DESCRIPTION\n", out);
	f = open_memstream(&text, &size);
	if (f) {
		usage(f);
		fclose(f);
		man_help(out, text);
		free(text);
	}
	fputs(".SH COMMANDS\n", out);
	for (size_t i = 0; commands[i]; i++) {
		fprintf(out, ".SS animc %s\n", commands[i]->name);
		if (is_table_command(commands[i])) {
			man_table_command(out, table_command(commands[i]));
		} else {
			text = captured_help(commands[i]);
			if (text)
				man_help(out, text);
			free(text);
		}
	}
	man_warning_kinds(out);
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B ANIMC_CACHE_URL\nthe shared cache of \\fBanimc build\\fR when \\-\\-cache\\-url is not given.\n"
	      ".TP\n.B ANIMC_CACHE_USER\\fR, \\fBANIMC_CACHE_PASSWORD\\fR, \\fBANIMC_CACHE_HEADER\\fR, "
	      "\\fBANIMC_CACHE_NETRC\n"
	      "the cache's credentials (HTTP basic authentication, one more request header, a netrc file).\n"
	      ".TP\n.B SOURCE_DATE_EPOCH\nwhen set, reports carry no times.\n"
	      ".SH SEE ALSO\n"
	      "The documentation, in the source tree and, installed, under PREFIX/share/doc/animc\n"
	      "(/usr/local/share/doc/animc by default): docs/cli.md (this page), docs/build.md,\n"
	      "docs/warnings.md (every warning, and what to do), docs/scaling.md, docs/runtime.md,\n"
	      "docs/xna.md (loading the outputs in an XNA, FNA or MonoGame game); the compiled\n"
	      "format, formats/xnb/FORMAT.md; the schema of --report, lib/build/report.schema.json.\n", out);
}

/* ------------------------------------------------------------ completion */

/* File and folder names are read a line each into COMPREPLY: the words of
 * COMPREPLY=($(compgen -f ...)) are split at spaces and globbed, so
 * "Walk copy.xnb" was offered as "Walk" and "copy.xnb". */
#define COMPLETE_FOLDERS "mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")"
#define COMPLETE_FILES "mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")"

/* How a value is completed, by the name help gives it. */
static const char *completion_of_arg(const char *arg)
{
	if (!arg)
		return NULL;
	if (strcmp(arg, "DIR") == 0 || strcmp(arg, "OUTDIR") == 0)
		return COMPLETE_FOLDERS;
	if (strstr(arg, "FILE") || strcmp(arg, "MODEL") == 0 || strcmp(arg, "OTHER") == 0 ||
	    strcmp(arg, "PROJECT") == 0 || strchr(arg, '.'))
		return COMPLETE_FILES;
	return "COMPREPLY=()";
}

/* Options read from a command's help: lines whose first word starts with
 * '-' two to six columns in, up to the two spaces before the text
 * ("  -o, --output FILE   ..."); a deeper line continues an option's text,
 * even when it starts with an option's name. */
typedef struct parsed_option {
	char names[64];   /* "-o|--output" */
	char arg[32];     /* "FILE", or "" */
} parsed_option;

static size_t parse_help_options(const char *text, parsed_option *out, size_t max)
{
	size_t n = 0;

	for (const char *line = text; line && *line && n < max;) {
		const char *nl = strchr(line, '\n');
		const char *p = line;

		while (*p == ' ')
			p++;
		if (*p == '-' && p - line >= 2 && p - line <= 6) {
			parsed_option *o = &out[n];
			const char *end = strstr(p, "  ");
			const char *le = nl ? nl : p + strlen(p);

			if (!end || end > le)
				end = le;
			memset(o, 0, sizeof *o);
			while (p < end) {
				size_t w = strcspn(p, " ,\n");

				if (p + w > end)
					w = (size_t)(end - p);
				if (*p == '-') {
					if (strlen(o->names) + w + 2 < sizeof o->names) {
						if (o->names[0])
							strcat(o->names, "|");
						strncat(o->names, p, w);
					}
				} else if (w && w < sizeof o->arg) {
					memcpy(o->arg, p, w);
					o->arg[w] = '\0';
				}
				p += w;
				while (p < end && (*p == ' ' || *p == ','))
					p++;
			}
			if (o->names[0])
				n++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

/* The values of an argument named by them, "x|y|z" (lowercase words and
 * bars only), as "x y z" in buf; NULL for a name such as FILE. */
static const char *values_of_arg(const char *arg, char *buf, size_t size)
{
	size_t n = strlen(arg);

	if (!strchr(arg, '|') || n >= size || strspn(arg, "abcdefghijklmnopqrstuvwxyz-|") != n)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		buf[i] = arg[i] == '|' ? ' ' : arg[i];
	return buf;
}

/* The kinds of warning, space-separated, for --allow's completion. */
static const char *warning_kind_words(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = ANIMC_WARN_NONE + 1; k < ANIMC_WARN_KIND_COUNT && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "",
				      animc_warning_kind_at((animc_warning_kind)k)->name);
	return n < size ? buf : NULL;
}

static void completion_case(FILE *out, const char *names, const char *arg, const char *values)
{
	char listed[64], kinds[2048];

	if (!arg)
		return;
	if (!values && strncmp(arg, "KIND", 4) == 0)
		values = warning_kind_words(kinds, sizeof kinds);
	if (!values)
		values = values_of_arg(arg, listed, sizeof listed);
	fprintf(out, "\t\t%s)\n\t\t\t", names);
	if (values)
		fprintf(out, "COMPREPLY=($(compgen -W '%s' -- \"$cur\"))", values);
	else
		fputs(completion_of_arg(arg), out);
	fputs("\n\t\t\treturn ;;\n", out);
}

static void completion_write(FILE *out, const animc_command *const *commands)
{
	fputs("# bash completion for animc.  Generated by `animc help --completion` from the option\n"
	      "# table (lib/build/options.c) and each command's help.  Do not edit: run `make docs`.\n"
	      "_animc()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts\n"
	      "\t# --opt=VALUE: bash splits the word at '=' (COMP_WORDBREAKS), giving cur '=' or prev\n"
	      "\t# '='; the value completes as after --opt VALUE.\n"
	      "\tif [ \"$cur\" = = ] && [ \"$COMP_CWORD\" -gt 2 ]; then\n"
	      "\t\tcur= prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -gt 3 ]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
	      "\tfi\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '", out);
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "%s ", commands[i]->name);
	fputs("help --help --version' -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase ${COMP_WORDS[1]} in\n", out);
	for (size_t i = 0; commands[i]; i++) {
		fprintf(out, "\t%s)\n\t\tcase $prev in\n", commands[i]->name);
		char opts[2048] = "";

		/* watch takes every option of build. */
		bool is_watch = strcmp(commands[i]->name, "watch") == 0;

		if (is_table_command(commands[i]) || is_watch) {
			build_command c = is_watch ? CMD_BUILD : table_command(commands[i]);

			for (size_t k = 0; build_option_doc_at(k); k++) {
				const build_option_doc *d = build_option_doc_at(k);
				char names[64], values[64];

				/* What the parser takes: outputs also takes build's
				 * options (one list serves both), and offers them. */
				if (!build_option_doc_accepted(k, c))
					continue;
				if (d->short_name)
					snprintf(names, sizeof names, "-%c|--%s", d->short_name, d->name);
				else
					snprintf(names, sizeof names, "--%s", d->name);
				completion_case(out, names, d->arg, option_values(d, values, sizeof values));
				snprintf(opts + strlen(opts), sizeof opts - strlen(opts), "%s--%s", opts[0] ? " " : "",
					 d->name);
			}
			snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --help");
		} else {
			char *text = captured_help(commands[i]);
			parsed_option parsed[32];
			size_t n = text ? parse_help_options(text, parsed, 32) : 0;

			for (size_t k = 0; k < n; k++) {
				const char *longest = strrchr(parsed[k].names, '|');

				completion_case(out, parsed[k].names, parsed[k].arg[0] ? parsed[k].arg : NULL, NULL);
				snprintf(opts + strlen(opts), sizeof opts - strlen(opts), "%s%s", opts[0] ? " " : "",
					 longest ? longest + 1 : parsed[k].names);
			}
			free(text);
		}
		fprintf(out, "\t\tesac\n\t\topts='%s' ;;\n", opts);
	}
	/* One topic (help takes no word after it), --help's too. */
	fputs("\thelp|--help|-h)\n\t\t[ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W '", out);
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "%s ", commands[i]->name);
	fputs("help --version' -- \"$cur\"))\n\t\treturn ;;\n"
	      "\t*)\n\t\treturn ;;\n\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\t" COMPLETE_FILES "\n"
	      "\tfi\n}\n"
	      "complete -o filenames -F _animc animc\n", out);
}

void build_doc_write(FILE *out, build_doc_format format, const animc_command *const *commands,
		     void (*usage)(FILE *out))
{
	if (format == BUILD_DOC_MARKDOWN)
		md_write(out, commands, usage);
	else if (format == BUILD_DOC_MAN)
		man_write(out, commands, usage);
	else
		completion_write(out, commands);
}
