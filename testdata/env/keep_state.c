/*
 * A stand-in for the tests, preloaded: the files of OUTDIR/.animc named
 * manifest.lock and journal.* cannot be removed (EIO), as on a disk failing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

static int is_kept(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strcmp(base, "manifest.lock") == 0 || strncmp(base, "journal.", 8) == 0;
}

int unlink(const char *path)
{
	int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");

	if (is_kept(path)) {
		errno = EIO;
		return -1;
	}
	return real(path);
}

int unlinkat(int dir_fd, const char *path, int flags)
{
	int (*real)(int, const char *, int) = (int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat");

	if (is_kept(path)) {
		errno = EIO;
		return -1;
	}
	return real(dir_fd, path, flags);
}
