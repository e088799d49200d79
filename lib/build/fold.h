/*
 * fold.h - file names compared as file systems that ignore case compare
 * them (NTFS on Windows, APFS and HFS+ on macOS): Walk.xnb and walk.xnb,
 * Éclair.xnb and éclair.xnb are one file there (fold.c).
 */
#ifndef ANIMC_BUILD_FOLD_H
#define ANIMC_BUILD_FOLD_H

/*
 * Letters are folded by Unicode's simple case folding (one letter to one:
 * Latin, Greek, Cyrillic, Armenian, ... and the fullwidth forms; ß stays
 * ß), decoding the name as UTF-8.  A byte that is no part of a UTF-8
 * letter is compared as itself.  Two spellings of one accented letter
 * (é, and e with a combining acute accent), which macOS also takes as one
 * name, are not made one.
 */

/* <0, 0 or >0 as a sorts before, with or after b, their letters folded;
 * 0 when the two are one name where case is ignored. */
int build_fold_compare(const char *a, const char *b);
/* `name` with its letters folded (malloc()ed), or NULL when out of memory:
 * names alike but for case give one string. */
char *build_fold_name(const char *name);

#endif
