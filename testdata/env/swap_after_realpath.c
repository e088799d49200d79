/*
 * A stand-in for the tests, preloaded: another process that swaps a folder
 * of the input for a symbolic link between animc's check of where a file
 * lies and its open.  Right after a realpath() that resolves a name below
 * SWAP_FOLDER (a resolved path), the folder is moved to SWAP_FOLDER.was
 * and a link to SWAP_TO put in its place; right after an open() or
 * fopen() of a name below it, the folder is put back: each check finds
 * the folder, each open by name the link.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_below(const char *path)
{
	const char *folder = getenv("SWAP_FOLDER");
	size_t n = folder ? strlen(folder) : 0;

	return path && n && getenv("SWAP_TO") && strncmp(path, folder, n) == 0 && path[n] == '/';
}

static void swap(int to_link)
{
	const char *folder = getenv("SWAP_FOLDER");
	char aside[4096];
	struct stat st;
	int saved = errno;

	snprintf(aside, sizeof aside, "%s.was", folder);
	if (lstat(folder, &st) == 0 && S_ISDIR(st.st_mode) == to_link) {
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

	if (is_below(got))
		swap(1);
	return got;
}

FILE *fopen(const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	FILE *got = real(path, mode);

	if (is_below(path))
		swap(0);
	return got;
}

static int open_as(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	int got = real(path, flags, mode);

	if (is_below(path))
		swap(0);
	return got;
}

#include "open_shim.h"
