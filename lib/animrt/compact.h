/*
 * compact.h - a loaded compact clip (reader version 3) as the samplers read
 * it.  Decoded at load (is_decoded): the keys decoded once, to floats;
 * animated tracks in groups of four of one kind; per group and segment one
 * block of their masks and key offsets; for rotations the arcs between
 * keys.  Built by load_compact.c, read by sample_compact.c and
 * sample_simd.c.  In place: rt_packed and rt_v3 below (load_v3.c).
 * Private to the runtime.
 */
#ifndef ANIMRT_COMPACT_H
#define ANIMRT_COMPACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <animc/animrt.h>

#define RT_LANES 4
/* A lane no track fills: its results are not written. */
#define RT_NO_BONE UINT32_MAX

/* Four tracks of one group in one segment. */
typedef struct rt_block {
	uint64_t mask[RT_LANES];        /* bit i: grid sample 64 s + i is a key */
	uint32_t key_base[RT_LANES];    /* the segment's first key, an index into `keys` */
	uint32_t span;                  /* the block's rows in `spans` */
	uint32_t reserved[3];
} rt_block;
_Static_assert(sizeof(rt_block) == 64, "a block is one cache line");

/*
 * Where grid sample i of a segment falls for the four lanes of a block (its
 * row i): the key at or before it (j, counted from the segment's first, at
 * sample k0) and the next key's sample k1 (RT_NEXT_SEGMENT: the next
 * segment's first; RT_HOLD: none, the last key holds).  Derived from the
 * masks by the loader, so that the SIMD sampler reads one row per group.
 * A track's keys are consecutive in `keys`, so the next key is always the
 * one after key j, in the next segment too.
 */
#define RT_NEXT_SEGMENT 64
#define RT_HOLD 255
typedef struct rt_span {
	uint8_t j[RT_LANES], k0[RT_LANES], k1[RT_LANES], reserved[RT_LANES];
} rt_span;

typedef struct rt_group {
	uint32_t kind;                  /* ANIMRT_TRANSLATION, ROTATION, SCALE */
	uint32_t used;                  /* lanes a track fills: the first `used` */
	uint32_t bone[RT_LANES];        /* the pose slot (sequence) of each lane */
} rt_group;

/*
 * The slerp from a rotation key to the next one of its track, with the
 * quantities interp_slerp_weights derives from their dot product alone,
 * computed by the loader with the same operations: the angle, and 1 /
 * sin(angle) with the sign of the dot product.  `angle` is -1 where the two
 * keys are near (the normalised lerp applies; the sign is then +-1).
 */
typedef struct rt_arc {
	float angle;
	float signed_inv_sin;
} rt_arc;

/*
 * A compact clip sampled in place (load_v3.c): the file's payload kept
 * packed, with its bone names NUL-terminated in place of their length
 * prefixes (which only shifts what follows back), 16 zero bytes after it
 * so that any field may be read with one 8-byte load, and the offsets in
 * that copy of the sections the still pose is read from.
 */
#define RT_PACKED_PAD 16
typedef struct rt_packed {
	const uint8_t *p;
	uint32_t bone_count, sample_count, segment_count, animated_count;
	float rate_hz, duration_s;
	/* Byte offsets in the copy (the loader refuses payloads past 4 GiB). */
	uint32_t names_at, descriptors_at, constants_at;
	uint64_t serial;                /* animrt_rt_new_serial(): tells this clip from one loaded where it was */
} rt_packed;

/*
 * A clip of reader version 3 sampled in place (load_v3.c, sample_v3.c):
 * the payload kept as rt_packed keeps version 2's (names NUL-terminated,
 * RT_PACKED_PAD zero bytes after); struct animrt_compact's groups (by the
 * layout's rule) and bone count are filled, the rest (from `blocks` on) is
 * not there: the still pose is decoded from the payload's descriptors and
 * constants, or copied from a prebuilt one (`still`).  Per group its format and its ranges' offset in the copy, per
 * segment and group its record's offset from the records.
 */
typedef struct rt_v3 {
	uint32_t records_at;
	const uint8_t *format;          /* group_count */
	const uint8_t *has_raw;         /* group_count: 1 where a lane has float32 keys in a segment */
	const uint32_t *range_at;       /* group_count */
	const uint32_t *record_at;      /* segment_count * group_count, segment after segment */
	/* The still pose half prebuilt (load_v3.c), where the clip's memory
	 * bound leaves room for it, else NULL (then decoded on every sample):
	 * every bone's translation (0 where it is not constant) as three
	 * halves, or three floats where a constant is float32 (still_floats);
	 * where a scale is constant (still_scales), every bone's scale as
	 * three halves (1 where it is not constant); then, 4-byte aligned, the payload offset (u32) of each of the
	 * still_rotations constant rotations of u16 codes and their bones
	 * (u16 each); every bone's track bits.  The rotations are decoded on
	 * every sample: as floats they would not fit small clips' bound. */
	const uint8_t *still;
	uint32_t still_rotations;
	bool still_floats, still_scales;
} rt_v3;

struct animrt_compact {
	/* Set for a clip sampled in place: the fields from `blocks` on are
	 * then not there (RT_V3_COMPACT_SIZE), and never read. */
	bool is_packed;
	uint8_t version;                /* in place: the reader version, 2 or 3 */
	rt_packed packed;
	rt_v3 v3;
	float rate_hz;
	uint32_t sample_count;
	uint32_t segment_count;
	uint32_t bone_count;
	uint32_t group_count;
	const rt_group *groups;
	const rt_block *blocks;         /* group_count * segment_count, group after group */
	const rt_span *spans;
	/* The keys as the file's codes decode them (FORMAT.md 7.4): x y z w
	 * per key (w 0 for translation and scale), 16-byte aligned, a track's
	 * keys consecutive in time order, the rotation tracks' first. */
	const float *keys;
	/* One per rotation key: the arc to the next key of its track (the
	 * last key's is never read). */
	const rt_arc *arcs;
	/* The pose where nothing moves: constants, identity elsewhere, and
	 * which tracks each bone has (ANIMRT_TRACK_* bits), one block laid
	 * out as animrt_pose_init lays out a pose (rotation first). */
	const float *image_translation; /* bone_count * 3 */
	const float *image_rotation;    /* bone_count * 4, the block's start */
	const float *image_scale;       /* bone_count * 3 */
	const uint8_t *image_tracks;    /* bone_count */
	/* bone_count * 3: group * RT_LANES + lane of an animated track, or -1. */
	const int32_t *slot;
	const uint32_t *key_count;      /* bone_count * 3: keys of animated tracks */
};
/* The part of struct animrt_compact a clip in place has. */
#define RT_V3_COMPACT_SIZE offsetof(struct animrt_compact, blocks)

/* Key j (counted from block b's segment's first) of a lane. */
static inline const float *rt_key(const struct animrt_compact *c, const rt_block *b, uint32_t lane, uint32_t j)
{
	return c->keys + 4 * ((size_t)b->key_base[lane] + j);
}

/* The arc from key j of a lane (of a rotation group) to the next. */
static inline const rt_arc *rt_key_arc(const struct animrt_compact *c, const rt_block *b, uint32_t lane,
				       uint32_t j)
{
	return &c->arcs[(size_t)b->key_base[lane] + j];
}

/* ---------------------------------------------------------- bit helpers */

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
 * 3, decoding its keys (is_decoded; load.c has read the container into
 * *container, and found the reader name at reader[0..reader_size) of the
 * input). */
animrt_status animrt_rt_load_compact(const uint8_t *data, size_t size, size_t at,
				  const animrt_container *container, const char *reader, uint32_t reader_size,
				  animrt_clip **out, animrt_error *err);

/* The layout walker's failure as the loader's error: its status, byte
 * offset and message (both loaders, load_compact.c and load_v3.c). */
struct compact_walker;
animrt_status animrt_rt_walk_error(const struct compact_walker *w, animrt_error *err);

/* Where a local time falls on the grid: its segment, and its position in
 * the segment (0 to 64).  The position time * rate is exact in double
 * (two floats' product), clamped to [0, samples - 1] (NaN gives 0), and
 * only the part within the segment is rounded to float. */
typedef struct rt_where {
	uint32_t segment;
	float local;
} rt_where;
rt_where animrt_rt_grid_locate(const struct animrt_compact *c, float local_s);

/* The constant pose (constants, identity, track bits) into `pose` slots
 * through `map` (NULL: the identity). */
void animrt_rt_write_image(const struct animrt_compact *c, const uint32_t *map, animrt_pose *pose);

/* One sequence of a compact clip at local time t (animrt_sequence_sample);
 * a NULL output is not written. */
void animrt_rt_sample_compact_sequence(const animrt_sequence *seq, float local_s, float translation[3],
				float rotation[4], float scale[3]);

/* One animated track (lane of group g) at `at`, in plain C. */
void animrt_rt_sample_lane(const struct animrt_compact *c, uint32_t g, uint32_t lane, rt_where at, float *out);

/* The SIMD sampler (sample_simd.c), same contract as the reference below;
 * animrt_rt_simd_name says which instruction set it was built for. */
void animrt_rt_sample_compact_simd(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose);
const char *animrt_rt_simd_name(void);

/* The plain C sampler of a compact clip, the reference the SIMD one is
 * tested against: every animated track at local time t into `pose` slots
 * through `map` (sequence -> pose slot, RT_NO_BONE: left out; NULL: the
 * identity).  Constants and identity come from the image first. */
void animrt_rt_sample_compact_reference(const animrt_clip *clip, float local_s, const uint32_t *map,
				 animrt_pose *pose);

/* Reader version 3 in place (load_v3.c): same contract as
 * animrt_rt_load_compact. */
animrt_status animrt_rt_load_v3(const uint8_t *data, size_t size, size_t at, const animrt_container *container,
			 const char *reader, uint32_t reader_size, animrt_clip **out, animrt_error *err);

/* A clip of reader version 3? */
static inline bool rt_is_v3(const animrt_clip *clip)
{
	return clip->compact && clip->compact->is_packed && clip->compact->version == 3;
}

/* The plain C sampler of a clip of reader version 3 (sample_v3.c): every
 * track at local time t into `pose` slots through `map` (as
 * animrt_rt_sample_compact_reference). */
void animrt_rt_sample_v3(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose);

/* The still pose of a clip of reader version 3 (every track that does
 * not move, and the track bits) into `pose` slots through `map`. */
void animrt_rt_v3_still(const rt_packed *pk, const uint32_t *map, animrt_pose *pose);

/* The lanes of group g at `at` in plain C, into `pose` slots through `map`. */
void animrt_rt_v3_group_plain(const struct animrt_compact *c, uint32_t g, rt_where at, const uint32_t *map,
			      animrt_pose *pose);

/* How one lane's keys decode in one record of a clip of reader version 3
 * (lane_v3.h decodes its keys). */
typedef struct rt_v3_lane {
	const uint8_t *keys;          /* the record's keys */
	uint64_t mask;
	float min[3], step[3];
	uint32_t first;               /* the lane's first key's bit, from `keys` */
	uint32_t segment;             /* the record's */
	uint8_t cbits[3], key_bits, dropped;
	bool is_raw;
} rt_v3_lane;
_Static_assert(sizeof(rt_v3_lane) <= 56, "a lane's decoding fits a context's track cache");

/* Lane l of group g in segment s. */
rt_v3_lane animrt_rt_v3_lane_in(const struct animrt_compact *c, uint32_t g, uint32_t s, uint32_t l);

/* animrt_rt_sample_v3 built for processors with AVX2, BMI1/2, LZCNT,
 * POPCNT and F16C (sample_v3_simd.c, x86-64 only): the same bits. */
void animrt_rt_sample_v3_newer(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose);
/* Does the processor have what that build is for (sample_packed.c, x86-64
 * built without AVX2 only)? */
bool animrt_rt_cpu_is_newer(void);

/* animrt_rt_sample_v3 four tracks at a time with the vector instructions
 * every processor of the architecture has (sample_v3_vec.c: SSE2 on
 * x86-64, NEON on AArch64): the same bits. */
void animrt_rt_sample_v3_four(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_pose *pose);

/* One bone of a clip of reader version 3 (animrt_rt_packed_sample_bone). */
uint8_t animrt_rt_v3_sample_bone(const animrt_clip *clip, uint32_t sequence, float local_s, float *const out[3]);

/* animrt_track_keys on a clip of reader version 3. */
uint32_t animrt_rt_v3_track_keys(const animrt_clip *clip, uint32_t sequence, unsigned track, uint32_t first,
			  uint32_t capacity, float *times_s, float *values);


#define RT_NO_SEGMENT UINT32_MAX
/* arc.angle of keys whose arc is not computed yet. */
#define RT_NO_ARC (-2.0f)

/*
 * A context's cache of one animated track of a clip of reader version 3
 * (context_v3.c): the keys a and b (x y z w; w 0 for translation and
 * scale) around the playhead, in segment `segment` at samples k0 and k1
 * (RT_NEXT_SEGMENT: key b is the next segment's first; RT_HOLD: the last
 * key holds, b is a), key a's index j in the segment, for rotations the
 * arc from a to b (RT_NO_ARC until the slerps compute it), and how the
 * lane's keys decode in a record, so that the playhead moving on unpacks
 * one key.
 */
typedef struct rt_v3_cache {
	/* What each sample reads, first. */
	float a[4], b[4];
	rt_arc arc;
	uint32_t segment;               /* RT_NO_SEGMENT: no keys yet */
	uint32_t slot;                  /* the pose slot it feeds */
	uint32_t at;                    /* group * RT_LANES + lane */
	uint8_t track, k0, k1, j;
	/* The lane's decoding in `segment`, or in the next one where key b
	 * is its first (the next refill is there, unless the playhead jumps
	 * back). */
	rt_v3_lane lane;
} rt_v3_cache;
/* animrt.h (animrt_context_init_for) gives this size to callers. */
_Static_assert(sizeof(rt_v3_cache) == 112, "a track cache is 112 bytes");

/*
 * A context (animrt.h) in its caller's memory: the header; the key cursors
 * of the original layout (one per pose bone); for a compact clip in place,
 * found once when the context starts to follow the clip, the pose where
 * nothing moves (constants and identity, with the track bits) and one
 * cache per animated track the pose takes, rotations first, so that
 * sampling copies the one and walks the others only.
 */
struct animrt_context {
	const animrt_clip *clip;        /* the clip the caches hold keys of */
	const uint32_t *map;            /* and the map to pose slots they were filled through */
	uint32_t bone_count;
	uint32_t track_count;           /* caches in use */
	uint32_t image_at, caches_at;   /* byte offsets from the context's start */
	uint32_t rotation_count;        /* the first caches in use that are rotations */
	uint32_t track_capacity;        /* caches there is room for */
	float playhead;                 /* the last sample's local time (sample_packed.c) */
	uint32_t near_run;              /* steps in a row up to it not past `near` */
	float near, period;             /* seconds a step may take, and the clip's (context_v3.c) */
	uint64_t clip_serial, map_serial; /* of the clip in place and the binding (0: none) */
	uint32_t cursor[];              /* bone_count */
};
/* The header, then per bone a cursor and its part of the image, with two
 * alignments to 16 bytes on the way, then track_capacity caches (three per
 * bone from animrt_context_init). */
_Static_assert(sizeof(struct animrt_context) + 32 <= ANIMRT_CONTEXT_HEADER_BYTES, "context header bytes");
_Static_assert(ANIMRT_CONTEXT_BYTES_PER_BONE >= 4 + 41 + 3 * sizeof(rt_v3_cache), "context bytes per bone");

/* The image: translation, rotation, scale, tracks of bone_count bones. */
static inline float *rt_context_image(animrt_context *ctx)
{
	return (float *)(void *)((unsigned char *)ctx + ctx->image_at);
}

static inline rt_v3_cache *rt_context_v3_caches(animrt_context *ctx)
{
	return (rt_v3_cache *)(void *)((unsigned char *)ctx + ctx->caches_at);
}

/* What `ctx` needs to play a clip of reader version 3 through `map`
 * (context_v3.c): the still pose in its image, and a cache per animated
 * track the pose takes, rotations first.  False when they do not fit. */
bool animrt_rt_v3_context_plan(animrt_context *ctx, const animrt_clip *clip, const uint32_t *map);

/* A clip of reader version 3 at local time t into `pose` with `ctx`
 * (following the clip): the image copied, then each cache's keys
 * interpolated (is_reference: one at a time, interp_slerp; else the
 * rotations four wide, or, is_newer, eight wide with the lanes and keys
 * decoded by the build for processors with AVX2, sample_v3_simd.c, which
 * the caller checked the processor has: animrt_rt_cpu_is_newer), the same
 * bits as without a context.  The dispatcher (sample_packed.c) calls it
 * only near the context's last sample (ctx->near); a jump goes to the
 * samplers without a context, and leaves the caches as they were. */
/* The steps in a row, each within ctx->near, after which a context takes
 * a sample (sample_packed.c): a jump and the two samples after it go
 * without the context. */
#define RT_CONTEXT_SETTLE 3u
void animrt_rt_v3_sample_context(const animrt_clip *clip, float local_s, animrt_context *ctx, animrt_pose *pose,
				 bool is_reference, bool is_newer);

/* One bone (sequence) of a clip of reader version 3 with `ctx`, which
 * follows the clip without a map (animrt_rt_packed_sample_bone). */
uint8_t animrt_rt_v3_bone_context(const animrt_clip *clip, uint32_t sequence, float local_s, animrt_context *ctx,
				  float *const out[3]);

/* Make `ctx` (NULL: nothing) follow `clip` sampled through `map` (a
 * binding's sample_map, or NULL): another clip or map empties its caches.
 * False when the clip has more animated tracks for the pose than the
 * context has caches (it then follows no clip). */
bool animrt_rt_context_follow(animrt_context *ctx, const animrt_clip *clip, const uint32_t *map, uint64_t map_serial);

/* A number no other clip or binding of the process has (from 1 on). */
uint64_t animrt_rt_new_serial(void);

/* The serial of a clip in place, else 0. */
static inline uint64_t rt_clip_serial(const animrt_clip *clip)
{
	return clip->compact && clip->compact->is_packed ? clip->compact->packed.serial : 0;
}

/* Whether `ctx` follows `clip` through `map` (of the binding `map_serial`,
 * 0 for none); pointers alone would take a clip or binding made where a
 * freed one was for that one. */
static inline bool rt_context_is_on(const animrt_context *ctx, const animrt_clip *clip, const uint32_t *map,
				    uint64_t map_serial)
{
	return ctx->clip == clip && ctx->map == map && ctx->map_serial == map_serial &&
	       ctx->clip_serial == rt_clip_serial(clip);
}

/* animrt_rt_context_follow where the context follows another clip or map: the
 * check each sample makes, without a call. */
static inline bool rt_context_follows(animrt_context *ctx, const animrt_clip *clip, const uint32_t *map,
				      uint64_t map_serial)
{
	return !ctx || rt_context_is_on(ctx, clip, map, map_serial) || animrt_rt_context_follow(ctx, clip, map, map_serial);
}

/*
 * A compact clip in place at local time t (seconds, after the time rule)
 * into `pose` slots through `map` (NULL: the identity, RT_NO_BONE: left
 * out), with the context's caches (ctx NULL: none; else following this
 * clip, indexed by pose slot).  is_reference: the scalar slerps, else four
 * wide (simd.h).
 */
void animrt_rt_sample_packed(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_context *ctx,
		      animrt_pose *pose, bool is_reference);

/* animrt_rt_sample_packed built for the baseline instruction set whatever the
 * processor has (animrt_rt_sample_packed takes a build for processors with
 * POPCNT, BMI1, BMI2, LZCNT and AVX2 where it can): the tests hold the two
 * to the same bits. */
void animrt_rt_sample_packed_baseline(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_context *ctx,
			       animrt_pose *pose, bool is_reference);

/* One bone (sequence) of a clip in place at local time t into out[track]
 * (NULL: not written), with the context's caches when ctx is not NULL (it
 * follows the clip without a map, and has the clip's bones); returns the
 * bone's ANIMRT_TRACK_* bits. */
uint8_t animrt_rt_packed_sample_bone(const animrt_clip *clip, uint32_t sequence, float local_s, animrt_context *ctx,
			      float *const out[3]);

/* animrt_track_keys on a clip in place. */
uint32_t animrt_rt_packed_track_keys(const animrt_clip *clip, uint32_t sequence, unsigned track, uint32_t first,
			      uint32_t capacity, float *times_s, float *values);

/* animrt_clip_bone_name on a clip in place. */
const char *animrt_rt_packed_bone_name(const animrt_clip *clip, uint32_t sequence, uint32_t *size);

#endif
