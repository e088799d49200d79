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

/*
 * Turn the position keys of `scene` (Assimp's reading of the .ms3d file
 * `data`) by their joint's rest rotation, as MilkShape plays them: a
 * joint's local transform is its rest transform times the key's, so a key
 * moves the joint along its own axes, rest + R_rest * key, where Assimp
 * gives rest + key.  Each key is computed from the file's own values.  A
 * file this does not read as Assimp read it is left as it is.
 */
void animc_ms3d_turn_position_keys(const uint8_t *data, size_t size, const struct aiScene *scene);

#endif
