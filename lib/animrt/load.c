/*
 * load.c - the loader: checks a compiled clip byte by byte against the
 * layout (lib/common/xnb_layout.h) and copies it into one allocation.  One parse
 * function runs twice: first to check everything and measure, then to fill.
 * Standard C only; zstd when built with ANIMRT_WITH_ZSTD.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "compact.h"
#include "compact_layout.h"
#include "error.h"
#include "time_index.h"
#include "xnb_layout.h"

#ifdef ANIMRT_WITH_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif

/* The largest .xnb the loader accepts, compressed or not. */
#define MAX_XNB_BYTES ((size_t)1 << 30)

bool animrt_has_zstd(void)
{
#ifdef ANIMRT_WITH_ZSTD
	return true;
#else
	return false;
#endif
}

/* ------------------------------------------------------------------ parser */

typedef struct parser {
	const uint8_t *data;
	size_t size;
	/* The size the file is said to have: `size`, or more while only its
	 * start is out (a zstd frame being decompressed).  Counts are judged
	 * against it, and what is past `size` is not there yet (truncated). */
	size_t end;
	size_t pos;
	animrt_error *err;
	animrt_status status;
	/* Measure pass: sizes.  Fill pass: where things go. */
	const animrt_open_options *options;
	bool is_fill;
	uint32_t sequence_count;
	size_t float_count;
	size_t index_bytes;          /* the time indexes (time_index.h) */
	size_t string_bytes;
	animrt_clip *clip;
	animrt_sequence *sequences;
	float *floats;
	unsigned char *indexes;
	bool has_time_index;
	char *strings;
	/* Reader version 3: a compact loader (load_v3.c in place, load_compact.c
	 * decoding) takes over at payload_at. */
	bool is_compact;
	size_t payload_at;
	animrt_container container;
	const char *reader_name;     /* in the input, reader_name_size bytes */
	uint32_t reader_name_size;
	bool is_platform_waived;     /* parsing on past an unknown platform letter */
} parser;

#define FAIL(ps, st, off, ...) \
	((ps)->status = animrt_rt_error_set((ps)->err, (st), (int64_t)(off), __VA_ARGS__), false)

/* The bytes left in the file; those out so far (avail) may be fewer. */
static size_t left(const parser *ps)
{
	return ps->end - ps->pos;
}

static size_t avail(const parser *ps)
{
	return ps->size - ps->pos;
}

static bool need(parser *ps, size_t n, const char *what)
{
	if (n > avail(ps))
		return FAIL(ps, ANIMRT_ERR_TRUNCATED, ps->pos,
			    "the data ends inside %s (%zu bytes needed, %zu left)", what, n, avail(ps));
	return true;
}

static bool get_u8(parser *ps, uint8_t *v, const char *what)
{
	if (!need(ps, 1, what))
		return false;
	*v = ps->data[ps->pos++];
	return true;
}

static bool get_i32(parser *ps, int32_t *v, const char *what)
{
	if (!need(ps, 4, what))
		return false;
	*v = (int32_t)xnb_get_u32(ps->data + ps->pos);
	ps->pos += 4;
	return true;
}

static bool get_finite(parser *ps, float *v, const char *what, bool non_negative)
{
	size_t at = ps->pos;

	if (!need(ps, 4, what))
		return false;
	*v = xnb_get_f32(ps->data + at);
	ps->pos += 4;
	if (!isfinite(*v))
		return FAIL(ps, ANIMRT_ERR_VALUE, at, "%s is %s", what, isnan(*v) ? "NaN" : "infinite");
	if (non_negative && *v < 0)
		return FAIL(ps, ANIMRT_ERR_VALUE, at, "%s is negative (%g)", what, (double)*v);
	return true;
}

static bool get_7bit(parser *ps, uint32_t *v, const char *what)
{
	size_t used = xnb_7bit_get(ps->data + ps->pos, avail(ps), v);

	if (used == 0)
		return FAIL(ps, ANIMRT_ERR_TRUNCATED, ps->pos, "the data ends inside %s", what);
	if (used == XNB_7BIT_INVALID)
		return FAIL(ps, ANIMRT_ERR_COUNT, ps->pos, "%s is not a valid 7-bit encoded int32", what);
	ps->pos += used;
	return true;
}

/* A length-prefixed UTF-8 string.  When `out` is given it is kept: in the
 * fill pass copied NUL-terminated, in the measure pass counted. */
static bool get_string(parser *ps, const char **out, uint32_t *out_size, const char *what)
{
	size_t at = ps->pos, bad;
	uint32_t n;

	if (!get_7bit(ps, &n, what))
		return false;
	if (n > avail(ps))
		return FAIL(ps, ANIMRT_ERR_TRUNCATED, at, "%s is %u bytes long, %zu are left", what, n,
			    avail(ps));
	if (!xnb_utf8_check(ps->data + ps->pos, n, &bad))
		return FAIL(ps, ANIMRT_ERR_STRING, ps->pos + bad, "%s is not valid UTF-8 without NUL",
			    what);
	if (out && ps->is_fill) {
		memcpy(ps->strings, ps->data + ps->pos, n);
		ps->strings[n] = '\0';
		*out = ps->strings;
		ps->strings += (size_t)n + 1;
	} else if (out) {
		ps->string_bytes += (size_t)n + 1;
		*out = NULL;
	}
	if (out_size)
		*out_size = n;
	ps->pos += n;
	return true;
}

/* ------------------------------------------------------------ time index */

/*
 * The bucket count of the time index (time_index.h) of n key times, given
 * as the file's little-endian floats at `raw`: one for every
 * RT_TIME_INDEX_WINDOW / 2 keys, or twice, four times... as many where
 * keys bunch up, at most one per key, so that no bucket holds more than
 * RT_TIME_INDEX_WINDOW; 0 for no index.
 */
static uint32_t time_index_buckets(const uint8_t *raw, uint32_t n)
{
	if (n < RT_TIME_INDEX_MIN_KEYS || n > RT_TIME_INDEX_MAX_KEYS)
		return 0;
	float last_s = xnb_get_f32(raw + 4 * ((size_t)n - 1));

	if (!(last_s > 0))
		return 0;
	for (uint32_t i = 1; i < n; i++)
		if (!(xnb_get_f32(raw + 4 * (size_t)i) > xnb_get_f32(raw + 4 * ((size_t)i - 1))))
			return 0;
	for (uint32_t buckets = n / (RT_TIME_INDEX_WINDOW / 2); buckets <= n; buckets *= 2) {
		animrt_time_index ix = { (float)buckets / last_s, buckets };
		uint32_t run = 0, previous = UINT32_MAX, i;

		for (i = 0; i < n; i++) {
			uint32_t b = rt_time_bucket(&ix, xnb_get_f32(raw + 4 * (size_t)i));

			run = b == previous ? run + 1 : 1;
			previous = b;
			if (run > RT_TIME_INDEX_WINDOW)
				break;
		}
		if (i == n)
			return buckets;
	}
	return 0;
}

/* Its bytes: a multiple of 4, so that the next index stays aligned. */
static size_t time_index_bytes(uint32_t buckets)
{
	return (sizeof(animrt_time_index) + (size_t)buckets * sizeof(uint16_t) + 3) & ~(size_t)3;
}

static const animrt_time_index *time_index_build(void *memory, const float *times, uint32_t n, uint32_t buckets)
{
	animrt_time_index *ix = memory;
	uint32_t b = 0;

	ix->bucket_count = buckets;
	ix->scale = (float)buckets / times[n - 1];
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t at = rt_time_bucket(ix, times[i]); b <= at; b++)
			ix->start[b] = (uint16_t)i;
	for (; b < buckets; b++)
		ix->start[b] = (uint16_t)n;
	return ix;
}

/* ----------------------------------------------------------- sequences */

static bool parse_sequence(parser *ps, uint32_t index)
{
	animrt_sequence seq;
	uint8_t flags[XNB_FLAG_COUNT];
	const float *lists[XNB_LIST_COUNT];
	uint32_t counts[XNB_LIST_COUNT];
	char what[96];
	size_t at = ps->pos;
	int32_t key_count;

	memset(&seq, 0, sizeof seq);
	snprintf(what, sizeof what, "the bone name of sequence %u", index);
	if (!get_string(ps, &seq.bone, &seq.bone_size, what))
		return false;
	/* In the measure pass the name is not kept: quote it from the input. */
	int name_len = seq.bone_size > 40 ? 40 : (int)seq.bone_size;
	const char *name = (const char *)ps->data + ps->pos - seq.bone_size;

	at = ps->pos;
	if (!get_i32(ps, &key_count, "KeyCount"))
		return false;
	if (key_count < 1)
		return FAIL(ps, ANIMRT_ERR_COUNT, at, "KeyCount of bone '%.*s' is %d; it must be at least 1",
			    name_len, name, key_count);
	seq.key_count = (uint32_t)key_count;
	if (!get_finite(ps, &seq.duration_s, "sequence Duration", true) ||
	    !get_finite(ps, &seq.key_interval_s, "KeyInterval", true))
		return false;
	for (int f = 0; f < XNB_FLAG_COUNT; f++) {
		at = ps->pos;
		if (!get_u8(ps, &flags[f], xnb_flag_field[f]))
			return false;
		if (flags[f] > 1)
			return FAIL(ps, ANIMRT_ERR_BOOL, at, "%s of bone '%.*s' is byte %u, not 0 or 1",
				    xnb_flag_field[f], name_len, name, flags[f]);
	}
	for (int l = 0; l < XNB_LIST_COUNT; l++) {
		size_t item_bytes = 4u * xnb_list_width[l];
		uint32_t want;
		int32_t count;

		at = ps->pos;
		if (!get_i32(ps, &count, "a list count"))
			return false;
		if (count < 0)
			return FAIL(ps, ANIMRT_ERR_COUNT, at, "%s count of bone '%.*s' is negative (%d)",
				    xnb_list_noun[l], name_len, name, count);
		if ((size_t)count > left(ps) / item_bytes)
			return FAIL(ps, ANIMRT_ERR_COUNT, at,
				    "%s count %d of bone '%.*s' needs %llu bytes, %zu are left",
				    xnb_list_noun[l], count, name_len, name,
				    (unsigned long long)count * item_bytes, left(ps));
		if (l == XNB_LIST_TIME)
			want = flags[XNB_FLAG_HAS_TIME] ? seq.key_count : 0;
		else if (!flags[XNB_FLAG_HAS(l)])
			want = 0;
		else
			want = flags[XNB_FLAG_FIXED(l)] ? 1 : seq.key_count;
		if ((uint32_t)count != want)
			return FAIL(ps, ANIMRT_ERR_COUNT, at,
				    "%s count of bone '%.*s' is %d; its flags and KeyCount %u need %u",
				    xnb_list_noun[l], name_len, name, count, seq.key_count, want);
		counts[l] = want;
		size_t n = (size_t)want * xnb_list_width[l];
		/* Within the file (left), but maybe not yet out of a zstd frame
		 * (fails_early parses what is): truncated then. */
		if (!need(ps, n * 4, "a list of values"))
			return false;
		for (size_t i = 0; i < n; i++) {
			float v = xnb_get_f32(ps->data + ps->pos + 4 * i);

			if (!isfinite(v))
				return FAIL(ps, ANIMRT_ERR_VALUE, ps->pos + 4 * i,
					    "%s value %zu of bone '%.*s' is %s", xnb_list_noun[l],
					    i / xnb_list_width[l], name_len, name,
					    isnan(v) ? "NaN" : "infinite");
			if (l == XNB_LIST_TIME && i > 0 &&
			    v < xnb_get_f32(ps->data + ps->pos + 4 * (i - 1)))
				return FAIL(ps, ANIMRT_ERR_ORDER, ps->pos + 4 * i,
					    "time %zu of bone '%.*s' (%g s) is before the previous one",
					    i, name_len, name, (double)v);
		}
		lists[l] = NULL;
		if (ps->is_fill && n) {
			for (size_t i = 0; i < n; i++)
				ps->floats[i] = xnb_get_f32(ps->data + ps->pos + 4 * i);
			lists[l] = ps->floats;
			ps->floats += n;
		} else {
			ps->float_count += n;
		}
		uint32_t buckets = l == XNB_LIST_TIME ? time_index_buckets(ps->data + ps->pos, want) : 0;
		if (buckets && ps->is_fill) {
			seq.time_index = time_index_build(ps->indexes, lists[l], want, buckets);
			ps->has_time_index = true;
			ps->indexes += time_index_bytes(buckets);
		} else if (buckets) {
			ps->index_bytes += time_index_bytes(buckets);
		}
		ps->pos += n * 4;
	}
	if (!ps->is_fill)
		return true;
	seq.has_translation = flags[XNB_FLAG_HAS_TRANSLATION];
	seq.has_rotation = flags[XNB_FLAG_HAS_ROTATION];
	seq.has_scale = flags[XNB_FLAG_HAS_SCALE];
	seq.has_time = flags[XNB_FLAG_HAS_TIME];
	seq.is_fixed_translation = flags[XNB_FLAG_FIXED_TRANSLATION];
	seq.is_fixed_rotation = flags[XNB_FLAG_FIXED_ROTATION];
	seq.is_fixed_scale = flags[XNB_FLAG_FIXED_SCALE];
	seq.translation_count = counts[XNB_LIST_TRANSLATION];
	seq.rotation_count = counts[XNB_LIST_ROTATION];
	seq.scale_count = counts[XNB_LIST_SCALE];
	seq.time_count = counts[XNB_LIST_TIME];
	seq.translation = lists[XNB_LIST_TRANSLATION];
	seq.rotation = lists[XNB_LIST_ROTATION];
	seq.scale = lists[XNB_LIST_SCALE];
	seq.times_s = lists[XNB_LIST_TIME];
	ps->sequences[index] = seq;
	return true;
}

/* ---------------------------------------------------------- reader names */

/* The length of a reader name's type part: up to its first comma outside
 * brackets (generic arguments carry commas), trailing spaces left out. */
static size_t type_part_size(const char *name, size_t size)
{
	size_t n = 0;
	int depth = 0;

	for (; n < size; n++) {
		if (name[n] == '[')
			depth++;
		else if (name[n] == ']' && depth > 0)
			depth--;
		else if (name[n] == ',' && depth == 0)
			break;
	}
	while (n > 0 && name[n - 1] == ' ')
		n--;
	return n;
}

static bool equals(const char *a, size_t a_size, const char *b)
{
	size_t b_size = strlen(b);

	return a_size == b_size && memcmp(a, b, a_size) == 0;
}

bool animrt_reader_is_accepted(const char *name, size_t name_size, const animrt_open_options *options)
{
	static const char suffix[] = "AnimationReader";
	size_t type = name ? type_part_size(name, name_size) : 0;

	if (!name)
		return false;
	if (options) {
		for (uint32_t i = 0; i < options->reader_name_count; i++) {
			const char *want = options->reader_names ? options->reader_names[i] : NULL;

			if (want && (equals(name, name_size, want) || equals(name, type, want)))
				return true;
		}
		if (options->is_listed_only)
			return false;
	}
	return type >= sizeof suffix - 1 && memcmp(name + type - (sizeof suffix - 1), suffix,
						   sizeof suffix - 1) == 0;
}

/* The smallest sequence: empty name, head, four empty lists. */
#define MIN_SEQUENCE_BYTES (1 + XNB_SEQUENCE_HEAD_SIZE + 4 * XNB_LIST_COUNT)

static bool parse(parser *ps)
{
	animrt_container c;
	uint32_t reader_count, primary;
	int32_t sequence_count;
	float duration;
	size_t at;

	memset(&c, 0, sizeof c);
	ps->pos = 0;
	if (ps->size < XNB_MAGIC_SIZE || memcmp(ps->data, XNB_MAGIC, XNB_MAGIC_SIZE)) {
		if (ps->size < XNB_MAGIC_SIZE && !memcmp(ps->data, XNB_MAGIC, ps->size))
			return FAIL(ps, ANIMRT_ERR_TRUNCATED, 0, "the data ends inside the XNB magic");
		return FAIL(ps, ANIMRT_ERR_MAGIC, 0, "no XNB magic: this is not a compiled clip");
	}
	if (!need(ps, XNB_HEADER_SIZE, "the XNB header"))
		return false;
	c.platform = (char)ps->data[XNB_PLATFORM_OFFSET];
	c.format_version = ps->data[XNB_VERSION_OFFSET];
	c.flags = ps->data[XNB_FLAGS_OFFSET];
	c.file_size_bytes = xnb_get_u32(ps->data + XNB_SIZE_OFFSET);
	if ((!c.platform || !strchr(XNB_PLATFORMS, c.platform)) && !ps->is_platform_waived) {
		/* A texture of a platform newer than this list is still refused
		 * for what it holds: the rest is parsed as if the letter were
		 * known, and another reader's name wins over the letter. */
		parser peek = *ps;
		animrt_error peek_err;

		peek.err = &peek_err;
		peek.is_fill = false;
		peek.is_platform_waived = true;
		if (!parse(&peek) && peek.status == ANIMRT_ERR_CONTENT) {
			if (ps->err)
				*ps->err = peek_err;
			ps->status = peek.status;
			return false;
		}
		return FAIL(ps, ANIMRT_ERR_MAGIC, XNB_PLATFORM_OFFSET,
			    "platform byte 0x%02x is not one of the letters '%s'",
			    (unsigned)(uint8_t)c.platform, XNB_PLATFORMS);
	}
	if (c.format_version != XNB_FORMAT_VERSION)
		return FAIL(ps, ANIMRT_ERR_VERSION, XNB_VERSION_OFFSET,
			    "XNB format version %u; this loader reads version %d", c.format_version,
			    XNB_FORMAT_VERSION);
	if (c.flags & 0xC0)
		return FAIL(ps, ANIMRT_ERR_FLAGS, XNB_FLAGS_OFFSET,
			    "flags 0x%02x: LZX/LZ4-compressed XNB is not supported", c.flags);
	if (c.flags & ~XNB_FLAG_HIDEF)
		return FAIL(ps, ANIMRT_ERR_FLAGS, XNB_FLAGS_OFFSET, "unknown flag bits 0x%02x",
			    c.flags & ~XNB_FLAG_HIDEF);
	if (c.file_size_bytes != ps->end)
		return FAIL(ps, ANIMRT_ERR_SIZE, XNB_SIZE_OFFSET,
			    "the header says the file is %u bytes, it is %zu", c.file_size_bytes, ps->end);
	ps->pos = XNB_HEADER_SIZE;

	at = ps->pos;
	if (!get_7bit(ps, &reader_count, "the type reader count"))
		return false;
	if (reader_count < 1)
		return FAIL(ps, ANIMRT_ERR_READER, at, "no type readers are declared");
	/* Each reader takes at least 5 bytes (empty name, int32 version). */
	if (reader_count > left(ps) / 5)
		return FAIL(ps, ANIMRT_ERR_COUNT, at, "%u type readers cannot fit in %zu bytes",
			    reader_count, left(ps));
	size_t reader_at = ps->pos;
	for (uint32_t i = 0; i < reader_count; i++) {
		int32_t version;

		if (!get_string(ps, NULL, NULL, "a type reader name") ||
		    !get_i32(ps, &version, "a type reader version"))
			return false;
	}
	size_t shared_at = ps->pos;
	if (!get_7bit(ps, &c.shared_resources, "the shared resource count"))
		return false;
	at = ps->pos;
	if (!get_7bit(ps, &primary, "the asset's type reader index"))
		return false;
	if (primary == 0)
		return FAIL(ps, ANIMRT_ERR_READER, at, "the asset is null (type reader index 0)");
	if (primary > reader_count)
		return FAIL(ps, ANIMRT_ERR_READER, at, "the asset uses type reader %u of %u", primary,
			    reader_count);

	/* Back to the primary reader's entry: its name first (a texture or a
	 * font is told apart before anything else of it is judged), then its
	 * version. */
	size_t after_readers = ps->pos;
	ps->pos = reader_at;
	for (uint32_t i = 1; i <= primary; i++) {
		size_t name_at = ps->pos;
		uint32_t name_size = 0;
		int32_t version;

		if (!get_string(ps, i == primary ? &c.reader : NULL, &name_size, "a type reader name"))
			return false;
		if (i == primary) {
			const char *name = (const char *)ps->data + ps->pos - name_size;

			if (!animrt_reader_is_accepted(name, name_size, ps->options)) {
				size_t type = type_part_size(name, name_size);

				return FAIL(ps, ANIMRT_ERR_CONTENT, name_at,
					    "holds %.*s%s, not an AnimationSequence (its type reader "
					    "is not an animation reader)",
					    (int)(type > 120 ? 120 : type), name, type > 120 ? "..." : "");
			}
			ps->reader_name = name;
			ps->reader_name_size = name_size;
		}
		at = ps->pos;
		if (!get_i32(ps, &version, "a type reader version"))
			return false;
		c.reader_version = version;
	}
	if (c.reader_version == COMPACT_READER_VERSION_OLD || c.reader_version == COMPACT_READER_VERSION)
		return FAIL(ps, ANIMRT_ERR_READER_VERSION, at,
			    "reader version %d is the compact layout of an earlier animc (%s), which this loader "
			    "no longer reads; compile the source again: rebuild with this animc, which writes "
			    "reader version %d", c.reader_version,
			    c.reader_version == COMPACT_READER_VERSION_OLD ? "0.1" : "0.2 to 0.4",
			    COMPACT3_READER_VERSION);
	if (c.reader_version != XNB_READER_VERSION && c.reader_version != COMPACT3_READER_VERSION)
		return FAIL(ps, ANIMRT_ERR_READER_VERSION, at,
			    "reader version %d is not known; this loader reads versions %d and %d",
			    c.reader_version, XNB_READER_VERSION, COMPACT3_READER_VERSION);
	if (c.shared_resources != XNB_SHARED_RESOURCES)
		return FAIL(ps, ANIMRT_ERR_SHARED, shared_at, "%u shared resources are declared; clips have none",
			    c.shared_resources);
	if (c.reader_version == COMPACT3_READER_VERSION) {
		/* The compact layout: load_v3.c (in place) or load_compact.c
		 * (decoded) reads the payload. */
		ps->is_compact = true;
		ps->payload_at = after_readers;
		ps->container = c;
		return true;
	}
	ps->pos = after_readers;

	at = ps->pos;
	if (!get_i32(ps, &sequence_count, "KeyFrameSequenceCount"))
		return false;
	if (sequence_count < 0)
		return FAIL(ps, ANIMRT_ERR_COUNT, at, "KeyFrameSequenceCount is negative (%d)", sequence_count);
	if (!get_finite(ps, &duration, "the clip Duration", true))
		return false;
	if ((size_t)sequence_count > left(ps) / MIN_SEQUENCE_BYTES)
		return FAIL(ps, ANIMRT_ERR_COUNT, at,
			    "KeyFrameSequenceCount %d cannot fit in the %zu bytes left", sequence_count,
			    left(ps));
	ps->sequence_count = (uint32_t)sequence_count;
	for (uint32_t i = 0; i < ps->sequence_count; i++)
		if (!parse_sequence(ps, i))
			return false;
	if (left(ps))
		return FAIL(ps, ANIMRT_ERR_TRAILING, ps->pos, "%zu bytes are left after the last sequence",
			    left(ps));
	if (ps->is_fill) {
		ps->clip->container = c;
		ps->clip->duration_s = duration;
		ps->clip->sequence_count = ps->sequence_count;
		ps->clip->sequences = ps->sequences;
		ps->clip->compact = NULL;
		ps->clip->grid_rate_hz = 0;
		ps->clip->grid_sample_count = 0;
		ps->clip->is_additive = false;
		ps->clip->has_time_index = ps->has_time_index;
	}
	return true;
}

/* Check, measure, allocate once, fill. */
static animrt_status load_xnb(const uint8_t *data, size_t size, bool is_zstd,
			      const animrt_open_options *options, animrt_clip **out, animrt_error *err)
{
	parser ps;
	size_t seq_bytes, float_bytes, total;
	unsigned char *block;

	memset(&ps, 0, sizeof ps);
	ps.data = data;
	ps.size = ps.end = size;
	ps.err = err;
	ps.options = options;
	if (!parse(&ps))
		return ps.status;
	if (ps.is_compact) {
		ps.container.is_zstd = is_zstd;
		if (options && options->is_decoded)
			return animrt_rt_load_compact(data, size, ps.payload_at, &ps.container, ps.reader_name,
						   ps.reader_name_size, out, err);
		return animrt_rt_load_v3(data, size, ps.payload_at, &ps.container, ps.reader_name,
					 ps.reader_name_size, out, err);
	}

	seq_bytes = (size_t)ps.sequence_count * sizeof(animrt_sequence);
	float_bytes = ps.float_count * sizeof(float);
	total = sizeof(animrt_clip) + seq_bytes + float_bytes + ps.index_bytes + ps.string_bytes;
	block = malloc(total);
	if (!block)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", total);
	ps.is_fill = true;
	ps.clip = (animrt_clip *)block;
	ps.sequences = (animrt_sequence *)(block + sizeof(animrt_clip));
	ps.floats = (float *)(block + sizeof(animrt_clip) + seq_bytes);
	ps.indexes = block + sizeof(animrt_clip) + seq_bytes + float_bytes;
	ps.strings = (char *)(ps.indexes + ps.index_bytes);
	ps.float_count = ps.index_bytes = ps.string_bytes = 0;
	if (!parse(&ps)) {
		free(block);
		return ps.status;
	}
	ps.clip->container.is_zstd = is_zstd;
	*out = ps.clip;
	return ANIMRT_OK;
}

#ifdef ANIMRT_WITH_ZSTD
/* The frame's bytes stop growing at what the XNB header inside says the
 * file is (its bytes 6 to 9), checked once they are out: a small frame of
 * zeros, or one whose header holds too little, is refused at once, not
 * after a gigabyte.  The header's own faults are load_xnb's to name, from
 * what came out. */
#define XNB_HEADER_BYTES 10

/* Past this much out of a frame, each time its buffer grows, what is out
 * is parsed as the start of a file of the size its header says: a clip
 * that ends long before that size (a small frame of a clip and a
 * gigabyte of zeros), or any other fault in it, is refused then, not once
 * the whole gigabyte is out.  A compact clip is parsed by its own loader,
 * once it is all out. */
#ifndef ANIMRT_ZSTD_PROBE_FROM
#define ANIMRT_ZSTD_PROBE_FROM (1u << 20)
#endif
/* The buffer a frame without its size starts with; it doubles.  The fuzz
 * build makes both small, so that small inputs meet the early look. */
#ifndef ANIMRT_ZSTD_FIRST_BYTES
#define ANIMRT_ZSTD_FIRST_BYTES (1u << 16)
#endif

/* Whether the start of a file, `used` of its `declared` bytes, already
 * fails as the whole would (*status, err said); false when it may be
 * whole yet (truncated).  A compact clip's payload, which its own loader
 * reads, fails early when its keys end inside what is out: the rest are
 * bytes after them. */
static bool fails_early(const uint8_t *xnb, size_t used, size_t declared, const animrt_open_options *options,
			animrt_error *err, animrt_status *status)
{
	parser ps;
	animrt_error probe_err;
	animrt_clip *clip = NULL;

	memset(&ps, 0, sizeof ps);
	ps.data = xnb;
	ps.size = used;
	ps.end = declared;
	ps.err = &probe_err;
	ps.options = options;
	if (!parse(&ps)) {
		if (ps.status == ANIMRT_ERR_TRUNCATED)
			return false;
		if (err)
			*err = probe_err;
		*status = ps.status;
		return true;
	}
	if (!ps.is_compact)
		return false;   /* whole: nothing is left after it (parse said so) */
	/* Inconclusive leaves *status as it was: the caller goes on. */
	animrt_status packed = animrt_rt_load_v3(xnb, used, ps.payload_at, &ps.container, ps.reader_name,
						 ps.reader_name_size, &clip, &probe_err);
	animrt_close(clip);
	if (packed == ANIMRT_OK)
		probe_err.byte_offset = (int64_t)used;
	else if (packed != ANIMRT_ERR_TRAILING)
		return false;   /* the whole decides */
	*status = animrt_rt_error_set(err, ANIMRT_ERR_TRAILING, probe_err.byte_offset,
				      "%llu bytes are left after the keys",
				      (unsigned long long)(declared - (size_t)probe_err.byte_offset));
	return true;
}

static animrt_status zstd_inflate(const uint8_t *data, size_t size, unsigned long long content,
				  const animrt_open_options *options, uint8_t **out, size_t *out_size, animrt_error *err)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	size_t cap = content != ZSTD_CONTENTSIZE_UNKNOWN && content < ANIMRT_ZSTD_FIRST_BYTES ? (size_t)content + 1 :
		     ANIMRT_ZSTD_FIRST_BYTES;
	size_t used = 0, limit = MAX_XNB_BYTES;
	uint8_t *xnb = NULL;
	animrt_status status = ANIMRT_OK;

	if (!dctx)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot create a zstd context");
	ZSTD_inBuffer in = { data, size, 0 };
	for (bool is_checked = false;;) {
		uint8_t *grown = realloc(xnb, cap);

		if (!grown) {
			status = animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", cap);
			break;
		}
		xnb = grown;
		ZSTD_outBuffer outb = { xnb, cap, used };
		size_t r = ZSTD_decompressStream(dctx, &outb, &in);

		used = outb.pos;
		if (ZSTD_isError(r)) {
			if (ZSTD_getErrorCode(r) == ZSTD_error_checksum_wrong)
				status = animrt_rt_error_set(err, ANIMRT_ERR_COMPRESSION, -1, "the zstd frame's checksum "
							  "(bytes %zu to %zu of the file) does not match what it holds: the "
							  "file is damaged", size - 4, size - 1);
			else
				status = animrt_rt_error_set(err, ANIMRT_ERR_COMPRESSION, -1,
							  "cannot decompress the zstd frame: %s", ZSTD_getErrorName(r));
			break;
		}
		if (!is_checked && used >= XNB_HEADER_BYTES) {
			uint32_t declared = (uint32_t)xnb[6] | (uint32_t)xnb[7] << 8 | (uint32_t)xnb[8] << 16 |
					    (uint32_t)xnb[9] << 24;

			is_checked = true;
			if (memcmp(xnb, "XNB", 3) != 0)
				break;   /* load_xnb names what is wrong */
			if (declared < XNB_HEADER_BYTES || declared > MAX_XNB_BYTES ||
			    (content != ZSTD_CONTENTSIZE_UNKNOWN && declared != content)) {
				if (content != ZSTD_CONTENTSIZE_UNKNOWN)
					status = animrt_rt_error_set(err, ANIMRT_ERR_SIZE, 6, "the header says the file "
								  "is %u bytes, the zstd frame holds %llu", declared,
								  content);
				else
					status = animrt_rt_error_set(err, ANIMRT_ERR_SIZE, 6, "the header says the file "
								  "is %u bytes, which no file of this format is",
								  declared);
				break;
			}
			limit = declared;
		}
		if (used > limit) {
			status = animrt_rt_error_set(err, ANIMRT_ERR_SIZE, -1,
						  "the zstd frame holds more than the %zu bytes its XNB header says",
						  limit);
			break;
		}
		if (r == 0)
			break;
		if (in.pos == in.size && used < cap) {
			status = animrt_rt_error_set(err, ANIMRT_ERR_COMPRESSION, -1, "the zstd frame is truncated");
			break;
		}
		if (used == cap) {
			if (is_checked && used >= ANIMRT_ZSTD_PROBE_FROM && fails_early(xnb, used, limit, options, err, &status))
				break;
			if (cap > limit) {
				status = animrt_rt_error_set(err, ANIMRT_ERR_SIZE, -1, "the zstd frame holds more than %zu bytes",
							  limit);
				break;
			}
			cap = cap > limit / 2 ? limit + 1 : 2 * cap;
		}
	}
	ZSTD_freeDCtx(dctx);
	if (status != ANIMRT_OK) {
		free(xnb);
		return status;
	}
	*out = xnb;
	*out_size = used;
	return ANIMRT_OK;
}

static animrt_status load_zstd(const uint8_t *data, size_t size, const animrt_open_options *options,
			       animrt_clip **out, animrt_error *err)
{
	size_t frame = ZSTD_findFrameCompressedSize(data, size);
	unsigned long long content;
	uint8_t *xnb = NULL;
	size_t got = 0;
	animrt_status status;

	/* Errors of the frame itself have no place in the decompressed .xnb,
	 * which byte_offset counts in: -1, and a place the message gives is
	 * one of the compressed file. */
	if (ZSTD_isError(frame) && ZSTD_getErrorCode(frame) == ZSTD_error_srcSize_wrong)
		return animrt_rt_error_set(err, ANIMRT_ERR_COMPRESSION, -1,
				 "the file ends inside its zstd frame (%zu bytes): it is cut short", size);
	if (ZSTD_isError(frame))
		return animrt_rt_error_set(err, ANIMRT_ERR_COMPRESSION, -1, "the zstd frame is damaged: %s",
				 ZSTD_getErrorName(frame));
	if (frame != size)
		return animrt_rt_error_set(err, ANIMRT_ERR_TRAILING, -1,
				 "%zu byte%s of the .xnb.zst follow%s its zstd frame (bytes 0 to %zu of the file)",
				 size - frame, size - frame == 1 ? "" : "s", size - frame == 1 ? "s" : "", frame - 1);
	content = ZSTD_getFrameContentSize(data, size);
	if (content == ZSTD_CONTENTSIZE_ERROR)
		return animrt_rt_error_set(err, ANIMRT_ERR_COMPRESSION, -1, "the zstd frame header is damaged");
	if (content != ZSTD_CONTENTSIZE_UNKNOWN && content > MAX_XNB_BYTES)
		return animrt_rt_error_set(err, ANIMRT_ERR_SIZE, -1,
					"the zstd frame holds %llu bytes, more than the %zu allowed", content,
					MAX_XNB_BYTES);
	status = zstd_inflate(data, size, content, options, &xnb, &got, err);
	if (status != ANIMRT_OK)
		return status;
	status = load_xnb(xnb, got, true, options, out, err);
	free(xnb);
	return status;
}
#endif

animrt_status animrt_open(const void *data, size_t size, animrt_clip **out, animrt_error *err)
{
	return animrt_open_with(data, size, NULL, out, err);
}

animrt_status animrt_open_with(const void *data, size_t size, const animrt_open_options *options,
			       animrt_clip **out, animrt_error *err)
{
	const uint8_t *bytes = data;

	if (err) {
		err->status = ANIMRT_OK;
		err->byte_offset = -1;
		err->message[0] = '\0';
	}
	if (!out)
		return animrt_rt_error_set(err, ANIMRT_ERR_ARGUMENT, -1, "no place for the result");
	*out = NULL;
	if (!data && size)
		return animrt_rt_error_set(err, ANIMRT_ERR_ARGUMENT, -1, "no data");
	if (size > MAX_XNB_BYTES)
		return animrt_rt_error_set(err, ANIMRT_ERR_SIZE, -1, "%zu bytes is more than the %zu allowed", size,
				 MAX_XNB_BYTES);
	if (size >= XNB_ZSTD_MAGIC_SIZE && !memcmp(bytes, XNB_ZSTD_MAGIC, XNB_ZSTD_MAGIC_SIZE)) {
#ifdef ANIMRT_WITH_ZSTD
		return load_zstd(bytes, size, options, out, err);
#else
		return animrt_rt_error_set(err, ANIMRT_ERR_UNSUPPORTED, 0,
				 "this is a .xnb.zst file; this build of the loader has no zstd support");
#endif
	}
	return load_xnb(size ? bytes : (const uint8_t *)"", size, false, options, out, err);
}

animrt_status animrt_open_file(const char *path, animrt_clip **out, animrt_error *err)
{
	return animrt_open_file_with(path, NULL, out, err);
}

/* What the first bytes of a file say of how much of it to read: a file
 * of no clip's magic needs no more than them (the loader refuses it at
 * byte 0), an XNB file its stated size and a byte to tell a longer one.
 * SIZE_MAX: not known yet, or a .xnb.zst file (read whole). */
static size_t bytes_to_read(const uint8_t *buf, size_t size, bool at_end)
{
	if (size < XNB_HEADER_SIZE && !at_end)
		return SIZE_MAX;
	if (size >= XNB_ZSTD_MAGIC_SIZE && !memcmp(buf, XNB_ZSTD_MAGIC, XNB_ZSTD_MAGIC_SIZE))
		return SIZE_MAX;
	if (size < XNB_HEADER_SIZE || memcmp(buf, XNB_MAGIC, XNB_MAGIC_SIZE) != 0)
		return size;
	return (size_t)xnb_get_u32(buf + XNB_SIZE_OFFSET) + 1;
}

animrt_status animrt_open_file_with(const char *path, const animrt_open_options *options,
				    animrt_clip **out, animrt_error *err)
{
	FILE *fp;
	uint8_t *buf = NULL;
	size_t size = 0, cap = 0, limit = SIZE_MAX;
	animrt_status status;

	if (out)
		*out = NULL;
	if (!path || !out)
		return animrt_rt_error_set(err, ANIMRT_ERR_ARGUMENT, -1, "no path or no place for the result");
	/* The messages name no path: the caller, which named the file, names
	 * it, as for a damaged file's (one naming scheme, not the path twice). */
	fp = fopen(path, "rb");
	if (!fp)
		return animrt_rt_error_set(err, ANIMRT_ERR_IO, -1, "cannot open: %s", strerror(errno));
	/* A folder opens, and its first read fails (EISDIR): say so.  Reading
	 * stops where the first bytes rule the file out (a video, /dev/zero),
	 * so a wrong file costs no more than its start. */
	errno = 0;
	for (;;) {
		if (size == cap) {
			size_t grown_cap = cap ? cap * 2 : 1 << 16;
			uint8_t *grown;

			if (cap > MAX_XNB_BYTES) {
				free(buf);
				fclose(fp);
				return animrt_rt_error_set(err, ANIMRT_ERR_SIZE, -1, "the file is larger than %zu bytes",
							   (size_t)MAX_XNB_BYTES);
			}
			grown = realloc(buf, grown_cap);
			if (!grown) {
				free(buf);
				fclose(fp);
				return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", grown_cap);
			}
			buf = grown;
			cap = grown_cap;
		}
		size_t want = cap - size;

		if (limit != SIZE_MAX && limit - size < want)
			want = limit - size;
		size_t n = want ? fread(buf + size, 1, want, fp) : 0;

		size += n;
		if (limit == SIZE_MAX)
			limit = bytes_to_read(buf, size, n == 0);
		if (n == 0 || size >= limit)
			break;
	}
	if (ferror(fp)) {
		int read_errno = errno;

		free(buf);
		fclose(fp);
		return animrt_rt_error_set(err, ANIMRT_ERR_IO, -1, "cannot read: %s",
					   read_errno ? strerror(read_errno) : "read error");
	}
	uint32_t stated = size >= XNB_HEADER_SIZE ? xnb_get_u32(buf + XNB_SIZE_OFFSET) : 0;
	if (stated >= XNB_HEADER_SIZE && size > stated && !memcmp(buf, XNB_MAGIC, XNB_MAGIC_SIZE)) {
		/* Longer than its header says: the rest is not read.  Its
		 * length where the stream can tell it (a file, not a pipe; one
		 * the first read took whole is no longer than what was read). */
		long end = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;

		free(buf);
		fclose(fp);
		if (end > (long)stated)
			return animrt_rt_error_set(err, ANIMRT_ERR_SIZE, XNB_SIZE_OFFSET,
						   "the header says the file is %u bytes, it is %ld", stated, end);
		return animrt_rt_error_set(err, ANIMRT_ERR_SIZE, XNB_SIZE_OFFSET,
					   "the header says the file is %u bytes, it is longer", stated);
	}
	fclose(fp);
	status = animrt_open_with(buf, size, options, out, err);
	free(buf);
	return status;
}

void animrt_close(animrt_clip *clip)
{
	free(clip);
}
