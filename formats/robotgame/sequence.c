/*
 * sequence.c - a RobotGame KeyFrameSequence, as either dialect reads it,
 * made into a channel of the clip model (see sequence.h).
 */
#include <stdio.h>
#include <string.h>

#include "sequence.h"

const unsigned animc_rg_list_width[ANIMC_RG_LIST_COUNT] = { 3, 4, 3, 1 };

animc_rg_problem animc_rg_sequence_add(animc_clip *clip, const animc_rg_sequence *s,
				       char *message, size_t message_size)
{
	const char *bone = s->bone ? s->bone : "";
	size_t time_count = s->list_floats[ANIMC_RG_TIME];
	bool has_time = s->flags[ANIMC_RG_HAS_TIME];
	animc_channel *ch;
	int64_t index;

	if (s->key_count < 0) {
		snprintf(message, message_size, "bone '%s': KeyCount is negative (%d)", bone, s->key_count);
		return ANIMC_RG_NEGATIVE_KEY_COUNT;
	}
	if (has_time ? time_count != (size_t)s->key_count : time_count != 0) {
		if (has_time)
			snprintf(message, message_size, "bone '%s': <Time> has %zu value%s, KeyCount is %d",
				 bone, time_count, time_count == 1 ? "" : "s", s->key_count);
		else
			snprintf(message, message_size, "bone '%s': <Time> has %zu value%s but HasTime is false",
				 bone, time_count, time_count == 1 ? "" : "s");
		return ANIMC_RG_TIME_COUNT;
	}
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		if (s->list_floats[k] / animc_rg_list_width[k] > UINT32_MAX) {
			snprintf(message, message_size, "bone '%s': too many values", bone);
			return ANIMC_RG_LIMIT;
		}
	}
	snprintf(message, message_size, "out of memory");
	index = animc_clip_add_channel(clip, bone, strlen(bone));
	if (index < 0)
		return ANIMC_RG_NOMEM;
	ch = &clip->channels[index];
	ch->line = s->line;
	ch->key_count = (uint32_t)s->key_count;
	ch->duration_s = s->duration_s;
	ch->key_interval_s = s->key_interval_s;
	ch->has_time = has_time;
	if (has_time) {
		ch->times_s = animc_clip_alloc_floats(clip, time_count);
		if (!ch->times_s)
			return ANIMC_RG_NOMEM;
		/* No times (KeyCount 0) may come with no list at all: no copy from NULL. */
		if (time_count)
			memcpy(ch->times_s, s->lists[ANIMC_RG_TIME], time_count * sizeof(float));
	}
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		animc_track *t = &ch->tracks[k];
		size_t n = s->list_floats[k];

		t->is_present = s->flags[ANIMC_RG_HAS_TRANSLATION + k];
		t->is_fixed = s->flags[ANIMC_RG_FIXED_TRANSLATION + k];
		t->value_count = (uint32_t)(n / animc_rg_list_width[k]);
		if (n) {
			t->values = animc_clip_alloc_floats(clip, n);
			if (!t->values)
				return ANIMC_RG_NOMEM;
			memcpy(t->values, s->lists[k], n * sizeof(float));
		}
	}
	message[0] = '\0';
	return ANIMC_RG_OK;
}
