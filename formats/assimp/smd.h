/*
 * smd.h - what the Assimp importer reads of a Valve SMD's own bytes, where
 * Assimp 5.2.5's reader loses keys without a line the user can find.
 * Internal to formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_SMD_H
#define ANIMC_FORMATS_ASSIMP_SMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <assimp/scene.h>

#include <animc/animc.h>

/* Valve's SMD (GoldSrc and Source) is Z up, X forward; Assimp keeps an
 * SMD scene as it is (its root node turns nothing). */
#define ANIMC_SMD_UP ANIMC_UP_Z

/* Whether `path` names an SMD (.smd, any case): a model read for its
 * node tree, whose world is then Z up. */
bool animc_smd_is_named(const char *path);

/*
 * Check the `nodes` and `skeleton` sections of the SMD `data` before
 * Assimp reads them: a line Assimp's reader stops at (a node line without
 * its parent, a skeleton line of fewer than its 7 values, a bone index the
 * nodes section does not hold) loses that key, and Assimp names a line of
 * its own count, not the file's; a value that is not a number it fails on
 * with no line, quoting the rest of the file; and it starts the clip at
 * the smallest frame, so a `time` below 0 would move every frame late.  The first such line is an error to
 * `sink` at its line (LF, CR LF or a lone CR end one), and false.
 */
bool animc_smd_check(const uint8_t *data, size_t size, animc_diag_sink *sink);

/* An SMD holds no frame rate (Valve's studiomdl takes it from the .qc's
 * fps, 30 when it gives none); Assimp's reader says 25 all the same.  Make
 * each animation's rate 0, undeclared, so that the importer says the rate
 * it assumes. */
void animc_smd_forget_rates(const struct aiScene *scene);

#endif
