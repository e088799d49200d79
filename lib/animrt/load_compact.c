/*
 * load_compact.c - the loader that decodes a compact clip's keys at load
 * (animrt_open_options.is_decoded): runs the layout's one walker
 * (lib/common/compact_layout.h, reader version 3 read as version 2's
 * elements: compact3_walk_as_v2) over the payload twice, first to
 * check every byte and measure, then to fill one allocation with the
 * structures the samplers read (compact.h): the keys decoded to floats a
 * track after another, per group of four tracks and segment a block of
 * masks and key offsets, the rows that say where each grid sample falls,
 * and the arcs between rotation keys.  Standard C only.
 */
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "error.h"
#include "interp.h"

/* What the measure pass finds, per animated track and in all. */
typedef struct measure {
	size_t name_bytes;
	uint32_t *keys;                       /* per animated track: its keys */
	bool is_out_of_memory;
} measure;

/* How the keys of one lane decode in one segment (FORMAT.md 7.3, 7.4). */
typedef struct dequant {
	float min[3], step[3];
	uint8_t dropped;                      /* rotations: the component left out */
	uint8_t is_raw;                       /* float32 keys */
} dequant;

/* The fill pass: where things go.  `descriptors` and the arrays from
 * `slot_of_animated` on are scratch, released when the loader returns. */
typedef struct filler {
	animrt_sequence *sequences;
	struct animrt_compact *compact;
	rt_group *groups;
	rt_block *blocks;
	float *keys;
	float *image_t, *image_r, *image_s;
	uint8_t *image_tracks;
	int32_t *slot;
	uint32_t *key_count;
	char *strings;
	uint16_t *descriptors;
	uint32_t group_base[COMPACT_TRACKS];    /* first group of each kind */
	uint32_t placed[COMPACT_TRACKS];        /* tracks placed so far */
	uint32_t *slot_of_animated;             /* animated index -> group * RT_LANES + lane */
	uint32_t *unit_of_animated;             /* animated index -> its first key in `keys` */
	float *range;                           /* animated index * 6: the clip range */
	dequant *dq;                            /* per block and lane */
} filler;

static const float identity_value[COMPACT_TRACKS][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

static bool measure_visit(void *user, compact_walker *w, compact_value *v)
{
	measure *m = user;

	switch (v->section) {
	case COMPACT_NAMES:
		m->name_bytes += (size_t)v->str_size + 1;
		break;
	case COMPACT_FORMATS:
		if (!m->keys) {
			/* The walker has counted the animated tracks by now. */
			m->keys = calloc(w->animated_count ? w->animated_count : 1, sizeof *m->keys);
			if (!m->keys) {
				m->is_out_of_memory = true;
				snprintf(w->message, sizeof w->message, "out of memory");
				return false;
			}
		}
		break;
	case COMPACT_MASKS:
		if (v->u)
			m->keys[v->animated]++;
		break;
	default:
		break;
	}
	return true;
}

static rt_block *block_of(filler *f, uint32_t slot, uint32_t segment)
{
	return &f->blocks[(size_t)(slot / RT_LANES) * f->compact->segment_count + segment];
}

static dequant *dequant_of(filler *f, uint32_t slot, uint32_t segment)
{
	return &f->dq[((size_t)(slot / RT_LANES) * f->compact->segment_count + segment) * RT_LANES + slot % RT_LANES];
}

/* A segment's dequantisation from its range, bits and dropped component. */
static void set_dequant(dequant *d, const float *min, const float *extent, unsigned bits, unsigned dropped)
{
	unsigned cbits[3];

	compact_component_bits(bits, extent, cbits);
	d->dropped = (uint8_t)dropped;
	d->is_raw = bits == COMPACT_RAW_BITS;
	for (int c = 0; c < 3; c++) {
		d->min[c] = bits == COMPACT_RAW_BITS ? 0 : min[c];
		d->step[c] = bits == COMPACT_RAW_BITS ? 0 : compact_step(extent[c], cbits[c]);
	}
}

static bool fill_visit(void *user, compact_walker *w, compact_value *v)
{
	filler *f = user;
	struct animrt_compact *c = f->compact;
	animrt_sequence *seq = v->section >= COMPACT_NAMES && v->bone < c->bone_count ? &f->sequences[v->bone] : NULL;

	switch (v->section) {
	case COMPACT_NAMES:
		memcpy(f->strings, v->str, v->str_size);
		f->strings[v->str_size] = '\0';
		seq->bone = f->strings;
		seq->bone_size = v->str_size;
		f->strings += (size_t)v->str_size + 1;
		break;
	case COMPACT_DESCRIPTORS: {
		f->descriptors[v->bone] = (uint16_t)v->u;
		uint8_t tracks = 0;
		for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
			unsigned kind = COMPACT_DESC_KIND(v->u, k);
			const float *value = k == 0 ? f->image_t + 3 * (size_t)v->bone
					   : k == 1 ? f->image_r + 4 * (size_t)v->bone : f->image_s + 3 * (size_t)v->bone;
			bool has = kind != COMPACT_ABSENT, fixed = kind == COMPACT_IDENTITY || kind == COMPACT_CONSTANT;

			if (has)
				tracks |= (uint8_t)(1u << k);
			if (k == 0) {
				seq->has_translation = has;
				seq->is_fixed_translation = fixed;
				seq->translation_count = fixed;
				seq->translation = fixed ? value : NULL;
			} else if (k == 1) {
				seq->has_rotation = has;
				seq->is_fixed_rotation = fixed;
				seq->rotation_count = fixed;
				seq->rotation = fixed ? value : NULL;
			} else {
				seq->has_scale = has;
				seq->is_fixed_scale = fixed;
				seq->scale_count = fixed;
				seq->scale = fixed ? value : NULL;
			}
		}
		f->image_tracks[v->bone] = tracks;
		seq->key_count = 1;
		seq->duration_s = w->duration_s;
		seq->compact = c;
		seq->index = v->bone;
		break;
	}
	case COMPACT_CONSTANTS: {
		float *dst = v->track == 0 ? f->image_t + 3 * (size_t)v->bone
			   : v->track == 1 ? f->image_r + 4 * (size_t)v->bone : f->image_s + 3 * (size_t)v->bone;

		memcpy(dst, v->f, (v->track == 1 ? 4 : 3) * sizeof(float));
		break;
	}
	case COMPACT_FORMATS: {
		uint32_t kind = v->track, n = f->placed[kind]++;
		uint32_t group = f->group_base[kind] + n / RT_LANES, lane = n % RT_LANES;

		f->groups[group].kind = kind;
		f->groups[group].used = lane + 1;
		f->groups[group].bone[lane] = v->bone;
		f->slot[(size_t)v->bone * 3 + kind] = (int32_t)(group * RT_LANES + lane);
		f->slot_of_animated[v->animated] = group * RT_LANES + lane;
		break;
	}
	case COMPACT_RANGES: {
		uint32_t slot = f->slot_of_animated[v->animated];
		unsigned bits = COMPACT_FORMAT_BITS(v->format);

		memcpy(f->range + (size_t)v->animated * 6, v->f, 6 * sizeof(float));
		if (bits != COMPACT_SEGMENTED) {
			unsigned dropped = v->track == 1 ? COMPACT_DESC_DROPPED(f->descriptors[v->bone]) : 0;

			for (uint32_t s = 0; s < c->segment_count; s++)
				set_dequant(dequant_of(f, slot, s), v->f, v->f + 3, bits, dropped);
		}
		break;
	}
	case COMPACT_SEGMENTS: {
		uint32_t slot = f->slot_of_animated[v->animated];
		const float *range = f->range + (size_t)v->animated * 6;
		float min[3], extent[3];

		for (int k = 0; k < 3; k++)
			compact_subrange(range[k], range[3 + k], v->q[k], v->x[k], &min[k], &extent[k]);
		set_dequant(dequant_of(f, slot, v->segment), min, extent, v->u & 31u, v->u >> 5);
		break;
	}
	case COMPACT_MASKS:
		if (v->u) {
			uint32_t slot = f->slot_of_animated[v->animated];

			block_of(f, slot, v->sample >> COMPACT_SEGMENT_SHIFT)->mask[slot % RT_LANES] |=
				(uint64_t)1 << (v->sample & (COMPACT_SEGMENT_SAMPLES - 1));
			f->key_count[(size_t)v->bone * 3 + v->track]++;
		}
		break;
	case COMPACT_KEYS: {
		uint32_t slot = f->slot_of_animated[v->animated], lane = slot % RT_LANES;
		const dequant *d = dequant_of(f, slot, v->segment);
		uint32_t unit = f->unit_of_animated[v->animated] + v->index;
		float k[3], *key = f->keys + 4 * (size_t)unit;

		/* The first key of a segment (every segment starts with one). */
		if ((v->sample & (COMPACT_SEGMENT_SAMPLES - 1)) == 0)
			block_of(f, slot, v->segment)->key_base[lane] = unit;
		for (int j = 0; j < 3; j++)
			k[j] = d->is_raw ? v->f[j] : compact_dequantize(d->min[j], d->step[j], v->q[j]);
		if (v->track == 1) {
			if (k[0] * k[0] + k[1] * k[1] + k[2] * k[2] > 1.0f + COMPACT_ROTATION_SLACK) {
				snprintf(w->message, sizeof w->message,
					 "key %u of the rotation of bone '%s' is longer than a unit quaternion",
					 v->index, f->sequences[v->bone].bone);
				return false;
			}
			compact_rotation_rebuild(k, d->dropped, key);
		} else {
			memcpy(key, k, sizeof k);
			key[3] = 0;
		}
		uint32_t *count = &f->sequences[v->bone].key_count;
		if (f->key_count[(size_t)v->bone * 3 + v->track] > *count)
			*count = f->key_count[(size_t)v->bone * 3 + v->track];
		break;
	}
	default:
		break;
	}
	return true;
}

/* The rows of every block: where each grid sample falls for each lane. */
static void build_spans(struct animrt_compact *c, rt_block *blocks, rt_span *spans)
{
	uint32_t segs = c->segment_count, row = 0;

	for (uint32_t g = 0; g < c->group_count; g++)
		for (uint32_t s = 0; s < segs; s++) {
			rt_block *b = &blocks[(size_t)g * segs + s];
			uint32_t rows = s + 1 < segs ? COMPACT_SEGMENT_SAMPLES
						     : c->sample_count - (s << COMPACT_SEGMENT_SHIFT);

			b->span = row;
			for (uint32_t i = 0; i < rows; i++, row++)
				for (uint32_t lane = 0; lane < RT_LANES; lane++) {
					uint64_t m = b->mask[lane];
					uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
					uint64_t below = m & upto, above = m & ~upto;

					spans[row].j[lane] = (uint8_t)(rt_popcount64(below) - 1);
					spans[row].k0[lane] = (uint8_t)(63 - rt_clz64(below));
					spans[row].k1[lane] = above		  ? (uint8_t)rt_ctz64(above)
							      : s + 1 < segs ? RT_NEXT_SEGMENT
									     : RT_HOLD;
				}
		}
}

animrt_status animrt_rt_walk_error(const compact_walker *w, animrt_error *err)
{
	static const animrt_status status[] = {
		[COMPACT_OK] = ANIMRT_OK,
		[COMPACT_ERR_TRUNCATED] = ANIMRT_ERR_TRUNCATED,
		[COMPACT_ERR_COUNT] = ANIMRT_ERR_COUNT,
		[COMPACT_ERR_VALUE] = ANIMRT_ERR_VALUE,
		[COMPACT_ERR_STRING] = ANIMRT_ERR_STRING,
		[COMPACT_ERR_TRAILING] = ANIMRT_ERR_TRAILING,
		[COMPACT_ERR_NOMEM] = ANIMRT_ERR_NOMEM,
		[COMPACT_ERR_VISITOR] = ANIMRT_ERR_VALUE,
	};

	return animrt_rt_error_set(err, status[w->result], w->error_offset, "%s", w->message);
}

/* The arcs of a rotation track's keys (n of them, from key): the
 * quantities interp_slerp_weights takes from each key and the next, by the
 * same operations. */
static void build_arcs(const float *key, uint32_t n, rt_arc *arc)
{
	for (uint32_t i = 0; i < n; i++, key += 4) {
		if (i + 1 == n) {
			arc[i].angle = -1;
			arc[i].signed_inv_sin = 1;
			break;
		}
		const float *b = key + 4;
		float dot = key[0] * b[0] + key[1] * b[1] + key[2] * b[2] + key[3] * b[3];
		float sign = dot < 0 ? -1.0f : 1.0f, d = fabsf(dot);
		float c = d < INTERP_NLERP_DOT ? d : INTERP_NLERP_DOT;

		arc[i].angle = d <= INTERP_NLERP_DOT ? interp_acos_unit(c) : -1.0f;
		arc[i].signed_inv_sin = sign * (1.0f / sqrtf((1.0f - c) * (1.0f + c)));
	}
}

/* Round n up to a multiple of the alignment a (a power of two). */
static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) & ~(a - 1);
}

static animrt_status load(const uint8_t *data, size_t size, size_t at, const animrt_container *container,
			  const char *reader, uint32_t reader_size, measure *m, filler *f, animrt_clip **out,
			  animrt_error *err)
{
	compact_walker w;

	compact_walker_read_at(&w, data, size, at);
	if (compact3_walk_as_v2(&w, measure_visit, m) != COMPACT_OK) {
		if (m->is_out_of_memory || w.result == COMPACT_ERR_NOMEM)
			return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "out of memory");
		return animrt_rt_walk_error(&w, err);
	}

	/* Groups per kind; keys in all and of rotations.  The kind of each
	 * animated track follows from the descriptors, read from the input. */
	uint32_t bones = w.bone_count, segments = w.segment_count, groups = 0, animated = w.animated_count;
	uint32_t per_kind[COMPACT_TRACKS] = { 0, 0, 0 };
	uint64_t units = 0, rotation_units = 0, rows;
	uint8_t *kind_of = malloc(animated ? animated : 1);
	if (!kind_of)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "out of memory");
	for (uint32_t b = 0, a = 0; b < bones; b++) {
		uint16_t desc = (uint16_t)(w.in[w.descriptors_at + 2 * (size_t)b] |
					   w.in[w.descriptors_at + 2 * (size_t)b + 1] << 8);

		for (unsigned k = 0; k < COMPACT_TRACKS; k++)
			if (COMPACT_DESC_KIND(desc, k) == COMPACT_ANIMATED) {
				per_kind[k]++;
				kind_of[a++] = (uint8_t)k;
			}
	}
	for (uint32_t a = 0; a < animated; a++) {
		units += m->keys[a];
		rotation_units += kind_of[a] == ANIMRT_ROTATION ? m->keys[a] : 0;
	}
	for (int k = 0; k < COMPACT_TRACKS; k++)
		groups += (per_kind[k] + RT_LANES - 1) / RT_LANES;
	rows = (uint64_t)groups * w.sample_count;
	if (units >= UINT32_MAX || rows >= UINT32_MAX) {
		free(kind_of);
		return animrt_rt_error_set(err, ANIMRT_ERR_COUNT, (int64_t)at,
					"%llu keys in %llu grid rows are more than this loader indexes",
					(unsigned long long)units, (unsigned long long)rows);
	}

	/* One allocation: the clip, its sequences, the compact structures, the
	 * images, the names.  Counts are bounded by the bytes they came from. */
	size_t off = 0, o_clip, o_seq, o_compact, o_groups, o_blocks, o_spans, o_keys, o_arcs, o_image, o_slot,
	       o_count, o_strings;
#define PLACE(var, bytes, align)                 \
	do {                                     \
		off = align_up(off, (align));    \
		(var) = off;                     \
		off += (bytes);                  \
	} while (0)
	PLACE(o_clip, sizeof(animrt_clip), alignof(animrt_clip));
	PLACE(o_seq, (size_t)bones * sizeof(animrt_sequence), alignof(animrt_sequence));
	PLACE(o_compact, sizeof(struct animrt_compact), alignof(struct animrt_compact));
	PLACE(o_groups, (size_t)groups * sizeof(rt_group), alignof(rt_group));
	PLACE(o_blocks, (size_t)groups * segments * sizeof(rt_block), 64);
	PLACE(o_spans, (size_t)rows * sizeof(rt_span), 16);
	PLACE(o_keys, ((size_t)units + 1) * 4 * sizeof(float), 16);
	PLACE(o_arcs, ((size_t)rotation_units + 1) * sizeof(rt_arc), alignof(rt_arc));
	/* The constant pose laid out as animrt_pose_init lays out a pose, so
	 * that one copy fills one. */
	PLACE(o_image, (size_t)bones * (10 * sizeof(float) + 1), 16);
	PLACE(o_slot, (size_t)bones * 3 * sizeof(int32_t), alignof(int32_t));
	PLACE(o_count, (size_t)bones * 3 * sizeof(uint32_t), alignof(uint32_t));
	PLACE(o_strings, m->name_bytes + (size_t)reader_size + 1, 1);
#undef PLACE
	unsigned char *block = aligned_alloc(64, align_up(off, 64));
	/* Scratch of the fill pass. */
	f->descriptors = malloc((bones ? bones : 1) * sizeof *f->descriptors);
	f->slot_of_animated = malloc((animated ? animated : 1) * sizeof *f->slot_of_animated);
	f->unit_of_animated = malloc((animated ? animated : 1) * sizeof *f->unit_of_animated);
	f->range = malloc((animated ? animated : 1) * 6 * sizeof *f->range);
	f->dq = calloc((size_t)groups * segments * RT_LANES + 1, sizeof *f->dq);
	if (!block || !f->descriptors || !f->slot_of_animated || !f->unit_of_animated || !f->range || !f->dq) {
		free(block);
		free(kind_of);
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", off);
	}
	memset(block, 0, off);

	f->sequences = (animrt_sequence *)(block + o_seq);
	f->compact = (struct animrt_compact *)(block + o_compact);
	f->groups = (rt_group *)(block + o_groups);
	f->blocks = (rt_block *)(block + o_blocks);
	f->keys = (float *)(block + o_keys);
	f->image_r = (float *)(block + o_image);
	f->image_t = f->image_r + 4 * (size_t)bones;
	f->image_s = f->image_r + 7 * (size_t)bones;
	f->image_tracks = (uint8_t *)(f->image_r + 10 * (size_t)bones);
	f->slot = (int32_t *)(block + o_slot);
	f->key_count = (uint32_t *)(block + o_count);
	f->strings = (char *)(block + o_strings);
	for (uint32_t b = 0; b < bones; b++) {
		memcpy(f->image_t + 3 * (size_t)b, identity_value[0], 3 * sizeof(float));
		memcpy(f->image_r + 4 * (size_t)b, identity_value[1], 4 * sizeof(float));
		memcpy(f->image_s + 3 * (size_t)b, identity_value[2], 3 * sizeof(float));
		for (int k = 0; k < 3; k++)
			f->slot[(size_t)b * 3 + k] = -1;
	}
	/* Lanes no track fills: a key at sample 0 (key 0 of the clip, which
	 * every clip with a group has), nothing written. */
	for (uint32_t g = 0; g < groups; g++) {
		for (int l = 0; l < RT_LANES; l++)
			f->groups[g].bone[l] = RT_NO_BONE;
		for (uint32_t s = 0; s < segments; s++)
			for (int l = 0; l < RT_LANES; l++)
				f->blocks[(size_t)g * segments + s].mask[l] = 1;
	}
	for (int k = 0, base = 0; k < COMPACT_TRACKS; k++) {
		f->group_base[k] = (uint32_t)base;
		base += (int)((per_kind[k] + RT_LANES - 1) / RT_LANES);
	}
	/* Keys: the rotation tracks' first, so that the arcs share their
	 * indices. */
	uint32_t unit = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t a = 0; a < animated; a++)
			if ((kind_of[a] == ANIMRT_ROTATION) == (pass == 0)) {
				f->unit_of_animated[a] = unit;
				unit += m->keys[a];
			}
	struct animrt_compact *c = f->compact;
	c->rate_hz = w.rate_hz;
	c->sample_count = w.sample_count;
	c->segment_count = segments;
	c->bone_count = bones;
	c->group_count = groups;
	c->groups = f->groups;
	c->blocks = f->blocks;
	c->spans = (const rt_span *)(block + o_spans);
	c->keys = f->keys;
	c->arcs = (const rt_arc *)(block + o_arcs);
	c->image_translation = f->image_t;
	c->image_rotation = f->image_r;
	c->image_scale = f->image_s;
	c->image_tracks = f->image_tracks;
	c->slot = f->slot;
	c->key_count = f->key_count;

	compact_walker w2;
	compact_walker_read_at(&w2, data, size, at);
	if (compact3_walk_as_v2(&w2, fill_visit, f) != COMPACT_OK) {
		animrt_status status = animrt_rt_walk_error(&w2, err);

		free(block);
		free(kind_of);
		return status;
	}
	build_spans(c, f->blocks, (rt_span *)(block + o_spans));
	for (uint32_t a = 0; a < animated; a++)
		if (kind_of[a] == ANIMRT_ROTATION)
			build_arcs(f->keys + 4 * (size_t)f->unit_of_animated[a], m->keys[a],
				   (rt_arc *)(block + o_arcs) + f->unit_of_animated[a]);
	free(kind_of);

	animrt_clip *clip = (animrt_clip *)(block + o_clip);
	clip->container = *container;
	/* The reader name after the bone names (f->strings points there now). */
	memcpy(f->strings, reader, reader_size);
	f->strings[reader_size] = '\0';
	clip->container.reader = f->strings;
	clip->duration_s = w.duration_s;
	clip->sequence_count = bones;
	clip->sequences = f->sequences;
	clip->compact = c;
	clip->grid_rate_hz = w.rate_hz;
	clip->grid_sample_count = w.sample_count;
	clip->is_additive = compact_is_additive(&w);
	*out = clip;
	return ANIMRT_OK;
}

animrt_status animrt_rt_load_compact(const uint8_t *data, size_t size, size_t at,
				  const animrt_container *container, const char *reader, uint32_t reader_size,
				  animrt_clip **out, animrt_error *err)
{
	measure m;
	filler f;
	animrt_status status;

	memset(&m, 0, sizeof m);
	memset(&f, 0, sizeof f);
	status = load(data, size, at, container, reader, reader_size, &m, &f, out, err);
	free(m.keys);
	free(f.descriptors);
	free(f.slot_of_animated);
	free(f.unit_of_animated);
	free(f.range);
	free(f.dq);
	return status;
}
