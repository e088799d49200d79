/*
 * load_packed.c - the loader of reader version 2 for sampling in place:
 * runs the layout's one walker (lib/common/compact_layout.h) over the
 * payload once, checking every byte and decoding no key but to check that
 * a rotation key is no longer than a unit quaternion, then keeps the
 * payload as it is (bone names NUL-terminated) with a fixed header and the
 * bit offset of each animated track's segments (compact.h, rt_packed).
 * Standard C only.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "error.h"

/* What the walk gathers: scratch, released when the loader returns, but
 * for key_at, which moves into the clip. */
typedef struct scan {
	size_t name_bytes;                    /* names NUL-terminated */
	uint32_t *key_at;                     /* animated * segments */
	float *range;                         /* animated * 6: the track's range */
	uint32_t *ordinal;                    /* animated: index among segmented tracks */
	uint32_t segmented;
	bool is_out_of_memory;
} scan;

static bool out_of_memory(scan *sc, compact_walker *w)
{
	sc->is_out_of_memory = true;
	snprintf(w->message, sizeof w->message, "out of memory");
	return false;
}

/* The range and bits a key of animated track `a` in segment s decodes
 * with (FORMAT.md 7.3), and the component a rotation leaves out. */
static void key_dequant(const scan *sc, const compact_walker *w, uint32_t a, uint32_t bone, uint8_t format,
			uint32_t s, const uint32_t cbits[3], float min[3], float step[3], unsigned *bits,
			unsigned *dropped)
{
	const float *range = sc->range + (size_t)a * 6;

	*dropped = COMPACT_DESC_DROPPED(compact_descriptor(w, bone));
	*bits = COMPACT_FORMAT_BITS(format);
	if (*bits == COMPACT_SEGMENTED) {
		const uint8_t *code = w->in + w->segments_at +
				      ((size_t)sc->ordinal[a] * w->segment_count + s) * COMPACT_SEGMENT_CODE_SIZE;
		*bits = code[0] & 31u;
		*dropped = code[0] >> 5;
		for (int c = 0; c < 3; c++) {
			float sub_min, sub_extent;

			compact_subrange(range[c], range[3 + c], code[1 + c], code[4 + c], &sub_min, &sub_extent);
			min[c] = sub_min;
			step[c] = compact_step(sub_extent, cbits[c]);
		}
		return;
	}
	for (int c = 0; c < 3; c++) {
		min[c] = range[c];
		step[c] = *bits == COMPACT_RAW_BITS ? 0 : compact_step(range[3 + c], cbits[c]);
	}
}

static bool scan_visit(void *user, compact_walker *w, compact_value *v)
{
	scan *sc = user;

	switch (v->section) {
	case COMPACT_NAMES:
		sc->name_bytes += (size_t)v->str_size + 1;
		break;
	case COMPACT_FORMATS:
		if (!sc->range) {
			/* The walker has counted the animated tracks by now. */
			size_t n = w->animated_count ? w->animated_count : 1;

			sc->range = malloc(n * 6 * sizeof *sc->range);
			sc->ordinal = malloc(n * sizeof *sc->ordinal);
			if (!sc->range || !sc->ordinal)
				return out_of_memory(sc, w);
		}
		sc->ordinal[v->animated] = sc->segmented;
		sc->segmented += COMPACT_FORMAT_BITS(v->u) == COMPACT_SEGMENTED;
		break;
	case COMPACT_RANGES:
		memcpy(sc->range + (size_t)v->animated * 6, v->f, 6 * sizeof(float));
		break;
	case COMPACT_MASKS:
		if (!sc->key_at) {
			/* The masks fit the input (the walker checked): animated
			 * tracks x segments <= input bytes / 8. */
			sc->key_at = malloc(((size_t)w->animated_count * w->segment_count + 1) * sizeof *sc->key_at);
			if (!sc->key_at)
				return out_of_memory(sc, w);
		}
		if (v->u && (v->sample & (COMPACT_SEGMENT_SAMPLES - 1)) == 0) {
			/* A segment's first key: the walker has counted its bits. */
			uint32_t s = v->sample >> COMPACT_SEGMENT_SHIFT;
			uint64_t at = w->key_bits - v->key_size;

			if (at > UINT32_MAX - 256) {
				snprintf(w->message, sizeof w->message,
					 "the keys take more than 2^32 bits, more than this loader indexes");
				return false;
			}
			sc->key_at[(size_t)v->animated * w->segment_count + s] = (uint32_t)at;
		}
		break;
	case COMPACT_KEYS:
		if (v->track == 1) {
			float min[3], step[3], k[3];
			unsigned bits, dropped;

			key_dequant(sc, w, v->animated, v->bone, v->format, v->segment, v->cbits, min, step, &bits,
				    &dropped);
			for (int c = 0; c < 3; c++)
				k[c] = bits == COMPACT_RAW_BITS ? v->f[c] : compact_dequantize(min[c], step[c], v->q[c]);
			if (k[0] * k[0] + k[1] * k[1] + k[2] * k[2] > 1.0f + COMPACT_ROTATION_SLACK) {
				snprintf(w->message, sizeof w->message,
					 "key %u of the rotation of bone %u is longer than a unit quaternion", v->index,
					 v->bone);
				return false;
			}
		}
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

static animrt_status load(const uint8_t *data, size_t size, size_t at, const animrt_container *container,
			  const char *reader, uint32_t reader_size, scan *sc, animrt_clip **out, animrt_error *err)
{
	compact_walker w;

	memset(&w, 0, sizeof w);
	w.mode = COMPACT_READ;
	w.in = data + at;
	w.size = size - at;
	w.base_offset = (int64_t)at;
	if (compact_walk(&w, scan_visit, sc) != COMPACT_OK) {
		if (sc->is_out_of_memory)
			return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "out of memory");
		return animrt_rt_walk_error(&w, err);
	}

	/* The copy: the names NUL-terminated (never longer than with their
	 * 7-bit lengths), then the rest as it is, shifted back. */
	uint32_t bones = w.bone_count, animated = w.animated_count, segments = w.segment_count;
	size_t names_in_file = w.descriptors_at - NAMES_AT, shift = names_in_file - sc->name_bytes;
	size_t payload = w.size - shift;
	if (payload > UINT32_MAX - RT_PACKED_PAD)
		return animrt_rt_error_set(err, ANIMRT_ERR_COUNT, (int64_t)at,
					"a compact payload of %zu bytes is more than this loader indexes", payload);
	size_t index_count = (size_t)animated * segments;
	size_t off = 0, o_compact, o_index, o_payload, o_reader;

	o_compact = align_up(sizeof(animrt_clip), alignof(struct animrt_compact));
	off = o_compact + RT_PACKED_COMPACT_SIZE;
	o_index = off = align_up(off, alignof(uint32_t));
	off += index_count * sizeof(uint32_t);
	o_payload = off = align_up(off, 16);
	off += payload + RT_PACKED_PAD;
	/* The reader name: the default one needs no copy. */
	bool is_default_reader = reader_size == sizeof COMPACT_READER_NAME_DEFAULT - 1 &&
				 memcmp(reader, COMPACT_READER_NAME_DEFAULT, reader_size) == 0;
	o_reader = off;
	off += is_default_reader ? 0 : (size_t)reader_size + 1;
	unsigned char *block = malloc(off);
	if (!block)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", off);
	memset(block, 0, o_payload);

	uint8_t *p = block + o_payload;
	const uint8_t *in = w.in;
	size_t from = NAMES_AT, to = NAMES_AT;
	memcpy(p, in, NAMES_AT);
	for (uint32_t b = 0; b < bones; b++) {
		uint32_t n = 0;
		size_t used = xnb_7bit_get(in + from, w.size - from, &n);

		memcpy(p + to, in + from + used, n);
		p[to + n] = '\0';
		from += used + n;
		to += (size_t)n + 1;
	}
	memcpy(p + to, in + from, w.size - from);
	memset(p + payload, 0, RT_PACKED_PAD);
	if (index_count)
		memcpy(block + o_index, sc->key_at, index_count * sizeof(uint32_t));

	struct animrt_compact *c = (struct animrt_compact *)(block + o_compact);
	rt_packed *pk = &c->packed;
	c->is_packed = true;
	c->version = 2;
	c->bone_count = bones;
	c->rate_hz = w.rate_hz;
	c->sample_count = w.sample_count;
	c->segment_count = segments;
	pk->p = p;
	pk->bone_count = bones;
	pk->sample_count = w.sample_count;
	pk->segment_count = segments;
	pk->animated_count = animated;
	pk->rate_hz = w.rate_hz;
	pk->duration_s = w.duration_s;
	/* Every offset is within the payload, under 4 GiB (checked above). */
	pk->names_at = NAMES_AT;
	pk->descriptors_at = (uint32_t)(w.descriptors_at - shift);
	pk->constants_at = (uint32_t)(pk->descriptors_at + 2 * (size_t)bones);
	pk->formats_at = (uint32_t)(w.formats_at - shift);
	pk->ranges_at = pk->formats_at + animated;
	pk->segments_at = (uint32_t)(w.segments_at - shift);
	pk->masks_at = (uint32_t)(w.masks_at - shift);
	pk->keys_at = (uint32_t)(pk->masks_at + (((uint64_t)animated * w.sample_count + 7) / 8));
	pk->key_at = (const uint32_t *)(block + o_index);
	pk->serial = animrt_rt_new_serial();

	animrt_clip *clip = (animrt_clip *)block;
	char *name = (char *)block + o_reader;
	clip->container = *container;
	if (is_default_reader) {
		clip->container.reader = COMPACT_READER_NAME_DEFAULT;
	} else {
		memcpy(name, reader, reader_size);
		name[reader_size] = '\0';
		clip->container.reader = name;
	}
	clip->duration_s = w.duration_s;
	clip->sequence_count = bones;
	clip->sequences = NULL;
	clip->compact = c;
	clip->grid_rate_hz = w.rate_hz;
	clip->grid_sample_count = w.sample_count;
	clip->is_additive = compact_is_additive(&w);
	clip->has_time_index = false;
	*out = clip;
	return ANIMRT_OK;
}

animrt_status animrt_rt_load_packed(const uint8_t *data, size_t size, size_t at, const animrt_container *container,
			     const char *reader, uint32_t reader_size, animrt_clip **out, animrt_error *err)
{
	scan sc;
	animrt_status status;

	memset(&sc, 0, sizeof sc);
	status = load(data, size, at, container, reader, reader_size, &sc, out, err);
	free(sc.key_at);
	free(sc.range);
	free(sc.ordinal);
	return status;
}
