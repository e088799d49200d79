/*
 * csm.c - a CharacterStudio motion capture (.csm) file's frame range and
 * frame count read from its own bytes, line by line, before Assimp reads
 * it (see csm.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csm.h"

/* What Assimp 5.2.5 takes of the file: its frame range as $FirstFrame and
 * $LastFrame say it (as they stand when $Points comes), and the frames of
 * its first $Points section. */
typedef struct csm_file {
	long long first, last;
	bool has_last;
	bool has_range;          /* $LastFrame given before $Points */
	uint32_t last_line;      /* $LastFrame's line */
	uint32_t points_line;    /* the first $Points's line; 0 for none */
	unsigned long long frames;
	long long first_frame;   /* the number of its first frame (frames > 0) */
} csm_file;

/* Whether the section line `p` (past its `$`, to `end`) is the section
 * `word` (any case) followed by a space or its end; *rest past it. */
static bool csm_section(const char *p, const char *end, const char *word, const char **rest)
{
	size_t n = strlen(word);

	if ((size_t)(end - p) < n || strncasecmp(p, word, n) != 0)
		return false;
	p += n;
	if (p < end && *p != ' ' && *p != '\t')
		return false;
	*rest = p;
	return true;
}

/* A whole number after spaces, as Assimp's strtol10 reads one (a sign,
 * digits; none: 0). */
static long long csm_number(const char *p, const char *end)
{
	long long value = 0;
	bool is_negative;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	is_negative = p < end && *p == '-';
	p += p < end && (*p == '-' || *p == '+');
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if (value < 1000000000000LL)
			value = value * 10 + (*p - '0');
	return is_negative ? -value : value;
}

/* One line, the `number`th, `p` to `end`: a section (a `$` first, which
 * ends a $Points section) up to the first $Points, or a frame of it (blank
 * lines are none). */
static void csm_take_line(csm_file *f, const char *p, const char *end, uint32_t number, bool *in_points)
{
	const char *rest;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end) {
		return;
	} else if (*p != '$') {
		/* A frame's number as Assimp's strtoul10 reads it (digits; none: 0). */
		if (*in_points && f->frames++ == 0)
			f->first_frame = *p >= '0' && *p <= '9' ? csm_number(p, end) : 0;
		return;
	}
	*in_points = false;
	if (f->points_line) {
		return;   /* the range the first $Points was read with is kept */
	} else if (csm_section(p + 1, end, "firstframe", &rest)) {
		f->first = csm_number(rest, end);
	} else if (csm_section(p + 1, end, "lastframe", &rest)) {
		f->last = csm_number(rest, end);
		f->has_last = true;
		f->last_line = number;
	} else if (csm_section(p + 1, end, "points", &rest)) {
		f->points_line = number;
		f->has_range = f->has_last;
		*in_points = true;
	}
}

/* Each line of the file, LF, CR LF or a lone CR ending one. */
static void csm_read(const uint8_t *data, size_t size, csm_file *f)
{
	const char *p = (const char *)data, *end = p + size;
	uint32_t number = 1;
	bool in_points = false;

	while (p < end) {
		const char *line = p;

		while (p < end && *p != '\n' && *p != '\r')
			p++;
		csm_take_line(f, line, p, number++, &in_points);
		if (p < end && *p == '\r' && ++p < end && *p == '\n')
			p++;
		else if (p < end && *p == '\n')
			p++;
	}
}

/* $Points of more frames than the `room` Assimp makes. */
static void say_no_room(const csm_file *f, unsigned long long room, animc_diag_sink *sink)
{
	if (!f->has_range)
		animc_diag_report(sink, ANIMC_ERROR, f->points_line, 0, "$Points of %llu frames without a $LastFrame "
				  "before it: Assimp would make no room for them and write them through a null pointer "
				  "(it crashes); give the frame range ($FirstFrame, $LastFrame) before $Points",
				  f->frames);
	else
		animc_diag_report(sink, ANIMC_ERROR, f->points_line, 0, "$Points holds %llu frames, more than the %llu "
				  "Assimp makes room for from $FirstFrame and $LastFrame (their difference and a "
				  "quarter more): it would write the rest past it (a range of fewer than 5 frames, "
				  "or frames outside the range, Assimp 5.2 cannot read)", f->frames, room);
}

bool animc_csm_check(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	csm_file f = { 0 };
	unsigned long long room = 0;

	if (!data)
		return true;
	csm_read(data, size, &f);
	if (!f.points_line || f.frames == 0)
		return true;   /* no keys: Assimp says so itself */
	if (f.has_range && f.last <= f.first) {
		animc_diag_report(sink, ANIMC_ERROR, f.last_line, 0, "$LastFrame %lld is not after $FirstFrame %lld: "
				  "Assimp would make no room for the frames and write them past it", f.last, f.first);
		return false;
	}
	if (f.has_range)
		room = (unsigned long long)(f.last - f.first) + ((unsigned long long)(f.last - f.first) >> 2);
	if (f.frames <= room)
		return true;
	say_no_room(&f, room, sink);
	return false;
}

void animc_csm_unname_clip(const struct aiScene *scene)
{
	static const char placeholder[] = "$CSM_MasterAnim";
	struct aiAnimation *anim = scene->mNumAnimations == 1 && scene->mAnimations ? scene->mAnimations[0] : NULL;

	if (anim && anim->mName.length == sizeof placeholder - 1 && strcmp(anim->mName.data, placeholder) == 0) {
		anim->mName.length = 0;
		anim->mName.data[0] = '\0';
	}
}

void animc_csm_start_at_first_frame(const struct aiScene *scene, const uint8_t *data, size_t size)
{
	struct aiAnimation *anim = scene && scene->mNumAnimations == 1 && scene->mAnimations ? scene->mAnimations[0] : NULL;
	double start = INFINITY;
	csm_file f = { 0 };

	if (data)
		csm_read(data, size, &f);
	if (f.frames)
		start = (double)f.first_frame;
	for (unsigned c = 0; anim && anim->mChannels && c < anim->mNumChannels; c++) {
		const struct aiNodeAnim *na = anim->mChannels[c];

		if (na && na->mPositionKeys && na->mNumPositionKeys)
			start = fmin(start, na->mPositionKeys[0].mTime);
	}
	if (!(start > 0) || !isfinite(start))
		return;
	for (unsigned c = 0; c < anim->mNumChannels; c++) {
		struct aiNodeAnim *na = anim->mChannels[c];

		for (unsigned k = 0; na && na->mPositionKeys && k < na->mNumPositionKeys; k++)
			na->mPositionKeys[k].mTime -= start;
	}
	anim->mDuration = fmax(0, anim->mDuration - start);
}
