/*
 * A stand-in for the tests, preloaded: gathering writes to a pipe fail
 * (EIO), as a build's workers send their results to it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/uio.h>

ssize_t writev(int fd, const struct iovec *iov, int count)
{
	ssize_t (*real)(int, const struct iovec *, int) =
		(ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "writev");
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		errno = EIO;
		return -1;
	}
	return real(fd, iov, count);
}
