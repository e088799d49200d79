/*
 * ms3d_fps.h - the animation fps of a MilkShape 3D file as Assimp reads
 * it, which its key times depend on.  Internal to formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_MS3D_FPS_H
#define ANIMC_FORMATS_ASSIMP_MS3D_FPS_H

#include <stdbool.h>

#include <assimp/scene.h>

#include <animc/animc.h>

/*
 * MilkShape 3D keys its joints in seconds; Assimp's reader multiplies each
 * key time by the file's animation fps and gives that fps as the rate.  An
 * fps of 0 (or below 0, or not a number) puts every key at 0 (or before
 * it): no rate brings the motion back.  Such a scene whose joints hold
 * more than one key is an error to `sink` naming the fps, and false.
 */
bool animc_ms3d_check_fps(const struct aiScene *scene, animc_diag_sink *sink);

#endif
