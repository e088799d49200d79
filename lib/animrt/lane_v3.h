/*
 * lane_v3.h - one key of a lane of a clip of reader version 3 decoded as
 * FORMAT.md 7.5 says, the one decoding the plain C sampler (sample_v3.c)
 * and a context's caches (context_v3.c) share.  Private to the runtime.
 */
#ifndef ANIMRT_LANE_V3_H
#define ANIMRT_LANE_V3_H

#include <string.h>

#include "compact.h"
#include "compact_layout.h"
#include "simd.h"

/* 8 bytes at p, little-endian (the payload copy's padding covers the end). */
static inline uint64_t rt_v3_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* A rotation from its three stored components and the one left out, as
 * compact_rotation_rebuild, the component placed by selects rather than
 * a loop (its branches follow the tracks, which vary). */
static inline void rt_v3_rebuild(const float kept[3], unsigned dropped, float out[4])
{
	float r = compact_rotation_w(kept[0], kept[1], kept[2]);

	out[0] = dropped == 0 ? r : kept[0];
	out[1] = dropped == 0 ? kept[0] : dropped == 1 ? r : kept[1];
	out[2] = dropped <= 1 ? kept[1] : dropped == 2 ? r : kept[2];
	out[3] = dropped == 3 ? r : kept[2];
}

/* Key j of a lane: x y z (w 0), or a rotation with its left-out component
 * rebuilt.  A quantised key is at most 57 bits (19 a component), so one
 * 8-byte load from its first byte holds it whole. */
static inline void rt_v3_lane_key(const rt_v3_lane *v, uint32_t j, unsigned track, float out[4])
{
	uint64_t bit = v->first + (uint64_t)j * v->key_bits;
	float k[3];

	if (v->is_raw) {
		for (unsigned c = 0; c < 3; c++) {
			uint64_t b = bit + 32 * c;
			uint32_t u = (uint32_t)(rt_v3_load64(v->keys + (size_t)(b >> 3)) >> (b & 7));

			memcpy(&k[c], &u, 4);
		}
	} else {
		uint64_t q = rt_v3_load64(v->keys + (size_t)(bit >> 3)) >> (bit & 7);
		unsigned c0 = v->cbits[0], c1 = v->cbits[1], c2 = v->cbits[2];

		k[0] = compact_dequantize(v->min[0], v->step[0], (uint32_t)q & ((1u << c0) - 1));
		k[1] = compact_dequantize(v->min[1], v->step[1], (uint32_t)(q >> c0) & ((1u << c1) - 1));
		k[2] = compact_dequantize(v->min[2], v->step[2], (uint32_t)(q >> (c0 + c1)) & ((1u << c2) - 1));
	}
	if (track == ANIMRT_ROTATION) {
		rt_v3_rebuild(k, v->dropped, out);
	} else {
		memcpy(out, k, sizeof k);
		out[3] = 0;
	}
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__AVX2__) && RT_SIMD_SSE2
/* The slerps of a context's rotations eight wide where the processor has
 * AVX2 (animrt_rt_cpu_is_newer), as the sampler without a context. */
#define RT_V3_CONTEXT_NEWER 1
#endif

/* Key j of a lane into out (x y z w): rt_v3_lane_key, or a build of it. */
typedef void (*rt_v3_key_fn)(const rt_v3_lane *v, uint32_t j, unsigned track, float out[4]);

/* rt_v3_lane_key built for processors with AVX2 (sample_v3_simd.c): the
 * same bits. */
void animrt_rt_v3_lane_key_newer(const rt_v3_lane *v, uint32_t j, unsigned track, float out[4]);

/* Keys j and j + 1 of a lane that is not raw into a and b at once, in
 * the same build: the same bits. */
void animrt_rt_v3_lane_keys2_newer(const rt_v3_lane *v, uint32_t j, unsigned track, float a[4], float b[4]);

/* animrt_rt_v3_lane_in in the same build: the same decoding. */
rt_v3_lane animrt_rt_v3_lane_in_newer(const struct animrt_compact *c, uint32_t g, uint32_t s, uint32_t l);

/* Rotation caches of a context waiting for their slerps, eight at a time
 * (context_v3.c), and where each result goes. */
typedef struct rt_v3_slerps8 {
	uint32_t count;
	rt_v3_cache *tc[8];
	float *out[8];
} rt_v3_slerps8;

/* The slerps of the waiting caches at the local grid position `local`,
 * eight wide, as context_v3.c's four wide ones (the same bits), on
 * processors with AVX2 (sample_v3_simd.c); empties `sl`. */
void animrt_rt_v3_context_slerps_newer(rt_v3_slerps8 *sl, float local);

#endif
