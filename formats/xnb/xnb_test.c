/*
 * xnb_test.c - the writer: exact bytes of a small clip, options,
 * determinism, zstd, and a round trip source -> clip -> bytes -> loader.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "test_support.h"
#include <animc/animrt.h>
#include "xnb_layout.h"
#include <animc/animc_formats.h>

/* One bone "A", one key, translation fixed at (1, 2, 3), clip of 1 s. */
static animc_clip *tiny_clip(void)
{
	animc_clip *clip = animc_clip_create("");

	clip->duration_s = 1;
	uint32_t ch = test_add_channel(clip, "A", 1, NULL, 0, 1);
	test_set_track(clip, ch, ANIMC_TRANSLATION, true, (const float[]){ 1, 2, 3 }, 1, NULL);
	return clip;
}

static void writes_the_original_layout_byte_for_byte(void **state)
{
	static const uint8_t payload[] = {
		0x01, 0x00, 0x00, 0x00,             /* KeyFrameSequenceCount 1 */
		0x00, 0x00, 0x80, 0x3F,             /* Duration 1.0 */
		0x01, 'A',                          /* BoneName */
		0x01, 0x00, 0x00, 0x00,             /* KeyCount 1 */
		0x00, 0x00, 0x80, 0x3F,             /* Duration 1.0 */
		0x00, 0x00, 0x00, 0x00,             /* KeyInterval 0 */
		0x01, 0x00, 0x00, 0x00,             /* HasTranslation, HasRotation, HasScale, HasTime */
		0x01, 0x00, 0x00,                   /* FixedTranslation, FixedRotation, FixedScale */
		0x01, 0x00, 0x00, 0x00,             /* 1 translation */
		0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40,
		0x00, 0x00, 0x00, 0x00,             /* 0 rotations */
		0x00, 0x00, 0x00, 0x00,             /* 0 scales */
		0x00, 0x00, 0x00, 0x00,             /* 0 times */
	};
	const char *reader = XNB_READER_NAME_DEFAULT;
	size_t reader_len = strlen(reader), size;
	animc_clip *clip = tiny_clip();
	uint8_t *bytes;

	(void)state;
	assert_int_equal(reader_len, 89);
	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, &size, NULL), ANIMC_OK);
	assert_int_equal(size, 10 + 1 + 1 + reader_len + 4 + 1 + 1 + sizeof payload);
	assert_memory_equal(bytes, "XNBw\x05\x00", 6);
	assert_int_equal(xnb_get_u32(bytes + 6), size);
	assert_int_equal(bytes[10], 1);                  /* one type reader */
	assert_int_equal(bytes[11], reader_len);         /* 7-bit length */
	assert_memory_equal(bytes + 12, reader, reader_len);
	assert_memory_equal(bytes + 12 + reader_len, "\0\0\0\0\x00\x01", 6);   /* version 0, 0 shared, reader 1 */
	assert_memory_equal(bytes + 18 + reader_len, payload, sizeof payload);
	free(bytes);
	animc_clip_destroy(clip);
}

static void platform_and_reader_name(void **state)
{
	animc_clip *clip = tiny_clip();
	animc_xnb_options o = { .platform = 'x', .reader_name = "My.Reader, My" };
	animrt_clip *loaded;
	uint8_t *bytes;
	size_t size;

	(void)state;
	assert_int_equal(animc_xnb_write(clip, &o, &bytes, &size, NULL), ANIMC_OK);
	assert_int_equal(bytes[3], 'x');
	/* Not an AnimationReader by name: the loader takes it when told to. */
	const char *names[] = { "My.Reader" };
	animrt_open_options takes = { names, 1, false, false };
	assert_int_equal(animrt_open(bytes, size, &loaded, NULL), ANIMRT_ERR_CONTENT);
	assert_int_equal(animrt_open_with(bytes, size, &takes, &loaded, NULL), ANIMRT_OK);
	assert_string_equal(loaded->container.reader, "My.Reader, My");
	assert_int_equal(loaded->container.platform, 'x');
	animrt_close(loaded);
	free(bytes);
	o.platform = 'Q';
	assert_int_equal(animc_xnb_write(clip, &o, &bytes, &size, NULL), ANIMC_ERR_ARGUMENT);
	assert_null(bytes);
	o.platform = 0;
	o.reader_name = "Bad\xFFReader";
	assert_int_equal(animc_xnb_write(clip, &o, &bytes, &size, NULL), ANIMC_ERR_ARGUMENT);
	assert_null(bytes);
	/* A reader name of 200 bytes takes a two-byte length. */
	char long_name[201];
	memset(long_name, 'R', 200);
	memcpy(long_name + 200 - strlen("AnimationReader"), "AnimationReader", strlen("AnimationReader"));
	long_name[200] = '\0';
	o.platform = 0;
	o.reader_name = long_name;
	assert_int_equal(animc_xnb_write(clip, &o, &bytes, &size, NULL), ANIMC_OK);
	assert_memory_equal(bytes + 11, "\xC8\x01", 2);
	assert_int_equal(animrt_open(bytes, size, &loaded, NULL), ANIMRT_OK);
	assert_int_equal(strlen(loaded->container.reader), 200);
	animrt_close(loaded);
	free(bytes);
	animc_clip_destroy(clip);
}

/* MonoGame's identifiers, legacy and current, both ways: the writer writes
 * each, the loader reads each back; a file of another content type is
 * refused by its reader's name whatever its letter, known or not. */
static void every_monogame_platform_letter(void **state)
{
	static const char monogame[] = "wxmiadXWnpMrPgl" "5OSbVGsv";
	animc_clip *clip = tiny_clip();
	size_t texture_size;
	uint8_t *texture = test_read_file("testdata/fuzz/loader/other-texture2d.xnb", &texture_size);

	(void)state;
	for (const char *l = monogame; *l; l++) {
		animc_xnb_options o = { .platform = *l };
		animrt_clip *loaded;
		animrt_error err;
		uint8_t *bytes;
		size_t size;

		assert_non_null(strchr(animc_xnb_platforms(), *l));
		assert_int_equal(animc_xnb_write(clip, &o, &bytes, &size, NULL), ANIMC_OK);
		assert_int_equal(bytes[3], *l);
		assert_int_equal(animrt_open(bytes, size, &loaded, &err), ANIMRT_OK);
		assert_int_equal(loaded->container.platform, *l);
		animrt_close(loaded);
		free(bytes);
		texture[3] = (uint8_t)*l;
		assert_int_equal(animrt_open(texture, texture_size, &loaded, &err), ANIMRT_ERR_CONTENT);
		assert_int_equal(err.byte_offset, 11);
		assert_non_null(strstr(err.message, "Texture2DReader"));
	}
	/* Letters no runtime knows: the texture is still named; a clip is
	 * refused at the platform byte. */
	for (const char *l = "Q\001z"; *l; l++) {
		animc_xnb_options o = { .platform = *l };
		animrt_clip *loaded;
		animrt_error err;
		uint8_t *bytes;
		size_t size;

		assert_null(strchr(animc_xnb_platforms(), *l));
		assert_int_equal(animc_xnb_write(clip, &o, &bytes, &size, NULL), ANIMC_ERR_ARGUMENT);
		texture[3] = (uint8_t)*l;
		assert_int_equal(animrt_open(texture, texture_size, &loaded, &err), ANIMRT_ERR_CONTENT);
		assert_non_null(strstr(err.message, "Texture2DReader"));
		assert_int_equal(animc_xnb_write(clip, NULL, &bytes, &size, NULL), ANIMC_OK);
		bytes[3] = (uint8_t)*l;
		assert_int_equal(animrt_open(bytes, size, &loaded, &err), ANIMRT_ERR_MAGIC);
		assert_int_equal(err.byte_offset, 3);
		free(bytes);
	}
	/* Broken beyond the letter too: the letter is what is reported. */
	texture[3] = 'Q';
	texture[4] = 9;
	assert_int_equal(animrt_open(texture, texture_size, &(animrt_clip *){ NULL }, NULL), ANIMRT_ERR_MAGIC);
	free(texture);
	animc_clip_destroy(clip);
}

static void output_is_deterministic_and_zstd_wraps_it(void **state)
{
	animc_clip *clip = tiny_clip();
	animc_xnb_options z = { .compression = ANIMC_COMPRESSION_ZSTD };
	uint8_t *a, *b, *za, *zb;
	size_t as, bs, zas, zbs;

	(void)state;
	assert_int_equal(animc_xnb_write(clip, NULL, &a, &as, NULL), ANIMC_OK);
	assert_int_equal(animc_xnb_write(clip, NULL, &b, &bs, NULL), ANIMC_OK);
	assert_int_equal(as, bs);
	assert_memory_equal(a, b, as);
	assert_int_equal(animc_xnb_write(clip, &z, &za, &zas, NULL), ANIMC_OK);
	assert_int_equal(animc_xnb_write(clip, &z, &zb, &zbs, NULL), ANIMC_OK);
	assert_int_equal(zas, zbs);
	assert_memory_equal(za, zb, zas);
	/* One frame that decompresses to exactly the plain file. */
	assert_int_equal(ZSTD_findFrameCompressedSize(za, zas), zas);
	assert_int_equal(ZSTD_getFrameContentSize(za, zas), as);
	uint8_t *round = malloc(as);
	assert_int_equal(ZSTD_decompress(round, as, za, zas), as);
	assert_memory_equal(round, a, as);
	free(zb);
	z.zstd_level = 99;
	assert_int_equal(animc_xnb_write(clip, &z, &zb, &zbs, NULL), ANIMC_ERR_ARGUMENT);
	assert_null(zb);
	free(round);
	free(a);
	free(b);
	free(za);
	animc_clip_destroy(clip);
}

static void refuses_an_unvalidated_clip(void **state)
{
	animc_clip *clip = tiny_clip();
	uint8_t *bytes;
	size_t size;

	(void)state;
	clip->channels[0].has_time = true;   /* but no times */
	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, &size, NULL), ANIMC_ERR_INVALID);
	assert_null(bytes);
	animc_clip_destroy(clip);
}

/* Every value of the clip equals what the loader reads back. */
static void assert_same(const animc_clip *clip, const animrt_clip *rt)
{
	assert_true(rt->duration_s == clip->duration_s);
	assert_int_equal(rt->sequence_count, clip->channel_count);
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *c = &clip->channels[i];
		const animrt_sequence *s = &rt->sequences[i];
		const float *lists[3] = { s->translation, s->rotation, s->scale };
		const uint32_t counts[3] = { s->translation_count, s->rotation_count, s->scale_count };
		const bool has[3] = { s->has_translation, s->has_rotation, s->has_scale };
		const bool fixed[3] = { s->is_fixed_translation, s->is_fixed_rotation, s->is_fixed_scale };

		assert_string_equal(s->bone, c->bone);
		assert_int_equal(s->key_count, c->key_count);
		assert_true(s->duration_s == c->duration_s && s->key_interval_s == c->key_interval_s);
		assert_int_equal(s->has_time, c->has_time);
		if (c->has_time)
			assert_memory_equal(s->times_s, c->times_s, c->key_count * sizeof(float));
		for (int k = 0; k < 3; k++) {
			assert_int_equal(has[k], c->tracks[k].is_present);
			assert_int_equal(fixed[k], c->tracks[k].is_fixed);
			assert_int_equal(counts[k], c->tracks[k].is_present ? c->tracks[k].value_count : 0);
			if (counts[k])
				assert_memory_equal(lists[k], c->tracks[k].values,
						    counts[k] * animc_track_width[k] * sizeof(float));
		}
	}
}

static void round_trip_source_to_loader(void **state)
{
	const char *paths[] = { "testdata/sample/Crane/Idle.Animation", "testdata/sample/Crane/Wave.Animation" };

	(void)state;
	for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
		size_t size, xnb_size;
		uint8_t *data = test_read_file(paths[p], &size);
		animc_import_request req = { paths[p], data, size, NULL };
		animc_clip_set set = { 0 };
		animrt_clip *rt;
		uint8_t *xnb;

		assert_int_equal(animc_importer_robotgame.import(&req, &set, NULL), ANIMC_OK);
		assert_int_equal(animc_clip_process(set.clips[0], NULL, NULL, NULL), ANIMC_OK);
		assert_int_equal(animc_xnb_write(set.clips[0], NULL, &xnb, &xnb_size, NULL), ANIMC_OK);
		assert_int_equal(animrt_open(xnb, xnb_size, &rt, NULL), ANIMRT_OK);
		assert_true(rt->sequence_count > 0);
		assert_same(set.clips[0], rt);
		animrt_close(rt);
		free(xnb);
		animc_clip_set_release(&set);
		free(data);
	}
}

/* Options that name no file a reader takes are refused, saying which:
 * a compression none of animc_compression's (it wrote the file plain) and
 * an empty reader name (the runtime refuses the file it wrote). */
static void options_naming_no_readable_file_are_refused(void **state)
{
	animc_clip *clip = tiny_clip();
	animc_xnb_options unknown = { .compression = (animc_compression)5 }, empty = { .reader_name = "" };
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, "t");
	uint8_t *bytes;
	size_t size;

	(void)state;
	assert_int_equal(animc_xnb_write(clip, &unknown, &bytes, &size, &sink), ANIMC_ERR_ARGUMENT);
	assert_null(bytes);
	assert_int_equal(animc_xnb_write(clip, &empty, &bytes, &size, &sink), ANIMC_ERR_ARGUMENT);
	assert_null(bytes);
	assert_int_equal(sink.error_count, 2);
	assert_string_equal(diags.items[0].message,
			    "compression 5 is neither ANIMC_COMPRESSION_NONE nor ANIMC_COMPRESSION_ZSTD");
	assert_string_equal(diags.items[1].message, "the reader name is empty: give one, or NULL for the default");
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* A NULL clip, out or out_size is an argument error, said; a NULL out
 * was written through and crashed. */
static void write_refuses_null_arguments(void **state)
{
	animc_clip *clip = tiny_clip();
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	uint8_t *bytes = (uint8_t *)"x";
	size_t size = 1;

	(void)state;
	assert_int_equal(animc_xnb_write(clip, NULL, NULL, &size, &sink), ANIMC_ERR_ARGUMENT);
	assert_int_equal(size, 0);
	assert_int_equal(animc_xnb_write(clip, NULL, &bytes, NULL, &sink), ANIMC_ERR_ARGUMENT);
	assert_null(bytes);
	assert_int_equal(animc_xnb_write(NULL, NULL, &bytes, &size, &sink), ANIMC_ERR_ARGUMENT);
	assert_int_equal(animc_xnb_write(clip, NULL, NULL, NULL, NULL), ANIMC_ERR_ARGUMENT);
	assert_int_equal(diags.count, 3);
	assert_string_equal(diags.items[0].message, "animc_xnb_write: no place for the bytes, out (NULL)");
	assert_string_equal(diags.items[1].message, "animc_xnb_write: no place for their size, out_size (NULL)");
	assert_string_equal(diags.items[2].message, "animc_xnb_write: no clip (NULL)");
	test_diags_release(&diags);
	animc_clip_destroy(clip);
}

/* animc_formats_versions from threads at once: one line, the same for
 * each.  It was made on the first call into a shared buffer, unguarded,
 * so two first calls at once wrote it together while reading it (a race
 * ThreadSanitizer reports; the bytes rarely differ, so this test alone
 * seldom sees it). */
static void *versions_of(void *arg)
{
	(void)arg;
	return (void *)(uintptr_t)animc_formats_versions();
}

static void formats_versions_from_threads(void **state)
{
	pthread_t threads[4];
	void *lines[4];

	(void)state;
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&threads[i], NULL, versions_of, NULL), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_join(threads[i], &lines[i]), 0);
	for (int i = 0; i < 4; i++) {
		assert_ptr_equal(lines[i], lines[0]);
		assert_true(strncmp(lines[i], "libxml2 ", 8) == 0 && strstr(lines[i], ", zstd "));
	}
	assert_string_equal(animc_formats_versions(), lines[0]);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(writes_the_original_layout_byte_for_byte),
	cmocka_unit_test(platform_and_reader_name),
	cmocka_unit_test(write_refuses_null_arguments),
	cmocka_unit_test(formats_versions_from_threads),
	cmocka_unit_test(options_naming_no_readable_file_are_refused),
	cmocka_unit_test(every_monogame_platform_letter),
	cmocka_unit_test(output_is_deterministic_and_zstd_wraps_it),
	cmocka_unit_test(refuses_an_unvalidated_clip),
	cmocka_unit_test(round_trip_source_to_loader),
};

ANIMC_TEST_GROUP(tests);
