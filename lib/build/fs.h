/*
 * fs.h - files as the engine and the commands read and write them (fs.c):
 * sources read in two steps, whole-file reads, atomic writes, folders, and
 * the growing byte buffers and string lists built on the way.
 */
#ifndef ANIMC_BUILD_FS_H
#define ANIMC_BUILD_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc_formats.h>
#include "error.h"

#define CLI_MAX_INPUT_BYTES ((size_t)1 << 30)

/*
 * A source file read in two steps, so that a file an importer reads itself
 * (Assimp) is not read twice: cli_source_open reads the probe head
 * (animc_probe_head_read), cli_source_read_rest the rest from the same
 * descriptor (pipes included) when the importer wants it all.  On failure
 * each returns false with a reason in *err (err may be NULL) and leaves the
 * source closed.  cli_source_close releases the head too.
 */
typedef struct cli_source {
	int fd;
	uint8_t *head;         /* malloc()ed; NULL once closed */
	size_t head_size;
	uint64_t size_bytes;   /* the file's size when opened */
	int open_error;        /* errno of an open() that failed; 0 when it did not */
} cli_source;

bool cli_source_open(cli_source *src, const char *path, cli_error *err);
/* Open `real`, an absolute path with no symbolic link in it (as realpath()
 * gives it), for reading, following no link: a folder on its way replaced
 * by a link since the path was resolved fails the open (ELOOP or ENOTDIR)
 * rather than lead elsewhere.  The descriptor, or -1 (errno says why). */
int cli_open_resolved(const char *real);
/* cli_source_open of `real` opened so (src->open_error says why not). */
bool cli_source_open_resolved(cli_source *src, const char *real, cli_error *err);
/* cli_source_open of the file open at fd (-1: errno says why it is not),
 * `path` naming it; src takes fd. */
bool cli_source_take(cli_source *src, int fd, const char *path, cli_error *err);
/* cli_read_file of the file open as `fd` (closed here; -1, with errno,
 * when its open failed), opened by the name `path` (what a failed open
 * found there, a socket, is said as cli_read_file says it). */
bool cli_read_opened(int fd, const char *path, uint8_t **data, size_t *size, cli_error *err);
/* stat() of an input the user named: a folder deleted while it is still
 * held (".", the working folder of a shell whose folder was removed or
 * cloned again) stats with no links; it is not there either (ENOENT). */
struct stat;
int cli_stat_input(const char *path, struct stat *st);
/* "a FIFO", "a socket", "a folder", ... for messages. */
const char *cli_file_kind(unsigned mode);
/* The whole file (malloc()ed, NUL-terminated beyond *size, at most
 * CLI_MAX_INPUT_BYTES); closes the source either way (its head is then
 * gone: the whole file begins with it). */
bool cli_source_read_rest(cli_source *src, uint8_t **data, size_t *size, cli_error *err);
void cli_source_close(cli_source *src);

/* The whole file at once: open and read the rest. */
bool cli_read_file(const char *path, uint8_t **data, size_t *size, cli_error *err);
/* The same for a file a user names to be read once, a response file or
 * the compiled file dump, sample and plot read: a
 * regular file, or a pipe or character device (@/dev/stdin, @<(cmd))
 * read to its end, waiting for a writer; a folder, socket or block device
 * is refused.  At most CLI_MAX_INPUT_BYTES either way. */
bool cli_read_file_or_pipe(const char *path, uint8_t **data, size_t *size, cli_error *err);

/* Write all of data[0..size) to fd, going on after EINTR and short writes. */
bool cli_write_all(int fd, const void *data, size_t size);

/* Create a directory and its parents (mode 0777 & ~umask). */
bool cli_mkdir_p(const char *path, cli_error *err);
/* Whether cli_mkdir_p could make `path` as far as can be told without
 * making anything: no file, and no link to a missing folder, along it
 * (said as cli_mkdir_p says it). */
bool cli_folder_may_be_made(const char *path, cli_error *err);

/*
 * Write `data` to `path` atomically: a temporary file in the same folder,
 * renamed into place, so a reader never sees a partial file; removed on
 * failure.  Creates missing parent folders.  (A process stopped by a
 * signal mid-write may leave ".NAME.XXXXXX": animc build removes those of
 * its own output folder; see build_sweep_temps.)
 */
bool cli_write_atomic(const char *path, const void *data, size_t size, cli_error *err);
/* A file the user names (plot -o): as cli_write_atomic, but a path that is
 * there and no regular file (/dev/stdout, a FIFO) is written as it is:
 * renamed over, it would be replaced by a file. */
bool cli_write_named(const char *path, const void *data, size_t size, cli_error *err);

/*
 * The first half of an atomic write: `data` in a new temporary file beside
 * `path` (".NAME.XXXXXX"; folders made), its name in *temp (malloc()ed) and
 * its stat in *st (may be NULL).  The caller renames it into place or
 * removes it.
 */
struct stat;
bool cli_write_temp(const char *path, const void *data, size_t size, char **temp, struct stat *st,
		    cli_error *err);
/* Bytes in pieces, written one after the other. */
typedef struct cli_piece {
	const void *data;
	size_t size;
} cli_piece;
/* cli_write_atomic of the pieces' bytes, one after the other: not copied
 * into one buffer first. */
bool cli_write_atomic_pieces(const char *path, const cli_piece *pieces, size_t count, cli_error *err);
/* The same in the folder open at dir_fd, as `name` there, the temporary
 * file made and renamed in it: a folder on the way swapped for a symbolic
 * link leads nowhere.  `path` names the file in messages.  dir_fd
 * AT_FDCWD: cli_write_atomic_pieces of `path`. */
bool cli_write_atomic_pieces_at(int dir_fd, const char *name, const char *path, const cli_piece *pieces,
				size_t count, cli_error *err);


/* Bytes appended at the end, in a buffer that grows; is_broken once memory
 * runs out (later appends do nothing).  The bytes are followed by a NUL,
 * so text can be read as a string. */
typedef struct cli_bytes {
	uint8_t *data;
	size_t size, capacity;
	bool is_broken;
} cli_bytes;

void cli_bytes_put(cli_bytes *b, const void *data, size_t size);

/* A growable list of strings, owned. */
typedef struct cli_strings {
	char **items;
	size_t count, capacity;
} cli_strings;

bool cli_strings_push(cli_strings *list, const char *s);
/* qsort()/bsearch() order of an array of C strings (char *). */
int cli_compare_strings(const void *a, const void *b);
void cli_strings_release(cli_strings *list);

/* A path spelled one way, in place: "./art//Grund/." -> "art/Grund"; a
 * lone "." stays, ".." parts stay (what they mean depends on links).  It
 * never grows the string: "" stays "" (it is no path; callers refuse it). */
void cli_path_tidy(char *path);
/* Is `path` `folder` itself or a path below it, as spelled ("a/b" is
 * within "a", "ab" is not; every absolute path is within "/")?  Both
 * spelled alike: real paths, or tidied ones. */
bool cli_path_is_within(const char *path, const char *folder);
/*
 * `path` resolved as realpath() resolves it, from the folder `from` (an
 * absolute path with no symbolic link in it; "/" for an absolute `path`),
 * a name at a time, looking at nothing past the point where it leaves
 * `root` (resolved) and the folders above it, on the way to it (but for a
 * symbolic link there, followed as it may lead back in): a path read from
 * an input is refused there, whether a file is there or not.  A new
 * string, or NULL: errno EXDEV when it leaves `root`, *outside then the
 * path from that point on (a new string), else why it cannot be resolved
 * (ENOENT...).
 */
char *cli_path_resolve_within(const char *from, const char *path, const char *root, char **outside);
/* "a/b/c.Animation" -> "c.Animation" (pointer into path). */
const char *cli_basename(const char *path);
/* A name a folder walk leaves out: hidden (".name", vim's ".name.swp"),
 * an editor's backup ("name~") or auto-save ("#name#"), a temporary
 * ("name.tmp"). */
bool cli_is_left_out_name(const char *name);
/* Length of the stem of a file name: up to its last '.', if that is not the first character. */
size_t cli_stem_length(const char *name);
/* For each of `paths`, what a listing of its folder says it is: its
 * d_type (DT_REG, DT_DIR, ...), DT_UNKNOWN when the listing cannot tell
 * (a name not there, a file system without types, a folder that cannot
 * be listed).  A folder holding many of the paths is listed once, which
 * costs less than a stat of each; the others are DT_UNKNOWN. */
void cli_kinds_by_listing(const char *const *paths, size_t count, unsigned char *kinds);
/* Join with '/' into a new malloc()ed string; NULL parts are skipped. */
char *cli_path_join(const char *a, const char *b, const char *c);

#endif
