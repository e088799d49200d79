/*
 * ms3d_fps.c - a MilkShape 3D file's animation fps, by which Assimp
 * multiplies its key times (seconds in the file).
 */
#include <math.h>

#include "ms3d_fps.h"

/* Whether a channel holds keys at more than one time in the file. */
static bool moves(const struct aiNodeAnim *na)
{
	return na && ((na->mPositionKeys && na->mNumPositionKeys > 1) ||
		      (na->mRotationKeys && na->mNumRotationKeys > 1));
}

bool animc_ms3d_check_fps(const struct aiScene *scene, animc_diag_sink *sink)
{
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];
		double fps = anim ? anim->mTicksPerSecond : 1;
		bool is_moving = false;

		if (isfinite(fps) && fps > 0)
			continue;
		for (unsigned c = 0; anim->mChannels && c < anim->mNumChannels && !is_moving; c++)
			is_moving = moves(anim->mChannels[c]);
		if (!is_moving)
			continue;
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file's animation fps is %g: MilkShape 3D keys "
				  "are in seconds, which Assimp multiplies by the fps, so every key lands at %s and "
				  "no --ticks-per-second brings the motion back; set the fps in MilkShape 3D (the "
				  "animation's fps box) and save the file again", fps,
				  fps == 0 ? "0" : isnan(fps) ? "NaN" : "a time before 0");
		return false;
	}
	return true;
}
