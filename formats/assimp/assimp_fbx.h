/*
 * assimp_fbx.h - what the Assimp importer mends or says of an FBX file
 * from the file's own bytes (fbx_doc.h), where Assimp 5.2.5 reads it
 * wrongly or leaves it out.  Internal to formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_FBX_H
#define ANIMC_FORMATS_ASSIMP_FBX_H

#include <assimp/scene.h>

#include <animc/animc.h>

#include "fbx_doc.h"

/* A scale component below this is taken for 0. */
#define ANIMC_FBX_ZERO_SCALE 1e-6f

/* Give each key of channel `ch` of `clip` whose scale is 0 on an axis the
 * rotation of its nearest key of another scale, with a `zero-scale-key`
 * warning: Assimp reads such a key's rotation back from a matrix that
 * holds none (FBX and COLLADA keys alike).  Its rotation and scale tracks
 * must have their own times, one rotation key a scale key. */
void animc_assimp_mend_zero_scale(animc_clip *clip, uint32_t ch, animc_diag_sink *sink);

/* Mend channel `ch` of `clip` (tracks imported from Assimp) for a
 * PostRotation, which Assimp applies without inverting it. */
void animc_fbx_mend_channel(const fbx_doc *doc, animc_clip *clip, uint32_t ch);

/* Mend or say what Assimp got wrong of the take `clip` was made of: keys
 * outside its range, Euler curves it keeps at keys only, the rotation of
 * a key of scale 0 or below (a bone rebuilt from its curves where they are
 * read exactly; else a key of scale 0 takes its neighbour's rotation),
 * layers it does not blend, an inherit type it ignores.  `seconds_per_kt`:
 * the clip's seconds a KTime unit (0: no bone is rebuilt). */
void animc_fbx_check_clip(const fbx_doc *doc, animc_clip *clip, double seconds_per_kt, animc_diag_sink *sink);

/* Report the first key of the take of `clip` whose value is NaN or
 * infinite (Assimp spreads it into every track of its bone, at other
 * keys); true when there is one, and the clip is not to be written. */
bool animc_fbx_say_bad_keys(const fbx_doc *doc, const animc_clip *clip, animc_diag_sink *sink);

/* Report the first curve of the file whose key array is damaged (its
 * data holds, or inflates to, other than the values it declares: Assimp
 * reads zeros for the values missing, or leaves the curve out); true when
 * there is one, and the file is not to be imported. */
bool animc_fbx_say_damage(const fbx_doc *doc, animc_diag_sink *sink);

/* Report the first Lcl Rotation curve that turns through more than 2^20
 * half turns, which Assimp keys every half turn (1e30 degrees ran it out
 * of memory); true when there is one, and the file is not to be imported. */
bool animc_fbx_say_endless_turns(const fbx_doc *doc, animc_diag_sink *sink);

/* Say each take of the file that keys no bone, which Assimp leaves out
 * (no clip of its name among clips `first` on of `set`). */
void animc_fbx_check_takes(const fbx_doc *doc, const animc_clip_set *set, uint32_t first, animc_diag_sink *sink);

/* Mend the rest pose of every node of `scene` whose model has a
 * PostRotation, as animc_fbx_mend_channel mends its keys. */
void animc_fbx_mend_rest(const fbx_doc *doc, const struct aiScene *scene);

#endif
