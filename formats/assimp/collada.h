/*
 * collada.h - what the Assimp importer mends or says of a COLLADA file's
 * animations from the file itself (read with libxml2), where Assimp 5.2.5
 * reads them wrongly or without a word.  Internal to formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_COLLADA_H
#define ANIMC_FORMATS_ASSIMP_COLLADA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <assimp/scene.h>

#include <animc/animc.h>

/* Past this, a slerp between keys is said to leave the file's <rotate>s. */
#define ANIMC_COLLADA_TOLERANCE_DEG 0.5

/* A COLLADA file's <library_animations>: its channels, their samplers'
 * key times and values, each at its line. */
typedef struct animc_collada animc_collada;

/* Read the animations of the COLLADA file `data`; NULL when libxml2
 * cannot read it (Assimp's reading is then used as it is) or on no
 * memory.  Release with animc_collada_close(). */
animc_collada *animc_collada_open(const uint8_t *data, size_t size);
void animc_collada_close(animc_collada *dae);   /* NULL is fine */

/* Say, as errors at their lines, every channel of a node whose key times
 * go backwards, or whose times or values are not finite (Assimp loses the
 * first, and spreads the second into every track of the bone), or else the
 * first <rotate> of a keyed node that turns about the axis 0 0 0 (Assimp
 * makes of it a scale by the cosine of its angle) or <matrix> that projects
 * (Assimp drops the projection), itself or at a key; true when there is
 * one, and the file is not to be imported. */
bool animc_collada_say_bad_keys(const animc_collada *dae, animc_diag_sink *sink);

/* Name the animations of `scene`, Assimp's reading of the file, as the
 * file does: Assimp prefixes each with the name of the file's first
 * <animation> ("Walk_Run" for <animation name="Run">). */
void animc_collada_name_clips(const animc_collada *dae, const struct aiScene *scene);

/* Make again from the file each bone of clips `first` on of `set` whose
 * node holds STEP keys, each value held up to the float before its next
 * key (a note; a stepped-keys warning, at the sampler's line, where that
 * cannot be exact); add rotation keys to each other bone whose <rotate>s
 * are keyed together, where a slerp between Assimp's keys would leave
 * the file's turn by more than ANIMC_COLLADA_TOLERANCE_DEG (a note); a
 * bone whose turn cannot be read exactly is a warning. */
void animc_collada_check_clips(const animc_collada *dae, animc_clip_set *set, uint32_t first,
			       animc_diag_sink *sink);

#endif
