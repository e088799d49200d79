/*
 * b3d.h - what the Assimp importer reads of a Blitz3D (.b3d) file's own
 * bytes before Assimp 5.2's reader does, where that reader loses keys
 * without a word.  Internal to formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_B3D_H
#define ANIMC_FORMATS_ASSIMP_B3D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>

/*
 * Check the .b3d `data` before Assimp reads it: no NODE holds keys of one
 * type (position, scale, rotation) in two KEYS chunks.  The format lets a
 * node's keys come in several chunks, and readers such as Irrlicht's add
 * them up; Assimp 5.2 sets the node's keys of a type to each chunk's own,
 * so a later chunk threw the earlier one's keys away, and the bone held
 * the last chunk's pose.  The first such node is an error to `sink`
 * naming it, the type and the two chunks' byte offsets, and false.  Bytes
 * that are no chunks as Assimp reads them are left to Assimp.
 */
bool animc_b3d_check(const uint8_t *data, size_t size, animc_diag_sink *sink);

#endif
