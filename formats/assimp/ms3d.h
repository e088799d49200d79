/*
 * ms3d.h - what the Assimp importer mends of a MilkShape 3D file from its
 * own bytes, where Assimp 5.2 reads it wrongly.  Internal to
 * formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_MS3D_H
#define ANIMC_FORMATS_ASSIMP_MS3D_H

#include <stddef.h>
#include <stdint.h>

#include <assimp/scene.h>

#include <animc/animc.h>

/*
 * Turn the position keys of `scene` (Assimp's reading of the .ms3d file
 * `data`) by their joint's rest rotation, as MilkShape plays them: a
 * joint's local transform is its rest transform times the key's, so a key
 * moves the joint along its own axes, rest + R_rest * key, where Assimp
 * gives rest + key.  Each key is computed from the file's own values.  A
 * file this does not read as Assimp read it is left as it is.
 */
void animc_ms3d_turn_position_keys(const uint8_t *data, size_t size, const struct aiScene *scene);

/*
 * MilkShape 3D keys its joints in seconds; Assimp's reader multiplies each
 * key time by the file's animation fps and gives that fps as the rate.  An
 * fps of 0 (or below 0, or not a number) puts every key at 0 (or before
 * it): no rate brings the motion back.  Such a scene whose joints hold
 * more than one key is an error to `sink` naming the fps, and false.
 */
bool animc_ms3d_check_fps(const struct aiScene *scene, animc_diag_sink *sink);

/*
 * A MilkShape 3D file holds one animation and no name for it; Assimp's
 * reader names it "<MS3DMasterAnim>", which made the output
 * `_MS3DMasterAnim_.xnb`.  The clip is made unnamed, as an SMD's is
 * (`clip0.xnb`, FORMAT.md section 5).
 */
void animc_ms3d_unname_clip(const struct aiScene *scene);

#endif
