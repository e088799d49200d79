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

/* Key j of a lane: x y z (w 0), or a rotation with its left-out component rebuilt. */
static inline void rt_v3_lane_key(const rt_v3_lane *v, uint32_t j, unsigned track, float out[4])
{
	uint64_t bit = v->first + (uint64_t)j * v->key_bits;
	float k[3];

	for (unsigned c = 0, at = 0; c < 3; at += v->cbits[c], c++) {
		uint64_t b = bit + at, q = rt_v3_load64(v->keys + (size_t)(b >> 3)) >> (b & 7);

		if (v->is_raw) {
			uint32_t u = (uint32_t)q;

			memcpy(&k[c], &u, 4);
		} else {
			k[c] = compact_dequantize(v->min[c], v->step[c], (uint32_t)q & ((1u << v->cbits[c]) - 1));
		}
	}
	if (track == ANIMRT_ROTATION) {
		compact_rotation_rebuild(k, v->dropped, out);
	} else {
		memcpy(out, k, sizeof k);
		out[3] = 0;
	}
}

#endif
