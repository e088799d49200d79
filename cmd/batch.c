/*
 * batch.c - `animc batch`: many dump and sample commands in one process, one
 * per line of standard input, for tools that query many compiled files (a
 * process start costs more than a dump or a pose).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
		"usage: animc batch [--reader-name NAME]... < REQUESTS\n"
		"\n"
		"Run many 'dump' and 'sample' commands in this one process.  Each line of\n"
		"standard input is one command line, its words separated by tabs, for example\n"
		"\n"
		"  sample<TAB>--json<TAB>--time<TAB>0.5<TAB>--time<TAB>1<TAB>out/Walk.xnb\n"
		"  dump<TAB>--json<TAB>out/Run.xnb\n"
		"\n"
		"A line without tabs that starts with 'dump ' or 'sample ' is split at runs of\n"
		"spaces instead, as typed: 'sample --time 0.5 out/Walk.xnb'.  A file name with\n"
		"a space in it needs the tabs.\n"
		"\n"
		"Each command prints what it prints alone, in line order (standard output is\n"
		"flushed after each line); empty and blank lines are skipped, and so are\n"
		"blanks before the command and tabs at the end of a line.  What a line's\n"
		"command says on standard error leads with its line, one line a message:\n"
		"\n"
		"  <stdin>:2: error: sample: --time 'abc' is not a number of seconds\n"
		"  <stdin>:3: error: dump: unknown option '-x'\n"
		"\n"
		"and the next lines still run; standard input that cannot be read is an error.\n"
		"\n"
		"options:\n"
		"  --reader-name NAME  given to every dump and sample line: also take files\n"
		"                      whose type reader is NAME; repeatable\n"
		"  -h, --help          show this help\n"
		"\n"
		"exit status: 0 every line succeeded, 1 some line failed, 2 usage error.\n");
}

/* The commands a batch may run: they only read compiled files. */
static const animc_command *batch_command(const char *name)
{
	if (strcmp(name, animc_cmd_dump.name) == 0)
		return &animc_cmd_dump;
	if (strcmp(name, animc_cmd_sample.name) == 0)
		return &animc_cmd_sample;
	return NULL;
}

/* Split `line` in place at runs of spaces into argv (at most `max` words);
 * leading and trailing spaces make no words. */
static int split_spaces(char *line, char **argv, int max)
{
	int argc = 0;

	for (char *p = line; *p && argc < max;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		argv[argc++] = p;
		p += strcspn(p, " ");
	}
	return argc;
}

/* True when `line` (len bytes) has no tab and its first word, up to a
 * space, is a command a batch runs: a line typed with spaces. */
static bool is_spaced_line(const char *line, size_t len)
{
	size_t n = strcspn(line, " ");
	char word[16];

	if (memchr(line, '\t', len) || n == len || n >= sizeof word)
		return false;
	memcpy(word, line, n);
	word[n] = '\0';
	return batch_command(word) != NULL;
}

/* Did splitting at spaces cut a file name in two?  True when some run of
 * words, joined by spaces, names a file that its first word alone does
 * not: the only case the hint about tabs helps. */
static bool split_a_name(char *const *words, int count)
{
	bool cut = false;

	for (int i = 1; i < count && !cut; i++) {
		struct stat st;
		char *joined;

		if (stat(words[i], &st) == 0 || !(joined = strdup(words[i])))
			continue;
		for (int k = i + 1; k < count && !cut; k++) {
			char *longer;

			if (asprintf(&longer, "%s %s", joined, words[k]) < 0)
				break;
			free(joined);
			joined = longer;
			cut = stat(joined, &st) == 0;
		}
		free(joined);
	}
	return cut;
}

/* Split `line` in place at tabs into argv (at most `max` words). */
static int split_tabs(char *line, char **argv, int max)
{
	int argc = 0;

	for (char *word = line; argc < max;) {
		char *tab = strchr(word, '\t');

		argv[argc++] = word;
		if (!tab)
			break;
		*tab = '\0';
		word = tab + 1;
	}
	return argc;
}

/*
 * One line `said` of what the command of input line `number` printed on
 * standard error, said again as "<stdin>:N: SEVERITY: COMMAND: ...", so
 * that the message carries its line: "animc sample: --time ..." (a usage
 * error) and "FILE: error: ..." alike.  The usage errors' "Try 'animc
 * help ...'" hint is left out: a batch line has no help page.  `extra` is
 * added to an error.  Returns the severity said, NULL when the line was
 * left out.
 */
static const char *say_again(const char *said, const char *command, unsigned long number, const char *extra)
{
	static const char *const severities[] = { "error", "warning", "note" };
	char own[64];
	const char *severity = "error", *where = NULL, *message = said;
	size_t where_len = 0;

	if (strncmp(said, "Try 'animc help", 15) == 0)
		return NULL;
	snprintf(own, sizeof own, "animc %s: ", command);
	if (strncmp(said, own, strlen(own)) == 0)
		message = said + strlen(own);
	for (size_t i = 0; i < sizeof severities / sizeof severities[0]; i++) {
		char tag[16];
		const char *at;
		size_t n = (size_t)snprintf(tag, sizeof tag, "%s: ", severities[i]);

		if (message != said && strncmp(message, tag, n) == 0) {
			severity = severities[i];
			message += n;
			break;
		}
		snprintf(tag, sizeof tag, ": %s: ", severities[i]);
		n = strlen(tag);
		if (message == said && (at = strstr(said, tag)) && (!where || at < where + where_len)) {
			severity = severities[i];
			where = said;
			where_len = (size_t)(at - said);
			message = at + n;
		}
	}
	fprintf(stderr, "<stdin>:%lu: %s: %s: ", number, severity, command);
	if (where)
		fprintf(stderr, "%.*s: ", (int)where_len, where);
	fprintf(stderr, "%s%s\n", message, strcmp(severity, "error") == 0 ? extra : "");
	return severity;
}

/* Run one line's command with its standard error kept, then said again
 * line by line (say_again): one line per failure, carrying the input's
 * line.  Returns its exit status. */
static int run_line(const animc_command *cmd, int count, char **words, unsigned long number, const char *extra)
{
	FILE *saved = stderr, *kept;
	char *text = NULL, *line;
	size_t size = 0;
	bool said_error = false;
	int rc;

	fflush(stderr);
	kept = open_memstream(&text, &size);
	if (kept)
		stderr = kept;
	rc = cmd->run(count, words);
	if (kept) {
		stderr = saved;
		fclose(kept);
	}
	/* What it printed, before what it said (a failure to write said
	 * with its reason, once). */
	cli_stdout_flush("batch");
	for (char *p = text; p && *p; p = line) {
		char *nl = strchr(p, '\n');

		line = nl ? nl + 1 : p + strlen(p);
		if (nl)
			*nl = '\0';
		const char *severity = *p ? say_again(p, cmd->name, number, extra) : NULL;

		said_error |= severity && strcmp(severity, "error") == 0;
	}
	if (rc != ANIMC_EXIT_OK && !said_error)
		fprintf(stderr, "<stdin>:%lu: error: %s failed%s\n", number, cmd->name, extra);
	free(text);
	return rc;
}

/* batch's own arguments: the --reader-name values, checked as dump and
 * sample check them, into `readers` as "--reader-name" NAME word pairs
 * for every line (*reader_words of them).  -1 to go on, else the exit
 * status (help printed, or a usage error said). */
static int parse_args(int argc, char **argv, char **readers, int *reader_words)
{
	static const char shorts[] = ":h";
	static const struct option options[] = {
		{ "reader-name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	cli_readers checked = { 0 };
	int c;

	cli_getopt_reset();
	for (int from = 1; (c = getopt_long(argc, argv, shorts, options, NULL)) != -1; from = optind) {
		if (c == 'n') {
			if (!cli_readers_add(&checked, "batch", optarg))
				return ANIMC_EXIT_USAGE;
			readers[(*reader_words)++] = (char *)"--reader-name";
			readers[(*reader_words)++] = optarg;
		} else if (c == 'h') {
			return cli_stdout_help("batch", help) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
		} else {
			return cli_option_error("batch", argc, argv, from, c == ':', shorts, options);
		}
	}
	if (optind < argc)
		return cli_usage_error("batch", "unknown argument '%s': the commands come on standard input",
				       argv[optind]);
	return -1;
}

static int run(int argc, char **argv)
{
	char *line = NULL;
	size_t capacity = 0;
	ssize_t len;
	unsigned long number = 0;
	int status = ANIMC_EXIT_OK;

	/* --reader-name NAME pairs, passed on to every line. */
	char **readers = calloc(2 * (size_t)argc + 1, sizeof *readers);
	int reader_words = 0;

	if (!readers) {
		cli_report(ANIMC_ERROR, "animc batch", "out of memory");
		return ANIMC_EXIT_FAILED;
	}
	status = parse_args(argc, argv, readers, &reader_words);
	if (status >= 0) {
		free(readers);
		return status;
	}
	status = ANIMC_EXIT_OK;
	/* A file the lines name again is read and checked once while it is
	 * unchanged: two clips, those of a line's sample --blend. */
	cli_clip_keep(2);
	while ((len = getline(&line, &capacity, stdin)) >= 0) {
		const animc_command *cmd;
		char **words;
		int count, rc;

		number++;
		/* Blanks before the command and tabs at the end make no words. */
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == '\t'))
			line[--len] = '\0';
		char *start = line + strspn(line, " \t");
		len -= start - line;
		if (!len)
			continue;   /* empty, or blank */
		/* A line of n separators has at most n + 1 words. */
		bool spaced = is_spaced_line(start, (size_t)len);
		count = 1;
		for (ssize_t i = 0; i < len; i++)
			count += start[i] == (spaced ? ' ' : '\t');
		words = calloc((size_t)count + (size_t)reader_words + 1, sizeof *words);
		if (!words) {
			cli_report(ANIMC_ERROR, "animc batch", "out of memory");
			status = ANIMC_EXIT_FAILED;
			break;
		}
		count = spaced ? split_spaces(start, words, count) : split_tabs(start, words, count);
		/* The command word, then the batch's --reader-name options, then the line's. */
		memmove(words + 1 + reader_words, words + 1, (size_t)(count - 1) * sizeof *words);
		for (int i = 0; i < reader_words; i++)
			words[1 + i] = readers[i];
		count += reader_words;
		cmd = batch_command(words[0]);
		if (!cmd) {
			fprintf(stderr, "<stdin>:%lu: error: '", number);
			cli_print_escaped(stderr, words[0], 0);
			fprintf(stderr, "' is not a command a batch runs (dump, sample)%s\n",
				strchr(words[0], ' ') ? "; the words of a line are separated by tabs" : "");
			rc = ANIMC_EXIT_FAILED;
		} else {
			rc = run_line(cmd, count, words, number,
				      spaced && split_a_name(words, count)
					      ? "; the line has no tabs, so its words were split at spaces: "
						"separate them by tabs, as a file name here has a space"
					      : "");
		}
		if (rc != ANIMC_EXIT_OK)
			status = ANIMC_EXIT_FAILED;
		free(words);
		/* What the next lines print would be lost too. */
		if (!cli_stdout_flush("batch")) {
			status = ANIMC_EXIT_FAILED;
			break;
		}
	}
	/* getline's end: the input's, or a read error (a folder, a closed
	 * standard input), which loses the lines after it. */
	if (len < 0 && ferror(stdin)) {
		cli_report(ANIMC_ERROR, "animc batch", "cannot read standard input: %s", strerror(errno));
		status = ANIMC_EXIT_FAILED;
	}
	cli_clip_keep(0);
	free(line);
	free(readers);
	return status;
}

const animc_command animc_cmd_batch = {
	.name = "batch",
	.summary = "run many dump and sample commands, one per input line: animc batch < FILE",
	.run = run,
	.help = help,
};
