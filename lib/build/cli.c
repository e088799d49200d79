/*
 * cli.c - diagnostic printing, usage errors and JSON output shared by the
 * commands.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char *const severity_names[] = { "note", "warning", "error" };

void cli_print_diag(void *user, const animc_diag *d)
{
	cli_diag_printer *printer = user;
	FILE *out = printer && printer->out ? printer->out : stderr;

	if (d->severity == ANIMC_NOTE && printer && !printer->show_notes)
		return;
	if (d->path)
		cli_print_escaped(out, d->path, 0);
	else
		fputs("animc", out);
	if (d->line) {
		fprintf(out, ":%u", d->line);
		if (d->column)
			fprintf(out, ":%u", d->column);
	}
	fprintf(out, ": %s: ", severity_names[d->severity]);
	if (d->byte_offset >= 0)
		fprintf(out, "byte %lld: ", (long long)d->byte_offset);
	cli_print_escaped(out, d->message, 0);
	if (d->kind)
		fprintf(out, " [%s]", d->kind);
	fputc('\n', out);
}

/* Edits (optimal string alignment) from a to b, ASCII case ignored; at
 * most `limit + 1`. */
static size_t edit_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), row[3][64];

	if (la >= 63 || lb >= 63)
		return strcasecmp(a, b) == 0 ? 0 : limit + 1;
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		row[1][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = row[(i + 1) % 3], *prev = row[i % 3], *prev2 = row[(i + 2) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t best = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return row[(la + 1) % 3][lb];
}

const char *cli_nearest(const char *word, const char *const *choices)
{
	size_t len = strlen(word), limit = len <= 3 ? 0 : len <= 6 ? 1 : 2, best = limit + 1;
	const char *found = NULL;

	for (size_t i = 0; choices[i]; i++) {
		size_t d = edit_distance(word, choices[i], limit);

		if (d < best) {
			best = d;
			found = choices[i];
		}
	}
	return found;
}

void cli_getopt_reset(void)
{
	opterr = 0;
	optind = 0;
}

void cli_catch_stop_signals(void (*handler)(int))
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, was;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		if (stops[i] != SIGHUP || (sigaction(stops[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN))
			sigaction(stops[i], &sa, NULL);
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "animc%s%s: ", command ? " " : "", command ? command : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'animc help%s%s'.\n", command ? " " : "", command ? command : "");
	return ANIMC_EXIT_USAGE;
}

/* Why standard output was first lost, by cli_stdout_sync (0: not yet). */
static int stdout_lost_errno;

void cli_stdout_sync(void)
{
	if (fflush(stdout) != 0 && !stdout_lost_errno)
		stdout_lost_errno = errno;
}

/* Say once that standard output is lost: err, the reason (-1: none known). */
static void say_stdout_lost(const char *command, int err)
{
	static bool is_said;

	if (!is_said)
		fprintf(stderr, "animc%s%s: error writing standard output%s%s\n", command ? " " : "",
			command ? command : "", err > 0 ? ": " : "", err > 0 ? strerror(err) : "");
	is_said = true;
}

bool cli_stdout_flush(const char *command)
{
	int err = 0;

	/* fflush writes again what a failed write left in the buffer, so
	 * errno says why; ferror alone is an earlier failure whose reason
	 * cli_stdout_sync kept (the build engine's flushes), or that went
	 * with cli_stdout_put's. */
	if (fflush(stdout) != 0)
		err = errno;
	else if (ferror(stdout))
		err = stdout_lost_errno ? stdout_lost_errno : -1;
	if (!err)
		return true;
	say_stdout_lost(command, err);
	return false;
}

bool cli_stdout_put(const char *command, const char *bytes, size_t size)
{
	errno = 0;
	if (fwrite(bytes, 1, size, stdout) == size && fflush(stdout) == 0)
		return true;
	say_stdout_lost(command, errno ? errno : EIO);
	return false;
}

bool cli_stdout_help(const char *command, void (*help)(FILE *out))
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	bool put;

	if (!mem) {
		help(stdout);
		return cli_stdout_flush(command);
	}
	help(mem);
	if (fclose(mem) != 0) {
		free(text);
		help(stdout);
		return cli_stdout_flush(command);
	}
	put = cli_stdout_put(command, text, size);
	free(text);
	return put;
}

/*
 * The argument getopt took its last option from: the first option at or
 * after `from`.  optind after the call does not say: inside a cluster such
 * as -ab it moves on only after the last letter, and before an option it
 * skips the operands it moves to the end.
 */
static const char *option_argument(int argc, char **argv, int from)
{
	for (int k = from; k < argc; k++)
		if (argv[k][0] == '-' && argv[k][1])
			return argv[k];
	return argv[optind - 1];
}

/* Of the longs, the option "--NAME" (NAME `len` bytes) most likely
 * misspells, as cli_nearest finds the command a word misspells; NULL when
 * none is (or out of memory).  Compared with their dashes, as the top-level
 * options are, so that a short name (--jsn) still has an edit to spare. */
static const char *nearest_long(const char *name, size_t len, const struct option *longs)
{
	size_t count = 0, bytes = len + 3;
	const char *near = NULL, *found;

	for (; longs[count].name; count++)
		bytes += strlen(longs[count].name) + 3;
	/* The dashed names' pointers (NULL-ended), then the names, then the word. */
	char **dashed = malloc((count + 1) * sizeof *dashed + bytes), *at;

	if (!dashed)
		return NULL;
	at = (char *)(dashed + count + 1);
	for (size_t i = 0; i < count; i++) {
		dashed[i] = at;
		at += sprintf(at, "--%s", longs[i].name) + 1;
	}
	dashed[count] = NULL;
	sprintf(at, "--%.*s", (int)len, name);
	found = cli_nearest(at, (const char *const *)dashed);
	/* The name returned is the longs', which outlive these copies. */
	for (size_t i = 0; found && i < count; i++)
		if (dashed[i] == found)
			near = longs[i].name;
	free(dashed);
	return near;
}

/* For "--NAME[=VALUE]" that getopt_long refused: why, when NAME is an
 * option's or the start of several options' names, or the misspelling of
 * one, into `why` (else "").  The longs end with a NULL name. */
static void long_option_problem(const char *arg, const struct option *longs, char *why, size_t size)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name), n = 0, used = 0;
	const struct option *match = NULL;
	const char *near;

	why[0] = '\0';
	for (const struct option *o = longs; o && o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) {   /* exact: no other counts */
			match = o;
			n = 1;
			break;
		}
		match = o;
		n++;
	}
	if (n == 0 && longs && (near = nearest_long(name, len, longs))) {
		snprintf(why, size, "unknown option '%s' (did you mean '--%s'?)", arg, near);
	} else if (n == 1 && eq && match->has_arg == no_argument) {
		snprintf(why, size, "option '--%s' takes no value", match->name);
	} else if (n > 1) {
		const char *sep = "";

		used = (size_t)snprintf(why, size, "option '--%.*s' is ambiguous:", (int)len, name);
		for (const struct option *o = longs; o->name && used < size; o++) {
			if (strncmp(o->name, name, len) != 0)
				continue;
			used += (size_t)snprintf(why + used, size - used, "%s '--%s'", sep, o->name);
			sep = ",";
		}
	}
}

/* The short option an unknown letter most likely misspells: the same
 * letter in the other case (-O for -o), when `shorts` has it; else 0. */
static int other_case_short(int letter, const char *shorts)
{
	int other = 0;

	if (letter > 0 && letter < 128)
		other = isupper(letter) ? tolower(letter) : islower(letter) ? toupper(letter) : 0;
	return other && strchr(shorts, other) ? other : 0;
}

int cli_option_error(const char *command, int argc, char **argv, int from, bool needs_value, const char *shorts,
		     const struct option *longs)
{
	const char *arg = option_argument(argc, argv, from);
	int letter = optopt;
	bool is_short = letter != 0 && letter < 256 && arg[1] != '-';
	char name[3] = { '-', (char)letter, '\0' }, why[512] = "", near[24] = "";
	bool in_cluster = is_short && strcmp(arg, name) != 0;
	int other = is_short && !needs_value ? other_case_short(letter, shorts) : 0;

	if (!needs_value && arg[0] == '-' && arg[1] == '-' && arg[2])
		long_option_problem(arg, longs, why, sizeof why);
	if (why[0])
		return cli_usage_error(command, "%s", why);
	if (other)
		snprintf(near, sizeof near, " (did you mean '-%c'?)", other);
	return cli_usage_error(command, "%s '%s'%s%s%s%s%s", needs_value ? "option" : "unknown option",
			       is_short ? name : arg, in_cluster ? " (in '" : "", in_cluster ? arg : "",
			       in_cluster ? "')" : "", needs_value ? " needs a value" : "", near);
}

bool cli_path_argument(const char *name, const char *arg, const char *what, cli_error *err)
{
	if (!arg[0])
		return cli_error_set(err, "%s is empty: give %s", name, what);
	return true;
}

bool cli_readers_add(cli_readers *readers, const char *command, const char *name)
{
	if (!name[0]) {
		cli_usage_error(command, "--reader-name is empty");
		return false;
	}
	if (readers->options.reader_name_count == CLI_MAX_READER_NAMES) {
		cli_usage_error(command, "more than %d --reader-name options", CLI_MAX_READER_NAMES);
		return false;
	}
	readers->names[readers->options.reader_name_count++] = name;
	readers->options.reader_names = readers->names;
	return true;
}

/* "path: error: ..." for a clip that did not open, and the hint for a
 * reader the options do not take. */
static void report_open_error(const char *path, const animrt_error *err)
{
	/* The message may quote a bone name from the file. */
	cli_print_escaped(stderr, path, 0);
	fputs(": error: ", stderr);
	cli_print_escaped(stderr, err->message, 0);
	fputc('\n', stderr);
	if (err->status == ANIMRT_ERR_CONTENT) {
		cli_print_escaped(stderr, path, 0);
		fputs(": note: a clip written with 'animc build --reader-name NAME' is read with "
		      "--reader-name NAME\n", stderr);
	}
	if (err->status == ANIMRT_ERR_MAGIC) {
		/* Most often a source given where its compiled clip goes. */
		cli_print_escaped(stderr, path, 0);
		fputs(": note: this reads the .xnb files 'animc build' writes; compile a source first "
		      "('animc build -o OUTDIR SOURCE')\n", stderr);
	}
}

/* The commands read every sequence's lists: compact clips decoded. */
static animrt_open_options open_options(const cli_readers *readers)
{
	animrt_open_options options = { 0 };

	if (readers)
		options = readers->options;
	options.is_decoded = true;
	return options;
}

/* A clip kept open (cli_clip_keep): the file it was read from, as stat
 * saw it before the read, and the readers it was opened with. */
typedef struct kept_clip {
	animrt_clip *clip;
	struct stat file;
	animrt_open_options options;
	char *names[CLI_MAX_READER_NAMES];   /* copies of options' reader names */
	unsigned users;          /* opens not closed yet */
	unsigned long used;      /* when last opened: the least recent goes first */
} kept_clip;

static kept_clip kept[CLI_KEPT_CLIPS];
static unsigned keep_count;
static unsigned long keep_clock;

static void kept_release(kept_clip *k)
{
	animrt_close(k->clip);
	for (uint32_t i = 0; i < k->options.reader_name_count; i++)
		free(k->names[i]);
	memset(k, 0, sizeof *k);
}

void cli_clip_keep(unsigned count)
{
	for (unsigned i = 0; i < CLI_KEPT_CLIPS; i++)
		if (kept[i].clip && !kept[i].users)
			kept_release(&kept[i]);
	keep_count = count < CLI_KEPT_CLIPS ? count : CLI_KEPT_CLIPS;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static bool same_options(const animrt_open_options *a, const animrt_open_options *b)
{
	if (a->reader_name_count != b->reader_name_count || a->is_listed_only != b->is_listed_only ||
	    a->is_decoded != b->is_decoded)
		return false;
	for (uint32_t i = 0; i < a->reader_name_count; i++)
		if (strcmp(a->reader_names[i], b->reader_names[i]) != 0)
			return false;
	return true;
}

/* The kept clip of that file and those options, or NULL. */
static animrt_clip *kept_find(const struct stat *file, const animrt_open_options *options)
{
	for (unsigned i = 0; i < CLI_KEPT_CLIPS; i++) {
		kept_clip *k = &kept[i];

		if (k->clip && same_file(&k->file, file) && same_options(&k->options, options)) {
			k->users++;
			k->used = ++keep_clock;
			return k->clip;
		}
	}
	return NULL;
}

/* Keep `clip`, in place of the least recently opened clip in no use;
 * false (not kept) when every place is in use or out of memory. */
static bool kept_add(animrt_clip *clip, const struct stat *file, const animrt_open_options *options)
{
	kept_clip *k = NULL;

	for (unsigned i = 0; i < keep_count; i++)
		if (!kept[i].users && (!k || !kept[i].clip || (k->clip && kept[i].used < k->used)))
			k = &kept[i];
	if (!k)
		return false;
	if (k->clip)
		kept_release(k);
	for (uint32_t i = 0; i < options->reader_name_count; i++)
		if (!(k->names[i] = strdup(options->reader_names[i]))) {
			k->options.reader_name_count = i;
			kept_release(k);
			return false;
		}
	k->options = *options;
	k->options.reader_names = (const char *const *)k->names;
	k->file = *file;
	k->clip = clip;
	k->users = 1;
	k->used = ++keep_clock;
	return true;
}

void cli_clip_close(animrt_clip *clip)
{
	for (unsigned i = 0; clip && i < CLI_KEPT_CLIPS; i++)
		if (kept[i].clip == clip) {
			kept[i].users--;
			if (i >= keep_count && !kept[i].users)
				kept_release(&kept[i]);
			return;
		}
	animrt_close(clip);
}

static uint32_t bone_name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

/* Whether `name` is among names[0..count) (the first `count` taken into
 * `slots`, open addressing, index + 1; NULL: searched one by one), adding
 * it as names[count] when not. */
static bool bone_name_seen(const char **names, uint32_t count, uint32_t *slots, size_t mask, const char *name)
{
	if (!slots) {
		for (uint32_t i = 0; i < count; i++)
			if (strcmp(names[i], name) == 0)
				return true;
		names[count] = name;
		return false;
	}
	size_t j = bone_name_hash(name) & mask;

	for (; slots[j]; j = (j + 1) & mask)
		if (strcmp(names[slots[j] - 1], name) == 0)
			return true;
	slots[j] = count + 1;
	names[count] = name;
	return false;
}

uint32_t cli_bone_names(const animrt_clip *const *clips, unsigned count, const char **names)
{
	size_t total = 0, size = 16;
	uint32_t *slots, n = 0;

	for (unsigned c = 0; c < count; c++)
		total += clips[c]->sequence_count;
	while (size < 2 * total)
		size *= 2;
	slots = calloc(size, sizeof *slots);   /* NULL: the slower search */
	for (unsigned c = 0; c < count; c++)
		for (uint32_t i = 0; i < clips[c]->sequence_count; i++)
			if (!bone_name_seen(names, n, slots, size - 1, clips[c]->sequences[i].bone))
				n++;
	free(slots);
	return n;
}

/* Whether `path` is the pipe (or terminal) on standard input. */
static bool is_stdin_pipe(const char *path)
{
	struct stat in, st;

	return fstat(STDIN_FILENO, &in) == 0 && !S_ISREG(in.st_mode) && stat(path, &st) == 0 &&
	       st.st_dev == in.st_dev && st.st_ino == in.st_ino;
}

/* Read here, not by the loader, so that the message leads with the path
 * alone ("path: error: cannot open: ...", "is a folder", "the file is
 * empty").  A pipe is read to its end, as a file is (<(zstd -dc F.xnb.zst),
 * /dev/stdin). */
animrt_clip *cli_clip_open(const char *path, const cli_readers *readers)
{
	animrt_clip *clip;
	uint8_t *data;
	size_t size = 0;
	cli_error err;
	struct stat file;
	animrt_open_options options = open_options(readers);
	/* Its state before the read: a write after it changes the state the
	 * next open compares. */
	bool keeps = keep_count && stat(path, &file) == 0 && S_ISREG(file.st_mode);

	if (keeps && (clip = kept_find(&file, &options)))
		return clip;
	if (keep_count && is_stdin_pipe(path)) {
		/* Read to its end, it would take batch's next lines. */
		cli_report(ANIMC_ERROR, path, "is the standard input, which holds batch's lines; not read");
		return NULL;
	}
	if (!cli_read_file_or_pipe(path, &data, &size, &err) || size == 0) {
		cli_report(ANIMC_ERROR, path, "%s", size == 0 && data ? "the file is empty" : err.message);
		free(data);
		return NULL;
	}
	clip = cli_clip_open_bytes(path, data, size, readers);
	free(data);
	if (clip && keeps)
		kept_add(clip, &file, &options);
	return clip;
}

animrt_clip *cli_clip_open_bytes(const char *path, const void *data, size_t size, const cli_readers *readers)
{
	animrt_clip *clip;
	animrt_error err;
	animrt_open_options options = open_options(readers);

	if (animrt_open_with(data, size, &options, &clip, &err) == ANIMRT_OK)
		return clip;
	report_open_error(path, &err);
	return NULL;
}

void cli_format_float(float f, char *buf, size_t size)
{
	char fixed[64] = "";
	int lo = 1, hi = 9;

	if (f == 0) {
		snprintf(buf, size, signbit(f) ? "-0" : "0");
		return;
	}
	/* Shortest %g form that reads back as the same float: 9 digits always
	 * do, and a precision that does makes every higher one do, so search. */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		snprintf(buf, size, "%.*g", mid, (double)f);
		if (strtof(buf, NULL) == f)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(buf, size, "%.*g", lo, (double)f);
	/* ...unless a plain decimal is as short (150, not 1.5e+02).  Without an
	 * exponent, the %g form is already that decimal. */
	if (strchr(buf, 'e') && fabsf(f) >= 1e-5f && fabsf(f) < 1e9f) {
		for (int decimals = 0; decimals <= 15; decimals++) {
			snprintf(fixed, sizeof fixed, "%.*f", decimals, (double)f);
			if (strtof(fixed, NULL) == f)
				break;
		}
		if (strlen(fixed) <= strlen(buf))
			snprintf(buf, size, "%s", fixed);
	}
}

/*
 * One unit of `s` at `p` for a person's terminal, into piece[16]: a whole
 * UTF-8 character (shortest form, no surrogates) as it is unless it is a
 * control character, else one byte escaped.  Returns the bytes of `s` used;
 * *len is the length of the piece.
 */
static size_t escape_unit(const unsigned char *p, char piece[16], size_t *len)
{
	unsigned char c = p[0];
	uint32_t cp;
	size_t n, i;

	if (c == '\\' || c < 0x20 || c == 0x7F) {
		const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" :
				    c == '\\' ? "\\\\" : NULL;

		*len = named ? (size_t)snprintf(piece, 16, "%s", named) : (size_t)snprintf(piece, 16, "\\x%02x", c);
		return 1;
	}
	if (c < 0x80) {
		piece[0] = (char)c;
		*len = 1;
		return 1;
	}
	n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? (c <= 0xEF ? 3 : 0) : c >= 0xC2 ? 2 : 0;
	cp = n == 2 ? c & 0x1Fu : n == 3 ? c & 0x0Fu : c & 0x07u;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			break;
		cp = cp << 6 | (p[i] & 0x3Fu);
	}
	if (n == 0 || i < n || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF)) {
		*len = (size_t)snprintf(piece, 16, "\\x%02x", c);
		return 1;
	}
	if (cp <= 0x9F) {
		*len = (size_t)snprintf(piece, 16, "\\u%04x", (unsigned)cp);
		return n;
	}
	memcpy(piece, p, n);
	*len = n;
	return n;
}

/* The terminal columns of one piece escape_unit gave: an escape or an
 * ASCII character a column a byte; a character of several bytes one
 * column, two for the wide ones (CJK, Hangul, fullwidth forms, emoji),
 * none for a mark that combines with the one before (the accent of a
 * name macOS spells decomposed) or a zero-width one. */
static size_t piece_columns(const char *piece, size_t len)
{
	const unsigned char *p = (const unsigned char *)piece;
	uint32_t cp;

	if (len < 2 || p[0] < 0x80)
		return len;
	cp = len == 2 ? p[0] & 0x1Fu : len == 3 ? p[0] & 0x0Fu : p[0] & 0x07u;
	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (p[i] & 0x3Fu);
	bool combining = (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
			 (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x200B && cp <= 0x200F) ||
			 (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
			 (cp >= 0xFE20 && cp <= 0xFE2F);
	if (combining)
		return 0;
	bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) ||
		    (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
		    (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) ||
		    (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF) ||
		    (cp >= 0x20000 && cp <= 0x3FFFD);
	return wide ? 2 : 1;
}

size_t cli_escaped_columns(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t columns = 0, len;
	char piece[16];

	while (*p) {
		p += escape_unit(p, piece, &len);
		columns += piece_columns(piece, len);
	}
	return columns;
}

size_t cli_print_escaped(FILE *out, const char *s, size_t width)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t printed = 0, len;
	char piece[16];

	while (*p) {
		p += escape_unit(p, piece, &len);
		fwrite(piece, 1, len, out);
		printed += piece_columns(piece, len);
	}
	for (; printed < width; printed++)
		fputc(' ', out);
	return printed;
}

size_t cli_escape(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0, len;
	char piece[16];

	while (*p) {
		p += escape_unit(p, piece, &len);
		if (size && used < size - 1)
			memcpy(buf + used, piece, len < size - 1 - used ? len : size - 1 - used);
		used += len;
	}
	if (size)
		buf[used < size - 1 ? used : size - 1] = '\0';
	return used;
}

void json_float(FILE *out, float f)
{
	char buf[32];

	/* JSON has no infinity or NaN: a pose that overflows float is null. */
	if (!isfinite(f)) {
		fputs("null", out);
		return;
	}
	cli_format_float(f, buf, sizeof buf);
	fputs(buf, out);
}

void json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		size_t len = 1, bad;

		if (*p >= 0x80) {
			len = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
			if (strnlen((const char *)p, len) < len || !animc_utf8_check((const char *)p, len, &bad) ||
			    len == 1) {
				fputs("\\ufffd", out);
				p++;
				continue;
			}
			fwrite(p, 1, len, out);
			p += len;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p == '\r')
			fputs("\\r", out);
		else if (*p < 0x20 || *p == 0x7F)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
		p++;
	}
	fputc('"', out);
}

void json_floats(FILE *out, const float *v, size_t count, unsigned width)
{
	fputc('[', out);
	for (size_t i = 0; i < count; i++) {
		if (i)
			fputs(", ", out);
		if (width > 1)
			fputc('[', out);
		for (unsigned c = 0; c < width; c++) {
			if (c)
				fputs(", ", out);
			json_float(out, v[i * width + c]);
		}
		if (width > 1)
			fputc(']', out);
	}
	fputc(']', out);
}

bool cli_parse_tolerance(const char *arg, animc_tolerance *out)
{
	double v[3];
	const char *p = arg;

	if (strcmp(arg, "default") == 0) {
		out->translation = ANIMC_TOLERANCE_TRANSLATION;
		out->rotation_deg = ANIMC_TOLERANCE_ROTATION_DEG;
		out->scale = ANIMC_TOLERANCE_SCALE;
		return true;
	}
	for (int i = 0; i < 3; i++) {
		char *end;

		v[i] = strtod(p, &end);
		if (end == p || !isfinite(v[i]) || v[i] < 0 || v[i] > 1e30 || *end != (i < 2 ? ',' : '\0'))
			return false;
		p = end + 1;
	}
	out->translation = (float)v[0];
	out->rotation_deg = (float)v[1];
	out->scale = (float)v[2];
	return true;
}

bool cli_parse_size(const char *arg, uint64_t *bytes)
{
	char *end;
	double value;
	uint64_t unit = 1;

	errno = 0;
	value = strtod(arg, &end);
	if (end != arg && *end) {
		switch (*end) {
		case 'k': case 'K': unit = 1ull << 10; end++; break;
		case 'm': case 'M': unit = 1ull << 20; end++; break;
		case 'g': case 'G': unit = 1ull << 30; end++; break;
		case 't': case 'T': unit = 1ull << 40; end++; break;
		}
	}
	if (end == arg || *end || errno || !isfinite(value) || value < 0 || value * (double)unit > 1e18)
		return false;
	/* Up to a whole byte: a positive size never becomes 0, which the
	 * options read as "no limit" or "every source" (0.5 meant as 0.5G). */
	*bytes = (uint64_t)ceil(value * (double)unit);
	return true;
}

void cli_format_clip_error(const animc_clip_error *e, char *buf, size_t size)
{
	int n = snprintf(buf, size, "error: translation %.3g, rotation %.3g deg, scale %.3g", e->translation,
			 e->rotation_deg, e->scale);

	if (n >= 0 && (size_t)n < size && e->shell > 0)
		n += snprintf(buf + n, size - (size_t)n, ", shell %.3g", e->shell);
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " (keys %llu -> %llu)", (unsigned long long)e->keys_before,
			      (unsigned long long)e->keys_after);
	if (n >= 0 && (size_t)n < size &&
	    e->sequences_lossless + e->sequences_coarser + e->sequences_resampled + e->sequences_timed)
		n += snprintf(buf + n, size - (size_t)n, "; sequences: %u lossless, %u at a coarser interval, "
			      "%u resampled evenly, %u with times", e->sequences_lossless, e->sequences_coarser,
			      e->sequences_resampled, e->sequences_timed);
	if (n >= 0 && (size_t)n < size && e->tracks_identity + e->tracks_constant + e->tracks_keyed + e->tracks_segmented)
		n += snprintf(buf + n, size - (size_t)n, "; compact tracks: %u identity, %u constant, %u keyed at one bit "
			      "rate, %u with a bit rate per segment", e->tracks_identity, e->tracks_constant,
			      e->tracks_keyed, e->tracks_segmented);
	if (n >= 0 && (size_t)n < size && e->grid_finer)
		snprintf(buf + n, size - (size_t)n, "; grid %u times finer than the keys' spacing", 1u << e->grid_finer);
}
