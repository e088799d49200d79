/*
 * md5anim.h - what the Assimp importer reads of a Doom 3 .md5anim's own
 * bytes before Assimp 5.2.5's reader does, where that reader reads past a
 * frame's values or goes on without a word.  Internal to formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_MD5ANIM_H
#define ANIMC_FORMATS_ASSIMP_MD5ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <assimp/scene.h>

#include <animc/animc.h>

/*
 * Check the .md5anim `data` before Assimp reads it: each joint's
 * components (startIndex and one value for each flag bit) lie within
 * numAnimatedComponents, and each frame holds that many values (Assimp
 * reads a joint's values with no check past its first, so a joint running
 * past them read whatever memory follows), and numFrames is the count of
 * the frames there (a warning when it is fewer), and every frame,
 * baseframe and bounds value is a number (Assimp fails on one that is not
 * with no line).  The first fault is an error
 * to `sink` at its line, and false.  A file this cannot follow is left to
 * Assimp (true).
 */
bool animc_md5anim_check(const uint8_t *data, size_t size, animc_diag_sink *sink);

/*
 * Check the .md5camera `data` before Assimp reads it: each cut (a frame
 * number, a line of the `cuts` block) lies after the one before it and
 * within the frames (the lines of the `camera` block).  Assimp 5.2.5 makes
 * a clip from each cut to the next and reads the frames between with no
 * check, past the last for a cut beyond it.  The first fault is an error
 * to `sink` at its line, and false.
 */
bool animc_md5camera_check(const uint8_t *data, size_t size, animc_diag_sink *sink);

/*
 * Assimp 5.2.5 keys each clip of an .md5camera (a shot, from one cut to
 * the next) at the file's frame numbers, so every shot after the first
 * held its first frame from 0 until its frame number came.  Each
 * animation of `scene` is shifted to start at its first key.
 */
void animc_md5camera_start_shots_at_zero(const struct aiScene *scene);

/*
 * Assimp 5.2.5 keys the last shot of an .md5camera to the frame before the
 * camera's last (it takes a shot's frames up to its end, but not the end,
 * and the last shot ends at the last frame): the camera stopped a frame
 * early.  The last frame of `data` is added to the last clip of `set`
 * (those from `first` on: the file's), one frame after its last key, when
 * that clip is Assimp's shot up to it.  A file this cannot follow is left
 * as it is.
 */
void animc_md5camera_end_at_last_frame(const uint8_t *data, size_t size, animc_clip_set *set, uint32_t first);

#endif
