/*
 * A stand-in for the tests, preloaded: flock() fails with ENOLCK, as on a
 * file system that cannot lock files (an NFS mount whose lock daemon is not
 * reachable).
 */
#include <errno.h>

int flock(int fd, int operation)
{
	(void)fd, (void)operation;
	errno = ENOLCK;
	return -1;
}
