/*
 * cli.h - what the animc commands share (cli.c): exit codes, diagnostic
 * printing, compiled files, human text and JSON output; with it come
 * error.h (cli_error) and fs.h (files).  The CLI is the only layer that
 * touches argv, the file system and stdio.
 */
#ifndef ANIMC_CMD_CLI_H
#define ANIMC_CMD_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <animc/animc_formats.h>
#include <animc/animrt.h>
#include "error.h"
#include "fs.h"

/* Exit statuses, as documented in docs/cli.md and --help. */
enum {
	ANIMC_EXIT_OK = 0,      /* everything asked for was done */
	ANIMC_EXIT_FAILED = 1,  /* some input failed (the others were still done) */
	ANIMC_EXIT_USAGE = 2    /* bad command line; nothing was done */
};

typedef struct animc_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*help)(FILE *out);
} animc_command;

extern const animc_command animc_cmd_build;
extern const animc_command animc_cmd_outputs;
extern const animc_command animc_cmd_watch;
extern const animc_command animc_cmd_clean;
extern const animc_command animc_cmd_dump;
extern const animc_command animc_cmd_sample;
extern const animc_command animc_cmd_batch;
extern const animc_command animc_cmd_plot;

/* SIGINT, SIGTERM and SIGHUP to `handler` (SIG_DFL in a worker); SIGHUP
 * only when this process was not started with it ignored, so that a
 * build or watch run under nohup outlives its terminal.  SIGINT is caught
 * even when a shell started a background job with it ignored: `kill -INT`
 * stops a watch as Ctrl-C does, which scripts rely on. */
void cli_catch_stop_signals(void (*handler)(int));

/* Make getopt_long start afresh on a new argv, opterr off (errors are the
 * caller's): optind = 0, which in glibc also forgets the rest of an option
 * cluster an earlier parse stopped in (batch parses one argv per line). */
void cli_getopt_reset(void);

/* Print a usage error ("animc CMD: message") and a hint; returns ANIMC_EXIT_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Of `choices` (ending with NULL), the one `word` most likely misspells:
 * within an edit or two (a letter added, dropped, changed or two swapped;
 * ASCII case ignored), fewer for short words.  NULL when none is. */
const char *cli_nearest(const char *word, const char *const *choices);
/* The usage error for getopt_long's '?' (or ':', needs_value): "unknown
 * option", "option ... needs a value", "option '--json' takes no value"
 * (--json=yes), "option '--re' is ambiguous" naming the options it may
 * mean, or "unknown option '--jsn' (did you mean '--json'?)" for one a
 * letter or two from a long option (cli_nearest, as commands are found),
 * "unknown option '-O' (did you mean '-o'?)" for a letter whose other case
 * is a short option, naming the option as given, and a letter of a cluster with its
 * cluster ("unknown option '-a' (in '-qa')").  `from` is optind before the
 * getopt_long call; `shorts` and `longs` the options it was given.  Returns
 * ANIMC_EXIT_USAGE. */
struct option;
int cli_option_error(const char *command, int argc, char **argv, int from, bool needs_value, const char *shorts,
		     const struct option *longs);
/* Every command's check of a file or folder argument, NAME ("--skeleton",
 * "FILE"): an empty one, what an unset variable gives a script, is
 * refused as "NAME is empty: give WHAT" (a usage error for the caller to
 * say) before anything is opened or made, rather than failing later as a
 * path that names nothing.  False after filling in *err. */
bool cli_path_argument(const char *name, const char *arg, const char *what, cli_error *err);

/* Flush standard output.  False, after saying "animc CMD: error writing
 * standard output: REASON" on stderr (once a process), when it cannot be
 * written, now or by an earlier write (a full disk, a closed pipe with
 * SIGPIPE ignored): what was to be printed is lost, which a script must
 * learn from the exit status.  `command` may be NULL. */
bool cli_stdout_flush(const char *command);
/* Flush standard output as a command goes (a line of progress, the
 * summary), keeping the reason of the first failure for cli_stdout_flush
 * to say: the failing flush is seldom the last. */
void cli_stdout_sync(void);
/* Write `size` bytes to standard output and flush them; on failure, say
 * so with the reason the write gave (once, as cli_stdout_flush does).  A
 * long text written so keeps its reason, which stdio's buffer loses when
 * the failing write is not the last. */
bool cli_stdout_put(const char *command, const char *bytes, size_t size);
/* `help`'s text on standard output, through cli_stdout_put: false when it
 * could not be written (said). */
bool cli_stdout_help(const char *command, void (*help)(FILE *out));

/* ----------------------------------------------------------- diagnostics */

typedef struct cli_diag_printer {
	FILE *out;
	bool show_notes;
} cli_diag_printer;

/* An animc_diag_fn printing "path:line:col: severity: message", control
 * characters escaped. */
void cli_print_diag(void *printer, const animc_diag *diag);

/* ------------------------------------------------------- compiled files */

/* --reader-name NAME of the reading commands (dump, sample, plot): type reader
 * names taken beside the default (a type part ending in AnimationReader).
 * The names are argv's; at most CLI_MAX_READER_NAMES. */
#define CLI_MAX_READER_NAMES 16
typedef struct cli_readers {
	const char *names[CLI_MAX_READER_NAMES];
	animrt_open_options options;
} cli_readers;

/* Add a --reader-name; false (a usage error printed for `command`) when
 * there are too many or the name is empty. */
bool cli_readers_add(cli_readers *readers, const char *command, const char *name);

/* Open a compiled clip, a compact one decoded, taking `readers` (may be
 * NULL); NULL after printing "path: error: ..." (with a hint for a reader
 * the options do not take). */
animrt_clip *cli_clip_open(const char *path, const cli_readers *readers);
/* The same for a file already read: data[0..size), named `path`. */
animrt_clip *cli_clip_open_bytes(const char *path, const void *data, size_t size, const cli_readers *readers);
/* Keep up to `count` (at most CLI_KEPT_CLIPS) clips cli_clip_open opened
 * for the next opens of the same file (`animc batch`, whose lines may
 * sample one large clip many times): a file whose device, inode, size,
 * mtime and ctime are unchanged, opened with the same readers, is not
 * read and checked again.  0: keep none, closing those kept. */
#define CLI_KEPT_CLIPS 4
void cli_clip_keep(unsigned count);
/* Done with a clip of cli_clip_open: closed, unless it is kept. */
void cli_clip_close(animrt_clip *clip);
/* The bone names of the sequences of `clips` (`count` of them), each name
 * once, in the order it first comes, into `names` (room for every
 * sequence of them all); returns how many. */
uint32_t cli_bone_names(const animrt_clip *const *clips, unsigned count, const char **names);

/* --shell-distance when --skeleton is given without it, in model units. */
#define CLI_SHELL_DISTANCE 1.0f

/* ------------------------------------------------------------ human text */

/*
 * Names as they may be shown to a person (tables, progress lines): control
 * characters (C0, DEL, and the C1 range U+0080..U+009F) and bytes that are
 * not UTF-8 escaped C-style (\n \t \r \x1b \u0085 \xff), a backslash as
 * \\, so that nothing in a name moves the cursor, clears the screen or
 * colours the terminal.  Everything else, UTF-8 included, is printed as it
 * is.  JSON has its own escaping (json_string).
 */
/* Print `s` escaped, left-aligned and padded with spaces to at least
 * `width` terminal columns (0: no padding); returns the columns printed. */
size_t cli_print_escaped(FILE *out, const char *s, size_t width);
/* The terminal columns cli_print_escaped takes for s. */
size_t cli_escaped_columns(const char *s);
/* The same into buf, snprintf-style: always NUL-terminated (when size > 0),
 * returns the length the whole escaped text needs. */
size_t cli_escape(char *buf, size_t size, const char *s);

/* ------------------------------------------------------------- tolerance */

/* "default" (ANIMC_TOLERANCE_*), or "T,R,S": three numbers from 0 to 1e30
 * (model units, degrees, scale; past 1e30 a bound means nothing a float
 * can tell).  False when `arg` is neither. */
bool cli_parse_tolerance(const char *arg, animc_tolerance *out);
/* What cli_parse_tolerance takes, for the usage error of a value it refused. */
#define CLI_TOLERANCE_FORMS "'default' or three numbers from 0 to 1e30, T,R,S (units, degrees, scale)"

/* A size such as 4G, 512M, 256K or 1000 (bytes; K M G T, powers of 1024),
 * a part of a byte rounded up (only a value of 0 is 0 bytes); false when
 * `arg` is not one. */
bool cli_parse_size(const char *arg, uint64_t *bytes);

/* "error: translation 0.00098, rotation 0.049 deg, scale 0 (keys 8887 -> 6471)" */
void cli_format_clip_error(const animc_clip_error *e, char *buf, size_t size);

/* ----------------------------------------------------------------- JSON */

/* The shortest decimal that reads back as the same float32; "-0" for
 * negative zero. */
void cli_format_float(float f, char *buf, size_t size);
void json_float(FILE *out, float f);
/* A JSON string: quotes, backslashes and control characters escaped, and a
 * byte that is not part of UTF-8 written as U+FFFD, so that the output is
 * always valid JSON whatever a file name holds. */
void json_string(FILE *out, const char *s);
void json_floats(FILE *out, const float *v, size_t count, unsigned width);

#endif
