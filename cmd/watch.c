/*
 * watch.c - `animc watch [build options] -o OUTDIR INPUT...`: build, then
 * build again whenever an input changes, told by inotify (files, folders
 * and the folders created in them).  A burst of saves is one rebuild: a
 * rebuild waits until no file is being written (a file modified and not yet
 * closed; not one the last build found no importer for, and none for
 * long) and nothing has happened for WATCH_QUIET_MS, so a half-written
 * source is never compiled.  Bytes added to a file the last build found
 * no importer for (a log growing) are no change, unless it was empty then
 * or still being written.  Each rebuild runs the build engine in a child
 * process (incremental: only what changed compiles; --prune is on, so a
 * deleted source takes its outputs with it) and prints one line (one
 * whose process dies says so, and is built again once).  SIGINT or
 * SIGTERM stop the child's build as a build stops (no temporary file is
 * left, no output is partial) and end the watch with status 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <animc/animc_formats.h>

#include "author.h"
#include "build.h"

/* Quiet time after the last event before a rebuild; the longest a file
 * may stay open for writing without news before it counts as written, and
 * the longest it may hold rebuilds back in all (a file that keeps growing). */
#define WATCH_QUIET_MS 50
#define WATCH_WRITER_GIVEUP_MS 2000
#define WATCH_WRITER_LIMIT_MS 3000

#define WATCH_MASK (IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
		    IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB)

typedef struct watched {
	int wd;
	char *dir;             /* the folder watched */
	/* Its other paths: one folder reached by two (a symbolic link to
	 * it, or folders below one) has one kernel watch, kept while any of
	 * its paths is there. */
	cli_strings aliases;
	char *real;            /* its realpath(), NULL when unknown */
	uint64_t dev, ino;     /* the folder watched: what its paths name while it is there */
	bool is_all;           /* every name in it counts; else those of `names` */
	cli_strings names;     /* the files watched in it: inputs, files a build read */
	bool is_tree;          /* its new subfolders are watched too */
	unsigned walked;       /* the last walk of a tree (watch_state's walk) it was walked in */
} watched;

typedef struct writer {
	int wd;
	char *name;
	double first_s, last_s;
} writer;

/* A file the last build found no importer for (a log, notes; not one a
 * source read, such as a glTF buffer, which a walk skips too): it being
 * written holds no rebuild back, and bytes added to it start none.  `size`:
 * the largest it has been since the last build saw it. */
typedef struct file_id {
	uint64_t dev, ino;
	uint64_t size;
	/* The build saw it while it was open for writing (its writer given
	 * up on, or still writing): maybe a new file's first bytes, so its
	 * next close is a change (an exporter that stalled mid-file). */
	bool is_open;
} file_id;

/* A file the build itself writes (--report, --junit, --depfile): its
 * events, and those of its temporary NAME.tmpPID, are not changes. */
typedef struct own_file {
	char *dir_real;
	char *name;
} own_file;

typedef struct watch_state {
	int fd;
	/* Folders the build writes, never watched: the output folder and the
	 * --cache-dir folder (realpath()s, NULL when not there). */
	char *skip_real[2];
	own_file own[3];
	watched *dirs;
	size_t dir_count;
	/* The entry add_watch_quietly watched the folder by last (SIZE_MAX:
	 * none), and add_tree's walks so far. */
	size_t added;
	unsigned walk;
	writer *writers;
	size_t writer_count;
	file_id *not_sources;
	size_t not_source_count;
	/* Writers given up on since the last build (writers_expire): the
	 * build may see their files half written. */
	writer *given_up;
	size_t given_up_count;
	bool is_dirty;
	double last_event_s;
	/* When is_dirty was first set since the last rebuild: events that
	 * keep coming (a log appended to every few ms) hold a rebuild back
	 * no longer than WATCH_WRITER_LIMIT_MS from it. */
	double dirty_since_s;
	/* A watched folder went away (an input replaced, renamed back): its
	 * watches are made again once it is there, and the output folder's
	 * own (out_wd: it going away needs a build) after each build. */
	bool needs_rewatch;
	bool has_told_limit;   /* the watch limit's message is out; not again */
	/* Per input of the command line: it is gone (moved away, deleted) and
	 * has been said to be; it is looked for every second. */
	bool *is_gone;
	/* Symbolic links to folders met in the tree whose target is not there
	 * (a share not mounted): looked at every second, and watched and
	 * built once they lead somewhere. */
	cli_strings dangling;
	/* The working folder's path: deleted and made again (a fresh clone,
	 * `rm -rf` and a copy) while "." still names the deleted one, it is
	 * entered again, as a named folder made again is watched again. */
	char *cwd;
	int out_wd;
	const char *out_dir;
	/* The program this watch runs: the file it was started from (NULL:
	 * not known) and that file's device and inode then.  Another file
	 * there (animc upgraded, rolled back or rebuilt) writes other bytes
	 * under other keys: this one stops rather than build with the old. */
	char *program;
	build_file_state program_state;
	bool is_program_replaced;
	/* The name it was started by (argv[0], through the PATH) when that
	 * led to `program` (NULL otherwise): a link re-pointed since (stow,
	 * update-alternatives, a versioned prefix) starts another animc. */
	char *started_as;
} watch_state;

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = sig;
}

/* Names editors and tools write beside a file while saving it. */
static bool is_skipped_real(const watch_state *w, const char *real)
{
	for (size_t i = 0; real && i < sizeof w->skip_real / sizeof w->skip_real[0]; i++)
		if (w->skip_real[i] && strcmp(real, w->skip_real[i]) == 0)
			return true;
	return false;
}

/* Is NAME in watched folder DIR a file the build writes (or its
 * temporary, NAME.tmp followed by the writer's pid)? */
static bool is_own_file(const watch_state *w, const watched *dir, const char *name)
{
	for (size_t i = 0; dir->real && i < sizeof w->own / sizeof w->own[0]; i++) {
		const own_file *f = &w->own[i];
		size_t n = f->name ? strlen(f->name) : 0;

		if (!f->name || strcmp(f->dir_real, dir->real) != 0 || strncmp(name, f->name, n) != 0)
			continue;
		if (name[n] == '\0')
			return true;
		if (strncmp(name + n, ".tmp", 4) == 0 && name[n + 4] &&
		    strspn(name + n + 4, "0123456789") == strlen(name + n + 4))
			return true;
	}
	return false;
}

/* Remember PATH (may be NULL) as a file the build writes. */
static void own_file_set(own_file *f, const char *path)
{
	char *dir;

	if (!path)
		return;
	dir = strndup(path, (size_t)(cli_basename(path) - path));
	f->dir_real = dir ? realpath(dir[0] ? dir : ".", NULL) : NULL;
	f->name = f->dir_real ? strdup(cli_basename(path)) : NULL;
	free(dir);
}

/* Was NAME in DIR asked for by name (an input, a file a build read)? */
static bool is_named(const watched *dir, const char *name)
{
	for (size_t i = 0; i < dir->names.count; i++)
		if (strcmp(dir->names.items[i], name) == 0)
			return true;
	return false;
}

/* Does an event about NAME in DIR count?  A name folder walks leave out
 * (".wag.bin", "x.tmp": an editor's or a tool's) only when it was asked
 * for by name: a dependency the manifest records may be so named. */
static bool counts_name(const watched *dir, const char *name)
{
	if (cli_is_left_out_name(name))
		return is_named(dir, name);
	return dir->is_all || is_named(dir, name);
}

/* Is `path` one of the paths folder `d` is watched by? */
static bool is_path_of(const watched *d, const char *path)
{
	for (size_t i = 0; i < d->aliases.count; i++)
		if (strcmp(d->aliases.items[i], path) == 0)
			return true;
	return strcmp(d->dir, path) == 0;
}

static watched *find_wd(watch_state *w, int wd)
{
	for (size_t i = 0; i < w->dir_count; i++)
		if (w->dirs[i].wd == wd)
			return &w->dirs[i];
	return NULL;
}

/* Say why folder DIR cannot be watched (errno): the watch limit once. */
static void tell_watch_failure(watch_state *w, const char *dir)
{
	if (errno != ENOSPC)
		cli_report(ANIMC_ERROR, dir, "cannot watch: %s", strerror(errno));
	else if (!w->has_told_limit)
		cli_report(ANIMC_ERROR, dir,
			   "cannot watch: this user's inotify watches are all taken; raise "
			   "fs.inotify.max_user_watches (for example 'sysctl fs.inotify.max_user_watches=524288')");
	w->has_told_limit |= errno == ENOSPC;
}

/* Watch folder DIR (for the name `only`, or whole); false with errno set
 * when it cannot be, said by the caller. */
static bool add_watch_quietly(watch_state *w, const char *dir, const char *only, bool is_tree)
{
	char *real = realpath(dir, NULL);
	watched *grown;
	struct stat st;
	int wd;

	w->added = SIZE_MAX;
	if (is_skipped_real(w, real)) {
		free(real);
		return true;   /* what a build writes */
	}
	wd = inotify_add_watch(w->fd, dir, WATCH_MASK | IN_ONLYDIR);
	if (wd < 0) {
		int err = errno;

		free(real);
		errno = err;
		return false;
	}
	for (size_t i = 0; i < w->dir_count; i++)
		if (w->dirs[i].wd == wd) {
			watched *d = &w->dirs[i];

			w->added = i;
			d->is_all |= !only;
			d->is_tree |= is_tree;
			free(real);
			if (!is_path_of(d, dir) && !cli_strings_push(&d->aliases, dir))
				return false;
			/* Named even in a folder watched whole: a left-out
			 * name counts only so (counts_name). */
			return !only || is_named(d, only) || cli_strings_push(&d->names, only);
		}
	grown = realloc(w->dirs, (w->dir_count + 1) * sizeof *grown);
	if (!grown) {
		free(real);
		errno = ENOMEM;
		return false;
	}
	w->dirs = grown;
	if (stat(dir, &st) != 0)
		st.st_dev = st.st_ino = 0;
	grown[w->dir_count] = (watched){ wd, strdup(dir), { NULL, 0, 0 }, real, (uint64_t)st.st_dev,
					 (uint64_t)st.st_ino, !only, { NULL, 0, 0 }, is_tree, 0 };
	w->added = w->dir_count++;
	return !only || cli_strings_push(&grown[w->dir_count - 1].names, only);
}

static bool add_watch(watch_state *w, const char *dir, const char *only, bool is_tree)
{
	if (add_watch_quietly(w, dir, only, is_tree))
		return true;
	tell_watch_failure(w, dir);
	return false;
}

/* The folders above one in add_tree's walk, to stop at a link that leads
 * back up. */
typedef struct walk_up {
	const char *real;
	const struct walk_up *up;
} walk_up;

static bool watch_links_on_way(watch_state *w, const char *path);

static bool is_dangling_known(const watch_state *w, const char *path)
{
	for (size_t i = 0; i < w->dangling.count; i++)
		if (strcmp(w->dangling.items[i], path) == 0)
			return true;
	return false;
}

/* Watch folder DIR of a tree whole.  One below an input that cannot be
 * read (the build says so, as it leaves it out) or that is gone already (a
 * link `ln -sfn` made and renamed at once) is left out, and true. */
static bool add_tree_watch(watch_state *w, const char *dir, bool is_input)
{
	bool is_left_out;

	if (add_watch_quietly(w, dir, NULL, true))
		return true;
	is_left_out = !is_input && (errno == EACCES || errno == ENOENT);
	if (!is_left_out)
		tell_watch_failure(w, dir);
	return is_left_out;
}

/* Was the folder add_watch_quietly watched last walked already by this
 * walk, reached by another path (folders with links to each other)?  It is
 * now.  Walked again for each path, such folders took a time that grows
 * exponentially with them. */
static bool is_walked_already(watch_state *w)
{
	watched *d = w->added < w->dir_count ? &w->dirs[w->added] : NULL;
	bool is_walked = d && d->walked == w->walk;

	if (d)
		d->walked = w->walk;
	return is_walked;
}

static bool add_tree_below(watch_state *w, const char *dir, const walk_up *up, bool is_input)
{
	DIR *d;
	struct dirent *e;
	char *real = realpath(dir, NULL);
	bool ok = true;
	walk_up here = { real, up };

	for (const walk_up *a = up; a && real; a = a->up)
		if (strcmp(a->real, real) == 0)
			ok = false;   /* a loop: watched already */
	if (!ok || is_skipped_real(w, real)) {
		free(real);
		return true;
	}
	ok = add_tree_watch(w, dir, is_input && !up);
	if (!ok || is_walked_already(w) || !(d = opendir(dir))) {
		free(real);
		return ok;
	}
	while (ok && (e = readdir(d))) {
		struct stat st;
		char *sub;

		if (e->d_name[0] == '.')
			continue;
		sub = cli_path_join(dir, e->d_name, NULL);
		/* A link to a folder: the links it leads through too (a
		 * link in the tree to ../current/chars, current a link). */
		if (sub && stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			ok = add_tree_below(w, sub, &here, false) &&
			     (lstat(sub, &st) != 0 || !S_ISLNK(st.st_mode) || watch_links_on_way(w, sub));
		else if (sub && lstat(sub, &st) == 0 && S_ISLNK(st.st_mode) && !is_dangling_known(w, sub))
			ok = cli_strings_push(&w->dangling, sub);
		free(sub);
	}
	closedir(d);
	free(real);
	return ok;
}

/* A folder and every folder below it, those reached through a symbolic
 * link too (names starting with '.' left out, as the build leaves them
 * out).  A link itself (one made in the tree, one that leads somewhere
 * again): the links on its way too, as for those met in the walk. */
static bool add_tree(watch_state *w, const char *dir, bool is_input)
{
	struct stat st;

	w->walk++;
	return add_tree_below(w, dir, NULL, is_input) &&
	       (lstat(dir, &st) != 0 || !S_ISLNK(st.st_mode) || watch_links_on_way(w, dir));
}

static writer *find_writer(watch_state *w, int wd, const char *name)
{
	for (size_t i = 0; i < w->writer_count; i++)
		if (w->writers[i].wd == wd && strcmp(w->writers[i].name, name) == 0)
			return &w->writers[i];
	return NULL;
}

static void writer_start(watch_state *w, int wd, const char *name, double t)
{
	writer *wr = find_writer(w, wd, name), *grown;

	if (wr) {
		wr->last_s = t;
		return;
	}
	grown = realloc(w->writers, (w->writer_count + 1) * sizeof *grown);
	if (!grown)
		return;
	w->writers = grown;
	grown[w->writer_count] = (writer){ wd, strdup(name), t, t };
	if (grown[w->writer_count].name)
		w->writer_count++;
}

static void writer_end(watch_state *w, int wd, const char *name)
{
	writer *wr = find_writer(w, wd, name);

	if (!wr)
		return;
	free(wr->name);
	*wr = w->writers[--w->writer_count];
}

/* Writers that went silent for long (a file kept open, a crashed editor)
 * or that have been writing for too long (a growing file). */
static void writers_expire(watch_state *w, double t)
{
	for (size_t i = 0; i < w->writer_count;) {
		if (t - w->writers[i].last_s > WATCH_WRITER_GIVEUP_MS / 1000.0 ||
		    t - w->writers[i].first_s > WATCH_WRITER_LIMIT_MS / 1000.0) {
			writer *grown = realloc(w->given_up, (w->given_up_count + 1) * sizeof *grown);

			w->is_dirty = true;   /* build what it holds now */
			if (grown) {
				w->given_up = grown;
				grown[w->given_up_count++] = w->writers[i];
			} else {
				free(w->writers[i].name);
			}
			w->writers[i] = w->writers[--w->writer_count];
		} else {
			i++;
		}
	}
}

/* Milliseconds until the first writer expires; -1 with none. */
static int writers_next_ms(const watch_state *w, double t)
{
	double next = -1;

	for (size_t i = 0; i < w->writer_count; i++) {
		const writer *wr = &w->writers[i];
		double silent = wr->last_s + WATCH_WRITER_GIVEUP_MS / 1000.0;
		double limit = wr->first_s + WATCH_WRITER_LIMIT_MS / 1000.0;
		double at = silent < limit ? silent : limit;

		if (next < 0 || at < next)
			next = at;
	}
	return next < 0 ? -1 : next <= t ? 0 : (int)((next - t) * 1000) + 1;
}

/* The index of the file `st` describes among the not_sources;
 * not_source_count when it is none of them. */
static size_t not_source_at(const watch_state *w, const struct stat *st)
{
	size_t i = 0;

	while (i < w->not_source_count &&
	       !(w->not_sources[i].dev == (uint64_t)st->st_dev && w->not_sources[i].ino == (uint64_t)st->st_ino))
		i++;
	return i;
}

/* Does the file at PATH, named as a clip-split sidecar and seen by the
 * last build at `seen_size` bytes, hold its type now within the bytes a
 * build looks for it in (some of them new)? */
static bool became_sidecar(const char *path, uint64_t seen_size)
{
	uint8_t *head = seen_size < BUILD_SIDECAR_PROBE_BYTES ? malloc(BUILD_SIDECAR_PROBE_BYTES) : NULL;
	int fd = head ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	size_t size = 0;
	ssize_t n = 1;
	bool holds = false;

	while (fd >= 0 && size < BUILD_SIDECAR_PROBE_BYTES &&
	       (n = read(fd, head + size, BUILD_SIDECAR_PROBE_BYTES - size)) > 0)
		size += (size_t)n;
	if (fd >= 0 && n >= 0)
		holds = animc_split_doc_probe(head, size);
	if (fd >= 0)
		close(fd);
	free(head);
	return holds;
}

/* Does NAME in folder DIR, which the last build saw at `seen_size` bytes
 * and found no importer for, tell by its first bytes as a build reads them
 * (its probe head, or for a name a clip-split sidecar may have, as far as
 * its type is looked for) that it is a source or a sidecar now?  Bytes
 * added beyond those cannot make it one: only a head that reaches past
 * `seen_size` is probed again (a log that grows costs a read of its
 * first ANIMC_PROBE_HEAD_BYTES, an XML prolog more). */
static bool became_source(const char *dir, const char *name, uint64_t seen_size)
{
	char *path = cli_path_join(dir, name, NULL);
	size_t n = strlen(name), suffix = strlen(BUILD_SIDECAR_SUFFIX), size;
	uint8_t *head;
	int fd;
	bool is_source = false;

	if (path && n > suffix && strcmp(name + n - suffix, BUILD_SIDECAR_SUFFIX) == 0) {
		is_source = became_sidecar(path, seen_size);
	} else if (path && seen_size < ANIMC_PROBE_HEAD_MAX_BYTES &&
		   (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0) {
		if (animc_probe_head_read(fd, &head, &size)) {
			is_source = size > seen_size && animc_importer_find(path, head, size) != NULL;
			free(head);
		}
		close(fd);
	}
	free(path);
	return is_source;
}

/* Is NAME in folder DIR a file the build may read?  Not when the last
 * build found no importer for it, unless it was empty then (no importer
 * has read it yet: its first bytes may make it a source). */
static bool may_be_read(const watch_state *w, const char *dir, const char *name)
{
	char *path = cli_path_join(dir, name, NULL);
	struct stat st;
	bool is_read = true;

	if (path && stat(path, &st) == 0) {
		size_t i = not_source_at(w, &st);

		is_read = i == w->not_source_count || w->not_sources[i].size == 0;
	}
	free(path);
	return is_read;
}

/* Does event E only add bytes to a file the last build found no importer
 * for (a log growing)?  Nothing a build reads changed: no rebuild.  The
 * file made smaller than it was (truncated), another file at its name, it
 * deleted, moved or touched, is a change as any; so are the first bytes of
 * one the build saw empty, and the close of one it saw being written. */
static bool is_append_to_not_source(watch_state *w, const char *dir, const struct inotify_event *e)
{
	char *path;
	struct stat st;
	bool is_append = false;

	if (e->mask & ~(uint32_t)(IN_MODIFY | IN_CLOSE_WRITE))
		return false;
	path = cli_path_join(dir, e->name, NULL);
	if (!path || stat(path, &st) != 0) {
		free(path);
		return false;
	}
	free(path);
	size_t i = not_source_at(w, &st);
	file_id *f = i < w->not_source_count ? &w->not_sources[i] : NULL;

	/* Not a log: one the build saw empty (made empty first, then
	 * written: its first bytes), nor the close of one the build saw
	 * while it was being written (a slow writer's new file, whole now);
	 * nor one whose bytes added now make it a source (a first line
	 * written and closed, the rest appended). */
	if (!f || f->size == 0 || (f->is_open && (e->mask & IN_CLOSE_WRITE)) ||
	    became_source(dir, e->name, f->size)) {
		if (f)
			f->is_open = false;
		return false;
	}
	/* The largest size seen, so that a truncation soon grown past the
	 * size the build saw is still told apart; a smaller one is not kept,
	 * so that the close ending the truncation is a change too. */
	is_append = (uint64_t)st.st_size >= f->size;
	if (is_append)
		f->size = (uint64_t)st.st_size;
	return is_append;
}

/* Is NAME in folder DIR a new regular file that is being written?  A
 * link (symbolic or hard), a FIFO, a device is not: nothing will close it
 * after writing. */
static bool is_new_file(const char *dir, const char *name)
{
	char *path = cli_path_join(dir, name, NULL);
	struct stat st;
	bool is_new = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1;

	free(path);
	return is_new;
}

/* Is NAME in folder DIR a folder the build writes? */
static bool is_out_dir(const watch_state *w, const char *dir, const char *name)
{
	char *path = cli_path_join(dir, name, NULL), *real = path ? realpath(path, NULL) : NULL;
	bool is_out = is_skipped_real(w, real);

	free(real);
	free(path);
	return is_out;
}

/* Drop the entry at index i (its kernel watch gone or removed), and the
 * writers in its folder. */
static void forget_at(watch_state *w, size_t i)
{
	for (size_t k = 0; k < w->writer_count;) {
		if (w->writers[k].wd == w->dirs[i].wd) {
			free(w->writers[k].name);
			w->writers[k] = w->writers[--w->writer_count];
		} else {
			k++;
		}
	}
	free(w->dirs[i].dir);
	free(w->dirs[i].real);
	cli_strings_release(&w->dirs[i].aliases);
	cli_strings_release(&w->dirs[i].names);
	w->dirs[i] = w->dirs[--w->dir_count];
}

/* Does `path` name the watched folder (through a symbolic link too)? */
static bool names_folder(const watched *d, const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && (uint64_t)st.st_dev == d->dev && (uint64_t)st.st_ino == d->ino;
}

/* Should the path `p` of watched folder d go, `path` having gone?  With
 * `if_moved`, only when it no longer names the folder. */
static bool drops(const watched *d, const char *p, const char *path, bool if_moved)
{
	return cli_path_is_within(p, path) && (!if_moved || !names_folder(d, p));
}

/* Drop the paths of watched folder i that `path` going took with it; one
 * that stays takes the place of its `dir`.  With none left, the folder is
 * watched no more (its kernel watch removed).  True when it went. */
static bool drop_paths(watch_state *w, size_t i, const char *path, bool if_moved)
{
	watched *d = &w->dirs[i];

	for (size_t k = 0; k < d->aliases.count;) {
		if (drops(d, d->aliases.items[k], path, if_moved)) {
			free(d->aliases.items[k]);
			d->aliases.items[k] = d->aliases.items[--d->aliases.count];
		} else {
			k++;
		}
	}
	if (!drops(d, d->dir, path, if_moved))
		return false;
	if (d->aliases.count) {
		free(d->dir);
		d->dir = d->aliases.items[--d->aliases.count];
		return false;
	}
	inotify_rm_watch(w->fd, d->wd);
	forget_at(w, i);
	return true;
}

/* A folder gone from PATH (not the path of an entry: it may go): deleted,
 * or moved out of the tree (`if_moved`: it moved, and its paths that no
 * longer name it go).  It and the folders below it are watched no more at
 * that path; a folder also reached by another path (a symbolic link to it,
 * or the folder a deleted link led to) stays watched by that one.  Their
 * kernel watches would stay otherwise, and the files in them, no inputs
 * now, would be built. */
static void forget_paths(watch_state *w, const char *path, bool if_moved)
{
	for (size_t i = 0; i < w->dir_count;)
		if (!drop_paths(w, i, path, if_moved))
			i++;
}

/* Watched folder d moved: its paths that no longer name it, and the
 * folders below them, are watched no more.  An input folder has no watched
 * parent to tell of its move, so this is where it goes.  (A folder moved
 * within the tree is watched again at its new path by its new parent's
 * MOVED_TO event.) */
static void forget_moved(watch_state *w, const watched *d)
{
	cli_strings paths = { NULL, 0, 0 };
	bool ok = cli_strings_push(&paths, d->dir);

	for (size_t i = 0; ok && i < d->aliases.count; i++)
		ok = cli_strings_push(&paths, d->aliases.items[i]);
	for (size_t i = 0; ok && i < paths.count; i++)
		forget_paths(w, paths.items[i], true);
	cli_strings_release(&paths);
}

/* Is the event about a folder in DIR: a symbolic link to one made, or
 * an entry watched as a folder gone? */
static bool is_folder_link(const watch_state *w, const char *dir, const struct inotify_event *e)
{
	char *path = cli_path_join(dir, e->name, NULL);
	struct stat st;
	bool is_folder = false;

	if (path && (e->mask & (IN_CREATE | IN_MOVED_TO)))
		is_folder = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
			    S_ISDIR(st.st_mode);
	for (size_t i = 0; path && !is_folder && (e->mask & (IN_DELETE | IN_MOVED_FROM)) && i < w->dir_count; i++)
		is_folder = is_path_of(&w->dirs[i], path);
	free(path);
	return is_folder;
}

/* An event about a folder in watched folder DIR. */
static void take_folder_event(watch_state *w, const watched *dir, const struct inotify_event *e)
{
	char *sub = cli_path_join(dir->dir, e->name, NULL);
	bool is_tree = dir->is_tree;

	if (!sub)
		return;
	/* dir may move as entries come and go: not used below. */
	/* A link gone: a folder walked through it alone (another path to
	 * it, met later in the walk, was not walked again) is found again. */
	if (e->mask & (IN_DELETE | IN_MOVED_FROM)) {
		forget_paths(w, sub, false);
		w->needs_rewatch |= !(e->mask & IN_ISDIR);
	}
	/* A link renamed over another (`ln -sfn w2 chars`): the folder the
	 * old one led to is watched no more by that path (nor its
	 * subfolders, found again by another path by the walk after the
	 * build, as for a link gone). */
	if (e->mask & (IN_CREATE | IN_MOVED_TO)) {
		forget_paths(w, sub, true);
		w->needs_rewatch |= !(e->mask & IN_ISDIR);
	}
	/* A folder that cannot be watched yet (the watch limit) is tried
	 * again every second, as a folder that went away.  One of a name
	 * walks leave out counts only as named: not watched whole.  One
	 * whose permissions changed (chmod) may be read now, or no more. */
	if (is_tree && (e->mask & (IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) && !cli_is_left_out_name(e->name)) {
		w->needs_rewatch |= !add_tree(w, sub, false);
		w->is_dirty |= (e->mask & IN_ATTRIB) != 0;
	}
	/* A link on the way to a folder of the tree (watch_links_on_way)
	 * pointed elsewhere: the tree is walked again after the build. */
	if (!is_tree && (e->mask & (IN_CREATE | IN_MOVED_TO)))
		w->needs_rewatch = true;
	if (e->mask & (IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM))
		w->is_dirty = true;
	free(sub);
}

/* A link made in a folder of the tree that leads nowhere yet (at a share
 * not mounted, a folder not made): looked at every second, as one met in
 * a walk is, and followed once it leads somewhere. */
static void note_dangling(watch_state *w, const watched *dir, const struct inotify_event *e)
{
	char *path;
	struct stat st;

	if (!dir->is_tree || !(e->mask & (IN_CREATE | IN_MOVED_TO)) || cli_is_left_out_name(e->name))
		return;
	path = cli_path_join(dir->dir, e->name, NULL);
	if (path && lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) != 0 &&
	    !is_dangling_known(w, path))
		cli_strings_push(&w->dangling, path);
	free(path);
}

static void take_events(watch_state *w)
{
	char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	while ((n = read(w->fd, buf, sizeof buf)) > 0) {
		double t = build_now_s();

		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *e = (const struct inotify_event *)p;
			watched *dir = find_wd(w, e->wd);

			p += sizeof *e + e->len;
			if (e->wd == w->out_wd && w->out_wd >= 0) {
				if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
					w->out_wd = -1;   /* deleted: a build makes it again */
					w->is_dirty = w->needs_rewatch = true;
					w->last_event_s = t;
				}
				continue;
			}
			if (e->mask & IN_Q_OVERFLOW) {
				/* Lost events: the build looks at everything, and
				 * the folders made meanwhile are looked for. */
				w->is_dirty = w->needs_rewatch = true;
				w->last_event_s = t;
				continue;
			}
			if (!dir)
				continue;
			if (e->mask & IN_IGNORED) {
				forget_at(w, (size_t)(dir - w->dirs));   /* its watch is gone */
				continue;
			}
			if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
				if (e->mask & IN_MOVE_SELF)
					forget_moved(w, dir);
				w->is_dirty = w->needs_rewatch = true;
				w->last_event_s = t;
				continue;
			}
			if (!e->len || !counts_name(dir, e->name))
				continue;
			if (is_own_file(w, dir, e->name) || ((e->mask & IN_ISDIR) && is_out_dir(w, dir->dir, e->name)))
				continue;   /* the build wrote it */
			if (is_append_to_not_source(w, dir->dir, e))
				continue;   /* a log growing */
			w->last_event_s = t;
			if ((e->mask & IN_ISDIR) || is_folder_link(w, dir->dir, e)) {
				take_folder_event(w, dir, e);
				continue;
			}
			note_dangling(w, dir, e);
			if ((e->mask & IN_CREATE) && !is_new_file(dir->dir, e->name))
				w->is_dirty = true;   /* a link, a FIFO: there now, whole */
			else if ((e->mask & (IN_CREATE | IN_MODIFY)) && may_be_read(w, dir->dir, e->name))
				writer_start(w, e->wd, e->name, t);
			if (e->mask & IN_CLOSE_WRITE) {
				writer_end(w, e->wd, e->name);
				w->is_dirty = true;
			}
			if (e->mask & (IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)) {
				writer_end(w, e->wd, e->name);
				w->is_dirty = true;
			}
			if (e->mask & IN_ATTRIB)
				w->is_dirty = true;   /* touch(1), a restored backup */
		}
	}
}

/* ------------------------------------------------------------ the builds */

typedef struct watch_sink {
	build_status_sink base;
	double start_s;
	bool has_summary;     /* the build printed its line */
	char *first_error;    /* the subject of the first error the run said */
} watch_sink;

/* The clock time a rebuild's line starts with. */
static void watch_clock(char clock[16])
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(clock, 16, "%H:%M:%S", &tm);
}

static void quiet_job_done(build_status_sink *s, size_t job)
{
	(void)s, (void)job;
}

static void quiet_tick(build_status_sink *s)
{
	(void)s;
}

/* A job's diagnostics, those the rebuild's line counts: of a source
 * compiled, failed, fetched from the cache or skipped (an entry of a folder
 * that cannot be read) now, not those an up to date source had last time. */
static void watch_job_committed(build_status_sink *s, size_t i)
{
	const build_ctx *ctx = s->ctx;
	const build_job *j = &ctx->plan.jobs[i];

	if (j->result.status == BUILD_UP_TO_DATE)
		return;
	for (uint32_t d = 0; d < j->result.diag_count; d++)
		build_print_job_diag(ctx, j, &j->result.diags[d]);
}

static void watch_note(build_status_sink *s, const char *line)
{
	if (s->ctx->options->verbose)
		printf("%s\n", line);
}

/* The rebuild's one line: the time, what was written (the first sources
 * compiled named as the build names them), how long it took. */
static void watch_summary(build_status_sink *s, const build_totals *t, unsigned stale)
{
	const build_ctx *ctx = s->ctx;
	watch_sink *ws = (watch_sink *)s;
	char clock[16];
	unsigned listed = 0;

	ws->has_summary = true;
	watch_clock(clock);
	printf("%s compiled %u source%s", clock, t->compiled, t->compiled == 1 ? "" : "s");
	for (size_t i = 0; i < ctx->plan.count && listed < 3; i++) {
		const build_job *j = &ctx->plan.jobs[i];

		if (j->result.status != BUILD_COMPILED)
			continue;
		fputs(listed ? ", " : " (", stdout);
		cli_print_escaped(stdout, j->path, 0);
		listed++;
	}
	if (listed)
		fputs(t->compiled > listed ? ", ...)" : ")", stdout);
	if (t->cached)
		printf(", %u cached", t->cached);
	if (t->pruned)
		printf(", %u output%s pruned", t->pruned, t->pruned == 1 ? "" : "s");
	/* The warnings printed above: of the sources built now, not those up
	 * to date sources had when they were (the first build's line said them). */
	unsigned warnings = t->run_warnings;   /* and the run's own, said now */
	for (size_t i = 0; i < ctx->plan.count; i++)
		if (ctx->plan.jobs[i].result.status != BUILD_UP_TO_DATE)
			warnings += build_result_warnings_said(ctx->options, &ctx->plan.jobs[i].result);
	printf(", %u failed, %u warning%s, %u up to date", t->failed, warnings, warnings == 1 ? "" : "s",
	       t->up_to_date);
	if (stale)
		printf(", %u stale output%s", stale, stale == 1 ? "" : "s");
	if (t->reports_failed)
		printf(", %u report%s not written", t->reports_failed, t->reports_failed == 1 ? "" : "s");
	printf(", in %.0f ms\n", (build_now_s() - ws->start_s) * 1000);
	fflush(stdout);
}

static void watch_clear(build_status_sink *s)
{
	(void)s;
}

static void watch_diag(build_status_sink *s, const animc_diag *d)
{
	cli_diag_printer printer = s->ctx->printer;
	watch_sink *ws = (watch_sink *)s;

	if (d->severity == ANIMC_ERROR && !ws->first_error && d->path)
		ws->first_error = strdup(d->path);
	cli_print_diag(&printer, d);
}

/* The line of a rebuild that stopped before it compiled anything (the
 * --skeleton model or the project cannot be read, OUTDIR cannot be
 * used): its error, printed above, names `subject` (NULL: unknown); `why`
 * says what of it ("an error in ": NULL). */
static void watch_not_built(const watch_sink *ws, const char *why, const char *subject, unsigned warnings)
{
	char clock[16];

	watch_clock(clock);
	printf("%s not built: ", clock);
	if (subject) {
		fputs(why ? why : "an error in ", stdout);
		cli_print_escaped(stdout, subject, 0);
	} else {
		fputs("stopped by the error above", stdout);
	}
	printf(", 0 compiled, %u warning%s, in %.0f ms\n", warnings, warnings == 1 ? "" : "s",
	       (build_now_s() - ws->start_s) * 1000);
	fflush(stdout);
}

static const build_status_ops watch_ops = {
	quiet_job_done, quiet_tick, watch_job_committed, watch_note, watch_summary, watch_clear, watch_diag,
};

/* One build, in a child: the engine may stop by a signal, and the watch
 * goes on (or ends with 0) either way.  What the build prints on its
 * standard output and error goes to fds[0] and fds[1], for the watch to
 * print on its own (or drop).  Returns the child's pid. */
/* A warning of animc watch's own, of `kind`, about `subject`: printed as a
 * build prints its own (with its kind), and kept in `said` for the next
 * build's count and reports; neither when --allow names the kind. */
static bool say_own(const build_options *o, build_said_list *said, animc_warning_kind kind, const char *subject,
		    const char *message)
{
	const char *name = animc_warning_kind_at(kind)->name;
	cli_diag_printer printer = { stderr, false };
	animc_diag diag = { ANIMC_WARNING, subject, 0, 0, -1, message, name };

	if (o->allowed[kind])
		return false;
	cli_print_diag(&printer, &diag);
	fflush(stderr);
	build_said_add(said, ANIMC_WARNING, name, subject, 0, message);
	return true;
}

typedef enum { PROJECT_READ, PROJECT_UNREADABLE, PROJECT_BLANK } project_reread;

/*
 * The project as it is now, for the build about to start: its items (a
 * save may add, remove or move them), its errors printed as a build
 * prints them.  The output folder and platform stay those animc watch
 * started with, which it watches around; a project that changes them
 * says so.  PROJECT_UNREADABLE when it cannot be read; PROJECT_BLANK when
 * it holds no line, said in a note: a save that truncates the file before
 * it writes it, a sync tool or a checkout writing in two steps leave it so
 * for a moment, and no one means "no item" by it, so its outputs stay (a
 * build would prune them all) until the next save builds it.
 */
static project_reread reread_project(build_options *o)
{
	build_mgcb fresh;
	size_t count;
	build_mgcb_item *items;

	build_mgcb_settings settings = build_options_mgcb_settings(o);

	if (!build_mgcb_read(o->mgcb_path, &settings, &fresh)) {
		build_mgcb_release(&fresh);   /* what it said */
		return PROJECT_UNREADABLE;
	}
	if (fresh.is_blank) {
		cli_diag_printer printer = { stderr, true };
		animc_diag note = { ANIMC_NOTE, o->mgcb_path, 0, 0, -1,
				    "the project holds no line (saved empty, or not written yet): not built, its "
				    "outputs stay; the next save builds it", NULL };

		cli_print_diag(&printer, &note);
		fflush(stderr);
		build_mgcb_release(&fresh);
		return PROJECT_BLANK;
	}
	if (fresh.platform != o->project.platform ||
	    !fresh.output_dir != !o->project.output_dir ||
	    (fresh.output_dir && strcmp(fresh.output_dir, o->project.output_dir) != 0)) {
		static const char restart[] = "its /outputDir: or /platform: changed; restart animc watch to follow it";

		fresh.warnings += say_own(o, &fresh.said, ANIMC_WARN_PROJECT_CHANGED, o->mgcb_path, restart);
	}
	items = o->project.items;
	count = o->project.count;
	o->project.items = fresh.items;
	o->project.count = fresh.count;
	o->project.warnings = fresh.warnings;
	fresh.items = items;
	fresh.count = count;
	/* The items name the files they were read from (the project and its
	 * response files): those come along, and the /outputDir: line kept
	 * names its file among them. */
	char **files = o->project.files;
	size_t file_count = o->project.file_count;
	const char *dir_file = o->project.output_dir_file;

	o->project.files = fresh.files;
	o->project.file_count = fresh.file_count;
	fresh.files = files;
	fresh.file_count = file_count;
	o->project.output_dir_file = o->project.path;
	for (size_t i = 0; dir_file && i < o->project.file_count; i++)
		if (strcmp(o->project.files[i], dir_file) == 0)
			o->project.output_dir_file = o->project.files[i];
	/* The project's warnings now, for the build's count and reports. */
	build_said_list said = o->project.said;
	o->project.said = fresh.said;
	fresh.said = said;
	build_mgcb_release(&fresh);
	return PROJECT_READ;
}

/* Watch the file PATH (its folder, for that name).  A folder not there
 * yet (it fails the build that reads the file, which says so): the
 * nearest one there, for the name of the folder to come in it. */
static bool watch_file(watch_state *w, const char *path)
{
	char *dir = strndup(path, (size_t)(cli_basename(path) - path)), *name = strdup(cli_basename(path));
	bool ok;

	while (dir && name && dir[0] && access(dir, F_OK) != 0) {
		size_t n = strlen(dir);
		char *parent;

		while (n > 1 && dir[n - 1] == '/')
			dir[--n] = '\0';
		free(name);
		name = strdup(cli_basename(dir));
		parent = strndup(dir, (size_t)(cli_basename(dir) - dir));
		free(dir);
		dir = parent;
	}
	ok = !dir || !name || add_watch(w, dir[0] ? dir : ".", name, false);
	free(name);
	free(dir);
	return ok;
}

/* As many links as the kernel follows in one path. */
#define LINK_HOPS_MAX 40

/* `at` (a path free of symbolic links, "" for the working folder) and the
 * `n` bytes of component `c` after it: ".." takes the last folder off
 * (not a link, so that is where it leads). */
static char *path_step(const char *at, const char *c, size_t n)
{
	const char *base = cli_basename(at);
	char *joined;

	if (n == 1 && c[0] == '.')
		return strdup(at);
	if (n == 2 && c[0] == '.' && c[1] == '.' && at[0] && strcmp(base, "..") != 0) {
		size_t len = (size_t)(base - at);

		return strcmp(at, "/") == 0 ? strdup("/") : strndup(at, len > 1 ? len - 1 : len);
	}
	if (asprintf(&joined, "%s%s%.*s", at, at[0] && at[strlen(at) - 1] != '/' ? "/" : "", (int)n, c) < 0)
		return NULL;
	return joined;
}

/*
 * Watch each symbolic link met on the way to `path`, by its name in its
 * folder: the links to folders in it (`current` of current/parts.xml) and
 * each hop of a chain of links (current -> rel -> v1), wherever they lie.
 * A folder watch follows the links its path held when it was made, so one
 * of them pointed elsewhere (`ln -sfn v2 current`) is seen only so; the
 * build that follows reads the new files, and the path is walked again.
 */
static bool watch_links_on_way(watch_state *w, const char *path)
{
	char *at = strdup(path[0] == '/' ? "/" : ""), *rest = strdup(path + strspn(path, "/"));
	bool ok = at && rest;

	for (int hops = 0; ok && rest[0] && hops <= LINK_HOPS_MAX;) {
		size_t n = strcspn(rest, "/");
		const char *after = rest + n + strspn(rest + n, "/");
		char *next = path_step(at, rest, n), target[PATH_MAX], *more = NULL;
		struct stat st;
		ssize_t len;

		/* "" is the working folder ("art/.." of a relative path). */
		if (!next || lstat(next[0] ? next : ".", &st) != 0) {
			free(next);
			break;   /* not there: watch_file watches for it */
		}
		if (!S_ISLNK(st.st_mode)) {
			free(at);
			at = next;
			memmove(rest, after, strlen(after) + 1);
			continue;
		}
		ok = watch_file(w, next);
		len = readlink(next, target, sizeof target - 1);
		free(next);
		if (len <= 0)
			break;
		target[len] = '\0';
		hops++;
		if (target[0] == '/') {
			free(at);
			at = strdup("/");
		}
		if (!at || asprintf(&more, "%s%s%s", target + strspn(target, "/"), after[0] ? "/" : "", after) < 0)
			break;
		free(rest);
		rest = more;
	}
	free(at);
	free(rest);
	return ok;
}

/* A source named on its own (an input file, a project's item): the file,
 * and its clip-split sidecar's name beside it, which a build reads once it
 * is there (a sidecar copied in later splits the source). */
static bool watch_source_file(watch_state *w, const char *path)
{
	char *sidecar = build_sidecar_path(path);
	bool ok = watch_file(w, path) && (!sidecar || watch_file(w, sidecar));

	free(sidecar);
	return ok;
}

/* Watch the project's response files (/@:) and the folders of its items,
 * those added since too. */
static bool watch_project(watch_state *w, const build_options *o)
{
	build_mgcb now;
	FILE *quiet = fopen("/dev/null", "w");
	size_t size;
	uint8_t *data = NULL;
	cli_error err;
	bool ok = true;

	build_mgcb_settings settings = build_options_mgcb_settings(o);

	if (quiet && cli_read_file(o->mgcb_path, &data, &size, &err) &&
	    build_mgcb_parse(o->mgcb_path, data, size, &settings, quiet, &now)) {
		for (size_t i = 0; ok && i < now.file_count; i++)
			ok = watch_file(w, now.files[i]);
		for (size_t i = 0; ok && i < now.count; i++)
			ok = watch_source_file(w, now.items[i].source);
		build_mgcb_release(&now);
	}
	free(data);
	if (quiet)
		fclose(quiet);
	return ok;
}

/* In a rebuild's process: end with the watch, even one killed with SIGKILL
 * (no handler of its runs then), as a build's workers end with the build;
 * a rebuild left running would go on writing OUTDIR after the watch was
 * stopped, and keep a clean out of it. */
static void end_with_watch(pid_t watch)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != watch)
		_exit(ANIMC_EXIT_FAILED);
}

static pid_t start_build(build_options *o, int fds[2])
{
	int pipe_fds[2], err_fds[2];
	pid_t pid, watch = getpid();

	fflush(stdout);
	fflush(stderr);
	if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
		cli_report(ANIMC_ERROR, "animc watch", "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(err_fds, O_CLOEXEC) != 0) {
		cli_report(ANIMC_ERROR, "animc watch", "pipe: %s", strerror(errno));
		close(pipe_fds[0]);
		close(pipe_fds[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		watch_sink sink;
		build_engine_deps deps;

		end_with_watch(watch);
		dup2(pipe_fds[1], STDOUT_FILENO);
		dup2(err_fds[1], STDERR_FILENO);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		memset(&sink, 0, sizeof sink);
		sink.base.ops = &watch_ops;
		sink.start_s = build_now_s();
		memset(&deps, 0, sizeof deps);
		deps.status = &sink.base;
		fflush(stdout);
		project_reread project = o->has_project ? reread_project(o) : PROJECT_READ;

		if (project != PROJECT_READ) {
			unsigned warnings = 0;

			for (size_t i = 0; i < o->said_before.count; i++)
				warnings += o->said_before.items[i].severity == ANIMC_WARNING;
			watch_not_built(&sink, project == PROJECT_BLANK ? "no line in " : NULL, o->mgcb_path, warnings);
			_exit(ANIMC_EXIT_FAILED);
		}
		int status = build_engine_run_with(CMD_BUILD, o, &deps);

		/* A build is never silent: one stopped before it compiled
		 * has its line too (a stop by a signal ended the process). */
		if (status != ANIMC_EXIT_OK && !sink.has_summary)
			watch_not_built(&sink, NULL, sink.first_error, sink.base.run_warnings);
		_exit(status);
	}
	close(pipe_fds[1]);
	close(err_fds[1]);
	if (pid < 0) {
		cli_report(ANIMC_ERROR, "animc watch", "cannot start a build: %s", strerror(errno));
		close(pipe_fds[0]);
		close(err_fds[0]);
		return pid;
	}
	fds[0] = pipe_fds[0];
	fds[1] = err_fds[0];
	return pid;
}

/* Wait for the build, keeping what it prints on its standard output and
 * error (text[0], text[1]: malloc()ed, NUL-terminated) and passing a stop
 * on to it: it removes what it was writing before it ends.  Returns how it
 * ended (waitpid()'s status; -1 unknown). */
static int finish_build(pid_t pid, int fds[2], char *text[2])
{
	size_t size[2] = { 0, 0 };
	FILE *f[2] = { open_memstream(&text[0], &size[0]), open_memstream(&text[1], &size[1]) };
	struct pollfd p[2] = { { fds[0], POLLIN, 0 }, { fds[1], POLLIN, 0 } };
	char buf[4096];
	int status = -1;
	bool told = false;

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		for (int k = 0; k < 2; k++) {
			ssize_t n;

			if (p[k].fd < 0 || !(p[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(p[k].fd, buf, sizeof buf);
			if (n > 0 && f[k])
				fwrite(buf, 1, (size_t)n, f[k]);
			else if (n == 0 || (n < 0 && errno != EINTR))
				p[k].fd = -1;
		}
		if (stop_requested && !told) {
			kill(pid, stop_requested);
			told = true;
		}
	}
	close(fds[0]);
	close(fds[1]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
		if (stop_requested && !told) {
			kill(pid, stop_requested);
			told = true;
		}
	}
	for (int k = 0; k < 2; k++)
		if (f[k])
			fclose(f[k]);
		else
			text[k] = NULL;
	return status;
}

/*
 * A build whose process died (a crash in an importer the engine runs in
 * itself, an abort, the OOM killer) printed no line: say so, on standard
 * error and on the line.  What it finished is in place; the rest is built
 * again at once, once (`deaths` counts the deaths in a row): a second
 * death waits for the next change.  True when it is to be built again.
 * Not a death: the stop the watch passed on (it ends the watch).
 */
static bool tell_death(int status, double start_s, unsigned *deaths)
{
	char clock[16];
	const char *name;

	if (status == -1 || !WIFSIGNALED(status) || stop_requested) {
		*deaths = 0;
		return false;
	}
	name = sigabbrev_np(WTERMSIG(status));
	(*deaths)++;
	cli_report(ANIMC_ERROR, "animc watch", "the build process was killed by SIG%s (%s); what it finished "
		   "is in place, and %s", name ? name : "?", strsignal(WTERMSIG(status)),
		   *deaths == 1 ? "it is built again now" : "the next change builds the rest");
	fflush(stderr);
	watch_clock(clock);
	printf("%s not built: the build process was killed by SIG%s, in %.0f ms\n", clock, name ? name : "?",
	       (build_now_s() - start_s) * 1000);
	fflush(stdout);
	return *deaths == 1;
}

/* The names a symbolic link that leads nowhere leads through (a link
 * repointed at a file not copied yet, a share not mounted): each watched
 * as a file not there yet is, so that the file's arrival is a change. */
static void watch_dangling_target(watch_state *w, const char *path)
{
	char *at = strdup(path);

	/* 40: as many links as the kernel follows in one path */
	for (int hop = 0; at && hop < 40; hop++) {
		char target[PATH_MAX], *dir = NULL;
		ssize_t n = readlink(at, target, sizeof target - 1);
		struct stat st;

		if (n < 0)
			break;
		target[n] = '\0';
		if (target[0] != '/')
			dir = strndup(at, (size_t)(cli_basename(at) - at));
		free(at);
		at = target[0] == '/' ? strdup(target) : dir ? cli_path_join(dir, target, NULL) : NULL;
		free(dir);
		if (!at || !watch_file(w, at) || lstat(at, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
	}
	free(at);
}

/* A source that is a symbolic link to a file: the file it leads to is
 * watched too (its folder, for that name), wherever it lies, for a save
 * there changes the source (folder links are followed by add_tree); so
 * is the file one leading nowhere names, for its arrival. */
static void watch_link_target(watch_state *w, const char *path)
{
	struct stat st;
	char *real;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return;
	if (!(real = realpath(path, NULL))) {
		watch_dangling_target(w, path);
		return;
	}
	if (stat(real, &st) == 0 && !S_ISDIR(st.st_mode))
		watch_file(w, real);
	free(real);
}

/* A file a build reads besides the sources (a sidecar, a glTF buffer, the
 * --skeleton model, the --clips file, the project): watched by its name,
 * and by the file it leads to when it is a symbolic link (a document
 * shared by linking it into each folder), as a linked source is. */
static bool watch_read_file(watch_state *w, const char *path)
{
	bool ok = watch_file(w, path) && watch_links_on_way(w, path);

	watch_link_target(w, path);
	return ok;
}

/* Is file f one that a source of manifest m read (a glTF buffer, which a
 * folder's walk also finds and skips, no importer reading it alone)? */
static bool is_read_by_a_source(const manifest *m, const file_id *f)
{
	for (size_t i = 0; i < m->count; i++)
		for (uint32_t d = 0; d < m->entries[i].dep_count; d++) {
			const build_file_state *s = &m->entries[i].deps[d].state;

			if (s->dev == f->dev && s->ino == f->ino)
				return true;
		}
	return m->has_skeleton && m->skeleton.state.dev == f->dev && m->skeleton.state.ino == f->ino;
}

/* The file writer `wr` writes, if the last build found no importer for
 * it: it saw it open for writing (file_id's is_open). */
static void mark_open(watch_state *w, const writer *wr)
{
	const watched *dir = find_wd(w, wr->wd);
	char *path = dir ? cli_path_join(dir->dir, wr->name, NULL) : NULL;
	struct stat st;

	if (path && stat(path, &st) == 0) {
		size_t i = not_source_at(w, &st);

		if (i < w->not_source_count)
			w->not_sources[i].is_open = true;
	}
	free(path);
}

/* After a build: the files it found no importer for that were open for
 * writing (writers given up on before it, writers still at work) are
 * marked so; those still being written hold no rebuild back. */
static void note_open_files(watch_state *w)
{
	for (size_t i = 0; i < w->given_up_count; i++) {
		mark_open(w, &w->given_up[i]);
		free(w->given_up[i].name);
	}
	w->given_up_count = 0;
	for (size_t i = 0; i < w->writer_count;) {
		const watched *dir = find_wd(w, w->writers[i].wd);

		if (dir && !may_be_read(w, dir->dir, w->writers[i].name)) {
			mark_open(w, &w->writers[i]);
			free(w->writers[i].name);
			w->writers[i] = w->writers[--w->writer_count];
		} else {
			i++;
		}
	}
}

/* Watch every file the last build read besides its sources (a clip-split
 * sidecar, a glTF buffer, the --skeleton model, the project, the file a
 * linked source leads to), as its manifest records them: an edit there
 * compiles the sources again. */
static void watch_files_read(watch_state *w, const build_options *o)
{
	char *path = cli_path_join(o->out_dir, MANIFEST_FILE, NULL);
	manifest m;
	cli_error err;

	memset(&m, 0, sizeof m);
	w->not_source_count = 0;
	if (path && manifest_load(&m, path, &err) == MANIFEST_LOADED) {
		for (size_t i = 0; i < m.count; i++) {
			const manifest_entry *e = &m.entries[i];
			file_id *grown;

			watch_link_target(w, e->source);
			for (uint32_t d = 0; d < e->dep_count; d++)
				watch_read_file(w, e->deps[d].path);
			if (e->status != BUILD_SKIPPED || e->importer[0])
				continue;
			grown = realloc(w->not_sources, (w->not_source_count + 1) * sizeof *grown);
			if (!grown)
				continue;
			w->not_sources = grown;
			grown[w->not_source_count++] = (file_id){ e->state.dev, e->state.ino, e->state.size, false };
		}
		if (m.has_skeleton)
			watch_read_file(w, m.skeleton.path);
		/* A file a source read is no log: it saved in place (`cp`
		 * over it, the same size or larger) is a change. */
		for (size_t i = 0; i < w->not_source_count;)
			if (is_read_by_a_source(&m, &w->not_sources[i]))
				w->not_sources[i] = w->not_sources[--w->not_source_count];
			else
				i++;
	}
	note_open_files(w);
	manifest_release(&m);
	free(path);
}

/* Watch the inputs and the output folder (its going away).  With
 * is_again, after a watched folder went away: an input not there (yet, or
 * any more) is no error (tell_gone_inputs says it is gone, and it is
 * looked for every second), and false says to look again later. */
static bool watch_inputs(watch_state *w, const build_options *o, bool is_again)
{
	bool ok = true;

	for (size_t i = 0; ok && i < o->inputs.count; i++) {
		const char *input = o->inputs.items[i];
		struct stat st;

		if (cli_stat_input(input, &st) != 0) {
			if (!is_again)
				cli_report(ANIMC_ERROR, input, "cannot watch: %s", strerror(errno));
			ok = is_again;
		} else if (!watch_links_on_way(w, input)) {
			/* The links on its way (`current` of current/art, each
			 * of a chain): one pointed elsewhere starts a build,
			 * which follows it (follow_input_links). */
			ok = false;
		} else if (S_ISDIR(st.st_mode)) {
			struct stat link;

			ok = add_tree(w, input, true);
			/* A symbolic link: its folder too, for that name, to
			 * see it pointed elsewhere (follow_input_links). */
			if (ok && lstat(input, &link) == 0 && S_ISLNK(link.st_mode))
				ok = watch_file(w, input);
		} else {
			char *dir = strndup(input, (size_t)(cli_basename(input) - input));

			ok = dir && add_watch(w, dir[0] ? dir : ".", cli_basename(input), false) &&
			     watch_source_file(w, input);
			free(dir);
		}
	}
	/* The files options name, read by every build. */
	if (ok && o->skeleton_path)
		ok = watch_read_file(w, o->skeleton_path);
	if (ok && o->author.clips_path)
		ok = watch_read_file(w, o->author.clips_path);
	/* A project: its file and its items' folders. */
	if (ok && o->has_project)
		ok = watch_read_file(w, o->mgcb_path) && watch_project(w, o);
	if (w->out_wd < 0 && w->out_dir)
		w->out_wd = inotify_add_watch(w->fd, w->out_dir, IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
	return ok;
}

/* Is input i of the command line gone: the file system says it is not
 * there (not a folder that cannot be read)? */
static bool input_is_gone(const build_options *o, size_t i)
{
	struct stat st;

	return cli_stat_input(o->inputs.items[i], &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
}

/* Has an input said to be gone come back?  (`any_gone`: is one still
 * gone, to be looked for again?) */
static bool input_is_back(const watch_state *w, const build_options *o, bool *any_gone)
{
	struct stat st;

	if (w->cwd && cli_stat_input(".", &st) != 0 && chdir(w->cwd) != 0)
		errno = 0;   /* not there yet: looked for again */
	*any_gone = false;
	for (size_t i = 0; i < o->inputs.count; i++) {
		if (w->is_gone[i] && !input_is_gone(o, i))
			return true;
		*any_gone |= w->is_gone[i];
	}
	return false;
}

/* Before a build: an input that went since the last is said to be gone,
 * once (the build leaves it out, no failure); one back is built again.
 * Its outputs stay, as those under a missing input of a build do (an
 * unmounted share must not lose them). */
static void tell_gone_inputs(watch_state *w, build_options *o)
{
	for (size_t i = 0; i < o->inputs.count; i++) {
		bool is_gone = input_is_gone(o, i);

		if (is_gone && !w->is_gone[i]) {
			/* A symbolic link deleted: the folder it led to is
			 * watched no more by that path (nor at all, with no
			 * other). */
			forget_paths(w, o->inputs.items[i], true);
			char *message;
			if (build_gone_input_holding_out_dir(o) == (long)i) {
				if (asprintf(&message, "gone (moved away or deleted), and the output folder '%s' inside "
					     "it with it: not built until it is back", o->out_dir) < 0)
					message = NULL;
			} else if (asprintf(&message, "gone (moved away or deleted): not built until it is back; its "
					    "outputs in '%s' stay (remove them with 'animc clean -o %s', or with a build "
					    "with --prune that no longer names this input)", o->out_dir, o->out_dir) < 0) {
				message = NULL;
			}
			/* Counted on the line of the build it comes before. */
			say_own(o, &o->said_before, ANIMC_WARN_INPUT_GONE, o->inputs.items[i],
				message ? message : "gone (moved away or deleted)");
			free(message);
		}
		w->is_gone[i] = is_gone;
	}
}

/* Before a build: an input folder (or the folder of an input file) whose
 * path names another folder now (a symbolic link pointed elsewhere, the
 * input or one above it: `ln -sfn v2 current`) is watched there, and no
 * more at the folder it named; the build then prunes what only that folder
 * held, as for a replaced folder. */
static void follow_input_links(watch_state *w, const build_options *o)
{
	bool any = false;

	for (size_t i = 0; i < o->inputs.count; i++) {
		const char *input = o->inputs.items[i];
		struct stat st;
		bool is_moved = false;

		if (w->is_gone[i] || stat(input, &st) != 0)
			continue;
		char *folder = S_ISDIR(st.st_mode) ? strdup(input) : strndup(input, (size_t)(cli_basename(input) - input));

		if (folder && !S_ISDIR(st.st_mode) && !folder[0]) {
			free(folder);
			folder = strdup(".");
		}
		for (size_t k = 0; folder && k < w->dir_count; k++)
			if (is_path_of(&w->dirs[k], folder))
				is_moved = !names_folder(&w->dirs[k], folder);
		if (is_moved)
			forget_paths(w, folder, true);
		any |= is_moved;
		free(folder);
	}
	if (any && !watch_inputs(w, o, true))
		w->needs_rewatch = true;
}

/* A dangling link of the tree that leads to a folder now (the share
 * mounted again): that folder watched as the tree's, true (a build is
 * due).  A link gone altogether is forgotten. */
static bool links_lead_somewhere(watch_state *w, double t)
{
	bool any = false;
	size_t kept = 0;

	for (size_t i = 0; i < w->dangling.count; i++) {
		char *path = w->dangling.items[i];
		struct stat st;

		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (!add_tree(w, path, false))
				w->needs_rewatch = true;   /* the watch limit: tried again */
			any = true;
			free(path);
		} else if (lstat(path, &st) != 0) {
			free(path);
		} else {
			w->dangling.items[kept++] = path;
		}
	}
	w->dangling.count = kept;
	if (any)
		w->last_event_s = t;
	return any;
}

/* Build, then build again on every change, until SIGINT or SIGTERM. */
/* No build while the output folder is gone with an input that held it:
 * making it would make the input again (a folder moved back would land
 * inside it).  Said as a build's line, with the warnings said before. */
static void went_with_input(const build_options *o)
{
	watch_sink ws = { .start_s = build_now_s() };
	unsigned warnings = 0;

	for (size_t i = 0; i < o->said_before.count; i++)
		warnings += o->said_before.items[i].severity == ANIMC_WARNING;
	watch_not_built(&ws, "the output folder is gone with ", o->inputs.items[build_gone_input_holding_out_dir(o)],
			warnings);
}

/* `name` in `dir` (`dir_len` bytes; none: `name` alone), in the working
 * folder when that is not absolute, malloc()ed; NULL when there is no such
 * executable file. */
static char *executable_in(const char *dir, size_t dir_len, const char *name)
{
	char cwd[4096] = "", *path;
	struct stat st;
	size_t size;

	if ((dir_len ? dir[0] : name[0]) != '/' && !getcwd(cwd, sizeof cwd))
		return NULL;
	size = strlen(cwd) + dir_len + strlen(name) + 3;
	path = malloc(size);
	if (!path)
		return NULL;
	snprintf(path, size, "%s%s%.*s%s%s", cwd, cwd[0] ? "/" : "", (int)dir_len, dir, dir_len ? "/" : "", name);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/* The file name this process was started by, malloc()ed: argv[0], looked
 * up on the PATH as the shell does when it holds no '/'; NULL when it
 * does not lead to `program` (a name of the shell's, an exec with another
 * argv[0]). */
static char *started_as(const char *program)
{
	const char *name = program_invocation_name, *dirs = getenv("PATH");
	char *found = NULL, *real;

	if (!name || !name[0])
		return NULL;
	if (strchr(name, '/')) {
		found = executable_in("", 0, name);
	} else {
		while (dirs && !found) {
			size_t len = strcspn(dirs, ":");

			found = executable_in(dirs, len, name);
			dirs = dirs[len] ? dirs + len + 1 : NULL;
		}
	}
	real = found ? realpath(found, NULL) : NULL;
	if (!real || strcmp(real, program) != 0) {
		free(found);
		found = NULL;
	}
	free(real);
	return found;
}

/* Whether the name this watch was started by leads to another file now
 * (or to none). */
static bool is_started_as_another(const watch_state *w)
{
	char *now;
	bool other;

	if (!w->started_as)
		return false;
	now = realpath(w->started_as, NULL);
	other = !now || strcmp(now, w->program) != 0;
	free(now);
	return other;
}

/* Note the file this process runs (w->program, named by /proc/self/exe)
 * and its state, as a stat of that name gives it (through an overlay file
 * system, /proc/self/exe's own stat may name another device): none when
 * that cannot be read or the file is already gone. */
static void note_program(watch_state *w)
{
	static const char deleted[] = " (deleted)";
	char path[4096];
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);

	if (n <= 0)
		return;
	path[n] = '\0';
	if (((size_t)n > strlen(deleted) && strcmp(path + n - strlen(deleted), deleted) == 0) || stat(path, &st) != 0)
		return;
	w->program = strdup(path);
	build_file_state_from(&st, &w->program_state);
	w->started_as = started_as(w->program);
}

/* Whether the file the watch was started from is another file now (or
 * gone): said once; the watch then stops.  Another file is another inode:
 * a running program cannot be written over in place (ETXTBSY), and every
 * install renames or links a new file there.  Its mtime is no part of it:
 * the same file touched (touch, a restore of times) runs the same animc. */
static bool program_is_replaced(watch_state *w)
{
	struct stat st;
	build_file_state now;

	if (!w->program)
		return false;
	if (stat(w->program, &st) == 0) {
		build_file_state_from(&st, &now);
		if (now.dev == w->program_state.dev && now.ino == w->program_state.ino &&
		    now.size == w->program_state.size && !is_started_as_another(w))
			return false;
	}
	cli_report(ANIMC_ERROR, "animc watch", "'%s' was replaced since this watch started (another version "
		   "installed, or animc built again): stopped, nothing built with the animc it replaced; start the "
		   "watch again", w->started_as ? w->started_as : w->program);
	w->is_program_replaced = true;
	return true;
}

static void watch_loop(watch_state *w, build_options *o)
{
	pid_t pid;
	bool again = true;
	unsigned deaths = 0;

	printf("watching %zu folder%s; Ctrl-C stops\n", w->dir_count, w->dir_count == 1 ? "" : "s");
	while (!stop_requested) {
		struct pollfd p = { w->fd, POLLIN, 0 };
		double t = build_now_s();
		int timeout = -1;

		if (again && w->writer_count == 0) {
			int fds[2] = { -1, -1 }, status = -1;
			char *printed[2] = { NULL, NULL };
			double start_s = build_now_s();

			if (program_is_replaced(w))
				break;
			again = false;
			w->is_dirty = false;
			w->dirty_since_s = 0;
			tell_gone_inputs(w, o);
			follow_input_links(w, o);
			/* A link of the tree that led nowhere and leads somewhere
			 * now (pointed out of a loop): this build reads its
			 * folder, which no second build is started for. */
			links_lead_somewhere(w, start_s);
			if (build_gone_input_holding_out_dir(o) >= 0)
				went_with_input(o);
			else if ((pid = start_build(o, fds)) > 0)
				status = finish_build(pid, fds, printed);
			build_said_release(&o->said_before);
			/* What happened meanwhile counts next.  The build's
			 * lines are printed whatever happened: they are true of
			 * what it read, and a source saved again while it ran
			 * is built again at once, whose line tells. */
			take_events(w);
			watch_files_read(w, o);
			/* An item the project gained, in a folder that cannot
			 * be watched yet (the watch limit): tried again every
			 * second, as a folder made in the tree is. */
			if (w->needs_rewatch)
				w->needs_rewatch = !watch_inputs(w, o, true);
			else if (o->has_project)
				w->needs_rewatch = !watch_project(w, o);
			w->has_told_limit &= w->needs_rewatch;
			/* Its diagnostics on standard error, as a build prints
			 * them, then its line. */
			if (printed[1]) {
				fputs(printed[1], stderr);
				fflush(stderr);
			}
			if (printed[0]) {
				fputs(printed[0], stdout);
				fflush(stdout);
			}
			free(printed[0]);
			free(printed[1]);
			again = tell_death(status, start_s, &deaths);
			continue;
		}
		writers_expire(w, t);
		timeout = writers_next_ms(w, t);
		/* A folder that went away, an input gone: looked for again
		 * every second; back, it is built. */
		bool any_gone = false, is_back = !w->is_dirty && input_is_back(w, o, &any_gone);

		if ((w->needs_rewatch || is_back) && !w->is_dirty) {
			if (watch_inputs(w, o, true)) {
				w->needs_rewatch = w->has_told_limit = false;
				w->is_dirty = true;
				w->last_event_s = t;
			} else {
				any_gone = true;
			}
		}
		if (!w->is_dirty && links_lead_somewhere(w, t))
			w->is_dirty = true;
		any_gone |= w->dangling.count > 0;
		if (!w->is_dirty && any_gone && (timeout < 0 || timeout > 1000))
			timeout = 1000;
		if (w->is_dirty) {
			if (w->dirty_since_s == 0)
				w->dirty_since_s = t;
			double wait_ms = WATCH_QUIET_MS - (t - w->last_event_s) * 1000;
			double overdue_ms = WATCH_WRITER_LIMIT_MS - (t - w->dirty_since_s) * 1000;

			if (overdue_ms < wait_ms)
				wait_ms = overdue_ms;

			if (wait_ms <= 0 && w->writer_count == 0) {
				again = true;
				continue;
			}
			if (wait_ms > 0 && (timeout < 0 || (int)wait_ms + 1 < timeout))
				timeout = (int)wait_ms + 1;
		}
		if (poll(&p, 1, timeout) > 0)
			take_events(w);
	}
}

static void watch_help(FILE *out);

/* Keep in `made` the folders of `path` not there yet, the deepest first:
 * those cli_mkdir_p makes. */
static void missing_folders(const char *path, cli_strings *made)
{
	char *p = strdup(path);

	while (p && p[0] && access(p, F_OK) != 0 && errno == ENOENT && cli_strings_push(made, p)) {
		size_t n = strlen(p);

		while (n > 1 && p[n - 1] == '/')
			n--;
		while (n > 0 && p[n - 1] != '/')
			n--;
		while (n > 1 && p[n - 1] == '/')
			n--;
		p[n] = '\0';
	}
	free(p);
}

/* Make the output folder and the --cache-dir folder (they are there
 * before they are compared with the inputs), keeping in `made` those made
 * here: a watch that does not start removes them again (unmake_dirs). */
static bool make_out_dirs(const build_options *o, cli_strings *made)
{
	const char *dirs[2] = { o->out_dir, o->cache_dir };

	for (size_t i = 0; i < 2; i++) {
		cli_error err;

		if (!dirs[i])
			continue;
		missing_folders(dirs[i], made);
		if (!cli_mkdir_p(dirs[i], &err)) {
			cli_report_error(dirs[i], &err);
			return false;
		}
	}
	return true;
}

/* Remove the folders make_out_dirs made, those left empty: the watch did
 * not start, and left them behind, as a build that fails leaves none.
 * (Again while one goes: one folder may hold another of the list.) */
static void unmake_dirs(const cli_strings *made)
{
	bool removed = true;

	while (removed) {
		removed = false;
		for (size_t i = 0; i < made->count; i++)
			removed |= rmdir(made->items[i]) == 0;
	}
}

/* Is an input the output folder or the --cache-dir folder?  Those are
 * never watched (the build writes them), so such a watch would watch
 * nothing of it: a usage error, said before anything is made. */
static int input_is_written(const build_options *o)
{
	const char *dirs[2] = { o->out_dir, o->cache_dir };
	int status = 0;

	for (size_t k = 0; k < 2 && !status; k++) {
		char *real = dirs[k] ? realpath(dirs[k], NULL) : NULL;

		for (size_t i = 0; real && i < o->inputs.count && !status; i++) {
			char *input = realpath(o->inputs.items[i], NULL);

			if (input && strcmp(input, real) == 0)
				status = cli_usage_error("watch", "the input '%s' is the %s folder too (%s '%s'), "
							 "which the build writes: give %s a folder of its own",
							 o->inputs.items[i], k ? "cache" : "output",
							 k ? "--cache-dir" : "-o", dirs[k], k ? "--cache-dir" : "-o");
			free(input);
		}
		free(real);
	}
	return status;
}

static int run_watch(int argc, char **argv)
{
	build_options o;
	watch_state w = { .fd = -1, .out_wd = -1, .added = SIZE_MAX };
	cli_strings made = { NULL, 0, 0 };
	int status = build_options_parse_as(&o, CMD_BUILD, "watch", argc, argv);

	if (status != 0) {
		build_options_release(&o);
		if (status > 0)
			return status;
		return cli_stdout_help("watch", watch_help) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
	}
	status = input_is_written(&o);
	if (status != 0) {
		build_options_release(&o);
		return status;
	}
	/* The output folder follows its inputs: a deleted source takes its
	 * outputs with it. */
	o.prune = true;
	o.skips_gone_inputs = true;
	o.keeps_state = true;
	cli_catch_stop_signals(on_stop);

	w.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w.fd < 0) {
		cli_report(ANIMC_ERROR, "animc watch", "inotify: %s", strerror(errno));
		build_options_release(&o);
		return ANIMC_EXIT_FAILED;
	}
	long gone = build_gone_input_holding_out_dir(&o);
	if (gone >= 0) {
		/* Making the output folder would make the input again. */
		cli_report(ANIMC_ERROR, o.inputs.items[gone], "cannot open: %s; not watched, and the output folder "
			   "'%s' inside it is not made", strerror(ENOENT), o.out_dir);
		status = ANIMC_EXIT_FAILED;
	} else if (!make_out_dirs(&o, &made)) {
		status = ANIMC_EXIT_FAILED;
	}
	w.skip_real[0] = realpath(o.out_dir, NULL);
	w.skip_real[1] = o.cache_dir ? realpath(o.cache_dir, NULL) : NULL;
	own_file_set(&w.own[0], o.report_path);
	own_file_set(&w.own[1], o.junit_path);
	own_file_set(&w.own[2], o.depfile_path);
	w.out_dir = o.out_dir;
	w.cwd = getcwd(NULL, 0);
	w.is_gone = calloc(o.inputs.count ? o.inputs.count : 1, sizeof *w.is_gone);
	if (!w.is_gone) {
		cli_report(ANIMC_ERROR, "animc watch", "out of memory");
		status = ANIMC_EXIT_FAILED;
	}
	if (status == 0 && !watch_inputs(&w, &o, false))
		status = ANIMC_EXIT_FAILED;
	note_program(&w);
	if (status == 0)
		watch_loop(&w, &o);
	else
		unmake_dirs(&made);
	if (w.is_program_replaced)
		status = ANIMC_EXIT_FAILED;
	cli_strings_release(&made);
	for (size_t i = 0; i < w.dir_count; i++) {
		free(w.dirs[i].dir);
		free(w.dirs[i].real);
		cli_strings_release(&w.dirs[i].aliases);
		cli_strings_release(&w.dirs[i].names);
	}
	for (size_t i = 0; i < sizeof w.own / sizeof w.own[0]; i++) {
		free(w.own[i].dir_real);
		free(w.own[i].name);
	}
	free(w.skip_real[0]);
	free(w.skip_real[1]);
	for (size_t i = 0; i < w.writer_count; i++)
		free(w.writers[i].name);
	for (size_t i = 0; i < w.given_up_count; i++)
		free(w.given_up[i].name);
	free(w.given_up);
	free(w.dirs);
	free(w.writers);
	free(w.not_sources);
	free(w.is_gone);
	free(w.cwd);
	free(w.program);
	free(w.started_as);
	cli_strings_release(&w.dangling);
	close(w.fd);
	build_options_release(&o);
	return status;
}

static void watch_help(FILE *out)
{
	fprintf(out,
		"usage: animc watch [build options] -o OUTDIR INPUT...\n"
		"\n"
		"Build as 'animc build' does, then build again whenever an input changes: files\n"
		"and folders (and the folders created in them) are watched with inotify, and so\n"
		"is every other file a build read (a sidecar, a glTF buffer, --skeleton,\n"
		"--clips).  A burst of saves is one rebuild, which waits until no file is being\n"
		"written, so a half-written source is not compiled (a file no importer reads,\n"
		"such as a log, is not waited for, nor is a line added to it a change; none is\n"
		"waited for longer than 3 s).  Each rebuild prints one line: the time, what was\n"
		"compiled or taken from the cache, failures, warnings, how long it took.\n"
		"Outputs of a deleted source are removed (--prune).  An input that is gone (moved\n"
		"away, deleted) is said once and not built until it is back; its outputs stay.\n"
		"Takes every option of 'animc build', --mgcb too.\n"
		"Ctrl-C (SIGINT) or SIGTERM ends it with status 0, leaving no temporary file.\n"
		"\n"
		"exit status: 0 ended by Ctrl-C or SIGTERM, 1 it could not start (an input not\n"
		"there, no room for inotify watches) or stopped because its animc file was\n"
		"replaced, 2 usage error.\n");
}

const animc_command animc_cmd_watch = {
	.name = "watch",
	.summary = "build, then rebuild on every change: animc watch -o OUTDIR INPUT...",
	.run = run_watch,
	.help = watch_help,
};
