/*
 * fs.c - the CLI's file system work: reading sources (the head first, the
 * rest when wanted), atomic writes through
 * a temporary file and rename, recursive folder walks in a fixed order, and
 * path helpers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs.h"


static bool read_some(int fd, uint8_t *buf, size_t want, size_t *got, cli_error *err)
{
	*got = 0;
	while (*got < want) {
		ssize_t n = read(fd, buf + *got, want - *got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cli_error_set(err, "cannot read: %s", strerror(errno));
			return false;
		}
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return true;
}

int cli_stat_input(const char *path, struct stat *st)
{
	if (stat(path, st) != 0)
		return -1;
	if (S_ISDIR(st->st_mode) && st->st_nlink == 0) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int cli_compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *cli_file_kind(unsigned mode)
{
	return S_ISREG(mode) ? "a file" : S_ISDIR(mode) ? "a folder" : S_ISFIFO(mode) ? "a FIFO" :
	       S_ISSOCK(mode) ? "a socket" : S_ISCHR(mode) ? "a character device" :
	       S_ISBLK(mode) ? "a block device" : "not a regular file";
}

int cli_open_resolved(const char *real)
{
	char *names = strdup(real), *name = names ? names + 1 : NULL, *slash;
	int dir = names && real[0] == '/' ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC) : -1, fd = -1, error;

	while (dir >= 0 && (slash = strchr(name, '/'))) {
		int next;

		*slash = '\0';
		next = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		error = errno;
		close(dir);
		errno = error;
		dir = next;
		name = slash + 1;
	}
	if (dir >= 0) {
		fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		error = errno;
		close(dir);
		errno = error;
	}
	if (!names)
		errno = ENOMEM;
	free(names);
	return fd;
}

/* cli_source_open once `fd` (-1: errno says why) is opened for `path`. */
static bool source_take(cli_source *src, int fd, const char *path, cli_error *err)
{
	struct stat st;

	src->head = NULL;
	src->head_size = 0;
	src->fd = fd;
	src->open_error = src->fd < 0 ? errno : 0;
	if (src->fd < 0 && src->open_error == ENXIO && stat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		/* No file to open: said as what it is, as a build says it. */
		cli_error_set(err, "is a socket, not a regular file; not read");
		return false;
	}
	if (src->fd < 0) {
		cli_error_set(err, "cannot open: %s", strerror(src->open_error));
		return false;
	}
	if (fstat(src->fd, &st) != 0) {
		cli_error_set(err, "cannot read: %s", strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		cli_error_set(err, "is a folder");
	} else if (!S_ISREG(st.st_mode)) {
		cli_error_set(err, "is %s, not a regular file; not read", cli_file_kind(st.st_mode));
	} else if (!animc_probe_head_read(src->fd, &src->head, &src->head_size)) {
		cli_error_set(err, "cannot read: %s", strerror(errno));
	} else {
		/* O_NONBLOCK does nothing to a regular file's reads. */
		src->size_bytes = (uint64_t)st.st_size;
		return true;
	}
	cli_source_close(src);
	return false;
}

bool cli_source_open(cli_source *src, const char *path, cli_error *err)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; it is
	 * refused, as is every file that is not a regular one. */
	return source_take(src, open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), path, err);
}

bool cli_source_take(cli_source *src, int fd, const char *path, cli_error *err)
{
	return source_take(src, fd, path, err);
}

bool cli_source_open_resolved(cli_source *src, const char *real, cli_error *err)
{
	return source_take(src, cli_open_resolved(real), real, err);
}

bool cli_read_opened(int fd, const char *path, uint8_t **data, size_t *size, cli_error *err)
{
	cli_source src;

	*data = NULL;
	return source_take(&src, fd, path, err) && cli_source_read_rest(&src, data, size, err);
}

void cli_source_close(cli_source *src)
{
	if (src->fd >= 0)
		close(src->fd);
	src->fd = -1;
	free(src->head);
	src->head = NULL;
}

bool cli_source_read_rest(cli_source *src, uint8_t **data, size_t *size, cli_error *err)
{
	size_t used = src->head_size, cap = used + 65536, got;
	uint8_t *buf = src->head;   /* the buffer grows from the head */
	bool ok = false;

	src->head = NULL;
	src->head_size = 0;
	*data = NULL;
	/* The file's size plus a byte to see its end; more if it grew. */
	if (src->size_bytes >= used)
		cap = src->size_bytes < CLI_MAX_INPUT_BYTES + 1 ? (size_t)src->size_bytes + 1 :
								  CLI_MAX_INPUT_BYTES + 2;
	for (;;) {
		uint8_t *grown;

		if (cap > CLI_MAX_INPUT_BYTES + 1) {
			cli_error_set(err, "is larger than %zu bytes", CLI_MAX_INPUT_BYTES);
			break;
		}
		grown = realloc(buf, cap);
		if (!grown) {
			cli_error_set(err, "out of memory");
			break;
		}
		buf = grown;
		if (!read_some(src->fd, buf + used, cap - used, &got, err))
			break;
		used += got;
		if (used < cap) {
			buf[used] = 0;
			*data = buf;
			*size = used;
			ok = true;
			break;
		}
		cap *= 2;
	}
	if (!ok)
		free(buf);
	cli_source_close(src);
	return ok;
}

bool cli_read_file(const char *path, uint8_t **data, size_t *size, cli_error *err)
{
	cli_source src;

	*data = NULL;
	return cli_source_open(&src, path, err) &&
	       cli_source_read_rest(&src, data, size, err);
}

bool cli_read_file_or_pipe(const char *path, uint8_t **data, size_t *size, cli_error *err)
{
	cli_source src = { .fd = -1 };
	struct stat st;

	*data = NULL;
	/* Blocking: a FIFO's reader waits for its writer, as a shell's
	 * <(cmd) needs. */
	src.fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (src.fd < 0 && errno == ENXIO && stat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		return cli_error_set(err, "is a socket, not a file or a pipe; not read");
	if (src.fd < 0)
		return cli_error_set(err, "cannot open: %s", strerror(errno));
	if (fstat(src.fd, &st) != 0)
		cli_error_set(err, "cannot read: %s", strerror(errno));
	else if (S_ISDIR(st.st_mode))
		cli_error_set(err, "is a folder");
	else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		cli_error_set(err, "is %s, not a file or a pipe; not read", cli_file_kind(st.st_mode));
	else if (!animc_probe_head_read(src.fd, &src.head, &src.head_size))
		cli_error_set(err, "cannot read: %s", strerror(errno));
	else {
		/* A pipe's size is 0: read_rest grows its buffer as it reads. */
		src.size_bytes = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
		return cli_source_read_rest(&src, data, size, err);
	}
	cli_source_close(&src);
	return false;
}

/* Why `path`, which mkdir found there, is no folder to write in: a symbolic
 * link to a folder that is missing (a link made before its target, as a CI
 * cache link can be) or one that loops is named as such, with its target. */
static void say_not_folder(const char *path, cli_error *err)
{
	char target[1024];
	int error = errno;
	struct stat st;
	ssize_t n;

	if (stat(path, &st) == 0 || lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) ||
	    (n = readlink(path, target, sizeof target - 1)) < 0) {
		cli_error_set(err, "'%s' exists and is not a folder", path);
		return;
	}
	target[n] = '\0';
	if (error == ELOOP)
		cli_error_set(err, "'%s' is a symbolic link to '%s', which loops (%s): make it name a folder, or "
			      "remove it", path, target, strerror(error));
	else
		cli_error_set(err, "'%s' is a symbolic link to '%s', a folder that is missing (%s): make that "
			      "folder, or remove the link", path, target, strerror(error));
}

/* Each folder along `path`, from the top: made (`is_made`), or only
 * looked at, up to the first that is not there (a build would make the
 * rest).  False, said, at one that is there and no folder. */
static bool folders_along(const char *path, bool is_made, cli_error *err)
{
	char *copy = strdup(path);
	size_t n;

	if (!copy) {
		cli_error_set(err, "out of memory");
		return false;
	}
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	for (char *p = copy + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char saved = *p;
			struct stat st;

			*p = '\0';
			if (!is_made && lstat(copy, &st) != 0 && errno == ENOENT)
				break;
			if (is_made && mkdir(copy, 0777) != 0 && errno != EEXIST) {
				cli_error_set(err, "cannot create folder '%s': %s", copy, strerror(errno));
				free(copy);
				return false;
			}
			if (stat(copy, &st) != 0 || !S_ISDIR(st.st_mode)) {
				say_not_folder(copy, err);
				free(copy);
				return false;
			}
			*p = saved;
			if (saved == '\0')
				break;
		}
	}
	free(copy);
	return true;
}

bool cli_mkdir_p(const char *path, cli_error *err)
{
	return folders_along(path, true, err);
}

bool cli_folder_may_be_made(const char *path, cli_error *err)
{
	return folders_along(path, false, err);
}

/* Longest path of a temporary file. */
#define TEMP_PATH_BYTES 4096

/* The last folder made sure of: outputs come in runs of one folder. */
static char known_dir[TEMP_PATH_BYTES];

static bool ensure_dir(const char *dir, cli_error *err)
{
	if (strcmp(dir, known_dir) == 0)
		return true;
	if (!cli_mkdir_p(dir, err))
		return false;
	snprintf(known_dir, sizeof known_dir, "%s", dir);
	return true;
}

/* Six random letters and digits of a temporary file's name, and a NUL. */
static void temp_tail(char tail[7])
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static uint64_t state;

	if (!state)
		state = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)&state;
	for (int i = 0; i < 6; i++) {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		tail[i] = digits[state % (sizeof digits - 1)];
	}
	tail[6] = '\0';
}

/* Create ".BASE.XXXXXX" beside `path` (its folder made when missing), mode
 * 0666 less the umask, into `name`.  Returns the descriptor or -1 (errno
 * set; err filled when the folder could not be made). */
static int open_temp(const char *path, char *name, size_t name_size, cli_error *err)
{
	const char *base = cli_basename(path);
	size_t dir_len = (size_t)(base - path);

	if (dir_len) {
		char dir[TEMP_PATH_BYTES];

		memcpy(dir, path, dir_len);
		dir[dir_len] = '\0';
		if (!ensure_dir(dir, err)) {
			errno = 0;
			return -1;
		}
	}
	for (int attempt = 0; attempt < 100; attempt++) {
		char tail[7];
		int fd;

		temp_tail(tail);
		/* ".BASE.XXXXXX" within a file name's 255 bytes: a long base
		 * gives up the end of its stem, keeping its extension (.xnb,
		 * .xnb.zst: a sweep after a killed build knows it by that). */
		size_t len = strlen(base), room = 255 - 8;
		if (len <= room) {
			snprintf(name, name_size, "%.*s.%s.%s", (int)dir_len, path, base, tail);
		} else {
			const char *ext = len > 8 && strcmp(base + len - 8, ".xnb.zst") == 0 ? base + len - 8
					  : len > 4 && strcmp(base + len - 4, ".xnb") == 0 ? base + len - 4 : base + len;
			size_t keep = room - strlen(ext);

			snprintf(name, name_size, "%.*s.%.*s%s.%s", (int)dir_len, path, (int)keep, base, ext, tail);
		}
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

bool cli_write_all(int fd, const void *data, size_t size)
{
	const uint8_t *p = data;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		size -= (size_t)n;
	}
	return true;
}

/* cli_write_temp of pieces[0, count), one after the other. */
static bool write_temp_pieces(const char *path, const cli_piece *pieces, size_t count, char **temp,
			      struct stat *st, cli_error *err)
{
	char name[TEMP_PATH_BYTES];
	int fd, saved;

	*temp = NULL;
	if (strlen(path) + 16 >= sizeof name) {
		cli_error_set(err, "the output path '%s' is too long", path);
		return false;
	}
	fd = open_temp(path, name, sizeof name, err);
	if (fd < 0 && errno == ENOENT) {
		/* The folder went away since it was made: make it again. */
		known_dir[0] = '\0';
		fd = open_temp(path, name, sizeof name, err);
	}
	if (fd < 0) {
		if (errno)   /* else err says which folder could not be made */
			cli_error_set(err, "cannot create a temporary file beside '%s': %s", path, strerror(errno));
		return false;
	}
	bool written = true;

	for (size_t i = 0; written && i < count; i++)
		written = cli_write_all(fd, pieces[i].data, pieces[i].size);
	if (!written || (st && fstat(fd, st) != 0)) {
		saved = errno;
		close(fd);
		unlink(name);
		cli_error_set(err, "cannot write '%s': %s", path, strerror(saved ? saved : EIO));
		return false;
	}
	if (close(fd) != 0) {
		saved = errno;
		unlink(name);
		cli_error_set(err, "cannot write '%s': %s", path, strerror(saved ? saved : EIO));
		return false;
	}
	*temp = strdup(name);
	if (!*temp) {
		unlink(name);
		cli_error_set(err, "out of memory");
		return false;
	}
	return true;
}

bool cli_write_temp(const char *path, const void *data, size_t size, char **temp, struct stat *st,
		    cli_error *err)
{
	cli_piece whole = { data, size };

	return write_temp_pieces(path, &whole, 1, temp, st, err);
}

bool cli_write_atomic(const char *path, const void *data, size_t size, cli_error *err)
{
	cli_piece whole = { data, size };

	return cli_write_atomic_pieces(path, &whole, 1, err);
}

bool cli_write_atomic_pieces(const char *path, const cli_piece *pieces, size_t count, cli_error *err)
{
	char *temp;
	int saved;

	if (!write_temp_pieces(path, pieces, count, &temp, NULL, err))
		return false;
	if (rename(temp, path) != 0) {
		saved = errno;
		unlink(temp);
		free(temp);
		cli_error_set(err, "cannot write '%s': %s", path, strerror(saved));
		return false;
	}
	free(temp);
	return true;
}

/* Write the pieces into ".NAME.XXXXXX" in the folder open at dir_fd: the
 * descriptor (-1, errno set, on failure), the name in `temp`. */
static int write_temp_at(int dir_fd, const char *name, const cli_piece *pieces, size_t count, char *temp,
			 size_t temp_size)
{
	int fd = -1, error = EEXIST;

	for (int attempt = 0; attempt < 100 && fd < 0 && error == EEXIST; attempt++) {
		char tail[7];

		temp_tail(tail);
		snprintf(temp, temp_size, ".%.240s.%s", name, tail);
		fd = openat(dir_fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		error = fd < 0 ? errno : 0;
	}
	for (size_t i = 0; fd >= 0 && i < count; i++)
		if (!cli_write_all(fd, pieces[i].data, pieces[i].size)) {
			error = errno ? errno : EIO;
			close(fd);
			unlinkat(dir_fd, temp, 0);
			fd = -1;
		}
	errno = error;
	return fd;
}

bool cli_write_atomic_pieces_at(int dir_fd, const char *name, const char *path, const cli_piece *pieces,
				size_t count, cli_error *err)
{
	char temp[256];
	int fd, error;

	if (dir_fd == AT_FDCWD)
		return cli_write_atomic_pieces(path, pieces, count, err);
	fd = write_temp_at(dir_fd, name, pieces, count, temp, sizeof temp);
	if (fd < 0)
		return cli_error_set(err, "cannot write '%s': %s", path, strerror(errno));
	error = close(fd) != 0 ? errno : renameat(dir_fd, temp, dir_fd, name) != 0 ? errno : 0;
	if (error) {
		unlinkat(dir_fd, temp, 0);
		return cli_error_set(err, "cannot write '%s': %s", path, strerror(error));
	}
	return true;
}

bool cli_write_named(const char *path, const void *data, size_t size, cli_error *err)
{
	struct stat st;
	int fd;

	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return cli_write_atomic(path, data, size, err);
	if (S_ISDIR(st.st_mode))
		return cli_error_set(err, "cannot write '%s': it is a folder", path);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || !cli_write_all(fd, data, size)) {
		int saved = errno;

		if (fd >= 0)
			close(fd);
		return cli_error_set(err, "cannot write '%s': %s", path, strerror(saved));
	}
	if (close(fd) != 0)
		return cli_error_set(err, "cannot write '%s': %s", path, strerror(errno));
	return true;
}

void cli_bytes_put(cli_bytes *b, const void *data, size_t size)
{
	if (b->is_broken)
		return;
	if (size >= b->capacity - b->size) {
		size_t capacity = b->capacity ? b->capacity : 256;
		uint8_t *grown;

		while (size >= capacity - b->size) {
			if (capacity > SIZE_MAX / 2) {
				b->is_broken = true;
				return;
			}
			capacity *= 2;
		}
		grown = realloc(b->data, capacity);
		if (!grown) {
			b->is_broken = true;
			return;
		}
		b->data = grown;
		b->capacity = capacity;
	}
	if (size)
		memcpy(b->data + b->size, data, size);
	b->size += size;
	b->data[b->size] = '\0';
}

bool cli_strings_push(cli_strings *list, const char *s)
{
	char *copy;

	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? list->capacity * 2 : 16;
		char **grown = realloc(list->items, capacity * sizeof *grown);

		if (!grown)
			return false;
		list->items = grown;
		list->capacity = capacity;
	}
	copy = strdup(s);
	if (!copy)
		return false;
	list->items[list->count++] = copy;
	return true;
}

void cli_strings_release(cli_strings *list)
{
	for (size_t i = 0; i < list->count; i++)
		free(list->items[i]);
	free(list->items);
	list->items = NULL;
	list->count = list->capacity = 0;
}

const char *cli_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void cli_path_tidy(char *path)
{
	bool is_absolute = path[0] == '/';
	char *out = path;

	if (!path[0])
		return;   /* no room for "."; a caller that takes "" refuses it first */
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");

		if (n && !(n == 1 && p[0] == '.')) {
			if (out > path || is_absolute)
				*out++ = '/';
			memmove(out, p, n);
			out += n;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (out == path)
		*out++ = is_absolute ? '/' : '.';
	*out = '\0';
}

bool cli_path_is_within(const char *path, const char *folder)
{
	size_t n = strlen(folder);

	while (n > 1 && folder[n - 1] == '/')
		n--;
	if (n == 1 && folder[0] == '/')
		return path[0] == '/';
	return strncmp(path, folder, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* A resolution under way (cli_path_resolve_within): `at`, resolved, and
 * the names still to take, `todo` (a link's target goes in front). */
typedef struct resolving {
	char at[2 * PATH_MAX], todo[2 * PATH_MAX], next[4 * PATH_MAX], rest[2 * PATH_MAX];
	unsigned links;
} resolving;

/* Whether `p` (resolved) is on the way to `root` or in it: a folder above
 * it, it, or a path below it. */
static bool is_on_the_way(const char *p, const char *root)
{
	return cli_path_is_within(p, root) || cli_path_is_within(root, p);
}

/* Take the first name of r->todo (`len` bytes) at r->next: a link's target
 * goes in front of what is left; else r->at moves there.  False, errno
 * set, when it cannot be resolved; and when it is `outside` and no link,
 * there or not. */
static bool take_name(resolving *r, size_t len, bool outside)
{
	char target[PATH_MAX];
	ssize_t n = readlink(r->next, target, sizeof target - 1);

	if (n < 0 && (outside || errno != EINVAL))
		return false;
	if (n < 0 && strlen(r->next) >= sizeof r->at) {
		errno = ENAMETOOLONG;
		return false;
	}
	if (n < 0) {
		memmove(r->todo, r->todo + len, strlen(r->todo + len) + 1);
		memcpy(r->at, r->next, strlen(r->next) + 1);
		return true;
	}
	if (++r->links > 40) {
		errno = ELOOP;
		return false;
	}
	target[n] = '\0';
	snprintf(r->rest, sizeof r->rest, "%s", r->todo + len);
	if (snprintf(r->todo, sizeof r->todo, "%s%s", target, r->rest) >= (int)sizeof r->todo) {
		errno = ENAMETOOLONG;
		return false;
	}
	if (target[0] == '/')
		strcpy(r->at, "/");
	return true;
}

/* Drop the first `len` bytes of r->todo, a "." or a ".." (r->at up one). */
static void take_dots(resolving *r, size_t len)
{
	char *slash = strrchr(r->at, '/');

	if (len == 2 && slash)
		slash[slash == r->at] = '\0';
	memmove(r->todo, r->todo + len, strlen(r->todo + len) + 1);
}

/* Resolve r->todo from r->at against `root` (cli_path_resolve_within). */
static char *resolve_within(resolving *r, const char *root, char **outside)
{
	for (;;) {
		char *name = r->todo + strspn(r->todo, "/");
		size_t len = strcspn(name, "/");

		memmove(r->todo, name, strlen(name) + 1);
		if (!len)
			break;
		if ((len == 1 || len == 2) && strncmp(r->todo, "..", len) == 0) {
			take_dots(r, len);
			continue;
		}
		snprintf(r->next, sizeof r->next, "%s%s%.*s", r->at, strcmp(r->at, "/") ? "/" : "", (int)len, r->todo);
		bool is_out = !is_on_the_way(r->next, root);

		if (take_name(r, len, is_out))
			continue;
		if (is_out) {
			*outside = r->todo[len] ? cli_path_join(r->next, r->todo + len + 1, NULL) : strdup(r->next);
			errno = EXDEV;
		}
		return NULL;
	}
	if (!cli_path_is_within(r->at, root)) {
		*outside = strdup(r->at);
		errno = EXDEV;
		return NULL;
	}
	return strdup(r->at);
}

char *cli_path_resolve_within(const char *from, const char *path, const char *root, char **outside)
{
	resolving *r = malloc(sizeof *r);
	char *real = NULL;
	int error = ENOMEM;

	*outside = NULL;
	if (r) {
		r->links = 0;
		snprintf(r->at, sizeof r->at, "%s", path[0] == '/' ? "/" : from);
		if (snprintf(r->todo, sizeof r->todo, "%s", path) >= (int)sizeof r->todo)
			errno = ENAMETOOLONG;
		else
			real = resolve_within(r, root, outside);
		error = errno;
	}
	free(r);
	errno = error;
	return real;
}

bool cli_is_left_out_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] == '.' || (n && name[n - 1] == '~') || (n > 1 && name[0] == '#' && name[n - 1] == '#') ||
	       (n > 4 && strcmp(name + n - 4, ".swp") == 0) || (n > 4 && strcmp(name + n - 4, ".tmp") == 0);
}

size_t cli_stem_length(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && dot != name ? (size_t)(dot - name) : strlen(name);
}

char *cli_path_join(const char *a, const char *b, const char *c)
{
	const char *parts[3] = { a, b, c };
	size_t len = 1;
	char *out;

	for (int i = 0; i < 3; i++)
		if (parts[i])
			len += strlen(parts[i]) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (int i = 0; i < 3; i++) {
		size_t n;

		if (!parts[i] || !parts[i][0])
			continue;
		n = strlen(out);
		if (n && out[n - 1] != '/')
			strcat(out, "/");
		strcat(out, parts[i]);
	}
	return out;
}

/* Paths and the length of each one's folder part. */
typedef struct paths_and_folders {
	const char *const *paths;
	const size_t *folder_len;
} paths_and_folders;

/* The paths by folder, in no order within one (qsort_r over indices). */
static int compare_by_folder(const void *a, const void *b, void *at)
{
	const paths_and_folders *pf = at;
	size_t i = *(const size_t *)a, k = *(const size_t *)b;
	size_t xn = pf->folder_len[i], yn = pf->folder_len[k];
	int c = memcmp(pf->paths[i], pf->paths[k], xn < yn ? xn : yn);

	return c ? c : xn < yn ? -1 : xn > yn;
}

typedef struct listed_name {
	char *name;
	unsigned char type;
} listed_name;

static int compare_listed(const void *a, const void *b)
{
	return strcmp(((const listed_name *)a)->name, ((const listed_name *)b)->name);
}

static int compare_name_to_listed(const void *name, const void *listed)
{
	return strcmp(name, ((const listed_name *)listed)->name);
}

/* The names in the folder `dir` (NULL when it cannot be listed). */
static listed_name *list_folder(const char *dir, size_t *count)
{
	DIR *d = opendir(dir[0] ? dir : ".");
	listed_name *names = NULL, *grown;
	size_t n = 0, cap = 0;
	struct dirent *de;

	*count = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (n == cap) {
			size_t want = cap ? cap * 2 : 64;

			if (!(grown = realloc(names, want * sizeof *names)))
				break;
			names = grown;
			cap = want;
		}
		if (!(names[n].name = strdup(de->d_name)))
			break;
		names[n++].type = de->d_type;
	}
	closedir(d);
	qsort(names, n, sizeof *names, compare_listed);
	*count = n;
	return names;
}

/* The kinds of paths[order[from, to)], all in one folder, from its listing. */
static void kinds_of_folder(const char *const *paths, const size_t *order, size_t from, size_t to,
			    unsigned char *kinds)
{
	const char *first = paths[order[from]];
	char *dir = strndup(first, (size_t)(cli_basename(first) - first));
	size_t n = 0;
	listed_name *names = dir ? list_folder(dir, &n) : NULL;

	for (size_t i = from; names && i < to; i++) {
		const listed_name *hit = bsearch(cli_basename(paths[order[i]]), names, n, sizeof *names,
						 compare_name_to_listed);

		kinds[order[i]] = hit ? hit->type : DT_UNKNOWN;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i].name);
	free(names);
	free(dir);
}

void cli_kinds_by_listing(const char *const *paths, size_t count, unsigned char *kinds)
{
	enum { MANY = 8 };   /* paths in one folder worth a listing */
	size_t *order = malloc((count ? count : 1) * sizeof *order);
	size_t *folder_len = malloc((count ? count : 1) * sizeof *folder_len);
	paths_and_folders pf = { paths, folder_len };

	memset(kinds, DT_UNKNOWN, count);
	if (!order || !folder_len) {
		free(order);
		free(folder_len);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		order[i] = i;
		folder_len[i] = (size_t)(cli_basename(paths[i]) - paths[i]);
	}
	qsort_r(order, count, sizeof *order, compare_by_folder, &pf);
	for (size_t from = 0, to; from < count; from = to) {
		for (to = from + 1; to < count && compare_by_folder(&order[from], &order[to], &pf) == 0; to++)
			;
		if (to - from >= MANY)
			kinds_of_folder(paths, order, from, to, kinds);
	}
	free(folder_len);
	free(order);
}
