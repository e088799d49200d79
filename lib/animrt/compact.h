/*
 * compact.h - a loaded compact clip (reader version 1) as the samplers read
 * it: animated tracks in groups of four of one kind, and per group and
 * segment one block of their masks, key offsets and dequantisation in
 * structure-of-arrays form.  Built by load_compact.c, read by
 * sample_compact.c and sample_simd.c.  Private to the runtime.
 */
#ifndef ANIMRT_COMPACT_H
#define ANIMRT_COMPACT_H

#include <stdint.h>
#include <string.h>

#include <animc/animrt.h>

#define RT_LANES 4
/* A lane no track fills: its results are not written. */
#define RT_NO_BONE UINT32_MAX

/* Four tracks of one group in one segment, 16-byte aligned. */
typedef struct rt_block {
	uint64_t mask[RT_LANES];        /* bit i: grid sample 64 s + i is a key */
	uint64_t bit_offset[RT_LANES];  /* the segment's first key, in bits of `keys` */
	float min[3][RT_LANES];         /* per stored component */
	float step[3][RT_LANES];
	uint32_t bits[RT_LANES];        /* per component; COMPACT_RAW_BITS: float32 */
	uint32_t dropped[RT_LANES];     /* rotations: the component left out */
} rt_block;

typedef struct rt_group {
	uint32_t kind;                  /* ANIMRT_TRANSLATION, ROTATION, SCALE */
	uint32_t used;                  /* lanes a track fills: the first `used` */
	uint32_t bone[RT_LANES];        /* the pose slot (sequence) of each lane */
} rt_group;

struct animrt_compact {
	float rate_hz;
	uint32_t sample_count;
	uint32_t segment_count;
	uint32_t bone_count;
	uint32_t group_count;
	const rt_group *groups;
	const rt_block *blocks;         /* group_count * segment_count, group after group */
	const uint8_t *keys;            /* the key bits, 8 bytes of slack after them */
	/* The pose where nothing moves: constants, identity elsewhere, and
	 * which tracks each bone has (ANIMRT_TRACK_* bits). */
	const float *image_translation; /* bone_count * 3 */
	const float *image_rotation;    /* bone_count * 4 */
	const float *image_scale;       /* bone_count * 3 */
	const uint8_t *image_tracks;    /* bone_count */
	/* bone_count * 3: group * RT_LANES + lane of an animated track, or -1. */
	const int32_t *slot;
	const uint32_t *key_count;      /* bone_count * 3: keys of animated tracks */
};

/* ---------------------------------------------------------- bit helpers */

/* 8 bytes at p as a little-endian integer (the key bits are LSB first). */
static inline uint64_t rt_load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

#if defined(__GNUC__) || defined(__clang__)
static inline uint32_t rt_clz64(uint64_t v) { return (uint32_t)__builtin_clzll(v); }  /* v != 0 */
static inline uint32_t rt_ctz64(uint64_t v) { return (uint32_t)__builtin_ctzll(v); }  /* v != 0 */
#if defined(__POPCNT__) || defined(__ARM_NEON)
static inline uint32_t rt_popcount64(uint64_t v) { return (uint32_t)__builtin_popcountll(v); }
#else
/* Without a popcount instruction (the x86-64 baseline has none) the
 * builtin is a library call: count in registers instead. */
static inline uint32_t rt_popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555u);
	v = (v & 0x3333333333333333u) + ((v >> 2) & 0x3333333333333333u);
	v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
	return (uint32_t)((v * 0x0101010101010101u) >> 56);
}
#endif
#else
static inline uint32_t rt_clz64(uint64_t v)
{
	uint32_t n = 0;

	while (!(v & ((uint64_t)1 << 63))) {
		v <<= 1;
		n++;
	}
	return n;
}
static inline uint32_t rt_ctz64(uint64_t v)
{
	uint32_t n = 0;

	while (!(v & 1)) {
		v >>= 1;
		n++;
	}
	return n;
}
static inline uint32_t rt_popcount64(uint64_t v)
{
	uint32_t n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}
#endif

/* Load the payload at `at` of an XNB whose container says reader version
 * 1 (load.c has read the container into *container, and found the reader
 * name at reader[0..reader_size) of the input). */
animrt_status animrt_load_compact(const uint8_t *data, size_t size, size_t at,
				  const animrt_container *container, const char *reader, uint32_t reader_size,
				  animrt_clip **out, animrt_error *err);

/* Decode key j (counted from the segment's first) of lane `lane` of block
 * b: three stored components dequantised, rebuilt to the track's value
 * (3 floats, or x y z w). */
void rt_decode_key(const struct animrt_compact *c, const rt_block *b, uint32_t lane, uint32_t j,
		   uint32_t kind, float *out);

/* Where a local time falls on the grid: its segment, and its position in
 * the segment (0 to 64).  The position time * rate is exact in double
 * (two floats' product), clamped to [0, samples - 1] (NaN gives 0), and
 * only the part within the segment is rounded to float. */
typedef struct rt_where {
	uint32_t segment;
	float local;
} rt_where;
rt_where rt_grid_locate(const struct animrt_compact *c, float local_s);

/* The constant pose (constants, identity, track bits) into `pose` slots
 * through `map` (NULL: the identity). */
void rt_write_image(const struct animrt_compact *c, const uint32_t *map, animrt_pose *pose);

/* One sequence of a compact clip at local time t (animrt_sequence_sample). */
void rt_sample_compact_sequence(const animrt_sequence *seq, float local_s, float translation[3],
				float rotation[4], float scale[3]);

/* One animated track (lane of group g) at `at`, in plain C. */
void rt_sample_lane(const struct animrt_compact *c, uint32_t g, uint32_t lane, rt_where at, float *out);

/* The SIMD sampler (sample_simd.c), same contract as the reference below;
 * rt_simd_name says which instruction set it was built for. */
void rt_sample_compact_simd(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose);
const char *rt_simd_name(void);

/* The plain C sampler of a compact clip, the reference the SIMD one is
 * tested against: every animated track at local time t into `pose` slots
 * through `map` (sequence -> pose slot, RT_NO_BONE: left out; NULL: the
 * identity).  Constants and identity come from the image first. */
void rt_sample_compact_reference(const animrt_clip *clip, float local_s, const uint32_t *map,
				 animrt_pose *pose);

#endif
