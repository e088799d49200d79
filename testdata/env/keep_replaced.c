/*
 * A stand-in for the tests, preloaded: the first unlink() of a temporary
 * file of an output named A.xnb (".A.xnb.XXXXXX") fails (EIO), as on a
 * disk failing a moment.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

int unlink(const char *path)
{
	static int failed;
	int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	const char *base = strrchr(path, '/');

	if (!failed && strncmp(base ? base + 1 : path, ".A.xnb.", 7) == 0) {
		failed = 1;
		errno = EIO;
		return -1;
	}
	return real(path);
}
