/*
 * animrt_layout.h - the byte layout of a compiled clip (XNB v5 container,
 * original AnimationWriter payload, reader version 0), described once for the
 * writer (formats/xnb) and the loader (lib/animrt.c).  The normative text is
 * formats/xnb/FORMAT.md.  Standard C only; little-endian on every host.
 */
#ifndef ANIMRT_LAYOUT_H
#define ANIMRT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Container header: magic, platform letter, format version, flags, size. */
#define ANIMRT_XNB_MAGIC "XNB"
#define ANIMRT_XNB_MAGIC_SIZE 3
#define ANIMRT_XNB_PLATFORM_OFFSET 3
#define ANIMRT_XNB_VERSION_OFFSET 4
#define ANIMRT_XNB_FLAGS_OFFSET 5
#define ANIMRT_XNB_SIZE_OFFSET 6
#define ANIMRT_XNB_HEADER_SIZE 10
#define ANIMRT_XNB_FORMAT_VERSION 5
#define ANIMRT_XNB_FLAG_HIDEF 0x01  /* the only flag a loader tolerates */
#define ANIMRT_XNB_DEFAULT_PLATFORM 'w'
/* Platform letters XNA-family runtimes accept. */
#define ANIMRT_XNB_PLATFORMS "wxmiadXWnpMrPgl"

/* Body: type readers, shared resources, primary asset reader index. */
#define ANIMRT_READER_NAME_DEFAULT \
	"RobotGameData.GameObject.AnimationReader, RobotGameData, Version=1.0.0.0, Culture=neutral"
#define ANIMRT_READER_VERSION 0
#define ANIMRT_READER_COUNT 1
#define ANIMRT_SHARED_RESOURCES 0
#define ANIMRT_PRIMARY_READER_INDEX 1  /* 1-based; 0 means a null asset */

/* A zstd frame around a whole .xnb (.xnb.zst). */
#define ANIMRT_ZSTD_MAGIC "\x28\xb5\x2f\xfd"
#define ANIMRT_ZSTD_MAGIC_SIZE 4

/* AnimationSequence: int32 KeyFrameSequenceCount, float32 Duration. */
#define ANIMRT_CLIP_HEAD_SIZE 8

/*
 * KeyFrameSequence, after its bone name string: int32 KeyCount, float32
 * Duration, float32 KeyInterval, the 7 flag bytes in animrt_flag order, then
 * the four lists (int32 count + values) in animrt_list order.
 */
enum animrt_flag {
	ANIMRT_FLAG_HAS_TRANSLATION = 0,
	ANIMRT_FLAG_HAS_ROTATION,
	ANIMRT_FLAG_HAS_SCALE,
	ANIMRT_FLAG_HAS_TIME,
	ANIMRT_FLAG_FIXED_TRANSLATION,
	ANIMRT_FLAG_FIXED_ROTATION,
	ANIMRT_FLAG_FIXED_SCALE,
	ANIMRT_FLAG_COUNT
};

enum animrt_list {
	ANIMRT_LIST_TRANSLATION = 0,
	ANIMRT_LIST_ROTATION,
	ANIMRT_LIST_SCALE,
	ANIMRT_LIST_TIME,
	ANIMRT_LIST_COUNT
};

/* Floats per list entry: Vector3, Quaternion (x y z w), Vector3, float. */
static const unsigned animrt_list_width[ANIMRT_LIST_COUNT] = { 3, 4, 3, 1 };

/* Has/Fixed flag of track list k (translation, rotation, scale). */
#define ANIMRT_FLAG_HAS(k) ((enum animrt_flag)(ANIMRT_FLAG_HAS_TRANSLATION + (k)))
#define ANIMRT_FLAG_FIXED(k) ((enum animrt_flag)(ANIMRT_FLAG_FIXED_TRANSLATION + (k)))

/* Bytes of a sequence before its lists: KeyCount, Duration, KeyInterval, flags. */
#define ANIMRT_SEQUENCE_HEAD_SIZE (4 + 4 + 4 + ANIMRT_FLAG_COUNT)

/* ------------------------------------------------------ primitive codecs */

/* .NET 7-bit encoded int: at most 5 bytes for a uint32. */
#define ANIMRT_7BIT_MAX_SIZE 5

static inline size_t animrt_7bit_size(uint32_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline size_t animrt_7bit_put(uint8_t *p, uint32_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)((v & 0x7F) | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/*
 * Decode a 7-bit encoded int from p[0..avail).  Returns the bytes used (1..5),
 * 0 when the data ends first, or ANIMRT_7BIT_INVALID when the value does not
 * fit in an int32 (as .NET's BinaryReader.Read7BitEncodedInt rejects).
 */
#define ANIMRT_7BIT_INVALID ((size_t)-1)

static inline size_t animrt_7bit_get(const uint8_t *p, size_t avail, uint32_t *out)
{
	uint32_t v = 0;

	for (size_t i = 0; i < ANIMRT_7BIT_MAX_SIZE; i++) {
		if (i >= avail)
			return 0;
		if (i == ANIMRT_7BIT_MAX_SIZE - 1 && p[i] > 0x07)
			return ANIMRT_7BIT_INVALID;
		v |= (uint32_t)(p[i] & 0x7F) << (7 * i);
		if (!(p[i] & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	return ANIMRT_7BIT_INVALID;
}

static inline void animrt_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t animrt_get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void animrt_put_f32(uint8_t *p, float f)
{
	uint32_t v;

	memcpy(&v, &f, 4);
	animrt_put_u32(p, v);
}

static inline float animrt_get_f32(const uint8_t *p)
{
	uint32_t v = animrt_get_u32(p);
	float f;

	memcpy(&f, &v, 4);
	return f;
}

/*
 * Strings (bone and reader names) are UTF-8 without NUL bytes: shortest
 * forms, no surrogates, nothing past U+10FFFF.  True when s[0..n) is; else
 * *bad is the offset of the first byte at fault.
 */
static inline bool animrt_utf8_check(const uint8_t *s, size_t n, size_t *bad)
{
	size_t i = 0;

	while (i < n) {
		uint8_t c = s[i];
		uint32_t cp;
		size_t len;

		if (c == 0) {
			*bad = i;
			return false;
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			len = 2;
			cp = c & 0x1F;
		} else if (c >= 0xE0 && c <= 0xEF) {
			len = 3;
			cp = c & 0x0F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			len = 4;
			cp = c & 0x07;
		} else {
			*bad = i;
			return false;
		}
		if (len > n - i) {
			*bad = i;
			return false;
		}
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xC0) != 0x80) {
				*bad = i;
				return false;
			}
			cp = cp << 6 | (s[i + k] & 0x3F);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF)) {
			*bad = i;
			return false;
		}
		i += len;
	}
	return true;
}

#endif /* ANIMRT_LAYOUT_H */
