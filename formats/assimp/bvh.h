/*
 * bvh.h - what the Assimp importer reads of a BVH file from its own bytes,
 * where Assimp 5.2's reader loses or hides it.  Internal to
 * formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_BVH_H
#define ANIMC_FORMATS_ASSIMP_BVH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <assimp/scene.h>

#include <animc/animc.h>

/* Whether every number Assimp reads of the BVH file `data` is one: a word
 * (which Assimp says without a line) is an error at its line to `sink`,
 * naming the value, and so is NaN or an infinity in an OFFSET, a CHANNELS
 * count or a motion value (one Assimp reads: Frames: of them).  What
 * Assimp cannot read otherwise is left for it to say. */
bool animc_bvh_check(const uint8_t *data, size_t size, animc_diag_sink *sink);

/* The line of the BVH file `data` an Assimp error's "NAME:N - " names:
 * Assimp counts LF only, so in a file of lone-CR line ends every error
 * was on line 1.  The line of the token its reader stops at, read as it
 * reads the file, when that is on its line N; else the file's line of
 * its line N when that spans one line; else 0. */
uint32_t animc_bvh_line(const uint8_t *data, size_t size, uint32_t assimp_line);

/* The BVH file's mended channels; NULL when nothing is mended. */
typedef struct animc_bvh animc_bvh;

/*
 * Give the channels of `scene` (Assimp's reading of the BVH file `data`)
 * the position keys Assimp leaves out: those of a joint with position
 * channels but not 6 channels, one key a frame.  *out gets what to hand to
 * animc_bvh_close() once the scene is imported, and is NULL when nothing
 * was mended (or the file is not read as Assimp read it).
 * ANIMC_ERR_NOMEM when the keys find no memory.
 */
animc_status animc_bvh_open(const uint8_t *data, size_t size, const struct aiScene *scene, animc_bvh **out);
/* Give the scene back Assimp's own keys and free the mended ones.  NULL
 * is fine. */
void animc_bvh_close(animc_bvh *bvh);

#endif
