/*
 * skeleton.c - the skeleton model: lookup by name and the check that every
 * bone a clip animates exists (the original runtime threw at play time for
 * an unknown bone; animc refuses at build time).  Loading a model into a
 * skeleton is an importer's work (formats/).
 */
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"

void animc_skeleton_release(animc_skeleton *skeleton)
{
	if (!skeleton)
		return;
	free(skeleton->bones);
	animc_arena_release(&skeleton->arena);
	skeleton->bones = NULL;
	skeleton->bone_count = 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Equal once surrounding whitespace is left out of both. */
static bool same_trimmed(const char *a, const char *b)
{
	size_t na, nb;

	while (is_space(*a))
		a++;
	while (is_space(*b))
		b++;
	na = strlen(a);
	nb = strlen(b);
	while (na && is_space(a[na - 1]))
		na--;
	while (nb && is_space(b[nb - 1]))
		nb--;
	return na == nb && memcmp(a, b, na) == 0;
}

int64_t animc_skeleton_find(const animc_skeleton *skeleton, const char *name)
{
	for (uint32_t i = 0; i < skeleton->bone_count; i++)
		if (strcmp(skeleton->bones[i].name, name) == 0)
			return i;
	/* Importers trim bone names (the original pipeline's output has
	 * "Footsteps" where the source and the model say " Footsteps"). */
	for (uint32_t i = 0; i < skeleton->bone_count; i++)
		if (same_trimmed(skeleton->bones[i].name, name))
			return i;
	return -1;
}

animc_status animc_skeleton_check(const animc_skeleton *skeleton, const animc_clip *clip,
				  animc_diag_sink *sink)
{
	animc_status status = ANIMC_OK;

	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];
		char where[512];

		if (animc_skeleton_find(skeleton, ch->bone) >= 0)
			continue;
		animc_clip_where(clip, NULL, where, sizeof where);
		animc_diag_report(sink, ANIMC_ERROR, ch->line, 0,
				  "%sbone '%s' is not in the skeleton (%u bones)", where, ch->bone,
				  skeleton->bone_count);
		status = ANIMC_ERR_NOT_FOUND;
	}
	return status;
}
