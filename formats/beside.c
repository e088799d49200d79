/*
 * beside.c - the confinement of files named inside a source to the
 * source's own folder tree (see beside.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
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

/* Whether the resolved path `p` is `root` or lies below it (*is_above:
 * or is a folder above it, on the way to it). */
static bool is_on_the_way(const char *p, const char *root, bool *is_above)
{
	size_t n = strlen(root), m = strlen(p);

	*is_above = m < n && strncmp(root, p, m) == 0 && (root[m] == '/' || m == 1);
	return *is_above ||
	       (strncmp(p, root, n) == 0 && (p[n] == '/' || p[n] == '\0' || (n == 1 && root[0] == '/')));
}

/* A resolution under way: `at`, resolved (absolute, no link in it), and
 * the names still to take, `todo` (a link's target goes in front). */
typedef struct resolving {
	char at[2 * PATH_MAX], todo[2 * PATH_MAX], next[4 * PATH_MAX], rest[2 * PATH_MAX];
	unsigned links;
} resolving;

/* `a`/`b`, a new string (NULL when out of memory). */
static char *join(const char *a, const char *b)
{
	char *joined;

	return asprintf(&joined, "%s/%s", a, b) < 0 ? NULL : joined;
}

/* `at` up one folder ("/" stays). */
static void go_up(char *at)
{
	char *slash = strrchr(at, '/');

	if (slash)
		slash[slash == at] = '\0';
}

/* Take the first name of r->todo (of `len` bytes at its start) into r->at
 * (`next`, the two joined): a link's target is put in front of what is
 * left.  False, errno set, when `next` cannot be resolved; and when it is
 * `outside` and no link, whether it is there or not. */
static bool take_name(resolving *r, const char *next, size_t len, bool outside)
{
	char target[PATH_MAX];
	ssize_t n = readlink(next, target, sizeof target - 1);

	if (n < 0 && (outside || errno != EINVAL))
		return false;
	if (n < 0) {
		memmove(r->todo, r->todo + len, strlen(r->todo + len) + 1);
		snprintf(r->at, sizeof r->at, "%s", next);
		return true;
	}
	if (++r->links > 40) {
		errno = ELOOP;
		return false;
	}
	target[n] = '\0';
	snprintf(r->rest, sizeof r->rest, "%s", r->todo + len);
	if (snprintf(r->todo, sizeof r->todo, "%s%s", target, r->rest) >= (int)sizeof r->todo) {
		errno = ENAMETOOLONG;
		return false;
	}
	if (target[0] == '/')
		strcpy(r->at, "/");
	return true;
}

/*
 * Resolve r->todo from r->at, a name at a time, as realpath() does, but
 * stopping where the path leaves `root` (neither in it nor a folder above
 * it, on the way to it): nothing past that point is looked at, so that
 * the answer for a file outside does not depend on whether it is there.
 * realpath() looked it up first, and a file outside that is not there was
 * said as "cannot open: No such file", one there as outside.  The name
 * where it leaves is followed only when it is a symbolic link (a link to
 * the folder, through which a link inside may lead back into it): it is
 * outside, there or not, otherwise.
 */
static animc_beside resolve_within(resolving *r, const char *root, char **real)
{
	char *next = r->next;
	bool is_above;

	*real = NULL;
	for (;;) {
		char *name = r->todo + strspn(r->todo, "/");
		size_t len = strcspn(name, "/");

		memmove(r->todo, name, strlen(name) + 1);
		if (!len)
			break;
		if (len == 1 && r->todo[0] == '.') {
			memmove(r->todo, r->todo + 1, strlen(r->todo + 1) + 1);
			continue;
		}
		if (len == 2 && r->todo[0] == '.' && r->todo[1] == '.') {
			go_up(r->at);
			memmove(r->todo, r->todo + 2, strlen(r->todo + 2) + 1);
			continue;
		}
		snprintf(next, sizeof r->next, "%s%s%.*s", r->at, strcmp(r->at, "/") ? "/" : "", (int)len, r->todo);
		bool outside = !is_on_the_way(next, root, &is_above);

		if (take_name(r, next, len, outside))
			continue;
		if (!outside)
			return ANIMC_BESIDE_MISSING;
		*real = r->todo[len] ? join(next, r->todo + len + 1) : strdup(next);
		return ANIMC_BESIDE_OUTSIDE;
	}
	if (!is_on_the_way(r->at, root, &is_above) || is_above) {
		*real = strdup(r->at);
		return ANIMC_BESIDE_OUTSIDE;
	}
	*real = strdup(r->at);
	return strcmp(r->at, root) == 0 ? ANIMC_BESIDE_FOLDER : ANIMC_BESIDE_INSIDE;
}

/* Where resolving `path` starts: past `folder` as given when it names a
 * file from there (its folders the user's), else from "/" or the working
 * folder.  False when that cannot be told (errno). */
static bool start_at(resolving *r, const char *folder, const char *real_folder, const char *path)
{
	size_t n = strlen(folder);

	r->links = 0;
	if (strncmp(path, folder, n) == 0 && n && (path[n] == '/' || path[n] == '\0' || folder[n - 1] == '/')) {
		snprintf(r->at, sizeof r->at, "%s", real_folder);
		path += n;
	} else if (strcmp(folder, ".") == 0 && path[0] != '/') {
		snprintf(r->at, sizeof r->at, "%s", real_folder);
	} else if (path[0] == '/') {
		strcpy(r->at, "/");
	} else if (!getcwd(r->at, sizeof r->at)) {
		return false;
	}
	if (snprintf(r->todo, sizeof r->todo, "%s", path) >= (int)sizeof r->todo) {
		errno = ENAMETOOLONG;
		return false;
	}
	return true;
}

animc_beside animc_beside_check(const char *folder, const char *path, char **real)
{
	char *real_folder = realpath(folder, NULL);
	resolving *r = real_folder ? malloc(sizeof *r) : NULL;
	animc_beside where = ANIMC_BESIDE_MISSING;
	int err;

	*real = NULL;
	if (real_folder && !r)
		errno = ENOMEM;
	if (r && start_at(r, folder, real_folder, path))
		where = resolve_within(r, real_folder, real);
	err = errno;
	free(r);
	free(real_folder);
	errno = err;
	return where;
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

bool animc_beside_would_be_inside(const char *folder, const char *path)
{
	char *at, *real = NULL;
	animc_beside where = ANIMC_BESIDE_MISSING;

	if (!ends_in_a_name(path))
		return false;
	/* Its folder, or while that is not there yet, the nearest one above
	 * it that is, each by a plain name (src/sub of an SMD list's
	 * sub/run.smd before sub is made): resolved as animc_beside_check
	 * resolves, looking at nothing past where it leaves `folder`. */
	at = animc_beside_folder(path);
	while (at && (where = animc_beside_check(folder, at, &real)) == ANIMC_BESIDE_MISSING &&
	       (errno == ENOENT || errno == ENOTDIR) && ends_in_a_name(at)) {
		char *up = animc_beside_folder(at);

		free(at);
		at = up;
	}
	free(at), free(real);
	return where == ANIMC_BESIDE_INSIDE || where == ANIMC_BESIDE_FOLDER;
}
