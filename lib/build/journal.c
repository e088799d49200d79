/*
 * journal.c - the outputs a run puts in place, recorded before each rename
 * so that no kill leaves one the manifest and the journal both miss; and
 * the reading and folding of journals killed runs left (journal.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "journal.h"

#define JOURNAL_MAGIC "animc-journal 1\n"
#define JOURNAL_MAGIC_SIZE (sizeof JOURNAL_MAGIC - 1)
#define CHECK_DIGITS 16

/* ------------------------------------------------------------- writing */

bool build_journal_init(build_journal *j, const char *out_dir)
{
	memset(j, 0, sizeof *j);
	j->fd = -1;
	j->dir_fd = -1;
	j->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	j->dir = cli_path_join(out_dir, MANIFEST_DIR, NULL);
	return j->dir != NULL;
}

/* The check closing a record: XXH3-64 of the line before it, in hex. */
static void line_check(const void *line, size_t size, char hex[CHECK_DIGITS + 1])
{
	snprintf(hex, CHECK_DIGITS + 1, "%016llx", (unsigned long long)XXH3_64bits(line, size));
}

/* The file, journal.<pid> (a killed run of the same pid may have left one:
 * then journal.<pid>.<n>), made with the first record, mode 0666 less the
 * umask as the outputs are: a run that writes nothing makes none. */
static bool journal_open(build_journal *j, cli_error *err)
{
	char name[64];

	if (j->spare_fd >= 0) {
		close(j->spare_fd);
		j->spare_fd = -1;
	}
	for (int attempt = 0; attempt < 100 && j->fd < 0; attempt++) {
		if (attempt)
			snprintf(name, sizeof name, JOURNAL_PREFIX "%ld.%d", (long)getpid(), attempt);
		else
			snprintf(name, sizeof name, JOURNAL_PREFIX "%ld", (long)getpid());
		free(j->path);
		j->path = cli_path_join(j->dir, name, NULL);
		if (!j->path)
			return cli_error_set(err, "out of memory");
		j->fd = openat(j->dir_fd >= 0 ? j->dir_fd : AT_FDCWD, j->dir_fd >= 0 ? name : j->path,
			       O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (j->fd < 0 && errno != EEXIST)
			break;
	}
	if (j->fd < 0) {
		cli_error_errno(err, errno, "cannot create '%s'", j->path);
		free(j->path);
		j->path = NULL;
		return false;
	}
	return true;
}

bool build_journal_add(build_journal *j, const manifest_output *o, cli_error *err)
{
	char hex[CHECK_DIGITS + 1];
	size_t start;

	if (!j->dir)
		return true;
	if (j->is_broken)
		return cli_error_errno(err, j->broken_error, "cannot write '%s'", j->path);
	j->line.size = 0;
	j->line.is_broken = false;
	if (j->fd < 0 && !journal_open(j, err))
		return false;   /* tried again with the next record */
	if (j->size == 0)
		cli_bytes_put(&j->line, JOURNAL_MAGIC, JOURNAL_MAGIC_SIZE);   /* in the first write */
	start = j->line.size;
	manifest_output_put(&j->line, "output", o);
	if (!j->line.is_broken) {
		j->line.size--;   /* the newline, after the check */
		line_check(j->line.data + start, j->line.size - start, hex);
		cli_bytes_put(&j->line, "\t", 1);
		cli_bytes_put(&j->line, hex, CHECK_DIGITS);
		cli_bytes_put(&j->line, "\n", 1);
	}
	if (j->line.is_broken)
		return cli_error_set(err, "out of memory");
	/* A write cut short leaves a part of a line, which records after it
	 * would be glued to: it goes, or there are no more. */
	if (!cli_write_all(j->fd, j->line.data, j->line.size)) {
		int error = errno ? errno : EIO;

		if (ftruncate(j->fd, j->size) != 0) {
			j->is_broken = true;
			j->broken_error = error;
		}
		return cli_error_errno(err, error, "cannot write '%s'", j->path);
	}
	j->size += (off_t)j->line.size;
	j->pending++;
	return true;
}

void build_journal_clear(build_journal *j)
{
	if (j->fd >= 0 && j->size > (off_t)JOURNAL_MAGIC_SIZE &&
	    ftruncate(j->fd, (off_t)JOURNAL_MAGIC_SIZE) == 0)
		j->size = (off_t)JOURNAL_MAGIC_SIZE;
	if (j->fd < 0 || j->size <= (off_t)JOURNAL_MAGIC_SIZE)
		j->pending = 0;
}

void build_journal_close(build_journal *j)
{
	if (j->fd >= 0) {
		close(j->fd);
		if (!j->pending)
			unlinkat(j->dir_fd >= 0 ? j->dir_fd : AT_FDCWD,
				 j->dir_fd >= 0 ? cli_basename(j->path) : j->path, 0);
	}
	if (j->spare_fd >= 0)
		close(j->spare_fd);
	free(j->path);
	free(j->dir);
	free(j->line.data);
	memset(j, 0, sizeof *j);
	j->fd = -1;
	j->dir_fd = -1;
	j->spare_fd = -1;
}

/* ------------------------------------------------------------- reading */

/* One complete line (no newline, NUL-terminated in place): a record into
 * into->orphans, or said and skipped.  False when out of memory. */
static bool parse_line(const build_ctx *ctx, const char *name, uint32_t line_no, char *s, size_t size,
		       manifest *into)
{
	char *tab = memrchr(s, '\t', size);
	char hex[CHECK_DIGITS + 1];
	manifest_output o;

	if (!tab || strlen(s) != size || strlen(tab + 1) != CHECK_DIGITS ||
	    (line_check(s, (size_t)(tab - s), hex), memcmp(hex, tab + 1, CHECK_DIGITS) != 0)) {
		build_say_at_kind(ctx, ANIMC_WARNING, "journal", name, line_no, "damaged; ignored");
		return true;
	}
	*tab = '\0';
	switch (manifest_output_parse(s, "output", &o)) {
	case MANIFEST_RECORD_OK:
		break;
	case MANIFEST_RECORD_OUTSIDE: {
		char shown[1024];

		cli_escape(shown, sizeof shown, s + strlen("output") + 1);
		build_say_at_kind(ctx, ANIMC_WARNING, "journal", name, line_no,
			     "names '%s', which is not under the output folder; ignored", shown);
		return true;
	}
	default:
		build_say_at_kind(ctx, ANIMC_WARNING, "journal", name, line_no, "not a record of an output; ignored");
		return true;
	}
	if (!manifest_add_orphan(into, &o)) {
		manifest_output_release(&o);
		return false;
	}
	return true;
}

bool build_journal_parse(const build_ctx *ctx, const char *name, const char *data, size_t size,
			 manifest *into)
{
	char *copy;
	size_t at;
	uint32_t line_no = 1;
	bool ok = true;

	/* A header cut short: the run was killed making the file. */
	if (size < JOURNAL_MAGIC_SIZE && memcmp(data, JOURNAL_MAGIC, size) == 0)
		return true;
	if (size < JOURNAL_MAGIC_SIZE || memcmp(data, JOURNAL_MAGIC, JOURNAL_MAGIC_SIZE) != 0) {
		build_say_kind(ctx, ANIMC_WARNING, "journal", name, "not an animc journal of this version; ignored");
		return true;
	}
	copy = malloc(size + 1);
	if (!copy)
		return false;
	memcpy(copy, data, size);
	copy[size] = '\0';
	/* Only lines with their newline: the last one without it was cut
	 * short by the kill, and is not a record. */
	for (at = JOURNAL_MAGIC_SIZE; ok && at < size;) {
		char *end = memchr(copy + at, '\n', size - at);

		if (!end)
			break;
		*end = '\0';
		ok = parse_line(ctx, name, ++line_no, copy + at, (size_t)(end - (copy + at)), into);
		at = (size_t)(end - copy) + 1;
	}
	free(copy);
	return ok;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether `data` is a journal of another format version ("animc-journal
 * 2", as another animc writes): its records are that animc's to read, and
 * the file is that animc's to remove.  Said when it is. */
static bool is_other_version(const build_ctx *ctx, const char *name, const char *data, size_t size)
{
	static const char word[] = "animc-journal ";
	size_t n = sizeof word - 1, end = n;
	char version[32];

	if (size <= n || memcmp(data, word, n) != 0 ||
	    (size >= JOURNAL_MAGIC_SIZE && memcmp(data, JOURNAL_MAGIC, JOURNAL_MAGIC_SIZE) == 0) ||
	    (size < JOURNAL_MAGIC_SIZE && memcmp(data, JOURNAL_MAGIC, size) == 0))
		return false;
	while (end < size && end - n < sizeof version - 1 && data[end] >= '0' && data[end] <= '9')
		end++;
	if (end == n || end == size || data[end] != '\n')
		return false;
	snprintf(version, sizeof version, "%.*s", (int)(end - n), data + n);
	build_say_kind(ctx, ANIMC_WARNING, "journal", name, "a journal of format version %s, which another animc "
		       "writes (this one writes version 1): its outputs are not known to this animc; kept for the "
		       "animc that wrote it", version);
	return true;
}

bool build_journal_read_all(const build_ctx *ctx, const char *out_dir, manifest *into, cli_strings *files,
			    cli_strings *others, cli_strings *unread)
{
	char *dir = cli_path_join(out_dir, MANIFEST_DIR, NULL);
	const char *name;
	int at = dir ? build_state_at(ctx, dir, &name) : AT_FDCWD;
	/* Another description of the folder than the run's: a listing moves
	 * its offset. */
	int listed = !dir ? -1 : openat(at, at == AT_FDCWD ? dir : ".",
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = listed >= 0 ? fdopendir(listed) : NULL;
	struct dirent *e;
	bool ok = dir != NULL;

	if (listed >= 0 && !d)
		close(listed);
	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) == 0) {
			char *path = cli_path_join(dir, e->d_name, NULL);

			ok = ok && path && cli_strings_push(files, path);
			free(path);
		}
	if (d)
		closedir(d);
	free(dir);
	if (files->count)
		qsort(files->items, files->count, sizeof *files->items, compare_names);
	for (size_t i = 0; ok && i < files->count;) {
		uint8_t *data;
		size_t size;
		cli_error err;
		/* Not read through a link put in its place (opened so, not
		 * checked and then opened): the file at its far end is no
		 * record of this folder. */
		int at_dir = build_state_at(ctx, files->items[i], &name);
		int fd = openat(at_dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

		if (fd < 0 && errno == ELOOP) {
			build_say_kind(ctx, ANIMC_WARNING, "journal", files->items[i], "a symbolic link, not a journal "
				       "animc writes; not read through it");
			free(files->items[i]);
			memmove(&files->items[i], &files->items[i + 1], (files->count - i - 1) * sizeof *files->items);
			files->count--;
			continue;
		}
		if (!cli_read_opened(fd, files->items[i], &data, &size, &err)) {
			/* Not read, not removed: named again next time. */
			build_say_kind(ctx, ANIMC_WARNING, "journal", files->items[i], "%s; its outputs are not known", err.message);
			ok = !unread || cli_strings_push(unread, files->items[i]);
			free(files->items[i]);
			memmove(&files->items[i], &files->items[i + 1], (files->count - i - 1) * sizeof *files->items);
			files->count--;
			continue;
		}
		if (is_other_version(ctx, files->items[i], (const char *)data, size)) {
			/* Neither read nor removed: left out of *files. */
			ok = !others || cli_strings_push(others, files->items[i]);
			free(files->items[i]);
			memmove(&files->items[i], &files->items[i + 1], (files->count - i - 1) * sizeof *files->items);
			files->count--;
			free(data);
			continue;
		}
		ok = build_journal_parse(ctx, files->items[i], (const char *)data, size, into);
		free(data);
		i++;
	}
	return ok;
}

void build_journal_remove(const build_ctx *ctx, const cli_strings *files)
{
	for (size_t i = 0; i < files->count; i++) {
		const char *name;
		int at = build_state_at(ctx, files->items[i], &name);

		unlinkat(at, name, 0);
	}
}

/* ------------------------------------------------------------- folding */

/* An output record by path, then hash. */
static int compare_records(const void *a, const void *b)
{
	const manifest_output *x = *(const manifest_output *const *)a, *y = *(const manifest_output *const *)b;
	int by_path = strcmp(x->path, y->path);

	return by_path ? by_path : memcmp(x->hash.bytes, y->hash.bytes, sizeof x->hash.bytes);
}

/* The records of `m` (its sources' outputs and its orphans), sorted; NULL
 * when out of memory. */
static const manifest_output **known_records(const manifest *m, size_t *count)
{
	size_t n = manifest_output_total(m);
	const manifest_output **all = malloc((n ? n : 1) * sizeof *all);

	if (!all)
		return NULL;
	n = 0;
	for (size_t i = 0; i < m->count; i++)
		for (uint32_t k = 0; k < m->entries[i].output_count; k++)
			all[n++] = &m->entries[i].outputs[k];
	for (size_t i = 0; i < m->orphan_count; i++)
		all[n++] = &m->orphans[i];
	qsort(all, n, sizeof *all, compare_records);
	*count = n;
	return all;
}

/* Move the records of `found` that `m` does not hold (same path, same
 * bytes) into m's orphans, each once, in path order.  False when out of
 * memory. */
static bool adopt(manifest *m, manifest *found, size_t *adopted)
{
	size_t known_count = 0, found_count = found->orphan_count, take_count = 0;
	const manifest_output **known = known_records(m, &known_count);
	manifest_output **mine = malloc((found_count ? found_count : 1) * sizeof *mine);
	bool ok = known && mine;

	*adopted = 0;
	for (size_t i = 0; ok && i < found_count; i++)
		mine[i] = &found->orphans[i];
	if (ok)
		qsort(mine, found_count, sizeof *mine, compare_records);
	/* Chosen first: adding to m moves the orphans `known` points into. */
	for (size_t i = 0; ok && i < found_count; i++)
		if (!(i && compare_records(&mine[i - 1], &mine[i]) == 0) &&
		    !(known_count && bsearch(&mine[i], known, known_count, sizeof *known, compare_records)))
			mine[take_count++] = mine[i];
	free(known);
	for (size_t i = 0; ok && i < take_count; i++) {
		ok = manifest_add_orphan(m, mine[i]);
		if (ok) {
			memset(mine[i], 0, sizeof *mine[i]);   /* m's now */
			(*adopted)++;
		}
	}
	free(mine);
	return ok;
}

void build_journal_fold(const build_ctx *ctx, const char *out_dir)
{
	char *path = cli_path_join(out_dir, MANIFEST_FILE, NULL);
	cli_strings files = { 0 };
	manifest found = { 0 }, m;
	size_t adopted = 0;
	cli_error err;

	if (!path || !build_journal_read_all(ctx, out_dir, &found, &files, NULL, NULL) || !files.count)
		goto out;
	switch (build_manifest_load(ctx, &m, path, false, NULL)) {
	case MANIFEST_LOADED:
		break;
	case MANIFEST_ABSENT:
		memset(&m, 0, sizeof m);   /* killed before its first checkpoint */
		break;
	default:
		goto out;   /* the build says why it compiles every source */
	}
	if (!adopt(&m, &found, &adopted)) {
		manifest_release(&m);
		goto out;
	}
	if (adopted && !build_manifest_save_as(ctx, &m, path, NULL, &err)) {
		build_say_kind(ctx, ANIMC_WARNING, "journal", path, "%s; the journals of interrupted builds are kept", err.message);
		manifest_release(&m);
		goto out;
	}
	manifest_release(&m);
	build_journal_remove(ctx, &files);
out:
	manifest_release(&found);
	cli_strings_release(&files);
	free(path);
}
