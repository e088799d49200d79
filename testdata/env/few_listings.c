/*
 * A stand-in for the tests, preloaded.  With LISTINGS_MAX=N, opendir()
 * of a folder whose path starts with LISTINGS_UNDER fails (EMFILE) past
 * the Nth: a run that lists one folder again and again, once per file it
 * asks about, is told apart from one that lists it once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

DIR *opendir(const char *name)
{
	static int count;
	DIR *(*real)(const char *) = (DIR * (*)(const char *))dlsym(RTLD_NEXT, "opendir");
	const char *max = getenv("LISTINGS_MAX"), *under = getenv("LISTINGS_UNDER");

	if (max && under && strncmp(name, under, strlen(under)) == 0 && ++count > atoi(max)) {
		errno = EMFILE;
		return NULL;
	}
	return real(name);
}
