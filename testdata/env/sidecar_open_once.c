/*
 * A stand-in for the tests, preloaded: one open of a clip-split sidecar's
 * name (*_Anims.xml), the SIDECAR_OPEN_FAILS-th (1 unless set) of each
 * process, fails (EMFILE, as when the build holds every descriptor it may
 * for a moment), the file there or not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static int is_sidecar(const char *path)
{
	size_t n = strlen(path), m = strlen("_Anims.xml");

	return n >= m && strcmp(path + n - m, "_Anims.xml") == 0;
}

static int open_as(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	static int opens;
	const char *nth = getenv("SIDECAR_OPEN_FAILS");

	if (is_sidecar(path) && ++opens == (nth && atoi(nth) > 0 ? atoi(nth) : 1)) {
		errno = EMFILE;
		return -1;
	}
	return real(path, flags, mode);
}

#include "open_shim.h"
