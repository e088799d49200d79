/*
 * A stand-in for the tests, preloaded: tmpfile() fails, as it does when
 * /tmp is read-only or full (it takes no TMPDIR).
 */
#include <errno.h>
#include <stdio.h>

FILE *tmpfile(void)
{
	errno = EROFS;
	return NULL;
}

FILE *tmpfile64(void)
{
	errno = EROFS;
	return NULL;
}
