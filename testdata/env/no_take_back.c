/*
 * A stand-in for the tests, preloaded: an output named B.xnb cannot be
 * renamed into place, and one named A.xnb cannot be removed (EIO both), as
 * on a disk failing while a source of two outputs is put in place.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");

	if (ends_with(to, "/B.xnb")) {
		errno = EIO;
		return -1;
	}
	return real(from, to);
}

int unlink(const char *path)
{
	int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");

	if (ends_with(path, "/A.xnb")) {
		errno = EIO;
		return -1;
	}
	return real(path);
}
