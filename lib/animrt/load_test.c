/*
 * animrt_test.c - the loader: accepts what the writer writes, and rejects
 * each kind of damage with its status code at the right byte offset.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "test_support.h"
#include <animc/animc_formats.h>
#include <animc/animrt.h>
#include "time_index.h"
#include "xnb_layout.h"

/* Offsets in the sample file (default reader name, 89 bytes). */
enum {
	AT_READER_COUNT = 10,
	AT_READER_VERSION = 10 + 1 + 1 + 89,  /* 101 */
	AT_SHARED = 105,
	AT_PRIMARY = 106,
	AT_SEQ_COUNT = 107,
	AT_DURATION = 111,
	AT_SEQ0 = 115,                        /* "Root": 1 + 4 bytes */
	AT_KEY_COUNT = AT_SEQ0 + 5,
	AT_SEQ_DURATION = AT_KEY_COUNT + 4,
	AT_FLAGS = AT_KEY_COUNT + 12,
	AT_T_COUNT = AT_FLAGS + 7,
	AT_T_VALUES = AT_T_COUNT + 4,
	AT_R_COUNT = AT_T_VALUES + 3 * 12,
	AT_S_COUNT = AT_R_COUNT + 4 + 3 * 16,
	AT_TIME_COUNT = AT_S_COUNT + 4 + 12,
	AT_SEQ1 = AT_TIME_COUNT + 4,          /* "Arm", HasTime, 2 keys */
	AT_SEQ1_TIMES = AT_SEQ1 + 4 + 12 + 7 + 4 + 4 + 2 * 16 + 4 + 4,
};

/* A clip of two bones: Root uniform (3 keys, T and R keyed, S fixed), Arm
 * with times (2 rotation keys). */
static uint8_t *sample_xnb(size_t *size, animc_compression compression)
{
	static const float t[9] = { 0, 0, 0, 1, 2, 3, 4, 5, 6 };
	static const float q[12] = { 0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f, 0, 0, 1, 0 };
	static const float s1[3] = { 1, 1, 1 };
	animc_clip *clip = animc_clip_create("");
	animc_xnb_options o = { .compression = compression };
	uint8_t *bytes;

	clip->duration_s = 2;
	uint32_t a = test_add_channel(clip, "Root", 3, NULL, 1, 2);
	test_set_track(clip, a, ANIMC_TRANSLATION, false, t, 3, NULL);
	test_set_track(clip, a, ANIMC_ROTATION, false, q, 3, NULL);
	test_set_track(clip, a, ANIMC_SCALE, true, s1, 1, NULL);
	uint32_t b = test_add_channel(clip, "Arm", 2, (const float[]){ 0, 1.5f }, 0, 2);
	test_set_track(clip, b, ANIMC_ROTATION, false, q, 2, NULL);
	assert_int_equal(animc_xnb_write(clip, &o, &bytes, size, NULL), ANIMC_OK);
	animc_clip_destroy(clip);
	return bytes;
}

/* Open, expect failure with `status` at `offset` (-2: any offset). */
static void expect_error(const uint8_t *data, size_t size, animrt_status status, int64_t offset)
{
	animrt_clip *clip = (animrt_clip *)1;
	animrt_error err;
	animrt_status got = animrt_open(data, size, &clip, &err);

	if (got != status)
		fail_msg("expected status %d (%s), got %d: %s", status, animrt_status_string(status), got,
			 err.message);
	assert_null(clip);
	assert_int_equal(err.status, status);
	assert_true(strlen(err.message) > 0);
	if (offset != -2)
		assert_int_equal(err.byte_offset, offset);
}

static void put_i32(uint8_t *p, int32_t v)
{
	xnb_put_u32(p, (uint32_t)v);
}

static void loads_what_the_writer_writes(void **state)
{
	size_t size;
	uint8_t *data = sample_xnb(&size, ANIMC_COMPRESSION_NONE);
	animrt_clip *clip;
	animrt_error err;

	(void)state;
	assert_int_equal(animrt_open(data, size, &clip, &err), ANIMRT_OK);
	free(data);   /* the clip owns a copy */
	assert_int_equal(clip->container.platform, 'w');
	assert_int_equal(clip->container.format_version, 5);
	assert_int_equal(clip->container.file_size_bytes, size);
	assert_string_equal(clip->container.reader, XNB_READER_NAME_DEFAULT);
	assert_false(clip->container.is_zstd);
	assert_true(clip->duration_s == 2);
	assert_int_equal(clip->sequence_count, 2);
	const animrt_sequence *r = &clip->sequences[0], *a = &clip->sequences[1];
	assert_string_equal(r->bone, "Root");
	assert_int_equal(r->bone_size, 4);
	assert_int_equal(r->key_count, 3);
	assert_true(r->key_interval_s == 1);
	assert_true(r->has_translation && r->has_rotation && r->has_scale && !r->has_time);
	assert_true(!r->is_fixed_translation && !r->is_fixed_rotation && r->is_fixed_scale);
	assert_int_equal(r->translation_count, 3);
	assert_int_equal(r->scale_count, 1);
	assert_int_equal(r->time_count, 0);
	assert_true(r->translation[8] == 6 && r->rotation[7] == 0.70710678f && r->scale[2] == 1);
	assert_null(r->times_s);
	assert_string_equal(a->bone, "Arm");
	assert_true(a->has_time && !a->has_translation);
	assert_int_equal(a->time_count, 2);
	assert_true(a->times_s[1] == 1.5f);
	assert_null(a->time_index);   /* 2 keys: searched */
	assert_false(clip->has_time_index);
	assert_int_equal(a->translation_count, 0);
	animrt_close(clip);
	animrt_close(NULL);
}

static void sample_offsets_are_right(void **state)
{
	size_t size;
	uint8_t *data = sample_xnb(&size, ANIMC_COMPRESSION_NONE);

	(void)state;
	/* Guards the offsets the other tests damage. */
	assert_int_equal(xnb_get_u32(data + AT_SEQ_COUNT), 2);
	assert_int_equal(xnb_get_u32(data + AT_KEY_COUNT), 3);
	assert_int_equal(data[AT_SEQ0], 4);
	assert_int_equal(xnb_get_u32(data + AT_T_COUNT), 3);
	assert_int_equal(xnb_get_u32(data + AT_R_COUNT), 3);
	assert_int_equal(xnb_get_u32(data + AT_S_COUNT), 1);
	assert_int_equal(xnb_get_u32(data + AT_TIME_COUNT), 0);
	assert_int_equal(data[AT_SEQ1], 3);
	assert_true(xnb_get_f32(data + AT_SEQ1_TIMES + 4) == 1.5f);
	assert_int_equal(AT_SEQ1_TIMES + 8, size);
	free(data);
}

static void every_truncation_is_rejected(void **state)
{
	size_t size;
	uint8_t *data = sample_xnb(&size, ANIMC_COMPRESSION_NONE);

	(void)state;
	for (size_t n = 0; n < size; n++) {
		uint8_t *copy = malloc(n + 1);
		animrt_clip *clip;
		animrt_error err;

		memcpy(copy, data, n);
		/* As cut, the size field disagrees (or the header is short). */
		assert_int_not_equal(animrt_open(copy, n, &clip, &err), ANIMRT_OK);
		/* With the size field fixed up, the cut itself must be caught. */
		if (n >= XNB_HEADER_SIZE) {
			xnb_put_u32(copy + XNB_SIZE_OFFSET, (uint32_t)n);
			animrt_status s = animrt_open(copy, n, &clip, &err);
			if (s != ANIMRT_ERR_TRUNCATED && s != ANIMRT_ERR_COUNT)
				fail_msg("cut at %zu: status %d (%s)", n, s, err.message);
		}
		free(copy);
	}
	free(data);
}

static void header_damage(void **state)
{
	size_t size;
	uint8_t *data = sample_xnb(&size, ANIMC_COMPRESSION_NONE);
	uint8_t *d = malloc(size + 1);

	(void)state;
#define DAMAGE(stmt, status, offset)         \
	do {                                 \
		memcpy(d, data, size);       \
		stmt;                        \
		expect_error(d, size, status, offset); \
	} while (0)
	DAMAGE(d[0] = 'Y', ANIMRT_ERR_MAGIC, 0);
	DAMAGE(d[3] = 'Q', ANIMRT_ERR_MAGIC, 3);
	DAMAGE(d[4] = 4, ANIMRT_ERR_VERSION, 4);
	DAMAGE(d[5] = 0x80, ANIMRT_ERR_FLAGS, 5);
	DAMAGE(d[5] = 0x40, ANIMRT_ERR_FLAGS, 5);
	DAMAGE(d[5] = 0x02, ANIMRT_ERR_FLAGS, 5);
	DAMAGE(xnb_put_u32(d + 6, (uint32_t)size + 1), ANIMRT_ERR_SIZE, 6);
	DAMAGE(xnb_put_u32(d + 6, (uint32_t)size - 1), ANIMRT_ERR_SIZE, 6);
	/* One type reader more than the bytes after the count can hold (5
	 * each at least): a count, said at the count. */
	size_t readers = (size - AT_READER_COUNT - 1) / 5 + 1;
	assert_true(readers <= 127 && readers <= (size - AT_READER_COUNT - 1) / 4);
	DAMAGE(d[AT_READER_COUNT] = (uint8_t)readers, ANIMRT_ERR_COUNT, AT_READER_COUNT);
	DAMAGE(d[AT_READER_COUNT] = 0, ANIMRT_ERR_READER, AT_READER_COUNT);
	DAMAGE(put_i32(d + AT_READER_VERSION, 4), ANIMRT_ERR_READER_VERSION, AT_READER_VERSION);
	DAMAGE(put_i32(d + AT_READER_VERSION, 1), ANIMRT_ERR_READER_VERSION, AT_READER_VERSION);
	DAMAGE(put_i32(d + AT_READER_VERSION, -1), ANIMRT_ERR_READER_VERSION, AT_READER_VERSION);
	DAMAGE(d[AT_SHARED] = 1, ANIMRT_ERR_SHARED, AT_SHARED);
	DAMAGE(d[AT_PRIMARY] = 0, ANIMRT_ERR_READER, AT_PRIMARY);
	DAMAGE(d[AT_PRIMARY] = 2, ANIMRT_ERR_READER, AT_PRIMARY);
	DAMAGE(d[AT_READER_COUNT + 1] = 0xFF, ANIMRT_ERR_TRUNCATED, -2);
	/* HiDef (0x01) is tolerated, as XNA-family runtimes do. */
	memcpy(d, data, size);
	d[5] = 0x01;
	animrt_clip *clip;
	assert_int_equal(animrt_open(d, size, &clip, NULL), ANIMRT_OK);
	assert_int_equal(clip->container.flags, 1);
	animrt_close(clip);
	/* An original payload under reader version 3 is refused by the
	 * compact layout's checks, not misread. */
	memcpy(d, data, size);
	put_i32(d + AT_READER_VERSION, 3);
	assert_int_not_equal(animrt_open(d, size, &clip, NULL), ANIMRT_OK);
	/* The reader version message names the versions. */
	animrt_error err;
	memcpy(d, data, size);
	put_i32(d + AT_READER_VERSION, 7);
	animrt_open(d, size, &clip, &err);
	assert_non_null(strstr(err.message, "7"));
	assert_non_null(strstr(err.message, "0 and 3"));
	/* The compressed XNB kinds are named as such. */
	memcpy(d, data, size);
	d[5] = 0x40;
	animrt_open(d, size, &clip, &err);
	assert_non_null(strstr(err.message, "LZX/LZ4-compressed XNB is not supported"));
	/* The compact layouts of earlier animc (reader versions 1 and 2):
	 * told to rebuild, never misread. */
	for (int32_t v = 1; v <= 2; v++) {
		memcpy(d, data, size);
		put_i32(d + AT_READER_VERSION, v);
		assert_int_equal(animrt_open(d, size, &clip, &err), ANIMRT_ERR_READER_VERSION);
		assert_int_equal(err.byte_offset, AT_READER_VERSION);
		assert_non_null(strstr(err.message, "rebuild with this animc"));
	}
	free(d);
	free(data);
}

static void payload_damage(void **state)
{
	size_t size;
	uint8_t *data = sample_xnb(&size, ANIMC_COMPRESSION_NONE);
	uint8_t *d = malloc(size + 1);

	(void)state;
	DAMAGE(put_i32(d + AT_SEQ_COUNT, -1), ANIMRT_ERR_COUNT, AT_SEQ_COUNT);
	DAMAGE(put_i32(d + AT_SEQ_COUNT, 1000000), ANIMRT_ERR_COUNT, AT_SEQ_COUNT);
	DAMAGE(put_i32(d + AT_SEQ_COUNT, 1), ANIMRT_ERR_TRAILING, AT_SEQ1);
	DAMAGE(put_i32(d + AT_SEQ_COUNT, 3), ANIMRT_ERR_TRUNCATED, (int64_t)size);
	DAMAGE(xnb_put_f32(d + AT_DURATION, -1), ANIMRT_ERR_VALUE, AT_DURATION);
	DAMAGE(xnb_put_f32(d + AT_DURATION, NAN), ANIMRT_ERR_VALUE, AT_DURATION);
	DAMAGE(put_i32(d + AT_KEY_COUNT, 0), ANIMRT_ERR_COUNT, AT_KEY_COUNT);
	DAMAGE(put_i32(d + AT_KEY_COUNT, -3), ANIMRT_ERR_COUNT, AT_KEY_COUNT);
	DAMAGE(put_i32(d + AT_KEY_COUNT, 4), ANIMRT_ERR_COUNT, AT_T_COUNT);
	DAMAGE(xnb_put_f32(d + AT_SEQ_DURATION, INFINITY), ANIMRT_ERR_VALUE, AT_SEQ_DURATION);
	DAMAGE(d[AT_FLAGS + 2] = 2, ANIMRT_ERR_BOOL, AT_FLAGS + 2);
	DAMAGE(d[AT_FLAGS + 6] = 0xFF, ANIMRT_ERR_BOOL, AT_FLAGS + 6);
	DAMAGE(d[AT_FLAGS + 2] = 0, ANIMRT_ERR_COUNT, AT_S_COUNT);     /* scale absent, 1 value */
	DAMAGE(d[AT_FLAGS + 6] = 0, ANIMRT_ERR_COUNT, AT_S_COUNT);     /* not fixed, 1 value */
	DAMAGE(d[AT_FLAGS + 3] = 1, ANIMRT_ERR_COUNT, AT_TIME_COUNT);  /* HasTime, no times */
	DAMAGE(put_i32(d + AT_T_COUNT, -1), ANIMRT_ERR_COUNT, AT_T_COUNT);
	DAMAGE(put_i32(d + AT_T_COUNT, 0x7FFFFFFF), ANIMRT_ERR_COUNT, AT_T_COUNT);
	DAMAGE(put_i32(d + AT_T_COUNT, 2), ANIMRT_ERR_COUNT, AT_T_COUNT);
	DAMAGE(xnb_put_f32(d + AT_T_VALUES + 8, NAN), ANIMRT_ERR_VALUE, AT_T_VALUES + 8);
	DAMAGE(xnb_put_f32(d + AT_SEQ1_TIMES + 4, -1), ANIMRT_ERR_ORDER, AT_SEQ1_TIMES + 4);
	DAMAGE(d[AT_SEQ0 + 2] = 0xC3, ANIMRT_ERR_STRING, AT_SEQ0 + 2);
	DAMAGE(d[AT_SEQ0 + 2] = 0x00, ANIMRT_ERR_STRING, AT_SEQ0 + 2);
	DAMAGE(d[AT_SEQ0] = 0x80, ANIMRT_ERR_TRUNCATED, -2);
	/* Trailing bytes, with the size field telling the truth. */
	memcpy(d, data, size);
	d[size] = 0;
	xnb_put_u32(d + 6, (uint32_t)size + 1);
	expect_error(d, size + 1, ANIMRT_ERR_TRAILING, (int64_t)size);
#undef DAMAGE
	free(d);
	free(data);
}

static void seven_bit_ints(void **state)
{
	uint8_t buf[8];
	uint32_t v;

	(void)state;
	assert_int_equal(xnb_7bit_put(buf, 0), 1);
	assert_int_equal(buf[0], 0x00);
	assert_int_equal(xnb_7bit_put(buf, 127), 1);
	assert_int_equal(buf[0], 0x7F);
	assert_int_equal(xnb_7bit_put(buf, 128), 2);
	assert_memory_equal(buf, "\x80\x01", 2);
	assert_int_equal(xnb_7bit_put(buf, 300), 2);
	assert_memory_equal(buf, "\xAC\x02", 2);
	assert_int_equal(xnb_7bit_put(buf, 0x7FFFFFFF), 5);
	assert_int_equal(xnb_7bit_size(0x7FFFFFFF), 5);
	assert_int_equal(xnb_7bit_get(buf, 5, &v), 5);
	assert_int_equal(v, 0x7FFFFFFF);
	assert_int_equal(xnb_7bit_get(buf, 4, &v), 0);             /* truncated */
	assert_int_equal(xnb_7bit_get((const uint8_t *)"\xFF\xFF\xFF\xFF\x0F", 5, &v),
			 XNB_7BIT_INVALID);                        /* beyond int32 */
	assert_int_equal(xnb_7bit_get((const uint8_t *)"\x80\x80\x80\x80\x80\x01", 6, &v),
			 XNB_7BIT_INVALID);                        /* 6 bytes */
	assert_int_equal(xnb_7bit_get((const uint8_t *)"\xAC\x02", 2, &v), 2);
	assert_int_equal(v, 300);
}

static void zstd_frames(void **state)
{
	size_t size, zsize;
	uint8_t *plain = sample_xnb(&size, ANIMC_COMPRESSION_NONE);
	uint8_t *packed = sample_xnb(&zsize, ANIMC_COMPRESSION_ZSTD);
	animrt_clip *clip;
	animrt_error err;

	(void)state;
	assert_memory_equal(packed, XNB_ZSTD_MAGIC, 4);
	assert_int_equal(animrt_open(packed, zsize, &clip, &err), ANIMRT_OK);
	assert_true(clip->container.is_zstd);
	assert_int_equal(clip->sequence_count, 2);
	animrt_close(clip);
	/* The frame decompresses to exactly the plain file. */
	uint8_t *round = malloc(size);
	assert_int_equal(ZSTD_decompress(round, size, packed, zsize), size);
	assert_memory_equal(round, plain, size);
	free(round);
	/* Trailing bytes after the frame; a damaged frame.  Their places are
	 * the compressed file's, which the message names: byte_offset, which
	 * counts in the .xnb, is -1 (it was the frame's length, a place
	 * inside the .xnb's keys). */
	uint8_t *d = malloc(zsize + 1);
	char want[160];
	memcpy(d, packed, zsize);
	d[zsize] = 7;
	expect_error(d, zsize + 1, ANIMRT_ERR_TRAILING, -1);
	assert_int_equal(animrt_open(d, zsize + 1, &clip, &err), ANIMRT_ERR_TRAILING);
	snprintf(want, sizeof want, "1 byte of the .xnb.zst follows its zstd frame (bytes 0 to %zu of the file)",
		 zsize - 1);
	assert_string_equal(err.message, want);
	memcpy(d, packed, zsize);
	d[zsize - 2] ^= 0x55;   /* the checksum */
	expect_error(d, zsize, ANIMRT_ERR_COMPRESSION, -1);
	assert_int_equal(animrt_open(d, zsize, &clip, &err), ANIMRT_ERR_COMPRESSION);
	snprintf(want, sizeof want, "the zstd frame's checksum (bytes %zu to %zu of the file) does not match what it "
		 "holds: the file is damaged", zsize - 4, zsize - 1);
	assert_string_equal(err.message, want);
	expect_error(packed, zsize - 3, ANIMRT_ERR_COMPRESSION, -1);
	assert_int_equal(animrt_open(packed, zsize - 3, &clip, &err), ANIMRT_ERR_COMPRESSION);
	snprintf(want, sizeof want, "the file ends inside its zstd frame (%zu bytes): it is cut short", zsize - 3);
	assert_string_equal(err.message, want);
	free(d);
	/* A frame without a content size (streaming compressor) loads too. */
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(size);
	uint8_t *stream = malloc(cap);
	ZSTD_outBuffer out = { stream, cap, 0 };
	ZSTD_inBuffer in = { plain, size, 0 };
	assert_false(ZSTD_isError(ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_continue)));
	ZSTD_inBuffer none = { NULL, 0, 0 };
	assert_int_equal(ZSTD_compressStream2(cctx, &out, &none, ZSTD_e_end), 0);
	ZSTD_freeCCtx(cctx);
	assert_int_equal(ZSTD_getFrameContentSize(stream, out.pos), ZSTD_CONTENTSIZE_UNKNOWN);
	assert_int_equal(animrt_open(stream, out.pos, &clip, &err), ANIMRT_OK);
	assert_int_equal(clip->sequence_count, 2);
	animrt_close(clip);
	free(stream);
	free(plain);
	free(packed);
	assert_true(animrt_has_zstd());
}

/* A streamed frame (no content size) of `plain` in a new buffer. */
static uint8_t *stream_frame(const void *plain, size_t size, size_t *zsize)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(size);
	uint8_t *stream = malloc(cap);
	ZSTD_outBuffer out = { stream, cap, 0 };
	ZSTD_inBuffer in = { plain, size, 0 };
	ZSTD_inBuffer none = { NULL, 0, 0 };

	assert_false(ZSTD_isError(ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_continue)));
	assert_int_equal(ZSTD_compressStream2(cctx, &out, &none, ZSTD_e_end), 0);
	ZSTD_freeCCtx(cctx);
	*zsize = out.pos;
	return stream;
}

/* A frame stops at the size its XNB header says: 16 MiB of zeros after a
 * header of 0 bytes (a 36 KB file decompressed to the 1 GiB cap before
 * it was refused), and a clip with bytes past its header's size. */
static void a_frame_stops_at_its_headers_size(void **state)
{
	size_t size = 16u << 20, zsize, plain_size;
	uint8_t *zeros = calloc(1, size), *bomb;
	animrt_clip *clip;
	animrt_error err;

	(void)state;
	memcpy(zeros, "XNBw\x05\x00", 6);
	bomb = stream_frame(zeros, size, &zsize);
	assert_true(zsize < size / 100);
	assert_int_equal(animrt_open(bomb, zsize, &clip, &err), ANIMRT_ERR_SIZE);
	assert_int_equal(err.byte_offset, 6);
	assert_string_equal(err.message, "byte 6: the header says the file is 0 bytes, which no file of this format is");
	free(bomb);
	/* A whole clip, then 100 more bytes than its header says. */
	uint8_t *plain = sample_xnb(&plain_size, ANIMC_COMPRESSION_NONE);
	memcpy(zeros, plain, plain_size);
	bomb = stream_frame(zeros, plain_size + 100, &zsize);
	assert_int_equal(animrt_open(bomb, zsize, &clip, &err), ANIMRT_ERR_SIZE);
	if (!strstr(err.message, "the zstd frame holds more than the"))
		fail_msg("%s", err.message);
	free(bomb);
	free(plain);
	free(zeros);
}

/* A clip followed by zeros, in a streamed frame whose XNB header says
 * 4 MiB: the frame was decompressed to that size (to the 1 GiB cap for a
 * 46 KB file) before the bytes after the clip were found.  It is refused
 * once the first MiB is out, as the whole would be: here the frame holds
 * 8 MiB, which the whole would have been refused for instead. */
static void a_clip_in_a_frame_of_zeros_is_refused_early(void **state)
{
	static const char *const files[] = { "testdata/loader/crane-turn.xnb", "testdata/loader/crane-turn.compact.xnb" };
	static const char *const after[] = { "the last sequence", "the keys" };
	size_t declared = 4u << 20, size = 8u << 20;

	(void)state;
	for (int k = 0; k < 2; k++) {
		size_t plain_size, zsize;
		uint8_t *plain = test_read_file(files[k], &plain_size), *whole = calloc(1, size), *frame;
		animrt_clip *clip;
		animrt_error err;
		char *want;

		memcpy(whole, plain, plain_size);
		put_i32(whole + 6, (int32_t)declared);
		frame = stream_frame(whole, size, &zsize);
		assert_int_equal(animrt_open(frame, zsize, &clip, &err), ANIMRT_ERR_TRAILING);
		assert_int_equal(err.byte_offset, (int64_t)plain_size);
		want = test_format("byte %zu: %zu bytes are left after %s", plain_size, declared - plain_size, after[k]);
		assert_string_equal(err.message, want);
		free(want), free(frame), free(whole), free(plain);
	}
}

/* A clip longer than the first MiB of a frame, in one: the early look at
 * that MiB read a list of values past it (out of the buffer: random
 * errors, or a crash), and refused what `zstd -d` gives back whole.  One
 * bone, 100,000 translation keys: 1.2 MB, streamed and with its size.
 * (Where the bytes past the buffer happen to be finite floats it loaded;
 * the sanitizer build fails on the read itself.) */
static void a_clip_longer_than_the_first_mib_of_its_frame_loads(void **state)
{
	const uint32_t keys = 100000;
	float *t = malloc((size_t)keys * 3 * sizeof *t);
	animc_clip *source = animc_clip_create("");
	animc_xnb_options o = { .compression = ANIMC_COMPRESSION_NONE };
	uint8_t *plain, *frames[2];
	size_t plain_size, sizes[2];

	(void)state;
	assert_non_null(t);
	for (uint32_t i = 0; i < keys * 3; i++)
		t[i] = (float)i * 0.25f;
	source->duration_s = (float)(keys - 1) / 60;
	uint32_t a = test_add_channel(source, "Hips", keys, NULL, 1.0f / 60, source->duration_s);
	test_set_track(source, a, ANIMC_TRANSLATION, false, t, keys, NULL);
	assert_int_equal(animc_xnb_write(source, &o, &plain, &plain_size, NULL), ANIMC_OK);
	assert_true(plain_size > (1u << 20) + 100000);
	o.compression = ANIMC_COMPRESSION_ZSTD;
	assert_int_equal(animc_xnb_write(source, &o, &frames[0], &sizes[0], NULL), ANIMC_OK);
	animc_clip_destroy(source);
	frames[1] = stream_frame(plain, plain_size, &sizes[1]);
	for (int f = 0; f < 2; f++) {
		animrt_clip *clip;
		animrt_error err;

		if (animrt_open(frames[f], sizes[f], &clip, &err) != ANIMRT_OK)
			fail_msg("frame %d: %s", f, err.message);
		assert_int_equal(clip->sequence_count, 1);
		assert_int_equal(clip->sequences[0].key_count, keys);
		assert_memory_equal(clip->sequences[0].translation, t, (size_t)keys * 3 * sizeof *t);
		animrt_close(clip);
		free(frames[f]);
	}
	free(plain), free(t);
}

static void arguments_and_files(void **state)
{
	animrt_clip *clip;
	animrt_error err;

	(void)state;
	assert_int_equal(animrt_open(NULL, 4, &clip, &err), ANIMRT_ERR_ARGUMENT);
	assert_int_equal(animrt_open("XNB", 3, NULL, &err), ANIMRT_ERR_ARGUMENT);
	assert_int_equal(animrt_open("", 0, &clip, &err), ANIMRT_ERR_TRUNCATED);
	assert_int_equal(animrt_open("PK", 2, &clip, &err), ANIMRT_ERR_MAGIC);
	assert_int_equal(animrt_open("XN", 2, &clip, &err), ANIMRT_ERR_TRUNCATED);
	assert_int_equal(animrt_open("XNBw\x05", 5, &clip, NULL), ANIMRT_ERR_TRUNCATED);
	assert_int_equal(animrt_open_file("build/no/such/file.xnb", &clip, &err), ANIMRT_ERR_IO);
	assert_string_equal(err.message, "cannot open: No such file or directory");   /* the caller names it */
	assert_int_equal(animrt_open_file("lib", &clip, &err) == ANIMRT_OK, 0);
	for (int s = 0; s < ANIMRT_STATUS_COUNT; s++)
		assert_true(strlen(animrt_status_string((animrt_status)s)) > 0);
	assert_string_equal(animrt_status_string(ANIMRT_STATUS_COUNT), "unknown status");
}

/* A file is read no further than its first bytes say: one of no clip's
 * magic (here an endless one) is refused at its start, and a clip with
 * bytes past its stated size is refused naming both sizes, not read
 * whole first (a video in the content folder cost seconds and its size
 * in memory); both sizes also when the first read took the whole file (a
 * few bytes too many). */
static void a_file_is_read_no_further_than_its_start_says(void **state)
{
	size_t size;
	uint8_t *data = sample_xnb(&size, ANIMC_COMPRESSION_NONE);
	const char *path = "build/load_test_longer.xnb";
	char want[128];
	animrt_clip *clip;
	animrt_error err;
	FILE *f;

	(void)state;
	assert_int_equal(animrt_open_file("/dev/zero", &clip, &err), ANIMRT_ERR_MAGIC);
	assert_string_equal(err.message, "byte 0: no XNB magic: this is not a compiled clip");
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(animrt_open_file(path, &clip, &err), ANIMRT_OK);
	animrt_close(clip);
	assert_true(size + 2 < 1 << 16);
	f = fopen(path, "ab");
	assert_non_null(f);
	assert_int_equal(fwrite("XX", 1, 2, f), 2);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(animrt_open_file(path, &clip, &err), ANIMRT_ERR_SIZE);
	snprintf(want, sizeof want, "byte 6: the header says the file is %zu bytes, it is %zu", size, size + 2);
	assert_string_equal(err.message, want);
	assert_null(clip);
	f = fopen(path, "ab");
	assert_non_null(f);
	for (int i = 2; i < 100000; i++)
		fputc(0, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(animrt_open_file(path, &clip, &err), ANIMRT_ERR_SIZE);
	snprintf(want, sizeof want, "byte 6: the header says the file is %zu bytes, it is %zu", size, size + 100000);
	assert_string_equal(err.message, want);
	assert_int_equal(err.byte_offset, 6);
	assert_null(clip);
	remove(path);
	free(data);
}

/* A file error keeps its cause (a folder says so) and names no path,
 * however long: the caller names the file, as for a damaged one. */
static void file_messages_keep_their_cause(void **state)
{
	animrt_clip *clip;
	animrt_error err;
	char path[400];
	size_t at;

	(void)state;
	assert_int_equal(animrt_open_file("lib", &clip, &err), ANIMRT_ERR_IO);
	assert_string_equal(err.message, "cannot read: Is a directory");
	assert_int_equal(err.byte_offset, -1);

	at = (size_t)snprintf(path, sizeof path, "build/no");
	while (at < 300)
		at += (size_t)snprintf(path + at, sizeof path - at, "/assets_\xc3\xa9%zu", at);
	snprintf(path + at, sizeof path - at, "/Missing.xnb");
	assert_int_equal(animrt_open_file(path, &clip, &err), ANIMRT_ERR_IO);
	assert_string_equal(err.message, "cannot open: No such file or directory");
	assert_null(clip);
}

/* Every status has its own text; the ones a game can act on say how. */
static void statuses_have_their_own_text(void **state)
{
	(void)state;
	for (int a = 0; a < ANIMRT_STATUS_COUNT; a++)
		for (int b = a + 1; b < ANIMRT_STATUS_COUNT; b++)
			if (strcmp(animrt_status_string((animrt_status)a), animrt_status_string((animrt_status)b)) == 0)
				fail_msg("statuses %d and %d share '%s'", a, b, animrt_status_string((animrt_status)a));
	/* Appended: the loader's statuses keep their numbers. */
	assert_int_equal(ANIMRT_ERR_CONTENT, 20);
	assert_int_equal(ANIMRT_ERR_POSE_SIZE, 21);
	assert_non_null(strstr(animrt_status_string(ANIMRT_ERR_POSE_SIZE), "size it by the clip's sequence_count"));
	assert_non_null(strstr(animrt_status_string(ANIMRT_ERR_CONTEXT_SIZE), "animrt_clip_context_tracks"));
	assert_non_null(strstr(animrt_status_string(ANIMRT_ERR_NOT_PLAYING), "animrt_player_play first"));
	assert_non_null(strstr(animrt_status_string(ANIMRT_ERR_NOT_MOTION), "CLIP.motion.xnb"));
	assert_non_null(strstr(animrt_status_string(ANIMRT_ERR_PLAY_MODE), "ANIMRT_PLAY_ONCE"));
}

/* The sample clip written with another type reader name. */
static uint8_t *named_xnb(const char *reader, size_t *size)
{
	animc_clip *clip = animc_clip_create("");
	animc_xnb_options o = { .reader_name = reader };
	uint8_t *bytes;

	clip->duration_s = 1;
	uint32_t a = test_add_channel(clip, "Root", 1, NULL, 1, 1);
	test_set_track(clip, a, ANIMC_ROTATION, true, (const float[]){ 0, 0, 0, 1 }, 1, NULL);
	assert_int_equal(animc_xnb_write(clip, &o, &bytes, size, NULL), ANIMC_OK);
	animc_clip_destroy(clip);
	return bytes;
}

static void reader_names_are_checked_first(void **state)
{
	static const char *const others[][2] = {
		{ "testdata/fuzz/loader/other-vector2.xnb", "holds Microsoft.Xna.Framework.Content.Vector2Reader," },
		{ "testdata/fuzz/loader/other-texture2d.xnb", "holds Microsoft.Xna.Framework.Content.Texture2DReader," },
		/* A model declares shared resources: the reader is still what is said. */
		{ "testdata/fuzz/loader/other-model-head.xnb", "holds Microsoft.Xna.Framework.Content.ModelReader," },
	};
	animrt_clip *clip;
	animrt_error err;
	size_t size;

	(void)state;
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		uint8_t *data = test_read_file(others[i][0], &size);

		assert_int_equal(animrt_open(data, size, &clip, &err), ANIMRT_ERR_CONTENT);
		assert_null(clip);
		assert_int_equal(err.byte_offset, 11);
		if (!strstr(err.message, others[i][1]) || !strstr(err.message, "not an AnimationSequence"))
			fail_msg("%s: '%s'", others[i][0], err.message);
		free(data);
	}

	/* A name of the caller's own: refused by default, taken when listed,
	 * whole or by its type part. */
	static const char custom[] = "MyGame.Content.ClipReader, MyGame, Version=1.0.0.0";
	uint8_t *data = named_xnb(custom, &size);
	const char *whole[] = { custom }, *type_part[] = { "MyGame.Content.ClipReader" }, *wrong[] = { "MyGame" };
	animrt_open_options by_whole = { whole, 1, false, false }, by_type = { type_part, 1, false, false };
	animrt_open_options by_wrong = { wrong, 1, false, false };
	assert_int_equal(animrt_open(data, size, &clip, &err), ANIMRT_ERR_CONTENT);
	assert_int_equal(animrt_open_with(data, size, &by_wrong, &clip, NULL), ANIMRT_ERR_CONTENT);
	assert_int_equal(animrt_open_with(data, size, &by_whole, &clip, NULL), ANIMRT_OK);
	assert_string_equal(clip->container.reader, custom);
	animrt_close(clip);
	assert_int_equal(animrt_open_with(data, size, &by_type, &clip, NULL), ANIMRT_OK);
	animrt_close(clip);
	free(data);

	/* The original, and any type part ending in AnimationReader, by default;
	 * a caller can take its listed names only. */
	data = named_xnb("Studio.Skinned.SkeletalAnimationReader, Studio", &size);
	assert_int_equal(animrt_open(data, size, &clip, NULL), ANIMRT_OK);
	animrt_close(clip);
	animrt_open_options only = { type_part, 1, true, false };
	assert_int_equal(animrt_open_with(data, size, &only, &clip, NULL), ANIMRT_ERR_CONTENT);
	free(data);
	data = sample_xnb(&size, ANIMC_COMPRESSION_NONE);
	assert_int_equal(animrt_open_with(data, size, &only, &clip, NULL), ANIMRT_ERR_CONTENT);
	assert_int_equal(animrt_open_with(data, size, NULL, &clip, NULL), ANIMRT_OK);
	animrt_close(clip);
	free(data);
}

static void reader_name_rule(void **state)
{
#define TAKES(name, options) animrt_reader_is_accepted(name, strlen(name), options)
	static const char *const listed[] = { "Foo.Reader", NULL, "Bar.Reader, Bar" };
	animrt_open_options opts = { listed, 3, false, false };

	(void)state;
	assert_true(TAKES(XNB_READER_NAME_DEFAULT, NULL));
	assert_true(TAKES("RobotGameData.GameObject.AnimationReader", NULL));
	assert_true(TAKES("AnimationReader", NULL));
	assert_true(TAKES("A.AnimationReader , Asm", NULL));
	/* Commas inside brackets belong to the type part. */
	assert_true(TAKES("G.Wrap`1[[X.Y, Asm]].AnimationReader, G", NULL));
	assert_false(TAKES("G.AnimationReader`1[[X.Y, Asm]], G", NULL));
	assert_false(TAKES("Microsoft.Xna.Framework.Content.Texture2DReader, Microsoft.Xna.Framework.Graphics",
			   NULL));
	assert_false(TAKES("Foo.AnimationReaderX, Foo", NULL));
	assert_false(TAKES("Foo, AnimationReader", NULL));
	assert_false(TAKES("", NULL));
	assert_false(animrt_reader_is_accepted(NULL, 0, NULL));
	/* Listed: whole, or the type part; a NULL entry is skipped. */
	assert_true(TAKES("Foo.Reader, Foo, Version=1.0.0.0", &opts));
	assert_true(TAKES("Bar.Reader, Bar", &opts));
	assert_false(TAKES("Bar.Reader, Other", &opts));
	assert_true(TAKES("Any.AnimationReader", &opts));
	opts.is_listed_only = true;
	assert_false(TAKES("Any.AnimationReader", &opts));
	assert_true(TAKES("Foo.Reader", &opts));
#undef TAKES
}

/* ----------------------------------------------------------- time index */

/* One bone "B" with n translation and rotation keys at `times`, written
 * and loaded; its duration one second past the last key. */
static animrt_clip *timed_clip(const float *times, uint32_t n, unsigned seed)
{
	float *t = malloc((size_t)n * 3 * sizeof *t), *q = malloc((size_t)n * 4 * sizeof *q);
	animc_clip *clip = animc_clip_create("");
	animc_xnb_options o = { .compression = ANIMC_COMPRESSION_NONE };
	animrt_clip *loaded;
	animrt_error err;
	uint8_t *bytes;
	size_t size;

	assert_non_null(t);
	assert_non_null(q);
	for (uint32_t i = 0; i < n; i++) {
		double len = 0;

		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			t[3 * i + k] = (float)(seed >> 8 & 1023) / 64.0f;
		}
		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			q[4 * i + k] = (float)(seed >> 8 & 1023) / 512.0f - 1.0f;
			len += (double)q[4 * i + k] * q[4 * i + k];
		}
		for (int k = 0; k < 4; k++)
			q[4 * i + k] = (float)(q[4 * i + k] / sqrt(len));
	}
	clip->duration_s = times[n - 1] + 1;
	uint32_t c = test_add_channel(clip, "B", n, times, 0, clip->duration_s);
	test_set_track(clip, c, ANIMC_TRANSLATION, false, t, n, NULL);
	test_set_track(clip, c, ANIMC_ROTATION, false, q, n, NULL);
	assert_int_equal(animc_xnb_write(clip, &o, &bytes, &size, NULL), ANIMC_OK);
	assert_int_equal(animrt_open(bytes, size, &loaded, &err), ANIMRT_OK);
	animc_clip_destroy(clip);
	free(bytes);
	free(t);
	free(q);
	return loaded;
}

/* The loaded sequence (with its index, if any) against the same keys
 * searched (no index): the same bytes at `t`. */
static void same_as_the_search(const animrt_sequence *s, float t)
{
	animrt_sequence searched = *s;
	float t1[3], r1[4], s1[3], t2[3], r2[4], s2[3];

	searched.time_index = NULL;
	animrt_sequence_sample(s, t, ANIMRT_PLAY_ONCE, NULL, t1, r1, s1);
	animrt_sequence_sample(&searched, t, ANIMRT_PLAY_ONCE, NULL, t2, r2, s2);
	if (memcmp(t1, t2, sizeof t1) || memcmp(r1, r2, sizeof r1))
		fail_msg("%u keys, t = %.9g: indexed (%g %g %g) searched (%g %g %g)", s->key_count, (double)t,
			 (double)t1[0], (double)t1[1], (double)t1[2], (double)t2[0], (double)t2[1], (double)t2[2]);
}

/*
 * A timed sequence of RT_TIME_INDEX_MIN_KEYS keys or more, each at its
 * own time, gets an index; sampled through it, every time gives what the
 * search over the times gives: at each key time, a float either side of it, between keys,
 * before the first key and past the last.  Keys spaced evenly, unevenly,
 * densely then sparsely (the buckets get finer), bunched beyond what
 * buckets as many as the keys can part (no index), sharing a time (no
 * index), fewer keys, more than 65535 (no index), starting below 0 (a
 * few keys before 0, or too many for one bucket) or above it.
 */
static void timed_sequences_find_keys_through_their_index(void **state)
{
	static const struct {
		uint32_t n;
		int kind;        /* 0 even, 1 uneven, 2 dense then sparse, 3 bunched, 4 shared end,
				  * 5 before 0, ending at 0 */
		float first;
		bool is_indexed;
	} cases[] = {
		{ RT_TIME_INDEX_MIN_KEYS, 0, 0, true },
		{ RT_TIME_INDEX_MIN_KEYS - 1, 1, 0, false },
		{ RT_TIME_INDEX_MIN_KEYS + 1, 1, 0.5f, true },
		{ 500, 1, 0, true },
		{ 400, 2, 0, true },    { 500, 3, 0, false },  { 300, 4, 0, false },
		/* Keys before 0 share the first bucket: a few, or too many. */
		{ 200, 0, -0.004f, true }, { 200, 0, -0.5f, false },
		{ 1000, 0, 0.25f, true }, { 65535, 0, 0, true }, { 65536, 0, 0, false },
		/* Every key before 0 but the last, at 0: no span to index. */
		{ RT_TIME_INDEX_MIN_KEYS, 5, 0, false }, { 200, 5, 0, false },
	};
	unsigned seed = 11;

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint32_t n = cases[c].n;
		float *times = malloc((size_t)n * sizeof *times), at = cases[c].first;

		assert_non_null(times);
		for (uint32_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			float step = cases[c].kind == 0 ? 1.0f / 120 : (float)((seed >> 8 & 255) + 1) / 2048.0f;

			if (cases[c].kind == 2)
				step = i < n / 2 ? 0.01f : 0.05f;
			if (cases[c].kind == 3)
				step = i < n / 2 ? 1e-5f : 0.5f;
			times[i] = at;
			at += step;
		}
		if (cases[c].kind == 4)
			times[n - 1] = times[n - 2];
		for (uint32_t i = 0; cases[c].kind == 5 && i < n; i++)
			times[i] = (float)(((double)i - (n - 1)) / 120);
		animrt_clip *clip = timed_clip(times, n, (unsigned)c);
		const animrt_sequence *s = test_sequence_of(clip, "B");

		assert_true(s->has_time);
		assert_int_equal(s->key_count, n);
		if ((s->time_index != NULL) != cases[c].is_indexed)
			fail_msg("case %zu (%u keys): index %s", c, n, s->time_index ? "built" : "missing");
		uint32_t stride = n > 5000 ? 97 : 1;
		for (uint32_t i = 0; i < n; i += stride) {
			same_as_the_search(s, times[i]);
			same_as_the_search(s, nextafterf(times[i], -1e9f));
			same_as_the_search(s, nextafterf(times[i], 1e9f));
			if (i + 1 < n)
				same_as_the_search(s, times[i] + (times[i + 1] - times[i]) * 0.3f);
		}
		for (int i = 0; i < 2000; i++) {
			seed = seed * 1103515245u + 12345u;
			same_as_the_search(s, (float)(seed >> 8) / (float)(1u << 24) * clip->duration_s);
		}
		same_as_the_search(s, 0);
		same_as_the_search(s, times[n - 1] + 0.5f);
		same_as_the_search(s, clip->duration_s);
		animrt_close(clip);
		free(times);
	}
}

/*
 * A loaded clip of more bones than the sampler looks up at once, timed
 * sequences (indexed) among uniform ones: the clip's pose and a binding's
 * (its skeleton backward, two bones left out) are each sequence sampled
 * alone, bit for bit.
 */
static void indexed_clips_sample_as_their_sequences(void **state)
{
	enum { BONES = 19, KEYS = 40 };
	static const char *const names[BONES] = { "b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9",
						  "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18" };
	float times[KEYS], t[KEYS * 3], q[KEYS * 4];
	animc_clip *source = animc_clip_create("");
	animc_xnb_options o = { .compression = ANIMC_COMPRESSION_NONE };
	const char *skeleton[BONES];
	unsigned seed = 5;
	uint8_t *bytes;
	size_t size;

	(void)state;
	for (uint32_t i = 0; i < KEYS; i++) {
		seed = seed * 1103515245u + 12345u;
		times[i] = i ? times[i - 1] + (float)((seed >> 8 & 63) + 1) / 256.0f : 0;
		for (int k = 0; k < 3; k++)
			t[3 * i + k] = (float)((i * 5 + (uint32_t)k) % 13);
		q[4 * i] = q[4 * i + 1] = 0;
		q[4 * i + 2] = sinf(0.1f * (float)i);
		q[4 * i + 3] = cosf(0.1f * (float)i);
	}
	source->duration_s = times[KEYS - 1] + 0.5f;
	for (uint32_t b = 0; b < BONES; b++) {
		bool timed = b % 3 != 1;
		uint32_t c = test_add_channel(source, names[b], KEYS, timed ? times : NULL, 0.05f, source->duration_s);

		test_set_track(source, c, ANIMC_TRANSLATION, false, t, KEYS, NULL);
		test_set_track(source, c, ANIMC_ROTATION, false, q, KEYS, NULL);
		skeleton[BONES - 1 - b] = b % 7 == 3 ? "elsewhere" : names[b];
	}
	assert_int_equal(animc_xnb_write(source, &o, &bytes, &size, NULL), ANIMC_OK);
	animc_clip_destroy(source);
	animrt_clip *clip;
	animrt_binding *binding;
	animrt_pose pose, bound;
	void *m1 = malloc(animrt_pose_size_bytes(BONES)), *m2 = malloc(animrt_pose_size_bytes(BONES));

	assert_int_equal(animrt_open(bytes, size, &clip, NULL), ANIMRT_OK);
	free(bytes);
	assert_true(clip->has_time_index);
	assert_non_null(clip->sequences[0].time_index);
	assert_null(clip->sequences[1].time_index);
	assert_int_equal(animrt_binding_create(clip, skeleton, BONES, &binding, NULL), ANIMRT_OK);
	animrt_pose_init(&pose, m1, BONES);
	animrt_pose_init(&bound, m2, BONES);
	for (int i = 0; i < 400; i++) {
		seed = seed * 1103515245u + 12345u;
		float at = i < KEYS ? times[i] : (float)(seed >> 8) / (float)(1u << 24) * (clip->duration_s + 1);

		assert_int_equal(animrt_clip_sample(clip, at, ANIMRT_PLAY_ONCE, NULL, &pose), ANIMRT_OK);
		assert_int_equal(animrt_binding_sample(binding, at, ANIMRT_PLAY_REPEAT, NULL, &bound), ANIMRT_OK);
		for (uint32_t b = 0; b < BONES; b++) {
			float T[3], R[4], S[3];
			uint32_t slot = BONES - 1 - b;

			animrt_sequence_sample(&clip->sequences[b], at, ANIMRT_PLAY_ONCE, NULL, T, R, S);
			assert_memory_equal(pose.translation + 3 * b, T, sizeof T);
			assert_memory_equal(pose.rotation + 4 * b, R, sizeof R);
			if (b % 7 == 3)
				continue;
			animrt_sequence_sample(&clip->sequences[b], at, ANIMRT_PLAY_REPEAT, NULL, T, R, S);
			assert_memory_equal(bound.translation + 3 * slot, T, sizeof T);
			assert_memory_equal(bound.rotation + 4 * slot, R, sizeof R);
		}
	}
	animrt_binding_destroy(binding);
	animrt_close(clip);
	free(m1);
	free(m2);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(loads_what_the_writer_writes),
	cmocka_unit_test(sample_offsets_are_right),
	cmocka_unit_test(every_truncation_is_rejected),
	cmocka_unit_test(header_damage),
	cmocka_unit_test(payload_damage),
	cmocka_unit_test(seven_bit_ints),
	cmocka_unit_test(zstd_frames),
	cmocka_unit_test(a_clip_longer_than_the_first_mib_of_its_frame_loads),
	cmocka_unit_test(a_clip_in_a_frame_of_zeros_is_refused_early),
	cmocka_unit_test(a_frame_stops_at_its_headers_size),
	cmocka_unit_test(arguments_and_files),
	cmocka_unit_test(a_file_is_read_no_further_than_its_start_says),
	cmocka_unit_test(file_messages_keep_their_cause),
	cmocka_unit_test(statuses_have_their_own_text),
	cmocka_unit_test(reader_names_are_checked_first),
	cmocka_unit_test(reader_name_rule),
	cmocka_unit_test(timed_sequences_find_keys_through_their_index),
	cmocka_unit_test(indexed_clips_sample_as_their_sequences),
};

ANIMC_TEST_GROUP(tests);
