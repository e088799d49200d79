/*
 * xnb_write.c - serialises a clip as an XNB v5 file: the original
 * AnimationWriter payload (reader version 0), or the compact layout (reader
 * version 3, its payload from animc_compact_write) when the pipeline
 * encoded the clip for it.  The layouts come from lib/common/ (xnb_layout.h,
 * and compact_layout.h's table and walker), the descriptions the loader
 * reads with, so the two cannot drift apart.
 */
#include <stdlib.h>
#include <string.h>

#include <animc/animc_formats.h>
#include "compact_layout.h"
#include "compress.h"
#include "xnb_layout.h"

/* A track of the clip model is written as the list of the same index. */
_Static_assert((int)ANIMC_TRANSLATION == (int)XNB_LIST_TRANSLATION &&
		       (int)ANIMC_ROTATION == (int)XNB_LIST_ROTATION &&
		       (int)ANIMC_SCALE == (int)XNB_LIST_SCALE && (int)ANIMC_TRACK_COUNT == (int)XNB_LIST_TIME,
	       "animc_track_kind is the order of the format's track lists");

const char *animc_xnb_platforms(void)
{
	return XNB_PLATFORMS;
}

const char *animc_xnb_reader_name_default(void)
{
	return XNB_READER_NAME_DEFAULT;
}

/* Add n to *total unless it would pass the 4 GiB the size field can state. */
static bool add_size(uint64_t *total, uint64_t n)
{
	*total += n;
	return *total <= UINT32_MAX;
}

static uint32_t list_count(const animc_channel *ch, int list)
{
	if (list == XNB_LIST_TIME)
		return ch->has_time ? ch->key_count : 0;
	return ch->tracks[list].is_present ? ch->tracks[list].value_count : 0;
}

static uint8_t *put_string(uint8_t *p, const char *s, size_t len)
{
	p += xnb_7bit_put(p, (uint32_t)len);
	memcpy(p, s, len);
	return p + len;
}

static uint8_t *put_floats(uint8_t *p, const float *v, size_t n)
{
	for (size_t i = 0; i < n; i++, p += 4)
		xnb_put_f32(p, v[i]);
	return p;
}

/* The options name a file a reader takes: a platform of the format's, a
 * compression of animc_compression (another one wrote the file plain),
 * a reader name of UTF-8 and not empty (no runtime takes an asset whose
 * reader has no name).  Else false, reported. */
static bool options_are_writable(const animc_xnb_options *options, char platform, const char *reader,
				 size_t reader_len, animc_diag_sink *sink)
{
	size_t bad;

	if (!strchr(XNB_PLATFORMS, platform)) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "platform '%c' is not one of '%s'", platform,
				  XNB_PLATFORMS);
		return false;
	}
	if ((unsigned)options->compression > ANIMC_COMPRESSION_ZSTD) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "compression %d is neither ANIMC_COMPRESSION_NONE nor "
				  "ANIMC_COMPRESSION_ZSTD", (int)options->compression);
		return false;
	}
	if (reader_len == 0) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the reader name is empty: give one, or NULL for the "
				  "default");
		return false;
	}
	if (!xnb_utf8_check((const uint8_t *)reader, reader_len, &bad)) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the reader name is not UTF-8 (byte %zu)", bad);
		return false;
	}
	return true;
}

animc_status animc_xnb_write(const animc_clip *clip, const animc_xnb_options *options,
			     uint8_t **out, size_t *out_size, animc_diag_sink *sink)
{
	static const animc_xnb_options defaults;
	const char *reader;
	size_t reader_len;
	char platform;
	uint64_t total = XNB_HEADER_SIZE;
	uint8_t *buf, *p;

	if (out)
		*out = NULL;
	if (out_size)
		*out_size = 0;
	if (!clip || !out || !out_size) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "animc_xnb_write: no %s (NULL)", !clip ? "clip" : !out ?
				  "place for the bytes, out" : "place for their size, out_size");
		return ANIMC_ERR_ARGUMENT;
	}
	if (!options)
		options = &defaults;
	platform = options->platform ? options->platform : XNB_DEFAULT_PLATFORM;
	reader = options->reader_name ? options->reader_name
	       : clip->compact	      ? COMPACT_READER_NAME_DEFAULT
				      : XNB_READER_NAME_DEFAULT;
	reader_len = strlen(reader);
	if (!options_are_writable(options, platform, reader, reader_len, sink))
		return ANIMC_ERR_ARGUMENT;
	if (clip->channel_count > INT32_MAX || reader_len > INT32_MAX) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the clip is too large for the format");
		return ANIMC_ERR_LIMIT;
	}

	/* Measure, refusing anything the size field cannot state. */
	uint8_t *payload = NULL;
	size_t payload_size = 0;
	if (clip->compact) {
		animc_status status = animc_compact_write(clip, &payload, &payload_size, sink);

		if (status != ANIMC_OK)
			return status;
	}
	bool fits = add_size(&total, xnb_7bit_size(XNB_READER_COUNT)) &&
		    add_size(&total, xnb_7bit_size((uint32_t)reader_len) + reader_len + 4) &&
		    add_size(&total, xnb_7bit_size(XNB_SHARED_RESOURCES)) &&
		    add_size(&total, xnb_7bit_size(XNB_PRIMARY_READER_INDEX)) &&
		    add_size(&total, clip->compact ? payload_size : XNB_CLIP_HEAD_SIZE);
	for (uint32_t i = 0; fits && !clip->compact && i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];
		size_t bone_len = strlen(ch->bone);

		if (bone_len > INT32_MAX)
			fits = false;
		fits = fits && add_size(&total, xnb_7bit_size((uint32_t)bone_len) + bone_len) &&
		       add_size(&total, XNB_SEQUENCE_HEAD_SIZE);
		for (int l = 0; fits && l < XNB_LIST_COUNT; l++) {
			uint32_t n = list_count(ch, l);

			if (n > INT32_MAX || (l != XNB_LIST_TIME && n && !ch->tracks[l].values) ||
			    (l == XNB_LIST_TIME && n && !ch->times_s)) {
				animc_diag_report(sink, ANIMC_ERROR, ch->line, 0,
						  "bone '%s': %s list is inconsistent; the clip was not validated",
						  ch->bone, xnb_list_noun[l]);
				return ANIMC_ERR_INVALID;
			}
			fits = add_size(&total, 4 + (uint64_t)n * 4 * xnb_list_width[l]);
		}
	}
	if (!fits) {
		free(payload);
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the compiled clip would pass the 4 GiB the "
				  "XNB size field can state");
		return ANIMC_ERR_LIMIT;
	}

	buf = malloc((size_t)total);
	if (!buf) {
		free(payload);
		return ANIMC_ERR_NOMEM;
	}
	memcpy(buf, XNB_MAGIC, XNB_MAGIC_SIZE);
	buf[XNB_PLATFORM_OFFSET] = (uint8_t)platform;
	buf[XNB_VERSION_OFFSET] = XNB_FORMAT_VERSION;
	buf[XNB_FLAGS_OFFSET] = 0;
	xnb_put_u32(buf + XNB_SIZE_OFFSET, (uint32_t)total);
	p = buf + XNB_HEADER_SIZE;
	p += xnb_7bit_put(p, XNB_READER_COUNT);
	p = put_string(p, reader, reader_len);
	xnb_put_u32(p, clip->compact ? COMPACT3_READER_VERSION : XNB_READER_VERSION);
	p += 4;
	p += xnb_7bit_put(p, XNB_SHARED_RESOURCES);
	p += xnb_7bit_put(p, XNB_PRIMARY_READER_INDEX);
	if (clip->compact) {
		memcpy(p, payload, payload_size);
		p += payload_size;
		free(payload);
	} else {
		xnb_put_u32(p, clip->channel_count);
		xnb_put_f32(p + 4, clip->duration_s);
		p += XNB_CLIP_HEAD_SIZE;
	}
	for (uint32_t i = 0; !clip->compact && i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];
		uint8_t flags[XNB_FLAG_COUNT];

		p = put_string(p, ch->bone, strlen(ch->bone));
		xnb_put_u32(p, ch->key_count);
		xnb_put_f32(p + 4, ch->duration_s);
		xnb_put_f32(p + 8, ch->key_interval_s);
		p += 12;
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			flags[XNB_FLAG_HAS(k)] = ch->tracks[k].is_present;
			flags[XNB_FLAG_FIXED(k)] = ch->tracks[k].is_fixed;
		}
		flags[XNB_FLAG_HAS_TIME] = ch->has_time;
		memcpy(p, flags, XNB_FLAG_COUNT);
		p += XNB_FLAG_COUNT;
		for (int l = 0; l < XNB_LIST_COUNT; l++) {
			uint32_t n = list_count(ch, l);

			xnb_put_u32(p, n);
			p += 4;
			p = put_floats(p, l == XNB_LIST_TIME ? ch->times_s : ch->tracks[l].values,
				       (size_t)n * xnb_list_width[l]);
		}
	}
	if ((uint64_t)(p - buf) != total) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "internal error: wrote %zu of %llu bytes",
				  (size_t)(p - buf), (unsigned long long)total);
		free(buf);
		return ANIMC_ERR_INVALID;
	}
	if (options->compression == ANIMC_COMPRESSION_ZSTD) {
		uint8_t *packed;
		size_t packed_size;
		animc_status status = animc_zstd_wrap(buf, (size_t)total, options->zstd_level, &packed,
						      &packed_size, sink);

		free(buf);
		if (status != ANIMC_OK)
			return status;
		buf = packed;
		total = packed_size;
	}
	*out = buf;
	*out_size = (size_t)total;
	return ANIMC_OK;
}
