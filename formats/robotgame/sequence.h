/*
 * sequence.h - one RobotGame KeyFrameSequence as a dialect states it, and the
 * one piece of code that makes it a channel.  The XmlSerializer importer
 * (robotgame_import.c) and the IntermediateSerializer one (../xna/) both use
 * it, so the two spellings of an AnimationSequence give the same clip and
 * the same bytes.
 */
#ifndef ANIMC_FORMATS_ROBOTGAME_SEQUENCE_H
#define ANIMC_FORMATS_ROBOTGAME_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>

/* The lists, in the order of the clip model's tracks, then Time. */
enum { ANIMC_RG_TRANSLATION, ANIMC_RG_ROTATION, ANIMC_RG_SCALE, ANIMC_RG_TIME, ANIMC_RG_LIST_COUNT };
/* The flags, in the order the original class declares them. */
enum {
	ANIMC_RG_HAS_TRANSLATION, ANIMC_RG_HAS_ROTATION, ANIMC_RG_HAS_SCALE, ANIMC_RG_HAS_TIME,
	ANIMC_RG_FIXED_TRANSLATION, ANIMC_RG_FIXED_ROTATION, ANIMC_RG_FIXED_SCALE, ANIMC_RG_FLAG_COUNT
};

/* Floats per item of each list: 3, 4, 3, 1. */
extern const unsigned animc_rg_list_width[ANIMC_RG_LIST_COUNT];

typedef struct animc_rg_sequence {
	const char *bone;          /* trimmed; NULL reads as "" */
	int32_t key_count;
	float duration_s, key_interval_s;
	bool flags[ANIMC_RG_FLAG_COUNT];
	const float *lists[ANIMC_RG_LIST_COUNT];   /* as read; copied */
	size_t list_floats[ANIMC_RG_LIST_COUNT];
	uint32_t line;             /* where the sequence starts */
} animc_rg_sequence;

/* What animc_rg_sequence_add found wrong, for the caller to place. */
typedef enum animc_rg_problem {
	ANIMC_RG_OK = 0,
	ANIMC_RG_NEGATIVE_KEY_COUNT,  /* at the KeyCount element */
	ANIMC_RG_TIME_COUNT,          /* at the Time list (the sequence when absent) */
	ANIMC_RG_NOMEM,
	ANIMC_RG_LIMIT
} animc_rg_problem;

/*
 * Append `s` to `clip` as a channel, values as written (exact mode
 * reproduces them; animc_clip_validate judges them).  The one check made
 * here is what the clip model cannot hold: a negative KeyCount, or a Time
 * list whose length is not KeyCount with HasTime (0 without).  On a problem
 * `message` (naming the bone) says what is wrong and the caller fails the
 * import (after ANIMC_RG_NOMEM the clip may hold a partial channel).
 */
animc_rg_problem animc_rg_sequence_add(animc_clip *clip, const animc_rg_sequence *s,
				       char *message, size_t message_size);

#endif
