/*
 * beside.h - the rule every importer applies to a file that a source names
 * inside itself (a glTF buffer URI, the material library of an .obj, the
 * skeleton of an Ogre mesh): it is read only when it lies in the source's
 * own folder or below it, symbolic links resolved.  The one place that
 * rule is written; formats/ only.
 */
#ifndef ANIMC_FORMATS_BESIDE_H
#define ANIMC_FORMATS_BESIDE_H

#include <stdbool.h>

/* Where a named file lies against the source's folder. */
typedef enum animc_beside {
	ANIMC_BESIDE_INSIDE,  /* in the folder or below it */
	ANIMC_BESIDE_OUTSIDE, /* resolves outside the folder */
	ANIMC_BESIDE_MISSING, /* cannot be resolved (errno says why) */
	ANIMC_BESIDE_FOLDER,  /* resolves to the folder itself: no file beside the source */
} animc_beside;

/* The folder of `source`, a path as given (the source's own symbolic link,
 * if it is one, not followed): "." when it has no slash.  A new string, or
 * NULL when out of memory. */
char *animc_beside_folder(const char *source);

/*
 * Where `path` (as open() would take it) lies against `folder`, both
 * resolved as realpath() resolves them: a symbolic link that leads out of
 * the folder counts as outside.  `path` is resolved a name at a time, and
 * nothing past the point where it leaves the folder (and the folders above
 * it, on the way to it) is looked at: whether a file outside is there
 * tells nothing, and the answer for it is OUTSIDE either way.  *real gets
 * the resolved path (a new string, the caller frees it; for OUTSIDE, the
 * names past that point as written) when the answer is INSIDE, OUTSIDE or
 * FOLDER, else NULL.
 */
animc_beside animc_beside_check(const char *folder, const char *path, char **real);

/*
 * animc_beside_check, and for a file INSIDE its open for reading, in *fd,
 * with `flags` added to O_RDONLY (O_NONBLOCK not to wait for a FIFO's
 * writer, say): the file found there, whatever happens to the folders on
 * its way since.  The resolved path is opened following no symbolic link,
 * so a folder swapped for a link between the check and the open is not
 * followed: it is checked again, where it leads now (OUTSIDE, say).  For
 * INSIDE, *fd is -1 (errno says why) when the file cannot be opened; for
 * the other answers, always -1.
 */
animc_beside animc_beside_open(const char *folder, const char *path, int flags, char **real, int *fd);

/* Whether `path`, which is not there, would lie in `folder` or below it
 * once made: its own folder (or, while that is not there yet, the nearest
 * one above it that is, the names between plain names) resolves inside
 * (or to) `folder` and its name is a plain name.  A file a reader looked
 * for there and did not find is one a later build would read. */
bool animc_beside_would_be_inside(const char *folder, const char *path);

#endif
