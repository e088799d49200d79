/*
 * A stand-in for the tests, preloaded: fork() fails (EAGAIN), as when a
 * process limit (ulimit -u, a container's pids limit) is reached.
 */
#include <errno.h>
#include <sys/types.h>

pid_t fork(void)
{
	errno = EAGAIN;
	return -1;
}
