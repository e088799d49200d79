/*
 * xnb_layout.h - the byte layout of a compiled clip (XNB v5 container,
 * original AnimationWriter payload, reader version 0), described once for
 * both sides of the file: the runtime's loader (lib/animrt/) reads it, the
 * pipeline (lib/animc/, and the writer and importers in formats/) writes it
 * and speaks of its fields.  The normative text is formats/xnb/FORMAT.md.
 * Header-only, standard C only, not installed; little-endian on every host.
 */
#ifndef ANIMC_XNB_LAYOUT_H
#define ANIMC_XNB_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Container header: magic, platform letter, format version, flags, size. */
#define XNB_MAGIC "XNB"
#define XNB_MAGIC_SIZE 3
#define XNB_PLATFORM_OFFSET 3
#define XNB_VERSION_OFFSET 4
#define XNB_FLAGS_OFFSET 5
#define XNB_SIZE_OFFSET 6
#define XNB_HEADER_SIZE 10
#define XNB_FORMAT_VERSION 5
#define XNB_FLAG_HIDEF 0x01  /* the only flag a loader tolerates */
#define XNB_DEFAULT_PLATFORM 'w'
/* Platform letters XNA-family runtimes accept: XNA's and MonoGame's legacy
 * ones (w x m i a d X W n p M r P g l), then MonoGame's current ones
 * (5 PlayStation 5, O Xbox One, S Switch, b WebAssembly, V DesktopVK,
 * G Windows GDK, s Xbox Series, v PS Vita). */
#define XNB_PLATFORMS "wxmiadXWnpMrPgl5OSbVGsv"

/* Body: type readers, shared resources, primary asset reader index. */
#define XNB_READER_NAME_DEFAULT \
	"RobotGameData.GameObject.AnimationReader, RobotGameData, Version=1.0.0.0, Culture=neutral"
#define XNB_READER_VERSION 0
#define XNB_READER_COUNT 1
#define XNB_SHARED_RESOURCES 0
#define XNB_PRIMARY_READER_INDEX 1  /* 1-based; 0 means a null asset */

/* A zstd frame around a whole .xnb (.xnb.zst). */
#define XNB_ZSTD_MAGIC "\x28\xb5\x2f\xfd"
#define XNB_ZSTD_MAGIC_SIZE 4

/* AnimationSequence: int32 KeyFrameSequenceCount, float32 Duration. */
#define XNB_CLIP_HEAD_SIZE 8

/*
 * KeyFrameSequence, after its bone name string: int32 KeyCount, float32
 * Duration, float32 KeyInterval, the 7 flag bytes in xnb_flag order, then
 * the four lists (int32 count + values) in xnb_list order.  The names are
 * the original class's field names, which both XML dialects use as element
 * names; the item type is the .NET type of a list's items.
 *
 * The lists, one row each: id, field name, noun for messages, item type,
 * floats per item.  The three track lists come first, in the order of the
 * clip model's track kinds (animc_track_kind asserts it).
 */
#define XNB_TRACK_LISTS(X)                                          \
	X(TRANSLATION, "Translation", "translation", "Vector3", 3)  \
	X(ROTATION, "Rotation", "rotation", "Quaternion", 4)        \
	X(SCALE, "Scale", "scale", "Vector3", 3)
#define XNB_LISTS(X) XNB_TRACK_LISTS(X) X(TIME, "Time", "time", "float", 1)

/* The flags, in file order: id, field name. */
#define XNB_FLAGS(X)                                   \
	X(HAS_TRANSLATION, "HasTranslation")           \
	X(HAS_ROTATION, "HasRotation")                 \
	X(HAS_SCALE, "HasScale")                       \
	X(HAS_TIME, "HasTime")                         \
	X(FIXED_TRANSLATION, "FixedTranslation")       \
	X(FIXED_ROTATION, "FixedRotation")             \
	X(FIXED_SCALE, "FixedScale")

#define XNB_LIST_ENUM_(id, field, noun, type, width) XNB_LIST_##id,
#define XNB_LIST_WIDTH_(id, field, noun, type, width) width,
#define XNB_LIST_FIELD_(id, field, noun, type, width) field,
#define XNB_LIST_NOUN_(id, field, noun, type, width) noun,
#define XNB_LIST_TYPE_(id, field, noun, type, width) type,
#define XNB_FLAG_ENUM_(id, field) XNB_FLAG_##id,
#define XNB_FLAG_FIELD_(id, field) field,

enum xnb_list { XNB_LISTS(XNB_LIST_ENUM_) XNB_LIST_COUNT };
enum xnb_flag { XNB_FLAGS(XNB_FLAG_ENUM_) XNB_FLAG_COUNT };

/* Floats per item of each list: 3, 4, 3, 1. */
static const unsigned xnb_list_width[XNB_LIST_COUNT] = { XNB_LISTS(XNB_LIST_WIDTH_) };
static const char *const xnb_list_field[XNB_LIST_COUNT] = { XNB_LISTS(XNB_LIST_FIELD_) };
static const char *const xnb_list_noun[XNB_LIST_COUNT] = { XNB_LISTS(XNB_LIST_NOUN_) };
static const char *const xnb_list_type[XNB_LIST_COUNT] = { XNB_LISTS(XNB_LIST_TYPE_) };
static const char *const xnb_flag_field[XNB_FLAG_COUNT] = { XNB_FLAGS(XNB_FLAG_FIELD_) };

/* Has/Fixed flag of track list k (translation, rotation, scale). */
#define XNB_FLAG_HAS(k) ((enum xnb_flag)(XNB_FLAG_HAS_TRANSLATION + (k)))
#define XNB_FLAG_FIXED(k) ((enum xnb_flag)(XNB_FLAG_FIXED_TRANSLATION + (k)))
_Static_assert(XNB_FLAG_HAS_TIME == XNB_FLAG_HAS_TRANSLATION + XNB_LIST_TIME &&
		       XNB_FLAG_FIXED_TRANSLATION == XNB_FLAG_HAS_TIME + 1,
	       "three Has flags in list order, HasTime, then three Fixed flags");

/* Bytes of a sequence before its lists: KeyCount, Duration, KeyInterval, flags. */
#define XNB_SEQUENCE_HEAD_SIZE (4 + 4 + 4 + XNB_FLAG_COUNT)

/* ------------------------------------------------------ primitive codecs */

/* .NET 7-bit encoded int: at most 5 bytes for a uint32. */
#define XNB_7BIT_MAX_SIZE 5

static inline size_t xnb_7bit_size(uint32_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline size_t xnb_7bit_put(uint8_t *p, uint32_t v)
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
 * 0 when the data ends first, or XNB_7BIT_INVALID when the value does not
 * fit in an int32 (as .NET's BinaryReader.Read7BitEncodedInt rejects).
 */
#define XNB_7BIT_INVALID ((size_t)-1)

static inline size_t xnb_7bit_get(const uint8_t *p, size_t avail, uint32_t *out)
{
	uint32_t v = 0;

	for (size_t i = 0; i < XNB_7BIT_MAX_SIZE; i++) {
		if (i >= avail)
			return 0;
		if (i == XNB_7BIT_MAX_SIZE - 1 && p[i] > 0x07)
			return XNB_7BIT_INVALID;
		v |= (uint32_t)(p[i] & 0x7F) << (7 * i);
		if (!(p[i] & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	return XNB_7BIT_INVALID;
}

static inline void xnb_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t xnb_get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void xnb_put_f32(uint8_t *p, float f)
{
	uint32_t v;

	memcpy(&v, &f, 4);
	xnb_put_u32(p, v);
}

static inline float xnb_get_f32(const uint8_t *p)
{
	uint32_t v = xnb_get_u32(p);
	float f;

	memcpy(&f, &v, 4);
	return f;
}

/*
 * Strings (bone and reader names) are UTF-8 without NUL bytes: shortest
 * forms, no surrogates, nothing past U+10FFFF.  True when s[0..n) is; else
 * *bad is the offset of the first byte at fault.
 */
static inline bool xnb_utf8_check(const uint8_t *s, size_t n, size_t *bad)
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

#endif /* ANIMC_XNB_LAYOUT_H */
