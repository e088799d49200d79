/*
 * v3_layout.h - a prototype of a compact layout laid out for random access
 * (a "reader version 3"), built in memory by scripts/bench_v3.c from the
 * keys of a compact clip (reader version 2) and the lossless clip, and
 * sampled there.  Not a file format yet: the bytes it counts are what a
 * file would hold.
 *
 * Animated tracks go four of one kind to a group (the loader's groups).
 * Per group: the tracks' ranges, f16 min[3][4] and extent[3][4] (by
 * component, then lane).  Per group and segment of 64 grid samples, one
 * record, byte aligned:
 *   byte 0      flags: bit 0 dense (every sample is a key, no mask)
 *   bytes 1-3   bits of component 0, 1, 2, shared by the four lanes
 *   byte 4      rotations: the component each lane leaves out, 2 bits a lane
 *   bytes 5-7   zero
 *   24 bytes    (clips of more than one segment) the segment's part of
 *               each lane's range: u8 m[3][4], then u8 x[3][4]
 *               (min + extent * m / 256, extent * (x + 1) / 256)
 *   8 bytes     (sparse records) the key mask the four lanes share
 *   rows        one per key, lane-interleaved by component: the 4 codes of
 *               component 0 (b0 bits each), then component 1, then 2.
 * A record's byte offset is found in a table (memory, 4 bytes a record).
 * Constants and identity: the still pose as floats (the loader's image).
 */
#ifndef ANIMC_V3_LAYOUT_H
#define ANIMC_V3_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define V3_LANES 4
#define V3_DENSE 1u
#define V3_HEAD 8
#define V3_CODES 24
#define V3_NO_SLOT 0xFFFFu

typedef struct v3_group {
	uint32_t kind;                  /* ANIMRT_TRANSLATION, ROTATION, SCALE */
	uint16_t slot[V3_LANES];        /* pose slot of each lane, V3_NO_SLOT: none */
	uint16_t range[2][3][V3_LANES]; /* f16 min, extent; [component][lane] */
} v3_group;

typedef struct v3_clip {
	float rate_hz, duration_s;
	uint32_t sample_count, segment_count, group_count, bone_count;
	int has_codes;                  /* segment codes present (more than one segment) */
	v3_group *groups;
	uint32_t *record_at;            /* group_count * segment_count byte offsets into data */
	uint8_t *data;                  /* records, then 16 zero bytes */
	size_t data_bytes;
	float *image;                   /* bone_count * 10 floats + bone_count bytes: the still pose */
	size_t image_bytes;
	/* What a file would hold for the animated tracks (ranges, records). */
	size_t file_bytes;
	int use_nlerp;
} v3_clip;

#endif
