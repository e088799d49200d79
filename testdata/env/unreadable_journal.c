/*
 * A stand-in for the tests, preloaded: a journal in OUTDIR/.animc cannot be
 * opened for reading (EACCES), as the journal of a build another user ran
 * under umask 077, killed before its manifest recorded what it wrote.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/types.h>

static int is_journal_read(const char *path, int flags)
{
	return (flags & O_ACCMODE) == O_RDONLY && strstr(path, "/.animc/journal.");
}

static int open_as(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);

	if (is_journal_read(path, flags)) {
		errno = EACCES;
		return -1;
	}
	return real(path, flags, mode);
}

/* Journals are read in the folder animc opened: openat(). */
static int open_at_as(const char *name, int dir_fd, const char *path, const char *full, int flags, mode_t mode)
{
	int (*real)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, name);

	if (is_journal_read(full, flags)) {
		errno = EACCES;
		return -1;
	}
	return real(dir_fd, path, flags, mode);
}

#define OPEN_SHIM_AT
#include "open_shim.h"
