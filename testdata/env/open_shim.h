/*
 * open() and open64() for a preloaded stand-in: each passes the call, with
 * its mode when it creates, to open_as(name, path, flags, mode), which the
 * stand-in defines before it includes this.
 */
#ifndef ANIMC_TEST_OPEN_SHIM_H
#define ANIMC_TEST_OPEN_SHIM_H

#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

#define OPEN_SHIM_MODE(flags, mode)                              \
	do {                                                     \
		if ((flags) & (O_CREAT | O_TMPFILE)) {           \
			va_list ap;                              \
			va_start(ap, flags);                     \
			(mode) = va_arg(ap, mode_t);             \
			va_end(ap);                              \
		}                                                \
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_SHIM_MODE(flags, mode);
	return open_as("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_SHIM_MODE(flags, mode);
	return open_as("open64", path, flags, mode);
}

#ifdef OPEN_SHIM_AT
#include <stdio.h>
#include <unistd.h>

/* openat() and openat64() for a stand-in that defines OPEN_SHIM_AT and
 * open_at_as(name, dir_fd, path, full, flags, mode): `full` is `path`
 * joined to the folder open at dir_fd (as /proc/self/fd names it), for
 * the stand-in to match; the call it passes on stays an openat(). */
static void open_shim_full(int dir_fd, const char *path, char *full, size_t size)
{
	char link[64];
	ssize_t n;

	if (path[0] == '/' || dir_fd == AT_FDCWD) {
		snprintf(full, size, "%s", path);
		return;
	}
	snprintf(link, sizeof link, "/proc/self/fd/%d", dir_fd);
	n = readlink(link, full, size - 1);
	full[n > 0 ? n : 0] = '\0';
	snprintf(full + strlen(full), size - strlen(full), "/%s", path);
}

int openat(int dir_fd, const char *path, int flags, ...)
{
	char full[4096];
	mode_t mode = 0;

	OPEN_SHIM_MODE(flags, mode);
	open_shim_full(dir_fd, path, full, sizeof full);
	return open_at_as("openat", dir_fd, path, full, flags, mode);
}

int openat64(int dir_fd, const char *path, int flags, ...)
{
	char full[4096];
	mode_t mode = 0;

	OPEN_SHIM_MODE(flags, mode);
	open_shim_full(dir_fd, path, full, sizeof full);
	return open_at_as("openat64", dir_fd, path, full, flags, mode);
}
#endif

#endif
