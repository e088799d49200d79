/*
 * beside.c - the confinement of files named inside a source to the
 * source's own folder tree (see beside.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "beside.h"

char *animc_beside_folder(const char *source)
{
	const char *slash = strrchr(source, '/');

	if (!slash)
		return strdup(".");
	return strndup(source, (size_t)(slash - source) + (slash == source));
}

animc_beside animc_beside_check(const char *folder, const char *path, char **real)
{
	char *real_folder = realpath(folder, NULL);
	size_t n;
	int err;

	*real = real_folder ? realpath(path, NULL) : NULL;
	if (!*real) {
		err = errno;
		free(real_folder);
		errno = err;
		return ANIMC_BESIDE_MISSING;
	}
	n = strlen(real_folder);
	/* The folder itself is not a file beside the source, nor is it
	 * outside: said as what it is. */
	if (strcmp(*real, real_folder) == 0) {
		free(real_folder);
		return ANIMC_BESIDE_FOLDER;
	}
	/* A path inside it has one more component. */
	if (strncmp(*real, real_folder, n) != 0 ||
	    ((*real)[n] != '/' && !(n == 1 && real_folder[0] == '/'))) {
		free(real_folder);
		return ANIMC_BESIDE_OUTSIDE;
	}
	free(real_folder);
	return ANIMC_BESIDE_INSIDE;
}

/* Open `real`, an absolute path with no symbolic link in it (as realpath()
 * gives it), for reading with `flags` added, following no link: one put in
 * place of a folder on its way since fails the open (ELOOP or ENOTDIR)
 * rather than lead elsewhere. */
static int open_resolved(const char *real, int flags)
{
	char *names = strdup(real), *name = names ? names + 1 : NULL, *slash;
	int dir = names && real[0] == '/' ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC) : -1, fd = -1, error;

	while (dir >= 0 && (slash = strchr(name, '/'))) {
		int next;

		*slash = '\0';
		next = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		error = errno;
		close(dir);
		errno = error;
		dir = next;
		name = slash + 1;
	}
	if (dir >= 0) {
		fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | flags);
		error = errno;
		close(dir);
		errno = error;
	}
	if (!names)
		errno = ENOMEM;
	free(names);
	return fd;
}

animc_beside animc_beside_open(const char *folder, const char *path, int flags, char **real, int *fd)
{
	animc_beside where;

	/* Checked again when a folder on the way became a link since; a
	 * few times at most, against one swapping it back and forth. */
	for (int tries = 0;; tries++) {
		*fd = -1;
		where = animc_beside_check(folder, path, real);
		if (where != ANIMC_BESIDE_INSIDE)
			return where;
		*fd = open_resolved(*real, flags);
		if (*fd >= 0 || (errno != ELOOP && errno != ENOTDIR) || tries == 3)
			return where;
		free(*real);
	}
}

/* Is the last component of `path` a plain name (not "", "." or "..")? */
static bool ends_in_a_name(const char *path)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;

	return name[0] && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* The realpath() of folder `dir`, or of the nearest folder above it that
 * is there when the folders below that one are not yet, each by a plain
 * name (src/sub of an SMD list's sub/run.smd before sub is made); NULL
 * when a name not there is "." or "..", which would not lead below it. */
static char *real_or_nearest_made(const char *dir)
{
	char *at = strdup(dir), *real = NULL;

	while (at && !(real = realpath(at, NULL)) && (errno == ENOENT || errno == ENOTDIR) && ends_in_a_name(at)) {
		char *up = animc_beside_folder(at);

		free(at);
		at = up;
	}
	free(at);
	return real;
}

bool animc_beside_would_be_inside(const char *folder, const char *path)
{
	char *parent, *real, *real_folder;
	bool is_inside;

	if (!ends_in_a_name(path))
		return false;
	parent = animc_beside_folder(path);
	real = parent ? real_or_nearest_made(parent) : NULL;
	real_folder = real ? realpath(folder, NULL) : NULL;
	size_t n = real_folder ? strlen(real_folder) : 0;
	is_inside = real_folder && strncmp(real, real_folder, n) == 0 &&
		    (real[n] == '/' || real[n] == '\0' || (n == 1 && real_folder[0] == '/'));
	free(parent), free(real), free(real_folder);
	return is_inside;
}
