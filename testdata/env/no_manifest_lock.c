/*
 * A stand-in for the tests, preloaded: OUTDIR/.animc/manifest.lock cannot
 * be opened (EMFILE, as when the build holds every descriptor it may) or,
 * with NO_MANIFEST_LOCK=flock, cannot be locked (ENOLCK).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int is_lock(const char *path)
{
	size_t n = strlen(path), m = strlen("/.animc/manifest.lock");

	return n >= m && strcmp(path + n - m, "/.animc/manifest.lock") == 0;
}

static int fails(const char *how)
{
	const char *mode = getenv("NO_MANIFEST_LOCK");

	return strcmp(mode && *mode ? mode : "open", how) == 0;
}

static int open_as(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);

	if (fails("open") && is_lock(path)) {
		errno = EMFILE;
		return -1;
	}
	return real(path, flags, mode);
}

/* The lock is made in the folder animc opened: openat(). */
static int open_at_as(const char *name, int dir_fd, const char *path, const char *full, int flags, mode_t mode)
{
	int (*real)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, name);

	if (fails("open") && is_lock(full)) {
		errno = EMFILE;
		return -1;
	}
	return real(dir_fd, path, flags, mode);
}

#define OPEN_SHIM_AT
#include "open_shim.h"

int flock(int fd, int operation)
{
	int (*real)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
	char link[64], path[4096];
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof path - 1);
	path[n > 0 ? n : 0] = '\0';
	if (fails("flock") && is_lock(path)) {
		errno = ENOLCK;
		return -1;
	}
	return real(fd, operation);
}
