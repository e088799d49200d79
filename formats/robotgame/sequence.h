/*
 * sequence.h - one RobotGame KeyFrameSequence read member by member, as
 * both XML dialects spell it, and the one piece of code that makes it a
 * channel.  The XmlSerializer importer (robotgame_import.c) and the
 * IntermediateSerializer one (../xna/) both drive it, so the two spellings
 * of an AnimationSequence parse their leaves alike, fail alike, and give the
 * same clip and the same bytes.  Lists and flags are those of the compiled
 * format (lib/common/xnb_layout.h).
 */
#ifndef ANIMC_FORMATS_ROBOTGAME_SEQUENCE_H
#define ANIMC_FORMATS_ROBOTGAME_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>
#include "xml/xml.h"
#include "xnb_layout.h"

/* The leaf members of a KeyFrameSequence: the bone name, three numbers, then
 * the flags in xnb_flag order.  (The lists are xnb_list_field[].) */
typedef enum animc_rg_member {
	ANIMC_RG_BONE_NAME = 0,
	ANIMC_RG_KEY_COUNT,
	ANIMC_RG_DURATION,
	ANIMC_RG_KEY_INTERVAL,
	ANIMC_RG_FLAG0,
	ANIMC_RG_MEMBER_COUNT = ANIMC_RG_FLAG0 + XNB_FLAG_COUNT
} animc_rg_member;

/* The member whose element name is `name`, or -1. */
int animc_rg_member_find(const char *name);

/* The list whose element name is `name` (xnb_list_field), or -1. */
int animc_rg_list_find(const char *name);

/* A growable float array. */
typedef struct animc_rg_floats {
	float *v;
	size_t count, capacity;
} animc_rg_floats;

/* Append n floats; false when out of memory. */
bool animc_rg_floats_push(animc_rg_floats *f, const float *v, size_t n);

/*
 * A sequence being read.  Zero-initialised, then animc_rg_sequence_begin at
 * each <KeyFrameSequence>; the list buffers are reused from one sequence to
 * the next and freed by animc_rg_sequence_release.
 */
typedef struct animc_rg_sequence {
	uint32_t line;                     /* where the sequence starts */
	char *bone;                        /* trimmed, malloc()ed; NULL reads as "" */
	int32_t key_count;
	float duration_s, key_interval_s;
	bool flags[XNB_FLAG_COUNT];
	uint32_t seen;                     /* bit per animc_rg_member */
	/* Where the numbers and the lists are written (line 0: not given), so
	 * that a value at fault is reported at its own element. */
	uint32_t key_count_line, key_count_column;
	uint32_t duration_line, duration_column;
	uint32_t key_interval_line, key_interval_column;
	uint32_t list_line[XNB_LIST_COUNT], list_column[XNB_LIST_COUNT];
	animc_rg_floats lists[XNB_LIST_COUNT];
	/* The first value of each list that is NaN or infinite: where it is
	 * written (line 0: none) and its index among the list's floats. */
	uint32_t odd_line[XNB_LIST_COUNT], odd_column[XNB_LIST_COUNT];
	size_t odd_index[XNB_LIST_COUNT];
	/* The first rotation key not of unit length: where it is written
	 * (line 0: none) and its key index. */
	uint32_t off_unit_line, off_unit_column;
	size_t off_unit_key;
} animc_rg_sequence;

void animc_rg_sequence_begin(animc_rg_sequence *s, uint32_t line);

/*
 * Float `index` of list `list` is v, written at `el`: the first that is
 * NaN or infinite is kept, so that animc_rg_sequence_end can name the
 * value's own line when its track is used.
 */
void animc_rg_sequence_note_value(animc_rg_sequence *s, int list, size_t index, float v,
				  const animc_xml_element *el);

/*
 * Rotation key `key` is q (x y z w), written at `el`: the first whose length
 * is off 1 by more than ANIMC_UNIT_QUAT_TOLERANCE (the clip's validation
 * rule) is kept, as animc_rg_sequence_note_value keeps a NaN.  A key with a
 * NaN or infinite component is left to that.
 */
void animc_rg_sequence_note_rotation(animc_rg_sequence *s, size_t key, const float q[4],
				     const animc_xml_element *el);
void animc_rg_sequence_release(animc_rg_sequence *s);

/*
 * The text of member `m` at element `el` (text NULL or len 0 for a nil bone
 * name): parsed as the member's type (string, xs:int, xs:float,
 * xs:boolean) and kept.  A second occurrence, or text that does not parse,
 * is reported at `el` (ANIMC_ERR_PARSE); a bone name that is empty once
 * trimmed, or nil, too (ANIMC_ERR_INVALID).
 */
animc_status animc_rg_sequence_member(animc_rg_sequence *s, animc_rg_member m,
				      const animc_xml_element *el, const char *text, size_t len,
				      animc_diag_sink *sink);

/*
 * The clip's own <Duration> (the AnimationSequence's, at `el`): an xs:float
 * (else ANIMC_ERR_PARSE) that is finite and not negative (else
 * ANIMC_ERR_INVALID, saying which Duration it is), reported at `el`.
 */
animc_status animc_rg_clip_duration(const animc_xml_element *el, const char *text, size_t len, float *out,
				    animc_diag_sink *sink);

/*
 * The end of the sequence (`el` is its element): BoneName, KeyCount,
 * Duration and KeyInterval must have been given; then the sequence becomes a
 * channel of `clip`, values as written (exact mode reproduces them).  What
 * the clip model cannot hold, a negative KeyCount or a Time list whose length
 * is not KeyCount with HasTime (0 without), is an error at the member at
 * fault; so, by animc_clip_validate's own rules, which would name only the
 * sequence, are a Duration or KeyInterval that is negative or not finite, a
 * list of the wrong length for its flags and KeyCount, and the values
 * animc_rg_sequence_note_value and _note_rotation kept.
 */
animc_status animc_rg_sequence_end(animc_rg_sequence *s, animc_clip *clip,
				   const animc_xml_element *el, animc_diag_sink *sink);

#endif
