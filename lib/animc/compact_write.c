/*
 * compact_write.c - the compact layout's payload (reader version 3,
 * FORMAT.md section 7.7) of an encoded clip, through the walker of
 * lib/common/compact_layout.h that the loader reads with: the XNB writer
 * puts it in its container, and the pipeline weighs it against the original
 * layout (animc_clip_process).
 */
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>

#include "clip_internal.h"
#include "compact_layout.h"

typedef struct compact_source {
	const animc_compact *c;
	bool is_additive;    /* the clip's tracks are differences: every descriptor says so */
	uint32_t *lane_bone; /* 4 per group: the bone of each lane (UINT32_MAX: unused) */
} compact_source;

/* The walker asks for each element of the sections before the groups in
 * turn: give it. */
static bool header_visit(const compact_source *src, compact_value *v)
{
	const animc_compact *c = src->c;
	const animc_compact_track *t = v->section >= COMPACT_CONSTANTS ? &c->tracks[v->bone][v->track] : NULL;

	switch (v->section) {
	case COMPACT_SEQUENCE_COUNT:
		v->u = c->bone_count;
		break;
	case COMPACT_DURATION:
		v->f[0] = c->duration_s;
		break;
	case COMPACT_RATE:
		v->f[0] = c->rate_hz;
		break;
	case COMPACT_SAMPLE_COUNT:
		v->u = c->sample_count;
		break;
	case COMPACT_NAMES:
		v->str = c->bones[v->bone];
		v->str_size = (uint32_t)strlen(v->str);
		break;
	case COMPACT_DESCRIPTORS: {
		const animc_compact_track *r = &c->tracks[v->bone][ANIMC_ROTATION];

		v->u = 0;
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			const animc_compact_track *tk = &c->tracks[v->bone][k];

			v->u |= (uint32_t)tk->kind << (2 * k);
			if (tk->kind == ANIMC_COMPACT_CONSTANT && tk->is_f32)
				v->u |= COMPACT_DESC_F32(k);
		}
		/* A constant translation's zero components take no bytes. */
		const animc_compact_track *t0 = &c->tracks[v->bone][ANIMC_TRANSLATION];
		if (t0->kind == ANIMC_COMPACT_CONSTANT)
			for (int k = 0; k < 3; k++)
				if (t0->value[k] == 0)
					v->u |= COMPACT_DESC_ZERO(k);
		/* Animated rotations name their left-out component per record. */
		if (r->kind == ANIMC_COMPACT_CONSTANT && !r->is_f32)
			v->u |= COMPACT_DESC_DROP(r->dropped);
		if (src->is_additive)
			v->u |= COMPACT_DESC_ADDITIVE;
		break;
	}
	case COMPACT_CONSTANTS:
		memcpy(v->f, t->value, sizeof t->value);
		break;
	default:
		break;
	}
	return true;
}

/* Lane l of group g's track, or NULL for an unused lane. */
static const animc_compact_track *lane_track(const compact_source *src, uint32_t g, uint32_t l, unsigned kind)
{
	uint32_t b = src->lane_bone[4 * (size_t)g + l];

	return b == UINT32_MAX ? NULL : &src->c->tracks[b][kind];
}

/* A track's range as version 2 stores it: min[3] extent[3], and its u8
 * codes (version 2's range kind 0 is m 0, x 255). */
static void track_range(const animc_compact_track *t, float r[6], uint8_t codes[6])
{
	for (int c = 0; c < 3; c++) {
		codes[c] = t->range == COMPACT_RANGE_U8 ? t->range_codes[c] : 0;
		codes[3 + c] = t->range == COMPACT_RANGE_U8 ? t->range_codes[3 + c] : 255;
		if (t->range == COMPACT_RANGE_F16 || t->range == COMPACT_RANGE_F32) {
			r[c] = t->range_values[c];
			r[3 + c] = t->range_values[3 + c];
		} else {
			compact_unit_range(codes[c], codes[3 + c], &r[c], &r[3 + c]);
		}
	}
}

static bool fits_f16(float v)
{
	uint16_t h;

	return compact_f32_to_f16(v, COMPACT_ROUND_NEAREST, &h) && compact_f16_to_f32(h) == v;
}

/* The smallest range kind that holds every lane's range exactly, and
 * whether a lane has its bits and range per segment. */
static uint8_t group_format(const compact_source *src, uint32_t g, unsigned kind, uint32_t used)
{
	unsigned range = kind == ANIMC_ROTATION ? COMPACT3_RANGE_U8 : COMPACT3_RANGE_F16;
	bool is_none = kind == ANIMC_ROTATION;
	uint8_t sub = 0;

	for (uint32_t l = 0; l < used; l++) {
		const animc_compact_track *t = lane_track(src, g, l, kind);
		float r[6];
		uint8_t codes[6];

		track_range(t, r, codes);
		if (t->range == COMPACT_RANGE_F16 || t->range == COMPACT_RANGE_F32)
			range = range > COMPACT3_RANGE_F16 ? range : COMPACT3_RANGE_F16;
		for (int c = 0; c < 6; c++)
			if (!fits_f16(r[c]))
				range = COMPACT3_RANGE_F32;
		if (t->bits == COMPACT_SEGMENTED)
			sub = COMPACT3_FORMAT_SUB;
		is_none &= t->range == COMPACT_RANGE_NONE;
	}
	return (uint8_t)((is_none ? COMPACT3_RANGE_NONE : range) | sub);
}

/* The first key of track t at or after grid sample `sample`. */
static uint32_t first_key_from(const animc_compact_track *t, uint32_t sample)
{
	uint32_t lo = 0, hi = t->key_count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->samples[mid] < sample)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Lane l's part of the record of segment s. */
static void lane_record(const compact_walker *w, const animc_compact_track *t, compact_value *v, uint32_t l)
{
	uint32_t s = v->segment, from = s << COMPACT_SEGMENT_SHIFT, rows = compact3_rows(w->sample_count, s);
	uint32_t k = first_key_from(t, from);

	if (t->bits == COMPACT_SEGMENTED) {
		const uint8_t *code = t->segment_codes + (size_t)s * COMPACT_SEGMENT_CODE_SIZE;

		v->code[l] = code[0];
		for (int c = 0; c < 3; c++) {
			v->sub[4 * c + l] = code[1 + c];
			v->sub[12 + 4 * c + l] = code[4 + c];
		}
	} else {
		v->code[l] = (uint8_t)(t->bits | (v->track == ANIMC_ROTATION ? t->dropped << 5 : 0));
		for (int c = 0; c < 3; c++)
			v->sub[12 + 4 * c + l] = 255;
	}
	v->lane_q[l] = t->q + 3 * (size_t)k;
	v->mask[l] = 0;
	for (; k < t->key_count && t->samples[k] < from + rows; k++)
		v->mask[l] |= (uint64_t)1 << (t->samples[k] - from);
}

/* The walker asks for each element of version 3's layout in turn. */
static bool compact3_visit(void *user, compact_walker *w, compact_value *v)
{
	compact_source *src = user;

	if (v->section < COMPACT_FORMATS)
		return header_visit(src, v);
	switch (v->section) {
	case COMPACT_GROUP_FORMATS:
		v->u = group_format(src, v->index, v->track, v->used);
		break;
	case COMPACT_GROUP_RANGES:
		for (uint32_t l = 0; l < v->used; l++)
			track_range(lane_track(src, v->index, l, v->track), v->lane_range[l], v->lane_codes[l]);
		break;
	case COMPACT_RECORDS:
		for (uint32_t l = 0; l < v->used; l++)
			lane_record(w, lane_track(src, v->index, l, v->track), v, l);
		if (!(v->format & COMPACT3_FORMAT_SUB))
			memset(v->sub, 0, sizeof v->sub);
		break;
	default:
		break;
	}
	return true;
}

/* Each group's lanes by the layout's rule: rotations, translations,
 * scales, four at a time in bone order. */
static uint32_t *lane_bones(const animc_compact *c)
{
	uint32_t count[COMPACT_TRACKS] = { 0, 0, 0 }, g = 0, *lanes;

	for (uint32_t b = 0; b < c->bone_count; b++)
		for (int k = 0; k < COMPACT_TRACKS; k++)
			count[k] += c->tracks[b][k].kind == ANIMC_COMPACT_ANIMATED;
	lanes = malloc(4 * ((size_t)compact3_group_count(count) + 1) * sizeof *lanes);
	if (!lanes)
		return NULL;
	for (int i = 0; i < COMPACT_TRACKS; i++) {
		unsigned k = compact3_kind_order[i];
		uint32_t n = 0;

		for (uint32_t b = 0; b < c->bone_count; b++) {
			if (c->tracks[b][k].kind != ANIMC_COMPACT_ANIMATED)
				continue;
			lanes[4 * (size_t)g + n] = b;
			if (++n == 4) {
				g++;
				n = 0;
			}
		}
		if (!n)
			continue;
		for (; n < 4; n++)
			lanes[4 * (size_t)g + n] = UINT32_MAX;
		g++;
	}
	return lanes;
}

animc_status animc_compact_write(const animc_clip *clip, uint8_t **out, size_t *out_size, animc_diag_sink *sink)
{
	compact_walker w;

	*out = NULL;
	*out_size = 0;
	if (!clip->compact) {
		animc_clip_report(sink, ANIMC_ERROR, clip, NULL, "has no compact encoding: run animc_pass_compact "
				  "(or animc_clip_process for ANIMC_LAYOUT_COMPACT) first");
		return ANIMC_ERR_ARGUMENT;
	}
	compact_source src = { clip->compact, clip->is_additive, lane_bones(clip->compact) };
	if (!src.lane_bone)
		return ANIMC_ERR_NOMEM;
	memset(&w, 0, sizeof w);
	w.mode = COMPACT_WRITE;
	compact_result r = compact3_walk(&w, compact3_visit, &src);
	free(src.lane_bone);
	if (r != COMPACT_OK) {
		free(w.out);
		if (w.result == COMPACT_ERR_NOMEM)
			return ANIMC_ERR_NOMEM;
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "internal error: the compact encoding breaks its "
				  "layout: %s", w.message);
		return ANIMC_ERR_INVALID;
	}
	*out = w.out;
	*out_size = w.size;
	return ANIMC_OK;
}
