/*
 * compact_write.c - the compact layout's payload (reader version 2,
 * FORMAT.md section 7.1) of an encoded clip, through the walker of
 * lib/common/compact_layout.h that the loader reads with: the XNB writer
 * puts it in its container, and the pipeline weighs it against the original
 * layout (animc_clip_process).
 */
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>

#include "compact_layout.h"

typedef struct compact_source {
	const animc_compact *c;
	uint32_t cursor;     /* MASKS: the next key of the track being walked */
	bool is_additive;    /* the clip's tracks are differences: every descriptor says so */
} compact_source;

/* The walker asks for each element of the layout in turn: give it. */
static bool compact_visit(void *user, compact_walker *w, compact_value *v)
{
	compact_source *src = user;
	const animc_compact *c = src->c;
	const animc_compact_track *t = v->section >= COMPACT_CONSTANTS ? &c->tracks[v->bone][v->track] : NULL;

	(void)w;
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
		/* Segmented rotations name their dropped component per segment. */
		if ((r->kind == ANIMC_COMPACT_CONSTANT && !r->is_f32) ||
		    (r->kind == ANIMC_COMPACT_ANIMATED && r->bits != COMPACT_SEGMENTED))
			v->u |= COMPACT_DESC_DROP(r->dropped);
		if (src->is_additive)
			v->u |= COMPACT_DESC_ADDITIVE;
		break;
	}
	case COMPACT_CONSTANTS:
		memcpy(v->f, t->value, sizeof t->value);
		break;
	case COMPACT_FORMATS:
		v->u = COMPACT_FORMAT(t->bits, t->range);
		break;
	case COMPACT_RANGES:
		memcpy(v->f, t->range_values, sizeof t->range_values);
		for (int k = 0; k < 3; k++) {
			v->q[k] = t->range_codes[k];
			v->x[k] = t->range_codes[3 + k];
		}
		break;
	case COMPACT_SEGMENTS: {
		const uint8_t *code = t->segment_codes + (size_t)v->segment * COMPACT_SEGMENT_CODE_SIZE;

		v->u = code[0];
		for (int k = 0; k < 3; k++) {
			v->q[k] = code[1 + k];
			v->x[k] = code[4 + k];
		}
		break;
	}
	case COMPACT_MASKS:
		if (v->sample == 0)
			src->cursor = 0;
		v->u = src->cursor < t->key_count && t->samples[src->cursor] == v->sample;
		src->cursor += v->u;
		break;
	case COMPACT_KEYS:
		if (v->index >= t->key_count)
			return false;
		memcpy(v->q, t->q + 3 * (size_t)v->index, sizeof v->q);
		if (v->bits == COMPACT_RAW_BITS)
			memcpy(v->f, v->q, sizeof v->f[0] * 3);
		break;
	default:
		break;
	}
	return true;
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
	compact_source src = { clip->compact, 0, clip->is_additive };
	memset(&w, 0, sizeof w);
	w.mode = COMPACT_WRITE;
	if (compact_walk(&w, compact_visit, &src) != COMPACT_OK) {
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
