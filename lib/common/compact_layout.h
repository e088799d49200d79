/*
 * compact_layout.h - the compact layout (FORMAT.md section 7): reader
 * version 2's sections and version 3's records on them (7.7) in tables,
 * the codecs of their fields, their checks, and one walker that both the
 * writer (formats/xnb, write mode) and the loader (lib/animrt, read mode)
 * run over those tables.  Neither side has a walk of its own: the writer's
 * visitor supplies values, the loader's receives them checked.  Header-only, standard C only, not installed; little-endian, bit
 * fields LSB first.
 */
#ifndef ANIMC_COMPACT_LAYOUT_H
#define ANIMC_COMPACT_LAYOUT_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xnb_layout.h"

#define COMPACT_READER_VERSION 2
/* Reader version 3 (FORMAT.md 7.7): version 2's clip regrouped into one
 * record per four tracks of a kind and segment. */
#define COMPACT3_READER_VERSION 3
/* The compact layout of animc 0.1 (libanimrt 0.3): same reader name, keys
 * packed otherwise.  Refused by name, never misread. */
#define COMPACT_READER_VERSION_OLD 1
/* The type reader a compact file names by default: not RobotGame's, so that
 * an XNA-family runtime refuses it by name instead of misreading it. */
#define COMPACT_READER_NAME_DEFAULT "animc.CompactAnimationReader, animc"
/* Grid samples per segment: one 64-bit key mask per track and segment. */
#define COMPACT_SEGMENT_SHIFT 6
#define COMPACT_SEGMENT_SAMPLES (1u << COMPACT_SEGMENT_SHIFT)
/* Bits per quantised component: 1..19, so that a key (3 components) and
 * its bit offset in a byte fit one 64-bit load; 31 means raw float32. */
#define COMPACT_MAX_BITS 19
#define COMPACT_RAW_BITS 31
/* Grid samples per clip: grid positions stay exact in a float. */
#define COMPACT_MAX_SAMPLES (1u << 24)
/* How far past 1 the squared length of a drop-W rotation may be (rounding
 * of its quantised components); W is then 0. */
#define COMPACT_ROTATION_SLACK (1.0f / 1024)

/* Track kinds of the descriptor, 2 bits per track (translation, rotation,
 * scale in the clip model's order). */
enum compact_kind {
	COMPACT_ABSENT = 0,    /* no track: identity, not animated */
	COMPACT_IDENTITY = 1,  /* a track whose value is identity: no data */
	COMPACT_CONSTANT = 2,  /* one value */
	COMPACT_ANIMATED = 3   /* keys on the grid */
};
#define COMPACT_TRACKS 3
#define COMPACT_DESC_KIND(desc, track) ((unsigned)((desc) >> (2 * (track))) & 3u)
/* Bit 6 + track: that track's constant is float32 (else f16, or 3 x u16). */
#define COMPACT_DESC_F32(track) (1u << (6 + (track)))
/* Bits 9-10: the component a stored rotation leaves out (0 x .. 3 w); it is
 * the largest of every key, kept >= 0, and rebuilt from the other three. */
#define COMPACT_DESC_DROPPED(desc) ((unsigned)((desc) >> 9) & 3u)
#define COMPACT_DESC_DROP(component) ((uint32_t)(component) << 9)
/* Bit 11: the bone's tracks are differences from a reference pose (an
 * additive clip, animc build --additive-reference); the writer sets it on
 * every bone of such a clip. */
#define COMPACT_DESC_ADDITIVE (1u << 11)
/* Bits 12-14: component c (x y z) of a constant translation is 0 and
 * takes no bytes (most bone offsets lie along one or two axes). */
#define COMPACT_DESC_ZERO(component) (1u << (12 + (component)))
#define COMPACT_DESC_ZEROS 0x7000u
#define COMPACT_DESC_RESERVED 0x8000u

/*
 * Format byte of an animated track: bits per component (low 5 bits: 1..19,
 * 31 raw float32, or 0 when each segment has its own bits and range), the
 * clip range kind (bits 5-6), bit 7 zero.
 */
enum compact_range {
	COMPACT_RANGE_NONE = 0,  /* rotation only: components span [-1, 1] */
	COMPACT_RANGE_F16 = 1,   /* f16 min[3], f16 extent[3] */
	COMPACT_RANGE_F32 = 2,   /* f32 min[3], f32 extent[3] */
	COMPACT_RANGE_U8 = 3     /* rotation only: u8 min[3], u8 extent[3] on [-1, 1] */
};
#define COMPACT_SEGMENTED 0
#define COMPACT_FORMAT(bits, range) ((uint8_t)((bits) | (range) << 5))
#define COMPACT_FORMAT_BITS(f) ((unsigned)(f) & 31u)
#define COMPACT_FORMAT_RANGE(f) (((unsigned)(f) >> 5) & 3u)

/* Bytes of a range of each kind. */
static inline unsigned compact_range_size(unsigned range)
{
	static const unsigned size[4] = { 0, 12, 24, 6 };

	return size[range & 3u];
}

/* A segment's own bits and range: u8 bits (low 5 bits; for rotations the
 * component left out in bits 5-6), u8 min[3], u8 extent[3], the range a
 * part of the clip range: min + extent * m / 256, extent * (x + 1) / 256,
 * with m + x <= 255. */
#define COMPACT_SEGMENT_CODE_SIZE 7

/* A part of a range in 256ths, as the runtime computes it. */
static inline void compact_subrange(float min, float extent, uint32_t m, uint32_t x, float *sub_min,
				    float *sub_extent)
{
	*sub_min = min + extent * ((float)m * (1.0f / 256.0f));
	*sub_extent = extent * ((float)(x + 1) * (1.0f / 256.0f));
}

/* A u8 range on [-1, 1]: -1 + m / 128, (x + 1) / 128. */
static inline void compact_unit_range(uint32_t m, uint32_t x, float *min, float *extent)
{
	*min = -1.0f + (float)m * (1.0f / 128.0f);
	*extent = (float)(x + 1) * (1.0f / 128.0f);
}

/*
 * The bits of each component of a key with `bits` per component (the
 * format's or the segment's), whose components span extent[3] (>= 0) as
 * the decoder computes them (the clip range's extents, or the segment's
 * part of them): a component whose extent doubles d times within the
 * largest takes d bits fewer, at least 1, so that its step stays about the
 * largest one's.  d comes from the IEEE fields alone (positive floats
 * order as their bits): the exponent difference, less one where the
 * component's mantissa field is the larger; exact for normal extents.
 * Raw float32 keys: 32 each.  Returns the key's bits.
 */
static inline uint32_t compact_float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Bits one component of `bits` gives up, its extent's bits u beside the
 * largest one's, top (compact_component_bits). */
static inline unsigned compact_bits_kept(unsigned bits, uint32_t u, uint32_t top)
{
	int d = (int)(top >> 23) - (int)(u >> 23) - ((u & 0x7FFFFFu) > (top & 0x7FFFFFu));
	int cap = (int)bits - 1;

	return bits - (unsigned)(d <= 0 ? 0 : d < cap ? d : cap);
}

static inline unsigned compact_component_bits(unsigned bits, const float extent[3], unsigned out[3])
{
	if (bits == COMPACT_RAW_BITS) {
		out[0] = out[1] = out[2] = 32;
		return 96;
	}
	uint32_t u0 = compact_float_bits(extent[0]), u1 = compact_float_bits(extent[1]);
	uint32_t u2 = compact_float_bits(extent[2]), top = u0 > u1 ? u0 : u1;

	top = top > u2 ? top : u2;
	out[0] = compact_bits_kept(bits, u0, top);
	out[1] = compact_bits_kept(bits, u1, top);
	out[2] = compact_bits_kept(bits, u2, top);
	return out[0] + out[1] + out[2];
}

/* ------------------------------------------------------------ value codecs */

/* IEEE binary16 to float (exact). */
static inline float compact_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 31u, man = h & 0x3FFu, bits;
	float f;

	if (exp == 0) {
		/* Zero or subnormal: man * 2^-24. */
		f = (float)man * (1.0f / 16777216.0f);
		return sign ? -f : f;
	}
	if (exp == 31)
		bits = sign | 0x7F800000u | man << 13;
	else
		bits = sign | (exp + 112) << 23 | man << 13;
	memcpy(&f, &bits, 4);
	return f;
}

/* Float to binary16, round to nearest even; f finite, |f| <= 65504. */
static inline uint16_t compact_f16_nearest(float f)
{
	uint32_t x, i;
	uint16_t sign;

	memcpy(&x, &f, 4);
	sign = (uint16_t)((x >> 16) & 0x8000u);
	x &= 0x7FFFFFFFu;
	if (x >= 0x38800000u) {
		/* Normal: rebias the exponent, round 23 mantissa bits to 10. */
		uint32_t m = x - (112u << 23);

		return (uint16_t)(sign | ((m + 0xFFFu + ((m >> 13) & 1u)) >> 13));
	}
	/* Subnormal (or the smallest normal after rounding): f * 2^24. */
	float a = fabsf(f) * 16777216.0f, frac;
	i = (uint32_t)a;
	frac = a - (float)i;
	if (frac > 0.5f || (frac == 0.5f && (i & 1u)))
		i++;
	return (uint16_t)(sign | i);
}

/* Rounding of compact_f32_to_f16. */
enum compact_round { COMPACT_ROUND_NEAREST, COMPACT_ROUND_DOWN, COMPACT_ROUND_UP };

/* Float to binary16, rounded as asked; false when f is not finite or the
 * result would not be. */
static inline bool compact_f32_to_f16(float f, enum compact_round round, uint16_t *out)
{
	uint16_t h;
	float v;

	if (!isfinite(f) || fabsf(f) > 65504.0f)
		return false;
	h = compact_f16_nearest(f);
	v = compact_f16_to_f32(h);
	if (round == COMPACT_ROUND_UP && v < f)
		h = (h & 0x8000u) ? (h == 0x8000u ? 0x0001u : (uint16_t)(h - 1)) : (uint16_t)(h + 1);
	else if (round == COMPACT_ROUND_DOWN && v > f)
		h = (h & 0x8000u) ? (uint16_t)(h + 1) : (h == 0 ? 0x8001u : (uint16_t)(h - 1));
	if ((h & 0x7FFFu) > 0x7BFFu)
		return false;
	*out = h;
	return true;
}

/* A constant rotation component in 16 bits: [-1, 1] on 65535 steps. */
static inline float compact_u16_to_unit(uint16_t q)
{
	return (float)q * (2.0f / 65535.0f) - 1.0f;
}

static inline uint16_t compact_unit_to_u16(float v)
{
	float q = (v + 1.0f) * (65535.0f / 2.0f) + 0.5f;

	return q <= 0 ? 0 : q >= 65535.0f ? 65535 : (uint16_t)q;
}

/* W of a drop-W rotation (W >= 0), in this order of operations. */
static inline float compact_rotation_w(float x, float y, float z)
{
	float n = x * x + y * y + z * z;

	return n < 1.0f ? sqrtf(1.0f - n) : 0.0f;
}

/* The step of a quantised component: extent * (1 / (2^bits - 1)), the
 * reciprocal rounded to float once (a multiplication where a sampler
 * works out a segment's steps on every sample), bits 1 to 19. */
#define COMPACT_INV_LEVELS(b) ((float)(1.0 / (double)((1u << (b)) - 1u)))
static inline float compact_step(float extent, unsigned bits)
{
	static const float inv_levels[COMPACT_MAX_BITS + 1] = {
		0, COMPACT_INV_LEVELS(1), COMPACT_INV_LEVELS(2), COMPACT_INV_LEVELS(3), COMPACT_INV_LEVELS(4),
		COMPACT_INV_LEVELS(5), COMPACT_INV_LEVELS(6), COMPACT_INV_LEVELS(7), COMPACT_INV_LEVELS(8),
		COMPACT_INV_LEVELS(9), COMPACT_INV_LEVELS(10), COMPACT_INV_LEVELS(11), COMPACT_INV_LEVELS(12),
		COMPACT_INV_LEVELS(13), COMPACT_INV_LEVELS(14), COMPACT_INV_LEVELS(15), COMPACT_INV_LEVELS(16),
		COMPACT_INV_LEVELS(17), COMPACT_INV_LEVELS(18), COMPACT_INV_LEVELS(19),
	};

	return extent * inv_levels[bits <= COMPACT_MAX_BITS ? bits : 0];
}

/* A quantised component: min + q * step, in float. */
static inline float compact_dequantize(float min, float step, uint32_t q)
{
	return min + (float)q * step;
}

/* -------------------------------------------------------------- sections */

enum compact_section {
	COMPACT_SEQUENCE_COUNT,
	COMPACT_DURATION,
	COMPACT_RATE,
	COMPACT_SAMPLE_COUNT,
	COMPACT_NAMES,
	COMPACT_DESCRIPTORS,
	COMPACT_CONSTANTS,
	COMPACT_FORMATS,
	COMPACT_RANGES,
	COMPACT_SEGMENTS,
	COMPACT_MASKS,
	COMPACT_KEYS,
	COMPACT_SECTION_COUNT,
	/* Reader version 3's own sections, after version 2's first seven. */
	COMPACT_GROUP_FORMATS = COMPACT_SECTION_COUNT,
	COMPACT_GROUP_RANGES,
	COMPACT_RECORDS
};
#define COMPACT3_SECTION_COUNT 10

/* How an element is coded. */
enum compact_codec {
	COMPACT_U32,       /* uint32 */
	COMPACT_F32,       /* float32 */
	COMPACT_STRING,    /* 7-bit encoded length, UTF-8 bytes */
	COMPACT_U16,       /* uint16 */
	COMPACT_CONSTANT_VALUE, /* by its descriptor: f16 x3, f32 x3, u16 x3, f32 x4 */
	COMPACT_U8,        /* uint8 */
	COMPACT_RANGE_VALUE,    /* by its format byte: nothing, f16 x6, f32 x6, u8 x6 */
	COMPACT_SEGMENT_CODES,  /* segmented tracks: 7 bytes per segment */
	COMPACT_MASK_BITS, /* N bits per animated track */
	COMPACT_KEY_BITS,  /* keys of each animated track, 3 x bits each */
	COMPACT_GROUP_FORMAT,  /* version 3: uint8 per group */
	COMPACT_GROUP_RANGE,   /* version 3: by the group format, for the used lanes */
	COMPACT_RECORD         /* version 3: codes, masks, sub-ranges, keys */
};

/* How many elements a section has. */
enum compact_count {
	COMPACT_ONE,
	COMPACT_PER_BONE,
	COMPACT_PER_CONSTANT,   /* tracks of kind COMPACT_CONSTANT, bone order, T R S */
	COMPACT_PER_ANIMATED,   /* tracks of kind COMPACT_ANIMATED, bone order, T R S */
	COMPACT_PER_SEGMENT,    /* segmented animated tracks x segments */
	COMPACT_PER_SAMPLE,     /* animated tracks x grid samples (bits) */
	COMPACT_PER_KEY,        /* the set bits of the masks (keys) */
	COMPACT_PER_GROUP,      /* version 3: groups of four animated tracks of a kind */
	COMPACT_PER_RECORD      /* version 3: segments x groups */
};

/* The sections both reader versions open with: the counts, the grid,
 * the bones' names and descriptors, the constant tracks' values. */
#define COMPACT_HEAD_SECTIONS                                                                            \
	{ COMPACT_SEQUENCE_COUNT, "the sequence count", COMPACT_U32, COMPACT_ONE },                       \
	{ COMPACT_DURATION, "the clip duration", COMPACT_F32, COMPACT_ONE },                              \
	{ COMPACT_RATE, "the grid rate", COMPACT_F32, COMPACT_ONE },                                      \
	{ COMPACT_SAMPLE_COUNT, "the grid sample count", COMPACT_U32, COMPACT_ONE },                      \
	{ COMPACT_NAMES, "a bone name", COMPACT_STRING, COMPACT_PER_BONE },                               \
	{ COMPACT_DESCRIPTORS, "a track descriptor", COMPACT_U16, COMPACT_PER_BONE },                     \
	{ COMPACT_CONSTANTS, "a constant track value", COMPACT_CONSTANT_VALUE, COMPACT_PER_CONSTANT }

/* The layout, in file order.  `what` names the field in messages. */
static const struct compact_section_desc {
	enum compact_section id;
	const char *what;
	enum compact_codec codec;
	enum compact_count count;
} compact_sections[COMPACT_SECTION_COUNT] = {
	COMPACT_HEAD_SECTIONS,
	{ COMPACT_FORMATS, "a track format", COMPACT_U8, COMPACT_PER_ANIMATED },
	{ COMPACT_RANGES, "a track range", COMPACT_RANGE_VALUE, COMPACT_PER_ANIMATED },
	{ COMPACT_SEGMENTS, "a segment's bits and range", COMPACT_SEGMENT_CODES, COMPACT_PER_SEGMENT },
	{ COMPACT_MASKS, "the key masks", COMPACT_MASK_BITS, COMPACT_PER_SAMPLE },
	{ COMPACT_KEYS, "the keys", COMPACT_KEY_BITS, COMPACT_PER_KEY },
};

/* Reader version 3 (FORMAT.md 7.7): version 2's head sections, then the
 * groups' formats and ranges and the records. */
static const struct compact_section_desc compact3_sections[COMPACT3_SECTION_COUNT] = {
	COMPACT_HEAD_SECTIONS,
	{ COMPACT_GROUP_FORMATS, "a group format", COMPACT_GROUP_FORMAT, COMPACT_PER_GROUP },
	{ COMPACT_GROUP_RANGES, "a group's ranges", COMPACT_GROUP_RANGE, COMPACT_PER_GROUP },
	{ COMPACT_RECORDS, "a record", COMPACT_RECORD, COMPACT_PER_RECORD },
};

/* ------------------------------------------------- version 3: groups */

#define COMPACT3_LANES 4
/* Group format: bits 0-1 the range kind, bit 2 records carry sub-ranges. */
enum compact3_range {
	COMPACT3_RANGE_U8 = 0,    /* rotation groups: u8 codes on [-1, 1] */
	COMPACT3_RANGE_F16 = 1,
	COMPACT3_RANGE_F32 = 2,
	COMPACT3_RANGE_NONE = 3   /* rotation groups: every lane -1, extent 2; no bytes */
};
#define COMPACT3_FORMAT_RANGE(f) ((unsigned)(f) & 3u)
#define COMPACT3_FORMAT_SUB 4u
#define COMPACT3_FORMAT_RESERVED 0xF8u
/* A record's sub-ranges, at most: u8 m[3][4], x[3][4] (6 bytes a used lane). */
#define COMPACT3_SUB_SIZE 24
/* A record's code bytes: bits (low 5 bits), a rotation's left-out
 * component (bits 5-6). */
#define COMPACT3_CODE_BITS(b) ((unsigned)(b) & 31u)
#define COMPACT3_CODE_DROPPED(b) (((unsigned)(b) >> 5) & 3u)

/* The kinds in group order: rotations, translations, scales. */
static const unsigned compact3_kind_order[COMPACT_TRACKS] = { 1, 0, 2 };

/* Groups of animated tracks, count[kind] of each kind (T R S). */
static inline uint32_t compact3_group_count(const uint32_t count[COMPACT_TRACKS])
{
	return (count[0] + 3) / 4 + (count[1] + 3) / 4 + (count[2] + 3) / 4;
}

/* Group g's kind, its used lanes, and its lane 0's index among the tracks
 * of its kind (bone order); g < compact3_group_count(count). */
static inline unsigned compact3_group(const uint32_t count[COMPACT_TRACKS], uint32_t g, uint32_t *used,
				      uint32_t *first)
{
	for (int i = 0; i < COMPACT_TRACKS; i++) {
		unsigned k = compact3_kind_order[i];
		uint32_t n = (count[k] + 3) / 4;

		if (g < n) {
			*first = 4 * g;
			*used = count[k] - 4 * g < 4 ? count[k] - 4 * g : 4;
			return k;
		}
		g -= n;
	}
	*used = *first = 0;
	return 0;
}

/* Bytes of a group's ranges of format f with `used` lanes. */
static inline size_t compact3_range_size(unsigned f, uint32_t used)
{
	static const unsigned per_lane[4] = { 6, 12, 24, 0 };   /* kind NONE: none */

	return (size_t)per_lane[COMPACT3_FORMAT_RANGE(f)] * used;
}

/* Lane l's range (min[3], extent[3]) from its group's ranges at r. */
static inline void compact3_lane_range(const uint8_t *r, unsigned f, uint32_t used, uint32_t l, float min[3],
				       float extent[3])
{
	for (uint32_t c = 0; c < 3; c++) {
		size_t i = (size_t)c * used + l, n = (size_t)3 * used;

		switch (COMPACT3_FORMAT_RANGE(f)) {
		case COMPACT3_RANGE_U8:
			compact_unit_range(r[i], r[n + i], &min[c], &extent[c]);
			break;
		case COMPACT3_RANGE_NONE:
			min[c] = -1.0f;
			extent[c] = 2.0f;
			break;
		case COMPACT3_RANGE_F16:
			min[c] = compact_f16_to_f32((uint16_t)(r[2 * i] | r[2 * i + 1] << 8));
			extent[c] = compact_f16_to_f32((uint16_t)(r[2 * (n + i)] | r[2 * (n + i) + 1] << 8));
			break;
		default:
			min[c] = xnb_get_f32(r + 4 * i);
			extent[c] = xnb_get_f32(r + 4 * (n + i));
			break;
		}
	}
}

/* ------------------------------------------------ version 3: records */

/* Rows of segment s of a grid of n samples. */
static inline uint32_t compact3_rows(uint32_t n, uint32_t s)
{
	uint32_t left = n - (s << COMPACT_SEGMENT_SHIFT);

	return left < COMPACT_SEGMENT_SAMPLES ? left : COMPACT_SEGMENT_SAMPLES;
}

/* Where the parts of a record lie (byte offsets from its start): a code
 * byte per used lane, the used lanes' masks, their sub-ranges (m[3][used]
 * then x[3][used]) when the group has them, the keys. */
typedef struct compact3_shape {
	uint32_t rows, used, mask_bytes, masks_at, sub_at, keys_at;
} compact3_shape;

static inline compact3_shape compact3_shape_of(uint32_t rows, uint32_t used, unsigned f)
{
	compact3_shape sh;

	sh.rows = rows;
	sh.used = used;
	sh.mask_bytes = (rows + 7) / 8;
	sh.masks_at = used;
	sh.sub_at = sh.masks_at + sh.mask_bytes * used;
	sh.keys_at = sh.sub_at + ((f & COMPACT3_FORMAT_SUB) ? 6 * used : 0);
	return sh;
}

/* Lane l's key mask in a record (l < used). */
static inline uint64_t compact3_mask(const uint8_t *rec, const compact3_shape *sh, uint32_t l)
{
	uint64_t m = 0;

	for (uint32_t i = 0; i < sh->mask_bytes; i++)
		m |= (uint64_t)rec[sh->masks_at + sh->mask_bytes * l + i] << (8 * i);
	return m;
}

/* Lane l's sub-range codes m and x of component c in a record. */
static inline uint32_t compact3_sub_m(const uint8_t *rec, const compact3_shape *sh, uint32_t c, uint32_t l)
{
	return rec[sh->sub_at + c * sh->used + l];
}

static inline uint32_t compact3_sub_x(const uint8_t *rec, const compact3_shape *sh, uint32_t c, uint32_t l)
{
	return rec[sh->sub_at + (3 + c) * sh->used + l];
}

/*
 * How lane l's keys decode in a record: its range in the segment (the
 * group's, or its sub-range), bits per component (cbits), min and step per
 * component; returns the key's bits (96 for float32 keys, whose min and
 * step are unused).  `range` the group's ranges, rec the record.
 */
static inline unsigned compact3_lane_decode(const uint8_t *range, unsigned f, uint32_t used, uint32_t l,
					    const uint8_t *rec, const compact3_shape *sh, unsigned cbits[3],
					    float min[3], float step[3])
{
	unsigned bits = COMPACT3_CODE_BITS(rec[l]), kb;
	float extent[3];

	compact3_lane_range(range, f, used, l, min, extent);
	if (f & COMPACT3_FORMAT_SUB)
		for (uint32_t c = 0; c < 3; c++)
			compact_subrange(min[c], extent[c], compact3_sub_m(rec, sh, c, l), compact3_sub_x(rec, sh, c, l),
					 &min[c], &extent[c]);
	kb = compact_component_bits(bits, extent, cbits);
	for (int c = 0; c < 3; c++)
		step[c] = bits == COMPACT_RAW_BITS ? 0 : compact_step(extent[c], cbits[c]);
	return kb;
}

/* --------------------------------------------------------------- walker */

typedef enum compact_mode { COMPACT_READ, COMPACT_WRITE } compact_mode;

typedef enum compact_result {
	COMPACT_OK = 0,
	COMPACT_ERR_TRUNCATED,   /* the data ends inside a field */
	COMPACT_ERR_COUNT,       /* a count out of range or beyond the bytes left */
	COMPACT_ERR_VALUE,       /* a value the layout does not allow */
	COMPACT_ERR_STRING,      /* a name not UTF-8, or holding NUL */
	COMPACT_ERR_TRAILING,    /* bytes after the keys */
	COMPACT_ERR_NOMEM,       /* write mode: the output could not grow */
	COMPACT_ERR_VISITOR      /* the visitor stopped the walk (its message) */
} compact_result;

/*
 * One element as the walker and a visitor exchange it.  Write mode: the
 * walker sets where (section, index, bone, track, animated) and the
 * visitor fills the value; read mode: the walker fills all of it, checked.
 */
typedef struct compact_value {
	enum compact_section section;
	uint32_t index;       /* element within its section */
	uint32_t bone;        /* per-bone and per-track sections */
	uint32_t track;       /* per-track sections: 0 translation, 1 rotation, 2 scale */
	uint32_t animated;    /* FORMATS..KEYS: the animated track's index */
	uint32_t sample;      /* MASKS: grid sample; KEYS: the key's index in its track */
	uint16_t descriptor;  /* CONSTANTS: the bone's descriptor */
	uint8_t format;       /* RANGES..KEYS: the track's format byte */
	uint32_t segment;     /* SEGMENTS, KEYS: the segment */
	uint32_t bits;        /* KEYS: bits per component of this key (31: raw) */
	uint32_t cbits[3];    /* KEYS: the bits of each component (compact_component_bits) */
	uint32_t key_size;    /* MASKS (a key's bit), KEYS: the key's bits */
	uint32_t x[3];        /* SEGMENTS: extent codes (q: min codes, u: bits) */
	uint64_t bit;         /* MASKS, KEYS: the element's first bit, from the section start */
	uint32_t u;           /* U32, U16, U8 fields; MASKS: the bit */
	uint32_t q[3];        /* KEYS: quantised components */
	float f[6];           /* F32; constants (x y z, or x y z w); range min[3]
			       * extent[3] (decoded); raw keys (3) */
	const char *str;      /* NAMES (read: points into the input, not terminated) */
	uint32_t str_size;
	/* Version 3.  GROUP_FORMATS, GROUP_RANGES, RECORDS: group `index` has
	 * `used` lanes of kind `track`, lane 0 the track `animated` of its kind
	 * (bone order); `format` its group format. */
	uint32_t used;
	/* GROUP_RANGES: each used lane's range (min[3], extent[3]) and, for
	 * the u8 kind, its codes (m[3], x[3]). */
	float lane_range[COMPACT3_LANES][6];
	uint8_t lane_codes[COMPACT3_LANES][6];
	/* RECORDS, of segment `segment`: code bytes, masks, sub-ranges (m[3][4]
	 * then x[3][4]); write: each used lane's keys in the record, 3 codes a
	 * key (float32 bits at 31 bits); read: where the record lies. */
	uint8_t code[COMPACT3_LANES];
	uint64_t mask[COMPACT3_LANES];
	uint8_t sub[COMPACT3_SUB_SIZE];
	const uint32_t *lane_q[COMPACT3_LANES];
	size_t record_at, record_size;
} compact_value;

/* Returns false to stop the walk; it may set w->message first. */
struct compact_walker;
typedef bool (*compact_visit_fn)(void *user, struct compact_walker *w, compact_value *v);

typedef struct compact_walker {
	compact_mode mode;
	const uint8_t *in;       /* read: the payload */
	uint8_t *out;            /* write: the payload so far (malloc'd, grows) */
	size_t cap;
	size_t size;             /* read: payload bytes; write: bytes written */
	size_t pos;              /* next byte */
	uint64_t bit;            /* bit sections: next bit, from the section start */
	int64_t base_offset;     /* the payload's offset in the file, for messages */
	/* What the walk has seen so far. */
	uint32_t bone_count, sample_count, constant_count, animated_count;
	float duration_s, rate_hz;
	size_t descriptors_at, formats_at, segments_at, masks_at;
	uint32_t segment_count, segmented_count;
	uint64_t key_count, key_bits;
	/* Version 3: animated tracks of each kind (T R S), groups, where the
	 * sections start, and each group's ranges (the walk's own, freed when
	 * it returns). */
	bool is_v3;
	uint32_t kind_count[COMPACT_TRACKS];
	uint32_t group_count;
	size_t group_formats_at, group_ranges_at, records_at;
	size_t *group_range_at;
	/* The failure: status, file offset, message. */
	compact_result result;
	int64_t error_offset;
	char message[200];
} compact_walker;

/* A walker that reads the payload of the `size`-byte file `data` from
 * byte `at` on, its offsets counted from the file's start. */
static inline void compact_walker_read_at(compact_walker *w, const uint8_t *data, size_t size, size_t at)
{
	memset(w, 0, sizeof *w);
	w->mode = COMPACT_READ;
	w->in = data + at;
	w->size = size - at;
	w->base_offset = (int64_t)at;
}

static inline bool compact_fail(compact_walker *w, compact_result r, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline bool compact_fail(compact_walker *w, compact_result r, size_t at, const char *fmt, ...)
{
	va_list ap;

	if (w->result != COMPACT_OK)
		return false;
	w->result = r;
	w->error_offset = w->base_offset + (int64_t)at;
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof w->message, fmt, ap);
	va_end(ap);
	return false;
}

/* The visitor stopped the walk with its own message in w->message. */
static inline bool compact_visitor_failed(compact_walker *w, size_t at)
{
	if (w->result == COMPACT_OK) {
		w->result = COMPACT_ERR_VISITOR;
		w->error_offset = w->base_offset + (int64_t)at;
	}
	return false;
}

static inline const uint8_t *compact_bytes(const compact_walker *w)
{
	return w->mode == COMPACT_READ ? w->in : w->out;
}

/* Room for n more bytes: read, they are there; write, the buffer grows. */
static inline bool compact_need(compact_walker *w, size_t n, const char *what)
{
	if (w->mode == COMPACT_READ) {
		if (n > w->size - w->pos)
			return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos,
					    "the data ends inside %s (%zu bytes needed, %zu left)", what, n,
					    w->size - w->pos);
		return true;
	}
	if (n > w->cap - w->pos) {
		size_t cap = w->cap ? w->cap : 256;
		uint8_t *grown;

		while (n > cap - w->pos) {
			if (cap > SIZE_MAX / 2)
				return compact_fail(w, COMPACT_ERR_NOMEM, w->pos, "the payload is too large");
			cap *= 2;
		}
		grown = (uint8_t *)realloc(w->out, cap);
		if (!grown)
			return compact_fail(w, COMPACT_ERR_NOMEM, w->pos, "out of memory");
		memset(grown + w->cap, 0, cap - w->cap);
		w->out = grown;
		w->cap = cap;
	}
	return true;
}

static inline bool compact_io_bytes(compact_walker *w, uint8_t *p, size_t n, const char *what)
{
	if (!compact_need(w, n, what))
		return false;
	if (w->mode == COMPACT_READ)
		memcpy(p, w->in + w->pos, n);
	else
		memcpy(w->out + w->pos, p, n);
	w->pos += n;
	if (w->mode == COMPACT_WRITE && w->pos > w->size)
		w->size = w->pos;
	return true;
}

static inline bool compact_io_u16(compact_walker *w, uint32_t *v, const char *what)
{
	uint8_t b[2] = { (uint8_t)*v, (uint8_t)(*v >> 8) };

	if (!compact_io_bytes(w, b, 2, what))
		return false;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	return true;
}

static inline bool compact_io_u32(compact_walker *w, uint32_t *v, const char *what)
{
	uint8_t b[4];

	xnb_put_u32(b, *v);
	if (!compact_io_bytes(w, b, 4, what))
		return false;
	*v = xnb_get_u32(b);
	return true;
}

static inline bool compact_io_f32(compact_walker *w, float *v, const char *what)
{
	uint8_t b[4];

	xnb_put_f32(b, *v);
	if (!compact_io_bytes(w, b, 4, what))
		return false;
	*v = xnb_get_f32(b);
	return true;
}

static inline bool compact_finite(compact_walker *w, float v, size_t at, const char *what)
{
	if (!isfinite(v))
		return compact_fail(w, COMPACT_ERR_VALUE, at, "%s is %s", what, isnan(v) ? "NaN" : "infinite");
	return true;
}

/* A finite f16; write mode rounds to nearest (the visitor gives values that
 * are f16 already when it needs exactness). */
static inline bool compact_io_f16(compact_walker *w, float *v, const char *what)
{
	size_t at = w->pos;
	uint16_t h = 0;
	uint32_t u;

	if (w->mode == COMPACT_WRITE && !compact_f32_to_f16(*v, COMPACT_ROUND_NEAREST, &h))
		return compact_fail(w, COMPACT_ERR_VALUE, at, "%s %g does not fit an f16", what, (double)*v);
	u = h;
	if (!compact_io_u16(w, &u, what))
		return false;
	*v = compact_f16_to_f32((uint16_t)u);
	return compact_finite(w, *v, at, what);
}

/* n bits (<= 32), LSB first, at w->bit from the section start w->pos. */
static inline bool compact_io_bits(compact_walker *w, uint32_t *v, unsigned n, const char *what)
{
	uint64_t end = w->bit + n;
	size_t bytes = (size_t)((end + 7) / 8);

	if (w->mode == COMPACT_READ) {
		if (bytes > w->size - w->pos)
			return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos + (size_t)(w->bit / 8),
					    "the data ends inside %s", what);
		uint32_t r = 0;
		for (unsigned i = 0; i < n; i++) {
			uint64_t b = w->bit + i;
			r |= (uint32_t)((w->in[w->pos + (size_t)(b / 8)] >> (b % 8)) & 1u) << i;
		}
		*v = r;
	} else {
		if (!compact_need(w, bytes, what))
			return false;
		for (unsigned i = 0; i < n; i++) {
			uint64_t b = w->bit + i;
			if ((*v >> i) & 1u)
				w->out[w->pos + (size_t)(b / 8)] |= (uint8_t)(1u << (b % 8));
		}
		if (w->pos + bytes > w->size)
			w->size = w->pos + bytes;
	}
	w->bit = end;
	return true;
}

/* End of a bit section: the padding bits are zero; move to the next byte. */
static inline bool compact_end_bits(compact_walker *w, const char *what)
{
	size_t bytes = (size_t)((w->bit + 7) / 8);

	if (w->mode == COMPACT_READ && w->bit % 8) {
		uint8_t last = w->in[w->pos + bytes - 1];
		if (last >> (w->bit % 8))
			return compact_fail(w, COMPACT_ERR_VALUE, w->pos + bytes - 1,
					    "the padding bits after %s are not zero", what);
	}
	w->pos += bytes;
	w->bit = 0;
	if (w->mode == COMPACT_WRITE && w->pos > w->size)
		w->size = w->pos;
	return true;
}

static inline uint16_t compact_descriptor(const compact_walker *w, uint32_t bone)
{
	const uint8_t *p = compact_bytes(w) + w->descriptors_at + 2 * (size_t)bone;

	return (uint16_t)(p[0] | p[1] << 8);
}

/* An additive clip: a bone's descriptor says so (after the walk read them). */
static inline bool compact_is_additive(const compact_walker *w)
{
	for (uint32_t b = 0; b < w->bone_count; b++)
		if (compact_descriptor(w, b) & COMPACT_DESC_ADDITIVE)
			return true;
	return false;
}

static inline uint8_t compact_format(const compact_walker *w, uint32_t animated)
{
	return compact_bytes(w)[w->formats_at + animated];
}

/* Is grid sample `sample` a key of animated track `t`?  (After MASKS.) */
static inline bool compact_mask_bit(const compact_walker *w, uint32_t t, uint32_t sample)
{
	uint64_t b = (uint64_t)t * w->sample_count + sample;

	return (compact_bytes(w)[w->masks_at + (size_t)(b / 8)] >> (b % 8)) & 1u;
}

/* Visit one element: write mode asks the visitor first, read mode after. */
#define COMPACT_VISIT(w, visit, user, v, io)                              \
	do {                                                              \
		if ((w)->mode == COMPACT_WRITE && !(visit)((user), (w), (v))) \
			return compact_visitor_failed((w), (w)->pos); \
		if (!(io))                                                \
			return false;                                     \
		if ((w)->mode == COMPACT_READ && !(visit)((user), (w), (v))) \
			return compact_visitor_failed((w), (w)->pos); \
	} while (0)

static inline bool compact_walk_scalar(compact_walker *w, const struct compact_section_desc *s,
				       compact_visit_fn visit, void *user)
{
	compact_value v;
	size_t at = w->pos;

	memset(&v, 0, sizeof v);
	v.section = s->id;
	if (s->codec == COMPACT_U32) {
		COMPACT_VISIT(w, visit, user, &v, compact_io_u32(w, &v.u, s->what));
		if (s->id == COMPACT_SEQUENCE_COUNT) {
			/* Each bone takes at least 3 bytes: name length, descriptor. */
			if (v.u > INT32_MAX || (w->mode == COMPACT_READ && v.u > (w->size - w->pos) / 3))
				return compact_fail(w, COMPACT_ERR_COUNT, at,
						    "sequence count %u cannot fit in the %zu bytes left", v.u,
						    w->size - w->pos);
			w->bone_count = v.u;
		} else {
			double grid_end = (double)w->duration_s * w->rate_hz + 1.0;
			if (v.u < 1 || v.u > COMPACT_MAX_SAMPLES || (double)(v.u - 1) > ceil(grid_end * (1 + 1e-6)))
				return compact_fail(w, COMPACT_ERR_COUNT, at,
						    "grid sample count %u: it must be 1 to %u and fit the duration "
						    "(%g s at %g Hz)", v.u, COMPACT_MAX_SAMPLES,
						    (double)w->duration_s, (double)w->rate_hz);
			w->sample_count = v.u;
		}
	} else {
		COMPACT_VISIT(w, visit, user, &v, compact_io_f32(w, &v.f[0], s->what));
		if (!compact_finite(w, v.f[0], at, s->what))
			return false;
		if (s->id == COMPACT_DURATION) {
			if (v.f[0] < 0)
				return compact_fail(w, COMPACT_ERR_VALUE, at, "the clip duration is negative (%g)",
						    (double)v.f[0]);
			w->duration_s = v.f[0];
		} else {
			if (!(v.f[0] > 0))
				return compact_fail(w, COMPACT_ERR_VALUE, at, "the grid rate %g is not positive",
						    (double)v.f[0]);
			w->rate_hz = v.f[0];
		}
	}
	return true;
}

static inline bool compact_walk_names(compact_walker *w, compact_visit_fn visit, void *user)
{
	for (uint32_t i = 0; i < w->bone_count; i++) {
		compact_value v;
		size_t at = w->pos, bad;
		uint8_t len[XNB_7BIT_MAX_SIZE];
		uint32_t n;

		memset(&v, 0, sizeof v);
		v.section = COMPACT_NAMES;
		v.index = v.bone = i;
		if (w->mode == COMPACT_WRITE) {
			if (!visit(user, w, &v))
				return compact_visitor_failed(w, at);
			if (!xnb_utf8_check((const uint8_t *)v.str, v.str_size, &bad))
				return compact_fail(w, COMPACT_ERR_STRING, at, "bone name %u is not UTF-8", i);
			size_t k = xnb_7bit_put(len, v.str_size);
			if (!compact_io_bytes(w, len, k, "a bone name") ||
			    !compact_io_bytes(w, (uint8_t *)(uintptr_t)v.str, v.str_size, "a bone name"))
				return false;
			continue;
		}
		size_t used = xnb_7bit_get(w->in + w->pos, w->size - w->pos, &n);
		if (used == 0)
			return compact_fail(w, COMPACT_ERR_TRUNCATED, at, "the data ends inside bone name %u", i);
		if (used == XNB_7BIT_INVALID)
			return compact_fail(w, COMPACT_ERR_COUNT, at,
					    "the length of bone name %u is not a valid 7-bit encoded int32", i);
		w->pos += used;
		if (n > w->size - w->pos)
			return compact_fail(w, COMPACT_ERR_TRUNCATED, at, "bone name %u is %u bytes long, %zu are left",
					    i, n, w->size - w->pos);
		if (!xnb_utf8_check(w->in + w->pos, n, &bad))
			return compact_fail(w, COMPACT_ERR_STRING, w->pos + bad,
					    "bone name %u is not valid UTF-8 without NUL", i);
		v.str = (const char *)w->in + w->pos;
		v.str_size = n;
		w->pos += n;
		if (!visit(user, w, &v))
			return compact_visitor_failed(w, at);
	}
	return true;
}

static inline bool compact_walk_descriptors(compact_walker *w, compact_visit_fn visit, void *user)
{
	w->descriptors_at = w->pos;
	if (w->mode == COMPACT_READ && w->bone_count > (w->size - w->pos) / 2)
		return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos,
				    "the data ends inside the track descriptors");
	for (uint32_t i = 0; i < w->bone_count; i++) {
		compact_value v;
		size_t at = w->pos;

		memset(&v, 0, sizeof v);
		v.section = COMPACT_DESCRIPTORS;
		v.index = v.bone = i;
		COMPACT_VISIT(w, visit, user, &v, compact_io_u16(w, &v.u, "a track descriptor"));
		if (v.u & COMPACT_DESC_RESERVED)
			return compact_fail(w, COMPACT_ERR_VALUE, at,
					    "track descriptor 0x%04x of bone %u sets reserved bits", v.u, i);
		unsigned rkind = COMPACT_DESC_KIND(v.u, 1);
		/* Version 3 names an animated rotation's left-out component per record. */
		if (COMPACT_DESC_DROPPED(v.u) && !((rkind == COMPACT_ANIMATED && !w->is_v3) ||
						   (rkind == COMPACT_CONSTANT && !(v.u & COMPACT_DESC_F32(1)))))
			return compact_fail(w, COMPACT_ERR_VALUE, at,
					    "track descriptor 0x%04x of bone %u leaves out a component of %s", v.u, i,
					    rkind == COMPACT_ANIMATED ? "an animated rotation, which each of its records "
									"names in reader version 3"
								      : "a rotation that stores all four");
		if ((v.u & COMPACT_DESC_ZEROS) && (COMPACT_DESC_KIND(v.u, 0) != COMPACT_CONSTANT ||
						    (v.u & COMPACT_DESC_ZEROS) == COMPACT_DESC_ZEROS))
			return compact_fail(w, COMPACT_ERR_VALUE, at,
					    "track descriptor 0x%04x of bone %u leaves out components of a "
					    "translation that is not a constant, or all three (identity)", v.u, i);
		for (unsigned k = 0; k < COMPACT_TRACKS; k++) {
			unsigned kind = COMPACT_DESC_KIND(v.u, k);

			if ((v.u & COMPACT_DESC_F32(k)) && kind != COMPACT_CONSTANT)
				return compact_fail(w, COMPACT_ERR_VALUE, at,
						    "track descriptor 0x%04x of bone %u: a float32 flag on a "
						    "track that is not constant", v.u, i);
			w->constant_count += kind == COMPACT_CONSTANT;
			w->animated_count += kind == COMPACT_ANIMATED;
			w->kind_count[k] += kind == COMPACT_ANIMATED;
		}
	}
	return true;
}

/* Runs `body` for each track of `kind`, in bone order, T R S, with bone_,
 * track_, desc_ and index_ (the track's index among those of its kind) in
 * scope; `continue` in body goes on to the next track. */
#define COMPACT_EACH_TRACK(w, kind, body)                                              \
	do {                                                                           \
		uint32_t index_ = 0;                                                   \
		for (uint32_t bone_ = 0; bone_ < (w)->bone_count; bone_++) {           \
			uint16_t desc_ = compact_descriptor((w), bone_);               \
			(void)desc_;                                                   \
			for (uint32_t track_ = 0; track_ < COMPACT_TRACKS; track_++) { \
				if (COMPACT_DESC_KIND(desc_, track_) != (kind))        \
					continue;                                      \
				for (int once_ = 1; once_; once_ = 0, index_++) {      \
					body;                                          \
				}                                                      \
			}                                                              \
		}                                                                      \
	} while (0)

/* A rotation from its three stored components and the one left out
 * (rebuilt >= 0): out[4] x y z w. */
static inline void compact_rotation_rebuild(const float kept[3], unsigned dropped, float out[4])
{
	float r = compact_rotation_w(kept[0], kept[1], kept[2]);
	unsigned k = 0;

	for (unsigned c = 0; c < 4; c++)
		out[c] = c == dropped ? r : kept[k++];
}

static inline bool compact_walk_constant(compact_walker *w, compact_visit_fn visit, void *user,
					 uint32_t bone, uint32_t track, uint32_t index, uint16_t desc)
{
	compact_value v;
	size_t at = w->pos;
	bool is_f32 = desc & COMPACT_DESC_F32(track);
	const char *what = "a constant track value";

	memset(&v, 0, sizeof v);
	v.section = COMPACT_CONSTANTS;
	v.index = index;
	v.bone = bone;
	v.track = track;
	v.descriptor = desc;
	if (w->mode == COMPACT_WRITE && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	if (track == 1 && !is_f32) {
		/* Three 16-bit components; the one left out is rebuilt. */
		unsigned dropped = COMPACT_DESC_DROPPED(desc), k = 0;
		float kept[3];
		for (unsigned c = 0; c < 4; c++) {
			uint32_t q;
			if (c == dropped)
				continue;
			q = compact_unit_to_u16(v.f[c]);
			if (!compact_io_u16(w, &q, what))
				return false;
			kept[k++] = compact_u16_to_unit((uint16_t)q);
		}
		if (kept[0] * kept[0] + kept[1] * kept[1] + kept[2] * kept[2] > 1.0f + COMPACT_ROTATION_SLACK)
			return compact_fail(w, COMPACT_ERR_VALUE, at,
					    "the constant rotation of bone %u is longer than a unit quaternion", bone);
		compact_rotation_rebuild(kept, dropped, v.f);
	} else {
		unsigned n = track == 1 ? 4 : 3;
		for (unsigned c = 0; c < n; c++) {
			size_t c_at = w->pos;
			if (track == 0 && (desc & COMPACT_DESC_ZERO(c))) {
				v.f[c] = 0;
				continue;
			}
			if (!(is_f32 ? compact_io_f32(w, &v.f[c], what) : compact_io_f16(w, &v.f[c], what)) ||
			    !compact_finite(w, v.f[c], c_at, what))
				return false;
		}
		if (track == 1) {
			double len2 = 0;
			for (int c = 0; c < 4; c++)
				len2 += (double)v.f[c] * v.f[c];
			if (fabs(sqrt(len2) - 1) > 1e-3)
				return compact_fail(w, COMPACT_ERR_VALUE, at,
						    "the constant rotation of bone %u is not unit length "
						    "(length %g)", bone, sqrt(len2));
		}
	}
	if (w->mode == COMPACT_READ && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	return true;
}

static inline bool compact_walk_format(compact_walker *w, compact_visit_fn visit, void *user,
				       uint32_t bone, uint32_t track, uint32_t index)
{
	compact_value v;
	size_t at = w->pos;
	uint8_t b;

	memset(&v, 0, sizeof v);
	v.section = COMPACT_FORMATS;
	v.index = v.animated = index;
	v.bone = bone;
	v.track = track;
	if (w->mode == COMPACT_WRITE && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	b = (uint8_t)v.u;
	if (!compact_io_bytes(w, &b, 1, "a track format"))
		return false;
	v.u = b;
	unsigned bits = COMPACT_FORMAT_BITS(b), range = COMPACT_FORMAT_RANGE(b);
	bool is_rotation_range = range == COMPACT_RANGE_NONE || range == COMPACT_RANGE_U8;
	if ((b & 0x80) || (bits > COMPACT_MAX_BITS && bits != COMPACT_RAW_BITS) ||
	    (bits == COMPACT_RAW_BITS && range != COMPACT_RANGE_NONE) ||
	    (is_rotation_range && bits != COMPACT_RAW_BITS && track != 1))
		return compact_fail(w, COMPACT_ERR_VALUE, at, "track format 0x%02x of bone %u is not valid", b,
				    bone);
	if (bits == COMPACT_SEGMENTED && COMPACT_DESC_DROPPED(compact_descriptor(w, bone)) && track == 1)
		return compact_fail(w, COMPACT_ERR_VALUE, at,
				    "the rotation of bone %u has its bits per segment, and a component left "
				    "out in its descriptor", bone);
	w->segmented_count += bits == COMPACT_SEGMENTED;
	if (w->mode == COMPACT_READ && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	return true;
}

static inline bool compact_walk_range(compact_walker *w, compact_visit_fn visit, void *user, uint32_t bone,
				      uint32_t track, uint32_t index)
{
	compact_value v;
	size_t at = w->pos;

	memset(&v, 0, sizeof v);
	v.section = COMPACT_RANGES;
	v.index = v.animated = index;
	v.bone = bone;
	v.track = track;
	v.format = compact_format(w, index);
	unsigned range = COMPACT_FORMAT_RANGE(v.format);
	if (range == COMPACT_RANGE_NONE) {
		/* Rotation components span [-1, 1]; raw keys need no range. */
		for (int c = 0; c < 3; c++) {
			v.f[c] = -1.0f;
			v.f[3 + c] = 2.0f;
		}
		return visit(user, w, &v) || compact_visitor_failed(w, at);
	}
	if (w->mode == COMPACT_WRITE && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	if (range == COMPACT_RANGE_U8) {
		/* The visitor gives the codes in q (min) and x (extent). */
		uint8_t b[6];
		for (int c = 0; c < 3; c++) {
			b[c] = (uint8_t)v.q[c];
			b[3 + c] = (uint8_t)v.x[c];
		}
		if (!compact_io_bytes(w, b, 6, "a track range"))
			return false;
		for (int c = 0; c < 3; c++) {
			v.q[c] = b[c];
			v.x[c] = b[3 + c];
			if (v.q[c] + v.x[c] > 255)
				return compact_fail(w, COMPACT_ERR_VALUE, at + (size_t)c,
						    "the rotation range of bone %u passes 1", bone);
			compact_unit_range(v.q[c], v.x[c], &v.f[c], &v.f[3 + c]);
		}
	} else {
		for (int c = 0; c < 6; c++) {
			size_t c_at = w->pos;
			const char *what = c < 3 ? "a range minimum" : "a range extent";
			if (!(range == COMPACT_RANGE_F16 ? compact_io_f16(w, &v.f[c], what)
							   : compact_io_f32(w, &v.f[c], what)) ||
			    !compact_finite(w, v.f[c], c_at, what))
				return false;
			/* 2 x extent: a segment's range may reach past the end by less than one extent. */
			if (c >= 3 && (v.f[c] < 0 || !isfinite(v.f[c - 3] + 2 * v.f[c])))
				return compact_fail(w, COMPACT_ERR_VALUE, c_at,
						    "range extent %g of bone %u is negative or overflows",
						    (double)v.f[c], bone);
		}
	}
	if (w->mode == COMPACT_READ && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	return true;
}

/* The bits of segment s of the track at `animated` (segmented: from the
 * segment codes; else the format's).  `ordinal` is the track's index among
 * the segmented ones. */
static inline unsigned compact_segment_bits(const compact_walker *w, uint8_t format, uint32_t ordinal,
					    uint32_t s)
{
	if (COMPACT_FORMAT_BITS(format) != COMPACT_SEGMENTED)
		return COMPACT_FORMAT_BITS(format);
	return compact_bytes(w)[w->segments_at +
				((size_t)ordinal * w->segment_count + s) * COMPACT_SEGMENT_CODE_SIZE] & 31u;
}

/* The extents of a clip range of `kind` at r (FORMAT.md 7.3). */
static inline void compact_range_extents(const uint8_t *r, unsigned kind, float extent[3])
{
	for (int c = 0; c < 3; c++) {
		float min;

		switch (kind) {
		case COMPACT_RANGE_NONE:
			extent[c] = 2.0f;
			break;
		case COMPACT_RANGE_F16:
			extent[c] = compact_f16_to_f32((uint16_t)(r[6 + 2 * c] | r[7 + 2 * c] << 8));
			break;
		case COMPACT_RANGE_F32:
			extent[c] = xnb_get_f32(r + 12 + 4 * c);
			break;
		default:
			compact_unit_range(r[c], r[3 + c], &min, &extent[c]);
			break;
		}
	}
}

/* The component bits (out) and key bits of track `format` in segment s,
 * its range at byte range_at of the payload, `ordinal` its index among
 * the segmented tracks (the ranges and segment codes walked already). */
static inline unsigned compact_key_layout(const compact_walker *w, uint8_t format, size_t range_at,
					  uint32_t ordinal, uint32_t s, unsigned out[3])
{
	unsigned bits = COMPACT_FORMAT_BITS(format);
	float extent[3];

	compact_range_extents(compact_bytes(w) + range_at, COMPACT_FORMAT_RANGE(format), extent);
	if (bits == COMPACT_SEGMENTED) {
		const uint8_t *code = compact_bytes(w) + w->segments_at +
				      ((size_t)ordinal * w->segment_count + s) * COMPACT_SEGMENT_CODE_SIZE;

		bits = code[0] & 31u;
		for (int c = 0; c < 3; c++) {
			float sub_min;

			compact_subrange(0.0f, extent[c], code[1 + c], code[4 + c], &sub_min, &extent[c]);
		}
	}
	return compact_component_bits(bits, extent, out);
}

static inline bool compact_walk_segments(compact_walker *w, compact_visit_fn visit, void *user)
{
	uint32_t ordinal = 0;

	w->segments_at = w->pos;
	if (w->mode == COMPACT_READ &&
	    (uint64_t)w->segmented_count * w->segment_count > (w->size - w->pos) / COMPACT_SEGMENT_CODE_SIZE)
		return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos, "the data ends inside the segment codes");
	COMPACT_EACH_TRACK(w, COMPACT_ANIMATED, {
		uint8_t format = compact_format(w, index_);
		if (COMPACT_FORMAT_BITS(format) != COMPACT_SEGMENTED)
			continue;
		for (uint32_t s = 0; s < w->segment_count; s++) {
			compact_value v;
			size_t at = w->pos;
			uint8_t b[COMPACT_SEGMENT_CODE_SIZE];

			memset(&v, 0, sizeof v);
			v.section = COMPACT_SEGMENTS;
			v.index = ordinal * w->segment_count + s;
			v.animated = index_;
			v.bone = bone_;
			v.track = track_;
			v.segment = s;
			v.format = format;
			if (w->mode == COMPACT_WRITE && !visit(user, w, &v))
				return compact_visitor_failed(w, at);
			b[0] = (uint8_t)v.u;
			for (int c = 0; c < 3; c++) {
				b[1 + c] = (uint8_t)v.q[c];
				b[4 + c] = (uint8_t)v.x[c];
			}
			if (!compact_io_bytes(w, b, COMPACT_SEGMENT_CODE_SIZE, "a segment's bits and range"))
				return false;
			v.u = b[0];
			for (int c = 0; c < 3; c++) {
				v.q[c] = b[1 + c];
				v.x[c] = b[4 + c];
			}
			if ((v.u & 31u) < 1 || (v.u & 31u) > COMPACT_MAX_BITS || (v.u & 0x80u) ||
			    (track_ != 1 && (v.u >> 5)))
				return compact_fail(w, COMPACT_ERR_VALUE, at,
						    "segment %u of bone %u: code byte 0x%02x is not 1 to %u bits "
						    "(and for a rotation the component left out)", s, bone_, v.u,
						    COMPACT_MAX_BITS);
			for (int c = 0; c < 3; c++)
				if (v.q[c] + v.x[c] > 255)
					return compact_fail(w, COMPACT_ERR_VALUE, at + 1 + (size_t)c,
							    "the range of segment %u of bone %u passes its "
							    "track's", s, bone_);
			if (w->mode == COMPACT_READ && !visit(user, w, &v))
				return compact_visitor_failed(w, at);
		}
		ordinal++;
	});
	return true;
}

static inline bool compact_walk_masks(compact_walker *w, compact_visit_fn visit, void *user)
{
	uint64_t bits = (uint64_t)w->animated_count * w->sample_count;
	uint32_t ordinal = 0;

	w->masks_at = w->pos;
	if (w->mode == COMPACT_READ && (bits + 7) / 8 > w->size - w->pos)
		return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos,
				    "the key masks need %llu bytes, %zu are left",
				    (unsigned long long)((bits + 7) / 8), w->size - w->pos);
	bool ok = true;
	size_t range_at = w->formats_at + w->animated_count;
	COMPACT_EACH_TRACK(w, COMPACT_ANIMATED, {
		uint8_t format = compact_format(w, index_);
		for (uint32_t s = 0; ok && s < w->sample_count; s++) {
			compact_value v;
			size_t at = w->pos + (size_t)(w->bit / 8);

			memset(&v, 0, sizeof v);
			v.section = COMPACT_MASKS;
			v.index = (uint32_t)(w->bit);
			v.animated = index_;
			v.bone = bone_;
			v.track = track_;
			v.sample = s;
			v.format = format;
			v.bit = w->bit;
			if (w->mode == COMPACT_WRITE && !visit(user, w, &v)) {
				ok = compact_visitor_failed(w, at);
				break;
			}
			v.u &= 1u;
			ok = compact_io_bits(w, &v.u, 1, "the key masks");
			if (ok && !v.u && (s % COMPACT_SEGMENT_SAMPLES == 0 || s == w->sample_count - 1))
				ok = compact_fail(w, COMPACT_ERR_VALUE, at,
						  "the key mask of bone %u misses grid sample %u, which "
						  "starts a segment or ends the grid", bone_, s);
			if (ok && v.u) {
				unsigned cbits[3];

				v.key_size = compact_key_layout(w, format, range_at, ordinal, s >> COMPACT_SEGMENT_SHIFT,
								cbits);
				w->key_count++;
				w->key_bits += v.key_size;
			}
			if (ok && w->mode == COMPACT_READ && !visit(user, w, &v))
				ok = compact_visitor_failed(w, at);
		}
		if (!ok)
			return false;
		ordinal += COMPACT_FORMAT_BITS(format) == COMPACT_SEGMENTED;
		range_at += compact_range_size(COMPACT_FORMAT_RANGE(format));
	});
	return compact_end_bits(w, "the key masks");
}

static inline bool compact_walk_keys(compact_walker *w, compact_visit_fn visit, void *user)
{
	uint32_t ordinal = 0;

	if (w->mode == COMPACT_READ && (w->key_bits + 7) / 8 > w->size - w->pos)
		return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos, "the keys need %llu bytes, %zu are left",
				    (unsigned long long)((w->key_bits + 7) / 8), w->size - w->pos);
	bool ok = true;
	size_t range_at = w->formats_at + w->animated_count;
	COMPACT_EACH_TRACK(w, COMPACT_ANIMATED, {
		uint8_t format = compact_format(w, index_);
		uint32_t key = 0;
		for (uint32_t s = 0; ok && s < w->sample_count; s++) {
			compact_value v;
			size_t at = w->pos + (size_t)(w->bit / 8);

			if (!compact_mask_bit(w, index_, s))
				continue;
			memset(&v, 0, sizeof v);
			v.section = COMPACT_KEYS;
			v.index = key;
			v.animated = index_;
			v.bone = bone_;
			v.track = track_;
			v.sample = s;
			v.segment = s >> COMPACT_SEGMENT_SHIFT;
			v.format = format;
			v.bits = compact_segment_bits(w, format, ordinal, v.segment);
			v.key_size = compact_key_layout(w, format, range_at, ordinal, v.segment, v.cbits);
			v.bit = w->bit;
			if (w->mode == COMPACT_WRITE && !visit(user, w, &v)) {
				ok = compact_visitor_failed(w, at);
				break;
			}
			for (int c = 0; ok && c < 3; c++) {
				if (v.bits == COMPACT_RAW_BITS) {
					uint32_t u;
					memcpy(&u, &v.f[c], 4);
					ok = compact_io_bits(w, &u, 32, "the keys");
					memcpy(&v.f[c], &u, 4);
					ok = ok && compact_finite(w, v.f[c], at, "a raw key");
				} else {
					if (w->mode == COMPACT_WRITE && v.q[c] >> v.cbits[c])
						ok = compact_fail(w, COMPACT_ERR_VALUE, at,
								  "key %u of bone %u does not fit %u bits",
								  key, bone_, v.cbits[c]);
					ok = ok && compact_io_bits(w, &v.q[c], v.cbits[c], "the keys");
				}
			}
			if (ok && w->mode == COMPACT_READ && !visit(user, w, &v))
				ok = compact_visitor_failed(w, at);
			key++;
		}
		if (!ok)
			return false;
		ordinal += COMPACT_FORMAT_BITS(format) == COMPACT_SEGMENTED;
		range_at += compact_range_size(COMPACT_FORMAT_RANGE(format));
	});
	return compact_end_bits(w, "the keys");
}

/* ------------------------------------------- version 3: groups, records */

/* The bone of track `index` of kind `kind` (bone order), for messages. */
static inline uint32_t compact3_bone_of(const compact_walker *w, unsigned kind, uint32_t index)
{
	for (uint32_t b = 0; b < w->bone_count; b++)
		if (COMPACT_DESC_KIND(compact_descriptor(w, b), kind) == COMPACT_ANIMATED && index-- == 0)
			return b;
	return 0;
}

/* The bone of lane l of the group v names, for messages. */
static inline uint32_t compact3_lane_bone(const compact_walker *w, const compact_value *v, uint32_t l)
{
	return compact3_bone_of(w, v->track, v->animated + l);
}

static inline const char *compact3_kind_name(unsigned kind)
{
	return kind == 0 ? "translation" : kind == 1 ? "rotation" : "scale";
}

static inline bool compact3_walk_group_formats(compact_walker *w, compact_visit_fn visit, void *user)
{
	w->group_count = compact3_group_count(w->kind_count);
	w->group_formats_at = w->pos;
	if (w->mode == COMPACT_READ && w->group_count > w->size - w->pos)
		return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos, "the data ends inside the group formats");
	for (uint32_t g = 0; g < w->group_count; g++) {
		compact_value v;
		size_t at = w->pos;
		uint8_t b;

		memset(&v, 0, sizeof v);
		v.section = COMPACT_GROUP_FORMATS;
		v.index = g;
		v.track = compact3_group(w->kind_count, g, &v.used, &v.animated);
		if (w->mode == COMPACT_WRITE && !visit(user, w, &v))
			return compact_visitor_failed(w, at);
		b = (uint8_t)v.u;
		if (!compact_io_bytes(w, &b, 1, "a group format"))
			return false;
		v.u = v.format = b;
		unsigned range = COMPACT3_FORMAT_RANGE(b);
		if ((b & COMPACT3_FORMAT_RESERVED) ||
		    ((range == COMPACT3_RANGE_U8 || range == COMPACT3_RANGE_NONE) && v.track != 1))
			return compact_fail(w, COMPACT_ERR_VALUE, at,
					    "group format 0x%02x of the %s of bone %u is not valid", b,
					    compact3_kind_name(v.track), compact3_bone_of(w, v.track, v.animated));
		if (w->mode == COMPACT_READ && !visit(user, w, &v))
			return compact_visitor_failed(w, at);
	}
	return true;
}

/* A group's ranges of format f in bytes r, from the lanes' values (write)
 * or to them (read). */
static inline void compact3_range_io(compact_value *v, bool is_write, uint8_t *r)
{
	size_t n = (size_t)3 * v->used;

	for (uint32_t l = 0; l < v->used; l++) {
		for (uint32_t c = 0; c < 3; c++) {
			size_t i = (size_t)c * v->used + l;
			uint16_t h[2];

			if (!is_write)
				continue;
			switch (COMPACT3_FORMAT_RANGE(v->format)) {
			case COMPACT3_RANGE_NONE:
				break;
			case COMPACT3_RANGE_U8:
				r[i] = v->lane_codes[l][c];
				r[n + i] = v->lane_codes[l][3 + c];
				break;
			case COMPACT3_RANGE_F16:
				h[0] = compact_f16_nearest(v->lane_range[l][c]);
				h[1] = compact_f16_nearest(v->lane_range[l][3 + c]);
				r[2 * i] = (uint8_t)h[0];
				r[2 * i + 1] = (uint8_t)(h[0] >> 8);
				r[2 * (n + i)] = (uint8_t)h[1];
				r[2 * (n + i) + 1] = (uint8_t)(h[1] >> 8);
				break;
			default:
				xnb_put_f32(r + 4 * i, v->lane_range[l][c]);
				xnb_put_f32(r + 4 * (n + i), v->lane_range[l][3 + c]);
				break;
			}
		}
	}
}

/* Checks lane l's range as read back (or written); false with the failure. */
static inline bool compact3_range_check(compact_walker *w, compact_value *v, const uint8_t *r, uint32_t l, size_t at)
{
	float min[3], extent[3];
	size_t n = (size_t)3 * v->used;

	compact3_lane_range(r, v->format, v->used, l, min, extent);
	for (uint32_t c = 0; c < 3; c++) {
		size_t i = (size_t)c * v->used + l;
		bool is_u8 = COMPACT3_FORMAT_RANGE(v->format) == COMPACT3_RANGE_U8;

		if (is_u8 && r[i] + r[n + i] > 255)
			return compact_fail(w, COMPACT_ERR_VALUE, at + i, "the rotation range of bone %u passes 1",
					    compact3_lane_bone(w, v, l));
		if (!isfinite(min[c]) || !isfinite(extent[c]) || extent[c] < 0 || !isfinite(min[c] + 2 * extent[c]))
			return compact_fail(w, COMPACT_ERR_VALUE, at,
					    "the %s range of bone %u is not finite, or its extent is negative or "
					    "overflows", compact3_kind_name(v->track), compact3_lane_bone(w, v, l));
		if (w->mode == COMPACT_WRITE && !is_u8 &&
		    (min[c] != v->lane_range[l][c] || extent[c] != v->lane_range[l][3 + c]))
			return compact_fail(w, COMPACT_ERR_VALUE, at, "the %s range of bone %u does not fit its group "
					    "format 0x%02x", compact3_kind_name(v->track), compact3_lane_bone(w, v, l),
					    v->format);
		v->lane_range[l][c] = min[c];
		v->lane_range[l][3 + c] = extent[c];
		if (is_u8) {
			v->lane_codes[l][c] = r[i];
			v->lane_codes[l][3 + c] = r[n + i];
		}
	}
	return true;
}

static inline bool compact3_walk_group_ranges(compact_walker *w, compact_visit_fn visit, void *user)
{
	w->group_ranges_at = w->pos;
	w->group_range_at = (size_t *)malloc(((size_t)w->group_count + 1) * sizeof(size_t));
	if (!w->group_range_at)
		return compact_fail(w, COMPACT_ERR_NOMEM, w->pos, "out of memory");
	for (uint32_t g = 0; g < w->group_count; g++) {
		compact_value v;
		size_t at = w->pos, n;
		uint8_t r[COMPACT3_LANES * 24];

		memset(&v, 0, sizeof v);
		memset(r, 0, sizeof r);
		v.section = COMPACT_GROUP_RANGES;
		v.index = g;
		v.track = compact3_group(w->kind_count, g, &v.used, &v.animated);
		v.format = compact_bytes(w)[w->group_formats_at + g];
		n = compact3_range_size(v.format, v.used);
		w->group_range_at[g] = at;
		if (w->mode == COMPACT_WRITE && !visit(user, w, &v))
			return compact_visitor_failed(w, at);
		compact3_range_io(&v, w->mode == COMPACT_WRITE, r);
		if (!compact_io_bytes(w, r, n, "a group's ranges"))
			return false;
		for (uint32_t l = 0; l < v.used; l++)
			if (!compact3_range_check(w, &v, r, l, at))
				return false;
		if (w->mode == COMPACT_READ && !visit(user, w, &v))
			return compact_visitor_failed(w, at);
	}
	return true;
}

/* The head of a record (code bytes, masks, sub-ranges) from v (write) or
 * into it (read). */
static inline void compact3_head_io(compact_value *v, const compact3_shape *sh, bool is_write, uint8_t *head)
{
	for (uint32_t l = 0; l < v->used; l++) {
		uint8_t *m = head + sh->masks_at + (size_t)sh->mask_bytes * l;

		if (is_write) {
			head[l] = v->code[l];
			for (uint32_t i = 0; i < sh->mask_bytes; i++)
				m[i] = (uint8_t)(v->mask[l] >> (8 * i));
		}
		v->code[l] = head[l];
		v->mask[l] = compact3_mask(head, sh, l);
		for (uint32_t c = 0; is_write && (v->format & COMPACT3_FORMAT_SUB) && c < 3; c++) {
			head[sh->sub_at + c * v->used + l] = v->sub[4 * c + l];
			head[sh->sub_at + (3 + c) * v->used + l] = v->sub[12 + 4 * c + l];
		}
		for (uint32_t c = 0; (v->format & COMPACT3_FORMAT_SUB) && c < 3; c++) {
			v->sub[4 * c + l] = (uint8_t)compact3_sub_m(head, sh, c, l);
			v->sub[12 + 4 * c + l] = (uint8_t)compact3_sub_x(head, sh, c, l);
		}
	}
	for (uint32_t l = v->used; l < COMPACT3_LANES; l++) {
		v->code[l] = 0;
		v->mask[l] = 0;
	}
}

/* The checks of a record's head; false with the failure. */
static inline bool compact3_head_check(compact_walker *w, const compact_value *v, const compact3_shape *sh, size_t at)
{
	uint64_t rows = sh->rows == 64 ? ~(uint64_t)0 : ((uint64_t)1 << sh->rows) - 1;
	bool is_last = v->segment + 1 == w->segment_count;

	for (uint32_t l = 0; l < v->used; l++) {
		unsigned b = v->code[l], bits = COMPACT3_CODE_BITS(b);

		if ((b & 0x80u) || bits < 1 || (bits > COMPACT_MAX_BITS && bits != COMPACT_RAW_BITS) ||
		    (v->track != 1 && COMPACT3_CODE_DROPPED(b)))
			return compact_fail(w, COMPACT_ERR_VALUE, at + l,
					    "segment %u of the %s of bone %u: code byte 0x%02x is not 1 to %u bits or "
					    "%u (and for a rotation the component left out)", v->segment,
					    compact3_kind_name(v->track), compact3_lane_bone(w, v, l), b,
					    COMPACT_MAX_BITS, COMPACT_RAW_BITS);
		if (!(v->mask[l] & 1u) || (is_last && !(v->mask[l] >> (sh->rows - 1) & 1u)) || (v->mask[l] & ~rows))
			return compact_fail(w, COMPACT_ERR_VALUE, at + sh->masks_at + (size_t)sh->mask_bytes * l,
					    "the key mask of the %s of bone %u in segment %u misses its first or last "
					    "row, or sets bits past its %u rows", compact3_kind_name(v->track),
					    compact3_lane_bone(w, v, l),
					    v->segment, sh->rows);
	}
	if (!(v->format & COMPACT3_FORMAT_SUB))
		return true;
	for (uint32_t c = 0; c < 3; c++)
		for (uint32_t l = 0; l < v->used; l++)
			if (v->sub[4 * c + l] + v->sub[12 + 4 * c + l] > 255)
				return compact_fail(w, COMPACT_ERR_VALUE, at + sh->sub_at + c * v->used + l,
						    "segment %u of the %s of bone %u: its sub-range passes its "
						    "track's range", v->segment, compact3_kind_name(v->track),
						    compact3_lane_bone(w, v, l));
	return true;
}

/* How each used lane's keys decode in the record whose head is `head`. */
typedef struct compact3_lanes {
	unsigned cbits[COMPACT3_LANES][3], key_bits[COMPACT3_LANES], keys[COMPACT3_LANES];
	float min[COMPACT3_LANES][3], step[COMPACT3_LANES][3];
	uint64_t bits;
} compact3_lanes;

static inline void compact3_lanes_of(const compact_walker *w, uint32_t g, const compact_value *v,
				     const uint8_t *head, const compact3_shape *sh, compact3_lanes *k)
{
	const uint8_t *range = compact_bytes(w) + w->group_range_at[g];

	k->bits = 0;
	for (uint32_t l = 0; l < v->used; l++) {
		k->key_bits[l] = compact3_lane_decode(range, v->format, v->used, l, head, sh, k->cbits[l], k->min[l],
						      k->step[l]);
		k->keys[l] = (unsigned)__builtin_popcountll(v->mask[l]);
		k->bits += (uint64_t)k->keys[l] * k->key_bits[l];
	}
}

/* One key of lane l: its codes from v (write) or checked (read). */
static inline bool compact3_key_io(compact_walker *w, const compact_value *v, const compact3_lanes *k, uint32_t l,
				   uint32_t j, size_t at)
{
	bool is_raw = COMPACT3_CODE_BITS(v->code[l]) == COMPACT_RAW_BITS;
	float x[3];

	for (uint32_t c = 0; c < 3; c++) {
		uint32_t q = w->mode == COMPACT_WRITE ? v->lane_q[l][3 * (size_t)j + c] : 0;
		unsigned n = is_raw ? 32 : k->cbits[l][c];

		if (w->mode == COMPACT_WRITE && n < 32 && q >> n)
			return compact_fail(w, COMPACT_ERR_VALUE, at, "key %u of the %s of bone %u in segment %u does "
					    "not fit %u bits", j, compact3_kind_name(v->track), compact3_lane_bone(w, v, l),
					    v->segment, n);
		if (!compact_io_bits(w, &q, n, "the keys"))
			return false;
		if (is_raw)
			memcpy(&x[c], &q, 4);
		else
			x[c] = compact_dequantize(k->min[l][c], k->step[l][c], q);
		if (is_raw && !compact_finite(w, x[c], at, "a raw key"))
			return false;
	}
	if (v->track == 1 && x[0] * x[0] + x[1] * x[1] + x[2] * x[2] > 1.0f + COMPACT_ROTATION_SLACK)
		return compact_fail(w, COMPACT_ERR_VALUE, at, "key %u of the rotation of bone %u in segment %u is "
				    "longer than a unit quaternion", j, compact3_lane_bone(w, v, l), v->segment);
	return true;
}

static inline bool compact3_walk_record(compact_walker *w, compact_visit_fn visit, void *user, uint32_t s, uint32_t g)
{
	compact_value v;
	compact3_lanes k;
	size_t at = w->pos;
	uint8_t head[4 + 4 * 8 + COMPACT3_SUB_SIZE];

	memset(&v, 0, sizeof v);
	memset(head, 0, sizeof head);
	v.section = COMPACT_RECORDS;
	v.index = g;
	v.segment = s;
	v.track = compact3_group(w->kind_count, g, &v.used, &v.animated);
	v.format = compact_bytes(w)[w->group_formats_at + g];
	compact3_shape sh = compact3_shape_of(compact3_rows(w->sample_count, s), v.used, v.format);
	if (w->mode == COMPACT_WRITE && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	if (w->mode == COMPACT_WRITE)
		compact3_head_io(&v, &sh, true, head);
	if (!compact_io_bytes(w, head, sh.keys_at, "a record"))
		return false;
	if (w->mode == COMPACT_READ)
		compact3_head_io(&v, &sh, false, head);
	if (!compact3_head_check(w, &v, &sh, at))
		return false;
	compact3_lanes_of(w, g, &v, head, &sh, &k);
	if (w->mode == COMPACT_READ && (k.bits + 7) / 8 > w->size - w->pos)
		return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos, "the keys of a record need %llu bytes, %zu "
				    "are left", (unsigned long long)((k.bits + 7) / 8), w->size - w->pos);
	for (uint32_t l = 0; l < v.used; l++)
		for (uint32_t j = 0; j < k.keys[l]; j++)
			if (!compact3_key_io(w, &v, &k, l, j, w->pos + (size_t)(w->bit / 8)))
				return false;
	if (!compact_end_bits(w, "a record's keys"))
		return false;
	v.record_at = at;
	v.record_size = w->pos - at;
	w->key_count += k.keys[0] + k.keys[1] + k.keys[2] + k.keys[3];
	w->key_bits += k.bits;
	if (w->mode == COMPACT_READ && !visit(user, w, &v))
		return compact_visitor_failed(w, at);
	return true;
}

static inline bool compact3_walk_records(compact_walker *w, compact_visit_fn visit, void *user)
{
	w->records_at = w->pos;
	/* Each record takes at least a code byte and a mask byte. */
	if (w->mode == COMPACT_READ && (uint64_t)w->segment_count * w->group_count > (w->size - w->pos) / 2)
		return compact_fail(w, COMPACT_ERR_TRUNCATED, w->pos, "the data ends inside the records (%u segments "
				    "of %u groups)", w->segment_count, w->group_count);
	for (uint32_t s = 0; s < w->segment_count; s++)
		for (uint32_t g = 0; g < w->group_count; g++)
			if (!compact3_walk_record(w, visit, user, s, g))
				return false;
	return true;
}

/* One section of either version's table. */
static inline bool compact_walk_section(compact_walker *w, const struct compact_section_desc *s,
					compact_visit_fn visit, void *user)
{
	bool ok = true;

	switch (s->codec) {
	case COMPACT_U32:
	case COMPACT_F32:
		ok = compact_walk_scalar(w, s, visit, user);
		w->segment_count = (w->sample_count + COMPACT_SEGMENT_SAMPLES - 1) >> COMPACT_SEGMENT_SHIFT;
		break;
	case COMPACT_STRING:
		ok = compact_walk_names(w, visit, user);
		break;
	case COMPACT_U16:
		ok = compact_walk_descriptors(w, visit, user);
		break;
	case COMPACT_CONSTANT_VALUE:
		COMPACT_EACH_TRACK(w, COMPACT_CONSTANT, {
			if (!compact_walk_constant(w, visit, user, bone_, track_, index_, desc_))
				return false;
		});
		break;
	case COMPACT_U8:
		w->formats_at = w->pos;
		COMPACT_EACH_TRACK(w, COMPACT_ANIMATED, {
			if (!compact_walk_format(w, visit, user, bone_, track_, index_))
				return false;
		});
		break;
	case COMPACT_RANGE_VALUE:
		COMPACT_EACH_TRACK(w, COMPACT_ANIMATED, {
			if (!compact_walk_range(w, visit, user, bone_, track_, index_))
				return false;
		});
		break;
	case COMPACT_SEGMENT_CODES:
		ok = compact_walk_segments(w, visit, user);
		break;
	case COMPACT_MASK_BITS:
		ok = compact_walk_masks(w, visit, user);
		break;
	case COMPACT_KEY_BITS:
		ok = compact_walk_keys(w, visit, user);
		break;
	case COMPACT_GROUP_FORMAT:
		ok = compact3_walk_group_formats(w, visit, user);
		break;
	case COMPACT_GROUP_RANGE:
		ok = compact3_walk_group_ranges(w, visit, user);
		break;
	case COMPACT_RECORD:
		ok = compact3_walk_records(w, visit, user);
		break;
	}
	return ok;
}

static inline compact_result compact_walk_table(compact_walker *w, const struct compact_section_desc *table, int n,
						compact_visit_fn visit, void *user)
{
	for (int i = 0; i < n; i++)
		if (!compact_walk_section(w, &table[i], visit, user))
			return w->result != COMPACT_OK ? w->result : COMPACT_ERR_VALUE;
	if (w->mode == COMPACT_READ && w->pos != w->size) {
		compact_fail(w, COMPACT_ERR_TRAILING, w->pos, "%zu bytes are left after the keys", w->size - w->pos);
		return w->result;
	}
	return COMPACT_OK;
}

/*
 * Walk the payload of a reader version 2 clip (what follows the XNB body
 * header), section after section of compact_sections[].  Read mode: w->in,
 * w->size, w->base_offset set; every byte is checked, each element goes to
 * `visit` after its checks, and nothing may follow the keys.  Write mode:
 * w->out grows (the caller frees it); `visit` fills each element, which is
 * checked by the same rules.  Returns COMPACT_OK, or the failure with
 * w->error_offset and w->message set.
 */
static inline compact_result compact_walk(compact_walker *w, compact_visit_fn visit, void *user)
{
	return compact_walk_table(w, compact_sections, COMPACT_SECTION_COUNT, visit, user);
}

/* compact_walk for reader version 3 (compact3_sections[]): the records
 * are checked byte by byte, the rotation keys' lengths and float32 keys
 * included; a record goes to `visit` after its keys. */
static inline compact_result compact3_walk(compact_walker *w, compact_visit_fn visit, void *user)
{
	compact_result r;

	w->is_v3 = true;
	r = compact_walk_table(w, compact3_sections, COMPACT3_SECTION_COUNT, visit, user);
	free(w->group_range_at);
	w->group_range_at = NULL;
	return r;
}


/* ------------------------------- version 3 read as version 2's elements */

/* What compact3_walk_as_v2 keeps of the walk: each record's offset and
 * each group's ranges (from the payload's start). */
typedef struct compact3_replay {
	compact_visit_fn visit;
	void *user;
	size_t *record_at;       /* segments x groups */
	size_t *range_at;        /* groups */
	bool is_out_of_memory;
} compact3_replay;

static inline bool compact3_replay_visit(void *user, compact_walker *w, compact_value *v)
{
	compact3_replay *r = (compact3_replay *)user;

	if (v->section < COMPACT_FORMATS)
		return r->visit(r->user, w, v);
	if (v->section == COMPACT_GROUP_RANGES) {
		if (!r->range_at)
			r->range_at = (size_t *)malloc(((size_t)w->group_count + 1) * sizeof(size_t));
		if (r->range_at)
			r->range_at[v->index] = w->group_range_at[v->index];
	} else if (v->section == COMPACT_RECORDS) {
		if (!r->record_at)
			r->record_at = (size_t *)malloc(((size_t)w->segment_count * w->group_count + 1) * sizeof(size_t));
		if (r->record_at)
			r->record_at[(size_t)v->segment * w->group_count + v->index] = v->record_at;
	} else {
		return true;
	}
	r->is_out_of_memory = !(v->section == COMPACT_RECORDS ? r->record_at : r->range_at);
	return !r->is_out_of_memory;
}

/* Animated track `a` (version 2's order: bone order, T R S) as a group and lane. */
typedef struct compact3_lane_at {
	uint32_t bone, track, group, lane, used;
	uint8_t format;
} compact3_lane_at;

static inline compact3_lane_at compact3_lane_of(const compact_walker *w, uint32_t bone, uint32_t track,
						uint32_t index_in_kind)
{
	compact3_lane_at at;
	uint32_t g = 0, first;

	for (int i = 0; i < COMPACT_TRACKS && compact3_kind_order[i] != track; i++)
		g += (w->kind_count[compact3_kind_order[i]] + 3) / 4;
	at.bone = bone;
	at.track = track;
	at.group = g + index_in_kind / 4;
	at.lane = index_in_kind % 4;
	compact3_group(w->kind_count, at.group, &at.used, &first);
	at.format = w->in[w->group_formats_at + at.group];
	return at;
}

/* The record of a lane's group in segment s, its shape, and how the lane's
 * keys decode there; returns its first key's bit from the record's keys. */
static inline uint64_t compact3_lane_record(const compact_walker *w, const compact3_replay *r,
					    const compact3_lane_at *at, uint32_t s, const uint8_t **rec,
					    compact3_shape *sh, unsigned cbits[3], float min[3], float step[3],
					    unsigned *key_bits)
{
	const uint8_t *range = w->in + r->range_at[at->group];
	uint64_t first = 0;

	*rec = w->in + r->record_at[(size_t)s * w->group_count + at->group];
	*sh = compact3_shape_of(compact3_rows(w->sample_count, s), at->used, at->format);
	for (uint32_t l = 0; l <= at->lane; l++) {
		unsigned kb = compact3_lane_decode(range, at->format, at->used, l, *rec, sh, cbits, min, step);

		if (l < at->lane)
			first += (uint64_t)__builtin_popcountll(compact3_mask(*rec, sh, l)) * kb;
		else
			*key_bits = kb;
	}
	return first;
}

static inline uint32_t compact3_bits_at(const uint8_t *p, uint64_t bit, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++, bit++)
		v |= (uint32_t)(p[bit >> 3] >> (bit & 7) & 1u) << i;
	return v;
}

/* One track's elements of version 2's section `section` (FORMATS to KEYS):
 * every track is given with its bits per segment (format bits 0), so that
 * each segment names its bits and the component a rotation leaves out. */
static inline bool compact3_replay_track(compact_walker *w, const compact3_replay *r, enum compact_section section,
					 const compact3_lane_at *at, uint32_t a)
{
	static const uint8_t range_kind[4] = { COMPACT_RANGE_U8, COMPACT_RANGE_F16, COMPACT_RANGE_F32,
						COMPACT_RANGE_NONE };
	compact_value v;
	uint32_t key = 0;

	memset(&v, 0, sizeof v);
	v.section = section;
	v.animated = v.index = a;
	v.bone = at->bone;
	v.track = at->track;
	v.format = COMPACT_FORMAT(COMPACT_SEGMENTED, range_kind[COMPACT3_FORMAT_RANGE(at->format)]);
	if (section == COMPACT_FORMATS || section == COMPACT_RANGES) {
		v.u = v.format;
		compact3_lane_range(w->in + r->range_at[at->group], at->format, at->used, at->lane, v.f, v.f + 3);
		return r->visit(r->user, w, &v);
	}
	for (uint32_t s = 0; s < w->segment_count; s++) {
		const uint8_t *rec;
		compact3_shape sh;
		unsigned kb = 0;
		float min[3], step[3];
		uint64_t bit = compact3_lane_record(w, r, at, s, &rec, &sh, v.cbits, min, step, &kb);
		uint64_t mask = compact3_mask(rec, &sh, at->lane);

		v.segment = s;
		if (section == COMPACT_SEGMENTS) {
			bool has_sub = at->format & COMPACT3_FORMAT_SUB;

			v.index = s;
			v.u = rec[at->lane];
			for (int c = 0; c < 3; c++) {
				v.q[c] = has_sub ? compact3_sub_m(rec, &sh, (uint32_t)c, at->lane) : 0;
				v.x[c] = has_sub ? compact3_sub_x(rec, &sh, (uint32_t)c, at->lane) : 255;
			}
			if (!r->visit(r->user, w, &v))
				return false;
			continue;
		}
		for (uint32_t i = 0; i < sh.rows; i++) {
			v.sample = (s << COMPACT_SEGMENT_SHIFT) + i;
			v.u = (uint32_t)(mask >> i & 1u);
			v.key_size = kb;
			if (section == COMPACT_MASKS && !r->visit(r->user, w, &v))
				return false;
			if (section != COMPACT_KEYS || !v.u)
				continue;
			v.index = key++;
			v.bits = COMPACT3_CODE_BITS(rec[at->lane]);
			for (unsigned c = 0, o = 0; c < 3; o += v.cbits[c], c++) {
				v.q[c] = compact3_bits_at(rec + sh.keys_at, bit + o, v.cbits[c]);
				memcpy(&v.f[c], &v.q[c], 4);
			}
			bit += kb;
			if (!r->visit(r->user, w, &v))
				return false;
		}
	}
	return true;
}

/*
 * Walk a reader version 3 payload (every byte checked, as compact3_walk),
 * giving `visit` the elements version 2's walk gives (compact_walk): the
 * sections before the groups as they come, then per animated track in
 * version 2's order its format (bits per segment, the range kind its
 * group's), range, segment codes (bits and left-out component, sub-range:
 * 0, 255 where the group has none), mask bits and keys.  For a reader of
 * version 2's elements (the loader that decodes keys at load).
 */
static inline compact_result compact3_walk_as_v2(compact_walker *w, compact_visit_fn visit, void *user)
{
	compact3_replay r = { visit, user, NULL, NULL, false };
	compact_result result = compact3_walk(w, compact3_replay_visit, &r);
	static const enum compact_section sections[] = { COMPACT_FORMATS, COMPACT_RANGES, COMPACT_SEGMENTS,
							 COMPACT_MASKS, COMPACT_KEYS };

	if (r.is_out_of_memory) {
		w->result = result = COMPACT_ERR_NOMEM;
		snprintf(w->message, sizeof w->message, "out of memory");
	}
	for (int i = 0; result == COMPACT_OK && i < 5; i++) {
		uint32_t a = 0, index[COMPACT_TRACKS] = { 0, 0, 0 };

		for (uint32_t b = 0; result == COMPACT_OK && b < w->bone_count; b++)
			for (uint32_t k = 0; result == COMPACT_OK && k < COMPACT_TRACKS; k++) {
				if (COMPACT_DESC_KIND(compact_descriptor(w, b), k) != COMPACT_ANIMATED)
					continue;
				compact3_lane_at at = compact3_lane_of(w, b, k, index[k]++);
				if (!compact3_replay_track(w, &r, sections[i], &at, a++)) {
					compact_visitor_failed(w, w->pos);
					result = w->result;
				}
			}
	}
	free(r.record_at);
	free(r.range_at);
	return w->result != COMPACT_OK ? w->result : result;
}

#endif /* ANIMC_COMPACT_LAYOUT_H */
