/*
 * A stand-in for the tests, preloaded: another process that swaps a folder
 * of the input (or a file) for a symbolic link between animc's check of
 * where a file lies, or of what it is, and its open.  Right after a
 * realpath() that resolves a name below SWAP_FOLDER (a resolved path), a
 * readlink() that finds such a name no link, or an lstat() of SWAP_FOLDER
 * itself, it is moved to SWAP_FOLDER.was and a
 * link to SWAP_TO put in its place; right after an open() or fopen() of
 * it or a name below it, it is put back: each check finds the folder (or
 * file), each open by name the link.  With SWAP_BEFORE_OPEN set, checks
 * swap nothing: the folder is swapped right before an open() or fopen()
 * by a name below it (and put back after), as if another process swapped
 * it at any moment before: a file opened by name is read through the
 * link, one opened by where it was found to lie is not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether `path` is SWAP_FOLDER (`itself`) or a name below it. */
static int is_below(const char *path, int itself)
{
	const char *folder = getenv("SWAP_FOLDER");
	size_t n = folder ? strlen(folder) : 0;

	return path && n && getenv("SWAP_TO") && strncmp(path, folder, n) == 0 &&
	       (path[n] == '/' || (itself && path[n] == '\0'));
}

/* Whether a check swaps (1), or an open by name (0). */
static int swaps_on_check(void)
{
	return !getenv("SWAP_BEFORE_OPEN");
}

static void swap(int to_link)
{
	const char *folder = getenv("SWAP_FOLDER");
	char aside[4096];
	struct stat st;
	int saved = errno;

	snprintf(aside, sizeof aside, "%s.was", folder);
	if (fstatat(AT_FDCWD, folder, &st, AT_SYMLINK_NOFOLLOW) == 0 && (!S_ISLNK(st.st_mode)) == to_link) {
		if (to_link && rename(folder, aside) == 0)
			symlink(getenv("SWAP_TO"), folder);
		else if (!to_link && unlink(folder) == 0)
			rename(aside, folder);
	}
	errno = saved;
}

char *realpath(const char *path, char *resolved)
{
	char *(*real)(const char *, char *) = (char *(*)(const char *, char *))dlsym(RTLD_NEXT, "realpath");
	char *got = real(path, resolved);

	if (swaps_on_check() && is_below(got, 0))
		swap(1);
	return got;
}

/* A name below SWAP_FOLDER that is no link, as a resolution a name at a
 * time (formats/beside.c) checks each: checked, as by realpath(). */
ssize_t readlink(const char *path, char *buf, size_t size)
{
	ssize_t (*real)(const char *, char *, size_t) =
		(ssize_t (*)(const char *, char *, size_t))dlsym(RTLD_NEXT, "readlink");
	ssize_t got = real(path, buf, size);

	if (swaps_on_check() && got < 0 && errno == EINVAL && is_below(path, 0))
		swap(1);
	return got;
}

int lstat(const char *path, struct stat *st)
{
	int (*real)(const char *, struct stat *) = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "lstat");
	int got = real(path, st);

	if (swaps_on_check() && got == 0 && !S_ISLNK(st->st_mode) && is_below(path, 1) && !is_below(path, 0))
		swap(1);
	return got;
}

FILE *fopen(const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	FILE *got;

	if (!swaps_on_check() && is_below(path, 0))
		swap(1);
	got = real(path, mode);

	if (is_below(path, 1))
		swap(0);
	return got;
}

static int open_as(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	int got;

	if (!swaps_on_check() && is_below(path, 0))
		swap(1);
	got = real(path, flags, mode);

	if (is_below(path, 1))
		swap(0);
	return got;
}

#include "open_shim.h"
