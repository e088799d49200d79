/*
 * load_v3.c - the loader of reader version 3 (FORMAT.md 7.7), sampled in
 * place: runs the layout's one walker (lib/common/compact_layout.h) over
 * the payload once, checking every byte (every record's code bytes, masks,
 * sub-ranges and keys), and keeps the payload as it is (bone names
 * NUL-terminated) with a fixed header, the groups by the layout's rule
 * and each record's offset (compact.h, rt_v3).  Standard C only.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "error.h"

/* What the walk gathers: scratch, released when the loader returns. */
typedef struct scan3 {
	size_t name_bytes;                    /* names NUL-terminated */
	size_t *record_at;                    /* segments * groups, from the payload's start */
	size_t *range_at;                     /* groups: their ranges, from the payload's start */
	uint8_t *has_raw;                     /* groups: a lane with float32 keys in a segment */
	bool is_out_of_memory;
} scan3;

static bool out_of_memory(scan3 *sc, compact_walker *w)
{
	sc->is_out_of_memory = true;
	snprintf(w->message, sizeof w->message, "out of memory");
	return false;
}

static bool scan_visit(void *user, compact_walker *w, compact_value *v)
{
	scan3 *sc = user;

	switch (v->section) {
	case COMPACT_NAMES:
		sc->name_bytes += (size_t)v->str_size + 1;
		break;
	case COMPACT_GROUP_RANGES:
		if (!sc->range_at) {
			sc->range_at = malloc(((size_t)w->group_count + 1) * sizeof *sc->range_at);
			if (!sc->range_at)
				return out_of_memory(sc, w);
		}
		sc->range_at[v->index] = w->group_range_at[v->index];
		break;
	case COMPACT_RECORDS:
		if (!sc->record_at) {
			/* Each record takes at least 2 bytes of the input. */
			sc->record_at = malloc(((size_t)w->segment_count * w->group_count + 1) * sizeof *sc->record_at);
			if (!sc->record_at)
				return out_of_memory(sc, w);
		}
		sc->record_at[(size_t)v->segment * w->group_count + v->index] = v->record_at;
		if (!sc->has_raw && !(sc->has_raw = calloc((size_t)w->group_count + 1, 1)))
			return out_of_memory(sc, w);
		for (uint32_t l = 0; l < v->used; l++)
			sc->has_raw[v->index] |= COMPACT3_CODE_BITS(v->code[l]) == COMPACT_RAW_BITS;
		break;
	default:
		break;
	}
	return true;
}

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) & ~(a - 1);
}

/* The header fields before the names: count, duration, rate, samples. */
#define NAMES_AT 16

/* Where the parts of the clip's one block lie. */
typedef struct layout3 {
	size_t compact, groups, formats, has_raw, range_at, record_at, payload, reader, still, total;
	uint32_t still_rotations;
	bool still_floats, still_scales;
} layout3;

/* The prebuilt still pose's bytes (rt_v3.still): 6 a constant rotation,
 * 7 a bone (13 where a constant translation is float32), 6 more a bone
 * where a scale is constant, 3 for alignment; 0 where a rotation or scale
 * constant is float32 (the sampler decodes those clips), or where a bone
 * is not a u16. */
static size_t still_size(const compact_walker *w, layout3 *o)
{
	o->still_rotations = 0;
	o->still_floats = o->still_scales = false;
	if (w->bone_count > UINT16_MAX)
		return 0;
	for (uint32_t b = 0; b < w->bone_count; b++) {
		uint16_t desc = compact_descriptor(w, b);
		bool r = COMPACT_DESC_KIND(desc, 1) == COMPACT_CONSTANT, s = COMPACT_DESC_KIND(desc, 2) == COMPACT_CONSTANT;

		if ((r && (desc & COMPACT_DESC_F32(1))) || (s && (desc & COMPACT_DESC_F32(2))))
			return 0;
		o->still_rotations += r;
		o->still_scales |= s;
		o->still_floats |= COMPACT_DESC_KIND(desc, 0) == COMPACT_CONSTANT && (desc & COMPACT_DESC_F32(0));
	}
	return 6 * (size_t)o->still_rotations + (o->still_floats ? 13 : 7) * (size_t)w->bone_count +
	       (o->still_scales ? 6 * (size_t)w->bone_count : 0) + 3;
}

/* The still pose is prebuilt where the block stays within 1.05 x the
 * input's bytes + 512 (less 32 for the allocator's rounding); a
 * compressed input's bytes are not the file's: never. */
static void place_still(const compact_walker *w, size_t input, bool is_zstd, layout3 *o)
{
	size_t bytes = is_zstd ? 0 : still_size(w, o), at = align_up(o->total, 16);

	o->still = 0;
	if (!bytes || (double)(at + bytes) > 1.05 * (double)input + 512 - 32)
		return;
	o->still = at;
	o->total = at + bytes;
}

static layout3 place(const compact_walker *w, size_t payload, uint32_t reader_size, bool is_default_reader)
{
	layout3 o;
	size_t g = w->group_count, records = (size_t)w->segment_count * g;

	o.compact = align_up(sizeof(animrt_clip), alignof(struct animrt_compact));
	o.groups = align_up(o.compact + RT_V3_COMPACT_SIZE, alignof(rt_group));
	o.range_at = align_up(o.groups + g * sizeof(rt_group), alignof(uint32_t));
	o.record_at = o.range_at + g * sizeof(uint32_t);
	o.formats = o.record_at + records * sizeof(uint32_t);
	o.has_raw = o.formats + g;
	o.payload = align_up(o.has_raw + g, 16);
	o.reader = o.payload + payload + RT_PACKED_PAD;
	o.total = o.reader + (is_default_reader ? 0 : (size_t)reader_size + 1);
	return o;
}

/* The bytes of a bone's constant of track k (FORMAT.md 7.2). */
static size_t constant_bytes(uint16_t desc, unsigned k)
{
	size_t each = (desc & COMPACT_DESC_F32(k)) ? 4 : 2;

	if (k == ANIMRT_ROTATION)
		return each == 4 ? 16 : 6;
	if (k == ANIMRT_SCALE)
		return 3 * each;
	return each * (3 - (size_t)!!(desc & COMPACT_DESC_ZERO(0)) - !!(desc & COMPACT_DESC_ZERO(1)) -
		       !!(desc & COMPACT_DESC_ZERO(2)));
}

/* Bone b's translation or scale v (`other` where not constant, k its
 * track) into the prebuilt still pose at `to`: floats, or halves where
 * exact (false where not). */
static bool still_vec3(const float *v, uint16_t desc, unsigned k, float other, bool floats, uint8_t *to, uint32_t b)
{
	bool ok = true;

	for (int c = 0; c < 3; c++) {
		float x = COMPACT_DESC_KIND(desc, k) == COMPACT_CONSTANT ? v[c] : other;
		uint16_t h = compact_f16_nearest(x);
		float back = compact_f16_to_f32(h);

		if (floats) {
			memcpy(to + 4 * (3 * (size_t)b + c), &x, 4);
			continue;
		}
		ok = ok && memcmp(&back, &x, sizeof x) == 0;
		memcpy(to + 2 * (3 * (size_t)b + c), &h, 2);
	}
	return ok;
}

/* The still pose half prebuilt at o->still from the clip's own decoding
 * (animrt_rt_v3_still) and its constants' offsets: false where a
 * translation is not exact in f16 (the clip then decodes it on every
 * sample) or out of memory. */
static bool build_still(const animrt_clip *clip, unsigned char *block, const layout3 *o)
{
	const struct animrt_compact *c = clip->compact;
	const rt_packed *pk = &c->packed;
	uint32_t n = c->bone_count, r = 0;
	void *mem = malloc(animrt_pose_size_bytes(n ? n : 1));
	uint8_t *tr = block + o->still, *sc = tr + (o->still_floats ? 12 : 6) * (size_t)n;
	uint8_t *offs = block + o->still + align_up((size_t)(sc - tr) + (o->still_scales ? 6 * (size_t)n : 0), 4);
	uint8_t *slots = offs + 4 * (size_t)o->still_rotations, *tracks = slots + 2 * (size_t)o->still_rotations;
	size_t at = pk->constants_at;
	animrt_pose pose;
	bool ok = mem != NULL;

	animrt_pose_init(&pose, mem, n);
	if (ok)
		animrt_rt_v3_still(pk, NULL, &pose);
	for (uint32_t b = 0; ok && b < n; b++) {
		uint16_t desc = (uint16_t)(pk->p[pk->descriptors_at + 2 * (size_t)b] |
					   pk->p[pk->descriptors_at + 2 * (size_t)b + 1] << 8);
		uint16_t slot = (uint16_t)b;
		uint32_t off;

		ok = still_vec3(pose.translation + 3 * (size_t)b, desc, 0, 0.0f, o->still_floats, tr, b);
		ok = ok && (!o->still_scales || still_vec3(pose.scale + 3 * (size_t)b, desc, 2, 1.0f, false, sc, b));
		at += COMPACT_DESC_KIND(desc, 0) == COMPACT_CONSTANT ? constant_bytes(desc, 0) : 0;
		if (COMPACT_DESC_KIND(desc, 1) == COMPACT_CONSTANT) {
			off = (uint32_t)at;
			memcpy(offs + 4 * (size_t)r, &off, 4);
			memcpy(slots + 2 * (size_t)r++, &slot, 2);
			at += constant_bytes(desc, 1);
		}
		at += COMPACT_DESC_KIND(desc, 2) == COMPACT_CONSTANT ? constant_bytes(desc, 2) : 0;
		tracks[b] = pose.tracks[b];
	}
	free(mem);
	return ok;
}

/* The payload with its names NUL-terminated (never longer than with their
 * 7-bit lengths), the rest as it is, shifted back, and zero bytes after. */
static void copy_payload(const compact_walker *w, uint8_t *p, size_t payload)
{
	const uint8_t *in = w->in;
	size_t from = NAMES_AT, to = NAMES_AT;

	memcpy(p, in, NAMES_AT);
	for (uint32_t b = 0; b < w->bone_count; b++) {
		uint32_t n = 0;
		size_t used = xnb_7bit_get(in + from, w->size - from, &n);

		memcpy(p + to, in + from + used, n);
		p[to + n] = '\0';
		from += used + n;
		to += (size_t)n + 1;
	}
	memcpy(p + to, in + from, w->size - from);
	memset(p + payload, 0, RT_PACKED_PAD);
}

/* The groups by the layout's rule: kind, lanes, each lane's bone. */
static void fill_groups(const compact_walker *w, rt_group *groups)
{
	uint32_t next[COMPACT_TRACKS] = { 0, 0, 0 }, base[COMPACT_TRACKS], g = 0;

	for (int i = 0; i < COMPACT_TRACKS; i++) {
		unsigned k = compact3_kind_order[i];

		base[k] = g;
		g += (w->kind_count[k] + 3) / 4;
	}
	for (uint32_t i = 0; i < w->group_count; i++) {
		uint32_t first;

		groups[i].kind = compact3_group(w->kind_count, i, &groups[i].used, &first);
		for (int l = 0; l < RT_LANES; l++)
			groups[i].bone[l] = RT_NO_BONE;
	}
	for (uint32_t b = 0; b < w->bone_count; b++) {
		uint16_t desc = compact_descriptor(w, b);

		for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
			if (COMPACT_DESC_KIND(desc, k) != COMPACT_ANIMATED)
				continue;
			groups[base[k] + next[k] / 4].bone[next[k] % 4] = b;
			next[k]++;
		}
	}
}

static void fill_header(const compact_walker *w, const scan3 *sc, unsigned char *block, const layout3 *o, size_t shift)
{
	struct animrt_compact *c = (struct animrt_compact *)(block + o->compact);
	rt_packed *pk = &c->packed;
	uint32_t g = w->group_count, *range_at = (uint32_t *)(void *)(block + o->range_at);
	uint32_t *record_at = (uint32_t *)(void *)(block + o->record_at);
	size_t records = (size_t)w->segment_count * g;

	memset(c, 0, RT_V3_COMPACT_SIZE);
	c->is_packed = true;
	c->version = COMPACT3_READER_VERSION;
	c->bone_count = pk->bone_count = w->bone_count;
	c->rate_hz = pk->rate_hz = w->rate_hz;
	c->sample_count = pk->sample_count = w->sample_count;
	c->segment_count = pk->segment_count = w->segment_count;
	pk->animated_count = w->animated_count;
	pk->duration_s = w->duration_s;
	pk->p = block + o->payload;
	pk->names_at = NAMES_AT;
	pk->descriptors_at = (uint32_t)(w->descriptors_at - shift);
	pk->constants_at = (uint32_t)(pk->descriptors_at + 2 * (size_t)w->bone_count);
	pk->serial = animrt_rt_new_serial();
	c->v3.records_at = (uint32_t)(w->records_at - shift);
	for (uint32_t i = 0; i < g; i++)
		range_at[i] = (uint32_t)(sc->range_at[i] - shift);
	for (size_t i = 0; i < records; i++)
		record_at[i] = (uint32_t)(sc->record_at[i] - w->records_at);
	memcpy(block + o->formats, w->in + w->group_formats_at, g);
	if (g)
		memcpy(block + o->has_raw, sc->has_raw, g);
	c->v3.has_raw = block + o->has_raw;
	c->v3.format = block + o->formats;
	c->v3.range_at = range_at;
	c->v3.record_at = record_at;
	c->group_count = g;
	c->groups = (const rt_group *)(const void *)(block + o->groups);
	fill_groups(w, (rt_group *)(void *)(block + o->groups));
}

static animrt_status load(const uint8_t *data, size_t size, size_t at, const animrt_container *container,
			  const char *reader, uint32_t reader_size, scan3 *sc, animrt_clip **out, animrt_error *err)
{
	compact_walker w;

	compact_walker_read_at(&w, data, size, at);
	if (compact3_walk(&w, scan_visit, sc) != COMPACT_OK) {
		if (sc->is_out_of_memory || w.result == COMPACT_ERR_NOMEM)
			return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "out of memory");
		return animrt_rt_walk_error(&w, err);
	}
	size_t shift = (w.descriptors_at - NAMES_AT) - sc->name_bytes, payload = w.size - shift;
	if (payload > UINT32_MAX - RT_PACKED_PAD)
		return animrt_rt_error_set(err, ANIMRT_ERR_COUNT, (int64_t)at,
					   "a compact payload of %zu bytes is more than this loader indexes", payload);
	bool is_default_reader = reader_size == sizeof COMPACT_READER_NAME_DEFAULT - 1 &&
				 memcmp(reader, COMPACT_READER_NAME_DEFAULT, reader_size) == 0;
	layout3 o = place(&w, payload, reader_size, is_default_reader);
	place_still(&w, size, container->is_zstd, &o);
	unsigned char *block = malloc(o.total);
	if (!block)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", o.total);
	memset(block, 0, o.compact);
	copy_payload(&w, block + o.payload, payload);
	fill_header(&w, sc, block, &o, shift);

	animrt_clip *clip = (animrt_clip *)block;
	clip->container = *container;
	if (is_default_reader) {
		clip->container.reader = COMPACT_READER_NAME_DEFAULT;
	} else {
		char *name = (char *)block + o.reader;

		memcpy(name, reader, reader_size);
		name[reader_size] = '\0';
		clip->container.reader = name;
	}
	clip->duration_s = w.duration_s;
	clip->sequence_count = w.bone_count;
	clip->sequences = NULL;
	clip->compact = (struct animrt_compact *)(block + o.compact);
	clip->grid_rate_hz = w.rate_hz;
	clip->grid_sample_count = w.sample_count;
	clip->is_additive = compact_is_additive(&w);
	clip->has_time_index = false;
	if (o.still && build_still(clip, block, &o)) {
		struct animrt_compact *c = (struct animrt_compact *)(block + o.compact);

		c->v3.still = block + o.still;
		c->v3.still_rotations = o.still_rotations;
		c->v3.still_floats = o.still_floats;
		c->v3.still_scales = o.still_scales;
	}
	*out = clip;
	return ANIMRT_OK;
}

animrt_status animrt_rt_load_v3(const uint8_t *data, size_t size, size_t at, const animrt_container *container,
			 const char *reader, uint32_t reader_size, animrt_clip **out, animrt_error *err)
{
	scan3 sc;
	animrt_status status;

	memset(&sc, 0, sizeof sc);
	status = load(data, size, at, container, reader, reader_size, &sc, out, err);
	free(sc.record_at);
	free(sc.has_raw);
	free(sc.range_at);
	return status;
}
