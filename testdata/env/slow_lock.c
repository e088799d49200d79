/*
 * A stand-in for the tests, preloaded.  With SLOW_LOCK_S=N, a flock()
 * taking a lock shared and waiting (LOCK_SH: a build letting go of
 * OUTDIR's lock, which it held alone) first sleeps N seconds, so that the
 * build holds the lock alone that long.  With HIDE_PROC_LOCKS set,
 * /proc/locks cannot be opened (ENOENT, as without /proc), so a build
 * waiting for the lock cannot tell its holder from it; with HIDE_PROC
 * set, nothing under /proc can be opened, as without /proc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int flock(int fd, int operation)
{
	int (*real)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
	const char *slow = getenv("SLOW_LOCK_S");

	if (operation == LOCK_SH && slow)
		sleep((unsigned)atoi(slow));
	return real(fd, operation);
}

FILE *fopen(const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");

	if ((getenv("HIDE_PROC_LOCKS") && strcmp(path, "/proc/locks") == 0) ||
	    (getenv("HIDE_PROC") && strncmp(path, "/proc/", 6) == 0)) {
		errno = ENOENT;
		return NULL;
	}
	return real(path, mode);
}
