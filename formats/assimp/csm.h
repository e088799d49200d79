/*
 * csm.h - what the Assimp importer reads of a CharacterStudio motion
 * capture (.csm) file's own bytes before Assimp 5.2.5's reader does, where
 * that reader writes its keys past the room it made for them.  Internal to
 * formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_CSM_H
#define ANIMC_FORMATS_ASSIMP_CSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <assimp/scene.h>

#include <animc/animc.h>

/*
 * Check the .csm `data` before Assimp reads it: its $Points frames fit
 * the room Assimp makes for each marker's keys, $LastFrame - $FirstFrame
 * and a quarter more, from a $LastFrame given before $Points.  Assimp
 * 5.2.5 makes that room and, for any frame past it, writes the key beyond
 * the array it grows (past an empty one for $LastFrame not after
 * $FirstFrame, through a null pointer without $LastFrame): keys read back
 * from other memory, or a crash.  The first fault is an error to `sink` at
 * its line, and false.
 */
bool animc_csm_check(const uint8_t *data, size_t size, animc_diag_sink *sink);

/*
 * A .csm file holds one take and no name for it; Assimp's reader names it
 * "$CSM_MasterAnim", which made the output `$CSM_MasterAnim.xnb`, a `$` in
 * a name a game loads it by and a shell or a makefile expands.  The clip
 * is made unnamed, as a MilkShape 3D file's and an SMD's are
 * (`clip0.xnb`).
 */
void animc_csm_unname_clip(const struct aiScene *scene);

/*
 * A .csm numbers its frames from $FirstFrame (Character Studio plays the
 * take from there; Assimp's own ThomasFechten.csm starts at 1), and
 * Assimp 5.2.5 keys each at its number: the clip held its first frame
 * from 0 until then, and lasted as much longer.  The take's position keys
 * (a .csm holds no others; Assimp gives each marker one rotation and one
 * scale at 0) are shifted to start at its first frame (that of the first
 * line of its $Points in the file's `data`, which may give no marker a
 * key: each a DROPOUT; or the earliest key, if earlier or without
 * `data`), its duration with them.
 */
void animc_csm_start_at_first_frame(const struct aiScene *scene, const uint8_t *data, size_t size);

#endif
