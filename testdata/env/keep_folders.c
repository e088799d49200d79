/*
 * A stand-in for the tests, preloaded: a folder named Crane cannot be
 * removed (EBUSY), as a mount point cannot.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

int unlinkat(int dir_fd, const char *path, int flags)
{
	int (*real)(int, const char *, int) = (int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat");
	const char *base = strrchr(path, '/');

	if ((flags & AT_REMOVEDIR) && strcmp(base ? base + 1 : path, "Crane") == 0) {
		errno = EBUSY;
		return -1;
	}
	return real(dir_fd, path, flags);
}
