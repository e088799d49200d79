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

static int open_as(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);

	if ((flags & O_ACCMODE) == O_RDONLY && strstr(path, "/.animc/journal.")) {
		errno = EACCES;
		return -1;
	}
	return real(path, flags, mode);
}

#include "open_shim.h"
