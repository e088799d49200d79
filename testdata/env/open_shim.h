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

#endif
