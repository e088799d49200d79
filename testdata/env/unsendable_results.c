/*
 * A stand-in for the tests, preloaded: gathering writes to a pipe fail
 * (EIO), as a build's workers send their results to it, and so do plain
 * writes to a pipe other than stdout and stderr, as the child of a --skeleton
 * model's trial load or of animc plot's import sends its result.  With
 * UNSENDABLE_EXITS set, such a plain write ends the process instead (exit
 * status 1, no error left), as a child that ends without its result.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static int is_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

ssize_t writev(int fd, const struct iovec *iov, int count)
{
	ssize_t (*real)(int, const struct iovec *, int) =
		(ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "writev");

	if (is_pipe(fd)) {
		errno = EIO;
		return -1;
	}
	return real(fd, iov, count);
}

ssize_t write(int fd, const void *buf, size_t size)
{
	ssize_t (*real)(int, const void *, size_t) = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");

	if (fd > STDERR_FILENO && is_pipe(fd) && getenv("UNSENDABLE_EXITS"))
		_exit(1);
	if (fd > STDERR_FILENO && is_pipe(fd)) {
		errno = EIO;
		return -1;
	}
	return real(fd, buf, size);
}
