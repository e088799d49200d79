/*
 * sequence.c - a RobotGame KeyFrameSequence, as either XML dialect spells
 * it, read member by member and made into a channel of the clip model (see
 * sequence.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sequence.h"

static const char *const member_names[ANIMC_RG_FLAG0] = {
	"BoneName", "KeyCount", "Duration", "KeyInterval",
};

int animc_rg_member_find(const char *name)
{
	for (int m = 0; m < ANIMC_RG_FLAG0; m++)
		if (strcmp(name, member_names[m]) == 0)
			return m;
	for (int f = 0; f < XNB_FLAG_COUNT; f++)
		if (strcmp(name, xnb_flag_field[f]) == 0)
			return ANIMC_RG_FLAG0 + f;
	return -1;
}

int animc_rg_list_find(const char *name)
{
	for (int l = 0; l < XNB_LIST_COUNT; l++)
		if (strcmp(name, xnb_list_field[l]) == 0)
			return l;
	return -1;
}

bool animc_rg_floats_push(animc_rg_floats *f, const float *v, size_t n)
{
	if (n > f->capacity - f->count) {
		size_t capacity = f->capacity ? f->capacity : 256;
		float *grown;

		while (capacity - f->count < n) {
			if (capacity > SIZE_MAX / 2 / sizeof *grown)
				return false;
			capacity *= 2;
		}
		grown = realloc(f->v, capacity * sizeof *grown);
		if (!grown)
			return false;
		f->v = grown;
		f->capacity = capacity;
	}
	memcpy(f->v + f->count, v, n * sizeof *v);
	f->count += n;
	return true;
}

void animc_rg_sequence_begin(animc_rg_sequence *s, uint32_t line)
{
	animc_rg_floats lists[XNB_LIST_COUNT];

	memcpy(lists, s->lists, sizeof lists);
	free(s->bone);
	memset(s, 0, sizeof *s);
	s->line = line;
	for (int l = 0; l < XNB_LIST_COUNT; l++) {
		s->lists[l] = lists[l];
		s->lists[l].count = 0;
	}
}

void animc_rg_sequence_release(animc_rg_sequence *s)
{
	free(s->bone);
	for (int l = 0; l < XNB_LIST_COUNT; l++)
		free(s->lists[l].v);
	memset(s, 0, sizeof *s);
}

animc_status animc_rg_sequence_member(animc_rg_sequence *s, animc_rg_member m,
				      const animc_xml_element *el, const char *text, size_t len,
				      animc_diag_sink *sink)
{
	bool ok = true;

	if (s->seen & (1u << m)) {
		animc_diag_report(sink, ANIMC_ERROR, el->line, el->column, "a second <%s> in one sequence",
				  el->name);
		return ANIMC_ERR_PARSE;
	}
	s->seen |= 1u << m;
	switch (m) {
	case ANIMC_RG_BONE_NAME: {
		/* Trimmed, in both dialects, so both give one clip. */
		const char *b = text ? animc_xs_trim(text, &len) : "";

		/* The runtime binds sequences to bones by name: a sequence with
		 * no name animates nothing. */
		if (!text || !len) {
			animc_diag_report(sink, ANIMC_ERROR, el->line, el->column,
					  "<%s> is empty: the runtime finds bones by name; give the sequence "
					  "its bone's name", el->name);
			return ANIMC_ERR_INVALID;
		}
		free(s->bone);
		s->bone = strndup(b, len);
		if (!s->bone) {
			animc_diag_report(sink, ANIMC_ERROR, el->line, el->column, "out of memory");
			return ANIMC_ERR_NOMEM;
		}
		break;
	}
	case ANIMC_RG_KEY_COUNT:
		ok = animc_xml_leaf_int(el, text, len, &s->key_count, sink);
		s->key_count_line = el->line;
		s->key_count_column = el->column;
		break;
	case ANIMC_RG_DURATION:
		ok = animc_xml_leaf_float(el, text, len, &s->duration_s, sink);
		s->duration_line = el->line;
		s->duration_column = el->column;
		break;
	case ANIMC_RG_KEY_INTERVAL:
		ok = animc_xml_leaf_float(el, text, len, &s->key_interval_s, sink);
		s->key_interval_line = el->line;
		s->key_interval_column = el->column;
		break;
	default:
		ok = animc_xml_leaf_bool(el, text, len, &s->flags[m - ANIMC_RG_FLAG0], sink);
		break;
	}
	return ok ? ANIMC_OK : ANIMC_ERR_PARSE;
}

static animc_status fail(animc_diag_sink *sink, animc_status status, uint32_t line,
			 uint32_t column, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static animc_status fail(animc_diag_sink *sink, animc_status status, uint32_t line,
			 uint32_t column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(sink, ANIMC_ERROR, line, column, -1, fmt, ap);
	va_end(ap);
	return status;
}

void animc_rg_sequence_note_value(animc_rg_sequence *s, int list, size_t index, float v,
				  const animc_xml_element *el)
{
	if (isfinite(v) || s->odd_line[list])
		return;
	s->odd_line[list] = el->line ? el->line : 1;
	s->odd_column[list] = el->column;
	s->odd_index[list] = index;
}

/* The length of q, in double as the clip's validation measures it. */
static double quat_length(const float q[4])
{
	return sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
}

void animc_rg_sequence_note_rotation(animc_rg_sequence *s, size_t key, const float q[4],
				     const animc_xml_element *el)
{
	if (s->off_unit_line)
		return;
	for (int c = 0; c < 4; c++)
		if (!isfinite(q[c]))
			return;
	if (fabs(quat_length(q) - 1.0) <= ANIMC_UNIT_QUAT_TOLERANCE)
		return;
	s->off_unit_line = el->line ? el->line : 1;
	s->off_unit_column = el->column;
	s->off_unit_key = key;
}

static bool is_seconds(float v)
{
	return isfinite(v) && v >= 0;
}

animc_status animc_rg_clip_duration(const animc_xml_element *el, const char *text, size_t len, float *out,
				    animc_diag_sink *sink)
{
	if (!animc_xml_leaf_float(el, text, len, out, sink))
		return ANIMC_ERR_PARSE;
	if (is_seconds(*out))
		return ANIMC_OK;
	return fail(sink, ANIMC_ERR_INVALID, el->line, el->column,
		    "the clip's own <Duration> (not a sequence's) is %g s: a duration is a finite number of "
		    "seconds, 0 or more", (double)*out);
}

/* Value `i` of list `l`, noted as NaN or infinite, reported where it is written. */
static animc_status fail_odd(const animc_rg_sequence *s, int l, const char *bone, animc_diag_sink *sink)
{
	size_t i = s->odd_index[l];
	float v = i < s->lists[l].count ? s->lists[l].v[i] : NAN;
	const char *what = isnan(v) ? "NaN" : v < 0 ? "-infinite" : "infinite";

	if (l == XNB_LIST_TIME)
		return fail(sink, ANIMC_ERR_INVALID, s->odd_line[l], s->odd_column[l], "bone '%s': key time %zu is %s",
			    bone, i, what);
	return fail(sink, ANIMC_ERR_INVALID, s->odd_line[l], s->odd_column[l], "bone '%s': %s key %zu is %s", bone,
		    animc_track_name[l], i / xnb_list_width[l], what);
}

/* A track list whose length is not the one its flags and KeyCount give
 * (KeyCount values; 1 when fixed; none when absent), at the list's element
 * (at the sequence's, `el`, when the list is not written). */
static animc_status check_list_length(const animc_rg_sequence *s, int l, const char *bone,
				      const animc_xml_element *el, animc_diag_sink *sink)
{
	size_t n = s->lists[l].count / xnb_list_width[l];
	bool is_fixed = s->flags[XNB_FLAG_FIXED(l)];
	size_t want = is_fixed ? 1 : (size_t)s->key_count;
	uint32_t line = s->list_line[l] ? s->list_line[l] : el->line;
	uint32_t column = s->list_line[l] ? s->list_column[l] : el->column;

	if (!s->flags[XNB_FLAG_HAS(l)]) {
		if (n)
			return fail(sink, ANIMC_ERR_INVALID, line, column,
				    "bone '%s': <%s> holds %zu value%s but %s is false", bone, xnb_list_field[l], n,
				    n == 1 ? "" : "s", xnb_flag_field[XNB_FLAG_HAS(l)]);
		return ANIMC_OK;
	}
	if (n != want)
		return fail(sink, ANIMC_ERR_INVALID, line, column, "bone '%s': <%s> has %zu value%s, expected %zu (%s)",
			    bone, xnb_list_field[l], n, n == 1 ? "" : "s", want, is_fixed ? "fixed" : "KeyCount");
	return ANIMC_OK;
}

/* A track list of the wrong length (check_list_length), a used list's
 * first value that is NaN or infinite, or a used rotation list's first key
 * not of unit length, reported where it is written (the clip's validation
 * would name only the sequence), in the order the validation checks them. */
static animc_status check_lists(const animc_rg_sequence *s, const char *bone, const animc_xml_element *el,
				animc_diag_sink *sink)
{
	const animc_rg_floats *rotation = &s->lists[XNB_LIST_ROTATION];
	size_t k = s->off_unit_key;

	for (int l = 0; l < XNB_LIST_COUNT; l++) {
		if (l != XNB_LIST_TIME) {
			animc_status status = check_list_length(s, l, bone, el, sink);

			if (status != ANIMC_OK)
				return status;
		}
		if (!s->flags[XNB_FLAG_HAS(l)])
			continue;
		if (s->odd_line[l])
			return fail_odd(s, l, bone, sink);
		if (l == XNB_LIST_ROTATION && s->off_unit_line && k < rotation->count / 4)
			return fail(sink, ANIMC_ERR_INVALID, s->off_unit_line, s->off_unit_column,
				    "bone '%s': rotation key %zu is not a unit quaternion (length %g)", bone, k,
				    quat_length(&rotation->v[k * 4]));
	}
	return ANIMC_OK;
}

/* A track that has keys of its own (present and not fixed). */
static bool moves(const animc_rg_sequence *s)
{
	for (int l = 0; l < XNB_LIST_COUNT; l++)
		if (l != XNB_LIST_TIME && s->flags[XNB_FLAG_HAS(l)] && !s->flags[XNB_FLAG_FIXED(l)])
			return true;
	return false;
}

animc_status animc_rg_sequence_end(animc_rg_sequence *s, animc_clip *clip,
				   const animc_xml_element *el, animc_diag_sink *sink)
{
	static const animc_rg_member required[] = { ANIMC_RG_KEY_COUNT, ANIMC_RG_DURATION,
						    ANIMC_RG_KEY_INTERVAL };
	const char *bone = s->bone ? s->bone : "";
	size_t time_count = s->lists[XNB_LIST_TIME].count;
	bool has_time = s->flags[XNB_FLAG_HAS_TIME];
	animc_channel *ch;
	int64_t index;

	if (!(s->seen & (1u << ANIMC_RG_BONE_NAME)))
		return fail(sink, ANIMC_ERR_INVALID, el->line, el->column,
			    "<%s> has no <BoneName>: the runtime finds bones by name; give the sequence its "
			    "bone's name", el->name);
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		if (!(s->seen & (1u << required[i])))
			return fail(sink, ANIMC_ERR_INVALID, el->line, el->column,
				    "sequence of bone '%s' has no <%s>", bone, member_names[required[i]]);
	if (s->key_count < 0)
		return fail(sink, ANIMC_ERR_INVALID, s->key_count_line, s->key_count_column,
			    "bone '%s': KeyCount is negative (%d)", bone, s->key_count);
	if (!is_seconds(s->duration_s))
		return fail(sink, ANIMC_ERR_INVALID, s->duration_line, s->duration_column,
			    "bone '%s': the sequence's <Duration> is %g s: a duration is a finite number of "
			    "seconds, 0 or more", bone, (double)s->duration_s);
	if (!is_seconds(s->key_interval_s))
		return fail(sink, ANIMC_ERR_INVALID, s->key_interval_line, s->key_interval_column,
			    "bone '%s': <KeyInterval> is %g s: an interval is a finite number of seconds, 0 "
			    "or more", bone, (double)s->key_interval_s);
	if (has_time ? time_count != (size_t)s->key_count : time_count != 0) {
		uint32_t line = s->list_line[XNB_LIST_TIME] ? s->list_line[XNB_LIST_TIME] : el->line;
		uint32_t column = s->list_line[XNB_LIST_TIME] ? s->list_column[XNB_LIST_TIME] : el->column;

		if (has_time)
			return fail(sink, ANIMC_ERR_INVALID, line, column,
				    "bone '%s': <Time> has %zu value%s, KeyCount is %d", bone, time_count,
				    time_count == 1 ? "" : "s", s->key_count);
		return fail(sink, ANIMC_ERR_INVALID, line, column,
			    "bone '%s': <Time> has %zu value%s but HasTime is false", bone, time_count,
			    time_count == 1 ? "" : "s");
	}
	if (!has_time && s->key_count > 1 && s->key_interval_s == 0 && moves(s))
		return fail(sink, ANIMC_ERR_INVALID, s->key_interval_line, s->key_interval_column,
			    "bone '%s': <KeyInterval> is 0 but the %d keys have no <Time>: uniform keys (HasTime "
			    "false) are KeyInterval seconds apart; give the interval, or the key times",
			    bone, s->key_count);
	animc_status odd = check_lists(s, bone, el, sink);
	if (odd != ANIMC_OK)
		return odd;
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
		if (s->lists[k].count / xnb_list_width[k] > UINT32_MAX)
			return fail(sink, ANIMC_ERR_LIMIT, el->line, el->column, "bone '%s': too many values",
				    bone);
	index = animc_clip_add_channel(clip, bone, strlen(bone));
	if (index < 0)
		return fail(sink, ANIMC_ERR_NOMEM, el->line, el->column, "out of memory");
	ch = &clip->channels[index];
	ch->line = s->line;
	ch->key_count = (uint32_t)s->key_count;
	ch->duration_s = s->duration_s;
	ch->key_interval_s = s->key_interval_s;
	ch->has_time = has_time;
	if (has_time) {
		ch->times_s = animc_clip_alloc_floats(clip, time_count);
		if (!ch->times_s)
			return fail(sink, ANIMC_ERR_NOMEM, el->line, el->column, "out of memory");
		/* No times (KeyCount 0) may come with no list at all: no copy from NULL. */
		if (time_count)
			memcpy(ch->times_s, s->lists[XNB_LIST_TIME].v, time_count * sizeof(float));
	}
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		animc_track *t = &ch->tracks[k];
		size_t n = s->lists[k].count;

		t->is_present = s->flags[XNB_FLAG_HAS(k)];
		t->is_fixed = s->flags[XNB_FLAG_FIXED(k)];
		t->value_count = (uint32_t)(n / xnb_list_width[k]);
		if (n) {
			t->values = animc_clip_alloc_floats(clip, n);
			if (!t->values)
				return fail(sink, ANIMC_ERR_NOMEM, el->line, el->column, "out of memory");
			memcpy(t->values, s->lists[k].v, n * sizeof(float));
		}
	}
	return ANIMC_OK;
}
